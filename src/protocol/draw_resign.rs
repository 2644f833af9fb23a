//! The draw-and-resign policy: when `bestmove` carries `draw` or `resign` (UCCI only; ucci.md
//! §5.6, §8). (The repetition rulings of the rules are [`crate::rules::verdict`]; this is the
//! engine's own choice to offer, accept or give up.)
//!
//! A wrong `resign` loses a game outright and a wrong `draw` acceptance throws away a win, so
//! the policy is conservative and uses only facts the search has proven or repeated:
//!
//! **Accepting a draw** the opponent offered (`go draw …` / `ponderhit draw`): a draw is worth
//! taking whenever we are not clearly winning, so we accept when the position is dead drawn by
//! material (neither side has a rook, horse, cannon or pawn, so nobody can ever give mate), or
//! when the search's score is at or below [`DRAW_MARGIN`] cp: equal, worse, being mated, or
//! losing by a repetition rule. The score must come from depth `>=` [`DRAW_MIN_DEPTH`], except
//! a forced mate or rule loss against us, which is proven at any depth; a shallower score (an
//! opening-book answer is depth 0) may hide a win, so then we play on. (An only move, which
//! the search otherwise plays after one iteration, is searched to the limits when a draw is
//! offered, so its score counts like any other.) Above the margin (a
//! winning score, our mate, a rule win) we decline. An offer is answered for that move only
//! and is not remembered (ucci.md §8 note 4).
//!
//! **Offering a draw** ourselves: the position is dead drawn by material, or the last
//! [`OFFER_STREAK`] of our searches all scored within `±`[`DRAW_MARGIN`] at depth `>=`
//! [`OFFER_MIN_DEPTH`] and no capture happened for [`OFFER_MIN_QUIET_PLIES`] plies. After an
//! offer we wait [`OFFER_INTERVAL`] of our moves before offering again, so a GUI that asks its
//! user each time (XQWizard) is not pestered.
//!
//! **Resigning**: never at the first bad score, and never when only one legal move is left (the
//! search then stops at depth 1 and its score means little; ElephantEye has the same rule).
//! We resign when the last [`RESIGN_STREAK`] searches, each at depth `>=`
//! [`RESIGN_MIN_DEPTH`], all scored `<= -`[`RESIGN_SCORE`] (a rook and a cannon down on the
//! engine's material scale, rook 900 + cannon 450), or the last [`RESIGN_MATE_STREAK`]
//! searches at that depth all found a forced mate against us within [`RESIGN_MATE_MOVES`]
//! moves. A longer mate is one the endgame tables know and the opponent may not find: the
//! natural limit (60 moves without a capture) can still save the game, and with the tables on,
//! resigning such endings lost games that the side without tables, defending the same
//! positions, drew. Perpetual-rule losses (the rule
//! band of `search::score`) do not count: the GUI's `banmoves` exist to steer us out of them.
//! If the opponent has just offered a draw we do not resign on that move.
//!
//! Searches that were pondering when they ended (a ponder miss: the GUI discards the reply)
//! and `go infinite` analyses are not counted and get no suffix. Both behaviours can be
//! switched off (`allowdraw`, `allowresign`).

use super::output::Suffix;
use crate::search::score::{is_decisive, mate_in_moves};

/// "Dead equal": at most this many centipawns either way.
pub const DRAW_MARGIN: i32 = 20;
/// Depth needed before an equal score is trusted for accepting an offer.
pub const DRAW_MIN_DEPTH: i32 = 5;
/// Consecutive level searches before we offer a draw ourselves.
pub const OFFER_STREAK: u32 = 6;
/// Depth needed for a search to count towards our own offer.
pub const OFFER_MIN_DEPTH: i32 = 8;
/// Plies without a capture needed before we offer (ElephantEye waits ten moves).
pub const OFFER_MIN_QUIET_PLIES: u32 = 20;
/// Our moves between two offers of our own.
pub const OFFER_INTERVAL: u32 = 8;
/// A score this far below zero (cp) is "clearly lost": a rook and a cannon.
pub const RESIGN_SCORE: i32 = 1350;
/// Depth needed for a search to count towards resigning.
pub const RESIGN_MIN_DEPTH: i32 = 8;
/// Consecutive clearly lost searches before resigning.
pub const RESIGN_STREAK: u32 = 4;
/// Consecutive searches seeing a forced mate against us before resigning.
pub const RESIGN_MATE_STREAK: u32 = 2;
/// The longest forced mate against us, in moves, that counts towards resigning.
pub const RESIGN_MATE_MOVES: i32 = 10;

/// What one finished search tells the policy.
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    /// Root score for the side to move.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: i32,
    /// Legal, unbanned root moves.
    pub root_moves: usize,
    /// Neither side can ever mate ([`crate::board::Position::no_attacking_material`]).
    pub dead_draw: bool,
    /// Plies since the last capture.
    pub quiet_plies: u32,
    /// The opponent offers a draw with this move.
    pub offered: bool,
}

/// Streaks across the searches of one game.
#[derive(Clone, Debug, Default)]
pub struct DrawResign {
    lost: u32,
    mated: u32,
    level: u32,
    /// Our moves since our last offer (`None`: never offered this game).
    since_offer: Option<u32>,
}

impl DrawResign {
    /// Forgets the game (new game).
    pub fn reset(&mut self) {
        *self = DrawResign::default();
    }

    /// Records a finished search and decides the suffix of its `bestmove`.
    pub fn decide(&mut self, f: &Facts, allow_draw: bool, allow_resign: bool) -> Suffix {
        let deep_resign = f.depth >= RESIGN_MIN_DEPTH;
        let mate_against =
            mate_in_moves(f.score).is_some_and(|n| (-RESIGN_MATE_MOVES..=0).contains(&n));
        self.mated = if deep_resign && mate_against {
            self.mated.saturating_add(1)
        } else {
            0
        };
        self.lost = if deep_resign && f.score <= -RESIGN_SCORE && !is_decisive(f.score) {
            self.lost.saturating_add(1)
        } else if mate_against && deep_resign {
            // A mate against us is also "clearly lost".
            self.lost.saturating_add(1)
        } else {
            0
        };
        let equal = !is_decisive(f.score) && f.score.unsigned_abs() <= DRAW_MARGIN.unsigned_abs();
        self.level = if equal && f.depth >= OFFER_MIN_DEPTH {
            self.level.saturating_add(1)
        } else {
            0
        };
        self.since_offer = self.since_offer.map(|n| n.saturating_add(1));

        if allow_draw {
            let proven_loss = is_decisive(f.score) && f.score < 0;
            let not_winning = f.score <= DRAW_MARGIN;
            let accept = f.offered
                && (f.dead_draw || proven_loss || (not_winning && f.depth >= DRAW_MIN_DEPTH));
            let may_offer = self.since_offer.is_none_or(|n| n >= OFFER_INTERVAL);
            let offer = !f.offered
                && may_offer
                && f.root_moves > 1
                && (f.dead_draw
                    || (self.level >= OFFER_STREAK && f.quiet_plies >= OFFER_MIN_QUIET_PLIES));
            if accept {
                return Suffix::Draw;
            }
            if offer {
                self.since_offer = Some(0);
                return Suffix::Draw;
            }
        }
        if allow_resign
            && !f.offered
            && f.root_moves > 1
            && (self.lost >= RESIGN_STREAK || self.mated >= RESIGN_MATE_STREAK)
        {
            return Suffix::Resign;
        }
        Suffix::None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::search::score::mated_in;

    fn facts(score: i32, depth: i32) -> Facts {
        Facts {
            score,
            depth,
            root_moves: 20,
            dead_draw: false,
            quiet_plies: 0,
            offered: false,
        }
    }

    #[test]
    fn resign_needs_a_streak() {
        let mut v = DrawResign::default();
        for _ in 1..RESIGN_STREAK {
            assert_eq!(v.decide(&facts(-2000, 10), true, true), Suffix::None);
        }
        assert_eq!(v.decide(&facts(-2000, 10), true, true), Suffix::Resign);
        // Switched off.
        assert_eq!(v.decide(&facts(-2000, 10), true, false), Suffix::None);
        // One legal move: never.
        let mut one = facts(-2000, 10);
        one.root_moves = 1;
        assert_eq!(v.decide(&one, true, true), Suffix::None);
        // A good score resets the streak.
        v.decide(&facts(0, 10), true, true);
        assert_eq!(v.decide(&facts(-2000, 10), true, true), Suffix::None);
        // Shallow searches do not count.
        let mut v = DrawResign::default();
        for _ in 0..10 {
            assert_eq!(v.decide(&facts(-5000, 3), true, true), Suffix::None);
        }
    }

    #[test]
    fn a_long_mate_against_us_is_played_on() {
        // A table's mate in 30 moves: the opponent may not find it before the natural limit.
        let mut v = DrawResign::default();
        let far = mated_in(60);
        assert_eq!(mate_in_moves(far), Some(-30));
        for _ in 0..6 {
            assert_eq!(v.decide(&facts(far, 12), true, true), Suffix::None);
        }
        let near = mated_in(20);
        assert_eq!(mate_in_moves(near), Some(-RESIGN_MATE_MOVES));
        assert_eq!(v.decide(&facts(near, 12), true, true), Suffix::None);
        assert_eq!(v.decide(&facts(near, 12), true, true), Suffix::Resign);
    }

    #[test]
    fn resign_on_repeated_mate() {
        let mut v = DrawResign::default();
        let mated = mated_in(6);
        assert_eq!(v.decide(&facts(mated, 9), true, true), Suffix::None);
        assert_eq!(v.decide(&facts(mated, 9), true, true), Suffix::Resign);
        // Not while the opponent offers a draw: we take the draw instead, or, with draws
        // switched off, play on for that move.
        let mut f = facts(mated, 9);
        f.offered = true;
        assert_eq!(v.decide(&f, true, true), Suffix::Draw);
        assert_eq!(v.decide(&f, false, true), Suffix::None);
    }

    #[test]
    fn draws() {
        let mut v = DrawResign::default();
        let mut f = facts(5, 6);
        f.offered = true;
        assert_eq!(v.decide(&f, true, true), Suffix::Draw);
        assert_eq!(v.decide(&f, false, true), Suffix::None);
        f.score = 300;
        assert_eq!(v.decide(&f, true, true), Suffix::None);
        f.score = 0;
        f.depth = 2;
        assert_eq!(v.decide(&f, true, true), Suffix::None);
        f.dead_draw = true;
        assert_eq!(v.decide(&f, true, true), Suffix::Draw);

        // Our own offer: a long level streak in a quiet game, then a pause.
        let mut v = DrawResign::default();
        let mut f = facts(0, 10);
        f.quiet_plies = 40;
        for _ in 1..OFFER_STREAK {
            assert_eq!(v.decide(&f, true, true), Suffix::None);
        }
        assert_eq!(v.decide(&f, true, true), Suffix::Draw);
        for _ in 1..OFFER_INTERVAL {
            assert_eq!(v.decide(&f, true, true), Suffix::None);
        }
        assert_eq!(v.decide(&f, true, true), Suffix::Draw);
    }

    /// An offered draw at `score` and `depth`: accepted?
    fn accepts(score: i32, depth: i32) -> bool {
        let mut f = facts(score, depth);
        f.offered = true;
        DrawResign::default().decide(&f, true, true) == Suffix::Draw
    }

    #[test]
    fn offers_accepted_unless_clearly_winning() {
        use crate::search::score::{mate_in, rule_loss_in, rule_win_in};
        // Equal, at the margin, slightly and clearly worse, being mated, losing by a rule.
        for score in [0, DRAW_MARGIN, -DRAW_MARGIN - 1, -300, -5000] {
            assert!(accepts(score, DRAW_MIN_DEPTH), "{score}");
        }
        assert!(accepts(mated_in(4), DRAW_MIN_DEPTH));
        assert!(accepts(rule_loss_in(3), DRAW_MIN_DEPTH));
        // A proven loss needs no depth; an ordinary score does.
        assert!(accepts(mated_in(2), 1));
        assert!(accepts(rule_loss_in(2), 1));
        assert!(!accepts(-300, DRAW_MIN_DEPTH - 1));
        assert!(!accepts(0, 0));
        // Just above the margin, clearly winning, mating, winning by a rule: declined.
        for score in [DRAW_MARGIN + 1, 300, 5000, mate_in(4), rule_win_in(3)] {
            assert!(!accepts(score, 20), "{score}");
        }
        // A losing side accepts rather than resigns.
        let mut v = DrawResign::default();
        let mut f = facts(-5000, 10);
        for _ in 0..RESIGN_STREAK {
            v.decide(&f, true, true);
        }
        f.offered = true;
        assert_eq!(v.decide(&f, true, true), Suffix::Draw);
    }

    #[test]
    fn dead_draw_material() {
        let p = |fen: &str| Position::from_fen(fen).unwrap();
        assert!(p("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1").no_attacking_material());
        assert!(p("3akab2/9/4b4/9/9/9/9/4B4/4A4/4KA3 w - - 0 1").no_attacking_material());
        assert!(!p("4k4/9/9/9/9/9/9/9/4A4/RNCAK4 w - - 0 1").no_attacking_material());
        assert!(!Position::startpos().no_attacking_material());
    }
}
