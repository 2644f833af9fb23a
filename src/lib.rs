//! Jiangjun (将军): a xiangqi engine speaking UCCI and UCI, following the 2011 Chinese rules.
//!
//! Layers only look down: [`board`] (the legal-move core) knows nothing of the others;
//! [`rules`] judges repetitions and the natural limit (2011 rules 23-26); [`search`] builds on
//! both; [`protocol`] talks to GUIs through the [`search::engine`] façade; [`tournament`] holds
//! match and round-robin logic (pairing, ranking, statistics); [`tools`] holds offline work
//! above the engine (training-data generation).
pub mod board;
pub mod book;
pub mod checksum;
pub mod cli;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tools;
pub mod tournament;
