//! Reading game files: a PGN (any notation, any of the encodings) or an XQF file, or a folder
//! of them, each game read or refused on its own.

use super::encoding::{self, TextEncoding};
use super::pgn::{self, Game, PgnError};
use super::xqf::{self, XqfError};

/// The games of a file, each read or refused, and the warnings of reading it.
pub struct Records {
    pub games: Vec<Result<Game, GameError>>,
    pub warnings: Vec<String>,
}

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

/// Reads a game file as `jiangjun pgn check` does: XQF by its signature, else PGN in any of
/// the encodings (detected). Only a file that cannot be read at all is an error; a bad game
/// is its own entry of [`Records::games`].
pub fn read_games(path: &std::path::Path) -> std::io::Result<Records> {
    let bytes = crate::input::read_file(path, crate::input::MAX_GAME_FILE_BYTES)?;
    Ok(parse_bytes(&bytes, None).0)
}

/// The games of a file's bytes, and how its text was decoded (`None` for XQF).
pub fn parse_bytes(
    bytes: &[u8],
    forced: Option<TextEncoding>,
) -> (Records, Option<encoding::Decoded>) {
    if xqf::is_xqf(bytes) {
        let records = Records {
            games: vec![xqf::read_xqf(bytes).map_err(GameError::Xqf)],
            warnings: Vec::new(),
        };
        return (records, None);
    }
    let decoded = encoding::decode(bytes, forced);
    let file = pgn::read_pgn(&decoded.text);
    let records = Records {
        games: file
            .games
            .into_iter()
            .map(|g| g.map_err(GameError::Pgn))
            .collect(),
        warnings: file.warnings,
    };
    (records, Some(decoded))
}

/// The game files under `paths`, in the order given: a file as named (whatever its name), a
/// folder's `.pgn` and `.xqf` files (any case) recursively, sorted so that what is built from
/// them does not depend on the order a file system lists them in; each file once. Paths that
/// cannot be listed or do not exist come back as messages, for the caller to report.
pub fn game_files(paths: &[std::path::PathBuf]) -> (Vec<std::path::PathBuf>, Vec<String>) {
    use std::path::{Path, PathBuf};
    fn walk(dir: &Path, files: &mut Vec<PathBuf>, bad: &mut Vec<String>) {
        let entries = match std::fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => return bad.push(format!("cannot list {}: {e}", dir.display())),
        };
        for entry in entries {
            let path = match entry {
                Ok(e) => e.path(),
                Err(e) => {
                    bad.push(format!("cannot list {}: {e}", dir.display()));
                    continue;
                }
            };
            if path.is_dir() {
                walk(&path, files, bad);
            } else if path
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("pgn") || x.eq_ignore_ascii_case("xqf"))
            {
                files.push(path);
            }
        }
    }
    let (mut files, mut bad) = (Vec::new(), Vec::new());
    let mut seen = std::collections::HashSet::new();
    for p in paths {
        let mut found = Vec::new();
        if p.is_dir() {
            walk(p, &mut found, &mut bad);
            found.sort();
        } else if p.is_file() {
            found.push(p.clone());
        } else if p.exists() {
            // A FIFO or a device: named on purpose perhaps, but never read (crate::input).
            bad.push(format!("{}: not a regular file or folder", p.display()));
        } else {
            bad.push(format!("{}: no such file or folder", p.display()));
        }
        files.extend(found.into_iter().filter(|f| seen.insert(f.clone())));
    }
    (files, bad)
}
