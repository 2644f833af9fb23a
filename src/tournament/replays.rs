//! Game pairs that replay an earlier pair move for move. An engine limited by nodes or depth
//! on one thread answers a position the same way every time, so a match with more games than
//! twice its openings plays the same games again: a copy is no new evidence, and counting it
//! in the pairs would make an SPRT decide on fewer independent pairs than it believes.

use crate::board::{Move, Wdl};
use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// A finished game as the ledger sees it.
pub struct PairGame<'a> {
    /// The pair's number: games 2k + 1 and 2k + 2 form pair k.
    pub pair: u32,
    /// Index into the opening list.
    pub opening: usize,
    /// Whether the match's first engine had Red.
    pub first_red: bool,
    /// The moves played after the opening.
    pub moves: &'a [Move],
    /// The first engine's result.
    pub first_scored: Wdl,
}

/// Pairs the finished games of a match and tells new pairs from replays.
#[derive(Default)]
pub struct PairLedger {
    /// The first finished game of each open pair: the first engine's result, whether it had
    /// Red, and a digest of the moves.
    waiting: HashMap<u32, (Wdl, bool, u64)>,
    /// Every complete pair so far: the opening and the digests of its two games, the one where
    /// the first engine had Red first.
    seen: HashSet<(usize, u64, u64)>,
    /// Complete pairs that repeated an earlier one.
    pub replayed: u32,
}

/// What completing a pair gave.
#[derive(Debug, PartialEq, Eq)]
pub enum Paired {
    /// The pair's other game is still being played.
    Waiting,
    /// A pair unlike any before: the first engine's two results.
    New(Wdl, Wdl),
    /// The same opening, the same moves, each colour as in an earlier pair.
    Replay,
}

impl PairLedger {
    /// Records a finished game.
    pub fn finish(&mut self, g: PairGame) -> Paired {
        let mut h = DefaultHasher::new();
        g.moves.hash(&mut h);
        let digest = h.finish();
        let Some((other, other_red, other_digest)) = self.waiting.remove(&g.pair) else {
            self.waiting
                .insert(g.pair, (g.first_scored, g.first_red, digest));
            return Paired::Waiting;
        };
        let key = if other_red {
            (g.opening, other_digest, digest)
        } else {
            (g.opening, digest, other_digest)
        };
        if self.seen.insert(key) {
            Paired::New(other, g.first_scored)
        } else {
            self.replayed += 1;
            Paired::Replay
        }
    }
}

/// A note for a match that plays some openings more than twice, or `None`.
pub fn reuse_note(games: u32, openings: usize) -> Option<String> {
    let openings = openings.max(1) as u64;
    let times = u64::from(games).div_ceil(2 * openings);
    (times > 1).then(|| {
        format!(
            "Note: {games} games from {openings} opening{}: each is played up to {times} times with \
             each colour. An engine limited by nodes or depth on one thread replays the same \
             game; a pair that repeats an earlier one move for move is counted as games but \
             left out of the pairs and the SPRT",
            if openings == 1 { "" } else { "s" }
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn moves(list: &[&str]) -> Vec<Move> {
        let mut pos = Position::startpos();
        list.iter().map(|m| pos.play(m).unwrap()).collect()
    }

    fn game(pair: u32, first_red: bool, moves: &[Move], first_scored: Wdl) -> PairGame<'_> {
        PairGame {
            pair,
            opening: 0,
            first_red,
            moves,
            first_scored,
        }
    }

    #[test]
    fn a_repeated_pair_is_a_replay_and_a_different_one_is_new() {
        let a = moves(&["h2e2", "h9g7"]);
        let b = moves(&["b2e2", "b9c7"]);
        let mut l = PairLedger::default();
        assert_eq!(l.finish(game(0, true, &a, Wdl::Win)), Paired::Waiting);
        assert_eq!(
            l.finish(game(0, false, &b, Wdl::Draw)),
            Paired::New(Wdl::Win, Wdl::Draw)
        );
        // The second pair finishes in the other order and repeats both games: a replay.
        assert_eq!(l.finish(game(1, false, &b, Wdl::Draw)), Paired::Waiting);
        assert_eq!(l.finish(game(1, true, &a, Wdl::Win)), Paired::Replay);
        // The same two games with the colours the other way round are another pair.
        assert_eq!(l.finish(game(2, true, &b, Wdl::Draw)), Paired::Waiting);
        assert!(matches!(
            l.finish(game(2, false, &a, Wdl::Loss)),
            Paired::New(..)
        ));
        // One game differs: new.
        assert_eq!(l.finish(game(3, true, &a, Wdl::Win)), Paired::Waiting);
        assert!(matches!(
            l.finish(game(3, false, &a, Wdl::Win)),
            Paired::New(..)
        ));
        assert_eq!(l.replayed, 1);
    }

    #[test]
    fn the_note_appears_only_when_an_opening_is_played_more_than_twice() {
        assert_eq!(reuse_note(2, 1), None);
        assert_eq!(reuse_note(678, 339), None);
        let n = reuse_note(4000, 339).unwrap();
        assert!(n.contains("4000 games from 339 openings"), "{n}");
        assert!(n.contains("up to 6 times"), "{n}");
        assert!(reuse_note(10, 0).unwrap().contains("from 1 opening:"));
    }
}
