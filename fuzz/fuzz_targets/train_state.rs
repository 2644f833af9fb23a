//! Fuzzes the training-state reader (`train --resume`): any bytes are refused or read as a
//! state. Each architecture has one exact length (about 3.9 MB for the first) and a checksum,
//! so raw bytes only reach the length check; most of the time the fuzzer's bytes are laid over
//! a valid state (version 1, or with flag 8 a version 2 state of a small king-bucket network)
//! and the checksum is made to match, reaching the header and the floats (NaN, infinities,
//! huge values: what a diverged run could save).
//!
//! Checked: nothing panics; a state read writes back to the same bytes; its network
//! quantizes to a network file the engine loads, and that network evaluates the start
//! position.
#![no_main]

use jiangjun::board::Position;
use jiangjun::checksum::fnv1a32;
use jiangjun::eval::nnue::{Architecture, FeatureSet, FloatNetwork, Network};
use jiangjun::tools::train::TrainState;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static VALID: OnceLock<Vec<u8>> = OnceLock::new();
static VALID_V2: OnceLock<Vec<u8>> = OnceLock::new();

fn state(arch: Architecture) -> Vec<u8> {
    TrainState {
        fingerprint: 1,
        epochs_done: 1,
        steps: 10,
        net: FloatNetwork::random_for(arch, 1),
        m: FloatNetwork::random_for(arch, 2),
        v: FloatNetwork::random_for(arch, 3),
    }
    .to_bytes()
}

fn valid(v2: bool) -> &'static [u8] {
    if v2 {
        VALID_V2.get_or_init(|| {
            state(Architecture::new(FeatureSet::KingBuckets, 64).expect("a valid width"))
        })
    } else {
        VALID.get_or_init(|| state(Architecture::V1))
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let bytes = if flags & 3 != 0 {
        let mut b = valid(flags & 8 != 0).to_vec();
        // The first 8 bytes say where the fuzzer's bytes go; flags 2 puts them in the header.
        let at = rest
            .get(..8)
            .map_or(0, |o| u64::from_le_bytes(o.try_into().unwrap()) as usize);
        let at = if flags & 3 == 2 {
            at % 40
        } else {
            at % b.len()
        };
        let tail = rest.get(8..).unwrap_or(&[]);
        let n = tail.len().min(b.len() - at);
        b[at..at + n].copy_from_slice(&tail[..n]);
        if flags & 4 == 0 {
            let body = b.len() - 4;
            let sum = fnv1a32(&b[..body]);
            b[body..].copy_from_slice(&sum.to_le_bytes());
        }
        b
    } else {
        rest.to_vec()
    };
    let Ok(state) = TrainState::from_bytes(&bytes) else {
        return;
    };
    assert_eq!(state.to_bytes(), bytes);
    let file = state.net.quantize().to_bytes();
    let net = Network::from_bytes(&file).expect("a quantized state loads as a network");
    let _ = net.evaluate(&Position::startpos());
});
