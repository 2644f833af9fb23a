//! Win/draw/loss chances from a score, for `info … wdl W D L` (UCI `UCI_ShowWDL`, UCCI
//! `showwdl`).
//!
//! The model is Stockfish's shape, two logistic curves in the score `s` (cp, side to move):
//! `P(win) = σ((s − A) / B)`, `P(loss) = σ((−s − A) / B)`, the draw the rest. `A` is the score
//! at which a win is as likely as not, `B` how fast it becomes likely. Both were fitted by
//! maximum likelihood to the results of our own self-play games:
//!
//! ```text
//! jiangjun datagen --out wdl.bin --games 160 --nodes 4000 --seed 2026 --threads 2
//! scripts/fit_wdl.py wdl.bin      # 18,919 positions: a 356.2, b 309.4, log-loss 0.863
//! ```
//!
//! One pair for the whole game: the engine's scores are not normalised by material, and the
//! data is too small to fit a pair per phase. The fit is rough near equality (the script's
//! calibration table: from -30 to +30 cp the games were drawn 75% of the time, the model says
//! 52%): two curves of one width cannot make draws both that common at 0 and that rare at
//! ±300 cp. A model with a draw term of its own, fitted on more games, is the next step.

use super::score::is_decisive;

/// Score (cp) at which a win is as likely as not.
pub const A: f64 = 356.0;
/// Spread of the curves (cp).
pub const B: f64 = 309.0;

/// Win, draw and loss chances in per mille (they add up to 1000) for the side whose score
/// this is. Decisive scores (mates, rule verdicts) are certain.
pub fn wdl(score: i32) -> [u32; 3] {
    if is_decisive(score) {
        return if score > 0 {
            [1000, 0, 0]
        } else {
            [0, 0, 1000]
        };
    }
    let s = f64::from(score);
    let sigma = |x: f64| 1.0 / (1.0 + (-x).exp());
    // Rounded to per mille; the draw takes what is left, so the three add up to 1000.
    let win = (1000.0 * sigma((s - A) / B)).round() as u32;
    let loss = (1000.0 * sigma((-s - A) / B)).round() as u32;
    let loss = loss.min(1000 - win);
    [win, 1000 - win - loss, loss]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in, rule_loss_in};

    #[test]
    fn chances_add_up_and_follow_the_score() {
        let mut last_win = 0;
        for s in (-3000..=3000).step_by(25) {
            let [w, d, l] = wdl(s);
            assert_eq!(w + d + l, 1000, "{s}");
            assert!(w >= last_win, "{s}: win chance falls as the score rises");
            last_win = w;
            // Colour symmetry: the other side's view swaps win and loss.
            assert_eq!(wdl(-s), [l, d, w], "{s}");
        }
        let [w, d, l] = wdl(0);
        assert!(
            d > w && d > l && w == l,
            "an equal position is most likely a draw"
        );
        assert!(wdl(A as i32)[0] >= 495 && wdl(A as i32)[0] <= 505);
    }

    #[test]
    fn decisive_scores_are_certain() {
        assert_eq!(wdl(mate_in(3)), [1000, 0, 0]);
        assert_eq!(wdl(mated_in(4)), [0, 0, 1000]);
        assert_eq!(wdl(rule_loss_in(1)), [0, 0, 1000]);
    }
}
