//! The scale of the UCCI options `knowledge` and `pruning` (ucci.md §5.2): how much the
//! evaluation knows ([`super::weights_for`]) and, on the same scale, how selective the search
//! is (`search::levels`). It lives with the evaluation, the lower of the two layers that
//! read it.

/// A UCCI `none` / `small` / `medium` / `large` setting. Ordered: more is larger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    None,
    Small,
    Medium,
    Large,
}

impl Default for Level {
    fn default() -> Level {
        Level::DEFAULT
    }
}

impl Level {
    /// The default of `pruning` and `knowledge`, for the engine and the options table alike:
    /// the engine as measured.
    pub const DEFAULT: Level = Level::Large;

    /// Parses a UCCI combo value (case-insensitive).
    pub fn parse(s: &str) -> Option<Level> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" => Some(Level::None),
            "small" => Some(Level::Small),
            "medium" => Some(Level::Medium),
            "large" => Some(Level::Large),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Level::None => "none",
            Level::Small => "small",
            Level::Medium => "medium",
            Level::Large => "large",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_order() {
        for l in [Level::None, Level::Small, Level::Medium, Level::Large] {
            assert_eq!(Level::parse(l.name()), Some(l));
        }
        assert_eq!(Level::parse(" LARGE "), Some(Level::Large));
        assert_eq!(Level::parse("huge"), None);
        assert!(Level::None < Level::Small && Level::Medium < Level::Large);
        assert_eq!(Level::default(), Level::Large);
    }
}
