//! Fuzzes our book format (`.jjb`): any bytes are refused or decoded into entries. The
//! fuzzer's bytes go after a valid header prefix half of the time, so it reaches the entries
//! past the magic and key checks.
//!
//! Checked: nothing panics; encoding the entries decoded gives a file that decodes and
//! encodes to itself, and a probe of the start position returns only legal moves.
#![no_main]

use jiangjun::board::Position;
use jiangjun::book::{decode, encode, Book, MAGIC};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let mut bytes = Vec::new();
    if flags & 1 != 0 {
        bytes.extend_from_slice(&MAGIC);
        bytes.extend_from_slice(&Position::startpos().key().to_le_bytes());
    }
    bytes.extend_from_slice(rest);
    let Ok(entries) = decode(&bytes) else {
        return;
    };
    let once = encode(&entries);
    let again = decode(&once).unwrap_or_else(|e| panic!("our own encoding refused: {e}"));
    assert_eq!(encode(&again), once);
    let pos = Position::startpos();
    for bm in Book::from_entries(entries).probe(&pos) {
        assert!(pos.is_legal(bm.mv), "{}", bm.mv);
    }
});
