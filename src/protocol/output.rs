//! Engine → GUI lines, worded for the dialect in use. Pure formatting, no I/O.
//!
//! The shapes follow what GUIs actually parse (ucci.md §5, gui.md §1.4):
//!
//! * `info` lines put `pv` last with single spaces (XQWizard reads the PV to the end of the line
//!   in 5-character steps) and always include `nps` (TCHESS only reads lines containing it).
//!   UCCI scores have no `cp` (`score 35`); UCI scores do (`score cp 35`); mates are
//!   `score mate N` in moves, negative when we are mated, in both.
//! * `bestmove m [ponder p] [draw|resign]` with no trailing blank: XQWizard takes the move from
//!   fixed columns and detects `draw`/`resign` only as the last word.
//! * No legal move: `nobestmove` in UCCI, `bestmove (none)` after `info depth 0 score mate 0`
//!   in UCI (Stockfish family, ucci.md §9.1).
//! * `info string` text is made one printable line, whatever the input that caused it.
//! * Opening-book answers: see [`book_lines`] (evaluations, not book weights, as scores).

use super::command::Dialect;
use crate::board::rank_origin::{format_move, RankOrigin};
use crate::board::Move;
use crate::search::report::BookCandidate;
use crate::search::report::Info;
use crate::search::score::{mate_in_moves, reported};
use crate::search::tt::{Bound, TtEntry};
use crate::search::wdl;

/// What `bestmove` carries after the moves (UCCI only; UCI GUIs adjudicate themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suffix {
    None,
    /// Accepts the opponent's offer, or offers a draw (ucci.md §8).
    Draw,
    /// Gives up the game.
    Resign,
}

/// Longest `info string` text we print, in characters.
const MAX_INFO_STRING: usize = 300;

/// An `info string` line: control characters become `?`, long text is cut.
pub fn info_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len().min(MAX_INFO_STRING) + 16);
    out.push_str("info string ");
    let mut chars = text.chars();
    for c in chars.by_ref().take(MAX_INFO_STRING) {
        out.push(if c.is_control() { '?' } else { c });
    }
    if chars.next().is_some() {
        out.push_str("...");
    }
    let trimmed = out.trim_end().len();
    out.truncate(trimmed);
    out
}

/// The score field without its keyword: `35`, `cp 35` or `mate 3`.
pub fn score_text(dialect: Dialect, score: i32) -> String {
    match (mate_in_moves(score), dialect) {
        (Some(n), _) => format!("mate {n}"),
        (None, Dialect::Ucci) => reported(score).to_string(),
        (None, Dialect::Uci) => format!("cp {}", reported(score)),
    }
}

/// One progress line; with `wdl`, the win/draw/loss chances of the score ([`wdl`]) follow it,
/// where UCI GUIs read them (`score cp 35 wdl 120 800 80`).
pub fn info_line(dialect: Dialect, info: &Info, origin: RankOrigin, wdl: bool) -> String {
    let mut s = format!(
        "info depth {} seldepth {}",
        info.depth.max(0),
        info.seldepth.max(0)
    );
    // Before `score` and `pv`, as UCI writes it (ucci.md §9.1: XQWizard reads ` score ` and
    // ` pv ` wherever they stand, and `pv` must stay last).
    if let Some(rank) = info.multipv {
        s.push_str(&format!(" multipv {rank}"));
    }
    s.push_str(&format!(" score {}", score_text(dialect, info.score)));
    if dialect == Dialect::Uci {
        match info.bound {
            Bound::Lower => s.push_str(" lowerbound"),
            Bound::Upper => s.push_str(" upperbound"),
            Bound::Exact | Bound::None => {}
        }
    }
    if wdl {
        let [w, d, l] = wdl::wdl(info.score);
        s.push_str(&format!(" wdl {w} {d} {l}"));
    }
    s.push_str(&format!(
        " time {} nodes {} nps {}",
        info.time_ms, info.nodes, info.nps
    ));
    if dialect == Dialect::Uci {
        s.push_str(&format!(" hashfull {}", info.hashfull));
        // UCI's field; UCCI has none, and XQWizard is not shown words it does not know.
        if info.tbhits > 0 {
            s.push_str(&format!(" tbhits {}", info.tbhits));
        }
    }
    if !info.pv.is_empty() {
        s.push_str(" pv");
        for m in &info.pv {
            s.push(' ');
            s.push_str(&format_move(*m, origin));
        }
    }
    s
}

/// The lines shown when the opening book answers `go`, in the dialect's own form.
///
/// A GUI reads every `info … score` as the engine's evaluation: XQWizard shows it in its
/// analysis box, UCI GUIs in their evaluation column and graph. ElephantEye printed the book
/// weight there (`info depth 0 score 1000 pv h2e2`), which those GUIs show as +10 pawns, and
/// UCI requires `score cp N`. So the score is the static evaluation after the move (what a
/// depth-0 search sees), and the weights, which say how often the book plays each move, go
/// into one `info string` that GUIs only log.
///
/// * UCCI: one `info depth 0 score <eval> pv <move>` per candidate, as ElephantEye lists them
///   (XQWizard users see the book's choices): the others best weight first, then the move
///   played **last**, because a GUI shows the latest line as the engine's choice;
/// * UCI: the move played as the main line (`multipv 1`), then with `multipv` > 1 the other
///   candidates, best weight first, up to that many lines, each with its `multipv k` field as
///   a search prints them; `wdl` (with `UCI_ShowWDL`) comes from the score as in a search.
pub fn book_lines(
    dialect: Dialect,
    candidates: &[BookCandidate],
    chosen: Move,
    origin: RankOrigin,
    multipv: usize,
    show_wdl: bool,
) -> Vec<String> {
    let mut weights = String::from("book:");
    for (i, c) in candidates.iter().enumerate() {
        let sep = if i == 0 { " " } else { ", " };
        weights.push_str(&format!(
            "{sep}{} weight {}",
            format_move(c.mv, origin),
            c.weight
        ));
    }
    let mut lines = vec![info_string(&weights)];
    let played = candidates.iter().filter(|c| c.mv == chosen);
    let others = candidates.iter().filter(|c| c.mv != chosen);
    match dialect {
        Dialect::Ucci => lines.extend(others.chain(played).map(|c| {
            format!(
                "info depth 0 score {} pv {}",
                score_text(dialect, c.score),
                format_move(c.mv, origin)
            )
        })),
        Dialect::Uci => {
            let ranked = played.chain(others).take(multipv.max(1));
            lines.extend(ranked.enumerate().map(|(i, c)| {
                let mut s = String::from("info depth 0");
                if multipv > 1 {
                    s.push_str(&format!(" multipv {}", i + 1));
                }
                s.push_str(&format!(" score {}", score_text(dialect, c.score)));
                if show_wdl {
                    let [w, d, l] = wdl::wdl(c.score);
                    s.push_str(&format!(" wdl {w} {d} {l}"));
                }
                s.push_str(&format!(" pv {}", format_move(c.mv, origin)));
                s
            }))
        }
    }
    lines
}

/// The final answer of a search that found a move.
pub fn bestmove_line(
    dialect: Dialect,
    best: Move,
    ponder: Option<Move>,
    suffix: Suffix,
    origin: RankOrigin,
) -> String {
    let mut s = format!("bestmove {}", format_move(best, origin));
    if let Some(p) = ponder {
        s.push_str(" ponder ");
        s.push_str(&format_move(p, origin));
    }
    if dialect == Dialect::Ucci {
        match suffix {
            Suffix::None => {}
            Suffix::Draw => s.push_str(" draw"),
            Suffix::Resign => s.push_str(" resign"),
        }
    }
    s
}

/// The answer when there is no move to play (mated, stalemated, every move banned).
pub fn no_move_lines(dialect: Dialect) -> Vec<String> {
    match dialect {
        Dialect::Ucci => vec!["nobestmove".to_string()],
        Dialect::Uci => vec![
            "info depth 0 score mate 0".to_string(),
            "bestmove (none)".to_string(),
        ],
    }
}

/// The reply to `probe` (ucci.md §5.8): bare `pophash` on a miss.
pub fn pophash_line(entry: Option<&TtEntry>, best: Option<Move>, origin: RankOrigin) -> String {
    let mut s = String::from("pophash");
    if let Some(m) = best {
        s.push_str(" bestmove ");
        s.push_str(&format_move(m, origin));
    }
    if let Some(e) = entry {
        let depth = e.depth.max(0);
        if matches!(e.bound, Bound::Lower | Bound::Exact) {
            s.push_str(&format!(" lowerbound {} depth {depth}", e.score));
        }
        if matches!(e.bound, Bound::Upper | Bound::Exact) {
            s.push_str(&format!(" upperbound {} depth {depth}", e.score));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::score::{mate_in, mated_in, rule_loss_in};

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    fn info(score: i32, pv: &[&str]) -> Info {
        Info {
            depth: 7,
            seldepth: 12,
            score,
            bound: Bound::Exact,
            nodes: 1000,
            time_ms: 20,
            nps: 50000,
            hashfull: 3,
            tbhits: 0,
            multipv: None,
            pv: pv.iter().map(|m| mv(m)).collect(),
        }
    }

    #[test]
    fn info_lines() {
        let z = RankOrigin::Zero;
        assert_eq!(
            info_line(Dialect::Ucci, &info(24, &["h2e2", "h9g7"]), z, false),
            "info depth 7 seldepth 12 score 24 time 20 nodes 1000 nps 50000 pv h2e2 h9g7"
        );
        assert_eq!(
            info_line(Dialect::Uci, &info(-5, &["h2e2"]), z, false),
            "info depth 7 seldepth 12 score cp -5 time 20 nodes 1000 nps 50000 hashfull 3 pv h2e2"
        );
        assert_eq!(
            info_line(Dialect::Uci, &info(-5, &["h2e2"]), RankOrigin::One, false),
            "info depth 7 seldepth 12 score cp -5 time 20 nodes 1000 nps 50000 hashfull 3 pv h3e3"
        );
        assert_eq!(
            info_line(Dialect::Ucci, &info(mate_in(1), &[]), z, false),
            "info depth 7 seldepth 12 score mate 1 time 20 nodes 1000 nps 50000"
        );
        assert!(
            info_line(Dialect::Ucci, &info(mated_in(2), &["e9e8"]), z, false).contains("mate -1")
        );
        let mut ranked = info(-5, &["h2e2"]);
        ranked.multipv = Some(2);
        assert_eq!(
            info_line(Dialect::Ucci, &ranked, z, false),
            "info depth 7 seldepth 12 multipv 2 score -5 time 20 nodes 1000 nps 50000 pv h2e2"
        );
        assert_eq!(
            info_line(Dialect::Uci, &info(0, &["h2e2"]), z, true),
            format!(
                "info depth 7 seldepth 12 score cp 0 wdl {} time 20 nodes 1000 nps 50000 \
                 hashfull 3 pv h2e2",
                wdl::wdl(0).map(|x| x.to_string()).join(" ")
            )
        );
        // A rule loss 3 plies away is printed in the rule band, not as a mate.
        assert!(
            info_line(Dialect::Uci, &info(rule_loss_in(3), &[]), z, false)
                .contains("score cp -28997")
        );
    }

    #[test]
    fn bestmove_lines() {
        let z = RankOrigin::Zero;
        let (b, p) = (mv("h2e2"), Some(mv("h9g7")));
        assert_eq!(
            bestmove_line(Dialect::Ucci, b, p, Suffix::None, z),
            "bestmove h2e2 ponder h9g7"
        );
        assert_eq!(
            bestmove_line(Dialect::Ucci, b, None, Suffix::Draw, z),
            "bestmove h2e2 draw"
        );
        assert_eq!(
            bestmove_line(Dialect::Ucci, b, p, Suffix::Resign, z),
            "bestmove h2e2 ponder h9g7 resign"
        );
        assert_eq!(
            bestmove_line(Dialect::Uci, b, p, Suffix::Resign, z),
            "bestmove h2e2 ponder h9g7"
        );
        assert_eq!(no_move_lines(Dialect::Ucci), vec!["nobestmove"]);
        assert_eq!(no_move_lines(Dialect::Uci)[1], "bestmove (none)");
    }

    #[test]
    fn book_lines_show_evaluations_not_weights() {
        let c = |m: &str, weight, score| BookCandidate {
            mv: mv(m),
            weight,
            score,
        };
        let cands = [c("h2e2", 1000, 31), c("b0c2", 400, -12), c("c3c4", 300, 5)];
        let z = RankOrigin::Zero;
        // UCCI: every candidate, the move played last (a GUI shows the latest line).
        assert_eq!(
            book_lines(Dialect::Ucci, &cands, mv("b0c2"), z, 1, false),
            vec![
                "info string book: h2e2 weight 1000, b0c2 weight 400, c3c4 weight 300",
                "info depth 0 score 31 pv h2e2",
                "info depth 0 score 5 pv c3c4",
                "info depth 0 score -12 pv b0c2",
            ]
        );
        // UCI: the move played only, unless MultiPV asks for more.
        assert_eq!(
            book_lines(Dialect::Uci, &cands, mv("b0c2"), z, 1, false)[1..],
            ["info depth 0 score cp -12 pv b0c2"]
        );
        assert_eq!(
            book_lines(Dialect::Uci, &cands, mv("b0c2"), z, 2, false)[1..],
            [
                "info depth 0 multipv 1 score cp -12 pv b0c2",
                "info depth 0 multipv 2 score cp 31 pv h2e2",
            ]
        );
        let all = book_lines(Dialect::Uci, &cands, mv("h2e2"), z, 5, true);
        let wdl_of = |s: i32| wdl::wdl(s).map(|x| x.to_string()).join(" ");
        assert_eq!(
            all[1..],
            [
                format!(
                    "info depth 0 multipv 1 score cp 31 wdl {} pv h2e2",
                    wdl_of(31)
                ),
                format!(
                    "info depth 0 multipv 2 score cp -12 wdl {} pv b0c2",
                    wdl_of(-12)
                ),
                format!(
                    "info depth 0 multipv 3 score cp 5 wdl {} pv c3c4",
                    wdl_of(5)
                ),
            ]
        );
        assert_eq!(
            book_lines(
                Dialect::Uci,
                &cands[..1],
                mv("h2e2"),
                RankOrigin::One,
                1,
                false
            )[1],
            "info depth 0 score cp 31 pv h3e3"
        );
    }

    #[test]
    fn info_strings_are_one_clean_line() {
        assert_eq!(info_string("bad\rpiece\t'X' "), "info string bad?piece?'X'");
        let long = "y".repeat(10_000);
        assert!(info_string(&long).len() < MAX_INFO_STRING + 20);
    }

    #[test]
    fn pophash() {
        assert_eq!(pophash_line(None, None, RankOrigin::Zero), "pophash");
        let e = TtEntry {
            mv: Some(mv("h2e2")),
            score: 12,
            eval: 0,
            depth: 6,
            bound: Bound::Exact,
        };
        assert_eq!(
            pophash_line(Some(&e), Some(mv("h2e2")), RankOrigin::Zero),
            "pophash bestmove h2e2 lowerbound 12 depth 6 upperbound 12 depth 6"
        );
        let e = TtEntry {
            bound: Bound::Upper,
            ..e
        };
        assert_eq!(
            pophash_line(Some(&e), None, RankOrigin::Zero),
            "pophash upperbound 12 depth 6"
        );
    }
}
