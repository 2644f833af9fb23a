//! Evaluation speed: `evaluate` on a few positions, and over every perft position in one
//! iteration (`cargo bench --bench eval`). The search calls it at every leaf, so a
//! middlegame position should stay well under a microsecond.
//!
//! `cargo bench --bench eval -- line/` compares, side by side on the positions of one game
//! line, the hand-written evaluation, the network from scratch (both accumulators refreshed)
//! and the network as the search will use it (push the move, evaluate, pop later), with each
//! compiled version of the network's loops, for the v1 network (1260 → 256) and the v2
//! architecture (king buckets, 7560 → 512). The networks are random (untrained): their cost
//! does not depend on the weights.

use criterion::Throughput;
use criterion::{criterion_group, criterion_main, Criterion};
use jiangjun::board::{Move, Position};
use jiangjun::eval::evaluate;
use jiangjun::eval::nnue::simd::Isa;
use jiangjun::eval::nnue::{AccumulatorStack, Architecture, FeatureSet, FloatNetwork};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const FENS: [(&str, &str); 4] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "middlegame",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    ),
    (
        "sharp",
        "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    ),
    (
        "endgame",
        "3k5/9/4b4/3P5/2b6/2B3B2/5p1N1/9/4K4/3A1A3 w - - 0 1",
    ),
];

fn bench(c: &mut Criterion) {
    for (name, fen) in FENS {
        let pos = Position::from_fen(fen).unwrap();
        c.bench_function(&format!("evaluate/{name}"), |b| {
            b.iter(|| evaluate(black_box(&pos)))
        });
    }
    let all: Vec<Position> = include_str!("../tests/data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(';').next())
        .filter_map(|f| Position::from_fen(f.trim()).ok())
        .collect();
    c.bench_function(&format!("evaluate/perft_suite_{}", all.len()), |b| {
        b.iter(|| all.iter().map(|p| evaluate(black_box(p))).sum::<i32>())
    });
}

/// The positions of a seeded random game from the middlegame position, each with the move
/// played from it (the last position has none).
fn game_line(plies: usize) -> Vec<(Position, Option<Move>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut p = Position::from_fen(FENS[1].1).unwrap();
    p.clear_history();
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.random_range(0..moves.len())];
        line.push((p.clone(), Some(m)));
        p.make_move(m);
    }
    line.push((p, None));
    line
}

fn line(c: &mut Criterion) {
    let line = game_line(64);
    // v2_256 is the built-in network's shape since round 8; v2_512 the widest trained so far.
    let kings = |hidden| Architecture::new(FeatureSet::KingBuckets, hidden).unwrap();
    let nets = [
        ("v1", FloatNetwork::random(1).quantize()),
        ("v2_256", FloatNetwork::random_for(kings(256), 1).quantize()),
        ("v2_512", FloatNetwork::random_for(kings(512), 1).quantize()),
    ];
    let mut group = c.benchmark_group("line");
    group.throughput(Throughput::Elements(line.len() as u64));
    group.bench_function("hand_written", |b| {
        b.iter(|| {
            line.iter()
                .map(|(p, _)| evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
    for (name, net) in &nets {
        group.bench_function(format!("network_refresh_{name}"), |b| {
            b.iter(|| {
                line.iter()
                    .map(|(p, _)| net.evaluate(black_box(p)))
                    .sum::<i32>()
            })
        });
    }
    for ((name, net), isa) in nets.iter().flat_map(|n| {
        [Some(Isa::BASELINE), Isa::avx2()]
            .into_iter()
            .flatten()
            .map(move |i| (n, i))
    }) {
        let mut stack = AccumulatorStack::with_isa(isa);
        stack.refresh(net, &line[0].0);
        group.bench_function(format!("network_incremental_{name}_{}", isa.name()), |b| {
            b.iter(|| {
                let mut sum = 0;
                for (p, m) in &line {
                    sum += stack.evaluate(net, black_box(p));
                    if let Some(m) = m {
                        stack.push_move(p, *m);
                    }
                }
                for _ in 1..line.len() {
                    stack.pop();
                }
                sum
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench, line);
criterion_main!(benches);
