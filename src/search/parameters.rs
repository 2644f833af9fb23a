//! The search's numeric parameters in one place: margins, depth limits and divisors that were
//! set by hand or by games, each with the range a tuner may explore and the step it perturbs
//! by. The search reads them from the [`Parameters`] its [`super::limits::Limits`] carry, so
//! a tuning run can change them per engine (the hidden options `tune_<name>`, see
//! `protocol::options`) while a normal engine uses [`Parameters::DEFAULT`].
//!
//! `jiangjun params` lists them (name, default, minimum, maximum, step) for
//! `scripts/spsa.py`, which tunes them by SPSA through `jiangjun match`. A run of 3,200 games
//! (docs/strength.md) did not beat these defaults.

use once_cell::sync::Lazy;
use std::fmt;
use std::sync::Arc;

/// One parameter as a tuner sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// The perturbation a tuner starts from (SPSA's `c`), about a twentieth of the range.
    pub step: i32,
}

/// A value a parameter cannot take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParameterError {
    Unknown(String),
    OutOfRange {
        name: &'static str,
        min: i32,
        max: i32,
    },
}

impl fmt::Display for ParameterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParameterError::Unknown(name) => write!(f, "no search parameter '{name}'"),
            ParameterError::OutOfRange { name, min, max } => {
                write!(f, "{name} takes an integer from {min} to {max}")
            }
        }
    }
}

impl std::error::Error for ParameterError {}

macro_rules! parameters {
    ($( $(#[doc = $doc:expr])* $name:ident = $default:literal in $min:literal ..= $max:literal step $step:literal; )*) => {
        /// The search's tunable values (see the module docs).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct Parameters {
            $( $(#[doc = $doc])* pub $name: i32, )*
        }

        impl Parameters {
            /// The engine as measured.
            pub const DEFAULT: Parameters = Parameters { $( $name: $default, )* };

            /// Every parameter, in declaration order.
            pub const SPECS: &'static [Spec] = &[
                $( Spec { name: stringify!($name), default: $default, min: $min, max: $max, step: $step }, )*
            ];

            /// The value of the parameter called `name`.
            pub fn get(&self, name: &str) -> Option<i32> {
                match name {
                    $( stringify!($name) => Some(self.$name), )*
                    _ => None,
                }
            }

            /// Sets the parameter called `name`, within its range.
            pub fn set(&mut self, name: &str, value: i32) -> Result<(), ParameterError> {
                let spec = Self::SPECS
                    .iter()
                    .find(|s| s.name == name)
                    .ok_or_else(|| ParameterError::Unknown(name.to_string()))?;
                if !(spec.min..=spec.max).contains(&value) {
                    return Err(ParameterError::OutOfRange { name: spec.name, min: spec.min, max: spec.max });
                }
                match name {
                    $( stringify!($name) => self.$name = value, )*
                    _ => {}
                }
                Ok(())
            }
        }
    };
}

parameters! {
    /// Half-width of the first aspiration window around the previous iteration's score.
    aspiration_delta = 30 in 8..=120 step 5;
    /// Reverse futility pruning: deepest node, margin per ply, and what improving gives back.
    rfp_depth = 6 in 2..=10 step 1;
    rfp_margin = 90 in 30..=250 step 10;
    rfp_improving = 40 in 0..=150 step 10;
    /// Razoring: at this depth or shallower, a node whose static evaluation stands more than
    /// `razor_base + razor_margin * depth * depth` below alpha takes the quiescence search's
    /// verdict where that fails low too (Stockfish: at every depth, with a margin that grows
    /// with the depth squared). 0: off. Depth 3 scored +21 Elo at 25,000 nodes a move on
    /// one opening set, −30 on another and −3 (−18 .. +13) at 20 ms a move
    /// (docs/strength.md).
    razor_depth = 0 in 0..=5 step 1;
    razor_base = 250 in 0..=800 step 25;
    razor_margin = 150 in 0..=600 step 25;
    /// Null move: shallowest node, and the reduction `base + depth / divisor`.
    null_min_depth = 3 in 2..=6 step 1;
    null_base = 3 in 2..=5 step 1;
    null_divisor = 3 in 2..=12 step 1;
    /// Null move: one more ply of reduction per this many centipawns the static evaluation
    /// stands above beta, at most three (Stockfish: about 200, at most six; 0: off, as
    /// measured).
    null_eval_divisor = 0 in 0..=600 step 25;
    /// ProbCut: at this depth or deeper, a capture whose reduced search (depth - 4) beats
    /// beta by `probcut_margin` ends the node (0: off, as measured; Stockfish: depth 4, ~170).
    probcut_depth = 5 in 4..=10 step 1;
    probcut_margin = 0 in 0..=500 step 20;
    /// Internal iterative reduction: shallowest node without a table move that is reduced.
    iir_depth = 4 in 2..=10 step 1;
    /// Late-move pruning: deepest node, and the moves kept at depth d: `base + d * d`.
    lmp_depth = 5 in 2..=10 step 1;
    lmp_base = 4 in 1..=12 step 1;
    /// The share of those moves kept where the evaluation is not improving, in percent (50:
    /// +29 Elo over 100 at 150,000 nodes a move; Pikafish keeps about a fifth).
    lmp_not_improving = 50 in 20..=100 step 5;
    /// Futility pruning of quiet moves: deepest node, `eval + base + margin * depth <= alpha`.
    futility_depth = 5 in 2..=10 step 1;
    futility_base = 120 in 0..=400 step 15;
    futility_margin = 110 in 30..=300 step 10;
    /// Losing captures pruned by static exchange: deepest node, the loss allowed per ply.
    see_capture_depth = 4 in 1..=8 step 1;
    see_capture_margin = 100 in 20..=300 step 10;
    /// Late-move reductions `(base + ln d * ln m / divisor)`, both in hundredths, and the
    /// history score worth one ply more or less.
    lmr_base = 50 in 0..=150 step 8;
    lmr_divisor = 220 in 120..=400 step 12;
    lmr_history_divisor = 14000 in 4000..=40000 step 1500;
    /// Plies more of reduction at a node expected to fail high (Stockfish: 2; 0 as measured),
    /// and for quiet moves where the table's move is a capture (Stockfish: 1; 0 as measured).
    lmr_cut = 0 in 0..=3 step 1;
    lmr_tt_capture = 0 in 0..=2 step 1;
    /// Check extension: the shallowest node in check that is searched a ply deeper (0: every
    /// one, as measured; Pikafish extends only above depth 10).
    check_ext_depth = 0 in 0..=16 step 1;
    /// Singular extensions: the shallowest node that tries them (0: off), and the margin
    /// below the table's score, in centipawns per ply, that the other moves must stay under.
    singular_depth = 0 in 0..=12 step 1;
    singular_margin = 2 in 0..=8 step 1;
    /// How far below that margin the others must stay for a second ply (outside PV nodes).
    singular_double = 30 in 0..=200 step 10;
    /// Quiescence search through the table (1) or without it (0, as measured): probed for
    /// a cutoff, a move and the evaluation, and filled with its results.
    qs_table = 0 in 0..=1 step 1;
    /// Quiescence delta pruning: what a capture may gain beyond its victim's value.
    qs_delta = 200 in 50..=600 step 20;
    /// Correction history: how much of what searches learned about the evaluation's error
    /// by pawn structure, and by material, moves the static evaluation, in percent (0: off,
    /// as measured; see `search::correction`).
    corr_pawn = 0 in 0..=200 step 10;
    corr_material = 0 in 0..=200 step 10;
    /// A cutoff's history bonus: `scale * min(depth * depth, cap)`.
    history_bonus_scale = 32 in 8..=96 step 4;
    history_bonus_cap = 400 in 64..=1200 step 40;
}

impl Default for Parameters {
    fn default() -> Parameters {
        Parameters::DEFAULT
    }
}

/// A late-move reduction table, by depth and move number.
pub type LmrTable = [[i32; 64]; 64];

/// The table of the default parameters, built once: every search but a tuning run's shares it
/// (a search can be a few hundred nodes, as in data generation, where building the table
/// each time would cost as much as the search).
static DEFAULT_LMR: Lazy<Arc<LmrTable>> = Lazy::new(|| build_lmr(&Parameters::DEFAULT));

/// The late-move reduction table for `p`.
pub fn lmr_table(p: &Parameters) -> Arc<LmrTable> {
    let d = &Parameters::DEFAULT;
    if (p.lmr_base, p.lmr_divisor) == (d.lmr_base, d.lmr_divisor) {
        DEFAULT_LMR.clone()
    } else {
        build_lmr(p)
    }
}

fn build_lmr(p: &Parameters) -> Arc<LmrTable> {
    let mut t = [[0; 64]; 64];
    let base = f64::from(p.lmr_base) / 100.0;
    let divisor = f64::from(p.lmr_divisor) / 100.0;
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            *r = (base + (d as f64).ln() * (m as f64).ln() / divisor) as i32;
        }
    }
    Arc::new(t)
}

impl Parameters {
    /// The history bonus (or, negated, malus) a cutoff at `depth` earns.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        self.history_bonus_scale * (depth * depth).min(self.history_bonus_cap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        for (i, s) in Parameters::SPECS.iter().enumerate() {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert!(s.step > 0 && s.step <= s.max - s.min, "{}", s.name);
            assert_eq!(Parameters::DEFAULT.get(s.name), Some(s.default));
            assert!(Parameters::SPECS[..i].iter().all(|t| t.name != s.name));
        }
    }

    #[test]
    fn set_checks_name_and_range() {
        let mut p = Parameters::DEFAULT;
        p.set("rfp_margin", 120).unwrap();
        assert_eq!(p.rfp_margin, 120);
        assert_eq!(p.get("rfp_margin"), Some(120));
        assert!(matches!(
            p.set("rfp_margin", 10_000),
            Err(ParameterError::OutOfRange { .. })
        ));
        assert!(matches!(
            p.set("nonsense", 1),
            Err(ParameterError::Unknown(_))
        ));
        assert_eq!(p.rfp_margin, 120);
    }

    #[test]
    fn default_reductions_are_the_measured_table() {
        let t = lmr_table(&Parameters::DEFAULT);
        assert!(Arc::ptr_eq(&t, &lmr_table(&Parameters::DEFAULT)));
        // 0.5 + ln d ln m / 2.2, as the engine had it.
        assert_eq!(t[1][1], 0);
        assert_eq!(t[10][10], (0.5 + 10f64.ln() * 10f64.ln() / 2.2) as i32);
        assert_eq!(t[63][63], (0.5 + 63f64.ln() * 63f64.ln() / 2.2) as i32);
    }
}
