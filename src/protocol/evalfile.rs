//! Loading the network named by the `evalfile` / `EvalFile` option (and `bench --evalfile`).
//!
//! The front end reads the file and hands the engine a parsed [`Network`]: the search layer
//! does no file-system work. Whatever the path names (missing, a directory, a huge or endless
//! file, another format), the answer is a message naming the file and the reason, never a
//! panic.

use crate::search::nnue::network::FILE_LEN;
use crate::search::nnue::{Network, NetworkError};
use std::io::Read;

/// What an `evalfile` value asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalFile<'a> {
    /// Empty, `<empty>`, `<none>` or `none`: no network, the hand-written evaluation.
    None,
    Path(&'a str),
}

impl EvalFile<'_> {
    /// Reads an option value.
    pub fn parse(value: &str) -> EvalFile<'_> {
        let v = value.trim();
        if v.is_empty()
            || ["<empty>", "<none>", "none"]
                .iter()
                .any(|n| v.eq_ignore_ascii_case(n))
        {
            EvalFile::None
        } else {
            EvalFile::Path(v)
        }
    }
}

/// Reads and checks a network file; the error says which file and why it was refused.
pub fn load(path: &str) -> Result<Network, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut bytes = Vec::new();
    // One byte more than a network has is enough to refuse a longer file without reading it
    // all (`/dev/zero` must not hang the engine).
    file.take(FILE_LEN as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{path}: {e}"))?;
    match Network::from_bytes(&bytes) {
        Ok(net) => Ok(net),
        Err(NetworkError::Size { expected, .. }) if bytes.len() > FILE_LEN => Err(format!(
            "{path}: longer than the {expected} bytes of a network file"
        )),
        Err(e) => Err(format!("{path}: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::nnue::FloatNetwork;

    #[test]
    fn values_meaning_no_network() {
        for v in ["", "  ", "<empty>", "<none>", "none", "NONE"] {
            assert_eq!(EvalFile::parse(v), EvalFile::None, "{v:?}");
        }
        assert_eq!(EvalFile::parse(" a.nnue "), EvalFile::Path("a.nnue"));
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
            (write("long.nnue", &long), "longer than"),
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
            (dir.to_string_lossy().into_owned(), "jj-evalfile"),
        ];
        for (path, why) in cases {
            let e = load(&path).err().unwrap_or_else(|| panic!("{path} loaded"));
            assert!(e.starts_with(&path) && e.contains(why), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
