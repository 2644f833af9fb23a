//! `jiangjun pgn convert|check|judge` run as a user runs them, on small files written here:
//! the same game in GB18030 and in Big5, an XQF file from our writer, a file with an illegal
//! move at a known ply, a file with a line of `=====` after the last game.

use crate::cli_support::{run, temp_folder, write_file as write};

use jiangjun::records::pgn::parse_pgn;
use jiangjun::records::xqf::{write_xqf, XqfWriteOptions};
use std::path::PathBuf;

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    temp_folder("cli_pgn", name)
}

/// A short game as a mainland file writes it: simplified, ASCII digits for Black.
const SIMPLIFIED: &str = "[Game \"Chinese Chess\"]\n[Event \"全国象棋个人赛\"]\n\
[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[Result \"1-0\"]\n[Format \"Chinese\"]\n\n\
1. 炮二平五 马8进7 2. 马二进三 车9平8 {屏风马} 3. 车一平二 卒7进1 1-0\n";

/// The same game as a Taiwanese file writes it: traditional, full-width digits, a tag with
/// inner quotes.
const TRADITIONAL: &str = "[Game \"Chinese Chess\"]\n[Event \"第八屆\"銀荔杯\"象棋全國冠軍賽\"]\n\
[Red \"胡榮華\"]\n[Black \"楊官璘\"]\n[Result \"1-0\"]\n\n\
1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ {屏風馬} 3. 車一平二 卒７進１ 1-0\n";

#[test]
fn convert_reads_gb18030_and_big5_and_writes_each_notation() {
    let dir = folder("encodings");
    let (gb, _, _) = encoding_rs::GB18030.encode(SIMPLIFIED);
    let (big5, _, had_errors) = encoding_rs::BIG5.encode(TRADITIONAL);
    assert!(!had_errors, "every character has a Big5 code");
    let gb = write(&dir, "gb.pgn", &gb);
    let big5 = write(&dir, "big5.pgn", &big5);

    let (code, out, err) = run(&["pgn", "convert", &gb, "--to", "wxf", "--verbose"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("encoding gb18030"), "{err}");
    assert!(out.contains("[Format \"WXF\"]"), "{out}");
    assert!(out.contains("[Event \"全国象棋个人赛\"]"), "{out}");
    assert!(
        out.contains("1. C2=5 H8+7 2. H2+3 R9=8 {屏风马} 2... R1=2 P7+1 1-0")
            || out.contains("1. C2=5 H8+7 2. H2+3 R9=8 {屏风马} 3. R1=2 P7+1 1-0"),
        "{out}"
    );

    let (code, out, err) = run(&["pgn", "convert", &big5, "--to", "chinese", "--verbose"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("encoding big5"), "{err}");
    assert!(out.contains("[Format \"Chinese\"]"), "{out}");
    assert!(
        out.contains("1. 炮二平五 马８进７ 2. 马二进三 车９平８"),
        "{out}"
    );
    assert!(
        out.contains("[Event \"第八屆\\\"銀荔杯\\\"象棋全國冠軍賽\"]"),
        "inner quotes kept (escaped on writing): {out}"
    );

    // Traditional characters, to a file; ICCS; a forced encoding.
    let target = dir.join("out.pgn");
    let t = target.to_string_lossy().into_owned();
    let (code, _, err) = run(&[
        "pgn",
        "convert",
        &gb,
        "--to",
        "chinese",
        "--script",
        "traditional",
        "-o",
        &t,
    ]);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(&target).expect("output written");
    assert!(
        written.contains("1. 炮二平五 馬８進７ 2. 馬二進三 車９平８"),
        "{written}"
    );
    let back = parse_pgn(&written).expect("our output reads back");
    assert_eq!(back[0].moves.len(), 6);

    let to_iccs = |extra: &[&str]| {
        let args: Vec<&str> = ["pgn", "convert", big5.as_str(), "--to", "iccs"]
            .iter()
            .chain(extra)
            .copied()
            .collect();
        run(&args)
    };
    let (code, out, err) = to_iccs(&["--encoding", "big5", "--verbose"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("big5 (as asked)"), "{err}");
    assert!(out.contains("1. H2-E2 H9-G7 2. H0-G2 I9-H9"), "{out}");
    // Forced wrong, the text is not Chinese moves: the game is refused, exit 1.
    let (code, _, err) = to_iccs(&["--encoding", "utf-8"]);
    assert_eq!(code, 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn convert_reads_xqf_files_of_both_forms() {
    let dir = folder("xqf");
    let game = parse_pgn(TRADITIONAL).expect("sample").remove(0);
    for (name, version) in [("plain.xqf", 0x0A), ("encrypted.xqf", 0x12)] {
        let bytes = write_xqf(
            &game,
            XqfWriteOptions {
                version,
                key_seed: 0x3C,
            },
        );
        let path = write(&dir, name, &bytes);
        let (code, out, err) = run(&["pgn", "convert", &path, "--to", "chinese", "--verbose"]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(err.contains("XQF"), "{err}");
        assert!(
            out.contains("1. 炮二平五 马８进７ 2. 马二进三 车９平８ {屏風馬}"),
            "{name}: {out}"
        );
        assert!(out.contains("[Red \"胡榮華\"]"), "{out}");
        assert!(out.contains("[Result \"1-0\"]"), "{out}");
        let (code, out, _) = run(&["pgn", "check", &path]);
        assert_eq!(code, 0);
        assert!(out.contains("game 1: ok, 6 plies, 1-0"), "{out}");
    }
    // A broken XQF: cut inside its records.
    let bytes = write_xqf(&game, XqfWriteOptions::default());
    let path = write(&dir, "cut.xqf", &bytes[..bytes.len() - 3]);
    let (code, out, _) = run(&["pgn", "check", &path]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("game 1: unreadable"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_names_game_ply_and_reason() {
    let dir = folder("check");
    let text = "[Event \"good\"]\n1. h2e2 h9g7 1-0\n\n\
        [Event \"broken\"]\n1. 炮二平五 马8进7\n2. 马二进三 炮二进九 3. 车一平二 0-1\n\n\
        [Event \"after\"]\n1. C2=5 H8+7 *\n";
    let path = write(&dir, "broken.pgn", text.as_bytes());
    let (code, out, err) = run(&["pgn", "check", &path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("game 1: ok, 2 plies, 1-0 (good)"), "{out}");
    assert!(
        out.contains(
            "game 2: bad move at ply 4 (line 6) '炮二进九': '炮二进九' is not a legal move here"
        ),
        "{out}"
    );
    assert!(out.contains("game 3: ok, 2 plies, * (after)"), "{out}");
    assert!(out.contains("3 game(s): 2 good, 1 bad"), "{out}");

    // An ambiguous move is named as such.
    let amb = "[FEN \"3k5/9/9/9/9/6R2/9/6R2/9/4K4 w\"]\n1. 车三进一 *\n";
    let path = write(&dir, "ambiguous.pgn", amb.as_bytes());
    let (code, out, _) = run(&["pgn", "check", &path]);
    assert_eq!(code, 1);
    assert!(out.contains("game 1: bad move at ply 1"), "{out}");
    assert!(out.contains("fits more than one legal move"), "{out}");

    // Trailing junk is a warning; the game before it stands.
    let junk = "[Event \"x\"]\n1. h2e2 h9g7 1/2-1/2\n=====\n";
    let path = write(&dir, "junk.pgn", junk.as_bytes());
    let (code, out, err) = run(&["pgn", "check", &path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("game 1: ok, 2 plies, 1/2-1/2"), "{out}");
    assert!(err.contains("warning: line 3: '=====' ignored"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `n` short games, each with its `[Event]`, separated by blank lines; game `bad` has
/// `movetext` instead of its moves.
fn games(n: usize, bad: usize, movetext: &str) -> String {
    (1..=n)
        .map(|k| {
            let moves = if k == bad { movetext } else { "1. h2e2 h9g7 *" };
            format!("[Event \"g{k}\"]\n\n{moves}\n\n")
        })
        .collect()
}

#[test]
fn a_broken_game_costs_only_itself() {
    let dir = folder("resync");
    for (movetext, why) in [
        ("1. h2e2 ) h9g7 *", "')' without '('"),
        ("1. h2e2 ( h9g7 *", "variation '(' is never closed"),
        ("1. h2e2 {h9g7 *", "comment '{' is never closed"),
    ] {
        let path = write(&dir, "games.pgn", games(21, 11, movetext).as_bytes());
        let (code, out, err) = run(&["pgn", "check", &path]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(
            out.contains(&format!("game 11: unreadable: line 43: {why}")),
            "{out}"
        );
        assert!(out.contains("game 21: ok, 2 plies, * (g21)"), "{out}");
        assert!(out.contains("21 game(s): 20 good, 1 bad"), "{out}");
    }
    // A kilobyte of random bytes between two runs of games.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(63);
    let junk: Vec<u8> = (0..1024).map(|_| rng.random()).collect();
    let mut bytes = games(100, 0, "").into_bytes();
    bytes.extend_from_slice(&junk);
    bytes.push(b'\n');
    bytes.extend_from_slice(games(100, 0, "").as_bytes());
    let path = write(&dir, "junk.pgn", &bytes);
    let (_, out, err) = run(&["pgn", "check", &path]);
    let good = out.lines().filter(|l| l.contains(": ok, 2 plies")).count();
    assert_eq!(good, 200, "{out}{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-o` onto the input rewrites it only when every game converts: a file is never replaced
/// by fewer games.
#[test]
fn convert_in_place_never_drops_games() {
    let dir = folder("in_place");
    let text = games(3, 2, "1. h2e2 ) h9g7 *");
    let path = write(&dir, "games.pgn", text.as_bytes());
    let (code, out, err) = run(&["pgn", "convert", &path, "--to", "chinese", "-o", &path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("game 2: "), "{err}");
    assert!(err.contains("not rewritten"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // The same file under another name.
    #[cfg(unix)]
    {
        let link = dir.join("link.pgn");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        let l = link.to_string_lossy().into_owned();
        let (code, _, err) = run(&["pgn", "convert", &path, "--to", "wxf", "-o", &l]);
        assert_eq!(code, 1, "{err}");
        assert!(err.contains("not rewritten"), "{err}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
    // Elsewhere, the games that convert are written (and the bad one named).
    let other = dir.join("other.pgn");
    let o = other.to_string_lossy().into_owned();
    let (code, _, err) = run(&["pgn", "convert", &path, "--to", "iccs", "-o", &o]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        parse_pgn(&std::fs::read_to_string(&other).unwrap())
            .unwrap()
            .len(),
        2
    );
    // Every game good: rewritten in place.
    let good = write(&dir, "good.pgn", games(3, 0, "").as_bytes());
    let (code, _, err) = run(&["pgn", "convert", &good, "--to", "chinese", "-o", &good]);
    assert_eq!(code, 0, "{err}");
    let back = std::fs::read_to_string(&good).unwrap();
    assert!(back.contains("1. 炮二平五 马８进７"), "{back}");
    assert_eq!(parse_pgn(&back).unwrap().len(), 3);
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".partial"))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Both horses out and back, three times: the start position occurs a third time.
const SHUFFLE: &str = "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9";

#[test]
fn judge_compares_the_ruling_with_the_result() {
    let dir = folder("judge");
    let text = format!(
        "[Event \"agreed\"]\n[Result \"1/2-1/2\"]\n{SHUFFLE} 1/2-1/2\n\n\
         [Event \"wrong\"]\n{SHUFFLE} 1-0\n\n\
         [Event \"short\"]\n1. h2e2 h9g7 0-1\n"
    );
    let path = write(&dir, "games.pgn", text.as_bytes());
    let (code, out, err) = run(&["pgn", "judge", &path]);
    assert_eq!(code, 1, "a disagreeing game: {out}{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].starts_with("game 1: verdict draw"), "{out}");
    assert!(lines[0].ends_with("recorded 1/2-1/2: agrees"), "{out}");
    assert!(lines[1].ends_with("recorded 1-0: disagrees"), "{out}");
    assert!(lines[2].starts_with("game 3: verdict none -"), "{out}");
    assert!(lines[2].ends_with("recorded 0-1: unruled"), "{out}");

    let (code, out, _) = run(&["pgn", "judge", &path, "--json", "--rules", "axf"]);
    assert_eq!(code, 1);
    let objects: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(objects.len(), 3);
    assert_eq!(objects[0]["agreement"], "agrees");
    assert_eq!(objects[0]["event"], "agreed");
    assert_eq!(objects[0]["judgement"]["rules"], "axf");
    assert_eq!(objects[0]["judgement"]["verdict"], "draw");
    assert_eq!(objects[1]["agreement"], "disagrees");
    assert_eq!(objects[2]["agreement"], "unruled");

    // Only the agreeing game: exit 0.
    let one = format!("[Result \"1/2-1/2\"]\n{SHUFFLE} 1/2-1/2\n");
    let path = write(&dir, "one.pgn", one.as_bytes());
    let (code, out, _) = run(&["pgn", "judge", &path]);
    assert_eq!(code, 0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_and_io_errors_exit_2() {
    let (code, _, err) = run(&["pgn", "check", "/nonexistent/games.pgn"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent/games.pgn"), "{err}");
    // The cause once, not again as the error's source.
    assert_eq!(err.matches("(os error 2)").count(), 1, "{err}");
    let (code, _, err) = run(&["pgn", "convert", "x.pgn", "--to", "latin"]);
    assert_eq!(code, 2);
    assert!(err.contains("latin"), "{err}");
    let (code, _, _) = run(&["pgn", "convert", "x.pgn"]);
    assert_eq!(code, 2, "--to is required");
    let (code, _, _) = run(&["pgn", "frobnicate"]);
    assert_eq!(code, 2);
    let (code, _, _) = run(&["pgn"]);
    assert_eq!(code, 2);
    let (code, out, _) = run(&["pgn", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("\n  convert "), "{out}");
}

/// `-` reads the games from standard input; `-o -` (like no `-o`) writes to standard output.
#[test]
fn convert_reads_standard_input() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_jiangjun"))
        .args(["pgn", "convert", "-", "--to", "iccs", "-o", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn jiangjun");
    let (gb, _, _) = encoding_rs::GB18030.encode(SIMPLIFIED);
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&gb)
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("[Format \"ICCS\"]"), "{stdout}");
    assert!(stdout.contains("1. H2-E2 H9-G7"), "{stdout}");
    assert!(stdout.contains("[Red \"胡荣华\"]"), "{stdout}");
}

/// `--encoding` takes the library's names (`TextEncoding::from_name`); an unknown one exits 2
/// and lists them.
#[test]
fn an_unknown_encoding_lists_the_names() {
    let (code, _, err) = run(&["pgn", "check", "x.pgn", "--encoding", "ebcdic"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "unknown encoding 'ebcdic' (expected utf-8, utf-16le, utf-16be, gb18030, gbk, big5)"
        ),
        "{err}"
    );
    let dir = folder("encoding_alias");
    let (gb, _, _) = encoding_rs::GB18030.encode(SIMPLIFIED);
    let path = write(&dir, "gb.pgn", &gb);
    let (code, out, err) = run(&["pgn", "check", &path, "--encoding", "GB2312"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("game 1: ok, 6 plies"), "{out}");
}

/// Output piped into a reader that stops early (`| head`): no panic report, the status a
/// writer killed by SIGPIPE gives (141). The output is far larger than a pipe's buffer, so
/// the engine is still writing when the reader goes.
#[test]
fn a_closed_output_pipe_ends_quietly() {
    use std::process::{Command, Stdio};
    let dir = folder("closed_pipe");
    let game = "[Event \"e\"]\n[Result \"*\"]\n\n1. h2e2 h7e7 2. h0g2 h9g7 *\n\n";
    let path = write(&dir, "many.pgn", game.repeat(3000).as_bytes());
    // `convert` writes one text, `check` a line per game: both through fallible writes.
    for args in [
        &["pgn", "convert", &path, "--to", "chinese"][..],
        &["pgn", "check", &path],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jiangjun"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn jiangjun");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("wait");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(141), "{args:?}: {stderr}");
    }
}

/// A game exactly as XBoard saved it (`scripts/xboard_check.sh`, Jiangjun against itself):
/// XBoard's SAN (`Cbe2`, `Rxh0`, `cxc4`, `gh5`) reads like any other notation.
#[test]
fn reads_the_san_xboard_writes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/xboard_game.pgn");
    let (code, out, err) = run(&["pgn", "check", path]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("1 good, 0 bad"), "{out}");
    let (code, out, err) = run(&["pgn", "convert", path, "--to", "iccs"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1. B2-E2 B9-C7 2. B0-C2"), "{out}");
    assert!(out.contains("[Result \"0-1\"]"), "{out}");
}

/// Issue 60 item 4: an error of `pgn check` is one message under the name `jiangjun pgn check`.
#[test]
fn an_error_names_the_pgn_subcommand() {
    for sub in ["check", "judge"] {
        let (code, _, err) = run(&["pgn", sub, "jiangjun-no-such-file.pgn"]);
        assert_eq!(code, 2);
        assert!(
            err.starts_with(&format!("jiangjun pgn {sub}: cannot read ")),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

/// Issue 60 item 5: `pgn convert` says a bad game's number once, as `check` does.
#[test]
fn convert_names_a_bad_game_once() {
    let dir = folder("convert_bad");
    let text = "[Event \"broken\"]\n1. h2e2 h9g7\n2. h0g2 i9h9\n3. i0h0 h9h0 1-0\n";
    let path = write(&dir, "bad.pgn", text.as_bytes());
    let (code, _, err) = run(&["pgn", "convert", &path, "--to", "iccs"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains(": game 1: bad move at ply 6 (line 4) 'h9h0': "),
        "{err}"
    );
    assert_eq!(err.matches("game 1").count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
