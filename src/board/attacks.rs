//! Attack tables, all built at compile time by `const fn`s.
//!
//! Sliders (rook, cannon, and the king's "flying general" attack along a file) use line
//! lookups: the occupancy of the piece's rank (9 bits, read straight out of the bitboard) or of
//! its file (10 bits, read out of a second, *transposed* occupancy board kept in the position,
//! where square `file * 10 + rank` is bit `file * 10 + rank`) indexes a table of reachable
//! points on that line. This is as fast as magic bitboards for a 9x10 board, needs 60 KB of
//! tables instead of megabytes, and has no magic numbers to get wrong.
//!
//! Leapers use small tables indexed by the occupancy of the blocking points: the four
//! orthogonal neighbours for the horse's legs (马腿), the four diagonal neighbours for the
//! elephant's eyes (象眼) and for a horse attacking *towards* a square (the leg of a horse that
//! attacks square `s` is always a diagonal neighbour of `s`).

use super::piece::Color;
use super::square::{Square, SQUARES};

const fn bit(sq: usize) -> u128 {
    1u128 << sq
}

const fn on_board(f: i32, r: i32) -> bool {
    f >= 0 && f < 9 && r >= 0 && r < 10
}

const fn sq_of(f: i32, r: i32) -> usize {
    (r * 9 + f) as usize
}

const fn in_palace(f: i32, r: i32) -> bool {
    f >= 3 && f <= 5 && (r <= 2 || r >= 7)
}

/// Reachable points along a line of 10 for a rook at `p` with the line occupancy `occ`,
/// including the first occupied point in each direction.
const fn build_line_rook() -> [[u16; 1024]; 10] {
    let mut t = [[0u16; 1024]; 10];
    let mut p = 0;
    while p < 10 {
        let mut occ = 0;
        while occ < 1024 {
            let mut m = 0u16;
            let mut q = p + 1;
            while q < 10 {
                m |= 1 << q;
                if occ >> q & 1 != 0 {
                    break;
                }
                q += 1;
            }
            let mut q = p as i32 - 1;
            while q >= 0 {
                m |= 1 << q;
                if occ >> q & 1 != 0 {
                    break;
                }
                q -= 1;
            }
            t[p][occ] = m;
            occ += 1;
        }
        p += 1;
    }
    t
}

/// The points a cannon at `p` can capture on: the first occupied point after the first screen.
const fn build_line_cannon() -> [[u16; 1024]; 10] {
    let mut t = [[0u16; 1024]; 10];
    let mut p = 0;
    while p < 10 {
        let mut occ = 0;
        while occ < 1024 {
            let mut m = 0u16;
            let mut screen = false;
            let mut q = p + 1;
            while q < 10 {
                if occ >> q & 1 != 0 {
                    if screen {
                        m |= 1 << q;
                        break;
                    }
                    screen = true;
                }
                q += 1;
            }
            screen = false;
            let mut q = p as i32 - 1;
            while q >= 0 {
                if occ >> q & 1 != 0 {
                    if screen {
                        m |= 1 << q;
                        break;
                    }
                    screen = true;
                }
                q -= 1;
            }
            t[p][occ] = m;
            occ += 1;
        }
        p += 1;
    }
    t
}

/// Spreads a 10-bit rank mask onto file a of the board (bit `r` becomes square `r * 9`).
const fn build_file_spread() -> [u128; 1024] {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        let mut v = 0u128;
        while r < 10 {
            if m >> r & 1 != 0 {
                v |= bit(r * 9);
            }
            r += 1;
        }
        t[m] = v;
        m += 1;
    }
    t
}

const fn build_transpose() -> [u8; SQUARES] {
    let mut t = [0u8; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        t[s] = ((s % 9) * 10 + s / 9) as u8;
        s += 1;
    }
    t
}

static LINE_ROOK: [[u16; 1024]; 10] = build_line_rook();
static LINE_CANNON: [[u16; 1024]; 10] = build_line_cannon();
static FILE_SPREAD: [u128; 1024] = build_file_spread();
/// Square index in the transposed (file-major) occupancy board.
pub static TRANSPOSE: [u8; SQUARES] = build_transpose();

/// Orthogonal steps N, S, E, W: bit `i` of a leg index is the point `ORTHO[i]` away.
const ORTHO: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
/// Diagonal steps NE, NW, SE, SW: bit `i` of an eye/leg index is the point `DIAG[i]` away.
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Horse moves from a square for each of the 16 leg occupancies (bit set = leg blocked).
const fn build_horse_moves() -> [[u128; 16]; SQUARES] {
    let mut t = [[0u128; 16]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut idx = 0;
        while idx < 16 {
            let mut v = 0u128;
            let mut d = 0;
            while d < 4 {
                let (df, dr) = ORTHO[d];
                if idx >> d & 1 == 0 && on_board(f + df, r + dr) {
                    // Through leg (df, dr) the horse lands two steps on, one step to either side.
                    let (a, b) = if df == 0 {
                        ((f + 1, r + 2 * dr), (f - 1, r + 2 * dr))
                    } else {
                        ((f + 2 * df, r + 1), (f + 2 * df, r - 1))
                    };
                    if on_board(a.0, a.1) {
                        v |= bit(sq_of(a.0, a.1));
                    }
                    if on_board(b.0, b.1) {
                        v |= bit(sq_of(b.0, b.1));
                    }
                }
                d += 1;
            }
            t[s][idx] = v;
            idx += 1;
        }
        s += 1;
    }
    t
}

/// Squares from which a horse attacks `s`, for each occupancy of the 4 diagonal neighbours of
/// `s` (a horse's leg is always one of them).
const fn build_horse_to() -> [[u128; 16]; SQUARES] {
    let mut t = [[0u128; 16]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut idx = 0;
        while idx < 16 {
            let mut v = 0u128;
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIAG[d];
                if idx >> d & 1 == 0 && on_board(f + df, r + dr) {
                    if on_board(f + 2 * df, r + dr) {
                        v |= bit(sq_of(f + 2 * df, r + dr));
                    }
                    if on_board(f + df, r + 2 * dr) {
                        v |= bit(sq_of(f + df, r + 2 * dr));
                    }
                }
                d += 1;
            }
            t[s][idx] = v;
            idx += 1;
        }
        s += 1;
    }
    t
}

/// Elephant moves for each occupancy of the four eyes; an elephant never crosses the river.
const fn build_elephant_moves() -> [[u128; 16]; SQUARES] {
    let mut t = [[0u128; 16]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut idx = 0;
        while idx < 16 {
            let mut v = 0u128;
            let mut d = 0;
            while d < 4 {
                let (df, dr) = DIAG[d];
                let (tf, tr) = (f + 2 * df, r + 2 * dr);
                if idx >> d & 1 == 0 && on_board(tf, tr) && (r <= 4) == (tr <= 4) {
                    v |= bit(sq_of(tf, tr));
                }
                d += 1;
            }
            t[s][idx] = v;
            idx += 1;
        }
        s += 1;
    }
    t
}

/// One step in `dirs` that stays inside the palace the piece stands in.
const fn build_palace_steps(dirs: [(i32, i32); 4]) -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut d = 0;
        while d < 4 {
            let (tf, tr) = (f + dirs[d].0, r + dirs[d].1);
            if in_palace(f, r) && on_board(tf, tr) && in_palace(tf, tr) {
                t[s] |= bit(sq_of(tf, tr));
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// Pawn moves per colour: forward one; sideways too once across the river.
const fn build_pawn_moves() -> [[u128; SQUARES]; 2] {
    let mut t = [[0u128; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let fwd: i32 = if c == 0 { 1 } else { -1 };
        let mut s = 0;
        while s < SQUARES {
            let f = (s % 9) as i32;
            let r = (s / 9) as i32;
            let crossed = if c == 0 { r >= 5 } else { r <= 4 };
            let mut v = 0u128;
            if on_board(f, r + fwd) {
                v |= bit(sq_of(f, r + fwd));
            }
            if crossed {
                if on_board(f + 1, r) {
                    v |= bit(sq_of(f + 1, r));
                }
                if on_board(f - 1, r) {
                    v |= bit(sq_of(f - 1, r));
                }
            }
            t[c][s] = v;
            s += 1;
        }
        c += 1;
    }
    t
}

/// For each colour and square, the squares from which a pawn of that colour attacks it.
const fn build_pawn_from(moves: &[[u128; SQUARES]; 2]) -> [[u128; SQUARES]; 2] {
    let mut t = [[0u128; SQUARES]; 2];
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < SQUARES {
            let mut to = 0;
            while to < SQUARES {
                if moves[c][s] >> to & 1 != 0 {
                    t[c][to] |= bit(s);
                }
                to += 1;
            }
            s += 1;
        }
        c += 1;
    }
    t
}

const fn build_diag_neighbours() -> [[u128; 4]; SQUARES] {
    let mut t = [[0u128; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let f = (s % 9) as i32;
        let r = (s / 9) as i32;
        let mut d = 0;
        while d < 4 {
            if on_board(f + DIAG[d].0, r + DIAG[d].1) {
                t[s][d] = bit(sq_of(f + DIAG[d].0, r + DIAG[d].1));
            }
            d += 1;
        }
        s += 1;
    }
    t
}

/// The four rays (N, S, E, W) from each square to the board edge, excluding the square.
const fn build_rays() -> [[u128; 4]; SQUARES] {
    let mut t = [[0u128; 4]; SQUARES];
    let mut s = 0;
    while s < SQUARES {
        let mut d = 0;
        while d < 4 {
            let mut f = (s % 9) as i32 + ORTHO[d].0;
            let mut r = (s / 9) as i32 + ORTHO[d].1;
            while on_board(f, r) {
                t[s][d] |= bit(sq_of(f, r));
                f += ORTHO[d].0;
                r += ORTHO[d].1;
            }
            d += 1;
        }
        s += 1;
    }
    t
}

static HORSE_MOVES: [[u128; 16]; SQUARES] = build_horse_moves();
static HORSE_TO: [[u128; 16]; SQUARES] = build_horse_to();
static ELEPHANT_MOVES: [[u128; 16]; SQUARES] = build_elephant_moves();
static ADVISOR_MOVES: [u128; SQUARES] = build_palace_steps(DIAG);
static KING_MOVES: [u128; SQUARES] = build_palace_steps(ORTHO);
const PAWN_MOVES_C: [[u128; SQUARES]; 2] = build_pawn_moves();
static PAWN_MOVES: [[u128; SQUARES]; 2] = PAWN_MOVES_C;
static PAWN_FROM: [[u128; SQUARES]; 2] = build_pawn_from(&PAWN_MOVES_C);
/// The diagonal neighbours (NE, NW, SE, SW) of each square, empty where off the board.
pub static DIAG_NEIGHBOURS: [[u128; 4]; SQUARES] = build_diag_neighbours();
/// Rays N, S, E, W from each square.
pub static RAYS: [[u128; 4]; SQUARES] = build_rays();

/// Occupancy around `sq`: bit `10 + d` of the result is square `sq + d` for `d` in -10..=10.
#[inline(always)]
fn window(occ: u128, sq: Square) -> u32 {
    ((occ << 10) >> sq.index()) as u32
}

/// Leg index (N, S, E, W blocked) for a horse on `sq`.
#[inline(always)]
fn ortho_index(occ: u128, sq: Square) -> usize {
    let w = window(occ, sq);
    ((w >> 19 & 1) | (w >> 1 & 1) << 1 | (w >> 11 & 1) << 2 | (w >> 9 & 1) << 3) as usize
}

/// Diagonal index (NE, NW, SE, SW blocked) around `sq`.
#[inline(always)]
pub fn diag_index(occ: u128, sq: Square) -> usize {
    let w = window(occ, sq);
    ((w >> 20 & 1) | (w >> 18 & 1) << 1 | (w >> 2 & 1) << 2 | (w & 1) << 3) as usize
}

/// Rook moves from `sq` (up to and including the first piece on each ray).
#[inline(always)]
pub fn rook_attacks(sq: Square, occ: u128, occ_t: u128) -> u128 {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    let rank_occ = ((occ >> (r * 9)) & 0x1ff) as usize;
    let file_occ = ((occ_t >> (f * 10)) & 0x3ff) as usize;
    let ra = (LINE_ROOK[f][rank_occ] & 0x1ff) as u128;
    let fa = FILE_SPREAD[LINE_ROOK[r][file_occ] as usize];
    (ra << (r * 9)) | (fa << f)
}

/// Cannon capture points from `sq` (the first piece behind the first screen on each ray).
#[inline(always)]
pub fn cannon_attacks(sq: Square, occ: u128, occ_t: u128) -> u128 {
    let (f, r) = (sq.file() as usize, sq.rank() as usize);
    let rank_occ = ((occ >> (r * 9)) & 0x1ff) as usize;
    let file_occ = ((occ_t >> (f * 10)) & 0x3ff) as usize;
    let ra = (LINE_CANNON[f][rank_occ] & 0x1ff) as u128;
    let fa = FILE_SPREAD[LINE_CANNON[r][file_occ] as usize];
    (ra << (r * 9)) | (fa << f)
}

#[inline(always)]
pub fn horse_moves(sq: Square, occ: u128) -> u128 {
    HORSE_MOVES[sq.index()][ortho_index(occ, sq)]
}

/// Squares from which a horse would attack `sq` given the occupancy.
#[inline(always)]
pub fn horse_attackers(sq: Square, occ: u128) -> u128 {
    HORSE_TO[sq.index()][diag_index(occ, sq)]
}

/// Squares from which a horse attacks `sq` through the diagonal neighbour `d` alone.
#[inline(always)]
pub fn horse_attackers_via(sq: Square, d: usize) -> u128 {
    HORSE_TO[sq.index()][0b1111 ^ (1 << d)]
}

#[inline(always)]
pub fn elephant_moves(sq: Square, occ: u128) -> u128 {
    ELEPHANT_MOVES[sq.index()][diag_index(occ, sq)]
}

#[inline(always)]
pub fn advisor_moves(sq: Square) -> u128 {
    ADVISOR_MOVES[sq.index()]
}

#[inline(always)]
pub fn king_moves(sq: Square) -> u128 {
    KING_MOVES[sq.index()]
}

#[inline(always)]
pub fn pawn_moves(c: Color, sq: Square) -> u128 {
    PAWN_MOVES[c.index()][sq.index()]
}

/// Squares from which a pawn of colour `c` attacks `sq`.
#[inline(always)]
pub fn pawn_attackers(c: Color, sq: Square) -> u128 {
    PAWN_FROM[c.index()][sq.index()]
}

/// Is the point inside either palace?
pub const fn is_palace(sq: Square) -> bool {
    in_palace(sq.file() as i32, sq.rank() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    fn squares(bb: u128) -> Vec<String> {
        let mut v: Vec<String> = (0..90u8)
            .filter(|i| bb >> i & 1 != 0)
            .map(|i| Square::new(i).unwrap().to_string())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn leaper_tables() {
        assert_eq!(squares(horse_moves(sq("b0"), 0)), ["a2", "c2", "d1"]);
        assert_eq!(
            squares(horse_moves(sq("e4"), 1u128 << sq("e5").index())).len(),
            6
        );
        assert_eq!(squares(elephant_moves(sq("c0"), 0)), ["a2", "e2"]);
        // River: from e2's partner g4 no move to rank 6.
        assert_eq!(squares(elephant_moves(sq("g4"), 0)), ["e2", "i2"]);
        assert_eq!(squares(advisor_moves(sq("e1"))), ["d0", "d2", "f0", "f2"]);
        assert_eq!(squares(king_moves(sq("d0"))), ["d1", "e0"]);
        assert_eq!(squares(pawn_moves(Color::Red, sq("c3"))), ["c4"]);
        assert_eq!(
            squares(pawn_moves(Color::Red, sq("c5"))),
            ["b5", "c6", "d5"]
        );
        assert_eq!(
            squares(pawn_moves(Color::Black, sq("c4"))),
            ["b4", "c3", "d4"]
        );
        assert_eq!(squares(pawn_moves(Color::Red, sq("c9"))), ["b9", "d9"]);
        assert_eq!(
            squares(horse_attackers(sq("e0"), 0)),
            ["c1", "d2", "f2", "g1"]
        );
    }

    #[test]
    fn sliders_match_a_scan() {
        // A fixed pseudo-random occupancy: compare with a direct scan.
        let mut x: u64 = 0x9e3779b97f4a7c15;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let occ = ((x as u128) << 26 ^ (x.rotate_left(17) as u128)) & ((1u128 << 90) - 1);
            let mut occ_t = 0u128;
            for (s, t) in TRANSPOSE.iter().enumerate() {
                if occ >> s & 1 != 0 {
                    occ_t |= 1u128 << t;
                }
            }
            for from in Square::all() {
                let mut rook = 0u128;
                let mut cannon = 0u128;
                for (df, dr) in ORTHO {
                    let mut screen = false;
                    let mut cur = from;
                    while let Some(n) = cur.offset(df as i8, dr as i8) {
                        cur = n;
                        let occupied = occ >> n.index() & 1 != 0;
                        if !screen {
                            rook |= 1u128 << n.index();
                        }
                        if occupied {
                            if screen {
                                cannon |= 1u128 << n.index();
                                break;
                            }
                            screen = true;
                        }
                    }
                }
                assert_eq!(rook_attacks(from, occ, occ_t), rook, "rook {from}");
                assert_eq!(cannon_attacks(from, occ, occ_t), cannon, "cannon {from}");
            }
        }
    }
}
