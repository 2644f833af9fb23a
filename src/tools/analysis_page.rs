//! `jiangjun analyse --html`: the analysed game as one web page that needs nothing from
//! outside. No network: no scripts, style sheets, fonts or images from elsewhere. The style
//! sheet and a small script are in the page, the boards and the evaluation graph are inline
//! SVG, and the text uses the reader's own fonts, named by a CJK font stack ([`FONTS`], the
//! graph's) so that the Chinese shows on any system.
//!
//! The page: the players and the game's tags; the board of every position (the start, and
//! the one after each move), one shown at a time, the last move marked (a dot on the square it
//! left, a ring round the piece that moved); beside it what the analysis says of that move
//! (its score, mark and loss, the engine's move with its line, the referee's notes, the game's
//! own comments); the moves in Chinese notation and ICCS, each a link to its position, with
//! the same `?!`/`?`/`??` marks as the annotated PGN; the evaluation graph
//! ([`eval_graph::eval_graph_inline`]). The script steps through the positions: the left and
//! right arrow keys, Home and End, the buttons, a click on a move or on the graph; the
//! address's `#plyN` opens position N. Without scripts the start position shows.
//!
//! Everything that comes from the game file (tags, comments) or names the analysis is
//! escaped, as the graph escapes its text; the style sheet and the script hold nothing of the
//! game.

use super::analyse::{line_text, score_text, Analysis, MoveAnalysis};
use super::eval_graph::{self, escape, FONTS};
use crate::board::notation::{self, Script};
use crate::board::{Color, Move, Position, Square};
use crate::records::pgn::{Game, MoveFormat, WriteOptions};
use std::fmt::Write as _;

/// The board in SVG units: the distance between two lines, and from the outer lines to the
/// board's edge (room for the file numbers).
const CELL: i32 = 40;
const EDGE: i32 = 38;
const BOARD_W: i32 = 8 * CELL + 2 * EDGE;
const BOARD_H: i32 = 9 * CELL + 2 * EDGE;
const PIECE_R: i32 = 17;

/// The Chinese moves of the page: simplified characters, ASCII digits for Black.
const CHINESE: WriteOptions = WriteOptions {
    script: Script::Simplified,
    full_width_digits: false,
};

/// The page of `analysis` of `game`: a whole HTML document.
pub fn analysis_page(game: &Game, analysis: &Analysis) -> String {
    let (players, sub) = eval_graph::heading(game, analysis);
    let frame = board_frame();
    let mut pos = game.start.clone();
    let mut boards = board(&frame, &pos, 0, None);
    let mut details = start_detail(game, analysis, &pos);
    let mut list = String::from(
        r##"<tr><td colspan="3"><a class="mv" href="#ply0" data-go="0">开局 start</a></td></tr>"##,
    );
    list.push('\n');
    for (i, &m) in game.moves.iter().enumerate() {
        let ply = i + 1;
        let mover = pos.side_to_move();
        let judged = analysis.moves.get(i).filter(|a| a.played == m);
        let zh = notation::to_chinese(&pos, m);
        if mover == Color::Red || i == 0 {
            let _ = write!(list, "<tr><th>{}.</th>", pos.fullmove_number());
            if mover == Color::Black {
                list.push_str("<td></td>");
            }
        }
        let _ = write!(list, "<td>{}</td>", move_link(ply, &zh, m, judged));
        if mover == Color::Black {
            list.push_str("</tr>\n");
        }
        details.push_str(&move_detail(game, analysis, &pos, ply, &zh, m, judged));
        pos.make_move(m);
        boards.push_str(&board(&frame, &pos, ply, Some(m)));
    }
    // A row left open by Red's last move.
    if !game.moves.is_empty() && pos.side_to_move() == Color::Black {
        list.push_str("<td></td></tr>\n");
    }

    let players = escape(&players);
    let mut html = String::new();
    let _ = write!(
        html,
        r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{players} · analysis</title>
<style>
body {{ font-family: {FONTS}; }}
{STYLE}</style>
</head>
<body>
<h1>{players}</h1>
<p class="sub">{}</p>
<div class="top">
<div class="left">
<div class="boards" lang="zh-CN">
{boards}</div>
<div class="nav"><button type="button" data-go="0" title="start (Home)">«</button><button type="button" data-go="prev" title="back (←)">‹</button><span id="where">start</span><button type="button" data-go="next" title="forward (→)">›</button><button type="button" data-go="end" title="end (End)">»</button></div>
<noscript><p>Stepping through the game needs scripts; the move list and the graph read without.</p></noscript>
{details}</div>
<div class="right">
<div class="movebox"><table class="moves" lang="zh-CN">
{list}</table></div>
<p class="keys">← → step through the game, Home / End go to its start / end; click a move or the graph. Marks: ?! dubious, ? mistake, ?? blunder. Scores from Red's view.</p>
</div>
</div>
{}<script>
{SCRIPT}</script>
</body>
</html>
"#,
        escape(&sub),
        eval_graph::eval_graph_inline(game, analysis),
    );
    html
}

/// One move of the list: a link to the position after it, with its mark and score.
fn move_link(ply: usize, zh: &str, m: Move, judged: Option<&MoveAnalysis>) -> String {
    let mark = judged.and_then(|a| a.mark);
    let class = mark.map_or(String::new(), |k| format!(" m-{}", k.name()));
    let symbol = mark.map_or("", |k| k.symbol());
    let score = judged.map_or(String::new(), |a| score_text(a.after_red));
    format!(
        r##"<a class="mv{class}" href="#ply{ply}" data-go="{ply}"><span class="zh">{zh}</span><span class="mk">{symbol}</span> <span class="iccs">{m}</span><span class="sc">{score}</span></a>"##
    )
}

/// What stands under the start position: its score and the engine's choice there.
fn start_detail(game: &Game, analysis: &Analysis, start: &Position) -> String {
    let mut s = String::from(
        r#"<div class="detail on" data-ply="0"><p class="head"><b>start position</b></p>"#,
    );
    let _ = write!(s, "<p>score <b>{}</b></p>", score_text(analysis.start_red));
    if let Some(first) = analysis.moves.first() {
        engine_line(
            &mut s,
            "engine",
            start,
            first.best,
            first.best_red,
            &first.pv,
        );
    }
    notes(&mut s, game, analysis, 0);
    s.push_str("</div>\n");
    s
}

/// What stands under the position after move `ply`: the move, its judgement, the engine's
/// move and line from the position before it (`before`), notes and comments.
fn move_detail(
    game: &Game,
    analysis: &Analysis,
    before: &Position,
    ply: usize,
    zh: &str,
    m: Move,
    judged: Option<&MoveAnalysis>,
) -> String {
    let number = before.fullmove_number();
    let dots = match before.side_to_move() {
        Color::Red => ".",
        Color::Black => "...",
    };
    let mut s = format!(
        r#"<div class="detail" data-ply="{ply}"><p class="head"><b>{number}{dots} <span lang="zh-CN">{zh}</span></b> <span class="iccs">{m}</span>"#
    );
    if let Some(mark) = judged.and_then(|a| a.mark) {
        let _ = write!(
            s,
            r#" <span class="mk m-{0}">{1} {0}</span>"#,
            mark.name(),
            mark.symbol()
        );
    }
    s.push_str("</p>");
    if let Some(a) = judged {
        let _ = write!(
            s,
            "<p>score after the move <b>{}</b>",
            score_text(a.after_red)
        );
        if a.loss > 0 {
            let _ = write!(s, ", loses {} cp", a.loss);
        }
        s.push_str("</p>");
        if a.best == Some(m) {
            engine_line(
                &mut s,
                "the engine's move too",
                before,
                None,
                a.best_red,
                &a.pv,
            );
        } else {
            let label = if a.loss > 0 { "better" } else { "engine" };
            engine_line(&mut s, label, before, a.best, a.best_red, &a.pv);
        }
    }
    notes(&mut s, game, analysis, ply);
    s.push_str("</div>\n");
    s
}

/// A paragraph `label: MOVE (score): line` from `pos`; without `best`, `label: line`.
fn engine_line(
    s: &mut String,
    label: &str,
    pos: &Position,
    best: Option<Move>,
    red: i32,
    pv: &[Move],
) {
    let line = line_text(pos, pv, MoveFormat::Chinese, CHINESE);
    match best {
        Some(b) => {
            let _ = write!(
                s,
                r#"<p class="engine">{label}: <b lang="zh-CN">{}</b> <span class="iccs">{b}</span> ({})"#,
                notation::to_chinese(pos, b),
                score_text(red)
            );
            if !line.is_empty() {
                let _ = write!(s, r#": <span lang="zh-CN">{line}</span>"#);
            }
        }
        None if line.is_empty() => return,
        None => {
            let _ = write!(
                s,
                r#"<p class="engine">{label}: <span lang="zh-CN">{line}</span>"#
            );
        }
    }
    s.push_str("</p>");
}

/// The referee's notes and the game's own comments at `ply`.
fn notes(s: &mut String, game: &Game, analysis: &Analysis, ply: usize) {
    for (_, text) in analysis.notes.iter().filter(|(p, _)| *p == ply) {
        let _ = write!(s, r#"<p class="note">{}</p>"#, escape(text));
    }
    for (_, text) in game.comments.iter().filter(|(p, _)| *p == ply) {
        let _ = write!(s, r#"<p class="comment">{}</p>"#, escape(text));
    }
}

/// The x of a file (0 = a, on the left: Red sits at the bottom).
fn file_x(file: u8) -> i32 {
    EDGE + i32::from(file) * CELL
}

/// The y of a rank (0 = Red's back rank, at the bottom).
fn rank_y(rank: u8) -> i32 {
    EDGE + (9 - i32::from(rank)) * CELL
}

/// What every board has: the wood, the lines (the inner files broken by the river), the
/// palaces' diagonals, 楚河 汉界, and the files' numbers, Black's along the top and Red's along
/// the bottom.
fn board_frame() -> String {
    let (left, right, top, bottom) = (file_x(0), file_x(8), rank_y(9), rank_y(0));
    let mut d = String::new();
    for rank in 0..10 {
        let _ = write!(d, "M{left} {}H{right}", rank_y(rank));
    }
    for file in 0..9 {
        let x = file_x(file);
        if file == 0 || file == 8 {
            let _ = write!(d, "M{x} {top}V{bottom}");
        } else {
            let _ = write!(d, "M{x} {top}V{}M{x} {}V{bottom}", rank_y(5), rank_y(4));
        }
    }
    for (near, far) in [(0, 2), (7, 9)] {
        let (x3, x5) = (file_x(3), file_x(5));
        let (y0, y1) = (rank_y(near), rank_y(far));
        let _ = write!(d, "M{x3} {y0}L{x5} {y1}M{x5} {y0}L{x3} {y1}");
    }
    let mut s = format!(
        r##"<rect width="{BOARD_W}" height="{BOARD_H}" rx="6" fill="#ecd09c"/><rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#5b3b1c" stroke-width="2.5"/><path d="{d}" fill="none" stroke="#5b3b1c" stroke-width="1.2"/>"##,
        left - 5,
        top - 5,
        right - left + 10,
        bottom - top + 10
    );
    let river = (rank_y(4) + rank_y(5)) / 2;
    let _ = write!(
        s,
        r#"<text class="river" x="{}" y="{river}">楚 河</text><text class="river" x="{}" y="{river}">汉 界</text>"#,
        (file_x(1) + file_x(3)) / 2,
        (file_x(5) + file_x(7)) / 2
    );
    for file in 0..9 {
        let x = file_x(file);
        let _ = write!(
            s,
            r#"<text class="label" x="{x}" y="{}">{}</text><text class="label" x="{x}" y="{}">{}</text>"#,
            EDGE / 2 - 8,
            notation::file_label(Color::Black, file),
            BOARD_H - EDGE / 2 + 8,
            notation::file_label(Color::Red, file)
        );
    }
    s
}

/// The board of position `ply` (shown at first: the start), `last` the move that led to it.
fn board(frame: &str, pos: &Position, ply: usize, last: Option<Move>) -> String {
    let (on, label) = match ply {
        0 => (" on", "start position".to_string()),
        _ => ("", format!("position after ply {ply}")),
    };
    let mut s = format!(
        r#"<svg class="board{on}" data-ply="{ply}" viewBox="0 0 {BOARD_W} {BOARD_H}" role="img" aria-label="{label}">{frame}"#
    );
    let at = |sq: Square| (file_x(sq.file()), rank_y(sq.rank()));
    if let Some(m) = last {
        let (x, y) = at(m.from());
        let _ = write!(s, r#"<circle class="from" cx="{x}" cy="{y}" r="7"/>"#);
    }
    for sq in Square::all() {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let (x, y) = at(sq);
        let _ = write!(
            s,
            r#"<g class="pc {}" transform="translate({x} {y})"><circle r="{PIECE_R}"/><text>{}</text></g>"#,
            piece.color().name(),
            notation::piece_char(piece.color(), piece.kind(), Script::Simplified)
        );
    }
    if let Some(m) = last {
        let (x, y) = at(m.to());
        let _ = write!(
            s,
            r#"<circle class="to" cx="{x}" cy="{y}" r="{}"/>"#,
            PIECE_R + 4
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The page's style sheet, after the line that names the fonts.
const STYLE: &str = r#"body { margin: 0 auto; max-width: 1200px; padding: 12px 20px 32px; color: #222; background: #faf7f0; }
h1 { font-size: 1.5em; margin: 0.3em 0 0.1em; }
.sub { color: #555; margin: 0 0 1em; }
.top { display: flex; flex-wrap: wrap; gap: 24px; align-items: flex-start; }
.left { flex: 0 1 440px; min-width: 280px; }
.right { flex: 1 1 320px; min-width: 260px; }
svg.board { display: none; width: 100%; max-width: 440px; height: auto; }
svg.board.on { display: block; }
.pc circle { fill: #fdf3dc; stroke-width: 2; }
.pc text { font-size: 21px; font-weight: bold; text-anchor: middle; dominant-baseline: central; }
.pc.red circle { stroke: #b71c1c; }
.pc.red text { fill: #b71c1c; }
.pc.black circle { stroke: #1d1d1d; }
.pc.black text { fill: #1d1d1d; }
.river { font-size: 22px; fill: #6b4a22; text-anchor: middle; dominant-baseline: central; }
.label { font-size: 12px; fill: #6b4a22; text-anchor: middle; dominant-baseline: central; }
.from { fill: #1565c0; fill-opacity: 0.45; }
.to { fill: none; stroke: #1565c0; stroke-width: 3; }
.nav { display: flex; gap: 6px; align-items: center; margin: 8px 0; }
.nav button { font: inherit; min-width: 2.5em; padding: 2px 8px; cursor: pointer; }
#where { flex: 1; text-align: center; color: #555; }
.detail { display: none; background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 4px 12px; }
.detail.on { display: block; }
.detail p { margin: 0.45em 0; }
.note, .comment { color: #555; font-style: italic; }
.movebox { max-height: 560px; overflow-y: auto; background: #fff; border: 1px solid #ddd; border-radius: 6px; }
table.moves { border-collapse: collapse; width: 100%; }
table.moves th { width: 2.5em; padding: 2px 4px; text-align: right; vertical-align: top; color: #777; font-weight: normal; }
table.moves td { width: 50%; padding: 1px 3px; }
a.mv { display: block; padding: 2px 6px; border-radius: 4px; color: inherit; text-decoration: none; }
a.mv:hover { background: #f1ead9; }
a.mv.cur { background: #1565c0; color: #fff; }
.iccs { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 0.85em; color: #666; }
.sc { float: right; font-size: 0.8em; color: #888; }
a.mv.cur .iccs, a.mv.cur .sc { color: #dbe6f5; }
.mk { font-weight: bold; margin-left: 2px; }
.m-dubious .mk, .mk.m-dubious { color: #b8860b; }
.m-mistake .mk, .mk.m-mistake { color: #e65100; }
.m-blunder .mk, .mk.m-blunder { color: #b0121b; }
a.mv.cur .mk { color: #fff; }
.keys { color: #666; font-size: 0.9em; }
svg.graph { display: block; width: 100%; height: auto; margin-top: 20px; }
svg.graph [data-go] { cursor: pointer; }
"#;

/// The page's script: shows one position at a time (its board, its detail, its move marked
/// in the list, the graph's cursor at its ply) and steps by keys and clicks.
const SCRIPT: &str = r#"(function () {
  'use strict';
  var boards = document.querySelectorAll('svg.board');
  var details = document.querySelectorAll('.detail');
  var cursor = document.querySelector('svg.graph .cursor');
  var where = document.getElementById('where');
  var last = boards.length - 1;
  var cur = 0;
  function links(p) {
    return document.querySelectorAll('.moves [data-go="' + p + '"]');
  }
  function show(p) {
    if (isNaN(p)) return;
    p = Math.max(0, Math.min(last, p));
    boards[cur].classList.remove('on');
    details[cur].classList.remove('on');
    links(cur).forEach(function (a) { a.classList.remove('cur'); });
    cur = p;
    boards[p].classList.add('on');
    details[p].classList.add('on');
    links(p).forEach(function (a) {
      a.classList.add('cur');
      a.scrollIntoView({ block: 'nearest' });
    });
    var hit = document.querySelector('svg.graph [data-x][data-go="' + p + '"]');
    if (cursor && hit) {
      cursor.setAttribute('x1', hit.getAttribute('data-x'));
      cursor.setAttribute('x2', hit.getAttribute('data-x'));
    }
    where.textContent = p === 0 ? 'start' : 'ply ' + p + ' of ' + last;
    try { history.replaceState(null, '', '#ply' + p); } catch (e) { }
  }
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    switch (e.key) {
      case 'ArrowLeft': show(cur - 1); break;
      case 'ArrowRight': show(cur + 1); break;
      case 'Home': show(0); break;
      case 'End': show(last); break;
      default: return;
    }
    e.preventDefault();
  });
  document.addEventListener('click', function (e) {
    var t = e.target.closest ? e.target.closest('[data-go]') : null;
    if (!t) return;
    e.preventDefault();
    var go = t.getAttribute('data-go');
    show(go === 'prev' ? cur - 1 : go === 'next' ? cur + 1 : go === 'end' ? last : Number(go));
  });
  function fromAddress() {
    var m = /^#ply(\d+)$/.exec(location.hash);
    if (m) show(Number(m[1]));
  }
  window.addEventListener('hashchange', fromAddress);
  fromAddress();
})();
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::pgn::parse_pgn;
    use crate::tools::analyse::Mark;

    /// Red's third move a1b1 hangs the rook (marked `??`, with a better move and line); the
    /// other moves are the engine's own.
    const GAME: &str = "[Event \"Page test\"]\n[Red \"Red\"]\n[Black \"Black\"]\n\
                        1. b0c2 b9c7 2. a0a1 a9a8 3. a1b1 b7b1 0-1\n";

    fn game(text: &str) -> Game {
        parse_pgn(text).expect("reads").remove(0)
    }

    /// An analysis of `game` by hand: every move the engine's best, but ply `blunder`
    /// (1-based), which loses 400 cp to h2e2 (legal in every position of these tests).
    fn analysis(game: &Game, blunder: usize) -> Analysis {
        let mut pos = game.start.clone();
        let mut moves = Vec::new();
        for (i, &m) in game.moves.iter().enumerate() {
            let ply = i + 1;
            let bad = ply == blunder;
            let (best, pv) = if bad {
                let better = pos.parse_move("h2e2").expect("legal");
                (better, vec![better])
            } else {
                (m, vec![m])
            };
            moves.push(MoveAnalysis {
                ply,
                mover: pos.side_to_move(),
                played: m,
                after_red: if bad { -420 } else { 10 },
                loss: if bad { 430 } else { 0 },
                mark: bad.then_some(Mark::Blunder),
                best: Some(best),
                best_red: 10,
                pv,
            });
            pos.make_move(m);
        }
        Analysis {
            start_red: 15,
            moves,
            notes: vec![(6, "referee: a note".to_string())],
            annotator: "Jiangjun test, depth 1".into(),
        }
    }

    /// The page of the game `text` with ply `blunder` marked (0: none).
    fn page(text: &str, blunder: usize) -> (Game, String) {
        let g = game(text);
        let html = analysis_page(&g, &analysis(&g, blunder));
        (g, html)
    }

    /// Asserts that `text` holds every one of `parts`.
    fn has_all(text: &str, parts: &[&str]) {
        for part in parts {
            assert!(text.contains(part), "no {part} in {text}");
        }
    }

    /// The part of `html` between `from` and the next `to` after it.
    fn section<'a>(html: &'a str, from: &str, to: &str) -> &'a str {
        let start = html.find(from).unwrap_or_else(|| panic!("no {from}"));
        let rest = &html[start..];
        &rest[..rest
            .find(to)
            .unwrap_or_else(|| panic!("no {to} after {from}"))]
    }

    #[test]
    fn one_board_per_position_with_the_last_move_marked() {
        let (g, html) = page(GAME, 5);
        let boards: Vec<&str> = html.split("<svg class=\"board").skip(1).collect();
        assert_eq!(boards.len(), g.moves.len() + 1);
        for (ply, b) in boards.iter().enumerate() {
            let b = &b[..b.find("</svg>").expect("closed")];
            assert!(b.contains(&format!(" data-ply=\"{ply}\" ")), "{b}");
            assert_eq!(
                b.starts_with(" on\""),
                ply == 0,
                "only the start shows at first"
            );
            let marked = usize::from(ply > 0);
            assert_eq!(b.matches("class=\"from\"").count(), marked, "ply {ply}");
            assert_eq!(b.matches("class=\"to\"").count(), marked, "ply {ply}");
            assert!(b.contains("楚 河") && b.contains("汉 界"));
        }
        // The start: all 32 pieces, each with its character, Red's files 九..一 below.
        let start = boards[0];
        assert_eq!(start.matches("<g class=\"pc red\"").count(), 16);
        assert_eq!(start.matches("<g class=\"pc black\"").count(), 16);
        for (c, n) in [
            ('帅', 1),
            ('仕', 2),
            ('相', 2),
            ('马', 4),
            ('车', 4),
            ('炮', 4),
            ('兵', 5),
            ('将', 1),
            ('士', 2),
            ('象', 2),
            ('卒', 5),
        ] {
            assert_eq!(
                start.matches(&format!("<text>{c}</text>")).count(),
                n,
                "{c}"
            );
        }
        assert!(start.contains(">九</text>") && start.contains(">1</text>"));
        // After b7b1 (ply 6) Black's cannon stands on b1, ringed; the dot is on b7.
        let b = boards[6];
        let (x, y) = (file_x(1), rank_y(1));
        assert!(b.contains(&format!("<circle class=\"to\" cx=\"{x}\" cy=\"{y}\"")));
        let (x, y) = (file_x(1), rank_y(7));
        assert!(b.contains(&format!("<circle class=\"from\" cx=\"{x}\" cy=\"{y}\"")));
        assert_eq!(b.matches("<g class=\"pc").count(), 31);
    }

    #[test]
    fn the_move_list_has_every_move_in_both_notations() {
        let (g, html) = page(GAME, 5);
        let list = section(&html, "<table class=\"moves\"", "</table>");
        let mut pos = g.start.clone();
        for (i, &m) in g.moves.iter().enumerate() {
            let zh = notation::to_chinese(&pos, m);
            let ply = i + 1;
            let link =
                format!("href=\"#ply{ply}\" data-go=\"{ply}\"><span class=\"zh\">{zh}</span>");
            let iccs = format!("<span class=\"iccs\">{m}</span>");
            has_all(list, &[&link, &iccs]);
            pos.make_move(m);
        }
        // The blunder carries its mark; three move numbers, two moves each.
        has_all(
            list,
            &[
                "马八进七",
                "b0c2",
                "class=\"mv m-blunder\" href=\"#ply5\"",
                "<span class=\"mk\">??</span>",
            ],
        );
        assert_eq!(list.matches("<tr><th>").count(), 3);
        assert_eq!(list.matches("</tr>").count(), 4);
    }

    #[test]
    fn each_move_has_its_score_and_the_better_line() {
        let (g, html) = page(GAME, 5);
        let detail = |ply: usize| {
            let on = if ply == 0 { " on" } else { "" };
            section(
                &html,
                &format!("<div class=\"detail{on}\" data-ply=\"{ply}\""),
                "</div>",
            )
        };
        has_all(
            detail(0),
            &[
                "score <b>+15 cp</b>",
                "engine: <b lang=\"zh-CN\">马八进七</b>",
            ],
        );
        has_all(
            detail(5),
            &[
                "3. <span lang=\"zh-CN\">车九平八</span>",
                "?? blunder",
                "score after the move <b>-420 cp</b>, loses 430 cp",
                "better: <b lang=\"zh-CN\">炮二平五</b>",
                "<span class=\"iccs\">h2e2</span> (+10 cp)",
            ],
        );
        has_all(
            detail(6),
            &[
                "3... ",
                "the engine's move too: ",
                "<p class=\"note\">referee: a note</p>",
            ],
        );
        let panels = html.matches("<div class=\"detail").count();
        assert_eq!(panels, g.moves.len() + 1);
    }

    #[test]
    fn everything_is_inline() {
        let (_, html) = page(GAME, 0);
        assert!(html.starts_with("<!DOCTYPE html>\n<html"));
        assert!(html.trim_end().ends_with("</html>"));
        assert_eq!(html.matches("<style>").count(), 1);
        assert_eq!(html.matches("<script>").count(), 1);
        assert_eq!(html.matches("<script").count(), 1, "no <script src>");
        let outside = [
            "http://", "https://", "<link", "src=", "url(", "@import", "<img",
        ];
        for word in outside {
            assert!(!html.contains(word), "{word}");
        }
        // The font stack is the graph's, CJK families before the generic one.
        let fonts = format!("body {{ font-family: {FONTS}; }}");
        has_all(&html, &[&fonts, "'SimSun'", "<svg class=\"graph\""]);
        assert!(FONTS.starts_with("'Noto Sans CJK SC'"));
        for tag in ["svg", "div", "table", "p", "script", "style"] {
            let open = html.matches(&format!("<{tag}>")).count()
                + html.matches(&format!("<{tag} ")).count();
            assert_eq!(open, html.matches(&format!("</{tag}>")).count(), "<{tag}>");
        }
    }

    #[test]
    fn the_keys_and_clicks_step_through_the_game() {
        let (_, html) = page(GAME, 0);
        let script = section(&html, "<script>", "</script>");
        let words = [
            "keydown",
            "'ArrowLeft'",
            "'ArrowRight'",
            "'Home'",
            "'End'",
            "click",
        ];
        has_all(script, &words);
        for go in ["0", "prev", "next", "end"] {
            let button = format!("<button type=\"button\" data-go=\"{go}\"");
            assert!(html.contains(&button), "{button}");
        }
    }

    #[test]
    fn hostile_tags_and_comments_are_escaped() {
        let hostile = r#"<script>alert("x")</script> & 'q'"#;
        let text = format!(
            "[Event \"{0}\"]\n[Red \"{0}\"]\n[Black \"B\"]\n1. h2e2 {{{1}}} h9g7 *\n",
            hostile.replace('"', "\\\""),
            hostile
        );
        let (g, html) = page(&text, 0);
        assert_eq!(g.tag("Red"), Some(hostile));
        let escaped = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;";
        let title = format!("<title>{escaped} (Red) vs B (Black)");
        let h1 = format!("<h1>{escaped} (Red) vs B (Black)</h1>");
        let comment = format!("<p class=\"comment\">{escaped}</p>");
        has_all(&html, &[&title, &h1, &comment]);
        assert!(!html.contains("alert(\""));
        assert_eq!(html.matches("<script").count(), 1);
    }

    #[test]
    fn black_first_and_a_game_without_moves() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        let (_, html) = page(&format!("[FEN \"{fen}\"]\n1... h9g7 2. h0g2 *\n"), 0);
        let list = section(&html, "<table class=\"moves\"", "</table>");
        assert!(list.contains("<tr><th>1.</th><td></td><td><a"), "{list}");
        assert!(list.contains("<tr><th>2.</th><td><a") && list.ends_with("<td></td></tr>\n"));
        assert!(html.contains("1... <span lang=\"zh-CN\">马8进7</span>"));

        let g = game(&format!("[FEN \"{fen}\"]\n*\n"));
        let a = Analysis {
            start_red: 0,
            moves: Vec::new(),
            notes: Vec::new(),
            annotator: "test".into(),
        };
        let html = analysis_page(&g, &a);
        assert_eq!(html.matches("<svg class=\"board").count(), 1);
        assert_eq!(html.matches("<div class=\"detail").count(), 1);
        let list = section(&html, "<table class=\"moves\"", "</table>");
        assert_eq!(list.matches("<tr>").count(), list.matches("</tr>").count());
    }
}
