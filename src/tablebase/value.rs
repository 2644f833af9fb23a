//! What a table says about a position: win, draw or loss for the side to move, and the distance
//! to mate in plies (DTM) under best play by both sides.

use std::fmt;

use crate::rules::RuleSet;

/// A table's value for the side to move.
///
/// Mates are decided first; a result by the repetition rules is only claimed in a position
/// that is otherwise drawn, so every mate outranks every rule result (the tables' order; the
/// search's scores rank both by distance, [`crate::search::score`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// The side to move mates in this many plies (odd).
    Win(u16),
    /// The side to move wins by the repetition rules: in this many plies (odd) the opponent
    /// is in a cycle it can only keep up by perpetual check (2011 rules 4.1.4, 25.1).
    RuleWin(u16),
    /// Neither side can force mate or a ruling (or 2011 rules 4.2.2: neither has an
    /// attacking piece).
    Draw,
    /// The side to move loses by the repetition rules, the cycle reached in this many plies
    /// (even; 0: only perpetual checks hold the draw here).
    RuleLoss(u16),
    /// The side to move is mated (or stalemated, which also loses) in this many plies (even).
    Loss(u16),
}

/// The stored entry of a point that is not a legal position (two pieces on one point, the side
/// not to move in check, generals facing).
pub const ILLEGAL: u16 = 0;
/// The stored entry of a draw.
pub const DRAW: u16 = 1;
/// The flag of a stored result by the repetition rules.
const RULE: u16 = 0x8000;

impl Value {
    /// The stored entry: 0 illegal, 1 draw, 2 + plies (odd: the side to move wins), with the
    /// high bit set for a result by the repetition rules.
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => DRAW,
            Value::Win(n) | Value::Loss(n) => 2 + n,
            Value::RuleWin(n) | Value::RuleLoss(n) => RULE | (2 + n),
        }
    }

    /// The value of a stored entry; `None` for [`ILLEGAL`] and for codes no table writes.
    pub fn from_code(code: u16) -> Option<Value> {
        let rule = code & RULE != 0;
        let c = code & !RULE;
        match (c, rule) {
            (ILLEGAL, _) | (DRAW, true) => None,
            (DRAW, false) => Some(Value::Draw),
            (c, _) => {
                let n = c - 2;
                let win = n % 2 == 1;
                Some(match (win, rule) {
                    (true, false) => Value::Win(n),
                    (false, false) => Value::Loss(n),
                    (true, true) => Value::RuleWin(n),
                    (false, true) => Value::RuleLoss(n),
                })
            }
        }
    }

    /// The value one ply earlier, for the side that moved into this position.
    pub fn before(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::RuleWin(n) => Value::RuleLoss(n + 1),
            Value::Draw => Value::Draw,
            Value::RuleLoss(n) => Value::RuleWin(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) | Value::RuleWin(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) | Value::RuleLoss(_) => "loss",
        }
    }

    /// The result for the side to move: 1 a win, 0 a draw, −1 a loss (of either kind).
    pub fn outcome(self) -> i8 {
        match self {
            Value::Win(_) | Value::RuleWin(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) | Value::RuleLoss(_) => -1,
        }
    }

    /// Whether the result comes from the repetition rules rather than a mate.
    pub fn by_rule(self) -> bool {
        matches!(self, Value::RuleWin(_) | Value::RuleLoss(_))
    }

    /// Whether the value holds under `rules`. The tables apply the 2011 rules (perpetual
    /// check, and perpetual chases and mate threats against idle answers); the AXF profile
    /// judges chases otherwise and has no mate threats, so there a result by the rules is left
    /// to the search and the referee.
    pub fn holds_under(self, rules: RuleSet) -> bool {
        !self.by_rule() || rules == RuleSet::Cxa2011
    }

    /// Plies to the mate, or to the cycle the rules decide, if the game is decided.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) | Value::RuleWin(n) | Value::RuleLoss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// Orders values for the side to move: larger is better. Quick mates first, then slow
    /// ones, wins by the rules (quick first), draws, then the losses the other way round.
    pub fn for_mover(self) -> i32 {
        match self {
            Value::Win(n) => 400_000 - n as i32,
            Value::RuleWin(n) => 300_000 - n as i32,
            Value::Draw => 0,
            Value::RuleLoss(n) => -300_000 + n as i32,
            Value::Loss(n) => -400_000 + n as i32,
        }
    }
}

impl fmt::Display for Value {
    /// `win 7` (plies to mate), `win by rule 5` (plies to the ruled cycle), `draw`, `loss 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies() {
            Some(n) if self.by_rule() => write!(f, "{} by rule {}", self.word(), n),
            Some(n) => write!(f, "{} {}", self.word(), n),
            None => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mates and draws hold under every rule set; results by the rules only under the 2011
    /// rules the tables apply.
    #[test]
    fn results_by_the_rules_hold_under_the_2011_rules_only() {
        for v in [Value::Win(3), Value::Loss(0), Value::Draw] {
            assert!(v.holds_under(RuleSet::Cxa2011) && v.holds_under(RuleSet::Axf));
        }
        for v in [Value::RuleWin(1), Value::RuleLoss(0)] {
            assert!(v.holds_under(RuleSet::Cxa2011) && !v.holds_under(RuleSet::Axf));
        }
    }

    #[test]
    fn codes_round_trip() {
        for v in [
            Value::Draw,
            Value::Win(1),
            Value::Loss(0),
            Value::Win(99),
            Value::Loss(64),
        ] {
            assert_eq!(Value::from_code(v.code()), Some(v));
        }
        assert_eq!(Value::from_code(ILLEGAL), None);
        assert_eq!(Value::Loss(0).before(), Value::Win(1));
        assert!(Value::Win(3).for_mover() > Value::Win(9).for_mover());
        assert!(Value::Draw.for_mover() > Value::Loss(9).for_mover());
        assert!(Value::Loss(9).for_mover() > Value::Loss(3).for_mover());
        assert!(Value::Win(99).for_mover() > Value::RuleWin(1).for_mover());
        assert!(Value::RuleWin(9).for_mover() > Value::Draw.for_mover());
        assert!(Value::RuleLoss(0).for_mover() > Value::Loss(99).for_mover());
        assert_eq!(Value::RuleLoss(0).before(), Value::RuleWin(1));
        assert_eq!(Value::from_code(0x8001), None);
        assert_eq!(Value::RuleWin(3).outcome(), Value::Win(5).outcome());
        assert!(Value::Draw.outcome() > Value::RuleLoss(2).outcome());
    }
}
