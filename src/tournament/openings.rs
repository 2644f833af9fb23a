//! Opening suites for matches.
//!
//! The format is that of the project's `openings.txt`: `#` starts a comment line, and the
//! comment just before a move line names the opening (the text before ` | `, which holds the
//! Chinese-notation moves). A move line is ICCS moves from the standard start, separated by
//! spaces. Two extensions: a line may start with a FEN (anything containing `/`), optionally
//! followed by `moves ...`, and `startpos moves ...` is accepted too.
//!
//! Every move is checked with the board core, so a bad suite is reported with its line
//! number instead of giving engines impossible positions.

use crate::board::{Move, Position, START_FEN};
use anyhow::Context;

/// One opening: a start position and moves played before the engines take over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// Name from the comment line above it (may be empty).
    pub name: String,
    /// Start position of the game.
    pub fen: String,
    /// Forced moves from `fen`.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position with no moves.
    pub fn startpos() -> Opening {
        Opening {
            name: String::new(),
            fen: START_FEN.to_string(),
            moves: Vec::new(),
        }
    }

    /// The ICCS moves as one string.
    pub fn moves_text(&self) -> String {
        let v: Vec<String> = self.moves.iter().map(|m| m.to_string()).collect();
        v.join(" ")
    }
}

/// Parses one non-comment line; `name` is the comment above it.
pub fn parse_opening_line(line: &str, name: &str) -> Result<Opening, String> {
    let line = line.trim();
    let (fen, rest) = if let Some(r) = line.strip_prefix("startpos") {
        (START_FEN.to_string(), r)
    } else {
        let body = line.strip_prefix("fen ").unwrap_or(line);
        let first = body.split_whitespace().next().unwrap_or("");
        if first.contains('/') {
            match body.split_once(" moves") {
                Some((f, r)) => (f.trim().to_string(), r),
                None => (body.trim().to_string(), ""),
            }
        } else {
            (START_FEN.to_string(), line)
        }
    };
    let mut pos = Position::from_fen(&fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let fen = pos.to_fen();
    let mut moves = Vec::new();
    for tok in rest.split_whitespace() {
        if tok == "moves" {
            continue;
        }
        let m = pos
            .parse_move(tok)
            .map_err(|e| format!("move {} '{tok}': {e}", moves.len() + 1))?;
        pos.make_move(m);
        moves.push(m);
    }
    if !pos.has_legal_move() {
        return Err("the opening ends the game".into());
    }
    Ok(Opening {
        name: name.to_string(),
        fen,
        moves,
    })
}

/// Parses a whole suite. Errors name the 1-based line.
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    let mut name = String::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            name.clear();
            continue;
        }
        if let Some(c) = line.strip_prefix('#') {
            name = c.split(" | ").next().unwrap_or("").trim().to_string();
            continue;
        }
        let op = parse_opening_line(line, &name).map_err(|e| format!("line {}: {e}", i + 1))?;
        out.push(op);
        name.clear();
    }
    if out.is_empty() {
        return Err("no openings found".into());
    }
    Ok(out)
}

/// Reads a suite from a file.
pub fn load_openings(path: &std::path::Path) -> anyhow::Result<Vec<Opening>> {
    let text = crate::input::read_text(path, crate::input::MAX_TEXT_BYTES)
        .with_context(|| path.display().to_string())?;
    parse_openings(&text)
        .map_err(anyhow::Error::msg)
        .with_context(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_named_lines_and_fens() {
        let text =
            "# header\n\n# 中炮 (central cannon) | 炮二平五\nh2e2 h9g7\nstartpos moves c3c4\n\
                    4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1 moves d0d1\n";
        let ops = parse_openings(text).unwrap();
        assert_eq!(ops.len(), 3);
        assert_eq!(ops[0].name, "中炮 (central cannon)");
        assert_eq!(ops[0].moves_text(), "h2e2 h9g7");
        assert_eq!(ops[1].name, "");
        assert_eq!(ops[2].moves.len(), 1);
        assert!(ops[2].fen.starts_with("4k4/"));
    }

    #[test]
    fn rejects_bad_suites() {
        assert!(parse_openings("# only comments\n").is_err());
        let e = parse_openings("h2e2\nh2e2 h2e2\n").unwrap_err();
        assert!(e.starts_with("line 2"), "{e}");
        assert!(parse_openings("xx/yy w moves h2e2\n").is_err());
    }
}
