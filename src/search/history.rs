//! Move-ordering statistics: what the search has learned about moves, by the piece that moves
//! and where it goes. Each search thread keeps its own tables across the searches of one game
//! (a new game clears them), since the moves that refuted lines a move ago still refute most of
//! them now.
//!
//! - quiet history: quiet moves that caused a cutoff, less those tried before it in vain;
//! - continuation history: the same, by the move one and two plies before (the follow-up that
//!   works against a given move);
//! - capture history: captures by the capturing piece, the square and the captured kind,
//!   ordering captures of equal victims and breaking MVV's ties;
//! - counter-moves: the quiet move that last refuted each move of the opponent.
//!
//! Every entry moves toward a bonus or malus with "gravity" (`h += b - h·|b| / MAX`), which
//! keeps it within ±[`HISTORY_MAX`] without clamping and lets old knowledge fade.

use super::correction::Corrections;
use crate::board::{Move, Position};
use crate::eval;

/// The bound of every history entry.
pub const HISTORY_MAX: i32 = 16_384;

/// A value for each piece (both colours) on each square.
pub type PieceTo<T> = [[T; 90]; 14];

/// One search thread's statistics (each table on the heap: the continuation table alone is
/// 3 MB, and zeroed memory comes cheaply from the allocator).
pub struct Histories {
    pub quiet: Box<PieceTo<i16>>,
    pub capture: Box<PieceTo<[i16; 7]>>,
    /// By the earlier move's piece and square, then the move's.
    pub continuation: Box<PieceTo<PieceTo<i16>>>,
    /// The refutation of each (piece, square) move, as [`Move::to_u16`] (0 = none).
    counter: Box<PieceTo<u16>>,
    /// The static evaluation's errors, by pawn structure and material.
    pub correction: Corrections,
}

impl Default for Histories {
    fn default() -> Histories {
        Histories::new()
    }
}

impl Histories {
    /// Empty tables (each on the heap: together they are megabytes). A failed allocation
    /// aborts, as `Box::new`'s does; [`Histories::try_new`] is the search's way.
    pub fn new() -> Histories {
        Histories::try_new()
            .unwrap_or_else(|| std::alloc::handle_alloc_error(std::alloc::Layout::new::<Self>()))
    }

    /// Empty tables, or `None` if the memory cannot be had: with many threads and a limited
    /// address space, a search starts the threads it can instead of failing.
    pub fn try_new() -> Option<Histories> {
        Some(Histories {
            quiet: bytemuck::try_zeroed_box().ok()?,
            capture: bytemuck::try_zeroed_box().ok()?,
            continuation: bytemuck::try_zeroed_box().ok()?,
            counter: bytemuck::try_zeroed_box().ok()?,
            correction: Corrections::try_new()?,
        })
    }

    /// The counter-move stored against the opponent's `piece`/`to` move.
    #[inline]
    pub fn counter(&self, piece: usize, to: usize) -> Option<Move> {
        Move::from_u16(self.counter[piece][to])
    }

    #[inline]
    pub fn set_counter(&mut self, piece: usize, to: usize, m: Move) {
        self.counter[piece][to] = m.to_u16();
    }
}

/// Moves `h` toward `bonus` (see the module docs).
#[inline]
pub fn update(h: &mut i16, bonus: i32) {
    let v = i32::from(*h);
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *h = (v + b - v * b.abs() / HISTORY_MAX) as i16;
}

/// What a node's move picker scores moves with: the thread's tables and the continuation rows
/// of the moves one and two plies before (`None` at the root, after a null move, or before the
/// search's first move).
#[derive(Clone, Copy)]
pub struct HistoryView<'a> {
    pub tables: &'a Histories,
    pub continuation: [Option<&'a PieceTo<i16>>; 2],
}

impl<'a> HistoryView<'a> {
    /// The view of `tables` after the moves `prev` (one and two plies back, by piece index and
    /// square index).
    #[inline]
    pub fn new(tables: &'a Histories, prev: [Option<(usize, usize)>; 2]) -> Self {
        HistoryView {
            tables,
            continuation: prev.map(|p| p.map(|(piece, to)| &tables.continuation[piece][to])),
        }
    }

    /// The ordering score of the quiet move `m` (by all three quiet tables).
    #[inline]
    pub fn quiet(&self, pos: &Position, m: Move) -> i32 {
        let Some(p) = pos.piece_at(m.from()) else {
            return 0;
        };
        let (p, to) = (p.index(), m.to().index());
        let mut s = i32::from(self.tables.quiet[p][to]);
        for row in self.continuation.iter().flatten() {
            s += i32::from(row[p][to]);
        }
        s
    }

    /// The ordering score of the capture `m`: the victim's value first (MVV), then the capture
    /// history, then the smaller attacker.
    #[inline]
    pub fn capture(&self, pos: &Position, m: Move) -> i32 {
        let (Some(attacker), Some(victim)) = (pos.piece_at(m.from()), pos.piece_at(m.to())) else {
            return 0;
        };
        let h = self.tables.capture[attacker.index()][m.to().index()][victim.kind().index()];
        eval::piece_value(victim.kind()) * 16 + i32::from(h) / 2
            - eval::piece_value(attacker.kind()) / 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::parameters::Parameters;

    #[test]
    fn updates_stay_bounded_and_move_toward_the_bonus() {
        let mut h = 0i16;
        for _ in 0..1000 {
            update(&mut h, Parameters::DEFAULT.history_bonus(20));
            assert!(i32::from(h) <= HISTORY_MAX);
        }
        assert!(i32::from(h) > HISTORY_MAX * 9 / 10, "{h}");
        for _ in 0..1000 {
            update(&mut h, -Parameters::DEFAULT.history_bonus(20));
            assert!(i32::from(h) >= -HISTORY_MAX);
        }
        assert!(i32::from(h) < -HISTORY_MAX * 9 / 10, "{h}");
        // Larger than the bound: clamped, and still within it.
        update(&mut h, 10 * HISTORY_MAX);
        assert!(i32::from(h).abs() <= HISTORY_MAX);
    }

    #[test]
    fn counters_round_trip_and_start_empty() {
        let mut t = Histories::new();
        assert_eq!(t.counter(3, 40), None);
        let m = Move::from_u16(5 | 20 << 7).unwrap();
        t.set_counter(3, 40, m);
        assert_eq!(t.counter(3, 40), Some(m));
        assert!(t
            .continuation
            .iter()
            .flatten()
            .flatten()
            .flatten()
            .all(|&v| v == 0));
    }
}
