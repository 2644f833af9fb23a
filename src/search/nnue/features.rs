//! Input features: which piece stands on which point, seen from each side.
//!
//! For perspective `p`, a piece of colour `c` and kind `k` on point `sq` is feature
//! `(their * 7 + k) * 90 + oriented(sq, p)` where `their` is 0 for `p`'s own pieces and 1 for
//! the opponent's. Red sees the board as it is; Black sees it rotated 180 degrees (rank `r` →
//! `9 - r`, file `f` → `8 - f`), so "my rook on my own back rank, left corner" is one feature
//! for both colours and the two perspectives share one weight matrix. Rotating (rather than
//! only reversing the ranks) keeps the trainer's contract simple: Black's view of a position is
//! Red's view of the colour-swapped, rotated position.

use crate::board::{Color, Piece, PieceKind, Position, Square};

/// Number of input features: 2 (own / their) × 7 kinds × 90 points.
pub const INPUTS: usize = 2 * 7 * 90;

/// Output buckets, by material phase (see [`output_bucket`]).
pub const OUTPUT_BUCKETS: usize = 4;

/// `sq` as perspective `p` sees it: Red unchanged, Black rotated 180 degrees.
#[inline(always)]
pub const fn oriented(sq: Square, p: Color) -> usize {
    match p {
        Color::Red => sq.index(),
        // (9 - r) * 9 + (8 - f) = 89 - (r * 9 + f).
        Color::Black => 89 - sq.index(),
    }
}

/// The feature of `piece` on `sq` for `perspective` (always `< INPUTS`).
#[inline(always)]
pub const fn feature_index(perspective: Color, piece: Piece, sq: Square) -> usize {
    let their = (piece.color() as usize) ^ (perspective as usize);
    (their * 7 + piece.kind().index()) * 90 + oriented(sq, perspective)
}

/// The active features of `pos` for `perspective`, one per piece (at most 32). The trainer
/// and the reference forward pass read positions through this.
#[inline]
pub fn active_features(pos: &Position, perspective: Color) -> impl Iterator<Item = usize> + '_ {
    pos.occupied().filter_map(move |sq| {
        pos.piece_at(sq)
            .map(|piece| feature_index(perspective, piece, sq))
    })
}

/// The output bucket of a position: the number of rooks, horses and cannons left on the board
/// (0..=12, the same phase measure as the hand-written evaluation) in four bands of about three
/// pieces — 0-3, 4-6, 7-9, 10-12. Pawns, advisors and elephants change the character of the
/// game little, and a count of both sides is the same after swapping colours or mirroring.
#[inline]
pub fn output_bucket(pos: &Position) -> usize {
    let mut n = 0;
    for c in Color::ALL {
        for k in PieceKind::ALL {
            if counts_for_bucket(k) {
                n += pos.pieces(c, k).count() as usize;
            }
        }
    }
    bucket_of(n)
}

/// Whether a piece of this kind counts towards the output bucket (rooks, horses, cannons).
#[inline(always)]
pub const fn counts_for_bucket(kind: PieceKind) -> bool {
    matches!(kind, PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon)
}

/// The output bucket of a position with `n` rooks, horses and cannons of both sides.
#[inline(always)]
pub const fn bucket_of(n: usize) -> usize {
    let b = n * OUTPUT_BUCKETS / 13;
    if b < OUTPUT_BUCKETS {
        b
    } else {
        OUTPUT_BUCKETS - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_feature_is_distinct_and_in_range() {
        for p in Color::ALL {
            let mut seen = vec![false; INPUTS];
            for c in Color::ALL {
                for k in PieceKind::ALL {
                    for sq in Square::all() {
                        let f = feature_index(p, Piece::new(c, k), sq);
                        assert!(f < INPUTS);
                        assert!(!seen[f], "feature {f} twice");
                        seen[f] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
    }

    #[test]
    fn black_sees_the_rotated_board_with_colours_swapped() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                for sq in Square::all() {
                    let rotated = sq.flip_rank().mirror_file();
                    assert_eq!(
                        feature_index(Color::Black, Piece::new(c, k), sq),
                        feature_index(Color::Red, Piece::new(!c, k), rotated)
                    );
                }
            }
        }
        // Red's own king on e0 and Black's own king on e9 are the same feature.
        let e0 = Square::from_coords(4, 0).unwrap();
        let e9 = Square::from_coords(4, 9).unwrap();
        let king = |c| Piece::new(c, PieceKind::King);
        assert_eq!(
            feature_index(Color::Red, king(Color::Red), e0),
            feature_index(Color::Black, king(Color::Black), e9)
        );
        assert_eq!(feature_index(Color::Red, king(Color::Red), e0), 4);
    }

    #[test]
    fn one_active_feature_per_piece() {
        let pos = Position::startpos();
        for p in Color::ALL {
            let mut f: Vec<usize> = active_features(&pos, p).collect();
            assert_eq!(f.len(), 32);
            f.sort_unstable();
            f.dedup();
            assert_eq!(f.len(), 32);
            // Both sides see the same army at the start: 16 own pieces, 16 of theirs.
            assert_eq!(f.iter().filter(|&&i| i < 7 * 90).count(), 16);
        }
        let mut red: Vec<usize> = active_features(&pos, Color::Red).collect();
        let mut black: Vec<usize> = active_features(&pos, Color::Black).collect();
        red.sort_unstable();
        black.sort_unstable();
        assert_eq!(red, black, "the start position is symmetric");
    }

    #[test]
    fn buckets_follow_the_attacking_material() {
        let bucket = |fen| output_bucket(&Position::from_fen(fen).unwrap());
        // 12 rooks, horses and cannons at the start.
        assert_eq!(bucket(crate::board::START_FEN), 3);
        assert_eq!(bucket("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1"), 0);
        assert_eq!(bucket("3k5/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1"), 0);
        // Two rooks, two horses and a cannon: five pieces.
        assert_eq!(bucket("3k5/9/9/9/9/9/9/1N2C2N1/9/R3K3R w - - 0 1"), 1);
        assert_eq!(
            bucket("r2k5/9/9/9/9/9/9/1N2C2N1/9/R3K3R w - - 0 1"),
            1,
            "six pieces"
        );
        assert_eq!(bucket("r2k4r/9/9/9/9/9/9/1N2C2N1/9/R3K3R w - - 0 1"), 2);
    }
}
