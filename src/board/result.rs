//! How a game ended. One type for the game records (where `None` is PGN's `*`), the
//! standings of a match, the tools that read games and the referee's rulings (where `None`
//! is "no ruling"), and one for the same result seen from one side ([`Wdl`]): match
//! statistics and training labels count from a side, not from Red.

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

    /// The result as `side` scores it.
    pub fn for_side(self, side: Color) -> Wdl {
        match self.winner() {
            None => Wdl::Draw,
            Some(w) if w == side => Wdl::Win,
            Some(_) => Wdl::Loss,
        }
    }
}

/// A game's result from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// 0, ½ or 1: the side's score (a trainer's target, a match statistic's sample).
    pub fn value(self) -> f32 {
        match self {
            Wdl::Loss => 0.0,
            Wdl::Draw => 0.5,
            Wdl::Win => 1.0,
        }
    }

    /// 0, 1 or 2: the score in half-points (a pair of games sums to 0..=4).
    pub fn half_points(self) -> usize {
        match self {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        }
    }

    /// The same result seen by the opponent.
    pub fn flip(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
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

    #[test]
    fn results_seen_from_a_side() {
        for side in Color::ALL {
            assert_eq!(GameResult::win_for(side).for_side(side), Wdl::Win);
            assert_eq!(GameResult::loss_for(side).for_side(side), Wdl::Loss);
            assert_eq!(GameResult::Draw.for_side(side), Wdl::Draw);
            let r = GameResult::win_for(side);
            assert_eq!(r.for_side(!side), r.for_side(side).flip());
        }
        let halves: Vec<usize> = [Wdl::Loss, Wdl::Draw, Wdl::Win]
            .map(Wdl::half_points)
            .into();
        assert_eq!(halves, [0, 1, 2]);
        assert_eq!(Wdl::Draw.value(), 0.5);
    }
}
