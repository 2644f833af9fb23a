//! Input features: which piece stands on which point, seen from each side, and (feature set 2)
//! where that side's own general stands.
//!
//! For perspective `p`, a piece of colour `c` and kind `k` on point `sq` is feature
//! `(their * 7 + k) * 90 + oriented(sq, p)` where `their` is 0 for `p`'s own pieces and 1 for
//! the opponent's. Red sees the board as it is; Black sees it rotated 180 degrees (rank `r` →
//! `9 - r`, file `f` → `8 - f`), so "my rook on my own back rank, left corner" is one feature
//! for both colours and the two perspectives share one weight matrix. Rotating (rather than
//! only reversing the ranks) keeps the trainer's contract simple: Black's view of a position is
//! Red's view of the colour-swapped, rotated position.

use crate::board::{Color, Piece, PieceKind, Position, Square};

/// Input features of one king bucket: 2 (own / their) × 7 kinds × 90 points. Feature set 1 has
/// exactly these; feature set 2 has them once per king bucket.
pub const INPUTS: usize = 2 * 7 * 90;

/// King buckets of feature set 2: the general's six palace points after mirroring (see
/// [`View`]).
pub const KING_BUCKETS: usize = 6;

/// How a network reads a position (the file's "feature set" field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeatureSet {
    /// Set 1: piece kind × point, the two perspectives sharing weights, Black's view rotated.
    Plain,
    /// Set 2: set 1 once per point of the perspective's own general, the nine palace points
    /// folded to [`KING_BUCKETS`] by mirroring the board left to right when the general stands
    /// on the right-hand file. A general's position shapes everything around it (an exposed
    /// general, a pinned horse, a cannon's screen), which one weight per piece and point
    /// cannot express.
    KingBuckets,
}

impl FeatureSet {
    /// The number in the file header.
    pub const fn id(self) -> u32 {
        match self {
            FeatureSet::Plain => 1,
            FeatureSet::KingBuckets => 2,
        }
    }

    /// The set a file header names, if this build knows it.
    pub const fn from_id(id: u32) -> Option<FeatureSet> {
        match id {
            1 => Some(FeatureSet::Plain),
            2 => Some(FeatureSet::KingBuckets),
            _ => None,
        }
    }

    /// King buckets: 1 or [`KING_BUCKETS`].
    pub const fn king_buckets(self) -> usize {
        match self {
            FeatureSet::Plain => 1,
            FeatureSet::KingBuckets => KING_BUCKETS,
        }
    }

    /// Input features in all: [`INPUTS`] per king bucket.
    pub const fn inputs(self) -> usize {
        INPUTS * self.king_buckets()
    }

    /// Whether a move of `perspective`'s own general changes that perspective's features
    /// wholesale (the accumulator is then rebuilt rather than updated).
    #[inline(always)]
    pub const fn king_move_refreshes(self) -> bool {
        matches!(self, FeatureSet::KingBuckets)
    }
}

/// How one perspective reads the board for one position of its own general: which block of
/// features (the king bucket) and whether points are mirrored left to right. Feature set 1 has
/// one view, [`View::PLAIN`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    /// First feature of the king bucket.
    offset: usize,
    mirror: bool,
}

impl View {
    /// Feature set 1's only view.
    pub const PLAIN: View = View {
        offset: 0,
        mirror: false,
    };

    /// `perspective`'s view of `pos` under `set`.
    #[inline]
    pub fn of(set: FeatureSet, pos: &Position, perspective: Color) -> View {
        View::for_king(set, pos.king_square(perspective), perspective)
    }

    /// `perspective`'s view under `set` with its own general on `king` (the trainer reads
    /// records without making a [`Position`]).
    #[inline]
    pub const fn for_king(set: FeatureSet, king: Square, perspective: Color) -> View {
        match set {
            FeatureSet::Plain => View::PLAIN,
            FeatureSet::KingBuckets => View::for_king_point(king_point(king, perspective)),
        }
    }

    /// The view for the general on palace point `point` (0..9, see [`king_point`]): files d,
    /// e, f of the back rank are points 0, 1, 2, the next rank 3, 4, 5, the third 6, 7, 8.
    /// The f-file points are mirrored onto the d-file's buckets.
    #[inline]
    pub const fn for_king_point(point: usize) -> View {
        let (rank, file) = (point / 3, point % 3);
        let mirror = file == 2;
        let file = if mirror { 0 } else { file };
        View {
            offset: (rank * 2 + file) * INPUTS,
            mirror,
        }
    }

    /// The feature of `piece` on `sq` for `perspective` (always below the set's inputs).
    #[inline(always)]
    pub const fn feature(self, perspective: Color, piece: Piece, sq: Square) -> usize {
        // Mirroring before or after rotating Black's view gives the same point.
        let sq = if self.mirror { sq.mirror_file() } else { sq };
        self.offset + feature_index(perspective, piece, sq)
    }

    /// The active features of `pos` for `perspective` in this view, one per piece.
    #[inline]
    pub fn active<'a>(
        self,
        pos: &'a Position,
        perspective: Color,
    ) -> impl Iterator<Item = usize> + 'a {
        pos.occupied().filter_map(move |sq| {
            pos.piece_at(sq)
                .map(|piece| self.feature(perspective, piece, sq))
        })
    }
}

/// The palace point (0..9) of `perspective`'s general on `sq`, counted in `perspective`'s own
/// orientation: rank from its back rank, file d, e, f from its left. A square outside the
/// palace (no legal position has one) counts as the nearest palace point.
#[inline]
pub const fn king_point(sq: Square, perspective: Color) -> usize {
    let o = oriented(sq, perspective);
    let (rank, file) = (o / 9, o % 9);
    let rank = if rank > 2 { 2 } else { rank };
    let file = if file < 3 {
        3
    } else if file > 5 {
        5
    } else {
        file
    };
    rank * 3 + (file - 3)
}

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
            let mut f: Vec<usize> = View::PLAIN.active(&pos, p).collect();
            assert_eq!(f.len(), 32);
            f.sort_unstable();
            f.dedup();
            assert_eq!(f.len(), 32);
            // Both sides see the same army at the start: 16 own pieces, 16 of theirs.
            assert_eq!(f.iter().filter(|&&i| i < 7 * 90).count(), 16);
        }
        let mut red: Vec<usize> = View::PLAIN.active(&pos, Color::Red).collect();
        let mut black: Vec<usize> = View::PLAIN.active(&pos, Color::Black).collect();
        red.sort_unstable();
        black.sort_unstable();
        assert_eq!(red, black, "the start position is symmetric");
    }

    #[test]
    fn the_nine_palace_points_fold_to_six_king_buckets() {
        let mut offsets = Vec::new();
        for point in 0..9 {
            let v = View::for_king_point(point);
            assert_eq!(v.mirror, point % 3 == 2, "point {point}");
            if !v.mirror {
                offsets.push(v.offset);
            } else {
                // The f-file point shares the d-file point's bucket, mirrored.
                assert_eq!(v.offset, View::for_king_point(point - 2).offset);
            }
        }
        offsets.sort_unstable();
        assert_eq!(
            offsets,
            (0..KING_BUCKETS).map(|b| b * INPUTS).collect::<Vec<_>>()
        );
        // Points are counted from each side's own back rank and left.
        let sq = |f, r| Square::from_coords(f, r).unwrap();
        assert_eq!(king_point(sq(3, 0), Color::Red), 0);
        assert_eq!(king_point(sq(4, 0), Color::Red), 1);
        assert_eq!(king_point(sq(5, 2), Color::Red), 8);
        assert_eq!(king_point(sq(5, 9), Color::Black), 0);
        assert_eq!(king_point(sq(4, 9), Color::Black), 1);
        assert_eq!(king_point(sq(3, 7), Color::Black), 8);
        // Off the palace (no legal position): the nearest point, never out of range.
        assert_eq!(king_point(sq(0, 9), Color::Red), 6);
        assert_eq!(king_point(sq(8, 0), Color::Black), 6);
    }

    #[test]
    fn king_bucket_features_are_distinct_in_each_view_and_in_range() {
        let inputs = FeatureSet::KingBuckets.inputs();
        assert_eq!(inputs, 7560);
        for point in 0..9 {
            let view = View::for_king_point(point);
            for p in Color::ALL {
                let mut seen = vec![false; inputs];
                for c in Color::ALL {
                    for k in PieceKind::ALL {
                        for sq in Square::all() {
                            let f = view.feature(p, Piece::new(c, k), sq);
                            assert!(f < inputs && !seen[f]);
                            seen[f] = true;
                        }
                    }
                }
                // Exactly the view's own bucket is used.
                let used: Vec<usize> = (0..inputs).filter(|&f| seen[f]).collect();
                assert_eq!(used.len(), INPUTS);
                assert_eq!(used[0], view.offset);
            }
        }
        // The start position: each general on its e-file back-rank point, bucket 1, and
        // both sides see the same features (the position is symmetric).
        let pos = Position::startpos();
        let red: Vec<usize> = View::of(FeatureSet::KingBuckets, &pos, Color::Red)
            .active(&pos, Color::Red)
            .collect();
        let mut black: Vec<usize> = View::of(FeatureSet::KingBuckets, &pos, Color::Black)
            .active(&pos, Color::Black)
            .collect();
        let mut red_sorted = red.clone();
        red_sorted.sort_unstable();
        black.sort_unstable();
        assert_eq!(red_sorted, black);
        assert!(red.iter().all(|&f| (INPUTS..2 * INPUTS).contains(&f)));
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
