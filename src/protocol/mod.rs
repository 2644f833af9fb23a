//! The UCCI and UCI protocols: from GUI text to typed commands, and back to GUI text; and
//! CECP (XBoard), whose conversation differs enough to have a session of its own ([`xboard`]).
//!
//! Modules: [`command`] parses one line; [`session`] is the state machine (boot → idle →
//! thinking, the queue of commands that arrive while thinking, ending); [`stdio`] is the
//! process edge (reader thread, main loop); [`options`] announces and reads options, and
//! [`configure`] applies them to the engine, for every protocol;
//! [`output`] words replies per dialect (0-/1-based UCI ranks through
//! [`crate::board::rank_origin`]); [`draw_resign`] decides `draw`/`resign`; [`evalfile`] reads the network file `evalfile` names;
//! [`xboard`] is the third dialect, CECP (XBoard/WinBoard), chosen by a first line `xboard`.
//!
//! # Shape
//!
//! ```text
//! stdin line ──parse_line(line, dialect)──▶ ParseOutcome { Result<Command, ParseError>, warnings }
//!                                              │
//!         engine loop (state machine, ucci.md §2) ◀──┘   errors/warnings → `info string …`
//!              │
//!              └─ Command::Go(p) ─ p.limits(dialect, usemillisec, red_to_move)
//!                                   + overhead, ply ─▶ search::time::Lateness::allocate ─▶ TimeBudget
//! ```
//!
//! The parser ([`command`]) knows nothing about the board or the search: FENs and moves stay strings, so the parser can be
//! finished and fuzzed before the board exists, and a bad FEN or move is reported by the layer
//! that understands it (ucci.md §4.4, transcripts 11–13).
//!
//! # Choices, with their sources
//!
//! * **One grammar for both dialects** (ucci.md §4.3, §4.6, §9.5): GUIs mix UCCI and UCI forms,
//!   so `setoption name X value Y`, `go movetime`, `go wtime …` are read in UCCI and
//!   `setoption hashsize 64`, `banmoves`, `go time …` in UCI. Only the reply format (not here)
//!   and the time unit ([`command::ucci_time_scale`], ucci.md §6) depend on the dialect.
//! * **Dialect from the first line** ([`boot_dialect`], ucci.md §9.5): `ucci` → UCCI; `uci`,
//!   `ucicyclone`, or a position line (`position`, bare `fen`/`startpos`, the UCI-Cyclone habit of
//!   §9.3) → UCI; `xboard` → CECP ([`xboard::is_hello`], checked by [`stdio`] before the
//!   UCCI/UCI session sees the line). Anything else leaves the engine in its boot state, still
//!   reading (transcripts 4).
//! * **`go` is an unordered key/value set** (§4.6, transcripts 18); bare `go` means infinite
//!   (transcripts 22); bad numbers are clamped, never fatal (§4.6, transcripts 21).
//! * **Lenient, never silent about it**: unknown commands and repaired arguments come back as
//!   messages for `info string`, and the engine keeps running (§4.11, gui.md §12 item 7).

pub mod command;
pub mod configure;
pub mod draw_resign;
pub mod evalfile;
pub mod options;
pub mod output;
pub mod session;
pub mod stdio;
#[cfg(any(test, feature = "test-doubles"))]
pub mod vocabulary;
pub mod xboard;

pub use command::{
    canonical_option_name, parse_check_value, parse_line, ucci_time_scale, Command, Dialect,
    GoParams, ParseError, ParseOutcome, PositionSpec,
};

/// The dialect a session's first recognised command selects (ucci.md §9.5), or `None` if the
/// command does not choose one (stay in the boot state and keep reading).
///
/// A position command as the first line means an implicit UCI-Cyclone session: the engine
/// should switch to UCI *and* still execute the position (transcripts 40).
pub fn boot_dialect(command: &Command) -> Option<Dialect> {
    match command {
        Command::Ucci => Some(Dialect::Ucci),
        Command::Uci | Command::UciCyclone | Command::Position { .. } => Some(Dialect::Uci),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(line: &str) -> Option<Dialect> {
        parse_line(line, Dialect::Ucci)
            .command()
            .and_then(boot_dialect)
    }

    #[test]
    fn dialect_from_first_line() {
        assert_eq!(first("ucci"), Some(Dialect::Ucci));
        assert_eq!(first("uci"), Some(Dialect::Uci));
        assert_eq!(first("ucicyclone"), Some(Dialect::Uci));
        assert_eq!(first("startpos moves h2e2"), Some(Dialect::Uci));
        assert_eq!(first("fen 4k4/9/9/9/9/9/9/9/9/4K4 w"), Some(Dialect::Uci));
        assert_eq!(first("position startpos"), Some(Dialect::Uci));
        assert_eq!(first("isready"), None);
        assert_eq!(first("go depth 3"), None);
        assert_eq!(first("xboard"), None);
        assert_eq!(first("help"), None);
        assert_eq!(first(""), None);
    }
}
