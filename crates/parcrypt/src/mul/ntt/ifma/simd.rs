//! The vector operations of the IFMA transforms, behind one trait with two widths: eight
//! 64-bit lanes ([`V512`], `__m512i`) and four ([`V256`], `__m256i` through AVX-512VL). The
//! kernels are written once, generic over [`Lanes`]; Zen 4 runs 512-bit instructions as two
//! 256-bit halves, so which width wins is measured, not assumed (see [`super`]).
//!
//! Every method is `#[inline(always)]`: the kernels call them from functions compiled with
//! `avx512f,avx512ifma,avx512vl`, where each becomes one instruction.
#![allow(clippy::incompatible_msrv)]
use std::arch::x86_64::*;

/// Whether this CPU has what both widths need: AVX-512F, AVX-512 IFMA and AVX-512VL.
pub fn detected() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512ifma")
        && std::is_x86_feature_detected!("avx512vl")
}

/// Lane-wise operations on vectors of `LANES` 64-bit words. A value of an implementing type
/// exists only where [`detected`] holds, so its safe methods may issue the instructions.
pub trait Lanes: Copy {
    /// Words per vector.
    const LANES: usize;
    /// The vector.
    type V: Copy;
    /// Every lane `x`.
    fn splat(self, x: u64) -> Self::V;
    /// `LANES` words from `p` (unaligned).
    ///
    /// # Safety
    /// `p` points to `LANES` readable words.
    unsafe fn load(self, p: *const u64) -> Self::V;
    /// `LANES` words to `p` (unaligned).
    ///
    /// # Safety
    /// `p` points to `LANES` writable words.
    unsafe fn store(self, p: *mut u64, v: Self::V);
    /// `a + b` (wrapping).
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a − b` (wrapping).
    fn sub(self, a: Self::V, b: Self::V) -> Self::V;
    /// `min(a, b)`, unsigned.
    fn min(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a & b`.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// `a >> 52`.
    fn shr52(self, a: Self::V) -> Self::V;
    /// `a | b`.
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// Lane-wise `a >> n` (a count of 64 or more gives 0; `vpsrlvq`).
    fn srlv(self, a: Self::V, n: Self::V) -> Self::V;
    /// Lane-wise `a << n` (a count of 64 or more gives 0; `vpsllvq`).
    fn sllv(self, a: Self::V, n: Self::V) -> Self::V;
    /// `acc + low 52 bits of (b mod 2^52)·(c mod 2^52)` (`vpmadd52luq`).
    fn madd52lo(self, acc: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// `acc + high 52 bits of (b mod 2^52)·(c mod 2^52)` (`vpmadd52huq`).
    fn madd52hi(self, acc: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// Lane `q` of the result is lane `idx[q]` of `a ‖ b` (`vpermt2q`; `idx[q] < 2·LANES`).
    fn permute2(self, a: Self::V, idx: Self::V, b: Self::V) -> Self::V;
}

/// Eight lanes: `__m512i`.
#[derive(Clone, Copy, Debug)]
pub struct V512(());

/// Four lanes: `__m256i` with AVX-512VL.
#[derive(Clone, Copy, Debug)]
pub struct V256(());

impl V512 {
    /// The 512-bit operations, where [`detected`].
    pub fn new() -> Option<Self> {
        detected().then_some(V512(()))
    }
}

impl V256 {
    /// The 256-bit operations, where [`detected`].
    pub fn new() -> Option<Self> {
        detected().then_some(V256(()))
    }
}

// SAFETY (every block in these two impls): a value of `V512` or `V256` exists only after
// `detected` found AVX-512F, AVX-512 IFMA and AVX-512VL (which imply AVX2 and AVX), so each
// intrinsic's target features are present; the pointers are the callers' promise.
impl Lanes for V512 {
    const LANES: usize = 8;
    type V = __m512i;
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
    fn sub(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_sub_epi64(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_min_epu64(a, b) }
    }
    #[inline(always)]
    fn and(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    fn shr52(self, a: __m512i) -> __m512i {
        unsafe { _mm512_srli_epi64::<52>(a) }
    }
    #[inline(always)]
    fn or(self, a: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_or_si512(a, b) }
    }
    #[inline(always)]
    fn srlv(self, a: __m512i, n: __m512i) -> __m512i {
        unsafe { _mm512_srlv_epi64(a, n) }
    }
    #[inline(always)]
    fn sllv(self, a: __m512i, n: __m512i) -> __m512i {
        unsafe { _mm512_sllv_epi64(a, n) }
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
    fn permute2(self, a: __m512i, idx: __m512i, b: __m512i) -> __m512i {
        unsafe { _mm512_permutex2var_epi64(a, idx, b) }
    }
}

impl Lanes for V256 {
    const LANES: usize = 4;
    type V = __m256i;
    #[inline(always)]
    fn splat(self, x: u64) -> __m256i {
        unsafe { _mm256_set1_epi64x(x as i64) }
    }
    #[inline(always)]
    unsafe fn load(self, p: *const u64) -> __m256i {
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64, v: __m256i) {
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }
    #[inline(always)]
    fn add(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_add_epi64(a, b) }
    }
    #[inline(always)]
    fn sub(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_sub_epi64(a, b) }
    }
    #[inline(always)]
    fn min(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_min_epu64(a, b) }
    }
    #[inline(always)]
    fn and(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_and_si256(a, b) }
    }
    #[inline(always)]
    fn shr52(self, a: __m256i) -> __m256i {
        unsafe { _mm256_srli_epi64::<52>(a) }
    }
    #[inline(always)]
    fn or(self, a: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_or_si256(a, b) }
    }
    #[inline(always)]
    fn srlv(self, a: __m256i, n: __m256i) -> __m256i {
        unsafe { _mm256_srlv_epi64(a, n) }
    }
    #[inline(always)]
    fn sllv(self, a: __m256i, n: __m256i) -> __m256i {
        unsafe { _mm256_sllv_epi64(a, n) }
    }
    #[inline(always)]
    fn madd52lo(self, acc: __m256i, b: __m256i, c: __m256i) -> __m256i {
        unsafe { _mm256_madd52lo_epu64(acc, b, c) }
    }
    #[inline(always)]
    fn madd52hi(self, acc: __m256i, b: __m256i, c: __m256i) -> __m256i {
        unsafe { _mm256_madd52hi_epu64(acc, b, c) }
    }
    #[inline(always)]
    fn permute2(self, a: __m256i, idx: __m256i, b: __m256i) -> __m256i {
        unsafe { _mm256_permutex2var_epi64(a, idx, b) }
    }
}
