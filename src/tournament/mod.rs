//! Tournament support: round-robin schedules, standings under the 2011
//! Chinese Xiangqi Association competition rules, match statistics, and the
//! match manager behind `jiangjun match` and `jiangjun tournament`.
//!
//! The scoring side is pure logic with no dependency on the board, search or
//! protocol modules, so it can model human events as well as engine play:
//!
//! * [`pairing`]: round-robin tables by the method of the rules' appendix
//!   "循环赛对局秩序表" (Appendix 1; colours per 12.1), byes for odd
//!   fields, and double or multi-cycle schedules with colours exchanged.
//!   The generator reproduces the printed tables for 3 to 12 entrants.
//! * [`ranking`]: game points per 13.1 (win 2, draw 1, loss 0), adjustable
//!   per 13.3, and standings with the tie-breaks of 14.1 (one game per
//!   pairing: 小分, 胜局, 直胜, 犯规, 后走局数, 对局时后走) or 14.2 (several
//!   games per pairing: 场分, 局分总和, 胜局, 直胜, 犯规, 后走胜局).
//! * [`stats`]: engine-testing statistics from win/draw/loss counts: score,
//!   Elo with a 95% interval, likelihood of superiority and an SPRT in
//!   logistic or normalised Elo.
//!
//! The match manager runs engines as child processes and is the arbiter of
//! their games; it uses the board core for legality and [`crate::rules`]
//! for the natural limit, and never the search or protocol modules:
//!
//! * [`engine_process`]: `--engine` specs, child-process I/O, and the
//!   UCCI/UCI client (protocol detection, options, usemillisec,
//!   Fairy-Stockfish's 1-based ranks), one timed search at a time,
//!   surviving garbage, crashes and hangs.
//! * [`clock`]: time controls of article 6 (6.1 base + increment, 6.2
//!   moves in time, 6.3 sudden death) plus move time, depth and nodes.
//! * [`game`]: one game from an opening to a result under articles 4.1 and
//!   4.2, with the repetition ruling delegated to a [`repetition_referee::Referee`].
//! * [`openings`]: opening suites (games are written by [`crate::records::pgn`]).
//! * [`runner`]: match and round-robin schedules played on worker threads.
//! * [`crosstable`]: the tables of a round robin.
//! * [`options`], [`manager`], [`report`]: what a match or round robin is asked to do, its
//!   run loop, and what it prints (the command-line arguments that set the options up are
//!   `crate::cli::tournament`'s).
//!
//! Entrants are numbered from 1, as in the printed tables. Bad input (an
//! empty field, unknown entrants, invalid test parameters) is reported as
//! an error value, never a panic.
//!
//! ```
//! use jiangjun::tournament::{round_robin, standings, ScoredGame, GameResult, Scoring, System};
//!
//! let rounds = round_robin(5).unwrap(); // 5 rounds, one bye each
//! let games: Vec<ScoredGame> = rounds
//!     .iter()
//!     .flat_map(|r| r.pairings.iter())
//!     .map(|p| ScoredGame::new(p.red, p.black, GameResult::Draw))
//!     .collect();
//! let table = standings(5, &games, &Scoring::STANDARD, System::SingleGame).unwrap();
//! assert!(table.iter().all(|s| s.rank == 1 && s.points == 4));
//! ```

pub mod clock;
pub mod crosstable;
pub mod engine_process;
pub mod game;
pub mod manager;
pub mod openings;
pub mod options;
pub mod pairing;
pub mod ranking;
pub mod repetition_referee;
pub mod replays;
pub mod report;
pub mod runner;
pub mod stats;

pub use pairing::{
    double_round_robin, multi_round_robin, round_robin, Pairing, PairingError, Round,
};
pub use ranking::{
    standings, Criterion, GameResult, RankingError, ScoredGame, Scoring, Standing, System,
};
pub use stats::{
    elo_estimate, elo_estimate_pairs, elo_from_score, los, normalized_elo, score_from_elo,
    EloEstimate, EloModel, Pentanomial, Sprt, SprtDecision, SprtError, SprtResult, WdlCounts,
};
