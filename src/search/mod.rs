//! Search: everything that decides which move to play.
//!
//! So far only the time manager lives here. It is pure arithmetic with no dependency on the
//! board, so the protocol layer can budget a `go` before the search exists.
pub mod time;
