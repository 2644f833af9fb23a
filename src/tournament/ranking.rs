//! Scoring and standings for individual round robins.
//!
//! Points follow 2011 rules 13.1 (win 2, draw 1, loss 0), adjustable as
//! 13.3 allows. Order and tie-breaks follow 14.1 for one-game round robins
//! and 14.2 for two-game or multi-game ones; see [`System::criteria`].
//!
//! The articles name the tie-breaks but not how a head-to-head criterion
//! treats three or more tied entrants, so this module reads them as
//! follows (each choice is repeated where it is implemented):
//!
//! * Criteria are applied in order; a criterion only splits entrants still
//!   level on every earlier one.
//! * "直胜" (direct encounter) and "对局时后走" (Black in the mutual game)
//!   are computed over the games among the entrants currently level only.
//!   When such a criterion splits a group into smaller groups that are
//!   still level, it is applied again within each smaller group, so two
//!   entrants left level are always compared by their own games.
//! * "犯规" (fouls): fewer ranks higher. "后走局数" (games as Black) and
//!   "后走胜局" (wins as Black): more ranks higher, Black being the harder
//!   side.
//! * Entrants level on every criterion share a rank (1, 2, 2, 4, ...).

pub use crate::board::GameResult;
use crate::board::{Color, Wdl};
use std::collections::BTreeMap;
use std::fmt;

/// Largest field accepted, matching the pairing module's bound.
pub const MAX_ENTRANTS: u32 = super::pairing::MAX_ENTRANTS;

/// One finished game as the standings score it: entrant numbers are 1-based.
///
/// Fouls ("犯规", 2011 rules article 8) are recorded per game because 14.1
/// and 14.2 use their total as a tie-break.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScoredGame {
    /// Entrant playing Red.
    pub red: u32,
    /// Entrant playing Black.
    pub black: u32,
    /// How the game ended.
    pub outcome: GameResult,
    /// Fouls called against Red in this game.
    pub red_fouls: u32,
    /// Fouls called against Black in this game.
    pub black_fouls: u32,
}

impl ScoredGame {
    /// A game without fouls.
    pub fn new(red: u32, black: u32, outcome: GameResult) -> Self {
        ScoredGame {
            red,
            black,
            outcome,
            red_fouls: 0,
            black_fouls: 0,
        }
    }

    /// The same game with fouls recorded for each side.
    pub fn with_fouls(self, red_fouls: u32, black_fouls: u32) -> Self {
        ScoredGame {
            red_fouls,
            black_fouls,
            ..self
        }
    }
}

/// Points for one game (2011 rules 13.1; 13.3 lets organisers change them,
/// including a different draw value for Red and Black).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Scoring {
    /// Points for a win.
    pub win: u32,
    /// Points for a loss.
    pub loss: u32,
    /// Points for Red in a draw.
    pub red_draw: u32,
    /// Points for Black in a draw.
    pub black_draw: u32,
}

impl Scoring {
    /// 2011 rules 13.1: win 2, draw 1, loss 0.
    pub const STANDARD: Scoring = Scoring {
        win: 2,
        loss: 0,
        red_draw: 1,
        black_draw: 1,
    };

    /// 2011 rules 13.3, first example: win 3, draw 1, loss 0.
    pub const THREE_ONE_ZERO: Scoring = Scoring {
        win: 3,
        loss: 0,
        red_draw: 1,
        black_draw: 1,
    };

    /// 2011 rules 13.3, second example: win 3, loss 0, a draw gives Red 1
    /// and Black 2 (compensating the second move).
    pub const BLACK_DRAW_BONUS: Scoring = Scoring {
        win: 3,
        loss: 0,
        red_draw: 1,
        black_draw: 2,
    };

    /// Points one side earns from `outcome`.
    pub fn points(&self, outcome: GameResult, as_red: bool) -> u32 {
        let side = if as_red { Color::Red } else { Color::Black };
        match outcome.for_side(side) {
            Wdl::Win => self.win,
            Wdl::Loss => self.loss,
            Wdl::Draw if as_red => self.red_draw,
            Wdl::Draw => self.black_draw,
        }
    }
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring::STANDARD
    }
}

/// Which article orders the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum System {
    /// One game per pairing: 2011 rules 14.1.
    SingleGame,
    /// Two or more games per pairing: 2011 rules 14.2, all games between
    /// the same two entrants forming one match.
    MultiGame,
}

/// One ordering criterion; each variant names the article's term.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// 积分 (14.1) / 局分总和 (14.2): total game points.
    Points,
    /// 场分 (14.2): match points, 2 / 1 / 0 for winning, drawing or losing
    /// the match against each opponent on game points (by analogy with
    /// 13.2).
    MatchPoints,
    /// 小分 (14.1): all points of beaten opponents plus half the points of
    /// drawn opponents.
    SmallPoints,
    /// 胜局: games won.
    Wins,
    /// 直胜: results among the entrants still level.
    DirectEncounter,
    /// 犯规: fouls, fewer is better.
    Fouls,
    /// 后走局数 (14.1): games played as Black.
    GamesAsBlack,
    /// 对局时后走 (14.1): having had Black in the games among the entrants
    /// still level.
    BlackInDirectGame,
    /// 后走胜局 (14.2): games won as Black.
    WinsAsBlack,
}

impl Criterion {
    /// Criteria whose value depends on which entrants are still level.
    fn is_head_to_head(self) -> bool {
        matches!(
            self,
            Criterion::DirectEncounter | Criterion::BlackInDirectGame
        )
    }
}

impl System {
    /// The ordering criteria, in the article's order.
    pub fn criteria(self) -> &'static [Criterion] {
        match self {
            // 2011 rules 14.1: 积分, then 小分, 胜局, 直胜, 犯规, 后走局数,
            // 对局时后走.
            System::SingleGame => &[
                Criterion::Points,
                Criterion::SmallPoints,
                Criterion::Wins,
                Criterion::DirectEncounter,
                Criterion::Fouls,
                Criterion::GamesAsBlack,
                Criterion::BlackInDirectGame,
            ],
            // 2011 rules 14.2: 场分, then 局分总和, 胜局, 直胜, 犯规, 后走胜局.
            System::MultiGame => &[
                Criterion::MatchPoints,
                Criterion::Points,
                Criterion::Wins,
                Criterion::DirectEncounter,
                Criterion::Fouls,
                Criterion::WinsAsBlack,
            ],
        }
    }
}

/// One line of the final table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// 1-based place; entrants level on every criterion share it.
    pub rank: u32,
    /// Entrant number.
    pub entrant: u32,
    /// Total game points under the chosen [`Scoring`].
    pub points: u64,
    /// Match points (场分, 14.2); computed under either system.
    pub match_points: u64,
    /// Twice the 小分 of 14.1, kept doubled so half points stay exact.
    pub small_points_x2: u64,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Total fouls.
    pub fouls: u64,
    /// Games played as Black.
    pub games_as_black: u32,
    /// Games won as Black.
    pub wins_as_black: u32,
    /// The criterion that puts this entrant ahead of the next line; `None`
    /// on the last line or when level with the next line.
    pub decided_by: Option<Criterion>,
}

impl Standing {
    /// 小分 as a number (exact: it is a multiple of one half).
    pub fn small_points(&self) -> f64 {
        self.small_points_x2 as f64 / 2.0
    }
}

/// Why standings cannot be computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RankingError {
    /// The field is empty.
    NoEntrants,
    /// More than [`MAX_ENTRANTS`] entrants.
    TooManyEntrants(u32),
    /// Game number `game` (0-based) names an entrant outside `1..=entrants`.
    UnknownEntrant {
        /// Index of the game in the input.
        game: usize,
        /// The offending entrant number.
        entrant: u32,
    },
    /// Game number `game` (0-based) pairs an entrant with itself.
    SelfPairing {
        /// Index of the game in the input.
        game: usize,
        /// The entrant named twice.
        entrant: u32,
    },
}

impl fmt::Display for RankingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RankingError::NoEntrants => write!(f, "no entrants"),
            RankingError::TooManyEntrants(n) => {
                write!(f, "{n} entrants exceeds the limit of {MAX_ENTRANTS}")
            }
            RankingError::UnknownEntrant { game, entrant } => {
                write!(f, "game {game}: entrant {entrant} is not in the field")
            }
            RankingError::SelfPairing { game, entrant } => {
                write!(f, "game {game}: entrant {entrant} plays itself")
            }
        }
    }
}

impl std::error::Error for RankingError {}

/// Per-entrant totals before ordering.
#[derive(Debug, Clone, Default)]
struct Tally {
    points: u64,
    match_points: u64,
    small_points_x2: u64,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    fouls: u64,
    games_as_black: u32,
    wins_as_black: u32,
}

/// Everything the ordering needs, indexed by entrant number minus one.
struct Table<'a> {
    games: &'a [ScoredGame],
    tallies: Vec<Tally>,
    /// Game points each side earned against the other, keyed by the
    /// (lower, higher) entrant pair: the matches of 14.2.
    matches: BTreeMap<(u32, u32), (u64, u64)>,
    system: System,
}

/// 13.2-style 2 / 1 / 0 for a match decided on game points.
fn match_result(own: u64, other: u64) -> u64 {
    match own.cmp(&other) {
        std::cmp::Ordering::Greater => 2,
        std::cmp::Ordering::Equal => 1,
        std::cmp::Ordering::Less => 0,
    }
}

/// Position of an entrant in the per-entrant vectors (numbers are 1-based).
fn index(entrant: u32) -> usize {
    entrant.saturating_sub(1) as usize
}

impl<'a> Table<'a> {
    fn new(entrants: u32, games: &'a [ScoredGame], scoring: &Scoring, system: System) -> Self {
        let mut tallies = vec![Tally::default(); entrants as usize];
        let mut matches: BTreeMap<(u32, u32), (u64, u64)> = BTreeMap::new();
        for g in games {
            let red_points = u64::from(scoring.points(g.outcome, true));
            let black_points = u64::from(scoring.points(g.outcome, false));
            for (entrant, as_red, own) in
                [(g.red, true, red_points), (g.black, false, black_points)]
            {
                let Some(t) = tallies.get_mut(index(entrant)) else {
                    continue;
                };
                t.points = t.points.saturating_add(own);
                t.games = t.games.saturating_add(1);
                let fouls = if as_red { g.red_fouls } else { g.black_fouls };
                t.fouls = t.fouls.saturating_add(u64::from(fouls));
                if !as_red {
                    t.games_as_black = t.games_as_black.saturating_add(1);
                }
                let side = if as_red { Color::Red } else { Color::Black };
                match g.outcome.for_side(side) {
                    Wdl::Draw => t.draws = t.draws.saturating_add(1),
                    Wdl::Win => {
                        t.wins = t.wins.saturating_add(1);
                        if !as_red {
                            t.wins_as_black = t.wins_as_black.saturating_add(1);
                        }
                    }
                    Wdl::Loss => t.losses = t.losses.saturating_add(1),
                }
            }
            let (key, low_points, high_points) = if g.red < g.black {
                ((g.red, g.black), red_points, black_points)
            } else {
                ((g.black, g.red), black_points, red_points)
            };
            let entry = matches.entry(key).or_insert((0, 0));
            entry.0 = entry.0.saturating_add(low_points);
            entry.1 = entry.1.saturating_add(high_points);
        }

        // 14.1 小分: the opponents' final points, in full for a win and half
        // for a draw (doubled here). Byes are not games and add nothing.
        let points: Vec<u64> = tallies.iter().map(|t| t.points).collect();
        let final_points = |entrant: u32| points.get(index(entrant)).copied().unwrap_or(0);
        for g in games {
            let (red_gain, black_gain) = match g.outcome {
                GameResult::RedWins => (final_points(g.black).saturating_mul(2), 0),
                GameResult::BlackWins => (0, final_points(g.red).saturating_mul(2)),
                GameResult::Draw => (final_points(g.black), final_points(g.red)),
            };
            if let Some(t) = tallies.get_mut(index(g.red)) {
                t.small_points_x2 = t.small_points_x2.saturating_add(red_gain);
            }
            if let Some(t) = tallies.get_mut(index(g.black)) {
                t.small_points_x2 = t.small_points_x2.saturating_add(black_gain);
            }
        }

        // 14.2 场分: one match result per opponent.
        for (&(low, high), &(low_points, high_points)) in &matches {
            if let Some(t) = tallies.get_mut(index(low)) {
                t.match_points = t
                    .match_points
                    .saturating_add(match_result(low_points, high_points));
            }
            if let Some(t) = tallies.get_mut(index(high)) {
                t.match_points = t
                    .match_points
                    .saturating_add(match_result(high_points, low_points));
            }
        }

        Table {
            games,
            tallies,
            matches,
            system,
        }
    }

    /// Sort keys of `group` (same order) under `criterion`; larger ranks
    /// higher. Head-to-head criteria look only at games within `group`.
    fn keys(&self, criterion: Criterion, group: &[u32]) -> Vec<u64> {
        if criterion.is_head_to_head() {
            let head_to_head = self.head_to_head(criterion, group);
            return group
                .iter()
                .map(|&e| head_to_head.get(index(e)).copied().unwrap_or(0))
                .collect();
        }
        group
            .iter()
            .map(|&e| {
                let Some(t) = self.tallies.get(index(e)) else {
                    return 0;
                };
                match criterion {
                    Criterion::Points => t.points,
                    Criterion::MatchPoints => t.match_points,
                    Criterion::SmallPoints => t.small_points_x2,
                    Criterion::Wins => u64::from(t.wins),
                    Criterion::Fouls => u64::MAX - t.fouls,
                    Criterion::GamesAsBlack => u64::from(t.games_as_black),
                    Criterion::WinsAsBlack => u64::from(t.wins_as_black),
                    Criterion::DirectEncounter | Criterion::BlackInDirectGame => 0,
                }
            })
            .collect()
    }

    /// Head-to-head values for every entrant (indexed by number minus one),
    /// counting only games between members of `group`, in one pass.
    fn head_to_head(&self, criterion: Criterion, group: &[u32]) -> Vec<u64> {
        let mut level = vec![false; self.tallies.len()];
        for &e in group {
            if let Some(slot) = level.get_mut(index(e)) {
                *slot = true;
            }
        }
        let in_level = |e: u32| level.get(index(e)).copied().unwrap_or(false);
        let mut values = vec![0u64; self.tallies.len()];
        let mut add = |e: u32, v: u64| {
            if let Some(slot) = values.get_mut(index(e)) {
                *slot = slot.saturating_add(v);
            }
        };
        match (criterion, self.system) {
            // 14.1 直胜 among the level entrants: 2 per win and 1 per draw in
            // their games against each other, whatever the Scoring, so only
            // results count (a drawn game never separates, even with 13.3's
            // Black draw bonus).
            (Criterion::DirectEncounter, System::SingleGame) => {
                for g in self.games {
                    if in_level(g.red) && in_level(g.black) {
                        match g.outcome {
                            GameResult::RedWins => add(g.red, 2),
                            GameResult::BlackWins => add(g.black, 2),
                            GameResult::Draw => {
                                add(g.red, 1);
                                add(g.black, 1);
                            }
                        }
                    }
                }
            }
            // 14.2 直胜: match points from the matches among the level
            // entrants.
            (Criterion::DirectEncounter, System::MultiGame) => {
                for (&(low, high), &(low_points, high_points)) in &self.matches {
                    if in_level(low) && in_level(high) {
                        add(low, match_result(low_points, high_points));
                        add(high, match_result(high_points, low_points));
                    }
                }
            }
            // 14.1 对局时后走: having had Black in the games among the level
            // entrants.
            (Criterion::BlackInDirectGame, _) => {
                for g in self.games {
                    if in_level(g.red) && in_level(g.black) {
                        add(g.black, 1);
                    }
                }
            }
            _ => {}
        }
        values
    }

    /// Orders `group` by `criteria[step..]`, appending tie classes (each in
    /// entrant order) with the criterion separating a class from the next.
    fn split(
        &self,
        group: Vec<u32>,
        step: usize,
        criteria: &[Criterion],
        out: &mut Vec<(Vec<u32>, Option<Criterion>)>,
    ) {
        let Some(&criterion) = criteria.get(step) else {
            out.push((group, None));
            return;
        };
        if group.len() < 2 {
            out.push((group, None));
            return;
        }
        let mut keyed: Vec<(u64, u32)> = self
            .keys(criterion, &group)
            .into_iter()
            .zip(group.iter().copied())
            .collect();
        // Best key first; entrant number only fixes the listing of ties.
        keyed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));

        let mut subgroups: Vec<Vec<u32>> = Vec::new();
        let mut last_key = None;
        for (k, e) in keyed {
            match subgroups.last_mut() {
                Some(sub) if last_key == Some(k) => sub.push(e),
                _ => subgroups.push(vec![e]),
            }
            last_key = Some(k);
        }
        if subgroups.len() == 1 {
            self.split(group, step + 1, criteria, out);
            return;
        }
        let count = subgroups.len();
        for (i, sub) in subgroups.into_iter().enumerate() {
            // A head-to-head criterion is re-applied to a smaller level
            // group: its games among themselves may now separate them.
            let next = if criterion.is_head_to_head() && sub.len() > 1 {
                step
            } else {
                step + 1
            };
            self.split(sub, next, criteria, out);
            if i + 1 < count {
                if let Some(last) = out.last_mut() {
                    last.1 = Some(criterion);
                }
            }
        }
    }
}

/// Final standings of a round robin with entrants `1..=entrants`.
///
/// `games` may be any list of finished games (unplayed pairings are simply
/// absent); every entrant gets a line, even without games.
pub fn standings(
    entrants: u32,
    games: &[ScoredGame],
    scoring: &Scoring,
    system: System,
) -> Result<Vec<Standing>, RankingError> {
    if entrants == 0 {
        return Err(RankingError::NoEntrants);
    }
    if entrants > MAX_ENTRANTS {
        return Err(RankingError::TooManyEntrants(entrants));
    }
    for (game, g) in games.iter().enumerate() {
        for entrant in [g.red, g.black] {
            if entrant == 0 || entrant > entrants {
                return Err(RankingError::UnknownEntrant { game, entrant });
            }
        }
        if g.red == g.black {
            return Err(RankingError::SelfPairing {
                game,
                entrant: g.red,
            });
        }
    }

    let table = Table::new(entrants, games, scoring, system);
    let mut classes = Vec::new();
    table.split((1..=entrants).collect(), 0, system.criteria(), &mut classes);

    let mut lines = Vec::with_capacity(entrants as usize);
    let mut place: u32 = 1;
    for (members, separated_by) in classes {
        let size = members.len();
        for (i, entrant) in members.into_iter().enumerate() {
            let t = table
                .tallies
                .get(index(entrant))
                .cloned()
                .unwrap_or_default();
            lines.push(Standing {
                rank: place,
                entrant,
                points: t.points,
                match_points: t.match_points,
                small_points_x2: t.small_points_x2,
                games: t.games,
                wins: t.wins,
                draws: t.draws,
                losses: t.losses,
                fouls: t.fouls,
                games_as_black: t.games_as_black,
                wins_as_black: t.wins_as_black,
                decided_by: if i + 1 == size { separated_by } else { None },
            });
        }
        place = place.saturating_add(size as u32);
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::Criterion::*;
    use super::GameResult::{BlackWins, Draw, RedWins};
    use super::*;

    fn g(red: u32, black: u32, outcome: GameResult) -> ScoredGame {
        ScoredGame::new(red, black, outcome)
    }

    fn single(entrants: u32, games: &[ScoredGame]) -> Vec<Standing> {
        standings(entrants, games, &Scoring::STANDARD, System::SingleGame).unwrap()
    }

    fn multi(entrants: u32, games: &[ScoredGame]) -> Vec<Standing> {
        standings(entrants, games, &Scoring::STANDARD, System::MultiGame).unwrap()
    }

    /// (entrant, rank, decided_by) per line.
    fn summary(table: &[Standing]) -> Vec<(u32, u32, Option<Criterion>)> {
        table
            .iter()
            .map(|s| (s.entrant, s.rank, s.decided_by))
            .collect()
    }

    fn line(table: &[Standing], entrant: u32) -> &Standing {
        table.iter().find(|s| s.entrant == entrant).unwrap()
    }

    #[test]
    fn small_points_split_equal_scores() {
        // 1 beats 2 and 3, loses to 4; 2 beats 3 and 4; 3 beats 4.
        // Points: 1 = 4, 2 = 4, 3 = 2, 4 = 2.
        // 小分: 1 beat 2 (4) and 3 (2) = 6; 2 beat 3 (2) and 4 (2) = 4;
        //       3 beat 4 (2) = 2;          4 beat 1 (4) = 4.
        let games = [
            g(1, 2, RedWins),
            g(1, 3, RedWins),
            g(4, 1, RedWins),
            g(2, 3, RedWins),
            g(2, 4, RedWins),
            g(3, 4, RedWins),
        ];
        let table = single(4, &games);
        assert_eq!(
            summary(&table),
            vec![
                (1, 1, Some(SmallPoints)),
                (2, 2, Some(Points)),
                (4, 3, Some(SmallPoints)),
                (3, 4, None),
            ]
        );
        let small: Vec<u64> = table.iter().map(|s| s.small_points_x2).collect();
        assert_eq!(small, vec![12, 8, 8, 4]);
        assert_eq!(line(&table, 1).small_points(), 6.0);
    }

    /// Four entrants on the printed 3-or-4 table (the 2011 rules' 3或4人对局秩序表):
    /// 1-4 0:1, 2-3 draw, 4-3 0:1, 1-2 draw, 2-4 draw, 3-1 0:1.
    fn level_four() -> Vec<ScoredGame> {
        vec![
            g(1, 4, BlackWins),
            g(2, 3, Draw),
            g(4, 3, BlackWins),
            g(1, 2, Draw),
            g(2, 4, Draw),
            g(3, 1, BlackWins),
        ]
    }

    #[test]
    fn wins_then_black_in_direct_game_then_games_as_black() {
        // Everyone has 3 points: 1 = W(3) D(2) L(4), 2 = D D D,
        // 3 = W(4) D(2) L(1), 4 = W(1) D(2) L(3).
        // 小分 all 4.5: 1 = 3 + 3/2, 2 = (3+3+3)/2, 3 = 3 + 3/2, 4 = 3 + 3/2.
        // Wins: 1, 3, 4 one each, 2 none -> 2 last.
        // 直胜 among 1, 3, 4 is a cycle (1>3, 3>4, 4>1): 2 each. No fouls.
        // Games as Black: 1 = 1 (3-1), 3 = 2 (2-3, 4-3), 4 = 2 (1-4, 2-4),
        // so 1 falls behind 3 and 4; between 3 and 4, 3 had Black in 4-3.
        let table = single(4, &level_four());
        assert_eq!(
            summary(&table),
            vec![
                (3, 1, Some(BlackInDirectGame)),
                (4, 2, Some(GamesAsBlack)),
                (1, 3, Some(Wins)),
                (2, 4, None),
            ]
        );
        assert!(table
            .iter()
            .all(|s| s.points == 3 && s.small_points_x2 == 9));
        assert_eq!(line(&table, 3).games_as_black, 2);
        assert_eq!(line(&table, 1).games_as_black, 1);
    }

    #[test]
    fn fouls_come_before_games_as_black() {
        // As above, but 4 committed a foul in 2-4: among 1, 3, 4 (level
        // through 直胜) 4 drops behind; then 3 (2 games as Black) beats 1 (1).
        let mut games = level_four();
        games[4] = games[4].with_fouls(0, 1);
        let table = single(4, &games);
        assert_eq!(
            summary(&table),
            vec![
                (3, 1, Some(GamesAsBlack)),
                (1, 2, Some(Fouls)),
                (4, 3, Some(Wins)),
                (2, 4, None),
            ]
        );
        assert_eq!(line(&table, 4).fouls, 1);
    }

    #[test]
    fn direct_encounter_between_two() {
        // 1-4 1:0, 2-3 1:0, 4-3 1:0, 1-2 0:1, 2-4 draw, 3-1 draw.
        // Points: 1 = 2+0+1 = 3, 2 = 2+2+1 = 5, 3 = 0+0+1 = 1, 4 = 0+2+1 = 3.
        // 小分: 1 = 3 (beat 4) + 1/2 (drew 3) = 3.5;
        //       4 = 1 (beat 3) + 5/2 (drew 2) = 3.5.
        // Wins 1 each; 1 beat 4 directly.
        let games = [
            g(1, 4, RedWins),
            g(2, 3, RedWins),
            g(4, 3, RedWins),
            g(1, 2, BlackWins),
            g(2, 4, Draw),
            g(3, 1, Draw),
        ];
        let table = single(4, &games);
        assert_eq!(
            summary(&table),
            vec![
                (2, 1, Some(Points)),
                (1, 2, Some(DirectEncounter)),
                (4, 3, Some(Points)),
                (3, 4, None),
            ]
        );
        assert_eq!(line(&table, 1).small_points_x2, 7);
        assert_eq!(line(&table, 4).small_points_x2, 7);
    }

    #[test]
    fn black_in_direct_game_with_a_bye_field() {
        // Five entrants on the printed 5-or-6 table (the 2011 rules' 5或6人对局秩序表,
        // byes 1, 4, 2, 5, 3):
        // 2-5 1:0, 3-4 1:0, 5-3 1:0, 1-2 1:0, 3-1 1:0, 4-5 1:0, 1-4 1:0,
        // 2-3 draw, 4-2 0:1, 5-1 1:0.
        // Points: 1 = 4, 2 = 5, 3 = 5, 4 = 2, 5 = 4.
        // 2 v 3: 小分 2 = 4 (5) + 2 (4) + 5/2 (3) = 8.5,
        //              3 = 2 (4) + 4 (1) + 5/2 (2) = 8.5; wins 2 each;
        //        drew each other; no fouls; 2 games as Black each;
        //        3 had Black in 2-3.
        // 1 v 5: 小分 1 = 5 (2) + 2 (4) = 7, 5 = 5 (3) + 4 (1) = 9.
        let games = [
            g(2, 5, RedWins),
            g(3, 4, RedWins),
            g(5, 3, RedWins),
            g(1, 2, RedWins),
            g(3, 1, RedWins),
            g(4, 5, RedWins),
            g(1, 4, RedWins),
            g(2, 3, Draw),
            g(4, 2, BlackWins),
            g(5, 1, RedWins),
        ];
        let table = single(5, &games);
        assert_eq!(
            summary(&table),
            vec![
                (3, 1, Some(BlackInDirectGame)),
                (2, 2, Some(Points)),
                (5, 3, Some(SmallPoints)),
                (1, 4, Some(Points)),
                (4, 5, None),
            ]
        );
        assert!(table.iter().all(|s| s.games == 4 && s.games_as_black == 2));
    }

    #[test]
    fn a_perfect_cycle_shares_first_place() {
        // 2-3 1:0, 1-2 1:0, 3-1 1:0: every criterion is level.
        let games = [g(2, 3, RedWins), g(1, 2, RedWins), g(3, 1, RedWins)];
        let table = single(3, &games);
        assert_eq!(
            summary(&table),
            vec![(1, 1, None), (2, 1, None), (3, 1, None)]
        );
    }

    #[test]
    fn black_in_the_mutual_draw_separates_two() {
        // 1 beats both. 2: lost 1-2 as Black, drew 2-3 as Red -> 1 point;
        // 3: lost 3-1 as Red, drew 2-3 as Black -> 1 point. 小分 (x2) 1
        // each (half of the other's 1 point), no wins, 直胜 level, no
        // fouls, one game as Black each; 3 had Black in 2-3.
        let games = [g(1, 2, RedWins), g(3, 1, BlackWins), g(2, 3, Draw)];
        let table = single(3, &games);
        assert_eq!(
            summary(&table),
            vec![
                (1, 1, Some(Points)),
                (3, 2, Some(BlackInDirectGame)),
                (2, 3, None)
            ]
        );
    }

    #[test]
    fn shared_rank_skips_places() {
        // 2 and 3 both lost to 1 as Black and have not met: level on every
        // criterion, so they share 2nd and 4 (no games: fewer games as
        // Black) is 4th.
        let games = [g(1, 2, RedWins), g(1, 3, RedWins)];
        let table = single(4, &games);
        assert_eq!(
            summary(&table),
            vec![
                (1, 1, Some(Points)),
                (2, 2, None),
                (3, 2, Some(GamesAsBlack)),
                (4, 4, None)
            ]
        );
    }

    #[test]
    fn head_to_head_is_reapplied_to_a_smaller_group() {
        // Six entrants on the printed 5-or-6 table (the 2011 rules' 5或6人对局秩序表):
        // 1-6 1:0, 2-5 draw, 3-4 0:1, 6-4 1:0, 5-3 0:1, 1-2 draw, 2-6 draw,
        // 3-1 draw, 4-5 0:1, 6-5 1:0, 1-4 draw, 2-3 1:0, 3-6 1:0, 4-2 1:0,
        // 5-1 1:0.
        // Everyone scores 5, so 小分 (x2) is 10 per win + 5 per draw = 25
        // for all (1 and 2: 1 win 3 draws; the rest: 2 wins 1 draw).
        // Wins: 3, 4, 5, 6 two each; 1 and 2 one each.
        // 直胜 among {3, 4, 5, 6}: 3 = W5 W6 L4 = 4, 6 = W4 W5 L3 = 4,
        //   4 = W3 L5 L6 = 2, 5 = W4 L3 L6 = 2. Re-applied to {3, 6}: 3 beat
        //   6; to {4, 5}: 5 beat 4.
        // {1, 2}: drew each other, no fouls, 2 games as Black each, 2 had
        //   Black in 1-2.
        let games = [
            g(1, 6, RedWins),
            g(2, 5, Draw),
            g(3, 4, BlackWins),
            g(6, 4, RedWins),
            g(5, 3, BlackWins),
            g(1, 2, Draw),
            g(2, 6, Draw),
            g(3, 1, Draw),
            g(4, 5, BlackWins),
            g(6, 5, RedWins),
            g(1, 4, Draw),
            g(2, 3, RedWins),
            g(3, 6, RedWins),
            g(4, 2, RedWins),
            g(5, 1, RedWins),
        ];
        let table = single(6, &games);
        assert_eq!(
            summary(&table),
            vec![
                (3, 1, Some(DirectEncounter)),
                (6, 2, Some(DirectEncounter)),
                (5, 3, Some(DirectEncounter)),
                (4, 4, Some(Wins)),
                (2, 5, Some(BlackInDirectGame)),
                (1, 6, None),
            ]
        );
        assert!(table
            .iter()
            .all(|s| s.points == 5 && s.small_points_x2 == 25));
    }

    #[test]
    fn multi_game_match_points_then_game_points() {
        // Double round robin of 3 (the 2011 rules' 3或4人对局秩序表, second cycle with
        // colours swapped): 2-3 1:0, 1-2 1:0, 3-1 1:0, 3-2 draw, 2-1 draw,
        // 1-3 0:1.
        // Matches: 1 v 2 = 3:1 (1 wins), 2 v 3 = 3:1 (2 wins),
        //          1 v 3 = 0:4 (3 wins) -> 场分 2 each.
        // 局分: 1 = 3, 2 = 1+3 = 4, 3 = 1+4 = 5.
        let games = [
            g(2, 3, RedWins),
            g(1, 2, RedWins),
            g(3, 1, RedWins),
            g(3, 2, Draw),
            g(2, 1, Draw),
            g(1, 3, BlackWins),
        ];
        let table = multi(3, &games);
        assert_eq!(
            summary(&table),
            vec![(3, 1, Some(Points)), (2, 2, Some(Points)), (1, 3, None)]
        );
        assert!(table.iter().all(|s| s.match_points == 2));
        let points: Vec<u64> = table.iter().map(|s| s.points).collect();
        assert_eq!(points, vec![5, 4, 3]);
    }

    #[test]
    fn multi_game_wins_then_wins_as_black_then_fouls() {
        // 2-3 1:0, 1-2 draw, 3-1 0:1, 3-2 1:0, 2-1 draw, 1-3 0:1.
        // Every match is 2:2 -> 场分 2 each; 局分 4 each.
        // Wins: 1 = 1 (as Black in 3-1), 2 = 1 (as Red in 2-3),
        //       3 = 2 -> 3 first.
        // 1 v 2: their match is 2:2 (直胜 level), no fouls, wins as Black
        //        1 = 1, 2 = 0 -> 1 ahead.
        let mut games = [
            g(2, 3, RedWins),
            g(1, 2, Draw),
            g(3, 1, BlackWins),
            g(3, 2, RedWins),
            g(2, 1, Draw),
            g(1, 3, BlackWins),
        ];
        let table = multi(3, &games);
        assert_eq!(
            summary(&table),
            vec![(3, 1, Some(Wins)), (1, 2, Some(WinsAsBlack)), (2, 3, None)]
        );
        assert!(table.iter().all(|s| s.match_points == 2 && s.points == 4));
        // A foul by 1 in the drawn 1-2 puts 2 ahead before 后走胜局 applies.
        games[1] = games[1].with_fouls(1, 0);
        let table = multi(3, &games);
        assert_eq!(
            summary(&table),
            vec![(3, 1, Some(Wins)), (2, 2, Some(Fouls)), (1, 3, None)]
        );
    }

    #[test]
    fn multi_game_direct_encounter() {
        // Double round robin of 4 on the printed table (the 2011 rules'
        // 3或4人对局秩序表) and its colour-swapped repeat; every game is won by Red
        // except 2-1, 4-2 and 1-3, which are drawn.
        // Matches (game points): 1 v 4 2:2, 2 v 3 2:2, 3 v 4 2:2,
        //   1 v 2 3:1, 2 v 4 3:1, 3 v 1 3:1.
        // 场分: 1 = 1+2+0 = 3, 2 = 1+0+2 = 3, 3 = 1+1+2 = 4, 4 = 1+1+0 = 2.
        // 局分: 1 = 2+3+1 = 6, 2 = 2+1+3 = 6. Wins: 1 = 2, 2 = 2.
        // 直胜: 1 won the 1 v 2 match.
        let games = [
            g(1, 4, RedWins),
            g(2, 3, RedWins),
            g(4, 3, RedWins),
            g(1, 2, RedWins),
            g(2, 4, RedWins),
            g(3, 1, RedWins),
            g(4, 1, RedWins),
            g(3, 2, RedWins),
            g(3, 4, RedWins),
            g(2, 1, Draw),
            g(4, 2, Draw),
            g(1, 3, Draw),
        ];
        let table = multi(4, &games);
        assert_eq!(
            summary(&table),
            vec![
                (3, 1, Some(MatchPoints)),
                (1, 2, Some(DirectEncounter)),
                (2, 3, Some(MatchPoints)),
                (4, 4, None),
            ]
        );
        assert_eq!(line(&table, 1).points, 6);
        assert_eq!(line(&table, 2).points, 6);
        assert_eq!(line(&table, 3).match_points, 4);
    }

    #[test]
    fn configurable_points_follow_13_3() {
        let games = level_four();
        // 3/1/0: 1 = 3+1 = 4, 2 = 3, 3 = 4, 4 = 4.
        let table = standings(4, &games, &Scoring::THREE_ONE_ZERO, System::SingleGame).unwrap();
        assert_eq!(line(&table, 1).points, 4);
        assert_eq!(line(&table, 2).points, 3);
        assert_eq!(table[3].entrant, 2);
        // Black draw bonus: 2 drew 2-3 (Red, 1), 1-2 (Black, 2),
        // 2-4 (Red, 1) = 4; 1 won as Black (3) and drew as Red (1) = 4;
        // 3 won as Red (3) and drew as Black (2) = 5;
        // 4 won as Black (3) and drew as Black (2) = 5.
        let table = standings(4, &games, &Scoring::BLACK_DRAW_BONUS, System::SingleGame).unwrap();
        let points: Vec<(u32, u64)> = table.iter().map(|s| (s.entrant, s.points)).collect();
        assert_eq!(line(&table, 2).points, 4);
        assert_eq!(line(&table, 1).points, 4);
        assert_eq!(line(&table, 3).points, 5);
        assert_eq!(line(&table, 4).points, 5);
        // 3 v 4 at 5: 小分 (x2) 3 = 2 * 5 (beat 4 in 4-3) + 4 (drew 2) = 14,
        // 4 = 2 * 4 (beat 1 in 1-4) + 4 (drew 2) = 12 -> 3 first.
        assert_eq!(points[0], (3, 5));
        assert_eq!(table[0].decided_by, Some(SmallPoints));
        assert_eq!(
            (table[0].small_points_x2, table[1].small_points_x2),
            (14, 12)
        );
        assert_eq!(Scoring::default(), Scoring::STANDARD);
    }

    #[test]
    fn tallies_count_results_and_colours() {
        let table = single(4, &level_four());
        let one = line(&table, 1);
        assert_eq!((one.games, one.wins, one.draws, one.losses), (3, 1, 1, 1));
        assert_eq!((one.games_as_black, one.wins_as_black), (1, 1));
        // An entrant without games still gets a line.
        let table = single(5, &level_four());
        let five = line(&table, 5);
        assert_eq!((five.games, five.points, five.rank), (0, 0, 5));
    }

    #[test]
    fn bad_input_is_an_error() {
        let s = Scoring::STANDARD;
        assert_eq!(
            standings(0, &[], &s, System::SingleGame),
            Err(RankingError::NoEntrants)
        );
        assert_eq!(
            standings(MAX_ENTRANTS + 1, &[], &s, System::SingleGame),
            Err(RankingError::TooManyEntrants(MAX_ENTRANTS + 1))
        );
        assert_eq!(
            standings(3, &[g(1, 4, Draw)], &s, System::SingleGame),
            Err(RankingError::UnknownEntrant {
                game: 0,
                entrant: 4
            })
        );
        assert_eq!(
            standings(3, &[g(1, 2, Draw), g(0, 2, Draw)], &s, System::MultiGame),
            Err(RankingError::UnknownEntrant {
                game: 1,
                entrant: 0
            })
        );
        assert_eq!(
            standings(3, &[g(2, 2, Draw)], &s, System::SingleGame),
            Err(RankingError::SelfPairing {
                game: 0,
                entrant: 2
            })
        );
        assert!(!RankingError::NoEntrants.to_string().is_empty());
        // One entrant, no games: a one-line table.
        let table = standings(1, &[], &s, System::SingleGame).unwrap();
        assert_eq!(summary(&table), vec![(1, 1, None)]);
    }

    #[test]
    fn random_round_robins_give_consistent_tables() {
        use crate::tournament::pairing::multi_round_robin;
        // A small linear congruential generator keeps the test std-only.
        let mut state: u64 = 0x2011_0013_0014;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) % 3
        };
        for entrants in 2..=25 {
            for (cycles, system) in [(1, System::SingleGame), (2, System::MultiGame)] {
                let games: Vec<ScoredGame> = multi_round_robin(entrants, cycles)
                    .unwrap()
                    .iter()
                    .flat_map(|r| r.pairings.clone())
                    .map(|p| {
                        let outcome = [RedWins, Draw, BlackWins][next() as usize];
                        g(p.red, p.black, outcome)
                    })
                    .collect();
                let table = standings(entrants, &games, &Scoring::STANDARD, system).unwrap();
                let mut seen: Vec<u32> = table.iter().map(|s| s.entrant).collect();
                seen.sort_unstable();
                assert_eq!(seen, (1..=entrants).collect::<Vec<_>>());
                for (i, pair) in table.windows(2).enumerate() {
                    let (a, b) = (&pair[0], &pair[1]);
                    let primary = match system {
                        System::SingleGame => (a.points, b.points),
                        System::MultiGame => (a.match_points, b.match_points),
                    };
                    assert!(primary.0 >= primary.1);
                    match a.decided_by {
                        Some(_) => assert_eq!(b.rank, i as u32 + 2),
                        None => assert_eq!(b.rank, a.rank),
                    }
                }
                let games_each = (entrants - 1) * cycles;
                assert!(table.iter().all(|s| s.games == games_each));
            }
        }
    }

    #[test]
    fn extreme_values_do_not_overflow() {
        let huge = Scoring {
            win: u32::MAX,
            loss: u32::MAX,
            red_draw: u32::MAX,
            black_draw: u32::MAX,
        };
        let games: Vec<ScoredGame> = (0..50)
            .map(|_| g(1, 2, RedWins).with_fouls(u32::MAX, u32::MAX))
            .collect();
        for system in [System::SingleGame, System::MultiGame] {
            let table = standings(2, &games, &huge, system).unwrap();
            assert_eq!(table.len(), 2);
        }
    }
}
