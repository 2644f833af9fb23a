//! Time controls and the game clock for engine matches.
//!
//! The clock forms are those of 2011 rules article 6: base time plus increment per move
//! (6.1, "基本用时加秒制"), a number of moves in a period with further periods after it
//! (6.2, "限时限着制"), and one time for the whole game (6.3, "限时包干制", which is 6.1
//! with no increment). Engine testing adds a fixed time per move, a fixed depth and a fixed
//! node count, which have no clock at all.
//!
//! The clock is charged from sending `go` to receiving `bestmove` (what UCCI GUIs do). An
//! engine that overruns its remaining time by more than the configured margin loses (4.1.6);
//! smaller overruns are forgiven because pipes and the scheduler add a few milliseconds that
//! are not the engine's fault.

use std::fmt;
use std::time::Duration;

/// One period of a 6.2 time control: `moves` moves must be made in `ms` milliseconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// Moves to make in the period.
    pub moves: u32,
    /// Time for the period, milliseconds.
    pub ms: u64,
}

/// How long engines may think.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeControl {
    /// 6.1 base + increment (6.3 sudden death when `inc_ms` is 0).
    Fischer {
        /// Starting time per side, ms.
        base_ms: u64,
        /// Added after every move, ms.
        inc_ms: u64,
    },
    /// 6.2 moves in time. The last period repeats until the game ends ("以后每10分钟内必须
    /// 走满10着"); unused time carries over to the next period.
    Periods {
        /// The periods in order; never empty.
        periods: Vec<Period>,
        /// Optional increment per move, ms.
        inc_ms: u64,
    },
    /// Fixed time per move, ms (no carry-over).
    MoveTime(u64),
    /// Fixed search depth.
    Depth(u32),
    /// Fixed node count.
    Nodes(u64),
}

/// Longest time accepted on the command line (a week), so sums cannot overflow.
const MAX_MS: u64 = 7 * 24 * 3600 * 1000;

fn parse_seconds(s: &str) -> Result<u64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("'{s}' is not a number of seconds"));
    }
    let ms = (v * 1000.0).round();
    if ms > MAX_MS as f64 {
        return Err(format!("'{s}' seconds is too long"));
    }
    Ok(ms as u64)
}

fn parse_count<T: std::str::FromStr>(s: &str, what: &str) -> Result<T, String> {
    s.trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a valid {what}"))
}

/// Seconds as short text: `60`, `0.1`, `2.5`.
fn fmt_seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}", ms / 1000)
    } else {
        let s = format!("{:.3}", ms as f64 / 1000.0);
        s.trim_end_matches('0').to_string()
    }
}

impl TimeControl {
    /// Reads the `--tc` syntax: `10+0.1` (seconds base + increment, 6.1), `300` (sudden death,
    /// 6.3), `40/60` or `30/3600:10/600` (moves/seconds periods, the last repeating, 6.2,
    /// optionally `+inc`), `movetime=200` (ms per move), `depth=N`, `nodes=N`.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let t = text.trim();
        if let Some((key, value)) = t.split_once('=') {
            return match key.trim() {
                "movetime" => {
                    let ms: u64 = parse_count(value, "number of milliseconds")?;
                    if ms == 0 || ms > MAX_MS {
                        return Err(format!("movetime {ms} is out of range"));
                    }
                    Ok(TimeControl::MoveTime(ms))
                }
                "depth" => {
                    let d: u32 = parse_count(value, "depth")?;
                    if d == 0 || d > 1000 {
                        return Err(format!("depth {d} is out of range"));
                    }
                    Ok(TimeControl::Depth(d))
                }
                "nodes" => {
                    let n: u64 = parse_count(value, "node count")?;
                    if n == 0 {
                        return Err("nodes must be positive".into());
                    }
                    Ok(TimeControl::Nodes(n))
                }
                other => Err(format!(
                    "unknown time control '{other}' (movetime=, depth=, nodes=)"
                )),
            };
        }
        let (main, inc) = match t.split_once('+') {
            Some((m, i)) => (m, parse_seconds(i)?),
            None => (t, 0),
        };
        if main.contains('/') {
            let mut periods = Vec::new();
            for part in main.split(':') {
                let (moves, secs) = part
                    .split_once('/')
                    .ok_or_else(|| format!("period '{part}' is not moves/seconds"))?;
                let moves: u32 = parse_count(moves, "move count")?;
                if moves == 0 || moves > 10_000 {
                    return Err(format!("period '{part}': move count out of range"));
                }
                let ms = parse_seconds(secs)?;
                periods.push(Period { moves, ms });
            }
            if periods.iter().all(|p| p.ms == 0) && inc == 0 {
                return Err("the periods give no time".into());
            }
            return Ok(TimeControl::Periods {
                periods,
                inc_ms: inc,
            });
        }
        let base_ms = parse_seconds(main)?;
        if base_ms == 0 && inc == 0 {
            return Err("the time control gives no time".into());
        }
        Ok(TimeControl::Fischer {
            base_ms,
            inc_ms: inc,
        })
    }

    /// Whether a clock runs (6.1–6.3), as opposed to per-move limits.
    pub fn has_clock(&self) -> bool {
        matches!(
            self,
            TimeControl::Fischer { .. } | TimeControl::Periods { .. }
        )
    }

    /// Whether time limits the search (a clock or a fixed time per move): the limits under
    /// which thinking on the opponent's time means something (ucci.md 4.6).
    pub fn is_timed(&self) -> bool {
        self.has_clock() || matches!(self, TimeControl::MoveTime(_))
    }
}

/// PGN `TimeControl` tag text: `60+0.5`, `40/60:20/30` (PGN standard forms, seconds) and, for
/// limits that PGN cannot express, `movetime=200`, `depth=8`, `nodes=10000`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::Fischer { base_ms, inc_ms } => {
                write!(f, "{}", fmt_seconds(*base_ms))?;
                if *inc_ms > 0 {
                    write!(f, "+{}", fmt_seconds(*inc_ms))?;
                }
                Ok(())
            }
            TimeControl::Periods { periods, inc_ms } => {
                for (i, p) in periods.iter().enumerate() {
                    if i > 0 {
                        f.write_str(":")?;
                    }
                    write!(f, "{}/{}", p.moves, fmt_seconds(p.ms))?;
                }
                if *inc_ms > 0 {
                    write!(f, "+{}", fmt_seconds(*inc_ms))?;
                }
                Ok(())
            }
            TimeControl::MoveTime(ms) => write!(f, "movetime={ms}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
        }
    }
}

/// One side's clock during a game.
#[derive(Debug, Clone)]
pub struct Clock {
    tc: TimeControl,
    /// Milliseconds left; may dip below zero within the margin.
    remaining: i64,
    /// Index of the current 6.2 period.
    period: usize,
    /// Moves made in the current period.
    moves_in_period: u32,
}

/// Why a move was charged as a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Flagged {
    /// How far past the limit the engine went, ms.
    pub over_ms: u64,
}

impl Clock {
    /// A full clock at the start of a game.
    pub fn new(tc: &TimeControl) -> Clock {
        let remaining = match tc {
            TimeControl::Fischer { base_ms, .. } => *base_ms,
            TimeControl::Periods { periods, .. } => periods.first().map_or(0, |p| p.ms),
            TimeControl::MoveTime(ms) => *ms,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => 0,
        };
        Clock {
            tc: tc.clone(),
            remaining: remaining as i64,
            period: 0,
            moves_in_period: 0,
        }
    }

    /// Milliseconds left (0 if overdrawn within the margin).
    pub fn remaining_ms(&self) -> u64 {
        self.remaining.max(0) as u64
    }

    /// The increment per move, ms.
    pub fn increment_ms(&self) -> u64 {
        match &self.tc {
            TimeControl::Fischer { inc_ms, .. } | TimeControl::Periods { inc_ms, .. } => *inc_ms,
            _ => 0,
        }
    }

    /// Moves still to make in the current 6.2 period (`movestogo`); `None` otherwise.
    pub fn moves_to_go(&self) -> Option<u32> {
        match &self.tc {
            TimeControl::Periods { periods, .. } => {
                let p = periods.get(self.period).or(periods.last())?;
                Some(p.moves.saturating_sub(self.moves_in_period).max(1))
            }
            _ => None,
        }
    }

    /// How long this move may take before it is a loss on time: the time left (or the move
    /// time) plus `margin`. `None` when no clock runs (depth and node limits).
    pub fn allowance(&self, margin: Duration) -> Option<Duration> {
        let ms = match &self.tc {
            TimeControl::Fischer { .. } | TimeControl::Periods { .. } => self.remaining_ms(),
            TimeControl::MoveTime(ms) => *ms,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => return None,
        };
        Some(Duration::from_millis(ms).saturating_add(margin))
    }

    /// Charges one move that took `elapsed`. `Err` when the flag fell: the overrun went past
    /// `margin` (4.1.6). Otherwise the increment is added and, at the end of a 6.2 period,
    /// the next period's time.
    pub fn charge(&mut self, elapsed: Duration, margin: Duration) -> Result<(), Flagged> {
        let used = i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX);
        let margin = i64::try_from(margin.as_millis()).unwrap_or(i64::MAX);
        match &self.tc {
            TimeControl::MoveTime(ms) => {
                let over = used.saturating_sub(*ms as i64);
                if over > margin {
                    return Err(Flagged {
                        over_ms: over as u64,
                    });
                }
                Ok(())
            }
            TimeControl::Depth(_) | TimeControl::Nodes(_) => Ok(()),
            TimeControl::Fischer { inc_ms, .. } => {
                let left = self.remaining.saturating_sub(used);
                if left < -margin {
                    return Err(Flagged {
                        over_ms: left.unsigned_abs(),
                    });
                }
                self.remaining = left.max(0).saturating_add(*inc_ms as i64);
                Ok(())
            }
            TimeControl::Periods { periods, inc_ms } => {
                let left = self.remaining.saturating_sub(used);
                if left < -margin {
                    return Err(Flagged {
                        over_ms: left.unsigned_abs(),
                    });
                }
                let mut left = left.max(0).saturating_add(*inc_ms as i64);
                self.moves_in_period += 1;
                let current = periods.get(self.period).or(periods.last());
                if current.is_some_and(|p| self.moves_in_period >= p.moves) {
                    self.period = (self.period + 1).min(periods.len().saturating_sub(1));
                    self.moves_in_period = 0;
                    if let Some(next) = periods.get(self.period) {
                        left = left.saturating_add(next.ms as i64);
                    }
                }
                self.remaining = left;
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MARGIN: Duration = Duration::from_millis(100);

    #[test]
    fn parses_every_form() {
        assert_eq!(
            TimeControl::parse("10+0.1"),
            Ok(TimeControl::Fischer {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            TimeControl::parse("300"),
            Ok(TimeControl::Fischer {
                base_ms: 300_000,
                inc_ms: 0
            })
        );
        assert_eq!(
            TimeControl::parse("40/60"),
            Ok(TimeControl::Periods {
                periods: vec![Period {
                    moves: 40,
                    ms: 60_000
                }],
                inc_ms: 0
            })
        );
        let tc = TimeControl::parse("30/3600:10/600").unwrap();
        assert_eq!(tc.to_string(), "30/3600:10/600");
        assert_eq!(
            TimeControl::parse("movetime=200"),
            Ok(TimeControl::MoveTime(200))
        );
        assert_eq!(TimeControl::parse("depth=7"), Ok(TimeControl::Depth(7)));
        assert_eq!(
            TimeControl::parse("nodes=5000"),
            Ok(TimeControl::Nodes(5000))
        );
        assert_eq!(TimeControl::parse("10+0.1").unwrap().to_string(), "10+0.1");
        for bad in [
            "",
            "x",
            "0",
            "0+0",
            "-5+1",
            "40/",
            "/60",
            "0/60",
            "movetime=0",
            "depth=x",
            "speed=3",
            "1e300",
            "nan",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn fischer_adds_increment_and_flags_past_margin() {
        let tc = TimeControl::parse("1+0.5").unwrap();
        let mut c = Clock::new(&tc);
        assert_eq!(c.allowance(MARGIN), Some(Duration::from_millis(1100)));
        c.charge(Duration::from_millis(400), MARGIN).unwrap();
        assert_eq!(c.remaining_ms(), 1100);
        // Overrun inside the margin is forgiven, the clock goes to zero plus increment.
        c.charge(Duration::from_millis(1150), MARGIN).unwrap();
        assert_eq!(c.remaining_ms(), 500);
        assert!(c.charge(Duration::from_millis(700), MARGIN).is_err());
    }

    #[test]
    fn periods_refill_and_count_moves_to_go() {
        let tc = TimeControl::parse("2/1:1/0.5").unwrap();
        let mut c = Clock::new(&tc);
        assert_eq!(c.moves_to_go(), Some(2));
        c.charge(Duration::from_millis(300), MARGIN).unwrap();
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(Duration::from_millis(300), MARGIN).unwrap();
        // Second period: 400 left over + 500.
        assert_eq!(c.remaining_ms(), 900);
        assert_eq!(c.moves_to_go(), Some(1));
        c.charge(Duration::from_millis(100), MARGIN).unwrap();
        // The last period repeats.
        assert_eq!(c.remaining_ms(), 1300);
        assert_eq!(c.moves_to_go(), Some(1));
    }

    #[test]
    fn movetime_and_depth() {
        let mut c = Clock::new(&TimeControl::MoveTime(100));
        assert!(c.charge(Duration::from_millis(190), MARGIN).is_ok());
        assert!(c.charge(Duration::from_millis(250), MARGIN).is_err());
        let mut d = Clock::new(&TimeControl::Depth(3));
        assert_eq!(d.allowance(MARGIN), None);
        assert!(d.charge(Duration::from_secs(100), MARGIN).is_ok());
    }
}
