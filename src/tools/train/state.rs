//! The state of a training run after an epoch, so that a stopped run can go on (`jiangjun
//! train --resume`) and end with the same network, bit for bit, as a run that never stopped:
//! the float network (the network file is quantized, which rounds), AdamW's two moments and
//! step count, the epochs done, and a fingerprint of what else decides the result (the
//! settings and the data files).
//!
//! Format (little-endian): magic `JJSTATE\0`, version u32, fingerprint u64, epochs done u32,
//! optimiser steps i32; in version 2 then the architecture as two u32s, the feature set and the
//! first layer's width (version 1 is the first architecture, and a state of that architecture
//! is still written as version 1); then the network, the first moment and the second moment,
//! each as [`FloatNetwork`]'s four arrays at their full shapes (f32); then an FNV-1a checksum
//! u32 of every byte before it. The length follows from the architecture: [`state_len`].

use crate::checksum::fnv1a32;
use crate::eval::nnue::network::MAX_HIDDEN;
use crate::eval::nnue::{Architecture, FeatureSet, FloatNetwork, OUTPUT_BUCKETS};
use std::fmt;

const MAGIC: &[u8; 8] = b"JJSTATE\0";
/// The newest version; version 1 is still read and written for the first architecture.
const VERSION: u32 = 2;
const HEADER_V1: usize = 8 + 4 + 8 + 4 + 4;
const HEADER_V2: usize = HEADER_V1 + 4 + 4;

/// The shapes of the four arrays of `arch`, in file order.
const fn shapes(arch: Architecture) -> [usize; 4] {
    let h = arch.hidden();
    [arch.inputs() * h, h, OUTPUT_BUCKETS * 2 * h, OUTPUT_BUCKETS]
}

/// The length of a state file of `arch` in bytes.
pub const fn state_len(arch: Architecture) -> usize {
    let [a, b, c, d] = shapes(arch);
    let header = if matches!(arch.features, FeatureSet::Plain)
        && arch.hidden() == Architecture::V1.hidden()
    {
        HEADER_V1
    } else {
        HEADER_V2
    };
    header + 3 * (a + b + c + d) * 4 + 4
}

/// The length of a state file of the first architecture (about 3.9 MB).
pub const STATE_LEN: usize = state_len(Architecture::V1);

/// The length of the largest state file (king buckets, the widest layer; about 93 MB): what
/// `--resume` reads at most.
pub const MAX_STATE_LEN: usize = 3
    * 4
    * (FeatureSet::KingBuckets.inputs() * MAX_HIDDEN
        + MAX_HIDDEN
        + OUTPUT_BUCKETS * 2 * MAX_HIDDEN
        + OUTPUT_BUCKETS)
    + HEADER_V2
    + 4;

/// A run's state after `epochs_done` epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    /// What the run's settings and data hash to (`train`'s fingerprint); a run resumes only
    /// from a state with its own fingerprint.
    pub fingerprint: u64,
    pub epochs_done: u32,
    /// AdamW steps taken (its bias corrections depend on the count).
    pub steps: i32,
    /// Its architecture is the state's.
    pub net: FloatNetwork,
    /// AdamW's first and second moments, one value per parameter.
    pub m: FloatNetwork,
    pub v: FloatNetwork,
}

/// Why bytes are not a training state.
#[derive(Debug, PartialEq, Eq)]
pub enum StateError {
    /// The length is not that of a state of the architecture the header names.
    Length {
        found: usize,
        expected: usize,
    },
    Magic,
    Version(u32),
    /// A feature set or width this build cannot train.
    Architecture {
        features: u32,
        hidden: u32,
    },
    Checksum,
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Length { found, expected } => write!(
                f,
                "not a training state: {found} bytes where a state has {expected}"
            ),
            StateError::Magic => write!(f, "not a training state (no JJSTATE magic)"),
            StateError::Version(v) => write!(
                f,
                "training state version {v}; this build reads versions 1 to {VERSION}"
            ),
            StateError::Architecture { features, hidden } => write!(
                f,
                "training state of feature set {features} with {hidden} neurons, which this build cannot train"
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
    /// The file's bytes. The networks must have their full shapes, as the trainer keeps them;
    /// all three are written with the shapes of `net`'s architecture.
    pub fn to_bytes(&self) -> Vec<u8> {
        let arch = self.net.arch;
        let len = state_len(arch);
        let mut b = Vec::with_capacity(len);
        b.extend_from_slice(MAGIC);
        let v1 = arch == Architecture::V1;
        b.extend_from_slice(&(if v1 { 1 } else { VERSION }).to_le_bytes());
        b.extend_from_slice(&self.fingerprint.to_le_bytes());
        b.extend_from_slice(&self.epochs_done.to_le_bytes());
        b.extend_from_slice(&self.steps.to_le_bytes());
        if !v1 {
            b.extend_from_slice(&arch.features.id().to_le_bytes());
            b.extend_from_slice(&(arch.hidden() as u32).to_le_bytes());
        }
        for net in [&self.net, &self.m, &self.v] {
            for (a, n) in arrays(net).into_iter().zip(shapes(arch)) {
                debug_assert_eq!(a.len(), n);
                // Short arrays are padded with zeros, so the length is always the state's.
                for i in 0..n {
                    b.extend_from_slice(&a.get(i).copied().unwrap_or(0.0).to_le_bytes());
                }
            }
        }
        let sum = fnv1a32(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        debug_assert_eq!(b.len(), len);
        b
    }

    pub fn from_bytes(b: &[u8]) -> Result<TrainState, StateError> {
        let u32_at = |i: usize| {
            b.get(i..i + 4)
                .map_or(0, |c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        };
        if b.len() < HEADER_V1 {
            return Err(StateError::Length {
                found: b.len(),
                expected: STATE_LEN,
            });
        }
        if &b[..8] != MAGIC {
            return Err(StateError::Magic);
        }
        let (arch, header) = match u32_at(8) {
            1 => (Architecture::V1, HEADER_V1),
            VERSION => {
                let (features, hidden) = (u32_at(HEADER_V1), u32_at(HEADER_V1 + 4));
                // The first architecture is always version 1, so a state has one form.
                let arch = FeatureSet::from_id(features)
                    .and_then(|set| Architecture::new(set, hidden as usize).ok())
                    .filter(|&arch| arch != Architecture::V1)
                    .ok_or(StateError::Architecture { features, hidden })?;
                (arch, HEADER_V2)
            }
            version => return Err(StateError::Version(version)),
        };
        let len = state_len(arch);
        if b.len() != len {
            return Err(StateError::Length {
                found: b.len(),
                expected: len,
            });
        }
        if u32_at(len - 4) != fnv1a32(&b[..len - 4]) {
            return Err(StateError::Checksum);
        }
        let mut fingerprint = [0u8; 8];
        fingerprint.copy_from_slice(&b[12..20]);
        let mut floats = b[header..len - 4]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]));
        let [s0, s1, s2, s3] = shapes(arch);
        let mut net = || {
            let mut take = |n: usize| floats.by_ref().take(n).collect::<Vec<f32>>();
            FloatNetwork {
                arch,
                l1_weights: take(s0),
                l1_bias: take(s1),
                l2_weights: take(s2),
                l2_bias: take(s3),
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

    fn king_bucket_state() -> TrainState {
        let arch = Architecture::new(FeatureSet::KingBuckets, 64).unwrap();
        TrainState {
            fingerprint: 99,
            epochs_done: 2,
            steps: 50,
            net: FloatNetwork::random_for(arch, 4),
            m: FloatNetwork::random_for(arch, 5),
            v: FloatNetwork::random_for(arch, 6),
        }
    }

    #[test]
    fn a_state_reads_back_as_written() {
        let s = state();
        let b = s.to_bytes();
        assert_eq!(b.len(), STATE_LEN);
        assert_eq!(b[8..12], 1u32.to_le_bytes());
        assert_eq!(TrainState::from_bytes(&b), Ok(s));
        let s = king_bucket_state();
        let b = s.to_bytes();
        assert_eq!(b.len(), state_len(s.net.arch));
        assert_eq!(b[8..12], 2u32.to_le_bytes());
        assert_eq!(TrainState::from_bytes(&b), Ok(s));
        assert!(MAX_STATE_LEN > b.len() && MAX_STATE_LEN < 100_000_000);
    }

    #[test]
    fn damaged_states_are_refused() {
        let b = state().to_bytes();
        assert_eq!(
            TrainState::from_bytes(&b[..STATE_LEN - 1]),
            Err(StateError::Length {
                found: STATE_LEN - 1,
                expected: STATE_LEN
            })
        );
        assert!(matches!(
            TrainState::from_bytes(&[]),
            Err(StateError::Length { found: 0, .. })
        ));
        let mut bad = b.clone();
        bad[0] = b'X';
        assert_eq!(TrainState::from_bytes(&bad), Err(StateError::Magic));
        let mut bad = b.clone();
        bad[8] = 3;
        assert_eq!(TrainState::from_bytes(&bad), Err(StateError::Version(3)));
        // Version 2 headers naming an architecture this build cannot train.
        let k = king_bucket_state().to_bytes();
        // Nor a version 2 header naming the first architecture (always written as version 1).
        let mut bad = k.clone();
        bad[28..32].copy_from_slice(&1u32.to_le_bytes());
        bad[32..36].copy_from_slice(&256u32.to_le_bytes());
        assert_eq!(
            TrainState::from_bytes(&bad),
            Err(StateError::Architecture {
                features: 1,
                hidden: 256
            })
        );
        for (at, value, features, hidden) in [(28, 7, 7, 64), (32, 40, 2, 40), (32, 0, 2, 0)] {
            let mut bad = k.clone();
            bad[at..at + 4].copy_from_slice(&(value as u32).to_le_bytes());
            assert_eq!(
                TrainState::from_bytes(&bad),
                Err(StateError::Architecture { features, hidden })
            );
        }
        for i in [12, 24, HEADER_V1 + 5, STATE_LEN / 2, STATE_LEN - 5] {
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
