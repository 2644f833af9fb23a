//! Child-process I/O: a reader thread turns an engine's stdout into time-stamped lines,
//! bounded in length and in number queued, so a flooding, silent or garbage-printing engine
//! can neither exhaust memory nor block the runner; and the shared `--log` of every line.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::sync::mpsc::{sync_channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

/// Longest engine line kept; the rest of a longer line is dropped (only the first words of
/// a line matter to the runner).
const MAX_LINE: usize = 16 * 1024;
/// Lines queued before the reader blocks (and with it an engine that floods its output), so
/// a flooding engine costs at most `QUEUE * MAX_LINE` bytes.
const QUEUE: usize = 1024;

/// A shared log of every line exchanged with engines (`--log`).
#[derive(Clone)]
pub struct IoLog {
    out: Arc<Mutex<BufWriter<File>>>,
    start: Instant,
}

impl IoLog {
    /// Appends to `path`.
    pub fn create(path: &std::path::Path) -> std::io::Result<IoLog> {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(IoLog {
            out: Arc::new(Mutex::new(BufWriter::new(f))),
            start: Instant::now(),
        })
    }

    pub(super) fn write(&self, tag: &str, dir: &str, line: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(out, "{t:10.3} {tag} {dir} {line}");
            let _ = out.flush();
        }
    }
}

/// What the reader thread saw: a line and when it arrived, or the end of the output.
pub(super) enum Event {
    Line(Instant, String),
    Eof(Instant),
}

/// Reads one line of at most `MAX_LINE` bytes (dropping the excess); `Ok(false)` at EOF.
pub(super) fn read_line_bounded(r: &mut impl BufRead, out: &mut Vec<u8>) -> std::io::Result<bool> {
    out.clear();
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any);
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE.saturating_sub(out.len());
        out.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            return Ok(true);
        }
    }
}

pub(super) fn spawn_reader(out: impl Read + Send + 'static) -> Receiver<Event> {
    let (tx, rx) = sync_channel(QUEUE);
    thread::spawn(move || {
        let mut r = BufReader::new(out);
        let mut buf = Vec::new();
        loop {
            match read_line_bounded(&mut r, &mut buf) {
                Ok(true) => {
                    let line = String::from_utf8_lossy(&buf);
                    let line = line.trim_end_matches(['\r', '\n']).to_string();
                    if tx.send(Event::Line(Instant::now(), line)).is_err() {
                        return;
                    }
                }
                Ok(false) | Err(_) => {
                    let _ = tx.send(Event::Eof(Instant::now()));
                    return;
                }
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_lines() {
        let long = "x".repeat(MAX_LINE * 2) + "\nok\n";
        let mut r = BufReader::with_capacity(100, long.as_bytes());
        let mut buf = Vec::new();
        assert!(read_line_bounded(&mut r, &mut buf).unwrap());
        assert_eq!(buf.len(), MAX_LINE);
        assert!(read_line_bounded(&mut r, &mut buf).unwrap());
        assert_eq!(buf, b"ok");
        assert!(!read_line_bounded(&mut r, &mut buf).unwrap());
    }
}
