//! A table as its file stores it, for probing: each plane (values, conversion distances) at
//! the file's width, 1 or 2 bytes an entry, so a table takes the memory of its file; held in
//! memory, or left in the file and read an entry at a time at each probe.
//!
//! A second type beside the generator's [`Table`], because the two uses differ: the generator
//! writes 16-bit entries as it solves them and writes the table out once, while a table read
//! back is only looked up, and at the file's width it takes half the memory (the one-attacker
//! tables have 1-byte planes). A [`super::TableSet`] holds every table this way, the ones it
//! generated too.
//!
//! Loading reads the file once from start to end, at most [`CHUNK`] bytes at a time beside the
//! entries it keeps, and checks the checksum either way: a damaged file is refused at load,
//! not found wrong at a probe. The engine loads a table left on disk by its header and length
//! only ([`StoredTable::open_with`]): reading gigabytes through at `tbpath` kept a GUI waiting
//! for seconds. A table left on disk keeps its file open, shared by the search
//! threads: a positioned read (`pread` on Unix, `ReadFile` at an offset on Windows) moves no
//! shared cursor. A read that fails later (the file cut short since) is no value, and the
//! search goes on as without the table; a file removed since is still read on Unix, where the
//! open file lives on.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use crate::board::Color;
use crate::checksum::{fnv1a64, fnv1a64_from};
use crate::input::{self, InputError};

use super::index::{Layout, MAX_ENTRIES};
use super::material::Material;
use super::table::{Table, TableError, FORMAT_VERSION, MAGIC};
use super::value::Value;

/// Bytes read at a time while a file left on disk is checked: the memory loading takes
/// beside the entries it keeps.
pub const CHUNK: usize = 1 << 20;

/// The longest header: magic, version, widths and the name's length (9 bytes), the name (at
/// most 255), entries per side, longest mate, longest conversion and checksum (20).
const MAX_HEADER: usize = 9 + 255 + 20;

/// Whether this platform has positioned reads; elsewhere every table is held in memory.
const ON_DEMAND: bool = cfg!(any(unix, windows));

/// A table's entries at its file's widths, in memory or on disk.
pub struct StoredTable {
    pub layout: Layout,
    /// Where each plane (values, conversion distances) starts among the entries, and its
    /// bytes per entry.
    planes: [(u64, u8); 2],
    max_plies: u16,
    max_dtc: u16,
    entries: Entries,
}

enum Entries {
    Memory(Box<[u8]>),
    /// The file, opened once, and where its entries start.
    Disk {
        file: File,
        start: u64,
    },
}

/// A table's legal positions by result ([`StoredTable::counts`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `[red to move, black to move]` of `[wins, draws, losses]`.
    pub by_side: [[u64; 3]; 2],
    /// Positions (both sides to move) decided by the repetition rules.
    pub by_rule: u64,
}

/// What a file says of itself before its entries (the format: [`super::table`]).
struct Header {
    layout: Layout,
    widths: [u8; 2],
    max_plies: u16,
    max_dtc: u16,
    sum: u64,
    /// Where the entries start.
    len: usize,
}

impl Header {
    /// Reads the header at the start of `bytes`, checking its version, widths, name and size.
    fn parse(path: &Path, bytes: &[u8]) -> Result<Header, TableError> {
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
        let u16_at = |s: &[u8]| u16::from_le_bytes(s.try_into().unwrap_or_default());
        let version = u16_at(take(2)?);
        if version == 1 || version == 2 {
            return Err(TableError::OldVersion(path.to_path_buf(), version));
        }
        if version != FORMAT_VERSION {
            return Err(bad(format!(
                "format version {version}, this engine reads {FORMAT_VERSION}: generate it again"
            )));
        }
        let widths = [take(1)?[0], take(1)?[0]];
        for w in widths {
            if w != 1 && w != 2 {
                return Err(bad(format!("{w} bytes per entry")));
            }
        }
        let name_len = take(1)?[0] as usize;
        let name = std::str::from_utf8(take(name_len)?).map_err(|_| bad("bad name".into()))?;
        let material = Material::parse(name).map_err(|e| bad(e.to_string()))?;
        let size = u64::from_le_bytes(take(8)?.try_into().unwrap_or_default());
        let max_plies = u16_at(take(2)?);
        let max_dtc = u16_at(take(2)?);
        let sum = u64::from_le_bytes(take(8)?.try_into().unwrap_or_default());
        let layout = Layout::new(material);
        if layout.size() > MAX_ENTRIES {
            return Err(bad(format!("{name}: more entries than a table holds")));
        }
        if size != layout.size() {
            return Err(bad(format!("{size} entries, {name} has {}", layout.size())));
        }
        Ok(Header {
            layout,
            widths,
            max_plies,
            max_dtc,
            sum,
            len: at,
        })
    }

    /// Bytes of entries after the header.
    fn entries_len(&self) -> u64 {
        2 * self.layout.size() * u64::from(self.widths[0] + self.widths[1])
    }
}

/// Reads `buf.len()` bytes of `file` at `at`, leaving no cursor moved for another thread.
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

/// Reads `buf.len()` bytes of `file` at `at` (Windows moves the cursor, which no read here
/// uses).
#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut at: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, at) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                at += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// No positioned reads here ([`ON_DEMAND`] is false): never called.
#[cfg(not(any(unix, windows)))]
fn read_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
    Err(io::ErrorKind::Unsupported.into())
}

impl StoredTable {
    /// Reads a table file's bytes, checking its version, name, size and checksum; held in
    /// memory.
    pub fn from_bytes(path: &Path, bytes: &[u8]) -> Result<StoredTable, TableError> {
        let (header, kept) = read(path, bytes.len() as u64, bytes, None, u64::MAX, true)?;
        let entries = Entries::Memory(kept.unwrap_or_default());
        Ok(StoredTable::new(header, entries))
    }

    /// Reads the table file `path` of `material`, checking it as [`StoredTable::from_bytes`]
    /// does: its entries are held in memory if they take at most `memory` bytes, else read
    /// from the file at each probe. A missing file is an I/O error of kind `NotFound`.
    pub fn open(path: &Path, material: Material, memory: u64) -> Result<StoredTable, TableError> {
        StoredTable::open_with(path, material, memory, true)
    }

    /// [`StoredTable::open`], reading a table left in its file through for its checksum only
    /// with `check_on_demand` (else its header and length are checked).
    pub fn open_with(
        path: &Path,
        material: Material,
        memory: u64,
        check_on_demand: bool,
    ) -> Result<StoredTable, TableError> {
        // No more than the table can take: a file that is not a table is not read through.
        let most =
            (MAX_HEADER as u64).saturating_add(Layout::new(material).size().saturating_mul(8));
        let (file, len) = input::open_regular(path, most).map_err(|e| match e {
            InputError::Io(e) => TableError::Io(path.to_path_buf(), e),
            InputError::TooLarge { .. } => {
                TableError::Format(path.to_path_buf(), "too long for its table".into())
            }
            other => TableError::Format(path.to_path_buf(), other.to_string()),
        })?;
        let memory = if ON_DEMAND { memory } else { u64::MAX };
        let (header, kept) = read(path, len, &file, Some(material), memory, check_on_demand)?;
        let entries = match kept {
            Some(bytes) => Entries::Memory(bytes),
            None => Entries::Disk {
                file,
                start: header.len as u64,
            },
        };
        Ok(StoredTable::new(header, entries))
    }

    fn new(header: Header, entries: Entries) -> StoredTable {
        let [w, dtc_w] = header.widths;
        let values_len = 2 * header.layout.size() * u64::from(w);
        StoredTable {
            layout: header.layout,
            planes: [(0, w), (values_len, dtc_w)],
            max_plies: header.max_plies,
            max_dtc: header.max_dtc,
            entries,
        }
    }

    /// Entry `idx` with `side` to move of plane 0 (values) or 1 (conversion distances);
    /// `None` past the end, or when the file cannot be read.
    pub(super) fn entry(&self, plane: usize, side: Color, idx: u64) -> Option<u16> {
        let size = self.layout.size();
        if idx >= size {
            return None;
        }
        let (start, width) = self.planes[plane];
        let at = start + (side.index() as u64 * size + idx) * u64::from(width);
        match &self.entries {
            Entries::Memory(bytes) => {
                let at = usize::try_from(at).ok()?;
                if width == 1 {
                    bytes.get(at).map(|&b| u16::from(b))
                } else {
                    let pair = bytes.get(at..at + 2)?;
                    Some(u16::from_le_bytes([pair[0], pair[1]]))
                }
            }
            Entries::Disk { file, start } => {
                let mut pair = [0u8; 2];
                read_at(file, &mut pair[..usize::from(width)], start + at).ok()?;
                Some(u16::from_le_bytes(pair))
            }
        }
    }

    /// The value of entry `idx` with `side` to move; `None` when it is not a legal position
    /// or cannot be read.
    pub fn value(&self, side: Color, idx: u64) -> Option<Value> {
        Value::from_code(self.entry(0, side, idx)?)
    }

    /// The conversion distance of entry `idx` with `side` to move ([`Table::dtc`]); `None`
    /// when it cannot be read.
    pub fn dtc(&self, side: Color, idx: u64) -> Option<u16> {
        self.entry(1, side, idx)
    }

    /// How many legal positions of each side to move are won, drawn and lost (of either
    /// kind), and how many of all are decided by the repetition rules. A read per entry on
    /// disk: for tables just made, which are in memory.
    pub fn counts(&self) -> Counts {
        let mut c = Counts::default();
        for side in Color::ALL {
            for v in (0..self.layout.size()).filter_map(|idx| self.value(side, idx)) {
                c.by_side[side.index()][(1 - v.outcome()) as usize] += 1;
                c.by_rule += u64::from(v.by_rule());
            }
        }
        c
    }

    /// The longest distance to mate in the table, as its file says.
    pub fn max_plies(&self) -> u16 {
        self.max_plies
    }

    /// The longest conversion distance of a result by mate in the table, as its file says.
    pub fn max_dtc(&self) -> u16 {
        self.max_dtc
    }

    /// Bytes of entries held in memory: none for a table read on demand.
    pub fn memory(&self) -> u64 {
        match &self.entries {
            Entries::Memory(bytes) => bytes.len() as u64,
            Entries::Disk { .. } => 0,
        }
    }

    /// Whether the entries are read from the file at each probe.
    pub fn on_demand(&self) -> bool {
        matches!(self.entries, Entries::Disk { .. })
    }
}

#[cfg(test)]
impl StoredTable {
    /// Every entry, both planes, for comparing tables.
    pub(super) fn every_entry(&self) -> Vec<[Option<u16>; 2]> {
        Color::ALL
            .iter()
            .flat_map(|&side| (0..self.layout.size()).map(move |idx| (side, idx)))
            .map(|(side, idx)| [0, 1].map(|plane| self.entry(plane, side, idx)))
            .collect()
    }
}

/// A table read back, widened to the generator's 16-bit entries (an entry that cannot be read
/// is 0).
impl From<&StoredTable> for Table {
    fn from(stored: &StoredTable) -> Table {
        let n = stored.layout.size();
        let [codes, dtc] = [0, 1].map(|plane| {
            Color::ALL.map(|side| {
                (0..n)
                    .map(|idx| stored.entry(plane, side, idx).unwrap_or_default())
                    .collect()
            })
        });
        Table {
            layout: Layout::new(stored.layout.material),
            codes,
            dtc,
        }
    }
}

/// A generated table, held in memory at its file's widths (what its file's header would say,
/// without the checksum and length that only reading needs).
impl From<Table> for StoredTable {
    fn from(table: Table) -> StoredTable {
        let (widths, entries) = table.entries();
        let header = Header {
            max_plies: table.max_plies(),
            max_dtc: table.max_dtc(),
            layout: table.layout,
            widths,
            sum: 0,
            len: 0,
        };
        StoredTable::new(header, Entries::Memory(entries.into_boxed_slice()))
    }
}

/// A checked file's header, with its entries when they are held in memory.
type Checked = (Header, Option<Box<[u8]>>);

/// Reads a table file of `len` bytes from `src`, start to end, checking its header (against
/// `material` if given), length and checksum: the header, and the entries when they take at
/// most `memory` bytes. Entries left in the file are read through for the checksum only with
/// `check_rest`.
fn read(
    path: &Path,
    len: u64,
    mut src: impl Read,
    material: Option<Material>,
    memory: u64,
    check_rest: bool,
) -> Result<Checked, TableError> {
    let io = |e| TableError::Io(path.to_path_buf(), e);
    let mut head = vec![0u8; len.min(MAX_HEADER as u64) as usize];
    src.read_exact(&mut head).map_err(io)?;
    let header = Header::parse(path, &head)?;
    if let Some(m) = material.filter(|&m| m != header.layout.material) {
        return Err(TableError::Format(
            path.to_path_buf(),
            format!("holds {}, not {m}", header.layout.material),
        ));
    }
    let entries = header.entries_len();
    if len - header.len as u64 != entries {
        return Err(TableError::Format(
            path.to_path_buf(),
            "the file is cut short or too long".into(),
        ));
    }
    // The header's read took the first entries with it.
    let first = &head[header.len..];
    let (sum, kept) = match usize::try_from(entries) {
        Ok(n) if entries <= memory => {
            let mut all = vec![0u8; n];
            all[..first.len()].copy_from_slice(first);
            src.read_exact(&mut all[first.len()..]).map_err(io)?;
            (fnv1a64(&all), Some(all.into_boxed_slice()))
        }
        _ if !check_rest => (header.sum, None),
        _ => {
            let mut sum = fnv1a64(first);
            let mut left = entries - first.len() as u64;
            let mut chunk = vec![0u8; left.min(CHUNK as u64) as usize];
            while left > 0 {
                let n = left.min(CHUNK as u64) as usize;
                src.read_exact(&mut chunk[..n]).map_err(io)?;
                sum = fnv1a64_from(sum, &chunk[..n]);
                left -= n as u64;
            }
            (sum, None)
        }
    };
    if sum != header.sum {
        return Err(TableError::Format(
            path.to_path_buf(),
            "checksum mismatch (a damaged file)".into(),
        ));
    }
    Ok((header, kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::table::file_name;
    use std::path::PathBuf;

    fn material(s: &str) -> Material {
        Material::parse(s).unwrap()
    }

    /// `table` written to an empty scratch folder: the file's path.
    fn written(tag: &str, table: &Table) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("jj-stored-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(file_name(table.layout.material));
        std::fs::write(&path, table.to_bytes()).unwrap();
        path
    }

    fn remove(path: &Path) {
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    /// The same entries in memory, on demand and in the table written, for 1- and 2-byte
    /// planes.
    #[test]
    fn memory_and_on_demand_read_the_same_entries() {
        for (wide, widths) in [(false, [1, 1]), (true, [2, 2])] {
            let table = Table::made_up(material("KR-KA"), wide);
            assert_eq!(table.entries().0, widths);
            let path = written("same", &table);
            let held = StoredTable::open(&path, material("KR-KA"), u64::MAX).unwrap();
            let on_disk = StoredTable::open(&path, material("KR-KA"), 0).unwrap();
            assert!(!held.on_demand() && on_disk.on_demand());
            assert_eq!(held.memory(), table.entries().1.len() as u64);
            assert_eq!(on_disk.memory(), 0);
            assert_eq!(held.every_entry(), on_disk.every_entry());
            let back = Table::from(&on_disk);
            assert!(back.codes == table.codes && back.dtc == table.dtc);
            assert_eq!(
                (on_disk.max_plies(), on_disk.max_dtc()),
                (table.max_plies(), table.max_dtc())
            );
            let n = table.layout.size();
            assert_eq!(
                (held.value(Color::Red, n), on_disk.dtc(Color::Black, n)),
                (None, None)
            );
            remove(&path);
        }
    }

    #[test]
    fn damaged_files_are_refused_in_memory_and_on_demand() {
        let path = written("damaged", &Table::made_up(material("KR-KA"), false));
        let good = std::fs::read(&path).unwrap();
        let mut first_entry = good.clone();
        first_entry[MAX_HEADER] ^= 0x10;
        let mut last_entry = good.clone();
        *last_entry.last_mut().unwrap() ^= 1;
        let mut other = good.clone();
        other[10] = b'N';
        for (bytes, why) in [
            (first_entry, "checksum"),
            (last_entry, "checksum"),
            (good[..good.len() - 1].to_vec(), "cut short"),
            (good[..40].to_vec(), "cut short"),
            (good[..20].to_vec(), "cut short"),
            ([good.as_slice(), &[0]].concat(), "too long"),
            (other, "holds KN-KA, not KR-KA"),
        ] {
            std::fs::write(&path, &bytes).unwrap();
            for memory in [u64::MAX, 0] {
                let err = StoredTable::open(&path, material("KR-KA"), memory).err();
                let err = err.unwrap().to_string();
                assert!(err.contains(why), "{memory}: {err}");
            }
            // Loaded as the engine loads tables left in their files: the header and the
            // length are still checked, the checksum is not (`tb verify` reads it), and every
            // entry of the damaged file reads as a value or none, without a panic.
            let quick = StoredTable::open_with(&path, material("KR-KA"), 0, false);
            if why == "checksum" {
                let t = quick.unwrap();
                for idx in 0..t.layout.size() {
                    for side in Color::ALL {
                        let _ = (t.value(side, idx), t.dtc(side, idx));
                    }
                }
            } else {
                assert!(quick.err().unwrap().to_string().contains(why));
            }
        }
        remove(&path);
    }

    /// A file cut short after it was opened gives no entry, never a panic; a removed one is
    /// still read where the open file lives on (Unix), or gives none.
    #[test]
    fn a_file_cut_or_removed_after_opening_gives_no_entry() {
        let table = Table::made_up(material("KR-KA"), true);
        let path = written("after", &table);
        let on_disk = StoredTable::open(&path, material("KR-KA"), 0).unwrap();
        let before = on_disk.every_entry();
        std::fs::remove_file(&path).unwrap();
        let after = on_disk.every_entry();
        assert!(before
            .iter()
            .zip(&after)
            .all(|(b, a)| a == b || *a == [None, None]));
        std::fs::write(&path, table.to_bytes()).unwrap();
        let on_disk = StoredTable::open(&path, material("KR-KA"), 0).unwrap();
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_len(20).unwrap();
        assert!(on_disk.every_entry().iter().all(|e| *e == [None, None]));
        assert_eq!(on_disk.counts(), Counts::default());
        remove(&path);
    }
}
