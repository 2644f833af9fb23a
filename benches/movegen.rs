//! Move generation speed: legal move lists, bulk counting, make/unmake, and perft(4) of a few
//! positions from tests/data/perft.txt. Compare runs side by side (`cargo bench --bench
//! movegen`, criterion reports the change against the previous run).

use criterion::{criterion_group, criterion_main, Criterion};
use jiangjun::board::{perft::perft, Position};
use std::hint::black_box;

const FENS: [(&str, &str); 3] = [
    (
        "start",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ),
    (
        "middlegame",
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    ),
    (
        "checks",
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    ),
];

fn bench(c: &mut Criterion) {
    for (name, fen) in FENS {
        let pos = Position::from_fen(fen).unwrap();
        c.bench_function(&format!("legal_moves/{name}"), |b| {
            b.iter(|| black_box(&pos).legal_moves())
        });
        c.bench_function(&format!("count_legal/{name}"), |b| {
            b.iter(|| black_box(&pos).count_legal())
        });
        let moves = pos.legal_moves();
        let mut p = pos.clone();
        c.bench_function(&format!("make_unmake_all/{name}"), |b| {
            b.iter(|| {
                for &m in &moves {
                    p.make_move(m);
                    p.unmake_move();
                }
            })
        });
        let mut p = pos.clone();
        c.bench_function(&format!("perft4/{name}"), |b| {
            b.iter(|| perft(black_box(&mut p), 4))
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
