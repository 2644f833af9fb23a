//! Fuzzes the network file reader: any bytes are refused or read as a network. Most inputs
//! are refused by length (the format has one exact length), so half of the time the fuzzer's
//! bytes are laid over a valid network file and the checksum is made to match, reaching the
//! header fields and the weight limits.
//!
//! Checked: nothing panics; a network read writes back to the same bytes and evaluates the
//! start position.
#![no_main]

use jiangjun::board::Position;
use jiangjun::checksum::fnv1a64;
use jiangjun::search::nnue::{built_in, Network};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let bytes = if flags & 1 != 0 {
        let mut b = built_in().expect("the built-in network").to_bytes();
        // The first 8 bytes say where the fuzzer's bytes go.
        let at = rest
            .get(..8)
            .map_or(0, |o| u64::from_le_bytes(o.try_into().unwrap()) as usize)
            % b.len();
        let tail = rest.get(8..).unwrap_or(&[]);
        let n = tail.len().min(b.len() - at);
        b[at..at + n].copy_from_slice(&tail[..n]);
        let body = b.len() - 8;
        let sum = fnv1a64(&b[..body]);
        b[body..].copy_from_slice(&sum.to_le_bytes());
        b
    } else {
        rest.to_vec()
    };
    let Ok(net) = Network::from_bytes(&bytes) else {
        return;
    };
    assert_eq!(net.to_bytes(), bytes);
    let _ = net.evaluate(&Position::startpos());
});
