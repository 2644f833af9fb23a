//! `jiangjun bench [depth]`: a fixed set of positions searched to a fixed depth with one
//! thread and a fresh 16 MB table each. The total node count is the search's *signature*: it
//! changes only when the search's behaviour changes, so commits that change it say
//! `Bench: N`. The nodes per second figure is for comparing builds side by side.
//!
//! Given a network, the bench runs twice in one process, hand-written evaluation first, and
//! reports the network's speed as a ratio of the hand-written one ([`compare`]).

use crate::search::alphabeta::Limits;
use crate::search::engine::Engine;
use crate::search::nnue::Network;
use std::sync::Arc;
use std::time::Instant;

/// Default depth of `jiangjun bench`.
pub const DEFAULT_DEPTH: i32 = 9;

/// Middlegames and endgames (the perft suite's positions plus played openings).
pub const POSITIONS: [&str; 16] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1r1akabr1/1c7/2n1b1n2/p1p1p3p/6p2/PN3R3/1cP1P1P1P/2C1C1N2/1R7/2BAKAB2 b - - 0 1",
    "2bak4/9/3a5/p2Np3p/3n1P3/3pc3P/P4r1c1/B2CC2R1/4A4/3AK1B2 b - - 0 1",
    "r1b1kabr1/4a1c2/1cn3n2/p1p1pR2p/3NP4/2P6/P5p1P/1C2C4/9/RNBAKAB2 b - - 0 1",
    "3k1a3/2P1aP3/4b1n2/8C/6b2/1R5R1/9/9/1rcpr4/3c1K3 w - - 0 1",
    "6b2/3ka1N2/5a3/p3p4/1n3P3/P1N5C/5nc2/3AB4/9/3AK1B2 b - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1 w - - 4 3",
    "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 2 2",
    "2bakab2/9/2n1c4/p3p3p/2p6/6R2/P1P1P3P/4C4/9/2BAKAB2 w - - 0 20",
    "4k4/4a4/4ba3/9/2b6/9/9/9/4A4/3AK1R2 w - - 0 40",
    "3k5/9/4b4/9/9/9/4P4/9/4A4/4KA3 w - - 0 50",
];

/// Runs the bench with the hand-written evaluation and then with `net`, and prints the
/// second's nodes per second as a ratio of the first's (a random network of the shipped
/// architecture measures the inference cost before a trained one exists). Returns the ratio.
pub fn compare(depth: i32, net: Arc<Network>, mut out: impl FnMut(&str)) -> f64 {
    out("hand-written evaluation:");
    let (_, hand) = run(depth, None, &mut out);
    out("network:");
    let (_, network) = run(depth, Some(net), &mut out);
    let ratio = network as f64 / hand.max(1) as f64;
    out(&format!("network nps / hand-written nps = {ratio:.3}"));
    ratio
}

/// Runs the bench (with `net`, else the hand-written evaluation); returns (nodes, nodes per
/// second) and prints one line per position.
pub fn run(depth: i32, net: Option<Arc<Network>>, mut out: impl FnMut(&str)) -> (u64, u64) {
    let mut total = 0u64;
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let mut engine = Engine::new();
        engine.set_hash_mb(16);
        engine.set_threads(1);
        engine.set_use_network(net.is_some());
        engine.set_network(net.clone());
        if let Err(e) = engine.set_position(Some(fen), &[]) {
            out(&format!("position {}: {e}", i + 1));
            continue;
        }
        let mut nodes = 0;
        let outcome = engine.search_blocking(
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            |info| nodes = info.nodes,
        );
        total += nodes;
        let best = outcome.best.map_or("(none)".to_string(), |m| m.to_string());
        out(&format!(
            "position {:2} bestmove {best} score {} nodes {nodes}",
            i + 1,
            outcome.score
        ));
    }
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let nps = (total as f64 / secs) as u64;
    out(&format!("{total} nodes {nps} nps"));
    (total, nps)
}
