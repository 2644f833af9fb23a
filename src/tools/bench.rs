//! `jiangjun bench [depth]`: a fixed set of positions searched to a fixed depth with one
//! thread and a fresh 16 MB table each (another size with `--hash`). The total node count is
//! the search's *signature*: it changes only when the search's behaviour changes, so commits
//! that change it say `Bench: N`. The nodes per second figure is for comparing builds side by
//! side.
//!
//! The plain bench searches with the engine's default evaluation
//! ([`crate::eval::nnue::DEFAULT_ON`]), so the signature changes when the default does.
//! Given a network, the bench runs twice in one process, hand-written evaluation first, and
//! reports the network's speed as a ratio of the hand-written one ([`compare`]).
//!
//! Each run also reports how the main search used the table, summed over the positions: the
//! share of probes that found their position (hits) and of probes whose entry ended the node
//! (cutoffs). A deeper bench with a small `--hash` shows what a full table costs.

use crate::board::Position;
use crate::engine::{Engine, Evaluation};
use crate::eval::nnue::Network;
use crate::search::limits::Limits;
use crate::search::tt::TableStats;
use crate::search::BENCH_POSITIONS;
use std::sync::Arc;
use std::time::Instant;

/// Default depth of `jiangjun bench`.
pub const DEFAULT_DEPTH: i32 = 9;

/// Table size in MB of `jiangjun bench`, the signature's.
pub const DEFAULT_HASH_MB: usize = 16;

/// Runs the bench with the hand-written evaluation and then with `net`, and prints the
/// second's nodes per second as a ratio of the first's (a random network of the shipped
/// architecture measures the inference cost before a trained one exists). Returns the ratio.
pub fn compare(depth: i32, hash_mb: usize, net: Arc<Network>, mut out: impl FnMut(&str)) -> f64 {
    out("hand-written evaluation:");
    let (_, hand) = run(depth, hash_mb, &Evaluation::HandWritten, &mut out);
    out("network:");
    let (_, network) = run(depth, hash_mb, &Evaluation::Network(net), &mut out);
    let ratio = network as f64 / hand.max(1) as f64;
    out(&format!("network nps / hand-written nps = {ratio:.3}"));
    ratio
}

/// Runs the bench with `evaluation` and a table of `hash_mb` MB; returns (nodes, nodes per
/// second) and prints one line per position, the table's use, and the total last.
pub fn run(
    depth: i32,
    hash_mb: usize,
    evaluation: &Evaluation,
    mut out: impl FnMut(&str),
) -> (u64, u64) {
    let mut total = 0u64;
    let mut table = TableStats::default();
    let start = Instant::now();
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        let mut engine = Engine::new();
        engine.set_hash_mb(hash_mb);
        engine.set_threads(1);
        engine.set_evaluation(evaluation);
        let start = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                out(&format!("position {}: {e}", i + 1));
                continue;
            }
        };
        // No moves: nothing for the engine to refuse.
        let _ = engine.set_game(start, &[]);
        let mut nodes = 0;
        let outcome = engine.search_blocking(
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            |info| nodes = info.nodes,
        );
        total += nodes;
        table.add(outcome.table);
        let best = outcome.best.map_or("(none)".to_string(), |m| m.to_string());
        out(&format!(
            "position {:2} bestmove {best} score {} nodes {nodes}",
            i + 1,
            outcome.score
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let nps = (total as f64 / secs) as u64;
    out(&table_line(&table));
    out(&format!("{total} nodes {nps} nps"));
    (total, nps)
}

/// `table: <probes> probes, <hits> hits (h%), <cutoffs> cutoffs (c%)`, the shares of probes.
fn table_line(t: &TableStats) -> String {
    let share = |n: u64| 100.0 * n as f64 / t.probes.max(1) as f64;
    format!(
        "table: {} probes, {} hits ({:.1}%), {} cutoffs ({:.1}%)",
        t.probes,
        t.hits,
        share(t.hits),
        t.cutoffs,
        share(t.cutoffs)
    )
}
