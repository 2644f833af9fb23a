//! `jiangjun bench`: the fixed search whose node count signs every commit (`Bench: N`).

use super::evaluation;
use crate::engine::{Evaluation, MAX_HASH_MB};
use crate::eval::nnue::FloatNetwork;
use std::sync::Arc;

/// The arguments of `jiangjun bench`; their doc comments are its `--help`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth of each position; the default is the depth of the `Bench:` signatures.
    #[arg(
        value_name = "depth",
        default_value_t = crate::tools::bench::DEFAULT_DEPTH,
        value_parser = clap::value_parser!(i32).range(1..=30)
    )]
    pub depth: i32,
    /// Also bench with this network and print the nodes-per-second ratio.
    #[arg(long, value_name = "F", conflicts_with_all = ["nnue", "random_network", "handwritten"])]
    pub evalfile: Option<String>,
    /// Also bench with the built-in network and print the nodes-per-second ratio.
    #[arg(long, conflicts_with_all = ["random_network", "handwritten"])]
    pub nnue: bool,
    /// Also bench with a random network of this seed (the network's speed, not its play).
    #[arg(long, value_name = "SEED", conflicts_with = "handwritten")]
    pub random_network: Option<u64>,
    /// Table size in MB for each position (the signature's is the default).
    #[arg(
        long,
        value_name = "MB",
        default_value_t = crate::tools::bench::DEFAULT_HASH_MB as u64,
        value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64)
    )]
    pub hash: u64,
    /// Bench the hand-written evaluation only (the signature of the hand-written search
    /// whatever the default evaluation is).
    #[arg(long)]
    pub handwritten: bool,
}

pub fn run(args: BenchArgs) -> anyhow::Result<i32> {
    let net = if let Some(path) = &args.evalfile {
        Some(evaluation::network_file(path)?)
    } else if let Some(seed) = args.random_network {
        Some(Arc::new(FloatNetwork::random(seed).quantize()))
    } else if args.nnue {
        Some(evaluation::built_in()?)
    } else {
        None
    };
    let depth = args.depth;
    let hash = args.hash as usize; // at most MAX_HASH_MB
    let out = |line: &str| println!("{line}");
    match net {
        Some(net) => {
            crate::tools::bench::compare(depth, hash, net, out);
        }
        None => {
            let evaluation = if args.handwritten {
                Evaluation::HandWritten
            } else {
                Evaluation::Default
            };
            crate::tools::bench::run(depth, hash, &evaluation, out);
        }
    }
    Ok(0)
}
