//! The main search: one principal-variation alpha-beta search for the root and the nodes
//! below it, with the standard pruning and reduction tools of strong engines, each guarded
//! where xiangqi makes it unsafe, and what it learns from its results (move-ordering
//! statistics, the correction history). Iterative deepening ([`super::iterative`]) calls it at
//! the root, whose moves it ranks by rules of the root's own (no pruning, no statistics, a
//! reduction of its own); at the horizon it hands over to the quiescence search
//! ([`super::quiescence`]).
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
//! The natural limit is kept out by the table's key near it
//! ([`crate::search::tt::table_key`]) and by taking no cutoffs in its last plies.

use super::correction;
use super::history;
use super::limits::MAX_PLY;
use super::movepick::{Kind, MovePicker};
use super::repetition;
use super::score::*;
use super::tt::{Bound, TtEntry};
use super::worker::Worker;
use crate::board::{Move, PieceKind};
use arrayvec::ArrayVec;
use std::ops::ControlFlow;

/// What the search knows of a node before its moves: what its pruning and reduction rules
/// read, and the table's word on it. The root is neither evaluated nor looked up.
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
    /// The position's key in the table, its entry there and the entry's move (legal here).
    key: u64,
    tt: Option<TtEntry>,
    tt_move: Option<Move>,
    /// The table's move is a capture.
    tt_capture: bool,
    /// The move a singular-extension search of this node leaves out.
    excluded: Option<Move>,
}

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
            let score = -self.search::<false>(-beta, -beta + 1, depth - r, ply + 1, !cut);
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
    fn probcut(&mut self, node: &Node, beta: i32) -> Option<i32> {
        let margin = self.p.probcut_margin;
        if margin == 0 || node.depth < self.p.probcut_depth || is_decisive(beta) {
            return None;
        }
        let raised = beta + margin;
        if node
            .tt
            .is_some_and(|e| e.depth >= node.depth - 3 && e.score < raised)
        {
            return None;
        }
        let ply = node.ply;
        let mut picker = MovePicker::quiescence(&self.pos, node.tt.and_then(|e| e.mv), false);
        while let Some((m, _)) = picker.next(&self.pos, &self.history_view(ply)) {
            if !self.pos.see_ge(m, raised - node.static_eval) {
                continue;
            }
            let gives = self.pos.gives_check_quick(m);
            self.note_move(m, ply);
            self.make_searched(m, gives);
            let mut score = -self.qsearch(-raised, -raised + 1, ply + 1);
            if score >= raised {
                score =
                    -self.search::<false>(-raised, -raised + 1, node.depth - 4, ply + 1, !node.cut);
            }
            self.unmake();
            if self.stopped {
                return Some(0);
            }
            // A repetition ruling depends on the path: it neither ends the node nor is stored.
            if score >= raised && !is_rule(score) {
                self.shared.tt.store(
                    node.key,
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

    /// The late-move reduction of the root's `count`-th move: from depth 3 and out of check,
    /// quiet moves that do not check are reduced a ply less than the table says for their
    /// place in the line (counted from 0). Nothing else counts: no statistics, no level.
    #[inline(always)]
    fn root_reduction(&self, node: &Node, c: &Candidate, count: usize) -> i32 {
        let depth = node.depth;
        if depth < 3 || c.capture || c.gives || node.in_check {
            return 0;
        }
        (self.lmr[depth.min(63) as usize][(count - 1).min(63)] - 1).max(0)
    }

    /// Does a stored entry decide this node without a search? Deep enough, its bound on the
    /// right side of the window, never a rule score (a repetition ruling depends on the path),
    /// nor near the natural limit.
    #[inline(always)]
    pub(super) fn table_cutoff(
        &self,
        e: &TtEntry,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> bool {
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
        let v = self.search::<false>(singular_beta - 1, singular_beta, (depth - 1) / 2, ply, cut);
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

    /// The search of a node: the root (`ROOT`, at ply 0, in iterative deepening's aspiration
    /// windows) or one below it. A node below the root first meets what may decide it without
    /// its moves ([`Worker::enter`]); the root meets none of it, its moves being what the
    /// search is for. Then the moves, each searched by [`Worker::search_move`], and the
    /// result stored and learned from ([`Worker::leave`]).
    ///
    /// The root searches `root_moves[pv_index..]` (the lines not yet ranked this iteration) in
    /// their order, ranks each in `root_moves` as it comes and keeps the best first. It prunes
    /// and extends nothing, reduces by its own rule ([`Worker::root_reduction`]), learns
    /// nothing from a cutoff, and when stopped returns the best it has (alpha at least).
    pub(super) fn search<const ROOT: bool>(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut: bool,
    ) -> i32 {
        // The root's window is open (an aspiration window at worst): a PV node.
        let pv = ROOT || beta - alpha > 1;
        self.pv[ply].clear();
        let node = if ROOT {
            self.root_node(depth)
        } else {
            match self.enter(&mut alpha, &mut beta, depth, ply, pv, cut) {
                ControlFlow::Continue(node) => node,
                ControlFlow::Break(score) => return score,
            }
        };
        let (depth, excluded) = (node.depth, node.excluded);
        let counter = self.counter_move(ply);
        let mut picker = MovePicker::new(node.tt_move, self.killers[ply], counter, node.in_check);
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut quiets_tried: ArrayVec<Move, 64> = ArrayVec::new();
        let mut captures_tried: ArrayVec<Move, 32> = ArrayVec::new();
        let orig_alpha = alpha;
        let mut count = 0usize;
        while let Some((m, kind)) = self.next_move::<ROOT>(&mut picker, ply, count) {
            if Some(m) == excluded {
                continue;
            }
            let capture = self.pos.piece_at(m.to()).is_some();
            let gives = self.pos.gives_check_quick(m);
            let candidate = Candidate {
                m,
                kind,
                capture,
                gives,
            };
            if self.prune_move(&node, &candidate, count, best, alpha) {
                continue;
            }
            let extension = match node
                .tt
                .filter(|_| Some(m) == node.tt_move && excluded.is_none())
            {
                Some(e) => match self.singular(&node, &e, m, beta) {
                    Singular::Extend(x) => x,
                    Singular::Cut(v) => return v,
                },
                None => 0,
            };
            count += 1;
            let score = self.search_move::<ROOT>(&node, &candidate, count, extension, alpha, beta);
            if self.stopped {
                return if ROOT { best.max(alpha) } else { 0 };
            }
            if ROOT {
                self.rank_root_move(count, score, alpha);
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    alpha = score;
                    if ROOT {
                        // Keep the best move first so that an interrupted iteration can use it.
                        let first = self.pv_index;
                        self.root_moves[first..first + count].rotate_right(1);
                    } else if pv {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !ROOT {
                            self.update_statistics(m, ply, depth, &quiets_tried, &captures_tried);
                        }
                        break;
                    }
                }
            }
            if capture {
                let _ = captures_tried.try_push(m);
            } else {
                let _ = quiets_tried.try_push(m);
            }
        }
        self.leave::<ROOT>(&node, best, best_move, count, orig_alpha, beta)
    }

    /// A node below the root before its moves: the check extension, the horizon, the node
    /// counted, the verdicts that need no search ([`Worker::verdict`]), the table's cutoff,
    /// the static evaluation, the pruning of the whole node and internal iterative reduction.
    /// `Break`: the node's score, decided without its moves.
    #[inline(always)]
    fn enter(
        &mut self,
        alpha: &mut i32,
        beta: &mut i32,
        mut depth: i32,
        ply: usize,
        pv: bool,
        cut: bool,
    ) -> ControlFlow<i32, Node> {
        let in_check = self.pos.last_move_gave_check();
        if in_check && depth >= self.p.check_ext_depth && ply < 2 * self.root_depth as usize + 8 {
            depth += 1; // check extension: evasions are forced
        }
        if depth <= 0 {
            return ControlFlow::Break(self.qsearch(*alpha, *beta, ply));
        }
        self.tick();
        if self.stopped {
            return ControlFlow::Break(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.verdict(ply, alpha, beta) {
            return ControlFlow::Break(v);
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
            if !pv && self.table_cutoff(&e, *alpha, *beta, depth, ply) {
                self.table_stats.cutoffs += 1;
                return ControlFlow::Break(e.score);
            }
        }

        let raw_eval = if in_check { 0 } else { self.static_eval(tt) };
        let static_eval = if in_check {
            -INFINITE
        } else {
            self.corrected(raw_eval)
        };
        self.evals[ply] = static_eval;
        let mut node = Node {
            ply,
            depth,
            pv,
            cut,
            in_check,
            static_eval,
            raw_eval,
            improving: !in_check && ply >= 2 && static_eval > self.evals[ply - 2],
            key,
            tt,
            tt_move,
            tt_capture: tt_move.is_some_and(|m| self.pos.piece_at(m.to()).is_some()),
            excluded,
        };
        if !pv && !in_check && excluded.is_none() && self.sel.prune_nodes {
            if let Some(score) = self.prune_node(&node, *beta) {
                return ControlFlow::Break(score);
            }
            if let Some(score) = self.probcut(&node, *beta) {
                return ControlFlow::Break(score);
            }
        }
        // Internal iterative reduction: without a table move this node is probably not critical.
        if tt_move.is_none()
            && depth >= self.p.iir_depth
            && (pv || cut)
            && excluded.is_none()
            && self.sel.prune_nodes
        {
            node.depth -= 1;
        }
        ControlFlow::Continue(node)
    }

    /// What decides a node below the root without a search: a repetition (2011 rules 23-26),
    /// the natural limit (4.2.4), the deepest ply, mate distance pruning (which otherwise
    /// narrows the window) and the endgame tables.
    #[inline(always)]
    fn verdict(&mut self, ply: usize, alpha: &mut i32, beta: &mut i32) -> Option<i32> {
        if let Some(v) = repetition::score_with(&self.pos, ply, self.config.rules) {
            return Some(if v == 0 { self.draw_score(ply) } else { v });
        }
        if self.plies_to_limit() == 0 {
            return Some(if self.pos.has_legal_move() {
                self.draw_score(ply)
            } else {
                mated_in(ply)
            });
        }
        if ply >= MAX_PLY {
            return Some(self.evaluate());
        }
        // Mate distance pruning.
        *alpha = (*alpha).max(mated_in(ply));
        *beta = (*beta).min(mate_in(ply + 1));
        if *alpha >= *beta {
            return Some(*alpha);
        }
        // An endgame table knows this position's value exactly.
        self.probe_tables(ply)
    }

    /// The root as the node search sees it: a PV node, neither evaluated nor looked up in the
    /// table before its moves.
    fn root_node(&self, depth: i32) -> Node {
        Node {
            ply: 0,
            depth,
            pv: true,
            cut: false,
            in_check: self.pos.in_check(),
            static_eval: -INFINITE,
            raw_eval: 0,
            improving: false,
            key: self.table_key(),
            tt: None,
            tt_move: None,
            tt_capture: false,
            excluded: None,
        }
    }

    /// The node's next move and what it is, as the move picker hands it out; at the root, the
    /// next of `root_moves[pv_index..]` after the `searched` ones (the root leaves none out),
    /// of a kind no rule of the root reads.
    #[inline(always)]
    fn next_move<const ROOT: bool>(
        &self,
        picker: &mut MovePicker,
        ply: usize,
        searched: usize,
    ) -> Option<(Move, Kind)> {
        if ROOT {
            let rm = self.root_moves.get(self.pv_index + searched)?;
            Some((rm.mv, Kind::Quiet))
        } else {
            picker.next(&self.pos, &self.history_view(ply))
        }
    }

    /// Makes the node's `count`-th move, searches it `extension` plies deeper than the node's
    /// depth less one and takes it back (principal-variation search): the first move with the
    /// full window, the others with a null window, reduced ([`Worker::reduction`], at the root
    /// [`Worker::root_reduction`]), again unreduced where that beats alpha, and at PV nodes
    /// again with the full window where the score falls inside it.
    #[inline(always)]
    fn search_move<const ROOT: bool>(
        &mut self,
        node: &Node,
        c: &Candidate,
        count: usize,
        extension: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let ply = node.ply;
        // The quiet move's statistics, for its reduction (read before the move is made).
        let stat = if ROOT || c.capture {
            0
        } else {
            self.history_view(ply).quiet(&self.pos, c.m)
        };
        self.note_move(c.m, ply);
        self.make_searched(c.m, c.gives);
        let new_depth = node.depth - 1 + extension;
        let mut score;
        if count == 1 {
            score = -self.search::<false>(-beta, -alpha, new_depth, ply + 1, false);
        } else {
            let r = if ROOT {
                self.root_reduction(node, c, count)
            } else {
                self.reduction(node, c, count, stat)
            };
            score = -self.search::<false>(-alpha - 1, -alpha, new_depth - r, ply + 1, true);
            if score > alpha && r > 0 {
                score = -self.search::<false>(-alpha - 1, -alpha, new_depth, ply + 1, !node.cut);
            }
            if node.pv && score > alpha && score < beta {
                score = -self.search::<false>(-beta, -alpha, new_depth, ply + 1, false);
            }
        }
        self.unmake();
        score
    }

    /// Ranks the root's `count`-th move of this line, just searched: its score and line where
    /// it is the line's first or beat alpha, unscored otherwise (its score only a bound).
    fn rank_root_move(&mut self, count: usize, score: i32, alpha: i32) {
        let rm = &mut self.root_moves[self.pv_index + count - 1];
        if count == 1 || score > alpha {
            rm.score = score;
            rm.pv.clear();
            rm.pv.push(rm.mv);
            rm.pv.extend(self.pv[1].iter().copied());
        } else {
            rm.score = -INFINITE;
        }
    }

    /// A node's end, after its moves (`count` of them searched): without a legal move, a loss;
    /// otherwise its result, stored in the table (at the root, for the first line only: the
    /// later ones leave the best moves out) and learned from by the correction history (not
    /// at the root).
    #[inline(always)]
    fn leave<const ROOT: bool>(
        &mut self,
        node: &Node,
        best: i32,
        best_move: Option<Move>,
        count: usize,
        orig_alpha: i32,
        beta: i32,
    ) -> i32 {
        if count == 0 {
            // No legal move (the first move is never pruned): checkmate and stalemate both
            // lose (2011 rules 4.1). Without the excluded move, only that move was legal.
            return if node.excluded.is_some() {
                orig_alpha
            } else {
                mated_in(node.ply)
            };
        }
        if node.excluded.is_some() || is_rule(best) || (ROOT && self.pv_index > 0) {
            return best;
        }
        // At the root, aspiration windows make the score a bound when it falls outside them.
        let bound = Bound::of_result(best, orig_alpha, beta, best_move.is_some());
        let (mv, eval) = if ROOT {
            // The best move is the first, or the first of the last iteration where none beat
            // alpha.
            let eval = if node.in_check { 0 } else { self.evaluate() };
            (Some(self.root_moves[0].mv), eval)
        } else {
            self.learn_correction(best, best_move, bound, node);
            (best_move, node.raw_eval)
        };
        self.shared
            .tt
            .store(node.key, node.ply, mv, best, eval, node.depth, bound);
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
    pub(super) fn corrected(&self, raw: i32) -> i32 {
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
}

#[cfg(test)]
mod correction_tests {
    use super::*;
    use crate::board::Position;
    use crate::search::limits::{Config, Limits};
    use crate::search::worker::test_worker;

    /// Off (the default), the correction history is neither read nor written; on, a search
    /// fills it, finds a legal move and searches another tree.
    #[test]
    fn the_correction_history_learns_only_when_on() {
        let fen = crate::search::BENCH_POSITIONS[1];
        let pos = Position::from_fen(fen).unwrap();
        let limits = Limits {
            depth: Some(9),
            ..Limits::default()
        };
        let config = |weight| {
            let mut config = Config::default();
            config.params.corr_pawn = weight;
            config.params.corr_material = weight;
            config
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
        let mut off = test_worker(pos.clone(), &limits, config(0));
        let a = off.run(|_| {});
        assert!(!learned(&off));
        let mut on = test_worker(pos.clone(), &limits, config(100));
        let b = on.run(|_| {});
        assert!(learned(&on));
        assert!(pos.legal_moves().contains(&b.best.unwrap()));
        assert_ne!(off.nodes(), on.nodes(), "{a:?} {b:?}");
    }
}
