//! The quantized network the search runs, and its file format. Its scales and weight limits
//! are [`super::quant`]'s.
//!
//! # File format, all numbers little-endian
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `JJNN` |
//! | 4 | 4 | u32 version (1 or 2) |
//! | 8 | 36 | nine u32 architecture fields: feature set (1 = kind × point, two rotated perspectives; 2 = the same per king bucket), inputs (1260 × king buckets), hidden `H`, output buckets (4), king buckets (1 or 6), activation (1 = SCReLU), QA (255), QB (64), SCALE (400) |
//! | 44 | 2 · inputs · `H` | i16 first-layer weights, feature-major (feature `f`'s `H` weights together) |
//! | … | 2 · `H` | i16 first-layer biases |
//! | … | 2 · 4 · 2`H` | i16 output weights, bucket-major; in a bucket the side to move's `H` first |
//! | … | 4 · 4 | i32 output biases |
//! | end − 8 | 8 | u64 FNV-1a checksum of every byte before it |
//!
//! Version 1 is the first architecture only (feature set 1, `H` = 256), and a network of that
//! architecture is still written as version 1, so files made before version 2 load and round
//! trip byte for byte. Version 2 allows either feature set and any `H` that is a multiple of 32
//! up to [`MAX_HIDDEN`].
//!
//! [`Network::from_bytes`] checks, in this order: magic, version, every architecture field,
//! the exact length, the checksum, and the weight limits, and returns a [`NetworkError`] for the
//! first that fails; no sequence of bytes makes it panic.

use super::features::{FeatureSet, View, OUTPUT_BUCKETS};
use super::quant::{L1_LIMIT, L2_LIMIT, QA, QB, SCALE};
use super::simd::{self, Block, Isa, BLOCK_LEN};
use crate::board::Position;
use crate::checksum::fnv1a64;
use crate::eval::EVAL_LIMIT;
use std::fmt;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"JJNN";
/// The newest format version this build reads and writes (it reads every older one).
pub const VERSION: u32 = 2;
/// The version of a file of the first architecture.
pub const VERSION_1: u32 = 1;
/// Activation 1: SCReLU.
const ACTIVATION_SCRELU: u32 = 1;
/// Neurons per perspective in the first layer of the v1 architecture.
pub const HIDDEN: usize = 256;
/// The widest first layer a file may have: keeps the largest file (feature set 2) under
/// 16 MB, and what a search allocates per thread bounded.
pub const MAX_HIDDEN: usize = 1024;

/// The shape of a network: how it reads a position and how wide its first layer is. Everything
/// else (output buckets, activation, scales) is fixed in this build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    pub features: FeatureSet,
    /// Neurons per perspective in the first layer: a multiple of [`BLOCK_LEN`], at most
    /// [`MAX_HIDDEN`].
    hidden: usize,
}

impl Architecture {
    /// The first architecture (version 1 files): feature set 1, [`HIDDEN`] neurons.
    pub const V1: Architecture = Architecture {
        features: FeatureSet::Plain,
        hidden: HIDDEN,
    };

    /// An architecture, or why this build cannot run it.
    pub fn new(features: FeatureSet, hidden: usize) -> Result<Architecture, NetworkError> {
        if hidden == 0 || !hidden.is_multiple_of(BLOCK_LEN) || hidden > MAX_HIDDEN {
            return Err(NetworkError::Hidden(hidden.min(u32::MAX as usize) as u32));
        }
        Ok(Architecture { features, hidden })
    }

    /// Neurons per perspective in the first layer.
    pub const fn hidden(self) -> usize {
        self.hidden
    }

    /// [`Block`]s per accumulator (per perspective).
    pub const fn blocks(self) -> usize {
        self.hidden / BLOCK_LEN
    }

    /// Input features.
    pub const fn inputs(self) -> usize {
        self.features.inputs()
    }

    /// The format version a network of this architecture is written as.
    pub fn version(self) -> u32 {
        if self == Architecture::V1 {
            VERSION_1
        } else {
            VERSION
        }
    }

    /// The header's architecture fields, in file order.
    fn fields(self) -> [(&'static str, u32); 9] {
        [
            ("feature set", self.features.id()),
            ("inputs", self.inputs() as u32),
            ("hidden", self.hidden as u32),
            ("output buckets", OUTPUT_BUCKETS as u32),
            ("king buckets", self.features.king_buckets() as u32),
            ("activation", ACTIVATION_SCRELU),
            ("QA", QA as u32),
            ("QB", QB as u32),
            ("scale", SCALE as u32),
        ]
    }

    /// Bytes of a whole file of this architecture.
    pub const fn file_len(self) -> usize {
        HEADER_LEN
            + 2 * (self.inputs() * self.hidden + self.hidden + OUTPUT_BUCKETS * 2 * self.hidden)
            + 4 * OUTPUT_BUCKETS
            + 8
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "({}->{})x2->{}",
            self.inputs(),
            self.hidden,
            OUTPUT_BUCKETS
        )?;
        match self.features {
            FeatureSet::Plain => Ok(()),
            FeatureSet::KingBuckets => write!(f, " with king buckets"),
        }
    }
}

/// Bytes before the payload: magic, version, nine architecture fields.
pub const HEADER_LEN: usize = 8 + 4 * 9;
/// Bytes of a whole file of the first architecture (version 1).
pub const FILE_LEN: usize = Architecture::V1.file_len();
/// Bytes of the largest file this build reads (feature set 2, [`MAX_HIDDEN`] neurons): what a
/// reader of untrusted files may allow.
pub const MAX_FILE_LEN: usize = Architecture {
    features: FeatureSet::KingBuckets,
    hidden: MAX_HIDDEN,
}
.file_len();
// The project keeps a shipped network at most 16 MB.
const _: () = assert!(MAX_FILE_LEN <= 16_000_000);

/// Why bytes are not a network this build can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// Fewer bytes than the header needs to be read this far.
    TooShort { len: usize, needed: usize },
    /// The first four bytes are not `JJNN`: not a Jiangjun network file.
    BadMagic([u8; 4]),
    /// A format version this build does not read.
    UnsupportedVersion(u32),
    /// A feature set this build does not know.
    UnknownFeatureSet(u32),
    /// A first-layer width this build cannot run (not a multiple of 32, or above
    /// [`MAX_HIDDEN`]).
    Hidden(u32),
    /// A network of another architecture.
    Architecture {
        field: &'static str,
        expected: u32,
        found: u32,
    },
    /// The file is not exactly as long as its header says (truncated, or bytes appended).
    Size { expected: usize, found: usize },
    /// The stored checksum does not match the contents: the file is corrupt.
    Checksum { stored: u64, computed: u64 },
    /// A weight beyond the limits the integer inference relies on.
    OutOfRange {
        what: &'static str,
        index: usize,
        value: i16,
    },
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::TooShort { len, needed } => {
                write!(
                    f,
                    "network file too short: {len} bytes, the header needs {needed}"
                )
            }
            NetworkError::BadMagic(m) => {
                write!(
                    f,
                    "not a Jiangjun network file (starts with {m:02x?}, not JJNN)"
                )
            }
            NetworkError::UnsupportedVersion(v) => {
                write!(
                    f,
                    "network format version {v}; this build reads versions 1 to {VERSION}"
                )
            }
            NetworkError::UnknownFeatureSet(id) => write!(
                f,
                "network feature set {id}; this build knows 1 (pieces) and 2 (pieces by king bucket)"
            ),
            NetworkError::Hidden(h) => write!(
                f,
                "network first layer of {h} neurons; this build runs multiples of {BLOCK_LEN} up to {MAX_HIDDEN}"
            ),
            NetworkError::Architecture {
                field,
                expected,
                found,
            } => write!(
                f,
                "network architecture differs: {field} is {found}, this build needs {expected}"
            ),
            NetworkError::Size { expected, found } => write!(
                f,
                "network file has {found} bytes, its header needs exactly {expected} ({})",
                if found < expected {
                    "truncated?"
                } else {
                    "bytes appended?"
                }
            ),
            NetworkError::Checksum { stored, computed } => write!(
                f,
                "network file corrupt: checksum {computed:016x}, the file says {stored:016x}"
            ),
            NetworkError::OutOfRange { what, index, value } => {
                write!(
                    f,
                    "network {what} {index} is {value}, outside the supported range"
                )
            }
        }
    }
}

impl std::error::Error for NetworkError {}

/// The quantized network (scales and limits in the module documentation).
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    arch: Architecture,
    /// `inputs × blocks`: feature `f`'s row is blocks `f · blocks..(f + 1) · blocks`.
    pub(super) l1_weights: Vec<Block>,
    pub(super) l1_bias: Vec<Block>,
    /// `OUTPUT_BUCKETS × 2 · blocks`: per bucket the side to move's half, then the other side's.
    pub(super) l2_weights: Vec<Block>,
    pub(super) l2_bias: [i32; OUTPUT_BUCKETS],
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network{}, checksum {:016x}",
            self.arch,
            fnv1a64(&self.to_bytes())
        )
    }
}

impl Network {
    /// A network of the first architecture with every weight zero (evaluates everything as 0).
    pub fn zeros() -> Network {
        Network::zeros_for(Architecture::V1)
    }

    /// A network of `arch` with every weight zero.
    pub fn zeros_for(arch: Architecture) -> Network {
        let blocks = arch.blocks();
        Network {
            arch,
            l1_weights: vec![Block::ZERO; arch.inputs() * blocks],
            l1_bias: vec![Block::ZERO; blocks],
            l2_weights: vec![Block::ZERO; OUTPUT_BUCKETS * 2 * blocks],
            l2_bias: [0; OUTPUT_BUCKETS],
        }
    }

    /// The network's shape.
    pub fn architecture(&self) -> Architecture {
        self.arch
    }

    /// The first-layer row of `feature` (below the architecture's inputs; feature indices come
    /// from [`View::feature`], which is always in range).
    #[inline(always)]
    pub(super) fn row(&self, feature: usize) -> &[Block] {
        let b = self.arch.blocks();
        &self.l1_weights[feature * b..(feature + 1) * b]
    }

    /// Mutable first-layer row of `feature` (quantization and tests).
    pub(super) fn row_mut(&mut self, feature: usize) -> &mut [Block] {
        let b = self.arch.blocks();
        &mut self.l1_weights[feature * b..(feature + 1) * b]
    }

    /// Centipawns from the side to move, given its accumulator `us` and the other side's;
    /// within ±[`EVAL_LIMIT`] like the hand-written evaluation, far from mate scores.
    #[inline]
    pub fn output(&self, isa: Isa, us: &[Block], them: &[Block], bucket: usize) -> i32 {
        let b = bucket.min(OUTPUT_BUCKETS - 1);
        let width = 2 * self.arch.blocks();
        let w = &self.l2_weights[b * width..(b + 1) * width];
        let sum = simd::screlu_dot(isa, us, them, w);
        let out = sum / i64::from(QA) + i64::from(self.l2_bias[b]);
        let cp = out * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// `perspective`'s view of `pos` in this network's feature set.
    #[inline]
    pub(super) fn view(&self, pos: &Position, perspective: crate::board::Color) -> View {
        View::of(self.arch.features, pos, perspective)
    }

    /// The file bytes (format in the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.arch.file_len());
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&self.arch.version().to_le_bytes());
        for (_, value) in self.arch.fields() {
            out.extend_from_slice(&value.to_le_bytes());
        }
        let i16s = self
            .l1_weights
            .iter()
            .chain(&self.l1_bias)
            .chain(&self.l2_weights)
            .flat_map(|b| b.0);
        for w in i16s {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for b in self.l2_bias {
            out.extend_from_slice(&b.to_le_bytes());
        }
        let sum = fnv1a64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network file of any version this build knows; a typed error for anything that
    /// is not exactly a valid file. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut r = Reader { bytes, at: 0 };
        let magic = r.take::<4>()?;
        if magic != MAGIC {
            return Err(NetworkError::BadMagic(magic));
        }
        let version = u32::from_le_bytes(r.take()?);
        let mut found = [0u32; 9];
        for f in found.iter_mut() {
            *f = u32::from_le_bytes(r.take()?);
        }
        let arch = match version {
            VERSION_1 => Architecture::V1,
            VERSION => {
                let features = FeatureSet::from_id(found[0])
                    .ok_or(NetworkError::UnknownFeatureSet(found[0]))?;
                Architecture::new(features, found[2] as usize)?
            }
            v => return Err(NetworkError::UnsupportedVersion(v)),
        };
        for ((field, expected), found) in arch.fields().into_iter().zip(found) {
            if found != expected {
                return Err(NetworkError::Architecture {
                    field,
                    expected,
                    found,
                });
            }
        }
        let file_len = arch.file_len();
        if bytes.len() != file_len {
            return Err(NetworkError::Size {
                expected: file_len,
                found: bytes.len(),
            });
        }
        let (body, tail) = bytes.split_at(file_len - 8);
        let stored = u64::from_le_bytes(tail.try_into().unwrap_or([0; 8]));
        let computed = fnv1a64(body);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let mut net = Network::zeros_for(arch);
        let mut index = 0;
        for block in net.l1_weights.iter_mut() {
            r.fill(&mut block.0, "first-layer weight", &mut index, L1_LIMIT)?;
        }
        let mut index = 0;
        for block in net.l1_bias.iter_mut() {
            r.fill(&mut block.0, "first-layer bias", &mut index, L1_LIMIT)?;
        }
        let mut index = 0;
        for block in net.l2_weights.iter_mut() {
            r.fill(&mut block.0, "output weight", &mut index, L2_LIMIT)?;
        }
        for b in net.l2_bias.iter_mut() {
            *b = i32::from_le_bytes(r.take()?);
        }
        Ok(net)
    }
}

/// Reads little-endian values from the front of a byte slice.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], NetworkError> {
        let end = self.at + N;
        let too_short = NetworkError::TooShort {
            len: self.bytes.len(),
            needed: end.max(HEADER_LEN),
        };
        let chunk = self.bytes.get(self.at..end).ok_or(too_short.clone())?;
        self.at = end;
        chunk.try_into().map_err(|_| too_short)
    }

    /// Reads `out.len()` i16s, each within `±limit`; `index` counts across calls for messages.
    fn fill(
        &mut self,
        out: &mut [i16],
        what: &'static str,
        index: &mut usize,
        limit: i16,
    ) -> Result<(), NetworkError> {
        for w in out.iter_mut() {
            let value = i16::from_le_bytes(self.take()?);
            if !(-limit..=limit).contains(&value) {
                return Err(NetworkError::OutOfRange {
                    what,
                    index: *index,
                    value,
                });
            }
            *w = value;
            *index += 1;
        }
        Ok(())
    }
}
