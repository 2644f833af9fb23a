//! The match manager's run loop behind `jiangjun match` and `jiangjun tournament`: engines
//! probed, games played on worker threads with a progress line as each finishes, PGN
//! appended, then the summary of [`report`]. What it runs is set by [`super::options`].

use super::crosstable::{self, Crosstable};
use super::options::{CommonOptions, MatchOptions, TournamentOptions};
use super::pairing::multi_round_robin;
use super::ranking::{standings, ScoredGame, Scoring, System};
use super::replays::{reuse_note, PairGame, PairLedger, Paired};
use super::report::{
    self, describe, pgn_for, terminations, write_notes, MatchReport, TimeUse, TournamentReport,
};
use super::runner::{match_schedule, probe_engines, round_robin_schedule, run_games};
use super::stats::{Pentanomial, SprtDecision, WdlCounts};
use crate::board::Color;
use anyhow::Context;
use std::io::Write;
use std::sync::Arc;
use std::time::Instant;

/// Opens the PGN file for appending.
fn open_pgn(c: &CommonOptions) -> anyhow::Result<Option<std::fs::File>> {
    c.pgn
        .as_ref()
        .map(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("--pgn {}", p.display()))
        })
        .transpose()
}

/// Plays a match, printing progress and the summary to `out`.
pub fn run_match(opts: &MatchOptions, out: &mut dyn Write) -> anyhow::Result<MatchReport> {
    let c = &opts.common;
    let infos = probe_engines(&c.engines, &c.settings)?;
    let (a, b) = (&c.engines[0].name, &c.engines[1].name);
    let _ = writeln!(
        out,
        "Match {a} vs {b}: {} games, tc {}, {}, concurrency {}, rules {:?}",
        opts.games,
        c.settings.game.tc,
        c.openings_source,
        c.settings.concurrency,
        c.settings.game.rules
    );
    for (e, info) in c.engines.iter().zip(&infos) {
        let _ = writeln!(out, "  {}: {}", e.name, describe(info));
        write_notes(out, info);
    }
    if let Some(note) = reuse_note(opts.games, c.openings.len()) {
        let _ = writeln!(out, "{note}");
    }
    let mut pgn_file = open_pgn(c)?;
    let date = report::today();
    let start = Instant::now();
    let mut wdl = WdlCounts::default();
    // Games 2k + 1 and 2k + 2 play one opening with colours exchanged
    // (`match_schedule`): the first of a pair to finish waits in the ledger.
    let mut pairs = Pentanomial::default();
    let mut ledger = PairLedger::default();
    let mut stop: Option<SprtDecision> = None;
    let total = opts.games;
    let schedule = match_schedule(opts.games, c.openings.len());
    let mut finished = 0u32;
    let mut time_use = TimeUse::new(c.engines.len());
    let games = run_games(
        &c.engines,
        &c.openings,
        schedule,
        &c.settings,
        Arc::clone(&c.referee),
        |g| {
            finished += 1;
            let first_red = g.game.red == 0;
            let first = if first_red { Color::Red } else { Color::Black };
            let first_scored = g.record.outcome.for_side(first);
            wdl.add(first_scored);
            let finished_game = PairGame {
                pair: (g.game.number - 1) / 2,
                opening: g.game.opening,
                first_red,
                moves: &g.record.moves,
                first_scored,
            };
            if let Paired::New(x, y) = ledger.finish(finished_game) {
                pairs.add(x, y);
            }
            let score = wdl.score().unwrap_or(0.5) * 100.0;
            let mut line = format!(
                "[{finished}/{total}] game {}: {} (Red) vs {} (Black) {} {}, {} plies | {a} +{} ={} -{} {score:.1}%",
                g.game.number,
                c.engines[g.game.red].name,
                c.engines[g.game.black].name,
                g.record.result_text(),
                g.record.reason,
                g.record.moves.len(),
                wdl.wins,
                wdl.draws,
                wdl.losses
            );
            let mut go_on = true;
            if let Some(t) = opts.sprt.as_ref().and_then(|s| s.test_pairs(&pairs)) {
                line.push_str(&format!(
                    " LLR {:.2} [{:.2},{:.2}]",
                    t.llr, t.lower, t.upper
                ));
                if t.decision != SprtDecision::Continue && stop.is_none() {
                    stop = Some(t.decision);
                    go_on = false;
                }
            }
            let _ = writeln!(out, "{line}");
            time_use.add(g);
            if let Some(l) = time_use.progress_line(c) {
                let _ = writeln!(out, "{l}");
            }
            if let Some(f) = pgn_file.as_mut() {
                let _ = f.write_all(pgn_for(c, g, &date).as_bytes());
                let _ = f.flush();
            }
            if !go_on {
                let _ = writeln!(out, "SPRT decided ({stop:?}): no new games are started");
            }
            let _ = out.flush();
            go_on
        },
    );
    let sprt = opts.sprt.as_ref().and_then(|s| s.test_pairs(&pairs));
    let elapsed = start.elapsed();
    let counts = report::MatchCounts {
        wdl,
        pairs,
        replayed: ledger.replayed,
    };
    report::write_match_summary(out, opts, &games, counts, sprt, stop, elapsed);
    if let Some(p) = &c.pgn {
        let _ = writeln!(out, "PGN appended to {}", p.display());
    }
    let _ = out.flush();
    Ok(MatchReport {
        games,
        wdl,
        pairs,
        sprt,
        sprt_stop: stop,
    })
}

/// The points of a draw in the header: one number, or Red's and Black's (13.3).
fn draw_points(scoring: &Scoring) -> String {
    if scoring.red_draw == scoring.black_draw {
        scoring.red_draw.to_string()
    } else {
        format!(
            "{} (Red) / {} (Black)",
            scoring.red_draw, scoring.black_draw
        )
    }
}

/// The Appendix 1 table of `n` entrants over `cycles` by draw number (Red first), with each
/// round's bye.
fn write_rounds(out: &mut dyn Write, n: usize, cycles: u32) {
    if let Ok(table) = multi_round_robin(n as u32, cycles) {
        for r in &table {
            let games: Vec<String> = r
                .pairings
                .iter()
                .map(|p| format!("{}-{}", p.red, p.black))
                .collect();
            let bye = r.bye.map_or(String::new(), |b| format!(", bye {b}"));
            let _ = writeln!(out, "  round {}: {}{bye}", r.number, games.join(" "));
        }
    }
}

/// Plays a round robin, printing progress, standings and the crosstable to `out`.
pub fn run_tournament(
    opts: &TournamentOptions,
    out: &mut dyn Write,
) -> anyhow::Result<TournamentReport> {
    let c = &opts.common;
    let n = c.engines.len();
    let schedule = round_robin_schedule(n, opts.cycles, c.openings.len())?;
    let infos = probe_engines(&c.engines, &c.settings)?;
    let system = if opts.cycles > 1 {
        System::MultiGame
    } else {
        System::SingleGame
    };
    let total = schedule.len();
    let rounds = schedule.iter().map(|g| g.round).max().unwrap_or(0);
    let draw_points = draw_points(&opts.scoring);
    let _ = writeln!(
        out,
        "Round robin, {n} engines, {} cycle(s), {rounds} rounds, {total} games, tc {}, {}, concurrency {}",
        opts.cycles, c.settings.game.tc, c.openings_source, c.settings.concurrency,
    );
    let _ = writeln!(
        out,
        "Scoring (13.1/13.3): win {}, draw {draw_points}, loss {}; ranking by {}",
        opts.scoring.win,
        opts.scoring.loss,
        if system == System::SingleGame {
            "14.1"
        } else {
            "14.2"
        }
    );
    for (i, (e, info)) in c.engines.iter().zip(&infos).enumerate() {
        let _ = writeln!(out, "  {}. {}: {}", i + 1, e.name, describe(info));
        write_notes(out, info);
    }
    write_rounds(out, n, opts.cycles);
    let mut pgn_file = open_pgn(c)?;
    let date = report::today();
    let start = Instant::now();
    let mut finished = 0usize;
    let mut time_use = TimeUse::new(n);
    let games = run_games(
        &c.engines,
        &c.openings,
        schedule,
        &c.settings,
        Arc::clone(&c.referee),
        |g| {
            finished += 1;
            let _ = writeln!(
                out,
                "[{finished}/{total}] round {} game {}: {} (Red) vs {} (Black) {} {}, {} plies",
                g.game.round,
                g.game.number,
                c.engines[g.game.red].name,
                c.engines[g.game.black].name,
                g.record.result_text(),
                g.record.reason,
                g.record.moves.len()
            );
            time_use.add(g);
            if let Some(l) = time_use.progress_line(c) {
                let _ = writeln!(out, "{l}");
            }
            if let Some(f) = pgn_file.as_mut() {
                let _ = f.write_all(pgn_for(c, g, &date).as_bytes());
                let _ = f.flush();
            }
            let _ = out.flush();
            true
        },
    );
    let results: Vec<ScoredGame> = games
        .iter()
        .map(|g| {
            ScoredGame::new(
                g.game.red as u32 + 1,
                g.game.black as u32 + 1,
                g.record.outcome,
            )
        })
        .collect();
    let table = standings(n as u32, &results, &opts.scoring, system)?;
    let crosstable = Crosstable::new(n, &results, &opts.scoring);
    let names: Vec<String> = c.engines.iter().map(|e| e.name.clone()).collect();
    let _ = writeln!(out, "{}", "-".repeat(72));
    let _ = writeln!(
        out,
        "Final standings after {} games ({:.0} s):",
        games.len(),
        start.elapsed().as_secs_f64()
    );
    let _ = write!(
        out,
        "{}",
        crosstable::render(&names, &table, &crosstable, system)
    );
    let _ = writeln!(out, "Terminations: {}", terminations(&games));
    for l in TimeUse::of(n, &games).lines(c) {
        let _ = writeln!(out, "{l}");
    }
    if let Some(p) = &c.pgn {
        let _ = writeln!(out, "PGN appended to {}", p.display());
    }
    let _ = out.flush();
    Ok(TournamentReport {
        games,
        results,
        standings: table,
        crosstable,
        system,
    })
}
