//! Move notation for people: the Chinese notation of the 2011 rules (article 7.5, full and
//! short records), the WXF letter notation, and (read only) the SAN that XBoard writes.
//!
//! # The Chinese notation (rules, 7.5)
//!
//! A full record (完整记录) has four parts: the piece, the file it stands on, the direction
//! (进 forward, 退 backward, 平 sideways, always from the mover's side) and a number: `炮二平五`,
//! `马8进7`. Files are counted from each player's own right, Red with Chinese numerals
//! (Red's 一 is the i-file, 九 the a-file), Black with digits (Black's 1 is the a-file, 9 the
//! i-file). After 平 the number is the destination file. After 进/退 it is the number of ranks
//! for pieces that move straight (车 炮 帅/将 兵/卒) and the destination file for pieces that
//! move diagonally (马 相/象 仕/士).
//!
//! 7.5 says that when two pieces of one kind stand on one file, 前 (front) and 后 (rear) replace
//! the file, "前马退四、后车平六（后车6）", and names 中 for a third. The article is silent on
//! the rest; what this module does there:
//!
//! * 前 is the piece further forward *for the mover* (higher rank for Red, lower for Black).
//! * Pawns: three on one file are 前/中/后; four are 前/二/三/后 and five 前/二/三/四/后
//!   (counted from the front). On input 一..五 count from the front as well, so 一兵 = 前兵.
//! * Pawns on two files each holding two or more: the position word and the file number
//!   replace piece and file, `前七进一`, `后7平6` (only pawns can be doubled on two files, so
//!   the piece is implied). On input `前兵七进一` and `七前进一` mean the same.
//! * Two advisors or elephants on one file are 前/后 like any other piece; on input the plain
//!   file form (`仕六进五`) is accepted too when only one of them can make the move. With three
//!   or five pawns on the file the plain file form names the middle one (as WXF's `P3` does).
//!
//! The short record (简写记录) of 7.5 drops the direction word and writes every number as a
//! digit: `炮25` for 炮二平五, `马87` for 马8进7, `后车6` for 后车平六. Without the direction
//! a short record can fit two legal moves: 7.5's own `車12` (车一平二) fits 车一进二 as well.
//! The reader takes 平 then, as that example (and 炮25, 車98, 后车6) demands; if no 平 fits and
//! still two moves do (a horse going forward or back to the same file) it reports
//! [`NotationError::Ambiguous`]. The writer drops the direction only where the reader gets
//! the move back, and otherwise keeps the direction word (`炮8进4`).
//!
//! Input is lenient: simplified and traditional characters and the usual variants (俥 伡 傌 馬
//! 砲 包 帥 將 進 後 ...), Chinese numerals, ASCII or full-width digits for either side,
//! `+ - =` or `↑ ↓ .` for the directions, spaces, and trailing `!`/`?` marks. A move is accepted
//! when exactly one legal move fits. Reading never panics, whatever the input.
//!
//! # WXF
//!
//! The letter form of the same notation: `C2=5`, `H8+7`, `+R-4` (front rook backward 4).
//! Letters K A E H R C P (B and N accepted), `+` forward, `-` backward, `=` (or `.`) sideways.
//! Doubled pieces: `+R`/`-R` (`R+`/`R-` accepted). Pawns: three on a file `+P`, `P3` (middle),
//! `-P`; four or five `++`, `+P`, (`P3`), `-P`, `--`; on two files the file digit comes first,
//! `3+`, `33`, `3-` (the WXF tandem-pawn rules).
//!
//! # XBoard's SAN
//!
//! XBoard saves xiangqi games in chess-like SAN over ICCS coordinates: `Cbe2`, `Hc7`, `Rxh0`,
//! `Hd2+`, `Ke0`, `cxc4`, `gh5` — a piece letter (K A E H R C; none for a pawn), the from-file
//! and/or from-rank when needed, `x` for a capture, the destination square (files a-i, ranks
//! 0-9 from Red's side), `+`/`#` for check. [`parse_san`] reads it, so `jiangjun pgn` reads
//! what XBoard writes; nothing here writes it.

use super::{Color, Move, PieceKind, Position, Square};
use std::fmt;

/// Why a move in Chinese or WXF notation was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotationError {
    /// Nothing but blanks.
    Empty,
    /// Not shaped like a move in this notation.
    Syntax(String),
    /// The side to move has no piece where the move says.
    NoSuchPiece(String),
    /// Well-formed, but no legal move fits.
    NoLegalMove(String),
    /// More than one legal move fits (only possible for lenient or short forms).
    Ambiguous(String),
}

/// At most this many characters of the input are echoed in messages.
fn clip(s: &str) -> String {
    let mut t: String = s.chars().take(24).collect();
    if t.len() < s.len() {
        t.push('…');
    }
    t
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => write!(f, "empty move"),
            NotationError::Syntax(s) => write!(f, "'{s}' is not a move in this notation"),
            NotationError::NoSuchPiece(s) => write!(f, "'{s}': no such piece to move"),
            NotationError::NoLegalMove(s) => write!(f, "'{s}' is not a legal move here"),
            NotationError::Ambiguous(s) => write!(f, "'{s}' fits more than one legal move"),
        }
    }
}

impl std::error::Error for NotationError {}

/// The direction word of a move, seen from the mover's side.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Action {
    /// 进: towards the opponent.
    Advance,
    /// 退: towards the own side.
    Retreat,
    /// 平: along the rank.
    Traverse,
}

/// Character set for the Chinese writer.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Script {
    /// 车 马 炮 进 后 ...
    Simplified,
    /// 車 馬 炮 進 後 ..., as in traditional-character books.
    Traditional,
}

/// A script word that names no [`Script`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownScript(pub String);

impl fmt::Display for UnknownScript {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown script '{}' (expected simplified or traditional)",
            self.0
        )
    }
}

impl std::error::Error for UnknownScript {}

/// The words command lines use (`--script`): `simplified`, `traditional`.
impl std::str::FromStr for Script {
    type Err = UnknownScript;

    fn from_str(s: &str) -> Result<Script, UnknownScript> {
        match s {
            "simplified" => Ok(Script::Simplified),
            "traditional" => Ok(Script::Traditional),
            _ => Err(UnknownScript(s.to_string())),
        }
    }
}

const RED_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// Pieces that move along lines: after 进/退 their number counts ranks, not files.
fn moves_straight(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Rook | PieceKind::Cannon | PieceKind::King | PieceKind::Pawn
    )
}

/// The file number a player uses: 1..9 from that player's own right.
fn file_number(color: Color, file: u8) -> u8 {
    match color {
        Color::Red => 9 - file,
        Color::Black => file + 1,
    }
}

/// The board file (0..8) of a player's file number 1..9.
fn file_of_number(color: Color, n: u8) -> Option<u8> {
    if !(1..=9).contains(&n) {
        return None;
    }
    Some(match color {
        Color::Red => 9 - n,
        Color::Black => n - 1,
    })
}

/// How far forward a square is for `color` (0 = own back rank).
fn advance(color: Color, sq: Square) -> i8 {
    match color {
        Color::Red => sq.rank() as i8,
        Color::Black => 9 - sq.rank() as i8,
    }
}

/// The mover's pieces of `kind` on `file`, front (most advanced) first.
fn on_file(pos: &Position, color: Color, kind: PieceKind, file: u8) -> Vec<Square> {
    let mut v: Vec<Square> = pos
        .pieces(color, kind)
        .filter(|s| s.file() == file)
        .collect();
    v.sort_by_key(|s| -advance(color, *s));
    v
}

/// Files on which `color` has two or more pieces of `kind`.
fn doubled_files(pos: &Position, color: Color, kind: PieceKind) -> Vec<u8> {
    let mut count = [0u8; 9];
    for s in pos.pieces(color, kind) {
        count[s.file() as usize] += 1;
    }
    (0..9u8).filter(|&f| count[f as usize] >= 2).collect()
}

/// The direction and number of a move of a piece of `kind` for `color` (7.5).
fn action_and_number(color: Color, kind: PieceKind, m: Move) -> (Action, u8) {
    let (from, to) = (m.from(), m.to());
    let d = advance(color, to) - advance(color, from);
    if d == 0 {
        return (Action::Traverse, file_number(color, to.file()));
    }
    let action = if d > 0 {
        Action::Advance
    } else {
        Action::Retreat
    };
    if moves_straight(kind) {
        (action, d.unsigned_abs())
    } else {
        (action, file_number(color, to.file()))
    }
}

/// Where a piece stands among its doubled fellows on one file, as written.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Place {
    Front,
    Middle,
    Rear,
    /// The n-th from the front (1-based): 二兵, 三兵, or 一..五 on input.
    Nth(u8),
}

impl Place {
    /// The word for the `i`-th (0-based, from the front) of `n` pieces on a file.
    fn of(i: usize, n: usize) -> Place {
        if i == 0 {
            Place::Front
        } else if i + 1 == n {
            Place::Rear
        } else if n == 3 {
            Place::Middle
        } else {
            Place::Nth(i as u8 + 1)
        }
    }

    /// The 0-based index it names among `n` pieces, if any.
    fn index(self, n: usize) -> Option<usize> {
        match self {
            Place::Front => Some(0),
            Place::Rear => Some(n - 1),
            Place::Middle if n % 2 == 1 && n >= 3 => Some(n / 2),
            Place::Middle => None,
            Place::Nth(k) if (1..=n).contains(&(k as usize)) => Some(k as usize - 1),
            Place::Nth(_) => None,
        }
    }
}

/// How the moving piece is named.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Designator {
    /// Piece and file: 炮二.
    File(PieceKind, u8),
    /// Position word and piece: 前马 (the only doubled file of that kind).
    Tandem(PieceKind, Place),
    /// Position word and file, for pawns doubled on two or more files: 前七.
    PawnFile(Place, u8),
}

/// A move split into the parts every notation writes.
#[derive(Copy, Clone, Debug)]
struct Parts {
    color: Color,
    designator: Designator,
    action: Action,
    number: u8,
}

/// Splits a move into its notation parts; `None` if the from-square has no piece of the side
/// to move.
fn parts(pos: &Position, m: Move) -> Option<Parts> {
    let color = pos.side_to_move();
    let piece = pos.piece_at(m.from()).filter(|p| p.color() == color)?;
    let kind = piece.kind();
    let file = m.from().file();
    let fellows = on_file(pos, color, kind, file);
    let i = fellows.iter().position(|&s| s == m.from())?;
    let designator = if fellows.len() < 2 {
        Designator::File(kind, file_number(color, file))
    } else {
        let place = Place::of(i, fellows.len());
        if kind == PieceKind::Pawn && doubled_files(pos, color, kind).len() >= 2 {
            Designator::PawnFile(place, file_number(color, file))
        } else {
            Designator::Tandem(kind, place)
        }
    };
    let (action, number) = action_and_number(color, kind, m);
    Some(Parts {
        color,
        designator,
        action,
        number,
    })
}

/// The character of a piece as records and boards write it: Red's 帅 仕 相 马 车 炮 兵, Black's
/// 将 士 象 马 车 炮 卒 (traditional: 帥 將 馬 車).
pub fn piece_char(color: Color, kind: PieceKind, script: Script) -> char {
    let trad = script == Script::Traditional;
    match (kind, color) {
        (PieceKind::King, Color::Red) => {
            if trad {
                '帥'
            } else {
                '帅'
            }
        }
        (PieceKind::King, Color::Black) => {
            if trad {
                '將'
            } else {
                '将'
            }
        }
        (PieceKind::Advisor, Color::Red) => '仕',
        (PieceKind::Advisor, Color::Black) => '士',
        (PieceKind::Elephant, Color::Red) => '相',
        (PieceKind::Elephant, Color::Black) => '象',
        (PieceKind::Horse, _) => {
            if trad {
                '馬'
            } else {
                '马'
            }
        }
        (PieceKind::Rook, _) => {
            if trad {
                '車'
            } else {
                '车'
            }
        }
        (PieceKind::Cannon, _) => '炮',
        (PieceKind::Pawn, Color::Red) => '兵',
        (PieceKind::Pawn, Color::Black) => '卒',
    }
}

fn action_char(a: Action, script: Script) -> char {
    match (a, script) {
        (Action::Advance, Script::Simplified) => '进',
        (Action::Advance, Script::Traditional) => '進',
        (Action::Retreat, _) => '退',
        (Action::Traverse, _) => '平',
    }
}

fn place_char(p: Place, script: Script) -> char {
    match p {
        Place::Front => '前',
        Place::Middle => '中',
        Place::Rear => {
            if script == Script::Traditional {
                '後'
            } else {
                '后'
            }
        }
        Place::Nth(k) => RED_NUMERALS[(k.clamp(1, 9) - 1) as usize],
    }
}

/// A number as 7.5 writes it: Chinese numerals for Red, digits for Black (or digits for both
/// in the short form).
fn number_char(color: Color, n: u8, digits: bool) -> char {
    let n = n.clamp(1, 9);
    if digits || color == Color::Black {
        char::from(b'0' + n)
    } else {
        RED_NUMERALS[(n - 1) as usize]
    }
}

/// The name a player gives a board file (0 = the a-file) in the Chinese notation: Red's
/// 九 (a-file) to 一 (i-file), Black's 1 (a-file) to 9 (i-file).
pub fn file_label(color: Color, file: u8) -> char {
    number_char(color, file_number(color, file), false)
}

/// Writes the designator (the first two characters).
fn push_designator(s: &mut String, p: &Parts, script: Script, digits: bool) {
    match p.designator {
        Designator::File(kind, f) => {
            s.push(piece_char(p.color, kind, script));
            s.push(number_char(p.color, f, digits));
        }
        Designator::Tandem(kind, place) => {
            s.push(place_char(place, script));
            s.push(piece_char(p.color, kind, script));
        }
        Designator::PawnFile(place, f) => {
            s.push(place_char(place, script));
            s.push(number_char(p.color, f, digits));
        }
    }
}

fn chinese_full(p: &Parts, script: Script) -> String {
    let mut s = String::with_capacity(16);
    push_designator(&mut s, p, script, false);
    s.push(action_char(p.action, script));
    s.push(number_char(p.color, p.number, false));
    s
}

/// The full Chinese record of a legal move (7.5 完整记录), e.g. `炮二平五`, `马8进7`, `前马退四`.
///
/// `m` should be legal in `pos`; if its from-square holds no piece of the side to move the
/// ICCS form is returned instead, so this never panics.
pub fn to_chinese(pos: &Position, m: Move) -> String {
    to_chinese_in(pos, m, Script::Simplified)
}

/// [`to_chinese`] in the chosen character set (`炮二平五` / `馬8進7`).
pub fn to_chinese_in(pos: &Position, m: Move, script: Script) -> String {
    match parts(pos, m) {
        Some(p) => chinese_full(&p, script),
        None => m.to_string(),
    }
}

/// The short Chinese record (7.5 简写记录): digits only and no direction word, `炮25`,
/// `马87`, `后车6`. Where dropping the direction would fit another legal move too, the
/// direction word stays (`炮8进4`), so the result always reads back as `m`.
pub fn to_chinese_short(pos: &Position, m: Move) -> String {
    let p = match parts(pos, m) {
        Some(p) => p,
        None => return m.to_string(),
    };
    let mut bare = String::with_capacity(12);
    push_designator(&mut bare, &p, Script::Simplified, true);
    let mut full = bare.clone();
    bare.push(number_char(p.color, p.number, true));
    if parse_chinese(pos, &bare) == Ok(m) {
        return bare;
    }
    full.push(action_char(p.action, Script::Simplified));
    full.push(number_char(p.color, p.number, true));
    full
}

fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::King => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Rook => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Pawn => 'P',
    }
}

fn wxf_action(a: Action) -> char {
    match a {
        Action::Advance => '+',
        Action::Retreat => '-',
        Action::Traverse => '=',
    }
}

/// The WXF record of a legal move: `C2=5`, `H8+7`, `+R-4`; tandem pawns as in the module docs.
/// Returns the ICCS form if the from-square holds no piece of the side to move.
pub fn to_wxf(pos: &Position, m: Move) -> String {
    let p = match parts(pos, m) {
        Some(p) => p,
        None => return m.to_string(),
    };
    let color = p.color;
    let from_file = m.from().file();
    let mut s = String::with_capacity(8);
    let digit = |n: u8| char::from(b'0' + n.clamp(1, 9));
    match p.designator {
        Designator::File(kind, f) => {
            s.push(wxf_letter(kind));
            s.push(digit(f));
        }
        Designator::Tandem(kind, _) => {
            let fellows = on_file(pos, color, kind, from_file);
            let n = fellows.len();
            let i = fellows.iter().position(|&q| q == m.from()).unwrap_or(0);
            let letter = wxf_letter(kind);
            let f = digit(file_number(color, from_file));
            let (a, b) = match (n, i) {
                (2, 0) | (3, 0) => ('+', letter),
                (2, _) | (3, 2) => ('-', letter),
                (3, _) => (letter, f),
                (_, 0) => ('+', '+'),
                (_, 1) => ('+', letter),
                (5, 2) => (letter, f),
                (_, i) if i + 1 == n => ('-', '-'),
                _ => ('-', letter),
            };
            s.push(a);
            s.push(b);
        }
        Designator::PawnFile(place, f) => {
            s.push(digit(f));
            s.push(match place {
                Place::Front => '+',
                Place::Rear => '-',
                _ => digit(f),
            });
        }
    }
    s.push(wxf_action(p.action));
    s.push(digit(p.number));
    s
}

/// One unit of a Chinese move after the character variants are folded together.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Tok {
    Piece(PieceKind),
    Num(u8),
    Act(Action),
    Place(Place),
}

/// Folds one character to a token; `Ok(None)` for characters that are skipped.
fn chinese_token(c: char) -> Result<Option<Tok>, ()> {
    let t = match c {
        '帅' | '帥' | '将' | '將' => Tok::Piece(PieceKind::King),
        '仕' | '士' => Tok::Piece(PieceKind::Advisor),
        '相' | '象' => Tok::Piece(PieceKind::Elephant),
        '马' | '馬' | '傌' | '㐷' => Tok::Piece(PieceKind::Horse),
        '车' | '車' | '俥' | '伡' => Tok::Piece(PieceKind::Rook),
        '炮' | '砲' | '包' | '礮' => Tok::Piece(PieceKind::Cannon),
        '兵' | '卒' => Tok::Piece(PieceKind::Pawn),
        '进' | '進' | '+' | '＋' | '↑' => Tok::Act(Action::Advance),
        '退' | '-' | '－' | '↓' => Tok::Act(Action::Retreat),
        '平' | '=' | '＝' | '.' | '．' => Tok::Act(Action::Traverse),
        '前' => Tok::Place(Place::Front),
        '中' => Tok::Place(Place::Middle),
        '后' | '後' => Tok::Place(Place::Rear),
        '1'..='9' => Tok::Num(c as u8 - b'0'),
        '１'..='９' => Tok::Num((c as u32 - '０' as u32) as u8),
        c if c.is_whitespace() => return Ok(None),
        '!' | '?' | '！' | '？' => return Ok(None),
        c => match RED_NUMERALS.iter().position(|&n| n == c) {
            Some(i) => Tok::Num(i as u8 + 1),
            None => return Err(()),
        },
    };
    Ok(Some(t))
}

/// Which pieces a record names, before the position is consulted.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Selector {
    /// All pieces of the kind on that file (lenient: filtered by the move).
    File(PieceKind, u8),
    /// A piece chosen by its place among doubled pieces, on a given file or on any doubled
    /// file.
    Place(PieceKind, Place, Option<u8>),
    /// WXF's own tandem rules (see [`wxf_index`]).
    Wxf(PieceKind, WxfPlace, Option<u8>),
}

/// Tandem markers of WXF, which count differently from the Chinese words once a file has
/// four or five pawns.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum WxfPlace {
    /// `+P`: front of 2-3, second of 4-5.
    Plus,
    /// `-P`: rear of 2-3, second-rearmost of 4-5.
    Minus,
    /// `++`: foremost of 4-5.
    PlusPlus,
    /// `--`: rearmost of 4-5.
    MinusMinus,
    /// `P3` or `33`: the middle one of 3 or 5.
    Middle,
}

fn wxf_index(p: WxfPlace, n: usize) -> Option<usize> {
    match (p, n) {
        (WxfPlace::Plus, 2 | 3) => Some(0),
        (WxfPlace::Plus, 4 | 5) => Some(1),
        (WxfPlace::Minus, 2 | 3) => Some(n - 1),
        (WxfPlace::Minus, 4 | 5) => Some(n - 2),
        (WxfPlace::PlusPlus, 4 | 5) => Some(0),
        (WxfPlace::MinusMinus, 4 | 5) => Some(n - 1),
        (WxfPlace::Middle, 3 | 5) => Some(n / 2),
        _ => None,
    }
}

/// A record reduced to what it asks for.
#[derive(Copy, Clone, Debug)]
struct Request {
    selector: Selector,
    /// `None` in a short record without direction.
    action: Option<Action>,
    number: u8,
}

/// Reads the token shapes listed in the module docs.
fn chinese_request(toks: &[Tok]) -> Option<Request> {
    let (last, rest) = toks.split_last()?;
    let number = match last {
        Tok::Num(n) => *n,
        _ => return None,
    };
    let (action, head) = match rest.split_last() {
        Some((Tok::Act(a), head)) => (Some(*a), head),
        _ => (None, rest),
    };
    use Tok::*;
    let selector = match *head {
        [Piece(k), Num(f)] => Selector::File(k, f),
        [Place(p), Piece(k)] | [Piece(k), Place(p)] => Selector::Place(k, p, None),
        [Num(i), Piece(k)] if (1..=5).contains(&i) => Selector::Place(k, self::Place::Nth(i), None),
        [Place(p), Num(f)] | [Num(f), Place(p)] => Selector::Place(PieceKind::Pawn, p, Some(f)),
        [Place(p), Piece(k), Num(f)] | [Piece(k), Num(f), Place(p)] => {
            Selector::Place(k, p, Some(f))
        }
        [Num(i), Piece(k), Num(f)] if (1..=5).contains(&i) => {
            Selector::Place(k, self::Place::Nth(i), Some(f))
        }
        _ => return None,
    };
    Some(Request {
        selector,
        action,
        number,
    })
}

/// Reads a move in Chinese notation, full or short form (7.5), in simplified or traditional
/// characters with the usual variants. Exactly one legal move must fit.
pub fn parse_chinese(pos: &Position, s: &str) -> Result<Move, NotationError> {
    if s.trim().is_empty() {
        return Err(NotationError::Empty);
    }
    let syntax = || NotationError::Syntax(clip(s));
    let mut toks = Vec::with_capacity(8);
    for c in s.chars() {
        match chinese_token(c) {
            Ok(Some(t)) => toks.push(t),
            Ok(None) => {}
            Err(()) => return Err(syntax()),
        }
        if toks.len() > 6 {
            return Err(syntax());
        }
    }
    let req = chinese_request(&toks).ok_or_else(syntax)?;
    resolve(pos, req, s)
}

/// One unit of a WXF move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum WTok {
    Piece(PieceKind),
    Digit(u8),
    Plus,
    Minus,
    Dot,
}

fn wxf_token(c: char) -> Option<WTok> {
    Some(match c.to_ascii_uppercase() {
        'K' => WTok::Piece(PieceKind::King),
        'A' => WTok::Piece(PieceKind::Advisor),
        'E' | 'B' => WTok::Piece(PieceKind::Elephant),
        'H' | 'N' => WTok::Piece(PieceKind::Horse),
        'R' => WTok::Piece(PieceKind::Rook),
        'C' => WTok::Piece(PieceKind::Cannon),
        'P' => WTok::Piece(PieceKind::Pawn),
        '1'..='9' => WTok::Digit(c as u8 - b'0'),
        '+' => WTok::Plus,
        '-' => WTok::Minus,
        '.' | '=' => WTok::Dot,
        _ => return None,
    })
}

/// Reads a move in WXF notation (`C2=5`, `C2.5`, `H8+7`, `+R-4`, `R+-4`, `++.4`, `3+.4`).
pub fn parse_wxf(pos: &Position, s: &str) -> Result<Move, NotationError> {
    let t = s.trim().trim_end_matches(['!', '?']);
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let syntax = || NotationError::Syntax(clip(s));
    let mut toks = Vec::with_capacity(4);
    for c in t.chars() {
        toks.push(wxf_token(c).ok_or_else(syntax)?);
        if toks.len() > 4 {
            return Err(syntax());
        }
    }
    use WTok::*;
    let (head, action, number) = match toks[..] {
        [a, b, op, Digit(n)] => {
            let action = match op {
                Plus => Action::Advance,
                Minus => Action::Retreat,
                Dot => Action::Traverse,
                _ => return Err(syntax()),
            };
            ([a, b], action, n)
        }
        _ => return Err(syntax()),
    };
    let selector = match head {
        [Piece(k), Digit(f)] => Selector::File(k, f),
        [Plus, Piece(k)] | [Piece(k), Plus] => Selector::Wxf(k, WxfPlace::Plus, None),
        [Minus, Piece(k)] | [Piece(k), Minus] => Selector::Wxf(k, WxfPlace::Minus, None),
        [Plus, Plus] => Selector::Wxf(PieceKind::Pawn, WxfPlace::PlusPlus, None),
        [Minus, Minus] => Selector::Wxf(PieceKind::Pawn, WxfPlace::MinusMinus, None),
        [Digit(f), Plus] => Selector::Wxf(PieceKind::Pawn, WxfPlace::Plus, Some(f)),
        [Digit(f), Minus] => Selector::Wxf(PieceKind::Pawn, WxfPlace::Minus, Some(f)),
        [Digit(f), Digit(g)] if f == g => Selector::Wxf(PieceKind::Pawn, WxfPlace::Middle, Some(f)),
        _ => return Err(syntax()),
    };
    resolve(
        pos,
        Request {
            selector,
            action: Some(action),
            number,
        },
        s,
    )
}

/// The squares a selector names in `pos`.
fn candidates(pos: &Position, sel: Selector) -> Vec<Square> {
    let color = pos.side_to_move();
    let files = |kind: PieceKind, file: Option<u8>| -> Vec<u8> {
        match file {
            Some(n) => file_of_number(color, n).into_iter().collect(),
            None => doubled_files(pos, color, kind),
        }
    };
    match sel {
        Selector::File(kind, n) => match file_of_number(color, n) {
            Some(f) => {
                let v = on_file(pos, color, kind, f);
                // WXF and Chinese alike: with three or five pawns on the file the plain
                // file names the middle one.
                if kind == PieceKind::Pawn && (v.len() == 3 || v.len() == 5) {
                    vec![v[v.len() / 2]]
                } else {
                    v
                }
            }
            None => Vec::new(),
        },
        Selector::Place(kind, place, file) => files(kind, file)
            .into_iter()
            .filter_map(|f| {
                let v = on_file(pos, color, kind, f);
                if v.len() < 2 {
                    return None;
                }
                place.index(v.len()).and_then(|i| v.get(i).copied())
            })
            .collect(),
        Selector::Wxf(kind, place, file) => files(kind, file)
            .into_iter()
            .filter_map(|f| {
                let v = on_file(pos, color, kind, f);
                wxf_index(place, v.len()).and_then(|i| v.get(i).copied())
            })
            .collect(),
    }
}

/// Finds the one legal move from the named pieces that fits the direction and number.
fn resolve(pos: &Position, req: Request, input: &str) -> Result<Move, NotationError> {
    let from = candidates(pos, req.selector);
    if from.is_empty() {
        return Err(NotationError::NoSuchPiece(clip(input)));
    }
    let color = pos.side_to_move();
    let mut fits: Vec<(Move, Action)> = Vec::new();
    for m in pos.legal_moves() {
        if !from.contains(&m.from()) {
            continue;
        }
        let kind = match pos.piece_at(m.from()) {
            Some(p) => p.kind(),
            None => continue,
        };
        let (a, n) = action_and_number(color, kind, m);
        if n == req.number && req.action.is_none_or(|r| r == a) {
            fits.push((m, a));
        }
    }
    if fits.len() > 1 && req.action.is_none() {
        // A short record without direction word: 7.5's examples drop 平 (炮25, 車98, 車12,
        // 后车6, where 車12 could also be 车一进二), so 平 is what a bare number means when
        // it fits.
        let mut traverses = fits.iter().filter(|&&(_, a)| a == Action::Traverse);
        return match (traverses.next(), traverses.next()) {
            (Some(&(m, _)), None) => Ok(m),
            _ => Err(NotationError::Ambiguous(clip(input))),
        };
    }
    match fits[..] {
        [(m, _)] => Ok(m),
        [] => Err(NotationError::NoLegalMove(clip(input))),
        _ => Err(NotationError::Ambiguous(clip(input))),
    }
}

/// Reads a move in XBoard's SAN (`Cbe2`, `Hc7`, `Rxh0`, `Hd2+`, `cxc4`, `gh5`; see the module
/// header): the one legal move of that piece to that square, from that file or rank if given.
pub fn parse_san(pos: &Position, s: &str) -> Result<Move, NotationError> {
    let t = s.trim().trim_end_matches(['+', '#', '!', '?']);
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let syntax = || NotationError::Syntax(clip(s));
    if !t.is_ascii() {
        return Err(syntax());
    }
    let (kind, body) = match t.as_bytes()[0] {
        b'K' => (PieceKind::King, &t[1..]),
        b'A' => (PieceKind::Advisor, &t[1..]),
        b'E' | b'B' => (PieceKind::Elephant, &t[1..]),
        b'H' | b'N' => (PieceKind::Horse, &t[1..]),
        b'R' => (PieceKind::Rook, &t[1..]),
        b'C' => (PieceKind::Cannon, &t[1..]),
        b'P' => (PieceKind::Pawn, &t[1..]),
        b'a'..=b'i' => (PieceKind::Pawn, t),
        _ => return Err(syntax()),
    };
    if body.len() < 2 {
        return Err(syntax());
    }
    let (head, dest) = body.split_at(body.len() - 2);
    if !dest.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Err(syntax());
    }
    let to: Square = dest.parse().map_err(|_| syntax())?;
    let head = head.strip_suffix('x').unwrap_or(head);
    let (mut file, mut rank) = (None, None);
    for c in head.bytes() {
        match c {
            b'a'..=b'i' if file.is_none() && rank.is_none() => file = Some(c - b'a'),
            b'0'..=b'9' if rank.is_none() => rank = Some(c - b'0'),
            _ => return Err(syntax()),
        }
    }
    let fits: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| {
            m.to() == to
                && pos.piece_at(m.from()).is_some_and(|p| p.kind() == kind)
                && file.is_none_or(|f| m.from().file() == f)
                && rank.is_none_or(|r| m.from().rank() == r)
        })
        .collect();
    match fits[..] {
        [m] => Ok(m),
        [] => Err(NotationError::NoLegalMove(clip(s))),
        _ => Err(NotationError::Ambiguous(clip(s))),
    }
}

/// Reads a move in any notation this module or the core knows: ICCS (`h2e2`, `H2-E2`), Chinese
/// (full or short), WXF or XBoard's SAN. What PGN reading uses when a file does not say its
/// format.
pub fn parse_any(pos: &Position, s: &str) -> Result<Move, NotationError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    // XBoard's SAN with a rank (`C2b7`: the cannon on rank 2 to b7) is also shaped like an
    // ICCS move (c2b7): an ICCS reading that is not legal gives way to the other notations.
    let iccs = t.parse::<Move>().ok();
    if let Some(m) = iccs.filter(|&m| pos.is_legal(m)) {
        return Ok(m);
    }
    let illegal = || NotationError::NoLegalMove(clip(s));
    if iccs.is_some() {
        return parse_san(pos, t).map_err(|_| illegal());
    }
    if t.is_ascii() {
        // WXF and SAN words never fit each other's shape: a word WXF cannot read may be SAN.
        parse_wxf(pos, t).or_else(|e| match e {
            NotationError::Syntax(_) => parse_san(pos, t).map_err(|san| match san {
                NotationError::Syntax(_) => e,
                other => other,
            }),
            other => Err(other),
        })
    } else {
        parse_chinese(pos, t)
    }
}

#[cfg(test)]
mod san_tests {
    use super::*;

    /// Plays `words` from the start position with [`parse_any`]; the moves in ICCS.
    fn play(words: &[&str]) -> Vec<String> {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        for w in words {
            let m = parse_any(&pos, w).unwrap_or_else(|e| panic!("{w}: {e}"));
            out.push(m.to_string());
            pos.make_move(m);
        }
        out
    }

    #[test]
    fn reads_xboards_san() {
        // The start of a game XBoard saved between two Jiangjun engines.
        let moves = play(&[
            "Cbe2", "Hc7", "Hc2", "Rb9", "Rb0", "c5", "g4", "Hg7", "Ch4", "Ci7", "Hg2", "Rh9",
            "c4", "Rh5", "Rh0", "g5", "Ci4", "Rxh0", "Hxh0", "cxc4", "gxg5", "Cxi4", "ixi4",
        ]);
        assert_eq!(&moves[..3], ["b2e2", "b9c7", "b0c2"]);
        assert_eq!(moves[17], "h5h0");
        assert_eq!(moves[22], "i3i4");
    }

    #[test]
    fn san_disambiguates_and_refuses() {
        let pos = Position::startpos();
        // Only one rook reaches a1: no file needed.
        assert_eq!(parse_san(&pos, "Ra1").unwrap().to_string(), "a0a1");
        assert_eq!(parse_san(&pos, "Hc2+").unwrap().to_string(), "b0c2");
        // Both advisors reach e1: the file decides.
        assert!(matches!(
            parse_san(&pos, "Ae1"),
            Err(NotationError::Ambiguous(_))
        ));
        assert_eq!(parse_san(&pos, "Afe1").unwrap().to_string(), "f0e1");
        assert_eq!(
            parse_san(&pos, "A0fe1"),
            Err(NotationError::Syntax("A0fe1".into()))
        );
        assert!(matches!(
            parse_san(&pos, "Re5"),
            Err(NotationError::NoLegalMove(_))
        ));
        for bad in ["", "X", "Qe2", "Hc", "H22", "He", "将e2", "Hxxc2", "cc2x"] {
            assert!(parse_san(&pos, bad).is_err(), "{bad}");
        }
        // WXF keeps its reading where both could apply.
        assert_eq!(parse_any(&pos, "C2.5").unwrap().to_string(), "h2e2");
    }

    /// XBoard wrote `C2b7` for the cannon on b2 to b7 beside another on b8; the word is also
    /// the ICCS move c2b7, which is not legal there. Read as SAN, as XBoard meant it.
    #[test]
    fn san_with_a_rank_is_not_taken_for_iccs() {
        let mut pos = Position::from_fen("3k5/1C7/9/9/9/9/9/1C7/9/4K4 w - - 0 1").unwrap();
        assert_eq!(parse_any(&pos, "C2b7").unwrap().to_string(), "b2b7");
        assert_eq!(parse_any(&pos, "C8b7").unwrap().to_string(), "b8b7");
        assert_eq!(parse_any(&pos, "b2b5").unwrap().to_string(), "b2b5");
        // Neither reading legal: the ICCS reading's error.
        assert_eq!(
            parse_any(&pos, "C2b8"),
            Err(NotationError::NoLegalMove("C2b8".into()))
        );
        pos.make_move("b2b5".parse().unwrap());
        assert_eq!(parse_any(&pos, "d9d8").unwrap().to_string(), "d9d8");
    }
}
