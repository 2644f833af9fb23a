//! Offline tools above the engine: they drive [`crate::search::engine::Engine`] and the rules,
//! and nothing below uses them. Data generation for the neural evaluation ([`datagen`]), its
//! trainer ([`train`]) and the game-record commands ([`records`]) live here; the older
//! self-play and tuning modules still sit in `search` until they are moved.
pub mod datagen;
pub mod records;
pub mod train;
