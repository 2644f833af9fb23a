//! Fuzzes the network file reader: any bytes are refused or read as a network. Most inputs
//! are refused by length (each architecture has one exact length), so half of the time the
//! fuzzer's bytes are laid over a valid network file (the built-in version 1 file, or a small
//! version 2 file with king buckets) and the checksum is made to match, reaching the header
//! fields and the weight limits.
//!
//! Checked: nothing panics; a network read writes back to the same bytes (but for the version
//! field of a version 2 header describing the version 1 architecture, which is written as
//! version 1) and evaluates the start position, from scratch and incrementally alike.
#![no_main]

use jiangjun::board::Position;
use jiangjun::checksum::fnv1a64;
use jiangjun::eval::nnue::{
    built_in, AccumulatorStack, Architecture, FeatureSet, FloatNetwork, Network,
};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// A small version 2 file: king buckets, 32 neurons.
fn king_bucket_file() -> &'static [u8] {
    static FILE: OnceLock<Vec<u8>> = OnceLock::new();
    FILE.get_or_init(|| {
        let arch = Architecture::new(FeatureSet::KingBuckets, 32).expect("a valid width");
        FloatNetwork::random_for(arch, 1).quantize().to_bytes()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else {
        return;
    };
    let bytes = if flags & 1 != 0 {
        let mut b = if flags & 2 != 0 {
            king_bucket_file().to_vec()
        } else {
            built_in().expect("the built-in network").to_bytes()
        };
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
    let written = net.to_bytes();
    if net.architecture() == Architecture::V1 && written[4..8] != bytes[4..8] {
        assert_eq!(written[8..written.len() - 8], bytes[8..bytes.len() - 8]);
    } else {
        assert_eq!(written, bytes);
    }
    let start = Position::startpos();
    let mut stack = AccumulatorStack::new();
    stack.refresh(&net, &start);
    assert_eq!(stack.evaluate(&net, &start), net.evaluate(&start));
});
