//! Accumulators: the first layer's output for each perspective, kept up to date move by move.
//!
//! A move changes at most three features per perspective (the moving piece leaves `from` and
//! arrives on `to`; a captured piece leaves `to`), so the new accumulator is the old one plus one
//! row minus one or two: 256 additions instead of ~32 rows of 256. The [`AccumulatorStack`]
//! mirrors the search's make/unmake: [`AccumulatorStack::push_move`] before (or with)
//! `make_move`, [`AccumulatorStack::pop`] with `unmake_move`. Pushes only record the change;
//! the rows are applied when an evaluation needs them, so nodes that are cut off before they
//! evaluate (transposition-table hits, pruned moves) cost nothing here.

use super::features::{active_features, feature_index, output_bucket};
use super::network::Network;
use super::simd::{self, Isa, Row};
use super::HIDDEN;
use crate::board::{Color, Move, Piece, Position, Square};

/// The first layer's output for one perspective: bias plus the rows of the active features.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Accumulator {
    pub values: Row,
}

impl Accumulator {
    /// Computed from scratch: every piece on the board, seen from `perspective`.
    pub fn refresh(net: &Network, isa: Isa, pos: &Position, perspective: Color) -> Accumulator {
        let mut acc = Accumulator {
            values: net.l1_bias,
        };
        for f in active_features(pos, perspective) {
            simd::add(isa, &mut acc.values, net.row(f));
        }
        acc
    }
}

/// What a stack entry changed from the one below it.
#[derive(Clone, Copy, Debug)]
enum Change {
    /// A null move: only the side to move changes, which the evaluation reads from the position.
    Null,
    Move {
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
    },
}

#[derive(Clone, Copy)]
struct Entry {
    /// Indexed by [`Color::index`]: Red's perspective, Black's.
    acc: [Accumulator; 2],
    change: Change,
    /// Whether `acc` holds the values for this ply (else only `change` is known).
    computed: bool,
}

const EMPTY_ENTRY: Entry = Entry {
    acc: [Accumulator {
        values: [0; HIDDEN],
    }; 2],
    change: Change::Null,
    computed: false,
};

/// One accumulator pair per ply of the current line, for incremental evaluation in a search.
///
/// Usage: [`refresh`](Self::refresh) at the root; [`push_move`](Self::push_move) for every
/// move made and [`pop`](Self::pop) for every move unmade; [`evaluate`](Self::evaluate) where
/// the search wants a score. Entries are reused, so after the first deep line nothing
/// allocates.
#[derive(Clone)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    /// Entries in use; the top one is the current position's.
    len: usize,
    isa: Isa,
}

impl Default for AccumulatorStack {
    fn default() -> Self {
        AccumulatorStack::new()
    }
}

impl AccumulatorStack {
    /// An empty stack using the fastest loops this processor runs.
    pub fn new() -> AccumulatorStack {
        AccumulatorStack::with_isa(Isa::detect())
    }

    /// An empty stack using the given version of the loops (tests and benches compare them).
    pub fn with_isa(isa: Isa) -> AccumulatorStack {
        AccumulatorStack {
            entries: vec![EMPTY_ENTRY; 128],
            len: 0,
            isa,
        }
    }

    /// Starts over from `pos` (the search root): one entry, computed from scratch.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        self.len = 0;
        self.push_entry(Change::Null);
        self.refresh_top(net, pos);
    }

    /// Records `mv`, about to be made in `pos` (the position *before* the move).
    #[inline]
    pub fn push_move(&mut self, pos: &Position, mv: Move) {
        match pos.piece_at(mv.from()) {
            Some(piece) => self.push(piece, mv.from(), mv.to(), pos.piece_at(mv.to())),
            None => {
                // Not a move of this position; the next evaluation recomputes from scratch.
                debug_assert!(false, "push_move {mv} from an empty square");
                self.push_entry(Change::Null);
                self.invalidate_all();
            }
        }
    }

    /// Records the move `pos` was just reached by (its last history entry), for a search that
    /// pushes after `make_move`. A null move, or a position without history, records no change.
    #[inline]
    pub fn push_made(&mut self, pos: &Position) {
        let last = pos.history().last();
        match last.and_then(|st| st.mv.map(|m| (m, st.captured))) {
            Some((m, captured)) => match pos.piece_at(m.to()) {
                Some(piece) => self.push(piece, m.from(), m.to(), captured),
                None => {
                    debug_assert!(false, "push_made: nothing on {}", m.to());
                    self.push_entry(Change::Null);
                    self.invalidate_all();
                }
            },
            None => self.push_null(),
        }
    }

    /// Records `piece` moving `from` → `to`, capturing `captured`.
    #[inline]
    pub fn push(&mut self, piece: Piece, from: Square, to: Square, captured: Option<Piece>) {
        self.push_entry(Change::Move {
            piece,
            from,
            to,
            captured,
        });
    }

    /// Records a null move (search's null-move pruning).
    #[inline]
    pub fn push_null(&mut self) {
        self.push_entry(Change::Null);
    }

    /// Forgets the last push (the search unmade that move). The root entry stays.
    #[inline]
    pub fn pop(&mut self) {
        if self.len > 1 {
            self.len -= 1;
        }
    }

    /// Plies recorded above the root.
    pub fn depth(&self) -> usize {
        self.len.saturating_sub(1)
    }

    /// Centipawns from the side to move of `pos`, which must be the position the pushes led
    /// to. Applies any pending changes first.
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let stm = pos.side_to_move();
        let isa = self.isa;
        let acc = self.current(net, pos);
        net.output(
            isa,
            &acc[stm.index()].values,
            &acc[(!stm).index()].values,
            output_bucket(pos),
        )
    }

    /// The accumulators of `pos` (indexed by colour), bringing the top entry up to date: from
    /// the nearest computed entry below it, or from scratch if there is none.
    pub fn current(&mut self, net: &Network, pos: &Position) -> &[Accumulator; 2] {
        if self.len == 0 {
            self.refresh(net, pos);
        }
        let top = self.len - 1;
        let mut base = top;
        while !self.entries[base].computed {
            if base == 0 {
                self.refresh_top(net, pos);
                return &self.entries[top].acc;
            }
            base -= 1;
        }
        for i in base + 1..=top {
            let (below, above) = self.entries.split_at_mut(i);
            apply(net, self.isa, &below[i - 1].acc, &mut above[0]);
        }
        &self.entries[top].acc
    }

    fn push_entry(&mut self, change: Change) {
        if self.len == self.entries.len() {
            self.entries.push(EMPTY_ENTRY);
        }
        let e = &mut self.entries[self.len];
        e.change = change;
        e.computed = false;
        self.len += 1;
    }

    fn refresh_top(&mut self, net: &Network, pos: &Position) {
        let isa = self.isa;
        let e = &mut self.entries[self.len - 1];
        for c in Color::ALL {
            e.acc[c.index()] = Accumulator::refresh(net, isa, pos, c);
        }
        e.computed = true;
    }

    fn invalidate_all(&mut self) {
        for e in &mut self.entries[..self.len] {
            e.computed = false;
        }
    }
}

/// Computes `entry`'s accumulators from the ones below it and its change.
#[inline]
fn apply(net: &Network, isa: Isa, below: &[Accumulator; 2], entry: &mut Entry) {
    match entry.change {
        Change::Null => entry.acc = *below,
        Change::Move {
            piece,
            from,
            to,
            captured,
        } => {
            for p in Color::ALL {
                let (src, dst) = (&below[p.index()].values, &mut entry.acc[p.index()].values);
                let add = net.row(feature_index(p, piece, to));
                let sub = net.row(feature_index(p, piece, from));
                match captured {
                    None => simd::add_sub(isa, dst, src, add, sub),
                    Some(c) => {
                        let sub2 = net.row(feature_index(p, c, to));
                        simd::add_sub2(isa, dst, src, add, sub, sub2)
                    }
                }
            }
        }
    }
    entry.computed = true;
}
