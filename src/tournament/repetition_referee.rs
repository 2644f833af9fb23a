//! The repetition referee of the match manager, as a plug-in (named apart from
//! [`crate::rules::referee`], the judge it asks by default).
//!
//! When a position occurs for the third time (the ruling point of 2011 rules 23, see
//! [`crate::rules::RULING_OCCURRENCE`]) the game runner asks a [`Referee`] what the repetition
//! means: a draw when neither side is forbidden (4.2.3, 25.1), or a loss for the side that
//! must vary (4.1.4 one-sided perpetual check, 4.1.5 other forbidden patterns).
//!
//! [`RulesReferee`] asks the board-level judge of 长将/长捉 ([`crate::rules::referee::judge`],
//! through [`crate::rules::arbiter::repetition`], as data generation does) under the match's
//! rule set; it is the runner's default. [`DrawReferee`] (every repetition
//! a draw) remains for tests, and any `Fn(&Position, &[Move], RuleSet) -> Ruling` is a
//! [`Referee`].

use crate::board::{GameResult, Move, Position};
use crate::rules::RuleSet;

/// A referee's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    /// Draw, a loss for one side, or [`None`] to play on.
    pub outcome: Option<GameResult>,
    /// Short explanation for the PGN (e.g. the deciding clause).
    pub reason: String,
}

impl Ruling {
    /// A drawn repetition.
    pub fn draw(reason: impl Into<String>) -> Ruling {
        Ruling {
            outcome: Some(GameResult::Draw),
            reason: reason.into(),
        }
    }
}

/// Judges a repeated position. `start` is the game's initial position and `moves` every move
/// since, ending at the position just repeated.
pub trait Referee: Send + Sync {
    fn repetition(&self, start: &Position, moves: &[Move], rules: RuleSet) -> Ruling;
}

impl<F> Referee for F
where
    F: Fn(&Position, &[Move], RuleSet) -> Ruling + Send + Sync,
{
    fn repetition(&self, start: &Position, moves: &[Move], rules: RuleSet) -> Ruling {
        self(start, moves, rules)
    }
}

/// The stand-in referee without the board-level rules: every repetition is a draw.
#[derive(Debug, Clone, Copy, Default)]
pub struct DrawReferee;

impl Referee for DrawReferee {
    fn repetition(&self, _start: &Position, _moves: &[Move], _rules: RuleSet) -> Ruling {
        Ruling::draw("threefold repetition (perpetual check/chase not judged yet)")
    }
}

/// The 2011 rules (or AXF) as the `rules` module applies them.
#[derive(Debug, Clone, Copy, Default)]
pub struct RulesReferee;

impl Referee for RulesReferee {
    fn repetition(&self, start: &Position, moves: &[Move], rules: RuleSet) -> Ruling {
        match crate::rules::arbiter::repetition(start, moves, rules) {
            Some(e) => Ruling {
                outcome: Some(e.result),
                reason: e.reason,
            },
            // No ruling (23.1, 23.3) at a third occurrence: the match draws rather than loop.
            None => Ruling::draw("repetition"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perpetual_check_loses_under_the_rules_referee() {
        let fen = "4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
        let mut pos = Position::from_fen(fen).unwrap();
        let moves: Vec<Move> = "f5e5 e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9"
            .split(' ')
            .map(|m| pos.play(m).unwrap())
            .collect();
        let start = Position::from_fen(fen).unwrap();
        let r = RulesReferee.repetition(&start, &moves, RuleSet::Cxa2011);
        assert_eq!(r.outcome, Some(GameResult::BlackWins), "{r:?}");
    }
}
