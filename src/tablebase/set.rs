//! Tables probed together: those generated or read so far, by material, held in memory up to
//! a budget and read from their files beyond it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::board::{Color, Position};

use super::material::Material;
use super::stored::StoredTable;
use super::table::{file_name, Table, TableError};
use super::value::Value;

/// The memory a [`TableSet`] gives the entries of the tables it holds, unless told otherwise:
/// every table of one attacking piece against a general with advisors and elephants (33 MB)
/// several times over; of larger sets, the smallest tables, the rest read on demand.
pub const DEFAULT_MEMORY: u64 = 256 << 20;

/// Tables probed together: those generated or read so far, by material.
///
/// Its tables' entries are held in memory up to its budget; a table loaded when what is left
/// of the budget cannot take it is read from its file at each probe (a few microseconds,
/// docs/tablebases.md). Tables generated in memory are held and count against the budget;
/// those written to a folder are held while the budget takes them ([`TableSet::keep`]).
pub struct TableSet {
    tables: HashMap<Material, StoredTable>,
    /// The budget: the most bytes of entries [`TableSet::load`] holds in memory.
    memory: u64,
    /// Bytes of entries held in memory.
    held: u64,
    /// Whether [`TableSet::load`] reads a table left in its file through to check its
    /// checksum (see [`TableSet::quick_load`]).
    check_on_demand: bool,
}

impl Default for TableSet {
    fn default() -> TableSet {
        TableSet::with_memory(DEFAULT_MEMORY)
    }
}

impl TableSet {
    /// An empty set with the default budget, [`DEFAULT_MEMORY`].
    pub fn new() -> TableSet {
        TableSet::default()
    }

    /// An empty set that holds at most `memory` bytes of entries in memory.
    pub fn with_memory(memory: u64) -> TableSet {
        TableSet {
            tables: HashMap::new(),
            memory,
            held: 0,
            check_on_demand: true,
        }
    }

    /// Tables left in their files are then loaded by their header and length only, without
    /// reading them through for the checksum, as the engine loads them: a set of gigabytes
    /// would otherwise keep `tbpath` (and the GUI waiting on it) busy for seconds or minutes
    /// (9 s for 5.3 GB already in the page cache). Tables held in memory are read whole and
    /// checked either way; `jiangjun tb verify` checks the others. A damaged file then gives
    /// wrong values or none, never a crash.
    pub fn quick_load(mut self) -> TableSet {
        self.check_on_demand = false;
        self
    }

    /// Adds (or replaces) a table, held in memory.
    pub fn insert(&mut self, table: Table) {
        self.hold(StoredTable::from(table));
    }

    /// Adds a table just generated and written to `dir`: held in memory while what is left of
    /// the budget takes it, else dropped and read from its file at each probe, so that a run
    /// that generates many tables stays within its budget.
    pub fn keep(&mut self, table: Table, dir: &Path) -> Result<(), TableError> {
        let m = table.layout.material;
        let stored = StoredTable::from(table);
        if stored.memory() <= self.memory.saturating_sub(self.held) {
            self.hold(stored);
            return Ok(());
        }
        drop(stored);
        match self.load(dir, m)? {
            true => Ok(()),
            false => Err(TableError::Io(
                dir.join(file_name(m)),
                std::io::Error::from(std::io::ErrorKind::NotFound),
            )),
        }
    }

    fn hold(&mut self, table: StoredTable) {
        self.held += table.memory();
        if let Some(old) = self.tables.insert(table.layout.material, table) {
            self.held -= old.memory();
        }
    }

    /// The table of a (canonical) material, if held.
    pub fn get(&self, m: Material) -> Option<&StoredTable> {
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

    /// Bytes of entries held in memory.
    pub fn memory_held(&self) -> u64 {
        self.held
    }

    /// How many tables are read from their files at each probe.
    pub fn on_demand(&self) -> usize {
        self.tables.values().filter(|t| t.on_demand()).count()
    }

    /// Reads every table file (`*.jjtb`) of a folder into the set, smallest first, so that
    /// the budget holds as many tables as it can: what was wrong with the files it could not
    /// use (each named). Fails only when the folder cannot be read.
    pub fn load_dir(&mut self, dir: &Path) -> Result<Vec<String>, TableError> {
        let entries = std::fs::read_dir(dir).map_err(|e| TableError::Io(dir.to_path_buf(), e))?;
        let mut names: Vec<(u64, PathBuf)> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "jjtb"))
            .map(|p| (std::fs::metadata(&p).map_or(0, |m| m.len()), p))
            .collect();
        names.sort();
        let mut problems = Vec::new();
        for (_, path) in names {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let m = match Material::parse(stem) {
                Ok(m) if m.is_canonical() => m,
                _ => {
                    problems.push(format!("{}: not a table's name", path.display()));
                    continue;
                }
            };
            if let Err(e) = self.load(dir, m) {
                problems.push(e.to_string());
            }
        }
        Ok(problems)
    }

    /// Reads `DIR/NAME.jjtb` for a material into the set, in memory if what is left of the
    /// budget takes it, else read on demand; `Ok(false)` when there is no such file.
    pub fn load(&mut self, dir: &Path, m: Material) -> Result<bool, TableError> {
        let path = dir.join(file_name(m));
        let left = self.memory.saturating_sub(self.held);
        match StoredTable::open_with(&path, m, left, self.check_on_demand) {
            Ok(table) => {
                self.hold(table);
                Ok(true)
            }
            Err(TableError::Io(_, e)) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The value of a position for its side to move: `None` when no table holds its material
    /// (or its file cannot be read). Games where neither side has an attacking piece are
    /// draws without a table (2011 rules 4.2.2).
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        self.probe_with(pos, Value::Draw, |t, side, idx| t.value(side, idx))
    }

    /// [`TableSet::probe`] with the position's conversion distance ([`Table::dtc`]): the
    /// result is reached before the natural limit when the distance is no more than the plies
    /// left (docs/tablebases.md).
    pub fn probe_dtc(&self, pos: &Position) -> Option<(Value, u16)> {
        self.probe_with(pos, (Value::Draw, 0), |t, side, idx| {
            Some((t.value(side, idx)?, t.dtc(side, idx)?))
        })
    }

    /// `read` of the table entry that holds `pos`, or `dead_draw` without attacking pieces.
    /// The board is only turned into the table's frame once a table is known to hold it.
    fn probe_with<T>(
        &self,
        pos: &Position,
        dead_draw: T,
        read: impl FnOnce(&StoredTable, Color, u64) -> Option<T>,
    ) -> Option<T> {
        let material = Material::of(pos);
        let canonical = material.canonical();
        if canonical.is_dead_draw() {
            return Some(dead_draw);
        }
        let table = self.tables.get(&canonical)?;
        let flip = canonical != material;
        let idx = table.layout.index_of_position(pos, flip)?;
        let side = if flip {
            !pos.side_to_move()
        } else {
            pos.side_to_move()
        };
        read(table, side, idx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn material(s: &str) -> Material {
        Material::parse(s).unwrap()
    }

    /// Made-up `KR-K` and `KR-KA` tables ([`Table::made_up`]) in an empty scratch folder.
    fn folder(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("jj-set-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        for m in ["KR-K", "KR-KA"].map(material) {
            std::fs::write(dir.join(file_name(m)), Table::made_up(m, false).to_bytes()).unwrap();
        }
        dir
    }

    fn loaded(dir: &Path, memory: u64) -> TableSet {
        let mut set = TableSet::with_memory(memory);
        assert_eq!(set.load_dir(dir).unwrap(), Vec::<String>::new());
        set
    }

    /// Every legal position of a table's index, both sides to move.
    fn positions(t: &StoredTable) -> Vec<Position> {
        let layout = &t.layout;
        (0..layout.size())
            .filter_map(|idx| layout.board(&layout.decode(idx)))
            .flat_map(|b| Color::ALL.map(|side| Position::from_placement(b, side, 0, 1).ok()))
            .flatten()
            .collect()
    }

    /// Tables past the budget are read on demand; the smallest are held first.
    #[test]
    fn the_budget_holds_the_smallest_tables() {
        let dir = folder("budget");
        let small = loaded(&dir, u64::MAX)
            .get(material("KR-K"))
            .unwrap()
            .memory();
        for (memory, held) in [
            (0, 0),
            (small - 1, 0),
            (small, small),
            (small + 1000, small),
        ] {
            let set = loaded(&dir, memory);
            assert_eq!(set.memory_held(), held, "{memory}");
            assert_eq!(set.get(material("KR-K")).unwrap().on_demand(), held == 0);
            assert!(set.get(material("KR-KA")).unwrap().on_demand());
            assert_eq!(set.on_demand(), if held == 0 { 2 } else { 1 });
        }
        let all = loaded(&dir, u64::MAX);
        assert_eq!(all.on_demand(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Probes answer alike in memory and on demand; a file cut short after loading gives no
    /// value, and the table beside it still answers.
    #[test]
    fn probes_alike_and_none_from_a_file_cut_short() {
        let dir = folder("probes");
        let (held, on_disk) = (loaded(&dir, u64::MAX), loaded(&dir, 0));
        let rook = positions(held.get(material("KR-K")).unwrap());
        let advisor = positions(held.get(material("KR-KA")).unwrap());
        for pos in rook.iter().chain(&advisor) {
            assert_eq!(held.probe_dtc(pos), on_disk.probe_dtc(pos));
            assert_eq!(held.probe(pos), on_disk.probe(pos));
        }
        assert!(advisor.iter().any(|p| on_disk.probe_dtc(p).is_some()));
        let path = dir.join(file_name(material("KR-KA")));
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_len(20).unwrap();
        assert!(advisor.iter().all(|p| on_disk.probe_dtc(p).is_none()));
        assert!(advisor.iter().all(|p| on_disk.probe(p).is_none()));
        for pos in &rook {
            assert_eq!(held.probe_dtc(pos), on_disk.probe_dtc(pos));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
