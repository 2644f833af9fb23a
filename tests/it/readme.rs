//! README.md names only what exists: every `jiangjun <subcommand>` it writes (and every
//! subcommand of a group, such as `jiangjun pgn check`) answers `--help` with status 0,
//! every row of its options table names options the engine announces, under `ucci` and under
//! `uci`, with the default the table gives, and the options its XBoard paragraph says XBoard
//! is offered are the engine's `feature option` lines. README.zh-CN.md has the same options
//! table and shows only commands README.md shows. `scripts/readme_check.sh` runs the README's
//! commands themselves; this is the cheap part of that check, kept in the suite.

use crate::cli_support::run;
use crate::protocol_support::Engine;
use std::collections::BTreeSet;

const README: &str = include_str!("../../README.md");

/// The README for Chinese players, README.zh-CN.md: the same options and commands.
const README_ZH: &str = include_str!("../../README.zh-CN.md");

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
        if !out.contains("\nSubcommands:\n") {
            continue;
        }
        for (_, second) in named.iter().filter(|(f, _)| f == first) {
            // `help` alone is the general help; every other group needs its subcommand.
            let Some(second) = second.as_deref() else {
                assert_eq!(
                    *first, "help",
                    "README names `jiangjun {first}` without a subcommand"
                );
                continue;
            };
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

/// One row of an options table (`| UCCI | UCI | default | what it does |`): the names
/// (`None` for `-`) and the default, as written.
struct OptionRow {
    ucci: Option<String>,
    uci: Option<String>,
    default: String,
    row: String,
}

/// The rows of the options table in the section `heading` of `readme`, header and rule rows
/// left out.
fn option_rows(readme: &str, heading: &str) -> Vec<OptionRow> {
    let table = readme
        .split(heading)
        .nth(1)
        .unwrap_or_else(|| panic!("no `{heading}` section"));
    let name = |cell: &str| (cell != "-").then(|| cell.trim_matches('`').to_string());
    table
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .filter_map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            if cells.len() < 5 || !cells[1].starts_with('`') && cells[1] != "-" {
                return None;
            }
            Some(OptionRow {
                ucci: name(cells[1]),
                uci: name(cells[2]),
                default: cells[3].trim_matches('`').to_string(),
                row: row.to_string(),
            })
        })
        .collect()
}

/// Every row names options the engine announces, under `ucci` and under `uci`, and gives the
/// default of the first protocol that announces it.
fn assert_announced_with_defaults(rows: &[OptionRow]) {
    let ucci = announced("ucci");
    let uci = announced("uci");
    for r in rows {
        let mut defaults = Vec::new();
        if let Some(n) = &r.ucci {
            let rest = find(&ucci, "option ", n)
                .unwrap_or_else(|| panic!("UCCI does not announce {n}: {ucci:?}"));
            defaults.push(announced_default(rest));
        }
        if let Some(n) = &r.uci {
            let rest = find(&uci, "option name ", n)
                .unwrap_or_else(|| panic!("UCI does not announce {n}: {uci:?}"));
            defaults.push(announced_default(rest));
        }
        let first = defaults.first().expect("a row names at least one option");
        assert_eq!(&r.default, first, "the default in {}", r.row);
    }
}

#[test]
fn every_option_in_the_readme_table_is_announced_with_its_default() {
    let rows = option_rows(README, "## Engine options");
    assert!(
        rows.len() >= 20,
        "the options table has {} rows",
        rows.len()
    );
    assert_announced_with_defaults(&rows);
}

/// README.zh-CN.md's options table has README.md's rows (names and defaults, in order), and so
/// holds to the engine as that one does.
#[test]
fn the_chinese_readmes_option_table_is_the_engines() {
    let rows = option_rows(README_ZH, "## 引擎选项");
    let names = |rows: &[OptionRow]| -> Vec<(Option<String>, Option<String>, String)> {
        rows.iter()
            .map(|r| (r.ucci.clone(), r.uci.clone(), r.default.clone()))
            .collect()
    };
    assert_eq!(
        names(&rows),
        names(&option_rows(README, "## Engine options")),
        "README.zh-CN.md's options table differs from README.md's"
    );
    assert_announced_with_defaults(&rows);
}

/// The lines of the code blocks of `readme` (```sh, ```text), comments and blank lines left
/// out.
fn code_lines(readme: &str) -> BTreeSet<&str> {
    let mut lines = BTreeSet::new();
    let mut inside = false;
    for line in readme.lines().map(str::trim) {
        if line.starts_with("```") {
            inside = !inside;
        } else if inside && !line.is_empty() && !line.starts_with('#') {
            lines.insert(line);
        }
    }
    lines
}

/// Every command README.zh-CN.md shows is one README.md shows, word for word, so that
/// `scripts/readme_check.sh`, which runs README.md's, runs them all; and the two link each
/// other at the top.
#[test]
fn the_chinese_readmes_commands_are_the_english_ones() {
    let english = code_lines(README);
    let chinese = code_lines(README_ZH);
    assert!(chinese.len() >= 20, "{chinese:?}");
    let missing: Vec<&&str> = chinese.difference(&english).collect();
    assert!(missing.is_empty(), "not in README.md: {missing:?}");
    let top = |readme: &'static str| readme.lines().take(5).collect::<Vec<_>>().join("\n");
    assert!(top(README).contains("(README.zh-CN.md)"), "{}", top(README));
    assert!(top(README_ZH).contains("(README.md)"), "{}", top(README_ZH));
}

/// The names of the engine's `feature option` lines, after `xboard` and `protover 2`.
fn offered_to_xboard() -> BTreeSet<String> {
    let mut engine = Engine::start_with_book(None);
    engine.send_all(&["xboard", "protover 2"]);
    let lines = engine.until_exact("feature done=1");
    engine.send("quit");
    engine.finish();
    lines
        .iter()
        .filter_map(|l| l.text.strip_prefix("feature option=\"")?.split(" -").next())
        .map(str::to_string)
        .collect()
}

/// README's XBoard paragraph (and README.zh-CN.md's): XBoard is offered the table's options
/// that have a UCI name, under that name, but the ones it names as left out, and two
/// UCCI-only ones by UCI's spellings.
#[test]
fn the_options_readme_says_xboard_offers_are_the_ones_offered() {
    let left_out = ["Ponder", "UCI_ShowWDL", "Rank Origin", "UCI_Variant"];
    let added = ["AllowDraw", "AllowResign"];
    for (readme, start, end) in [
        (README, "**XBoard and WinBoard**", "\n\nTo see it think"),
        (README_ZH, "**XBoard 和 WinBoard**", "\n\n不用界面"),
    ] {
        let paragraph = readme
            .split(start)
            .nth(1)
            .and_then(|rest| rest.split(end).next())
            .unwrap_or_else(|| panic!("no {start} paragraph"));
        for name in left_out.iter().chain(&added) {
            assert!(
                paragraph.contains(&format!("`{name}`")),
                "the {start} paragraph does not name {name}"
            );
        }
    }
    let mut expected: BTreeSet<String> = option_rows(README, "## Engine options")
        .into_iter()
        .filter_map(|r| r.uci)
        .filter(|n| !left_out.contains(&n.as_str()))
        .collect();
    expected.extend(added.map(String::from));
    assert_eq!(offered_to_xboard(), expected);
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

/// README.md stays short enough to read through (details belong in docs/, which it links),
/// and README.zh-CN.md has its sections, in the same order.
#[test]
fn the_readme_is_short_and_the_chinese_one_has_its_sections() {
    let lines = README.lines().count();
    assert!(
        lines <= 200,
        "README.md has {lines} lines: move detail into docs/usage.md, docs/gui.md or the like"
    );
    let sections = [
        ("## Build", "## 编译和安装"),
        ("## Use it in a GUI", "## 在界面中使用"),
        ("## Engine options", "## 引擎选项"),
        ("## Rules", "## 遵循的规则"),
        ("## Strength", "## 棋力"),
        ("## Command-line tools", "## 命令行工具"),
        ("## Documentation", "## 文档"),
        ("## Licence and credits", "## 许可证和致谢"),
    ];
    let headings = |readme: &str| -> Vec<String> {
        readme
            .lines()
            .filter(|l| l.starts_with("## "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(headings(README), sections.map(|(en, _)| en.to_string()));
    assert_eq!(headings(README_ZH), sections.map(|(_, zh)| zh.to_string()));
}
