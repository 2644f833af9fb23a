//! `jiangjun judge`: the repetition referee on a game given on the command line.

use crate::rules::{judge_with, Count, RefereeOptions, RuleSet};

/// The arguments of `jiangjun judge`; their doc comments are its `--help`.
#[derive(clap::Args, Debug)]
pub struct JudgeArgs {
    /// The start position (default, or `startpos`: the standard one).
    #[arg(long, value_name = "FEN")]
    pub fen: Option<String>,
    /// The game's moves in ICCS coordinates, separated by spaces. Required: without moves
    /// there is nothing to rule on, and a forgotten `--moves` must not read as a clean game
    /// (`--moves ""` asks about the position alone).
    #[arg(long, value_name = "MOVES")]
    pub moves: String,
    /// The rule book: cxa2011 (the 2011 Chinese rules) or axf (the Asian Xiangqi Federation's).
    #[arg(long, value_name = "R", default_value = "cxa2011", value_parser = |s: &str| s.parse::<RuleSet>())]
    pub rules: RuleSet,
    /// Rule when the cycle has been played three times (the fourth occurrence, 23.1, 23.4),
    /// not at the third occurrence.
    #[arg(long)]
    pub strict: bool,
    /// 23.4's nine rounds: rule on a side cycling over three or more points for nine rounds.
    #[arg(long)]
    pub nine_rounds: bool,
    /// The ruling as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: JudgeArgs) -> anyhow::Result<i32> {
    let moves: Vec<&str> = args.moves.split_whitespace().collect();
    let opts = RefereeOptions {
        count: if args.strict {
            Count::Strict
        } else {
            Count::Third
        },
        nine_rounds: args.nine_rounds,
        ..RefereeOptions::default()
    };
    let fen = args
        .fen
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty() && *f != "startpos");
    let j = judge_with(fen, &moves, args.rules, opts).map_err(|e| anyhow::anyhow!("{e}"))?;
    if args.json {
        println!("{}", j.to_json());
    } else {
        print!("{}", j.to_text());
    }
    Ok(0)
}
