//! The search's fast path: judging a repeated cycle found inside the search tree.
//!
//! Search calls [`judge_cycle`] only when the current position equals one `len` plies back
//! (since the last capture). Nothing is computed in make/unmake: the checks come from the
//! history's gave-check flags ([`crate::board::StateInfo::gave_check`]), and chases are computed only now, on the cycle alone, by
//! rolling a scratch copy of the position back along it ([`Position::clone_with_tail`]).
//!
//! Work, cheapest first, stopping as soon as the answer is known:
//! 1. Check flags: one side checking on every move loses at once (25.1), both is 26.8.4.
//! 2. A per-thread cache of recent cycles (the same cycle is met again and again in a tree),
//!    and one of moves found idle (different cycles share their shuffling moves).
//! 3. The moves, classified with [`Options::FAST`]: a checking move is judged by its check
//!    (26.4), chases as in the referee except 24.3's wins by a series of checks or through
//!    exchanges (a move whose only chase is such a win counts as idle here), 杀 as *mate in
//!    one* only (the referee looks up to three checks deep), no mate-threat test on a move
//!    that already chases. A side is done with at its first idle move (its cycle is allowed,
//!    24.14); both sides idle is a draw at once.
//!
//! What the search does with the result (score band, TT hygiene) is up to the search. A cycle
//! that closes on the root move or the answer to it is judged by [`judge_cycle_exact`] instead,
//! with the referee's classification: those rulings are the game's.
//!
//! Cost (`cargo bench --bench repetition`; callgrind instruction counts of a 200k-node
//! search): nothing in make/unmake, so perft is unchanged; `repetition::score` without a hit
//! is the same walk as before (~25 ns); a hit answered by the cache ~30 ns; a cycle classified
//! afresh 1–15 µs. In a middlegame search the fast path is below 0.1% of the work; in
//! shuffling endgames, where 3–4% of nodes repeat, it is 5.5–6.5% of all instructions, most
//! of it the mate-in-one test of the first idle move of each side.

use super::classify::{classify_move, IdBoard, Options};
use super::nature::{IdleKind, MoveNatures, NatureClass};
use super::rule_set::RuleSet;
use super::verdict::judge;
use crate::board::GameResult;
use crate::board::{Color, Position};
use std::cell::RefCell;

/// Entries of the per-thread cycle cache (a power of two).
const CACHE_SIZE: usize = 1 << 14;
/// Entries of the per-thread cache of idle moves (a power of two).
const IDLE_SIZE: usize = 1 << 14;

thread_local! {
    /// Recent cycles: (signature, outcome). Signature 0 is an empty slot.
    static CACHE: RefCell<Vec<(u64, Option<GameResult>)>> = RefCell::new(vec![(0, None); CACHE_SIZE]);
    /// Moves found idle lately, by (position key, move): most cycles in a tree are shuffles
    /// that share their moves, and one idle move settles a side (24.14).
    static IDLE: RefCell<Vec<u64>> = RefCell::new(vec![0; IDLE_SIZE]);
}

/// The idle-cache signature of move `m` in a position with key `key`.
fn move_signature(key: u64, m: crate::board::Move, rules: RuleSet) -> u64 {
    let h = (key ^ u64::from(m.to_u16()).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    (if rules == RuleSet::Axf { !h } else { h }) | 1
}

/// The classifier options for `rules` on the fast path.
const fn options(rules: RuleSet) -> Options {
    match rules {
        RuleSet::Cxa2011 => Options::FAST,
        // AXF as pyffish: no 杀, chases on checking moves count, new attacks only, a capture
        // answered by mate still threatens.
        RuleSet::Axf => Options {
            threat_depth: 0,
            chase_on_check: true,
            threat_on_chase: false,
            new_attack_only: true,
            check_series: 0,
            exchanges: 0,
            mate_spoils_capture: false,
        },
    }
}

/// A signature of the cycle: the keys of its positions, in order, and the rule set.
fn signature(pos: &Position, len: usize, rules: RuleSet) -> u64 {
    let hist = pos.history();
    let mut h = pos.key() ^ (len as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for st in &hist[hist.len() - len..] {
        h = h.rotate_left(7) ^ st.key;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    }
    if rules == RuleSet::Axf {
        h = !h;
    }
    h | 1
}

/// Rules on the cycle formed by the last `len` moves of `pos`, whose current position
/// equals the one `len` plies back. Returns who loses, or `Some(`[`GameResult::Draw`]`)`;
/// [`None`] only for input that is not a cycle (too short, a null move in it).
pub fn judge_cycle(pos: &Position, len: usize, rules: RuleSet) -> Option<GameResult> {
    let mover = cycle_mover(pos, len)?;
    let hist = pos.history();
    let n = hist.len();
    let start = n - len;
    // 1. 25.1: perpetual check, from the flags alone.
    let all_check = |side: Color| {
        (start..n)
            .filter(|&j| mover(j) == side)
            .all(|j| hist[j].gave_check)
    };
    match (all_check(Color::Red), all_check(Color::Black)) {
        (true, false) => return Some(GameResult::BlackWins),
        (false, true) => return Some(GameResult::RedWins),
        (true, true) => return Some(GameResult::Draw),
        (false, false) => {}
    }
    // 2. Seen this cycle lately? 3. If not, classify, rolling a scratch copy back to the
    // start of the cycle.
    cached(signature(pos, len, rules), || {
        classify_cycle(pos, len, rules, mover, options(rules), true)
    })
}

/// Who made move `j` of the history, when the last `len` moves of `pos` form a cycle the
/// judges can read (at least two moves, all within the history, no null move): the side to
/// move made moves n-2, n-4, ..., the other side n-1, n-3, ...
fn cycle_mover(pos: &Position, len: usize) -> Option<impl Fn(usize) -> Color> {
    let hist = pos.history();
    let n = hist.len();
    if len < 2 || len > n || hist[n - len..].iter().any(|st| st.mv.is_none()) {
        return None;
    }
    let stm = pos.side_to_move();
    Some(move |j: usize| {
        if (n - j).is_multiple_of(2) {
            stm
        } else {
            stm.flip()
        }
    })
}

/// The per-thread cycle cache: the outcome recorded under `sig`, else `classify`'s, recorded.
fn cached(sig: u64, classify: impl FnOnce() -> Option<GameResult>) -> Option<GameResult> {
    let slot = (sig as usize) & (CACHE_SIZE - 1);
    if let Some(hit) = CACHE.with(|c| {
        c.borrow()
            .get(slot)
            .filter(|(s, _)| *s == sig)
            .map(|(_, o)| *o)
    }) {
        return hit;
    }
    let outcome = classify();
    CACHE.with(|c| {
        if let Some(e) = c.borrow_mut().get_mut(slot) {
            *e = (sig, outcome);
        }
    });
    outcome
}

/// [`judge_cycle`] without the per-thread cache: what a cycle met for the first time costs
/// (benchmarks and tests).
pub fn judge_cycle_uncached(pos: &Position, len: usize, rules: RuleSet) -> Option<GameResult> {
    let mover = cycle_mover(pos, len)?;
    classify_cycle(pos, len, rules, mover, options(rules), true)
}

/// A cycle judged as the game referee judges it: every move classified with the referee's
/// options ([`Options::referee`]: mate threats up to three checks deep, chases behind checks,
/// wins by a series of checks or through exchanges), and no move taken as idle from the
/// fast path's cache. For the first plies of a search, where a cycle closes on the move the
/// engine is about to play or on the answer to it: there the ruling is the game's, and the
/// fast path's "杀 is mate in one" once read a 一将一杀 (24.13) as a check and an idle move,
/// so the engine played into a forbidden repetition and lost. Cached apart from the fast
/// path's rulings, since the same few cycles are met at every iteration.
pub fn judge_cycle_exact(pos: &Position, len: usize, rules: RuleSet) -> Option<GameResult> {
    let mover = cycle_mover(pos, len)?;
    // A distinct signature keeps exact rulings apart from the fast path's in one cache.
    cached(signature(pos, len, rules) ^ EXACT_SALT | 1, || {
        classify_cycle(pos, len, rules, mover, Options::referee(rules), false)
    })
}

/// Mixed into the signature of a cycle judged by [`judge_cycle_exact`].
const EXACT_SALT: u64 = 0x5851_f42d_4c95_7f2d;

/// Step 3 of [`judge_cycle`] (and the whole of [`judge_cycle_exact`]), with the classifier
/// options `opts`; `idle_cache`: read and fill the cache of moves found idle (fast path only,
/// since a move idle to the fast path may be a mate threat to the referee).
fn classify_cycle(
    pos: &Position,
    len: usize,
    rules: RuleSet,
    mover: impl Fn(usize) -> Color,
    opts: Options,
    idle_cache: bool,
) -> Option<GameResult> {
    let n = pos.history().len();
    let start = n - len;
    let mut scratch = pos.clone_with_tail(len);
    for _ in 0..len {
        scratch.unmake_move();
    }
    let mut ids = IdBoard::new(&scratch);
    let mut red: Vec<MoveNatures> = Vec::with_capacity(len / 2 + 1);
    let mut black: Vec<MoveNatures> = Vec::with_capacity(len / 2 + 1);
    let (mut red_idle, mut black_idle) = (false, false);
    for (j, st) in pos.history().iter().enumerate().skip(start) {
        let m = st.mv?;
        let side = mover(j);
        let done = match side {
            Color::Red => red_idle,
            Color::Black => black_idle,
        };
        if !done {
            let check = st.gave_check;
            let msig = move_signature(scratch.key(), m, rules);
            let slot = (msig as usize) & (IDLE_SIZE - 1);
            let known_idle =
                idle_cache && !check && IDLE.with(|c| c.borrow().get(slot) == Some(&msig));
            let natures = if known_idle {
                MoveNatures::idle(IdleKind::Plain)
            } else if check && !opts.chase_on_check {
                // 26.4: the check is the heaviest nature; nothing else matters here.
                MoveNatures::check()
            } else {
                classify_move(&mut scratch, m, &ids, &opts).natures
            };
            let idle = natures.heaviest() == NatureClass::Idle;
            if idle && !known_idle && idle_cache {
                IDLE.with(|c| {
                    if let Some(e) = c.borrow_mut().get_mut(slot) {
                        *e = msig;
                    }
                });
            }
            match side {
                Color::Red => {
                    red_idle |= idle;
                    red.push(natures);
                }
                Color::Black => {
                    black_idle |= idle;
                    black.push(natures);
                }
            }
            if red_idle && black_idle {
                // 25.2: both sides allowed.
                return Some(GameResult::Draw);
            }
        }
        ids.apply(m);
        scratch.make_move_with(m, st.gave_check);
    }
    match judge(rules, &red, &black).outcome {
        None => Some(GameResult::Draw),
        o => o,
    }
}

/// Test helper: plays ICCS moves from a FEN (the history [`judge_cycle`] and the search's
/// repetition probe read). Panics on bad input.
#[cfg(test)]
pub(crate) fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chase_of_an_unprotected_cannon_loses() {
        // own_rook_chases_unprotected_cannon, one period.
        let pos = play(
            "3k5/9/2c6/R8/9/9/9/9/9/4K4 w - - 0 1",
            "a6a7 c7c6 a7a6 c6c7 a6a7",
        );
        for _ in 0..2 {
            // The second call is answered from the cache.
            assert_eq!(
                judge_cycle(&pos, 4, RuleSet::Cxa2011),
                Some(GameResult::BlackWins)
            );
        }
        assert_eq!(
            judge_cycle(&pos, 4, RuleSet::Axf),
            Some(GameResult::BlackWins)
        );
    }

    #[test]
    fn idle_cycle_is_a_draw_and_bad_input_is_none() {
        let pos = play("3k5/9/9/p8/9/9/P8/9/9/4K4 w - - 0 1", "e0e1 d9d8 e1e0 d8d9");
        assert_eq!(
            judge_cycle(&pos, 4, RuleSet::Cxa2011),
            Some(GameResult::Draw)
        );
        assert_eq!(judge_cycle(&pos, 9, RuleSet::Cxa2011), None);
    }

    #[test]
    fn perpetual_check_from_the_flags() {
        let pos = play("4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1", "f5e5 e9f9 e5f5 f9e9");
        assert_eq!(
            judge_cycle(&pos, 4, RuleSet::Cxa2011),
            Some(GameResult::BlackWins)
        );
    }
}
