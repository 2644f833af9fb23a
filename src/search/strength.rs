//! Playing strength for people: UCI `UCI_LimitStrength` / `UCI_Elo` and the UCCI
//! `limitstrength` / `elo` options.
//!
//! A weakened engine should lose the way a weaker player does, not by playing a random move
//! now and then: it looks less far ahead (a node budget, so that it misses deep tactics and
//! sees the shallow ones) and, among the moves it thinks good, it does not always find the
//! best (a softmax choice over the ranked root lines, whose temperature is the centipawns a
//! player of that level gives away without noticing). Both numbers come from one table of
//! levels whose Elo figures were measured in games (docs/strength.md, "Strength levels");
//! an Elo between two levels interpolates them.
//!
//! Levels search with one thread, so that a level plays alike on every machine; the clock
//! still applies (a level never thinks longer than its time allows).

use crate::board::Move;
use crate::weighted;
use rand::Rng;

/// One measured level: the Elo it played at, and how it searches and chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrengthLevel {
    pub elo: u32,
    /// Nodes per move: the search stops there, once its first iteration (every candidate
    /// line at depth 1) is finished.
    pub nodes: u64,
    /// Softmax temperature of the move choice, in centipawns.
    pub temperature_cp: u32,
}

/// The levels, weakest first. The `elo` column is what the level scored in the calibration
/// games (`scripts/strength_levels.py`, 140 to 240 games a level against ElephantEye 3.31 at
/// fixed depths 1 to 8; docs/strength.md has the table with its error bars), on a scale where
/// ElephantEye at depth 1 is 1000, with the search and network of [`MEASURED_WITH`]; the
/// other two columns define the level.
pub const LEVELS: [StrengthLevel; 7] = [
    StrengthLevel {
        elo: 930,
        nodes: 100,
        temperature_cp: 500,
    },
    StrengthLevel {
        elo: 980,
        nodes: 300,
        temperature_cp: 250,
    },
    StrengthLevel {
        elo: 1360,
        nodes: 1_000,
        temperature_cp: 120,
    },
    StrengthLevel {
        elo: 1840,
        nodes: 3_000,
        temperature_cp: 60,
    },
    StrengthLevel {
        elo: 2340,
        nodes: 10_000,
        temperature_cp: 30,
    },
    StrengthLevel {
        elo: 2730,
        nodes: 40_000,
        temperature_cp: 12,
    },
    StrengthLevel {
        elo: 2830,
        nodes: 80_000,
        temperature_cp: 4,
    },
];

/// What the levels were measured with. A level is a node budget, so any change to the search
/// (its bench signature) or to the built-in network makes every level play at another
/// strength. The test `the_strength_levels_were_measured_with_this_search_and_network`
/// compares this record with `tests/data/bench_signature` and the built-in network, so a change
/// to either cannot leave the levels' Elo figures silently wrong: it fails until
/// `scripts/strength_levels.py` has been run again and this record and the `elo` column set
/// from its table.
pub const MEASURED_WITH: Measurement = Measurement {
    bench: 235_253,
    network_fnv1a64: 0xe218_7ad7_d731_5f56,
};

/// The search and network a level table was measured with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measurement {
    /// `jiangjun bench`'s node count (the search's signature).
    pub bench: u64,
    /// FNV-1a (64-bit) of the built-in network file's bytes.
    pub network_fnv1a64: u64,
}

/// Lowest Elo a user may ask for.
pub const MIN_ELO: u32 = LEVELS[0].elo;
/// Highest Elo a user may ask for (full strength is `UCI_LimitStrength false`).
pub const MAX_ELO: u32 = LEVELS[LEVELS.len() - 1].elo;

/// Root lines ranked for the choice: enough for a human spread of second-best moves; more
/// would only spend the node budget on moves no level plays.
pub const LINES: usize = 4;

/// Scores this far below the best line are never chosen, whatever the temperature: a level
/// may drift, not hang a rook in one move.
const MAX_LOSS_CP: i32 = 800;

/// A playing strength: the level's search budget and choice temperature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    pub elo: u32,
    pub nodes: u64,
    pub temperature_cp: u32,
}

impl Strength {
    /// The strength of `elo` (clamped to [`MIN_ELO`]..=[`MAX_ELO`]): nodes interpolated
    /// geometrically and temperatures linearly between the two levels around it.
    pub fn from_elo(elo: u32) -> Strength {
        let elo = elo.clamp(MIN_ELO, MAX_ELO);
        let upper = LEVELS
            .iter()
            .position(|l| l.elo >= elo)
            .unwrap_or(LEVELS.len() - 1);
        let hi = LEVELS[upper];
        let lo = LEVELS[upper.saturating_sub(1)];
        let t = if hi.elo == lo.elo {
            1.0
        } else {
            f64::from(elo - lo.elo) / f64::from(hi.elo - lo.elo)
        };
        let nodes = (lo.nodes as f64).powf(1.0 - t) * (hi.nodes as f64).powf(t);
        Strength {
            elo,
            nodes: nodes.round().max(1.0) as u64,
            temperature_cp: (f64::from(lo.temperature_cp) * (1.0 - t)
                + f64::from(hi.temperature_cp) * t)
                .round() as u32,
        }
    }

    /// Picks a move from `lines` (move, score from the mover's side; any order) by a
    /// softmax over the scores. `None` when there is no line.
    pub fn choose(&self, lines: &[(Move, i32)], rng: &mut impl Rng) -> Option<Move> {
        let best = lines.iter().map(|&(_, s)| s).max()?;
        let t = f64::from(self.temperature_cp.max(1));
        let (moves, weights): (Vec<Move>, Vec<f64>) = lines
            .iter()
            .filter(|&&(_, s)| best - s <= MAX_LOSS_CP)
            .map(|&(m, s)| (m, (f64::from(s - best) / t).exp()))
            .unzip();
        weighted::pick(&weights, rng).map(|i| moves[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn levels_grow_in_every_column() {
        for w in LEVELS.windows(2) {
            assert!(w[0].elo < w[1].elo);
            assert!(w[0].nodes < w[1].nodes);
            assert!(w[0].temperature_cp > w[1].temperature_cp);
        }
    }

    #[test]
    fn elo_interpolates_between_levels_and_clamps() {
        let at = Strength::from_elo(LEVELS[2].elo);
        assert_eq!(at.nodes, LEVELS[2].nodes);
        assert_eq!(at.temperature_cp, LEVELS[2].temperature_cp);
        let mid = Strength::from_elo((LEVELS[2].elo + LEVELS[3].elo) / 2);
        assert!(LEVELS[2].nodes < mid.nodes && mid.nodes < LEVELS[3].nodes);
        assert!(mid.temperature_cp < LEVELS[2].temperature_cp);
        assert_eq!(Strength::from_elo(0), Strength::from_elo(MIN_ELO));
        assert_eq!(
            Strength::from_elo(u32::MAX).nodes,
            LEVELS[LEVELS.len() - 1].nodes
        );
    }

    fn moves(n: usize) -> Vec<Move> {
        Position::startpos()
            .legal_moves()
            .into_iter()
            .take(n)
            .collect()
    }

    #[test]
    fn a_cold_choice_plays_the_best_and_a_warm_one_spreads() {
        let m = moves(3);
        let lines = [(m[0], 10), (m[1], 40), (m[2], -700)];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let cold = Strength::from_elo(MAX_ELO);
        let cold = Strength {
            temperature_cp: 1,
            ..cold
        };
        for _ in 0..100 {
            assert_eq!(cold.choose(&lines, &mut rng), Some(m[1]));
        }
        let warm = Strength::from_elo(MIN_ELO);
        let picks: Vec<Move> = (0..400)
            .filter_map(|_| warm.choose(&lines, &mut rng))
            .collect();
        let count = |x: Move| picks.iter().filter(|&&p| p == x).count();
        // Both near-equal moves are played; the one 740 cp down more rarely.
        assert!(count(m[0]) > 100 && count(m[1]) > 100, "{picks:?}");
        assert!(count(m[2]) < count(m[0]) / 2);
        assert_eq!(warm.choose(&[], &mut rng), None);
    }

    #[test]
    fn a_blunder_beyond_the_cap_is_never_chosen() {
        let m = moves(2);
        let lines = [(m[0], 0), (m[1], -MAX_LOSS_CP - 1)];
        let hot = Strength {
            temperature_cp: 10_000,
            ..Strength::from_elo(MIN_ELO)
        };
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        for _ in 0..200 {
            assert_eq!(hot.choose(&lines, &mut rng), Some(m[0]));
        }
    }
}
