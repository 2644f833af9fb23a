//! The quiescence search: past the main search's horizon, captures only (and every evasion
//! when in check), so that no position is scored in the middle of an exchange.

use super::limits::MAX_PLY;
use super::movepick::MovePicker;
use super::score::*;
use super::tt::Bound;
use super::worker::Worker;
use crate::eval;

/// The depth the quiescence search stores its results at: below every main-search depth, so
/// they give cutoffs only to quiescence searches.
const QS_DEPTH: i32 = -1;

impl Worker {
    pub(super) fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
            let bound = Bound::of_result(best, orig_alpha, beta, best_move.is_some());
            self.shared
                .tt
                .store(key, ply, best_move, best, raw, QS_DEPTH, bound);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Position;
    use crate::search::limits::{Config, Limits};
    use crate::search::worker::test_worker;
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
                    let v = test_worker(pos.clone(), &Limits::default(), Config::default())
                        .qsearch(lo, hi, 1);
                    if v <= lo {
                        let lo2 = v + rng.random_range(0..=(lo - v).min(400));
                        let hi2 = lo2 + rng.random_range(1..300);
                        let w = test_worker(pos.clone(), &Limits::default(), Config::default())
                            .qsearch(lo2, hi2, 1);
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
