//! The tuning pipeline's subcommands (`jiangjun datagen`, `jiangjun tune`), run as
//! `scripts/tune.sh` runs them, on a tiny data set.

use crate::cli_support;
use cli_support::run;

use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("jiangjun-cli-tune-{}-{name}", std::process::id()))
}

#[test]
fn datagen_records_feed_the_tuner() {
    let (data, weights) = (temp("data.bin"), temp("weights.json"));
    let data_s = data.to_string_lossy().into_owned();
    let weights_s = weights.to_string_lossy().into_owned();
    let (code, out, err) = run(&[
        "datagen", "--out", &data_s, "--games", "2", "--nodes", "300", "--seed", "3",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let (code, out, err) = run(&[
        "tune",
        "--data",
        &data_s,
        "--validate",
        &data_s,
        "--out",
        &weights_s,
        "--rounds",
        "1",
        "--steps",
        "20",
        "--all",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(err.contains("held-out error"), "{err}");
    // The output is a weights file like the engine's own, and `--init` continues from it.
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&weights).expect("weights written"))
            .expect("json");
    let embedded: serde_json::Value =
        serde_json::from_str(include_str!("../../src/eval/weights.json")).expect("json");
    let keys = |v: &serde_json::Value| v.as_object().map(|m| m.keys().cloned().collect::<Vec<_>>());
    assert_eq!(keys(&written), keys(&embedded));
    let (code, out, err) = run(&[
        "tune", "--data", &data_s, "--init", &weights_s, "--out", &weights_s, "--rounds", "1",
        "--steps", "20",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let _ = std::fs::remove_file(data);
    let _ = std::fs::remove_file(weights);
}

#[test]
fn bad_tuner_settings_are_refused_before_reading_data() {
    // The data file does not exist: the number is what must be reported.
    for (args, says) in [
        (
            vec!["--rounds", "x"],
            "invalid value 'x' for '--rounds <N>'",
        ),
        (vec!["--l2", "NaN"], "'--l2 <X>': must be a number >= 0"),
        (
            vec!["--l2-tables", "-1"],
            "'--l2-tables <X>': must be a number >= 0",
        ),
    ] {
        let mut all = vec!["tune", "--data", "/nonexistent/data.txt"];
        all.extend(args);
        let (code, _, err) = run(&all);
        assert_eq!(code, 2, "{all:?}");
        assert!(err.contains(says), "{all:?}: {err}");
    }
    let (code, _, err) = run(&["tune", "--data", "/nonexistent/data.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read /nonexistent/data.txt"), "{err}");
    // A bad starting file is reported before the data is read.
    let (code, _, err) = run(&[
        "tune",
        "--data",
        "/nonexistent/data.txt",
        "--init",
        "Cargo.toml",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("Cargo.toml: not a weights file"), "{err}");
}

/// Data that holds no sample (an empty file, only bad lines) is an error, and the weights
/// file is left as it was.
#[test]
fn no_samples_is_an_error_and_the_weights_are_kept() {
    let (empty, bad, out) = (temp("empty.txt"), temp("bad.txt"), temp("kept.json"));
    std::fs::write(&empty, b"").unwrap();
    std::fs::write(&bad, "not a sample\nnor this | 2\n").unwrap();
    std::fs::write(&out, b"the old weights").unwrap();
    let good = temp("good.txt");
    std::fs::write(
        &good,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 | 0.5\n",
    )
    .unwrap();
    let [e, b, o, g] = [&empty, &bad, &out, &good].map(|p| p.to_string_lossy().into_owned());
    for args in [
        vec!["--data", &e],
        vec!["--data", &b],
        vec!["--data", &g, "--validate", &e],
    ] {
        let mut all = vec!["tune", "--out", &o, "--rounds", "1", "--steps", "1"];
        all.extend(args);
        let (code, stdout, err) = run(&all);
        assert_eq!(code, 2, "{all:?}: {stdout}{err}");
        assert!(err.contains("no samples"), "{all:?}: {err}");
        assert_eq!(std::fs::read(&out).unwrap(), b"the old weights", "{all:?}");
    }
    for p in [empty, bad, out, good] {
        let _ = std::fs::remove_file(p);
    }
}
