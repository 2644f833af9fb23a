//! The network compiled into the binary (`net/default.jjnn`), so that a copied or installed
//! binary evaluates with it without finding any file; `net/README.md` says how it was trained
//! and how to replace it.
//!
//! Whether searches use it by default is one constant, [`DEFAULT_ON`]: the project makes the
//! network the default only when it has beaten the hand-written evaluation in games.

use super::network::{Network, NetworkError};
use once_cell::sync::Lazy;
use std::sync::Arc;

/// Do searches evaluate with the built-in network unless told otherwise (`usennue` /
/// `Use NNUE` default, and the evaluation of `bench`, `datagen`, `analyse`)?
/// `true` since the round-3 network beat the hand-written evaluation in games (`net/README.md`);
/// `false` would make the hand-written evaluation the default again.
pub const DEFAULT_ON: bool = true;

/// The name of the built-in network in options and messages (the `evalfile` default).
pub const BUILT_IN_NAME: &str = "<built-in>";

/// The network file's bytes.
static BYTES: &[u8] = include_bytes!("net/default.jjnn");

/// Parsed once, on first use, and shared by every engine and search thread.
static BUILT_IN: Lazy<Result<Arc<Network>, NetworkError>> =
    Lazy::new(|| Network::from_bytes(BYTES).map(Arc::new));

/// The built-in network: the same `Arc` every call. An error only if the file in the
/// repository is not a network of this build's format (a test guards against that).
pub fn built_in() -> Result<Arc<Network>, NetworkError> {
    BUILT_IN.clone()
}

/// The embedded file's bytes (for tools that report or copy the network).
pub fn bytes() -> &'static [u8] {
    BYTES
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::checksum::fnv1a64;
    use crate::eval::nnue::network::MAGIC;

    #[test]
    fn the_built_in_network_parses_with_a_valid_header_and_checksum() {
        let net = built_in().expect("the built-in network parses");
        let arch = net.architecture();
        // Its header names its architecture's format version, and its length is that
        // architecture's.
        assert_eq!(BYTES.len(), arch.file_len());
        assert_eq!(BYTES[..4], MAGIC);
        assert_eq!(
            u32::from_le_bytes(BYTES[4..8].try_into().unwrap()),
            arch.version()
        );
        let (body, sum) = BYTES.split_at(BYTES.len() - 8);
        assert_eq!(fnv1a64(body), u64::from_le_bytes(sum.try_into().unwrap()));
        // Written back, it is the same file.
        assert!(net.to_bytes() == BYTES);
        // Parsed once and shared, not copied per caller.
        assert!(Arc::ptr_eq(&net, &built_in().unwrap()));
    }

    #[test]
    fn the_built_in_network_is_trained_and_colour_symmetric() {
        let net = built_in().unwrap();
        let start = Position::startpos();
        // A trained network does not score every position alike: up a rook is better.
        let rook_up =
            Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap();
        assert!(net.evaluate(&rook_up) > net.evaluate(&start) + 200);
        // The start position is scored alike for either side to move.
        let black =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b")
                .unwrap();
        assert_eq!(net.evaluate(&start), net.evaluate(&black));
    }
}
