//! No function under `src/` longer than [`MAX_LINES`] lines (issue 61): a longer one does
//! several things that want names of their own. Counts each function from its `fn` line to
//! the `}` that rustfmt puts at the `fn` line's indentation, both included.

use crate::layers::rust_files;
use std::path::Path;

/// The most lines a function may take.
const MAX_LINES: usize = 120;

/// Functions still longer, as (file under `src/`, function). Exact: an entry that is no
/// longer too long must go.
const ALLOWED: &[(&str, &str)] = &[];

/// The name of the function a line starts (`pub(crate) const fn x<T>(`), if it starts one
/// with a body.
fn fn_name(line: &str) -> Option<&str> {
    let code = line.trim_start();
    if code.starts_with("//") || code.ends_with(';') {
        return None;
    }
    let mut words = code.split_whitespace();
    loop {
        let word = words.next()?;
        if word == "fn" {
            let name = words.next()?;
            let end = name
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(name.len());
            return Some(&name[..end]);
        }
        let qualifier = word.starts_with("pub")
            || matches!(word, "const" | "async" | "unsafe" | "extern" | "\"C\"");
        if !qualifier {
            return None;
        }
    }
}

/// Every function of `text` with its first line and length.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = fn_name(line) else { continue };
        let indent = &line[..line.len() - line.trim_start().len()];
        let close = format!("{indent}}}");
        let end = if line.trim_end().ends_with('}') {
            Some(i)
        } else {
            (i + 1..lines.len()).find(|&j| lines[j] == close)
        };
        if let Some(end) = end {
            out.push((name.to_string(), i + 1, end - i + 1));
        }
    }
    out
}

#[test]
fn no_function_is_over_the_limit() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut long = Vec::new();
    let mut allowed_seen = Vec::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("under src");
        let rel = rel.to_string_lossy().replace('\\', "/");
        let text = std::fs::read_to_string(&file).expect("source file");
        for (name, line, length) in functions(&text) {
            if length <= MAX_LINES {
                continue;
            }
            if ALLOWED.contains(&(rel.as_str(), name.as_str())) {
                allowed_seen.push((rel.clone(), name));
            } else {
                long.push(format!("src/{rel}:{line}: {name} has {length} lines"));
            }
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_LINES} lines:\n{}",
        long.join("\n")
    );
    for (file, name) in ALLOWED {
        assert!(
            allowed_seen.iter().any(|(f, n)| f == file && n == name),
            "src/{file}: {name} is no longer over {MAX_LINES} lines (or gone): drop it from ALLOWED"
        );
    }
}

#[test]
fn the_counter_finds_functions_and_their_ends() {
    let text = "pub(crate) fn a(x: u8) -> u8 {\n    x\n}\n\
                trait T {\n    fn b(&self);\n    fn c(&self) {}\n}\n\
                impl S {\n    pub const fn d<T>(\n        t: T,\n    ) {\n        // fn e() {\n    }\n}\n";
    assert_eq!(
        functions(text),
        [
            ("a".to_string(), 1, 3),
            ("c".to_string(), 6, 1),
            ("d".to_string(), 9, 5),
        ]
    );
}
