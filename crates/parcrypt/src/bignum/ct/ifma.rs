//! The AVX-512 IFMA backend: almost-Montgomery products in radix 2^52 (Gueron and Krasnov),
//! 512-bit vectors of eight 52-bit digits, one modulus per call or two interleaved.
//!
//! A value mod m is n digits of 52 bits (n = ceil((bits + 2) / 52), so R = 2^(52n) > 4m, and
//! at least 2: the step reads digits 0 and 1, so a modulus of up to 50 bits, such as a small
//! third prime of a multi-prime key, still gets two digits, the second zero),
//! held in K = ceil(n / 8) vectors whose digits beyond n are zero. The product
//! r = a·b·R⁻¹ is computed digit by digit of b (operand scanning, one reduction digit y per
//! step) for a, b < 2m and gives r < 2m (Gueron's bound), so products chain with no
//! subtraction; only the final conversion out of Montgomery form subtracts m, by masking.
//!
//! One step, for digit b_i, on the accumulator V (lane j ↔ digit j; lanes j ≥ 1 exact):
//!
//! ```text
//! scalar:  P = acc + a_0·b_i              (acc: the exact digit 0, carried in a register)
//!          y = P·k0 mod 2^52              (k0 = -m⁻¹ mod 2^52)
//!          acc' = (P + m_0·y) >> 52 + V[1] + lo(a_1·b_i) + lo(m_1·y)
//! vector:  V' = (V >> one lane) + lo(A'·b_i) + hi(A·b_i) + lo(M'·y) + hi(M·y)
//! ```
//!
//! where lo/hi are `vpmadd52luq`/`vpmadd52huq` and A', M' are A and M moved down one digit, so
//! the low halves land where the shifted accumulator wants them and nothing but V itself is
//! shifted. The scalar chain (one multiply for y, one `mulx` for m_0·y, a shift and adds)
//! carries digit 0 exactly; the vector lane 0 lacks that digit's carry and is never read. The
//! a·b_i products do not depend on y and are issued ahead; V's own dependency per step is one
//! lane shift and one add. At the end acc goes into lane 0 and the digits are normalized
//! (carries moved up with a carry-lookahead on the lane masks, no branch). Two moduli
//! (the two CRT halves) run the same steps interleaved, so one's scalar chain overlaps the
//! other's vector work.
// Compiled only where build.rs found Rust 1.89 or newer (cfg `parcrypt_avx512`), whatever the
// crate's `rust-version` says.
#![allow(clippy::incompatible_msrv)]
use super::Engine;
use super::exp::{Exp, exp_window, run_exp};
use super::portable::Mont64;
use super::select::{self, MASK52, from_radix52, to_radix52};
use super::simd::{Avx512Ifma, Emulated, Simd512};
use zeroize::Zeroizing;

/// Calls `$body` with the const `K` equal to the run-time vector count `$k` (1 to 20).
macro_rules! dispatch {
    ($k:expr, $K:ident => $body:expr) => {
        dispatch!(@arms $k, $K, $body; 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20)
    };
    (@arms $k:expr, $K:ident, $body:expr; $($n:literal)*) => {
        match $k {
            $($n => {
                const $K: usize = $n;
                $body
            })*
            other => unreachable!("{other} vectors"),
        }
    };
}

/// Whether this CPU has AVX-512F, AVX-512VL and AVX-512 IFMA.
pub fn available() -> bool {
    std::is_x86_feature_detected!("avx512f")
        && std::is_x86_feature_detected!("avx512vl")
        && std::is_x86_feature_detected!("avx512ifma")
}

/// Most vectors per value (8 digits each): 160 digits, moduli up to 8318 bits.
pub const MAX_VECTORS: usize = 20;

/// One modulus in radix 2^52.
#[derive(Clone)]
pub struct Ctx {
    /// Digits n.
    n: usize,
    /// Vectors K (8 digits each).
    k: usize,
    /// m in 64-bit limbs (for the final subtraction).
    m64: Zeroizing<Vec<u64>>,
    /// m, 8K digits.
    m: Zeroizing<Vec<u64>>,
    /// m moved down one digit (digit j holds m_(j+1)), 8K digits.
    m_sh: Zeroizing<Vec<u64>>,
    /// -m⁻¹ mod 2^52.
    k0: u64,
    /// R² mod m, 8K digits.
    rr: Zeroizing<Vec<u64>>,
    /// R mod m (1 in Montgomery form), 8K digits.
    one: Zeroizing<Vec<u64>>,
}

/// The Montgomery constant k0 fixes the modulus mod 2^64 (2^52): wiped with the rest.
impl Drop for Ctx {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.k0);
    }
}

impl std::fmt::Debug for Ctx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ifma::Ctx({} digits)", self.n)
    }
}

impl Ctx {
    /// The context for the modulus of `arith` (`bits` bits, at most
    /// [`super::IFMA_MAX_BITS`]). The vector entry points need [`available`]; the emulated
    /// ones ([`Ctx::pow_in`] with [`Emulated`]) run anywhere.
    pub fn new(arith: &Mont64, bits: u32) -> Self {
        // Two digits at least (see the module docs): a larger R only loosens R > 4m.
        let n = (bits as usize + 2).div_ceil(52).max(2);
        let k = n.div_ceil(8);
        assert!((1..=MAX_VECTORS).contains(&k), "IFMA size");
        let digits = |x: &[u64]| {
            let mut d = Zeroizing::new(vec![0u64; 8 * k]);
            to_radix52(x, &mut d[..n]);
            d
        };
        let m = digits(arith.m());
        let mut m_sh = Zeroizing::new(vec![0u64; 8 * k]);
        m_sh[..8 * k - 1].copy_from_slice(&m[1..]);
        Ctx {
            n,
            k,
            m64: Zeroizing::new(arith.m().to_vec()),
            m_sh,
            k0: arith.k0() & MASK52,
            rr: digits(&arith.pow2(2 * 52 * n)),
            one: digits(&arith.pow2(52 * n)),
            m,
        }
    }

    /// Whether two contexts can run as one dual call (same digit count).
    pub fn same_shape(&self, other: &Ctx) -> bool {
        self.n == other.n
    }

    fn words(&self) -> usize {
        8 * self.k
    }

    /// `base` (64-bit limbs, below m) into Montgomery form, 8K digits.
    fn enter<S: Kernel>(&self, s: S, base: &[u64], out: &mut [u64]) {
        let mut d = Zeroizing::new(vec![0u64; self.words()]);
        to_radix52(base, &mut d[..self.n]);
        dispatch!(self.k, K => s.amm1::<K>(out, &d, &self.rr, self, None));
    }

    /// Montgomery form (below 2m) out to fully reduced 64-bit limbs.
    fn leave<S: Kernel>(&self, s: S, x: &[u64], out: &mut [u64]) {
        let mut unit = Zeroizing::new(vec![0u64; self.words()]);
        unit[0] = 1;
        let mut d = Zeroizing::new(vec![0u64; self.words()]);
        dispatch!(self.k, K => s.amm1::<K>(&mut d, x, &unit, self, None));
        // x·R⁻¹ with x < 2m is at most m: one masked subtraction.
        from_radix52(&d[..self.n], out);
        select::reduce_once(out, &self.m64);
    }

    /// `out = base^exp mod m` (see [`super::CtModulus::pow_limbs`]); the stack the products
    /// used is wiped after.
    pub fn pow(&self, out: &mut [u64], base: &[u64], exp: Exp) {
        self.pow_in(vector(), out, base, exp)
    }

    /// [`Ctx::pow`] on the instantiation `s` (the vector instructions, or their emulation).
    pub(crate) fn pow_in<S: Kernel>(&self, s: S, out: &mut [u64], base: &[u64], exp: Exp) {
        let w = self.words();
        let mut bm = Zeroizing::new(vec![0u64; w]);
        let mut acc = Zeroizing::new(vec![0u64; w]);
        self.enter(s, base, &mut bm);
        dispatch!(self.k, K => {
            run_exp(&One::<S, K>(s, self), &mut acc, &bm, &self.one, exp)
        });
        self.leave(s, &acc, out);
        select::burn_stack();
    }

    /// `count` squarings (see [`super::CtModulus::square_chain`]).
    pub fn chain(&self, out: &mut [u64], x: &[u64], count: usize) {
        let s = vector();
        let w = self.words();
        let mut acc = Zeroizing::new(vec![0u64; w]);
        let mut tmp = Zeroizing::new(vec![0u64; w]);
        self.enter(s, x, &mut acc);
        dispatch!(self.k, K => {
            let e = One::<_, K>(s, self);
            for _ in 0..count {
                e.sqr(&mut tmp, &acc);
                std::mem::swap(&mut acc, &mut tmp);
            }
        });
        self.leave(s, &acc, out);
    }
}

/// The vector instructions; a [`Ctx`]'s vector entry points are reached only where
/// [`available`] (the backend is chosen only then).
fn vector() -> Avx512Ifma {
    Avx512Ifma::detect().expect("the IFMA kernel needs avx512f and avx512ifma")
}

/// Two moduli of the same digit count, interleaved.
pub fn pow2(
    [a, b]: [&Ctx; 2],
    [out_a, out_b]: [&mut [u64]; 2],
    [base_a, base_b]: [&[u64]; 2],
    [exp_a, exp_b]: [&[u64]; 2],
    ebits: usize,
) {
    pow2_in(
        vector(),
        [a, b],
        [out_a, out_b],
        [base_a, base_b],
        [exp_a, exp_b],
        ebits,
    )
}

/// [`pow2`] on the instantiation `s` (the vector instructions, or their emulation).
pub(crate) fn pow2_in<S: Kernel>(
    s: S,
    [a, b]: [&Ctx; 2],
    [out_a, out_b]: [&mut [u64]; 2],
    [base_a, base_b]: [&[u64]; 2],
    [exp_a, exp_b]: [&[u64]; 2],
    ebits: usize,
) {
    assert!(a.same_shape(b), "dual IFMA needs one shape");
    let w = a.words();
    let mut bm = Zeroizing::new(vec![0u64; 2 * w]);
    let mut one = Zeroizing::new(vec![0u64; 2 * w]);
    let mut acc = Zeroizing::new(vec![0u64; 2 * w]);
    a.enter(s, base_a, &mut bm[..w]);
    b.enter(s, base_b, &mut bm[w..]);
    one[..w].copy_from_slice(&a.one);
    one[w..].copy_from_slice(&b.one);
    dispatch!(a.k, K => {
        exp_window(&Two::<S, K>(s, a, b), &mut acc, &bm, &one, &[exp_a, exp_b], ebits)
    });
    a.leave(s, &acc[..w], out_a);
    b.leave(s, &acc[w..], out_b);
    select::burn_stack();
}

/// `count` dual squarings, in and out of Montgomery form.
pub fn chain2(
    [a, b]: [&Ctx; 2],
    [out_a, out_b]: [&mut [u64]; 2],
    [xa, xb]: [&[u64]; 2],
    count: usize,
) {
    assert!(a.same_shape(b), "dual IFMA needs one shape");
    let s = vector();
    let w = a.words();
    let mut acc = Zeroizing::new(vec![0u64; 2 * w]);
    let mut tmp = Zeroizing::new(vec![0u64; 2 * w]);
    a.enter(s, xa, &mut acc[..w]);
    b.enter(s, xb, &mut acc[w..]);
    dispatch!(a.k, K => {
        let e = Two::<_, K>(s, a, b);
        for _ in 0..count {
            e.sqr(&mut tmp, &acc);
            std::mem::swap(&mut acc, &mut tmp);
        }
    });
    a.leave(s, &acc[..w], out_a);
    b.leave(s, &acc[w..], out_b);
}

/// The kernel's two entry points into the vector code, for each instantiation: the product
/// and the table read. The vector one runs them in a function compiled with AVX-512F and IFMA
/// (where the [`Simd512`] methods, inlined, become single instructions); the emulated one
/// calls the same generic source directly.
pub(crate) trait Kernel: Simd512 {
    /// [`amm1`] on this instantiation.
    fn amm1<const K: usize>(
        self,
        r: &mut [u64],
        a: &[u64],
        b: &[u64],
        ctx: &Ctx,
        second: Option<Second<'_>>,
    );
    /// [`select_vec`] on this instantiation.
    fn select<const K: usize>(
        self,
        out: &mut [u64],
        table: &[u64],
        stride: usize,
        offset: usize,
        index: u64,
    );
}

impl Kernel for Avx512Ifma {
    fn amm1<const K: usize>(
        self,
        r: &mut [u64],
        a: &[u64],
        b: &[u64],
        ctx: &Ctx,
        second: Option<Second<'_>>,
    ) {
        // SAFETY: an `Avx512Ifma` exists only where the CPU has AVX-512F and IFMA.
        unsafe { amm1_vec::<K>(self, r, a, b, ctx, second) }
    }
    fn select<const K: usize>(
        self,
        out: &mut [u64],
        table: &[u64],
        stride: usize,
        offset: usize,
        index: u64,
    ) {
        // SAFETY: as for `amm1`.
        unsafe { select_vec_avx::<K>(self, out, table, stride, offset, index) }
    }
}

impl Kernel for Emulated {
    fn amm1<const K: usize>(
        self,
        r: &mut [u64],
        a: &[u64],
        b: &[u64],
        ctx: &Ctx,
        second: Option<Second<'_>>,
    ) {
        amm1::<_, K>(self, r, a, b, ctx, second)
    }
    fn select<const K: usize>(
        self,
        out: &mut [u64],
        table: &[u64],
        stride: usize,
        offset: usize,
        index: u64,
    ) {
        select_vec::<_, K>(self, out, table, stride, offset, index)
    }
}

/// [`amm1`] compiled with AVX-512F and IFMA.
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm1_vec<const K: usize>(
    s: Avx512Ifma,
    r: &mut [u64],
    a: &[u64],
    b: &[u64],
    ctx: &Ctx,
    second: Option<Second<'_>>,
) {
    amm1::<_, K>(s, r, a, b, ctx, second)
}

/// [`select_vec`] compiled with AVX-512F.
///
/// # Safety
/// The CPU must have AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn select_vec_avx<const K: usize>(
    s: Avx512Ifma,
    out: &mut [u64],
    table: &[u64],
    stride: usize,
    offset: usize,
    index: u64,
) {
    select_vec::<_, K>(s, out, table, stride, offset, index)
}

/// One modulus of K vectors.
struct One<'a, S, const K: usize>(S, &'a Ctx);

impl<S: Kernel, const K: usize> Engine for One<'_, S, K> {
    const LANES: usize = 1;
    fn words(&self) -> usize {
        8 * K
    }
    fn select(&self, out: &mut [u64], table: &[u64], stride: usize, offset: usize, index: u64) {
        self.0.select::<K>(out, table, stride, offset, index)
    }
    fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        self.0.amm1::<K>(r, a, b, self.1, None)
    }
}

/// Two moduli of K vectors each, elements lane after lane.
struct Two<'a, S, const K: usize>(S, &'a Ctx, &'a Ctx);

impl<S: Kernel, const K: usize> Engine for Two<'_, S, K> {
    const LANES: usize = 2;
    fn words(&self) -> usize {
        8 * K
    }
    fn select(&self, out: &mut [u64], table: &[u64], stride: usize, offset: usize, index: u64) {
        self.0.select::<K>(out, table, stride, offset, index)
    }
    fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        let w = 8 * K;
        let (r0, r1) = r.split_at_mut(w);
        self.0.amm1::<K>(
            r0,
            &a[..w],
            &b[..w],
            self.1,
            Some((r1, &a[w..], &b[w..], self.2)),
        )
    }
}

/// [`super::select::select_part`] for elements of K vectors: every entry is loaded and
/// merged under a mask that a vector compare of its number with `index` makes (no branch, no
/// address that depends on `index`).
#[inline(always)]
fn select_vec<S: Simd512, const K: usize>(
    s: S,
    out: &mut [u64],
    table: &[u64],
    stride: usize,
    offset: usize,
    index: u64,
) {
    assert!(
        out.len() == 8 * K && offset + 8 * K <= stride && table.len() % stride == 0,
        "select shapes"
    );
    let want = s.splat(index);
    let mut acc = [s.zero(); K];
    for (e, entry) in table.chunks_exact(stride).enumerate() {
        let hit = s.eq_mask(s.splat(e as u64), want);
        let part = &entry[offset..offset + 8 * K];
        for (k, a) in acc.iter_mut().enumerate() {
            // SAFETY: `part` holds 8K words and k < K.
            let v = unsafe { s.load(part.as_ptr().add(8 * k)) };
            *a = s.mask_mov(*a, hit, v);
        }
    }
    for (k, a) in acc.iter().enumerate() {
        // SAFETY: `out` holds 8K words and k < K.
        unsafe { s.store(out.as_mut_ptr().add(8 * k), *a) };
    }
}

/// The per-modulus state of one product in flight: everything a step reads besides the
/// accumulator vectors and digit 0, which live in local variables (so that they stay in
/// registers).
struct Lane<S: Simd512, const K: usize> {
    a: [S::V; K],
    a_sh: [S::V; K],
    m: [S::V; K],
    m_sh: [S::V; K],
    /// lo(a_0·b_i), for every i.
    lo0: [[u64; 8]; K],
    /// hi(a_0·b_i) + lo(a_1·b_i), for every i.
    x01: [[u64; 8]; K],
    m0: u64,
    m1: u64,
    k0: u64,
}

/// One step of the product for digit i (see the module docs): `$sv` the instantiation, `$v`
/// the accumulator vectors, `$acc` digit 0, `$s` the lane's operands, `$b` its multiplier's
/// digits.
macro_rules! step {
    ($sv:ident, $v:ident, $acc:ident, $s:ident, $b:ident, $i:expr, $zero:ident) => {{
        let (i, zero) = ($i, $zero);
        let bv = $sv.splat($b[i]);
        // Scalar digit 0. P + lo(m_0·y) is 0 or 2^52 modulo 2^52 (y makes it vanish), so
        // its carry is P's top part plus one when P's low digit is not zero.
        let p = $acc + $s.lo0.as_flattened()[i];
        let y = p.wrapping_mul($s.k0) & MASK52;
        let carry = (p >> 52) + (((p & MASK52) + MASK52) >> 52);
        let hi0 = ((u128::from($s.m0) * u128::from(y)) >> 52) as u64;
        let lane1 = $sv.lane1($v[0]);
        $acc = carry + hi0 + ($s.m1.wrapping_mul(y) & MASK52) + $s.x01.as_flattened()[i] + lane1;
        // V' = shift(V) + lo(M'·y) + hi(M·y) + lo(A'·b_i) + hi(A·b_i).
        let yv = $sv.splat(y);
        for k in 0..K {
            let pa = $sv.madd52lo($sv.madd52hi(zero, $s.a[k], bv), $s.a_sh[k], bv);
            let next = if k + 1 < K { $v[k + 1] } else { zero };
            let t = $sv.down1(next, $v[k]);
            let t = $sv.madd52hi($sv.madd52lo(t, $s.m_sh[k], yv), $s.m[k], yv);
            $v[k] = $sv.add(t, pa);
        }
    }};
}

/// Loads a lane's operands; the digit-0 products a_0·b_i, a_1·b_i (which do not depend on
/// the reduction) are computed for every i at once.
#[inline(always)]
fn load_lane<S: Simd512, const K: usize>(s: S, a: &[u64], b: &[u64], ctx: &Ctx) -> Lane<S, K> {
    let ld = |x: &[u64], k: usize| {
        // SAFETY: `x` holds 8K words (checked by the callers) and k < K.
        unsafe { s.load(x.as_ptr().add(8 * k)) }
    };
    let zero = s.zero();
    let mut l = Lane::<S, K> {
        a: [zero; K],
        a_sh: [zero; K],
        m: [zero; K],
        m_sh: [zero; K],
        lo0: [[0; 8]; K],
        x01: [[0; 8]; K],
        m0: ctx.m[0],
        m1: ctx.m[1],
        k0: ctx.k0,
    };
    let (a0, a1) = (s.splat(a[0]), s.splat(a[1]));
    for k in 0..K {
        l.a[k] = ld(a, k);
        l.m[k] = ld(&ctx.m, k);
        l.m_sh[k] = ld(&ctx.m_sh, k);
        let bk = ld(b, k);
        let lo = s.madd52lo(zero, bk, a0);
        let x = s.madd52lo(s.madd52hi(zero, bk, a0), bk, a1);
        // SAFETY: each row of the arrays is 8 words.
        unsafe {
            s.store(l.lo0[k].as_mut_ptr(), lo);
            s.store(l.x01[k].as_mut_ptr(), x);
        }
    }
    for k in 0..K {
        let next = if k + 1 < K { l.a[k + 1] } else { zero };
        l.a_sh[k] = s.down1(next, l.a[k]);
    }
    l
}

/// Puts digit 0 (`acc`) in place, normalizes every digit below 2^52 and stores 8K words.
#[inline(always)]
fn finish<S: Simd512, const K: usize>(s: S, mut v: [S::V; K], acc: u64, r: &mut [u64]) {
    let zero = s.zero();
    let mask = s.splat(MASK52);
    v[0] = s.mask_mov(v[0], 1, s.splat(acc));
    // Carries of every digit move up one lane.
    let mut c = [zero; K];
    for k in 0..K {
        c[k] = s.srli52(v[k]);
        v[k] = s.and(v[k], mask);
    }
    for k in (0..K).rev() {
        let below = if k > 0 { c[k - 1] } else { zero };
        v[k] = s.add(v[k], s.up1(c[k], below));
    }
    // Now each digit is below 2^52 + 2^12: a carry of at most one, rippling through digits
    // equal to 2^52 - 1. Carry-lookahead on the lane masks (bit 8k + j for digit 8k + j):
    // generate G (digit > mask), propagate P (digit == mask); the carries in are
    // ((G + G + P) ^ P), computed with multi-word adds.
    let mut g = [0u64; 3];
    let mut p = [0u64; 3];
    for k in 0..K {
        let gk = u64::from(s.gt_mask(v[k], mask));
        let pk = u64::from(s.eq_mask(v[k], mask));
        g[k / 8] |= gk << (8 * (k % 8));
        p[k / 8] |= pk << (8 * (k % 8));
    }
    let mut carry = 0u64;
    let mut cin = [0u64; 3];
    for w in 0..3 {
        let (s1, o1) = g[w].overflowing_add(g[w]);
        let (s2, o2) = s1.overflowing_add(p[w]);
        let (s3, o3) = s2.overflowing_add(carry);
        carry = u64::from(o1) + u64::from(o2) + u64::from(o3);
        cin[w] = s3 ^ p[w];
    }
    let one = s.splat(1);
    for k in 0..K {
        let ck = ((cin[k / 8] >> (8 * (k % 8))) & 0xff) as u8;
        let bumped = s.mask_add(v[k], ck, v[k], one);
        let d = s.and(bumped, mask);
        // SAFETY: `r` holds 8K words (checked by the callers) and k < K.
        unsafe { s.store(r.as_mut_ptr().add(8 * k), d) };
    }
}

/// The other lane of a dual product: its output, operands and modulus.
pub(crate) type Second<'a> = (&'a mut [u64], &'a [u64], &'a [u64], &'a Ctx);

/// `r = a·b·R⁻¹` for one modulus, or for two interleaved (`second`: the other lane's output,
/// operands and modulus, same K). Inputs below 2m with digits below 2^52; outputs likewise.
#[inline(always)]
fn amm1<S: Simd512, const K: usize>(
    s: S,
    r: &mut [u64],
    a: &[u64],
    b: &[u64],
    ctx: &Ctx,
    second: Option<Second<'_>>,
) {
    let w = 8 * K;
    assert!(
        r.len() == w && a.len() == w && b.len() == w && ctx.k == K,
        "amm shapes"
    );
    let zero = s.zero();
    let n = ctx.n;
    let x = load_lane::<S, K>(s, a, b, ctx);
    let (mut xv, mut xacc) = ([zero; K], 0u64);
    match second {
        None => {
            for i in 0..n {
                step!(s, xv, xacc, x, b, i, zero);
            }
            finish::<S, K>(s, xv, xacc, r);
        }
        Some((r2, a2, b2, ctx2)) => {
            assert!(
                r2.len() == w && a2.len() == w && b2.len() == w && ctx2.k == K && ctx2.n == n,
                "amm shapes"
            );
            let z = load_lane::<S, K>(s, a2, b2, ctx2);
            let (mut zv, mut zacc) = ([zero; K], 0u64);
            for i in 0..n {
                step!(s, xv, xacc, x, b, i, zero);
                step!(s, zv, zacc, z, b2, i, zero);
            }
            finish::<S, K>(s, xv, xacc, r);
            finish::<S, K>(s, zv, zacc, r2);
        }
    }
}
