//! Game records: PGN in every notation the board knows ([`pgn`]), XQF, the format of the
//! Chinese xiangqi programs ([`xqf`]), the text encodings game files come in ([`encoding`]),
//! and reading files and folders of them ([`read`]). Above the board, which keeps the move
//! notations themselves ([`crate::board::notation`], [`crate::board::rank_origin`]); nothing
//! here knows the rules or the search.

pub mod encoding;
pub mod pgn;
pub mod read;
pub mod xqf;

pub use read::{game_files, stream_file, stream_games, stream_games_sampled, GameError, Streamed};
