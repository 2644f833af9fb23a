//! Texel-style tuning of the evaluation weights on self-play positions.
//!
//! Each sample is a quiet position with the result of the game it came from (from Red's side).
//! The error is the mean squared difference between the result and `sigmoid(k · eval)`, with
//! the evaluation from Red's side; `k` is first fitted to the untouched weights, then each
//! weight in turn is moved by ±step while the error falls (coordinate descent). The error pass
//! runs in parallel over the samples (rayon). The tuned weights are written as Rust source to
//! paste into `eval/weights.rs`.

use super::eval::{evaluate_with, Weights};
use crate::board::{Color, Position};
use rayon::prelude::*;

/// One training position.
pub struct Sample {
    pub pos: Position,
    /// 1.0 Red won, 0.5 draw, 0.0 Black won.
    pub result: f32,
}

/// Reads `FEN | result` lines (as written by `jiangjun selfplay`); bad lines are counted and
/// skipped.
pub fn parse_samples(text: &str) -> (Vec<Sample>, usize) {
    let mut bad = 0;
    let samples = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let parsed = l.split_once('|').and_then(|(fen, r)| {
                let result: f32 = r.trim().parse().ok()?;
                let mut pos = Position::from_fen(fen.trim()).ok()?;
                pos.compact();
                (0.0..=1.0)
                    .contains(&result)
                    .then_some(Sample { pos, result })
            });
            if parsed.is_none() {
                bad += 1;
            }
            parsed
        })
        .collect();
    (samples, bad)
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

/// Mean squared error of the weights on the samples.
pub fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .par_iter()
        .map(|s| {
            let e = evaluate_with(&s.pos, w) as f64;
            let red = if s.pos.side_to_move() == Color::Red {
                e
            } else {
                -e
            };
            let d = s.result as f64 - sigmoid(k, red);
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The scaling constant that best fits the weights (coarse-to-fine scan).
pub fn fit_k(samples: &[Sample], w: &Weights) -> f64 {
    let mut best = (1.0, f64::MAX);
    let mut step = 0.5;
    let mut centre: f64 = 1.5;
    for _ in 0..4 {
        for i in -4..=4 {
            let k = (centre + i as f64 * step).max(0.05);
            let e = error(samples, w, k);
            if e < best.1 {
                best = (k, e);
            }
        }
        centre = best.0;
        step /= 4.0;
    }
    best.0
}

/// Which weights to tune.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Everything except the piece-square tables (a few dozen numbers).
    Scalars,
    /// All weights, tables included.
    All,
}

fn count_params(w: &mut Weights, scope: Scope) -> usize {
    let mut n = 0;
    w.visit_mut(&mut |name, _, _| {
        if scope == Scope::All || !name.starts_with("pst") {
            n += 1;
        }
    });
    n
}

fn with_param(w: &mut Weights, scope: Scope, target: usize, f: impl FnOnce(&mut i32)) {
    let mut i = 0;
    let mut f = Some(f);
    w.visit_mut(&mut |name, _, v| {
        if scope == Scope::All || !name.starts_with("pst") {
            if i == target {
                if let Some(f) = f.take() {
                    f(v);
                }
            }
            i += 1;
        }
    });
}

/// Coordinate descent; returns the final error. `progress` gets a line per pass.
pub fn tune(
    samples: &[Sample],
    w: &mut Weights,
    k: f64,
    scope: Scope,
    passes: usize,
    progress: impl Fn(&str),
) -> f64 {
    let n = count_params(w, scope);
    let mut best = error(samples, w, k);
    progress(&format!("start: {n} weights, error {best:.6}"));
    for pass in 1..=passes {
        let mut improved = 0;
        for p in 0..n {
            for delta in [4, -4, 1, -1] {
                with_param(w, scope, p, |v| *v += delta);
                let e = error(samples, w, k);
                if e < best {
                    best = e;
                    improved += 1;
                    break;
                }
                with_param(w, scope, p, |v| *v -= delta);
            }
        }
        progress(&format!(
            "pass {pass}: {improved} weights changed, error {best:.6}"
        ));
        if improved == 0 {
            break;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_lowers_the_error_on_biased_data() {
        // Red wins every game in which it has an extra rook: material weights fit that.
        let text = "4k4/9/9/9/9/9/9/9/R8/3K5 w | 1.0\n\
                    4k4/9/9/9/9/9/9/9/R8/3K5 b | 1.0\n\
                    3k5/9/9/9/9/9/9/9/9/4K4 w | 0.5\n\
                    not a fen | 1\n";
        let (samples, bad) = parse_samples(text);
        assert_eq!((samples.len(), bad), (3, 1));
        let mut w = Weights::DEFAULT;
        let k = fit_k(&samples, &w);
        let before = error(&samples, &w, k);
        let after = tune(&samples, &mut w, k, Scope::Scalars, 1, |_| {});
        assert!(after <= before);
    }
}
