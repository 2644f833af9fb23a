//! Material signatures: which pieces a table covers, written strong side first in FEN letters
//! (`KR-KAABB`: a rook against two advisors and two elephants).
//!
//! A table stores its first side as Red. A position whose Black holds the first side's pieces
//! is probed through its colour-flipped twin (ranks turned over, colours and the side to move
//! swapped), so one table serves both colours.

use std::fmt;

use crate::board::{Color, PieceKind, Position};

/// The kinds a side can hold besides its general, in the order their letters are written.
pub const KINDS: [PieceKind; 6] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// Pieces that can cross the river and give mate (2011 rules 4.2.2: without any of them on
/// either side the game is drawn).
pub const ATTACKERS: [PieceKind; 4] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Pawn,
];

/// The most pieces (generals included) a table can hold: the index is a `u64` and the
/// placements fixed arrays. Eleven is a rook, horse, cannon or pawn with both advisors and
/// both elephants against both advisors and both elephants (`KRAABB-KAABB`, 429 million
/// entries), the largest table of the one-attacker set; more than that could not be generated
/// on one machine anyway.
pub const MAX_TABLE_PIECES: u32 = 11;

/// One side's pieces besides its general: a count per kind, indexed by [`PieceKind::index`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, PartialOrd, Ord)]
pub struct Side {
    counts: [u8; 7],
}

impl Side {
    /// How many pieces of `kind` (the general is always one).
    pub fn count(&self, kind: PieceKind) -> u8 {
        if kind == PieceKind::King {
            1
        } else {
            self.counts[kind.index()]
        }
    }

    /// The side with one more (or, with `delta` −1, one fewer) piece of `kind`.
    fn with(mut self, kind: PieceKind, delta: i8) -> Side {
        let c = &mut self.counts[kind.index()];
        *c = (*c as i8 + delta) as u8;
        self
    }

    /// Whether the side has a rook, horse, cannon or pawn.
    pub fn has_attacker(&self) -> bool {
        ATTACKERS.iter().any(|&k| self.count(k) > 0)
    }

    /// Whether the side has any piece besides its general.
    pub fn has_pieces(&self) -> bool {
        KINDS.iter().any(|&k| self.count(k) > 0)
    }

    /// A rough material value, only to decide which side is written first.
    fn weight(&self) -> u32 {
        let value = |k: PieceKind| match k {
            PieceKind::Rook => 100,
            PieceKind::Horse | PieceKind::Cannon => 45,
            PieceKind::Pawn => 20,
            _ => 2,
        };
        KINDS.iter().map(|&k| value(k) * self.count(k) as u32).sum()
    }

    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("K")?;
        for k in KINDS {
            for _ in 0..self.count(k) {
                write!(f, "{}", k.fen_char().to_ascii_uppercase())?;
            }
        }
        Ok(())
    }
}

/// A material signature: the first side (stored as Red) and the second.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub sides: [Side; 2],
}

/// Why a signature was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialError(pub String);

impl fmt::Display for MaterialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MaterialError {}

impl Material {
    /// Parses `KR-KAABB` (either letter case; `H` and `E` are accepted for horse and elephant as
    /// in the FEN reader). Each side starts with its general `K`; the pieces may come in any
    /// order and are counted against the board's limits.
    pub fn parse(s: &str) -> Result<Material, MaterialError> {
        let bad = |why: &str| MaterialError(format!("material {s:?}: {why}"));
        let halves: Vec<&str> = s.trim().split('-').collect();
        if halves.len() != 2 {
            return Err(bad("write it as two sides joined by '-', e.g. KR-KAABB"));
        }
        let mut sides = [Side::default(); 2];
        for (side, half) in sides.iter_mut().zip(&halves) {
            let mut chars = half.chars();
            if !matches!(chars.next(), Some('K' | 'k')) {
                return Err(bad("each side starts with its general, K"));
            }
            for c in chars {
                let kind = PieceKind::from_fen_char(c)
                    .filter(|&k| k != PieceKind::King)
                    .ok_or_else(|| bad(&format!("{c:?} is not a piece letter (R N C P A B)")))?;
                let n = side.count(kind) as u32 + 1;
                if n > kind.max_count() {
                    return Err(bad(&format!("more than {} of {}", kind.max_count(), c)));
                }
                *side = side.with(kind, 1);
            }
        }
        let m = Material { sides };
        if m.piece_count() > MAX_TABLE_PIECES {
            return Err(bad(&format!(
                "{} pieces; tables hold at most {MAX_TABLE_PIECES}",
                m.piece_count()
            )));
        }
        Ok(m)
    }

    /// The signature of a position's pieces, Red's side first.
    pub fn of(pos: &Position) -> Material {
        let mut sides = [Side::default(); 2];
        for c in Color::ALL {
            for k in KINDS {
                sides[c.index()].counts[k.index()] = pos.pieces(c, k).count() as u8;
            }
        }
        Material { sides }
    }

    /// The same pieces with the sides exchanged.
    pub fn swapped(self) -> Material {
        Material {
            sides: [self.sides[1], self.sides[0]],
        }
    }

    /// The name tables are filed under: the stronger side first (by a rough value, then by
    /// the signature's order), so `K-KR` and `KR-K` name one table.
    pub fn canonical(self) -> Material {
        let (a, b) = (self.sides[0], self.sides[1]);
        if (b.weight(), b) > (a.weight(), a) {
            self.swapped()
        } else {
            self
        }
    }

    /// Whether `canonical()` keeps the sides as they are.
    pub fn is_canonical(self) -> bool {
        self.canonical() == self
    }

    /// Whether neither side can ever mate: such games are drawn (2011 rules 4.2.2) and need no
    /// table.
    pub fn is_dead_draw(self) -> bool {
        !self.sides[0].has_attacker() && !self.sides[1].has_attacker()
    }

    /// Every signature one capture away (side `victim` loses one piece of a kind it has), each
    /// canonical, without repeats.
    pub fn after_captures(self) -> Vec<Material> {
        let mut out = Vec::new();
        for victim in 0..2 {
            for k in KINDS {
                if self.sides[victim].count(k) > 0 {
                    let mut m = self;
                    m.sides[victim] = m.sides[victim].with(k, -1);
                    let m = m.canonical();
                    if !out.contains(&m) {
                        out.push(m);
                    }
                }
            }
        }
        out
    }

    /// This signature and every one reachable from it by captures, smallest first: the order
    /// tables must be generated in (each table reads the ones after its captures).
    pub fn closure(self) -> Vec<Material> {
        let mut seen = vec![self.canonical()];
        let mut i = 0;
        while i < seen.len() {
            for m in seen[i].after_captures() {
                if !seen.contains(&m) {
                    seen.push(m);
                }
            }
            i += 1;
        }
        seen.sort_by_key(|m| (m.piece_count(), *m));
        seen
    }

    /// Pieces on the board, generals included.
    pub fn piece_count(self) -> u32 {
        self.sides
            .iter()
            .map(|s| 1 + KINDS.iter().map(|&k| s.count(k) as u32).sum::<u32>())
            .sum()
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.sides[0].write(f)?;
        f.write_str("-")?;
        self.sides[1].write(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_canonical_order() {
        for s in [
            "KR-KAABB",
            "KNP-KAABB",
            "KR-KNAABB",
            "KC-K",
            "KP-K",
            "KRR-KAB",
        ] {
            let m = Material::parse(s).unwrap();
            assert_eq!(m.to_string(), s);
            assert!(m.is_canonical(), "{s}");
        }
        assert_eq!(
            Material::parse("kaabb-kr").unwrap().canonical().to_string(),
            "KR-KAABB"
        );
        assert_eq!(Material::parse("KBBA-KHR").unwrap().to_string(), "KABB-KRN");
        assert_eq!(Material::parse("K-K").unwrap().to_string(), "K-K");
    }

    #[test]
    fn bad_names_are_refused() {
        for s in [
            "",
            "KR",
            "R-K",
            "KX-K",
            "KAAA-K",
            "KPPPPPP-K",
            "KR-KR-K",
            "K-",
        ] {
            let r = Material::parse(s);
            if s == "K-" {
                assert!(r.is_err(), "{s}");
            } else {
                assert!(r.is_err(), "{s} parsed as {r:?}");
            }
        }
    }

    #[test]
    fn closure_lists_every_capture_smallest_first() {
        let m = Material::parse("KR-KAB").unwrap();
        let names: Vec<String> = m.closure().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            names,
            ["K-K", "KR-K", "KB-K", "KA-K", "KR-KB", "KR-KA", "KAB-K", "KR-KAB"]
        );
        assert!(Material::parse("KAB-KA").unwrap().is_dead_draw());
        assert!(!Material::parse("KP-K").unwrap().is_dead_draw());
    }

    #[test]
    fn material_of_a_position() {
        let p = Position::from_fen("2bakab2/9/9/9/R8/9/9/9/9/3K5 w - - 0 1").unwrap();
        assert_eq!(Material::of(&p).to_string(), "KR-KAABB");
        assert_eq!(Material::of(&p).swapped().to_string(), "KAABB-KR");
    }
}
