//! Perft: the number of leaf nodes of the legal-move tree, the standard test of a move
//! generator. The last ply is counted in bulk ([`Position::count_legal`]) as fast engines do.

use super::move_::Move;
use super::position::Position;

/// Leaf nodes of the legal-move tree of `depth` plies from `pos`.
///
/// ```
/// use jiangjun::board::{perft::perft, Position};
/// let mut pos = Position::startpos();
/// assert_eq!(perft(&mut pos, 2), 1920);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal(),
        _ => {
            let mut n = 0;
            for m in pos.legal_moves() {
                pos.make_move(m);
                n += perft(pos, depth - 1);
                pos.unmake_move();
            }
            n
        }
    }
}

/// Perft split by root move ("divide"), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .into_iter()
        .map(|m| {
            pos.make_move(m);
            let n = perft(pos, depth - 1);
            pos.unmake_move();
            (m, n)
        })
        .collect()
}
