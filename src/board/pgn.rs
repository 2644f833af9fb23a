//! PGN as xiangqi programs exchange it: chess PGN with `[Game "Chinese Chess"]`, an optional
//! `[FEN "..."]` start, a `[Format "..."]` tag naming the move notation, and moves in ICCS
//! (`H2-E2` or `h2e2`), Chinese (`炮二平五`) or WXF (`C2=5`).
//!
//! Reading is tolerant, as files from different programs demand: `{...}` and `;` comments,
//! `%` escape lines, nested `(...)` variations (skipped: a [`Game`] is one line of play), NAGs
//! (`$1`), `!`/`?` marks, move numbers (`1.`, `1...`, bare `1`, glued `1.H2-E2`) and any of the three
//! notations in any game whatever its Format tag says (they cannot be confused with one
//! another). Every move is checked for legality as it is read, so a returned game always
//! replays. Errors name the line. Reading never panics.

use super::notation::{self, NotationError};
use super::{Color, FenError, Move, Position};
use std::fmt;

/// How a game ended, as the `Result` tag and the movetext's last token say it.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// `1-0`
    RedWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*` (unknown or unfinished)
    Unknown,
}

impl GameResult {
    /// The PGN token.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result token; also the Chinese words some programs put in the Result tag.
    pub fn parse(s: &str) -> Option<GameResult> {
        Some(match s.trim() {
            "1-0" | "红胜" | "紅勝" | "红先胜" | "紅先勝" => GameResult::RedWins,
            "0-1" | "黑胜" | "黑勝" | "红先负" | "紅先負" => GameResult::BlackWins,
            "1/2-1/2" | "½-½" | "和" | "和棋" | "红先和" | "紅先和" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// The move notation of written movetext (and of the `Format` tag).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum MoveFormat {
    /// `H2-E2`, the form xiangqi PGN files use; `[Format "ICCS"]`.
    Iccs,
    /// `炮二平五` (full record of 7.5); `[Format "Chinese"]`.
    Chinese,
    /// `C2=5`; `[Format "WXF"]`.
    Wxf,
}

impl MoveFormat {
    fn tag_value(self) -> &'static str {
        match self {
            MoveFormat::Iccs => "ICCS",
            MoveFormat::Chinese => "Chinese",
            MoveFormat::Wxf => "WXF",
        }
    }
}

/// One game: its tags in file order, the start position, the moves played and the result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: GameResult,
}

impl Game {
    /// A game from `start` with no tags yet.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: GameResult::Unknown,
        }
    }

    /// The value of a tag (first match, case-sensitive name as PGN has it).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an existing one of that name.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The position after all moves (they were checked when read or added).
    pub fn end_position(&self) -> Position {
        let mut pos = self.start.clone();
        for &m in &self.moves {
            if !pos.is_legal(m) {
                break;
            }
            pos.make_move(m);
        }
        pos
    }
}

/// Why PGN text was refused. `line` is 1-based.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnError {
    /// A `[...]` tag that is not `[Name "value"]`.
    BadTag { line: usize },
    /// A `{` comment, `(` variation or tag string that is never closed.
    Unterminated { line: usize, what: &'static str },
    /// A `)` with no `(`.
    StrayParen { line: usize },
    /// The FEN tag does not hold a legal position.
    Fen { line: usize, error: FenError },
    /// A move token that no notation reads as a legal move here.
    Move {
        line: usize,
        /// 1-based ply within the game.
        ply: usize,
        token: String,
        error: NotationError,
    },
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::BadTag { line } => write!(f, "line {line}: malformed tag"),
            PgnError::Unterminated { line, what } => {
                write!(f, "line {line}: {what} is never closed")
            }
            PgnError::StrayParen { line } => write!(f, "line {line}: ')' without '('"),
            PgnError::Fen { line, error } => write!(f, "line {line}: FEN tag: {error}"),
            PgnError::Move {
                line,
                ply,
                token,
                error,
            } => write!(f, "line {line}: ply {ply} '{token}': {error}"),
        }
    }
}

impl std::error::Error for PgnError {}

/// A lexical unit of PGN text.
#[derive(Debug, PartialEq, Eq)]
enum Lex {
    Tag(String, String),
    Word(String),
}

/// Splits PGN text into tags and words, dropping comments, escapes, NAGs and variations.
fn lex(text: &str) -> Result<Vec<(usize, Lex)>, PgnError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let mut depth = 0usize; // variation nesting
    let mut depth_line = 0;
    let mut at_line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            at_line_start = true;
            i += 1;
            continue;
        }
        if at_line_start && c == '%' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        at_line_start = false;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        match c {
            '{' => {
                let start = line;
                i += 1;
                while i < chars.len() && chars[i] != '}' {
                    if chars[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
                if i >= chars.len() {
                    return Err(PgnError::Unterminated {
                        line: start,
                        what: "comment '{'",
                    });
                }
                i += 1;
            }
            ';' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '(' => {
                if depth == 0 {
                    depth_line = line;
                }
                depth += 1;
                i += 1;
            }
            ')' => {
                if depth == 0 {
                    return Err(PgnError::StrayParen { line });
                }
                depth -= 1;
                i += 1;
            }
            '[' if depth == 0 => {
                let (tag, next, lines) = read_tag(&chars, i, line)?;
                out.push((line, tag));
                line += lines;
                i = next;
            }
            _ => {
                let start = i;
                while i < chars.len() && !is_delimiter(chars[i]) {
                    i += 1;
                }
                if i == start {
                    // A lone delimiter such as '[' inside a variation or ']' or '}'.
                    i += 1;
                    continue;
                }
                if depth == 0 {
                    let w: String = chars[start..i].iter().collect();
                    if !w.starts_with('$') {
                        out.push((line, Lex::Word(w)));
                    }
                }
            }
        }
    }
    if depth > 0 {
        return Err(PgnError::Unterminated {
            line: depth_line,
            what: "variation '('",
        });
    }
    Ok(out)
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

/// Reads `[Name "value"]` starting at `chars[i] == '['`. Returns the tag, the index after
/// `]` and how many newlines it spanned.
fn read_tag(chars: &[char], mut i: usize, line: usize) -> Result<(Lex, usize, usize), PgnError> {
    let bad = PgnError::BadTag { line };
    i += 1;
    let skip_ws = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() && chars[*i] != '\n' {
            *i += 1;
        }
    };
    skip_ws(&mut i);
    let name_start = i;
    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
        i += 1;
    }
    if i == name_start {
        return Err(bad);
    }
    let name: String = chars[name_start..i].iter().collect();
    skip_ws(&mut i);
    if chars.get(i) != Some(&'"') {
        return Err(bad);
    }
    i += 1;
    let mut value = String::new();
    let mut lines = 0;
    loop {
        match chars.get(i) {
            None => {
                return Err(PgnError::Unterminated {
                    line,
                    what: "tag string",
                })
            }
            Some('"') => {
                i += 1;
                break;
            }
            Some('\\') => {
                if let Some(&n) = chars.get(i + 1) {
                    value.push(n);
                    i += 2;
                } else {
                    i += 1;
                }
            }
            Some(&c) => {
                if c == '\n' {
                    lines += 1;
                }
                value.push(c);
                i += 1;
            }
        }
    }
    skip_ws(&mut i);
    if chars.get(i) != Some(&']') {
        return Err(bad);
    }
    Ok((Lex::Tag(name, value), i + 1, lines))
}

/// Drops a move-number prefix: `1.`, `12...`, `1．`, `1、`, or a bare `1`.
fn strip_move_number(w: &str) -> &str {
    let digits = w.bytes().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return w;
    }
    let rest = &w[digits..];
    if rest.is_empty() {
        // A bare number (`1 炮二平五`, as some Chinese records write it).
        return rest;
    }
    let trimmed = rest.trim_start_matches(['.', '．', '、']);
    if trimmed.len() == rest.len() {
        w
    } else {
        trimmed
    }
}

/// A game being read.
struct Builder {
    tags: Vec<(String, String)>,
    fen_line: usize,
    pos: Option<Position>,
    start: Option<Position>,
    moves: Vec<Move>,
    result: Option<GameResult>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            tags: Vec::new(),
            fen_line: 0,
            pos: None,
            start: None,
            moves: Vec::new(),
            result: None,
        }
    }

    fn has_movetext(&self) -> bool {
        self.pos.is_some() || self.result.is_some()
    }

    fn is_empty(&self) -> bool {
        self.tags.is_empty() && !self.has_movetext()
    }

    /// Sets up the start position from the FEN tag, once, when movetext begins.
    fn ensure_started(&mut self) -> Result<(), PgnError> {
        if self.pos.is_some() {
            return Ok(());
        }
        let fen = self
            .tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("FEN"))
            .map(|(_, v)| v.clone());
        let start = match fen {
            Some(f) => Position::from_fen(&f).map_err(|error| PgnError::Fen {
                line: self.fen_line,
                error,
            })?,
            None => Position::startpos(),
        };
        self.start = Some(start.clone());
        self.pos = Some(start);
        Ok(())
    }

    fn finish(mut self) -> Result<Game, PgnError> {
        self.ensure_started()?;
        let start = self.start.unwrap_or_else(Position::startpos);
        let tag_result = self
            .tags
            .iter()
            .find(|(k, _)| k == "Result")
            .and_then(|(_, v)| GameResult::parse(v));
        Ok(Game {
            tags: self.tags,
            start,
            moves: self.moves,
            result: self.result.or(tag_result).unwrap_or(GameResult::Unknown),
        })
    }
}

/// Reads every game in `text`. A file of bare movetext (no tags) is one game from the start
/// position.
pub fn parse_pgn(text: &str) -> Result<Vec<Game>, PgnError> {
    let mut games = Vec::new();
    let mut cur = Builder::new();
    for (line, lx) in lex(text)? {
        match lx {
            Lex::Tag(name, value) => {
                if cur.has_movetext() {
                    games.push(std::mem::replace(&mut cur, Builder::new()).finish()?);
                }
                if name.eq_ignore_ascii_case("FEN") {
                    cur.fen_line = line;
                }
                cur.tags.push((name, value));
            }
            Lex::Word(w) => {
                if cur.result.is_some() {
                    // Movetext after a result without new tags: the next game.
                    games.push(std::mem::replace(&mut cur, Builder::new()).finish()?);
                }
                cur.ensure_started()?;
                if let Some(r) = GameResult::parse(&w) {
                    cur.result = Some(r);
                    continue;
                }
                let token = strip_move_number(&w).trim_end_matches(['!', '?']);
                if token.is_empty() || token.chars().all(|c| c == '.') {
                    continue;
                }
                let pos = match cur.pos.as_mut() {
                    Some(p) => p,
                    None => continue,
                };
                // Try the whole word first: a WXF pawn move such as `33.4` looks like a
                // move number.
                let parsed = notation::parse_any(pos, w.trim_end_matches(['!', '?']))
                    .or_else(|_| notation::parse_any(pos, token));
                match parsed {
                    Ok(m) => {
                        pos.make_move(m);
                        cur.moves.push(m);
                    }
                    Err(error) => {
                        return Err(PgnError::Move {
                            line,
                            ply: cur.moves.len() + 1,
                            token: token.chars().take(24).collect(),
                            error,
                        })
                    }
                }
            }
        }
    }
    if !cur.is_empty() {
        games.push(cur.finish()?);
    }
    Ok(games)
}

fn escape(v: &str) -> String {
    let mut s = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '\\' | '"' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            _ => s.push(c),
        }
    }
    s
}

/// Writes a game as PGN with moves in `format`. The `Game`, `Result`, `FEN` (when the start
/// is not the initial position, or when the game already had one) and `Format` tags are set
/// from the game; other tags are written in their order. Moves that are not legal in turn
/// (a hand-built game) end the movetext there rather than being written wrongly.
pub fn write_pgn(game: &Game, format: MoveFormat) -> String {
    let mut tags = game.tags.clone();
    let set = |tags: &mut Vec<(String, String)>, name: &str, value: String| match tags
        .iter_mut()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
    {
        Some(t) => t.1 = value,
        None => tags.push((name.to_string(), value)),
    };
    if !tags.iter().any(|(k, _)| k == "Game") {
        tags.insert(0, ("Game".to_string(), "Chinese Chess".to_string()));
    }
    set(&mut tags, "Result", game.result.as_str().to_string());
    let has_fen = tags.iter().any(|(k, _)| k.eq_ignore_ascii_case("FEN"));
    if has_fen || game.start != Position::startpos() {
        set(&mut tags, "FEN", game.start.to_fen());
    }
    set(&mut tags, "Format", format.tag_value().to_string());

    let mut out = String::new();
    for (k, v) in &tags {
        out.push_str(&format!("[{} \"{}\"]\n", k, escape(v)));
    }
    out.push('\n');

    let mut pos = game.start.clone();
    let mut number = pos.fullmove_number();
    let mut line = String::new();
    let push = |out: &mut String, line: &mut String, word: &str| {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > 80 {
            out.push_str(line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    };
    for (i, &m) in game.moves.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        let text = match format {
            MoveFormat::Iccs => format!("{}-{}", m.from(), m.to()).to_ascii_uppercase(),
            MoveFormat::Chinese => notation::to_chinese(&pos, m),
            MoveFormat::Wxf => notation::to_wxf(&pos, m),
        };
        let word = match pos.side_to_move() {
            Color::Red => format!("{number}. {text}"),
            Color::Black if i == 0 => format!("{number}... {text}"),
            Color::Black => text,
        };
        push(&mut out, &mut line, &word);
        if pos.side_to_move() == Color::Black {
            number += 1;
        }
        pos.make_move(m);
    }
    push(&mut out, &mut line, game.result.as_str());
    out.push_str(&line);
    out.push('\n');
    out
}
