//! Bounded input: the one place where the engine and the tools open a file they read.
//!
//! A path that comes from a GUI option or a command line may name anything: a directory, a
//! FIFO that nobody writes to (opening it for reading blocks until someone does), a device
//! such as `/dev/zero` (endless), a file far larger than its format allows, or a file another
//! program is rewriting. Every reader goes through [`open_regular`], [`read_file`] or
//! [`read_input`], which
//!
//! * look at the file type (following links) **before** opening, and refuse anything but a
//!   regular file with a message saying what it is; on Unix the file is also opened with
//!   `O_NONBLOCK`, so a path swapped for a FIFO between the check and the open cannot block
//!   either, and the opened file is checked again;
//! * refuse a file over the reader's limit by its size, before reading it, and read at most
//!   one byte more than the limit, so a file that grows meanwhile is still bounded;
//! * report a file that changed while it was read as an error, never half a file: its size,
//!   its modification time (a rewrite of the same size; as fine as the file system's
//!   timestamps) and, on Unix, its inode and status-change time are compared before and after.
//!
//! Standard input (`-`, where a subcommand reads a stream) is read up to the same limits.
//! Game records (`jiangjun pgn`, `analyse`, the book builder, `datagen --from-games`) are a
//! stream instead ([`open_stream`]): any size, one game in memory at a time, the same checks
//! of the file type and of a change while read.
//! Limits per kind of input are the `MAX_*` constants here (the network file's is the largest
//! network file's length, [`crate`]'s `eval::nnue::network::MAX_FILE_LEN`); streamed inputs (training data)
//! have none, since they are never held whole.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

/// Largest opening book read (our `.jjb` or ElephantEye's `BOOK.DAT`): 256 MiB, 16 million
/// of our entries; the books shipped are under 200 KB.
pub const MAX_BOOK_BYTES: u64 = 256 << 20;
/// Largest XQF file read: 16 MiB. An XQF file is one game (a few kilobytes, more with long
/// comments) and is read whole; PGN, any number of games, is read a game at a time
/// ([`open_stream`], [`crate::records::stream_file`]) and has no limit.
pub const MAX_XQF_BYTES: u64 = 16 << 20;
/// Largest small text input read: opening suites, book seed lists, evaluation weights (64 MiB).
pub const MAX_TEXT_BYTES: u64 = 64 << 20;
/// Largest tuning-sample file read (`jiangjun tune --data`): 2 GiB, held in memory whole.
pub const MAX_SAMPLES_BYTES: u64 = 2 << 30;

/// Why an input was refused. The message does not name the path: callers say which input.
#[derive(Debug)]
pub enum InputError {
    /// Looking at, opening or reading the file failed.
    Io(io::Error),
    /// Not a regular file; what it is instead ("a directory", "a FIFO", ...).
    NotRegular(&'static str),
    /// Larger than the reader's limit.
    TooLarge { size: u64, limit: u64 },
    /// The file's size changed while it was read.
    Changed,
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Io(e) => e.fmt(f),
            InputError::NotRegular(what) => write!(f, "not a regular file ({what})"),
            InputError::TooLarge { size, limit } => {
                write!(f, "{size} bytes or more, over the limit of {limit} bytes")
            }
            InputError::Changed => write!(f, "the file changed while it was read"),
        }
    }
}

/// The message already says the I/O error's: its source is that error's own (a chain of
/// causes printed with `{:#}` names each once).
impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InputError::Io(e) => e.source(),
            _ => None,
        }
    }
}

impl From<io::Error> for InputError {
    fn from(e: io::Error) -> InputError {
        InputError::Io(e)
    }
}

impl From<InputError> for io::Error {
    fn from(e: InputError) -> io::Error {
        match e {
            InputError::Io(e) => e,
            other => io::Error::other(other),
        }
    }
}

/// What a file that is not a regular file is, in words.
fn kind_of(t: std::fs::FileType) -> Option<&'static str> {
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a FIFO");
        }
        if t.is_char_device() {
            return Some("a character device");
        }
        if t.is_block_device() {
            return Some("a block device");
        }
        if t.is_socket() {
            return Some("a socket");
        }
    }
    Some("not a file")
}

/// Opens `path` for reading if it is a regular file of at most `limit` bytes; returns the
/// file and its size. Never blocks on a FIFO and never reads.
pub fn open_regular(path: &Path, limit: u64) -> Result<(File, u64), InputError> {
    check(&std::fs::metadata(path)?, limit)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    // The path may name another file by now: check what was opened.
    let size = check(&file.metadata()?, limit)?;
    Ok((file, size))
}

/// The size of a regular file of at most `limit` bytes; anything else is refused.
fn check(meta: &std::fs::Metadata, limit: u64) -> Result<u64, InputError> {
    if let Some(what) = kind_of(meta.file_type()) {
        return Err(InputError::NotRegular(what));
    }
    if meta.len() > limit {
        return Err(InputError::TooLarge {
            size: meta.len(),
            limit,
        });
    }
    Ok(meta.len())
}

/// Reads at most `limit` bytes of `r`; more is an error (one byte past the limit is read).
fn read_bounded(r: impl Read, limit: u64) -> Result<Vec<u8>, InputError> {
    let mut bytes = Vec::new();
    r.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    let size = bytes.len() as u64;
    if size > limit {
        return Err(InputError::TooLarge { size, limit });
    }
    Ok(bytes)
}

/// What tells one version of a file from another without reading it: its size, its
/// modification time and, on Unix, its device, inode and status-change time.
#[derive(Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    unix: (u64, u64, i64, i64),
}

impl Stamp {
    fn of(file: &File) -> io::Result<Stamp> {
        let meta = file.metadata()?;
        Ok(Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            unix: {
                use std::os::unix::fs::MetadataExt;
                (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec())
            },
        })
    }
}

/// The whole of the regular file `path`, at most `limit` bytes.
pub fn read_file(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    let (file, _) = open_regular(path, limit)?;
    let before = Stamp::of(&file)?;
    read_opened(&file, before, limit)
}

/// Reads an opened file whose stamp before reading was `before`.
fn read_opened(file: &File, before: Stamp, limit: u64) -> Result<Vec<u8>, InputError> {
    let bytes = read_bounded(file, limit)?;
    // A writer that truncated, extended or rewrote the file meanwhile: the bytes may be no
    // version's.
    if bytes.len() as u64 != before.len || Stamp::of(file)? != before {
        return Err(InputError::Changed);
    }
    Ok(bytes)
}

/// The regular file `path` as UTF-8 text, at most `limit` bytes.
pub fn read_text(path: &Path, limit: u64) -> Result<String, InputError> {
    String::from_utf8(read_file(path, limit)?)
        .map_err(|e| InputError::Io(io::Error::new(io::ErrorKind::InvalidData, e.utf8_error())))
}

/// The whole of `path`, or of standard input when `path` is `-`, at most `limit` bytes.
pub fn read_input(path: &Path, limit: u64) -> Result<Vec<u8>, InputError> {
    if path.as_os_str() == "-" {
        read_bounded(io::stdin().lock(), limit)
    } else {
        read_file(path, limit)
    }
}

/// An input read as a stream, never held whole: standard input (`-`) or a regular file of
/// any size (game records, which a reader takes one game at a time).
pub struct InputStream {
    reader: Box<dyn Read>,
    /// The file and its stamp when opened, to tell whether it changed while read.
    file: Option<(File, Stamp)>,
}

/// Opens `path` (`-`: standard input) as an [`InputStream`]: a regular file only, as
/// [`open_regular`] checks, without a size limit.
pub fn open_stream(path: &Path) -> Result<InputStream, InputError> {
    if path.as_os_str() == "-" {
        return Ok(InputStream {
            reader: Box::new(io::stdin()),
            file: None,
        });
    }
    let (file, _) = open_regular(path, u64::MAX)?;
    let stamp = Stamp::of(&file)?;
    Ok(InputStream {
        reader: Box::new(file.try_clone()?),
        file: Some((file, stamp)),
    })
}

impl InputStream {
    /// After the last byte: an error if the file changed while it was read (what was read
    /// may then be no version's).
    pub fn check_unchanged(&self) -> Result<(), InputError> {
        match &self.file {
            Some((file, before)) if Stamp::of(file)? != *before => Err(InputError::Changed),
            _ => Ok(()),
        }
    }
}

impl Read for InputStream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.reader.read(buf)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A scratch folder for one test, removed at the end.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(tag: &str) -> Scratch {
            let dir = std::env::temp_dir().join(format!("jj-input-{tag}-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// A FIFO at `path` made with `mkfifo`, or `None` (with the reason printed) where there is
    /// no `mkfifo`.
    fn make_fifo(path: &Path) -> Option<()> {
        match std::process::Command::new("mkfifo").arg(path).status() {
            Ok(s) if s.success() => Some(()),
            other => {
                println!("skipped: mkfifo {} failed ({other:?})", path.display());
                None
            }
        }
    }

    #[test]
    fn regular_files_are_read_up_to_the_limit() {
        let s = Scratch::new("regular");
        let p = s.0.join("f.txt");
        std::fs::write(&p, b"0123456789").unwrap();
        assert_eq!(read_file(&p, 10).unwrap(), b"0123456789");
        assert_eq!(read_text(&p, 100).unwrap(), "0123456789");
        let e = read_file(&p, 9).unwrap_err();
        assert!(
            matches!(e, InputError::TooLarge { size: 10, limit: 9 }),
            "{e}"
        );
        assert!(e.to_string().contains("limit of 9 bytes"), "{e}");
        std::fs::write(&p, [0xff, 0xfe]).unwrap();
        assert!(read_text(&p, 100).is_err());
        let e = read_file(&s.0.join("missing"), 100).unwrap_err();
        assert!(matches!(e, InputError::Io(ref io) if io.kind() == io::ErrorKind::NotFound));
        // Its message says the cause; the chain does not say it again.
        let chain = format!("{:#}", anyhow::Error::new(e).context("cannot read missing"));
        assert_eq!(chain.matches("(os error 2)").count(), 1, "{chain}");
    }

    #[test]
    fn directories_devices_and_fifos_are_refused_without_blocking() {
        let s = Scratch::new("special");
        let e = read_file(&s.0, u64::MAX).unwrap_err();
        assert_eq!(e.to_string(), "not a regular file (a directory)");
        let zero = Path::new("/dev/zero");
        if zero.exists() {
            let e = read_file(zero, u64::MAX).unwrap_err();
            assert_eq!(e.to_string(), "not a regular file (a character device)");
        } else {
            println!("skipped /dev/zero: not on this system");
        }
        let fifo = s.0.join("fifo");
        if make_fifo(&fifo).is_some() {
            // Opening a FIFO nobody writes to would block: the answer must come at once.
            let (tx, rx) = std::sync::mpsc::channel();
            let path = fifo.clone();
            std::thread::spawn(move || {
                let _ = tx.send(read_file(&path, 100).map_err(|e| e.to_string()));
            });
            let got = rx
                .recv_timeout(std::time::Duration::from_secs(10))
                .expect("reading a FIFO blocked");
            assert_eq!(got.unwrap_err(), "not a regular file (a FIFO)");
            // Through a symbolic link too.
            #[cfg(unix)]
            {
                let link = s.0.join("link");
                std::os::unix::fs::symlink(&fifo, &link).unwrap();
                let e = read_file(&link, 100).unwrap_err();
                assert_eq!(e.to_string(), "not a regular file (a FIFO)");
            }
        }
    }

    #[test]
    fn a_rewrite_of_the_same_size_is_seen() {
        let s = Scratch::new("same-size");
        let p = s.0.join("f.bin");
        std::fs::write(&p, [1u8; 4096]).unwrap();
        let (file, _) = open_regular(&p, 1 << 20).unwrap();
        let before = Stamp::of(&file).unwrap();
        // Another program rewrites it in place, same length, between the open and the end of
        // the read; its clock tick is set a second later, as any later write's would be (a
        // write within one tick of the file system's timestamps is not told apart).
        let mut w = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
        std::io::Write::write_all(&mut w, &[2u8; 4096]).unwrap();
        let later = before.modified.unwrap() + std::time::Duration::from_secs(1);
        w.set_modified(later).unwrap();
        drop(w);
        assert!(matches!(
            read_opened(&file, before, 1 << 20),
            Err(InputError::Changed)
        ));
        // Unchanged, the same path reads.
        assert_eq!(read_file(&p, 1 << 20).unwrap(), vec![2u8; 4096]);
    }

    #[test]
    fn a_file_rewritten_while_read_gives_bytes_of_one_version_or_an_error() {
        let s = Scratch::new("changing");
        let p = s.0.join("f.bin");
        let short = vec![1u8; 1000];
        let long = vec![2u8; 300_000];
        std::fs::write(&p, &long).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writer = {
            let (p, stop) = (p.clone(), stop.clone());
            let (short, long) = (short.clone(), long.clone());
            std::thread::spawn(move || {
                let mut i = 0u32;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let _ = std::fs::write(&p, if i.is_multiple_of(2) { &short } else { &long });
                    i += 1;
                }
            })
        };
        let (mut ok, mut err) = (0, 0);
        for _ in 0..300 {
            match read_file(&p, 1 << 20) {
                Ok(b) => {
                    // The size was the same before and after the read (a writer caught
                    // between the two may still have left a part-written file: the formats'
                    // checksums are there for that).
                    assert!(b.len() <= long.len());
                    ok += 1;
                }
                Err(_) => err += 1,
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        writer.join().unwrap();
        assert_eq!(ok + err, 300);
    }
}
