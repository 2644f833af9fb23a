//! `jiangjun params`: the search parameters a tuning run may set, one a line, for
//! `scripts/spsa.py` and for people (the hidden engine options `tune_<name>`).

use crate::search::parameters::Parameters;
use std::io::Write;

/// `jiangjun params` (no arguments).
#[derive(clap::Args, Debug)]
pub struct ParamsArgs {}

pub fn run(_args: ParamsArgs) -> anyhow::Result<i32> {
    let out = std::io::stdout();
    let mut out = out.lock();
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
