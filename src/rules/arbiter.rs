//! The arbiter: how a game ended, from its position and move log. The match runner and data
//! generation both ask it before every move, so a game ends the same way wherever it is
//! played.
//!
//! It checks, in this order: no legal move loses, in check or not (2011 rules 4.1.1 mate,
//! 4.1.2 困毙); a position occurring for the [`RULING_OCCURRENCE`]th time is ruled by the
//! [`referee`] (长将 and 长捉 lose, 4.1.4, 4.1.5; other repetitions draw, 4.2.3); the
//! natural limit draws (4.2.4, counted as 22.2 says); neither side having attacking material
//! draws (4.2.2). The caller may put its own repetition judge in the referee's place
//! ([`Arbiter::ending_with`]). What is not a rule of the board — clocks, engine faults,
//! resignation, draw offers, adjudication by score, a length cap — stays with the caller, but
//! ends the game with the same [`Ending`] and [`Termination`].

use super::cycle::{Replay, ReplayError};
use super::limit::{natural_limit_with, PlyRecord};
use super::referee::{self, RefereeOptions, Reports};
use super::rule_set::{LimitRule, RuleSet};
use super::verdict::RULING_OCCURRENCE;
use crate::board::{Color, GameResult, Move, Position};
use std::fmt;

/// Why a game ended: the rules' causes and a match's (forfeits, agreements, adjudications).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// 4.1.1.
    Checkmate,
    /// 4.1.2: a loss in xiangqi.
    Stalemate,
    /// Ruled by the referee (4.1.4, 4.1.5, 4.2.3).
    Repetition,
    /// 4.2.4.
    NaturalLimit,
    /// 4.2.1.
    DrawAgreed,
    /// 4.1.12.
    Resignation,
    /// 4.1.6.
    TimeForfeit,
    /// 4.1.3 treats a move that exposes the own king as a loss; an engine's unparsable or
    /// illegal move is scored the same.
    IllegalMove,
    Crash,
    Hang,
    /// The engine gave no move while legal moves were left.
    NoMove,
    /// The engine could not be (re)started or made ready before the game.
    StartFailure,
    /// 4.2.2: neither side can win.
    NoAttackingMaterial,
    AdjudicatedDraw,
    AdjudicatedLoss,
    /// The caller's length cap.
    MaxPlies,
    /// The game could not be set up (invalid opening).
    Aborted,
}

impl Termination {
    /// Every cause, in order.
    pub const ALL: [Termination; 17] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Repetition,
        Termination::NaturalLimit,
        Termination::DrawAgreed,
        Termination::Resignation,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Hang,
        Termination::NoMove,
        Termination::StartFailure,
        Termination::NoAttackingMaterial,
        Termination::AdjudicatedDraw,
        Termination::AdjudicatedLoss,
        Termination::MaxPlies,
        Termination::Aborted,
    ];

    /// The position in [`Termination::ALL`], for counts kept in an array.
    pub fn index(self) -> usize {
        self as usize
    }

    /// Short name for summaries.
    pub fn name(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "repetition",
            Termination::NaturalLimit => "natural limit",
            Termination::DrawAgreed => "draw agreed",
            Termination::Resignation => "resignation",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Crash => "crash",
            Termination::Hang => "hang",
            Termination::NoMove => "no move",
            Termination::StartFailure => "start failure",
            Termination::NoAttackingMaterial => "no attacking material",
            Termination::AdjudicatedDraw => "adjudicated draw",
            Termination::AdjudicatedLoss => "adjudicated loss",
            Termination::MaxPlies => "length cap",
            Termination::Aborted => "aborted",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a game ended: its cause, its result, and a line saying why for the game's record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ending {
    pub termination: Termination,
    pub result: GameResult,
    pub reason: String,
}

impl Ending {
    /// `loser` loses.
    pub fn loss(loser: Color, termination: Termination, reason: impl Into<String>) -> Ending {
        Ending {
            termination,
            result: GameResult::loss_for(loser),
            reason: reason.into(),
        }
    }

    /// A draw.
    pub fn draw(termination: Termination, reason: impl Into<String>) -> Ending {
        Ending {
            termination,
            result: GameResult::Draw,
            reason: reason.into(),
        }
    }

    /// A draw by the caller's length cap of `cap` plies.
    pub fn length_cap(cap: usize) -> Ending {
        Ending::draw(
            Termination::MaxPlies,
            format!("game length cap of {cap} plies"),
        )
    }
}

/// A game from its set-up position: the moves played, what the natural limit needs about
/// each, and the position they lead to.
#[derive(Debug, Clone)]
pub struct GameLog {
    start: Position,
    position: Position,
    moves: Vec<Move>,
    plies: Vec<PlyRecord>,
}

impl GameLog {
    /// A game from `start` (its FEN clock counts as plies without capture before it).
    pub fn new(start: Position) -> GameLog {
        GameLog {
            position: start.clone(),
            start,
            moves: Vec::new(),
            plies: Vec::new(),
        }
    }

    /// Plays `m`, a legal move of the current position.
    pub fn play(&mut self, m: Move) {
        debug_assert!(self.position.is_legal(m), "{m} is not legal");
        let side = self.position.side_to_move();
        let capture = self.position.piece_at(m.to()).is_some();
        self.position.make_move(m);
        self.moves.push(m);
        self.plies.push(PlyRecord {
            side,
            capture,
            check: self.position.in_check(),
        });
    }

    /// The set-up position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The position after the moves.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves from the set-up position.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether the last move captured.
    pub fn last_captured(&self) -> bool {
        self.plies.last().is_some_and(|p| p.capture)
    }
}

/// The rules a game is judged by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arbiter {
    /// The rule book of repetition verdicts.
    pub rules: RuleSet,
    /// The natural limit; `None` turns it off.
    pub natural_limit: Option<LimitRule>,
    /// Whether 4.2.2's draw by lack of attacking material is applied.
    pub material_draw: bool,
}

impl Arbiter {
    /// The whole rule book: its natural limit and 4.2.2.
    pub fn new(rules: RuleSet) -> Arbiter {
        Arbiter {
            rules,
            natural_limit: Some(rules.profile().limit),
            material_draw: true,
        }
    }

    /// How the game ends before the side to move plays, if it does, with the [`referee`]
    /// ruling on repetitions.
    pub fn ending(&self, log: &GameLog) -> Option<Ending> {
        self.ending_with(log, |log| {
            ruling(Replay::of_moves(log.start.clone(), &log.moves), self.rules)
        })
    }

    /// [`Arbiter::ending`] with `judge` ruling on a repeated position (`None`: play on).
    pub fn ending_with(
        &self,
        log: &GameLog,
        judge: impl FnOnce(&GameLog) -> Option<Ending>,
    ) -> Option<Ending> {
        let pos = &log.position;
        let stm = pos.side_to_move();
        if !pos.has_legal_move() {
            // 2011 rules 4.1.1, 4.1.2: mated or stalemated, the side to move loses.
            return Some(if pos.in_check() {
                let reason = format!("{} is checkmated", stm.title());
                Ending::loss(stm, Termination::Checkmate, reason)
            } else {
                let reason = format!("{} is stalemated (4.1.2: a loss in xiangqi)", stm.title());
                Ending::loss(stm, Termination::Stalemate, reason)
            });
        }
        // 2011 rules 23: the third occurrence is ruled on.
        if pos.occurrences() >= RULING_OCCURRENCE {
            if let Some(ending) = judge(log) {
                return Some(ending);
            }
        }
        if let Some(rule) = self.natural_limit {
            // 2011 rules 4.2.4, counted as 22.2 says.
            let carried = log.start.halfmove_clock();
            let st = natural_limit_with(rule, carried, &log.plies, None);
            if st.outcome == Some(GameResult::Draw) {
                let reason = format!(
                    "natural limit: {} plies without capture ({})",
                    st.counted, st.clause
                );
                return Some(Ending::draw(Termination::NaturalLimit, reason));
            }
        }
        if self.material_draw && pos.no_attacking_material() {
            // 2011 rules 4.2.2: neither side can win.
            let reason = "neither side can win (4.2.2)";
            return Some(Ending::draw(Termination::NoAttackingMaterial, reason));
        }
        None
    }
}

/// The [`referee`]'s ruling on the repetition that `moves` from `start` end in: a draw
/// (4.2.3) or a loss for the side that must vary (4.1.4, 4.1.5); `None` when it makes no
/// ruling. A game it cannot replay is drawn.
pub fn repetition(start: &Position, moves: &[Move], rules: RuleSet) -> Option<Ending> {
    ruling(Replay::of_moves(start.clone(), moves), rules)
}

/// [`repetition`] on the game replayed (or refused: then a draw).
fn ruling(game: Result<Replay, ReplayError>, rules: RuleSet) -> Option<Ending> {
    let j = match game {
        Ok(game) => referee::judge_replay(&game, rules, RefereeOptions::default(), Reports::None),
        Err(e) => {
            let reason = format!("repetition (referee could not replay: {e})");
            return Some(Ending::draw(Termination::Repetition, reason));
        }
    };
    let result = j.outcome?;
    let clause = j.clause.map(|c| format!(" ({c})")).unwrap_or_default();
    let reason = match result {
        GameResult::Draw => format!("repetition{clause}"),
        _ => format!("forbidden repetition{clause}"),
    };
    Some(Ending {
        termination: Termination::Repetition,
        result,
        reason,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(fen: &str, moves: &str) -> GameLog {
        let mut log = GameLog::new(Position::from_fen(fen).unwrap());
        for m in moves.split_whitespace() {
            let m = log.position().parse_move(m).unwrap();
            log.play(m);
        }
        log
    }

    fn cause(arbiter: Arbiter, log: &GameLog) -> Option<(Termination, GameResult)> {
        arbiter.ending(log).map(|e| (e.termination, e.result))
    }

    const CXA: RuleSet = RuleSet::Cxa2011;

    #[test]
    fn mate_loses_4_1_1() {
        // Rooks on ranks 9 and 8: Black's king has nowhere to go.
        let g = log("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1", "");
        let e = Arbiter::new(CXA).ending(&g).unwrap();
        assert_eq!(
            (e.termination, e.result),
            (Termination::Checkmate, GameResult::RedWins)
        );
        assert_eq!(e.reason, "Black is checkmated");
        // Mate comes first, even with the natural limit reached.
        let g = log("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 150 90", "");
        assert_eq!(
            cause(Arbiter::new(CXA), &g).unwrap().0,
            Termination::Checkmate
        );
    }

    #[test]
    fn stalemate_loses_too_4_1_2() {
        // Not in check; d8 is the rook's, e9 faces Red's king down the open file.
        let g = log("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1", "");
        assert_eq!(
            cause(Arbiter::new(CXA), &g),
            Some((Termination::Stalemate, GameResult::RedWins))
        );
    }

    #[test]
    fn perpetual_check_loses_at_the_third_occurrence_4_1_4() {
        let fen = "4k4/9/9/9/5R3/9/9/9/9/3K5 w - - 0 1";
        let moves = "f5e5 e9f9 e5f5 f9e9 f5e5 e9f9 e5f5 f9e9";
        let all: Vec<&str> = moves.split(' ').collect();
        for n in 0..all.len() {
            assert_eq!(
                cause(Arbiter::new(CXA), &log(fen, &all[..n].join(" "))),
                None,
                "{n}"
            );
        }
        assert_eq!(
            cause(Arbiter::new(CXA), &log(fen, moves)),
            Some((Termination::Repetition, GameResult::BlackWins))
        );
    }

    #[test]
    fn idle_repetition_draws_4_2_3() {
        let g = log(
            &Position::startpos().to_fen(),
            "h0g2 h9g7 g2h0 g7h9 h0g2 h9g7 g2h0 g7h9",
        );
        let e = Arbiter::new(CXA).ending(&g).unwrap();
        assert_eq!(
            (e.termination, e.result),
            (Termination::Repetition, GameResult::Draw)
        );
        // A judge of the caller's decides instead; `None` plays on.
        let loss = |_: &GameLog| Some(Ending::loss(Color::Red, Termination::Repetition, "x"));
        assert_eq!(
            Arbiter::new(CXA).ending_with(&g, loss).unwrap().result,
            GameResult::BlackWins
        );
        assert_eq!(Arbiter::new(CXA).ending_with(&g, |_| None), None);
    }

    #[test]
    fn natural_limit_draws_4_2_4() {
        // 119 plies without capture in the FEN's clock; one more quiet move reaches 120.
        let fen = "4k4/9/9/9/9/9/9/9/R8/3K5 w - - 119 80";
        assert_eq!(cause(Arbiter::new(CXA), &log(fen, "")), None);
        let g = log(fen, "a1b1");
        assert_eq!(
            cause(Arbiter::new(CXA), &g),
            Some((Termination::NaturalLimit, GameResult::Draw))
        );
        let off = Arbiter {
            natural_limit: None,
            ..Arbiter::new(CXA)
        };
        assert_eq!(cause(off, &g), None);
    }

    #[test]
    fn no_attacking_material_draws_4_2_2() {
        let g = log("3ak4/9/9/9/9/9/9/9/9/3K1A3 w - - 0 1", "");
        assert_eq!(
            cause(Arbiter::new(CXA), &g),
            Some((Termination::NoAttackingMaterial, GameResult::Draw))
        );
        let off = Arbiter {
            material_draw: false,
            ..Arbiter::new(CXA)
        };
        assert_eq!(cause(off, &g), None);
        assert_eq!(Arbiter::new(CXA).natural_limit, Some(CXA.profile().limit));
    }

    #[test]
    fn the_log_keeps_moves_and_captures() {
        // The cannon takes the central pawn.
        let g = log(&Position::startpos().to_fen(), "h2e2 h9g7 e2e6");
        assert_eq!(g.moves().len(), 3);
        assert!(g.last_captured());
        assert_eq!(g.start(), &Position::startpos());
        assert_eq!(g.position().side_to_move(), Color::Black);
    }

    #[test]
    fn termination_names_and_order() {
        for (i, t) in Termination::ALL.iter().enumerate() {
            assert_eq!(t.index(), i);
        }
        assert_eq!(Termination::MaxPlies.to_string(), "length cap");
        assert_eq!(Ending::length_cap(40).reason, "game length cap of 40 plies");
    }
}
