//! The evaluations, below the search: the hand-written one (this module) and the network
//! ([`nnue`]). The search, the engine's front and the offline tools (tuner, trainer) all use
//! them; they know the board and nothing above it.
//!
//! # The hand-written evaluation
//! A score of a position, in centipawns (an uncrossed pawn is 100), from the point of view of
//! the side to move.
//!
//! The search calls [`evaluate`] at every leaf, so it is written for speed: one pass over the
//! pieces with table lookups and the board's attack functions, no allocation and no move lists
//! (about 3,700 instructions, a few hundred nanoseconds, on a middlegame position; see
//! `benches/eval.rs`). Piece counts come from the piece loops and small sets are counted bit by
//! bit, because the default x86-64 target has no population-count instruction. Every number
//! lives in [`Weights`] so that a tuner can change them; [`evaluate_with`] takes any weights,
//! [`evaluate`] uses [`Weights::DEFAULT`].
//!
//! # Frame and symmetry
//! Each term is computed for each side in that side's own frame (rank 0 = its back rank) and
//! the score is Red's sum minus Black's, so swapping the colours (ranks reversed, sides swapped)
//! gives exactly the same score for the side to move. Piece-square tables store half a board
//! ([`HalfTable`]), so the left-right mirror image scores the same too. The tests check both
//! over every perft position and thousands of positions from random games.
//!
//! # Tapering
//! Most terms have a middlegame and an endgame value ([`Pair`]). The game phase is the weighted
//! count of rooks, horses and cannons left (pawns, advisors and elephants do not change the
//! character of the game much); the two sums are blended linearly by it.
//!
//! # Terms
//! * **Material.** Fitted to self-play results with the pawn fixed at 100 (see
//!   `weights.rs`): in the middlegame a rook ≈ 1650, cannon ≈ 820, horse ≈ 690, advisor and
//!   elephant ≈ 225–260; in the endgame the rook falls to ≈ 1000, horse and cannon to ≈ 290
//!   and 230, and advisors and elephants to almost nothing by themselves: their endgame worth
//!   is in the king-safety terms against the enemy's attackers and in the draw scales.
//! * **Piece-square tables.** Crossed pawns gain 60–140 (more in front of the palace, little on
//!   the last rank where they can only move sideways); horses like the centre and the points
//!   near the enemy palace and hate the edge; rooks like the river banks and the palace-side
//!   files; the king stays on its back rank. (Hand-set shapes, then fitted.)
//! * **Mobility.** Rooks and cannons earn per move above an average; horses are scored by a
//!   table of their *safe* moves (a blocked leg removes two moves; squares attacked by enemy
//!   pawns or held by own pieces do not count), so a hemmed-in horse costs a lot. A rook with no
//!   own piece ahead on its file gets an open-file bonus.
//! * **King safety**, from the attacker's side, against the enemy palace (nine points):
//!   - danger units for each palace point attacked by a rook, horse, cannon (through its screen)
//!     or pawn, multiplied by a factor that grows with the number of attacking pieces, since a
//!     lone piece rarely mates;
//!   - missing advisors per enemy horse and rook, missing elephants per enemy cannon and rook:
//!     advisors shield against horse mates, elephants against cannon mates;
//!   - open palace files (no defending piece in front of the palace) per enemy rook, more for
//!     the king's own file;
//!   - 空头炮: a cannon on the king's file with nothing in between; the defender cannot put
//!     anything on that file without it becoming a screen;
//!   - 沉底炮: a cannon on the defender's back rank while the king is on it;
//!   - horses on the 卧槽 points (two files off the centre, next to the back rank) and on the
//!     palace corners (挂角), the two classic horse-mate points;
//!   - lines onto the king (牵制): a rook with one enemy piece between it and the king pins
//!     that piece, a cannon with two enemy pieces between ties both down (either leaving the
//!     line lets it check); with one of our own pieces among them, moving ours checks.
//! * **Coordination.** Rooks defending each other, horses defending each other (连环马), and
//!   connected advisors and elephants (a defence whose pieces protect one another).
//! * **Hanging pieces.** A piece attacked and defended by nothing, a rook attacked by any
//!   cheaper piece, and a horse or cannon attacked by a pawn. Pins and flying-general attacks
//!   are ignored: this is a cheap hint, the search resolves captures.
//! * **Tempo.** A small bonus for the side to move.
//! * **Draw scaling.** The score of the side that is ahead is scaled toward 0 when its material
//!   cannot win (the rules are listed in `draw.rs`). A side with no attacking piece at all
//!   cannot win, so a board where neither side has one scores 0.
//!
//! Left out for now: pins against pieces other than the king, pawn structure beyond the tables
//! (linked pawns), rook-cannon batteries, piece-specific endgame knowledge beyond the scaling
//! rules, and incremental (make/unmake) updates of material and tables.

mod draw;
mod level;
pub mod nnue;
mod weights;

#[cfg(test)]
mod tests;

pub use level::Level;
pub use weights::{
    HalfTable, Pair, Weights, WeightsError, CANNON_MOBILITY_BASE, KS_ATTACKERS, ROOK_MOBILITY_BASE,
    SCALE_FULL,
};

use crate::board::attacks::{self, RAYS};
use crate::board::{Bitboard, Color, PieceKind, Position, Square};
use once_cell::sync::Lazy;

/// No evaluation is larger in magnitude than this, so the search may keep mate and rule scores
/// above it.
pub const EVAL_LIMIT: i32 = 10_000;

/// The king's value for exchange evaluation: more than all other material together, so that
/// an exchange sequence never "gives up" the king.
pub const KING_VALUE: i32 = 10_000;

static DEFAULT_WEIGHTS: Weights = Weights::DEFAULT;

/// The score of `pos` in centipawns from the side to move's point of view, with the default
/// weights.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &DEFAULT_WEIGHTS)
}

/// The weights for a UCCI `knowledge` level: `large` is the full evaluation; each level below
/// switches off a group of terms (their weights set to 0), keeping material, the game phase
/// and the draw scales (whether a side can win at all) at every level:
/// * `medium`: no king safety (attack units, missing defenders, open palace files, cannon and
///   horse patterns, lines onto the king);
/// * `small`: also no mobility, open files, coordination or hanging pieces: material and
///   piece-square tables;
/// * `none`: material only.
pub fn weights_for(level: Level) -> &'static Weights {
    static LEVELS: Lazy<[Weights; 3]> = Lazy::new(|| {
        [Level::None, Level::Small, Level::Medium].map(|level| {
            let mut w = Weights::DEFAULT;
            w.visit_mut(&mut |name, _, v| {
                if term_level(name) > level {
                    *v = 0;
                }
            });
            w
        })
    });
    match level {
        Level::None => &LEVELS[0],
        Level::Small => &LEVELS[1],
        Level::Medium => &LEVELS[2],
        Level::Large => &DEFAULT_WEIGHTS,
    }
}

/// The lowest `knowledge` level that uses the weight named `name` (a [`Weights::visit_mut`]
/// group). A term not listed here is king-safety-like knowledge: only `large` uses it.
fn term_level(name: &str) -> Level {
    const ALWAYS: &[&str] = &["material_mg", "material_eg", "phase_", "scale_"];
    const SMALL: &[&str] = &["pst_mg", "pst_eg", "tempo"];
    const MEDIUM: &[&str] = &[
        "horse_mobility",
        "rook_mobility",
        "cannon_mobility",
        "rook_open_file",
        "connected_",
        "hanging",
        "rook_threatened",
        "threatened_by_pawn",
    ];
    let any = |list: &[&str]| list.iter().any(|p| name.starts_with(p));
    if any(ALWAYS) {
        Level::None
    } else if any(SMALL) {
        Level::Small
    } else if any(MEDIUM) {
        Level::Medium
    } else {
        Level::Large
    }
}

/// A simple value per kind for exchange evaluation and capture ordering (a pawn is 100 wherever
/// it stands), and [`KING_VALUE`] for the king.
///
/// Fixed rather than read from the tuned material: the tuner shares a piece's worth between
/// its material and the terms that count it (an advisor's between its material and the
/// missing-advisor and connected-advisor terms), which is right for a sum over the board but
/// not for an exchange on one point. These are the middlegame material values the engine
/// played its measured matches with (fitted in the first tuning round).
pub fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => KING_VALUE,
        PieceKind::Advisor => 225,
        PieceKind::Elephant => 261,
        PieceKind::Horse => 687,
        PieceKind::Rook => 1646,
        PieceKind::Cannon => 823,
        PieceKind::Pawn => 100,
    }
}

/// The score of `pos` with the given weights, from the side to move's point of view.
///
/// Never panics and never overflows for weights of the size of the defaults; the result is
/// clamped to `±EVAL_LIMIT`.
pub fn evaluate_with(pos: &Position, w: &Weights) -> i32 {
    let occ = pos.occupied().0;
    // The transposed occupancy (crate-visible) that the rook and cannon lookups need.
    let occ_t = pos.occ_t;
    let pawn_att = [
        pawn_attacks(Color::Red, pos.pieces(Color::Red, PieceKind::Pawn).0),
        pawn_attacks(Color::Black, pos.pieces(Color::Black, PieceKind::Pawn).0),
    ];
    let sides = [
        side_terms(pos, Color::Red, w, occ, occ_t, pawn_att[1]),
        side_terms(pos, Color::Black, w, occ, occ_t, pawn_att[0]),
    ];

    // Terms that need both sides' counts or attack maps, each good for `c`.
    let mut total = [Pair::default(); 2];
    for c in Color::ALL {
        let (us, them) = (&sides[c.index()], &sides[(!c).index()]);
        let mut mg = us.score.mg;
        let mut eg = us.score.eg;
        let (rooks, horses, cannons) = (
            us.counts.n[PieceKind::Rook.index()],
            us.counts.n[PieceKind::Horse.index()],
            us.counts.n[PieceKind::Cannon.index()],
        );

        // The enemy's missing defenders, weighted by what we have to exploit them.
        let missing_adv = 2 - them.counts.n[PieceKind::Advisor.index()];
        let missing_ele = 2 - them.counts.n[PieceKind::Elephant.index()];
        for (missing, per, n) in [
            (missing_adv, w.missing_advisor_vs_horse, horses),
            (missing_adv, w.missing_advisor_vs_rook, rooks),
            (missing_ele, w.missing_elephant_vs_cannon, cannons),
            (missing_ele, w.missing_elephant_vs_rook, rooks),
        ] {
            mg += missing * n * per.mg;
            eg += missing * n * per.eg;
        }

        // Open files in front of the enemy palace, for our rooks to use.
        if rooks > 0 {
            let their_pieces = pos.pieces_of(!c).0;
            let king_file = pos.king_square(!c).file() as usize;
            for (i, front) in PALACE_FRONT[(!c).index()].iter().enumerate() {
                if front & their_pieces == 0 {
                    let t = if i + 3 == king_file {
                        w.open_king_file
                    } else {
                        w.open_palace_file
                    };
                    mg += rooks * t.mg;
                    eg += rooks * t.eg;
                }
            }
        }

        // Our pieces left hanging or attacked by cheaper enemy pieces.
        let own = pos.pieces_of(c).0 & !pos.pieces(c, PieceKind::King).0;
        let hanging = sparse_count(own & them.attacks & !us.attacks);
        let rooks_hit = sparse_count(pos.pieces(c, PieceKind::Rook).0 & them.lesser_attacks);
        let minors = pos.pieces(c, PieceKind::Horse).0 | pos.pieces(c, PieceKind::Cannon).0;
        let by_pawn = sparse_count(minors & pawn_att[(!c).index()]);
        for (n, per) in [
            (hanging, w.hanging),
            (rooks_hit, w.rook_threatened),
            (by_pawn, w.threatened_by_pawn),
        ] {
            mg -= n * per.mg;
            eg -= n * per.eg;
        }
        total[c.index()] = Pair { mg, eg };
    }
    let mg = total[0].mg - total[1].mg;
    let eg = total[0].eg - total[1].eg;

    let max_phase = w.max_phase();
    let score = if max_phase > 0 {
        let phase = sides[0].counts.phase(w) + sides[1].counts.phase(w);
        let phase = phase.clamp(0, max_phase);
        (mg * phase + eg * (max_phase - phase)) / max_phase
    } else {
        eg
    };

    let (red, black) = (&sides[0].counts, &sides[1].counts);
    let scale = if score > 0 {
        draw::scale(red, black, w)
    } else if score < 0 {
        draw::scale(black, red, w)
    } else {
        draw::scale(red, black, w).min(draw::scale(black, red, w))
    };
    let red_view = score * scale / SCALE_FULL;
    let us_view = match pos.side_to_move() {
        Color::Red => red_view,
        Color::Black => -red_view,
    };
    (us_view + w.tempo * scale / SCALE_FULL).clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// How many pieces of each kind a side has, counted during the piece pass (cheaper than
/// population counts without a hardware instruction for them).
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct Counts {
    /// Indexed by [`PieceKind::index`].
    pub n: [i32; 7],
    /// Pawns not yet on the enemy's back rank (the others cannot reach the king any more).
    pub live_pawns: i32,
}

impl Counts {
    /// This side's share of the game phase.
    #[inline(always)]
    fn phase(&self, w: &Weights) -> i32 {
        self.n[PieceKind::Rook.index()] * w.phase_rook
            + self.n[PieceKind::Horse.index()] * w.phase_horse
            + self.n[PieceKind::Cannon.index()] * w.phase_cannon
    }
}

/// What one side's pass over its pieces produced.
struct SideTerms {
    /// Everything that depends on this side's pieces only, good for this side.
    score: Pair,
    /// Every point this side attacks or defends.
    attacks: u128,
    /// Points attacked by this side's pieces other than rooks.
    lesser_attacks: u128,
    counts: Counts,
}

/// Material, tables, mobility, patterns, coordination and the attack on the enemy king, for
/// the pieces of `c`, good for `c`. `enemy_pawn_att` is where the enemy pawns attack.
#[inline(always)]
fn side_terms(
    pos: &Position,
    c: Color,
    w: &Weights,
    occ: u128,
    occ_t: u128,
    enemy_pawn_att: u128,
) -> SideTerms {
    let them = !c;
    let mut walk = Walk {
        pos,
        w,
        c,
        them,
        occ,
        occ_t,
        own: pos.pieces_of(c).0,
        enemy_king: pos.king_square(them),
        zone: PALACE[them.index()],
        acc: Acc::default(),
        attacks: 0,
        lesser: 0,
        danger: 0,
        attackers: 0,
        counts: Counts::default(),
    };
    walk.king_and_defenders();
    walk.horses(enemy_pawn_att);
    walk.rooks();
    walk.cannons();
    walk.pawns();
    walk.finish()
}

/// One side's pieces walked kind by kind for [`side_terms`]: what every kind reads (the side,
/// the occupancy, the enemy king and palace) and what they add up (the score, the attack maps,
/// the pressure on the enemy palace, the piece counts).
struct Walk<'a> {
    pos: &'a Position,
    w: &'a Weights,
    c: Color,
    them: Color,
    occ: u128,
    occ_t: u128,
    own: u128,
    enemy_king: Square,
    zone: u128,
    acc: Acc,
    /// Every point this side attacks or defends.
    attacks: u128,
    /// Points attacked by pieces other than rooks.
    lesser: u128,
    /// Pressure on the enemy palace, and the pieces that exert it.
    danger: i32,
    attackers: usize,
    counts: Counts,
}

impl Walk<'_> {
    /// A piece's material and table value, counted.
    #[inline(always)]
    fn piece(&mut self, kind: PieceKind, sq: Square) {
        self.acc.piece(self.w, kind, self.c, sq);
        self.counts.n[kind.index()] += 1;
    }

    /// Points a piece other than a rook attacks or defends.
    #[inline(always)]
    fn lesser_attacks(&mut self, m: u128) {
        self.attacks |= m;
        self.lesser |= m;
    }

    /// King and defenders: material, tables, what they defend, and defenders that guard each
    /// other.
    #[inline(always)]
    fn king_and_defenders(&mut self) {
        let (w, c, occ) = (self.w, self.c, self.occ);
        let king = self.pos.king_square(c);
        self.piece(PieceKind::King, king);
        self.lesser_attacks(attacks::king_moves(king));

        let advisors = self.pos.pieces(c, PieceKind::Advisor);
        for sq in advisors {
            self.piece(PieceKind::Advisor, sq);
            self.lesser_attacks(attacks::advisor_moves(sq));
        }
        if self.counts.n[PieceKind::Advisor.index()] == 2
            && first_moves(advisors, attacks::advisor_moves) & advisors.0 != 0
        {
            self.acc.add(w.connected_advisors);
        }

        let elephants = self.pos.pieces(c, PieceKind::Elephant);
        for sq in elephants {
            self.piece(PieceKind::Elephant, sq);
            self.lesser_attacks(attacks::elephant_moves(sq, occ));
        }
        if self.counts.n[PieceKind::Elephant.index()] == 2
            && first_moves(elephants, |s| attacks::elephant_moves(s, occ)) & elephants.0 != 0
        {
            self.acc.add(w.connected_elephants);
        }
    }

    /// Horses: safe mobility (away from `enemy_pawn_att`), palace attacks, mate points,
    /// mutual defence.
    #[inline(always)]
    fn horses(&mut self, enemy_pawn_att: u128) {
        let (w, c, zone) = (self.w, self.c, self.zone);
        let horses = self.pos.pieces(c, PieceKind::Horse).0;
        for sq in Bitboard(horses) {
            self.piece(PieceKind::Horse, sq);
            let m = attacks::horse_moves(sq, self.occ);
            self.lesser_attacks(m);
            let safe = sparse_count(m & !self.own & !enemy_pawn_att) as usize;
            self.acc.add(w.horse_mobility[safe.min(8)]);
            if m & zone != 0 {
                self.danger += sparse_count(m & zone) * w.ks_horse;
                self.attackers += 1;
            }
            if m & horses != 0 {
                self.acc.add(w.connected_horses);
            }
            let b = 1u128 << sq.index();
            if (WOCAO[c.index()] | PALACE_CORNERS[c.index()]) & b != 0 {
                if WOCAO[c.index()] & b != 0 {
                    self.acc.add(w.horse_wocao);
                } else {
                    self.acc.add(w.horse_palace_corner);
                }
            }
        }
    }

    /// Rooks: mobility, open files, palace attacks, pins and discoveries on the enemy king,
    /// mutual defence (counted once per pair).
    #[inline(always)]
    fn rooks(&mut self) {
        let (w, c, zone, own) = (self.w, self.c, self.zone, self.own);
        let fwd = if c == Color::Red { 0 } else { 1 };
        let rooks = self.pos.pieces(c, PieceKind::Rook).0;
        let mut rooks_connected = false;
        for sq in Bitboard(rooks) {
            self.piece(PieceKind::Rook, sq);
            let a = attacks::rook_attacks(sq, self.occ, self.occ_t);
            self.attacks |= a;
            self.acc.scaled(
                w.rook_mobility,
                (a & !own).count_ones() as i32 - ROOK_MOBILITY_BASE,
            );
            if RAYS[sq.index()][fwd] & own == 0 {
                self.acc.add(w.rook_open_file);
            }
            if a & zone != 0 {
                self.danger += sparse_count(a & zone) * w.ks_rook;
                self.attackers += 1;
            }
            rooks_connected |= a & rooks != 0;
            match line_to_king(sq, self.enemy_king, self.occ) {
                Some(Between::One(b)) if own & b != 0 => self.acc.add(w.rook_discovery),
                Some(Between::One(_)) => self.acc.add(w.rook_pin),
                _ => {}
            }
        }
        if rooks_connected {
            self.acc.add(w.connected_rooks);
        }
    }

    /// Cannons: quiet mobility, palace control through a screen, back-rank and hollow
    /// cannons, pins and discoveries on the enemy king.
    #[inline(always)]
    fn cannons(&mut self) {
        let (w, c, zone, occ, occ_t) = (self.w, self.c, self.zone, self.occ, self.occ_t);
        let cannons = self.pos.pieces(c, PieceKind::Cannon).0;
        if cannons == 0 {
            return;
        }
        let enemy_king = self.enemy_king;
        let enemy_back = BACK_RANK[self.them.index()];
        let king_on_back = enemy_back >> enemy_king.index() & 1 != 0;
        for sq in Bitboard(cannons) {
            self.piece(PieceKind::Cannon, sq);
            let slide = attacks::rook_attacks(sq, occ, occ_t);
            self.lesser_attacks(attacks::cannon_attacks(sq, occ, occ_t));
            self.acc.scaled(
                w.cannon_mobility,
                (slide & !occ).count_ones() as i32 - CANNON_MOBILITY_BASE,
            );
            let control = if LINES[sq.index()] & zone != 0 {
                beyond_screens(sq, slide & occ, occ, occ_t, zone) & zone
            } else {
                0
            };
            if control != 0 {
                self.danger += sparse_count(control) * w.ks_cannon;
                self.attackers += 1;
            }
            if king_on_back && enemy_back >> sq.index() & 1 != 0 {
                self.acc.add(w.bottom_cannon);
            }
            match line_to_king(sq, enemy_king, occ) {
                // 空头炮: nothing between this cannon, outside the palace, and the king up
                // the king's file. (Only one cannon can be the first piece up that file.)
                Some(Between::Empty)
                    if sq.file() == enemy_king.file() && zone >> sq.index() & 1 == 0 =>
                {
                    self.acc.add(w.hollow_cannon)
                }
                Some(Between::Two(b)) if self.own & b != 0 => self.acc.add(w.cannon_discovery),
                Some(Between::Two(_)) => self.acc.add(w.cannon_pin),
                _ => {}
            }
        }
    }

    /// Pawns: tables, and pawns still able to reach the king; the attack map comes from the
    /// shifts in `pawn_attacks`.
    #[inline(always)]
    fn pawns(&mut self) {
        let pawns = self.pos.pieces(self.c, PieceKind::Pawn).0;
        for sq in Bitboard(pawns) {
            self.piece(PieceKind::Pawn, sq);
        }
        self.counts.live_pawns = self.counts.n[PieceKind::Pawn.index()]
            - sparse_count(pawns & BACK_RANK[self.them.index()]);
        let pawn_att = pawn_attacks(self.c, pawns);
        self.lesser_attacks(pawn_att);
        if pawn_att & self.zone != 0 {
            self.danger += sparse_count(pawn_att & self.zone) * self.w.ks_pawn;
            self.attackers += 1;
        }
    }

    /// The king danger this side poses added (good for it), and the terms handed over.
    #[inline(always)]
    fn finish(mut self) -> SideTerms {
        let w = self.w;
        let d = self.danger * w.ks_attackers[self.attackers.min(KS_ATTACKERS - 1)];
        self.acc.mg += d * w.ks_scale.mg / 256;
        self.acc.eg += d * w.ks_scale.eg / 256;
        SideTerms {
            score: Pair {
                mg: self.acc.mg,
                eg: self.acc.eg,
            },
            attacks: self.attacks,
            lesser_attacks: self.lesser,
            counts: self.counts,
        }
    }
}

/// A running middlegame/endgame sum.
#[derive(Default)]
struct Acc {
    mg: i32,
    eg: i32,
}

impl Acc {
    #[inline(always)]
    fn add(&mut self, p: Pair) {
        self.mg += p.mg;
        self.eg += p.eg;
    }

    #[inline(always)]
    fn scaled(&mut self, p: Pair, n: i32) {
        self.mg += p.mg * n;
        self.eg += p.eg * n;
    }

    /// Material plus the table bonus of a `kind` of colour `c` on `sq`, read in `c`'s frame.
    #[inline(always)]
    fn piece(&mut self, w: &Weights, kind: PieceKind, c: Color, sq: Square) {
        let i = table_index(c, sq);
        let k = kind.index();
        let (m, tmg, teg) = (w.material[k], &w.pst_mg[k], &w.pst_eg[k]);
        self.mg += m.mg + tmg.as_flattened().get(i).copied().unwrap_or(0);
        self.eg += m.eg + teg.as_flattened().get(i).copied().unwrap_or(0);
    }
}

/// Population count for sets of a few squares: one step per member, cheaper than a full
/// count when the CPU has no population-count instruction (the default x86-64 target).
#[inline(always)]
fn sparse_count(x: u128) -> i32 {
    let (mut lo, mut hi) = (x as u64, (x >> 64) as u64);
    let mut n = 0;
    while lo != 0 {
        lo &= lo - 1;
        n += 1;
    }
    while hi != 0 {
        hi &= hi - 1;
        n += 1;
    }
    n
}

/// The moves of the lower of two pieces in `set`, to test whether the pair defend each other.
#[inline(always)]
fn first_moves(set: Bitboard, moves: impl Fn(Square) -> u128) -> u128 {
    set.first().map_or(0, moves)
}

/// What stands between a piece and the enemy king on a shared file or rank.
enum Between {
    /// Nothing: the line is open.
    Empty,
    /// One piece, on these points (a single bit).
    One(u128),
    /// Two pieces, on these points.
    Two(u128),
    /// Three or more.
    More,
}

/// The pieces between `sq` and `king` if the two share a file or rank, else `None`.
#[inline(always)]
fn line_to_king(sq: Square, king: Square, occ: u128) -> Option<Between> {
    if LINES[sq.index()] >> king.index() & 1 == 0 {
        return None;
    }
    let d = RAYS[king.index()]
        .iter()
        .position(|ray| ray >> sq.index() & 1 != 0)?;
    let between = RAYS[king.index()][d] & RAYS[sq.index()][d ^ 1] & occ;
    Some(match between {
        0 => Between::Empty,
        b if b & (b - 1) == 0 => Between::One(b),
        b => {
            let rest = b & (b - 1);
            if rest & (rest - 1) == 0 {
                Between::Two(b)
            } else {
                Between::More
            }
        }
    })
}

/// The points a cannon on `sq` would capture on if they were occupied: those behind each of its
/// screens up to and including the next piece. Only rays that reach `zone` are looked at.
#[inline(always)]
fn beyond_screens(sq: Square, screens: u128, occ: u128, occ_t: u128, zone: u128) -> u128 {
    let mut out = 0u128;
    for (d, ray) in RAYS[sq.index()].iter().enumerate() {
        if ray & zone == 0 {
            continue;
        }
        if let Some(s) = Bitboard(screens & ray).first() {
            let behind = RAYS[s.index()][d];
            if behind & zone != 0 {
                out |= attacks::rook_attacks(s, occ, occ_t) & behind;
            }
        }
    }
    out
}

/// Every point attacked by the pawns `pawns` of colour `c`: straight ahead, and sideways once
/// across the river. Done with shifts instead of a loop.
#[inline(always)]
fn pawn_attacks(c: Color, pawns: u128) -> u128 {
    let crossed = pawns & CROSSED[c.index()];
    let ahead = match c {
        Color::Red => (pawns << 9) & ALL,
        Color::Black => pawns >> 9,
    };
    ahead | ((crossed << 1) & !FILES[0] & ALL) | ((crossed >> 1) & !FILES[8])
}

// Board geometry used above, built at compile time. Arrays indexed by colour hold the mask in
// that colour's frame (flipped for Black).

const ALL: u128 = (1u128 << 90) - 1;

/// For each colour and square, the entry of a flattened [`HalfTable`]: the rank in that
/// colour's frame times 5 plus the file folded onto the half board (a..e are 0..4, f..i 3..0).
const fn half_index() -> [[u8; 90]; 2] {
    let mut t = [[0u8; 90]; 2];
    let mut s = 0;
    while s < 90 {
        let (file, rank) = (s % 9, s / 9);
        let fold = if file > 4 { 8 - file } else { file };
        t[0][s] = (rank * 5 + fold) as u8;
        t[1][s] = ((9 - rank) * 5 + fold) as u8;
        s += 1;
    }
    t
}
static HALF_INDEX: [[u8; 90]; 2] = half_index();

/// The entry of a flattened [`HalfTable`] that scores a piece of colour `c` on `sq` (the tuner
/// uses it to find which samples a table weight touches).
#[inline(always)]
pub(crate) fn table_index(c: Color, sq: Square) -> usize {
    HALF_INDEX[c.index()][sq.index()] as usize
}

const fn bit(file: usize, rank: usize) -> u128 {
    1u128 << (rank * 9 + file)
}

const fn rank_mask(r: usize) -> u128 {
    let mut m = 0;
    let mut f = 0;
    while f < 9 {
        m |= bit(f, r);
        f += 1;
    }
    m
}

const fn file_masks() -> [u128; 9] {
    let mut t = [0u128; 9];
    let mut f = 0;
    while f < 9 {
        let mut r = 0;
        while r < 10 {
            t[f] |= bit(f, r);
            r += 1;
        }
        f += 1;
    }
    t
}

/// The mask seen from the other side: rank `r` becomes rank `9 - r`.
const fn flip(m: u128) -> u128 {
    let mut out = 0;
    let mut r = 0;
    while r < 10 {
        out |= ((m >> (r * 9)) & 0x1ff) << ((9 - r) * 9);
        r += 1;
    }
    out
}

const fn ranks(from: usize, to: usize) -> u128 {
    let mut m = 0;
    let mut r = from;
    while r <= to {
        m |= rank_mask(r);
        r += 1;
    }
    m
}

const FILES: [u128; 9] = file_masks();

/// The file and rank through each square (to skip cannons that cannot see a palace).
const fn line_masks() -> [u128; 90] {
    let files = file_masks();
    let mut t = [0u128; 90];
    let mut s = 0;
    while s < 90 {
        t[s] = files[s % 9] | rank_mask(s / 9);
        s += 1;
    }
    t
}
static LINES: [u128; 90] = line_masks();
const RED_PALACE: u128 = ranks(0, 2) & (FILES[3] | FILES[4] | FILES[5]);
/// Each side's own palace.
const PALACE: [u128; 2] = [RED_PALACE, flip(RED_PALACE)];
/// Each side's own back rank.
const BACK_RANK: [u128; 2] = [rank_mask(0), rank_mask(9)];
/// The points across the river for each side's pawns.
const CROSSED: [u128; 2] = [ranks(5, 9), ranks(0, 4)];
/// The 卧槽 points an attacking horse of each colour aims for.
const WOCAO: [u128; 2] = [bit(2, 8) | bit(6, 8), flip(bit(2, 8) | bit(6, 8))];
const RED_CORNERS: u128 = bit(3, 7) | bit(5, 7) | bit(3, 9) | bit(5, 9);
/// The enemy palace's corners, for an attacking horse of each colour.
const PALACE_CORNERS: [u128; 2] = [RED_CORNERS, flip(RED_CORNERS)];
const RED_FRONT: [u128; 3] = [
    FILES[3] & ranks(3, 9),
    FILES[4] & ranks(3, 9),
    FILES[5] & ranks(3, 9),
];
/// For each side, its palace files d, e, f in front of the palace (its ranks 3..9).
const PALACE_FRONT: [[u128; 3]; 2] = [
    RED_FRONT,
    [flip(RED_FRONT[0]), flip(RED_FRONT[1]), flip(RED_FRONT[2])],
];
