//! The integration tests: one test binary, one module per subject. One binary instead of one
//! per file because each test binary is linked against the whole crate, and that link
//! dominated `cargo test --release` (issue 18). How to add a test: tests/README.md.

// Shared helpers.
mod cli_support;
mod protocol_support;

// The layer list of src/lib.rs; no circles between sibling modules; no overlong functions.
mod function_length;
mod layers;
mod module_cycles;

// Board and rules.
mod fens;
mod movegen_props;
mod notation;
mod perft;
mod referee;

// Search and book; the network's loops vectorised in the binary.
mod book;
mod search;
mod simd_codegen;
mod tablebase;

// The protocol, through the real binary.
mod protocol_evalfile;
mod protocol_session;
mod protocol_transcripts;
mod protocol_xboard_options;

// Whole scripts piped at once; searches under a memory limit.
mod protocol_bursts;
mod protocol_memory;

// Files the engine and the subcommands read: refused when not regular or too large.
mod bounded_input;

// Subcommands, run as a user runs them.
mod analyse;
mod cli_bench;
mod cli_book;
mod cli_datagen;
mod cli_help;
mod cli_perft;
mod cli_pgn;
mod cli_train;
mod cli_tune;

// README.md names only subcommands and options that exist; Cargo.toml's rust-version is true;
// no tracked file names a folder of the machine it was written on.
mod manifest;
mod readme;
mod tracked_files;

// The match runner, against the test double tests/doubles/random_engine.rs.
mod tournament_cli;
mod tournament_games;
