//! `jiangjun --version` / `-V`: what a bug report needs to name the exact engine — the
//! package version, the git commit it was built from, and the network and book compiled in
//! (they change the engine's play without changing its version).

use crate::eval::nnue::{self, DEFAULT_ON};

/// The commit `build.rs` recorded (`unknown` when the build had no git checkout).
pub const GIT_COMMIT: &str = env!("JIANGJUN_GIT_COMMIT");

/// The version text, one fact a line.
pub fn text() -> String {
    let net = nnue::embedded::bytes();
    // A network file ends with the checksum of everything before it.
    let stored = net
        .len()
        .checked_sub(8)
        .and_then(|at| net[at..].try_into().ok())
        .map_or(0, u64::from_le_bytes);
    let use_net = if DEFAULT_ON {
        "used by default"
    } else {
        "off by default (usennue)"
    };
    let book = match crate::book::built_in() {
        Ok(b) => format!("{} positions, {} moves", b.positions(), b.len()),
        // Only a broken embedded file gets here (the book's tests guard it).
        Err(e) => format!("unreadable: {e}"),
    };
    format!(
        "jiangjun {}\ncommit {GIT_COMMIT}\nnetwork built-in default.jjnn ({} bytes, checksum {stored:016x}), {use_net}\nbook built-in masters.jjb ({book})",
        env!("CARGO_PKG_VERSION"),
        net.len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_version_commit_network_and_book() {
        let t = text();
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 4, "{t}");
        assert_eq!(lines[0], format!("jiangjun {}", env!("CARGO_PKG_VERSION")));
        let commit = lines[1].strip_prefix("commit ").unwrap();
        assert!(
            commit == "unknown" || commit.chars().all(|c| c.is_ascii_hexdigit()),
            "{t}"
        );
        assert!(
            lines[2].starts_with("network built-in default.jjnn ("),
            "{t}"
        );
        assert!(lines[3].starts_with("book built-in masters.jjb ("), "{t}");
        assert!(!lines[3].contains("unreadable"), "{t}");
    }
}
