//! `jiangjun match` and `jiangjun tournament`: their arguments (clap), checked and turned
//! into the run loop's options before any engine starts, and the runs themselves.

use crate::records::pgn::MoveFormat;
use crate::rules::RuleSet;
use crate::tournament::clock::TimeControl;
use crate::tournament::engine_process::{EngineSpec, IoLog};
use crate::tournament::game::{DrawAdjudication, ResignAdjudication};
use crate::tournament::manager::{run_match, run_tournament};
use crate::tournament::openings::load_openings;
use crate::tournament::options::{CommonOptions, MatchOptions, TournamentOptions};
use crate::tournament::ranking::Scoring;
use crate::tournament::stats::{EloModel, Sprt};
use anyhow::Context;
use std::path::PathBuf;
use std::time::Duration;

/// Options of both subcommands.
#[derive(clap::Args, Debug, Clone)]
pub struct CommonArgs {
    /// An engine, as a SPEC (written out above); once for each engine.
    #[arg(long = "engine", value_name = "SPEC", value_parser = EngineSpec::parse)]
    pub engines: Vec<EngineSpec>,
    /// The time control TC (written out above) of every engine without its own tc=.
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
    /// The move notation of the PGN: iccs (H2-E2), chinese (炮二平五) or wxf (C2=5).
    #[arg(long, value_name = "NOTATION", default_value = "iccs",
          value_parser = |s: &str| s.parse::<MoveFormat>())]
    pub pgn_notation: MoveFormat,
    /// Rule book for repetition verdicts: cxa2011 or axf.
    #[arg(long, value_name = "RULES", value_parser = |s: &str| s.parse::<RuleSet>())]
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

/// The arguments of `jiangjun match`; their doc comments are its `--help`.
#[derive(clap::Args, Debug, Clone)]
pub struct MatchArgs {
    /// Games to play (colours alternate, each opening twice).
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Stop early when the test, taken on game pairs, decides: ELO0,ELO1[,ALPHA,BETA]
    /// (logistic Elo).
    // This text is `--help`, not Markdown: `[,ALPHA,BETA]` is no link.
    #[allow(rustdoc::broken_intra_doc_links)]
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]", allow_hyphen_values = true,
          value_parser = sprt)]
    pub sprt: Option<Sprt>,
    #[command(flatten)]
    pub common: CommonArgs,
}

/// The arguments of `jiangjun tournament`; their doc comments are its `--help`.
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

/// A positive number of seconds (`--hang-timeout` and the other timeouts).
pub fn seconds(v: &str) -> Result<Duration, String> {
    match v.trim().parse::<f64>() {
        // A time under a nanosecond would be no time at all.
        Ok(s) if s.is_finite() && s > 0.0 && s < 1e7 => Some(Duration::from_secs_f64(s))
            .filter(|d| !d.is_zero())
            .ok_or_else(|| "must be a positive number of seconds".into()),
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

/// `--draw-adjudication MOVENUMBER,COUNT,SCORE`: a count of at least 1, a move number and a
/// score of at least 0, each held to its range (a count up to 10,000, a score up to 1,000,000).
pub fn draw_adjudication(v: &str) -> Result<DrawAdjudication, String> {
    match numbers::<i64>(v)?.as_slice() {
        [m, c, sc] if *m >= 0 && *c > 0 && *sc >= 0 => Ok(DrawAdjudication {
            move_number: (*m).min(u32::MAX as i64) as u32,
            move_count: (*c).min(10_000) as u32,
            score: (*sc).min(1_000_000) as i32,
        }),
        _ => Err("wants MOVENUMBER,COUNT,SCORE".into()),
    }
}

/// `--resign-adjudication COUNT,SCORE`: both at least 1, held to their ranges (a count up to
/// 10,000, a score up to 1,000,000).
pub fn resign_adjudication(v: &str) -> Result<ResignAdjudication, String> {
    match numbers::<i64>(v)?.as_slice() {
        [c, sc] if *c > 0 && *sc > 0 => Ok(ResignAdjudication {
            move_count: (*c).min(10_000) as u32,
            score: (*sc).min(1_000_000) as i32,
        }),
        _ => Err("wants COUNT,SCORE".into()),
    }
}

/// `--sprt ELO0,ELO1[,ALPHA,BETA]` (logistic Elo; alpha and beta 0.05 when left out).
pub fn sprt(v: &str) -> Result<Sprt, String> {
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
            c.openings = load_openings(path)?;
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
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
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
        c.pgn_format = self.pgn_notation;
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

/// `jiangjun match ...`: exit status 0, or 1 when the engines failed; an error is a usage
/// error (exit status 2).
pub fn match_main(args: MatchArgs) -> anyhow::Result<i32> {
    let opts = args.options()?;
    Ok(run_on_stdout("match", |out| {
        run_match(&opts, out).map(drop)
    }))
}

/// `jiangjun tournament ...`: exit status 0, or 1 when the engines failed; an error is a
/// usage error (exit status 2).
pub fn tournament_main(args: TournamentArgs) -> anyhow::Result<i32> {
    let opts = args.options()?;
    Ok(run_on_stdout("tournament", |out| {
        run_tournament(&opts, out).map(drop)
    }))
}

/// Runs a match or tournament that reports on stdout; a failure of the engines is said on
/// stderr with exit status 1.
fn run_on_stdout(
    name: &str,
    run: impl FnOnce(&mut dyn std::io::Write) -> anyhow::Result<()>,
) -> i32 {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match run(&mut out) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("jiangjun {name}: {e:#}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// Found with the `match_args` fuzz target's check: `1e-12` seconds is positive but under a
    /// nanosecond, and was accepted as a timeout of zero.
    #[test]
    fn a_timeout_under_a_nanosecond_is_refused() {
        for tiny in ["1e-12", "0.0000000001", "4e-10"] {
            assert!(seconds(tiny).is_err(), "{tiny}");
        }
        assert_eq!(seconds("1e-9"), Ok(Duration::from_nanos(1)));
        assert_eq!(seconds("2.5"), Ok(Duration::from_millis(2500)));
        assert!(seconds("0").is_err());
    }

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
