//! Shared harness for the end-to-end protocol tests: runs the `jiangjun` binary with pipes and
//! talks to it line by line. Every wait has a timeout, so a hung engine fails its test instead
//! of hanging the suite. Every line the engine prints is checked against the general
//! invariants of transcripts.md (no trailing blank, no `\r`).
#![allow(dead_code)]

use jiangjun::board::{Move, Position};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest wait for any single expected line.
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// A line the engine printed and when it arrived.
#[derive(Clone, Debug)]
pub struct Line {
    pub text: String,
    pub at: Instant,
}

/// A running engine process.
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Line>,
    stderr: Receiver<Vec<u8>>,
    /// Everything received so far, for failure messages.
    pub log: Vec<String>,
    started: Instant,
}

impl Engine {
    /// Starts the binary with no arguments (the protocol loop) and without its default opening
    /// book, so that every `go` searches: the transcripts are about the protocol, not the book.
    pub fn start() -> Engine {
        Engine::start_with_book(Some("none"))
    }

    /// Starts the binary with the `JIANGJUN_BOOK` environment variable set to `book`, or
    /// without it (the default book: the one built into the binary).
    pub fn start_with_book(book: Option<&str>) -> Engine {
        Engine::start_in(None, book)
    }

    /// [`Engine::start_with_book`] with `dir` as the current directory (default: the test's).
    pub fn start_in(dir: Option<&std::path::Path>, book: Option<&str>) -> Engine {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_jiangjun"));
        match book {
            Some(b) => cmd.env("JIANGJUN_BOOK", b),
            None => cmd.env_remove("JIANGJUN_BOOK"),
        };
        if let Some(d) = dir {
            cmd.current_dir(d);
        }
        Engine::spawn(cmd)
    }

    /// Starts `cmd` (the binary, or a shell that runs it) with its three streams piped.
    pub fn spawn(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine binary starts");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut stderr = child.stderr.take().expect("stderr is piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let at = Instant::now();
                        // A line without its '\n' at EOF is kept with a marker so the
                        // invariant check fails on it.
                        let text = match buf.strip_suffix(b"\n") {
                            Some(b) => String::from_utf8_lossy(b).into_owned(),
                            None => format!("{}<no newline>", String::from_utf8_lossy(&buf)),
                        };
                        if tx.send(Line { text, at }).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        let (etx, stderr_rx) = channel();
        std::thread::spawn(move || {
            let mut all = Vec::new();
            let _ = stderr.read_to_end(&mut all);
            let _ = etx.send(all);
        });
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            stderr: stderr_rx,
            log: Vec::new(),
            started: Instant::now(),
        }
    }

    /// Starts the engine and completes the UCCI handshake.
    pub fn ucci() -> Engine {
        let mut e = Engine::start();
        e.send("ucci");
        e.until_exact("ucciok");
        e
    }

    /// Starts the engine and completes the UCI handshake.
    pub fn uci() -> Engine {
        let mut e = Engine::start();
        e.send("uci");
        e.until_exact("uciok");
        e
    }

    /// Sends one line (a `\n` is added).
    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// Sends bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("engine reads its input");
        stdin.flush().expect("engine reads its input");
    }

    /// Sends several lines at once.
    pub fn send_all<S: AsRef<str>>(&mut self, lines: &[S]) {
        let mut text = String::new();
        for l in lines {
            text.push_str(l.as_ref());
            text.push('\n');
        }
        self.send_raw(text.as_bytes());
    }

    /// Writes `lines` and then closes the input, on a thread of its own, as a script piped
    /// into the engine does: an engine that stops reading then fails the test on a timeout
    /// instead of blocking the writer (and the test) for ever.
    pub fn pipe_script<S: AsRef<str>>(&mut self, lines: &[S]) {
        let mut text = String::new();
        for l in lines {
            text.push_str(l.as_ref());
            text.push('\n');
        }
        let mut stdin = self.stdin.take().expect("stdin is open");
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }

    /// Closes the engine's input (end of file).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&mut self, timeout: Duration) -> Option<Line> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                check_invariants(&line.text, &self.log);
                self.log.push(line.text.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines until one satisfies `pred`; returns all lines read, the match last.
    pub fn until(&mut self, what: &str, pred: impl Fn(&str) -> bool) -> Vec<Line> {
        let deadline = Instant::now() + TIMEOUT;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(line) => {
                    let done = pred(&line.text);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                None => panic!(
                    "timed out after {TIMEOUT:?} waiting for {what}; engine said:\n{}",
                    self.log.join("\n")
                ),
            }
        }
    }

    /// Reads until a line equal to `text`.
    pub fn until_exact(&mut self, text: &str) -> Vec<Line> {
        self.until(text, |l| l == text)
    }

    /// Reads until a line starting with `prefix`; returns that line.
    pub fn expect_prefix(&mut self, prefix: &str) -> String {
        let got = self.until(prefix, |l| l.starts_with(prefix));
        got.last().map(|l| l.text.clone()).unwrap_or_default()
    }

    /// Reads up to the search's answer (`bestmove …` or `nobestmove`); returns all lines.
    pub fn until_answer(&mut self) -> Vec<Line> {
        self.until("bestmove/nobestmove", is_answer)
    }

    /// The search's answer line.
    pub fn answer(&mut self) -> String {
        let got = self.until_answer();
        got.last().map(|l| l.text.clone()).unwrap_or_default()
    }

    /// Collects every line printed within `d` (no line expected to end the wait).
    pub fn quiet_for(&mut self, d: Duration) -> Vec<String> {
        let deadline = Instant::now() + d;
        let mut got = Vec::new();
        while let Some(line) = self.next_line(deadline.saturating_duration_since(Instant::now())) {
            got.push(line.text);
            if Instant::now() >= deadline {
                break;
            }
        }
        got
    }

    /// `isready` → `readyok`; returns the lines before it (e.g. delayed `info string`s).
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let got = self.until_exact("readyok");
        got[..got.len() - 1]
            .iter()
            .map(|l| l.text.clone())
            .collect()
    }

    /// Waits for the process to exit.
    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Closes input, expects exit status 0 and a silent stderr; returns the remaining output.
    pub fn finish(mut self) -> Vec<String> {
        self.close_stdin();
        let status = self.wait_exit(TIMEOUT);
        let rest = self.quiet_for(Duration::from_millis(50));
        assert!(
            status.is_some_and(|s| s.success()),
            "engine did not exit cleanly: {status:?}\n{}",
            self.log.join("\n")
        );
        self.assert_stderr_empty();
        rest
    }

    /// stderr must stay silent (GUIs merge it into stdout, ucci.md §1). Call after exit.
    pub fn assert_stderr_empty(&mut self) {
        let err = self
            .stderr
            .recv_timeout(Duration::from_secs(5))
            .unwrap_or_default();
        assert!(err.is_empty(), "stderr: {}", String::from_utf8_lossy(&err));
    }

    /// Milliseconds since the process started.
    pub fn elapsed_ms(&self) -> u128 {
        self.started.elapsed().as_millis()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `bestmove …` or `nobestmove`.
pub fn is_answer(line: &str) -> bool {
    line.starts_with("bestmove") || line == "nobestmove"
}

/// transcripts.md's invariants for every printed line.
fn check_invariants(line: &str, log: &[String]) {
    assert!(
        !line.ends_with(' ') && !line.ends_with('\t') && !line.contains('\r'),
        "line with trailing blank or CR: {line:?}\nafter:\n{}",
        log.join("\n")
    );
    assert!(
        !line.contains("<no newline>"),
        "line without newline: {line:?}"
    );
}

/// The position after `moves` from `fen` (`None` = start position).
pub fn position(fen: Option<&str>, moves: &[&str]) -> Position {
    let mut pos = match fen {
        Some(f) => Position::from_fen(f).expect("test FEN is valid"),
        None => Position::startpos(),
    };
    for m in moves {
        pos.play(m).expect("test move is legal");
    }
    pos
}

/// The move and ponder move of a `bestmove` line, checked for the exact XQWizard shapes
/// (ucci.md §5.6): `bestmove m`, `… ponder p`, optionally `draw`/`resign` last.
pub fn parse_bestmove(line: &str) -> (String, Option<String>, Option<String>) {
    let toks: Vec<&str> = line.split(' ').collect();
    assert_eq!(toks.first(), Some(&"bestmove"), "{line}");
    assert!(toks.iter().all(|t| !t.is_empty()), "double space: {line:?}");
    let mv = toks.get(1).expect("a move").to_string();
    let mut rest = &toks[2..];
    let mut ponder = None;
    if rest.first() == Some(&"ponder") {
        ponder = Some(rest.get(1).expect("ponder move").to_string());
        rest = &rest[2..];
    }
    let suffix = match rest {
        [] => None,
        [s] if *s == "draw" || *s == "resign" => Some(s.to_string()),
        _ => panic!("unexpected bestmove shape: {line:?}"),
    };
    (mv, ponder, suffix)
}

/// Asserts `line` is a `bestmove` with a move legal in `pos` (and a ponder move legal after
/// it); returns the move.
pub fn assert_legal_bestmove(line: &str, pos: &Position) -> Move {
    let (mv, ponder, _) = parse_bestmove(line);
    assert!(
        mv.len() == 4 && mv.bytes().all(|b| b.is_ascii_alphanumeric()),
        "{line}"
    );
    let m = pos
        .parse_move(&mv)
        .unwrap_or_else(|e| panic!("{line}: {e}\nposition {}", pos.to_fen()));
    if let Some(p) = ponder {
        let mut after = pos.clone();
        after.make_move(m);
        after
            .parse_move(&p)
            .unwrap_or_else(|e| panic!("{line}: ponder move: {e}"));
    }
    m
}

/// Fields of an `info` line as (key, value) for the simple numeric ones.
pub fn info_field(line: &str, key: &str) -> Option<i64> {
    let toks: Vec<&str> = line.split(' ').collect();
    let i = toks.iter().position(|t| *t == key)?;
    toks.get(i + 1)?.parse().ok()
}

/// The lines of case `n` in tests/data/transcripts.md, from its header to the next one.
fn transcript_case(n: u32) -> Vec<&'static str> {
    let text = include_str!("../data/transcripts.md");
    let header = format!("**{n}. ");
    let mut lines = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("**") {
            inside = line.starts_with(&header);
        } else if inside {
            lines.push(line);
        }
    }
    lines
}

/// The GUI lines (`> …`) of case `n` in tests/data/transcripts.md, comments in parentheses
/// after two or more spaces removed and a written `\r\n` turned into a real CR.
pub fn transcript_inputs(n: u32) -> Vec<String> {
    let mut inputs = Vec::new();
    for line in transcript_case(n) {
        let Some(cmd) = line.trim_start().strip_prefix("> ") else {
            continue;
        };
        let cmd = without_comment(cmd);
        let cmd = match cmd.strip_suffix("\\r\\n") {
            Some(c) => format!("{c}\r"),
            None => cmd.to_string(),
        };
        inputs.push(cmd);
    }
    inputs
}

/// The exact engine lines (`<  …`, not the `<~` patterns) of case `n` in
/// tests/data/transcripts.md, in order, comments removed as from the GUI lines.
pub fn transcript_outputs(n: u32) -> Vec<String> {
    transcript_case(n)
        .into_iter()
        .filter_map(|line| line.trim_start().strip_prefix("<  "))
        .map(|l| without_comment(l).to_string())
        .collect()
}

/// A transcript line without its comment: text in parentheses after two or more spaces.
fn without_comment(line: &str) -> &str {
    match line.find("  (") {
        Some(i) => &line[..i],
        None => line,
    }
    .trim_end()
}

/// Case numbers present in tests/data/transcripts.md.
pub fn transcript_case_numbers() -> Vec<u32> {
    include_str!("../data/transcripts.md")
        .lines()
        .filter_map(|l| l.strip_prefix("**"))
        .filter_map(|l| l.split('.').next())
        .filter_map(|n| n.parse().ok())
        .collect()
}
