//! `jiangjun datagen`: training data for the neural evaluation, from self-play or (with
//! `--from-games`) from recorded games. Every argument is checked before any game is played
//! or the output is created.

use super::evaluation::EvalArgs;
use super::value::{number, number_in};
use crate::board::{Move, Position};
use crate::output::AtomicFile;
use crate::rules::Termination;
use crate::tools::budget::Budget;
use crate::tools::datagen::{self, games, Config, RecordWriter, Shard, DEFAULT_NODES};
use anyhow::Context;
use std::time::Instant;

/// The arguments of `jiangjun datagen`; their doc comments are its `--help`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// The records file written (binary, see docs/training.md).
    #[arg(long, value_name = "F")]
    pub out: String,
    /// Games in the whole run (all shards together).
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = number_in(1..=u32::MAX))]
    pub games: u32,
    /// Nodes per move (default 2500).
    #[arg(long, value_name = "N", conflicts_with = "depth", value_parser = number_in(1u64..=1 << 40))]
    pub nodes: Option<u64>,
    /// Depth per move instead of a node budget.
    #[arg(long, value_name = "N", value_parser = number_in(1i32..=30))]
    pub depth: Option<i32>,
    /// Seed of the run; shards of one seed concatenate to the whole run.
    #[arg(long, value_name = "S", value_parser = number::<u64>)]
    pub seed: Option<u64>,
    /// Random legal moves after the opening line.
    #[arg(long, value_name = "K", value_parser = number_in(0usize..=200))]
    pub random_plies: Option<usize>,
    /// Opening lines as `jiangjun book lines` writes them.
    #[arg(long, value_name = "F")]
    pub openings: Option<String>,
    /// This machine's part of the run: I/N with 0 <= I < N.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// Games played at once (default: the cores).
    #[arg(long, value_name = "T", value_parser = number_in(1usize..=256))]
    pub threads: Option<usize>,
    /// A game this long is drawn.
    #[arg(long, value_name = "N", value_parser = number_in(1usize..=10_000))]
    pub max_plies: Option<usize>,
    /// Positions scored beyond ± this (centipawns) are not kept.
    #[arg(long, value_name = "CP",
          value_parser = number_in(0i32..=crate::search::score::DECISIVE_BOUND))]
    pub score_limit: Option<i32>,
    /// Label the positions of recorded games (PGN/XQF files, or folders searched
    /// recursively) instead of playing games.
    #[arg(long, value_name = "PATH", num_args = 1..,
          conflicts_with_all = ["games", "random_plies", "openings", "max_plies"])]
    pub from_games: Vec<std::path::PathBuf>,
    /// With --from-games: plies of each game not labelled (default 6).
    #[arg(long, value_name = "K", requires = "from_games", value_parser = number_in(0usize..=1000))]
    pub skip_plies: Option<usize>,
    /// The evaluation that labels the data (default: the engine's).
    #[command(flatten)]
    pub eval: EvalArgs,
}

pub fn run(args: DatagenArgs) -> anyhow::Result<i32> {
    if !args.from_games.is_empty() {
        return from_games(args);
    }
    let d = Config::default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cfg = Config {
        games: args.games,
        budget: budget(&args, DEFAULT_NODES),
        seed: args.seed.unwrap_or(d.seed),
        random_plies: args.random_plies.unwrap_or(d.random_plies),
        shard: args.shard.unwrap_or(Shard::ALL),
        threads: args.threads.unwrap_or(cores),
        max_plies: args.max_plies.unwrap_or(d.max_plies),
        score_limit: args.score_limit.unwrap_or(d.score_limit),
        openings: match &args.openings {
            Some(p) => read_opening_lines(p)?,
            None => Vec::new(),
        },
        evaluation: args.eval.evaluation()?,
        ..d
    };
    let out = &args.out;
    let mut writer = RecordWriter::new(create_whole(out)?);
    let total = cfg.shard.games(cfg.games).count();
    eprintln!(
        "datagen: {total} games (shard {}/{} of {}), {} per move, seed {}, {} threads, {}",
        cfg.shard.index,
        cfg.shard.count,
        cfg.games,
        cfg.budget,
        cfg.seed,
        cfg.threads,
        args.eval.describe()
    );
    let mut line = ProgressLine::new();
    let stats = datagen::generate(&cfg, &mut writer, |p| line.update(p))
        .with_context(|| format!("writing {out}"))?;
    commit_whole(writer, out)?;
    line.finish();
    let endings: Vec<String> = Termination::ALL
        .iter()
        .zip(stats.endings)
        .filter(|(_, n)| *n > 0)
        .map(|(e, n)| format!("; {} {n}", e.name()))
        .collect();
    println!(
        "wrote {out}: {} games (red wins {}, draws {}, black wins {}{}), {} positions kept of {} searched (skipped: {} in check, {} best move a capture, {} decisive or beyond {} cp)",
        stats.games,
        stats.red_wins,
        stats.draws,
        stats.black_wins,
        endings.concat(),
        stats.kept,
        stats.searched,
        stats.skipped_in_check,
        stats.skipped_capture,
        stats.skipped_score,
        cfg.score_limit
    );
    Ok(0)
}

/// The budget per move: `--depth`, else `--nodes` (default `nodes`).
fn budget(args: &DatagenArgs, nodes: u64) -> Budget {
    match args.depth {
        Some(depth) => Budget::Depth(depth),
        None => Budget::Nodes(args.nodes.unwrap_or(nodes)),
    }
}

/// `--from-games`: labels the positions of recorded games.
fn from_games(args: DatagenArgs) -> anyhow::Result<i32> {
    let d = games::Config::default();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cfg = games::Config {
        paths: args.from_games.clone(),
        budget: budget(&args, 1000),
        seed: args.seed.unwrap_or(d.seed),
        skip_plies: args.skip_plies.unwrap_or(d.skip_plies),
        shard: args.shard.unwrap_or(Shard::ALL),
        threads: args.threads.unwrap_or(cores),
        score_limit: args.score_limit.unwrap_or(d.score_limit),
        rules: d.rules,
        evaluation: args.eval.evaluation()?,
    };
    let out = &args.out;
    let mut writer = RecordWriter::new(create_whole(out)?);
    eprintln!(
        "datagen: labelling the games of the --from-games paths as they are read (shard {}/{}), {} per move from ply {}, seed {}, {} threads, {}",
        cfg.shard.index, cfg.shard.count, cfg.budget, cfg.skip_plies, cfg.seed,
        cfg.threads, args.eval.describe()
    );
    let mut line = ProgressLine::new();
    let (read, stats) = games::label_games(&cfg, &mut writer, |p| line.update(p))
        .with_context(|| format!("writing {out}"))?;
    line.finish();
    for bad in &read.unreadable_files {
        eprintln!("datagen: cannot read {bad}");
    }
    // Dropped uncommitted, the output is left as it was.
    anyhow::ensure!(read.games > 0, "no game read from the --from-games paths");
    commit_whole(writer, out)?;
    println!(
        "wrote {out}: {} games labelled (red wins {}, draws {}, black wins {}) of {} read from {} files ({} unreadable games, {} without a result, {} unreadable files), {} positions kept of {} searched (skipped: {} in check, {} best move a capture, {} decisive or beyond {} cp)",
        stats.games, stats.red_wins, stats.draws, stats.black_wins, read.games, read.files,
        read.unreadable_games, read.no_result, read.unreadable_files.len(), stats.kept,
        stats.searched, stats.skipped_in_check, stats.skipped_capture, stats.skipped_score,
        cfg.score_limit
    );
    Ok(0)
}

/// Opening lines as `jiangjun book lines` writes them (one line of ICCS moves per line, `#`
/// comments), each checked for legality from the start position.
fn read_opening_lines(path: &str) -> anyhow::Result<Vec<Vec<Move>>> {
    let text = crate::input::read_text(path.as_ref(), crate::input::MAX_TEXT_BYTES)
        .with_context(|| format!("cannot read {path}"))?;
    let mut lines = Vec::new();
    for (n, l) in text.lines().enumerate() {
        if l.trim_start().starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let mut pos = Position::startpos();
        let line = l
            .split_whitespace()
            .map(|m| pos.play(m))
            .collect::<Result<Vec<_>, _>>()
            .with_context(|| format!("{path} line {}", n + 1))?;
        lines.push(line);
    }
    anyhow::ensure!(!lines.is_empty(), "{path} holds no opening lines");
    Ok(lines)
}

/// The live progress line of long runs: rewritten in place on a terminal (at most twice a
/// second), one line every 30 s in a log file.
struct ProgressLine {
    terminal: bool,
    last: Option<Instant>,
    text: String,
}

impl ProgressLine {
    fn new() -> ProgressLine {
        use std::io::IsTerminal;
        ProgressLine {
            terminal: std::io::stderr().is_terminal(),
            last: None,
            text: String::new(),
        }
    }

    fn update(&mut self, p: &datagen::Progress) {
        let every = if self.terminal { 0.5 } else { 30.0 };
        let due = self.last.is_none_or(|t| t.elapsed().as_secs_f64() >= every);
        if !due && p.games_total.is_none_or(|t| p.games_done < t) {
            return;
        }
        self.last = Some(Instant::now());
        let secs = p.elapsed.as_secs_f64().max(1e-3);
        let rate = format!(
            "{} positions, {:.0} positions/s",
            p.kept,
            p.kept as f64 / secs
        );
        self.text = match p.games_total {
            Some(total) => {
                let left = total.saturating_sub(p.games_done) as f64;
                let eta = (secs / p.games_done.max(1) as f64 * left).round() as u64;
                format!(
                    "datagen: {}/{total} games, {rate}, ETA {}h{:02}m{:02}s",
                    p.games_done,
                    eta / 3600,
                    eta / 60 % 60,
                    eta % 60
                )
            }
            // Games labelled as they are read: how many are left is not known, so no ETA;
            // the pace of the reading says how long a file of known size will take.
            None => format!(
                "datagen: {} games, {:.1} games/s, {rate}",
                p.games_done,
                p.games_done as f64 / secs
            ),
        };
        if self.terminal {
            eprint!("\r{}\x1b[K", self.text);
        } else {
            eprintln!("{}", self.text);
        }
    }

    fn finish(&self) {
        if self.terminal && !self.text.is_empty() {
            eprintln!();
        }
    }
}

/// The output file, written under a temporary name beside it ([`AtomicFile`]): a run that
/// fails or is stopped leaves no half file under the name, and an earlier file of that name
/// stays until the new one is complete.
fn create_whole(out: &str) -> anyhow::Result<AtomicFile> {
    AtomicFile::create(std::path::Path::new(out)).with_context(|| format!("cannot create {out}"))
}

/// Ends the records and gives the file its name.
fn commit_whole(writer: RecordWriter<AtomicFile>, out: &str) -> anyhow::Result<()> {
    let file = writer.finish().with_context(|| format!("writing {out}"))?;
    file.commit().with_context(|| format!("writing {out}"))
}
