//! `jiangjun book build|probe|lines`: the opening book grown by the engine, read back.

use super::value::{number, number_in};
use crate::board::Position;
use crate::book::{self, Book};
use crate::tools::book_builder as builder;
use anyhow::Context;
use std::time::Instant;

/// `jiangjun book <build|probe|lines> ...`.
#[derive(clap::Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum BookCommand {
    /// Grow the opening book by the engine's own analysis.
    Build(BuildArgs),
    /// List the book moves of a position (our format or BOOK.DAT).
    Probe(ProbeArgs),
    /// Every book line from the start: an opening suite for `jiangjun match --openings`.
    Lines(LinesArgs),
}

/// Out-of-range numbers are clamped, as the builder has always done.
#[derive(clap::Args, Debug)]
pub struct BuildArgs {
    /// The book file written.
    #[arg(long, value_name = "F", default_value = "book/jiangjun.jjb")]
    pub out: String,
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
    }
}

/// The book at `path`, or the one the engine would find by default.
fn load_book(path: Option<&str>) -> anyhow::Result<Book> {
    match path {
        Some(p) => Book::load(std::path::Path::new(p)).with_context(|| format!("book {p}")),
        None => book::load_default().context("no book found (try --book)"),
    }
}

fn build(a: BuildArgs) -> anyhow::Result<i32> {
    let d = builder::Config::default();
    let seed_text = std::fs::read_to_string(&a.seeds)
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
    let out = a.out;
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
