//! What a search reports: lines of progress as its iterations complete ([`Info`]) and, at the
//! end, the move to play and its score ([`SearchResult`]); to the protocol, all of it and the
//! book's answers as one stream of [`Report`]s.

use super::tt::{Bound, TableStats};
use crate::board::Move;

/// One line of progress (the protocol prints it as `info`).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: i32,
    pub score: i32,
    pub bound: Bound,
    pub nodes: u64,
    pub time_ms: u64,
    pub nps: u64,
    pub hashfull: u32,
    /// Positions whose value came from the endgame tables.
    pub tbhits: u64,
    /// The line's rank (1 = best) when several lines are searched (`multipv` > 1); `None` in
    /// a one-line search, which prints no `multipv` field.
    pub multipv: Option<usize>,
    pub pv: Vec<Move>,
}

/// What one search found: the move to play and its score. (Not a game's result, which is a
/// [`crate::board::GameResult`].)
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    /// Number of legal, unbanned root moves.
    pub root_moves: usize,
    /// How all threads used the table (none for a book move).
    pub table: TableStats,
    /// Nodes all threads searched (0 for a book move).
    pub nodes: u64,
}

/// What the search reports.
#[derive(Clone, Debug)]
pub enum Report {
    /// Progress after an iteration.
    Info(Info),
    /// The opening book answers this `go`: its usable moves, best weight first, and the one
    /// chosen (the `Done` that follows plays it).
    Book {
        candidates: Vec<BookCandidate>,
        chosen: Move,
    },
    /// Something the user should know about this search (it runs with fewer threads than
    /// asked, or without a thread of its own); the protocol shows it as a message.
    Warning(String),
    /// The final result; always the last report of a `go`.
    Done(SearchResult),
}

/// One usable book move as the protocol shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookCandidate {
    pub mv: Move,
    /// How often the book plays it, relative to the others: popularity, not an evaluation.
    pub weight: u16,
    /// The static evaluation after the move, for the side playing it (centipawns): what a
    /// depth-0 search sees. GUIs show an `info` score as an evaluation, so the weight must
    /// not stand in for it.
    pub score: i32,
}
