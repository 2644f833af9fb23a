//! The network options through the real binary: `evalfile` / `usennue` (UCCI) and `EvalFile` /
//! `Use NNUE` (UCI). `usennue` alone evaluates with the built-in network; a good file (of
//! either format version) changes the evaluation and `<built-in>` brings the built-in network back; a missing, truncated,
//! wrong-magic, wrong-version or corrupt file gives an `info string` naming it and the engine
//! keeps the evaluation it had.

use crate::protocol_support as support;

use jiangjun::board::Position;
use jiangjun::engine::Evaluation;
use jiangjun::eval::nnue::{
    Architecture, FeatureSet, FloatNetwork, Network, BUILT_IN_NAME, DEFAULT_ON,
};
use jiangjun::search::limits::Limits;
use std::path::PathBuf;
use std::sync::Arc;
use support::*;

/// A random network with king buckets and 96 neurons (format version 2).
fn kings_network() -> Arc<Network> {
    let arch = Architecture::new(FeatureSet::KingBuckets, 96).unwrap();
    Arc::new(FloatNetwork::random_for(arch, 22).quantize())
}

/// A scratch folder with random networks and broken copies of one.
struct Files {
    dir: PathBuf,
}

impl Files {
    fn new(tag: &str) -> Files {
        let dir = std::env::temp_dir().join(format!("jj-evalfile-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = FloatNetwork::random(21).quantize().to_bytes();
        let mut magic = good.clone();
        magic[..4].copy_from_slice(b"NNUE");
        let mut version = good.clone();
        version[4] = 3;
        let mut corrupt = good.clone();
        corrupt[5000] ^= 0x40;
        for (name, bytes) in [
            ("good.nnue", &good[..]),
            ("truncated.nnue", &good[..good.len() / 2]),
            ("magic.nnue", &magic[..]),
            ("version.nnue", &version[..]),
            ("corrupt.nnue", &corrupt[..]),
            ("kings.nnue", &kings_network().to_bytes()[..]),
        ] {
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        Files { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `go depth 4` from the start on a cleared table: the last reported score and the best move.
fn search(e: &mut Engine) -> (i64, String) {
    e.send_all(&["setoption newgame", "position startpos", "go depth 4"]);
    let got = e.until_answer();
    let score = got
        .iter()
        .rev()
        .filter(|l| l.text.starts_with("info depth"))
        .find_map(|l| info_field(&l.text, "score"))
        .expect("an info line with a score");
    let best = got.last().unwrap().text.clone();
    assert_legal_bestmove(&best, &Position::startpos());
    (score, best)
}

/// Asks `isready`; some line printed before `readyok` must contain all of `parts`.
fn says(e: &mut Engine, parts: &[&str]) {
    let said = e.sync();
    assert!(
        said.iter().any(|l| parts.iter().all(|p| l.contains(p))),
        "{parts:?} not in {said:?}"
    );
}

/// Files for test `tag` and an engine after the handshake `hello` → `ok`, which must announce
/// the two `options`.
fn start(tag: &str, hello: &str, ok: &str, options: [&String; 2]) -> (Files, Engine) {
    let files = Files::new(tag);
    let mut e = Engine::start();
    e.send(hello);
    let lines = e.until_exact(ok);
    for o in options {
        assert!(lines.iter().any(|l| &l.text == o), "{o} not announced");
    }
    (files, e)
}

/// The score of `go depth 4` from the start searched in this process, with `evaluation`:
/// what the binary must print for the same evaluation.
fn library_score(evaluation: &Evaluation) -> i64 {
    let mut e = jiangjun::engine::Engine::new();
    e.set_evaluation(evaluation);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    i64::from(e.search_blocking(limits, |_| {}).score)
}

#[test]
fn ucci_evalfile_built_in_good_and_bad_files() {
    let (files, mut e) = start(
        "ucci",
        "ucci",
        "ucciok",
        [
            &format!("option evalfile type string default {BUILT_IN_NAME}"),
            &format!("option usennue type check default {DEFAULT_ON}"),
        ],
    );

    // Whatever the default, usennue chooses: off is the hand-written evaluation, on (with no
    // evalfile sent) the built-in network, each scoring exactly as the library does.
    e.send("setoption usennue false");
    let (hand, _) = search(&mut e);
    assert_eq!(hand, library_score(&Evaluation::HandWritten));
    e.send("setoption usennue true");
    let said = e.sync();
    assert!(said.iter().all(|l| !l.contains("no network")), "{said:?}");
    let (built_in, _) = search(&mut e);
    assert_eq!(built_in, library_score(&Evaluation::built_in().unwrap()));
    assert_ne!(
        built_in, hand,
        "the built-in network scores like the hand-written evaluation"
    );

    let good = files.path("good.nnue");
    e.send(&format!("setoption evalfile {good}"));
    says(
        &mut e,
        &[
            "info string evalfile: network ",
            &good,
            " loaded, in use; architecture (1260->256)x2->4",
        ],
    );
    // A network with king buckets (format version 2) loads and evaluates as the library does.
    let kings = files.path("kings.nnue");
    e.send(&format!("setoption evalfile {kings}"));
    says(
        &mut e,
        &[
            "info string evalfile: network ",
            &kings,
            " loaded, in use; architecture (7560->96)x2->4 with king buckets",
        ],
    );
    let (kings_score, _) = search(&mut e);
    assert_eq!(
        kings_score,
        library_score(&Evaluation::Network(kings_network()))
    );
    e.send(&format!("setoption evalfile {good}"));
    let (net, _) = search(&mut e);
    assert_ne!(
        net, hand,
        "the random network scores like the hand-written evaluation"
    );
    assert_ne!(
        net, built_in,
        "the random network scores like the built-in one"
    );

    for (name, why) in [
        ("missing.nnue", "No such file"),
        ("truncated.nnue", "truncated"),
        ("magic.nnue", "not a Jiangjun network file"),
        ("version.nnue", "format version 3"),
        ("corrupt.nnue", "checksum"),
    ] {
        let path = files.path(name);
        e.send(&format!("setoption evalfile {path}"));
        says(
            &mut e,
            &[
                "info string evalfile: ",
                &path,
                why,
                "; evaluation unchanged",
            ],
        );
        // The network loaded before is still the evaluation.
        assert_eq!(search(&mut e).0, net, "{name}");
    }

    // The announced default, and an empty value, bring the built-in network back.
    for back in [
        &format!("setoption evalfile {BUILT_IN_NAME}")[..],
        "setoption evalfile",
    ] {
        e.send(&format!("setoption evalfile {good}"));
        assert_eq!(search(&mut e).0, net);
        e.send(back);
        assert_eq!(search(&mut e).0, built_in, "{back}");
    }

    // Off again, and `none` drops the network: on finds none and says so.
    e.send("setoption usennue false");
    assert_eq!(search(&mut e).0, hand);
    e.send_all(&["setoption evalfile none", "setoption usennue true"]);
    says(&mut e, &["info string usennue: no network"]);
    assert_eq!(search(&mut e).0, hand);
    e.finish();
}

#[test]
fn uci_eval_file_and_use_nnue() {
    let (files, mut e) = start(
        "uci",
        "uci",
        "uciok",
        [
            &format!("option name EvalFile type string default {BUILT_IN_NAME}"),
            &format!("option name Use NNUE type check default {DEFAULT_ON}"),
        ],
    );
    e.send(&format!(
        "setoption name EvalFile value {}",
        files.path("good.nnue")
    ));
    e.send("setoption name Use NNUE value true");
    let said = e.sync();
    assert!(
        said.iter()
            .all(|l| !l.contains("unknown") && !l.contains("no network")),
        "{said:?}"
    );
    e.send_all(&["position startpos", "go depth 5"]);
    let best = e.answer();
    assert_legal_bestmove(&best, &Position::startpos());
    e.send(&format!(
        "setoption name EvalFile value {}",
        files.path("corrupt.nnue")
    ));
    says(&mut e, &["info string evalfile: ", "checksum"]);
    e.send_all(&["position startpos", "go depth 3"]);
    assert_legal_bestmove(&e.answer(), &Position::startpos());
    e.finish();
}
