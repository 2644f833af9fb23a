//! FNV-1a checksums of the project's own binary files (the opening book, training data, the
//! network): cheap, dependency-free, and each step is a bijection of the state, so every single
//! changed byte is noticed. They catch truncation and bit rot, not tampering.

const OFFSET_32: u32 = 0x811c_9dc5;
const PRIME_32: u32 = 0x0100_0193;
const OFFSET_64: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME_64: u64 = 0x0000_0100_0000_01b3;

/// 32-bit FNV-1a of `bytes`.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    fnv1a32_from(OFFSET_32, bytes)
}

/// [`fnv1a32`] continued from an earlier result `h` over more bytes (a header, then a body).
pub fn fnv1a32_from(mut h: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        h ^= u32::from(b);
        h = h.wrapping_mul(PRIME_32);
    }
    h
}

/// 64-bit FNV-1a of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    fnv1a64_from(OFFSET_64, bytes)
}

/// [`fnv1a64`] continued from an earlier result `h` over more bytes (a file read in chunks).
pub fn fnv1a64_from(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(PRIME_64);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_and_continuation() {
        // Published FNV-1a test vectors.
        assert_eq!(fnv1a32(b""), 0x811c_9dc5);
        assert_eq!(fnv1a32(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(
            fnv1a32_from(fnv1a32(b"head"), b"body"),
            fnv1a32(b"headbody")
        );
        assert_eq!(
            fnv1a64_from(fnv1a64(b"head"), b"body"),
            fnv1a64(b"headbody")
        );
    }
}
