//! The hot loops of the network: accumulator row updates and the SCReLU dot product; and
//! [`run`], which does the same for any [`Kernel`] (the trainer's float loops).
//!
//! Each loop is written once, as plain Rust over fixed-size arrays that the compiler
//! vectorises, and compiled twice: for the build's baseline target (SSE2 on x86-64, which is
//! also the only version elsewhere) and, on x86-64, again with AVX2 enabled, picked at run time
//! when the processor has it. Integer arithmetic here wraps, so both versions give exactly the
//! same results whatever order the vector code adds in (tested in `nnue/tests.rs`).
//!
//! This is the crate's only `unsafe`: calling a `#[target_feature]` function is unsafe because
//! running AVX2 instructions on a processor without them is undefined behaviour. [`Isa`] can
//! only hold `Avx2` after `is_x86_feature_detected!("avx2")` said yes, which is the safety
//! argument at each call.

use super::quant::QA;

/// Neurons in a [`Block`].
pub const BLOCK_LEN: usize = 32;

/// 32 neurons' values, aligned to a cache line: first-layer rows, accumulators and output
/// weights are whole blocks, so a network's width is any multiple of 32 and every loop here
/// runs over fixed-size, aligned chunks the compiler vectorises.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(C, align(64))]
pub struct Block(pub [i16; BLOCK_LEN]);

impl Block {
    pub const ZERO: Block = Block([0; BLOCK_LEN]);
}

/// Blocks whose SCReLU terms are summed in an i32 before widening: 8 blocks, 256 neurons (see
/// `screlu_half` for why no partial sum of that many overflows).
const BLOCKS_PER_I32_SUM: usize = 8;

/// Which compiled version of the loops to run: the instruction set (named `Isa` so it is not
/// confused with the `pruning`/`knowledge` [`crate::eval::Level`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Isa(Kind);

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Baseline,
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Isa {
    /// The build target's own instructions; runs everywhere.
    pub const BASELINE: Isa = Isa(Kind::Baseline);

    /// AVX2, if this processor has it.
    pub fn avx2() -> Option<Isa> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                return Some(Isa(Kind::Avx2));
            }
        }
        None
    }

    /// The fastest version this processor runs.
    pub fn detect() -> Isa {
        Isa::avx2().unwrap_or(Isa::BASELINE)
    }

    /// A short name for reports and benches.
    pub fn name(self) -> &'static str {
        match self.0 {
            Kind::Baseline => "baseline",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2 => "avx2",
        }
    }
}

/// Defines a public dispatcher `$name` over the loop body `$body`, with an AVX2 copy.
macro_rules! multiversion {
    ($(#[$doc:meta])* fn $name:ident / $avx2:ident ($($arg:ident: $ty:ty),*) $(-> $ret:ty)? = $body:ident) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = "avx2")]
        fn $avx2($($arg: $ty),*) $(-> $ret)? {
            $body($($arg),*)
        }

        $(#[$doc])*
        // Never inlined: inlined into the larger accumulator functions, the baseline copy
        // compiled to one lane at a time (no NEON on ARM64, no SSE2 on x86-64 without AVX2);
        // on its own it is vectorised (tests/it/simd_codegen.rs, scripts/arm64_check.sh).
        #[inline(never)]
        pub fn $name(isa: Isa, $($arg: $ty),*) $(-> $ret)? {
            match isa.0 {
                // SAFETY: `Kind::Avx2` is only built after AVX2 was detected (see `Isa`).
                #[cfg(target_arch = "x86_64")]
                Kind::Avx2 => unsafe { $avx2($($arg),*) },
                Kind::Baseline => $body($($arg),*),
            }
        }
    };
}

/// A piece of work whose loops are worth a copy compiled for AVX2. `run` and everything it
/// calls should be `#[inline(always)]`: only code inlined into the AVX2 copy is compiled with
/// AVX2. Float arithmetic gives the same bits in both copies as long as it is element by
/// element (Rust never reorders a float sum or fuses a multiply and an add by itself), which is
/// what the trainer's exactness test checks.
pub trait Kernel {
    type Output;
    fn run(self) -> Self::Output;
}

/// Runs `kernel` in the version compiled for `isa`.
#[inline]
pub fn run<K: Kernel>(isa: Isa, kernel: K) -> K::Output {
    match isa.0 {
        // SAFETY: `Kind::Avx2` is only built after AVX2 was detected (see `Isa`).
        #[cfg(target_arch = "x86_64")]
        Kind::Avx2 => unsafe { run_avx2(kernel) },
        Kind::Baseline => kernel.run(),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<K: Kernel>(kernel: K) -> K::Output {
    kernel.run()
}

multiversion! {
    /// `acc += row`.
    fn add / add_avx2(acc: &mut [Block], row: &[Block]) = add_body
}

multiversion! {
    /// `acc -= row`.
    fn sub / sub_avx2(acc: &mut [Block], row: &[Block]) = sub_body
}

multiversion! {
    /// `dst = src + add - sub`: a quiet move (one feature on, one off).
    fn add_sub / add_sub_avx2(dst: &mut [Block], src: &[Block], add: &[Block], sub: &[Block])
        = add_sub_body
}

multiversion! {
    /// `dst = src + add - sub1 - sub2`: a capture (the captured piece's feature goes too).
    fn add_sub2 / add_sub2_avx2(
        dst: &mut [Block],
        src: &[Block],
        add: &[Block],
        sub1: &[Block],
        sub2: &[Block]
    ) = add_sub2_body
}

multiversion! {
    /// `Σ clamp(us, 0, QA)² · w[..H] + Σ clamp(them, 0, QA)² · w[H..]`, scale `QA² · QB`, where
    /// `H` is the length of `us` and `them` in neurons and `w` has `2 · H`.
    fn screlu_dot / screlu_dot_avx2(us: &[Block], them: &[Block], w: &[Block]) -> i64
        = screlu_dot_body
}

#[inline(always)]
fn add_body(acc: &mut [Block], row: &[Block]) {
    for (a, r) in acc.iter_mut().zip(row) {
        for i in 0..BLOCK_LEN {
            a.0[i] = a.0[i].wrapping_add(r.0[i]);
        }
    }
}

#[inline(always)]
fn sub_body(acc: &mut [Block], row: &[Block]) {
    for (a, r) in acc.iter_mut().zip(row) {
        for i in 0..BLOCK_LEN {
            a.0[i] = a.0[i].wrapping_sub(r.0[i]);
        }
    }
}

#[inline(always)]
fn add_sub_body(dst: &mut [Block], src: &[Block], add: &[Block], sub: &[Block]) {
    for (((d, s), a), b) in dst.iter_mut().zip(src).zip(add).zip(sub) {
        for i in 0..BLOCK_LEN {
            d.0[i] = s.0[i].wrapping_add(a.0[i]).wrapping_sub(b.0[i]);
        }
    }
}

#[inline(always)]
fn add_sub2_body(dst: &mut [Block], src: &[Block], add: &[Block], sub1: &[Block], sub2: &[Block]) {
    for ((((d, s), a), b), c) in dst.iter_mut().zip(src).zip(add).zip(sub1).zip(sub2) {
        for i in 0..BLOCK_LEN {
            d.0[i] = s.0[i]
                .wrapping_add(a.0[i])
                .wrapping_sub(b.0[i])
                .wrapping_sub(c.0[i]);
        }
    }
}

/// Half of the dot product. `clamp(x) · w` fits an i16 because the network's output weights are
/// at most 127 in magnitude and `clamp(x) ≤ QA = 255` (checked when a network is loaded), so
/// the product times `clamp(x)` again is one i16 × i16 → i32 multiply-add per pair of neurons,
/// the shape x86's `pmaddwd` computes. A term is at most 255 · 255 · 127, so a sum of 256 of
/// them cannot overflow an i32 (2.11e9 < 2.15e9) for any loadable network: terms are summed in
/// i32 over 256 neurons at a time, and those sums in i64.
#[inline(always)]
fn screlu_half(acc: &[Block], w: &[Block]) -> i64 {
    let mut total = 0i64;
    for (acc, w) in acc
        .chunks(BLOCKS_PER_I32_SUM)
        .zip(w.chunks(BLOCKS_PER_I32_SUM))
    {
        let mut sum = 0i32;
        for (a, w) in acc.iter().zip(w) {
            for i in 0..BLOCK_LEN {
                let x = a.0[i].clamp(0, QA as i16);
                let xw = x.wrapping_mul(w.0[i]);
                sum = sum.wrapping_add(i32::from(xw) * i32::from(x));
            }
        }
        total += i64::from(sum);
    }
    total
}

#[inline(always)]
fn screlu_dot_body(us: &[Block], them: &[Block], w: &[Block]) -> i64 {
    let (w_us, w_them) = w.split_at(us.len().min(w.len()));
    screlu_half(us, w_us) + screlu_half(them, w_them)
}
