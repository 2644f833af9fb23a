//! Where a position lives in its table: one number per placement of the pieces.
//!
//! Each kind of piece of each side is a group whose pieces can only stand on that kind's points
//! ([`crate::board::position::reachable`]: a general in its palace, advisors on 5 points,
//! elephants on 7, pawns on the 55 points a pawn can reach, the others anywhere); a group of
//! `k` alike pieces on `n` points takes `C(n, k)` numbers (the combinatorial number system), and
//! the groups' numbers are digits of one mixed-radix index. The board's left-right mirror is a
//! symmetry of the game, so Red's general is kept on files d and e (6 points, not 9): a position
//! with it on file f is stored as its mirror. Entries where two pieces share a point exist in
//! the index and are marked illegal by the generator.

use crate::board::position::reachable;
use crate::board::square::SQUARES;
use crate::board::Position;
use crate::board::{Color, Piece, PieceKind, Square};

use super::material::{Material, KINDS};

/// The most pieces a table holds (both generals included).
pub const MAX_PIECES: usize = super::material::MAX_TABLE_PIECES as usize;

/// The most entries a side to move a table may have: 20 times the largest table of the
/// one-attacker set (`KRAABB-KAABB`, 214 million), and more than one machine could generate.
pub const MAX_ENTRIES: u64 = 1 << 32;

/// A board in the table's frame: what stands on each point.
pub type Board = [Option<Piece>; SQUARES];

/// `C(n, k)` for `n <= 90`, `k <= 5`.
const fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// `C(n, k)` for every `n <= 90` (a group's points) and `k <= MAX_PIECES`, built at compile
/// time: the index is computed for every move the generator looks at, and the loop above
/// divides once for each of `k` factors.
static BINOMIALS: [[u64; MAX_PIECES + 1]; SQUARES + 1] = {
    let mut t = [[0u64; MAX_PIECES + 1]; SQUARES + 1];
    let mut n = 0;
    while n <= SQUARES {
        let mut k = 0;
        while k <= MAX_PIECES {
            t[n][k] = binomial(n as u64, k as u64);
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)` from the table.
#[inline(always)]
fn choose(n: usize, k: usize) -> u64 {
    BINOMIALS[n][k]
}

/// One kind of piece of one side and the points it can stand on.
#[derive(Clone, Debug)]
struct Group {
    piece: Piece,
    count: usize,
    /// The points, ascending.
    domain: Vec<u8>,
    /// The position of each point in `domain`, or `u8::MAX`.
    slot: [u8; SQUARES],
    /// The place value of this group's digit.
    stride: u64,
}

/// The index of one table: its groups, in the order pieces are listed in a placement.
#[derive(Clone, Debug)]
pub struct Layout {
    pub material: Material,
    groups: Vec<Group>,
    pieces: usize,
    size: u64,
}

/// The pieces of one entry: their points, group by group (the order of [`Layout::pieces`]).
pub type Placement = [u8; MAX_PIECES];

impl Layout {
    /// The index of `material`'s table (its first side as Red). Every [`Material`] a table
    /// can be made of has at most [`MAX_PIECES`] pieces ([`Material::parse`] refuses more).
    pub fn new(material: Material) -> Layout {
        assert!(
            material.piece_count() as usize <= MAX_PIECES,
            "{material}: too many pieces"
        );
        let mut groups = Vec::new();
        let mut add =
            |color: Color, kind: PieceKind, count: usize, only: &dyn Fn(Square) -> bool| {
                let piece = Piece::new(color, kind);
                let domain: Vec<u8> = Square::all()
                    .filter(|&s| reachable(piece, s) && only(s))
                    .map(|s| s.index() as u8)
                    .collect();
                let mut slot = [u8::MAX; SQUARES];
                for (i, &s) in domain.iter().enumerate() {
                    slot[s as usize] = i as u8;
                }
                groups.push(Group {
                    piece,
                    count,
                    domain,
                    slot,
                    stride: 0,
                });
            };
        // Red's general on files d and e only: the mirror of the rest.
        add(Color::Red, PieceKind::King, 1, &|s: Square| s.file() <= 4);
        add(Color::Black, PieceKind::King, 1, &|_| true);
        for color in Color::ALL {
            for kind in KINDS {
                let n = material.sides[color.index()].count(kind) as usize;
                if n > 0 {
                    add(color, kind, n, &|_| true);
                }
            }
        }
        // Saturating: a signature of eleven pieces can name more entries than a u64 holds;
        // such a layout is refused by its size (`MAX_ENTRIES`), never used.
        let mut size = 1u64;
        for g in groups.iter_mut().rev() {
            g.stride = size;
            size = size.saturating_mul(binomial(g.domain.len() as u64, g.count as u64));
        }
        let pieces = groups.iter().map(|g| g.count).sum();
        Layout {
            material,
            groups,
            pieces,
            size,
        }
    }

    /// Entries per side to move.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// How many pieces a placement lists.
    pub fn pieces(&self) -> usize {
        self.pieces
    }

    /// The piece at each place of a placement.
    pub fn piece_at_place(&self) -> [Option<Piece>; MAX_PIECES] {
        let mut out = [None; MAX_PIECES];
        let mut i = 0;
        for g in &self.groups {
            for _ in 0..g.count {
                out[i] = Some(g.piece);
                i += 1;
            }
        }
        out
    }

    /// The points of entry `idx`'s pieces (alike pieces in ascending order).
    pub fn decode(&self, mut idx: u64) -> Placement {
        let mut out = [0u8; MAX_PIECES];
        let mut at = 0;
        for g in &self.groups {
            let mut digit = idx / g.stride;
            idx %= g.stride;
            if g.count == 1 {
                // C(c, 1) = c: the digit is the point's place in the domain.
                out[at] = g.domain[digit as usize];
                at += 1;
                continue;
            }
            // The combinatorial number system, largest element first.
            for k in (1..=g.count).rev() {
                let mut c = k - 1;
                while choose(c + 1, k) <= digit {
                    c += 1;
                }
                digit -= choose(c, k);
                out[at + k - 1] = g.domain[c];
            }
            at += g.count;
        }
        out
    }

    /// The entry of a placement (alike pieces in any order), mirrored when Red's general is on
    /// file f; `None` when a piece is off its group's points.
    pub fn encode(&self, placement: &Placement) -> Option<u64> {
        let mirror = placement[0] % 9 > 4;
        let mut idx = 0u64;
        let mut at = 0;
        let slot_of = |g: &Group, sq: u8| {
            let sq = if mirror {
                sq - sq % 9 + (8 - sq % 9)
            } else {
                sq
            };
            g.slot.get(sq as usize).copied().filter(|&s| s != u8::MAX)
        };
        for g in &self.groups {
            if g.count == 1 {
                // C(c, 1) = c.
                idx += u64::from(slot_of(g, placement[at])?) * g.stride;
                at += 1;
                continue;
            }
            let mut slots = [0u8; MAX_PIECES];
            for (j, s) in slots.iter_mut().enumerate().take(g.count) {
                *s = slot_of(g, placement[at + j])?;
            }
            let slots = &mut slots[..g.count];
            slots.sort_unstable();
            let digit: u64 = slots
                .iter()
                .enumerate()
                .map(|(j, &c)| choose(c as usize, j + 1))
                .sum();
            idx += digit * g.stride;
            at += g.count;
        }
        Some(idx)
    }

    /// The board of a placement; `None` when two pieces share a point.
    pub fn board(&self, placement: &Placement) -> Option<Board> {
        let mut board = [None; SQUARES];
        let pieces = self.piece_at_place();
        for i in 0..self.pieces {
            let cell = &mut board[placement[i] as usize];
            if cell.is_some() {
                return None;
            }
            *cell = pieces[i];
        }
        Some(board)
    }

    /// The entry of a board holding exactly this table's pieces (in the table's colours), by
    /// scanning it: the tests' check of [`Layout::index_of_position`].
    #[cfg(test)]
    pub fn index_of(&self, board: &Board) -> Option<u64> {
        self.encode(&self.placement_of(board)?)
    }

    /// The entry of a position holding exactly this table's pieces, its colours swapped (and
    /// the board turned over) with `flip`, read from the position's piece sets (the tests
    /// hold it to a scan of the board in the table's frame, `index_of`).
    pub fn index_of_position(&self, pos: &Position, flip: bool) -> Option<u64> {
        let mut out = [0u8; MAX_PIECES];
        let mut at = 0;
        for g in &self.groups {
            let color = if flip {
                !g.piece.color()
            } else {
                g.piece.color()
            };
            let set = pos.pieces(color, g.piece.kind());
            if set.count() as usize != g.count {
                return None;
            }
            for sq in set {
                let sq = if flip { sq.flip_rank() } else { sq };
                out[at] = sq.index() as u8;
                at += 1;
            }
        }
        if pos.occupied().count() as usize != at {
            return None;
        }
        self.encode(&out)
    }

    /// The placement of a board holding exactly this table's pieces (in the table's colours).
    #[cfg(test)]
    fn placement_of(&self, board: &Board) -> Option<Placement> {
        let mut out = [0u8; MAX_PIECES];
        let mut at = 0;
        for g in &self.groups {
            let mut n = 0;
            for (s, p) in board.iter().enumerate() {
                if *p == Some(g.piece) {
                    if n == g.count {
                        return None;
                    }
                    out[at + n] = s as u8;
                    n += 1;
                }
            }
            if n != g.count {
                return None;
            }
            at += g.count;
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(binomial(5, 2), 10);
        assert_eq!(binomial(7, 2), 21);
        assert_eq!(binomial(90, 1), 90);
        assert_eq!(binomial(3, 5), 0);
    }

    #[test]
    fn sizes_use_the_points_pieces_can_reach() {
        let size = |s: &str| Layout::new(Material::parse(s).unwrap()).size();
        assert_eq!(size("K-K"), 6 * 9);
        assert_eq!(size("KP-K"), 6 * 9 * 55);
        assert_eq!(size("KR-KAABB"), 6 * 9 * 90 * 10 * 21);
        assert_eq!(size("KRR-K"), 6 * 9 * (90 * 89 / 2));
    }

    #[test]
    fn every_entry_decodes_and_encodes_back() {
        for name in ["KP-K", "KAB-KP", "KPP-KA"] {
            let layout = Layout::new(Material::parse(name).unwrap());
            for idx in 0..layout.size() {
                let p = layout.decode(idx);
                assert_eq!(layout.encode(&p), Some(idx), "{name} {idx}");
            }
        }
    }

    #[test]
    fn mirrored_placements_share_an_entry() {
        let layout = Layout::new(Material::parse("KR-KA").unwrap());
        let idx = 12_345 % layout.size();
        let p = layout.decode(idx);
        let mut m = p;
        for s in m.iter_mut().take(layout.pieces()) {
            *s = *s - *s % 9 + (8 - *s % 9);
        }
        if p[0] % 9 == 3 {
            assert_eq!(layout.encode(&m), Some(idx));
        }
        // Pieces off their points have no entry.
        let mut off = p;
        off[3] = 0; // the black advisor on a1
        assert_eq!(layout.encode(&off), None);
    }

    /// The entry read from a position's piece sets is the one of its board turned into the
    /// table's frame, for both sides holding the table's first side (a flip), and `None` for
    /// a position with other pieces.
    #[test]
    fn a_position_has_the_entry_of_its_board() {
        use crate::board::Position;
        use crate::tablebase::table::entry_of;
        for name in ["KR-KA", "KP-KAB", "KNP-KB", "KC-KC"] {
            let layout = Layout::new(Material::parse(name).unwrap().canonical());
            for idx in (0..layout.size()).step_by(97) {
                let Some(board) = layout.board(&layout.decode(idx)) else {
                    continue;
                };
                for side in Color::ALL {
                    let Ok(pos) = Position::from_placement(board, side, 0, 1) else {
                        continue;
                    };
                    let e = entry_of(&pos);
                    assert_eq!(
                        layout.index_of_position(&pos, false),
                        layout.index_of(&e.board)
                    );
                    // The same position with the colours swapped and the board turned over.
                    let mut turned = [None; SQUARES];
                    for (s, p) in board.iter().enumerate() {
                        if let Some(p) = p {
                            let sq = Square::new(s as u8).unwrap().flip_rank();
                            turned[sq.index()] = Some(Piece::new(!p.color(), p.kind()));
                        }
                    }
                    let Ok(flipped) = Position::from_placement(turned, !side, 0, 1) else {
                        continue;
                    };
                    let e = entry_of(&flipped);
                    let flip = Material::of(&flipped) != layout.material;
                    assert_eq!(flip, name != "KC-KC", "{name}");
                    assert_eq!(
                        layout.index_of_position(&flipped, flip),
                        layout.index_of(&e.board)
                    );
                    assert_eq!(e.side, if flip { side } else { !side });
                }
            }
            let other = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
            assert_eq!(layout.index_of_position(&other, false), None);
        }
    }
}
