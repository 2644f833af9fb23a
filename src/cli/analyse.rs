//! `jiangjun analyse`: the arguments, reading the game, the progress line and writing the
//! annotated PGN, the graph and the web page. The work is [`crate::tools::analyse`],
//! [`crate::tools::eval_graph`] and [`crate::tools::analysis_page`].

use super::evaluation::EvalArgs;
use crate::board::notation::Script;
use crate::cli::pgn::{self as records, Input};
use crate::engine::MAX_HASH_MB;
use crate::output;
use crate::records::pgn::{self, MoveFormat, WriteOptions};
use crate::rules::RuleSet;
use crate::tablebase::TableSet;
use crate::tools::analyse::{self, Settings, DEFAULT_MOVETIME_MS, DEFAULT_THRESHOLD_CP};
use crate::tools::analysis_page;
use crate::tools::budget::Budget;
use crate::tools::eval_graph;
use anyhow::{bail, Context};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The arguments of `jiangjun analyse`; their doc comments are its `--help`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    pub input: Input,
    /// Search each position this many milliseconds (default 1000).
    #[arg(long, value_name = "MS", conflicts_with = "depth",
          value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub movetime: Option<u64>,
    /// Search each position to this depth (with one thread: the same result every run).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(i32).range(1..=64))]
    pub depth: Option<i32>,
    /// Search threads.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: u64,
    /// Transposition table size in MB.
    #[arg(long, value_name = "MB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    pub hash: u64,
    /// Write the annotated PGN here (`-` or none: standard output).
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// Write the evaluation graph here as SVG.
    #[arg(long, value_name = "GRAPH")]
    pub svg: Option<PathBuf>,
    /// Write the analysis as one self-contained web page here: every position's board, the
    /// moves in Chinese notation and ICCS, scores, marks and better lines, the graph.
    #[arg(long, value_name = "PAGE")]
    pub html: Option<PathBuf>,
    /// Which game of the file (1 = the first).
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub game: u64,
    /// Notation of the written moves: iccs, chinese or wxf (default: the game's Format tag,
    /// else chinese).
    #[arg(long, value_name = "NOTATION", value_parser = |s: &str| s.parse::<MoveFormat>())]
    pub notation: Option<MoveFormat>,
    /// The repetition rules of the search and the referee: cxa2011 or axf.
    #[arg(long, value_name = "R", default_value = "cxa2011", value_parser = |s: &str| s.parse::<RuleSet>())]
    pub rules: RuleSet,
    /// Loss in centipawns from which a comment gives the better move and its line.
    #[arg(long, value_name = "CP", default_value_t = DEFAULT_THRESHOLD_CP,
          value_parser = clap::value_parser!(i32).range(1..=100_000))]
    pub threshold: i32,
    /// A folder of endgame tables (`jiangjun tb generate`): the moves that threw away the
    /// tables' result (a win into a draw or loss, a draw into a loss) are marked.
    #[arg(long, value_name = "DIR")]
    pub tbpath: Option<PathBuf>,
    /// The evaluation the searches use (default: the engine's).
    #[command(flatten)]
    pub eval: EvalArgs,
}

pub fn run(args: AnalyseArgs) -> anyhow::Result<i32> {
    let (read, count) = records::nth_game(&args.input, args.game as usize)?;
    let Some(read) = read else {
        bail!(
            "{}: no game {} (the file has {count})",
            args.input.path.display(),
            args.game
        );
    };
    let game = read
        .map_err(|e| anyhow::anyhow!("{}: game {}: {e}", args.input.path.display(), args.game))?;
    let budget = match (args.depth, args.movetime) {
        (Some(d), _) => Budget::Depth(d),
        (None, ms) => Budget::MoveTime(ms.unwrap_or(DEFAULT_MOVETIME_MS)),
    };
    let settings = Settings {
        budget,
        threads: args.threads as usize,
        hash_mb: args.hash as usize,
        rules: args.rules,
        threshold: args.threshold,
        evaluation: args.eval.evaluation()?,
    };
    let format = args.notation.unwrap_or_else(|| {
        match game.tag("Format").map(str::to_ascii_lowercase).as_deref() {
            Some("iccs") => MoveFormat::Iccs,
            Some("wxf") => MoveFormat::Wxf,
            _ => MoveFormat::Chinese,
        }
    });
    let opts = match format {
        MoveFormat::Chinese => WriteOptions {
            script: Script::Simplified,
            full_width_digits: true,
        },
        _ => WriteOptions::default(),
    };
    let tables = match &args.tbpath {
        Some(dir) => {
            let mut set = TableSet::new();
            let problems = set.load_dir(dir)?;
            for p in problems {
                eprintln!("jiangjun analyse: {p}");
            }
            Some(set)
        }
        None => None,
    };
    let mut progress = Progress::new();
    let mut analysis = analyse::analyse(&game, &settings, |k, n| progress.show(k, n))
        .context("cannot analyse the game")?;
    if let Some(tables) = &tables {
        analysis.notes.extend(analyse::table_notes(&game, tables));
        analysis.notes.sort_by_key(|(ply, _)| *ply);
    }
    let annotated = analyse::annotate(&game, &analysis, format, opts, settings.threshold);
    let text = pgn::write_pgn_with(&annotated, format, opts);
    // Each file whole or not at all: a failed run leaves no half graph or page.
    let write = |path: &Path, text: String| {
        output::write_whole(path, text.as_bytes())
            .with_context(|| format!("cannot write {}", path.display()))
    };
    if let Some(svg) = &args.svg {
        write(svg, eval_graph::eval_graph_svg(&game, &analysis))?;
    }
    if let Some(html) = &args.html {
        write(html, analysis_page::analysis_page(&game, &analysis))?;
    }
    records::write_output(args.output.as_deref(), &text)?;
    Ok(0)
}

/// The progress line on stderr: redrawn in place (`\r`) on a terminal, else a line every
/// [`Progress::EVERY`] positions and at the end, so logs stay short.
struct Progress {
    start: Instant,
    terminal: bool,
}

impl Progress {
    const EVERY: usize = 10;

    fn new() -> Progress {
        Progress {
            start: Instant::now(),
            terminal: std::io::stderr().is_terminal(),
        }
    }

    /// After the `k`-th of `n` searches.
    fn show(&mut self, k: usize, n: usize) {
        let last = k == n;
        if !self.terminal && !last && !k.is_multiple_of(Self::EVERY) {
            return;
        }
        let elapsed = self.start.elapsed();
        let eta = elapsed.mul_f64((n - k) as f64 / k.max(1) as f64);
        let line = format!(
            "analyse: position {k} of {n}, {} elapsed, ETA {}",
            clock(elapsed),
            clock(eta)
        );
        let mut err = std::io::stderr().lock();
        let _ = if self.terminal {
            write!(err, "\r{line}\x1b[K{}", if last { "\n" } else { "" })
        } else {
            writeln!(err, "{line}")
        };
        let _ = err.flush();
    }
}

/// `m:ss` (or `h:mm:ss`).
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_format() {
        assert_eq!(clock(Duration::from_secs(7)), "0:07");
        assert_eq!(clock(Duration::from_secs(125)), "2:05");
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
    }
}
