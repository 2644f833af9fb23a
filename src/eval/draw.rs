//! Scaling toward a draw when the side that is ahead cannot win with what it has.
//!
//! Material counts mislead in xiangqi endgames: a rook is worth far more than two advisors and
//! two elephants, yet cannot break them; a cannon with nothing to jump over cannot give check.
//! The evaluation multiplies the leading side's score by [`scale`] / [`SCALE_FULL`]. The rules,
//! for the leading side ("strong") against the other ("weak"):
//!
//! 1. **No attacking piece** (rook, horse, cannon, or a pawn not yet on the last rank): it can
//!    never give mate, so its lead is worth nothing (`scale_no_attackers`, 0). When neither side
//!    has one the position is a dead draw and scores 0. A pawn on the last rank (老兵/底兵) only
//!    moves sideways there and cannot reach a king that stays off that rank.
//! 2. **A lone cannon with no screen of its own** (its only other piece is the king): it needs
//!    something to jump over and its own king can never serve (the kings may not face each
//!    other). Against a bare king that is a dead draw (0); otherwise it must rely on the
//!    defender's pieces as screens, which he can avoid (`scale_cannon_no_screen`).
//! 3. **A lone rook against both advisors and both elephants** (单车难破士象全): a book draw
//!    (`scale_rook_vs_full_defence`).
//! 4. **A lone horse or cannon against the full defensive set**: cannot break it
//!    (`scale_minor_vs_full_defence`).
//! 5. **A lone horse against both advisors** (单马对双士): mostly a draw
//!    (`scale_horse_vs_two_advisors`).
//! 6. **A lone pawn against two or more advisors/elephants**: mostly a draw
//!    (`scale_pawn_vs_defenders`).
//!
//! "Lone" means the leading side has exactly one attacking piece; its advisors and elephants do
//! not count, they cannot attack. With two or more attacking pieces nothing is scaled.

use super::weights::{Weights, SCALE_FULL};
use super::Counts;
use crate::board::PieceKind;

/// The scale, in 64ths, for the score of the side with `strong` material (the side the
/// unscaled score favours) against `weak`.
pub(super) fn scale(strong: &Counts, weak: &Counts, w: &Weights) -> i32 {
    let n = |c: &Counts, k: PieceKind| c.n[k.index()];
    let rooks = n(strong, PieceKind::Rook);
    let horses = n(strong, PieceKind::Horse);
    let cannons = n(strong, PieceKind::Cannon);
    let attackers = rooks + horses + cannons + strong.live_pawns;
    if attackers == 0 {
        return w.scale_no_attackers;
    }
    if attackers > 1 {
        return SCALE_FULL;
    }

    let advisors = n(weak, PieceKind::Advisor);
    let elephants = n(weak, PieceKind::Elephant);
    let full_defence = advisors == 2 && elephants == 2;
    if rooks == 1 {
        return if full_defence {
            w.scale_rook_vs_full_defence
        } else {
            SCALE_FULL
        };
    }
    if cannons == 1 {
        // Own pieces besides the king and the cannon: advisors, elephants, last-rank pawns.
        let screens = n(strong, PieceKind::Advisor)
            + n(strong, PieceKind::Elephant)
            + n(strong, PieceKind::Pawn);
        if screens == 0 {
            let weak_pieces: i32 = weak.n.iter().sum::<i32>() - n(weak, PieceKind::King);
            return if weak_pieces == 0 {
                w.scale_no_attackers
            } else {
                w.scale_cannon_no_screen
            };
        }
        return if full_defence {
            w.scale_minor_vs_full_defence
        } else {
            SCALE_FULL
        };
    }
    if horses == 1 {
        return if full_defence {
            w.scale_minor_vs_full_defence
        } else if advisors == 2 {
            w.scale_horse_vs_two_advisors
        } else {
            SCALE_FULL
        };
    }
    // The one attacker is a pawn.
    if advisors + elephants >= 2 {
        w.scale_pawn_vs_defenders
    } else {
        SCALE_FULL
    }
}
