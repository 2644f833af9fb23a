//! README.md names only what exists: every `jiangjun <subcommand>` it writes (and every
//! subcommand of a group, such as `jiangjun pgn check`) answers `--help` with status 0, and
//! every row of its options table names options the engine announces, under `ucci` and under
//! `uci`, with the default the table gives. `scripts/readme_check.sh` runs the README's
//! commands themselves; this is the cheap part of that check, kept in the suite.

use crate::cli_support::run;
use crate::protocol_support::Engine;
use std::collections::BTreeSet;

const README: &str = include_str!("../../README.md");

/// Every `jiangjun WORD [WORD]` of the README where WORD is a lower-case word: the candidate
/// subcommand and the word after it (a group's subcommand, or an argument).
fn named_subcommands() -> BTreeSet<(String, Option<String>)> {
    let mut found = BTreeSet::new();
    for (at, _) in README.match_indices("jiangjun ") {
        // Not part of a longer name or a path (`cmd=jiangjun`, `/jiangjun`).
        let before = README[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || "=/_-.".contains(c)) {
            continue;
        }
        let mut words = README[at + "jiangjun ".len()..]
            .split(|c: char| c.is_whitespace() || "`|".contains(c))
            .take(2);
        let is_word = |w: &&str| !w.is_empty() && w.chars().all(|c| c.is_ascii_lowercase());
        let Some(first) = words.next().filter(is_word) else {
            continue;
        };
        let second = words.next().filter(is_word).map(str::to_string);
        found.insert((first.to_string(), second));
    }
    found
}

#[test]
fn every_subcommand_the_readme_names_exists() {
    let named = named_subcommands();
    let firsts: BTreeSet<&str> = named.iter().map(|(f, _)| f.as_str()).collect();
    for sub in [
        "perft", "bench", "judge", "book", "match", "pgn", "analyse", "train",
    ] {
        assert!(
            firsts.contains(sub),
            "README names no `jiangjun {sub}`: {firsts:?}"
        );
    }
    for first in &firsts {
        let (code, out, err) = run(&[*first, "--help"]);
        assert_eq!(
            code, 0,
            "`jiangjun {first} --help` (named in README.md): {out}{err}"
        );
        // A group (book, pgn): the word after it must be one of its subcommands.
        if !out.contains("\nCommands:\n") {
            continue;
        }
        for (_, second) in named.iter().filter(|(f, _)| f == first) {
            let second = second
                .as_deref()
                .unwrap_or_else(|| panic!("README names `jiangjun {first}` without a subcommand"));
            let (code, out, err) = run(&[*first, second, "--help"]);
            assert_eq!(
                code, 0,
                "`jiangjun {first} {second} --help` (named in README.md): {out}{err}"
            );
        }
    }
}

/// The engine's `option` lines after `first` (`ucci` or `uci`), with its built-in book.
fn announced(first: &str) -> Vec<String> {
    let mut engine = Engine::start_with_book(None);
    engine.send(first);
    let lines = engine.until_exact(&format!("{first}ok"));
    engine.send("quit");
    engine.finish();
    lines
        .into_iter()
        .map(|l| l.text)
        .filter(|l| l.starts_with("option "))
        .collect()
}

/// The announcement of `name` among `lines`: the line, with `option ` (UCCI) or
/// `option name ` (UCI) and the name cut off.
fn find<'a>(lines: &'a [String], prefix: &str, name: &str) -> Option<&'a str> {
    lines.iter().find_map(|l| {
        l.strip_prefix(prefix)?
            .strip_prefix(name)?
            .strip_prefix(" type ")
    })
}

/// What an announcement gives as the default: `(button)` for a button.
fn announced_default(rest: &str) -> String {
    if rest.starts_with("button") {
        return "(button)".to_string();
    }
    let words: Vec<&str> = rest.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "default")
        .expect("a default");
    words[at + 1].to_string()
}

#[test]
fn every_option_in_the_readme_table_is_announced_with_its_default() {
    let ucci = announced("ucci");
    let uci = announced("uci");
    let table = README
        .split("## Engine options")
        .nth(1)
        .expect("README has an `## Engine options` section");
    let mut rows = 0;
    for row in table.lines().take_while(|l| !l.starts_with("## ")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        // | UCCI | UCI | default | what it does |, header and rule rows left out.
        if cells.len() < 5 || !cells[1].starts_with('`') && cells[1] != "-" {
            continue;
        }
        let name = |cell: &str| cell.trim_matches('`').to_string();
        let default = name(cells[3]);
        let mut defaults = Vec::new();
        if cells[1] != "-" {
            let rest = find(&ucci, "option ", &name(cells[1]))
                .unwrap_or_else(|| panic!("UCCI does not announce {}: {ucci:?}", cells[1]));
            defaults.push(announced_default(rest));
        }
        if cells[2] != "-" {
            let rest = find(&uci, "option name ", &name(cells[2]))
                .unwrap_or_else(|| panic!("UCI does not announce {}: {uci:?}", cells[2]));
            defaults.push(announced_default(rest));
        }
        // The table's default is the first protocol's.
        let first = defaults.first().expect("a row names at least one option");
        assert_eq!(&default, first, "README's default for {row}");
        rows += 1;
    }
    assert!(rows >= 20, "the options table has {rows} rows");
}

/// Issue 60 item 8: the README's "see it think" example, run as written (default book and
/// all), searches: it prints `info depth 10` lines, not a book move at depth 0.
#[test]
fn the_see_it_think_example_searches() {
    let line = README
        .lines()
        .find(|l| l.starts_with("printf '") && l.ends_with("' | jiangjun"))
        .expect("README shows a printf ... | jiangjun example");
    let script = &line["printf '".len()..line.len() - "' | jiangjun".len()];
    let commands: Vec<&str> = script.split("\\n").filter(|c| !c.is_empty()).collect();
    let depth = commands
        .iter()
        .find_map(|c| c.strip_prefix("go depth "))
        .expect("a go depth command");
    let mut e = Engine::start_with_book(None);
    e.send_all(&commands);
    let lines: Vec<String> = e.until_answer().into_iter().map(|l| l.text).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("info depth {depth} "))),
        "{line}: {lines:?}"
    );
    e.send("quit");
    e.wait_exit(std::time::Duration::from_secs(5));
}
