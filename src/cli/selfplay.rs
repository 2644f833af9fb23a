//! `jiangjun selfplay`: self-play positions with the game's result, the tuner's data.

use super::evaluation::EvalArgs;
use super::value::number;
use crate::tools::selfplay;
use anyhow::Context;
use std::time::Instant;

/// `jiangjun selfplay --out F [--games N] [--nodes N] [--seed S] [--openings F]`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The positions file written (`FEN | result` per line).
    #[arg(long, value_name = "F")]
    pub out: String,
    /// Games played.
    #[arg(long, value_name = "N", default_value_t = 100, value_parser = number::<usize>)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, value_name = "N", default_value_t = 5000, value_parser = number::<u64>)]
    pub nodes: u64,
    /// Seed of the random opening plies and the opening choice.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = number::<u64>)]
    pub seed: u64,
    /// Opening lines (ICCS moves per line, `#` comments) to start from.
    #[arg(long, value_name = "F")]
    pub openings: Option<String>,
    /// The evaluation both sides search with (default: the engine's).
    #[command(flatten)]
    pub eval: EvalArgs,
}

pub fn run(args: SelfplayArgs) -> anyhow::Result<i32> {
    let openings = match &args.openings {
        Some(p) => crate::input::read_text(p.as_ref(), crate::input::MAX_TEXT_BYTES)
            .with_context(|| format!("cannot read {p}"))?
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .filter(|v| !v.is_empty())
            .collect(),
        None => Vec::new(),
    };
    let cfg = selfplay::Config {
        games: args.games,
        nodes: args.nodes,
        random_plies: 4,
        seed: args.seed,
        openings,
        max_plies: 300,
        evaluation: args.eval.evaluation()?,
    };
    let start = Instant::now();
    let games = selfplay::run(&cfg, |done, total| {
        if done % 10 == 0 || done == total {
            eprintln!(
                "{done}/{total} games, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    });
    let mut text = String::new();
    let (mut positions, mut red, mut draws) = (0, 0, 0);
    for g in &games {
        for f in &g.positions {
            text.push_str(&format!("{f} | {:.1}\n", g.result));
            positions += 1;
        }
        if g.result > 0.75 {
            red += 1;
        } else if g.result > 0.25 {
            draws += 1;
        }
    }
    let out = &args.out;
    std::fs::write(out, text).with_context(|| format!("cannot write {out}"))?;
    println!(
        "wrote {out}: {} games (red wins {red}, draws {draws}), {positions} positions",
        games.len()
    );
    Ok(0)
}
