//! Issue 19 §3: how often does it matter in real games that the search's fast path
//! (`rules::fast`) looks less deep than the referee (24.3's wins by a series of checks or
//! through exchanges, 杀 beyond mate in one)?
//!
//! Reads PGN files written by `jiangjun match --pgn` (ICCS moves, optional `[FEN]` tag) and
//! judges every repetition of every game twice: with the fast path, on the cycle the search
//! would see (the position equals one an even number of plies back, no capture between), and
//! with the referee, on the same cycle played once more (the position then occurs a third
//! time). When the referee rules first on another cycle (a position inside the cycle reaches
//! its third occurrence earlier), the fast path is asked about that cycle instead. Prints each
//! disagreement with the referee's natures of the period, then counts; games that repeat an
//! earlier game move for move (a self-play pair with the same opening) count once.
//!
//! `cargo run --release --example fast_path_disagreements -- games.pgn [more.pgn ...]`
//!
//! Measured (issue 19 §3, commit 4161cc0's engine against itself, games from
//! `jiangjun match --engine cmd=target/release/jiangjun,name=a --engine
//! cmd=target/release/jiangjun,name=b --openings tests/data/openings.txt --seed 19 --tc
//! nodes=N --pgn F`: 300 games at N=3000 with `--shuffle`, 180 at 2000, 180 at 5000, 174 at
//! 4000 with `option.hashsize=1` for a and 64 for b): 834 games, 355 distinct (the engine is
//! deterministic, so a colour-swapped pair from one opening is usually the same game). 2011
//! rules: 250 repetitions, 236 agree, 14 disagree, at 7 distinct cycles in 5 games; in every
//! one the fast path says draw and the referee rules the side loses, because the referee sees
//! a win by a series of checks (all 14; 12 with a 杀 beyond mate in one as well); none
//! involves a win through an exchange. AXF: 250 repetitions, 237 compared (no repetition
//! ruling on the other 13), no disagreement (neither looks through checks or exchanges
//! there).

use jiangjun::board::Position;
use jiangjun::rules::fast::judge_cycle_uncached;
use jiangjun::rules::{judge_game, RuleSet};

/// One game: start FEN (empty for the initial position) and ICCS moves.
struct Game {
    fen: String,
    moves: Vec<String>,
}

/// The games of a PGN text as `jiangjun match` writes them: `[FEN "..."]` and `H2-E2` moves.
fn games(text: &str) -> Vec<Game> {
    let mut out = Vec::new();
    for chunk in text.split("[Event ").skip(1) {
        let fen = chunk
            .lines()
            .find_map(|l| l.strip_prefix("[FEN \""))
            .and_then(|l| l.strip_suffix("\"]"))
            .unwrap_or("")
            .to_owned();
        let body: String = chunk
            .lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        let moves = body
            .split_whitespace()
            .filter(|t| t.len() == 5 && t.is_ascii() && t.as_bytes()[2] == b'-')
            .map(|t| format!("{}{}", &t[..2], &t[3..]).to_ascii_lowercase())
            .collect();
        out.push(Game { fen, moves });
    }
    out
}

/// Tallies over all repetitions.
#[derive(Default)]
struct Tally {
    repetitions: usize,
    /// The referee ruled first on another cycle; the fast path was asked about that one.
    other_cycle: usize,
    agree: usize,
    disagree: usize,
    by_checks: usize,
    by_exchange: usize,
    threat: usize,
    unexplained: usize,
}

fn main() -> std::process::ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: fast_path_disagreements GAMES.pgn [MORE.pgn ...]");
        return std::process::ExitCode::from(2);
    }
    let mut all = Vec::new();
    for p in &paths {
        match std::fs::read_to_string(p) {
            Ok(t) => all.extend(games(&t)),
            Err(e) => {
                eprintln!("fast_path_disagreements: cannot read {p}: {e}");
                return std::process::ExitCode::from(2);
            }
        }
    }
    for rules in [RuleSet::Cxa2011, RuleSet::Axf] {
        let mut t = Tally::default();
        let mut seen = std::collections::HashSet::new();
        let mut distinct = 0;
        for (gi, g) in all.iter().enumerate() {
            if seen.insert((g.fen.as_str(), g.moves.as_slice())) {
                distinct += 1;
                judge_game_repetitions(gi, g, rules, &mut t);
            }
        }
        println!(
            "{rules:?}: {} games ({distinct} distinct), {} repetitions ({} ruled first on \
             another cycle): {} agree, {} disagree (referee sees a win by checks {}, through an \
             exchange {}, a deeper 杀 {}, none of these {})",
            all.len(),
            t.repetitions,
            t.other_cycle,
            t.agree,
            t.disagree,
            t.by_checks,
            t.by_exchange,
            t.threat,
            t.unexplained
        );
    }
    std::process::ExitCode::SUCCESS
}

/// Judges every repetition of game `gi` with both the fast path and the referee.
fn judge_game_repetitions(gi: usize, g: &Game, rules: RuleSet, t: &mut Tally) {
    let start = if g.fen.is_empty() {
        Position::startpos()
    } else {
        match Position::from_fen(&g.fen) {
            Ok(p) => p,
            Err(_) => return,
        }
    };
    let mut pos = start.clone();
    let mut keys = vec![pos.key()];
    // The ply after which the last capture stands.
    let mut last_capture = 0;
    for (i, m) in g.moves.iter().enumerate() {
        let Ok(mv) = pos.parse_move(m) else { return };
        if pos.piece_at(mv.to()).is_some() {
            last_capture = i + 1;
        }
        pos.make_move(mv);
        keys.push(pos.key());
        let p = i + 1;
        // The search's probe: the nearest earlier occurrence, even plies back, no capture.
        let Some(len) = (4..=p - last_capture)
            .step_by(2)
            .find(|&l| keys[p - l] == keys[p])
        else {
            continue;
        };
        t.repetitions += 1;
        let mut ext: Vec<&str> = g.moves[..p].iter().map(String::as_str).collect();
        ext.extend(g.moves[p - len..p].iter().map(String::as_str));
        let Ok(j) = judge_game(&g.fen, &ext, rules) else {
            continue;
        };
        let (Some(rep), Some(at)) = (j.repetition, j.ruled_at) else {
            continue;
        };
        let fast = if at == p + len && rep.ply - rep.previous == len {
            judge_cycle_uncached(&pos, len, rules)
        } else {
            // The cycle the referee ruled on, as the search would meet it.
            t.other_cycle += 1;
            let mut q = start.clone();
            for m in &ext[..at] {
                let Ok(mv) = q.parse_move(m) else { return };
                q.make_move(mv);
            }
            judge_cycle_uncached(&q, rep.ply - rep.previous, rules)
        };
        if fast == j.outcome {
            t.agree += 1;
            continue;
        }
        t.disagree += 1;
        let period = &j.moves[rep.period()];
        let checks_win = period
            .iter()
            .any(|r| r.natures.chases().any(|c| c.by_checks));
        let exchange_win = period
            .iter()
            .any(|r| r.natures.chases().any(|c| c.by_exchange));
        let threat = period.iter().any(|r| r.natures.threatens_mate());
        t.by_checks += usize::from(checks_win);
        t.by_exchange += usize::from(exchange_win);
        t.threat += usize::from(threat);
        t.unexplained += usize::from(!(checks_win || exchange_win || threat));
        println!(
            "game {gi} ply {p} {rules:?}: fast {fast:?}, referee {:?}; cycle {}",
            j.outcome,
            ext[rep.period()].join(" ")
        );
        for r in period {
            println!("    {:?}", r.natures.natures());
        }
    }
}
