//! The search: iterative deepening over a principal-variation alpha-beta search with
//! aspiration windows, a quiescence search over captures (and evasions when in check), and
//! the standard pruning and reduction tools of strong engines, each guarded where xiangqi
//! makes it unsafe.
//!
//! Repetitions found inside the tree are scored by [`crate::search::repetition`]: a side that
//! keeps up a forbidden cycle loses (a rule score, ranked with mates by distance: see
//! [`crate::search::score`]), anything else is a draw. Those scores
//! depend on the path, so they are never stored in the transposition table as values; rule
//! scores keep their band as they rise through the tree (as mates do), so no stored value
//! comes from a line that ends in a verdict. What an entry can still carry is the effect of a
//! verdict on a move *not* chosen (a side kept out of a forbidden cycle that another path
//! would allow) and repetition draws: marking such nodes path-dependent (three forms tried in
//! self-play) cost 13 to 57 Elo, so they are stored as ordinary values, as Stockfish and
//! Pikafish store their repetition draws.
//! The natural limit is kept out by the table's key near it ([`tt::table_key`]) and by taking
//! no cutoffs in its last plies.
//!
//! One [`Worker`] runs per thread; they share the table and the stop flag (lazy SMP). With
//! one thread and a node limit the search is deterministic.

use super::correction;
use super::eval;
use super::history::{self, Histories, HistoryView};
use super::levels::{Level, Selectivity, Style};
use super::movepick::{Kind, MovePicker};
use super::nnue::{AccumulatorStack, Network};
use super::parameters::{self, Parameters};
use super::repetition;
use super::score::*;
use super::strength::{self, Strength};
use super::time::{self, TimeBudget};
use super::tt::{self, Bound, SharedTableStats, TableStats, TranspositionTable, TtEntry};
use crate::board::{Move, PieceKind, Position};
use crate::rules::RuleSet;
use arrayvec::ArrayVec;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Deepest ply the search reaches (including quiescence).
pub const MAX_PLY: usize = 120;
/// Deepest iteration.
pub const MAX_DEPTH: i32 = 100;

/// What to search for, as the protocol asked; times are milliseconds from the start.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop starting new iterations after this.
    pub soft_ms: Option<u64>,
    /// Stop at once after this.
    pub hard_ms: Option<u64>,
    /// Run until told to stop (`go infinite`); also implied while pondering.
    pub infinite: bool,
    /// Which repetition rules the search applies (set by the engine from its option).
    pub rules: RuleSet,
    /// UCCI `pruning`: how selective the search is.
    pub pruning: Level,
    /// UCCI `knowledge`: how much of the evaluation is used.
    pub knowledge: Level,
    /// UCCI `style`: what a draw is worth.
    pub style: Style,
    /// UCCI `multipv` / UCI `MultiPV`: how many best root moves each iteration ranks and
    /// reports (0 and 1 both mean one line: the search as it always was).
    pub multipv: usize,
    /// Evaluate with this network instead of the hand-written evaluation (set by the engine
    /// from its options). Ignored at `knowledge` levels below `large`, which keep the reduced
    /// hand-written evaluation.
    pub network: Option<Arc<Network>>,
    /// Search a root with a single legal move to the limits like any other, for its score (a
    /// draw offer, an analysis); by default that move is played after one iteration.
    pub score_only_move: bool,
    /// The time is a fixed time for this move (`movetime`): time not spent is lost, so neither
    /// an only move nor a proven mate ends the search before it (issue 29.7, as Stockfish-family
    /// engines do). An only move's search fills the table for the next move.
    pub fixed_time: bool,
    /// The search's numeric parameters ([`Parameters::DEFAULT`] but in tuning runs).
    pub params: Parameters,
    /// A playing strength for people (`UCI_LimitStrength`): the move is chosen among the
    /// best root lines by [`Strength::choose`], with randomness from `choice_seed`.
    pub strength: Option<Strength>,
    pub choice_seed: u64,
}

/// State shared by all threads of one search.
pub struct Shared {
    /// Raised to end the search: by a limit, by the main thread when it is done, or by `stop`.
    pub stop: AtomicBool,
    /// Raised only by the caller (`stop`): ends the wait of `go infinite` / `go ponder`.
    pub stop_requested: AtomicBool,
    /// True while pondering: time limits do not apply yet.
    pub pondering: AtomicBool,
    pub start: Instant,
    /// Deadlines in ms from `start`; `u64::MAX` = none. Changed by `ponderhit`.
    pub soft_ms: AtomicU64,
    pub hard_ms: AtomicU64,
    /// Nodes searched by all threads (updated in batches).
    pub nodes: AtomicU64,
    /// How the threads used the table (updated in batches, with `nodes`).
    pub table_stats: SharedTableStats,
    pub tt: Arc<TranspositionTable>,
    /// The longest wait between two clock checks of the main thread, in ms: this search's and,
    /// fading, earlier ones' (the engine keeps it across searches). On a busy machine the
    /// search is not scheduled for tens of milliseconds at a time; stopping that much before
    /// the hard limit keeps the answer in time when the next wait comes at the end.
    pub stall_ms: Arc<AtomicU64>,
}

/// Waits between clock checks up to this long are the checks' own spacing (1024 nodes), not a
/// busy machine: they keep no time back, so an idle machine spends a fixed move time in full.
pub const STALL_FLOOR_MS: u64 = 10;

/// How much before the hard limit to stop, given the longest wait seen (`stall`): none for
/// waits up to [`STALL_FLOOR_MS`], else the wait, at most half of the hard limit.
pub fn stall_margin(stall: u64, hard: u64) -> u64 {
    if stall <= STALL_FLOOR_MS {
        0
    } else {
        stall.min(hard / 2)
    }
}

impl Shared {
    pub fn new(tt: Arc<TranspositionTable>, limits: &Limits, pondering: bool) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            stop_requested: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Instant::now(),
            soft_ms: AtomicU64::new(limits.soft_ms.unwrap_or(u64::MAX)),
            hard_ms: AtomicU64::new(limits.hard_ms.unwrap_or(u64::MAX)),
            nodes: AtomicU64::new(0),
            table_stats: SharedTableStats::default(),
            tt,
            stall_ms: Arc::default(),
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// One line of progress (the protocol prints it as `info`).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: i32,
    pub score: i32,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    pub hashfull: u32,
    /// The line's rank (1 = best) when several lines are searched (`multipv` > 1); `None` in
    /// a one-line search, which prints no `multipv` field.
    pub multipv: Option<usize>,
    pub pv: Vec<Move>,
}

/// What one search found: the move to play and its score. (Not a game's result, which is a
/// [`crate::board::GameResult`].)
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    /// Number of legal, unbanned root moves.
    pub root_moves: usize,
    /// How all threads used the table (none for a book move).
    pub table: TableStats,
}

/// Entries of a worker's evaluation cache (1 MB) at most. A search limited by nodes takes
/// fewer: twice its node limit (rounded up to a power of two, 4,096 at least) leaves most
/// entries free, and a small search (data generation labels positions with a few thousand
/// nodes) no longer clears a megabyte for each position. The cache changes speed only, not
/// the search's results.
const EVAL_CACHE: usize = 1 << 17;

/// The evaluation cache's entries for a search with these limits (a power of two).
fn eval_cache_len(limits: &Limits) -> usize {
    match limits.nodes {
        Some(n) => usize::try_from(n.saturating_mul(2))
            .unwrap_or(EVAL_CACHE)
            .clamp(1 << 12, EVAL_CACHE)
            .next_power_of_two(),
        None => EVAL_CACHE,
    }
}

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    /// The score of the previous iteration: the centre of this line's aspiration window when
    /// several lines are searched (the current iteration overwrites `score`).
    prev_score: i32,
    pv: Vec<Move>,
}

/// A search thread.
pub struct Worker {
    pub pos: Position,
    id: usize,
    shared: Arc<Shared>,
    limits: Limits,
    nodes: u64,
    flushed: u64,
    /// Table use not yet added to the shared sum.
    table_stats: TableStats,
    /// When the main thread last looked at the clock (ms from the start).
    last_check_ms: u64,
    seldepth: usize,
    stopped: bool,
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// The thread's move-ordering statistics, kept across the searches of a game.
    hist: Histories,
    /// The move made at each ply of the current line, by piece index and square index
    /// (`None` for a null move): the keys of the continuation history.
    moved: [Option<(usize, usize)>; MAX_PLY + 2],
    /// The move a singular-extension search leaves out at each ply.
    excluded: [Option<Move>; MAX_PLY + 2],
    pv: Vec<ArrayVec<Move, MAX_PLY>>,
    evals: [i32; MAX_PLY + 2],
    root_moves: Vec<RootMove>,
    root_depth: i32,
    /// The line being searched in a multi-line search: root moves before it are the better
    /// lines already found this iteration, and are left out.
    pv_index: usize,
    /// Static evaluations by position key (see [`Worker::evaluate`]).
    eval_cache: Vec<u64>,
    /// The pruning tools the `pruning` level allows.
    sel: Selectivity,
    /// The search's parameters (a copy of the limits', read at every node) and the
    /// late-move reductions they give.
    p: Parameters,
    lmr: Arc<parameters::LmrTable>,
    /// Reduced weights for a `knowledge` level below `large`; `None` = the full evaluation.
    weights: Option<&'static eval::Weights>,
    /// The natural limit of the rules in force, in plies without a capture.
    limit_plies: u32,
    /// The network and the accumulators of the current line; `None` = hand-written evaluation.
    /// Chosen once per worker (a worker lives for one search), so the evaluation cache never
    /// holds scores of the other evaluation.
    network: Option<NetworkEval>,
    /// Tests: check the incremental network evaluation against a full refresh at every node
    /// (which also brings every accumulator up to date, so the lazy path goes untested).
    #[cfg(test)]
    verify_network: bool,
    /// Nodes at which that check ran.
    #[cfg(test)]
    network_checks: u64,
}

/// A worker's network evaluation: the network and one accumulator pair per ply of the line
/// being searched, pushed and popped with the worker's make/unmake.
struct NetworkEval {
    net: Arc<Network>,
    acc: AccumulatorStack,
}

/// What the pruning and reduction rules read of a node of the main search.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    /// The remaining depth, after the check extension and internal iterative reduction.
    depth: i32,
    /// A PV node (open window), and a node expected to fail high.
    pv: bool,
    cut: bool,
    in_check: bool,
    /// `-INFINITE` in check; corrected by the correction history where it is on.
    static_eval: i32,
    /// The evaluation as the table stores it: before the correction (0 in check).
    raw_eval: i32,
    /// Better than two plies ago, for the same side.
    improving: bool,
    /// The table's move is a capture.
    tt_capture: bool,
}

/// How a node's result `best` bounds its value, searched in the window (`orig_alpha`, `beta`):
/// exact only where a move raised alpha.
#[inline]
fn result_bound(best: i32, orig_alpha: i32, beta: i32, raised_by_a_move: bool) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if raised_by_a_move && best > orig_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The depth the quiescence search stores its results at: below every main-search depth, so
/// they give cutoffs only to quiescence searches.
const QS_DEPTH: i32 = -1;

/// What the singular-extension test decides for the table's move.
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// The node's score, without searching further.
    Cut(i32),
}

/// A move about to be searched, as the move picker handed it out.
struct Candidate {
    m: Move,
    kind: Kind,
    capture: bool,
    gives: bool,
}

impl Worker {
    /// A worker for one search, with the statistics `hist` its thread kept (empty ones on a
    /// new game); [`Worker::into_histories`] gives them back.
    pub fn new(
        pos: Position,
        banned: &[Move],
        id: usize,
        shared: Arc<Shared>,
        limits: Limits,
        hist: Histories,
    ) -> Worker {
        let root_moves = pos
            .legal_moves()
            .into_iter()
            .filter(|m| !banned.contains(m))
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                prev_score: -INFINITE,
                pv: vec![mv],
            })
            .collect();
        let weights =
            (limits.knowledge < Level::Large).then(|| eval::weights_for(limits.knowledge));
        let network = match (&limits.network, weights) {
            (Some(net), None) => {
                let mut acc = AccumulatorStack::new();
                acc.refresh(net, &pos);
                Some(NetworkEval {
                    net: net.clone(),
                    acc,
                })
            }
            _ => None,
        };
        Worker {
            pos,
            id,
            shared,
            nodes: 0,
            flushed: 0,
            table_stats: TableStats::default(),
            last_check_ms: 0,
            seldepth: 0,
            stopped: false,
            killers: [[None; 2]; MAX_PLY + 2],
            hist,
            moved: [None; MAX_PLY + 2],
            excluded: [None; MAX_PLY + 2],
            pv: vec![ArrayVec::new(); MAX_PLY + 2],
            evals: [0; MAX_PLY + 2],
            root_moves,
            root_depth: 0,
            pv_index: 0,
            eval_cache: vec![0; eval_cache_len(&limits)],
            sel: Selectivity::of(limits.pruning),
            p: limits.params,
            lmr: parameters::lmr_table(&limits.params),
            weights,
            limit_plies: repetition::natural_limit_plies(limits.rules),
            limits,
            network,
            #[cfg(test)]
            verify_network: false,
            #[cfg(test)]
            network_checks: 0,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The statistics, for the thread's next search.
    pub fn into_histories(self) -> Histories {
        self.hist
    }

    /// The statistics as the move picker at `ply` scores with them.
    #[inline]
    fn history_view(&self, ply: usize) -> HistoryView<'_> {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.moved[p]);
        HistoryView::new(&self.hist, [back(1), back(2)])
    }

    /// Notes `m` as the move made at `ply` (before it is made).
    #[inline]
    fn note_move(&mut self, m: Move, ply: usize) {
        self.moved[ply] = self
            .pos
            .piece_at(m.from())
            .map(|p| (p.index(), m.to().index()));
    }

    /// Runs iterative deepening until a limit or the stop flag; `on_info` gets one report per
    /// completed iteration (main thread only).
    pub fn run(&mut self, mut on_info: impl FnMut(&Info)) -> SearchResult {
        let n_root = self.root_moves.len();
        if n_root == 0 {
            return SearchResult {
                best: None,
                ponder: None,
                score: -MATE,
                depth: 0,
                root_moves: 0,
                table: TableStats::default(),
            };
        }
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best = self.root_moves[0].clone();
        let mut best_depth = 0;
        let mut last_score = 0;
        let mut stable = 0;
        let mut depth = 1 + (self.id % 2) as i32;
        // Helper threads search one line: they feed the table, the main thread ranks. A
        // limited strength ranks a few lines to choose from, whatever the user shows.
        let lines = if self.id == 0 {
            let choice = if self.limits.strength.is_some() {
                strength::LINES
            } else {
                1
            };
            self.limits.multipv.max(choice).clamp(1, n_root)
        } else {
            1
        };
        let shown = self.limits.multipv.clamp(1, lines);
        // The lines of the last completed iteration (a limited strength chooses among them).
        let mut ranked: Vec<(Move, i32)> = Vec::new();
        while depth <= max_depth {
            self.root_depth = depth;
            self.seldepth = 0;
            let mut score = 0;
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            // Lines of this iteration searched to the end: when the limit stops the first
            // iteration, the others are unscored or cut short and are neither shown nor chosen.
            let mut done = 0;
            // MultiPV: the best line, then the best of the rest, and so on (Stockfish's scheme).
            for pv_index in 0..lines {
                self.pv_index = pv_index;
                let prev = if pv_index == 0 {
                    last_score
                } else {
                    self.root_moves[pv_index].prev_score
                };
                let line_score = self.aspiration(depth, prev);
                if pv_index == 0 {
                    score = line_score;
                }
                if self.stopped {
                    break;
                }
                done = pv_index + 1;
                // Search instability can put a later line above an earlier one.
                self.root_moves[..=pv_index].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            self.pv_index = 0;
            if lines > 1 && !self.stopped {
                score = self.root_moves[0].score;
            }
            if self.stopped && depth > 1 {
                // An interrupted iteration still improves the result when its first move
                // (searched with a full window) has been scored.
                if self.root_moves[0].score > -INFINITE
                    && self.root_moves[0].mv != best.mv
                    && self.root_moves[0].score > best.score
                {
                    best = self.root_moves[0].clone();
                }
                break;
            }
            if self.root_moves[0].mv == best.mv {
                stable += 1;
            } else {
                stable = 0;
            }
            best = self.root_moves[0].clone();
            best_depth = depth;
            // Only a stopped first iteration gets here with `done < lines`; its first line is
            // still the move played.
            let complete = if self.stopped { done.max(1) } else { lines };
            if self.limits.strength.is_some() {
                ranked.clear();
                ranked.extend(
                    self.root_moves[..complete]
                        .iter()
                        .map(|rm| (rm.mv, rm.score)),
                );
            }
            let drop = last_score - score;
            last_score = score;
            if self.id == 0 {
                self.flush_nodes();
                if self.limits.multipv <= 1 {
                    on_info(&self.info(depth, score, &best.pv));
                } else {
                    for (rank, rm) in self.root_moves[..shown.min(complete)].iter().enumerate() {
                        let mut info = self.info(depth, rm.score, &rm.pv);
                        info.multipv = Some(rank + 1);
                        on_info(&info);
                    }
                }
                if self.soft_time_up(stable, drop, n_root) {
                    break;
                }
            }
            if is_mate(score) && depth > 10 && decisive_plies(score).is_some_and(|p| p < depth) {
                // A proven mate shorter than the depth: deeper iterations will not change it.
                if self.limits.depth.is_none() && !self.limits.infinite && !self.limits.fixed_time {
                    break;
                }
            }
            depth += 1;
        }
        self.flush_nodes();
        if let (Some(strength), 0) = (self.limits.strength, self.id) {
            if let Some(chosen) = self.choose_weaker(&strength, &ranked, lines) {
                best = chosen;
            }
        }
        let ponder = best
            .pv
            .get(1)
            .copied()
            .or_else(|| self.ponder_from_tt(best.mv));
        SearchResult {
            best: Some(best.mv),
            ponder,
            score: best.score,
            depth: best_depth,
            root_moves: n_root,
            // The threads' sum, filled in once they have all stopped.
            table: TableStats::default(),
        }
    }

    /// A limited strength's move: chosen among the lines of the last completed iteration,
    /// or among the lines scored so far when the budget ended the first one.
    fn choose_weaker(
        &self,
        strength: &Strength,
        ranked: &[(Move, i32)],
        lines: usize,
    ) -> Option<RootMove> {
        let partial: Vec<(Move, i32)>;
        let candidates = if ranked.is_empty() {
            partial = self.root_moves[..lines]
                .iter()
                .filter(|rm| rm.score > -INFINITE)
                .map(|rm| (rm.mv, rm.score))
                .collect();
            &partial
        } else {
            ranked
        };
        if candidates.len() < 2 {
            return None;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(self.limits.choice_seed);
        let mv = strength.choose(candidates, &mut rng)?;
        let score = candidates.iter().find(|&&(m, _)| m == mv)?.1;
        let rm = self.root_moves.iter().find(|rm| rm.mv == mv)?;
        Some(RootMove {
            score,
            ..rm.clone()
        })
    }

    fn ponder_from_tt(&mut self, best: Move) -> Option<Move> {
        self.pos.make_move(best);
        let m = self
            .shared
            .tt
            .probe(self.table_key(), 0)
            .and_then(|e| e.mv)
            .filter(|&m| self.pos.is_legal(m));
        self.pos.unmake_move();
        m
    }

    fn info(&self, depth: i32, score: i32, pv: &[Move]) -> Info {
        let time_ms = self.shared.elapsed_ms();
        let nodes = self.shared.nodes.load(Ordering::Relaxed);
        Info {
            depth,
            seldepth: self.seldepth as i32,
            score,
            bound: Bound::Exact,
            nodes,
            time_ms,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: self.shared.tt.hashfull(),
            multipv: None,
            pv: pv.to_vec(),
        }
    }

    /// Decide after an iteration whether starting another is worth it.
    fn soft_time_up(&self, stable: i32, drop: i32, n_root: usize) -> bool {
        if self.limits.infinite || self.shared.pondering.load(Ordering::Relaxed) {
            return false;
        }
        if n_root == 1
            && self.root_depth >= 1
            && !self.limits.score_only_move
            && !self.limits.fixed_time
        {
            return true; // only move: play it at once
        }
        let soft = self.shared.soft_ms.load(Ordering::Relaxed);
        if soft == u64::MAX {
            return false;
        }
        let hard = self.shared.hard_ms.load(Ordering::Relaxed);
        // A best move that just changed, or a falling score, earns more time (time::adjust).
        let changes = match stable {
            0 => 2,
            1 => 1,
            _ => 0,
        };
        let budget = TimeBudget {
            soft_ms: soft,
            hard_ms: hard,
        };
        self.shared.elapsed_ms() >= time::adjust(budget, changes, drop)
    }

    fn aspiration(&mut self, depth: i32, prev: i32) -> i32 {
        let mut delta = self.p.aspiration_delta;
        let (mut alpha, mut beta) = if depth >= 5 && !is_decisive(prev) {
            (prev - delta, prev + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.root_search(alpha, beta, depth);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    fn root_search(&mut self, mut alpha: i32, beta: i32, depth: i32) -> i32 {
        let orig_alpha = alpha;
        let mut best = -INFINITE;
        self.pv[0].clear();
        let in_check = self.pos.in_check();
        let first = self.pv_index;
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let gives = self.pos.gives_check_quick(m);
            self.note_move(m, 0);
            self.make_searched(m, gives);
            let new_depth = depth - 1;
            let mut score;
            if i == first {
                score = -self.search(-beta, -alpha, new_depth, 1, false);
            } else {
                let quiet = self
                    .pos
                    .history()
                    .last()
                    .is_some_and(|s| s.captured.is_none());
                let r = if depth >= 3 && quiet && !gives && !in_check {
                    (self.lmr[depth.min(63) as usize][(i - first).min(63)] - 1).max(0)
                } else {
                    0
                };
                score = -self.search(-alpha - 1, -alpha, new_depth - r, 1, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                return best.max(alpha);
            }
            if i == first || score > alpha {
                let mut pv = vec![m];
                pv.extend(self.pv[1].iter().copied());
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv = pv;
            } else {
                self.root_moves[i].score = -INFINITE;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    // Keep the best move first so that an interrupted iteration can use it.
                    let rm = self.root_moves.remove(i);
                    self.root_moves.insert(first, rm);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        // Only the first line is the root's value: later lines leave the best moves out.
        if !self.stopped && !is_rule(best) && first == 0 {
            let m = self.root_moves[0].mv;
            // Aspiration windows make the root score a bound when it falls outside them.
            let bound = result_bound(best, orig_alpha, beta, true);
            let e = if in_check { 0 } else { self.evaluate() };
            self.shared
                .tt
                .store(self.table_key(), 0, Some(m), best, e, depth, bound);
        }
        best
    }

    /// The static evaluation, through a small per-thread cache: quiescence nodes, which the
    /// table does not keep, meet the same positions again and again (captures in a different
    /// order), and the evaluation is the costliest step of a node. An entry packs the key's
    /// upper 48 bits with the 16-bit score (evaluations stay within ±`EVAL_LIMIT`); the index
    /// comes from the low bits, so a hit matches all 64.
    #[inline]
    fn evaluate(&mut self) -> i32 {
        let key = self.pos.key();
        if let Some(e) = self.cached_eval(key) {
            return e;
        }
        let e = match (&mut self.network, self.weights) {
            (Some(n), _) => n.acc.evaluate(&n.net, &self.pos),
            (None, None) => eval::evaluate(&self.pos),
            (None, Some(w)) => eval::evaluate_with(&self.pos, w),
        };
        let mask = self.eval_cache.len() - 1;
        self.eval_cache[key as usize & mask] = (key & !0xffff) | (e as i16 as u16 as u64);
        e
    }

    /// The static evaluation, from the table's entry for this position where it holds one.
    #[inline]
    fn static_eval(&mut self, tt: Option<TtEntry>) -> i32 {
        match tt {
            Some(e) if e.bound != Bound::None || e.eval != 0 => e.eval,
            _ => self.evaluate(),
        }
    }

    /// The cached evaluation of the position with this key, if its entry holds it.
    #[inline]
    fn cached_eval(&self, key: u64) -> Option<i32> {
        let entry = self.eval_cache[key as usize & (self.eval_cache.len() - 1)];
        (entry != 0 && (entry ^ key) >> 16 == 0).then_some(entry as u16 as i16 as i32)
    }

    /// A draw's score for the side to move at `ply`: 0, less the `style`'s contempt for the
    /// side that started the search (and plus it for the other side).
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        let c = self.limits.style.contempt();
        if ply.is_multiple_of(2) {
            -c
        } else {
            c
        }
    }

    /// The table's key for the current position (it carries the clock near the natural limit).
    #[inline]
    fn table_key(&self) -> u64 {
        tt::table_key(self.pos.key(), self.plies_to_limit())
    }

    /// Plies left before the natural limit of the rules in force (0 once it is reached).
    #[inline]
    fn plies_to_limit(&self) -> u32 {
        self.plies_left(self.pos.halfmove_clock())
    }

    /// Plies left before the natural limit with the halfmove clock at `clock`.
    #[inline]
    fn plies_left(&self, clock: u32) -> u32 {
        self.limit_plies.saturating_sub(clock)
    }

    /// May a stored score cut the search off here? Not in the last plies before the natural
    /// limit (2011 rules 4.2.4), where a stored line may cross the limit at another ply than
    /// this one, and not for a stored mate farther away than the limit, which only a capture on
    /// the way could make real (Pikafish's `value_from_tt` downgrades such mates likewise).
    #[inline]
    fn limit_allows_cutoff(&self, score: i32, ply: usize) -> bool {
        let left = self.plies_to_limit();
        if left <= tt::NO_CUTOFF_WITHIN {
            return false;
        }
        let left = left as i32;
        !is_mate(score) || decisive_plies(score).is_some_and(|p| p - ply as i32 <= left)
    }

    /// Makes `m` (and records it for the network's accumulators, which need the position
    /// before the move).
    #[inline]
    fn make(&mut self, m: Move, gives_check: bool) {
        if let Some(n) = &mut self.network {
            n.acc.push_move(&self.pos, m);
        }
        self.pos.make_move_with(m, gives_check);
    }

    /// Passes the move (null-move pruning).
    #[inline]
    fn make_null(&mut self) {
        if let Some(n) = &mut self.network {
            n.acc.push_null();
        }
        self.pos.make_null_move();
        self.shared.tt.prefetch(self.table_key());
    }

    /// [`make`](Self::make) for a move whose position the main search will probe the table
    /// for: its bucket is fetched into the cache while the move is made and the child starts.
    #[inline]
    fn make_searched(&mut self, m: Move, gives_check: bool) {
        let (key, clock) = self.pos.key_after(m);
        self.shared
            .tt
            .prefetch(tt::table_key(key, self.plies_left(clock)));
        self.make(m, gives_check);
    }

    /// Takes back the last [`make`](Self::make) or [`make_null`](Self::make_null).
    #[inline]
    fn unmake(&mut self) {
        if let Some(n) = &mut self.network {
            n.acc.pop();
        }
        self.pos.unmake_move();
    }

    /// Test hook, run at every node: the incremental network evaluation equals a full refresh.
    #[cfg(test)]
    fn check_network(&mut self) {
        if let Some(n) = self.network.as_mut().filter(|_| self.verify_network) {
            let incremental = n.acc.evaluate(&n.net, &self.pos);
            let fresh = n.net.evaluate(&self.pos);
            assert_eq!(incremental, fresh, "at {}", self.pos.to_fen());
            self.network_checks += 1;
        }
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        self.shared
            .table_stats
            .add(std::mem::take(&mut self.table_stats));
    }

    /// Counts a node and checks the limits now and then. A stopped search only unwinds: the
    /// calls it still makes search nothing and are not counted, so a node limit is never
    /// overshot.
    #[inline]
    fn tick(&mut self) {
        if self.stopped {
            return;
        }
        self.nodes += 1;
        #[cfg(test)]
        self.check_network();
        if let Some(limit) = self.limits.nodes {
            // Exact per-thread check keeps single-threaded node-limited runs deterministic. A
            // limited strength always finishes its first iteration: a player of any level
            // looks at a few candidate moves once, and its choice needs them all scored.
            if self.nodes >= limit && !(self.root_depth == 1 && self.limits.strength.is_some()) {
                self.stopped = true;
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        if self.nodes & 1023 == 0 {
            self.flush_nodes();
            if self.shared.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if self.id == 0 {
                let now = self.shared.elapsed_ms();
                let wait = now.saturating_sub(self.last_check_ms);
                self.last_check_ms = now;
                if !self.shared.pondering.load(Ordering::Relaxed) {
                    let stall = self
                        .shared
                        .stall_ms
                        .fetch_max(wait, Ordering::Relaxed)
                        .max(wait);
                    let hard = self.shared.hard_ms.load(Ordering::Relaxed);
                    if hard != u64::MAX && now.saturating_add(stall_margin(stall, hard)) >= hard {
                        self.stopped = true;
                        self.shared.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    }

    /// Pruning of a whole node before its moves (not at PV nodes nor in check): razoring
    /// when the static evaluation is far below alpha, reverse futility when it is far above
    /// beta, and the null move. `Some`: the node's score.
    #[inline(always)]
    fn prune_node(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let Node {
            depth,
            ply,
            cut,
            static_eval,
            improving,
            ..
        } = *node;
        // Razoring: so far below alpha at so shallow a depth that only captures (and the
        // checks the quiescence search follows) could help; where they do not, the node
        // fails low with their score. A null window: this is never a PV node.
        let alpha = beta - 1;
        if depth <= self.p.razor_depth
            && static_eval + self.p.razor_base + self.p.razor_margin * depth * depth < alpha
            && !is_decisive(alpha)
        {
            let score = self.qsearch(alpha, beta, ply);
            if self.stopped {
                return Some(0);
            }
            if score <= alpha {
                return Some(score);
            }
        }
        // Reverse futility pruning.
        if depth <= self.p.rfp_depth
            && static_eval - self.p.rfp_margin * depth
                + if improving { self.p.rfp_improving } else { 0 }
                >= beta
            && !is_decisive(beta)
        {
            return Some(static_eval);
        }
        // Null move: skipped in check, after a null move, and without attacking pieces
        // (where zugzwang is real: pawn and defender endings). Kept on games at the
        // measured setting: switched off, it scored 47.5% (-17 +- 21 Elo, 600 games at
        // 200 ms per move), though at 40,000 nodes per move it did not show a gain.
        let us = self.pos.side_to_move();
        let attackers = self.pos.pieces(us, PieceKind::Rook).count()
            + self.pos.pieces(us, PieceKind::Horse).count()
            + self.pos.pieces(us, PieceKind::Cannon).count();
        let last_null = self.pos.history().last().is_some_and(|s| s.mv.is_none());
        if depth >= self.p.null_min_depth
            && static_eval >= beta
            && attackers > 0
            && !last_null
            && !is_decisive(beta)
        {
            // 3 + depth/3: at 150,000 nodes a move it beat 3 + depth/6 by +37 +- 21 Elo (553
            // games, docs/strength.md), though at 1 s + 0.01 s a still deeper 4 + depth/3
            // lost; the longer the search, the more a deeper null move pays.
            let mut r = self.p.null_base + depth / self.p.null_divisor;
            if self.p.null_eval_divisor > 0 {
                r += ((static_eval - beta) / self.p.null_eval_divisor).min(3);
            }
            self.moved[ply] = None;
            self.make_null();
            let score = -self.search(-beta, -beta + 1, depth - r, ply + 1, !cut);
            self.unmake();
            if self.stopped {
                return Some(0);
            }
            if score >= beta {
                return Some(if is_decisive(score) { beta } else { score });
            }
        }
        None
    }

    /// ProbCut: where a good capture's search `depth - 4` plies deep beats beta by a margin,
    /// the full-depth search would very likely beat beta too. Captures that win at least the
    /// margin over the static evaluation by static exchange are tried, each first by the
    /// quiescence search (cheap) and only then by the reduced search. The table rules it out
    /// where it holds a deep enough score below the raised beta. `Some`: the node's score,
    /// stored as a lower bound at `depth - 3`.
    fn probcut(&mut self, node: &Node, tt: Option<TtEntry>, key: u64, beta: i32) -> Option<i32> {
        let margin = self.p.probcut_margin;
        if margin == 0 || node.depth < self.p.probcut_depth || is_decisive(beta) {
            return None;
        }
        let raised = beta + margin;
        if tt.is_some_and(|e| e.depth >= node.depth - 3 && e.score < raised) {
            return None;
        }
        let ply = node.ply;
        let mut picker = MovePicker::quiescence(&self.pos, tt.and_then(|e| e.mv), false);
        while let Some((m, _)) = picker.next(&self.pos, &self.history_view(ply)) {
            if !self.pos.see_ge(m, raised - node.static_eval) {
                continue;
            }
            let gives = self.pos.gives_check_quick(m);
            self.note_move(m, ply);
            self.make_searched(m, gives);
            let mut score = -self.qsearch(-raised, -raised + 1, ply + 1);
            if score >= raised {
                score = -self.search(-raised, -raised + 1, node.depth - 4, ply + 1, !node.cut);
            }
            self.unmake();
            if self.stopped {
                return Some(0);
            }
            // A repetition ruling depends on the path: it neither ends the node nor is stored.
            if score >= raised && !is_rule(score) {
                self.shared.tt.store(
                    key,
                    ply,
                    Some(m),
                    score,
                    node.raw_eval,
                    node.depth - 3,
                    Bound::Lower,
                );
                return Some(score);
            }
        }
        None
    }

    /// Moves not searched at all, at shallow depth (never at PV nodes, in check, or the
    /// first move): late quiet moves by count, quiet moves futility says cannot raise alpha,
    /// and captures that lose material by static exchange.
    #[inline(always)]
    fn prune_move(&self, node: &Node, c: &Candidate, count: usize, best: i32, alpha: i32) -> bool {
        if node.pv || node.in_check || count == 0 || !self.sel.prune_moves {
            return false;
        }
        let depth = node.depth;
        if !c.capture && !c.gives && best > -DECISIVE_BOUND {
            if depth <= self.p.lmp_depth {
                let mut keep = self.p.lmp_base + depth * depth;
                if !node.improving {
                    keep = keep * self.p.lmp_not_improving / 100;
                }
                if count as i32 >= keep {
                    return true;
                }
            }
            if depth <= self.p.futility_depth
                && node.static_eval + self.p.futility_base + self.p.futility_margin * depth <= alpha
            {
                return true;
            }
        }
        c.capture
            && depth <= self.p.see_capture_depth
            && c.kind == Kind::BadCapture
            && !self.pos.see_ge(c.m, -self.p.see_capture_margin * depth)
    }

    /// The late-move reduction of the `count`-th move (already made), whose statistics
    /// were `stat`: quiet moves, quiet checks and captures that lose material are reduced,
    /// checks and captures a ply less than quiet moves; never below the horizon.
    #[inline(always)]
    fn reduction(&self, node: &Node, c: &Candidate, count: usize, stat: i32) -> i32 {
        let depth = node.depth;
        let reducible = !c.capture || c.kind == Kind::BadCapture;
        if depth < 3 || !reducible || node.in_check || !self.sel.reduce {
            return 0;
        }
        let mut r = self.lmr[depth.min(63) as usize][count.min(63)] - self.sel.reduction_relief;
        if c.gives || c.capture {
            r -= 1;
        }
        if !node.pv {
            r += 1;
        }
        if !node.improving {
            r += 1;
        }
        if c.kind == Kind::Refutation {
            r -= 1; // killers and counter-moves
        }
        if node.cut {
            r += self.p.lmr_cut;
        }
        if node.tt_capture && !c.capture {
            r += self.p.lmr_tt_capture;
        }
        // Moves the statistics favour are reduced less, and the reverse.
        r -= (stat / self.p.lmr_history_divisor).clamp(-2, 2);
        r.clamp(0, depth - 2)
    }

    /// Does a stored entry decide this node without a search? Deep enough, its bound on the
    /// right side of the window, never a rule score (a repetition ruling depends on the path),
    /// nor near the natural limit.
    #[inline(always)]
    fn table_cutoff(&self, e: &TtEntry, alpha: i32, beta: i32, depth: i32, ply: usize) -> bool {
        e.depth >= depth
            && !is_rule(e.score)
            && self.limit_allows_cutoff(e.score, ply)
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
                Bound::None => false,
            }
    }

    /// Singular extensions: is the table's move `m` the only good one here? Every other move
    /// is searched at half depth with a null window just below the stored score; if all fall
    /// short, `m` is searched a ply deeper (two where they fall far short outside PV nodes,
    /// within the first root-depth plies). If they reach a margin at or above beta, several
    /// moves refute the opponent and the node returns that margin (multi-cut); if only the
    /// stored score reaches beta, `m` is searched a ply shallower. Decisive scores (mates,
    /// rule verdicts) never serve as the reference.
    fn singular(&mut self, node: &Node, e: &TtEntry, m: Move, beta: i32) -> Singular {
        let Node {
            depth,
            ply,
            pv,
            cut,
            ..
        } = *node;
        if self.p.singular_depth == 0
            || depth < self.p.singular_depth
            || e.depth < depth - 3
            || !matches!(e.bound, Bound::Lower | Bound::Exact)
            || is_decisive(e.score)
            || ply >= 2 * self.root_depth as usize
        {
            return Singular::Extend(0);
        }
        let singular_beta = e.score - self.p.singular_margin * depth;
        self.excluded[ply] = Some(m);
        let v = self.search(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut);
        self.excluded[ply] = None;
        if self.stopped {
            return Singular::Cut(0);
        }
        if v < singular_beta {
            let double =
                !pv && v < singular_beta - self.p.singular_double && ply < self.root_depth as usize;
            Singular::Extend(if double { 2 } else { 1 })
        } else if singular_beta >= beta {
            Singular::Cut(singular_beta)
        } else if e.score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// The principal variation at `ply` becomes `m` followed by the child's.
    #[inline(always)]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        for &x in tail[0].iter().take(MAX_PLY - 1) {
            line.push(x);
        }
    }

    fn search(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        let in_check = self.pos.last_move_gave_check();
        if in_check && depth >= self.p.check_ext_depth && ply < 2 * self.root_depth as usize + 8 {
            depth += 1; // check extension: evasions are forced
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply);
        }
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Repetitions and the natural limit (2011 rules 23-26, 4.2.4).
        if let Some(v) = repetition::score_with(&self.pos, ply, self.limits.rules) {
            return if v == 0 { self.draw_score(ply) } else { v };
        }
        if self.plies_to_limit() == 0 {
            return if self.pos.has_legal_move() {
                self.draw_score(ply)
            } else {
                mated_in(ply)
            };
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        // Mate distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // A singular-extension search of this node leaves one move out: it takes no cutoff
        // from the table, prunes nothing before the moves and stores nothing.
        let excluded = self.excluded[ply];
        let key = self.table_key();
        let tt = self.shared.tt.probe(key, ply);
        self.table_stats.probes += 1;
        self.table_stats.hits += u64::from(tt.is_some());
        let tt_move = tt
            .and_then(|e| e.mv)
            .filter(|&m| self.pos.is_legal_in(m, in_check));
        if let Some(e) = tt.filter(|_| excluded.is_none()) {
            if !pv_node && self.table_cutoff(&e, alpha, beta, depth, ply) {
                self.table_stats.cutoffs += 1;
                return e.score;
            }
        }

        let raw_eval = if in_check { 0 } else { self.static_eval(tt) };
        let static_eval = if in_check {
            -INFINITE
        } else {
            self.corrected(raw_eval)
        };
        self.evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];

        let mut node = Node {
            ply,
            depth,
            pv: pv_node,
            cut,
            in_check,
            static_eval,
            raw_eval,
            improving,
            tt_capture: tt_move.is_some_and(|m| self.pos.piece_at(m.to()).is_some()),
        };
        if !pv_node && !in_check && excluded.is_none() && self.sel.prune_nodes {
            if let Some(score) = self.prune_node(&node, beta) {
                return score;
            }
            if let Some(score) = self.probcut(&node, tt, key, beta) {
                return score;
            }
        }
        // Internal iterative reduction: without a table move this node is probably not critical.
        if tt_move.is_none()
            && depth >= self.p.iir_depth
            && (pv_node || cut)
            && excluded.is_none()
            && self.sel.prune_nodes
        {
            depth -= 1;
            node.depth = depth;
        }

        let counter = self.counter_move(ply);
        let mut picker = MovePicker::new(tt_move, self.killers[ply], counter, in_check);
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let orig_alpha = alpha;
        let mut count = 0usize;
        while let Some((m, kind)) = picker.next(&self.pos, &self.history_view(ply)) {
            if Some(m) == excluded {
                continue;
            }
            let capture = self.pos.piece_at(m.to()).is_some();
            let gives = self.pos.gives_check_quick(m);
            let quiet = !capture;
            let candidate = Candidate {
                m,
                kind,
                capture,
                gives,
            };
            if self.prune_move(&node, &candidate, count, best, alpha) {
                continue;
            }
            let extension = match tt.filter(|_| Some(m) == tt_move && excluded.is_none()) {
                Some(e) => match self.singular(&node, &e, m, beta) {
                    Singular::Extend(x) => x,
                    Singular::Cut(v) => return v,
                },
                None => 0,
            };
            // The quiet move's statistics, for its reduction (read before the move is made).
            let stat = if quiet {
                self.history_view(ply).quiet(&self.pos, m)
            } else {
                0
            };
            self.note_move(m, ply);
            self.make_searched(m, gives);
            count += 1;
            let new_depth = depth - 1 + extension;
            let mut score;
            if count == 1 {
                score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            } else {
                let r = self.reduction(&node, &candidate, count, stat);
                score = -self.search(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
                if score > alpha && r > 0 {
                    score = -self.search(-alpha - 1, -alpha, new_depth, ply + 1, !cut);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.search(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        self.update_statistics(m, ply, depth, &quiets_tried, &captures_tried);
                        break;
                    }
                }
            }
            if quiet {
                let _ = quiets_tried.try_push(m);
            } else {
                let _ = captures_tried.try_push(m);
            }
        }
        if count == 0 {
            // No legal move (the first move is never pruned): checkmate and stalemate both
            // lose (2011 rules 4.1). Without the excluded move, only that move was legal.
            return if excluded.is_some() {
                alpha
            } else {
                mated_in(ply)
            };
        }
        if excluded.is_some() {
            return best;
        }
        if !is_rule(best) {
            let bound = result_bound(best, orig_alpha, beta, best_move.is_some());
            self.learn_correction(best, best_move, bound, &node);
            self.shared
                .tt
                .store(key, ply, best_move, best, raw_eval, depth, bound);
        }
        best
    }

    /// Whether the correction history is on (either weight not 0).
    #[inline]
    fn corrections_on(&self) -> bool {
        self.p.corr_pawn != 0 || self.p.corr_material != 0
    }

    /// The static evaluation `raw` corrected by what this game's searches learned about its
    /// error here (unchanged where the correction history is off).
    #[inline]
    fn corrected(&self, raw: i32) -> i32 {
        if !self.corrections_on() {
            return raw;
        }
        let c = self
            .hist
            .correction
            .correction(&self.pos, self.p.corr_pawn, self.p.corr_material);
        correction::corrected(raw, c)
    }

    /// Learns the evaluation's error from a node's result, where the result says something
    /// about it: not in check (no evaluation), not from a mate (no evaluation's business), not
    /// after a capture (its score is the capture's), not from a fail high below the evaluation
    /// or a fail low above it (bounds on the wrong side).
    #[inline]
    fn learn_correction(&mut self, best: i32, best_move: Option<Move>, bound: Bound, node: &Node) {
        if !self.corrections_on()
            || node.in_check
            || is_decisive(best)
            || best_move.is_some_and(|m| self.pos.piece_at(m.to()).is_some())
            || (bound == Bound::Lower && best <= node.static_eval)
            || (bound == Bound::Upper && best >= node.static_eval)
        {
            return;
        }
        self.hist
            .correction
            .update(&self.pos, node.depth, best, node.static_eval);
    }

    /// Learns from a cutoff by `m`: the move is rewarded in its statistics, and the moves
    /// tried before it in vain are penalised in theirs (captures too when a quiet move cut
    /// off, since they were tried first).
    fn update_statistics(
        &mut self,
        m: Move,
        ply: usize,
        depth: i32,
        quiets: &[Move],
        captures: &[Move],
    ) {
        let bonus = self.p.history_bonus(depth);
        if self.pos.piece_at(m.to()).is_none() {
            if self.killers[ply][0] != Some(m) {
                self.killers[ply][1] = self.killers[ply][0];
                self.killers[ply][0] = Some(m);
            }
            self.update_quiet(m, ply, bonus);
            for &q in quiets {
                self.update_quiet(q, ply, -bonus);
            }
            if let Some((piece, to)) = ply.checked_sub(1).and_then(|p| self.moved[p]) {
                self.hist.set_counter(piece, to, m);
            }
        } else {
            self.update_capture(m, bonus);
        }
        for &c in captures {
            self.update_capture(c, -bonus);
        }
    }

    /// Moves the quiet move `m`'s three statistics at `ply` toward `bonus`.
    fn update_quiet(&mut self, m: Move, ply: usize, bonus: i32) {
        let Some(p) = self.pos.piece_at(m.from()) else {
            return;
        };
        let (p, to) = (p.index(), m.to().index());
        history::update(&mut self.hist.quiet[p][to], bonus);
        for back in 1..=2 {
            if let Some((pp, pto)) = ply.checked_sub(back).and_then(|x| self.moved[x]) {
                history::update(&mut self.hist.continuation[pp][pto][p][to], bonus);
            }
        }
    }

    /// Moves the capture `m`'s statistic toward `bonus`.
    fn update_capture(&mut self, m: Move, bonus: i32) {
        if let (Some(a), Some(v)) = (self.pos.piece_at(m.from()), self.pos.piece_at(m.to())) {
            let h = &mut self.hist.capture[a.index()][m.to().index()][v.kind().index()];
            history::update(h, bonus);
        }
    }

    /// The counter-move recorded against the opponent's last move, if any.
    fn counter_move(&self, ply: usize) -> Option<Move> {
        let (piece, to) = ply.checked_sub(1).and_then(|p| self.moved[p])?;
        self.hist.counter(piece, to)
    }

    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = self.pos.last_move_gave_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate() };
        }
        // The table: the quiescence search has no repetition verdicts, so what it stores
        // depends on the position alone (mate distances are made node-relative).
        let key = (self.p.qs_table != 0).then(|| self.table_key());
        let tt = key.and_then(|k| self.shared.tt.probe(k, ply));
        if let Some(e) = tt {
            if beta - alpha == 1 && self.table_cutoff(&e, alpha, beta, QS_DEPTH, ply) {
                return e.score;
            }
        }
        let orig_alpha = alpha;
        let mut best;
        let stand;
        let mut raw = 0;
        if in_check {
            best = -INFINITE;
            stand = -INFINITE;
        } else {
            raw = self.static_eval(tt);
            stand = self.corrected(raw);
            if stand >= beta {
                if let Some(key) = key.filter(|_| tt.is_none()) {
                    self.shared
                        .tt
                        .store(key, ply, None, stand, raw, QS_DEPTH, Bound::Lower);
                }
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut picker = MovePicker::quiescence(&self.pos, tt.and_then(|e| e.mv), in_check);
        let mut any = false;
        let mut best_move = None;
        while let Some((m, _)) = picker.next(&self.pos, &self.history_view(ply)) {
            any = true;
            if !in_check {
                let victim = self
                    .pos
                    .piece_at(m.to())
                    .map_or(0, |p| eval::piece_value(p.kind()));
                // Delta pruning: even winning the piece cannot reach alpha. The fail-soft
                // bound is raised to what the move might have reached, so that an upper
                // bound kept in the table does not undercut a move this window skipped.
                let reach = stand + victim + self.p.qs_delta;
                if reach <= alpha {
                    best = best.max(reach);
                    continue;
                }
                if !self.pos.see_ge(m, 0) {
                    continue;
                }
            }
            let gives = self.pos.gives_check_quick(m);
            self.make(m, gives);
            let score = -self.qsearch(-beta, -alpha, ply + 1);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && !any {
            return mated_in(ply);
        }
        // A deeper result for this position is worth more than this one: kept.
        if let Some(key) = key.filter(|_| tt.is_none_or(|e| e.depth <= QS_DEPTH)) {
            let bound = result_bound(best, orig_alpha, beta, best_move.is_some());
            self.shared
                .tt
                .store(key, ply, best_move, best, raw, QS_DEPTH, bound);
        }
        best
    }
}

/// A one-thread worker on a 1 MB table of its own, for tests that drive it directly.
#[cfg(test)]
fn test_worker(pos: Position, limits: &Limits) -> Worker {
    let tt = Arc::new(TranspositionTable::new(1));
    let shared = Arc::new(Shared::new(tt, limits, false));
    Worker::new(pos, &[], 0, shared, limits.clone(), Histories::new())
}

#[cfg(test)]
mod eval_cache_tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn cached_evaluations_equal_fresh_ones() {
        let mut w = test_worker(Position::startpos(), &Limits::default());
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut hits = 0;
        // Walk random games and come back along them, so that every position is met twice.
        for _ in 0..20 {
            let mut n = 0;
            for _ in 0..80 {
                let moves = w.pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                assert_eq!(w.evaluate(), eval::evaluate(&w.pos));
                w.pos.make_move(moves[rng.random_range(0..moves.len())]);
                n += 1;
            }
            for _ in 0..n {
                w.pos.unmake_move();
                hits += usize::from(w.cached_eval(w.pos.key()).is_some());
                assert_eq!(w.evaluate(), eval::evaluate(&w.pos));
            }
        }
        assert!(hits > 1000, "only {hits} cache hits");
    }

    /// A search limited by nodes clears a small cache, and searches the same tree as with
    /// the full one.
    #[test]
    fn a_node_limited_search_has_a_small_cache_and_the_same_tree() {
        let with = |nodes| Limits {
            nodes,
            ..Limits::default()
        };
        assert_eq!(eval_cache_len(&with(None)), EVAL_CACHE);
        assert_eq!(eval_cache_len(&with(Some(10))), 1 << 12);
        assert_eq!(eval_cache_len(&with(Some(3000))), 1 << 13);
        assert_eq!(eval_cache_len(&with(Some(u64::MAX))), EVAL_CACHE);
        for fen in &crate::search::BENCH_POSITIONS[..4] {
            let pos = Position::from_fen(fen).unwrap();
            let limits = with(Some(3000));
            let mut small = test_worker(pos.clone(), &limits);
            let mut full = test_worker(pos, &limits);
            full.eval_cache = vec![0; EVAL_CACHE];
            let (a, b) = (small.run(|_| {}), full.run(|_| {}));
            assert_eq!(small.eval_cache.len(), 1 << 13);
            assert_eq!(
                (a.best, a.score, small.nodes()),
                (b.best, b.score, full.nodes()),
                "{fen}"
            );
        }
    }
}

#[cfg(test)]
mod network_tests {
    use super::*;
    use crate::search::nnue::FloatNetwork;
    use crate::search::BENCH_POSITIONS;

    /// A node-limited one-thread search of `fen`, checking the network at every node if
    /// `verify`; returns the outcome and the worker.
    fn search(fen: &str, limits: &Limits, verify: bool) -> (SearchResult, Worker) {
        let mut w = test_worker(Position::from_fen(fen).unwrap(), limits);
        w.verify_network = verify;
        let outcome = w.run(|_| {});
        (outcome, w)
    }

    #[test]
    fn network_search_is_incremental_exact_and_deterministic() {
        network_search_check(FloatNetwork::random(7));
    }

    #[test]
    fn king_bucket_network_search_is_incremental_exact_and_deterministic() {
        use crate::search::nnue::{Architecture, FeatureSet};
        let arch = Architecture::new(FeatureSet::KingBuckets, 64).unwrap();
        network_search_check(FloatNetwork::random_for(arch, 7));
    }

    fn network_search_check(float: FloatNetwork) {
        let net = Arc::new(float.quantize());
        let with_net = Limits {
            nodes: Some(4000),
            network: Some(net),
            ..Limits::default()
        };
        let hand = Limits {
            network: None,
            ..with_net.clone()
        };
        let mut differs = 0;
        for fen in BENCH_POSITIONS.iter().take(8) {
            let (a, wa) = search(fen, &with_net, true);
            // Every node (search and quiescence, after moves and null moves) was checked.
            assert_eq!(wa.network_checks, wa.nodes(), "{fen}");
            assert!(wa.nodes() >= 4000, "{fen}: {} nodes", wa.nodes());
            // Unchecked, the accumulators are brought up to date lazily (several plies at a
            // time, or not at all at nodes that do not evaluate): the same search.
            let (b, wb) = search(fen, &with_net, false);
            assert_eq!(wb.network_checks, 0);
            assert_eq!(
                (a.best, a.score, a.depth, wa.nodes()),
                (b.best, b.score, b.depth, wb.nodes()),
                "{fen}"
            );
            let (h, wh) = search(fen, &hand, true);
            assert_eq!(wh.network_checks, 0);
            differs += usize::from(h.score != a.score || h.best != a.best);
        }
        // The random network, not the hand-written evaluation, scored those searches.
        assert!(differs >= 6, "only {differs} of 8 searches differ");
    }

    #[test]
    fn reduced_knowledge_keeps_the_hand_written_evaluation() {
        let limits = Limits {
            nodes: Some(2000),
            knowledge: Level::Small,
            network: Some(Arc::new(FloatNetwork::random(3).quantize())),
            ..Limits::default()
        };
        let without = Limits {
            network: None,
            ..limits.clone()
        };
        let (a, wa) = search(BENCH_POSITIONS[1], &limits, true);
        let (b, wb) = search(BENCH_POSITIONS[1], &without, true);
        assert_eq!(wa.network_checks, 0);
        assert_eq!((a.best, a.score, wa.nodes()), (b.best, b.score, wb.nodes()));
    }

    /// The parameters reach the search: the defaults give the tree the engine always had,
    /// and a changed reduction divisor another tree (the search is deterministic at a depth).
    #[test]
    fn search_parameters_shape_the_tree() {
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let mut tuned = limits.clone();
        tuned.params.set("lmr_divisor", 150).unwrap();
        let (_, w0) = search(BENCH_POSITIONS[1], &limits, false);
        let (_, w1) = search(BENCH_POSITIONS[1], &limits, false);
        let (_, w2) = search(BENCH_POSITIONS[1], &tuned, false);
        assert_eq!(w0.nodes(), w1.nodes());
        // Another tree, not necessarily a smaller one: at so shallow a depth, deeper
        // reductions also change which moves later pruning keeps.
        assert_ne!(w2.nodes(), w0.nodes());
        // The optional rules, each on its own, change the tree.
        for (name, value) in [
            ("singular_depth", 4),
            ("check_ext_depth", 6),
            ("qs_table", 1),
            ("lmr_cut", 2),
            ("lmr_tt_capture", 1),
            ("razor_depth", 3),
        ] {
            let mut l = limits.clone();
            l.params.set(name, value).unwrap();
            let (r, w) = search(BENCH_POSITIONS[1], &l, false);
            assert!(r.best.is_some(), "{name}");
            assert_ne!(w.nodes(), w0.nodes(), "{name}");
        }
    }
}

#[cfg(test)]
mod worker_tests {
    use super::*;
    use crate::search::BENCH_POSITIONS;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A fail-soft result is a bound the table keeps and reuses under other windows: a
    /// quiescence value v that failed low must fail low again for every alpha at or above v,
    /// or a stored upper bound would cut off a line that a search would have played. (A
    /// fail-high has no such guarantee: a higher alpha lets delta pruning skip the capture
    /// that won, which is the pruning's risk, not a wrong bound.)
    #[test]
    fn quiescence_fail_low_bounds_hold_under_higher_windows() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut checked = 0;
        for fen in BENCH_POSITIONS {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..40 {
                let Some(m) = crate::board::arbitrary::pick(&pos, rng.random()) else {
                    break;
                };
                pos.make_move(m);
                for _ in 0..4 {
                    let lo = rng.random_range(-400..400);
                    let hi = lo
                        + if rng.random_bool(0.5) {
                            1
                        } else {
                            rng.random_range(2..300)
                        };
                    let v = test_worker(pos.clone(), &Limits::default()).qsearch(lo, hi, 1);
                    if v <= lo {
                        let lo2 = v + rng.random_range(0..=(lo - v).min(400));
                        let hi2 = lo2 + rng.random_range(1..300);
                        let w = test_worker(pos.clone(), &Limits::default()).qsearch(lo2, hi2, 1);
                        assert!(
                            w <= lo2,
                            "{} {lo}..{hi} gave {v}, {lo2}.. gave {w}",
                            pos.to_fen()
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 500, "{checked}");
    }
}

#[cfg(test)]
mod stall_tests {
    use super::*;

    #[test]
    fn only_waits_longer_than_the_checks_spacing_keep_time_back() {
        assert_eq!(stall_margin(0, 192), 0);
        assert_eq!(
            stall_margin(STALL_FLOOR_MS, 192),
            0,
            "an idle machine spends it all"
        );
        assert_eq!(stall_margin(40, 192), 40);
        assert_eq!(stall_margin(150, 192), 96, "at most half of the hard limit");
        assert_eq!(stall_margin(u64::MAX, u64::MAX - 1), u64::MAX / 2);
    }
}

#[cfg(test)]
mod correction_tests {
    use super::*;

    /// Off (the default), the correction history is neither read nor written; on, a search
    /// fills it, finds a legal move and searches another tree.
    #[test]
    fn the_correction_history_learns_only_when_on() {
        let fen = crate::search::BENCH_POSITIONS[1];
        let pos = Position::from_fen(fen).unwrap();
        let limits = |weight| {
            let mut params = Parameters::DEFAULT;
            params.corr_pawn = weight;
            params.corr_material = weight;
            Limits {
                depth: Some(9),
                params,
                ..Limits::default()
            }
        };
        let learned = |w: &Worker| {
            let mut q = w.pos.clone();
            let moves = q.legal_moves();
            let mut any = w.hist.correction.correction(&q, 100, 100) != 0;
            for m in moves {
                q.make_move(m);
                any |= w.hist.correction.correction(&q, 100, 100) != 0;
                q.unmake_move();
            }
            any
        };
        let mut off = test_worker(pos.clone(), &limits(0));
        let a = off.run(|_| {});
        assert!(!learned(&off));
        let mut on = test_worker(pos.clone(), &limits(100));
        let b = on.run(|_| {});
        assert!(learned(&on));
        assert!(pos.legal_moves().contains(&b.best.unwrap()));
        assert_ne!(off.nodes(), on.nodes(), "{a:?} {b:?}");
    }
}
