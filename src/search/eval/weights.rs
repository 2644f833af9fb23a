//! The evaluation's parameters, gathered in one plain struct so that a tuner can read and
//! change every number without touching the evaluation code.
//!
//! The terms and their first values were hand-set from xiangqi knowledge (see the parent
//! module's docs for what each term means); the values now in [`Weights::DEFAULT`] were then
//! fitted by `scripts/tune.sh` (Texel tuning on 3,600 self-play games of the hand-set engine,
//! 383k positions, checked on 400 held-out games) and kept because they won games; none is
//! taken from another engine. The comments on the tables describe the hand-set intent; the
//! fitted numbers follow it only roughly. Units are centipawns (an uncrossed pawn is 100)
//! unless a field says otherwise.

/// A middlegame and an endgame value; the evaluation blends them by the game phase.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pair {
    pub mg: i32,
    pub eg: i32,
}

/// Shorthand for the tables below.
const fn p(mg: i32, eg: i32) -> Pair {
    Pair { mg, eg }
}

/// A piece-square table for one kind, in the owner's frame: `[rank][file]` where rank 0 is the
/// owner's back rank and rank 9 the opponent's, and file runs from the edge (0 = files a/i) to
/// the centre (4 = file e). Storing half a board makes every table left-right symmetric by
/// construction, which the board's symmetry demands, and halves what a tuner must fit.
pub type HalfTable = [[i32; 5]; 10];

/// Number of entries in the king-danger multiplier table (0, 1, 2, 3, 4+ attacking pieces).
pub const KS_ATTACKERS: usize = 5;

/// Every tunable number of the evaluation.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// The defaults: hand-set terms with fitted values (see the module docs).
    pub const DEFAULT: Weights = Weights {
        material: [
            p(0, 0),       // king
            p(225, 1),     // advisor
            p(261, 8),     // elephant
            p(687, 286),   // horse
            p(1646, 1007), // rook
            p(823, 232),   // cannon
            p(100, 100),   // pawn, before the river; crossing adds the table bonus
        ],
        pst_mg: [
            KING_MG,
            ADVISOR_MG,
            ELEPHANT_MG,
            HORSE_MG,
            ROOK_MG,
            CANNON_MG,
            PAWN_MG,
        ],
        pst_eg: [
            KING_EG,
            ADVISOR_EG,
            ELEPHANT_EG,
            HORSE_EG,
            ROOK_EG,
            CANNON_EG,
            PAWN_EG,
        ],
        phase_rook: 6,
        phase_horse: 3,
        phase_cannon: 3,
        tempo: 17,
        rook_mobility: p(13, -1),
        cannon_mobility: p(2, 1),
        horse_mobility: [
            p(-129, -132),
            p(-64, -71),
            p(-48, 30),
            p(-7, 7),
            p(16, 28),
            p(74, 11),
            p(107, -20),
            p(160, -25),
            p(145, -57),
        ],
        rook_open_file: p(47, 3),
        ks_rook: 6,
        ks_horse: 22,
        ks_cannon: 0,
        ks_pawn: 19,
        ks_attackers: [0, 6, 11, 23, 34],
        ks_scale: p(56, 10),
        missing_advisor_vs_horse: p(114, -4),
        missing_advisor_vs_rook: p(66, 14),
        missing_elephant_vs_cannon: p(86, -12),
        missing_elephant_vs_rook: p(31, -77),
        open_king_file: p(24, -24),
        open_palace_file: p(16, -11),
        hollow_cannon: p(337, -46),
        bottom_cannon: p(32, -10),
        horse_wocao: p(145, -76),
        horse_palace_corner: p(64, -25),
        connected_rooks: p(41, 69),
        connected_horses: p(27, -11),
        connected_advisors: p(63, 15),
        connected_elephants: p(29, -17),
        hanging: p(37, 57),
        rook_threatened: p(48, -47),
        threatened_by_pawn: p(75, 70),
        rook_pin: p(16, 33),
        rook_discovery: p(114, 97),
        cannon_pin: p(51, 9),
        cannon_discovery: p(81, 99),
        scale_no_attackers: 0,
        scale_cannon_no_screen: 4,
        scale_rook_vs_full_defence: 8,
        scale_minor_vs_full_defence: 8,
        scale_horse_vs_two_advisors: 16,
        scale_pawn_vs_defenders: 16,
    };

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

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

// Piece-square tables. Rows are ranks from the owner's back rank (row 0) to the opponent's
// (row 9); columns are files from the edge (a/i) to the centre (e). Points a kind can never
// stand on are 0.

/// The king belongs on its back rank in the middlegame: every step up exposes it.
const KING_MG: HalfTable = [
    [0, 0, 0, 48, 96],
    [0, 0, 0, -78, -15],
    [0, 0, 0, -66, -49],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
];
/// In the endgame a king on a side file controls it (the kings may not face each other).
const KING_EG: HalfTable = [
    [0, 0, 0, -19, 6],
    [0, 0, 0, 28, 18],
    [0, 0, 0, -5, -13],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
];
/// The palace centre is the advisor's best point: it guards both corners and the king.
const ADVISOR_MG: HalfTable = [
    [0, 0, 0, 4, 0],
    [0; 5],
    [0, 0, 0, 2, 0],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
];
const ADVISOR_EG: HalfTable = [
    [0, 0, 0, -2, 0],
    [0, 0, 0, 0, -25],
    [0, 0, 0, -13, 0],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
];
/// The elephant on the centre point covers both wings; on the edge or the river it is loose.
const ELEPHANT_MG: HalfTable = [
    [0, 0, 4, 0, 0],
    [0; 5],
    [-20, 0, 0, 0, 61],
    [0; 5],
    [0, 0, -38, 0, 0],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
];
const ELEPHANT_EG: HalfTable = [
    [0, 0, -10, 0, 0],
    [0; 5],
    [18, 0, 0, 0, -18],
    [0; 5],
    [0, 0, -7, 0, 0],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
    [0; 5],
];
/// Horses want the centre and the squares around the enemy palace; on the edge or on the
/// palace centre (窝心马, which smothers its own king) they are poor.
const HORSE_MG: HalfTable = [
    [-26, -115, -28, -6, -22],
    [-56, -12, -35, -32, -73],
    [15, -26, -7, 9, -31],
    [-13, -14, 25, -11, 41],
    [4, 15, 53, 52, 29],
    [-1, 13, 29, 71, 26],
    [4, 33, 0, 67, 41],
    [7, 21, 21, 39, 45],
    [-9, 1, 45, 29, 21],
    [-15, 6, 14, 9, 0],
];
const HORSE_EG: HalfTable = [
    [-25, 18, -31, -13, -14],
    [-43, -14, -11, -26, -25],
    [-34, -3, 23, 3, 3],
    [-10, -3, 33, 10, 23],
    [-3, -5, 40, 33, 36],
    [8, 14, 26, 12, 12],
    [0, 11, -9, 5, 45],
    [8, -4, -5, 20, 31],
    [-13, 0, 3, 14, 20],
    [-23, 5, 16, 3, 0],
];
/// Rooks are developed off the corner, strong on the river banks (巡河/过河) and on the
/// palace-side files (肋道) deep in the enemy camp.
const ROOK_MG: HalfTable = [
    [-59, 37, 1, -1, 0],
    [-18, -23, -4, -23, 9],
    [-10, 6, 28, 22, 10],
    [5, 22, 13, 20, 13],
    [12, 20, 2, 14, 19],
    [1, 28, 13, 16, 19],
    [13, 10, 50, 17, 16],
    [1, -21, 36, 14, 19],
    [1, 14, -2, 23, 19],
    [-10, 6, 2, 24, 16],
];
const ROOK_EG: HalfTable = [
    [-41, 4, -5, -1, 0],
    [-10, -6, -2, 4, 1],
    [-8, 8, 29, 10, 19],
    [-4, 25, 21, 3, 19],
    [-6, 11, 10, 20, 21],
    [2, 3, 20, 15, 21],
    [-7, 2, 11, 21, 13],
    [-1, 2, 11, 7, 26],
    [-8, -5, -11, -27, 24],
    [-15, -5, -5, -3, 14],
];
/// The central cannon (中炮) pins the enemy's centre; cannons deep in the enemy camp run out
/// of screens. The back-rank cannon is scored by king safety, not here.
const CANNON_MG: HalfTable = [
    [14, 26, 10, 15, 7],
    [16, -3, 0, 28, 10],
    [22, -30, 39, 10, 10],
    [10, -16, 9, -26, 24],
    [-23, -11, 39, -4, 23],
    [15, 4, -29, -1, 24],
    [27, -2, -20, -46, 19],
    [2, -44, -9, -16, 8],
    [31, -5, -12, -6, -3],
    [52, 6, 2, -15, 4],
];
/// In the endgame a cannon works best at home, with its own pieces as screens.
const CANNON_EG: HalfTable = [
    [9, -1, 4, 17, 3],
    [-2, 7, 3, 11, -24],
    [1, 7, 4, 15, 30],
    [-6, 14, -3, -4, -15],
    [-4, -6, -3, 14, -14],
    [6, -6, -7, 1, 4],
    [9, 2, 9, 2, -5],
    [-3, -9, -19, -1, 9],
    [3, 5, -16, -2, -1],
    [14, 5, -4, 8, 0],
];
/// A pawn across the river (过河兵) moves sideways and roughly doubles in worth; it is worth
/// most just in front of the palace and little on the last rank (老兵), where it can no longer
/// go forward.
const PAWN_MG: HalfTable = [
    [0; 5],
    [0; 5],
    [0; 5],
    [-14, 0, -5, 0, 31],
    [-17, 0, 62, 0, 17],
    [59, 65, 105, 96, 83],
    [45, 68, 102, 100, 98],
    [55, 105, 131, 150, 132],
    [49, 78, 122, 137, 134],
    [6, 17, 24, 34, 33],
];
const PAWN_EG: HalfTable = [
    [0; 5],
    [0; 5],
    [0; 5],
    [70, 0, 20, 0, 50],
    [16, 0, 10, 0, 29],
    [103, 110, 135, 122, 123],
    [53, 99, 135, 67, 78],
    [55, 113, 122, 168, 104],
    [57, 86, 48, 46, 151],
    [5, 13, 19, 0, -13],
];
