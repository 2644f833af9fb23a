//! Fuzzes the reader of ElephantEye's `BOOK.DAT`: any bytes are refused or read as records.
//!
//! Checked: nothing panics; the record count is the length over 8, and probes of the start
//! position and of a middle-game position return only legal moves.
#![no_main]

use jiangjun::board::Position;
use jiangjun::book::eleeye::EleEyeBook;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(book) = EleEyeBook::decode(data) else {
        return;
    };
    assert_eq!(book.len(), data.len() / 8);
    let mut pos = Position::startpos();
    for text in ["", "h2e2", "h9g7", "h0g2", "i9h9"] {
        if !text.is_empty() {
            pos.play(text).unwrap();
        }
        for bm in book.probe(&pos) {
            assert!(pos.is_legal(bm.mv), "{}", bm.mv);
        }
    }
});
