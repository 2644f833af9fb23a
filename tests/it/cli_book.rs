//! `jiangjun book build --games` and `jiangjun book coverage` run as a user runs them, on a
//! small collection written here: good games (one filed twice, one mirrored), a game with an
//! illegal move, a game from another position. The same input gives the same file, byte for
//! byte; refusals are reported, never dropped silently; bad arguments exit with status 2.

use crate::cli_support::run;
use std::path::{Path, PathBuf};

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("jiangjun_cli_book_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("sub")).expect("temp folder");
    d
}

fn game(result: &str, moves: &str) -> String {
    format!("[Game \"Chinese Chess\"]\n[Result \"{result}\"]\n\n{moves} {result}\n\n")
}

/// Writes the collection: 3 good games (two of them twice, one once more in a sub-folder),
/// one refused, one not from the start.
fn collection(dir: &Path) {
    let mut a = String::new();
    for _ in 0..2 {
        a.push_str(&game("1-0", "1. 炮二平五 马8进7 2. 马二进三 车9平8"));
        a.push_str(&game("1/2-1/2", "1. 炮二平五 马8进7 2. 马二进三 马2进3"));
    }
    // The mirror image of the first line.
    a.push_str(&game("0-1", "1. 炮八平五 马2进3 2. 马八进七 车1平2"));
    std::fs::write(dir.join("a.pgn"), a).unwrap();
    // Filed again under another folder, as the collection files games by player and event.
    std::fs::write(
        dir.join("sub").join("copy.pgn"),
        game("1-0", "1. 炮二平五 马8进7 2. 马二进三 车9平8"),
    )
    .unwrap();
    std::fs::write(
        dir.join("sub").join("bad.pgn"),
        game("1-0", "1. 炮二平五 马8进7 2. 车一进五 车9平8"),
    )
    .unwrap();
    std::fs::write(
        dir.join("sub").join("fen.pgn"),
        "[Game \"Chinese Chess\"]\n[FEN \"4k4/9/9/9/9/9/9/9/4A4/3AK4 w - - 0 1\"]\n[Result \"*\"]\n\n1. 帅五平四 *\n",
    )
    .unwrap();
}

fn build(dir: &Path, out: &Path) -> (i32, String, String) {
    run(&[
        "book",
        "build",
        "--games",
        dir.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--depth",
        "3",
        "--min-games",
        "2",
        "--plies",
        "4",
        "--holdout",
        "0",
        "--threads",
        "2",
    ])
}

#[test]
fn a_games_book_is_reproducible_and_reports_refusals() {
    let dir = folder("build");
    collection(&dir);
    let (a, b) = (dir.join("a.jjb"), dir.join("b.jjb"));
    let (code, out, err) = build(&dir, &a);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("wrote "), "{out}");
    // 3 distinct games read (two repeated in a.pgn, one copy in sub/); the illegal move
    // refused.
    assert!(
        err.contains("3 games read, 1 refused (4 files; left out: 1 not from the start position, 3 duplicates)"),
        "{err}"
    );
    assert!(
        err.contains("refused: ") && err.contains("bad.pgn"),
        "{err}"
    );
    assert!(err.contains("checked "), "no progress line: {err}");
    let (code, _, err) = build(&dir, &b);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());

    // The start position's book move is the central cannon (炮二平五 and 炮八平五 fold together).
    let (code, out, err) = run(&["book", "probe", "--book", a.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("b2e2 ") || l.starts_with("h2e2 ")),
        "{out}"
    );
    let (code, out, err) = run(&[
        "book",
        "coverage",
        "--book",
        a.to_str().unwrap(),
        "--games",
        dir.to_str().unwrap(),
        "--holdout",
        "1",
        "--plies",
        "4",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(" positions (") && out.contains(" of 3 games"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A build that reads no game (an empty file or folder, a file of no games, every game held
/// out) is an error, and the book it would have replaced is left as it was.
#[test]
fn a_build_from_no_game_leaves_the_old_book() {
    let dir = folder("nothing");
    let out = dir.join("old.jjb");
    std::fs::write(&out, b"the old book").unwrap();
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    std::fs::write(dir.join("empty.pgn"), b"").unwrap();
    std::fs::write(dir.join("junk.pgn"), "no games here\n".repeat(100)).unwrap();
    std::fs::write(
        dir.join("one.pgn"),
        game("1-0", "1. 炮二平五 马8进7 2. 马二进三 车9平8"),
    )
    .unwrap();
    let o = out.to_str().unwrap();
    for (games, holdout, says) in [
        ("empty", "0", "no game read"),
        ("empty.pgn", "0", "no game read"),
        ("junk.pgn", "0", "no game read"),
        ("one.pgn", "1", "every game is held out"),
    ] {
        let g = dir.join(games);
        let (code, stdout, err) = run(&[
            "book",
            "build",
            "--games",
            g.to_str().unwrap(),
            "--out",
            o,
            "--holdout",
            holdout,
            "--depth",
            "1",
        ]);
        assert_eq!(code, 2, "{games}: {stdout}{err}");
        assert!(err.contains(says), "{games}: {err}");
        assert!(err.contains("not written"), "{games}: {err}");
        assert_eq!(std::fs::read(&out).unwrap(), b"the old book", "{games}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_book_arguments_exit_with_status_2() {
    let dir = folder("args");
    let d = dir.to_str().unwrap();
    for (args, message) in [
        (
            vec!["book", "build", "--games", "/nonexistent/games"],
            "no such file or folder",
        ),
        (
            vec!["book", "build", "--games", d, "--min-games", "0"],
            "must be from 1",
        ),
        (vec!["book", "build", "--min-games", "3"], "need --games"),
        (
            vec!["book", "build", "--games", d, "--side-cost", "2"],
            "self-analysis",
        ),
        (
            vec!["book", "build", "--games", d, "--merge", "/nonexistent.jjb"],
            "--merge",
        ),
        (
            vec![
                "book",
                "coverage",
                "--book",
                "/nonexistent.jjb",
                "--games",
                d,
            ],
            "book",
        ),
        (vec!["book", "coverage"], "--games"),
    ] {
        let (code, _, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
