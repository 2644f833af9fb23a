//! `jiangjun bench` with a network: both evaluations side by side, and bad arguments refused
//! with exit status 2 and a message on stderr.

use crate::cli_support as support;

use jiangjun::search::nnue::FloatNetwork;
use support::run;

/// The node count of the bench's summary lines (`<nodes> nodes <nps> nps`).
fn summaries(out: &str) -> Vec<u64> {
    out.lines()
        .filter(|l| l.ends_with(" nps") && l.contains(" nodes "))
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect()
}

#[test]
fn bench_with_a_network_file_runs_both_evaluations() {
    let path = std::env::temp_dir().join(format!("jj-bench-{}.nnue", std::process::id()));
    std::fs::write(&path, FloatNetwork::random(4).quantize().to_bytes()).unwrap();
    let (code, out, err) = run(&["bench", "3", "--evalfile", path.to_str().unwrap()]);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 0, "{err}");
    let (plain_code, plain, _) = run(&["bench", "3"]);
    assert_eq!(plain_code, 0);
    let hand = summaries(&plain);
    let both = summaries(&out);
    // The hand-written run is the plain bench (same signature); the network's differs.
    assert_eq!(both.len(), 2, "{out}");
    assert_eq!(both[0], hand[0]);
    assert_ne!(both[1], both[0]);
    let last = out.lines().last().unwrap();
    let ratio: f64 = last
        .strip_prefix("network nps / hand-written nps = ")
        .and_then(|r| r.parse().ok())
        .unwrap_or_else(|| panic!("last line: {last}"));
    assert!(ratio > 0.0);
}

#[test]
fn bench_refuses_bad_network_arguments() {
    for args in [
        &["bench", "--evalfile", "/nonexistent/x.nnue"][..],
        &["bench", "3", "--evalfile", "Cargo.toml"],
        &["bench", "--random-network", "seven"],
        &["bench", "3", "4", "--random-network", "1"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(err.starts_with("jiangjun bench: "), "{args:?}: {err}");
    }
}
