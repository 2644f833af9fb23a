//! Network tests: incremental accumulators against full refreshes over random games, quantized
//! against float inference, colour and mirror symmetry, both compiled loop versions against
//! each other, and the file format against every kind of bad file.
//!
//! The networks here are `FloatNetwork::random`: real networks of the v1 architecture with
//! untrained (random) weights, so the tests check the arithmetic, not playing strength.

use super::network::{FILE_LEN, HEADER_LEN, L1_LIMIT, L2_LIMIT};
use super::simd::{self, Isa, Row};
use super::*;
use crate::board::{Color, Piece, Position, Square};
use crate::checksum::fnv1a64;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const FENS: [&str; 4] = [
    crate::board::START_FEN,
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "3k5/9/4b4/3P5/2b6/2B3B2/5p1N1/9/4K4/3A1A3 w - - 0 1",
];

fn pos(fen: &str) -> Position {
    match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => panic!("{fen}: {e}"),
    }
}

/// Makes a seeded random walk from `start` with `stack` following it: mostly random legal
/// moves (pushed before or after making them), a quarter unmakes (lines are taken back and
/// replaced, as in a search) and some null moves when not in check. Calls `at_node` at the start and after every step.
fn walk(
    net: &Network,
    stack: &mut AccumulatorStack,
    start: &Position,
    seed: u64,
    steps: usize,
    mut at_node: impl FnMut(&mut AccumulatorStack, &Position),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = start.clone();
    stack.refresh(net, &p);
    at_node(stack, &p);
    for _ in 0..steps {
        let moves = p.legal_moves();
        let r = rng.random_range(0..100);
        if (r < 25 || moves.is_empty()) && !p.history().is_empty() {
            p.unmake_move();
            stack.pop();
        } else if r < 30 && !p.in_check() {
            p.make_null_move();
            if r < 28 {
                stack.push_null();
            } else {
                stack.push_made(&p);
            }
        } else if moves.is_empty() {
            break;
        } else {
            // Half the moves pushed before make_move, half after.
            let m = moves[rng.random_range(0..moves.len())];
            if r < 65 {
                stack.push_move(&p, m);
                p.make_move(m);
            } else {
                p.make_move(m);
                stack.push_made(&p);
            }
        }
        at_node(stack, &p);
    }
}

/// Positions from random walks from each of [`FENS`] (fixed seeds).
fn sample_positions(per_fen: usize) -> Vec<Position> {
    let net = Network::zeros();
    let mut stack = AccumulatorStack::new();
    let mut out = Vec::new();
    for (i, fen) in FENS.iter().enumerate() {
        walk(&net, &mut stack, &pos(fen), i as u64, per_fen, |_, p| {
            out.push(p.clone());
        });
    }
    out
}

/// Colours swapped and the board rotated 180 degrees, the other side to move.
fn colour_rotated(p: &Position) -> Position {
    let mut board = [None; 90];
    for sq in Square::all() {
        if let Some(pc) = p.piece_at(sq) {
            board[89 - sq.index()] = Some(Piece::new(!pc.color(), pc.kind()));
        }
    }
    Position::from_placement(board, !p.side_to_move(), 0, 1).expect("rotation keeps legality")
}

/// The left-right mirror image, same side to move.
fn mirror(p: &Position) -> Position {
    let mut board = [None; 90];
    for sq in Square::all() {
        board[sq.mirror_file().index()] = p.piece_at(sq);
    }
    Position::from_placement(board, p.side_to_move(), 0, 1).expect("mirror keeps legality")
}

/// Walks 1500 plies from each of [`FENS`] with a stack following, and at one node in
/// `check_one_in` (at random) compares its accumulators and evaluation with a full refresh.
/// Returns the number of nodes compared.
fn check_against_refresh(net_seed: u64, walk_seed: u64, check_one_in: u32) -> usize {
    let net = FloatNetwork::random(net_seed).quantize();
    let mut stack = AccumulatorStack::new();
    let mut rng = ChaCha8Rng::seed_from_u64(walk_seed);
    let mut checked = 0;
    for (i, fen) in FENS.iter().enumerate() {
        walk(
            &net,
            &mut stack,
            &pos(fen),
            walk_seed + i as u64,
            1500,
            |stack, p| {
                if rng.random_range(0..check_one_in) == 0 {
                    let isa = Isa::detect();
                    let fresh = Color::ALL.map(|c| Accumulator::refresh(&net, isa, p, c));
                    assert_eq!(stack.current(&net, p), &fresh, "{}", p.to_fen());
                    assert_eq!(stack.evaluate(&net, p), net.evaluate(p), "{}", p.to_fen());
                    checked += 1;
                }
            },
        );
    }
    checked
}

#[test]
fn incremental_accumulators_equal_a_full_refresh_at_every_node() {
    let nodes = check_against_refresh(1, 100, 1);
    assert!(nodes > 5000, "{nodes} nodes");
}

#[test]
fn lazy_updates_over_several_plies_equal_a_full_refresh() {
    // Evaluating only now and then leaves several pushes pending at once.
    let checked = check_against_refresh(2, 200, 5);
    assert!(checked > 500, "{checked}");
}

#[test]
fn a_stack_never_refreshed_evaluates_from_scratch() {
    let net = FloatNetwork::random(3).quantize();
    let mut p = Position::startpos();
    let mut stack = AccumulatorStack::new();
    stack.push_move(&p, p.legal_moves()[0]);
    p.make_move(p.legal_moves()[0]);
    assert_eq!(stack.evaluate(&net, &p), net.evaluate(&p));
    stack.pop();
    stack.pop();
    assert_eq!(stack.depth(), 0);
}

/// Over `positions`: the mean and the largest |quantized - float| in centipawns, and the mean
/// |float|.
fn quantization_error(float: &FloatNetwork, positions: &[Position]) -> (f32, f32, f32) {
    let net = float.quantize();
    let (mut total, mut worst, mut size) = (0.0, 0.0f32, 0.0);
    for p in positions {
        let f = float.evaluate(p);
        let err = (net.evaluate(p) as f32 - f).abs();
        worst = worst.max(err);
        total += err;
        size += f.abs();
    }
    let n = positions.len() as f32;
    (total / n, worst, size / n)
}

/// A random network whose weights are exactly representable after quantization.
fn on_the_grid(seed: u64) -> FloatNetwork {
    let mut f = FloatNetwork::random(seed);
    let snap = |v: &mut Vec<f32>, scale: i32| {
        for w in v.iter_mut() {
            *w = (*w * scale as f32).round() / scale as f32;
        }
    };
    snap(&mut f.l1_weights, network::QA);
    snap(&mut f.l1_bias, network::QA);
    snap(&mut f.l2_weights, network::QB);
    snap(&mut f.l2_bias, network::QA * network::QB);
    f
}

#[test]
fn quantized_inference_computes_the_float_network() {
    // With weights on the quantization grid the integer arithmetic is exact up to the final
    // truncating division: within 1 cp (plus float rounding).
    let positions = sample_positions(400);
    for seed in 10..13 {
        let (mean, worst, size) = quantization_error(&on_the_grid(seed), &positions);
        assert!(
            worst < 1.5,
            "seed {seed}: mean {mean}, worst {worst} (|eval| {size})"
        );
    }
}

#[test]
fn quantization_error_is_small() {
    // Arbitrary float weights: rounding the output weights to 1/64 and the first layer to
    // 1/255 costs 12-14 cp on average (worst 39-54 cp) on these random networks, whose
    // evaluations average 265-531 cp in size. The absolute error comes from the grids (QB = 64
    // dominates), so a trained network with larger weights loses relatively less.
    let positions = sample_positions(400);
    for seed in 10..13 {
        let (mean, worst, size) = quantization_error(&FloatNetwork::random(seed), &positions);
        assert!(
            mean < 16.0 && worst < 70.0,
            "seed {seed}: mean {mean}, worst {worst} (|eval| {size})"
        );
    }
}

#[test]
fn colour_rotation_gives_exactly_the_same_evaluation() {
    let net = FloatNetwork::random(4).quantize();
    let float = FloatNetwork::random(4);
    for p in sample_positions(1000) {
        let flipped = colour_rotated(&p);
        assert_eq!(net.evaluate(&p), net.evaluate(&flipped), "{}", p.to_fen());
        let (a, b) = (float.evaluate(&p), float.evaluate(&flipped));
        assert!((a - b).abs() < 1e-3, "{a} {b} on {}", p.to_fen());
    }
}

/// A random network whose first layer treats a point and its mirror image alike.
fn mirror_symmetric(seed: u64) -> FloatNetwork {
    let mut f = FloatNetwork::random(seed);
    for p in 0..14 {
        for sq in Square::all() {
            let m = sq.mirror_file();
            if m.index() < sq.index() {
                let (from, to) = (
                    (p * 90 + m.index()) * HIDDEN,
                    (p * 90 + sq.index()) * HIDDEN,
                );
                f.l1_weights.copy_within(from..from + HIDDEN, to);
            }
        }
    }
    f
}

#[test]
fn mirror_symmetric_weights_give_mirror_symmetric_evaluations() {
    // Mirror symmetry is not built into the features; it holds where the weights have it.
    let net = mirror_symmetric(5).quantize();
    let random = FloatNetwork::random(5).quantize();
    let mut differs = 0;
    for p in sample_positions(1000) {
        let m = mirror(&p);
        assert_eq!(net.evaluate(&p), net.evaluate(&m), "{}", p.to_fen());
        // Black's view is rotated, so the rank-only colour flip is a rotation plus a mirror.
        let rank_flipped = mirror(&colour_rotated(&p));
        assert_eq!(
            net.evaluate(&p),
            net.evaluate(&rank_flipped),
            "{}",
            p.to_fen()
        );
        differs += usize::from(random.evaluate(&p) != random.evaluate(&m));
    }
    assert!(
        differs > 100,
        "a random network is not mirror symmetric ({differs})"
    );
}

#[test]
#[cfg_attr(
    not(target_arch = "x86_64"),
    ignore = "AVX2 exists only on x86-64: here only the portable loops run"
)]
fn baseline_and_avx2_loops_agree_exactly() {
    let Some(avx2) = Isa::avx2() else {
        // An x86-64 processor without AVX2 (rare since 2013): the harness has no runtime skip.
        eprintln!("SKIPPED: no AVX2 on this processor: only the baseline loops exist to test");
        return;
    };
    // Whole evaluations, incremental, over thousands of positions: the same seeded walks
    // with a stack of each kind.
    let net = FloatNetwork::random(6).quantize();
    let mut nodes = 0;
    for (i, fen) in FENS.iter().enumerate() {
        let mut seen = Vec::new();
        let mut fast = AccumulatorStack::with_isa(avx2);
        walk(
            &net,
            &mut fast,
            &pos(fen),
            300 + i as u64,
            1000,
            |stack, p| {
                seen.push((*stack.current(&net, p), stack.evaluate(&net, p)));
            },
        );
        let mut plain = AccumulatorStack::with_isa(Isa::BASELINE);
        let mut at = 0;
        walk(
            &net,
            &mut plain,
            &pos(fen),
            300 + i as u64,
            1000,
            |stack, p| {
                assert_eq!(seen[at], (*stack.current(&net, p), stack.evaluate(&net, p)));
                at += 1;
            },
        );
        assert_eq!(at, seen.len());
        nodes += at;
    }
    assert!(nodes > 3000, "{nodes}");

    // Each loop on random rows over the whole i16 range, where sums wrap.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut row = || -> Row { std::array::from_fn(|_| rng.random()) };
    for _ in 0..2000 {
        let (src, a, b, c) = (row(), row(), row(), row());
        let (mut x, mut y) = (src, src);
        simd::add(avx2, &mut x, &a);
        simd::add(Isa::BASELINE, &mut y, &a);
        assert_eq!(x, y);
        simd::add_sub(avx2, &mut x, &src, &a, &b);
        simd::add_sub(Isa::BASELINE, &mut y, &src, &a, &b);
        assert_eq!(x, y);
        simd::add_sub2(avx2, &mut x, &src, &a, &b, &c);
        simd::add_sub2(Isa::BASELINE, &mut y, &src, &a, &b, &c);
        assert_eq!(x, y);
        let mut w = [0i16; 2 * HIDDEN];
        w[..HIDDEN].copy_from_slice(&b);
        w[HIDDEN..].copy_from_slice(&c);
        assert_eq!(
            simd::screlu_dot(avx2, &src, &a, &w),
            simd::screlu_dot(Isa::BASELINE, &src, &a, &w)
        );
    }
}

fn valid_file() -> Vec<u8> {
    FloatNetwork::random(7).quantize().to_bytes()
}

/// `bytes` with its checksum recomputed, so that later checks are reached.
fn resealed(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len() - 8;
    let sum = fnv1a64(&bytes[..n]);
    bytes[n..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

#[test]
fn file_round_trip() {
    let net = FloatNetwork::random(7).quantize();
    let bytes = net.to_bytes();
    assert_eq!(bytes.len(), FILE_LEN);
    assert_eq!(&bytes[..4], b"JJNN");
    assert_eq!(Network::from_bytes(&bytes), Ok(net.clone()));
    assert_eq!(Network::from_bytes(&bytes).map(|n| n.to_bytes()), Ok(bytes));
    let p = pos(FENS[1]);
    assert_eq!(
        Network::from_bytes(&net.to_bytes()).map(|n| n.evaluate(&p)),
        Ok(net.evaluate(&p))
    );
    assert_eq!(Network::zeros().evaluate(&p), 0);
}

#[test]
fn dequantizing_and_quantizing_again_gives_the_same_network() {
    let mut net = FloatNetwork::random(11).quantize();
    // Extreme values as well as typical ones.
    net.l1_weights[3][5] = L1_LIMIT;
    net.l1_weights[4][6] = -L1_LIMIT;
    net.l2_weights[1][7] = -L2_LIMIT;
    net.l2_bias[2] = -123_456;
    let float = FloatNetwork::dequantize(&net);
    assert_eq!(float.quantize(), net);
    let p = pos(FENS[2]);
    assert!((float.evaluate(&p) - net.evaluate(&p) as f32).abs() < 10.0);
}

#[test]
fn bad_files_give_typed_errors() {
    let good = valid_file();
    let with = |at: usize, value: &[u8]| {
        let mut b = good.clone();
        b[at..at + value.len()].copy_from_slice(value);
        Network::from_bytes(&b)
    };
    assert_eq!(with(0, b"NNUE"), Err(NetworkError::BadMagic(*b"NNUE")));
    assert_eq!(
        with(4, &2u32.to_le_bytes()),
        Err(NetworkError::UnsupportedVersion(2))
    );
    let fields = [
        "feature set",
        "inputs",
        "hidden",
        "output buckets",
        "king buckets",
        "activation",
        "QA",
        "QB",
        "scale",
    ];
    for (i, field) in fields.into_iter().enumerate() {
        let at = 8 + 4 * i;
        let expected = u32::from_le_bytes(good[at..at + 4].try_into().unwrap());
        assert_eq!(
            with(at, &(expected + 1).to_le_bytes()),
            Err(NetworkError::Architecture {
                field,
                expected,
                found: expected + 1
            })
        );
    }
    let mut longer = good.clone();
    longer.push(0);
    assert_eq!(
        Network::from_bytes(&longer),
        Err(NetworkError::Size {
            expected: FILE_LEN,
            found: FILE_LEN + 1
        })
    );
    // One flipped bit in the payload.
    let mut flipped = good.clone();
    flipped[HEADER_LEN + 1000] ^= 4;
    assert!(matches!(
        Network::from_bytes(&flipped),
        Err(NetworkError::Checksum { .. })
    ));
    // Weights beyond the limits, with a correct checksum.
    let mut big = good.clone();
    big[HEADER_LEN + 2 * 5..HEADER_LEN + 2 * 6].copy_from_slice(&(L1_LIMIT + 1).to_le_bytes());
    assert_eq!(
        Network::from_bytes(&resealed(big)),
        Err(NetworkError::OutOfRange {
            what: "first-layer weight",
            index: 5,
            value: L1_LIMIT + 1
        })
    );
    let l2 = HEADER_LEN + 2 * (INPUTS * HIDDEN + HIDDEN);
    let mut big = good.clone();
    big[l2 + 2 * 3..l2 + 2 * 4].copy_from_slice(&(-L2_LIMIT - 1).to_le_bytes());
    assert_eq!(
        Network::from_bytes(&resealed(big)),
        Err(NetworkError::OutOfRange {
            what: "output weight",
            index: 3,
            value: -L2_LIMIT - 1
        })
    );
    for e in [
        with(0, b"NNUE"),
        Network::from_bytes(&longer),
        Network::from_bytes(&flipped),
    ] {
        assert!(e.is_err_and(|e| !e.to_string().is_empty()));
    }
}

#[test]
fn every_truncation_is_an_error() {
    let good = valid_file();
    for len in 0..good.len() {
        match Network::from_bytes(&good[..len]) {
            Err(NetworkError::TooShort { len: l, .. }) => assert!(l == len && len < HEADER_LEN),
            Err(NetworkError::Size { expected, found }) => {
                assert!(expected == FILE_LEN && found == len && len >= HEADER_LEN)
            }
            other => panic!("{len} bytes: {other:?}"),
        }
    }
}

#[test]
fn no_bytes_make_the_reader_panic() {
    let good = valid_file();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..2000 {
        // Noise of any length, sometimes behind a valid header.
        let len = rng.random_range(0..HEADER_LEN * 2);
        let mut b: Vec<u8> = (0..len).map(|_| rng.random()).collect();
        if rng.random() && len >= HEADER_LEN {
            b[..HEADER_LEN].copy_from_slice(&good[..HEADER_LEN]);
        }
        assert!(Network::from_bytes(&b).is_err());
    }
    for _ in 0..200 {
        // A valid file with random bytes changed and the checksum fixed: loads, or is refused
        // for its header or a weight out of range.
        let mut b = good.clone();
        for _ in 0..rng.random_range(1..20) {
            let at = rng.random_range(0..FILE_LEN - 8);
            b[at] = rng.random();
        }
        if let Ok(net) = Network::from_bytes(&resealed(b)) {
            // Whatever loads evaluates without panicking.
            for p in FENS.iter().map(|f| pos(f)) {
                net.evaluate(&p);
            }
        }
    }
    // The largest weights the limits allow, on the fullest board.
    let mut b = good.clone();
    for (i, chunk) in b[HEADER_LEN..FILE_LEN - 8 - 4 * OUTPUT_BUCKETS]
        .chunks_mut(2)
        .enumerate()
    {
        let limit = if i < INPUTS * HIDDEN + HIDDEN {
            L1_LIMIT
        } else {
            L2_LIMIT
        };
        chunk.copy_from_slice(&limit.to_le_bytes());
    }
    let net = Network::from_bytes(&resealed(b)).expect("limits are allowed");
    assert_eq!(
        net.evaluate(&Position::startpos()),
        crate::search::eval::EVAL_LIMIT
    );
}
