//! Property tests of the move generator against the slow reference generator, along random
//! games (fixed seeds, so failures reproduce) from every perft position:
//! every generated move is legal and every legal move is generated; counts, captures/quiets,
//! evasions, check detection and `gives_check` agree; the incremental Zobrist key equals the
//! key computed from scratch; unmake restores the position exactly; FEN round-trips.

use jiangjun::board::{reference, Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn positions() -> Vec<Position> {
    include_str!("../data/perft.txt")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_fen(l.split(';').next().unwrap()).unwrap())
        .collect()
}

fn sorted(mut v: Vec<Move>) -> Vec<u16> {
    let mut out: Vec<u16> = v.drain(..).map(|m| m.to_u16()).collect();
    out.sort_unstable();
    out
}

fn check_node(pos: &mut Position, rng: &mut ChaCha8Rng) {
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
    assert_eq!(sorted(pos.evasions().to_vec()), sorted(legal.clone()));

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
    for a in (0..90).filter_map(jiangjun::board::Square::new) {
        if pos.color_at(a) != Some(us) {
            continue;
        }
        for b in (0..90).filter_map(jiangjun::board::Square::new) {
            if let Some(m) = Move::new(a, b) {
                assert_eq!(
                    pos.is_legal(m),
                    legal.contains(&m),
                    "is_legal {m} in {pos:?}"
                );
            }
        }
    }
    // ... and on random from/to pairs (empty and enemy from-squares).
    for _ in 0..40 {
        let a = jiangjun::board::Square::new(rng.random_range(0..90)).unwrap();
        let b = jiangjun::board::Square::new(rng.random_range(0..90)).unwrap();
        if let Some(m) = Move::new(a, b) {
            assert_eq!(
                pos.is_legal(m),
                legal.contains(&m),
                "is_legal {m} in {pos:?}"
            );
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

#[test]
fn random_games_agree_with_reference() {
    let mut nodes = 0;
    for (i, start) in positions().into_iter().enumerate() {
        for game in 0..10u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(i as u64 * 1000 + game);
            let mut pos = start.clone();
            for _ in 0..120 {
                check_node(&mut pos, &mut rng);
                nodes += 1;
                let Some(m) = pos.random_move(&mut rng, 0.4) else {
                    break;
                };
                pos.make_move(m);
            }
            // Unwinding the whole game returns to the start.
            while !pos.history().is_empty() {
                pos.unmake_move();
            }
            assert_eq!(pos, start);
        }
    }
    assert!(nodes > 5000, "{nodes}");
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
