//! The tuning pipeline's subcommands (`jiangjun selfplay`, `jiangjun tune`), run as
//! `scripts/tune.sh` runs them, on a tiny data set.

#[path = "cli_support/mod.rs"]
mod cli_support;
use cli_support::run;

use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("jiangjun-cli-tune-{}-{name}", std::process::id()))
}

#[test]
fn selfplay_data_feeds_the_tuner() {
    let (data, weights) = (temp("data.txt"), temp("weights.txt"));
    let data_s = data.to_string_lossy().into_owned();
    let weights_s = weights.to_string_lossy().into_owned();
    let (code, out, err) = run(&[
        "selfplay", "--out", &data_s, "--games", "2", "--nodes", "300", "--seed", "3",
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
    let dump = std::fs::read_to_string(&weights).expect("weights written");
    assert!(
        dump.contains("Weights {") && dump.contains("pst_mg"),
        "{dump}"
    );
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
}
