//! What a match or a tournament reports: the engines' descriptions, each game as PGN, and
//! the closing summary (match statistics, terminations, time use).

use super::clock::TimeControl;
use super::crosstable::Crosstable;
use super::engine_process::Protocol;
use super::options::{CommonOptions, MatchOptions};
use super::ranking::{GameResult, ScoredGame, Standing, System};
use super::runner::{EngineInfo, FinishedGame};
use super::stats::{
    elo_estimate, elo_estimate_pairs, los, EloEstimate, Pentanomial, SprtDecision, SprtResult,
    WdlCounts,
};
use crate::board::RankOrigin;
use crate::board::{Color, Position};
use crate::records::pgn::{write_pgn, Game};
use crate::rules::Termination;
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

/// What a match produced.
#[derive(Debug, Clone)]
pub struct MatchReport {
    pub games: Vec<FinishedGame>,
    /// From the first engine's point of view.
    pub wdl: WdlCounts,
    /// Both colours of one opening, from the first engine's point of view: what the SPRT
    /// counts.
    pub pairs: Pentanomial,
    pub sprt: Option<SprtResult>,
    /// The decision that stopped the match early, if any.
    pub sprt_stop: Option<SprtDecision>,
}

/// What a tournament produced.
#[derive(Debug, Clone)]
pub struct TournamentReport {
    pub games: Vec<FinishedGame>,
    pub results: Vec<ScoredGame>,
    pub standings: Vec<Standing>,
    pub crosstable: Crosstable,
    pub system: System,
}

pub(super) fn describe(info: &EngineInfo) -> String {
    let proto = match info.protocol {
        Protocol::Ucci => "UCCI",
        Protocol::Uci => "UCI",
    };
    let ranks = match info.notation {
        RankOrigin::Zero => "ranks 0-9",
        RankOrigin::One => "ranks 1-10",
    };
    match &info.id_name {
        Some(id) => format!("{proto}, {ranks}, id \"{id}\""),
        None => format!("{proto}, {ranks}"),
    }
}

/// What an engine said while its options were set, under its line in the header: a match
/// organiser sees there an option the engine refused (and played without).
pub(super) fn write_notes(out: &mut dyn Write, info: &EngineInfo) {
    for n in &info.notes {
        let _ = writeln!(out, "     says: {n}");
    }
}

/// One finished game as PGN, written by [`write_pgn`] with moves in the match's
/// `--pgn-notation`: the seven-tag roster first, then the start, the time control and how
/// the game ended, and a blank line after it so that games append.
pub(super) fn pgn_for(c: &CommonOptions, g: &FinishedGame, date: &str) -> String {
    let r = &g.record;
    // The opening's FEN was checked when the suite was read; a game cannot start elsewhere.
    let Ok(start) = Position::from_fen(&r.opening.fen) else {
        return String::new();
    };
    let name = |i: usize| c.engines.get(i).map_or("?".to_string(), |e| e.name.clone());
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", c.event.clone()),
        ("Site", c.site.clone()),
        ("Date", date.to_string()),
        ("Round", g.game.round.to_string()),
        ("Red", name(g.game.red)),
        ("Black", name(g.game.black)),
        ("Result", r.result_text().to_string()),
        ("Game", "Chinese Chess".into()),
        ("FEN", r.opening.fen.clone()),
    ];
    if !r.opening.name.is_empty() {
        tags.push(("Opening", r.opening.name.clone()));
    }
    tags.push(("TimeControl", c.settings.game.tc.to_string()));
    // An engine with its own time control (`tc=`): the side's tag says which it played.
    for (tag, i) in [
        ("RedTimeControl", g.game.red),
        ("BlackTimeControl", g.game.black),
    ] {
        if let Some(tc) = c.engines.get(i).and_then(|e| e.tc.as_ref()) {
            tags.push((tag, tc.to_string()));
        }
    }
    tags.push(("Termination", r.reason.clone()));
    tags.push(("PlyCount", r.moves.len().to_string()));
    let mut game = Game::new(start);
    game.tags = tags.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
    game.moves = r.moves.clone();
    game.result = Some(r.outcome);
    let mut text = write_pgn(&game, c.pgn_format);
    text.push('\n');
    text
}

/// Today's date as `YYYY.MM.DD` (UTC), without a date library.
pub(super) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Each engine's time use and faults, added up game by game: the closing summary prints it,
/// and a match or a round robin prints it every [`TimeUse::EVERY`] games on the way, so that
/// a run stopped early (killed, out of time) still says how long each engine took.
#[derive(Debug, Clone, Default)]
pub(super) struct TimeUse {
    games: usize,
    engines: Vec<EngineTime>,
}

#[derive(Debug, Clone, Copy, Default)]
struct EngineTime {
    moves: u64,
    time: Duration,
    max: Duration,
    late: u64,
    ponders: u64,
    ponder_hits: u64,
    faults: u32,
}

impl EngineTime {
    fn avg_ms(&self) -> u64 {
        (self.time.as_millis() as u64)
            .checked_div(self.moves)
            .unwrap_or(0)
    }
}

impl TimeUse {
    /// After this many games a match prints the tally so far.
    pub(super) const EVERY: usize = 50;

    pub(super) fn new(engines: usize) -> Self {
        TimeUse {
            games: 0,
            engines: vec![EngineTime::default(); engines],
        }
    }

    pub(super) fn of(engines: usize, games: &[FinishedGame]) -> Self {
        let mut t = TimeUse::new(engines);
        games.iter().for_each(|g| t.add(g));
        t
    }

    pub(super) fn add(&mut self, g: &FinishedGame) {
        self.games += 1;
        let n = self.engines.len();
        for (side, idx) in [(0usize, g.game.red), (1, g.game.black)] {
            let Some(e) = self.engines.get_mut(idx) else {
                continue;
            };
            let s = g.record.stats[side];
            e.moves += u64::from(s.moves);
            e.time += s.time;
            e.max = e.max.max(s.max_time);
            e.late += u64::from(s.late);
            e.ponders += u64::from(s.ponders);
            e.ponder_hits += u64::from(s.ponder_hits);
        }
        if matches!(
            g.record.termination,
            Termination::Crash
                | Termination::Hang
                | Termination::IllegalMove
                | Termination::TimeForfeit
                | Termination::StartFailure
        ) {
            let loser = g.record.outcome.loser().map(|side| match side {
                Color::Red => g.game.red,
                Color::Black => g.game.black,
            });
            if let Some(l) = loser.filter(|&l| l < n) {
                self.engines[l].faults += 1;
            }
        }
    }

    /// Every [`TimeUse::EVERY`] games: one line, shaped unlike the closing lines (scripts add
    /// those up).
    pub(super) fn progress_line(&self, c: &CommonOptions) -> Option<String> {
        if self.games == 0 || !self.games.is_multiple_of(Self::EVERY) {
            return None;
        }
        let parts: Vec<String> = self
            .engines
            .iter()
            .zip(&c.engines)
            .map(|(e, spec)| {
                format!(
                    "{} avg {} ms, max {} ms, faults {}",
                    spec.name,
                    e.avg_ms(),
                    e.max.as_millis(),
                    e.faults
                )
            })
            .collect();
        Some(format!(
            "  time a move after {} games: {}",
            self.games,
            parts.join("; ")
        ))
    }

    /// The closing summary's lines, one per engine.
    pub(super) fn lines(&self, c: &CommonOptions) -> Vec<String> {
        self.engines
            .iter()
            .zip(&c.engines)
            .map(|(e, spec)| {
                // Under a fixed move time, how many answers came after it (within the margin).
                let tc = spec.tc.as_ref().unwrap_or(&c.settings.game.tc);
                let over = match *tc {
                    TimeControl::MoveTime(ms) => format!(", {} over {ms} ms", e.late),
                    _ => String::new(),
                };
                let ponder = if e.ponders > 0 {
                    format!(", ponder hits {} of {}", e.ponder_hits, e.ponders)
                } else {
                    String::new()
                };
                format!(
                    "  {}: {} moves, avg {} ms, max {} ms{over}{ponder}, losses by crash/hang/illegal/time {}",
                    spec.name,
                    e.moves,
                    e.avg_ms(),
                    e.max.as_millis(),
                    e.faults
                )
            })
            .collect()
    }
}

pub(super) fn terminations(games: &[FinishedGame]) -> String {
    let mut counts: BTreeMap<Termination, u32> = BTreeMap::new();
    for g in games {
        *counts.entry(g.record.termination).or_default() += 1;
    }
    let v: Vec<String> = counts.iter().map(|(t, n)| format!("{t} {n}")).collect();
    v.join(", ")
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        // Adding 0.0 turns -0.0 into 0.0, so an even score prints as +0.0.
        format!("{:+.1}", x + 0.0)
    } else if x > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

/// A match's results from the first engine's point of view: game by game and by pairs.
#[derive(Debug, Clone, Copy)]
pub struct MatchCounts {
    pub wdl: WdlCounts,
    /// The new pairs (`replays`).
    pub pairs: Pentanomial,
    /// Pairs that repeated an earlier pair move for move, left out of `pairs`.
    pub replayed: u32,
}

/// "Elo +12.3 ± 4.5 (95%: ...)" for an estimate.
fn elo_text(e: Option<EloEstimate>) -> String {
    match e {
        Some(e) => format!(
            "Elo {} ± {} (95%: {} .. {})",
            fmt_elo(e.elo),
            if e.margin().is_finite() {
                format!("{:.1}", e.margin())
            } else {
                "inf".into()
            },
            fmt_elo(e.lower),
            fmt_elo(e.upper)
        ),
        None => "Elo not defined (all games won or lost, or none)".into(),
    }
}

/// The closing lines of a match: result, score with Elo and LOS, the pairs and their Elo, the
/// SPRT's state (on the pairs), colours, terminations and each engine's time use.
pub fn write_match_summary(
    out: &mut dyn Write,
    opts: &MatchOptions,
    games: &[FinishedGame],
    counts: MatchCounts,
    sprt: Option<SprtResult>,
    stop: Option<SprtDecision>,
    elapsed: Duration,
) {
    let c = &opts.common;
    let MatchCounts {
        wdl,
        pairs,
        replayed,
    } = counts;
    let (a, b) = (&c.engines[0].name, &c.engines[1].name);
    let _ = writeln!(out, "{}", "-".repeat(72));
    let _ = writeln!(
        out,
        "Result {a} vs {b}: W {} D {} L {} ({} games, {:.0} s)",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.games(),
        elapsed.as_secs_f64()
    );
    let score = wdl
        .score()
        .map_or("-".into(), |s| format!("{:.1}%", s * 100.0));
    let points = wdl.wins as f64 + wdl.draws as f64 / 2.0;
    let elo = elo_text(elo_estimate(&wdl));
    let los_text = los(&wdl).map_or("-".into(), |l| format!("{:.1}%", l * 100.0));
    let _ = writeln!(
        out,
        "Score {points}/{} = {score}   {elo}   LOS {los_text}",
        wdl.games()
    );
    if pairs.pairs() > 0 {
        let [p0, p1, p2, p3, p4] = pairs.counts;
        let _ = writeln!(
            out,
            "Pairs (both colours of an opening, {a}'s points 0, ½, 1, 1½, 2): {p0} {p1} {p2} {p3} {p4}   {}",
            elo_text(elo_estimate_pairs(&pairs))
        );
    }
    if replayed > 0 {
        let _ = writeln!(
            out,
            "Replays: {replayed} pairs repeated an earlier pair move for move and are left out of the pairs and the SPRT (more openings give more evidence)"
        );
    }
    if let Some(s) = &opts.sprt {
        let (lo, hi) = s.bounds();
        let verdict = match stop.or(sprt.map(|t| t.decision)) {
            Some(SprtDecision::AcceptH1) => "H1 accepted",
            Some(SprtDecision::AcceptH0) => "H0 accepted",
            _ => "no decision",
        };
        let llr = sprt.map_or("undefined".into(), |t| format!("{:.2}", t.llr));
        let _ = writeln!(
            out,
            "SPRT elo0 {} elo1 {} on {} pairs: LLR {llr} [{lo:.2}, {hi:.2}], {verdict}",
            s.elo0(),
            s.elo1(),
            pairs.pairs()
        );
    }
    let (mut rw, mut d, mut bw) = (0, 0, 0);
    for g in games {
        match g.record.outcome {
            GameResult::RedWins => rw += 1,
            GameResult::Draw => d += 1,
            GameResult::BlackWins => bw += 1,
        }
    }
    let _ = writeln!(out, "Red wins {rw}, draws {d}, Black wins {bw}");
    let _ = writeln!(out, "Terminations: {}", terminations(games));
    for l in TimeUse::of(c.engines.len(), games).lines(c) {
        let _ = writeln!(out, "{l}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::engine_process::EngineSpec;
    use crate::tournament::game::{GameRecord, SideStats};
    use crate::tournament::openings::Opening;
    use crate::tournament::runner::ScheduledGame;

    fn game(
        number: u32,
        red: usize,
        outcome: GameResult,
        termination: Termination,
    ) -> FinishedGame {
        let side = |ms: u64| SideStats {
            moves: 10,
            time: Duration::from_millis(10 * ms),
            max_time: Duration::from_millis(ms + 5),
            late: 1,
            ..SideStats::default()
        };
        FinishedGame {
            game: ScheduledGame {
                number,
                round: number,
                red,
                black: 1 - red,
                opening: 0,
            },
            record: GameRecord {
                opening: Opening::startpos(),
                moves: Vec::new(),
                outcome,
                termination,
                reason: String::new(),
                // Red's engine took 100 ms a move, Black's 200 ms.
                stats: [side(100), side(200)],
            },
        }
    }

    #[test]
    fn time_use_is_printed_every_fifty_games_and_at_the_end() {
        let engines = ["cmd=a,name=one", "cmd=b,name=two"]
            .map(|s| EngineSpec::parse(s).unwrap())
            .to_vec();
        let c = CommonOptions::new(engines, TimeControl::MoveTime(200));
        let mut t = TimeUse::new(2);
        let mut printed = Vec::new();
        for i in 0..TimeUse::EVERY as u32 * 2 {
            // Game 7 is lost on time by Red, who is `one` in the odd-numbered games.
            let g = if i == 6 {
                game(i + 1, 0, GameResult::BlackWins, Termination::TimeForfeit)
            } else {
                game(
                    i + 1,
                    (i % 2) as usize,
                    GameResult::Draw,
                    Termination::NaturalLimit,
                )
            };
            t.add(&g);
            printed.extend(t.progress_line(&c));
        }
        // Each engine played Red in half the games: 150 ms a move on average.
        assert_eq!(
            printed,
            [50, 100].map(|n| format!(
                "  time a move after {n} games: one avg 150 ms, max 205 ms, faults 1; two avg 150 ms, max 205 ms, faults 0"
            ))
        );
        // Not the closing lines' shape, which scripts add up.
        assert!(printed.iter().all(|l| !l.contains("losses by")));
        assert_eq!(
            t.lines(&c),
            [
                "  one: 1000 moves, avg 150 ms, max 205 ms, 100 over 200 ms, losses by crash/hang/illegal/time 1",
                "  two: 1000 moves, avg 150 ms, max 205 ms, 100 over 200 ms, losses by crash/hang/illegal/time 0",
            ]
        );
    }
}
