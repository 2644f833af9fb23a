//! The evaluation's parameters, gathered in one plain struct so that a tuner can read and
//! change every number without touching the evaluation code.
//!
//! The terms and their first values were hand-set from xiangqi knowledge (see the parent
//! module's docs for what each term means); the values now in [`Weights::DEFAULT`] were then
//! fitted by `scripts/tune.sh` (Texel tuning on 3,600 self-play games of the hand-set engine,
//! 383k positions, checked on 400 held-out games) and kept because they won games; none is
//! taken from another engine. Units are centipawns (an uncrossed pawn is 100) unless a field
//! says otherwise.
//!
//! # The weights are data
//! The numbers live in `weights.json` next to this file, not in Rust source: `jiangjun tune
//! --out` writes that format ([`Weights::to_json`]) and `--init` reads it back
//! ([`Weights::from_json`]), so a tuning run ends with copying one file, and `git diff` shows
//! the change number by number. `build.rs` turns the file into the constant
//! [`Weights::DEFAULT`] at compile time, so the evaluation reads a constant exactly as it did
//! when the numbers were literals. The file holds one key per field below, in this order;
//! `material`, `pst_mg` and `pst_eg` list the kinds in [`crate::board::PieceKind::index`]
//! order: king, advisor, elephant, horse, rook, cannon, pawn.
//!
//! # The tables' hand-set intent
//! Rows are ranks from the owner's back rank (row 0) to the opponent's (row 9); columns are
//! files from the edge (a/i) to the centre (e); points a kind can never stand on are 0. The
//! fitted numbers follow this intent only roughly.
//! * King: on its back rank in the middlegame (every step up exposes it); in the endgame on a
//!   side file, which it then controls (the kings may not face each other).
//! * Advisor: the palace centre is its best point: it guards both corners and the king.
//! * Elephant: the centre point covers both wings; on the edge or the river it is loose.
//! * Horse: the centre and the squares around the enemy palace; poor on the edge or on its own
//!   palace centre (窝心马, which smothers its own king).
//! * Rook: developed off the corner, strong on the river banks (巡河/过河) and on the
//!   palace-side files (肋道) deep in the enemy camp.
//! * Cannon: the central cannon (中炮) pins the enemy's centre; deep in the enemy camp it runs
//!   out of screens (the back-rank cannon is scored by king safety, not here). In the endgame
//!   it works best at home, with its own pieces as screens.
//! * Pawn: across the river (过河兵) it moves sideways and roughly doubles in worth; it is
//!   worth most just in front of the palace and little on the last rank (老兵), where it can
//!   no longer go forward.

use serde::{Deserialize, Serialize};

/// A middlegame and an endgame value; the evaluation blends them by the game phase.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pair {
    pub mg: i32,
    pub eg: i32,
}

/// A piece-square table for one kind, in the owner's frame: `[rank][file]` where rank 0 is the
/// owner's back rank and rank 9 the opponent's, and file runs from the edge (0 = files a/i) to
/// the centre (4 = file e). Storing half a board makes every table left-right symmetric by
/// construction, which the board's symmetry demands, and halves what a tuner must fit.
pub type HalfTable = [[i32; 5]; 10];

/// Number of entries in the king-danger multiplier table (0, 1, 2, 3, 4+ attacking pieces).
pub const KS_ATTACKERS: usize = 5;

/// Every tunable number of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Material per kind, indexed by [`crate::board::PieceKind::index`]. The king is 0: it is
    /// never traded.
    pub material: [Pair; 7],
    /// Middlegame piece-square bonuses per kind (indexed like `material`).
    pub pst_mg: [HalfTable; 7],
    /// Endgame piece-square bonuses per kind.
    pub pst_eg: [HalfTable; 7],

    /// Phase weight of one rook; the phase is the sum over the board's rooks, horses and
    /// cannons, so it falls from its maximum (all twelve present) to 0 as they are traded.
    pub phase_rook: i32,
    pub phase_horse: i32,
    pub phase_cannon: i32,

    /// Bonus for having the move (the side to move can improve before the opponent can).
    pub tempo: i32,

    /// Per rook move above [`ROOK_MOBILITY_BASE`] (squares not holding an own piece).
    pub rook_mobility: Pair,
    /// Per cannon quiet move above [`CANNON_MOBILITY_BASE`].
    pub cannon_mobility: Pair,
    /// By the number of a horse's safe moves (legs not blocked, landing square neither own
    /// nor attacked by an enemy pawn), 0..=8.
    pub horse_mobility: [Pair; 9],
    /// Rook with no own piece ahead of it on its file: it can run straight into the enemy camp.
    pub rook_open_file: Pair,

    /// King-danger units per point of the enemy palace attacked, by attacker kind.
    pub ks_rook: i32,
    pub ks_horse: i32,
    pub ks_cannon: i32,
    pub ks_pawn: i32,
    /// Multiplier (in 16ths) of the danger units by the number of pieces attacking the palace:
    /// one attacker alone rarely mates, several together do.
    pub ks_attackers: [i32; KS_ATTACKERS],
    /// Converts weighted danger to centipawns (in 256ths), for the middlegame and endgame.
    pub ks_scale: Pair,
    /// Per missing advisor, per enemy horse (horses mate around a palace without advisors).
    pub missing_advisor_vs_horse: Pair,
    /// Per missing advisor, per enemy rook.
    pub missing_advisor_vs_rook: Pair,
    /// Per missing elephant, per enemy cannon (cannons mate along an open back rank and file).
    pub missing_elephant_vs_cannon: Pair,
    /// Per missing elephant, per enemy rook.
    pub missing_elephant_vs_rook: Pair,
    /// Per enemy rook, for the king's file being open in front of the palace (no own piece).
    pub open_king_file: Pair,
    /// Per enemy rook, for each other palace file being open in front of the palace.
    pub open_palace_file: Pair,
    /// Enemy cannon on the king's file with nothing between them (空头炮).
    pub hollow_cannon: Pair,
    /// Enemy cannon on the king's back rank while the king stands on it (沉底炮).
    pub bottom_cannon: Pair,
    /// Enemy horse on the 卧槽 points (two files off the centre, one rank above the back rank).
    pub horse_wocao: Pair,
    /// Enemy horse on a corner of the palace (挂角 points).
    pub horse_palace_corner: Pair,

    /// Two rooks that defend each other.
    pub connected_rooks: Pair,
    /// Per horse defended by the other horse (连环马).
    pub connected_horses: Pair,
    /// Two advisors that defend each other.
    pub connected_advisors: Pair,
    /// Two elephants that defend each other.
    pub connected_elephants: Pair,

    /// Per piece (not the king) attacked by the enemy and defended by nothing.
    pub hanging: Pair,
    /// Per rook attacked by a cheaper enemy piece (anything but a rook).
    pub rook_threatened: Pair,
    /// Per horse or cannon attacked by an enemy pawn.
    pub threatened_by_pawn: Pair,

    /// Lines onto the enemy king (牵制 and discovered checks). A rook on the king's file or
    /// rank with one enemy piece between: that piece is pinned (it may not leave the line).
    pub rook_pin: Pair,
    /// A rook on the king's line with one of our own pieces between: moving it checks.
    pub rook_discovery: Pair,
    /// A cannon on the king's line with two enemy pieces between: either one that leaves the
    /// line lets the cannon check over the other, so both are tied down.
    pub cannon_pin: Pair,
    /// A cannon on the king's line with two pieces between, one of them ours: moving ours
    /// away checks, and bringing a screen in is answered the same way.
    pub cannon_discovery: Pair,

    /// Draw scales, in 64ths of the score of the side that is ahead (see `draw.rs`).
    /// The leading side has no attacking piece at all.
    pub scale_no_attackers: i32,
    /// Its only attacker is a lone cannon with nothing of its own to use as a screen.
    pub scale_cannon_no_screen: i32,
    /// Its only attacker is one rook and the defender has both advisors and both elephants.
    pub scale_rook_vs_full_defence: i32,
    /// Its only attacker is one horse or cannon and the defender has the full defensive set.
    pub scale_minor_vs_full_defence: i32,
    /// Its only attacker is one horse and the defender has both advisors.
    pub scale_horse_vs_two_advisors: i32,
    /// Its only attacker is one pawn and the defender has two or more advisors/elephants.
    pub scale_pawn_vs_defenders: i32,
}

/// Rook moves that count as neither good nor bad (about the average in the middlegame).
pub const ROOK_MOBILITY_BASE: i32 = 7;
/// Cannon quiet moves that count as neither good nor bad.
pub const CANNON_MOBILITY_BASE: i32 = 6;
/// The denominator of the draw scales.
pub const SCALE_FULL: i32 = 64;

impl Weights {
    /// The defaults: hand-set terms with fitted values (see the module docs), compiled in
    /// from `weights.json` by `build.rs`.
    pub const DEFAULT: Weights = include!(concat!(env!("OUT_DIR"), "/default_weights.rs"));

    /// The phase of a board holding every rook, horse and cannon (the start position).
    pub const fn max_phase(&self) -> i32 {
        4 * (self.phase_rook + self.phase_horse + self.phase_cannon)
    }

    /// Calls `f(group, index, value)` for every parameter, in a fixed order, so that a tuner
    /// can treat the weights as a flat vector with readable names without this module knowing
    /// about tuning. Tables are visited row by row.
    pub fn visit_mut(&mut self, f: &mut impl FnMut(&'static str, usize, &mut i32)) {
        for (k, m) in self.material.iter_mut().enumerate() {
            f("material_mg", k, &mut m.mg);
            f("material_eg", k, &mut m.eg);
        }
        for (name, tables) in [("pst_mg", &mut self.pst_mg), ("pst_eg", &mut self.pst_eg)] {
            for (k, t) in tables.iter_mut().enumerate() {
                for (i, v) in t.iter_mut().flatten().enumerate() {
                    f(name, k * 50 + i, v);
                }
            }
        }
        f("phase_rook", 0, &mut self.phase_rook);
        f("phase_horse", 0, &mut self.phase_horse);
        f("phase_cannon", 0, &mut self.phase_cannon);
        f("tempo", 0, &mut self.tempo);
        for (i, m) in self.horse_mobility.iter_mut().enumerate() {
            f("horse_mobility_mg", i, &mut m.mg);
            f("horse_mobility_eg", i, &mut m.eg);
        }
        for (i, m) in self.ks_attackers.iter_mut().enumerate() {
            f("ks_attackers", i, m);
        }
        f("ks_rook", 0, &mut self.ks_rook);
        f("ks_horse", 0, &mut self.ks_horse);
        f("ks_cannon", 0, &mut self.ks_cannon);
        f("ks_pawn", 0, &mut self.ks_pawn);
        let pairs: [(&'static str, &mut Pair); 25] = [
            ("rook_mobility", &mut self.rook_mobility),
            ("cannon_mobility", &mut self.cannon_mobility),
            ("rook_open_file", &mut self.rook_open_file),
            ("ks_scale", &mut self.ks_scale),
            (
                "missing_advisor_vs_horse",
                &mut self.missing_advisor_vs_horse,
            ),
            ("missing_advisor_vs_rook", &mut self.missing_advisor_vs_rook),
            (
                "missing_elephant_vs_cannon",
                &mut self.missing_elephant_vs_cannon,
            ),
            (
                "missing_elephant_vs_rook",
                &mut self.missing_elephant_vs_rook,
            ),
            ("open_king_file", &mut self.open_king_file),
            ("open_palace_file", &mut self.open_palace_file),
            ("hollow_cannon", &mut self.hollow_cannon),
            ("bottom_cannon", &mut self.bottom_cannon),
            ("horse_wocao", &mut self.horse_wocao),
            ("horse_palace_corner", &mut self.horse_palace_corner),
            ("connected_rooks", &mut self.connected_rooks),
            ("connected_horses", &mut self.connected_horses),
            ("connected_advisors", &mut self.connected_advisors),
            ("connected_elephants", &mut self.connected_elephants),
            ("hanging", &mut self.hanging),
            ("rook_threatened", &mut self.rook_threatened),
            ("threatened_by_pawn", &mut self.threatened_by_pawn),
            ("rook_pin", &mut self.rook_pin),
            ("rook_discovery", &mut self.rook_discovery),
            ("cannon_pin", &mut self.cannon_pin),
            ("cannon_discovery", &mut self.cannon_discovery),
        ];
        for (name, pair) in pairs {
            f(name, 0, &mut pair.mg);
            f(name, 1, &mut pair.eg);
        }
        f("scale_no_attackers", 0, &mut self.scale_no_attackers);
        f(
            "scale_cannon_no_screen",
            0,
            &mut self.scale_cannon_no_screen,
        );
        f(
            "scale_rook_vs_full_defence",
            0,
            &mut self.scale_rook_vs_full_defence,
        );
        f(
            "scale_minor_vs_full_defence",
            0,
            &mut self.scale_minor_vs_full_defence,
        );
        f(
            "scale_horse_vs_two_advisors",
            0,
            &mut self.scale_horse_vs_two_advisors,
        );
        f(
            "scale_pawn_vs_defenders",
            0,
            &mut self.scale_pawn_vs_defenders,
        );
    }
}

/// Why a weights file could not be read.
#[derive(Debug)]
pub struct WeightsError(serde_json::Error);

impl std::fmt::Display for WeightsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a weights file: {}", self.0)
    }
}

/// The message already says serde's: the source is serde's own, so that a chain of causes
/// printed with `{:#}` names each once.
impl std::error::Error for WeightsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.0.source()
    }
}

impl Weights {
    /// Reads the format of `weights.json`: every field present, no unknown keys, every number
    /// an `i32`.
    pub fn from_json(text: &str) -> Result<Weights, WeightsError> {
        serde_json::from_str(text).map_err(WeightsError)
    }

    /// The format of `weights.json`: serde's pretty JSON with each innermost array or object
    /// (a table row, a [`Pair`]) on one line, so that the file reads like the tables it holds
    /// and a tuning run's diff shows the rows that moved.
    pub fn to_json(&self) -> String {
        // Serialising plain integers into a string cannot fail.
        let pretty = serde_json::to_string_pretty(self).unwrap_or_default();
        let mut out = collapse_leaves(&pretty);
        out.push('\n');
        out
    }
}

/// Puts every array or object that holds no array or object on one line. The keys are field
/// names, so no bracket or comma ever appears inside a string.
fn collapse_leaves(pretty: &str) -> String {
    let mut out = String::with_capacity(pretty.len());
    let mut rest = pretty;
    while let Some(open) = rest.find(['[', '{']) {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let next = rest.find(['[', '{', ']', '}']).unwrap_or(rest.len());
        if let Some(close @ (b']' | b'}')) = rest.as_bytes().get(next).copied() {
            let items: Vec<&str> = rest[..next].split(',').map(str::trim).collect();
            out.push_str(&items.join(", "));
            out.push(char::from(close));
            rest = &rest[next + 1..];
        }
    }
    out.push_str(rest);
    out
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMBEDDED: &str = include_str!("weights.json");

    /// Every number in [`Weights::visit_mut`]'s order, as little-endian bytes.
    fn flat_bytes(w: &Weights) -> Vec<u8> {
        let mut bytes = Vec::new();
        w.clone()
            .visit_mut(&mut |_, _, v| bytes.extend_from_slice(&v.to_le_bytes()));
        bytes
    }

    #[test]
    fn the_embedded_file_round_trips() {
        let parsed = Weights::from_json(EMBEDDED).expect("the embedded file parses");
        assert_eq!(parsed, Weights::DEFAULT, "build.rs and serde read it alike");
        // Writing gives the file back byte for byte, so `tune --out` output diffs cleanly.
        assert_eq!(parsed.to_json(), EMBEDDED);
        let mut changed = parsed.clone();
        changed.pst_eg[3][4][2] = -7;
        changed.horse_mobility[8].mg = i32::MIN;
        changed.ks_attackers[4] = i32::MAX;
        assert_eq!(Weights::from_json(&changed.to_json()).ok(), Some(changed));
    }

    #[test]
    fn the_embedded_weights_are_the_former_literals() {
        // Computed on the commit before the weights became data, when they were Rust literals
        // (6d00e5d): the FNV-1a of all 801 numbers in visiting order.
        let bytes = flat_bytes(&Weights::DEFAULT);
        assert_eq!(bytes.len(), 801 * 4);
        assert_eq!(crate::checksum::fnv1a64(&bytes), 0x2615_070d_3d2d_5cad);
    }

    #[test]
    fn bad_files_are_errors() {
        let good: serde_json::Value = serde_json::from_str(EMBEDDED).expect("json");
        let edit = |f: &dyn Fn(&mut serde_json::Map<String, serde_json::Value>)| {
            let mut v = good.clone();
            if let Some(map) = v.as_object_mut() {
                f(map);
            }
            v.to_string()
        };
        let cases = [
            ("", "EOF"),
            ("[1, 2]", "invalid type"),
            (&edit(&|m| drop(m.remove("tempo"))), "missing field `tempo`"),
            (
                &edit(&|m| drop(m.insert("tmepo".into(), 3.into()))),
                "unknown field `tmepo`",
            ),
            (
                &edit(&|m| drop(m.insert("tempo".into(), 1e10.into()))),
                "invalid type",
            ),
            (
                &edit(&|m| drop(m.insert("tempo".into(), 3_000_000_000u64.into()))),
                "invalid value",
            ),
            (
                &edit(&|m| drop(m.insert("ks_attackers".into(), vec![1, 2].into()))),
                "invalid length",
            ),
        ];
        for (text, says) in cases {
            match Weights::from_json(text) {
                Ok(_) => panic!("accepted {says}"),
                Err(e) => {
                    assert!(e.to_string().contains(says), "{says}: {e}");
                    // The chain of causes says it once.
                    let chain = format!("{:#}", anyhow::Error::new(e));
                    assert_eq!(chain.matches(says).count(), 1, "{chain}");
                }
            }
        }
    }
}
