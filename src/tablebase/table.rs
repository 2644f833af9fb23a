//! One table as the generator makes it and as its file is written (and, for the tests, where
//! a position is in its table by a scan of its board).
//!
//! File (`NAME.jjtb`, little-endian): `JJTB`, format version (u16), bytes per value entry (u8:
//! 1 or 2), bytes per conversion distance (u8: 1 or 2), the name's length (u8) and the name,
//! entries per side to move (u64), the longest distance to mate (u16), the longest conversion
//! distance (u16), an FNV-1a checksum of the entries (u64), then the entries: the values ([`super::value::Value::code`]) with Red to move, then with Black to move, then the conversion
//! distances ([`Table::dtc`]) in the same order. Files are written whole or not at all
//! ([`crate::output::write_whole`]).
//!
//! The generator makes a [`Table`], 16 bits an entry; tables read back are held at their
//! file's widths ([`super::stored`]), in a set probed together ([`super::set`]).

use std::fmt;
use std::path::PathBuf;

#[cfg(test)]
use crate::board::square::SQUARES;
#[cfg(test)]
use crate::board::{Color, Piece, Position, Square};
use crate::checksum::fnv1a64;

#[cfg(test)]
use super::index::Board;
use super::index::Layout;
use super::material::Material;
use super::value::Value;

/// The file format's version; a file of another version is refused. Version 1 (before
/// 2026-12-07) had no conversion distances; version 2 (2026-12-07) the same layout as 3, but
/// values made without the rule against perpetual chases and mate threats (only perpetual
/// check), so its draws may be losses by rule.
pub const FORMAT_VERSION: u16 = 3;
pub(super) const MAGIC: &[u8; 4] = b"JJTB";

/// One material signature's values, both sides to move, as the generator makes them.
pub struct Table {
    pub layout: Layout,
    /// Entries per side to move ([`Color::index`]).
    pub codes: [Vec<u16>; 2],
    /// The conversion distance of each entry, per side to move: for a result by mate, plies
    /// to the next capture or the mate with the winner hastening and the loser delaying it
    /// (docs/tablebases.md); for a result by the repetition rules, its distance; 0 for a draw
    /// or an illegal entry.
    pub dtc: [Vec<u16>; 2],
}

/// Why a table file could not be read.
#[derive(Debug)]
pub enum TableError {
    Io(PathBuf, std::io::Error),
    Format(PathBuf, String),
    /// A file of an older format version (made again by `tb generate`).
    OldVersion(PathBuf, u16),
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            TableError::Format(p, why) => write!(f, "{}: {why}", p.display()),
            TableError::OldVersion(p, v) => write!(
                f,
                "{}: format version {v}, {}; this engine reads {FORMAT_VERSION}: generate it \
                 again",
                p.display(),
                if *v == 1 {
                    "without conversion distances"
                } else {
                    "made without the rules on perpetual chases and mate threats"
                }
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// The file name of a table.
pub fn file_name(m: Material) -> String {
    format!("{m}.jjtb")
}

impl Table {
    /// The longest distance to mate in the table.
    pub fn max_plies(&self) -> u16 {
        self.codes
            .iter()
            .flatten()
            .filter_map(|&c| Value::from_code(c))
            .filter(|v| !v.by_rule())
            .filter_map(|v| v.plies())
            .max()
            .unwrap_or(0)
    }

    /// The longest conversion distance of a result by mate in the table.
    pub fn max_dtc(&self) -> u16 {
        self.codes
            .iter()
            .zip(&self.dtc)
            .flat_map(|(c, d)| c.iter().zip(d))
            .filter(|&(&c, _)| Value::from_code(c).is_some_and(|v| !v.by_rule()))
            .map(|(_, &d)| d)
            .max()
            .unwrap_or(0)
    }

    /// The entries as the file stores them, values then conversion distances, each plane 1
    /// byte an entry if its entries fit, else 2; with those two widths.
    pub(super) fn entries(&self) -> ([u8; 2], Vec<u8>) {
        let width = |plane: &[Vec<u16>; 2]| -> u8 {
            let largest = plane.iter().flatten().copied().max().unwrap_or(0);
            if largest <= u8::MAX as u16 {
                1
            } else {
                2
            }
        };
        let widths = [width(&self.codes), width(&self.dtc)];
        let n = self.codes[0].len();
        let mut payload = Vec::with_capacity(n * 2 * usize::from(widths[0] + widths[1]));
        for (plane, w) in [(&self.codes, widths[0]), (&self.dtc, widths[1])] {
            for &c in plane.iter().flatten() {
                if w == 1 {
                    payload.push(c as u8);
                } else {
                    payload.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        (widths, payload)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let ([width, dtc_width], payload) = self.entries();
        let name = self.layout.material.to_string();
        let mut out = Vec::with_capacity(payload.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(width);
        out.push(dtc_width);
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&self.layout.size().to_le_bytes());
        out.extend_from_slice(&self.max_plies().to_le_bytes());
        out.extend_from_slice(&self.max_dtc().to_le_bytes());
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }
}

/// Where a position is in its table, found by scanning its board: the tests' check of
/// [`super::index::Layout::index_of_position`], which the generator and the probes use.
#[cfg(test)]
pub struct Entry {
    pub material: Material,
    pub side: Color,
    pub board: Board,
}

/// The board a table stores `pos` as: its first side as Red (the position colour-flipped when
/// Black holds those pieces), with the side to move in that frame.
#[cfg(test)]
pub fn entry_of(pos: &Position) -> Entry {
    let material = Material::of(pos);
    in_table_frame(pos, material.canonical(), material.canonical() != material)
}

/// `pos` as the table of `material` stores it, colour-flipped with `flip`.
#[cfg(test)]
fn in_table_frame(pos: &Position, material: Material, flip: bool) -> Entry {
    let mut board = [None; SQUARES];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            if flip {
                board[sq.flip_rank().index()] = Some(Piece::new(!p.color(), p.kind()));
            } else {
                board[sq.index()] = Some(p);
            }
        }
    }
    let side = if flip {
        !pos.side_to_move()
    } else {
        pos.side_to_move()
    };
    Entry {
        material,
        side,
        board,
    }
}

#[cfg(test)]
impl Table {
    /// A table of `material` with made-up entries (not its game's values): some illegal, some
    /// drawn, the others decided; with `wide`, some values and distances that need 2 bytes.
    pub(super) fn made_up(material: Material, wide: bool) -> Table {
        let layout = Layout::new(material);
        let n = layout.size();
        let mut seed = n;
        let mut plane = |most: u64| -> [Vec<u16>; 2] {
            [0, 1].map(|_| {
                (0..n)
                    .map(|_| {
                        seed = crate::board::zobrist::splitmix64(seed);
                        (seed % most) as u16
                    })
                    .collect()
            })
        };
        let most = if wide { 1000 } else { 200 };
        let (codes, dtc) = (plane(most), plane(most));
        Table { layout, codes, dtc }
    }
}
