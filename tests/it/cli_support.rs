//! Shared helper for the tests that run `jiangjun` subcommands as a user runs them.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::process::Command;

/// Runs the binary with `args`; returns its exit status (−1 if killed), stdout and stderr.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_jiangjun"))
        .args(args)
        .output()
        .expect("binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
