//! How selective the search is and how it treats draws: the UCCI options `pruning` and
//! `style` (ucci.md §5.2). `pruning` is a [`Level`], the scale the evaluation's `knowledge`
//! uses too ([`crate::eval::weights_for`]), which is why that type lives with the evaluation.
//!
//! The defaults ([`Level::DEFAULT`] for both levels, [`Style::DEFAULT`]) are the engine as
//! measured in its matches; the other settings exist for users: less pruning for composed
//! problems (排局), where null-move and move-count pruning can hide a quiet zugzwang or mating
//! move; less knowledge to give weaker opponents a game; a style that avoids or accepts draws.

use crate::eval::Level;

/// The search's pruning by `pruning` level. Each level drops the riskiest tools of the one
/// above it; the quiescence search is the same at every level (it is the horizon, not a
/// pruning choice).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selectivity {
    /// Move-count pruning, futility pruning of quiet moves and SEE pruning of losing
    /// captures: moves dropped unsearched (`medium` and below: off).
    pub prune_moves: bool,
    /// Null-move pruning, reverse futility and internal iterative reduction: whole nodes cut
    /// or reduced on a static guess (`small` and below: off).
    pub prune_nodes: bool,
    /// Late-move reductions (`none`: off; `small`: one ply less than `large`).
    pub reduce: bool,
    /// Plies taken off every late-move reduction.
    pub reduction_relief: i32,
}

impl Selectivity {
    pub fn of(level: Level) -> Selectivity {
        Selectivity {
            prune_moves: level >= Level::Large,
            prune_nodes: level >= Level::Medium,
            reduce: level >= Level::Small,
            reduction_relief: i32::from(level == Level::Small),
        }
    }
}

/// UCCI `style`: how the engine values a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// 保守: a draw is worth a little more than an even position (it accepts draws).
    Solid,
    Normal,
    /// 冒进: a draw is worth a little less (it plays on where it can).
    Risky,
}

impl Default for Style {
    fn default() -> Style {
        Style::DEFAULT
    }
}

impl Style {
    /// The default of `style`, for the engine and the options table alike.
    pub const DEFAULT: Style = Style::Normal;

    pub fn parse(s: &str) -> Option<Style> {
        match s.trim().to_ascii_lowercase().as_str() {
            "solid" => Some(Style::Solid),
            "normal" => Some(Style::Normal),
            "risky" => Some(Style::Risky),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Style::Solid => "solid",
            Style::Normal => "normal",
            Style::Risky => "risky",
        }
    }

    /// How much worse than an even position a draw is for the side that started the search,
    /// in centipawns (its "contempt" for the opponent). A fifth of a pawn: enough to choose
    /// between a draw and an equal position, far too little to walk into a lost one.
    pub fn contempt(self) -> i32 {
        match self {
            Style::Solid => -20,
            Style::Normal => 0,
            Style::Risky => 20,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewer_tools_at_lower_levels() {
        let on = |l| {
            let s = Selectivity::of(l);
            [s.prune_moves, s.prune_nodes, s.reduce]
                .iter()
                .filter(|&&b| b)
                .count()
        };
        assert_eq!(on(Level::Large), 3);
        assert_eq!(on(Level::Medium), 2);
        assert_eq!(on(Level::Small), 1);
        assert_eq!(on(Level::None), 0);
        assert_eq!(Selectivity::of(Level::Small).reduction_relief, 1);
    }

    #[test]
    fn styles_parse_and_value_draws() {
        for s in [Style::Solid, Style::Normal, Style::Risky] {
            assert_eq!(Style::parse(s.name()), Some(s));
        }
        assert_eq!(Style::parse("wild"), None);
        assert!(Style::Solid.contempt() < 0 && Style::Risky.contempt() > 0);
        assert_eq!(Style::Normal.contempt(), 0);
    }
}
