//! The `jiangjun match` and `jiangjun tournament` subcommands: options, progress lines while
//! games finish, PGN output, and the closing summary (match statistics, or standings with a
//! crosstable).

use super::clock::TimeControl;
use super::crosstable::{self, Crosstable};
use super::engine_process::{EngineSpec, IoLog, Notation, Protocol, Timeouts};
use super::game::{DrawAdjudication, GameConfig, ResignAdjudication, Termination};
use super::openings::{load_openings, Opening};
use super::pairing::multi_round_robin;
use super::pgn;
use super::ranking::{standings, GameResult, Outcome, Scoring, Standing, System};
use super::referee::{Referee, RulesReferee};
use super::runner::{
    match_schedule, probe_engines, round_robin_schedule, run_games, EngineInfo, FinishedGame,
    RunSettings,
};
use super::stats::{elo_estimate, los, EloModel, Sprt, SprtDecision, SprtResult, Wdl};
use crate::rules::RuleSet;
use anyhow::Context;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Usage of both subcommands.
pub const USAGE: &str = "\
usage:
  jiangjun match --engine SPEC --engine SPEC [--games N] [--sprt ELO0,ELO1[,ALPHA,BETA]] [common]
  jiangjun tournament --engine SPEC --engine SPEC [--engine SPEC ...] [--double | --cycles N]
                      [--scoring W,D,L | W,DRED/DBLACK,L] [common]
engine SPEC: cmd=PATH[,name=NAME][,proto=auto|ucci|uci][,ranks=0|1][,dir=DIR][,arg=ARG]
             [,option.NAME=VALUE ...]     (a bare PATH works too; '\\,' escapes a comma)
common: the options below; the time control TC is 10+0.1 (s base+inc, 6.1) | 300 (sudden
death, 6.3) | 40/60[:20/30][+inc] (moves/s periods, 6.2) | movetime=MS | depth=N | nodes=N";

/// Options shared by matches and tournaments.
#[derive(Clone)]
pub struct CommonOptions {
    pub engines: Vec<EngineSpec>,
    pub openings: Vec<Opening>,
    /// Where the openings came from, for the header line.
    pub openings_source: String,
    pub settings: RunSettings,
    pub pgn: Option<PathBuf>,
    pub event: String,
    pub site: String,
    /// Repetition judge: the 2011 rules (or AXF, by `--rules`).
    pub referee: Arc<dyn Referee>,
}

impl CommonOptions {
    /// Defaults for `engines` under `tc`.
    pub fn new(engines: Vec<EngineSpec>, tc: TimeControl) -> CommonOptions {
        CommonOptions {
            engines,
            openings: vec![Opening::startpos()],
            openings_source: "start position".into(),
            settings: RunSettings {
                game: GameConfig::new(tc),
                timeouts: Timeouts::default(),
                concurrency: 1,
                log: None,
            },
            pgn: None,
            event: String::new(),
            site: "?".into(),
            referee: Arc::new(RulesReferee),
        }
    }
}

/// A two-engine match.
#[derive(Clone)]
pub struct MatchOptions {
    pub common: CommonOptions,
    pub games: u32,
    pub sprt: Option<Sprt>,
}

/// A round robin.
#[derive(Clone)]
pub struct TournamentOptions {
    pub common: CommonOptions,
    /// 1 = single round robin (14.1), 2 = double (14.2), ...
    pub cycles: u32,
    pub scoring: Scoring,
}

/// What a match produced.
#[derive(Debug, Clone)]
pub struct MatchReport {
    pub games: Vec<FinishedGame>,
    /// From the first engine's point of view.
    pub wdl: Wdl,
    pub sprt: Option<SprtResult>,
    /// The decision that stopped the match early, if any.
    pub sprt_stop: Option<SprtDecision>,
}

/// What a tournament produced.
#[derive(Debug, Clone)]
pub struct TournamentReport {
    pub games: Vec<FinishedGame>,
    pub results: Vec<GameResult>,
    pub standings: Vec<Standing>,
    pub crosstable: Crosstable,
    pub system: System,
}

/// Options of both subcommands (`[common]` in [`USAGE`]).
#[derive(clap::Args, Debug, Clone)]
pub struct CommonArgs {
    /// An engine: cmd=PATH[,name=..][,proto=..][,ranks=..][,dir=..][,arg=..][,option.NAME=..].
    #[arg(long = "engine", value_name = "SPEC", value_parser = EngineSpec::parse)]
    pub engines: Vec<EngineSpec>,
    /// Time control: 10+0.1 (6.1) | 300 (6.3) | 40/60[:20/30][+inc] (6.2) | movetime=MS |
    /// depth=N | nodes=N.
    #[arg(long, value_name = "TC", default_value = "10+0.1", value_parser = TimeControl::parse)]
    pub tc: TimeControl,
    /// Opening suite (openings.txt format); default: the start position.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Play the openings in random order.
    #[arg(long)]
    pub shuffle: bool,
    /// Seed of --shuffle (default: the clock).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// Games at once.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub concurrency: u16,
    /// Append every game as PGN.
    #[arg(long, value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Rule book for repetition verdicts: cxa2011 or axf.
    #[arg(long, value_name = "RULES", value_parser = rule_set)]
    pub rules: Option<RuleSet>,
    /// Moves per side without capture (default: the rule book's, 60 or 50; 0 = off).
    #[arg(long, value_name = "MOVES")]
    pub natural_limit: Option<u32>,
    /// Draw after N plies (default 1000; 0 = off).
    #[arg(long, value_name = "N")]
    pub max_plies: Option<u32>,
    /// Clock overrun forgiven, in milliseconds (default 100).
    #[arg(long, value_name = "MS")]
    pub margin: Option<u64>,
    /// Most seconds per move under depth/nodes limits (default 60).
    #[arg(long, value_name = "S", value_parser = seconds)]
    pub hang_timeout: Option<Duration>,
    /// Wait for ucciok/uciok/readyok, in seconds (default 10).
    #[arg(long, value_name = "S", value_parser = seconds)]
    pub handshake_timeout: Option<Duration>,
    /// Wait for ucciok before trying uci, in seconds (default 3).
    #[arg(long, value_name = "S", value_parser = seconds)]
    pub detect_timeout: Option<Duration>,
    /// Draw when from move MOVENUMBER both engines' scores stay within ±SCORE for COUNT
    /// moves, e.g. 40,8,10.
    #[arg(long, value_name = "MOVENUMBER,COUNT,SCORE", value_parser = draw_adjudication)]
    pub draw_adjudication: Option<DrawAdjudication>,
    /// Resign when both engines agree for COUNT moves that a side is down SCORE, e.g. 3,1000.
    #[arg(long, value_name = "COUNT,SCORE", value_parser = resign_adjudication)]
    pub resign_adjudication: Option<ResignAdjudication>,
    /// Draw when neither side has rook, horse, cannon or pawn (4.2.2).
    #[arg(long)]
    pub material_draw: bool,
    /// PGN tag (default: the subcommand).
    #[arg(long, value_name = "TEXT")]
    pub event: Option<String>,
    /// PGN tag.
    #[arg(long, value_name = "TEXT", default_value = "?")]
    pub site: String,
    /// Append all engine I/O to FILE.
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// `jiangjun match`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// Games to play (colours alternate, each opening twice).
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Stop early when the test decides: ELO0,ELO1[,ALPHA,BETA] (logistic Elo).
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", allow_hyphen_values = true,
          value_parser = sprt)]
    pub sprt: Option<Sprt>,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// `jiangjun tournament`.
#[derive(clap::Args, Debug, Clone)]
pub struct TournamentArgs {
    /// A double round robin (14.2), colours exchanged.
    #[arg(long)]
    pub double: bool,
    /// Cycles of the round robin.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub cycles: Option<u32>,
    /// Points for a win, a draw and a loss (13.1, 13.3): W,D,L or W,DRED/DBLACK,L.
    #[arg(long, value_name = "W,D,L", default_value = "2,1,0", value_parser = parse_scoring)]
    pub scoring: Scoring,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// `--rules`: the spellings the match manager has always accepted.
fn rule_set(r: &str) -> Result<RuleSet, String> {
    match r.to_ascii_lowercase().as_str() {
        "cxa2011" | "cxa" | "chinese" => Ok(RuleSet::Cxa2011),
        "axf" | "asian" => Ok(RuleSet::Axf),
        _ => Err(format!("'{r}' is not cxa2011 or axf")),
    }
}

/// A positive number of seconds.
fn seconds(v: &str) -> Result<Duration, String> {
    match v.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e7 => Ok(Duration::from_secs_f64(s)),
        _ => Err("must be a positive number of seconds".into()),
    }
}

fn numbers<T: std::str::FromStr>(text: &str) -> Result<Vec<T>, String> {
    text.split(',')
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|_| format!("'{s}' is not a number"))
        })
        .collect()
}

fn draw_adjudication(v: &str) -> Result<DrawAdjudication, String> {
    match numbers::<i64>(v)?.as_slice() {
        [m, c, sc] if *m >= 0 && *c > 0 && *sc >= 0 => Ok(DrawAdjudication {
            move_number: (*m).min(u32::MAX as i64) as u32,
            move_count: (*c).min(10_000) as u32,
            score: (*sc).min(1_000_000) as i32,
        }),
        _ => Err("wants MOVENUMBER,COUNT,SCORE".into()),
    }
}

fn resign_adjudication(v: &str) -> Result<ResignAdjudication, String> {
    match numbers::<i64>(v)?.as_slice() {
        [c, sc] if *c > 0 && *sc > 0 => Ok(ResignAdjudication {
            move_count: (*c).min(10_000) as u32,
            score: (*sc).min(1_000_000) as i32,
        }),
        _ => Err("wants COUNT,SCORE".into()),
    }
}

fn sprt(v: &str) -> Result<Sprt, String> {
    let (e0, e1, a, b) = match numbers::<f64>(v)?.as_slice() {
        [e0, e1] => (*e0, *e1, 0.05, 0.05),
        [e0, e1, a, b] => (*e0, *e1, *a, *b),
        _ => return Err("wants ELO0,ELO1[,ALPHA,BETA]".into()),
    };
    Sprt::new(e0, e1, a, b, EloModel::Logistic).map_err(|e| e.to_string())
}

/// `W,D,L` or `W,DRED/DBLACK,L` (13.1, 13.3).
pub fn parse_scoring(v: &str) -> Result<Scoring, String> {
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    let num = |s: &str| -> Result<u32, String> {
        s.parse::<u32>()
            .ok()
            .filter(|&n| n <= 1000)
            .ok_or_else(|| format!("'{s}' is not a whole number up to 1000"))
    };
    let [w, d, l] = parts.as_slice() else {
        return Err("wants WIN,DRAW,LOSS (e.g. 2,1,0 or 3,1/2,0)".into());
    };
    let (dr, db) = match d.split_once('/') {
        Some((a, b)) => (num(a)?, num(b)?),
        None => (num(d)?, num(d)?),
    };
    Ok(Scoring {
        win: num(w)?,
        loss: num(l)?,
        red_draw: dr,
        black_draw: db,
    })
}

impl CommonArgs {
    /// The options, with the openings read and the I/O log opened.
    fn options(&self, default_event: &str) -> anyhow::Result<CommonOptions> {
        let mut c = CommonOptions::new(self.engines.clone(), self.tc.clone());
        c.event = self.event.as_deref().unwrap_or(default_event).to_string();
        c.site = self.site.clone();
        if let Some(path) = &self.openings {
            c.openings = load_openings(path).map_err(anyhow::Error::msg)?;
            c.openings_source = format!("{} openings from {}", c.openings.len(), path.display());
        }
        if self.shuffle {
            use rand::seq::SliceRandom;
            use rand::SeedableRng;
            let seed = self.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64)
            });
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            c.openings.shuffle(&mut rng);
            c.openings_source
                .push_str(&format!(", shuffled (seed {seed})"));
        }
        let s = &mut c.settings;
        s.concurrency = usize::from(self.concurrency);
        if let Some(r) = self.rules {
            s.game.rules = r;
            s.game.natural_limit = Some(r.profile().limit);
        }
        if let Some(n) = self.natural_limit {
            s.game.natural_limit = (n > 0).then(|| s.game.rules.profile().limit.with_rounds(n));
        }
        if let Some(n) = self.max_plies {
            s.game.max_plies = n;
        }
        if let Some(ms) = self.margin {
            s.game.margin = Duration::from_millis(ms);
        }
        if let Some(d) = self.hang_timeout {
            s.game.hang_timeout = d;
        }
        if let Some(d) = self.handshake_timeout {
            s.timeouts.handshake = d;
            s.timeouts.ready = d;
        }
        if let Some(d) = self.detect_timeout {
            s.timeouts.detect = d;
        }
        s.game.draw_adjudication = self.draw_adjudication;
        s.game.resign_adjudication = self.resign_adjudication;
        s.game.material_draw = self.material_draw;
        if let Some(path) = &self.log {
            s.log = Some(IoLog::create(path).with_context(|| format!("--log {}", path.display()))?);
        }
        c.pgn = self.pgn.clone();
        Ok(c)
    }
}

impl MatchArgs {
    /// The match's options; errors are usage errors.
    pub fn options(&self) -> anyhow::Result<MatchOptions> {
        let common = self.common.options("jiangjun match")?;
        anyhow::ensure!(
            common.engines.len() == 2,
            "a match needs exactly 2 --engine, got {}",
            common.engines.len()
        );
        Ok(MatchOptions {
            common,
            games: self.games,
            sprt: self.sprt,
        })
    }
}

impl TournamentArgs {
    /// The tournament's options; errors are usage errors.
    pub fn options(&self) -> anyhow::Result<TournamentOptions> {
        let common = self.common.options("jiangjun tournament")?;
        anyhow::ensure!(
            common.engines.len() >= 2,
            "a tournament needs at least 2 --engine"
        );
        let mut names: Vec<&str> = common.engines.iter().map(|e| e.name.as_str()).collect();
        names.sort_unstable();
        anyhow::ensure!(
            names.windows(2).all(|w| w[0] != w[1]),
            "engine names must differ (use name=...)"
        );
        let cycles = match (self.double, self.cycles) {
            (true, Some(c)) if c != 2 => anyhow::bail!("--double contradicts --cycles"),
            (true, _) => 2,
            (false, c) => c.unwrap_or(1),
        };
        Ok(TournamentOptions {
            common,
            cycles,
            scoring: self.scoring,
        })
    }
}

fn describe(info: &EngineInfo) -> String {
    let proto = match info.protocol {
        Protocol::Ucci => "UCCI",
        Protocol::Uci => "UCI",
    };
    let ranks = match info.notation {
        Notation::Iccs => "ranks 0-9",
        Notation::RanksFromOne => "ranks 1-10",
    };
    match &info.id_name {
        Some(id) => format!("{proto}, {ranks}, id \"{id}\""),
        None => format!("{proto}, {ranks}"),
    }
}

fn pgn_for(c: &CommonOptions, g: &FinishedGame, date: &str) -> String {
    let r = &g.record;
    let name = |i: usize| c.engines.get(i).map_or("?".to_string(), |e| e.name.clone());
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", c.event.clone()),
        ("Site", c.site.clone()),
        ("Date", date.to_string()),
        ("Round", g.game.round.to_string()),
        ("Red", name(g.game.red)),
        ("Black", name(g.game.black)),
        ("Result", r.result_text().to_string()),
        ("FEN", r.opening.fen.clone()),
        ("Format", "ICCS".into()),
    ];
    if !r.opening.name.is_empty() {
        tags.push(("Opening", r.opening.name.clone()));
    }
    tags.push(("TimeControl", c.settings.game.tc.to_string()));
    tags.push(("Termination", r.reason.clone()));
    tags.push(("PlyCount", r.moves.len().to_string()));
    pgn::game_pgn(
        &tags,
        &r.opening.fen,
        &r.moves,
        r.result_text(),
        Some(&r.reason),
    )
}

/// Opens the PGN file for appending.
fn open_pgn(c: &CommonOptions) -> Result<Option<std::fs::File>, String> {
    c.pgn
        .as_ref()
        .map(|p| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("--pgn {}: {e}", p.display()))
        })
        .transpose()
}

fn engine_time_lines(c: &CommonOptions, games: &[FinishedGame]) -> Vec<String> {
    let n = c.engines.len();
    let mut moves = vec![0u64; n];
    let mut time = vec![Duration::ZERO; n];
    let mut max = vec![Duration::ZERO; n];
    let mut faults = vec![0u32; n];
    for g in games {
        for (side, idx) in [(0usize, g.game.red), (1, g.game.black)] {
            if idx >= n {
                continue;
            }
            let s = g.record.stats[side];
            moves[idx] += u64::from(s.moves);
            time[idx] += s.time;
            max[idx] = max[idx].max(s.max_time);
        }
        if matches!(
            g.record.termination,
            Termination::Crash
                | Termination::Hang
                | Termination::IllegalMove
                | Termination::TimeForfeit
                | Termination::StartFailure
        ) {
            let loser = match g.record.outcome {
                Outcome::RedWin => Some(g.game.black),
                Outcome::BlackWin => Some(g.game.red),
                Outcome::Draw => None,
            };
            if let Some(l) = loser.filter(|&l| l < n) {
                faults[l] += 1;
            }
        }
    }
    (0..n)
        .map(|i| {
            let avg = (time[i].as_millis() as u64)
                .checked_div(moves[i])
                .unwrap_or(0);
            format!(
                "  {}: {} moves, avg {} ms, max {} ms, losses by crash/hang/illegal/time {}",
                c.engines[i].name,
                moves[i],
                avg,
                max[i].as_millis(),
                faults[i]
            )
        })
        .collect()
}

fn terminations(games: &[FinishedGame]) -> String {
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

/// Plays a match, printing progress and the summary to `out`.
pub fn run_match(opts: &MatchOptions, out: &mut dyn Write) -> Result<MatchReport, String> {
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
    }
    let mut pgn_file = open_pgn(c)?;
    let date = pgn::today();
    let start = Instant::now();
    let mut wdl = Wdl::default();
    let mut stop: Option<SprtDecision> = None;
    let total = opts.games;
    let schedule = match_schedule(opts.games, c.openings.len());
    let mut finished = 0u32;
    let games = run_games(
        &c.engines,
        &c.openings,
        schedule,
        &c.settings,
        Arc::clone(&c.referee),
        |g| {
            finished += 1;
            let first_red = g.game.red == 0;
            match (g.record.outcome, first_red) {
                (Outcome::Draw, _) => wdl.draws += 1,
                (Outcome::RedWin, true) | (Outcome::BlackWin, false) => wdl.wins += 1,
                _ => wdl.losses += 1,
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
            if let Some(t) = opts.sprt.as_ref().and_then(|s| s.test(&wdl)) {
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
    let sprt = opts.sprt.as_ref().and_then(|s| s.test(&wdl));
    let _ = writeln!(out, "{}", "-".repeat(72));
    let _ = writeln!(
        out,
        "Result {a} vs {b}: W {} D {} L {} ({} games, {:.0} s)",
        wdl.wins,
        wdl.draws,
        wdl.losses,
        wdl.games(),
        start.elapsed().as_secs_f64()
    );
    let score = wdl
        .score()
        .map_or("-".into(), |s| format!("{:.1}%", s * 100.0));
    let points = wdl.wins as f64 + wdl.draws as f64 / 2.0;
    let elo = match elo_estimate(&wdl) {
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
    };
    let los_text = los(&wdl).map_or("-".into(), |l| format!("{:.1}%", l * 100.0));
    let _ = writeln!(
        out,
        "Score {points}/{} = {score}   {elo}   LOS {los_text}",
        wdl.games()
    );
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
            "SPRT elo0 {} elo1 {}: LLR {llr} [{lo:.2}, {hi:.2}], {verdict}",
            s.elo0(),
            s.elo1()
        );
    }
    let (mut rw, mut d, mut bw) = (0, 0, 0);
    for g in &games {
        match g.record.outcome {
            Outcome::RedWin => rw += 1,
            Outcome::Draw => d += 1,
            Outcome::BlackWin => bw += 1,
        }
    }
    let _ = writeln!(out, "Red wins {rw}, draws {d}, Black wins {bw}");
    let _ = writeln!(out, "Terminations: {}", terminations(&games));
    for l in engine_time_lines(c, &games) {
        let _ = writeln!(out, "{l}");
    }
    if let Some(p) = &c.pgn {
        let _ = writeln!(out, "PGN appended to {}", p.display());
    }
    let _ = out.flush();
    Ok(MatchReport {
        games,
        wdl,
        sprt,
        sprt_stop: stop,
    })
}

/// Plays a round robin, printing progress, standings and the crosstable to `out`.
pub fn run_tournament(
    opts: &TournamentOptions,
    out: &mut dyn Write,
) -> Result<TournamentReport, String> {
    let c = &opts.common;
    let n = c.engines.len();
    let schedule =
        round_robin_schedule(n, opts.cycles, c.openings.len()).map_err(|e| e.to_string())?;
    let infos = probe_engines(&c.engines, &c.settings)?;
    let system = if opts.cycles > 1 {
        System::MultiGame
    } else {
        System::SingleGame
    };
    let total = schedule.len();
    let rounds = schedule.iter().map(|g| g.round).max().unwrap_or(0);
    let draw_points = if opts.scoring.red_draw == opts.scoring.black_draw {
        opts.scoring.red_draw.to_string()
    } else {
        format!(
            "{} (Red) / {} (Black)",
            opts.scoring.red_draw, opts.scoring.black_draw
        )
    };
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
    }
    // The Appendix 1 table by draw number (Red first), with each round's bye.
    if let Ok(table) = multi_round_robin(n as u32, opts.cycles) {
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
    let mut pgn_file = open_pgn(c)?;
    let date = pgn::today();
    let start = Instant::now();
    let mut finished = 0usize;
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
            if let Some(f) = pgn_file.as_mut() {
                let _ = f.write_all(pgn_for(c, g, &date).as_bytes());
                let _ = f.flush();
            }
            let _ = out.flush();
            true
        },
    );
    let results: Vec<GameResult> = games
        .iter()
        .map(|g| {
            GameResult::new(
                g.game.red as u32 + 1,
                g.game.black as u32 + 1,
                g.record.outcome,
            )
        })
        .collect();
    let table = standings(n as u32, &results, &opts.scoring, system).map_err(|e| e.to_string())?;
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
    for l in engine_time_lines(c, &games) {
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

/// `jiangjun match ...`: exit status 0, or 1 when the engines failed; an error is a usage
/// error (exit status 2).
pub fn match_main(args: MatchArgs) -> anyhow::Result<i32> {
    let opts = args.options()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    Ok(match run_match(&opts, &mut out) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("jiangjun match: {e}");
            1
        }
    })
}

/// `jiangjun tournament ...`: exit status 0, or 1 when the engines failed; an error is a
/// usage error (exit status 2).
pub fn tournament_main(args: TournamentArgs) -> anyhow::Result<i32> {
    let opts = args.options()?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    Ok(match run_tournament(&opts, &mut out) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("jiangjun tournament: {e}");
            1
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(clap::Parser)]
    struct Match {
        #[command(flatten)]
        args: MatchArgs,
    }

    #[derive(clap::Parser)]
    struct Tournament {
        #[command(flatten)]
        args: TournamentArgs,
    }

    fn parse_match(args: &[&str]) -> anyhow::Result<MatchOptions> {
        let argv = std::iter::once("match").chain(args.iter().copied());
        Match::try_parse_from(argv)?.args.options()
    }

    fn parse_tournament(args: &[&str]) -> anyhow::Result<TournamentOptions> {
        let argv = std::iter::once("tournament").chain(args.iter().copied());
        Tournament::try_parse_from(argv)?.args.options()
    }

    #[test]
    fn match_arguments() {
        let o = parse_match(&[
            "--engine",
            "cmd=/a,name=x",
            "--engine=/b",
            "--games",
            "6",
            "--tc",
            "movetime=200",
            "--sprt=-5,5",
            "--rules",
            "axf",
            "--natural-limit",
            "40",
            "--material-draw",
        ])
        .unwrap();
        assert_eq!(o.games, 6);
        assert_eq!(o.common.engines[1].name, "b");
        assert_eq!(o.common.settings.game.tc, TimeControl::MoveTime(200));
        assert_eq!(o.common.settings.game.rules, RuleSet::Axf);
        assert_eq!(
            o.common.settings.game.natural_limit.map(|l| l.plies),
            Some(80)
        );
        assert!(o.common.settings.game.material_draw);
        assert!(o.sprt.is_some());
        let o = parse_match(&["--engine", "/a", "--engine", "/b", "--sprt", "-5,5"]).unwrap();
        assert!(o.sprt.is_some(), "a negative Elo is a value, not an option");
        for bad in [
            &["--engine", "/a"][..],
            &["--engine", "/a", "--engine", "/b", "--double"],
            &["--engine", "/a", "--engine", "/b", "--games", "x"],
            &["--engine", "/a", "--engine", "/b", "--games", "0"],
            &["--engine", "/a", "--engine", "/b", "--sprt", "5,-5"],
            &["--engine", "/a", "--engine", "/b", "--tc"],
            &["--engine", "/a", "--engine", "/b", "stray"],
            &["--engine", "/a", "--engine", "/b", "--concurrency", "0"],
            &["--engine", "/a", "--engine", "/b", "--hang-timeout", "-1"],
        ] {
            assert!(parse_match(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn tournament_arguments() {
        let o = parse_tournament(&[
            "--engine",
            "/a",
            "--engine",
            "/b",
            "--engine",
            "/c",
            "--double",
            "--scoring",
            "3,1/2,0",
        ])
        .unwrap();
        assert_eq!(o.cycles, 2);
        assert_eq!(o.scoring, Scoring::BLACK_DRAW_BONUS);
        assert!(parse_tournament(&["--engine", "/a", "--engine", "/a"]).is_err());
        assert!(parse_tournament(&["--engine", "/a", "--engine", "/b", "--games", "3"]).is_err());
        let double_and_three = [
            "--engine", "/a", "--engine", "/b", "--double", "--cycles", "3",
        ];
        assert!(parse_tournament(&double_and_three).is_err());
        assert!(parse_scoring("2,1").is_err());
        assert_eq!(parse_scoring("2,1,0"), Ok(Scoring::STANDARD));
    }
}
