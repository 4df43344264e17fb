//! The 512-bit operations the IFMA kernels (`ifma.rs`, `ifma_mb.rs`) use, behind one trait
//! with two instantiations: [`Avx512Ifma`], the AVX-512 instructions themselves, and
//! [`Emulated`], the same operations on `[u64; 8]` in portable, branch-free Rust. The kernels
//! are written once, generic over [`Simd512`], so the emulated kernel is the same source — same
//! data layout, same masks, same loops — with each instruction replaced by its definition
//! (Intel's pseudo-code, as SIMDe and Intel's SDE model them).
//!
//! Why: Valgrind has no AVX-512, so memcheck cannot run the vector kernels; it runs the
//! emulated instantiation, and the secret-flow check then shows that the kernels' data flow
//! (which words are loaded and stored, which branches are taken, which masks select what)
//! does not depend on a secret. What it cannot show: what the compiler emits for the real
//! intrinsics (each is one instruction whose timing does not depend on its operands on the
//! CPUs met so far, but that is the hardware's promise, not something memcheck sees). The
//! property tests hold the two instantiations equal (`tests_simd.rs`).
//!
//! Every method is `#[inline(always)]`: the kernels call them from a function compiled with
//! `avx512f,avx512ifma` (the vector instantiation), where they become single instructions, as
//! the `memchr` crate does with its `Vector` trait.
#![allow(clippy::incompatible_msrv)]
use super::select::{self, MASK52};
use std::arch::x86_64::*;

/// A mask of eight lanes (bit j for lane j), as AVX-512's `__mmask8`.
pub(crate) type Mask8 = u8;

/// The 512-bit operations of the IFMA kernels, on vectors of eight 64-bit lanes.
pub(crate) trait Simd512: Copy {
    /// A vector of eight 64-bit lanes.
    type V: Copy;
    /// Every lane zero.
    fn zero(self) -> Self::V;
    /// Every lane `x`.
    fn splat(self, x: u64) -> Self::V;
    /// Eight words from `p` (unaligned).
    ///
    /// # Safety
    /// `p` points to eight readable words.
    unsafe fn load(self, p: *const u64) -> Self::V;
    /// Eight words to `p` (unaligned).
    ///
    /// # Safety
    /// `p` points to eight writable words.
    unsafe fn store(self, p: *mut u64, v: Self::V);
    /// Lane-wise `a + b` (wrapping).
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `a & b`.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `a >> 52`.
    fn srli52(self, a: Self::V) -> Self::V;
    /// `vpmadd52luq`: `acc + low 52 bits of (b mod 2^52)·(c mod 2^52)`, lane-wise.
    fn madd52lo(self, acc: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// `vpmadd52huq`: `acc + high 52 bits of (b mod 2^52)·(c mod 2^52)`, lane-wise.
    fn madd52hi(self, acc: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// `valignq` by one lane: lanes 1..8 of `lo`, then lane 0 of `hi`.
    fn down1(self, hi: Self::V, lo: Self::V) -> Self::V;
    /// `valignq` by seven lanes: lane 7 of `lo`, then lanes 0..7 of `hi`.
    fn up1(self, hi: Self::V, lo: Self::V) -> Self::V;
    /// Lane 1.
    fn lane1(self, v: Self::V) -> u64;
    /// The lanes where `a == b`.
    fn eq_mask(self, a: Self::V, b: Self::V) -> Mask8;
    /// The lanes where `a > b` (unsigned).
    fn gt_mask(self, a: Self::V, b: Self::V) -> Mask8;
    /// `v` in the lanes of `k`, `src` elsewhere.
    fn mask_mov(self, src: Self::V, k: Mask8, v: Self::V) -> Self::V;
    /// `a + b` in the lanes of `k`, `src` elsewhere.
    fn mask_add(self, src: Self::V, k: Mask8, a: Self::V, b: Self::V) -> Self::V;
}

/// The AVX-512 F and IFMA instructions. A value exists only where the CPU has them
/// ([`Avx512Ifma::detect`]), so its safe methods may issue them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx512Ifma(());

impl Avx512Ifma {
    /// The instructions, where this CPU has AVX-512F and AVX-512 IFMA.
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        (std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma"))
            .then_some(Avx512Ifma(()))
    }
}

// SAFETY (every block in this impl): a value of `Avx512Ifma` exists only after `detect` found
// AVX-512F and AVX-512 IFMA (and SSE4.1, which AVX-512F implies), so each intrinsic's target
// features are present; the pointers are the callers' promise.
impl Simd512 for Avx512Ifma {
    type V = __m512i;
    #[inline(always)]
    fn zero(self) -> __m512i {
        unsafe { _mm512_setzero_si512() }
    }
    #[inline(always)]
    fn splat(self, x: u64) -> __m512i {
        unsafe { _mm512_set1_epi64(x as i64) }
    }
    #[inline(always)]
    unsafe fn load(self, p: *const u64) -> __m512i {
        unsafe { _mm512_loadu_si512(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64, v: __m512i) {
        unsafe { _mm512_storeu_si512(p.cast(), v) }
    }
    #[inline(always)]
    fn add(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_add_epi64(a, b) }
    }
    #[inline(always)]
    fn and(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    fn srli52(self, a: __m512i) -> __m512i {
        unsafe { _mm512_srli_epi64::<52>(a) }
    }
    #[inline(always)]
    fn madd52lo(self, acc: __m512i, b: __m512i, c: __m512i) -> __m512i {
        unsafe { _mm512_madd52lo_epu64(acc, b, c) }
    }
    #[inline(always)]
    fn madd52hi(self, acc: __m512i, b: __m512i, c: __m512i) -> __m512i {
        unsafe { _mm512_madd52hi_epu64(acc, b, c) }
    }
    #[inline(always)]
    fn down1(self, hi: __m512i, lo: __m512i) -> __m512i {
        unsafe { _mm512_alignr_epi64::<1>(hi, lo) }
    }
    #[inline(always)]
    fn up1(self, hi: __m512i, lo: __m512i) -> __m512i {
        unsafe { _mm512_alignr_epi64::<7>(hi, lo) }
    }
    #[inline(always)]
    fn lane1(self, v: __m512i) -> u64 {
        unsafe { _mm_extract_epi64::<1>(_mm512_castsi512_si128(v)) as u64 }
    }
    #[inline(always)]
    fn eq_mask(self, a: __m512i, b: __m512i) -> Mask8 {
        unsafe { _mm512_cmpeq_epu64_mask(a, b) }
    }
    #[inline(always)]
    fn gt_mask(self, a: __m512i, b: __m512i) -> Mask8 {
        unsafe { _mm512_cmpgt_epu64_mask(a, b) }
    }
    #[inline(always)]
    fn mask_mov(self, src: __m512i, k: Mask8, v: __m512i) -> __m512i {
        unsafe { _mm512_mask_mov_epi64(src, k, v) }
    }
    #[inline(always)]
    fn mask_add(self, src: __m512i, k: Mask8, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_mask_add_epi64(src, k, a, b) }
    }
}

/// The same operations on `[u64; 8]` in portable Rust, branch-free (a mask becomes all-ones or
/// zero words; a comparison is computed with arithmetic): what memcheck runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct Emulated;

/// All ones where bit `j` of `k` is set, zero elsewhere, through [`select::mask_from_bit`]'s
/// value barrier: without it the compiler sees a 0/1 choice and turns the and/or merge into a
/// conditional move of the load's address (memcheck flagged that in `select_lanes`).
#[inline(always)]
fn spread(k: Mask8, j: usize) -> u64 {
    select::mask_from_bit(u64::from(k >> j))
}

/// 1 where `x != 0`, else 0, without a branch.
#[inline(always)]
fn nonzero(x: u64) -> u64 {
    (x | x.wrapping_neg()) >> 63
}

/// 1 where `a < b` (unsigned), else 0: the borrow of `a − b`, computed bit-wise.
#[inline(always)]
fn less(a: u64, b: u64) -> u64 {
    (a ^ ((a ^ b) | (a.wrapping_sub(b) ^ b))) >> 63
}

/// Lane by lane.
#[inline(always)]
fn lanes(f: impl Fn(usize) -> u64) -> [u64; 8] {
    std::array::from_fn(f)
}

/// A mask from one bit per lane.
#[inline(always)]
fn mask_of(f: impl Fn(usize) -> u64) -> Mask8 {
    (0..8).fold(0, |k, j| k | ((f(j) as u8) << j))
}

impl Simd512 for Emulated {
    type V = [u64; 8];
    #[inline(always)]
    fn zero(self) -> [u64; 8] {
        [0; 8]
    }
    #[inline(always)]
    fn splat(self, x: u64) -> [u64; 8] {
        [x; 8]
    }
    #[inline(always)]
    unsafe fn load(self, p: *const u64) -> [u64; 8] {
        // SAFETY: the caller's promise: eight readable words.
        unsafe { p.cast::<[u64; 8]>().read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64, v: [u64; 8]) {
        // SAFETY: the caller's promise: eight writable words.
        unsafe { p.cast::<[u64; 8]>().write_unaligned(v) }
    }
    #[inline(always)]
    fn add(self, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|j| a[j].wrapping_add(b[j]))
    }
    #[inline(always)]
    fn and(self, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|j| a[j] & b[j])
    }
    #[inline(always)]
    fn srli52(self, a: [u64; 8]) -> [u64; 8] {
        lanes(|j| a[j] >> 52)
    }
    #[inline(always)]
    fn madd52lo(self, acc: [u64; 8], b: [u64; 8], c: [u64; 8]) -> [u64; 8] {
        lanes(|j| {
            let t = u128::from(b[j] & MASK52) * u128::from(c[j] & MASK52);
            acc[j].wrapping_add(t as u64 & MASK52)
        })
    }
    #[inline(always)]
    fn madd52hi(self, acc: [u64; 8], b: [u64; 8], c: [u64; 8]) -> [u64; 8] {
        lanes(|j| {
            let t = u128::from(b[j] & MASK52) * u128::from(c[j] & MASK52);
            acc[j].wrapping_add((t >> 52) as u64)
        })
    }
    #[inline(always)]
    fn down1(self, hi: [u64; 8], lo: [u64; 8]) -> [u64; 8] {
        lanes(|j| if j < 7 { lo[j + 1] } else { hi[0] })
    }
    #[inline(always)]
    fn up1(self, hi: [u64; 8], lo: [u64; 8]) -> [u64; 8] {
        lanes(|j| if j == 0 { lo[7] } else { hi[j - 1] })
    }
    #[inline(always)]
    fn lane1(self, v: [u64; 8]) -> u64 {
        v[1]
    }
    #[inline(always)]
    fn eq_mask(self, a: [u64; 8], b: [u64; 8]) -> Mask8 {
        mask_of(|j| 1 ^ nonzero(a[j] ^ b[j]))
    }
    #[inline(always)]
    fn gt_mask(self, a: [u64; 8], b: [u64; 8]) -> Mask8 {
        mask_of(|j| less(b[j], a[j]))
    }
    #[inline(always)]
    fn mask_mov(self, src: [u64; 8], k: Mask8, v: [u64; 8]) -> [u64; 8] {
        lanes(|j| {
            let m = spread(k, j);
            (src[j] & !m) | (v[j] & m)
        })
    }
    #[inline(always)]
    fn mask_add(self, src: [u64; 8], k: Mask8, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|j| {
            let m = spread(k, j);
            (src[j] & !m) | (a[j].wrapping_add(b[j]) & m)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every operation of the emulation against the instruction, on random lanes (skipped,
    /// named, where the CPU lacks AVX-512 IFMA).
    fn same(a: [u64; 8], b: [u64; 8], c: [u64; 8], k: u8) {
        let Some(v) = Avx512Ifma::detect() else {
            eprintln!("simd: the vector side skipped: this CPU lacks avx512f, avx512ifma");
            return;
        };
        let e = Emulated;
        let ld = |x: &[u64; 8]| unsafe { v.load(x.as_ptr()) };
        let out = |x: __m512i| {
            let mut o = [0u64; 8];
            unsafe { v.store(o.as_mut_ptr(), x) };
            o
        };
        let (va, vb, vc) = (ld(&a), ld(&b), ld(&c));
        assert_eq!(out(v.add(va, vb)), e.add(a, b));
        assert_eq!(out(v.and(va, vb)), e.and(a, b));
        assert_eq!(out(v.srli52(va)), e.srli52(a));
        assert_eq!(out(v.madd52lo(va, vb, vc)), e.madd52lo(a, b, c));
        assert_eq!(out(v.madd52hi(va, vb, vc)), e.madd52hi(a, b, c));
        assert_eq!(out(v.down1(va, vb)), e.down1(a, b));
        assert_eq!(out(v.up1(va, vb)), e.up1(a, b));
        assert_eq!(v.lane1(va), e.lane1(a));
        assert_eq!(v.eq_mask(va, vb), e.eq_mask(a, b));
        assert_eq!(v.eq_mask(va, va), e.eq_mask(a, a));
        assert_eq!(v.gt_mask(va, vb), e.gt_mask(a, b));
        assert_eq!(out(v.mask_mov(va, k, vb)), e.mask_mov(a, k, b));
        assert_eq!(out(v.mask_add(va, k, vb, vc)), e.mask_add(a, k, b, c));
        assert_eq!(out(v.splat(a[3])), e.splat(a[3]));
        assert_eq!(out(v.zero()), e.zero());
    }

    /// Lanes that hit the edges: zero, all ones, 2^52 − 1 and 2^52, and equal pairs.
    fn lane() -> impl Strategy<Value = u64> {
        prop_oneof![
            any::<u64>(),
            Just(0),
            Just(u64::MAX),
            Just(MASK52),
            Just(MASK52 + 1),
            0..4u64,
        ]
    }

    proptest! {
        #[test]
        fn the_emulation_computes_what_each_instruction_does(
            a in proptest::array::uniform8(lane()),
            b in proptest::array::uniform8(lane()),
            c in proptest::array::uniform8(lane()),
            k in any::<u8>(),
        ) {
            same(a, b, c, k);
        }
    }
}
