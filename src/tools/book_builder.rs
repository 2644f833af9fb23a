//! Growing our book from the start position by the engine's own analysis.
//!
//! From the root outwards: at each position every legal move is searched briefly, the
//! most promising few again more deeply, and the moves within `margin` centipawns of the best
//! are kept (at most `max_moves`), weighted by how close they are to the best. The best move's
//! child gets one ply less of budget, alternatives `side_cost` less, so the main line reaches
//! `plies` and side lines stay shorter (with `side_cost` 3 and 3 moves kept the tree grows by
//! about 1.7 per ply instead of 3). Positions are analysed in batches of equal remaining
//! budget, highest first, so when the position cap ends the build it is the lines with the
//! least budget left (short side lines) that are cut, never the main lines. Seed lines (named
//! openings, `book/seeds.txt`) are always explored along their moves, but a seed move the
//! engine refutes (worse than the best by more than twice the margin) is dropped. Positions are
//! merged by their canonical (mirror-folded) key, so transpositions and mirror images are
//! analysed once. Each batch runs in parallel over positions (rayon); one engine with a small
//! table per worker thread, cleared before each position so that a rebuild with the same
//! binary gives the same book.

use crate::board::{Move, Position};
use crate::book::{canonical_key, Entry};
use crate::engine::Engine;
use crate::search::limits::Limits;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

/// Builder settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Depth of the deep search of each candidate child.
    pub depth: i32,
    /// Depth of the quick search of every child.
    pub quick_depth: i32,
    /// How many children get the deep search.
    pub deep_candidates: usize,
    /// Keep moves within this many centipawns of the best.
    pub margin: i32,
    /// Most moves kept per position.
    pub max_moves: usize,
    /// Plies of the main line from the root.
    pub plies: usize,
    /// Budget a side line (not the best move, not a seed move) costs.
    pub side_cost: usize,
    /// Stop after analysing this many positions.
    pub max_positions: usize,
    /// Seed lines: ICCS move lists from the start position.
    pub seeds: Vec<Vec<String>>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            depth: 8,
            quick_depth: 3,
            deep_candidates: 5,
            margin: 25,
            max_moves: 3,
            plies: 14,
            side_cost: 3,
            max_positions: 2000,
            seeds: Vec::new(),
        }
    }
}

/// Reads seed lines: one line of ICCS moves each; `#` starts a comment.
pub fn parse_seeds(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .map(|l| l.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .filter(|v| !v.is_empty())
        .collect()
}

/// A position waiting for analysis (its remaining budget is its key in the waiting map).
struct Node {
    pos: Position,
    /// Seed moves to follow from here.
    seed_moves: Vec<Move>,
}

/// The analysis of one position: kept moves as (move, score).
fn analyse(engine: &mut Engine, pos: &Position, cfg: &Config, seeds: &[Move]) -> Vec<(Move, i32)> {
    // A fresh table per position: which worker thread analyses which position varies from run
    // to run, and a table left over from another position would make the result depend on it.
    engine.new_game();
    let search = |engine: &mut Engine, child: &Position, depth: i32| -> i32 {
        if engine.set_game(child.clone(), &[]).is_err() {
            return 0;
        }
        let out = engine.search_blocking(
            Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            |_| {},
        );
        -out.score
    };
    let mut quick: Vec<(Move, i32)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.make_move(m);
            (m, search(engine, &child, cfg.quick_depth))
        })
        .collect();
    quick.sort_by_key(|&(_, s)| -s);
    let mut candidates: Vec<Move> = Vec::new();
    for m in quick
        .iter()
        .take(cfg.deep_candidates)
        .map(|&(m, _)| m)
        .chain(seeds.iter().copied())
    {
        if !candidates.contains(&m) {
            candidates.push(m);
        }
    }
    let mut deep: Vec<(Move, i32)> = candidates
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.make_move(m);
            (m, search(engine, &child, cfg.depth - 1))
        })
        .collect();
    deep.sort_by_key(|&(_, s)| -s);
    let best = deep.first().map_or(0, |&(_, s)| s);
    let mut kept: Vec<(Move, i32)> = deep
        .iter()
        .filter(|&&(_, s)| s >= best - cfg.margin)
        .take(cfg.max_moves)
        .copied()
        .collect();
    // Seed moves survive unless clearly refuted.
    for &(m, s) in &deep {
        if seeds.contains(&m) && s >= best - 2 * cfg.margin && !kept.iter().any(|&(k, _)| k == m) {
            kept.push((m, s));
        }
    }
    kept
}

/// Weight of a move `diff` centipawns worse than the best: 1000 for the best, halving every
/// `margin / 2` centipawns.
fn weight(diff: i32, margin: i32) -> u16 {
    let half = (margin.max(2) / 2) as f64;
    (1000.0 * 0.5f64.powf(diff.max(0) as f64 / half))
        .round()
        .clamp(1.0, 1000.0) as u16
}

/// Builds the book entries. `progress` gets a line per batch.
pub fn build(cfg: &Config, progress: impl Fn(&str) + Sync) -> Result<Vec<Entry>, String> {
    let start = Instant::now();
    // Seed moves by canonical key of the position they are played from.
    let mut seed_map: HashMap<u64, Vec<Move>> = HashMap::new();
    for (i, line) in cfg.seeds.iter().enumerate() {
        let mut pos = Position::startpos();
        for text in line {
            let m = pos
                .parse_move(text)
                .map_err(|e| format!("seed line {}: {text}: {e}", i + 1))?;
            seed_map.entry(pos.key()).or_default().push(m);
            pos.make_move(m);
        }
    }
    let mut seen: HashSet<u64> = HashSet::new();
    let mut entries = Vec::new();
    let root = Position::startpos();
    seen.insert(canonical_key(&root).0);
    // Positions waiting for analysis, by the budget they have left. A child always has less
    // budget than its parent, so taking the highest budget first analyses every parent before
    // its children, the main lines (which lose one ply of budget per move) before the side
    // lines, and lets the position cap cut the lines with the least budget left.
    let mut waiting: BTreeMap<usize, Vec<Node>> = BTreeMap::new();
    waiting.insert(
        cfg.plies,
        vec![Node {
            seed_moves: seed_map.get(&root.key()).cloned().unwrap_or_default(),
            pos: root,
        }],
    );
    let mut analysed = 0usize;
    while analysed < cfg.max_positions {
        let Some((budget, mut batch)) = waiting.pop_last() else {
            break;
        };
        batch.truncate(cfg.max_positions - analysed);
        let results: Vec<Vec<(Move, i32)>> = batch
            .par_iter()
            .map_init(
                || {
                    let mut e = Engine::new();
                    e.set_hash_mb(16);
                    e
                },
                |engine, node| analyse(engine, &node.pos, cfg, &node.seed_moves),
            )
            .collect();
        analysed += batch.len();
        for (node, kept) in batch.iter().zip(results) {
            let Some(&(_, best)) = kept.first() else {
                continue;
            };
            let (key, mirrored) = canonical_key(&node.pos);
            for (rank, &(m, s)) in kept.iter().enumerate() {
                let stored = if mirrored { m.mirror_file() } else { m };
                entries.push(Entry {
                    key,
                    mv: stored.to_u16(),
                    weight: weight(best - s, cfg.margin),
                    score: s.clamp(-30_000, 30_000) as i16,
                });
                let is_seed = node.seed_moves.contains(&m);
                let cost = if rank == 0 || is_seed {
                    1
                } else {
                    cfg.side_cost.max(1)
                };
                if budget <= cost {
                    continue;
                }
                let mut child = node.pos.clone();
                child.make_move(m);
                child.clear_history();
                if !seen.insert(canonical_key(&child).0) {
                    continue;
                }
                waiting.entry(budget - cost).or_default().push(Node {
                    seed_moves: seed_map.get(&child.key()).cloned().unwrap_or_default(),
                    pos: child,
                });
            }
        }
        progress(&format!(
            "budget {budget}: analysed {analysed} positions, {} entries, {} waiting, {:.0} s",
            entries.len(),
            waiting.values().map(Vec::len).sum::<usize>(),
            start.elapsed().as_secs_f64()
        ));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_fall_with_distance() {
        assert_eq!(weight(0, 20), 1000);
        assert_eq!(weight(10, 20), 500);
        assert!(weight(100, 20) >= 1);
    }

    #[test]
    fn tiny_build_is_legal_and_reaches_depth() {
        let cfg = Config {
            depth: 2,
            quick_depth: 1,
            deep_candidates: 2,
            margin: 40,
            max_moves: 2,
            plies: 4,
            side_cost: 2,
            max_positions: 12,
            seeds: parse_seeds("h2e2 h9g7 # central cannon v screen horse\n\n"),
        };
        let entries = build(&cfg, |_| {}).unwrap();
        let book = crate::book::Book::from_entries(entries);
        assert!(book.positions() >= 4);
        // The seed line is in the book.
        let mut pos = Position::startpos();
        assert!(book.probe(&pos).iter().any(|b| b.mv.to_string() == "h2e2"));
        pos.play("h2e2").unwrap();
        assert!(!book.probe(&pos).is_empty());
        assert!(build(
            &Config {
                seeds: vec![vec!["zz".into()]],
                ..cfg
            },
            |_| {}
        )
        .is_err());
    }

    /// Two runs give the same book (worker threads analyse positions in a varying order), and
    /// dearer side lines give a smaller tree for the same main-line length.
    #[test]
    fn builds_are_reproducible_and_side_cost_thins_the_tree() {
        let cfg = Config {
            depth: 3,
            quick_depth: 1,
            deep_candidates: 3,
            margin: 40,
            max_moves: 3,
            plies: 5,
            side_cost: 2,
            max_positions: 400,
            seeds: Vec::new(),
        };
        let mut a = build(&cfg, |_| {}).unwrap();
        let mut b = build(&cfg, |_| {}).unwrap();
        let order = |e: &Entry| (e.key, std::cmp::Reverse(e.weight), e.mv);
        a.sort_by_key(order);
        b.sort_by_key(order);
        assert_eq!(a, b);
        let a = crate::book::Book::from_entries(a);
        let thin = crate::book::Book::from_entries(
            build(
                &Config {
                    side_cost: 4,
                    ..cfg.clone()
                },
                |_| {},
            )
            .unwrap(),
        );
        assert!(
            thin.positions() < a.positions(),
            "{} vs {}",
            thin.positions(),
            a.positions()
        );
        // The main line still reaches the full length: some line of book moves is five plies
        // long. (Not necessarily the line of the first moves probed: moves scored alike weigh
        // alike, and the probe may list a side line's move first.)
        fn longest(book: &crate::book::Book, pos: &Position, left: usize) -> usize {
            if left == 0 {
                return 0;
            }
            let mut best = 0;
            for b in book.probe(pos) {
                let mut child = pos.clone();
                child.make_move(b.mv);
                child.clear_history();
                best = best.max(1 + longest(book, &child, left - 1));
            }
            best
        }
        assert_eq!(longest(&thin, &Position::startpos(), cfg.plies), cfg.plies);
    }
}
