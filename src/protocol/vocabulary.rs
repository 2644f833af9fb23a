//! The words random-input tests build protocol lines from: every command and `go` keyword of
//! both dialects, option names and values, moves in both rank numberings, FENs good and bad,
//! numbers at and past every bound, and characters that trip text handling (a byte-order mark,
//! NUL, Unicode line breaks, CJK). One list for the parser's tests, the session's, and the
//! end-to-end ones (compiled for tests and with the `test-doubles` feature only).

/// The words besides `go`'s keywords ([`words`] adds those), `quit` included.
const OTHER_WORDS: &[&str] = &[
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
    "stop",
    "probe",
    "quit",
    "ucinewgame",
    "uccinewgame",
    "batch",
    "debug",
    "true",
    "false",
    "hashsize",
    "threads",
    "usemillisec",
    "newgame",
    "limitstrength",
    "elo",
    "Rank",
    "Origin",
    "h2e2",
    "h9g7",
    "h3e3",
    "b0c2",
    "e9e8",
    "h10g8",
    "0",
    "1",
    "3",
    "-1",
    "-5",
    "+7",
    "1.5",
    "18446744073709551616",
    "99999999999999999999999",
    "-",
    "abc",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "3k5/9/9/9/9/9/9/9/3R5/4K4",
    "4k4/9/9/9/9/9/9/9/9/4K4",
    "9/9/9",
    "w",
    "b",
    "r",
    "\u{feff}",
    "将",
    "é",
    "\u{85}",
    "\u{2028}",
    "\u{0}",
    "\t",
    "GO",
    "Fen",
    "MOVES",
];

/// Every word: [`OTHER_WORDS`] and the parser's own list of `go` keywords, `quit` included (a
/// session test that must keep its engine running leaves it out with [`except`]).
pub fn words() -> Vec<&'static str> {
    let mut all = OTHER_WORDS.to_vec();
    all.extend_from_slice(&super::command::GO_KEYWORDS);
    all
}

/// [`words`] without `excluded` (words a test cannot afford: `quit` ends the session, a huge
/// depth is a legitimately long search).
pub fn except(excluded: &[&str]) -> Vec<&'static str> {
    words()
        .into_iter()
        .filter(|w| !excluded.contains(w))
        .collect()
}

/// The numbers of [`words`] too large for any limit: a test that runs real searches leaves
/// them out.
pub const HUGE_NUMBERS: &[&str] = &["18446744073709551616", "99999999999999999999999"];

/// What may stand between the words of a line: spaces, tabs, line breaks inside the line and
/// the control characters scripts let through.
pub const SEPARATORS: &[&str] = &[" ", "  ", "\t", "\r", "\r\n", "\n", "\u{b}", "\u{c}", "\0"];

/// A line of `words`: each pick chooses a word and the separator after it (modulo their
/// counts). The protocol-shaped input of the property tests: they draw the picks (proptest
/// shrinks them to fewer and earlier words), this turns them into text the same way for all.
pub fn line(words: &[&str], picks: &[(u16, u8)]) -> String {
    let mut s = String::new();
    if words.is_empty() {
        return s;
    }
    for &(w, sep) in picks {
        s.push_str(words[usize::from(w) % words.len()]);
        s.push_str(SEPARATORS[usize::from(sep) % SEPARATORS.len()]);
    }
    s
}
