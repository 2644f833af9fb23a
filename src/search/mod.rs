//! Playing strength: the search, its transposition table and time management. The
//! evaluations it calls are [`crate::eval`]'s; the front that owns a game and starts searches
//! for the protocol is [`crate::engine`].
mod alphabeta;
pub mod correction;
pub mod history;
mod iterative;
pub mod levels;
pub mod limits;
pub mod movepick;
pub mod parameters;
mod quiescence;
pub mod repetition;
pub mod report;
pub mod score;
pub mod shared;
pub mod strength;
pub mod threads;
pub mod time;
pub mod tt;
pub mod wdl;
pub mod worker;

/// The positions of `jiangjun bench` (the bench tool), whose node count is the
/// search's signature: middlegames and endgames (the perft suite's positions plus played
/// openings). Kept with the search, whose behaviour they pin down.
pub const BENCH_POSITIONS: [&str; 16] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1r1akabr1/1c7/2n1b1n2/p1p1p3p/6p2/PN3R3/1cP1P1P1P/2C1C1N2/1R7/2BAKAB2 b - - 0 1",
    "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
    "r1b1kabr1/4a1c2/1cn3n2/p1p1pR2p/3NP4/2P6/P5p1P/1C2C4/9/RNBAKAB2 b - - 0 1",
    "3k1a3/2P1aP3/4b1n2/8C/6b2/1R5R1/9/9/1rcpr4/3c1K3 w - - 0 1",
    "6b2/3ka1N2/5a3/p3p4/1n3P3/P1N5C/5nc2/3AB4/9/3AK1B2 b - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w - - 4 3",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 2 2",
    "2bakab2/9/2n1c4/p3p3p/2p6/6R2/P1P1P3P/4C4/9/2BAKAB2 w - - 0 20",
    "4k4/4a4/4ba3/9/2b6/9/9/9/4A4/3AK1R2 w - - 0 40",
    "3k5/9/4b4/9/9/9/4P4/9/4A4/4KA3 w - - 0 50",
];
