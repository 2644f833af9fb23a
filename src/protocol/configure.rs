//! Options applied to the engine: the one path that UCCI/UCI `setoption` and CECP's `option`,
//! `memory` and `cores` all take.
//!
//! [`options`] reads a value and changes the [`Settings`]; [`Configuration::apply`] hands the
//! change on to the [`Engine`] (table size, threads, book, network, search levels, strength)
//! and returns what to tell the user. Each session says that in its own form: UCCI and UCI in
//! `info string` lines, CECP in `#` lines (and `Error (...)` for a refused command).

use super::evalfile::{self, EvalFile};
use super::options::{self, Applied, Effect, Protocol, Settings};
use crate::book::{self, Book};
use crate::engine::Engine;
use crate::eval::nnue;
use crate::tablebase::TableSet;
use std::path::Path;
use std::sync::Arc;

/// What the options have set, beside what the engine holds itself.
#[derive(Clone, Debug)]
pub struct Configuration {
    pub settings: Settings,
    /// A book was handed to the engine (the book option, or the default book at the first
    /// search).
    pub book_chosen: bool,
    /// The network the engine holds, as debug messages name it: the built-in one, the file
    /// the network option loaded, or `none`.
    pub network_name: String,
    /// The folder the tables option last named (empty: none), read again when the tables'
    /// memory changes.
    pub tb_path: String,
}

impl Default for Configuration {
    fn default() -> Configuration {
        Configuration {
            settings: Settings::default(),
            book_chosen: false,
            network_name: nnue::BUILT_IN_NAME.to_string(),
            tb_path: String::new(),
        }
    }
}

impl Configuration {
    /// Sets option `name` to `value` (`None` for a button), read with `protocol`'s names and
    /// ranges, and hands the change to `engine`. The messages of the result are what to tell
    /// the user, in order; its effect tells the session what else changed (`NewGame`: the
    /// session forgets its own game state too).
    pub fn apply(
        &mut self,
        engine: &mut Engine,
        protocol: Protocol,
        name: &str,
        value: Option<&str>,
    ) -> Applied {
        let applied = options::apply_in(&mut self.settings, protocol, name, value);
        let mut messages = Vec::new();
        match &applied.effect {
            Effect::None => {}
            Effect::HashMb(mb) => engine.set_hash_mb(*mb),
            Effect::Threads(n) => engine.set_threads(*n),
            Effect::NewGame => engine.new_game(),
            Effect::UseBook(on) => engine.set_use_book(*on),
            Effect::Randomness(r) => engine.set_randomness(*r),
            Effect::Rules(r) => engine.set_rules(*r),
            Effect::Pruning(l) => engine.set_pruning(*l),
            Effect::Knowledge(l) => engine.set_knowledge(*l),
            Effect::Style(st) => engine.set_style(*st),
            Effect::Parameters(p) => engine.set_parameters(*p),
            Effect::Strength(s) => engine.set_strength(*s),
            Effect::UseNnue(on) => {
                engine.set_use_network(*on);
                if *on && engine.active_network().is_none() {
                    messages.push(
                        "usennue: no network (evalfile is none); the hand-written evaluation stays"
                            .to_string(),
                    );
                }
            }
            Effect::EvalFile(value) => self.load_network(engine, value, &mut messages),
            Effect::BookFile(path) => self.load_book_file(engine, path, &mut messages),
            Effect::TablebasePath(dir) => {
                let memory = self.settings.tb_memory_mb << 20;
                if load_tablebases(engine, dir, memory, &mut messages) {
                    self.tb_path = dir.clone();
                }
            }
            Effect::TablebaseMemory if !self.tb_path.is_empty() => {
                let memory = self.settings.tb_memory_mb << 20;
                load_tablebases(engine, &self.tb_path, memory, &mut messages);
            }
            Effect::TablebaseMemory => {}
            Effect::UseTablebases(on) => engine.set_use_tablebases(*on),
            // Chosen again at the next search (UCCI, UCI: or `isready`), as at the start.
            Effect::DefaultBook => self.book_chosen = false,
        }
        messages.extend(applied.messages);
        Applied {
            messages,
            ..applied
        }
    }

    /// Hands `engine` the default book if no book was chosen yet, once; when that book cannot
    /// be loaded, what to tell the user.
    pub fn choose_default_book(&mut self, engine: &mut Engine) -> Option<String> {
        if self.book_chosen {
            return None;
        }
        self.book_chosen = true;
        use_default_book(engine)
    }

    /// The network option: loads the network, goes back to the built-in one (`<built-in>`,
    /// empty), or drops it (`none`). A file that cannot be used is reported and the current
    /// evaluation stays.
    fn load_network(&mut self, engine: &mut Engine, value: &str, messages: &mut Vec<String>) {
        let state = if self.settings.use_nnue {
            "in use"
        } else {
            "used when usennue is true"
        };
        match EvalFile::parse(value) {
            EvalFile::BuiltIn => match nnue::built_in() {
                Ok(net) => {
                    engine.set_network(Some(net));
                    self.network_name = nnue::BUILT_IN_NAME.to_string();
                    if self.settings.debug {
                        messages.push(format!("evalfile: the built-in network, {state}"));
                    }
                }
                // Only a build whose embedded file is broken gets here (a test guards it).
                Err(e) => messages.push(format!(
                    "evalfile: the built-in network: {e}; evaluation unchanged"
                )),
            },
            EvalFile::None => {
                engine.set_network(None);
                self.network_name = "none".to_string();
                if self.settings.debug {
                    messages
                        .push("evalfile: no network; the hand-written evaluation is used".into());
                }
            }
            EvalFile::Path(path) => match evalfile::load(path) {
                Ok(net) => {
                    let arch = net.architecture();
                    engine.set_network(Some(Arc::new(net)));
                    self.network_name = path.to_string();
                    messages.push(format!(
                        "evalfile: network {path} loaded, {state}; architecture {arch}"
                    ));
                }
                Err(e) => messages.push(format!("evalfile: {e}; evaluation unchanged")),
            },
        }
    }

    /// The book option: loads a book file (our format or ElephantEye's BOOK.DAT) and hands it
    /// to the engine. An empty path means "no book". On error the previous book stays and the
    /// message says why.
    fn load_book_file(&mut self, engine: &mut Engine, path: &str, messages: &mut Vec<String>) {
        let path = path.trim();
        let loaded = if path.is_empty() {
            engine.set_book(None);
            "no book".to_string()
        } else {
            match Book::load(Path::new(path)) {
                Ok(b) => {
                    let loaded = format!(
                        "book {path}: {} positions, {} moves",
                        b.positions(),
                        b.len()
                    );
                    engine.set_book(Some(Arc::new(b)));
                    loaded
                }
                Err(e) => {
                    messages.push(format!("bookfiles: {path}: {e}; book unchanged"));
                    return;
                }
            }
        };
        self.book_chosen = true;
        if self.settings.debug {
            messages.push(loaded);
        }
    }
}

/// The tables option: reads every table in the folder (none for an empty value), the smallest
/// held in `memory` bytes (`tbmemory`), the rest read on demand. A folder that cannot be read
/// is reported and the tables in use stay (`false`); a file that cannot be used is reported
/// and the others are used.
fn load_tablebases(
    engine: &mut Engine,
    dir: &str,
    memory: u64,
    messages: &mut Vec<String>,
) -> bool {
    if dir.is_empty() {
        engine.set_tablebases(None);
        return true;
    }
    let mut set = TableSet::with_memory(memory).quick_load();
    match set.load_dir(Path::new(dir)) {
        Ok(problems) => {
            for p in problems {
                messages.push(format!("tbpath: {p}"));
            }
            let mut loaded = format!("tbpath: {} endgame tables from {dir}", set.len());
            if set.on_demand() > 0 {
                // Beyond the memory budget: slower probes, said so.
                loaded += &format!(", {} read from their files at each probe", set.on_demand());
            }
            messages.push(loaded);
            engine.set_tablebases((!set.is_empty()).then(|| Arc::new(set)));
            true
        }
        Err(e) => {
            messages.push(format!("tbpath: {e}; tables unchanged"));
            false
        }
    }
}

/// Hands `engine` the default book ([`book::load_default`]); when that cannot be loaded, no
/// book, and what to tell the user (each protocol says it in its own form).
fn use_default_book(engine: &mut Engine) -> Option<String> {
    match book::load_default() {
        Ok(b) => {
            engine.set_book(b.map(Arc::new));
            None
        }
        Err(e) => {
            engine.set_book(None);
            Some(format!("{e}; no book"))
        }
    }
}
