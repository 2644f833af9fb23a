//! Score conventions shared by the search, the table and the protocol.
//!
//! Centipawns from the side to move. A decisive result — a mate, or a loss by the perpetual
//! rules (2011 rules 25–26) — that falls `k` plies from the root scores `±(MATE - 2k)` for a
//! mate and `±(MATE - 2k - 1)` for a rule verdict. Both kinds are ranked together by distance
//! (issue 16.4): a side facing a long forced mate no longer prefers to forfeit by rule at once,
//! since a later loss always scores higher and a sooner win likewise. At equal distance a mate
//! outranks a rule win. The parity tells the kinds apart, so the table can keep path-dependent
//! rule scores out and the protocol can print them in their own band ([`reported`]).

/// Larger than any score.
pub const INFINITE: i32 = 32_000;
/// Mate at the root (ply 0).
pub const MATE: i32 = 31_000;
/// The farthest decisive result a score can express, in plies (two score points per ply).
const MAX_DECISIVE_PLIES: i32 = 1_000;
/// Scores beyond this are decisive (mates and rule verdicts).
pub const DECISIVE_BOUND: i32 = MATE - 2 * MAX_DECISIVE_PLIES;
/// The protocol prints a rule win `k` plies away as `RULE_REPORTED - k` (a loss negated): the
/// band GUIs and match runners have always seen from us, below any mate.
pub const RULE_REPORTED: i32 = 29_000;

/// We mate `ply` plies from the root.
#[inline]
pub const fn mate_in(ply: usize) -> i32 {
    MATE - 2 * ply as i32
}

/// We are mated (or stalemated, which also loses: 2011 rules 4.1) `ply` plies from the root.
#[inline]
pub const fn mated_in(ply: usize) -> i32 {
    -mate_in(ply)
}

/// The opponent loses by the perpetual rules `ply` plies from the root.
#[inline]
pub const fn rule_win_in(ply: usize) -> i32 {
    mate_in(ply) - 1
}

/// We lose by the perpetual rules `ply` plies from the root.
#[inline]
pub const fn rule_loss_in(ply: usize) -> i32 {
    -rule_win_in(ply)
}

/// Is this any decisive score (mate or rule)?
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() > DECISIVE_BOUND
}

/// Plies from the root to a decisive result, if the score is one.
#[inline]
pub fn decisive_plies(score: i32) -> Option<i32> {
    is_decisive(score).then(|| (MATE - score.abs()) / 2)
}

/// Is this a forced mate score?
#[inline]
pub fn is_mate(score: i32) -> bool {
    is_decisive(score) && (MATE - score.abs()) % 2 == 0
}

/// Is this a rule verdict score (path-dependent)?
#[inline]
pub fn is_rule(score: i32) -> bool {
    is_decisive(score) && (MATE - score.abs()) % 2 == 1
}

/// Root-relative to node-relative, for storing.
#[inline]
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    let shift = 2 * ply as i32;
    if score > DECISIVE_BOUND {
        score + shift
    } else if score < -DECISIVE_BOUND {
        score - shift
    } else {
        score
    }
}

/// Node-relative to root-relative, for probing.
#[inline]
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    let shift = 2 * ply as i32;
    if score > DECISIVE_BOUND {
        score - shift
    } else if score < -DECISIVE_BOUND {
        score + shift
    } else {
        score
    }
}

/// The score as the protocol prints it when it is not a mate: rule verdicts in their own band
/// (`±(RULE_REPORTED - k)`), anything else unchanged.
pub fn reported(score: i32) -> i32 {
    if !is_rule(score) {
        return score;
    }
    let plies = (MATE - score.abs()) / 2;
    (RULE_REPORTED - plies) * score.signum()
}

/// Moves to mate (positive: we mate) for `info score mate N`, if it is a mate score.
pub fn mate_in_moves(score: i32) -> Option<i32> {
    if !is_mate(score) {
        return None;
    }
    let plies = (MATE - score.abs()) / 2;
    Some(if score > 0 {
        (plies + 1) / 2
    } else {
        -(plies / 2)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_losses_and_sooner_wins_rank_higher_whatever_their_kind() {
        // Losses, from the soonest to the latest: each scores above the one before.
        let losses = [
            mated_in(0),
            rule_loss_in(0),
            mated_in(1),
            rule_loss_in(1),
            mated_in(8),
            rule_loss_in(8),
            mated_in(9),
        ];
        assert!(losses.windows(2).all(|w| w[0] < w[1]), "{losses:?}");
        // A rule loss now is worse than being mated several moves later.
        assert!(rule_loss_in(1) < mated_in(6));
        let wins: Vec<i32> = losses.iter().map(|s| -s).collect();
        assert!(wins.windows(2).all(|w| w[0] > w[1]), "{wins:?}");
        for s in losses.iter().chain(&wins) {
            assert!(is_decisive(*s) && is_mate(*s) != is_rule(*s), "{s}");
        }
        assert!(!is_decisive(2_000) && !is_mate(-2_000) && !is_rule(0));
    }

    #[test]
    fn kinds_and_distances_read_back() {
        for ply in [0usize, 1, 7, 120, 999] {
            assert!(is_mate(mate_in(ply)) && is_mate(mated_in(ply)));
            assert!(is_rule(rule_win_in(ply)) && is_rule(rule_loss_in(ply)));
            assert_eq!(decisive_plies(mated_in(ply)), Some(ply as i32));
            assert_eq!(decisive_plies(rule_win_in(ply)), Some(ply as i32));
            assert_eq!(reported(rule_win_in(ply)), RULE_REPORTED - ply as i32);
            assert_eq!(reported(rule_loss_in(ply)), -(RULE_REPORTED - ply as i32));
        }
        assert_eq!(reported(mate_in(3)), mate_in(3));
        assert_eq!(reported(-150), -150);
    }

    #[test]
    fn mate_distances_in_moves() {
        assert_eq!(mate_in_moves(mate_in(1)), Some(1));
        assert_eq!(mate_in_moves(mate_in(3)), Some(2));
        assert_eq!(mate_in_moves(mated_in(2)), Some(-1));
        assert_eq!(mate_in_moves(mated_in(0)), Some(0));
        assert_eq!(mate_in_moves(rule_win_in(1)), None);
        assert_eq!(mate_in_moves(350), None);
    }

    #[test]
    fn table_scores_are_node_relative_and_round_trip() {
        for s in [mate_in(9), mated_in(6), rule_loss_in(4), 123, -456] {
            for ply in [0usize, 1, 5, 100] {
                assert_eq!(score_from_tt(score_to_tt(s, ply), ply), s);
            }
        }
        // A mate 9 plies from the root, stored at ply 4, is a mate 5 plies from that node.
        assert_eq!(score_to_tt(mate_in(9), 4), mate_in(5));
        assert_eq!(score_to_tt(mated_in(6), 2), mated_in(4));
    }
}
