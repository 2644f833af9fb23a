//! `jiangjun <subcommand> --help` prints that subcommand's usage and exits 0; an unknown flag
//! exits 2 with the error and the usage on stderr, and runs nothing.

use crate::cli_support;
use cli_support::run;

/// Every subcommand, and a line its usage must contain.
const SUBCOMMANDS: [(&str, &str); 10] = [
    ("params", "usage: jiangjun params [OPTIONS]"),
    ("perft", "usage: jiangjun perft [OPTIONS] <depth>"),
    ("bench", "usage: jiangjun bench [OPTIONS] [depth]"),
    ("judge", "usage: jiangjun judge [OPTIONS] --moves <MOVES>"),
    ("book", "usage: jiangjun book <SUBCOMMAND>"),
    ("datagen", "usage: jiangjun datagen [OPTIONS] --out <F>"),
    ("tune", "usage: jiangjun tune [OPTIONS] --data <F[,F...]>"),
    ("match", "usage: jiangjun match [OPTIONS]"),
    ("tournament", "usage: jiangjun tournament [OPTIONS]"),
    ("tb", "usage: jiangjun tb <SUBCOMMAND>"),
];

#[test]
fn help_prints_the_subcommands_usage() {
    for (sub, line) in SUBCOMMANDS {
        for args in [
            vec![sub, "--help"],
            vec![sub, "-h"],
            vec!["help", sub],
            vec![sub, "--depth", "3", "--help"],
        ] {
            let (code, out, err) = run(&args);
            assert_eq!(code, 0, "{args:?}: {err}");
            assert!(out.starts_with("usage:"), "{args:?}: {out}");
            assert!(out.contains(line), "{args:?}: {out}");
            assert!(err.is_empty(), "{args:?}: {err}");
        }
    }
    // Only that subcommand's entry, not the whole list.
    let (_, out, _) = run(&["perft", "--help"]);
    assert!(!out.contains("jiangjun bench"), "{out}");
    let (_, out, _) = run(&["book", "--help"]);
    assert!(
        out.contains("\n  build ") && out.contains("\n  lines "),
        "{out}"
    );
    assert!(!out.contains("datagen"), "{out}");
    // The general help lists them all, each with its summary.
    for args in [vec!["help"], vec!["--help"], vec!["-h"]] {
        let (code, out, _) = run(&args);
        assert_eq!(code, 0);
        assert!(out.starts_with("usage: jiangjun\n"), "{out}");
        for (sub, _) in SUBCOMMANDS {
            assert!(out.contains(&format!("\n  {sub} ")), "{sub}: {out}");
        }
    }
}

#[test]
fn unknown_flags_exit_2_with_the_usage() {
    for (sub, line) in SUBCOMMANDS {
        let mut args = vec![sub];
        // Arguments a subcommand needs before it looks at the rest.
        match sub {
            "perft" => args.push("1"),
            "book" | "tb" => args.push("probe"),
            _ => {}
        }
        args.push("--no-such-flag");
        // A group's subcommand has its own usage.
        let line = match sub {
            "book" => "usage: jiangjun book probe [OPTIONS]",
            "tb" => "usage: jiangjun tb probe [OPTIONS] --fen <FEN> --dir <DIR>",
            _ => line,
        };
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("--no-such-flag"), "{args:?}: {err}");
        assert!(err.contains(line), "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?} ran: {out}");
    }
    let (code, _, err) = run(&["help", "no-such-subcommand"]);
    assert_eq!(code, 2);
    assert!(err.contains("unrecognized subcommand"), "{err}");
    let (code, _, err) = run(&["no-such-subcommand", "--help"]);
    assert_eq!(code, 2);
    assert!(err.contains("unrecognized subcommand"), "{err}");
}

#[test]
fn version_names_the_commit_network_and_book() {
    for flag in ["--version", "-V"] {
        let (code, out, err) = run(&[flag]);
        assert_eq!(code, 0, "{flag}: {err}");
        assert!(err.is_empty(), "{flag}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[0],
            format!("jiangjun {}", env!("CARGO_PKG_VERSION")),
            "{out}"
        );
        assert!(lines[1].starts_with("commit "), "{out}");
        assert!(lines[2].starts_with("network built-in "), "{out}");
        assert!(lines[3].starts_with("book built-in "), "{out}");
    }
}

#[test]
fn a_groups_subcommand_has_its_own_help() {
    for args in [
        vec!["pgn", "check", "--help"],
        vec!["pgn", "help", "check"],
        vec!["help", "pgn", "check"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(
            out.starts_with("usage: jiangjun pgn check [OPTIONS] <IN>"),
            "{args:?}: {out}"
        );
        assert!(!out.contains("convert"), "{args:?}: {out}");
        assert!(out.contains("--encoding"), "{args:?}: {out}");
    }
    // The group's own help still lists all of them.
    let (code, out, _) = run(&["pgn", "help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("\n  convert ") && out.contains("\n  judge "),
        "{out}"
    );
    // A subcommand the group does not have is an error, not help.
    for args in [
        vec!["book", "convert", "--help"],
        vec!["pgn", "help", "nosuch"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(err.contains("unrecognized subcommand"), "{args:?}: {err}");
    }
}

#[test]
fn help_says_what_the_defaults_and_encodings_are() {
    let (_, out, _) = run(&["bench", "--help"]);
    assert!(out.contains("default depth 9"), "{out}");
    assert!(out.contains("[default: 9]"), "{out}");
    let (_, out, _) = run(&["pgn", "convert", "--help"]);
    assert!(out.contains("what is written is always UTF-8"), "{out}");
    assert!(out.contains("The input file's encoding"), "{out}");
}

#[test]
fn judge_without_moves_is_a_usage_error() {
    let (code, out, err) = run(&["judge"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("--moves"), "{err}");
    // An explicit empty list asks about the position alone.
    let (code, out, _) = run(&["judge", "--moves", ""]);
    assert_eq!(code, 0);
    assert!(out.starts_with("verdict none"), "{out}");
}

/// `cargo install` must not install the test double: its target needs a feature that only
/// the package's dev-dependency on itself turns on.
#[test]
fn the_test_double_is_not_installed() {
    let manifest = include_str!("../../Cargo.toml");
    let double = manifest
        .split("[[bin]]")
        .find(|block| block.contains("name = \"random_engine\""))
        .expect("the random_engine target");
    assert!(
        double.contains("required-features = [\"test-doubles\"]"),
        "{double}"
    );
    let features = manifest.split("[features]").nth(1).unwrap();
    let features = features.split("\n[").next().unwrap();
    assert!(!features.contains("default"), "{features}");
    let dev = manifest.split("[dev-dependencies]").nth(1).unwrap();
    assert!(
        dev.contains("jiangjun = { path = \".\", features = [\"test-doubles\"] }"),
        "{dev}"
    );
}

/// Issue 60 item 5: a group without its subcommand says so once, then its usage once.
#[test]
fn a_group_without_a_subcommand_says_so_once() {
    for group in ["book", "pgn"] {
        let (code, out, err) = run(&[group]);
        assert_eq!(code, 2, "{err}");
        assert!(out.is_empty(), "{out}");
        let usage = format!("usage: jiangjun {group} <SUBCOMMAND>");
        assert_eq!(err.matches(&usage).count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("jiangjun {group}: a subcommand is needed: ")),
            "{err}"
        );
    }
}

/// Issue 60 item 10: a flag that is not one is called an argument, not a subcommand, and
/// `--version` with anything after it is bad usage (status 2), as `-V` is. `help help` is
/// clap's help of `help`.
#[test]
fn bad_top_level_usage_exits_2() {
    let (code, out, _) = run(&["help", "help"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("usage: jiangjun help [SUBCOMMAND]"),
        "{out}"
    );
    for args in [vec!["--bogus"], vec!["-x"], vec!["--bogus", "perft"]] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.starts_with(&format!("jiangjun: unexpected argument '{}'", args[0])),
            "{args:?}: {err}"
        );
        assert!(!err.contains("subcommand '-"), "{args:?}: {err}");
    }
    for args in [
        vec!["--version", "--bogus"],
        vec!["-V", "x"],
        vec!["--version", "--version"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert!(
            err.starts_with("jiangjun: ") && err.contains(&format!("'{}'", args[1])),
            "{args:?}: {err}"
        );
    }
}
