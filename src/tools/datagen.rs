//! Training data for the neural evaluation (`jiangjun datagen`): self-play at a fixed search
//! budget, every useful position labelled with the search score and the game's result, written
//! in the binary format of [`format`](mod@format); a trainer reads it back with [`RecordReader`] (in order)
//! or [`ShuffledReader`] (several files, shuffled through a buffer).
//!
//! ```no_run
//! use jiangjun::tools::datagen::ShuffledReader;
//! // Two shards, a buffer of a million records, seed 7.
//! for r in ShuffledReader::open(&["data.0.bin", "data.1.bin"], 1 << 20, 7) {
//!     let r = r?; // a bad or cut file is a typed error, never a panic
//!     let target = r.result().value(); // 0, 0.5 or 1 for the side to move
//!     let (score, side) = (r.score(), r.side_to_move()); // cp from the side to move
//!     for (piece, square) in r.pieces() {
//!         // features: piece kind and colour on `square`, seen from `side`
//!         let _ = (piece, square, side, score, target);
//!     }
//! }
//! # Ok::<(), jiangjun::tools::datagen::DataError>(())
//! ```
//!
//! # A game
//!
//! 1. **Start.** From the seed and the game's index alone: an opening line (when given, one
//!    chosen at random), then `random_plies` uniformly random legal moves. A start whose
//!    score at the game's budget is beyond ±[`Config::start_score_limit`] (a random move
//!    that hung a piece) is redrawn, up to [`START_TRIES`] times.
//! 2. **Play.** Each side searches with the budget (nodes or depth, one thread, a fresh 8 MB
//!    table per game) and plays the best move. The position is kept unless it is in check,
//!    the best move captures (the score is not quiet), or the score is decisive (a mate or
//!    rule band) or beyond ±[`Config::score_limit`].
//! 3. **End,** checked before every move by the rules' [`Arbiter`] with the whole rule
//!    book, as the match runner checks it ([`crate::rules::arbiter`]): no legal move loses
//!    (2011 rules 4.1.1 mate, 4.1.2 stalemate); a third occurrence of a position is ruled by
//!    the referee (长将 and 长捉 lose, other repetitions draw, 4.1.4, 4.1.5, 4.2.3); the
//!    natural limit draws (4.2.4 as 22.2 counts it); no attacking material on either side
//!    draws (4.2.2); then [`Config::max_plies`] draws. Two adjudications save time: a
//!    decisive search score (a mate or rule win found) ends the game for the side it
//!    favours, and so do [`WIN_PLIES`] searches in a row (both sides) that agree one side is
//!    up by [`WIN_SCORE`] centipawns or more. Every end is counted by its [`Termination`].
//!
//! # Determinism and shards
//!
//! Game `i` depends only on the seed and `i` (its random generator is seeded from both; the
//! search is single-threaded and node-limited), and games are written in index order
//! whatever the thread count, so a seed fixes the file byte for byte. `--shard I/N` plays
//! the games with index ≡ I (mod N); each game is one self-describing chunk carrying the seed
//! and its index, so `cat` of the shard files is a valid file holding exactly the chunks of
//! the unsharded run (in another order). With a depth budget, games are reproducible too, but
//! take as long as the depth needs.

pub mod format;
pub mod games;
pub mod shuffle;

pub use format::{
    Chunk, ChunkReader, DataError, Record, RecordError, RecordReader, RecordWriter, Wdl,
};
pub use shuffle::ShuffledReader;

use super::budget::Budget;
use crate::board::zobrist::splitmix64;
use crate::board::{Color, GameResult, Move, Position};
use crate::engine::{Engine, Evaluation};
use crate::rules::{Arbiter, Ending, GameLog, RuleSet, Termination};
use crate::search::score;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::sync::{mpsc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Nodes a move when no budget is given. At equal CPU time, 2,500-node games gave twice the
/// positions of 5,000-node ones, and the network fine-tuned on them beat the one fine-tuned on
/// the 5,000-node data (docs/training.md, round 5): more positions paid more than deeper labels.
pub const DEFAULT_NODES: u64 = 2500;

/// Searches that must agree on a big advantage before the game is adjudicated.
pub const WIN_PLIES: usize = 4;
/// The advantage (centipawns) those searches must agree on.
pub const WIN_SCORE: i32 = 1500;
/// Attempts at a balanced start before the last one is taken anyway.
pub const START_TRIES: usize = 10;
/// Transposition table per game (MB): ample for a few thousand nodes per move.
pub const HASH_MB: usize = 8;

/// Which games of the run this process plays: those with index ≡ `index` (mod `count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Parses `I/N` (0 ≤ I < N).
    pub fn parse(s: &str) -> Result<Shard, String> {
        let bad = || format!("--shard '{s}' must be I/N with 0 <= I < N");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = i.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// This shard's game indices among `games`.
    pub fn games(self, games: u32) -> impl Iterator<Item = u32> {
        (self.index..games).step_by(self.count.max(1) as usize)
    }
}

/// Everything a run depends on.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games in the whole run (all shards together).
    pub games: u32,
    pub budget: Budget,
    pub seed: u64,
    /// Random legal moves after the opening line.
    pub random_plies: usize,
    /// Opening lines from the start position (legal, checked by the caller); may be empty.
    pub openings: Vec<Vec<Move>>,
    pub shard: Shard,
    /// Games played at once (one search thread each).
    pub threads: usize,
    /// A game this long is drawn.
    pub max_plies: usize,
    /// Positions scored beyond ± this (centipawns) are not kept.
    pub score_limit: i32,
    /// A start scored beyond ± this is redrawn; 0 accepts any start without searching it.
    pub start_score_limit: i32,
    /// Repetition and natural-limit rules of the adjudication and the search.
    pub rules: RuleSet,
    /// The evaluation the searches use (the labels are its search scores).
    pub evaluation: Evaluation,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            games: 100,
            budget: Budget::Nodes(DEFAULT_NODES),
            seed: 1,
            random_plies: 8,
            openings: Vec::new(),
            shard: Shard::ALL,
            threads: 1,
            max_plies: 400,
            score_limit: 2000,
            start_score_limit: 400,
            rules: RuleSet::Cxa2011,
            evaluation: Evaluation::Default,
        }
    }
}

/// Counts over the games played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u64,
    pub red_wins: u64,
    pub draws: u64,
    pub black_wins: u64,
    /// Positions searched (= moves played after the start).
    pub searched: u64,
    pub kept: u64,
    pub skipped_in_check: u64,
    pub skipped_capture: u64,
    /// Decisive scores and scores beyond the limit.
    pub skipped_score: u64,
    /// Games per cause, indexed as [`Termination::ALL`].
    pub endings: [u64; Termination::ALL.len()],
}

impl Stats {
    /// Counts one game's result.
    fn count_result(&mut self, result: GameResult) {
        match result {
            GameResult::Draw => self.draws += 1,
            GameResult::RedWins => self.red_wins += 1,
            GameResult::BlackWins => self.black_wins += 1,
        }
    }

    fn add(&mut self, o: &Stats) {
        self.games += o.games;
        self.red_wins += o.red_wins;
        self.draws += o.draws;
        self.black_wins += o.black_wins;
        self.searched += o.searched;
        self.kept += o.kept;
        self.skipped_in_check += o.skipped_in_check;
        self.skipped_capture += o.skipped_capture;
        self.skipped_score += o.skipped_score;
        for (a, b) in self.endings.iter_mut().zip(o.endings) {
            *a += b;
        }
    }
}

/// What the progress callback sees, after every finished game.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    pub games_done: u64,
    /// The games of the run, where known before they are read.
    pub games_total: Option<u64>,
    pub kept: u64,
    pub elapsed: Duration,
}

/// One game's output.
struct GameOutput {
    records: Vec<Record>,
    stats: Stats,
}

/// A game in progress (self-play, or a recorded game being labelled): the arbiter's log of
/// it, which holds what the engine is given (the set-up position and the moves since).
/// Generated games start at the start position, tests from FENs.
struct GameState {
    log: GameLog,
}

impl GameState {
    fn new() -> GameState {
        GameState::from_start(&Position::startpos())
    }

    /// A game from a set-up position.
    fn from_start(start: &Position) -> GameState {
        GameState {
            log: GameLog::new(start.clone()),
        }
    }

    fn pos(&self) -> &Position {
        self.log.position()
    }

    fn play(&mut self, m: Move) {
        self.log.play(m);
    }

    /// Searches the current position with a given engine; `None` if the engine refuses it
    /// (it cannot: every move was legal) or finds no move.
    fn search(&self, engine: &mut Engine, budget: Budget) -> Option<(Move, i32)> {
        let start = self.log.start().clone();
        engine.set_game(start, self.log.moves()).ok()?;
        let out = engine.search_blocking(budget.limits(), |_| {});
        out.best.map(|m| (m, out.score))
    }

    /// How the game ends before the side to move plays, if it does: by the arbiter (the
    /// whole rule book, 4.2.2 included), then by [`Config::max_plies`].
    fn ended(&self, cfg: &Config) -> Option<Ending> {
        Arbiter::new(cfg.rules).ending(&self.log).or_else(|| {
            (self.log.moves().len() >= cfg.max_plies).then(|| Ending::length_cap(cfg.max_plies))
        })
    }
}

fn new_engine(rules: RuleSet, evaluation: &Evaluation) -> Engine {
    let mut e = Engine::new();
    e.set_hash_mb(HASH_MB);
    e.set_threads(1);
    e.set_rules(rules);
    e.set_evaluation(evaluation);
    e
}

/// The opening moves of a game: a line, then random plies; redrawn while unbalanced.
fn choose_start(cfg: &Config, rng: &mut ChaCha8Rng) -> Vec<Move> {
    let mut moves = Vec::new();
    for _ in 0..START_TRIES {
        let mut g = GameState::new();
        if !cfg.openings.is_empty() {
            for &m in &cfg.openings[rng.random_range(0..cfg.openings.len())] {
                if !g.pos().is_legal(m) {
                    break;
                }
                g.play(m);
            }
        }
        for _ in 0..cfg.random_plies {
            let legal = g.pos().legal_moves();
            if legal.is_empty() {
                break;
            }
            g.play(legal[rng.random_range(0..legal.len())]);
        }
        moves = g.log.moves().to_vec();
        if g.ended(cfg).is_some() {
            continue;
        }
        if cfg.start_score_limit == 0 {
            break;
        }
        let mut engine = new_engine(cfg.rules, &cfg.evaluation);
        match g.search(&mut engine, cfg.budget) {
            Some((_, s)) if s.abs() <= cfg.start_score_limit => break,
            _ => {}
        }
    }
    moves
}

/// Why a searched position is not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Skip {
    /// The evaluation is never asked in check (the search extends it).
    InCheck,
    /// The best move captures: the score is a capture's, not the position's quiet value.
    Capture,
    /// A mate or rule score, or one beyond the limit: no evaluation should learn it.
    Score,
}

fn skip(pos: &Position, best: Move, score: i32, score_limit: i32) -> Option<Skip> {
    if pos.in_check() {
        Some(Skip::InCheck)
    } else if pos.piece_at(best.to()).is_some() {
        Some(Skip::Capture)
    } else if score::is_decisive(score) || score.abs() > score_limit {
        Some(Skip::Score)
    } else {
        None
    }
}

/// Plays game `index` of the run.
fn play_game(cfg: &Config, index: u32) -> GameOutput {
    // SplitMix64 spreads nearby seeds and indices over unrelated generator states.
    let mut rng = ChaCha8Rng::seed_from_u64(splitmix64(cfg.seed ^ splitmix64(u64::from(index))));
    let mut g = GameState::new();
    for m in choose_start(cfg, &mut rng) {
        g.play(m);
    }
    let mut engine = new_engine(cfg.rules, &cfg.evaluation);
    let mut records = Vec::new();
    let mut stats = Stats {
        games: 1,
        ..Stats::default()
    };
    // Scores from Red's side, for the adjudication.
    let mut red_scores: Vec<i32> = Vec::new();
    let ending = loop {
        if let Some(end) = g.ended(cfg) {
            break end;
        }
        let stm = g.pos().side_to_move();
        let Some((best, score)) = g.search(&mut engine, cfg.budget) else {
            break Ending::loss(stm, Termination::NoMove, "the search found no move");
        };
        stats.searched += 1;
        match skip(g.pos(), best, score, cfg.score_limit) {
            Some(Skip::InCheck) => stats.skipped_in_check += 1,
            Some(Skip::Capture) => stats.skipped_capture += 1,
            Some(Skip::Score) => stats.skipped_score += 1,
            None => records.push(Record::new(g.pos(), score, Wdl::Draw)),
        }
        if score::is_decisive(score) {
            let loser = if score > 0 { !stm } else { stm };
            break Ending::loss(loser, Termination::AdjudicatedLoss, "a decisive score");
        }
        red_scores.push(if stm == Color::Red { score } else { -score });
        if let Some(last) = red_scores
            .len()
            .checked_sub(WIN_PLIES)
            .map(|i| &red_scores[i..])
        {
            let reason = format!("{WIN_PLIES} scores beyond {WIN_SCORE} cp");
            if last.iter().all(|&s| s >= WIN_SCORE) {
                break Ending::loss(Color::Black, Termination::AdjudicatedLoss, reason);
            }
            if last.iter().all(|&s| s <= -WIN_SCORE) {
                break Ending::loss(Color::Red, Termination::AdjudicatedLoss, reason);
            }
        }
        g.play(best);
    };
    for r in &mut records {
        r.set_result(ending.result.for_side(r.side_to_move()));
    }
    stats.count_result(ending.result);
    stats.kept = records.len() as u64;
    stats.endings[ending.termination.index()] = 1;
    GameOutput { records, stats }
}

/// Plays this shard's games on `cfg.threads` threads and writes them, one chunk per game in
/// index order, to `out`. `progress` is called on this thread after every finished game.
pub fn generate<W: Write>(
    cfg: &Config,
    out: &mut RecordWriter<W>,
    progress: impl FnMut(&Progress),
) -> io::Result<Stats> {
    let total = cfg.shard.games(cfg.games).count() as u64;
    run_ordered(
        cfg.seed,
        cfg.shard.games(cfg.games),
        Some(total),
        |&i| i,
        cfg.threads,
        |&i| play_game(cfg, i),
        out,
        progress,
    )
}

/// Jobs a thread may be ahead of the writer: a run on `T` threads starts job `k` only once
/// every job before `k - T * AHEAD_PER_THREAD` is written, so at most that many jobs and
/// their outputs are held at once, however many there are. A game that takes longer than
/// about this many others stalls the other threads until it is written.
pub const AHEAD_PER_THREAD: usize = 16;

/// What the threads of [`run_ordered`] share: the jobs not yet taken, and how far the writer is.
struct Feed<I> {
    jobs: I,
    /// Jobs taken (the next job's number).
    taken: usize,
    /// Jobs written, in order.
    written: usize,
    /// The writer failed or a thread panicked: take no more jobs.
    stop: bool,
}

/// Stops the feed when a thread panics, so that no thread waits forever for a job that will
/// never be written (the panic then reaches the caller).
struct StopOnPanic<'a, I>(&'a Mutex<Feed<I>>, &'a Condvar);

impl<I> Drop for StopOnPanic<'_, I> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            lock(self.0).stop = true;
            self.1.notify_all();
        }
    }
}

/// The feed, whether or not a thread panicked holding it (its fields stay consistent).
fn lock<I>(feed: &Mutex<Feed<I>>) -> MutexGuard<'_, Feed<I>> {
    feed.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `work` over `jobs` on `threads` threads and writes each output as one chunk (the run's
/// `seed`, the job's game index), in job order whatever the threads, to `out`. Jobs are taken
/// from the iterator as threads get free, never more than `threads` × [`AHEAD_PER_THREAD`]
/// ahead of the writer, and dropped once done, so `jobs` may be a stream of any length.
/// `progress` is called on this thread after every finished job, with `total` as the number
/// of jobs when it is known.
#[allow(clippy::too_many_arguments)]
fn run_ordered<J: Send, W: Write>(
    seed: u64,
    jobs: impl Iterator<Item = J> + Send,
    total: Option<u64>,
    index: impl Fn(&J) -> u32 + Sync,
    threads: usize,
    work: impl Fn(&J) -> GameOutput + Sync,
    out: &mut RecordWriter<W>,
    mut progress: impl FnMut(&Progress),
) -> io::Result<Stats> {
    let most = total.map_or(usize::MAX, |t| usize::try_from(t).unwrap_or(usize::MAX));
    let threads = threads.clamp(1, most.max(1));
    let ahead = threads * AHEAD_PER_THREAD;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        // The search recurses deeply; the engine gives its own threads the same.
        .stack_size(64 << 20)
        .build()
        .map_err(io::Error::other)?;
    let feed = Mutex::new(Feed {
        jobs: jobs.fuse(),
        taken: 0,
        written: 0,
        stop: false,
    });
    let room = Condvar::new();
    let start = Instant::now();
    let mut sum = Stats::default();
    pool.in_place_scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, u32, GameOutput)>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (feed, room, index, work) = (&feed, &room, &index, &work);
            s.spawn(move |_| {
                let _guard = StopOnPanic(feed, room);
                loop {
                    // Jobs are handed out in order, so finished ones arrive nearly in order
                    // and the reordering buffer below stays small.
                    let (k, job) = {
                        let mut f = lock(feed);
                        while !f.stop && f.taken >= f.written + ahead {
                            f = room.wait(f).unwrap_or_else(PoisonError::into_inner);
                        }
                        if f.stop {
                            break;
                        }
                        let Some(job) = f.jobs.next() else { break };
                        f.taken += 1;
                        (f.taken - 1, job)
                    };
                    let output = work(&job);
                    if tx.send((k, index(&job), output)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut pending = BTreeMap::new();
        let mut written = 0;
        let (mut done, mut kept) = (0u64, 0u64);
        for (k, game_index, game) in rx.iter() {
            done += 1;
            kept += game.stats.kept;
            pending.insert(k, (game_index, game));
            let before = written;
            while let Some((game_index, game)) = pending.remove(&written) {
                if let Err(e) = out.write_game(seed, game_index, &game.records) {
                    lock(&feed).stop = true;
                    room.notify_all();
                    return Err(e);
                }
                sum.add(&game.stats);
                written += 1;
            }
            progress(&Progress {
                games_done: done,
                games_total: total,
                kept,
                elapsed: start.elapsed(),
            });
            if written > before {
                lock(&feed).written = written;
                room.notify_all();
            }
        }
        Ok(())
    })?;
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(seed: u64) -> Config {
        Config {
            games: 6,
            budget: Budget::Nodes(300),
            seed,
            random_plies: 4,
            max_plies: 40,
            threads: 2,
            ..Config::default()
        }
    }

    fn run(cfg: &Config) -> (Vec<u8>, Stats) {
        let mut w = RecordWriter::new(Vec::new());
        let stats = generate(cfg, &mut w, |_| {}).unwrap();
        (w.finish().unwrap(), stats)
    }

    fn chunks(bytes: Vec<u8>) -> Vec<Chunk> {
        ChunkReader::from_reader("test", io::Cursor::new(bytes))
            .collect::<Result<_, _>>()
            .unwrap()
    }

    /// Jobs come from an iterator as the threads get free, a bounded number ahead of the
    /// writer: a stream of any length is labelled with bounded memory, in order.
    #[test]
    fn jobs_are_taken_from_a_stream_a_bounded_number_ahead() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let (threads, jobs) = (2, 5000);
        let ahead = threads * AHEAD_PER_THREAD;
        let taken = AtomicUsize::new(0);
        let stream = (0..jobs).inspect(|_| {
            taken.fetch_add(1, Ordering::Relaxed);
        });
        let mut w = RecordWriter::new(Vec::new());
        let mut first_written_at = None;
        let stats = run_ordered(
            1,
            stream,
            None,
            |&i| 7 * i,
            threads,
            |&i| GameOutput {
                records: vec![Record::new(&Position::startpos(), i as i32, Wdl::Draw)],
                stats: Stats {
                    games: 1,
                    kept: 1,
                    ..Stats::default()
                },
            },
            &mut w,
            |p| {
                let t = taken.load(Ordering::Relaxed) as u64;
                // Games done are at least the games written, which bound the jobs taken.
                assert!(t <= p.games_done + ahead as u64, "{t} taken, {p:?}");
                first_written_at.get_or_insert(t);
            },
        )
        .unwrap();
        assert_eq!(stats.games, u64::from(jobs));
        // The first game came out while most of the stream was still to be taken.
        assert!(
            first_written_at.unwrap() <= ahead as u64,
            "{first_written_at:?}"
        );
        let chunks = chunks(w.finish().unwrap());
        let games: Vec<u32> = chunks.iter().map(|c| c.game).collect();
        assert_eq!(games, (0..jobs).map(|i| 7 * i).collect::<Vec<_>>());
        let scores: Vec<i32> = chunks
            .iter()
            .map(|c| i32::from(c.records[0].score()))
            .collect();
        assert_eq!(scores, (0..jobs as i32).collect::<Vec<_>>());
        // A writer that fails stops the threads and the stream, and is the run's error.
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::other("disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let taken = AtomicUsize::new(0);
        let stream = (0..u32::MAX).inspect(|_| {
            taken.fetch_add(1, Ordering::Relaxed);
        });
        let mut w = RecordWriter::new(Full);
        // Larger than the writer's buffer: the first game reaches the writer.
        let big = |_: &u32| GameOutput {
            records: vec![Record::new(&Position::startpos(), 0, Wdl::Draw); 3000],
            stats: Stats::default(),
        };
        let e = run_ordered(1, stream, None, |&i| i, threads, big, &mut w, |_| {})
            .expect_err("the writer fails");
        assert_eq!(e.to_string(), "disk full");
        assert!(taken.load(Ordering::Relaxed) <= 2 * ahead);
    }

    #[test]
    fn same_seed_same_bytes_whatever_the_threads() {
        let (a, stats) = run(&tiny(11));
        let (b, _) = run(&Config {
            threads: 1,
            ..tiny(11)
        });
        assert_eq!(a, b);
        assert_eq!(stats.games, 6);
        assert!(stats.kept > 0, "{stats:?}");
        let (c, _) = run(&tiny(12));
        assert_ne!(a, c, "another seed, other games");
        let games: Vec<u32> = chunks(a).iter().map(|c| c.game).collect();
        assert_eq!(games, [0, 1, 2, 3, 4, 5]);
    }

    #[test]
    fn shards_together_are_the_whole_run() {
        let (whole, whole_stats) = run(&tiny(5));
        let mut cat = Vec::new();
        let mut sum = Stats::default();
        for index in 0..4 {
            let (part, stats) = run(&Config {
                shard: Shard { index, count: 4 },
                ..tiny(5)
            });
            cat.extend_from_slice(&part);
            sum.add(&stats);
        }
        assert_eq!(sum, whole_stats);
        let mut merged = chunks(cat);
        merged.sort_by_key(|c| c.game);
        assert_eq!(merged, chunks(whole));
    }

    #[test]
    fn useless_positions_are_not_kept() {
        let cfg = Config {
            games: 4,
            score_limit: 150,
            ..tiny(3)
        };
        let (bytes, stats) = run(&cfg);
        let mut n = 0;
        for r in RecordReader::from_reader("t", io::Cursor::new(bytes)) {
            let r = r.unwrap();
            let pos = r.position().expect("kept positions are legal");
            assert!(!pos.in_check(), "{}", pos.to_fen());
            assert!(i32::from(r.score()).abs() <= 150);
            n += 1;
        }
        assert_eq!(n, stats.kept);
        assert_eq!(
            stats.searched,
            stats.kept + stats.skipped_in_check + stats.skipped_capture + stats.skipped_score
        );
        assert!(
            stats.skipped_score > 0,
            "the low limit skipped some: {stats:?}"
        );
        assert_eq!(stats.red_wins + stats.draws + stats.black_wins, 4);
        assert_eq!(stats.endings.iter().sum::<u64>(), 4);
    }

    #[test]
    fn skip_reasons() {
        let mv = |pos: &Position, m: &str| pos.parse_move(m).unwrap();
        let start = Position::startpos();
        assert_eq!(skip(&start, mv(&start, "h2e2"), 30, 2000), None);
        // The cannon takes the horse.
        assert_eq!(
            skip(&start, mv(&start, "h2h9"), 30, 2000),
            Some(Skip::Capture)
        );
        assert_eq!(
            skip(&start, mv(&start, "h2e2"), 2001, 2000),
            Some(Skip::Score)
        );
        assert_eq!(
            skip(&start, mv(&start, "h2e2"), -2001, 2000),
            Some(Skip::Score)
        );
        let mate = score::mate_in(3);
        assert_eq!(
            skip(&start, mv(&start, "h2e2"), mate, 40_000),
            Some(Skip::Score)
        );
        let rule = score::rule_loss_in(2);
        assert_eq!(
            skip(&start, mv(&start, "h2e2"), rule, 40_000),
            Some(Skip::Score)
        );
        // Black in check from the rook on e5; the king steps aside.
        let check = Position::from_fen("4k4/9/9/9/4R4/9/9/9/9/5K3 b - - 0 1").unwrap();
        assert_eq!(
            skip(&check, mv(&check, "e9d9"), 0, 2000),
            Some(Skip::InCheck)
        );
    }

    #[test]
    fn results_follow_the_side_to_move() {
        let (bytes, _) = run(&tiny(8));
        for c in chunks(bytes) {
            // Within a game every record agrees on the result from Red's side.
            let red: Vec<Wdl> = c.records.iter().map(|r| r.result_for_red()).collect();
            assert!(red.windows(2).all(|w| w[0] == w[1]), "{red:?}");
        }
    }

    fn from_fen(fen: &str) -> GameState {
        GameState::from_start(&Position::from_fen(fen).unwrap())
    }

    fn end(g: &GameState, cfg: &Config) -> Option<(Termination, GameResult)> {
        g.ended(cfg).map(|e| (e.termination, e.result))
    }

    #[test]
    fn games_end_as_the_rules_say() {
        // The arbiter's causes (each tested in rules::arbiter), with the whole rule book.
        let cfg = Config::default();
        let g = from_fen("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1");
        let mate = (Termination::Checkmate, GameResult::RedWins);
        assert_eq!(end(&g, &cfg), Some(mate));
        let mut g = from_fen("4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1");
        for (i, m) in "f5e5 e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9"
            .split(' ')
            .enumerate()
        {
            assert_eq!(end(&g, &cfg), None, "before ply {i}");
            let mv = g.pos().parse_move(m).unwrap();
            g.play(mv);
        }
        let perpetual = (Termination::Repetition, GameResult::BlackWins);
        assert_eq!(end(&g, &cfg), Some(perpetual));
        // 4.2.2 is on in self-play.
        let g = from_fen("3ak4/9/9/9/9/9/9/9/9/3K1A3 w - - 0 1");
        let dead = (Termination::NoAttackingMaterial, GameResult::Draw);
        assert_eq!(end(&g, &cfg), Some(dead));
        // The natural limit counts from the FEN's clock.
        let mut g = from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80");
        assert_eq!(end(&g, &cfg), None);
        let mv = g.pos().parse_move("a1b1").unwrap();
        g.play(mv);
        let limit = (Termination::NaturalLimit, GameResult::Draw);
        assert_eq!(end(&g, &cfg), Some(limit));
        // The length cap is the generator's own.
        let short = Config {
            max_plies: 3,
            ..Config::default()
        };
        let mut g = GameState::new();
        for m in ["h2e2", "h9g7", "h0g2"] {
            let mv = g.pos().parse_move(m).unwrap();
            g.play(mv);
        }
        let cap = (Termination::MaxPlies, GameResult::Draw);
        assert_eq!(end(&g, &short), Some(cap));
    }

    #[test]
    fn shard_arguments() {
        assert_eq!(Shard::parse("2/5"), Ok(Shard { index: 2, count: 5 }));
        for bad in ["5/5", "1/0", "x/2", "3", "-1/4", "1/2/3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let s = Shard { index: 1, count: 3 };
        assert_eq!(s.games(8).collect::<Vec<_>>(), [1, 4, 7]);
        assert_eq!(Shard::ALL.games(3).collect::<Vec<_>>(), [0, 1, 2]);
    }
}
