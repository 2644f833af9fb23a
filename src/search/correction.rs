//! Correction history: what the searches of this game found about the static evaluation's
//! error, by pawn structure and by material (Stockfish's `correctionHistory`). When a search
//! of a node ends with a score the evaluation did not foresee, the difference is learned for
//! the node's pawn structure and material balance (for the side to move); later static
//! evaluations of positions with the same pawns or the same material are moved by what was
//! learned, so that pruning by the static evaluation (reverse futility, null move, futility,
//! quiescence's stand pat) errs less where the evaluation is known to err.
//!
//! The weights are search parameters (`corr_pawn`, `corr_material`, in percent); both 0 (the
//! default until games show a gain) skip the tables entirely, so the search is unchanged.

use super::score::DECISIVE_BOUND;
use crate::board::zobrist::{mix64, GOLDEN};
use crate::board::{Color, PieceKind, Position};

/// Entries per table and side: pawn structures and materials are hashed into it.
pub const SIZE: usize = 16_384;

/// Units of an entry per centipawn.
const GRAIN: i32 = 32;

/// The bound of every entry: 256 cp.
const LIMIT: i32 = 256 * GRAIN;

/// One table: an entry per side to move and hashed key.
pub type Table = [[i16; SIZE]; 2];

/// The two tables of one search thread.
pub struct Corrections {
    pawn: Box<Table>,
    material: Box<Table>,
}

impl Default for Corrections {
    fn default() -> Corrections {
        Corrections::new()
    }
}

/// Spreads the bits of `x` over all 64 (SplitMix64's output function after a multiply).
#[inline]
fn mix(x: u64) -> u64 {
    mix64(x.wrapping_mul(GOLDEN))
}

/// The table index of `pos`'s pawn structure (both sides' soldiers, where they stand).
#[inline]
pub fn pawn_index(pos: &Position) -> usize {
    let red = pos.pieces(Color::Red, PieceKind::Pawn).0;
    let black = pos.pieces(Color::Black, PieceKind::Pawn).0;
    let h =
        mix(red as u64 ^ mix((red >> 64) as u64 ^ mix(black as u64 ^ mix((black >> 64) as u64))));
    h as usize & (SIZE - 1)
}

/// The table index of `pos`'s material: how many of each kind each side has.
#[inline]
pub fn material_index(pos: &Position) -> usize {
    let mut counts = 0u64;
    for c in Color::ALL {
        for k in PieceKind::ALL {
            counts = counts << 3 | u64::from(pos.pieces(c, k).count().min(7));
        }
    }
    mix(counts) as usize & (SIZE - 1)
}

impl Corrections {
    /// Empty tables (a failed allocation aborts, as `Box::new`'s does).
    pub fn new() -> Corrections {
        Corrections::try_new()
            .unwrap_or_else(|| std::alloc::handle_alloc_error(std::alloc::Layout::new::<Self>()))
    }

    /// Empty tables, or `None` if the memory cannot be had (a search then runs fewer threads
    /// instead of failing).
    pub fn try_new() -> Option<Corrections> {
        Some(Corrections {
            pawn: bytemuck::try_zeroed_box().ok()?,
            material: bytemuck::try_zeroed_box().ok()?,
        })
    }

    /// What to add to `pos`'s static evaluation, in centipawns: the two entries weighted by
    /// `pawn_weight` and `material_weight` percent.
    #[inline]
    pub fn correction(&self, pos: &Position, pawn_weight: i32, material_weight: i32) -> i32 {
        let side = pos.side_to_move().index();
        let p = i32::from(self.pawn[side][pawn_index(pos)]);
        let m = i32::from(self.material[side][material_index(pos)]);
        (p * pawn_weight + m * material_weight) / (100 * GRAIN)
    }

    /// Learns that a search of `pos` to `depth` found `score` where the (corrected) static
    /// evaluation said `eval`: each entry moves by a share of the difference, from a 64th
    /// (depth 1) to a quarter (depth 16 and more), so that the two together, which both
    /// correct the next evaluation, close the gap in steps without overshooting it; with the
    /// same gravity as the move histories, so old knowledge fades.
    #[inline]
    pub fn update(&mut self, pos: &Position, depth: i32, score: i32, eval: i32) {
        let side = pos.side_to_move().index();
        let weight = depth.clamp(1, 16);
        let bonus = ((score - eval) * GRAIN * weight / 64).clamp(-LIMIT / 4, LIMIT / 4);
        for e in [
            &mut self.pawn[side][pawn_index(pos)],
            &mut self.material[side][material_index(pos)],
        ] {
            let v = i32::from(*e);
            *e = (v + bonus - v * bonus.abs() / LIMIT) as i16;
        }
    }
}

/// `eval` moved by `correction`, kept clear of the decisive scores (a corrected evaluation is
/// still an evaluation).
#[inline]
pub fn corrected(eval: i32, correction: i32) -> i32 {
    (eval + correction).clamp(-DECISIVE_BOUND + 1, DECISIVE_BOUND - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn learning_moves_the_evaluation_toward_what_searches_found_and_stays_bounded() {
        let mut c = Corrections::new();
        let p = Position::startpos();
        assert_eq!(c.correction(&p, 100, 100), 0);
        // The evaluation says 0; searches keep finding +60, and learn from what the corrected
        // evaluation still misses, as the search does: the correction settles near +60.
        for _ in 0..200 {
            let eval = corrected(0, c.correction(&p, 100, 100));
            c.update(&p, 8, 60, eval);
        }
        let both = c.correction(&p, 100, 100);
        assert!((50..=60).contains(&both), "{both}");
        let pawns = c.correction(&p, 100, 0);
        assert!((25..=30).contains(&pawns), "{pawns}");
        assert_eq!(c.correction(&p, 0, 0), 0);
        // The other side to move has learned nothing.
        let mut q = p.clone();
        q.make_move("h2e2".parse::<Move>().unwrap());
        assert_eq!(c.correction(&q, 100, 100), 0);
        // Huge differences are clamped: entries stay within their bound.
        for _ in 0..1000 {
            c.update(&p, 60, 30_000, -30_000);
        }
        assert!(c.correction(&p, 100, 0) <= 256);
        for _ in 0..1000 {
            c.update(&p, 60, -30_000, 30_000);
        }
        assert!(c.correction(&p, 100, 0) >= -256);
        assert_eq!(corrected(DECISIVE_BOUND, 500), DECISIVE_BOUND - 1);
    }

    #[test]
    fn keys_follow_pawns_and_material_only() {
        let a = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        // A horse moved: same pawns, same material.
        let b = pos("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        // A soldier advanced: other pawns, same material.
        let c = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/2P6/P3P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        // A chariot gone: same pawns, other material.
        let d = pos("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1");
        assert_eq!(pawn_index(&a), pawn_index(&b));
        assert_eq!(material_index(&a), material_index(&b));
        assert_ne!(pawn_index(&a), pawn_index(&c));
        assert_eq!(material_index(&a), material_index(&c));
        assert_eq!(pawn_index(&a), pawn_index(&d));
        assert_ne!(material_index(&a), material_index(&d));
    }
}
