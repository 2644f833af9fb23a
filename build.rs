//! Turns the evaluation's weights file (`src/eval/weights.json`, written by
//! `jiangjun tune --out`) into the Rust expression of `Weights::DEFAULT` at compile time, so
//! the search reads a plain constant: no parsing at start-up and no lazy initialisation on the
//! evaluation's path.
//!
//! The translation is generic: the top-level object becomes `Weights { .. }`, every nested
//! object a `Pair { .. }`, arrays arrays and numbers integer literals. The compiler then checks
//! the result against the real types, so a missing, misspelt or extra field, a wrong shape or
//! a number outside `i32` fails the build instead of being guessed at.
//!
//! It also records the git commit the binary is built from (`JIANGJUN_GIT_COMMIT`, for
//! `jiangjun --version`): a bug report then names the exact source. Without git, or outside a
//! checkout (a source tarball), the commit is `unknown`.

use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

const WEIGHTS: &str = "src/eval/weights.json";

fn main() {
    println!("cargo:rerun-if-changed={WEIGHTS}");
    println!("cargo:rerun-if-changed=build.rs");
    let text =
        std::fs::read_to_string(WEIGHTS).unwrap_or_else(|e| panic!("cannot read {WEIGHTS}: {e}"));
    let value: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{WEIGHTS} is not JSON: {e}"));
    let mut code = String::new();
    literal(&value, "Weights", &mut code);
    let out_dir = std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR for build scripts");
    let out = PathBuf::from(out_dir).join("default_weights.rs");
    std::fs::write(&out, code).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=JIANGJUN_GIT_COMMIT={commit}");
    watch_git_head();
}

/// The trimmed output of a git command run here, or `None` when git is absent or fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// Reruns this script when HEAD moves (a commit, a checkout), so the recorded commit is not
/// stale. Only files that exist are named: cargo reruns every build for a missing one.
fn watch_git_head() {
    let (Some(dir), Some(common)) = (
        git(&["rev-parse", "--git-dir"]),
        git(&["rev-parse", "--git-common-dir"]),
    ) else {
        return;
    };
    let mut files = vec![
        Path::new(&dir).join("HEAD"),
        Path::new(&common).join("packed-refs"),
    ];
    if let Some(head_ref) = git(&["symbolic-ref", "-q", "HEAD"]) {
        files.push(Path::new(&common).join(head_ref));
    }
    for f in files.iter().filter(|f| f.exists()) {
        println!("cargo:rerun-if-changed={}", f.display());
    }
}

/// Appends the Rust expression of `v` to `out`; `name` is the struct an object becomes.
fn literal(v: &Value, name: &str, out: &mut String) {
    match v {
        Value::Number(n) => match n.as_i64() {
            Some(i) => {
                let _ = write!(out, "{i}");
            }
            None => panic!("{WEIGHTS}: {n} is not an integer"),
        },
        Value::Array(items) => {
            out.push('[');
            for item in items {
                literal(item, "Pair", out);
                out.push_str(", ");
            }
            out.push(']');
        }
        Value::Object(fields) => {
            let _ = write!(out, "{name} {{ ");
            for (key, item) in fields {
                // Keys become field names in code: only identifiers may pass.
                let ident = key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                assert!(ident, "{WEIGHTS}: '{key}' is not a field name");
                let _ = write!(out, "{key}: ");
                literal(item, "Pair", out);
                out.push_str(", ");
            }
            out.push('}');
        }
        other => panic!("{WEIGHTS}: unexpected {other}"),
    }
}
