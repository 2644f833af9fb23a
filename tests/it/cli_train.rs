//! `jiangjun train` run as a user runs it, on a tiny datagen file: the network file it writes
//! each epoch, checkpoints, determinism, and refused arguments and data.

use crate::cli_support;
use cli_support::run;

use jiangjun::eval::nnue::Network;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("jiangjun-cli-train-{}-{name}", std::process::id()))
}

fn s(p: &std::path::Path) -> String {
    p.to_string_lossy().into_owned()
}

/// A small data file from `jiangjun datagen` (a few hundred positions).
fn data() -> PathBuf {
    let path = temp("data.bin");
    let (code, out, err) = run(&[
        "datagen",
        "--out",
        &s(&path),
        "--games",
        "6",
        "--nodes",
        "300",
        "--seed",
        "3",
        "--max-plies",
        "80",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    path
}

fn train(data: &str, net: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "train",
        "--data",
        data,
        "--out",
        net,
        "--epochs",
        "3",
        "--batch",
        "64",
        "--lr",
        "0.003",
        "--val-every",
        "5",
        "--buffer",
        "200",
        "--seed",
        "9",
    ];
    args.extend_from_slice(extra);
    run(&args)
}

#[test]
fn trains_and_writes_loadable_networks() {
    let data = data();
    let net = temp("net.jjnn");
    let dir = temp("ckpt");
    let (code, out, err) = train(
        &s(&data),
        &s(&net),
        &["--checkpoint-dir", &s(&dir), "--threads", "2"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("epoch 0: val loss"), "{err}");
    for e in 1..=3 {
        assert!(err.contains(&format!("epoch {e}/3: train loss ")), "{err}");
        let ck = std::fs::read(dir.join(format!("epoch-{e}.jjnn"))).expect("checkpoint");
        Network::from_bytes(&ck).expect("a valid network");
    }
    assert!(err.contains("positions/s"), "{err}");
    assert!(
        out.starts_with(&format!("wrote {}: 3 epochs", s(&net))),
        "{out}"
    );
    let bytes = std::fs::read(&net).unwrap();
    Network::from_bytes(&bytes).expect("a valid network");
    assert_eq!(bytes, std::fs::read(dir.join("epoch-3.jjnn")).unwrap());

    // The state after the last epoch resumes to the same network (the library's tests stop a
    // run halfway); other settings are refused.
    let state = s(&dir.join("state.jjst"));
    let resumed = temp("resumed.jjnn");
    let (code, out, err) = train(&s(&data), &s(&resumed), &["--resume", &state]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("resumed after epoch 3"), "{err}");
    assert_eq!(std::fs::read(&resumed).unwrap(), bytes);
    let (code, _, err) = train(
        &s(&data),
        &s(&resumed),
        &["--resume", &state, "--lr", "0.5"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot resume"), "{err}");
    let (code, _, err) = train(
        &s(&data),
        &s(&resumed),
        &["--resume", &state, "--init", &s(&net)],
    );
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_file(resumed);

    // Same seed, other thread count: the same bytes.
    let net2 = temp("net2.jjnn");
    let (code, out, err) = train(&s(&data), &s(&net2), &["--threads", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(bytes, std::fs::read(&net2).unwrap());

    // A data file that is cut short is refused before training, with exit status 2.
    let cut = temp("cut.bin");
    let all = std::fs::read(&data).unwrap();
    std::fs::write(&cut, &all[..all.len() - 7]).unwrap();
    let (code, _, err) = train(&s(&cut), &s(&net2), &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("ends inside a chunk"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    // --init with 0 epochs writes the network it started from; 1 epoch of --mirror moves it.
    let back = temp("back.jjnn");
    let (code, out, err) = train(&s(&data), &s(&back), &["--init", &s(&net), "--epochs", "0"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(std::fs::read(&back).unwrap(), bytes);
    let (code, out, err) = train(
        &s(&data),
        &s(&back),
        &["--init", &s(&net), "--epochs", "1", "--mirror"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("mirrored half the time"), "{err}");
    assert_ne!(std::fs::read(&back).unwrap(), bytes);

    // --arch kings-64: a version 2 network with king buckets, which --init then continues
    // without --arch; it cannot shrink into v1.
    let kings = temp("kings.jjnn");
    let (code, out, err) = train(&s(&data), &s(&kings), &["--arch", "kings-64"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("network (7560->64)x2->4 with king buckets"),
        "{err}"
    );
    let k = std::fs::read(&kings).unwrap();
    assert_eq!(k[4..8], 2u32.to_le_bytes());
    let loaded = Network::from_bytes(&k).expect("a valid network");
    assert_eq!(loaded.architecture().hidden(), 64);
    let (code, out, err) = train(
        &s(&data),
        &s(&back),
        &["--init", &s(&kings), "--epochs", "0"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(std::fs::read(&back).unwrap(), k);
    let (code, _, err) = train(
        &s(&data),
        &s(&back),
        &["--init", &s(&kings), "--arch", "v1"],
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(
            "--init is (7560->64)x2->4 with king buckets, which cannot grow into (1260->256)x2->4"
        ),
        "{err}"
    );
    // The v1 network grows into kings-320 and, with 0 epochs, still evaluates as before where
    // no general stands on the right-hand file of its palace (the start position).
    let grown = temp("grown.jjnn");
    let (code, out, err) = train(
        &s(&data),
        &s(&grown),
        &["--init", &s(&net), "--arch", "kings-320", "--epochs", "0"],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("(1260->256)x2->4, widened)"), "{err}");
    let grown_net = Network::from_bytes(&std::fs::read(&grown).unwrap()).unwrap();
    assert_eq!(grown_net.architecture().hidden(), 320);
    let v1 = Network::from_bytes(&bytes).unwrap();
    let start = jiangjun::board::Position::startpos();
    assert_eq!(grown_net.evaluate(&start), v1.evaluate(&start));
    let _ = std::fs::remove_file(grown);

    for p in [data, net, net2, cut, back, kings] {
        let _ = std::fs::remove_file(p);
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_and_files_exit_2() {
    let garbage = temp("garbage.bin");
    std::fs::write(&garbage, b"this is not training data, not even close to it").unwrap();
    let missing = temp("missing.bin");
    let net = temp("bad-net.jjnn");
    let (g, m, n) = (s(&garbage), s(&missing), s(&net));
    let cases: Vec<Vec<&str>> = vec![
        vec!["train"],
        vec!["train", "--out", &n],
        vec!["train", "--data", &g],
        vec!["train", "--data", &m, "--out", &n],
        vec!["train", "--data", &g, "--out", &n],
        vec!["train", "--data", &g, "--out", &n, "--epochs", "zero"],
        vec!["train", "--data", &g, "--out", &n, "--epochs", "-1"],
        vec!["train", "--data", &g, "--out", &n, "--init", &m],
        vec!["train", "--data", &g, "--out", &n, "--init", &g],
        vec!["train", "--data", &g, "--out", &n, "--resume", &m],
        vec!["train", "--data", &g, "--out", &n, "--resume", &g],
        vec!["train", "--data", &g, "--out", &n, "--resume", "/dev/zero"],
        vec!["train", "--data", &g, "--out", &n, "--lambda", "2"],
        vec!["train", "--data", &g, "--out", &n, "--lr", "-1"],
        vec!["train", "--data", &g, "--out", &n, "--lr", "NaN"],
        vec!["train", "--data", &g, "--out", &n, "--schedule", "wobbly"],
        vec!["train", "--data", &g, "--out", &n, "--val-every", "1"],
        vec!["train", "--data", &g, "--out", &n, "--threads", "0"],
        vec!["train", "--data", &g, "--out", "/no/such/dir/net.jjnn"],
        vec!["train", "--data", &g, "--out", &n, "--bogus"],
        vec!["train", "--data", ",", "--out", &n],
        vec!["train", "--data", &g, "--out", &n, "--arch", "kings"],
        vec!["train", "--data", &g, "--out", &n, "--arch", "kings-96"],
        vec!["train", "--data", &g, "--out", &n, "--arch", "kings-2048"],
        vec!["train", "--data", &g, "--out", &n, "--arch", "queens-64"],
        vec!["train", "--data", &g, "--out", &n, "--arch", "plain--64"],
    ];
    for args in cases {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}\n{out}{err}");
        assert!(err.contains("jiangjun train: "), "{args:?}\n{err}");
        assert!(!err.contains("panicked"), "{args:?}\n{err}");
    }
    assert!(!net.exists(), "no empty network left behind");
    let _ = std::fs::remove_file(garbage);
}
