//! The package's declared `rust-version` is true: no locked dependency asks for a newer
//! compiler. It had drifted (1.87 declared while encoding_rs 0.8.44 and proptest 1.12 need
//! 1.88), which a user of the declared compiler learns only from a failed build.

use std::process::Command;

/// `1.88` or `1.88.0` as numbers, missing parts 0.
fn version(text: &str) -> Vec<u64> {
    let mut v: Vec<u64> = text.split('.').map(|p| p.parse().unwrap_or(0)).collect();
    v.resize(3, 0);
    v
}

#[test]
fn rust_version_is_what_the_locked_dependencies_need() {
    let host = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string()))
        .arg("-vV")
        .output()
        .expect("rustc runs");
    let host = String::from_utf8_lossy(&host.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc names its host");
    // The host's packages only: they are the ones a build here has already fetched, so the
    // question needs no network.
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let packages = meta["packages"].as_array().expect("a package list");
    let ours = packages
        .iter()
        .find(|p| p["name"] == "jiangjun")
        .and_then(|p| p["rust_version"].as_str())
        .expect("jiangjun declares a rust-version");
    let needed = packages
        .iter()
        .filter_map(|p| Some((p["rust_version"].as_str()?, p["name"].as_str()?)))
        .max_by_key(|(v, _)| version(v))
        .expect("some package declares one");
    assert!(
        version(ours) >= version(needed.0),
        "Cargo.toml declares rust-version {ours}, but {} needs {}",
        needed.1,
        needed.0
    );
}
