//! Fuzzes the option parsers of `jiangjun match` and `jiangjun tournament`: the first byte
//! picks the parser (modulo 7) and the rest, read as UTF-8 with replacement characters, is
//! its text: an `--engine` spec ([`EngineSpec::parse`]), a `--tc` time control
//! ([`TimeControl::parse`]), `--draw-adjudication`, `--resign-adjudication`, `--sprt`,
//! `--scoring` or a timeout in seconds (`--hang-timeout` and the others).
//!
//! Checked: nothing panics, a refusal is an error value; what is accepted keeps the
//! parser's documented promises: a time control prints (its PGN tag text) and reads back
//! equal, also as an engine's own `tc=`; a spec has a command and a name, option names are
//! trimmed and not empty; adjudication counts and scores are in their ranges and their
//! numbers written back read back equal; an SPRT has finite hypotheses in order and finite
//! bounds either side of 0; scoring points are at most 1000 and read back equal; a timeout
//! is positive and below 10^7 seconds.
#![no_main]

use jiangjun::cli::tournament::{
    draw_adjudication, parse_scoring, resign_adjudication, seconds, sprt,
};
use jiangjun::tournament::clock::TimeControl;
use jiangjun::tournament::engine_process::EngineSpec;
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

fn check_tc(tc: &TimeControl) {
    let text = tc.to_string();
    assert_eq!(TimeControl::parse(&text).as_ref(), Ok(tc), "{text}");
    let spec = EngineSpec::parse(&format!("cmd=x,tc={text}")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(spec.tc.as_ref(), Some(tc), "{text}");
    match tc {
        TimeControl::Fischer { base_ms, inc_ms } => assert!(base_ms + inc_ms > 0),
        TimeControl::Periods { periods, inc_ms } => {
            assert!(!periods.is_empty());
            assert!(periods.iter().all(|p| p.moves > 0));
            assert!(*inc_ms > 0 || periods.iter().any(|p| p.ms > 0));
        }
        TimeControl::MoveTime(ms) => assert!(*ms > 0),
        TimeControl::Depth(d) => assert!(*d > 0),
        TimeControl::Nodes(n) => assert!(*n > 0),
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let text = text.as_ref();
    match flags % 7 {
        0 => {
            if let Ok(spec) = EngineSpec::parse(text) {
                assert!(!spec.command.as_os_str().is_empty(), "{text:?}");
                assert!(!spec.name.is_empty(), "{text:?}");
                for (name, _) in &spec.options {
                    assert!(!name.is_empty() && name.trim() == name, "{text:?}");
                }
                if let Some(tc) = &spec.tc {
                    check_tc(tc);
                }
            }
        }
        1 => {
            if let Ok(tc) = TimeControl::parse(text) {
                check_tc(&tc);
            }
        }
        2 => {
            if let Ok(d) = draw_adjudication(text) {
                assert!((1..=10_000).contains(&d.move_count), "{text:?}");
                assert!((0..=1_000_000).contains(&d.score), "{text:?}");
                let back = format!("{},{},{}", d.move_number, d.move_count, d.score);
                assert_eq!(draw_adjudication(&back), Ok(d), "{text:?}");
            }
        }
        3 => {
            if let Ok(r) = resign_adjudication(text) {
                assert!((1..=10_000).contains(&r.move_count), "{text:?}");
                assert!((1..=1_000_000).contains(&r.score), "{text:?}");
                let back = format!("{},{}", r.move_count, r.score);
                assert_eq!(resign_adjudication(&back), Ok(r), "{text:?}");
            }
        }
        4 => {
            if let Ok(s) = sprt(text) {
                assert!(s.elo0().is_finite() && s.elo1().is_finite(), "{text:?}");
                assert!(s.elo0() < s.elo1(), "{text:?}");
                let (lower, upper) = s.bounds();
                assert!(lower.is_finite() && upper.is_finite(), "{text:?}");
                assert!(lower < 0.0 && upper > 0.0, "{text:?}");
            }
        }
        5 => {
            if let Ok(s) = parse_scoring(text) {
                for p in [s.win, s.loss, s.red_draw, s.black_draw] {
                    assert!(p <= 1000, "{text:?}");
                }
                let back = format!("{},{}/{},{}", s.win, s.red_draw, s.black_draw, s.loss);
                assert_eq!(parse_scoring(&back), Ok(s), "{text:?}");
            }
        }
        _ => {
            if let Ok(d) = seconds(text) {
                assert!(d > Duration::ZERO, "{text:?}: {d:?}");
                assert!(d < Duration::from_secs(10_000_000), "{text:?}: {d:?}");
            }
        }
    }
});
