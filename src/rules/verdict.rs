//! From the natures of one repeated cycle to a ruling (棋例 23.5, 24.9–24.14, 25, 26.8). The
//! natural move limit is [`super::limit`]; the protocol's draw-and-resign policy, which is no
//! ruling, is `protocol::draw_resign`.
//!
//! Two steps, both pure:
//! 1. [`classify`] sums up one side's moves over the cycle as a [`Pattern`]: 长将, 长杀, 长捉,
//!    one of the mixed cycles of 24.13, or allowed.
//! 2. [`judge`] compares the two patterns: 25.1 first, then forbidden against allowed
//!    (25.2, 25.3), then the both-forbidden cases of 26.8.1–26.8.4.
//!
//! Where the Asian rules as Fairy-Stockfish/pyffish apply them ([`RuleSet::Axf`]) differ from
//! the 2011 Chinese text ([`RuleSet::Cxa2011`]), the difference is one row of [`PROFILES`](super::rule_set::PROFILES);
//! the code below reads the row and has no rule-set branches of its own.

use std::fmt;

use super::nature::{ChaseTarget, MoveNatures, NatureClass, PieceId};
use super::rule_set::{Profile, RuleSet};
use super::ruling::{ruling_word, Clause};
use crate::board::Color;
use crate::board::GameResult;

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

/// A ruling on one repeated cycle, with the clause that decides it and both sides' patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    pub outcome: Option<GameResult>,
    /// The deciding clause (25.x, 26.8.x, or 23.x when there is no ruling).
    pub clause: Clause,
    pub red: Pattern,
    pub black: Pattern,
}

impl Verdict {
    /// The side that must vary (or has lost), if any.
    pub fn must_vary(&self) -> Option<Color> {
        self.outcome.and_then(GameResult::loser)
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
    pub fn pattern(&self, side: Color) -> &Pattern {
        match side {
            Color::Red => &self.red,
            Color::Black => &self.black,
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
        (None, Clause::Art23_1)
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
            outcome: None,
            clause: Clause::Art23_3,
            ..verdict
        };
    }
    verdict
}

/// Articles 25.1–25.4.
fn decide(p: &Profile, red: &Pattern, black: &Pattern) -> (Option<GameResult>, Clause) {
    // 25.1: "在任何情况下，均不允许单方面长将" — before anything else, whatever the other
    // side does (the rules' last worked example: the checking rook has no other move).
    match (
        *red == Pattern::PerpetualCheck,
        *black == Pattern::PerpetualCheck,
    ) {
        (true, false) => return (Some(GameResult::BlackWins), Clause::Art25_1),
        (false, true) => return (Some(GameResult::RedWins), Clause::Art25_1),
        _ => {}
    }
    match (red.is_forbidden(), black.is_forbidden()) {
        (false, false) => (Some(GameResult::Draw), Clause::Art25_2),
        (true, false) => (Some(GameResult::BlackWins), Clause::Art25_3),
        (false, true) => (Some(GameResult::RedWins), Clause::Art25_3),
        // 25.4 → 26.8.
        (true, true) => both_forbidden(p, red, black),
    }
}

/// 26.8: both sides forbidden.
fn both_forbidden(p: &Profile, red: &Pattern, black: &Pattern) -> (Option<GameResult>, Clause) {
    if !p.tiebreaks {
        return (Some(GameResult::Draw), Clause::Art26_8_4);
    }
    match (red.must_vary_26_8_1(), black.must_vary_26_8_1()) {
        (true, false) => (Some(GameResult::BlackWins), Clause::Art26_8_1),
        (false, true) => (Some(GameResult::RedWins), Clause::Art26_8_1),
        // Both on the list: no one-sided duty; 图3 (长捉无根子 against 长捉车) is a draw.
        // Only the joint-chase tie-breaks remain.
        (true, true) => {
            if let Some(side) = alone_against_joint(red, black, |s| s.rook) {
                (Some(GameResult::loss_for(side)), Clause::Art26_8_2)
            } else if let Some(side) = alone_against_joint(red, black, |s| s.unprotected) {
                (Some(GameResult::loss_for(side)), Clause::Art26_8_3)
            } else {
                (Some(GameResult::Draw), Clause::Art26_8_4)
            }
        }
        (false, false) => (Some(GameResult::Draw), Clause::Art26_8_4),
    }
}

/// 26.8.2/26.8.3: "凡单方长捉车（无根子），对方联合捉车（无根子），前者变着". Returns the side
/// that chases alone when the other chases jointly, both being 长捉.
fn alone_against_joint(
    red: &Pattern,
    black: &Pattern,
    coverage: fn(&ChaseSummary) -> Coverage,
) -> Option<Color> {
    let (Pattern::PerpetualChase(r), Pattern::PerpetualChase(b)) = (red, black) else {
        return None;
    };
    match (coverage(r), coverage(b)) {
        (Coverage::Single, Coverage::Joint) => Some(Color::Red),
        (Coverage::Joint, Coverage::Single) => Some(Color::Black),
        _ => None,
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
            ruling_word(self.outcome),
            self.clause,
            self.red,
            self.black
        )
    }
}

#[cfg(test)]
mod tests {
    use super::super::nature::{Chaser, IdleKind, Nature, Protection};
    use super::*;
    use crate::board::PieceKind;

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
    fn both(
        rules: RuleSet,
        red: &[MoveNatures],
        black: &[MoveNatures],
    ) -> (Option<GameResult>, Clause) {
        let v = judge(rules, red, black);
        (v.outcome, v.clause)
    }

    // ---- 25.1 -------------------------------------------------------------------------

    #[test]
    fn one_sided_perpetual_check_loses_25_1() {
        // The 2011 rules' last worked example: 车四平五(将) 将5平6 车五平四(将) 将6平5.
        for rules in [CXA, AXF] {
            let v = judge(rules, &[k(), k()], &[x(), x()]);
            assert_eq!(
                (v.outcome, v.clause),
                (Some(GameResult::BlackWins), Clause::Art25_1)
            );
            assert!(v.is_immediate());
            assert_eq!(v.basis(), Some(Clause::Art24_9));
            assert_eq!(
                both(rules, &[x(), x()], &[k(), k()]),
                (Some(GameResult::RedWins), Clause::Art25_1)
            );
        }
    }

    #[test]
    fn perpetual_check_against_perpetual_chase_checker_loses_25_1() {
        for rules in [CXA, AXF] {
            assert_eq!(
                both(rules, &[z(&[rook(1)]), z(&[rook(1)])], &[k(), k()]),
                (Some(GameResult::RedWins), Clause::Art25_1)
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
            assert_eq!(
                (v.outcome, v.clause),
                (Some(GameResult::Draw), Clause::Art25_2)
            );
            assert_eq!(v.red, Pattern::Allowed);
            assert_eq!(v.basis(), None);
        }
        // 一捉一闲 is allowed too.
        assert_eq!(
            both(CXA, &[z(&[loose(1)]), x()], &[x(), x()]),
            (Some(GameResult::Draw), Clause::Art25_2)
        );
    }

    #[test]
    fn king_and_pawn_may_chase_26_1() {
        let by_king = z(&[loose(1).by(Chaser::KingAlone)]);
        let by_pawn = z(&[rook(2).by(Chaser::PawnAlone)]);
        for rules in [CXA, AXF] {
            assert_eq!(
                both(rules, &[by_king.clone(), by_king.clone()], &[x(), x()]),
                (Some(GameResult::Draw), Clause::Art25_2)
            );
            assert_eq!(
                both(rules, &[x(), x()], &[by_pawn.clone(), by_pawn.clone()]),
                (Some(GameResult::Draw), Clause::Art25_2)
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
            assert_eq!(
                (v.outcome, v.clause),
                (Some(GameResult::BlackWins), Clause::Art25_3)
            );
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
                (Some(GameResult::BlackWins), Clause::Art25_3)
            );
        }
    }

    // ---- 24.13 mixed cycles -----------------------------------------------------------

    #[test]
    fn check_and_chase_is_forbidden_24_13() {
        let red = [k(), z(&[loose(1)]), k(), z(&[loose(1)])];
        let black = [x(), x(), x(), x()];
        let v = judge(CXA, &red, &black);
        assert_eq!(
            (v.outcome, v.clause),
            (Some(GameResult::BlackWins), Clause::Art25_3)
        );
        assert!(matches!(v.red, Pattern::CheckChase(_)));
        assert_eq!(v.basis(), Some(Clause::Art24_13));
        // pyffish: a plain check breaks the chase → draw.
        assert_eq!(
            both(AXF, &red, &black),
            (Some(GameResult::Draw), Clause::Art25_2)
        );
    }

    #[test]
    fn check_and_mate_threat_is_forbidden_24_13() {
        let v = judge(CXA, &[k(), s()], &[x(), x()]);
        assert_eq!(
            (v.outcome, v.clause),
            (Some(GameResult::BlackWins), Clause::Art25_3)
        );
        assert_eq!(v.red, Pattern::CheckMate);
        assert_eq!(
            both(AXF, &[k(), s()], &[x(), x()]).0,
            Some(GameResult::Draw)
        );
    }

    #[test]
    fn mate_threat_and_chase_is_forbidden_24_13() {
        let v = judge(CXA, &[x(), x()], &[s(), z(&[guarded(1)])]);
        assert_eq!(
            (v.outcome, v.clause),
            (Some(GameResult::RedWins), Clause::Art25_3)
        );
        assert!(matches!(v.black, Pattern::MateChase(_)));
        assert_eq!(v.basis(), Some(Clause::Art24_13));
        assert_eq!(
            both(AXF, &[x(), x()], &[s(), z(&[guarded(1)])]).0,
            Some(GameResult::Draw)
        );
    }

    #[test]
    fn check_mate_and_chase_all_attacking_is_forbidden_24_13() {
        let red = [k(), s(), z(&[guarded(1)])];
        assert!(matches!(classify(CXA, &red), Pattern::CheckMateChase(_)));
        assert_eq!(
            both(CXA, &red, &[x(), x(), x()]),
            (Some(GameResult::BlackWins), Clause::Art25_3)
        );
    }

    #[test]
    fn perpetual_mate_threat_is_forbidden_24_10() {
        let v = judge(CXA, &[s(), s()], &[x(), x()]);
        assert_eq!(
            (v.outcome, v.clause),
            (Some(GameResult::BlackWins), Clause::Art25_3)
        );
        assert_eq!(v.basis(), Some(Clause::Art24_10));
        // pyffish does not detect 杀.
        assert_eq!(
            both(AXF, &[s(), s()], &[x(), x()]),
            (Some(GameResult::Draw), Clause::Art25_2)
        );
    }

    #[test]
    fn chase_of_several_pieces_is_perpetual_chase_24_11() {
        // 一捉车一捉无根子 / alternating rooks: 长捉 under the 2011 text, not for pyffish.
        let red = [z(&[rook(1)]), z(&[rook(2)])];
        assert_eq!(
            both(CXA, &red, &[x(), x()]),
            (Some(GameResult::BlackWins), Clause::Art25_3)
        );
        assert_eq!(
            both(AXF, &red, &[x(), x()]),
            (Some(GameResult::Draw), Clause::Art25_2)
        );
        // The same piece on every move is 长捉 for both.
        let red = [z(&[rook(1), loose(3)]), z(&[rook(1)])];
        assert_eq!(
            both(AXF, &red, &[x(), x()]),
            (Some(GameResult::BlackWins), Clause::Art25_3)
        );
    }

    #[test]
    fn chase_on_a_checking_move_counts_only_for_axf() {
        // fsf_check_plus_chase_same_target: 将兼捉 then 捉 of the same cannon.
        let cannon = target(4, PieceKind::Cannon, Protection::Unprotected);
        let black = [k().with(Nature::Chase(vec![cannon])), z(&[cannon])];
        let cxa = judge(CXA, &[x(), x()], &black);
        assert!(matches!(cxa.black, Pattern::CheckChase(_)));
        assert_eq!(cxa.outcome, Some(GameResult::RedWins));
        let axf = judge(AXF, &[x(), x()], &black);
        assert!(matches!(axf.black, Pattern::PerpetualChase(_)));
        assert_eq!(axf.outcome, Some(GameResult::RedWins));
    }

    // ---- 26.8 -------------------------------------------------------------------------

    #[test]
    fn listed_side_varies_26_8_1() {
        let elephant_on_horse = [z(&[guarded(5)]), z(&[guarded(5)])];
        // 长捉车 against 长捉 of a protected piece.
        let v = judge(CXA, &[z(&[rook(1)]), z(&[rook(1)])], &elephant_on_horse);
        assert_eq!(
            (v.outcome, v.clause),
            (Some(GameResult::BlackWins), Clause::Art26_8_1)
        );
        // 长捉无根子 against it.
        assert_eq!(
            both(CXA, &elephant_on_horse, &[z(&[loose(1)]), z(&[loose(1)])]),
            (Some(GameResult::RedWins), Clause::Art26_8_1)
        );
        // 长杀 against it.
        assert_eq!(
            both(CXA, &[s(), s()], &elephant_on_horse),
            (Some(GameResult::BlackWins), Clause::Art26_8_1)
        );
        // 一将一杀 against it.
        assert_eq!(
            both(CXA, &[k(), s()], &elephant_on_horse),
            (Some(GameResult::BlackWins), Clause::Art26_8_1)
        );
        // 一将一捉车 and 一杀一捉无根子 against it.
        assert_eq!(
            both(CXA, &[k(), z(&[rook(1)])], &elephant_on_horse),
            (Some(GameResult::BlackWins), Clause::Art26_8_1)
        );
        assert_eq!(
            both(CXA, &elephant_on_horse, &[s(), z(&[loose(2)])]),
            (Some(GameResult::RedWins), Clause::Art26_8_1)
        );
        // 一捉车一捉无根子 against it.
        assert_eq!(
            both(CXA, &[z(&[rook(1)]), z(&[loose(2)])], &elephant_on_horse),
            (Some(GameResult::BlackWins), Clause::Art26_8_1)
        );
        // 一将一捉 of a protected piece is forbidden but not listed.
        assert_eq!(
            both(
                CXA,
                &[k(), z(&[guarded(1)])],
                &[z(&[rook(7)]), z(&[rook(7)])]
            ),
            (Some(GameResult::RedWins), Clause::Art26_8_1)
        );
        // pyffish has no tie-breaks.
        assert_eq!(
            both(AXF, &[z(&[rook(1)]), z(&[rook(1)])], &elephant_on_horse),
            (Some(GameResult::Draw), Clause::Art26_8_4)
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
            (Some(GameResult::BlackWins), Clause::Art26_8_1)
        );
    }

    #[test]
    fn rook_chased_alone_against_joint_26_8_2() {
        let alone = [z(&[rook(1)]), z(&[rook(1)])];
        let joint = [z(&[rook(9).joint()]), z(&[rook(9).joint()])];
        assert_eq!(
            both(CXA, &alone, &joint),
            (Some(GameResult::BlackWins), Clause::Art26_8_2)
        );
        assert_eq!(
            both(CXA, &joint, &alone),
            (Some(GameResult::RedWins), Clause::Art26_8_2)
        );
        assert_eq!(
            both(AXF, &alone, &joint),
            (Some(GameResult::Draw), Clause::Art26_8_4)
        );
        // Both joint: no special case.
        assert_eq!(
            both(CXA, &joint, &joint),
            (Some(GameResult::Draw), Clause::Art26_8_4)
        );
    }

    #[test]
    fn unprotected_chased_alone_against_joint_26_8_3() {
        let alone = [z(&[loose(1)]), z(&[loose(1)])];
        let joint = [z(&[loose(9).joint()]), z(&[loose(9).joint()])];
        assert_eq!(
            both(CXA, &alone, &joint),
            (Some(GameResult::BlackWins), Clause::Art26_8_3)
        );
        assert_eq!(
            both(CXA, &joint, &alone),
            (Some(GameResult::RedWins), Clause::Art26_8_3)
        );
        assert_eq!(
            both(AXF, &joint, &alone),
            (Some(GameResult::Draw), Clause::Art26_8_4)
        );
        // Mixed joint and single chases on one side: no special case.
        let mixed = [z(&[loose(9).joint()]), z(&[loose(9)])];
        assert_eq!(
            both(CXA, &alone, &mixed),
            (Some(GameResult::Draw), Clause::Art26_8_4)
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
        assert_eq!(
            (v.outcome, v.clause),
            (Some(GameResult::Draw), Clause::Art26_8_4)
        );
        // Mutual perpetual check.
        for rules in [CXA, AXF] {
            assert_eq!(
                both(
                    rules,
                    &[k(), k()],
                    &[k(), k().with(Nature::Chase(vec![rook(3)]))]
                ),
                (Some(GameResult::Draw), Clause::Art26_8_4)
            );
        }
        // Neither listed: chases of protected pieces on both sides.
        assert_eq!(
            both(
                CXA,
                &[z(&[guarded(1)]), z(&[guarded(1)])],
                &[z(&[guarded(2)])]
            ),
            (Some(GameResult::Draw), Clause::Art26_8_4)
        );
        // 长杀 against 长捉无根子: both listed (ora_D34 under the 2011 text).
        assert_eq!(
            both(CXA, &[z(&[loose(1)]), z(&[loose(1)])], &[s(), s()]),
            (Some(GameResult::Draw), Clause::Art26_8_4)
        );
        // pyffish: the mate threats are idle, the chaser loses.
        assert_eq!(
            both(AXF, &[z(&[loose(1)]), z(&[loose(1)])], &[s(), s()]),
            (Some(GameResult::BlackWins), Clause::Art25_3)
        );
    }

    // ---- repetition count -------------------------------------------------------------

    #[test]
    fn no_ruling_before_the_third_occurrence_23_3() {
        let v = adjudicate(CXA, 2, &[k(), k()], &[x(), x()]);
        assert_eq!((v.outcome, v.clause), (None, Clause::Art23_3));
        assert_eq!(v.red, Pattern::PerpetualCheck);
        let v = adjudicate(CXA, RULING_OCCURRENCE, &[k(), k()], &[x(), x()]);
        assert_eq!(
            (v.outcome, v.clause),
            (Some(GameResult::BlackWins), Clause::Art25_1)
        );
    }

    #[test]
    fn a_cycle_needs_both_sides_23_1() {
        let v = judge(CXA, &[k()], &[]);
        assert_eq!((v.outcome, v.clause), (None, Clause::Art23_1));
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
    fn verdict_prints_its_clauses() {
        let v = judge(CXA, &[k(), z(&[loose(1)])], &[x(), x()]);
        assert_eq!(
            v.to_string(),
            "red_loses by 25.3: red 一将一捉 (24.13), black 允许着法 (24.14)"
        );
    }
}
