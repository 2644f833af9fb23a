//! The command parser's tests, kept out of `command.rs` so the parser reads on its own.

use super::*;
use crate::protocol::vocabulary;
use proptest::prelude::*;

fn ucci(line: &str) -> ParseOutcome {
    parse_line(line, Dialect::Ucci)
}

fn cmd(line: &str) -> Command {
    match ucci(line).result {
        Ok(c) => c,
        Err(e) => panic!("{line:?} gave {e}"),
    }
}

fn go(line: &str) -> GoParams {
    match cmd(line) {
        Command::Go(p) => *p,
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn setoption(line: &str) -> (String, Option<String>) {
    match cmd(line) {
        Command::SetOption { name, value } => (name, value),
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn position(line: &str) -> (PositionSpec, Vec<String>) {
    match cmd(line) {
        Command::Position { fen, moves } => (fen, moves),
        other => panic!("{line:?} gave {other:?}"),
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

#[test]
fn simple_commands_and_whitespace() {
    assert_eq!(cmd("ucci"), Command::Ucci);
    assert_eq!(cmd("uci\r\n"), Command::Uci);
    assert_eq!(cmd("ucicyclone"), Command::UciCyclone);
    assert_eq!(cmd("  \tISREADY \r"), Command::IsReady);
    assert_eq!(cmd("stop"), Command::Stop);
    assert_eq!(cmd("quit\n"), Command::Quit);
    assert_eq!(cmd("ucinewgame"), Command::UciNewGame);
    assert_eq!(cmd("uccinewgame"), Command::UciNewGame);
    assert_eq!(cmd("\u{feff}ucci"), Command::Ucci);
    assert_eq!(cmd("ponderhit"), Command::PonderHit { draw: false });
    assert_eq!(cmd("ponderhit draw"), Command::PonderHit { draw: true });
    let out = ucci("isready now");
    assert_eq!(out.result, Ok(Command::IsReady));
    assert_eq!(out.warnings.len(), 1);
}

#[test]
fn empty_and_unknown() {
    for blank in ["", "   ", "\r\n", "\t \t", "\0"] {
        let out = ucci(blank);
        assert_eq!(out.result, Err(ParseError::Empty));
        assert!(out.messages().is_empty());
    }
    // Whole-token match: ElephantEye's prefix match would take this as isready.
    let out = ucci("isreadyXYZ");
    assert!(
        matches!(&out.result, Err(ParseError::Unknown { command, .. }) if command == "isreadyXYZ")
    );
    assert!(out.messages()[0].contains("isreadyXYZ"));
    for line in ["foo bar", "d", "bench", "xboard", "help"] {
        assert!(
            matches!(ucci(line).result, Err(ParseError::Unknown { .. })),
            "{line}"
        );
    }
    let msg = parse_line("foo", Dialect::Uci).messages();
    assert_eq!(msg, vec!["unknown UCI command: foo".to_string()]);
    // A giant token is shortened in the message.
    let long = "x".repeat(10_000);
    let msg = ucci(&long).messages();
    assert!(msg[0].len() < 100, "{}", msg[0]);
}

#[test]
fn uci_debug_is_the_debug_option() {
    for (line, value) in [
        ("debug on", "on"),
        ("debug off", "off"),
        ("debug", "on"),
        ("DEBUG On", "On"),
    ] {
        let out = parse_line(line, Dialect::Uci);
        assert_eq!(
            out.result,
            Ok(Command::SetOption {
                name: "debug".into(),
                value: Some(value.into())
            }),
            "{line}"
        );
        assert!(out.messages().is_empty(), "{line}");
    }
    assert_eq!(
        parse_line("debug on now", Dialect::Uci).messages(),
        vec!["debug: ignored 'now'".to_string()]
    );
}

#[test]
fn setoption_forms() {
    // Transcripts 1 and 5.
    assert_eq!(
        setoption("setoption usemillisec true"),
        ("usemillisec".into(), Some("true".into()))
    );
    assert_eq!(setoption("setoption newgame"), ("newgame".into(), None));
    assert_eq!(
        setoption("setoption newgame  \r\n"),
        ("newgame".into(), None)
    );
    assert_eq!(
        setoption("setoption hashsize 64"),
        ("hashsize".into(), Some("64".into()))
    );
    assert_eq!(
        setoption("setoption Hash 64"),
        ("Hash".into(), Some("64".into()))
    );
    assert_eq!(
        setoption("setoption pruning  large"),
        ("pruning".into(), Some("large".into()))
    );
    assert_eq!(
        setoption("setoption bookfiles C:\\Program Files\\XQ\\book one.dat;D:\\b2.dat\r\n"),
        (
            "bookfiles".into(),
            Some("C:\\Program Files\\XQ\\book one.dat;D:\\b2.dat".into())
        )
    );
    assert_eq!(
        setoption("setoption name Hash value 32"),
        ("Hash".into(), Some("32".into()))
    );
    assert_eq!(
        setoption("setoption name Move  Overhead value 30"),
        ("Move Overhead".into(), Some("30".into()))
    );
    assert_eq!(
        setoption("setoption name Clear Hash"),
        ("Clear Hash".into(), None)
    );
    assert_eq!(
        setoption("setoption name EvalFile value"),
        ("EvalFile".into(), Some(String::new()))
    );
    assert_eq!(
        setoption("SETOPTION NAME UCI_Variant VALUE xiangqi"),
        ("UCI_Variant".into(), Some("xiangqi".into()))
    );
    assert_eq!(
        setoption("setoption name Book File value C:\\my books\\a b.obk "),
        ("Book File".into(), Some("C:\\my books\\a b.obk".into()))
    );
    for bad in [
        "setoption",
        "setoption   ",
        "setoption name",
        "setoption name value 3",
    ] {
        assert!(
            matches!(
                ucci(bad).result,
                Err(ParseError::Invalid {
                    command: "setoption",
                    ..
                })
            ),
            "{bad}"
        );
    }
}

#[test]
fn option_helpers() {
    assert_eq!(canonical_option_name("Hash"), "hashsize");
    assert_eq!(canonical_option_name("hashsize"), "hashsize");
    assert_eq!(canonical_option_name("Threads"), "threads");
    assert_eq!(canonical_option_name("Move Overhead"), "move overhead");
    for t in ["true", "TRUE", "on", "On", "1", "yes", " true "] {
        assert_eq!(parse_check_value(t), Some(true), "{t}");
    }
    for f in ["false", "FALSE", "off", "0", "no"] {
        assert_eq!(parse_check_value(f), Some(false), "{f}");
    }
    assert_eq!(parse_check_value("maybe"), None);
    assert_eq!(parse_check_value(""), None);
}

#[test]
fn positions() {
    // Transcripts 7-10.
    assert_eq!(
        position("position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"),
        (
            PositionSpec::Startpos,
            strings(&["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"])
        )
    );
    assert_eq!(
        position("position startpos"),
        (PositionSpec::Startpos, vec![])
    );
    assert_eq!(
        position(&format!("position fen {START} moves h2e2 h7e7")),
        (PositionSpec::Fen(START.into()), strings(&["h2e2", "h7e7"]))
    );
    assert_eq!(
        position(&format!("position fen {START} moves\r\n")),
        (PositionSpec::Fen(START.into()), vec![])
    );
    assert_eq!(
        position("position startpos moves h2e2 \r\n"),
        (PositionSpec::Startpos, strings(&["h2e2"]))
    );
    assert_eq!(
        position("position  fen\trnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w  -  -  0  1 "),
        (PositionSpec::Fen(START.into()), vec![])
    );
    let r = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r";
    assert_eq!(
        position(&format!("position fen {r}")),
        (PositionSpec::Fen(r.into()), vec![])
    );
    assert_eq!(
        position("position fen 4k4/9/9/9/9/9/9/9/4A4/3K5 b MOVES e9e8"),
        (
            PositionSpec::Fen("4k4/9/9/9/9/9/9/9/4A4/3K5 b".into()),
            strings(&["e9e8"])
        )
    );
    // Bad FENs are the board's business; the parser passes them on (transcripts 11).
    assert_eq!(
        position("position fen foobar"),
        (PositionSpec::Fen("foobar".into()), vec![])
    );
    // Malformed move tokens stay strings (transcripts 13).
    assert_eq!(
        position("position startpos moves h2e2 z9z9 h2"),
        (PositionSpec::Startpos, strings(&["h2e2", "z9z9", "h2"]))
    );
    for bad in [
        "position",
        "position fen",
        "position fen moves h2e2",
        "position foo",
        "position moves h2e2",
    ] {
        assert!(
            matches!(
                ucci(bad).result,
                Err(ParseError::Invalid {
                    command: "position",
                    ..
                })
            ),
            "{bad}"
        );
    }
    let out = ucci("position startpos junk moves h2e2");
    assert_eq!(
        out.result,
        Ok(Command::Position {
            fen: PositionSpec::Startpos,
            moves: strings(&["h2e2"])
        })
    );
    assert_eq!(out.warnings.len(), 1);
}

#[test]
fn cyclone_bare_positions() {
    // Transcripts 39 and 40.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
    assert_eq!(
        position(&format!("fen {fen} moves h2e2")),
        (PositionSpec::Fen(fen.into()), strings(&["h2e2"]))
    );
    assert_eq!(
        position("startpos moves h2e2"),
        (PositionSpec::Startpos, strings(&["h2e2"]))
    );
    assert!(matches!(
        ucci("fen").result,
        Err(ParseError::Invalid { .. })
    ));
}

#[test]
fn probe_and_banmoves() {
    assert_eq!(
        cmd("probe startpos moves h2e2"),
        Command::Probe {
            fen: PositionSpec::Startpos,
            moves: strings(&["h2e2"])
        }
    );
    assert_eq!(
        cmd("probe fen 9/9/9/9/9/9/9/9/9/9 w"),
        Command::Probe {
            fen: PositionSpec::Fen("9/9/9/9/9/9/9/9/9/9 w".into()),
            moves: vec![]
        }
    );
    assert!(matches!(
        ucci("probe").result,
        Err(ParseError::Invalid {
            command: "probe",
            ..
        })
    ));
    assert_eq!(
        cmd("banmoves h2e2 b2e2"),
        Command::BanMoves(strings(&["h2e2", "b2e2"]))
    );
    assert_eq!(cmd("banmoves"), Command::BanMoves(vec![]));
}

#[test]
fn go_forms() {
    assert_eq!(
        go("go"),
        GoParams {
            infinite: true,
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go infinite"),
        GoParams {
            infinite: true,
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go depth infinite"),
        GoParams {
            infinite: true,
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go depth 10"),
        GoParams {
            depth: Some(10),
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go nodes 216"),
        GoParams {
            nodes: Some(216),
            ..GoParams::default()
        }
    );
    assert_eq!(
        go("go movetime 1000"),
        GoParams {
            movetime: Some(1000),
            ..GoParams::default()
        }
    );
    let p = go("go ponder time 295000 increment 0 opptime 300000 oppincrement 0");
    assert!(p.ponder && !p.draw && !p.infinite);
    assert_eq!(
        (p.time, p.increment, p.opptime, p.oppincrement),
        (Some(295000), Some(0), Some(300000), Some(0))
    );
    assert!(p.waits_for_stop());
    let p = go("go draw time 10000 increment 0");
    assert!(p.draw && !p.ponder && !p.waits_for_stop());
    let p = go("go time 60000 movestogo 10 opptime 45000 oppmovestogo 12");
    assert_eq!(
        (p.time, p.movestogo, p.opptime, p.oppmovestogo),
        (Some(60000), Some(10), Some(45000), Some(12))
    );
    // Transcripts 18: any order, extra keys.
    let p = go("go time 60000 opptime 60000 oppincrement 3000 increment 3000 depth 99");
    assert_eq!(
        (p.time, p.opptime, p.oppincrement, p.increment, p.depth),
        (Some(60000), Some(60000), Some(3000), Some(3000), Some(99))
    );
    // UCI.
    let p = go("go wtime 60000 btime 55000 winc 1000 binc 1000 movestogo 5");
    assert_eq!(
        (p.wtime, p.btime, p.winc, p.binc, p.movestogo),
        (Some(60000), Some(55000), Some(1000), Some(1000), Some(5))
    );
    assert!(!p.infinite);
    let p = go("go mate 3 searchmoves h2e2 b2e2 depth 7");
    assert_eq!((p.mate, p.depth), (Some(3), Some(7)));
    assert_eq!(p.searchmoves, strings(&["h2e2", "b2e2"]));
    assert_eq!(go("GO PERFT 4").perft, Some(4));
    // Flags alone still mean "until stop".
    assert!(go("go ponder").infinite);
    assert!(go("go draw").infinite);
    assert!(go("go increment 5").infinite);
}

#[test]
fn go_numbers_are_clamped_never_fatal() {
    // Transcripts 21.
    let out = ucci("go time -500 increment -1");
    let Ok(Command::Go(p)) = &out.result else {
        panic!("{out:?}")
    };
    assert_eq!((p.time, p.increment), (Some(0), Some(0)));
    assert_eq!(out.warnings.len(), 2);
    assert_eq!(go("go depth 0").depth, Some(0));
    assert_eq!(go("go depth 99999999999").depth, Some(u32::MAX));
    assert_eq!(
        go("go nodes 99999999999999999999999999999999").nodes,
        Some(u64::MAX)
    );
    assert_eq!(go("go time +5").time, Some(5));
    let out = ucci("go nodes abc");
    let Ok(Command::Go(p)) = &out.result else {
        panic!("{out:?}")
    };
    assert_eq!(p.nodes, Some(0));
    assert!(
        !p.infinite,
        "a garbage limit must not turn into an endless search"
    );
    assert_eq!(out.warnings.len(), 1);
    assert_eq!(go("go depth x").depth, Some(1));
    assert_eq!(go("go movestogo x time 5").movestogo, None);
    // A keyword where a value should be is not swallowed.
    let out = ucci("go depth time 1000");
    let Ok(Command::Go(p)) = &out.result else {
        panic!("{out:?}")
    };
    assert_eq!((p.depth, p.time), (Some(1), Some(1000)));
    assert_eq!(out.warnings.len(), 1);
    let out = ucci("go time");
    let Ok(Command::Go(p)) = &out.result else {
        panic!("{out:?}")
    };
    assert_eq!(p.time, Some(0));
    let out = ucci("go frobnicate 3 depth 2");
    let Ok(Command::Go(p)) = &out.result else {
        panic!("{out:?}")
    };
    assert_eq!(p.depth, Some(2));
    assert_eq!(out.warnings.len(), 2);
    for text in ["-", "+", "1.5", "1e9", "0x10", "١٢"] {
        assert!(matches!(parse_number(text), Number::Garbage), "{text}");
    }
    assert!(matches!(parse_number("-0"), Number::Negative));
    assert!(matches!(
        parse_number("18446744073709551615"),
        Number::Value(u64::MAX)
    ));
    assert!(matches!(parse_number("18446744073709551616"), Number::Huge));
}

#[test]
fn huge_lines_are_linear() {
    // ~1 MB of moves (a game far longer than any real one) and a 1 MB garbage token.
    let moves: Vec<&str> = ["h2e2", "h9g7", "h0g2", "i9h9"]
        .iter()
        .copied()
        .cycle()
        .take(200_000)
        .collect();
    let line = format!("position startpos moves {}", moves.join(" "));
    let (_, parsed) = position(&line);
    assert_eq!(parsed.len(), 200_000);
    let line = format!("go {}", "depth 1 ".repeat(100_000));
    assert_eq!(go(&line).depth, Some(1));
    let line = format!("go {}", "x ".repeat(100_000));
    let out = ucci(&line);
    assert_eq!(out.warnings.len(), MAX_WARNINGS + 1);
    assert!(
        out.warnings[MAX_WARNINGS].contains("99992 more"),
        "{:?}",
        out.warnings
    );
    let line = "9".repeat(1_000_000);
    assert!(ucci(&format!("go nodes {line}")).command().is_some());
    assert!(ucci(&line).result.is_err());
    let line = " ".repeat(1_000_000);
    assert_eq!(ucci(&line).result, Err(ParseError::Empty));
}

/// Every message must be a single printable line: it goes out as `info string …`.
fn check_outcome(line: &str, out: &ParseOutcome) {
    assert!(out.warnings.len() <= MAX_WARNINGS + 1);
    for m in out.messages() {
        assert!(!m.chars().any(|c| c.is_control()), "{line:?} → {m:?}");
        assert!(m.chars().count() < 200, "{line:?} → {m:?}");
    }
    match &out.result {
        Ok(Command::Position { fen, moves }) | Ok(Command::Probe { fen, moves }) => {
            if let PositionSpec::Fen(f) = fen {
                let trimmed = f.trim_matches(|c: char| c.is_ascii() && is_separator(c as u8));
                assert!(!f.is_empty() && trimmed == f, "{line:?}");
            }
            assert!(moves
                .iter()
                .all(|m| !m.is_empty() && !m.contains([' ', '\t', '\r', '\n'])));
        }
        Ok(Command::SetOption { name, .. }) => assert!(!name.is_empty()),
        _ => {}
    }
}

/// Every GUI input line of transcripts.md, in the form the GUI sends it.
const TRANSCRIPT_LINES: &[&str] = &[
    "ucci",
    "uci",
    "go",
    "quit",
    "stop",
    "isready",
    "ponderhit",
    "ucinewgame",
    "uccinewgame",
    "go infinite",
    "go depth 0",
    "go depth 6",
    "go nodes 216",
    "go time 5000",
    "go movetime 500",
    "go draw depth 5",
    "go depth 99999999999",
    "go time 30 increment 1",
    "go time 10000 increment 0",
    "go draw time 10000 increment 0",
    "go ponder time 295000 increment 0",
    "go wtime 60000 btime 55000 winc 1000 binc 1000",
    "go time 300000 increment 0 opptime 300000 oppincrement 0",
    "go time 60000 movestogo 10 opptime 45000 oppmovestogo 12",
    "go ponder time 295000 increment 0 opptime 300000 oppincrement 0",
    "go time 60000 opptime 60000 oppincrement 3000 increment 3000 depth 99",
    "probe startpos",
    "probe fen 9/9/9/9/9/9/9/9/9/9 w",
    "banmoves h2e2 b2e2",
    "setoption Hash 64",
    "setoption newgame",
    "setoption Threads 2",
    "setoption idle none",
    "setoption threads 0",
    "setoption batch true",
    "setoption hashsize 0",
    "setoption usebook off",
    "setoption style normal",
    "setoption useegtb true",
    "setoption usebook FALSE",
    "setoption pruning  large",
    "setoption nosuchoption 42",
    "setoption promotion false",
    "setoption randomness huge",
    "setoption guiname XQWizard",
    "setoption usemillisec true",
    "setoption usemillisec false",
    "setoption name Hash value 128",
    "setoption name UCI_Variant value xiangqi",
    "setoption bookfiles C:\\Program Files\\XQ\\book one.dat;D:\\b2.dat",
    "startpos moves h2e2",
    "position startpos",
    "position startpos moves",
    "position startpos moves h2e2 \r\n",
    "position startpos moves h2e2 h2e2 h9g7",
    "position startpos moves h3e3 h10g8",
    "position startpos moves h2e2 z9z9 h2",
    "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
    "position fen 4k4/9/9/9/9/9/9/9/4A4/3K5 b",
    "position fen 3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1",
    "position fen 4k4/9/9/9/9/9/9/9/4A4/RNCAK4 w - - 0 1",
    "position fen 4C4/4a4/b2ank2b/9/9/1RNR1crC1/3r1p3/3cKA3/4A4/4n4 w - - 0 1",
    "position fen 9/2Cca4/3k1C3/4P1p2/4N1b2/4R1r2/4c1n2/3p1n3/2rNK4/9 w - - 0 1",
    "position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
    "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
    "position fen rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2 moves d9e8",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves\r\n",
];

#[test]
fn transcript_lines_parse_cleanly() {
    for line in TRANSCRIPT_LINES {
        for dialect in [Dialect::Ucci, Dialect::Uci] {
            let out = parse_line(line, dialect);
            assert!(out.result.is_ok(), "{line:?}: {:?}", out.result);
            assert!(out.warnings.is_empty(), "{line:?}: {:?}", out.warnings);
            check_outcome(line, &out);
        }
    }
    // The deliberately bad ones.
    assert!(matches!(
        ucci("foo bar").result,
        Err(ParseError::Unknown { .. })
    ));
    for line in ["go nodes abc", "go time -500 increment -1"] {
        let out = ucci(line);
        assert!(
            out.command().is_some() && !out.warnings.is_empty(),
            "{line}"
        );
    }
}

const ADVERSARIAL: &[&str] = &[
    "ucci",
    "setoption guiname XQWizard",
    "setoption usebook off",
    "setoption Threads 2",
    "setoption randomness huge",
    "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
    "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
    "position fen foobar",
    "position fen",
    "position startpos moves h2e2 h2e2 h9g7",
    "position startpos moves h3e3 h10g8",
    "go time 300000 increment 0 opptime 300000 oppincrement 0",
    "go time -500 increment -1",
    "go depth 99999999999",
    "go nodes abc",
    "go ponder time 295000 increment 0",
    "go draw depth 5",
    "banmoves h2e2 b2e2",
    "probe fen 9/9/9/9/9/9/9/9/9/9 w",
    "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2",
    "startpos moves h2e2",
    "go wtime 60000 btime 55000 winc 1000 binc 1000",
    "setoption name UCI_Variant value xiangqi",
    "go movetime",
    "go searchmoves",
    "go depth -",
    "go depth --5",
    "setoption name",
    "setoption name value",
    "setoption \u{85}x \u{2028}y",
    "position fen \u{3000}moves",
    "go nodes \u{ff11}",
    "\u{feff}",
    "\u{feff}\u{feff}ucci",
    "ponderhit draw draw",
    "\0\0isready\0",
];

#[test]
fn adversarial_lines_never_panic() {
    for line in ADVERSARIAL {
        for dialect in [Dialect::Ucci, Dialect::Uci] {
            check_outcome(line, &parse_line(line, dialect));
        }
    }
}

/// A line from nowhere: bytes decoded the way the engine loop decodes stdin, arbitrary chars,
/// a real line mangled (chars cut, inserted, or the rest dropped), or words of the protocol
/// between odd separators.
fn random_line() -> impl Strategy<Value = String> {
    let pool: Vec<&'static str> = TRANSCRIPT_LINES
        .iter()
        .chain(ADVERSARIAL)
        .copied()
        .collect();
    let mangled = (
        prop::sample::select(pool),
        prop::collection::vec((any::<u16>(), 0u8..4, any::<char>()), 1..6),
    )
        .prop_map(|(base, edits)| {
            let mut chars: Vec<char> = base.chars().collect();
            for (at, op, c) in edits {
                let at = usize::from(at) % (chars.len() + 1);
                match op {
                    0 if at < chars.len() => {
                        chars.remove(at);
                    }
                    1 => chars.insert(at, c),
                    2 => chars.insert(at, [' ', '\t', '-', '9', '\r'][at % 5]),
                    _ => chars.truncate(at),
                }
            }
            chars.into_iter().collect::<String>()
        });
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        prop::collection::vec(any::<char>(), 0..80).prop_map(|v| v.into_iter().collect()),
        mangled,
        prop::collection::vec(any::<(u16, u8)>(), 0..25)
            .prop_map(|picks| crate::protocol::vocabulary::line(&vocabulary::words(), &picks)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8000, ..ProptestConfig::default() })]

    #[test]
    fn random_lines_never_panic(line in random_line()) {
        for dialect in [Dialect::Ucci, Dialect::Uci] {
            let out = parse_line(&line, dialect);
            check_outcome(&line, &out);
            if let Ok(Command::Go(p)) = &out.result {
                for usemillisec in [false, true] {
                    for red in [false, true] {
                        let limits = p.limits(dialect, usemillisec, red);
                        if let Some(b) = crate::search::time::allocate(&limits) {
                            prop_assert!(
                                b.soft_ms >= 1 && b.soft_ms <= b.hard_ms,
                                "{:?}: {:?}",
                                line,
                                b
                            );
                        }
                    }
                }
            }
        }
    }
}
