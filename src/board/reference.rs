//! A slow, obviously-correct move generator, written independently of the fast one (no
//! bitboards, no tables, no pins): it walks the board array with the rules as a player states
//! them, and a move is legal when afterwards no enemy piece can move onto the own king and the
//! kings do not face each other. Tests compare the fast generator with it position by position.

use super::move_::Move;
use super::piece::{Color, Piece, PieceKind};
use super::position::Position;
use super::square::Square;

type Cells = [Option<Piece>; 90];

fn at(cells: &Cells, f: i32, r: i32) -> Option<Option<Piece>> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        Some(cells[(r * 9 + f) as usize])
    } else {
        None
    }
}

fn palace(color: Color, f: i32, r: i32) -> bool {
    let ranks = match color {
        Color::Red => 0..=2,
        Color::Black => 7..=9,
    };
    (3..=5).contains(&f) && ranks.contains(&r)
}

fn own_half(color: Color, r: i32) -> bool {
    match color {
        Color::Red => r <= 4,
        Color::Black => r >= 5,
    }
}

/// Every move of `side` that follows the piece rules, ignoring the own king's safety.
fn pseudo_moves(cells: &Cells, side: Color) -> Vec<(i32, i32, i32, i32)> {
    let mut out = Vec::new();
    for r in 0..10 {
        for f in 0..9 {
            let p = match cells[(r * 9 + f) as usize] {
                Some(p) if p.color() == side => p,
                _ => continue,
            };
            let mut add = |tf: i32, tr: i32| {
                if let Some(t) = at(cells, tf, tr) {
                    if t.is_none_or(|q| q.color() != side) {
                        out.push((f, r, tf, tr));
                    }
                }
            };
            match p.kind() {
                PieceKind::King => {
                    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        if palace(side, f + df, r + dr) {
                            add(f + df, r + dr);
                        }
                    }
                }
                PieceKind::Advisor => {
                    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        if palace(side, f + df, r + dr) {
                            add(f + df, r + dr);
                        }
                    }
                }
                PieceKind::Elephant => {
                    for (df, dr) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                        let eye = at(cells, f + df, r + dr);
                        if eye == Some(None) && own_half(side, r + 2 * dr) {
                            add(f + 2 * df, r + 2 * dr);
                        }
                    }
                }
                PieceKind::Horse => {
                    for (lf, lr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        if at(cells, f + lf, r + lr) != Some(None) {
                            continue; // leg blocked or off the board
                        }
                        if lf == 0 {
                            add(f + 1, r + 2 * lr);
                            add(f - 1, r + 2 * lr);
                        } else {
                            add(f + 2 * lf, r + 1);
                            add(f + 2 * lf, r - 1);
                        }
                    }
                }
                PieceKind::Rook | PieceKind::Cannon => {
                    for (df, dr) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                        let (mut tf, mut tr) = (f + df, r + dr);
                        let mut jumped = false;
                        while let Some(t) = at(cells, tf, tr) {
                            match (t, p.kind(), jumped) {
                                (None, _, false) => add(tf, tr),
                                (None, _, true) => {}
                                (Some(_), PieceKind::Rook, _) => {
                                    add(tf, tr);
                                    break;
                                }
                                (Some(_), _, false) => jumped = true,
                                (Some(_), _, true) => {
                                    add(tf, tr);
                                    break;
                                }
                            }
                            tf += df;
                            tr += dr;
                        }
                    }
                }
                PieceKind::Pawn => {
                    let fwd = if side == Color::Red { 1 } else { -1 };
                    add(f, r + fwd);
                    if !own_half(side, r) {
                        add(f + 1, r);
                        add(f - 1, r);
                    }
                }
            }
        }
    }
    out
}

fn king_of(cells: &Cells, side: Color) -> Option<(i32, i32)> {
    (0..90).find_map(|i| match cells[i] {
        Some(p) if p.color() == side && p.kind() == PieceKind::King => {
            Some((i as i32 % 9, i as i32 / 9))
        }
        _ => None,
    })
}

/// Is `side`'s king capturable by the other side, or facing the other king?
fn exposed(cells: &Cells, side: Color) -> bool {
    let (Some(k), Some(ek)) = (king_of(cells, side), king_of(cells, !side)) else {
        return true;
    };
    if k.0 == ek.0 {
        let (lo, hi) = (k.1.min(ek.1), k.1.max(ek.1));
        if (lo + 1..hi).all(|r| cells[(r * 9 + k.0) as usize].is_none()) {
            return true;
        }
    }
    pseudo_moves(cells, !side)
        .iter()
        .any(|&(_, _, tf, tr)| (tf, tr) == k)
}

/// All legal moves of the side to move, found the slow way.
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut cells: Cells = [None; 90];
    for sq in Square::all() {
        cells[sq.index()] = pos.piece_at(sq);
    }
    let side = pos.side_to_move();
    let mut out = Vec::new();
    for (f, r, tf, tr) in pseudo_moves(&cells, side) {
        let mut next = cells;
        let from = (r * 9 + f) as usize;
        let to = (tr * 9 + tf) as usize;
        next[to] = next[from].take();
        if !exposed(&next, side) {
            if let (Some(a), Some(b)) = (
                Square::from_coords(f as u8, r as u8),
                Square::from_coords(tf as u8, tr as u8),
            ) {
                out.extend(Move::new(a, b));
            }
        }
    }
    out
}

/// Is the side to move's king attacked (the slow way)?
pub fn in_check(pos: &Position) -> bool {
    let mut cells: Cells = [None; 90];
    for sq in Square::all() {
        cells[sq.index()] = pos.piece_at(sq);
    }
    exposed(&cells, pos.side_to_move())
}
