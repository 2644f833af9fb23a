//! Moves: a from-square and a to-square packed into 16 bits.
//!
//! A xiangqi move needs nothing else: there are no promotions, castling or en passant. The
//! packed form is what the transposition table and history tables store.

use super::square::Square;
use std::fmt;
use std::str::FromStr;

/// A move in ICCS coordinates (`h2e2`). Always has distinct from- and to-squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(u16);

impl Move {
    /// Builds a move; `None` if both squares are the same.
    #[inline]
    pub const fn new(from: Square, to: Square) -> Option<Move> {
        if from.index() == to.index() {
            None
        } else {
            Some(Move::new_unchecked(from, to))
        }
    }

    /// Callers guarantee `from != to` (move generation).
    #[inline(always)]
    pub(crate) const fn new_unchecked(from: Square, to: Square) -> Move {
        Move((from.index() as u16) | ((to.index() as u16) << 7))
    }

    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 0x7f) as u8)
    }

    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.0 >> 7) as u8)
    }

    /// The packed 14-bit form (never 0 for a real move, so 0 can mean "no move" in tables).
    #[inline(always)]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// Unpacks a value made by [`Move::to_u16`]; `None` for anything else.
    pub fn from_u16(v: u16) -> Option<Move> {
        let from = Square::new((v & 0x7f) as u8)?;
        let to = Square::new(((v >> 7) & 0x7f) as u8)?;
        if v >> 14 != 0 {
            return None;
        }
        Move::new(from, to)
    }

    /// The same move on the left-right mirrored board.
    pub const fn mirror_file(self) -> Move {
        Move::new_unchecked(self.from().mirror_file(), self.to().mirror_file())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a move string could not be read (syntax only; legality is checked by the position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseMoveError(pub String);

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown: String = self.0.chars().take(32).collect();
        write!(f, "'{shown}' is not an ICCS move like h2e2")
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads `h2e2`, `H2E2` or the dashed `H2-E2` form.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        let err = || ParseMoveError(s.to_string());
        let (a, b) = match s.len() {
            4 => (s.get(0..2).ok_or_else(err)?, s.get(2..4).ok_or_else(err)?),
            5 if s.as_bytes()[2] == b'-' => {
                (s.get(0..2).ok_or_else(err)?, s.get(3..5).ok_or_else(err)?)
            }
            _ => return Err(err()),
        };
        let from: Square = a.parse().map_err(|_| err())?;
        let to: Square = b.parse().map_err(|_| err())?;
        Move::new(from, to).ok_or_else(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let m: Move = "h2e2".parse().unwrap();
        assert_eq!(m.to_string(), "h2e2");
        assert_eq!("H2-E2".parse::<Move>(), Ok(m));
        assert_eq!(Move::from_u16(m.to_u16()), Some(m));
        for bad in [
            "", "h2", "h2h2", "j2e2", "h2e", "h2e2x", "h2_e2", "éé", "h2-e",
        ] {
            assert!(bad.parse::<Move>().is_err(), "{bad}");
        }
        assert_eq!(Move::from_u16(0), None);
    }
}
