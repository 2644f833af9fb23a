//! Reading game files: a PGN (any notation, any of the encodings) or an XQF file, or a folder
//! of them, each game read or refused on its own.

use super::encoding::{self, TextEncoding};
use super::pgn::{self, Game, PgnError};
use super::xqf::{self, XqfError};
use crate::input::{self, InputError};
use std::ops::ControlFlow;
use std::path::Path;

/// Why one game of a file could not be read.
#[derive(Debug)]
pub enum GameError {
    Pgn(PgnError),
    Xqf(XqfError),
}

impl std::fmt::Display for GameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameError::Pgn(e) => e.fmt(f),
            GameError::Xqf(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

/// What reading a game file in one pass found besides its games.
pub struct Streamed {
    /// How the text was decoded: `None` for XQF.
    pub encoding: Option<(TextEncoding, encoding::Detection)>,
    /// Some bytes were not valid in the encoding and became U+FFFD.
    pub had_errors: bool,
    /// The XQF version byte, for an XQF file.
    pub xqf_version: Option<u8>,
    /// Warnings about skipped text.
    pub warnings: Vec<String>,
    /// Games handed out, read or refused.
    pub games: usize,
}

/// Reads the games of `reader` in one pass, handing each to `emit` as soon as it is read
/// (`emit` may ask to stop, and no more is read): an XQF file (by its signature) as its one
/// game, else PGN in the forced or detected encoding ([`encoding::detect`] on the first
/// [`encoding::DETECTION_SAMPLE`] bytes). Memory holds that sample, one game and one line,
/// whatever the size of the file. An error reading it (or a line longer than
/// [`encoding::MAX_LINE_CHARS`]) ends the reading with that error, after the games read
/// before it.
pub fn stream_games(
    reader: impl std::io::Read,
    forced: Option<TextEncoding>,
    emit: impl FnMut(Result<Game, GameError>) -> ControlFlow<()>,
) -> std::io::Result<Streamed> {
    stream_games_sampled(reader, forced, encoding::DETECTION_SAMPLE, emit)
}

/// [`stream_games`] with detection on the first `sample_len` bytes: what tests and fuzzing use
/// to reach a sample that ends inside a file without a file of megabytes.
pub fn stream_games_sampled(
    mut reader: impl std::io::Read,
    forced: Option<TextEncoding>,
    sample_len: usize,
    mut emit: impl FnMut(Result<Game, GameError>) -> ControlFlow<()>,
) -> std::io::Result<Streamed> {
    use std::io::Read;
    let mut sample = Vec::new();
    (&mut reader)
        .take(sample_len as u64)
        .read_to_end(&mut sample)?;
    let complete = sample.len() < sample_len;
    let mut streamed = Streamed {
        encoding: None,
        had_errors: false,
        xqf_version: None,
        warnings: Vec::new(),
        games: 0,
    };
    if xqf::is_xqf(&sample) {
        // An XQF file is one game of a few kilobytes: read whole, within its limit.
        let limit = input::MAX_XQF_BYTES;
        reader
            .take((limit + 1).saturating_sub(sample.len() as u64))
            .read_to_end(&mut sample)?;
        if sample.len() as u64 > limit {
            return Err(InputError::TooLarge {
                size: sample.len() as u64,
                limit,
            }
            .into());
        }
        streamed.xqf_version = sample.get(2).copied();
        streamed.games = 1;
        // One game: nothing is left to stop reading.
        let _ = emit(xqf::read_xqf(&sample).map_err(GameError::Xqf));
        return Ok(streamed);
    }
    let (enc, detection, bom) = encoding::detect(&sample, complete, forced);
    streamed.encoding = Some((enc, detection));
    let mut bytes = std::io::Cursor::new(sample).chain(reader);
    std::io::copy(&mut (&mut bytes).take(bom as u64), &mut std::io::sink())?;
    let mut chars = encoding::Chars::new(bytes, enc);
    streamed.games = pgn::read_pgn_stream(
        &mut chars,
        |g| emit(g.map_err(GameError::Pgn)),
        &mut streamed.warnings,
    );
    streamed.had_errors = chars.had_errors();
    match chars.take_error() {
        Some(e) => Err(e),
        None => Ok(streamed),
    }
}

/// Reads the game file `path` (`-`: standard input) in one pass as [`stream_games`] does:
/// refused unless a regular file ([`input::open_stream`]), and an error at the end if it
/// changed while read. The games read before an error have been handed out.
pub fn stream_file(
    path: &Path,
    forced: Option<TextEncoding>,
    emit: impl FnMut(Result<Game, GameError>) -> ControlFlow<()>,
) -> Result<Streamed, InputError> {
    let mut stream = input::open_stream(path)?;
    let streamed = stream_games(&mut stream, forced, emit)?;
    stream.check_unchanged()?;
    Ok(streamed)
}

/// The game files under `paths`, in the order given: a file as named (whatever its name), a
/// folder's `.pgn` and `.xqf` files (any case) recursively, sorted so that what is built from
/// them does not depend on the order a file system lists them in; each file once, however
/// many names it has (by its canonical path: a link to a file, a folder reached twice). A
/// folder is walked once, so links that lead back into a folder (`a -> .`) end there instead
/// of walking forever. Paths that cannot be listed or do not exist come back as messages,
/// for the caller to report.
pub fn game_files(paths: &[std::path::PathBuf]) -> (Vec<std::path::PathBuf>, Vec<String>) {
    use std::collections::HashSet;
    use std::path::{Path, PathBuf};
    /// The canonical path of `p`, or `p` itself where there is none (it then fails when
    /// read, with a message).
    fn canonical(p: &Path) -> PathBuf {
        std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
    }
    /// What a walk found, and the folders it walked (by canonical path).
    struct Walk {
        files: Vec<PathBuf>,
        bad: Vec<String>,
        folders: HashSet<PathBuf>,
    }
    fn walk(dir: &Path, w: &mut Walk) {
        if !w.folders.insert(canonical(dir)) {
            return;
        }
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => return w.bad.push(format!("cannot list {}: {e}", dir.display())),
        };
        let mut paths = Vec::new();
        for entry in entries {
            match entry {
                Ok(e) => paths.push(e.path()),
                Err(e) => w.bad.push(format!("cannot list {}: {e}", dir.display())),
            }
        }
        // In name order: which of a folder's names is walked must not depend on the file
        // system.
        paths.sort();
        for path in paths {
            if path.is_dir() {
                walk(&path, w);
            } else if path
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("pgn") || x.eq_ignore_ascii_case("xqf"))
            {
                w.files.push(path);
            }
        }
    }
    let mut w = Walk {
        files: Vec::new(),
        bad: Vec::new(),
        folders: HashSet::new(),
    };
    let mut files = Vec::new();
    let mut seen = HashSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut w);
            w.files.sort();
        } else if p.is_file() {
            w.files.push(p.clone());
        } else if p.exists() {
            // A FIFO or a device: named on purpose perhaps, but never read (crate::input).
            w.bad
                .push(format!("{}: not a regular file or folder", p.display()));
        } else {
            w.bad
                .push(format!("{}: no such file or folder", p.display()));
        }
        files.extend(w.files.drain(..).filter(|f| seen.insert(canonical(f))));
    }
    (files, w.bad)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The games `stream_games` reads, with detection on the first `sample_len` bytes, as
    /// PGN text (a game's own comparison) or the error's words.
    fn streamed(bytes: &[u8], sample_len: usize) -> (Vec<String>, Streamed) {
        let mut games = Vec::new();
        let info = stream_games_sampled(bytes, None, sample_len, |g| {
            games.push(match g {
                Ok(g) => pgn::write_pgn(&g, pgn::MoveFormat::Iccs),
                Err(e) => e.to_string(),
            });
            ControlFlow::Continue(())
        })
        .expect("in memory");
        (games, info)
    }

    /// The games of the whole text, decoded at once: what a stream must match.
    fn whole(bytes: &[u8]) -> Vec<String> {
        let decoded = encoding::decode(bytes, None);
        pgn::read_pgn(&decoded.text)
            .games
            .into_iter()
            .map(|g| match g {
                Ok(g) => pgn::write_pgn(&g, pgn::MoveFormat::Iccs),
                Err(e) => GameError::Pgn(e).to_string(),
            })
            .collect()
    }

    #[test]
    fn a_stream_reads_what_the_whole_file_reads() {
        let text = include_str!("../../tests/data/classic_endgames.pgn");
        // A bad game in the middle, to see its number and line carried through.
        let text = format!("{text}\n[Event \"bad\"]\n1. h2e2 h2e2 *\n\n{text}");
        for enc in [
            TextEncoding::Utf8,
            TextEncoding::Gb18030,
            TextEncoding::Big5,
        ] {
            let bytes = enc.encode(&text);
            let expected = whole(&bytes);
            assert_eq!(expected.len(), 7, "{enc}");
            // The whole file as the sample, and samples that end inside the text (inside a
            // character, for the double-byte encodings at odd lengths).
            for sample_len in [1 << 22, 4097, 999, 301] {
                let (games, info) = streamed(&bytes, sample_len);
                assert_eq!(games, expected, "{enc}, sample {sample_len}");
                assert_eq!(info.games, 7);
                assert_eq!(info.encoding.map(|e| e.0), Some(enc), "{sample_len}");
                assert!(!info.had_errors);
            }
        }
        // A byte-order mark is skipped, and says the encoding.
        let bytes = TextEncoding::Utf16Le.encode(&text);
        let mut with_bom = vec![0xFF, 0xFE];
        with_bom.extend_from_slice(&bytes);
        let (games, info) = streamed(&with_bom, 64);
        assert_eq!(games, whole(&with_bom));
        assert_eq!(
            info.encoding,
            Some((TextEncoding::Utf16Le, encoding::Detection::Bom))
        );
    }

    #[test]
    fn a_reader_that_stops_gets_no_more_games() {
        let game = "[Event \"x\"]\n1. h2e2 h9g7 *\n\n";
        let text = game.repeat(3);
        let mut handed = 0;
        let info = stream_games(text.as_bytes(), None, |g| {
            assert!(g.is_ok());
            handed += 1;
            ControlFlow::Break(())
        })
        .expect("in memory");
        assert_eq!((handed, info.games), (1, 1));
    }

    /// Folders that lead back to themselves through links are walked once, and a file
    /// named twice (a link to it, a folder linked twice) is listed once.
    #[cfg(unix)]
    #[test]
    fn link_loops_and_aliases_give_each_file_once() {
        use std::os::unix::fs::symlink;
        let dir = std::env::temp_dir().join(format!("jj-read-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("g.pgn"), "1. h2e2 *\n").unwrap();
        std::fs::write(dir.join("sub/h.xqf"), "").unwrap();
        symlink(".", dir.join("a")).unwrap();
        symlink(".", dir.join("b")).unwrap();
        symlink("..", dir.join("sub/up")).unwrap();
        symlink("g.pgn", dir.join("link.pgn")).unwrap();
        symlink("sub", dir.join("sub2")).unwrap();
        let (files, bad) = game_files(&[dir.clone(), dir.join("g.pgn"), dir.join("a")]);
        assert!(bad.is_empty(), "{bad:?}");
        assert_eq!(files, [dir.join("g.pgn"), dir.join("sub/h.xqf")]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_xqf_file_over_its_limit_is_refused_unread() {
        let mut bytes = b"XQ".to_vec();
        bytes.resize(input::MAX_XQF_BYTES as usize + 1, 0);
        let e = stream_games(&bytes[..], None, |_| panic!("no game"))
            .err()
            .expect("refused");
        assert!(e.to_string().contains("over the limit"), "{e}");
        // At the limit it is read (and refused as a game, not as a file).
        bytes.pop();
        let mut games = 0;
        stream_games(&bytes[..], None, |g| {
            assert!(g.is_err());
            games += 1;
            ControlFlow::Continue(())
        })
        .expect("read");
        assert_eq!(games, 1);
    }

    #[test]
    fn an_endless_line_ends_the_stream_with_an_error() {
        let mut bytes = b"[Event \"x\"]\n1. h2e2 h9g7 *\n\n".to_vec();
        bytes.extend(std::iter::repeat_n(b'a', encoding::MAX_LINE_CHARS + 1));
        let mut games = 0;
        let e = stream_games(&bytes[..], None, |g| {
            assert!(g.is_ok());
            games += 1;
            ControlFlow::Continue(())
        })
        .err()
        .expect("refused");
        assert!(e.to_string().contains("longer than"), "{e}");
        assert_eq!(games, 1, "the game before the line was read");
    }
}
