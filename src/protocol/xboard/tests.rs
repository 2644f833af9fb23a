use super::*;
use crate::rules::RuleSet;
use crate::search::levels::Style;
use crate::search::strength::Strength;
use crate::search::tt::{Bound, TableStats};

fn dry() -> Xboard<Vec<u8>> {
    let mut x = Xboard::new(Vec::new(), None);
    x.on_line("xboard");
    x
}

/// Feeds lines and returns what was printed since the last call.
fn feed(x: &mut Xboard<Vec<u8>>, lines: &[&str]) -> Vec<String> {
    for l in lines {
        x.on_line(l);
    }
    take(x)
}

fn take(x: &mut Xboard<Vec<u8>>) -> Vec<String> {
    let text = String::from_utf8_lossy(x.output()).into_owned();
    x.output().clear();
    text.lines().map(str::to_string).collect()
}

/// Ends the oldest running search as if it had found `best`.
fn done(x: &mut Xboard<Vec<u8>>, best: Option<&str>, ponder: Option<&str>, score: i32) {
    x.on_report(Report::Done(SearchResult {
        best: best.map(|m| m.parse().unwrap()),
        ponder: ponder.map(|m| m.parse().unwrap()),
        score,
        depth: 6,
        root_moves: 40,
        table: TableStats::default(),
        nodes: 0,
    }));
}

fn info(depth: i32, score: i32, pv: &[&str]) -> Report {
    Report::Info(Info {
        depth,
        seldepth: depth,
        score,
        bound: Bound::Exact,
        nodes: 12345,
        time_ms: 1234,
        nps: 10000,
        hashfull: 0,
        tbhits: 0,
        multipv: None,
        pv: pv.iter().map(|m| m.parse().unwrap()).collect(),
    })
}

#[test]
fn features_answer_protover_2() {
    let mut x = dry();
    let out = feed(&mut x, &["protover 2"]);
    for f in [
        "myname=\"Jiangjun ",
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "analyze=1",
        "colors=0",
        "memory=1",
        "smp=1",
    ] {
        assert!(
            out[0].starts_with("feature ") && out[0].contains(f),
            "{f}: {out:?}"
        );
    }
    // The options come between the first line and `done=1`, which is last.
    assert_eq!(out.last().map(String::as_str), Some("feature done=1"));
    let options = &out[1..out.len() - 1];
    assert_eq!(options, options::cecp_features().as_slice());
    assert!(feed(
        &mut x,
        &["accepted setboard", "rejected nps", "variant xiangqi"]
    )
    .is_empty());
    let out = feed(&mut x, &["variant normal"]);
    assert_eq!(out, vec!["Error (unsupported variant): variant normal"]);
}

/// The option lines in XBoard's syntax, exactly; and what a UCCI or UCI GUI cannot use in a
/// CECP game (the clock unit, batch mode, pondering, WDL, rank numbering, the variant) is
/// not offered.
#[test]
fn option_features_have_xboards_shapes() {
    let lines = options::cecp_features();
    for expected in [
        "feature option=\"Hash -spin 64 1 16384\"",
        "feature option=\"Threads -spin 1 1 256\"",
        "feature option=\"OwnBook -check 1\"",
        "feature option=\"BookFile -file <built-in>\"",
        "feature option=\"Randomness -combo *none /// tiny /// small /// medium /// large /// huge\"",
        "feature option=\"Repetition -combo *cxa2011 /// axf\"",
        "feature option=\"Style -combo solid /// *normal /// risky\"",
        "feature option=\"MultiPV -spin 1 1 128\"",
        "feature option=\"UCI_LimitStrength -check 0\"",
        "feature option=\"UCI_Elo -spin 930 930 2830\"",
        "feature option=\"EvalFile -file <built-in>\"",
        "feature option=\"Use NNUE -check 1\"",
        "feature option=\"AllowResign -check 1\"",
        "feature option=\"Clear Hash -button\"",
    ] {
        assert!(lines.iter().any(|l| l == expected), "{expected}: {lines:?}");
    }
    for absent in [
        "usemillisec",
        "batch",
        "debug",
        "Ponder",
        "UCI_ShowWDL",
        "Rank Origin",
        "UCI_Variant",
    ] {
        assert!(
            !lines.iter().any(|l| l.contains(&format!("\"{absent} -"))),
            "{absent}: {lines:?}"
        );
    }
    for line in &lines {
        let text = line
            .strip_prefix("feature option=\"")
            .and_then(|t| t.strip_suffix('"'))
            .unwrap_or_else(|| panic!("{line}"));
        let (_, kind) = text.split_once(" -").unwrap();
        let words: Vec<&str> = kind.split(' ').collect();
        match words[0] {
            "check" => assert!(words[1..] == ["0"] || words[1..] == ["1"], "{line}"),
            "spin" => {
                let n: Vec<u64> = words[1..].iter().map(|w| w.parse().unwrap()).collect();
                assert!(n.len() == 3 && n[1] <= n[0] && n[0] <= n[2], "{line}");
            }
            "combo" => {
                let choices: Vec<&str> = kind["combo ".len()..].split(" /// ").collect();
                let marked = choices.iter().filter(|c| c.starts_with('*')).count();
                assert!(choices.len() >= 2 && marked == 1, "{line}");
            }
            "file" => assert_eq!(words.len(), 2, "{line}"),
            "button" => assert_eq!(words.len(), 1, "{line}"),
            other => panic!("{other}: {line}"),
        }
    }
}

/// Every offered option, sent back at its default (`option NAME=VALUE`, a button bare), is
/// taken without a word: XBoard sends the options a user saved at each start.
#[test]
fn every_offered_option_takes_its_default_quietly() {
    let mut x = dry();
    for line in options::cecp_features() {
        let text = &line["feature option=\"".len()..line.len() - 1];
        let (name, kind) = text.split_once(" -").unwrap();
        let command = match kind.split_once(' ') {
            None => format!("option {name}"),
            Some(("combo", choices)) => {
                let default = choices.split(" /// ").find(|c| c.starts_with('*')).unwrap();
                format!("option {name}={}", &default[1..])
            }
            Some((_, value)) => format!("option {name}={}", value.split(' ').next().unwrap()),
        };
        assert!(feed(&mut x, &[&command]).is_empty(), "{command}");
    }
}

#[test]
fn options_change_the_engine_by_the_shared_path() {
    let mut x = dry();
    assert!(feed(
        &mut x,
        &[
            "option Threads=2",
            "option Hash=32",
            "option Style=risky",
            "option MultiPV=3",
            "option Repetition=axf",
            "option Move Overhead=100",
            "option UCI_LimitStrength=1",
            "option UCI_Elo=1500",
            "option Clear Hash",
        ]
    )
    .is_empty());
    assert_eq!((x.engine.threads(), x.engine.hash_mb()), (2, 32));
    let s = &x.config.settings;
    assert_eq!((s.style, s.multipv), (Style::Risky, 3));
    assert_eq!(s.repetition, RuleSet::Axf);
    assert_eq!(s.move_overhead_ms, 100);
    assert_eq!(s.strength(), Some(Strength::from_elo(1500)));
    // The move overhead counts in the time of a move.
    feed(&mut x, &["level 0 1 0", "time 3000", "otim 3000"]);
    let before = x.budget().unwrap();
    feed(&mut x, &["option Move Overhead=2000"]);
    let after = x.budget().unwrap();
    assert!(after.hard_ms < before.hard_ms, "{before:?} {after:?}");
    // Spellings are matched as in UCCI and UCI: without case, spaces, `_` or `-`.
    assert!(feed(&mut x, &["option threads = 3", "option move_overhead=20"]).is_empty());
    assert_eq!(x.engine.threads(), 3);
    assert_eq!(x.config.settings.move_overhead_ms, 20);
}

#[test]
fn bad_options_are_answered_and_the_engine_goes_on() {
    let mut x = dry();
    let out = feed(&mut x, &["option Threads=x"]);
    assert_eq!(
        out,
        vec![
            "# option Threads: 'x' is not a whole number; unchanged",
            "Error (bad value): option Threads=x",
        ]
    );
    let out = feed(&mut x, &["option Style=wild"]);
    assert_eq!(
        out.last().map(String::as_str),
        Some("Error (bad value): option Style=wild")
    );
    assert_eq!(x.config.settings.style, Style::Normal);
    let out = feed(&mut x, &["option Nonsense=1"]);
    assert_eq!(
        out,
        vec![
            "# option: unknown option 'Nonsense' ignored",
            "Error (unknown option): option Nonsense=1",
        ]
    );
    assert_eq!(
        feed(&mut x, &["option"]).last().map(String::as_str),
        Some("Error (unknown option): option")
    );
    // A value outside the announced range is brought into it, and said.
    let out = feed(&mut x, &["option Threads=100000"]);
    assert_eq!(
        out,
        vec!["# option Threads: 100000 is above 256; using 256"]
    );
    assert_eq!(x.engine.threads(), 256);
    // A book that cannot be read leaves the book as it was.
    let out = feed(&mut x, &["option BookFile=/no/such/book.jjb"]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("# ") && out[0].ends_with("book unchanged"),
        "{out:?}"
    );
    assert_eq!(feed(&mut x, &["ping 9"]), vec!["pong 9"]);
}

#[test]
fn memory_sets_the_table_to_what_fits_and_cores_the_threads() {
    let mut x = dry();
    let out = feed(&mut x, &["memory 64"]);
    assert_eq!(
        out,
        vec!["# memory 64: a 48 MB transposition table, about 16 MB for the rest"]
    );
    assert_eq!(x.engine.hash_mb(), 64 - OWN_MB);
    // More threads need more memory beside the table.
    assert_eq!(
        feed(&mut x, &["cores 3"]),
        vec!["# memory 64: a 44 MB transposition table, about 20 MB for the rest"]
    );
    assert_eq!(x.engine.threads(), 3);
    assert_eq!(x.engine.hash_mb(), 64 - OWN_MB - 2 * THREAD_MB);
    // Too little memory still leaves a table.
    feed(&mut x, &["memory 10"]);
    assert_eq!(x.engine.hash_mb(), 1);
    // The user's own Hash wins until the next `memory`.
    assert!(feed(&mut x, &["option Hash=100", "cores 1"]).is_empty());
    assert_eq!((x.engine.hash_mb(), x.engine.threads()), (100, 1));
    feed(&mut x, &["memory 128"]);
    assert_eq!(x.engine.hash_mb(), 128 - OWN_MB);
    for bad in ["memory 0", "memory x", "cores 0", "cores -1"] {
        let out = feed(&mut x, &[bad]);
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("Error (bad "), "{out:?}");
    }
    assert_eq!((x.engine.hash_mb(), x.engine.threads()), (128 - OWN_MB, 1));
}

#[test]
fn the_engine_answers_as_black_after_the_users_move() {
    let mut x = dry();
    let out = feed(&mut x, &["new", "level 40 5 0", "post", "usermove h2e2"]);
    assert!(out.is_empty(), "{out:?}");
    assert!(x.is_thinking());
    x.on_report(info(3, 25, &["h9g7", "h0g2"]));
    assert_eq!(take(&mut x), vec!["3 25 123 12345 h9g7 h0g2"]);
    done(&mut x, Some("h9g7"), None, 25);
    assert_eq!(take(&mut x), vec!["move h9g7"]);
    assert!(!x.is_thinking());
    assert_eq!(x.game().history().len(), 2);
    // nopost: no thinking lines.
    feed(&mut x, &["nopost", "h0g2"]);
    x.on_report(info(3, 25, &["i9h9"]));
    assert!(take(&mut x).is_empty());
}

#[test]
fn force_mode_takes_moves_and_go_plays_the_side_to_move() {
    let mut x = dry();
    assert!(feed(&mut x, &["new", "force", "usermove h2e2", "usermove h9g7"]).is_empty());
    assert!(!x.is_thinking());
    feed(&mut x, &["go"]);
    assert!(x.is_thinking());
    done(&mut x, Some("h0g2"), None, 0);
    assert_eq!(take(&mut x), vec!["move h0g2"]);
    // The engine now plays Red: Black's reply makes it think again.
    feed(&mut x, &["usermove i9h9"]);
    assert!(x.is_thinking());
}

#[test]
fn illegal_moves_and_bad_commands_are_reported() {
    let mut x = dry();
    feed(&mut x, &["new", "force"]);
    let out = feed(&mut x, &["usermove e3e5"]);
    assert!(out[0].starts_with("Illegal move ("), "{out:?}");
    assert!(out[0].ends_with("): e3e5"), "{out:?}");
    let out = feed(&mut x, &["usermove zz"]);
    assert!(out[0].starts_with("Illegal move ("), "{out:?}");
    assert!(out[0].ends_with("): zz"), "{out:?}");
    assert_eq!(x.game().history().len(), 0);
    assert_eq!(
        feed(&mut x, &["frobnicate 3"]),
        vec!["Error (unknown command): frobnicate 3"]
    );
    assert_eq!(feed(&mut x, &["sd x"]), vec!["Error (bad depth): sd x"]);
    assert_eq!(
        feed(&mut x, &["setboard rnbakabnr/9/9 w"]),
        vec!["tellusererror Illegal position"]
    );
    assert_eq!(
        feed(&mut x, &["undo"]),
        vec!["Error (no move to undo): undo"]
    );
}

#[test]
fn setboard_undo_and_remove() {
    let mut x = dry();
    feed(
        &mut x,
        &[
            "new",
            "force",
            "setboard 4k4/9/9/9/9/9/9/9/4A4/3K5 b - - 0 1",
        ],
    );
    assert_eq!(x.game().side_to_move(), Color::Black);
    feed(&mut x, &["e9e8", "d0d1", "e8e9"]);
    assert_eq!(x.game().history().len(), 3);
    feed(&mut x, &["undo"]);
    assert_eq!(x.game().history().len(), 2);
    feed(&mut x, &["remove"]);
    assert_eq!(x.game().history().len(), 0);
    assert_eq!(x.game().side_to_move(), Color::Black);
}

#[test]
fn ping_without_a_number_gets_a_clean_pong() {
    let mut x = dry();
    assert_eq!(feed(&mut x, &["ping "]), vec!["pong"]);
    assert_eq!(feed(&mut x, &["ping"]), vec!["pong"]);
    assert_eq!(feed(&mut x, &["ping \u{1}7\u{7f} 8"]), vec!["pong ?7?"]);
}

#[test]
fn quoted_input_cut_at_a_blank_leaves_no_trailing_blank() {
    let mut x = dry();
    let long = format!("use{}rmove f2g6", "\u{0}".repeat(72));
    let said = feed(&mut x, &[long.as_str()]);
    assert_eq!(said.len(), 1);
    assert!(
        said[0].starts_with("Error (unknown command): use??"),
        "{said:?}"
    );
    assert!(!said[0].ends_with(' '), "{said:?}");
    let said = feed(&mut x, &["usermove h2e2\u{1}             x"]);
    assert!(said[0].starts_with("Illegal move"), "{said:?}");
    assert!(
        !said[0].ends_with(' ') && !said[0].contains('\u{1}'),
        "{said:?}"
    );
}

#[test]
fn ping_waits_for_the_move_in_progress() {
    let mut x = dry();
    assert_eq!(feed(&mut x, &["ping 1"]), vec!["pong 1"]);
    feed(&mut x, &["new", "go"]);
    assert!(x.is_thinking());
    assert!(feed(&mut x, &["ping 2"]).is_empty());
    done(&mut x, Some("h2e2"), None, 0);
    assert_eq!(take(&mut x), vec!["move h2e2", "pong 2"]);
    // A command that changes the game drops the search, and the pong follows at once.
    feed(&mut x, &["new", "go", "ping 3"]);
    assert_eq!(feed(&mut x, &["force"]), vec!["pong 3"]);
    // The dropped search's report changes nothing.
    done(&mut x, Some("h2e2"), None, 0);
    assert!(take(&mut x).is_empty());
    assert_eq!(x.game().history().len(), 0);
}

#[test]
fn analyze_shows_lines_until_exit() {
    let mut x = dry();
    feed(&mut x, &["new", "force", "analyze"]);
    // `analyze` posts without `post`; mate scores are ±100000 + N (N in moves).
    let score = crate::search::score::mate_in(3);
    let n = mate_in_moves(score).unwrap();
    x.on_report(info(5, score, &["h2e2"]));
    x.on_report(info(5, -score, &["h2e2"]));
    let out = take(&mut x);
    assert_eq!(out[0], format!("5 {} 123 12345 h2e2", 100_000 + n));
    let m = mate_in_moves(-score).unwrap();
    assert!(m <= 0);
    assert_eq!(out[1], format!("5 {} 123 12345 h2e2", -100_000 + m));
    // A move restarts the analysis on the new position; nothing is played.
    feed(&mut x, &["usermove h2e2"]);
    done(&mut x, Some("h2e2"), None, 0);
    assert!(take(&mut x).is_empty());
    assert_eq!(x.game().history().len(), 1);
    feed(&mut x, &["exit"]);
    done(&mut x, Some("h9g7"), None, 0);
    assert!(take(&mut x).is_empty());
    assert!(!x.is_thinking());
}

#[test]
fn pondering_turns_into_the_search_on_a_hit() {
    let mut x = dry();
    feed(&mut x, &["new", "hard", "h2e2"]);
    done(&mut x, Some("h9g7"), Some("h0g2"), 0);
    assert_eq!(take(&mut x), vec!["move h9g7"]);
    // Pondering on h0g2: not thinking on a move of our own, so ping answers at once.
    assert!(!x.is_thinking());
    assert_eq!(feed(&mut x, &["ping 7"]), vec!["pong 7"]);
    feed(&mut x, &["usermove h0g2"]);
    assert!(x.is_thinking());
    done(&mut x, Some("i9h9"), None, 0);
    assert_eq!(take(&mut x), vec!["move i9h9"]);
    // A miss drops the ponder search and searches the real reply.
    feed(&mut x, &["easy"]);
    feed(&mut x, &["hard"]);
    feed(&mut x, &["i0h0"]);
    done(&mut x, Some("b9c7"), Some("b0c2"), 0);
    take(&mut x);
    feed(&mut x, &["c3c4"]);
    // Two searches are open: the dropped ponder and the new one.
    done(&mut x, Some("h7h0"), None, 0);
    assert!(take(&mut x).is_empty());
    done(&mut x, Some("a9a8"), None, 0);
    assert_eq!(take(&mut x), vec!["move a9a8"]);
}

#[test]
fn mate_is_claimed_and_ends_the_engines_play() {
    let mut x = dry();
    // After Red's b0b9 the engine (Black) is mated: d8 is the a8 rook's, e9 faces the king.
    feed(
        &mut x,
        &[
            "new",
            "force",
            "setboard 3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1",
        ],
    );
    // The engine plays Black from here.
    let out = feed(&mut x, &["playother", "b0b9"]);
    assert_eq!(out, vec!["1-0 {Black has no legal move}"], "{out:?}");
    assert!(!x.is_thinking());
}

#[test]
fn quit_and_end_of_input() {
    let mut x = dry();
    feed(&mut x, &["new", "go"]);
    x.on_eof();
    // The move in progress is still played, then the session ends.
    assert_eq!(x.exit_code(), None);
    done(&mut x, Some("h2e2"), None, 0);
    assert_eq!(take(&mut x), vec!["move h2e2"]);
    assert_eq!(x.exit_code(), Some(0));
    let mut x = dry();
    feed(&mut x, &["quit"]);
    assert_eq!(x.exit_code(), Some(0));
    assert!(feed(&mut x, &["ping 1"]).is_empty());
}

#[test]
fn time_controls_set_the_budget() {
    assert_eq!(parse_level("40 5 0"), Some((40, 300_000, 0)));
    assert_eq!(parse_level("0 0:30 2"), Some((0, 30_000, 2000)));
    assert_eq!(parse_level("0 2 0.5"), Some((0, 120_000, 500)));
    assert_eq!(parse_level("40 x 0"), None);
    assert_eq!(parse_level("40 5"), None);
    let mut x = dry();
    feed(&mut x, &["new", "st 2"]);
    let b = x.budget().unwrap();
    assert!(b.hard_ms <= 2000, "{b:?}");
    feed(&mut x, &["level 0 1 0", "time 100", "otim 100"]);
    let b = x.budget().unwrap();
    assert!(b.hard_ms <= 1000, "{b:?}");
    // No time control at all: a fixed time per move, so the engine still answers.
    let mut x = dry();
    let b = x.budget().unwrap();
    assert!(b.hard_ms <= DEFAULT_MOVE_MS, "{b:?}");
    // Depth alone: no time limit.
    feed(&mut x, &["sd 4"]);
    assert!(x.budget().is_none());
}

#[test]
fn draw_offers_and_first_line() {
    assert!(is_hello("xboard"));
    assert!(is_hello("xboard\r"));
    assert!(!is_hello("ucci"));
    // A dead-drawn position: the offer is accepted with the move; with `AllowDraw` off the
    // move comes alone.
    for (allow, said) in [
        ("1", vec!["offer draw", "move d0d1"]),
        ("0", vec!["move d0d1"]),
    ] {
        let mut x = dry();
        let option = format!("option AllowDraw={allow}");
        feed(
            &mut x,
            &[
                &option,
                "new",
                "force",
                "setboard 4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1",
                "draw",
                "go",
            ],
        );
        done(&mut x, Some("d0d1"), None, 0);
        assert_eq!(take(&mut x), said);
    }
}

/// Names an `option` command may carry: every offered one, spellings of others, and junk.
fn option_names() -> Vec<String> {
    let mut names: Vec<String> = options::cecp_features()
        .iter()
        .filter_map(|l| l["feature option=\"".len()..].split(" -").next())
        .map(str::to_string)
        .collect();
    for other in [
        "hashsize",
        "promotion",
        "tune_rfp_margin",
        "Nonsense",
        "",
        " = ",
    ] {
        names.push(other.to_string());
    }
    names
}

const OPTION_VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "3",
    "99999999999999999999999",
    "x",
    "",
    "<built-in>",
    "none",
    "risky",
    "axf",
    "*none",
    "/no/such/file",
    "1 2",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: 64,
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// Whatever `option` commands arrive, each is answered in `#` lines and `Error (...)` at
    /// most, and the engine still answers `ping`.
    #[test]
    fn random_option_commands_never_break_the_session(
        picks in proptest::collection::vec((0usize..64, 0usize..64, proptest::bool::ANY), 1..12),
    ) {
        let names = option_names();
        let mut x = dry();
        for (name, value, button) in picks {
            let name = &names[name % names.len()];
            let command = if button {
                format!("option {name}")
            } else {
                format!("option {name}={}", OPTION_VALUES[value % OPTION_VALUES.len()])
            };
            let out = feed(&mut x, &[command.as_str(), "ping 5"]);
            proptest::prop_assert_eq!(out.last().map(String::as_str), Some("pong 5"));
            for line in &out[..out.len() - 1] {
                proptest::prop_assert!(
                    line.starts_with("# ") || line.starts_with("Error ("),
                    "{}: {:?}",
                    command,
                    out
                );
            }
        }
    }
}
