//! From the natures of one repeated cycle to a ruling (棋例 23.5, 24.9–24.14, 25, 26.8), and
//! the natural move limit (4.2.4, 22.2).
//!
//! Two steps, both pure:
//! 1. [`classify`] sums up one side's moves over the cycle as a [`Pattern`]: 长将, 长杀, 长捉,
//!    one of the mixed cycles of 24.13, or allowed.
//! 2. [`judge`] compares the two patterns: 25.1 first, then forbidden against allowed
//!    (25.2, 25.3), then the both-forbidden cases of 26.8.1–26.8.4.
//!
//! Where the Asian rules as Fairy-Stockfish/pyffish apply them ([`RuleSet::Axf`]) differ from
//! the 2011 Chinese text ([`RuleSet::Cxa2011`]), the difference is one row of [`PROFILES`];
//! the code below reads the row and has no rule-set branches of its own.

use std::fmt;

use super::nature::{ChaseTarget, MoveNatures, NatureClass, PieceId, Side};

/// Which rule book the referee follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// The Chinese Xiangqi Association rules, 2011 edition (the seeds; Jiangjun's default).
    #[default]
    Cxa2011,
    /// The Asian (AXF) rules as Fairy-Stockfish/pyffish 0.0.90 judge them (repetition.md §2):
    /// check outranks chase, a chase must hit the same piece on every move, no 杀, no 26.8
    /// special cases, 50-move limit under UCI.
    Axf,
}

/// How many plies without capture end the game, and how checks are discounted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitRule {
    /// Plies without a capture that make a draw (4.2.4: 60 rounds = 120 plies).
    pub plies: u32,
    /// Checks that count towards the limit; each further check removes its round (2 plies).
    pub counted_checks: u32,
    /// Whose checks are discounted.
    pub scope: CheckScope,
}

/// Whose checks beyond [`LimitRule::counted_checks`] are discounted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckScope {
    /// 22.2: "审核回合时，提出方'将军'最多只计10着" — only the claimant's checks are capped.
    /// Without a named claimant the limit holds when either side's claim would be upheld.
    Claimant,
    /// Fairy-Stockfish: the side with more checks in the window is capped.
    BusiestSide,
}

impl LimitRule {
    /// 4.2.4 and 22.2: 60 rounds without a capture; the claimant's checks count for at most
    /// 10 moves.
    pub const CXA2011: LimitRule = LimitRule {
        plies: 120,
        counted_checks: 10,
        scope: CheckScope::Claimant,
    };

    /// Fairy-Stockfish under UCI (pyffish): 50 moves, checks beyond the 10th of the busier
    /// side discounted (it uses 60 moves only under UCCI).
    pub const PYFFISH: LimitRule = LimitRule {
        plies: 100,
        counted_checks: 10,
        scope: CheckScope::BusiestSide,
    };

    /// The same rule with a different number of rounds: 4.2.4 lets organisers lower the
    /// limit by level of play ("可根据比赛等级酌减").
    pub const fn with_rounds(mut self, rounds: u32) -> LimitRule {
        self.plies = rounds.saturating_mul(2);
        self
    }
}

/// Everything on which the rule sets disagree. One row per rule set in [`PROFILES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// 杀 is a nature (24.2, 24.10); when false a mate threat is judged as idle.
    pub mate_threats: bool,
    /// A checking move's chases still count towards 长捉. When false the move is judged by
    /// its heaviest nature, the check (26.4).
    pub chase_on_check: bool,
    /// 长捉 needs one piece chased on every move. When false any piece(s) will do:
    /// "连续追捉一子或数子" (24.11).
    pub same_piece: bool,
    /// 一将一杀, 一将一捉, 一杀一捉 and the like are forbidden (24.13).
    pub mixed_forbidden: bool,
    /// When both sides are forbidden, 26.8.1–26.8.3 pick the side that must vary; when false
    /// it is always a draw.
    pub tiebreaks: bool,
    /// The natural move limit.
    pub limit: LimitRule,
    /// The moves judged run from the earliest of the counted occurrences of the position
    /// (and the move into it), not just its last period: pyffish ANDs each side's checks and
    /// chases over all of them, which differs when the two sides' shuffles have different
    /// lengths or the cycle was entered by a different move.
    pub whole_repetition: bool,
}

/// The rule-set table. Row order matches [`RuleSet::profile`].
///
/// | field             | Cxa2011                | Axf (pyffish)                         |
/// |-------------------|------------------------|---------------------------------------|
/// | `mate_threats`    | yes (24.2, 24.10)      | no: FSF has no mate-threat detection  |
/// | `chase_on_check`  | no: heaviest wins 26.4 | yes: FSF ANDs chase sets over checks  |
/// | `same_piece`      | no: 一子或数子 24.11   | yes: chase bits follow one piece      |
/// | `mixed_forbidden` | yes (24.13)            | no: a plain check breaks the chase    |
/// | `tiebreaks`       | 26.8.1–26.8.3          | none: both forbidden is a draw        |
/// | `limit`           | 120 plies, claimant    | 100 plies, busier side                |
/// | `whole_repetition`| no: the last period    | yes: from the first counted occurrence|
pub static PROFILES: [Profile; 2] = [
    Profile {
        mate_threats: true,
        chase_on_check: false,
        same_piece: false,
        mixed_forbidden: true,
        tiebreaks: true,
        limit: LimitRule::CXA2011,
        whole_repetition: false,
    },
    Profile {
        mate_threats: false,
        chase_on_check: true,
        same_piece: true,
        mixed_forbidden: false,
        tiebreaks: false,
        limit: LimitRule::PYFFISH,
        whole_repetition: true,
    },
];

impl RuleSet {
    /// This rule set's row of [`PROFILES`].
    pub fn profile(self) -> &'static Profile {
        match self {
            RuleSet::Cxa2011 => &PROFILES[0],
            RuleSet::Axf => &PROFILES[1],
        }
    }
}

/// Which of a side's chasing moves hit a class of target (a rook, an unprotected piece), and
/// how. 26.8.2/26.8.3 set a side that chases alone against one that chases jointly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Coverage {
    /// Not every chasing move chases such a piece (or there are no chasing moves).
    Partial,
    /// Every chasing move chases one by a single piece (it may chase others jointly too).
    Single,
    /// Every chasing move chases one, but only jointly (24.17).
    Joint,
    /// Every chasing move chases one; some only jointly, some alone.
    Mixed,
}

/// What a side's chasing moves chased, as far as 26.8 cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChaseSummary {
    /// 捉车: rooks.
    pub rook: Coverage,
    /// 捉无根子: unprotected pieces (false roots and short roots included, see
    /// [`super::nature::Protection::counts_as_unprotected`]).
    pub unprotected: Coverage,
    /// Every chasing move chases a rook or an unprotected piece: 长捉车, 长捉无根子 or
    /// 一捉车一捉无根子 (26.8.1).
    pub rook_or_unprotected: bool,
}

impl ChaseSummary {
    /// Sums up `moves`' counting chases, keeping only the targets `keep` accepts.
    fn over<'a>(
        moves: impl Iterator<Item = &'a MoveNatures>,
        keep: impl Fn(&ChaseTarget) -> bool,
    ) -> ChaseSummary {
        let mut rook = CoverageSum::default();
        let mut unprotected = CoverageSum::default();
        let mut rook_or_unprotected = true;
        let mut any = false;
        for m in moves {
            any = true;
            let targets: Vec<ChaseTarget> = m.chases().filter(|t| keep(t)).copied().collect();
            rook.add(targets.iter().filter(|t| t.is_rook()));
            unprotected.add(targets.iter().filter(|t| t.is_unprotected()));
            rook_or_unprotected &= targets.iter().any(|t| t.is_rook() || t.is_unprotected());
        }
        ChaseSummary {
            rook: rook.coverage(any),
            unprotected: unprotected.coverage(any),
            rook_or_unprotected: any && rook_or_unprotected,
        }
    }
}

/// Running totals for one [`Coverage`].
struct CoverageSum {
    every: bool,
    every_single: bool,
    every_joint_only: bool,
}

impl Default for CoverageSum {
    fn default() -> Self {
        CoverageSum {
            every: true,
            every_single: true,
            every_joint_only: true,
        }
    }
}

impl CoverageSum {
    fn add<'a>(&mut self, targets: impl Iterator<Item = &'a ChaseTarget>) {
        let (mut single, mut joint) = (false, false);
        for t in targets {
            if t.joint {
                joint = true;
            } else {
                single = true;
            }
        }
        self.every &= single || joint;
        self.every_single &= single;
        self.every_joint_only &= joint && !single;
    }

    fn coverage(&self, any: bool) -> Coverage {
        if !any || !self.every {
            Coverage::Partial
        } else if self.every_single {
            Coverage::Single
        } else if self.every_joint_only {
            Coverage::Joint
        } else {
            Coverage::Mixed
        }
    }
}

/// One side's moves over the cycle, summed up (24.9–24.14).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// 允许着法: at least one move is idle, so nothing is perpetual (24.14). 一将一闲 (图5)
    /// and 一捉一闲 are allowed.
    Allowed,
    /// 长将: every move checks (24.9); never allowed on one side only (25.1).
    PerpetualCheck,
    /// 长杀: every move threatens mate (24.10).
    PerpetualMateThreat,
    /// 长捉: every move chases, one piece or several (24.11).
    PerpetualChase(ChaseSummary),
    /// 一将一杀: checks and mate threats only (24.13).
    CheckMate,
    /// 一将一捉: checks and chases only (24.13).
    CheckChase(ChaseSummary),
    /// 一杀一捉: mate threats and chases only (24.13).
    MateChase(ChaseSummary),
    /// Checks, mate threats and chases, every move attacking: the "等" of 24.13.
    CheckMateChase(ChaseSummary),
}

impl Pattern {
    /// Forbidden moves (禁止着法, 24.13); everything else is allowed (24.14).
    pub fn is_forbidden(&self) -> bool {
        !matches!(self, Pattern::Allowed)
    }

    /// The article that defines this pattern.
    pub fn article(&self) -> Clause {
        match self {
            Pattern::Allowed => Clause::Art24_14,
            Pattern::PerpetualCheck => Clause::Art24_9,
            Pattern::PerpetualMateThreat => Clause::Art24_10,
            Pattern::PerpetualChase(_) => Clause::Art24_11,
            Pattern::CheckMate
            | Pattern::CheckChase(_)
            | Pattern::MateChase(_)
            | Pattern::CheckMateChase(_) => Clause::Art24_13,
        }
    }

    /// 26.8.1's list: 长杀, 一将一杀, 长捉车, 长捉无根子, 一将（杀）一捉车（无根子）,
    /// 一捉车一捉无根子. A cycle with checks, mate threats and chases contains 一将一杀 and is
    /// listed too (project reading). 长将 is not listed: against another forbidden pattern it
    /// falls to 26.8.4 (mutual perpetual check is a draw).
    pub fn must_vary_26_8_1(&self) -> bool {
        match self {
            Pattern::PerpetualMateThreat | Pattern::CheckMate | Pattern::CheckMateChase(_) => true,
            Pattern::PerpetualChase(s) | Pattern::CheckChase(s) | Pattern::MateChase(s) => {
                s.rook_or_unprotected
            }
            Pattern::PerpetualCheck | Pattern::Allowed => false,
        }
    }

    /// The pattern's name in the rule book.
    pub fn name(&self) -> &'static str {
        match self {
            Pattern::Allowed => "允许着法",
            Pattern::PerpetualCheck => "长将",
            Pattern::PerpetualMateThreat => "长杀",
            Pattern::PerpetualChase(_) => "长捉",
            Pattern::CheckMate => "一将一杀",
            Pattern::CheckChase(_) => "一将一捉",
            Pattern::MateChase(_) => "一杀一捉",
            Pattern::CheckMateChase(_) => "将杀捉",
        }
    }
}

/// Article numbers that a ruling cites.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Clause {
    /// Checkmated: the side to move, in check, has no legal move and loses.
    Art4_1_1,
    /// 困毙: the side to move has no legal move (not in check) and loses.
    Art4_1_2,
    /// 60 rounds without a capture: draw.
    Art4_2_4,
    /// The claimant's checks count for at most 10 moves.
    Art22_2,
    /// A repeated position needs both sides cycling.
    Art23_1,
    /// Fewer than three repetitions: no ruling.
    Art23_3,
    /// 长将.
    Art24_9,
    /// 长杀.
    Art24_10,
    /// 长捉.
    Art24_11,
    /// Forbidden moves, including the mixed cycles.
    Art24_13,
    /// Allowed moves.
    Art24_14,
    /// One-sided perpetual check is never allowed.
    Art25_1,
    /// Both allowed: draw.
    Art25_2,
    /// Forbidden against allowed: the forbidden side varies.
    Art25_3,
    /// Both forbidden: the listed side varies.
    Art26_8_1,
    /// Chasing a rook alone against a joint chase of a rook: the first varies.
    Art26_8_2,
    /// Chasing an unprotected piece alone against a joint chase of one: the first varies.
    Art26_8_3,
    /// Both forbidden, no special case: draw.
    Art26_8_4,
}

impl Clause {
    /// The article number as printed in the rules, e.g. "26.8.1".
    pub const fn number(self) -> &'static str {
        match self {
            Clause::Art4_1_1 => "4.1.1",
            Clause::Art4_1_2 => "4.1.2",
            Clause::Art4_2_4 => "4.2.4",
            Clause::Art22_2 => "22.2",
            Clause::Art23_1 => "23.1",
            Clause::Art23_3 => "23.3",
            Clause::Art24_9 => "24.9",
            Clause::Art24_10 => "24.10",
            Clause::Art24_11 => "24.11",
            Clause::Art24_13 => "24.13",
            Clause::Art24_14 => "24.14",
            Clause::Art25_1 => "25.1",
            Clause::Art25_2 => "25.2",
            Clause::Art25_3 => "25.3",
            Clause::Art26_8_1 => "26.8.1",
            Clause::Art26_8_2 => "26.8.2",
            Clause::Art26_8_3 => "26.8.3",
            Clause::Art26_8_4 => "26.8.4",
        }
    }
}

/// The result of a ruling. "Loses" means the side must vary and loses if it does not
/// (23.5.2.2), or loses at once for one-sided perpetual check (23.5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    RedLoses,
    BlackLoses,
    Draw,
    /// No ruling (not repeated often enough, or no limit reached).
    None,
}

impl Outcome {
    /// The outcome in which `side` loses.
    pub const fn loses(side: Side) -> Outcome {
        match side {
            Side::Red => Outcome::RedLoses,
            Side::Black => Outcome::BlackLoses,
        }
    }

    /// The side that loses, if any.
    pub const fn loser(self) -> Option<Side> {
        match self {
            Outcome::RedLoses => Some(Side::Red),
            Outcome::BlackLoses => Some(Side::Black),
            Outcome::Draw | Outcome::None => None,
        }
    }
}

/// A ruling on one repeated cycle, with the clause that decides it and both sides' patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    pub outcome: Outcome,
    /// The deciding clause (25.x, 26.8.x, or 23.x when there is no ruling).
    pub clause: Clause,
    pub red: Pattern,
    pub black: Pattern,
}

impl Verdict {
    /// The side that must vary (or has lost), if any.
    pub fn must_vary(&self) -> Option<Side> {
        self.outcome.loser()
    }

    /// The article that makes the losing side's pattern forbidden (24.9–24.13).
    pub fn basis(&self) -> Option<Clause> {
        self.must_vary().map(|side| self.pattern(side).article())
    }

    /// One-sided perpetual check loses at once; every other forbidden side gets two rounds to
    /// vary first (23.5.1, 23.5.2).
    pub fn is_immediate(&self) -> bool {
        self.clause == Clause::Art25_1
    }

    /// The pattern of `side`.
    pub fn pattern(&self, side: Side) -> &Pattern {
        match side {
            Side::Red => &self.red,
            Side::Black => &self.black,
        }
    }
}

/// The occurrence of the repeated position at which Jiangjun's referee rules: the third, as
/// engines and online referees do (rules.md, "When the referee rules"); fewer is 23.3.
pub const RULING_OCCURRENCE: u32 = 3;

/// Sums up one side's moves over the cycle (24.9–24.14). `moves` is one period of the cycle;
/// it never holds a capture (a capture cannot repeat; 23.2 and 24.9 leave a capturing first
/// move out).
pub fn classify(rules: RuleSet, moves: &[MoveNatures]) -> Pattern {
    let p = rules.profile();
    if moves.is_empty() {
        return Pattern::Allowed;
    }
    let classes: Vec<NatureClass> = moves.iter().map(|m| weigh(p, m)).collect();
    let all = |class: NatureClass| classes.iter().all(|c| *c == class);

    if all(NatureClass::Check) {
        return Pattern::PerpetualCheck;
    }
    let chasing = moves.iter().zip(&classes).all(|(m, c)| {
        m.chases().next().is_some() && (p.chase_on_check || *c == NatureClass::Chase)
    });
    if chasing {
        if !p.same_piece {
            return Pattern::PerpetualChase(ChaseSummary::over(moves.iter(), |_| true));
        }
        let common = common_pieces(moves);
        if !common.is_empty() {
            let keep = |t: &ChaseTarget| common.contains(&t.piece);
            return Pattern::PerpetualChase(ChaseSummary::over(moves.iter(), keep));
        }
    }
    if all(NatureClass::MateThreat) {
        return Pattern::PerpetualMateThreat;
    }
    if p.mixed_forbidden && !classes.contains(&NatureClass::Idle) {
        let check = classes.contains(&NatureClass::Check);
        let mate = classes.contains(&NatureClass::MateThreat);
        let chase_moves = moves
            .iter()
            .zip(&classes)
            .filter(|(_, c)| **c == NatureClass::Chase)
            .map(|(m, _)| m);
        let summary = ChaseSummary::over(chase_moves, |_| true);
        let chase = classes.contains(&NatureClass::Chase);
        return match (check, mate, chase) {
            (true, true, false) => Pattern::CheckMate,
            (true, false, true) => Pattern::CheckChase(summary),
            (false, true, true) => Pattern::MateChase(summary),
            (true, true, true) => Pattern::CheckMateChase(summary),
            // One kind only is covered above, except chases of different pieces under a
            // same-piece profile: those are not perpetual.
            _ => Pattern::Allowed,
        };
    }
    Pattern::Allowed
}

/// The heaviest nature of a move (26.4) under profile `p`.
fn weigh(p: &Profile, m: &MoveNatures) -> NatureClass {
    m.natures()
        .iter()
        .map(|n| match n.class() {
            NatureClass::MateThreat if !p.mate_threats => NatureClass::Idle,
            class => class,
        })
        .max()
        .unwrap_or(NatureClass::Idle)
}

/// The pieces chased on every move of the cycle.
fn common_pieces(moves: &[MoveNatures]) -> Vec<PieceId> {
    let mut iter = moves.iter();
    let mut common: Vec<PieceId> = match iter.next() {
        Some(first) => first.chases().map(|t| t.piece).collect(),
        None => return Vec::new(),
    };
    for m in iter {
        common.retain(|id| m.chases().any(|t| t.piece == *id));
    }
    common.sort_unstable();
    common.dedup();
    common
}

/// Rules on one period of a repeated cycle, given each side's moves in it. Search uses this
/// directly (a repetition inside the tree is judged at once); the game referee goes through
/// [`adjudicate`].
pub fn judge(rules: RuleSet, red: &[MoveNatures], black: &[MoveNatures]) -> Verdict {
    let red_pattern = classify(rules, red);
    let black_pattern = classify(rules, black);
    let (outcome, clause) = if red.is_empty() || black.is_empty() {
        // 23.1: a repeated position is a cycle of moves by both sides.
        (Outcome::None, Clause::Art23_1)
    } else {
        decide(rules.profile(), &red_pattern, &black_pattern)
    };
    Verdict {
        outcome,
        clause,
        red: red_pattern,
        black: black_pattern,
    }
}

/// Rules at game level: only once the position has occurred [`RULING_OCCURRENCE`] times
/// (23.3: fewer repetitions get no ruling).
pub fn adjudicate(
    rules: RuleSet,
    occurrences: u32,
    red: &[MoveNatures],
    black: &[MoveNatures],
) -> Verdict {
    let verdict = judge(rules, red, black);
    if occurrences < RULING_OCCURRENCE {
        return Verdict {
            outcome: Outcome::None,
            clause: Clause::Art23_3,
            ..verdict
        };
    }
    verdict
}

/// Articles 25.1–25.4.
fn decide(p: &Profile, red: &Pattern, black: &Pattern) -> (Outcome, Clause) {
    // 25.1: "在任何情况下，均不允许单方面长将" — before anything else, whatever the other
    // side does (the seed's last example: the checking rook has no other move).
    match (
        *red == Pattern::PerpetualCheck,
        *black == Pattern::PerpetualCheck,
    ) {
        (true, false) => return (Outcome::RedLoses, Clause::Art25_1),
        (false, true) => return (Outcome::BlackLoses, Clause::Art25_1),
        _ => {}
    }
    match (red.is_forbidden(), black.is_forbidden()) {
        (false, false) => (Outcome::Draw, Clause::Art25_2),
        (true, false) => (Outcome::RedLoses, Clause::Art25_3),
        (false, true) => (Outcome::BlackLoses, Clause::Art25_3),
        // 25.4 → 26.8.
        (true, true) => both_forbidden(p, red, black),
    }
}

/// 26.8: both sides forbidden.
fn both_forbidden(p: &Profile, red: &Pattern, black: &Pattern) -> (Outcome, Clause) {
    if !p.tiebreaks {
        return (Outcome::Draw, Clause::Art26_8_4);
    }
    match (red.must_vary_26_8_1(), black.must_vary_26_8_1()) {
        (true, false) => (Outcome::RedLoses, Clause::Art26_8_1),
        (false, true) => (Outcome::BlackLoses, Clause::Art26_8_1),
        // Both on the list: no one-sided duty; 图3 (长捉无根子 against 长捉车) is a draw.
        // Only the joint-chase tie-breaks remain.
        (true, true) => {
            if let Some(side) = alone_against_joint(red, black, |s| s.rook) {
                (Outcome::loses(side), Clause::Art26_8_2)
            } else if let Some(side) = alone_against_joint(red, black, |s| s.unprotected) {
                (Outcome::loses(side), Clause::Art26_8_3)
            } else {
                (Outcome::Draw, Clause::Art26_8_4)
            }
        }
        (false, false) => (Outcome::Draw, Clause::Art26_8_4),
    }
}

/// 26.8.2/26.8.3: "凡单方长捉车（无根子），对方联合捉车（无根子），前者变着". Returns the side
/// that chases alone when the other chases jointly, both being 长捉.
fn alone_against_joint(
    red: &Pattern,
    black: &Pattern,
    coverage: fn(&ChaseSummary) -> Coverage,
) -> Option<Side> {
    let (Pattern::PerpetualChase(r), Pattern::PerpetualChase(b)) = (red, black) else {
        return None;
    };
    match (coverage(r), coverage(b)) {
        (Coverage::Single, Coverage::Joint) => Some(Side::Red),
        (Coverage::Joint, Coverage::Single) => Some(Side::Black),
        _ => None,
    }
}

/// What the natural-limit check needs to know about one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyRecord {
    /// The side that made the move.
    pub side: Side,
    /// The move captured (resets the count, 4.2.4).
    pub capture: bool,
    /// The move gave check (22.2).
    pub check: bool,
}

impl PlyRecord {
    /// A move without capture or check.
    pub const fn quiet(side: Side) -> Self {
        PlyRecord {
            side,
            capture: false,
            check: false,
        }
    }

    /// A checking move without capture.
    pub const fn check(side: Side) -> Self {
        PlyRecord {
            side,
            capture: false,
            check: true,
        }
    }

    /// A capture.
    pub const fn capture(side: Side) -> Self {
        PlyRecord {
            side,
            capture: true,
            check: false,
        }
    }
}

/// The natural-limit count behind a ruling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitStatus {
    /// [`Outcome::Draw`] once the limit is reached, else [`Outcome::None`].
    pub outcome: Outcome,
    /// 4.2.4, or 22.2 when discounted checks are what keeps the count short.
    pub clause: Clause,
    /// Plies since the last capture.
    pub window: u32,
    /// Plies discounted for checks beyond the allowance (two per check: its round).
    pub excluded: u32,
    /// `window - excluded`.
    pub counted: u32,
    /// Plies needed.
    pub needed: u32,
}

/// The natural limit under `rules`' default [`LimitRule`]. `carried` is the number of plies
/// without capture before `history` starts (a FEN's half-move clock; their checks are
/// unknown and not discounted); `history` is the game's plies, oldest first. `claimant` is
/// the side asking for the draw (22.2), or `None` for an automatic referee. Mate on the board
/// takes precedence (4.1.1); the caller checks that first.
pub fn natural_limit(
    rules: RuleSet,
    carried: u32,
    history: &[PlyRecord],
    claimant: Option<Side>,
) -> LimitStatus {
    natural_limit_with(rules.profile().limit, carried, history, claimant)
}

/// [`natural_limit`] under an explicit [`LimitRule`] (e.g. a lowered limit, 4.2.4).
pub fn natural_limit_with(
    rule: LimitRule,
    carried: u32,
    history: &[PlyRecord],
    claimant: Option<Side>,
) -> LimitStatus {
    let (plies, carried) = match history.iter().rposition(|p| p.capture) {
        Some(i) => (history.get(i + 1..).unwrap_or_default(), 0),
        None => (history, carried),
    };
    let checks = |side: Side| {
        let n = plies.iter().filter(|p| p.side == side && p.check).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    };
    let excess = |side: Side| checks(side).saturating_sub(rule.counted_checks);
    let (red, black) = (excess(Side::Red), excess(Side::Black));
    let discounted = match (rule.scope, claimant) {
        (CheckScope::Claimant, Some(side)) => excess(side),
        // Either side may claim; the claim that counts most is upheld.
        (CheckScope::Claimant, None) => red.min(black),
        (CheckScope::BusiestSide, _) => red.max(black),
    };
    let window = carried.saturating_add(u32::try_from(plies.len()).unwrap_or(u32::MAX));
    let excluded = discounted.saturating_mul(2).min(window);
    let counted = window.saturating_sub(excluded);
    let (outcome, clause) = if counted >= rule.plies {
        (Outcome::Draw, Clause::Art4_2_4)
    } else if excluded > 0 && window >= rule.plies {
        (Outcome::None, Clause::Art22_2)
    } else {
        (Outcome::None, Clause::Art4_2_4)
    };
    LimitStatus {
        outcome,
        clause,
        window,
        excluded,
        counted,
        needed: rule.plies,
    }
}

impl fmt::Display for Clause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.number())
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::RedLoses => "red_loses",
            Outcome::BlackLoses => "black_loses",
            Outcome::Draw => "draw",
            Outcome::None => "no_verdict_yet",
        })
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name(), self.article())
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} by {}: red {}, black {}",
            self.outcome, self.clause, self.red, self.black
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::nature::{Chaser, IdleKind, Nature, PieceKind, Protection};
    use super::*;

    const CXA: RuleSet = RuleSet::Cxa2011;
    const AXF: RuleSet = RuleSet::Axf;

    fn target(id: u8, kind: PieceKind, protection: Protection) -> ChaseTarget {
        ChaseTarget::new(PieceId(id), kind, protection)
    }
    /// A chase of rook `id` (protected: the rook is what matters).
    fn rook(id: u8) -> ChaseTarget {
        target(id, PieceKind::Rook, Protection::Protected)
    }
    /// A chase of an unprotected horse `id`.
    fn loose(id: u8) -> ChaseTarget {
        target(id, PieceKind::Horse, Protection::Unprotected)
    }
    /// A chase of a protected horse `id` (e.g. by an elephant: forbidden but not listed).
    fn guarded(id: u8) -> ChaseTarget {
        target(id, PieceKind::Horse, Protection::Protected)
    }
    fn z(targets: &[ChaseTarget]) -> MoveNatures {
        MoveNatures::chase(targets.to_vec())
    }
    fn k() -> MoveNatures {
        MoveNatures::check()
    }
    fn s() -> MoveNatures {
        MoveNatures::mate_threat()
    }
    fn x() -> MoveNatures {
        MoveNatures::idle(IdleKind::Plain)
    }
    fn both(rules: RuleSet, red: &[MoveNatures], black: &[MoveNatures]) -> (Outcome, Clause) {
        let v = judge(rules, red, black);
        (v.outcome, v.clause)
    }

    // ---- 25.1 -------------------------------------------------------------------------

    #[test]
    fn one_sided_perpetual_check_loses_25_1() {
        // The seed's last example: 车四平五(将) 将5平6 车五平四(将) 将6平5.
        for rules in [CXA, AXF] {
            let v = judge(rules, &[k(), k()], &[x(), x()]);
            assert_eq!((v.outcome, v.clause), (Outcome::RedLoses, Clause::Art25_1));
            assert!(v.is_immediate());
            assert_eq!(v.basis(), Some(Clause::Art24_9));
            assert_eq!(
                both(rules, &[x(), x()], &[k(), k()]),
                (Outcome::BlackLoses, Clause::Art25_1)
            );
        }
    }

    #[test]
    fn perpetual_check_against_perpetual_chase_checker_loses_25_1() {
        for rules in [CXA, AXF] {
            assert_eq!(
                both(rules, &[z(&[rook(1)]), z(&[rook(1)])], &[k(), k()]),
                (Outcome::BlackLoses, Clause::Art25_1)
            );
        }
    }

    #[test]
    fn check_that_also_chases_still_checks_26_4() {
        let red = [k().with(Nature::Chase(vec![rook(1)])), k()];
        for rules in [CXA, AXF] {
            assert_eq!(classify(rules, &red), Pattern::PerpetualCheck);
        }
    }

    // ---- 25.2 -------------------------------------------------------------------------

    #[test]
    fn both_allowed_draw_25_2() {
        // 图5: 车七退五(闲) 将5退1(闲) 车七进五(将) 将5进1(闲) — 一将一闲 against 两闲.
        let red = [MoveNatures::idle(IdleKind::UnchangedAttack), k()];
        for rules in [CXA, AXF] {
            let v = judge(rules, &red, &[x(), x()]);
            assert_eq!((v.outcome, v.clause), (Outcome::Draw, Clause::Art25_2));
            assert_eq!(v.red, Pattern::Allowed);
            assert_eq!(v.basis(), None);
        }
        // 一捉一闲 is allowed too.
        assert_eq!(
            both(CXA, &[z(&[loose(1)]), x()], &[x(), x()]),
            (Outcome::Draw, Clause::Art25_2)
        );
    }

    #[test]
    fn king_and_pawn_may_chase_26_1() {
        let by_king = z(&[loose(1).by(Chaser::KingAlone)]);
        let by_pawn = z(&[rook(2).by(Chaser::PawnAlone)]);
        for rules in [CXA, AXF] {
            assert_eq!(
                both(rules, &[by_king.clone(), by_king.clone()], &[x(), x()]),
                (Outcome::Draw, Clause::Art25_2)
            );
            assert_eq!(
                both(rules, &[x(), x()], &[by_pawn.clone(), by_pawn.clone()]),
                (Outcome::Draw, Clause::Art25_2)
            );
        }
    }

    // ---- 25.3 -------------------------------------------------------------------------

    #[test]
    fn forbidden_against_allowed_25_3() {
        // 图4: 马四退六(捉) 象9进7(闲) 马六进四(捉) 象7退9(闲).
        let elephant = target(1, PieceKind::Elephant, Protection::Unprotected);
        for rules in [CXA, AXF] {
            let v = judge(rules, &[z(&[elephant]), z(&[elephant])], &[x(), x()]);
            assert_eq!((v.outcome, v.clause), (Outcome::RedLoses, Clause::Art25_3));
            assert_eq!(v.basis(), Some(Clause::Art24_11));
            assert!(!v.is_immediate());
        }
        // 图2: 马二退一(捉) 车9平8(兑) 马一进二(捉) 车8平9(捉) — red chases the rook twice,
        // black offers an exchange once and chases once.
        let black = [
            MoveNatures::idle(IdleKind::Exchange),
            z(&[target(9, PieceKind::Horse, Protection::Unprotected)]),
        ];
        for rules in [CXA, AXF] {
            assert_eq!(
                both(rules, &[z(&[rook(1)]), z(&[rook(1)])], &black),
                (Outcome::RedLoses, Clause::Art25_3)
            );
        }
    }

    // ---- 24.13 mixed cycles -----------------------------------------------------------

    #[test]
    fn check_and_chase_is_forbidden_24_13() {
        let red = [k(), z(&[loose(1)]), k(), z(&[loose(1)])];
        let black = [x(), x(), x(), x()];
        let v = judge(CXA, &red, &black);
        assert_eq!((v.outcome, v.clause), (Outcome::RedLoses, Clause::Art25_3));
        assert!(matches!(v.red, Pattern::CheckChase(_)));
        assert_eq!(v.basis(), Some(Clause::Art24_13));
        // pyffish: a plain check breaks the chase → draw.
        assert_eq!(both(AXF, &red, &black), (Outcome::Draw, Clause::Art25_2));
    }

    #[test]
    fn check_and_mate_threat_is_forbidden_24_13() {
        let v = judge(CXA, &[k(), s()], &[x(), x()]);
        assert_eq!((v.outcome, v.clause), (Outcome::RedLoses, Clause::Art25_3));
        assert_eq!(v.red, Pattern::CheckMate);
        assert_eq!(both(AXF, &[k(), s()], &[x(), x()]).0, Outcome::Draw);
    }

    #[test]
    fn mate_threat_and_chase_is_forbidden_24_13() {
        let v = judge(CXA, &[x(), x()], &[s(), z(&[guarded(1)])]);
        assert_eq!(
            (v.outcome, v.clause),
            (Outcome::BlackLoses, Clause::Art25_3)
        );
        assert!(matches!(v.black, Pattern::MateChase(_)));
        assert_eq!(v.basis(), Some(Clause::Art24_13));
        assert_eq!(
            both(AXF, &[x(), x()], &[s(), z(&[guarded(1)])]).0,
            Outcome::Draw
        );
    }

    #[test]
    fn check_mate_and_chase_all_attacking_is_forbidden_24_13() {
        let red = [k(), s(), z(&[guarded(1)])];
        assert!(matches!(classify(CXA, &red), Pattern::CheckMateChase(_)));
        assert_eq!(
            both(CXA, &red, &[x(), x(), x()]),
            (Outcome::RedLoses, Clause::Art25_3)
        );
    }

    #[test]
    fn perpetual_mate_threat_is_forbidden_24_10() {
        let v = judge(CXA, &[s(), s()], &[x(), x()]);
        assert_eq!((v.outcome, v.clause), (Outcome::RedLoses, Clause::Art25_3));
        assert_eq!(v.basis(), Some(Clause::Art24_10));
        // pyffish does not detect 杀.
        assert_eq!(
            both(AXF, &[s(), s()], &[x(), x()]),
            (Outcome::Draw, Clause::Art25_2)
        );
    }

    #[test]
    fn chase_of_several_pieces_is_perpetual_chase_24_11() {
        // 一捉车一捉无根子 / alternating rooks: 长捉 under the 2011 text, not for pyffish.
        let red = [z(&[rook(1)]), z(&[rook(2)])];
        assert_eq!(
            both(CXA, &red, &[x(), x()]),
            (Outcome::RedLoses, Clause::Art25_3)
        );
        assert_eq!(
            both(AXF, &red, &[x(), x()]),
            (Outcome::Draw, Clause::Art25_2)
        );
        // The same piece on every move is 长捉 for both.
        let red = [z(&[rook(1), loose(3)]), z(&[rook(1)])];
        assert_eq!(
            both(AXF, &red, &[x(), x()]),
            (Outcome::RedLoses, Clause::Art25_3)
        );
    }

    #[test]
    fn chase_on_a_checking_move_counts_only_for_axf() {
        // fsf_check_plus_chase_same_target: 将兼捉 then 捉 of the same cannon.
        let cannon = target(4, PieceKind::Cannon, Protection::Unprotected);
        let black = [k().with(Nature::Chase(vec![cannon])), z(&[cannon])];
        let cxa = judge(CXA, &[x(), x()], &black);
        assert!(matches!(cxa.black, Pattern::CheckChase(_)));
        assert_eq!(cxa.outcome, Outcome::BlackLoses);
        let axf = judge(AXF, &[x(), x()], &black);
        assert!(matches!(axf.black, Pattern::PerpetualChase(_)));
        assert_eq!(axf.outcome, Outcome::BlackLoses);
    }

    // ---- 26.8 -------------------------------------------------------------------------

    #[test]
    fn listed_side_varies_26_8_1() {
        let elephant_on_horse = [z(&[guarded(5)]), z(&[guarded(5)])];
        // 长捉车 against 长捉 of a protected piece.
        let v = judge(CXA, &[z(&[rook(1)]), z(&[rook(1)])], &elephant_on_horse);
        assert_eq!(
            (v.outcome, v.clause),
            (Outcome::RedLoses, Clause::Art26_8_1)
        );
        // 长捉无根子 against it.
        assert_eq!(
            both(CXA, &elephant_on_horse, &[z(&[loose(1)]), z(&[loose(1)])]),
            (Outcome::BlackLoses, Clause::Art26_8_1)
        );
        // 长杀 against it.
        assert_eq!(
            both(CXA, &[s(), s()], &elephant_on_horse),
            (Outcome::RedLoses, Clause::Art26_8_1)
        );
        // 一将一杀 against it.
        assert_eq!(
            both(CXA, &[k(), s()], &elephant_on_horse),
            (Outcome::RedLoses, Clause::Art26_8_1)
        );
        // 一将一捉车 and 一杀一捉无根子 against it.
        assert_eq!(
            both(CXA, &[k(), z(&[rook(1)])], &elephant_on_horse),
            (Outcome::RedLoses, Clause::Art26_8_1)
        );
        assert_eq!(
            both(CXA, &elephant_on_horse, &[s(), z(&[loose(2)])]),
            (Outcome::BlackLoses, Clause::Art26_8_1)
        );
        // 一捉车一捉无根子 against it.
        assert_eq!(
            both(CXA, &[z(&[rook(1)]), z(&[loose(2)])], &elephant_on_horse),
            (Outcome::RedLoses, Clause::Art26_8_1)
        );
        // 一将一捉 of a protected piece is forbidden but not listed.
        assert_eq!(
            both(
                CXA,
                &[k(), z(&[guarded(1)])],
                &[z(&[rook(7)]), z(&[rook(7)])]
            ),
            (Outcome::BlackLoses, Clause::Art26_8_1)
        );
        // pyffish has no tie-breaks.
        assert_eq!(
            both(AXF, &[z(&[rook(1)]), z(&[rook(1)])], &elephant_on_horse),
            (Outcome::Draw, Clause::Art26_8_4)
        );
    }

    #[test]
    fn false_root_counts_as_unprotected_26_8_1() {
        let fake = target(1, PieceKind::Cannon, Protection::FalseRoot);
        assert_eq!(
            both(
                CXA,
                &[z(&[fake]), z(&[fake])],
                &[z(&[guarded(2)]), z(&[guarded(2)])]
            ),
            (Outcome::RedLoses, Clause::Art26_8_1)
        );
    }

    #[test]
    fn rook_chased_alone_against_joint_26_8_2() {
        let alone = [z(&[rook(1)]), z(&[rook(1)])];
        let joint = [z(&[rook(9).joint()]), z(&[rook(9).joint()])];
        assert_eq!(
            both(CXA, &alone, &joint),
            (Outcome::RedLoses, Clause::Art26_8_2)
        );
        assert_eq!(
            both(CXA, &joint, &alone),
            (Outcome::BlackLoses, Clause::Art26_8_2)
        );
        assert_eq!(
            both(AXF, &alone, &joint),
            (Outcome::Draw, Clause::Art26_8_4)
        );
        // Both joint: no special case.
        assert_eq!(
            both(CXA, &joint, &joint),
            (Outcome::Draw, Clause::Art26_8_4)
        );
    }

    #[test]
    fn unprotected_chased_alone_against_joint_26_8_3() {
        let alone = [z(&[loose(1)]), z(&[loose(1)])];
        let joint = [z(&[loose(9).joint()]), z(&[loose(9).joint()])];
        assert_eq!(
            both(CXA, &alone, &joint),
            (Outcome::RedLoses, Clause::Art26_8_3)
        );
        assert_eq!(
            both(CXA, &joint, &alone),
            (Outcome::BlackLoses, Clause::Art26_8_3)
        );
        assert_eq!(
            both(AXF, &joint, &alone),
            (Outcome::Draw, Clause::Art26_8_4)
        );
        // Mixed joint and single chases on one side: no special case.
        let mixed = [z(&[loose(9).joint()]), z(&[loose(9)])];
        assert_eq!(
            both(CXA, &alone, &mixed),
            (Outcome::Draw, Clause::Art26_8_4)
        );
    }

    #[test]
    fn otherwise_both_forbidden_draw_26_8_4() {
        // 图3: 长捉无根子 against 长捉车 (by a series of checks): both listed → draw.
        let v = judge(
            CXA,
            &[z(&[loose(1)]), z(&[loose(1)])],
            &[z(&[rook(2)]), z(&[rook(2)])],
        );
        assert_eq!((v.outcome, v.clause), (Outcome::Draw, Clause::Art26_8_4));
        // Mutual perpetual check.
        for rules in [CXA, AXF] {
            assert_eq!(
                both(
                    rules,
                    &[k(), k()],
                    &[k(), k().with(Nature::Chase(vec![rook(3)]))]
                ),
                (Outcome::Draw, Clause::Art26_8_4)
            );
        }
        // Neither listed: chases of protected pieces on both sides.
        assert_eq!(
            both(
                CXA,
                &[z(&[guarded(1)]), z(&[guarded(1)])],
                &[z(&[guarded(2)])]
            ),
            (Outcome::Draw, Clause::Art26_8_4)
        );
        // 长杀 against 长捉无根子: both listed (ora_D34 under the 2011 text).
        assert_eq!(
            both(CXA, &[z(&[loose(1)]), z(&[loose(1)])], &[s(), s()]),
            (Outcome::Draw, Clause::Art26_8_4)
        );
        // pyffish: the mate threats are idle, the chaser loses.
        assert_eq!(
            both(AXF, &[z(&[loose(1)]), z(&[loose(1)])], &[s(), s()]),
            (Outcome::RedLoses, Clause::Art25_3)
        );
    }

    // ---- repetition count -------------------------------------------------------------

    #[test]
    fn no_ruling_before_the_third_occurrence_23_3() {
        let v = adjudicate(CXA, 2, &[k(), k()], &[x(), x()]);
        assert_eq!((v.outcome, v.clause), (Outcome::None, Clause::Art23_3));
        assert_eq!(v.red, Pattern::PerpetualCheck);
        let v = adjudicate(CXA, RULING_OCCURRENCE, &[k(), k()], &[x(), x()]);
        assert_eq!((v.outcome, v.clause), (Outcome::RedLoses, Clause::Art25_1));
    }

    #[test]
    fn a_cycle_needs_both_sides_23_1() {
        let v = judge(CXA, &[k()], &[]);
        assert_eq!((v.outcome, v.clause), (Outcome::None, Clause::Art23_1));
    }

    #[test]
    fn coverage_summary() {
        let s = ChaseSummary::over([z(&[rook(1)]), z(&[rook(1).joint()])].iter(), |_| true);
        assert_eq!(s.rook, Coverage::Mixed);
        assert_eq!(s.unprotected, Coverage::Partial);
        assert!(s.rook_or_unprotected);
        let s = ChaseSummary::over([z(&[rook(1)]), z(&[guarded(2)])].iter(), |_| true);
        assert_eq!(s.rook, Coverage::Partial);
        assert!(!s.rook_or_unprotected);
        let s = ChaseSummary::over(std::iter::empty(), |_| true);
        assert!(!s.rook_or_unprotected);
    }

    #[test]
    fn the_table_is_the_only_difference() {
        assert_eq!(RuleSet::default(), CXA);
        let (c, a) = (CXA.profile(), AXF.profile());
        assert!(c.mate_threats && !a.mate_threats);
        assert!(!c.chase_on_check && a.chase_on_check);
        assert!(!c.same_piece && a.same_piece);
        assert!(c.mixed_forbidden && !a.mixed_forbidden);
        assert!(c.tiebreaks && !a.tiebreaks);
        assert_eq!(c.limit, LimitRule::CXA2011);
        assert_eq!(a.limit, LimitRule::PYFFISH);
    }

    #[test]
    fn verdict_prints_its_clauses() {
        let v = judge(CXA, &[k(), z(&[loose(1)])], &[x(), x()]);
        assert_eq!(
            v.to_string(),
            "red_loses by 25.3: red 一将一捉 (24.13), black 允许着法 (24.14)"
        );
    }

    // ---- natural limit ----------------------------------------------------------------

    /// `n` plies alternating red/black from red, all quiet.
    fn quiet(n: usize) -> Vec<PlyRecord> {
        (0..n)
            .map(|i| PlyRecord::quiet(if i % 2 == 0 { Side::Red } else { Side::Black }))
            .collect()
    }

    #[test]
    fn sixty_rounds_without_capture_draw_4_2_4() {
        let s = natural_limit(CXA, 0, &quiet(120), None);
        assert_eq!((s.outcome, s.clause), (Outcome::Draw, Clause::Art4_2_4));
        assert_eq!((s.window, s.counted, s.needed), (120, 120, 120));
        assert_eq!(
            natural_limit(CXA, 0, &quiet(119), None).outcome,
            Outcome::None
        );
        // A FEN clock carries plies in (own_natural_limit_120_plies: 118 + 2).
        assert_eq!(
            natural_limit(CXA, 118, &quiet(2), None).outcome,
            Outcome::Draw
        );
        // pyffish draws at 100 plies.
        assert_eq!(
            natural_limit(AXF, 0, &quiet(100), None).outcome,
            Outcome::Draw
        );
        assert_eq!(
            natural_limit(AXF, 0, &quiet(99), None).outcome,
            Outcome::None
        );
        // Organisers may lower the limit.
        let forty = LimitRule::CXA2011.with_rounds(40);
        assert_eq!(
            natural_limit_with(forty, 0, &quiet(80), None).outcome,
            Outcome::Draw
        );
    }

    #[test]
    fn a_capture_restarts_the_count_4_2_4() {
        let mut h = quiet(130);
        h[10] = PlyRecord::capture(Side::Red);
        let s = natural_limit(CXA, 500, &h, None);
        assert_eq!((s.window, s.outcome), (119, Outcome::None));
        h.push(PlyRecord::quiet(Side::Black));
        assert_eq!(natural_limit(CXA, 500, &h, None).outcome, Outcome::Draw);
        // A capture on the last ply leaves an empty window.
        let h = [PlyRecord::quiet(Side::Red), PlyRecord::capture(Side::Black)];
        assert_eq!(natural_limit(CXA, 500, &h, None).window, 0);
    }

    #[test]
    fn claimants_checks_count_for_ten_moves_22_2() {
        // 120 plies; red checks on 12 of its moves.
        let mut h = quiet(120);
        for i in 0..12 {
            h[4 * i] = PlyRecord::check(Side::Red);
        }
        // Red's claim: two checks beyond the tenth cost their two rounds.
        let s = natural_limit(CXA, 0, &h, Some(Side::Red));
        assert_eq!((s.outcome, s.clause), (Outcome::None, Clause::Art22_2));
        assert_eq!((s.excluded, s.counted), (4, 116));
        // Black's claim: red's checks are not black's.
        assert_eq!(
            natural_limit(CXA, 0, &h, Some(Side::Black)).outcome,
            Outcome::Draw
        );
        // Automatic referee: black could claim, so it is a draw.
        assert_eq!(natural_limit(CXA, 0, &h, None).outcome, Outcome::Draw);
        // Ten checks are free.
        let mut h = quiet(120);
        for i in 0..10 {
            h[4 * i] = PlyRecord::check(Side::Red);
        }
        assert_eq!(
            natural_limit(CXA, 0, &h, Some(Side::Red)).outcome,
            Outcome::Draw
        );
    }

    #[test]
    fn pyffish_discounts_the_busier_side() {
        let mut h = quiet(102);
        for i in 0..11 {
            h[2 * i + 1] = PlyRecord::check(Side::Black);
        }
        // Black's 11th check removes one round: 102 - 2 = 100, still a draw.
        let s = natural_limit(AXF, 0, &h, Some(Side::Red));
        assert_eq!((s.excluded, s.counted, s.outcome), (2, 100, Outcome::Draw));
        h[43] = PlyRecord::check(Side::Black);
        let s = natural_limit(AXF, 0, &h, None);
        assert_eq!((s.excluded, s.outcome), (4, Outcome::None));
    }
}
