//! The crosstable and standings table of a round robin.
//!
//! Lines follow the standings (13.1/13.3 points, 14.1 or 14.2 tie-breaks from
//! [`super::ranking`]); columns are the opponents in the same order. A cell lists the points
//! the line's entrant scored in each game against that opponent, in playing order, so every
//! line's cells add up to its points.

use super::ranking::{Criterion, ScoredGame, Scoring, Standing, System};
use std::fmt::Write;

/// Per-pair game points, `cells[a][b]` = what entrant `a+1` scored against `b+1`, per game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crosstable {
    pub cells: Vec<Vec<Vec<u32>>>,
}

impl Crosstable {
    /// Builds the table for entrants `1..=entrants`; games naming other entrants are skipped.
    pub fn new(entrants: usize, games: &[ScoredGame], scoring: &Scoring) -> Crosstable {
        let mut cells = vec![vec![Vec::new(); entrants]; entrants];
        for g in games {
            let (r, b) = (g.red as usize, g.black as usize);
            if r == 0 || b == 0 || r > entrants || b > entrants || r == b {
                continue;
            }
            cells[r - 1][b - 1].push(scoring.points(g.outcome, true));
            cells[b - 1][r - 1].push(scoring.points(g.outcome, false));
        }
        Crosstable { cells }
    }

    /// Total points of entrant `entrant` (1-based) over its row.
    pub fn row_points(&self, entrant: usize) -> u64 {
        self.cells
            .get(entrant.wrapping_sub(1))
            .map_or(0, |row| row.iter().flatten().map(|&p| u64::from(p)).sum())
    }
}

/// Short column name of a tie-break.
pub fn criterion_label(c: Criterion) -> &'static str {
    match c {
        Criterion::Points => "Pts",
        Criterion::MatchPoints => "MP",
        Criterion::SmallPoints => "SB",
        Criterion::Wins => "W",
        Criterion::DirectEncounter => "H2H",
        Criterion::Fouls => "Fouls",
        Criterion::GamesAsBlack => "Blk",
        Criterion::BlackInDirectGame => "BlkH2H",
        Criterion::WinsAsBlack => "BlkW",
    }
}

fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n >= width {
        s.to_string()
    } else {
        format!("{s}{}", " ".repeat(width - n))
    }
}

fn rpad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n >= width {
        s.to_string()
    } else {
        format!("{}{s}", " ".repeat(width - n))
    }
}

/// The header line: the standings' columns of `system`, then one column per entrant in
/// standings order.
fn header(order: &[usize], system: System, name_w: usize, cell_w: usize) -> String {
    let mut header = format!(
        "{}  {}  {}",
        rpad("Rank", 4),
        rpad("No", 3),
        pad("Engine", name_w)
    );
    let cols: Vec<&str> = match system {
        System::SingleGame => vec!["Pts", "SB", "W", "D", "L", "Fouls", "Blk"],
        System::MultiGame => vec!["MP", "Pts", "W", "D", "L", "Fouls", "BlkW"],
    };
    for c in &cols {
        header.push_str(&format!(" {}", rpad(c, 5)));
    }
    header.push_str("  |");
    // Columns are labelled by entrant number (the "No" column), in standings order.
    for opp in order {
        header.push_str(&format!(" {}", rpad(&opp.to_string(), cell_w)));
    }
    header.push_str("  | split by");
    header
}

/// A standing's values under the columns of `system`.
fn values(s: &Standing, system: System) -> Vec<String> {
    let sb = if s.small_points_x2.is_multiple_of(2) {
        (s.small_points_x2 / 2).to_string()
    } else {
        format!("{:.1}", s.small_points())
    };
    match system {
        System::SingleGame => vec![
            s.points.to_string(),
            sb,
            s.wins.to_string(),
            s.draws.to_string(),
            s.losses.to_string(),
            s.fouls.to_string(),
            s.games_as_black.to_string(),
        ],
        System::MultiGame => vec![
            s.match_points.to_string(),
            s.points.to_string(),
            s.wins.to_string(),
            s.draws.to_string(),
            s.losses.to_string(),
            s.fouls.to_string(),
            s.wins_as_black.to_string(),
        ],
    }
}

/// Renders standings plus crosstable. `names[i]` is entrant `i+1`.
pub fn render(
    names: &[String],
    standings: &[Standing],
    table: &Crosstable,
    system: System,
) -> String {
    let name_w = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let order: Vec<usize> = standings.iter().map(|s| s.entrant as usize).collect();
    let cell_w = table
        .cells
        .iter()
        .flatten()
        .map(|c| {
            c.iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" ")
                .len()
        })
        .max()
        .unwrap_or(1)
        .max(2);
    let mut out = String::new();
    let header = header(&order, system, name_w, cell_w);
    let _ = writeln!(out, "{header}");
    let _ = writeln!(out, "{}", "-".repeat(header.chars().count()));
    for (i, s) in standings.iter().enumerate() {
        let e = s.entrant as usize;
        let name = names.get(e.wrapping_sub(1)).map_or("?", |n| n.as_str());
        let mut line = format!(
            "{}  {}  {}",
            rpad(&s.rank.to_string(), 4),
            rpad(&e.to_string(), 3),
            pad(name, name_w)
        );
        for v in &values(s, system) {
            line.push_str(&format!(" {}", rpad(v, 5)));
        }
        line.push_str("  |");
        for (j, &opp) in order.iter().enumerate() {
            let cell = if j == i {
                "x".to_string()
            } else {
                let pts = table
                    .cells
                    .get(e.wrapping_sub(1))
                    .and_then(|row| row.get(opp.wrapping_sub(1)));
                match pts {
                    Some(p) if !p.is_empty() => p
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" "),
                    _ => ".".to_string(),
                }
            };
            line.push_str(&format!(" {}", rpad(&cell, cell_w)));
        }
        line.push_str("  |");
        if let Some(c) = s.decided_by {
            line.push_str(&format!(" {}", criterion_label(c)));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let legend = match system {
        System::SingleGame => {
            "Order by 14.1: Pts (积分), SB (小分: points of beaten opponents + half of drawn), \
             W (胜局), H2H (直胜), Fouls (犯规), Blk (后走局数), BlkH2H (对局时后走)."
        }
        System::MultiGame => {
            "Order by 14.2: MP (场分, 2/1/0 per opponent), Pts (局分总和), W (胜局), H2H (直胜), \
             Fouls (犯规), BlkW (后走胜局)."
        }
    };
    let _ = writeln!(
        out,
        "{legend}\nCells: points scored against entrant No (column), one number per game; \
         'split by' names the criterion that separates a line from the next."
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::ranking::{standings, GameResult};

    #[test]
    fn rows_add_up_to_standings() {
        let games = vec![
            ScoredGame::new(1, 2, GameResult::RedWins),
            ScoredGame::new(3, 1, GameResult::Draw),
            ScoredGame::new(2, 3, GameResult::BlackWins),
            ScoredGame::new(2, 1, GameResult::Draw),
        ];
        let s = Scoring::STANDARD;
        let t = Crosstable::new(3, &games, &s);
        let st = standings(3, &games, &s, System::MultiGame).unwrap();
        for line in &st {
            assert_eq!(t.row_points(line.entrant as usize), line.points);
        }
        let names = vec!["a".to_string(), "bb".to_string(), "ccc".to_string()];
        let text = render(&names, &st, &t, System::MultiGame);
        assert!(text.contains("Engine"));
        assert_eq!(text.lines().filter(|l| l.contains(" | ")).count(), 3 + 1);
    }
}
