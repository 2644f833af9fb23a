//! The vocabulary of a ruling: the article that decides it ([`Clause`]). What a ruling
//! decides is a game's result, `Option<GameResult>` (`None`: no ruling yet); a side that
//! "loses" by a ruling must vary and loses if it does not (23.5.2.2), or loses at once for
//! one-sided perpetual check (23.5.1). Shared by the repetition verdicts
//! ([`super::verdict`]) and the natural limit ([`super::limit`]).

use std::fmt;

use crate::board::GameResult;

/// Article numbers that a ruling cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clause {
    /// Checkmated: the side to move, in check, has no legal move and loses.
    Art4_1_1,
    /// 困毙: the side to move has no legal move (not in check) and loses.
    Art4_1_2,
    /// 60 rounds without a capture: draw.
    Art4_2_4,
    /// The claimant's checks count for at most 10 moves.
    Art22_2,
    /// A repeated position needs both sides cycling.
    Art23_1,
    /// Fewer than three repetitions: no ruling.
    Art23_3,
    /// 长将.
    Art24_9,
    /// 长杀.
    Art24_10,
    /// 长捉.
    Art24_11,
    /// Forbidden moves, including the mixed cycles.
    Art24_13,
    /// Allowed moves.
    Art24_14,
    /// One-sided perpetual check is never allowed.
    Art25_1,
    /// Both allowed: draw.
    Art25_2,
    /// Forbidden against allowed: the forbidden side varies.
    Art25_3,
    /// Both forbidden: the listed side varies.
    Art26_8_1,
    /// Chasing a rook alone against a joint chase of a rook: the first varies.
    Art26_8_2,
    /// Chasing an unprotected piece alone against a joint chase of one: the first varies.
    Art26_8_3,
    /// Both forbidden, no special case: draw.
    Art26_8_4,
}

impl Clause {
    /// The article number as printed in the rules, e.g. "26.8.1".
    pub const fn number(self) -> &'static str {
        match self {
            Clause::Art4_1_1 => "4.1.1",
            Clause::Art4_1_2 => "4.1.2",
            Clause::Art4_2_4 => "4.2.4",
            Clause::Art22_2 => "22.2",
            Clause::Art23_1 => "23.1",
            Clause::Art23_3 => "23.3",
            Clause::Art24_9 => "24.9",
            Clause::Art24_10 => "24.10",
            Clause::Art24_11 => "24.11",
            Clause::Art24_13 => "24.13",
            Clause::Art24_14 => "24.14",
            Clause::Art25_1 => "25.1",
            Clause::Art25_2 => "25.2",
            Clause::Art25_3 => "25.3",
            Clause::Art26_8_1 => "26.8.1",
            Clause::Art26_8_2 => "26.8.2",
            Clause::Art26_8_3 => "26.8.3",
            Clause::Art26_8_4 => "26.8.4",
        }
    }
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.number())
    }
}

/// A ruling's result in words, from the side that loses (the repetition cases' vocabulary):
/// `red_loses`, `black_loses`, `draw`, or `no_verdict_yet` when there is no ruling.
pub fn ruling_word(o: Option<GameResult>) -> &'static str {
    match o {
        Some(GameResult::BlackWins) => "red_loses",
        Some(GameResult::RedWins) => "black_loses",
        Some(GameResult::Draw) => "draw",
        None => "no_verdict_yet",
    }
}
