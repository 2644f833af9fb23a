//! What a table probe costs the search: `TableSet::probe` on positions of `KR-KAABB` (material,
//! the colour-flipped board when Black holds the rook, the placement, the index, the entry),
//! beside a position with no table (the material check only); then `TableSet::probe_dtc` (the
//! value and the conversion distance, as the search asks) over random legal positions of the
//! table, its files held in memory and read from the files at each probe. The tables are made
//! first and written to a scratch folder (a few seconds), so the files are in the system's
//! cache: "on demand" is a positioned read from that cache, not from the disk. Compare with
//! `cargo bench --bench movegen` for the cost of a node.
//!
//! `cargo bench --bench tablebase`

use criterion::{criterion_group, criterion_main, Criterion};
use jiangjun::board::zobrist::splitmix64;
use jiangjun::board::{Color, Position};
use jiangjun::tablebase::generate::{generate_with_captures, Quiet};
use jiangjun::tablebase::{Material, TableSet};
use std::hint::black_box;
use std::path::Path;

/// Random positions probed in turn: more than a cache line's worth of the table apart.
const POSITIONS: usize = 4096;

/// `count` random legal positions of `material`'s table, either side to move.
fn random_positions(set: &TableSet, material: Material, count: usize) -> Vec<Position> {
    let t = set.get(material).expect("table");
    let mut seed = 1;
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        seed = splitmix64(seed);
        let side = Color::ALL[(seed >> 63) as usize];
        let board = t.layout.board(&t.layout.decode(seed % t.layout.size()));
        if let Some(pos) = board.and_then(|b| Position::from_placement(b, side, 0, 1).ok()) {
            out.push(pos);
        }
    }
    out
}

fn loaded(dir: &Path, memory: u64) -> TableSet {
    let mut set = TableSet::with_memory(memory);
    assert!(set.load_dir(dir).expect("folder").is_empty());
    set
}

fn probes(c: &mut Criterion) {
    let material = Material::parse("KR-KAABB").expect("signature");
    let dir = std::env::temp_dir().join(format!("jiangjun-bench-tb-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let mut set = TableSet::new();
    generate_with_captures(material, Some(&dir), &mut set, &Quiet, |_, _| {}).expect("tables");
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

    let positions = random_positions(&set, material, POSITIONS);
    let (held, on_disk) = (loaded(&dir, u64::MAX), loaded(&dir, 0));
    assert_eq!((held.on_demand(), on_disk.on_demand()), (0, on_disk.len()));
    for pos in &positions {
        assert_eq!(held.probe_dtc(pos), on_disk.probe_dtc(pos));
    }
    let mut group = c.benchmark_group("probe_dtc, random KR-KAABB positions");
    for (name, set) in [("in memory", &held), ("read on demand", &on_disk)] {
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % positions.len();
                set.probe_dtc(black_box(&positions[i]))
            })
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, probes);
criterion_main!(benches);
