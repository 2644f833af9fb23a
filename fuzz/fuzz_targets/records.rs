//! Fuzzes the game-record readers: bytes are decoded as a game file is (encoding detection),
//! read as PGN, read as a stream (with detection on a sample that ends inside the input, its
//! length from the first byte), and read as XQF (with the signature put in front, so the
//! fuzzer reaches past it).
//!
//! Checked: nothing panics; every game read replays (its end position has one history entry
//! per move) and is written in each notation and read back to the same moves; the stream
//! reads the same games as the whole text when its sample is the whole input.
#![no_main]

use jiangjun::records::encoding::decode;
use jiangjun::records::pgn::{parse_pgn, read_pgn, write_pgn, Game, MoveFormat};
use jiangjun::records::stream_games_sampled;
use jiangjun::records::xqf::read_xqf;
use libfuzzer_sys::fuzz_target;
use std::ops::ControlFlow;

fn check(g: &Game) {
    assert_eq!(g.end_position().history().len(), g.moves.len());
    for format in [MoveFormat::Iccs, MoveFormat::Chinese, MoveFormat::Wxf] {
        let text = write_pgn(g, format);
        let back = parse_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back.len(), 1, "{text}");
        assert_eq!(back[0].moves, g.moves, "{text}");
    }
}

fuzz_target!(|data: &[u8]| {
    let decoded = decode(data, None);
    let whole = read_pgn(&decoded.text);
    for g in whole.games.iter().flatten() {
        check(g);
    }
    if !data.starts_with(b"XQ") {
        let mut streamed = Vec::new();
        let all = data.len() + 1;
        let _ = stream_games_sampled(data, None, all, |g| {
            streamed.push(g.ok().map(|g| g.moves));
            ControlFlow::Continue(())
        });
        let expected: Vec<_> = whole
            .games
            .iter()
            .map(|g| g.as_ref().ok().map(|g| g.moves.clone()))
            .collect();
        assert_eq!(streamed, expected);
    }
    let cut = usize::from(data.first().copied().unwrap_or(0)) + 1;
    let _ = stream_games_sampled(data, None, cut, |g| {
        if let Ok(g) = g {
            check(&g);
        }
        ControlFlow::Continue(())
    });
    let mut xqf = b"XQ".to_vec();
    xqf.extend_from_slice(data);
    if let Ok(g) = read_xqf(&xqf) {
        check(&g);
    }
});
