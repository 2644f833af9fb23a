//! `jiangjun tb generate|probe|verify|sample|list`: endgame tablebases (残局库), made by retrograde analysis
//! and read back (docs/tablebases.md).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context};

use crate::board::{Color, Position};
use crate::tablebase::generate::{self, Done, Quiet};
use crate::tablebase::index::{Layout, MAX_ENTRIES};
use crate::tablebase::material::MAX_TABLE_PIECES;
use crate::tablebase::set::DEFAULT_MEMORY;
use crate::tablebase::table::file_name;
use crate::tablebase::{Material, TableSet, Value};

/// The arguments of `jiangjun tb`: one of its subcommands.
#[derive(clap::Args, Debug)]
pub struct TbArgs {
    #[command(subcommand)]
    pub command: TbCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum TbCommand {
    /// Generate the tables of each material and of every smaller one its captures reach.
    ///
    /// MATERIAL is written strong side first in FEN letters: KR-KAABB (rook against two
    /// advisors and two elephants), KC-K, KP-K, KNP-KAABB. Tables already in the folder are
    /// read, not made again, so a stopped run resumes; each new table is written whole when
    /// it is done. One line a table: `NAME: N positions, W wins D draws L losses (side to
    /// move; R decided by the repetition rules), longest mate P plies, longest conversion
    /// C plies, S s`.
    #[command(verbatim_doc_comment)]
    Generate(GenerateArgs),
    /// A position's value from the tables and each legal move's.
    ///
    /// The first line is `win|draw|loss` for the side to move with `dtm N` (plies to mate)
    /// and `dtc N` (plies to the next capture or the mate, which must come before the
    /// natural limit) when decided; then one line a legal move, best first: the move and its
    /// value for the side that makes it.
    #[command(verbatim_doc_comment)]
    Probe(ProbeArgs),
    /// Check tables against their positions' moves (every value follows from its moves').
    #[command(verbatim_doc_comment)]
    Verify(VerifyArgs),
    /// Random positions of a table with a given result, one FEN a line.
    ///
    /// For study, or as `jiangjun match --openings`: each position is legal, not yet
    /// decided (the side to move has a legal move), and worth --value for the side to move.
    /// The same seed gives the same positions.
    #[command(verbatim_doc_comment)]
    Sample(SampleArgs),
    /// The tables the materials need, in the order they are made: one line a table.
    ///
    /// `NAME PIECES ENTRIES`, fewest pieces first (a table reads only tables with fewer
    /// pieces, so the tables of one count can be made at once, as by
    /// scripts/tb_slurm.sh), then `total: T tables, E entries`. Entries count both sides to
    /// move; a file takes 1 or 2 bytes an entry for the value and as many for the conversion
    /// distance. Signatures that are dead draws (no attacking piece) need no table.
    #[command(verbatim_doc_comment)]
    List(ListArgs),
}

#[derive(clap::Args, Debug)]
pub struct ListArgs {
    /// Material signatures, e.g. KRAABB-KAABB.
    #[arg(value_name = "MATERIAL", required = true)]
    pub materials: Vec<String>,
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {
    /// Material signatures, e.g. KR-KAABB KC-K.
    #[arg(value_name = "MATERIAL", required = true)]
    pub materials: Vec<String>,
    /// The folder the tables are written to (made if missing).
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// Threads (default: every core).
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// Memory for the finished tables that later ones read, in MiB: the smallest are held in
    /// memory, the rest read from their files at each probe (slower). The table being made
    /// takes its own memory beside this.
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MEMORY >> 20)]
    pub memory: u64,
}

/// Where the tables are read from, and the memory they may take.
#[derive(clap::Args, Debug)]
pub struct Folder {
    /// The folder of the tables.
    #[arg(long, value_name = "DIR")]
    pub dir: PathBuf,
    /// Memory for the tables' entries, in MiB: the smallest tables are held in memory, the
    /// rest read from their files at each probe (slower; 0: every table).
    #[arg(long, value_name = "MIB", default_value_t = DEFAULT_MEMORY >> 20)]
    pub memory: u64,
}

impl Folder {
    /// An empty set with this memory budget.
    fn set(&self) -> TableSet {
        TableSet::with_memory(self.memory.saturating_mul(1 << 20))
    }
}

#[derive(clap::Args, Debug)]
pub struct ProbeArgs {
    /// The position.
    #[arg(long, value_name = "FEN")]
    pub fen: String,
    #[command(flatten)]
    pub tables: Folder,
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// Material signatures to check (with the tables their captures reach).
    #[arg(value_name = "MATERIAL", required = true)]
    pub materials: Vec<String>,
    #[command(flatten)]
    pub tables: Folder,
}

#[derive(clap::Args, Debug)]
pub struct SampleArgs {
    /// The material signature, e.g. KR-KABB.
    #[arg(value_name = "MATERIAL")]
    pub material: String,
    #[command(flatten)]
    pub tables: Folder,
    /// How many positions.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub count: usize,
    /// The result for the side to move: win, draw or loss.
    #[arg(long, value_name = "V", default_value = "win")]
    pub value: String,
    /// Only positions decided within this many plies (with win or loss).
    #[arg(long, value_name = "PLIES")]
    pub max_plies: Option<u16>,
    /// The seed of the choice.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub seed: u64,
}

pub fn run(args: TbArgs) -> anyhow::Result<i32> {
    match args.command {
        TbCommand::Generate(a) => generate_main(a),
        TbCommand::Probe(a) => probe_main(a),
        TbCommand::Verify(a) => verify_main(a),
        TbCommand::Sample(a) => sample_main(a),
        TbCommand::List(a) => list_main(a),
    }
}

fn list_main(a: ListArgs) -> anyhow::Result<i32> {
    let mut all: Vec<Material> = Vec::new();
    for m in parse_all(&a.materials)? {
        for need in m.closure() {
            if !need.is_dead_draw() && !all.contains(&need) {
                all.push(need);
            }
        }
    }
    all.sort_by_key(|m| (m.piece_count(), *m));
    let mut out = std::io::stdout().lock();
    let mut entries = 0u64;
    for m in &all {
        let n = 2 * Layout::new(*m).size();
        entries += n;
        writeln!(out, "{m} {} {n}", m.piece_count())?;
    }
    writeln!(out, "total: {} tables, {entries} entries", all.len())?;
    Ok(0)
}

fn parse_all(names: &[String]) -> anyhow::Result<Vec<Material>> {
    names
        .iter()
        .map(|n| {
            let m = Material::parse(n)?.canonical();
            let size = Layout::new(m).size();
            if size > MAX_ENTRIES {
                bail!("{m}: {size} entries a side to move; tables hold at most {MAX_ENTRIES}");
            }
            Ok(m)
        })
        .collect()
}

/// One line about a table: its size and what its positions are worth.
fn summary(set: &TableSet, m: Material) -> String {
    let Some(t) = set.get(m) else {
        return format!("{m}: not held");
    };
    let c = t.counts();
    let [w, d, l] = [0, 1, 2].map(|k| c.by_side[0][k] + c.by_side[1][k]);
    let rule = c.by_rule;
    format!(
        "{m}: {} positions, {w} wins {d} draws {l} losses (side to move; {rule} decided by the \
         repetition rules), longest mate {} plies, longest conversion {} plies",
        w + d + l,
        t.max_plies(),
        t.max_dtc()
    )
}

fn with_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> T + Send,
) -> anyhow::Result<T> {
    match threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(n) => Ok(rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .context("cannot start the threads")?
            .install(f)),
        None => Ok(f()),
    }
}

fn generate_main(a: GenerateArgs) -> anyhow::Result<i32> {
    let materials = parse_all(&a.materials)?;
    std::fs::create_dir_all(&a.dir)
        .with_context(|| format!("cannot make the folder {}", a.dir.display()))?;
    with_threads(a.threads, || -> anyhow::Result<i32> {
        let mut set = TableSet::with_memory(a.memory.saturating_mul(1 << 20));
        let out = std::io::stdout();
        for m in materials {
            if m.is_dead_draw() {
                let _ = writeln!(
                    out.lock(),
                    "{m}: no table needed, neither side can mate (2011 rules 4.2.2: a draw)"
                );
                continue;
            }
            let mut started = Instant::now();
            generate::generate_with_captures(m, Some(&a.dir), &mut set, &Quiet, |done, set| {
                let line = match done {
                    Done::Generated(m) => format!(
                        "{}, {:.1} s",
                        summary(set, *m),
                        started.elapsed().as_secs_f64()
                    ),
                    Done::Read(m) => format!("{m}: already in {}", a.dir.display()),
                };
                let _ = writeln!(out.lock(), "{line}");
                started = Instant::now();
            })?;
        }
        Ok(0)
    })?
}

/// Reads the tables a material needs (itself and what its captures reach) from a folder.
fn load_with_captures(dir: &Path, m: Material, set: &mut TableSet) -> anyhow::Result<()> {
    for need in m.closure() {
        if need.is_dead_draw() || set.get(need).is_some() {
            continue;
        }
        if !set.load(dir, need)? {
            bail!(
                "no table {} in {} (make it with `jiangjun tb generate {m} --dir {}`)",
                file_name(need),
                dir.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// `win dtm 33 dtc 12`, `win rule 5`, `draw`.
fn show(v: Value, dtc: u16) -> String {
    match v.plies() {
        Some(n) if v.by_rule() => format!("{} rule {n}", v.word()),
        Some(n) => format!("{} dtm {n} dtc {dtc}", v.word()),
        None => v.word().to_string(),
    }
}

fn probe_main(a: ProbeArgs) -> anyhow::Result<i32> {
    let pos = Position::from_fen(&a.fen).with_context(|| format!("--fen '{}'", a.fen))?;
    let m = Material::of(&pos).canonical();
    if m.piece_count() > MAX_TABLE_PIECES {
        bail!(
            "{} pieces on the board; tables hold at most {MAX_TABLE_PIECES}",
            m.piece_count()
        );
    }
    let mut set = a.tables.set();
    load_with_captures(&a.tables.dir, m, &mut set)?;
    let (value, dtc) = set
        .probe_dtc(&pos)
        .with_context(|| format!("{m}: the position is not in the table"))?;
    // Each move with its value and the conversion distance through it (a capture converts).
    let mut moves: Vec<(String, Value, u16)> = Vec::new();
    for mv in pos.legal_moves() {
        let capture = pos.piece_at(mv.to()).is_some();
        let mut child = pos.clone();
        child.make_move(mv);
        let (v, d) = set
            .probe_dtc(&child)
            .with_context(|| format!("{mv}: the position after it is not in the tables"))?;
        let v = v.before();
        let d = match v.plies() {
            Some(n) if v.by_rule() => n,
            _ if capture => 1,
            _ => d + 1,
        };
        moves.push((mv.to_string(), v, d));
    }
    // Among equal values, the winner's quickest conversion first, the loser's slowest.
    moves.sort_by_key(|(name, v, d)| {
        let d = if v.outcome() < 0 { u16::MAX - d } else { *d };
        (std::cmp::Reverse(v.for_mover()), d, name.clone())
    });
    let out = std::io::stdout();
    let mut out = out.lock();
    let _ = writeln!(out, "{}", show(value, dtc));
    for (name, v, d) in moves {
        let _ = writeln!(out, "{name} {}", show(v, d));
    }
    Ok(0)
}

fn verify_main(a: VerifyArgs) -> anyhow::Result<i32> {
    let materials = parse_all(&a.materials)?;
    let mut set = a.tables.set();
    let mut bad = 0;
    // Each table once, though several materials need it.
    let mut done = std::collections::HashSet::new();
    for m in materials {
        if m.is_dead_draw() {
            continue;
        }
        load_with_captures(&a.tables.dir, m, &mut set)?;
        for need in m.closure() {
            if !done.insert(need) {
                continue;
            }
            let Some(t) = set.get(need) else { continue };
            match generate::verify(t, &set) {
                None => println!("{need}: ok"),
                Some((side, idx, why)) => {
                    bad += 1;
                    println!("{need}: entry {idx}, {} to move: {why}", side.name());
                }
            }
        }
    }
    Ok(if bad == 0 { 0 } else { 1 })
}

fn sample_main(a: SampleArgs) -> anyhow::Result<i32> {
    if !["win", "draw", "loss"].contains(&a.value.as_str()) {
        bail!("--value must be win, draw or loss, not {:?}", a.value);
    }
    let m = Material::parse(&a.material)?.canonical();
    if m.is_dead_draw() {
        bail!("{m}: neither side can mate; there is no table (2011 rules 4.2.2)");
    }
    let mut set = a.tables.set();
    load_with_captures(&a.tables.dir, m, &mut set)?;
    let Some(t) = set.get(m) else {
        bail!("{m}: no table");
    };
    let size = t.layout.size();
    let mut seed = a.seed;
    let mut found = 0;
    let out = std::io::stdout();
    let mut out = out.lock();
    // Random entries until enough fit; a table without one of them ends the search.
    for _ in 0..size.saturating_mul(4).max(1_000) {
        if found == a.count {
            break;
        }
        seed = crate::board::zobrist::splitmix64(seed);
        let idx = seed % size;
        let side = Color::ALL[(seed >> 63) as usize];
        let Some(v) = t.value(side, idx) else {
            continue;
        };
        if v.word() != a.value || v.plies().zip(a.max_plies).is_some_and(|(n, max)| n > max) {
            continue;
        }
        let Some(board) = t.layout.board(&t.layout.decode(idx)) else {
            continue;
        };
        let Ok(pos) = Position::from_placement(board, side, 0, 1) else {
            continue;
        };
        if !pos.has_legal_move() {
            continue;
        }
        let _ = writeln!(out, "{}", pos.to_fen());
        found += 1;
    }
    if found < a.count {
        eprintln!("jiangjun tb sample: only {found} positions found");
    }
    Ok(0)
}
