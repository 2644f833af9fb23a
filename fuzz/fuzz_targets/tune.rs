//! Fuzzes what `jiangjun tune` reads: the first byte picks the reader (modulo 3). 0: tuning
//! samples, `FEN | result` lines ([`parse_samples`]); 1: a weights file
//! ([`Weights::from_json`], what `tune --init` reads); 2: the same with the fuzzer's bytes
//! laid over the default weights file (`src/eval/weights.json`) at the offset given by
//! the next two bytes, so that mutations reach past the first missing field.
//!
//! Checked: nothing panics, a bad file is an error value; every non-blank sample line is
//! either a sample or counted bad, results lie in 0..=1, and the samples written back as
//! `FEN | result` read back equal with none bad; weights accepted are written
//! ([`Weights::to_json`]) and read back equal, and writing them again gives the same text.
#![no_main]

use jiangjun::eval::Weights;
use jiangjun::tools::tune::parse_samples;
use libfuzzer_sys::fuzz_target;

fn check_weights(text: &str) {
    let Ok(w) = Weights::from_json(text) else {
        return;
    };
    let written = w.to_json();
    let back = Weights::from_json(&written).unwrap_or_else(|e| panic!("{e}\n{written}"));
    assert_eq!(back, w, "{written}");
    assert_eq!(back.to_json(), written);
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    match flags % 3 {
        0 => {
            let text = String::from_utf8_lossy(rest);
            let (samples, bad) = parse_samples(&text);
            let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
            assert_eq!(samples.len() + bad, lines);
            let mut written = String::new();
            for s in &samples {
                assert!((0.0..=1.0).contains(&s.result), "{}", s.result);
                written.push_str(&format!("{} | {}\n", s.pos.to_fen(), s.result));
            }
            let (back, bad) = parse_samples(&written);
            assert_eq!(bad, 0, "{written}");
            assert_eq!(back.len(), samples.len());
            for (a, b) in samples.iter().zip(&back) {
                assert_eq!(a.pos.to_fen(), b.pos.to_fen());
                assert_eq!(a.result, b.result);
            }
        }
        1 => check_weights(&String::from_utf8_lossy(rest)),
        _ => {
            let Some((at, patch)) = rest.split_first_chunk::<2>() else {
                return;
            };
            let mut file = Weights::DEFAULT.to_json().into_bytes();
            let at = usize::from(u16::from_le_bytes(*at)) % file.len();
            let end = (at + patch.len()).min(file.len());
            file[at..end].copy_from_slice(&patch[..end - at]);
            check_weights(&String::from_utf8_lossy(&file));
        }
    }
});
