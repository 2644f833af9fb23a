//! What a search reports: lines of progress as its iterations complete ([`Info`]) and, at the
//! end, the move to play and its score ([`SearchResult`]).

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
}
