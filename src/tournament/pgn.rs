//! A minimal PGN writer for match games: tags, ICCS moves (`H2-E2`, with `[Format "ICCS"]`
//! as XQWizard writes them) and the result.
//!
//! The shared PGN module (`board::pgn`, with Chinese notation and reading) is being written
//! separately; once it lands, [`game_pgn`] can hand its tags and moves to it instead.

use crate::board::Move;
use std::fmt::Write;

/// Quotes a tag value: `\` and `"` escaped, line breaks flattened (PGN standard 8.1.1).
fn tag_value(v: &str) -> String {
    let mut s = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' => s.push_str("\\\\"),
            '"' => s.push_str("\\\""),
            '\n' | '\r' | '\t' => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// Today's date as `YYYY.MM.DD` (UTC), without a date library.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// One game as PGN text. `tags` come first in the given order (put the seven-tag roster
/// first: Event, Site, Date, Round, Red, Black, Result); `fen` is the start position
/// (its side to move and move number set the numbering); `comment` follows the result.
pub fn game_pgn(
    tags: &[(&str, String)],
    fen: &str,
    moves: &[Move],
    result: &str,
    comment: Option<&str>,
) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        let _ = writeln!(out, "[{k} \"{}\"]", tag_value(v));
    }
    out.push('\n');
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut red = fields.get(1).is_none_or(|s| *s != "b");
    let mut number: u32 = fields
        .get(5)
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1);
    let mut tokens: Vec<String> = Vec::with_capacity(moves.len() * 3 / 2 + 2);
    for (i, m) in moves.iter().enumerate() {
        if red {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        let s = m.to_string().to_ascii_uppercase();
        tokens.push(format!("{}-{}", &s[..2], &s[2..]));
        if !red {
            number += 1;
        }
        red = !red;
    }
    if let Some(c) = comment {
        tokens.push(format!("{{{}}}", c.replace('}', ")")));
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::START_FEN;

    #[test]
    fn writes_tags_moves_and_result() {
        let moves: Vec<Move> = ["h2e2", "h9g7", "h0g2"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let tags = [("Event", "t \"x\"".to_string()), ("Result", "1-0".into())];
        let pgn = game_pgn(&tags, START_FEN, &moves, "1-0", Some("checkmate"));
        assert!(pgn.starts_with("[Event \"t \\\"x\\\"\"]\n[Result \"1-0\"]\n\n"));
        assert!(pgn.contains("1. H2-E2 H9-G7 2. H0-G2 {checkmate} 1-0\n"));
        let black = "4k4/9/9/9/9/9/9/9/9/3K5 b - - 3 17";
        let m: Move = "e9e8".parse().unwrap();
        assert!(game_pgn(&[], black, &[m], "*", None).contains("17... E9-E8 *"));
    }

    #[test]
    fn long_games_wrap() {
        let moves: Vec<Move> = ["h2e2", "h9g7"]
            .iter()
            .cycle()
            .take(200)
            .map(|s| s.parse().unwrap())
            .collect();
        let pgn = game_pgn(&[], START_FEN, &moves, "1/2-1/2", None);
        assert!(pgn.lines().all(|l| l.len() <= 79));
    }

    #[test]
    fn date_shape() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
