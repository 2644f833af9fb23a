//! Perft counts from tests/data/perft.txt (each verified by at least two independent
//! generators). Every depth up to ~5 million nodes runs here, plus the start position to
//! depth 5; deeper counts run with `cargo test --release -- --ignored`.

use jiangjun::board::{perft::perft, Position};

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/perft.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().expect("fen").trim().to_string();
            let counts = parts
                .map(|kv| {
                    let (d, n) = kv.trim().split_once('=').expect("D<n>=<count>");
                    (
                        d.trim_start_matches('D').parse().expect("depth"),
                        n.parse().expect("count"),
                    )
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

fn check(limit: impl Fn(u32, u64) -> bool) -> usize {
    let mut checked = 0;
    for case in cases() {
        let mut pos = Position::from_fen(&case.fen).expect("perft FEN parses");
        for &(depth, expected) in &case.counts {
            if limit(depth, expected) {
                assert_eq!(
                    perft(&mut pos, depth),
                    expected,
                    "{} depth {depth}",
                    case.fen
                );
                checked += 1;
            }
        }
        assert_eq!(pos.to_fen().split(' ').next(), case.fen.split(' ').next());
    }
    checked
}

#[test]
fn perft_suite_up_to_five_million() {
    let n = check(|_, count| count <= 5_500_000);
    assert!(n >= 90, "only {n} counts checked");
}

#[test]
fn perft_start_position_depth_5() {
    let mut pos = Position::startpos();
    assert_eq!(perft(&mut pos, 5), 133_312_995);
}

#[test]
#[ignore = "deep: billions of nodes; run with --ignored in release"]
fn perft_suite_deep() {
    check(|_, count| count > 5_500_000);
}
