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
common:
  --tc TC                 10+0.1 (s base+inc, 6.1) | 300 (sudden death, 6.3) |
                          40/60[:20/30][+inc] (moves/s periods, 6.2) | movetime=MS | depth=N |
                          nodes=N                                   (default 10+0.1)
  --openings FILE         opening suite (openings.txt format); default: the start position
  --shuffle [--seed N]    play the openings in random order
  --concurrency N         games at once (default 1)
  --pgn FILE              append every game as PGN
  --rules cxa2011|axf     rule book for repetition verdicts (default cxa2011)
  --natural-limit MOVES   moves per side without capture (default: the rule book's, 60 or 50;
                          0 = off)
  --max-plies N           draw after N plies (default 1000; 0 = off)
  --margin MS             clock overrun forgiven (default 100)
  --hang-timeout S        max seconds per move under depth/nodes limits (default 60)
  --handshake-timeout S   wait for ucciok/uciok/readyok (default 10)
  --detect-timeout S      wait for ucciok before trying uci (default 3)
  --draw-adjudication MOVENUMBER,COUNT,SCORE   e.g. 40,8,10
  --resign-adjudication COUNT,SCORE            e.g. 3,1000
  --material-draw         draw when neither side has rook, horse, cannon or pawn (4.2.2)
  --event TEXT --site TEXT  PGN tags
  --log FILE              append all engine I/O";

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

struct Parsed {
    values: Vec<(String, String)>,
    flags: Vec<String>,
}

impl Parsed {
    fn get(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn all(&self, key: &str) -> Vec<&str> {
        self.values
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    fn flag(&self, key: &str) -> bool {
        self.flags.iter().any(|f| f == key)
    }

    fn number<T: std::str::FromStr>(&self, key: &str) -> Result<Option<T>, String> {
        self.get(key)
            .map(|v| {
                v.trim()
                    .parse()
                    .map_err(|_| format!("--{key} '{v}' is not a valid number"))
            })
            .transpose()
    }

    fn seconds(&self, key: &str) -> Result<Option<Duration>, String> {
        match self.number::<f64>(key)? {
            Some(s) if s.is_finite() && s > 0.0 && s < 1e7 => Ok(Some(Duration::from_secs_f64(s))),
            Some(_) => Err(format!("--{key} must be a positive number of seconds")),
            None => Ok(None),
        }
    }
}

const FLAGS: &[&str] = &["double", "shuffle", "material-draw"];
const VALUES: &[&str] = &[
    "engine",
    "games",
    "sprt",
    "cycles",
    "scoring",
    "tc",
    "openings",
    "seed",
    "concurrency",
    "pgn",
    "rules",
    "natural-limit",
    "max-plies",
    "margin",
    "hang-timeout",
    "handshake-timeout",
    "detect-timeout",
    "draw-adjudication",
    "resign-adjudication",
    "event",
    "site",
    "log",
];

fn parse_args(args: &[String], allowed: &[&str]) -> Result<Parsed, String> {
    let mut p = Parsed {
        values: Vec::new(),
        flags: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let Some(body) = a.strip_prefix("--") else {
            return Err(format!("unexpected argument '{a}'"));
        };
        let (key, inline) = match body.split_once('=') {
            Some((k, v)) => (k, Some(v.to_string())),
            None => (body, None),
        };
        if !allowed.contains(&key) {
            return Err(format!("unknown option --{key}"));
        }
        if FLAGS.contains(&key) {
            if inline.is_some() {
                return Err(format!("--{key} takes no value"));
            }
            p.flags.push(key.to_string());
            i += 1;
            continue;
        }
        let value = match inline {
            Some(v) => v,
            None => {
                i += 1;
                args.get(i)
                    .cloned()
                    .ok_or_else(|| format!("--{key} needs a value"))?
            }
        };
        p.values.push((key.to_string(), value));
        i += 1;
    }
    Ok(p)
}

fn numbers<T: std::str::FromStr>(text: &str, what: &str) -> Result<Vec<T>, String> {
    text.split(',')
        .map(|s| {
            s.trim()
                .parse()
                .map_err(|_| format!("{what}: '{s}' is not a number"))
        })
        .collect()
}

fn common_from(p: &Parsed, default_event: &str) -> Result<CommonOptions, String> {
    let engines: Vec<EngineSpec> = p
        .all("engine")
        .iter()
        .map(|s| EngineSpec::parse(s))
        .collect::<Result<_, _>>()?;
    let tc =
        TimeControl::parse(p.get("tc").unwrap_or("10+0.1")).map_err(|e| format!("--tc: {e}"))?;
    let mut c = CommonOptions::new(engines, tc);
    c.event = p.get("event").unwrap_or(default_event).to_string();
    if let Some(s) = p.get("site") {
        c.site = s.to_string();
    }
    if let Some(path) = p.get("openings") {
        c.openings = load_openings(std::path::Path::new(path))?;
        c.openings_source = format!("{} openings from {path}", c.openings.len());
    }
    if p.flag("shuffle") {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let seed = p.number::<u64>("seed")?.unwrap_or_else(|| {
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
    if let Some(n) = p.number::<usize>("concurrency")? {
        if n == 0 || n > 256 {
            return Err("--concurrency must be 1 to 256".into());
        }
        s.concurrency = n;
    }
    if let Some(r) = p.get("rules") {
        s.game.rules = r
            .parse::<RuleSet>()
            .map_err(|_| format!("--rules '{r}' is not cxa2011 or axf"))?;
        s.game.natural_limit = Some(s.game.rules.profile().limit);
    }
    if let Some(n) = p.number::<u32>("natural-limit")? {
        s.game.natural_limit = (n > 0).then(|| s.game.rules.profile().limit.with_rounds(n));
    }
    if let Some(n) = p.number::<u32>("max-plies")? {
        s.game.max_plies = n;
    }
    if let Some(ms) = p.number::<u64>("margin")? {
        s.game.margin = Duration::from_millis(ms);
    }
    if let Some(d) = p.seconds("hang-timeout")? {
        s.game.hang_timeout = d;
    }
    if let Some(d) = p.seconds("handshake-timeout")? {
        s.timeouts.handshake = d;
        s.timeouts.ready = d;
    }
    if let Some(d) = p.seconds("detect-timeout")? {
        s.timeouts.detect = d;
    }
    if let Some(v) = p.get("draw-adjudication") {
        let n: Vec<i64> = numbers(v, "--draw-adjudication")?;
        match n.as_slice() {
            [m, c, sc] if *m >= 0 && *c > 0 && *sc >= 0 => {
                s.game.draw_adjudication = Some(DrawAdjudication {
                    move_number: (*m).min(u32::MAX as i64) as u32,
                    move_count: (*c).min(10_000) as u32,
                    score: (*sc).min(1_000_000) as i32,
                })
            }
            _ => return Err("--draw-adjudication wants MOVENUMBER,COUNT,SCORE".into()),
        }
    }
    if let Some(v) = p.get("resign-adjudication") {
        let n: Vec<i64> = numbers(v, "--resign-adjudication")?;
        match n.as_slice() {
            [c, sc] if *c > 0 && *sc > 0 => {
                s.game.resign_adjudication = Some(ResignAdjudication {
                    move_count: (*c).min(10_000) as u32,
                    score: (*sc).min(1_000_000) as i32,
                })
            }
            _ => return Err("--resign-adjudication wants COUNT,SCORE".into()),
        }
    }
    s.game.material_draw = p.flag("material-draw");
    if let Some(path) = p.get("log") {
        s.log = Some(
            IoLog::create(std::path::Path::new(path)).map_err(|e| format!("--log {path}: {e}"))?,
        );
    }
    c.pgn = p.get("pgn").map(PathBuf::from);
    Ok(c)
}

/// Parses `jiangjun match` arguments.
pub fn parse_match(args: &[String]) -> Result<MatchOptions, String> {
    let allowed: Vec<&str> = VALUES
        .iter()
        .chain(FLAGS)
        .copied()
        .filter(|k| !matches!(*k, "cycles" | "scoring" | "double"))
        .collect();
    let p = parse_args(args, &allowed)?;
    let common = common_from(&p, "jiangjun match")?;
    if common.engines.len() != 2 {
        return Err(format!(
            "a match needs exactly 2 --engine, got {}",
            common.engines.len()
        ));
    }
    let games = p.number::<u32>("games")?.unwrap_or(2);
    if games == 0 || games > 1_000_000 {
        return Err("--games must be 1 to 1000000".into());
    }
    let sprt = match p.get("sprt") {
        None => None,
        Some(v) => {
            let n: Vec<f64> = numbers(v, "--sprt")?;
            let (e0, e1, a, b) = match n.as_slice() {
                [e0, e1] => (*e0, *e1, 0.05, 0.05),
                [e0, e1, a, b] => (*e0, *e1, *a, *b),
                _ => return Err("--sprt wants ELO0,ELO1[,ALPHA,BETA]".into()),
            };
            Some(Sprt::new(e0, e1, a, b, EloModel::Logistic).map_err(|e| format!("--sprt: {e}"))?)
        }
    };
    Ok(MatchOptions {
        common,
        games,
        sprt,
    })
}

/// Parses `jiangjun tournament` arguments.
pub fn parse_tournament(args: &[String]) -> Result<TournamentOptions, String> {
    let allowed: Vec<&str> = VALUES
        .iter()
        .chain(FLAGS)
        .copied()
        .filter(|k| !matches!(*k, "games" | "sprt"))
        .collect();
    let p = parse_args(args, &allowed)?;
    let common = common_from(&p, "jiangjun tournament")?;
    if common.engines.len() < 2 {
        return Err("a tournament needs at least 2 --engine".into());
    }
    let mut names: Vec<&str> = common.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if names.windows(2).any(|w| w[0] == w[1]) {
        return Err("engine names must differ (use name=...)".into());
    }
    let cycles = match (p.flag("double"), p.number::<u32>("cycles")?) {
        (true, Some(c)) if c != 2 => return Err("--double contradicts --cycles".into()),
        (true, _) => 2,
        (false, Some(c)) if (1..=100).contains(&c) => c,
        (false, Some(_)) => return Err("--cycles must be 1 to 100".into()),
        (false, None) => 1,
    };
    let scoring = match p.get("scoring") {
        None => Scoring::STANDARD,
        Some(v) => parse_scoring(v)?,
    };
    Ok(TournamentOptions {
        common,
        cycles,
        scoring,
    })
}

/// `W,D,L` or `W,DRED/DBLACK,L` (13.1, 13.3).
pub fn parse_scoring(v: &str) -> Result<Scoring, String> {
    let parts: Vec<&str> = v.split(',').map(str::trim).collect();
    let num = |s: &str| -> Result<u32, String> {
        s.parse::<u32>()
            .ok()
            .filter(|&n| n <= 1000)
            .ok_or_else(|| format!("--scoring: '{s}' is not a whole number up to 1000"))
    };
    let [w, d, l] = parts.as_slice() else {
        return Err("--scoring wants WIN,DRAW,LOSS (e.g. 2,1,0 or 3,1/2,0)".into());
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

/// `jiangjun match ...`: exit status 0, 1 (engines failed) or 2 (bad arguments).
pub fn match_main(args: &[String]) -> i32 {
    let opts = match parse_match(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("jiangjun match: {e}\n{USAGE}");
            return 2;
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run_match(&opts, &mut out) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("jiangjun match: {e}");
            1
        }
    }
}

/// `jiangjun tournament ...`: exit status 0, 1 (engines failed) or 2 (bad arguments).
pub fn tournament_main(args: &[String]) -> i32 {
    let opts = match parse_tournament(args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("jiangjun tournament: {e}\n{USAGE}");
            return 2;
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run_tournament(&opts, &mut out) {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("jiangjun tournament: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn match_arguments() {
        let o = parse_match(&args(&[
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
        ]))
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
        for bad in [
            &["--engine", "/a"][..],
            &["--engine", "/a", "--engine", "/b", "--double"],
            &["--engine", "/a", "--engine", "/b", "--games", "x"],
            &["--engine", "/a", "--engine", "/b", "--sprt", "5,-5"],
            &["--engine", "/a", "--engine", "/b", "--tc"],
            &["--engine", "/a", "--engine", "/b", "stray"],
        ] {
            assert!(parse_match(&args(bad)).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn tournament_arguments() {
        let o = parse_tournament(&args(&[
            "--engine",
            "/a",
            "--engine",
            "/b",
            "--engine",
            "/c",
            "--double",
            "--scoring",
            "3,1/2,0",
        ]))
        .unwrap();
        assert_eq!(o.cycles, 2);
        assert_eq!(o.scoring, Scoring::BLACK_DRAW_BONUS);
        assert!(parse_tournament(&args(&["--engine", "/a", "--engine", "/a"])).is_err());
        assert!(
            parse_tournament(&args(&["--engine", "/a", "--engine", "/b", "--games", "3"])).is_err()
        );
        assert!(parse_scoring("2,1").is_err());
        assert_eq!(parse_scoring("2,1,0"), Ok(Scoring::STANDARD));
    }
}
