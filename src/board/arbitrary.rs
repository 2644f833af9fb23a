//! Random games for property tests, one generator for the unit tests, the integration tests
//! and the test doubles: a start position from the perft suite and a list of numbers, each
//! picking the next move among the legal ones. The same numbers always play the same game, and
//! a failing case shrinks (under proptest) to a shorter game of smaller choices.

use super::{Move, Position};

/// The perft suite's positions (tests/data/perft.txt): openings, middlegames, endgames and
/// the cases that stress the move generator (flying generals, pins, cannon screens).
pub fn starts() -> Vec<Position> {
    include_str!("../../tests/data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| Position::from_fen(l.split(';').next()?).ok())
        .collect()
}

/// The move `choice` picks in `pos`, `None` at the end of the game. Two choices in five take a
/// capture when there is one: uniform choices seldom reach the sparse endgames where the rules
/// differ most.
pub fn pick(pos: &Position, choice: u16) -> Option<Move> {
    let n = usize::from(choice / 5);
    let captures = pos.legal_captures();
    if choice % 5 < 2 && !captures.is_empty() {
        return Some(captures[n % captures.len()]);
    }
    let moves = pos.legal_moves();
    (!moves.is_empty()).then(|| moves[n % moves.len()])
}

/// The position `choices` reach from `start`, its moves in its history; the game stops early
/// where it ends.
pub fn walk(start: &Position, choices: &[u16]) -> Position {
    walk_visiting(start, choices, |_| {})
}

/// [`walk`], calling `visit` on every position of the game: the start, and the position after
/// each move (the last included). `visit` may make and unmake moves; it must leave the
/// position as it found it.
pub fn walk_visiting(
    start: &Position,
    choices: &[u16],
    mut visit: impl FnMut(&mut Position),
) -> Position {
    let mut pos = start.clone();
    visit(&mut pos);
    for &c in choices {
        match pick(&pos, c) {
            Some(m) => pos.make_move(m),
            None => break,
        }
        visit(&mut pos);
    }
    pos
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_choices_play_the_same_game() {
        let starts = starts();
        assert!(starts.len() >= 10, "{}", starts.len());
        let choices: Vec<u16> = (0..200u16).map(|i| i.wrapping_mul(7919)).collect();
        for start in &starts {
            let a = walk(start, &choices);
            assert_eq!(a, walk(start, &choices));
            assert!(a.history().len() <= choices.len());
        }
        // Choice 0 takes a capture where there is one.
        let p = Position::from_fen("3k5/9/9/9/p8/9/9/9/9/R3K4 w - - 0 1").unwrap();
        let m = pick(&p, 0).unwrap();
        assert!(p.piece_at(m.to()).is_some(), "{m}");
    }
}
