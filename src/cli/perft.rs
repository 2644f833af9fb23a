//! `jiangjun perft`: the leaf count of the legal-move tree, the move generator's check.

use crate::board::{perft, Position};
use anyhow::Context;
use std::io::Write;
use std::time::Instant;

/// The arguments of `jiangjun perft`; their doc comments are its `--help`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Plies to count (deeper than 12 would run for days).
    #[arg(value_name = "depth", value_parser = clap::value_parser!(u32).range(0..=12))]
    pub depth: u32,
    /// The root position (default: the start position).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// One line per root move with its own count.
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: PerftArgs) -> anyhow::Result<i32> {
    let mut pos = match &args.fen {
        Some(f) => Position::from_fen(f).with_context(|| format!("--fen '{f}'"))?,
        None => Position::startpos(),
    };
    let start = Instant::now();
    let out = std::io::stdout();
    let mut out = out.lock();
    let nodes = if args.divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, args.depth) {
            let _ = writeln!(out, "{m} {n}");
            total += n;
        }
        total
    } else {
        perft::perft(&mut pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    let _ = writeln!(
        out,
        "time {} ms, {} nps",
        (secs * 1000.0).round() as u64,
        nps
    );
    let _ = writeln!(out, "nodes {nodes}");
    Ok(0)
}
