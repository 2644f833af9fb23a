//! `jiangjun book build|probe|lines|coverage`: the opening book, built from master games
//! (`--games`) or grown by the engine's own analysis, and read back.

use super::value::{number, number_in};
use crate::board::Position;
use crate::book::{self, Book};
use crate::records;
use crate::tools::book_builder as builder;
use crate::tools::book_from_games as masters;
use anyhow::Context;
use std::path::PathBuf;
use std::time::Instant;

/// The arguments of `jiangjun book`: one of its subcommands.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Build the book from master games (--games), or grow it by the engine's own analysis.
    #[command(verbatim_doc_comment)]
    Build(BuildArgs),
    /// List the book moves of a position (our format or BOOK.DAT).
    #[command(verbatim_doc_comment)]
    Probe(ProbeArgs),
    /// Every book line from the start: an opening suite for `jiangjun match --openings`.
    #[command(verbatim_doc_comment)]
    Lines(LinesArgs),
    /// The share of held-out games' first plies whose position has a book move.
    #[command(verbatim_doc_comment)]
    Coverage(CoverageArgs),
}

/// Out-of-range numbers are clamped, as the builder has always done.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The book file written (default: book/masters.jjb with --games, else book/analysis.jjb).
    #[arg(long, value_name = "F")]
    pub out: Option<String>,
    /// The seed lines the analysis starts from.
    #[arg(long, value_name = "F", default_value = "book/seeds.txt")]
    pub seeds: String,
    /// Search depth per position (1 to 30).
    #[arg(long, value_name = "N", value_parser = number::<i32>)]
    pub depth: Option<i32>,
    /// Plies of the main line from the root (1 to 60).
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    pub plies: Option<usize>,
    /// Stop after analysing this many positions.
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    pub positions: Option<usize>,
    /// Moves within this many centipawns of the best are kept (0 to 1000).
    #[arg(long, value_name = "CP", value_parser = number::<i32>)]
    pub margin: Option<i32>,
    /// Budget a side line (not the best move, not a seed move) costs (1 to 60).
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    pub side_cost: Option<usize>,
    /// Build from these games instead (PGN or XQF files, or folders read recursively).
    #[arg(long, value_name = "PATH", num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// With --games: a move must have been played in this many games (1 to 1000000).
    #[arg(long, value_name = "N", value_parser = number_in(1u32..=1_000_000))]
    pub min_games: Option<u32>,
    /// With --games: every K-th game is held out of the book (0: none).
    #[arg(long, value_name = "K", default_value_t = 20, value_parser = number_in(0usize..=1_000_000))]
    pub holdout: usize,
    /// With --games: worker threads of the engine check (default: all cores).
    #[arg(long, value_name = "T", value_parser = number_in(1usize..=256))]
    pub threads: Option<usize>,
    /// With --games: add this book's entries for positions the masters' book lacks.
    #[arg(long, value_name = "F")]
    pub merge: Option<String>,
}

#[derive(clap::Args, Debug)]
pub struct CoverageArgs {
    /// The book measured (our format or BOOK.DAT; default: the engine's own).
    #[arg(long, value_name = "F")]
    pub book: Option<String>,
    /// The games (PGN or XQF files, or folders read recursively), as given to `book build`.
    #[arg(long, value_name = "PATH", num_args = 1.., required = true)]
    pub games: Vec<PathBuf>,
    /// Measure on every K-th game (the ones `book build --holdout K` left out; 1: all).
    #[arg(long, value_name = "K", default_value_t = 20, value_parser = number_in(1usize..=1_000_000))]
    pub holdout: usize,
    /// The first plies of each game measured.
    #[arg(long, value_name = "N", default_value_t = 10, value_parser = number_in(1usize..=200))]
    pub plies: usize,
}

#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// The book (default: the one the engine finds).
    #[arg(long, value_name = "F")]
    pub book: Option<String>,
    /// The position (default: the start position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// Moves played from it, in ICCS coordinates.
    #[arg(long, value_name = "MOVES", default_value = "")]
    pub moves: String,
}

#[derive(clap::Args, Debug)]
pub struct LinesArgs {
    /// The book (default: the one the engine finds).
    #[arg(long, value_name = "F")]
    pub book: Option<String>,
    /// Longest line.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = number_in(0usize..=200))]
    pub plies: usize,
    /// Shortest line (a leaf of the book ends a line from here on).
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = number_in(0usize..=200))]
    pub min_plies: usize,
}

pub fn run(args: BookArgs) -> anyhow::Result<i32> {
    match args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Probe(a) => probe(a),
        BookCommand::Lines(a) => lines(a),
        BookCommand::Coverage(a) => coverage(a),
    }
}

/// The book at `path`, or the one the engine would find by default.
fn load_book(path: Option<&str>) -> anyhow::Result<Book> {
    match path {
        Some(p) => Book::load(std::path::Path::new(p)).with_context(|| format!("book {p}")),
        None => book::load_default()
            .map_err(anyhow::Error::msg)?
            .context("no book (JIANGJUN_BOOK is none; try --book)"),
    }
}

/// Reads the games under `paths`, reporting every refusal and the summary on stderr.
fn read_collection(paths: &[PathBuf]) -> anyhow::Result<masters::Reading> {
    let (files, bad) = records::game_files(paths);
    if let Some(first) = bad.first() {
        anyhow::bail!("{first}");
    }
    eprintln!("reading {} files", files.len());
    let reading = masters::read_collection(&files);
    for r in &reading.refused {
        eprintln!("refused: {r}");
    }
    eprintln!("{}", reading.summary());
    Ok(reading)
}

/// `book build --games`: the masters' book (see [`masters`]).
fn build_from_games(a: BuildArgs) -> anyhow::Result<i32> {
    if a.positions.is_some() || a.side_cost.is_some() {
        anyhow::bail!(
            "--positions and --side-cost belong to the self-analysis builder, not --games"
        );
    }
    let d = masters::Config::default();
    let cfg = masters::Config {
        plies: a.plies.unwrap_or(d.plies).clamp(1, 200),
        min_games: a.min_games.unwrap_or(d.min_games),
        depth: a.depth.unwrap_or(d.depth).clamp(1, 30),
        margin: a.margin.unwrap_or(d.margin).clamp(0, 1000),
        ..d
    };
    let base = match &a.merge {
        Some(f) => {
            let b = Book::load(std::path::Path::new(f)).with_context(|| format!("--merge {f}"))?;
            let e = b
                .entries()
                .with_context(|| format!("--merge {f}: only our own format can be merged"))?
                .to_vec();
            Some(e)
        }
        None => None,
    };
    let start = Instant::now();
    let out = a.out.unwrap_or_else(|| "book/masters.jjb".to_string());
    let reading = read_collection(&a.games)?;
    // A book of nothing would replace the file there: refused, the file left as it was.
    anyhow::ensure!(
        !reading.games.is_empty(),
        "no game read from the --games paths; {out} not written"
    );
    let (kept, held) = masters::split(reading.games, a.holdout);
    anyhow::ensure!(
        !kept.is_empty(),
        "every game is held out (--holdout {}); {out} not written",
        a.holdout
    );
    let stats = masters::collect(&kept, cfg.plies);
    let cands = masters::candidates(&stats, cfg.min_games);
    eprintln!(
        "{} games for the book, {} held out; {} positions in the first {} plies, {} with a move of {}+ games; checking at depth {} with margin {}",
        kept.len(),
        held.len(),
        stats.len(),
        cfg.plies,
        cands.len(),
        cfg.min_games,
        cfg.depth,
        cfg.margin
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.threads.unwrap_or(0))
        .build()
        .context("cannot start the worker threads")?;
    let (entries, summary) =
        pool.install(|| masters::check(&cands, &cfg, |line| eprintln!("{line}")));
    eprintln!(
        "engine check: {} positions, {} moves kept, {} master moves dropped, {} engine moves added",
        summary.positions, summary.entries, summary.dropped, summary.engine_moves
    );
    for r in &summary.refuted {
        eprintln!("refuted: {r}");
    }
    let masters_positions = summary.positions;
    let entries = match &base {
        Some(base) => masters::merge(entries, base),
        None => entries,
    };
    let b = Book::from_entries(entries);
    b.save(std::path::Path::new(&out))
        .with_context(|| format!("cannot write {out}"))?;
    println!(
        "wrote {out}: {} positions ({masters_positions} from the games), {} moves, {:.0} s",
        b.positions(),
        b.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}

fn coverage(a: CoverageArgs) -> anyhow::Result<i32> {
    let b = load_book(a.book.as_deref())?;
    let reading = read_collection(&a.games)?;
    let held = if a.holdout <= 1 {
        reading.games
    } else {
        masters::split(reading.games, a.holdout).1
    };
    let c = masters::coverage(&b, &held, a.plies);
    println!(
        "book {}: {} of {} positions ({:.1}%) in the first {} plies of {} games have a book move; in book for {:.2} plies on average",
        b.path.display(),
        c.covered,
        c.positions,
        100.0 * c.covered as f64 / c.positions.max(1) as f64,
        a.plies,
        held.len(),
        c.mean_run
    );
    Ok(0)
}

fn build(a: BuildArgs) -> anyhow::Result<i32> {
    if !a.games.is_empty() {
        return build_from_games(a);
    }
    if a.min_games.is_some() || a.threads.is_some() || a.merge.is_some() {
        anyhow::bail!("--min-games, --threads and --merge need --games");
    }
    let d = builder::Config::default();
    let seed_text = crate::input::read_text(a.seeds.as_ref(), crate::input::MAX_TEXT_BYTES)
        .with_context(|| format!("cannot read seeds {}", a.seeds))?;
    let cfg = builder::Config {
        depth: a.depth.unwrap_or(d.depth).clamp(1, 30),
        plies: a.plies.unwrap_or(d.plies).clamp(1, 60),
        max_positions: a.positions.unwrap_or(d.max_positions),
        margin: a.margin.unwrap_or(d.margin).clamp(0, 1000),
        side_cost: a.side_cost.unwrap_or(d.side_cost).clamp(1, 60),
        seeds: builder::parse_seeds(&seed_text),
        ..d
    };
    let out = a.out.unwrap_or_else(|| "book/analysis.jjb".to_string());
    eprintln!("building {out} with {cfg:?}");
    let start = Instant::now();
    let entries = builder::build(&cfg, |line| eprintln!("{line}")).map_err(anyhow::Error::msg)?;
    let b = Book::from_entries(entries);
    b.save(std::path::Path::new(&out))
        .with_context(|| format!("cannot write {out}"))?;
    println!(
        "wrote {out}: {} positions, {} moves, {:.0} s",
        b.positions(),
        b.len(),
        start.elapsed().as_secs_f64()
    );
    Ok(0)
}

fn probe(a: ProbeArgs) -> anyhow::Result<i32> {
    let b = load_book(a.book.as_deref())?;
    let mut pos = match &a.fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("--fen '{f}'"))?,
        None => Position::startpos(),
    };
    for m in a.moves.split_whitespace() {
        pos.play(m).with_context(|| format!("--moves: {m}"))?;
    }
    println!(
        "book {} ({} positions, {} moves)",
        b.path.display(),
        b.positions(),
        b.len()
    );
    for bm in b.probe(&pos) {
        println!("{} weight {} score {}", bm.mv, bm.weight, bm.score);
    }
    Ok(0)
}

fn lines(a: LinesArgs) -> anyhow::Result<i32> {
    let (plies, min) = (a.plies, a.min_plies.min(a.plies));
    let b = load_book(a.book.as_deref())?;
    let lines = b.lines(&mut Position::startpos(), plies, min);
    println!(
        "# {} lines of {min} to {plies} plies from {} ({} positions), by `jiangjun book lines`",
        lines.len(),
        b.path.display(),
        b.positions()
    );
    for (i, line) in lines.iter().enumerate() {
        let text: Vec<String> = line.iter().map(|m| m.to_string()).collect();
        println!("# book line {}\n{}", i + 1, text.join(" "));
    }
    Ok(0)
}
