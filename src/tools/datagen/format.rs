//! The training-data file format: fixed 32-byte position records in self-describing chunks,
//! one chunk per game.
//!
//! # Layout (version 1, all integers little-endian)
//!
//! A file is a sequence of chunks and nothing else, so `cat a b > c` of two valid files is a
//! valid file (that is how shards are merged). A chunk is a 32-byte header and `count` records:
//!
//! | bytes  | chunk header field                                                         |
//! | ------ | -------------------------------------------------------------------------- |
//! | 0..8   | magic `JJDATA\0\0`                                                         |
//! | 8..10  | version, `1`                                                               |
//! | 10..12 | record size in bytes, `32`                                                 |
//! | 12..16 | `count`: records in this chunk (at most [`MAX_CHUNK_RECORDS`])             |
//! | 16..24 | the run's seed                                                             |
//! | 24..28 | the game's index in the run (0-based, the same in every shard)            |
//! | 28..32 | FNV-1a 32 checksum of header bytes 0..28 followed by the `count * 32` record bytes |
//!
//! | bytes  | record field                                                               |
//! | ------ | -------------------------------------------------------------------------- |
//! | 0..12  | occupancy: bit `i` set when square `i` (`rank * 9 + file`) holds a piece; bits 90..95 zero |
//! | 12..28 | piece codes, 4 bits each, in occupancy order (lowest square first): piece `k` is the low nibble of byte `12 + k/2` for even `k`, the high nibble for odd `k`; code = colour × 7 + kind (Red 0, Black 1; king 0, advisor 1, elephant 2, horse 3, rook 4, cannon 5, pawn 6); unused nibbles zero |
//! | 28     | bit 0: side to move (0 Red, 1 Black); bits 1..2: game result **from the side to move** (0 loss, 1 draw, 2 win); bits 3..7 zero |
//! | 29     | plies since the last capture (the natural-limit counter), saturated at 255 |
//! | 30..32 | search score in centipawns **from the side to move** (`i16`)              |
//!
//! For self-play the seed made the games and the index is the game's number in the run. For
//! recorded games (`datagen --from-games`, [`super::games`]) the seed is the run's `--seed`,
//! which only names the run (nothing is random), and the index is the game's running number
//! over all game entries of the input files sorted by path, unreadable ones included. In both
//! cases the pair names the game, and the trainer's held-out split is a hash of it.
//!
//! A readable FEN is one call away ([`Record::position`], then `to_fen`). Readers reject a
//! wrong magic, version or record size, a checksum mismatch, a record whose fields break
//! the layout (more than 32 pieces, a code above 13, non-zero reserved bits) and a file that
//! ends inside a chunk, each with a [`DataError`] naming the file and byte offset.

pub use crate::board::Wdl;
use crate::board::{Color, Piece, PieceKind, PlacementError, Position, Square};
use crate::checksum::{fnv1a32, fnv1a32_from};
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// First bytes of every chunk.
pub const MAGIC: [u8; 8] = *b"JJDATA\0\0";
/// Format version written and accepted.
pub const VERSION: u16 = 1;
/// Bytes per record.
pub const RECORD_BYTES: usize = 32;
/// Bytes per chunk header.
pub const HEADER_BYTES: usize = 32;
/// Most records in one chunk; a header claiming more is refused before anything is
/// allocated (a game longer than this is not kept whole by the generator either).
pub const MAX_CHUNK_RECORDS: u32 = 1 << 16;

/// Bits 1..2 of byte 28: the on-disk code of a result from the side to move.
fn result_bits(result: Wdl) -> u8 {
    match result {
        Wdl::Loss => 0,
        Wdl::Draw => 1,
        Wdl::Win => 2,
    }
}

/// The result a record's bits 1..2 encode; `None` for 3.
fn result_from_bits(b: u8) -> Option<Wdl> {
    match b {
        0 => Some(Wdl::Loss),
        1 => Some(Wdl::Draw),
        2 => Some(Wdl::Win),
        _ => None,
    }
}

/// One labelled position. Always satisfies the layout's rules (constructors check), so its
/// accessors cannot fail; whether the placement is a legal xiangqi position is checked by
/// [`Record::position`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Record {
    occupancy: u128,
    codes: [u8; 16],
    side: Color,
    result: Wdl,
    halfmove: u8,
    score: i16,
}

/// Why 32 bytes are not a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// Occupancy bits 90..95 set.
    OffBoard,
    /// More than 32 pieces.
    TooManyPieces(u32),
    /// A piece code above 13 (piece number `index` in occupancy order).
    BadPieceCode { index: usize, code: u8 },
    /// Nibbles past the last piece, or reserved flag bits, not zero.
    ReservedBits,
    /// Result bits 3 (not loss, draw or win).
    BadResult,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::OffBoard => write!(f, "occupancy bits beyond square 89"),
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces (at most 32)"),
            RecordError::BadPieceCode { index, code } => {
                write!(f, "piece {index} has code {code} (at most 13)")
            }
            RecordError::ReservedBits => write!(f, "reserved bits set"),
            RecordError::BadResult => write!(f, "result bits are not loss, draw or win"),
        }
    }
}

impl std::error::Error for RecordError {}

fn piece_from_code(code: u8) -> Option<Piece> {
    let color = *Color::ALL.get(usize::from(code) / 7)?;
    let kind = PieceKind::ALL[usize::from(code) % 7];
    Some(Piece::new(color, kind))
}

impl Record {
    /// Labels `pos` (its side to move, pieces and natural-limit counter) with a search score
    /// and a result, both from the side to move. Scores beyond `i16` are clamped.
    pub fn new(pos: &Position, score: i32, result: Wdl) -> Record {
        let occupancy = pos.occupied().0;
        let mut codes = [0u8; 16];
        for (k, sq) in pos.occupied().enumerate() {
            // A legal position has at most 32 pieces, so `k / 2 < 16`.
            let code = pos.piece_at(sq).map_or(0, |p| p.index() as u8);
            codes[k / 2] |= code << (4 * (k % 2));
        }
        Record {
            occupancy,
            codes,
            side: pos.side_to_move(),
            result,
            halfmove: pos.halfmove_clock().min(255) as u8,
            score: score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Search score in centipawns from the side to move.
    pub fn score(&self) -> i16 {
        self.score
    }

    /// Game result from the side to move.
    pub fn result(&self) -> Wdl {
        self.result
    }

    /// Game result from Red's side.
    pub fn result_for_red(&self) -> Wdl {
        match self.side {
            Color::Red => self.result,
            Color::Black => self.result.flip(),
        }
    }

    /// Plies since the last capture, saturated at 255.
    pub fn halfmove_clock(&self) -> u8 {
        self.halfmove
    }

    /// Sets the result (the generator learns it when the game ends).
    pub fn set_result(&mut self, result: Wdl) {
        self.result = result;
    }

    /// Number of pieces on the board.
    pub fn piece_count(&self) -> u32 {
        self.occupancy.count_ones()
    }

    /// The pieces, lowest square first; allocation-free, for feature extraction.
    pub fn pieces(&self) -> impl Iterator<Item = (Piece, Square)> + '_ {
        crate::board::Bitboard(self.occupancy)
            .enumerate()
            .filter_map(|(k, sq)| {
                let code = (self.codes[k / 2] >> (4 * (k % 2))) & 0xf;
                piece_from_code(code).map(|p| (p, sq))
            })
    }

    /// The position (with the halfmove counter, move number 1), or why the placement is not
    /// a legal xiangqi position (a file from elsewhere may hold anything the layout allows).
    pub fn position(&self) -> Result<Position, PlacementError> {
        let mut board = [None; crate::board::square::SQUARES];
        for (p, sq) in self.pieces() {
            board[sq.index()] = Some(p);
        }
        Position::from_placement(board, self.side, u32::from(self.halfmove), 1)
    }

    /// The 32-byte encoding.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..12].copy_from_slice(&self.occupancy.to_le_bytes()[..12]);
        b[12..28].copy_from_slice(&self.codes);
        b[28] = (self.side as u8) | (result_bits(self.result) << 1);
        b[29] = self.halfmove;
        b[30..32].copy_from_slice(&self.score.to_le_bytes());
        b
    }

    /// Decodes 32 bytes, checking every rule of the layout.
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> Result<Record, RecordError> {
        let mut occ = [0u8; 16];
        occ[..12].copy_from_slice(&b[..12]);
        let occupancy = u128::from_le_bytes(occ);
        if occupancy >> crate::board::square::SQUARES != 0 {
            return Err(RecordError::OffBoard);
        }
        let n = occupancy.count_ones();
        if n > 32 {
            return Err(RecordError::TooManyPieces(n));
        }
        let mut codes = [0u8; 16];
        codes.copy_from_slice(&b[12..28]);
        for k in 0..32 {
            let code = (codes[k / 2] >> (4 * (k % 2))) & 0xf;
            if k < n as usize {
                if code > 13 {
                    return Err(RecordError::BadPieceCode { index: k, code });
                }
            } else if code != 0 {
                return Err(RecordError::ReservedBits);
            }
        }
        if b[28] >> 3 != 0 {
            return Err(RecordError::ReservedBits);
        }
        let side = if b[28] & 1 == 0 {
            Color::Red
        } else {
            Color::Black
        };
        let result = result_from_bits((b[28] >> 1) & 3).ok_or(RecordError::BadResult)?;
        Ok(Record {
            occupancy,
            codes,
            side,
            result,
            halfmove: b[29],
            score: i16::from_le_bytes([b[30], b[31]]),
        })
    }
}

/// Writes chunks through a buffer.
pub struct RecordWriter<W: Write> {
    out: BufWriter<W>,
    scratch: Vec<u8>,
}

impl RecordWriter<File> {
    /// Creates (truncates) `path`.
    pub fn create(path: &Path) -> io::Result<RecordWriter<File>> {
        Ok(RecordWriter::new(File::create(path)?))
    }
}

impl<W: Write> RecordWriter<W> {
    pub fn new(out: W) -> RecordWriter<W> {
        RecordWriter {
            out: BufWriter::with_capacity(1 << 16, out),
            scratch: Vec::new(),
        }
    }

    /// Writes one game's chunk. More than [`MAX_CHUNK_RECORDS`] records are refused.
    pub fn write_game(&mut self, seed: u64, game: u32, records: &[Record]) -> io::Result<()> {
        let count = u32::try_from(records.len())
            .ok()
            .filter(|&n| n <= MAX_CHUNK_RECORDS)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "chunk too large"))?;
        self.scratch.clear();
        for r in records {
            self.scratch.extend_from_slice(&r.to_bytes());
        }
        let mut h = [0u8; HEADER_BYTES];
        h[..8].copy_from_slice(&MAGIC);
        h[8..10].copy_from_slice(&VERSION.to_le_bytes());
        h[10..12].copy_from_slice(&(RECORD_BYTES as u16).to_le_bytes());
        h[12..16].copy_from_slice(&count.to_le_bytes());
        h[16..24].copy_from_slice(&seed.to_le_bytes());
        h[24..28].copy_from_slice(&game.to_le_bytes());
        let sum = fnv1a32_from(fnv1a32(&h[..28]), &self.scratch);
        h[28..32].copy_from_slice(&sum.to_le_bytes());
        self.out.write_all(&h)?;
        self.out.write_all(&self.scratch)
    }

    /// Flushes and returns the inner writer.
    pub fn finish(self) -> io::Result<W> {
        self.out.into_inner().map_err(|e| e.into_error())
    }
}

/// Why a data file cannot be read further. Each names the source and the byte offset of
/// the chunk at fault.
#[derive(Debug)]
pub enum DataError {
    Io {
        source: String,
        error: io::Error,
    },
    /// Not a chunk header: a foreign file, or garbage.
    BadMagic {
        source: String,
        offset: u64,
    },
    /// A newer or older format.
    Version {
        source: String,
        offset: u64,
        found: u16,
    },
    RecordSize {
        source: String,
        offset: u64,
        found: u16,
    },
    TooManyRecords {
        source: String,
        offset: u64,
        count: u32,
    },
    /// The file ends inside a chunk (an interrupted run, or a cut copy).
    Truncated {
        source: String,
        offset: u64,
    },
    Checksum {
        source: String,
        offset: u64,
    },
    Record {
        source: String,
        offset: u64,
        error: RecordError,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io { source, error } => write!(f, "{source}: {error}"),
            DataError::BadMagic { source, offset } => {
                write!(f, "{source}: byte {offset}: not a jiangjun data chunk")
            }
            DataError::Version {
                source,
                offset,
                found,
            } => write!(
                f,
                "{source}: byte {offset}: format version {found} (this build reads {VERSION})"
            ),
            DataError::RecordSize {
                source,
                offset,
                found,
            } => write!(
                f,
                "{source}: byte {offset}: record size {found} (expected {RECORD_BYTES})"
            ),
            DataError::TooManyRecords {
                source,
                offset,
                count,
            } => write!(
                f,
                "{source}: byte {offset}: chunk claims {count} records (at most {MAX_CHUNK_RECORDS})"
            ),
            DataError::Truncated { source, offset } => {
                write!(f, "{source}: byte {offset}: file ends inside a chunk")
            }
            DataError::Checksum { source, offset } => {
                write!(f, "{source}: byte {offset}: chunk checksum mismatch")
            }
            DataError::Record {
                source,
                offset,
                error,
            } => write!(f, "{source}: byte {offset}: bad record: {error}"),
        }
    }
}

impl std::error::Error for DataError {}

/// One game's chunk as read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chunk {
    pub seed: u64,
    pub game: u32,
    pub records: Vec<Record>,
}

/// Where the bytes come from: files opened one after another, or one stream.
enum Sources {
    Files(std::vec::IntoIter<PathBuf>),
    Stream(Option<(String, Box<dyn Read + Send>)>),
}

/// Reads chunks from one or several files (or one stream) in order. After the first error
/// it yields nothing more.
pub struct ChunkReader {
    sources: Sources,
    current: Option<(String, Box<dyn Read + Send>)>,
    offset: u64,
    failed: bool,
    bytes: Vec<u8>,
}

/// Reads up to `buf.len()` bytes; fewer only at the end of the stream.
fn read_full(r: &mut dyn Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

impl ChunkReader {
    /// Reads `paths` one after another (each opened when reached).
    pub fn open<P: AsRef<Path>>(paths: &[P]) -> ChunkReader {
        let files: Vec<PathBuf> = paths.iter().map(|p| p.as_ref().to_path_buf()).collect();
        ChunkReader::with(Sources::Files(files.into_iter()))
    }

    /// Reads one stream; `name` is used in error messages.
    pub fn from_reader(name: &str, r: impl Read + Send + 'static) -> ChunkReader {
        ChunkReader::with(Sources::Stream(Some((name.to_string(), Box::new(r)))))
    }

    fn with(sources: Sources) -> ChunkReader {
        ChunkReader {
            sources,
            current: None,
            offset: 0,
            failed: false,
            bytes: Vec::new(),
        }
    }

    /// The next source, opened; `None` when all are read.
    fn advance(&mut self) -> Option<Result<(), DataError>> {
        let next = match &mut self.sources {
            Sources::Stream(s) => s.take().map(Ok),
            Sources::Files(it) => it.next().map(|p| {
                let name = p.display().to_string();
                crate::input::open_regular(&p, u64::MAX)
                    .map_err(io::Error::from)
                    .map(|(f, _)| {
                        (
                            name.clone(),
                            Box::new(BufReader::new(f)) as Box<dyn Read + Send>,
                        )
                    })
                    .map_err(|error| DataError::Io {
                        source: name,
                        error,
                    })
            }),
        }?;
        self.offset = 0;
        Some(next.map(|s| self.current = Some(s)))
    }

    /// Reads the next chunk's records into `out` (cleared first); returns its seed and game
    /// index, `None` at the end of the last source.
    pub fn read_into(&mut self, out: &mut Vec<Record>) -> Option<Result<(u64, u32), DataError>> {
        out.clear();
        if self.failed {
            return None;
        }
        let r = self.read_inner(out);
        if matches!(r, Some(Err(_))) {
            self.failed = true;
        }
        r
    }

    fn read_inner(&mut self, out: &mut Vec<Record>) -> Option<Result<(u64, u32), DataError>> {
        loop {
            if self.current.is_none() {
                if let Err(e) = self.advance()? {
                    return Some(Err(e));
                }
            }
            let (name, reader) = self.current.as_mut()?;
            let at = self.offset;
            let mut h = [0u8; HEADER_BYTES];
            let got = match read_full(reader, &mut h) {
                Ok(n) => n,
                Err(error) => {
                    return Some(Err(DataError::Io {
                        source: name.clone(),
                        error,
                    }))
                }
            };
            if got == 0 {
                // Clean end of this source: on to the next.
                self.current = None;
                continue;
            }
            let source = name.clone();
            if got < HEADER_BYTES {
                return Some(Err(if h[..got.min(8)] == MAGIC[..got.min(8)] {
                    DataError::Truncated { source, offset: at }
                } else {
                    DataError::BadMagic { source, offset: at }
                }));
            }
            if h[..8] != MAGIC {
                return Some(Err(DataError::BadMagic { source, offset: at }));
            }
            let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
            let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
            let version = u16_at(8);
            if version != VERSION {
                return Some(Err(DataError::Version {
                    source,
                    offset: at,
                    found: version,
                }));
            }
            let size = u16_at(10);
            if usize::from(size) != RECORD_BYTES {
                return Some(Err(DataError::RecordSize {
                    source,
                    offset: at,
                    found: size,
                }));
            }
            let count = u32_at(12);
            if count > MAX_CHUNK_RECORDS {
                return Some(Err(DataError::TooManyRecords {
                    source,
                    offset: at,
                    count,
                }));
            }
            let mut seed = [0u8; 8];
            seed.copy_from_slice(&h[16..24]);
            let seed = u64::from_le_bytes(seed);
            let game = u32_at(24);
            let sum = u32_at(28);
            let len = count as usize * RECORD_BYTES;
            self.bytes.resize(len, 0);
            match read_full(reader, &mut self.bytes) {
                Ok(n) if n == len => {}
                Ok(_) => return Some(Err(DataError::Truncated { source, offset: at })),
                Err(error) => return Some(Err(DataError::Io { source, error })),
            }
            self.offset += (HEADER_BYTES + len) as u64;
            if fnv1a32_from(fnv1a32(&h[..28]), &self.bytes) != sum {
                return Some(Err(DataError::Checksum { source, offset: at }));
            }
            out.reserve(count as usize);
            for (i, b) in self.bytes.chunks_exact(RECORD_BYTES).enumerate() {
                let mut a = [0u8; RECORD_BYTES];
                a.copy_from_slice(b);
                match Record::from_bytes(&a) {
                    Ok(r) => out.push(r),
                    Err(error) => {
                        return Some(Err(DataError::Record {
                            source,
                            offset: at + (HEADER_BYTES + i * RECORD_BYTES) as u64,
                            error,
                        }))
                    }
                }
            }
            return Some(Ok((seed, game)));
        }
    }
}

impl Iterator for ChunkReader {
    type Item = Result<Chunk, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut records = Vec::new();
        Some(self.read_into(&mut records)?.map(|(seed, game)| Chunk {
            seed,
            game,
            records,
        }))
    }
}

/// Iterates the records of one or several files (or one stream), chunk by chunk, reusing
/// one buffer: what a trainer streams.
pub struct RecordReader {
    chunks: ChunkReader,
    buf: Vec<Record>,
    next: usize,
}

impl RecordReader {
    /// Reads `paths` one after another.
    pub fn open<P: AsRef<Path>>(paths: &[P]) -> RecordReader {
        RecordReader::from_chunks(ChunkReader::open(paths))
    }

    /// Reads one stream; `name` is used in error messages.
    pub fn from_reader(name: &str, r: impl Read + Send + 'static) -> RecordReader {
        RecordReader::from_chunks(ChunkReader::from_reader(name, r))
    }

    fn from_chunks(chunks: ChunkReader) -> RecordReader {
        RecordReader {
            chunks,
            buf: Vec::new(),
            next: 0,
        }
    }
}

impl Iterator for RecordReader {
    type Item = Result<Record, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.next >= self.buf.len() {
            self.next = 0;
            if let Err(e) = self.chunks.read_into(&mut self.buf)? {
                return Some(Err(e));
            }
        }
        self.next += 1;
        Some(Ok(self.buf[self.next - 1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Positions from random games, labelled with made-up scores and results.
    fn sample_records(n: usize, seed: u64) -> Vec<Record> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut pos = Position::startpos();
        while out.len() < n {
            let moves = pos.legal_moves();
            if moves.is_empty() || pos.history().len() > 150 {
                pos = Position::startpos();
                continue;
            }
            let m = moves[rng.random_range(0..moves.len())];
            pos.make_move(m);
            let result = [Wdl::Loss, Wdl::Draw, Wdl::Win][rng.random_range(0..3)];
            out.push(Record::new(&pos, rng.random_range(-40_000..40_000), result));
        }
        out
    }

    fn file_bytes(chunks: &[(u64, u32, Vec<Record>)]) -> Vec<u8> {
        let mut w = RecordWriter::new(Vec::new());
        for (seed, game, records) in chunks {
            w.write_game(*seed, *game, records).unwrap();
        }
        w.finish().unwrap()
    }

    fn read_all(bytes: Vec<u8>) -> Result<Vec<Record>, DataError> {
        RecordReader::from_reader("test", io::Cursor::new(bytes)).collect()
    }

    #[test]
    fn records_round_trip_through_bytes_and_positions() {
        for r in sample_records(2000, 1) {
            let back = Record::from_bytes(&r.to_bytes()).unwrap();
            assert_eq!(back, r);
            let pos = back.position().expect("a position from a real game");
            assert_eq!(Record::new(&pos, r.score().into(), r.result()), r);
            let pieces: Vec<_> = r.pieces().collect();
            assert_eq!(pieces.len() as u32, r.piece_count());
            for (p, sq) in pieces {
                assert_eq!(pos.piece_at(sq), Some(p));
            }
        }
        let start = Record::new(&Position::startpos(), 12, Wdl::Win);
        assert_eq!(start.piece_count(), 32);
        assert_eq!(start.side_to_move(), Color::Red);
        assert_eq!(start.result_for_red(), Wdl::Win);
        assert_eq!(
            start.position().unwrap().to_fen(),
            Position::startpos().to_fen()
        );
        // Scores outside i16 are clamped, not wrapped.
        assert_eq!(
            Record::new(&Position::startpos(), 90_000, Wdl::Draw).score(),
            i16::MAX
        );
    }

    #[test]
    fn files_round_trip_and_concatenate() {
        let recs = sample_records(300, 2);
        let a = file_bytes(&[(7, 0, recs[..100].to_vec()), (7, 2, Vec::new())]);
        let b = file_bytes(&[(7, 1, recs[100..].to_vec())]);
        assert_eq!(read_all(a.clone()).unwrap(), recs[..100].to_vec());
        let mut cat = a.clone();
        cat.extend_from_slice(&b);
        assert_eq!(read_all(cat.clone()).unwrap(), recs);
        let chunks: Vec<Chunk> = ChunkReader::from_reader("cat", io::Cursor::new(cat))
            .collect::<Result<_, _>>()
            .unwrap();
        let games: Vec<u32> = chunks.iter().map(|c| c.game).collect();
        assert_eq!(games, [0, 2, 1]);
        assert!(chunks.iter().all(|c| c.seed == 7));
        // Several files, one after another.
        let dir = std::env::temp_dir();
        let pa = dir.join(format!("jj-format-{}-a.bin", std::process::id()));
        let pb = dir.join(format!("jj-format-{}-b.bin", std::process::id()));
        std::fs::write(&pa, &a).unwrap();
        std::fs::write(&pb, &b).unwrap();
        let back: Vec<Record> = RecordReader::open(&[&pa, &pb])
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, recs);
        let missing = RecordReader::open(&[dir.join("jj-no-such-file.bin")]).next();
        assert!(matches!(missing, Some(Err(DataError::Io { .. }))));
        let _ = std::fs::remove_file(pa);
        let _ = std::fs::remove_file(pb);
    }

    #[test]
    fn truncated_files_are_errors_at_every_length() {
        let recs = sample_records(10, 3);
        let bytes = file_bytes(&[(1, 0, recs[..4].to_vec()), (1, 1, recs[4..].to_vec())]);
        let boundaries = [0, HEADER_BYTES + 4 * RECORD_BYTES, bytes.len()];
        for cut in 0..=bytes.len() {
            let r = read_all(bytes[..cut].to_vec());
            if boundaries.contains(&cut) {
                assert!(r.is_ok(), "cut at {cut}");
            } else {
                let e = r.expect_err("a cut inside a chunk is an error");
                assert!(matches!(e, DataError::Truncated { .. }), "cut {cut}: {e}");
            }
        }
    }

    #[test]
    fn garbage_and_foreign_files_are_refused() {
        let recs = sample_records(5, 4);
        let good = file_bytes(&[(1, 0, recs)]);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        // Random bytes: refused, never a panic.
        for len in [1, 31, 32, 100, 5000] {
            let junk: Vec<u8> = (0..len).map(|_| rng.random()).collect();
            assert!(read_all(junk).is_err());
        }
        // A valid header with random content behind it.
        for _ in 0..200 {
            let mut b = good.clone();
            let i = rng.random_range(0..b.len());
            b[i] ^= 1 << rng.random_range(0..8);
            assert!(read_all(b).is_err(), "a flipped bit is noticed");
        }
        let text = b"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w\n".to_vec();
        assert!(matches!(
            read_all(text),
            Err(DataError::BadMagic { offset: 0, .. })
        ));
        let mut v2 = good.clone();
        v2[8] = 2;
        assert!(matches!(
            read_all(v2),
            Err(DataError::Version { found: 2, .. })
        ));
        let mut huge = good.clone();
        huge[12..16].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            read_all(huge),
            Err(DataError::TooManyRecords { .. })
        ));
        // A record breaking the layout, with a matching checksum.
        let mut bad = good.clone();
        bad[HEADER_BYTES + 28] |= 0x80;
        let sum = fnv1a32_from(fnv1a32(&bad[..28]), &bad[HEADER_BYTES..]);
        bad[28..32].copy_from_slice(&sum.to_le_bytes());
        assert!(matches!(
            read_all(bad),
            Err(DataError::Record {
                error: RecordError::ReservedBits,
                ..
            })
        ));
    }

    #[test]
    fn record_decoding_checks_the_layout() {
        let r = Record::new(&Position::startpos(), 0, Wdl::Draw).to_bytes();
        let mut off = r;
        off[11] |= 0x04; // bit 90
        assert_eq!(Record::from_bytes(&off), Err(RecordError::OffBoard));
        let mut code = r;
        code[12] |= 0x0f; // first piece: code 15
        assert!(matches!(
            Record::from_bytes(&code),
            Err(RecordError::BadPieceCode { index: 0, .. })
        ));
        let mut wdl = r;
        wdl[28] |= 0b110;
        assert_eq!(Record::from_bytes(&wdl), Err(RecordError::BadResult));
        // A layout-valid record whose placement is not a position.
        let mut no_king = [0u8; RECORD_BYTES];
        no_king[0] = 1;
        let rec = Record::from_bytes(&no_king).unwrap();
        assert!(rec.position().is_err());
    }
}
