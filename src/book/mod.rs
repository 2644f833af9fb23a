//! Opening books: our own format, probing, and a reader for ElephantEye's `BOOK.DAT`.
//!
//! # Our format (`.jjb`, version 1)
//!
//! Little-endian throughout.
//!
//! | offset | size | field |
//! | --- | --- | --- |
//! | 0 | 8 | magic `JJBOOK\0\x01` (the last byte is the format version) |
//! | 8 | 8 | key check: the Zobrist key of the start position, so a book made with other keys is refused |
//! | 16 | 4 | number of entries `n` |
//! | 20 | 4 | FNV-1a hash of the entry bytes (corruption check) |
//! | 24 | 16·n | entries |
//!
//! An entry is `key: u64, move: u16, weight: u16, score: i16, reserved: u16`. `key` is the
//! position's *canonical* key: the smaller of the Zobrist keys of the position and of its
//! left-right mirror image, so a position and its mirror are stored once; `move` (our packed
//! [`Move::to_u16`]) is stored in the orientation of the canonical key and mirrored back when the
//! position was found through its mirror. Entries are sorted by key, then by weight descending,
//! so a lookup is a binary search. `score` is the builder's evaluation of the move (centipawns,
//! side to move), kept for tools; `weight` drives the choice.
//!
//! The loader checks magic, version, key check, size and sort order and the hash; a bad file is
//! refused with a message, never a crash. Every move found is checked for legality before use.

pub mod eleeye;

use crate::board::{zobrist, Color, Move, Position, Square};
use crate::checksum::fnv1a32;
use crate::input;
use crate::output;
use crate::weighted;
use rand::Rng;
use std::path::{Path, PathBuf};

/// File magic; the last byte is the version.
pub const MAGIC: [u8; 8] = *b"JJBOOK\x00\x01";
const HEADER: usize = 24;
const ENTRY: usize = 16;

/// One stored move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: u64,
    pub mv: u16,
    pub weight: u16,
    pub score: i16,
}

/// A legal book move for a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
    pub score: i16,
}

/// How much variety the choice of book move has (the UCCI `randomness` option).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Randomness {
    /// Always the highest weight (deterministic).
    None,
    Tiny,
    Small,
    Medium,
    Large,
    Huge,
}

impl Randomness {
    /// The engine's variety until told otherwise (the `randomness` option's default).
    pub const DEFAULT: Randomness = Randomness::None;

    /// The option's spelling of this variety, as [`Randomness::parse`] reads it.
    pub const fn name(self) -> &'static str {
        match self {
            Randomness::None => "none",
            Randomness::Tiny => "tiny",
            Randomness::Small => "small",
            Randomness::Medium => "medium",
            Randomness::Large => "large",
            Randomness::Huge => "huge",
        }
    }

    pub fn parse(s: &str) -> Option<Randomness> {
        Some(match s.to_ascii_lowercase().as_str() {
            "none" => Randomness::None,
            "tiny" => Randomness::Tiny,
            "small" => Randomness::Small,
            "medium" => Randomness::Medium,
            "large" => Randomness::Large,
            "huge" => Randomness::Huge,
            _ => return None,
        })
    }

    /// Exponent applied to weights: large exponents favour the best move strongly.
    fn exponent(self) -> f64 {
        match self {
            Randomness::None => f64::INFINITY,
            Randomness::Tiny => 4.0,
            Randomness::Small => 2.0,
            Randomness::Medium => 1.0,
            Randomness::Large => 0.5,
            Randomness::Huge => 0.0,
        }
    }
}

/// Why a book file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BookError {
    Io(String),
    /// The book could not be written (saving, not reading).
    Write(String),
    BadMagic,
    BadVersion(u8),
    WrongKeys,
    Truncated {
        expected: usize,
        got: usize,
    },
    Corrupt(String),
}

impl std::fmt::Display for BookError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BookError::Io(e) => write!(f, "cannot read book: {e}"),
            BookError::Write(e) => write!(f, "cannot write book: {e}"),
            BookError::BadMagic => write!(f, "not a Jiangjun or ElephantEye book file"),
            BookError::BadVersion(v) => write!(f, "book format version {v} is not supported"),
            BookError::WrongKeys => write!(f, "book was made with different position keys"),
            BookError::Truncated { expected, got } => {
                write!(f, "book file truncated: {got} bytes, expected {expected}")
            }
            BookError::Corrupt(why) => write!(f, "book file corrupt: {why}"),
        }
    }
}

impl std::error::Error for BookError {}

/// The Zobrist key of the left-right mirror image of `pos`.
pub fn mirror_key(pos: &Position) -> u64 {
    let mut k = 0;
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            k ^= zobrist::piece_key(p, sq.mirror_file());
        }
    }
    if pos.side_to_move() == Color::Black {
        k ^= zobrist::SIDE;
    }
    k
}

/// The canonical key of a position and whether it is the mirror's key.
pub fn canonical_key(pos: &Position) -> (u64, bool) {
    let k = pos.key();
    let m = mirror_key(pos);
    if m < k {
        (m, true)
    } else {
        (k, false)
    }
}

/// Where a book's moves come from.
#[derive(Clone, Debug)]
enum Source {
    Ours(Vec<Entry>),
    ElephantEye(eleeye::EleEyeBook),
}

/// A loaded book.
#[derive(Clone, Debug)]
pub struct Book {
    source: Source,
    pub path: PathBuf,
}

impl Book {
    /// Loads a book in our format or ElephantEye's `BOOK.DAT` format (chosen by the magic).
    /// Only a regular file of at most [`input::MAX_BOOK_BYTES`] is read (a GUI may name a
    /// directory, a FIFO or `/dev/zero`), and only when its size is one its header (ours) or
    /// its record size (`BOOK.DAT`) allows: a wrong size is refused before the file is read.
    pub fn load(path: &Path) -> Result<Book, BookError> {
        let io = |e: input::InputError| BookError::Io(e.to_string());
        let (file, size) = input::open_regular(path, input::MAX_BOOK_BYTES).map_err(io)?;
        let mut head = Vec::with_capacity(HEADER);
        std::io::Read::read_to_end(&mut std::io::Read::take(&file, HEADER as u64), &mut head)
            .map_err(|e| BookError::Io(e.to_string()))?;
        size_allowed(&head, size)?;
        drop(file);
        let bytes = input::read_file(path, input::MAX_BOOK_BYTES).map_err(io)?;
        let source = if bytes.starts_with(&MAGIC[..7]) {
            Source::Ours(decode(&bytes)?)
        } else {
            Source::ElephantEye(eleeye::EleEyeBook::decode(&bytes)?)
        };
        Ok(Book {
            source,
            path: path.to_path_buf(),
        })
    }

    /// Builds an in-memory book from entries (sorted here).
    pub fn from_entries(mut entries: Vec<Entry>) -> Book {
        sort_entries(&mut entries);
        Book {
            source: Source::Ours(entries),
            path: PathBuf::new(),
        }
    }

    /// The stored entries of a book in our format (`None` for a BOOK.DAT book).
    pub fn entries(&self) -> Option<&[Entry]> {
        match &self.source {
            Source::Ours(e) => Some(e),
            Source::ElephantEye(_) => None,
        }
    }

    /// Number of stored entries (moves).
    pub fn len(&self) -> usize {
        match &self.source {
            Source::Ours(e) => e.len(),
            Source::ElephantEye(b) => b.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of distinct positions.
    pub fn positions(&self) -> usize {
        match &self.source {
            Source::Ours(e) => {
                let mut n = 0;
                let mut last = None;
                for x in e {
                    if Some(x.key) != last {
                        n += 1;
                        last = Some(x.key);
                    }
                }
                n
            }
            Source::ElephantEye(b) => b.positions(),
        }
    }

    /// The legal book moves for `pos`, best weight first.
    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        let mut out = match &self.source {
            Source::Ours(entries) => {
                let (key, mirrored) = canonical_key(pos);
                let start = entries.partition_point(|e| e.key < key);
                entries[start..]
                    .iter()
                    .take_while(|e| e.key == key)
                    .filter_map(|e| {
                        let m = Move::from_u16(e.mv)?;
                        let m = if mirrored { m.mirror_file() } else { m };
                        pos.is_legal(m).then_some(BookMove {
                            mv: m,
                            weight: e.weight,
                            score: e.score,
                        })
                    })
                    .collect::<Vec<_>>()
            }
            Source::ElephantEye(b) => b.probe(pos),
        };
        out.sort_by_key(|b| std::cmp::Reverse(b.weight));
        out.dedup_by_key(|b| b.mv);
        out.retain(|b| b.weight > 0);
        out
    }

    /// Every line of book moves from `pos`, `plies` long, or shorter where the book ends after
    /// at least `min_plies`: an opening suite for engine matches (`jiangjun book lines`), with
    /// far more distinct games than a hand-made list. Lines come in book order, best first. A
    /// book move back to a position already on the line is not followed: a book file whose
    /// moves form a cycle would otherwise give endless (or exponentially many) lines.
    pub fn lines(&self, pos: &mut Position, plies: usize, min_plies: usize) -> Vec<Vec<Move>> {
        let mut out = Vec::new();
        let mut line = Vec::new();
        self.walk(pos, plies, min_plies, &mut line, &mut out);
        out
    }

    fn walk(
        &self,
        pos: &mut Position,
        plies: usize,
        min_plies: usize,
        line: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if line.len() >= plies {
            out.push(line.clone());
            return;
        }
        let mut extended = false;
        for bm in self.probe(pos) {
            pos.make_move(bm.mv);
            if pos.occurrences() == 1 {
                line.push(bm.mv);
                self.walk(pos, plies, min_plies, line, out);
                line.pop();
                extended = true;
            }
            pos.unmake_move();
        }
        if !extended && line.len() >= min_plies {
            out.push(line.clone());
        }
    }

    /// How many entries are stored for this position (legal or not), for validation tools.
    pub fn stored_count(&self, pos: &Position) -> usize {
        match &self.source {
            Source::Ours(entries) => {
                let (key, _) = canonical_key(pos);
                let start = entries.partition_point(|e| e.key < key);
                entries[start..].iter().take_while(|e| e.key == key).count()
            }
            Source::ElephantEye(_) => self.probe(pos).len(),
        }
    }

    /// Writes the book in our format, whole or not at all ([`output::write_whole`]): a
    /// failed write leaves the file that was there as it was.
    pub fn save(&self, path: &Path) -> Result<(), BookError> {
        let Source::Ours(entries) = &self.source else {
            return Err(BookError::Corrupt(
                "only our own format can be written".into(),
            ));
        };
        output::write_whole(path, &encode(entries)).map_err(|e| BookError::Write(e.to_string()))
    }
}

/// Chooses among book moves by weight and randomness (`None` → the best-weighted move).
pub fn choose(moves: &[BookMove], randomness: Randomness, rng: &mut impl Rng) -> Option<BookMove> {
    let first = *moves.first()?;
    let e = randomness.exponent();
    if e.is_infinite() {
        return moves
            .iter()
            .copied()
            .max_by_key(|b| b.weight)
            .or(Some(first));
    }
    let w: Vec<f64> = moves.iter().map(|b| (b.weight as f64).powf(e)).collect();
    let total: f64 = w.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return Some(first);
    }
    weighted::pick(&w, rng).map(|i| moves[i])
}

fn sort_entries(entries: &mut [Entry]) {
    entries.sort_by(|a, b| {
        a.key
            .cmp(&b.key)
            .then(b.weight.cmp(&a.weight))
            .then(a.mv.cmp(&b.mv))
    });
}

/// Serialises entries (sorted) in our format.
pub fn encode(entries: &[Entry]) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sort_entries(&mut sorted);
    let mut body = Vec::with_capacity(sorted.len() * ENTRY);
    for e in &sorted {
        body.extend_from_slice(&e.key.to_le_bytes());
        body.extend_from_slice(&e.mv.to_le_bytes());
        body.extend_from_slice(&e.weight.to_le_bytes());
        body.extend_from_slice(&e.score.to_le_bytes());
        body.extend_from_slice(&0u16.to_le_bytes());
    }
    let mut out = Vec::with_capacity(HEADER + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&Position::startpos().key().to_le_bytes());
    out.extend_from_slice(&(sorted.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a32(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Checks a book file's size against its first bytes: ours must be exactly as long as its
/// header's entry count says, a `BOOK.DAT` a whole number of 8-byte records.
fn size_allowed(head: &[u8], size: u64) -> Result<(), BookError> {
    let expected = if head.starts_with(&MAGIC[..7]) {
        if head.len() < HEADER {
            return Ok(()); // `decode` says what is wrong
        }
        (HEADER as u64) + u64::from(u32_at(head, 16)) * ENTRY as u64
    } else if size.is_multiple_of(8) {
        return Ok(());
    } else {
        return Err(BookError::Corrupt(format!(
            "{size} bytes: neither a Jiangjun book nor a whole number of BOOK.DAT records"
        )));
    };
    match size.cmp(&expected) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Less => Err(BookError::Truncated {
            expected: usize::try_from(expected).unwrap_or(usize::MAX),
            got: usize::try_from(size).unwrap_or(usize::MAX),
        }),
        std::cmp::Ordering::Greater => Err(BookError::Corrupt(format!(
            "{size} bytes, longer than the {expected} its header gives"
        ))),
    }
}

fn u64_at(b: &[u8], i: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[i..i + 8]);
    u64::from_le_bytes(a)
}

fn u32_at(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]])
}

fn u16_at(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[i], b[i + 1]])
}

/// Parses and validates a book in our format.
pub fn decode(bytes: &[u8]) -> Result<Vec<Entry>, BookError> {
    if bytes.len() < HEADER {
        return Err(BookError::Truncated {
            expected: HEADER,
            got: bytes.len(),
        });
    }
    if bytes[..7] != MAGIC[..7] {
        return Err(BookError::BadMagic);
    }
    if bytes[7] != MAGIC[7] {
        return Err(BookError::BadVersion(bytes[7]));
    }
    if u64_at(bytes, 8) != Position::startpos().key() {
        return Err(BookError::WrongKeys);
    }
    let n = u32_at(bytes, 16) as usize;
    let expected = n.checked_mul(ENTRY).and_then(|b| b.checked_add(HEADER));
    match expected {
        Some(e) if e == bytes.len() => {}
        Some(e) => {
            return Err(BookError::Truncated {
                expected: e,
                got: bytes.len(),
            })
        }
        None => return Err(BookError::Corrupt("entry count overflows".into())),
    }
    let body = &bytes[HEADER..];
    if fnv1a32(body) != u32_at(bytes, 20) {
        return Err(BookError::Corrupt("checksum mismatch".into()));
    }
    let mut entries = Vec::with_capacity(n);
    for i in 0..n {
        let o = i * ENTRY;
        let e = Entry {
            key: u64_at(body, o),
            mv: u16_at(body, o + 8),
            weight: u16_at(body, o + 10),
            score: u16_at(body, o + 12) as i16,
        };
        if let Some(prev) = entries.last() {
            let prev: &Entry = prev;
            if prev.key > e.key {
                return Err(BookError::Corrupt(format!("keys not sorted at entry {i}")));
            }
        }
        if Move::from_u16(e.mv).is_none() {
            return Err(BookError::Corrupt(format!("bad move at entry {i}")));
        }
        entries.push(e);
    }
    Ok(entries)
}

/// The environment variable that replaces the built-in book: a path to a book file, or `none`
/// (or an empty value) for no default book, for a match organiser or a test that wants another
/// or no book without sending any option.
pub const BOOK_ENV: &str = "JIANGJUN_BOOK";

/// The shipped book (`book/masters.jjb`: master games checked by the engine, with the
/// self-analysis book `book/analysis.jjb` merged in), compiled in: a binary copied anywhere, or
/// installed with `cargo install`, has its book without finding any file.
static BUILT_IN: &[u8] = include_bytes!("../../book/masters.jjb");

/// The name the built-in book goes by in messages.
pub const BUILT_IN_NAME: &str = "built-in";

/// The built-in book.
pub fn built_in() -> Result<Book, BookError> {
    Ok(Book {
        source: Source::Ours(decode(BUILT_IN)?),
        path: PathBuf::from(BUILT_IN_NAME),
    })
}

/// The default book: the built-in one, unless [`BOOK_ENV`] names another file or says `none`
/// (`Ok(None)`). A file that cannot be loaded is an error naming the variable, the path and
/// why, for the caller to show where its output allows (an `info string` in UCCI and UCI, a
/// `#` line in CECP, standard error on the command line).
pub fn load_default() -> Result<Option<Book>, String> {
    match std::env::var_os(BOOK_ENV) {
        Some(v) if v.is_empty() || v == "none" => Ok(None),
        Some(v) => Book::load(Path::new(&v))
            .map(Some)
            .map_err(|e| format!("{BOOK_ENV}: {}: {e}", Path::new(&v).display())),
        None => built_in()
            .map(Some)
            .map_err(|e| format!("{BUILT_IN_NAME} book: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A save that fails says it could not write, not that it could not read.
    #[test]
    fn a_failed_save_says_write() {
        let b = Book::from_entries(Vec::new());
        let dir =
            std::env::temp_dir().join(format!("jiangjun-no-such-folder-{}", std::process::id()));
        let e = b.save(&dir.join("book.jjb")).unwrap_err();
        assert!(e.to_string().starts_with("cannot write book: "), "{e}");
    }
    use rand::SeedableRng;

    fn sample() -> (Position, Book) {
        let pos = Position::startpos();
        let (key, mirrored) = canonical_key(&pos);
        let m = pos.parse_move("h2e2").unwrap();
        let m2 = pos.parse_move("b2e2").unwrap();
        let store = |m: Move| if mirrored { m.mirror_file() } else { m }.to_u16();
        let book = Book::from_entries(vec![
            Entry {
                key,
                mv: store(m),
                weight: 100,
                score: 20,
            },
            Entry {
                key,
                mv: store(m2),
                weight: 60,
                score: 15,
            },
        ]);
        (pos, book)
    }

    #[test]
    fn round_trip_and_probe() {
        let (pos, book) = sample();
        let bytes = encode(match &book.source {
            Source::Ours(e) => e,
            _ => unreachable!(),
        });
        let back = Book::from_entries(decode(&bytes).unwrap());
        let moves = back.probe(&pos);
        assert_eq!(moves.len(), 2);
        assert_eq!(moves[0].mv.to_string(), "h2e2");
        assert_eq!(back.positions(), 1);
    }

    #[test]
    fn mirrored_position_found() {
        let (_, book) = sample();
        // After h2e2 the mirror of "b2e2" is "h2e2": the start position is symmetric, so test a
        // lopsided one: store a move for a position and probe its mirror image.
        let mut pos = Position::startpos();
        pos.play("h0g2").unwrap();
        let (key, mirrored) = canonical_key(&pos);
        let reply = pos.parse_move("h9g7").unwrap();
        let stored = if mirrored { reply.mirror_file() } else { reply };
        let b = Book::from_entries(vec![Entry {
            key,
            mv: stored.to_u16(),
            weight: 5,
            score: 0,
        }]);
        let mut mirror = Position::startpos();
        mirror.play("b0c2").unwrap();
        let found = b.probe(&mirror);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].mv.to_string(), "b9c7");
        assert!(!book.is_empty());
    }

    #[test]
    fn corrupt_files_are_refused() {
        let (_, book) = sample();
        let bytes = encode(match &book.source {
            Source::Ours(e) => e,
            _ => unreachable!(),
        });
        assert!(matches!(
            decode(&bytes[..bytes.len() - 3]),
            Err(BookError::Truncated { .. })
        ));
        assert!(matches!(
            decode(&bytes[..10]),
            Err(BookError::Truncated { .. })
        ));
        let mut bad = bytes.clone();
        let last = bad.len() - 5;
        bad[last] ^= 0x40;
        assert!(matches!(decode(&bad), Err(BookError::Corrupt(_))));
        let mut v2 = bytes.clone();
        v2[7] = 9;
        assert_eq!(decode(&v2), Err(BookError::BadVersion(9)));
        let mut keys = bytes.clone();
        keys[8] ^= 1;
        assert_eq!(decode(&keys), Err(BookError::WrongKeys));
        // A wrong size is refused from the header alone.
        let head = &bytes[..HEADER];
        let n = bytes.len() as u64;
        assert_eq!(size_allowed(head, n), Ok(()));
        assert!(matches!(
            size_allowed(head, n - 1),
            Err(BookError::Truncated { .. })
        ));
        assert!(matches!(
            size_allowed(head, 1 << 30),
            Err(BookError::Corrupt(m)) if m.contains("longer than")
        ));
        assert_eq!(size_allowed(&[1, 2, 3], 800), Ok(()));
        assert!(size_allowed(&[1, 2, 3], 803).is_err());
        // Random garbage never panics.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for len in 0..200 {
            let junk: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            let _ = decode(&junk);
            let _ = eleeye::EleEyeBook::decode(&junk);
        }
    }

    #[test]
    fn the_built_in_book_loads_and_knows_the_start() {
        let b = built_in().expect("the built-in book decodes");
        assert!(b.positions() > 1000);
        assert!(!b.probe(&Position::startpos()).is_empty());
        assert_eq!(b.path, PathBuf::from(BUILT_IN_NAME));
    }

    #[test]
    fn randomness_none_is_deterministic() {
        let (pos, book) = sample();
        let moves = book.probe(&pos);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        for _ in 0..20 {
            assert_eq!(
                choose(&moves, Randomness::None, &mut rng)
                    .unwrap()
                    .mv
                    .to_string(),
                "h2e2"
            );
        }
        let picks: std::collections::HashSet<String> = (0..200)
            .map(|_| {
                choose(&moves, Randomness::Medium, &mut rng)
                    .unwrap()
                    .mv
                    .to_string()
            })
            .collect();
        assert_eq!(picks.len(), 2);
    }
}
