//! The process edge: a reader thread turns stdin into [`Event`]s, the main thread runs the
//! [`Session`] on them and writes stdout.
//!
//! Reading happens on its own thread so that the session can take search reports while a GUI is
//! silent. The reader is deliberately dumb: it splits bytes at `\n` (a `\r` before it, tabs and
//! other blanks are the parser's business), decodes lossily (a GUI on a GBK code page must not
//! kill us with one bad byte), and caps a line at [`MAX_LINE_BYTES`]: a longer line is skipped
//! whole — executing a cut-off command would do something the GUI did not ask for — and the
//! session says so in an `info string`. The channel is bounded, so a flood of input waits in
//! the pipe instead of in our memory.

use super::session::{Event, Session, MAX_LINE_BYTES};
use super::xboard::{self, Xboard};
use std::io::{BufRead, ErrorKind};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};

/// Events that may wait in the channel before the reader blocks.
const CHANNEL_DEPTH: usize = 256;

/// Reads `input` to its end, sending one event per line and a final [`Event::Eof`]. Read
/// errors other than interruptions count as the end of input. Returns early if the receiver
/// is gone.
pub fn read_lines(mut input: impl BufRead, tx: &SyncSender<Event>) {
    let mut line: Vec<u8> = Vec::new();
    // Bytes of the current line beyond the cap (the line is then skipped).
    let mut dropped: usize = 0;
    loop {
        let (used, complete) = match input.fill_buf() {
            Ok([]) => break,
            Ok(buf) => {
                let (chunk, complete) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (&buf[..i], true),
                    None => (buf, false),
                };
                if dropped == 0 && line.len() + chunk.len() <= MAX_LINE_BYTES {
                    line.extend_from_slice(chunk);
                } else {
                    dropped = dropped.saturating_add(line.len() + chunk.len());
                    line = Vec::new();
                }
                (chunk.len() + usize::from(complete), complete)
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        input.consume(used);
        if complete && !emit(&mut line, &mut dropped, tx) {
            return;
        }
    }
    if (!line.is_empty() || dropped > 0) && !emit(&mut line, &mut dropped, tx) {
        return;
    }
    let _ = tx.send(Event::Eof);
}

/// Sends the finished line (or the fact that it was too long); false if nobody listens.
fn emit(line: &mut Vec<u8>, dropped: &mut usize, tx: &SyncSender<Event>) -> bool {
    let event = if *dropped > 0 {
        Event::TooLong(*dropped)
    } else {
        Event::Line(String::from_utf8_lossy(line).into_owned())
    };
    line.clear();
    *dropped = 0;
    tx.send(event).is_ok()
}

/// Runs the protocol on stdin/stdout until `quit` or the end of input; returns the exit status.
pub fn run() -> i32 {
    let (tx, rx) = sync_channel(CHANNEL_DEPTH);
    let reader_tx = tx.clone();
    let reader = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(std::io::stdin().lock(), &reader_tx));
    if reader.is_err() {
        return 1;
    }
    let mut session = Session::new(std::io::stdout(), Some(tx.clone()));
    loop {
        // The session holds a sender itself, so the channel never closes while we wait.
        let event = rx.recv().unwrap_or(Event::Eof);
        // `xboard` before any UCCI/UCI command: the rest of the session is CECP.
        if let Event::Line(line) = &event {
            if session.dialect().is_none() && xboard::is_hello(line) {
                return run_xboard(&rx, Xboard::new(std::io::stdout(), Some(tx)));
            }
        }
        session.handle(event);
        if let Some(code) = session.exit_code() {
            return code;
        }
    }
}

/// The main loop of a CECP session (see [`xboard`]).
fn run_xboard(rx: &Receiver<Event>, mut session: Xboard<std::io::Stdout>) -> i32 {
    loop {
        let event = rx.recv().unwrap_or(Event::Eof);
        session.handle(event);
        if let Some(code) = session.exit_code() {
            return code;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn events(input: &[u8]) -> Vec<String> {
        let (tx, rx) = sync_channel(1 << 16);
        read_lines(Cursor::new(input.to_vec()), &tx);
        drop(tx);
        rx.iter()
            .map(|e| match e {
                Event::Line(l) => format!("L:{l}"),
                Event::TooLong(n) => format!("T:{n}"),
                Event::Eof => "EOF".to_string(),
                Event::Report(_) => "R".to_string(),
            })
            .collect()
    }

    #[test]
    fn splits_lines() {
        assert_eq!(events(b""), vec!["EOF"]);
        assert_eq!(
            events(b"ucci\r\nisready\n\nquit"),
            vec!["L:ucci\r", "L:isready", "L:", "L:quit", "EOF"]
        );
        assert_eq!(events(b"a\xffb\n"), vec!["L:a\u{fffd}b", "EOF"]);
    }

    #[test]
    fn caps_long_lines() {
        let mut input = vec![b'x'; MAX_LINE_BYTES + 10];
        input.extend_from_slice(b"\nisready\n");
        input.extend(std::iter::repeat_n(b'y', MAX_LINE_BYTES));
        input.extend_from_slice(b"\n");
        input.extend(std::iter::repeat_n(b'z', MAX_LINE_BYTES * 2));
        let ev = events(&input);
        assert_eq!(ev.len(), 5);
        assert_eq!(ev[0], format!("T:{}", MAX_LINE_BYTES + 10));
        assert_eq!(ev[1], "L:isready");
        assert_eq!(ev[2].len(), MAX_LINE_BYTES + 2);
        assert_eq!(ev[3], format!("T:{}", MAX_LINE_BYTES * 2));
        assert_eq!(ev[4], "EOF");
    }
}
