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

use super::network::QA;
use super::HIDDEN;

/// A row of the first layer or an accumulator half: one value per hidden neuron.
pub type Row = [i16; HIDDEN];

/// Which compiled version of the loops to run: the instruction set (named `Isa` so it is not
/// confused with the search's `pruning`/`knowledge` [`crate::search::levels::Level`]).
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
        #[inline]
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
    fn add / add_avx2(acc: &mut Row, row: &Row) = add_body
}

multiversion! {
    /// `dst = src + add - sub`: a quiet move (one feature on, one off).
    fn add_sub / add_sub_avx2(dst: &mut Row, src: &Row, add: &Row, sub: &Row) = add_sub_body
}

multiversion! {
    /// `dst = src + add - sub1 - sub2`: a capture (the captured piece's feature goes too).
    fn add_sub2 / add_sub2_avx2(dst: &mut Row, src: &Row, add: &Row, sub1: &Row, sub2: &Row)
        = add_sub2_body
}

multiversion! {
    /// `Σ clamp(us, 0, QA)² · w[..H] + Σ clamp(them, 0, QA)² · w[H..]`, scale `QA² · QB`.
    fn screlu_dot / screlu_dot_avx2(us: &Row, them: &Row, w: &[i16; 2 * HIDDEN]) -> i64
        = screlu_dot_body
}

#[inline(always)]
fn add_body(acc: &mut Row, row: &Row) {
    for (a, r) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*r);
    }
}

#[inline(always)]
fn add_sub_body(dst: &mut Row, src: &Row, add: &Row, sub: &Row) {
    for i in 0..HIDDEN {
        dst[i] = src[i].wrapping_add(add[i]).wrapping_sub(sub[i]);
    }
}

#[inline(always)]
fn add_sub2_body(dst: &mut Row, src: &Row, add: &Row, sub1: &Row, sub2: &Row) {
    for i in 0..HIDDEN {
        dst[i] = src[i]
            .wrapping_add(add[i])
            .wrapping_sub(sub1[i])
            .wrapping_sub(sub2[i]);
    }
}

/// Half of the dot product. `clamp(x) · w` fits an i16 because the network's output weights are
/// at most 127 in magnitude and `clamp(x) ≤ QA = 255` (checked when a network is loaded), so
/// the product times `clamp(x)` again is one i16 × i16 → i32 multiply-add per pair of neurons,
/// the shape x86's `pmaddwd` computes. A term is at most 255 · 255 · 127 and a half has 256 of
/// them, so no partial sum overflows an i32 (2.11e9 < 2.15e9) for any loadable network; the two
/// halves are added in i64.
#[inline(always)]
fn screlu_half(acc: &Row, w: &[i16]) -> i32 {
    let mut sum = 0i32;
    for (a, w) in acc.iter().zip(w) {
        let x = (*a).clamp(0, QA as i16);
        let xw = x.wrapping_mul(*w);
        sum = sum.wrapping_add(i32::from(xw) * i32::from(x));
    }
    sum
}

#[inline(always)]
fn screlu_dot_body(us: &Row, them: &Row, w: &[i16; 2 * HIDDEN]) -> i64 {
    let (w_us, w_them) = w.split_at(HIDDEN);
    i64::from(screlu_half(us, w_us)) + i64::from(screlu_half(them, w_them))
}
