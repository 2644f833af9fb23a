//! The layer list of `src/lib.rs`, held against the source: no module uses a layer above it
//! (issue 18). Reads every `.rs` file of a layer (`src/<layer>.rs` and everything under
//! `src/<layer>/`) and fails on a `crate::X` path, in code (not comments), that names a module
//! the layer may not use.

use std::path::{Path, PathBuf};

/// For each layer (a module of `src/`, a file or a folder), the top-level modules it may name;
/// its own always.
const ALLOWED: &[(&str, &[&str])] = &[
    ("board", &[]),
    ("rules", &["board"]),
    ("records", &["board", "input"]),
    (
        "book",
        &["board", "checksum", "input", "output", "weighted"],
    ),
    // The tables' generator applies the repetition rules (the referee's move classifier).
    (
        "tablebase",
        &["board", "rules", "checksum", "input", "output"],
    ),
    ("eval", &["board", "checksum"]),
    (
        "search",
        &["board", "rules", "tablebase", "eval", "weighted"],
    ),
    (
        "engine",
        &["board", "rules", "book", "tablebase", "eval", "search"],
    ),
    (
        "protocol",
        &[
            "board",
            "rules",
            "book",
            "tablebase",
            "eval",
            "search",
            "engine",
            "checksum",
            "input",
        ],
    ),
    (
        "tools",
        &[
            "board",
            "rules",
            "book",
            "tablebase",
            "eval",
            "search",
            "engine",
            "checksum",
            "input",
            "output",
            "records",
            "tournament",
        ],
    ),
    ("tournament", &["board", "rules", "records", "input"]),
    (
        "cli",
        &[
            "board",
            "rules",
            "records",
            "book",
            "tablebase",
            "eval",
            "search",
            "engine",
            "checksum",
            "input",
            "output",
            "protocol",
            "tools",
            "tournament",
        ],
    ),
];

pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module names that `line` reaches through `crate::`.
fn crate_paths(line: &str) -> Vec<&str> {
    line.match_indices("crate::")
        .map(|(i, m)| {
            let rest = &line[i + m.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn no_layer_uses_a_layer_above_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut upward = Vec::new();
    for (layer, allowed) in ALLOWED {
        let mut files = Vec::new();
        let file = src.join(format!("{layer}.rs"));
        if file.is_file() {
            files.push(file);
        }
        let folder = src.join(layer);
        if folder.is_dir() {
            rust_files(&folder, &mut files);
        }
        assert!(!files.is_empty(), "src/{layer} has no sources");
        for file in files {
            let text = std::fs::read_to_string(&file).expect("source file");
            for (n, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                for module in crate_paths(code) {
                    if module != *layer && !allowed.contains(&module) {
                        upward.push(format!("{}:{}: {layer} -> {module}", file.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(upward.is_empty(), "upward imports:\n{}", upward.join("\n"));
}

#[test]
fn the_command_parser_depends_on_nothing_above_std() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/protocol/command.rs");
    let text = std::fs::read_to_string(path).expect("source file");
    let uses: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//") && l.contains("crate::"))
        .collect();
    assert!(uses.is_empty(), "protocol/command.rs uses {uses:?}");
}

#[test]
fn the_path_reader_sees_every_module_named() {
    assert_eq!(
        crate_paths("use crate::board::{Color, Move}; let b = crate::search::x();"),
        ["board", "search"]
    );
}
