//! Self-play games for tuning data: the engine plays itself at a fixed node count from varied
//! openings, and every quiet position of each game is written with the game's result. The
//! seed fixes the openings and, with one thread per game and node limits, the whole data set,
//! so a run can be reproduced exactly.
//!
//! Output, one position per line: `<FEN> | <result>` with the result from Red's side
//! (`1.0` Red won, `0.5` draw, `0.0` Black won).

use crate::board::{Color, Position};
use crate::rules::RuleSet;
use crate::search::alphabeta::Limits;
use crate::search::engine::{Engine, Evaluation};
use crate::search::repetition;
use crate::search::score::is_decisive;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Self-play settings.
#[derive(Clone, Debug)]
pub struct Config {
    pub games: usize,
    pub nodes: u64,
    /// Random plies at the start of each game (after an optional opening line).
    pub random_plies: usize,
    pub seed: u64,
    /// Opening lines (ICCS) to start from, chosen by the seed; may be empty.
    pub openings: Vec<Vec<String>>,
    /// Games longer than this are drawn.
    pub max_plies: usize,
    /// The evaluation both sides search with.
    pub evaluation: Evaluation,
}

/// One finished game: its positions (FEN) and the result from Red's side.
pub struct Game {
    pub positions: Vec<String>,
    pub result: f32,
}

fn play_one(cfg: &Config, index: usize) -> Game {
    let mut rng =
        ChaCha8Rng::seed_from_u64(cfg.seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut moves: Vec<String> = Vec::new();
    if !cfg.openings.is_empty() {
        moves = cfg.openings[rng.random_range(0..cfg.openings.len())].clone();
    }
    let mut pos = Position::startpos();
    for m in &moves {
        if pos.play(m).is_err() {
            break;
        }
    }
    let mut played: Vec<String> = pos
        .history()
        .iter()
        .filter_map(|s| s.mv)
        .map(|m| m.to_string())
        .collect();
    for _ in 0..cfg.random_plies {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.random_range(0..legal.len())];
        pos.make_move(m);
        played.push(m.to_string());
    }
    let mut engine = Engine::new();
    engine.set_hash_mb(8);
    engine.set_evaluation(&cfg.evaluation);
    let mut positions = Vec::new();
    let mut big_scores = 0;
    let result = loop {
        if engine.set_position(None, &played).is_err() {
            break 0.5;
        }
        let pos = engine.position().clone();
        let red = pos.side_to_move() == Color::Red;
        if !pos.has_legal_move() {
            // Checkmate and stalemate lose (2011 rules 4.1).
            break if red { 0.0 } else { 1.0 };
        }
        if pos.halfmove_clock() >= repetition::natural_limit_plies(RuleSet::Cxa2011)
            || played.len() >= cfg.max_plies
        {
            break 0.5;
        }
        let out = engine.search_blocking(
            Limits {
                nodes: Some(cfg.nodes),
                ..Limits::default()
            },
            |_| {},
        );
        let Some(best) = out.best else {
            break if red { 0.0 } else { 1.0 };
        };
        // Adjudicate clear results to keep games short: four decisive scores in a row.
        if out.score.abs() >= 1500 {
            big_scores += 1;
            if big_scores >= 4 || is_decisive(out.score) {
                let stm_wins = out.score > 0;
                break if stm_wins == red { 1.0 } else { 0.0 };
            }
        } else {
            big_scores = 0;
        }
        let quiet = !pos.in_check() && pos.piece_at(best.to()).is_none();
        if quiet {
            let mut p = pos.clone();
            p.clear_history();
            positions.push(p.to_fen());
        }
        played.push(best.to_string());
        // A repetition the rules decide ends the game with that verdict.
        let mut after = engine.position().clone();
        after.make_move(best);
        if let Some(s) = repetition::score(&after, 0) {
            let after_red = after.side_to_move() == Color::Red;
            break match s.signum() {
                0 => 0.5,
                1 => {
                    if after_red {
                        1.0
                    } else {
                        0.0
                    }
                }
                _ => {
                    if after_red {
                        0.0
                    } else {
                        1.0
                    }
                }
            };
        }
    };
    Game { positions, result }
}

/// Plays the games in parallel; `progress` is called after each game with (done, total).
pub fn run(cfg: &Config, progress: impl Fn(usize, usize) + Sync) -> Vec<Game> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    (0..cfg.games)
        .into_par_iter()
        .map(|i| {
            let g = play_one(cfg, i);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(n, cfg.games);
            g
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible() {
        let cfg = Config {
            games: 2,
            nodes: 300,
            random_plies: 2,
            seed: 5,
            openings: vec![vec!["h2e2".into(), "h9g7".into()]],
            max_plies: 40,
            evaluation: Evaluation::Default,
        };
        let a = run(&cfg, |_, _| {});
        let b = run(&cfg, |_, _| {});
        assert_eq!(a.len(), 2);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.positions, y.positions);
            assert_eq!(x.result, y.result);
            assert!(x.positions.iter().all(|f| Position::from_fen(f).is_ok()));
        }
    }
}
