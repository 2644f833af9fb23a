//! Command-line subcommands. `main.rs` only forwards its arguments here; each subcommand
//! returns the process exit status (0 success, 2 bad usage or input), never panics on input.

use crate::board::{perft, Position};
use std::io::Write;
use std::time::Instant;

/// Usage text for `jiangjun help`.
pub const USAGE: &str = "\
usage:
  jiangjun                         speak UCCI/UCI on stdin/stdout (chosen by the first command)
  jiangjun help [SUBCOMMAND]       this text, or one subcommand's usage (also SUBCOMMAND --help)
  jiangjun perft <depth> [--fen \"<FEN>\"] [--divide]
                                   count the leaf nodes of the legal-move tree
  jiangjun bench [depth]           search fixed positions; last line: <nodes> nodes <nps> nps
  jiangjun bench [depth] --evalfile F | --random-network SEED
                                   the bench with the hand-written evaluation, then with the
                                   network; last line: the ratio of their nodes per second
  jiangjun judge [--fen \"<FEN>\"] --moves \"<m1 m2 ...>\" [--rules cxa2011|axf] [--strict] [--nine-rounds] [--json]
                                   rule on a game's repetitions (2011 rules 23-26) and limits;
                                   first line: verdict <red_loses|black_loses|draw|none> <clause>
  jiangjun book build [--out F] [--seeds F] [--depth N] [--plies N] [--positions N] [--margin CP] [--side-cost N]
                                   grow the opening book by the engine's own analysis
  jiangjun book probe [--book F] [--fen \"<FEN>\"] [--moves \"m1 m2 ..\"]
                                   list the book moves of a position (our format or BOOK.DAT)
  jiangjun book lines [--book F] [--plies N] [--min-plies N]
                                   every book line from the start (default 8 plies, leaves
                                   from 4): an opening suite for `jiangjun match --openings`
  jiangjun selfplay --out F [--games N] [--nodes N] [--seed S] [--openings F]
                                   self-play positions with results, for tuning
  jiangjun datagen --out F [--games N] [--nodes N | --depth N] [--seed S] [--random-plies K]
                  [--openings F] [--shard I/N] [--threads T] [--max-plies N] [--score-limit CP]
                                   self-play training data for the neural evaluation (binary
                                   records, see README); shards of one seed concatenate
  jiangjun train --data F[,F...] --out NET [--epochs N] [--batch N] [--lr X]
                  [--schedule cosine|step|constant] [--lr-floor X] [--lr-step E] [--lr-gamma X]
                  [--weight-decay X] [--lambda X] [--scale CP] [--val-every K] [--buffer N]
                  [--seed S] [--threads T] [--checkpoint-dir D]
                                   train the neural evaluation on datagen files; writes the
                                   quantized network to NET after every epoch
  jiangjun tune --data F[,F...] [--out F] [--init F] [--rounds N] [--steps N] [--l2 X]
                  [--l2-tables X] [--validate F[,F...]] [--all]
                                   Texel-tune the evaluation weights on self-play data
  jiangjun pgn convert IN [-o OUT] --to chinese|wxf|iccs [--script simplified|traditional]
                  [--encoding utf-8|gb18030|gbk|big5] [--verbose]
                                   rewrite PGN (any notation or encoding) or XQF games as PGN
  jiangjun pgn check IN [--encoding E] [--verbose]
                                   replay every game; name the first bad move of each (exit 1)
  jiangjun pgn judge IN [--rules cxa2011|axf] [--json] [--encoding E]
                                   the referee's ruling on each game against its result
  jiangjun match --engine SPEC --engine SPEC [options]
                                   two-engine match (see `jiangjun match --help`)
  jiangjun tournament --engine SPEC ... [options]
                                   round robin (see `jiangjun tournament --help`)";

/// The usage of one subcommand: for `match` and `tournament` their own text, for the others
/// their entry in [`USAGE`] (the line naming it and the lines indented under it), so a new
/// subcommand gets its `--help` from the line it adds there.
pub fn usage_of(sub: &str) -> Option<String> {
    if sub == "match" || sub == "tournament" {
        return Some(crate::tournament::command::USAGE.to_string());
    }
    let head = format!("  jiangjun {sub}");
    let mut lines = Vec::new();
    let mut inside = false;
    for line in USAGE.lines() {
        if line.starts_with("  jiangjun") {
            inside = line == head || line.starts_with(&format!("{head} "));
        }
        if inside {
            lines.push(line);
        }
    }
    (!lines.is_empty()).then(|| format!("usage:\n{}", lines.join("\n")))
}

/// Does the argument list ask for help?
fn wants_help(args: &[String]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

/// Runs the subcommand in `args` (without the program name). `None` means: no subcommand,
/// run the protocol loop.
pub fn run(args: &[String]) -> Option<i32> {
    let first = args.first()?;
    // `jiangjun <sub> --help` (anywhere among its arguments) and `jiangjun help <sub>`.
    let help_for = match first.as_str() {
        "help" | "--help" | "-h" => args.get(1).map(String::as_str),
        sub if wants_help(&args[1..]) => Some(sub),
        _ => None,
    };
    if let Some(sub) = help_for {
        return Some(match usage_of(sub) {
            Some(usage) => {
                println!("{usage}");
                0
            }
            None => {
                eprintln!("jiangjun: unknown subcommand '{sub}'\n{USAGE}");
                2
            }
        });
    }
    Some(match first.as_str() {
        "perft" => wrap("perft", perft_inner(&args[1..])),
        "bench" => bench_cmd(&args[1..]),
        "judge" => judge_cmd(&args[1..]),
        "book" => wrap("book", book_inner(&args[1..])),
        "selfplay" => wrap("selfplay", selfplay_inner(&args[1..])),
        "datagen" => wrap("datagen", datagen_inner(&args[1..])),
        "train" => wrap("train", train_inner(&args[1..])),
        "tune" => wrap("tune", tune_inner(&args[1..])),
        "match" => match_cmd(&args[1..]),
        "tournament" => tournament_cmd(&args[1..]),
        "pgn" => crate::tools::records::main(&args[1..]),
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

/// The book at `path`, or the one the engine would find by default.
fn load_book(path: Option<String>) -> Result<crate::book::Book, String> {
    use crate::book::{self, Book};
    match path {
        Some(p) => Book::load(std::path::Path::new(&p)).map_err(|e| e.to_string()),
        None => book::load_default().ok_or_else(|| "no book found (try --book)".to_string()),
    }
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

fn perft_inner(args: &[String]) -> Result<(), String> {
    let (fen, rest) = take_option(args, "--fen")?;
    unknown_option(&rest, &["--divide"])?;
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
    use crate::search::nnue::FloatNetwork;
    let (args, net) = match args {
        [rest @ .., flag, value] if flag == "--evalfile" => {
            match crate::protocol::evalfile::load(value) {
                Ok(net) => (rest, Some(net)),
                Err(e) => return usage_error("bench", &e.to_string()),
            }
        }
        [rest @ .., flag, seed] if flag == "--random-network" => match seed.parse::<u64>() {
            Ok(s) => (rest, Some(FloatNetwork::random(s).quantize())),
            Err(_) => {
                return usage_error(
                    "bench",
                    &format!("--random-network '{seed}' must be a whole number"),
                )
            }
        },
        _ => (args, None),
    };
    if let Err(e) = unknown_option(args, &[]) {
        return usage_error("bench", &e);
    }
    let depth = match args {
        [] => crate::tools::bench::DEFAULT_DEPTH,
        [d] => match d.parse::<i32>() {
            Ok(d) if (1..=30).contains(&d) => d,
            _ => {
                return usage_error(
                    "bench",
                    &format!("depth '{d}' must be a whole number from 1 to 30"),
                )
            }
        },
        _ => return usage_error("bench", "too many arguments"),
    };
    let out = |line: &str| println!("{line}");
    match net {
        Some(net) => {
            crate::tools::bench::compare(depth, std::sync::Arc::new(net), out);
        }
        None => {
            crate::tools::bench::run(depth, None, out);
        }
    }
    0
}

/// `judge`: the repetition referee on a game given on the command line.
fn judge_cmd(args: &[String]) -> i32 {
    match judge_inner(args) {
        Ok(out) => {
            print!("{out}");
            0
        }
        Err(e) => usage_error("judge", &e),
    }
}

fn judge_inner(args: &[String]) -> Result<String, String> {
    use crate::rules::{judge_with, Count, RefereeOptions, RuleSet};
    let (fen, rest) = take_option(args, "--fen")?;
    let (moves, rest) = take_option(&rest, "--moves")?;
    let (rules, rest) = take_option(&rest, "--rules")?;
    let json = rest.iter().any(|a| a == "--json");
    let strict = rest.iter().any(|a| a == "--strict");
    let nine_rounds = rest.iter().any(|a| a == "--nine-rounds");
    let flags = ["--json", "--strict", "--nine-rounds"];
    unknown_option(&rest, &flags)?;
    if let Some(a) = rest.iter().find(|a| !flags.contains(&a.as_str())) {
        return Err(format!("unexpected argument '{a}'"));
    }
    let rules = match rules.as_deref() {
        None => RuleSet::Cxa2011,
        Some(r) => r.parse::<RuleSet>().map_err(|e| e.to_string())?,
    };
    let moves: Vec<&str> = moves.as_deref().unwrap_or("").split_whitespace().collect();
    let opts = RefereeOptions {
        count: if strict { Count::Strict } else { Count::Third },
        nine_rounds,
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

/// Prints an error the usual way and turns it into the exit status.
fn wrap(name: &str, r: Result<(), String>) -> i32 {
    match r {
        Ok(()) => 0,
        Err(e) => usage_error(name, &e),
    }
}

/// A bad command line: the error and the subcommand's usage on stderr, exit status 2.
fn usage_error(name: &str, error: &str) -> i32 {
    let usage = usage_of(name).unwrap_or_else(|| USAGE.to_string());
    eprintln!("jiangjun {name}: {error}\n{usage}");
    2
}

/// The first argument that looks like an option (`-x`, `--x`) but is not one of `known`.
/// Negative numbers are values, not options.
fn unknown_option(args: &[String], known: &[&str]) -> Result<(), String> {
    match args
        .iter()
        .find(|a| a.starts_with('-') && a.parse::<f64>().is_err() && !known.contains(&a.as_str()))
    {
        Some(a) => Err(format!("unknown option '{a}'")),
        None => Ok(()),
    }
}

fn selfplay_inner(args: &[String]) -> Result<(), String> {
    use crate::tools::selfplay;
    let (out, rest) = take_option(args, "--out")?;
    let (games, rest) = take_option(&rest, "--games")?;
    let (nodes, rest) = take_option(&rest, "--nodes")?;
    let (seed, rest) = take_option(&rest, "--seed")?;
    let (openings, rest) = take_option(&rest, "--openings")?;
    if let Some(x) = rest.first() {
        return Err(format!("unexpected argument '{x}'"));
    }
    let out = out.ok_or("--out is required")?;
    let openings = match openings {
        Some(p) => std::fs::read_to_string(&p)
            .map_err(|e| format!("cannot read {p}: {e}"))?
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
            .filter(|v| !v.is_empty())
            .collect(),
        None => Vec::new(),
    };
    let cfg = selfplay::Config {
        games: parse_num(games, "--games", 100)?,
        nodes: parse_num(nodes, "--nodes", 5000)?,
        random_plies: 4,
        seed: parse_num(seed, "--seed", 1)?,
        openings,
        max_plies: 300,
    };
    let start = Instant::now();
    let games = selfplay::run(&cfg, |done, total| {
        if done % 10 == 0 || done == total {
            eprintln!(
                "{done}/{total} games, {:.0} s",
                start.elapsed().as_secs_f64()
            );
        }
    });
    let mut text = String::new();
    let (mut positions, mut red, mut draws) = (0, 0, 0);
    for g in &games {
        for f in &g.positions {
            text.push_str(&format!("{f} | {:.1}\n", g.result));
            positions += 1;
        }
        if g.result > 0.75 {
            red += 1;
        } else if g.result > 0.25 {
            draws += 1;
        }
    }
    std::fs::write(&out, text).map_err(|e| format!("cannot write {out}: {e}"))?;
    println!(
        "wrote {out}: {} games (red wins {red}, draws {draws}), {positions} positions",
        games.len()
    );
    Ok(())
}

/// `datagen`: checks every argument before any game is played or the output is created.
fn datagen_inner(args: &[String]) -> Result<(), String> {
    use crate::tools::datagen::{self, Budget, Config, RecordWriter, Shard};
    let (out, rest) = take_option(args, "--out")?;
    let (games, rest) = take_option(&rest, "--games")?;
    let (nodes, rest) = take_option(&rest, "--nodes")?;
    let (depth, rest) = take_option(&rest, "--depth")?;
    let (seed, rest) = take_option(&rest, "--seed")?;
    let (random_plies, rest) = take_option(&rest, "--random-plies")?;
    let (openings, rest) = take_option(&rest, "--openings")?;
    let (shard, rest) = take_option(&rest, "--shard")?;
    let (threads, rest) = take_option(&rest, "--threads")?;
    let (max_plies, rest) = take_option(&rest, "--max-plies")?;
    let (score_limit, rest) = take_option(&rest, "--score-limit")?;
    if let Some(x) = rest.first() {
        return Err(format!("unexpected argument '{x}'"));
    }
    let d = Config::default();
    let budget = match (nodes, depth) {
        (Some(_), Some(_)) => return Err("give --nodes or --depth, not both".into()),
        (None, Some(dp)) => Budget::Depth(parse_in(Some(dp), "--depth", 0u64, 1..=30)? as i32),
        (n, None) => Budget::Nodes(parse_in(n, "--nodes", 5000u64, 1..=1 << 40)?),
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cfg = Config {
        games: parse_in(games, "--games", 100, 1..=u64::from(u32::MAX))? as u32,
        budget,
        seed: parse_num(seed, "--seed", d.seed)?,
        random_plies: parse_in(
            random_plies,
            "--random-plies",
            d.random_plies as u64,
            0..=200,
        )? as usize,
        shard: shard.as_deref().map_or(Ok(Shard::ALL), Shard::parse)?,
        threads: parse_in(threads, "--threads", cores as u64, 1..=256)? as usize,
        max_plies: parse_in(max_plies, "--max-plies", d.max_plies as u64, 1..=10_000)? as usize,
        score_limit: parse_in(
            score_limit,
            "--score-limit",
            d.score_limit as u64,
            0..=crate::search::score::DECISIVE_BOUND as u64,
        )? as i32,
        openings: match openings {
            Some(p) => read_opening_lines(&p)?,
            None => Vec::new(),
        },
        ..d
    };
    let out = out.ok_or("--out is required")?;
    let file = std::fs::File::create(&out).map_err(|e| format!("cannot create {out}: {e}"))?;
    let mut writer = RecordWriter::new(file);
    let total = cfg.shard.games(cfg.games).count();
    eprintln!(
        "datagen: {total} games (shard {}/{} of {}), {} per move, seed {}, {} threads",
        cfg.shard.index, cfg.shard.count, cfg.games, cfg.budget, cfg.seed, cfg.threads
    );
    let mut line = ProgressLine::new();
    let stats = datagen::generate(&cfg, &mut writer, |p| line.update(p))
        .map_err(|e| format!("writing {out}: {e}"))?;
    writer.finish().map_err(|e| format!("writing {out}: {e}"))?;
    line.finish();
    let endings: Vec<String> = datagen::Ending::ALL
        .iter()
        .zip(stats.endings)
        .filter(|(_, n)| *n > 0)
        .map(|(e, n)| format!("; {} {n}", e.name()))
        .collect();
    println!(
        "wrote {out}: {} games (red wins {}, draws {}, black wins {}{}), {} positions kept of {} searched (skipped: {} in check, {} best move a capture, {} decisive or beyond {} cp)",
        stats.games,
        stats.red_wins,
        stats.draws,
        stats.black_wins,
        endings.concat(),
        stats.kept,
        stats.searched,
        stats.skipped_in_check,
        stats.skipped_capture,
        stats.skipped_score,
        cfg.score_limit
    );
    Ok(())
}

/// `train`: checks every argument and that NET can be written before training starts.
fn train_inner(args: &[String]) -> Result<(), String> {
    use crate::tools::train::{self, Config, Schedule};
    let (data, rest) = take_option(args, "--data")?;
    let (out, rest) = take_option(&rest, "--out")?;
    let (epochs, rest) = take_option(&rest, "--epochs")?;
    let (batch, rest) = take_option(&rest, "--batch")?;
    let (lr, rest) = take_option(&rest, "--lr")?;
    let (schedule, rest) = take_option(&rest, "--schedule")?;
    let (floor, rest) = take_option(&rest, "--lr-floor")?;
    let (step, rest) = take_option(&rest, "--lr-step")?;
    let (gamma, rest) = take_option(&rest, "--lr-gamma")?;
    let (decay, rest) = take_option(&rest, "--weight-decay")?;
    let (lambda, rest) = take_option(&rest, "--lambda")?;
    let (scale, rest) = take_option(&rest, "--scale")?;
    let (val_every, rest) = take_option(&rest, "--val-every")?;
    let (buffer, rest) = take_option(&rest, "--buffer")?;
    let (seed, rest) = take_option(&rest, "--seed")?;
    let (threads, rest) = take_option(&rest, "--threads")?;
    let (checkpoints, rest) = take_option(&rest, "--checkpoint-dir")?;
    if let Some(x) = rest.first() {
        return Err(format!("unexpected argument '{x}'"));
    }
    let d = Config::default();
    let schedule = match schedule.as_deref() {
        None | Some("cosine") => Schedule::Cosine {
            floor: parse_in(floor, "--lr-floor", 0.05, 0.0..=1.0)?,
        },
        Some("step") => Schedule::Step {
            every: parse_in(step, "--lr-step", 4u64, 1..=1_000_000)? as u32,
            gamma: parse_in(gamma, "--lr-gamma", 0.3, 1e-6..=1.0)?,
        },
        Some("constant") => Schedule::Constant,
        Some(o) => {
            return Err(format!(
                "unknown --schedule '{o}' (cosine, step or constant)"
            ))
        }
    };
    let cfg = Config {
        data: data
            .ok_or("--data is required")?
            .split(',')
            .filter(|s| !s.is_empty())
            .map(Into::into)
            .collect(),
        epochs: parse_in(epochs, "--epochs", u64::from(d.epochs), 1..=100_000)? as u32,
        batch: parse_in(batch, "--batch", d.batch as u64, 1..=1 << 24)? as usize,
        lr: parse_in(lr, "--lr", d.lr, 1e-9..=10.0)?,
        schedule,
        weight_decay: parse_in(decay, "--weight-decay", d.weight_decay, 0.0..=10.0)?,
        lambda: parse_in(lambda, "--lambda", d.lambda, 0.0..=1.0)?,
        scale: parse_in(scale, "--scale", d.scale, 1.0..=100_000.0)?,
        val_every: parse_in(
            val_every,
            "--val-every",
            u64::from(d.val_every),
            0..=1_000_000,
        )? as u32,
        buffer: parse_in(buffer, "--buffer", d.buffer as u64, 1..=1 << 28)? as usize,
        seed: parse_num(seed, "--seed", d.seed)?,
        threads: parse_in(threads, "--threads", d.threads as u64, 1..=256)? as usize,
    };
    if cfg.data.is_empty() {
        return Err("--data names no file".into());
    }
    if cfg.val_every == 1 {
        return Err("--val-every 1 would hold out every record (0 holds out none)".into());
    }
    let out = std::path::PathBuf::from(out.ok_or("--out is required")?);
    std::fs::File::create(&out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    if let Some(dir) = &checkpoints {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {dir}: {e}"))?;
    }
    eprintln!(
        "train: {} file(s), {} epochs, batch {}, lr {} ({:?}), weight decay {}, lambda {}, scale {}, 1 in {} held out, seed {}, {} threads",
        cfg.data.len(), cfg.epochs, cfg.batch, cfg.lr, cfg.schedule, cfg.weight_decay,
        cfg.lambda, cfg.scale, cfg.val_every, cfg.seed, cfg.threads
    );
    let fmt_loss = |l: Option<f64>| l.map_or("-".to_string(), |l| format!("{l:.6}"));
    let mut written = false;
    let result = train::train(&cfg, |r, net| {
        if r.epoch == 0 {
            eprintln!("train: epoch 0: val loss {}", fmt_loss(r.val_loss));
            return Ok(());
        }
        eprintln!(
            "train: epoch {}/{}: train loss {}, val loss {}, lr {:.3e}, {} positions, {:.0} positions/s, elapsed {:.1}s",
            r.epoch, r.epochs, fmt_loss(r.train_loss), fmt_loss(r.val_loss), r.lr, r.positions,
            r.positions as f64 / r.seconds.max(1e-9), r.elapsed
        );
        let bytes = net.quantize().to_bytes();
        if let Some(dir) = &checkpoints {
            let p = std::path::Path::new(dir).join(format!("epoch-{}.jjnn", r.epoch));
            std::fs::write(&p, &bytes)
                .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", p.display())))?;
        }
        // Written aside and renamed, so NET is always a whole network.
        let tmp = out.with_extension("partial");
        std::fs::write(&tmp, &bytes)
            .and_then(|()| std::fs::rename(&tmp, &out))
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", out.display())))?;
        written = true;
        Ok(())
    });
    let (_, summary) = result.map_err(|e| {
        if !written {
            // Only the empty file made to check that NET can be written.
            let _ = std::fs::remove_file(&out);
        }
        e.to_string()
    })?;
    println!(
        "wrote {}: {} epochs over {} training positions ({} held out, {} not legal positions skipped), val loss {} -> {}, train loss {}, {:.1}s",
        out.display(), summary.epochs, summary.train_positions, summary.val_positions,
        summary.invalid, fmt_loss(summary.initial_val_loss), fmt_loss(summary.last.val_loss),
        fmt_loss(summary.last.train_loss), summary.seconds
    );
    Ok(())
}

/// Opening lines as `jiangjun book lines` writes them (one line of ICCS moves per line, `#`
/// comments), each checked for legality from the start position.
fn read_opening_lines(path: &str) -> Result<Vec<Vec<crate::board::Move>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
    let mut lines = Vec::new();
    for (n, l) in text.lines().enumerate() {
        if l.trim_start().starts_with('#') || l.trim().is_empty() {
            continue;
        }
        let mut pos = Position::startpos();
        let line = l
            .split_whitespace()
            .map(|m| pos.play(m))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("{path} line {}: {e}", n + 1))?;
        lines.push(line);
    }
    if lines.is_empty() {
        return Err(format!("{path} holds no opening lines"));
    }
    Ok(lines)
}

/// The live progress line of long runs: rewritten in place on a terminal (at most twice a
/// second), one line every 30 s in a log file.
struct ProgressLine {
    terminal: bool,
    last: Option<Instant>,
    text: String,
}

impl ProgressLine {
    fn new() -> ProgressLine {
        use std::io::IsTerminal;
        ProgressLine {
            terminal: std::io::stderr().is_terminal(),
            last: None,
            text: String::new(),
        }
    }

    fn update(&mut self, p: &crate::tools::datagen::Progress) {
        let every = if self.terminal { 0.5 } else { 30.0 };
        let due = self.last.is_none_or(|t| t.elapsed().as_secs_f64() >= every);
        if !due && p.games_done < p.games_total {
            return;
        }
        self.last = Some(Instant::now());
        let secs = p.elapsed.as_secs_f64().max(1e-3);
        let left = p.games_total.saturating_sub(p.games_done) as f64;
        let eta = (secs / p.games_done.max(1) as f64 * left).round() as u64;
        self.text = format!(
            "datagen: {}/{} games, {} positions, {:.0} positions/s, ETA {}h{:02}m{:02}s",
            p.games_done,
            p.games_total,
            p.kept,
            p.kept as f64 / secs,
            eta / 3600,
            eta / 60 % 60,
            eta % 60
        );
        if self.terminal {
            eprint!("\r{}\x1b[K", self.text);
        } else {
            eprintln!("{}", self.text);
        }
    }

    fn finish(&self) {
        if self.terminal && !self.text.is_empty() {
            eprintln!();
        }
    }
}

fn tune_inner(args: &[String]) -> Result<(), String> {
    use crate::search::eval::Weights;
    use crate::tools::tune::{self, Scope, Settings};
    let (data, rest) = take_option(args, "--data")?;
    let (out, rest) = take_option(&rest, "--out")?;
    let (init, rest) = take_option(&rest, "--init")?;
    let (rounds, rest) = take_option(&rest, "--rounds")?;
    let (steps, rest) = take_option(&rest, "--steps")?;
    let (l2, rest) = take_option(&rest, "--l2")?;
    let (l2_tables, rest) = take_option(&rest, "--l2-tables")?;
    let (validate, rest) = take_option(&rest, "--validate")?;
    let all = rest.iter().any(|a| a == "--all");
    if let Some(x) = rest.iter().find(|a| *a != "--all") {
        return Err(format!("unexpected argument '{x}'"));
    }
    // Numbers first, so that a typo is reported before the data is read.
    let d = Settings::default();
    let settings = Settings {
        scope: if all { Scope::All } else { Scope::Scalars },
        rounds: parse_num(rounds, "--rounds", d.rounds)?,
        steps: parse_num(steps, "--steps", d.steps)?,
        l2: parse_num(l2, "--l2", d.l2)?,
        l2_tables: parse_num(l2_tables, "--l2-tables", d.l2_tables)?,
        ..d
    };
    for (name, v) in [("--l2", settings.l2), ("--l2-tables", settings.l2_tables)] {
        if !(v.is_finite() && v >= 0.0) {
            return Err(format!("{name} must be a number >= 0, not {v}"));
        }
    }
    let data = data.ok_or("--data is required")?;
    // Several files may be given, separated by commas (e.g. chunks of one self-play run).
    let load = |files: &str| -> Result<Vec<tune::Sample>, String> {
        let mut text = String::new();
        for file in files.split(',') {
            text +=
                &std::fs::read_to_string(file).map_err(|e| format!("cannot read {file}: {e}"))?;
            text.push('\n');
        }
        let (samples, bad) = tune::parse_samples(&text);
        eprintln!(
            "{files}: {} samples ({bad} bad lines skipped)",
            samples.len()
        );
        Ok(samples)
    };
    // The weights to start from (and compare the held-out error with): the engine's own
    // unless `--init` names a file of an earlier run. Read before the data, which can be
    // large, so that a bad file is reported at once.
    let start = match init {
        Some(f) => tune::read_weights(f.as_ref()).map_err(|e| format!("{e:#}"))?,
        None => Weights::DEFAULT,
    };
    let samples = load(&data)?;
    // Held-out games (other seeds) show whether the fit generalises or learns the games.
    let held_out = validate.as_deref().map(load).transpose()?;
    let mut w = start.clone();
    let k = tune::fit_k(&samples, &w);
    eprintln!("k = {k:.3}");
    let (err, k_tuned) = tune::tune(&samples, &mut w, k, settings, |l| eprintln!("{l}"));
    if let Some(v) = &held_out {
        eprintln!(
            "held-out error {:.6} -> {:.6}",
            tune::error(v, &start, k),
            tune::error(v, &w, k_tuned)
        );
    }
    let out = out.unwrap_or_else(|| "tuned_weights.json".into());
    tune::write_weights(out.as_ref(), &w).map_err(|e| format!("{e:#}"))?;
    println!("wrote {out}: error {err:.6}, k {k_tuned:.3}");
    Ok(())
}

/// [`parse_num`], then a check that the value lies in `range` (a value outside it is an
/// error naming the bounds, not a silent clamp).
fn parse_in<T>(
    v: Option<String>,
    name: &str,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let v = parse_num(v, name, default)?;
    if range.contains(&v) {
        Ok(v)
    } else {
        Err(format!(
            "{name} must be from {} to {}, not {v}",
            range.start(),
            range.end()
        ))
    }
}

fn parse_num<T: std::str::FromStr>(v: Option<String>, name: &str, default: T) -> Result<T, String> {
    match v {
        None => Ok(default),
        Some(s) => s
            .parse()
            .map_err(|_| format!("{name} '{s}' is not a valid number")),
    }
}

fn book_inner(args: &[String]) -> Result<(), String> {
    use crate::book::Book;
    use crate::tools::book_builder;
    let (sub, rest) = match args.split_first() {
        Some((s, r)) => (s.as_str(), r),
        None => return Err("missing 'build', 'probe' or 'lines'".into()),
    };
    match sub {
        "build" => {
            let (out, rest) = take_option(rest, "--out")?;
            let (seeds, rest) = take_option(&rest, "--seeds")?;
            let (depth, rest) = take_option(&rest, "--depth")?;
            let (plies, rest) = take_option(&rest, "--plies")?;
            let (positions, rest) = take_option(&rest, "--positions")?;
            let (margin, rest) = take_option(&rest, "--margin")?;
            let (side_cost, rest) = take_option(&rest, "--side-cost")?;
            if let Some(x) = rest.first() {
                return Err(format!("unexpected argument '{x}'"));
            }
            let d = book_builder::Config::default();
            let seeds_path = seeds.unwrap_or_else(|| "book/seeds.txt".into());
            let seed_text = std::fs::read_to_string(&seeds_path)
                .map_err(|e| format!("cannot read seeds {seeds_path}: {e}"))?;
            let cfg = book_builder::Config {
                depth: parse_num(depth, "--depth", d.depth)?.clamp(1, 30),
                plies: parse_num(plies, "--plies", d.plies)?.clamp(1, 60),
                max_positions: parse_num(positions, "--positions", d.max_positions)?,
                margin: parse_num(margin, "--margin", d.margin)?.clamp(0, 1000),
                side_cost: parse_num(side_cost, "--side-cost", d.side_cost)?.clamp(1, 60),
                seeds: book_builder::parse_seeds(&seed_text),
                ..d
            };
            let out = out.unwrap_or_else(|| "book/jiangjun.jjb".into());
            eprintln!("building {out} with {cfg:?}");
            let start = Instant::now();
            let entries = book_builder::build(&cfg, |line| eprintln!("{line}"))?;
            let b = Book::from_entries(entries);
            b.save(std::path::Path::new(&out))
                .map_err(|e| e.to_string())?;
            println!(
                "wrote {out}: {} positions, {} moves, {:.0} s",
                b.positions(),
                b.len(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        "probe" => {
            let (path, rest) = take_option(rest, "--book")?;
            let (fen, rest) = take_option(&rest, "--fen")?;
            let (moves, rest) = take_option(&rest, "--moves")?;
            if let Some(x) = rest.first() {
                return Err(format!("unexpected argument '{x}'"));
            }
            let b = load_book(path)?;
            let mut pos = match fen {
                Some(f) => Position::from_fen(&f).map_err(|e| e.to_string())?,
                None => Position::startpos(),
            };
            for m in moves.as_deref().unwrap_or("").split_whitespace() {
                pos.play(m).map_err(|e| e.to_string())?;
            }
            println!(
                "book {} ({} positions, {} moves)",
                b.path.display(),
                b.positions(),
                b.len()
            );
            for bm in b.probe(&pos) {
                println!("{} weight {} score {}", bm.mv, bm.weight, bm.score);
            }
            Ok(())
        }
        "lines" => {
            let (path, rest) = take_option(rest, "--book")?;
            let (plies, rest) = take_option(&rest, "--plies")?;
            let (min, rest) = take_option(&rest, "--min-plies")?;
            if let Some(x) = rest.first() {
                return Err(format!("unexpected argument '{x}'"));
            }
            let at_most_200 = |n: usize, name: &str| {
                if n > 200 {
                    Err(format!("{name} must be at most 200, not {n}"))
                } else {
                    Ok(n)
                }
            };
            let plies = at_most_200(parse_num(plies, "--plies", 8)?, "--plies")?;
            let min = at_most_200(parse_num(min, "--min-plies", 4)?, "--min-plies")?.min(plies);
            let b = load_book(path)?;
            let lines = b.lines(&mut Position::startpos(), plies, min);
            println!(
                "# {} lines of {min} to {plies} plies from {} ({} positions), by `jiangjun book lines`",
                lines.len(),
                b.path.display(),
                b.positions()
            );
            for (i, line) in lines.iter().enumerate() {
                let text: Vec<String> = line.iter().map(|m| m.to_string()).collect();
                println!("# book line {}\n{}", i + 1, text.join(" "));
            }
            Ok(())
        }
        other => Err(format!("unknown book command '{other}'")),
    }
}

/// The protocol loop on stdin/stdout (UCCI or UCI, chosen by the first command); returns the
/// exit status. Prints nothing before the first command and nothing to stderr, because GUIs
/// merge stderr into the engine's output (ucci.md §1).
pub fn run_protocol() -> i32 {
    crate::protocol::stdio::run()
}

/// `jiangjun match`: engines as child processes, see [`crate::tournament::command`].
fn match_cmd(args: &[String]) -> i32 {
    crate::tournament::command::match_main(args)
}

/// `jiangjun tournament`: a round robin of engines, see [`crate::tournament::command`].
fn tournament_cmd(args: &[String]) -> i32 {
    crate::tournament::command::tournament_main(args)
}
