//! The conformance cases of tests/data/transcripts.md (the protocol notes' cases, with more),
//! replayed against the real binary. GUI lines are read from that file where the case is a
//! plain script; expectations are written here, one test per case (`case_NN`).
//!
//! Cases whose clocks would make the engine think for seconds (16–18, 20, 26, 27, 38) send the
//! transcript's exact lines, check the shape of the output, then `stop` the search so the suite
//! stays fast; a scaled-down clock checks that the engine also ends such searches by itself.

use crate::protocol_support as support;

use jiangjun::board::Position;
use std::time::{Duration, Instant};
use support::*;

/// How long a search that must wait (for `stop`, `ponderhit`, or a long clock) is watched for
/// an early `bestmove`.
const WATCH: Duration = Duration::from_millis(300);

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(|l| l.text.clone()).collect()
}

fn no_answer_within(e: &mut Engine, d: Duration) {
    let got = e.quiet_for(d);
    assert!(
        !got.iter().any(|l| is_answer(l)),
        "search answered early: {got:?}"
    );
}

/// Only `info string` lines (optional diagnostics) may appear where the case expects silence.
fn only_info_strings(lines: &[String]) {
    for l in lines {
        assert!(l.starts_with("info string "), "unexpected output {l:?}");
    }
}

#[test]
fn every_case_has_a_test() {
    // Keep in step with the `case_NN` functions below.
    let implemented: Vec<u32> = (1..=51).collect();
    assert_eq!(transcript_case_numbers(), implemented);
    for n in implemented {
        assert!(
            !transcript_inputs(n).is_empty(),
            "case {n} has no GUI lines"
        );
    }
}

#[test]
fn case_01_ucci_handshake() {
    let mut e = Engine::start();
    // Nothing before the first command.
    assert!(e.quiet_for(Duration::from_millis(100)).is_empty());
    let inputs = transcript_inputs(1);
    let sent = Instant::now();
    e.send(&inputs[0]);
    let got = e.until_exact("ucciok");
    let took = got.last().unwrap().at - sent;
    assert!(took < Duration::from_secs(1), "ucciok took {took:?}");
    let got = texts(&got);
    assert!(got[0].starts_with("id name "));
    assert!(got.iter().any(|l| l.starts_with("id version ")));
    let first_option = got.iter().position(|l| l.starts_with("option ")).unwrap();
    assert_eq!(
        got[first_option],
        "option usemillisec type check default true"
    );
    for l in &got[first_option..got.len() - 1] {
        assert!(l.starts_with("option ") && l.contains(" type "), "{l}");
        assert!(!l.contains(" name "), "UCCI options have no 'name': {l}");
    }
    e.send_all(&inputs[1..]);
    only_info_strings(&e.sync());
    e.finish();
}

#[test]
fn case_02_isready_idle_and_thinking() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(2);
    assert_eq!(inputs[0], "isready");
    only_info_strings(&e.sync());
    e.send_all(&inputs[1..3]); // position startpos, go infinite
    e.expect_prefix("info depth");
    let sent = Instant::now();
    e.send(&inputs[3]);
    let got = e.until_exact("readyok");
    assert!(got.last().unwrap().at - sent < Duration::from_millis(500));
    assert!(!got.iter().any(|l| is_answer(&l.text)));
    e.send(&inputs[4]); // stop
    assert_legal_bestmove(&e.answer(), &position(None, &[]));
    e.finish();
}

#[test]
fn case_03_unknown_commands_are_ignored() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(3);
    e.send_all(&inputs[..inputs.len() - 1]);
    e.send(inputs.last().unwrap());
    let got = e.until_exact("readyok");
    only_info_strings(&texts(&got[..got.len() - 1]));
    assert!(
        e.wait_exit(Duration::from_millis(10)).is_none(),
        "must not exit"
    );
    e.finish();
}

#[test]
fn case_04_first_line_not_ucci() {
    let mut e = Engine::start();
    let inputs = transcript_inputs(4);
    e.send(&inputs[0]);
    e.until_exact("readyok");
    e.send(&inputs[1]);
    e.until_exact("ucciok");
    e.finish();
}

#[test]
fn case_05_option_forms_and_aliases() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(5);
    e.send_all(&inputs[..inputs.len() - 1]);
    e.send(inputs.last().unwrap());
    let got = e.until_exact("readyok");
    only_info_strings(&texts(&got[..got.len() - 1]));
    // The bookfiles value keeps its spaces (the first file of the list is loaded; it does not
    // exist here, which is reported).
    assert!(
        got.iter()
            .any(|l| l.text.contains("C:\\Program Files\\XQ\\book one.dat")),
        "{:?}",
        texts(&got)
    );
    e.finish();
}

#[test]
fn case_06_newgame_keeps_options() {
    let mut e = Engine::ucci();
    e.send_all(&transcript_inputs(6));
    assert_legal_bestmove(&e.answer(), &position(None, &[]));
    e.finish();
}

#[test]
fn case_07_startpos_with_move_list() {
    let mut e = Engine::ucci();
    e.send_all(&transcript_inputs(7));
    let pos = position(None, &["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"]);
    assert_legal_bestmove(&e.answer(), &pos);
    e.finish();
}

#[test]
fn case_08_league_style_fen_after_capture() {
    let mut e = Engine::ucci();
    e.send_all(&transcript_inputs(8));
    let pos = position(
        Some("rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2"),
        &["d9e8"],
    );
    assert_legal_bestmove(&e.answer(), &pos);
    e.finish();
}

#[test]
fn case_09_empty_moves_trailing_space_crlf() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(9);
    assert!(inputs[0].ends_with(" moves\r") && inputs[1].ends_with("h2e2 \r"));
    e.send_all(&inputs);
    let got = e.until_answer();
    assert!(
        !got.iter().any(|l| l.text.starts_with("info string")),
        "clean input gave diagnostics: {:?}",
        texts(&got)
    );
    assert_legal_bestmove(&got.last().unwrap().text, &position(None, &["h2e2"]));
    e.finish();
}

#[test]
fn case_10_fen_variants() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(10);
    e.send_all(&inputs[..2]);
    assert_legal_bestmove(&e.answer(), &position(None, &[]));
    e.send_all(&inputs[2..]);
    let pos = position(Some("4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1"), &[]);
    let m = assert_legal_bestmove(&e.answer(), &pos);
    assert_eq!(m.from().to_string(), "e9", "a Black king move");
    e.finish();
}

/// `go` after a refused FEN: a reason, then no move, in this dialect's words.
fn no_move_without_position(e: &mut Engine, none: &str) {
    e.send("go depth 1");
    let lines = texts(&e.until_answer());
    let (answer, before) = lines.split_last().expect("an answer");
    assert_eq!(answer, none, "{lines:?}");
    only_info_strings(before);
    assert!(
        before.iter().any(|l| l.contains("no valid position")),
        "{lines:?}"
    );
}

#[test]
fn case_11_bad_fen_gives_no_move_until_a_good_position() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(11);
    e.send_all(&inputs[..2]);
    let msg = e.expect_prefix("info string ");
    assert!(msg.contains('X'), "{msg}");
    assert_eq!(inputs[2], "go depth 1");
    no_move_without_position(&mut e, "nobestmove");
    // Still none on a second `go`, and `banmoves` has nothing to act on.
    e.send("banmoves h2e2");
    e.expect_prefix("info string ");
    no_move_without_position(&mut e, "nobestmove");
    // The other bad FENs the case lists, each after a good position.
    let start = position(None, &[]);
    for bad in [
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C2/9/RNBAKABNR w - - 0 1",
        "position fen 4k4/9/9/9/9/9/9/9/3K5/4K4 w - - 0 1",
        "position fen 9/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
        "position fen foobar",
        "position fen",
    ] {
        // A good position ends the state: everything works as usual again.
        e.send("position startpos");
        e.send("go depth 1");
        assert_legal_bestmove(&e.answer(), &start);
        e.send(bad);
        e.expect_prefix("info string ");
        no_move_without_position(&mut e, "nobestmove");
    }
    // A bad move inside `moves` is different: the moves before it stand (case 12).
    e.send("position startpos moves h2e2 h2e2");
    e.expect_prefix("info string ");
    e.send("go depth 1");
    assert_legal_bestmove(&e.answer(), &position(None, &["h2e2"]));
    e.finish();

    // UCI says "no move" as `bestmove (none)`.
    let mut u = Engine::uci();
    u.send_all(&inputs[..2]);
    u.expect_prefix("info string ");
    no_move_without_position(&mut u, "bestmove (none)");
    u.send("position startpos moves h2e2");
    u.send("go depth 1");
    assert_legal_bestmove(&u.answer(), &position(None, &["h2e2"]));
    u.finish();
}

#[test]
fn case_12_illegal_move_in_list() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(12);
    e.send(&inputs[0]);
    let msg = e.expect_prefix("info string ");
    assert!(msg.contains("h2e2") && msg.contains("ply 2"), "{msg}");
    e.send(&inputs[1]);
    assert_legal_bestmove(&e.answer(), &position(None, &["h2e2"]));
    e.finish();
}

#[test]
fn case_13_malformed_move_tokens() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(13);
    e.send(&inputs[0]);
    let msg = e.expect_prefix("info string ");
    assert!(msg.contains("z9z9"), "{msg}");
    e.send(&inputs[1]);
    assert_legal_bestmove(&e.answer(), &position(None, &["h2e2"]));
    e.finish();
}

#[test]
fn case_14_very_long_move_list() {
    let mut e = Engine::ucci();
    // 400 plies of horses going out and back: many repeated positions.
    let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(400).collect();
    let line = format!("position startpos moves {}", moves.join(" "));
    assert!(line.len() > 2000);
    e.send(&line);
    e.send("go depth 1");
    let got = e.until_answer();
    assert!(
        !got.iter().any(|l| l.text.starts_with("info string")),
        "{:?}",
        texts(&got)
    );
    assert_legal_bestmove(&got.last().unwrap().text, &position(None, &moves));
    e.finish();
}

#[test]
fn case_15_one_based_moves_in_uci() {
    let mut e = Engine::start();
    let inputs = transcript_inputs(15);
    e.send(&inputs[0]);
    e.until_exact("uciok");
    e.send_all(&inputs[1..]);
    let got = e.until_answer();
    assert!(
        !got.iter().any(|l| l.text.starts_with("info string")),
        "{:?}",
        texts(&got)
    );
    // Answered in 0-based notation, for the position after h2e2 h9g7.
    assert_legal_bestmove(
        &got.last().unwrap().text,
        &position(None, &["h2e2", "h9g7"]),
    );
    e.finish();
}

/// Checks a UCCI `info … pv` line: score without `cp`, `pv` last with single spaces.
fn check_ucci_info(line: &str) {
    assert!(line.starts_with("info depth "), "{line}");
    assert!(line.contains(" score ") && !line.contains(" cp "), "{line}");
    assert!(line.contains(" nps "), "{line}");
    let pv = line.split(" pv ").nth(1).expect("a pv");
    assert!(
        pv.split(' ').all(|m| m.len() == 4),
        "pv must be 4-char moves to the end of the line: {line}"
    );
}

#[test]
fn case_16_fischer_clock_xqwizard_form() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(16);
    e.send_all(&inputs);
    let info = e.expect_prefix("info depth");
    check_ucci_info(&info);
    // 300 s on the clock: not an instant move.
    no_answer_within(&mut e, WATCH);
    e.send("stop");
    assert_legal_bestmove(&e.answer(), &position(None, &[]));
    // Scaled clock: the engine ends the search by itself, well inside the clock.
    let sent = Instant::now();
    e.send("go time 3000 increment 0 opptime 3000 oppincrement 0");
    let got = e.until_answer();
    assert!(got.last().unwrap().at - sent < Duration::from_millis(1500));
    e.finish();
}

#[test]
fn case_17_period_clock() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send_all(&transcript_inputs(17));
    no_answer_within(&mut e, WATCH);
    e.send("stop");
    assert_legal_bestmove(&e.answer(), &position(None, &[]));
    let sent = Instant::now();
    e.send("go time 1200 movestogo 10 opptime 900 oppmovestogo 12");
    let got = e.until_answer();
    assert!(got.last().unwrap().at - sent < Duration::from_millis(1200));
    e.finish();
}

#[test]
fn case_18_keyword_order_and_extra_keys() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send_all(&transcript_inputs(18));
    e.expect_prefix("info depth");
    no_answer_within(&mut e, WATCH);
    e.send("stop");
    assert_legal_bestmove(&e.answer(), &position(None, &[]));
    let sent = Instant::now();
    e.send("go time 1200 opptime 1200 oppincrement 60 increment 60 depth 99");
    let got = e.until_answer();
    assert!(got.last().unwrap().at - sent < Duration::from_millis(1200));
    e.finish();
}

#[test]
fn case_19_time_only() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    let sent = Instant::now();
    e.send_all(&transcript_inputs(19));
    let got = e.until_answer();
    let took = got.last().unwrap().at - sent;
    assert!(took < Duration::from_millis(2500), "took {took:?} of 5 s");
    assert_legal_bestmove(&got.last().unwrap().text, &position(None, &[]));
    e.finish();
}

#[test]
fn case_20_seconds_mode() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send_all(&transcript_inputs(20));
    // 30 s, not 30 ms: read as milliseconds the engine would answer at once.
    no_answer_within(&mut e, WATCH);
    e.send("stop");
    assert_legal_bestmove(&e.answer(), &position(None, &[]));
    e.finish();
}

#[test]
fn case_21_negative_zero_absurd_numbers() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    let inputs = transcript_inputs(21);
    let start = position(None, &[]);
    let sent = Instant::now();
    e.send(&inputs[0]); // go time -500 increment -1
    let got = e.until_answer();
    assert!(got.last().unwrap().at - sent < Duration::from_secs(1));
    assert_legal_bestmove(&got.last().unwrap().text, &start);
    e.send(&inputs[1]); // go depth 0
    assert_eq!(e.answer(), "nobestmove");
    e.send(&inputs[2]); // go depth 99999999999
    no_answer_within(&mut e, WATCH);
    e.send(&inputs[3]); // stop
    assert_legal_bestmove(&e.answer(), &start);
    e.send(&inputs[4]); // go nodes abc
    assert_legal_bestmove(&e.answer(), &start);
    // UCI: depth 0 still gives a move.
    let mut u = Engine::uci();
    u.send("position startpos");
    u.send("go depth 0");
    assert_legal_bestmove(&u.answer(), &start);
    e.finish();
    u.finish();
}

#[test]
fn case_22_bare_go() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(22);
    e.send_all(&inputs[..2]);
    no_answer_within(&mut e, WATCH);
    e.send(&inputs[2]);
    assert_legal_bestmove(&e.answer(), &position(None, &[]));
    e.finish();
}

#[test]
fn case_23_infinite_never_ends_by_itself() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(23);
    e.send_all(&inputs[..2]);
    let mate = e.until("score mate", |l| l.contains(" score mate "));
    assert!(
        mate.last().unwrap().text.contains(" score mate 1 "),
        "{:?}",
        texts(&mate)
    );
    assert!(!mate.iter().any(|l| is_answer(&l.text)));
    no_answer_within(&mut e, WATCH);
    e.send(&inputs[2]);
    let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
    let pos = position(Some(fen), &[]);
    let m = assert_legal_bestmove(&e.answer(), &pos);
    let mut after = pos.clone();
    after.make_move(m);
    assert!(after.is_checkmate(), "{m} does not mate");
    e.finish();
}

#[test]
fn case_24_node_limit() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send_all(&transcript_inputs(24));
    let got = e.until_answer();
    assert_legal_bestmove(&got.last().unwrap().text, &position(None, &[]));
    for l in &got {
        if let Some(n) = info_field(&l.text, "nodes") {
            assert!(n <= 2000, "node limit 216 overrun: {}", l.text);
        }
    }
    e.finish();
}

#[test]
fn case_25_movetime_in_ucci() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    let sent = Instant::now();
    e.send_all(&transcript_inputs(25));
    let got = e.until_answer();
    let took = got.last().unwrap().at - sent;
    assert!(
        took >= Duration::from_millis(500) && took < Duration::from_millis(2000),
        "movetime 1000 took {took:?}"
    );
    e.finish();
}

#[test]
fn case_26_ponder_hit() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(26);
    let pos = position(None, &["h2e2", "h9g7"]);
    e.send_all(&inputs[..2]);
    e.expect_prefix("info depth");
    no_answer_within(&mut e, WATCH);
    e.send(&inputs[2]); // ponderhit: the 295 s clock starts now
    no_answer_within(&mut e, Duration::from_millis(100));
    e.send("stop");
    assert_legal_bestmove(&e.answer(), &pos);
    // Scaled clock: after ponderhit the engine moves by itself within its budget.
    e.send("go ponder time 2000 increment 0 opptime 2000 oppincrement 0");
    no_answer_within(&mut e, WATCH);
    let sent = Instant::now();
    e.send("ponderhit");
    let got = e.until_answer();
    assert!(got.last().unwrap().at - sent < Duration::from_millis(1000));
    assert_legal_bestmove(&got.last().unwrap().text, &pos);
    e.finish();
}

#[test]
fn case_27_ponder_miss() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(27);
    e.send("position startpos moves h2e2 h9g7");
    e.send(&inputs[0]); // go ponder time 295000 increment 0
    e.expect_prefix("info depth");
    let sent = Instant::now();
    e.send(&inputs[1]); // stop
    let got = e.until_answer();
    // The league forfeits 200 ms after its stop (gui.md §2); measured latency is a few ms,
    // the bound leaves room for a loaded CI machine.
    assert!(got.last().unwrap().at - sent < Duration::from_millis(400));
    e.send_all(&inputs[2..]); // new position, go time 295000 increment 0
    e.expect_prefix("info depth");
    e.send("stop");
    assert_legal_bestmove(&e.answer(), &position(None, &["h2e2", "c6c5"]));
    e.finish();
}

#[test]
fn case_28_stop_while_idle() {
    let mut e = Engine::ucci();
    e.send_all(&transcript_inputs(28));
    let before = e.sync();
    assert_eq!(before, vec!["nobestmove"]);
    // UCI: nothing.
    let mut u = Engine::uci();
    u.send("stop");
    assert!(u.sync().is_empty());
    e.finish();
    u.finish();
}

#[test]
fn case_29_repeated_stop() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    let inputs = transcript_inputs(29);
    e.send(&inputs[0]);
    e.expect_prefix("info depth");
    e.send_all(&inputs[1..]);
    let mut got = texts(&e.until_answer());
    got.extend(e.sync());
    let answers: Vec<&String> = got.iter().filter(|l| is_answer(l)).collect();
    assert_eq!(
        answers.iter().filter(|l| l.starts_with("bestmove")).count(),
        1,
        "{got:?}"
    );
    assert!(answers.len() <= 2);
    if answers.len() == 2 {
        assert_eq!(answers[1], "nobestmove");
    }
    e.finish();
}

#[test]
fn case_30_draw_offered_by_gui() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(30);
    e.send_all(&inputs[..2]);
    let (_, _, suffix) = parse_bestmove(&e.answer());
    assert_eq!(suffix.as_deref(), Some("draw"), "bare kings: accept");
    e.send_all(&inputs[2..]);
    let ans = e.answer();
    let (_, _, suffix) = parse_bestmove(&ans);
    assert_eq!(suffix, None, "a winning side declines: {ans}");
    // A losing side accepts (issue 17: it used to refuse while being mated).
    e.send("position fen rnc1k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1");
    e.send("go draw depth 6");
    let ans = e.answer();
    assert_eq!(parse_bestmove(&ans).2.as_deref(), Some("draw"), "{ans}");
    // The same through `ponderhit draw`.
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    e.send("go ponder depth 6");
    no_answer_within(&mut e, Duration::from_millis(100));
    e.send("ponderhit draw");
    let (_, _, suffix) = parse_bestmove(&e.answer());
    assert_eq!(suffix.as_deref(), Some("draw"));
    e.send("position fen 4k4/9/9/9/9/9/9/9/4A4/RNCAK4 w - - 0 1");
    e.send("go ponder depth 6");
    e.send("ponderhit draw");
    let (_, _, suffix) = parse_bestmove(&e.answer());
    assert_eq!(suffix, None);
    // Switched off: no draw even when dead drawn.
    e.send("setoption allowdraw false");
    e.send("position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
    e.send("go draw depth 5");
    assert_eq!(parse_bestmove(&e.answer()).2, None);
    e.finish();
}

#[test]
fn case_31_resign() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(31);
    e.send_all(&inputs);
    let first = e.answer();
    // Never at the first bad score.
    assert_eq!(parse_bestmove(&first).2, None, "{first}");
    // A forced mate against us, seen again on the next move: resign, as the last word.
    let fen = "rnc1k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1";
    let mut resigned = false;
    for _ in 0..4 {
        e.send(&format!("position fen {fen}"));
        e.send("go depth 9");
        let ans = e.answer();
        if parse_bestmove(&ans).2.as_deref() == Some("resign") {
            assert!(ans.ends_with(" resign"));
            resigned = true;
            break;
        }
    }
    assert!(resigned, "never resigned:\n{}", e.log.join("\n"));
    // Switched off.
    e.send("setoption allowresign false");
    e.send(&format!("position fen {fen}"));
    e.send("go depth 9");
    assert_eq!(parse_bestmove(&e.answer()).2, None);
    e.finish();
}

#[test]
fn case_32_no_legal_move() {
    let mut e = Engine::ucci();
    e.send_all(&transcript_inputs(32));
    assert_eq!(e.answer(), "nobestmove");
    let mut u = Engine::uci();
    u.send_all(&transcript_inputs(32));
    let got = texts(&u.until_answer());
    assert_eq!(
        got[got.len() - 2..].to_vec(),
        vec!["info depth 0 score mate 0", "bestmove (none)"]
    );
    e.finish();
    u.finish();
}

#[test]
fn case_33_banmoves() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(33);
    let start = position(None, &[]);
    e.send_all(&inputs[..3]);
    let m = assert_legal_bestmove(&e.answer(), &start).to_string();
    assert!(m != "h2e2" && m != "b2e2", "played a banned move {m}");
    e.send_all(&inputs[3..]);
    assert_legal_bestmove(&e.answer(), &start);
    // Every legal move banned: no move.
    e.send("position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    let all: Vec<String> = position(Some("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), &[])
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect();
    e.send(&format!("banmoves {}", all.join(" ")));
    e.send("go depth 3");
    assert_eq!(e.answer(), "nobestmove");
    // Garbage and illegal bans are reported and ignored.
    e.send("position startpos");
    e.send("banmoves zz99 a0a5");
    let got = e.sync();
    assert_eq!(got.len(), 2, "{got:?}");
    only_info_strings(&got);
    e.send("go depth 2");
    assert_legal_bestmove(&e.answer(), &start);
    e.finish();
}

#[test]
fn case_34_probe() {
    let mut e = Engine::ucci();
    let inputs = transcript_inputs(34);
    e.send_all(&inputs[..2]);
    let best = e.answer();
    e.send(&inputs[2]); // probe startpos
    let pop = e.expect_prefix("pophash");
    let toks: Vec<&str> = pop.split(' ').collect();
    assert_eq!(toks[0], "pophash");
    assert_eq!(toks.get(1), Some(&"bestmove"), "{pop}");
    assert_eq!(Some(toks[2]), best.split(' ').nth(1), "{pop} vs {best}");
    assert!(pop.contains(" depth "), "{pop}");
    e.send(&inputs[3]); // probe an absurd position
    let pop = e.expect_prefix("pophash");
    assert_eq!(pop, "pophash");
    e.finish();
}

fn batch_script(batch: bool) {
    let inputs = transcript_inputs(35);
    let inputs: Vec<&String> = inputs
        .iter()
        .filter(|l| batch || !l.starts_with("setoption batch"))
        .collect();
    let mut e = Engine::start();
    e.send_all(&inputs);
    let got = texts(&e.until_exact("bye"));
    let answers: Vec<&String> = got.iter().filter(|l| is_answer(l)).collect();
    assert_eq!(answers.len(), 2, "{got:?}");
    let fen1 = "4C4/4a4/b2ank2b/9/9/1RNR1crC1/3r1p3/3cKA3/4A4/4n4 w - - 0 1";
    let fen2 = "9/2Cca4/3k1C3/4P1p2/4N1b2/4R1r2/4c1n2/3p1n3/2rNK4/9 w - - 0 1";
    assert_legal_bestmove(answers[0], &position(Some(fen1), &[]));
    assert_legal_bestmove(answers[1], &position(Some(fen2), &[]));
    let status = e.wait_exit(Duration::from_secs(5));
    assert!(status.is_some_and(|s| s.success()));
    e.assert_stderr_empty();
}

#[test]
fn case_35_piped_script_with_batch() {
    batch_script(true);
}

#[test]
fn case_35_piped_script_without_batch() {
    batch_script(false);
}

#[test]
fn case_36_quit_during_search_and_eof() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    let inputs = transcript_inputs(36);
    e.send(&inputs[0]); // go infinite
    e.expect_prefix("info depth");
    let sent = Instant::now();
    e.send(&inputs[1]); // quit
    let bye = e.until_exact("bye");
    // ~100 ms is the target; the bound leaves room for a loaded CI machine.
    assert!(bye.last().unwrap().at - sent < Duration::from_millis(300));
    let status = e.wait_exit(Duration::from_secs(2));
    assert!(sent.elapsed() < Duration::from_secs(1), "slow exit");
    assert!(status.is_some_and(|s| s.success()));
    e.assert_stderr_empty();
    // EOF while idle: exit status 0.
    let e = Engine::ucci();
    e.finish();
    // EOF before any command.
    Engine::start().finish();
}

#[test]
fn case_37_quit_in_idle() {
    let mut e = Engine::ucci();
    e.send_all(&transcript_inputs(37));
    e.until_exact("bye");
    assert!(e
        .wait_exit(Duration::from_secs(2))
        .is_some_and(|s| s.success()));
    e.assert_stderr_empty();
    // UCI: silent.
    let mut u = Engine::uci();
    u.send("quit");
    assert!(u
        .wait_exit(Duration::from_secs(2))
        .is_some_and(|s| s.success()));
    assert!(u.quiet_for(Duration::from_millis(50)).is_empty());
    u.assert_stderr_empty();
}

#[test]
fn case_38_uci_handshake_and_session() {
    let mut e = Engine::start();
    let inputs = transcript_inputs(38);
    e.send(&inputs[0]);
    let got = texts(&e.until_exact("uciok"));
    assert!(got[0].starts_with("id name "));
    assert!(got.iter().any(|l| l.starts_with("id author ")));
    assert!(got.contains(&"option name UCI_Variant type combo default xiangqi var xiangqi".into()));
    let find = |p: &str| got.iter().any(|l| l.starts_with(p));
    assert!(find("option name Hash type spin default "));
    assert!(find("option name Threads type spin default 1 min 1 max "));
    assert!(find("option name Ponder type check default false"));
    // setoption …, ucinewgame, isready.
    e.send_all(&inputs[1..5]);
    let got = texts(&e.until_exact("readyok"));
    only_info_strings(&got[..got.len() - 1]);
    e.send(&inputs[5]); // position startpos moves h2e2
    e.send(&inputs[6]); // go wtime 60000 btime 55000 winc 1000 binc 1000
    let info = e.until("info with pv", |l| l.contains(" pv "));
    let info = &info.last().unwrap().text;
    for key in [" seldepth ", " score cp ", " nps ", " pv "] {
        assert!(info.contains(key), "{info}");
    }
    no_answer_within(&mut e, Duration::from_millis(100));
    e.send("stop");
    let pos = position(None, &["h2e2"]);
    assert_legal_bestmove(&e.answer(), &pos);
    // Scaled clocks: Black's (smaller) clock is the one that counts.
    let sent = Instant::now();
    e.send("go wtime 600000 btime 1200 winc 0 binc 0");
    let got = e.until_answer();
    assert!(got.last().unwrap().at - sent < Duration::from_millis(1000));
    e.send(&inputs[7]); // quit
    assert!(e
        .wait_exit(Duration::from_secs(2))
        .is_some_and(|s| s.success()));
    assert!(e.quiet_for(Duration::from_millis(50)).is_empty());
    e.assert_stderr_empty();
}

#[test]
fn case_39_cyclone_bare_fen_line() {
    let mut e = Engine::start();
    let inputs = transcript_inputs(39);
    e.send(&inputs[0]);
    e.until_exact("uciok");
    e.send_all(&inputs[1..]);
    let got = e.until_answer();
    assert!(!got.iter().any(|l| l.text.starts_with("info string")));
    assert_legal_bestmove(&got.last().unwrap().text, &position(Some(START), &["h2e2"]));
    e.finish();
}

#[test]
fn case_40_position_as_first_line() {
    let mut e = Engine::start();
    e.send_all(&transcript_inputs(40));
    let got = e.until_answer();
    assert!(!got.iter().any(|l| l.text.starts_with("info string")));
    assert_legal_bestmove(&got.last().unwrap().text, &position(None, &["h2e2"]));
    e.finish();
}

#[test]
fn case_41_searchmoves_restricts_one_go() {
    let (mut e, inputs) = handshake(Engine::start(), 41);
    // With two lines asked for, a search restricted to one move would print one.
    e.send("setoption name MultiPV value 2");
    e.send_all(&inputs[1..3]);
    assert_eq!(parse_bestmove(&e.answer()).0, "b0c2");
    e.send(&inputs[3]);
    let got = texts(&e.until_answer());
    assert!(
        got.iter()
            .any(|l| l.starts_with("info depth 3 ") && l.contains(" multipv 2 ")),
        "the second go was still restricted: {got:?}"
    );
    assert_legal_bestmove(got.last().unwrap(), &position(None, &[]));
    // `banmoves` outlives a `go` with searchmoves, until the next position.
    e.send_all(&[
        "banmoves h2e2",
        "go depth 2 searchmoves h2e2 b2e2",
        "go depth 2 searchmoves h2e2",
    ]);
    assert_eq!(parse_bestmove(&e.answer()).0, "b2e2");
    let ans = e.answer();
    assert_ne!(parse_bestmove(&ans).0, "h2e2", "{ans}");
    e.finish();
}

#[test]
fn case_42_uci_debug_on() {
    let (mut e, inputs) = handshake(Engine::start(), 42);
    e.send_all(&inputs[1..3]);
    let said = e.sync();
    assert!(
        said.iter().all(|l| !l.contains("unknown")),
        "debug refused: {said:?}"
    );
    e.finish();
}

#[test]
fn case_43_book_answer_shows_the_move_played_last() {
    let (mut e, inputs) = handshake(Engine::start_with_book(None), 43);
    e.send_all(&inputs[1..]);
    let got = texts(&e.until_answer());
    let book: Vec<&String> = got
        .iter()
        .filter(|l| l.starts_with("info depth 0 score "))
        .collect();
    assert!(!book.is_empty(), "no book lines: {got:?}");
    let played = parse_bestmove(got.last().unwrap()).0;
    let last_pv = book.last().unwrap().rsplit(' ').next().unwrap();
    assert_eq!(last_pv, played, "{got:?}");
    e.finish();
}

#[test]
fn case_44_draw_offer_with_an_only_move() {
    let mut e = Engine::ucci();
    e.send_all(&transcript_inputs(44));
    let got = texts(&e.until_answer());
    let (mv, _, suffix) = parse_bestmove(got.last().unwrap());
    assert_eq!(mv, "f0f1");
    assert_eq!(
        suffix.as_deref(),
        Some("draw"),
        "a lost side accepts: {got:?}"
    );
    assert!(
        got.iter().any(|l| l.starts_with("info depth 8 ")),
        "the only move was not searched to the depth: {got:?}"
    );
    e.finish();
}

/// Beside case 44: a fixed time per move (`movetime`, no clock) is the engine's to use, so an
/// only move is searched on like any other (issue 29.7) instead of being played after one
/// iteration, which is kept for clocks, where the time saved is used later.
#[test]
fn an_only_move_uses_a_fixed_move_time() {
    for (go, searched_on) in [
        ("go movetime 300", true),
        ("go time 300000 increment 0", false),
    ] {
        let mut e = Engine::ucci();
        e.send("position fen 3k5/9/9/9/9/9/9/4r4/9/5K3 w - - 0 1");
        e.send(go);
        let got = texts(&e.until_answer());
        assert_eq!(
            parse_bestmove(got.last().unwrap()).0,
            "f0f1",
            "{go}: {got:?}"
        );
        assert_eq!(
            got.iter().any(|l| l.starts_with("info depth 2 ")),
            searched_on,
            "{go}: {got:?}"
        );
        e.finish();
    }
}

/// `e` after the first line of case `n` (`ucci` or `uci`) and its answer; the case's lines.
fn handshake(mut e: Engine, n: u32) -> (Engine, Vec<String>) {
    let inputs = transcript_inputs(n);
    e.send(&inputs[0]);
    e.until_exact(&format!("{}ok", inputs[0]));
    (e, inputs)
}

// ---- CECP (XBoard protocol 2), cases 45-51 ----

/// A thinking line: `depth score centiseconds nodes pv…`.
fn is_thinking_line(line: &str) -> bool {
    let words: Vec<&str> = line.split(' ').collect();
    words.len() >= 5
        && words[..4].iter().all(|w| w.parse::<i64>().is_ok())
        && words[4..].iter().all(|m| m.len() == 4)
}

/// A fresh engine after the case's first two lines (`xboard`, `protover 2`) and the
/// features they bring; returns the case's other lines.
fn xboard_case(n: u32) -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    let inputs = transcript_inputs(n);
    assert_eq!(inputs[..2], ["xboard", "protover 2"]);
    e.send_all(&inputs[..2]);
    e.until_exact("feature done=1");
    (e, inputs[2..].to_vec())
}

/// Reads up to the engine's `move`; checks it is legal in `pos`. Returns the lines before it.
fn xboard_move(e: &mut Engine, pos: &Position) -> (Vec<String>, String) {
    let got = texts(&e.until("move", |l| l.starts_with("move ")));
    let mv = got.last().unwrap()["move ".len()..].to_string();
    assert!(pos.parse_move(&mv).is_ok(), "illegal move {mv}: {got:?}");
    (got[..got.len() - 1].to_vec(), mv)
}

#[test]
fn case_45_cecp_handshake() {
    let mut e = Engine::start();
    assert!(e.quiet_for(Duration::from_millis(100)).is_empty());
    let inputs = transcript_inputs(45);
    let sent = Instant::now();
    e.send_all(&inputs[..2]);
    let got = texts(&e.until_exact("feature done=1"));
    assert!(sent.elapsed() < Duration::from_secs(1));
    // The options (case 51) come between the first line and `done=1`.
    for option in &got[1..got.len() - 1] {
        assert!(option.starts_with("feature option=\""), "{got:?}");
    }
    for f in [
        " myname=\"Jiangjun ",
        " variants=\"xiangqi\"",
        " setboard=1",
        " usermove=1",
        " ping=1",
        " sigint=0",
        " sigterm=0",
        " analyze=1",
        " colors=0",
    ] {
        assert!(
            got[0].starts_with("feature ") && got[0].contains(f),
            "{f}: {got:?}"
        );
    }
    e.send_all(&inputs[2..]);
    let got = texts(&e.until_exact("pong 1"));
    assert_eq!(got, vec!["pong 1"]);
    e.finish();
}

#[test]
fn case_46_cecp_game_engine_plays_black() {
    let (mut e, inputs) = xboard_case(46);
    e.send_all(&inputs);
    let (before, _) = xboard_move(&mut e, &position(None, &["h2e2"]));
    assert!(!before.is_empty(), "post gives thinking lines");
    for l in &before {
        assert!(is_thinking_line(l), "{l:?}");
    }
    e.send("ping 2");
    assert_eq!(texts(&e.until_exact("pong 2")), vec!["pong 2"]);
    e.finish();
}

#[test]
fn case_47_cecp_force_setboard_go_and_ping() {
    let (mut e, inputs) = xboard_case(47);
    e.send_all(&inputs);
    let got = texts(&e.until_exact("pong 3"));
    assert_eq!(got.len(), 3, "{got:?}");
    // Two moves mate: b0b9 and b0d0.
    assert!(got[0] == "move b0b9" || got[0] == "move b0d0", "{got:?}");
    assert_eq!(got[1..], ["1-0 {Black has no legal move}", "pong 3"]);
    e.finish();
}

#[test]
fn case_48_cecp_illegal_moves_and_bad_commands() {
    let (mut e, inputs) = xboard_case(48);
    e.send_all(&inputs);
    let got = texts(&e.until_exact("pong 4"));
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(
        got[0].starts_with("Illegal move (") && got[0].ends_with("): e3e5"),
        "{got:?}"
    );
    assert_eq!(got[1], "Error (unknown command): foo");
    assert_eq!(got[2], "tellusererror Illegal position");
    e.finish();
}

#[test]
fn case_49_cecp_analyze_until_exit() {
    let (mut e, inputs) = xboard_case(49);
    e.send_all(&inputs[..3]);
    let first = e.until("a thinking line", is_thinking_line);
    assert_eq!(first.len(), 1, "{:?}", texts(&first));
    e.send(&inputs[3]); // usermove h2e2
    let after = position(None, &["h2e2"]);
    // Lines of the new analysis: their PVs start with a Black move.
    let line = e.until("Black's analysis", |l| {
        is_thinking_line(l) && after.parse_move(l.split(' ').nth(4).unwrap()).is_ok()
    });
    assert!(!texts(&line).iter().any(|l| l.starts_with("move ")));
    e.send_all(&inputs[4..]);
    let got = texts(&e.until_exact("pong 5"));
    assert!(!got.iter().any(|l| l.starts_with("move ")), "{got:?}");
    // After `exit` the analysis is over: nothing more comes.
    let rest = e.quiet_for(Duration::from_millis(300));
    assert!(rest.is_empty(), "{rest:?}");
    e.finish();
}

#[test]
fn case_50_cecp_move_now_and_pondering() {
    let (mut e, inputs) = xboard_case(50);
    e.send_all(&inputs[..4]);
    let early = e.quiet_for(WATCH);
    assert!(!early.iter().any(|l| l.starts_with("move ")), "{early:?}");
    let sent = Instant::now();
    e.send(&inputs[4]); // ?
    xboard_move(&mut e, &position(None, &["h2e2"]));
    assert!(sent.elapsed() < Duration::from_secs(5));
    e.send(&inputs[5]); // ping 6, answered while the engine ponders
    let got = texts(&e.until_exact("pong 6"));
    assert!(
        got.iter().all(|l| l == "pong 6" || is_thinking_line(l)),
        "{got:?}"
    );
    e.send(&inputs[6]); // quit
    assert!(
        e.wait_exit(Duration::from_secs(5)).is_some(),
        "quit ends the session"
    );
    e.finish();
}

#[test]
fn case_51_cecp_options() {
    let inputs = transcript_inputs(51);
    let expected = transcript_outputs(51);
    let mut e = Engine::start();
    e.send_all(&inputs[..2]);
    let got = texts(&e.until_exact("feature done=1"));
    assert!(
        got[0].starts_with("feature myname=\"Jiangjun ")
            && got[0].contains(" memory=1")
            && got[0].contains(" smp=1"),
        "{got:?}"
    );
    // Every option line exactly as the case writes it, in its order, and `done=1` last.
    let features = expected.iter().take_while(|l| l.starts_with("feature "));
    assert_eq!(got[1..], features.cloned().collect::<Vec<_>>());
    e.send_all(&inputs[2..]);
    let got = texts(&e.until_exact("pong 7"));
    // Each refused option: a `#` comment saying why, then the protocol's error.
    let answers: Vec<&String> = got.iter().filter(|l| !l.starts_with("# ")).collect();
    let expected_answers = &expected[expected.len() - 3..];
    assert_eq!(
        answers,
        expected_answers.iter().collect::<Vec<_>>(),
        "{got:?}"
    );
    assert_eq!(got.len(), 5, "{got:?}");
    e.finish();
}
