//! The quantized network the search runs, and its file format.
//!
//! # Quantization
//! * First layer (weights and biases): `round(w · QA)` as i16, `QA = 255`, so an accumulator
//!   value of `QA` is the float 1.0 where SCReLU saturates. Magnitudes are limited to
//!   [`L1_LIMIT`] = 992 (float ≈ 3.89): a position has at most 32 pieces, so bias + 32 rows
//!   stays inside i16 and an accumulator never wraps.
//! * Output layer weights: `round(w · QB)` as i16, `QB = 64`, limited to [`L2_LIMIT`] = 127
//!   (float ≈ 1.98) so that `clamp(x) · w` fits an i16 (see [`super::simd`]).
//! * Output bias: `round(b · QA · QB)` as i32, the scale of `Σ clamp(x)² · w / QA`.
//! * Evaluation: `(Σ clamp(x, 0, QA)² · w / QA + bias) · SCALE / (QA · QB)` centipawns,
//!   clamped to ±`EVAL_LIMIT`. The sum is exact (no overflow) for every loadable network.
//!
//! A trainer should clip its float weights to `L1_LIMIT / QA` and `L2_LIMIT / QB`;
//! [`super::FloatNetwork::quantize`] clamps whatever is outside.
//!
//! # File format (version 1), all numbers little-endian
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `JJNN` |
//! | 4 | 4 | u32 version = 1 |
//! | 8 | 36 | nine u32 architecture fields: feature set (1 = kind × point, two rotated perspectives), inputs (1260), hidden (256), output buckets (4), king buckets (1), activation (1 = SCReLU), QA (255), QB (64), SCALE (400) |
//! | 44 | 2 · 1260 · 256 | i16 first-layer weights, feature-major (feature `f`'s 256 weights together) |
//! | … | 2 · 256 | i16 first-layer biases |
//! | … | 2 · 4 · 512 | i16 output weights, bucket-major; in a bucket the side to move's 256 first |
//! | … | 4 · 4 | i32 output biases |
//! | end − 8 | 8 | u64 FNV-1a checksum of every byte before it |
//!
//! [`Network::from_bytes`] checks, in this order: magic, version, every architecture field,
//! the exact length, the checksum, and the weight limits, and returns a [`NetworkError`] for the
//! first that fails; no sequence of bytes makes it panic.

use super::accumulator::Accumulator;
use super::features::{INPUTS, OUTPUT_BUCKETS};
use super::simd::{self, Isa, Row};
use super::{HIDDEN, SCALE};
use crate::board::Position;
use crate::checksum::fnv1a64;
use crate::search::eval::EVAL_LIMIT;
use std::fmt;

/// First-layer quantization scale: the float 1.0 (where SCReLU saturates).
pub const QA: i32 = 255;
/// Output-layer weight quantization scale.
pub const QB: i32 = 64;
/// Largest magnitude of a quantized first-layer weight or bias.
pub const L1_LIMIT: i16 = 992;
/// Largest magnitude of a quantized output weight.
pub const L2_LIMIT: i16 = 127;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"JJNN";
/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// Feature set 1: piece kind × point, two perspectives, Black's rotated 180 degrees.
const FEATURE_SET: u32 = 1;
/// Activation 1: SCReLU.
const ACTIVATION_SCRELU: u32 = 1;

/// The architecture fields after magic and version, in file order, with this build's values.
const ARCHITECTURE: [(&str, u32); 9] = [
    ("feature set", FEATURE_SET),
    ("inputs", INPUTS as u32),
    ("hidden", HIDDEN as u32),
    ("output buckets", OUTPUT_BUCKETS as u32),
    ("king buckets", 1),
    ("activation", ACTIVATION_SCRELU),
    ("QA", QA as u32),
    ("QB", QB as u32),
    ("scale", SCALE as u32),
];

/// Bytes before the payload: magic, version, architecture.
pub const HEADER_LEN: usize = 8 + 4 * ARCHITECTURE.len();
/// Bytes of a whole version-1 file.
pub const FILE_LEN: usize = HEADER_LEN
    + 2 * (INPUTS * HIDDEN + HIDDEN + OUTPUT_BUCKETS * 2 * HIDDEN)
    + 4 * OUTPUT_BUCKETS
    + 8;

/// Why bytes are not a network this build can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkError {
    /// Fewer bytes than the header needs to be read this far.
    TooShort { len: usize, needed: usize },
    /// The first four bytes are not `JJNN`: not a Jiangjun network file.
    BadMagic([u8; 4]),
    /// A format version this build does not read.
    UnsupportedVersion(u32),
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
                    "network format version {v}; this build reads version {VERSION}"
                )
            }
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
                "network file has {found} bytes, its header needs exactly {expected} (truncated?)"
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
    /// One row per feature.
    pub(super) l1_weights: Vec<Row>,
    pub(super) l1_bias: Row,
    /// Per bucket: the side to move's half, then the other side's.
    pub(super) l2_weights: [[i16; 2 * HIDDEN]; OUTPUT_BUCKETS],
    pub(super) l2_bias: [i32; OUTPUT_BUCKETS],
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network({INPUTS}->{HIDDEN})x2->{OUTPUT_BUCKETS}, checksum {:016x}",
            fnv1a64(&self.to_bytes())
        )
    }
}

impl Network {
    /// A network with every weight zero (evaluates everything as 0).
    pub fn zeros() -> Network {
        Network {
            l1_weights: vec![[0; HIDDEN]; INPUTS],
            l1_bias: [0; HIDDEN],
            l2_weights: [[0; 2 * HIDDEN]; OUTPUT_BUCKETS],
            l2_bias: [0; OUTPUT_BUCKETS],
        }
    }

    /// The first-layer row of `feature` (`< INPUTS`; feature indices come from
    /// [`super::feature_index`], which is always in range).
    #[inline(always)]
    pub(super) fn row(&self, feature: usize) -> &Row {
        &self.l1_weights[feature]
    }

    /// Centipawns from the side to move, given its accumulator `us` and the other side's;
    /// within ±[`EVAL_LIMIT`] like the hand-written evaluation, far from mate scores.
    #[inline]
    pub fn output(&self, isa: Isa, us: &Row, them: &Row, bucket: usize) -> i32 {
        let b = bucket.min(OUTPUT_BUCKETS - 1);
        let sum = simd::screlu_dot(isa, us, them, &self.l2_weights[b]);
        let out = sum / i64::from(QA) + i64::from(self.l2_bias[b]);
        let cp = out * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(-i64::from(EVAL_LIMIT), i64::from(EVAL_LIMIT)) as i32
    }

    /// Evaluates `pos` from scratch (both accumulators refreshed): centipawns from the side to
    /// move. The search uses an [`super::AccumulatorStack`] instead.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let isa = Isa::detect();
        let us = Accumulator::refresh(self, isa, pos, pos.side_to_move());
        let them = Accumulator::refresh(self, isa, pos, !pos.side_to_move());
        self.output(isa, &us.values, &them.values, super::output_bucket(pos))
    }

    /// The file bytes (format in the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(FILE_LEN);
        out.extend_from_slice(&MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        for (_, value) in ARCHITECTURE {
            out.extend_from_slice(&value.to_le_bytes());
        }
        let i16s = self
            .l1_weights
            .iter()
            .flatten()
            .chain(&self.l1_bias)
            .chain(self.l2_weights.iter().flatten());
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

    /// Reads a network file; a typed error for anything that is not exactly a valid version-1
    /// file of this architecture. Never panics.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let mut r = Reader { bytes, at: 0 };
        let magic = r.take::<4>()?;
        if magic != MAGIC {
            return Err(NetworkError::BadMagic(magic));
        }
        let version = u32::from_le_bytes(r.take()?);
        if version != VERSION {
            return Err(NetworkError::UnsupportedVersion(version));
        }
        for (field, expected) in ARCHITECTURE {
            let found = u32::from_le_bytes(r.take()?);
            if found != expected {
                return Err(NetworkError::Architecture {
                    field,
                    expected,
                    found,
                });
            }
        }
        if bytes.len() != FILE_LEN {
            return Err(NetworkError::Size {
                expected: FILE_LEN,
                found: bytes.len(),
            });
        }
        let (body, tail) = bytes.split_at(FILE_LEN - 8);
        let stored = u64::from_le_bytes(tail.try_into().unwrap_or([0; 8]));
        let computed = fnv1a64(body);
        if stored != computed {
            return Err(NetworkError::Checksum { stored, computed });
        }
        let mut net = Network::zeros();
        let mut index = 0;
        for row in net.l1_weights.iter_mut() {
            r.fill(row, "first-layer weight", &mut index, L1_LIMIT)?;
        }
        r.fill(&mut net.l1_bias, "first-layer bias", &mut 0, L1_LIMIT)?;
        let mut index = 0;
        for bucket in net.l2_weights.iter_mut() {
            r.fill(bucket, "output weight", &mut index, L2_LIMIT)?;
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
