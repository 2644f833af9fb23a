//! Playing strength: search, evaluation, transposition table, time management, and the engine
//! façade the protocol talks to.
pub mod alphabeta;
pub mod engine;
pub mod eval;
pub mod levels;
pub mod nnue;
pub mod repetition;
pub mod score;
pub mod time;
pub mod tt;
pub mod wdl;
