//! The network's portable loops stay vectorised: in the optimised binary, the baseline copies
//! of the accumulator updates (`simd::add`, `sub`, `add_sub`, `add_sub2`) hold SSE2 `paddw` /
//! `psubw` on eight i16 lanes. They once compiled to one value at a time (on ARM64 and on
//! x86-64 without AVX2) when their dispatchers were inlined into larger callers, while the
//! bench signature stayed right; `scripts/arm64_check.sh` checks the same for NEON.
//!
//! x86-64 only; skipped (with a line on stderr) in unoptimised builds and where `objdump` is
//! missing.

#[cfg(target_arch = "x86_64")]
#[test]
fn baseline_accumulator_loops_use_sse2() {
    use std::collections::HashMap;
    use std::process::Command;
    if cfg!(debug_assertions) {
        eprintln!("skipped: an unoptimised build is not vectorised");
        return;
    }
    let Ok(out) = Command::new("objdump")
        .args([
            "-d",
            "--no-show-raw-insn",
            "-C",
            env!("CARGO_BIN_EXE_jiangjun"),
        ])
        .output()
    else {
        eprintln!("skipped: no objdump");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    // Vector adds and subtracts on 16-bit lanes, per function.
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut function = String::new();
    for line in text.lines() {
        if let Some(name) = line.strip_suffix(">:").and_then(|l| l.split_once(" <")) {
            function = name.1.to_string();
        } else if (line.contains("\tpaddw ") || line.contains("\tpsubw ")) && line.contains("%xmm")
        {
            *counts.entry(function.clone()).or_default() += 1;
        }
    }
    for name in ["add", "sub", "add_sub", "add_sub2"] {
        let full = format!("jiangjun::eval::nnue::simd::{name}");
        let n = counts.get(&full).copied().unwrap_or(0);
        assert!(
            n >= 2,
            "{full}: {n} SSE2 paddw/psubw; the baseline loop is not vectorised"
        );
    }
}
