//! Running many games on worker threads: schedules for two-engine matches and round robins,
//! engine processes kept per worker, and results handed back in finishing order.
//!
//! Each worker owns its own engine processes (one per engine it has needed so far) and plays
//! one game at a time, so `concurrency` games run at once and engines never share a pipe.
//! A crashed or killed engine is restarted before its next game; if it cannot be restarted,
//! that game is lost by forfeit (4.1.7 treats a player who cannot start as losing).

use super::engine_process::{EngineError, EngineProcess, EngineSpec, IoLog, Timeouts};
use super::game::{play_game, GameConfig, GameRecord};
use super::openings::Opening;
use super::pairing::{multi_round_robin, PairingError};
use super::repetition_referee::Referee;
use crate::board::Color;
use crate::rules::Termination;
use anyhow::Context;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;

/// One game to play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScheduledGame {
    /// 1-based game number in the schedule.
    pub number: u32,
    /// Round (round robin) or game number (match), for the PGN `Round` tag.
    pub round: u32,
    /// Engine indices into the engine list.
    pub red: usize,
    pub black: usize,
    /// Index into the opening list.
    pub opening: usize,
}

/// A played game with its place in the schedule.
#[derive(Debug, Clone)]
pub struct FinishedGame {
    pub game: ScheduledGame,
    pub record: GameRecord,
}

/// Two-engine match: each opening twice with colours swapped (game 2k: engine 0 is Red,
/// game 2k+1: engine 1 is Red), openings in order and reused from the top when they run out.
pub fn match_schedule(games: u32, openings: usize) -> Vec<ScheduledGame> {
    let openings = openings.max(1);
    (0..games)
        .map(|i| {
            let first = i % 2 == 0;
            ScheduledGame {
                number: i + 1,
                round: i + 1,
                red: if first { 0 } else { 1 },
                black: if first { 1 } else { 0 },
                opening: (i as usize / 2) % openings,
            }
        })
        .collect()
}

/// Round robin by the Appendix 1 tables for `engines` entrants (numbered in command-line
/// order, as drawn lots), `cycles` times with colours exchanged each cycle (Appendix 1:
/// "两局制 ... 改执黑棋"). A pairing keeps its opening in every cycle, so both engines play
/// both sides of it.
pub fn round_robin_schedule(
    engines: usize,
    cycles: u32,
    openings: usize,
) -> Result<Vec<ScheduledGame>, PairingError> {
    let n = u32::try_from(engines).unwrap_or(u32::MAX);
    let rounds = multi_round_robin(n, cycles)?;
    let per_cycle = rounds.len() / cycles.max(1) as usize;
    let openings = openings.max(1);
    let mut out = Vec::new();
    let mut in_cycle = 0usize;
    for (ri, round) in rounds.iter().enumerate() {
        if per_cycle > 0 && ri % per_cycle == 0 {
            in_cycle = 0;
        }
        for p in &round.pairings {
            out.push(ScheduledGame {
                number: out.len() as u32 + 1,
                round: round.number,
                red: p.red as usize - 1,
                black: p.black as usize - 1,
                opening: in_cycle % openings,
            });
            in_cycle += 1;
        }
    }
    Ok(out)
}

/// What the workers need besides the schedule.
#[derive(Clone)]
pub struct RunSettings {
    pub game: GameConfig,
    pub timeouts: Timeouts,
    /// Games played at once (at least 1).
    pub concurrency: usize,
    pub log: Option<IoLog>,
}

/// What an engine said about itself when probed.
#[derive(Debug, Clone)]
pub struct EngineInfo {
    pub protocol: super::engine_process::Protocol,
    pub notation: crate::board::RankOrigin,
    pub id_name: Option<String>,
    /// Its `info string` lines while its options were set (see
    /// [`EngineProcess::setup_notes`]).
    pub notes: Vec<String>,
}

/// Starts each engine once and stops it, so that a wrong path or protocol is reported
/// before any game instead of as a string of forfeits.
pub fn probe_engines(
    engines: &[EngineSpec],
    settings: &RunSettings,
) -> anyhow::Result<Vec<EngineInfo>> {
    let mut out = Vec::new();
    for spec in engines {
        let e = EngineProcess::start(spec, settings.timeouts, settings.log.clone(), &spec.name)
            .with_context(|| format!("engine {}", spec.name))?;
        out.push(EngineInfo {
            protocol: e.protocol(),
            notation: e.notation(),
            id_name: e.id_name().map(String::from),
            notes: e.setup_notes().to_vec(),
        });
        e.quit();
    }
    Ok(out)
}

enum Msg {
    Done(Box<FinishedGame>),
    Exit,
}

fn ensure(
    slot: &mut Option<EngineProcess>,
    spec: &EngineSpec,
    settings: &RunSettings,
    worker: usize,
) -> Result<(), EngineError> {
    if let Some(e) = slot.as_mut() {
        if e.is_alive() {
            return Ok(());
        }
    }
    *slot = None;
    let tag = format!("w{worker}:{}", spec.name);
    *slot = Some(EngineProcess::start(
        spec,
        settings.timeouts,
        settings.log.clone(),
        &tag,
    )?);
    Ok(())
}

fn play_one(
    engines: &[EngineSpec],
    procs: &mut [Option<EngineProcess>],
    game: &ScheduledGame,
    opening: &Opening,
    settings: &RunSettings,
    referee: &dyn Referee,
    worker: usize,
) -> GameRecord {
    for (idx, color) in [(game.red, Color::Red), (game.black, Color::Black)] {
        if let Err(e) = ensure(&mut procs[idx], &engines[idx], settings, worker) {
            return GameRecord::forfeit(
                opening,
                color,
                Termination::StartFailure,
                format!("{} could not be started: {e}", engines[idx].name),
            );
        }
    }
    // Two distinct slots: take both out to borrow them mutably at once.
    let (Some(mut red), Some(mut black)) = (procs[game.red].take(), procs[game.black].take())
    else {
        return GameRecord::forfeit(
            opening,
            Color::Red,
            Termination::Aborted,
            "engine slots unavailable".into(),
        );
    };
    let record = play_game(&mut red, &mut black, opening, &settings.game, referee);
    procs[game.red] = Some(red);
    procs[game.black] = Some(black);
    record
}

/// Plays `schedule` on `settings.concurrency` threads. `on_result` runs on the calling thread
/// for each finished game, in finishing order; returning `false` stops the scheduling of
/// further games (games already running are finished and returned). Returns all finished
/// games in schedule order.
pub fn run_games(
    engines: &[EngineSpec],
    openings: &[Opening],
    schedule: Vec<ScheduledGame>,
    settings: &RunSettings,
    referee: Arc<dyn Referee>,
    mut on_result: impl FnMut(&FinishedGame) -> bool,
) -> Vec<FinishedGame> {
    let total = schedule.len();
    let queue = Arc::new(Mutex::new(VecDeque::from(schedule)));
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<Msg>();
    let workers = settings.concurrency.clamp(1, total.max(1));
    let engines: Arc<Vec<EngineSpec>> = Arc::new(engines.to_vec());
    let openings: Arc<Vec<Opening>> = Arc::new(openings.to_vec());
    let mut handles = Vec::new();
    for w in 0..workers {
        let (queue, stop, tx) = (Arc::clone(&queue), Arc::clone(&stop), tx.clone());
        let (engines, openings, referee) = (
            Arc::clone(&engines),
            Arc::clone(&openings),
            Arc::clone(&referee),
        );
        let settings = settings.clone();
        handles.push(thread::spawn(move || {
            let mut procs: Vec<Option<EngineProcess>> = engines.iter().map(|_| None).collect();
            loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let next = queue.lock().ok().and_then(|mut q| q.pop_front());
                let Some(game) = next else { break };
                let opening = openings
                    .get(game.opening)
                    .cloned()
                    .unwrap_or_else(Opening::startpos);
                // A bug in the referee or the runner must cost one game, not hang the match:
                // the game is recorded as aborted (a draw) with the panic's message, and the
                // engines it had taken out are restarted for the next game.
                let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    play_one(
                        &engines,
                        &mut procs,
                        &game,
                        &opening,
                        &settings,
                        referee.as_ref(),
                        w,
                    )
                }));
                let record = played.unwrap_or_else(|panic| {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    GameRecord::aborted(
                        &opening,
                        opening.moves.clone(),
                        format!("runner panicked: {what}"),
                    )
                });
                if tx
                    .send(Msg::Done(Box::new(FinishedGame { game, record })))
                    .is_err()
                {
                    break;
                }
            }
            for p in procs.into_iter().flatten() {
                p.quit();
            }
            let _ = tx.send(Msg::Exit);
        }));
    }
    drop(tx);
    let mut done = Vec::new();
    let mut running = workers;
    while running > 0 {
        match rx.recv() {
            Ok(Msg::Done(g)) => {
                if !on_result(&g) {
                    stop.store(true, Ordering::SeqCst);
                }
                done.push(*g);
            }
            Ok(Msg::Exit) => running -= 1,
            Err(_) => break,
        }
    }
    for h in handles {
        let _ = h.join();
    }
    done.sort_by_key(|g| g.game.number);
    done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn match_schedule_swaps_colours_per_opening() {
        let s = match_schedule(5, 2);
        let v: Vec<(usize, usize, usize)> = s.iter().map(|g| (g.red, g.black, g.opening)).collect();
        assert_eq!(
            v,
            vec![(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1), (0, 1, 0)]
        );
    }

    #[test]
    fn round_robin_counts_and_colours() {
        for n in 2..=9usize {
            let single = round_robin_schedule(n, 1, 3).unwrap();
            assert_eq!(single.len(), n * (n - 1) / 2);
            let double = round_robin_schedule(n, 2, 3).unwrap();
            assert_eq!(double.len(), n * (n - 1));
            // The second cycle repeats each pairing with colours and opening kept together.
            let half = single.len();
            for (a, b) in double[..half].iter().zip(&double[half..]) {
                assert_eq!((a.red, a.black, a.opening), (b.black, b.red, b.opening));
            }
        }
        // Appendix 1, 3 or 4 players: round 1 is 1-(4), 2-3: with 3 the bye goes to 1.
        let s = round_robin_schedule(3, 1, 1).unwrap();
        assert_eq!((s[0].round, s[0].red, s[0].black), (1, 1, 2));
    }
}
