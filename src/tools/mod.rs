//! Offline tools above the engine: they drive [`crate::engine::Engine`] and the rules,
//! and nothing below uses them. The opening-book builder ([`book_builder`]), the bench
//! signature ([`bench`](mod@bench)), the evaluation tuner ([`tune`]) on self-play data, data
//! generation for the neural evaluation ([`datagen`]) and its trainer ([`train`]), game
//! analysis ([`analyse`]) with its evaluation graph
//! ([`eval_graph`]) and its web page ([`analysis_page`]); the book from master games ([`book_from_games`]); the search budget they share
//! ([`budget`]).
pub mod analyse;
pub mod analysis_page;
pub mod bench;
pub mod book_builder;
pub mod book_from_games;
pub mod budget;
pub mod datagen;
pub mod eval_graph;
pub mod train;
pub mod tune;
