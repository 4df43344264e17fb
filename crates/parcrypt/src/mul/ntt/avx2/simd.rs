//! The AVX2/FMA operations of the transforms on four `f64` lanes (`__m256d`), as safe methods
//! of a token ([`Avx2`]) that exists only where the CPU has AVX2 and FMA (the pattern of
//! `ifma::simd`). Every method is `#[inline(always)]`: the kernels call them from functions
//! compiled with `avx2,fma`, where each becomes one instruction.
#![allow(clippy::incompatible_msrv)]
use std::arch::x86_64::*;

/// Whether this CPU has AVX2 and FMA.
pub fn detected() -> bool {
    std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
}

/// Proof that the CPU has AVX2 and FMA (made only by [`Avx2::new`]).
#[derive(Clone, Copy, Debug)]
pub struct Avx2(());

/// Four `f64` lanes.
pub type D = __m256d;

/// Bits of `2^52` as an `f64`: or-ing a 32-bit (or 52-bit) integer into its mantissa and
/// subtracting `2^52` converts it exactly.
pub const MAGIC: u64 = 0x4330_0000_0000_0000;

impl Avx2 {
    /// The token, where [`detected`].
    pub fn new() -> Option<Self> {
        detected().then_some(Avx2(()))
    }
}

// SAFETY (every block in this impl): a value of `Avx2` exists only after `detected` found AVX2
// and FMA (which imply AVX), so each intrinsic's target features are present; the pointers are
// the callers' promise.
impl Avx2 {
    /// Every lane `x`.
    #[inline(always)]
    pub fn splat(self, x: f64) -> D {
        unsafe { _mm256_set1_pd(x) }
    }
    /// Lanes `[a, b, a, b]`.
    #[inline(always)]
    pub fn pair(self, a: f64, b: f64) -> D {
        unsafe { _mm256_setr_pd(a, b, a, b) }
    }
    /// Four `f64` from `p` (unaligned).
    ///
    /// # Safety
    /// `p` points to four readable `f64`s (or words holding their bits).
    #[inline(always)]
    pub unsafe fn load(self, p: *const f64) -> D {
        unsafe { _mm256_loadu_pd(p) }
    }
    /// Four `f64` to `p` (unaligned).
    ///
    /// # Safety
    /// `p` points to four writable `f64`s (or words holding their bits).
    #[inline(always)]
    pub unsafe fn store(self, p: *mut f64, v: D) {
        unsafe { _mm256_storeu_pd(p, v) }
    }
    /// Four words from `p` (unaligned).
    ///
    /// # Safety
    /// `p` points to four readable words.
    #[inline(always)]
    pub unsafe fn load_words(self, p: *const u64) -> __m256i {
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    /// Four words to `p` (unaligned).
    ///
    /// # Safety
    /// `p` points to four writable words.
    #[inline(always)]
    pub unsafe fn store_words(self, p: *mut u64, v: __m256i) {
        unsafe { _mm256_storeu_si256(p.cast(), v) }
    }
    /// `a + b`.
    #[inline(always)]
    pub fn add(self, a: D, b: D) -> D {
        unsafe { _mm256_add_pd(a, b) }
    }
    /// `a − b`.
    #[inline(always)]
    pub fn sub(self, a: D, b: D) -> D {
        unsafe { _mm256_sub_pd(a, b) }
    }
    /// `a·b`.
    #[inline(always)]
    pub fn mul(self, a: D, b: D) -> D {
        unsafe { _mm256_mul_pd(a, b) }
    }
    /// `a·b − c`, rounded once.
    #[inline(always)]
    pub fn fmsub(self, a: D, b: D, c: D) -> D {
        unsafe { _mm256_fmsub_pd(a, b, c) }
    }
    /// `c − a·b`, rounded once.
    #[inline(always)]
    pub fn fnmadd(self, a: D, b: D, c: D) -> D {
        unsafe { _mm256_fnmadd_pd(a, b, c) }
    }
    /// To the nearest integer (ties to even).
    #[inline(always)]
    pub fn round(self, a: D) -> D {
        unsafe { _mm256_round_pd::<{ _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC }>(a) }
    }
    /// `a` where `a ≥ 0` (or `−0`), else `a + k`.
    #[inline(always)]
    pub fn add_if_negative(self, a: D, k: D) -> D {
        unsafe {
            let neg = _mm256_cmp_pd::<_CMP_LT_OQ>(a, _mm256_setzero_pd());
            _mm256_add_pd(a, _mm256_and_pd(neg, k))
        }
    }
    /// The integers `0 ≤ a < 2^52` (exact `f64`s) as words.
    #[inline(always)]
    pub fn to_words(self, a: D) -> __m256i {
        unsafe {
            let m = _mm256_castsi256_pd(_mm256_set1_epi64x(MAGIC as i64));
            let x = _mm256_castpd_si256(_mm256_add_pd(a, m));
            _mm256_xor_si256(x, _mm256_set1_epi64x(MAGIC as i64))
        }
    }
    /// The words `0 ≤ a < 2^52` as exact `f64`s.
    #[inline(always)]
    pub fn from_words(self, a: __m256i) -> D {
        unsafe {
            let magic = _mm256_set1_epi64x(MAGIC as i64);
            let x = _mm256_castsi256_pd(_mm256_or_si256(a, magic));
            _mm256_sub_pd(x, _mm256_castsi256_pd(magic))
        }
    }
    /// The words as two exact `f64` vectors: their low 32 bits and their high 32 bits.
    #[inline(always)]
    pub fn halves(self, v: __m256i) -> (D, D) {
        unsafe {
            let magic = _mm256_set1_epi64x(MAGIC as i64);
            let m = _mm256_castsi256_pd(magic);
            let lo = _mm256_blend_epi32::<0b1010_1010>(v, magic);
            let hi = _mm256_or_si256(_mm256_srli_epi64::<32>(v), magic);
            (
                _mm256_sub_pd(_mm256_castsi256_pd(lo), m),
                _mm256_sub_pd(_mm256_castsi256_pd(hi), m),
            )
        }
    }
    /// `[a0, a1, b0, b1]` (the low 128-bit halves of `a` and `b`).
    #[inline(always)]
    pub fn lows(self, a: D, b: D) -> D {
        unsafe { _mm256_permute2f128_pd::<0x20>(a, b) }
    }
    /// `[a2, a3, b2, b3]` (the high 128-bit halves).
    #[inline(always)]
    pub fn highs(self, a: D, b: D) -> D {
        unsafe { _mm256_permute2f128_pd::<0x31>(a, b) }
    }
    /// `[a0, b0, a2, b2]`.
    #[inline(always)]
    pub fn evens(self, a: D, b: D) -> D {
        unsafe { _mm256_unpacklo_pd(a, b) }
    }
    /// `[a1, b1, a3, b3]`.
    #[inline(always)]
    pub fn odds(self, a: D, b: D) -> D {
        unsafe { _mm256_unpackhi_pd(a, b) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_and_shuffles() {
        let Some(s) = Avx2::new() else {
            eprintln!("avx2 simd test skipped: this CPU lacks AVX2/FMA");
            return;
        };
        let get = |v: D| {
            let mut o = [0f64; 4];
            // SAFETY: `o` holds four f64s.
            unsafe { s.store(o.as_mut_ptr(), v) };
            o
        };
        let w = [0u64, u64::MAX, 0x1234_5678_9abc_def0, 1 << 32];
        // SAFETY: `w` holds four words.
        let (lo, hi) = s.halves(unsafe { s.load_words(w.as_ptr()) });
        assert_eq!(get(lo), w.map(|x| (x & 0xffff_ffff) as f64));
        assert_eq!(get(hi), w.map(|x| (x >> 32) as f64));
        let x = [0.0, -0.0, 12345.0, ((1u64 << 52) - 1) as f64];
        // SAFETY: `x` holds four f64s; `o` four words.
        let v = unsafe { s.load(x.as_ptr()) };
        let mut o = [0u64; 4];
        unsafe { s.store_words(o.as_mut_ptr(), s.to_words(v)) };
        assert_eq!(o, [0, 0, 12345, (1 << 52) - 1]);
        assert_eq!(get(s.add_if_negative(v, s.splat(7.0))), x);
        assert_eq!(
            get(s.add_if_negative(s.splat(-3.0), s.splat(7.0))),
            [4.0; 4]
        );
        let (a, b) = (unsafe { s.load([0.0, 1.0, 2.0, 3.0].as_ptr()) }, unsafe {
            s.load([4.0, 5.0, 6.0, 7.0].as_ptr())
        });
        assert_eq!(get(s.lows(a, b)), [0.0, 1.0, 4.0, 5.0]);
        assert_eq!(get(s.highs(a, b)), [2.0, 3.0, 6.0, 7.0]);
        assert_eq!(get(s.evens(a, b)), [0.0, 4.0, 2.0, 6.0]);
        assert_eq!(get(s.odds(a, b)), [1.0, 5.0, 3.0, 7.0]);
        assert_eq!(get(s.round(s.splat(2.5))), [2.0; 4]);
        assert_eq!(get(s.round(s.splat(-2.6))), [-3.0; 4]);
    }
}
