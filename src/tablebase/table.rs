//! One table in memory and on disk, and a set of tables probed together.
//!
//! File (`NAME.jjtb`, little-endian): `JJTB`, format version (u16), bytes per value entry (u8:
//! 1 or 2), bytes per conversion distance (u8: 1 or 2), the name's length (u8) and the name,
//! entries per side to move (u64), the longest distance to mate (u16), the longest conversion
//! distance (u16), an FNV-1a checksum of the entries (u64), then the entries: the values ([`super::value::Value::code`]) with Red to move, then with Black to move, then the conversion
//! distances ([`Table::dtc`]) in the same order. Files are written whole or not at all
//! ([`crate::output::write_whole`]).

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::board::square::SQUARES;
use crate::board::{Color, Piece, Position, Square};
use crate::checksum::fnv1a64;

use super::index::{Board, Layout};
use super::material::Material;
use super::value::{Value, ILLEGAL};

/// The file format's version; a file of another version is refused. Version 1 (before
/// 2026-12-07) had no conversion distances.
pub const FORMAT_VERSION: u16 = 2;
const MAGIC: &[u8; 4] = b"JJTB";

/// One material signature's values, both sides to move.
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

/// A table's legal positions by result ([`Table::counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `[red to move, black to move]` of `[wins, draws, losses]`.
    pub by_side: [[u64; 3]; 2],
    /// Positions (both sides to move) decided by the repetition rules.
    pub by_rule: u64,
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
                "{}: format version {v}, without conversion distances; this engine reads \
                 {FORMAT_VERSION}: generate it again",
                p.display()
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
    /// The value of entry `idx` with `side` to move; `None` when it is not a legal position.
    pub fn value(&self, side: Color, idx: u64) -> Option<Value> {
        Value::from_code(self.codes[side.index()][idx as usize])
    }

    /// The conversion distance of entry `idx` with `side` to move ([`Table::dtc`]).
    pub fn dtc(&self, side: Color, idx: u64) -> u16 {
        self.dtc[side.index()][idx as usize]
    }

    /// How many legal positions of each side to move are won, drawn and lost (of either
    /// kind), and how many of all are decided by the repetition rules.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for side in Color::ALL {
            for v in self.codes[side.index()]
                .iter()
                .filter_map(|&x| Value::from_code(x))
            {
                c.by_side[side.index()][(1 - v.outcome()) as usize] += 1;
                c.by_rule += u64::from(v.by_rule());
            }
        }
        c
    }

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

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let width = |plane: &[Vec<u16>; 2]| -> usize {
            let largest = plane.iter().flatten().copied().max().unwrap_or(0);
            if largest <= u8::MAX as u16 {
                1
            } else {
                2
            }
        };
        let (width, dtc_width) = (width(&self.codes), width(&self.dtc));
        let n = self.codes[0].len();
        let mut payload = Vec::with_capacity(n * 2 * (width + dtc_width));
        for (plane, w) in [(&self.codes, width), (&self.dtc, dtc_width)] {
            for &c in plane.iter().flatten() {
                if w == 1 {
                    payload.push(c as u8);
                } else {
                    payload.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        let name = self.layout.material.to_string();
        let mut out = Vec::with_capacity(payload.len() + 64);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
        out.push(width as u8);
        out.push(dtc_width as u8);
        out.push(name.len() as u8);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&self.layout.size().to_le_bytes());
        out.extend_from_slice(&self.max_plies().to_le_bytes());
        out.extend_from_slice(&self.max_dtc().to_le_bytes());
        out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }

    /// Reads a table file, checking its version, name, size and checksum.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<Table, TableError> {
        let bad = |why: String| TableError::Format(path.to_path_buf(), why);
        let mut at = 0usize;
        let mut take = |n: usize| -> Result<&[u8], TableError> {
            let s = bytes
                .get(at..at + n)
                .ok_or_else(|| bad("the file is cut short".into()))?;
            at += n;
            Ok(s)
        };
        if take(4)? != MAGIC {
            return Err(bad("not a Jiangjun tablebase file".into()));
        }
        let version = u16::from_le_bytes(take(2)?.try_into().unwrap_or_default());
        if version == 1 {
            return Err(TableError::OldVersion(path.to_path_buf(), version));
        }
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}, this engine reads {FORMAT_VERSION}: generate it again"
            )));
        }
        let width = take(1)?[0] as usize;
        let dtc_width = take(1)?[0] as usize;
        for w in [width, dtc_width] {
            if w != 1 && w != 2 {
                return Err(bad(format!("{w} bytes per entry")));
            }
        }
        let name_len = take(1)?[0] as usize;
        let name = std::str::from_utf8(take(name_len)?).map_err(|_| bad("bad name".into()))?;
        let material = Material::parse(name).map_err(|e| bad(e.to_string()))?;
        let size = u64::from_le_bytes(take(8)?.try_into().unwrap_or_default());
        take(4)?;
        let sum = u64::from_le_bytes(take(8)?.try_into().unwrap_or_default());
        let layout = Layout::new(material);
        if size != layout.size() {
            return Err(bad(format!("{size} entries, {name} has {}", layout.size())));
        }
        let payload = &bytes[at..];
        if payload.len() as u64 != 2 * size * (width + dtc_width) as u64 {
            return Err(bad("the file is cut short or too long".into()));
        }
        if fnv1a64(payload) != sum {
            return Err(bad("checksum mismatch (a damaged file)".into()));
        }
        let n = size as usize;
        let plane = |bytes: &[u8], w: usize| -> [Vec<u16>; 2] {
            let read = |i: usize| -> u16 {
                if w == 1 {
                    bytes[i] as u16
                } else {
                    u16::from_le_bytes([bytes[2 * i], bytes[2 * i + 1]])
                }
            };
            [(0..n).map(read).collect(), (n..2 * n).map(read).collect()]
        };
        let (values, dtc) = payload.split_at(2 * n * width);
        Ok(Table {
            layout,
            codes: plane(values, width),
            dtc: plane(dtc, dtc_width),
        })
    }
}

/// Where a position is in its table.
pub struct Entry {
    pub material: Material,
    pub side: Color,
    pub board: Board,
}

/// The board a table stores `pos` as: its first side as Red (the position colour-flipped when
/// Black holds those pieces), with the side to move in that frame.
pub fn entry_of(pos: &Position) -> Entry {
    let material = Material::of(pos);
    in_table_frame(pos, material.canonical(), material.canonical() != material)
}

/// `pos` as the table of `material` stores it, colour-flipped with `flip`.
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

/// Tables probed together: those generated or read so far, by material.
#[derive(Default)]
pub struct TableSet {
    tables: HashMap<Material, Table>,
}

impl TableSet {
    pub fn new() -> TableSet {
        TableSet::default()
    }

    /// Adds (or replaces) a table.
    pub fn insert(&mut self, table: Table) {
        self.tables.insert(table.layout.material, table);
    }

    /// The table of a (canonical) material, if held.
    pub fn get(&self, m: Material) -> Option<&Table> {
        self.tables.get(&m)
    }

    /// The most pieces (generals included) of any position the set can answer: the largest
    /// table's, and with any table at least 10, a game without attacking pieces (two generals
    /// with their advisors and elephants), which is drawn without a table (2011 rules 4.2.2).
    pub fn max_pieces(&self) -> u32 {
        let largest = self
            .tables
            .keys()
            .map(|m| m.piece_count())
            .max()
            .unwrap_or(0);
        largest.max(if self.tables.is_empty() { 0 } else { 10 })
    }

    /// How many tables are held.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Reads every table file (`*.jjtb`) of a folder: the set, and what was wrong with the
    /// files it could not use (each named). Fails only when the folder cannot be read.
    pub fn load_dir(dir: &Path) -> Result<(TableSet, Vec<String>), TableError> {
        let entries = std::fs::read_dir(dir).map_err(|e| TableError::Io(dir.to_path_buf(), e))?;
        let mut names: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jjtb"))
            .collect();
        names.sort();
        let mut set = TableSet::new();
        let mut problems = Vec::new();
        for path in names {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let m = match Material::parse(stem) {
                Ok(m) if m.is_canonical() => m,
                _ => {
                    problems.push(format!("{}: not a table's name", path.display()));
                    continue;
                }
            };
            if let Err(e) = set.load(dir, m) {
                problems.push(e.to_string());
            }
        }
        Ok((set, problems))
    }

    /// Reads `DIR/NAME.jjtb` for a material into the set; `Ok(false)` when there is no such file.
    pub fn load(&mut self, dir: &Path, m: Material) -> Result<bool, TableError> {
        let path = dir.join(file_name(m));
        // No more than the table can take: a file that is not a table is not read whole.
        let most = 64 + 8 * Layout::new(m).size();
        match std::fs::metadata(&path) {
            Ok(meta) if meta.len() > most => {
                return Err(TableError::Format(path, "too long for its table".into()))
            }
            _ => {}
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(TableError::Io(path, e)),
        };
        let table = Table::from_bytes(&path, &bytes)?;
        if table.layout.material != m {
            return Err(TableError::Format(
                path,
                format!("holds {}, not {m}", table.layout.material),
            ));
        }
        self.insert(table);
        Ok(true)
    }

    /// The value of a position for its side to move: `None` when no table holds its material.
    /// Games where neither side has an attacking piece are draws without a table (2011 rules
    /// 4.2.2).
    /// The board is only turned into the table's frame once a table is known to hold it.
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        self.probe_dtc(pos).map(|(v, _)| v)
    }

    /// [`TableSet::probe`] with the position's conversion distance ([`Table::dtc`]): the
    /// result is reached before the natural limit when the distance is no more than the plies
    /// left (docs/tablebases.md).
    pub fn probe_dtc(&self, pos: &Position) -> Option<(Value, u16)> {
        let material = Material::of(pos);
        let canonical = material.canonical();
        if canonical.is_dead_draw() {
            return Some((Value::Draw, 0));
        }
        let table = self.tables.get(&canonical)?;
        let entry = in_table_frame(pos, canonical, canonical != material);
        let idx = table.layout.index_of(&entry.board)? as usize;
        match table.codes[entry.side.index()][idx] {
            ILLEGAL => None,
            c => Value::from_code(c).map(|v| (v, table.dtc[entry.side.index()][idx])),
        }
    }
}
