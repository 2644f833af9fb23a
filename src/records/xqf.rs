//! XQF, the binary game format of XQWizard (象棋演播室) and the programs that copied it.
//!
//! Layout (little-endian; offsets in hex):
//!
//! * `00` `"XQ"`; `02` version; `03` key mask; `04` product id (4 bytes); `08`..`0B` the
//!   four "or" keys A-D; `0C` key sum; `0D`..`0F` the board key and the keys of the move's
//!   from- and to-squares.
//! * `10`..`2F` where the 32 pieces start, one byte each, in the order 车马相仕帅仕相马车炮炮
//!   兵兵兵兵兵 for Red then the same for Black. A byte is `file * 10 + rank` (file 0 the
//!   a-file, rank 0 Red's back rank); anything above 89 is a piece not on the board.
//! * `32` side to move (0 Red); `33` result (0 unknown, 1 Red wins, 2 Black wins, 3 and 4 a
//!   draw); `40` game type (0 full game, 1 opening, 2 middlegame, 3 endgame). Readers check
//!   that the key sum and the three keys add up to 0 mod 256.
//! * Length-prefixed GB18030 strings: title `50` (63 bytes), event `D0` (63), date `110`,
//!   site `120`, Red `130`, Black `140` (15 each), opening `150` (63), Red's and Black's
//!   time `190` and `1A0`, annotator `1D0`, author `1E0` (15 each).
//! * From `400` the move tree in preorder, one record per node: from, to, flags, a reserved
//!   byte, then a comment. The first record is the root (no move; the game's opening
//!   comment). A node's main-line successor follows it at once, its alternatives after the
//!   whole successor subtree, so the main line is the records up to the first one without
//!   the has-next flag.
//!
//! Versions up to `0x0A` store all this as it is: from and to are the square codes plus
//! `0x18` and `0x20`, the flags' high nibble means has-next, the low one has-variation, and
//! every record is followed by a 4-byte comment length. Later versions "encrypt": keys are
//! derived from the header bytes (see `Keys`), the piece bytes are shifted (and from 12 on
//! rotated) by the board key, from and to are shifted further by their keys, the flags are
//! `0x80` has-next, `0x40` has-variation, `0x20` has-comment (only then a length follows,
//! shifted by a key), and every byte from `400` on is shifted by a 32-byte key stream.
//!
//! [`read_xqf`] reads the main line and its comments, checks every move for legality, and
//! returns a typed error, never a panic, on any bytes. [`write_xqf`] writes our games in
//! either form; the tests use it to make files.

use super::pgn::Game;
use crate::board::GameResult;
use crate::board::{Color, Move, Piece, PieceKind, PlacementError, Position, Square};
use encoding_rs::GB18030;
use std::fmt;

/// Where the move records start.
const BODY: usize = 0x400;
/// The last version stored in the clear.
const LAST_PLAIN_VERSION: u8 = 0x0A;
/// From this version on the piece bytes are also rotated.
const FIRST_ROTATED_VERSION: u8 = 12;
/// The version [`write_xqf`] writes by default (XQWizard's current one).
pub const DEFAULT_VERSION: u8 = 0x12;

/// The kinds of the 16 piece slots of each side, in file order.
const SLOTS: [PieceKind; 16] = {
    use PieceKind::*;
    [
        Rook, Horse, Elephant, Advisor, King, Advisor, Elephant, Horse, Rook, Cannon, Cannon, Pawn,
        Pawn, Pawn, Pawn, Pawn,
    ]
};

/// The header strings: tag name, offset of the length byte, room for the text.
const STRINGS: [(&str, usize, usize); 8] = [
    ("Title", 0x50, 63),
    ("Event", 0xD0, 63),
    ("Date", 0x110, 15),
    ("Site", 0x120, 15),
    ("Red", 0x130, 15),
    ("Black", 0x140, 15),
    ("Opening", 0x150, 63),
    ("Annotator", 0x1D0, 15),
];

/// Why bytes are not a readable XQF game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum XqfError {
    /// Shorter than the 1024-byte header.
    TooShort { len: usize },
    /// Does not start with `XQ`.
    NotXqf,
    /// The pieces do not make a legal position.
    Position(PlacementError),
    /// Two pieces on one square.
    SharedSquare { square: Square },
    /// The records end inside a record or a comment.
    Truncated { ply: usize },
    /// A move record that is not a legal move (ply 1-based; squares as stored, decoded).
    IllegalMove { ply: usize, from: u8, to: u8 },
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XqfError::TooShort { len } => {
                write!(f, "{len} bytes: shorter than the 1024-byte XQF header")
            }
            XqfError::NotXqf => write!(f, "not an XQF file (no 'XQ' signature)"),
            XqfError::Position(e) => write!(f, "start position: {e}"),
            XqfError::SharedSquare { square } => {
                write!(f, "start position: two pieces on {square}")
            }
            XqfError::Truncated { ply } => {
                write!(f, "the move records end inside the record of ply {ply}")
            }
            XqfError::IllegalMove { ply, from, to } => {
                let name = |c: u8| match square_of(c) {
                    Some(s) => s.to_string(),
                    None => format!("#{c}"),
                };
                write!(
                    f,
                    "ply {ply}: {}-{} is not a legal move here",
                    name(*from),
                    name(*to)
                )
            }
        }
    }
}

impl std::error::Error for XqfError {}

/// Does the file start like an XQF file? (What a reader of several formats asks first.)
pub fn is_xqf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"XQ")
}

/// The square of a position byte, `file * 10 + rank`.
fn square_of(code: u8) -> Option<Square> {
    if code > 89 {
        return None;
    }
    Square::from_coords(code / 10, code % 10)
}

fn code_of(sq: Square) -> u8 {
    sq.file() * 10 + sq.rank()
}

/// The keys of an encrypted file, derived from header bytes `03`..`0F`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Keys {
    /// Shift of the piece bytes (and their rotation).
    xy: u8,
    /// Shift of the from byte of each move.
    xyf: u8,
    /// Shift of the to byte of each move.
    xyt: u8,
    /// Added to each comment length.
    comment: u32,
    /// The stream subtracted from every byte from `400` on.
    stream: [u8; 32],
}

impl Keys {
    /// All zero: the clear form of versions up to `0x0A`.
    fn plain() -> Keys {
        Keys {
            xy: 0,
            xyf: 0,
            xyt: 0,
            comment: 0,
            stream: [0; 32],
        }
    }

    fn from_header(h: &[u8]) -> Keys {
        let byte = |i: usize| u32::from(h.get(i).copied().unwrap_or(0));
        let (mask, sum) = (byte(0x03), byte(0x0C));
        let (hxy, hxyf, hxyt) = (byte(0x0D), byte(0x0E), byte(0x0F));
        // Each key is a polynomial of its header byte times the previous key, mod 256.
        let poly = |b: u32| ((((b * b * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) & 0xFF;
        let xy = (poly(hxy) * hxy) & 0xFF;
        let xyf = (poly(hxyf) * xy) & 0xFF;
        let xyt = (poly(hxyt) * xyf) & 0xFF;
        let comment = (sum * 256 + hxy) % 32000 + 767;
        let mix = [
            (sum & mask) | byte(0x08),
            (hxy & mask) | byte(0x09),
            (hxyf & mask) | byte(0x0A),
            (hxyt & mask) | byte(0x0B),
        ];
        let mut stream = [0u8; 32];
        for (i, s) in stream.iter_mut().enumerate() {
            *s = COPYRIGHT[i] & mix[i % 4] as u8;
        }
        Keys {
            xy: xy as u8,
            xyf: xyf as u8,
            xyt: xyt as u8,
            comment,
            stream,
        }
    }
}

/// The text the key stream is cut from.
const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";

/// Reads the move records of the body (already decrypted).
struct Records<'a> {
    body: &'a [u8],
    at: usize,
    version: u8,
    keys: &'a Keys,
}

/// One move record: from, to (decoded square codes), has-next, comment.
struct Record {
    from: u8,
    to: u8,
    has_next: bool,
    comment: Option<String>,
}

impl Records<'_> {
    fn take(&mut self, n: usize, ply: usize) -> Result<&[u8], XqfError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.body.len())
            .ok_or(XqfError::Truncated { ply })?;
        let s = &self.body[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn at_end(&self) -> bool {
        self.at >= self.body.len()
    }

    fn next(&mut self, ply: usize) -> Result<Record, XqfError> {
        let r = self.take(4, ply)?;
        let (raw_from, raw_to, flags) = (r[0], r[1], r[2]);
        let plain = self.version <= LAST_PLAIN_VERSION;
        let (has_next, has_comment) = if plain {
            (flags & 0xF0 != 0, true)
        } else {
            (flags & 0x80 != 0, flags & 0x20 != 0)
        };
        let mut comment = None;
        if has_comment {
            let l = self.take(4, ply)?;
            let stored = u32::from_le_bytes([l[0], l[1], l[2], l[3]]);
            // Plain files store a signed length, 0 for none; encrypted ones add the key.
            let len = if plain {
                i64::from(stored as i32)
            } else {
                i64::from(stored) - i64::from(self.keys.comment)
            };
            if len > 0 {
                let n = usize::try_from(len).map_err(|_| XqfError::Truncated { ply })?;
                let text = self.take(n, ply)?;
                let (s, _, _) = GB18030.decode(text);
                let s = s.trim_end_matches('\0').trim();
                if !s.is_empty() {
                    comment = Some(s.to_string());
                }
            }
        }
        Ok(Record {
            from: raw_from.wrapping_sub(0x18).wrapping_sub(self.keys.xyf),
            to: raw_to.wrapping_sub(0x20).wrapping_sub(self.keys.xyt),
            has_next,
            comment,
        })
    }
}

/// The start position's pieces from the 32 piece bytes.
fn read_board(
    h: &[u8],
    version: u8,
    keys: &Keys,
) -> Result<[Option<Piece>; crate::board::square::SQUARES], XqfError> {
    let mut codes = [0u8; 32];
    for (i, c) in codes.iter_mut().enumerate() {
        *c = h.get(0x10 + i).copied().unwrap_or(0xFF);
    }
    if version > LAST_PLAIN_VERSION {
        if version >= FIRST_ROTATED_VERSION {
            let mut rotated = [0u8; 32];
            for (i, &c) in codes.iter().enumerate() {
                rotated[(usize::from(keys.xy) + i + 1) & 31] = c;
            }
            codes = rotated;
        }
        for c in codes.iter_mut() {
            *c = c.wrapping_sub(keys.xy);
        }
    }
    let mut board = [None; crate::board::square::SQUARES];
    for (i, &c) in codes.iter().enumerate() {
        let Some(sq) = square_of(c) else { continue };
        let color = if i < 16 { Color::Red } else { Color::Black };
        let slot = &mut board[sq.index()];
        if slot.is_some() {
            return Err(XqfError::SharedSquare { square: sq });
        }
        *slot = Some(Piece::new(color, SLOTS[i % 16]));
    }
    Ok(board)
}

/// A header string: length byte, then up to `room` bytes of GB18030.
fn read_string(h: &[u8], at: usize, room: usize) -> String {
    let len = usize::from(h.get(at).copied().unwrap_or(0)).min(room);
    let bytes = h.get(at + 1..at + 1 + len).unwrap_or(&[]);
    let (s, _, _) = GB18030.decode(bytes);
    s.trim_end_matches('\0').trim().to_string()
}

/// Reads an XQF file: its start position, main line, comments, result and the header's
/// strings as tags (`Event` is the title when the file names no event).
pub fn read_xqf(bytes: &[u8]) -> Result<Game, XqfError> {
    if !is_xqf(bytes) {
        return Err(XqfError::NotXqf);
    }
    if bytes.len() < BODY {
        return Err(XqfError::TooShort { len: bytes.len() });
    }
    let (header, body) = bytes.split_at(BODY);
    let version = header[2];
    let keys = if version > LAST_PLAIN_VERSION {
        Keys::from_header(header)
    } else {
        Keys::plain()
    };
    let board = read_board(header, version, &keys)?;
    let body: Vec<u8> = body
        .iter()
        .enumerate()
        .map(|(i, &b)| b.wrapping_sub(keys.stream[(BODY + i) % 32]))
        .collect();
    let mut records = Records {
        body: &body,
        at: 0,
        version,
        keys: &keys,
    };

    let mut tags = vec![("Game".to_string(), "Chinese Chess".to_string())];
    for (name, at, room) in STRINGS {
        let s = read_string(header, at, room);
        if !s.is_empty() {
            tags.push((name.to_string(), s));
        }
    }
    if !tags.iter().any(|(k, _)| k == "Event") {
        if let Some(t) = tags.iter_mut().find(|(k, _)| k == "Title") {
            t.0 = "Event".to_string();
        }
    }
    let result = match header[0x33] {
        1 => Some(GameResult::RedWins),
        2 => Some(GameResult::BlackWins),
        3 | 4 => Some(GameResult::Draw),
        _ => None,
    };

    let mut comments = Vec::new();
    let root = if records.at_end() {
        None
    } else {
        Some(records.next(0)?)
    };
    if let Some(c) = root.as_ref().and_then(|r| r.comment.clone()) {
        comments.push((0, c));
    }
    // The main line: the records after the root up to the first without has-next.
    let mut line = Vec::new();
    if root.is_some() {
        while !records.at_end() {
            let r = records.next(line.len() + 1)?;
            let more = r.has_next;
            line.push(r);
            if !more {
                break;
            }
        }
    }

    // The side to move is the side of the first move's piece; without moves, byte 32.
    let side = match line.first() {
        Some(r) => match square_of(r.from).and_then(|s| board[s.index()]) {
            Some(p) => p.color(),
            None => {
                return Err(XqfError::IllegalMove {
                    ply: 1,
                    from: r.from,
                    to: r.to,
                })
            }
        },
        None if header[0x32] == 1 => Color::Black,
        None => Color::Red,
    };
    let start = Position::from_placement(board, side, 0, 1).map_err(XqfError::Position)?;
    let mut game = Game::new(start.clone());
    game.tags = tags;
    game.result = result;
    let mut pos = start;
    for (i, r) in line.into_iter().enumerate() {
        let ply = i + 1;
        let m = match (square_of(r.from), square_of(r.to)) {
            (Some(f), Some(t)) => Move::new(f, t),
            _ => None,
        };
        let m = match m.filter(|&m| pos.is_legal(m)) {
            Some(m) => m,
            None => {
                return Err(XqfError::IllegalMove {
                    ply,
                    from: r.from,
                    to: r.to,
                })
            }
        };
        pos.make_move(m);
        game.moves.push(m);
        if let Some(c) = r.comment {
            comments.push((ply, c));
        }
    }
    game.comments = comments;
    Ok(game)
}

/// How [`write_xqf`] writes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct XqfWriteOptions {
    /// Up to `0x0A` the clear form, above it the encrypted one.
    pub version: u8,
    /// Seeds the header key bytes (encrypted versions).
    pub key_seed: u8,
}

impl Default for XqfWriteOptions {
    fn default() -> Self {
        XqfWriteOptions {
            version: DEFAULT_VERSION,
            key_seed: 0x5A,
        }
    }
}

/// `s` in GB18030, cut at a character boundary to at most `room` bytes.
fn gb_bytes(s: &str, room: usize) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4];
    for c in s.chars() {
        let (b, _, _) = GB18030.encode(c.encode_utf8(&mut buf));
        if out.len() + b.len() > room {
            break;
        }
        out.extend_from_slice(&b);
    }
    out
}

/// The 32 piece slots of the header for `start`: pieces into their slots in square order,
/// then, past the plain versions, shifted by the key (and rotated from the rotated version
/// on).
fn piece_codes(start: &Position, version: u8, keys: &Keys) -> [u8; 32] {
    let mut codes = [0xFFu8; 32];
    for sq in Square::all() {
        let Some(p) = start.piece_at(sq) else {
            continue;
        };
        let base = if p.color() == Color::Red { 0 } else { 16 };
        if let Some(i) = (0..16).find(|&i| SLOTS[i] == p.kind() && codes[base + i] == 0xFF) {
            codes[base + i] = code_of(sq);
        }
    }
    if version > LAST_PLAIN_VERSION {
        for c in codes.iter_mut() {
            *c = c.wrapping_add(keys.xy);
        }
        if version >= FIRST_ROTATED_VERSION {
            let rotated = codes;
            for (i, c) in codes.iter_mut().enumerate() {
                *c = rotated[(usize::from(keys.xy) + i + 1) & 31];
            }
        }
    }
    codes
}

/// Writes `game` (start position, main line, comments, result, the tags XQF has room for)
/// as an XQF file. Moves that are not legal in turn end the line there.
pub fn write_xqf(game: &Game, opts: XqfWriteOptions) -> Vec<u8> {
    let version = opts.version;
    let mut h = vec![0u8; BODY];
    h[0] = b'X';
    h[1] = b'Q';
    h[2] = version;
    if version > LAST_PLAIN_VERSION {
        let s = opts.key_seed;
        h[0x03] = 0xF7; // mask
        h[0x08] = s & 0x11; // the four "or" keys
        h[0x09] = s & 0x22;
        h[0x0A] = s & 0x44;
        h[0x0B] = s & 0x88;
        h[0x0D] = s;
        h[0x0E] = s.wrapping_mul(7).wrapping_add(3);
        h[0x0F] = s.wrapping_mul(13).wrapping_add(5);
        // The check XQStudio makes: key sum + the three keys = 0 (mod 256).
        h[0x0C] = 0u8.wrapping_sub(h[0x0D].wrapping_add(h[0x0E]).wrapping_add(h[0x0F]));
    }
    let keys = if version > LAST_PLAIN_VERSION {
        Keys::from_header(&h)
    } else {
        Keys::plain()
    };

    h[0x10..0x30].copy_from_slice(&piece_codes(&game.start, version, &keys));
    h[0x32] = u8::from(game.start.side_to_move() == Color::Black);
    h[0x33] = match game.result {
        None => 0,
        Some(GameResult::RedWins) => 1,
        Some(GameResult::BlackWins) => 2,
        Some(GameResult::Draw) => 3,
    };
    h[0x40] = if game.start == Position::startpos() {
        0
    } else {
        2
    };
    for (name, at, room) in STRINGS {
        if let Some(v) = game.tag(name) {
            let b = gb_bytes(v, room);
            h[at] = b.len() as u8;
            h[at + 1..at + 1 + b.len()].copy_from_slice(&b);
        }
    }

    // The legal prefix of the moves.
    let mut pos = game.start.clone();
    let mut moves = Vec::new();
    for &m in &game.moves {
        if !pos.is_legal(m) {
            break;
        }
        pos.make_move(m);
        moves.push(m);
    }
    let comment_at = |ply: usize| -> Vec<u8> {
        let text: Vec<&str> = game
            .comments
            .iter()
            .filter(|(p, _)| *p == ply)
            .map(|(_, c)| c.as_str())
            .collect();
        gb_bytes(&text.join("\n"), 30_000)
    };
    let mut body = Vec::new();
    let mut record = |from: u8, to: u8, next: bool, comment: Vec<u8>| {
        body.push(from.wrapping_add(0x18).wrapping_add(keys.xyf));
        body.push(to.wrapping_add(0x20).wrapping_add(keys.xyt));
        if version <= LAST_PLAIN_VERSION {
            body.push(if next { 0xF0 } else { 0 });
            body.push(0);
            body.extend_from_slice(&(comment.len() as u32).to_le_bytes());
        } else {
            let flags = if next { 0x80 } else { 0 } | if comment.is_empty() { 0 } else { 0x20 };
            body.push(flags);
            body.push(0);
            if !comment.is_empty() {
                let stored = comment.len() as u32 + keys.comment;
                body.extend_from_slice(&stored.to_le_bytes());
            }
        }
        body.extend_from_slice(&comment);
    };
    record(0, 0, !moves.is_empty(), comment_at(0));
    for (i, m) in moves.iter().enumerate() {
        record(
            code_of(m.from()),
            code_of(m.to()),
            i + 1 < moves.len(),
            comment_at(i + 1),
        );
    }
    for (i, b) in body.iter_mut().enumerate() {
        *b = b.wrapping_add(keys.stream[(BODY + i) % 32]);
    }
    h.extend_from_slice(&body);
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::pgn::parse_pgn;

    /// The clear form.
    const PLAIN: XqfWriteOptions = XqfWriteOptions {
        version: 0x0A,
        key_seed: 0,
    };

    fn sample() -> Game {
        let text = "[Event \"第八屆銀荔杯\"]\n[Red \"胡榮華\"]\n[Black \"楊官璘\"]\n\
            [Date \"1986.05.01\"]\n[Result \"1-0\"]\n\
            {中炮對屏風馬} 1. 炮二平五 馬8進7 {屏風馬} 2. 馬二進三 車9平8 \
            3. 車一平二 卒7進1 4. 兵七進一 1-0";
        parse_pgn(text).expect("sample reads").remove(0)
    }

    #[test]
    fn every_version_round_trips() {
        let g = sample();
        for version in [0x0A, 0x0B, 0x0C, DEFAULT_VERSION] {
            for seed in [0u8, 1, 0x5A, 0xFF] {
                let bytes = write_xqf(
                    &g,
                    XqfWriteOptions {
                        version,
                        key_seed: seed,
                    },
                );
                let back = read_xqf(&bytes).unwrap_or_else(|e| panic!("{version:#x}: {e}"));
                assert_eq!(back.moves, g.moves, "{version:#x} {seed}");
                assert_eq!(back.start, g.start);
                assert_eq!(back.result, Some(GameResult::RedWins));
                assert_eq!(back.comments, g.comments);
                for t in ["Event", "Red", "Black", "Date"] {
                    assert_eq!(back.tag(t), g.tag(t), "{t}");
                }
            }
        }
    }

    #[test]
    fn written_keys_pass_the_key_sum_check() {
        for seed in [0u8, 1, 0x5A, 0xFF] {
            let h = write_xqf(
                &sample(),
                XqfWriteOptions {
                    version: DEFAULT_VERSION,
                    key_seed: seed,
                },
            );
            let sum = h[0x0C..0x10].iter().fold(0u8, |a, &b| a.wrapping_add(b));
            assert_eq!(sum, 0, "seed {seed}");
        }
    }

    #[test]
    fn encrypted_files_do_not_show_their_moves() {
        let g = sample();
        let plain = write_xqf(&g, PLAIN);
        let secret = write_xqf(&g, XqfWriteOptions::default());
        // 炮二平五 is h2-e2, codes 72 and 42, stored plus 0x18 and 0x20 in the clear.
        let first = [72 + 0x18, 42 + 0x20];
        assert!(plain[BODY..].windows(2).any(|w| w == first));
        assert!(!secret[BODY..].windows(2).any(|w| w == first));
        assert_ne!(secret[BODY..BODY + 16], plain[BODY..BODY + 16]);
        assert_ne!(secret[0x10..0x30], plain[0x10..0x30]);
    }

    #[test]
    fn a_position_with_black_to_move() {
        let start = Position::from_fen("3k5/9/9/9/9/9/9/9/3R5/5K3 b - - 0 1").expect("fen");
        let mut g = Game::new(start);
        g.moves.push("d9e9".parse().expect("move"));
        for version in [0x0A, DEFAULT_VERSION] {
            let opts = XqfWriteOptions {
                version,
                key_seed: 9,
            };
            let back = read_xqf(&write_xqf(&g, opts)).expect("reads");
            assert_eq!(back.start.side_to_move(), Color::Black);
            assert_eq!(back.moves, g.moves);
            // Without moves the side comes from the header byte.
            let empty = Game::new(g.start.clone());
            let back = read_xqf(&write_xqf(&empty, opts)).expect("reads");
            assert_eq!(back.start, g.start);
        }
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(read_xqf(b"PK"), Err(XqfError::NotXqf));
        assert_eq!(read_xqf(b"XQ\x12"), Err(XqfError::TooShort { len: 3 }));
        let g = sample();
        let bytes = write_xqf(&g, PLAIN);
        // Cut inside the third move's record (马二进三, h0-g2, codes 70 and 62).
        let third = (BODY..bytes.len() - 1)
            .find(|&i| bytes[i] == 70 + 0x18 && bytes[i + 1] == 62 + 0x20)
            .expect("the third move is stored in the clear");
        let cut = &bytes[..third + 2];
        assert_eq!(read_xqf(cut), Err(XqfError::Truncated { ply: 3 }));
        // The second move made illegal: 马8进7 (h9-g7, codes 79 and 67) becomes h9-i9, where
        // Black's own rook stands.
        let mut bad = bytes.clone();
        let at = (BODY..bad.len() - 1)
            .find(|&i| bad[i] == 79 + 0x18 && bad[i + 1] == 67 + 0x20)
            .expect("the horse move is stored in the clear");
        bad[at + 1] = 89 + 0x20;
        assert_eq!(
            read_xqf(&bad),
            Err(XqfError::IllegalMove {
                ply: 2,
                from: 79,
                to: 89
            })
        );
        assert!(read_xqf(&bad)
            .unwrap_err()
            .to_string()
            .contains("ply 2: h9-i9"));
    }

    #[test]
    fn any_bytes_are_read_or_refused_without_panic() {
        let g = sample();
        let files = [
            write_xqf(
                &g,
                XqfWriteOptions {
                    version: 0x0A,
                    key_seed: 0,
                },
            ),
            write_xqf(&g, XqfWriteOptions::default()),
        ];
        let mut x = 0x9E37_79B9u32;
        let mut rnd = move || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for _ in 0..3000 {
            let mut f = files[(rnd() % 2) as usize].clone();
            match rnd() % 3 {
                0 => f.truncate((rnd() as usize) % (f.len() + 1)),
                1 => {
                    for _ in 0..1 + rnd() % 8 {
                        let i = (rnd() as usize) % f.len();
                        f[i] = rnd() as u8;
                    }
                }
                _ => {
                    let n = BODY + (rnd() as usize) % 200;
                    f = (0..n).map(|_| rnd() as u8).collect();
                    f[0] = b'X';
                    f[1] = b'Q';
                }
            }
            if let Ok(back) = read_xqf(&f) {
                assert_eq!(back.end_position().history().len(), back.moves.len());
            }
        }
    }
}
