//! Reading ElephantEye's `BOOK.DAT` (the book every XQWizard install has), written from the
//! format description in the project docs (`docs/book.md` §1), not from its code.
//!
//! The file is a flat array of 8-byte little-endian records `(lock: u32, move: u16,
//! weight: u16)` sorted by `lock`, the position's 32-bit Zobrist "lock1" in ElephantEye's own
//! key scheme (tables drawn from an RC4 stream keyed with four zero bytes; squares on a 16x16
//! board). A position and its left-right mirror are stored once, under either; we look up the
//! position and then its mirror. Only 32 bits are kept, so collisions happen: every move is
//! checked for legality before use, as ElephantEye itself does.

use super::{BookError, BookMove};
use crate::board::{Color, Move, Position, Square};
use once_cell::sync::Lazy;

/// RC4 keystream with a four-byte zero key.
struct Rc4 {
    s: [u8; 256],
    i: u8,
    j: u8,
}

impl Rc4 {
    fn zero_key() -> Rc4 {
        let mut s = [0u8; 256];
        for (i, v) in s.iter_mut().enumerate() {
            *v = i as u8;
        }
        let mut j: u8 = 0;
        for i in 0..256 {
            j = j.wrapping_add(s[i]); // the key bytes are all zero
            s.swap(i, j as usize);
        }
        Rc4 { s, i: 0, j: 0 }
    }

    fn next_byte(&mut self) -> u8 {
        self.i = self.i.wrapping_add(1);
        self.j = self.j.wrapping_add(self.s[self.i as usize]);
        self.s.swap(self.i as usize, self.j as usize);
        let t = self.s[self.i as usize].wrapping_add(self.s[self.j as usize]);
        self.s[t as usize]
    }

    fn next_u32(&mut self) -> u32 {
        let b = [
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
            self.next_byte(),
        ];
        u32::from_le_bytes(b)
    }
}

/// The lock1 values: `(player, [piece 0..14][square 0..256])`.
struct Locks {
    player: u32,
    table: Vec<[u32; 256]>,
}

static LOCKS: Lazy<Locks> = Lazy::new(|| {
    let mut rc4 = Rc4::zero_key();
    // Each draw is (key, lock0, lock1); only lock1 is kept in the book.
    let mut triple = || {
        let _key = rc4.next_u32();
        let _lock0 = rc4.next_u32();
        rc4.next_u32()
    };
    let player = triple();
    let mut table = vec![[0u32; 256]; 14];
    for row in table.iter_mut() {
        for v in row.iter_mut() {
            *v = triple();
        }
    }
    Locks { player, table }
});

/// ElephantEye's square number for our square: x = 3 + file, y = 12 - rank.
fn ee_square(sq: Square, mirror: bool) -> usize {
    let file = if mirror { 8 - sq.file() } else { sq.file() } as usize;
    (3 + file) + 16 * (12 - sq.rank() as usize)
}

fn our_square(ee: u8) -> Option<Square> {
    let x = (ee & 15) as i32 - 3;
    let y = (ee >> 4) as i32;
    let rank = 12 - y;
    if (0..9).contains(&x) && (0..10).contains(&rank) {
        Square::from_coords(x as u8, rank as u8)
    } else {
        None
    }
}

/// A record's move, `src + 256 * dst` in ElephantEye's numbering, if it joins two squares of
/// the board.
fn record_move(mv: u16) -> Option<Move> {
    Move::new(our_square(mv as u8)?, our_square((mv >> 8) as u8)?)
}

/// The lock1 of a position (or of its mirror image).
fn lock(pos: &Position, mirror: bool) -> u32 {
    let locks = &*LOCKS;
    let mut l = 0;
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            // Piece order matches ours: K A B N R C P, Black = Red + 7.
            l ^= locks.table[p.index()][ee_square(sq, mirror)];
        }
    }
    if pos.side_to_move() == Color::Black {
        l ^= locks.player;
    }
    l
}

#[derive(Clone, Debug)]
pub struct EleEyeBook {
    records: Vec<(u32, u16, u16)>,
}

impl EleEyeBook {
    pub fn decode(bytes: &[u8]) -> Result<EleEyeBook, BookError> {
        if bytes.is_empty() || !bytes.len().is_multiple_of(8) {
            return Err(BookError::BadMagic);
        }
        let records: Vec<(u32, u16, u16)> = bytes
            .chunks_exact(8)
            .map(|c| {
                (
                    u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                    u16::from_le_bytes([c[4], c[5]]),
                    u16::from_le_bytes([c[6], c[7]]),
                )
            })
            .collect();
        if records.windows(2).any(|w| w[0].0 > w[1].0) {
            return Err(BookError::Corrupt("BOOK.DAT records are not sorted".into()));
        }
        // Bytes of the right size and order none of whose records holds a move (a file of
        // zeros, say) are no book: refused, not loaded as a book that never answers.
        if !records.iter().any(|&(_, mv, _)| record_move(mv).is_some()) {
            return Err(BookError::Corrupt(
                "BOOK.DAT holds no valid record (no record's move joins two board squares)".into(),
            ));
        }
        Ok(EleEyeBook { records })
    }

    pub fn len(&self) -> usize {
        self.records.len()
    }

    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for r in &self.records {
            if Some(r.0) != last {
                n += 1;
                last = Some(r.0);
            }
        }
        n
    }

    pub fn probe(&self, pos: &Position) -> Vec<BookMove> {
        for mirror in [false, true] {
            let key = lock(pos, mirror);
            let start = self.records.partition_point(|r| r.0 < key);
            let found: Vec<BookMove> = self.records[start..]
                .iter()
                .take_while(|r| r.0 == key)
                .filter_map(|&(_, mv, weight)| {
                    let m = record_move(mv)?;
                    let m = if mirror { m.mirror_file() } else { m };
                    pos.is_legal(m).then_some(BookMove {
                        mv: m,
                        weight,
                        score: 0,
                    })
                })
                .collect();
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_moves() {
        let h2: Square = "h2".parse().unwrap();
        let e2: Square = "e2".parse().unwrap();
        // From the format description: h2e2 is src 0xAA, dst 0xA7.
        assert_eq!(ee_square(h2, false), 0xAA);
        assert_eq!(ee_square(e2, false), 0xA7);
        assert_eq!(our_square(0xAA), Some(h2));
        assert_eq!(ee_square("e0".parse().unwrap(), false), 199);
        assert_eq!(ee_square("e9".parse().unwrap(), false), 55);
        assert_eq!(our_square(0), None);
    }

    /// A file of sorted records none of which holds a move (all zeros, say) is no book.
    #[test]
    fn records_without_a_move_are_no_book() {
        let record = |lock: u32, mv: u16| {
            let mut r = lock.to_le_bytes().to_vec();
            r.extend_from_slice(&mv.to_le_bytes());
            r.extend_from_slice(&1u16.to_le_bytes());
            r
        };
        let e = EleEyeBook::decode(&[0u8; 8 << 10]).map(|b| b.len());
        assert!(
            matches!(&e, Err(BookError::Corrupt(m)) if m.contains("no valid record")),
            "{e:?}"
        );
        // Moves off the board, or from a square to itself.
        let off: Vec<u8> = [record(1, 0x0101), record(2, 0xAAAA), record(3, 0xFFAA)].concat();
        assert!(EleEyeBook::decode(&off).is_err());
        // One record with a move (h2e2: 0xAA to 0xA7) is a book.
        let one = [off, record(4, 0xA7AA)].concat();
        assert_eq!(EleEyeBook::decode(&one).map(|b| b.len()).ok(), Some(4));
    }

    /// A real BOOK.DAT is not shipped with the project (its licence is not ours). Run with
    /// `JJ_EEBOOK=/path/to/BOOK.DAT cargo test --release -- --ignored reads_a_real_book`.
    #[test]
    #[ignore = "needs ElephantEye's BOOK.DAT; set JJ_EEBOOK"]
    fn reads_a_real_book() {
        let path = std::env::var("JJ_EEBOOK").unwrap_or_else(|_| "BOOK.DAT".into());
        let bytes = std::fs::read(path).expect("BOOK.DAT readable");
        let book = EleEyeBook::decode(&bytes).unwrap();
        let moves = book.probe(&Position::startpos());
        let names: Vec<String> = moves.iter().map(|b| b.mv.to_string()).collect();
        assert!(
            names.iter().any(|m| m == "h2e2" || m == "b2e2"),
            "{names:?}"
        );
    }
}
