//! `jiangjun bench` with a network: both evaluations side by side, and bad arguments refused
//! with exit status 2 and a message on stderr.

use crate::cli_support as support;

use jiangjun::eval::nnue::{FloatNetwork, DEFAULT_ON};
use support::run;

/// The node count of the bench's summary lines (`<nodes> nodes <nps> nps`).
fn summaries(out: &str) -> Vec<u64> {
    out.lines()
        .filter(|l| l.ends_with(" nps") && l.contains(" nodes "))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect()
}

/// The ratio on the last line of a side-by-side bench.
fn ratio(out: &str) -> f64 {
    let last = out.lines().last().unwrap();
    last.strip_prefix("network nps / hand-written nps = ")
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("last line: {last}"))
}

/// The node counts of `jiangjun bench 3` with `extra` arguments.
fn bench(extra: &[&str]) -> (Vec<u64>, String) {
    let args: Vec<&str> = ["bench", "3"].iter().chain(extra).copied().collect();
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{args:?}: {err}");
    (summaries(&out), out)
}

/// The signature, as Stockfish's CI checks its own: a change to the search that did not mean
/// to change the tree fails here, and one that did updates `tests/data/bench_signature`.
#[test]
fn the_bench_signature_is_the_recorded_one() {
    let recorded = include_str!("../data/bench_signature").trim();
    let (code, out, err) = run(&["bench"]);
    assert_eq!(code, 0, "{err}");
    let nodes = summaries(&out);
    assert_eq!(nodes.len(), 1, "{out}");
    assert_eq!(
        nodes[0].to_string(),
        recorded,
        "jiangjun bench counts {} nodes; tests/data/bench_signature says {recorded}",
        nodes[0]
    );
}

/// The strength levels (`UCI_Elo`) are node budgets whose Elo figures were measured in games
/// (issue 60: they drifted 190 Elo once the search and network improved under them). A change
/// to the search's signature or to the built-in network fails here until the levels are
/// measured again.
#[test]
fn the_strength_levels_were_measured_with_this_search_and_network() {
    use jiangjun::checksum::fnv1a64;
    use jiangjun::eval::nnue::embedded;
    use jiangjun::search::strength::MEASURED_WITH;
    let bench: u64 = include_str!("../data/bench_signature")
        .trim()
        .parse()
        .unwrap();
    let network = fnv1a64(embedded::bytes());
    assert!(
        MEASURED_WITH.bench == bench && MEASURED_WITH.network_fnv1a64 == network,
        "the strength levels were measured with Bench {} and the network {:016x}; this build \
         has Bench {bench} and the network {network:016x}, so every level now plays at another \
         strength. Run `python3 scripts/strength_levels.py --eleeye PATH` and copy its table's \
         measured column to LEVELS and the record it prints to MEASURED_WITH \
         (src/search/strength.rs; docs/strength.md, \"Strength levels\")",
        MEASURED_WITH.bench,
        MEASURED_WITH.network_fnv1a64
    );
}

#[test]
fn bench_with_a_network_file_runs_both_evaluations() {
    let path = std::env::temp_dir().join(format!("jj-bench-{}.nnue", std::process::id()));
    std::fs::write(&path, FloatNetwork::random(4).quantize().to_bytes()).unwrap();
    let (both, out) = bench(&["--evalfile", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    let (hand, _) = bench(&["--handwritten"]);
    // The hand-written run is the hand-written bench (same signature); the network's differs.
    assert_eq!(both.len(), 2, "{out}");
    assert_eq!(both[0], hand[0]);
    assert_ne!(both[1], both[0]);
    assert!(ratio(&out) > 0.0);
}

#[test]
fn bench_nnue_compares_with_the_built_in_network_and_the_plain_bench_is_the_default() {
    let (both, out) = bench(&["--nnue"]);
    let (hand, _) = bench(&["--handwritten"]);
    let (plain, _) = bench(&[]);
    assert_eq!(both.len(), 2, "{out}");
    assert_eq!(both[0], hand[0]);
    assert_ne!(both[1], both[0]);
    assert!(ratio(&out) > 0.0);
    // The plain bench searches with the engine's default evaluation.
    let default = if DEFAULT_ON { both[1] } else { hand[0] };
    assert_eq!(plain, [default]);
}

/// The table's use, from the line before a run's summary: (probes, hits, cutoffs).
fn table_use(out: &str) -> Vec<(u64, u64, u64)> {
    out.lines()
        .filter_map(|l| l.strip_prefix("table: "))
        .map(|l| {
            let n: Vec<u64> = l.split([' ', ',']).filter_map(|w| w.parse().ok()).collect();
            (n[0], n[1], n[2])
        })
        .collect()
}

#[test]
fn bench_reports_the_tables_use_and_takes_a_table_size() {
    let (nodes, out) = bench(&[]);
    let table = table_use(&out);
    assert_eq!(table.len(), 1, "{out}");
    let (probes, hits, cutoffs) = table[0];
    assert!(probes > 0 && hits <= probes && cutoffs <= hits, "{out}");
    // The summary stays the last line; the table's line comes just before it.
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[lines.len() - 2].starts_with("table: "), "{out}");
    // A table of 1 MB holds a depth-3 search whole: the same tree.
    let (small, out) = bench(&["--hash", "1"]);
    assert_eq!(small, nodes, "{out}");
    for bad in ["0", "-1", "lots", "99999999999"] {
        let (code, out, err) = run(&["bench", "3", "--hash", bad]);
        assert_eq!(code, 2, "{bad}: {out}");
        assert!(err.starts_with("jiangjun bench: "), "{bad}: {err}");
    }
}

#[test]
fn bench_refuses_bad_network_arguments() {
    for args in [
        &["bench", "--evalfile", "/nonexistent/x.nnue"][..],
        &["bench", "3", "--evalfile", "Cargo.toml"],
        &["bench", "--random-network", "seven"],
        &["bench", "3", "4", "--random-network", "1"],
        &["bench", "--nnue", "--handwritten"],
        &["bench", "--nnue", "--random-network", "1"],
        &["bench", "--evalfile", "x", "--handwritten"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.starts_with("jiangjun bench: "), "{args:?}: {err}");
    }
}
