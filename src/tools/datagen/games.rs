//! Training data from recorded games (`jiangjun datagen --from-games`): every position of a
//! game's main line, after the opening plies, labelled with the search score at a fixed
//! budget and the game's recorded result. Master games bring what self-play at a few thousand
//! nodes lacks: variety (tens of thousands of openings and plans) and results decided by
//! strong players.
//!
//! # What a run does
//!
//! 1. **Read.** The paths (files, or folders searched recursively for `.pgn` and `.xqf`
//!    files) are sorted by path and read as `jiangjun pgn check` reads them (any of our
//!    notations and encodings, or XQF). Every game entry of every file gets the next
//!    running index, read or not, so a game's index names it in the collection. A game
//!    that does not read (an illegal move, a bad tag) and a file that cannot be read at
//!    all are counted and reported (a file is read a game at a time, whatever its size; one
//!    whose reading fails midway keeps the games before the failure); a game without a
//!    decisive or drawn result (`*`) is counted and not labelled.
//! 2. **Label.** `--shard I/N` keeps the games with index ≡ I (mod N). Each kept game is
//!    replayed from its start; the position before each move, from ply `skip_plies` on
//!    (0-based), is searched (one thread, the game's history known to the search, an 8 MB
//!    table fresh per game, as self-play) and kept unless self-play's filters skip it (in
//!    check, best move a capture, a decisive score or one beyond the limit). The position
//!    after the last move is not searched. The result of every record is the game's,
//!    from the side to move.
//!    The games are labelled as they are read, not read first: `threads` games are
//!    labelled at once, and at most about `threads` × ([`READ_AHEAD_PER_THREAD`] +
//!    [`AHEAD_PER_THREAD`](super::AHEAD_PER_THREAD)) games (read ahead, being labelled,
//!    or labelled and waiting for an earlier one to be written) are held at once, however
//!    many the files hold.
//! 3. **Write.** One chunk per labelled game in index order, its header carrying the run's
//!    `--seed` and the game's running index. Nothing here is random, so the seed only
//!    names the run: it and the index decide which games the trainer holds out.
//!    With a node budget the output is the same byte for byte whatever the threads; a
//!    shard's file is the chunks of the whole run with its indices.

use super::{new_engine, run_ordered, skip, GameOutput, GameState, Progress, Shard, Skip};
use super::{Record, RecordWriter, Stats};
use crate::board::GameResult;
use crate::board::{Move, Position};
use crate::engine::Evaluation;
use crate::records;
use crate::rules::RuleSet;
use crate::tools::budget::Budget;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::mpsc;

/// Everything a run from recorded games depends on.
#[derive(Clone, Debug)]
pub struct Config {
    /// Game files and folders.
    pub paths: Vec<PathBuf>,
    pub budget: Budget,
    /// Names the run in every chunk header (the trainer's held-out split depends on it).
    pub seed: u64,
    /// Positions before this ply (0-based) are not searched: the opening is book knowledge
    /// and repeated across games.
    pub skip_plies: usize,
    pub shard: Shard,
    /// Games labelled at once (one search thread each).
    pub threads: usize,
    /// Positions scored beyond ± this (centipawns) are not kept.
    pub score_limit: i32,
    /// The rules the search applies to repetitions in the game's history.
    pub rules: RuleSet,
    /// The evaluation the searches use (the labels are its search scores).
    pub evaluation: Evaluation,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            paths: Vec::new(),
            budget: Budget::Nodes(1000),
            seed: 0,
            skip_plies: 6,
            shard: Shard::ALL,
            threads: 1,
            score_limit: 2000,
            rules: RuleSet::Cxa2011,
            evaluation: Evaluation::Default,
        }
    }
}

/// What reading the paths found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Files opened and read.
    pub files: u64,
    /// Files or folders that could not be read at all, with the reason.
    pub unreadable_files: Vec<String>,
    /// Game entries in the files (each one an index).
    pub games: u64,
    /// Games that could not be read (an illegal or ambiguous move, a bad tag).
    pub unreadable_games: u64,
    /// Games read without a result (`*`): not labelled.
    pub no_result: u64,
    /// Games with a result in this shard: the ones labelled.
    pub in_shard: u64,
}

/// A game to label: its running index, start, moves and result.
#[derive(Clone, Debug)]
pub struct RecordedGame {
    pub index: u32,
    pub start: Position,
    pub moves: Vec<Move>,
    pub result: GameResult,
}

/// Reads the games of `cfg.paths` in one pass and hands this shard's games that have a
/// result to `emit` as they are read, one at a time; `emit` may ask to stop, and then
/// nothing more is read.
pub fn read(cfg: &Config, mut emit: impl FnMut(RecordedGame) -> ControlFlow<()>) -> ReadStats {
    let mut stats = ReadStats::default();
    let (files, bad) = records::game_files(&cfg.paths);
    stats.unreadable_files = bad;
    let mut index: u32 = 0;
    let mut stopped = false;
    for path in files {
        if stopped {
            break;
        }
        let read = records::stream_file(&path, None, |g| {
            let i = index;
            index = index.wrapping_add(1);
            stats.games += 1;
            let Ok(g) = g else {
                stats.unreadable_games += 1;
                return ControlFlow::Continue(());
            };
            let Some(result) = g.result else {
                stats.no_result += 1;
                return ControlFlow::Continue(());
            };
            if i % cfg.shard.count.max(1) != cfg.shard.index {
                return ControlFlow::Continue(());
            }
            stats.in_shard += 1;
            let flow = emit(RecordedGame {
                index: i,
                start: g.start,
                moves: g.moves,
                result,
            });
            stopped = flow.is_break();
            flow
        });
        match read {
            Ok(_) => stats.files += 1,
            Err(e) => stats
                .unreadable_files
                .push(format!("{}: {e}", path.display())),
        }
    }
    stats
}

/// Labels one game's positions.
fn label(cfg: &Config, game: &RecordedGame) -> GameOutput {
    let mut stats = Stats {
        games: 1,
        ..Stats::default()
    };
    stats.count_result(game.result);
    let mut g = GameState::from_start(&game.start);
    let mut engine = new_engine(cfg.rules, &cfg.evaluation);
    let mut records = Vec::new();
    for (ply, &m) in game.moves.iter().enumerate() {
        if ply >= cfg.skip_plies {
            if let Some((best, score)) = g.search(&mut engine, cfg.budget) {
                stats.searched += 1;
                match skip(g.pos(), best, score, cfg.score_limit) {
                    Some(Skip::InCheck) => stats.skipped_in_check += 1,
                    Some(Skip::Capture) => stats.skipped_capture += 1,
                    Some(Skip::Score) => stats.skipped_score += 1,
                    None => {
                        let result = game.result.for_side(g.pos().side_to_move());
                        records.push(Record::new(g.pos(), score, result));
                    }
                }
            }
        }
        if !g.pos().is_legal(m) {
            // Cannot happen: the reader checked every move.
            break;
        }
        g.play(m);
    }
    stats.kept = records.len() as u64;
    GameOutput { records, stats }
}

/// Games read ahead of the labelling threads, per thread: with the jobs the threads may be
/// ahead of the writer ([`AHEAD_PER_THREAD`](super::AHEAD_PER_THREAD)), what bounds the games held at once.
pub const READ_AHEAD_PER_THREAD: usize = 4;

/// Reads the games of `cfg.paths` ([`read`]), labels them on `cfg.threads` threads as they
/// come and writes them, one chunk per game in index order, to `out`: a stream, at most
/// `cfg.threads` × ([`READ_AHEAD_PER_THREAD`] + [`AHEAD_PER_THREAD`](super::AHEAD_PER_THREAD)) games and their
/// records held at once, however many the files hold. `progress` is called on this thread
/// after every game. Returns what reading found and what labelling found.
pub fn label_games<W: Write>(
    cfg: &Config,
    out: &mut RecordWriter<W>,
    progress: impl FnMut(&Progress),
) -> io::Result<(ReadStats, Stats)> {
    let threads = cfg.threads.max(1);
    let (tx, rx) = mpsc::sync_channel(threads * READ_AHEAD_PER_THREAD);
    std::thread::scope(|s| {
        // The reader stops when the labelling does (the receiver is gone).
        let reader = s.spawn(move || {
            read(cfg, |g| match tx.send(g) {
                Ok(()) => ControlFlow::Continue(()),
                Err(_) => ControlFlow::Break(()),
            })
        });
        let labelled = run_ordered(
            cfg.seed,
            rx.into_iter(),
            None,
            |g| g.index,
            threads,
            |g| label(cfg, g),
            out,
            progress,
        );
        let read = reader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        Ok((read, labelled?))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Wdl};
    use crate::tools::datagen::ChunkReader;

    /// Two decisive games (Red wins, Black wins), a draw, a game without a result and a game
    /// with an illegal move; then, Red without a rook, a game Black wins.
    const PGN: &str = include_str!("../../../tests/data/datagen_games.pgn");
    const ODDS: &str = include_str!("../../../tests/data/datagen_odds.pgn");

    fn setup(name: &str) -> (PathBuf, Config) {
        let dir = std::env::temp_dir().join(format!("jj_games_{name}_{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(dir.join("sub/a.pgn"), PGN).unwrap();
        std::fs::write(dir.join("sub/b.PGN"), ODDS).unwrap();
        // Not a game file by its name: not read inside a folder.
        std::fs::write(dir.join("notes.txt"), "[Result \"1-0\"]\n1. h2e2 1-0\n").unwrap();
        let cfg = Config {
            paths: vec![dir.clone()],
            budget: Budget::Nodes(300),
            skip_plies: 2,
            threads: 2,
            seed: 9,
            ..Config::default()
        };
        (dir, cfg)
    }

    fn run(cfg: &Config) -> (Vec<u8>, ReadStats, Stats) {
        let mut w = RecordWriter::new(Vec::new());
        let (read_stats, stats) = label_games(cfg, &mut w, |_| {}).unwrap();
        (w.finish().unwrap(), read_stats, stats)
    }

    #[test]
    fn labels_each_position_with_the_recorded_result() {
        let (dir, cfg) = setup("label");
        let (bytes, read_stats, stats) = run(&cfg);
        assert_eq!(read_stats.files, 2);
        assert_eq!(read_stats.games, 6);
        assert_eq!(read_stats.unreadable_games, 1);
        assert_eq!(read_stats.no_result, 1);
        assert_eq!(read_stats.in_shard, 4);
        assert_eq!((stats.red_wins, stats.black_wins, stats.draws), (1, 2, 1));
        // Plies 2.. of games of 16, 12, 7 and 6 plies.
        assert_eq!(stats.searched, 14 + 10 + 5 + 4);
        assert_eq!(
            stats.searched,
            stats.kept + stats.skipped_in_check + stats.skipped_capture + stats.skipped_score
        );
        let chunks: Vec<_> = ChunkReader::from_reader("t", io::Cursor::new(bytes.clone()))
            .collect::<Result<_, _>>()
            .unwrap();
        let indices: Vec<u32> = chunks.iter().map(|c| c.game).collect();
        assert_eq!(indices, [0, 1, 2, 5]);
        assert!(chunks.iter().all(|c| c.seed == 9));
        let expected = [Wdl::Win, Wdl::Loss, Wdl::Draw, Wdl::Loss];
        let mut kept = 0;
        for (c, red) in chunks.iter().zip(expected) {
            for r in &c.records {
                kept += 1;
                assert_eq!(r.result_for_red(), red, "game {}", c.game);
                // From the side to move: Black's records of Red's win are losses.
                let own = if r.side_to_move() == Color::Red {
                    red
                } else {
                    red.flip()
                };
                assert_eq!(r.result(), own);
                let pos = r.position().unwrap();
                assert!(!pos.in_check());
            }
            // Both sides' positions are labelled.
            assert!(c.records.iter().any(|r| r.side_to_move() == Color::Red));
            assert!(c.records.iter().any(|r| r.side_to_move() == Color::Black));
        }
        assert_eq!(kept, stats.kept);
        // Scores are from the side to move: down a rook for Red, up a rook for Black.
        for r in &chunks[3].records {
            let s = i32::from(r.score());
            match r.side_to_move() {
                Color::Red => assert!(s < -300, "{s}"),
                Color::Black => assert!(s > 300, "{s}"),
            }
        }
        // The first searched position (after 2 plies) is the one a fresh search labels.
        let mut g = GameState::new();
        for m in ["h2e2", "h9g7"] {
            let mv = g.pos().parse_move(m).unwrap();
            g.play(mv);
        }
        let (best, score) = g
            .search(&mut new_engine(cfg.rules, &cfg.evaluation), cfg.budget)
            .unwrap();
        let first = chunks[0].records[0];
        let labelled = Record::new(g.pos(), score, Wdl::Win);
        if skip(g.pos(), best, score, cfg.score_limit).is_none() {
            assert_eq!(first, labelled);
        } else {
            assert_ne!(first.position(), labelled.position());
        }
        // Deterministic whatever the threads.
        let (again, _, _) = run(&Config {
            threads: 1,
            ..cfg.clone()
        });
        assert_eq!(again, bytes);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The games are handed out one at a time as they are read, and reading stops (reads
    /// nothing more) when the receiver asks.
    #[test]
    fn games_are_handed_out_as_they_are_read() {
        let (dir, cfg) = setup("stream");
        let mut seen = Vec::new();
        let stats = read(&cfg, |g| {
            seen.push(g.index);
            ControlFlow::Continue(())
        });
        assert_eq!(seen, [0, 1, 2, 5]);
        assert_eq!((stats.files, stats.games), (2, 6));
        seen.clear();
        let stats = read(&cfg, |g| {
            seen.push(g.index);
            if seen.len() == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(seen, [0, 1]);
        assert_eq!((stats.files, stats.games), (1, 2));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn filters_and_shards() {
        let (dir, cfg) = setup("filter");
        let strict = Config {
            score_limit: 20,
            ..cfg.clone()
        };
        let (bytes, _, stats) = run(&strict);
        assert!(stats.skipped_score > 0, "{stats:?}");
        for c in ChunkReader::from_reader("t", io::Cursor::new(bytes)) {
            for r in c.unwrap().records {
                assert!(r.score().abs() <= 20);
            }
        }
        // Shard 1/2 labels games 1 and 5 (game 3 has no result): the whole run's indices.
        let (bytes, read_stats, _) = run(&Config {
            shard: Shard { index: 1, count: 2 },
            ..cfg.clone()
        });
        assert_eq!(read_stats.in_shard, 2);
        let games: Vec<u32> = ChunkReader::from_reader("t", io::Cursor::new(bytes))
            .map(|c| c.unwrap().game)
            .collect();
        assert_eq!(games, [1, 5]);
        // A path that does not exist is reported, not dropped.
        let (_, read_stats, _) = run(&Config {
            paths: vec![dir.join("missing.pgn")],
            ..cfg
        });
        assert_eq!(read_stats.unreadable_files.len(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
