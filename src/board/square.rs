//! Squares of the 9x10 board.
//!
//! Files `a`..`i` (0..8) run from Red's left to right, ranks `0`..`9` from Red's side up, exactly
//! as UCCI writes them (`h2e2`). A square is `rank * 9 + file`, so every square fits in a `u8`
//! and indexes a bit of a `u128` bitboard directly.

use std::fmt;
use std::str::FromStr;

/// Number of files (columns) on the board.
pub const FILES: u8 = 9;
/// Number of ranks (rows) on the board.
pub const RANKS: u8 = 10;
/// Number of points on the board.
pub const SQUARES: usize = 90;

/// One of the 90 points. Always valid: the only constructors check their input.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with index `i` (`rank * 9 + file`), if `i < 90`.
    #[inline]
    pub const fn new(i: u8) -> Option<Square> {
        if (i as usize) < SQUARES {
            Some(Square(i))
        } else {
            None
        }
    }

    /// Index without the range check; callers guarantee `i < 90` (tables, bit scans).
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(i: u8) -> Square {
        debug_assert!((i as usize) < SQUARES);
        Square(i)
    }

    /// The square on `file` (0..9) and `rank` (0..10), if both are on the board.
    #[inline]
    pub const fn from_coords(file: u8, rank: u8) -> Option<Square> {
        if file < FILES && rank < RANKS {
            Some(Square(rank * FILES + file))
        } else {
            None
        }
    }

    /// The square `df` files and `dr` ranks away, if it is still on the board.
    #[inline]
    pub const fn offset(self, df: i8, dr: i8) -> Option<Square> {
        let f = self.file() as i8 + df;
        let r = self.rank() as i8 + dr;
        if f < 0 || r < 0 {
            None
        } else {
            Square::from_coords(f as u8, r as u8)
        }
    }

    #[inline(always)]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 % FILES
    }

    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 / FILES
    }

    /// The same point seen from the other side (rank `r` becomes `9 - r`): Black's view.
    #[inline]
    pub const fn flip_rank(self) -> Square {
        Square((RANKS - 1 - self.rank()) * FILES + self.file())
    }

    /// The left-right mirror (file `f` becomes `8 - f`).
    #[inline]
    pub const fn mirror_file(self) -> Square {
        Square(self.rank() * FILES + (FILES - 1 - self.file()))
    }

    /// All 90 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..SQUARES as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a square name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (a0..i9)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads `e2` or `E2` (file letter a..i, rank digit 0..9).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParseSquareError(s.to_string()));
        }
        let file = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let rank = b[1].wrapping_sub(b'0');
        Square::from_coords(file, rank).ok_or_else(|| ParseSquareError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_round_trip() {
        for sq in Square::all() {
            assert_eq!(Square::from_coords(sq.file(), sq.rank()), Some(sq));
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.flip_rank().flip_rank(), sq);
            assert_eq!(sq.mirror_file().mirror_file(), sq);
        }
        assert_eq!("a0".parse::<Square>().map(|s| s.index()), Ok(0));
        assert_eq!("i9".parse::<Square>().map(|s| s.index()), Ok(89));
        assert!("j0".parse::<Square>().is_err());
        assert!("a10".parse::<Square>().is_err());
        assert!("".parse::<Square>().is_err());
        assert!(Square::new(90).is_none());
    }

    #[test]
    fn offsets_stay_on_board() {
        let a0 = Square::from_coords(0, 0).unwrap();
        assert_eq!(a0.offset(-1, 0), None);
        assert_eq!(a0.offset(0, -1), None);
        assert_eq!(a0.offset(8, 9).map(|s| s.index()), Some(89));
        assert_eq!(a0.offset(9, 0), None);
    }
}
