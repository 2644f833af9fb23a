//! Fuzzes the game-folder walk ([`game_files`], what `book build --games` and `datagen
//! --games` list their files with) on small trees built from the fuzzer's bytes: folders,
//! files (game files by their `.pgn`/`.xqf` name, any case, and others) and symbolic links
//! to `.`, `..`, siblings, files and names that do not exist, at most [`MAX_ENTRIES`]
//! entries, in a fresh folder under the system's temporary folder that is removed after
//! each input. Links never lead above that folder. Each input is two-byte steps (what to
//! make, in which folder, under which name, to which target); the first byte also names extra
//! paths to list besides the tree's root.
//!
//! Checked: the walk ends (a link loop is walked once); every listed path lies in the tree;
//! no two listed paths are the same file by canonical path; what is listed is exactly the
//! game files of the tree by canonical path (every name in a folder that carries a game
//! file's extension and leads to a regular file, and extra paths that are files whatever
//! their name), plus names with a game extension that lead nowhere (a dangling link: listed,
//! to be refused when read); every extra path that is neither a file nor a folder gives one
//! message, and nothing else does.
#![no_main]

use jiangjun::records::game_files;
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;
use std::io::Write;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Most entries made in one tree.
const MAX_ENTRIES: usize = 20;

/// Names an entry may get.
const NAMES: [&str; 8] = ["a", "b", "g.pgn", "H.PGN", "x.xqf", "n.txt", "d.pgn", "up"];

/// Where a link may point: `.`, `..`, siblings, a path through a sibling, missing names.
const TARGETS: [&str; 12] = [
    ".",
    "..",
    "a",
    "b",
    "g.pgn",
    "x.xqf",
    "missing.pgn",
    "a/g.pgn",
    "../a",
    "n.txt",
    "up",
    "d.pgn",
];

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The folder under the temporary folder that one input's tree lives in, removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn is_game(p: &Path) -> bool {
    p.extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("pgn") || x.eq_ignore_ascii_case("xqf"))
}

/// Every real folder (not reached through a link) at or under `dir`.
fn real_folders(dir: &Path, out: &mut Vec<PathBuf>) {
    out.push(dir.to_path_buf());
    for e in std::fs::read_dir(dir)
        .expect("the tree can be listed")
        .flatten()
    {
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            real_folders(&e.path(), out);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, steps)) = data.split_first() else {
        return;
    };
    // The scratch folder holds only the tree's root, so that `..` from the root leads to a
    // folder with nothing else in it.
    let scratch = Scratch(std::env::temp_dir().join(format!(
        "jj-fuzz-walk-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    )));
    let _ = std::fs::remove_dir_all(&scratch.0);
    let root = scratch.0.join("t");
    std::fs::create_dir_all(&root).expect("a scratch folder");
    // Folders made so far (the root first), where later steps put their entries.
    let mut folders = vec![root.clone()];
    for step in steps.chunks_exact(2).take(MAX_ENTRIES) {
        let (what, arg) = (step[0], step[1]);
        let parent = folders[usize::from(what >> 2) % folders.len()].clone();
        let path = parent.join(NAMES[usize::from(arg & 7)]);
        match what & 3 {
            0 => {
                if std::fs::create_dir(&path).is_ok() {
                    folders.push(path);
                }
            }
            1 => {
                // Never through a link already there (writing through a dangling link would
                // make a file where the link points, perhaps outside the tree).
                let made = std::fs::OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .open(&path);
                if let Ok(mut f) = made {
                    let _ = f.write_all(b"1. h2e2 h9g7 *\n");
                }
            }
            _ => {
                let _ = symlink(TARGETS[usize::from(arg >> 3) % TARGETS.len()], &path);
            }
        }
    }
    let mut paths = vec![root.clone()];
    for (bit, extra) in ["", "a", "g.pgn", "up", "missing", "n.txt"]
        .iter()
        .enumerate()
    {
        if flags & (1 << bit) != 0 {
            paths.push(root.join(extra));
        }
    }
    let (files, bad) = game_files(&paths);

    let tree = std::fs::canonicalize(&scratch.0).expect("the scratch folder");
    let mut expected = HashSet::new();
    let mut dangling = HashSet::new();
    let mut real = Vec::new();
    real_folders(&root, &mut real);
    for dir in &real {
        for e in std::fs::read_dir(dir)
            .expect("the tree can be listed")
            .flatten()
        {
            let p = e.path();
            if !is_game(&p) {
                continue;
            }
            if p.is_file() {
                expected.insert(std::fs::canonicalize(&p).expect("a file has a canonical path"));
            } else if !p.exists() {
                dangling.insert(
                    std::fs::canonicalize(dir)
                        .expect("a folder")
                        .join(e.file_name()),
                );
            }
        }
    }
    let mut messages = 0;
    for p in &paths[1..] {
        if p.is_file() {
            expected.insert(std::fs::canonicalize(p).expect("a file has a canonical path"));
        } else if !p.is_dir() {
            messages += 1;
        }
    }

    let mut listed = HashSet::new();
    for f in &files {
        assert!(
            f.starts_with(&root),
            "{} lies outside the tree",
            f.display()
        );
        match std::fs::canonicalize(f) {
            Ok(c) => {
                assert!(
                    c.starts_with(&tree),
                    "{} leads outside the tree",
                    f.display()
                );
                assert!(f.is_file(), "{} is not a file", f.display());
                assert!(listed.insert(c.clone()), "{} listed twice", c.display());
                assert!(expected.contains(&c), "{} is not a game file", f.display());
            }
            Err(_) => {
                // A dangling link, by the canonical path of the folder it is in.
                assert!(is_game(f), "{} is listed", f.display());
                let dir = std::fs::canonicalize(f.parent().expect("a parent"))
                    .expect("its folder exists");
                let c = dir.join(f.file_name().expect("a name"));
                assert!(dangling.contains(&c), "{} is listed", f.display());
                assert!(listed.insert(c.clone()), "{} listed twice", c.display());
            }
        }
    }
    for c in &expected {
        assert!(
            listed.contains(c),
            "{} is not listed: {files:?}",
            c.display()
        );
    }
    assert_eq!(bad.len(), messages, "{bad:?}");
});
