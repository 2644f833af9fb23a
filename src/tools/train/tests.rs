use super::*;
use crate::board::{Color, PieceKind};
use crate::tools::datagen::{RecordWriter, Wdl};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// Positions from seeded random walks from the start, restarted every 60 plies.
fn positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(n);
    let mut p = Position::startpos();
    while out.len() < n {
        let moves = p.legal_moves();
        if moves.is_empty() || p.history().len() >= 60 {
            p = Position::startpos();
            continue;
        }
        p.make_move(moves[rng.random_range(0..moves.len())]);
        out.push(p.clone());
    }
    out
}

/// Material from the side to move, in centipawns: a target a network can learn.
fn material(p: &Position) -> i32 {
    let value = [0, 200, 200, 400, 900, 450, 100];
    let stm = p.side_to_move();
    let mut s = 0;
    for c in Color::ALL {
        for k in PieceKind::ALL {
            let v = value[k.index()] * p.pieces(c, k).count() as i32;
            s += if c == stm { v } else { -v };
        }
    }
    s
}

/// A data file of `n` random positions labelled with their material and a result agreeing
/// with it; returns its path.
fn data_file(name: &str, n: usize, seed: u64) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("jiangjun-train-{}-{name}.bin", std::process::id()));
    let records: Vec<Record> = positions(n, seed)
        .iter()
        .map(|p| {
            let m = material(p);
            let wdl = match m {
                m if m > 150 => Wdl::Win,
                m if m < -150 => Wdl::Loss,
                _ => Wdl::Draw,
            };
            Record::new(p, m, wdl)
        })
        .collect();
    let mut w = RecordWriter::create(&path).unwrap();
    for (i, c) in records.chunks(60).enumerate() {
        w.write_game(seed, i as u32, c).unwrap();
    }
    w.finish().unwrap();
    path
}

fn sample_for(set: FeatureSet, p: &Position, lambda: f32) -> Sample {
    Sample::new(set, p, material(p) as f32, 0.5, lambda, 400.0).unwrap()
}

/// A king-bucket architecture the trainer runs, narrow enough for quick tests.
fn kings(hidden: usize) -> Architecture {
    Architecture::new(FeatureSet::KingBuckets, hidden).unwrap()
}

#[test]
fn the_training_forward_pass_is_the_float_evaluation() {
    for (seed, arch) in [
        (1, Architecture::V1),
        (2, Architecture::V1),
        (3, kings(128)),
    ] {
        let net = FloatNetwork::random_for(arch, seed);
        for p in positions(300, seed) {
            let s = sample_for(arch.features, &p, 0.3);
            let (a, b) = (forward(&net, &s), net.evaluate(&p));
            assert!(
                (a - b).abs() <= 0.01 + 1e-4 * b.abs(),
                "{a} vs {b}: {}",
                p.to_fen()
            );
        }
    }
}

#[test]
fn samples_hold_both_perspectives_and_the_blended_target() {
    let p = Position::startpos();
    let s = Sample::new(FeatureSet::Plain, &p, 400.0, 1.0, 0.25, 400.0).unwrap();
    assert_eq!(s.features(0).len(), 32);
    let want = 0.25 + 0.75 * sigmoid(1.0);
    assert!((s.target() - want).abs() < 1e-6);
    let mut black = p.clone();
    black.make_null_move();
    let t = Sample::new(FeatureSet::Plain, &black, 0.0, 0.5, 0.0, 400.0).unwrap();
    // The start is symmetric: Black to move sees what Red to move sees.
    let sorted = |x: &[u16]| {
        let mut v = x.to_vec();
        v.sort_unstable();
        v
    };
    assert_eq!(sorted(s.features(0)), sorted(t.features(0)));
    assert_eq!(t.target(), 0.5);
}

/// Loss summed over `samples`, in f64.
fn total_loss(net: &FloatNetwork, samples: &[Sample], scale: f32) -> f64 {
    let mut acc = vec![0.0; 2 * net.arch.hidden()];
    samples
        .iter()
        .map(|s| f64::from(sample_loss(net, s, scale, &mut acc)))
        .sum()
}

#[test]
fn gradients_match_finite_differences() {
    gradients_match_finite_differences_for(Architecture::V1);
    gradients_match_finite_differences_for(kings(128));
}

fn gradients_match_finite_differences_for(arch: Architecture) {
    let scale = 300.0;
    let hidden = arch.hidden();
    let net = FloatNetwork::random_for(arch, 9);
    let samples: Vec<Sample> = positions(4, 11)
        .iter()
        .map(|p| sample_for(arch.features, p, 0.5))
        .collect();
    let mut g = Gradient::new(arch);
    // Scratch left dirty between samples, as the trainer leaves it.
    let mut acc = vec![7.0; 2 * hidden];
    for s in &samples {
        g.backprop(&net, s, scale, &mut acc);
    }
    let check =
        |what: &str, analytic: f32, get: &dyn Fn(&mut FloatNetwork) -> &mut f32, eps: f32| {
            let mut n = net.clone();
            *get(&mut n) += eps;
            let up = total_loss(&n, &samples, scale);
            *get(&mut n) -= 2.0 * eps;
            let down = total_loss(&n, &samples, scale);
            let numeric = ((up - down) / (2.0 * f64::from(eps))) as f32;
            assert!(
                (analytic - numeric).abs() <= 2e-4 + 0.02 * numeric.abs(),
                "{what}: analytic {analytic}, numeric {numeric}"
            );
            numeric
        };
    let b = samples[0].bucket as usize;
    check(
        "output bias",
        g.net.l2_bias[b],
        &|n| &mut n.l2_bias[b],
        1e-2,
    );
    let mut checked = 0;
    for j in (0..2 * hidden).step_by(37) {
        let k = b * 2 * hidden + j;
        check(
            "output weight",
            g.net.l2_weights[k],
            &|n| &mut n.l2_weights[k],
            1e-2,
        );
    }
    // First layer: only neurons away from SCReLU's kinks in every sample, where the loss is
    // smooth over the step.
    let f = samples[0].features(0)[0] as usize;
    for i in 0..hidden {
        let smooth = samples.iter().all(|s| {
            let mut acc = vec![0.0; 2 * hidden];
            accumulate(&net, s, &mut acc);
            [acc[i], acc[hidden + i]]
                .iter()
                .all(|&x| x.abs() > 0.02 && (x - 1.0).abs() > 0.02)
        });
        if !smooth {
            continue;
        }
        let n1 = check("l1 bias", g.net.l1_bias[i], &|n| &mut n.l1_bias[i], 2e-3);
        let k = f * hidden + i;
        let n2 = check(
            "l1 weight",
            g.net.l1_weights[k],
            &|n| &mut n.l1_weights[k],
            2e-3,
        );
        if n1 != 0.0 && n2 != 0.0 {
            checked += 1;
        }
    }
    assert!(
        checked >= 10,
        "{arch}: only {checked} first-layer neurons checked"
    );
}

/// The network of a run, and the state it could resume from after each epoch (0: the start).
fn train_keeping_states(cfg: &Config) -> (FloatNetwork, Vec<TrainState>) {
    let mut states = Vec::new();
    let (net, _) = train(cfg, |r, t| {
        states.push(t.state(r.epoch));
        Ok(())
    })
    .unwrap();
    (net, states)
}

fn small_config(path: &Path, seed: u64, threads: usize) -> Config {
    Config {
        data: vec![path.to_path_buf()],
        epochs: 4,
        batch: 512,
        lr: 0.005,
        val_every: 8,
        buffer: 1000,
        seed,
        threads,
        ..Config::default()
    }
}

#[test]
fn validation_loss_falls() {
    let path = data_file("falls", 4000, 3);
    let mut seen = Vec::new();
    let (_, summary) = train(&small_config(&path, 5, 2), |r, _| {
        seen.push(r.clone());
        Ok(())
    })
    .unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(seen.len(), 5);
    assert!(
        summary.val_positions > 300 && summary.train_positions > 3000,
        "{summary:?}"
    );
    let first = seen[0].val_loss.unwrap();
    let last = seen[4].val_loss.unwrap();
    // Whole games are held out, so this is generalisation to unseen walks: it falls, slowly.
    assert!(last < 0.8 * first, "val loss {first} -> {last}");
    assert!(seen[4].train_loss.unwrap() < seen[1].train_loss.unwrap());
    assert_eq!(seen[1].positions, summary.train_positions);
}

#[test]
fn it_learns_what_the_labels_say() {
    let path = data_file("learns", 6000, 6);
    let cfg = Config {
        epochs: 10,
        batch: 128,
        lr: 0.01,
        lambda: 0.0,
        ..small_config(&path, 5, 2)
    };
    let (net, _) = train(&cfg, |_, _| Ok(())).unwrap();
    let _ = std::fs::remove_file(&path);
    // A rook up is good for the side that has it, from either side. (Only by some tens of
    // centipawns: 6000 random-walk positions teach the direction, not the size.)
    let start = Position::startpos();
    let rook_up =
        Position::from_fen("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
            .unwrap();
    let mut rook_down = rook_up.clone();
    rook_down.make_null_move();
    let (e0, up, down) = (
        net.evaluate(&start),
        net.evaluate(&rook_up),
        net.evaluate(&rook_down),
    );
    assert!(
        up > e0 + 15.0 && down < e0 - 15.0,
        "start {e0}, rook up {up}, rook down {down}"
    );
}

#[test]
fn the_same_seed_gives_the_same_network_with_any_thread_count() {
    let path = data_file("det", 1500, 4);
    let run = |seed, threads| {
        let mut cfg = small_config(&path, seed, threads);
        cfg.epochs = 2;
        train(&cfg, |_, _| Ok(())).unwrap().0.quantize().to_bytes()
    };
    let a = run(7, 1);
    assert_eq!(a, run(7, 3));
    assert_ne!(a, run(8, 1));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn weights_stay_within_the_quantization_limits() {
    let p = positions(64, 1);
    // Targets at the extremes with a huge learning rate push weights against the clip.
    let batch: Vec<Sample> = p
        .iter()
        .map(|p| Sample::new(FeatureSet::Plain, p, 30000.0, 1.0, 1.0, 400.0).unwrap())
        .collect();
    let mut t = Trainer::new(FloatNetwork::random(1), 400.0, 0.0, 1).unwrap();
    for _ in 0..50 {
        t.step(&batch, 1.0);
    }
    let l1 = f32::from(L1_LIMIT) / QA as f32;
    let l2 = f32::from(L2_LIMIT) / QB as f32;
    let n = t.network();
    assert!(n.l1_weights.iter().chain(&n.l1_bias).all(|w| w.abs() <= l1));
    assert!(n.l2_weights.iter().all(|w| w.abs() <= l2));
    assert!(
        n.l2_weights.iter().any(|w| w.abs() == l2),
        "the clip was reached"
    );
}

#[test]
fn schedules() {
    assert_eq!(Schedule::Constant.rate(0.1, 5, 10), 0.1);
    let step = Schedule::Step {
        every: 2,
        gamma: 0.5,
    };
    let rates: Vec<f32> = (0..5).map(|e| step.rate(1.0, e, 5)).collect();
    assert_eq!(rates, [1.0, 1.0, 0.5, 0.5, 0.25]);
    let cos = Schedule::Cosine { floor: 0.1 };
    assert_eq!(cos.rate(1.0, 0, 4), 1.0);
    assert!((cos.rate(1.0, 2, 4) - 0.55).abs() < 1e-6);
    assert!(cos.rate(1.0, 3, 4) > 0.1 && cos.rate(1.0, 3, 4) < 0.55);
}

#[test]
fn a_mirrored_sample_is_the_sample_of_the_mirrored_position() {
    // Asymmetric, Black to move; the mirror written out by hand (each rank reversed).
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 b - - 3 1";
    let mirrored = "3a1ab1r/3nk4/4b1n2/p1p1p1pNp/4c4/2P6/P2R2P1P/5CcC1/9/2BAKAB2 b - - 3 1";
    let (pos, image) = (
        Position::from_fen(fen).unwrap(),
        Position::from_fen(mirrored).unwrap(),
    );
    let r = Record::new(&pos, -87, Wdl::Loss);
    let m = Sample::from_record_mirrored(FeatureSet::Plain, &r, 0.4, 400.0).unwrap();
    assert_eq!(
        m,
        Sample::new(FeatureSet::Plain, &image, -87.0, 0.0, 0.4, 400.0).unwrap()
    );
    assert_ne!(
        m,
        Sample::from_record(FeatureSet::Plain, &r, 0.4, 400.0).unwrap()
    );
    // The mirror of the mirror is the record itself.
    let back = Record::new(&image, -87, Wdl::Loss);
    assert_eq!(
        Sample::from_record_mirrored(FeatureSet::Plain, &back, 0.4, 400.0),
        Sample::from_record(FeatureSet::Plain, &r, 0.4, 400.0)
    );
    // A symmetric network evaluates both alike (the trainer's forward pass).
    let net = FloatNetwork::random(3);
    let (a, b) = (forward(&net, &m), net.evaluate(&image));
    assert!((a - b).abs() < 1e-2, "{a} {b}");
}

#[test]
fn zero_epochs_from_a_network_give_that_network_back() {
    let path = data_file("init", 600, 9);
    let start = FloatNetwork::random(42).quantize();
    let cfg = Config {
        epochs: 0,
        init: Some(FloatNetwork::dequantize(&start)),
        ..small_config(&path, 1, 1)
    };
    let (net, summary) = train(&cfg, |_, _| Ok(())).unwrap();
    assert_eq!(net.quantize(), start);
    assert_eq!(summary.epochs, 0);
    // Fine-tuning starts from it: the first validation loss is the start's.
    let tuned = |init: Option<FloatNetwork>| {
        let cfg = Config {
            epochs: 1,
            init,
            ..small_config(&path, 1, 1)
        };
        train(&cfg, |_, _| Ok(())).unwrap().1.initial_val_loss
    };
    let from_start = tuned(Some(FloatNetwork::dequantize(&start)));
    let from_random = tuned(None);
    assert_ne!(from_start, from_random);
    let _ = std::fs::remove_file(&path);
}

#[test]
fn one_output_layer_serves_every_bucket_and_still_learns() {
    let path = data_file("one_output", 3000, 12);
    let run = |one_output| {
        let cfg = Config {
            one_output,
            // A start whose buckets differ, as a bucketed network's do.
            init: Some(FloatNetwork::random(5)),
            ..small_config(&path, 3, 2)
        };
        train(&cfg, |_, _| Ok(())).unwrap()
    };
    let (net, summary) = run(true);
    let width = 2 * net.arch.hidden();
    let first = &net.l2_weights[..width];
    for bucket in net.l2_weights.chunks_exact(width) {
        assert_eq!(bucket, first);
    }
    assert!(net.l2_bias.iter().all(|&b| b == net.l2_bias[0]));
    assert!(
        summary.last.val_loss.unwrap() < summary.initial_val_loss.unwrap(),
        "{summary:?}"
    );
    // The quantized network keeps one layer in every bucket too.
    let back = FloatNetwork::dequantize(&net.quantize());
    assert!(back
        .l2_weights
        .chunks_exact(width)
        .all(|b| b == &back.l2_weights[..width]));
    // Zero epochs: the one layer is the mean of the start's four.
    let start = FloatNetwork::random(5);
    let cfg = Config {
        one_output: true,
        epochs: 0,
        init: Some(start.clone()),
        ..small_config(&path, 3, 1)
    };
    let (mean, _) = train(&cfg, |_, _| Ok(())).unwrap();
    let at = |net: &FloatNetwork, bucket: usize| net.l2_weights[bucket * width + 7];
    let expected = (0..4).map(|b| at(&start, b)).sum::<f32>() / 4.0;
    assert!((0..4).all(|b| (at(&mean, b) - expected).abs() < 1e-6));
    let bias = start.l2_bias.iter().sum::<f32>() / 4.0;
    assert!(mean.l2_bias.iter().all(|&b| (b - bias).abs() < 1e-6));
    // Resumed after epoch 2, it ends with the network of the run that never stopped.
    let cfg = Config {
        one_output: true,
        init: Some(FloatNetwork::random(5)),
        ..small_config(&path, 3, 2)
    };
    let (straight, states) = train_keeping_states(&cfg);
    let again = Config {
        resume: Some(states[2].clone()),
        ..cfg.clone()
    };
    assert_eq!(
        train(&again, |_, _| Ok(())).unwrap().0,
        straight,
        "bit for bit"
    );
    // Buckets trained apart end apart.
    let (apart, _) = run(false);
    assert_ne!(
        apart.l2_weights[..width],
        apart.l2_weights[width..2 * width]
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn mirroring_is_seeded_and_changes_the_training() {
    let path = data_file("mirror", 1500, 4);
    let run = |mirror, threads| {
        let cfg = Config {
            epochs: 2,
            mirror,
            ..small_config(&path, 7, threads)
        };
        train(&cfg, |_, _| Ok(())).unwrap().0.quantize().to_bytes()
    };
    let a = run(true, 1);
    assert_eq!(a, run(true, 2));
    assert_ne!(a, run(false, 1));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bad_data_and_settings_are_errors() {
    let missing = std::env::temp_dir().join("jiangjun-train-no-such-file.bin");
    let cfg = small_config(&missing, 1, 1);
    assert!(matches!(
        train(&cfg, |_, _| Ok(())),
        Err(TrainError::Data(_))
    ));
    let garbage =
        std::env::temp_dir().join(format!("jiangjun-train-{}-garbage", std::process::id()));
    std::fs::write(&garbage, b"not a data file at all, just some bytes").unwrap();
    let cfg = small_config(&garbage, 1, 1);
    assert!(matches!(
        train(&cfg, |_, _| Ok(())),
        Err(TrainError::Data(_))
    ));
    std::fs::write(&garbage, b"").unwrap();
    let cfg = small_config(&garbage, 1, 1);
    assert!(matches!(
        train(&cfg, |_, _| Ok(())),
        Err(TrainError::NoTrainingData { records: 0, .. })
    ));
    let _ = std::fs::remove_file(&garbage);
    for bad in [
        Config {
            lambda: 1.5,
            ..small_config(&missing, 1, 1)
        },
        Config {
            batch: 0,
            ..small_config(&missing, 1, 1)
        },
        Config {
            scale: 0.0,
            ..small_config(&missing, 1, 1)
        },
        Config {
            schedule: Schedule::Step {
                every: 0,
                gamma: 0.5,
            },
            ..small_config(&missing, 1, 1)
        },
        Config {
            data: vec![],
            ..small_config(&missing, 1, 1)
        },
    ] {
        assert!(
            matches!(train(&bad, |_, _| Ok(())), Err(TrainError::Config(_))),
            "{bad:?}"
        );
    }
}

#[test]
fn schedules_print_in_the_words_of_the_options() {
    assert_eq!(
        Schedule::Cosine { floor: 0.05 }.to_string(),
        "cosine, floor 0.05"
    );
    assert_eq!(
        Schedule::Step {
            every: 10,
            gamma: 0.5
        }
        .to_string(),
        "step, gamma 0.5 every 10 epochs"
    );
    assert_eq!(Schedule::Constant.to_string(), "constant");
}

#[test]
fn samples_built_from_records_are_the_samples_of_their_positions() {
    // Random walks give every phase, both sides to move and many rank layouts to mirror; with
    // king buckets, generals on many palace points.
    for set in [FeatureSet::Plain, FeatureSet::KingBuckets] {
        for (i, p) in positions(400, 21).iter().enumerate() {
            let r = Record::new(p, i as i32 - 200, [Wdl::Loss, Wdl::Draw, Wdl::Win][i % 3]);
            assert_eq!(
                Sample::from_legal_record(set, &r, false, 0.3, 400.0),
                Sample::from_record(set, &r, 0.3, 400.0).unwrap(),
                "{}",
                p.to_fen()
            );
            assert_eq!(
                Sample::from_legal_record(set, &r, true, 0.7, 300.0),
                Sample::from_record_mirrored(set, &r, 0.7, 300.0).unwrap(),
                "mirrored {}",
                p.to_fen()
            );
        }
    }
}

#[test]
fn every_compiled_copy_of_the_loops_trains_the_same_network() {
    let Some(avx2) = Isa::avx2() else {
        eprintln!("no AVX2 here: only the baseline loops run");
        return;
    };
    for arch in [Architecture::V1, kings(128)] {
        every_compiled_copy_trains_the_same(avx2, arch);
    }
}

fn every_compiled_copy_trains_the_same(avx2: Isa, arch: Architecture) {
    let batch: Vec<Sample> = positions(700, 5)
        .iter()
        .map(|p| sample_for(arch.features, p, 0.3))
        .collect();
    let run = |isa| {
        let mut t = Trainer::new(FloatNetwork::random_for(arch, 8), 400.0, 0.01, 2).unwrap();
        t.isa = isa;
        let losses: Vec<f64> = (0..4).map(|_| t.step(&batch, 0.01)).collect();
        (losses, t.loss(&batch), t.net)
    };
    let (base, fast) = (run(Isa::BASELINE), run(avx2));
    assert_eq!(base.0, fast.0);
    assert_eq!(base.1.to_bits(), fast.1.to_bits());
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    for (a, b) in [
        (&base.2.l1_weights, &fast.2.l1_weights),
        (&base.2.l1_bias, &fast.2.l1_bias),
        (&base.2.l2_weights, &fast.2.l2_weights),
        (&base.2.l2_bias, &fast.2.l2_bias),
    ] {
        assert_eq!(bits(a), bits(b));
    }
}

#[test]
fn records_that_are_not_positions_are_counted_and_never_trained() {
    // Two generals; then the red one moved out of its palace (e0 → a0, still the first piece
    // in square order, so the piece codes still match): the layout decodes, the position does not.
    let kings = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    let mut bytes = Record::new(&kings, 0, Wdl::Draw).to_bytes();
    bytes[0] = (bytes[0] & !(1 << 4)) | 1;
    let bad = Record::from_bytes(&bytes).unwrap();
    assert!(
        bad.position().is_err()
            && Sample::from_record(FeatureSet::Plain, &bad, 0.3, 400.0).is_none()
    );
    let good: Vec<Record> = positions(300, 13)
        .iter()
        .map(|p| Record::new(p, material(p), Wdl::Draw))
        .collect();
    let path =
        std::env::temp_dir().join(format!("jiangjun-train-{}-illegal.bin", std::process::id()));
    let mut w = RecordWriter::create(&path).unwrap();
    w.write_game(1, 0, &good[..150]).unwrap();
    w.write_game(1, 1, &[bad, bad, bad]).unwrap();
    w.write_game(1, 2, &good[150..]).unwrap();
    w.finish().unwrap();
    let cfg = Config {
        val_every: 0,
        mirror: true,
        epochs: 2,
        ..small_config(&path, 3, 2)
    };
    let mut seen = Vec::new();
    let (_, summary) = train(&cfg, |r, _| {
        seen.push(r.positions);
        Ok(())
    })
    .unwrap();
    assert_eq!((summary.invalid, summary.train_positions), (3, 300));
    assert_eq!(
        seen,
        [0, 300, 300],
        "every epoch trains on the legal records only"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_resumed_run_ends_with_the_network_of_a_run_that_never_stopped() {
    let path = data_file("resume", 1500, 17);
    let cfg = Config {
        epochs: 4,
        mirror: true,
        ..small_config(&path, 6, 2)
    };
    let (straight, states) = train_keeping_states(&cfg);
    // Stopped after epoch 2, resumed on another thread count.
    let after_two = states[2].clone();
    assert_eq!(after_two.epochs_done, 2);
    let again = Config {
        threads: 1,
        resume: Some(TrainState::from_bytes(&after_two.to_bytes()).unwrap()),
        ..cfg.clone()
    };
    let mut epochs = Vec::new();
    let (resumed, summary) = train(&again, |r, _| {
        epochs.push(r.epoch);
        Ok(())
    })
    .unwrap();
    assert_eq!(epochs, [2, 3, 4]);
    assert_eq!(summary.last.epoch, 4);
    assert_eq!(resumed, straight, "bit for bit");
    // Resuming from the last state trains no more.
    let last = Config {
        resume: Some(states[4].clone()),
        ..cfg.clone()
    };
    assert_eq!(train(&last, |_, _| Ok(())).unwrap().0, straight);
    // Another setting, or other data, is refused.
    for other in [
        Config {
            lr: 0.004,
            ..again.clone()
        },
        Config {
            mirror: false,
            ..again.clone()
        },
        Config {
            data: vec![path.clone(), path.clone()],
            ..again.clone()
        },
        Config {
            epochs: 1,
            resume: Some(states[2].clone()),
            ..cfg.clone()
        },
    ] {
        assert!(
            matches!(train(&other, |_, _| Ok(())), Err(TrainError::Resume(_))),
            "{other:?}"
        );
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_king_bucket_network_trains_resumes_and_loads_in_the_engine() {
    let path = data_file("kings", 4000, 3);
    let cfg = Config {
        epochs: 3,
        arch: kings(64),
        ..small_config(&path, 5, 2)
    };
    let mut states = Vec::new();
    let mut losses = Vec::new();
    let (net, _) = train(&cfg, |r, t| {
        states.push(t.state(r.epoch));
        losses.push((r.val_loss.unwrap(), r.train_loss));
        Ok(())
    })
    .unwrap();
    assert_eq!(net.arch, kings(64));
    assert!(losses[3].0 < losses[0].0, "{losses:?}");
    // Its state goes through the file format and resumes bit for bit.
    let state = TrainState::from_bytes(&states[1].to_bytes()).unwrap();
    let again = Config {
        resume: Some(state),
        threads: 1,
        ..cfg.clone()
    };
    assert_eq!(train(&again, |_, _| Ok(())).unwrap().0, net, "bit for bit");
    // The quantized network is a version 2 file the engine loads.
    let file = net.quantize().to_bytes();
    let loaded = crate::eval::nnue::Network::from_bytes(&file).unwrap();
    assert_eq!(loaded.architecture(), kings(64));
    let p = Position::startpos();
    assert!((loaded.evaluate(&p) as f32 - net.evaluate(&p)).abs() < 30.0);
    // A start of another architecture than the run's is refused before training.
    for other in [
        Config {
            arch: Architecture::V1,
            ..again.clone()
        },
        Config {
            init: Some(FloatNetwork::random(1)),
            resume: None,
            ..cfg.clone()
        },
        Config {
            arch: kings(96),
            resume: None,
            ..cfg.clone()
        },
    ] {
        assert!(
            matches!(train(&other, |_, _| Ok(())), Err(TrainError::Config(_))),
            "{:?}",
            other.arch
        );
    }
    let _ = std::fs::remove_file(&path);
}
