//! The transposition table: a fixed-size hash of search results keyed by the Zobrist key,
//! shared by all search threads without locks.
//!
//! Each entry (slot) is two `AtomicU64`s: the packed data and `key ^ data`. A reader accepts an entry
//! only if `stored ^ data == key`, so an entry torn by a concurrent writer is simply a miss
//! (the classic lockless-hashing trick). Four entries make a 64-byte bucket, one cache line.
//! Replacement prefers the same key, then the shallowest or oldest entry. Mate scores are
//! stored relative to the node ("mate in n from here") and converted back on probe.
//!
//! Rule verdicts (perpetual check/chase) depend on the path, not the position, so scores in
//! the rule band are never stored as exact values (see `search`).
//!
//! The natural limit (2011 rules 4.2.4: 120 plies without a capture is a draw) makes a
//! position's value depend on its halfmove clock once the limit is within a search's reach.
//! [`table_key`] therefore gives positions near the limit a key of their own per clock
//! bucket, so a result found far from the limit is not reused next to it (or the reverse),
//! and the search takes no cutoffs at all in the last plies ([`NO_CUTOFF_WITHIN`]).
//!
//! Memory comes zeroed from the allocator (`calloc`: on Linux, large blocks are fresh pages
//! the kernel zeroes on first touch), so a large `hashsize` answers `readyok` at once instead
//! of writing gigabytes first. A new game gets a new table the same way rather than zeros
//! written over the old one: writing touches, and so commits, every page of a table a short
//! game barely used (measured: 26 s for 4 GB cleared by two threads, against nothing for a
//! fresh allocation). Pages are faulted in as the search first writes them.

use crate::board::zobrist::GOLDEN;
use crate::board::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

/// Plies before the natural limit from which the key carries a clock bucket: 40, about the
/// longest line a search at game speed reaches (extensions included).
const CLOCK_KEYED_WITHIN: u32 = 40;
/// Width in plies of a clock bucket: narrow, since a few plies decide whether the limit falls
/// inside a line.
const CLOCK_BUCKET: u32 = 4;
/// Within this many plies of the limit, stored scores give no cutoffs: a stored line may reach
/// the limit a ply earlier or later than this one (Pikafish makes the same choice, at 116 of
/// its 120 plies).
pub const NO_CUTOFF_WITHIN: u32 = 4;

/// The key under which the table files a position with Zobrist key `key`, `plies_left` plies
/// before the natural limit of the rules in force: the key itself far from the limit, mixed
/// with the clock's bucket near it.
#[inline]
pub fn table_key(key: u64, plies_left: u32) -> u64 {
    if plies_left > CLOCK_KEYED_WITHIN {
        return key;
    }
    let bucket = u64::from((CLOCK_KEYED_WITHIN - plies_left) / CLOCK_BUCKET) + 1;
    // A fixed odd multiplier then an xor-shift (the first half of `zobrist::mix64`) spreads
    // the small bucket number over all 64 bits. Kept as it is: the keys of every stored
    // search, and so the bench signature, depend on it.
    let mut z = bucket.wrapping_mul(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    key ^ z ^ (z >> 31)
}

/// How a stored score bounds the true value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    None = 0,
    Upper = 1,
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// How a search's result `best` bounds the node's value, searched in the window
    /// (`orig_alpha`, `beta`): exact only where a move raised alpha.
    #[inline]
    pub fn of_result(best: i32, orig_alpha: i32, beta: i32, raised_by_a_move: bool) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if raised_by_a_move && best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// A decoded entry.
#[derive(Copy, Clone, Debug)]
pub struct TtEntry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// One entry: the words `check` and `data`, with `check = key ^ data`.
type Slot = [AtomicU64; 2];

/// A slot in the table: references to its `check` and `data` words.
type SlotRef<'a> = (&'a AtomicU64, &'a AtomicU64);

const BUCKET: usize = 4;

pub struct TranspositionTable {
    /// The slots, zero = empty. A boxed slice of words (not of [`Slot`]) because the zeroed
    /// allocation is asked of `bytemuck`, which knows atomics but not arrays of them.
    words: Box<[AtomicU64]>,
    buckets: usize,
    age: AtomicU8,
    /// Set once a search has used the table since it was allocated.
    used: AtomicBool,
}

fn pack(mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound, age: u8) -> u64 {
    let m = mv.map_or(0, |m| m.to_u16()) as u64;
    let s = (score.clamp(-32767, 32767) as i16 as u16) as u64;
    let e = (eval.clamp(-32767, 32767) as i16 as u16) as u64;
    let d = (depth.clamp(-1, 254) + 1) as u64;
    m | s << 16 | e << 32 | d << 48 | (bound as u64) << 56 | ((age & 0x3f) as u64) << 58
}

fn unpack(data: u64) -> (TtEntry, u8) {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    (
        TtEntry {
            mv: Move::from_u16(data as u16),
            score: (data >> 16) as u16 as i16 as i32,
            eval: (data >> 32) as u16 as i16 as i32,
            depth: ((data >> 48) & 0xff) as i32 - 1,
            bound,
        },
        ((data >> 58) & 0x3f) as u8,
    )
}

/// Memory that must remain to be had beside the table: the search thread's stack (64 MB) and
/// the main worker's tables with room to spare. Under an address-space limit (`ulimit -v`) a
/// table that took everything left the search thread unable to start, and the `go` unanswered.
pub const HEADROOM_MB: usize = 128;

/// Could `mb` megabytes be allocated now? Asked of the allocator and given back at once; a
/// zeroed block that large is a fresh mapping (on Linux), so the question costs no memory.
pub fn can_allocate_mb(mb: usize) -> bool {
    let probe = bytemuck::allocation::try_zeroed_slice_box::<u8>(mb << 20);
    // Without this the optimiser removes an allocation that is never used, and the answer
    // was always yes: 256 threads' tables then took every byte and the process aborted.
    std::hint::black_box(&probe);
    probe.is_ok()
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). If the memory cannot be had,
    /// with [`HEADROOM_MB`] more beside it for the search that will use it, the size is
    /// halved until it can: a too-large `hashsize` must not crash the engine, nor leave no
    /// memory for the search thread ([`TranspositionTable::size_mb`] tells what was had).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.saturating_mul(1 << 20);
        let mut buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let words = loop {
            match bytemuck::allocation::try_zeroed_slice_box::<AtomicU64>(buckets * BUCKET * 2) {
                Ok(words) if buckets == 1 || can_allocate_mb(HEADROOM_MB) => break words,
                Ok(_) => buckets /= 2,
                Err(()) if buckets > 1 => buckets /= 2,
                // Not even one bucket (64 bytes): nothing else in the engine would run either.
                Err(()) => std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Slot; 4]>()),
            }
        };
        TranspositionTable {
            words,
            buckets,
            age: AtomicU8::new(0),
            used: AtomicBool::new(false),
        }
    }

    /// Size in megabytes, as allocated.
    pub fn size_mb(&self) -> usize {
        (self.words.len() * std::mem::size_of::<AtomicU64>()) >> 20
    }

    /// Has a search used the table since it was allocated? An unused table is still all
    /// zeros, and so is empty.
    pub fn is_used(&self) -> bool {
        self.used.load(Ordering::Relaxed)
    }

    /// Called once per search so that old entries lose priority.
    pub fn new_search(&self) {
        self.used.store(true, Ordering::Relaxed);
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    /// The index of `key`'s bucket.
    #[inline]
    fn bucket_index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets as u128) >> 64) as usize
    }

    /// The slots of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: u64) -> impl Iterator<Item = SlotRef<'_>> + Clone {
        let b = self.bucket_index(key);
        let words = &self.words[b * BUCKET * 2..(b + 1) * BUCKET * 2];
        words.chunks_exact(2).map(|w| (&w[0], &w[1]))
    }

    /// Asks the processor to bring `key`'s bucket into its cache, so that the probe a moment
    /// later does not wait for memory: a table of megabytes misses the cache on most probes,
    /// and a search made after a move (the child's first steps) hides most of the wait.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let b = self.bucket_index(key);
            let p = self.words[b * BUCKET * 2..].as_ptr().cast::<i8>();
            // SAFETY: a prefetch is a hint: it reads nothing the program sees and cannot
            // fault, whatever the address (here one inside the table); SSE, which it needs,
            // is part of every x86-64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, with mate scores made relative to the root at `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for (check, data) in self.bucket(key) {
            let data = data.load(Ordering::Relaxed);
            if data != 0 && check.load(Ordering::Relaxed) ^ data == key {
                let (mut e, _) = unpack(data);
                e.score = score_from_tt(e.score, ply);
                return Some(e);
            }
        }
        None
    }

    /// Stores a result. `score` is relative to the root at `ply`.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age.load(Ordering::Relaxed) & 0x3f;
        let bucket = self.bucket(key);
        let same = bucket.clone().find(|(check, data)| {
            let data = data.load(Ordering::Relaxed);
            data == 0 || check.load(Ordering::Relaxed) ^ data == key
        });
        let mut mv = mv;
        let (check, data) = match same {
            Some(slot) => {
                let data = slot.1.load(Ordering::Relaxed);
                if data != 0 {
                    let (old, _) = unpack(data);
                    // Keep a much deeper result for this position unless the new one is exact.
                    if bound != Bound::Exact && old.depth > depth + 2 {
                        return;
                    }
                    mv = mv.or(old.mv);
                }
                slot
            }
            None => {
                // Replace the entry that is shallowest after penalising staleness.
                let value = |s: &SlotRef| {
                    let (e, a) = unpack(s.1.load(Ordering::Relaxed));
                    e.depth - 8 * (age.wrapping_sub(a) & 0x3f) as i32
                };
                match bucket.min_by_key(value) {
                    Some(slot) => slot,
                    None => return, // a bucket always has BUCKET slots
                }
            }
        };
        let d = pack(mv, score_to_tt(score, ply), eval, depth, bound, age);
        data.store(d, Ordering::Relaxed);
        check.store(key ^ d, Ordering::Relaxed);
    }

    /// Permille of the first thousand entries filled by this search (UCI `hashfull`). A
    /// thousand entries (as Stockfish samples) give the permille; reading more cost a
    /// small search (data generation's few thousand nodes) a few percent of its time, as
    /// every iteration reports it.
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed) & 0x3f;
        let n = (self.words.len() / 2).min(1000);
        let used = self.words[..2 * n]
            .iter()
            .skip(1)
            .step_by(2)
            .filter(|data| {
                let d = data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

use super::score::{score_from_tt, score_to_tt};

/// How a search used the table in its main search (the quiescence search, whose probes are
/// off by default, is not counted): probes, probes that found the position, and probes whose
/// entry ended the node. `jiangjun bench` reports them as the table's hit rates.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TableStats {
    pub probes: u64,
    pub hits: u64,
    pub cutoffs: u64,
}

impl TableStats {
    pub fn add(&mut self, other: TableStats) {
        self.probes += other.probes;
        self.hits += other.hits;
        self.cutoffs += other.cutoffs;
    }
}

/// [`TableStats`] summed over a search's threads, which add theirs in batches (with their
/// node counts) rather than at every probe, so the threads do not contend for the counters.
#[derive(Debug, Default)]
pub struct SharedTableStats {
    probes: AtomicU64,
    hits: AtomicU64,
    cutoffs: AtomicU64,
}

impl SharedTableStats {
    pub fn add(&self, s: TableStats) {
        self.probes.fetch_add(s.probes, Ordering::Relaxed);
        self.hits.fetch_add(s.hits, Ordering::Relaxed);
        self.cutoffs.fetch_add(s.cutoffs, Ordering::Relaxed);
    }

    pub fn load(&self) -> TableStats {
        TableStats {
            probes: self.probes.load(Ordering::Relaxed),
            hits: self.hits.load(Ordering::Relaxed),
            cutoffs: self.cutoffs.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The probe really asks the allocator (the optimiser once removed it, and every answer
    /// was yes): a petabyte cannot be had, a megabyte can.
    #[test]
    fn allocation_probe_is_not_optimised_away() {
        assert!(!can_allocate_mb(1 << 30));
        assert!(can_allocate_mb(1));
    }

    /// Threads adding their counts at once lose none of them.
    #[test]
    fn shared_table_stats_sum_every_threads_counts() {
        let shared = SharedTableStats::default();
        let batch = TableStats {
            probes: 7,
            hits: 3,
            cutoffs: 1,
        };
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| (0..1000).for_each(|_| shared.add(batch)));
            }
        });
        let mut expected = TableStats::default();
        (0..4000).for_each(|_| expected.add(batch));
        assert_eq!(shared.load(), expected);
        assert_eq!(expected.probes, 28_000);
    }

    /// `hashfull` counts this search's entries among the first thousand: none in a new
    /// table, about the share stored, none again after the next search starts.
    #[test]
    fn hashfull_is_this_searchs_share_of_the_sample() {
        let tt = TranspositionTable::new(1);
        assert_eq!(tt.hashfull(), 0);
        let mut key = 0x9e37_79b9_7f4a_7c15u64;
        let slots = tt.words.len() / 2;
        for _ in 0..slots / 2 {
            key = key.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            tt.store(key, 0, None, 10, 10, 5, Bound::Exact);
        }
        let full = tt.hashfull();
        assert!((250..=500).contains(&full), "{full}");
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn store_and_probe() {
        let tt = TranspositionTable::new(1);
        let m = Move::from_u16(5 | 20 << 7);
        tt.store(0x1234_5678_9abc_def0, 0, m, -123, 45, 7, Bound::Lower);
        let e = tt.probe(0x1234_5678_9abc_def0, 0).unwrap();
        assert_eq!(
            (e.mv, e.score, e.eval, e.depth, e.bound),
            (m, -123, 45, 7, Bound::Lower)
        );
        assert!(tt.probe(0x1234_5678_9abc_def1, 0).is_none());
        assert!(!tt.is_used(), "only a search marks the table used");
        tt.new_search();
        assert!(tt.is_used());
        // A fresh table is empty (zeroed by the allocator).
        let fresh = TranspositionTable::new(1);
        assert!(fresh.probe(0x1234_5678_9abc_def0, 0).is_none());
        assert_eq!(fresh.size_mb(), 1);
    }

    /// A size the machine cannot give is halved until it can: the engine keeps running with
    /// a smaller table (the session says so at `isready`) instead of aborting.
    #[test]
    fn an_impossible_size_falls_back_to_one_that_works() {
        let asked = usize::MAX >> 20;
        let tt = TranspositionTable::new(asked);
        assert!(tt.size_mb() < asked);
        tt.store(77, 0, None, 5, 0, 3, Bound::Exact);
        assert_eq!(tt.probe(77, 0).map(|e| e.score), Some(5));
    }

    #[test]
    fn keys_near_the_natural_limit_carry_the_clock() {
        let k = 0x0123_4567_89ab_cdef;
        // Far from the limit the clock does not matter.
        assert_eq!(table_key(k, 120), k);
        assert_eq!(table_key(k, CLOCK_KEYED_WITHIN + 1), k);
        // Near it, each bucket has a key of its own, the same within a bucket.
        let near: Vec<u64> = (0..=CLOCK_KEYED_WITHIN)
            .rev()
            .map(|left| table_key(k, left))
            .collect();
        assert!(near.iter().all(|&n| n != k));
        assert_eq!(
            table_key(k, CLOCK_KEYED_WITHIN),
            table_key(k, CLOCK_KEYED_WITHIN - 3)
        );
        let mut buckets = near.clone();
        buckets.dedup();
        assert_eq!(buckets.len(), CLOCK_KEYED_WITHIN as usize / 4 + 1);
        let mut sorted = buckets.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), buckets.len(), "bucket keys are distinct");
    }

    #[test]
    fn mate_scores_are_node_relative() {
        use super::super::score::mate_in;
        let tt = TranspositionTable::new(1);
        // Mate in 5 plies from the root, found at ply 3: mate in 2 from the node.
        tt.store(42, 3, None, mate_in(5), 0, 4, Bound::Exact);
        assert_eq!(tt.probe(42, 1).unwrap().score, mate_in(3));
    }
}
