//! The UCCI/UCI client: the handshake, options, the rank origin of a UCI engine's moves,
//! `go` lines under a clock, and reading `info`/`bestmove` answers.

use super::child_io::{spawn_reader, Event, IoLog};
use super::spec::{EngineSpec, Protocol, ProtocolChoice};
use crate::board::rank_origin::{format_move, ranks1_to_ranks0};
use crate::board::{Color, Move, Position, RankOrigin};
use crate::tournament::clock::{Clock, TimeControl};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

/// The rank origin a UCI engine's `option` lines imply: the default of a rank option (a name
/// with "rank" in it, like Jiangjun's `Rank Origin`, whose default is 0 or 1), else ranks 1–10
/// when it offers `UCI_Variant`, else 0–9. `options` pairs lower-case names with whole lines.
pub fn uci_notation(options: &[(String, String)]) -> RankOrigin {
    for (name, line) in options {
        if !name.contains("rank") {
            continue;
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        let default = toks.windows(2).find(|w| w[0] == "default").map(|w| w[1]);
        match default {
            Some("0") => return RankOrigin::Zero,
            Some("1") => return RankOrigin::One,
            _ => {}
        }
    }
    if options.iter().any(|(n, _)| n == "uci_variant") {
        RankOrigin::One
    } else {
        RankOrigin::Zero
    }
}

/// What one answer says about the rank origin: `Some(n)` when `raw` is a legal move in `pos`
/// under origin `n` and under no other; `None` when it is legal under both or neither.
pub fn origin_of_move(pos: &Position, raw: &str) -> Option<RankOrigin> {
    let legal =
        |n: RankOrigin| move_from_engine(raw, n).is_some_and(|t| pos.parse_move(&t).is_ok());
    match (legal(RankOrigin::Zero), legal(RankOrigin::One)) {
        (true, false) => Some(RankOrigin::Zero),
        (false, true) => Some(RankOrigin::One),
        _ => None,
    }
}

/// Waiting limits for the parts of a conversation that are not a timed search.
#[derive(Debug, Clone, Copy)]
pub struct Timeouts {
    /// For `ucciok`/`uciok` once the protocol is known.
    pub handshake: Duration,
    /// For `ucciok` while detecting the protocol, before trying UCI.
    pub detect: Duration,
    /// For `readyok`.
    pub ready: Duration,
    /// For `bestmove` after `stop` at flag fall, before the engine is killed.
    pub stop_grace: Duration,
    /// For the process to exit after `quit`.
    pub quit: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            handshake: Duration::from_secs(10),
            detect: Duration::from_secs(3),
            ready: Duration::from_secs(10),
            stop_grace: Duration::from_millis(500),
            quit: Duration::from_secs(1),
        }
    }
}

/// Why an engine could not be started or kept in step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineError {
    /// The program could not be run.
    Spawn(String),
    /// No `ucciok`/`uciok` in time.
    Handshake(String),
    /// The engine exited.
    Died,
    /// No `readyok` in time.
    NotReady,
    /// A UCI engine whose `UCI_Variant` lacks xiangqi.
    NoXiangqi,
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineError::Spawn(e) => write!(f, "cannot run: {e}"),
            EngineError::Handshake(e) => write!(f, "no handshake: {e}"),
            EngineError::Died => write!(f, "the engine exited"),
            EngineError::NotReady => write!(f, "no readyok"),
            EngineError::NoXiangqi => write!(f, "UCI_Variant does not offer xiangqi"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A score from an `info` line, from the engine's (side to move's) point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns, or UCCI's units (100 = a horse or cannon in ElephantEye).
    Cp(i32),
    /// Mate in this many moves; negative when being mated.
    Mate(i32),
}

impl Score {
    /// One number for adjudication thresholds: mates are beyond any material score.
    pub fn value(self) -> i32 {
        match self {
            Score::Cp(v) => v,
            Score::Mate(n) if n >= 0 => 100_000 - n,
            Score::Mate(n) => -100_000 - n,
        }
    }
}

/// What the engine answered to `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// `bestmove`. `mv` is the move in ICCS, `None` when it could not be read in the engine's
    /// notation (then `raw` shows what was sent).
    Move {
        raw: String,
        mv: Option<String>,
        /// The reply the engine expects (`ponder X`), as sent: read it with
        /// [`EngineProcess::read_move`], which knows the notation the engine turned out to use.
        ponder: Option<String>,
        offers_draw: bool,
        resigns: bool,
    },
    /// `nobestmove`, `bestmove (none)`, `0000` or an empty `bestmove`.
    NoMove,
    /// Nothing before the deadline.
    Timeout,
    /// The engine exited (or closed its output); `Some`: the runner ended it, and why.
    Crash(Option<String>),
}

/// One search's answer.
#[derive(Debug, Clone)]
pub struct Thought {
    pub reply: Reply,
    /// From writing `go` to the arrival of the answer (or to the deadline).
    pub elapsed: Duration,
    /// The last score the engine reported.
    pub score: Option<Score>,
    /// The last depth the engine reported.
    pub depth: Option<u32>,
}

/// Search limits for one `go`.
#[derive(Debug, Clone, Copy)]
pub enum GoLimits<'a> {
    /// Both clocks (6.1, 6.2, 6.3).
    Clock {
        red: &'a Clock,
        black: &'a Clock,
    },
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
}

/// A running engine.
pub struct EngineProcess {
    spec: EngineSpec,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    eof: bool,
    protocol: Protocol,
    notation: RankOrigin,
    /// The rank origin is settled: forced by the spec, UCCI, or confirmed by a move.
    notation_checked: bool,
    millisec: bool,
    has_isready: bool,
    id_name: Option<String>,
    log: Option<IoLog>,
    tag: String,
    timeouts: Timeouts,
    /// The predicted move of the `go ponder` search running now, if one is.
    pondering: Option<Move>,
    /// Why the runner killed the engine between moves (a `stop` not answered in time), for
    /// the next move's report: from outside, that looks like a crash.
    killed_for: Option<String>,
    /// What the engine said (`info string`) while its options were set, kept while
    /// `collecting`: a rejected option (a network file not found, a value out of range)
    /// shows only there, and the engine plays on with its default.
    setup_notes: Vec<String>,
    collecting: bool,
}

/// At most this many setup notes are kept, each cut to [`SETUP_NOTE_CHARS`] characters: a
/// chatty engine cannot flood the match report.
pub const SETUP_NOTES_MAX: usize = 8;
pub const SETUP_NOTE_CHARS: usize = 200;

/// Converts an engine's move text to ICCS; `None` if it is not a move in `notation`.
pub fn move_from_engine(text: &str, notation: RankOrigin) -> Option<String> {
    let t = text.trim().to_ascii_lowercase().replace('-', "");
    let b = t.as_bytes();
    let file = |c: u8| (b'a'..=b'i').contains(&c);
    match notation {
        RankOrigin::Zero => (b.len() == 4
            && file(b[0])
            && b[1].is_ascii_digit()
            && file(b[2])
            && b[3].is_ascii_digit())
        .then_some(t),
        RankOrigin::One => ranks1_to_ranks0(&t),
    }
}

/// Writes a move in the engine's notation (the board's rank-origin codec).
pub fn move_to_engine(m: Move, notation: RankOrigin) -> String {
    format_move(m, notation)
}

/// Reads the score and depth of an `info` line.
fn parse_info(line: &str, score: &mut Option<Score>, depth: &mut Option<u32>) {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < toks.len() {
        match toks[i] {
            "depth" => {
                if let Some(d) = toks.get(i + 1).and_then(|t| t.parse().ok()) {
                    *depth = Some(d);
                }
            }
            "score" => match toks.get(i + 1).copied() {
                Some("cp") => {
                    if let Some(v) = toks.get(i + 2).and_then(|t| t.parse().ok()) {
                        *score = Some(Score::Cp(v));
                    }
                }
                Some("mate") => {
                    if let Some(v) = toks.get(i + 2).and_then(|t| t.parse().ok()) {
                        *score = Some(Score::Mate(v));
                    }
                }
                Some(t) => {
                    if let Ok(v) = t.parse() {
                        *score = Some(Score::Cp(v));
                    }
                }
                None => {}
            },
            // Everything after pv is moves; string/message are free text.
            "pv" | "string" | "message" => return,
            _ => {}
        }
        i += 1;
    }
}

/// Reads a `bestmove` line.
fn parse_bestmove(line: &str, notation: RankOrigin) -> Reply {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let Some(raw) = toks.get(1) else {
        return Reply::NoMove;
    };
    let lower = raw.to_ascii_lowercase();
    if matches!(
        lower.as_str(),
        "(none)" | "none" | "0000" | "null" | "resign"
    ) {
        return Reply::NoMove;
    }
    let rest = &toks[2..];
    let ponder = rest
        .windows(2)
        .find(|w| w[0] == "ponder")
        .map(|w| w[1].chars().take(32).collect());
    Reply::Move {
        raw: raw.chars().take(32).collect(),
        mv: move_from_engine(raw, notation),
        ponder,
        offers_draw: rest.contains(&"draw"),
        resigns: rest.contains(&"resign"),
    }
}

/// `go ...` as a search on the opponent's time: `go ponder ...` (a draw offer is never part
/// of it: UCCI sends it with `ponderhit draw`).
fn ponder_line(go: &str) -> String {
    let rest = go.strip_prefix("go").unwrap_or(go).trim_start();
    let rest = rest.strip_prefix("draw ").unwrap_or(rest);
    format!("go ponder {rest}")
}

/// The `go` line for `protocol`. UCCI clock values are ms when the engine took
/// `usemillisec`, else whole seconds (ucci.md 6); UCI's `wtime`/`winc` are Red's (w = Red).
/// A pending draw offer becomes UCCI's `go draw` (UCI has none).
pub fn go_command(
    protocol: Protocol,
    millisec: bool,
    limits: &GoLimits<'_>,
    side: Color,
    draw_offered: bool,
) -> String {
    let draw = if draw_offered && protocol == Protocol::Ucci {
        "draw "
    } else {
        ""
    };
    let value = |ms: u64| if millisec { ms } else { ms / 1000 };
    match (limits, protocol) {
        (GoLimits::Depth(d), _) => format!("go {draw}depth {d}"),
        (GoLimits::Nodes(n), _) => format!("go {draw}nodes {n}"),
        (GoLimits::MoveTime(ms), Protocol::Uci) => format!("go movetime {ms}"),
        // ElephantEye has no movetime; "time T movestogo 1" means "T for this move".
        (GoLimits::MoveTime(ms), Protocol::Ucci) => {
            format!("go {draw}time {} movestogo 1", value(*ms))
        }
        (GoLimits::Clock { red, black }, Protocol::Uci) => {
            let mut s = format!(
                "go wtime {} btime {} winc {} binc {}",
                red.remaining_ms(),
                black.remaining_ms(),
                red.increment_ms(),
                black.increment_ms()
            );
            let own = if side == Color::Red { red } else { black };
            if let Some(m) = own.moves_to_go() {
                s.push_str(&format!(" movestogo {m}"));
            }
            s
        }
        (GoLimits::Clock { red, black }, Protocol::Ucci) => {
            let (own, opp) = if side == Color::Red {
                (red, black)
            } else {
                (black, red)
            };
            let mut s = format!("go {draw}time {}", value(own.remaining_ms()));
            match own.moves_to_go() {
                Some(m) => s.push_str(&format!(" movestogo {m}")),
                None => s.push_str(&format!(" increment {}", value(own.increment_ms()))),
            }
            s.push_str(&format!(" opptime {}", value(opp.remaining_ms())));
            match opp.moves_to_go() {
                Some(m) => s.push_str(&format!(" oppmovestogo {m}")),
                None => s.push_str(&format!(" oppincrement {}", value(opp.increment_ms()))),
            }
            s
        }
    }
}

impl EngineProcess {
    /// Starts the engine and completes the handshake, options and a `readyok`.
    pub fn start(
        spec: &EngineSpec,
        timeouts: Timeouts,
        log: Option<IoLog>,
        tag: &str,
    ) -> Result<EngineProcess, EngineError> {
        match spec.protocol {
            ProtocolChoice::Ucci => Self::start_as(spec, Protocol::Ucci, timeouts, log, tag, false),
            ProtocolChoice::Uci => Self::start_as(spec, Protocol::Uci, timeouts, log, tag, false),
            // UCCI first: ElephantEye-style engines exit on any other first line, while UCI
            // engines answer "ucci" with an error line or silence (ucci.md 9.5).
            ProtocolChoice::Auto => {
                match Self::start_as(spec, Protocol::Ucci, timeouts, log.clone(), tag, true) {
                    Ok(e) => Ok(e),
                    Err(EngineError::Spawn(e)) => Err(EngineError::Spawn(e)),
                    Err(_) => Self::start_as(spec, Protocol::Uci, timeouts, log, tag, false),
                }
            }
        }
    }

    fn spawn(spec: &EngineSpec) -> Result<(Child, ChildStdin, Receiver<Event>), EngineError> {
        let mut program = spec.command.clone();
        let mut dir = spec.dir.clone();
        // A path (not a bare name looked up in PATH) runs from its own folder by default.
        if program.components().count() > 1 {
            if let Ok(abs) = std::fs::canonicalize(&program) {
                program = abs;
            }
            if dir.is_none() {
                dir = program.parent().map(PathBuf::from);
            }
        }
        let mut cmd = Command::new(&program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(d) = &dir {
            cmd.current_dir(d);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Spawn(format!("{}: {e}", program.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn("no pipes".into()));
        };
        Ok((child, stdin, spawn_reader(stdout)))
    }

    fn start_as(
        spec: &EngineSpec,
        protocol: Protocol,
        timeouts: Timeouts,
        log: Option<IoLog>,
        tag: &str,
        detecting: bool,
    ) -> Result<EngineProcess, EngineError> {
        let (child, stdin, rx) = Self::spawn(spec)?;
        let mut e = EngineProcess {
            spec: spec.clone(),
            child,
            stdin: Some(stdin),
            rx,
            eof: false,
            protocol,
            notation: RankOrigin::Zero,
            notation_checked: protocol == Protocol::Ucci || spec.notation.is_some(),
            millisec: protocol == Protocol::Uci,
            has_isready: true,
            id_name: None,
            log,
            tag: tag.to_string(),
            timeouts,
            pondering: None,
            killed_for: None,
            setup_notes: Vec::new(),
            collecting: false,
        };
        let options = e.handshake(detecting)?;
        e.configure(&options)?;
        e.collecting = true;
        let synced = e.sync();
        e.collecting = false;
        match synced {
            Ok(()) => Ok(e),
            Err(EngineError::NotReady) if protocol == Protocol::Ucci => {
                // isready is optional in UCCI practice (XQWizard never sends it).
                e.has_isready = false;
                Ok(e)
            }
            Err(err) => {
                e.kill();
                Err(err)
            }
        }
    }

    /// Says hello in the engine's protocol and reads its answer up to `ucciok`/`uciok`: its
    /// name and the options it offers (lower-case name, whole line). A missing answer, or
    /// (`detecting`) a complaint about `ucci`, ends the engine.
    fn handshake(&mut self, detecting: bool) -> Result<Vec<(String, String)>, EngineError> {
        let (hello, ok, wait) = match self.protocol {
            Protocol::Ucci => (
                "ucci",
                "ucciok",
                if detecting {
                    self.timeouts.detect
                } else {
                    self.timeouts.handshake
                },
            ),
            Protocol::Uci => ("uci", "uciok", self.timeouts.handshake),
        };
        self.send(hello);
        let deadline = Instant::now() + wait;
        let mut options: Vec<(String, String)> = Vec::new();
        loop {
            let line = match self.recv_until(deadline) {
                Some(Event::Line(_, l)) => l,
                Some(Event::Eof(_)) => {
                    self.kill();
                    return Err(EngineError::Handshake(format!("exited before {ok}")));
                }
                None => {
                    self.kill();
                    return Err(EngineError::Handshake(format!("no {ok} in {wait:?}")));
                }
            };
            let trimmed = line.trim();
            if trimmed == ok {
                break;
            }
            // A UCI engine's complaint about "ucci": no need to wait out the timeout.
            if detecting && trimmed.to_ascii_lowercase().contains("unknown command") {
                self.kill();
                return Err(EngineError::Handshake("does not know ucci".into()));
            }
            let toks: Vec<&str> = trimmed.split_whitespace().collect();
            match toks.as_slice() {
                ["id", "name", rest @ ..] if !rest.is_empty() => {
                    self.id_name = Some(rest.join(" "));
                }
                ["option", "name", ..] => {
                    let rest = trimmed.split_once(" name ").map_or("", |(_, r)| r);
                    let name = rest.split(" type ").next().unwrap_or("").trim();
                    options.push((name.to_ascii_lowercase(), trimmed.to_string()));
                }
                ["option", name, ..] => {
                    options.push((name.to_ascii_lowercase(), trimmed.to_string()));
                }
                _ => {}
            }
        }
        Ok(options)
    }

    /// Sets what the spec asks for and the engine offers: millisecond clocks, the xiangqi
    /// variant (refused where a UCI engine does not offer it), the rank numbering, pondering
    /// and the spec's options.
    fn configure(&mut self, options: &[(String, String)]) -> Result<(), EngineError> {
        let offered = |n: &str| options.iter().find(|(k, _)| k == n).map(|(_, l)| l.clone());
        match self.protocol {
            Protocol::Ucci => {
                self.notation = self.spec.notation.unwrap_or(RankOrigin::Zero);
                if offered("usemillisec").is_some() {
                    self.send("setoption usemillisec true");
                    self.millisec = true;
                }
                // The time policy of an engine that expects ponder hits (ucci.md 3).
                if self.spec.ponder && offered("ponder").is_some() {
                    self.send("setoption ponder true");
                }
                for (k, v) in self.spec.options.clone() {
                    let line = if v.is_empty() {
                        format!("setoption {k}")
                    } else {
                        format!("setoption {k} {v}")
                    };
                    self.send(&line);
                }
            }
            Protocol::Uci => {
                let variant = offered("uci_variant");
                if let Some(line) = &variant {
                    let toks: Vec<&str> = line.split_whitespace().collect();
                    let has = toks
                        .windows(2)
                        .any(|w| w[0] == "var" && w[1].eq_ignore_ascii_case("xiangqi"))
                        || toks
                            .windows(2)
                            .any(|w| w[0] == "default" && w[1].eq_ignore_ascii_case("xiangqi"));
                    if !has {
                        self.kill();
                        return Err(EngineError::NoXiangqi);
                    }
                    self.send("setoption name UCI_Variant value xiangqi");
                }
                self.notation = self.spec.notation.unwrap_or_else(|| uci_notation(options));
                if self.spec.ponder && offered("ponder").is_some() {
                    self.send("setoption name Ponder value true");
                }
                for (k, v) in self.spec.options.clone() {
                    let line = if v.is_empty() {
                        format!("setoption name {k}")
                    } else {
                        format!("setoption name {k} value {v}")
                    };
                    self.send(&line);
                }
            }
        }
        Ok(())
    }

    /// Display name from the spec.
    pub fn name(&self) -> &str {
        &self.spec.name
    }

    /// What the engine said with `info string` while its options were set, before its first
    /// `readyok` (at most [`SETUP_NOTES_MAX`] lines).
    pub fn setup_notes(&self) -> &[String] {
        &self.setup_notes
    }

    /// The engine's own `id name`, if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The protocol in use.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }

    /// The engine's own time control, if its spec gave one (`tc=`).
    pub fn time_control(&self) -> Option<&TimeControl> {
        self.spec.tc.as_ref()
    }

    /// The move notation in use.
    pub fn notation(&self) -> RankOrigin {
        self.notation
    }

    /// Still running and readable?
    pub fn is_alive(&mut self) -> bool {
        !self.eof && matches!(self.child.try_wait(), Ok(None))
    }

    fn send(&mut self, line: &str) {
        if let Some(log) = &self.log {
            log.write(&self.tag, ">", line);
        }
        let ok = match self.stdin.as_mut() {
            Some(w) => w
                .write_all(line.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .and_then(|_| w.flush())
                .is_ok(),
            None => false,
        };
        if !ok {
            // A closed pipe means the engine is gone; the reader will report EOF.
            self.stdin = None;
        }
    }

    /// Next event before `deadline`; `None` on timeout.
    fn recv_until(&mut self, deadline: Instant) -> Option<Event> {
        if self.eof {
            return Some(Event::Eof(Instant::now()));
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        let ev = match self.rx.recv_timeout(wait) {
            Ok(ev) => ev,
            Err(RecvTimeoutError::Timeout) => return None,
            Err(RecvTimeoutError::Disconnected) => Event::Eof(Instant::now()),
        };
        match &ev {
            Event::Line(_, l) => {
                if let Some(log) = &self.log {
                    log.write(&self.tag, "<", l);
                }
                self.note(l);
            }
            Event::Eof(_) => {
                self.eof = true;
                if let Some(log) = &self.log {
                    log.write(&self.tag, "<", "<EOF>");
                }
            }
        }
        Some(ev)
    }

    /// Keeps an `info string` line said while the options are set.
    fn note(&mut self, line: &str) {
        if !self.collecting || self.setup_notes.len() >= SETUP_NOTES_MAX {
            return;
        }
        if let Some(text) = line.trim().strip_prefix("info string ") {
            self.setup_notes
                .push(text.trim().chars().take(SETUP_NOTE_CHARS).collect());
        }
    }

    /// Throws away lines left over from earlier (late `info`, a `bestmove` after `stop`).
    fn drain(&mut self) {
        loop {
            match self.rx.try_recv() {
                Ok(Event::Line(_, l)) => {
                    if let Some(log) = &self.log {
                        log.write(&self.tag, "<", &l);
                    }
                    self.note(&l);
                }
                Ok(Event::Eof(_)) | Err(TryRecvError::Disconnected) => {
                    self.eof = true;
                    return;
                }
                Err(TryRecvError::Empty) => return,
            }
        }
    }

    /// Waits for a line whose first word is one of `words`.
    fn wait_for(&mut self, words: &[&str], timeout: Duration) -> Result<String, EngineError> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv_until(deadline) {
                Some(Event::Line(_, l)) => {
                    if l.split_whitespace()
                        .next()
                        .is_some_and(|w| words.contains(&w))
                    {
                        return Ok(l);
                    }
                }
                Some(Event::Eof(_)) => return Err(EngineError::Died),
                None => return Err(EngineError::NotReady),
            }
        }
    }

    /// `isready` → `readyok`.
    fn sync(&mut self) -> Result<(), EngineError> {
        if !self.has_isready {
            self.drain();
            return if self.eof {
                Err(EngineError::Died)
            } else {
                Ok(())
            };
        }
        self.send("isready");
        self.wait_for(&["readyok"], self.timeouts.ready).map(|_| ())
    }

    /// Tells the engine a new game starts and waits until it is ready.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.drain();
        match self.protocol {
            Protocol::Ucci => self.send("setoption newgame"),
            Protocol::Uci => self.send("ucinewgame"),
        }
        self.sync()
    }

    /// The `go` line for these limits with `side` to move.
    pub fn go_command(&self, limits: &GoLimits<'_>, side: Color, draw_offered: bool) -> String {
        go_command(self.protocol, self.millisec, limits, side, draw_offered)
    }

    /// Sends the position (`fen` then `moves`) and `go`, and waits until `deadline` after
    /// `go` for the answer. At the deadline the engine gets `stop` and a short grace to
    /// answer (so it can be reused), else it is killed.
    pub fn think(&mut self, fen: &str, moves: &[Move], go: &str, deadline: Duration) -> Thought {
        let mut thought = self.ask(fen, moves, go, deadline);
        if !self.notation_checked {
            if let Reply::Move { raw, mv, .. } = &mut thought.reply {
                self.check_notation(fen, moves, raw, mv);
            }
        }
        thought
    }

    /// Checks the guessed rank origin against an answer in the position `fen` + `moves`, and
    /// switches to the other origin when only that one makes the move legal (then `mv` is
    /// read again under it).
    fn check_notation(&mut self, fen: &str, moves: &[Move], raw: &str, mv: &mut Option<String>) {
        let Ok(mut pos) = Position::from_fen(fen) else {
            return;
        };
        for &m in moves {
            pos.make_move(m);
        }
        match origin_of_move(&pos, raw) {
            Some(n) if n == self.notation => self.notation_checked = true,
            Some(n) => {
                if let Some(log) = &self.log {
                    let line = format!(
                        "<runner: '{raw}' is legal only with ranks from {}; switching>",
                        u8::from(n == RankOrigin::One)
                    );
                    log.write(&self.tag, "=", &line);
                }
                self.notation = n;
                self.notation_checked = true;
                *mv = move_from_engine(raw, n);
            }
            None => {}
        }
    }

    /// `think` without the rank-origin check.
    fn ask(&mut self, fen: &str, moves: &[Move], go: &str, deadline: Duration) -> Thought {
        self.send_position(fen, moves);
        self.send(go);
        self.await_reply(Instant::now(), deadline)
    }

    /// Clears what is left from earlier and sends `position fen FEN moves ...`.
    fn send_position(&mut self, fen: &str, moves: &[Move]) {
        self.drain();
        let mut pos = format!("position fen {fen}");
        if !moves.is_empty() {
            pos.push_str(" moves");
            for &m in moves {
                pos.push(' ');
                pos.push_str(&move_to_engine(m, self.notation));
            }
        }
        self.send(&pos);
    }

    /// A move as the engine wrote it, in ICCS (`None` when it is not a move in its notation).
    pub fn read_move(&self, raw: &str) -> Option<String> {
        move_from_engine(raw, self.notation)
    }

    /// Does this engine think on the opponent's time (`ponder=on` in its spec)?
    pub fn ponders(&self) -> bool {
        self.spec.ponder
    }

    /// The move the running `go ponder` search predicted, if one runs.
    pub fn pondering(&self) -> Option<Move> {
        self.pondering
    }

    /// Starts a search on the opponent's time: the position `fen` + `moves` ends with the
    /// predicted move, and `go` is the line the engine would get for its own move there,
    /// sent as `go ponder ...`. Nothing is awaited: [`ponder_hit`](Self::ponder_hit) or
    /// [`stop_pondering`](Self::stop_pondering) ends it.
    pub fn start_pondering(&mut self, fen: &str, moves: &[Move], go: &str) {
        let Some(&predicted) = moves.last() else {
            return;
        };
        self.send_position(fen, moves);
        self.send(&ponder_line(go));
        self.pondering = Some(predicted);
    }

    /// The predicted move was played: `ponderhit` (`ponderhit draw` when the opponent offered
    /// a draw with it, in UCCI), then the answer is awaited as after `go`; the time counts
    /// from the `ponderhit`, as a GUI's clock does. A `bestmove` given while still
    /// pondering (the engine was sure early) is the answer, after no time.
    pub fn ponder_hit(&mut self, draw_offered: bool, deadline: Duration) -> Thought {
        self.pondering = None;
        if draw_offered && self.protocol == Protocol::Ucci {
            self.send("ponderhit draw");
        } else {
            self.send("ponderhit");
        }
        self.await_reply(Instant::now(), deadline)
    }

    /// Ends a search on the opponent's time that is not wanted (a ponder miss, or the game
    /// ended): `stop`, and its answer is thrown away. An engine that does not answer within
    /// the stop grace is killed, and its next move reports the crash.
    ///
    /// Then `isready` until `readyok`: an engine may have answered before the `stop` (a mate
    /// or a single reply found while pondering), and ElephantEye answers a `stop` that finds
    /// it idle with `nobestmove`, which would otherwise be read as the answer to the next
    /// `go`. Lines before `readyok` are the previous search's.
    pub fn stop_pondering(&mut self) {
        if self.pondering.take().is_none() {
            return;
        }
        self.send("stop");
        let unanswered = if self
            .wait_for(&["bestmove", "nobestmove"], self.timeouts.stop_grace)
            .is_err()
        {
            Some((
                "stop (a search on the opponent's time)",
                self.timeouts.stop_grace,
            ))
        } else if self.sync().is_err() {
            Some((
                "isready after stopping a search on the opponent's time",
                self.timeouts.ready,
            ))
        } else {
            None
        };
        if let Some((what, within)) = unanswered {
            // An engine that died by itself crashed; one that hangs is killed here.
            if !self.eof {
                self.killed_for = Some(format!(
                    "killed by the runner: no answer to {what} within {} ms",
                    within.as_millis()
                ));
            }
            self.kill();
        }
    }

    /// Reads `info` lines until the answer to a search, or until `deadline` after `t0`.
    fn await_reply(&mut self, t0: Instant, deadline: Duration) -> Thought {
        let end = t0 + deadline;
        let mut score = None;
        let mut depth = None;
        loop {
            match self.recv_until(end) {
                Some(Event::Line(at, line)) => {
                    let first = line.split_whitespace().next().unwrap_or("");
                    let reply = match first {
                        "info" => {
                            parse_info(&line, &mut score, &mut depth);
                            continue;
                        }
                        "bestmove" => parse_bestmove(&line, self.notation),
                        "nobestmove" => Reply::NoMove,
                        _ => continue,
                    };
                    return Thought {
                        reply,
                        elapsed: at.saturating_duration_since(t0),
                        score,
                        depth,
                    };
                }
                Some(Event::Eof(at)) => {
                    self.kill();
                    return Thought {
                        reply: Reply::Crash(self.killed_for.take()),
                        elapsed: at.saturating_duration_since(t0),
                        score,
                        depth,
                    };
                }
                None => {
                    // Charged up to the deadline; the stop grace is not the engine's move.
                    let elapsed = t0.elapsed();
                    self.send("stop");
                    if self
                        .wait_for(&["bestmove", "nobestmove"], self.timeouts.stop_grace)
                        .is_err()
                    {
                        self.kill();
                    }
                    return Thought {
                        reply: Reply::Timeout,
                        elapsed,
                        score,
                        depth,
                    };
                }
            }
        }
    }

    /// Kills the process at once. The signal comes before its input is closed: an engine
    /// that saw the end of its input first would exit by itself (status 0), which reads as
    /// a crash of its own rather than a kill.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        self.stdin = None;
        let _ = self.child.wait();
        self.eof = true;
    }

    /// `quit`, a short wait for the exit, then kill.
    pub fn quit(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.send("quit");
            self.stdin = None;
            let end = Instant::now() + self.timeouts.quit;
            while Instant::now() < end {
                if !matches!(self.child.try_wait(), Ok(None)) {
                    return;
                }
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }
}

impl Drop for EngineProcess {
    /// Never leave an engine running behind a finished or failed match.
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            self.shutdown();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notations() {
        assert_eq!(
            move_from_engine("h2e2", RankOrigin::Zero).as_deref(),
            Some("h2e2")
        );
        assert_eq!(
            move_from_engine("H2-E2", RankOrigin::Zero).as_deref(),
            Some("h2e2")
        );
        assert_eq!(
            move_from_engine("h3e3", RankOrigin::One).as_deref(),
            Some("h2e2")
        );
        assert_eq!(
            move_from_engine("h10g8", RankOrigin::One).as_deref(),
            Some("h9g7")
        );
        for bad in ["", "h0e0", "h11e1", "z1a1", "h3", "h3e3e3", "ééé"] {
            assert_eq!(move_from_engine(bad, RankOrigin::One), None, "{bad}");
        }
        for bad in ["", "h10g8", "j2e2", "h2e"] {
            assert_eq!(move_from_engine(bad, RankOrigin::Zero), None, "{bad}");
        }
        let m: Move = "h9g7".parse().unwrap();
        assert_eq!(move_to_engine(m, RankOrigin::One), "h10g8");
        assert_eq!(move_to_engine(m, RankOrigin::Zero), "h9g7");
    }

    #[test]
    fn rank_origin_from_options_and_moves() {
        let opt = |line: &str| {
            let name = line
                .split_once(" name ")
                .map_or("", |(_, r)| r)
                .split(" type ")
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            (name, line.to_string())
        };
        let variant = opt("option name UCI_Variant type combo default xiangqi var xiangqi");
        let rank0 = opt("option name Rank Origin type combo default 0 var 0 var 1");
        let rank1 = opt("option name Rank Origin type combo default 1 var 0 var 1");
        let hash = opt("option name Hash type spin default 16 min 1 max 1024");
        // Jiangjun: UCI_Variant and a rank option with default 0.
        assert_eq!(
            uci_notation(&[variant.clone(), rank0.clone()]),
            RankOrigin::Zero
        );
        assert_eq!(uci_notation(&[rank1, hash.clone()]), RankOrigin::One);
        // Fairy-Stockfish: UCI_Variant only. Pikafish: neither.
        assert_eq!(uci_notation(&[variant, hash.clone()]), RankOrigin::One);
        assert_eq!(uci_notation(&[hash]), RankOrigin::Zero);
        assert_eq!(uci_notation(&[]), RankOrigin::Zero);

        let start = Position::startpos();
        assert_eq!(origin_of_move(&start, "h2e2"), Some(RankOrigin::Zero));
        assert_eq!(origin_of_move(&start, "h3e3"), Some(RankOrigin::One));
        assert_eq!(origin_of_move(&start, "h10g8"), None);
        assert_eq!(origin_of_move(&start, "zz"), None);
        let mut black = start.clone();
        black.play("h2e2").unwrap();
        assert_eq!(origin_of_move(&black, "h10g8"), Some(RankOrigin::One));
        assert_eq!(origin_of_move(&black, "h9g7"), Some(RankOrigin::Zero));
        // Legal both ways (rooks on a1 and a2 can both step to the b-file): no verdict.
        let both = Position::from_fen("3k5/9/9/9/9/9/9/R8/R8/4K4 w - - 0 1").unwrap();
        assert_eq!(origin_of_move(&both, "a2b2"), None);
    }

    #[test]
    fn info_and_bestmove_lines() {
        let (mut s, mut d) = (None, None);
        parse_info("info depth 7 score 24 pv h2e2 h9g7", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Cp(24)), Some(7)));
        parse_info(
            "info depth 9 seldepth 12 score mate -3 nodes 5",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(Score::Mate(-3)), Some(9)));
        parse_info(
            "info depth x score cp garbage string score cp 5",
            &mut s,
            &mut d,
        );
        assert_eq!((s, d), (Some(Score::Mate(-3)), Some(9)));
        assert!(Score::Mate(-3).value() < Score::Cp(-30000).value());
        assert_eq!(parse_bestmove("bestmove", RankOrigin::Zero), Reply::NoMove);
        assert_eq!(
            parse_bestmove("bestmove (none)", RankOrigin::Zero),
            Reply::NoMove
        );
        assert_eq!(
            parse_bestmove("bestmove h2e2 ponder h9g7 draw", RankOrigin::Zero),
            Reply::Move {
                raw: "h2e2".into(),
                mv: Some("h2e2".into()),
                ponder: Some("h9g7".into()),
                offers_draw: true,
                resigns: false
            }
        );
        assert!(matches!(
            parse_bestmove("bestmove zz99 resign", RankOrigin::Zero),
            Reply::Move {
                mv: None,
                resigns: true,
                ..
            }
        ));
    }

    #[test]
    fn ponder_lines() {
        assert_eq!(
            ponder_line("go time 100 movestogo 1"),
            "go ponder time 100 movestogo 1"
        );
        assert_eq!(
            ponder_line("go draw time 5000 increment 0 opptime 4000 oppincrement 0"),
            "go ponder time 5000 increment 0 opptime 4000 oppincrement 0"
        );
        assert_eq!(
            ponder_line("go wtime 1000 btime 900 winc 10 binc 10"),
            "go ponder wtime 1000 btime 900 winc 10 binc 10"
        );
    }

    #[test]
    fn go_lines() {
        use crate::tournament::clock::TimeControl;
        let tc = TimeControl::parse("60+1").unwrap();
        let (mut red, black) = (Clock::new(&tc), Clock::new(&tc));
        red.charge(Duration::from_millis(2500), Duration::ZERO)
            .unwrap();
        let clocks = GoLimits::Clock {
            red: &red,
            black: &black,
        };
        assert_eq!(
            go_command(Protocol::Ucci, true, &clocks, Color::Black, true),
            "go draw time 60000 increment 1000 opptime 58500 oppincrement 1000"
        );
        assert_eq!(
            go_command(Protocol::Ucci, false, &clocks, Color::Red, false),
            "go time 58 increment 1 opptime 60 oppincrement 1"
        );
        assert_eq!(
            go_command(Protocol::Uci, true, &clocks, Color::Black, true),
            "go wtime 58500 btime 60000 winc 1000 binc 1000"
        );
        let tc = TimeControl::parse("40/300").unwrap();
        let c = Clock::new(&tc);
        let periods = GoLimits::Clock { red: &c, black: &c };
        assert_eq!(
            go_command(Protocol::Ucci, true, &periods, Color::Red, false),
            "go time 300000 movestogo 40 opptime 300000 oppmovestogo 40"
        );
        assert_eq!(
            go_command(Protocol::Uci, true, &periods, Color::Red, false),
            "go wtime 300000 btime 300000 winc 0 binc 0 movestogo 40"
        );
        assert_eq!(
            go_command(
                Protocol::Ucci,
                true,
                &GoLimits::MoveTime(100),
                Color::Red,
                false
            ),
            "go time 100 movestogo 1"
        );
        assert_eq!(
            go_command(
                Protocol::Uci,
                true,
                &GoLimits::MoveTime(100),
                Color::Red,
                true
            ),
            "go movetime 100"
        );
        assert_eq!(
            go_command(Protocol::Uci, true, &GoLimits::Depth(5), Color::Red, false),
            "go depth 5"
        );
    }
}
