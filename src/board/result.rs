//! How a game ended. One type for the game records (where `None` is PGN's `*`), the
//! standings of a match, and the tools that read games; the referee's rulings
//! ([`crate::rules::Outcome`]) say the same in terms of who loses.

use super::Color;

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    RedWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
}

impl GameResult {
    /// The PGN token.
    pub fn token(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The side that won; `None` for a draw.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        }
    }

    /// The result in which `side` wins.
    pub fn win_for(side: Color) -> GameResult {
        match side {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_winners() {
        for side in Color::ALL {
            assert_eq!(GameResult::win_for(side).winner(), Some(side));
        }
        assert_eq!(GameResult::Draw.winner(), None);
        assert_eq!(GameResult::RedWins.token(), "1-0");
        assert_eq!(GameResult::BlackWins.token(), "0-1");
        assert_eq!(GameResult::Draw.token(), "1/2-1/2");
    }
}
