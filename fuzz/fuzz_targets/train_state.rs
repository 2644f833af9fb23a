//! Fuzzes the training-state reader (`train --resume`): any bytes are refused or read as a
//! state. The format has one exact length (about 3.9 MB) and a checksum, so raw bytes only
//! reach the length check; most of the time the fuzzer's bytes are laid over a valid state
//! and the checksum is made to match, reaching the header and the floats (NaN, infinities,
//! huge values: what a diverged run could save).
//!
//! Checked: nothing panics; a state read writes back to the same bytes; its network
//! quantizes to a network file the engine loads, and that network evaluates the start
//! position.
#![no_main]

use jiangjun::board::Position;
use jiangjun::checksum::fnv1a32;
use jiangjun::search::nnue::{FloatNetwork, Network};
use jiangjun::tools::train::{TrainState, STATE_LEN};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

static VALID: OnceLock<Vec<u8>> = OnceLock::new();

fn valid() -> &'static [u8] {
    VALID.get_or_init(|| {
        TrainState {
            fingerprint: 1,
            epochs_done: 1,
            steps: 10,
            net: FloatNetwork::random(1),
            m: FloatNetwork::random(2),
            v: FloatNetwork::random(3),
        }
        .to_bytes()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let bytes = if flags & 3 != 0 {
        let mut b = valid().to_vec();
        // The first 8 bytes say where the fuzzer's bytes go; flags 2 puts them in the header.
        let at = rest
            .get(..8)
            .map_or(0, |o| u64::from_le_bytes(o.try_into().unwrap()) as usize);
        let at = if flags & 3 == 2 {
            at % 32
        } else {
            at % b.len()
        };
        let tail = rest.get(8..).unwrap_or(&[]);
        let n = tail.len().min(b.len() - at);
        b[at..at + n].copy_from_slice(&tail[..n]);
        if flags & 4 == 0 {
            let body = STATE_LEN - 4;
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
