//! The float network: the parameters a trainer optimises, and the reference forward pass the
//! quantized inference is tested against.

use super::features::{output_bucket, View, OUTPUT_BUCKETS};
use super::network::{Architecture, Network};
use super::quant::{L1_LIMIT, L2_LIMIT, QA, QB, SCALE};
use crate::board::{Color, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Float parameters of a network (shapes in the field docs, `H` = `arch.hidden()`;
/// [`FloatNetwork::zeros_for`] makes them right). Missing values count as zero, extra ones
/// are ignored.
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNetwork {
    pub arch: Architecture,
    /// `inputs × H`, feature-major: feature `f`'s weights are `f * H..(f + 1) * H`.
    pub l1_weights: Vec<f32>,
    /// `H`.
    pub l1_bias: Vec<f32>,
    /// `OUTPUT_BUCKETS × 2 · H`: per bucket the side to move's `H` weights, then the other
    /// side's.
    pub l2_weights: Vec<f32>,
    /// `OUTPUT_BUCKETS`.
    pub l2_bias: Vec<f32>,
}

impl FloatNetwork {
    /// All parameters zero, with the shapes of the v1 architecture.
    pub fn zeros() -> FloatNetwork {
        FloatNetwork::zeros_for(Architecture::V1)
    }

    /// All parameters zero, with the shapes of `arch`.
    pub fn zeros_for(arch: Architecture) -> FloatNetwork {
        let h = arch.hidden();
        FloatNetwork {
            arch,
            l1_weights: vec![0.0; arch.inputs() * h],
            l1_bias: vec![0.0; h],
            l2_weights: vec![0.0; OUTPUT_BUCKETS * 2 * h],
            l2_bias: vec![0.0; OUTPUT_BUCKETS],
        }
    }

    /// A v1 network with random parameters (see [`FloatNetwork::random_for`]).
    pub fn random(seed: u64) -> FloatNetwork {
        FloatNetwork::random_for(Architecture::V1, seed)
    }

    /// A real but untrained network with uniformly random parameters from `seed`, scaled so
    /// that a typical position's accumulators spread over SCReLU's whole range (some neurons
    /// off, some saturated, most in between) and outputs are a few hundred centipawns. For tests,
    /// benches, and as a trainer's starting point.
    pub fn random_for(arch: Architecture, seed: u64) -> FloatNetwork {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut uniform = |n: usize, lo: f32, hi: f32| -> Vec<f32> {
            (0..n).map(|_| rng.random_range(lo..hi)).collect()
        };
        let h = arch.hidden();
        // The output's spread grows with the square root of the width: keep it as at 256.
        let out = 0.08 * (256.0 / h as f32).sqrt();
        FloatNetwork {
            arch,
            l1_weights: uniform(arch.inputs() * h, -0.12, 0.12),
            l1_bias: uniform(h, -0.1, 0.6),
            l2_weights: uniform(OUTPUT_BUCKETS * 2 * h, -out, out),
            l2_bias: uniform(OUTPUT_BUCKETS, -0.1, 0.1),
        }
    }

    /// This network as the larger `arch`, evaluating as before, so that a trainer can start a
    /// new architecture from a trained network instead of from nothing. Every king bucket
    /// starts with the plain network's rows (a general on the right-hand file then sees the
    /// mirrored board, which a network trained with mirrored data scores almost alike); the
    /// neurons beyond the old width get random first-layer weights from `seed` and zero output
    /// weights, so they change no evaluation until training gives them a use. `None` where
    /// `arch` is narrower, or plain while this network has king buckets.
    pub fn widen(&self, arch: Architecture, seed: u64) -> Option<FloatNetwork> {
        let (old, new) = (self.arch.hidden(), arch.hidden());
        let buckets = arch.features.king_buckets();
        if new < old || self.arch.features.king_buckets() > buckets {
            return None;
        }
        // The new neurons keep the random start's first layer; everything else is replaced.
        let mut net = FloatNetwork::random_for(arch, seed);
        for f in 0..arch.inputs() {
            // The same piece and point in this network's bucket (its only one if plain).
            let from = f % self.arch.inputs();
            for i in 0..old {
                net.l1_weights[f * new + i] = self.l1(Some(from), i);
            }
        }
        for i in 0..old {
            net.l1_bias[i] = self.l1(None, i);
        }
        for half in 0..OUTPUT_BUCKETS * 2 {
            for i in 0..new {
                net.l2_weights[half * new + i] = if i < old {
                    get(&self.l2_weights, half * old + i)
                } else {
                    0.0
                };
            }
        }
        for (b, w) in net.l2_bias.iter_mut().enumerate() {
            *w = get(&self.l2_bias, b);
        }
        Some(net)
    }

    /// The first layer's output for `perspective`: bias plus the active features' rows.
    pub fn accumulate(&self, pos: &Position, perspective: Color) -> Vec<f32> {
        let h = self.arch.hidden();
        let mut acc: Vec<f32> = (0..h).map(|i| self.l1(None, i)).collect();
        let view = View::of(self.arch.features, pos, perspective);
        for f in view.active(pos, perspective) {
            for (i, a) in acc.iter_mut().enumerate() {
                *a += self.l1(Some(f), i);
            }
        }
        acc
    }

    /// The forward pass in float: centipawns from the side to move.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        let stm = pos.side_to_move();
        let bucket = output_bucket(pos);
        let h = self.arch.hidden();
        let halves = [self.accumulate(pos, stm), self.accumulate(pos, !stm)];
        let mut out = get(&self.l2_bias, bucket);
        for (half, acc) in halves.iter().enumerate() {
            for (i, &x) in acc.iter().enumerate() {
                let a = x.clamp(0.0, 1.0);
                out += a * a * get(&self.l2_weights, (bucket * 2 + half) * h + i);
            }
        }
        out * SCALE as f32
    }

    /// The integer network (scales and limits in [`super::network`]); values beyond the
    /// limits are clamped to them.
    pub fn quantize(&self) -> Network {
        let q = |w: f32, scale: i32, limit: i16| -> i16 {
            (w * scale as f32)
                .round()
                .clamp(-f32::from(limit), f32::from(limit)) as i16
        };
        let h = self.arch.hidden();
        let mut net = Network::zeros_for(self.arch);
        for f in 0..self.arch.inputs() {
            let row = net.row_mut(f);
            for (i, w) in row.iter_mut().flat_map(|b| b.0.iter_mut()).enumerate() {
                *w = q(self.l1(Some(f), i), QA, L1_LIMIT);
            }
        }
        for (i, b) in net
            .l1_bias
            .iter_mut()
            .flat_map(|b| b.0.iter_mut())
            .enumerate()
        {
            *b = q(self.l1(None, i), QA, L1_LIMIT);
        }
        let l2 = net.l2_weights.iter_mut().flat_map(|b| b.0.iter_mut());
        for (i, w) in l2.enumerate() {
            *w = q(get(&self.l2_weights, i), QB, L2_LIMIT);
        }
        debug_assert_eq!(
            net.l2_weights.len() * super::simd::BLOCK_LEN,
            OUTPUT_BUCKETS * 2 * h
        );
        for (bucket, b) in net.l2_bias.iter_mut().enumerate() {
            // `as` saturates: an absurd bias becomes i32::MAX rather than wrapping.
            *b = (get(&self.l2_bias, bucket) * (QA * QB) as f32).round() as i32;
        }
        net
    }

    /// The float network a quantized one stands for (each value divided by its scale), so a
    /// trainer can start from a network file. `dequantize(n).quantize() == n`: the values are
    /// small integers over the scale, and rounding recovers them.
    pub fn dequantize(net: &Network) -> FloatNetwork {
        let (qa, qb, qab) = (QA as f32, QB as f32, (QA * QB) as f32);
        let floats = |blocks: &[super::simd::Block], scale: f32| -> Vec<f32> {
            blocks
                .iter()
                .flat_map(|b| b.0)
                .map(|w| f32::from(w) / scale)
                .collect()
        };
        FloatNetwork {
            arch: net.architecture(),
            l1_weights: floats(&net.l1_weights, qa),
            l1_bias: floats(&net.l1_bias, qa),
            l2_weights: floats(&net.l2_weights, qb),
            l2_bias: net.l2_bias.iter().map(|&b| b as f32 / qab).collect(),
        }
    }

    /// First-layer weight `i` of feature `f`, or bias `i` for `None`.
    fn l1(&self, f: Option<usize>, i: usize) -> f32 {
        match f {
            Some(f) => get(&self.l1_weights, f * self.arch.hidden() + i),
            None => get(&self.l1_bias, i),
        }
    }
}

/// `v[i]`, or 0 where the vector is too short.
fn get(v: &[f32], i: usize) -> f32 {
    v.get(i).copied().unwrap_or(0.0)
}
