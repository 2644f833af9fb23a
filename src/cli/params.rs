//! `jiangjun params`: the search parameters a tuning run may set, one a line, for
//! `scripts/spsa.py` and for people (the hidden engine options `tune_<name>`); with
//! `--levels`, the strength levels instead, for `scripts/strength_levels.py`.

use crate::checksum::fnv1a64;
use crate::eval::nnue::embedded;
use crate::search::parameters::Parameters;
use crate::search::strength::{LEVELS, MEASURED_WITH};
use std::io::Write;

/// The arguments of `jiangjun params`; their doc comments are its `--help`.
#[derive(clap::Args, Debug)]
pub struct ParamsArgs {
    /// List the strength levels (`UCI_Elo`) instead: Elo, nodes per move, temperature (cp).
    #[arg(long)]
    pub levels: bool,
}

pub fn run(args: ParamsArgs) -> anyhow::Result<i32> {
    let out = std::io::stdout();
    let mut out = out.lock();
    if args.levels {
        // The record the levels were measured with, and this build's network, for
        // scripts/strength_levels.py (which sets the record after a measurement).
        writeln!(
            out,
            "# measured with bench {} network {:016x}",
            MEASURED_WITH.bench, MEASURED_WITH.network_fnv1a64
        )?;
        writeln!(
            out,
            "# this build's network {:016x}",
            fnv1a64(embedded::bytes())
        )?;
        writeln!(out, "# elo nodes temperature_cp")?;
        for l in LEVELS {
            writeln!(out, "{} {} {}", l.elo, l.nodes, l.temperature_cp)?;
        }
        return Ok(0);
    }
    writeln!(out, "# name default min max step")?;
    for s in Parameters::SPECS {
        writeln!(
            out,
            "{} {} {} {} {}",
            s.name, s.default, s.min, s.max, s.step
        )?;
    }
    Ok(0)
}
