//! Command-line subcommands. `main.rs` only forwards its arguments here; each subcommand
//! returns the process exit status (0 success, 2 bad usage or input), never panics on input.

use crate::board::{perft, Position};
use std::io::Write;
use std::time::Instant;

/// Usage text for `jiangjun help`.
pub const USAGE: &str = "\
usage:
  jiangjun                         speak UCCI/UCI on stdin/stdout (chosen by the first command)
  jiangjun perft <depth> [--fen \"<FEN>\"] [--divide]
                                   count the leaf nodes of the legal-move tree
  jiangjun bench [depth]           search fixed positions; last line: <nodes> nodes <nps> nps
  jiangjun judge [--fen \"<FEN>\"] --moves \"<m1 m2 ...>\" [--rules cxa2011|axf] [--strict] [--json]
                                   rule on a game's repetitions (2011 rules 23-26) and limits;
                                   first line: verdict <red_loses|black_loses|draw|none> <clause>";

/// Runs the subcommand in `args` (without the program name). `None` means: no subcommand,
/// run the protocol loop.
pub fn run(args: &[String]) -> Option<i32> {
    let first = args.first()?;
    Some(match first.as_str() {
        "perft" => perft_cmd(&args[1..]),
        "bench" => bench_cmd(&args[1..]),
        "judge" => judge_cmd(&args[1..]),
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            0
        }
        other => {
            eprintln!("jiangjun: unknown subcommand '{other}'\n{USAGE}");
            2
        }
    })
}

/// Looks for `--name value` or `--name=value`.
fn take_option(args: &[String], name: &str) -> Result<(Option<String>, Vec<String>), String> {
    let mut value = None;
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == name {
            match args.get(i + 1) {
                Some(v) => value = Some(v.clone()),
                None => return Err(format!("{name} needs a value")),
            }
            i += 2;
            continue;
        }
        if let Some(v) = a.strip_prefix(name).and_then(|s| s.strip_prefix('=')) {
            value = Some(v.to_string());
        } else {
            rest.push(a.clone());
        }
        i += 1;
    }
    Ok((value, rest))
}

fn perft_cmd(args: &[String]) -> i32 {
    match perft_inner(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("jiangjun perft: {e}\n{USAGE}");
            2
        }
    }
}

fn perft_inner(args: &[String]) -> Result<(), String> {
    let (fen, rest) = take_option(args, "--fen")?;
    let divide = rest.iter().any(|a| a == "--divide");
    let positional: Vec<&String> = rest.iter().filter(|a| *a != "--divide").collect();
    let depth = match positional.as_slice() {
        [d] => d
            .parse::<u32>()
            .map_err(|_| format!("depth '{d}' is not a whole number"))?,
        [] => return Err("missing depth".into()),
        _ => return Err(format!("unexpected arguments {positional:?}")),
    };
    if depth > 12 {
        return Err(format!("depth {depth} is too deep (at most 12)"));
    }
    let mut pos = match fen {
        Some(f) => Position::from_fen(&f).map_err(|e| e.to_string())?,
        None => Position::startpos(),
    };
    let start = Instant::now();
    let out = std::io::stdout();
    let mut out = out.lock();
    let nodes = if divide {
        let mut total = 0;
        for (m, n) in perft::divide(&mut pos, depth) {
            let _ = writeln!(out, "{m} {n}");
            total += n;
        }
        total
    } else {
        perft::perft(&mut pos, depth)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        (nodes as f64 / secs) as u64
    } else {
        0
    };
    let _ = writeln!(
        out,
        "time {} ms, {} nps",
        (secs * 1000.0).round() as u64,
        nps
    );
    let _ = writeln!(out, "nodes {nodes}");
    Ok(())
}

fn bench_cmd(args: &[String]) -> i32 {
    let depth = match args {
        [] => crate::search::bench::DEFAULT_DEPTH,
        [d] => match d.parse::<i32>() {
            Ok(d) if (1..=30).contains(&d) => d,
            _ => {
                eprintln!("jiangjun bench: depth '{d}' must be a whole number from 1 to 30");
                return 2;
            }
        },
        _ => {
            eprintln!("jiangjun bench: too many arguments\n{USAGE}");
            return 2;
        }
    };
    crate::search::bench::run(depth, |line| println!("{line}"));
    0
}

/// `judge`: the repetition referee on a game given on the command line.
fn judge_cmd(args: &[String]) -> i32 {
    match judge_inner(args) {
        Ok(out) => {
            print!("{out}");
            0
        }
        Err(e) => {
            eprintln!("jiangjun judge: {e}");
            2
        }
    }
}

fn judge_inner(args: &[String]) -> Result<String, String> {
    use crate::rules::{judge_with, Count, RefereeOptions, RuleSet};
    let (fen, rest) = take_option(args, "--fen")?;
    let (moves, rest) = take_option(&rest, "--moves")?;
    let (rules, rest) = take_option(&rest, "--rules")?;
    let json = rest.iter().any(|a| a == "--json");
    let strict = rest.iter().any(|a| a == "--strict");
    if let Some(a) = rest.iter().find(|a| *a != "--json" && *a != "--strict") {
        return Err(format!("unexpected argument '{a}'"));
    }
    let rules = match rules.as_deref() {
        None | Some("cxa2011") | Some("cxa") => RuleSet::Cxa2011,
        Some("axf") => RuleSet::Axf,
        Some(other) => return Err(format!("unknown rule set '{other}' (cxa2011 or axf)")),
    };
    let moves: Vec<&str> = moves.as_deref().unwrap_or("").split_whitespace().collect();
    let opts = RefereeOptions {
        count: if strict { Count::Strict } else { Count::Third },
        ..RefereeOptions::default()
    };
    let fen = fen
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty() && *f != "startpos");
    let j = judge_with(fen, &moves, rules, opts).map_err(|e| e.to_string())?;
    Ok(if json {
        format!("{}\n", j.to_json())
    } else {
        j.to_text()
    })
}

/// The protocol loop on stdin/stdout. Until the UCCI front end lands, it says so.
pub fn run_protocol() -> i32 {
    eprintln!("jiangjun: the UCCI loop is not built yet; try `jiangjun perft 4`");
    2
}
