//! A random draw in proportion to weights: the book's choice among its moves and a limited
//! strength's choice among its lines both make one, so that both read the generator the same
//! way (one `f64` a draw) and a seed replays either.

use rand::Rng;

/// The index drawn from `weights` (each ≥ 0, their sum finite and above 0), with one number
/// from `rng`; `None` when there is nothing to draw from. Rounding can leave the draw past
/// the last weight: the last index is returned then.
pub fn pick(weights: &[f64], rng: &mut impl Rng) -> Option<usize> {
    let last = weights.len().checked_sub(1)?;
    let total: f64 = weights.iter().sum();
    let mut x = rng.random::<f64>() * total;
    for (i, &w) in weights.iter().enumerate() {
        if x < w {
            return Some(i);
        }
        x -= w;
    }
    Some(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn draws_follow_the_weights() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut seen = [0u32; 3];
        for _ in 0..30_000 {
            seen[pick(&[1.0, 0.0, 3.0], &mut rng).unwrap()] += 1;
        }
        assert_eq!(seen[1], 0, "a zero weight is never drawn");
        let share = f64::from(seen[2]) / 30_000.0;
        assert!((share - 0.75).abs() < 0.02, "{seen:?}");
        assert_eq!(pick(&[], &mut rng), None);
        assert_eq!(pick(&[2.0], &mut rng), Some(0));
    }
}
