//! The façade between the protocol and the search: the protocol layer calls only this. It sits
//! above the search, the evaluations and the book, so that the search needs neither the book
//! nor the front ends.
//!
//! It owns the game (a [`Position`] whose history holds every move since the set-up position,
//! which the repetition rules need), the banned root moves, the transposition table, the
//! thread settings, the network (the built-in one unless the front end loaded another) and the
//! book the front end loaded (the engine and the layers below it read no files). `go` starts
//! the search on a background thread and returns at once, so the protocol loop keeps reading
//! commands (`stop`, `ponderhit`, `isready`) while it thinks; the result comes back through the
//! `report` callback, exactly once per `go`. When the opening book has a usable move, `go`
//! answers from it at once (reporting one `Book`, then `Done`) on the caller's thread.

use crate::board::{Move, Position};
use crate::book::{self, Book, BookMove, Randomness};
use crate::eval;
use crate::eval::nnue::{self, Network};
use crate::eval::Level;
use crate::rules::RuleSet;
use crate::search::history::Histories;
use crate::search::levels::Style;
use crate::search::limits::{Config, Limits};
use crate::search::parameters::Parameters;
use crate::search::repetition;
use crate::search::report::{BookCandidate, Info, Report, SearchResult};
use crate::search::shared::Shared;
use crate::search::strength::Strength;
use crate::search::threads::{lock, search_threads, spawn_search};
use crate::search::tt::{self, TableStats, TranspositionTable, TtEntry};
use crate::tablebase::TableSet;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Default table size when the GUI does not say (`hashsize 0` also means this).
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest table we allocate.
pub const MAX_HASH_MB: usize = 16 * 1024;
/// Most search threads.
pub const MAX_THREADS: usize = 256;
/// Search threads until the GUI says otherwise.
pub const DEFAULT_THREADS: usize = 1;
/// Whether a new engine plays from its book (UCCI `usebook`, UCI `OwnBook`).
pub const DEFAULT_USE_BOOK: bool = true;
/// Whether a new engine's search reads its endgame tables (UCCI `useegtb`).
pub const DEFAULT_USE_TABLEBASES: bool = true;

/// Why [`Engine::set_game`] did not take the whole game: move number `index` (from 0) of the
/// list, `mv`, is not legal where it comes. The game is kept up to the move before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IllegalMove {
    pub index: usize,
    pub mv: Move,
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let IllegalMove { index, mv } = self;
        write!(
            f,
            "move {} ({mv}) is not legal where it is played; game kept up to move {index}",
            index + 1
        )
    }
}

/// Which evaluation an engine's searches use: what the tools choose on their command lines.
#[derive(Clone, Debug, Default)]
pub enum Evaluation {
    /// The engine's default: the built-in network when [`nnue::DEFAULT_ON`], else the
    /// hand-written evaluation.
    #[default]
    Default,
    /// The hand-written evaluation.
    HandWritten,
    /// This network.
    Network(Arc<Network>),
}

impl Evaluation {
    /// The built-in network, chosen explicitly (whatever [`nnue::DEFAULT_ON`] says).
    pub fn built_in() -> Result<Evaluation, nnue::NetworkError> {
        nnue::built_in().map(Evaluation::Network)
    }
}

struct Running {
    shared: Arc<Shared>,
    handle: JoinHandle<()>,
}

/// The engine.
pub struct Engine {
    tt: Option<Arc<TranspositionTable>>,
    hash_mb: usize,
    threads: usize,
    pos: Position,
    banned: Vec<Move>,
    running: Option<Running>,
    use_book: bool,
    /// The book the front end handed over ([`Engine::set_book`]); the engine reads no files,
    /// so there is no book until one is given.
    book: Option<Arc<Book>>,
    /// Endgame tables (`tbpath`), probed by the search.
    tablebases: Option<Arc<TableSet>>,
    /// Whether the search reads them (UCCI `useegtb`).
    use_tablebases: bool,
    randomness: Randomness,
    /// Draws the book choices; seeded from the system by default, or by
    /// [`Engine::set_book_seed`] so that a seed reproduces a game.
    book_rng: ChaCha8Rng,
    /// What every search plays by: the repetition rules (also the book filter's), `pruning`,
    /// `knowledge`, `style`, the parameters, the network in use and the strength. Changed by
    /// the options' setters (a running search keeps the one it started with) and shared with
    /// each search as it is.
    config: Arc<Config>,
    /// The network: the built-in one, or one the front end loaded (`evalfile`; the search
    /// layer reads no files); `None` when told to have none.
    network: Option<Arc<Network>>,
    /// Evaluate with `network` when there is one (`usennue`); else the hand-written evaluation.
    use_network: bool,
    /// Seeds each limited-strength move choice (from the system, or [`Engine::set_book_seed`]).
    choice_rng: ChaCha8Rng,
    /// Each search thread's move-ordering statistics, kept from one search to the next until
    /// a new game. A search holds the lock while it runs; a new game replaces the whole set,
    /// so it never waits for one.
    histories: Arc<Mutex<Vec<Histories>>>,
    /// The longest wait between the search's clock checks, fading from search to search
    /// ([`Shared::stall_ms`]).
    stall_ms: Arc<AtomicU64>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// A new engine at the start position. The table is allocated lazily, on the first search
    /// or `ensure_ready`, so the protocol handshake is answered at once.
    pub fn new() -> Engine {
        let mut engine = Engine {
            tt: None,
            hash_mb: DEFAULT_HASH_MB,
            threads: DEFAULT_THREADS,
            pos: Position::startpos(),
            banned: Vec::new(),
            running: None,
            use_book: DEFAULT_USE_BOOK,
            book: None,
            tablebases: None,
            use_tablebases: DEFAULT_USE_TABLEBASES,
            randomness: Randomness::DEFAULT,
            book_rng: ChaCha8Rng::from_os_rng(),
            config: Arc::new(Config {
                rules: RuleSet::DEFAULT,
                pruning: Level::DEFAULT,
                knowledge: Level::DEFAULT,
                style: Style::DEFAULT,
                params: Parameters::DEFAULT,
                network: None,
                strength: None,
            }),
            choice_rng: ChaCha8Rng::from_os_rng(),
            network: None,
            use_network: false,
            histories: Arc::default(),
            stall_ms: Arc::default(),
        };
        engine.set_evaluation(&Evaluation::Default);
        engine
    }

    /// The configuration to change (a running search keeps its own copy).
    fn config_mut(&mut self) -> &mut Config {
        Arc::make_mut(&mut self.config)
    }

    /// Sets the configuration's network from the one loaded and `usennue`.
    fn update_network(&mut self) {
        let active = self.network.clone().filter(|_| self.use_network);
        self.config_mut().network = active;
    }

    /// How selective the search is (`pruning`; `large` is the engine as measured).
    pub fn set_pruning(&mut self, level: Level) {
        self.config_mut().pruning = level;
    }

    /// How much of the evaluation is used (`knowledge`).
    pub fn set_knowledge(&mut self, level: Level) {
        self.config_mut().knowledge = level;
    }

    /// What a draw is worth (`style`).
    pub fn set_style(&mut self, style: Style) {
        self.config_mut().style = style;
    }

    /// The `pruning`, `knowledge` and `style` every search takes.
    pub fn levels(&self) -> (Level, Level, Style) {
        (
            self.config.pruning,
            self.config.knowledge,
            self.config.style,
        )
    }

    /// Sets the search's parameters (a tuning run's hidden options).
    pub fn set_parameters(&mut self, params: Parameters) {
        self.config_mut().params = params;
    }

    /// Sets the loaded network (`None`: none). Used by searches while [`Self::set_use_network`]
    /// is on.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.network = net;
        self.update_network();
    }

    /// Chooses the network (`true`, when one is loaded) or the hand-written evaluation.
    pub fn set_use_network(&mut self, on: bool) {
        self.use_network = on;
        self.update_network();
    }

    /// Whether the network is chosen (`usennue`, whether or not one is loaded).
    pub fn use_network(&self) -> bool {
        self.use_network
    }

    /// The network the next search evaluates with, if any (at `knowledge` levels below
    /// `large` the search keeps the hand-written evaluation even so).
    pub fn active_network(&self) -> Option<&Arc<Network>> {
        self.config.network.as_ref()
    }

    /// Chooses the evaluation as a tool asks for it (see [`Evaluation`]).
    pub fn set_evaluation(&mut self, evaluation: &Evaluation) {
        match evaluation {
            Evaluation::Default => {
                self.network = nnue::built_in().ok();
                self.use_network = nnue::DEFAULT_ON;
            }
            Evaluation::HandWritten => self.use_network = false,
            Evaluation::Network(net) => {
                self.network = Some(net.clone());
                self.use_network = true;
            }
        }
        self.update_network();
    }

    /// The static evaluation of `pos` as this engine's searches would see it (centipawns from
    /// the side to move): the network in use, else the hand-written evaluation at the
    /// `knowledge` level.
    pub fn static_eval(&self, pos: &Position) -> i32 {
        match self.active_network() {
            Some(net) if self.config.knowledge >= Level::Large => net.evaluate(pos),
            _ => eval::evaluate_with(pos, eval::weights_for(self.config.knowledge)),
        }
    }

    /// What a playing strength adds to a request: its node budget (when the request allows
    /// more) and the randomness of this move's choice.
    fn limit_strength(&mut self, limits: &mut Limits) {
        if let Some(s) = self.config.strength {
            limits.nodes = Some(limits.nodes.map_or(s.nodes, |n| n.min(s.nodes)));
            limits.choice_seed = self.choice_rng.random();
        }
    }

    /// The threads a search runs: a strength level plays alike on every machine, so it
    /// searches its node budget with one.
    fn thread_count(&self) -> usize {
        if self.config.strength.is_some() {
            1
        } else {
            self.threads
        }
    }

    /// Plays at a strength for people (`UCI_LimitStrength`/`UCI_Elo`), or at full strength.
    pub fn set_strength(&mut self, strength: Option<Strength>) {
        self.config_mut().strength = strength;
    }

    /// The strength played at (`None`: full strength).
    pub fn strength(&self) -> Option<Strength> {
        self.config.strength
    }

    /// Chooses the repetition rules (`repetition` option): the 2011 Chinese rules (default)
    /// or the Asian rules.
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.config_mut().rules = rules;
    }

    pub fn rules(&self) -> RuleSet {
        self.config.rules
    }

    /// Switches the opening book on or off (`usebook`).
    pub fn set_use_book(&mut self, on: bool) {
        self.use_book = on;
    }

    /// Variety of book choices (`randomness`).
    pub fn set_randomness(&mut self, r: Randomness) {
        self.randomness = r;
    }

    /// Whether the book is on (`usebook`, whether or not one is loaded) and its variety.
    pub fn book_settings(&self) -> (bool, Randomness) {
        (self.use_book, self.randomness)
    }

    /// Seeds the book's random choices: the same seed, book and moves give the same choices.
    pub fn set_book_seed(&mut self, seed: u64) {
        self.book_rng = ChaCha8Rng::seed_from_u64(seed);
        self.choice_rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    }

    /// Uses `book` from now on (`None`: no book). The front end finds and loads the file
    /// (`bookfiles`, or the default book) and hands it over.
    /// Endgame tables for the search to read exact values from (`None`: no tables).
    pub fn set_tablebases(&mut self, tables: Option<Arc<TableSet>>) {
        self.tablebases = tables;
    }

    /// Whether the search reads the endgame tables it holds (UCCI `useegtb`).
    pub fn set_use_tablebases(&mut self, on: bool) {
        self.use_tablebases = on;
    }

    /// The endgame tables in use, if any.
    pub fn tablebases(&self) -> Option<&TableSet> {
        self.tablebases.as_deref()
    }

    /// Whether the search reads the endgame tables (`useegtb`, whether or not any are held).
    pub fn use_tablebases(&self) -> bool {
        self.use_tablebases
    }

    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The book the engine plays from: `None` without one or with `usebook` off.
    pub fn book_in_use(&self) -> Option<&Book> {
        self.book.as_deref().filter(|_| self.use_book)
    }

    /// The book moves usable here: legal, not banned, not repeating a position.
    pub fn book_moves(&mut self) -> Vec<BookMove> {
        if !self.use_book {
            return Vec::new();
        }
        let Some(b) = &self.book else {
            return Vec::new();
        };
        let mut pos = self.pos.clone();
        b.probe(&pos)
            .into_iter()
            .filter(|bm| !self.banned.contains(&bm.mv))
            .filter(|bm| {
                // Never let the book walk into a repetition (a rule loss or a needless draw).
                pos.make_move(bm.mv);
                let repeats = repetition::score_with(&pos, 1, self.config.rules).is_some();
                pos.unmake_move();
                !repeats
            })
            .collect()
    }

    /// Plays from the book if it can: reports the candidates and the choice.
    fn try_book(&mut self, report: &mut impl FnMut(Report)) -> bool {
        let moves = self.book_moves();
        let Some(choice) = book::choose(&moves, self.randomness, &mut self.book_rng) else {
            return false;
        };
        let mut pos = self.pos.clone();
        let candidates: Vec<BookCandidate> = moves
            .iter()
            .map(|bm| {
                pos.make_move(bm.mv);
                let score = -self.static_eval(&pos);
                pos.unmake_move();
                BookCandidate {
                    mv: bm.mv,
                    weight: bm.weight,
                    score,
                }
            })
            .collect();
        let score = candidates
            .iter()
            .find(|c| c.mv == choice.mv)
            .map_or(0, |c| c.score);
        report(Report::Book {
            candidates,
            chosen: choice.mv,
        });
        let mut after = self.pos.clone();
        after.make_move(choice.mv);
        let ponder = self
            .book
            .as_ref()
            .and_then(|b| b.probe(&after).first().map(|r| r.mv));
        report(Report::Done(SearchResult {
            best: Some(choice.mv),
            ponder,
            score,
            depth: 0,
            root_moves: self.pos.legal_moves().len(),
            table: TableStats::default(),
            nodes: 0,
        }));
        true
    }

    /// Sets the table size in MB (0 = default); takes effect at the next search.
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = if mb == 0 {
            DEFAULT_HASH_MB
        } else {
            mb.min(MAX_HASH_MB)
        };
        if mb != self.hash_mb {
            self.hash_mb = mb;
            self.tt = None;
        }
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Sets the number of search threads (0 = one per core).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = if n == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            n
        }
        .clamp(1, MAX_THREADS);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Allocates the table if needed (answering `isready` may take this moment).
    pub fn ensure_ready(&mut self) -> Arc<TranspositionTable> {
        match &self.tt {
            Some(tt) => tt.clone(),
            None => {
                let tt = Arc::new(TranspositionTable::new(self.hash_mb));
                self.tt = Some(tt.clone());
                tt
            }
        }
    }

    /// Forgets everything learned in the previous game: a used table is dropped, and the next
    /// [`Engine::ensure_ready`] allocates a fresh one (already zero, see [`TranspositionTable`]).
    pub fn new_game(&mut self) {
        self.histories = Arc::default();
        if self.tt.as_ref().is_some_and(|tt| tt.is_used()) {
            // Freeing a used table returns every page it touched to the system: 5-10 ms for
            // 64 MB, measured as that much time lost on the next move when a GUI sends
            // `newgame`, `position` and `go` together. So it is freed on a thread of its own,
            // with the finished search that may still hold it.
            let old = self.tt.take();
            let finished = self
                .running
                .take_if(|r| r.handle.is_finished())
                .map(|r| r.handle);
            let free = move || {
                if let Some(h) = finished {
                    let _ = h.join();
                }
                drop(old);
            };
            // Without a thread to be had, the closure (and the memory) is dropped right here.
            let _ = std::thread::Builder::new().spawn(free);
        }
    }

    /// Sets the game: its set-up position and the moves played since, each checked where it
    /// is played; the search sees the whole game (the repetition rules need it). `start` is a
    /// set-up position: a history of its own, if it has one, is no part of the game (as when
    /// it comes from a FEN). Clears the banned moves. On an illegal move the game is kept up
    /// to the move before it.
    pub fn set_game(&mut self, mut start: Position, moves: &[Move]) -> Result<(), IllegalMove> {
        start.clear_history();
        self.pos = start;
        self.banned.clear();
        for (index, &mv) in moves.iter().enumerate() {
            if !self.pos.is_legal(mv) {
                return Err(IllegalMove { index, mv });
            }
            self.pos.make_move(mv);
        }
        Ok(())
    }

    /// Sets the root moves the search must not play (`banmoves`, or every move but those of
    /// UCI `searchmoves`). A move not legal here bans nothing and is not kept.
    pub fn set_banned(&mut self, moves: &[Move]) {
        let pos = &self.pos;
        self.banned = moves.iter().copied().filter(|&m| pos.is_legal(m)).collect();
    }

    pub fn banned(&self) -> &[Move] {
        &self.banned
    }

    /// The current game position (with its history).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Is a search running (including one waiting for `stop` or `ponderhit`)?
    pub fn is_searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Starts a search. `ponder`: think on the opponent's time; limits apply from `ponderhit`.
    /// `report` gets `Info`s and finally one `Done`.
    pub fn go(
        &mut self,
        mut limits: Limits,
        ponder: bool,
        mut report: impl FnMut(Report) + Send + 'static,
    ) {
        // The clock runs from the `go`, not from the search's start: finishing the previous
        // search and freeing what it held count against this move's time too.
        let started = Instant::now();
        self.limit_strength(&mut limits);
        self.stop();
        self.wait();
        // The book answers timed searches; analysis (`go infinite`) and pondering search.
        if !ponder && !limits.infinite && self.try_book(&mut report) {
            return;
        }
        let tt = self.ensure_ready();
        tt.new_search();
        // A wait seen in an earlier search counts for a while (a quarter less each search):
        // a busy machine stays busy, and a single wait fades.
        let stall = self.stall_ms.load(Ordering::Relaxed);
        self.stall_ms.store(stall - stall / 4, Ordering::Relaxed);
        let (tablebases, banned, root_drawn) = self.table_plan();
        let shared = Arc::new(Shared {
            start: started,
            stall_ms: self.stall_ms.clone(),
            tablebases,
            root_drawn,
            ..Shared::new(tt, self.config.clone(), &limits, ponder)
        });
        let threads = self.thread_count();
        let pos = self.pos.clone();
        let sh = shared.clone();
        let histories = self.histories.clone();
        // Shared with the thread, so that the report is still at hand if it cannot start.
        let report = Arc::new(Mutex::new(report));
        let thread_report = report.clone();
        let search = move || {
            let mut report = |r: Report| lock(&thread_report)(r);
            let outcome = search_threads(
                &pos,
                &banned,
                &sh,
                &limits,
                threads,
                &histories,
                &mut report,
            );
            // Under `go infinite` or while pondering the result waits for `stop`/`ponderhit`.
            while !sh.stop_requested.load(Ordering::Relaxed)
                && (limits.infinite || sh.pondering.load(Ordering::Relaxed))
            {
                std::thread::sleep(Duration::from_millis(1));
            }
            report(Report::Done(outcome));
        };
        match spawn_search(search) {
            Some(handle) => self.running = Some(Running { shared, handle }),
            None => {
                // No thread to be had (an address-space limit, a process limit): a one-ply
                // search here, so that the `go` is still answered, and never in silence.
                self.running = None;
                let report = |r: Report| lock(&report)(r);
                report(Report::Warning(
                    "no search thread could be started; answering from a one-ply search"
                        .to_string(),
                ));
                let outcome = self.search_blocking(
                    Limits {
                        depth: Some(1),
                        ..Limits::default()
                    },
                    |_| {},
                );
                report(Report::Done(outcome));
            }
        }
    }

    /// Asks the running search to stop; its `Done` report follows promptly.
    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.shared.stop_requested.store(true, Ordering::Relaxed);
            r.shared.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The opponent played the expected move: the ponder search becomes a normal one with
    /// these limits, counted from now.
    pub fn ponderhit(&self, soft_ms: Option<u64>, hard_ms: Option<u64>) {
        if let Some(r) = &self.running {
            let now = r.shared.elapsed_ms();
            let at = |ms: Option<u64>| ms.map_or(u64::MAX, |m| now.saturating_add(m));
            r.shared.soft_ms.store(at(soft_ms), Ordering::Relaxed);
            r.shared.hard_ms.store(at(hard_ms), Ordering::Relaxed);
            r.shared.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Looks `pos` up in the transposition table without searching (UCCI `probe`). `None`
    /// when the table is not allocated yet or holds nothing for this position.
    pub fn probe(&self, pos: &Position) -> Option<TtEntry> {
        self.tt
            .as_ref()?
            .probe(tt::table_key(pos.key(), self.plies_to_limit(pos)), 0)
    }

    /// Plies `pos` has left before the natural limit of the rules in force.
    fn plies_to_limit(&self, pos: &Position) -> u32 {
        repetition::natural_limit_plies(self.config.rules).saturating_sub(pos.halfmove_clock())
    }

    /// How a search uses the endgame tables: the tables its nodes read, and the root moves it
    /// may not play (the banned ones, and those the tables say throw the result away). When
    /// the tables hold the root and call it a draw, the search keeps only the moves that hold
    /// the draw and reads no tables below: every move scored 0 would leave it no way to pick
    /// the one that sets the opponent problems, as a search without tables does.
    fn table_plan(&self) -> (Option<Arc<TableSet>>, Vec<Move>, bool) {
        let mut banned = self.banned.clone();
        let Some(tables) = self.tablebases.as_ref().filter(|_| self.use_tablebases) else {
            return (None, banned, false);
        };
        let rules = self.config.rules;
        let probe = |pos: &Position| tables.probe(pos).filter(|v| v.holds_under(rules));
        let Some(root) = probe(&self.pos) else {
            return (Some(tables.clone()), banned, false);
        };
        let mut worse = Vec::new();
        let mut kept = 0;
        for m in self.pos.legal_moves() {
            if banned.contains(&m) {
                continue;
            }
            let mut child = self.pos.clone();
            child.make_move(m);
            match probe(&child).map(|v| v.before()) {
                Some(v) if v.outcome() != root.outcome() => worse.push(m),
                _ => kept += 1,
            }
        }
        if kept > 0 {
            banned.extend(worse);
        }
        let drawn = root == crate::tablebase::Value::Draw;
        (Some(tables.clone()).filter(|_| !drawn), banned, drawn)
    }

    /// Waits for the running search (if any) to finish and report.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }

    /// Searches synchronously on this thread (bench, tests, scripts).
    pub fn search_blocking(
        &mut self,
        mut limits: Limits,
        mut on_info: impl FnMut(&Info),
    ) -> SearchResult {
        self.limit_strength(&mut limits);
        self.stop();
        self.wait();
        let tt = self.ensure_ready();
        tt.new_search();
        let (tablebases, banned, root_drawn) = self.table_plan();
        let shared = Arc::new(Shared {
            tablebases,
            root_drawn,
            ..Shared::new(tt, self.config.clone(), &limits, false)
        });
        let mut report = |r: Report| {
            if let Report::Info(i) = r {
                on_info(&i)
            }
        };
        let threads = self.thread_count();
        search_threads(
            &self.pos,
            &banned,
            &shared,
            &limits,
            threads,
            &self.histories,
            &mut report,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::{canonical_key, Entry};

    /// An engine at the start position with a book of six equally weighted first moves.
    fn engine_with_book(seed: u64) -> Engine {
        let pos = Position::startpos();
        let (key, mirrored) = canonical_key(&pos);
        let entries = ["b2e2", "h2e2", "c3c4", "g3g4", "b0c2", "h0g2"]
            .iter()
            .map(|text| {
                let m = pos.parse_move(text).unwrap();
                let stored = if mirrored { m.mirror_file() } else { m };
                Entry {
                    key,
                    mv: stored.to_u16(),
                    weight: 10,
                    score: 0,
                }
            })
            .collect();
        let mut e = Engine::new();
        e.set_book(Some(Arc::new(Book::from_entries(entries))));
        e.set_randomness(Randomness::Huge);
        e.set_book_seed(seed);
        e
    }

    fn choices(e: &mut Engine) -> Vec<Move> {
        (0..24)
            .map(|_| {
                let mut chosen = None;
                assert!(e.try_book(&mut |r| {
                    if let Report::Book { chosen: m, .. } = r {
                        chosen = Some(m);
                    }
                }));
                chosen.unwrap()
            })
            .collect()
    }

    /// The moves a limited strength plays from the start position, one search per seed.
    fn weak_moves(threads: usize, elo: u32) -> Vec<(Move, u64)> {
        (0..12)
            .map(|seed| {
                let mut e = Engine::new();
                e.set_threads(threads);
                e.set_strength(Some(Strength::from_elo(elo)));
                e.set_book_seed(seed);
                let mut nodes = 0;
                let r = e.search_blocking(Limits::default(), |i| nodes = i.nodes);
                (r.best.unwrap(), nodes)
            })
            .collect()
    }

    #[test]
    fn a_limited_strength_varies_its_moves_within_its_budget_on_one_thread() {
        use crate::search::strength::MIN_ELO;
        let weak = Strength::from_elo(MIN_ELO);
        let a = weak_moves(1, MIN_ELO);
        // The seed decides: the same seeds give the same moves, whatever the thread count.
        assert_eq!(a, weak_moves(4, MIN_ELO));
        assert!(a.iter().any(|&(m, _)| m != a[0].0), "{a:?}");
        // Every move is one the full search ranks among its best lines; the budget holds,
        // except that the first iteration's lines are always finished.
        let mut full = Engine::new();
        let limits = Limits {
            depth: Some(1),
            multipv: crate::search::strength::LINES,
            ..Limits::default()
        };
        let mut best = Vec::new();
        let mut first = 0;
        full.search_blocking(limits, |i| {
            best.push(i.pv[0]);
            first = i.nodes;
        });
        assert_eq!(best.len(), crate::search::strength::LINES);
        assert!(
            a.iter().all(|&(_, n)| n <= weak.nodes.max(first)),
            "{a:?} {first}"
        );
        assert!(a.iter().all(|(m, _)| best.contains(m)), "{a:?} {best:?}");
    }

    /// A node limit that ends the first iteration of a several-line search leaves the later
    /// lines unscored or cut short: only the lines searched to the end are shown (never an
    /// unscored line's placeholder, which read as a mate).
    #[test]
    fn a_first_iteration_cut_by_the_limit_shows_only_finished_lines() {
        let mut e = Engine::new();
        let limits = Limits {
            nodes: Some(100),
            multipv: 4,
            ..Limits::default()
        };
        let mut lines = Vec::new();
        e.search_blocking(limits, |i| lines.push((i.depth, i.score, i.pv[0])));
        assert!(!lines.is_empty() && lines.len() < 4, "{lines:?}");
        assert!(
            lines
                .iter()
                .all(|&(d, s, _)| d == 1 && !crate::search::score::is_decisive(s)),
            "{lines:?}"
        );
    }

    /// A search reports its table use: cutoffs are hits and hits are probes, and the same
    /// search again finds the first one's entries (more hits for fewer probes).
    #[test]
    fn a_search_reports_how_it_used_the_table() {
        let depth = |d| Limits {
            depth: Some(d),
            ..Limits::default()
        };
        let mut e = Engine::new();
        e.set_threads(1);
        let first = e.search_blocking(depth(6), |_| {}).table;
        assert!(first.probes > 100, "{first:?}");
        assert!(first.cutoffs <= first.hits && first.hits <= first.probes);
        let again = e.search_blocking(depth(6), |_| {}).table;
        assert!(again.probes < first.probes, "{first:?} then {again:?}");
        let share = |t: TableStats| t.hits as f64 / t.probes as f64;
        assert!(share(again) > share(first), "{first:?} then {again:?}");
        e.new_game();
        e.set_threads(2);
        let two = e.search_blocking(depth(6), |_| {}).table;
        assert!(two.probes > 0 && two.cutoffs <= two.hits && two.hits <= two.probes);
    }

    /// `go nodes N` limits the nodes of all threads together, give or take each helper's
    /// last 1,024 (each thread alone once searched N, four threads four times N).
    #[test]
    fn a_node_limit_holds_for_all_threads_together() {
        let limit = 30_000;
        let mut e = Engine::new();
        e.set_use_book(false);
        e.set_threads(4);
        // All threads' nodes at the end, not the last iteration's report: under load the
        // main thread may finish few iterations while the helpers spend the budget.
        let most = e
            .search_blocking(
                Limits {
                    nodes: Some(limit),
                    ..Limits::default()
                },
                |_| {},
            )
            .nodes;
        assert!(most > limit / 2, "searched only {most}");
        assert!(
            most <= limit + 4 * 1024,
            "{most} nodes for a limit of {limit}"
        );
    }

    #[test]
    fn a_book_seed_reproduces_the_choices() {
        let a = choices(&mut engine_with_book(7));
        assert_eq!(a, choices(&mut engine_with_book(7)));
        assert_ne!(a, choices(&mut engine_with_book(8)));
        // The choices do vary: more than one of the six moves comes up.
        assert!(a.iter().any(|&m| m != a[0]), "{a:?}");
    }

    #[test]
    fn the_default_evaluation_follows_the_constant_and_tools_can_choose() {
        let pos = Position::startpos();
        let net = nnue::built_in().unwrap();
        let hand = eval::evaluate(&pos);
        let mut e = Engine::new();
        // By default the built-in network is loaded, and in use exactly when DEFAULT_ON.
        assert!(Arc::ptr_eq(e.network.as_ref().unwrap(), &net));
        assert_eq!(e.active_network().is_some(), nnue::DEFAULT_ON);
        e.set_evaluation(&Evaluation::HandWritten);
        assert!(e.active_network().is_none());
        assert_eq!(e.static_eval(&pos), hand);
        e.set_evaluation(&Evaluation::built_in().unwrap());
        assert!(Arc::ptr_eq(e.active_network().unwrap(), &net));
        assert_eq!(e.static_eval(&pos), net.evaluate(&pos));
        assert_ne!(net.evaluate(&pos), hand);
        // Below `large` knowledge the reduced hand-written evaluation stays.
        e.set_knowledge(Level::Small);
        assert_eq!(
            e.static_eval(&pos),
            eval::evaluate_with(&pos, eval::weights_for(Level::Small))
        );
        e.set_knowledge(Level::Large);
        e.set_evaluation(&Evaluation::Default);
        assert_eq!(e.active_network().is_some(), nnue::DEFAULT_ON);
    }

    #[test]
    fn book_candidates_are_scored_by_the_evaluation_in_use() {
        let net = nnue::built_in().unwrap();
        let scores = |evaluation: &Evaluation| {
            let mut e = engine_with_book(1);
            e.set_evaluation(evaluation);
            let mut got = Vec::new();
            assert!(e.try_book(&mut |r| {
                if let Report::Book { candidates, .. } = r {
                    got = candidates;
                }
            }));
            got
        };
        for c in scores(&Evaluation::Network(net.clone())) {
            let mut pos = Position::startpos();
            pos.make_move(c.mv);
            assert_eq!(c.score, -net.evaluate(&pos));
        }
        for c in scores(&Evaluation::HandWritten) {
            let mut pos = Position::startpos();
            pos.make_move(c.mv);
            assert_eq!(c.score, -eval::evaluate(&pos));
        }
    }
}
