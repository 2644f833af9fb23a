//! The natural move limit (2011 rules 4.2.4, 22.2): 60 rounds without a capture draw, with
//! checks beyond the allowance discounted; the Asian rules' 50-move variant is the other row of
//! [`super::rule_set::PROFILES`].

use super::rule_set::{CheckScope, LimitRule, RuleSet};
use super::ruling::Clause;
use crate::board::Color;
use crate::board::GameResult;

/// What the natural-limit check needs to know about one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    /// The side that made the move.
    pub side: Color,
    /// The move captured (resets the count, 4.2.4).
    pub capture: bool,
    /// The move gave check (22.2).
    pub check: bool,
}

impl PlyRecord {
    /// A move without capture or check.
    pub const fn quiet(side: Color) -> Self {
        PlyRecord {
            side,
            capture: false,
            check: false,
        }
    }

    /// A checking move without capture.
    pub const fn check(side: Color) -> Self {
        PlyRecord {
            side,
            capture: false,
            check: true,
        }
    }

    /// A capture.
    pub const fn capture(side: Color) -> Self {
        PlyRecord {
            side,
            capture: true,
            check: false,
        }
    }
}

/// The natural-limit count behind a ruling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitStatus {
    /// `Some(`[`GameResult::Draw`]`)` once the limit is reached, else [`None`].
    pub outcome: Option<GameResult>,
    /// 4.2.4, or 22.2 when discounted checks are what keeps the count short.
    pub clause: Clause,
    /// Plies since the last capture.
    pub window: u32,
    /// Plies discounted for checks beyond the allowance (two per check: its round).
    pub excluded: u32,
    /// `window - excluded`.
    pub counted: u32,
    /// Plies needed.
    pub needed: u32,
}

/// The natural limit under `rules`' default [`LimitRule`]. `carried` is the number of plies
/// without capture before `history` starts (a FEN's half-move clock; their checks are
/// unknown and not discounted); `history` is the game's plies, oldest first. `claimant` is
/// the side asking for the draw (22.2), or `None` for an automatic referee. Mate on the board
/// takes precedence (4.1.1); the caller checks that first.
pub fn natural_limit(
    rules: RuleSet,
    carried: u32,
    history: &[PlyRecord],
    claimant: Option<Color>,
) -> LimitStatus {
    natural_limit_with(rules.profile().limit, carried, history, claimant)
}

/// [`natural_limit`] under an explicit [`LimitRule`] (e.g. a lowered limit, 4.2.4).
pub fn natural_limit_with(
    rule: LimitRule,
    carried: u32,
    history: &[PlyRecord],
    claimant: Option<Color>,
) -> LimitStatus {
    let (plies, carried) = match history.iter().rposition(|p| p.capture) {
        Some(i) => (history.get(i + 1..).unwrap_or_default(), 0),
        None => (history, carried),
    };
    let checks = |side: Color| {
        let n = plies.iter().filter(|p| p.side == side && p.check).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    };
    let excess = |side: Color| checks(side).saturating_sub(rule.counted_checks);
    let (red, black) = (excess(Color::Red), excess(Color::Black));
    let discounted = match (rule.scope, claimant) {
        (CheckScope::Claimant, Some(side)) => excess(side),
        // Either side may claim; the claim that counts most is upheld.
        (CheckScope::Claimant, None) => red.min(black),
        (CheckScope::BusiestSide, _) => red.max(black),
    };
    let window = carried.saturating_add(u32::try_from(plies.len()).unwrap_or(u32::MAX));
    let excluded = discounted.saturating_mul(2).min(window);
    let counted = window.saturating_sub(excluded);
    let (outcome, clause) = if counted >= rule.plies {
        (Some(GameResult::Draw), Clause::Art4_2_4)
    } else if excluded > 0 && window >= rule.plies {
        (None, Clause::Art22_2)
    } else {
        (None, Clause::Art4_2_4)
    };
    LimitStatus {
        outcome,
        clause,
        window,
        excluded,
        counted,
        needed: rule.plies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CXA: RuleSet = RuleSet::Cxa2011;
    const AXF: RuleSet = RuleSet::Axf;

    // ---- natural limit ----------------------------------------------------------------

    /// `n` plies alternating red/black from red, all quiet.
    fn quiet(n: usize) -> Vec<PlyRecord> {
        (0..n)
            .map(|i| PlyRecord::quiet(if i % 2 == 0 { Color::Red } else { Color::Black }))
            .collect()
    }

    #[test]
    fn sixty_rounds_without_capture_draw_4_2_4() {
        let s = natural_limit(CXA, 0, &quiet(120), None);
        assert_eq!(
            (s.outcome, s.clause),
            (Some(GameResult::Draw), Clause::Art4_2_4)
        );
        assert_eq!((s.window, s.counted, s.needed), (120, 120, 120));
        assert_eq!(natural_limit(CXA, 0, &quiet(119), None).outcome, None);
        // A FEN clock carries plies in (own_natural_limit_120_plies: 118 + 2).
        assert_eq!(
            natural_limit(CXA, 118, &quiet(2), None).outcome,
            Some(GameResult::Draw)
        );
        // pyffish draws at 100 plies.
        assert_eq!(
            natural_limit(AXF, 0, &quiet(100), None).outcome,
            Some(GameResult::Draw)
        );
        assert_eq!(natural_limit(AXF, 0, &quiet(99), None).outcome, None);
        // Organisers may lower the limit.
        let forty = LimitRule::CXA2011.with_rounds(40);
        assert_eq!(
            natural_limit_with(forty, 0, &quiet(80), None).outcome,
            Some(GameResult::Draw)
        );
    }

    #[test]
    fn a_capture_restarts_the_count_4_2_4() {
        let mut h = quiet(130);
        h[10] = PlyRecord::capture(Color::Red);
        let s = natural_limit(CXA, 500, &h, None);
        assert_eq!((s.window, s.outcome), (119, None));
        h.push(PlyRecord::quiet(Color::Black));
        assert_eq!(
            natural_limit(CXA, 500, &h, None).outcome,
            Some(GameResult::Draw)
        );
        // A capture on the last ply leaves an empty window.
        let h = [
            PlyRecord::quiet(Color::Red),
            PlyRecord::capture(Color::Black),
        ];
        assert_eq!(natural_limit(CXA, 500, &h, None).window, 0);
    }

    #[test]
    fn claimants_checks_count_for_ten_moves_22_2() {
        // 120 plies; red checks on 12 of its moves.
        let mut h = quiet(120);
        for i in 0..12 {
            h[4 * i] = PlyRecord::check(Color::Red);
        }
        // Red's claim: two checks beyond the tenth cost their two rounds.
        let s = natural_limit(CXA, 0, &h, Some(Color::Red));
        assert_eq!((s.outcome, s.clause), (None, Clause::Art22_2));
        assert_eq!((s.excluded, s.counted), (4, 116));
        // Black's claim: red's checks are not black's.
        assert_eq!(
            natural_limit(CXA, 0, &h, Some(Color::Black)).outcome,
            Some(GameResult::Draw)
        );
        // Automatic referee: black could claim, so it is a draw.
        assert_eq!(
            natural_limit(CXA, 0, &h, None).outcome,
            Some(GameResult::Draw)
        );
        // Ten checks are free.
        let mut h = quiet(120);
        for i in 0..10 {
            h[4 * i] = PlyRecord::check(Color::Red);
        }
        assert_eq!(
            natural_limit(CXA, 0, &h, Some(Color::Red)).outcome,
            Some(GameResult::Draw)
        );
    }

    #[test]
    fn pyffish_discounts_the_busier_side() {
        let mut h = quiet(102);
        for i in 0..11 {
            h[2 * i + 1] = PlyRecord::check(Color::Black);
        }
        // Black's 11th check removes one round: 102 - 2 = 100, still a draw.
        let s = natural_limit(AXF, 0, &h, Some(Color::Red));
        assert_eq!(
            (s.excluded, s.counted, s.outcome),
            (2, 100, Some(GameResult::Draw))
        );
        h[43] = PlyRecord::check(Color::Black);
        let s = natural_limit(AXF, 0, &h, None);
        assert_eq!((s.excluded, s.outcome), (4, None));
    }
}
