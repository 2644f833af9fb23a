//! XBoard's options through the real binary: `option NAME=VALUE`, `memory` and `cores` take
//! the path UCCI/UCI `setoption` takes; a bad name or value is answered (`#` comments, an
//! `Error (...)` line) and the engine goes on answering `ping` and playing; and a setting
//! shows in what the engine prints. The exact feature lines are transcripts case 51.

use crate::protocol_support::*;
use std::collections::BTreeSet;

/// The engine after `xboard` and `protover 2` (and its features), with the built-in book.
fn cecp() -> Engine {
    let mut e = Engine::start_with_book(None);
    e.send_all(&["xboard", "protover 2"]);
    e.until_exact("feature done=1");
    e
}

fn texts(lines: Vec<Line>) -> Vec<String> {
    lines.into_iter().map(|l| l.text).collect()
}

#[test]
fn every_option_command_is_answered_and_the_engine_goes_on() {
    let mut e = cecp();
    let commands = [
        "option Threads=2",
        "memory 64",
        "cores 1",
        "option Hash=32",
        "option Clear Hash",
        "option Threads=x",
        "option Hash=0",
        "option Style=bold",
        "option Repetition",
        "option Nonsense=1",
        "option",
        "option =",
        "memory lots",
        "memory 0",
        "cores 0",
        "cores -3",
        "option EvalFile=/no/such/network.jjnn",
        "option BookFile=/no/such/book.jjb",
        "option UCI_Elo=99999999999999999999999",
    ];
    for (n, command) in commands.iter().enumerate() {
        e.send(command);
        e.send(&format!("ping {n}"));
        let got = texts(e.until_exact(&format!("pong {n}")));
        for line in &got[..got.len() - 1] {
            assert!(
                line.starts_with("# ") || line.starts_with("Error ("),
                "{command}: {got:?}"
            );
        }
    }
    // It still plays: Red's move from the start, searched (the book may answer it).
    e.send_all(&["new", "force", "sd 3", "go"]);
    let mv = e.expect_prefix("move ");
    assert!(
        position(None, &[]).parse_move(&mv["move ".len()..]).is_ok(),
        "{mv}"
    );
    e.send("quit");
    assert!(e.wait_exit(TIMEOUT).is_some(), "quit ends the engine");
}

/// `OwnBook` and `MultiPV` act: with the book the start position is answered from it (no
/// thinking lines); without it the engine searches, and with `MultiPV` 3 each depth shows
/// three lines with different first moves.
#[test]
fn the_book_and_multipv_options_show_in_the_thinking_output() {
    let mut e = cecp();
    e.send_all(&["new", "force", "post", "sd 4", "go"]);
    let got = texts(e.until("move", |l| l.starts_with("move ")));
    assert_eq!(got.len(), 1, "a book move, without a search: {got:?}");
    e.send_all(&[
        "option OwnBook=0",
        "option MultiPV=3",
        "new",
        "force",
        "post",
        "sd 4",
        "go",
    ]);
    let got = texts(e.until("move", |l| l.starts_with("move ")));
    let firsts: BTreeSet<&str> = got
        .iter()
        .filter(|l| l.starts_with("4 "))
        .filter_map(|l| l.split(' ').nth(4))
        .collect();
    assert_eq!(firsts.len(), 3, "{got:?}");
    e.send("quit");
    assert!(e.wait_exit(TIMEOUT).is_some(), "quit ends the engine");
}
