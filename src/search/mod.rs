//! Playing strength: search, evaluation, transposition table, time, the engine façade.
pub mod alphabeta;
pub mod bench;
pub mod engine;
pub mod eval;
pub mod repetition;
pub mod score;
pub mod tt;
