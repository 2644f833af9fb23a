//! Replaying a game and finding its repeated positions (棋例 23.1–23.3).
//!
//! A position repeats when the same placement with the same side to move comes back. Only
//! positions since the last capture can be equal (a capture cannot be undone); the position a
//! capture creates is the first occurrence of the cycle that follows, which is how 23.2's
//! "如首着为吃子应予扣除" comes out: the capturing move itself is never part of the period.
//!
//! Counting (project decision, rules.md "When the referee rules"): by default the referee
//! rules when a position occurs for the [`Count::Third`] time. [`Count::Strict`] is the text's
//! own count: the cycle *played three times* (23.1; 23.4: "在两个点上反复三次为六个回合"),
//! i.e. the fourth occurrence of the position. 23.4's nine rounds over three or more points,
//! which need no repeated position, are the referee's (`RefereeOptions::nine_rounds`).

use crate::board::{Color, FenError, Move, MoveError, Position};
use std::fmt;

/// When the referee rules on a repeated position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Count {
    /// At the third occurrence of the position (engines and online referees; the default).
    #[default]
    Third,
    /// When the cycle has been played three times: the fourth occurrence (23.1, 23.4).
    Strict,
}

impl Count {
    /// The occurrence of the position at which the referee rules.
    pub const fn ruling_occurrence(self) -> u32 {
        match self {
            Count::Third => 3,
            Count::Strict => 4,
        }
    }
}

/// Why a game could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The start position was refused.
    Fen(FenError),
    /// Move `index` (0-based) is not legal, or not a move.
    Move {
        index: usize,
        text: String,
        error: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fen(e) => write!(f, "bad FEN: {e}"),
            ReplayError::Move { index, text, error } => {
                let shown: String = text.chars().take(16).collect();
                write!(f, "move {} ({shown:?}): {error}", index + 1)
            }
        }
    }
}

impl std::error::Error for ReplayError {}

/// A replayed game: the start position and, per ply, what the referee needs.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The position before the first move.
    pub start: Position,
    /// The position after the last move (with the game's history).
    pub end: Position,
    /// The moves, checked legal.
    pub moves: Vec<Move>,
    /// `keys[i]`: the position key after `i` plies (`keys[0]` is the start).
    pub keys: Vec<u64>,
    /// `captures[j]`: move `j` (0-based) captured.
    pub captures: Vec<bool>,
    /// `checks[j]`: move `j` gave check.
    pub checks: Vec<bool>,
    /// `movers[j]`: the side that made move `j`.
    pub movers: Vec<Color>,
}

impl Replay {
    /// Parses `fen` (`None`: the start position) and plays `moves` (ICCS), checking each.
    pub fn new<S: AsRef<str>>(fen: Option<&str>, moves: &[S]) -> Result<Replay, ReplayError> {
        let start = match fen {
            Some(f) => Position::from_fen(f).map_err(ReplayError::Fen)?,
            None => Position::startpos(),
        };
        Replay::play(
            start,
            moves,
            |pos, text| pos.parse_move(text.as_ref()),
            |text| text.as_ref().to_owned(),
        )
    }

    /// [`Replay::new`] with the set-up position and the moves already read, the moves checked
    /// legal all the same (a caller that holds them saves writing and parsing their text).
    /// A history `start` carries is no part of the game, as when it comes from a FEN.
    pub fn of_moves(start: Position, moves: &[Move]) -> Result<Replay, ReplayError> {
        Replay::play(
            start,
            moves,
            |pos, &m| {
                if pos.is_legal(m) {
                    Ok(m)
                } else {
                    Err(MoveError::Illegal(m))
                }
            },
            Move::to_string,
        )
    }

    /// Plays `moves` from `start`, each read by `read` in the position before it; `text` is
    /// what an error shows of a move refused.
    fn play<T>(
        mut start: Position,
        moves: &[T],
        read: impl Fn(&Position, &T) -> Result<Move, MoveError>,
        text: impl Fn(&T) -> String,
    ) -> Result<Replay, ReplayError> {
        start.clear_history();
        let mut pos = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        let mut keys = Vec::with_capacity(moves.len() + 1);
        let mut captures = Vec::with_capacity(moves.len());
        let mut checks = Vec::with_capacity(moves.len());
        let mut movers = Vec::with_capacity(moves.len());
        keys.push(pos.key());
        for (index, given) in moves.iter().enumerate() {
            let m = read(&pos, given).map_err(|error| ReplayError::Move {
                index,
                text: text(given),
                error,
            })?;
            captures.push(pos.piece_at(m.to()).is_some());
            checks.push(pos.gives_check(m));
            movers.push(pos.side_to_move());
            pos.make_move(m);
            played.push(m);
            keys.push(pos.key());
        }
        Ok(Replay {
            start,
            end: pos,
            moves: played,
            keys,
            captures,
            checks,
            movers,
        })
    }

    /// Number of plies.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// No moves at all.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The repetition of the position after `ply` plies, if it occurred before.
    pub fn repetition_at(&self, ply: usize) -> Option<Repetition> {
        repetition_at(&self.keys, &self.captures, ply)
    }
}

/// A position that occurred before: where, and how often.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Repetition {
    /// The ply after which the position stands (this occurrence).
    pub ply: usize,
    /// The ply of its previous occurrence: the period of the cycle is the moves
    /// `previous + 1 ..= ply` (1-based plies), i.e. move indices `previous..ply`.
    pub previous: usize,
    /// How often the position has occurred since the last capture, this time included.
    pub occurrences: u32,
}

impl Repetition {
    /// The 0-based move indices of one period of the cycle.
    pub fn period(&self) -> std::ops::Range<usize> {
        self.previous..self.ply
    }
}

/// The repetition of the position after `ply` plies: `keys[i]` is the key after `i` plies,
/// `captures[j]` whether move `j` captured. Only positions since the last capture count; the
/// position the capture created is the first occurrence (23.2).
pub fn repetition_at(keys: &[u64], captures: &[bool], ply: usize) -> Option<Repetition> {
    let key = *keys.get(ply)?;
    // The window starts at the position created by the last capture at or before `ply`.
    let first = captures
        .get(..ply)?
        .iter()
        .rposition(|&c| c)
        .map_or(0, |j| j + 1);
    let mut occurrences = 1;
    let mut previous = None;
    // Same side to move: step back two plies at a time.
    let mut i = ply;
    while i >= first + 2 {
        i -= 2;
        if keys[i] == key {
            occurrences += 1;
            previous.get_or_insert(i);
        }
    }
    previous.map(|previous| Repetition {
        ply,
        previous,
        occurrences,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FEN: &str = "4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1";

    #[test]
    fn counts_occurrences_since_the_last_capture() {
        let moves = [
            "f5e5", "e9f9", "e5f5", "f9e9", "f5e5", "e9f9", "e5f5", "f9e9",
        ];
        let r = Replay::new(Some(FEN), &moves).unwrap();
        assert_eq!(r.repetition_at(3), None);
        let rep = r.repetition_at(4).unwrap();
        assert_eq!((rep.previous, rep.occurrences), (0, 2));
        let rep = r.repetition_at(8).unwrap();
        assert_eq!((rep.previous, rep.occurrences), (4, 3));
        assert_eq!(rep.period(), 4..8);
        assert_eq!(Count::Third.ruling_occurrence(), 3);
        assert_eq!(Count::Strict.ruling_occurrence(), 4);
    }

    #[test]
    fn a_capture_starts_a_new_count_23_2() {
        // Keys as plain numbers: a capture at move 2 hides the earlier occurrence of 7.
        let keys = [7, 1, 7, 2, 7, 3, 7];
        let captures = [false, true, false, false, false, false];
        let rep = repetition_at(&keys, &captures, 6).unwrap();
        assert_eq!((rep.previous, rep.occurrences), (4, 3));
        let captures = [false, false, false, true, false, false];
        let rep = repetition_at(&keys, &captures, 6).unwrap();
        assert_eq!((rep.previous, rep.occurrences), (4, 2));
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        assert!(matches!(
            Replay::new(Some("nonsense"), &["a0a1"]),
            Err(ReplayError::Fen(_))
        ));
        let e = Replay::new(Some(FEN), &["f5e5", "zz"]).unwrap_err();
        assert!(matches!(e, ReplayError::Move { index: 1, .. }), "{e}");
        let e = Replay::new(Some(FEN), &["f5e6"]).unwrap_err();
        assert!(e.to_string().contains("not a legal move"), "{e}");
        // Moves already read: the same replay, the same error.
        let m = |s: &str| s.parse::<Move>().expect("a move");
        let start = || Position::from_fen(FEN).unwrap();
        let read = Replay::of_moves(start(), &[m("f5e5"), m("f5e6")]).unwrap_err();
        assert_eq!(read, Replay::new(Some(FEN), &["f5e5", "f5e6"]).unwrap_err());
        let r = Replay::of_moves(start(), &[m("f5e5"), m("e9f9")]).unwrap();
        assert_eq!(
            r.keys,
            Replay::new(Some(FEN), &["f5e5", "e9f9"]).unwrap().keys
        );
        assert!(repetition_at(&[], &[], 3).is_none());
    }
}
