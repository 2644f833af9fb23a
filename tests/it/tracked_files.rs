//! No tracked file names a folder of the machine it was written on (issue 61 item 6): test
//! data once gave their source as such a path, which no reader can open. A file's provenance
//! is the source's name or the command that makes the file. Examples in help texts use
//! relative paths, `~`, `$HOME` or a folder under `/tmp`.
//!
//! Reads the files `git ls-files` lists; skipped (passing, with a line on standard error)
//! where git cannot run or the package is not a git checkout.

use std::path::Path;
use std::process::Command;

/// The top-level folders whose paths name a machine's user or checkout (`home` and macOS's
/// `Users` hold a folder per user, `root` is root's, `work` holds a build machine's checkouts).
/// Written without their slashes, so that this file names none of them.
const MACHINE_FOLDERS: [&str; 4] = ["home", "root", "work", "Users"];

/// The lines of `text` that name a path under one of [`MACHINE_FOLDERS`]: `(line number,
/// line)`. A path counts where it starts a word (not inside a URL or a longer path, not after
/// `$VAR` or `~`).
fn machine_paths(text: &str) -> Vec<(usize, String)> {
    let needles: Vec<String> = MACHINE_FOLDERS.iter().map(|f| format!("/{f}/")).collect();
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let hit = needles.iter().any(|needle| {
            line.match_indices(needle.as_str()).any(|(at, _)| {
                let before = line[..at].chars().next_back();
                !before.is_some_and(|c| c.is_alphanumeric() || "._-~/$}".contains(c))
            })
        });
        // A Windows user folder: a drive, then `\Users\`.
        let windows = line.contains(":\\Users\\");
        if hit || windows {
            found.push((n + 1, line.trim().to_string()));
        }
    }
    found
}

#[test]
fn the_pattern_finds_machine_paths_and_leaves_others() {
    let slash = |f: &str| format!("/{f}/");
    for bad in [
        format!("; Source: {}shared/seeds/004.txt", slash("work")),
        format!("cd {}me/jiangjun", slash("home")),
        format!("`{}x`", slash("root")),
        format!("\"{}me/x\"", slash("Users")),
        "C:\\Users\\me\\jiangjun.exe".to_string(),
    ] {
        assert_eq!(machine_paths(&bad).len(), 1, "{bad}");
    }
    for fine in [
        format!("https://example.org{}page", slash("work")),
        format!("src{}x.rs", slash("work")),
        format!("$HOME{}x and ~{}y", slash("work"), slash("work")),
        format!(
            "{}x.pgn, ~/.cargo/bin, target/release/jiangjun",
            slash("tmp")
        ),
    ] {
        assert!(machine_paths(&fine).is_empty(), "{fine}");
    }
}

#[test]
fn no_tracked_file_names_a_machine_path() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let listed = match Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
    {
        Ok(out) if out.status.success() => out.stdout,
        Ok(out) => {
            eprintln!(
                "skipped: `git ls-files` failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            return;
        }
        Err(e) => {
            eprintln!("skipped: git does not run: {e}");
            return;
        }
    };
    let mut offending = Vec::new();
    let mut read = 0;
    for name in listed.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = String::from_utf8_lossy(name);
        // Listed but absent (deleted in the work tree, not yet committed): nothing to read.
        let Ok(bytes) = std::fs::read(root.join(name.as_ref())) else {
            continue;
        };
        read += 1;
        // Binary files (the network, the books) hold no text to cite a path in.
        if bytes.contains(&0) {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes);
        for (line, content) in machine_paths(&text) {
            offending.push(format!("{name}:{line}: {content}"));
        }
    }
    assert!(read > 100, "only {read} tracked files could be read");
    assert!(
        offending.is_empty(),
        "tracked files name a path of a machine (give the source's name or the command that \
         makes the file instead):\n{}",
        offending.join("\n")
    );
}
