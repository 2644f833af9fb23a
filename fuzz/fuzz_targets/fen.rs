//! Fuzzes FEN reading: any text is refused or read into a position.
//!
//! Checked: nothing panics; a position read writes a FEN that reads back to the same
//! position (same FEN, same key), and its legal moves are legal.
#![no_main]

use jiangjun::board::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(pos) = Position::from_fen(&text) else {
        return;
    };
    let fen = pos.to_fen();
    let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(back.to_fen(), fen);
    assert_eq!(back.key(), pos.key(), "{fen}");
    for m in pos.legal_moves() {
        assert!(pos.is_legal(m), "{fen} {m}");
    }
});
