//! Retrograde analysis: every position of a material signature solved from the mates back.
//!
//! 1. Each entry is set up as a position and its legal moves generated once. Captures leave the
//!    table: their values come from the smaller tables (generated first). A position with no
//!    legal move has lost (mate and stalemate alike, 2011 rules 4.1.2); one with a capture into
//!    a lost position is a win candidate at that distance; the rest count their moves that
//!    stay in the table.
//! 2. Levels of distance to mate, 0, 1, 2 …: a position lost at level `n` makes each
//!    predecessor (found by un-moves, `unmoves`) won at `n + 1`; a position won at `n`
//!    takes one from each predecessor's count of open moves, and a predecessor left with none
//!    has lost one ply after its slowest child.
//! 3. What no level reached is a draw: neither side can force mate. In these drawn positions
//!    the repetition rules decide where one side can only hold by checking (2011 rules 25.1),
//!    or by checks, mate threats and chases against idle answers (24.13, 25.3); other
//!    repetitions stay draws (see docs/tablebases.md).
//! 4. Conversion distances, by levels again: plies to the next capture or the mate, the
//!    winner hastening it and the loser delaying it (`State::conversion`), for the natural
//!    limit (2011 rules 4.2.4).
//!
//! The first step runs on every core (rayon); the levels run on one.

use rayon::prelude::*;

use crate::board::{Color, Move, PieceKind, Position, Square};
use crate::rules::classify::{classify_move, IdBoard, Options};
use crate::rules::nature::NatureClass;

use super::index::{Board, Layout, Placement};
use super::material::Material;
use super::set::TableSet;
use super::stored::StoredTable;
use super::table::Table;
use super::value::{Value, DRAW, ILLEGAL};

/// No candidate: a distance no table reaches.
const NONE: u16 = u16::MAX;
/// The flag, next to an entry's count of moves that capture nothing, of a capture into a
/// position lost by mate (the counts stay below it: at most 6 pieces and a general move).
const CAPTURE_WINS: u8 = 0x80;

/// What step 1 learns about one entry.
#[derive(Clone, Copy)]
struct Start {
    /// [`ILLEGAL`], or 1 while open.
    code: u16,
    /// Moves that stay in the table.
    open: u8,
    /// Moves that capture nothing.
    quiet: u8,
    /// The distance of the fastest capture into a lost position, or [`NONE`].
    win_at: u16,
    /// One more than the slowest capture into a won position (a loss floor), 0 if none.
    loss_floor: u16,
    /// The same three for captures into positions the repetition rules decide, which count
    /// as open until the rules' step: the fastest rule win, the rule loss floor, and how
    /// many captures lead into rule wins for the opponent.
    rule_win_at: u16,
    rule_floor: u16,
    rule_resolved: u8,
}

impl Start {
    const ILLEGAL: Start = Start {
        code: ILLEGAL,
        open: 0,
        quiet: 0,
        win_at: NONE,
        loss_floor: 0,
        rule_win_at: NONE,
        rule_floor: 0,
        rule_resolved: 0,
    };
}

/// What a position's captures lead to, for step 1 and for checks of a finished table.
fn start(pos: &mut Position, others: &TableSet) -> Start {
    let mut s = Start {
        code: DRAW,
        ..Start::ILLEGAL
    };
    for m in pos.legal_moves() {
        if pos.piece_at(m.to()).is_none() {
            s.open += 1;
            s.quiet += 1;
            continue;
        }
        // Made and taken back in place: a copy of the position for each capture would cost an
        // allocation for its history.
        pos.make_move(m);
        let value = others.probe(pos).unwrap_or(Value::Draw);
        pos.unmake_move();
        match value {
            // A capture into a lost position: a win, so never a loss (counted open for good).
            Value::Loss(n) => {
                s.win_at = s.win_at.min(n + 1);
                s.open = s.open.saturating_add(1);
            }
            Value::Win(n) => s.loss_floor = s.loss_floor.max(n + 1),
            // A capture into a draw: the position can never be lost.
            Value::Draw => s.open = s.open.saturating_add(1),
            Value::RuleLoss(n) => {
                s.open = s.open.saturating_add(1);
                s.rule_win_at = s.rule_win_at.min(n + 1);
            }
            Value::RuleWin(n) => {
                s.open = s.open.saturating_add(1);
                s.rule_resolved += 1;
                s.rule_floor = s.rule_floor.max(n + 1);
            }
        }
    }
    s
}

/// The position of an entry's board with `side` to move, if it is a legal one.
fn position(board: Board, side: Color) -> Option<Position> {
    Position::from_placement(board, side, 0, 1).ok()
}

/// Calls `f` with each placement from which `mover` reached this one by a move that captured
/// nothing: the moved piece put back on a point it can have come from. The placements are not
/// checked for legality (the table marks illegal entries).
fn unmoves(
    layout: &Layout,
    placement: &Placement,
    board: &Board,
    mover: Color,
    mut f: impl FnMut(&Placement),
) {
    let pieces = layout.piece_at_place();
    let empty = |s: Square| board[s.index()].is_none();
    for i in 0..layout.pieces() {
        let Some(piece) = pieces[i] else { continue };
        if piece.color() != mover {
            continue;
        }
        let Some(to) = Square::new(placement[i]) else {
            continue;
        };
        let mut back = |from: Square| {
            let mut p = *placement;
            p[i] = from.index() as u8;
            f(&p);
        };
        let fits = |s: Square| crate::board::position::reachable(piece, s) && empty(s);
        match piece.kind() {
            PieceKind::King | PieceKind::Advisor | PieceKind::Elephant => {
                let steps: &[(i8, i8)] = match piece.kind() {
                    PieceKind::King => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
                    PieceKind::Advisor => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
                    _ => &[(2, 2), (2, -2), (-2, 2), (-2, -2)],
                };
                for &(df, dr) in steps {
                    let Some(from) = to.offset(df, dr) else {
                        continue;
                    };
                    if !fits(from) {
                        continue;
                    }
                    // An elephant's eye, the point between, must have been empty.
                    if piece.kind() == PieceKind::Elephant {
                        match to.offset(df / 2, dr / 2) {
                            Some(eye) if empty(eye) => {}
                            _ => continue,
                        }
                    }
                    back(from);
                }
            }
            PieceKind::Rook | PieceKind::Cannon => {
                for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                    let mut s = to;
                    while let Some(from) = s.offset(df, dr) {
                        if !empty(from) {
                            break;
                        }
                        back(from);
                        s = from;
                    }
                }
            }
            PieceKind::Horse => {
                for (df, dr) in [
                    (1, 2),
                    (-1, 2),
                    (1, -2),
                    (-1, -2),
                    (2, 1),
                    (-2, 1),
                    (2, -1),
                    (-2, -1),
                ] {
                    // The move went from `from` by (df, dr); its leg is next to `from`.
                    let Some(from) = to.offset(-df, -dr) else {
                        continue;
                    };
                    let leg = if df.abs() == 2 {
                        from.offset(df / 2, 0)
                    } else {
                        from.offset(0, dr / 2)
                    };
                    if empty(from) && leg.is_some_and(empty) {
                        back(from);
                    }
                }
            }
            PieceKind::Pawn => {
                let ahead: i8 = if mover == Color::Red { 1 } else { -1 };
                if let Some(from) = to.offset(0, -ahead) {
                    if fits(from) {
                        back(from);
                    }
                }
                let crossed = |s: Square| match mover {
                    Color::Red => s.rank() >= 5,
                    Color::Black => s.rank() <= 4,
                };
                for df in [1, -1] {
                    if let Some(from) = to.offset(df, 0) {
                        if crossed(from) && fits(from) {
                            back(from);
                        }
                    }
                }
            }
        }
    }
}

/// Calls `f` with the entry of each legal or illegal position (placement, `mover` to move) that
/// has a move without capture into this entry or into its mirror, once per such move.
///
/// Entries keep Red's general on files d and e. A predecessor with it on file f is the mirror of
/// an entry whose move reaches this entry's mirror, and is counted when that one is decided. An
/// entry with the general on file d also stands for its mirror, which predecessors with the
/// general on file e reach by the mirrored move: their mirrors are entries of their own.
pub fn predecessors(
    layout: &Layout,
    placement: &Placement,
    board: &Board,
    mover: Color,
    mut f: impl FnMut(&Placement),
) {
    let both_ways = placement[0] % 9 == 3;
    unmoves(layout, placement, board, mover, |q| {
        if q[0] % 9 > 4 {
            return;
        }
        f(q);
        if both_ways && q[0] % 9 == 4 {
            f(&mirrored(q, layout.pieces()));
        }
    });
}

/// The placement seen in the board's left-right mirror.
fn mirrored(p: &Placement, pieces: usize) -> Placement {
    let mut m = *p;
    for s in m.iter_mut().take(pieces) {
        *s = *s - *s % 9 + (8 - *s % 9);
    }
    m
}

/// Progress of a generation, for long runs.
pub trait Progress: Sync {
    fn level(&self, _material: Material, _level: u16, _decided: u64) {}
}

/// No progress reports.
pub struct Quiet;
impl Progress for Quiet {}

/// Solves one material signature; `others` must hold every table one capture away (see
/// [`Material::closure`]) except those of dead draws.
pub fn generate(material: Material, others: &TableSet, progress: &dyn Progress) -> Table {
    let layout = Layout::new(material);
    let size = layout.size() as usize;
    let mut codes = [vec![ILLEGAL; size], vec![ILLEGAL; size]];
    let mut open = [vec![0u8; size], vec![0u8; size]];
    let mut floor = [vec![0u16; size], vec![0u16; size]];
    // Moves without capture, and CAPTURE_WINS, for the conversion distances.
    let mut quiet = [vec![0u8; size], vec![0u8; size]];
    // Entries decided at each level (index * 2 + side), and capture wins waiting for theirs.
    let mut levels: Vec<Vec<u64>> = Vec::new();
    let mut candidates: Vec<Vec<u64>> = Vec::new();
    // Captures into results of the repetition rules, for the rules' step.
    let mut rule_starts: Vec<(u64, Start)> = Vec::new();
    // Step 1, on every core, a block of entries at a time (bounded memory).
    const BLOCK: usize = 1 << 20;
    for first in (0..size).step_by(BLOCK) {
        let starts: Vec<[Start; 2]> = (first..size.min(first + BLOCK))
            .into_par_iter()
            .map(|idx| {
                let placement = layout.decode(idx as u64);
                let mut out = [Start::ILLEGAL; 2];
                if let Some(board) = layout.board(&placement) {
                    for side in Color::ALL {
                        if let Some(mut pos) = position(board, side) {
                            out[side.index()] = start(&mut pos, others);
                        }
                    }
                }
                out
            })
            .collect();
        for (i, s) in starts.iter().enumerate() {
            let idx = first + i;
            for (side, st) in s.iter().enumerate() {
                let e = idx as u64 * 2 + side as u64;
                codes[side][idx] = st.code;
                if st.code == ILLEGAL {
                    continue;
                }
                open[side][idx] = st.open;
                debug_assert!(st.quiet < CAPTURE_WINS);
                quiet[side][idx] = st.quiet | if st.win_at != NONE { CAPTURE_WINS } else { 0 };
                floor[side][idx] = st.loss_floor;
                if st.rule_win_at != NONE || st.rule_resolved > 0 {
                    rule_starts.push((e, *st));
                }
                if st.win_at != NONE {
                    push(&mut candidates, st.win_at, e);
                } else if st.open == 0 {
                    // Every move is a capture into a position the opponent wins, or there is no
                    // move at all.
                    codes[side][idx] = Value::Loss(st.loss_floor).code();
                    push(&mut levels, st.loss_floor, e);
                }
            }
        }
    }
    // Step 2: mates.
    let mut state = State {
        layout: &layout,
        codes,
        open,
        floor,
    };
    state.propagate(levels, candidates, false, &|level, decided| {
        progress.level(material, level, decided)
    });
    // Step 3: the repetition rules, in positions no mate decides.
    state.rules(material, rule_starts, others, &|level, decided| {
        progress.level(material, level, decided)
    });
    // Step 4: conversion distances.
    let dtc = state.conversion(quiet);
    let codes = state.codes;
    Table { layout, codes, dtc }
}

/// Adds `e` to the list of `level`.
fn push(v: &mut Vec<Vec<u64>>, level: u16, e: u64) {
    let l = level as usize;
    if v.len() <= l {
        v.resize_with(l + 1, Vec::new);
    }
    v[l].push(e);
}

/// A table being solved: its entries and, for the open ones, their counts of open moves and
/// loss floors.
struct State<'a> {
    layout: &'a Layout,
    codes: [Vec<u16>; 2],
    open: [Vec<u8>; 2],
    floor: [Vec<u16>; 2],
}

impl State<'_> {
    /// Decides level after level from the entries decided at each (`levels`) and the wins
    /// waiting for theirs (`candidates`): a loss at `n` makes its open predecessors won at
    /// `n + 1`, a win takes one from each open predecessor's count, and a predecessor left
    /// with none has lost one ply after its slowest child (or its floor). `rule`: the values
    /// are results by the repetition rules, not mates.
    fn propagate(
        &mut self,
        mut levels: Vec<Vec<u64>>,
        mut candidates: Vec<Vec<u64>>,
        rule: bool,
        progress: &dyn Fn(u16, u64),
    ) {
        let win = |n: u16| {
            if rule {
                Value::RuleWin(n)
            } else {
                Value::Win(n)
            }
        };
        let loss = |n: u16| {
            if rule {
                Value::RuleLoss(n)
            } else {
                Value::Loss(n)
            }
        };
        let layout = self.layout;
        let mut level: usize = 0;
        let mut decided = 0u64;
        while level < levels.len().max(candidates.len()) {
            if level < candidates.len() {
                for e in std::mem::take(&mut candidates[level]) {
                    let (idx, side) = ((e / 2) as usize, (e % 2) as usize);
                    if self.codes[side][idx] == DRAW {
                        self.codes[side][idx] = win(level as u16).code();
                        push(&mut levels, level as u16, e);
                    }
                }
            }
            if level >= levels.len() {
                level += 1;
                continue;
            }
            let here = std::mem::take(&mut levels[level]);
            decided += here.len() as u64;
            for &e in &here {
                let (idx, side) = (e / 2, (e % 2) as usize);
                let placement = layout.decode(idx);
                let Some(board) = layout.board(&placement) else {
                    continue;
                };
                let mover = Color::ALL[1 - side];
                let lost_here = level.is_multiple_of(2);
                predecessors(layout, &placement, &board, mover, |q| {
                    let Some(qi) = layout.encode(q) else { return };
                    let (qi, qs) = (qi as usize, mover.index());
                    if self.codes[qs][qi] != DRAW {
                        return;
                    }
                    let qe = qi as u64 * 2 + qs as u64;
                    if lost_here {
                        self.codes[qs][qi] = win(level as u16 + 1).code();
                        push(&mut levels, level as u16 + 1, qe);
                    } else {
                        self.open[qs][qi] -= 1;
                        if self.open[qs][qi] == 0 {
                            let at = self.floor[qs][qi].max(level as u16 + 1);
                            self.codes[qs][qi] = loss(at).code();
                            push(&mut levels, at, qe);
                        }
                    }
                });
            }
            progress(level as u16, decided);
            level += 1;
        }
    }

    /// The repetition rules in the positions still drawn: a side that can only keep the game
    /// going by checking on every move, while the other side never checks, loses (2011 rules
    /// 4.1.4, 25.1; both sides checking perpetually stays a draw); so does a side that can
    /// only keep it going by checks, mate threats and chases, while the other side answers
    /// with idle moves (24.13, 25.3). Captures into results of the rules in smaller tables are
    /// taken first; then, for each side and each of the two [`Trap`]s, the largest set of
    /// drawn positions in which the side is held this way ([`State::trap`]) is lost by rule at
    /// 0 and propagated, until no side is held any more.
    fn rules(
        &mut self,
        material: Material,
        rule_starts: Vec<(u64, Start)>,
        others: &TableSet,
        progress: &dyn Fn(u16, u64),
    ) {
        // Mate floors mean nothing for results by the rules.
        for side in 0..2 {
            for (f, &c) in self.floor[side].iter_mut().zip(&self.codes[side]) {
                if c == DRAW {
                    *f = 0;
                }
            }
        }
        let mut levels = Vec::new();
        let mut candidates = Vec::new();
        for (e, st) in rule_starts {
            let (idx, side) = ((e / 2) as usize, (e % 2) as usize);
            if self.codes[side][idx] != DRAW {
                continue;
            }
            if st.rule_win_at != NONE {
                push(&mut candidates, st.rule_win_at, e);
            } else {
                self.floor[side][idx] = st.rule_floor;
                self.open[side][idx] -= st.rule_resolved;
                if self.open[side][idx] == 0 {
                    self.codes[side][idx] = Value::RuleLoss(st.rule_floor).code();
                    push(&mut levels, st.rule_floor, e);
                }
            }
        }
        self.propagate(levels, candidates, true, progress);
        loop {
            let mut found = false;
            for x in Color::ALL {
                let side = &material.sides[x.index()];
                for rule in [Trap::Check, Trap::Forbidden] {
                    // Advisors, elephants and the general never check; with neither, a side
                    // chases nothing its king alone could not (26.1).
                    let able = match rule {
                        Trap::Check => side.has_attacker(),
                        Trap::Forbidden => side.has_pieces(),
                    };
                    if !able {
                        continue;
                    }
                    let trap = self.trap(x, rule, others);
                    if trap.is_empty() {
                        continue;
                    }
                    found = true;
                    let mut levels = Vec::new();
                    for idx in trap {
                        self.codes[x.index()][idx] = Value::RuleLoss(0).code();
                        push(&mut levels, 0, idx as u64 * 2 + x.index() as u64);
                    }
                    self.propagate(levels, Vec::new(), true, progress);
                }
            }
            if !found {
                break;
            }
        }
        self.settle_rule_distances(others);
    }

    /// The distances of the results by the rules, made what their moves say. A cycle found in
    /// a later round (another side's, or another rule's) can give a position decided in an
    /// earlier one a quicker way into a cycle; each such result (not the cycles' own positions,
    /// lost at 0) takes the best of its moves' values, again and again until none changes.
    /// Wins only shorten and losses follow, so this ends; mates and draws are not touched (a
    /// mate outranks every result by the rules, and a draw with a move into a result by the
    /// rules was decided when that result was).
    fn settle_rule_distances(&mut self, others: &TableSet) {
        let layout = self.layout;
        let ruled: Vec<(usize, usize)> = (0..2)
            .flat_map(|side| {
                let codes = &self.codes[side];
                (0..codes.len()).filter_map(move |idx| {
                    let v = Value::from_code(codes[idx])?;
                    (v.by_rule() && v != Value::RuleLoss(0)).then_some((side, idx))
                })
            })
            .collect();
        loop {
            let changes: Vec<(usize, usize, u16)> = ruled
                .par_iter()
                .filter_map(|&(side, idx)| {
                    let board = layout.board(&layout.decode(idx as u64))?;
                    let mut pos = position(board, Color::ALL[side])?;
                    let mut best: Option<Value> = None;
                    for m in pos.legal_moves() {
                        let capture = pos.piece_at(m.to()).is_some();
                        pos.make_move(m);
                        let child = if capture {
                            others.probe(&pos).unwrap_or(Value::Draw)
                        } else {
                            layout
                                .index_of_position(&pos, false)
                                .and_then(|ci| Value::from_code(self.codes[1 - side][ci as usize]))
                                .unwrap_or(Value::Draw)
                        };
                        pos.unmake_move();
                        let v = child.before();
                        if best.is_none_or(|b| v.for_mover() > b.for_mover()) {
                            best = Some(v);
                        }
                    }
                    let code = best?.code();
                    (code != self.codes[side][idx]).then_some((side, idx, code))
                })
                .collect();
            if changes.is_empty() {
                break;
            }
            for (side, idx, code) in changes {
                self.codes[side][idx] = code;
            }
        }
    }

    /// The conversion distance of every entry ([`Table::dtc`]), from the final values and each
    /// entry's count of moves without capture (with [`CAPTURE_WINS`]). Levels 0, 1, 2 …: a
    /// position without a move is at 0; a win with a capture into a position lost by mate, and
    /// a loss by mate whose every move captures, at 1. A loss at `n` puts each predecessor
    /// won by mate and not yet reached at `n + 1` (the winner's quickest); a win at `n` takes
    /// one from each predecessor lost by mate, and one left with no move puts it at `n + 1`
    /// (the loser's slowest). Every move of a position lost by mate leads to a win by mate, so
    /// the counts run out, and every position won by mate is reached by the level of its
    /// distance to mate at the latest (the fastest mate is one way to the end). A result by
    /// the repetition rules keeps its distance; a draw gets 0.
    fn conversion(&mut self, quiet: [Vec<u8>; 2]) -> [Vec<u16>; 2] {
        let layout = self.layout;
        let mut dtc = std::mem::take(&mut self.floor);
        let mut open = quiet;
        let mut levels: Vec<Vec<u64>> = Vec::new();
        for side in 0..2 {
            for idx in 0..dtc[side].len() {
                let e = idx as u64 * 2 + side as u64;
                let q = open[side][idx];
                open[side][idx] = q & !CAPTURE_WINS;
                dtc[side][idx] = match Value::from_code(self.codes[side][idx]) {
                    None | Some(Value::Draw) => 0,
                    Some(Value::RuleWin(n) | Value::RuleLoss(n)) => n,
                    Some(Value::Loss(0)) => {
                        push(&mut levels, 0, e);
                        0
                    }
                    Some(Value::Loss(_)) if q & !CAPTURE_WINS == 0 => {
                        push(&mut levels, 1, e);
                        1
                    }
                    Some(Value::Win(_)) if q & CAPTURE_WINS != 0 => {
                        push(&mut levels, 1, e);
                        1
                    }
                    Some(_) => NONE,
                };
            }
        }
        let mut level = 0;
        while level < levels.len() {
            let next = level as u16 + 1;
            for e in std::mem::take(&mut levels[level]) {
                let (idx, side) = (e / 2, (e % 2) as usize);
                let placement = layout.decode(idx);
                let Some(board) = layout.board(&placement) else {
                    continue;
                };
                let lost_here = matches!(
                    Value::from_code(self.codes[side][idx as usize]),
                    Some(Value::Loss(_))
                );
                let mover = Color::ALL[1 - side];
                predecessors(layout, &placement, &board, mover, |q| {
                    let Some(qi) = layout.encode(q) else { return };
                    let (qi, qs) = (qi as usize, mover.index());
                    // Only a win by mate moves into a loss by mate, and only losses by mate
                    // count their moves into wins here.
                    let by_mate = |v| match v {
                        Value::Win(_) => lost_here,
                        Value::Loss(_) => !lost_here,
                        _ => false,
                    };
                    if dtc[qs][qi] != NONE
                        || !Value::from_code(self.codes[qs][qi]).is_some_and(by_mate)
                    {
                        return;
                    }
                    let qe = qi as u64 * 2 + qs as u64;
                    if lost_here {
                        dtc[qs][qi] = next;
                        push(&mut levels, next, qe);
                    } else {
                        open[qs][qi] -= 1;
                        if open[qs][qi] == 0 {
                            dtc[qs][qi] = next;
                            push(&mut levels, next, qe);
                        }
                    }
                });
            }
            level += 1;
        }
        debug_assert!(dtc.iter().flatten().all(|&d| d != NONE));
        dtc
    }

    /// The drawn positions with `x` to move in which `x` is held to moves the rules forbid
    /// (`rule`): the largest set of drawn positions where every move of `x` is such a move
    /// into the set or a move into a loss, and where the other side always has a move into
    /// the set that the same rule allows (no check; under [`Trap::Forbidden`] no chase or mate
    /// threat either). (A cycle where the other side makes forbidden moves too is not caught
    /// here: that stays a draw, the sound side of the rule.)
    fn trap(&self, x: Color, rule: Trap, others: &TableSet) -> Vec<usize> {
        let layout = self.layout;
        let y = !x;
        let mut held = [
            self.codes[0]
                .iter()
                .map(|&c| c == DRAW)
                .collect::<Vec<bool>>(),
            self.codes[1]
                .iter()
                .map(|&c| c == DRAW)
                .collect::<Vec<bool>>(),
        ];
        let mut left = held[x.index()].iter().filter(|&&h| h).count();
        // Worklists: every held entry at first, then only the predecessors of entries just
        // dropped (a move into a dropped entry is the only thing that can change).
        let mut work: [Vec<usize>; 2] = [
            (0..held[0].len()).filter(|&i| held[0][i]).collect(),
            (0..held[1].len()).filter(|&i| held[1][i]).collect(),
        ];
        // How many entries each side holds at the start: the scale for a large drop.
        let work_size = [work[0].len(), work[1].len()];
        loop {
            for side in [x, y] {
                let list = std::mem::take(&mut work[side.index()]);
                let drop: Vec<usize> = list
                    .into_par_iter()
                    .filter(|&idx| held[side.index()][idx])
                    .filter(|&idx| !self.stays(&held, x, side, idx, rule, others))
                    .collect();
                if side == x {
                    left -= drop.len();
                }
                for &idx in &drop {
                    held[side.index()][idx] = false;
                }
                // No position of the trapped side held: nothing for the other side to keep.
                if left == 0 {
                    return Vec::new();
                }
                // The other side's entries with a move into a dropped one, still held; after
                // a large drop (the first round drops most), all of them, as a scan is then
                // cheaper than the un-moves.
                let other = !side;
                let held_other = &held[other.index()];
                if drop.len() * 4 > work_size[other.index()] {
                    work[other.index()] =
                        (0..held_other.len()).filter(|&i| held_other[i]).collect();
                    continue;
                }
                let mut next = held_predecessors(layout, &drop, other, held_other);
                next.append(&mut work[other.index()]);
                next.par_sort_unstable();
                next.dedup();
                work[other.index()] = next;
            }
            if work.iter().all(Vec::is_empty) {
                break;
            }
        }
        (0..held[x.index()].len())
            .filter(|&i| held[x.index()][i])
            .collect()
    }

    /// Whether entry `idx` with `side` to move stays in the trap of `x` under `rule`: for `x`,
    /// every move leads into a loss or, by a move the rule forbids, into the set (`held`); for
    /// the other side, some move the rule allows leads into the set.
    fn stays(
        &self,
        held: &[Vec<bool>; 2],
        x: Color,
        side: Color,
        idx: usize,
        rule: Trap,
        others: &TableSet,
    ) -> bool {
        let layout = self.layout;
        let y = !x;
        let Some(mut pos) = layout
            .board(&layout.decode(idx as u64))
            .and_then(|b| position(b, side))
        else {
            return false;
        };
        // A move without capture keeps the table's material in its colours: no flip.
        let child_entry = |child: &Position| -> Option<usize> {
            layout.index_of_position(child, false).map(|i| i as usize)
        };
        let mut classifier = Classifier::new(rule);
        for m in pos.legal_moves() {
            let capture = pos.piece_at(m.to()).is_some();
            // Made and taken back in place, as in `start`.
            pos.make_move(m);
            let check = pos.in_check();
            if side == x {
                // Into a loss (fine), into the set (fine if forbidden), or into a draw outside
                // it (`x` holds there: out).
                let into = if capture {
                    Lead::from(others.probe(&pos).is_some_and(|v| v.outcome() == 1))
                } else {
                    match child_entry(&pos) {
                        Some(ci) if self.codes[y.index()][ci] == DRAW => {
                            if held[y.index()][ci] {
                                Lead::Set
                            } else {
                                Lead::Out
                            }
                        }
                        Some(ci) => Lead::from(
                            Value::from_code(self.codes[y.index()][ci])
                                .is_some_and(|v| v.outcome() == 1),
                        ),
                        None => Lead::Out,
                    }
                };
                pos.unmake_move();
                let ok = match into {
                    Lead::Loss => true,
                    Lead::Out => false,
                    Lead::Set => classifier.forbidden(&mut pos, m, check),
                };
                if !ok {
                    return false;
                }
            } else {
                let into_set =
                    !capture && !check && child_entry(&pos).is_some_and(|ci| held[x.index()][ci]);
                pos.unmake_move();
                if into_set && !classifier.forbidden(&mut pos, m, check) {
                    return true;
                }
            }
        }
        side == x
    }
}

/// The entries with `mover` to move and a move without capture into one of `dropped` that
/// `held` still holds, sorted, each once.
fn held_predecessors(
    layout: &Layout,
    dropped: &[usize],
    mover: Color,
    held: &[bool],
) -> Vec<usize> {
    let mut found: Vec<usize> = dropped
        .par_iter()
        .flat_map_iter(|&idx| {
            let placement = layout.decode(idx as u64);
            let mut found = Vec::new();
            if let Some(board) = layout.board(&placement) {
                predecessors(layout, &placement, &board, mover, |q| {
                    if let Some(qi) = layout.encode(q) {
                        if held[qi as usize] {
                            found.push(qi as usize);
                        }
                    }
                });
            }
            found
        })
        .collect();
    found.par_sort_unstable();
    found.dedup();
    found
}

/// Where a move of the trapped side leads, for [`State::trap`].
enum Lead {
    /// A position the trapped side has lost.
    Loss,
    /// A drawn position still in the set.
    Set,
    /// A drawn position outside the set: the trapped side holds there.
    Out,
}

impl From<bool> for Lead {
    fn from(loss: bool) -> Lead {
        if loss {
            Lead::Loss
        } else {
            Lead::Out
        }
    }
}

/// Whether, after the legal move `m` (not a check), the mover could capture anything or
/// give check if the opponent passed. Without either the move is idle: a chase wins a piece by
/// a capture, directly, after an exchange or after a series of checks, and a mate threat is a
/// mate by checks (24.2, 24.3).
fn threatens_anything(pos: &mut Position, m: Move) -> bool {
    pos.make_move(m);
    pos.make_null_move();
    let any = pos
        .legal_moves()
        .iter()
        .any(|&n| pos.piece_at(n.to()).is_some() || pos.gives_check(n));
    pos.unmake_move();
    pos.unmake_move();
    any
}

/// Which moves a trap holds a side to, and so which side the rules make vary.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Trap {
    /// 长将: checks only, against any answers but checks (2011 rules 25.1: one-sided
    /// perpetual check loses whatever the other side does).
    Check,
    /// Checks, mate threats and chases in any mix (2011 rules 24.9–24.13: 长将, 长杀, 长捉,
    /// 一将一杀, 一将一捉, 一杀一捉), against idle answers only (25.3: the forbidden side
    /// varies against an allowed one). Chases of the king's and pawns' own (26.1), of the
    /// lone defender (26.2) and other idle cases are the referee's classifier's.
    Forbidden,
}

/// A move's nature under a trap's rule, the piece numbering made once a position.
struct Classifier {
    rule: Trap,
    ids: Option<IdBoard>,
}

impl Classifier {
    fn new(rule: Trap) -> Classifier {
        Classifier { rule, ids: None }
    }

    /// Whether the legal move `m` of the side to move is one the rule forbids in a cycle;
    /// `check`: whether it gives check (the callers have made it and know).
    fn forbidden(&mut self, pos: &mut Position, m: Move, check: bool) -> bool {
        if check {
            return true;
        }
        match self.rule {
            Trap::Check => false,
            Trap::Forbidden => {
                if !threatens_anything(pos, m) {
                    // The classifier's answer, without its work.
                    return false;
                }
                let ids = self.ids.get_or_insert_with(|| IdBoard::new(pos));
                let classified = classify_move(pos, m, ids, &Options::REFEREE);
                classified.natures.heaviest() != NatureClass::Idle
            }
        }
    }
}

/// Checks a finished table against its positions' moves, forward, without un-moves: a win in
/// `n` has a move into a loss in `n - 1` and none faster, a loss in `n` has only moves into
/// wins and the slowest is `n - 1`, a draw has no move into a loss and one into a draw (mates
/// ranked above results by rule, [`Value::for_mover`]); a position lost by rule at 0 has only
/// moves into losses, one of them a check, a mate threat or a chase (the 2011 rules,
/// [`Trap::Forbidden`]) into a position the other side wins by rule at once. The conversion
/// distances likewise: a win by mate is 1 with a capture into a loss by mate, else one more
/// than the least of its moves into losses by mate; a loss by mate is 0 without a move, else
/// one more than the most of its moves (a capture counting 0); a result by the rules has its
/// distance, a draw 0. Returns the first entry that breaks this, as `(side, index, why)`.
pub fn verify(table: &StoredTable, others: &TableSet) -> Option<(Color, u64, String)> {
    let layout = &table.layout;
    (0..layout.size()).into_par_iter().find_map_any(|idx| {
        let placement = layout.decode(idx);
        for side in Color::ALL {
            let stored = table.value(side, idx);
            let pos = layout.board(&placement).and_then(|b| position(b, side));
            let Some(mut pos) = pos else {
                if stored.is_some() {
                    return Some((side, idx, "an illegal position has a value".into()));
                }
                continue;
            };
            let Some(stored) = stored else {
                return Some((
                    side,
                    idx,
                    "a legal position is marked illegal (or cannot be read)".into(),
                ));
            };
            let mut best: Option<Value> = None;
            // Held by the rules: every move a loss, and one of them a move the rules forbid in
            // a cycle (a check, a mate threat or a chase) into the cycle, where the other side
            // wins by rule at once. (Moves into positions decided before the cycle was found
            // may be of any kind: the trap takes any loss.)
            let (mut loses, mut forbidden) = (true, false);
            let mut classifier = Classifier::new(Trap::Forbidden);
            // Conversion distances through the moves that keep a win by mate (the least) and
            // through the moves of a loss by mate (the most).
            let (mut win_dtc, mut loss_dtc) = (u16::MAX, 0u16);
            for m in pos.legal_moves() {
                let capture = pos.piece_at(m.to()).is_some();
                // Made in place (a return below leaves the position behind), taken back below.
                pos.make_move(m);
                let child = &pos;
                let (v, through) = if capture {
                    (others.probe(child).unwrap_or(Value::Draw), 1)
                } else {
                    let Some(ci) = layout.index_of_position(child, false) else {
                        return Some((side, idx, "a move leaves the table".into()));
                    };
                    match (table.value(!side, ci), table.dtc(!side, ci)) {
                        (Some(v), Some(d)) => (v, d.saturating_add(1)),
                        _ => return Some((side, idx, "a move reaches an illegal entry".into())),
                    }
                };
                let v = v.before();
                match v {
                    Value::Win(_) => win_dtc = win_dtc.min(through),
                    Value::Loss(_) => loss_dtc = loss_dtc.max(through),
                    _ => {}
                }
                // A move into the cycle's other side: lost by rule two plies on.
                let into_cycle = !capture && v == Value::RuleLoss(2);
                let check = into_cycle && pos.in_check();
                pos.unmake_move();
                loses &= v.outcome() == -1;
                if into_cycle && !forbidden && loses {
                    forbidden = classifier.forbidden(&mut pos, m, check);
                }
                if best.is_none_or(|b| v.for_mover() > b.for_mover()) {
                    best = Some(v);
                }
            }
            let Some(dtc) = table.dtc(side, idx) else {
                return Some((side, idx, "its conversion distance cannot be read".into()));
            };
            if stored == Value::RuleLoss(0) {
                if !(loses && forbidden) {
                    return Some((
                        side,
                        idx,
                        "lost by rule, but not held to forbidden moves".into(),
                    ));
                }
                if dtc != 0 {
                    return Some((side, idx, format!("lost by rule at 0, dtc {dtc}")));
                }
                continue;
            }
            let expect = best.unwrap_or(Value::Loss(0));
            if expect != stored {
                return Some((
                    side,
                    idx,
                    format!("stored {stored}, its moves say {expect}"),
                ));
            }
            let expect_dtc = match stored {
                Value::Win(_) => win_dtc,
                Value::Loss(_) => loss_dtc,
                Value::Draw => 0,
                Value::RuleWin(n) | Value::RuleLoss(n) => n,
            };
            if dtc != expect_dtc {
                return Some((
                    side,
                    idx,
                    format!("stored {stored} dtc {dtc}, its moves say dtc {expect_dtc}"),
                ));
            }
        }
        None
    })
}

/// What [`generate_with_captures`] did for one table.
pub enum Done {
    /// Generated (and written, with a folder).
    Generated(Material),
    /// Read from the folder, where an earlier run left it.
    Read(Material),
}

/// Generates `material` and every table its captures lead to, smallest first. With a folder,
/// tables already there are read instead of generated again (a stopped run resumes table by
/// table; a file of the older format version is made again) and each new one is written there
/// whole as soon as it is done. Tables of games without attacking pieces are never made (2011
/// rules 4.2.2 draws them).
pub fn generate_with_captures(
    material: Material,
    dir: Option<&std::path::Path>,
    set: &mut TableSet,
    progress: &dyn Progress,
    mut done: impl FnMut(&Done, &TableSet),
) -> Result<(), super::table::TableError> {
    for m in material.closure() {
        if m.is_dead_draw() || set.get(m).is_some() {
            continue;
        }
        if let Some(dir) = dir {
            // A file of the older format is made again (and replaced).
            match set.load(dir, m) {
                Ok(true) => {
                    done(&Done::Read(m), set);
                    continue;
                }
                Ok(false) | Err(super::table::TableError::OldVersion(..)) => {}
                Err(e) => return Err(e),
            }
        }
        let table = generate(m, set, progress);
        if let Some(dir) = dir {
            let path = dir.join(super::table::file_name(m));
            crate::output::write_whole(&path, &table.to_bytes())
                .map_err(|e| super::table::TableError::Io(path, e))?;
            set.keep(table, dir)?;
        } else {
            set.insert(table);
        }
        done(&Done::Generated(m), set);
    }
    Ok(())
}

/// `material`'s table and every table its captures lead to, made in memory on every core.
pub fn generate_in_memory(material: Material) -> TableSet {
    let mut set = TableSet::new();
    for m in material.closure() {
        if !m.is_dead_draw() {
            let table = generate(m, &set, &Quiet);
            set.insert(table);
        }
    }
    set
}

#[cfg(test)]
mod tests;
