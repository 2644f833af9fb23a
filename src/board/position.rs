//! The position: piece placement, side to move, counters, and the stack of earlier states.
//!
//! A [`Position`] can only be built through [`Position::from_placement`] (or FEN parsing, which
//! calls it), which rejects anything that cannot occur in a game, so the rest of the engine may
//! assume: one king per side inside its palace, every piece on a point it can reach, no more
//! pieces of a kind than a side starts with, and the side that just moved not in check.
//!
//! Make/unmake is incremental: the board array, per-kind bitboards, the occupancy (normal and
//! transposed, see [`super::attacks`]) and the Zobrist key are updated in place, and each move
//! pushes a [`StateInfo`] so that it can be undone and so that repetition rules can look back
//! over the whole game. Copy-make (copying the ~0.5 KB position per move) was not tried: the
//! history stack is needed for repetitions either way.

use super::attacks::{self, TRANSPOSE};
use super::bitboard::Bitboard;
use super::move_::Move;
use super::piece::{Color, Piece, PieceKind};
use super::square::{Square, SQUARES};
use super::zobrist;
use std::fmt;

/// What a move changed, kept so that it can be undone and the game history examined.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StateInfo {
    /// The move made from the earlier position; `None` for a null move (search only).
    pub mv: Option<Move>,
    /// The piece it captured.
    pub captured: Option<Piece>,
    /// Zobrist key of the position *before* the move.
    pub key: u64,
    /// Plies without capture *before* the move.
    pub halfmove: u32,
    /// Did the move give check? Kept here, with the move it describes, because the repetition
    /// rules (2011 rules 25.1) read it for every move of a cycle; a list kept beside the
    /// history could drift from it.
    pub gave_check: bool,
}

/// A legal xiangqi position.
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Option<Piece>; SQUARES],
    pub(crate) by_kind: [[u128; 7]; 2],
    pub(crate) by_color: [u128; 2],
    pub(crate) occ: u128,
    /// Occupancy in file-major order (`file * 10 + rank`) for file lookups.
    pub(crate) occ_t: u128,
    pub(crate) side: Color,
    pub(crate) kings: [Square; 2],
    pub(crate) key: u64,
    /// Plies since the last capture (the natural-limit counter).
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) history: Vec<StateInfo>,
}

/// Why a placement is not a legal xiangqi position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlacementError {
    KingCount {
        color: Color,
        count: u32,
    },
    TooMany {
        piece: Piece,
        count: u32,
    },
    /// A piece on a point its kind can never reach (palace, elephant points, pawn files).
    BadSquare {
        piece: Piece,
        square: Square,
    },
    KingsFacing,
    /// The side that is not to move is in check: the side to move could capture the king.
    OpponentInCheck,
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::KingCount { color, count } => {
                write!(f, "{} has {} kings, needs exactly one", color.name(), count)
            }
            PlacementError::TooMany { piece, count } => write!(
                f,
                "{} has {} {}s, at most {} allowed",
                piece.color().name(),
                count,
                piece.kind().name(),
                piece.kind().max_count()
            ),
            PlacementError::BadSquare { piece, square } => {
                let why = match piece.kind() {
                    PieceKind::King => "outside its palace",
                    PieceKind::Advisor => "off the five advisor points of its palace",
                    PieceKind::Elephant => "off the seven elephant points on its side",
                    PieceKind::Pawn => "where no pawn can stand",
                    _ => "on an impossible point",
                };
                write!(
                    f,
                    "{} {} on {} is {}",
                    piece.color().name(),
                    piece.kind().name(),
                    square,
                    why
                )
            }
            PlacementError::KingsFacing => write!(f, "kings face each other on an open file"),
            PlacementError::OpponentInCheck => {
                write!(f, "the side not to move is in check")
            }
        }
    }
}

impl std::error::Error for PlacementError {}

/// Can a piece of this colour and kind ever stand on `sq`?
pub fn reachable(piece: Piece, sq: Square) -> bool {
    // Work in Red's frame: Black's points are Red's flipped.
    let s = match piece.color() {
        Color::Red => sq,
        Color::Black => sq.flip_rank(),
    };
    let (f, r) = (s.file(), s.rank());
    match piece.kind() {
        PieceKind::King => (3..=5).contains(&f) && r <= 2,
        PieceKind::Advisor => matches!((f, r), (3, 0) | (5, 0) | (4, 1) | (3, 2) | (5, 2)),
        PieceKind::Elephant => matches!(
            (f, r),
            (2, 0) | (6, 0) | (0, 2) | (4, 2) | (8, 2) | (2, 4) | (6, 4)
        ),
        // Before the river a pawn has only moved straight ahead from its own file.
        PieceKind::Pawn => r >= 5 || ((r == 3 || r == 4) && f % 2 == 0),
        PieceKind::Horse | PieceKind::Rook | PieceKind::Cannon => true,
    }
}

#[inline(always)]
fn bit(sq: Square) -> u128 {
    1u128 << sq.index()
}

#[inline(always)]
fn tbit(sq: Square) -> u128 {
    1u128 << TRANSPOSE[sq.index()]
}

impl Position {
    /// Validates a placement and builds the position. The 2011 rules do not define
    /// positions; "legal" here means reachable piece by piece and not illegal to move in.
    pub fn from_placement(
        board: [Option<Piece>; SQUARES],
        side: Color,
        halfmove: u32,
        fullmove: u32,
    ) -> Result<Position, PlacementError> {
        // One pass over the board builds the position and notes what the checks below need
        // (the tablebase generator builds one for every entry of a table).
        let mut pos = Position {
            board,
            by_kind: [[0; 7]; 2],
            by_color: [0; 2],
            occ: 0,
            occ_t: 0,
            side,
            kings: [Square::from_index_unchecked(0); 2],
            key: if side == Color::Black {
                zobrist::SIDE
            } else {
                0
            },
            halfmove,
            fullmove: fullmove.max(1),
            history: Vec::new(),
        };
        let mut counts = [[0u32; 7]; 2];
        let mut off_its_points = None;
        for sq in Square::all() {
            let Some(p) = board[sq.index()] else { continue };
            let (c, k) = (p.color().index(), p.kind().index());
            counts[c][k] += 1;
            if off_its_points.is_none() && !reachable(p, sq) {
                off_its_points = Some((p, sq));
            }
            pos.by_kind[c][k] |= bit(sq);
            pos.by_color[c] |= bit(sq);
            pos.occ |= bit(sq);
            pos.occ_t |= tbit(sq);
            pos.key ^= zobrist::piece_key(p, sq);
            if p.kind() == PieceKind::King {
                pos.kings[c] = sq;
            }
        }
        for color in Color::ALL {
            let kings = counts[color.index()][PieceKind::King.index()];
            if kings != 1 {
                return Err(PlacementError::KingCount {
                    color,
                    count: kings,
                });
            }
        }
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                let count = counts[color.index()][kind.index()];
                if count > kind.max_count() {
                    return Err(PlacementError::TooMany {
                        piece: Piece::new(color, kind),
                        count,
                    });
                }
            }
        }
        if let Some((piece, square)) = off_its_points {
            return Err(PlacementError::BadSquare { piece, square });
        }
        debug_assert_eq!(pos.key, pos.compute_key());
        if pos.kings_facing() {
            return Err(PlacementError::KingsFacing);
        }
        if pos.is_attacked(pos.kings[(!side).index()], side) {
            return Err(PlacementError::OpponentInCheck);
        }
        Ok(pos)
    }

    /// The Zobrist key computed from scratch (the incremental key must always equal it).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for sq in Square::all() {
            if let Some(p) = self.board[sq.index()] {
                k ^= zobrist::piece_key(p, sq);
            }
        }
        if self.side == Color::Black {
            k ^= zobrist::SIDE;
        }
        k
    }

    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key and halfmove clock the pseudo-legal move `m` would lead to, without making it
    /// (the search asks for the table's entry before it makes the move).
    #[inline]
    pub fn key_after(&self, m: Move) -> (u64, u32) {
        let (from, to) = (m.from(), m.to());
        let Some(piece) = self.board[from.index()] else {
            return (self.key, self.halfmove);
        };
        let mut key = self.key ^ zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to);
        let clock = match self.board[to.index()] {
            Some(c) => {
                key ^= zobrist::piece_key(c, to);
                0
            }
            None => self.halfmove.saturating_add(1),
        };
        (key ^ zobrist::SIDE, clock)
    }

    #[inline(always)]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    #[inline(always)]
    pub fn king_square(&self, c: Color) -> Square {
        self.kings[c.index()]
    }

    /// The squares holding pieces of this colour and kind.
    #[inline(always)]
    pub fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        Bitboard(self.by_kind[c.index()][k.index()])
    }

    #[inline(always)]
    pub fn pieces_of(&self, c: Color) -> Bitboard {
        Bitboard(self.by_color[c.index()])
    }

    /// How often the current position has occurred, counting back to the last capture (a
    /// position before a capture cannot recur after it). The match runner asks it before
    /// calling the referee; the book walk, to stay out of cycles.
    pub fn occurrences(&self) -> u32 {
        let key = self.key();
        let mut n = 1;
        for st in self.history().iter().rev() {
            if st.key == key {
                n += 1;
            }
            if st.captured.is_some() {
                break;
            }
        }
        n
    }

    /// Neither side has a piece that can cross the river or give mate (rook, horse, cannon,
    /// pawn): only kings, advisors and elephants, so nobody can ever win (2011 rules 4.2.2,
    /// "双方均无取胜可能"). The draw rules of the protocol and of the match runner both ask this.
    pub fn no_attacking_material(&self) -> bool {
        Color::ALL.iter().all(|&c| {
            [
                PieceKind::Rook,
                PieceKind::Horse,
                PieceKind::Cannon,
                PieceKind::Pawn,
            ]
            .iter()
            .all(|&k| self.pieces(c, k).is_empty())
        })
    }

    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occ)
    }

    /// Plies since the last capture (or since the position was set up).
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Earlier states, oldest first; entry `i` undoes the `i`-th move made on this position.
    #[inline(always)]
    pub fn history(&self) -> &[StateInfo] {
        &self.history
    }

    /// Forgets the history (after setting up a game, when it is no longer needed).
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Forgets the history and frees its buffer: for holding many positions in memory
    /// (training data). Making a move afterwards allocates again.
    pub fn compact(&mut self) {
        self.history = Vec::new();
    }

    /// The kings stand on one file with nothing between them (飞将: never legal after a move).
    pub fn kings_facing(&self) -> bool {
        let r = self.kings[0];
        let b = self.kings[1];
        attacks::rook_attacks(r, self.occ, self.occ_t) & bit(b) != 0
    }

    /// Is `sq` attacked by a piece of colour `by`? The king counts as attacking along an open
    /// file (flying general).
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        let e = &self.by_kind[by.index()];
        attacked_by(sq, by, self.occ, self.occ_t, e, 0)
    }

    /// Is the side to move in check?
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_attacked(self.kings[self.side.index()], !self.side)
    }

    /// Did the last move of the history give check? `false` with no history (a position set
    /// from a FEN: use [`Position::in_check`] there).
    #[inline]
    pub fn last_move_gave_check(&self) -> bool {
        self.history.last().is_some_and(|s| s.gave_check)
    }

    /// Makes a move known to be legal (from the generator or [`Position::parse_move`]).
    pub fn make_move(&mut self, m: Move) {
        // The quick test needs the side not to move out of check, which legal play and the
        // search keep; the rules' analysis also passes for a side in check, after which it
        // is not known.
        let after_pass = self.history.last().is_some_and(|s| s.mv.is_none());
        let gives_check = if after_pass {
            self.gives_check(m)
        } else {
            self.gives_check_quick(m)
        };
        self.make_move_with(m, gives_check);
    }

    /// [`Position::make_move`] for a caller that already knows whether `m` gives check (the
    /// search computes it for every move it tries); `gives_check` must equal
    /// [`Position::gives_check`]`(m)`.
    pub fn make_move_with(&mut self, m: Move, gives_check: bool) {
        debug_assert_eq!(gives_check, self.gives_check(m), "make_move_with {m}");
        let (from, to) = (m.from(), m.to());
        let us = self.side;
        let piece = match self.board[from.index()] {
            Some(p) => p,
            None => {
                debug_assert!(false, "make_move {m} from an empty square");
                return;
            }
        };
        let captured = self.board[to.index()];
        self.history.push(StateInfo {
            mv: Some(m),
            captured,
            key: self.key,
            halfmove: self.halfmove,
            gave_check: gives_check,
        });
        let (fb, tb) = (bit(from), bit(to));
        if let Some(c) = captured {
            self.by_kind[c.color().index()][c.kind().index()] ^= tb;
            self.by_color[c.color().index()] ^= tb;
            self.key ^= zobrist::piece_key(c, to);
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
            self.occ |= tb;
            self.occ_t |= tbit(to);
        }
        self.by_kind[us.index()][piece.kind().index()] ^= fb | tb;
        self.by_color[us.index()] ^= fb | tb;
        self.occ ^= fb;
        self.occ_t ^= tbit(from);
        self.board[to.index()] = Some(piece);
        self.board[from.index()] = None;
        if piece.kind() == PieceKind::King {
            self.kings[us.index()] = to;
        }
        self.key ^= zobrist::piece_key(piece, from) ^ zobrist::piece_key(piece, to) ^ zobrist::SIDE;
        self.side = !us;
        if us == Color::Black {
            self.fullmove += 1;
        }
    }

    /// Undoes the last [`Position::make_move`]. Does nothing if there is no move to undo.
    pub fn unmake_move(&mut self) {
        let st = match self.history.pop() {
            Some(st) => st,
            None => return,
        };
        let m = match st.mv {
            Some(m) => m,
            None => {
                // A null move: only the side and key changed.
                self.side = !self.side;
                self.key = st.key;
                self.halfmove = st.halfmove;
                return;
            }
        };
        let (from, to) = (m.from(), m.to());
        let us = !self.side;
        let piece = match self.board[to.index()] {
            Some(p) => p,
            None => return,
        };
        let (fb, tb) = (bit(from), bit(to));
        self.by_kind[us.index()][piece.kind().index()] ^= fb | tb;
        self.by_color[us.index()] ^= fb | tb;
        self.occ |= fb;
        self.occ_t |= tbit(from);
        self.board[from.index()] = Some(piece);
        self.board[to.index()] = st.captured;
        if let Some(c) = st.captured {
            self.by_kind[c.color().index()][c.kind().index()] ^= tb;
            self.by_color[c.color().index()] ^= tb;
        } else {
            self.occ ^= tb;
            self.occ_t ^= tbit(to);
        }
        if piece.kind() == PieceKind::King {
            self.kings[us.index()] = from;
        }
        self.side = us;
        self.key = st.key;
        self.halfmove = st.halfmove;
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_sub(1).max(1);
        }
    }

    /// Passes the move (search's null-move pruning). Never call it while in check.
    pub fn make_null_move(&mut self) {
        self.history.push(StateInfo {
            mv: None,
            captured: None,
            key: self.key,
            halfmove: self.halfmove,
            gave_check: false,
        });
        self.key ^= zobrist::SIDE;
        self.side = !self.side;
        self.halfmove = self.halfmove.saturating_add(1);
    }

    /// Would `m` (pseudo-legal for the side to move) leave its own king attacked?
    #[inline]
    pub(crate) fn leaves_king_safe(&self, from: Square, to: Square) -> bool {
        let us = self.side;
        let (fb, tb) = (bit(from), bit(to));
        let occ = (self.occ ^ fb) | tb;
        let occ_t = (self.occ_t ^ tbit(from)) | tbit(to);
        let k = if from == self.kings[us.index()] {
            to
        } else {
            self.kings[us.index()]
        };
        !attacked_by(k, !us, occ, occ_t, &self.by_kind[(!us).index()], tb)
    }

    /// [`Position::gives_check`] for a position whose side not to move is not in check, as
    /// every position a search reaches is (legal moves; null moves only out of check). A check
    /// after the move comes from the moved piece (a rook, cannon or pawn arriving on the
    /// general's file or rank, a horse arriving a horse's move away) or from a line or leg the
    /// move opened or a screen it made (leaving the file, the rank or a diagonal neighbour;
    /// arriving on the file or the rank). A move that does none of these gives no check
    /// without testing ([`CHECK_SOURCES`]); the search's moves mostly are such moves.
    #[inline]
    pub fn gives_check_quick(&self, m: Move) -> bool {
        let src = &CHECK_SOURCES[self.kings[(!self.side).index()].index()];
        let (from, to) = (bit(m.from()), bit(m.to()));
        let may = src.leaving & from != 0
            || src.arriving & to != 0
            || (src.horse & to != 0
                && self.board[m.from().index()].is_some_and(|p| p.kind() == PieceKind::Horse));
        may && self.gives_check(m)
    }

    /// Does the legal move `m` give check?
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let piece = match self.board[from.index()] {
            Some(p) => p,
            None => return false,
        };
        let (fb, tb) = (bit(from), bit(to));
        let occ = (self.occ ^ fb) | tb;
        let occ_t = (self.occ_t ^ tbit(from)) | tbit(to);
        let mut ours = self.by_kind[us.index()];
        ours[piece.kind().index()] ^= fb | tb;
        attacked_by(self.kings[(!us).index()], us, occ, occ_t, &ours, 0)
    }
}

/// For a general on each point, the points a check on it depends on: its file and rank (the
/// lines of rooks, cannons and their screens, and of the other general) and the 5×5 square
/// around it (horses within a horse's move, their legs, pawns next to it). A move that
/// neither leaves nor enters one of them cannot change whether the general is attacked.
pub static CHECK_LINES: [u128; SQUARES] = check_lines();

const fn check_lines() -> [u128; SQUARES] {
    let mut t = [0u128; SQUARES];
    let mut k = 0;
    while k < SQUARES {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut sq = 0;
        while sq < SQUARES {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let near = (f - kf).abs() <= 2 && (r - kr).abs() <= 2;
            if f == kf || r == kr || near {
                t[k] |= 1u128 << sq;
            }
            sq += 1;
        }
        k += 1;
    }
    t
}

/// For a general on each point, where a move must start or end to give check to it when it
/// was not in check (see [`Position::gives_check_quick`]).
#[derive(Clone, Copy, Debug)]
pub struct CheckSources {
    /// Its file and rank (lines and screens) and diagonal neighbours (horse legs).
    pub leaving: u128,
    /// Its file and rank: a rook, cannon or pawn attacking from there, or a new screen.
    pub arriving: u128,
    /// The points a horse's move away, for a horse arriving there.
    pub horse: u128,
}

pub static CHECK_SOURCES: [CheckSources; SQUARES] = check_sources();

const fn check_sources() -> [CheckSources; SQUARES] {
    let none = CheckSources {
        leaving: 0,
        arriving: 0,
        horse: 0,
    };
    let mut t = [none; SQUARES];
    let mut k = 0;
    while k < SQUARES {
        let (kf, kr) = ((k % 9) as i32, (k / 9) as i32);
        let mut sq = 0;
        while sq < SQUARES {
            let (df, dr) = ((sq % 9) as i32 - kf, (sq / 9) as i32 - kr);
            let b = 1u128 << sq;
            if df == 0 || dr == 0 {
                t[k].leaving |= b;
                t[k].arriving |= b;
            }
            if df.abs() == 1 && dr.abs() == 1 {
                t[k].leaving |= b;
            }
            if df.abs() * dr.abs() == 2 {
                t[k].horse |= b;
            }
            sq += 1;
        }
        k += 1;
    }
    t
}

/// Is `sq` attacked by colour `by`, whose pieces are `e` (minus the squares in `removed`), on
/// the given occupancy?
#[inline(always)]
fn attacked_by(
    sq: Square,
    by: Color,
    occ: u128,
    occ_t: u128,
    e: &[u128; 7],
    removed: u128,
) -> bool {
    let keep = !removed;
    let rook_like = (e[PieceKind::Rook.index()] | e[PieceKind::King.index()]) & keep;
    if rook_like != 0 && attacks::rook_attacks(sq, occ, occ_t) & rook_like != 0 {
        return true;
    }
    let cannons = e[PieceKind::Cannon.index()] & keep;
    if cannons != 0 && attacks::cannon_attacks(sq, occ, occ_t) & cannons != 0 {
        return true;
    }
    let horses = e[PieceKind::Horse.index()] & keep;
    if horses != 0 && attacks::horse_attackers(sq, occ) & horses != 0 {
        return true;
    }
    attacks::pawn_attackers(by, sq) & e[PieceKind::Pawn.index()] & keep != 0
}

impl PartialEq for Position {
    /// Positions are equal when placement, side and counters are; history is not compared.
    fn eq(&self, o: &Position) -> bool {
        self.board == o.board
            && self.side == o.side
            && self.key == o.key
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.by_kind == o.by_kind
            && self.by_color == o.by_color
            && self.occ == o.occ
            && self.occ_t == o.occ_t
            && self.kings == o.kings
    }
}

impl Eq for Position {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::arbitrary;

    /// The quick test agrees with the full one on every legal move of every position of many
    /// random games from the perft suite's starts (flying generals, cannon screens, pins),
    /// and with what making the move shows.
    #[test]
    fn the_quick_check_test_is_the_full_one() {
        let (mut moves, mut checks, mut skipped) = (0, 0, 0);
        for (i, start) in arbitrary::starts().iter().enumerate() {
            for game in 0..12u16 {
                let choices: Vec<u16> = (0..160u16)
                    .map(|j| {
                        j.wrapping_mul(7919)
                            .wrapping_add(game * 131 + i as u16 * 17)
                    })
                    .collect();
                arbitrary::walk_visiting(start, &choices, |pos| {
                    let src = &CHECK_SOURCES[pos.kings[(!pos.side).index()].index()];
                    for m in pos.legal_moves() {
                        let full = pos.gives_check(m);
                        assert_eq!(pos.gives_check_quick(m), full, "{m} in {}", pos.to_fen());
                        pos.make_move(m);
                        assert_eq!(pos.in_check(), full, "{m}");
                        pos.unmake_move();
                        moves += 1;
                        checks += usize::from(full);
                        skipped += usize::from(
                            src.leaving & bit(m.from()) == 0
                                && src.arriving & bit(m.to()) == 0
                                && src.horse & bit(m.to()) == 0,
                        );
                    }
                });
            }
        }
        assert!(
            moves > 100_000 && checks > 1_000,
            "{moves} moves, {checks} checks"
        );
        assert!(
            skipped * 2 > moves,
            "the quick test decides half: {skipped} of {moves}"
        );
    }

    /// `key_after` foretells the key and clock of every legal move, captures included.
    #[test]
    fn key_after_is_the_key_the_move_makes() {
        let (mut moves, mut captures) = (0, 0);
        for (i, start) in arbitrary::starts().iter().enumerate() {
            let choices: Vec<u16> = (0..120u16).map(|j| j.wrapping_mul(31) ^ i as u16).collect();
            arbitrary::walk_visiting(start, &choices, |pos| {
                for m in pos.legal_moves() {
                    let after = pos.key_after(m);
                    captures += usize::from(pos.piece_at(m.to()).is_some());
                    pos.make_move(m);
                    assert_eq!(after, (pos.key(), pos.halfmove_clock()), "{m}");
                    pos.unmake_move();
                    moves += 1;
                }
            });
        }
        assert!(
            moves > 10_000 && captures > 500,
            "{moves} moves, {captures} captures"
        );
    }

    #[test]
    fn check_lines_cover_the_file_the_rank_and_the_square_around() {
        let e0 = Square::from_coords(4, 0).unwrap().index();
        let lines = CHECK_LINES[e0];
        let on = |f, r| lines & (1u128 << Square::from_coords(f, r).unwrap().index()) != 0;
        assert!(on(4, 9) && on(0, 0) && on(8, 0) && on(2, 2) && on(6, 1));
        assert!(!on(1, 1) && !on(7, 3) && !on(3, 3) && !on(0, 9));
        // 9 on the rank, 9 more on the file, 5×3 near points not on either line.
        assert_eq!(lines.count_ones(), 9 + 9 + 8);
    }
}
