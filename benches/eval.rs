//! Evaluation speed: `evaluate` on a few positions, and over every perft position in one
//! iteration (`cargo bench --bench eval`). The search calls it at every leaf, so a
//! middlegame position should stay well under a microsecond.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use jiangjun::board::Position;
use jiangjun::search::eval::evaluate;

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

criterion_group!(benches, bench);
criterion_main!(benches);
