//! The neural evaluation (NNUE): features, architecture, the float network a trainer fills,
//! its quantized form and file format, and the accumulators the search updates incrementally.
//!
//! # Architecture (v1)
//! * **Features** ([`features`]): piece kind × point, seen from each side — 2 (own / their)
//!   × 7 kinds × 90 points = [`INPUTS`] = 1260. Black's view is the board rotated 180 degrees,
//!   so both colours share one set of weights and swapping the colours (rotating the board)
//!   gives exactly the same evaluation.
//! * **First layer**: 1260 → [`network::HIDDEN`] = 256, one weight matrix shared by both
//!   perspectives (an *accumulator* per perspective: bias + the rows of the active features).
//!   Only the rows of the pieces a move touches change, which is what makes the network
//!   efficiently updatable ([`accumulator`]).
//! * **Activation**: SCReLU, `clamp(x, 0, 1)²`.
//! * **Output**: concat(side to move's accumulator, the other side's) → one output per
//!   bucket; the bucket is chosen by material phase ([`output_bucket`]). The output times
//!   [`quant::SCALE`] is centipawns from the side to move.
//!
//! # Architecture (v2)
//! The same, with two things chosen per network ([`Architecture`]): the **feature set** may be
//! [`FeatureSet::KingBuckets`] (the v1 features once per point of the perspective's own general,
//! nine palace points mirrored to six buckets: 7560 inputs), and the **first layer** may have
//! any multiple of 32 neurons up to [`network::MAX_HIDDEN`]. A move of a general rebuilds that
//! side's accumulator from a cache of earlier ones ([`accumulator`]). Version 1 files are the
//! v1 architecture and still load; the built-in network is v2 (king buckets, 256 neurons).
//!
//! The float network ([`FloatNetwork`]) is the reference: a trainer fills it, calls
//! [`FloatNetwork::quantize`] and [`Network::to_bytes`]. The search uses the quantized
//! [`Network`] (scales in [`quant`]) through an [`AccumulatorStack`].
//!
//! # Modules, each using only those before it
//! [`quant`] (the fixed scales and limits) → [`simd`] (the hot loops) → [`features`] →
//! [`network`] (the quantized network and its file) → [`accumulator`] (the incremental first
//! layer, and [`Network::evaluate`] from scratch) → [`float`] (the trainer's network, which
//! quantizes to a [`Network`]) and [`embedded`] (the built-in one).
//!
//! The shipped network is compiled in ([`embedded`]); [`DEFAULT_ON`] says whether searches
//! use it unless told otherwise.

pub mod accumulator;
pub mod embedded;
pub mod features;
pub mod float;
pub mod network;
pub mod quant;
// The crate's one exception to `#![deny(unsafe_code)]`: calling the AVX2 build of a loop is
// `unsafe` (see the module's doc for why each call is sound).
#[allow(unsafe_code)]
pub mod simd;

#[cfg(test)]
mod tests;

pub use accumulator::{Accumulator, AccumulatorStack};
pub use embedded::{built_in, BUILT_IN_NAME, DEFAULT_ON};
pub use features::{
    bucket_of, counts_for_bucket, feature_index, king_point, output_bucket, FeatureSet, View,
    INPUTS, KING_BUCKETS, OUTPUT_BUCKETS,
};
pub use float::FloatNetwork;
pub use network::{Architecture, Network, NetworkError};
