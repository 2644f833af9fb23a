//! The threads of one search: the main worker on the calling thread and its helpers beside it
//! (lazy SMP: each searches the same position, sharing only the table and the stop flag), each
//! with the statistics its thread kept from the previous search. Threads and their memory are
//! taken as they can be had: a search that cannot have all it was asked for runs with fewer
//! and says so, and always ends with a result.

use super::history::Histories;
use super::limits::Limits;
use super::report::{Report, SearchResult};
use super::shared::Shared;
use super::tt::{self, TableStats};
use super::worker::Worker;
use crate::board::{Move, Position};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// Runs the main worker on this thread and `threads - 1` helpers beside it (lazy SMP), each
/// with the statistics its thread kept in `histories`, which get them back.
pub fn search_threads(
    pos: &Position,
    banned: &[Move],
    shared: &Arc<Shared>,
    limits: &Limits,
    threads: usize,
    histories: &Mutex<Vec<Histories>>,
    report: &mut impl FnMut(Report),
) -> SearchResult {
    let worker = |id: usize, hist: Histories| {
        Worker::new(
            pos.clone(),
            banned,
            id,
            shared.clone(),
            limits.clone(),
            hist,
        )
    };
    // A search that panicked left its statistics as they were: still valid numbers.
    let mut kept = histories.lock().unwrap_or_else(|e| e.into_inner());
    let wanted = threads.max(1);
    kept.truncate(wanted);
    let mut tables = std::mem::take(&mut *kept).into_iter();
    // The main worker first, while memory is plentiful: its first allocations on this thread
    // make the allocator's arena for it (which reserves 128 MB of address space), and a
    // failure there would abort the process. The helpers get what is left.
    let Some(main_hist) = tables.next().or_else(Histories::try_new) else {
        report(Report::Warning(
            "no memory for the search's tables; playing an unsearched move".to_string(),
        ));
        return unsearched(pos, banned);
    };
    let mut main = worker(0, main_hist);
    let mut tables: Vec<Histories> = tables.collect();
    // New tables for the helpers that have none, as many as memory allows (with room for
    // each thread's stack and worker beside them).
    while tables.len() + 1 < wanted && tt::can_allocate_mb(THREAD_MB) {
        match Histories::try_new() {
            Some(h) => tables.push(h),
            None => break,
        }
    }
    let (outcome, returned, started) = std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for (i, hist) in tables.into_iter().enumerate() {
            if !tt::can_allocate_mb(THREAD_MB) {
                break;
            }
            let mut w = worker(i + 1, hist);
            let helper = std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(s, move || {
                    w.run(|_| {});
                    w.into_histories()
                });
            match helper {
                Ok(h) => helpers.push(h),
                // No more threads to be had: the search runs with those it has.
                Err(_) => break,
            }
        }
        let started = 1 + helpers.len();
        let outcome = main.run(|info| report(Report::Info(info.clone())));
        shared.stop.store(true, Ordering::Relaxed);
        let mut returned = vec![main.into_histories()];
        // A helper that panicked starts afresh next time.
        returned.extend(helpers.into_iter().filter_map(|h| h.join().ok()));
        (outcome, returned, started)
    });
    *kept = returned;
    if started < wanted {
        report(Report::Warning(format!(
            "{started} of {wanted} search threads could be started (not enough memory)"
        )));
    }
    SearchResult {
        table: shared.table_stats.load(),
        nodes: shared.nodes.load(Ordering::Relaxed),
        ..outcome
    }
}

/// The stack of each search thread: deep searches recurse deeply.
const SEARCH_STACK: usize = 64 << 20;

/// Memory that must be free before another search thread starts: its stack and its tables,
/// rounded up (a thread that could not have them would abort the process).
const THREAD_MB: usize = 80;

/// Starts the search thread: with the usual stack, else with a smaller one, else `None`.
pub fn spawn_search(search: impl FnOnce() + Send + 'static) -> Option<JoinHandle<()>> {
    spawn_with_stacks(search, &[SEARCH_STACK, SEARCH_STACK / 4])
}

/// Runs `job` on a thread with the first of `stacks` that can be had.
fn spawn_with_stacks(
    job: impl FnOnce() + Send + 'static,
    stacks: &[usize],
) -> Option<JoinHandle<()>> {
    // The closure is consumed by a failed spawn, so it travels in a slot the second try can
    // take it from.
    let job = Arc::new(Mutex::new(Some(job)));
    stacks.iter().find_map(|&stack| {
        let slot = job.clone();
        std::thread::Builder::new()
            .name("search".into())
            .stack_size(stack)
            .spawn(move || {
                if let Some(f) = lock(&slot).take() {
                    f();
                }
            })
            .ok()
    })
}

/// Locks `m`, taking over a lock that a panicking thread left.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The first legal move that is not banned, unsearched: the answer when not even the main
/// thread's tables can be had.
fn unsearched(pos: &Position, banned: &[Move]) -> SearchResult {
    let moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| !banned.contains(m))
        .collect();
    SearchResult {
        best: moves.first().copied(),
        ponder: None,
        score: 0,
        depth: 0,
        root_moves: moves.len(),
        table: TableStats::default(),
        nodes: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn a_thread_that_cannot_have_its_stack_is_started_with_the_next() {
        // An exabyte of stack cannot be had; the job still runs, once, on the second try.
        let runs = Arc::new(AtomicU64::new(0));
        let counted = runs.clone();
        let job = move || {
            counted.fetch_add(1, Ordering::Relaxed);
        };
        let handle = spawn_with_stacks(job, &[1 << 60, 1 << 20]).expect("the second try starts");
        handle.join().expect("the job ends");
        assert_eq!(runs.load(Ordering::Relaxed), 1);
        // Nothing to be had at all: `None`, and the job never ran.
        assert!(spawn_with_stacks(|| unreachable!(), &[1 << 60]).is_none());
    }
}
