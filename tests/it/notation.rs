//! Chinese (rules 7.5) and WXF notation, and PGN.
//!
//! * Every legal move of every position in data/perft.txt, and of every position along random
//!   games from them (proptest over `board::arbitrary`'s choices), reads back from each written form: Chinese full (simplified
//!   and traditional), Chinese short, WXF.
//! * The classic endgames of the 1999 rules' text (data/classic_endgames.pgn) replay to the draws
//!   the text states, both from the PGN and record by record.
//! * Hand-written positions for 前/后, three to five pawns on a file, pawns on two files,
//!   Black's digits, character variants, the short form and the errors.
//! * PGN round trips in every move format, comments, variations, NAGs, move numbers, several
//!   games, errors with line numbers.
//! * Random strings never make a reader panic (proptest: a failure shrinks to a short string).

use jiangjun::board::arbitrary::{starts, walk, walk_visiting};
use jiangjun::board::notation::{
    parse_any, parse_chinese, parse_wxf, to_chinese, to_chinese_in, to_chinese_short, to_wxf,
    NotationError, Script,
};
use jiangjun::board::GameResult;
use jiangjun::board::{Color, Move, Piece, PieceKind, Position, Square};
use jiangjun::records::pgn::{parse_pgn, write_pgn, Game, MoveFormat, PgnError};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn perft_positions() -> Vec<Position> {
    starts()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN is legal")
}

fn mv(s: &str) -> Move {
    s.parse().expect("test ICCS move")
}

/// Every written form of every legal move of `p` reads back as that move.
fn check_round_trips(p: &Position) {
    for m in p.legal_moves() {
        let full = to_chinese(p, m);
        assert_eq!(parse_chinese(p, &full), Ok(m), "{full} in {}", p.to_fen());
        let trad = to_chinese_in(p, m, Script::Traditional);
        assert_eq!(parse_chinese(p, &trad), Ok(m), "{trad} in {}", p.to_fen());
        let short = to_chinese_short(p, m);
        assert_eq!(parse_chinese(p, &short), Ok(m), "{short} in {}", p.to_fen());
        let wxf = to_wxf(p, m);
        assert_eq!(parse_wxf(p, &wxf), Ok(m), "{wxf} in {}", p.to_fen());
        assert_eq!(parse_any(p, &wxf), Ok(m));
        assert_eq!(parse_any(p, &full), Ok(m));
        assert_eq!(parse_any(p, &m.to_string()), Ok(m));
        // 7.5: four characters, Red's numbers in Chinese numerals, Black's in digits.
        assert_eq!(full.chars().count(), 4, "{full}");
        let digits = full.chars().filter(|c| c.is_ascii_digit()).count();
        match p.side_to_move() {
            Color::Red => assert_eq!(digits, 0, "{full}"),
            Color::Black => assert!(digits >= 1, "{full}"),
        }
    }
}

#[test]
fn every_perft_position_round_trips() {
    for p in perft_positions() {
        check_round_trips(&p);
    }
}

proptest! {
    // Six games of up to 120 plies per start position, on average.
    #![proptest_config(ProptestConfig { cases: 222, ..ProptestConfig::default() })]

    #[test]
    fn random_games_round_trip(
        start in 0..starts().len(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
    ) {
        walk_visiting(&starts()[start], &choices, |p| check_round_trips(p));
    }
}

/// Pawn-heavy random positions: random games rarely double pawns on files.
#[test]
fn crowded_pawns_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut made = 0;
    while made < 300 {
        let mut board = [None; 90];
        let mut put = |file: u8, rank: u8, p: Piece| {
            if let Some(sq) = Square::from_coords(file, rank) {
                board[sq.index()].get_or_insert(p);
            }
        };
        put(4, 0, Piece::new(Color::Red, PieceKind::King));
        put(3, 9, Piece::new(Color::Black, PieceKind::King));
        for _ in 0..5 {
            put(
                rng.random_range(0..9),
                rng.random_range(5..10),
                Piece::new(Color::Red, PieceKind::Pawn),
            );
            put(
                rng.random_range(0..9),
                rng.random_range(0..5),
                Piece::new(Color::Black, PieceKind::Pawn),
            );
        }
        let side = if rng.random_bool(0.5) {
            Color::Red
        } else {
            Color::Black
        };
        if let Ok(p) = Position::from_placement(board, side, 0, 1) {
            check_round_trips(&p);
            made += 1;
        }
    }
}

#[test]
fn rules_7_5_example_full_and_short() {
    // data/rules_7_5_example.txt: the 1999 rules' own table of full and short records (article 7.5).
    let mut p = Position::startpos();
    let mut plies = 0;
    for line in include_str!("../data/rules_7_5_example.txt").lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (full, short) = line.split_once('\t').expect("full<TAB>short");
        let m = parse_chinese(&p, full).expect(full);
        assert_eq!(parse_chinese(&p, short), Ok(m), "{short}");
        assert_eq!(
            to_chinese_short(&p, m),
            short.replace('馬', "马").replace('車', "车")
        );
        assert_eq!(
            to_chinese_in(&p, m, Script::Traditional),
            full,
            "the traditional writer matches the 1999 rules' table"
        );
        p.make_move(m);
        plies += 1;
    }
    assert_eq!(plies, 6);
    assert_eq!(
        p.to_fen(),
        "rnbakabr1/9/1c4n2/p1p1p1p1p/9/9/P1P1P1PcP/1C2C1N2/9/RNBAKABR1 w - - 6 4",
        "after 炮二平五 马8进7 马二进三 车9平8 车一平二 炮8进4"
    );
}

#[test]
fn start_position_examples() {
    let p = Position::startpos();
    for (text, iccs) in [
        ("炮二平五", "h2e2"),
        ("砲二平五", "h2e2"),
        ("炮2平5", "h2e2"),
        ("炮２平５", "h2e2"),
        ("炮25", "h2e2"),
        ("炮 二 平 五", "h2e2"),
        ("C2=5", "h2e2"),
        ("C2.5", "h2e2"),
        ("c2.5", "h2e2"),
        ("马二进三", "h0g2"),
        ("傌二進三", "h0g2"),
        ("馬二進三", "h0g2"),
        ("H2+3", "h0g2"),
        ("N2+3", "h0g2"),
        ("车一进一", "i0i1"),
        ("俥一進一", "i0i1"),
        ("伡一进一", "i0i1"),
        ("車1+1", "i0i1"),
        ("相三进五", "g0e2"),
        ("仕四进五", "f0e1"),
        ("帅五进一", "e0e1"),
        ("帥五進一", "e0e1"),
        ("兵七进一", "c3c4"),
        ("兵七进一!", "c3c4"),
        ("P7+1", "c3c4"),
        ("炮八进七", "b2b9"),
        ("炮八↑七", "b2b9"),
        ("炮二退一", "h2h1"),
        ("炮2-1", "h2h1"),
    ] {
        assert_eq!(
            parse_chinese(&p, text).or_else(|_| parse_wxf(&p, text)),
            Ok(mv(iccs)),
            "{text}"
        );
    }
    let mut b = Position::startpos();
    b.make_move(mv("h2e2"));
    for (text, iccs) in [
        ("马8进7", "h9g7"),
        ("馬8進7", "h9g7"),
        ("马８进７", "h9g7"),
        ("马八进七", "h9g7"),
        ("马87", "h9g7"),
        ("H8+7", "h9g7"),
        ("包2平5", "b7e7"),
        ("砲2平5", "b7e7"),
        ("卒3进1", "c6c5"),
        ("将5进1", "e9e8"),
        ("將5進1", "e9e8"),
        ("士4进5", "d9e8"),
        ("象3进5", "c9e7"),
        ("车1进1", "a9a8"),
    ] {
        assert_eq!(
            parse_chinese(&b, text).or_else(|_| parse_wxf(&b, text)),
            Ok(mv(iccs)),
            "{text}"
        );
    }
    assert_eq!(to_chinese(&b, mv("h9g7")), "马8进7");
    assert_eq!(to_chinese_in(&b, mv("h9g7"), Script::Traditional), "馬8進7");
    assert_eq!(to_wxf(&b, mv("h9g7")), "H8+7");
    assert_eq!(to_chinese(&p, mv("h2e2")), "炮二平五");
    assert_eq!(to_wxf(&p, mv("h2e2")), "C2=5");
    assert_eq!(to_chinese_short(&p, mv("h2e2")), "炮25");
}

#[test]
fn front_and_rear_pieces() {
    // Two red horses and two red rooks share files (7.5: 前马退四、后车平六).
    let p = pos("3k5/9/9/9/4N4/9/4N4/5R3/5R3/4K4 w");
    let cases = [
        ("e5f3", "前马退四", "+H-4"),
        ("e3f5", "后马进四", "-H+4"),
        ("f1d1", "后车平六", "-R=6"),
        ("f2d2", "前车平六", "+R=6"),
        ("f2f3", "前车进一", "+R+1"),
        ("f1f0", "后车退一", "-R-1"),
    ];
    for (iccs, zh, wxf) in cases {
        let m = mv(iccs);
        assert_eq!(to_chinese(&p, m), zh);
        assert_eq!(to_wxf(&p, m), wxf);
        assert_eq!(parse_chinese(&p, zh), Ok(m));
        assert_eq!(parse_wxf(&p, wxf), Ok(m));
    }
    // Variants: traditional 後, piece before the place word, WXF with the sign after.
    assert_eq!(parse_chinese(&p, "後車平六"), Ok(mv("f1d1")));
    assert_eq!(parse_chinese(&p, "後俥平六"), Ok(mv("f1d1")));
    assert_eq!(parse_chinese(&p, "车后平六"), Ok(mv("f1d1")));
    assert_eq!(parse_chinese(&p, "前馬退四"), Ok(mv("e5f3")));
    assert_eq!(parse_wxf(&p, "R-.6"), Ok(mv("f1d1")));
    assert_eq!(parse_wxf(&p, "R+=6"), Ok(mv("f2d2")));
    // 7.5's short form keeps the place word: 后车平六 is 后车6.
    assert_eq!(to_chinese_short(&p, mv("f1d1")), "后车6");
    assert_eq!(parse_chinese(&p, "后车6"), Ok(mv("f1d1")));
    // The plain file form is not what 7.5 writes, but it is read when only one piece fits.
    assert_eq!(parse_chinese(&p, "马五退四"), Ok(mv("e5f3")));
    assert!(matches!(
        parse_chinese(&p, "车四平六"),
        Err(NotationError::Ambiguous(_))
    ));

    // Black: 前 is the piece further forward for Black, i.e. lower on the board.
    let b = pos("4k4/9/4n4/9/4n4/9/9/9/9/3K5 b");
    assert_eq!(to_chinese(&b, mv("e5f7")), "前马退6");
    assert_eq!(to_chinese(&b, mv("e7d5")), "后马进4");
    assert_eq!(to_wxf(&b, mv("e5f7")), "+H-6");
    assert_eq!(parse_chinese(&b, "前马退6"), Ok(mv("e5f7")));
    assert_eq!(parse_chinese(&b, "後馬進4"), Ok(mv("e7d5")));
    assert_eq!(
        parse_chinese(&b, "后马进四"),
        Ok(mv("e7d5")),
        "Chinese numeral for Black"
    );

    // Two advisors on one file are 前/后 as well; the file form is read when unique.
    let a = pos("4k4/9/9/9/9/9/9/3A5/9/3A1K3 w");
    assert_eq!(to_chinese(&a, mv("d2e1")), "前仕退五");
    assert_eq!(parse_chinese(&a, "仕六退五"), Ok(mv("d2e1")));
    assert_eq!(to_chinese(&a, mv("d0e1")), "后仕进五");
    assert_eq!(parse_chinese(&a, "仕六进五"), Ok(mv("d0e1")));
}

#[test]
fn three_four_five_pawns_on_a_file() {
    // Three red pawns on the e-file (五路): 前兵/中兵/后兵; WXF +P, P5, -P.
    let p = pos("3k5/9/4P4/4P4/4P4/9/9/9/9/4K4 w");
    for (iccs, zh, wxf) in [
        ("e7e8", "前兵进一", "+P+1"),
        ("e6f6", "中兵平四", "P5=4"),
        ("e5d5", "后兵平六", "-P=6"),
    ] {
        assert_eq!(to_chinese(&p, mv(iccs)), zh);
        assert_eq!(to_wxf(&p, mv(iccs)), wxf);
        assert_eq!(parse_chinese(&p, zh), Ok(mv(iccs)));
        assert_eq!(parse_wxf(&p, wxf), Ok(mv(iccs)));
    }
    assert_eq!(parse_chinese(&p, "一兵进一"), Ok(mv("e7e8")), "一兵 = 前兵");
    assert_eq!(parse_chinese(&p, "二兵平四"), Ok(mv("e6f6")), "二兵 = 中兵");
    assert_eq!(parse_wxf(&p, "P+.4"), Ok(mv("e7f7")));

    // Black, three pawns on file 5: digits, and 前 is the lowest one.
    let b = pos("4k4/9/9/9/9/4p4/4p4/4p4/9/3K5 b");
    assert_eq!(to_chinese(&b, mv("e2e1")), "前卒进1");
    assert_eq!(to_chinese(&b, mv("e3d3")), "中卒平4");
    assert_eq!(to_chinese(&b, mv("e4f4")), "后卒平6");

    // Four: 前/二/三/后; WXF ++ +P -P --.
    let p4 = pos("3k5/4P4/4P4/4P4/4P4/9/9/9/9/4K4 w");
    for (iccs, zh, wxf) in [
        ("e8e9", "前兵进一", "+++1"),
        ("e7d7", "二兵平六", "+P=6"),
        ("e6f6", "三兵平四", "-P=4"),
        ("e5d5", "后兵平六", "--=6"),
    ] {
        assert_eq!(to_chinese(&p4, mv(iccs)), zh);
        assert_eq!(to_wxf(&p4, mv(iccs)), wxf);
        assert_eq!(parse_chinese(&p4, zh), Ok(mv(iccs)));
        assert_eq!(parse_wxf(&p4, wxf), Ok(mv(iccs)));
    }

    // Five on the c-file (七): 前/二/三/四/后; the WXF middle one is P7.
    let p5 = pos("2P2k3/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w");
    for (iccs, zh, wxf) in [
        ("c9d9", "前兵平六", "++=6"),
        ("c8b8", "二兵平八", "+P=8"),
        ("c7d7", "三兵平六", "P7=6"),
        ("c6b6", "四兵平八", "-P=8"),
        ("c5d5", "后兵平六", "--=6"),
    ] {
        assert_eq!(to_chinese(&p5, mv(iccs)), zh);
        assert_eq!(to_wxf(&p5, mv(iccs)), wxf);
        assert_eq!(parse_chinese(&p5, zh), Ok(mv(iccs)));
        assert_eq!(parse_wxf(&p5, wxf), Ok(mv(iccs)));
    }
    assert_eq!(parse_chinese(&p5, "中兵平六"), Ok(mv("c7d7")));
    assert_eq!(parse_chinese(&p5, "五兵平六"), Ok(mv("c5d5")));
    assert!(matches!(
        parse_chinese(&p5, "六兵平六"),
        Err(NotationError::Syntax(_)) | Err(NotationError::NoSuchPiece(_))
    ));
}

#[test]
fn pawns_on_two_files() {
    // Red pawns doubled on the c-file (七) and the g-file (三): place word + file.
    let p = pos("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w");
    for (iccs, zh, short, wxf) in [
        ("c6c7", "前七进一", "前71", "7++1"),
        ("c5b5", "后七平八", "后78", "7-=8"),
        ("g6g7", "前三进一", "前31", "3++1"),
        ("g5f5", "后三平四", "后34", "3-=4"),
    ] {
        assert_eq!(to_chinese(&p, mv(iccs)), zh);
        assert_eq!(to_chinese_short(&p, mv(iccs)), short);
        assert_eq!(to_wxf(&p, mv(iccs)), wxf);
        assert_eq!(parse_chinese(&p, zh), Ok(mv(iccs)));
        assert_eq!(parse_chinese(&p, short), Ok(mv(iccs)));
        assert_eq!(parse_wxf(&p, wxf), Ok(mv(iccs)));
    }
    assert_eq!(parse_chinese(&p, "前兵七进一"), Ok(mv("c6c7")));
    assert_eq!(parse_chinese(&p, "七前进一"), Ok(mv("c6c7")));
    assert!(matches!(
        parse_chinese(&p, "前兵进一"),
        Err(NotationError::Ambiguous(_))
    ));

    // Three on one file and two on another: 前/中/后 with the file; WXF 33 for the middle.
    let q = pos("3k5/2P6/2P3P2/2P3P2/9/9/9/9/9/4K4 w");
    assert_eq!(to_chinese(&q, mv("c7d7")), "中七平六");
    assert_eq!(to_wxf(&q, mv("c7d7")), "77=6");
    assert_eq!(parse_wxf(&q, "77.6"), Ok(mv("c7d7")));
    assert_eq!(to_chinese(&q, mv("g7g8")), "前三进一");

    // Black, digits.
    let b = pos("4k4/9/9/9/9/2p3p2/2p3p2/9/9/3K5 b");
    assert_eq!(to_chinese(&b, mv("c3c2")), "前3进1");
    assert_eq!(to_chinese(&b, mv("g4f4")), "后7平6");
    assert_eq!(parse_chinese(&b, "后7平6"), Ok(mv("g4f4")));
    assert_eq!(parse_chinese(&b, "後卒7平6"), Ok(mv("g4f4")));
}

#[test]
fn short_form_keeps_the_direction_when_needed() {
    // Red cannon on h2 can both advance 4 (h6) and traverse to file 4 (f2): the bare 炮24
    // is read as 平 (as 7.5's 車12 must be), so the advance keeps its direction word.
    let p = pos("3k5/9/9/9/9/9/9/7C1/9/4K4 w");
    assert_eq!(to_chinese_short(&p, mv("h2h6")), "炮2进4");
    assert_eq!(to_chinese_short(&p, mv("h2f2")), "炮24");
    assert_eq!(parse_chinese(&p, "炮24"), Ok(mv("h2f2")));
    assert_eq!(parse_chinese(&p, "炮2+4"), Ok(mv("h2h6")));
    assert_eq!(parse_chinese(&p, "炮2↑4"), Ok(mv("h2h6")));
    assert_eq!(parse_chinese(&p, "炮2=4"), Ok(mv("h2f2")));
    // A horse that can go forward or back to the same file: no 平 to prefer, ambiguous.
    let h = pos("3k5/9/9/9/4N4/9/9/9/9/4K4 w");
    assert!(matches!(
        parse_chinese(&h, "马56"),
        Err(NotationError::Ambiguous(_))
    ));
    assert_eq!(to_chinese_short(&h, mv("e5d7")), "马5进6");
    assert_eq!(to_chinese_short(&h, mv("e5d3")), "马5退6");
    // On an open board every cannon move has a rival: 炮27 is 进7 or 平7.
    assert_eq!(to_chinese_short(&p, mv("h2h9")), "炮2进7");
}

#[test]
fn errors_say_why() {
    let p = Position::startpos();
    assert_eq!(parse_chinese(&p, "  "), Err(NotationError::Empty));
    assert_eq!(parse_wxf(&p, ""), Err(NotationError::Empty));
    assert!(matches!(
        parse_chinese(&p, "炮二平"),
        Err(NotationError::Syntax(_))
    ));
    assert!(matches!(
        parse_chinese(&p, "马二平三"),
        Err(NotationError::NoLegalMove(_))
    ));
    assert!(matches!(
        parse_chinese(&p, "马五进三"),
        Err(NotationError::NoSuchPiece(_))
    ));
    assert!(matches!(
        parse_chinese(&p, "前马进三"),
        Err(NotationError::NoSuchPiece(_))
    ));
    assert!(matches!(
        parse_chinese(&p, "车一进九"),
        Err(NotationError::NoLegalMove(_))
    ));
    assert!(matches!(
        parse_chinese(&p, "炮二平五x"),
        Err(NotationError::Syntax(_))
    ));
    assert!(matches!(
        parse_wxf(&p, "X2=5"),
        Err(NotationError::Syntax(_))
    ));
    assert!(matches!(
        parse_wxf(&p, "C2=0"),
        Err(NotationError::Syntax(_))
    ));
    assert!(matches!(
        parse_wxf(&p, "C2=55"),
        Err(NotationError::Syntax(_))
    ));
    assert!(parse_any(&p, "h2h3x").is_err());
    assert!(matches!(
        parse_any(&p, "a0a5"),
        Err(NotationError::NoLegalMove(_))
    ));
    let msg = parse_chinese(&p, "马二平三").unwrap_err().to_string();
    assert!(msg.contains("马二平三"), "{msg}");
}

/// The characters of the notations, and ones near them.
const NOTATION_ALPHABET: &str = "帅帥将將仕士相象马馬傌车車俥伡炮砲包兵卒进進退平前中后後一二三四五六七八九十123456789１２３０0+-=.↑↓ !?";
/// WXF-like ASCII.
const WXF_ALPHABET: &str = "KAEBHNRCPkaehrcp0123456789+-.=hi ";
/// Pieces of PGN text, well- and ill-formed.
const PGN_PIECES: &[&str] = &[
    "[",
    "]",
    "\"",
    "{",
    "}",
    "(",
    ")",
    ";",
    "\n",
    "%",
    "$",
    "1.",
    "1...",
    " ",
    "\\",
    "[FEN \"",
    "[Result \"1-0\"]",
    "h2e2",
    "H2-E2",
    "炮二平五",
    "马8进7",
    "C2=5",
    "1-0",
    "*",
    "1/2-1/2",
    "x",
    "炮",
    "rnbakabnr/9",
    "[Game \"Chinese Chess\"]\n",
];

/// Strings from one of the alphabets (up to eight characters), or arbitrary bytes read lossily.
fn notation_input() -> impl Strategy<Value = String> {
    let from = |alphabet: &'static str| {
        let chars: Vec<char> = alphabet.chars().collect();
        prop::collection::vec(prop::sample::select(chars), 0..9)
            .prop_map(|v| v.into_iter().collect::<String>())
    };
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..25)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
        from(NOTATION_ALPHABET),
        prop::collection::vec(0x2E80u32..0xA000, 0..9)
            .prop_map(|v| v.into_iter().filter_map(char::from_u32).collect::<String>()),
        from(WXF_ALPHABET),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, ..ProptestConfig::default() })]

    /// Random inputs: bytes, CJK from the notation alphabet and beyond, WXF-like ASCII.
    #[test]
    fn readers_never_panic(start in 0..starts().len(), s in notation_input()) {
        let p = &starts()[start];
        if let Ok(m) = parse_chinese(p, &s) {
            prop_assert!(p.is_legal(m), "{}", s);
        }
        if let Ok(m) = parse_wxf(p, &s) {
            prop_assert!(p.is_legal(m), "{}", s);
        }
        if let Ok(m) = parse_any(p, &s) {
            prop_assert!(p.is_legal(m), "{}", s);
        }
        let _ = parse_pgn(&s);
    }

    #[test]
    fn pgn_readers_never_panic(
        pieces in prop::collection::vec(prop::sample::select(PGN_PIECES), 0..14),
    ) {
        let s: String = pieces.concat();
        if let Ok(games) = parse_pgn(&s) {
            for g in games {
                let _ = write_pgn(&g, MoveFormat::Chinese);
                prop_assert_eq!(g.end_position().history().len(), g.moves.len());
            }
        }
    }
}

#[test]
fn classic_endgames_replay_to_their_results() {
    let text = include_str!("../data/classic_endgames.pgn");
    let games = parse_pgn(text).expect("classic endgames read");
    let names: Vec<&str> = games.iter().filter_map(|g| g.tag("Event")).collect();
    assert_eq!(names, ["七星聚會", "千里獨行", "蚯蚓引龍"]);
    // What the 1999 rules' text states: all three are draws (紅先和, 正和, 和局); the record ends with
    // neither side mated nor stalemated, and this material on the board.
    let expected = [
        // 七星聚會: 45 moves; red K R P against black K R P.
        (89, "9/3P1k3/9/9/4R4/9/5r3/4K4/4p4/9 b", "KPRkpr"),
        // 千里獨行: 28 moves (the red rook's long ride); red K R P against black K P P.
        (55, "5k3/9/9/9/9/4P4/2p6/3R5/4p4/3K5 b", "KPRkpp"),
        // 蚯蚓引龍: 18 moves; red K R against black K A E P P.
        (36, "5ab2/3k5/9/9/9/9/9/9/3pp1R2/5K3 w", "KRabkpp"),
    ];
    for (g, (plies, fen, material)) in games.iter().zip(expected) {
        assert_eq!(g.result, Some(GameResult::Draw));
        assert_eq!(g.moves.len(), plies, "{:?}", g.tag("Event"));
        let end = g.end_position();
        assert!(end.to_fen().starts_with(fen), "{}", end.to_fen());
        assert!(!end.is_checkmate() && !end.is_stalemate());
        let mut m: Vec<char> = end
            .to_fen()
            .split(' ')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| c.is_ascii_alphabetic())
            .collect();
        m.sort_unstable();
        assert_eq!(m.into_iter().collect::<String>(), material);
        // The side to move at the end still has a legal move: no loss by 困毙 either.
        assert!(end.has_legal_move());
    }
}

/// The 1999 rules' records read one by one with `parse_chinese`, outside PGN, and written back:
/// the writer gives the same record in traditional characters (后 aside).
#[test]
fn classic_endgame_records_read_and_write_back() {
    let text = include_str!("../data/classic_endgames.pgn");
    let games = parse_pgn(text).expect("classic endgames read");
    for g in &games {
        let mut p = g.start.clone();
        for &m in &g.moves {
            let written = to_chinese_in(&p, m, Script::Traditional);
            assert_eq!(parse_chinese(&p, &written), Ok(m));
            p.make_move(m);
        }
    }
    // Spot checks of forms the records use.
    let qixing = &games[0];
    let mut p = qixing.start.clone();
    let mut written = Vec::new();
    for &m in &qixing.moves {
        written.push(to_chinese_in(&p, m, Script::Traditional));
        p.make_move(m);
    }
    assert_eq!(written[0], "炮二平四");
    assert_eq!(written[7], "前卒平5");
    assert_eq!(written[8], "車二平五");
    assert_eq!(written[88], "帥六平五");
    let qiuyin = &games[2];
    let mut p = qiuyin.start.clone();
    let mut written = Vec::new();
    for &m in &qiuyin.moves {
        written.push(to_chinese(&p, m));
        p.make_move(m);
    }
    assert_eq!(written[13], "后卒进1");
    assert_eq!(written[23], "后卒平4");
}

/// A game of up to `plies` moves from `start`, chosen by the shared generator.
fn random_game(rng: &mut ChaCha8Rng, start: &Position, plies: usize) -> Game {
    let choices: Vec<u16> = (0..plies).map(|_| rng.random()).collect();
    let end = walk(start, &choices);
    let mut g = Game::new(start.clone());
    g.moves = end.history().iter().filter_map(|s| s.mv).collect();
    g
}

#[test]
fn pgn_round_trips_in_every_format() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let results = [
        Some(GameResult::RedWins),
        Some(GameResult::BlackWins),
        Some(GameResult::Draw),
        None,
    ];
    for (i, start) in perft_positions().iter().enumerate() {
        let mut g = random_game(&mut rng, start, 40 + i);
        g.set_tag("Event", "测试 \"quoted\" \\ backslash");
        g.set_tag("Red", "红方");
        g.result = results[i % 4];
        for format in [MoveFormat::Iccs, MoveFormat::Chinese, MoveFormat::Wxf] {
            let text = write_pgn(&g, format);
            let back = parse_pgn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back.len(), 1);
            let b = &back[0];
            assert_eq!(b.moves, g.moves, "{text}");
            assert_eq!(b.start, g.start);
            assert_eq!(b.result, g.result);
            assert_eq!(b.tag("Event"), g.tag("Event"));
            assert_eq!(b.tag("Game"), Some("Chinese Chess"));
            assert_eq!(
                b.tag("Format"),
                Some(match format {
                    MoveFormat::Iccs => "ICCS",
                    MoveFormat::Chinese => "Chinese",
                    MoveFormat::Wxf => "WXF",
                })
            );
            // Writing what was read gives the same text.
            assert_eq!(write_pgn(b, format), text);
        }
    }
    // Several games in one file.
    let a = random_game(&mut rng, &Position::startpos(), 30);
    let b = random_game(&mut rng, &perft_positions()[3], 21);
    let text = format!(
        "{}\n{}",
        write_pgn(&a, MoveFormat::Iccs),
        write_pgn(&b, MoveFormat::Chinese)
    );
    let back = parse_pgn(&text).expect("two games");
    assert_eq!(back.len(), 2);
    assert_eq!(back[0].moves, a.moves);
    assert_eq!(back[1].moves, b.moves);
    assert_eq!(back[1].start, b.start);
}

#[test]
fn pgn_written_form() {
    let mut g = Game::new(Position::startpos());
    let mut p = Position::startpos();
    for s in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        let m = p.parse_move(s).expect("legal");
        p.make_move(m);
        g.moves.push(m);
    }
    g.result = None;
    assert_eq!(
        write_pgn(&g, MoveFormat::Iccs),
        "[Game \"Chinese Chess\"]\n[Result \"*\"]\n[Format \"ICCS\"]\n\n\
         1. H2-E2 H9-G7 2. H0-G2 I9-H9 *\n"
    );
    assert!(write_pgn(&g, MoveFormat::Chinese).contains("1. 炮二平五 马8进7 2. 马二进三 车9平8 *"));
    assert!(write_pgn(&g, MoveFormat::Wxf).contains("1. C2=5 H8+7 2. H2+3 R9=8 *"));
    // A start with Black to move: FEN tag and "1..." numbering.
    let mut b = Game::new(pos(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1",
    ));
    b.moves.push(mv("h9g7"));
    let text = write_pgn(&b, MoveFormat::Chinese);
    assert!(text.contains(
        "[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1\"]"
    ));
    assert!(text.contains("1... 马8进7 *"), "{text}");
    assert_eq!(parse_pgn(&text).expect("reads back")[0].moves, b.moves);
}

#[test]
fn pgn_tolerates_what_programs_write() {
    let text = "\
% a line for the program that wrote this
[Game \"Chinese Chess\"]
[Event \"注释与变着\"]
[Result \"1-0\"]
[Format \"ICCS\"]

{ opening comment
  over two lines } 1. H2-E2 {炮二平五} h9g7 $2 ; the horse
2.H0-G2 (2. b0c2 b9c7 (2... i9h9) 3. a0b0) 2... I9-H9!? 3. 车一平二 (3. R1=2)
3... C8+4 4. C8=7 1-0

[Game \"Chinese Chess\"]
[FEN \"3k5/9/9/9/9/9/9/9/3R5/5K3 b - - 0 1\"]
[Result \"1-0\"]
1... K4=5 {out of the rook's file} *
";
    let games = parse_pgn(text).expect("tolerated");
    assert_eq!(games.len(), 2);
    let g = &games[0];
    let played: Vec<String> = g.moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        played,
        ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3", "b2c2"]
    );
    assert_eq!(g.result, Some(GameResult::RedWins));
    assert_eq!(g.tag("Event"), Some("注释与变着"));
    let g2 = &games[1];
    assert_eq!(g2.moves, [mv("d9e9")]);
    assert_eq!(g2.result, None, "the movetext's * wins over the tag");

    // Bare movetext is one game from the start position; results in Chinese tags.
    let bare = parse_pgn("1. h2e2 h9g7 2. h0g2").expect("bare");
    assert_eq!(bare.len(), 1);
    assert_eq!(bare[0].moves.len(), 3);
    assert_eq!(bare[0].result, None);
    let tagged = parse_pgn("[Result \"红胜\"]\n1. h2e2").expect("chinese result");
    assert_eq!(tagged[0].result, Some(GameResult::RedWins));
    assert_eq!(parse_pgn("").expect("empty"), Vec::<Game>::new());
}

#[test]
fn pgn_errors_name_the_line() {
    let e = parse_pgn("[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7\n2. h2e2\n").unwrap_err();
    assert!(
        matches!(
            e,
            PgnError::Move {
                line: 4,
                ply: 3,
                ..
            }
        ),
        "{e:?}"
    );
    assert!(e.to_string().starts_with("line 4"), "{e}");
    assert!(matches!(
        parse_pgn("1. h2e2 {never closed\n"),
        Err(PgnError::Unterminated { line: 1, .. })
    ));
    assert!(matches!(
        parse_pgn("1. h2e2\n(1. c3c4 \n"),
        Err(PgnError::Unterminated { line: 2, .. })
    ));
    assert!(matches!(
        parse_pgn("1. h2e2 )"),
        Err(PgnError::StrayParen { line: 1 })
    ));
    assert!(matches!(
        parse_pgn("[Event]\n"),
        Err(PgnError::BadTag { line: 1 })
    ));
    assert!(matches!(
        parse_pgn("[Event \"x\"]\n[FEN \"4k4/9/9/9/9/9/9/9/9/4K4 w\"]\n1. e0d0"),
        Err(PgnError::Fen { line: 2, .. })
    ));
    assert!(matches!(
        parse_pgn("1. 炮二平五 炮二进九"),
        Err(PgnError::Move { ply: 2, .. })
    ));
}

#[test]
fn piece_kinds_are_named_in_both_scripts() {
    // Every kind appears in writing for both sides (guards the character tables).
    let p = pos("3akab2/9/4c4/4n4/2p1r4/9/4P4/4B4/4N1R2/3AKAC2 w");
    let mut seen = std::collections::BTreeSet::new();
    for m in p.legal_moves() {
        let k = p.piece_at(m.from()).map(|x| x.kind());
        if let Some(k) = k {
            seen.insert(format!("{k:?}"));
        }
        let s = to_chinese(&p, m);
        assert_eq!(parse_chinese(&p, &s), Ok(m));
    }
    assert!(seen.contains(&format!("{:?}", PieceKind::Cannon)));
}
