//! The opening book from a collection of master games, checked by the engine.
//!
//! 1. [`read_collection`]: every PGN/XQF file under the given paths (folders recursively, in sorted
//!    order), read with the readers of `jiangjun pgn check`. Refused files and games are
//!    reported with their reasons; games not from the start position and repeated copies of
//!    one game (a collection that files each game by player, by event and by opening holds
//!    it up to three times) are counted and left out, so that a game counts once.
//! 2. [`split`]: every `holdout`-th game is kept apart to measure coverage on games the book
//!    never saw.
//! 3. [`collect`]: for the first `plies` plies of each game, per position and move: the games
//!    that played it and their results for the mover. Positions are merged by their canonical
//!    key ([`crate::book::canonical_key`]): transpositions and left-right mirror images count
//!    together; moves are stored in the orientation of the canonical key, as the book does.
//! 4. [`check`]: each position with a move played in at least `min_games` games is searched
//!    to `depth`: once for the engine's best move, then with MultiPV over the masters' moves
//!    and that best move (the other root moves banned), so that every candidate gets a score
//!    from one search. Candidates scoring worse than the best by more than `margin` are
//!    dropped; when all of them are, the engine's best move is kept instead. Weights:
//!    [`weight_raw`].
//!
//! The result is deterministic: files are read in sorted order, every position is searched by
//! one thread with a freshly cleared table, and results are gathered in position order.

use crate::board::GameResult;
use crate::board::{Move, Position};
use crate::book::{canonical_key, mirror_key, Entry};
use crate::engine::Engine;
use crate::records;
use crate::search::limits::Limits;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Settings of the engine check and of what is collected.
#[derive(Clone, Debug)]
pub struct Config {
    /// Plies of each game that are collected.
    pub plies: usize,
    /// A move must have been played in this many games to be a candidate.
    pub min_games: u32,
    /// Search depth of the engine check.
    pub depth: i32,
    /// Candidates worse than the best by more than this (centipawns) are dropped.
    pub margin: i32,
    /// Hash table per worker thread (MB).
    pub hash_mb: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            plies: 24,
            min_games: 4,
            depth: 10,
            margin: 40,
            hash_mb: 16,
        }
    }
}

/// One usable game: its moves from the start position and its result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MasterGame {
    pub moves: Vec<Move>,
    /// `None`: the record gives none (the game still counts as played).
    pub result: Option<GameResult>,
}

/// What reading the collection gave.
#[derive(Debug, Default)]
pub struct Reading {
    /// Usable games, in file order.
    pub games: Vec<MasterGame>,
    pub files: usize,
    /// Files or games that could not be read: `file: game n: reason`.
    pub refused: Vec<String>,
    /// Games that start from another position (puzzles, endgames, fragments).
    pub not_from_start: usize,
    /// Later copies of a game already read (same moves and result).
    pub duplicates: usize,
}

impl Reading {
    /// The summary line: games read and refused.
    pub fn summary(&self) -> String {
        format!(
            "{} games read, {} refused ({} files; left out: {} not from the start position, {} duplicates)",
            self.games.len(),
            self.refused.len(),
            self.files,
            self.not_from_start,
            self.duplicates
        )
    }
}

/// Reads the games of `files`. Nothing is dropped silently: each refusal is in
/// [`Reading::refused`] with its reason, and the games left out are counted.
pub fn read_collection(files: &[PathBuf]) -> Reading {
    let mut r = Reading {
        files: files.len(),
        ..Reading::default()
    };
    let start = Position::startpos();
    let mut seen: HashSet<(Vec<u16>, u8)> = HashSet::new();
    for path in files {
        let mut n = 0;
        let read = records::stream_file(path, None, |g| {
            n += 1;
            let game = match g {
                Ok(game) => game,
                Err(e) => {
                    r.refused.push(format!("{}: game {n}: {e}", path.display()));
                    return ControlFlow::Continue(());
                }
            };
            if game.start.to_fen() != start.to_fen() {
                r.not_from_start += 1;
                return ControlFlow::Continue(());
            }
            let id = (
                game.moves.iter().map(|m| m.to_u16()).collect::<Vec<_>>(),
                game.result.map_or(0, |r| r as u8 + 1),
            );
            if !seen.insert(id) {
                r.duplicates += 1;
                return ControlFlow::Continue(());
            }
            r.games.push(MasterGame {
                moves: game.moves,
                result: game.result,
            });
            ControlFlow::Continue(())
        });
        match read {
            Err(e) => r
                .refused
                .push(format!("{}: cannot read: {e}", path.display())),
            Ok(_) if n == 0 => r
                .refused
                .push(format!("{}: no game in the file", path.display())),
            Ok(_) => {}
        }
    }
    r
}

/// Splits off every `holdout`-th game (the 20th, 40th, … for 20) for measuring; 0 keeps all.
pub fn split(games: Vec<MasterGame>, holdout: usize) -> (Vec<MasterGame>, Vec<MasterGame>) {
    let mut kept = Vec::new();
    let mut held = Vec::new();
    for (i, g) in games.into_iter().enumerate() {
        if holdout > 0 && (i + 1) % holdout == 0 {
            held.push(g);
        } else {
            kept.push(g);
        }
    }
    (kept, held)
}

/// How a move fared in the games that played it, for the side that played it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveStats {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl MoveStats {
    /// The mover's score in the games with a known result, with one win and one loss added
    /// (Laplace's rule), so that two games do not make a move look perfect or hopeless.
    pub fn smoothed_score(&self) -> f64 {
        let known = (self.wins + self.draws + self.losses) as f64;
        (self.wins as f64 + 0.5 * self.draws as f64 + 1.0) / (known + 2.0)
    }
}

/// A position of the collection, in the orientation of its canonical key.
#[derive(Clone, Debug)]
pub struct PositionStats {
    pub fen: String,
    /// By stored move (canonical orientation), in move order.
    pub moves: BTreeMap<u16, MoveStats>,
}

/// The left-right mirror image of a FEN's board (each rank read backwards; run-length digits
/// stay valid reversed).
pub fn mirror_fen(fen: &str) -> String {
    let mut parts = fen.splitn(2, ' ');
    let board = parts.next().unwrap_or("");
    let rest = parts.next();
    let mirrored: Vec<String> = board
        .split('/')
        .map(|rank| rank.chars().rev().collect())
        .collect();
    match rest {
        Some(r) => format!("{} {r}", mirrored.join("/")),
        None => mirrored.join("/"),
    }
}

/// `m` in the orientation of `pos`'s canonical key. In a position that is its own mirror image
/// (the start position) a move and its mirror are the same choice: both are stored as the one
/// with the smaller code, so that 炮二平五 and 炮八平五 count together.
pub fn canonical_move(pos: &Position, m: Move) -> u16 {
    let (_, mirrored) = canonical_key(pos);
    if mirrored {
        m.mirror_file().to_u16()
    } else if pos.key() == mirror_key(pos) {
        m.to_u16().min(m.mirror_file().to_u16())
    } else {
        m.to_u16()
    }
}

/// Per canonical position: the moves played in the first `plies` plies of `games`.
pub fn collect(games: &[MasterGame], plies: usize) -> BTreeMap<u64, PositionStats> {
    let mut out: BTreeMap<u64, PositionStats> = BTreeMap::new();
    for g in games {
        let mut pos = Position::startpos();
        // A position met twice in one game (a repetition) counts the game once.
        let mut counted: HashSet<(u64, u16)> = HashSet::new();
        for (ply, &m) in g.moves.iter().take(plies).enumerate() {
            let stored = canonical_move(&pos, m);
            let (key, mirrored) = canonical_key(&pos);
            if counted.insert((key, stored)) {
                let entry = out.entry(key).or_insert_with(|| {
                    let fen = pos.to_fen();
                    PositionStats {
                        fen: if mirrored { mirror_fen(&fen) } else { fen },
                        moves: BTreeMap::new(),
                    }
                });
                let s = entry.moves.entry(stored).or_default();
                s.games += 1;
                let red_moves = ply % 2 == 0;
                match (g.result, red_moves) {
                    (Some(GameResult::RedWins), true) | (Some(GameResult::BlackWins), false) => {
                        s.wins += 1
                    }
                    (Some(GameResult::RedWins), false) | (Some(GameResult::BlackWins), true) => {
                        s.losses += 1
                    }
                    (Some(GameResult::Draw), _) => s.draws += 1,
                    (None, _) => {}
                }
            }
            pos.make_move(m);
        }
    }
    out
}

/// The positions the engine checks: those with a move played in `min_games` games or more,
/// with only those moves, in key order.
pub fn candidates(
    stats: &BTreeMap<u64, PositionStats>,
    min_games: u32,
) -> Vec<(u64, PositionStats)> {
    stats
        .iter()
        .filter_map(|(&key, p)| {
            let moves: BTreeMap<u16, MoveStats> = p
                .moves
                .iter()
                .filter(|(_, s)| s.games >= min_games.max(1))
                .map(|(&m, &s)| (m, s))
                .collect();
            (!moves.is_empty()).then(|| {
                (
                    key,
                    PositionStats {
                        fen: p.fen.clone(),
                        moves,
                    },
                )
            })
        })
        .collect()
}

/// What the engine check decided for one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    /// Kept moves (canonical orientation) with their score and statistics (`games` 0 for the
    /// engine's own move).
    pub kept: Vec<(u16, i32, MoveStats)>,
    /// The best score of the check (centipawns, side to move).
    pub best: i32,
    /// Masters' moves dropped as refuted.
    pub dropped: usize,
}

/// Searches `pos` to `depth` with `multipv` lines among the root moves not `banned`; the
/// score of each line of the last finished iteration.
fn scores(
    engine: &mut Engine,
    pos: &Position,
    depth: i32,
    banned: &[Move],
    multipv: usize,
) -> (Option<Move>, Vec<(Move, i32)>) {
    if engine.set_game(pos.clone(), &[]).is_err() {
        return (None, Vec::new());
    }
    engine.set_banned(banned);
    let mut last_depth = 0;
    let mut lines: Vec<(Move, i32)> = Vec::new();
    let result = engine.search_blocking(
        Limits {
            depth: Some(depth),
            multipv,
            ..Limits::default()
        },
        |info| {
            if info.depth != last_depth {
                last_depth = info.depth;
                lines.clear();
            }
            if let Some(&m) = info.pv.first() {
                lines.push((m, info.score));
            }
        },
    );
    if multipv <= 1 {
        lines = result.best.map(|m| (m, result.score)).into_iter().collect();
    }
    (result.best, lines)
}

/// The engine check of one position (see the module docs).
pub fn check_position(engine: &mut Engine, p: &PositionStats, cfg: &Config) -> Option<Checked> {
    // A fresh table per position: which worker checks which position varies between runs.
    engine.new_game();
    let pos = Position::from_fen(&p.fen).ok()?;
    let (best_move, _) = scores(engine, &pos, cfg.depth, &[], 1);
    let best_move = best_move?;
    let mut set: Vec<Move> = p
        .moves
        .keys()
        .filter_map(|&m| Move::from_u16(m))
        .filter(|&m| pos.is_legal(m))
        .collect();
    if !set.contains(&best_move) {
        set.push(best_move);
    }
    let banned: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| !set.contains(m))
        .collect();
    let (_, lines) = scores(engine, &pos, cfg.depth, &banned, set.len());
    let best = lines.iter().map(|&(_, s)| s).max()?;
    let mut kept = Vec::new();
    let mut dropped = 0;
    for (&m, &stats) in &p.moves {
        let Some(&(_, s)) = lines.iter().find(|&&(l, _)| l.to_u16() == m) else {
            continue;
        };
        if s >= best - cfg.margin {
            kept.push((m, s, stats));
        } else {
            dropped += 1;
        }
    }
    if kept.is_empty() {
        let (m, s) = *lines.iter().max_by_key(|&&(_, s)| s)?;
        kept.push((m.to_u16(), s, MoveStats::default()));
    }
    Some(Checked {
        kept,
        best,
        dropped,
    })
}

/// A kept move's weight before scaling: `sqrt(games) · 2·score · 0.5^(diff / (margin/2))`,
/// where `score` is the masters' smoothed result with it ([`MoveStats::smoothed_score`],
/// 0.5 for an even move) and `diff` how far its engine score is below the best. Popular moves
/// lead, the square root keeps the second most popular in play, a move that did badly in
/// practice or that the engine likes less loses weight. The engine's own move (no games)
/// counts as one game with an even result.
pub fn weight_raw(stats: &MoveStats, diff: i32, margin: i32) -> f64 {
    let games = stats.games.max(1) as f64;
    let result = if stats.games == 0 {
        0.5
    } else {
        stats.smoothed_score()
    };
    let half = (margin.max(2) / 2) as f64;
    games.sqrt() * 2.0 * result * 0.5f64.powf(diff.max(0) as f64 / half)
}

/// Book entries of a checked position: weights scaled so that the heaviest is 1000.
pub fn entries_of(key: u64, c: &Checked, margin: i32) -> Vec<Entry> {
    let raws: Vec<f64> = c
        .kept
        .iter()
        .map(|(_, s, st)| weight_raw(st, c.best - s, margin))
        .collect();
    let top = raws.iter().cloned().fold(0.0, f64::max);
    c.kept
        .iter()
        .zip(&raws)
        .map(|(&(m, s, _), &r)| Entry {
            key,
            mv: m,
            weight: if top > 0.0 {
                (1000.0 * r / top).round().clamp(1.0, 1000.0) as u16
            } else {
                1
            },
            score: s.clamp(-30_000, 30_000) as i16,
        })
        .collect()
}

/// Totals of a check, for the report.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CheckSummary {
    pub positions: usize,
    pub entries: usize,
    pub dropped: usize,
    pub engine_moves: usize,
    /// The positions where every master move was refuted: FEN, the masters' moves with games
    /// and scores, and the engine's move, for the log.
    pub refuted: Vec<String>,
}

/// Checks every position (in parallel over positions) and returns the book entries.
/// `progress` gets a line now and then: positions checked of total and the time left.
pub fn check(
    positions: &[(u64, PositionStats)],
    cfg: &Config,
    progress: impl Fn(&str) + Sync,
) -> (Vec<Entry>, CheckSummary) {
    let start = Instant::now();
    let done = AtomicUsize::new(0);
    let last = Mutex::new(Instant::now());
    let total = positions.len();
    let results: Vec<Option<Checked>> = positions
        .par_iter()
        .map_init(
            || {
                let mut e = Engine::new();
                e.set_hash_mb(cfg.hash_mb);
                e
            },
            |engine, (_, p)| {
                let c = check_position(engine, p, cfg);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if let Ok(mut t) = last.lock() {
                    if t.elapsed().as_secs() >= 10 || n == total {
                        *t = Instant::now();
                        let secs = start.elapsed().as_secs_f64();
                        let eta = secs / n as f64 * (total - n) as f64;
                        progress(&format!(
                            "checked {n} of {total} positions, {secs:.0} s, about {eta:.0} s left"
                        ));
                    }
                }
                c
            },
        )
        .collect();
    let mut entries = Vec::new();
    let mut summary = CheckSummary::default();
    for ((key, p), c) in positions.iter().zip(results) {
        let Some(c) = c else { continue };
        summary.positions += 1;
        summary.dropped += c.dropped;
        let added = c.kept.iter().filter(|(_, _, s)| s.games == 0).count();
        if added > 0 {
            summary.engine_moves += added;
            summary.refuted.push(describe_refuted(p, &c));
        }
        entries.extend(entries_of(*key, &c, cfg.margin));
    }
    summary.entries = entries.len();
    (entries, summary)
}

/// One line for the log: a position whose master moves were all refuted.
fn describe_refuted(p: &PositionStats, c: &Checked) -> String {
    let show = |m: u16| Move::from_u16(m).map_or("?".to_string(), |m| m.to_string());
    let masters: Vec<String> = p
        .moves
        .iter()
        .map(|(&m, s)| format!("{} ({} games)", show(m), s.games))
        .collect();
    let engine: Vec<String> = c
        .kept
        .iter()
        .map(|&(m, s, _)| format!("{} {s}", show(m)))
        .collect();
    format!(
        "{}: masters {}; engine {} (best {}, {} dropped)",
        p.fen,
        masters.join(", "),
        engine.join(", "),
        c.best,
        c.dropped
    )
}

/// `base`'s entries for positions that `entries` has none of: the masters' book first, the
/// self-analysis book where the masters did not go.
pub fn merge(mut entries: Vec<Entry>, base: &[Entry]) -> Vec<Entry> {
    let have: HashSet<u64> = entries.iter().map(|e| e.key).collect();
    entries.extend(base.iter().filter(|e| !have.contains(&e.key)).copied());
    entries
}

/// Coverage of a book on `games`: of the positions before each of the first `plies` plies,
/// how many have a book move; and the mean number of plies until the first that has none.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Coverage {
    pub positions: usize,
    pub covered: usize,
    pub mean_run: f64,
}

pub fn coverage(book: &crate::book::Book, games: &[MasterGame], plies: usize) -> Coverage {
    let mut c = Coverage::default();
    let mut runs = 0usize;
    for g in games {
        let mut pos = Position::startpos();
        let mut run_open = true;
        for &m in g.moves.iter().take(plies) {
            c.positions += 1;
            if book.probe(&pos).is_empty() {
                run_open = false;
            } else {
                c.covered += 1;
                if run_open {
                    runs += 1;
                }
            }
            pos.make_move(m);
        }
    }
    if !games.is_empty() {
        c.mean_run = runs as f64 / games.len() as f64;
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Book;

    fn record(moves: &str, result: Option<GameResult>) -> MasterGame {
        let mut pos = Position::startpos();
        let moves = moves
            .split_whitespace()
            .map(|t| {
                let m = pos.parse_move(t).unwrap();
                pos.make_move(m);
                m
            })
            .collect();
        MasterGame { moves, result }
    }

    #[test]
    fn mirror_fen_gives_the_mirror_key() {
        let mut pos = Position::startpos();
        pos.play("h2e2").unwrap();
        pos.play("b9c7").unwrap();
        let m = Position::from_fen(&mirror_fen(&pos.to_fen())).unwrap();
        assert_eq!(m.key(), mirror_key(&pos));
        assert_eq!(mirror_fen(&mirror_fen(&pos.to_fen())), pos.to_fen());
    }

    #[test]
    fn mirror_images_and_transpositions_count_together() {
        let games = vec![
            record("h2e2 h9g7", Some(GameResult::RedWins)),
            // The mirror image of the first game.
            record("b2e2 b9c7", Some(GameResult::Draw)),
            record("h2e2 b9c7", Some(GameResult::BlackWins)),
        ];
        let stats = collect(&games, 2);
        // Start position and, after 1. 炮二平五 or its mirror, one position.
        assert_eq!(stats.len(), 2);
        let root = &stats[&canonical_key(&Position::startpos()).0];
        let total: u32 = root.moves.values().map(|s| s.games).sum();
        assert_eq!(total, 3);
        assert_eq!(root.moves.len(), 1, "h2e2 and b2e2 fold into one move");
        let s = root.moves.values().next().unwrap();
        assert_eq!((s.wins, s.draws, s.losses), (1, 1, 1));
        let mut after = Position::startpos();
        after.play("h2e2").unwrap();
        let reply = &stats[&canonical_key(&after).0];
        // h9g7 (after h2e2) is the mirror of b9c7 (after b2e2): one move, two games.
        assert_eq!(reply.moves.values().map(|s| s.games).max(), Some(2));
        assert_eq!(candidates(&stats, 2).len(), 2);
        assert_eq!(candidates(&stats, 4).len(), 0);
    }

    #[test]
    fn weights_follow_frequency_result_and_score() {
        let even = MoveStats {
            games: 16,
            wins: 4,
            draws: 8,
            losses: 4,
        };
        let rare = MoveStats { games: 4, ..even };
        assert!(weight_raw(&even, 0, 40) > weight_raw(&rare, 0, 40));
        let lost = MoveStats {
            wins: 0,
            draws: 4,
            losses: 12,
            ..even
        };
        assert!(weight_raw(&lost, 0, 40) < weight_raw(&even, 0, 40));
        assert!((weight_raw(&even, 20, 40) - weight_raw(&even, 0, 40) / 2.0).abs() < 1e-9);
        let c = Checked {
            kept: vec![(1, 10, even), (2, 10, rare)],
            best: 10,
            dropped: 0,
        };
        let e = entries_of(7, &c, 40);
        assert_eq!(e[0].weight, 1000);
        assert_eq!(e[1].weight, 500);
    }

    #[test]
    fn split_holds_out_every_kth_game() {
        let games: Vec<MasterGame> = (0..10)
            .map(|_| record("h2e2", Some(GameResult::Draw)))
            .collect();
        let (kept, held) = split(games.clone(), 5);
        assert_eq!((kept.len(), held.len()), (8, 2));
        assert_eq!(split(games, 0).1.len(), 0);
    }

    /// A shallow check keeps sound master moves, drops a blunder, and is reproducible.
    #[test]
    fn engine_check_drops_a_blunder_and_repeats_itself() {
        let mut games = Vec::new();
        for _ in 0..3 {
            games.push(record("h2e2 h9g7 h0g2", Some(GameResult::RedWins)));
            // 2. 炮五进四?? gives the cannon away for a pawn next to the king's guards.
            games.push(record("h2e2 h9g7 e2e6", Some(GameResult::BlackWins)));
        }
        let stats = collect(&games, 3);
        let cfg = Config {
            depth: 4,
            margin: 40,
            min_games: 3,
            hash_mb: 1,
            plies: 3,
        };
        let cands = candidates(&stats, cfg.min_games);
        let (a, summary) = check(&cands, &cfg, |_| {});
        let (b, _) = check(&cands, &cfg, |_| {});
        assert_eq!(crate::book::encode(&a), crate::book::encode(&b));
        assert_eq!(summary.positions, 3);
        let book = Book::from_entries(a);
        let mut pos = Position::startpos();
        pos.play("h2e2").unwrap();
        pos.play("h9g7").unwrap();
        let moves: Vec<String> = book.probe(&pos).iter().map(|b| b.mv.to_string()).collect();
        assert!(!moves.contains(&"e2e6".to_string()), "{moves:?}");
        assert!(!moves.is_empty());
        assert!(summary.dropped >= 1);
    }

    #[test]
    fn merge_keeps_the_masters_entry_on_conflict() {
        let e = |key, mv, weight| Entry {
            key,
            mv,
            weight,
            score: 0,
        };
        let merged = merge(vec![e(1, 10, 1000)], &[e(1, 11, 1000), e(2, 12, 1000)]);
        assert_eq!(merged, vec![e(1, 10, 1000), e(2, 12, 1000)]);
    }

    #[test]
    fn coverage_counts_positions_with_a_book_move() {
        let games = vec![record("h2e2 h9g7 h0g2 i9h9", Some(GameResult::Draw))];
        let stats = collect(&games, 2);
        let entries: Vec<Entry> = candidates(&stats, 1)
            .iter()
            .flat_map(|(k, p)| {
                p.moves.keys().map(|&m| Entry {
                    key: *k,
                    mv: m,
                    weight: 1,
                    score: 0,
                })
            })
            .collect::<Vec<_>>();
        let book = Book::from_entries(entries);
        let c = coverage(&book, &games, 4);
        assert_eq!((c.positions, c.covered), (4, 2));
        assert!((c.mean_run - 2.0).abs() < 1e-9);
    }
}
