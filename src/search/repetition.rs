//! Repetitions inside the search tree: the fast path of the repetition rules.
//!
//! When the current position already occurred since the last capture, the moves between the
//! two occurrences form a cycle, and [`crate::rules::fast::judge_cycle`] rules on it under the
//! 2011 rules (or the AXF rules, by the engine's `repetition` option): one-sided perpetual check (25.1), 长捉 / 长杀 / the mixed cycles of 24.13
//! against allowed moves (25.3), both forbidden (26.8), or a draw (25.2).
//!
//! Cost: one key comparison every two plies back to the last capture at every node. Only on
//! a hit is the cycle judged: its check flags first (which the search keeps anyway for its
//! check extension); chases and mate-in-one threats are computed on a scratch copy of the
//! cycle only when no side checked on every move, and the result is cached per thread.
//! Cycles that close on the root move or the answer to it are judged with the referee's full
//! classification instead ([`EXACT_PLIES`]), so the move played never loses by a rule the fast
//! path cannot see.

use super::score::{rule_loss_in, rule_win_in};
use crate::board::{GameResult, Position};
use crate::rules::fast::{judge_cycle, judge_cycle_exact};
use crate::rules::RuleSet;

/// Plies without a capture that draw the game under `rules` (2011 rules 4.2.4: 60 moves per
/// side, 120 plies; AXF: 50 moves, 100 plies), from the rule set's profile. The search counts
/// plies only; the referee also discounts checks beyond the counted ones (22.2).
pub fn natural_limit_plies(rules: RuleSet) -> u32 {
    rules.profile().limit.plies
}

/// The score (for the side to move) of a repetition at this node under the 2011 rules, if the
/// position repeats.
pub fn score(pos: &Position, ply: usize) -> Option<i32> {
    score_with(pos, ply, RuleSet::Cxa2011)
}

/// [`score`] under a chosen rule set (the engine's `repetition` option).
pub fn score_with(pos: &Position, ply: usize, rules: RuleSet) -> Option<i32> {
    let hist = pos.history();
    let n = hist.len();
    let window = (pos.halfmove_clock() as usize).min(n);
    let key = pos.key();
    let mut i = 2;
    while i <= window {
        // A null move (search only) breaks the chain: that is not a game repetition.
        if hist[n - i + 1].mv.is_none() || hist[n - i].mv.is_none() {
            return None;
        }
        if i >= 4 && hist[n - i].key == key {
            return Some(judge(pos, i, ply, rules));
        }
        i += 2;
    }
    None
}

/// Cycles that close within this many plies of the root are judged as the referee judges
/// them ([`judge_cycle_exact`]): the move played and the answer to it decide the game's
/// ruling, deeper cycles only steer the search.
pub const EXACT_PLIES: usize = 2;

/// Scores the cycle of the last `len` moves: a rule loss or win `ply` plies from the root
/// ([`rule_loss_in`], [`rule_win_in`]), anything else a draw.
fn judge(pos: &Position, len: usize, ply: usize, rules: RuleSet) -> i32 {
    let us = pos.side_to_move();
    let outcome = if ply <= EXACT_PLIES {
        judge_cycle_exact(pos, len, rules)
    } else {
        judge_cycle(pos, len, rules)
    };
    match outcome.and_then(GameResult::loser) {
        Some(loser) if loser == us => rule_loss_in(ply),
        Some(_) => rule_win_in(ply),
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::fast::play;

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
        // a1a9+ (check along rank 9), e9e8, a9a8+, e8e9, a8a9+ ... repeats.
        let pos = play(fen, "a1a9 e9e8 a9a8 e8e9 a8a9");
        let gave: Vec<bool> = pos.history().iter().map(|s| s.gave_check).collect();
        assert_eq!(gave, [true, false, true, false, true]);
        // The position after a8a9 (black to move) repeats the one after a1a9.
        let s = score(&pos, 5).unwrap();
        assert_eq!(s, rule_win_in(5), "black to move: red checked perpetually");
    }

    #[test]
    fn idle_cycle_is_a_draw() {
        let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
        let pos = play(fen, "a1b1 e9f9 b1a1 f9e9");
        assert_eq!(score(&pos, 4), Some(0));
        let pos = play(fen, "a1b1 e9f9 b1a1");
        assert_eq!(score(&pos, 3), None);
    }

    #[test]
    fn perpetual_chase_loses_for_the_chaser() {
        // tests/data/repetition_cases.json own_rook_chases_unprotected_cannon: the rook chases
        // the unprotected cannon on every move (24.11, 25.3).
        let fen = "3k5/9/2c6/R8/9/9/9/9/9/4K4 w - - 0 1";
        let pos = play(fen, "a6a7 c7c6 a7a6 c6c7 a6a7");
        assert_eq!(score(&pos, 5), Some(rule_win_in(5)));
        // One ply later the chaser is to move: it is the one losing.
        let pos = play(fen, "a6a7 c7c6 a7a6 c6c7 a6a7 c7c6");
        assert_eq!(score(&pos, 6), Some(rule_loss_in(6)));
    }

    /// A game Jiangjun lost by rule (two threads against one, 200 ms a move): Black's rook
    /// checks (f4d4) and goes back (d4f4) with a mate threat that takes a series of checks to
    /// carry out, 一将一杀 (24.13, forbidden: 25.3). The fast path, which knows 杀 as mate in one
    /// only, reads the cycle as a check and an idle move, a draw; the first plies now judge
    /// it as the referee does (`jiangjun judge` on these moves: black_loses 25.3).
    #[test]
    fn a_check_and_a_mate_threat_by_checks_lose_at_the_root() {
        let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
        // The game up to Red's d0e0 (`tests/data/check_and_mate_threat_game.txt`), then d4f4.
        let game = include_str!("../../tests/data/check_and_mate_threat_game.txt");
        let game = format!("{game} d4f4");
        let pos = play(start, &game);
        // Red to move; Black, who closed the cycle, loses.
        for ply in 1..=EXACT_PLIES {
            assert_eq!(score(&pos, ply), Some(rule_win_in(ply)), "ply {ply}");
        }
        assert_eq!(
            score(&pos, EXACT_PLIES + 1),
            Some(0),
            "deeper, the fast path's reading (a draw) stands"
        );
    }
}
