//! Iterative deepening at the root: deeper and deeper iterations until a limit, each searched
//! through aspiration windows by the main search ([`super::alphabeta`]), one line or several
//! (MultiPV); when to stop; what each iteration reports; and the move a limited strength
//! plays.

use super::limits::MAX_DEPTH;
use super::report::{Info, SearchResult};
use super::score::*;
use super::strength::{self, Strength};
use super::time::{self, TimeBudget};
use super::tt::{Bound, TableStats};
use super::worker::{RootMove, Worker};
use crate::board::Move;
use rand::SeedableRng;
use std::sync::atomic::Ordering;

impl Worker {
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
                nodes: 0,
            };
        }
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best = self.root_moves[0].clone();
        let mut best_depth = 0;
        let mut last_score = 0;
        let mut stable = 0;
        let mut depth = 1 + (self.id % 2) as i32;
        let lines = self.lines(n_root);
        let shown = self.limits.multipv.clamp(1, lines);
        // The lines of the last completed iteration (a limited strength chooses among them).
        let mut ranked: Vec<(Move, i32)> = Vec::new();
        while depth <= max_depth {
            let (score, done) = self.iteration(depth, lines, last_score);
            if self.stopped && depth > 1 {
                // An interrupted iteration still improves the result when its first move
                // (searched with a full window) has been scored.
                let first = &self.root_moves[0];
                if first.score > -INFINITE && first.mv != best.mv && first.score > best.score {
                    best = first.clone();
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
            if self.config.strength.is_some() {
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
                self.report(&mut on_info, depth, score, shown.min(complete));
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
        self.result(best, best_depth, &ranked, lines)
    }

    /// The lines each iteration ranks. Helper threads search one line: they feed the table,
    /// the main thread ranks. A limited strength ranks a few lines to choose from, whatever
    /// the user shows.
    fn lines(&self, n_root: usize) -> usize {
        if self.id != 0 {
            return 1;
        }
        let choice = if self.config.strength.is_some() {
            strength::LINES
        } else {
            1
        };
        self.limits.multipv.max(choice).clamp(1, n_root)
    }

    /// One iteration to `depth`: its `lines` lines searched in turn, each through aspiration
    /// windows around its last score (the first line around `last_score`, the iteration's
    /// before). Returns the iteration's score and the lines searched to the end: when the
    /// limit stops the first iteration, the others are unscored or cut short and are neither
    /// shown nor chosen.
    fn iteration(&mut self, depth: i32, lines: usize, last_score: i32) -> (i32, usize) {
        self.root_depth = depth;
        self.seldepth = 0;
        let mut score = 0;
        for rm in &mut self.root_moves {
            rm.prev_score = rm.score;
        }
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
        (score, done)
    }

    /// Reports a completed iteration (its first line's `score`): its first line, or with
    /// several lines asked for, the first `shown` by rank.
    fn report(&self, on_info: &mut impl FnMut(&Info), depth: i32, score: i32, shown: usize) {
        if self.limits.multipv <= 1 {
            on_info(&self.info(depth, score, &self.root_moves[0].pv));
        } else {
            for (rank, rm) in self.root_moves[..shown].iter().enumerate() {
                let mut info = self.info(depth, rm.score, &rm.pv);
                info.multipv = Some(rank + 1);
                on_info(&info);
            }
        }
    }

    /// The search's result: `best`, the first line of the last iteration completed (at
    /// `depth`), or the move a limited strength chooses among the `ranked` lines.
    fn result(
        &mut self,
        mut best: RootMove,
        depth: i32,
        ranked: &[(Move, i32)],
        lines: usize,
    ) -> SearchResult {
        self.flush_nodes();
        if let (Some(strength), 0) = (self.config.strength, self.id) {
            if let Some(chosen) = self.choose_weaker(&strength, ranked, lines) {
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
            score: self.worth(best.score),
            depth,
            root_moves: self.root_moves.len(),
            // The threads' sum, filled in once they have all stopped.
            table: TableStats::default(),
            nodes: 0,
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

    /// What a root score says the game is worth: a drawn table position is worth 0 whatever
    /// the evaluation says (a rook against 士象全 looks like a rook up), unless the search
    /// proves more. The lines shown and the result (which the draw and resign decisions
    /// read) both say it.
    fn worth(&self, score: i32) -> i32 {
        if self.shared.root_drawn && !is_decisive(score) {
            0
        } else {
            score
        }
    }

    fn info(&self, depth: i32, score: i32, pv: &[Move]) -> Info {
        let time_ms = self.shared.elapsed_ms();
        let nodes = self.shared.nodes.load(Ordering::Relaxed);
        let score = self.worth(score);
        Info {
            depth,
            seldepth: self.seldepth as i32,
            score,
            bound: Bound::Exact,
            nodes,
            time_ms,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: self.shared.tt.hashfull(),
            tbhits: self.shared.tb_hits.load(Ordering::Relaxed),
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
            let score = self.search::<true>(alpha, beta, depth, 0, false);
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
}
