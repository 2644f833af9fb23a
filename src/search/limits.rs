//! What a search is asked for and what it plays by: the [`Limits`] of one request (depth,
//! nodes, time, the lines to rank) and the [`Config`] the engine's options set (the rules,
//! levels, evaluation, parameters and strength in force), and the bounds no search goes past.
//!
//! The two are apart because they change at different times: limits come with every `go`; the
//! configuration changes when an option does, so the engine keeps one and hands each search a
//! shared reference to it instead of copying it into every request.

use super::levels::Style;
use super::parameters::Parameters;
use super::strength::Strength;
use crate::eval::nnue::Network;
use crate::eval::Level;
use crate::rules::RuleSet;
use std::sync::Arc;

/// Deepest ply the search reaches (including quiescence).
pub const MAX_PLY: usize = 120;
/// Deepest iteration.
pub const MAX_DEPTH: i32 = 100;

/// What to search for, as the protocol asked; times are milliseconds from the start.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    /// Stop starting new iterations after this.
    pub soft_ms: Option<u64>,
    /// Stop at once after this.
    pub hard_ms: Option<u64>,
    /// Run until told to stop (`go infinite`); also implied while pondering.
    pub infinite: bool,
    /// UCCI `multipv` / UCI `MultiPV`: how many best root moves each iteration ranks and
    /// reports (0 and 1 both mean one line: the search as it always was).
    pub multipv: usize,
    /// Search a root with a single legal move to the limits like any other, for its score (a
    /// draw offer, an analysis); by default that move is played after one iteration.
    pub score_only_move: bool,
    /// The time is a fixed time for this move (`movetime`): time not spent is lost, so neither
    /// an only move nor a proven mate ends the search before it (issue 29.7, as Stockfish-family
    /// engines do). An only move's search fills the table for the next move.
    pub fixed_time: bool,
    /// The randomness of this move's choice under a [`Config::strength`] (drawn by the engine
    /// for each search).
    pub choice_seed: u64,
}

/// How the searches play: the engine's options, set once per game or option change and shared
/// by every search started under them.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Which repetition rules the search applies (`repetition`).
    pub rules: RuleSet,
    /// UCCI `pruning`: how selective the search is.
    pub pruning: Level,
    /// UCCI `knowledge`: how much of the evaluation is used.
    pub knowledge: Level,
    /// UCCI `style`: what a draw is worth.
    pub style: Style,
    /// Evaluate with this network instead of the hand-written evaluation (`usennue` with a
    /// network loaded). Ignored at `knowledge` levels below `large`, which keep the reduced
    /// hand-written evaluation.
    pub network: Option<Arc<Network>>,
    /// The search's numeric parameters ([`Parameters::DEFAULT`] but in tuning runs).
    pub params: Parameters,
    /// A playing strength for people (`UCI_LimitStrength`): the move is chosen among the
    /// best root lines by [`Strength::choose`], with randomness from [`Limits::choice_seed`].
    pub strength: Option<Strength>,
}
