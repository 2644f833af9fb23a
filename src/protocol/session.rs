//! The protocol state machine: one GUI session, UCCI or UCI, from the first line to `quit`.
//!
//! ```text
//!  reader thread ──Event::Line/TooLong/Eof──┐
//!                                           ├─▶ channel ─▶ Session::handle ─▶ stdout
//!  search thread ──Event::Report(Info/Done)─┘                  │
//!                                                              └─▶ Engine (façade)
//! ```
//!
//! Everything runs on the main thread except reading stdin and searching, so the session never
//! blocks: `isready`, `stop` and `ponderhit` are answered while the engine thinks.
//!
//! States (ucci.md §2): **boot** until a line chooses the dialect (`ucci`, `uci`, `ucicyclone`,
//! or a position line, which means an implicit UCI-Cyclone session, §9.5); then **idle**; then
//! **thinking** from `go` until the `bestmove`/`nobestmove` is printed.
//!
//! While thinking, the commands meant for that state (`isready`, `stop`, `ponderhit`, `probe`,
//! `quit`) act at once; every other command is **queued and run after `bestmove`**, in order,
//! so a piped script works with or without `batch` (ucci.md §2 note 4, transcripts 35). With
//! `batch` on, everything is queued (the engine "does not read" while thinking) except `quit`.
//!
//! Shutting down: `quit` prints `bye` (UCCI) and ends at once — unless commands are queued, which
//! means a piped script is still being worked through: then it ends after them. End of input
//! is a `quit` that always waits for the work in hand (the last `go` of a script without
//! `quit` still gets its answer); searches that would wait forever for `stop` (`infinite`,
//! ponder) are stopped, since no `stop` can come any more.
//!
//! Bad input never ends the session: every malformed line gets an `info string` naming the
//! problem, and nothing reachable from input panics.

use super::command::{
    parse_line, ucci_time_scale, Command, Dialect, GoParams, ParseError, PositionSpec,
};
use super::configure::Configuration;
use super::draw_resign::{DrawResign, Facts};
use super::options::{self, Effect};
use super::output::{self, Suffix};
use crate::board::rank_origin::{
    list_ranks1_to_ranks0, root_move_ranks0, surely_ranks1, RankOrigin,
};
use crate::board::{Color, FenError, Move, Position, RefusedMove};
use crate::engine::Engine;
use crate::search::limits::{Limits, MAX_DEPTH};
use crate::search::report::{Report, SearchResult};
use crate::search::time::{Lateness, TimeLimits};
use crate::search::tt::TableStats;
use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Longest accepted input line: 1 MiB, about 200,000 moves — far beyond any real game. The
/// reader (the `stdio` module) skips longer lines and sends [`Event::TooLong`] instead.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The time manager's reading of a `go` (kept here, not in `command.rs`, because the parser
/// depends on nothing above std; the type it fills is the search's).
impl GoParams {
    /// The time limits this `go` sets, in milliseconds and from the mover's point of view.
    /// What only the session knows (the move overhead option, the game's ply, whether the GUI
    /// ponders) is left at its default for the session to fill in.
    ///
    /// UCCI's own keywords (`time`, `increment`, `opptime`, `oppincrement`) win when present;
    /// otherwise UCI's `wtime`/`btime`/`winc`/`binc` are mapped by the side to move (`w` is Red,
    /// ucci.md §9.1); if only the other side's clock is given, it stands in for ours, so a timed
    /// `go` never becomes an untimed search.
    pub fn limits(&self, dialect: Dialect, usemillisec: bool, red_to_move: bool) -> TimeLimits {
        let scale = ucci_time_scale(dialect, usemillisec);
        let ucci = |v: Option<u64>| v.map(|v| v.saturating_mul(scale));
        let (mine, theirs, my_inc, their_inc) = if red_to_move {
            (self.wtime, self.btime, self.winc, self.binc)
        } else {
            (self.btime, self.wtime, self.binc, self.winc)
        };
        let (remaining, increment, opp_remaining, opp_increment) = if self.time.is_some() {
            (
                ucci(self.time),
                ucci(self.increment),
                ucci(self.opptime),
                ucci(self.oppincrement),
            )
        } else {
            (
                // Only the other side's clock given: assume ours is the same rather than
                // search without any time limit.
                mine.or(theirs),
                my_inc.or(ucci(self.increment)),
                theirs.or(ucci(self.opptime)),
                their_inc.or(ucci(self.oppincrement)),
            )
        };
        TimeLimits {
            remaining_ms: remaining,
            increment_ms: increment.unwrap_or(0),
            moves_to_go: self.movestogo,
            movetime_ms: self.movetime,
            opp_remaining_ms: opp_remaining,
            opp_increment_ms: opp_increment.unwrap_or(0),
            ..TimeLimits::default()
        }
    }
}

/// What the main loop receives.
#[derive(Debug)]
pub enum Event {
    /// One input line (lossily decoded, line ending included or not).
    Line(String),
    /// A line longer than the reader accepts was skipped; its length in bytes.
    TooLong(usize),
    /// End of input.
    Eof,
    /// Progress or the result of the running search.
    Report(Report),
}

/// At most this many commands wait for a search to end; more are dropped with a message, so a
/// flood of input cannot exhaust memory.
pub const MAX_QUEUED: usize = 10_000;

/// The search in progress.
#[derive(Debug)]
struct Search {
    go: Box<GoParams>,
    red_to_move: bool,
    ply: u32,
    /// Still pondering (no `ponderhit` yet).
    pondering: bool,
    /// The opponent offers a draw (`go draw`, `ponderhit draw`).
    draw_offered: bool,
    /// `go infinite` (analysis): waits for `stop`.
    infinite: bool,
    dead_draw: bool,
    quiet_plies: u32,
    /// `stop` was sent to the engine (by the GUI or because input ended).
    stop_sent: bool,
    /// A result that came before the `stop`/`ponderhit` it must wait for.
    held: Option<SearchResult>,
    /// The bans in force before `searchmoves` narrowed this search, put back when it ends:
    /// `searchmoves` restricts one `go`, `banmoves` lasts until the next `position`.
    bans_before: Option<Vec<Move>>,
}

impl Search {
    /// Must the answer wait for `stop` (or `ponderhit`)? (ucci.md §2, transcripts 23, 26.)
    fn waits_for_stop(&self) -> bool {
        (self.infinite || self.pondering) && !self.stop_sent
    }
}

/// What waits for the search to end, in input order.
#[derive(Debug)]
enum Pending {
    Run(Command),
    /// A `position` line too malformed to parse: it still replaces the position the GUI
    /// means, so the game has none until the next good one (transcripts case 11).
    RefusedPosition(String),
}

/// How the session is to end once the work in hand is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shutdown {
    /// `quit` (UCCI prints `bye`).
    Quit,
    /// End of input: silent.
    Eof,
}

/// One protocol session writing to `out`.
pub struct Session<W: Write> {
    out: W,
    engine: Engine,
    /// `None` in the boot state.
    dialect: Option<Dialect>,
    /// The options' settings, and what they handed the engine (shared with CECP's session).
    config: Configuration,
    draw_resign: DrawResign,
    search: Option<Search>,
    /// Why there is no valid position: the last `position` had a FEN we refused. Until a good
    /// `position` arrives, `go` gives no move (transcripts case 11): a move from the previous
    /// position would reach the GUI as an illegal move in the position *it* sent.
    no_position: Option<String>,
    queue: VecDeque<Pending>,
    shutdown: Option<Shutdown>,
    exit: Option<i32>,
    /// Where the search thread sends its reports; `None` runs no searches (fuzzing, tests).
    reports: Option<Sender<Event>>,
    /// How late the GUI's clock says our moves come, learned from one `go` to the next.
    lateness: Lateness,
    /// When the clock of the timed search now running started for the engine (its `go`, or
    /// its `ponderhit`): its answer tells [`Lateness`] how long the engine itself took.
    clock_started: Option<Instant>,
}

impl<W: Write> Session<W> {
    /// A session in the boot state. With `reports`, `go` starts real searches that report
    /// there; without, `go` only enters the thinking state, and the caller ends the search
    /// with [`Session::simulate_search_end`] (fuzzing the line handler without threads).
    pub fn new(out: W, reports: Option<Sender<Event>>) -> Session<W> {
        Session {
            out,
            engine: Engine::new(),
            dialect: None,
            config: Configuration::default(),
            draw_resign: DrawResign::default(),
            search: None,
            no_position: None,
            queue: VecDeque::new(),
            shutdown: None,
            exit: None,
            reports,
            lateness: Lateness::default(),
            clock_started: None,
        }
    }

    /// The exit status, once the session has ended.
    pub fn exit_code(&self) -> Option<i32> {
        self.exit
    }

    /// Is a search running (from `go` until its answer is printed)?
    pub fn is_thinking(&self) -> bool {
        self.search.is_some()
    }

    /// The dialect chosen by the first command, if any yet.
    pub fn dialect(&self) -> Option<Dialect> {
        self.dialect
    }

    /// The output sink (tests read what was printed).
    pub fn output(&mut self) -> &mut W {
        &mut self.out
    }

    /// The output sink, for a session of another dialect to go on writing to (CECP's, chosen
    /// by a first line `xboard`, while this one is still in the boot state).
    pub fn into_output(self) -> W {
        self.out
    }

    /// The engine (tests and the fuzz target inspect its position).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handles one event from the main loop.
    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Line(line) => self.on_line(&line),
            Event::TooLong(bytes) => {
                if self.exit.is_none() && self.shutdown.is_none() {
                    self.info(&format!(
                        "input line of {bytes} bytes is longer than the {} byte limit; ignored",
                        MAX_LINE_BYTES
                    ));
                }
            }
            Event::Eof => self.on_eof(),
            Event::Report(r) => self.on_report(r),
        }
    }

    /// Handles one input line.
    pub fn on_line(&mut self, line: &str) {
        if self.exit.is_some() || self.shutdown.is_some() {
            return; // after `quit` nothing more is read
        }
        let parsed = parse_line(line, self.dialect.unwrap_or(Dialect::Ucci));
        for m in parsed.messages() {
            self.info(&m);
        }
        let cmd = match parsed.result {
            Ok(cmd) => cmd,
            Err(ParseError::Invalid {
                command: "position",
                reason,
            }) => {
                if self.search.is_some() {
                    self.enqueue(Pending::RefusedPosition(reason));
                } else {
                    self.no_position = Some(reason);
                }
                return;
            }
            Err(_) => return,
        };
        if self.search.is_some() {
            self.while_thinking(cmd);
        } else {
            self.execute(cmd);
        }
    }

    /// End of input: finish the work in hand, then end.
    pub fn on_eof(&mut self) {
        if self.exit.is_some() {
            return;
        }
        if self.search.is_none() {
            self.exit = Some(0);
        } else if self.shutdown.is_none() {
            self.begin_shutdown(Shutdown::Eof);
        }
    }

    /// Handles a report of the running search.
    pub fn on_report(&mut self, report: Report) {
        let Some(dialect) = self.dialect else {
            return;
        };
        if self.search.is_none() || self.exit.is_some() {
            return; // nothing is waiting for it
        }
        match report {
            Report::Info(info) => {
                let line = output::info_line(
                    dialect,
                    &info,
                    self.out_origin(),
                    self.config.settings.show_wdl,
                );
                self.send(&line);
            }
            Report::Book { candidates, chosen } => {
                let lines = output::book_lines(
                    dialect,
                    &candidates,
                    chosen,
                    self.out_origin(),
                    self.config.settings.multipv,
                    self.config.settings.show_wdl,
                );
                for line in lines {
                    self.send(&line);
                }
            }
            Report::Warning(text) => self.info(&text),
            Report::Done(outcome) => {
                // The answer to `go infinite` / `go ponder` waits for `stop`/`ponderhit`, even
                // when the search has nothing left to do (a found mate, the depth limit).
                match &mut self.search {
                    Some(s) if s.waits_for_stop() => s.held = Some(outcome),
                    _ => self.finish_search(outcome),
                }
            }
        }
    }

    /// Ends the current (simulated) search as if it had found the first legal unbanned move
    /// with this score and depth. For running the session without search threads.
    pub fn simulate_search_end(&mut self, score: i32, depth: i32) {
        if self.search.is_none() {
            return;
        }
        let pos = self.engine.position();
        let banned = self.engine.banned();
        let moves: Vec<Move> = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !banned.contains(m))
            .collect();
        let outcome = SearchResult {
            best: moves.first().copied(),
            ponder: None,
            score,
            depth,
            root_moves: moves.len(),
            table: TableStats::default(),
            nodes: 0,
        };
        self.on_report(Report::Done(outcome));
    }

    // ---- state handling ----

    fn while_thinking(&mut self, cmd: Command) {
        if self.config.settings.batch {
            match cmd {
                Command::Quit => self.begin_shutdown(Shutdown::Quit),
                other => self.enqueue(Pending::Run(other)),
            }
            return;
        }
        match cmd {
            Command::IsReady => self.send("readyok"),
            Command::Stop => self.stop(),
            Command::PonderHit { draw } => self.ponderhit(draw),
            Command::Probe { fen, moves } => self.probe(&fen, &moves),
            Command::Quit if self.queue.is_empty() => self.quit_now(),
            Command::Quit => self.begin_shutdown(Shutdown::Quit),
            other => self.enqueue(Pending::Run(other)),
        }
    }

    fn enqueue(&mut self, cmd: Pending) {
        if self.queue.len() >= MAX_QUEUED {
            self.info("too many commands waiting for the search to end; command dropped");
        } else {
            self.queue.push_back(cmd);
        }
    }

    /// Runs a command in the boot or idle state.
    fn execute(&mut self, cmd: Command) {
        // A handshake is answered in either state (a second one starts the dialect again).
        let (cmd, dialect) = match (cmd, self.dialect) {
            (Command::Ucci, _) => return self.handshake(Dialect::Ucci),
            (Command::Uci, _) => return self.handshake(Dialect::Uci),
            (Command::UciCyclone, _) => {
                self.config.settings.rank_origin = RankOrigin::Zero;
                return self.handshake(Dialect::Uci);
            }
            (cmd, None) => return self.boot(cmd),
            (cmd, Some(dialect)) => (cmd, dialect),
        };
        match cmd {
            // Answered above, in either state.
            Command::Ucci | Command::Uci | Command::UciCyclone => {}
            Command::IsReady => {
                // Allocate the table now rather than at `go` (ucci.md §4.1); a session that
                // runs no searches never needs it.
                self.choose_default_book("isready");
                if self.reports.is_some() {
                    let had = self.engine.ensure_ready().size_mb();
                    let asked = self.engine.hash_mb();
                    if had < asked {
                        self.info(&format!(
                            "hashsize {asked} MB could not be allocated; using {had} MB"
                        ));
                    }
                }
                self.send("readyok");
            }
            Command::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            Command::Position { fen, moves } => self.set_position(&fen, moves),
            Command::BanMoves(moves) => self.ban_moves(&moves),
            Command::Go(params) => self.go(params),
            Command::PonderHit { .. } => self.info("ponderhit ignored: not pondering"),
            Command::Stop => {
                if dialect == Dialect::Ucci {
                    self.send("nobestmove");
                }
            }
            Command::Probe { fen, moves } => self.probe(&fen, &moves),
            Command::Quit => self.quit_now(),
            Command::UciNewGame => self.new_game(),
        }
    }

    /// A command before any handshake (those are answered by [`Session::execute`]).
    fn boot(&mut self, cmd: Command) {
        match cmd {
            Command::Position { fen, moves } => {
                // A bare position line first: an implicit UCI-Cyclone session (ucci.md §9.5).
                self.dialect = Some(Dialect::Uci);
                self.set_position(&fen, moves);
            }
            Command::IsReady => self.send("readyok"),
            Command::Quit => self.exit = Some(0),
            _ => self.info("no protocol chosen yet: send 'ucci' or 'uci' first; command ignored"),
        }
    }

    fn handshake(&mut self, dialect: Dialect) {
        self.dialect = Some(dialect);
        let version = env!("CARGO_PKG_VERSION");
        let mut lines = vec![format!("id name Jiangjun {version}")];
        match dialect {
            Dialect::Ucci => {
                lines.push(format!("id version {version}"));
                lines.push("id copyright the Jiangjun developers, GPL-3.0-or-later".to_string());
                lines.push("id author the Jiangjun developers".to_string());
                lines.push("id user open source".to_string());
            }
            Dialect::Uci => lines.push("id author the Jiangjun developers".to_string()),
        }
        lines.extend(options::announce(dialect));
        lines.push(match dialect {
            Dialect::Ucci => "ucciok".to_string(),
            Dialect::Uci => "uciok".to_string(),
        });
        for l in lines {
            self.send(&l);
        }
    }

    /// `setoption`: applied to the engine by the path every protocol shares.
    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let dialect = self.dialect.unwrap_or(Dialect::Ucci);
        let applied = self
            .config
            .apply(&mut self.engine, dialect.into(), name, value);
        if applied.effect == Effect::NewGame {
            self.draw_resign.reset();
        }
        for m in applied.messages {
            self.info(&m);
        }
    }

    fn new_game(&mut self) {
        self.engine.new_game();
        self.draw_resign.reset();
    }

    /// Hands the engine the default book (built in, or [`crate::book::BOOK_ENV`]'s) if no `bookfiles`
    /// came first, once, at the first `isready` or `go` of a session that searches; in debug
    /// mode `info string`s say which book and which network are in use, so a GUI user can
    /// see both.
    fn choose_default_book(&mut self, at: &str) {
        if self.reports.is_none() {
            return;
        }
        // Said whether or not `debug` is on, as a bad `bookfiles` is; the first `isready` or
        // `go` comes after the handshake, so stdout stays protocol.
        if let Some(why) = self.config.choose_default_book(&mut self.engine) {
            self.info(&why);
        }
        if self.config.settings.debug {
            let what = match self.engine.book_in_use() {
                Some(b) => format!(
                    "{} ({} positions, {} moves)",
                    b.path.display(),
                    b.positions(),
                    b.len()
                ),
                None => "none".to_string(),
            };
            self.info(&format!("{at}: book in use: {what}"));
            let net = match self.engine.active_network() {
                Some(_) => self.config.network_name.clone(),
                None if self.config.settings.use_nnue => {
                    "none (the hand-written evaluation)".to_string()
                }
                None => "none (usennue is false: the hand-written evaluation)".to_string(),
            };
            self.info(&format!("{at}: network in use: {net}"));
        }
    }

    /// Rank numbering of printed moves: UCCI is always 0-based.
    fn out_origin(&self) -> RankOrigin {
        match self.dialect {
            Some(Dialect::Uci) => self.config.settings.rank_origin,
            _ => RankOrigin::Zero,
        }
    }

    fn uci(&self) -> bool {
        self.dialect == Some(Dialect::Uci)
    }

    /// A GUI's move list (`position`, `probe`) as 0-based text: both readings, the one to try
    /// first, and whether that one is 1-based. UCI tries the `Rank Origin` numbering first
    /// (1-based at once when a token has a rank 10); UCCI and CECP moves are 0-based only.
    fn input_moves(&self, moves: Vec<String>) -> (Vec<String>, Option<Vec<String>>, bool) {
        if !self.uci() {
            return (moves, None, false);
        }
        let ranks1 = self.config.settings.rank_origin == RankOrigin::One
            || moves.iter().any(|m| surely_ranks1(m));
        let converted = list_ranks1_to_ranks0(&moves);
        if ranks1 {
            (converted, Some(moves), true)
        } else {
            (moves, Some(converted), false)
        }
    }

    /// The other reading of a list whose first reading is legal for only `legal` moves from
    /// `start`, read, when it plays more of them legally (ucci.md §9.5: a GUI uses one
    /// numbering throughout); under `debug` it says which numbering was read.
    fn other_reading(
        &mut self,
        what: &str,
        start: &Position,
        other: Option<Vec<String>>,
        first_ranks1: bool,
        legal: usize,
    ) -> Option<(Vec<Move>, Option<RefusedMove>)> {
        let read = start.parse_moves(&other?);
        if read.0.len() <= legal {
            return None;
        }
        if self.config.settings.debug {
            let (read, not) = if first_ranks1 {
                ("0-9", "1-10")
            } else {
                ("1-10", "0-9")
            };
            self.info(&format!("{what}: moves read with ranks {read}, not {not}"));
        }
        Some(read)
    }

    /// A game as a GUI writes it (`position`, `probe`) read into values: the set-up
    /// position, the moves up to the first that is not legal where it comes (read in the other
    /// rank numbering when that reads more of them), and that move's refusal.
    fn read_game(
        &mut self,
        what: &str,
        fen: &PositionSpec,
        moves: Vec<String>,
    ) -> Result<(Position, Vec<Move>, Option<RefusedMove>), FenError> {
        let start = match fen {
            PositionSpec::Startpos => Position::startpos(),
            PositionSpec::Fen(f) => Position::from_fen(f)?,
        };
        let (texts, other, ranks1) = self.input_moves(moves);
        let (mut played, mut refused) = start.parse_moves(&texts);
        if let Some(index) = refused.as_ref().map(|r| r.index) {
            if let Some(alt) = self.other_reading(what, &start, other, ranks1, index) {
                (played, refused) = alt;
            }
        }
        Ok((start, played, refused))
    }

    /// `position`: the game read and handed to the engine.
    fn set_position(&mut self, fen: &PositionSpec, moves: Vec<String>) {
        let (start, played, refused) = match self.read_game("position", fen, moves) {
            Ok(game) => game,
            Err(e) => {
                // Transcripts case 11: the engine keeps its previous position, but the game
                // has none until a valid one is sent.
                self.no_position = Some(e.to_string());
                self.info(&format!(
                    "position: {e}; no position until a valid one is sent"
                ));
                return;
            }
        };
        self.no_position = None;
        if let Err(e) = self.engine.set_game(start, &played) {
            // Every move read is legal where it comes: this is never reached.
            self.info(&format!("position: {e}"));
        }
        if let Some(RefusedMove { index, text, error }) = refused {
            let shown: String = text.chars().take(16).collect();
            self.info(&format!(
                "position: illegal move {shown} at ply {} ({error}); position kept after ply \
                 {index}",
                index + 1
            ));
        }
        if self.config.settings.debug {
            let fen = self.engine.position().to_fen();
            self.info(&format!("position now {fen}"));
        }
    }

    fn ban_moves(&mut self, moves: &[String]) {
        if self.no_position.is_some() {
            self.info("banmoves ignored: no valid position (the last FEN was refused)");
            return;
        }
        let pos = self.engine.position();
        let origin = self.input_origin();
        let guess = self.uci();
        let mut banned = Vec::new();
        let mut errors = Vec::new();
        for text in moves {
            match pos.parse_move(&root_move_ranks0(pos, text, origin, guess)) {
                Ok(m) => banned.push(m),
                Err(e) => errors.push(e),
            }
        }
        self.engine.set_banned(&banned);
        for e in errors {
            self.info(&format!("banmoves: {e}; ignored"));
        }
    }

    fn input_origin(&self) -> RankOrigin {
        if self.uci() {
            self.config.settings.rank_origin
        } else {
            RankOrigin::Zero
        }
    }

    /// UCI `searchmoves`: every other legal move is banned for this search. Returns the bans
    /// to restore when it ends (`None`: nothing was changed).
    fn restrict_to(&mut self, searchmoves: &[String]) -> Option<Vec<Move>> {
        let pos = self.engine.position();
        let origin = self.input_origin();
        let guess = self.uci();
        let allowed: Vec<Move> = searchmoves
            .iter()
            .filter_map(|t| {
                pos.parse_move(&root_move_ranks0(pos, t, origin, guess))
                    .ok()
            })
            .collect();
        if allowed.is_empty() {
            self.info("go searchmoves: no legal move among them; searching all moves");
            return None;
        }
        let before = self.engine.banned().to_vec();
        let mut banned = before.clone();
        banned.extend(
            pos.legal_moves()
                .into_iter()
                .filter(|m| !allowed.contains(m)),
        );
        self.engine.set_banned(&banned);
        Some(before)
    }

    fn go(&mut self, params: Box<GoParams>) {
        let Some(dialect) = self.dialect else {
            return;
        };
        if let Some(why) = &self.no_position {
            // Transcripts case 11: no move for a position the GUI did not send. UCCI's
            // `nobestmove` returns XQWizard to idle; UCI's `bestmove (none)` is its "no move".
            let text = format!(
                "no valid position: the last position command was refused ({why}); send a new position"
            );
            self.info(&text);
            self.send(match dialect {
                Dialect::Ucci => "nobestmove",
                Dialect::Uci => "bestmove (none)",
            });
            return;
        }
        if params.perft.is_some() {
            // A developer command of the Stockfish family, which answers it without a
            // `bestmove`; searching instead would run without any limit.
            self.info("go perft is not supported in the protocol loop; run 'jiangjun perft'");
            return;
        }
        // `go depth 0` in UCCI: no search, no move (ucci.md §4.6, transcripts 21). UCI GUIs
        // expect a move, so there it searches one ply.
        if dialect == Dialect::Ucci && params.depth == Some(0) && !params.infinite {
            self.send("nobestmove");
            return;
        }
        let bans_before = if params.searchmoves.is_empty() {
            None
        } else {
            self.restrict_to(&params.searchmoves)
        };
        let pos = self.engine.position();
        let red_to_move = pos.side_to_move() == Color::Red;
        let ply = game_ply(pos);
        let search = Search {
            red_to_move,
            ply,
            pondering: params.ponder,
            draw_offered: params.draw,
            infinite: params.infinite,
            dead_draw: pos.no_attacking_material(),
            quiet_plies: pos.halfmove_clock(),
            stop_sent: false,
            held: None,
            bans_before,
            go: params,
        };
        let time_limits = self.time_limits(&search);
        let budget = time_limits
            .as_ref()
            .and_then(|t| self.lateness.allocate(t, search.pondering));
        if budget.is_some() && !search.pondering {
            self.clock_started = Some(Instant::now());
        }
        let depth = search
            .go
            .depth
            .map(|d| d.min(MAX_DEPTH as u32))
            .into_iter()
            .chain(
                search
                    .go
                    .mate
                    .map(|m| m.saturating_mul(2).min(MAX_DEPTH as u32)),
            )
            .min()
            .and_then(|d| i32::try_from(d).ok());
        let timed = !search.pondering;
        let limits = Limits {
            depth,
            nodes: search.go.nodes,
            soft_ms: budget.filter(|_| timed).map(|b| b.soft_ms),
            hard_ms: budget.filter(|_| timed).map(|b| b.hard_ms),
            infinite: search.infinite,
            multipv: self.config.settings.multipv,
            // Accepting or declining needs the real score, even of an only move.
            score_only_move: search.draw_offered,
            fixed_time: time_limits.is_some_and(|t| t.is_fixed_time()),
            // The engine applies its own rule set (the `repetition` option).
            ..Limits::default()
        };
        if self.config.settings.debug {
            let b = budget.map_or("none".to_string(), |b| {
                format!("soft {} ms hard {} ms", b.soft_ms, b.hard_ms)
            });
            let plain = |v: Option<String>| v.unwrap_or_else(|| "none".to_string());
            self.info(&format!(
                "go: depth {} nodes {} time budget {b}{}{}",
                plain(depth.map(|d| d.to_string())),
                plain(limits.nodes.map(|n| n.to_string())),
                if search.pondering {
                    " (from ponderhit)"
                } else {
                    ""
                },
                late_note(&self.lateness),
            ));
        }
        let ponder = search.pondering;
        let waits = search.waits_for_stop();
        self.search = Some(search);
        self.choose_default_book("go");
        if let Some(tx) = &self.reports {
            let tx = tx.clone();
            self.engine.go(limits, ponder, move |r| {
                let _ = tx.send(Event::Report(r));
            });
        }
        if self.shutdown.is_some() && waits {
            // Input has ended: no `stop` can come for a search that waits for one.
            self.stop();
        }
    }

    /// The clock and move time of `s`'s `go`, with the configured overhead (the learned one
    /// is [`Lateness::allocate`]'s) and pondering.
    fn time_limits(&self, s: &Search) -> Option<TimeLimits> {
        let dialect = self.dialect?;
        Some(TimeLimits {
            move_overhead_ms: self.config.settings.move_overhead_ms,
            ply: s.ply,
            ponder_expected: self.config.settings.ponder,
            ..s.go
                .limits(dialect, self.config.settings.usemillisec, s.red_to_move)
        })
    }

    fn ponderhit(&mut self, draw: bool) {
        let budget = match &self.search {
            Some(s) if s.pondering => {
                let budget = self
                    .time_limits(s)
                    .and_then(|t| self.lateness.allocate(&t, false));
                if budget.is_some() {
                    self.clock_started = Some(Instant::now());
                }
                budget
            }
            _ => {
                self.info("ponderhit ignored: not pondering");
                return;
            }
        };
        if let Some(s) = &mut self.search {
            s.pondering = false;
            s.draw_offered |= draw;
        }
        if self.config.settings.debug {
            let b = budget.map_or("none".to_string(), |b| {
                format!("soft {} ms hard {} ms", b.soft_ms, b.hard_ms)
            });
            self.info(&format!(
                "ponderhit: time budget {b}{}",
                late_note(&self.lateness)
            ));
        }
        self.engine
            .ponderhit(budget.map(|b| b.soft_ms), budget.map(|b| b.hard_ms));
        self.release_held();
    }

    /// Stops the running search; its answer follows (at once if it was held back).
    fn stop(&mut self) {
        if let Some(s) = &mut self.search {
            s.stop_sent = true;
        }
        self.engine.stop();
        self.release_held();
    }

    /// Prints a held-back result once nothing makes it wait any more.
    fn release_held(&mut self) {
        let outcome = match &mut self.search {
            Some(s) if !s.waits_for_stop() => s.held.take(),
            _ => None,
        };
        if let Some(o) = outcome {
            self.finish_search(o);
        }
    }

    fn finish_search(&mut self, outcome: SearchResult) {
        let Some(search) = self.search.take() else {
            return;
        };
        if let Some(bans) = &search.bans_before {
            // The position has not changed meanwhile (commands wait for the search).
            self.engine.set_banned(bans);
        }
        let Some(dialect) = self.dialect else {
            return;
        };
        match outcome.best {
            Some(best) => {
                // Analyses and ponder misses get no draw/resign (see `draw_resign`).
                let counts = !search.infinite && !search.pondering;
                let suffix = if dialect == Dialect::Ucci && counts {
                    let facts = Facts {
                        score: outcome.score,
                        depth: outcome.depth,
                        root_moves: outcome.root_moves,
                        dead_draw: search.dead_draw,
                        quiet_plies: search.quiet_plies,
                        offered: search.draw_offered,
                    };
                    self.draw_resign.decide(
                        &facts,
                        self.config.settings.allow_draw,
                        self.config.settings.allow_resign,
                    )
                } else {
                    Suffix::None
                };
                let line =
                    output::bestmove_line(dialect, best, outcome.ponder, suffix, self.out_origin());
                self.send(&line);
                if let Some(started) = self.clock_started.take().filter(|_| counts) {
                    self.lateness.finished(elapsed_ms(started));
                }
            }
            None => {
                for line in output::no_move_lines(dialect) {
                    self.send(&line);
                }
            }
        }
        self.drain();
    }

    /// Runs queued commands until one starts a search; ends the session when asked to and
    /// nothing is left.
    fn drain(&mut self) {
        while self.search.is_none() && self.exit.is_none() {
            match self.queue.pop_front() {
                Some(Pending::Run(cmd)) => self.execute(cmd),
                Some(Pending::RefusedPosition(why)) => self.no_position = Some(why),
                None => break,
            }
        }
        if self.search.is_none() && self.exit.is_none() {
            match self.shutdown {
                Some(Shutdown::Quit) => self.quit_now(),
                Some(Shutdown::Eof) => self.exit = Some(0),
                None => {}
            }
        }
    }

    fn begin_shutdown(&mut self, shutdown: Shutdown) {
        self.shutdown = Some(shutdown);
        if self.search.as_ref().is_some_and(Search::waits_for_stop) {
            self.stop();
        }
    }

    fn quit_now(&mut self) {
        if self.dialect == Some(Dialect::Ucci) {
            self.send("bye");
        }
        self.exit = Some(0);
    }

    fn probe(&mut self, fen: &PositionSpec, moves: &[String]) {
        let origin = self.out_origin();
        let (mut pos, played, refused) = match self.read_game("probe", fen, moves.to_vec()) {
            Ok(game) => game,
            Err(e) => {
                self.info(&format!("probe: {e}"));
                self.send("pophash");
                return;
            }
        };
        for m in played {
            pos.make_move(m);
        }
        if let Some(RefusedMove { index, error, .. }) = refused {
            self.info(&format!("probe: move {} ({error}) not played", index + 1));
        }
        let entry = self.engine.probe(&pos);
        let best = entry.and_then(|e| e.mv).filter(|&m| pos.is_legal(m));
        let line = output::pophash_line(entry.as_ref(), best, origin);
        self.send(&line);
    }

    // ---- output ----

    fn info(&mut self, text: &str) {
        let line = output::info_string(text);
        self.send(&line);
    }

    /// Prints one line and flushes it. If the GUI has closed our output, the session ends.
    fn send(&mut self, line: &str) {
        if self.exit.is_some() {
            return;
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let written = self.out.write_all(&bytes).and_then(|()| self.out.flush());
        if written.is_err() {
            self.exit = Some(0);
        }
    }
}

/// Plies since the game started, as well as we can tell: the moves given after the FEN, or the
/// FEN's move number if that says more (a league-style FEN after the last capture).
/// Milliseconds since `t`.
pub(crate) fn elapsed_ms(t: Instant) -> u64 {
    u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The lateness learned, for `debug` lines: nothing while there is none.
fn late_note(lateness: &Lateness) -> String {
    match lateness.peak_ms() {
        0 => String::new(),
        ms => format!(" (moves arrive up to {ms} ms late: kept as overhead)"),
    }
}

pub(crate) fn game_ply(pos: &Position) -> u32 {
    let from_history = u32::try_from(pos.history().len()).unwrap_or(u32::MAX);
    let from_fen = pos
        .fullmove_number()
        .saturating_sub(1)
        .saturating_mul(2)
        .saturating_add(u32::from(pos.side_to_move() == Color::Black));
    from_history.max(from_fen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn go(line: &str) -> GoParams {
        match parse_line(line, Dialect::Ucci).result {
            Ok(Command::Go(p)) => *p,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    #[test]
    fn time_normalisation() {
        // Transcripts 20: seconds unless usemillisec.
        let p = go("go time 30 increment 1 opptime 20 oppincrement 2");
        let l = p.limits(Dialect::Ucci, false, true);
        assert_eq!(
            (
                l.remaining_ms,
                l.increment_ms,
                l.opp_remaining_ms,
                l.opp_increment_ms
            ),
            (Some(30_000), 1_000, Some(20_000), 2_000)
        );
        let l = p.limits(Dialect::Ucci, true, true);
        assert_eq!((l.remaining_ms, l.increment_ms), (Some(30), 1));
        // UCI is always milliseconds, even for UCCI keywords.
        let l = p.limits(Dialect::Uci, false, true);
        assert_eq!(l.remaining_ms, Some(30));
        // movetime is a UCI keyword: milliseconds in both dialects (TCHESS).
        let l = go("go movetime 5000").limits(Dialect::Ucci, false, true);
        assert_eq!((l.movetime_ms, l.remaining_ms), (Some(5000), None));
        // wtime/btime by side to move; w = Red.
        let p = go("go wtime 60000 btime 55000 winc 1000 binc 2000 movestogo 7");
        let red = p.limits(Dialect::Uci, true, true);
        let black = p.limits(Dialect::Uci, true, false);
        assert_eq!(
            (
                red.remaining_ms,
                red.increment_ms,
                red.opp_remaining_ms,
                red.moves_to_go
            ),
            (Some(60000), 1000, Some(55000), Some(7))
        );
        assert_eq!(
            (
                black.remaining_ms,
                black.increment_ms,
                black.opp_remaining_ms,
                black.opp_increment_ms
            ),
            (Some(55000), 2000, Some(60000), 1000)
        );
        // Only the other side's clock: it stands in for ours.
        let l = go("go wtime 5000").limits(Dialect::Uci, true, false);
        assert_eq!(
            (l.remaining_ms, l.opp_remaining_ms),
            (Some(5000), Some(5000))
        );
        // Huge seconds saturate.
        let l = go("go time 99999999999999999999").limits(Dialect::Ucci, false, true);
        assert_eq!(l.remaining_ms, Some(u64::MAX));
        // No clock at all.
        assert_eq!(
            go("go depth 5").limits(Dialect::Ucci, true, true),
            TimeLimits::default()
        );
        assert_eq!(ucci_time_scale(Dialect::Ucci, false), 1000);
        assert_eq!(ucci_time_scale(Dialect::Ucci, true), 1);
        assert_eq!(ucci_time_scale(Dialect::Uci, false), 1);
    }

    fn dry() -> Session<Vec<u8>> {
        Session::new(Vec::new(), None)
    }

    /// Feeds lines and returns what was printed since the last call.
    fn feed(s: &mut Session<Vec<u8>>, lines: &[&str]) -> Vec<String> {
        for l in lines {
            s.on_line(l);
        }
        take(s)
    }

    fn take(s: &mut Session<Vec<u8>>) -> Vec<String> {
        let text = String::from_utf8_lossy(s.output()).into_owned();
        s.output().clear();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn boot_then_ucci() {
        let mut s = dry();
        assert_eq!(feed(&mut s, &["isready"]), vec!["readyok"]);
        let out = feed(&mut s, &["foo"]);
        assert!(out[0].starts_with("info string unknown UCCI command: foo"));
        let out = feed(&mut s, &["go depth 3"]);
        assert!(out[0].starts_with("info string no protocol chosen yet"));
        assert!(!s.is_thinking());
        let out = feed(&mut s, &["ucci"]);
        assert!(out[0].starts_with("id name Jiangjun"));
        assert_eq!(
            out.iter().find(|l| l.starts_with("option")).unwrap(),
            "option usemillisec type check default true"
        );
        assert_eq!(out.last().unwrap(), "ucciok");
        assert_eq!(s.dialect(), Some(Dialect::Ucci));
    }

    #[test]
    fn bare_position_first_means_uci() {
        let mut s = dry();
        assert!(feed(&mut s, &["startpos moves h2e2"]).is_empty());
        assert_eq!(s.dialect(), Some(Dialect::Uci));
        assert_eq!(s.engine().position().side_to_move(), Color::Black);
    }

    #[test]
    fn commands_wait_for_the_search() {
        let mut s = dry();
        feed(&mut s, &["ucci", "position startpos", "go depth 3"]);
        assert!(s.is_thinking());
        let out = feed(
            &mut s,
            &[
                "position startpos moves h2e2",
                "go depth 3",
                "isready",
                "quit",
            ],
        );
        assert_eq!(out, vec!["readyok"]);
        s.simulate_search_end(10, 3);
        let out = take(&mut s);
        assert_eq!(out.len(), 1);
        assert!(out[0].starts_with("bestmove "), "{out:?}");
        // The queued position and go ran; the second search belongs to Black.
        assert!(s.is_thinking());
        assert_eq!(s.engine().position().side_to_move(), Color::Black);
        assert_eq!(s.exit_code(), None);
        s.simulate_search_end(10, 3);
        let out = take(&mut s);
        assert_eq!(out.len(), 2, "{out:?}");
        assert_eq!(out[1], "bye");
        assert_eq!(s.exit_code(), Some(0));
    }

    #[test]
    fn quit_while_thinking_with_nothing_queued_is_immediate() {
        let mut s = dry();
        feed(&mut s, &["ucci", "go infinite"]);
        assert_eq!(feed(&mut s, &["quit"]), vec!["bye"]);
        assert_eq!(s.exit_code(), Some(0));
        assert!(feed(&mut s, &["isready"]).is_empty());
    }

    #[test]
    fn stop_in_idle_and_depth_zero() {
        let mut s = dry();
        feed(&mut s, &["ucci"]);
        assert_eq!(feed(&mut s, &["stop"]), vec!["nobestmove"]);
        assert_eq!(feed(&mut s, &["go depth 0"]), vec!["nobestmove"]);
        assert!(!s.is_thinking());
        let mut s = dry();
        feed(&mut s, &["uci"]);
        assert!(feed(&mut s, &["stop"]).is_empty());
        feed(&mut s, &["go depth 0"]);
        assert!(s.is_thinking());
    }

    #[test]
    fn eof_finishes_the_work_in_hand() {
        let mut s = dry();
        feed(
            &mut s,
            &[
                "ucci",
                "go depth 2",
                "position startpos moves h2e2",
                "go depth 2",
            ],
        );
        s.on_eof();
        assert_eq!(s.exit_code(), None);
        s.simulate_search_end(0, 2);
        s.simulate_search_end(0, 2);
        let out = take(&mut s);
        assert_eq!(out.iter().filter(|l| l.starts_with("bestmove")).count(), 2);
        assert_eq!(s.exit_code(), Some(0));
        assert!(!out.contains(&"bye".to_string()));
    }

    #[test]
    fn batch_mode_queues_everything_but_quit() {
        let mut s = dry();
        feed(&mut s, &["ucci", "setoption batch true", "go depth 2"]);
        assert!(feed(&mut s, &["isready", "stop"]).is_empty());
        s.simulate_search_end(0, 2);
        assert_eq!(
            take(&mut s)[1..].to_vec(),
            vec!["readyok".to_string(), "nobestmove".to_string()]
        );
    }

    #[test]
    fn ponderhit_and_draw_offers() {
        let mut s = dry();
        feed(
            &mut s,
            &["ucci", "position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"],
        );
        feed(&mut s, &["go ponder time 1000 increment 0"]);
        let out = feed(&mut s, &["ponderhit draw"]);
        assert!(out.is_empty(), "{out:?}");
        s.simulate_search_end(0, 6);
        let out = take(&mut s);
        assert!(out[0].ends_with(" draw"), "{out:?}");
        // Not pondering: ponderhit is reported and ignored.
        let out = feed(&mut s, &["ponderhit"]);
        assert!(out[0].starts_with("info string ponderhit ignored"));
        // allowdraw off: no draw.
        feed(&mut s, &["setoption allowdraw false", "go draw depth 5"]);
        s.simulate_search_end(0, 6);
        assert!(!take(&mut s)[0].contains("draw"));
    }

    #[test]
    fn no_move_answers() {
        let mated = "position fen 3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1";
        let mut s = dry();
        feed(&mut s, &["ucci", mated, "go depth 5"]);
        s.simulate_search_end(0, 0);
        assert_eq!(take(&mut s), vec!["nobestmove"]);
        let mut s = dry();
        feed(&mut s, &["uci", mated, "go depth 5"]);
        s.simulate_search_end(0, 0);
        assert_eq!(
            take(&mut s),
            vec!["info depth 0 score mate 0", "bestmove (none)"]
        );
    }

    #[test]
    fn position_errors_are_reported() {
        let mut s = dry();
        feed(&mut s, &["ucci", "position startpos moves h2e2"]);
        let out = feed(
            &mut s,
            &["position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1"],
        );
        assert!(out[0].starts_with("info string position: "), "{out:?}");
        assert_eq!(s.engine().position().side_to_move(), Color::Black);
        let out = feed(&mut s, &["position startpos moves h2e2 h2e2 h9g7"]);
        assert!(
            out[0].contains("h2e2") && out[0].contains("ply 2"),
            "{out:?}"
        );
        assert_eq!(s.engine().position().history().len(), 1);
    }

    #[test]
    fn refused_fen_leaves_no_position_until_a_good_one() {
        let bad =
            "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1";
        for (hello, none) in [("ucci", "nobestmove"), ("uci", "bestmove (none)")] {
            let mut s = dry();
            feed(&mut s, &[hello, "position startpos", bad]);
            let out = feed(&mut s, &["go depth 3"]);
            assert_eq!(out.len(), 2, "{out:?}");
            assert!(
                out[0].starts_with("info string no valid position"),
                "{out:?}"
            );
            assert!(out[0].contains('X'), "{out:?}");
            assert_eq!(out[1], none);
            assert!(!s.is_thinking());
            let out = feed(&mut s, &["banmoves h2e2"]);
            assert!(
                out[0].starts_with("info string banmoves ignored"),
                "{out:?}"
            );
            // A bad move list after a good FEN is not a refused position.
            feed(&mut s, &["position startpos moves h2e2 zz"]);
            feed(&mut s, &["go depth 3"]);
            assert!(s.is_thinking());
            s.simulate_search_end(0, 3);
            assert!(take(&mut s)[0].starts_with("bestmove "));
        }
        // Queued behind a search, the refusal still applies to the `go` after it.
        let mut s = dry();
        feed(&mut s, &["ucci", "go depth 3", bad, "go depth 3"]);
        s.simulate_search_end(0, 3);
        let out = take(&mut s);
        assert_eq!(
            out.last().map(String::as_str),
            Some("nobestmove"),
            "{out:?}"
        );
        // The implicit UCI-Cyclone session of a bare position line.
        let mut s = dry();
        feed(&mut s, &["fen foobar"]);
        assert_eq!(
            feed(&mut s, &["go depth 1"]).last().unwrap(),
            "bestmove (none)"
        );
        // A position line too broken to parse counts as refused too, queued or not.
        let mut s = dry();
        feed(&mut s, &["ucci", "position startpos", "position fen"]);
        assert_eq!(feed(&mut s, &["go depth 1"]).last().unwrap(), "nobestmove");
        let mut s = dry();
        feed(&mut s, &["ucci", "go depth 3"]);
        let out = feed(&mut s, &["position foo", "go depth 3"]);
        assert!(out[0].starts_with("info string position: "), "{out:?}");
        s.simulate_search_end(0, 3);
        let out = take(&mut s);
        assert!(out[0].starts_with("bestmove "), "{out:?}");
        assert_eq!(
            out.last().map(String::as_str),
            Some("nobestmove"),
            "{out:?}"
        );
    }

    #[test]
    fn uci_reads_one_based_ranks() {
        let mut s = dry();
        feed(&mut s, &["uci"]);
        assert!(feed(&mut s, &["position startpos moves h3e3 h10g8"]).is_empty());
        assert_eq!(s.engine().position().history().len(), 2);
        // Both readings legal for the first move is impossible here; a 0-based list stays.
        assert!(feed(&mut s, &["position startpos moves h2e2 h9g7"]).is_empty());
        assert_eq!(s.engine().position().history().len(), 2);
        feed(
            &mut s,
            &[
                "setoption name Rank Origin value 1",
                "position startpos",
                "go depth 1",
            ],
        );
        s.simulate_search_end(0, 1);
        let out = take(&mut s);
        let mv = out[0].split(' ').nth(1).unwrap();
        assert!(
            mv.chars().filter(char::is_ascii_digit).all(|d| d != '0'),
            "{out:?}"
        );
    }

    /// Issue 60 item 1: with `Rank Origin` 1 set, a GUI that writes 0-based moves anyway is
    /// still understood (the list is illegal 1-based and legal 0-based), and `debug` says so.
    #[test]
    fn rank_origin_one_still_reads_zero_based_lists() {
        let mut s = dry();
        feed(&mut s, &["uci", "setoption name Rank Origin value 1"]);
        assert!(feed(&mut s, &["position startpos moves h2e2"]).is_empty());
        assert_eq!(s.engine().position().history().len(), 1);
        assert!(feed(&mut s, &["position startpos moves h3e3 h10g8"]).is_empty());
        assert_eq!(s.engine().position().history().len(), 2);
        feed(&mut s, &["debug on"]);
        let out = feed(&mut s, &["position startpos moves h2e2 h9g7"]);
        assert_eq!(s.engine().position().history().len(), 2);
        assert!(
            out.iter()
                .any(|l| l == "info string position: moves read with ranks 0-9, not 1-10"),
            "{out:?}"
        );
        // Neither reading legal: the error names the set numbering's reading.
        let out = feed(&mut s, &["position startpos moves h2e2 h2e2"]);
        assert!(out.iter().any(|l| l.contains("illegal move")), "{out:?}");
    }

    /// Issue 60 item 6: `debug`'s line about a `go` gives plain values, not Rust's.
    #[test]
    fn debug_go_line_is_plain() {
        let mut s = dry();
        feed(&mut s, &["uci", "debug on", "position startpos"]);
        let out = feed(&mut s, &["go depth 3"]);
        assert!(
            out.iter()
                .any(|l| l == "info string go: depth 3 nodes none time budget none"),
            "{out:?}"
        );
        s.simulate_search_end(0, 1);
        take(&mut s);
        let out = feed(&mut s, &["go nodes 500"]);
        assert!(
            out.iter()
                .any(|l| l.starts_with("info string go: depth none nodes 500 ")),
            "{out:?}"
        );
        assert!(!out.iter().any(|l| l.contains("Some(")), "{out:?}");
    }

    /// Issue 58.5: a move the GUI's clock charged 400 ms beyond the engine's own time
    /// teaches the session to budget with that much overhead, which `debug` reports.
    #[test]
    fn late_moves_are_learned_from_the_clock() {
        let hard_of = |out: &[String]| -> u64 {
            let line = out
                .iter()
                .find(|l| l.starts_with("info string go:"))
                .expect("a debug line for go");
            let after = line.split(" hard ").nth(1).expect("a hard limit");
            after.split(' ').next().unwrap().parse().unwrap()
        };
        let mut s = dry();
        feed(&mut s, &["uci", "debug on", "position startpos"]);
        let out = feed(&mut s, &["go wtime 30000 btime 30000"]);
        assert!(!out.iter().any(|l| l.contains("late")), "{out:?}");
        // The search answers at once (a few ms at most): the clock says it cost 400 ms.
        s.simulate_search_end(0, 1);
        take(&mut s);
        feed(&mut s, &["position startpos moves h2e2 h9g7"]);
        let out = feed(&mut s, &["go wtime 29600 btime 29000"]);
        let late: u64 = out[0]
            .split("up to ")
            .nth(1)
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{out:?}"));
        assert!((300..=400).contains(&late), "{out:?}");
        assert!(out[0].ends_with(" ms late: kept as overhead)"), "{out:?}");
        s.simulate_search_end(0, 1);
        take(&mut s);
        // A fresh session without the lesson budgets the same clock more generously.
        let mut fresh = dry();
        feed(
            &mut fresh,
            &["uci", "debug on", "position startpos moves h2e2 h9g7"],
        );
        let plain = feed(&mut fresh, &["go wtime 29600 btime 29000"]);
        assert!(hard_of(&out) < hard_of(&plain), "{out:?} {plain:?}");
    }

    #[test]
    fn banmoves_and_searchmoves() {
        let mut s = dry();
        feed(
            &mut s,
            &["ucci", "position fen 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"],
        );
        // Red king d0: moves d1, e0 (e0 faces e9? e-file open: illegal) → only d0d1.
        let legal: Vec<String> = s
            .engine()
            .position()
            .legal_moves()
            .iter()
            .map(Move::to_string)
            .collect();
        let mut line = String::from("banmoves");
        for m in &legal {
            line.push(' ');
            line.push_str(m);
        }
        line.push_str(" zz99");
        let out = feed(&mut s, &[&line, "go depth 3"]);
        assert_eq!(out.len(), 1, "{out:?}");
        s.simulate_search_end(0, 3);
        assert_eq!(take(&mut s), vec!["nobestmove"]);
        let mut s = dry();
        feed(
            &mut s,
            &["uci", "position startpos", "go depth 2 searchmoves b0c2"],
        );
        s.simulate_search_end(0, 2);
        assert_eq!(take(&mut s), vec!["bestmove b0c2"]);
        // `searchmoves` is for that `go` only; `banmoves` stays until the next position.
        feed(&mut s, &["go depth 2"]);
        s.simulate_search_end(0, 2);
        assert_eq!(take(&mut s), vec!["bestmove a0a1"]);
        feed(&mut s, &["banmoves a0a1", "go depth 2 searchmoves h2e2"]);
        s.simulate_search_end(0, 2);
        assert_eq!(take(&mut s), vec!["bestmove h2e2"]);
        feed(&mut s, &["go depth 2"]);
        s.simulate_search_end(0, 2);
        assert_eq!(take(&mut s), vec!["bestmove a0a2"]);
    }

    /// One step of a random session: a line of protocol words, then, if a search runs and
    /// `end` says so, its end with that score and depth.
    type Step = (Vec<(u16, u8)>, Option<(i32, i32)>);

    fn step() -> impl Strategy<Value = Step> {
        (
            prop::collection::vec(any::<(u16, u8)>(), 0..10),
            prop::option::weighted(0.3, (-32000..32000, 0..20)),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

        #[test]
        fn random_lines_never_break_the_session(
            ucci in any::<bool>(),
            steps in prop::collection::vec(step(), 60),
        ) {
            let vocab = crate::protocol::vocabulary::except(&["quit"]);
            let mut s = dry();
            s.on_line(if ucci { "ucci" } else { "uci" });
            for (picks, end) in &steps {
                s.on_line(&crate::protocol::vocabulary::line(&vocab, picks));
                if let (true, Some((score, depth))) = (s.is_thinking(), end) {
                    s.simulate_search_end(*score, *depth);
                }
            }
            if !s.is_thinking() && s.exit_code().is_none() {
                s.on_line("isready");
                let out = take(&mut s);
                prop_assert_eq!(out.last().map(String::as_str), Some("readyok"));
            }
            // End of input finishes whatever is queued, then ends the session.
            s.on_eof();
            let mut rounds = 0;
            while s.is_thinking() && s.exit_code().is_none() && rounds < 100 {
                s.simulate_search_end(0, 1);
                rounds += 1;
            }
            prop_assert_eq!(s.exit_code(), Some(0));
            let out = take(&mut s);
            for l in out {
                prop_assert!(
                    !l.ends_with(' ') && !l.contains('\n') && !l.contains('\r'),
                    "{:?}",
                    l
                );
            }
        }
    }
}
