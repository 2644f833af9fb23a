//! One input line → one typed [`Command`], for both UCCI and UCI.
//!
//! The parser accepts the *union* of both grammars in both dialects, because real GUIs mix them
//! (ucci.md §4.3, §4.6, §9.5): TCHESS sends `setoption Hash 64` and `go movetime 5000` to UCCI
//! engines, UCI-Cyclone GUIs send `fen …` without `position`, and UCI2WB reorders `go` keywords.
//! The [`Dialect`] argument therefore changes no grammar; it only words messages.
//!
//! Guarantees, whatever the input:
//!
//! * never panics, never allocates more than a constant factor of the line, runs in linear time;
//! * keywords are case-insensitive whole tokens (`isreadyXYZ` is *not* `isready`, unlike
//!   ElephantEye's prefix match, ucci.md §1);
//! * separators are any run of ASCII whitespace (and NUL), so `\r\n`, tabs and GMChess's double
//!   spaces are harmless; a leading UTF-8 byte-order mark is skipped;
//! * problems that still leave a usable command become [`ParseOutcome::warnings`]; unusable lines
//!   become a [`ParseError`]. Both are one printable line, suitable for `info string`.
//!
//! What stays *unparsed* here, by design: FENs and moves are kept as strings (the board layer
//! validates them, ucci.md §3, §4.4), option names/values are kept verbatim (the engine decides
//! what it knows, ucci.md §4.3), and clock units are left as sent until the caller knows the
//! `usemillisec` setting and the side to move ([`GoParams::limits`], ucci.md §6).
//!
//! It depends on nothing but `std`: what it produces is text and plain numbers, which the
//! session hands to the board and the time manager.

use std::fmt;

/// The protocol the session speaks. Decided once from the first line (ucci.md §9.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// UCCI: `ucci`/`ucciok`, times in seconds unless `usemillisec` is on.
    Ucci,
    /// UCI and UCI-Cyclone: `uci`/`uciok`, times always in milliseconds.
    Uci,
}

impl Dialect {
    fn name(self) -> &'static str {
        match self {
            Dialect::Ucci => "UCCI",
            Dialect::Uci => "UCI",
        }
    }
}

/// Where a `position` or `probe` starts from, before its move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionSpec {
    /// `startpos`.
    Startpos,
    /// `fen …`: every token between `fen` and `moves` (or the end), joined by single spaces.
    /// Not validated here.
    Fen(String),
}

/// A parsed input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ucci`: start a UCCI session.
    Ucci,
    /// `uci`: start a UCI session.
    Uci,
    /// `ucicyclone`: UCI syntax with 0-based ranks for sure (ucci.md §9.3, Fairy-Stockfish's name).
    UciCyclone,
    /// `isready`.
    IsReady,
    /// `setoption <name> [<value>]` (UCCI) or `setoption name <Name …> [value <v …>]` (UCI).
    /// Name and value are verbatim; see [`canonical_option_name`] and [`parse_check_value`].
    SetOption {
        /// The option name as sent (one word in UCCI form, possibly several in UCI form).
        name: String,
        /// `None` when nothing followed the name (button options such as `newgame`). A UCI
        /// `value` keyword with nothing after it gives `Some("")` (an empty string option).
        value: Option<String>,
    },
    /// `position {fen <FEN> | startpos} [moves …]`, also the bare Cyclone forms `fen …` and
    /// `startpos …` (ucci.md §9.3).
    Position {
        /// The starting point.
        fen: PositionSpec,
        /// Move tokens as sent (not validated; the board layer stops at the first bad one).
        moves: Vec<String>,
    },
    /// `banmoves [m …]`: root moves forbidden until the next `position` (ucci.md §4.5).
    BanMoves(Vec<String>),
    /// `go …` in any keyword order (boxed: it is much larger than the other variants).
    Go(Box<GoParams>),
    /// `ponderhit [draw]`.
    PonderHit {
        /// The opponent offers a draw with the ponder hit (ucci.md §4.7).
        draw: bool,
    },
    /// `stop`.
    Stop,
    /// `probe {fen <FEN> | startpos} [moves …]` (ucci.md §4.9).
    Probe {
        /// The position to look up.
        fen: PositionSpec,
        /// Move tokens after it.
        moves: Vec<String>,
    },
    /// `quit`.
    Quit,
    /// `ucinewgame` or QBoard's `uccinewgame`; treat like `setoption newgame` (ucci.md §4.11).
    UciNewGame,
}

/// Every limit and flag a `go` line can carry, UCCI and UCI keywords alike.
///
/// Clock values are stored as sent: UCCI's `time`, `increment`, `opptime`, `oppincrement` may be
/// seconds (ucci.md §6); UCI's `wtime`/`btime`/`winc`/`binc`/`movetime` are milliseconds. Use
/// [`GoParams::limits`] to get normalised milliseconds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `depth <d>`.
    pub depth: Option<u32>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
    /// UCCI `time <t>`: our remaining clock.
    pub time: Option<u64>,
    /// `movestogo <n>` (both dialects): moves left in the current period.
    pub movestogo: Option<u32>,
    /// UCCI `increment <i>`.
    pub increment: Option<u64>,
    /// UCCI `opptime <t>`.
    pub opptime: Option<u64>,
    /// UCCI `oppmovestogo <n>`.
    pub oppmovestogo: Option<u32>,
    /// UCCI `oppincrement <i>`.
    pub oppincrement: Option<u64>,
    /// UCI `wtime <ms>`: Red's clock (white = Red in xiangqi).
    pub wtime: Option<u64>,
    /// UCI `btime <ms>`: Black's clock.
    pub btime: Option<u64>,
    /// UCI `winc <ms>`.
    pub winc: Option<u64>,
    /// UCI `binc <ms>`.
    pub binc: Option<u64>,
    /// `movetime <ms>` (UCI; TCHESS also sends it to UCCI engines).
    pub movetime: Option<u64>,
    /// UCI `mate <n>`: search for a mate in n moves.
    pub mate: Option<u32>,
    /// `perft <d>`: developer command (Stockfish family), not part of either protocol.
    pub perft: Option<u32>,
    /// UCI `searchmoves m …`: only these root moves.
    pub searchmoves: Vec<String>,
    /// `infinite`, `depth infinite`, or no limit at all (bare `go`): think until `stop`.
    pub infinite: bool,
    /// `ponder`: think on the opponent's time until `ponderhit`/`stop`.
    pub ponder: bool,
    /// `draw`: the opponent offers a draw with this move (UCCI, ucci.md §4.6).
    pub draw: bool,
}

/// Why a line gave no command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Blank line: ignore silently.
    Empty,
    /// The first token is no command we know. `command` is a printable excerpt of it.
    Unknown {
        /// The token, shortened and with control characters replaced.
        command: String,
        /// The dialect in use, for the message.
        dialect: Dialect,
    },
    /// A known command whose arguments cannot be used (e.g. `position` with neither `fen` nor
    /// `startpos`, `setoption` without a name).
    Invalid {
        /// The command keyword.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

impl ParseError {
    /// Whether the engine should stay silent (blank lines) rather than print the message.
    pub fn is_silent(&self) -> bool {
        matches!(self, ParseError::Empty)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Empty => write!(f, "empty line"),
            ParseError::Unknown { command, dialect } => {
                write!(f, "unknown {} command: {command}", dialect.name())
            }
            ParseError::Invalid { command, reason } => write!(f, "{command}: {reason}"),
        }
    }
}

impl std::error::Error for ParseError {}

/// The result of parsing one line: a command or an error, plus warnings either way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseOutcome {
    /// The command, or why there is none.
    pub result: Result<Command, ParseError>,
    /// Things that were ignored or repaired (bad numbers, stray tokens). One printable line
    /// each, meant for `info string`.
    pub warnings: Vec<String>,
}

impl ParseOutcome {
    /// The command, if the line gave one.
    pub fn command(&self) -> Option<&Command> {
        self.result.as_ref().ok()
    }

    /// Every line worth reporting: the error (unless silent) followed by the warnings.
    pub fn messages(&self) -> Vec<String> {
        let mut out = Vec::with_capacity(self.warnings.len() + 1);
        if let Err(e) = &self.result {
            if !e.is_silent() {
                out.push(e.to_string());
            }
        }
        out.extend(self.warnings.iter().cloned());
        out
    }
}

/// Parses one line (with or without its line ending). Never panics.
pub fn parse_line(line: &str, dialect: Dialect) -> ParseOutcome {
    let line = line.strip_prefix('\u{feff}').unwrap_or(line);
    let toks = tokenize(line);
    let mut warnings = Vec::new();
    let result = match toks.split_first() {
        None => Err(ParseError::Empty),
        Some((first, rest)) => parse_tokens(line, first, rest, dialect, &mut warnings),
    };
    if warnings.len() > MAX_WARNINGS {
        let dropped = warnings.len() - MAX_WARNINGS;
        warnings.truncate(MAX_WARNINGS);
        warnings.push(format!("... and {dropped} more warning(s) for this line"));
    }
    ParseOutcome { result, warnings }
}

/// At most this many warnings are reported per line, so garbage cannot flood the GUI.
const MAX_WARNINGS: usize = 8;

/// A token and where it starts in the line (for "rest of line" values).
#[derive(Clone, Copy, Debug)]
struct Tok<'a> {
    text: &'a str,
    start: usize,
}

impl Tok<'_> {
    fn is(&self, keyword: &str) -> bool {
        self.text.eq_ignore_ascii_case(keyword)
    }
}

fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c | 0)
}

/// Splits on runs of ASCII whitespace. Separators are single ASCII bytes, which never occur
/// inside a multi-byte UTF-8 character, so every slice boundary is a char boundary.
fn tokenize(line: &str) -> Vec<Tok<'_>> {
    let bytes = line.as_bytes();
    let mut toks = Vec::new();
    let mut start = None;
    for (i, &b) in bytes.iter().enumerate() {
        match (is_separator(b), start) {
            (true, Some(s)) => {
                push_tok(&mut toks, line, s, i);
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        push_tok(&mut toks, line, s, bytes.len());
    }
    toks
}

fn push_tok<'a>(toks: &mut Vec<Tok<'a>>, line: &'a str, start: usize, end: usize) {
    if let Some(text) = line.get(start..end) {
        toks.push(Tok { text, start });
    }
}

/// The line from `tok` to the end, without trailing separators.
fn rest_from<'a>(line: &'a str, tok: &Tok<'_>) -> &'a str {
    line.get(tok.start..)
        .unwrap_or("")
        .trim_end_matches(|c: char| c.is_ascii() && is_separator(c as u8))
}

/// A printable, bounded excerpt of user input for messages: at most 40 characters, control and
/// non-ASCII whitespace characters replaced, so an `info string` stays one line.
fn excerpt(s: &str) -> String {
    const MAX_CHARS: usize = 40;
    let mut out: String = s
        .chars()
        .take(MAX_CHARS)
        .map(|c| {
            if c.is_control() || c.is_whitespace() {
                '?'
            } else {
                c
            }
        })
        .collect();
    if s.chars().nth(MAX_CHARS).is_some() {
        out.push_str("...");
    }
    out
}

/// Describes extra tokens that a command ignores.
fn warn_ignored(warnings: &mut Vec<String>, command: &str, toks: &[Tok<'_>]) {
    if let Some(first) = toks.first() {
        let more = if toks.len() > 1 {
            format!(" and {} more token(s)", toks.len() - 1)
        } else {
            String::new()
        };
        warnings.push(format!(
            "{command}: ignored '{}'{more}",
            excerpt(first.text)
        ));
    }
}

fn parse_tokens(
    line: &str,
    first: &Tok<'_>,
    rest: &[Tok<'_>],
    dialect: Dialect,
    warnings: &mut Vec<String>,
) -> Result<Command, ParseError> {
    // Commands that take no arguments: extra tokens are reported and ignored.
    let simple = [
        ("ucci", Command::Ucci),
        ("uci", Command::Uci),
        ("ucicyclone", Command::UciCyclone),
        ("isready", Command::IsReady),
        ("stop", Command::Stop),
        ("quit", Command::Quit),
        ("ucinewgame", Command::UciNewGame),
        ("uccinewgame", Command::UciNewGame),
    ];
    for (keyword, command) in simple {
        if first.is(keyword) {
            warn_ignored(warnings, keyword, rest);
            return Ok(command);
        }
    }
    if first.is("setoption") {
        parse_setoption(line, rest)
    } else if first.is("position") {
        let (fen, moves) = parse_position_spec("position", rest, warnings)?;
        Ok(Command::Position { fen, moves })
    } else if first.is("fen") || first.is("startpos") {
        // UCI-Cyclone: the position without the `position` keyword (ucci.md §9.3).
        let all = std::slice::from_ref(first).iter().chain(rest).copied();
        let toks: Vec<Tok<'_>> = all.collect();
        let (fen, moves) = parse_position_spec("position", &toks, warnings)?;
        Ok(Command::Position { fen, moves })
    } else if first.is("probe") {
        let (fen, moves) = parse_position_spec("probe", rest, warnings)?;
        Ok(Command::Probe { fen, moves })
    } else if first.is("banmoves") {
        Ok(Command::BanMoves(
            rest.iter().map(|t| t.text.to_string()).collect(),
        ))
    } else if first.is("go") {
        Ok(Command::Go(Box::new(parse_go(rest, warnings))))
    } else if first.is("debug") {
        // UCI's `debug [on|off]`: the `debug` option by its command name (bare: on).
        let value = rest.first().map_or("on", |t| t.text).to_string();
        warn_ignored(warnings, "debug", rest.get(1..).unwrap_or(&[]));
        Ok(Command::SetOption {
            name: "debug".into(),
            value: Some(value),
        })
    } else if first.is("ponderhit") {
        let draw = rest.first().is_some_and(|t| t.is("draw"));
        warn_ignored(
            warnings,
            "ponderhit",
            rest.get(usize::from(draw)..).unwrap_or(&[]),
        );
        Ok(Command::PonderHit { draw })
    } else {
        Err(ParseError::Unknown {
            command: excerpt(first.text),
            dialect,
        })
    }
}

/// `setoption name <N …> [value <V …>]` or `setoption <name> [<value …>]`.
fn parse_setoption(line: &str, rest: &[Tok<'_>]) -> Result<Command, ParseError> {
    let invalid = |reason: &str| ParseError::Invalid {
        command: "setoption",
        reason: reason.to_string(),
    };
    let Some((head, tail)) = rest.split_first() else {
        return Err(invalid("missing option name"));
    };
    if head.is("name") {
        // UCI form: the name runs to the `value` keyword; the value is the verbatim rest.
        let value_at = tail.iter().position(|t| t.is("value"));
        let name_toks = match value_at {
            Some(i) => tail.get(..i).unwrap_or(&[]),
            None => tail,
        };
        if name_toks.is_empty() {
            return Err(invalid("missing option name after 'name'"));
        }
        let name = join(name_toks);
        let value = value_at.map(|i| match tail.get(i + 1) {
            Some(v) => rest_from(line, v).to_string(),
            None => String::new(),
        });
        Ok(Command::SetOption { name, value })
    } else {
        // UCCI form: one-word name; the value is everything after it, spaces kept (bookfiles
        // paths, ucci.md §4.3).
        let value = tail.first().map(|v| rest_from(line, v).to_string());
        Ok(Command::SetOption {
            name: head.text.to_string(),
            value,
        })
    }
}

fn join(toks: &[Tok<'_>]) -> String {
    let len = toks.iter().map(|t| t.text.len() + 1).sum();
    let mut out = String::with_capacity(len);
    for (i, t) in toks.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        out.push_str(t.text);
    }
    out
}

/// `{fen <FEN> | startpos} [moves …]`, shared by `position`, bare Cyclone lines and `probe`.
fn parse_position_spec(
    command: &'static str,
    toks: &[Tok<'_>],
    warnings: &mut Vec<String>,
) -> Result<(PositionSpec, Vec<String>), ParseError> {
    let invalid = |reason: String| ParseError::Invalid { command, reason };
    let Some((kind, after)) = toks.split_first() else {
        return Err(invalid("expected 'fen <FEN>' or 'startpos'".to_string()));
    };
    let moves_at = after.iter().position(|t| t.is("moves"));
    let (before_moves, moves) = match moves_at {
        Some(i) => (
            after.get(..i).unwrap_or(&[]),
            after.get(i + 1..).unwrap_or(&[]),
        ),
        None => (after, &[][..]),
    };
    let spec = if kind.is("startpos") {
        warn_ignored(warnings, command, before_moves);
        PositionSpec::Startpos
    } else if kind.is("fen") {
        if before_moves.is_empty() {
            return Err(invalid("missing FEN after 'fen'".to_string()));
        }
        PositionSpec::Fen(join(before_moves))
    } else {
        return Err(invalid(format!(
            "expected 'fen' or 'startpos', got '{}'",
            excerpt(kind.text)
        )));
    };
    Ok((spec, moves.iter().map(|t| t.text.to_string()).collect()))
}

/// Keywords of `go` that take a value, and the flags; used to avoid swallowing a keyword as a
/// missing value (`go depth time 1000`).
pub(crate) const GO_KEYWORDS: [&str; 19] = [
    "depth",
    "nodes",
    "time",
    "movestogo",
    "increment",
    "opptime",
    "oppmovestogo",
    "oppincrement",
    "wtime",
    "btime",
    "winc",
    "binc",
    "movetime",
    "mate",
    "perft",
    "searchmoves",
    "infinite",
    "ponder",
    "draw",
];

fn is_go_keyword(tok: &Tok<'_>) -> bool {
    GO_KEYWORDS.iter().any(|k| tok.is(k))
}

/// A number as written, before it is fitted into a field.
enum Number {
    Value(u64),
    /// Had a minus sign (clamped to 0).
    Negative,
    /// Too large for u64 (saturated).
    Huge,
    Garbage,
}

/// Parses `[+-]digits` with saturation, in one pass.
fn parse_number(text: &str) -> Number {
    let (negative, digits) = match text.as_bytes().first() {
        Some(b'-') => (true, text.get(1..).unwrap_or("")),
        Some(b'+') => (false, text.get(1..).unwrap_or("")),
        _ => (false, text),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Number::Garbage;
    }
    if negative {
        return Number::Negative;
    }
    let mut value: u64 = 0;
    for b in digits.bytes() {
        match value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
        {
            Some(v) => value = v,
            None => return Number::Huge,
        }
    }
    Number::Value(value)
}

/// Reads the value after a `go` keyword. Negative → 0, huge → saturated, non-number → `None`
/// (the caller picks a fallback). A following keyword is not consumed.
fn take_number(
    toks: &[Tok<'_>],
    i: &mut usize,
    key: &str,
    warnings: &mut Vec<String>,
) -> Option<u64> {
    let Some(tok) = toks.get(*i).filter(|t| !is_go_keyword(t)) else {
        warnings.push(format!("go: missing value after '{key}'"));
        return None;
    };
    *i += 1;
    match parse_number(tok.text) {
        Number::Value(v) => Some(v),
        Number::Negative => {
            warnings.push(format!(
                "go: negative {key} '{}' read as 0",
                excerpt(tok.text)
            ));
            Some(0)
        }
        Number::Huge => Some(u64::MAX),
        Number::Garbage => {
            warnings.push(format!(
                "go: '{}' after '{key}' is not a number",
                excerpt(tok.text)
            ));
            None
        }
    }
}

fn saturate_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// `go` as an unordered set of keywords (ucci.md §4.6: UCI2WB reorders them, transcripts 18).
///
/// Fallbacks for a value that is not a number, chosen so the engine still answers without a
/// `stop`: times, increments and `nodes` become 0 (move at once), `depth`/`mate`/`perft` become 1,
/// `movestogo`/`oppmovestogo` are dropped (a guessed period could overspend the clock).
fn parse_go(toks: &[Tok<'_>], warnings: &mut Vec<String>) -> GoParams {
    let mut p = GoParams::default();
    let mut limited = false;
    let mut i = 0;
    while let Some(tok) = toks.get(i) {
        i += 1;
        let key = tok.text;
        if tok.is("infinite") {
            p.infinite = true;
        } else if tok.is("ponder") {
            p.ponder = true;
        } else if tok.is("draw") {
            p.draw = true;
        } else if tok.is("searchmoves") {
            while let Some(m) = toks.get(i).filter(|t| !is_go_keyword(t)) {
                p.searchmoves.push(m.text.to_string());
                i += 1;
            }
        } else if tok.is("depth") && toks.get(i).is_some_and(|t| t.is("infinite")) {
            // UCCI `go depth infinite`.
            i += 1;
            p.infinite = true;
        } else if tok.is("movestogo") || tok.is("oppmovestogo") {
            let v = take_number(toks, &mut i, key, warnings).map(saturate_u32);
            if tok.is("movestogo") {
                p.movestogo = v.or(p.movestogo);
            } else {
                p.oppmovestogo = v.or(p.oppmovestogo);
            }
        } else if let Some(field) = count_field(&mut p, tok) {
            let v = take_number(toks, &mut i, key, warnings).unwrap_or(1);
            *field = Some(saturate_u32(v));
            limited = true;
        } else if let Some((field, is_limit)) = ms_field(&mut p, tok) {
            *field = Some(take_number(toks, &mut i, key, warnings).unwrap_or(0));
            limited |= is_limit;
        } else {
            warnings.push(format!("go: ignored unknown token '{}'", excerpt(key)));
        }
    }
    if !limited {
        // Bare `go` (or only flags): think until `stop`, as in UCI practice (ucci.md §4.6).
        p.infinite = true;
    }
    p
}

/// Small-count fields (`depth`, `mate`, `perft`); all of them limit the search.
fn count_field<'p>(p: &'p mut GoParams, tok: &Tok<'_>) -> Option<&'p mut Option<u32>> {
    if tok.is("depth") {
        Some(&mut p.depth)
    } else if tok.is("mate") {
        Some(&mut p.mate)
    } else if tok.is("perft") {
        Some(&mut p.perft)
    } else {
        None
    }
}

/// Large-number fields, and whether giving one limits the search (increments alone do not).
fn ms_field<'p>(p: &'p mut GoParams, tok: &Tok<'_>) -> Option<(&'p mut Option<u64>, bool)> {
    let field = if tok.is("nodes") {
        (&mut p.nodes, true)
    } else if tok.is("time") {
        (&mut p.time, true)
    } else if tok.is("increment") {
        (&mut p.increment, false)
    } else if tok.is("opptime") {
        (&mut p.opptime, false)
    } else if tok.is("oppincrement") {
        (&mut p.oppincrement, false)
    } else if tok.is("wtime") {
        (&mut p.wtime, true)
    } else if tok.is("btime") {
        (&mut p.btime, true)
    } else if tok.is("winc") {
        (&mut p.winc, false)
    } else if tok.is("binc") {
        (&mut p.binc, false)
    } else if tok.is("movetime") {
        (&mut p.movetime, true)
    } else {
        return None;
    };
    Some(field)
}

/// Milliseconds per unit of UCCI's `time`/`increment`/`opptime`/`oppincrement` (ucci.md §6):
/// 1000 in UCCI without `usemillisec`, else 1. UCI keywords are always milliseconds.
pub fn ucci_time_scale(dialect: Dialect, usemillisec: bool) -> u64 {
    match dialect {
        Dialect::Ucci if !usemillisec => 1000,
        _ => 1,
    }
}

impl GoParams {
    /// Whether the search has no natural end and must wait for `stop` (or `ponderhit`, then its
    /// budget). The engine must not print `bestmove` on its own in this case (transcripts 23).
    pub fn waits_for_stop(&self) -> bool {
        self.infinite || self.ponder
    }
}

/// Lower-cases an option name and maps the aliases GUIs use for UCCI's names (ucci.md §4.3:
/// TCHESS sends `Hash`/`Threads` in UCCI mode; UCI GUIs send `Hash`, `Threads`, `Ponder`).
/// Anything else is returned lower-cased, so `Move Overhead` → `move overhead`.
pub fn canonical_option_name(name: &str) -> String {
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "hash" => "hashsize".to_string(),
        _ => lower,
    }
}

/// Reads a check-option value: `true/false/on/off/1/0/yes/no`, any case (ucci.md §4.3).
/// `None` for anything else, so the caller can keep the old setting and warn.
pub fn parse_check_value(value: &str) -> Option<bool> {
    const TRUE: [&str; 4] = ["true", "on", "1", "yes"];
    const FALSE: [&str; 4] = ["false", "off", "0", "no"];
    let v = value.trim();
    if TRUE.iter().any(|t| v.eq_ignore_ascii_case(t)) {
        Some(true)
    } else if FALSE.iter().any(|f| v.eq_ignore_ascii_case(f)) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests;
