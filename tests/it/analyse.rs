//! `jiangjun analyse` run as a user runs it, on a short game with a hung rook, at a small
//! fixed depth (fast, and the same every run): the blunder is marked `??` with the better
//! move, the engine's own choices are not marked, every move has its score, the PGN reads
//! back to the same moves, the SVG is well-formed, the web page has its parts, both budgets
//! work, bad input exits 2.

use crate::cli_support::{run, temp_folder, write_file};

use jiangjun::records::pgn::parse_pgn;
use std::path::{Path, PathBuf};

fn folder(name: &str) -> PathBuf {
    temp_folder("analyse", name)
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    write_file(dir, name, text.as_bytes())
}

/// Red's third move a1b1?? puts the rook behind its own cannon on the b-file, where Black's
/// cannon takes it over that screen for nothing (b7b1).
const BLUNDER: &str = "[Event \"Analyse test\"]\n[Red \"Red & Co\"]\n[Black \"Black\"]\n\
[Result \"0-1\"]\n\n1. b0c2 b9c7 2. a0a1 a9a8 3. a1b1 b7b1 0-1\n";

/// The comments of the annotated game that stand after ply `ply`.
fn comments_at(game: &jiangjun::records::pgn::Game, ply: usize) -> Vec<&str> {
    game.comments
        .iter()
        .filter(|(p, _)| *p == ply)
        .map(|(_, c)| c.as_str())
        .collect()
}

#[test]
fn the_blunder_is_marked_and_the_pgn_reads_back() {
    let dir = folder("blunder");
    let game = write(&dir, "g.pgn", BLUNDER);
    let out = dir.join("out.pgn");
    let svg = dir.join("graph.svg");
    let (code, stdout, err) = run(&[
        "analyse",
        &game,
        "--depth",
        "4",
        "--notation",
        "iccs",
        "-o",
        out.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.is_empty(), "the PGN went to the file: {stdout}");
    // Not a terminal: a progress line at the end at least.
    assert!(err.contains("position 6 of 6"), "{err}");
    let text = std::fs::read_to_string(&out).expect("annotated PGN");
    assert!(text.contains("[Annotator \"Jiangjun "), "{text}");
    assert!(text.contains(", depth 4\"]"), "{text}");
    assert!(text.contains("A1-B1??"), "{text}");

    let annotated = parse_pgn(&text).expect("reads back").remove(0);
    let original = parse_pgn(BLUNDER).expect("reads").remove(0);
    assert_eq!(annotated.moves, original.moves);
    assert_eq!(annotated.tag("Red"), Some("Red & Co"));
    assert!(annotated.marks.contains(&(5, "??".to_string())), "{text}");
    // Taking the rook is Black's best: no mark.
    assert!(!annotated.marks.iter().any(|(p, _)| *p == 6), "{text}");
    // A score after every move: `+N cp`, `-N cp` or a mate.
    for ply in 1..=6 {
        let c = comments_at(&annotated, ply);
        assert!(
            c.iter()
                .any(|c| c.starts_with('+') || c.starts_with('-') || c.starts_with('M')),
            "ply {ply}: {c:?}"
        );
    }
    let blunder = comments_at(&annotated, 5).join(" ");
    assert!(
        blunder.contains("blunder") && blunder.contains("better "),
        "{blunder}"
    );
    // After the blunder Black is ahead by more than a horse.
    let score: i32 = blunder
        .split(' ')
        .next()
        .and_then(|s| s.parse().ok())
        .expect("a score in centipawns");
    assert!(score < -300, "{blunder}");

    let svg = std::fs::read_to_string(&svg).expect("graph");
    assert_well_formed(&svg);
    assert!(svg.contains("<polyline"), "the curve");
    assert!(svg.contains("<path"), "the areas");
    assert!(
        svg.contains("<title>ply 5: Red ?? blunder</title>"),
        "the marker"
    );
    assert!(
        svg.contains("Red &amp; Co (Red) vs Black (Black)"),
        "the title"
    );
}

/// `--html`: one page, whole, that needs nothing from outside: a board per position, every
/// move in Chinese notation and ICCS, the blunder's mark and better move, the graph and the
/// stepping script inline; the players' names escaped. A page that cannot be written is an
/// error, and leaves nothing behind.
#[test]
fn the_web_page_has_every_position_and_nothing_from_outside() {
    let dir = folder("html");
    let game = write(
        &dir,
        "g.pgn",
        &BLUNDER.replace("Red & Co", "<i>Red</i> & 'Co'"),
    );
    let analyse = |depth: &str, page: &Path| {
        run(&[
            "analyse",
            &game,
            "--depth",
            depth,
            "--html",
            page.to_str().unwrap(),
        ])
    };
    let page = dir.join("report.html");
    let (code, _, err) = analyse("3", &page);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));

    let original = parse_pgn(BLUNDER).expect("reads").remove(0);
    let boards = html.matches("<svg class=\"board").count();
    assert_eq!(boards, original.moves.len() + 1);
    let mut pos = original.start.clone();
    let mut wanted = Vec::new();
    for (i, &m) in original.moves.iter().enumerate() {
        let zh = jiangjun::board::notation::to_chinese(&pos, m);
        wanted.push(format!(
            "data-go=\"{}\"><span class=\"zh\">{zh}</span>",
            i + 1
        ));
        wanted.push(format!("<span class=\"iccs\">{m}</span>"));
        pos.make_move(m);
    }
    wanted.extend(
        [
            // The blunder's mark and the better move, the graph, the keys, the board.
            "class=\"mv m-blunder\" href=\"#ply5\"",
            "<span class=\"mk\">??</span>",
            "better: ",
            "<svg class=\"graph\"",
            "'ArrowLeft'",
            "'End'",
            "楚 河",
            ">帅</text>",
            ">将</text>",
            "<h1>&lt;i&gt;Red&lt;/i&gt; &amp; &#39;Co&#39; (Red) vs Black (Black)</h1>",
        ]
        .map(String::from),
    );
    for part in &wanted {
        assert!(html.contains(part.as_str()), "{part}");
    }
    assert_eq!(html.matches("<script").count(), 1);
    assert_eq!(html.matches("<style>").count(), 1);
    for outside in ["http://", "https://", "<link", "src=", "<i>"] {
        assert!(!html.contains(outside), "{outside}");
    }
    // Written whole: no temporary file left; a folder that does not exist is an error.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let (code, _, err) = analyse("1", &dir.join("no/such/folder/report.html"));
    assert_ne!(code, 0);
    assert!(err.contains("cannot write"), "{err}");
}

/// Rough XML well-formedness: one root, every element closed in order, attributes quoted.
fn assert_well_formed(svg: &str) {
    let body = svg
        .trim_start()
        .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        .expect("XML declaration");
    let mut stack: Vec<String> = Vec::new();
    let mut rest = body;
    let mut roots = 0;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("tag closed") + start;
        let tag = &rest[start + 1..end];
        assert_eq!(tag.matches('"').count() % 2, 0, "quotes in <{tag}>");
        if let Some(name) = tag.strip_prefix('/') {
            assert_eq!(stack.pop().as_deref(), Some(name.trim()), "</{name}>");
        } else if !tag.ends_with('/') {
            if stack.is_empty() {
                roots += 1;
            }
            stack.push(tag.split_whitespace().next().unwrap_or("").to_string());
        } else if stack.is_empty() {
            roots += 1;
        }
        let text = &rest[end + 1..];
        let next = text.find('<').unwrap_or(text.len());
        assert!(!text[..next].contains('>'), "a stray > in text");
        assert!(
            !text[..next]
                .replace("&amp;", "")
                .replace("&lt;", "")
                .replace("&gt;", "")
                .contains('&'),
            "an unescaped & in text"
        );
        rest = text;
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
    assert_eq!(roots, 1, "one root element");
}

#[test]
fn movetime_works_and_writes_to_stdout() {
    let dir = folder("movetime");
    let game = write(&dir, "g.pgn", BLUNDER);
    let (code, stdout, err) = run(&["analyse", &game, "--movetime", "20", "--threshold", "100"]);
    assert_eq!(code, 0, "{err}");
    assert!(stdout.contains("movetime 20 ms\"]"), "{stdout}");
    let g = parse_pgn(&stdout).expect("reads back").remove(0);
    assert_eq!(g.moves.len(), 6);
    // The game's own Format is kept when --notation is not given: none here, so Chinese.
    assert!(stdout.contains("[Format \"Chinese\"]"), "{stdout}");
}

#[test]
fn the_referee_notes_a_repetition() {
    let dir = folder("repetition");
    // Both sides shuffle a horse out and back twice: the start position stands a third time.
    let text = "1. h0g2 h9g7 2. g2h0 g7h9 3. h0g2 h9g7 4. g2h0 g7h9 1/2-1/2\n";
    let game = write(&dir, "g.pgn", text);
    let (code, stdout, err) = run(&["analyse", &game, "--depth", "2", "--notation", "iccs"]);
    assert_eq!(code, 0, "{err}");
    let g = parse_pgn(&stdout).expect("reads back").remove(0);
    let notes: Vec<&(usize, String)> = g
        .comments
        .iter()
        .filter(|(_, c)| c.starts_with("referee"))
        .collect();
    assert!(
        notes
            .iter()
            .any(|(p, c)| *p == 4 && c.contains("the position after ply 0")),
        "{notes:?}"
    );
    assert!(
        notes
            .iter()
            .any(|(p, c)| *p == 8 && c.contains("referee (cxa2011): draw")),
        "{notes:?}"
    );
}

/// `--nnue` and `--handwritten` choose the evaluation: the scores differ, and the default is
/// one of the two.
#[test]
fn the_evaluation_flags_choose_the_scores() {
    let dir = folder("evaluation");
    let game = write(&dir, "g.pgn", BLUNDER);
    let analysed = |flag: &[&str]| {
        let mut args = vec![
            "analyse",
            game.as_str(),
            "--depth",
            "3",
            "--notation",
            "iccs",
        ];
        args.extend_from_slice(flag);
        let (code, stdout, err) = run(&args);
        assert_eq!(code, 0, "{flag:?}: {err}");
        stdout
    };
    let (hand, nnue) = (analysed(&["--handwritten"]), analysed(&["--nnue"]));
    assert_ne!(hand, nnue);
    let default = if jiangjun::eval::nnue::DEFAULT_ON {
        &nnue
    } else {
        &hand
    };
    assert_eq!(&analysed(&[]), default);
}

#[test]
fn bad_input_exits_2() {
    let dir = folder("bad");
    let missing = dir.join("missing.pgn");
    let (code, _, err) = run(&["analyse", missing.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");

    let illegal = write(&dir, "illegal.pgn", "1. h2e2 h9g7 2. a0a5 *\n");
    let (code, _, err) = run(&["analyse", &illegal, "--depth", "1"]);
    assert_eq!(code, 2);
    assert!(err.contains("ply 3"), "{err}");

    let game = write(&dir, "g.pgn", BLUNDER);
    let (code, _, err) = run(&["analyse", &game, "--game", "2"]);
    assert_eq!(code, 2);
    assert!(err.contains("no game 2"), "{err}");
    for args in [
        &["--depth", "0"][..],
        &["--movetime", "x"],
        &["--depth", "3", "--movetime", "100"],
        &["--notation", "latin"],
        &["--rules", "fide"],
        &["--bogus"],
        &["--nnue", "--handwritten"],
        &["--evalfile", "/nonexistent/net.jjnn"],
    ] {
        let mut all = vec!["analyse", game.as_str()];
        all.extend_from_slice(args);
        let (code, _, err) = run(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("usage:"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// An only move (Black's e8d9, out of check) is searched to the budget like any other: a
/// one-iteration search scored it about 450 cp too low for Black and put a false dip in the
/// graph. Its score must agree with a search of the position after it at about that depth
/// (depths 7 to 9), within 150 cp: the successor's own score moves by up to 90 cp from one
/// depth to the next, and the only move's at depth 8 by up to 120 cp from its neighbours'
/// (with the round-6 network: 465, 358 and 454 cp at depths 7, 8 and 9).
#[test]
fn an_only_move_is_searched_to_the_depth() {
    const FEN: &str = "2R1k1b2/4a4/5a3/1n7/p3c4/9/P5r2/2N1B4/4A4/2C1K4 b - - 0 1";
    let dir = folder("only_move");
    let game = write(
        &dir,
        "g.pgn",
        &format!("[Event \"Only move\"]\n[FEN \"{FEN}\"]\n[Result \"*\"]\n\n1... e8d9 *\n"),
    );
    let (code, stdout, err) = run(&["analyse", &game, "--depth", "8", "--notation", "iccs"]);
    assert_eq!(code, 0, "{err}");
    let after: i32 = stdout
        .split("E8-D9 {")
        .nth(1)
        .and_then(|r| r.split(" cp").next())
        .and_then(|n| n.trim_start_matches('+').parse().ok())
        .unwrap_or_else(|| panic!("no score after the move: {stdout}"));
    let mut engine = jiangjun::engine::Engine::new();
    let start = jiangjun::board::Position::from_fen(FEN).unwrap();
    engine.set_game(start, &["e8d9".parse().unwrap()]).unwrap();
    // Red to move after e8d9: the score is Red's, as the annotation's is.
    let successor: Vec<i32> = (7..=9)
        .map(|depth| {
            let limits = jiangjun::search::limits::Limits {
                depth: Some(depth),
                ..Default::default()
            };
            engine.search_blocking(limits, |_| {}).score
        })
        .collect();
    assert!(
        successor.iter().any(|s| (after - s).abs() <= 150),
        "only move scored {after}, the position after it {successor:?} at depths 7-9: {stdout}"
    );
}
