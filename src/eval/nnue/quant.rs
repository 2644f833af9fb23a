//! The network's fixed numbers: how its layers are quantized and how its output becomes
//! centipawns. A leaf, so that the hot loops ([`super::simd`]), the quantized network
//! ([`super::network`]) and the float one ([`super::float`]) all take them from here and none
//! from another; a network file repeats them in its header, and one whose values differ is
//! refused.
//!
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

/// First-layer quantization scale: the float 1.0 (where SCReLU saturates).
pub const QA: i32 = 255;
/// Output-layer weight quantization scale.
pub const QB: i32 = 64;
/// Largest magnitude of a quantized first-layer weight or bias.
pub const L1_LIMIT: i16 = 992;
/// Largest magnitude of a quantized output weight.
pub const L2_LIMIT: i16 = 127;

/// Network output × `SCALE` = centipawns. The trainer's target is `sigmoid(score / SCALE)`.
pub const SCALE: i32 = 400;
