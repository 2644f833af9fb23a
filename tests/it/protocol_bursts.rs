//! Scripts piped into the engine all at once, faster than it can answer: every command still
//! gets its answer. A single channel for input lines and search reports once deadlocked here
//! (the main thread, the channel's only reader, blocked sending the book's answer into the
//! channel that the flood of input had filled, or joined a search thread blocked on it).

use crate::protocol_support::{assert_legal_bestmove, is_answer, position, Engine, TIMEOUT};
use std::time::Duration;

/// `go`/`stop` pairs in the scripts below: far more than the lines the reader may have waiting.
const PAIRS: usize = 3000;

/// The script of the report: a position, `PAIRS` times `go depth 1` and `stop`, `isready`;
/// then the end of input, which (unlike `quit`) waits for the last search's answer.
fn go_stop_script(first: &str) -> Vec<String> {
    let mut lines = vec![
        first.to_string(),
        "position startpos moves h2e2".to_string(),
    ];
    for _ in 0..PAIRS {
        lines.push("go depth 1".to_string());
        lines.push("stop".to_string());
    }
    lines.push("isready".to_string());
    lines
}

/// Pipes `script` at once and reads everything the engine prints until it exits (status 0).
fn run_script(mut e: Engine, script: &[String]) -> Vec<String> {
    e.pipe_script(script);
    let mut lines = Vec::new();
    // `None` when the engine has closed its output, or after a timeout (then no exit below).
    while let Some(line) = e.next_line(TIMEOUT) {
        lines.push(line.text);
    }
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(
        status.is_some_and(|s| s.success()),
        "no clean exit: {status:?}; {} lines, the last: {:?}",
        lines.len(),
        lines.last()
    );
    lines
}

fn count(lines: &[String], pred: impl Fn(&str) -> bool) -> usize {
    lines.iter().filter(|l| pred(l)).count()
}

#[test]
fn ucci_answers_every_go_of_a_flood_with_the_book_on() {
    // The default book answers at once on the main thread: the case that hung.
    let lines = run_script(Engine::start_with_book(None), &go_stop_script("ucci"));
    assert_eq!(count(&lines, |l| l.starts_with("bestmove")), PAIRS);
    assert_eq!(count(&lines, |l| l == "readyok"), 1);
}

#[test]
fn uci_answers_every_go_of_a_flood_with_searches() {
    let lines = run_script(Engine::start(), &go_stop_script("uci"));
    assert_eq!(count(&lines, |l| l.starts_with("bestmove")), PAIRS);
    assert_eq!(count(&lines, |l| l == "readyok"), 1);
}

#[test]
fn cecp_analysis_restarted_by_a_burst_answers_ping() {
    // Eight lines at once, each game command ending and restarting the analysis while its
    // search reports as fast as it can (a mate in one), then `ping`.
    let mut e = Engine::start_with_book(None);
    e.send_all(&[
        "xboard",
        "protover 2",
        "setboard 3ak4/4a4/9/9/9/9/9/9/9/4K2R1 w - - 0 1",
        "analyze",
        "h2f2",
        "usermove f2g6",
        "usermove a9e5",
        "usermove i3i4",
        "ping 7",
        "exit",
        "quit",
    ]);
    e.until_exact("pong 7");
    let status = e.wait_exit(Duration::from_secs(20));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

#[test]
fn a_flood_of_queued_commands_behind_a_search_is_answered_in_order() {
    // A long search, then many short ones queued behind it: each `go` gets one answer, in
    // order, and `isready` during the first search is answered at once.
    let mut script = vec!["ucci".to_string(), "position startpos".to_string()];
    script.push("go depth 6".to_string());
    for i in 0..500 {
        let mv = if i % 2 == 0 { "h2e2" } else { "b2e2" };
        script.push(format!("position startpos moves {mv}"));
        script.push("go depth 1".to_string());
    }
    script.push("isready".to_string());
    let lines = run_script(Engine::start(), &script);
    assert_eq!(count(&lines, is_answer), 501);
    assert_eq!(count(&lines, |l| l == "readyok"), 1);
    // Each short search answers its own position (the queue keeps the input's order).
    let answers: Vec<&String> = lines.iter().filter(|l| is_answer(l)).collect();
    for (i, a) in answers.iter().enumerate().skip(1) {
        let mv = if (i - 1) % 2 == 0 { "h2e2" } else { "b2e2" };
        assert_legal_bestmove(a, &position(None, &[mv]));
    }
}
