//! Engine options: what we announce, and what each `setoption` (CECP: `option`) does.
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
//! * options we do not implement yet (`promotion`, `idle`, …) are accepted without
//!   effect. When the value asks for something we do not do, an `info string` says it has no
//!   effect yet; when the value describes what we already do (`usehash true`, `idle none`),
//!   nothing is printed, so XQWizard's start-up (gui.md §1.1) stays quiet where it can;
//! * unknown names get an `info string` and are ignored.
//!
//! The options that act are declared once, in the table `OPTIONS`: each with its UCCI, UCI
//! and CECP names, its kind (check, spin with the range each protocol announces, combo, file,
//! button) and what setting it does. The table writes every handshake (UCCI's and UCI's
//! `option` lines, XBoard's `feature option="..."` lines) and reads every value, so a name, a
//! range or a default cannot differ between what is announced and what is accepted.
//!
//! XBoard is offered the options that act in a CECP game, under their UCI names (and
//! `AllowDraw`, `AllowResign`): not `usemillisec`, `batch`, `debug`, `Ponder` (XBoard's
//! `hard`/`easy`), `UCI_ShowWDL` (its thinking lines have no place for it), `Rank Origin` or
//! `UCI_Variant` (its `variant`). What an option does to the engine is applied in one place
//! for every protocol, [`super::configure`].
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
//! [`crate::eval::nnue::DEFAULT_ON`], the one switch that makes the network the engine's
//! evaluation; `knowledge` levels below `large` always use the hand-written evaluation.

use super::command::{parse_check_value, Dialect};
use crate::board::RankOrigin;
use crate::book::Randomness;
use crate::engine::{
    DEFAULT_HASH_MB, DEFAULT_THREADS, DEFAULT_USE_BOOK, DEFAULT_USE_TABLEBASES, MAX_HASH_MB,
    MAX_THREADS,
};
use crate::eval::nnue::{BUILT_IN_NAME, DEFAULT_ON};
use crate::eval::Level;
use crate::rules::RuleSet;
use crate::search::levels::Style;
use crate::search::parameters::Parameters;
use crate::search::strength::{Strength, MAX_ELO, MIN_ELO};
use crate::search::time::DEFAULT_MOVE_OVERHEAD_MS;

/// Most lines a user may ask for with `multipv`; a position with fewer legal moves gets one
/// line per move.
pub const MAX_MULTIPV: usize = 128;

/// Largest move overhead a user may set, in ms.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// Largest memory for endgame tables a user may set, in MiB (1 TiB).
pub const MAX_TB_MEMORY_MB: u64 = 1 << 20;

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
    /// UCCI `tbmemory` / UCI `TablebaseMemory`: MiB of table entries held in memory, the rest
    /// read from their files at each probe.
    pub tb_memory_mb: u64,
}

impl Settings {
    /// A new session's settings, and the defaults the option table announces: the only
    /// place a setting's default is written (those the engine also holds come from the
    /// constants of the layers below, which [`crate::engine::Engine::new`] uses too).
    pub const DEFAULT: Settings = Settings {
        usemillisec: true,
        batch: false,
        debug: false,
        ponder: false,
        allow_draw: true,
        allow_resign: true,
        move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
        repetition: RuleSet::DEFAULT,
        rank_origin: RankOrigin::DEFAULT,
        pruning: Level::DEFAULT,
        knowledge: Level::DEFAULT,
        style: Style::DEFAULT,
        multipv: 1,
        show_wdl: false,
        use_nnue: DEFAULT_ON,
        params: Parameters::DEFAULT,
        limit_strength: false,
        elo: MIN_ELO,
        tb_memory_mb: crate::tablebase::set::DEFAULT_MEMORY >> 20,
    };
}

impl Default for Settings {
    fn default() -> Settings {
        Settings::DEFAULT
    }
}

/// The book option's default, as announced: the book built into the binary (or the one
/// `JIANGJUN_BOOK` names instead), written as `evalfile`'s default is.
const DEFAULT_BOOK: &str = "<built-in>";

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
    /// Go back to the default book: the built-in one, or `JIANGJUN_BOOK`'s.
    DefaultBook,
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
    /// Read the endgame tables of this folder (empty: no tables).
    TablebasePath(String),
    /// The tables' memory changed: tables already read are read again under it.
    TablebaseMemory,
    /// Let the search read the endgame tables (UCCI `useegtb`).
    UseTablebases(bool),
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

/// The protocol whose names and ranges an option is announced and read with: UCCI and UCI
/// (the two [`Dialect`]s of one session), or CECP, XBoard's protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Ucci,
    Uci,
    Cecp,
}

impl From<Dialect> for Protocol {
    fn from(dialect: Dialect) -> Protocol {
        match dialect {
            Dialect::Ucci => Protocol::Ucci,
            Dialect::Uci => Protocol::Uci,
        }
    }
}

impl Protocol {
    /// The announced minimum of a spin: UCCI's (0 is "automatic" for `hashsize` and
    /// `threads`), or UCI's, which CECP shares.
    fn min(self, min: [u64; 2]) -> u64 {
        min[usize::from(self != Protocol::Ucci)]
    }

    /// The command that sets an option, which messages about it start with.
    fn verb(self) -> &'static str {
        match self {
            Protocol::Cecp => "option",
            Protocol::Ucci | Protocol::Uci => "setoption",
        }
    }
}

/// Why an option command changed nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No option has this name.
    UnknownOption,
    /// The option exists, but the value is not one it takes.
    BadValue,
}

impl Refusal {
    /// The reason, in the words of CECP's `Error (reason): command`.
    pub fn reason(self) -> &'static str {
        match self {
            Refusal::UnknownOption => "unknown option",
            Refusal::BadValue => "bad value",
        }
    }
}

/// The result of one `setoption` (or CECP `option`): an engine action, texts for the user
/// (`info string`, CECP `#` lines), and why nothing changed, if the command was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    pub effect: Effect,
    pub messages: Vec<String>,
    pub refused: Option<Refusal>,
}

/// How an option's value is read, and how each protocol announces it.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Check(bool),
    /// A whole number from the announced minimum (UCCI's, UCI's) to `max`: a larger one is
    /// lowered to `max`, a smaller one raised to the minimum, each with a message.
    Spin {
        min: [u64; 2],
        max: u64,
        default: u64,
    },
    /// One of `vars` (any case); the setter gets the announced spelling.
    Combo {
        vars: &'static [&'static str],
        default: &'static str,
    },
    /// A file name (free text), announced with this default: a string in UCCI and UCI, a
    /// file (with a browse button) in CECP.
    File(&'static str),
    Button,
}

/// A value as its option's [`Kind`] read it.
#[derive(Clone, Copy, Debug)]
enum Value<'a> {
    Check(bool),
    Number(u64),
    Choice(&'static str),
    Text(&'a str),
    Press,
}

impl<'a> Value<'a> {
    fn on(self) -> bool {
        matches!(self, Value::Check(true))
    }

    fn number(self) -> u64 {
        match self {
            Value::Number(n) => n,
            _ => 0,
        }
    }

    fn text(self) -> &'a str {
        match self {
            Value::Text(t) => t,
            _ => "",
        }
    }

    fn choice(self) -> &'static str {
        match self {
            Value::Choice(c) => c,
            _ => "",
        }
    }
}

/// One option: its names, its kind and what setting it does. The table [`OPTIONS`] drives
/// the handshake of every protocol ([`announce`], [`cecp_features`]) and every `setoption`
/// or CECP `option` ([`apply_in`]).
struct Def {
    /// The name announced in UCCI; `None`: not announced there (still accepted).
    ucci: Option<&'static str>,
    /// The name announced in UCI; `None`: not announced there (still accepted).
    uci: Option<&'static str>,
    /// The name announced in CECP (XBoard); `None`: not announced there (still accepted).
    cecp: Option<&'static str>,
    /// Further spellings accepted.
    aliases: &'static [&'static str],
    kind: Kind,
    set: for<'a> fn(&mut Settings, Value<'a>) -> Effect,
}

const LEVELS: &[&str] = &["none", "small", "medium", "large"];

/// Every option that acts, in the order of the handshakes: UCCI's starts with `usemillisec`
/// (XQWizard and the league emulator switch to milliseconds only on a line starting
/// `option usemillisec `, ucci.md §5.2), UCI's with `UCI_Variant`. `AllowDraw` and
/// `AllowResign` are not announced in UCI, whose `bestmove` has no draw or resign to carry.
const OPTIONS: &[Def] = &[
    Def {
        ucci: None,
        uci: Some("UCI_Variant"),
        cecp: None,
        aliases: &[],
        kind: Kind::Combo {
            vars: &["xiangqi"],
            default: "xiangqi",
        },
        set: |_, _| Effect::None,
    },
    Def {
        ucci: Some("usemillisec"),
        uci: None,
        cecp: None,
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.usemillisec),
        set: |s, v| {
            s.usemillisec = v.on();
            Effect::None
        },
    },
    Def {
        ucci: Some("batch"),
        uci: None,
        cecp: None,
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.batch),
        set: |s, v| {
            s.batch = v.on();
            Effect::None
        },
    },
    Def {
        ucci: Some("debug"),
        uci: None,
        cecp: None,
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.debug),
        set: |s, v| {
            s.debug = v.on();
            Effect::None
        },
    },
    Def {
        ucci: Some("ponder"),
        uci: Some("Ponder"),
        cecp: None,
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.ponder),
        set: |s, v| {
            s.ponder = v.on();
            Effect::None
        },
    },
    Def {
        ucci: Some("usebook"),
        uci: Some("OwnBook"),
        cecp: Some("OwnBook"),
        aliases: &[],
        kind: Kind::Check(DEFAULT_USE_BOOK),
        set: |_, v| Effect::UseBook(v.on()),
    },
    Def {
        ucci: Some("bookfiles"),
        uci: Some("BookFile"),
        cecp: Some("BookFile"),
        aliases: &[],
        kind: Kind::File(DEFAULT_BOOK),
        set: |_, v| {
            // UCCI allows a ';'-separated list; the first file is used.
            let first = v.text().split(';').next().unwrap_or("").trim();
            if [DEFAULT_BOOK, "<builtin>"]
                .iter()
                .any(|d| first.eq_ignore_ascii_case(d))
            {
                return Effect::DefaultBook;
            }
            let first = if first == "<empty>" { "" } else { first };
            Effect::BookFile(first.to_string())
        },
    },
    Def {
        ucci: Some("randomness"),
        uci: Some("Randomness"),
        cecp: Some("Randomness"),
        aliases: &["selectivity"],
        kind: Kind::Combo {
            vars: &["none", "tiny", "small", "medium", "large", "huge"],
            default: Randomness::DEFAULT.name(),
        },
        set: |_, v| Randomness::parse(v.choice()).map_or(Effect::None, Effect::Randomness),
    },
    Def {
        ucci: Some("hashsize"),
        uci: Some("Hash"),
        cecp: Some("Hash"),
        aliases: &[],
        // UCCI's 0 is "automatic"; UCI's Hash starts at 1.
        kind: Kind::Spin {
            min: [0, 1],
            max: MAX_HASH_MB as u64,
            default: DEFAULT_HASH_MB as u64,
        },
        set: |_, v| Effect::HashMb(usize::try_from(v.number()).unwrap_or(MAX_HASH_MB)),
    },
    Def {
        ucci: Some("threads"),
        uci: Some("Threads"),
        cecp: Some("Threads"),
        aliases: &[],
        kind: Kind::Spin {
            min: [0, 1],
            max: MAX_THREADS as u64,
            default: DEFAULT_THREADS as u64,
        },
        set: |_, v| Effect::Threads(usize::try_from(v.number()).unwrap_or(MAX_THREADS)),
    },
    Def {
        ucci: Some("moveoverhead"),
        uci: Some("Move Overhead"),
        cecp: Some("Move Overhead"),
        aliases: &[],
        kind: Kind::Spin {
            min: [0, 0],
            max: MAX_MOVE_OVERHEAD_MS,
            default: Settings::DEFAULT.move_overhead_ms,
        },
        set: |s, v| {
            s.move_overhead_ms = v.number();
            Effect::None
        },
    },
    Def {
        ucci: Some("allowdraw"),
        uci: None,
        cecp: Some("AllowDraw"),
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.allow_draw),
        set: |s, v| {
            s.allow_draw = v.on();
            Effect::None
        },
    },
    Def {
        ucci: Some("allowresign"),
        uci: None,
        cecp: Some("AllowResign"),
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.allow_resign),
        set: |s, v| {
            s.allow_resign = v.on();
            Effect::None
        },
    },
    Def {
        ucci: Some("repetition"),
        uci: Some("Repetition"),
        cecp: Some("Repetition"),
        aliases: &["repetitionrules"],
        kind: Kind::Combo {
            vars: &["cxa2011", "axf"],
            default: Settings::DEFAULT.repetition.name(),
        },
        set: |s, v| match v.choice().parse::<RuleSet>() {
            Ok(rules) => {
                s.repetition = rules;
                Effect::Rules(rules)
            }
            Err(_) => Effect::None,
        },
    },
    Def {
        ucci: Some("pruning"),
        uci: Some("Pruning"),
        cecp: Some("Pruning"),
        aliases: &[],
        kind: Kind::Combo {
            vars: LEVELS,
            default: Settings::DEFAULT.pruning.name(),
        },
        set: |s, v| match Level::parse(v.choice()) {
            Some(level) => {
                s.pruning = level;
                Effect::Pruning(level)
            }
            None => Effect::None,
        },
    },
    Def {
        ucci: Some("knowledge"),
        uci: Some("Knowledge"),
        cecp: Some("Knowledge"),
        aliases: &[],
        kind: Kind::Combo {
            vars: LEVELS,
            default: Settings::DEFAULT.knowledge.name(),
        },
        set: |s, v| match Level::parse(v.choice()) {
            Some(level) => {
                s.knowledge = level;
                Effect::Knowledge(level)
            }
            None => Effect::None,
        },
    },
    Def {
        ucci: Some("style"),
        uci: Some("Style"),
        cecp: Some("Style"),
        aliases: &[],
        kind: Kind::Combo {
            vars: &["solid", "normal", "risky"],
            default: Settings::DEFAULT.style.name(),
        },
        set: |s, v| match Style::parse(v.choice()) {
            Some(style) => {
                s.style = style;
                Effect::Style(style)
            }
            None => Effect::None,
        },
    },
    Def {
        ucci: Some("multipv"),
        uci: Some("MultiPV"),
        cecp: Some("MultiPV"),
        aliases: &[],
        kind: Kind::Spin {
            min: [1, 1],
            max: MAX_MULTIPV as u64,
            default: Settings::DEFAULT.multipv as u64,
        },
        set: |s, v| {
            s.multipv = usize::try_from(v.number()).unwrap_or(MAX_MULTIPV).max(1);
            Effect::None
        },
    },
    Def {
        ucci: Some("limitstrength"),
        uci: Some("UCI_LimitStrength"),
        cecp: Some("UCI_LimitStrength"),
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.limit_strength),
        set: |s, v| {
            s.limit_strength = v.on();
            Effect::Strength(s.strength())
        },
    },
    Def {
        ucci: Some("elo"),
        uci: Some("UCI_Elo"),
        cecp: Some("UCI_Elo"),
        aliases: &[],
        kind: Kind::Spin {
            min: [MIN_ELO as u64, MIN_ELO as u64],
            max: MAX_ELO as u64,
            default: Settings::DEFAULT.elo as u64,
        },
        set: |s, v| {
            s.elo = u32::try_from(v.number()).unwrap_or(MAX_ELO);
            Effect::Strength(s.strength())
        },
    },
    Def {
        ucci: Some("showwdl"),
        uci: Some("UCI_ShowWDL"),
        cecp: None,
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.show_wdl),
        set: |s, v| {
            s.show_wdl = v.on();
            Effect::None
        },
    },
    Def {
        ucci: Some("evalfile"),
        uci: Some("EvalFile"),
        cecp: Some("EvalFile"),
        aliases: &[],
        kind: Kind::File(BUILT_IN_NAME),
        set: |_, v| Effect::EvalFile(v.text().trim().to_string()),
    },
    Def {
        ucci: Some("useegtb"),
        uci: None,
        cecp: None,
        aliases: &[],
        kind: Kind::Check(DEFAULT_USE_TABLEBASES),
        set: |_, v| Effect::UseTablebases(v.on()),
    },
    Def {
        ucci: Some("tbpath"),
        uci: Some("TablebasePath"),
        cecp: Some("TablebasePath"),
        // The UCCI specification's name, which XQWizard sends.
        aliases: &["egtbpaths"],
        kind: Kind::File("<empty>"),
        set: |_, v| {
            let dir = v.text().trim();
            Effect::TablebasePath(if dir == "<empty>" { "" } else { dir }.to_string())
        },
    },
    Def {
        ucci: Some("tbmemory"),
        uci: Some("TablebaseMemory"),
        cecp: Some("TablebaseMemory"),
        aliases: &[],
        kind: Kind::Spin {
            min: [0, 0],
            max: MAX_TB_MEMORY_MB,
            default: Settings::DEFAULT.tb_memory_mb,
        },
        set: |s, v| {
            s.tb_memory_mb = v.number();
            Effect::TablebaseMemory
        },
    },
    Def {
        ucci: Some("usennue"),
        uci: Some("Use NNUE"),
        cecp: Some("Use NNUE"),
        aliases: &[],
        kind: Kind::Check(Settings::DEFAULT.use_nnue),
        set: |s, v| {
            s.use_nnue = v.on();
            Effect::UseNnue(s.use_nnue)
        },
    },
    Def {
        ucci: None,
        uci: Some("Rank Origin"),
        cecp: None,
        aliases: &[],
        kind: Kind::Combo {
            vars: &["0", "1"],
            default: rank_origin_name(Settings::DEFAULT.rank_origin),
        },
        set: |s, v| {
            s.rank_origin = if v.choice() == "1" {
                RankOrigin::One
            } else {
                RankOrigin::Zero
            };
            Effect::None
        },
    },
    Def {
        ucci: Some("newgame"),
        uci: Some("Clear Hash"),
        cecp: Some("Clear Hash"),
        aliases: &[],
        kind: Kind::Button,
        set: |_, _| Effect::NewGame,
    },
];

/// The `Rank Origin` value of a rank numbering: the first rank's number.
const fn rank_origin_name(origin: RankOrigin) -> &'static str {
    match origin {
        RankOrigin::Zero => "0",
        RankOrigin::One => "1",
    }
}

/// The `option` lines of the handshake in `dialect`, from the option table `OPTIONS`.
pub fn announce(dialect: Dialect) -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|d| {
            let name = match dialect {
                Dialect::Ucci => d.ucci?,
                Dialect::Uci => d.uci?,
            };
            Some(announcement(dialect, name, d.kind))
        })
        .collect()
}

/// One `option` line: UCCI puts the name straight after `option` and the default last, UCI
/// says `name` and puts the default first (ucci.md §5.2, the UCI specification).
fn announcement(dialect: Dialect, name: &str, kind: Kind) -> String {
    let uci = dialect == Dialect::Uci;
    let head = if uci {
        format!("option name {name}")
    } else {
        format!("option {name}")
    };
    match kind {
        Kind::Check(b) => format!("{head} type check default {b}"),
        Kind::Spin { min, max, default } => {
            let min = Protocol::from(dialect).min(min);
            if uci {
                format!("{head} type spin default {default} min {min} max {max}")
            } else {
                format!("{head} type spin min {min} max {max} default {default}")
            }
        }
        Kind::Combo { vars, default } => {
            let vars: String = vars.iter().map(|v| format!(" var {v}")).collect();
            if uci {
                format!("{head} type combo default {default}{vars}")
            } else {
                format!("{head} type combo{vars} default {default}")
            }
        }
        Kind::File(default) => format!("{head} type string default {default}"),
        Kind::Button => format!("{head} type button"),
    }
}

/// The `feature option="..."` lines that announce the options to XBoard, from the option
/// table, in CECP's form `NAME -TYPE ...`: `-check 0|1`, `-spin DEFAULT MIN MAX`, `-combo`
/// with the choices between ` /// ` and the default marked `*`, `-file DEFAULT`, `-button`.
pub fn cecp_features() -> Vec<String> {
    OPTIONS
        .iter()
        .filter_map(|d| {
            let name = d.cecp?;
            let text = match d.kind {
                Kind::Check(b) => format!("{name} -check {}", u8::from(b)),
                Kind::Spin { min, max, default } => {
                    let min = Protocol::Cecp.min(min);
                    format!("{name} -spin {default} {min} {max}")
                }
                Kind::Combo { vars, default } => {
                    let marked: Vec<String> = vars
                        .iter()
                        .map(|v| {
                            let star = if *v == default { "*" } else { "" };
                            format!("{star}{v}")
                        })
                        .collect();
                    format!("{name} -combo {}", marked.join(" /// "))
                }
                Kind::File(default) => format!("{name} -file {default}"),
                Kind::Button => format!("{name} -button"),
            };
            Some(format!("feature option=\"{text}\""))
        })
        .collect()
}

/// The option `name` stands for, in any protocol's spelling.
fn find(name_key: &str) -> Option<&'static Def> {
    OPTIONS.iter().find(|d| {
        d.ucci
            .into_iter()
            .chain(d.uci)
            .chain(d.cecp)
            .chain(d.aliases.iter().copied())
            .any(|n| key(n) == name_key)
    })
}

/// Reads `value` as `kind` with `protocol`'s ranges; `None`, with a message, when it cannot
/// be. `shown` is the command and the option's name, which each message starts with.
fn read<'a>(
    kind: Kind,
    protocol: Protocol,
    shown: &str,
    value: Option<&'a str>,
    messages: &mut Vec<String>,
) -> Option<Value<'a>> {
    let text = value.unwrap_or("").trim();
    match kind {
        Kind::Check(_) => {
            let b = value.and_then(parse_check_value);
            if b.is_none() {
                messages.push(format!(
                    "{shown}: '{}' is not true/false; unchanged",
                    excerpt(text)
                ));
            }
            b.map(Value::Check)
        }
        Kind::Spin { min, max, .. } => {
            if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
                messages.push(format!(
                    "{shown}: '{}' is not a whole number; unchanged",
                    excerpt(text)
                ));
                return None;
            }
            // All digits: only overflow can fail, and that is "more than max".
            let n = text.parse::<u64>().unwrap_or(u64::MAX);
            let min = protocol.min(min);
            if n > max {
                messages.push(format!(
                    "{shown}: {} is above {max}; using {max}",
                    excerpt(text)
                ));
            } else if n < min {
                messages.push(format!(
                    "{shown}: {n} is below the minimum {min}; using {min}"
                ));
            }
            Some(Value::Number(n.clamp(min, max)))
        }
        Kind::Combo { vars, .. } => {
            let found = vars.iter().find(|v| v.eq_ignore_ascii_case(text));
            if found.is_none() {
                let (last, rest) = vars.split_last().unwrap_or((&"", &[]));
                let choices = if rest.is_empty() {
                    last.to_string()
                } else {
                    format!("{} or {last}", rest.join(", "))
                };
                messages.push(format!(
                    "{shown}: '{}' is not {choices}; unchanged",
                    excerpt(text)
                ));
            }
            found.map(|v| Value::Choice(v))
        }
        Kind::File(_) => Some(Value::Text(value.unwrap_or(""))),
        Kind::Button => Some(Value::Press),
    }
}

/// Applies `setoption <name> [<value>]` (CECP: `option NAME[=VALUE]`) as `protocol`
/// announces the option: the value is read by the option's kind (a number outside the
/// announced range is brought into it, with a message, instead of taking a meaning the GUI
/// was never told about), then set.
pub fn apply_in(
    settings: &mut Settings,
    protocol: impl Into<Protocol>,
    name: &str,
    value: Option<&str>,
) -> Applied {
    let protocol = protocol.into();
    let verb = protocol.verb();
    let mut messages = Vec::new();
    let mut refused = None;
    let k = key(name);
    let shown = format!("{verb} {}", excerpt(name));
    let unknown = format!("{verb}: unknown option '{}' ignored", excerpt(name));
    let value_trimmed = value.map(str::trim);
    let effect = if let Some(def) = find(&k) {
        match read(def.kind, protocol, &shown, value, &mut messages) {
            Some(v) => (def.set)(settings, v),
            None => {
                refused = Some(Refusal::BadValue);
                Effect::None
            }
        }
    } else {
        match k.as_str() {
            tune if tune.starts_with("tune") && tune.len() > 4 => {
                let spec = Parameters::SPECS.iter().find(|s| key(s.name) == tune[4..]);
                match (spec, value_trimmed.map(str::parse::<i32>)) {
                    (None, _) => {
                        messages.push(unknown);
                        refused = Some(Refusal::UnknownOption);
                        Effect::None
                    }
                    (Some(spec), Some(Ok(v))) => match settings.params.set(spec.name, v) {
                        Ok(()) => Effect::Parameters(settings.params),
                        Err(e) => {
                            messages.push(format!("{shown}: {e}"));
                            refused = Some(Refusal::BadValue);
                            Effect::None
                        }
                    },
                    (Some(spec), _) => {
                        messages.push(format!(
                            "{shown}: expected an integer from {} to {}",
                            spec.min, spec.max
                        ));
                        refused = Some(Refusal::BadValue);
                        Effect::None
                    }
                }
            }
            _ => {
                if let Some((_, neutral, why)) = NO_EFFECT.iter().find(|(n, _, _)| *n == k) {
                    if !is_neutral(neutral, value_trimmed) {
                        let v = value_trimmed.map(excerpt).unwrap_or_default();
                        let v = if v.is_empty() { v } else { format!(" {v}") };
                        messages.push(format!("{shown}{v}: no effect yet ({why})"));
                    }
                } else if !QUIET.contains(&k.as_str()) {
                    messages.push(unknown);
                    refused = Some(Refusal::UnknownOption);
                }
                Effect::None
            }
        }
    };
    if settings.debug && messages.is_empty() {
        let v = value.map(excerpt).unwrap_or_default();
        messages.push(format!("{shown} {v}").trim_end().to_string());
    }
    Applied {
        effect,
        messages,
        refused,
    }
}

/// [`apply_in`] with UCCI's announced ranges.
pub fn apply(settings: &mut Settings, name: &str, value: Option<&str>) -> Applied {
    apply_in(settings, Protocol::Ucci, name, value)
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

fn is_neutral(neutral: &Neutral, value: Option<&str>) -> bool {
    match neutral {
        Neutral::Check(b) => value.and_then(parse_check_value) == Some(*b),
        Neutral::Values(vs) => value.is_some_and(|v| vs.iter().any(|n| v.eq_ignore_ascii_case(n))),
        Neutral::Empty => value.is_none_or(|v| v.is_empty()),
        Neutral::Never => false,
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
        assert_eq!(a.effect, Effect::None);
        assert_eq!(
            a.messages,
            ["setoption pruning: 'huge' is not none, small, medium or large; unchanged"]
        );
        let a = set(&mut s, "style", None);
        assert_eq!(a.effect, Effect::None);
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
    fn every_spin_range_holds_its_default() {
        // `read` clamps a number into min..=max, which would panic on a range upside down.
        for d in OPTIONS {
            if let Kind::Spin { min, max, default } = d.kind {
                for m in min {
                    assert!(m <= default && default <= max, "{:?}", d.ucci.or(d.uci));
                }
            }
        }
    }

    /// Issue 60 item 7: the book option's announced default is the built-in book, as the
    /// README says, and that value (echoed back by a GUI) keeps the default book.
    #[test]
    fn book_option_default_is_the_built_in_book() {
        for (dialect, line) in [
            (
                Dialect::Ucci,
                "option bookfiles type string default <built-in>",
            ),
            (
                Dialect::Uci,
                "option name BookFile type string default <built-in>",
            ),
        ] {
            assert!(announce(dialect).iter().any(|l| l == line), "{line}");
        }
        for v in ["<built-in>", "<BUILT-IN>", "<builtin>"] {
            let a = apply_in(&mut Settings::default(), Dialect::Uci, "BookFile", Some(v));
            assert_eq!(a.effect, Effect::DefaultBook, "{v}");
        }
        for (v, file) in [("", ""), ("<empty>", ""), ("a.jjb;b.jjb", "a.jjb")] {
            let a = apply_in(
                &mut Settings::default(),
                Dialect::Ucci,
                "bookfiles",
                Some(v),
            );
            assert_eq!(a.effect, Effect::BookFile(file.into()), "{v}");
        }
    }

    /// Issue 61: every announced default is what a new session and a new engine start with,
    /// option by option, so an announcement cannot drift from what the engine does.
    #[test]
    fn announced_defaults_are_what_a_new_session_and_engine_use() {
        use crate::engine::Engine;
        let s = Settings::default();
        let e = Engine::new();
        let (use_book, randomness) = e.book_settings();
        let (pruning, knowledge, style) = e.levels();
        // Where the session and the engine both hold a setting, they start alike.
        assert_eq!(s.repetition, e.rules());
        assert_eq!(
            (s.pruning, s.knowledge, s.style),
            (pruning, knowledge, style)
        );
        assert_eq!(s.use_nnue, e.use_network());
        assert_eq!(s.strength(), e.strength());
        let used: Vec<(&str, String)> = vec![
            ("usemillisec", s.usemillisec.to_string()),
            ("batch", s.batch.to_string()),
            ("debug", s.debug.to_string()),
            ("ponder", s.ponder.to_string()),
            ("usebook", use_book.to_string()),
            ("randomness", randomness.name().to_string()),
            ("hashsize", e.hash_mb().to_string()),
            ("threads", e.threads().to_string()),
            ("moveoverhead", s.move_overhead_ms.to_string()),
            ("allowdraw", s.allow_draw.to_string()),
            ("allowresign", s.allow_resign.to_string()),
            ("repetition", e.rules().name().to_string()),
            ("pruning", pruning.name().to_string()),
            ("knowledge", knowledge.name().to_string()),
            ("style", style.name().to_string()),
            ("multipv", s.multipv.to_string()),
            ("limitstrength", (e.strength().is_some()).to_string()),
            ("elo", s.elo.to_string()),
            ("showwdl", s.show_wdl.to_string()),
            ("useegtb", e.use_tablebases().to_string()),
            // What the `tb` commands and a table set take unless told otherwise.
            (
                "tbmemory",
                (crate::tablebase::set::DEFAULT_MEMORY >> 20).to_string(),
            ),
            ("usennue", e.use_network().to_string()),
        ];
        // UCCI puts the default last: `option NAME type ... default VALUE`.
        let ucci = announce(Dialect::Ucci);
        for (name, value) in &used {
            let line = ucci
                .iter()
                .find(|l| l.starts_with(&format!("option {name} ")))
                .unwrap_or_else(|| panic!("{name} not announced: {ucci:?}"));
            let announced = line.rsplit_once(" default ").map(|(_, d)| d);
            assert_eq!(announced, Some(value.as_str()), "{line}");
        }
        // Every UCCI option with a value is checked above, but for the free-text ones.
        let free_text = ["bookfiles", "evalfile", "tbpath"];
        for line in ucci.iter().filter(|l| l.contains(" default ")) {
            let name = line.split(' ').nth(1).unwrap();
            let checked = used.iter().any(|(n, _)| *n == name) || free_text.contains(&name);
            assert!(
                checked,
                "{line}: its default is not compared with the engine's"
            );
        }
        // UCI's only option of its own with a default: set back to it, a session is new again.
        let origin = announce(Dialect::Uci)
            .into_iter()
            .find(|l| l.starts_with("option name Rank Origin "))
            .unwrap();
        let announced = origin.split(" default ").nth(1).unwrap().split(' ').next();
        let mut other = Settings {
            rank_origin: RankOrigin::One,
            ..Settings::default()
        };
        apply_in(&mut other, Dialect::Uci, "Rank Origin", announced);
        assert_eq!(other, s, "{origin}");
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
