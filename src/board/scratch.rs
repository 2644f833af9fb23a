//! Cheap scratch copies of a position for the repetition referee.
//!
//! The referee's fast path (`crate::rules::fast`) rolls a copy of the search position back
//! along a repeated cycle to classify its moves. Cloning the whole [`Position`] would copy the
//! game's entire history; this copy keeps only the states needed to undo the cycle.

use super::position::Position;

impl Position {
    /// A copy that keeps only the last `n` history entries (all of them if there are fewer):
    /// enough to undo `n` moves, no more.
    pub fn clone_with_tail(&self, n: usize) -> Position {
        let keep = n.min(self.history.len());
        let mut history = Vec::with_capacity(keep + 8);
        history.extend_from_slice(&self.history[self.history.len() - keep..]);
        Position {
            board: self.board,
            by_kind: self.by_kind,
            by_color: self.by_color,
            occ: self.occ,
            occ_t: self.occ_t,
            side: self.side,
            kings: self.kings,
            key: self.key,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            history,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tail_copy_undoes_its_moves() {
        let mut pos = Position::startpos();
        for m in ["h2e2", "h9g7", "h0g2", "i9h9"] {
            pos.play(m).unwrap();
        }
        let mut copy = pos.clone_with_tail(2);
        assert_eq!(copy, pos);
        assert_eq!(copy.history().len(), 2);
        copy.unmake_move();
        copy.unmake_move();
        pos.unmake_move();
        pos.unmake_move();
        assert_eq!(copy, pos);
        // Nothing more to undo: unmake is a no-op, not a panic.
        copy.unmake_move();
        assert_eq!(copy, pos);
    }
}
