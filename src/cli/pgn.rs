//! `jiangjun pgn`: game records for players and scripts. `convert` rewrites games (PGN in
//! any of our notations and encodings, or XQF) as PGN in one notation; `check` replays every
//! game and names the first bad move of each; `judge` runs the referee over each game and
//! says whether its repetition / natural-limit ruling agrees with the recorded result.
//!
//! Exit status: 0 all games good, 1 a game could not be read (or, for `judge`, its result
//! disagrees with the rules), 2 bad usage or a file that cannot be read at all.

use crate::board::notation::Script;
use crate::output::{same_file, AtomicFile};
use crate::records::encoding::{Detection, TextEncoding};
use crate::records::pgn::{self, MoveFormat, PgnError, WriteOptions};
use crate::records::{stream_file, GameError};
use crate::rules::{judge_replay, RefereeOptions, Replay, Reports, RuleSet};
use crate::tools::analyse::agreement;
use anyhow::{Context, Result};
#[cfg(test)]
use clap::Parser;
use clap::{Args, Subcommand};
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;

/// `jiangjun pgn ...` parsed on its own, for the unit tests (the binary parses [`PgnArgs`] as
/// a subcommand of `crate::cli::Cli`).
#[cfg(test)]
#[derive(Parser, Debug)]
#[command(name = "jiangjun pgn", about = "Game records: convert, check, judge")]
struct PgnCli {
    #[command(flatten)]
    args: PgnArgs,
}

/// The arguments of `jiangjun pgn`.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct PgnArgs {
    #[command(subcommand)]
    pub command: PgnCommand,
}

#[derive(Subcommand, Debug, Clone, PartialEq, Eq)]
pub enum PgnCommand {
    /// Rewrite the games of a PGN or XQF file as PGN in one notation.
    #[command(verbatim_doc_comment)]
    Convert(ConvertArgs),
    /// Replay every game; report the first illegal or ambiguous move of each.
    #[command(verbatim_doc_comment)]
    Check(CheckArgs),
    /// Rule on each game's repetitions and natural limit; compare with its recorded result.
    #[command(verbatim_doc_comment)]
    Judge(JudgeArgs),
}

/// Where the games come from.
#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// The game file: PGN (any notation, UTF-8/UTF-16/GB18030/GBK/Big5) or XQF; `-` reads
    /// standard input.
    #[arg(value_name = "IN")]
    pub path: PathBuf,
    /// The input file's encoding (utf-8, utf-16le, utf-16be, gb18030, gbk, big5), read this
    /// way instead of detected; what is written is always UTF-8.
    #[arg(long, value_name = "E", value_parser = |s: &str| s.parse::<TextEncoding>())]
    pub encoding: Option<TextEncoding>,
    /// Say on stderr which encoding was used and how many games were read.
    #[arg(long)]
    pub verbose: bool,
}

#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: Input,
    /// Write here instead of to standard output.
    #[arg(short, long, value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The notation of the written moves: iccs, chinese or wxf.
    #[arg(long, value_name = "NOTATION", value_parser = |s: &str| s.parse::<MoveFormat>())]
    pub to: MoveFormat,
    /// Characters of Chinese moves: simplified or traditional.
    #[arg(long, value_name = "SCRIPT", default_value = "simplified",
          value_parser = |s: &str| s.parse::<Script>())]
    pub script: Script,
}

#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: Input,
}

#[derive(Args, Debug, Clone, PartialEq, Eq)]
pub struct JudgeArgs {
    #[command(flatten)]
    pub input: Input,
    /// The rule set: cxa2011 (the 2011 Chinese rules) or axf (the Asian Xiangqi Federation's).
    #[arg(long, value_name = "R", default_value = "cxa2011", value_parser = |s: &str| s.parse::<RuleSet>())]
    pub rules: RuleSet,
    /// One JSON object per game, one per line.
    #[arg(long)]
    pub json: bool,
}

/// Runs a parsed `jiangjun pgn` command; the exit status as the module docs say.
pub fn run(args: &PgnArgs) -> i32 {
    let mut out = std::io::stdout().lock();
    let (name, r) = match &args.command {
        PgnCommand::Convert(a) => ("convert", convert(a)),
        PgnCommand::Check(a) => ("check", check(a, &mut out)),
        PgnCommand::Judge(a) => ("judge", judge(a, &mut out)),
    };
    match r {
        Ok(code) => code,
        Err(e) if is_closed_pipe(&e) => CLOSED_PIPE_STATUS,
        Err(e) => {
            eprintln!("jiangjun pgn {name}: {e:#}");
            2
        }
    }
}

/// Game `k` (from 1) of the input and the number of games it holds, read in one pass
/// (`jiangjun analyse`): only that game is kept.
pub(crate) fn nth_game(
    input: &Input,
    k: usize,
) -> Result<(Option<Result<pgn::Game, GameError>>, usize)> {
    let mut found = None;
    let mut count = 0;
    stream_input(input, |n, g| {
        count = n;
        if n == k {
            found = Some(g);
        }
        Ok(())
    })?;
    Ok((found, count))
}

/// Reads the input (`-`: standard input) in one pass: XQF by its signature, else PGN in the
/// forced or detected encoding, without holding it: each game goes to `emit` as soon as it
/// is read, so a file of any size is read in the memory of one game. The warnings and, with
/// `--verbose`, what was read are said on stderr at the end.
///
/// `emit` gets each game with its number from 1; its first error stops the reading (a reader
/// of `jiangjun pgn check F | head` that went away) and is returned.
fn stream_input(
    input: &Input,
    mut emit: impl FnMut(usize, Result<pgn::Game, GameError>) -> Result<()>,
) -> Result<()> {
    let path = &input.path;
    let what = || {
        if path.as_os_str() == "-" {
            "cannot read standard input".to_string()
        } else {
            format!("cannot read {}", path.display())
        }
    };
    let mut n = 0;
    let mut failed = None;
    let streamed = stream_file(path, input.encoding, |g| {
        n += 1;
        emit(n, g).map_or_else(
            |e| {
                failed = Some(e);
                ControlFlow::Break(())
            },
            ControlFlow::Continue,
        )
    })
    .with_context(what);
    // The reader's error first: it stopped the reading.
    if let Some(e) = failed {
        return Err(e);
    }
    let streamed = streamed?;
    print_warnings(path, &streamed.warnings);
    if input.verbose {
        match streamed.encoding {
            None => eprintln!(
                "{}: XQF (version {:#04x})",
                path.display(),
                streamed.xqf_version.unwrap_or(0)
            ),
            Some((encoding, detection)) => eprintln!(
                "{}: encoding {encoding} ({}){}; {} game(s)",
                path.display(),
                detection_words(detection),
                if streamed.had_errors {
                    ", with undecodable bytes"
                } else {
                    ""
                },
                streamed.games
            ),
        }
    }
    Ok(())
}

fn detection_words(d: Detection) -> &'static str {
    match d {
        Detection::Forced => "as asked",
        Detection::Bom => "byte-order mark",
        Detection::ValidUtf8 => "valid UTF-8",
        Detection::Guessed => "reads best of gb18030 and big5",
    }
}

fn print_warnings(path: &std::path::Path, warnings: &[String]) {
    for w in warnings {
        eprintln!("{}: warning: {w}", path.display());
    }
}

fn convert(a: &ConvertArgs) -> Result<i32> {
    let format = a.to;
    let opts = match format {
        MoveFormat::Chinese => WriteOptions {
            script: a.script,
            full_width_digits: true,
        },
        MoveFormat::Iccs | MoveFormat::Wxf => WriteOptions::default(),
    };
    // `-o` naming the input (by any name): rewritten only if every game converts.
    let in_place = a.input.path.as_os_str() != "-"
        && a.output
            .as_deref()
            .is_some_and(|o| same_file(&a.input.path, o));
    let mut out = Output::open(a.output.as_deref())?;
    let mut bad = 0;
    let mut written = 0;
    stream_input(&a.input, |n, g| {
        match g {
            Ok(game) => {
                let sep = if written > 0 { "\n" } else { "" };
                write!(out, "{sep}{}", pgn::write_pgn_with(&game, format, opts))?;
                written += 1;
            }
            Err(e) => {
                bad += 1;
                eprintln!(
                    "{}: {} (not converted)",
                    a.input.path.display(),
                    game_error(n, &e)
                );
            }
        }
        Ok(())
    })?;
    if in_place && bad > 0 {
        // Dropped unfinished: the input stays as it was.
        drop(out);
        eprintln!(
            "{}: not rewritten: {bad} of {} game(s) could not be converted, and -o names the input (write to another file to keep the {written} that convert)",
            a.input.path.display(),
            bad + written
        );
        return Ok(1);
    }
    out.finish()?;
    Ok(if bad > 0 { 1 } else { 0 })
}

/// Where `convert` writes: standard output as it goes, or a file written whole or not at all
/// ([`AtomicFile`]: under a temporary name beside it, renamed at the end), so that a failed run
/// leaves no half-written file and `-o` may name the input itself.
enum Output {
    Stdout(std::io::BufWriter<std::io::Stdout>),
    File {
        path: std::path::PathBuf,
        file: AtomicFile,
    },
}

impl Output {
    fn open(path: Option<&std::path::Path>) -> Result<Output> {
        Ok(match path.filter(|p| p.as_os_str() != "-") {
            None => Output::Stdout(std::io::BufWriter::new(std::io::stdout())),
            Some(p) => Output::File {
                path: p.to_path_buf(),
                file: AtomicFile::create(p)
                    .with_context(|| format!("cannot write {}", p.display()))?,
            },
        })
    }

    /// Flushes, and gives a file its name (a file not finished is removed when dropped).
    fn finish(self) -> Result<()> {
        match self {
            Output::Stdout(mut w) => Ok(w.flush()?),
            Output::File { path, file } => file
                .commit()
                .with_context(|| format!("cannot write {}", path.display())),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Output::Stdout(w) => w.write(buf),
            Output::File { file, .. } => file.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Output::Stdout(w) => w.flush(),
            Output::File { file, .. } => file.flush(),
        }
    }
}

/// Writes `text` to the file `path` (through [`Output`]: whole or not at all), or to standard
/// output when there is none or it is `-`. A reader that went away (`| head`) is an error
/// [`is_closed_pipe`] recognises, not a panic.
pub(crate) fn write_output(path: Option<&std::path::Path>, text: &str) -> Result<()> {
    let mut out = Output::open(path)?;
    let written = out.write_all(text.as_bytes());
    match path.filter(|p| p.as_os_str() != "-") {
        Some(p) => written.with_context(|| format!("cannot write {}", p.display()))?,
        None => written?,
    }
    out.finish()
}

/// The exit status of a writer whose reader closed the pipe: what a shell reports for one
/// killed by SIGPIPE (Rust ignores the signal, so the write fails instead).
pub const CLOSED_PIPE_STATUS: i32 = 141;

/// Did this error come from writing into a closed pipe? Such an end is quiet, with
/// [`CLOSED_PIPE_STATUS`].
pub fn is_closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn check(a: &CheckArgs, out: &mut impl Write) -> Result<i32> {
    let mut bad = 0;
    let mut total = 0;
    stream_input(&a.input, |n, g| {
        total = n;
        Ok(check_game(n, &g, &mut bad, out)?)
    })?;
    writeln!(out, "{total} game(s): {} good, {bad} bad", total - bad)?;
    Ok(if bad > 0 { 1 } else { 0 })
}

/// `check`'s line for game `n`.
fn check_game(
    n: usize,
    g: &Result<pgn::Game, GameError>,
    bad: &mut usize,
    out: &mut impl Write,
) -> std::io::Result<()> {
    match g {
        Ok(game) => writeln!(
            out,
            "game {n}: ok, {} plies, {}{}",
            game.moves.len(),
            pgn::result_token(game.result),
            game.tag("Event")
                .map_or(String::new(), |e| format!(" ({e})"))
        ),
        Err(e) => {
            *bad += 1;
            writeln!(out, "{}", game_error(n, e))
        }
    }
}

/// What is wrong with game `n`, the game named once (the reader's move error names it too).
fn game_error(n: usize, e: &GameError) -> String {
    match e {
        GameError::Pgn(PgnError::Move {
            line,
            ply,
            token,
            error,
            ..
        }) => format!("game {n}: bad move at ply {ply} (line {line}) '{token}': {error}"),
        e => format!("game {n}: unreadable: {e}"),
    }
}

fn judge(a: &JudgeArgs, out: &mut impl Write) -> Result<i32> {
    let mut failures = 0;
    stream_input(&a.input, |n, g| judge_game(a, n, &g, &mut failures, out))?;
    Ok(if failures > 0 { 1 } else { 0 })
}

/// `judge`'s line for game `n`.
fn judge_game(
    a: &JudgeArgs,
    n: usize,
    g: &Result<pgn::Game, GameError>,
    failures: &mut usize,
    out: &mut impl Write,
) -> Result<()> {
    let game = match g {
        Ok(game) => game,
        Err(e) => {
            *failures += 1;
            if a.json {
                writeln!(
                    out,
                    "{{\"game\":{n},\"error\":{}}}",
                    json_str(&e.to_string())
                )?;
            } else {
                writeln!(out, "{}", game_error(n, e))?;
            }
            return Ok(());
        }
    };
    let replay = Replay::of_moves(game.start.clone(), &game.moves)
        .with_context(|| format!("game {n}: the referee cannot replay it"))?;
    // The text line says the ruling alone: no move needs a report.
    let reports = if a.json {
        Reports::Every
    } else {
        Reports::None
    };
    let j = judge_replay(&replay, a.rules, RefereeOptions::default(), reports);
    let agree = agreement(j.outcome, game.result);
    if agree == "disagrees" {
        *failures += 1;
    }
    if a.json {
        writeln!(
            out,
            "{{\"game\":{n},\"event\":{},\"recorded\":\"{}\",\"agreement\":\"{agree}\",\"judgement\":{}}}",
            game.tag("Event").map_or("null".to_string(), json_str),
            pgn::result_token(game.result),
            j.to_json()
        )?;
    } else {
        let verdict = j.to_text();
        let first = verdict.lines().next().unwrap_or("verdict none -");
        writeln!(
            out,
            "game {n}: {first}{}; recorded {}: {agree}",
            j.ruled_at.map_or(String::new(), |p| format!(" at ply {p}")),
            pgn::result_token(game.result)
        )?;
    }
    Ok(())
}

/// A JSON string literal (serde_json escapes it; writing a `&str` cannot fail).
fn json_str(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<PgnArgs, clap::Error> {
        let argv = std::iter::once("jiangjun pgn").chain(args.iter().copied());
        PgnCli::try_parse_from(argv).map(|c| c.args)
    }

    #[test]
    fn arguments_parse() {
        let a = parse(&[
            "convert",
            "g.xqf",
            "--to",
            "chinese",
            "--script",
            "traditional",
            "-o",
            "x.pgn",
        ])
        .expect("parses");
        match a.command {
            PgnCommand::Convert(c) => {
                assert_eq!(c.to, MoveFormat::Chinese);
                assert_eq!(c.script, Script::Traditional);
                assert_eq!(c.output, Some(PathBuf::from("x.pgn")));
                assert_eq!(c.input.path, PathBuf::from("g.xqf"));
            }
            other => panic!("{other:?}"),
        }
        let a = parse(&[
            "judge",
            "g.pgn",
            "--rules",
            "axf",
            "--json",
            "--encoding",
            "big5",
        ])
        .expect("parses");
        match a.command {
            PgnCommand::Judge(j) => {
                assert_eq!(j.rules, RuleSet::Axf);
                assert!(j.json);
                assert_eq!(j.input.encoding, Some(TextEncoding::Big5));
            }
            other => panic!("{other:?}"),
        }
        assert!(parse(&["convert", "g.pgn"]).is_err(), "--to is required");
        assert!(parse(&["convert", "g.pgn", "--to", "latin"]).is_err());
        assert!(parse(&["check"]).is_err());
        let e = parse(&["check", "a", "--encoding", "ebcdic"]).expect_err("unknown");
        assert!(
            e.to_string()
                .contains("expected utf-8, utf-16le, utf-16be, gb18030, gbk, big5"),
            "{e}"
        );
        let a = parse(&["check", "a", "--encoding", "GB2312"]).expect("an alias");
        match a.command {
            PgnCommand::Check(c) => assert_eq!(c.input.encoding, Some(TextEncoding::Gbk)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_closed_pipe_is_told_from_other_errors() {
        let pipe = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "gone");
        assert!(is_closed_pipe(
            &anyhow::Error::from(pipe).context("writing the games")
        ));
        let full = std::io::Error::new(std::io::ErrorKind::StorageFull, "full");
        assert!(!is_closed_pipe(&anyhow::Error::from(full)));
        assert!(!is_closed_pipe(&anyhow::anyhow!("Broken pipe")));
        // `check` into a pipe whose reader has gone: the write error comes back, recognised.
        let path = std::env::temp_dir().join(format!(
            "jiangjun_records_closed_pipe_{}.pgn",
            std::process::id()
        ));
        std::fs::write(&path, "1. h2e2 h9g7 *\n").expect("temp file");
        let input = |path: PathBuf| Input {
            path,
            encoding: None,
            verbose: false,
        };
        let e = check(
            &CheckArgs {
                input: input(path.clone()),
            },
            &mut ClosedPipe,
        )
        .expect_err("the write fails");
        let _ = std::fs::remove_file(&path);
        assert!(is_closed_pipe(&e), "{e:#}");
        let e = check(
            &CheckArgs {
                input: input(PathBuf::from("/nonexistent/x.pgn")),
            },
            &mut ClosedPipe,
        )
        .expect_err("no file");
        assert!(!is_closed_pipe(&e), "a missing file is not a closed pipe");
    }

    /// A writer whose reader has gone.
    struct ClosedPipe;

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
}
