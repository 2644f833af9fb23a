//! The state of a training run after an epoch, so that a stopped run can go on (`jiangjun
//! train --resume`) and end with the same network, bit for bit, as a run that never stopped:
//! the float network (the network file is quantized, which rounds), AdamW's two moments and
//! step count, the epochs done, and a fingerprint of what else decides the result (the
//! settings and the data files).
//!
//! Format (version 1, little-endian): magic `JJSTATE\0`, version u32, fingerprint u64, epochs
//! done u32, optimiser steps i32; then the network, the first moment and the second moment,
//! each as [`FloatNetwork`]'s four arrays at their full shapes (f32); then an FNV-1a checksum
//! u32 of every byte before it. The length is fixed: [`STATE_LEN`].

use crate::checksum::fnv1a32;
use crate::search::nnue::{Architecture, FloatNetwork, HIDDEN, INPUTS, OUTPUT_BUCKETS};
use std::fmt;

const MAGIC: &[u8; 8] = b"JJSTATE\0";
const VERSION: u32 = 1;
const HEADER: usize = 8 + 4 + 8 + 4 + 4;
/// The shapes of the four arrays, in file order.
const SHAPES: [usize; 4] = [
    INPUTS * HIDDEN,
    HIDDEN,
    OUTPUT_BUCKETS * 2 * HIDDEN,
    OUTPUT_BUCKETS,
];
const PARAMS: usize = SHAPES[0] + SHAPES[1] + SHAPES[2] + SHAPES[3];
/// The length of a state file in bytes (about 3.9 MB).
pub const STATE_LEN: usize = HEADER + 3 * PARAMS * 4 + 4;

/// A run's state after `epochs_done` epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    /// What the run's settings and data hash to (`train`'s fingerprint); a run resumes only
    /// from a state with its own fingerprint.
    pub fingerprint: u64,
    pub epochs_done: u32,
    /// AdamW steps taken (its bias corrections depend on the count).
    pub steps: i32,
    pub net: FloatNetwork,
    /// AdamW's first and second moments, one value per parameter.
    pub m: FloatNetwork,
    pub v: FloatNetwork,
}

/// Why bytes are not a training state.
#[derive(Debug, PartialEq, Eq)]
pub enum StateError {
    Length(usize),
    Magic,
    Version(u32),
    Checksum,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Length(n) => write!(
                f,
                "not a training state: {n} bytes where a state has {STATE_LEN}"
            ),
            StateError::Magic => write!(f, "not a training state (no JJSTATE magic)"),
            StateError::Version(v) => write!(
                f,
                "training state version {v}; this build reads version {VERSION}"
            ),
            StateError::Checksum => write!(f, "training state damaged (checksum mismatch)"),
        }
    }
}

impl std::error::Error for StateError {}

fn arrays(net: &FloatNetwork) -> [&Vec<f32>; 4] {
    [&net.l1_weights, &net.l1_bias, &net.l2_weights, &net.l2_bias]
}

impl TrainState {
    /// The file's bytes. The networks must have their full shapes, as the trainer keeps them.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(STATE_LEN);
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.extend_from_slice(&self.fingerprint.to_le_bytes());
        b.extend_from_slice(&self.epochs_done.to_le_bytes());
        b.extend_from_slice(&self.steps.to_le_bytes());
        for net in [&self.net, &self.m, &self.v] {
            for (a, &n) in arrays(net).into_iter().zip(&SHAPES) {
                debug_assert_eq!(a.len(), n);
                // Short arrays are padded with zeros, so the length is always STATE_LEN.
                for i in 0..n {
                    b.extend_from_slice(&a.get(i).copied().unwrap_or(0.0).to_le_bytes());
                }
            }
        }
        let sum = fnv1a32(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<TrainState, StateError> {
        if b.len() != STATE_LEN {
            return Err(StateError::Length(b.len()));
        }
        if &b[..8] != MAGIC {
            return Err(StateError::Magic);
        }
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let version = u32_at(8);
        if version != VERSION {
            return Err(StateError::Version(version));
        }
        if u32_at(STATE_LEN - 4) != fnv1a32(&b[..STATE_LEN - 4]) {
            return Err(StateError::Checksum);
        }
        let mut fingerprint = [0u8; 8];
        fingerprint.copy_from_slice(&b[12..20]);
        let mut floats = b[HEADER..STATE_LEN - 4]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let mut net = || {
            let mut take = |n: usize| floats.by_ref().take(n).collect::<Vec<f32>>();
            FloatNetwork {
                arch: Architecture::V1,
                l1_weights: take(SHAPES[0]),
                l1_bias: take(SHAPES[1]),
                l2_weights: take(SHAPES[2]),
                l2_bias: take(SHAPES[3]),
            }
        };
        let (net, m, v) = (net(), net(), net());
        Ok(TrainState {
            fingerprint: u64::from_le_bytes(fingerprint),
            epochs_done: u32_at(20),
            steps: u32_at(24) as i32,
            net,
            m,
            v,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> TrainState {
        let mut m = FloatNetwork::random(2);
        m.l2_bias.iter_mut().for_each(|x| *x = 0.25);
        TrainState {
            fingerprint: 0x0123_4567_89ab_cdef,
            epochs_done: 7,
            steps: 1234,
            net: FloatNetwork::random(1),
            m,
            v: FloatNetwork::random(3),
        }
    }

    #[test]
    fn a_state_reads_back_as_written() {
        let s = state();
        let b = s.to_bytes();
        assert_eq!(b.len(), STATE_LEN);
        assert_eq!(TrainState::from_bytes(&b), Ok(s));
    }

    #[test]
    fn damaged_states_are_refused() {
        let b = state().to_bytes();
        assert_eq!(
            TrainState::from_bytes(&b[..STATE_LEN - 1]),
            Err(StateError::Length(STATE_LEN - 1))
        );
        assert_eq!(TrainState::from_bytes(&[]), Err(StateError::Length(0)));
        let mut bad = b.clone();
        bad[0] = b'X';
        assert_eq!(TrainState::from_bytes(&bad), Err(StateError::Magic));
        let mut bad = b.clone();
        bad[8] = 2;
        assert_eq!(TrainState::from_bytes(&bad), Err(StateError::Version(2)));
        for i in [12, 24, HEADER + 5, STATE_LEN / 2, STATE_LEN - 5] {
            let mut bad = b.clone();
            bad[i] ^= 0x10;
            assert_eq!(
                TrainState::from_bytes(&bad),
                Err(StateError::Checksum),
                "{i}"
            );
        }
    }
}
