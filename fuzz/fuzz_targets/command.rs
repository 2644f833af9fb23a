//! Fuzzes the protocol input path: `parse_line` in both dialects, and a whole session fed the
//! same lines without search threads (searches are ended by `simulate_search_end` with
//! scores the real search can produce, |score| <= INFINITE).
//!
//! Checked: nothing panics; every printed line is one clean line (no CR, no trailing blank,
//! no control characters); parse messages are printable; the end of input always ends the
//! session with status 0.
#![no_main]

use jiangjun::protocol::session::Session;
use jiangjun::protocol::{parse_line, Dialect};
use jiangjun::search::score::INFINITE;
use libfuzzer_sys::fuzz_target;

#[path = "clean_lines.rs"]
mod clean_lines;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut session = Session::new(Vec::new(), None);
    if flags & 1 != 0 {
        session.on_line(if flags & 2 != 0 { "uci" } else { "ucci" });
    }
    for (i, line) in text.split('\n').enumerate() {
        for dialect in [Dialect::Ucci, Dialect::Uci] {
            let out = parse_line(line, dialect);
            for m in out.messages() {
                assert!(!m.chars().any(char::is_control), "{m:?}");
            }
        }
        session.on_line(line);
        // End some searches at once, leave others running so later lines meet the
        // thinking state (queueing, stop, ponderhit).
        if session.is_thinking() && (flags >> 2).wrapping_add(i as u8) % 3 == 0 {
            let score = (line.len() as i32 * 997) % (2 * INFINITE + 1) - INFINITE;
            session.simulate_search_end(score, (line.len() % 40) as i32);
        }
    }
    session.on_eof();
    let mut rounds = 0;
    while session.is_thinking() && session.exit_code().is_none() && rounds < 50_000 {
        session.simulate_search_end(0, 1);
        rounds += 1;
    }
    assert_eq!(
        session.exit_code(),
        Some(0),
        "the end of input must end the session"
    );
    clean_lines::assert_clean_lines(session.output());
});
