//! `jiangjun tune`: Texel-tunes the evaluation weights on self-play data. The numbers are
//! checked before the data is read, so a typo is reported at once.

use super::value::{non_negative, number};
use crate::eval::Weights;
use crate::tools::datagen::format::MAGIC;
use crate::tools::datagen::RecordReader;
use crate::tools::tune::{self, Scope, Settings};
use anyhow::Context;

/// The arguments of `jiangjun tune`; their doc comments are its `--help`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// Self-play data (`jiangjun datagen` files, or `FEN | result` text), separated by commas.
    #[arg(long, value_name = "F[,F...]")]
    pub data: String,
    /// The tuned weights, in the format of src/eval/weights.json.
    #[arg(long, value_name = "F", default_value = "tuned_weights.json")]
    pub out: String,
    /// Weights to start from (a file of an earlier run); default: the engine's own.
    #[arg(long, value_name = "F")]
    pub init: Option<String>,
    /// Linearise-and-descend rounds.
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    pub rounds: Option<usize>,
    /// Adam steps per round.
    #[arg(long, value_name = "N", value_parser = number::<usize>)]
    pub steps: Option<usize>,
    /// Ridge penalty per weight: l2 · (change / 100)².
    #[arg(long, value_name = "X", value_parser = non_negative)]
    pub l2: Option<f64>,
    /// The same for piece-square entries.
    #[arg(long, value_name = "X", value_parser = non_negative)]
    pub l2_tables: Option<f64>,
    /// Held-out data (other seeds): shows whether the fit generalises.
    #[arg(long, value_name = "F[,F...]")]
    pub validate: Option<String>,
    /// Tune the piece-square tables too, not only the scalars.
    #[arg(long)]
    pub all: bool,
}

pub fn run(args: TuneArgs) -> anyhow::Result<i32> {
    let d = Settings::default();
    let settings = Settings {
        scope: if args.all { Scope::All } else { Scope::Scalars },
        rounds: args.rounds.unwrap_or(d.rounds),
        steps: args.steps.unwrap_or(d.steps),
        l2: args.l2.unwrap_or(d.l2),
        l2_tables: args.l2_tables.unwrap_or(d.l2_tables),
        ..d
    };
    // Several files may be given, separated by commas (e.g. shards of one datagen run): each
    // is datagen's binary records (known by their magic bytes) or `FEN | result` text.
    let load = |files: &str| -> anyhow::Result<Vec<tune::Sample>> {
        let mut samples = Vec::new();
        let mut bad = 0;
        for file in files.split(',') {
            let (mut s, b) = if is_datagen_file(file.as_ref()) {
                tune::samples_from_records(RecordReader::open(&[file]))
                    .with_context(|| format!("cannot read {file}"))?
            } else {
                let text = crate::input::read_text(file.as_ref(), crate::input::MAX_SAMPLES_BYTES)
                    .with_context(|| format!("cannot read {file}"))?;
                tune::parse_samples(&text)
            };
            samples.append(&mut s);
            bad += b;
        }
        eprintln!(
            "{files}: {} samples ({bad} bad ones skipped)",
            samples.len()
        );
        // Weights fitted to nothing would replace the file there with the start.
        anyhow::ensure!(
            !samples.is_empty(),
            "{files}: no samples; {} not written",
            args.out
        );
        Ok(samples)
    };
    // The weights to start from (and compare the held-out error with): the engine's own
    // unless `--init` names a file of an earlier run. Read before the data, which can be
    // large, so that a bad file is reported at once.
    let start = match &args.init {
        Some(f) => tune::read_weights(f.as_ref())?,
        None => Weights::DEFAULT,
    };
    let samples = load(&args.data)?;
    let held_out = args.validate.as_deref().map(load).transpose()?;
    let mut w = start.clone();
    let k = tune::fit_k(&samples, &w);
    eprintln!("k = {k:.3}");
    let (err, k_tuned) = tune::tune(&samples, &mut w, k, settings, |l| eprintln!("{l}"));
    if let Some(v) = &held_out {
        eprintln!(
            "held-out error {:.6} -> {:.6}",
            tune::error(v, &start, k),
            tune::error(v, &w, k_tuned)
        );
    }
    let out = &args.out;
    tune::write_weights(out.as_ref(), &w)?;
    println!("wrote {out}: error {err:.6}, k {k_tuned:.3}");
    Ok(0)
}

/// Whether `path` starts with datagen's magic bytes (an unreadable file is not: the text
/// reader then reports why).
fn is_datagen_file(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 8];
    crate::input::open_regular(path, u64::MAX)
        .is_ok_and(|(mut f, _)| f.read_exact(&mut head).is_ok() && head == MAGIC)
}
