//! What every protocol target checks of the engine's output (a module of those targets, not a
//! target of its own): each printed line is one clean line, as GUIs parse them — not empty, no
//! blank at its end, no control character (a CR included).

/// Panics, naming the line, if `printed` holds a line that is not clean.
pub fn assert_clean_lines(printed: &[u8]) {
    let printed = String::from_utf8_lossy(printed);
    for l in printed.split_terminator('\n') {
        assert!(!l.is_empty(), "empty line");
        assert!(
            !l.ends_with(' ') && !l.ends_with('\t'),
            "trailing blank: {l:?}"
        );
        assert!(!l.chars().any(char::is_control), "control character: {l:?}");
    }
}
