//! `jiangjun analyse`: a game searched position by position, written back as annotated PGN.
//!
//! Every position of the main line (the start, and the one after each move) is searched once
//! through the engine façade, with the moves before it passed as the protocol's
//! `position ... moves` passes them, so the repetition rules see the game's history. From the
//! scores:
//!
//! - the best move and its score come from a search of the position before the move;
//! - the played move's score, when it is not the best move, from a second search of the same
//!   position with every other root move banned (as `banmoves` does), to the depth the first
//!   reached: same root, same depth, so the two scores compare. The negated score of the next
//!   position would save that search but comes from a root one ply further on, and the
//!   search's scores swing with the parity of the root (see `search_only`);
//! - the score after the move, shown from Red's view, is the played move's score;
//! - the loss is the best score minus the played move's score (never below 0: the lone search
//!   can find the played move better than the full one did). A move that is the engine's own
//!   best has no loss and is never marked.
//!
//! Marks by loss: [`DUBIOUS_CP`] `?!`, [`MISTAKE_CP`] `?`, [`BLUNDER_CP`] `??`. Where the loss
//! reaches the threshold (default [`DEFAULT_THRESHOLD_CP`]) the comment names the better move
//! and its line. The referee's notes on repetitions and its ruling go in as comments at the
//! plies they concern.

use super::budget::Budget;
use crate::board::GameResult;
use crate::board::{Color, Move, Position};
use crate::engine::{Engine, Evaluation, IllegalMove};
use crate::records::pgn::{self, Game, MoveFormat, WriteOptions};
use crate::rules::{judge_replay, RefereeOptions, Replay, Reports, RuleSet};
use crate::search::limits::Limits;
use crate::search::score;
use std::fmt;

/// A loss from this many centipawns is marked `?!` (dubious).
pub const DUBIOUS_CP: i32 = 50;
/// A loss from this many centipawns is marked `?` (mistake).
pub const MISTAKE_CP: i32 = 100;
/// A loss from this many centipawns is marked `??` (blunder): a piece such as a horse or more.
pub const BLUNDER_CP: i32 = 300;
/// The loss from which a comment gives the better move, unless `--threshold` says otherwise.
pub const DEFAULT_THRESHOLD_CP: i32 = 50;
/// The search time per position when neither `--movetime` nor `--depth` is given.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;
/// Moves of the better line written in a comment.
const LINE_MOVES: usize = 8;

/// A judgement mark, by the score a move loses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    Dubious,
    Mistake,
    Blunder,
}

impl Mark {
    /// The mark for a loss in centipawns; `None` below [`DUBIOUS_CP`].
    pub fn for_loss(loss: i32) -> Option<Mark> {
        match loss {
            l if l >= BLUNDER_CP => Some(Mark::Blunder),
            l if l >= MISTAKE_CP => Some(Mark::Mistake),
            l if l >= DUBIOUS_CP => Some(Mark::Dubious),
            _ => None,
        }
    }

    /// The PGN suffix: `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Dubious => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The word used in comments and legends.
    pub fn name(self) -> &'static str {
        match self {
            Mark::Dubious => "dubious",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// What the analysis is asked to do.
#[derive(Clone, Debug)]
pub struct Settings {
    pub budget: Budget,
    /// Search threads (1 with a depth budget gives the same result every run).
    pub threads: usize,
    /// Transposition table in MB, kept from one position to the next.
    pub hash_mb: usize,
    /// Repetition rules, for the search and the referee.
    pub rules: RuleSet,
    /// Loss in centipawns from which a comment gives the better move.
    pub threshold: i32,
    /// The evaluation the searches use.
    pub evaluation: Evaluation,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            budget: Budget::MoveTime(DEFAULT_MOVETIME_MS),
            threads: 1,
            hash_mb: 64,
            rules: RuleSet::Cxa2011,
            threshold: DEFAULT_THRESHOLD_CP,
            evaluation: Evaluation::Default,
        }
    }
}

/// One position as the search sees it, from the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionScore {
    pub score: i32,
    /// `None` when the side to move has no legal move (mated or stalemated: 2011 rules 4.1).
    pub best: Option<Move>,
    /// The principal variation, starting with `best` (legal moves only).
    pub pv: Vec<Move>,
    pub depth: i32,
}

/// One played move, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAnalysis {
    /// 1-based.
    pub ply: usize,
    pub mover: Color,
    pub played: Move,
    /// The score after the move, from Red's view.
    pub after_red: i32,
    /// Best score minus the played move's score, from the mover's view; 0 for the best move.
    pub loss: i32,
    pub mark: Option<Mark>,
    /// The engine's choice in the position before the move, its score from Red's view, and
    /// its line.
    pub best: Option<Move>,
    pub best_red: i32,
    pub pv: Vec<Move>,
}

/// A whole game analysed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The start position's score from Red's view.
    pub start_red: i32,
    pub moves: Vec<MoveAnalysis>,

    /// The referee's notes: `(ply, text)`, in ply order.
    pub notes: Vec<(usize, String)>,
    /// How it was analysed: `Jiangjun 0.1.0, movetime 1000 ms`.
    pub annotator: String,
}

/// Why a game cannot be analysed (its moves were checked when read, so only a hand-built
/// game gets here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalyseError {
    Position(IllegalMove),
}

impl fmt::Display for AnalyseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalyseError::Position(e) => write!(f, "the game does not replay: {e}"),
        }
    }
}

impl std::error::Error for AnalyseError {}

/// Searches every position of `game` that has a move played from it (the start position
/// alone when there is none); `progress(k, total)` is called after the `k`-th of the `total`
/// positions.
pub fn analyse(
    game: &Game,
    settings: &Settings,
    mut progress: impl FnMut(usize, usize),
) -> Result<Analysis, AnalyseError> {
    let mut engine = Engine::new();
    engine.set_threads(settings.threads);
    engine.set_hash_mb(settings.hash_mb);
    engine.set_rules(settings.rules);
    engine.set_use_book(false);
    engine.set_evaluation(&settings.evaluation);
    let total = game.moves.len().max(1);
    let mut pos = game.start.clone();
    let red_view = |side: Color, s: i32| match side {
        Color::Red => s,
        Color::Black => -s,
    };
    let mut start_red = 0;
    let mut moves = Vec::with_capacity(game.moves.len());
    for i in 0..total {
        engine
            .set_game(game.start.clone(), &game.moves[..i])
            .map_err(AnalyseError::Position)?;
        let best = search(&mut engine, &pos, settings.budget);
        let mover = pos.side_to_move();
        if i == 0 {
            start_red = red_view(mover, best.score);
        }
        if let Some(&played) = game.moves.get(i) {
            let played_score = if best.best == Some(played) {
                best.score
            } else {
                search_only(&mut engine, &pos, played, &best, settings.budget)
            };
            let loss = (best.score - played_score).max(0);
            moves.push(MoveAnalysis {
                ply: i + 1,
                mover,
                played,
                after_red: red_view(mover, played_score),
                loss,
                mark: Mark::for_loss(loss),
                best: best.best,
                best_red: red_view(mover, best.score),
                pv: best.pv,
            });
            pos.make_move(played);
        }
        progress(i + 1, total);
    }
    Ok(Analysis {
        start_red,
        moves,
        notes: referee_notes(game, settings.rules),
        annotator: format!(
            "Jiangjun {}, {}",
            env!("CARGO_PKG_VERSION"),
            settings.budget
        ),
    })
}

/// One search of the engine's position (`pos` is the same position, to check the line). An
/// only move is searched to the budget like any other (the engine would play it after one
/// iteration, whose score would put a false dip in the graph).
fn search(engine: &mut Engine, pos: &Position, budget: Budget) -> PositionScore {
    let mut line = Vec::new();
    let limits = Limits {
        score_only_move: true,
        ..budget.limits()
    };
    let result = engine.search_blocking(limits, |info| {
        if info.multipv.is_none() && !info.pv.is_empty() {
            line = info.pv.clone();
        }
    });
    if line.first() != result.best.as_ref() {
        line = result.best.into_iter().collect();
    }
    PositionScore {
        score: result.score,
        best: result.best,
        pv: legal_prefix(pos, &line),
        depth: result.depth,
    }
}

/// The score of `played` from the engine's position, searched alone (every other root move
/// banned, as `banmoves` does) to the depth the full search reached: the same root and the
/// same depth as the best move's score, so the two compare. (The negated score of the next
/// position would come from a root one ply further, and this search's scores swing with the
/// parity of the root: measured on a master game at depth 7, the side to move's scores ran
/// about 60-150 cp above the previous position's, which marked nearly every move.)
fn search_only(
    engine: &mut Engine,
    pos: &Position,
    played: Move,
    full: &PositionScore,
    budget: Budget,
) -> i32 {
    let others: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|&m| m != played)
        .collect();
    engine.set_banned(&others);
    let cap = budget.limits();
    let limits = Limits {
        depth: Some(full.depth.max(1)),
        // `infinite` keeps the search from stopping after one iteration as it does with a
        // single root move; it still ends at the depth, or at the budget's time or nodes.
        infinite: true,
        hard_ms: cap.hard_ms,
        nodes: cap.nodes,
        ..Limits::default()
    };
    let score = engine.search_blocking(limits, |_| {}).score;
    engine.set_banned(&[]);
    score
}

/// The longest start of `line` that is legal from `pos` (a line read back from the table can
/// end in a move of another position).
fn legal_prefix(pos: &Position, line: &[Move]) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut out = Vec::new();
    for &m in line {
        if !pos.is_legal(m) {
            break;
        }
        pos.make_move(m);
        out.push(m);
    }
    out
}

/// Where the game left the endgame tables' result: `(ply, text)` after each move that turned
/// a win into a draw or loss, or a draw into a loss, for the side that made it (the tables'
/// values before and after the move). Moves in positions no held table covers say nothing.
pub fn table_notes(game: &Game, tables: &crate::tablebase::TableSet) -> Vec<(usize, String)> {
    let mut pos = game.start.clone();
    let mut notes = Vec::new();
    for (i, &m) in game.moves.iter().enumerate() {
        let before = tables.probe(&pos);
        pos.make_move(m);
        let after = tables.probe(&pos).map(|v| v.before());
        if let (Some(b), Some(a)) = (before, after) {
            if a.outcome() < b.outcome() {
                notes.push((
                    i + 1,
                    format!(
                        "tables: {m} throws away a {} ({b} before the move, {a} after)",
                        b.word()
                    ),
                ));
            }
        }
    }
    notes
}

/// The referee over the game: where a position stands again (the first ply of each run of
/// repeated positions), and its ruling with the clause.
fn referee_notes(game: &Game, rules: RuleSet) -> Vec<(usize, String)> {
    let mut notes = Vec::new();
    let Ok(replay) = Replay::of_moves(game.start.clone(), &game.moves) else {
        return notes;
    };
    let mut repeating = false;
    for ply in 1..=replay.len() {
        let rep = replay.repetition_at(ply);
        if let (Some(r), false) = (rep, repeating) {
            notes.push((
                ply,
                format!(
                    "referee: the position after ply {} stands again ({} times since the last capture)",
                    r.previous, r.occurrences
                ),
            ));
        }
        repeating = rep.is_some();
    }
    let j = judge_replay(&replay, rules, RefereeOptions::default(), Reports::None);
    let recorded = match agreement(j.outcome, game.result) {
        agree @ ("agrees" | "disagrees") => {
            format!("; the recorded {} {agree}", pgn::result_token(game.result))
        }
        _ => String::new(),
    };
    let text = match (&j.verdict, j.clause) {
        (Some(v), _) if j.outcome.is_some() => format!("{v}"),
        (Some(v), Some(c)) => format!(
            "repetition not ruled yet ({c}): red {}, black {}",
            v.red, v.black
        ),
        (None, Some(c)) => format!("{} by {c}", crate::rules::ruling_word(j.outcome)),
        _ => return notes,
    };
    let ply = j.ruled_at.unwrap_or(game.moves.len());
    notes.push((ply, format!("referee ({}): {text}{recorded}", rules.name())));
    notes.sort_by_key(|(p, _)| *p);
    notes
}

/// A score from Red's view as the comments write it: `+35 cp`, or `M+3` / `M-3` for a mate in
/// that many moves (`M+0`: mated on the board), `R+3` / `R-3` for a win or loss by the
/// repetition rules (2011 rules 25-26) in that many moves.
pub fn score_text(red: i32) -> String {
    match score::decisive_plies(red) {
        Some(plies) => format!(
            "{}{}{}",
            if score::is_mate(red) { 'M' } else { 'R' },
            if red > 0 { '+' } else { '-' },
            (plies + 1) / 2
        ),
        None => format!("{red:+} cp"),
    }
}

/// The game with the analysis in it: the score after each move as a comment, marks, the better
/// move and its line where the loss reaches the threshold, the referee's notes and an
/// `Annotator` tag. The game's own comments are kept; its marks are replaced.
pub fn annotate(
    game: &Game,
    analysis: &Analysis,
    format: MoveFormat,
    opts: WriteOptions,
    threshold: i32,
) -> Game {
    let mut out = game.clone();
    out.set_tag("Annotator", &analysis.annotator);
    out.marks.clear();
    let mut comments = game.comments.clone();
    let mut pos = game.start.clone();
    let start_best = analysis
        .moves
        .first()
        .and_then(|m| m.best.map(|b| (b, m.pv.clone())));
    let opening = match start_best {
        Some((b, _)) => format!(
            "start {}, best {}",
            score_text(analysis.start_red),
            pgn::move_text(&pos, b, format, opts)
        ),
        None => format!("start {}", score_text(analysis.start_red)),
    };
    comments.push((0, opening));
    for m in &analysis.moves {
        let mut text = score_text(m.after_red);
        if let Some(mark) = m.mark {
            out.marks.push((m.ply, mark.symbol().to_string()));
            text.push_str(&format!("; {}", mark.name()));
        }
        if m.loss >= threshold.max(1) {
            if let Some(best) = m.best {
                let plain = !score::is_decisive(m.best_red) && !score::is_decisive(m.after_red);
                if plain {
                    text.push_str(&format!(", loses {} cp", m.loss));
                }
                text.push_str(&format!(
                    "; better {} ({}): {}",
                    pgn::move_text(&pos, best, format, opts),
                    score_text(m.best_red),
                    line_text(&pos, &m.pv, format, opts)
                ));
            }
        }
        comments.push((m.ply, text));
        pos.make_move(m.played);
    }
    comments.extend(analysis.notes.iter().cloned());
    // Stable: at one ply the game's own comment, then the score, then the referee.
    comments.sort_by_key(|(p, _)| *p);
    out.comments = comments;
    out
}

/// A line of moves from `pos` in `format`, at most [`LINE_MOVES`] of them.
pub(crate) fn line_text(
    pos: &Position,
    line: &[Move],
    format: MoveFormat,
    opts: WriteOptions,
) -> String {
    let mut pos = pos.clone();
    let mut words = Vec::new();
    for &m in line.iter().take(LINE_MOVES) {
        if !pos.is_legal(m) {
            break;
        }
        words.push(pgn::move_text(&pos, m, format, opts));
        pos.make_move(m);
    }
    words.join(" ")
}

/// How the referee's ruling stands to the recorded result.
pub fn agreement(outcome: Option<GameResult>, recorded: Option<GameResult>) -> &'static str {
    match (outcome, recorded) {
        (_, None) => "unrecorded",
        (None, _) => "unruled",
        (Some(GameResult::RedWins), Some(GameResult::RedWins))
        | (Some(GameResult::BlackWins), Some(GameResult::BlackWins))
        | (Some(GameResult::Draw), Some(GameResult::Draw)) => "agrees",
        _ => "disagrees",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rook that walks into the advisor's reach throws the win away; the capture that
    /// follows only keeps the draw and is not marked.
    #[test]
    fn table_notes_mark_the_move_that_threw_the_win_away() {
        use crate::tablebase::{generate::generate_in_memory, Material};
        let tables = generate_in_memory(Material::parse("KR-KA").unwrap());
        let game = Game {
            tags: Vec::new(),
            start: Position::from_fen("5k3/4a4/R8/9/9/9/9/9/9/4K4 w - - 0 1").unwrap(),
            moves: vec!["a7d7".parse().unwrap(), "e8d7".parse().unwrap()],
            result: None,
            comments: Vec::new(),
            marks: Vec::new(),
        };
        assert_eq!(
            table_notes(&game, &tables),
            [(
                1,
                "tables: a7d7 throws away a win (win 5 before the move, draw after)".to_string()
            )]
        );
    }

    #[test]
    fn agreement_table() {
        assert_eq!(
            agreement(Some(GameResult::RedWins), Some(GameResult::RedWins)),
            "agrees"
        );
        assert_eq!(
            agreement(Some(GameResult::BlackWins), Some(GameResult::BlackWins)),
            "agrees"
        );
        assert_eq!(
            agreement(Some(GameResult::Draw), Some(GameResult::Draw)),
            "agrees"
        );
        assert_eq!(
            agreement(Some(GameResult::Draw), Some(GameResult::RedWins)),
            "disagrees"
        );
        assert_eq!(agreement(None, Some(GameResult::RedWins)), "unruled");
        assert_eq!(agreement(Some(GameResult::BlackWins), None), "unrecorded");
    }

    #[test]
    fn marks_by_loss() {
        assert_eq!(Mark::for_loss(0), None);
        assert_eq!(Mark::for_loss(DUBIOUS_CP - 1), None);
        assert_eq!(Mark::for_loss(DUBIOUS_CP), Some(Mark::Dubious));
        assert_eq!(Mark::for_loss(MISTAKE_CP), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(BLUNDER_CP - 1), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(BLUNDER_CP), Some(Mark::Blunder));
        assert_eq!(Mark::Blunder.symbol(), "??");
    }

    #[test]
    fn scores_as_text() {
        assert_eq!(score_text(35), "+35 cp");
        assert_eq!(score_text(-120), "-120 cp");
        assert_eq!(score_text(0), "+0 cp");
        assert_eq!(score_text(score::mate_in(5)), "M+3");
        assert_eq!(score_text(score::mated_in(2)), "M-1");
        assert_eq!(score_text(-score::MATE), "M-0");
        assert_eq!(score_text(score::rule_win_in(3)), "R+2");
    }

    /// Red's third move a1b1?? puts the rook behind its own cannon on the b-file, where
    /// Black's cannon takes it over that screen for nothing.
    #[test]
    fn a_hung_rook_is_a_blunder_and_the_best_move_is_not_marked() {
        let text = "1. b0c2 b9c7 2. a0a1 a9a8 3. a1b1 b7b1";
        let game = pgn::parse_pgn(text).expect("reads").remove(0);
        let settings = Settings {
            budget: Budget::Depth(3),
            ..Settings::default()
        };
        let mut calls = 0;
        let a = analyse(&game, &settings, |k, n| {
            calls += 1;
            assert!(k <= n);
        })
        .expect("analyses");
        assert_eq!(calls, game.moves.len());
        assert_eq!(a.moves.len(), 6);
        assert!(a.annotator.ends_with(", depth 3"), "{}", a.annotator);
        let blunder = &a.moves[4];
        assert_eq!(blunder.mark, Some(Mark::Blunder), "{blunder:?}");
        assert!(blunder.loss >= BLUNDER_CP);
        // Taking it is Black's best: no loss, no mark.
        let take = &a.moves[5];
        assert_eq!(take.best, Some(take.played));
        assert_eq!((take.loss, take.mark), (0, None));
        let annotated = annotate(
            &game,
            &a,
            MoveFormat::Iccs,
            WriteOptions::default(),
            DEFAULT_THRESHOLD_CP,
        );
        assert!(annotated.marks.contains(&(5, "??".to_string())));
        let comment = &annotated.comments.iter().find(|(p, _)| *p == 5).unwrap().1;
        assert!(
            comment.contains("blunder") && comment.contains("better"),
            "{comment}"
        );
    }
}
