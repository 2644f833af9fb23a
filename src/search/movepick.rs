//! The staged move picker of the main search and of quiescence.
//!
//! Most nodes cut off after one or two moves, so moves are produced in stages and each stage's
//! work is done only when its turn comes (Stockfish's `movepick`):
//!
//! - main search: the table move (checked with [`Position::is_legal`], nothing generated), the
//!   captures by victim, capture history and attacker ([`HistoryView::capture`]; SEE computed
//!   as each comes up, losing ones put aside), the killers and the counter-move (checked the
//!   same way, quiet only), the quiet moves by history, then the captures put aside;
//! - quiescence, not in check: the table move if it is a capture, then the captures in the
//!   same order (the caller prunes by delta and SEE, cheapest test first);
//! - quiescence in check: the table move, then every evasion by MVV-LVA.
//!
//! Every legal move of the stage list is yielded exactly once; nothing here allocates.

use super::history::HistoryView;
use crate::board::movegen::Safety;
use crate::board::{Move, MoveList, Position, MAX_MOVES};
use crate::eval;
use arrayvec::ArrayVec;

/// What a yielded move is: the search prunes and reduces by it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Kind {
    /// The transposition table's move.
    TableMove,
    /// A capture that does not lose material (main search), or any capture (quiescence).
    Capture,
    /// A killer or the counter-move.
    Refutation,
    /// A quiet move (or, in quiescence in check, any evasion).
    Quiet,
    /// A capture that loses material by static exchange.
    BadCapture,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Stage {
    TableMove,
    GenCaptures,
    Captures,
    Refutations,
    GenQuiets,
    Quiets,
    BadCaptures,
    QTableMove,
    QGenCaptures,
    QCaptures,
    EvasionTableMove,
    GenEvasions,
    Evasions,
    Done,
}

/// MVV-LVA: the most valuable victim first, the least valuable attacker among equals. Quiet
/// moves (evasions) get the attacker term only: the smaller piece moves first.
#[inline]
pub fn mvv_lva(pos: &Position, m: Move) -> i32 {
    let victim = pos
        .piece_at(m.to())
        .map_or(0, |p| eval::piece_value(p.kind()));
    let attacker = pos
        .piece_at(m.from())
        .map_or(0, |p| eval::piece_value(p.kind()));
    victim * 16 - attacker / 16
}

/// Yields a node's moves stage by stage (see the module docs).
pub struct MovePicker {
    stage: Stage,
    tt_move: Option<Move>,
    /// Killers then the counter-move, as given; checked when their stage comes.
    refutations: [Option<Move>; 3],
    /// Whether the side to move is in check (it makes checking a move's legality cheaper).
    in_check: bool,
    /// The refutations yielded, left out of the quiet stage.
    yielded: [Option<Move>; 3],
    ref_index: usize,
    /// The current stage's scored moves.
    moves: ArrayVec<(Move, i32), MAX_MOVES>,
    /// Captures that lost by static exchange, in the order they came up.
    bad: ArrayVec<Move, MAX_MOVES>,
    bad_index: usize,
    /// The legality facts, computed for the captures and kept for the quiets.
    safety: Option<Safety>,
}

impl MovePicker {
    /// The main search's picker. `tt_move` must be legal here (or `None`); killers and the
    /// counter-move may be anything, they are checked before use. `in_check` must say whether
    /// the side to move is in check.
    pub fn new(
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        counter: Option<Move>,
        in_check: bool,
    ) -> Self {
        Self::with_stage(
            Stage::TableMove,
            tt_move,
            [killers[0], killers[1], counter],
            in_check,
        )
    }

    /// Quiescence's picker: captures, or every evasion when `in_check`. `tt_move` may be
    /// anything; it is yielded only if legal and (out of check) a capture.
    pub fn quiescence(pos: &Position, tt_move: Option<Move>, in_check: bool) -> Self {
        let tt_move = tt_move
            .filter(|&m| in_check || pos.piece_at(m.to()).is_some())
            .filter(|&m| pos.is_legal_in(m, in_check));
        let stage = if in_check {
            Stage::EvasionTableMove
        } else {
            Stage::QTableMove
        };
        Self::with_stage(stage, tt_move, [None; 3], in_check)
    }

    fn with_stage(
        stage: Stage,
        tt_move: Option<Move>,
        refutations: [Option<Move>; 3],
        in_check: bool,
    ) -> Self {
        MovePicker {
            stage,
            tt_move,
            refutations,
            in_check,
            yielded: [None; 3],
            ref_index: 0,
            moves: ArrayVec::new(),
            bad: ArrayVec::new(),
            bad_index: 0,
            safety: None,
        }
    }

    /// The next move and what it is; `None` when all are out. `pos` and `history` must be the
    /// same at every call.
    pub fn next(&mut self, pos: &Position, history: &HistoryView) -> Option<(Move, Kind)> {
        loop {
            match self.stage {
                Stage::TableMove | Stage::QTableMove | Stage::EvasionTableMove => {
                    self.stage = match self.stage {
                        Stage::TableMove => Stage::GenCaptures,
                        Stage::QTableMove => Stage::QGenCaptures,
                        _ => Stage::GenEvasions,
                    };
                    if let Some(m) = self.tt_move {
                        return Some((m, Kind::TableMove));
                    }
                }
                Stage::GenCaptures | Stage::QGenCaptures => {
                    let safety = pos.safety();
                    self.safety = Some(safety);
                    self.fill(&pos.legal_captures_with(safety), |m| {
                        history.capture(pos, m)
                    });
                    self.stage = if self.stage == Stage::GenCaptures {
                        Stage::Captures
                    } else {
                        Stage::QCaptures
                    };
                }
                Stage::Captures => match pick(&mut self.moves) {
                    Some(m) => {
                        if pos.see_ge(m, 0) {
                            return Some((m, Kind::Capture));
                        }
                        self.bad.push(m);
                    }
                    None => self.stage = Stage::Refutations,
                },
                Stage::QCaptures => match pick(&mut self.moves) {
                    Some(m) => return Some((m, Kind::Capture)),
                    None => self.stage = Stage::Done,
                },
                Stage::Refutations => {
                    let Some(&r) = self.refutations.get(self.ref_index) else {
                        self.stage = Stage::GenQuiets;
                        continue;
                    };
                    self.ref_index += 1;
                    let Some(m) = r else { continue };
                    if Some(m) == self.tt_move
                        || self.yielded.contains(&Some(m))
                        || pos.piece_at(m.to()).is_some()
                        || !pos.is_legal_in(m, self.in_check)
                    {
                        continue;
                    }
                    self.yielded[self.ref_index - 1] = Some(m);
                    return Some((m, Kind::Refutation));
                }
                Stage::GenQuiets => {
                    let safety = self.safety.unwrap_or_else(|| pos.safety());
                    self.fill(&pos.legal_quiets_with(safety), |m| history.quiet(pos, m));
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => match pick(&mut self.moves) {
                    Some(m) => return Some((m, Kind::Quiet)),
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => match self.bad.get(self.bad_index) {
                    Some(&m) => {
                        self.bad_index += 1;
                        return Some((m, Kind::BadCapture));
                    }
                    None => self.stage = Stage::Done,
                },
                Stage::GenEvasions => {
                    self.fill(&pos.legal_moves(), |m| mvv_lva(pos, m));
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match pick(&mut self.moves) {
                    Some(m) => return Some((m, Kind::Quiet)),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }

    /// Loads `list` less the moves yielded before it, each with its `score`.
    #[inline]
    fn fill(&mut self, list: &MoveList, score: impl Fn(Move) -> i32) {
        self.moves.clear();
        for &m in list {
            if Some(m) == self.tt_move || self.yielded.contains(&Some(m)) {
                continue;
            }
            self.moves.push((m, score(m)));
        }
    }
}

/// Takes the highest-scored move out of the list (selection sort, one step at a time: most
/// nodes cut off after a few moves).
#[inline]
fn pick(list: &mut ArrayVec<(Move, i32), MAX_MOVES>) -> Option<Move> {
    let (i, _) = list.iter().enumerate().max_by_key(|(_, &(_, s))| s)?;
    Some(list.swap_remove(i).0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;
    use crate::search::history::Histories;
    use crate::search::BENCH_POSITIONS;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A move to offer the picker as a table move, killer or counter-move: none, a legal
    /// one, a random square pair (mostly illegal), or a move from an earlier position (stale).
    fn offer(rng: &mut ChaCha8Rng, legal: &[Move], stale: &[Move]) -> Option<Move> {
        match rng.random_range(0..4) {
            0 => None,
            1 => legal.get(rng.random_range(0..legal.len().max(1))).copied(),
            2 => Move::new(
                Square::new(rng.random_range(0..90)).unwrap(),
                Square::new(rng.random_range(0..90)).unwrap(),
            ),
            _ => stale.get(rng.random_range(0..stale.len().max(1))).copied(),
        }
    }

    fn drain(p: &mut MovePicker, pos: &Position, history: &HistoryView) -> Vec<(Move, Kind)> {
        let mut out = Vec::new();
        while let Some(x) = p.next(pos, history) {
            out.push(x);
            assert!(out.len() <= MAX_MOVES, "picker does not end");
        }
        assert_eq!(p.next(pos, history), None, "picker restarted");
        out
    }

    fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<u16> {
        let mut v: Vec<u16> = moves.into_iter().map(|m| m.to_u16()).collect();
        v.sort_unstable();
        v
    }

    /// Checks all three pickers at one node.
    fn check_node(pos: &Position, rng: &mut ChaCha8Rng, stale: &[Move], history: &HistoryView) {
        let legal = pos.legal_moves();
        let tt = offer(rng, &legal, stale).filter(|&m| pos.is_legal(m));
        let killers = [offer(rng, &legal, stale), offer(rng, &legal, stale)];
        let counter = offer(rng, &legal, stale);

        let in_check = pos.in_check();
        let got = drain(
            &mut MovePicker::new(tt, killers, counter, in_check),
            pos,
            history,
        );
        let moves: Vec<Move> = got.iter().map(|&(m, _)| m).collect();
        assert_eq!(sorted(moves.clone()), sorted(legal.clone()), "{pos:?}");
        // Each once.
        let mut dedup = sorted(moves.clone());
        dedup.dedup();
        assert_eq!(dedup.len(), moves.len());
        // Stages in order, each kind what it says.
        let rank = |k: Kind| match k {
            Kind::TableMove => 0,
            Kind::Capture => 1,
            Kind::Refutation => 2,
            Kind::Quiet => 3,
            Kind::BadCapture => 4,
        };
        assert!(got.windows(2).all(|w| rank(w[0].1) <= rank(w[1].1)));
        if let Some(t) = tt {
            assert_eq!(got[0], (t, Kind::TableMove));
        }
        for &(m, k) in &got {
            let capture = pos.piece_at(m.to()).is_some();
            match k {
                Kind::TableMove => assert_eq!(Some(m), tt),
                Kind::Capture => assert!(capture && pos.see_ge(m, 0)),
                Kind::BadCapture => assert!(capture && !pos.see_ge(m, 0)),
                Kind::Refutation => {
                    assert!(!capture && (killers.contains(&Some(m)) || counter == Some(m)))
                }
                Kind::Quiet => assert!(!capture),
            }
        }
        // Captures and quiets come by their history scores.
        for w in got.windows(2) {
            if w[0].1 == w[1].1 && w[0].1 == Kind::Capture {
                assert!(history.capture(pos, w[0].0) >= history.capture(pos, w[1].0));
            }
            if w[0].1 == w[1].1 && w[0].1 == Kind::Quiet {
                assert!(history.quiet(pos, w[0].0) >= history.quiet(pos, w[1].0));
            }
        }

        // Quiescence: the table move is any offer, checked by the picker.
        let qtt = offer(rng, &legal, stale);
        let got = drain(
            &mut MovePicker::quiescence(pos, qtt, in_check),
            pos,
            history,
        );
        let moves: Vec<Move> = got.iter().map(|&(m, _)| m).collect();
        let expected = if in_check {
            legal.to_vec()
        } else {
            pos.legal_captures().to_vec()
        };
        assert_eq!(sorted(moves.clone()), sorted(expected), "{pos:?}");
        let mut dedup = sorted(moves.clone());
        dedup.dedup();
        assert_eq!(dedup.len(), moves.len());
        if let Some(t) = qtt.filter(|&m| moves.contains(&m)) {
            assert_eq!(got[0], (t, Kind::TableMove));
        }
    }

    #[test]
    fn pickers_yield_the_legal_moves_once_each() {
        let mut rng = ChaCha8Rng::seed_from_u64(16);
        let mut tables = Histories::new();
        let mut nodes = 0;
        let mut stale: Vec<Move> = Vec::new();
        for fen in BENCH_POSITIONS {
            for _ in 0..12 {
                let mut pos = Position::from_fen(fen).unwrap();
                for _ in 0..100 {
                    // Random statistics, the continuation rows of two random moves among them.
                    let mut randomize = |h: &mut i16| {
                        if rng.random_bool(0.05) {
                            *h = rng.random_range(-16_000..16_000);
                        }
                    };
                    tables.quiet.iter_mut().flatten().for_each(&mut randomize);
                    tables
                        .capture
                        .iter_mut()
                        .flatten()
                        .flatten()
                        .for_each(&mut randomize);
                    tables.continuation[3][40]
                        .iter_mut()
                        .flatten()
                        .for_each(&mut randomize);
                    tables.continuation[10][5]
                        .iter_mut()
                        .flatten()
                        .for_each(&mut randomize);
                    let prev = [Some((3, 40)), Some((10, 5))];
                    check_node(&pos, &mut rng, &stale, &HistoryView::new(&tables, prev));
                    nodes += 1;
                    let Some(m) = crate::board::arbitrary::pick(&pos, rng.random()) else {
                        break;
                    };
                    if stale.len() < 512 {
                        stale.push(m);
                    } else {
                        stale[rng.random_range(0..512)] = m;
                    }
                    pos.make_move(m);
                }
            }
        }
        assert!(nodes > 5000, "{nodes}");
    }
}
