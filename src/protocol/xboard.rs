//! CECP, the XBoard/WinBoard engine protocol (version 2), as a third dialect beside UCCI and
//! UCI: chosen when the first line is `xboard` (see [`is_hello`]), so `xboard -variant xiangqi
//! -fcp jiangjun` needs no adapter.
//!
//! It drives the same [`Engine`] façade as the UCCI/UCI [`super::session::Session`], through
//! the same events (stdin lines and search reports on one channel), the same time manager
//! ([`crate::search::time::Lateness::allocate`]) and the same draw-and-resign policy
//! ([`super::draw_resign`]); only the conversation differs. In CECP the engine keeps the game
//! itself: XBoard sends single moves (`usermove h2e2`, ICCS coordinates: files a-i, ranks
//! 0-9 from Red's side, which is what XBoard writes for a ten-rank board), says which side the
//! engine plays (`new`, `go`, `force`, `playother`), and the engine answers `move h9g7` when
//! it is its turn, without being asked.
//!
//! States: **idle** (waiting; in force mode the engine plays neither side), **thinking** on
//! its own move, **pondering** on the move it expects from the opponent (`hard`), and
//! **analysing** (`analyze` … `exit`). Commands that change the game (`new`, `force`,
//! `undo`, `setboard`, a move, …) end a running search and throw its answer away; `?` makes
//! it move now; `ping` waits for the move of a search in progress, as the protocol asks.
//!
//! Options: `protover 2` is answered with a `feature option="..."` line for each option that
//! acts in a CECP game, written from the table the UCCI and UCI handshakes come from
//! ([`options::cecp_features`]); `option NAME=VALUE` (`option NAME` for a button), `memory`
//! and `cores` are applied by the path `setoption` takes ([`Configuration::apply`]).
//!
//! Replies follow the protocol's forms: `move M`, `Illegal move (reason): M`,
//! `Error (reason): command`, `tellusererror Illegal position`, `resign`, `offer draw`,
//! results as `1-0 {…}`, and with `post` thinking lines `depth score time nodes pv` (time in
//! centiseconds; a mate in N moves scores 100000 + N, being mated in N -100000 - N). Bad input
//! never ends the session.

use super::configure::Configuration;
use super::draw_resign::{DrawResign, Facts};
use super::options::{self, Effect, Protocol};
use super::output::Suffix;
use super::session::{elapsed_ms, game_ply, Event};
use crate::board::{Color, Move, Position};
use crate::engine::{Engine, MAX_HASH_MB};
use crate::search::limits::{Limits, MAX_DEPTH};
use crate::search::report::{Info, Report, SearchResult};
use crate::search::score::{mate_in_moves, reported};
use crate::search::time::{Lateness, TimeBudget, TimeLimits};
use std::collections::VecDeque;
use std::io::Write;
use std::sync::mpsc::Sender;
use std::time::Instant;

/// Does this first line choose CECP? (`xboard`, sent before `protover 2`.)
pub fn is_hello(line: &str) -> bool {
    line.trim() == "xboard"
}

/// The engine's memory beside the transposition table, in MB, for `memory`: the resident
/// size of a search with a 1 MB table and one thread (the binary with its network and book,
/// the search's own tables) is about 16 MB.
const OWN_MB: usize = 16;

/// What each search thread after the first adds to [`OWN_MB`], in MB (measured as above: a
/// second thread adds under 2 MB).
const THREAD_MB: usize = 2;

/// How long a move takes when XBoard set no time control at all (no `level`, `st`, `time`
/// or `sd`): the engine must still answer by itself.
pub const DEFAULT_MOVE_MS: u64 = 5000;

/// What a search that has not reported its end yet is for. Each `Engine::go` reports exactly
/// one `Done`, and searches report in the order they started, so a queue of these tells which
/// search a report belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Purpose {
    /// The engine's own move.
    Move,
    /// On the opponent's time, expecting this reply.
    Ponder(Move),
    /// `analyze` mode: runs until stopped.
    Analyze,
    /// Stopped by a command that changed the game: its reports are dropped.
    Discarded,
}

/// The clock settings of `level`, `st`, `sd`, `time` and `otim`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Clocks {
    /// `level`: moves per session (0: the whole game), base time, increment.
    moves_per_session: u32,
    base_ms: Option<u64>,
    increment_ms: u64,
    /// `st`: exactly this long per move.
    move_ms: Option<u64>,
    /// `sd`: at most this depth.
    depth: Option<u32>,
    /// `time` / `otim`: the engine's and the opponent's clocks.
    own_ms: Option<u64>,
    opp_ms: Option<u64>,
}

/// One CECP session writing to `out`.
pub struct Xboard<W: Write> {
    out: W,
    engine: Engine,
    /// Where searches report; `None` runs no searches (tests).
    reports: Option<Sender<Event>>,
    /// The game: its set-up position and the moves since.
    start: Position,
    moves: Vec<Move>,
    game: Position,
    /// The side the engine plays; `None` in force mode.
    engine_side: Option<Color>,
    clocks: Clocks,
    /// How late XBoard's clock says our moves come, learned from one move to the next.
    lateness: Lateness,
    /// When the clock of the engine's timed move started for it (the search, or the ponder
    /// hit): its move tells [`Lateness`] how long the engine itself took.
    clock_started: Option<Instant>,
    post: bool,
    /// `hard`: think on the opponent's time.
    ponder: bool,
    analyzing: bool,
    /// Searches that have not reported `Done` yet, oldest first.
    searches: VecDeque<Purpose>,
    /// `ping`s that arrived while the engine thought on its move: answered after the move.
    pongs: Vec<String>,
    /// The opponent offered a draw (`draw`) for the engine's next move.
    draw_offered: bool,
    draw_resign: DrawResign,
    /// The options' settings, and what they handed the engine (shared with the UCCI/UCI
    /// session): `option`, `memory` and `cores` change them.
    config: Configuration,
    /// The memory `memory` allows, in MB, while it decides the table's size: `cores` fits the
    /// table to it again (more threads need more memory beside it); an `option Hash` ends it.
    memory_mb: Option<usize>,
    /// Input has ended: end once the engine's move is out.
    ending: bool,
    exit: Option<i32>,
}

impl<W: Write> Xboard<W> {
    /// A session that has read `xboard`. With `reports`, searches run and report there.
    pub fn new(out: W, reports: Option<Sender<Event>>) -> Xboard<W> {
        Xboard {
            out,
            engine: Engine::new(),
            reports,
            start: Position::startpos(),
            moves: Vec::new(),
            game: Position::startpos(),
            engine_side: Some(Color::Black),
            clocks: Clocks::default(),
            lateness: Lateness::default(),
            clock_started: None,
            post: false,
            ponder: false,
            analyzing: false,
            searches: VecDeque::new(),
            pongs: Vec::new(),
            draw_offered: false,
            draw_resign: DrawResign::default(),
            config: Configuration::default(),
            memory_mb: None,
            ending: false,
            exit: None,
        }
    }

    /// The exit status, once the session has ended.
    pub fn exit_code(&self) -> Option<i32> {
        self.exit
    }

    /// The output sink (tests read what was printed).
    pub fn output(&mut self) -> &mut W {
        &mut self.out
    }

    /// The game position.
    pub fn game(&self) -> &Position {
        &self.game
    }

    /// Is the engine thinking on its own move?
    pub fn is_thinking(&self) -> bool {
        self.searches.back() == Some(&Purpose::Move)
    }

    /// Handles one event from the main loop.
    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Line(line) => self.on_line(&line),
            Event::TooLong(bytes) => self.error("line too long", &format!("{bytes} bytes")),
            Event::Eof => self.on_eof(),
            Event::Report(r) => self.on_report(r),
        }
    }

    /// End of input: the engine's move in progress is still played (a piped script gets its
    /// answer), then the session ends; a ponder search or an analysis, which would wait for a
    /// command that can no longer come, ends at once.
    pub fn on_eof(&mut self) {
        if self.is_thinking() {
            self.ending = true;
        } else {
            self.stop_all();
            self.exit = Some(0);
        }
    }

    /// Handles one input line.
    pub fn on_line(&mut self, line: &str) {
        if self.exit.is_some() {
            return;
        }
        let line = line.trim();
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "xboard" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating"
            | "ics" | "." | "hint" | "bk" | "white" | "black" | "easy" | "hard" | "post"
            | "nopost" | "time" | "otim" | "level" | "st" | "sd" | "memory" | "cores"
            | "option" | "ping" | "draw" | "protover" | "variant" | "?" | "quit" => {
                self.setting(cmd, arg, line);
            }
            "new" | "force" | "go" | "playother" | "usermove" | "undo" | "remove" | "setboard"
            | "result" | "analyze" | "exit" => self.game_command(cmd, arg),
            _ if looks_like_move(cmd) && arg.is_empty() => self.game_command("usermove", cmd),
            _ => self.error("unknown command", line),
        }
    }

    /// Commands that leave the game as it is: they act at once, even while the engine thinks.
    fn setting(&mut self, cmd: &str, arg: &str, line: &str) {
        match cmd {
            "protover" => self.features(),
            "variant" if !arg.eq_ignore_ascii_case("xiangqi") => {
                self.error("unsupported variant", line);
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                self.discard_ponder();
            }
            "time" | "otim" => match arg.parse::<i64>() {
                // Centiseconds; a flagged clock is below zero and means "no time left".
                Ok(cs) => {
                    let ms = Some(u64::try_from(cs).unwrap_or(0).saturating_mul(10));
                    if cmd == "time" {
                        self.clocks.own_ms = ms;
                    } else {
                        self.clocks.opp_ms = ms;
                    }
                }
                Err(_) => self.error("bad number", line),
            },
            "level" => match parse_level(arg) {
                Some((mps, base_ms, inc_ms)) => {
                    self.clocks.moves_per_session = mps;
                    self.clocks.base_ms = Some(base_ms);
                    self.clocks.increment_ms = inc_ms;
                    self.clocks.move_ms = None;
                }
                None => self.error("bad level", line),
            },
            "st" => match parse_seconds(arg) {
                Some(ms) if ms > 0 => self.clocks.move_ms = Some(ms),
                _ => self.error("bad time", line),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => self.clocks.depth = Some(d),
                _ => self.error("bad depth", line),
            },
            "memory" => match arg.parse::<usize>() {
                Ok(mb) if mb > 0 => {
                    self.memory_mb = Some(mb);
                    self.fit_table();
                }
                _ => self.error("bad memory size", line),
            },
            "cores" => match arg.parse::<usize>() {
                Ok(n) if n > 0 => {
                    self.set_option("Threads", Some(&n.to_string()), line);
                    self.fit_table();
                }
                _ => self.error("bad number of cores", line),
            },
            "option" => {
                // `option NAME=VALUE`, or `option NAME` for a button.
                let (name, value) = match arg.split_once('=') {
                    Some((name, value)) => (name.trim(), Some(value.trim())),
                    None => (arg, None),
                };
                if let Effect::HashMb(_) = self.set_option(name, value, line) {
                    // The user chose the table's size: `memory` no longer decides it.
                    self.memory_mb = None;
                }
            }
            "ping" => {
                // `pong N` echoes the number; a bare `ping` gets a bare `pong`, not one with a
                // trailing blank (found by the session fuzzer).
                let pong = match arg.split_whitespace().next() {
                    Some(n) => format!("pong {}", shown(n, 80)),
                    None => "pong".to_string(),
                };
                if self.is_thinking() {
                    self.pongs.push(pong);
                } else {
                    self.send(&pong);
                }
            }
            "draw" => self.draw_offered = true,
            "?" if self.is_thinking() => self.engine.stop(),
            "quit" => {
                self.stop_all();
                self.exit = Some(0);
            }
            // Accepted and ignored: nothing in them changes how the engine plays.
            _ => {}
        }
    }

    /// Sets an option by the path the UCCI/UCI session takes too ([`Configuration::apply`]);
    /// says what happened in `#` lines, and answers a refused `line` with the protocol's
    /// `Error (reason): command`. Returns what the option changed.
    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) -> Effect {
        let applied = self
            .config
            .apply(&mut self.engine, Protocol::Cecp, name, value);
        for m in &applied.messages {
            self.send(&format!("# {m}"));
        }
        if let Some(refusal) = applied.refused {
            self.error(refusal.reason(), line);
        }
        applied.effect
    }

    /// After `memory` (and `cores` while `memory` decides): the table gets what the memory
    /// XBoard allows leaves beside the engine's own ([`OWN_MB`], [`THREAD_MB`] a thread after
    /// the first), at least 1 MB.
    fn fit_table(&mut self) {
        let Some(mb) = self.memory_mb else {
            return;
        };
        let own = OWN_MB + THREAD_MB * self.engine.threads().saturating_sub(1);
        let table = mb.saturating_sub(own).max(1);
        if table.min(MAX_HASH_MB) == self.engine.hash_mb() {
            return;
        }
        self.send(&format!(
            "# memory {mb}: a {table} MB transposition table, about {own} MB for the rest"
        ));
        self.set_option("Hash", Some(&table.to_string()), &format!("memory {mb}"));
    }

    /// Commands that change the game or who plays: a running search is stopped first and its
    /// answer thrown away (XBoard no longer waits for it).
    fn game_command(&mut self, cmd: &str, arg: &str) {
        if cmd == "usermove" && self.ponder_hit(arg) {
            return;
        }
        let analyzing = self.analyzing;
        self.stop_all();
        if cmd == "usermove" && !self.user_move(arg) {
            // An illegal move changes nothing: an analysis goes on where it was.
            self.resume(analyzing);
            return;
        }
        match cmd {
            "new" => {
                self.analyzing = false;
                self.set_game(Position::startpos(), Vec::new());
                self.engine.new_game();
                self.draw_resign.reset();
                self.engine_side = Some(Color::Black);
                // A new game starts with its own time control and no depth limit.
                self.clocks.depth = None;
                self.clocks.own_ms = None;
                self.clocks.opp_ms = None;
            }
            "force" | "result" => self.engine_side = None,
            "go" => self.engine_side = Some(self.game.side_to_move()),
            "playother" => self.engine_side = Some(!self.game.side_to_move()),
            "undo" | "remove" => {
                let n = if cmd == "undo" { 1 } else { 2 };
                if self.moves.len() < n {
                    self.error("no move to undo", cmd);
                } else {
                    let mut moves = self.moves.clone();
                    moves.truncate(moves.len() - n);
                    self.set_game(self.start.clone(), moves);
                }
            }
            "setboard" => match Position::from_fen(arg) {
                Ok(start) => self.set_game(start, Vec::new()),
                Err(_) => self.send("tellusererror Illegal position"),
            },
            "analyze" => {
                self.analyzing = true;
                self.engine_side = None;
            }
            "exit" => self.analyzing = false,
            _ => {}
        }
        self.resume(self.analyzing);
    }

    /// After a game command: analyse, or think if it is the engine's turn.
    fn resume(&mut self, analyzing: bool) {
        self.analyzing = analyzing;
        if self.analyzing {
            self.start(Purpose::Analyze);
        } else if self.engine_side == Some(self.game.side_to_move()) {
            self.start(Purpose::Move);
        }
    }

    /// The opponent played the move the engine ponders on: the ponder search becomes the
    /// search for the engine's move, with the time of a normal one from now.
    fn ponder_hit(&mut self, text: &str) -> bool {
        let Some(Purpose::Ponder(expected)) = self.searches.back().copied() else {
            return false;
        };
        if self.game.parse_move(text).ok() != Some(expected) {
            return false;
        }
        self.game.make_move(expected);
        self.moves.push(expected);
        if let Some(p) = self.searches.back_mut() {
            *p = Purpose::Move;
        }
        let budget = self.budget();
        self.engine
            .ponderhit(budget.map(|b| b.soft_ms), budget.map(|b| b.hard_ms));
        true
    }

    /// Plays the opponent's move; false (with the protocol's message) if it is not legal.
    fn user_move(&mut self, text: &str) -> bool {
        match self.game.parse_move(text) {
            Ok(m) => {
                self.game.make_move(m);
                self.moves.push(m);
                if self.claim_result() {
                    self.engine_side = None;
                }
                true
            }
            Err(e) => {
                self.send(&format!("Illegal move ({e}): {}", shown(text, 16)));
                false
            }
        }
    }

    /// If the side to move has no legal move, says who won (in xiangqi that side loses,
    /// checkmated or stalemated) and returns true.
    fn claim_result(&mut self) -> bool {
        if !self.game.legal_moves().is_empty() {
            return false;
        }
        let line = match self.game.side_to_move() {
            Color::Red => "0-1 {Red has no legal move}",
            Color::Black => "1-0 {Black has no legal move}",
        };
        self.send(line);
        true
    }

    fn set_game(&mut self, start: Position, moves: Vec<Move>) {
        let mut game = start.clone();
        for &m in &moves {
            // Every stored move was legal when it was played from this same start.
            game.make_move(m);
        }
        self.start = start;
        self.moves = moves;
        self.game = game;
    }

    /// Starts a search on the game (after `ponder_move`, when pondering).
    fn start(&mut self, purpose: Purpose) {
        let mut moves = self.moves.clone();
        let ponder_move = match purpose {
            Purpose::Ponder(m) => {
                moves.push(m);
                true
            }
            _ => false,
        };
        if let Err(e) = self.engine.set_game(self.start.clone(), &moves) {
            // Only a move of our own bookkeeping could fail here; say so rather than search
            // a position XBoard does not show.
            self.error("internal position", &e.to_string());
            return;
        }
        if purpose == Purpose::Move && self.claim_result() {
            self.engine_side = None;
            return;
        }
        let infinite = purpose == Purpose::Analyze;
        let budget = if infinite || ponder_move {
            None
        } else {
            self.budget()
        };
        let depth = self
            .clocks
            .depth
            .filter(|_| !infinite)
            .map(|d| d.min(MAX_DEPTH as u32) as i32);
        let limits = Limits {
            depth,
            soft_ms: budget.map(|b| b.soft_ms),
            hard_ms: budget.map(|b| b.hard_ms),
            infinite,
            multipv: self.config.settings.multipv,
            ..Limits::default()
        };
        if self.reports.is_some() {
            if let Some(why) = self.config.choose_default_book(&mut self.engine) {
                self.send(&format!("# {why}"));
            }
        }
        self.searches.push_back(purpose);
        if let Some(tx) = &self.reports {
            let tx = tx.clone();
            self.engine.go(limits, ponder_move, move |r| {
                let _ = tx.send(Event::Report(r));
            });
        }
    }

    /// The time for the engine's move in the game now: `st`, else the clocks, else `sd`
    /// alone, else [`DEFAULT_MOVE_MS`]. What the clock says the last move cost is learned
    /// first ([`Lateness`]).
    fn budget(&mut self) -> Option<TimeBudget> {
        let budget = self
            .lateness
            .allocate(&self.time_limits(&self.game), false)?;
        self.clock_started = Some(Instant::now());
        Some(budget)
    }

    /// The clocks and move time for a move from `pos`, with the configured overhead.
    fn time_limits(&self, pos: &Position) -> TimeLimits {
        let c = &self.clocks;
        let ply = game_ply(pos);
        let remaining = c.own_ms.or(c.base_ms);
        TimeLimits {
            remaining_ms: remaining.filter(|_| c.move_ms.is_none()),
            increment_ms: c.increment_ms,
            moves_to_go: (c.moves_per_session > 0)
                .then(|| c.moves_per_session - (ply / 2) % c.moves_per_session),
            movetime_ms: c
                .move_ms
                .or((remaining.is_none() && c.depth.is_none()).then_some(DEFAULT_MOVE_MS)),
            opp_remaining_ms: c.opp_ms.or(c.base_ms),
            opp_increment_ms: c.increment_ms,
            move_overhead_ms: self.config.settings.move_overhead_ms,
            ply,
            ponder_expected: self.ponder,
        }
    }

    /// Handles a report of a running search.
    pub fn on_report(&mut self, report: Report) {
        let Some(&purpose) = self.searches.front() else {
            return;
        };
        match report {
            Report::Info(info) => {
                let show = match purpose {
                    Purpose::Analyze => true,
                    Purpose::Move | Purpose::Ponder(_) => self.post,
                    Purpose::Discarded => false,
                };
                if show {
                    let line = thinking_line(&info);
                    self.send(&line);
                }
            }
            // XBoard has no form for book candidates; the move itself follows in `Done`.
            Report::Book { .. } => {}
            // A comment line: XBoard shows it in its debug log and otherwise ignores it.
            Report::Warning(text) => self.send(&format!("# {text}")),
            Report::Done(result) => {
                self.searches.pop_front();
                if purpose == Purpose::Move && self.searches.is_empty() {
                    self.play(result);
                }
                if self.ending && !self.is_thinking() {
                    self.stop_all();
                    self.exit = Some(0);
                }
            }
        }
    }

    /// The engine's move is found: play it (or resign, or claim the result).
    fn play(&mut self, result: SearchResult) {
        let Some(best) = result.best else {
            // Only a position without legal moves gets here; `start` claims those first.
            self.claim_result();
            self.engine_side = None;
            self.answer_pings();
            return;
        };
        let facts = Facts {
            score: result.score,
            depth: result.depth,
            root_moves: result.root_moves,
            dead_draw: self.game.no_attacking_material(),
            quiet_plies: self.game.halfmove_clock(),
            offered: std::mem::take(&mut self.draw_offered),
        };
        let settings = &self.config.settings;
        match self
            .draw_resign
            .decide(&facts, settings.allow_draw, settings.allow_resign)
        {
            Suffix::Resign => {
                self.send("resign");
                self.engine_side = None;
                self.answer_pings();
                return;
            }
            // Accepts the opponent's offer, or offers one with this move.
            Suffix::Draw => self.send("offer draw"),
            Suffix::None => {}
        }
        self.send(&format!("move {best}"));
        if let Some(started) = self.clock_started.take() {
            self.lateness.finished(elapsed_ms(started));
        }
        self.game.make_move(best);
        self.moves.push(best);
        let over = self.claim_result();
        self.answer_pings();
        if over {
            self.engine_side = None;
            return;
        }
        if self.ponder {
            if let Some(p) = result.ponder.filter(|&p| self.game.is_legal(p)) {
                self.start(Purpose::Ponder(p));
            }
        }
    }

    fn answer_pings(&mut self) {
        for pong in std::mem::take(&mut self.pongs) {
            self.send(&pong);
        }
    }

    /// Stops every search and drops what it would have said; pending `ping`s are answered,
    /// since every command before them is now done.
    fn stop_all(&mut self) {
        if self.searches.iter().any(|p| *p != Purpose::Discarded) {
            self.engine.stop();
        }
        for p in &mut self.searches {
            *p = Purpose::Discarded;
        }
        self.answer_pings();
    }

    /// `easy`: a ponder search in progress ends.
    fn discard_ponder(&mut self) {
        if matches!(self.searches.back(), Some(Purpose::Ponder(_))) {
            self.stop_all();
        }
    }

    /// The protocol's error form: `Error (reason): command`.
    fn error(&mut self, reason: &str, command: &str) {
        self.send(&format!("Error ({reason}): {}", shown(command, 80)));
    }

    /// The answer to `protover 2`: what this engine does, then its options (from the table
    /// the UCCI and UCI handshakes are written from), ending with `done=1`.
    fn features(&mut self) {
        let version = env!("CARGO_PKG_VERSION");
        self.send(&format!(
            "feature myname=\"Jiangjun {version}\" variants=\"xiangqi\" setboard=1 usermove=1 \
             ping=1 sigint=0 sigterm=0 analyze=1 colors=0 memory=1 smp=1 draw=1 reuse=1"
        ));
        for line in options::cecp_features() {
            self.send(&line);
        }
        self.send("feature done=1");
    }

    /// Prints one line and flushes it; a closed output ends the session.
    fn send(&mut self, line: &str) {
        if self.exit.is_some() {
            return;
        }
        // Replies quote what XBoard sent (a command, a move): whatever it held, the reply
        // stays one clean line, without control characters or a blank at the end.
        let clean: String = line
            .chars()
            .map(|c| if c.is_control() { '?' } else { c })
            .collect();
        let written = writeln!(self.out, "{}", clean.trim_end()).and_then(|()| self.out.flush());
        if written.is_err() {
            self.stop_all();
            self.exit = Some(0);
        }
    }
}

/// At most `max` characters of what XBoard sent, for a reply that quotes it.
fn shown(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// A thinking line: `depth score time nodes pv`, time in centiseconds, mates as ±100000 + N.
pub fn thinking_line(info: &Info) -> String {
    let score = match mate_in_moves(info.score) {
        Some(n) if n > 0 => 100_000 + n,
        Some(n) => -100_000 + n,
        None => reported(info.score),
    };
    let mut s = format!(
        "{} {score} {} {}",
        info.depth.max(0),
        info.time_ms / 10,
        info.nodes
    );
    for m in &info.pv {
        s.push(' ');
        s.push_str(&m.to_string());
    }
    s
}

/// ICCS-shaped: `[a-i][0-9][a-i][0-9]`.
fn looks_like_move(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 4
        && (b'a'..=b'i').contains(&b[0])
        && b[1].is_ascii_digit()
        && (b'a'..=b'i').contains(&b[2])
        && b[3].is_ascii_digit()
}

/// Seconds, possibly fractional (`st 2.5`), as milliseconds.
fn parse_seconds(s: &str) -> Option<u64> {
    let v: f64 = s.parse().ok()?;
    (0.0..1e9).contains(&v).then(|| (v * 1000.0).round() as u64)
}

/// `level MPS BASE INC`: moves per session, base time in minutes or `min:sec`, increment in
/// seconds. Returns (moves, base ms, increment ms).
fn parse_level(arg: &str) -> Option<(u32, u64, u64)> {
    let mut words = arg.split_whitespace();
    let mps: u32 = words.next()?.parse().ok()?;
    let base = words.next()?;
    let inc = parse_seconds(words.next()?)?;
    if words.next().is_some() {
        return None;
    }
    let base_ms = match base.split_once(':') {
        Some((min, sec)) => {
            let min: u64 = min.parse().ok()?;
            let sec: u64 = sec.parse().ok()?;
            min.checked_mul(60)?.checked_add(sec)?.checked_mul(1000)?
        }
        None => parse_seconds(base)?.checked_mul(60)?,
    };
    Some((mps, base_ms, inc))
}

#[cfg(test)]
mod tests;
