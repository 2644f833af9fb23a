//! The network options through the real binary: `evalfile` / `usennue` (UCCI) and `EvalFile` /
//! `Use NNUE` (UCI). A good file changes the evaluation; a missing, truncated, wrong-magic,
//! wrong-version or corrupt file gives an `info string` naming it and the engine keeps the evaluation it had.

use crate::protocol_support as support;

use jiangjun::board::Position;
use jiangjun::search::nnue::FloatNetwork;
use std::path::PathBuf;
use support::*;

/// A scratch folder with a random network and broken copies of it.
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
        version[4] = 2;
        let mut corrupt = good.clone();
        corrupt[5000] ^= 0x40;
        for (name, bytes) in [
            ("good.nnue", &good[..]),
            ("truncated.nnue", &good[..good.len() / 2]),
            ("magic.nnue", &magic[..]),
            ("version.nnue", &version[..]),
            ("corrupt.nnue", &corrupt[..]),
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
fn start(tag: &str, hello: &str, ok: &str, options: [&str; 2]) -> (Files, Engine) {
    let files = Files::new(tag);
    let mut e = Engine::start();
    e.send(hello);
    let lines = e.until_exact(ok);
    for o in options {
        assert!(lines.iter().any(|l| l.text == o), "{o} not announced");
    }
    (files, e)
}

#[test]
fn ucci_evalfile_good_and_bad_files() {
    let (files, mut e) = start(
        "ucci",
        "ucci",
        "ucciok",
        [
            "option evalfile type string default <none>",
            "option usennue type check default false",
        ],
    );

    let (hand, _) = search(&mut e);
    // Switched on with no network: said so, and the hand-written evaluation stays.
    e.send("setoption usennue true");
    says(&mut e, &["info string usennue: no network"]);
    assert_eq!(search(&mut e).0, hand);

    let good = files.path("good.nnue");
    e.send(&format!("setoption evalfile {good}"));
    says(
        &mut e,
        &["info string evalfile: network ", &good, " loaded"],
    );
    let (net, _) = search(&mut e);
    assert_ne!(
        net, hand,
        "the random network scores like the hand-written evaluation"
    );

    for (name, why) in [
        ("missing.nnue", "No such file"),
        ("truncated.nnue", "truncated"),
        ("magic.nnue", "not a Jiangjun network file"),
        ("version.nnue", "format version 2"),
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

    // Off again, and `none` drops the network.
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
            "option name EvalFile type string default <none>",
            "option name Use NNUE type check default false",
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
