//! Static exchange evaluation: does a capture sequence on one square win material?
//!
//! The usual swap algorithm, with one xiangqi twist: removing a piece from the board can both
//! add attackers (a rook behind it) and *remove* them (a cannon that used it as a screen) or
//! unblock a horse leg, so the attackers are recomputed from scratch after every capture
//! instead of adding x-rays. Pins are ignored, as in chess engines.

use super::attacks::{self, TRANSPOSE};
use super::move_::Move;
use super::piece::{Color, PieceKind};
use super::position::Position;
use super::square::Square;

/// Exchange values (centipawns); the king is priced so that it is only ever the last capturer.
pub const SEE_VALUE: [i32; 7] = [20_000, 200, 200, 400, 900, 450, 100];

#[inline]
fn value(kind: PieceKind) -> i32 {
    SEE_VALUE[kind.index()]
}

impl Position {
    /// All pieces of colour `c` that attack `sq` on occupancy `occ` (pieces not in `occ`
    /// are treated as captured). On an own piece this is the pieces that guard it. Pins are
    /// ignored. The rules' classifier uses it on the real occupancy.
    pub fn attackers_of(&self, sq: Square, c: Color, occ: u128, occ_t: u128) -> u128 {
        let p = &self.by_kind[c.index()];
        let k = |kind: PieceKind| p[kind.index()] & occ;
        (attacks::rook_attacks(sq, occ, occ_t) & k(PieceKind::Rook))
            | (attacks::cannon_attacks(sq, occ, occ_t) & k(PieceKind::Cannon))
            | (attacks::horse_attackers(sq, occ) & k(PieceKind::Horse))
            | (attacks::pawn_attackers(c, sq) & k(PieceKind::Pawn))
            | (attacks::advisor_moves(sq) & k(PieceKind::Advisor))
            | (attacks::elephant_moves(sq, occ) & k(PieceKind::Elephant))
            | (attacks::king_moves(sq) & k(PieceKind::King))
    }

    /// Is the static exchange value of `m` at least `threshold`?
    pub fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let (from, to) = (m.from(), m.to());
        let Some(mover) = self.board[from.index()] else {
            return false;
        };
        let victim = self.board[to.index()].map_or(0, |p| value(p.kind()));
        let mut swap = victim - threshold;
        if swap < 0 {
            return false;
        }
        swap = value(mover.kind()) - swap;
        if swap <= 0 {
            return true;
        }
        let mut occ = self.occ & !(1u128 << from.index()) | 1u128 << to.index();
        let mut occ_t =
            self.occ_t & !(1u128 << TRANSPOSE[from.index()]) | 1u128 << TRANSPOSE[to.index()];
        let mut stm = mover.color();
        let mut res = true;
        loop {
            stm = !stm;
            let mine = self.attackers_of(to, stm, occ, occ_t);
            if mine == 0 {
                break;
            }
            res = !res;
            // Least valuable attacker first.
            let order = [
                PieceKind::Pawn,
                PieceKind::Advisor,
                PieceKind::Elephant,
                PieceKind::Horse,
                PieceKind::Cannon,
                PieceKind::Rook,
                PieceKind::King,
            ];
            let Some((kind, bb)) = order
                .iter()
                .map(|&k| (k, mine & self.by_kind[stm.index()][k.index()]))
                .find(|&(_, bb)| bb != 0)
            else {
                break;
            };
            if kind == PieceKind::King {
                // The king may only capture if the other side has nothing left to recapture.
                let theirs = self.attackers_of(to, !stm, occ, occ_t);
                return if theirs != 0 { !res } else { res };
            }
            swap = value(kind) - swap;
            if swap < res as i32 {
                break;
            }
            let s = bb.trailing_zeros() as usize;
            occ &= !(1u128 << s);
            occ_t &= !(1u128 << TRANSPOSE[s]);
        }
        res
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_move(mv).unwrap();
        pos.see_ge(m, t)
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended pawn: +100.
        let fen = "4k4/9/9/4p4/9/9/9/9/4R4/3K5 w - - 0 1";
        assert!(see(fen, "e1e6", 100));
        assert!(!see(fen, "e1e6", 101));
        // Rook takes a pawn defended by a rook: loses 800.
        let fen = "4k4/4r4/9/4p4/9/9/9/9/4R4/3K5 w - - 0 1";
        assert!(see(fen, "e1e6", -800));
        assert!(!see(fen, "e1e6", -799));
        // Defended by a cannon over the advisor screen on e8: the rook is lost.
        let fen = "4ck3/4a4/9/4p4/9/9/9/9/4R4/3K5 w - - 0 1";
        assert!(see(fen, "e1e6", -800));
        assert!(!see(fen, "e1e6", -799));
        // Without the screen the cannon cannot recapture.
        let fen = "4ck3/9/9/4p4/9/9/9/9/4R4/3K5 w - - 0 1";
        assert!(see(fen, "e1e6", 100));
        // A horse takes a rook defended by a pawn: +900 - 400.
        let fen = "4k4/9/9/2p6/2r6/9/1N7/9/9/3K5 w - - 0 1";
        assert!(see(fen, "b3c5", 500));
        assert!(!see(fen, "b3c5", 501));
    }
}
