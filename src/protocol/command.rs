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
//! `usemillisec` setting and the side to move ([`GoParams::time_limits`], ucci.md §6).

use std::fmt;

use crate::search::time::TimeLimits;

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
/// [`GoParams::time_limits`] to get normalised milliseconds.
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
const GO_KEYWORDS: [&str; 19] = [
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

    /// The clock part of this `go`, in milliseconds and from the mover's point of view.
    ///
    /// UCCI's own keywords (`time`, `increment`, `opptime`, `oppincrement`) win when present;
    /// otherwise UCI's `wtime`/`btime`/`winc`/`binc` are mapped by the side to move (`w` is Red,
    /// ucci.md §9.1); if only the other side's clock is given, it stands in for ours, so a timed
    /// `go` never becomes an untimed search. `move_overhead_ms`, `ply` and `ponder_expected` are
    /// left at their defaults for the caller to fill in.
    pub fn time_limits(
        &self,
        dialect: Dialect,
        usemillisec: bool,
        red_to_move: bool,
    ) -> TimeLimits {
        let scale = ucci_time_scale(dialect, usemillisec);
        let ucci = |v: Option<u64>| v.map(|v| v.saturating_mul(scale));
        let (mine, theirs, my_inc, their_inc) = if red_to_move {
            (self.wtime, self.btime, self.winc, self.binc)
        } else {
            (self.btime, self.wtime, self.binc, self.winc)
        };
        let (remaining, increment, opp_remaining, opp_increment) = if self.time.is_some() {
            (
                ucci(self.time),
                ucci(self.increment),
                ucci(self.opptime),
                ucci(self.oppincrement),
            )
        } else {
            (
                // Only the other side's clock given: assume ours is the same rather than
                // search without any time limit.
                mine.or(theirs),
                my_inc.or(ucci(self.increment)),
                theirs.or(ucci(self.opptime)),
                their_inc.or(ucci(self.oppincrement)),
            )
        };
        TimeLimits {
            remaining_ms: remaining,
            increment_ms: increment.unwrap_or(0),
            moves_to_go: self.movestogo,
            movetime_ms: self.movetime,
            opp_remaining_ms: opp_remaining,
            opp_increment_ms: opp_increment.unwrap_or(0),
            ..TimeLimits::default()
        }
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
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn ucci(line: &str) -> ParseOutcome {
        parse_line(line, Dialect::Ucci)
    }

    fn cmd(line: &str) -> Command {
        match ucci(line).result {
            Ok(c) => c,
            Err(e) => panic!("{line:?} gave {e}"),
        }
    }

    fn go(line: &str) -> GoParams {
        match cmd(line) {
            Command::Go(p) => *p,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn setoption(line: &str) -> (String, Option<String>) {
        match cmd(line) {
            Command::SetOption { name, value } => (name, value),
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn position(line: &str) -> (PositionSpec, Vec<String>) {
        match cmd(line) {
            Command::Position { fen, moves } => (fen, moves),
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn simple_commands_and_whitespace() {
        assert_eq!(cmd("ucci"), Command::Ucci);
        assert_eq!(cmd("uci\r\n"), Command::Uci);
        assert_eq!(cmd("ucicyclone"), Command::UciCyclone);
        assert_eq!(cmd("  \tISREADY \r"), Command::IsReady);
        assert_eq!(cmd("stop"), Command::Stop);
        assert_eq!(cmd("quit\n"), Command::Quit);
        assert_eq!(cmd("ucinewgame"), Command::UciNewGame);
        assert_eq!(cmd("uccinewgame"), Command::UciNewGame);
        assert_eq!(cmd("\u{feff}ucci"), Command::Ucci);
        assert_eq!(cmd("ponderhit"), Command::PonderHit { draw: false });
        assert_eq!(cmd("ponderhit draw"), Command::PonderHit { draw: true });
        let out = ucci("isready now");
        assert_eq!(out.result, Ok(Command::IsReady));
        assert_eq!(out.warnings.len(), 1);
    }

    #[test]
    fn empty_and_unknown() {
        for blank in ["", "   ", "\r\n", "\t \t", "\0"] {
            let out = ucci(blank);
            assert_eq!(out.result, Err(ParseError::Empty));
            assert!(out.messages().is_empty());
        }
        // Whole-token match: ElephantEye's prefix match would take this as isready.
        let out = ucci("isreadyXYZ");
        assert!(
            matches!(&out.result, Err(ParseError::Unknown { command, .. }) if command == "isreadyXYZ")
        );
        assert!(out.messages()[0].contains("isreadyXYZ"));
        for line in ["foo bar", "d", "bench", "xboard", "help"] {
            assert!(
                matches!(ucci(line).result, Err(ParseError::Unknown { .. })),
                "{line}"
            );
        }
        let msg = parse_line("foo", Dialect::Uci).messages();
        assert_eq!(msg, vec!["unknown UCI command: foo".to_string()]);
        // A giant token is shortened in the message.
        let long = "x".repeat(10_000);
        let msg = ucci(&long).messages();
        assert!(msg[0].len() < 100, "{}", msg[0]);
    }

    #[test]
    fn setoption_forms() {
        // Transcripts 1 and 5.
        assert_eq!(
            setoption("setoption usemillisec true"),
            ("usemillisec".into(), Some("true".into()))
        );
        assert_eq!(setoption("setoption newgame"), ("newgame".into(), None));
        assert_eq!(
            setoption("setoption newgame  \r\n"),
            ("newgame".into(), None)
        );
        assert_eq!(
            setoption("setoption hashsize 64"),
            ("hashsize".into(), Some("64".into()))
        );
        assert_eq!(
            setoption("setoption Hash 64"),
            ("Hash".into(), Some("64".into()))
        );
        assert_eq!(
            setoption("setoption pruning  large"),
            ("pruning".into(), Some("large".into()))
        );
        assert_eq!(
            setoption("setoption bookfiles C:\\Program Files\\XQ\\book one.dat;D:\\b2.dat\r\n"),
            (
                "bookfiles".into(),
                Some("C:\\Program Files\\XQ\\book one.dat;D:\\b2.dat".into())
            )
        );
        assert_eq!(
            setoption("setoption name Hash value 32"),
            ("Hash".into(), Some("32".into()))
        );
        assert_eq!(
            setoption("setoption name Move  Overhead value 30"),
            ("Move Overhead".into(), Some("30".into()))
        );
        assert_eq!(
            setoption("setoption name Clear Hash"),
            ("Clear Hash".into(), None)
        );
        assert_eq!(
            setoption("setoption name EvalFile value"),
            ("EvalFile".into(), Some(String::new()))
        );
        assert_eq!(
            setoption("SETOPTION NAME UCI_Variant VALUE xiangqi"),
            ("UCI_Variant".into(), Some("xiangqi".into()))
        );
        assert_eq!(
            setoption("setoption name Book File value C:\\my books\\a b.obk "),
            ("Book File".into(), Some("C:\\my books\\a b.obk".into()))
        );
        for bad in [
            "setoption",
            "setoption   ",
            "setoption name",
            "setoption name value 3",
        ] {
            assert!(
                matches!(
                    ucci(bad).result,
                    Err(ParseError::Invalid {
                        command: "setoption",
                        ..
                    })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn option_helpers() {
        assert_eq!(canonical_option_name("Hash"), "hashsize");
        assert_eq!(canonical_option_name("hashsize"), "hashsize");
        assert_eq!(canonical_option_name("Threads"), "threads");
        assert_eq!(canonical_option_name("Move Overhead"), "move overhead");
        for t in ["true", "TRUE", "on", "On", "1", "yes", " true "] {
            assert_eq!(parse_check_value(t), Some(true), "{t}");
        }
        for f in ["false", "FALSE", "off", "0", "no"] {
            assert_eq!(parse_check_value(f), Some(false), "{f}");
        }
        assert_eq!(parse_check_value("maybe"), None);
        assert_eq!(parse_check_value(""), None);
    }

    #[test]
    fn positions() {
        // Transcripts 7-10.
        assert_eq!(
            position("position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"),
            (
                PositionSpec::Startpos,
                strings(&["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"])
            )
        );
        assert_eq!(
            position("position startpos"),
            (PositionSpec::Startpos, vec![])
        );
        assert_eq!(
            position(&format!("position fen {START} moves h2e2 h7e7")),
            (PositionSpec::Fen(START.into()), strings(&["h2e2", "h7e7"]))
        );
        assert_eq!(
            position(&format!("position fen {START} moves\r\n")),
            (PositionSpec::Fen(START.into()), vec![])
        );
        assert_eq!(
            position("position startpos moves h2e2 \r\n"),
            (PositionSpec::Startpos, strings(&["h2e2"]))
        );
        assert_eq!(
            position("position  fen\trnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR   w  -  -  0  1 "),
            (PositionSpec::Fen(START.into()), vec![])
        );
        let r = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r";
        assert_eq!(
            position(&format!("position fen {r}")),
            (PositionSpec::Fen(r.into()), vec![])
        );
        assert_eq!(
            position("position fen 4k4/9/9/9/9/9/9/9/4A4/3K5 b MOVES e9e8"),
            (
                PositionSpec::Fen("4k4/9/9/9/9/9/9/9/4A4/3K5 b".into()),
                strings(&["e9e8"])
            )
        );
        // Bad FENs are the board's business; the parser passes them on (transcripts 11).
        assert_eq!(
            position("position fen foobar"),
            (PositionSpec::Fen("foobar".into()), vec![])
        );
        // Malformed move tokens stay strings (transcripts 13).
        assert_eq!(
            position("position startpos moves h2e2 z9z9 h2"),
            (PositionSpec::Startpos, strings(&["h2e2", "z9z9", "h2"]))
        );
        for bad in [
            "position",
            "position fen",
            "position fen moves h2e2",
            "position foo",
            "position moves h2e2",
        ] {
            assert!(
                matches!(
                    ucci(bad).result,
                    Err(ParseError::Invalid {
                        command: "position",
                        ..
                    })
                ),
                "{bad}"
            );
        }
        let out = ucci("position startpos junk moves h2e2");
        assert_eq!(
            out.result,
            Ok(Command::Position {
                fen: PositionSpec::Startpos,
                moves: strings(&["h2e2"])
            })
        );
        assert_eq!(out.warnings.len(), 1);
    }

    #[test]
    fn cyclone_bare_positions() {
        // Transcripts 39 and 40.
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r";
        assert_eq!(
            position(&format!("fen {fen} moves h2e2")),
            (PositionSpec::Fen(fen.into()), strings(&["h2e2"]))
        );
        assert_eq!(
            position("startpos moves h2e2"),
            (PositionSpec::Startpos, strings(&["h2e2"]))
        );
        assert!(matches!(
            ucci("fen").result,
            Err(ParseError::Invalid { .. })
        ));
    }

    #[test]
    fn probe_and_banmoves() {
        assert_eq!(
            cmd("probe startpos moves h2e2"),
            Command::Probe {
                fen: PositionSpec::Startpos,
                moves: strings(&["h2e2"])
            }
        );
        assert_eq!(
            cmd("probe fen 9/9/9/9/9/9/9/9/9/9 w"),
            Command::Probe {
                fen: PositionSpec::Fen("9/9/9/9/9/9/9/9/9/9 w".into()),
                moves: vec![]
            }
        );
        assert!(matches!(
            ucci("probe").result,
            Err(ParseError::Invalid {
                command: "probe",
                ..
            })
        ));
        assert_eq!(
            cmd("banmoves h2e2 b2e2"),
            Command::BanMoves(strings(&["h2e2", "b2e2"]))
        );
        assert_eq!(cmd("banmoves"), Command::BanMoves(vec![]));
    }

    #[test]
    fn go_forms() {
        assert_eq!(
            go("go"),
            GoParams {
                infinite: true,
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go infinite"),
            GoParams {
                infinite: true,
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go depth infinite"),
            GoParams {
                infinite: true,
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go depth 10"),
            GoParams {
                depth: Some(10),
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go nodes 216"),
            GoParams {
                nodes: Some(216),
                ..GoParams::default()
            }
        );
        assert_eq!(
            go("go movetime 1000"),
            GoParams {
                movetime: Some(1000),
                ..GoParams::default()
            }
        );
        let p = go("go ponder time 295000 increment 0 opptime 300000 oppincrement 0");
        assert!(p.ponder && !p.draw && !p.infinite);
        assert_eq!(
            (p.time, p.increment, p.opptime, p.oppincrement),
            (Some(295000), Some(0), Some(300000), Some(0))
        );
        assert!(p.waits_for_stop());
        let p = go("go draw time 10000 increment 0");
        assert!(p.draw && !p.ponder && !p.waits_for_stop());
        let p = go("go time 60000 movestogo 10 opptime 45000 oppmovestogo 12");
        assert_eq!(
            (p.time, p.movestogo, p.opptime, p.oppmovestogo),
            (Some(60000), Some(10), Some(45000), Some(12))
        );
        // Transcripts 18: any order, extra keys.
        let p = go("go time 60000 opptime 60000 oppincrement 3000 increment 3000 depth 99");
        assert_eq!(
            (p.time, p.opptime, p.oppincrement, p.increment, p.depth),
            (Some(60000), Some(60000), Some(3000), Some(3000), Some(99))
        );
        // UCI.
        let p = go("go wtime 60000 btime 55000 winc 1000 binc 1000 movestogo 5");
        assert_eq!(
            (p.wtime, p.btime, p.winc, p.binc, p.movestogo),
            (Some(60000), Some(55000), Some(1000), Some(1000), Some(5))
        );
        assert!(!p.infinite);
        let p = go("go mate 3 searchmoves h2e2 b2e2 depth 7");
        assert_eq!((p.mate, p.depth), (Some(3), Some(7)));
        assert_eq!(p.searchmoves, strings(&["h2e2", "b2e2"]));
        assert_eq!(go("GO PERFT 4").perft, Some(4));
        // Flags alone still mean "until stop".
        assert!(go("go ponder").infinite);
        assert!(go("go draw").infinite);
        assert!(go("go increment 5").infinite);
    }

    #[test]
    fn go_numbers_are_clamped_never_fatal() {
        // Transcripts 21.
        let out = ucci("go time -500 increment -1");
        let Ok(Command::Go(p)) = &out.result else {
            panic!("{out:?}")
        };
        assert_eq!((p.time, p.increment), (Some(0), Some(0)));
        assert_eq!(out.warnings.len(), 2);
        assert_eq!(go("go depth 0").depth, Some(0));
        assert_eq!(go("go depth 99999999999").depth, Some(u32::MAX));
        assert_eq!(
            go("go nodes 99999999999999999999999999999999").nodes,
            Some(u64::MAX)
        );
        assert_eq!(go("go time +5").time, Some(5));
        let out = ucci("go nodes abc");
        let Ok(Command::Go(p)) = &out.result else {
            panic!("{out:?}")
        };
        assert_eq!(p.nodes, Some(0));
        assert!(
            !p.infinite,
            "a garbage limit must not turn into an endless search"
        );
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(go("go depth x").depth, Some(1));
        assert_eq!(go("go movestogo x time 5").movestogo, None);
        // A keyword where a value should be is not swallowed.
        let out = ucci("go depth time 1000");
        let Ok(Command::Go(p)) = &out.result else {
            panic!("{out:?}")
        };
        assert_eq!((p.depth, p.time), (Some(1), Some(1000)));
        assert_eq!(out.warnings.len(), 1);
        let out = ucci("go time");
        let Ok(Command::Go(p)) = &out.result else {
            panic!("{out:?}")
        };
        assert_eq!(p.time, Some(0));
        let out = ucci("go frobnicate 3 depth 2");
        let Ok(Command::Go(p)) = &out.result else {
            panic!("{out:?}")
        };
        assert_eq!(p.depth, Some(2));
        assert_eq!(out.warnings.len(), 2);
        for text in ["-", "+", "1.5", "1e9", "0x10", "١٢"] {
            assert!(matches!(parse_number(text), Number::Garbage), "{text}");
        }
        assert!(matches!(parse_number("-0"), Number::Negative));
        assert!(matches!(
            parse_number("18446744073709551615"),
            Number::Value(u64::MAX)
        ));
        assert!(matches!(parse_number("18446744073709551616"), Number::Huge));
    }

    #[test]
    fn time_normalisation() {
        // Transcripts 20: seconds unless usemillisec.
        let p = go("go time 30 increment 1 opptime 20 oppincrement 2");
        let l = p.time_limits(Dialect::Ucci, false, true);
        assert_eq!(
            (
                l.remaining_ms,
                l.increment_ms,
                l.opp_remaining_ms,
                l.opp_increment_ms
            ),
            (Some(30_000), 1_000, Some(20_000), 2_000)
        );
        let l = p.time_limits(Dialect::Ucci, true, true);
        assert_eq!((l.remaining_ms, l.increment_ms), (Some(30), 1));
        // UCI is always milliseconds, even for UCCI keywords.
        let l = p.time_limits(Dialect::Uci, false, true);
        assert_eq!(l.remaining_ms, Some(30));
        // movetime is a UCI keyword: milliseconds in both dialects (TCHESS).
        let l = go("go movetime 5000").time_limits(Dialect::Ucci, false, true);
        assert_eq!((l.movetime_ms, l.remaining_ms), (Some(5000), None));
        // wtime/btime by side to move; w = Red.
        let p = go("go wtime 60000 btime 55000 winc 1000 binc 2000 movestogo 7");
        let red = p.time_limits(Dialect::Uci, true, true);
        let black = p.time_limits(Dialect::Uci, true, false);
        assert_eq!(
            (
                red.remaining_ms,
                red.increment_ms,
                red.opp_remaining_ms,
                red.moves_to_go
            ),
            (Some(60000), 1000, Some(55000), Some(7))
        );
        assert_eq!(
            (
                black.remaining_ms,
                black.increment_ms,
                black.opp_remaining_ms,
                black.opp_increment_ms
            ),
            (Some(55000), 2000, Some(60000), 1000)
        );
        // Only the other side's clock: it stands in for ours.
        let l = go("go wtime 5000").time_limits(Dialect::Uci, true, false);
        assert_eq!(
            (l.remaining_ms, l.opp_remaining_ms),
            (Some(5000), Some(5000))
        );
        // Huge seconds saturate.
        let l = go("go time 99999999999999999999").time_limits(Dialect::Ucci, false, true);
        assert_eq!(l.remaining_ms, Some(u64::MAX));
        // No clock at all.
        assert_eq!(
            go("go depth 5").time_limits(Dialect::Ucci, true, true),
            TimeLimits::default()
        );
        assert_eq!(ucci_time_scale(Dialect::Ucci, false), 1000);
        assert_eq!(ucci_time_scale(Dialect::Ucci, true), 1);
        assert_eq!(ucci_time_scale(Dialect::Uci, false), 1);
    }

    #[test]
    fn huge_lines_are_linear() {
        // ~1 MB of moves (a game far longer than any real one) and a 1 MB garbage token.
        let moves: Vec<&str> = ["h2e2", "h9g7", "h0g2", "i9h9"]
            .iter()
            .copied()
            .cycle()
            .take(200_000)
            .collect();
        let line = format!("position startpos moves {}", moves.join(" "));
        let (_, parsed) = position(&line);
        assert_eq!(parsed.len(), 200_000);
        let line = format!("go {}", "depth 1 ".repeat(100_000));
        assert_eq!(go(&line).depth, Some(1));
        let line = format!("go {}", "x ".repeat(100_000));
        let out = ucci(&line);
        assert_eq!(out.warnings.len(), MAX_WARNINGS + 1);
        assert!(
            out.warnings[MAX_WARNINGS].contains("99992 more"),
            "{:?}",
            out.warnings
        );
        let line = "9".repeat(1_000_000);
        assert!(ucci(&format!("go nodes {line}")).command().is_some());
        assert!(ucci(&line).result.is_err());
        let line = " ".repeat(1_000_000);
        assert_eq!(ucci(&line).result, Err(ParseError::Empty));
    }

    /// Every message must be a single printable line: it goes out as `info string …`.
    fn check_outcome(line: &str, out: &ParseOutcome) {
        assert!(out.warnings.len() <= MAX_WARNINGS + 1);
        for m in out.messages() {
            assert!(!m.chars().any(|c| c.is_control()), "{line:?} → {m:?}");
            assert!(m.chars().count() < 200, "{line:?} → {m:?}");
        }
        match &out.result {
            Ok(Command::Position { fen, moves }) | Ok(Command::Probe { fen, moves }) => {
                if let PositionSpec::Fen(f) = fen {
                    let trimmed = f.trim_matches(|c: char| c.is_ascii() && is_separator(c as u8));
                    assert!(!f.is_empty() && trimmed == f, "{line:?}");
                }
                assert!(moves
                    .iter()
                    .all(|m| !m.is_empty() && !m.contains([' ', '\t', '\r', '\n'])));
            }
            Ok(Command::SetOption { name, .. }) => assert!(!name.is_empty()),
            _ => {}
        }
    }

    /// Every GUI input line of transcripts.md, in the form the GUI sends it.
    const TRANSCRIPT_LINES: &[&str] = &[
        "ucci",
        "uci",
        "go",
        "quit",
        "stop",
        "isready",
        "ponderhit",
        "ucinewgame",
        "uccinewgame",
        "go infinite",
        "go depth 0",
        "go depth 6",
        "go nodes 216",
        "go time 5000",
        "go movetime 500",
        "go draw depth 5",
        "go depth 99999999999",
        "go time 30 increment 1",
        "go time 10000 increment 0",
        "go draw time 10000 increment 0",
        "go ponder time 295000 increment 0",
        "go wtime 60000 btime 55000 winc 1000 binc 1000",
        "go time 300000 increment 0 opptime 300000 oppincrement 0",
        "go time 60000 movestogo 10 opptime 45000 oppmovestogo 12",
        "go ponder time 295000 increment 0 opptime 300000 oppincrement 0",
        "go time 60000 opptime 60000 oppincrement 3000 increment 3000 depth 99",
        "probe startpos",
        "probe fen 9/9/9/9/9/9/9/9/9/9 w",
        "banmoves h2e2 b2e2",
        "setoption Hash 64",
        "setoption newgame",
        "setoption Threads 2",
        "setoption idle none",
        "setoption threads 0",
        "setoption batch true",
        "setoption hashsize 0",
        "setoption usebook off",
        "setoption style normal",
        "setoption useegtb true",
        "setoption usebook FALSE",
        "setoption pruning  large",
        "setoption nosuchoption 42",
        "setoption promotion false",
        "setoption randomness huge",
        "setoption guiname XQWizard",
        "setoption usemillisec true",
        "setoption usemillisec false",
        "setoption name Hash value 128",
        "setoption name UCI_Variant value xiangqi",
        "setoption bookfiles C:\\Program Files\\XQ\\book one.dat;D:\\b2.dat",
        "startpos moves h2e2",
        "position startpos",
        "position startpos moves",
        "position startpos moves h2e2 \r\n",
        "position startpos moves h2e2 h2e2 h9g7",
        "position startpos moves h3e3 h10g8",
        "position startpos moves h2e2 z9z9 h2",
        "position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7",
        "position fen 4k4/9/9/9/9/9/9/9/4A4/3K5 b",
        "position fen 3k5/9/9/9/9/9/9/9/3R5/4K4 b - - 0 1",
        "position fen 4k4/9/9/9/9/9/9/9/4A4/RNCAK4 w - - 0 1",
        "position fen 4C4/4a4/b2ank2b/9/9/1RNR1crC1/3r1p3/3cKA3/4A4/4n4 w - - 0 1",
        "position fen 9/2Cca4/3k1C3/4P1p2/4N1b2/4R1r2/4c1n2/3p1n3/2rNK4/9 w - - 0 1",
        "position fen rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r",
        "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
        "position fen rnbakabnr/9/1c2c4/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b - - 0 2 moves d9e8",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves\r\n",
    ];

    #[test]
    fn transcript_lines_parse_cleanly() {
        for line in TRANSCRIPT_LINES {
            for dialect in [Dialect::Ucci, Dialect::Uci] {
                let out = parse_line(line, dialect);
                assert!(out.result.is_ok(), "{line:?}: {:?}", out.result);
                assert!(out.warnings.is_empty(), "{line:?}: {:?}", out.warnings);
                check_outcome(line, &out);
            }
        }
        // The deliberately bad ones.
        assert!(matches!(
            ucci("foo bar").result,
            Err(ParseError::Unknown { .. })
        ));
        for line in ["go nodes abc", "go time -500 increment -1"] {
            let out = ucci(line);
            assert!(
                out.command().is_some() && !out.warnings.is_empty(),
                "{line}"
            );
        }
    }

    const ADVERSARIAL: &[&str] = &[
        "ucci",
        "setoption guiname XQWizard",
        "setoption usebook off",
        "setoption Threads 2",
        "setoption randomness huge",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w - - 0 1",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
        "position fen foobar",
        "position fen",
        "position startpos moves h2e2 h2e2 h9g7",
        "position startpos moves h3e3 h10g8",
        "go time 300000 increment 0 opptime 300000 oppincrement 0",
        "go time -500 increment -1",
        "go depth 99999999999",
        "go nodes abc",
        "go ponder time 295000 increment 0",
        "go draw depth 5",
        "banmoves h2e2 b2e2",
        "probe fen 9/9/9/9/9/9/9/9/9/9 w",
        "fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r moves h2e2",
        "startpos moves h2e2",
        "go wtime 60000 btime 55000 winc 1000 binc 1000",
        "setoption name UCI_Variant value xiangqi",
        "go movetime",
        "go searchmoves",
        "go depth -",
        "go depth --5",
        "setoption name",
        "setoption name value",
        "setoption \u{85}x \u{2028}y",
        "position fen \u{3000}moves",
        "go nodes \u{ff11}",
        "\u{feff}",
        "\u{feff}\u{feff}ucci",
        "ponderhit draw draw",
        "\0\0isready\0",
    ];

    #[test]
    fn adversarial_lines_never_panic() {
        for line in ADVERSARIAL {
            for dialect in [Dialect::Ucci, Dialect::Uci] {
                check_outcome(line, &parse_line(line, dialect));
            }
        }
    }

    #[test]
    fn random_lines_never_panic() {
        const VOCAB: &[&str] = &[
            "ucci",
            "uci",
            "ucicyclone",
            "isready",
            "setoption",
            "name",
            "value",
            "position",
            "fen",
            "startpos",
            "moves",
            "banmoves",
            "go",
            "ponderhit",
            "draw",
            "stop",
            "probe",
            "quit",
            "ucinewgame",
            "uccinewgame",
            "depth",
            "nodes",
            "time",
            "movestogo",
            "increment",
            "opptime",
            "oppmovestogo",
            "oppincrement",
            "infinite",
            "ponder",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movetime",
            "mate",
            "perft",
            "searchmoves",
            "h2e2",
            "h10g8",
            "0",
            "-1",
            "+7",
            "18446744073709551616",
            "99999999999999999999999",
            "-",
            "abc",
            "1.5",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
            "w",
            "b",
            "r",
            "\u{feff}",
            "将",
            "é",
            "\u{85}",
            "\u{2028}",
            "\u{0}",
            "GO",
            "Fen",
            "MOVES",
        ];
        const SEPARATORS: &[&str] = &[" ", "  ", "\t", "\r", "\r\n", "\n", "\u{b}", "\u{c}", "\0"];
        let mut rng = StdRng::seed_from_u64(0x6a69_616e_676a_756e);
        for round in 0..8000 {
            let line = match round % 4 {
                // Arbitrary bytes, decoded the way the engine loop decodes stdin.
                0 => {
                    let len = rng.gen_range(0..200);
                    let bytes: Vec<u8> = (0..len).map(|_| rng.gen()).collect();
                    String::from_utf8_lossy(&bytes).into_owned()
                }
                // Arbitrary chars.
                1 => {
                    let len = rng.gen_range(0..80);
                    (0..len).map(|_| rng.gen::<char>()).collect()
                }
                // A real line, mangled: bytes cut, doubled or replaced at random char boundaries.
                2 => {
                    let pool = TRANSCRIPT_LINES.iter().chain(ADVERSARIAL);
                    let base = pool
                        .clone()
                        .nth(rng.gen_range(0..pool.count()))
                        .copied()
                        .unwrap_or("");
                    let mut chars: Vec<char> = base.chars().collect();
                    for _ in 0..rng.gen_range(1..6) {
                        let at = rng.gen_range(0..=chars.len());
                        match rng.gen_range(0..4) {
                            0 if at < chars.len() => {
                                chars.remove(at);
                            }
                            1 => chars.insert(at, rng.gen::<char>()),
                            2 => chars.insert(at, [' ', '\t', '-', '9', '\r'][at % 5]),
                            _ => chars.truncate(at),
                        }
                    }
                    chars.into_iter().collect()
                }
                // Grammar-shaped garbage.
                _ => {
                    let n = rng.gen_range(0..25);
                    let mut s = String::new();
                    for _ in 0..n {
                        let tok = VOCAB
                            .get(rng.gen_range(0..VOCAB.len()))
                            .copied()
                            .unwrap_or("go");
                        let sep = SEPARATORS
                            .get(rng.gen_range(0..SEPARATORS.len()))
                            .copied()
                            .unwrap_or(" ");
                        s.push_str(tok);
                        s.push_str(sep);
                    }
                    s
                }
            };
            for dialect in [Dialect::Ucci, Dialect::Uci] {
                let out = parse_line(&line, dialect);
                check_outcome(&line, &out);
                if let Ok(Command::Go(p)) = &out.result {
                    for usemillisec in [false, true] {
                        for red in [false, true] {
                            let limits = p.time_limits(dialect, usemillisec, red);
                            if let Some(b) = crate::search::time::allocate(&limits) {
                                assert!(
                                    b.soft_ms >= 1 && b.soft_ms <= b.hard_ms,
                                    "{line:?}: {b:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
}
