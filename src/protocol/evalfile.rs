//! Loading the network named by the `evalfile` / `EvalFile` option (and the tools'
//! `--evalfile`).
//!
//! The front end reads the file and hands the engine a parsed [`Network`]: the engine and the
//! layers below it do no file-system work. Whatever the path names (missing, a directory, a huge or endless
//! file, another format), the answer is a message naming the file and the reason, never a
//! panic.

use crate::eval::nnue::network::MAX_FILE_LEN;
use crate::eval::nnue::{Network, NetworkError, BUILT_IN_NAME};
use crate::input::{self, InputError};
use std::fmt;

/// What an `evalfile` value asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalFile<'a> {
    /// `<built-in>` (the option's default), empty or `<empty>`: the network compiled into the
    /// binary. A GUI that sends the announced default, or clears the field, gets it back.
    BuiltIn,
    /// `<none>` or `none`: no network at all; searches use the hand-written evaluation even
    /// with `usennue` on.
    None,
    Path(&'a str),
}

impl EvalFile<'_> {
    /// Reads an option value.
    pub fn parse(value: &str) -> EvalFile<'_> {
        let v = value.trim();
        let is = |names: &[&str]| names.iter().any(|n| v.eq_ignore_ascii_case(n));
        if v.is_empty() || is(&[BUILT_IN_NAME, "<builtin>", "<empty>"]) {
            EvalFile::BuiltIn
        } else if is(&["<none>", "none"]) {
            EvalFile::None
        } else {
            EvalFile::Path(v)
        }
    }
}

/// Why a network file was refused; its message starts with the path.
#[derive(Debug)]
pub enum EvalFileError {
    /// Opening or reading the file failed, or it is no regular file (see [`crate::input`]).
    Io { path: String, source: InputError },
    /// The file is longer than any network file (refused by its size, or read no further).
    TooLong { path: String, expected: usize },
    /// The bytes are not a valid network.
    Network { path: String, source: NetworkError },
}

impl fmt::Display for EvalFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalFileError::Io { path, source } => write!(f, "{path}: {source}"),
            EvalFileError::TooLong { path, expected } => {
                write!(
                    f,
                    "{path}: longer than the {expected} bytes of the largest network file"
                )
            }
            EvalFileError::Network { path, source } => write!(f, "{path}: {source}"),
        }
    }
}

/// The message already says the cause's: the source is the cause's own, so that a chain of
/// causes printed with `{:#}` names each once.
impl std::error::Error for EvalFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EvalFileError::Io { source, .. } => source.source(),
            EvalFileError::TooLong { .. } => None,
            EvalFileError::Network { source, .. } => source.source(),
        }
    }
}

/// Reads and checks a network file; the error says which file and why it was refused. The
/// limit is the largest network file's length, so a longer file is refused by its size, unread; a
/// FIFO or device is refused before it is opened (the engine must not block or read forever).
pub fn load(path: &str) -> Result<Network, EvalFileError> {
    let bytes = match input::read_file(std::path::Path::new(path), MAX_FILE_LEN as u64) {
        Ok(b) => b,
        Err(InputError::TooLarge { .. }) => {
            return Err(EvalFileError::TooLong {
                path: path.to_string(),
                expected: MAX_FILE_LEN,
            })
        }
        Err(source) => {
            return Err(EvalFileError::Io {
                path: path.to_string(),
                source,
            })
        }
    };
    match Network::from_bytes(&bytes) {
        Ok(net) => Ok(net),
        Err(source) => Err(EvalFileError::Network {
            path: path.to_string(),
            source,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::FloatNetwork;

    #[test]
    fn values_meaning_the_built_in_network_or_none() {
        for v in [
            "",
            "  ",
            "<empty>",
            "<built-in>",
            " <Built-In> ",
            "<builtin>",
        ] {
            assert_eq!(EvalFile::parse(v), EvalFile::BuiltIn, "{v:?}");
        }
        for v in ["<none>", "none", "NONE"] {
            assert_eq!(EvalFile::parse(v), EvalFile::None, "{v:?}");
        }
        assert_eq!(EvalFile::parse(" a.nnue "), EvalFile::Path("a.nnue"));
        assert_eq!(EvalFile::parse("built-in"), EvalFile::Path("built-in"));
    }

    #[test]
    fn good_and_bad_files() {
        let dir = std::env::temp_dir().join(format!("jj-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = FloatNetwork::random(5).quantize();
        let bytes = good.to_bytes();
        let write = |name: &str, b: &[u8]| {
            let p = dir.join(name);
            std::fs::write(&p, b).unwrap();
            p.to_string_lossy().into_owned()
        };
        let ok = write("good.nnue", &bytes);
        assert!(load(&ok).unwrap() == good);
        let mut long = bytes.clone();
        long.extend_from_slice(&[0; 100]);
        let mut corrupt = bytes.clone();
        corrupt[1000] ^= 1;
        let cases = [
            (write("short.nnue", &bytes[..1000]), "truncated"),
            (write("long.nnue", &long), "bytes appended?"),
            (
                write("huge.nnue", &vec![0; MAX_FILE_LEN + 1]),
                "longer than",
            ),
            (
                write(
                    "magic.nnue",
                    b"NOPE and more bytes than a header needs, surely",
                ),
                "not a Jiangjun network",
            ),
            (write("corrupt.nnue", &corrupt), "checksum"),
            (
                dir.join("missing.nnue").to_string_lossy().into_owned(),
                "missing.nnue",
            ),
            (
                dir.to_string_lossy().into_owned(),
                "not a regular file (a directory)",
            ),
        ];
        for (path, why) in cases {
            let e = load(&path)
                .err()
                .unwrap_or_else(|| panic!("{path} loaded"))
                .to_string();
            assert!(e.starts_with(&path) && e.contains(why), "{e}");
        }
        // The chain of causes says the cause once.
        let missing = dir.join("missing.nnue").to_string_lossy().into_owned();
        let chain = format!("{:#}", anyhow::Error::new(load(&missing).err().unwrap()));
        assert_eq!(chain.matches("(os error 2)").count(), 1, "{chain}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
