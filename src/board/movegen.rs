//! Legal move generation.
//!
//! Moves are generated per piece as destination bitboards, then made legal cheaply. A move can
//! expose its own king in xiangqi in more ways than in chess: leaving a rook's or the enemy
//! king's line (a pin), leaving a cannon's line where it was one of two screens, *stepping onto*
//! an empty line between a cannon and the king (becoming the screen), or leaving a horse's leg.
//! `Safety` finds, once per node, the pieces whose departure could do that (`pinned`) and the
//! squares an arrival there could do that (`screens`); every other move of a non-king piece is
//! legal without further work when not in check. King moves, moves of pinned pieces, moves onto
//! screen squares and all moves while in check get the full test (the king attacked on the
//! board after the move). Perft counts confirm the reasoning; the property tests compare with a
//! slow reference generator.

use super::attacks;
use super::move_::Move;
use super::piece::{Color, PieceKind};
use super::position::{Position, CHECK_LINES};
use super::square::Square;
use arrayvec::ArrayVec;

/// No xiangqi position has more than 2*17 (rooks) + 2*17 (cannons) + 2*8 + 2*4 + 2*4 + 5*3 + 4
/// = 119 moves, so 128 slots always suffice.
pub const MAX_MOVES: usize = 128;

/// A move list on the stack: generation never allocates.
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Per-node facts for the legality shortcut (see the module docs). Public so that a caller
/// generating a node's moves in parts (the search's staged move picker: captures, then
/// quiets) computes them once.
#[derive(Copy, Clone, Debug)]
pub struct Safety {
    pub(crate) in_check: bool,
    /// Own pieces whose departure could expose the king.
    pub(crate) pinned: u128,
    /// Empty squares where an own piece arriving becomes a cannon's screen against the king.
    pub(crate) screens: u128,
    /// The king's [`CHECK_LINES`]: in check, a move of another piece that neither leaves nor
    /// enters them leaves the check as it is, so it is illegal without a test.
    pub(crate) lines: u128,
}

impl Safety {
    /// Of a careful move's destinations (see [`Position::safety`]), those that need the full
    /// test; the others are illegal.
    #[inline(always)]
    fn needing_test(&self, kind: PieceKind, from: Square, dests: u128) -> u128 {
        if self.in_check && kind != PieceKind::King && self.lines >> from.index() & 1 == 0 {
            dests & self.lines
        } else {
            dests
        }
    }
}

/// Which destinations to generate.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Targets {
    All,
    Captures,
    Quiets,
}

impl Position {
    /// The legality facts of this position, for [`Position::legal_captures_with`] and
    /// [`Position::legal_quiets_with`].
    pub fn safety(&self) -> Safety {
        let us = self.side;
        let them = !us;
        let k = self.kings[us.index()];
        let e = &self.by_kind[them.index()];
        let rook_like = e[PieceKind::Rook.index()] | e[PieceKind::King.index()];
        let cannons = e[PieceKind::Cannon.index()];
        let mut in_check = false;
        let mut pinned = 0u128;
        let mut screens = 0u128;

        // Lines through the king: first, second and third pieces on each ray.
        let ray_all = attacks::rook_attacks(k, self.occ, self.occ_t);
        let first = ray_all & self.occ;
        let second = attacks::cannon_attacks(k, self.occ, self.occ_t);
        let occ2 = self.occ & !first;
        let occ2_t = {
            let mut t = self.occ_t;
            let mut f = first;
            while f != 0 {
                let s = f.trailing_zeros() as usize;
                f &= f - 1;
                t &= !(1u128 << attacks::TRANSPOSE[s]);
            }
            t
        };
        let third = attacks::cannon_attacks(k, occ2, occ2_t);
        if (first & rook_like) | (second & cannons) != 0 {
            in_check = true;
        }
        if (second & rook_like) | (third & cannons) | (first & cannons) != 0 {
            for ray in attacks::RAYS[k.index()] {
                let (f1, f2, f3) = (first & ray, second & ray, third & ray);
                if f2 & rook_like != 0 {
                    pinned |= f1;
                }
                if f3 & cannons != 0 {
                    pinned |= f1 | f2;
                }
                if f1 & cannons != 0 {
                    screens |= ray_all & ray & !self.occ;
                }
            }
        }

        // Horses: attacks through open legs, and own pieces standing on a leg.
        let horses = e[PieceKind::Horse.index()];
        if horses != 0 {
            if attacks::horse_attackers(k, self.occ) & horses != 0 {
                in_check = true;
            }
            for (d, leg) in attacks::DIAG_NEIGHBOURS[k.index()].iter().enumerate() {
                if leg & self.occ != 0 && attacks::horse_attackers_via(k, d) & horses != 0 {
                    pinned |= leg;
                }
            }
        }
        if attacks::pawn_attackers(them, k) & e[PieceKind::Pawn.index()] != 0 {
            in_check = true;
        }
        pinned &= self.by_color[us.index()];
        Safety {
            in_check,
            pinned,
            screens,
            lines: CHECK_LINES[k.index()],
        }
    }

    /// Calls `f(kind, from, destinations)` for every piece of the side to move, with its
    /// pseudo-legal destinations restricted to `targets`.
    #[inline(always)]
    fn for_each_piece(&self, targets: Targets, mut f: impl FnMut(PieceKind, Square, u128)) {
        let us = self.side;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[(!us).index()];
        let mask = match targets {
            Targets::All => !own & ((1u128 << 90) - 1),
            Targets::Captures => enemy,
            Targets::Quiets => !self.occ & ((1u128 << 90) - 1),
        };
        let p = &self.by_kind[us.index()];
        let (occ, occ_t) = (self.occ, self.occ_t);
        for from in bits(p[PieceKind::Rook.index()]) {
            f(
                PieceKind::Rook,
                from,
                attacks::rook_attacks(from, occ, occ_t) & mask,
            );
        }
        for from in bits(p[PieceKind::Cannon.index()]) {
            let quiet = if targets == Targets::Captures {
                0
            } else {
                attacks::rook_attacks(from, occ, occ_t) & !occ
            };
            let cap = if targets == Targets::Quiets {
                0
            } else {
                attacks::cannon_attacks(from, occ, occ_t) & enemy
            };
            f(PieceKind::Cannon, from, (quiet | cap) & mask);
        }
        for from in bits(p[PieceKind::Horse.index()]) {
            f(
                PieceKind::Horse,
                from,
                attacks::horse_moves(from, occ) & mask,
            );
        }
        for from in bits(p[PieceKind::Pawn.index()]) {
            f(PieceKind::Pawn, from, attacks::pawn_moves(us, from) & mask);
        }
        for from in bits(p[PieceKind::Elephant.index()]) {
            f(
                PieceKind::Elephant,
                from,
                attacks::elephant_moves(from, occ) & mask,
            );
        }
        for from in bits(p[PieceKind::Advisor.index()]) {
            f(
                PieceKind::Advisor,
                from,
                attacks::advisor_moves(from) & mask,
            );
        }
        let k = self.kings[us.index()];
        f(PieceKind::King, k, attacks::king_moves(k) & mask);
    }

    fn generate(&self, s: Safety, targets: Targets, list: &mut MoveList) {
        self.for_each_piece(targets, |kind, from, dests| {
            let careful =
                s.in_check || kind == PieceKind::King || s.pinned >> from.index() & 1 != 0;
            let (safe, risky) = if careful {
                (0, s.needing_test(kind, from, dests))
            } else {
                (dests & !s.screens, dests & s.screens)
            };
            for to in bits(safe) {
                list.push(Move::new_unchecked(from, to));
            }
            for to in bits(risky) {
                if self.leaves_king_safe(from, to) {
                    list.push(Move::new_unchecked(from, to));
                }
            }
        });
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(self.safety(), Targets::All, &mut list);
        list
    }

    /// Legal captures only (quiescence search).
    pub fn legal_captures(&self) -> MoveList {
        self.legal_captures_with(self.safety())
    }

    /// Legal non-captures only.
    pub fn legal_quiets(&self) -> MoveList {
        self.legal_quiets_with(self.safety())
    }

    /// Legal captures, with this position's [`Position::safety`] computed by the caller.
    pub fn legal_captures_with(&self, s: Safety) -> MoveList {
        let mut list = MoveList::new();
        self.generate(s, Targets::Captures, &mut list);
        list
    }

    /// Legal non-captures, with this position's [`Position::safety`] computed by the caller.
    pub fn legal_quiets_with(&self, s: Safety) -> MoveList {
        let mut list = MoveList::new();
        self.generate(s, Targets::Quiets, &mut list);
        list
    }

    /// The number of legal moves, counted without building a list (perft's last ply).
    pub fn count_legal(&self) -> u64 {
        let s = self.safety();
        let mut n = 0u64;
        self.for_each_piece(Targets::All, |kind, from, dests| {
            let careful =
                s.in_check || kind == PieceKind::King || s.pinned >> from.index() & 1 != 0;
            let risky = if careful {
                s.needing_test(kind, from, dests)
            } else {
                n += (dests & !s.screens).count_ones() as u64;
                dests & s.screens
            };
            for to in bits(risky) {
                if self.leaves_king_safe(from, to) {
                    n += 1;
                }
            }
        });
        n
    }

    /// Does the side to move have any legal move? (No legal move loses, in check or not.)
    pub fn has_legal_move(&self) -> bool {
        let mut found = false;
        let s = self.safety();
        self.for_each_piece(Targets::All, |kind, from, dests| {
            if found || dests == 0 {
                return;
            }
            let careful =
                s.in_check || kind == PieceKind::King || s.pinned >> from.index() & 1 != 0;
            if !careful && dests & !s.screens != 0 {
                found = true;
                return;
            }
            found =
                bits(s.needing_test(kind, from, dests)).any(|to| self.leaves_king_safe(from, to));
        });
        found
    }

    /// Checkmated: in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Stalemated (困毙): not in check, no legal move. Also a loss in xiangqi.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// Is `m` pseudo-legal for the piece on its from-square (ignoring the own king's safety)?
    fn is_pseudo_legal(&self, m: Move) -> bool {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let piece = match self.board[from.index()] {
            Some(p) if p.color() == us => p,
            _ => return false,
        };
        if self.by_color[us.index()] >> to.index() & 1 != 0 {
            return false;
        }
        let (occ, occ_t) = (self.occ, self.occ_t);
        let dests = match piece.kind() {
            PieceKind::Rook => attacks::rook_attacks(from, occ, occ_t),
            PieceKind::Cannon => {
                (attacks::rook_attacks(from, occ, occ_t) & !occ)
                    | (attacks::cannon_attacks(from, occ, occ_t) & self.by_color[(!us).index()])
            }
            PieceKind::Horse => attacks::horse_moves(from, occ),
            PieceKind::Elephant => attacks::elephant_moves(from, occ),
            PieceKind::Advisor => attacks::advisor_moves(from),
            PieceKind::King => attacks::king_moves(from),
            PieceKind::Pawn => attacks::pawn_moves(us, from),
        };
        dests >> to.index() & 1 != 0
    }

    /// Is `m` legal here? Cheap enough for checking hash-table moves.
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.leaves_king_safe(m.from(), m.to())
    }

    /// [`Position::is_legal`] where the caller knows whether the side to move is in check (a
    /// search does): a move of a piece other than the king that neither leaves nor enters
    /// the king's [`CHECK_LINES`] changes nothing an attack on it depends on, so it is legal
    /// exactly when the king is not in check, without the attack test.
    pub fn is_legal_in(&self, m: Move, in_check: bool) -> bool {
        debug_assert_eq!(in_check, self.in_check(), "is_legal_in {m}");
        if !self.is_pseudo_legal(m) {
            return false;
        }
        let k = self.kings[self.side.index()];
        let lines = CHECK_LINES[k.index()];
        let near = (lines >> m.from().index() | lines >> m.to().index()) & 1 != 0;
        if m.from() != k && !near {
            return !in_check;
        }
        self.leaves_king_safe(m.from(), m.to())
    }

    /// Reads an ICCS move (`h2e2`, `H2-E2`) and checks that it is legal here.
    pub fn parse_move(&self, s: &str) -> Result<Move, MoveError> {
        let m: Move = s
            .trim()
            .parse()
            .map_err(|e: super::move_::ParseMoveError| MoveError::Syntax(e.to_string()))?;
        if self.is_legal(m) {
            Ok(m)
        } else {
            Err(MoveError::Illegal(m))
        }
    }

    /// Checks and makes an ICCS move.
    pub fn play(&mut self, s: &str) -> Result<Move, MoveError> {
        let m = self.parse_move(s)?;
        self.make_move(m);
        Ok(m)
    }

    /// Reads ICCS moves played one after another from here (a game's moves after its set-up
    /// position): the moves up to the first entry that is not a legal move where it comes, and
    /// that entry's refusal, if one was refused. The position itself is left as it is.
    pub fn parse_moves(&self, texts: &[String]) -> (Vec<Move>, Option<RefusedMove>) {
        let mut pos = self.clone();
        let mut moves = Vec::with_capacity(texts.len());
        for (index, text) in texts.iter().enumerate() {
            match pos.parse_move(text) {
                Ok(m) => {
                    pos.make_move(m);
                    moves.push(m);
                }
                Err(error) => {
                    let text = text.clone();
                    return (moves, Some(RefusedMove { index, text, error }));
                }
            }
        }
        (moves, None)
    }

    /// Who is to move and the colour that owns the piece on `sq`, for callers that need it.
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        self.board[sq.index()].map(|p| p.color())
    }
}

/// Why a move string was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in ICCS form.
    Syntax(String),
    /// Well-formed but not legal in this position.
    Illegal(Move),
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "{s}"),
            MoveError::Illegal(m) => write!(f, "{m} is not a legal move in this position"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The entry of a move list that [`Position::parse_moves`] stopped at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedMove {
    /// Its place in the list, from 0: the moves before it were read.
    pub index: usize,
    /// The entry as given.
    pub text: String,
    pub error: MoveError,
}

/// Squares of a raw mask.
#[inline(always)]
fn bits(b: u128) -> super::bitboard::Bitboard {
    super::bitboard::Bitboard(b)
}
