//! Fuzzes move reading: from the start position (or a FEN before the first newline), each
//! whitespace-separated token is read as an ICCS move and played when legal.
//!
//! Checked: nothing panics; a move read is legal, its printed form reads back to it, and
//! playing then unplaying it restores the position's key.
#![no_main]

use jiangjun::board::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (head, moves) = text.split_once('\n').unwrap_or(("", &text));
    let mut pos = Position::from_fen(head).unwrap_or_else(|_| Position::startpos());
    for token in moves.split_whitespace().take(400) {
        let Ok(m) = pos.parse_move(token) else {
            continue;
        };
        assert!(pos.is_legal(m), "{token}");
        assert_eq!(pos.parse_move(&m.to_string()).ok(), Some(m), "{token}");
        let key = pos.key();
        pos.make_move(m);
        pos.unmake_move();
        assert_eq!(pos.key(), key, "{token}");
        pos.make_move(m);
    }
});
