//! Colours, piece kinds and pieces.

use std::fmt;

/// The two sides. Red moves first and sits on ranks 0..4.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    Red = 0,
    Black = 1,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::Red, Color::Black];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline(always)]
    pub const fn flip(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// English name, for messages and the referee's report.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Black => "black",
        }
    }

    /// The name capitalised, to open a sentence ("Red lost on time").
    pub const fn title(self) -> &'static str {
        match self {
            Color::Red => "Red",
            Color::Black => "Black",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline(always)]
    fn not(self) -> Color {
        self.flip()
    }
}

/// The seven kinds of xiangqi pieces.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum PieceKind {
    /// 帅/将, the general.
    King = 0,
    /// 仕/士.
    Advisor = 1,
    /// 相/象.
    Elephant = 2,
    /// 马 (also called knight).
    Horse = 3,
    /// 车, the chariot.
    Rook = 4,
    /// 炮.
    Cannon = 5,
    /// 兵/卒.
    Pawn = 6,
}

impl PieceKind {
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// How many of this kind one side starts with, which is also the most it can have.
    pub const fn max_count(self) -> u32 {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The FEN letter for Red (upper case); Black uses the lower-case letter.
    pub const fn fen_char(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// Reads a FEN letter of either case, with the `E` (elephant) and `H` (horse) aliases.
    pub fn from_fen_char(c: char) -> Option<PieceKind> {
        Some(match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        })
    }

    /// Rook, horse and cannon are the "strong pieces" (强子, 2011 rules 1.2); the chase and
    /// exchange rules (26.5, 26.6) compare strong against weak.
    pub const fn is_strong(self) -> bool {
        matches!(self, PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon)
    }

    /// English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::King => "king",
            PieceKind::Advisor => "advisor",
            PieceKind::Elephant => "elephant",
            PieceKind::Horse => "horse",
            PieceKind::Rook => "rook",
            PieceKind::Cannon => "cannon",
            PieceKind::Pawn => "pawn",
        }
    }
}

/// A coloured piece. `Option<Piece>` is one byte, so a board is a `[Option<Piece>; 90]`.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece {
    color: Color,
    kind: PieceKind,
}

impl Piece {
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    #[inline(always)]
    pub const fn color(self) -> Color {
        self.color
    }

    #[inline(always)]
    pub const fn kind(self) -> PieceKind {
        self.kind
    }

    /// Dense index 0..14 (Red kinds, then Black kinds) for tables such as Zobrist keys.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self.color as usize * 7 + self.kind as usize
    }

    pub const fn fen_char(self) -> char {
        let c = self.kind.fen_char();
        match self.color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter: upper case is Red, lower case Black; `E`/`H` aliases accepted.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_fen_char(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        Some(Piece::new(color, kind))
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_char())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strong_pieces_1_2() {
        assert!(PieceKind::Rook.is_strong());
        assert!(PieceKind::Horse.is_strong());
        assert!(PieceKind::Cannon.is_strong());
        assert!(!PieceKind::Advisor.is_strong());
        assert!(!PieceKind::Elephant.is_strong());
        assert!(!PieceKind::Pawn.is_strong());
        assert!(!PieceKind::King.is_strong());
    }

    #[test]
    fn fen_letters_round_trip() {
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_fen_char(p.fen_char()), Some(p));
            }
        }
        assert_eq!(
            Piece::from_fen_char('E'),
            Some(Piece::new(Color::Red, PieceKind::Elephant))
        );
        assert_eq!(
            Piece::from_fen_char('h'),
            Some(Piece::new(Color::Black, PieceKind::Horse))
        );
        assert_eq!(Piece::from_fen_char('q'), None);
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 2);
    }
}
