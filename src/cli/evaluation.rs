//! The evaluation flags of the tools that search (`datagen`, `analyse`):
//! `--evalfile F` (that network), `--nnue` (the built-in network) or `--handwritten`; without
//! one, the engine's default ([`crate::eval::nnue::DEFAULT_ON`]). Data generation names its
//! evaluation on purpose, so a run's labels do not change when the default does.

use crate::engine::Evaluation;
use crate::eval::nnue::{self, Network};
use anyhow::Context;
use std::sync::Arc;

/// The network of `--evalfile path`; the error names the flag, the file and the reason.
pub fn network_file(path: &str) -> anyhow::Result<Arc<Network>> {
    let net = crate::protocol::evalfile::load(path)
        .map_err(anyhow::Error::msg)
        .with_context(|| format!("--evalfile {path}"))?;
    Ok(Arc::new(net))
}

/// The built-in network of `--nnue`.
pub fn built_in() -> anyhow::Result<Arc<Network>> {
    nnue::built_in().context("--nnue: the built-in network")
}

/// `[--evalfile F | --nnue | --handwritten]`, flattened into a subcommand's arguments.
#[derive(clap::Args, Debug, Clone, Default)]
#[group(multiple = false)]
pub struct EvalArgs {
    /// Evaluate with this network file.
    #[arg(long, value_name = "F")]
    pub evalfile: Option<String>,
    /// Evaluate with the built-in network.
    #[arg(long)]
    pub nnue: bool,
    /// Evaluate with the hand-written evaluation.
    #[arg(long)]
    pub handwritten: bool,
}

impl EvalArgs {
    /// The evaluation asked for; a file that cannot be used is an error naming it.
    pub fn evaluation(&self) -> anyhow::Result<Evaluation> {
        if let Some(path) = &self.evalfile {
            return Ok(Evaluation::Network(network_file(path)?));
        }
        if self.nnue {
            return Ok(Evaluation::Network(built_in()?));
        }
        if self.handwritten {
            return Ok(Evaluation::HandWritten);
        }
        Ok(Evaluation::Default)
    }

    /// The evaluation in words, for the line a tool prints when it starts.
    pub fn describe(&self) -> String {
        let default = if nnue::DEFAULT_ON {
            "the built-in network (the default)"
        } else {
            "the hand-written evaluation (the default)"
        };
        match (&self.evalfile, self.nnue, self.handwritten) {
            (Some(path), _, _) => format!("network {path}"),
            (None, true, _) => "the built-in network".to_string(),
            (None, false, true) => "the hand-written evaluation".to_string(),
            (None, false, false) => default.to_string(),
        }
    }
}
