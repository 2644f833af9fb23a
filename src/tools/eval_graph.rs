//! The evaluation graph of an analysed game as a self-contained SVG: no fonts, scripts or
//! style sheets from outside (installed fonts named by [`FONTS`], inline attributes), so the
//! file opens the same in any browser and converts with ImageMagick or rsvg.
//!
//! x: the plies of the game, labelled in move numbers. y: the score after each move from
//! Red's view, in pawns, clipped to ±[`CLIP_CP`]; a mate or a rule win sits on the clip line
//! with a square of its own. Red's advantage is filled red above the zero line, Black's grey
//! below it. The marked moves carry a marker per mark (circle `?!`, triangle `?`, diamond
//! `??`), explained in the legend under the plot.
//!
//! [`eval_graph_svg`] is the graph as a file of its own; [`eval_graph_inline`] the same graph
//! as an element of the analysis page ([`super::analysis_page`]), where a click on it chooses
//! the move shown.

use super::analyse::{Analysis, Mark};
use crate::board::Color;
use crate::records::pgn::Game;
use crate::search::score;
use std::fmt::Write as _;

/// The text's font families: common CJK fonts first, because a renderer whose `sans-serif` has
/// no Chinese glyphs (rsvg, ImageMagick on a bare system) draws the Chinese title and player
/// names blank; SimSun, on every Windows, before `sans-serif`, which comes last for the rest.
/// The analysis page's style sheet names the same families.
pub const FONTS: &str = "'Noto Sans CJK SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei', \
                         'Microsoft YaHei', 'PingFang SC', 'SimSun', sans-serif";

/// The scores drawn are clipped to ± this many centipawns.
pub const CLIP_CP: i32 = 1000;

const WIDTH: f64 = 960.0;
const HEIGHT: f64 = 500.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 935.0;
const TOP: f64 = 78.0;
const BOTTOM: f64 = 400.0;
/// Pawns between horizontal grid lines.
const GRID_PAWNS: i32 = 2;

/// The areas are solid light colours, not translucent ones: ImageMagick's own SVG renderer
/// ignores `fill-opacity`.
const RED_FILL: &str = "#f2a29b";
const RED_EDGE: &str = "#d0453a";
const BLACK_FILL: &str = "#b4b4b4";
const BLACK_EDGE: &str = "#555555";
const DUBIOUS: &str = "#f2c618";
const MISTAKE: &str = "#f08a1c";
const BLUNDER: &str = "#b0121b";
const DECISIVE: &str = "#6a3d9a";

/// One point of the curve: a ply (0 = the start) and its score from Red's view.
#[derive(Copy, Clone, Debug)]
struct Point {
    ply: usize,
    red: i32,
}

/// Where the graph goes.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Embed {
    /// A file of its own: the XML declaration and the SVG namespace.
    File,
    /// Inside an HTML page, whose parser gives `<svg>` its namespace: no declaration, no
    /// namespace; a strip over each ply's column and each marker carry `data-go` (the ply), a
    /// strip `data-x` too (its ply's x), and a line of class `cursor` stands at the start for
    /// the page's script to move.
    Page,
}

/// The SVG file of `analysis` of `game` (its tags give the title).
pub fn eval_graph_svg(game: &Game, analysis: &Analysis) -> String {
    graph(game, analysis, Embed::File)
}

/// The same graph as an `<svg class="graph">` element of an HTML page: no XML declaration or
/// namespace; a click on a ply's column or on a marker names the ply in `data-go`, and a line
/// of class `cursor` stands at the start for the page's script to move.
pub fn eval_graph_inline(game: &Game, analysis: &Analysis) -> String {
    graph(game, analysis, Embed::Page)
}

fn graph(game: &Game, analysis: &Analysis, embed: Embed) -> String {
    let mut points = vec![Point {
        ply: 0,
        red: analysis.start_red,
    }];
    points.extend(analysis.moves.iter().map(|m| Point {
        ply: m.ply,
        red: m.after_red,
    }));
    let plies = analysis.moves.len().max(1);
    let x = |ply: f64| LEFT + ply / plies as f64 * (RIGHT - LEFT);
    let mid = (TOP + BOTTOM) / 2.0;
    let y = |red: i32| mid - f64::from(clip(red)) / f64::from(CLIP_CP) * (BOTTOM - TOP) / 2.0;

    let mut svg = String::new();
    let opening = match embed {
        Embed::File => {
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""
        }
        Embed::Page => "<svg class=\"graph\"",
    };
    let _ = writeln!(
        svg,
        r##"{opening} width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONTS}">
<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##
    );
    title(&mut svg, game, analysis);

    // The plot area, the grid and its labels in pawns.
    let _ = writeln!(
        svg,
        r##"<rect x="{LEFT}" y="{TOP}" width="{}" height="{}" fill="#fbfaf7" stroke="#999999"/>"##,
        RIGHT - LEFT,
        BOTTOM - TOP
    );
    let top_pawns = CLIP_CP / 100;
    let mut pawns = -top_pawns;
    while pawns <= top_pawns {
        let gy = y(pawns * 100);
        let (stroke, width) = if pawns == 0 {
            ("#333333", 1.2)
        } else {
            ("#dddddd", 1.0)
        };
        let _ = writeln!(
            svg,
            r#"<line x1="{LEFT}" y1="{gy:.1}" x2="{RIGHT}" y2="{gy:.1}" stroke="{stroke}" stroke-width="{width}"/>"#
        );
        let label = if pawns > 0 {
            format!("+{pawns}")
        } else {
            pawns.to_string()
        };
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-size="13" text-anchor="end" fill="#333333">{label}</text>"##,
            LEFT - 6.0,
            gy + 4.5
        );
        pawns += GRID_PAWNS;
    }
    let _ = writeln!(
        svg,
        r##"<text x="0" y="0" font-size="14" text-anchor="middle" fill="#333333" transform="translate(22,{mid:.1}) rotate(-90)">pawns (Red +, Black −)</text>"##
    );
    x_axis(&mut svg, game, plies, &x);

    // The two areas, exact at the zero crossings, then the curve over them.
    let curve = with_crossings(&points);
    for (fill, keep) in [(RED_FILL, 1), (BLACK_FILL, -1)] {
        let mut d = format!("M{:.1},{mid:.1}", x(0.0));
        for &(ply, red) in &curve {
            let v = if keep > 0 { red.max(0.0) } else { red.min(0.0) };
            let _ = write!(d, " L{:.1},{:.1}", x(ply), y_f(v, mid));
        }
        let last = curve.last().map_or(0.0, |p| p.0);
        let _ = write!(d, " L{:.1},{mid:.1} Z", x(last));
        let _ = writeln!(svg, r#"<path d="{d}" fill="{fill}" stroke="none"/>"#);
    }
    let line: Vec<String> = points
        .iter()
        .map(|p| format!("{:.1},{:.1}", x(p.ply as f64), y(p.red)))
        .collect();
    let _ = writeln!(
        svg,
        r##"<polyline points="{}" fill="none" stroke="#222222" stroke-width="1.6" stroke-linejoin="round"/>"##,
        line.join(" ")
    );

    // A game without moves has only its start: a dot, as a line of one point draws nothing.
    if let [p] = points.as_slice() {
        let _ = writeln!(
            svg,
            r##"<circle cx="{:.1}" cy="{:.1}" r="3.5" fill="#222222"/>"##,
            x(p.ply as f64),
            y(p.red)
        );
    }
    if embed == Embed::Page {
        hits(&mut svg, plies, &x);
    }
    // Decisive scores on the clip line, then the marks.
    for p in points.iter().filter(|p| score::is_decisive(p.red)) {
        let _ = writeln!(svg, "{}", square(x(p.ply as f64), y(p.red), 4.5));
    }
    for m in &analysis.moves {
        if let Some(mark) = m.mark {
            let shape = marker(mark, x(m.ply as f64), y(m.after_red), who(m.mover), m.ply);
            let _ = match embed {
                Embed::File => writeln!(svg, "{shape}"),
                Embed::Page => writeln!(svg, r#"<g data-go="{}">{shape}</g>"#, m.ply),
            };
        }
    }
    legend(&mut svg, analysis);
    svg.push_str("</svg>\n");
    svg
}

/// For the page: the cursor at the start, and over each ply's column (from halfway to the
/// ply before to halfway to the next, within the plot) a strip that takes the clicks.
fn hits(svg: &mut String, plies: usize, x: &impl Fn(f64) -> f64) {
    let _ = writeln!(
        svg,
        r##"<line class="cursor" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{BOTTOM}" stroke="#1565c0" stroke-width="2"/>"##
    );
    for ply in 0..=plies {
        let at = ply as f64;
        let left = x(at - 0.5).max(LEFT);
        let right = x(at + 0.5).min(RIGHT);
        let _ = writeln!(
            svg,
            r##"<rect data-go="{ply}" data-x="{:.1}" x="{left:.1}" y="{TOP}" width="{:.1}" height="{}" fill="#000000" fill-opacity="0"/>"##,
            x(at),
            right - left,
            BOTTOM - TOP
        );
    }
}

fn clip(red: i32) -> i32 {
    red.clamp(-CLIP_CP, CLIP_CP)
}

fn y_f(red: f64, mid: f64) -> f64 {
    mid - red.clamp(-f64::from(CLIP_CP), f64::from(CLIP_CP)) / f64::from(CLIP_CP) * (BOTTOM - TOP)
        / 2.0
}

/// The curve as `(ply, clipped score)` with a point added where it crosses zero, so that
/// the red and grey areas meet exactly on the zero line.
fn with_crossings(points: &[Point]) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(points.len() * 2);
    for w in points.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (va, vb) = (f64::from(clip(a.red)), f64::from(clip(b.red)));
        if out.is_empty() {
            out.push((a.ply as f64, va));
        }
        if va * vb < 0.0 {
            let t = va / (va - vb);
            out.push((a.ply as f64 + t * (b.ply as f64 - a.ply as f64), 0.0));
        }
        out.push((b.ply as f64, vb));
    }
    if out.is_empty() {
        if let Some(p) = points.first() {
            out.push((p.ply as f64, f64::from(clip(p.red))));
        }
    }
    out
}

fn who(c: Color) -> &'static str {
    match c {
        Color::Red => "Red",
        Color::Black => "Black",
    }
}

/// The title (players) and the line under it (event, site, date, result, how it was
/// analysed), as plain text: the graph's and the analysis page's.
pub(crate) fn heading(game: &Game, analysis: &Analysis) -> (String, String) {
    let tag = |name: &str| game.tag(name).filter(|v| !v.trim().is_empty());
    let players = match (tag("Red"), tag("Black")) {
        (None, None) => "Red vs Black".to_string(),
        (r, b) => format!("{} (Red) vs {} (Black)", r.unwrap_or("?"), b.unwrap_or("?")),
    };
    let mut sub: Vec<String> = ["Event", "Site", "Date"]
        .iter()
        .filter_map(|t| tag(t).map(str::to_string))
        .collect();
    sub.push(crate::records::pgn::result_token(game.result).to_string());
    sub.push(analysis.annotator.clone());
    (players, sub.join(" · "))
}

/// The title and the line under it.
fn title(svg: &mut String, game: &Game, analysis: &Analysis) {
    let (players, sub) = heading(game, analysis);
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="30" font-size="20" font-weight="bold" text-anchor="middle" fill="#111111">{}</text>"##,
        WIDTH / 2.0,
        escape(&players)
    );
    let _ = writeln!(
        svg,
        r##"<text x="{}" y="54" font-size="13" text-anchor="middle" fill="#444444">{}</text>"##,
        WIDTH / 2.0,
        escape(&sub)
    );
}

/// Ticks and labels in move numbers, every 2 to 50 moves by the game's length (and the first
/// move), and the axis name.
fn x_axis(svg: &mut String, game: &Game, plies: usize, x: &impl Fn(f64) -> f64) {
    let first = game.start.fullmove_number() as usize;
    let black_first = game.start.side_to_move() == Color::Black;
    let moves = plies / 2 + 1;
    let step = match moves {
        0..=12 => 2,
        13..=30 => 5,
        31..=80 => 10,
        81..=160 => 20,
        _ => 50,
    };
    // Move `n` begins at this ply (the position before Red's move `n`).
    let ply_of = |n: usize| (2 * (n - first)).checked_sub(usize::from(black_first));
    let mut n = first.div_ceil(step).max(1) * step;
    let mut ticks = vec![first.max(1)];
    while ply_of(n).is_some_and(|p| p <= plies) {
        if n != first {
            ticks.push(n);
        }
        n += step;
    }
    for n in ticks {
        let Some(p) = ply_of(n).or(Some(0)).filter(|&p| p <= plies) else {
            continue;
        };
        let tx = x(p as f64);
        let _ = writeln!(
            svg,
            r##"<line x1="{tx:.1}" y1="{BOTTOM}" x2="{tx:.1}" y2="{:.1}" stroke="#333333"/>"##,
            BOTTOM + 5.0
        );
        let _ = writeln!(
            svg,
            r##"<line x1="{tx:.1}" y1="{TOP}" x2="{tx:.1}" y2="{BOTTOM}" stroke="#eeeeee"/>"##
        );
        let _ = writeln!(
            svg,
            r##"<text x="{tx:.1}" y="{:.1}" font-size="13" text-anchor="middle" fill="#333333">{n}</text>"##,
            BOTTOM + 20.0
        );
    }
    let _ = writeln!(
        svg,
        r##"<text x="{:.1}" y="{:.1}" font-size="14" text-anchor="middle" fill="#333333">move</text>"##,
        (LEFT + RIGHT) / 2.0,
        BOTTOM + 40.0
    );
}

/// The marker of one mark, with a tooltip naming the move (`ply` 0: none, for the legend).
/// The tooltip is the `<title>` of a group around the shape: ImageMagick's renderer drops a
/// circle that has a child.
fn marker(mark: Mark, cx: f64, cy: f64, side: &str, ply: usize) -> String {
    let shape = match mark {
        Mark::Dubious => format!(
            r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="5.5" fill="{DUBIOUS}" stroke="#222222" stroke-width="1.2"/>"##
        ),
        Mark::Mistake => {
            let r = 7.0;
            format!(
                r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{MISTAKE}" stroke="#222222" stroke-width="1.2"/>"##,
                cx,
                cy - r,
                cx + r * 0.9,
                cy + r * 0.6,
                cx - r * 0.9,
                cy + r * 0.6
            )
        }
        Mark::Blunder => {
            let r = 8.0;
            format!(
                r##"<polygon points="{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}" fill="{BLUNDER}" stroke="#222222" stroke-width="1.2"/>"##,
                cx,
                cy - r,
                cx + r,
                cy,
                cx,
                cy + r,
                cx - r,
                cy
            )
        }
    };
    if ply == 0 {
        return shape;
    }
    format!(
        "<g><title>ply {ply}: {side} {} {}</title>{shape}</g>",
        mark.symbol(),
        mark.name()
    )
}

fn square(cx: f64, cy: f64, r: f64) -> String {
    format!(
        r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="#ffffff" stroke="{DECISIVE}" stroke-width="2"/>"##,
        cx - r,
        cy - r,
        2.0 * r,
        2.0 * r
    )
}

/// The legend under the plot: the two areas, the three marks (with their counts) and the
/// decisive square.
fn legend(svg: &mut String, analysis: &Analysis) {
    let count = |m: Mark| analysis.moves.iter().filter(|a| a.mark == Some(m)).count();
    let ly = HEIGHT - 30.0;
    let swatch = |fill: &'static str, edge: &'static str| {
        move |lx: f64| {
            format!(
                r#"<rect x="{:.1}" y="{:.1}" width="11" height="11" fill="{fill}" stroke="{edge}"/>"#,
                lx - 5.5,
                ly - 5.5
            )
        }
    };
    type Symbol = Box<dyn Fn(f64) -> String>;
    let mut items: Vec<(Symbol, String)> = vec![
        (Box::new(swatch(RED_FILL, RED_EDGE)), "Red better".into()),
        (
            Box::new(swatch(BLACK_FILL, BLACK_EDGE)),
            "Black better".into(),
        ),
    ];
    for mark in [Mark::Dubious, Mark::Mistake, Mark::Blunder] {
        let text = format!("{} {} ({})", mark.symbol(), mark.name(), count(mark));
        items.push((Box::new(move |lx| marker(mark, lx, ly, "", 0)), text));
    }
    items.push((
        Box::new(move |lx| square(lx, ly, 4.5)),
        format!("mate or rule win (drawn at ±{})", CLIP_CP / 100),
    ));
    let mut lx = LEFT;
    for (symbol, text) in items {
        let _ = writeln!(svg, "{}", symbol(lx));
        let _ = writeln!(
            svg,
            r##"<text x="{:.1}" y="{:.1}" font-size="13" fill="#222222">{}</text>"##,
            lx + 14.0,
            ly + 4.5,
            escape(&text)
        );
        lx += 14.0 + 7.0 * text.chars().count() as f64 + 20.0;
    }
}

/// Text as XML or HTML character data or attribute value (either quote); control characters
/// become spaces.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::records::pgn::parse_pgn;
    use crate::tools::analyse::MoveAnalysis;

    fn analysis(scores: &[i32], marks: &[Option<Mark>]) -> (Game, Analysis) {
        let mut game = parse_pgn("[Red \"A & B\"]\n[Black \"<C>\"]\n[Event \"Test\"]\n*")
            .expect("reads")
            .remove(0);
        game.result = None;
        let moves = scores
            .iter()
            .enumerate()
            .map(|(i, &s)| MoveAnalysis {
                ply: i + 1,
                mover: if i % 2 == 0 { Color::Red } else { Color::Black },
                played: Position::startpos().parse_move("h2e2").expect("legal"),
                after_red: s,
                loss: 0,
                mark: marks.get(i).copied().flatten(),
                best: None,
                best_red: 0,
                pv: Vec::new(),
            })
            .collect();
        let a = Analysis {
            start_red: 20,
            moves,
            notes: Vec::new(),
            annotator: "Jiangjun test, depth 1".into(),
        };
        (game, a)
    }

    #[test]
    fn crossings_are_added_and_scores_clipped() {
        let pts = [
            Point { ply: 0, red: 100 },
            Point { ply: 1, red: -300 },
            Point { ply: 2, red: 5_000 },
        ];
        let c = with_crossings(&pts);
        assert_eq!(c.len(), 5);
        assert_eq!(c[1], (0.25, 0.0));
        assert_eq!(c[4], (2.0, f64::from(CLIP_CP)));
    }

    #[test]
    fn the_svg_is_escaped_and_has_its_parts() {
        let (g, a) = analysis(
            &[30, -400, score::mate_in(3), 0],
            &[None, Some(Mark::Blunder), None, Some(Mark::Dubious)],
        );
        let svg = eval_graph_svg(&g, &a);
        assert!(
            svg.contains("A &amp; B (Red) vs &lt;C&gt; (Black)"),
            "{svg}"
        );
        assert!(svg.contains("<polyline"));
        assert_eq!(svg.matches("<g><title>ply ").count(), 2);
        assert!(svg.contains(DECISIVE));
        assert!(svg.trim_end().ends_with("</svg>"));
    }

    #[test]
    fn the_inline_graph_has_no_declaration_and_a_strip_per_ply() {
        let (g, a) = analysis(&[30, -400, 10], &[None, Some(Mark::Mistake), None]);
        let file = eval_graph_svg(&g, &a);
        let inline = eval_graph_inline(&g, &a);
        assert!(file.starts_with("<?xml") && file.contains("xmlns="));
        assert!(inline.starts_with("<svg class=\"graph\" "), "{inline}");
        assert!(!inline.contains("<?xml") && !inline.contains("http"));
        // Start and three plies; the strips' x lie on the plot, in order.
        let xs: Vec<f64> = inline
            .split("data-x=\"")
            .skip(1)
            .map(|r| r.split('"').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(xs.len(), 4);
        assert_eq!(xs.first(), Some(&LEFT));
        assert_eq!(xs.last(), Some(&RIGHT));
        assert!(xs.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(inline.matches("class=\"cursor\"").count(), 1);
        assert!(inline.contains("<g data-go=\"2\"><g><title>ply 2: Black ? mistake"));
        assert!(!file.contains("data-go") && !file.contains("cursor"));
    }

    #[test]
    fn cjk_fonts_come_before_the_generic_family() {
        let (g, a) = analysis(&[0], &[None]);
        let svg = eval_graph_svg(&g, &a);
        let families = svg
            .split("font-family=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap();
        assert!(families.starts_with("'Noto Sans CJK SC', "), "{families}");
        assert!(families.ends_with(", sans-serif"), "{families}");
        // One attribute, one line: no line break from the source's continuation.
        assert!(
            !families.contains('\n') && !families.contains("  "),
            "{families}"
        );
    }
}
