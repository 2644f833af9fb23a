//! What a table says about a position: win, draw or loss for the side to move, and the distance
//! to mate in plies (DTM) under best play by both sides.

use std::fmt;

/// A table's value for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// The side to move mates in this many plies (odd).
    Win(u16),
    /// Neither side can force mate (or 2011 rules 4.2.2: neither has an attacking piece).
    Draw,
    /// The side to move is mated (or stalemated, which also loses) in this many plies (even).
    Loss(u16),
}

/// The stored entry of a point that is not a legal position (two pieces on one point, the side
/// not to move in check, generals facing).
pub const ILLEGAL: u16 = 0;
/// The stored entry of a draw.
pub const DRAW: u16 = 1;

impl Value {
    /// The stored entry: 0 illegal, 1 draw, 2 + plies to mate (odd: the side to move wins).
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => DRAW,
            Value::Win(n) | Value::Loss(n) => 2 + n,
        }
    }

    /// The value of a stored entry; `None` for [`ILLEGAL`].
    pub fn from_code(code: u16) -> Option<Value> {
        match code {
            ILLEGAL => None,
            DRAW => Some(Value::Draw),
            c => {
                let n = c - 2;
                Some(if n % 2 == 1 {
                    Value::Win(n)
                } else {
                    Value::Loss(n)
                })
            }
        }
    }

    /// The value one ply earlier, for the side that moved into this position.
    pub fn before(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Draw => Value::Draw,
            Value::Loss(n) => Value::Win(n + 1),
        }
    }

    /// `win`, `draw` or `loss`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Draw => "draw",
            Value::Loss(_) => "loss",
        }
    }

    /// Plies to mate, if the game is decided.
    pub fn plies(self) -> Option<u16> {
        match self {
            Value::Win(n) | Value::Loss(n) => Some(n),
            Value::Draw => None,
        }
    }

    /// Orders values for the side to move: larger is better. Quick mates first, then slow
    /// ones, draws, slow losses, quick losses.
    pub fn for_mover(self) -> i32 {
        match self {
            Value::Win(n) => 100_000 - n as i32,
            Value::Draw => 0,
            Value::Loss(n) => -100_000 + n as i32,
        }
    }
}

impl fmt::Display for Value {
    /// `win 7` (plies to mate), `draw`, `loss 0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies() {
            Some(n) => write!(f, "{} {}", self.word(), n),
            None => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    }
}
