//! The process edge: a reader thread turns stdin into [`Event`]s, the main thread runs the
//! [`Session`] on them and writes stdout.
//!
//! Reading happens on its own thread so that the session can take search reports while a GUI is
//! silent. The reader is deliberately dumb: it splits bytes at `\n` (a `\r` before it, tabs and
//! other blanks are the parser's business), decodes lossily (a GUI on a GBK code page must not
//! kill us with one bad byte), and caps a line at [`MAX_LINE_BYTES`]: a longer line is skipped
//! whole — executing a cut-off command would do something the GUI did not ask for — and the
//! session says so in an `info string`.
//!
//! Input lines, search reports and the book's answers share one channel, and the main thread is
//! its only reader. So nothing that the main thread waits for may ever wait on the channel:
//! the channel itself is unbounded, and only the reader is held back, by [`LineCredits`] — at
//! most [`LINES_AHEAD`] lines wait in the channel, a flood of input waits in the pipe instead of
//! in our memory, and a search thread (which the main thread may join) or the main thread
//! itself (answering from the book) always sends at once. A bounded channel for everything
//! deadlocked: a script piping thousands of `go`/`stop` lines filled it, and the main thread
//! then blocked sending the book's answer to itself.

use super::session::{Event, Session, MAX_LINE_BYTES};
use super::xboard::{self, Xboard};
use std::io::{BufRead, ErrorKind, Write};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// Input lines that may wait in the channel before the reader stops reading.
pub const LINES_AHEAD: usize = 256;

/// How many more lines the reader may send before the main thread has taken some: the reader
/// takes a credit per line (waiting while there is none), the main thread gives one back for
/// each line it receives. Giving never waits, so the main thread never waits on the reader.
#[derive(Debug)]
pub struct LineCredits {
    free: Mutex<usize>,
    returned: Condvar,
}

impl LineCredits {
    pub fn new(lines: usize) -> LineCredits {
        LineCredits {
            free: Mutex::new(lines.max(1)),
            returned: Condvar::new(),
        }
    }

    /// Waits for a credit and takes it (the reader, before sending a line).
    pub fn take(&self) {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        while *free == 0 {
            free = self
                .returned
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *free -= 1;
    }

    /// Gives a credit back (the main thread, for each line it received).
    pub fn give(&self) {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        *free = free.saturating_add(1);
        self.returned.notify_one();
    }

    /// Gives back the credit of `event` if it is one of the reader's lines.
    pub fn received(&self, event: &Event) {
        if matches!(event, Event::Line(_) | Event::TooLong(_)) {
            self.give();
        }
    }
}

/// Reads `input` to its end, sending one event per line (each for a credit of `credits`) and
/// a final [`Event::Eof`]. Read errors other than interruptions count as the end of input.
/// Returns early if the receiver is gone.
pub fn read_lines(mut input: impl BufRead, tx: &Sender<Event>, credits: &LineCredits) {
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
        if complete && !emit(&mut line, &mut dropped, tx, credits) {
            return;
        }
    }
    if (!line.is_empty() || dropped > 0) && !emit(&mut line, &mut dropped, tx, credits) {
        return;
    }
    let _ = tx.send(Event::Eof);
}

/// Sends the finished line (or the fact that it was too long); false if nobody listens.
fn emit(
    line: &mut Vec<u8>,
    dropped: &mut usize,
    tx: &Sender<Event>,
    credits: &LineCredits,
) -> bool {
    let event = if *dropped > 0 {
        Event::TooLong(*dropped)
    } else {
        Event::Line(String::from_utf8_lossy(line).into_owned())
    };
    line.clear();
    *dropped = 0;
    credits.take();
    tx.send(event).is_ok()
}

/// Runs the protocol on stdin/stdout until `quit` or the end of input; returns the exit status.
pub fn run() -> i32 {
    serve(|| std::io::stdin().lock(), std::io::stdout(), stdout_closed)
}

/// Runs the protocol until `quit` or the end of input, reading the input that `open` makes
/// (on the reader thread) and writing `out`: the process's streams, or a fuzzer's bytes and a
/// buffer. The first line chooses the session: `xboard` a CECP one, anything else UCCI/UCI.
///
/// The end of input lets the work in hand finish (a script's last `go` gets its answer), but a
/// GUI that died closed our output too: from then on `output_closed` is asked every
/// [`WATCH_MS`], and when it says so the session ends at once instead of searching on to its
/// limit (`go movetime 3600000`) with no one to answer.
pub fn serve<R: BufRead>(
    open: impl FnOnce() -> R + Send + 'static,
    out: impl Write,
    output_closed: impl Fn() -> bool,
) -> i32 {
    let (tx, rx) = channel();
    let credits = Arc::new(LineCredits::new(LINES_AHEAD));
    let reader_tx = tx.clone();
    let reader_credits = credits.clone();
    let reader = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(move || read_lines(open(), &reader_tx, &reader_credits));
    if reader.is_err() {
        eprintln!("jiangjun: cannot start the thread that reads the input");
        return 1;
    }
    let mut inbox = Inbox {
        rx,
        credits,
        input_ended: false,
    };
    let mut session = Session::new(out, Some(tx.clone()));
    // The session holds a sender itself, so the channel never closes while we wait.
    while let Some(event) = inbox.next(&output_closed) {
        // `xboard` before any UCCI/UCI command: the rest of the session is CECP.
        if let Event::Line(line) = &event {
            if session.dialect().is_none() && xboard::is_hello(line) {
                let mut cecp = Xboard::new(session.into_output(), Some(tx));
                while let Some(event) = inbox.next(&output_closed) {
                    cecp.handle(event);
                    if let Some(code) = cecp.exit_code() {
                        return code;
                    }
                }
                return 0;
            }
        }
        session.handle(event);
        if let Some(code) = session.exit_code() {
            return code;
        }
    }
    0
}

/// How often the output is looked at once the input has ended.
pub const WATCH_MS: u64 = 200;

/// The main thread's end of the channel.
struct Inbox {
    rx: Receiver<Event>,
    credits: Arc<LineCredits>,
    input_ended: bool,
}

impl Inbox {
    /// The next event; `None` once the input has ended and `output_closed` says nobody reads
    /// what we write any more.
    fn next(&mut self, output_closed: &impl Fn() -> bool) -> Option<Event> {
        let event = loop {
            if !self.input_ended {
                break self.rx.recv().unwrap_or(Event::Eof);
            }
            match self.rx.recv_timeout(Duration::from_millis(WATCH_MS)) {
                Ok(event) => break event,
                Err(RecvTimeoutError::Timeout) if output_closed() => return None,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break Event::Eof,
            }
        };
        self.credits.received(&event);
        self.input_ended |= matches!(event, Event::Eof);
        Some(event)
    }
}

/// Has the reader of our standard output gone? A pipe whose other end is closed says so
/// (`POLLERR`); a terminal or a file never does.
#[cfg(unix)]
#[allow(unsafe_code)]
fn stdout_closed() -> bool {
    let mut fd = libc::pollfd {
        fd: libc::STDOUT_FILENO,
        events: 0,
        revents: 0,
    };
    // SAFETY: `fd` is one valid `pollfd` for the duration of the call, which does not wait.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & (libc::POLLERR | libc::POLLHUP) != 0
}

/// Elsewhere the engine learns of a closed output only when a write fails.
#[cfg(not(unix))]
fn stdout_closed() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn events(input: &[u8]) -> Vec<String> {
        let (tx, rx) = channel();
        read_lines(Cursor::new(input.to_vec()), &tx, &LineCredits::new(1 << 16));
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
    fn the_reader_waits_for_credits_and_every_line_arrives_in_order() {
        // Two credits for 1,000 lines: the reader must wait for the receiver 998 times.
        let input: String = (0..1000).map(|i| format!("line {i}\n")).collect();
        let (tx, rx) = channel();
        let credits = Arc::new(LineCredits::new(2));
        let reader_credits = credits.clone();
        let reader = std::thread::spawn(move || {
            read_lines(Cursor::new(input.into_bytes()), &tx, &reader_credits);
        });
        let mut got = Vec::new();
        loop {
            let event = rx.recv().expect("the reader ends with Eof");
            credits.received(&event);
            match event {
                Event::Line(l) => got.push(l),
                Event::Eof => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        reader.join().expect("the reader ends");
        assert_eq!(got.len(), 1000);
        assert!(got
            .iter()
            .enumerate()
            .all(|(i, l)| *l == format!("line {i}")));
        // What the reader holds back is at most the credits: all returned once it is done.
        assert_eq!(*credits.free.lock().unwrap(), 2);
    }

    /// `serve` on `script`, with `out_closed` as its output check; its exit status, or `None`
    /// if it has not ended within a minute.
    fn serve_script(script: &'static str, out_closed: bool) -> Option<i32> {
        let (done, ended) = channel();
        std::thread::spawn(move || {
            let code = serve(move || Cursor::new(script), Vec::new(), move || out_closed);
            let _ = done.send(code);
        });
        ended.recv_timeout(Duration::from_secs(60)).ok()
    }

    #[test]
    fn a_closed_output_after_the_input_ends_stops_a_long_search() {
        // An hour's search, then the end of input: the GUI died. Its output is closed too, so
        // the session ends at once instead of searching on for the hour.
        let script = "ucci\nsetoption usebook false\nposition startpos\ngo movetime 3600000\n";
        assert_eq!(serve_script(script, true), Some(0));
        let cecp = "xboard\nprotover 2\nst 3600\ngo\n";
        assert_eq!(serve_script(cecp, true), Some(0));
    }

    #[test]
    fn an_open_output_gets_the_last_answer_of_a_script() {
        let script = "ucci\nsetoption usebook false\nposition startpos\ngo depth 2\n";
        assert_eq!(serve_script(script, false), Some(0));
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
