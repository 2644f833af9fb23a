//! Command-line subcommands, parsed by clap (derive). `main.rs` only forwards its arguments
//! here; each subcommand's arguments are a `clap::Args` struct in its own module with a
//! `run(args) -> anyhow::Result<i32>` entry. The exit status is 0 on success and 2 on bad
//! usage or input (the error and the subcommand's usage on stderr); nothing reachable from the
//! command line panics. Without arguments `jiangjun` is the engine: [`run_protocol`].

pub mod analyse;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod evaluation;
pub mod judge;
pub mod params;
pub mod perft;
pub mod pgn;
pub mod train;
pub mod tune;
pub mod value;
pub mod version;

use clap::{CommandFactory, FromArgMatches};

/// Every subcommand; the variant's name, in kebab case, is the word on the command line.
#[derive(clap::Subcommand, Debug)]
pub enum Command {
    Perft(perft::PerftArgs),
    Bench(bench::BenchArgs),
    Judge(judge::JudgeArgs),
    Book(book::BookArgs),
    Datagen(datagen::DatagenArgs),
    Train(train::TrainArgs),
    Tune(tune::TuneArgs),
    Params(params::ParamsArgs),
    Pgn(pgn::PgnArgs),
    Analyse(analyse::AnalyseArgs),
    Match(crate::tournament::arguments::MatchArgs),
    Tournament(crate::tournament::arguments::TournamentArgs),
}

/// The whole command line. Help and unknown subcommands are answered before clap sees the
/// arguments (see [`run`]), so that the usage printed is [`USAGE`]'s.
#[derive(clap::Parser, Debug)]
#[command(name = "jiangjun", disable_help_subcommand = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

impl Command {
    /// Runs the subcommand; its exit status, or the error to report with the usage.
    pub fn run(self) -> anyhow::Result<i32> {
        match self {
            Command::Perft(a) => perft::run(a),
            Command::Bench(a) => bench::run(a),
            Command::Judge(a) => judge::run(a),
            Command::Book(a) => book::run(a),
            Command::Datagen(a) => datagen::run(a),
            Command::Train(a) => train::run(a),
            Command::Tune(a) => tune::run(a),
            Command::Params(a) => params::run(a),
            Command::Pgn(a) => Ok(pgn::run(&a)),
            Command::Analyse(a) => analyse::run(a),
            Command::Match(a) => crate::tournament::manager::match_main(a),
            Command::Tournament(a) => crate::tournament::manager::tournament_main(a),
        }
    }
}

/// Usage text for `jiangjun help`.
pub const USAGE: &str = "\
usage:
  jiangjun                         speak UCCI/UCI on stdin/stdout (chosen by the first command)
  jiangjun help [SUBCOMMAND]       this text, or one subcommand's usage (also SUBCOMMAND --help;
                                   `jiangjun pgn check --help` or `jiangjun pgn help check` for
                                   one of a group's subcommands)
  jiangjun --version | -V          the version, the git commit it was built from, and the
                                   network and book built in
  jiangjun perft <depth> [--fen \"<FEN>\"] [--divide]
                                   count the leaf nodes of the legal-move tree
  jiangjun bench [depth] [--handwritten]
                                   search fixed positions (default depth 9) with the default
                                   evaluation (or the hand-written one); last line: <nodes>
                                   nodes <nps> nps
  jiangjun bench [depth] --evalfile F | --nnue | --random-network SEED
                                   the bench with the hand-written evaluation, then with the
                                   network (--nnue: the built-in one); last line: the ratio of
                                   their nodes per second
  jiangjun judge [--fen \"<FEN>\"] --moves \"<m1 m2 ...>\" [--rules cxa2011|axf] [--strict] [--nine-rounds] [--json]
                                   rule on a game's repetitions (2011 rules 23-26) and limits;
                                   first line: verdict <red_loses|black_loses|draw|none> <clause>;
                                   --moves is required (--moves \"\" for the position alone)
  jiangjun book build --games PATH... [--out F] [--plies 24] [--min-games N] [--depth D]
                  [--margin CP] [--holdout K] [--threads T] [--merge F]
                                   the opening book from master games (PGN/XQF files or
                                   folders), every move checked by the engine; --merge adds a
                                   book's entries where the masters' book has none
  jiangjun book build [--out F] [--seeds F] [--depth N] [--plies N] [--positions N] [--margin CP] [--side-cost N]
                                   grow the opening book by the engine's own analysis
  jiangjun book coverage --games PATH... [--book F] [--holdout K] [--plies N]
                                   share of the first plies of every K-th game (those
                                   `build --holdout K` left out) that the book covers
  jiangjun book probe [--book F] [--fen \"<FEN>\"] [--moves \"m1 m2 ..\"]
                                   list the book moves of a position (our format or BOOK.DAT)
  jiangjun book lines [--book F] [--plies N] [--min-plies N]
                                   every book line from the start (default 8 plies, leaves
                                   from 4): an opening suite for `jiangjun match --openings`
  jiangjun datagen --out F [--games N] [--nodes N | --depth N] [--seed S] [--random-plies K]
                  [--openings F] [--shard I/N] [--threads T] [--max-plies N] [--score-limit CP]
                  [--evalfile F | --nnue | --handwritten]
                                   self-play training data for the neural evaluation and for
                                   `tune` (binary records, docs/training.md); shards of one seed concatenate;
                                   labels come from the default evaluation unless a flag names
                                   one (a network file, the built-in network, hand-written)
  jiangjun datagen --from-games PATH... --out F [--nodes N | --depth N] [--seed S]
                  [--skip-plies K] [--shard I/N] [--threads T] [--score-limit CP]
                  [--evalfile F | --nnue | --handwritten]
                                   the same records from recorded games (PGN/XQF files or
                                   folders): each position searched, the game's result
  jiangjun train --data F[,F...] --out NET [--epochs N] [--batch N] [--lr X]
                  [--schedule cosine|step|constant] [--lr-floor X] [--lr-step E] [--lr-gamma X]
                  [--weight-decay X] [--lambda X] [--scale CP] [--val-every K] [--buffer N]
                  [--seed S] [--threads T] [--checkpoint-dir D] [--init NET] [--mirror]
                                   train the neural evaluation on datagen files; writes the
                                   quantized network to NET after every epoch
  jiangjun tune --data F[,F...] [--out F] [--init F] [--rounds N] [--steps N] [--l2 X]
                  [--l2-tables X] [--validate F[,F...]] [--all]
                                   Texel-tune the evaluation weights on `datagen` files (or
                                   `FEN | result` lines); reads and writes the format of
                                   src/search/eval/weights.json
  jiangjun params [--levels]       the search parameters a tuning run may set (engine options
                                   tune_<name>): name default min max step, one a line; with
                                   --levels the strength levels: elo nodes temperature
  jiangjun pgn convert IN|- [-o OUT|-] --to chinese|wxf|iccs [--script simplified|traditional]
                  [--encoding utf-8|utf-16le|utf-16be|gb18030|gbk|big5] [--verbose]
                                   rewrite PGN (any notation or encoding) or XQF games as UTF-8
                                   PGN; --encoding is the input's (default: detected)
  jiangjun pgn check IN [--encoding E] [--verbose]
                                   replay every game; name the first bad move of each (exit 1)
  jiangjun pgn judge IN [--rules cxa2011|axf] [--json] [--encoding E]
                                   the referee's ruling on each game against its result
  jiangjun analyse GAME [--movetime MS | --depth N] [--threads N] [--hash MB] [-o OUT.pgn]
                  [--svg GRAPH.svg] [--game K] [--notation iccs|chinese|wxf]
                  [--rules cxa2011|axf] [--threshold CP] [--encoding E]
                  [--evalfile F | --nnue | --handwritten]
                                   search every position of a game (default 1000 ms each);
                                   annotated PGN (scores, ?!/?/?? marks, better lines, the
                                   referee's notes) and an SVG evaluation graph
  jiangjun match --engine SPEC --engine SPEC [options]
                                   two-engine match (see `jiangjun match --help`)
  jiangjun tournament --engine SPEC ... [options]
                                   round robin (see `jiangjun tournament --help`)";

/// The usage of one subcommand: for `match` and `tournament` their own text, for the others
/// their entry in [`USAGE`] (the line naming it and the lines indented under it), so a new
/// subcommand gets its `--help` from the line it adds there.
pub fn usage_of(sub: &str) -> Option<String> {
    if sub == "match" || sub == "tournament" {
        return Some(crate::tournament::arguments::USAGE.to_string());
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

/// The clap command with the project's conventions on every subcommand, nested ones too:
/// negative numbers are values, a repeated option keeps its last value (as `--x a --x b`
/// always did), and the usage shown is [`USAGE`]'s entry — a group's subcommand (`pgn check`)
/// its own entry where it has one, else the group's.
fn command() -> clap::Command {
    fn conventions(cmd: clap::Command, path: &str, inherited: Option<String>) -> clap::Command {
        let usage = usage_of(path).or(inherited);
        let cmd = cmd.allow_negative_numbers(true).args_override_self(true);
        let cmd = match &usage {
            Some(u) => cmd
                .override_usage(u.clone())
                .help_template("{usage}\n\n{all-args}"),
            None => cmd.help_template("usage: {usage}\n\n{all-args}"),
        };
        subcommand_names(&cmd).into_iter().fold(cmd, |cmd, name| {
            let sub_path = format!("{path} {name}");
            let usage = usage.clone();
            cmd.mut_subcommand(&name, |sub| conventions(sub, &sub_path, usage))
        })
    }
    let cmd = Cli::command();
    subcommand_names(&cmd).into_iter().fold(cmd, |cmd, name| {
        cmd.mut_subcommand(&name, |sub| conventions(sub, &name, None))
    })
}

fn subcommand_names(cmd: &clap::Command) -> Vec<String> {
    cmd.get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect()
}

/// The help of a subcommand, or of a group's subcommand (`["pgn", "check"]`): its usage, then
/// clap's list of its arguments. Words after a subcommand that has none of its own are its
/// arguments, not names. `Err`: the name that is not a subcommand (`book convert`).
fn help_of(path: &[&str]) -> Result<String, String> {
    let mut cmd = command();
    let mut at = &mut cmd;
    let mut name = String::new();
    for (i, word) in path.iter().enumerate() {
        if i > 0 && !at.has_subcommands() {
            break;
        }
        if i > 0 {
            name.push(' ');
        }
        name.push_str(word);
        at = match at.find_subcommand_mut(word) {
            Some(sub) => sub,
            None => return Err(name),
        };
    }
    Ok(at.render_help().to_string().trim_end().to_string())
}

/// Is `sub` a group of subcommands (`pgn`, `book`)?
fn is_group(sub: &str) -> bool {
    command()
        .find_subcommand(sub)
        .is_some_and(clap::Command::has_subcommands)
}

/// The subcommand a help request names, as words (`["pgn", "check"]`), or `None` when the
/// arguments ask for no subcommand's help. Asked as `jiangjun help pgn check`,
/// `jiangjun pgn help check` or `jiangjun pgn check --help` (the flag anywhere).
fn help_request(args: &[String]) -> Option<Vec<&str>> {
    let first = args.first()?.as_str();
    let word = |i: usize| {
        args.get(i)
            .map(String::as_str)
            .filter(|w| !w.starts_with('-'))
    };
    let mut path = match first {
        "help" | "--help" | "-h" => vec![word(1)?],
        sub if wants_help(&args[1..]) => vec![sub],
        sub if is_group(sub) && args.get(1).is_some_and(|a| a == "help") => {
            return Some([sub].into_iter().chain(word(2)).collect());
        }
        _ => return None,
    };
    let next = if matches!(first, "help" | "--help" | "-h") {
        word(2)
    } else {
        word(1)
    };
    // Only a group's next word is a name; `perft 3 --help` asks for perft's help.
    if is_group(path[0]) {
        path.extend(next);
    }
    Some(path)
}

/// Runs the subcommand in `args` (without the program name). `None` means: no subcommand,
/// run the protocol loop.
pub fn run(args: &[String]) -> Option<i32> {
    let first = args.first()?;
    if matches!(first.as_str(), "--version" | "-V") {
        return Some(print_out(&version::text()));
    }
    if let Some(path) = help_request(args) {
        return Some(match help_of(&path) {
            Ok(help) => print_out(&help),
            Err(name) => {
                let usage = usage_of(path[0]).unwrap_or_else(|| USAGE.to_string());
                eprintln!("jiangjun: unknown subcommand '{name}'\n{usage}");
                2
            }
        });
    }
    if matches!(first.as_str(), "help" | "--help" | "-h") {
        return Some(print_out(USAGE));
    }
    if command().find_subcommand(first).is_none() {
        eprintln!("jiangjun: unknown subcommand '{first}'\n{USAGE}");
        return Some(2);
    }
    let argv = std::iter::once("jiangjun").chain(args.iter().map(String::as_str));
    let parsed = command()
        .try_get_matches_from(argv)
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return Some(usage_error(first, &clap_message(&e))),
    };
    quiet_on_closed_stdout();
    Some(match cli.command.run() {
        Ok(code) => code,
        Err(e) if pgn::is_closed_pipe(&e) => pgn::CLOSED_PIPE_STATUS,
        Err(e) => usage_error(first, &format!("{e:#}")),
    })
}

/// A subcommand's output piped into a reader that stops early (`jiangjun pgn check F | head`)
/// makes `println!` panic on the closed pipe. Such a panic ends the process quietly with status
/// 141, what a writer killed by SIGPIPE reports in a shell; any other panic keeps the default
/// report. `pgn` and `analyse` write through fallible writers and end with the same status
/// without a panic ([`pgn::is_closed_pipe`]); the hook stays for the other
/// subcommands, which print with `println!`.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

/// Prints help on stdout; exit status 0 even when the reader has gone (`| head`), which
/// `println!` would turn into a panic.
fn print_out(text: &str) -> i32 {
    use std::io::Write;
    let _ = writeln!(std::io::stdout(), "{text}");
    0
}

/// The first paragraph of a clap error, without its `error: ` prefix: clap's own text goes
/// on with a `Usage:` line that [`usage_error`] replaces by ours.
fn clap_message(e: &clap::Error) -> String {
    let text = e.to_string();
    let first = text.split("\n\n").next().unwrap_or(&text);
    first.trim_start_matches("error: ").trim().to_string()
}

/// A bad command line: the error and the subcommand's usage on stderr, exit status 2.
fn usage_error(name: &str, error: &str) -> i32 {
    let usage = usage_of(name).unwrap_or_else(|| USAGE.to_string());
    eprintln!("jiangjun {name}: {error}\n{usage}");
    2
}

/// The protocol loop on stdin/stdout (UCCI or UCI, chosen by the first command); returns the
/// exit status. Prints nothing before the first command and nothing to stderr, because GUIs
/// merge stderr into the engine's output (ucci.md §1).
pub fn run_protocol() -> i32 {
    crate::protocol::stdio::run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_states_the_bench_default_depth() {
        let depth = crate::tools::bench::DEFAULT_DEPTH;
        let bench = usage_of("bench").unwrap();
        assert!(
            bench.contains(&format!("(default depth {depth})")),
            "{bench}"
        );
    }

    #[test]
    fn help_requests_name_a_group_subcommand() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<String>>();
        let pgn_check = args(&["pgn", "check", "--help"]);
        assert_eq!(help_request(&pgn_check), Some(vec!["pgn", "check"]));
        let pgn_help = args(&["pgn", "help", "check"]);
        assert_eq!(help_request(&pgn_help), Some(vec!["pgn", "check"]));
        let help_pgn = args(&["help", "pgn", "judge"]);
        assert_eq!(help_request(&help_pgn), Some(vec!["pgn", "judge"]));
        let perft = args(&["perft", "3", "--help"]);
        assert_eq!(help_request(&perft), Some(vec!["perft"]));
        assert_eq!(help_request(&args(&["perft", "3"])), None);
        assert_eq!(
            help_of(&["book", "convert"]),
            Err("book convert".to_string())
        );
        let check = help_of(&["pgn", "check"]).unwrap();
        assert!(check.contains("jiangjun pgn check IN"), "{check}");
        assert!(!check.contains("jiangjun pgn convert"), "{check}");
    }
}
