//! Turns the evaluation's weights file (`src/search/eval/weights.json`, written by
//! `jiangjun tune --out`) into the Rust expression of `Weights::DEFAULT` at compile time, so
//! the search reads a plain constant: no parsing at start-up and no lazy initialisation on the
//! evaluation's path.
//!
//! The translation is generic: the top-level object becomes `Weights { .. }`, every nested
//! object a `Pair { .. }`, arrays arrays and numbers integer literals. The compiler then checks
//! the result against the real types, so a missing, misspelt or extra field, a wrong shape or
//! a number outside `i32` fails the build instead of being guessed at.

use serde_json::Value;
use std::fmt::Write as _;
use std::path::PathBuf;

const WEIGHTS: &str = "src/search/eval/weights.json";

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
