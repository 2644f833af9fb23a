//! Evaluation tests: colour and mirror symmetry over many positions, the start position,
//! material, draw scaling, bounds, and that every weight is reachable by a tuner.

use super::*;
use crate::board::Position;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn pos(fen: &str) -> Position {
    match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => panic!("{fen}: {e}"),
    }
}

/// The FENs of tests/data/perft.txt.
fn perft_fens() -> Vec<String> {
    include_str!("../../tests/data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(';').next())
        .map(|f| f.trim().to_string())
        .collect()
}

/// The perft positions plus every position of a few random games from each (fixed seed).
fn sample_positions() -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed_e7a1);
    let mut out = Vec::new();
    for fen in perft_fens() {
        let start = pos(&fen);
        out.push(start.clone());
        for _ in 0..4 {
            let mut p = start.clone();
            for _ in 0..80 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves[rng.random_range(0..moves.len())]);
                out.push(p.clone());
            }
        }
    }
    out
}

/// The same position with the colours swapped: ranks reversed, case swapped, other side to
/// move.
fn colour_flipped(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or("");
    let side = match fields.next() {
        Some("b") => "w",
        _ => "b",
    };
    let ranks: Vec<String> = board
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    format!("{} {side} - - 0 1", ranks.join("/"))
}

/// The left-right mirror image.
fn mirrored(fen: &str) -> String {
    let mut fields = fen.split_whitespace();
    let board = fields.next().unwrap_or("");
    let side = fields.next().unwrap_or("w");
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| r.chars().rev().collect())
        .collect();
    format!("{} {side} - - 0 1", ranks.join("/"))
}

#[test]
fn symmetric_under_colour_flip_and_mirror() {
    let positions = sample_positions();
    assert!(positions.len() > 5000, "only {} positions", positions.len());
    for p in &positions {
        let fen = p.to_fen();
        let e = evaluate(p);
        let flipped = pos(&colour_flipped(&fen));
        assert_eq!(e, evaluate(&flipped), "colour flip of {fen}");
        let mirror = pos(&mirrored(&fen));
        assert_eq!(e, evaluate(&mirror), "mirror of {fen}");
    }
}

#[test]
fn bounded_on_every_sampled_position() {
    for p in sample_positions() {
        let e = evaluate(&p);
        assert!(e.abs() < EVAL_LIMIT, "{e} on {}", p.to_fen());
    }
    // Lopsided boards: one side's whole army (pawns at the palace) against a bare king.
    for fen in [
        "5k3/2PPP4/9/P7P/9/9/9/1C5C1/9/RNBAKABNR w - - 0 1",
        "5k3/2PPP4/9/P7P/9/9/9/1C5C1/9/RNBAKABNR b - - 0 1",
        "rnbakabnr/9/1c5c1/9/9/9/9/9/9/3K5 w - - 0 1",
    ] {
        let e = evaluate(&pos(fen));
        assert!(e.abs() > 2000 && e.abs() < EVAL_LIMIT, "{e} on {fen}");
    }
}

#[test]
fn start_position_scores_the_tempo_only() {
    let w = Weights::DEFAULT;
    assert_eq!(evaluate(&Position::startpos()), w.tempo);
    let black = pos("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1");
    assert_eq!(evaluate(&black), w.tempo);
}

#[test]
fn material_up_is_positive() {
    // Black is missing a rook.
    let fen = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    assert!(evaluate(&pos(&format!("{fen} w"))) > 700);
    assert!(evaluate(&pos(&format!("{fen} b"))) < -700);
    // Red is missing a horse.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/R1BAKABNR";
    let e = evaluate(&pos(&format!("{fen} w")));
    assert!((-600..-250).contains(&e), "{e}");
}

#[test]
fn piece_values_are_ordered() {
    let v = piece_value;
    assert!(v(PieceKind::King) > 2 * (v(PieceKind::Rook) + v(PieceKind::Cannon)));
    assert!(v(PieceKind::Rook) > v(PieceKind::Cannon));
    assert!(v(PieceKind::Cannon) >= v(PieceKind::Horse));
    assert!(v(PieceKind::Horse) > v(PieceKind::Advisor));
    assert!(v(PieceKind::Horse) > v(PieceKind::Elephant));
    assert!(v(PieceKind::Advisor) > v(PieceKind::Pawn));
    assert!(v(PieceKind::Elephant) > v(PieceKind::Pawn));
    assert_eq!(v(PieceKind::Pawn), 100);
}

#[test]
fn pawns_gain_value_across_the_river() {
    // Red's central pawn on its home point, across the river, and in front of the palace, in
    // an opening position where Black has lost its central pawn.
    let at = |rows: &str| {
        evaluate(&pos(&format!(
            "rnbakabnr/9/1c5c1/p1p3p1p/{rows}/1C5C1/9/RNBAKABNR w - - 0 1"
        )))
    };
    // Ranks 5, 4 and 3 (Red's pawn rank): e3 (home) or e4 (river bank), then e5 (crossed).
    let home = at("9/9/P1P1P1P1P").max(at("9/4P4/P1P3P1P"));
    let crossed = at("4P4/9/P1P3P1P");
    let near_palace = evaluate(&pos(
        "rnbakabnr/9/1c2P2c1/p1p3p1p/9/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ));
    assert!(crossed > home + 50, "{home} {crossed}");
    assert!(near_palace > crossed, "{crossed} {near_palace}");
    // On the last rank the pawn is no attacker: a dead draw.
    let last_rank = evaluate(&pos("3k4P/9/9/9/9/9/9/9/9/4K4 w - - 0 1"));
    assert_eq!(last_rank, 0);
}

#[test]
fn dead_draws_score_zero() {
    for fen in [
        // Bare kings.
        "3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
        // Only defenders on both sides.
        "2bak4/4a4/4b4/9/9/9/9/4B4/4A4/2BAK4 w - - 0 1",
        // Red's advisors and elephants against a last-rank pawn: Red is ahead but cannot win.
        "3k5/9/9/9/9/9/9/4B4/9/p1BAKA3 w - - 0 1",
        // A lone cannon against a bare king has nothing to jump over.
        "3k5/9/9/9/9/9/9/9/4C4/4K4 w - - 0 1",
        "3k5/9/9/9/9/9/9/9/4C4/4K4 b - - 0 1",
    ] {
        assert_eq!(evaluate(&pos(fen)), 0, "{fen}");
        assert_eq!(evaluate(&pos(&colour_flipped(fen))), 0, "flipped {fen}");
    }
}

/// The score with the default weights, and with the weights changed by `change`.
fn with_and_without(fen: &str, change: fn(&mut Weights)) -> (i32, i32) {
    let p = pos(fen);
    let mut w = Weights::DEFAULT;
    change(&mut w);
    (evaluate(&p), evaluate_with(&p, &w))
}

type Case = (&'static str, fn(&mut Weights));

#[test]
fn drawish_material_is_scaled_down() {
    // Each position, and the change that switches its rule off.
    let cases: [Case; 5] = [
        // 单车难破士象全.
        ("2bak4/4a4/4b4/9/9/9/9/9/4R4/3K5 w - - 0 1", |w| {
            w.scale_rook_vs_full_defence = SCALE_FULL
        }),
        // A cannon with screens against the full defence.
        ("2bak4/4a4/4b4/9/9/9/9/4B4/4A4/2BAKC3 w - - 0 1", |w| {
            w.scale_minor_vs_full_defence = SCALE_FULL
        }),
        // 单马对双士.
        ("3ak4/4a4/9/9/9/4N4/9/9/9/3K5 w - - 0 1", |w| {
            w.scale_horse_vs_two_advisors = SCALE_FULL
        }),
        // A lone pawn against two advisors.
        ("3ak4/4a4/9/9/4P4/9/9/4B4/9/2BAKA3 w - - 0 1", |w| {
            w.scale_pawn_vs_defenders = SCALE_FULL
        }),
        // A lone cannon with no screen of its own against an advisor.
        ("3k5/4a4/9/9/9/9/9/9/4C4/4K4 w - - 0 1", |w| {
            w.scale_cannon_no_screen = SCALE_FULL
        }),
    ];
    for (fen, off) in cases {
        let (scaled, full) = with_and_without(fen, off);
        assert!(full > 100, "{fen}: unscaled {full}");
        assert!(
            scaled >= 0 && scaled * 3 < full,
            "{fen}: {scaled} vs {full}"
        );
        let flipped = colour_flipped(fen);
        assert_eq!(evaluate(&pos(&flipped)), scaled, "{flipped}");
    }
    // Not scaled: a rook against a broken defence, cannon and advisor against a bare king,
    // horse against one advisor, pawn against a bare king.
    for fen in [
        "2bak4/4a4/9/9/9/9/9/9/4R4/3K5 w - - 0 1",
        "5k3/9/9/9/9/9/9/9/4A4/3KC4 w - - 0 1",
        "4k4/4a4/9/9/9/4N4/9/9/9/3K5 w - - 0 1",
        "4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1",
    ] {
        let (scaled, full) = with_and_without(fen, |w| {
            w.scale_rook_vs_full_defence = 0;
            w.scale_minor_vs_full_defence = 0;
            w.scale_horse_vs_two_advisors = 0;
            w.scale_pawn_vs_defenders = 0;
            w.scale_cannon_no_screen = 0;
        });
        assert_eq!(scaled, full, "{fen}");
        assert!(scaled > 100, "{fen}: {scaled}");
    }
}

/// The score of `fen` with one pattern's weight set to `v` (the other weights tuned).
fn with_weight(fen: &str, set: fn(&mut Weights, i32), v: i32) -> i32 {
    let mut w = Weights::DEFAULT;
    set(&mut w, v);
    evaluate_with(&pos(fen), &w)
}

#[test]
fn king_safety_patterns_fire() {
    // Each position, and how to set its pattern's weight. The tuned weights decide how much
    // a pattern is worth (some are even negative in the endgame); what is tested here is that
    // the pattern is recognised: a positive weight raises the score of the side that has it.
    type Pattern = (&'static str, fn(&mut Weights, i32));
    let cases: [Pattern; 5] = [
        // 空头炮: Red's cannon on e2, nothing between it and the king up the e-file.
        (
            "rnbakabnr/9/1c5c1/p1p3p1p/9/9/P1P3P1P/4C2C1/9/RNBAKABNR w - - 0 1",
            |w, v| w.hollow_cannon = Pair { mg: v, eg: v },
        ),
        // 卧槽马 on c8.
        ("3k5/2N1a4/9/9/9/9/9/9/9/4K4 w - - 0 1", |w, v| {
            w.horse_wocao = Pair { mg: v, eg: v }
        }),
        // 沉底炮 on a9 with the king on its back rank.
        ("C3k4/4a4/3ab4/9/9/9/9/9/9/3KR4 w - - 0 1", |w, v| {
            w.bottom_cannon = Pair { mg: v, eg: v }
        }),
        // No elephants against two cannons.
        ("3ak4/4a4/9/9/9/9/9/1C5C1/9/3K5 w - - 0 1", |w, v| {
            w.missing_elephant_vs_cannon = Pair { mg: v, eg: v }
        }),
        // A rook and a horse attacking the palace together.
        ("3ak4/4a4/2N1b4/9/9/9/9/9/9/3KR4 w - - 0 1", |w, v| {
            w.ks_horse = v;
            w.ks_rook = v;
        }),
    ];
    for (fen, set) in cases {
        let (off, on) = (with_weight(fen, set, 0), with_weight(fen, set, 50));
        assert!(on > off, "{fen}: {off} vs {on}");
    }
}

#[test]
fn every_weight_is_visited() {
    // With every visited weight 0 and the draw scales neutral, every score must be 0: the
    // evaluation uses nothing that a tuner cannot reach.
    let mut w = Weights::DEFAULT;
    let mut n = 0;
    w.visit_mut(&mut |name, _, v| {
        n += 1;
        *v = if name.starts_with("scale_") {
            SCALE_FULL
        } else {
            0
        };
    });
    assert!(n > 700, "{n} weights");
    for p in sample_positions().iter().step_by(7) {
        assert_eq!(evaluate_with(p, &w), 0, "{}", p.to_fen());
    }
    // Names and indices identify a weight uniquely.
    let mut seen = std::collections::HashSet::new();
    Weights::DEFAULT.clone().visit_mut(&mut |name, i, _| {
        assert!(seen.insert((name, i)), "{name}[{i}] twice");
    });
}

#[test]
fn lines_onto_the_king_are_told_apart() {
    type Field = fn(&mut Weights) -> &mut Pair;
    let fields: [(&str, Field); 4] = [
        ("rook_pin", |w| &mut w.rook_pin),
        ("rook_discovery", |w| &mut w.rook_discovery),
        ("cannon_pin", |w| &mut w.cannon_pin),
        ("cannon_discovery", |w| &mut w.cannon_discovery),
    ];
    // Red's piece on d1 faces Black's king on d9; between them, on d5 and d7, what each
    // term is about.
    let cases = [
        ("3k5/9/9/9/3n5/9/9/9/3R5/4K4 w - - 0 1", "rook_pin"),
        ("3k5/9/9/9/3N5/9/9/9/3R5/4K4 w - - 0 1", "rook_discovery"),
        ("3k5/9/3n5/9/3n5/9/9/9/3C5/4K4 w - - 0 1", "cannon_pin"),
        (
            "3k5/9/3n5/9/3N5/9/9/9/3C5/4K4 w - - 0 1",
            "cannon_discovery",
        ),
        // Two pieces between a rook and the king, or one between a cannon and it (a
        // check, not a line): none of the four.
        ("3k5/9/3n5/9/3n5/9/9/9/3R5/4K4 w - - 0 1", ""),
        ("3k5/9/9/9/3N5/9/9/9/3C5/4K4 b - - 0 1", ""),
    ];
    for (fen, fires) in cases {
        let p = pos(fen);
        for (name, field) in fields {
            let score = |v: i32| {
                let mut w = Weights::DEFAULT;
                *field(&mut w) = Pair { mg: v, eg: v };
                evaluate_with(&p, &w)
            };
            let (off, on) = (score(0), score(100));
            if name == fires {
                assert!(on > off, "{fen}: {name} should fire ({off} vs {on})");
            } else {
                assert_eq!(on, off, "{fen}: {name} should not fire");
            }
        }
    }
}

#[test]
fn evaluations_are_those_of_the_former_literal_weights() {
    // The FNV-1a of the evaluation of every sample position, and two evaluations spelt out.
    // First computed on the commit before the weights became data (6d00e5d), over a walk
    // drawn by rand 0.8's StdRng (9704 positions, 0x8cd2_72b6_9017_5c22); recomputed when
    // the walk's generator became ChaCha8, on a tree whose evaluation still gave the first
    // value on the first walk.
    let positions = sample_positions();
    let mut bytes = Vec::new();
    for p in &positions {
        bytes.extend_from_slice(&evaluate(p).to_le_bytes());
    }
    assert_eq!(positions.len(), 9477);
    assert_eq!(crate::checksum::fnv1a64(&bytes), 0xf008_e900_fcc8_40b2);
    let start = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let horses_out = "r1bakab1r/9/1cn4cn/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 0 1";
    assert_eq!(
        (evaluate(&pos(start)), evaluate(&pos(horses_out))),
        (17, 18)
    );
}
