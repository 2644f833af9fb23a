//! Under an address-space limit (`ulimit -v`) the engine still answers every `go`: a table
//! too large for the limit leaves room for the search, threads that cannot have their memory
//! are not started, and whatever is given up is said in an `info string`.

use crate::protocol_support::{assert_legal_bestmove, position, Engine};
use std::process::Command;
use std::time::Duration;

const MIDDLEGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

/// The engine (without its book) under `ulimit -v kib`, or `None` where there is no `sh`
/// that can set it.
fn limited(kib: u64) -> Option<Engine> {
    let probe = Command::new("sh")
        .args(["-c", &format!("ulimit -v {kib}")])
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        eprintln!("skipped: no sh with ulimit -v here");
        return None;
    }
    let mut cmd = Command::new("sh");
    cmd.args([
        "-c",
        &format!("ulimit -v {kib} && exec \"$0\""),
        env!("CARGO_BIN_EXE_jiangjun"),
    ])
    .env("JIANGJUN_BOOK", "none");
    Some(Engine::spawn(cmd))
}

#[test]
fn many_threads_and_a_huge_table_under_a_2_gb_limit_still_move() {
    // Was: `readyok`, then a panic in the search thread and no `bestmove`.
    let Some(mut e) = limited(2_000_000) else {
        return;
    };
    e.send("uci");
    e.until_exact("uciok");
    e.send("setoption name Threads value 256");
    e.send("setoption name Hash value 16384");
    let said = e.sync();
    assert!(
        said.iter().any(|l| l.contains("could not be allocated")),
        "{said:?}"
    );
    e.send(&format!("position fen {MIDDLEGAME}"));
    e.send("go movetime 100");
    let lines = e.until_answer();
    let answer = &lines.last().expect("an answer").text;
    assert_legal_bestmove(answer, &position(Some(MIDDLEGAME), &[]));
    assert!(
        lines
            .iter()
            .any(|l| l.text.starts_with("info string") && l.text.contains("search threads")),
        "no word about the threads: {:?}",
        e.log
    );
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(20)).is_some());
}

#[test]
fn a_table_that_fills_the_limit_leaves_room_for_the_search() {
    // Was: no `bestmove` and no message (the search thread could not start).
    let Some(mut e) = limited(1_171_875) else {
        return;
    };
    e.send("ucci");
    e.until_exact("ucciok");
    e.send("setoption hashsize 1024");
    e.send("go depth 4");
    let answer = e.answer();
    assert_legal_bestmove(&answer, &position(None, &[]));
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(20)).is_some());
}

#[test]
fn cecp_memory_and_cores_beyond_the_machine_still_move() {
    let Some(mut e) = limited(2_000_000) else {
        return;
    };
    e.send_all(&[
        "xboard",
        "protover 2",
        "memory 1000000000000",
        "cores 100000",
        "sd 5",
        "go",
    ]);
    let mv = e.expect_prefix("move ");
    let m = mv.trim_start_matches("move ");
    assert!(position(None, &[]).parse_move(m).is_ok(), "{mv}");
    e.send("quit");
    assert!(e.wait_exit(Duration::from_secs(20)).is_some());
}
