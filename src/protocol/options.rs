//! Engine options: what we announce, and what each `setoption` does.
//!
//! **Only options that act are announced** (ucci.md §5.2 lists what a full engine could
//! announce; announcing a setting that does nothing misleads users). Everything a GUI may send
//! is still accepted (ucci.md §4.3: setting an unannounced option is not an error):
//!
//! * options that act: `usemillisec`, `batch`, `debug`, `ponder`, `usebook`, `bookfiles`,
//!   `randomness`, `hashsize` (0 = auto), `threads` (0 = auto), `moveoverhead`, `allowdraw`,
//!   `allowresign`, `repetition`, `pruning`, `knowledge`, `style` (see
//!   [`crate::search::levels`]), `limitstrength`, `elo` (see [`crate::search::strength`]),
//!   `evalfile`, `usennue`, `newgame`; in UCI `UCI_Variant`
//!   (xiangqi only), `Hash`, `Threads`, `Ponder`, `OwnBook`, `BookFile`, `EvalFile`,
//!   `UCI_LimitStrength`, `UCI_Elo`,
//!   `Use NNUE`, `Move Overhead`, `Rank Origin`, `Repetition`, `Clear Hash`, `Randomness`,
//!   `Pruning`, `Knowledge`, `Style`; `AllowDraw`/`AllowResign` are accepted in UCI but not
//!   announced there, because UCI's `bestmove` has no draw or resign to carry;
//! * options we do not implement yet (`promotion`, `idle`, `useegtb`, …) are accepted without
//!   effect. When the value asks for something we do not do, an `info string` says it has no
//!   effect yet; when the value describes what we already do (`useegtb false`, `idle none`),
//!   nothing is printed, so XQWizard's start-up (gui.md §1.1) stays quiet where it can;
//! * unknown names get an `info string` and are ignored.
//!
//! Names are matched case-insensitively and without spaces, `_` or `-`, so `Move Overhead`,
//! `move_overhead` and `moveoverhead` are one option; `Hash`/`Threads` are the UCCI
//! `hashsize`/`threads` (TCHESS sends them in UCCI mode).
//!
//! `repetition` (`cxa2011` | `axf`) chooses the rules the search (and the book filter) apply to
//! repeated positions.
//!
//! `evalfile` names a network file (see [`super::evalfile`]; `<built-in>`, the default, or
//! empty: the network compiled into the binary; `<none>` or `none`: no network) and `usennue`
//! chooses it over the hand-written evaluation. `usennue`'s default is
//! [`crate::search::nnue::DEFAULT_ON`], the one switch that makes the network the engine's
//! evaluation; `knowledge` levels below `large` always use the hand-written evaluation.

use super::command::{parse_check_value, Dialect};
use crate::board::RankOrigin;
use crate::book::Randomness;
use crate::rules::RuleSet;
use crate::search::engine::{DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS};
use crate::search::levels::{Level, Style};
use crate::search::nnue::{BUILT_IN_NAME, DEFAULT_ON};
use crate::search::parameters::Parameters;
use crate::search::strength::{Strength, MAX_ELO, MIN_ELO};
use crate::search::time::DEFAULT_MOVE_OVERHEAD_MS;

/// Most lines a user may ask for with `multipv`; a position with fewer legal moves gets one
/// line per move.
pub const MAX_MULTIPV: usize = 128;

/// Largest move overhead a user may set, in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// The session's settings (the engine keeps hash and threads itself).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// UCCI clock values are milliseconds (announced `default true`, ucci.md §6).
    pub usemillisec: bool,
    /// Do not read commands while thinking: queue them all (ucci.md §2 note 4).
    pub batch: bool,
    /// Print extra `info string` lines (budgets, positions, option changes).
    pub debug: bool,
    /// The GUI ponders: allocate time expecting ponder hits.
    pub ponder: bool,
    /// May offer and accept draws (UCCI `bestmove … draw`).
    pub allow_draw: bool,
    /// May resign (UCCI `bestmove … resign`).
    pub allow_resign: bool,
    /// Time lost per move outside the search.
    pub move_overhead_ms: u64,
    /// Repetition rules (also handed to the engine).
    pub repetition: RuleSet,
    /// Rank numbering of moves in UCI mode.
    pub rank_origin: RankOrigin,
    /// UCCI `pruning`, `knowledge`, `style` (also handed to the engine).
    pub pruning: Level,
    pub knowledge: Level,
    pub style: Style,
    /// UCCI `multipv` / UCI `MultiPV`: lines ranked and reported per iteration (1..=MAX_MULTIPV).
    pub multipv: usize,
    /// UCCI `showwdl` / UCI `UCI_ShowWDL`: add win/draw/loss chances to `info` lines.
    pub show_wdl: bool,
    /// UCCI `usennue`: evaluate with the network (built in, or `evalfile`'s; also handed to
    /// the engine). Default [`DEFAULT_ON`].
    pub use_nnue: bool,
    /// The search parameters: the defaults, unless a tuning run set hidden `tune_<name>`
    /// options (they are not announced: they exist for `scripts/spsa.py`).
    pub params: Parameters,
    /// UCI `UCI_LimitStrength` / UCCI `limitstrength`: play at `elo` instead of full strength.
    pub limit_strength: bool,
    /// UCI `UCI_Elo` / UCCI `elo`: the strength asked for (see [`crate::search::strength`]).
    pub elo: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            usemillisec: true,
            batch: false,
            debug: false,
            ponder: false,
            allow_draw: true,
            allow_resign: true,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            repetition: RuleSet::Cxa2011,
            rank_origin: RankOrigin::Zero,
            pruning: Level::Large,
            knowledge: Level::Large,
            style: Style::Normal,
            multipv: 1,
            show_wdl: false,
            use_nnue: DEFAULT_ON,
            params: Parameters::DEFAULT,
            limit_strength: false,
            elo: MIN_ELO,
        }
    }
}

/// What the session must do with the engine after a `setoption`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    HashMb(usize),
    Threads(usize),
    NewGame,
    UseBook(bool),
    /// Load this book file (empty: no book).
    BookFile(String),
    Randomness(Randomness),
    /// Repetition rules for the search and the book filter.
    Rules(RuleSet),
    Pruning(Level),
    Knowledge(Level),
    Style(Style),
    /// Load this network file, or go back to the built-in network (an `evalfile` value, see
    /// [`super::evalfile::EvalFile`]).
    EvalFile(String),
    /// Evaluate with the network (`true`) or the hand-written evaluation.
    UseNnue(bool),
    /// New search parameters (a hidden `tune_<name>` option).
    Parameters(Parameters),
    /// Play at this strength (`None`: full strength).
    Strength(Option<Strength>),
}

impl Settings {
    /// The strength `limit_strength` and `elo` ask for.
    pub fn strength(&self) -> Option<Strength> {
        self.limit_strength.then(|| Strength::from_elo(self.elo))
    }
}

/// The result of one `setoption`: an engine action and `info string` texts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub effect: Effect,
    pub messages: Vec<String>,
}

/// The `option` lines of the handshake, `usemillisec` first (XQWizard and the league emulator
/// switch to milliseconds only on a line starting `option usemillisec `, ucci.md §5.2).
pub fn announce(dialect: Dialect) -> Vec<String> {
    let threads_max = MAX_THREADS;
    let hash_max = MAX_HASH_MB;
    let hash = DEFAULT_HASH_MB;
    let overhead = DEFAULT_MOVE_OVERHEAD_MS;
    let overhead_max = MAX_MOVE_OVERHEAD_MS;
    let lines = match dialect {
        Dialect::Ucci => vec![
            "option usemillisec type check default true".to_string(),
            "option batch type check default false".to_string(),
            "option debug type check default false".to_string(),
            "option ponder type check default false".to_string(),
            "option usebook type check default true".to_string(),
            "option bookfiles type string default <empty>".to_string(),
            "option randomness type combo var none var tiny var small var medium var large var huge default none".to_string(),
            format!("option hashsize type spin min 0 max {hash_max} default {hash}"),
            format!("option threads type spin min 0 max {threads_max} default 1"),
            format!("option moveoverhead type spin min 0 max {overhead_max} default {overhead}"),
            "option allowdraw type check default true".to_string(),
            "option allowresign type check default true".to_string(),
            "option repetition type combo var cxa2011 var axf default cxa2011".to_string(),
            "option pruning type combo var none var small var medium var large default large"
                .to_string(),
            "option knowledge type combo var none var small var medium var large default large"
                .to_string(),
            "option style type combo var solid var normal var risky default normal".to_string(),
            format!("option multipv type spin min 1 max {MAX_MULTIPV} default 1"),
            "option limitstrength type check default false".to_string(),
            format!("option elo type spin min {MIN_ELO} max {MAX_ELO} default {MIN_ELO}"),
            "option showwdl type check default false".to_string(),
            format!("option evalfile type string default {BUILT_IN_NAME}"),
            format!("option usennue type check default {DEFAULT_ON}"),
            "option newgame type button".to_string(),
        ],
        Dialect::Uci => vec![
            "option name UCI_Variant type combo default xiangqi var xiangqi".to_string(),
            format!("option name Hash type spin default {hash} min 1 max {hash_max}"),
            format!("option name Threads type spin default 1 min 1 max {threads_max}"),
            "option name Ponder type check default false".to_string(),
            "option name OwnBook type check default true".to_string(),
            "option name BookFile type string default <empty>".to_string(),
            format!(
                "option name Move Overhead type spin default {overhead} min 0 max {overhead_max}"
            ),
            format!("option name EvalFile type string default {BUILT_IN_NAME}"),
            format!("option name Use NNUE type check default {DEFAULT_ON}"),
            "option name Rank Origin type combo default 0 var 0 var 1".to_string(),
            "option name Repetition type combo default cxa2011 var cxa2011 var axf".to_string(),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "option name UCI_ShowWDL type check default false".to_string(),
            "option name UCI_LimitStrength type check default false".to_string(),
            format!("option name UCI_Elo type spin default {MIN_ELO} min {MIN_ELO} max {MAX_ELO}"),
            "option name Randomness type combo default none var none var tiny var small var medium var large var huge".to_string(),
            "option name Pruning type combo default large var none var small var medium var large"
                .to_string(),
            "option name Knowledge type combo default large var none var small var medium var large"
                .to_string(),
            "option name Style type combo default normal var solid var normal var risky".to_string(),
            "option name Clear Hash type button".to_string(),
        ],
    };
    lines
}

/// The smallest value `dialect` announces for the spin option `key`, where that is above 0:
/// UCI's `Hash` and `Threads` start at 1 (UCCI's `hashsize`/`threads` take 0 for "automatic"),
/// `multipv` is a number of lines in both, and `elo` starts at the weakest level's.
fn announced_minimum(dialect: Dialect, key: &str) -> u64 {
    match (dialect, key) {
        (_, "multipv") | (Dialect::Uci, "hash" | "hashsize" | "threads") => 1,
        (_, "elo" | "ucielo") => u64::from(MIN_ELO),
        _ => 0,
    }
}

/// [`apply`] as `dialect` announces the option: a number below the announced minimum is
/// raised to it, with a message, instead of taking a meaning the GUI was never told about.
pub fn apply_in(
    settings: &mut Settings,
    dialect: Dialect,
    name: &str,
    value: Option<&str>,
) -> Applied {
    let min = announced_minimum(dialect, &key(name));
    let number = value
        .map(str::trim)
        .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
    match number {
        // All digits: only overflow fails to parse, and that is not below anything.
        Some(v) if v.parse::<u64>().is_ok_and(|n| n < min) => {
            let mut applied = apply(settings, name, Some(&min.to_string()));
            let shown = excerpt(name);
            applied.messages.insert(
                0,
                format!("setoption {shown}: {v} is below the minimum {min}; using {min}"),
            );
            applied
        }
        _ => apply(settings, name, value),
    }
}

/// Lower case without spaces, `_` and `-`: the key names are compared by.
fn key(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, ' ' | '_' | '-'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// When a not-yet-implemented option's value matches what the engine already does.
enum Neutral {
    /// A check option whose neutral value is this.
    Check(bool),
    /// A combo/spin whose neutral values are these (case-insensitive).
    Values(&'static [&'static str]),
    /// A string option: neutral when empty.
    Empty,
    /// Always reported (buttons and retired options).
    Never,
}

/// Options accepted without effect: key, neutral value, and why nothing happens.
const NO_EFFECT: &[(&str, Neutral, &str)] = &[
    (
        "loadbook",
        Neutral::Never,
        "books are loaded with bookfiles",
    ),
    (
        "useegtb",
        Neutral::Check(false),
        "there are no endgame tables",
    ),
    ("egtbpaths", Neutral::Empty, "there are no endgame tables"),
    (
        "usehash",
        Neutral::Check(true),
        "the hash table is always used",
    ),
    (
        "promotion",
        Neutral::Check(false),
        "the promotion house rule is not supported",
    ),
    (
        "idle",
        Neutral::Values(&["none"]),
        "the search always uses its threads fully",
    ),
    (
        "drawmoves",
        Neutral::Never,
        "the natural move limit follows the rules",
    ),
    ("evalapi", Neutral::Empty, "the evaluation is built in"),
];

/// Options taken silently: they inform but change nothing (GUI identification, analysis flags).
const QUIET: &[&str] = &["guiname", "ucianalysemode", "uciopponent", "uciengineabout"];

/// Applies `setoption <name> [<value>]` to `settings`.
pub fn apply(settings: &mut Settings, name: &str, value: Option<&str>) -> Applied {
    let mut messages = Vec::new();
    let k = key(name);
    let shown = excerpt(name);
    let value_trimmed = value.map(str::trim);
    let effect = match k.as_str() {
        "usemillisec" => set_check(&mut settings.usemillisec, &shown, value, &mut messages),
        "batch" => set_check(&mut settings.batch, &shown, value, &mut messages),
        "debug" => set_check(&mut settings.debug, &shown, value, &mut messages),
        "ponder" => set_check(&mut settings.ponder, &shown, value, &mut messages),
        "allowdraw" => set_check(&mut settings.allow_draw, &shown, value, &mut messages),
        "allowresign" => set_check(&mut settings.allow_resign, &shown, value, &mut messages),
        "hashsize" | "hash" => match spin(&shown, value, MAX_HASH_MB as u64, &mut messages) {
            Some(mb) => Effect::HashMb(usize::try_from(mb).unwrap_or(MAX_HASH_MB)),
            None => Effect::None,
        },
        "threads" => match spin(&shown, value, MAX_THREADS as u64, &mut messages) {
            Some(n) => Effect::Threads(usize::try_from(n).unwrap_or(MAX_THREADS)),
            None => Effect::None,
        },
        "ucishowwdl" | "showwdl" => set_check(&mut settings.show_wdl, &shown, value, &mut messages),
        "multipv" => {
            if let Some(n) = spin(&shown, value, MAX_MULTIPV as u64, &mut messages) {
                // 0 is not a number of lines; it means the one line of a normal search.
                settings.multipv = usize::try_from(n).unwrap_or(MAX_MULTIPV).max(1);
            }
            Effect::None
        }
        "ucilimitstrength" | "limitstrength" => {
            set_check(&mut settings.limit_strength, &shown, value, &mut messages);
            Effect::Strength(settings.strength())
        }
        "ucielo" | "elo" => {
            // Below the minimum: raised by `apply_in`, as every announced minimum is.
            if let Some(elo) = spin(&shown, value, u64::from(MAX_ELO), &mut messages) {
                settings.elo = u32::try_from(elo).unwrap_or(MAX_ELO);
            }
            Effect::Strength(settings.strength())
        }
        "moveoverhead" => {
            if let Some(ms) = spin(&shown, value, MAX_MOVE_OVERHEAD_MS, &mut messages) {
                settings.move_overhead_ms = ms;
            }
            Effect::None
        }
        "newgame" | "clearhash" => Effect::NewGame,
        "usebook" | "ownbook" => {
            let mut on = true;
            set_check(&mut on, &shown, value, &mut messages);
            match value.and_then(parse_check_value) {
                Some(b) => Effect::UseBook(b),
                None => Effect::None,
            }
        }
        "bookfiles" | "bookfile" => {
            // UCCI allows a ';'-separated list; the first file is used.
            let first = value.unwrap_or("").split(';').next().unwrap_or("").trim();
            let first = if first == "<empty>" { "" } else { first };
            Effect::BookFile(first.to_string())
        }
        "evalfile" => Effect::EvalFile(value.unwrap_or("").trim().to_string()),
        "usennue" => {
            set_check(&mut settings.use_nnue, &shown, value, &mut messages);
            Effect::UseNnue(settings.use_nnue)
        }
        "randomness" | "selectivity" => match value_trimmed.and_then(Randomness::parse) {
            Some(r) => Effect::Randomness(r),
            None => {
                messages.push(format!(
                    "setoption {shown}: expected none, tiny, small, medium, large or huge"
                ));
                Effect::None
            }
        },
        "repetition" | "repetitionrules" => {
            match value_trimmed.map(str::parse::<RuleSet>) {
                Some(Ok(rules)) => settings.repetition = rules,
                _ => messages.push(format!(
                    "setoption {shown}: expected cxa2011 or axf; stays {}",
                    settings.repetition
                )),
            }
            Effect::Rules(settings.repetition)
        }
        "pruning" => {
            set_level(&mut settings.pruning, &shown, value_trimmed, &mut messages);
            Effect::Pruning(settings.pruning)
        }
        "knowledge" => {
            set_level(
                &mut settings.knowledge,
                &shown,
                value_trimmed,
                &mut messages,
            );
            Effect::Knowledge(settings.knowledge)
        }
        "style" => {
            match value_trimmed.and_then(Style::parse) {
                Some(style) => settings.style = style,
                None => messages.push(format!(
                    "setoption {shown}: expected solid, normal or risky; stays {}",
                    settings.style.name()
                )),
            }
            Effect::Style(settings.style)
        }
        "rankorigin" => {
            match value_trimmed {
                Some("0") => settings.rank_origin = RankOrigin::Zero,
                Some("1") => settings.rank_origin = RankOrigin::One,
                _ => messages.push(format!("setoption {shown}: expected 0 or 1")),
            }
            Effect::None
        }
        "ucivariant" => {
            if !value_trimmed.is_some_and(|v| v.eq_ignore_ascii_case("xiangqi")) {
                messages.push(format!(
                    "setoption {shown}: only xiangqi is played; '{}' ignored",
                    excerpt(value.unwrap_or(""))
                ));
            }
            Effect::None
        }
        tune if tune.starts_with("tune") && tune.len() > 4 => {
            let spec = Parameters::SPECS.iter().find(|s| key(s.name) == tune[4..]);
            match (spec, value_trimmed.map(str::parse::<i32>)) {
                (None, _) => {
                    messages.push(format!("setoption: unknown option '{shown}' ignored"));
                    Effect::None
                }
                (Some(spec), Some(Ok(v))) => match settings.params.set(spec.name, v) {
                    Ok(()) => Effect::Parameters(settings.params),
                    Err(e) => {
                        messages.push(format!("setoption {shown}: {e}"));
                        Effect::None
                    }
                },
                (Some(spec), _) => {
                    messages.push(format!(
                        "setoption {shown}: expected an integer from {} to {}",
                        spec.min, spec.max
                    ));
                    Effect::None
                }
            }
        }
        _ => {
            if let Some((_, neutral, why)) = NO_EFFECT.iter().find(|(n, _, _)| *n == k) {
                if !is_neutral(neutral, value_trimmed) {
                    let v = value_trimmed.map(excerpt).unwrap_or_default();
                    let v = if v.is_empty() { v } else { format!(" {v}") };
                    messages.push(format!("setoption {shown}{v}: no effect yet ({why})"));
                }
            } else if !QUIET.contains(&k.as_str()) {
                messages.push(format!("setoption: unknown option '{shown}' ignored"));
            }
            Effect::None
        }
    };
    if settings.debug && messages.is_empty() {
        let v = value.map(excerpt).unwrap_or_default();
        messages.push(format!("setoption {shown} {v}").trim_end().to_string());
    }
    Applied { effect, messages }
}

fn is_neutral(neutral: &Neutral, value: Option<&str>) -> bool {
    match neutral {
        Neutral::Check(b) => value.and_then(parse_check_value) == Some(*b),
        Neutral::Values(vs) => value.is_some_and(|v| vs.iter().any(|n| v.eq_ignore_ascii_case(n))),
        Neutral::Empty => value.is_none_or(|v| v.is_empty()),
        Neutral::Never => false,
    }
}

fn set_check(
    slot: &mut bool,
    name: &str,
    value: Option<&str>,
    messages: &mut Vec<String>,
) -> Effect {
    match value.and_then(parse_check_value) {
        Some(b) => *slot = b,
        None => messages.push(format!(
            "setoption {name}: '{}' is not true/false; stays {slot}",
            excerpt(value.unwrap_or(""))
        )),
    }
    Effect::None
}

/// A spin value clamped to `0..=max`; `None` (with a message) when it is not a number.
fn spin(name: &str, value: Option<&str>, max: u64, messages: &mut Vec<String>) -> Option<u64> {
    let text = value.unwrap_or("").trim();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        messages.push(format!(
            "setoption {name}: '{}' is not a whole number; unchanged",
            excerpt(text)
        ));
        return None;
    }
    // All digits: only overflow can fail, and that is "more than max".
    let v = text.parse::<u64>().unwrap_or(u64::MAX);
    if v > max {
        messages.push(format!(
            "setoption {name}: {} is above {max}; using {max}",
            excerpt(text)
        ));
    }
    Some(v.min(max))
}

/// Sets a `none`/`small`/`medium`/`large` option; a bad value keeps the old one and says so.
fn set_level(slot: &mut Level, shown: &str, value: Option<&str>, messages: &mut Vec<String>) {
    match value.and_then(Level::parse) {
        Some(level) => *slot = level,
        None => messages.push(format!(
            "setoption {shown}: expected none, small, medium or large; stays {}",
            slot.name()
        )),
    }
}

/// A short printable excerpt of GUI text for messages.
fn excerpt(s: &str) -> String {
    let mut out: String = s.chars().take(60).collect();
    if s.chars().nth(60).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(s: &mut Settings, name: &str, value: Option<&str>) -> Applied {
        apply(s, name, value)
    }

    #[test]
    fn strength_options_limit_and_clamp() {
        let mut s = Settings::default();
        // The Elo alone changes nothing until the limit is on (UCI's convention).
        let a = set(&mut s, "UCI_Elo", Some("1500"));
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        assert_eq!(a.effect, Effect::Strength(None));
        let a = set(&mut s, "UCI_LimitStrength", Some("true"));
        assert_eq!(a.effect, Effect::Strength(Some(Strength::from_elo(1500))));
        // UCCI spelling; out-of-range values are clamped with a message.
        let a = apply_in(&mut s, Dialect::Ucci, "elo", Some("1"));
        assert_eq!(a.messages.len(), 1, "{:?}", a.messages);
        assert_eq!(
            a.effect,
            Effect::Strength(Some(Strength::from_elo(MIN_ELO)))
        );
        let a = set(&mut s, "elo", Some("99999999999999999999999"));
        assert_eq!(a.messages.len(), 1, "{:?}", a.messages);
        assert_eq!(s.elo, MAX_ELO);
        let a = set(&mut s, "elo", Some("strong"));
        assert_eq!(a.messages.len(), 1);
        assert_eq!(s.elo, MAX_ELO);
        let a = set(&mut s, "limitstrength", Some("false"));
        assert_eq!(a.effect, Effect::Strength(None));
        for d in [Dialect::Ucci, Dialect::Uci] {
            let lines = announce(d).join("\n");
            assert!(
                lines.contains(&format!("min {MIN_ELO} max {MAX_ELO}")),
                "{lines}"
            );
        }
    }

    #[test]
    fn hidden_tuning_options_set_search_parameters_within_range() {
        let mut s = Settings::default();
        let a = set(&mut s, "tune_rfp_margin", Some("120"));
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        assert_eq!(s.params.rfp_margin, 120);
        assert_eq!(a.effect, Effect::Parameters(s.params));
        // UCI spelling and case do not matter, as for every option.
        set(&mut s, "Tune RFP Margin", Some("130"));
        assert_eq!(s.params.rfp_margin, 130);
        for (name, value) in [
            ("tune_rfp_margin", Some("100000")),
            ("tune_rfp_margin", Some("x")),
            ("tune_rfp_margin", None),
            ("tune_nonsense", Some("1")),
        ] {
            let a = set(&mut s, name, value);
            assert_eq!(a.effect, Effect::None, "{name}");
            assert_eq!(a.messages.len(), 1, "{name}: {:?}", a.messages);
        }
        assert_eq!(s.params.rfp_margin, 130);
        // Not announced: the options are for tuning runs.
        for d in [Dialect::Ucci, Dialect::Uci] {
            assert!(announce(d)
                .iter()
                .all(|l| !l.to_lowercase().contains("tune")));
        }
    }

    #[test]
    fn xqwizard_startup_is_quiet_where_we_already_comply() {
        let mut s = Settings::default();
        for (n, v) in [
            ("guiname", Some("XQWizard")),
            ("usemillisec", Some("true")),
            ("promotion", Some("false")),
            ("useegtb", Some("false")),
            ("hashsize", Some("0")),
            ("threads", Some("0")),
            ("idle", Some("none")),
            ("randomness", Some("none")),
            ("style", Some("normal")),
            ("pruning", Some("large")),
        ] {
            let a = set(&mut s, n, v);
            assert!(a.messages.is_empty(), "{n}: {:?}", a.messages);
        }
        assert_eq!(set(&mut s, "hashsize", Some("0")).effect, Effect::HashMb(0));
        let a = set(&mut s, "usebook", Some("true"));
        assert_eq!(a.effect, Effect::UseBook(true));
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        let a = set(
            &mut s,
            "bookfiles",
            Some("C:\\Program Files\\XQ\\book one.dat;D:\\b2.dat"),
        );
        assert_eq!(
            a.effect,
            Effect::BookFile("C:\\Program Files\\XQ\\book one.dat".into())
        );
        assert_eq!(
            set(&mut s, "randomness", Some("medium")).effect,
            Effect::Randomness(Randomness::Medium)
        );
        assert_eq!(set(&mut s, "randomness", Some("lots")).messages.len(), 1);
    }

    #[test]
    fn acting_options() {
        let mut s = Settings::default();
        set(&mut s, "usemillisec", Some("FALSE"));
        assert!(!s.usemillisec);
        set(&mut s, "Batch", Some("on"));
        assert!(s.batch);
        let a = set(&mut s, "batch", Some("maybe"));
        assert!(s.batch && a.messages.len() == 1);
        assert_eq!(set(&mut s, "Hash", Some("64")).effect, Effect::HashMb(64));
        assert_eq!(
            set(&mut s, "hash", Some("99999999999999999999999")).effect,
            Effect::HashMb(MAX_HASH_MB)
        );
        assert_eq!(set(&mut s, "Threads", Some("2")).effect, Effect::Threads(2));
        assert_eq!(set(&mut s, "threads", Some("x")).effect, Effect::None);
        assert_eq!(set(&mut s, "newgame", None).effect, Effect::NewGame);
        assert_eq!(set(&mut s, "Clear Hash", None).effect, Effect::NewGame);
        set(&mut s, "Move Overhead", Some("120"));
        assert_eq!(s.move_overhead_ms, 120);
        set(&mut s, "moveoverhead", Some("999999"));
        assert_eq!(s.move_overhead_ms, MAX_MOVE_OVERHEAD_MS);
        set(&mut s, "Rank Origin", Some("1"));
        assert_eq!(s.rank_origin, RankOrigin::One);
        let a = set(&mut s, "repetition", Some("axf"));
        assert_eq!(s.repetition, RuleSet::Axf);
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        assert_eq!(a.effect, Effect::Rules(RuleSet::Axf));
        set(&mut s, "repetition", Some("cxa2011"));
        assert_eq!(s.repetition, RuleSet::Cxa2011);
        set(&mut s, "allowresign", Some("false"));
        assert!(!s.allow_resign);
        assert!(set(&mut s, "UCI_Variant", Some("xiangqi"))
            .messages
            .is_empty());
        assert_eq!(set(&mut s, "UCI_Variant", Some("chess")).messages.len(), 1);
        assert_eq!(set(&mut s, "nosuchoption", Some("42")).messages.len(), 1);
    }

    #[test]
    fn pruning_knowledge_and_style_reach_the_engine() {
        let mut s = Settings::default();
        let a = set(&mut s, "pruning", Some("none"));
        assert_eq!(a.effect, Effect::Pruning(Level::None));
        assert!(a.messages.is_empty(), "{:?}", a.messages);
        assert_eq!(
            set(&mut s, "Knowledge", Some("Small")).effect,
            Effect::Knowledge(Level::Small)
        );
        assert_eq!(
            set(&mut s, "style", Some("risky")).effect,
            Effect::Style(Style::Risky)
        );
        // A bad value is explained and changes nothing.
        let a = set(&mut s, "pruning", Some("huge"));
        assert_eq!(a.effect, Effect::Pruning(Level::None));
        assert!(a.messages[0].contains("stays none"), "{:?}", a.messages);
        let a = set(&mut s, "style", None);
        assert_eq!(a.effect, Effect::Style(Style::Risky));
        assert_eq!(a.messages.len(), 1);
        assert_eq!(
            (s.pruning, s.knowledge, s.style),
            (Level::None, Level::Small, Style::Risky)
        );
    }

    #[test]
    fn values_below_the_announced_minimum_are_raised_to_it() {
        let mut s = Settings::default();
        for name in ["Hash", "Threads", "MultiPV"] {
            let a = apply_in(&mut s, Dialect::Uci, name, Some("0"));
            assert_eq!(
                a.messages,
                vec![format!(
                    "setoption {name}: 0 is below the minimum 1; using 1"
                )]
            );
            let expected = match name {
                "Hash" => Effect::HashMb(1),
                "Threads" => Effect::Threads(1),
                _ => Effect::None,
            };
            assert_eq!(a.effect, expected);
        }
        assert_eq!(s.multipv, 1);
        // UCCI announces 0 ("automatic") for hashsize and threads, and TCHESS sends `Hash`.
        for name in ["hashsize", "threads", "Hash"] {
            let a = apply_in(&mut s, Dialect::Ucci, name, Some("0"));
            assert!(a.messages.is_empty(), "{name}: {:?}", a.messages);
        }
        let a = apply_in(&mut s, Dialect::Ucci, "multipv", Some("0"));
        assert_eq!(a.messages.len(), 1, "{:?}", a.messages);
        // Values at or above the minimum, and non-numbers, are apply's business.
        let a = apply_in(&mut s, Dialect::Uci, "Threads", Some("2"));
        assert_eq!((a.effect, a.messages.len()), (Effect::Threads(2), 0));
        assert_eq!(
            apply_in(&mut s, Dialect::Uci, "Hash", Some("x"))
                .messages
                .len(),
            1
        );
    }

    /// A value every announced spin takes: 1, or its minimum when that is higher.
    fn spin_value(line: &str) -> &str {
        let min = line.split(" min ").nth(1).and_then(|v| v.split(' ').next());
        match min {
            Some(m) if m.parse::<u64>().is_ok_and(|m| m > 1) => m,
            _ => "1",
        }
    }

    #[test]
    fn announcements() {
        let ucci = announce(Dialect::Ucci);
        assert!(ucci[0].starts_with("option usemillisec "));
        assert!(ucci.iter().any(|l| l.starts_with("option usebook ")));
        assert!(ucci.iter().all(|l| !l.contains(" name ")));
        let uci = announce(Dialect::Uci);
        assert!(uci.iter().all(|l| l.starts_with("option name ")));
        // Every announced name is accepted without complaint.
        for line in ucci {
            let name = line.split(' ').nth(1).unwrap();
            let value = if line.contains("button") {
                None
            } else if line.contains("check") {
                Some("true")
            } else if line.contains("combo") {
                line.split(" default ").nth(1)
            } else {
                Some(spin_value(&line))
            };
            let a = apply(&mut Settings::default(), name, value);
            // Turning debug on echoes option changes, starting with itself.
            let expected = usize::from(name == "debug");
            assert_eq!(a.messages.len(), expected, "{line}: {:?}", a.messages);
        }
    }

    #[test]
    fn uci_announces_every_option_that_acts_in_uci() {
        let uci = announce(Dialect::Uci);
        for name in ["Randomness", "Pruning", "Knowledge", "Style"] {
            let line = uci
                .iter()
                .find(|l| l.starts_with(&format!("option name {name} type combo default ")))
                .unwrap_or_else(|| panic!("{name} not announced: {uci:?}"));
            // The default is one of the values, and each value is taken without complaint.
            let default = line
                .split(" default ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            let vars: Vec<&str> = line.split(" var ").skip(1).collect();
            assert!(vars.contains(&default), "{line}");
            for v in vars {
                let a = apply_in(&mut Settings::default(), Dialect::Uci, name, Some(v));
                assert!(a.messages.is_empty(), "{line} {v}: {:?}", a.messages);
            }
        }
        // Every announced option, at its default (or a value in range), takes no complaint.
        for line in &uci {
            let rest = line.strip_prefix("option name ").unwrap();
            let name = &rest[..rest.find(" type ").unwrap()];
            let value = if line.contains("type button") {
                None
            } else if line.contains("type spin") {
                Some(spin_value(line))
            } else {
                line.split(" default ")
                    .nth(1)
                    .and_then(|v| v.split(" var ").next())
            };
            let value = value.map(|v| if v == "<empty>" { "" } else { v });
            let a = apply_in(&mut Settings::default(), Dialect::Uci, name, value);
            assert!(a.messages.is_empty(), "{line}: {:?}", a.messages);
        }
    }
}
