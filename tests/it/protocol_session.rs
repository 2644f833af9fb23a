//! Whole sessions against the real binary: XQWizard's start-up and game loop (ucci.md §4,
//! gui.md §1), a UCI game with 1-based ranks, robustness against garbage input, the end of
//! input, and the latencies GUIs depend on (measured and printed; bounds are generous).

use crate::protocol_support as support;

use jiangjun::board::Position;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};
use support::*;

/// XQWizard 4.81: load, new game with pondering, a few moves with ponder hits and a miss,
/// then close without waiting for `bye` (gui.md §1.1–1.5).
#[test]
fn xqwizard_game() {
    let mut e = Engine::start();
    e.send("ucci");
    let hello = e.until_exact("ucciok");
    assert!(hello
        .iter()
        .any(|l| l.text.starts_with("option usemillisec ")));
    // Sent blindly right after ucciok, no isready (gui.md §1.1).
    e.send_all(&[
        "setoption guiname XQWizard",
        "setoption usemillisec true",
        "setoption promotion false",
        "setoption usebook false",
        "setoption useegtb false",
        "setoption hashsize 0",
        "setoption threads 0",
        "setoption idle none",
        "setoption randomness none",
        "setoption style normal",
        // New game (gui.md §1.2).
        "setoption newgame",
        "setoption ponder true",
    ]);
    let mut game: Vec<String> = Vec::new();
    let clock = "time 4000 increment 0 opptime 4000 oppincrement 0";
    // Our move, then a ponder on the expected reply which the "user" plays (ponder hit).
    for round in 0..3 {
        let moves = game.join(" ");
        let pos_line = if game.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {moves}")
        };
        e.send(&pos_line);
        e.send(&format!("go {clock}"));
        let got = e.until_answer();
        for l in &got {
            if l.text.starts_with("info depth") {
                assert!(!l.text.contains(" cp "), "{}", l.text);
            }
            assert!(
                !l.text.starts_with("info string"),
                "quiet GUI start: {}",
                l.text
            );
        }
        let refs: Vec<&str> = game.iter().map(String::as_str).collect();
        let pos = position(None, &refs);
        let answer = &got.last().unwrap().text;
        let m = assert_legal_bestmove(answer, &pos);
        let (_, ponder, _) = parse_bestmove(answer);
        game.push(m.to_string());
        let Some(p) = ponder else { continue };
        game.push(p);
        e.send(&format!("position startpos moves {}", game.join(" ")));
        e.send(&format!("go ponder {clock}"));
        if round == 2 {
            // Ponder miss: stop, discard the answer, undo the predicted move.
            e.send("stop");
            e.answer();
            game.pop();
            game.push(other_reply(&game));
            continue;
        }
        e.send("ponderhit");
        let got = e.until_answer();
        let refs: Vec<&str> = game.iter().map(String::as_str).collect();
        let m = assert_legal_bestmove(&got.last().unwrap().text, &position(None, &refs));
        // The user replies with any legal move.
        game.push(m.to_string());
        game.push(other_reply(&game));
    }
    // Closing: stop (idle → nobestmove), quit, pipes closed at once.
    e.send("stop");
    assert_eq!(e.answer(), "nobestmove");
    e.send("quit");
    e.close_stdin();
    e.until_exact("bye");
    assert!(e
        .wait_exit(Duration::from_secs(2))
        .is_some_and(|s| s.success()));
    e.assert_stderr_empty();
}

/// Some legal move for the side to move after `game`.
fn other_reply(game: &[String]) -> String {
    let refs: Vec<&str> = game.iter().map(String::as_str).collect();
    let pos = position(None, &refs);
    pos.legal_moves()
        .last()
        .expect("the side to move has a move")
        .to_string()
}

/// A UCI GUI using Fairy-Stockfish's 1-based ranks (ucci.md §9.4–9.5).
#[test]
fn uci_game_with_one_based_ranks() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = texts(&e.until_exact("uciok"));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name Rank Origin ")));
    e.send_all(&[
        "setoption name UCI_Variant value xiangqi",
        "setoption name Rank Origin value 1",
        "setoption name Hash value 16",
        "setoption name Threads value 1",
        "ucinewgame",
    ]);
    assert!(e.sync().is_empty());
    e.send("position startpos moves h3e3 h10g8");
    e.send("go wtime 2000 btime 2000 winc 0 binc 0");
    let got = e.until_answer();
    let answer = got.last().unwrap().text.clone();
    let (mv, _, _) = parse_bestmove(&answer);
    // Red's pieces start on ranks 1–4 in this numbering; never a rank 0.
    let ranks: String = mv.chars().filter(char::is_ascii_digit).collect();
    assert!(!ranks.contains('0') || ranks.contains("10"), "{answer}");
    // The PV is 1-based too: convert back and check legality.
    let zero = jiangjun::board::rank_origin::ranks1_to_ranks0(&mv).expect("1-based move");
    position(None, &["h2e2", "h9g7"])
        .parse_move(&zero)
        .expect("legal move");
    for l in &got {
        if l.text.starts_with("info depth") {
            assert!(l.text.contains(" score cp ") || l.text.contains(" score mate "));
        }
    }
    e.send("quit");
    assert!(e
        .wait_exit(Duration::from_secs(2))
        .is_some_and(|s| s.success()));
    e.assert_stderr_empty();
}

/// MultiPV through the protocol (issue 16.2): one `info` line per ranked move, `multipv k`
/// before `score` and `pv` last; `searchmoves` limits the lines; more lines asked than moves
/// allowed gives one per move; `bestmove` is the first line's move.
#[test]
fn multipv_lines_respect_searchmoves() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = texts(&e.until_exact("uciok"));
    assert!(hello
        .iter()
        .any(|l| l.starts_with("option name MultiPV type spin default 1 ")));
    e.send_all(&[
        "setoption name OwnBook value false",
        "setoption name MultiPV value 5",
        "position startpos",
        "go depth 4 searchmoves b0c2 h2e2 c3c4",
    ]);
    let got = texts(&e.until_answer());
    let last: Vec<&String> = got
        .iter()
        .filter(|l| l.starts_with("info depth 4 "))
        .collect();
    assert_eq!(last.len(), 3, "{got:?}");
    let mut firsts = Vec::new();
    for (k, l) in last.iter().enumerate() {
        let rank = l.find(&format!(" multipv {} ", k + 1)).expect("rank");
        let score = l.find(" score cp ").expect("score");
        let pv = l.find(" pv ").expect("pv");
        assert!(rank < score && score < pv, "{l}");
        firsts.push(l[pv + 4..].split(' ').next().unwrap().to_string());
    }
    firsts.sort();
    assert_eq!(firsts, ["b0c2", "c3c4", "h2e2"]);
    let best = got.last().unwrap().split(' ').nth(1).unwrap().to_string();
    let first_line = last[0]
        .split(" pv ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(best, first_line);
    e.send("quit");
    assert!(e
        .wait_exit(Duration::from_secs(2))
        .is_some_and(|s| s.success()));
}

fn texts(lines: &[Line]) -> Vec<String> {
    lines.iter().map(|l| l.text.clone()).collect()
}

/// Garbage from a seeded generator: the engine answers `isready` afterwards and never exits or
/// writes to stderr.
#[test]
fn garbage_input_keeps_the_engine_alive() {
    for (seed, hello) in [(1u64, "ucci"), (2, "uci"), (3, "")] {
        let mut e = Engine::start();
        if !hello.is_empty() {
            e.send(hello);
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // No `quit` (it would end the session), no `batch` (an infinite search would then
        // wait for a `stop` it never reads), no hash/threads changes and no huge numbers
        // (`go depth 1e20` is a legitimately long search; they would cost time and memory,
        // not test correctness).
        let mut excluded = vec!["quit", "batch", "hashsize", "threads"];
        excluded.extend_from_slice(jiangjun::protocol::vocabulary::HUGE_NUMBERS);
        let vocab = jiangjun::protocol::vocabulary::except(&excluded);
        let mut script = Vec::new();
        for _ in 0..1500 {
            let line: Vec<u8> = match rng.random_range(0..3) {
                0 => (0..rng.random_range(0..120))
                    .map(|_| rng.random())
                    .collect(),
                1 => (0..rng.random_range(0..40))
                    .map(|_| rng.random::<char>())
                    .collect::<String>()
                    .into_bytes(),
                _ => {
                    let picks: Vec<(u16, u8)> =
                        (0..rng.random_range(0..12)).map(|_| rng.random()).collect();
                    jiangjun::protocol::vocabulary::line(&vocab, &picks).into_bytes()
                }
            };
            let lower = String::from_utf8_lossy(&line).to_ascii_lowercase();
            if lower.contains("quit") || lower.contains("batch") {
                continue;
            }
            script.extend_from_slice(&line);
            script.push(b'\n');
        }
        e.send_raw(&script);
        // Whatever state the garbage left: stop any search, then the engine must answer.
        e.send("stop");
        e.send("isready");
        e.until_exact("readyok");
        e.send("stop");
        e.sync();
        let status = e.wait_exit(Duration::from_millis(1));
        assert!(status.is_none(), "engine exited on garbage: {status:?}");
        e.finish();
    }
}

/// A line over the 1 MiB cap is skipped with a message; the next line works.
#[test]
fn huge_line_is_skipped() {
    let mut e = Engine::ucci();
    let mut line = b"position startpos moves ".to_vec();
    line.extend(std::iter::repeat_n(b'x', 2 << 20));
    line.push(b'\n');
    e.send_raw(&line);
    let msg = e.expect_prefix("info string ");
    assert!(msg.contains("bytes"), "{msg}");
    e.send("position startpos moves h2e2");
    e.send("go depth 2");
    assert_legal_bestmove(&e.answer(), &position(None, &["h2e2"]));
    e.finish();
}

/// A script without `quit`: the end of input still lets the last search answer, and an
/// infinite one is stopped rather than left running.
#[test]
fn end_of_input_finishes_the_work_in_hand() {
    let mut e = Engine::start();
    e.send_all(&[
        "ucci",
        "position startpos",
        "go depth 4",
        "position startpos moves h2e2",
        "go infinite",
    ]);
    e.close_stdin();
    let first = e.answer();
    assert_legal_bestmove(&first, &Position::startpos());
    let second = e.answer();
    assert_legal_bestmove(&second, &position(None, &["h2e2"]));
    assert!(e
        .wait_exit(Duration::from_secs(5))
        .is_some_and(|s| s.success()));
    e.assert_stderr_empty();
}

/// `isready` and `probe` are answered while thinking; other commands wait for `bestmove`.
#[test]
fn commands_during_search_are_queued_in_order() {
    let mut e = Engine::ucci();
    e.send("position startpos");
    e.send("go infinite");
    e.expect_prefix("info depth");
    e.send_all(&[
        "position startpos moves h2e2",
        "go depth 3",
        "probe startpos",
        "isready",
    ]);
    let got = texts(&e.until_exact("readyok"));
    assert!(got.iter().any(|l| l.starts_with("pophash")), "{got:?}");
    assert!(!got.iter().any(|l| is_answer(l)), "{got:?}");
    e.send("stop");
    let first = e.answer();
    assert_legal_bestmove(&first, &Position::startpos());
    // The queued position/go ran after it.
    let second = e.answer();
    assert_legal_bestmove(&second, &position(None, &["h2e2"]));
    e.finish();
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Measures what GUIs wait for; prints the numbers (run with `--nocapture` to see them).
/// Bounds are only sanity limits: TCHESS rejects engines slower than 1 s to `uciok`
/// (gui.md §5), the league forfeits 200 ms after its `stop` (gui.md §2).
#[test]
fn latencies() {
    let mut handshake = Vec::new();
    let mut warm = Vec::new();
    let mut readyok = Vec::new();
    let mut stop = Vec::new();
    for _ in 0..5 {
        // Cold: from process start, as a GUI sees it.
        let mut e = Engine::start();
        let t = Instant::now();
        e.send("ucci");
        let got = e.until_exact("ucciok");
        handshake.push(got.last().unwrap().at - t);
        // Warm: the handshake alone.
        let t = Instant::now();
        e.send("ucci");
        let got = e.until_exact("ucciok");
        warm.push(got.last().unwrap().at - t);

        e.send("position startpos");
        e.send("go infinite");
        e.expect_prefix("info depth");
        std::thread::sleep(Duration::from_millis(50));
        for _ in 0..4 {
            let t = Instant::now();
            e.send("isready");
            let got = e.until_exact("readyok");
            readyok.push(got.last().unwrap().at - t);
        }
        let t = Instant::now();
        e.send("stop");
        let got = e.until_answer();
        stop.push(got.last().unwrap().at - t);
        e.finish();
    }
    let (h, w, r, s) = (
        median(&mut handshake),
        median(&mut warm),
        median(&mut readyok),
        median(&mut stop),
    );
    eprintln!(
        "latency medians: ucci->ucciok {h:?} from process start (max {:?}), {w:?} warm (max \
         {:?}); isready->readyok while searching {r:?} (max {:?}); stop->bestmove {s:?} \
         (max {:?})",
        handshake.last().unwrap(),
        warm.last().unwrap(),
        readyok.last().unwrap(),
        stop.last().unwrap()
    );
    assert!(*handshake.last().unwrap() < Duration::from_secs(1));
    assert!(*readyok.last().unwrap() < Duration::from_millis(500));
    assert!(*stop.last().unwrap() < Duration::from_millis(500));
}

/// UCI announces the options that act there, and refuses to take a spin value below the
/// minimum it announced without saying so.
#[test]
fn uci_announces_its_options_and_keeps_their_minimums() {
    let mut e = Engine::start();
    e.send("uci");
    let hello = texts(&e.until_exact("uciok"));
    for line in [
        "option name Style type combo default normal var solid var normal var risky",
        "option name Pruning type combo default large var none var small var medium var large",
        "option name Knowledge type combo default large var none var small var medium var large",
        "option name Randomness type combo default none var none var tiny var small var medium var large var huge",
    ] {
        assert!(hello.iter().any(|l| l == line), "{line} missing: {hello:?}");
    }
    for name in ["Threads", "Hash", "MultiPV"] {
        e.send(&format!("setoption name {name} value 0"));
        e.send("isready");
        let got = texts(&e.until_exact("readyok"));
        assert_eq!(
            got[0],
            format!("info string setoption {name}: 0 is below the minimum 1; using 1"),
            "{got:?}"
        );
    }
    e.finish();
}

/// A limited strength: announced with its range in both protocols, searches no more than the
/// weakest level's budget, prints one line at `MultiPV` 1 and answers with a legal move.
#[test]
fn a_limited_strength_plays_a_legal_move_within_its_budget() {
    use jiangjun::search::strength::{Strength, MAX_ELO, MIN_ELO};
    let mut e = Engine::start();
    e.send("uci");
    let hello = texts(&e.until_exact("uciok"));
    let elo =
        format!("option name UCI_Elo type spin default {MIN_ELO} min {MIN_ELO} max {MAX_ELO}");
    assert!(hello.contains(&elo), "{hello:?}");
    assert!(hello.contains(&"option name UCI_LimitStrength type check default false".to_string()));
    e.send_all(&[
        "setoption name OwnBook value false",
        "setoption name UCI_LimitStrength value true",
        &format!("setoption name UCI_Elo value {MIN_ELO}"),
        "position startpos moves h2e2 h9g7",
        "go wtime 60000 btime 60000",
    ]);
    let got = texts(&e.until_answer());
    // The budget holds, except that a limited strength always finishes its first iteration
    // (its candidate lines at depth 1).
    let mut full = jiangjun::engine::Engine::new();
    let start = Position::startpos();
    let (moves, _) = start.parse_moves(&["h2e2".to_string(), "h9g7".to_string()]);
    full.set_game(start, &moves).unwrap();
    let mut first = 0;
    let limits = jiangjun::search::limits::Limits {
        depth: Some(1),
        multipv: jiangjun::search::strength::LINES,
        ..Default::default()
    };
    full.search_blocking(limits, |i| first = i.nodes);
    let budget = Strength::from_elo(MIN_ELO).nodes.max(first);
    for line in got.iter().filter(|l| l.starts_with("info depth")) {
        assert!(!line.contains(" multipv "), "{line}");
        let nodes: u64 = line
            .split(" nodes ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(nodes <= budget, "{line}");
    }
    let best = got.last().unwrap().split(' ').nth(1).unwrap().to_string();
    let mut pos = jiangjun::board::Position::startpos();
    for m in ["h2e2", "h9g7"] {
        pos.make_move(pos.parse_move(m).unwrap());
    }
    assert!(pos.parse_move(&best).is_ok(), "{got:?}");
    e.finish();
    let mut u = Engine::start();
    u.send("ucci");
    let hello = texts(&u.until_exact("ucciok"));
    let elo = format!("option elo type spin min {MIN_ELO} max {MAX_ELO} default {MIN_ELO}");
    assert!(hello.contains(&elo), "{hello:?}");
    assert!(hello.contains(&"option limitstrength type check default false".to_string()));
    u.finish();
}

/// In debug mode `isready` names the network in use beside the book.
#[test]
fn debug_isready_names_the_network() {
    let mut e = Engine::ucci();
    e.send("setoption debug true");
    e.send("isready");
    let got = texts(&e.until_exact("readyok"));
    assert!(
        got.iter()
            .any(|l| l == "info string isready: network in use: <built-in>"),
        "{got:?}"
    );
    e.send("setoption usennue false");
    e.send("isready");
    let got = texts(&e.until_exact("readyok"));
    assert!(
        got.iter().any(|l| l
            == "info string isready: network in use: none (usennue is false: the hand-written evaluation)"),
        "{got:?}"
    );
    e.finish();
}

/// As docs/usage.md says (issue 60 item 9): a mate in one under a long `movetime` ends at the
/// search's deepest iteration, not at the clock; an only move that is no short mate is
/// searched on (its last iteration is well short of the deepest). Checked by the depths the
/// engine reports, not by timings.
#[test]
fn movetime_and_short_mates() {
    let mut e = Engine::start();
    e.send("uci");
    e.until_exact("uciok");
    e.send("position fen 3k5/R8/9/9/9/9/9/9/9/5K3 w - - 0 1");
    e.send("go movetime 60000");
    let got = texts(&e.until_answer());
    let last_info = got
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .cloned();
    let last_info = last_info.unwrap_or_default();
    assert!(last_info.contains(" score mate 1 "), "{got:?}");
    let deepest = i64::from(jiangjun::search::limits::MAX_DEPTH);
    assert_eq!(
        info_field(&last_info, "depth"),
        Some(deepest),
        "{last_info}"
    );
    // The only move d9d8, then no quick mate: the search goes on to the clock.
    e.send("position fen R2k5/9/9/P7P/9/9/2p3p2/9/9/1N2K4 b - - 0 1");
    e.send("go movetime 300");
    let got = texts(&e.until_answer());
    assert_eq!(
        got.last().map(|l| &l[..13]),
        Some("bestmove d9d8"),
        "{got:?}"
    );
    let depth = got
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .and_then(|l| info_field(l, "depth"));
    assert!(depth.is_some_and(|d| d < deepest), "{got:?}");
    e.send("quit");
    e.wait_exit(Duration::from_secs(5));
}
