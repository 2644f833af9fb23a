//! One engine game from an opening to a result.
//!
//! Before each move the rules' [`Arbiter`] checks, in this order: no legal move for the side
//! to move (4.1.1 checkmate, 4.1.2 stalemate — both lose in xiangqi); a position occurring
//! for the third time, judged by the plugged-in [`Referee`] (4.1.4, 4.1.5, 4.2.3); the
//! natural limit (4.2.4, counted as 22.2 says) unless turned off; no attacking material left
//! (4.2.2) if asked; then the runner's length cap. After each answer: a crash, a hang, an
//! illegal move (the engine's move fails the board's legality test; 4.1.3 treats
//! self-exposure as a loss), `nobestmove` while moves exist, resignation (4.1.12) or a fallen
//! flag (4.1.6) loses; two draw offers in a row agree a draw (4.2.1, UCCI `draw`); and the
//! optional score adjudication may end a hopeless or dead-drawn game. Every end is an
//! [`Ending`] with one [`Termination`], the type data generation uses too.

use super::clock::{Clock, TimeControl};
use super::engine_process::{EngineProcess, GoLimits, Protocol, Reply};
use super::openings::Opening;
use super::ranking::GameResult;
use super::repetition_referee::Referee;
use crate::board::{Color, Move, Position};
use crate::rules::{Arbiter, Ending, GameLog, LimitRule, RuleSet, Termination};
use std::time::Duration;

/// Draw by score: from move `move_number` on, when both engines' last `move_count` scores
/// are within ±`score`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawAdjudication {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// Loss by score: when one engine's last `move_count` scores are all ≤ −`score` and its
/// opponent's all ≥ `score` (both agree the game is lost).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResignAdjudication {
    pub move_count: u32,
    pub score: i32,
}

/// Everything about how games are played and judged.
#[derive(Debug, Clone)]
pub struct GameConfig {
    pub tc: TimeControl,
    /// Overrun forgiven before a loss on time.
    pub margin: Duration,
    /// Under depth or node limits: how long a move may take before the engine counts as hung.
    pub hang_timeout: Duration,
    /// Rule book for repetition verdicts.
    pub rules: RuleSet,
    /// Natural limit; `None` turns it off.
    pub natural_limit: Option<LimitRule>,
    /// Draw after this many plies (0 = no cap).
    pub max_plies: u32,
    pub draw_adjudication: Option<DrawAdjudication>,
    pub resign_adjudication: Option<ResignAdjudication>,
    /// Draw when neither side has a rook, horse, cannon or pawn (4.2.2).
    pub material_draw: bool,
}

impl GameConfig {
    /// Defaults: the rule set's natural limit, a 1000-ply cap, no score adjudication.
    pub fn new(tc: TimeControl) -> GameConfig {
        GameConfig {
            tc,
            margin: Duration::from_millis(100),
            hang_timeout: Duration::from_secs(60),
            rules: RuleSet::Cxa2011,
            natural_limit: Some(RuleSet::Cxa2011.profile().limit),
            max_plies: 1000,
            draw_adjudication: None,
            resign_adjudication: None,
            material_draw: false,
        }
    }
}

/// Per-side statistics of one game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Moves the engine made (opening moves excluded).
    pub moves: u32,
    /// Time it used.
    pub time: Duration,
    /// Its longest move.
    pub max_time: Duration,
    /// Moves answered after the fixed move time (`movetime`) ran out, within the overrun
    /// margin: a GUI that enforces the time strictly would have flagged them.
    pub late: u32,
    /// Searches on the opponent's time (`go ponder`), and how many the opponent's move hit.
    pub ponders: u32,
    pub ponder_hits: u32,
}

/// A finished game.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub opening: Opening,
    /// Every move from `opening.fen`, the opening's moves first.
    pub moves: Vec<Move>,
    pub outcome: GameResult,
    pub termination: Termination,
    /// Human-readable reason ("Black is checkmated", "Red lost on time ...").
    pub reason: String,
    /// Red's and Black's statistics.
    pub stats: [SideStats; 2],
}

impl GameRecord {
    /// PGN result text.
    pub fn result_text(&self) -> &'static str {
        self.outcome.token()
    }

    /// A game that could not be played to a result: scored as a draw, with the reason and
    /// the moves played before it stopped.
    pub fn aborted(opening: &Opening, moves: Vec<Move>, reason: String) -> Self {
        GameRecord {
            opening: opening.clone(),
            moves,
            outcome: GameResult::Draw,
            termination: Termination::Aborted,
            reason,
            stats: [SideStats::default(); 2],
        }
    }

    /// A game lost before it started (engine could not start or get ready).
    pub fn forfeit(
        opening: &Opening,
        loser: Color,
        termination: Termination,
        reason: String,
    ) -> Self {
        GameRecord {
            opening: opening.clone(),
            moves: opening.moves.clone(),
            outcome: GameResult::win_for(!loser),
            termination,
            reason,
            stats: [SideStats::default(); 2],
        }
    }
}

/// The last `n` entries all satisfy `f` (and there are at least `n`).
fn last_n(v: &[Option<i32>], n: u32, f: impl Fn(i32) -> bool) -> bool {
    let n = n as usize;
    n > 0 && v.len() >= n && v[v.len() - n..].iter().all(|s| s.is_some_and(&f))
}

/// The game so far, as the arbiter logs it, and where UCCI's `position` starts.
struct Track {
    log: GameLog,
    /// The last irreversible position (after the latest capture) and the index of the first
    /// move after it: what UCCI's `position` wants (ucci.md 4.4).
    irreversible: (String, usize),
}

impl Track {
    fn play(&mut self, m: Move) {
        self.log.play(m);
        if self.log.last_captured() {
            self.irreversible = (self.log.position().to_fen(), self.log.moves().len());
        }
    }

    fn position(&self) -> &Position {
        self.log.position()
    }
}

/// The `go` limits of a side with time control `tc`.
fn go_limits<'a>(tc: &TimeControl, clocks: &'a [Clock; 2]) -> GoLimits<'a> {
    match tc {
        TimeControl::MoveTime(ms) => GoLimits::MoveTime(*ms),
        TimeControl::Depth(d) => GoLimits::Depth(*d),
        TimeControl::Nodes(n) => GoLimits::Nodes(*n),
        TimeControl::Fischer { .. } | TimeControl::Periods { .. } => GoLimits::Clock {
            red: &clocks[0],
            black: &clocks[1],
        },
    }
}

/// The game so far as `position` gives it to an engine speaking `protocol`: UCCI from the
/// last irreversible position (ucci.md 4.4), UCI from the opening's position.
fn position_for<'a>(
    protocol: Protocol,
    opening: &'a Opening,
    track: &'a Track,
) -> (&'a str, &'a [Move]) {
    match protocol {
        Protocol::Ucci => {
            let (fen, from) = &track.irreversible;
            (fen, &track.log.moves()[*from..])
        }
        Protocol::Uci => (&opening.fen, track.log.moves()),
    }
}

/// How the game ends before the side to move moves, if it does: by the arbiter's rules
/// (the plugged-in referee ruling on repetitions) or by the runner's length cap.
fn ending_by_rule(track: &Track, cfg: &GameConfig, referee: &dyn Referee) -> Option<Ending> {
    let arbiter = Arbiter {
        rules: cfg.rules,
        natural_limit: cfg.natural_limit,
        material_draw: cfg.material_draw,
    };
    let judge = |log: &GameLog| {
        let ruling = referee.repetition(log.start(), log.moves(), cfg.rules);
        ruling.outcome.map(|result| Ending {
            termination: Termination::Repetition,
            result,
            reason: ruling.reason,
        })
    };
    if let Some(ending) = arbiter.ending_with(&track.log, judge) {
        return Some(ending);
    }
    let cap = cfg.max_plies as usize;
    (cap > 0 && track.log.moves().len() >= cap).then(|| Ending::length_cap(cap))
}

/// How the game ends by the scores the engines reported, if it does (`mover` has just moved,
/// `plies` moves are on the board): a loss when both agree for long enough that one side is
/// lost, a draw late in a game both score level.
fn adjudication(
    cfg: &GameConfig,
    scores: &[Vec<Option<i32>>; 2],
    mover: Color,
    plies: usize,
) -> Option<Ending> {
    let me = mover.index();
    if let Some(a) = cfg.resign_adjudication {
        let mover_ahead = last_n(&scores[me], a.move_count, |v| v >= a.score)
            && last_n(&scores[1 - me], a.move_count, |v| v <= -a.score);
        if mover_ahead {
            let loser = !mover;
            return Some(Ending::loss(
                loser,
                Termination::AdjudicatedLoss,
                format!(
                    "{} adjudicated lost: both engines scored it ≤ -{} for {} moves",
                    loser.title(),
                    a.score,
                    a.move_count
                ),
            ));
        }
    }
    if let Some(a) = cfg.draw_adjudication {
        let late = plies as u64 >= 2 * u64::from(a.move_number);
        let quiet = |v: &Vec<Option<i32>>| last_n(v, a.move_count, |x| x.abs() <= a.score);
        if late && quiet(&scores[0]) && quiet(&scores[1]) {
            return Some(Ending::draw(
                Termination::AdjudicatedDraw,
                format!(
                    "adjudicated draw: both engines within ±{} for {} moves",
                    a.score, a.move_count
                ),
            ));
        }
    }
    None
}

/// How the game ends when `who` (the side to move, `stm`) answered with no move: a loss on
/// time under a clock, a hang without one, a crash, or a `nobestmove` with legal moves left.
fn no_move(reply: &Reply, timed: bool, who: &str, stm: Color, deadline: Duration) -> Ending {
    match reply {
        Reply::Timeout if timed => Ending::loss(
            stm,
            Termination::TimeForfeit,
            format!(
                "{who} lost on time (no move in {} ms)",
                deadline.as_millis()
            ),
        ),
        Reply::Timeout => Ending::loss(
            stm,
            Termination::Hang,
            format!("{who} hung (no move in {} s)", deadline.as_secs()),
        ),
        Reply::Crash(None) => Ending::loss(stm, Termination::Crash, format!("{who} crashed")),
        Reply::Crash(Some(why)) => Ending::loss(stm, Termination::Crash, format!("{who} {why}")),
        // ElephantEye answers `nobestmove` when it thinks the game is drawn by its own rules
        // (50 moves, threefold); the arbiter's rules decide, so like the UCCI league emulator
        // it scores this as a resignation. (A move is never passed here.)
        Reply::NoMove | Reply::Move { .. } => Ending::loss(
            stm,
            Termination::NoMove,
            format!("{who} gave no move (nobestmove with legal moves left)"),
        ),
    }
}

/// The game's start: the opening's position and moves, or the record of a game aborted
/// because they are not legal (boxed: the record is large beside the track).
fn opening_track(opening: &Opening) -> Result<Track, Box<GameRecord>> {
    let aborted =
        |moves: Vec<Move>, reason: String| Box::new(GameRecord::aborted(opening, moves, reason));
    let start = Position::from_fen(&opening.fen)
        .map_err(|e| aborted(Vec::new(), format!("bad opening FEN: {e}")))?;
    let mut track = Track {
        log: GameLog::new(start),
        irreversible: (opening.fen.clone(), 0),
    };
    for &m in &opening.moves {
        if !track.position().is_legal(m) {
            let moves = track.log.moves().to_vec();
            return Err(aborted(moves, format!("opening move {m} is illegal")));
        }
        track.play(m);
    }
    Ok(track)
}

/// Tells both engines a game starts; the forfeit of the first that is not ready.
fn new_game(
    red: &mut EngineProcess,
    black: &mut EngineProcess,
    opening: &Opening,
) -> Option<GameRecord> {
    for (eng, color) in [(red, Color::Red), (black, Color::Black)] {
        if let Err(e) = eng.new_game() {
            let reason = format!(
                "{} ({}) not ready for the game: {e}",
                color.title(),
                eng.name()
            );
            return Some(GameRecord::forfeit(
                opening,
                color,
                Termination::StartFailure,
                reason,
            ));
        }
    }
    None
}

/// What each side of a game under way has, by colour index: its time control and clock,
/// its statistics and scores, and its prediction of the other's next move.
struct Sides {
    /// Each side's time control: its engine's own (`tc=` in its spec), else the match's.
    tcs: [TimeControl; 2],
    clocks: [Clock; 2],
    stats: [SideStats; 2],
    scores: [Vec<Option<i32>>; 2],
    /// The side whose last move offered a draw.
    draw_offer: Option<Color>,
    /// Each side's prediction of the other's next move, from its last `bestmove ... ponder`.
    predicted: [Option<Move>; 2],
}

impl Sides {
    fn new(red: &EngineProcess, black: &EngineProcess, cfg: &GameConfig) -> Sides {
        let tcs = [
            red.time_control().unwrap_or(&cfg.tc).clone(),
            black.time_control().unwrap_or(&cfg.tc).clone(),
        ];
        let clocks = [Clock::new(&tcs[0]), Clock::new(&tcs[1])];
        Sides {
            tcs,
            clocks,
            stats: [SideStats::default(); 2],
            scores: [Vec::new(), Vec::new()],
            draw_offer: None,
            predicted: [None, None],
        }
    }

    /// `side` (the one not to move, engine `eng`) thinks on the other's time, on the move it
    /// predicted, if it ponders and the game is timed.
    fn ponder(&mut self, eng: &mut EngineProcess, side: Color, opening: &Opening, track: &Track) {
        let i = side.index();
        let Some(p) = self.predicted[i].take() else {
            return;
        };
        let tc = &self.tcs[i];
        // `p` was read as a legal move of this very position (`parse_move`).
        if eng.ponders() && tc.is_timed() {
            let go = eng.go_command(&go_limits(tc, &self.clocks), side, false);
            let (fen, moves) = position_for(eng.protocol(), opening, track);
            let mut moves = moves.to_vec();
            moves.push(p);
            eng.start_pondering(fen, &moves, &go);
            self.stats[i].ponders += 1;
        }
    }

    /// The side to move, `stm` (engine `eng`), moves: its move is played on `track`, or the
    /// game ends with its answer (no move, an illegal one, a fallen flag, a resignation, a
    /// draw offer accepted).
    fn play_move(
        &mut self,
        eng: &mut EngineProcess,
        stm: Color,
        opening: &Opening,
        cfg: &GameConfig,
        track: &mut Track,
    ) -> Result<(), Ending> {
        let other_offer = self.draw_offer == Some(!stm);
        let me = stm.index();
        let tc = &self.tcs[me];
        let deadline = self.clocks[me]
            .allowance(cfg.margin)
            .unwrap_or(cfg.hang_timeout);
        let thought = if eng
            .pondering()
            .is_some_and(|p| track.log.moves().last() == Some(&p))
        {
            self.stats[me].ponder_hits += 1;
            eng.ponder_hit(other_offer, deadline)
        } else {
            eng.stop_pondering();
            let go = eng.go_command(&go_limits(tc, &self.clocks), stm, other_offer);
            let (fen, moves) = position_for(eng.protocol(), opening, track);
            eng.think(fen, moves, &go, deadline)
        };
        let who = format!("{} ({})", stm.title(), eng.name());
        let s = &mut self.stats[me];
        s.time += thought.elapsed;
        s.max_time = s.max_time.max(thought.elapsed);
        if let TimeControl::MoveTime(ms) = *tc {
            s.late += u32::from(thought.elapsed > Duration::from_millis(ms));
        }
        let (raw, mv, ponder, offers_draw, resigns) = match thought.reply {
            Reply::Move {
                raw,
                mv,
                ponder,
                offers_draw,
                resigns,
            } => (raw, mv, ponder, offers_draw, resigns),
            other => return Err(no_move(&other, tc.is_timed(), &who, stm, deadline)),
        };
        if let Err(f) = self.clocks[me].charge(thought.elapsed, cfg.margin) {
            return Err(Ending::loss(
                stm,
                Termination::TimeForfeit,
                format!("{who} lost on time ({} ms over)", f.over_ms),
            ));
        }
        // UCCI: answering an offer with `draw` accepts it, and the move is not played.
        if other_offer && offers_draw {
            return Err(Ending::draw(
                Termination::DrawAgreed,
                format!("draw agreed ({who} accepted)"),
            ));
        }
        if resigns {
            return Err(Ending::loss(
                stm,
                Termination::Resignation,
                format!("{who} resigned"),
            ));
        }
        let Some(Ok(m)) = mv.as_deref().map(|t| track.position().parse_move(t)) else {
            return Err(Ending::loss(
                stm,
                Termination::IllegalMove,
                format!("{who} played an illegal move '{raw}'"),
            ));
        };
        track.play(m);
        self.predicted[me] = ponder
            .and_then(|t| eng.read_move(&t))
            .and_then(|t| track.position().parse_move(&t).ok());
        s.moves += 1;
        self.draw_offer = offers_draw.then_some(stm);
        self.scores[me].push(thought.score.map(|v| v.value()));
        Ok(())
    }
}

/// Plays one game: `red` and `black` are running engines.
pub fn play_game(
    red: &mut EngineProcess,
    black: &mut EngineProcess,
    opening: &Opening,
    cfg: &GameConfig,
    referee: &dyn Referee,
) -> GameRecord {
    let mut track = match opening_track(opening) {
        Ok(track) => track,
        Err(record) => return *record,
    };
    if let Some(record) = new_game(red, black, opening) {
        return record;
    }
    let mut sides = Sides::new(red, black, cfg);
    let ending = loop {
        let stm = track.position().side_to_move();
        if let Some(ending) = ending_by_rule(&track, cfg, referee) {
            break ending;
        }
        let (mover, other) = match stm {
            Color::Red => (&mut *red, &mut *black),
            Color::Black => (&mut *black, &mut *red),
        };
        sides.ponder(other, !stm, opening, &track);
        if let Err(ending) = sides.play_move(mover, stm, opening, cfg, &mut track) {
            break ending;
        }
        if let Some(ending) = adjudication(cfg, &sides.scores, stm, track.log.moves().len()) {
            break ending;
        }
    };
    // A search on the opponent's time may still run when the game ends.
    red.stop_pondering();
    black.stop_pondering();
    GameRecord {
        opening: opening.clone(),
        moves: track.log.moves().to_vec(),
        outcome: ending.result,
        termination: ending.termination,
        reason: ending.reason,
        stats: sides.stats,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repetition_count_stops_at_captures() {
        let mut pos = Position::startpos();
        for m in [
            "h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9",
        ] {
            assert!(pos.occurrences() < 3);
            pos.play(m).unwrap();
        }
        assert_eq!(pos.occurrences(), 3);
    }

    #[test]
    fn dead_material() {
        let p = Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1").unwrap();
        assert!(p.no_attacking_material());
        assert!(!Position::startpos().no_attacking_material());
    }

    #[test]
    fn score_windows() {
        let v = [Some(5), None, Some(-500), Some(-600)];
        assert!(last_n(&v, 2, |x| x <= -400));
        assert!(!last_n(&v, 3, |x| x <= -400));
        assert!(!last_n(&v, 5, |_| true));
        assert!(!last_n(&v, 0, |_| true));
    }
}
