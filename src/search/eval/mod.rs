//! TEMPORARY local material evaluation for compiling the search before the eval branch merges.
use crate::board::{Color, PieceKind, Position};
pub fn piece_value(k: PieceKind) -> i32 {
    [0, 200, 200, 400, 900, 450, 100][k.index()]
}
pub fn evaluate(pos: &Position) -> i32 {
    let mut s = 0;
    for c in Color::ALL {
        let sign = if c == pos.side_to_move() { 1 } else { -1 };
        for k in PieceKind::ALL {
            s += sign * piece_value(k) * pos.pieces(c, k).count() as i32;
        }
    }
    s
}
