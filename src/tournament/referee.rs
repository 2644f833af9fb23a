//! The repetition referee as a plug-in.
//!
//! When a position occurs for the third time (the ruling point of 2011 rules 23, see
//! [`crate::rules::RULING_OCCURRENCE`]) the game runner asks a [`Referee`] what the repetition
//! means: a draw when neither side is forbidden (4.2.3, 25.1), or a loss for the side that
//! must vary (4.1.4 one-sided perpetual check, 4.1.5 other forbidden patterns).
//!
//! The board-level judge of 长将/长捉 (`rules::referee::judge(start_fen, moves, RuleSet)`)
//! is being written in the rules module; until it lands the runner uses [`DrawReferee`],
//! which rules every repetition a draw. The real 2011-rules verdict plugs in here: any
//! `Fn(&str, &[Move], RuleSet) -> Ruling` is a [`Referee`].

use crate::board::Move;
use crate::rules::{Outcome, RuleSet};

/// A referee's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    /// Draw, a loss for one side, or [`Outcome::None`] to play on.
    pub outcome: Outcome,
    /// Short explanation for the PGN (e.g. the deciding clause).
    pub reason: String,
}

impl Ruling {
    /// A drawn repetition.
    pub fn draw(reason: impl Into<String>) -> Ruling {
        Ruling {
            outcome: Outcome::Draw,
            reason: reason.into(),
        }
    }
}

/// Judges a repeated position. `start_fen` is the game's initial position and `moves` every
/// move since, ending at the position just repeated.
pub trait Referee: Send + Sync {
    fn repetition(&self, start_fen: &str, moves: &[Move], rules: RuleSet) -> Ruling;
}

impl<F> Referee for F
where
    F: Fn(&str, &[Move], RuleSet) -> Ruling + Send + Sync,
{
    fn repetition(&self, start_fen: &str, moves: &[Move], rules: RuleSet) -> Ruling {
        self(start_fen, moves, rules)
    }
}

/// The stand-in referee without the board-level rules: every repetition is a draw.
#[derive(Debug, Clone, Copy, Default)]
pub struct DrawReferee;

impl Referee for DrawReferee {
    fn repetition(&self, _start_fen: &str, _moves: &[Move], _rules: RuleSet) -> Ruling {
        Ruling::draw("threefold repetition (perpetual check/chase not judged yet)")
    }
}
