//! `jiangjun match` and `jiangjun tournament` run as a user runs them, with the random test
//! engine of `tests/doubles/random_engine.rs` as players.

use crate::cli_support;
use cli_support::run;

use std::path::PathBuf;

/// The test double, built by cargo as a binary target of this package for every test run.
fn random_engine() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_random_engine"))
}

fn engine(name: &str, seed: u32) -> [String; 2] {
    [
        "--engine".into(),
        format!(
            "cmd={},name={name},arg=--seed,arg={seed}",
            random_engine().display()
        ),
    ]
}

fn openings() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/openings.txt").to_string()
}

#[test]
fn match_prints_progress_summary_and_pgn() {
    let pgn = std::env::temp_dir().join(format!("jiangjun-cli-{}.pgn", std::process::id()));
    let _ = std::fs::remove_file(&pgn);
    let mut args: Vec<String> = vec!["match".into()];
    args.extend(engine("alpha", 1));
    args.extend(engine("beta", 2));
    for a in [
        "--games",
        "4",
        "--tc",
        "40/5",
        "--openings",
        &openings(),
        "--concurrency",
        "2",
        "--sprt=-10,10",
        "--pgn",
        pgn.to_str().unwrap(),
    ] {
        args.push(a.into());
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        out.lines().filter(|l| l.starts_with('[')).count(),
        4,
        "{out}"
    );
    assert!(out.contains("Result alpha vs beta: W"), "{out}");
    assert!(out.contains("LOS"), "{out}");
    assert!(out.contains("SPRT elo0 -10 elo1 10 on 2 pairs"), "{out}");
    // Four games are two openings with colours exchanged: two pairs, counted by what
    // alpha scored over each.
    let pairs = out.lines().find(|l| l.starts_with("Pairs (")).expect(&out);
    let counts: u32 = pairs
        .split("): ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .take(5)
        .map(|n| n.parse::<u32>().unwrap())
        .sum();
    assert_eq!(counts, 2, "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event \"jiangjun match\"]").count(), 4);
    assert_eq!(text.matches("[TimeControl \"40/5\"]").count(), 4);
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn tournament_prints_crosstable() {
    let mut args: Vec<String> = vec!["tournament".into()];
    for (i, n) in ["one", "two", "three"].iter().enumerate() {
        args.extend(engine(n, i as u32 + 5));
    }
    for a in [
        "--tc",
        "movetime=1000",
        "--max-plies",
        "80",
        "--scoring",
        "3,1,0",
    ] {
        args.push(a.into());
    }
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("3 engines, 1 cycle(s), 3 rounds, 3 games"),
        "{out}"
    );
    assert!(out.contains("Final standings"), "{out}");
    assert!(out.contains("Order by 14.1"), "{out}");
    // Header plus one line per engine in the table.
    let table: Vec<&str> = out.lines().filter(|l| l.contains("  |")).collect();
    assert_eq!(table.len(), 4, "{out}");
}

#[test]
fn bad_arguments_and_missing_engines() {
    let (code, _, err) = run(&["match", "--engine", "/x"]);
    assert_eq!(code, 2);
    assert!(err.contains("exactly 2"), "{err}");
    let (code, _, err) = run(&[
        "match",
        "--engine",
        "cmd=/nonexistent/engine",
        "--engine",
        "cmd=/nonexistent/other",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("cannot run"), "{err}");
    let (code, _, _) = run(&["tournament", "--tc", "fast"]);
    assert_eq!(code, 2);
    let (code, out, _) = run(&["match", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--engine <SPEC>") && out.contains("An engine SPEC is cmd=PATH"));
}

/// Issue 17: `jiangjun match` of Jiangjun against itself under UCI used to lose every game by
/// "illegal move" (the runner took `UCI_Variant` to mean ranks 1–10; Jiangjun speaks 0–9 and
/// says so in its `Rank Origin` option). Each side plays both colours.
#[test]
fn uci_match_of_jiangjun_against_itself() {
    let me = env!("CARGO_BIN_EXE_jiangjun");
    // UCCI against UCI, then UCI against UCI.
    for (first, second) in [
        ("name=a", "name=b,proto=uci"),
        ("name=a,proto=uci", "name=b,proto=uci"),
    ] {
        let (code, out, err) = run(&[
            "match",
            "--engine",
            &format!("cmd={me},{first}"),
            "--engine",
            &format!("cmd={me},{second}"),
            "--games",
            "2",
            "--tc",
            "nodes=1000",
            "--max-plies",
            "40",
        ]);
        assert_eq!(code, 0, "{out}\n{err}");
        assert!(out.contains("(2 games"), "{out}");
        assert!(!out.contains("illegal move"), "{out}");
    }
}

/// Six games from the one start position at a node limit: the engine plays the first pair
/// again twice, and those copies are counted as games but not as pairs.
#[test]
fn pairs_that_replay_an_earlier_pair_are_left_out_of_the_pairs() {
    let me = env!("CARGO_BIN_EXE_jiangjun");
    let (code, out, err) = run(&[
        "match",
        "--engine",
        &format!("cmd={me},name=a,option.usebook=false"),
        "--engine",
        &format!("cmd={me},name=b,option.usebook=false"),
        "--games",
        "6",
        "--tc",
        "nodes=300",
        "--max-plies",
        "24",
        "--sprt",
        "0,5",
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("Note: 6 games from 1 opening: each is played up to 3 times"),
        "{out}"
    );
    assert!(out.contains("(6 games"), "{out}");
    assert!(out.contains("Replays: 2 pairs repeated"), "{out}");
    assert!(out.contains("on 1 pairs"), "{out}");
}

/// An engine that offers `UCI_Variant` but answers with ranks 0–9 and announces no rank
/// option: the runner guesses ranks 1–10, and its first answer (legal only with ranks from 0)
/// corrects the guess, as Red and as Black.
#[test]
fn rank_origin_is_corrected_by_the_first_move() {
    let log = std::env::temp_dir().join(format!("jiangjun-ranks-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&log);
    let random = random_engine();
    let (code, out, err) = run(&[
        "match",
        "--engine",
        &format!(
            "cmd={},name=guessed,proto=uci,arg=--variant-ranks0,arg=--seed,arg=3",
            random.display()
        ),
        "--engine",
        &format!(
            "cmd={},name=plain,proto=uci,arg=--seed,arg=4",
            random.display()
        ),
        "--games",
        "2",
        "--tc",
        "depth=1",
        "--max-plies",
        "30",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("(2 games"), "{out}");
    assert!(!out.contains("illegal move"), "{out}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("legal only with ranks from 0; switching"),
        "{text}"
    );
    let _ = std::fs::remove_file(&log);
}

/// Issue 17 §1: `--pgn-notation chinese` writes the games through `records::pgn`'s writer, and
/// `records::pgn::parse_pgn` reads them back to the moves played. The same match (same seeds,
/// one game at a time) written in ICCS is the reference.
#[test]
fn chinese_notation_pgn_reads_back_to_the_same_moves() {
    use jiangjun::records::pgn::parse_pgn;
    let mut games_by_notation = Vec::new();
    for notation in ["iccs", "chinese"] {
        let pgn = std::env::temp_dir().join(format!(
            "jiangjun-notation-{notation}-{}.pgn",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&pgn);
        let mut args: Vec<String> = vec!["match".into()];
        args.extend(engine("alpha", 11));
        args.extend(engine("beta", 12));
        for a in ["--games", "2", "--tc", "depth=1", "--max-plies", "60"] {
            args.push(a.into());
        }
        args.extend(["--pgn-notation".into(), notation.into()]);
        args.extend(["--pgn".into(), pgn.to_string_lossy().into_owned()]);
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{out}\n{err}");
        let text = std::fs::read_to_string(&pgn).unwrap();
        let _ = std::fs::remove_file(&pgn);
        let games = parse_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(games.len(), 2, "{text}");
        for g in &games {
            let format = if notation == "iccs" {
                "ICCS"
            } else {
                "Chinese"
            };
            assert_eq!(g.tag("Format"), Some(format), "{text}");
            assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
            assert!(!g.moves.is_empty(), "{text}");
        }
        if notation == "chinese" {
            assert!(text.contains('平') || text.contains('进') || text.contains('退'));
        }
        games_by_notation.push(games);
    }
    let moves = |i: usize| -> Vec<Vec<String>> {
        games_by_notation[i]
            .iter()
            .map(|g| g.moves.iter().map(|m| m.to_string()).collect())
            .collect()
    };
    assert_eq!(moves(0), moves(1));
}

/// An option the engine refuses (here a network file that is not there) is said by the engine
/// in an `info string` and the engine plays on with its default: the match header repeats
/// what each engine said while its options were set, so the organiser sees it before the
/// games count.
#[test]
fn refused_options_are_shown_in_the_header() {
    let me = env!("CARGO_BIN_EXE_jiangjun");
    for proto in ["", ",proto=uci"] {
        let (code, out, err) = run(&[
            "match",
            "--engine",
            &format!("cmd={me},name=a{proto},option.evalfile=no-such-network.jjnn"),
            "--engine",
            &format!("cmd={me},name=b{proto}"),
            "--games",
            "2",
            "--tc",
            "nodes=300",
            "--max-plies",
            "20",
        ]);
        assert_eq!(code, 0, "{out}\n{err}");
        let header: Vec<&str> = out.lines().take_while(|l| !l.starts_with('[')).collect();
        let a = header
            .iter()
            .position(|l| l.starts_with("  a: "))
            .expect("a's line");
        assert!(
            header[a + 1].starts_with("     says: evalfile: no-such-network.jjnn: "),
            "{header:?}"
        );
        let b = header
            .iter()
            .position(|l| l.starts_with("  b: "))
            .expect("b's line");
        assert!(
            header.get(b + 1).is_none_or(|l| !l.contains("says:")),
            "{header:?}"
        );
    }
}
