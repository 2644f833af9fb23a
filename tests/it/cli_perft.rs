//! The `jiangjun perft` subcommand, run as a user runs it.

use crate::cli_support;
use cli_support::run;

#[test]
fn perft_prints_nodes_last() {
    let (code, out, _) = run(&["perft", "3"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"nodes 79666"));
    assert!(lines[lines.len() - 2].contains("nps"));
}

/// Issue 60 item 3: the help names the last two lines as they are printed (scripts read
/// `nodes N`, so the output stays and the help follows it).
#[test]
fn perft_help_describes_its_output() {
    let (_, help, _) = run(&["perft", "--help"]);
    assert!(
        help.contains("`time <ms> ms, <nps> nps`") && help.contains("`nodes <nodes>`"),
        "{help}"
    );
    let (_, out, _) = run(&["perft", "2"]);
    let lines: Vec<&str> = out.lines().collect();
    let [.., time, nodes] = lines[..] else {
        panic!("{out}")
    };
    let t: Vec<&str> = time.split(' ').collect();
    assert!(
        t.len() == 5 && t[0] == "time" && t[2] == "ms," && t[4] == "nps",
        "{time}"
    );
    assert!(
        t[1].parse::<u64>().is_ok() && t[3].parse::<u64>().is_ok(),
        "{time}"
    );
    assert_eq!(nodes, "nodes 1920");
}

#[test]
fn perft_divide_lists_root_moves() {
    let fen = "3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1";
    let (code, out, _) = run(&["perft", "2", "--fen", fen, "--divide"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().last(), Some("nodes 0"));
    let (code, out, _) = run(&["perft", "2", "--divide"]);
    assert_eq!(code, 0);
    let moves: Vec<&str> = out
        .lines()
        .filter(|l| l.len() > 4 && !l.starts_with("nodes") && !l.starts_with("time"))
        .collect();
    assert_eq!(moves.len(), 44);
    let sum: u64 = moves
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 1920);
    assert_eq!(out.lines().last(), Some("nodes 1920"));
}

#[test]
fn bad_input_exits_2_with_a_message() {
    for args in [
        vec!["perft"],
        vec!["perft", "x"],
        vec!["perft", "-1"],
        vec!["perft", "99"],
        vec!["perft", "2", "--fen"],
        vec!["perft", "2", "--fen", "rubbish"],
        vec!["perft", "2", "--fen", "4k4/9/9/9/9/9/9/9/9/4K4 w"],
        vec!["nonsense"],
    ] {
        let (code, out, err) = run(&args);
        assert_eq!(code, 2, "{args:?}");
        assert!(out.is_empty(), "{args:?}");
        assert!(!err.is_empty(), "{args:?}");
        assert!(!err.contains("panicked"), "{args:?}");
    }
}
