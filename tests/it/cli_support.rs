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

/// A fresh folder for one test's files: `<tmp>/jiangjun_<prefix>_<pid>_<name>`, emptied.
pub fn temp_folder(prefix: &str, name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("jiangjun_{prefix}_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp folder");
    d
}

/// Writes a test file into `dir`; its path as a string, for the command line.
pub fn write_file(dir: &std::path::Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write test file");
    p.to_string_lossy().into_owned()
}
