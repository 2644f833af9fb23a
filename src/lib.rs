//! Jiangjun (将军): a xiangqi engine speaking UCCI and UCI, following the 2011 Chinese rules.
//!
//! # Layers
//!
//! Each layer uses only the layers listed before it (held against the source by the test
//! `tests/it/layers.rs`):
//!
//! 1. [`board`]: the legal-move core — squares, pieces, moves, positions, FEN, move
//!    generation, perft, the notations people and GUIs write ([`board::notation`],
//!    [`board::rank_origin`]). No I/O, no dependency on the rest.
//! 2. [`rules`]: the repetition referee and the natural limit (2011 rules 23-26, 4.2.4) on
//!    top of the board; beside it [`records`], game records (PGN, XQF, their text encodings,
//!    reading files of them) on top of the board and [`input`].
//! 3. [`book`]: the opening book format and lookup (beside the search: it knows the board,
//!    not the search). [`checksum`] is a leaf helper for the file formats; [`input`], one for
//!    reading files with bounds (type checked before opening, sizes capped); [`output`], one
//!    for writing a file whole or not at all (a temporary file renamed at the end);
//!    [`weighted`], one for a random draw in proportion to weights (the book's and a limited
//!    strength's).
//!    [`tablebase`], endgame tables (their generator, files and lookup), is beside the book:
//!    it knows the board and reads its files through [`input`], not the search or the rules'
//!    referee.
//! 4. [`eval`]: the evaluations — the hand-written one and the network ([`eval::nnue`], the
//!    built-in network [`eval::nnue::embedded`] compiled in) — on the board and [`checksum`]
//!    alone. The search calls them; the tuner and the trainer fit them.
//! 5. [`search`]: alpha-beta, the transposition table, time management: a search of a given
//!    position under given limits, on the evaluations, the rules and the endgame tables.
//! 6. [`engine`]: the façade the protocol and the tools drive — the game, the options, the
//!    book (played from before searching), the table and the search thread. Nothing below it
//!    reads files: the front end loads the book and network files and hands them over.
//! 7. [`protocol`]: UCCI/UCI sessions through the engine; its line parser
//!    ([`protocol::command`]) depends on nothing but `std`.
//! 8. [`tools`]: offline work above the engine — book builder, bench signature, self-play,
//!    tuner, training-data generation, trainer. [`tournament`] (matches and round-robins of
//!    engine processes) depends on the board, the rules and the records only.
//! 9. [`cli`]: the command line, above everything.
//!
//! The crate denies `unsafe` code; the exceptions are the SIMD dispatch of the network
//! ([`eval::nnue::simd`]), where calling an AVX2 function needs it, the table's cache
//! prefetch ([`search::tt::TranspositionTable::prefetch`]), and the `poll` that tells whether
//! a GUI still reads the engine's output (`protocol::stdio`).
#![deny(unsafe_code)]
pub mod board;
pub mod book;
pub mod checksum;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod input;
pub mod output;
pub mod protocol;
pub mod records;
pub mod rules;
pub mod search;
pub mod tablebase;
pub mod tools;
pub mod tournament;
pub mod weighted;
