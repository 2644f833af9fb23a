//! `jiangjun train`: trains the neural evaluation on datagen files. Every argument, and that
//! NET can be written, is checked before training starts.

use super::value::{number, number_in};
use crate::eval::nnue::{Architecture, FeatureSet, FloatNetwork};
use crate::tools::train::{self, Config, Schedule};
use anyhow::Context;

/// The learning-rate schedules of `--schedule`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScheduleKind {
    /// Half a cosine from the base rate down to `--lr-floor` × base.
    Cosine,
    /// The rate times `--lr-gamma` every `--lr-step` epochs.
    Step,
    /// The base rate throughout.
    Constant,
}

/// The arguments of `jiangjun train`; their doc comments are its `--help`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Data files (datagen format), separated by commas.
    #[arg(long, value_name = "F[,F...]")]
    pub data: String,
    /// The network written after every epoch.
    #[arg(long, value_name = "NET")]
    pub out: std::path::PathBuf,
    /// Epochs (0 writes the starting network).
    #[arg(long, value_name = "N", value_parser = number_in(0u32..=100_000))]
    pub epochs: Option<u32>,
    /// Positions per optimiser step.
    #[arg(long, value_name = "N", value_parser = number_in(1usize..=1 << 24))]
    pub batch: Option<usize>,
    /// Base learning rate.
    #[arg(long, value_name = "X", value_parser = number_in(1e-9f32..=10.0))]
    pub lr: Option<f32>,
    #[arg(long, value_enum, default_value = "cosine")]
    pub schedule: ScheduleKind,
    /// The cosine schedule's last rate, as a fraction of the base.
    #[arg(long, value_name = "X", default_value_t = 0.05, value_parser = number_in(0.0f32..=1.0))]
    pub lr_floor: f32,
    /// The step schedule's epochs per step.
    #[arg(long, value_name = "E", default_value_t = 4, value_parser = number_in(1u32..=1_000_000))]
    pub lr_step: u32,
    /// The step schedule's factor per step.
    #[arg(long, value_name = "X", default_value_t = 0.3, value_parser = number_in(1e-6f32..=1.0))]
    pub lr_gamma: f32,
    /// AdamW's decoupled weight decay (per unit of learning rate).
    #[arg(long, value_name = "X", value_parser = number_in(0.0f32..=10.0))]
    pub weight_decay: Option<f32>,
    /// Weight of the game result in the target.
    #[arg(long, value_name = "X", value_parser = number_in(0.0f32..=1.0))]
    pub lambda: Option<f32>,
    /// Centipawns per unit of the sigmoid's argument.
    #[arg(long, value_name = "CP", value_parser = number_in(1.0f32..=100_000.0))]
    pub scale: Option<f32>,
    /// One record in K (by hash) is held out for validation; 0 holds out none.
    #[arg(long, value_name = "K", value_parser = number_in(0u32..=1_000_000))]
    pub val_every: Option<u32>,
    /// Records in the shuffle buffer.
    #[arg(long, value_name = "N", value_parser = number_in(1usize..=1 << 28))]
    pub buffer: Option<usize>,
    #[arg(long, value_name = "S", value_parser = number::<u64>)]
    pub seed: Option<u64>,
    #[arg(long, value_name = "T", value_parser = number_in(1usize..=256))]
    pub threads: Option<usize>,
    /// Also keep every epoch's network here (`epoch-N.jjnn`), and the run's state after the
    /// last epoch done (`state.jjst`, for `--resume`).
    #[arg(long, value_name = "D")]
    pub checkpoint_dir: Option<String>,
    /// Start from this network file (dequantized) instead of random weights. A network smaller
    /// than --arch (narrower, or plain where --arch has king buckets) is widened first, keeping
    /// its evaluations: every king bucket starts from its rows, new neurons from random input
    /// weights (--seed) and zero output weights.
    #[arg(long, value_name = "NET", conflicts_with = "resume")]
    pub init: Option<std::path::PathBuf>,
    /// Go on from a state a stopped run with the same settings and data saved
    /// (`D/state.jjst`): the run ends with the network the stopped run would have made.
    #[arg(long, value_name = "STATE")]
    pub resume: Option<std::path::PathBuf>,
    /// Mirror each record left-right with probability 1/2, drawn afresh every epoch.
    #[arg(long)]
    pub mirror: bool,
    /// Train one output layer for every position instead of one per output bucket: the
    /// network written holds it in all four buckets, so it evaluates as a network without
    /// output buckets (to measure what they are worth).
    #[arg(long)]
    pub one_output: bool,
    /// The architecture of a new network: `v1` (pieces by point, 256 neurons: the default),
    /// `plain-N` (the same with N neurons) or `kings-N` (pieces by point per king bucket, N
    /// neurons; file format version 2; the built-in network is `kings-256`). N is a multiple of
    /// 64 up to 1024. With --init or --resume the default is the start's architecture.
    #[arg(long, value_name = "ARCH", value_parser = architecture)]
    pub arch: Option<Architecture>,
}

/// Reads `--arch`.
fn architecture(s: &str) -> Result<Architecture, String> {
    if s == "v1" {
        return Ok(Architecture::V1);
    }
    let bad = || format!("{s:?}: expected v1, plain-N or kings-N");
    let (set, n) = s.split_once('-').ok_or_else(bad)?;
    let set = match set {
        "plain" => FeatureSet::Plain,
        "kings" => FeatureSet::KingBuckets,
        _ => return Err(bad()),
    };
    let n: usize = n.parse().map_err(|_| bad())?;
    let arch = Architecture::new(set, n).map_err(|e| e.to_string())?;
    if !train::trains(arch) {
        return Err(format!("{n} neurons: the trainer needs a multiple of 64"));
    }
    Ok(arch)
}

/// The trainer's configuration from the arguments, with the network it starts from read
/// (and widened where --arch asks for a larger one: the architecture it was, then).
fn config(args: &TrainArgs) -> anyhow::Result<(Config, Option<Architecture>)> {
    let d = Config::default();
    let schedule = match args.schedule {
        ScheduleKind::Cosine => Schedule::Cosine {
            floor: args.lr_floor,
        },
        ScheduleKind::Step => Schedule::Step {
            every: args.lr_step,
            gamma: args.lr_gamma,
        },
        ScheduleKind::Constant => Schedule::Constant,
    };
    let mut cfg = Config {
        data: args
            .data
            .split(',')
            .filter(|s| !s.is_empty())
            .map(Into::into)
            .collect(),
        epochs: args.epochs.unwrap_or(d.epochs),
        batch: args.batch.unwrap_or(d.batch),
        lr: args.lr.unwrap_or(d.lr),
        schedule,
        weight_decay: args.weight_decay.unwrap_or(d.weight_decay),
        lambda: args.lambda.unwrap_or(d.lambda),
        scale: args.scale.unwrap_or(d.scale),
        val_every: args.val_every.unwrap_or(d.val_every),
        buffer: args.buffer.unwrap_or(d.buffer),
        seed: args.seed.unwrap_or(d.seed),
        threads: args.threads.unwrap_or(d.threads),
        init: match &args.init {
            Some(p) => {
                let net = crate::protocol::evalfile::load(&p.to_string_lossy())
                    .map_err(anyhow::Error::msg)
                    .context("--init")?;
                Some(FloatNetwork::dequantize(&net))
            }
            None => None,
        },
        mirror: args.mirror,
        one_output: args.one_output,
        arch: Architecture::V1,
        resume: match &args.resume {
            Some(p) => {
                let bytes = crate::input::read_file(p, train::MAX_STATE_LEN as u64)
                    .with_context(|| format!("--resume {}", p.display()))?;
                let state = train::TrainState::from_bytes(&bytes)
                    .with_context(|| format!("--resume {}", p.display()))?;
                Some(state)
            }
            None => None,
        },
    };
    // The architecture: --arch, else the start's, else v1 (`train` checks that they agree).
    let start_arch = cfg.resume.as_ref().map(|s| s.net.arch);
    let start_arch = start_arch.or(cfg.init.as_ref().map(|n| n.arch));
    cfg.arch = args.arch.or(start_arch).unwrap_or(Architecture::V1);
    // A network of a smaller architecture starts a larger one, widened (its evaluations kept).
    let mut widened = None;
    if let Some(init) = cfg.init.as_mut().filter(|n| n.arch != cfg.arch) {
        let from = init.arch;
        *init = init
            .widen(cfg.arch, cfg.seed)
            .with_context(|| format!("--init is {from}, which cannot grow into {}", cfg.arch))?;
        widened = Some(from);
    }
    anyhow::ensure!(!cfg.data.is_empty(), "--data names no file");
    anyhow::ensure!(
        cfg.val_every != 1,
        "--val-every 1 would hold out every record (0 holds out none)"
    );
    Ok((cfg, widened))
}

pub fn run(args: TrainArgs) -> anyhow::Result<i32> {
    let (cfg, widened) = config(&args)?;
    let out = args.out;
    let checkpoints = args.checkpoint_dir;
    std::fs::File::create(&out).with_context(|| format!("cannot create {}", out.display()))?;
    if let Some(dir) = &checkpoints {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {dir}"))?;
    }
    eprintln!(
        "train: network {}, {} file(s), {} epochs, batch {}, lr {} ({}), weight decay {}, lambda {}, scale {}, 1 in {} held out, seed {}, {} threads, start {}{}{}",
        cfg.arch, cfg.data.len(), cfg.epochs, cfg.batch, cfg.lr, cfg.schedule, cfg.weight_decay,
        cfg.lambda, cfg.scale, cfg.val_every, cfg.seed, cfg.threads,
        match (&args.resume, &args.init) {
            (Some(p), _) => format!("the state in {}", p.display()),
            (None, Some(p)) => match widened {
                Some(from) => format!("{} ({from}, widened)", p.display()),
                None => p.display().to_string(),
            },
            (None, None) => "random".to_string(),
        },
        if cfg.mirror { ", mirrored half the time" } else { "" },
        if cfg.one_output { ", one output layer" } else { "" }
    );
    let fmt_loss = |l: Option<f64>| l.map_or("-".to_string(), |l| format!("{l:.6}"));
    let mut written = false;
    let resumed = cfg.resume.as_ref().map(|s| s.epochs_done);
    let result = train::train(&cfg, |r, trainer| {
        if Some(r.epoch) == resumed {
            eprintln!(
                "train: resumed after epoch {}: val loss {}",
                r.epoch,
                fmt_loss(r.val_loss)
            );
        } else if r.epoch == 0 {
            eprintln!("train: epoch 0: val loss {}", fmt_loss(r.val_loss));
        } else {
            eprintln!(
            "train: epoch {}/{}: train loss {}, val loss {}, lr {:.3e}, {} positions, {:.0} positions/s, elapsed {:.1}s",
            r.epoch, r.epochs, fmt_loss(r.train_loss), fmt_loss(r.val_loss), r.lr, r.positions,
            r.positions as f64 / r.seconds.max(1e-9), r.elapsed
            );
        }
        // Epoch 0 (the start) too: with --epochs 0 it is the result.
        let bytes = trainer.network().quantize().to_bytes();
        if let Some(dir) = &checkpoints {
            let dir = std::path::Path::new(dir);
            let p = dir.join(format!("epoch-{}.jjnn", r.epoch));
            std::fs::write(&p, &bytes)
                .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
            write_whole(&dir.join("state.jjst"), &trainer.state(r.epoch).to_bytes())?;
        }
        write_whole(&out, &bytes)?;
        written = true;
        Ok(())
    });
    let (_, summary) = result.map_err(|e| {
        if !written {
            // Only the empty file made to check that NET can be written.
            let _ = std::fs::remove_file(&out);
        }
        anyhow::Error::from(e)
    })?;
    println!(
        "wrote {}: {} epochs over {} training positions ({} held out, {} not legal positions skipped), val loss {} -> {}, train loss {}, {:.1}s",
        out.display(), summary.epochs, summary.train_positions, summary.val_positions,
        summary.invalid, fmt_loss(summary.initial_val_loss), fmt_loss(summary.last.val_loss),
        fmt_loss(summary.last.train_loss), summary.seconds
    );
    Ok(0)
}

/// [`crate::output::write_whole`], with the path in its error: `path` always holds a whole
/// file, even when the run is stopped while writing.
fn write_whole(path: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::output::write_whole(path, bytes)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}
