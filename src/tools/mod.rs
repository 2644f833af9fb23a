//! Offline tools above the engine: they drive [`crate::search::engine::Engine`] and the rules,
//! and nothing below uses them. The opening-book builder ([`book_builder`]), the bench
//! signature ([`bench`]), self-play ([`selfplay`]), the evaluation tuner ([`tune`]), data
//! generation for the neural evaluation ([`datagen`]) and its trainer ([`train`]).
pub mod bench;
pub mod book_builder;
pub mod datagen;
pub mod selfplay;
pub mod train;
pub mod tune;
