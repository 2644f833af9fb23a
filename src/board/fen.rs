//! FEN in the UCCI form: `rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1`.
//!
//! The first rank written is Black's back rank (rank 9). Upper case is Red. Reading is lenient
//! where GUIs differ (`E`/`H` for elephant/horse, `r` for Red to move, runs of spaces, 2 to 6
//! fields with the counters defaulting to 0 and 1) and strict about the position itself: every
//! rejection says what is wrong.
//!
//! Everything about a [`Position`] as text lives here: reading and writing FEN, the start
//! position, and `Debug` (the FEN) and `Display` (a diagram and the FEN). The position module
//! knows nothing of FEN, so the dependency goes one way: this module builds positions through
//! [`Position::from_placement`].

use super::piece::{Color, Piece};
use super::position::{PlacementError, Position};
use super::square::{Square, SQUARES};
use std::fmt;

/// The initial position.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Why a FEN was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    Empty,
    MissingSide,
    BadSide(String),
    TooManyFields(usize),
    RankCount(usize),
    /// `rank` counts from the top as written (1 = Black's back rank).
    FileCount {
        rank: usize,
        files: usize,
    },
    UnknownPiece(char),
    BadCounter(String),
    Placement(PlacementError),
}

fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(24).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::MissingSide => write!(f, "FEN has no side-to-move field"),
            FenError::BadSide(s) => {
                write!(f, "side to move '{}' is not w, r or b", clip(s))
            }
            FenError::TooManyFields(n) => write!(f, "FEN has {n} fields, at most 6 allowed"),
            FenError::RankCount(n) => write!(f, "FEN has {n} ranks, needs 10"),
            FenError::FileCount { rank, files } => {
                write!(
                    f,
                    "FEN rank {rank} (from the top) has {files} files, needs 9"
                )
            }
            FenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}' in FEN"),
            FenError::BadCounter(s) => write!(f, "move counter '{}' is not a number", clip(s)),
            FenError::Placement(e) => write!(f, "illegal position: {e}"),
        }
    }
}

impl std::error::Error for FenError {}

impl From<PlacementError> for FenError {
    fn from(e: PlacementError) -> FenError {
        FenError::Placement(e)
    }
}

/// Reads the placement field into a board array.
fn parse_board(field: &str) -> Result<[Option<Piece>; SQUARES], FenError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != 10 {
        return Err(FenError::RankCount(rows.len()));
    }
    let mut board = [None; SQUARES];
    for (i, row) in rows.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file = 0usize;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 {
                    return Err(FenError::UnknownPiece(c));
                }
                file += d as usize;
            } else {
                let p = Piece::from_fen_char(c).ok_or(FenError::UnknownPiece(c))?;
                if let Some(sq) = Square::from_coords(file as u8, rank).filter(|_| file < 9) {
                    board[sq.index()] = Some(p);
                }
                file += 1;
            }
            if file > 9 {
                break;
            }
        }
        if file != 9 {
            return Err(FenError::FileCount {
                rank: i + 1,
                files: file,
            });
        }
    }
    Ok(board)
}

fn parse_counter(s: Option<&&str>, default: u32) -> Result<u32, FenError> {
    match s {
        None => Ok(default),
        Some(t) => t
            .parse::<u32>()
            .map_err(|_| FenError::BadCounter(t.to_string())),
    }
}

impl Position {
    /// The initial position.
    pub fn startpos() -> Position {
        match Position::from_fen(START_FEN) {
            Ok(p) => p,
            Err(e) => unreachable!("start FEN is valid: {e}"),
        }
    }

    /// Parses and validates a FEN.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        if fields.len() > 6 {
            return Err(FenError::TooManyFields(fields.len()));
        }
        let board = parse_board(fields[0])?;
        let side = match fields.get(1) {
            None => return Err(FenError::MissingSide),
            Some(&"w") | Some(&"r") | Some(&"W") | Some(&"R") => Color::Red,
            Some(&"b") | Some(&"B") => Color::Black,
            Some(s) => return Err(FenError::BadSide(s.to_string())),
        };
        // Fields 3 and 4 are the chess castling/en-passant placeholders ('-'), ignored.
        let halfmove = parse_counter(fields.get(4), 0)?;
        let fullmove = parse_counter(fields.get(5), 1)?;
        Ok(Position::from_placement(board, side, halfmove, fullmove)?)
    }

    /// The position as a FEN, in the canonical UCCI form.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                match Square::from_coords(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.fen_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.side_to_move() {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        s.push_str(&format!(
            " {side} - - {} {}",
            self.halfmove_clock(),
            self.fullmove_number()
        ));
        s
    }
}

/// A position in a test failure or a log line: its FEN.
impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

/// Shows the board as text, Black at the top, as a diagram for humans and logs.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in (0..10u8).rev() {
            write!(f, "{r} ")?;
            for file in 0..9u8 {
                let c = Square::from_coords(file, r)
                    .and_then(|s| self.piece_at(s))
                    .map_or('.', |p| p.fen_char());
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        writeln!(f, "   a b c d e f g h i")?;
        write!(f, "{}", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_round_trip() {
        let p = Position::from_fen(START_FEN).unwrap();
        assert_eq!(p.to_fen(), START_FEN);
        assert_eq!(Position::startpos(), p);
    }

    /// The largest clock a FEN may give stays past the natural limit after a quiet move or a
    /// null move: it neither panics (overflow) nor wraps round to a fresh clock.
    #[test]
    fn largest_halfmove_clock_saturates() {
        let mut p = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 4294967295 1").unwrap();
        assert_eq!(p.halfmove_clock(), u32::MAX);
        let m = p.parse_move("a0a1").unwrap();
        p.make_move(m);
        assert_eq!(p.halfmove_clock(), u32::MAX);
        p.make_null_move();
        assert_eq!(p.halfmove_clock(), u32::MAX);
    }

    #[test]
    fn errors_name_the_problem() {
        let e = Position::from_fen("4k4/9/9/9/9/9/9/9/9/A2K5 w").unwrap_err();
        assert_eq!(
            e.to_string(),
            "illegal position: red advisor on a0 is off the five advisor points of its palace"
        );
        let e = Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").unwrap_err();
        assert_eq!(e, FenError::Placement(PlacementError::KingsFacing));
        assert_eq!(Position::from_fen("   "), Err(FenError::Empty));
        assert!(matches!(
            Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1"),
            Err(FenError::BadCounter(_))
        ));
        assert!(matches!(
            Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K05 w"),
            Err(FenError::UnknownPiece('0'))
        ));
    }
}
