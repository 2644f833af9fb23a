//! Move text in the two rank conventions of xiangqi UCI (ucci.md §9).
//!
//! UCCI, UCI-Cyclone and Pikafish number ranks 0–9 from Red's side (`h2e2`); Fairy-Stockfish's
//! generic UCI mode and the tools built on it (pychess-variants, cutechess forks) number them
//! 1–10 (`h3e3`, `h10g8`). Internally everything is 0-based; this module converts at the edge.
//!
//! Reading is forgiving (ucci.md §9.5): a token with a two-digit rank (`h10g8`) can only be
//! 1-based, a 4-character token that is illegal 0-based may be a legal 1-based move, and with
//! `Rank Origin` 1 set, one that is illegal 1-based may be a legal 0-based move. The
//! session resolves a move *list* as a whole (a GUI uses one convention throughout), keeping
//! whichever reading applies more moves legally.
//!
//! This is the one rank-origin codec: the protocol reads and prints GUI moves with it, and
//! (unlike [`super::notation`], the notations people write) it only renumbers ranks.

use super::{Move, Position};

/// Which rank numbering the GUI uses for moves we print (and, when set to `One`, read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RankOrigin {
    /// `a0`–`i9`: UCCI, UCI-Cyclone, Pikafish.
    Zero,
    /// `a1`–`i10`: Fairy-Stockfish's generic UCI.
    One,
}

impl RankOrigin {
    /// The numbering until a GUI asks for another (the `Rank Origin` option's default): the
    /// one place it is written.
    pub const DEFAULT: RankOrigin = RankOrigin::Zero;
}

impl Default for RankOrigin {
    fn default() -> RankOrigin {
        RankOrigin::DEFAULT
    }
}

/// A move as the GUI expects to read it.
pub fn format_move(m: Move, origin: RankOrigin) -> String {
    match origin {
        RankOrigin::Zero => m.to_string(),
        RankOrigin::One => {
            let (f, t) = (m.from(), m.to());
            format!(
                "{}{}{}{}",
                char::from(b'a' + f.file()),
                u32::from(f.rank()) + 1,
                char::from(b'a' + t.file()),
                u32::from(t.rank()) + 1
            )
        }
    }
}

/// One square of a 1-based token: a file letter and a rank 1..=10. Returns the 0-based square
/// text and the rest of the input.
fn square_ranks1(s: &str) -> Option<(String, &str)> {
    let b = s.as_bytes();
    let file = b.first()?.to_ascii_lowercase();
    if !(b'a'..=b'i').contains(&file) {
        return None;
    }
    let digits = b.iter().skip(1).take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 {
        return None;
    }
    let rank: u32 = s.get(1..1 + digits)?.parse().ok()?;
    if !(1..=10).contains(&rank) {
        return None;
    }
    Some((
        format!("{}{}", char::from(file), rank - 1),
        s.get(1 + digits..)?,
    ))
}

/// Reads a 1-based token (`h3e3`, `h10g8`) as 0-based text (`h2e2`, `h9g7`); `None` when the
/// token does not have that shape.
pub fn ranks1_to_ranks0(token: &str) -> Option<String> {
    if !token.is_ascii() || token.len() > 6 {
        return None;
    }
    let (from, rest) = square_ranks1(token)?;
    let (to, rest) = square_ranks1(rest)?;
    rest.is_empty().then(|| from + &to)
}

/// Is this token certainly 1-based (it has a rank `10`, which 0-based text cannot have)?
pub fn surely_ranks1(token: &str) -> bool {
    token.len() > 4 && ranks1_to_ranks0(token).is_some()
}

/// The 1-based reading of a whole list; tokens that do not convert are kept, so that the
/// position layer can name them in its error.
pub fn list_ranks1_to_ranks0(moves: &[String]) -> Vec<String> {
    moves
        .iter()
        .map(|m| ranks1_to_ranks0(m).unwrap_or_else(|| m.clone()))
        .collect()
}

/// One root move token (`banmoves`, `searchmoves`) as 0-based text. With `origin` One every
/// convertible token is converted; with Zero only a certain 1-based token, or a token that is
/// illegal here while its 1-based reading is legal (`allow_guess`, UCI only).
pub fn root_move_ranks0(
    pos: &Position,
    token: &str,
    origin: RankOrigin,
    allow_guess: bool,
) -> String {
    let converted = ranks1_to_ranks0(token);
    let use_converted = match origin {
        RankOrigin::One => converted.is_some(),
        RankOrigin::Zero => {
            allow_guess
                && (surely_ranks1(token)
                    || (pos.parse_move(token).is_err()
                        && converted
                            .as_deref()
                            .is_some_and(|c| pos.parse_move(c).is_ok())))
        }
    };
    match converted {
        Some(c) if use_converted => c,
        _ => token.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions() {
        assert_eq!(ranks1_to_ranks0("h3e3").as_deref(), Some("h2e2"));
        assert_eq!(ranks1_to_ranks0("h10g8").as_deref(), Some("h9g7"));
        assert_eq!(ranks1_to_ranks0("a10i10").as_deref(), Some("a9i9"));
        assert_eq!(ranks1_to_ranks0("H3E3").as_deref(), Some("h2e2"));
        for bad in [
            "", "h0e2", "h11e2", "j3e3", "h3e", "h3e3x", "h3", "h010e3", "将将", "h3-e3",
        ] {
            assert_eq!(ranks1_to_ranks0(bad), None, "{bad}");
        }
        assert!(surely_ranks1("h10g8"));
        assert!(!surely_ranks1("h3e3"));
        let m: Move = "h9g7".parse().unwrap();
        assert_eq!(format_move(m, RankOrigin::One), "h10g8");
        assert_eq!(format_move(m, RankOrigin::Zero), "h9g7");
        for m in Position::startpos().legal_moves() {
            let one = format_move(m, RankOrigin::One);
            assert_eq!(ranks1_to_ranks0(&one), Some(m.to_string()));
        }
    }

    #[test]
    fn root_tokens() {
        let pos = Position::startpos();
        assert_eq!(
            root_move_ranks0(&pos, "h2e2", RankOrigin::Zero, true),
            "h2e2"
        );
        assert_eq!(
            root_move_ranks0(&pos, "h3e3", RankOrigin::Zero, true),
            "h2e2"
        );
        assert_eq!(
            root_move_ranks0(&pos, "h3e3", RankOrigin::Zero, false),
            "h3e3"
        );
        assert_eq!(
            root_move_ranks0(&pos, "h3e3", RankOrigin::One, false),
            "h2e2"
        );
        assert_eq!(root_move_ranks0(&pos, "zz", RankOrigin::One, false), "zz");
        let list: Vec<String> = ["h3e3", "h10g8"].iter().map(|s| s.to_string()).collect();
        assert_eq!(pos.parse_moves(&list).0.len(), 0);
        assert_eq!(pos.parse_moves(&list_ranks1_to_ranks0(&list)).0.len(), 2);
    }
}
