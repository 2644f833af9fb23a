//! The state all threads of one search share: the configuration it plays by, the stop flags,
//! the deadlines, the node count and the table, and the margin a busy machine keeps back
//! before the hard limit.

use super::limits::{Config, Limits};
use super::tt::{SharedTableStats, TranspositionTable};
use crate::tablebase::TableSet;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Instant;

/// State shared by all threads of one search.
pub struct Shared {
    /// The engine's options in force when the search started (read only).
    pub config: Arc<Config>,
    /// Raised to end the search: by a limit, by the main thread when it is done, or by `stop`.
    pub stop: AtomicBool,
    /// Raised only by the caller (`stop`): ends the wait of `go infinite` / `go ponder`.
    pub stop_requested: AtomicBool,
    /// True while pondering: time limits do not apply yet.
    pub pondering: AtomicBool,
    pub start: Instant,
    /// Deadlines in ms from `start`; `u64::MAX` = none. Changed by `ponderhit`.
    pub soft_ms: AtomicU64,
    pub hard_ms: AtomicU64,
    /// Nodes searched by all threads (updated in batches).
    pub nodes: AtomicU64,
    /// How the threads used the table (updated in batches, with `nodes`).
    pub table_stats: SharedTableStats,
    pub tt: Arc<TranspositionTable>,
    /// The longest wait between two clock checks of the main thread, in ms: this search's and,
    /// fading, earlier ones' (the engine keeps it across searches). On a busy machine the
    /// search is not scheduled for tens of milliseconds at a time; stopping that much before
    /// the hard limit keeps the answer in time when the next wait comes at the end.
    pub stall_ms: Arc<AtomicU64>,
    /// Endgame tables the search reads exact values from, if any.
    pub tablebases: Option<Arc<TableSet>>,
    /// Positions whose value came from the tables, by all threads.
    pub tb_hits: AtomicU64,
    /// The root is a draw by the tables: scores are reported as 0, what the game is worth,
    /// while the search picks among the moves that hold the draw.
    pub root_drawn: bool,
}

/// Waits between clock checks up to this long are the checks' own spacing (1024 nodes), not a
/// busy machine: they keep no time back, so an idle machine spends a fixed move time in full.
pub const STALL_FLOOR_MS: u64 = 10;

/// How much before the hard limit to stop, given the longest wait seen (`stall`): none for
/// waits up to [`STALL_FLOOR_MS`], else the wait, at most half of the hard limit.
pub fn stall_margin(stall: u64, hard: u64) -> u64 {
    if stall <= STALL_FLOOR_MS {
        0
    } else {
        stall.min(hard / 2)
    }
}

impl Shared {
    pub fn new(
        tt: Arc<TranspositionTable>,
        config: Arc<Config>,
        limits: &Limits,
        pondering: bool,
    ) -> Shared {
        Shared {
            config,
            stop: AtomicBool::new(false),
            stop_requested: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            start: Instant::now(),
            soft_ms: AtomicU64::new(limits.soft_ms.unwrap_or(u64::MAX)),
            hard_ms: AtomicU64::new(limits.hard_ms.unwrap_or(u64::MAX)),
            nodes: AtomicU64::new(0),
            table_stats: SharedTableStats::default(),
            tt,
            stall_ms: Arc::default(),
            tablebases: None,
            tb_hits: AtomicU64::new(0),
            root_drawn: false,
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_waits_longer_than_the_checks_spacing_keep_time_back() {
        assert_eq!(stall_margin(0, 192), 0);
        assert_eq!(
            stall_margin(STALL_FLOOR_MS, 192),
            0,
            "an idle machine spends it all"
        );
        assert_eq!(stall_margin(40, 192), 40);
        assert_eq!(stall_margin(150, 192), 96, "at most half of the hard limit");
        assert_eq!(stall_margin(u64::MAX, u64::MAX - 1), u64::MAX / 2);
    }
}
