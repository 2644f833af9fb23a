//! What a table probe costs the search: `TableSet::probe` on positions of `KR-KAABB` (material,
//! the colour-flipped board when Black holds the rook, the placement, the index, the entry),
//! beside a position with no table (the material check only). The tables are made in memory
//! first (a few seconds). Compare with `cargo bench --bench movegen` for the cost of a node.
//!
//! `cargo bench --bench tablebase`

use criterion::{criterion_group, criterion_main, Criterion};
use jiangjun::board::Position;
use jiangjun::tablebase::generate::generate_in_memory;
use jiangjun::tablebase::Material;
use std::hint::black_box;

fn probes(c: &mut Criterion) {
    let set = generate_in_memory(Material::parse("KR-KAABB").expect("signature"));
    let red = Position::from_fen("2bak1b2/9/9/9/R8/9/9/9/9/3K5 w - - 0 1").expect("fen");
    let black = Position::from_fen("3k5/9/9/9/9/r8/9/9/9/2BAKAB2 b - - 0 1").expect("fen");
    let none = Position::startpos();
    assert!(set.probe(&red).is_some() && set.probe(&black).is_some());
    c.bench_function("probe KR-KAABB, Red holds the rook", |b| {
        b.iter(|| set.probe(black_box(&red)))
    });
    c.bench_function("probe KR-KAABB, Black holds the rook", |b| {
        b.iter(|| set.probe(black_box(&black)))
    });
    c.bench_function("probe the start position (no table)", |b| {
        b.iter(|| set.probe(black_box(&none)))
    });
}

criterion_group!(benches, probes);
criterion_main!(benches);
