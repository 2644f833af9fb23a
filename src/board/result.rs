//! How a game ended. One type for the game records (where `None` is PGN's `*`), the
//! standings of a match, the tools that read games and the referee's rulings (where `None`
//! is "no ruling").

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
    pub const fn win_for(side: Color) -> GameResult {
        match side {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The result in which `side` loses (a ruling against it).
    pub const fn loss_for(side: Color) -> GameResult {
        match side {
            Color::Red => GameResult::BlackWins,
            Color::Black => GameResult::RedWins,
        }
    }

    /// The side that lost; `None` for a draw.
    pub const fn loser(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Black),
            GameResult::BlackWins => Some(Color::Red),
            GameResult::Draw => None,
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
            assert_eq!(GameResult::loss_for(side).loser(), Some(side));
            assert_eq!(GameResult::loss_for(side), GameResult::win_for(!side));
        }
        assert_eq!(GameResult::Draw.loser(), None);
        assert_eq!(GameResult::Draw.winner(), None);
        assert_eq!(GameResult::RedWins.token(), "1-0");
        assert_eq!(GameResult::BlackWins.token(), "0-1");
        assert_eq!(GameResult::Draw.token(), "1/2-1/2");
    }
}
