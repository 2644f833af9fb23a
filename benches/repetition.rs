//! What the repetition rules cost. The search calls `repetition::score` at every node; it only
//! does real work when the position repeats, and then judges the cycle with
//! `rules::fast::judge_cycle` (cached per thread). Compare with `cargo bench --bench movegen`
//! (make/unmake is unchanged by the referee) and `jiangjun bench` (search nps).
//!
//! `cargo bench --bench repetition`

use criterion::{criterion_group, criterion_main, Criterion};
use jiangjun::board::Position;
use jiangjun::rules::classify::{classify_move, IdBoard, Options};
use jiangjun::rules::fast::{judge_cycle, judge_cycle_uncached};
use jiangjun::rules::{judge_game, RuleSet};
use jiangjun::search::repetition;
use std::hint::black_box;

/// Plays ICCS moves (the history records whether each gave check, as in the search).
fn play(fen: &str, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen).expect("fen");
    for m in moves {
        pos.play(m).expect("legal");
    }
    pos
}

/// Cycles of the test data, one period played twice (the position repeats at the end).
const CYCLES: [(&str, &str, &[&str]); 4] = [
    (
        "chase_cannon",
        "3k5/9/2c6/R8/9/9/9/9/9/4K4 w - - 0 1",
        &[
            "a6a7", "c7c6", "a7a6", "c6c7", "a6a7", "c7c6", "a7a6", "c6c7",
        ],
    ),
    (
        "cannon_on_rook_midgame",
        "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
        &[
            "c2a2", "a7b7", "a2b2", "b7a7", "b2a2", "a7b7", "a2b2", "b7a7", "b2a2",
        ],
    ),
    (
        "mutual_chase_8ply",
        "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1",
        &[
            "f6h6", "h8f7", "h6h7", "f7g5", "h7g7", "g5i6", "g7g6", "i6h8", "g6h6", "h8f7", "h6h7",
            "f7g5", "h7g7", "g5i6", "g7g6", "i6h8", "g6h6",
        ],
    ),
    (
        "perpetual_check",
        "4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1",
        &[
            "f5e5", "e9f9", "e5f5", "f9e9", "f5e5", "e9f9", "e5f5", "f9e9",
        ],
    ),
];

fn bench(c: &mut Criterion) {
    for (name, fen, moves) in CYCLES {
        let pos = play(fen, moves);
        let len = if name == "mutual_chase_8ply" { 8 } else { 4 };
        c.bench_function(&format!("judge_cycle_uncached/{name}"), |b| {
            b.iter(|| judge_cycle_uncached(black_box(&pos), len, RuleSet::Cxa2011))
        });
        c.bench_function(&format!("judge_cycle_cached/{name}"), |b| {
            b.iter(|| judge_cycle(black_box(&pos), len, RuleSet::Cxa2011))
        });
        c.bench_function(&format!("search_score_on_repetition/{name}"), |b| {
            b.iter(|| repetition::score(black_box(&pos), 5))
        });
        c.bench_function(&format!("referee_judge_game/{name}"), |b| {
            b.iter(|| judge_game(fen, black_box(moves), RuleSet::Cxa2011))
        });
    }
    // The price at every node without a repetition: the walk back to the last capture.
    let quiet: Vec<&str> = "h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 b0c2 a9b9 a0b0 c6c5 c3c4 h7h6 g3g4 g6g5"
        .split_whitespace()
        .collect();
    let pos = play(jiangjun::board::START_FEN, &quiet);
    c.bench_function("search_score_no_repetition/14_quiet_plies", |b| {
        b.iter(|| repetition::score(black_box(&pos), 5))
    });
    // One move's classification (the referee's unit of work).
    let pos = Position::from_fen(CYCLES[1].1).expect("fen");
    let ids = IdBoard::new(&pos);
    let m = pos.parse_move("c2a2").expect("legal");
    let mut p = pos.clone();
    c.bench_function("classify_move/referee", |b| {
        b.iter(|| classify_move(&mut p, black_box(m), &ids, &Options::REFEREE))
    });
    c.bench_function("classify_move/fast", |b| {
        b.iter(|| classify_move(&mut p, black_box(m), &ids, &Options::FAST))
    });
    // An idle rook move in a shuffling endgame: the common case in search, where the
    // mate-in-one test dominates.
    let pos = Position::from_fen("3aka3/9/4b4/9/2b6/9/9/9/4A4/R2AK4 w - - 0 1").expect("fen");
    let ids = IdBoard::new(&pos);
    let m = pos.parse_move("a0b0").expect("legal");
    let mut p = pos.clone();
    c.bench_function("classify_move/fast_endgame_idle", |b| {
        b.iter(|| classify_move(&mut p, black_box(m), &ids, &Options::FAST))
    });
    // 24.3 through an exchange (issue 19): the rook hits a cannon whose root the c0 cannon can
    // exchange off. What the referee's look-ahead (two exchanges) costs against none, and what
    // one exchange would cost the fast path.
    let pos = Position::from_fen("3a1a3/4k4/nc2b4/9/2n6/9/2P6/R8/9/2CK5 w - - 0 1").expect("fen");
    let ids = IdBoard::new(&pos);
    let m = pos.parse_move("a2b2").expect("legal");
    let mut p = pos.clone();
    let variants = [
        ("referee_exchange", Options::REFEREE),
        (
            "referee_exchange_off",
            Options {
                exchanges: 0,
                ..Options::REFEREE
            },
        ),
        ("fast_exchange_off", Options::FAST),
        (
            "fast_exchange_one",
            Options {
                exchanges: 1,
                ..Options::FAST
            },
        ),
    ];
    for (name, opts) in variants {
        c.bench_function(&format!("classify_move/{name}"), |b| {
            b.iter(|| classify_move(&mut p, black_box(m), &ids, &opts))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
