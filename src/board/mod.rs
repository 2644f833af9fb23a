//! The legal-move core: squares, pieces, moves, bitboards, attack tables, positions, FEN, move
//! generation, Zobrist keys and perft, plus the notations people and files use for moves
//! ([`notation`]: Chinese of rules 7.5 and WXF; [`rank_origin`]: the 0- or 1-based rank numbers
//! of UCI move text). The game files moves are written in are a layer above
//! ([`crate::records`]). No I/O and no dependency on the rest of the engine.
//!
//! Representation: a 90-entry board array (what is on a square) plus `u128` bitboards per
//! colour and kind (where the pieces are), an occupancy board and a transposed occupancy board
//! so that both rank and file lookups for sliders are a shift and a mask. See [`attacks`] for
//! why this beats magic bitboards on a 9x10 board.

#[cfg(any(test, feature = "test-doubles"))]
pub mod arbitrary;
pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod move_;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod rank_origin;
pub mod reference;
pub mod result;
pub mod scratch;
pub mod see;
pub mod square;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use fen::{FenError, START_FEN};
pub use move_::Move;
pub use movegen::{MoveError, MoveList, RefusedMove, MAX_MOVES};
pub use piece::{Color, Piece, PieceKind};
pub use position::{PlacementError, Position, StateInfo};
pub use rank_origin::RankOrigin;
pub use result::{GameResult, Wdl};
pub use square::Square;
