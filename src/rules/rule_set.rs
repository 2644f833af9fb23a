//! Which rule book applies ([`RuleSet`]), and everything the rule books disagree on, as one
//! row per book ([`PROFILES`]): the repetition referee ([`super::verdict`]) and the natural
//! limit ([`super::limit`]) read the row and have no rule-set branches of their own.

use std::fmt;

/// Which rule book the referee follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The Chinese Xiangqi Association rules, 2011 edition (docs/rules.md; Jiangjun's default).
    Cxa2011,
    /// The Asian (AXF) rules as Fairy-Stockfish/pyffish 0.0.90 judge them (repetition.md §2):
    /// check outranks chase, a chase must hit the same piece on every move, no 杀, no 26.8
    /// special cases, 50-move limit under UCI.
    Axf,
}

/// How many plies without capture end the game, and how checks are discounted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitRule {
    /// Plies without a capture that make a draw (4.2.4: 60 rounds = 120 plies).
    pub plies: u32,
    /// Checks that count towards the limit; each further check removes its round (2 plies).
    pub counted_checks: u32,
    /// Whose checks are discounted.
    pub scope: CheckScope,
}

/// Whose checks beyond [`LimitRule::counted_checks`] are discounted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckScope {
    /// 22.2: "审核回合时，提出方'将军'最多只计10着" — only the claimant's checks are capped.
    /// Without a named claimant the limit holds when either side's claim would be upheld.
    Claimant,
    /// Fairy-Stockfish: the side with more checks in the window is capped.
    BusiestSide,
}

impl LimitRule {
    /// 4.2.4 and 22.2: 60 rounds without a capture; the claimant's checks count for at most
    /// 10 moves.
    pub const CXA2011: LimitRule = LimitRule {
        plies: 120,
        counted_checks: 10,
        scope: CheckScope::Claimant,
    };

    /// Fairy-Stockfish under UCI (pyffish): 50 moves, checks beyond the 10th of the busier
    /// side discounted (it uses 60 moves only under UCCI).
    pub const PYFFISH: LimitRule = LimitRule {
        plies: 100,
        counted_checks: 10,
        scope: CheckScope::BusiestSide,
    };

    /// The same rule with a different number of rounds: 4.2.4 lets organisers lower the
    /// limit by level of play ("可根据比赛等级酌减").
    pub const fn with_rounds(mut self, rounds: u32) -> LimitRule {
        self.plies = rounds.saturating_mul(2);
        self
    }
}

/// Everything on which the rule sets disagree. One row per rule set in [`PROFILES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// 杀 is a nature (24.2, 24.10); when false a mate threat is judged as idle.
    pub mate_threats: bool,
    /// A checking move's chases still count towards 长捉. When false the move is judged by
    /// its heaviest nature, the check (26.4).
    pub chase_on_check: bool,
    /// 长捉 needs one piece chased on every move. When false any piece(s) will do:
    /// "连续追捉一子或数子" (24.11).
    pub same_piece: bool,
    /// 一将一杀, 一将一捉, 一杀一捉 and the like are forbidden (24.13).
    pub mixed_forbidden: bool,
    /// When both sides are forbidden, 26.8.1–26.8.3 pick the side that must vary; when false
    /// it is always a draw.
    pub tiebreaks: bool,
    /// The natural move limit.
    pub limit: LimitRule,
    /// The moves judged run from the earliest of the counted occurrences of the position
    /// (and the move into it), not just its last period: pyffish ANDs each side's checks and
    /// chases over all of them, which differs when the two sides' shuffles have different
    /// lengths or the cycle was entered by a different move.
    pub whole_repetition: bool,
}

/// The rule-set table. Row order matches [`RuleSet::profile`].
///
/// | field             | Cxa2011                | Axf (pyffish)                         |
/// |-------------------|------------------------|---------------------------------------|
/// | `mate_threats`    | yes (24.2, 24.10)      | no: FSF has no mate-threat detection  |
/// | `chase_on_check`  | no: heaviest wins 26.4 | yes: FSF ANDs chase sets over checks  |
/// | `same_piece`      | no: 一子或数子 24.11   | yes: chase bits follow one piece      |
/// | `mixed_forbidden` | yes (24.13)            | no: a plain check breaks the chase    |
/// | `tiebreaks`       | 26.8.1–26.8.3          | none: both forbidden is a draw        |
/// | `limit`           | 120 plies, claimant    | 100 plies, busier side                |
/// | `whole_repetition`| no: the last period    | yes: from the first counted occurrence|
pub static PROFILES: [Profile; 2] = [
    Profile {
        mate_threats: true,
        chase_on_check: false,
        same_piece: false,
        mixed_forbidden: true,
        tiebreaks: true,
        limit: LimitRule::CXA2011,
        whole_repetition: false,
    },
    Profile {
        mate_threats: false,
        chase_on_check: true,
        same_piece: true,
        mixed_forbidden: false,
        tiebreaks: false,
        limit: LimitRule::PYFFISH,
        whole_repetition: true,
    },
];

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::DEFAULT
    }
}

impl RuleSet {
    /// The rules the engine applies until told otherwise (the `repetition` option's default).
    pub const DEFAULT: RuleSet = RuleSet::Cxa2011;

    /// This rule set's row of [`PROFILES`].
    pub fn profile(self) -> &'static Profile {
        match self {
            RuleSet::Cxa2011 => &PROFILES[0],
            RuleSet::Axf => &PROFILES[1],
        }
    }

    /// The canonical spelling, as `--rules` and the `repetition` option print it.
    pub const fn name(self) -> &'static str {
        match self {
            RuleSet::Cxa2011 => "cxa2011",
            RuleSet::Axf => "axf",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule-set name that is none of the accepted spellings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownRuleSet(pub String);

impl fmt::Display for UnknownRuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule set '{}' (expected cxa2011 or axf)", self.0)
    }
}

impl std::error::Error for UnknownRuleSet {}

/// The one parser for every front end (`--rules`, the `repetition` option, the tournament),
/// so they all accept the same spellings, case-insensitively.
impl std::str::FromStr for RuleSet {
    type Err = UnknownRuleSet;

    fn from_str(s: &str) -> Result<RuleSet, UnknownRuleSet> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cxa2011" | "cxa" | "chinese" => Ok(RuleSet::Cxa2011),
            "axf" | "asian" => Ok(RuleSet::Axf),
            _ => Err(UnknownRuleSet(s.to_string())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CXA: RuleSet = RuleSet::Cxa2011;
    const AXF: RuleSet = RuleSet::Axf;

    #[test]
    fn rule_set_names_parse_case_insensitively_and_round_trip() {
        for (text, rules) in [
            ("cxa2011", CXA),
            ("CXA", CXA),
            ("Chinese", CXA),
            (" axf ", AXF),
            ("ASIAN", AXF),
        ] {
            assert_eq!(text.parse::<RuleSet>(), Ok(rules), "{text}");
        }
        for rules in [CXA, AXF] {
            assert_eq!(rules.to_string().parse::<RuleSet>(), Ok(rules));
        }
        let err = "fide".parse::<RuleSet>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown rule set 'fide' (expected cxa2011 or axf)"
        );
        assert!("".parse::<RuleSet>().is_err());
    }

    #[test]
    fn the_table_is_the_only_difference() {
        assert_eq!(RuleSet::default(), CXA);
        let (c, a) = (CXA.profile(), AXF.profile());
        assert!(c.mate_threats && !a.mate_threats);
        assert!(!c.chase_on_check && a.chase_on_check);
        assert!(!c.same_piece && a.same_piece);
        assert!(c.mixed_forbidden && !a.mixed_forbidden);
        assert!(c.tiebreaks && !a.tiebreaks);
        assert_eq!(c.limit, LimitRule::CXA2011);
        assert_eq!(a.limit, LimitRule::PYFFISH);
    }
}
