//! Accumulators: the first layer's output for each perspective, kept up to date move by move.
//!
//! A move changes at most three features per perspective (the moving piece leaves `from` and
//! arrives on `to`; a captured piece leaves `to`), so the new accumulator is the old one plus one
//! row minus one or two: one row's additions instead of ~32 rows'. The [`AccumulatorStack`]
//! mirrors the search's make/unmake: [`AccumulatorStack::push_move`] before (or with)
//! `make_move`, [`AccumulatorStack::pop`] with `unmake_move`. Pushes only record the change;
//! the rows are applied when an evaluation needs them, so nodes that are cut off before they
//! evaluate (transposition-table hits, pruned moves) cost nothing here.
//!
//! With king buckets (feature set 2) a move of a side's own general changes every feature of
//! that side's perspective; that perspective is then rebuilt from a per-thread cache of
//! earlier accumulators, one per palace point (`CachedRefresh`), while the other one is
//! still updated move by move.

use super::features::{king_point, output_bucket, View};
use super::network::Network;
use super::simd::{self, Block, Isa};
use crate::board::square::SQUARES;
use crate::board::{Color, Move, Piece, PieceKind, Position, Square};

/// The first layer's output for one perspective: bias plus the rows of the active features.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Accumulator {
    pub values: Vec<Block>,
}

impl Accumulator {
    /// Computed from scratch: every piece on the board, seen from `perspective`.
    pub fn refresh(net: &Network, isa: Isa, pos: &Position, perspective: Color) -> Accumulator {
        let mut values = net.l1_bias.clone();
        for f in net.view(pos, perspective).active(pos, perspective) {
            simd::add(isa, &mut values, net.row(f));
        }
        Accumulator { values }
    }
}

// The from-scratch evaluation is the network's, but it is two refreshed accumulators and the
// output layer: it lives here, so that `network` does not need this module (which needs it).
impl Network {
    /// Evaluates `pos` from scratch (both accumulators refreshed): centipawns from the side to
    /// move. The search uses an [`AccumulatorStack`] instead.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let isa = Isa::detect();
        let us = Accumulator::refresh(self, isa, pos, pos.side_to_move());
        let them = Accumulator::refresh(self, isa, pos, !pos.side_to_move());
        self.output(isa, &us.values, &them.values, output_bucket(pos))
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

impl Change {
    /// Whether this change moves `perspective`'s general, so that a network whose features
    /// depend on the general's point must rebuild that perspective.
    #[inline(always)]
    fn moves_king_of(self, perspective: Color) -> bool {
        matches!(self, Change::Move { piece, .. }
            if piece.kind() == PieceKind::King && piece.color() == perspective)
    }
}

#[derive(Clone, Copy)]
struct Entry {
    change: Change,
    /// Indexed by [`Color::index`]: whether the stack's values for this ply and perspective are
    /// up to date (else only `change` is known).
    computed: [bool; 2],
}

const EMPTY_ENTRY: Entry = Entry {
    change: Change::Null,
    computed: [false; 2],
};

/// Palace points a general can stand on, per perspective: the refresh cache's slots.
const KING_POINTS: usize = 9;

/// A remembered accumulator for one perspective and one point of its general, with the board
/// it was computed for. Rebuilding a perspective after its general moves (feature set 2) then
/// costs the difference between that board and the current one, usually a few pieces, instead
/// of every piece: the idea Stockfish calls the "Finny table".
#[derive(Clone)]
struct CachedRefresh {
    /// `None` until first used after a [`AccumulatorStack::refresh`].
    board: Option<[Option<Piece>; SQUARES]>,
    values: Vec<Block>,
}

/// One accumulator pair per ply of the current line, for incremental evaluation in a search.
///
/// Usage: [`refresh`](Self::refresh) at the root; [`push_move`](Self::push_move) for every
/// move made and [`pop`](Self::pop) for every move unmade; [`evaluate`](Self::evaluate) where
/// the search wants a score. Entries are reused, so after the first deep line nothing
/// allocates. The stack takes the width of the network it is refreshed with (a different
/// network means a new search, so a new root refresh).
#[derive(Clone)]
pub struct AccumulatorStack {
    entries: Vec<Entry>,
    /// Entry `i`'s accumulator for perspective `p` is blocks `(2i + p) · blocks..` of this.
    values: Vec<Block>,
    /// Blocks per accumulator of the network the stack was last refreshed with.
    blocks: usize,
    /// Entries in use; the top one is the current position's.
    len: usize,
    /// `[perspective][king point]`.
    cache: Vec<CachedRefresh>,
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
            values: Vec::new(),
            blocks: 0,
            len: 0,
            cache: Vec::new(),
            isa,
        }
    }

    /// Starts over from `pos` (the search root): one entry, computed from scratch. Sizes the
    /// stack for `net` and forgets the refresh cache, which may belong to another network.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        let blocks = net.architecture().blocks();
        if blocks != self.blocks || self.values.len() != self.entries.len() * 2 * blocks {
            self.blocks = blocks;
            self.values = vec![Block::ZERO; self.entries.len() * 2 * blocks];
            self.cache = vec![
                CachedRefresh {
                    board: None,
                    values: vec![Block::ZERO; blocks],
                };
                2 * KING_POINTS
            ];
        }
        for c in &mut self.cache {
            c.board = None;
        }
        self.len = 0;
        self.push_entry(Change::Null);
        for p in Color::ALL {
            self.refresh_top(net, pos, p);
        }
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
        self.update(net, pos);
        let (us, them) = (self.slot(self.len - 1, stm), self.slot(self.len - 1, !stm));
        net.output(self.isa, us, them, output_bucket(pos))
    }

    /// The accumulators of `pos` (indexed by colour), bringing the top entry up to date.
    pub fn current(&mut self, net: &Network, pos: &Position) -> [&[Block]; 2] {
        self.update(net, pos);
        Color::ALL.map(|c| self.slot(self.len - 1, c))
    }

    /// Brings the top entry up to date for both perspectives.
    #[inline]
    fn update(&mut self, net: &Network, pos: &Position) {
        if self.len == 0 || self.blocks != net.architecture().blocks() {
            self.refresh(net, pos);
        }
        for p in Color::ALL {
            self.update_perspective(net, pos, p);
        }
    }

    /// Brings the top entry up to date for perspective `p`: from the nearest entry below that
    /// is computed for `p`, move by move; or, where a move of `p`'s general lies between
    /// (feature set 2) or nothing below is computed, rebuilt from the refresh cache.
    #[inline]
    fn update_perspective(&mut self, net: &Network, pos: &Position, p: Color) {
        let top = self.len - 1;
        let king_refreshes = net.architecture().features.king_move_refreshes();
        let mut base = top;
        while !self.entries[base].computed[p.index()] {
            if base == 0 || (king_refreshes && self.entries[base].change.moves_king_of(p)) {
                self.refresh_top(net, pos, p);
                return;
            }
            base -= 1;
        }
        if base == top {
            return;
        }
        // No move of `p`'s general lies above `base`, so the view is the current one.
        let view = net.view(pos, p);
        for i in base + 1..=top {
            self.apply(net, view, i, p);
        }
    }

    /// The accumulator of entry `i` for perspective `p`.
    #[inline(always)]
    fn slot(&self, i: usize, p: Color) -> &[Block] {
        let at = (2 * i + p.index()) * self.blocks;
        &self.values[at..at + self.blocks]
    }

    /// Computes entry `i`'s accumulator for `p` from entry `i - 1`'s and entry `i`'s change.
    #[inline]
    fn apply(&mut self, net: &Network, view: View, i: usize, p: Color) {
        let b = self.blocks;
        let (below, above) = self.values.split_at_mut(2 * i * b);
        let src = &below[(2 * (i - 1) + p.index()) * b..][..b];
        let dst = &mut above[p.index() * b..][..b];
        match self.entries[i].change {
            Change::Null => dst.copy_from_slice(src),
            Change::Move {
                piece,
                from,
                to,
                captured,
            } => {
                let add = net.row(view.feature(p, piece, to));
                let sub = net.row(view.feature(p, piece, from));
                match captured {
                    None => simd::add_sub(self.isa, dst, src, add, sub),
                    Some(c) => {
                        let sub2 = net.row(view.feature(p, c, to));
                        simd::add_sub2(self.isa, dst, src, add, sub, sub2)
                    }
                }
            }
        }
        self.entries[i].computed[p.index()] = true;
    }

    fn push_entry(&mut self, change: Change) {
        if self.len == self.entries.len() {
            self.entries.push(EMPTY_ENTRY);
            self.values
                .resize(self.entries.len() * 2 * self.blocks, Block::ZERO);
        }
        let e = &mut self.entries[self.len];
        e.change = change;
        e.computed = [false; 2];
        self.len += 1;
    }

    /// Rebuilds the top entry's accumulator for `p` from the refresh cache slot of `p`'s
    /// general's point: the pieces that differ between the slot's board and `pos` are taken
    /// off and put on, and the slot keeps the result for the next time.
    fn refresh_top(&mut self, net: &Network, pos: &Position, p: Color) {
        let isa = self.isa;
        // Feature set 1 has one view, so one cache slot per perspective.
        let (view, point) = if net.architecture().features.king_move_refreshes() {
            let point = king_point(pos.king_square(p), p);
            (View::for_king_point(point), point)
        } else {
            (View::PLAIN, 0)
        };
        let slot = &mut self.cache[p.index() * KING_POINTS + point];
        let board = slot.board.get_or_insert_with(|| {
            slot.values.copy_from_slice(&net.l1_bias);
            [None; SQUARES]
        });
        for sq in Square::all() {
            let (old, new) = (board[sq.index()], pos.piece_at(sq));
            if old != new {
                if let Some(piece) = old {
                    simd::sub(isa, &mut slot.values, net.row(view.feature(p, piece, sq)));
                }
                if let Some(piece) = new {
                    simd::add(isa, &mut slot.values, net.row(view.feature(p, piece, sq)));
                }
                board[sq.index()] = new;
            }
        }
        let top = self.len - 1;
        let at = (2 * top + p.index()) * self.blocks;
        self.values[at..at + self.blocks].copy_from_slice(&slot.values);
        self.entries[top].computed[p.index()] = true;
    }

    fn invalidate_all(&mut self) {
        for e in &mut self.entries[..self.len] {
            e.computed = [false; 2];
        }
    }
}
