//! The opening book through the engine façade: usebook on/off, corrupt files, and the shipped
//! books (book/masters.jjb, the built-in one, and book/analysis.jjb) checked move by move.

use crate::cli_support;
use crate::protocol_support as support;
use cli_support::run;

use jiangjun::board::Position;
use jiangjun::book::{self, Book, Entry, Randomness};
use jiangjun::engine::Engine;
use jiangjun::eval::evaluate;
use jiangjun::eval::nnue;
use jiangjun::search::limits::Limits;
use jiangjun::search::report::Report;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

fn temp_book(name: &str) -> std::path::PathBuf {
    let pos = Position::startpos();
    let (key, mirrored) = book::canonical_key(&pos);
    let m = pos.parse_move("b2e2").unwrap();
    let stored = if mirrored { m.mirror_file() } else { m };
    let b = Book::from_entries(vec![Entry {
        key,
        mv: stored.to_u16(),
        weight: 7,
        score: 0,
    }]);
    let path =
        std::env::temp_dir().join(format!("jiangjun-test-{}-{name}.jjb", std::process::id()));
    b.save(&path).unwrap();
    path
}

fn run_go(e: &mut Engine) -> Vec<Report> {
    let (tx, rx) = mpsc::channel();
    e.go(
        Limits {
            depth: Some(2),
            ..Limits::default()
        },
        false,
        move |r| {
            let _ = tx.send(r);
        },
    );
    let mut out = Vec::new();
    while let Ok(r) = rx.recv_timeout(Duration::from_secs(20)) {
        let done = matches!(r, Report::Done(_));
        out.push(r);
        if done {
            break;
        }
    }
    e.wait();
    out
}

#[test]
fn book_move_is_played_and_usebook_false_never_consults_it() {
    let path = temp_book("on-off");
    let mut e = Engine::new();
    e.set_hash_mb(4);
    e.set_book(Some(Arc::new(Book::load(&path).unwrap())));
    e.set_randomness(Randomness::None);
    let reports = run_go(&mut e);
    // The weight is shown as a weight; the score is the evaluation after the move.
    let mut after = Position::startpos();
    after.play("b2e2").unwrap();
    let eval = -default_eval(&after);
    match &reports[0] {
        Report::Book { candidates, chosen } => {
            assert_eq!(chosen.to_string(), "b2e2");
            assert_eq!(candidates.len(), 1);
            assert_eq!((candidates[0].weight, candidates[0].score), (7, eval));
        }
        other => panic!("{other:?}"),
    }
    match reports.last() {
        Some(Report::Done(o)) => {
            assert_eq!(o.best.map(|m| m.to_string()).as_deref(), Some("b2e2"));
            assert_eq!((o.score, o.depth), (eval, 0));
        }
        other => panic!("{other:?}"),
    }
    e.set_use_book(false);
    let reports = run_go(&mut e);
    assert!(reports.iter().all(|r| !matches!(r, Report::Book { .. })));
    assert!(reports
        .iter()
        .any(|r| matches!(r, Report::Info(i) if i.depth >= 1)));
    // Banned book moves are skipped.
    e.set_use_book(true);
    e.set_banned(&["b2e2".parse().unwrap()]);
    let reports = run_go(&mut e);
    assert!(reports.iter().all(|r| !matches!(r, Report::Book { .. })));
    let _ = std::fs::remove_file(path);
}

/// `bookfiles` naming a corrupt or missing file is refused with the reason, and the session
/// keeps playing from the book it had (the front end loads books; the engine only uses them).
#[test]
fn corrupt_book_is_refused_and_the_old_one_kept() {
    let path = temp_book("corrupt");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() - 1);
    let bad = path.with_extension("bad");
    std::fs::write(&bad, &bytes).unwrap();
    let err = Book::load(&bad).unwrap_err().to_string();
    assert!(err.contains("truncated"), "{err}");
    // Zeros of a BOOK.DAT's record size: sorted, but no record holds a move.
    let zeros = path.with_extension("dat");
    std::fs::write(&zeros, vec![0u8; 8 << 10]).unwrap();
    let err = Book::load(&zeros).unwrap_err().to_string();
    assert!(err.contains("no valid record"), "{err}");

    let mut e = support::Engine::start_with_book(Some("none"));
    e.send("ucci");
    e.until_exact("ucciok");
    e.send(&format!("setoption bookfiles {}", path.display()));
    e.send(&format!("setoption bookfiles {}", bad.display()));
    e.send(&format!("setoption bookfiles {}", zeros.display()));
    e.send("setoption bookfiles /nonexistent/book.jjb");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until_answer();
    let refused: Vec<&str> = lines
        .iter()
        .map(|l| l.text.as_str())
        .filter(|t| t.contains("book unchanged"))
        .collect();
    assert_eq!(refused.len(), 3, "{lines:?}");
    assert!(refused[0].contains("truncated"), "{refused:?}");
    assert!(refused[1].contains("no valid record"), "{refused:?}");
    assert!(refused[2].contains("/nonexistent/book.jjb"), "{refused:?}");
    let answer = &lines.last().unwrap().text;
    assert!(
        answer.starts_with("bestmove b2e2"),
        "previous book not in use: {lines:?}"
    );
    e.finish();
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(bad);
    let _ = std::fs::remove_file(zeros);
}

/// Every stored move is legal in its position, and the main line is deep. `min_reached`: how
/// many positions must be reached from the start by book moves alone.
fn legal_and_deep(path: &std::path::Path, min_reached: impl Fn(usize) -> usize) {
    let b = Book::load(path).expect("book loads");
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(Position::startpos(), 0usize)];
    let mut deepest = 0;
    while let Some((pos, ply)) = stack.pop() {
        if !seen.insert(book::canonical_key(&pos).0) {
            continue;
        }
        let moves = b.probe(&pos);
        assert_eq!(
            moves.len(),
            b.stored_count(&pos),
            "illegal stored move in {}",
            pos.to_fen()
        );
        if !moves.is_empty() {
            deepest = deepest.max(ply + 1);
        }
        for bm in moves {
            let mut child = pos.clone();
            child.make_move(bm.mv);
            child.clear_history();
            stack.push((child, ply + 1));
        }
    }
    let reached = seen.len();
    assert!(
        reached >= min_reached(b.positions()),
        "reached {reached} of {} positions",
        b.positions()
    );
    assert!(deepest >= 12, "main line only {deepest} plies");
}

#[test]
fn analysis_book_is_legal_and_deep() {
    // The self-analysis book is grown from the start: every position is reached.
    legal_and_deep(&analysis_path(), |positions| positions);
}

#[test]
fn masters_book_is_legal_and_deep() {
    // Most of its positions are not reachable by book moves: it keeps the positions after
    // master moves the engine check dropped (and below them), for an opponent who plays them
    // (1434 of 7910 positions are reached).
    legal_and_deep(&masters_path(), |_| 1000);
}

/// Every stored move of the masters' book (book/masters.jjb) is within the engine check's
/// margin of the best stored move of its position (40 cp for the masters' part, the
/// self-analysis part merged into it keeps seed moves within 50): a sample of positions here,
/// the whole file in the ignored test.
fn scores_within_margin(sample_every: usize) {
    let b = Book::load(&masters_path()).expect("book/masters.jjb loads");
    let entries = b.entries().expect("our format");
    let mut checked = 0;
    let mut i = 0;
    let mut position = 0;
    while i < entries.len() {
        let key = entries[i].key;
        let end = i + entries[i..].iter().take_while(|e| e.key == key).count();
        if position % sample_every == 0 {
            let best = entries[i..end].iter().map(|e| e.score).max().unwrap_or(0);
            for e in &entries[i..end] {
                assert!(
                    i32::from(e.score) >= i32::from(best) - 50,
                    "key {key:#x}: move {} scores {} against {best}",
                    e.mv,
                    e.score
                );
            }
            checked += 1;
        }
        position += 1;
        i = end;
    }
    assert!(checked > 0);
}

#[test]
fn masters_book_scores_within_the_margin_sample() {
    scores_within_margin(25);
}

#[test]
#[ignore = "the whole book file; the sample test runs in CI"]
fn masters_book_scores_within_the_margin_whole() {
    scores_within_margin(1);
}

/// A private temporary folder (the engine must not find any book file in it).
fn empty_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("jiangjun-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The book moves played by `go` from the start with `randomness none`, in debug mode, from a
/// folder holding no book: the `info string`s and the move.
fn built_in_answer(dir: &std::path::Path, bookfiles: Option<&str>) -> (Vec<String>, String) {
    let mut e = support::Engine::start_in(Some(dir), None);
    e.send("ucci");
    e.until_exact("ucciok");
    e.send("setoption debug true");
    e.send("setoption randomness none");
    if let Some(f) = bookfiles {
        e.send(&format!("setoption bookfiles {f}"));
    }
    e.send("isready");
    e.until_exact("readyok");
    e.send("position startpos");
    e.send("go depth 12");
    let lines: Vec<String> = e.until_answer().into_iter().map(|l| l.text).collect();
    let log = e.log.clone();
    e.finish();
    let mv = lines
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap_or_default()
        .to_string();
    (log, mv)
}

/// A copied binary started anywhere plays from its built-in book, says so in debug mode,
/// answers deterministically with `randomness none`, and a corrupt `bookfiles` file only
/// costs an `info string`.
#[test]
fn the_built_in_book_plays_from_any_folder() {
    let dir = empty_dir("anywhere");
    let built_in = book::built_in().expect("the built-in book decodes");
    let best = built_in.probe(&Position::startpos())[0].mv.to_string();
    let (log, mv) = built_in_answer(&dir, None);
    assert_eq!(mv, best, "{log:?}");
    assert!(
        log.iter()
            .any(|l| l.starts_with("info string isready: book in use: built-in (")),
        "{log:?}"
    );
    assert!(
        log.iter()
            .any(|l| l.starts_with("info string go: book in use: built-in (")),
        "{log:?}"
    );
    let (_, again) = built_in_answer(&dir, None);
    assert_eq!(again, mv);

    let bad = dir.join("corrupt.jjb");
    std::fs::write(&bad, b"JJBOOK\x00\x01 not a book").unwrap();
    let (log, mv) = built_in_answer(&dir, Some(bad.to_str().unwrap()));
    assert!(
        log.iter()
            .any(|l| l.starts_with("info string bookfiles: ") && l.contains("book unchanged")),
        "{log:?}"
    );
    assert_eq!(mv, best, "{log:?}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The self-analysis book (merged into the masters' book; the broader source of book lines).
fn analysis_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/analysis.jjb")
}

/// The masters' book: the file compiled into the binary as its default book.
fn masters_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("book/masters.jjb")
}

/// The static evaluation after `mv` from the start position, for the side playing it.
fn eval_after(mv: &str) -> i32 {
    let mut pos = Position::startpos();
    pos.play(mv).unwrap();
    -default_eval(&pos)
}

/// The static evaluation of the engine's default evaluation: book candidates are scored by
/// the evaluation in use.
fn default_eval(pos: &Position) -> i32 {
    if nnue::DEFAULT_ON {
        nnue::built_in().unwrap().evaluate(pos)
    } else {
        evaluate(pos)
    }
}

/// `go` from the start position with the shipped book in `hello`'s dialect: the (score, move)
/// pairs of the `info depth 0 <score_key><n> pv <move>` lines, every line, and the move played.
/// The book weights must come in an `info string`.
fn book_answer(
    hello: &str,
    options: &[&str],
    score_key: &str,
) -> (Vec<(String, String)>, Vec<String>, String) {
    let mut e = support::Engine::start_with_book(None);
    e.send(hello);
    e.until_exact(&format!("{hello}ok"));
    e.send_all(options);
    e.send("position startpos");
    e.send("go depth 12");
    let lines: Vec<String> = e.until_answer().into_iter().map(|l| l.text).collect();
    e.finish();
    let prefix = format!("info depth 0 {score_key}");
    let shown = lines
        .iter()
        .filter_map(|l| l.strip_prefix(&prefix))
        .filter_map(|rest| rest.split_once(" pv "))
        .map(|(s, m)| (s.to_string(), m.to_string()))
        .collect();
    let weights = lines.iter().find(|l| l.starts_with("info string book: "));
    assert!(weights.is_some_and(|w| w.contains(" weight ")), "{lines:?}");
    let best = lines.last().cloned().unwrap_or_default();
    let mv = best
        .split_whitespace()
        .nth(1)
        .unwrap_or_default()
        .to_string();
    (shown, lines, mv)
}

/// The binary plays from its built-in book (the shipped file) without being told, shows the candidates as `info depth 0 score <eval> pv <move>`
/// (an evaluation, not the book weight) and plays one of them; with `JIANGJUN_BOOK=none` it
/// searches instead.
#[test]
fn the_engine_plays_from_the_shipped_book_by_default() {
    let shipped = Book::load(&masters_path()).expect("book/masters.jjb loads");
    let built_in = book::built_in().expect("the built-in book decodes");
    assert_eq!(
        built_in.entries(),
        shipped.entries(),
        "the binary embeds book/masters.jjb"
    );
    let start = Position::startpos();
    let book_moves: Vec<String> = shipped
        .probe(&start)
        .iter()
        .map(|b| b.mv.to_string())
        .collect();
    assert!(!book_moves.is_empty());

    // UCCI: one line per candidate, as ElephantEye lists them, the move played last (a GUI
    // shows the latest line as the engine's choice).
    let (shown, lines, mv) = book_answer("ucci", &[], "score ");
    assert_eq!(shown.len(), book_moves.len(), "{lines:?}");
    for (score, mv) in &shown {
        assert_eq!(score.parse::<i32>().ok(), Some(eval_after(mv)), "{lines:?}");
    }
    assert!(book_moves.contains(&mv), "{mv} not in {book_moves:?}");
    assert_eq!(shown.last().unwrap().1, mv, "{lines:?}");
    // UCI with MultiPV and UCI_ShowWDL: the move played as multipv 1, then other book moves,
    // each line ranked and with the wdl of its score.
    let (_, lines, mv) = book_answer(
        "uci",
        &[
            "setoption name MultiPV value 3",
            "setoption name UCI_ShowWDL value true",
        ],
        "",
    );
    let ranked: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 0 multipv "))
        .collect();
    assert_eq!(ranked.len(), book_moves.len().min(3), "{lines:?}");
    for (k, l) in ranked.iter().enumerate() {
        let f: Vec<&str> = l.split(' ').collect();
        assert_eq!(f[4], (k + 1).to_string(), "{l}");
        assert_eq!(&f[5..7], ["score", "cp"], "{l}");
        let pv = f.last().unwrap();
        assert!(book_moves.contains(&pv.to_string()), "{l}");
        let score = eval_after(pv);
        assert_eq!(f[7], score.to_string(), "{l}");
        let wdl = jiangjun::search::wdl::wdl(score).map(|x| x.to_string());
        assert_eq!(f[8..12], ["wdl", &wdl[0], &wdl[1], &wdl[2]], "{l}");
        if k == 0 {
            assert_eq!(*pv, mv, "multipv 1 is the move played: {lines:?}");
        }
    }
    // UCI: `score cp`, one line, for the move played.
    let (shown, lines, mv) = book_answer("uci", &[], "score cp ");
    assert_eq!(shown.len(), 1, "{lines:?}");
    assert_eq!(shown[0].1, mv, "{lines:?}");
    assert_eq!(shown[0].0.parse::<i32>().ok(), Some(eval_after(&mv)));
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("info depth 0 score ") && !l.contains(" cp ")),
        "{lines:?}"
    );

    let mut e = support::Engine::start_with_book(Some("none"));
    e.send("ucci");
    e.until_exact("ucciok");
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.until_answer();
    assert!(!lines.iter().any(|l| l.text.starts_with("info depth 0 ")));
    assert!(lines.iter().any(|l| l.text.starts_with("info depth 3 ")));
    e.finish();
}

#[test]
fn book_lines_make_a_legal_opening_suite() {
    let book = analysis_path();
    let (code, text, err) = run(&[
        "book",
        "lines",
        "--book",
        book.to_str().expect("utf-8 path"),
        "--plies",
        "6",
        "--min-plies",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains('\u{fffd}'), "stdout is not UTF-8");
    // The runner's own parser accepts it (it replays every move and rejects illegal ones).
    let suite = jiangjun::tournament::openings::parse_openings(&text).expect("a valid suite");
    assert!(suite.len() > 300, "only {} lines", suite.len());
    let mut distinct = std::collections::HashSet::new();
    for o in &suite {
        assert!((3..=6).contains(&o.moves.len()), "{}", o.moves_text());
        assert!(distinct.insert(o.moves_text()), "repeated line");
    }
    // Every prefix of a line is a book position: the walk follows the book only.
    let b = Book::load(&analysis_path()).unwrap();
    for o in suite.iter().take(50) {
        let mut pos = Position::startpos();
        for &m in &o.moves {
            assert!(b.probe(&pos).iter().any(|bm| bm.mv == m));
            pos.make_move(m);
        }
    }
    // Bad numbers are refused with a message naming the option.
    for (plies, message) in [
        ("many", "'--plies <N>': 'many' is not a valid number"),
        ("201", "'--plies <N>': must be from 0 to 200"),
    ] {
        let (code, _, err) = run(&["book", "lines", "--plies", plies]);
        assert_ne!(code, 0);
        assert!(err.contains(message));
    }
}

/// A book whose moves lead back to the start (horses out and home again) gives one finite
/// line that stops before the repetition, however many plies are asked for.
#[test]
fn book_lines_do_not_follow_a_cycle() {
    let mut pos = Position::startpos();
    let mut entries = Vec::new();
    for m in ["h0g2", "h9g7", "g2h0", "g7h9"] {
        let (key, mirrored) = book::canonical_key(&pos);
        let mv = pos.parse_move(m).unwrap();
        let stored = if mirrored { mv.mirror_file() } else { mv };
        entries.push(Entry {
            key,
            mv: stored.to_u16(),
            weight: 10,
            score: 0,
        });
        pos.make_move(mv);
    }
    let b = Book::from_entries(entries);
    let lines = b.lines(&mut Position::startpos(), 200, 0);
    let text: Vec<String> = lines
        .iter()
        .map(|l| {
            l.iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    assert_eq!(text, vec!["h0g2 h9g7 g2h0".to_string()]);
}

/// Issue 60 item 2: a `JIANGJUN_BOOK` that cannot be loaded is said in an `info string` at the
/// first `isready` (UCCI, UCI) or a `#` line at the first search (CECP), as `bookfiles` says a
/// bad file; nothing comes before the handshake and nothing goes to standard error.
#[test]
fn a_bad_default_book_path_is_reported() {
    let missing = "jiangjun-no-such-book.jjb";
    for (hello, ok) in [("ucci", "ucciok"), ("uci", "uciok")] {
        let mut e = support::Engine::start_with_book(Some(missing));
        e.send(hello);
        let first = e.next_line(Duration::from_secs(10)).expect("an answer");
        assert!(first.text.starts_with("id "), "{}", first.text);
        e.until_exact(ok);
        e.send("isready");
        let lines: Vec<String> = e
            .until_exact("readyok")
            .into_iter()
            .map(|l| l.text)
            .collect();
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string JIANGJUN_BOOK: ")
                    && l.contains(missing)
                    && l.ends_with("; no book")),
            "{hello}: {lines:?}"
        );
        e.send("quit");
        e.wait_exit(Duration::from_secs(5));
        e.assert_stderr_empty();
    }
    let mut e = support::Engine::start_with_book(Some(missing));
    e.send_all(&["xboard", "protover 2", "variant xiangqi", "sd 1", "go"]);
    let lines: Vec<String> = e
        .until("a move", |l| l.starts_with("move "))
        .into_iter()
        .map(|l| l.text)
        .collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("# JIANGJUN_BOOK: ") && l.contains(missing)),
        "{lines:?}"
    );
    e.send("quit");
    e.wait_exit(Duration::from_secs(5));
    e.assert_stderr_empty();
}
