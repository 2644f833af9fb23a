//! Fuzzes a whole session as the binary runs it (`protocol::stdio::serve`): the reader thread,
//! the main loop, real search threads and the built-in book, on a fuzzed command stream, in
//! each of the three protocols (the first byte chooses the first line: `ucci`, `uci`,
//! `xboard` + `protover 2`, or none, so the fuzzer's own first line decides).
//!
//! Searches are kept short so that a slow input is not taken for a hang: every UCCI/UCI `go`
//! line gets `depth 4 nodes 20000` appended, and in CECP every `sd` asks for depth 3 (which is
//! also set at the start and after each `new`) and every `st` for one second; `analyze`, `go infinite` and pondering
//! run until the end of input stops them.
//!
//! Checked: the session ends, with status 0, within [`DEADLINE`] of being started (an engine
//! that stops answering panics here, and libFuzzer saves the input); nothing panics; every
//! printed line is one clean line (no CR, no trailing blank, no control characters).
#![no_main]

use jiangjun::protocol::stdio::serve;
use libfuzzer_sys::fuzz_target;

#[path = "clean_lines.rs"]
mod clean_lines;
use std::io::{Cursor, Write};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Longest a session may take: its searches are bounded to well under a second each.
const DEADLINE: Duration = Duration::from_secs(30);

/// What the session prints, kept to be checked after it ends.
#[derive(Clone, Default)]
struct Printed(Arc<Mutex<Vec<u8>>>);

impl Write for Printed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("one writer").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `line` with its search bounded (see the module docs).
fn bounded(line: &str, cecp: bool) -> String {
    let first = line.split_whitespace().next().unwrap_or("");
    match (cecp, first) {
        (false, "go") => format!("{line} depth 4 nodes 20000"),
        // `new` lifts the depth limit (CECP), so it is set again.
        (true, "new") => format!("{line}\nsd 3"),
        (true, "sd") => "sd 3".to_string(),
        (true, "st") => "st 1".to_string(),
        _ => line.to_string(),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let mut lines: Vec<String> = match flags % 4 {
        0 => vec!["ucci".into()],
        1 => vec!["uci".into()],
        2 => vec!["xboard".into(), "protover 2".into(), "sd 3".into()],
        _ => Vec::new(),
    };
    let mut cecp = flags % 4 == 2;
    for line in text.split('\n') {
        if lines.is_empty() && line.trim() == "xboard" {
            cecp = true;
            lines.push(line.to_string());
            lines.push("sd 3".to_string());
            continue;
        }
        lines.push(bounded(line, cecp));
    }
    let script = lines.join("\n").into_bytes();
    let printed = Printed::default();
    let out = printed.clone();
    let (done, ended) = mpsc::channel();
    std::thread::spawn(move || {
        let code = serve(move || Cursor::new(script), out, || false);
        let _ = done.send(code);
    });
    match ended.recv_timeout(DEADLINE) {
        Ok(code) => assert_eq!(code, 0, "the end of input must end the session with 0"),
        Err(_) => panic!("the session did not end within {DEADLINE:?} of its start"),
    }
    clean_lines::assert_clean_lines(&printed.0.lock().expect("the session has ended"));
});
