//! Repetitions inside the search tree: the fast path of the repetition rules.
//!
//! When the current position already occurred since the last capture, the moves between the
//! two occurrences form a cycle. Each side's moves in the cycle are judged: a side all of whose
//! moves gave check is making a perpetual check (长将), forbidden by the 2011 rules 25.1 when
//! the other side's moves are allowed; both perpetual checking is a draw (25.2). Any other
//! cycle is scored as a draw here; perpetual chase (长捉) judgement plugs in through
//! `crate::rules` once its classifier exists.
//!
//! Cost: one key comparison every two plies back to the last capture, and only on a hit a walk
//! over the cycle's check flags (which the search keeps anyway for its check extension).

use super::score::RULE_WIN;
use crate::board::Position;

/// 2011 rules 4.2.4: 60 moves per side (120 plies) without a capture is a draw.
pub const NATURAL_LIMIT_PLIES: u32 = 120;

/// The score (for the side to move) of a repetition at this node, if the position repeats.
/// `checks[i]` tells whether move `i` of the history gave check.
pub fn score(pos: &Position, checks: &[bool], ply: usize) -> Option<i32> {
    let hist = pos.history();
    let n = hist.len();
    if checks.len() != n {
        return None;
    }
    let window = (pos.halfmove_clock() as usize).min(n);
    let key = pos.key();
    let mut i = 2;
    while i <= window {
        // A null move (search only) breaks the chain: that is not a game repetition.
        if hist[n - i + 1].mv.is_none() || hist[n - i].mv.is_none() {
            return None;
        }
        if i >= 4 && hist[n - i].key == key {
            return Some(judge(checks, n - i, n, ply));
        }
        i += 2;
    }
    None
}

/// Judges the cycle of moves `start..end`; the side to move made moves `end-2, end-4, ...`.
fn judge(checks: &[bool], start: usize, end: usize, ply: usize) -> i32 {
    let mut them_all = true;
    let mut us_all = true;
    for (j, &c) in checks.iter().enumerate().take(end).skip(start) {
        if (end - 1 - j).is_multiple_of(2) {
            them_all &= c;
        } else {
            us_all &= c;
        }
    }
    let win = RULE_WIN - ply as i32;
    match (us_all, them_all) {
        (false, true) => win,  // 25.1: the opponent checks perpetually and loses
        (true, false) => -win, // 25.1: we check perpetually and lose
        _ => 0,                // 25.2 both checking, or no forbidden pattern found: draw
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays ICCS moves, recording whether each gave check.
    fn play(fen: &str, moves: &str) -> (Position, Vec<bool>) {
        let mut pos = Position::from_fen(fen).unwrap();
        let mut checks = Vec::new();
        for m in moves.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            checks.push(pos.gives_check(mv));
            pos.make_move(mv);
        }
        (pos, checks)
    }

    #[test]
    fn perpetual_check_loses_for_the_checker() {
        let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
        // a1a9+ (check along rank 9), e9e8, a9a8+, e8e9, a8a9+ ... repeats.
        let (pos, checks) = play(fen, "a1a9 e9e8 a9a8 e8e9 a8a9");
        assert!(checks[0] && checks[2] && checks[4]);
        // The position after a8a9 (black to move) repeats the one after a1a9.
        let s = score(&pos, &checks, 5).unwrap();
        assert_eq!(s, RULE_WIN - 5, "black to move: red checked perpetually");
    }

    #[test]
    fn idle_cycle_is_a_draw() {
        let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1";
        let (pos, checks) = play(fen, "a1b1 e9f9 b1a1 f9e9");
        assert_eq!(score(&pos, &checks, 4), Some(0));
        let (pos, checks) = play(fen, "a1b1 e9f9 b1a1");
        assert_eq!(score(&pos, &checks, 3), None);
    }
}
