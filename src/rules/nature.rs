//! What one move *is* for the repetition rules: 将, 杀, 捉 or 闲 (棋例 24.1–24.8).
//!
//! These types are the contract between the board-dependent classifier (which looks at a
//! position and a move) and the verdict table in [`super::verdict`] (which looks only at
//! these descriptions). Nothing here knows about squares or move generation; sides and piece
//! kinds are the board's [`Color`](crate::board::Color) and [`PieceKind`] (art. 1.2 names the same seven kinds).
//!
//! A move may have several natures at once (a check that also chases, an exchange offer that
//! also chases). The classifier reports all of them in a [`MoveNatures`]; article 26.4 then
//! judges the move by the heaviest one ([`MoveNatures::heaviest`]).

use std::fmt;

use crate::board::PieceKind;

/// A stable identity for one piece over the whole cycle: it follows the piece as it moves, so
/// "the same piece was chased on every move" can be tested (the AXF reading of 长捉). The
/// classifier assigns it (e.g. from a per-side id board); any numbering that is consistent
/// within one cycle will do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId(pub u8);

/// How well the chased piece is protected (24.15, 24.16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protection {
    /// 有根子: an own piece can really recapture (hidden protection counts), 24.15.
    Protected,
    /// 无根子: nothing can recapture, 24.15.
    Unprotected,
    /// 假根: a protector that cannot actually recapture (pinned, or its recapture would be
    /// self-kill); "假根按无根子处理", 24.16.
    FalseRoot,
    /// 少根子: fewer protectors than attackers, or protection that is not sufficient, 24.15.
    /// Project reading (rules.md): chased like an unprotected piece.
    Underprotected,
}

impl Protection {
    /// Whether the target counts as 无根子 for 26.8.1/26.8.3: false roots by 24.16, too few
    /// roots by the project's reading of 24.15.
    pub const fn counts_as_unprotected(self) -> bool {
        !matches!(self, Protection::Protected)
    }
}

/// Who makes the chase, for the king/pawn exemption of 26.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chaser {
    /// Any piece other than a lone king or pawn, and also a king or pawn move that chases
    /// together with another piece or uncovers another piece's new chase (26.1.1).
    Piece,
    /// The king on its own: "帅（将）本身允许长捉", 26.1.
    KingAlone,
    /// A pawn on its own: "兵（卒）本身允许长捉", 26.1.
    PawnAlone,
}

/// One piece that a move chases (捉, 24.3): after the move it can be captured with a gain
/// that does not lose at once to mate.
///
/// The classifier only reports targets that really are chases after 24.3 and the special
/// articles: it drops targets that the exchange does not win (26.5, 26.6, 26.9, 26.10),
/// chases made by a king answering check (26.1.2) and incidental attacks on advisors or
/// elephants by a lone defender (26.2), reporting those moves as [`Nature::Idle`] instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChaseTarget {
    /// The chased piece (stable over the cycle).
    pub piece: PieceId,
    /// The chased piece's kind: a rook matters for 26.8.1/26.8.2.
    pub kind: PieceKind,
    /// Protection of the chased piece: 无根子 matters for 26.8.1/26.8.3.
    pub protection: Protection,
    /// 联合捉子 (24.17): only two or more pieces together can win it. Matters for 26.8.2/26.8.3.
    pub joint: bool,
    /// Who chases; a lone king or pawn may chase perpetually (26.1).
    pub by: Chaser,
    /// Won only by a series of checks starting with the mover's next move (24.3 连续将军得子,
    /// 抽吃): a check that forks, or a discovered check that lets another piece take.
    pub by_checks: bool,
    /// Won only through an exchange that begins elsewhere, typically taking off the chased
    /// piece's root first (24.3 "通过完整互吃交换后吃掉对方子且得子", 图4).
    pub by_exchange: bool,
}

impl ChaseTarget {
    /// A chase by an ordinary piece, not joint.
    pub const fn new(piece: PieceId, kind: PieceKind, protection: Protection) -> Self {
        ChaseTarget {
            piece,
            kind,
            protection,
            joint: false,
            by: Chaser::Piece,
            by_checks: false,
            by_exchange: false,
        }
    }

    /// The same target, chased jointly (24.17).
    pub const fn joint(mut self) -> Self {
        self.joint = true;
        self
    }

    /// The same target, chased by `by`.
    pub const fn by(mut self, by: Chaser) -> Self {
        self.by = by;
        self
    }

    /// Whether this chase counts towards a forbidden pattern: a lone king or pawn may chase
    /// perpetually (26.1).
    pub const fn counts(&self) -> bool {
        matches!(self.by, Chaser::Piece)
    }

    /// 捉车 (26.8.1, 26.8.2).
    pub const fn is_rook(&self) -> bool {
        matches!(self.kind, PieceKind::Rook)
    }

    /// 捉无根子 (26.8.1, 26.8.3).
    pub const fn is_unprotected(&self) -> bool {
        self.protection.counts_as_unprotected()
    }
}

/// The kinds of 闲 (idle move). All of them are allowed moves (24.8, 24.14); the kind is kept
/// so that a referee can explain its ruling and so that the classifier's spec can say *why* a
/// move that touches an enemy piece is still idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdleKind {
    /// Nothing of note: an escape, a shuffle, a king step (24.8).
    Plain,
    /// 兑: offering an exchange that can be taken back evenly (24.4; 26.9, 26.10.2).
    Exchange,
    /// 献: offering an unprotected piece that can be taken without loss (24.5).
    Offer,
    /// 拦: blocking an enemy piece without attacking (24.6), e.g. interposing against a check.
    Block,
    /// 跟: shadowing a protected enemy piece without attacking (24.7).
    Follow,
    /// A chase or mate threat made by a king move that answers check (26.1.2).
    KingAnswersCheck,
    /// A lone attacker holding a drawing point incidentally attacks advisors/elephants (26.2).
    LoneDefender,
    /// A chase by a protector or a pinned piece that loses material in the exchange (26.5).
    LosingTrade,
    /// An attack whose capture wins nothing: a protected target worth no more than the
    /// attacker (24.3), or the pawn cases of 26.6 (an uncrossed pawn, a strong piece for
    /// crossed pawns).
    NoGain,
    /// A pawn that wins material only through another piece's discovered attack (26.7).
    PawnDiscovery,
    /// A mate threat left by the opponent's own check (自毙, 24.18): the answer to the check
    /// would not threaten mate without that check, so the threat is not this move's (26.3).
    SelfInflicted,
    /// The capture was already possible before the move and the move changes nothing about it
    /// (the rook retreat of 图5 under 24.8: "吃士的结果没有发生变化").
    UnchangedAttack,
}

/// One nature of a move (24.1–24.8).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nature {
    /// 将: the move attacks the enemy king directly (24.1). Heaviest of all (26.4); a side
    /// that checks on every move is 长将 (24.9), never allowed (25.1).
    Check,
    /// 杀: the move intends to mate next move, or through a series of checks (24.2). Every move
    /// 杀 is 长杀 (24.10), forbidden (24.13) and obliged to vary against another forbidden
    /// pattern (26.8.1).
    MateThreat,
    /// 捉: the move lets the moved piece, another piece it uncovers, or several pieces together
    /// win a piece (24.3), listed per chased piece. Every move 捉 is 长捉 (24.11), forbidden
    /// (24.13); a chase of a rook or of an unprotected piece must vary first (26.8.1–26.8.3).
    Chase(Vec<ChaseTarget>),
    /// 闲: none of the above (24.8); 兑, 献, 拦, 跟 are idle (24.4–24.7).
    Idle(IdleKind),
}

/// The weight of a nature for 26.4 ("凡走子兼具多种作用时，应从重裁处"). Declared lightest
/// first so that `Ord` is the article's order.
///
/// 26.4 itself ranks 捉 and 杀 above 兑/献; check above everything follows from 25.1.
/// Ranking 杀 above 捉 is the project's reading: a mate threat is aimed at the king, and
/// 26.8.1 names 长杀 before the chase patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NatureClass {
    Idle,
    Chase,
    MateThreat,
    Check,
}

impl Nature {
    /// The weight of this nature (26.4). A chase with no counting target (only a lone king or
    /// pawn chasing, 26.1) weighs as idle.
    pub fn class(&self) -> NatureClass {
        match self {
            Nature::Check => NatureClass::Check,
            Nature::MateThreat => NatureClass::MateThreat,
            Nature::Chase(targets) if targets.iter().any(ChaseTarget::counts) => NatureClass::Chase,
            Nature::Chase(_) | Nature::Idle(_) => NatureClass::Idle,
        }
    }
}

/// Everything the classifier found about one move of the cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNatures {
    natures: Vec<Nature>,
}

impl MoveNatures {
    /// A move with the given natures; an empty list means a plain idle move (24.8).
    pub fn new(natures: Vec<Nature>) -> Self {
        MoveNatures { natures }
    }

    /// An idle move of the given kind.
    pub fn idle(kind: IdleKind) -> Self {
        MoveNatures::new(vec![Nature::Idle(kind)])
    }

    /// A check.
    pub fn check() -> Self {
        MoveNatures::new(vec![Nature::Check])
    }

    /// A mate threat.
    pub fn mate_threat() -> Self {
        MoveNatures::new(vec![Nature::MateThreat])
    }

    /// A chase of the given targets.
    pub fn chase(targets: Vec<ChaseTarget>) -> Self {
        MoveNatures::new(vec![Nature::Chase(targets)])
    }

    /// This move with one more nature (26.4: e.g. a check that also chases).
    pub fn with(mut self, nature: Nature) -> Self {
        self.natures.push(nature);
        self
    }

    /// All natures, as reported.
    pub fn natures(&self) -> &[Nature] {
        &self.natures
    }

    /// The nature the move is judged by: the heaviest (26.4); idle if none (24.8).
    pub fn heaviest(&self) -> NatureClass {
        self.natures
            .iter()
            .map(Nature::class)
            .max()
            .unwrap_or(NatureClass::Idle)
    }

    /// Whether the move checks (24.1).
    pub fn gives_check(&self) -> bool {
        self.natures.iter().any(|n| matches!(n, Nature::Check))
    }

    /// Whether the move threatens mate (24.2).
    pub fn threatens_mate(&self) -> bool {
        self.natures.iter().any(|n| matches!(n, Nature::MateThreat))
    }

    /// The chases that count (not a lone king or pawn, 26.1), over all chase natures.
    pub fn chases(&self) -> impl Iterator<Item = &ChaseTarget> + '_ {
        self.natures
            .iter()
            .filter_map(|n| match n {
                Nature::Chase(targets) => Some(targets.iter()),
                _ => None,
            })
            .flatten()
            .filter(|t| t.counts())
    }
}

impl fmt::Display for NatureClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NatureClass::Idle => "闲",
            NatureClass::Chase => "捉",
            NatureClass::MateThreat => "杀",
            NatureClass::Check => "将",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rook(id: u8) -> ChaseTarget {
        ChaseTarget::new(PieceId(id), PieceKind::Rook, Protection::Protected)
    }

    #[test]
    fn heaviest_nature_wins_26_4() {
        // 兑兼捉 → 捉
        let m = MoveNatures::idle(IdleKind::Exchange).with(Nature::Chase(vec![rook(1)]));
        assert_eq!(m.heaviest(), NatureClass::Chase);
        // 兑兼杀 → 杀
        let m = MoveNatures::idle(IdleKind::Exchange).with(Nature::MateThreat);
        assert_eq!(m.heaviest(), NatureClass::MateThreat);
        // 将兼捉 → 将
        let m = MoveNatures::chase(vec![rook(1)]).with(Nature::Check);
        assert_eq!(m.heaviest(), NatureClass::Check);
        // 杀兼捉 → 杀 (project reading)
        let m = MoveNatures::chase(vec![rook(1)]).with(Nature::MateThreat);
        assert_eq!(m.heaviest(), NatureClass::MateThreat);
        assert!(NatureClass::Check > NatureClass::MateThreat);
        assert!(NatureClass::MateThreat > NatureClass::Chase);
        assert!(NatureClass::Chase > NatureClass::Idle);
    }

    #[test]
    fn empty_move_is_idle_24_8() {
        assert_eq!(MoveNatures::default().heaviest(), NatureClass::Idle);
    }

    #[test]
    fn lone_king_or_pawn_chase_weighs_as_idle_26_1() {
        let by_king = MoveNatures::chase(vec![rook(1).by(Chaser::KingAlone)]);
        assert_eq!(by_king.heaviest(), NatureClass::Idle);
        assert_eq!(by_king.chases().count(), 0);
        let by_pawn = MoveNatures::chase(vec![rook(1).by(Chaser::PawnAlone)]);
        assert_eq!(by_pawn.heaviest(), NatureClass::Idle);
        // 26.1.1: a pawn move that also uncovers another piece's chase is a chase.
        let mixed = MoveNatures::chase(vec![rook(1).by(Chaser::PawnAlone), rook(1)]);
        assert_eq!(mixed.heaviest(), NatureClass::Chase);
        assert_eq!(mixed.chases().count(), 1);
    }

    #[test]
    fn false_and_short_roots_count_as_unprotected() {
        assert!(!Protection::Protected.counts_as_unprotected());
        assert!(Protection::Unprotected.counts_as_unprotected());
        assert!(Protection::FalseRoot.counts_as_unprotected());
        assert!(Protection::Underprotected.counts_as_unprotected());
    }
}
