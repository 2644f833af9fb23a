//! Round-robin pairing tables ("循环赛对局秩序表").
//!
//! The generator follows the "编排方法" of the rules' round-robin appendix
//! (2011 rules, Appendix 1 "循环赛对局秩序表"; the same text is printed as
//! 附录二 in some editions of the book):
//!
//! 1. With an even field the "largest number" is the field size; with an odd
//!    field one is added, and whoever is paired with the largest number has a
//!    bye. There are `largest - 1` rounds.
//! 2. Round 1: first meets last, second meets second-to-last, and so on
//!    ("首尾相对，依次靠拢"), the lower number holding Red.
//! 3. The largest number is Red in round 2 and alternates every round after
//!    that; its pairing is always listed first.
//! 4. From round 2 on, the largest number meets whoever was listed last in the
//!    previous round; the others meet "across neighbours" of the previous
//!    round ("上轮跨邻相遇"), keeping their previous order ("前后顺序依然"),
//!    pairing from the back towards the front ("从后往前配对"; one transcription
//!    reads "从而往前", which the printed tables show to be the same rule).
//!
//! In a table entry the number listed first plays Red (2011 rules 12.1).

use std::fmt;

/// Largest field accepted; a bound so a typo cannot request gigabytes of
/// pairings (1000 entrants already give 499 500 games per cycle).
pub const MAX_ENTRANTS: u32 = 1000;

/// One game of a round: entrant numbers are 1-based, as in the printed tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// Entrant playing Red (moves first).
    pub red: u32,
    /// Entrant playing Black.
    pub black: u32,
}

impl Pairing {
    /// The same two entrants with colours exchanged, for return games.
    pub fn swapped(self) -> Self {
        Pairing {
            red: self.black,
            black: self.red,
        }
    }
}

/// One round of a schedule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// 1-based round number, counted across all cycles.
    pub number: u32,
    /// Games in table order (the largest number's game first when it is real).
    pub pairings: Vec<Pairing>,
    /// Entrant without a game this round (odd fields only).
    pub bye: Option<u32>,
}

/// Most cycles accepted by [`multi_round_robin`], for the same reason.
pub const MAX_CYCLES: u32 = 100;

/// Why a schedule cannot be built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairingError {
    /// A round robin needs at least two entrants.
    TooFewEntrants(u32),
    /// More than [`MAX_ENTRANTS`] entrants.
    TooManyEntrants(u32),
    /// Zero cycles requested.
    NoCycles,
    /// More than [`MAX_CYCLES`] cycles.
    TooManyCycles(u32),
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::TooFewEntrants(n) => {
                write!(f, "a round robin needs at least 2 entrants, got {n}")
            }
            PairingError::TooManyEntrants(n) => {
                write!(f, "{n} entrants exceeds the limit of {MAX_ENTRANTS}")
            }
            PairingError::NoCycles => write!(f, "at least one cycle is required"),
            PairingError::TooManyCycles(n) => {
                write!(f, "{n} cycles exceeds the limit of {MAX_CYCLES}")
            }
        }
    }
}

impl std::error::Error for PairingError {}

/// The "largest number" of the table: the field size rounded up to even
/// (2011 rules, Appendix 1, method 1).
fn largest_number(entrants: u32) -> u32 {
    entrants + entrants % 2
}

/// The full table for an even `largest` number, the largest number included
/// (i.e. before byes are taken out).
fn full_table(largest: u32) -> Vec<Vec<Pairing>> {
    let rounds = largest.saturating_sub(1);
    let mut table: Vec<Vec<Pairing>> = Vec::with_capacity(rounds as usize);

    // Method 2: first against last, closing in; the lower number is Red, so
    // the largest number has Black in round 1.
    let first: Vec<Pairing> = (1..=largest / 2)
        .map(|i| Pairing {
            red: i,
            black: largest + 1 - i,
        })
        .collect();
    table.push(first);

    for number in 2..=rounds {
        let Some(previous) = table.last() else { break };
        // The previous round read left to right without the largest number.
        let mut order: Vec<u32> = previous
            .iter()
            .flat_map(|p| [p.red, p.black])
            .filter(|&n| n != largest)
            .collect();
        // Method 4: the last-listed number meets the largest number, whose
        // colour alternates with Red in even rounds (method 3).
        let Some(last) = order.pop() else { break };
        let mut round = Vec::with_capacity(previous.len());
        round.push(if number.is_multiple_of(2) {
            Pairing {
                red: largest,
                black: last,
            }
        } else {
            Pairing {
                red: last,
                black: largest,
            }
        });
        // Method 4: neighbours across the old pairs meet, the earlier-listed
        // one keeping the front (Red), taken from the back forwards.
        round.extend(order.chunks_exact(2).rev().map(|c| Pairing {
            red: c[0],
            black: c[1],
        }));
        table.push(round);
    }
    table
}

/// A single round robin for `entrants` players numbered `1..=entrants`.
///
/// With an odd field the entrant drawn against the phantom largest number
/// has a bye that round (2011 rules, Appendix 1, "使用说明").
pub fn round_robin(entrants: u32) -> Result<Vec<Round>, PairingError> {
    multi_round_robin(entrants, 1)
}

/// Two cycles; the second repeats the first with colours exchanged.
pub fn double_round_robin(entrants: u32) -> Result<Vec<Round>, PairingError> {
    multi_round_robin(entrants, 2)
}

/// `cycles` repetitions of the round robin, colours exchanged in every other
/// cycle.
///
/// Appendix 1 asks that in two-game play whoever had Red in the first game
/// takes Black in the second, and that multi-game play alternates colours;
/// here that is applied cycle by cycle so rounds stay one game per entrant.
/// Round numbers run on across cycles.
pub fn multi_round_robin(entrants: u32, cycles: u32) -> Result<Vec<Round>, PairingError> {
    if entrants < 2 {
        return Err(PairingError::TooFewEntrants(entrants));
    }
    if entrants > MAX_ENTRANTS {
        return Err(PairingError::TooManyEntrants(entrants));
    }
    if cycles == 0 {
        return Err(PairingError::NoCycles);
    }
    if cycles > MAX_CYCLES {
        return Err(PairingError::TooManyCycles(cycles));
    }
    let largest = largest_number(entrants);
    let table = full_table(largest);
    let has_phantom = largest != entrants;

    let capacity = table.len().saturating_mul(cycles as usize);
    let mut rounds = Vec::with_capacity(capacity);
    let mut number: u32 = 0;
    for cycle in 0..cycles {
        let swap = cycle % 2 == 1;
        for games in &table {
            number = number.saturating_add(1);
            let mut bye = None;
            let mut pairings = Vec::with_capacity(games.len());
            for &p in games {
                if has_phantom && (p.red == largest || p.black == largest) {
                    bye = Some(if p.red == largest { p.black } else { p.red });
                    continue;
                }
                pairings.push(if swap { p.swapped() } else { p });
            }
            rounds.push(Round {
                number,
                pairings,
                bye,
            });
        }
    }
    Ok(rounds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    /// A printed table: rows of (red, black), the largest number's game first.
    type Printed = &'static [&'static [(u32, u32)]];

    // Transcribed from the round-robin tables of the 2011 rules' Appendix 1 (附录一
    // 循环赛对局秩序表, in the Chinese text, not in this repository); the parenthesised "(N)"
    // of the print is just N here. 3 or 4 entrants: its 3或4人对局秩序表 (also written out in
    // the appendix's text, after its 编排方法).
    const TABLE_4: Printed = &[&[(1, 4), (2, 3)], &[(4, 3), (1, 2)], &[(2, 4), (3, 1)]];

    // Appendix 1, 5或6人对局秩序表: 5 or 6 entrants.
    const TABLE_6: Printed = &[
        &[(1, 6), (2, 5), (3, 4)],
        &[(6, 4), (5, 3), (1, 2)],
        &[(2, 6), (3, 1), (4, 5)],
        &[(6, 5), (1, 4), (2, 3)],
        &[(3, 6), (4, 2), (5, 1)],
    ];

    // Appendix 1, 7或8人对局秩序表: 7 or 8 entrants, as printed.
    // Round 7 prints "2-6"; see `TABLE_8_ERRATUM`.
    const TABLE_8: Printed = &[
        &[(1, 8), (2, 7), (3, 6), (4, 5)],
        &[(8, 5), (6, 4), (7, 3), (1, 2)],
        &[(2, 8), (3, 1), (4, 7), (5, 6)],
        &[(8, 6), (7, 5), (1, 4), (2, 3)],
        &[(3, 8), (4, 2), (5, 1), (6, 7)],
        &[(8, 7), (1, 6), (2, 5), (3, 4)],
        &[(4, 8), (5, 3), (2, 6), (7, 1)],
    ];

    /// (round, index in round, printed, generated). The method gives 6-2 where the
    /// table's round 7 prints 2-6: the neighbours rule keeps 6 in front, every other
    /// table prints the same slot as "6-2" (e.g. round 7 of the 9-or-10 table), and
    /// with 2-6 entrant 2 would hold Red 5 times out of 7.
    const TABLE_8_ERRATUM: (usize, usize, (u32, u32), (u32, u32)) = (7, 2, (2, 6), (6, 2));

    // Appendix 1, 9或10人对局秩序表: 9 or 10 entrants.
    const TABLE_10: Printed = &[
        &[(1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
        &[(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)],
        &[(2, 10), (3, 1), (4, 9), (5, 8), (6, 7)],
        &[(10, 7), (8, 6), (9, 5), (1, 4), (2, 3)],
        &[(3, 10), (4, 2), (5, 1), (6, 9), (7, 8)],
        &[(10, 8), (9, 7), (1, 6), (2, 5), (3, 4)],
        &[(4, 10), (5, 3), (6, 2), (7, 1), (8, 9)],
        &[(10, 9), (1, 8), (2, 7), (3, 6), (4, 5)],
        &[(5, 10), (6, 4), (7, 3), (8, 2), (9, 1)],
    ];

    // Appendix 1, 11或12人对局秩序表: 11 or 12 entrants.
    const TABLE_12: Printed = &[
        &[(1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7)],
        &[(12, 7), (8, 6), (9, 5), (10, 4), (11, 3), (1, 2)],
        &[(2, 12), (3, 1), (4, 11), (5, 10), (6, 9), (7, 8)],
        &[(12, 8), (9, 7), (10, 6), (11, 5), (1, 4), (2, 3)],
        &[(3, 12), (4, 2), (5, 1), (6, 11), (7, 10), (8, 9)],
        &[(12, 9), (10, 8), (11, 7), (1, 6), (2, 5), (3, 4)],
        &[(4, 12), (5, 3), (6, 2), (7, 1), (8, 11), (9, 10)],
        &[(12, 10), (11, 9), (1, 8), (2, 7), (3, 6), (4, 5)],
        &[(5, 12), (6, 4), (7, 3), (8, 2), (9, 1), (10, 11)],
        &[(12, 11), (1, 10), (2, 9), (3, 8), (4, 7), (5, 6)],
        &[(6, 12), (7, 5), (8, 4), (9, 3), (10, 2), (11, 1)],
    ];

    fn printed_table(largest: u32) -> Vec<Vec<(u32, u32)>> {
        let printed = match largest {
            4 => TABLE_4,
            6 => TABLE_6,
            8 => TABLE_8,
            10 => TABLE_10,
            12 => TABLE_12,
            _ => &[],
        };
        let mut rows: Vec<Vec<(u32, u32)>> = printed.iter().map(|r| r.to_vec()).collect();
        if largest == 8 {
            let (round, index, as_printed, corrected) = TABLE_8_ERRATUM;
            assert_eq!(rows[round - 1][index], as_printed);
            rows[round - 1][index] = corrected;
        }
        rows
    }

    fn as_tuples(round: &Round) -> Vec<(u32, u32)> {
        round.pairings.iter().map(|p| (p.red, p.black)).collect()
    }

    #[test]
    fn even_fields_match_printed_tables() {
        for largest in [4, 6, 8, 10, 12] {
            let generated = round_robin(largest).unwrap();
            let printed = printed_table(largest);
            assert_eq!(generated.len(), printed.len(), "{largest} entrants");
            for (round, row) in generated.iter().zip(&printed) {
                assert_eq!(&as_tuples(round), row, "{largest} entrants, {round:?}");
                assert_eq!(round.bye, None);
            }
        }
    }

    #[test]
    fn odd_fields_match_printed_tables_with_byes() {
        // "表中每轮第一栏内未加括弧的该号运动员在该轮轮空": the partner of
        // the parenthesised largest number in the first column has the bye.
        for entrants in [3, 5, 7, 9, 11] {
            let largest = entrants + 1;
            let generated = round_robin(entrants).unwrap();
            let printed = printed_table(largest);
            assert_eq!(generated.len(), printed.len(), "{entrants} entrants");
            for (round, row) in generated.iter().zip(&printed) {
                let (a, b) = row[0];
                let expected_bye = if a == largest { b } else { a };
                assert_eq!(round.bye, Some(expected_bye), "{entrants}: {round:?}");
                assert_eq!(as_tuples(round), row[1..].to_vec(), "{entrants} entrants");
            }
        }
    }

    #[test]
    fn table_8_erratum_is_the_only_difference() {
        let generated = round_robin(8).unwrap();
        let mut differences = Vec::new();
        for (r, (round, row)) in generated.iter().zip(TABLE_8).enumerate() {
            for (i, (g, &p)) in as_tuples(round).iter().zip(row.iter()).enumerate() {
                if *g != p {
                    differences.push((r + 1, i, p, *g));
                }
            }
        }
        assert_eq!(differences, vec![TABLE_8_ERRATUM]);
        // With the print, entrant 2 would be Red 5 times in 7 rounds.
        let printed_red_2 = TABLE_8.iter().flat_map(|r| r.iter()).filter(|p| p.0 == 2);
        assert_eq!(printed_red_2.count(), 5);
    }

    /// Structural properties every generated table must have.
    fn check_properties(entrants: u32) {
        let rounds = round_robin(entrants).unwrap();
        let largest = entrants + entrants % 2;
        assert_eq!(rounds.len() as u32, largest - 1, "{entrants}: round count");

        let mut met = HashSet::new();
        let mut reds = vec![0u32; entrants as usize + 1];
        let mut blacks = vec![0u32; entrants as usize + 1];
        let mut byes = vec![0u32; entrants as usize + 1];
        for (index, round) in rounds.iter().enumerate() {
            let number = index as u32 + 1;
            assert_eq!(round.number, number);
            let mut seen = HashSet::new();
            for p in &round.pairings {
                assert!(p.red >= 1 && p.red <= entrants && p.black >= 1 && p.black <= entrants);
                assert_ne!(p.red, p.black);
                assert!(seen.insert(p.red) && seen.insert(p.black), "plays twice");
                assert!(met.insert((p.red.min(p.black), p.red.max(p.black))));
                reds[p.red as usize] += 1;
                blacks[p.black as usize] += 1;
                // Berger property: i + j = round + 1 (mod largest - 1),
                // where the largest number's partner i has 2i = round + 1.
                let m = largest - 1;
                let sum = if p.red == largest || p.black == largest {
                    2 * p.red.min(p.black)
                } else {
                    p.red + p.black
                };
                assert_eq!(sum % m, (number + 1) % m);
            }
            if entrants.is_multiple_of(2) {
                assert_eq!(round.bye, None);
                assert_eq!(seen.len() as u32, entrants);
                // Method 3: the largest number is listed first, Red in even
                // rounds and Black in odd ones.
                let first = round.pairings[0];
                if number.is_multiple_of(2) {
                    assert_eq!(first.red, largest);
                } else {
                    assert_eq!(first.black, largest);
                }
            } else {
                let bye = round.bye.expect("odd field has a bye every round");
                assert!(!seen.contains(&bye));
                let m = largest - 1;
                assert_eq!((2 * bye) % m, (number + 1) % m);
                assert_eq!(seen.len() as u32 + 1, entrants);
                byes[bye as usize] += 1;
            }
        }
        // Everyone meets everyone exactly once.
        let n = entrants as usize;
        assert_eq!(met.len(), n * (n - 1) / 2);
        for e in 1..=n {
            // Colours balanced to within one game.
            assert!(reds[e].abs_diff(blacks[e]) <= 1, "{entrants}: entrant {e}");
            if entrants % 2 == 1 {
                assert_eq!(byes[e], 1, "{entrants}: entrant {e} byes");
            }
        }
        // Method 2: round 1 pairs first with last, 1 has the bye if odd.
        let first = &rounds[0];
        if entrants % 2 == 1 {
            assert_eq!(first.bye, Some(1));
        }
        for p in &first.pairings {
            assert_eq!(p.red + p.black, largest + 1);
            assert!(p.red < p.black);
        }
    }

    #[test]
    fn properties_hold_for_2_to_40_entrants() {
        for entrants in 2..=40 {
            check_properties(entrants);
        }
    }

    #[test]
    fn largest_number_alternates_colours_for_13_to_20() {
        for entrants in (14..=20).step_by(2) {
            let rounds = round_robin(entrants).unwrap();
            let colours: Vec<bool> = rounds
                .iter()
                .map(|r| r.pairings[0].red == entrants)
                .collect();
            for (i, red) in colours.iter().enumerate() {
                assert_eq!(*red, i % 2 == 1, "{entrants} entrants round {}", i + 1);
            }
        }
    }

    #[test]
    fn double_round_robin_swaps_colours() {
        for entrants in [3, 4, 7, 12, 13] {
            let single = round_robin(entrants).unwrap();
            let double = double_round_robin(entrants).unwrap();
            assert_eq!(double.len(), 2 * single.len());
            let (first, second) = double.split_at(single.len());
            assert_eq!(first, &single[..]);
            for (a, b) in single.iter().zip(second) {
                assert_eq!(b.number, a.number + single.len() as u32);
                assert_eq!(b.bye, a.bye);
                let swapped: Vec<Pairing> = a.pairings.iter().map(|p| p.swapped()).collect();
                assert_eq!(b.pairings, swapped);
            }
        }
        let triple = multi_round_robin(4, 3).unwrap();
        assert_eq!(triple.len(), 9);
        assert_eq!(triple[6].pairings, triple[0].pairings);
    }

    #[test]
    fn two_entrants_play_once() {
        let rounds = round_robin(2).unwrap();
        assert_eq!(rounds.len(), 1);
        assert_eq!(rounds[0].pairings, vec![Pairing { red: 1, black: 2 }]);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(round_robin(0), Err(PairingError::TooFewEntrants(0)));
        assert_eq!(round_robin(1), Err(PairingError::TooFewEntrants(1)));
        assert_eq!(
            round_robin(MAX_ENTRANTS + 1),
            Err(PairingError::TooManyEntrants(MAX_ENTRANTS + 1))
        );
        assert_eq!(
            round_robin(u32::MAX),
            Err(PairingError::TooManyEntrants(u32::MAX))
        );
        assert_eq!(multi_round_robin(4, 0), Err(PairingError::NoCycles));
        assert_eq!(
            multi_round_robin(4, MAX_CYCLES + 1),
            Err(PairingError::TooManyCycles(MAX_CYCLES + 1))
        );
        assert!(!PairingError::NoCycles.to_string().is_empty());
    }
}
