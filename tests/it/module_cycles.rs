//! No circles between sibling modules (issue 61): inside a layer, when module `a` uses its
//! sibling `b` (through `super::b`, `crate::layer::b` or a name the parent re-exports from
//! `b`), `b` must not use `a` back, directly or through other siblings. A circle makes two
//! modules one in all but name: neither can be read, tested or moved without the other.
//!
//! Reads every `.rs` file under `src/<layer>/`, resolves the module paths its code names
//! (comments left out, `use` groups expanded, inline modules such as `mod tests` followed) and
//! fails on every group of siblings that reach each other. Circles between layers are
//! `layers.rs`'s concern.

use crate::layers::rust_files;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Circles known and being removed, as (parent module, the siblings in the circle).
const ALLOWED: &[(&str, &[&str])] = &[];

/// A module path, segments without `crate`: `["board", "fen"]`.
type ModPath = Vec<String>;

/// The module a source file is: `src/board/fen.rs` → `board::fen`, `src/board/mod.rs` →
/// `board`.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).expect("under src");
    let mut path: ModPath = rel
        .iter()
        .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if path.last().is_some_and(|l| l == "mod") {
        path.pop();
    }
    path
}

/// A token of code: a word, or one punctuation mark (`::` counts as one).
#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Colons,
    Punct(char),
}

/// The tokens of one line of code, without its comment. Strings are not told apart from
/// code, which only risks a path quoted in text being counted.
fn tokens(line: &str) -> Vec<Token> {
    let code = line.split("//").next().unwrap_or("");
    let mut out = Vec::new();
    let mut chars = code.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_alphanumeric() || c == '_' {
            let mut word = c.to_string();
            while let Some(&n) = chars
                .peek()
                .filter(|n| n.is_ascii_alphanumeric() || **n == '_')
            {
                word.push(n);
                chars.next();
            }
            out.push(Token::Word(word));
        } else if c == ':' && chars.peek() == Some(&':') {
            chars.next();
            out.push(Token::Colons);
        } else if !c.is_whitespace() {
            out.push(Token::Punct(c));
        }
    }
    out
}

/// Reads a path tree after `prefix::` at `at` (`fen::{FenError, START_FEN}`, `x::*`), adding
/// every full path it names to `out`; returns the index after it.
fn use_tree(
    toks: &[(Token, usize)],
    at: usize,
    prefix: &ModPath,
    out: &mut Vec<(ModPath, usize)>,
) -> usize {
    let line = toks.get(at).map_or(0, |t| t.1);
    match toks.get(at).map(|t| &t.0) {
        Some(Token::Word(w)) if w == "self" => {
            out.push((prefix.clone(), line));
            at + 1
        }
        Some(Token::Word(w)) => {
            let mut path = prefix.clone();
            path.push(w.clone());
            if matches!(toks.get(at + 1), Some((Token::Colons, _))) {
                use_tree(toks, at + 2, &path, out)
            } else {
                out.push((path, line));
                at + 1
            }
        }
        Some(Token::Punct('{')) => {
            let mut i = at + 1;
            while i < toks.len() {
                match toks[i].0 {
                    Token::Punct('}') => return i + 1,
                    Token::Punct(',') => i += 1,
                    _ => {
                        let next = use_tree(toks, i, prefix, out);
                        i = next.max(i + 1);
                    }
                }
            }
            i
        }
        Some(Token::Punct('*')) => {
            out.push((prefix.clone(), line));
            at + 1
        }
        _ => at,
    }
}

/// One source file: the module paths its code names, each with the module (inline ones
/// included) that names it and the line.
struct Uses {
    /// (user, used, line).
    paths: Vec<(ModPath, ModPath, usize)>,
    /// Relative `use` paths (`pub use fen::{FenError, START_FEN}`), for the re-exports.
    relative: Vec<(ModPath, ModPath)>,
    /// The modules declared under `#[cfg(test)]`, inline or in a file of their own: a unit
    /// test may use what it tests from any sibling.
    tests: Vec<ModPath>,
}

fn uses(module: &ModPath, text: &str) -> Uses {
    // Each token with the module it is in: the file's, or an inline `mod x {` of it, which
    // rustfmt closes with a `}` at the indentation it opened at.
    let mut toks: Vec<(Token, usize)> = Vec::new();
    let mut owner: Vec<ModPath> = Vec::new();
    let mut inline: Vec<(String, String)> = Vec::new();
    let mut tests = Vec::new();
    let mut cfg_test = false;
    for (n, line) in text.lines().enumerate() {
        let here = |inline: &[(String, String)]| {
            let mut m = module.clone();
            m.extend(inline.iter().map(|(name, _)| name.clone()));
            m
        };
        let trimmed = line.trim_start();
        let indent = &line[..line.len() - trimmed.len()];
        if inline.last().is_some_and(|(_, i)| i == indent) && trimmed == "}" {
            inline.pop();
            continue;
        }
        for t in tokens(line) {
            toks.push((t, n + 1));
            owner.push(here(&inline));
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        let (name, opens) = match words.as_slice() {
            ["mod", name, "{"] => (Some(*name), true),
            [vis, "mod", name, "{"] if vis.starts_with("pub") => (Some(*name), true),
            ["mod", name] => (name.strip_suffix(';'), false),
            [vis, "mod", name] if vis.starts_with("pub") => (name.strip_suffix(';'), false),
            _ => (None, false),
        };
        if let Some(name) = name {
            if cfg_test {
                let mut m = here(&inline);
                m.push(name.to_string());
                tests.push(m);
            }
            if opens {
                inline.push((name.to_string(), indent.to_string()));
            }
        }
        if !trimmed.starts_with("#[") {
            cfg_test = false;
        }
        cfg_test |= trimmed == "#[cfg(test)]";
    }
    let mut paths = Vec::new();
    let mut relative = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let here = &owner[i];
        let start = match &toks[i].0 {
            Token::Word(w) if matches!(w.as_str(), "crate" | "super" | "self") => w.as_str(),
            Token::Word(w) if w == "use" => {
                // A relative `use` (`use fen::X;`): kept for the re-exports of a parent.
                if let (Some((Token::Word(first), _)), Some((Token::Colons, _))) =
                    (toks.get(i + 1), toks.get(i + 2))
                {
                    if !matches!(first.as_str(), "crate" | "super" | "self" | "std") {
                        let mut found = Vec::new();
                        use_tree(&toks, i + 1, &Vec::new(), &mut found);
                        relative.extend(found.into_iter().map(|(p, _)| (here.clone(), p)));
                    }
                }
                i += 1;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        if !matches!(toks.get(i + 1), Some((Token::Colons, _))) {
            i += 1;
            continue;
        }
        let mut base: ModPath = match start {
            "crate" => Vec::new(),
            "super" => here[..here.len().saturating_sub(1)].to_vec(),
            _ => here.clone(),
        };
        let mut j = i + 2;
        while let (Some((Token::Word(w), _)), Some((Token::Colons, _))) =
            (toks.get(j), toks.get(j + 1))
        {
            if w != "super" {
                break;
            }
            base.pop();
            j += 2;
        }
        let mut found = Vec::new();
        let end = use_tree(&toks, j, &base, &mut found);
        paths.extend(found.into_iter().map(|(p, line)| (here.clone(), p, line)));
        i = end.max(i + 1);
    }
    Uses {
        paths,
        relative,
        tests,
    }
}

/// An edge between two siblings: where the first uses the second.
type Edges = BTreeMap<(String, String), String>;

/// Every parent module's sibling edges, keyed by the parent (`board`, `search::nnue`).
fn sibling_edges() -> BTreeMap<String, Edges> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&src).expect("src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, &mut files);
        }
    }
    let mut children: BTreeMap<ModPath, BTreeSet<String>> = BTreeMap::new();
    let mut all = Vec::new();
    for file in &files {
        let module = module_of(&src, file);
        if let Some((last, parent)) = module.split_last() {
            children
                .entry(parent.to_vec())
                .or_default()
                .insert(last.clone());
        }
        let text = std::fs::read_to_string(file).expect("source file");
        all.push((file.clone(), module.clone(), uses(&module, &text)));
    }
    // Names a parent re-exports from a child: `pub use fen::START_FEN` in board/mod.rs.
    let mut exported: BTreeMap<ModPath, BTreeMap<String, String>> = BTreeMap::new();
    for (_, module, u) in &all {
        for (here, path) in &u.relative {
            if here == module && path.len() > 1 {
                let (name, first) = (path.last().unwrap(), &path[0]);
                if children.get(module).is_some_and(|c| c.contains(first)) {
                    exported
                        .entry(module.clone())
                        .or_default()
                        .insert(name.clone(), first.clone());
                }
            }
        }
    }
    let tests: Vec<&ModPath> = all.iter().flat_map(|(_, _, u)| &u.tests).collect();
    let mut edges: BTreeMap<String, Edges> = BTreeMap::new();
    for (file, _, u) in &all {
        let shown = file
            .strip_prefix(&src)
            .unwrap_or(file)
            .display()
            .to_string();
        for (user, used, line) in &u.paths {
            if tests.iter().any(|t| user.starts_with(t)) {
                continue;
            }
            let common = user.iter().zip(used).take_while(|(a, b)| a == b).count();
            // Siblings inside a layer: a common parent at least one deep, and the user below it.
            if common == 0 || user.len() <= common || used.len() <= common {
                continue;
            }
            let parent = &user[..common];
            let from = &user[common];
            let to = if children
                .get(parent)
                .is_some_and(|c| c.contains(&used[common]))
            {
                used[common].clone()
            } else if let Some(child) = exported.get(parent).and_then(|e| e.get(&used[common])) {
                child.clone()
            } else {
                continue;
            };
            if *from != to {
                edges
                    .entry(parent.join("::"))
                    .or_default()
                    .entry((from.clone(), to))
                    .or_insert_with(|| format!("src/{shown}:{line}"));
            }
        }
    }
    edges
}

/// The groups of two or more siblings that all reach each other (strongly connected).
fn circles(edges: &Edges) -> Vec<Vec<String>> {
    let nodes: BTreeSet<&String> = edges.keys().flat_map(|(a, b)| [a, b]).collect();
    let reach = |from: &String| {
        let mut seen = BTreeSet::from([from.clone()]);
        let mut todo = vec![from.clone()];
        while let Some(n) = todo.pop() {
            for (a, b) in edges.keys() {
                if *a == n && seen.insert(b.clone()) {
                    todo.push(b.clone());
                }
            }
        }
        seen
    };
    let reached: BTreeMap<&String, BTreeSet<String>> =
        nodes.iter().map(|n| (*n, reach(n))).collect();
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for n in &nodes {
        let group: Vec<String> = nodes
            .iter()
            .filter(|m| reached[*n].contains(**m) && reached[*m].contains(*n))
            .map(|m| (*m).clone())
            .collect();
        if group.len() > 1 {
            groups.insert(group);
        }
    }
    groups.into_iter().collect()
}

#[test]
fn no_sibling_modules_use_each_other() {
    let mut found = Vec::new();
    let mut still_there = BTreeSet::new();
    for (parent, edges) in sibling_edges() {
        for group in circles(&edges) {
            let allowed = ALLOWED.iter().position(|(p, g)| {
                *p == parent && g.iter().copied().eq(group.iter().map(String::as_str))
            });
            if let Some(i) = allowed {
                still_there.insert(i);
                continue;
            }
            let mut text = format!("{parent}: {}", group.join(" <-> "));
            for ((a, b), at) in &edges {
                if group.contains(a) && group.contains(b) {
                    text.push_str(&format!("\n    {a} -> {b} at {at}"));
                }
            }
            found.push(text);
        }
    }
    // The list stays exact: a circle that is gone leaves it.
    for (i, (parent, group)) in ALLOWED.iter().enumerate() {
        if !still_there.contains(&i) {
            found.push(format!(
                "{parent}: {} is allowed but no longer a circle: remove it from ALLOWED",
                group.join(" <-> ")
            ));
        }
    }
    assert!(found.is_empty(), "module circles:\n{}", found.join("\n"));
}

#[test]
fn the_reader_sees_grouped_and_nested_paths() {
    let module: ModPath = vec!["board".into(), "position".into()];
    let text = "use super::{fen::{self, START_FEN}, piece::*};\n\
                pub(super) fn f() { crate::rules::x(); }\n\
                #[cfg(test)]\nmod tests {\n    use super::super::see;\n}\n\
                use super::Move; // super::zobrist in a comment\n";
    let u = uses(&module, text);
    assert_eq!(u.tests, [["board", "position", "tests"]]);
    let seen: Vec<String> = u
        .paths
        .iter()
        .map(|(user, used, line)| format!("{} {} {line}", user.join("::"), used.join("::")))
        .collect();
    assert_eq!(
        seen,
        [
            "board::position board::fen 1",
            "board::position board::fen::START_FEN 1",
            "board::position board::piece 1",
            "board::position rules::x 2",
            "board::position::tests board::see 5",
            "board::position board::Move 7",
        ]
    );
    let edges: Edges = [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")]
        .into_iter()
        .map(|(a, b)| ((a.to_string(), b.to_string()), String::new()))
        .collect();
    assert_eq!(circles(&edges), [["a", "b", "c"]]);
}
