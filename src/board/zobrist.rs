//! Zobrist keys: one random 64-bit number per (piece, square) and one for the side to move.
//!
//! The numbers come from a SplitMix64 stream with a fixed seed, computed at compile time, so a
//! position has the same key on every run and every machine (book files and test expectations
//! depend on that).

use super::piece::Piece;
use super::square::{Square, SQUARES};

const SEED: u64 = 0x4a69_616e_676a_756e; // "Jiangjun"

/// SplitMix64's increment (the golden ratio in 64 bits).
pub const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's output function: spreads the bits of `z` over all 64, so that nearby inputs
/// (seeds, indices, small counts) give unrelated outputs. The one copy in the crate: the keys
/// here, the correction history's indices and the data generator's seeds all use it.
pub const fn mix64(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The output of one SplitMix64 step from `state`: the one place the generator is written
/// (the keys here, the data generator's seeds, `jiangjun tb` sampling).
pub const fn splitmix64(state: u64) -> u64 {
    mix64(state.wrapping_add(GOLDEN))
}

/// One step of SplitMix64: the next state and its output.
const fn splitmix(state: u64) -> (u64, u64) {
    (state.wrapping_add(GOLDEN), splitmix64(state))
}

const fn build() -> ([[u64; SQUARES]; 14], u64) {
    let mut t = [[0u64; SQUARES]; 14];
    let mut state = SEED;
    let mut p = 0;
    while p < 14 {
        let mut s = 0;
        while s < SQUARES {
            let (ns, v) = splitmix(state);
            state = ns;
            t[p][s] = v;
            s += 1;
        }
        p += 1;
    }
    let (_, side) = splitmix(state);
    (t, side)
}

const TABLES: ([[u64; SQUARES]; 14], u64) = build();
static PIECE_SQUARE: [[u64; SQUARES]; 14] = TABLES.0;

/// XORed in when Black is to move.
pub const SIDE: u64 = TABLES.1;

/// The key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    PIECE_SQUARE[piece.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_fixed() {
        let mut all: Vec<u64> = PIECE_SQUARE.iter().flatten().copied().collect();
        all.push(SIDE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        // The first key of the stream is pinned so that an accidental change is noticed
        // (book files store these keys).
        assert_eq!(PIECE_SQUARE[0][0], splitmix(SEED).1);
    }
}
