//! Texel-style tuning of the evaluation weights on self-play positions.
//!
//! Each sample is a quiet position with the result of the game it came from (from Red's side).
//! The error is the mean squared difference between the result and `sigmoid(k · eval)`, with
//! the evaluation from Red's side; `k` is first fitted to the untouched weights.
//!
//! The evaluation is not linear in its weights (king danger multiplies two of them, the game
//! phase and draw scales scale everything), but it is close to linear near any given weights.
//! So each round of [`tune`] *linearises* it: the change of every sample's evaluation per unit
//! of every weight is measured once by finite differences (the Jacobian, sparse: a table entry
//! only touches the samples that have that piece on that point), then Adam descends the error
//! of the linear model, which costs a few multiplications per sample instead of an evaluation.
//! The rounded result is checked with the real evaluation, and the next round linearises
//! again around it. A round that does not lower the real error ends the tuning. All passes over
//! the samples run in parallel (rayon).
//!
//! The weights go in and out as files in the format of `src/eval/weights.json`
//! ([`read_weights`], [`write_weights`]): a tuned file replaces that one as it is.

use super::datagen::{DataError, Record};
use crate::board::{Color, PieceKind, Position};
use crate::eval::{evaluate_with, table_index, Weights};
use anyhow::Context as _;
use rayon::prelude::*;
use std::path::Path;

/// Reads a weights file, e.g. a previous run's output to continue from.
pub fn read_weights(path: &Path) -> anyhow::Result<Weights> {
    let text = crate::input::read_text(path, crate::input::MAX_TEXT_BYTES)
        .with_context(|| format!("cannot read {}", path.display()))?;
    Weights::from_json(&text).with_context(|| format!("{}", path.display()))
}

/// Writes `w` in the format of `src/eval/weights.json`, whole or not at all
/// ([`crate::output::write_whole`]).
pub fn write_weights(path: &Path, w: &Weights) -> anyhow::Result<()> {
    crate::output::write_whole(path, w.to_json().as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// One training position.
pub struct Sample {
    pub pos: Position,
    /// 1.0 Red won, 0.5 draw, 0.0 Black won.
    pub result: f32,
}

/// The samples of `jiangjun datagen` records: each position with its game's result. A record
/// whose position cannot be set up is counted and skipped, as a bad text line is.
pub fn samples_from_records(
    records: impl Iterator<Item = Result<Record, DataError>>,
) -> Result<(Vec<Sample>, usize), DataError> {
    let mut bad = 0;
    let mut samples = Vec::new();
    for r in records {
        let r = r?;
        match r.position() {
            Ok(mut pos) => {
                pos.compact();
                samples.push(Sample {
                    pos,
                    result: r.result_for_red().value(),
                });
            }
            Err(_) => bad += 1,
        }
    }
    Ok((samples, bad))
}

/// Reads `FEN | result` lines (result from Red's side: 1, 0.5 or 0; the text format of earlier
/// tuning data); bad lines are counted and skipped.
pub fn parse_samples(text: &str) -> (Vec<Sample>, usize) {
    let mut bad = 0;
    let samples = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let parsed = l.split_once('|').and_then(|(fen, r)| {
                let result: f32 = r.trim().parse().ok()?;
                let mut pos = Position::from_fen(fen.trim()).ok()?;
                pos.compact();
                (0.0..=1.0)
                    .contains(&result)
                    .then_some(Sample { pos, result })
            });
            if parsed.is_none() {
                bad += 1;
            }
            parsed
        })
        .collect();
    (samples, bad)
}

fn sigmoid(k: f64, eval: f64) -> f64 {
    1.0 / (1.0 + (-k * eval / 400.0).exp())
}

/// The evaluation from Red's side.
fn red_eval(pos: &Position, w: &Weights) -> f64 {
    let e = evaluate_with(pos, w) as f64;
    match pos.side_to_move() {
        Color::Red => e,
        Color::Black => -e,
    }
}

/// Mean squared error of the weights on the samples.
pub fn error(samples: &[Sample], w: &Weights, k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .par_iter()
        .map(|s| {
            let d = s.result as f64 - sigmoid(k, red_eval(&s.pos, w));
            d * d
        })
        .sum();
    sum / samples.len() as f64
}

/// The scaling constant that best fits the weights (coarse-to-fine scan).
pub fn fit_k(samples: &[Sample], w: &Weights) -> f64 {
    let mut best = (1.0, f64::MAX);
    let mut step = 0.5;
    let mut centre: f64 = 1.5;
    for _ in 0..4 {
        for i in -4..=4 {
            let k = (centre + i as f64 * step).max(0.05);
            let e = error(samples, w, k);
            if e < best.1 {
                best = (k, e);
            }
        }
        centre = best.0;
        step /= 4.0;
    }
    best.0
}

/// Which weights to tune.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Everything except the piece-square tables (a few dozen numbers).
    Scalars,
    /// All weights, tables included.
    All,
}

/// Settings of [`tune`].
#[derive(Copy, Clone, Debug)]
pub struct Settings {
    pub scope: Scope,
    /// Linearise-and-descend rounds (each measures the Jacobian once).
    pub rounds: usize,
    /// Adam steps per round.
    pub steps: usize,
    /// Adam's step size, in weight units (centipawns for most weights).
    pub rate: f64,
    /// Weights that change fewer samples than this are left alone: too little data to fit.
    pub min_samples: usize,
    /// Ridge penalty added to the error per weight: `l2 · (change / 100)²`. It pins down
    /// directions the data cannot tell apart (an advisor's material and its table entries
    /// always add up together) and keeps rarely seen weights near their hand-set values.
    pub l2: f64,
    /// The same for piece-square entries, which are many and each seen on fewer samples: a
    /// larger penalty keeps them from fitting the noise of a few thousand games.
    pub l2_tables: f64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            scope: Scope::Scalars,
            rounds: 3,
            steps: 600,
            rate: 1.0,
            min_samples: 200,
            l2: 3e-6,
            l2_tables: 3e-5,
        }
    }
}

/// Finite-difference step: large enough that the evaluation's integer divisions (game phase,
/// draw scale, king-danger scale) do not round the change away.
const PROBE: i32 = 16;

/// One tunable weight: its position in [`Weights::visit_mut`]'s order and its name.
#[derive(Clone, Debug)]
struct Param {
    visit: usize,
    name: &'static str,
    sub: usize,
}

/// The weights a tuner may move. The phase weights and draw scales are left out: they are
/// not centipawn values, and they rescale every other term rather than add to it. The pawn's
/// material stays 100: it fixes the unit, so that a better fit shows as a larger `k` instead
/// of every weight growing (the search's margins are in these centipawns).
fn params(w: &mut Weights, scope: Scope) -> Vec<Param> {
    let mut out = Vec::new();
    let mut visit = 0;
    w.visit_mut(&mut |name, sub, _| {
        let unit = name.starts_with("material") && sub == PieceKind::Pawn.index();
        let wanted = !unit
            && !name.starts_with("phase_")
            && !name.starts_with("scale_")
            && (scope == Scope::All || !name.starts_with("pst"));
        if wanted {
            out.push(Param { visit, name, sub });
        }
        visit += 1;
    });
    out
}

fn get(w: &mut Weights, visit: usize) -> i32 {
    let mut i = 0;
    let mut v = 0;
    w.visit_mut(&mut |_, _, x| {
        if i == visit {
            v = *x;
        }
        i += 1;
    });
    v
}

fn set(w: &mut Weights, visit: usize, value: i32) {
    let mut i = 0;
    w.visit_mut(&mut |_, _, x| {
        if i == visit {
            *x = value;
        }
        i += 1;
    });
}

/// Bounds that keep a weight meaningful: material stays positive, multipliers and the
/// king-danger units stay non-negative.
fn clamp(p: &Param, v: f64) -> f64 {
    let lower = match p.name {
        "material_mg" | "material_eg" if p.sub > 0 => 1.0,
        "ks_attackers" | "ks_rook" | "ks_horse" | "ks_cannon" | "ks_pawn" | "ks_scale" => 0.0,
        _ => f64::MIN,
    };
    v.max(lower)
}

/// The table entry (in [`Weights::visit_mut`]'s `sub` numbering: kind × 50 + the entry of the
/// flattened half table) of every piece on the board.
fn table_entries(pos: &Position) -> impl Iterator<Item = usize> + '_ {
    Color::ALL.into_iter().flat_map(move |c| {
        pos.pieces_of(c).filter_map(move |sq| {
            let piece = pos.piece_at(sq)?;
            Some(piece.kind().index() * 50 + table_index(c, sq))
        })
    })
}

/// Per sample, the non-zero derivatives `(param, d eval / d weight)` of its Red-side evaluation.
type Jacobian = Vec<Vec<(u32, f32)>>;

fn jacobian(samples: &[Sample], w: &Weights, params: &[Param], base: &[f64]) -> Jacobian {
    let mut jac: Jacobian = vec![Vec::new(); samples.len()];
    // Which samples each table entry touches, so that a table weight is probed only there.
    let mut touched: std::collections::HashMap<usize, Vec<u32>> = Default::default();
    for (i, s) in samples.iter().enumerate() {
        for e in table_entries(&s.pos) {
            touched.entry(e).or_default().push(i as u32);
        }
    }
    for v in touched.values_mut() {
        v.sort_unstable();
        v.dedup();
    }
    let probe = |p: &Param| -> Vec<(u32, f32)> {
        let mut w2 = w.clone();
        let v = get(&mut w2, p.visit);
        set(&mut w2, p.visit, v + PROBE);
        let diff = |i: u32| {
            let d = red_eval(&samples[i as usize].pos, &w2) - base[i as usize];
            (d != 0.0).then_some((i, (d / PROBE as f64) as f32))
        };
        if p.name.starts_with("pst") {
            touched
                .get(&p.sub)
                .map(|list| list.iter().filter_map(|&i| diff(i)).collect())
                .unwrap_or_default()
        } else {
            (0..samples.len() as u32)
                .into_par_iter()
                .filter_map(diff)
                .collect()
        }
    };
    // Table weights in parallel with each other (each touches few samples); the others one by
    // one, each over all samples in parallel.
    let columns: Vec<Vec<(u32, f32)>> = params
        .par_iter()
        .map(|p| {
            if p.name.starts_with("pst") {
                probe(p)
            } else {
                Vec::new()
            }
        })
        .collect();
    for (j, (p, mut col)) in params.iter().zip(columns).enumerate() {
        if !p.name.starts_with("pst") {
            col = probe(p);
        }
        for (i, d) in col {
            jac[i as usize].push((j as u32, d));
        }
    }
    jac
}

/// Tunes `w` in place, starting from the scaling constant `k`; returns the final error (of the
/// real evaluation) and `k`, which is fitted again after each round. `progress` gets a line per
/// round and a few per descent.
pub fn tune(
    samples: &[Sample],
    w: &mut Weights,
    mut k: f64,
    settings: Settings,
    progress: impl Fn(&str),
) -> (f64, f64) {
    let params = params(w, settings.scope);
    // The ridge pulls toward the weights the tuning started from, not toward a round's.
    let anchor: Vec<f64> = params.iter().map(|p| get(w, p.visit) as f64).collect();
    let ridge: Vec<f64> = params
        .iter()
        .map(|p| {
            if p.name.starts_with("pst") {
                settings.l2_tables
            } else {
                settings.l2
            }
        })
        .collect();
    let mut best = error(samples, w, k);
    progress(&format!(
        "start: {} weights in scope, error {best:.6}",
        params.len()
    ));
    if samples.is_empty() {
        return (best, k);
    }
    let n = samples.len() as f64;
    let results: Vec<f64> = samples.iter().map(|s| s.result as f64).collect();
    for round in 1..=settings.rounds {
        let base: Vec<f64> = samples.par_iter().map(|s| red_eval(&s.pos, w)).collect();
        let jac = jacobian(samples, w, &params, &base);
        let mut hits = vec![0usize; params.len()];
        for row in &jac {
            for &(j, _) in row {
                hits[j as usize] += 1;
            }
        }
        let free: Vec<bool> = hits.iter().map(|&h| h >= settings.min_samples).collect();
        let start: Vec<f64> = params.iter().map(|p| get(w, p.visit) as f64).collect();
        let mut x = start.clone();
        let (mut m, mut v) = (vec![0.0; x.len()], vec![0.0; x.len()]);
        let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
        let scale = k / 400.0;
        for step in 1..=settings.steps {
            let delta: Vec<f64> = x.iter().zip(&start).map(|(a, b)| a - b).collect();
            let (grad, err) = jac
                .par_iter()
                .zip(base.par_iter())
                .zip(results.par_iter())
                .fold(
                    || (vec![0.0f64; x.len()], 0.0f64),
                    |(mut g, mut e), ((row, &b), &r)| {
                        let pred = b + row
                            .iter()
                            .map(|&(j, d)| d as f64 * delta[j as usize])
                            .sum::<f64>();
                        let s = sigmoid(k, pred);
                        e += (r - s) * (r - s);
                        let common = -2.0 * (r - s) * s * (1.0 - s) * scale;
                        for &(j, d) in row {
                            g[j as usize] += common * d as f64;
                        }
                        (g, e)
                    },
                )
                .reduce(
                    || (vec![0.0f64; x.len()], 0.0f64),
                    |(mut g1, e1), (g2, e2)| {
                        for (a, b) in g1.iter_mut().zip(g2) {
                            *a += b;
                        }
                        (g1, e1 + e2)
                    },
                );
            for j in 0..x.len() {
                if !free[j] {
                    continue;
                }
                let g = grad[j] / n + 2.0 * ridge[j] * (x[j] - anchor[j]) / 1e4;
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                let mh = m[j] / (1.0 - b1.powi(step as i32));
                let vh = v[j] / (1.0 - b2.powi(step as i32));
                x[j] = clamp(&params[j], x[j] - settings.rate * mh / (vh.sqrt() + eps));
            }
            if step % 200 == 0 || step == settings.steps {
                progress(&format!(
                    "  round {round} step {step}: linear-model error {:.6}",
                    err / n
                ));
            }
        }
        let mut next = w.clone();
        for (p, &value) in params.iter().zip(&x) {
            set(&mut next, p.visit, value.round() as i32);
        }
        let e = error(samples, &next, k);
        let moved = x
            .iter()
            .zip(&start)
            .filter(|(a, b)| (a.round() - **b).abs() >= 1.0)
            .count();
        progress(&format!(
            "round {round}: {moved} weights changed, error {best:.6} -> {e:.6}"
        ));
        if e >= best {
            break;
        }
        *w = next;
        // The pawn fixes the unit, so a sharper evaluation shows in `k`.
        k = fit_k(samples, w);
        best = error(samples, w, k);
        progress(&format!("  k = {k:.3}, error {best:.6}"));
    }
    (best, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn samples() -> Vec<Sample> {
        // Red wins every game in which it has an extra rook: material weights fit that.
        let text = "4k4/9/9/9/9/9/9/9/R8/3K5 w | 1.0\n\
                    4k4/9/9/9/9/9/9/9/R8/3K5 b | 1.0\n\
                    3k5/9/9/9/9/9/9/9/9/4K4 w | 0.5\n\
                    not a fen | 1\n";
        let (samples, bad) = parse_samples(text);
        assert_eq!((samples.len(), bad), (3, 1));
        samples
    }

    #[test]
    fn weights_files_are_written_and_read_back() {
        let path = std::env::temp_dir().join(format!("jiangjun-tune-{}.json", std::process::id()));
        let mut w = Weights::DEFAULT;
        w.tempo = -3;
        write_weights(&path, &w).expect("written");
        assert_eq!(read_weights(&path).expect("read"), w);
        std::fs::write(&path, "{}").expect("written");
        let e = read_weights(&path).expect_err("not weights");
        assert!(format!("{e:#}").contains("missing field"), "{e:#}");
        let _ = std::fs::remove_file(&path);
        let e = read_weights(&path).expect_err("gone");
        assert!(format!("{e:#}").starts_with("cannot read"), "{e:#}");
    }

    #[test]
    fn tuning_lowers_the_error_on_biased_data() {
        let samples = samples();
        let mut w = Weights::DEFAULT;
        // A deliberately poor fit: a rook worth almost nothing.
        w.material[PieceKind::Rook.index()].eg = 100;
        let k = 1.0;
        let before = error(&samples, &w, k);
        let settings = Settings {
            min_samples: 1,
            rate: 5.0,
            ..Settings::default()
        };
        let (after, k_after) = tune(&samples, &mut w, k, settings, |_| {});
        assert!(after < before, "{before} -> {after}");
        assert!(w.material[PieceKind::Rook.index()].eg > 100);
        assert_eq!(
            w.material[PieceKind::Pawn.index()],
            Weights::DEFAULT.material[6]
        );
        assert_eq!(error(&samples, &w, k_after), after);
    }

    #[test]
    fn the_jacobian_matches_the_evaluation_for_table_weights() {
        let samples = samples();
        let mut w = Weights::DEFAULT;
        let params = params(&mut w, Scope::All);
        let base: Vec<f64> = samples.iter().map(|s| red_eval(&s.pos, &w)).collect();
        let jac = jacobian(&samples, &w, &params, &base);
        // The first sample's red rook stands on a1 (rank 1, file a): the rook table's entry
        // 1 × 5 + 0 moves its evaluation, and the entry for an empty point does not.
        let rook = PieceKind::Rook.index() * 50;
        let find = |name: &str, sub: usize| {
            params
                .iter()
                .position(|p| p.name == name && p.sub == sub)
                .map(|j| j as u32)
        };
        let on_a1 = find("pst_eg", rook + 5).expect("param exists");
        let empty = find("pst_eg", rook + 45).expect("param exists");
        assert!(jac[0].iter().any(|&(j, d)| j == on_a1 && d > 0.0));
        assert!(!jac[0].iter().any(|&(j, _)| j == empty));
        // Every other row of every sample agrees with a real probe of the evaluation.
        for (i, row) in jac.iter().enumerate() {
            for &(j, d) in row {
                let mut w2 = w.clone();
                let p = &params[j as usize];
                let v = get(&mut w2, p.visit);
                set(&mut w2, p.visit, v + PROBE);
                let real = (red_eval(&samples[i].pos, &w2) - base[i]) / PROBE as f64;
                assert!((real - d as f64).abs() < 1e-6, "{} {}", p.name, p.sub);
            }
        }
    }
}
