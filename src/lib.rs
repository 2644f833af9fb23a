//! Jiangjun (将军): a xiangqi engine speaking UCCI and UCI.
pub mod board;
pub mod rules;
