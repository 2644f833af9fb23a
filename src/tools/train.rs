//! The trainer for the neural evaluation (`jiangjun train`): fits a [`FloatNetwork`] to the
//! records `jiangjun datagen` writes, and hands it to [`FloatNetwork::quantize`] for the file
//! the search loads.
//!
//! # What is fitted
//! The network's output `out` (so `out · SCALE` centipawns from the side to move, exactly
//! [`FloatNetwork::evaluate`]) is turned into an expected score `p = sigmoid(out · SCALE /
//! scale)` and compared with the target `t = λ · result + (1 − λ) · sigmoid(score / scale)`,
//! both from the side to move; the loss is the mean of `(p − t)²`. `scale` (default
//! [`SCALE`] = 400 cp) is the centipawn difference that counts as "e to 1" odds: with the
//! default the target for a search score `s` is `sigmoid(s / 400)`, which is what the network
//! file's SCALE field promises. `λ` (default 0.3) blends in the game result: self-play at a
//! few thousand nodes gives noisy results and noisy scores, and a bit of both works better
//! than either alone in other engines' experience (not measured here yet).
//!
//! # How
//! * **Data.** Every epoch streams all files through a [`ShuffledReader`] (buffer and seed
//!   from the [`Config`]; the seed changes per epoch). Whole *games* are held out for
//!   validation: those whose (seed, game index) hashes to 0 mod `val_every`. Consecutive
//!   positions of a game are near copies, so holding out single records would let the
//!   validation loss reward memorising games. The split depends on the chunks alone, not on
//!   file order or shuffling. The held-out records are read, in order, before training
//!   (which also finds a bad file before any time is spent) and kept in memory; training
//!   skips any record equal to one of them (so a position shared with a held-out game, such
//!   as an opening position, is not trained on either). Records whose placement is not a
//!   legal position are skipped and counted. A thread of its own reads, filters and cuts the
//!   stream into batches (two kept ready) while the pool trains, so the workers do not wait
//!   for the reading.
//! * **Gradients.** A mini-batch is cut into chunks of [`CHUNK`] positions; rayon computes
//!   each chunk's gradient into its own buffer and the buffers are summed in chunk order.
//!   The first layer's gradient is sparse: a chunk touches only the rows of the features it
//!   saw, and only those are cleared and added to the batch's sum (whose rows are shared
//!   out between the threads, each row summed in chunk order). Because the chunking does not depend on the
//!   thread count, **the same data, config and seed give the same network bit for bit with
//!   any number of threads**. The loops are compiled twice (for the build's baseline and for
//!   AVX2, picked at run time: [`simd::run`]); they are element by element, and the output's
//!   dot product sums in fixed lanes, so both copies give the same bits (tested).
//! * **Decoding.** Records are checked once, before the epochs (is each a legal position?);
//!   the epochs then build each batch's samples straight from the records, on every thread,
//!   in stream order, so decoding is neither serial nor repeated.
//! * **Optimiser.** AdamW (β = 0.9, 0.999; decoupled weight decay on the two weight matrices,
//!   not on biases), a dense step over all parameters per batch. After each step weights are
//!   clipped to what quantization can represent (`L1_LIMIT / QA`, `L2_LIMIT / QB`).
//! * **Learning rate** per epoch by a [`Schedule`]: constant, step (× gamma every k epochs)
//!   or cosine from the base rate down to a floor fraction of it.
//! * **Start** from [`FloatNetwork::random_for`] the run's [`Config::arch`] with the run's
//!   seed (its scaling is chosen so SCReLU starts in its working range), or from
//!   [`Config::init`] (a network file dequantized: fine-tuning a network trained on other
//!   data). With 0 epochs the start is the result.
//! * **Architecture**: either feature set (king buckets: each sample's features follow each
//!   side's own general), any width that is a multiple of 64 (the loops' block); the same loops run
//!   every architecture, with the width read from the network.
//! * **Mirror augmentation** ([`Config::mirror`]): xiangqi is symmetric under the left-right
//!   mirror (file `f` → `8 − f`), so a mirrored record is an equally true sample. Each record
//!   is mirrored with probability ½, drawn afresh each epoch (seeded, in stream order), rather
//!   than trained both ways: an epoch costs the same as without, and over epochs a position
//!   is seen both ways. The held-out games are not mirrored (the validation loss stays
//!   comparable between runs with and without).

use crate::board::Position;
use crate::board::{Color, Piece, PieceKind, Square};
use crate::checksum::{fnv1a32, fnv1a64};
use crate::eval::nnue::quant::{L1_LIMIT, L2_LIMIT, QA, QB, SCALE};
use crate::eval::nnue::simd::{self, Isa, Kernel};
use crate::eval::nnue::{
    bucket_of, counts_for_bucket, output_bucket, Architecture, FeatureSet, FloatNetwork, View,
    OUTPUT_BUCKETS,
};
use crate::tools::datagen::{ChunkReader, DataError, Record, ShuffledReader};
use arrayvec::ArrayVec;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use std::collections::HashSet;
use std::fmt;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Instant;

/// Positions per gradient chunk: the unit of parallel work, fixed so that the result does not
/// depend on the thread count.
pub const CHUNK: usize = 256;

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPSILON: f32 = 1e-8;

/// Learning rate by epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    Constant,
    /// The rate times `gamma` after every `every` epochs.
    Step {
        every: u32,
        gamma: f32,
    },
    /// Half a cosine from the base rate (first epoch) to `floor` × base (after the last).
    Cosine {
        floor: f32,
    },
}

impl Schedule {
    /// The rate for epoch `epoch` (0-based) of `epochs`.
    pub fn rate(self, base: f32, epoch: u32, epochs: u32) -> f32 {
        match self {
            Schedule::Constant => base,
            Schedule::Step { every, gamma } => base * gamma.powi((epoch / every.max(1)) as i32),
            Schedule::Cosine { floor } => {
                let x = epoch as f32 / epochs.max(1) as f32;
                let min = base * floor;
                min + 0.5 * (base - min) * (1.0 + (std::f32::consts::PI * x).cos())
            }
        }
    }
}

/// In the words of `jiangjun train`'s options (`cosine, floor 0.05`), for its report line.
impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Schedule::Constant => write!(f, "constant"),
            Schedule::Step { every, gamma } => {
                write!(f, "step, gamma {gamma} every {every} epochs")
            }
            Schedule::Cosine { floor } => write!(f, "cosine, floor {floor}"),
        }
    }
}

/// A training run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Data files (datagen format).
    pub data: Vec<PathBuf>,
    pub epochs: u32,
    /// Positions per optimiser step.
    pub batch: usize,
    /// Base learning rate.
    pub lr: f32,
    pub schedule: Schedule,
    /// AdamW's decoupled weight decay (per unit of learning rate).
    pub weight_decay: f32,
    /// Weight of the game result in the target, 0..=1.
    pub lambda: f32,
    /// Centipawns per unit of the sigmoid's argument.
    pub scale: f32,
    /// One record in `val_every` (by hash) is held out; 0 holds out none.
    pub val_every: u32,
    /// Records in the shuffle buffer.
    pub buffer: usize,
    pub seed: u64,
    pub threads: usize,
    /// The architecture to train; `init` and `resume` must be of it.
    pub arch: Architecture,
    /// The starting network (e.g. a dequantized network file); `None`: random from `seed`.
    pub init: Option<FloatNetwork>,
    /// Left-right mirror augmentation: each record is mirrored with probability ½, drawn
    /// afresh every epoch from the run's seed.
    pub mirror: bool,
    /// Go on from a state an earlier run with the same settings and data saved after an
    /// epoch (`init` is then not used): the result is the network the earlier run would have
    /// ended with.
    pub resume: Option<TrainState>,
    /// One output layer for every position: it starts as the mean of the start's four, each
    /// sample reads it as the first output bucket and the network holds it in all four (the
    /// file format keeps four), so it evaluates as a network without output buckets would.
    /// For measuring what the buckets are worth.
    pub one_output: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            data: Vec::new(),
            epochs: 10,
            batch: 16384,
            lr: 0.001,
            schedule: Schedule::Cosine { floor: 0.05 },
            weight_decay: 0.01,
            lambda: 0.3,
            scale: SCALE as f32,
            val_every: 20,
            buffer: 1 << 20,
            seed: 1,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            arch: Architecture::V1,
            init: None,
            mirror: false,
            resume: None,
            one_output: false,
        }
    }
}

/// Why a run could not go on.
#[derive(Debug)]
pub enum TrainError {
    /// A setting out of range (the message says which).
    Config(String),
    Data(DataError),
    /// No usable training record in the files.
    NoTrainingData {
        records: u64,
        invalid: u64,
    },
    /// The thread pool could not be built.
    Threads(String),
    /// The epoch callback (checkpoint writing) failed.
    Io(std::io::Error),
    /// The state to resume from was saved by a run with other settings or data.
    Resume(String),
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::Config(m) => write!(f, "{m}"),
            TrainError::Data(e) => write!(f, "{e}"),
            TrainError::NoTrainingData { records, invalid } => write!(
                f,
                "no training positions ({records} records, {invalid} not legal positions, the rest held out)"
            ),
            TrainError::Threads(e) => write!(f, "thread pool: {e}"),
            TrainError::Resume(m) => write!(f, "cannot resume: {m}"),
            TrainError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TrainError {}

impl From<DataError> for TrainError {
    fn from(e: DataError) -> TrainError {
        TrainError::Data(e)
    }
}

/// A training position as the network reads it: the active features of both perspectives
/// (side to move first), the output bucket and the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    features: [[u16; 32]; 2],
    len: u8,
    bucket: u8,
    target: f32,
}

impl Sample {
    /// `pos` with the target for a `score` (cp) and a `result` (0, ½, 1), both from the side
    /// to move. `None` for more than 32 pieces (not a xiangqi position).
    /// The features are those of `set`.
    pub fn new(
        set: FeatureSet,
        pos: &Position,
        score: f32,
        result: f32,
        lambda: f32,
        scale: f32,
    ) -> Option<Sample> {
        let stm = pos.side_to_move();
        let mut features = [[0u16; 32]; 2];
        let mut len = 0;
        for (h, side) in [stm, !stm].into_iter().enumerate() {
            let mut n = 0;
            for f in View::of(set, pos, side).active(pos, side) {
                *features[h].get_mut(n)? = f as u16;
                n += 1;
            }
            len = n;
        }
        Some(Sample {
            features,
            len: len as u8,
            bucket: output_bucket(pos) as u8,
            target: blend(score, result, lambda, scale),
        })
    }

    /// The sample of a record already known to be a legal position (the trainer checks each
    /// record once, before the epochs), of its mirror image if `mirror`: the same sample as
    /// [`Sample::from_record`] and [`Sample::from_record_mirrored`] (tested), built from the
    /// record's pieces without making a [`Position`], which costs several times more.
    fn from_legal_record(
        set: FeatureSet,
        r: &Record,
        mirror: bool,
        lambda: f32,
        scale: f32,
    ) -> Sample {
        // The pieces in square order, as `View::active` lists them: the first layer adds
        // rows in this order, and float sums depend on it. A record lists them in that order
        // and holds at most 32 (its decoder checks); the mirror image is sorted again.
        let mut pieces: ArrayVec<(Square, Piece), 32> = r
            .pieces()
            .take(32)
            .map(|(piece, sq)| (if mirror { sq.mirror_file() } else { sq }, piece))
            .collect();
        if mirror {
            pieces.sort_unstable_by_key(|&(sq, _)| sq.index());
        }
        let stm = r.side_to_move();
        // A legal position has both generals; each side's view follows its own.
        let view = |side: Color| {
            let king = pieces
                .iter()
                .find(|(_, p)| *p == Piece::new(side, PieceKind::King))
                .map_or(pieces[0].0, |&(sq, _)| sq);
            View::for_king(set, king, side)
        };
        let (us, them) = if pieces.is_empty() {
            (View::PLAIN, View::PLAIN)
        } else {
            (view(stm), view(!stm))
        };
        let mut features = [[0u16; 32]; 2];
        let mut attackers = 0;
        for (i, &(sq, piece)) in pieces.iter().enumerate() {
            features[0][i] = us.feature(stm, piece, sq) as u16;
            features[1][i] = them.feature(!stm, piece, sq) as u16;
            attackers += usize::from(counts_for_bucket(piece.kind()));
        }
        Sample {
            features,
            len: pieces.len() as u8,
            bucket: bucket_of(attackers) as u8,
            target: blend(r.score().into(), r.result().value(), lambda, scale),
        }
    }

    /// The sample of a record, or `None` when its placement is not a legal position.
    pub fn from_record(set: FeatureSet, r: &Record, lambda: f32, scale: f32) -> Option<Sample> {
        Sample::of_record_at(set, &r.position().ok()?, r, lambda, scale)
    }

    /// The sample of `pos` with `r`'s score and result.
    fn of_record_at(
        set: FeatureSet,
        pos: &Position,
        r: &Record,
        lambda: f32,
        scale: f32,
    ) -> Option<Sample> {
        let (score, result) = (r.score().into(), r.result().value());
        Sample::new(set, pos, score, result, lambda, scale)
    }

    /// The sample of a record's left-right mirror image (file `f` → `8 − f`), with the
    /// record's score and result: the rules are symmetric under the mirror, so the mirrored
    /// position is worth exactly the same.
    pub fn from_record_mirrored(
        set: FeatureSet,
        r: &Record,
        lambda: f32,
        scale: f32,
    ) -> Option<Sample> {
        let pos = mirror_file(&r.position().ok()?)?;
        Sample::of_record_at(set, &pos, r, lambda, scale)
    }

    pub fn target(&self) -> f32 {
        self.target
    }

    fn features(&self, h: usize) -> &[u16] {
        &self.features[h][..self.len as usize]
    }
}

/// `pos` mirrored left-right, the same side to move and natural-limit counter.
fn mirror_file(pos: &Position) -> Option<Position> {
    let mut board = [None; crate::board::square::SQUARES];
    for sq in pos.occupied() {
        board[sq.mirror_file().index()] = pos.piece_at(sq);
    }
    Position::from_placement(board, pos.side_to_move(), pos.halfmove_clock(), 1).ok()
}

/// The training target: `λ · result + (1 − λ) · sigmoid(score / scale)`.
fn blend(score: f32, result: f32, lambda: f32, scale: f32) -> f32 {
    lambda * result + (1.0 - lambda) * sigmoid(score / scale)
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Whether a game (its chunk's seed and index) belongs to the validation set.
pub fn held_out(seed: u64, game: u32, val_every: u32) -> bool {
    if val_every == 0 {
        return false;
    }
    let mut bytes = [0u8; 12];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..].copy_from_slice(&game.to_le_bytes());
    // FNV's low bits mix poorly; a multiply-shift finaliser spreads them.
    let h = u64::from(fnv1a32(&bytes)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    h % u64::from(val_every) == 0
}

/// Hidden neurons per block of the first layer's loops: a block of sums stays in registers
/// (eight AVX2 registers) while every active feature's row is added to it, instead of being
/// loaded and stored once per feature.
const BLOCK: usize = 64;

/// Partial sums of the output's dot product, added together at the end in a fixed order: the
/// lanes are what vector code adds in parallel, and the order is the same in every compiled
/// copy, so the result does not depend on the instruction set.
const LANES: usize = 16;

/// Whether the trainer's loops handle `arch`: its width a multiple of their block of 64
/// neurons.
pub fn trains(arch: Architecture) -> bool {
    arch.hidden().is_multiple_of(BLOCK)
}

const _: () = assert!(BLOCK.is_multiple_of(LANES));

/// First-layer outputs (before the activation) of both perspectives, side to move first:
/// `acc` holds `2 · H`.
#[inline(always)]
fn accumulate(net: &FloatNetwork, s: &Sample, acc: &mut [f32]) {
    let hidden = net.arch.hidden();
    for h in 0..2 {
        let features = s.features(h);
        for b in (0..hidden).step_by(BLOCK) {
            let mut sums = [0.0f32; BLOCK];
            sums.copy_from_slice(&net.l1_bias[b..b + BLOCK]);
            for &f in features {
                let row = &net.l1_weights[f as usize * hidden + b..][..BLOCK];
                for (x, w) in sums.iter_mut().zip(row) {
                    *x += w;
                }
            }
            acc[h * hidden + b..][..BLOCK].copy_from_slice(&sums);
        }
    }
}

/// The network's output from the accumulators (× SCALE = centipawns).
#[inline(always)]
fn output(net: &FloatNetwork, bucket: usize, acc: &[f32]) -> f32 {
    let width = 2 * net.arch.hidden();
    let w2 = &net.l2_weights[bucket * width..(bucket + 1) * width];
    let mut lanes = [0.0f32; LANES];
    for (xs, ws) in acc.chunks_exact(LANES).zip(w2.chunks_exact(LANES)) {
        for ((lane, &x), &w) in lanes.iter_mut().zip(xs).zip(ws) {
            let a = x.clamp(0.0, 1.0);
            *lane += a * a * w;
        }
    }
    net.l2_bias[bucket] + lanes.iter().sum::<f32>()
}

/// The training forward pass in centipawns from the side to move; equals
/// [`FloatNetwork::evaluate`] on the sample's position (the network must have full shapes,
/// as [`Trainer::new`] makes them).
pub fn forward(net: &FloatNetwork, s: &Sample) -> f32 {
    let mut acc = vec![0.0; 2 * net.arch.hidden()];
    accumulate(net, s, &mut acc);
    output(net, s.bucket as usize, &acc) * SCALE as f32
}

/// The sample's loss `(p − t)²`.
#[inline(always)]
fn sample_loss(net: &FloatNetwork, s: &Sample, scale: f32, acc: &mut [f32]) -> f32 {
    accumulate(net, s, acc);
    let p = sigmoid(output(net, s.bucket as usize, acc) * SCALE as f32 / scale);
    (p - s.target) * (p - s.target)
}

/// Summed gradient of the loss over some samples; the first layer's rows are tracked so that
/// only touched ones are cleared and summed.
struct Gradient {
    net: FloatNetwork,
    touched: Vec<bool>,
    rows: Vec<u16>,
    loss: f64,
}

impl Gradient {
    fn new(arch: Architecture) -> Gradient {
        Gradient {
            net: FloatNetwork::zeros_for(arch),
            touched: vec![false; arch.inputs()],
            rows: Vec::with_capacity(arch.inputs()),
            loss: 0.0,
        }
    }

    /// Marks feature `f`'s first-layer row as part of this gradient.
    #[inline(always)]
    fn touch(&mut self, f: usize) {
        if !self.touched[f] {
            self.touched[f] = true;
            self.rows.push(f as u16);
        }
    }

    #[inline(always)]
    fn clear(&mut self) {
        let hidden = self.net.arch.hidden();
        for &f in &self.rows {
            let f = f as usize;
            self.net.l1_weights[f * hidden..(f + 1) * hidden].fill(0.0);
            self.touched[f] = false;
        }
        self.rows.clear();
        self.net.l1_bias.fill(0.0);
        self.net.l2_weights.fill(0.0);
        self.net.l2_bias.fill(0.0);
        self.loss = 0.0;
    }

    /// Adds the gradient of one sample's loss.
    #[inline(always)]
    /// `acc` is scratch space (the caller's, so that it is not cleared for every sample): the
    /// first layer's outputs, then in place their gradients.
    fn backprop(&mut self, net: &FloatNetwork, s: &Sample, scale: f32, acc: &mut [f32]) {
        let hidden = net.arch.hidden();
        accumulate(net, s, acc);
        let b = s.bucket as usize;
        let k = SCALE as f32 / scale;
        let p = sigmoid(output(net, b, acc) * k);
        let e = p - s.target;
        self.loss += f64::from(e * e);
        // d(p − t)²/d out.
        let g = 2.0 * e * p * (1.0 - p) * k;
        self.net.l2_bias[b] += g;
        let w2 = &net.l2_weights[b * 2 * hidden..(b + 1) * 2 * hidden];
        let g2 = &mut self.net.l2_weights[b * 2 * hidden..(b + 1) * 2 * hidden];
        // The outputs' gradients replace the outputs in `acc`.
        let dacc = acc;
        for j in 0..2 * hidden {
            let x = dacc[j];
            let a = x.clamp(0.0, 1.0);
            g2[j] += g * a * a;
            // SCReLU's derivative: 2x inside (0, 1), flat outside.
            dacc[j] = if x > 0.0 && x < 1.0 {
                g * w2[j] * 2.0 * x
            } else {
                0.0
            };
        }
        for i in 0..hidden {
            self.net.l1_bias[i] += dacc[i] + dacc[hidden + i];
        }
        for h in 0..2 {
            let features = s.features(h);
            for &f in features {
                self.touch(f as usize);
            }
            for b in (0..hidden).step_by(BLOCK) {
                let mut d = [0.0f32; BLOCK];
                d.copy_from_slice(&dacc[h * hidden + b..][..BLOCK]);
                for &f in features {
                    let row = &mut self.net.l1_weights[f as usize * hidden + b..][..BLOCK];
                    for (r, x) in row.iter_mut().zip(&d) {
                        *r += x;
                    }
                }
            }
        }
    }
}

#[inline(always)]
fn add_to(dst: &mut [f32], src: &[f32]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += s;
    }
}

/// The trainer's loops as [`Kernel`]s, so that each has a copy compiled for AVX2 (run with the
/// trainer's [`Isa`]); element-by-element float arithmetic, so both copies give the same bits.
///
/// One chunk's summed gradient, into its own buffer.
struct ChunkGradient<'a> {
    g: &'a mut Gradient,
    net: &'a FloatNetwork,
    samples: &'a [Sample],
    scale: f32,
}

impl Kernel for ChunkGradient<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.g.clear();
        let mut acc = vec![0.0; 2 * self.net.arch.hidden()];
        for s in self.samples {
            self.g.backprop(self.net, s, self.scale, &mut acc);
        }
    }
}

/// One chunk's summed loss.
struct ChunkLoss<'a> {
    net: &'a FloatNetwork,
    samples: &'a [Sample],
    scale: f32,
}

impl Kernel for ChunkLoss<'_> {
    type Output = f64;
    #[inline(always)]
    fn run(self) -> f64 {
        let mut acc = vec![0.0; 2 * self.net.arch.hidden()];
        self.samples
            .iter()
            .map(|s| f64::from(sample_loss(self.net, s, self.scale, &mut acc)))
            .sum()
    }
}

/// Some consecutive rows of the first layer's weights summed over the chunks' gradients, in
/// chunk order (each element `0 + g₁ + g₂ + …` over the chunks that touched its row, whatever
/// thread sums it); the rows are cut between threads, since summed on one thread they left
/// the others idle.
struct SumRows<'a> {
    rows: &'a mut [f32],
    first: usize,
    parts: &'a [Gradient],
}

impl Kernel for SumRows<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        let Some(hidden) = self.parts.first().map(|g| g.net.arch.hidden()) else {
            return;
        };
        for (k, row) in self.rows.chunks_exact_mut(hidden).enumerate() {
            let f = self.first + k;
            row.fill(0.0);
            for g in self.parts.iter().filter(|g| g.touched[f]) {
                add_to(row, &g.net.l1_weights[f * hidden..(f + 1) * hidden]);
            }
        }
    }
}

/// Rows of the first layer per parallel piece of [`SumRows`].
const SUM_ROWS: usize = 32;

/// AdamW on a slice of parameters.
struct AdamSlice<'a> {
    adam: &'a Adam,
    w: &'a mut [f32],
    g: &'a [f32],
    m: &'a mut [f32],
    v: &'a mut [f32],
    decay: bool,
    limit: f32,
}

impl Kernel for AdamSlice<'_> {
    type Output = ();
    #[inline(always)]
    fn run(self) {
        self.adam
            .apply(self.w, self.g, self.m, self.v, self.decay, self.limit);
    }
}

/// Parameters per parallel piece of an AdamW step (elementwise, so any split gives the same
/// result).
const ADAM_PIECE: usize = 16 * 1024;

/// The network being trained, its optimiser state and gradient buffers.
pub struct Trainer {
    net: FloatNetwork,
    m: FloatNetwork,
    v: FloatNetwork,
    steps: i32,
    chunks: Vec<Gradient>,
    /// The batch's summed gradient (the chunks' added up) and summed loss.
    total: FloatNetwork,
    total_loss: f64,
    scale: f32,
    weight_decay: f32,
    pool: rayon::ThreadPool,
    /// Which compiled copy of the loops runs: the fastest this processor has.
    isa: Isa,
    /// The run's settings and data, hashed ([`fingerprint`]), for the states it saves.
    fingerprint: u64,
    /// [`Config::one_output`].
    one_output: bool,
}

impl Trainer {
    /// Starts from `net` (missing values count as zero, extra ones are dropped) with
    /// `threads` worker threads.
    pub fn new(
        mut net: FloatNetwork,
        scale: f32,
        weight_decay: f32,
        threads: usize,
    ) -> Result<Trainer, TrainError> {
        let arch = net.arch;
        if !trains(arch) {
            return Err(TrainError::Config(format!(
                "a first layer of {} neurons; the trainer needs a multiple of {BLOCK}",
                arch.hidden()
            )));
        }
        net.l1_weights.resize(arch.inputs() * arch.hidden(), 0.0);
        net.l1_bias.resize(arch.hidden(), 0.0);
        net.l2_weights
            .resize(OUTPUT_BUCKETS * 2 * arch.hidden(), 0.0);
        net.l2_bias.resize(OUTPUT_BUCKETS, 0.0);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads.max(1))
            .build()
            .map_err(|e| TrainError::Threads(e.to_string()))?;
        Ok(Trainer {
            net,
            m: FloatNetwork::zeros_for(arch),
            v: FloatNetwork::zeros_for(arch),
            steps: 0,
            chunks: Vec::new(),
            total: FloatNetwork::zeros_for(arch),
            total_loss: 0.0,
            scale,
            weight_decay,
            pool,
            isa: Isa::detect(),
            fingerprint: 0,
            one_output: false,
        })
    }

    /// Trains one output layer for every position from now on ([`Config::one_output`]): the
    /// first bucket's, copied to the others now and after every step.
    pub fn set_one_output(&mut self) {
        self.one_output = true;
        self.tie_outputs();
    }

    /// Puts the mean of the output buckets' layers in the first bucket: where a one-layer run
    /// starts from a bucketed network, each bucket gives its share.
    fn average_outputs_into_first(&mut self) {
        let n = &mut self.net;
        let width = 2 * n.arch.hidden();
        let buckets = n.l2_bias.len() as f32;
        let mut mean = vec![0.0f32; width];
        for bucket in n.l2_weights.chunks_exact(width) {
            for (m, w) in mean.iter_mut().zip(bucket) {
                *m += w / buckets;
            }
        }
        n.l2_weights[..width].copy_from_slice(&mean);
        n.l2_bias[0] = n.l2_bias.iter().sum::<f32>() / buckets;
    }

    fn tie_outputs(&mut self) {
        let n = &mut self.net;
        let width = 2 * n.arch.hidden();
        let (first, rest) = n.l2_weights.split_at_mut(width);
        for bucket in rest.chunks_exact_mut(width) {
            bucket.copy_from_slice(first);
        }
        let bias = n.l2_bias[0];
        n.l2_bias.fill(bias);
    }

    pub fn network(&self) -> &FloatNetwork {
        &self.net
    }

    /// The state to save after `epochs_done` epochs, to resume from.
    pub fn state(&self, epochs_done: u32) -> TrainState {
        TrainState {
            fingerprint: self.fingerprint,
            epochs_done,
            steps: self.steps,
            net: self.net.clone(),
            m: self.m.clone(),
            v: self.v.clone(),
        }
    }

    /// Mean loss over `samples` (0 for none), computed in fixed chunks so that it does not
    /// depend on the thread count.
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        if samples.is_empty() {
            return 0.0;
        }
        let (net, scale, isa) = (&self.net, self.scale, self.isa);
        let parts: Vec<f64> = self.pool.install(|| {
            samples
                .par_chunks(CHUNK)
                .map(|samples| {
                    simd::run(
                        isa,
                        ChunkLoss {
                            net,
                            samples,
                            scale,
                        },
                    )
                })
                .collect()
        });
        parts.iter().sum::<f64>() / samples.len() as f64
    }

    /// The summed gradient of the batch's loss, in `self.total`.
    fn gradient(&mut self, batch: &[Sample]) {
        let n = batch.len().div_ceil(CHUNK);
        while self.chunks.len() < n {
            self.chunks.push(Gradient::new(self.net.arch));
        }
        let (net, scale, isa) = (&self.net, self.scale, self.isa);
        let chunks = &mut self.chunks[..n];
        self.pool.install(|| {
            chunks
                .par_iter_mut()
                .zip(batch.par_chunks(CHUNK))
                .for_each(|(g, samples)| {
                    simd::run(
                        isa,
                        ChunkGradient {
                            g,
                            net,
                            samples,
                            scale,
                        },
                    )
                });
        });
        let (t, parts) = (&mut self.total, &self.chunks[..n]);
        let width = SUM_ROWS * t.arch.hidden();
        self.pool.install(|| {
            t.l1_weights
                .par_chunks_mut(width)
                .enumerate()
                .for_each(|(i, rows)| {
                    let first = i * SUM_ROWS;
                    simd::run(isa, SumRows { rows, first, parts })
                });
        });
        // The rest is small: summed here, in chunk order.
        t.l1_bias.fill(0.0);
        t.l2_weights.fill(0.0);
        t.l2_bias.fill(0.0);
        self.total_loss = 0.0;
        for g in parts {
            add_to(&mut t.l1_bias, &g.net.l1_bias);
            add_to(&mut t.l2_weights, &g.net.l2_weights);
            add_to(&mut t.l2_bias, &g.net.l2_bias);
            self.total_loss += g.loss;
        }
    }

    /// The samples of `records`, decoded in parallel, in order; `None` for a record that is
    /// not a legal position.
    fn samples(&self, records: &[Record], lambda: f32, scale: f32) -> Vec<Option<Sample>> {
        let set = self.net.arch.features;
        let one_output = self.one_output;
        self.pool.install(|| {
            records
                .par_iter()
                .map(|r| {
                    let mut s = Sample::from_record(set, r, lambda, scale)?;
                    if one_output {
                        s.bucket = 0;
                    }
                    Some(s)
                })
                .collect()
        })
    }

    /// The samples of legal `records` (each with whether to mirror it), decoded in parallel,
    /// in order, into `out`.
    fn legal_samples(
        &self,
        records: &[(Record, bool)],
        lambda: f32,
        scale: f32,
        out: &mut Vec<Sample>,
    ) {
        let set = self.net.arch.features;
        self.pool.install(|| {
            records
                .par_iter()
                .map(|&(r, mirror)| Sample::from_legal_record(set, &r, mirror, lambda, scale))
                .collect_into_vec(out)
        });
        if self.one_output {
            out.iter_mut().for_each(|s| s.bucket = 0);
        }
    }

    /// One AdamW step on the batch's mean loss at learning rate `lr`; returns the batch's
    /// summed loss before the step.
    pub fn step(&mut self, batch: &[Sample], lr: f32) -> f64 {
        if batch.is_empty() {
            return 0.0;
        }
        self.gradient(batch);
        self.steps = self.steps.saturating_add(1);
        let adam = Adam {
            lr,
            decay: self.weight_decay,
            grad_scale: 1.0 / batch.len() as f32,
            bias1: 1.0 - BETA1.powi(self.steps),
            bias2: 1.0 - BETA2.powi(self.steps),
        };
        let l1 = f32::from(L1_LIMIT) / QA as f32;
        let l2 = f32::from(L2_LIMIT) / QB as f32;
        let (n, g, m, v) = (&mut self.net, &self.total, &mut self.m, &mut self.v);
        let isa = self.isa;
        let tensors = [
            (
                &mut n.l1_weights,
                &g.l1_weights,
                &mut m.l1_weights,
                &mut v.l1_weights,
                true,
                l1,
            ),
            (
                &mut n.l1_bias,
                &g.l1_bias,
                &mut m.l1_bias,
                &mut v.l1_bias,
                false,
                l1,
            ),
            (
                &mut n.l2_weights,
                &g.l2_weights,
                &mut m.l2_weights,
                &mut v.l2_weights,
                true,
                l2,
            ),
            (
                &mut n.l2_bias,
                &g.l2_bias,
                &mut m.l2_bias,
                &mut v.l2_bias,
                false,
                f32::MAX,
            ),
        ];
        self.pool.install(|| {
            for (w, g, m, v, decay, limit) in tensors {
                w.par_chunks_mut(ADAM_PIECE)
                    .zip(g.par_chunks(ADAM_PIECE))
                    .zip(m.par_chunks_mut(ADAM_PIECE))
                    .zip(v.par_chunks_mut(ADAM_PIECE))
                    .for_each(|(((w, g), m), v)| {
                        simd::run(
                            isa,
                            AdamSlice {
                                adam: &adam,
                                w,
                                g,
                                m,
                                v,
                                decay,
                                limit,
                            },
                        )
                    });
            }
        });
        if self.one_output {
            self.tie_outputs();
        }
        self.total_loss
    }
}

/// One AdamW update's constants.
struct Adam {
    lr: f32,
    decay: f32,
    grad_scale: f32,
    bias1: f32,
    bias2: f32,
}

impl Adam {
    /// Updates `w` from the summed gradient `g`, clipping to ±`limit` (what quantization can
    /// represent).
    #[inline(always)]
    fn apply(
        &self,
        w: &mut [f32],
        g: &[f32],
        m: &mut [f32],
        v: &mut [f32],
        decay: bool,
        limit: f32,
    ) {
        let decay = if decay { self.decay } else { 0.0 };
        for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
            let g = g * self.grad_scale;
            *m = BETA1 * *m + (1.0 - BETA1) * g;
            *v = BETA2 * *v + (1.0 - BETA2) * g * g;
            let update = (*m / self.bias1) / ((*v / self.bias2).sqrt() + EPSILON);
            *w = (*w - self.lr * (update + decay * *w)).clamp(-limit, limit);
        }
    }
}

/// What an epoch did; epoch 0 is the starting network (no training loss), and a resumed run's
/// first report is the epoch it resumed after (no training loss either).
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub epochs: u32,
    pub lr: f32,
    /// Mean loss of the epoch's batches (each measured before its step).
    pub train_loss: Option<f64>,
    /// Mean validation loss after the epoch; `None` without a validation set.
    pub val_loss: Option<f64>,
    /// Training positions this epoch.
    pub positions: u64,
    /// Seconds this epoch, and since the run started.
    pub seconds: f64,
    pub elapsed: f64,
}

/// The end of a run.
#[derive(Clone, Debug)]
pub struct Summary {
    pub epochs: u32,
    /// Training positions per epoch, validation positions, records skipped as illegal.
    pub train_positions: u64,
    pub val_positions: u64,
    pub invalid: u64,
    pub initial_val_loss: Option<f64>,
    pub last: EpochReport,
    pub seconds: f64,
}

/// What decides a run's result besides the epochs done: every setting but the thread count
/// (which changes nothing) and the start (a resumed run does not use it), and the data files'
/// names and sizes.
fn fingerprint(cfg: &Config) -> u64 {
    let mut s = format!(
        "epochs {} batch {} lr {} schedule {:?} decay {} lambda {} scale {} val {} buffer {} seed {} mirror {}",
        cfg.epochs,
        cfg.batch,
        cfg.lr.to_bits(),
        cfg.schedule,
        cfg.weight_decay.to_bits(),
        cfg.lambda.to_bits(),
        cfg.scale.to_bits(),
        cfg.val_every,
        cfg.buffer,
        cfg.seed,
        cfg.mirror
    );
    // The first architecture adds nothing, so fingerprints from before architectures had a
    // choice stay the same.
    if cfg.arch != Architecture::V1 {
        s.push_str(&format!(" arch {}", cfg.arch));
    }
    if cfg.one_output {
        s.push_str(" one output");
    }
    for p in &cfg.data {
        let len = std::fs::metadata(p).map_or(0, |m| m.len());
        s.push_str(&format!(" data {} {len}", p.display()));
    }
    fnv1a64(s.as_bytes())
}

/// The trainer a run starts with: a new network (random, or `--init`'s), or the state it
/// resumes, which must come from a run with the same settings; and the epochs already done.
fn start_trainer(cfg: &Config) -> Result<(Trainer, u32), TrainError> {
    let start_net = match (&cfg.resume, &cfg.init) {
        (Some(state), _) => state.net.clone(),
        (None, Some(net)) => net.clone(),
        (None, None) => FloatNetwork::random_for(cfg.arch, cfg.seed),
    };
    let mut trainer = Trainer::new(start_net, cfg.scale, cfg.weight_decay, cfg.threads)?;
    trainer.fingerprint = fingerprint(cfg);
    if cfg.one_output {
        // A resumed state is already one layer: only a start is averaged.
        if cfg.resume.is_none() {
            trainer.average_outputs_into_first();
        }
        trainer.set_one_output();
    }
    let mut done = 0;
    if let Some(state) = &cfg.resume {
        if state.fingerprint != trainer.fingerprint {
            return Err(TrainError::Resume(
                "the state was saved by a run with other settings or data (every setting but \
                 --threads and --init, and the data files' names and sizes, must be the same)"
                    .into(),
            ));
        }
        if state.epochs_done > cfg.epochs {
            return Err(TrainError::Resume(format!(
                "the state is after epoch {}, beyond --epochs {}",
                state.epochs_done, cfg.epochs
            )));
        }
        trainer.m = state.m.clone();
        trainer.v = state.v.clone();
        trainer.steps = state.steps;
        done = state.epochs_done;
    }
    Ok((trainer, done))
}

/// The data of a run, read once before the epochs: the held-out validation samples, and which
/// records the epochs skip.
struct DataSplit {
    val: Vec<Sample>,
    /// The held-out records: a training record equal to one of them is skipped too.
    val_records: HashSet<Record>,
    /// Records that are not legal positions: skipped by the epochs without decoding again.
    invalid_records: HashSet<Record>,
    invalid: u64,
    train_positions: u64,
}

/// Reads all the data once: the validation set, and a first read of everything so that a
/// bad file stops the run now.
fn split_data(cfg: &Config, trainer: &Trainer) -> Result<DataSplit, TrainError> {
    let (mut records, mut invalid) = (0u64, 0u64);
    let mut val = Vec::new();
    let mut val_records = HashSet::new();
    let mut invalid_records = HashSet::new();
    for chunk in ChunkReader::open(&cfg.data) {
        let chunk = chunk?;
        let out = held_out(chunk.seed, chunk.game, cfg.val_every);
        let samples = trainer.samples(&chunk.records, cfg.lambda, cfg.scale);
        for (r, sample) in chunk.records.iter().zip(samples) {
            records += 1;
            match sample {
                None => {
                    invalid += 1;
                    invalid_records.insert(*r);
                }
                Some(s) if out => {
                    val.push(s);
                    val_records.insert(*r);
                }
                Some(_) => {}
            }
        }
    }
    // Training positions: the legal records less those equal to a held-out one (all legal).
    let mut held_out_copies = 0;
    for chunk in ChunkReader::open(&cfg.data) {
        held_out_copies += chunk?
            .records
            .iter()
            .filter(|r| val_records.contains(*r))
            .count() as u64;
    }
    let train_positions = records - invalid - held_out_copies;
    if train_positions == 0 {
        return Err(TrainError::NoTrainingData { records, invalid });
    }
    Ok(DataSplit {
        val,
        val_records,
        invalid_records,
        invalid,
        train_positions,
    })
}

/// One epoch over the training records in the order `seed` shuffles them, at rate `lr`:
/// the summed loss and the positions trained on. `batch` is the buffer batches are decoded
/// into.
fn train_epoch(
    cfg: &Config,
    data: &DataSplit,
    seed: u64,
    lr: f32,
    trainer: &mut Trainer,
    batch: &mut Vec<Sample>,
) -> Result<(f64, u64), TrainError> {
    let (mut loss, mut positions) = (0.0, 0u64);
    // The records are read, filtered and given their mirror coins on a thread of their
    // own, in stream order, while the pool trains on the batch before: read on the pool's
    // thread, they left every other worker idle while they were read.
    let (to_train, batches) = mpsc::sync_channel(2);
    let (val_records, invalid_records) = (&data.val_records, &data.invalid_records);
    std::thread::scope(|scope| -> Result<(), TrainError> {
        scope.spawn(move || {
            let mut coin = ChaCha8Rng::seed_from_u64(seed ^ 0x6d69_7272_6f72);
            let mut pending = Vec::with_capacity(cfg.batch);
            for r in ShuffledReader::open(&cfg.data, cfg.buffer, seed) {
                let r = match r {
                    Ok(r) => r,
                    Err(e) => {
                        let _ = to_train.send(Err(e));
                        return;
                    }
                };
                if val_records.contains(&r) {
                    continue;
                }
                let mirror = cfg.mirror && coin.random_bool(0.5);
                if invalid_records.contains(&r) {
                    continue;
                }
                pending.push((r, mirror));
                if pending.len() == cfg.batch {
                    let full = std::mem::replace(&mut pending, Vec::with_capacity(cfg.batch));
                    if to_train.send(Ok(full)).is_err() {
                        return;
                    }
                }
            }
            if !pending.is_empty() {
                let _ = to_train.send(Ok(pending));
            }
        });
        for pending in batches {
            // Decoded on every thread at once, in stream order.
            trainer.legal_samples(&pending?, cfg.lambda, cfg.scale, batch);
            loss += trainer.step(batch, lr);
            positions += batch.len() as u64;
        }
        Ok(())
    })?;
    Ok((loss, positions))
}

/// Trains a network as `cfg` says. `on_epoch` sees each epoch's report and the trainer
/// (epoch 0: the start; on resuming, the epoch resumed from) and may write checkpoints; its
/// error ends the run.
pub fn train(
    cfg: &Config,
    mut on_epoch: impl FnMut(&EpochReport, &Trainer) -> std::io::Result<()>,
) -> Result<(FloatNetwork, Summary), TrainError> {
    check(cfg)?;
    let start = Instant::now();
    let (mut trainer, done) = start_trainer(cfg)?;
    let data = split_data(cfg, &trainer)?;
    let val = &data.val;
    let val_loss = |t: &Trainer| (!val.is_empty()).then(|| t.loss(val));
    let mut report = EpochReport {
        epoch: done,
        epochs: cfg.epochs,
        lr: 0.0,
        train_loss: None,
        val_loss: val_loss(&trainer),
        positions: 0,
        seconds: start.elapsed().as_secs_f64(),
        elapsed: start.elapsed().as_secs_f64(),
    };
    let initial_val_loss = report.val_loss;
    on_epoch(&report, &trainer).map_err(TrainError::Io)?;
    let mut batch = Vec::with_capacity(cfg.batch);
    for epoch in done + 1..=cfg.epochs {
        let t0 = Instant::now();
        let lr = cfg.schedule.rate(cfg.lr, epoch - 1, cfg.epochs);
        let seed = cfg.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(epoch);
        let (loss, positions) = train_epoch(cfg, &data, seed, lr, &mut trainer, &mut batch)?;
        report = EpochReport {
            epoch,
            epochs: cfg.epochs,
            lr,
            train_loss: Some(loss / positions.max(1) as f64),
            val_loss: val_loss(&trainer),
            positions,
            seconds: t0.elapsed().as_secs_f64(),
            elapsed: start.elapsed().as_secs_f64(),
        };
        on_epoch(&report, &trainer).map_err(TrainError::Io)?;
    }
    let summary = Summary {
        epochs: cfg.epochs,
        train_positions: data.train_positions,
        val_positions: val.len() as u64,
        invalid: data.invalid,
        initial_val_loss,
        last: report,
        seconds: start.elapsed().as_secs_f64(),
    };
    Ok((trainer.net, summary))
}

/// Refuses settings that cannot train (the command line checks them too, with flag names).
fn check(cfg: &Config) -> Result<(), TrainError> {
    let bad = |m: &str| Err(TrainError::Config(m.to_string()));
    if cfg.data.is_empty() {
        return bad("no data files");
    }
    if cfg.batch == 0 || cfg.buffer == 0 || cfg.threads == 0 {
        return bad("batch, buffer and threads must be at least 1");
    }
    if !(cfg.lr.is_finite() && cfg.lr > 0.0) {
        return bad("learning rate must be positive");
    }
    if !(0.0..=1.0).contains(&cfg.lambda) {
        return bad("lambda must be from 0 to 1");
    }
    if !(cfg.scale.is_finite() && cfg.scale > 0.0) {
        return bad("scale must be positive");
    }
    if !(cfg.weight_decay.is_finite() && cfg.weight_decay >= 0.0) {
        return bad("weight decay must be 0 or more");
    }
    // The width itself is checked where the trainer is made (`Trainer::new`), before any data
    // is read.
    let starts = [
        cfg.init.as_ref().map(|n| ("starting network", n.arch)),
        cfg.resume.as_ref().map(|s| ("state", s.net.arch)),
    ];
    for (what, arch) in starts.into_iter().flatten() {
        if arch != cfg.arch {
            return Err(TrainError::Config(format!(
                "the {what} is {arch}, the run trains {}",
                cfg.arch
            )));
        }
    }
    match cfg.schedule {
        Schedule::Step { every, gamma } if every == 0 || !(gamma > 0.0 && gamma <= 1.0) => {
            bad("step schedule needs every >= 1 and 0 < gamma <= 1")
        }
        Schedule::Cosine { floor } if !(0.0..=1.0).contains(&floor) => {
            bad("cosine floor must be from 0 to 1")
        }
        _ => Ok(()),
    }
}

mod state;
pub use state::{state_len, StateError, TrainState, MAX_STATE_LEN, STATE_LEN};

#[cfg(test)]
mod tests;
