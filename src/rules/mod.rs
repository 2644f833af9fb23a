//! The repetition referee: 长将, 长捉 and the rest of 棋例 (CXA 2011, articles 23–26), plus the
//! natural move limit (4.2.4, 22.2).
//!
//! # How the referee works, end to end
//!
//! 1. **Record every ply.** Per ply the game (and the search stack) keeps the position key,
//!    the side that moved, whether it captured and whether it gave check. Captures and checks
//!    also feed the natural limit ([`limit::natural_limit`]), which is checked after mate.
//! 2. **Find the cycle.** From the current position, walk back two plies at a time, no further
//!    than the last capture: a capture cannot repeat, and the position it creates is the first
//!    occurrence (23.2). Count the earlier occurrences of the current key. The game referee
//!    rules when the count reaches [`verdict::RULING_OCCURRENCE`] (the third occurrence; fewer
//!    is 23.3); search rules on the first repetition inside its tree. The plies between the
//!    last two occurrences are one period of the cycle, split into red's and black's moves.
//! 3. **Classify each move of the period** into a [`nature::MoveNatures`]: 将 (24.1), 杀 (24.2),
//!    捉 with its targets (24.3, 24.15–24.17), or 闲 (24.4–24.8), after the special articles
//!    26.1–26.7, 26.9 and 26.10. This is replayed on a scratch copy of the position, only when
//!    a repetition is found.
//! 4. **Rule.** [`verdict::adjudicate`] (game) or [`verdict::judge`] (search) sums up each side
//!    with [`verdict::classify`] (长将, 长杀, 长捉, the mixed cycles of 24.13, or allowed) and
//!    applies 25.1, 25.2, 25.3 and 26.8.1–26.8.4. The [`verdict::Verdict`] names the loser
//!    (the side that must vary), the deciding clause and both patterns.
//!
//! The rule book is a parameter: [`rule_set::RuleSet::Cxa2011`] (default) or
//! [`rule_set::RuleSet::Axf`], the Asian rules as Fairy-Stockfish/pyffish apply them; all their
//! differences sit in one table, [`rule_set::PROFILES`].
//!
//! # Where each step lives
//!
//! - [`nature`], [`verdict`]: the vocabulary, the per-side patterns and the verdict table for
//!   both rule sets and the repetition-count gate; [`ruling`]: outcomes and the clauses they
//!   cite; [`rule_set`]: the two rule books as one table; [`limit`]: the natural limit (all
//!   board-independent).
//!   `CASES.md` spells out, for every case of `tests/data/repetition_cases.json`, the natures
//!   the classifier must produce and the ruling that follows; `spec_tests.rs` replays them.
//! - [`mod@classify`]: step 3 on the board — what one move is (将, 杀 by a short series of
//!   checks, 捉 with its targets, 闲), with stable piece ids from replaying the moves.
//! - [`cycle`]: steps 1–2 for a game — replay, keys, repetitions since the last capture,
//!   third occurrence by default, the strict count (cycle played three times) as an option.
//! - [`referee`]: the whole game — 4.1.1/4.1.2, repetitions, the natural limit — with a report
//!   of every move (`jiangjun judge`, text or JSON).
//! - [`arbiter`]: how a game being played ends, before each move — the same checks, the
//!   repetition ruled by [`referee`] — with one cause type ([`Termination`]) for the match
//!   runner and data generation.
//! - [`fast`]: the search's fast path on a cycle found in the tree (check flags first, then a
//!   per-thread cache, then classification on a scratch copy; 杀 as mate in one only).
//!
//! Not done: keeping rule verdicts out of the search's transposition table (repetition.md
//! §7.4, the search's side). The fast path does not look for 24.3's wins by a series of
//! checks (the referee does, two checks deep) nor through exchanges (the referee does, two
//! exchanges deep): where a side's only chasing moves are such wins, the fast path calls its
//! cycle allowed. 23.4's nine rounds are a referee option.
//! A board-level cycle for 26.8.2 (a joint chase of a rook) is still missing: with rook for
//! rook an exchange, a rook can only be chased jointly when it cannot take back (pinned), and
//! no such cycle has been built yet; 26.8.2 is tested on natures (verdict.rs).
//!
//! # Readings of unclear points (see also rules.md)
//!
//! - Both sides on 26.8.1's list: neither is singled out, so it is a draw (26.8.4) unless
//!   26.8.2/26.8.3 apply. This is how the 2011 rules' 图3 is ruled (长捉无根子 against 长捉车: 和).
//! - 长捉 may chase different pieces on different moves (24.11, "一子或数子").
//! - 杀 weighs more than 捉 for 26.4; a cycle of 将, 杀 and 捉 is forbidden and on 26.8.1's list.
//! - 少根子 and 假根 targets count as 无根子.
//! - 26.8.2/26.8.3 compare a side that chases such a piece alone on every move with one that
//!   chases it only jointly on every move.
//! - 22.2 caps only the claimant's checks; each check beyond the tenth removes its round. An
//!   automatic referee draws when either side's claim would be upheld.
//! - 24.3's series of checks: at most two checks, every answer considered, then a capture
//!   that gains by itself; material the checks take does not pay for a losing capture, and a
//!   mating line is 杀, not a win of material. A win by checks is new only if the piece could
//!   not be won before by any means; a new direct attack is a chase even if checks could have
//!   won the piece before.
//! - 24.3's complete exchange (通过完整互吃交换后吃掉对方子且得子, 图4), bounded by
//!   [`classify::EXCHANGE_BOUND`]: at most two exchanges, then the winning capture (three
//!   captures of the mover, two answers). An exchange is a capture that does not gain by
//!   itself (one that does chases the piece it takes). After each, the opponent may take
//!   back, take anything else, or not capture (then the line is judged by the material the
//!   exchanges won); a capture that checks must be answered, so a recapture with (discovered)
//!   check refutes the line, and pins are respected because every capture is legal. Quiet
//!   moves of the opponent other than answers to check are not looked at. The winning
//!   capture must gain by itself (its own swap, 1.2/26.5/26.6 values) and the whole line must
//!   end ahead; it must not lose at once to mate. The target is reported as a joint chase
//!   (24.17) of a 少根子 (24.15: its root can be exchanged off, "被保护不充分"), which this
//!   reading counts as 无根子 for 26.8. New under the same condition as a win by checks.
//! - 26.2: the defending side is the one whose single attacking piece (rook, horse, cannon or
//!   pawn) is worth less than the opponent's attacking pieces; every move of it counts as
//!   holding its post, so its chases of advisors and elephants are idle. Other targets count.
//! - 26.3 (自毙, 24.18): a mate threat made by a non-king answer to check is the checker's own
//!   doing, and idle, when the same move in the position before the check (the checker
//!   passing) would threaten no mate; otherwise the answer made a new mating line: 杀.
//! - 26.7: a pawn move whose win needs the pawn's own discovered check (抽吃) is idle; a pawn
//!   capture that uncovers another piece's check makes the pawn's chase an ordinary one.
//! - 23.4 (option `RefereeOptions::nine_rounds`, `judge --nine-rounds`): the last nine rounds
//!   are judged as a cycle when a side went back and forth over three or more points (every
//!   point reached at least twice) with no capture; ruled when that costs the cycling side the
//!   game, or when both sides cycle.
//! - 捉 is judged per chased piece: winnable after the move and not before. So cutting a root
//!   (图3 "断根捉马", including a hidden root, 24.15) is a chase, and an attack that merely
//!   persists is not (图5). AXF as pyffish applies it counts new attacks only, with no 图5
//!   filter: a new attack (direct, uncovered, by a piece that has just become a discoverer
//!   against the king, or through a newly pinned root) on a winnable piece is a chase even
//!   if the piece could be won before. AXF judges every move from the first of the counted
//!   occurrences (and the move into it), as pyffish does; the 2011 rules, the last period.
//!   A capture answered by mate in one wins nothing under the 2011 rules (24.3 "得子后不致
//!   立即……被对方将死"); AXF's chase is "a move that threatens to capture", with no such
//!   clause, so under AXF the threat counts (as pyffish rules).
//!   The search's fast path judges the last period under both. `scripts/axf_check.py`
//!   checks the AXF profile against pyffish on random cycles and lists where pyffish is
//!   held wrong.

pub mod arbiter;
pub mod classify;
pub mod cycle;
pub mod fast;
pub mod limit;
pub mod nature;
pub mod referee;
pub mod rule_set;
pub mod ruling;
pub mod verdict;

#[cfg(test)]
mod spec_tests;

pub use arbiter::{Arbiter, Ending, GameLog, Termination};
pub use cycle::{Count, Repetition, Replay, ReplayError};
pub use limit::{natural_limit, natural_limit_with, LimitStatus, PlyRecord};
pub use nature::{
    ChaseTarget, Chaser, IdleKind, MoveNatures, Nature, NatureClass, PieceId, Protection,
};
pub use referee::{
    judge as judge_game, judge_replay, judge_with, Judgement, MoveReport, RefereeOptions, Reports,
};
pub use rule_set::{CheckScope, LimitRule, Profile, RuleSet, UnknownRuleSet, PROFILES};
pub use ruling::{ruling_word, Clause};
pub use verdict::{
    adjudicate, classify, judge, ChaseSummary, Coverage, Pattern, Verdict, RULING_OCCURRENCE,
};
