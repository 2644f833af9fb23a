//! `jiangjun <subcommand> --help` prints that subcommand's usage and exits 0; an unknown flag
//! exits 2 with the error and the usage on stderr, and runs nothing.

use crate::cli_support;
use cli_support::run;

/// Every subcommand, and a line its usage must contain.
const SUBCOMMANDS: [(&str, &str); 9] = [
    ("perft", "jiangjun perft <depth>"),
    ("bench", "jiangjun bench [depth]"),
    ("judge", "jiangjun judge "),
    ("book", "jiangjun book probe"),
    ("selfplay", "jiangjun selfplay --out F"),
    ("datagen", "jiangjun datagen --out F"),
    ("tune", "jiangjun tune --data F"),
    ("match", "jiangjun match --engine SPEC"),
    ("tournament", "jiangjun tournament --engine SPEC"),
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
    assert!(out.contains("jiangjun book build") && out.contains("jiangjun book lines"));
    assert!(!out.contains("jiangjun selfplay"), "{out}");
    // The general help still lists them all.
    let (code, out, _) = run(&["help"]);
    assert_eq!(code, 0);
    for (_, line) in SUBCOMMANDS {
        assert!(out.contains(line), "{out}");
    }
}

#[test]
fn unknown_flags_exit_2_with_the_usage() {
    for (sub, line) in SUBCOMMANDS {
        let mut args = vec![sub];
        // Arguments a subcommand needs before it looks at the rest.
        match sub {
            "perft" => args.push("1"),
            "book" => args.push("probe"),
            _ => {}
        }
        args.push("--no-such-flag");
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.contains("--no-such-flag"), "{args:?}: {err}");
        assert!(
            err.contains("usage:") && err.contains(line),
            "{args:?}: {err}"
        );
        assert!(out.is_empty(), "{args:?} ran: {out}");
    }
    let (code, _, err) = run(&["help", "no-such-subcommand"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown subcommand"), "{err}");
    let (code, _, err) = run(&["no-such-subcommand", "--help"]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown subcommand"), "{err}");
}
