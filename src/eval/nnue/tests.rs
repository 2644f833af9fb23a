//! Network tests: incremental accumulators against full refreshes over random games, quantized
//! against float inference, colour and mirror symmetry, both compiled loop versions against
//! each other, and the file format against every kind of bad file.
//!
//! The networks here are `FloatNetwork::random_for`: real networks of each architecture (v1,
//! and v2 with king buckets at two widths) with untrained (random) weights, so the tests check
//! the arithmetic, not playing strength.

use super::network::{FILE_LEN, HEADER_LEN, HIDDEN};
use super::quant::{L1_LIMIT, L2_LIMIT, QA, QB};
use super::simd::{self, Block, Isa, BLOCK_LEN};
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

/// A v2 architecture: king buckets, `hidden` neurons.
fn v2(hidden: usize) -> Architecture {
    Architecture::new(FeatureSet::KingBuckets, hidden).unwrap()
}

/// The architectures the arithmetic tests run: v1, v2 at the intended width, and a narrow v2
/// and a wider plain network (widths other than 256 exercise the block loops' lengths).
fn architectures() -> [Architecture; 4] {
    [
        Architecture::V1,
        v2(512),
        v2(32),
        Architecture::new(FeatureSet::Plain, 288).unwrap(),
    ]
}

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
fn check_against_refresh(
    arch: Architecture,
    net_seed: u64,
    walk_seed: u64,
    check_one_in: u32,
) -> usize {
    let net = FloatNetwork::random_for(arch, net_seed).quantize();
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
                    let fresh = Color::ALL.map(|c| Accumulator::refresh(&net, isa, p, c).values);
                    let current = stack.current(&net, p);
                    assert!(current == [&fresh[0][..], &fresh[1][..]], "{}", p.to_fen());
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
    for arch in architectures() {
        let nodes = check_against_refresh(arch, 1, 100, 1);
        assert!(nodes > 5000, "{arch}: {nodes} nodes");
    }
}

#[test]
fn lazy_updates_over_several_plies_equal_a_full_refresh() {
    // Evaluating only now and then leaves several pushes pending at once, some of them moves
    // of a general (a rebuild from the cache in v2).
    for arch in architectures() {
        let checked = check_against_refresh(arch, 2, 200, 5);
        assert!(checked > 500, "{arch}: {checked}");
    }
}

#[test]
fn the_walks_move_the_generals_often() {
    // The v2 rebuild path is only tested if the walks move generals: count those moves.
    let net = Network::zeros();
    let mut stack = AccumulatorStack::new();
    let mut king_moves = 0;
    for (i, fen) in FENS.iter().enumerate() {
        walk(&net, &mut stack, &pos(fen), 100 + i as u64, 1500, |_, p| {
            let last = p.history().last().and_then(|st| st.mv);
            if let Some(m) = last {
                let moved = p.piece_at(m.to()).map(|pc| pc.kind());
                king_moves += usize::from(moved == Some(crate::board::PieceKind::King));
            }
        });
    }
    assert!(king_moves > 200, "{king_moves}");
}

#[test]
fn a_stack_never_refreshed_evaluates_from_scratch() {
    for arch in architectures() {
        let net = FloatNetwork::random_for(arch, 3).quantize();
        let mut p = Position::startpos();
        let mut stack = AccumulatorStack::new();
        stack.push_move(&p, p.legal_moves()[0]);
        p.make_move(p.legal_moves()[0]);
        assert_eq!(stack.evaluate(&net, &p), net.evaluate(&p));
        stack.pop();
        stack.pop();
        assert_eq!(stack.depth(), 0);
    }
}

#[test]
fn a_stack_follows_a_change_of_network() {
    // One stack, refreshed with networks of different widths in turn (a search after an
    // `evalfile` change), evaluates each exactly.
    let mut stack = AccumulatorStack::new();
    let p = pos(FENS[1]);
    for arch in architectures().into_iter().chain(architectures()) {
        let net = FloatNetwork::random_for(arch, 8).quantize();
        stack.refresh(&net, &p);
        assert_eq!(stack.evaluate(&net, &p), net.evaluate(&p), "{arch}");
        // Without a refresh: a stack sized for another width starts over.
        let other = FloatNetwork::random_for(v2(64), 8).quantize();
        assert_eq!(stack.evaluate(&other, &p), other.evaluate(&p), "{arch}");
    }
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
fn on_the_grid(arch: Architecture, seed: u64) -> FloatNetwork {
    let mut f = FloatNetwork::random_for(arch, seed);
    let snap = |v: &mut Vec<f32>, scale: i32| {
        for w in v.iter_mut() {
            *w = (*w * scale as f32).round() / scale as f32;
        }
    };
    snap(&mut f.l1_weights, QA);
    snap(&mut f.l1_bias, QA);
    snap(&mut f.l2_weights, QB);
    snap(&mut f.l2_bias, QA * QB);
    f
}

#[test]
fn quantized_inference_computes_the_float_network() {
    // With weights on the quantization grid the integer arithmetic is exact up to the final
    // truncating division: within 1 cp (plus float rounding).
    let positions = sample_positions(400);
    for seed in 10..13 {
        let (mean, worst, size) =
            quantization_error(&on_the_grid(Architecture::V1, seed), &positions);
        assert!(
            worst < 1.5,
            "seed {seed}: mean {mean}, worst {worst} (|eval| {size})"
        );
    }
    for arch in architectures() {
        let (mean, worst, size) = quantization_error(&on_the_grid(arch, 10), &positions);
        assert!(
            worst < 1.5,
            "{arch}: mean {mean}, worst {worst} (|eval| {size})"
        );
    }
}

#[test]
fn quantization_error_is_small() {
    // Arbitrary float weights: rounding the output weights to 1/64 and the first layer to
    // 1/255 costs 12-14 cp on average (worst 39-54 cp) on these random networks, whose
    // evaluations average 265-531 cp in size. The absolute error comes from the grids (QB = 64
    // dominates), so a trained network with larger weights loses relatively less.
    // The random networks of other widths are scaled to spread alike (see `random_for`).
    let positions = sample_positions(400);
    for seed in 10..13 {
        for arch in [Architecture::V1, v2(512)] {
            let float = FloatNetwork::random_for(arch, seed);
            let (mean, worst, size) = quantization_error(&float, &positions);
            assert!(
                mean < 16.0 && worst < 70.0,
                "{arch} seed {seed}: mean {mean}, worst {worst} (|eval| {size})"
            );
        }
    }
}

#[test]
fn colour_rotation_gives_exactly_the_same_evaluation() {
    for arch in architectures() {
        let float = FloatNetwork::random_for(arch, 4);
        let net = float.quantize();
        for p in sample_positions(250) {
            let flipped = colour_rotated(&p);
            assert_eq!(net.evaluate(&p), net.evaluate(&flipped), "{}", p.to_fen());
            let (a, b) = (float.evaluate(&p), float.evaluate(&flipped));
            assert!((a - b).abs() < 1e-3, "{a} {b} on {}", p.to_fen());
        }
    }
}

#[test]
fn king_buckets_see_a_mirrored_board_alike_when_the_generals_are_off_the_centre_file() {
    // A general on the f-file reads the board mirrored onto the d-file's bucket, so mirroring a
    // position whose two generals both stand off the e-file gives both perspectives the same
    // features: the evaluation is exactly the same. With a general on the e-file it is not.
    let net = FloatNetwork::random_for(v2(64), 12).quantize();
    let (mut same, mut centre_differs) = (0, 0);
    for p in sample_positions(1000) {
        let m = mirror(&p);
        let off_centre = Color::ALL.iter().all(|&c| p.king_square(c).file() != 4);
        if off_centre {
            assert_eq!(net.evaluate(&p), net.evaluate(&m), "{}", p.to_fen());
            same += 1;
        } else {
            centre_differs += usize::from(net.evaluate(&p) != net.evaluate(&m));
        }
    }
    assert!(
        same > 100 && centre_differs > 100,
        "{same} {centre_differs}"
    );
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
fn a_widened_network_evaluates_as_the_one_it_grew_from() {
    // The new neurons start with zero output weights and every king bucket with the plain
    // rows: the quantized evaluation is the same wherever no general reads a mirrored board.
    let plain = on_the_grid(Architecture::V1, 21);
    let before = plain.quantize();
    let wider = plain
        .widen(Architecture::new(FeatureSet::Plain, 320).unwrap(), 1)
        .unwrap();
    let kings = plain.widen(v2(512), 1).unwrap();
    let (wider, kings) = (wider.quantize(), kings.quantize());
    let (mut compared, mut mirrored) = (0, 0);
    for p in sample_positions(600) {
        assert_eq!(before.evaluate(&p), wider.evaluate(&p), "{}", p.to_fen());
        let reads_mirrored = Color::ALL
            .iter()
            .any(|&c| features::king_point(p.king_square(c), c) % 3 == 2);
        if reads_mirrored {
            mirrored += 1;
        } else {
            assert_eq!(before.evaluate(&p), kings.evaluate(&p), "{}", p.to_fen());
            compared += 1;
        }
    }
    assert!(compared > 500 && mirrored > 100, "{compared} {mirrored}");
    // A mirror-symmetric network sees the mirrored board alike: the same everywhere.
    let symmetric = mirror_symmetric(6);
    let kings = symmetric.widen(v2(256), 2).unwrap().quantize();
    let symmetric = symmetric.quantize();
    for p in sample_positions(200) {
        assert_eq!(symmetric.evaluate(&p), kings.evaluate(&p), "{}", p.to_fen());
    }
}

#[test]
fn widening_gives_new_neurons_to_train_and_refuses_to_shrink() {
    let plain = FloatNetwork::random(3);
    let kings = plain.widen(v2(512), 4).unwrap();
    assert_eq!(kings.arch, v2(512));
    // Neurons 256.. have first-layer weights (from the seed) and no output weights yet.
    let row = &kings.l1_weights[7000 * 512..7001 * 512];
    assert!(row[256..].iter().any(|&w| w != 0.0));
    assert!(kings
        .l2_weights
        .chunks(512)
        .all(|half| half[256..].iter().all(|&w| w == 0.0)));
    assert_eq!(kings, plain.widen(v2(512), 4).unwrap(), "seeded");
    assert_ne!(kings, plain.widen(v2(512), 5).unwrap());
    // Growing from kings to kings keeps the buckets apart.
    let again = kings.widen(v2(576), 6).unwrap();
    assert_eq!(
        again.l1_weights[7000 * 576 + 3],
        kings.l1_weights[7000 * 512 + 3]
    );
    assert!(plain
        .widen(Architecture::new(FeatureSet::Plain, 192).unwrap(), 1)
        .is_none());
    assert!(kings.widen(Architecture::V1, 1).is_none());
    assert!(kings
        .widen(Architecture::new(FeatureSet::Plain, 1024).unwrap(), 1)
        .is_none());
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
    let mut nodes = 0;
    for (arch, (i, fen)) in architectures()
        .into_iter()
        .flat_map(|a| FENS.iter().enumerate().map(move |f| (a, f)))
    {
        let net = FloatNetwork::random_for(arch, 6).quantize();
        let mut seen = Vec::new();
        let mut fast = AccumulatorStack::with_isa(avx2);
        walk(
            &net,
            &mut fast,
            &pos(fen),
            300 + i as u64,
            1000,
            |stack, p| {
                let acc = stack.current(&net, p).map(|a| a.to_vec());
                seen.push((acc, stack.evaluate(&net, p)));
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
                let acc = stack.current(&net, p).map(|a| a.to_vec());
                assert_eq!(seen[at], (acc, stack.evaluate(&net, p)));
                at += 1;
            },
        );
        assert_eq!(at, seen.len());
        nodes += at;
    }
    assert!(nodes > 12000, "{nodes}");

    // Each loop on random rows over the whole i16 range, where sums wrap, at several widths.
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for _ in 0..2000 {
        let blocks = rng.random_range(1..=32);
        let mut row = || -> Vec<Block> {
            (0..blocks)
                .map(|_| Block(std::array::from_fn(|_| rng.random())))
                .collect()
        };
        let (src, a, b, c) = (row(), row(), row(), row());
        let (mut x, mut y) = (src.clone(), src.clone());
        simd::add(avx2, &mut x, &a);
        simd::add(Isa::BASELINE, &mut y, &a);
        assert_eq!(x, y);
        simd::sub(avx2, &mut x, &b);
        simd::sub(Isa::BASELINE, &mut y, &b);
        assert_eq!(x, y);
        simd::add_sub(avx2, &mut x, &src, &a, &b);
        simd::add_sub(Isa::BASELINE, &mut y, &src, &a, &b);
        assert_eq!(x, y);
        simd::add_sub2(avx2, &mut x, &src, &a, &b, &c);
        simd::add_sub2(Isa::BASELINE, &mut y, &src, &a, &b, &c);
        assert_eq!(x, y);
        let w: Vec<Block> = b.iter().chain(&c).copied().collect();
        assert_eq!(
            simd::screlu_dot(avx2, &src, &a, &w),
            simd::screlu_dot(Isa::BASELINE, &src, &a, &w)
        );
    }
}

#[test]
fn the_dot_product_is_exact_at_the_largest_width() {
    // Every neuron saturated and every output weight at its limit, at the widest first layer
    // a file may have: the sum is what i64 arithmetic gives, with no i32 overflow on the way.
    let blocks = network::MAX_HIDDEN / BLOCK_LEN;
    let acc = vec![Block([QA as i16; BLOCK_LEN]); blocks];
    let w = vec![Block([L2_LIMIT; BLOCK_LEN]); 2 * blocks];
    let term = i64::from(QA) * i64::from(QA) * i64::from(L2_LIMIT);
    let expected = term * 2 * network::MAX_HIDDEN as i64;
    for isa in [Some(Isa::BASELINE), Isa::avx2()].into_iter().flatten() {
        assert_eq!(
            simd::screlu_dot(isa, &acc, &acc, &w),
            expected,
            "{}",
            isa.name()
        );
        let neg = vec![Block([-L2_LIMIT; BLOCK_LEN]); 2 * blocks];
        assert_eq!(simd::screlu_dot(isa, &acc, &acc, &neg), -expected);
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
    assert_eq!(
        Network::from_bytes(&bytes).map(|n| n.to_bytes()),
        Ok(bytes.clone())
    );
    let p = pos(FENS[1]);
    assert_eq!(
        Network::from_bytes(&net.to_bytes()).map(|n| n.evaluate(&p)),
        Ok(net.evaluate(&p))
    );
    assert_eq!(Network::zeros().evaluate(&p), 0);
    // Version 1 is written for the v1 architecture, version 2 for every other.
    assert_eq!(bytes[4..8], 1u32.to_le_bytes());
    for arch in architectures().into_iter().skip(1) {
        let net = FloatNetwork::random_for(arch, 7).quantize();
        let bytes = net.to_bytes();
        assert_eq!(bytes.len(), arch.file_len());
        assert_eq!(bytes[4..8], 2u32.to_le_bytes());
        let back = Network::from_bytes(&bytes).unwrap();
        assert_eq!(back.architecture(), arch);
        assert!(back == net && back.to_bytes() == bytes);
        assert_eq!(back.evaluate(&p), net.evaluate(&p));
    }
    // A version 2 header may describe the v1 architecture; it loads as v1.
    let mut v1_as_v2 = net.to_bytes();
    v1_as_v2[4..8].copy_from_slice(&2u32.to_le_bytes());
    assert_eq!(Network::from_bytes(&resealed(v1_as_v2)), Ok(net));
}

#[test]
fn dequantizing_and_quantizing_again_gives_the_same_network() {
    for arch in architectures() {
        let mut net = FloatNetwork::random_for(arch, 11).quantize();
        // Extreme values as well as typical ones.
        net.l1_weights[3].0[5] = L1_LIMIT;
        net.l1_weights[4].0[6] = -L1_LIMIT;
        net.l2_weights[1].0[7] = -L2_LIMIT;
        net.l2_bias[2] = -123_456;
        let float = FloatNetwork::dequantize(&net);
        assert_eq!(float.arch, arch);
        assert_eq!(float.quantize(), net);
        let p = pos(FENS[2]);
        assert!((float.evaluate(&p) - net.evaluate(&p) as f32).abs() < 10.0);
    }
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
        with(4, &3u32.to_le_bytes()),
        Err(NetworkError::UnsupportedVersion(3))
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
    // Version 2 headers: an unknown feature set, widths this build cannot run, and fields
    // that disagree with the feature set.
    let v2_file = FloatNetwork::random_for(v2(64), 7).quantize().to_bytes();
    let v2_with = |at: usize, value: u32| {
        let mut b = v2_file.clone();
        b[at..at + 4].copy_from_slice(&value.to_le_bytes());
        Network::from_bytes(&b)
    };
    assert_eq!(v2_with(8, 3), Err(NetworkError::UnknownFeatureSet(3)));
    for hidden in [0, 48, 1056, u32::MAX] {
        assert_eq!(v2_with(16, hidden), Err(NetworkError::Hidden(hidden)));
    }
    assert!(matches!(
        v2_with(16, 96),
        Err(NetworkError::Size { expected, .. }) if expected == v2(96).file_len()
    ));
    assert_eq!(
        v2_with(12, INPUTS as u32),
        Err(NetworkError::Architecture {
            field: "inputs",
            expected: (KING_BUCKETS * INPUTS) as u32,
            found: INPUTS as u32
        })
    );
    assert_eq!(
        v2_with(24, 1),
        Err(NetworkError::Architecture {
            field: "king buckets",
            expected: KING_BUCKETS as u32,
            found: 1
        })
    );
    for e in [
        with(0, b"NNUE"),
        v2_with(8, 3),
        v2_with(16, 48),
        Network::from_bytes(&longer),
        Network::from_bytes(&flipped),
    ] {
        assert!(e.is_err_and(|e| !e.to_string().is_empty()));
    }
}

#[test]
fn every_truncation_is_an_error() {
    for good in [
        valid_file(),
        FloatNetwork::random_for(v2(32), 7).quantize().to_bytes(),
    ] {
        for len in 0..good.len() {
            match Network::from_bytes(&good[..len]) {
                Err(NetworkError::TooShort { len: l, .. }) => {
                    assert!(l == len && len < HEADER_LEN)
                }
                Err(NetworkError::Size { expected, found }) => {
                    assert!(expected == good.len() && found == len && len >= HEADER_LEN)
                }
                other => panic!("{len} bytes: {other:?}"),
            }
        }
    }
}

#[test]
fn no_bytes_make_the_reader_panic() {
    for arch in [Architecture::V1, v2(32)] {
        no_bytes_make_the_reader_panic_for(arch);
    }
}

fn no_bytes_make_the_reader_panic_for(arch: Architecture) {
    let good = FloatNetwork::random_for(arch, 7).quantize().to_bytes();
    let file_len = good.len();
    let (inputs, hidden) = (arch.inputs(), arch.hidden());
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
            let at = rng.random_range(0..file_len - 8);
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
    for (i, chunk) in b[HEADER_LEN..file_len - 8 - 4 * OUTPUT_BUCKETS]
        .chunks_mut(2)
        .enumerate()
    {
        let limit = if i < inputs * hidden + hidden {
            L1_LIMIT
        } else {
            L2_LIMIT
        };
        chunk.copy_from_slice(&limit.to_le_bytes());
    }
    let net = Network::from_bytes(&resealed(b)).expect("limits are allowed");
    assert_eq!(net.evaluate(&Position::startpos()), crate::eval::EVAL_LIMIT);
}
