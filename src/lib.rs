//! Jiangjun (将军): a xiangqi engine speaking UCCI and UCI, following the 2011 Chinese rules.
//!
//! Layers only look down: [`board`] (the legal-move core) knows nothing of the others.
pub mod board;
pub mod cli;
pub mod search;
