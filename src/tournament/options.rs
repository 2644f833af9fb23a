//! What a match or a round robin is asked to do: the engines, openings, time control, PGN
//! output and scoring that `crate::cli::tournament` builds from the command line. Plain data,
//! read by the run loop ([`super::manager`]) and by what it prints ([`super::report`]).

use super::clock::TimeControl;
use super::engine_process::{EngineSpec, Timeouts};
use super::game::GameConfig;
use super::openings::Opening;
use super::ranking::Scoring;
use super::repetition_referee::{Referee, RulesReferee};
use super::runner::RunSettings;
use super::stats::Sprt;
use crate::records::pgn::MoveFormat;
use std::path::PathBuf;
use std::sync::Arc;

/// Options shared by matches and tournaments.
#[derive(Clone)]
pub struct CommonOptions {
    pub engines: Vec<EngineSpec>,
    pub openings: Vec<Opening>,
    /// Where the openings came from, for the header line.
    pub openings_source: String,
    pub settings: RunSettings,
    pub pgn: Option<PathBuf>,
    /// The move notation of the PGN written.
    pub pgn_format: MoveFormat,
    pub event: String,
    pub site: String,
    /// Repetition judge: the 2011 rules (or AXF, by `--rules`).
    pub referee: Arc<dyn Referee>,
}

impl CommonOptions {
    /// Defaults for `engines` under `tc`.
    pub fn new(engines: Vec<EngineSpec>, tc: TimeControl) -> CommonOptions {
        CommonOptions {
            engines,
            openings: vec![Opening::startpos()],
            openings_source: "start position".into(),
            settings: RunSettings {
                game: GameConfig::new(tc),
                timeouts: Timeouts::default(),
                concurrency: 1,
                log: None,
            },
            pgn: None,
            pgn_format: MoveFormat::Iccs,
            event: String::new(),
            site: "?".into(),
            referee: Arc::new(RulesReferee),
        }
    }
}

/// A two-engine match.
#[derive(Clone)]
pub struct MatchOptions {
    pub common: CommonOptions,
    pub games: u32,
    pub sprt: Option<Sprt>,
}

/// A round robin.
#[derive(Clone)]
pub struct TournamentOptions {
    pub common: CommonOptions,
    /// 1 = single round robin (14.1), 2 = double (14.2), ...
    pub cycles: u32,
    pub scoring: Scoring,
}
