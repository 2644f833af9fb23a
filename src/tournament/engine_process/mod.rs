//! Engines as child processes: starting them, the UCCI/UCI handshake, options, and one
//! search at a time under a deadline. [`spec`] parses `--engine` specifications,
//! [`child_io`] reads a child's output without trusting it, and [`client`] speaks UCCI or UCI
//! with it.
//!
//! Engine output is untrusted: lines may be garbage, not UTF-8, endless, or never come.
//! A reader thread turns stdout into time-stamped lines (bounded in length and in number
//! queued), so a search is timed by when `bestmove` arrived, not when it was read, and a hung
//! engine can always be abandoned. Nothing an engine prints can panic the runner.
//!
//! Protocols (see docs/ucci.md): UCCI engines get `setoption usemillisec true` when they
//! announce that option (else clock values go in whole seconds), `setoption newgame`, and
//! `go time .. increment|movestogo .. opptime ..`. UCI engines get `ucinewgame` and
//! `go wtime .. btime ..` (w = Red). A UCI engine that offers `UCI_Variant` is switched to
//! `xiangqi`.
//!
//! Rank origin under UCI (unless `ranks=` forces one): an engine that announces a rank option
//! (Jiangjun's `Rank Origin`, default 0) is taken at its default; otherwise one that offers
//! `UCI_Variant` is a multi-variant engine (Fairy-Stockfish) speaking ranks 1–10 (`h3e3`), and
//! one without it (Pikafish, UCI-Cyclone) uses ranks 0–9 like UCCI. The guess is checked on
//! the engine's first moves: a `bestmove` that is illegal under the guessed origin and legal
//! under the other switches the origin for good, and that move is read under it; a move legal
//! under exactly the guessed origin confirms it. (An engine that misread the moves we sent
//! before its first answer is not rescued by this; the announcement covers that case.)

pub mod child_io;
pub mod client;
pub mod spec;

pub use child_io::IoLog;
pub use client::{
    go_command, move_from_engine, move_to_engine, origin_of_move, uci_notation, EngineError,
    EngineProcess, GoLimits, Reply, Score, Thought, Timeouts,
};
pub use spec::{EngineSpec, Protocol, ProtocolChoice};
