//! Match statistics for engine-versus-engine testing.
//!
//! Two samples, both with the normal approximation for the mean score: one
//! side's win / draw / loss counts, games as independent trinomial trials
//! (win 1, draw 1/2, loss 0), and the [`Pentanomial`] counts of game pairs
//! (both colours of one opening), where a pair's two games are not assumed
//! independent. Pairs cancel what an opening and the first move give one
//! side, so their variance is smaller and an SPRT on them decides in fewer
//! games. That is enough for the usual match report: score, logistic Elo
//! with a 95% interval, likelihood of superiority and a sequential
//! probability ratio test (SPRT). No Bayesian draw model is involved, so
//! results depend only on the counts.
//!
//! These are testing statistics, independent of the competition rules'
//! points (2011 rules 13.1 scores a win 2, which only rescales the score).

use crate::board::Wdl;
use std::f64::consts::{FRAC_2_SQRT_PI, LN_10};
use std::fmt;

/// Two-sided 95% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Game counts from one side's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct WdlCounts {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl WdlCounts {
    /// Counts from one side's point of view.
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Self {
        WdlCounts {
            wins,
            draws,
            losses,
        }
    }

    /// Counts one more game.
    pub fn add(&mut self, game: Wdl) {
        let count = match game {
            Wdl::Win => &mut self.wins,
            Wdl::Draw => &mut self.draws,
            Wdl::Loss => &mut self.losses,
        };
        *count = count.saturating_add(1);
    }

    /// Total games, saturating rather than overflowing.
    pub fn games(&self) -> u64 {
        self.wins
            .saturating_add(self.draws)
            .saturating_add(self.losses)
    }

    /// The same match seen from the other side.
    pub fn flipped(&self) -> Self {
        WdlCounts::new(self.losses, self.draws, self.wins)
    }

    /// Games as f64, summed in floating point so huge counts cannot wrap.
    fn total(&self) -> f64 {
        self.wins as f64 + self.draws as f64 + self.losses as f64
    }

    /// Mean score per game in `[0, 1]`; `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.total();
        if n <= 0.0 {
            return None;
        }
        Some((self.wins as f64 + 0.5 * self.draws as f64) / n)
    }

    /// Per-game variance of the score (trinomial); `None` without games.
    pub fn variance(&self) -> Option<f64> {
        let n = self.total();
        let s = self.score()?;
        let w = self.wins as f64 / n;
        let d = self.draws as f64 / n;
        let l = self.losses as f64 / n;
        let v = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s;
        Some(v.max(0.0))
    }
}

/// Game pairs by what one side scored over both colours of one opening:
/// `counts[k]` pairs brought it `k` half-points (0 = two losses, 4 = two
/// wins).
///
/// A pair is one sample whose score is the mean of its two games, so the
/// spread between openings (one favouring Red, one Black) and the
/// correlation of two games from one start drop out of the variance, as in
/// Fishtest's and fastchess's pentanomial statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pentanomial {
    /// Pairs by half-points scored, 0 to 4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair whose two games scored `first` and `second` for the side.
    pub fn add(&mut self, first: Wdl, second: Wdl) {
        let k = first.half_points() + second.half_points();
        self.counts[k] = self.counts[k].saturating_add(1);
    }

    /// Pairs counted, saturating rather than overflowing.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().fold(0u64, |a, &c| a.saturating_add(c))
    }

    /// Pairs as f64, summed in floating point so huge counts cannot wrap.
    fn total(&self) -> f64 {
        self.counts.iter().map(|&c| c as f64).sum()
    }

    /// Mean score per game in `[0, 1]`; `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        let n = self.total();
        if n <= 0.0 {
            return None;
        }
        let points: f64 = (0..5).map(|k| self.counts[k] as f64 * k as f64 / 4.0).sum();
        Some(points / n)
    }

    /// Variance of one pair's mean score; `None` without pairs.
    pub fn variance(&self) -> Option<f64> {
        let n = self.total();
        let s = self.score()?;
        let v: f64 = (0..5)
            .map(|k| self.counts[k] as f64 / n * (k as f64 / 4.0 - s).powi(2))
            .sum();
        Some(v.max(0.0))
    }
}

/// Logistic Elo difference giving expected score `score`.
///
/// `None` outside the open interval (0, 1), where the difference is
/// infinite or meaningless.
pub fn elo_from_score(score: f64) -> Option<f64> {
    if !(score > 0.0 && score < 1.0) {
        return None;
    }
    Some(-400.0 * (1.0 / score - 1.0).log10())
}

/// Expected score for a logistic Elo difference; `None` if not finite.
pub fn score_from_elo(elo: f64) -> Option<f64> {
    if !elo.is_finite() {
        return None;
    }
    Some(1.0 / (1.0 + 10f64.powf(-elo / 400.0)))
}

/// Elo difference with its 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Mean score per game.
    pub score: f64,
    /// Point estimate of the Elo difference.
    pub elo: f64,
    /// Lower end of the 95% interval (may be `-inf` for tiny samples).
    pub lower: f64,
    /// Upper end of the 95% interval (may be `+inf` for tiny samples).
    pub upper: f64,
}

impl EloEstimate {
    /// Half-width of the interval: the usual "± error" figure.
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }
}

/// Elo difference and 95% interval, found by mapping the normal interval of
/// the mean score (score ± 1.96 standard errors) through the logistic curve.
///
/// `None` without games or when the score is 0 or 1 (an infinite Elo).
pub fn elo_estimate(wdl: &WdlCounts) -> Option<EloEstimate> {
    estimate(wdl.score()?, (wdl.variance()? / wdl.total()).sqrt())
}

/// [`elo_estimate`] from game pairs: the standard error is that of the mean
/// of the pairs' scores. `None` without pairs or at a score of 0 or 1.
pub fn elo_estimate_pairs(pairs: &Pentanomial) -> Option<EloEstimate> {
    estimate(pairs.score()?, (pairs.variance()? / pairs.total()).sqrt())
}

fn estimate(score: f64, standard_error: f64) -> Option<EloEstimate> {
    let elo = elo_from_score(score)?;
    let low = score - Z_95 * standard_error;
    let high = score + Z_95 * standard_error;
    let lower = elo_from_score(low).unwrap_or(f64::NEG_INFINITY);
    let upper = elo_from_score(high).unwrap_or(f64::INFINITY);
    Some(EloEstimate {
        score,
        elo,
        lower,
        upper,
    })
}

/// Normalised Elo: the score excess over one half in per-game standard
/// deviations, scaled like logistic Elo near zero (800 / ln 10). It is
/// draw-rate independent, which makes SPRT bounds comparable across time
/// controls.
///
/// `None` without games or when every game had the same result.
pub fn normalized_elo(wdl: &WdlCounts) -> Option<f64> {
    let score = wdl.score()?;
    let sd = wdl.variance()?.sqrt();
    if sd <= 0.0 {
        return None;
    }
    Some((score - 0.5) / sd * (800.0 / LN_10))
}

/// Likelihood of superiority: the probability that the side is stronger,
/// from wins and losses only (draws carry no information on who is better).
///
/// `None` when there are no decisive games.
pub fn los(wdl: &WdlCounts) -> Option<f64> {
    let w = wdl.wins as f64;
    let l = wdl.losses as f64;
    if w + l <= 0.0 {
        return None;
    }
    Some(0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
}

/// The error function, to double precision.
///
/// Std has no `erf`; this uses the everywhere-convergent series
/// erf(x) = 2/√π · e^(−x²) · Σ 2ⁿ x^(2n+1) / (1·3·…·(2n+1)), whose terms are
/// all positive (no cancellation). Beyond |x| = 6, erf is ±1 in f64.
fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let a = x.abs();
    if a >= 6.0 {
        return 1f64.copysign(x);
    }
    let two_a2 = 2.0 * a * a;
    let mut term = a;
    let mut sum = a;
    for n in 1..1000u32 {
        term *= two_a2 / f64::from(2 * n + 1);
        sum += term;
        if term <= sum * 1e-17 {
            break;
        }
    }
    (FRAC_2_SQRT_PI * (-a * a).exp() * sum).min(1.0).copysign(x)
}

/// Units of the SPRT hypotheses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EloModel {
    /// Logistic Elo (expected score 1 / (1 + 10^(−elo/400))).
    Logistic,
    /// Normalised Elo, see [`normalized_elo`].
    Normalized,
}

/// Invalid SPRT parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SprtError {
    /// alpha and beta must lie in (0, 1) with alpha + beta < 1.
    InvalidErrorRates {
        /// Requested false-positive rate.
        alpha: f64,
        /// Requested false-negative rate.
        beta: f64,
    },
    /// elo0 and elo1 must be finite with elo0 < elo1.
    InvalidHypotheses {
        /// Null-hypothesis Elo.
        elo0: f64,
        /// Alternative-hypothesis Elo.
        elo1: f64,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::InvalidErrorRates { alpha, beta } => write!(
                f,
                "alpha {alpha} and beta {beta} must be in (0, 1) with alpha + beta < 1"
            ),
            SprtError::InvalidHypotheses { elo0, elo1 } => {
                write!(f, "elo0 {elo0} must be finite and below elo1 {elo1}")
            }
        }
    }
}

impl std::error::Error for SprtError {}

/// Outcome of checking an SPRT.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// Neither bound reached: keep playing.
    Continue,
    /// Lower bound reached: the data favour elo0 (H0).
    AcceptH0,
    /// Upper bound reached: the data favour elo1 (H1).
    AcceptH1,
}

/// Log-likelihood ratio and decision for the current counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtResult {
    /// Log-likelihood ratio of H1 over H0.
    pub llr: f64,
    /// Accept H0 at or below this: ln(beta / (1 − alpha)).
    pub lower: f64,
    /// Accept H1 at or above this: ln((1 − beta) / alpha).
    pub upper: f64,
    /// What the ratio says.
    pub decision: SprtDecision,
}

/// Sequential probability ratio test of H0: elo = elo0 against
/// H1: elo = elo1.
///
/// The log-likelihood ratio uses the normal approximation of the mean
/// score with the observed per-game variance (a generalised SPRT), so it
/// needs no draw model: for score means μ0, μ1 under the hypotheses and
/// observed mean μ over N games with variance σ²,
/// LLR = N (μ1 − μ0)(2μ − μ0 − μ1) / (2σ²).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    model: EloModel,
}

impl Sprt {
    /// A test with false-positive rate `alpha` and false-negative rate
    /// `beta`, hypotheses in `model` units.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: EloModel,
    ) -> Result<Self, SprtError> {
        let rate_ok = |p: f64| p > 0.0 && p < 1.0;
        if !(rate_ok(alpha) && rate_ok(beta) && alpha + beta < 1.0) {
            return Err(SprtError::InvalidErrorRates { alpha, beta });
        }
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(SprtError::InvalidHypotheses { elo0, elo1 });
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// Null-hypothesis Elo.
    pub fn elo0(&self) -> f64 {
        self.elo0
    }

    /// Alternative-hypothesis Elo.
    pub fn elo1(&self) -> f64 {
        self.elo1
    }

    /// Wald's stopping bounds (lower, upper) from alpha and beta.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio; `None` without games or when all games
    /// had the same result (zero variance leaves the approximation
    /// undefined).
    pub fn llr(&self, wdl: &WdlCounts) -> Option<f64> {
        self.llr_of(wdl.total(), wdl.score()?, wdl.variance()?)
    }

    /// The log-likelihood ratio from game pairs: the same test with the
    /// pairs as samples, which is the formula above with N = 2 × pairs and
    /// a per-game variance of 2 × the pair variance. `None` without pairs
    /// or when every pair scored the same.
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> Option<f64> {
        self.llr_of(2.0 * pairs.total(), pairs.score()?, 2.0 * pairs.variance()?)
    }

    /// The ratio for `n` games of mean `score` and per-game `variance`.
    fn llr_of(&self, n: f64, score: f64, variance: f64) -> Option<f64> {
        if variance <= 0.0 {
            return None;
        }
        let llr = match self.model {
            EloModel::Logistic => {
                let s0 = score_from_elo(self.elo0)?;
                let s1 = score_from_elo(self.elo1)?;
                n * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
            }
            EloModel::Normalized => {
                // Same formula in units of the per-game standard
                // deviation, where the hypotheses are fixed numbers.
                let scale = 800.0 / LN_10;
                let t = (score - 0.5) / variance.sqrt();
                let t0 = self.elo0 / scale;
                let t1 = self.elo1 / scale;
                n * (t1 - t0) * (2.0 * t - t0 - t1) / 2.0
            }
        };
        llr.is_finite().then_some(llr)
    }

    /// LLR, bounds and decision for the counts so far; `None` when
    /// [`Sprt::llr`] is.
    pub fn test(&self, wdl: &WdlCounts) -> Option<SprtResult> {
        self.decide(self.llr(wdl)?)
    }

    /// LLR, bounds and decision for game pairs; `None` when
    /// [`Sprt::llr_pairs`] is.
    pub fn test_pairs(&self, pairs: &Pentanomial) -> Option<SprtResult> {
        self.decide(self.llr_pairs(pairs)?)
    }

    fn decide(&self, llr: f64) -> Option<SprtResult> {
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        };
        Some(SprtResult {
            llr,
            lower,
            upper,
            decision,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Reference values of erf to 16 digits.
        let table = [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (3.0, 0.999_977_909_503_001_4),
            (5.0, 0.999_999_999_998_462_5),
            (-1.5, -0.966_105_146_475_310_8),
        ];
        for (x, expected) in table {
            assert!(close(erf(x), expected, 1e-14), "erf({x}) = {}", erf(x));
        }
        assert_eq!(erf(7.0), 1.0);
        assert_eq!(erf(f64::NEG_INFINITY), -1.0);
        assert!(erf(f64::NAN).is_nan());
    }

    #[test]
    fn score_and_variance() {
        let wdl = WdlCounts::new(60, 0, 40);
        assert_eq!(wdl.games(), 100);
        assert_eq!(wdl.score(), Some(0.6));
        assert!(close(wdl.variance().unwrap(), 0.24, 1e-15));
        let drawn = WdlCounts::new(0, 10, 0);
        assert_eq!(drawn.score(), Some(0.5));
        assert_eq!(drawn.variance(), Some(0.0));
        assert_eq!(WdlCounts::default().score(), None);
        assert_eq!(WdlCounts::new(3, 2, 1).flipped(), WdlCounts::new(1, 2, 3));
        let mut counted = WdlCounts::default();
        for g in [Wdl::Win, Wdl::Loss, Wdl::Draw, Wdl::Win] {
            counted.add(g);
        }
        assert_eq!(counted, WdlCounts::new(2, 1, 1));
        assert_eq!(WdlCounts::new(u64::MAX, u64::MAX, 1).games(), u64::MAX);
    }

    #[test]
    fn elo_of_known_scores() {
        // 60% is the textbook +70.4 Elo; 75% is +190.8.
        assert!(close(elo_from_score(0.6).unwrap(), 70.436_503_622, 1e-8));
        assert!(close(elo_from_score(0.75).unwrap(), 190.848_501_888, 1e-8));
        assert!(close(elo_from_score(0.25).unwrap(), -190.848_501_888, 1e-8));
        assert_eq!(elo_from_score(0.5), Some(0.0));
        assert_eq!(elo_from_score(0.0), None);
        assert_eq!(elo_from_score(1.0), None);
        assert_eq!(elo_from_score(f64::NAN), None);
        assert!(close(score_from_elo(70.436_503_622).unwrap(), 0.6, 1e-11));
        assert_eq!(score_from_elo(f64::INFINITY), None);
    }

    #[test]
    fn elo_interval_matches_hand_computation() {
        // 60-0-40: σ² = 0.24, SE = sqrt(0.0024) = 0.048990, score interval
        // 0.6 ± 0.096018 = [0.503982, 0.696018] -> [+2.767, +143.909] Elo.
        let e = elo_estimate(&WdlCounts::new(60, 0, 40)).unwrap();
        assert!(close(e.elo, 70.4365, 1e-4));
        assert!(close(e.lower, 2.766_873, 1e-5));
        assert!(close(e.upper, 143.909_233, 1e-5));
        assert!(close(e.margin(), 70.571_180, 1e-5));
        // 40-20-40: σ² = 0.4 * 0.25 * 2 = 0.2, SE = sqrt(0.002) -> ±61.54.
        let e = elo_estimate(&WdlCounts::new(40, 20, 40)).unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.margin(), 61.542_713, 1e-5));
        // 130-100-70: 60% again, σ² = (130*.16 + 100*.01 + 70*.36)/300
        // = 0.156667 -> ±32.53.
        let e = elo_estimate(&WdlCounts::new(130, 100, 70)).unwrap();
        assert!(close(e.elo, 70.4365, 1e-4));
        assert!(close(e.margin(), 32.525_770, 1e-5));
    }

    #[test]
    fn elo_interval_edge_cases() {
        assert_eq!(elo_estimate(&WdlCounts::default()), None);
        assert_eq!(elo_estimate(&WdlCounts::new(5, 0, 0)), None);
        assert_eq!(elo_estimate(&WdlCounts::new(0, 0, 5)), None);
        // One win one loss: the 95% interval of the score leaves (0, 1).
        let e = elo_estimate(&WdlCounts::new(1, 0, 1)).unwrap();
        assert_eq!(e.elo, 0.0);
        assert_eq!(e.lower, f64::NEG_INFINITY);
        assert_eq!(e.upper, f64::INFINITY);
        // All draws: zero-width interval.
        let e = elo_estimate(&WdlCounts::new(0, 7, 0)).unwrap();
        assert_eq!((e.lower, e.upper), (0.0, 0.0));
    }

    #[test]
    fn los_known_values() {
        // 60 wins, 40 losses: (W − L) / sqrt(W + L) = 2 standard
        // deviations, so LOS = Φ(2) = 0.977250.
        assert!(close(
            los(&WdlCounts::new(60, 17, 40)).unwrap(),
            0.977_249_868,
            1e-9
        ));
        assert_eq!(los(&WdlCounts::new(40, 5, 40)), Some(0.5));
        assert!(close(
            los(&WdlCounts::new(10, 0, 0)).unwrap(),
            0.999_217_299,
            1e-9
        ));
        assert!(close(
            los(&WdlCounts::new(40, 0, 60)).unwrap(),
            1.0 - 0.977_249_868,
            1e-9
        ));
        assert_eq!(los(&WdlCounts::new(0, 9, 0)), None);
    }

    #[test]
    fn normalized_elo_value() {
        // 130-100-70: (0.6 − 0.5) / sqrt(0.156667) * 800 / ln 10 = 87.778.
        let n = normalized_elo(&WdlCounts::new(130, 100, 70)).unwrap();
        assert!(close(n, 87.778_064, 1e-5));
        assert_eq!(normalized_elo(&WdlCounts::new(0, 4, 0)), None);
    }

    #[test]
    fn sprt_bounds_from_error_rates() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        let (lower, upper) = sprt.bounds();
        // ln(0.05 / 0.95) = −2.944439.
        assert!(close(lower, -2.944_438_979, 1e-9));
        assert!(close(upper, 2.944_438_979, 1e-9));
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.1, EloModel::Logistic).unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, (0.1f64 / 0.95).ln(), 1e-12));
        assert!(close(upper, (0.9f64 / 0.05).ln(), 1e-12));
        assert_eq!((sprt.elo0(), sprt.elo1()), (0.0, 5.0));
    }

    #[test]
    fn sprt_logistic_llr_and_decisions() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        // 130-100-70: μ0 = 0.5, μ1 = 0.507195, μ = 0.6, σ² = 0.156667:
        // 300 * 0.007195 * 0.192805 / 0.313333 = 1.3282.
        let r = sprt.test(&WdlCounts::new(130, 100, 70)).unwrap();
        assert!(close(r.llr, 1.328_215, 1e-5));
        assert_eq!(r.decision, SprtDecision::Continue);
        let r = sprt.test(&WdlCounts::new(3000, 4000, 2700)).unwrap();
        assert!(close(r.llr, 5.646_638, 1e-5));
        assert_eq!(r.decision, SprtDecision::AcceptH1);
        let r = sprt.test(&WdlCounts::new(2700, 4000, 3000)).unwrap();
        assert!(close(r.llr, -9.070_432, 1e-5));
        assert_eq!(r.decision, SprtDecision::AcceptH0);
        // Equal wins and losses sit below the midpoint, leaning to H0.
        assert!(sprt.llr(&WdlCounts::new(1000, 1000, 1000)).unwrap() < 0.0);
    }

    #[test]
    fn sprt_normalized_llr() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Normalized).unwrap();
        // 130-100-70: t = 0.1 / 0.395811 = 0.252646, t1 = 5 ln 10 / 800:
        // 300 * t1 * (2t − t1) / 2 = 1.0597.
        let r = sprt.test(&WdlCounts::new(130, 100, 70)).unwrap();
        assert!(close(r.llr, 1.059_693, 1e-5));
        assert_eq!(r.decision, SprtDecision::Continue);
        let r = sprt.test(&WdlCounts::new(3000, 4000, 2700)).unwrap();
        assert!(close(r.llr, 4.632_164, 1e-5));
        assert_eq!(r.decision, SprtDecision::AcceptH1);
        let r = sprt.test(&WdlCounts::new(2700, 4000, 3000)).unwrap();
        assert!(close(r.llr, -6.641_086, 1e-5));
        assert_eq!(r.decision, SprtDecision::AcceptH0);
    }

    fn pairs(counts: [u64; 5]) -> Pentanomial {
        Pentanomial { counts }
    }

    #[test]
    fn pentanomial_counts_score_and_variance() {
        use Wdl::*;
        let mut p = Pentanomial::default();
        p.add(Win, Loss);
        p.add(Draw, Win);
        p.add(Loss, Loss);
        p.add(Win, Win);
        assert_eq!(p.counts, [1, 0, 1, 1, 1]);
        assert_eq!(p.pairs(), 4);
        // 10-20-40-20-10: mean 1/2, variance (2·10·¼² ·4 + 2·20·⅛²·4)/100
        // = (2.5 + 1.25 + 1.25 + 2.5) / 100.
        let p = pairs([10, 20, 40, 20, 10]);
        assert_eq!(p.score(), Some(0.5));
        assert!(close(p.variance().unwrap(), 0.075, 1e-15));
        assert_eq!(Pentanomial::default().score(), None);
        assert_eq!(Pentanomial::default().variance(), None);
    }

    #[test]
    fn pair_elo_interval_matches_hand_computation() {
        // 5-20-40-25-10: mean 0.5375, variance 0.06421875, standard error
        // sqrt(0.06421875 / 100) -> [−8.457, +61.196] around +26.107 Elo.
        let e = elo_estimate_pairs(&pairs([5, 20, 40, 25, 10])).unwrap();
        assert!(close(e.elo, 26.106_693, 1e-5));
        assert!(close(e.lower, -8.457_048, 1e-5));
        assert!(close(e.upper, 61.195_802, 1e-5));
        let e = elo_estimate_pairs(&pairs([10, 20, 40, 20, 10])).unwrap();
        assert!(close(e.margin(), 37.442_060, 1e-5));
        assert_eq!(elo_estimate_pairs(&pairs([0, 0, 0, 0, 3])), None);
    }

    #[test]
    fn sprt_on_pairs() {
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        // 5-20-40-25-10: 2·100 · 0.007195 · (2·0.5375 − 1.007195)
        // / (2 · 2 · 0.06421875) = 0.37984.
        let r = sprt.test_pairs(&pairs([5, 20, 40, 25, 10])).unwrap();
        assert!(close(r.llr, 0.379_844, 1e-5));
        assert_eq!(r.decision, SprtDecision::Continue);
        let r = sprt.test_pairs(&pairs([50, 300, 800, 450, 100])).unwrap();
        assert!(close(r.llr, 8.402_710, 1e-5));
        assert_eq!(r.decision, SprtDecision::AcceptH1);
        let r = sprt.test_pairs(&pairs([100, 450, 800, 300, 50])).unwrap();
        assert!(close(r.llr, -10.225_542, 1e-5));
        assert_eq!(r.decision, SprtDecision::AcceptH0);
        // Openings that favour one colour: most pairs split a win and a
        // loss. The pairs see through that spread; the games one by one do
        // not, and are less sure of the same results.
        let (mut p, mut games) = (Pentanomial::default(), WdlCounts::default());
        let mut play = |a: Wdl, b: Wdl, times: u32| {
            for _ in 0..times {
                p.add(a, b);
                games.add(a);
                games.add(b);
            }
        };
        play(Wdl::Win, Wdl::Loss, 300);
        play(Wdl::Win, Wdl::Draw, 60);
        play(Wdl::Draw, Wdl::Loss, 30);
        play(Wdl::Draw, Wdl::Draw, 40);
        let (by_pairs, by_games) = (sprt.llr_pairs(&p).unwrap(), sprt.llr(&games).unwrap());
        assert!(
            by_pairs > by_games && by_games > 0.0,
            "{by_pairs} {by_games}"
        );
        // Every pair split one win, one loss: no spread, no test.
        assert_eq!(sprt.test_pairs(&pairs([0, 0, 9, 0, 0])), None);
        assert_eq!(sprt.test_pairs(&Pentanomial::default()), None);
    }

    #[test]
    fn sprt_rejects_bad_parameters_and_degenerate_counts() {
        let bad_rates = [(0.0, 0.05), (0.05, 1.0), (0.6, 0.5), (f64::NAN, 0.05)];
        for (alpha, beta) in bad_rates {
            assert!(matches!(
                Sprt::new(0.0, 5.0, alpha, beta, EloModel::Logistic),
                Err(SprtError::InvalidErrorRates { .. })
            ));
        }
        for (elo0, elo1) in [(5.0, 0.0), (1.0, 1.0), (f64::NEG_INFINITY, 0.0)] {
            assert!(matches!(
                Sprt::new(elo0, elo1, 0.05, 0.05, EloModel::Normalized),
                Err(SprtError::InvalidHypotheses { .. })
            ));
        }
        let e = Sprt::new(5.0, 0.0, 0.05, 0.05, EloModel::Logistic).unwrap_err();
        assert!(!e.to_string().is_empty());
        let sprt = Sprt::new(0.0, 5.0, 0.05, 0.05, EloModel::Logistic).unwrap();
        assert_eq!(sprt.test(&WdlCounts::default()), None);
        assert_eq!(sprt.test(&WdlCounts::new(0, 20, 0)), None);
        assert_eq!(sprt.test(&WdlCounts::new(20, 0, 0)), None);
        assert!(sprt
            .test(&WdlCounts::new(u64::MAX, u64::MAX, u64::MAX))
            .is_some());
    }
}
