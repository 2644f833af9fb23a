//! Score conventions shared by the search, the table and the protocol.
//!
//! Centipawns from the side to move. Mates are `±(MATE - ply)`. Rule verdicts (losing by
//! perpetual check or chase) get a band of their own below mates, `±(RULE_WIN - ply)`, so a real
//! mate is always preferred and callers can tell that a score came from a rule.

/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Mate at the root (ply 0).
pub const MATE: i32 = 31_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A rule win at the root.
pub const RULE_WIN: i32 = 29_000;
/// Scores beyond this (and below `MATE_BOUND`) are rule verdicts.
pub const RULE_BOUND: i32 = RULE_WIN - 1_000;

/// Is this a forced mate score?
#[inline]
pub fn is_mate(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// Is this a rule verdict score (path-dependent)?
#[inline]
pub fn is_rule(score: i32) -> bool {
    let a = score.abs();
    a > RULE_BOUND && a <= MATE_BOUND
}

/// Is this any decisive score (mate or rule)?
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() > RULE_BOUND
}

/// Root-relative to node-relative, for storing.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score + ply
    } else if score < -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

/// Node-relative to root-relative, for probing.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    let ply = ply as i32;
    if score > MATE_BOUND {
        score - ply
    } else if score < -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

/// Moves to mate (positive: we mate) for `info score mate N`, if it is a mate score.
pub fn mate_in_moves(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-((MATE + score) / 2))
    } else {
        None
    }
}
