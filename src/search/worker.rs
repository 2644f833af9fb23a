//! The search thread: a [`Worker`] and the state it keeps over one search (the position, the
//! root's moves as ranked so far, counters, killers, statistics, the line being searched), with
//! what every part of the search uses: node counting and the limits' checks, make and unmake
//! (with the network's accumulators), the static evaluation through a small cache, and the
//! table's key.
//!
//! One [`Worker`] runs per thread; they share the table and the stop flag (lazy SMP). With
//! one thread and a node limit the search is deterministic.

use super::history::{Histories, HistoryView};
use super::levels::Selectivity;
use super::limits::{Config, Limits, MAX_PLY};
use super::parameters::{self, Parameters};
use super::repetition;
use super::score::*;
use super::shared::{stall_margin, Shared};
#[cfg(test)]
use super::tt::TranspositionTable;
use super::tt::{self, Bound, TableStats, TtEntry};
use crate::board::{Move, Position};
use crate::eval;
use crate::eval::nnue::{AccumulatorStack, Network};
use crate::eval::Level;
use crate::tablebase::Value;
use arrayvec::ArrayVec;
use std::sync::atomic::Ordering;
use std::sync::Arc;

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

/// A move of the root with what the current search found of it.
#[derive(Clone)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    /// The score of the previous iteration: the centre of this line's aspiration window when
    /// several lines are searched (the current iteration overwrites `score`).
    pub(super) prev_score: i32,
    pub(super) pv: Vec<Move>,
}

/// A search thread.
pub struct Worker {
    pub pos: Position,
    pub(super) id: usize,
    pub(super) shared: Arc<Shared>,
    pub(super) limits: Limits,
    /// The configuration the search plays by (the one in [`Shared`]).
    pub(super) config: Arc<Config>,
    nodes: u64,
    flushed: u64,
    /// Table use not yet added to the shared sum.
    pub(super) table_stats: TableStats,
    /// When the main thread last looked at the clock (ms from the start).
    last_check_ms: u64,
    pub(super) seldepth: usize,
    pub(super) stopped: bool,
    pub(super) killers: [[Option<Move>; 2]; MAX_PLY + 2],
    /// The thread's move-ordering statistics, kept across the searches of a game.
    pub(super) hist: Histories,
    /// The move made at each ply of the current line, by piece index and square index
    /// (`None` for a null move): the keys of the continuation history.
    pub(super) moved: [Option<(usize, usize)>; MAX_PLY + 2],
    /// The move a singular-extension search leaves out at each ply.
    pub(super) excluded: [Option<Move>; MAX_PLY + 2],
    pub(super) pv: Vec<ArrayVec<Move, MAX_PLY>>,
    pub(super) evals: [i32; MAX_PLY + 2],
    pub(super) root_moves: Vec<RootMove>,
    pub(super) root_depth: i32,
    /// The line being searched in a multi-line search: root moves before it are the better
    /// lines already found this iteration, and are left out.
    pub(super) pv_index: usize,
    /// Static evaluations by position key (see [`Worker::evaluate`]).
    eval_cache: Vec<u64>,
    /// The pruning tools the `pruning` level allows.
    pub(super) sel: Selectivity,
    /// The search's parameters (a copy of the configuration's, read at every node) and the
    /// late-move reductions they give.
    pub(super) p: Parameters,
    pub(super) lmr: Arc<parameters::LmrTable>,
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
        let config = shared.config.clone();
        let weights =
            (config.knowledge < Level::Large).then(|| eval::weights_for(config.knowledge));
        let network = match (&config.network, weights) {
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
            sel: Selectivity::of(config.pruning),
            p: config.params,
            lmr: parameters::lmr_table(&config.params),
            weights,
            limit_plies: repetition::natural_limit_plies(config.rules),
            limits,
            config,
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
    pub(super) fn history_view(&self, ply: usize) -> HistoryView<'_> {
        let back = |n: usize| ply.checked_sub(n).and_then(|p| self.moved[p]);
        HistoryView::new(&self.hist, [back(1), back(2)])
    }

    /// Notes `m` as the move made at `ply` (before it is made).
    #[inline]
    pub(super) fn note_move(&mut self, m: Move, ply: usize) {
        self.moved[ply] = self
            .pos
            .piece_at(m.from())
            .map(|p| (p.index(), m.to().index()));
    }

    /// The static evaluation, through a small per-thread cache: quiescence nodes, which the
    /// table does not keep, meet the same positions again and again (captures in a different
    /// order), and the evaluation is the costliest step of a node. An entry packs the key's
    /// upper 48 bits with the 16-bit score (evaluations stay within ±`EVAL_LIMIT`); the index
    /// comes from the low bits, so a hit matches all 64.
    #[inline]
    pub(super) fn evaluate(&mut self) -> i32 {
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
    pub(super) fn static_eval(&mut self, tt: Option<TtEntry>) -> i32 {
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

    /// The score of the position from the endgame tables, if they hold it: a table's mate in
    /// `n` plies is a mate `ply + n` plies from the root (a result by the repetition rules a
    /// rule verdict there, under the 2011 rules only: [`Value::holds_under`]) when its
    /// conversion distance fits in the plies left before the natural limit: the winner then
    /// reaches a capture or the mate first, and the clock starts again. Otherwise the loser
    /// holds out until the limit: a draw. `None` without tables,
    /// with more pieces than any table holds, or for a material no table has.
    pub(super) fn probe_tables(&mut self, ply: usize) -> Option<i32> {
        let tables = self.shared.tablebases.as_ref()?;
        if self.pos.occupied().count() > tables.max_pieces() {
            return None;
        }
        let (value, dtc) = tables
            .probe_dtc(&self.pos)
            .filter(|(v, _)| v.holds_under(self.config.rules))?;
        self.shared.tb_hits.fetch_add(1, Ordering::Relaxed);
        if dtc as u32 > self.plies_to_limit() {
            return Some(self.draw_score(ply));
        }
        Some(match value {
            Value::Win(n) => mate_in(ply + n as usize),
            Value::Loss(n) => mated_in(ply + n as usize),
            Value::RuleWin(n) => rule_win_in(ply + n as usize),
            Value::RuleLoss(n) => rule_loss_in(ply + n as usize),
            Value::Draw => self.draw_score(ply),
        })
    }

    /// A draw's score for the side to move at `ply`: 0, less the `style`'s contempt for the
    /// side that started the search (and plus it for the other side).
    #[inline]
    pub(super) fn draw_score(&self, ply: usize) -> i32 {
        let c = self.config.style.contempt();
        if ply.is_multiple_of(2) {
            -c
        } else {
            c
        }
    }

    /// The table's key for the current position (it carries the clock near the natural limit).
    #[inline]
    pub(super) fn table_key(&self) -> u64 {
        tt::table_key(self.pos.key(), self.plies_to_limit())
    }

    /// Plies left before the natural limit of the rules in force (0 once it is reached).
    #[inline]
    pub(super) fn plies_to_limit(&self) -> u32 {
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
    pub(super) fn limit_allows_cutoff(&self, score: i32, ply: usize) -> bool {
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
    pub(super) fn make(&mut self, m: Move, gives_check: bool) {
        if let Some(n) = &mut self.network {
            n.acc.push_move(&self.pos, m);
        }
        self.pos.make_move_with(m, gives_check);
    }

    /// Passes the move (null-move pruning).
    #[inline]
    pub(super) fn make_null(&mut self) {
        if let Some(n) = &mut self.network {
            n.acc.push_null();
        }
        self.pos.make_null_move();
        self.shared.tt.prefetch(self.table_key());
    }

    /// [`make`](Self::make) for a move whose position the main search will probe the table
    /// for: its bucket is fetched into the cache while the move is made and the child starts.
    #[inline]
    pub(super) fn make_searched(&mut self, m: Move, gives_check: bool) {
        let (key, clock) = self.pos.key_after(m);
        self.shared
            .tt
            .prefetch(tt::table_key(key, self.plies_left(clock)));
        self.make(m, gives_check);
    }

    /// Takes back the last [`make`](Self::make) or [`make_null`](Self::make_null).
    #[inline]
    pub(super) fn unmake(&mut self) {
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

    pub(super) fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
        self.shared
            .table_stats
            .add(std::mem::take(&mut self.table_stats));
    }

    /// Has a search that counted `nodes` reached the node limit? A limited strength always
    /// finishes its first iteration: a player of any level looks at a few candidate moves
    /// once, and its choice needs them all scored.
    fn over_node_limit(&self, nodes: u64) -> bool {
        self.limits.nodes.is_some_and(|limit| nodes >= limit)
            && !(self.root_depth == 1 && self.config.strength.is_some())
    }

    /// Counts a node and checks the limits now and then. A stopped search only unwinds: the
    /// calls it still makes search nothing and are not counted, so a node limit is never
    /// overshot.
    #[inline]
    pub(super) fn tick(&mut self) {
        if self.stopped {
            return;
        }
        self.nodes += 1;
        #[cfg(test)]
        self.check_network();
        // Exact per-thread check keeps single-threaded node-limited runs deterministic.
        if self.over_node_limit(self.nodes) {
            self.stopped = true;
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        if self.nodes & 1023 == 0 {
            self.flush_nodes();
            // With helpers the limit is on all threads' nodes together (each thread alone
            // would let N threads search N times the limit): checked at each flush, so the
            // search overshoots by at most 1,024 nodes a thread. One thread alone has already
            // stopped at its exact count.
            if self.over_node_limit(self.shared.nodes.load(Ordering::Relaxed)) {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
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
}

/// A one-thread worker on a 1 MB table of its own, for tests that drive it directly.
#[cfg(test)]
pub(super) fn test_worker(pos: Position, limits: &Limits, config: Config) -> Worker {
    let tt = Arc::new(TranspositionTable::new(1));
    let shared = Arc::new(Shared::new(tt, Arc::new(config), limits, false));
    Worker::new(pos, &[], 0, shared, limits.clone(), Histories::new())
}

#[cfg(test)]
mod eval_cache_tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn cached_evaluations_equal_fresh_ones() {
        let mut w = test_worker(Position::startpos(), &Limits::default(), Config::default());
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
            let mut small = test_worker(pos.clone(), &limits, Config::default());
            let mut full = test_worker(pos, &limits, Config::default());
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
    use crate::eval::nnue::FloatNetwork;
    use crate::search::report::SearchResult;
    use crate::search::BENCH_POSITIONS;

    /// A one-thread search of `fen` under `limits` and `config`, checking the network at every
    /// node if `verify`; returns the outcome and the worker.
    fn search(fen: &str, limits: &Limits, config: &Config, verify: bool) -> (SearchResult, Worker) {
        let mut w = test_worker(Position::from_fen(fen).unwrap(), limits, config.clone());
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
        use crate::eval::nnue::{Architecture, FeatureSet};
        let arch = Architecture::new(FeatureSet::KingBuckets, 64).unwrap();
        network_search_check(FloatNetwork::random_for(arch, 7));
    }

    fn network_search_check(float: FloatNetwork) {
        let limits = Limits {
            nodes: Some(4000),
            ..Limits::default()
        };
        let with_net = Config {
            network: Some(Arc::new(float.quantize())),
            ..Config::default()
        };
        let hand = Config::default();
        let mut differs = 0;
        for fen in BENCH_POSITIONS.iter().take(8) {
            let (a, wa) = search(fen, &limits, &with_net, true);
            // Every node (search and quiescence, after moves and null moves) was checked.
            assert_eq!(wa.network_checks, wa.nodes(), "{fen}");
            assert!(wa.nodes() >= 4000, "{fen}: {} nodes", wa.nodes());
            // Unchecked, the accumulators are brought up to date lazily (several plies at a
            // time, or not at all at nodes that do not evaluate): the same search.
            let (b, wb) = search(fen, &limits, &with_net, false);
            assert_eq!(wb.network_checks, 0);
            assert_eq!(
                (a.best, a.score, a.depth, wa.nodes()),
                (b.best, b.score, b.depth, wb.nodes()),
                "{fen}"
            );
            let (h, wh) = search(fen, &limits, &hand, true);
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
            ..Limits::default()
        };
        let with_net = Config {
            knowledge: Level::Small,
            network: Some(Arc::new(FloatNetwork::random(3).quantize())),
            ..Config::default()
        };
        let without = Config {
            network: None,
            ..with_net.clone()
        };
        let (a, wa) = search(BENCH_POSITIONS[1], &limits, &with_net, true);
        let (b, wb) = search(BENCH_POSITIONS[1], &limits, &without, true);
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
        let default = Config::default();
        let mut tuned = default.clone();
        tuned.params.set("lmr_divisor", 150).unwrap();
        let (_, w0) = search(BENCH_POSITIONS[1], &limits, &default, false);
        let (_, w1) = search(BENCH_POSITIONS[1], &limits, &default, false);
        let (_, w2) = search(BENCH_POSITIONS[1], &limits, &tuned, false);
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
            let mut c = default.clone();
            c.params.set(name, value).unwrap();
            let (r, w) = search(BENCH_POSITIONS[1], &limits, &c, false);
            assert!(r.best.is_some(), "{name}");
            assert_ne!(w.nodes(), w0.nodes(), "{name}");
        }
    }
}
