//! Fuzzes move reading: from the start position (or a FEN before the first newline), each
//! whitespace-separated token is read as an ICCS move, and in every other notation the game
//! readers accept (Chinese, WXF, SAN-like, any), and played when legal.
//!
//! Checked: nothing panics; a move read is legal, its printed form reads back to it (ICCS,
//! Chinese, WXF), and playing then unplaying it restores the position's key.
#![no_main]

use jiangjun::board::notation::{
    parse_any, parse_chinese, parse_san, parse_wxf, to_chinese, to_wxf,
};
use jiangjun::board::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (head, moves) = text.split_once('\n').unwrap_or(("", &text));
    let mut pos = Position::from_fen(head).unwrap_or_else(|_| Position::startpos());
    for token in moves.split_whitespace().take(400) {
        let read = [
            pos.parse_move(token).ok(),
            parse_chinese(&pos, token).ok(),
            parse_wxf(&pos, token).ok(),
            parse_san(&pos, token).ok(),
            parse_any(&pos, token).ok(),
        ];
        let Some(m) = read.into_iter().flatten().next() else {
            continue;
        };
        assert!(pos.is_legal(m), "{token}");
        assert_eq!(pos.parse_move(&m.to_string()).ok(), Some(m), "{token}");
        assert_eq!(
            parse_chinese(&pos, &to_chinese(&pos, m)).ok(),
            Some(m),
            "{token}"
        );
        assert_eq!(parse_wxf(&pos, &to_wxf(&pos, m)).ok(), Some(m), "{token}");
        let key = pos.key();
        pos.make_move(m);
        pos.unmake_move();
        assert_eq!(pos.key(), key, "{token}");
        pos.make_move(m);
    }
});
