//! How long a tool searches each position: one concept for every offline tool (datagen labels
//! at a node count or depth, analysis at a depth or a time per move), each CLI accepting the
//! forms that make sense for it.

use crate::search::limits::Limits;
use std::fmt;

/// The search budget per position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Budget {
    /// A node count: the same result every run (one thread), whatever the machine's speed.
    Nodes(u64),
    /// A fixed depth: the same result every run (one thread).
    Depth(i32),
    /// Milliseconds per position.
    MoveTime(u64),
}

impl Budget {
    /// The search limits of this budget. A time budget keeps no overhead back: nobody waits
    /// on a clock.
    pub fn limits(self) -> Limits {
        match self {
            Budget::Nodes(n) => Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            Budget::Depth(d) => Limits {
                depth: Some(d),
                ..Limits::default()
            },
            Budget::MoveTime(ms) => Limits {
                soft_ms: Some(ms),
                hard_ms: Some(ms.max(1)),
                ..Limits::default()
            },
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Nodes(n) => write!(f, "{n} nodes"),
            Budget::Depth(d) => write!(f, "depth {d}"),
            Budget::MoveTime(ms) => write!(f, "movetime {ms} ms"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_budget_sets_only_its_own_limit() {
        let n = Budget::Nodes(300).limits();
        assert_eq!((n.nodes, n.depth, n.hard_ms), (Some(300), None, None));
        let d = Budget::Depth(7).limits();
        assert_eq!((d.nodes, d.depth, d.hard_ms), (None, Some(7), None));
        let t = Budget::MoveTime(0).limits();
        assert_eq!(
            (t.nodes, t.depth, t.soft_ms, t.hard_ms),
            (None, None, Some(0), Some(1))
        );
        assert_eq!(Budget::MoveTime(500).to_string(), "movetime 500 ms");
        assert_eq!(Budget::Nodes(250).to_string(), "250 nodes");
    }
}
