//! Property tests of the move generator against the slow reference generator, along random
//! games from every perft position (proptest over `board::arbitrary`'s choices, so a failure
//! shrinks to a short game and reproduces):
//! every generated move is legal and every legal move is generated; counts, captures/quiets,
//! evasions, check detection and `gives_check` agree; the incremental Zobrist key equals the
//! key computed from scratch; unmake restores the position exactly; FEN round-trips.

use jiangjun::board::arbitrary::{starts, walk_visiting};
use jiangjun::board::{reference, Move, Position, Square};
use proptest::prelude::*;

fn sorted(mut v: Vec<Move>) -> Vec<u16> {
    let mut out: Vec<u16> = v.drain(..).map(|m| m.to_u16()).collect();
    out.sort_unstable();
    out
}

/// `is_legal` and `is_legal_in` say of `m` what the generated list says.
fn assert_legality_agrees(pos: &Position, m: Move, legal: &[Move], in_check: bool) {
    let listed = legal.contains(&m);
    assert_eq!(pos.is_legal(m), listed, "is_legal {m} in {pos:?}");
    assert_eq!(
        pos.is_legal_in(m, in_check),
        listed,
        "is_legal_in {m} in {pos:?}"
    );
}

fn check_node(pos: &mut Position, pairs: &[(u8, u8)]) {
    let legal = pos.legal_moves().to_vec();
    let expected = reference::legal_moves(pos);
    assert_eq!(
        sorted(legal.clone()),
        sorted(expected),
        "legal moves of {pos:?}"
    );
    assert_eq!(pos.count_legal(), legal.len() as u64, "count of {pos:?}");
    assert_eq!(pos.has_legal_move(), !legal.is_empty());
    let in_check = pos.in_check();
    assert_eq!(in_check, reference::in_check(pos), "in_check of {pos:?}");
    assert_eq!(pos.is_checkmate(), in_check && legal.is_empty());
    assert_eq!(pos.is_stalemate(), !in_check && legal.is_empty());

    let caps = pos.legal_captures().to_vec();
    let quiets = pos.legal_quiets().to_vec();
    assert!(caps.iter().all(|m| pos.piece_at(m.to()).is_some()));
    assert!(quiets.iter().all(|m| pos.piece_at(m.to()).is_none()));
    let mut both = caps;
    both.extend(quiets);
    assert_eq!(sorted(both), sorted(legal.clone()));

    // is_legal, which the search's move picker uses to check table moves, killers and
    // counter-moves without generating, agrees with the list on every move of every own
    // piece (each destination on the board) ...
    let us = pos.side_to_move();
    for a in (0..90).filter_map(Square::new) {
        if pos.color_at(a) != Some(us) {
            continue;
        }
        for b in (0..90).filter_map(Square::new) {
            if let Some(m) = Move::new(a, b) {
                assert_legality_agrees(pos, m, &legal, in_check);
            }
        }
    }
    // ... and on random from/to pairs (empty and enemy from-squares).
    for &(a, b) in pairs {
        let (Some(a), Some(b)) = (Square::new(a), Square::new(b)) else {
            continue;
        };
        if let Some(m) = Move::new(a, b) {
            assert_legality_agrees(pos, m, &legal, in_check);
        }
    }

    let before = pos.clone();
    let fen = pos.to_fen();
    assert_eq!(
        Position::from_fen(&fen).unwrap(),
        *pos,
        "FEN round trip {fen}"
    );
    for &m in &legal {
        let gives = pos.gives_check(m);
        pos.make_move(m);
        assert_eq!(pos.key(), pos.compute_key(), "incremental key after {m}");
        assert_eq!(gives, pos.in_check(), "gives_check {m} from {before:?}");
        pos.unmake_move();
        assert_eq!(*pos, before, "unmake {m}");
    }
}

proptest! {
    // Ten games of up to 120 plies per start position, on average.
    #![proptest_config(ProptestConfig { cases: 370, ..ProptestConfig::default() })]

    #[test]
    fn random_games_agree_with_reference(
        start in 0..starts().len(),
        choices in prop::collection::vec(any::<u16>(), 0..120),
        pairs in prop::collection::vec((0u8..90, 0u8..90), 40),
    ) {
        let start = &starts()[start];
        let mut pos = walk_visiting(start, &choices, |pos| check_node(pos, &pairs));
        // Unwinding the whole game returns to the start.
        while !pos.history().is_empty() {
            pos.unmake_move();
        }
        prop_assert_eq!(&pos, start);
    }
}

#[test]
fn null_move_round_trip() {
    let mut pos = Position::startpos();
    let before = pos.clone();
    pos.make_null_move();
    assert_eq!(pos.key(), pos.compute_key());
    assert_ne!(pos.key(), before.key());
    pos.unmake_move();
    assert_eq!(pos, before);
}
