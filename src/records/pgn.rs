//! PGN as xiangqi programs exchange it: chess PGN with `[Game "Chinese Chess"]`, an optional
//! `[FEN "..."]` start, a `[Format "..."]` tag naming the move notation, and moves in ICCS
//! (`H2-E2` or `h2e2`), Chinese (`炮二平五`, `马８进７`) or WXF (`C2=5`).
//!
//! Reading is lenient where files in the wild are sloppy: tag values with unescaped inner
//! quotes (the value runs to the closing `"]`), `{...}` and `;` comments (kept in
//! [`Game::comments`]), `%` escape lines, nested `(...)` variations (skipped: a [`Game`] is one
//! line of play), NAGs (`$1`), `!`/`?` marks, move numbers in any spacing (`1.`, `1...`,
//! `1。`, `１．`, bare `1`, glued `1.H2-E2`), missing tags, several games per file, and any of
//! the three notations in any game whatever its Format tag says (they cannot be confused with
//! one another). Text after the last game that is not a game (a line of `=====`, a program's
//! signature) is a warning, not the loss of the game before it.
//!
//! It is strict where it matters: every move is checked for legality as it is read, so a
//! returned game always replays, and a move that no notation reads as exactly one legal move
//! is an error naming the game, the ply, the line and the reason. Reading never panics.
//!
//! One broken game costs only itself: after a bad move the game's movetext is passed over to
//! its result or the next tag, and after a stray `)`, a malformed tag, or a comment, variation
//! or tag string never closed, reading goes on at the next game's tags (a line that begins
//! with a tag), as chess PGN readers do.

use crate::board::notation::{self, NotationError, Script};
use crate::board::{Color, FenError, GameResult, Move, Position};
use std::fmt;
use std::ops::ControlFlow;

/// The PGN token of a result; `*` for a game without one.
pub fn result_token(result: Option<GameResult>) -> &'static str {
    result.map_or("*", GameResult::token)
}

/// Reads a result token, also the Chinese words some programs put in the Result tag: `None`
/// when `s` is no result token, `Some(None)` for `*` (unknown or unfinished).
pub fn parse_result(s: &str) -> Option<Option<GameResult>> {
    Some(Some(match s.trim() {
        "1-0" | "红胜" | "紅勝" | "红先胜" | "紅先勝" => GameResult::RedWins,
        "0-1" | "黑胜" | "黑勝" | "红先负" | "紅先負" => GameResult::BlackWins,
        "1/2-1/2" | "½-½" | "和" | "和棋" | "红先和" | "紅先和" => GameResult::Draw,
        "*" => return Some(None),
        _ => return None,
    }))
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

/// A notation word that names no [`MoveFormat`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownMoveFormat(pub String);

impl fmt::Display for UnknownMoveFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown notation '{}' (expected iccs, chinese or wxf)",
            self.0
        )
    }
}

impl std::error::Error for UnknownMoveFormat {}

/// The words command lines use (`--to`, `--pgn-notation`): `iccs`, `chinese`, `wxf`.
impl std::str::FromStr for MoveFormat {
    type Err = UnknownMoveFormat;

    fn from_str(s: &str) -> Result<MoveFormat, UnknownMoveFormat> {
        match s {
            "iccs" => Ok(MoveFormat::Iccs),
            "chinese" => Ok(MoveFormat::Chinese),
            "wxf" => Ok(MoveFormat::Wxf),
            _ => Err(UnknownMoveFormat(s.to_string())),
        }
    }
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

/// One game: its tags in file order, the start position, the moves played, the result and the
/// comments of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub tags: Vec<(String, String)>,
    pub start: Position,
    pub moves: Vec<Move>,
    /// `None`: PGN's `*` (unknown or unfinished).
    pub result: Option<GameResult>,
    /// `(ply, text)`: the comment stands after the first `ply` moves (0: before the first).
    pub comments: Vec<(usize, String)>,
    /// `(ply, mark)`: a judgement mark (`?!`, `?`, `??`, `!`, `!?`, `!!`) glued to the
    /// `ply`-th move (1-based), in ply order, as annotators write them; read and written back.
    pub marks: Vec<(usize, String)>,
}

impl Game {
    /// A game from `start` with no tags yet.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: None,
            comments: Vec::new(),
            marks: Vec::new(),
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
    /// A move token that no notation reads as exactly one legal move here.
    Move {
        line: usize,
        /// 1-based number of the game in the file.
        game: usize,
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
                game,
                ply,
                token,
                error,
            } => write!(f, "line {line}: game {game}, ply {ply} '{token}': {error}"),
        }
    }
}

impl std::error::Error for PgnError {}

impl PgnError {
    /// Is it an error in a game's tags (a broken tag, a tag string never closed)? The reader
    /// resumes after those differently from errors in the movetext.
    fn in_tags(&self) -> bool {
        matches!(
            self,
            PgnError::BadTag { .. }
                | PgnError::Unterminated {
                    what: "tag string",
                    ..
                }
        )
    }
}

/// Everything read from one PGN text: each game in file order (a bad game is its error, and
/// the games after it are still read), and warnings about text that was skipped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnFile {
    pub games: Vec<Result<Game, PgnError>>,
    pub warnings: Vec<String>,
}

impl PgnFile {
    /// The number of moves in the games that read without error: how well a text reads as
    /// game records (what encoding detection compares).
    pub fn moves_read(&self) -> usize {
        self.games
            .iter()
            .filter_map(|g| g.as_ref().ok())
            .map(|g| g.moves.len())
            .sum()
    }
}

/// A lexical unit of PGN text.
#[derive(Debug, PartialEq, Eq)]
enum Lex {
    Tag(String, String),
    Word(String),
    Comment(String),
}

/// Splits PGN text into tags, words and comments, dropping escape lines, NAGs and variations.
///
/// After an error it goes on at the next game's tags, so that one broken game costs only
/// itself: a *tag line* is a line that begins with a whole tag (`[Name "value"]`). A stray
/// `)` or a malformed or unclosed tag skips to the next tag line; where the bad tag's line
/// begins with `[` (it is among its game's tags), the rest of those tags is skipped too, to
/// the first tag line after a line that does not begin with `[`. A comment or variation that
/// is not closed ends at the next tag line (or the end of the text), and that line is read.
/// So a comment cannot hold a line that begins with a tag (a tag elsewhere in it is text):
/// that line is taken for the next game's, as a reader that lost a game's end must take it.
///
/// The text comes from a character source a line at a time, so a file is read in one pass
/// without being held whole: `chars` is a window that always ends at a line end (or the end
/// of the text), and what is behind the reader is dropped from time to time. Lookahead never
/// passes the end of the line it starts on. A comment's text is kept whole (it is part of
/// the game).
struct Lexer<'a> {
    source: Box<dyn Iterator<Item = char> + 'a>,
    chars: Vec<char>,
    i: usize,
    line: usize,
    at_line_start: bool,
    /// The line being read begins with `[` (it holds tags).
    line_opens_tag: bool,
}

/// The window is compacted once this much of it is behind the reader.
const LEXER_KEEP: usize = 1 << 16;

impl<'a> Lexer<'a> {
    fn new(source: impl Iterator<Item = char> + 'a) -> Lexer<'a> {
        Lexer {
            source: Box::new(source),
            chars: Vec::new(),
            i: 0,
            line: 1,
            at_line_start: true,
            line_opens_tag: false,
        }
    }

    /// Makes sure the window holds the character at `i`, and so the rest of its line, if the
    /// text has one there.
    fn fill(&mut self, i: usize) {
        while self.chars.len() <= i {
            let before = self.chars.len();
            for c in self.source.by_ref() {
                self.chars.push(c);
                if c == '\n' {
                    break;
                }
            }
            if self.chars.len() == before {
                return;
            }
        }
    }

    /// Drops what is behind the reader: between units, and inside a comment or variation
    /// (never inside a word or tag, whose start is an index into the window).
    fn compact(&mut self) {
        if self.i >= LEXER_KEEP {
            self.chars.drain(..self.i);
            self.i = 0;
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.fill(self.i);
        self.chars.get(self.i).copied()
    }

    /// The next character, passed, with lines counted; `None` at the end of the text. The
    /// window is compacted first: a comment or variation may run over many lines, and the
    /// window keeps none of them.
    fn advance(&mut self) -> Option<char> {
        self.compact();
        let c = self.peek()?;
        self.i += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Whether the reader stands at the start of a tag line (see [`Lexer`]); it must stand at
    /// the start of a line. Looks no further than that line.
    fn at_tag_line(&mut self) -> bool {
        self.peek() == Some('[') && self.tag_at(self.i).is_ok()
    }

    /// Advances to the next `end` (or the end of text), counting lines; returns the text
    /// skipped and whether `end` was found (and passed).
    fn take_until(&mut self, end: char) -> (String, bool) {
        let mut s = String::new();
        while let Some(c) = self.advance() {
            if c == end {
                return (s, true);
            }
            s.push(c);
        }
        (s, false)
    }

    /// Reads a `{` comment's text, the reader past the `{`, to its `}`; returns the text and
    /// whether the `}` was found (and passed). A comment not closed ends at the end of the
    /// text or at the start of the next tag line.
    fn take_comment(&mut self) -> (String, bool) {
        let mut s = String::new();
        while let Some(c) = self.advance() {
            if c == '}' {
                return (s, true);
            }
            s.push(c);
            if c == '\n' && self.at_tag_line() {
                self.at_line_start = true;
                break;
            }
        }
        (s, false)
    }

    /// Skips a variation from its `(` to the matching `)`, nested ones included. One not
    /// closed ends at the end of the text or at the start of the next tag line.
    fn skip_variation(&mut self) -> Result<(), PgnError> {
        let start = self.line;
        let mut depth = 0usize;
        while let Some(c) = self.advance() {
            match c {
                '\n' if self.at_tag_line() => {
                    self.at_line_start = true;
                    break;
                }
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                // A comment inside a variation may hold parentheses.
                '{' if !self.take_comment().1 => break,
                _ => {}
            }
        }
        Err(PgnError::Unterminated {
            line: start,
            what: "variation '('",
        })
    }

    /// After a stray `)` or a bad tag: skips the rest of the line, then to the start of the
    /// next tag line (or the end of the text). With `tags`, the line with the error held tags:
    /// the lines after it that begin with `[` are the rest of the same game's tags, and are
    /// skipped too.
    fn resync(&mut self, tags: bool) {
        let mut in_tags = tags;
        while let Some(c) = self.advance() {
            if c != '\n' {
                continue;
            }
            if !in_tags && self.at_tag_line() {
                break;
            }
            in_tags = tags && self.peek() == Some('[');
        }
        self.at_line_start = true;
    }

    /// Reads `[Name "value"]` at `[`. The value runs to the first `"` that is followed (after
    /// blanks) by `]` on the same line, so inner quotes need no escape: files write
    /// `[Event "第八屆"銀荔杯"象棋全國冠軍賽"]`. `\"` and `\\` are escapes all the same.
    fn tag(&mut self) -> Result<Lex, PgnError> {
        let (tag, end) = self.tag_at(self.i)?;
        self.i = end;
        Ok(tag)
    }

    /// The tag at the `[` at `start` in the window and the index past it; reads nothing.
    fn tag_at(&self, start: usize) -> Result<(Lex, usize), PgnError> {
        let line = self.line;
        let bad = PgnError::BadTag { line };
        let chars = &self.chars;
        let mut i = start + 1;
        let blank = |c: char| c == ' ' || c == '\t' || c == '\u{3000}';
        while chars.get(i).is_some_and(|&c| blank(c)) {
            i += 1;
        }
        let name_start = i;
        while chars
            .get(i)
            .is_some_and(|&c| c.is_alphanumeric() || c == '_')
        {
            i += 1;
        }
        if i == name_start {
            return Err(bad);
        }
        let name: String = chars[name_start..i].iter().collect();
        while chars.get(i).is_some_and(|&c| blank(c)) {
            i += 1;
        }
        if chars.get(i) != Some(&'"') {
            return Err(bad);
        }
        i += 1;
        let mut value = String::new();
        loop {
            match chars.get(i) {
                None | Some('\n') | Some('\r') => {
                    return Err(PgnError::Unterminated {
                        line,
                        what: "tag string",
                    })
                }
                Some('\\') if matches!(chars.get(i + 1), Some('"') | Some('\\')) => {
                    value.push(chars[i + 1]);
                    i += 2;
                }
                Some('"') => {
                    let mut j = i + 1;
                    while chars.get(j).is_some_and(|&c| blank(c)) {
                        j += 1;
                    }
                    if chars.get(j) == Some(&']') {
                        return Ok((Lex::Tag(name, value), j + 1));
                    }
                    value.push('"');
                    i += 1;
                }
                Some(&c) => {
                    value.push(c);
                    i += 1;
                }
            }
        }
    }

    /// The next unit and the line it starts on, or an error; after an error the reader stands
    /// where reading goes on (see [`Lexer`]).
    fn next_lex(&mut self) -> Option<Result<(usize, Lex), PgnError>> {
        let r = self.scan();
        match &r {
            Some(Err(PgnError::StrayParen { .. })) => self.resync(false),
            Some(Err(e)) if e.in_tags() => self.resync(self.line_opens_tag),
            _ => {}
        }
        r
    }

    fn scan(&mut self) -> Option<Result<(usize, Lex), PgnError>> {
        self.compact();
        while let Some(c) = self.peek() {
            let line = self.line;
            if c == '\n' {
                self.line += 1;
                self.at_line_start = true;
                self.i += 1;
                continue;
            }
            if self.at_line_start && c == '%' {
                self.take_until('\n');
                continue;
            }
            if self.at_line_start {
                self.line_opens_tag = c == '[';
            }
            self.at_line_start = false;
            if c.is_whitespace() {
                self.i += 1;
                continue;
            }
            match c {
                '{' => {
                    self.i += 1;
                    let (text, closed) = self.take_comment();
                    if !closed {
                        return Some(Err(PgnError::Unterminated {
                            line,
                            what: "comment '{'",
                        }));
                    }
                    return Some(Ok((line, Lex::Comment(text.trim().to_string()))));
                }
                ';' => {
                    self.i += 1;
                    let (text, found) = self.take_until('\n');
                    if found {
                        self.at_line_start = true;
                    }
                    return Some(Ok((line, Lex::Comment(text.trim().to_string()))));
                }
                '(' => {
                    if let Err(e) = self.skip_variation() {
                        return Some(Err(e));
                    }
                }
                ')' => return Some(Err(PgnError::StrayParen { line })),
                '[' => return Some(self.tag().map(|t| (line, t))),
                _ => {
                    let start = self.i;
                    while self.peek().is_some_and(|c| !is_delimiter(c)) {
                        self.i += 1;
                    }
                    if self.i == start {
                        // A lone `]` or `}`.
                        self.i += 1;
                        continue;
                    }
                    let w: String = self.chars[start..self.i].iter().collect();
                    if w.starts_with('$') {
                        continue; // NAG
                    }
                    return Some(Ok((line, Lex::Word(w))));
                }
            }
        }
        None
    }
}

fn is_delimiter(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

/// A full-width digit `０`..`９` as its ASCII twin; other characters unchanged.
fn narrow_digit(c: char) -> char {
    match c {
        '０'..='９' => char::from(b'0' + (c as u32 - '０' as u32) as u8),
        _ => c,
    }
}

/// Drops a move-number prefix: `1.`, `12...`, `1．`, `1。`, `1、`, `1…`, `１．` (full-width
/// digits), or a bare number. What is left may be empty (the number stood alone).
fn strip_move_number(w: &str) -> &str {
    let digits: usize = w
        .chars()
        .take_while(|&c| narrow_digit(c).is_ascii_digit())
        .map(char::len_utf8)
        .sum();
    if digits == 0 {
        return w;
    }
    let rest = &w[digits..];
    if rest.is_empty() {
        // A bare number (`1 炮二平五`, as some Chinese records write it).
        return rest;
    }
    let trimmed = rest.trim_start_matches(['.', '．', '。', '、', '…']);
    if trimmed.len() == rest.len() {
        w
    } else {
        trimmed
    }
}

/// Annotation marks after a move: `!`, `?`, `!?` and their full-width forms.
const MARKS: [char; 4] = ['!', '?', '！', '？'];

/// The mark glued to the end of a move word (`炮二平五？！` -> `?!`), in ASCII; empty when none.
fn mark_of(word: &str) -> String {
    let bare = word.trim_end_matches(MARKS);
    word[bare.len()..]
        .chars()
        .map(|c| match c {
            '！' => '!',
            '？' => '?',
            c => c,
        })
        .collect()
}

/// A game being read.
struct Builder {
    tags: Vec<(String, String)>,
    fen_line: usize,
    pos: Option<Position>,
    start: Option<Position>,
    moves: Vec<Move>,
    /// The result token seen, if any (`Some(None)`: `*`).
    result: Option<Option<GameResult>>,
    comments: Vec<(usize, String)>,
    marks: Vec<(usize, String)>,
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
            comments: Vec::new(),
            marks: Vec::new(),
        }
    }

    fn has_movetext(&self) -> bool {
        self.pos.is_some() || self.result.is_some()
    }

    /// Nothing that makes a game: comments alone do not.
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
            .and_then(|(_, v)| parse_result(v));
        Ok(Game {
            tags: self.tags,
            start,
            moves: self.moves,
            result: self.result.or(tag_result).flatten(),
            comments: self.comments,
            marks: self.marks,
        })
    }
}

/// What the reader does with movetext it meets.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Skip {
    /// Reads it.
    No,
    /// The current game had an error: its remaining movetext is passed over up to its result
    /// token or the next tag.
    BadGame,
    /// Text after a game that is not a game: passed over up to the next tag.
    Junk,
}

/// Reads every game in `text`, going on after a bad game. A file of bare movetext (no tags)
/// is one game from the start position.
pub fn read_pgn(text: &str) -> PgnFile {
    let mut file = PgnFile {
        games: Vec::new(),
        warnings: Vec::new(),
    };
    let mut games = Vec::new();
    read_pgn_stream(
        text.chars(),
        |g| {
            games.push(g);
            ControlFlow::Continue(())
        },
        &mut file.warnings,
    );
    file.games = games;
    file
}

/// Where [`read_pgn_stream`] hands its games: the caller's function, the count so far, and
/// whether the caller has asked to stop.
struct Games<F> {
    emit: F,
    count: usize,
    stopped: bool,
}

impl<F: FnMut(Result<Game, PgnError>) -> ControlFlow<()>> Games<F> {
    fn push(&mut self, g: Result<Game, PgnError>) {
        if !self.stopped {
            self.count += 1;
            self.stopped = (self.emit)(g).is_break();
        }
    }
}

/// [`read_pgn_stream`] between two units of the text: where the games go, the game being
/// built, what is being passed over, and the warnings.
struct Reading<'w, F> {
    out: Games<F>,
    cur: Builder,
    skip: Skip,
    warnings: &'w mut Vec<String>,
}

impl<F: FnMut(Result<Game, PgnError>) -> ControlFlow<()>> Reading<'_, F> {
    /// The game being built ends here, handed out.
    fn push_current(&mut self) {
        self.out
            .push(std::mem::replace(&mut self.cur, Builder::new()).finish());
    }

    /// A lexer error: the lexer stands at the next game's tags (or the end), so this game
    /// is over.
    fn error(&mut self, e: PgnError) {
        let in_tags = e.in_tags();
        let game = std::mem::replace(&mut self.cur, Builder::new());
        let whole = if in_tags {
            game.has_movetext()
        } else {
            game.result.is_some()
        };
        if self.skip == Skip::No && whole {
            // The game before had ended: it stands.
            self.out.push(game.finish());
            if !in_tags {
                self.warnings.push(format!(
                    "{e}: text after game {} ignored to the next tag",
                    self.out.count
                ));
            }
        }
        // A broken tag starts a game (a bad one); broken movetext is the bad game's,
        // already reported when it was bad or junk.
        if in_tags || (self.skip == Skip::No && !whole) {
            self.out.push(Err(e));
        }
        self.skip = Skip::Junk;
    }

    fn tag(&mut self, line: usize, name: String, value: String) {
        if self.skip == Skip::No && self.cur.has_movetext() {
            self.push_current();
        }
        self.skip = Skip::No;
        if name.eq_ignore_ascii_case("FEN") {
            self.cur.fen_line = line;
        }
        self.cur.tags.push((name, value));
    }

    fn comment(&mut self, c: String) {
        if self.skip == Skip::No && !c.is_empty() {
            self.cur.comments.push((self.cur.moves.len(), c));
        }
    }

    /// A word of movetext: a result, a move (with its number and marks), or noise.
    fn word(&mut self, line: usize, w: String) {
        let result = parse_result(&w);
        match self.skip {
            Skip::No => {}
            Skip::BadGame => {
                if result.is_some() {
                    self.skip = Skip::No;
                }
                return;
            }
            Skip::Junk => return,
        }
        if self.cur.result.is_some() {
            // Movetext after a result without new tags: the next game, or junk.
            self.push_current();
        }
        if result.is_none() && !w.chars().any(char::is_alphanumeric) {
            if !w.chars().all(|c| matches!(c, '.' | '…' | '。' | '．')) {
                self.warnings
                    .push(format!("line {line}: '{}' ignored", clip(&w)));
            }
            return;
        }
        if let Err(e) = self.cur.ensure_started() {
            self.out.push(Err(e));
            self.cur = Builder::new();
            self.skip = Skip::BadGame;
            return;
        }
        if let Some(r) = result {
            self.cur.result = Some(r);
            return;
        }
        let bare = w.trim_end_matches(MARKS);
        let token = strip_move_number(bare).trim_end_matches(MARKS);
        if token.is_empty() || token.chars().all(|c| c == '.') {
            return;
        }
        self.play(line, &w, bare, token);
    }

    /// The move of word `w` (`bare` without its marks, `token` without its number too).
    fn play(&mut self, line: usize, w: &str, bare: &str, token: &str) {
        let cur = &mut self.cur;
        let Some(pos) = cur.pos.as_mut() else {
            return;
        };
        // Try the whole word first: a WXF pawn move such as `33.4` looks like a move number.
        let parsed = notation::parse_any(pos, bare).or_else(|_| notation::parse_any(pos, token));
        match parsed {
            Ok(m) => {
                pos.make_move(m);
                cur.moves.push(m);
                let mark = mark_of(w);
                if !mark.is_empty() {
                    cur.marks.push((cur.moves.len(), mark));
                }
            }
            Err(NotationError::Syntax(_))
                if cur.tags.is_empty() && cur.moves.is_empty() && self.out.count > 0 =>
            {
                // Tagless text after a finished game whose first word is not shaped like a
                // move is not a game (a program's signature, say).
                self.warnings.push(format!(
                    "line {line}: text after game {} is not a game, ignored from '{}' to the next tag",
                    self.out.count,
                    clip(w)
                ));
                self.cur = Builder::new();
                self.skip = Skip::Junk;
            }
            Err(error) => {
                self.out.push(Err(PgnError::Move {
                    line,
                    game: self.out.count + 1,
                    ply: cur.moves.len() + 1,
                    token: clip(token),
                    error,
                }));
                self.cur = Builder::new();
                self.skip = Skip::BadGame;
            }
        }
    }
}

/// Reads every game of the text `chars` yields, as [`read_pgn`] does, handing each game to
/// `emit` as soon as it ends; `emit` may ask to stop (`ControlFlow::Break`), and no more of
/// the text is read. A file is read in one pass, holding one game (its comments included) and
/// one line of text at a time. Warnings about skipped text go to `warnings`. Returns the
/// number of games handed out.
pub fn read_pgn_stream<'a>(
    chars: impl Iterator<Item = char> + 'a,
    emit: impl FnMut(Result<Game, PgnError>) -> ControlFlow<()>,
    warnings: &mut Vec<String>,
) -> usize {
    let mut r = Reading {
        out: Games {
            emit,
            count: 0,
            stopped: false,
        },
        cur: Builder::new(),
        skip: Skip::No,
        warnings,
    };
    let mut lexer = Lexer::new(chars);
    // Asked to stop: not one more unit of the text is read.
    while !r.out.stopped {
        match lexer.next_lex() {
            None => break,
            Some(Err(e)) => r.error(e),
            Some(Ok((line, Lex::Tag(name, value)))) => r.tag(line, name, value),
            Some(Ok((_, Lex::Comment(c)))) => r.comment(c),
            Some(Ok((line, Lex::Word(w)))) => r.word(line, w),
        }
    }
    if r.skip == Skip::No && !r.cur.is_empty() {
        r.out.push(r.cur.finish());
    }
    r.out.count
}

/// Reads every game in `text`; the first error (in file order) refuses the whole text.
/// Warnings about skipped text are dropped: [`read_pgn`] has them.
pub fn parse_pgn(text: &str) -> Result<Vec<Game>, PgnError> {
    read_pgn(text).games.into_iter().collect()
}

/// At most 24 characters of `s`, for messages.
fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(24).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
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

/// A comment as `{...}` on one line: `}` cannot be written inside, line breaks become blanks.
fn comment_word(text: &str) -> String {
    let body: String = text
        .chars()
        .map(|c| match c {
            '}' => ')',
            '{' => '(',
            c if c.is_whitespace() => ' ',
            c => c,
        })
        .collect();
    format!("{{{}}}", body.trim())
}

/// How [`write_pgn_with`] writes Chinese moves.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct WriteOptions {
    /// Simplified (`马`) or traditional (`馬`) characters.
    pub script: Script,
    /// Black's file and rank numbers as full-width digits (`马８进７`), as most Chinese
    /// game files write them; otherwise ASCII (`马8进7`).
    pub full_width_digits: bool,
}

impl Default for WriteOptions {
    /// Simplified, ASCII digits: what [`write_pgn`] writes.
    fn default() -> Self {
        WriteOptions {
            script: Script::Simplified,
            full_width_digits: false,
        }
    }
}

/// Writes a game as PGN with moves in `format` (Chinese moves simplified, ASCII digits); see
/// [`write_pgn_with`].
pub fn write_pgn(game: &Game, format: MoveFormat) -> String {
    write_pgn_with(game, format, WriteOptions::default())
}

/// Writes a game as PGN with moves in `format`. The `Game`, `Result`, `FEN` (when the start
/// is not the initial position, or when the game already had one) and `Format` tags are set
/// from the game; other tags are written in their order; comments as `{...}` where they
/// stand. Moves that are not legal in turn (a hand-built game) end the movetext there rather
/// than being written wrongly.
pub fn write_pgn_with(game: &Game, format: MoveFormat, opts: WriteOptions) -> String {
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
    set(&mut tags, "Result", result_token(game.result).to_string());
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
    let mut comments = game.comments.iter().peekable();
    let mut marks = game.marks.iter().peekable();
    let mut after_comment = false;
    let mut write_comments = |out: &mut String, line: &mut String, ply: usize| {
        let mut any = false;
        while let Some((_, text)) = comments.next_if(|(p, _)| *p <= ply) {
            push(out, line, &comment_word(text));
            any = true;
        }
        any
    };
    after_comment |= write_comments(&mut out, &mut line, 0);
    for (i, &m) in game.moves.iter().enumerate() {
        if !pos.is_legal(m) {
            break;
        }
        let mut text = move_text(&pos, m, format, opts);
        // Marks of this move (one normally; a stale one of an earlier ply is dropped).
        while let Some((p, mark)) = marks.next_if(|(p, _)| *p <= i + 1) {
            if *p == i + 1 && mark.chars().all(|c| c == '!' || c == '?') {
                text.push_str(mark);
            }
        }
        let word = match pos.side_to_move() {
            Color::Red => format!("{number}. {text}"),
            Color::Black if i == 0 || after_comment => format!("{number}... {text}"),
            Color::Black => text,
        };
        push(&mut out, &mut line, &word);
        if pos.side_to_move() == Color::Black {
            number += 1;
        }
        pos.make_move(m);
        after_comment = write_comments(&mut out, &mut line, i + 1);
    }
    // Comments past the written moves (a hand-built game) still go out, before the result.
    write_comments(&mut out, &mut line, usize::MAX);
    push(&mut out, &mut line, result_token(game.result));
    out.push_str(&line);
    out.push('\n');
    out
}

/// One move as [`write_pgn_with`] writes it in `format`: `H2-E2`, `炮二平五` (script and
/// digits as `opts` say) or `C2=5`. `m` must be legal in `pos`.
pub fn move_text(pos: &Position, m: Move, format: MoveFormat, opts: WriteOptions) -> String {
    match format {
        MoveFormat::Iccs => format!("{}-{}", m.from(), m.to()).to_ascii_uppercase(),
        MoveFormat::Chinese => {
            let s = notation::to_chinese_in(pos, m, opts.script);
            if opts.full_width_digits {
                s.chars().map(wide_digit).collect()
            } else {
                s
            }
        }
        MoveFormat::Wxf => notation::to_wxf(pos, m),
    }
}

/// An ASCII digit as its full-width twin (`8` -> `８`); other characters unchanged.
fn wide_digit(c: char) -> char {
    match c {
        '0'..='9' => char::from_u32('０' as u32 + (c as u32 - '0' as u32)).unwrap_or(c),
        _ => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iccs(g: &Game) -> Vec<String> {
        g.moves.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn inner_quotes_run_to_the_closing_quote_bracket() {
        let text = "[Event \"第八屆\"銀荔杯\"象棋全國冠軍賽\"]\n[Site \"a \\\"b\\\" c\"] [Red \"x\" ]\n1. h2e2";
        let g = parse_pgn(text).expect("reads").remove(0);
        assert_eq!(g.tag("Event"), Some("第八屆\"銀荔杯\"象棋全國冠軍賽"));
        assert_eq!(g.tag("Site"), Some("a \"b\" c"));
        assert_eq!(g.tag("Red"), Some("x"));
        // Written back escaped, read back the same.
        let back = parse_pgn(&write_pgn(&g, MoveFormat::Iccs)).expect("reads back");
        assert_eq!(back[0].tag("Event"), g.tag("Event"));
        assert!(matches!(
            parse_pgn("[Event \"no end\n1. h2e2"),
            Err(PgnError::Unterminated { line: 1, .. })
        ));
    }

    #[test]
    fn marks_are_kept_and_written_back() {
        let g = parse_pgn("1. h2e2?! h9g7 2. h0g2？ i9h9!! 3. b2b9??").expect("reads")[0].clone();
        let marks: Vec<(usize, &str)> = g.marks.iter().map(|(p, m)| (*p, m.as_str())).collect();
        assert_eq!(marks, [(1, "?!"), (3, "?"), (4, "!!"), (5, "??")]);
        let text = write_pgn(&g, MoveFormat::Iccs);
        assert!(
            text.contains("1. H2-E2?! H9-G7 2. H0-G2? I9-H9!! 3. B2-B9??"),
            "{text}"
        );
        let back = parse_pgn(&text).expect("reads back").remove(0);
        assert_eq!((back.moves, back.marks), (g.moves, g.marks));
    }

    #[test]
    fn move_numbers_in_any_spacing_and_marks() {
        let text = "1。炮二平五 马８进７ ２．马二进三!? 2... 车９平８？ 3 车一平二 3 . 马2进3?! \
            4、兵七进一 $14 4… 卒７进１！";
        let file = read_pgn(text);
        assert!(file.warnings.is_empty(), "{:?}", file.warnings);
        let g = file.games[0].as_ref().expect("reads");
        assert_eq!(
            iccs(g),
            ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "c3c4", "g6g5"]
        );
    }

    #[test]
    fn comments_are_kept_where_they_stand() {
        let text = "{开局} 1. h2e2 {中炮} h9g7 ; 屏风马\n(2. b0c2 {变着里的注释不留}) 2. h0g2 1-0";
        let g = parse_pgn(text).expect("reads").remove(0);
        assert_eq!(
            g.comments,
            [
                (0, "开局".to_string()),
                (1, "中炮".to_string()),
                (2, "屏风马".to_string())
            ]
        );
        let written = write_pgn(&g, MoveFormat::Iccs);
        assert!(
            written.contains("{开局} 1. H2-E2 {中炮} 1... H9-G7 {屏风马} 2. H0-G2 1-0"),
            "{written}"
        );
        let back = parse_pgn(&written).expect("reads back").remove(0);
        assert_eq!((back.moves, back.comments), (g.moves, g.comments));
    }

    #[test]
    fn trailing_junk_is_a_warning_not_the_loss_of_the_game() {
        let text = "[Event \"a\"]\n1. h2e2 h9g7 1-0\n=====\n";
        let file = read_pgn(text);
        assert_eq!(file.games.len(), 1);
        assert_eq!(file.games[0].as_ref().map(|g| g.moves.len()), Ok(2));
        assert_eq!(file.warnings, ["line 3: '=====' ignored"]);

        // A program's signature after the last game.
        let file = read_pgn("1. h2e2 1-0\nGenerated by XQStudio 1.0\n");
        assert_eq!(file.games.len(), 1);
        assert!(file.games[0].is_ok());
        assert_eq!(file.warnings.len(), 1, "{:?}", file.warnings);
        assert!(
            file.warnings[0].contains("Generated"),
            "{:?}",
            file.warnings
        );

        // But an illegal move in a game is an error, not junk.
        let file = read_pgn("[Event \"a\"]\n1. h2e2 1-0\n[Event \"b\"]\n1. h2e9 1-0\n");
        assert!(matches!(
            file.games[1],
            Err(PgnError::Move {
                game: 2,
                ply: 1,
                line: 4,
                ..
            })
        ));
    }

    #[test]
    fn a_bad_game_does_not_stop_the_games_after_it() {
        let text = "[Event \"1\"]\n1. h2e2 h9g7 1-0\n\
            [Event \"2\"]\n1. h2e2 h9g7 2. h2e2 h0g2 0-1\n\
            [Event \"3\"]\n1. 炮二平五 马8进7 *\n";
        let file = read_pgn(text);
        assert_eq!(file.games.len(), 3);
        let e = file.games[1].as_ref().expect_err("game 2 is bad");
        assert!(
            matches!(
                e,
                PgnError::Move {
                    game: 2,
                    ply: 3,
                    line: 4,
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("game 2, ply 3"), "{e}");
        assert_eq!(
            file.games[2].as_ref().map(iccs),
            Ok(vec!["h2e2".into(), "h9g7".into()])
        );
        assert_eq!(parse_pgn(text).expect_err("refused"), *e);
        // An ambiguous move says so.
        let p = "[FEN \"3k5/9/9/9/9/6R2/9/6R2/9/4K4 w\"]\n1. 车三进一";
        match read_pgn(p).games[0].as_ref() {
            Err(PgnError::Move { error, .. }) => {
                assert!(matches!(error, NotationError::Ambiguous(_)), "{error}")
            }
            other => panic!("{other:?}"),
        }
    }

    /// `n` games `[Event "k"]` of two plies each, the `bad`-th one's movetext replaced.
    fn games_with_one_broken(n: usize, bad: usize, movetext: &str) -> String {
        (1..=n)
            .map(|k| {
                let moves = if k == bad { movetext } else { "1. h2e2 h9g7 *" };
                format!("[Event \"{k}\"]\n\n{moves}\n")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Each game read as `Ok(event)` or `Err(error)`.
    fn events(text: &str) -> Vec<Result<String, PgnError>> {
        read_pgn(text)
            .games
            .into_iter()
            .map(|g| g.map(|g| g.tag("Event").unwrap_or("").to_string()))
            .collect()
    }

    #[test]
    fn a_broken_game_is_reported_and_reading_resumes_at_the_next_tags() {
        let good = |k: usize| Ok(k.to_string());
        for (movetext, error) in [
            ("1. h2e2 ) h9g7 *", PgnError::StrayParen { line: 43 }),
            (
                "1. h2e2 ( h9g7 *",
                PgnError::Unterminated {
                    line: 43,
                    what: "variation '('",
                },
            ),
            (
                "1. h2e2 { h9g7 *",
                PgnError::Unterminated {
                    line: 43,
                    what: "comment '{'",
                },
            ),
            // A comment never closed inside a variation never closed.
            (
                "1. h2e2 (1. c3c4 {x",
                PgnError::Unterminated {
                    line: 43,
                    what: "variation '('",
                },
            ),
        ] {
            let text = games_with_one_broken(21, 11, movetext);
            let mut expected: Vec<_> = (1..=21).map(good).collect();
            expected[10] = Err(error);
            assert_eq!(events(&text), expected, "{movetext}");
        }

        // A malformed tag: the game is bad, its other tags and movetext go with it.
        let text = games_with_one_broken(5, 3, "1. h2e2 *").replace(
            "[Event \"3\"]\n",
            "[Event \"3\"]\n[Site x]\n[Date \"2024\"]\n",
        );
        let mut expected: Vec<_> = (1..=5).map(good).collect();
        expected[2] = Err(PgnError::BadTag { line: 10 });
        assert_eq!(events(&text), expected);
        // A tag string never closed, the same.
        let text = games_with_one_broken(5, 3, "1. h2e2 *").replace("[Event \"3\"]", "[Event \"3");
        expected[2] = Err(PgnError::Unterminated {
            line: 9,
            what: "tag string",
        });
        assert_eq!(events(&text), expected);

        // A tag inside a comment is text, unless it begins a line: that is the next game.
        let text = "[Event \"1\"]\n1. h2e2 {see\n [Event \"x\"] below} h9g7 *\n";
        let g = parse_pgn(text).expect("reads").remove(0);
        assert_eq!(g.moves.len(), 2);
        assert_eq!(g.comments, [(1, "see\n [Event \"x\"] below".to_string())]);
        let file = read_pgn(&text.replace("\n [", "\n["));
        assert_eq!(file.games.len(), 2);
        assert!(matches!(
            file.games[0],
            Err(PgnError::Unterminated { line: 2, .. })
        ));

        // Junk after a whole game is a warning, not the loss of that game.
        let file = read_pgn("[Event \"1\"]\n1. h2e2 h9g7 * ) {\n[Event \"2\"]\n1. h2e2 *\n");
        assert_eq!(file.games.len(), 2, "{file:?}");
        assert!(file.games.iter().all(Result::is_ok), "{file:?}");
        assert_eq!(file.warnings.len(), 1, "{:?}", file.warnings);
    }

    #[test]
    fn random_bytes_between_games_lose_no_game_after_them() {
        let games = (1..=50)
            .map(|k| format!("[Event \"{k}\"]\n1. h2e2 {{c}} h9g7 (1... b9c7) 2. h0g2 *\n\n"))
            .collect::<String>();
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(63);
        for _ in 0..20 {
            let bytes: Vec<u8> = (0..1024).map(|_| rng.random()).collect();
            let junk = String::from_utf8_lossy(&bytes);
            let text = format!("{games}{junk}\n{games}");
            let good = read_pgn(&text)
                .games
                .iter()
                .filter(|g| g.as_ref().is_ok_and(|g| g.moves.len() == 3))
                .count();
            assert_eq!(good, 100, "games read of 100");
        }
    }

    #[test]
    fn full_width_digits_and_traditional_script_on_writing() {
        let g = parse_pgn("1. h2e2 h9g7 2. h0g2 i9h9")
            .expect("reads")
            .remove(0);
        let opts = WriteOptions {
            script: Script::Traditional,
            full_width_digits: true,
        };
        let t = write_pgn_with(&g, MoveFormat::Chinese, opts);
        assert!(
            t.contains("1. 炮二平五 馬８進７ 2. 馬二進三 車９平８ *"),
            "{t}"
        );
        assert_eq!(parse_pgn(&t).expect("reads back")[0].moves, g.moves);
    }

    #[test]
    fn random_bytes_and_truncations_never_panic() {
        let good = "[Event \"第八屆\"銀荔杯\"\"]\n[FEN \"3k5/9/9/9/9/9/9/9/3R5/5K3 b\"]\n\
            {c} 1... K4=5 (1... 将4平5 {x}) $1 1-0\n=====\n[Event \"2\"]\n1. 炮二平五 马８进７ 0-1\n";
        let mut x = 0x2545_F491u32;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        let chars: Vec<char> = good.chars().collect();
        for _ in 0..3000 {
            let text: String = match rnd() % 3 {
                0 => chars[..(rnd() as usize) % (chars.len() + 1)]
                    .iter()
                    .collect(),
                1 => {
                    let mut c = chars.clone();
                    for _ in 0..1 + rnd() % 6 {
                        let i = (rnd() as usize) % c.len();
                        c[i] = chars[(rnd() as usize) % chars.len()];
                    }
                    c.into_iter().collect()
                }
                _ => {
                    let bytes: Vec<u8> = (0..rnd() % 200).map(|_| rnd() as u8).collect();
                    String::from_utf8_lossy(&bytes).into_owned()
                }
            };
            let file = read_pgn(&text);
            for g in file.games.iter().flatten() {
                assert_eq!(g.end_position().history().len(), g.moves.len());
                let written = write_pgn(g, MoveFormat::Chinese);
                let back = parse_pgn(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
                assert_eq!(back.len(), 1, "{written}");
                assert_eq!(back[0].moves, g.moves, "{written}");
            }
        }
    }
}
