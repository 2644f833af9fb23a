//! Keeps `CASES.md` honest: every case of `tests/data/repetition_cases.json` has a row, and
//! the natures written there, run through the verdict table, give the rulings written there.
//! Parsing is deliberately small (no serde): the JSON is read by its `"key": "value"` lines.

use super::limit::{natural_limit, PlyRecord};
use super::nature::{ChaseTarget, Chaser, IdleKind, MoveNatures, Nature, PieceId, Protection};
use super::rule_set::RuleSet;
use super::ruling::ruling_word;
use super::verdict::{adjudicate, Verdict};
use crate::board::GameResult;
use crate::board::{Color, PieceKind};

const JSON: &str = include_str!("../../tests/data/repetition_cases.json");
const CASES: &str = include_str!("CASES.md");

/// One JSON case: id, expected verdict, pyffish's verdict.
struct JsonCase {
    id: String,
    expected: String,
    pyffish: String,
}

/// The string value of the first `"key": "..."` in `text`.
fn json_value(text: &str, key: &str) -> Option<String> {
    let pattern = format!("\"{key}\": \"");
    let start = text.find(&pattern)? + pattern.len();
    let len = text.get(start..)?.find('"')?;
    text.get(start..start + len).map(str::to_owned)
}

fn json_cases() -> Vec<JsonCase> {
    JSON.split("\"id\": \"")
        .skip(1)
        .filter_map(|chunk| {
            let id = chunk.get(..chunk.find('"')?)?.to_owned();
            let expected = json_value(chunk, "expected")?;
            let pyffish = json_value(chunk, "interpreted")?;
            Some(JsonCase {
                id,
                expected,
                pyffish: if pyffish == "no_game_end" {
                    "no_verdict_yet".to_owned()
                } else {
                    pyffish
                },
            })
        })
        .collect()
}

/// One table row of CASES.md.
struct Row {
    id: String,
    expected: String,
    occurrences: u32,
    cxa: String,
    clause: String,
    axf: String,
    red: String,
    black: String,
    notes: String,
}

fn rows() -> Vec<Row> {
    CASES
        .lines()
        .filter(|l| l.starts_with("| `"))
        .filter_map(|line| {
            let cells: Vec<String> = line
                .split('|')
                .map(|c| c.trim().trim_matches('`').to_owned())
                .collect();
            let cell = |i: usize| cells.get(i).cloned();
            Some(Row {
                id: cell(1)?,
                expected: cell(2)?,
                occurrences: cell(3)?.parse().ok()?,
                cxa: cell(4)?,
                clause: cell(5)?,
                axf: cell(6)?,
                red: cell(7)?,
                black: cell(8)?,
                notes: cell(9)?,
            })
        })
        .collect()
}

fn kind(c: char) -> Result<PieceKind, String> {
    Ok(match c {
        'R' => PieceKind::Rook,
        'N' => PieceKind::Horse,
        'C' => PieceKind::Cannon,
        'A' => PieceKind::Advisor,
        'B' => PieceKind::Elephant,
        'P' => PieceKind::Pawn,
        _ => return Err(format!("bad piece kind {c:?}")),
    })
}

/// `R1u`, `N2fj`, `C1u!k`: kind, label, protection, joint, lone king/pawn.
fn target(text: &str) -> Result<ChaseTarget, String> {
    let (body, by) = match text.split_once('!') {
        Some((b, "k")) => (b, Chaser::KingAlone),
        Some((b, "p")) => (b, Chaser::PawnAlone),
        Some(_) => return Err(format!("bad chaser in {text:?}")),
        None => (text, Chaser::Piece),
    };
    let mut chars = body.chars();
    let k = kind(chars.next().ok_or("empty target")?)?;
    let rest: String = chars.collect();
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let label: u8 = digits
        .parse()
        .map_err(|_| format!("bad label in {text:?}"))?;
    let mut flags = rest.chars().skip(digits.len());
    let protection = match flags.next() {
        Some('p') => Protection::Protected,
        Some('u') => Protection::Unprotected,
        Some('f') => Protection::FalseRoot,
        Some('s') => Protection::Underprotected,
        _ => return Err(format!("bad protection in {text:?}")),
    };
    let joint = match flags.next() {
        None => false,
        Some('j') => true,
        Some(_) => return Err(format!("bad flag in {text:?}")),
    };
    // Labels are per kind; give each (kind, label) its own id.
    let id = PieceId((k as u8).wrapping_mul(32).wrapping_add(label));
    let t = ChaseTarget::new(id, k, protection).by(by);
    Ok(if joint { t.joint() } else { t })
}

fn idle_kind(text: &str) -> Result<IdleKind, String> {
    Ok(match text {
        "" => IdleKind::Plain,
        "exch" => IdleKind::Exchange,
        "offer" => IdleKind::Offer,
        "block" => IdleKind::Block,
        "follow" => IdleKind::Follow,
        "king" => IdleKind::KingAnswersCheck,
        "lone" => IdleKind::LoneDefender,
        "losing" => IdleKind::LosingTrade,
        "nogain" => IdleKind::NoGain,
        "pawn" => IdleKind::PawnDiscovery,
        "selfkill" => IdleKind::SelfInflicted,
        "same" => IdleKind::UnchangedAttack,
        _ => return Err(format!("bad idle kind {text:?}")),
    })
}

/// `e2f2=K+Z(C1u)` → the move's natures under `rules`. `Zr(...)`, a chase by cutting a root,
/// and `Zc(...)`, a win by a series of checks (24.3), count under the 2011 rules only (AXF
/// counts new attacks only, and no series of checks).
fn move_natures(token: &str, rules: RuleSet) -> Result<MoveNatures, String> {
    let body = token.split_once('=').map_or(token, |(_, b)| b);
    let mut natures = Vec::new();
    for part in body.split('+') {
        let part = match part.strip_prefix("Zr").or_else(|| part.strip_prefix("Zc")) {
            Some(_) if rules == RuleSet::Axf => continue,
            Some(rest) => format!("Z{rest}"),
            None => part.to_owned(),
        };
        let part = part.as_str();
        natures.push(match part {
            "K" => Nature::Check,
            "S" => Nature::MateThreat,
            _ if part.starts_with('X') => Nature::Idle(idle_kind(
                part.trim_start_matches('X').trim_start_matches(':'),
            )?),
            _ if part.starts_with("Z(") && part.ends_with(')') => {
                let inner = part.get(2..part.len() - 1).unwrap_or_default();
                Nature::Chase(inner.split('&').map(target).collect::<Result<_, _>>()?)
            }
            _ => return Err(format!("bad nature {part:?}")),
        });
    }
    Ok(MoveNatures::new(natures))
}

fn side_natures(cell: &str, rules: RuleSet) -> Result<Vec<MoveNatures>, String> {
    cell.split_whitespace()
        .map(|t| move_natures(t, rules))
        .collect()
}

/// The natural-limit row: `carry=N` then plies `q`/`c`/`x`, red's cell then black's,
/// interleaved from red.
fn limit_record(red: &str, black: &str) -> Result<(u32, Vec<PlyRecord>), String> {
    let mut carry = 0;
    let mut plies = |cell: &str, side: Color| -> Result<Vec<PlyRecord>, String> {
        let mut out = Vec::new();
        for token in cell.split_whitespace() {
            if let Some(n) = token.strip_prefix("carry=") {
                carry = n.parse().map_err(|_| format!("bad carry {token:?}"))?;
                continue;
            }
            out.push(match token.split_once('=').map_or(token, |(_, p)| p) {
                "q" => PlyRecord::quiet(side),
                "c" => PlyRecord::check(side),
                "x" => PlyRecord::capture(side),
                _ => return Err(format!("bad ply {token:?}")),
            });
        }
        Ok(out)
    };
    let red = plies(red, Color::Red)?;
    let black = plies(black, Color::Black)?;
    let mut record = Vec::new();
    for i in 0..red.len().max(black.len()) {
        record.extend(red.get(i));
        record.extend(black.get(i));
    }
    Ok((carry, record))
}

/// Runs one row under `rules`; returns the outcome and the clause text ("25.3 / 24.13").
fn rule_row(row: &Row, rules: RuleSet) -> Result<(Option<GameResult>, String), String> {
    if row.red.starts_with("carry=") {
        let (carry, record) = limit_record(&row.red, &row.black)?;
        let s = natural_limit(rules, carry, &record, None);
        return Ok((s.outcome, s.clause.to_string()));
    }
    let red = side_natures(&row.red, rules)?;
    let black = side_natures(&row.black, rules)?;
    let v: Verdict = adjudicate(rules, row.occurrences, &red, &black);
    let clause = match v.basis() {
        Some(basis) => format!("{} / {}", v.clause, basis),
        None => v.clause.to_string(),
    };
    Ok((v.outcome, clause))
}

#[test]
fn every_json_case_has_exactly_one_row() {
    let cases = json_cases();
    let rows = rows();
    assert_eq!(cases.len(), 36, "the JSON changed; update CASES.md");
    for case in &cases {
        let n = rows.iter().filter(|r| r.id == case.id).count();
        assert_eq!(n, 1, "{}: {n} rows in CASES.md", case.id);
    }
    assert_eq!(rows.len(), cases.len(), "CASES.md has rows for unknown ids");
}

#[test]
fn rows_agree_with_the_json() {
    let cases = json_cases();
    for row in rows() {
        let Some(case) = cases.iter().find(|c| c.id == row.id) else {
            panic!("{}: not in the JSON", row.id);
        };
        assert_eq!(row.expected, case.expected, "{}: expected column", row.id);
        let flagged = row.notes.contains("**FLAG**");
        assert_eq!(
            row.cxa != case.expected,
            flagged,
            "{}: a CXA verdict differs from the JSON exactly when the row is flagged",
            row.id
        );
        assert_eq!(row.axf, case.pyffish, "{}: AXF column vs pyffish", row.id);
    }
}

#[test]
fn natures_give_the_rulings_written() {
    for row in rows() {
        let (cxa, clause) = match rule_row(&row, RuleSet::Cxa2011) {
            Ok(r) => r,
            Err(e) => panic!("{}: {e}", row.id),
        };
        assert_eq!(ruling_word(cxa), row.cxa, "{}: CXA verdict", row.id);
        assert_eq!(clause, row.clause, "{}: clause", row.id);
        let (axf, _) = match rule_row(&row, RuleSet::Axf) {
            Ok(r) => r,
            Err(e) => panic!("{}: {e}", row.id),
        };
        assert_eq!(ruling_word(axf), row.axf, "{}: AXF verdict", row.id);
    }
}
