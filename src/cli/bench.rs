//! `jiangjun bench`: the fixed search whose node count signs every commit (`Bench: N`).

use crate::search::nnue::FloatNetwork;
use anyhow::Context;
use std::sync::Arc;

/// `jiangjun bench [depth] [--evalfile F | --random-network SEED]`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth of each position.
    #[arg(value_name = "depth", value_parser = clap::value_parser!(i32).range(1..=30))]
    pub depth: Option<i32>,
    /// Also bench with this network and print the nodes-per-second ratio.
    #[arg(long, value_name = "F", conflicts_with = "random_network")]
    pub evalfile: Option<String>,
    /// Also bench with a random network of this seed (the network's speed, not its play).
    #[arg(long, value_name = "SEED")]
    pub random_network: Option<u64>,
}

pub fn run(args: BenchArgs) -> anyhow::Result<i32> {
    let net = match (&args.evalfile, args.random_network) {
        (Some(path), _) => Some(
            crate::protocol::evalfile::load(path)
                .map_err(anyhow::Error::msg)
                .with_context(|| format!("--evalfile {path}"))?,
        ),
        (None, Some(seed)) => Some(FloatNetwork::random(seed).quantize()),
        (None, None) => None,
    };
    let depth = args.depth.unwrap_or(crate::tools::bench::DEFAULT_DEPTH);
    let out = |line: &str| println!("{line}");
    match net {
        Some(net) => {
            crate::tools::bench::compare(depth, Arc::new(net), out);
        }
        None => {
            crate::tools::bench::run(depth, None, out);
        }
    }
    Ok(0)
}
