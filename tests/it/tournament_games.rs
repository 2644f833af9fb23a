//! The match runner against a test double: `tests/doubles/random_engine.rs`, a random mover that
//! can crash, hang, play an illegal move or print garbage on request.

use jiangjun::board::{Position, START_FEN};
use jiangjun::rules::Termination;
use jiangjun::tournament::clock::TimeControl;
use jiangjun::tournament::engine_process::EngineSpec;
use jiangjun::tournament::game::SideStats;
use jiangjun::tournament::manager::{run_match, run_tournament};
use jiangjun::tournament::openings::load_openings;
use jiangjun::tournament::options::{CommonOptions, MatchOptions, TournamentOptions};
use jiangjun::tournament::{GameResult, Scoring, System};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The test double, built by cargo as a binary target of this package for every test run.
fn random_engine() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_random_engine"))
}

fn spec(name: &str, extra: &str) -> EngineSpec {
    let mut s = format!("cmd={},name={name}", random_engine().display());
    for a in extra.split_whitespace() {
        s.push_str(&format!(",arg={a}"));
    }
    EngineSpec::parse(&s).expect("spec")
}

fn options(engines: Vec<EngineSpec>, tc: &str) -> CommonOptions {
    let mut c = CommonOptions::new(engines, TimeControl::parse(tc).unwrap());
    c.openings = load_openings(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/openings.txt"
    )))
    .unwrap();
    c.settings.timeouts.handshake = Duration::from_secs(5);
    c.settings.timeouts.ready = Duration::from_secs(5);
    c.settings.game.margin = Duration::from_millis(100);
    c
}

fn temp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("jiangjun-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Replays every game of a PGN written by the runner: all moves legal, tags present, the
/// result matching the tag, and mates really mates.
fn check_pgn(text: &str) -> usize {
    let mut games = 0;
    for chunk in text.split("[Event ").skip(1) {
        games += 1;
        let tag = |name: &str| {
            chunk
                .lines()
                .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
                .map(|v| v.trim_end_matches("\"]").to_string())
                .unwrap_or_else(|| panic!("tag {name} missing"))
        };
        for t in [
            "Site",
            "Date",
            "Round",
            "Red",
            "Black",
            "TimeControl",
            "Termination",
        ] {
            tag(t);
        }
        let result = tag("Result");
        let fen = tag("FEN");
        let mut pos = Position::from_fen(&fen).unwrap();
        let mut movetext: String = chunk
            .lines()
            .skip_while(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        while let (Some(a), Some(b)) = (movetext.find('{'), movetext.find('}')) {
            if b < a {
                break;
            }
            movetext.replace_range(a..=b, " ");
        }
        let mut plies = 0;
        for tok in movetext.split_whitespace() {
            if tok.contains('.') {
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2"].contains(&tok) {
                assert_eq!(tok, result);
                break;
            }
            if tok.len() == 5 && tok.as_bytes()[2] == b'-' {
                pos.play(tok)
                    .unwrap_or_else(|e| panic!("illegal {tok} in PGN: {e}"));
                plies += 1;
            }
        }
        assert_eq!(tag("PlyCount"), plies.to_string());
        if tag("Termination").contains("checkmated") {
            assert!(pos.is_checkmate());
        }
        if tag("Termination").contains("stalemated") {
            assert!(pos.is_stalemate());
        }
    }
    games
}

#[test]
fn four_game_match_between_random_engines() {
    // One UCCI engine and one UCI engine with Fairy-Stockfish's 1-based ranks, both found by
    // protocol detection.
    let pgn = temp("match.pgn");
    let mut c = options(
        vec![
            spec("ucci_rand", "--proto ucci --seed 1"),
            spec("fsf_rand", "--proto uci --fsf --seed 2"),
        ],
        "10+0.1",
    );
    c.pgn = Some(pgn.clone());
    let opts = MatchOptions {
        common: c,
        games: 4,
        sprt: None,
    };
    let mut out = Vec::new();
    let report = run_match(&opts, &mut out).unwrap();
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("ucci_rand: UCCI, ranks 0-9"), "{text}");
    assert!(text.contains("fsf_rand: UCI, ranks 1-10"), "{text}");
    assert_eq!(report.games.len(), 4);
    assert_eq!(report.wdl.games(), 4);
    for (i, g) in report.games.iter().enumerate() {
        assert_eq!(g.game.red, i % 2, "colours alternate");
        assert!(
            !matches!(
                g.record.termination,
                Termination::Crash
                    | Termination::Hang
                    | Termination::IllegalMove
                    | Termination::TimeForfeit
                    | Termination::StartFailure
                    | Termination::Aborted
            ),
            "game {i}: {}",
            g.record.reason
        );
    }
    // Games 1 and 2 share the first opening, 3 and 4 the second.
    assert_eq!(
        report.games[0].record.opening,
        report.games[1].record.opening
    );
    assert_ne!(
        report.games[1].record.opening,
        report.games[2].record.opening
    );
    let wins_a = report
        .games
        .iter()
        .filter(|g| match g.record.outcome {
            GameResult::RedWins => g.game.red == 0,
            GameResult::BlackWins => g.game.black == 0,
            GameResult::Draw => false,
        })
        .count() as u64;
    assert_eq!(wins_a, report.wdl.wins);
    assert!(text.contains("Result ucci_rand vs fsf_rand: W"));
    let pgn_text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(check_pgn(&pgn_text), 4);
    assert!(pgn_text.contains("[Format \"ICCS\"]"));
    let _ = std::fs::remove_file(&pgn);
}

fn one_sided(bad: &str, tc: &str, games: u32) -> Vec<jiangjun::tournament::runner::FinishedGame> {
    let mut c = options(vec![spec("bad", bad), spec("good", "--seed 7")], tc);
    c.openings = vec![jiangjun::tournament::openings::Opening::startpos()];
    c.settings.game.hang_timeout = Duration::from_secs(1);
    let opts = MatchOptions {
        common: c,
        games,
        sprt: None,
    };
    let mut out = Vec::new();
    run_match(&opts, &mut out).unwrap().games
}

fn bad_engine_lost(g: &jiangjun::tournament::runner::FinishedGame) -> bool {
    match g.record.outcome {
        GameResult::RedWins => g.game.black == 0,
        GameResult::BlackWins => g.game.red == 0,
        GameResult::Draw => false,
    }
}

#[test]
fn crashing_engine_loses_and_is_restarted() {
    let games = one_sided("--crash-after 3", "10+0.1", 2);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(
            g.record.termination,
            Termination::Crash,
            "{}",
            g.record.reason
        );
        assert!(bad_engine_lost(g));
    }
}

#[test]
fn hanging_engine_loses_on_time() {
    let games = one_sided("--hang-after 2", "1+0", 1);
    assert_eq!(
        games[0].record.termination,
        Termination::TimeForfeit,
        "{}",
        games[0].record.reason
    );
    assert!(bad_engine_lost(&games[0]));
}

#[test]
fn hanging_engine_under_depth_limit_is_a_hang() {
    let games = one_sided("--hang-after 1", "depth=3", 1);
    assert_eq!(
        games[0].record.termination,
        Termination::Hang,
        "{}",
        games[0].record.reason
    );
    assert!(bad_engine_lost(&games[0]));
}

#[test]
fn slow_engine_loses_at_movetime() {
    let games = one_sided("--delay 400", "movetime=50", 1);
    assert_eq!(
        games[0].record.termination,
        Termination::TimeForfeit,
        "{}",
        games[0].record.reason
    );
    assert!(bad_engine_lost(&games[0]));
}

#[test]
fn illegal_move_loses() {
    let games = one_sided("--illegal-after 2", "10+0.1", 2);
    for g in &games {
        assert_eq!(
            g.record.termination,
            Termination::IllegalMove,
            "{}",
            g.record.reason
        );
        assert!(bad_engine_lost(g));
    }
}

#[test]
fn garbage_output_is_tolerated() {
    let games = one_sided("--garbage --no-millisec --seed 3", "10+0.1", 1);
    assert!(
        !matches!(
            games[0].record.termination,
            Termination::Crash | Termination::IllegalMove | Termination::TimeForfeit
        ),
        "{}",
        games[0].record.reason
    );
}

#[test]
fn two_ucci_draw_offers_agree_a_draw() {
    let games = one_sided("--proto ucci --offer-draw", "10+0.1", 1);
    // The bad engine is Red and offers on its first move; the good engine does not offer,
    // so nothing is agreed until both offer.
    assert_ne!(games[0].record.termination, Termination::DrawAgreed);
    let mut c = options(
        vec![
            spec("a", "--proto ucci --offer-draw"),
            spec("b", "--proto ucci --offer-draw"),
        ],
        "10+0.1",
    );
    c.openings = vec![jiangjun::tournament::openings::Opening::startpos()];
    let opts = MatchOptions {
        common: c,
        games: 1,
        sprt: None,
    };
    let r = run_match(&opts, &mut Vec::new()).unwrap();
    assert_eq!(r.games[0].record.termination, Termination::DrawAgreed);
    assert_eq!(
        r.games[0].record.moves.len(),
        1,
        "the accepting move is not played"
    );
    assert_eq!(r.games[0].record.opening.fen, START_FEN);
}

fn robin(
    n: usize,
    cycles: u32,
    concurrency: usize,
) -> jiangjun::tournament::report::TournamentReport {
    let engines = (0..n)
        .map(|i| spec(&format!("r{}", i + 1), &format!("--seed {}", 11 + i)))
        .collect();
    let mut c = options(engines, "10+0.1");
    c.settings.concurrency = concurrency;
    // Short games keep the test fast: a 60-ply cap.
    c.settings.game.max_plies = 60;
    let opts = TournamentOptions {
        common: c,
        cycles,
        scoring: Scoring::STANDARD,
    };
    let mut out = Vec::new();
    let report = run_tournament(&opts, &mut out).unwrap();
    let text = String::from_utf8_lossy(&out);
    assert!(text.contains("Final standings"), "{text}");
    report
}

fn check_consistency(r: &jiangjun::tournament::report::TournamentReport, n: usize) {
    for s in &r.standings {
        let e = s.entrant as usize;
        assert_eq!(r.crosstable.row_points(e), s.points, "row sum = points");
        let (mut w, mut d, mut l) = (0, 0, 0);
        for g in &r.results {
            let red = g.red as usize == e;
            if !red && g.black as usize != e {
                continue;
            }
            match (g.outcome, red) {
                (GameResult::Draw, _) => d += 1,
                (GameResult::RedWins, true) | (GameResult::BlackWins, false) => w += 1,
                _ => l += 1,
            }
        }
        assert_eq!((s.wins, s.draws, s.losses), (w, d, l));
        for opp in 1..=n {
            let cell = &r.crosstable.cells[e - 1][opp - 1];
            let games = r
                .results
                .iter()
                .filter(|g| {
                    (g.red as usize, g.black as usize) == (e, opp)
                        || (g.red as usize, g.black as usize) == (opp, e)
                })
                .count();
            assert_eq!(cell.len(), games);
        }
    }
    // Ranks are ordered by points first.
    for w in r.standings.windows(2) {
        assert!(w[0].rank <= w[1].rank);
    }
}

#[test]
fn three_engine_round_robin() {
    let r = robin(3, 1, 1);
    assert_eq!(r.games.len(), 3);
    assert_eq!(r.system, System::SingleGame);
    let mut pairs: Vec<(usize, usize)> = r
        .games
        .iter()
        .map(|g| (g.game.red.min(g.game.black), g.game.red.max(g.game.black)))
        .collect();
    pairs.sort();
    assert_eq!(pairs, vec![(0, 1), (0, 2), (1, 2)]);
    check_consistency(&r, 3);
}

#[test]
fn four_engine_double_round_robin_in_parallel() {
    let r = robin(4, 2, 2);
    assert_eq!(r.games.len(), 12);
    assert_eq!(r.system, System::MultiGame);
    for a in 0..4 {
        for b in 0..4 {
            if a != b {
                let n = r
                    .games
                    .iter()
                    .filter(|g| (g.game.red, g.game.black) == (a, b))
                    .count();
                assert_eq!(n, 1, "{a} has Red against {b} exactly once");
            }
        }
    }
    check_consistency(&r, 4);
}

fn kings_only(
    configure: impl FnOnce(&mut CommonOptions),
) -> jiangjun::tournament::runner::FinishedGame {
    let mut c = options(
        vec![spec("a", "--seed 21"), spec("b", "--seed 22")],
        "10+0.1",
    );
    c.openings = vec![jiangjun::tournament::openings::parse_opening_line(
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        "bare kings",
    )
    .unwrap()];
    configure(&mut c);
    let opts = MatchOptions {
        common: c,
        games: 1,
        sprt: None,
    };
    run_match(&opts, &mut Vec::new()).unwrap().games.remove(0)
}

#[test]
fn repetition_goes_to_the_referee() {
    // Bare kings shuffle in their palaces: a position soon occurs a third time. The stand-in
    // referee draws it.
    let g = kings_only(|_| {});
    assert_eq!(
        g.record.termination,
        Termination::Repetition,
        "{}",
        g.record.reason
    );
    assert_eq!(g.record.outcome, GameResult::Draw);
    // A plugged-in referee decides instead: here it rules against Red.
    let g = kings_only(|c| {
        c.referee = std::sync::Arc::new(
            |start: &Position,
             moves: &[jiangjun::board::Move],
             _rules: jiangjun::rules::RuleSet| {
                let mut pos = start.clone();
                for &m in moves {
                    pos.make_move(m);
                }
                assert!(pos.occurrences() >= 3);
                jiangjun::tournament::repetition_referee::Ruling {
                    outcome: Some(GameResult::BlackWins),
                    reason: "test ruling".into(),
                }
            },
        );
    });
    assert_eq!(g.record.outcome, GameResult::BlackWins);
    assert_eq!(g.record.reason, "test ruling");
}

#[test]
fn natural_limit_and_dead_material() {
    // A referee that lets repetitions go on leaves the natural limit to end the game.
    let g = kings_only(|c| {
        c.referee = std::sync::Arc::new(
            |_: &Position, _: &[jiangjun::board::Move], _: jiangjun::rules::RuleSet| {
                jiangjun::tournament::repetition_referee::Ruling {
                    outcome: None,
                    reason: String::new(),
                }
            },
        );
        c.settings.game.natural_limit = Some(
            jiangjun::rules::RuleSet::Cxa2011
                .profile()
                .limit
                .with_rounds(5),
        );
    });
    assert_eq!(
        g.record.termination,
        Termination::NaturalLimit,
        "{}",
        g.record.reason
    );
    assert_eq!(g.record.moves.len(), 10);
    let g = kings_only(|c| c.settings.game.material_draw = true);
    assert_eq!(g.record.termination, Termination::NoAttackingMaterial);
    assert!(g.record.moves.is_empty());
}

#[test]
fn a_panicking_referee_costs_one_game_not_the_match() {
    // Two bare kings wander until a position occurs a third time; then the runner asks the
    // referee, which panics here. Each such game must end as aborted and the match go on.
    let mut c = options(vec![spec("a", "--seed 1"), spec("b", "--seed 2")], "10+0.1");
    c.openings = vec![jiangjun::tournament::openings::Opening {
        name: "bare kings".into(),
        fen: "3k5/9/9/9/9/9/9/9/9/5K3 w - - 0 1".into(),
        moves: Vec::new(),
    }];
    c.referee = std::sync::Arc::new(
        |_: &Position,
         _: &[jiangjun::board::Move],
         _: jiangjun::rules::RuleSet|
         -> jiangjun::tournament::repetition_referee::Ruling {
            panic!("test referee gives up")
        },
    );
    let opts = MatchOptions {
        common: c,
        games: 2,
        sprt: None,
    };
    let mut out = Vec::new();
    let games = run_match(&opts, &mut out).unwrap().games;
    assert_eq!(games.len(), 2);
    for g in &games {
        if g.record.termination == Termination::Aborted {
            assert!(
                g.record.reason.contains("test referee gives up"),
                "{}",
                g.record.reason
            );
            assert_eq!(g.record.outcome, GameResult::Draw);
        } else {
            // Only the natural limit can end a bare-kings game without the referee.
            assert_eq!(
                g.record.termination,
                Termination::NaturalLimit,
                "{}",
                g.record.reason
            );
        }
    }
    assert!(games
        .iter()
        .any(|g| g.record.termination == Termination::Aborted));
}

#[test]
fn answers_after_a_fixed_move_time_are_counted_as_late() {
    // The slow side sleeps 80 ms on every `go movetime 50`: late every time, yet inside the
    // overrun margin, so the game goes on and the report counts the moves over the time.
    let mut c = options(
        vec![spec("slow", "--delay 80"), spec("good", "--seed 7")],
        "movetime=50",
    );
    c.openings = vec![jiangjun::tournament::openings::Opening::startpos()];
    c.settings.game.margin = Duration::from_secs(5);
    c.settings.game.max_plies = 12;
    let opts = MatchOptions {
        common: c,
        games: 1,
        sprt: None,
    };
    let mut out = Vec::new();
    let games = run_match(&opts, &mut out).unwrap().games;
    let g = &games[0];
    assert_ne!(
        g.record.termination,
        Termination::TimeForfeit,
        "{}",
        g.record.reason
    );
    let s = stats_of(g, 0);
    assert!(s.moves > 0);
    assert_eq!(
        s.late, s.moves,
        "every answer of the slow side came after 50 ms"
    );
    let text = String::from_utf8(out).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("slow:") && l.contains(" moves, avg "))
        .unwrap_or_else(|| panic!("no time line for the slow engine in:\n{text}"));
    assert!(
        line.contains(&format!(", {} over 50 ms,", s.moves)),
        "{line}"
    );
}

/// A match between two engines that think on each other's time (`ponder=on`), at `tc`.
fn ponder_match(
    engines: Vec<EngineSpec>,
    tc: &str,
) -> (Vec<jiangjun::tournament::runner::FinishedGame>, String) {
    // What is tested is the conversation, not the speed: a loaded machine must not turn a
    // slow answer into a loss on time, nor a slow answer to the `stop` of a ponder miss
    // (half a second by default; a test run beside builds on two cores went past it) into
    // a kill.
    let opts = ponder_options(engines, tc, Duration::from_secs(5));
    let mut out = Vec::new();
    let games = run_match(&opts, &mut out).unwrap().games;
    for g in &games {
        assert!(
            matches!(
                g.record.termination,
                Termination::MaxPlies | Termination::Repetition
            ),
            "{}",
            g.record.reason
        );
    }
    (games, String::from_utf8(out).unwrap())
}

/// Two games from the start, 24 plies at most, a generous margin on the clock, and
/// `stop_grace` for the answer to the `stop` of a ponder miss.
fn ponder_options(engines: Vec<EngineSpec>, tc: &str, stop_grace: Duration) -> MatchOptions {
    let mut c = options(engines, tc);
    c.openings = vec![jiangjun::tournament::openings::Opening::startpos()];
    c.settings.game.max_plies = 24;
    c.settings.game.margin = Duration::from_secs(5);
    c.settings.timeouts.stop_grace = stop_grace;
    MatchOptions {
        common: c,
        games: 2,
        sprt: None,
    }
}

/// The statistics of engine `engine` (0: the first `--engine`) in game `g`.
fn stats_of(g: &jiangjun::tournament::runner::FinishedGame, engine: usize) -> SideStats {
    g.record.stats[if g.game.red == engine { 0 } else { 1 }]
}

/// Searches on the opponent's time of the first engine that its opponent's move missed.
fn misses_of_first(games: &[jiangjun::tournament::runner::FinishedGame]) -> u32 {
    games
        .iter()
        .map(|g| stats_of(g, 0).ponders - stats_of(g, 0).ponder_hits)
        .sum()
}

fn pondering(name: &str, args: &str) -> EngineSpec {
    let mut s = spec(name, args);
    s.ponder = true;
    s
}

#[test]
fn predicted_moves_are_pondered_and_hit() {
    // Two engines that play the first legal move and predict the first legal reply: every
    // prediction comes true, so every search on the opponent's time ends with `ponderhit`
    // (the double answers `go ponder` only after it), in both protocols.
    let (games, text) = ponder_match(
        vec![
            pondering("ucci_first", "--proto ucci --first"),
            pondering("uci_first", "--proto uci --first"),
        ],
        "10+0.1",
    );
    let mut counts = [(0, 0); 2];
    for g in &games {
        for (side, s) in g.record.stats.iter().enumerate() {
            // Each side ponders after each of its moves but the game's last, and every
            // search but one the game's end cut short is a hit.
            assert!(s.ponders + 1 >= s.moves && s.ponders > 0, "{s:?}");
            assert!(s.ponder_hits + 1 >= s.ponders, "{s:?}");
            let engine = if side == 0 { g.game.red } else { g.game.black };
            counts[engine].0 += s.ponder_hits;
            counts[engine].1 += s.ponders;
        }
    }
    for (name, (h, p)) in ["ucci_first", "uci_first"].iter().zip(counts) {
        let line = format!("{name}: ");
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&line) && l.contains(" moves, avg "))
            .unwrap_or_else(|| panic!("no time line for {name} in:\n{text}"));
        assert!(line.contains(&format!("ponder hits {h} of {p},")), "{line}");
    }
}

#[test]
fn a_wrong_prediction_is_stopped_and_the_move_asked_again() {
    // The predicting side meets a random mover: most predictions miss, each miss is a `stop`
    // whose answer is thrown away, then the real position and `go`; nothing is lost on time.
    let (games, _) = ponder_match(
        vec![
            pondering("first", "--proto ucci --first"),
            spec("random", "--seed 5"),
        ],
        "movetime=50",
    );
    assert!(misses_of_first(&games) > 0);
    assert!(games.iter().all(|g| stats_of(g, 0).moves > 0));
}

#[test]
fn an_engine_killed_for_not_answering_stop_on_a_ponder_miss_is_named_as_such() {
    // The predicting side never answers the `stop` of a missed prediction: after the stop
    // grace the runner kills it, and the game says so, not that the engine crashed (from
    // outside, a killed engine looks like one that died by itself).
    let opts = ponder_options(
        vec![
            pondering("deaf", "--proto ucci --first --deaf-ponder"),
            spec("random", "--seed 5"),
        ],
        "movetime=50",
        Duration::from_millis(100),
    );
    let games = run_match(&opts, &mut Vec::new()).unwrap().games;
    for g in &games {
        let r = &g.record;
        assert_eq!(r.termination, Termination::Crash, "{}", r.reason);
        assert!(
            r.reason.contains(
                "(deaf) killed by the runner: no answer to stop (a search on the opponent's \
                 time) within 100 ms"
            ),
            "{}",
            r.reason
        );
        let deaf_red = g.game.red == 0;
        let expected = if deaf_red {
            GameResult::BlackWins
        } else {
            GameResult::RedWins
        };
        assert_eq!(r.outcome, expected, "{}", r.reason);
    }
}

#[test]
fn an_answer_given_while_pondering_does_not_shift_later_answers() {
    // The eager side answers `go ponder` at once and then, asked to `stop` while idle, says
    // `nobestmove` (ElephantEye's way): that line belongs to no search and must not be read
    // as the answer to the next `go`, which would lose the game as a refusal to move.
    let (games, text) = ponder_match(
        vec![
            pondering("eager", "--proto ucci --first --eager-ponder"),
            spec("random", "--seed 9"),
        ],
        "10+0.1",
    );
    assert!(misses_of_first(&games) > 2, "{text}");
}

#[test]
fn jiangjun_ponders_under_both_protocols() {
    // The engine itself, thinking on the opponent's time in UCCI and in UCI, on a clock and
    // at a fixed time per move: every game ends at the ply cap or by repetition, with legal
    // moves in time.
    let jj = |name: &str, proto: &str| {
        EngineSpec::parse(&format!(
            "cmd={},name={name},proto={proto},ponder=on,option.usebook=false,option.hashsize=16",
            env!("CARGO_BIN_EXE_jiangjun")
        ))
        .unwrap()
    };
    for tc in ["2+0.05", "movetime=40"] {
        let (games, _) = ponder_match(vec![jj("jj_ucci", "ucci"), jj("jj_uci", "uci")], tc);
        let ponders: u32 = games
            .iter()
            .flat_map(|g| g.record.stats)
            .map(|s| s.ponders)
            .sum();
        assert!(ponders > 0, "{tc}");
    }
}
