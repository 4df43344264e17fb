//! The multi-buffer AVX-512 IFMA kernel: eight independent exponentiations at once, one per
//! 64-bit lane of the 512-bit registers (lane j ↔ operation j), each with its own modulus,
//! k0, base and secret exponent, all of the same digit count n (radix 2^52).
//!
//! Layout: a set of eight numbers of n digits is n vectors, vector i holding digit i of every
//! lane (words 8i .. 8i + 8, word 8i + j = digit i of lane j). The lanes never talk to each
//! other: no shuffle, no cross-lane carry. The product is Gueron and Krasnov's
//! almost-Montgomery product (as in the single-operation kernel, `ifma.rs`): R = 2^(52n) > 4m
//! for every lane, inputs below 2m give an output below 2m, so products chain with no
//! subtraction and only the way out of Montgomery form subtracts m, by masking, per lane.
//!
//! One step, for digit i of b (operand scanning; T the n accumulator vectors, `lo`/`hi` the
//! `vpmadd52luq`/`vpmadd52huq` halves, y and the carry per lane):
//!
//! ```text
//! t0 = T[0] + lo(a_0·b_i);  y = lo(t0·k0);  carry = (t0 + lo(m_0·y)) >> 52   (exact: the low
//!                                                                              52 bits vanish)
//! T[j−1] = T[j] + lo(a_j·b_i) + hi(a_(j−1)·b_i) + lo(m_j·y) + hi(m_(j−1)·y)   (j = 1 .. n−1)
//! T[n−1] = hi(a_(n−1)·b_i) + hi(m_(n−1)·y);  T[0] += carry
//! ```
//!
//! Two steps run in one pass over T (digits i and i + 1 of b): the second step's y needs
//! only the first step's new digit 0 of T, computed ahead, so each word of T, a and m is
//! loaded, and each word of T stored, once per two digits (memory traffic, not the products,
//! bounded the one-step loop); an odd n ends with one single step.
//!
//! A word of T takes at most four terms below 2^52 per step and lives n steps, so it stays
//! below 4n·2^52 + 2^12 < 2^64 for n ≤ [`MAX_DIGITS`]; digits are normalized below 2^52 once
//! at the end of each product (a carry pass over the n vectors, lane-parallel).
//!
//! The exponentiation is the fixed window of `exp.rs` (same width for the same bit count),
//! lane by lane: every lane reads its own window of its own exponent, and the table entry is
//! chosen per lane by a vector compare of the entry's number with the lanes' indices and a
//! masked move, over every entry (no branch and no address that depends on a window). The
//! exponent is read over `ebits` bits, a public length (the modulus' bit size), whatever the
//! exponents' values.
// Compiled only where build.rs found Rust 1.89 or newer (cfg `parcrypt_avx512`).
#![allow(clippy::incompatible_msrv)]
use super::exp::{window_at, window_bits};
use super::portable::Mont64;
use super::select::{self, MASK52, from_radix52, to_radix52};
use super::simd::{Avx512Ifma, Emulated, Simd512};
use zeroize::Zeroizing;

/// Operations per call: the 64-bit lanes of a 512-bit register.
pub const LANES: usize = 8;

/// Most digits per number (as the single-operation kernel: moduli up to 8318 bits).
pub const MAX_DIGITS: usize = 160;

/// Whether this CPU runs the kernel (AVX-512F and AVX-512 IFMA).
pub fn available() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma")
}

/// Digits of a modulus of `bits` bits: ⌈(bits + 2)/52⌉ (R > 4m), at least 2.
pub const fn digits_for(bits: u32) -> usize {
    let d = (bits as usize + 2).div_ceil(52);
    if d < 2 { 2 } else { d }
}

/// One lane's modulus, prepared for a digit count n (built once per modulus, reused by every
/// call it takes part in).
#[derive(Clone)]
pub struct MbLane {
    n: usize,
    /// m in 64-bit limbs (the final subtraction and the output's length).
    m64: Zeroizing<Vec<u64>>,
    /// m, n digits.
    m: Zeroizing<Vec<u64>>,
    /// -m⁻¹ mod 2^52.
    k0: u64,
    /// R² mod m, n digits.
    rr: Zeroizing<Vec<u64>>,
    /// R mod m, n digits.
    one: Zeroizing<Vec<u64>>,
}

/// The Montgomery constant k0 fixes the modulus mod 2^64 (2^52): wiped with the rest.
impl Drop for MbLane {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.k0);
    }
}

impl std::fmt::Debug for MbLane {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ifma_mb::MbLane({} digits)", self.n)
    }
}

impl MbLane {
    /// The lane of the modulus of `arith` at `digits` digits (at least
    /// [`digits_for`] of its bit size, at most [`MAX_DIGITS`]).
    pub fn new(arith: &Mont64, digits: usize) -> Self {
        assert!(
            digits >= digits_for(arith.bits()) && digits <= MAX_DIGITS,
            "multi-buffer digit count"
        );
        let conv = |x: &[u64]| {
            let mut d = Zeroizing::new(vec![0u64; digits]);
            to_radix52(x, &mut d);
            d
        };
        MbLane {
            n: digits,
            m64: Zeroizing::new(arith.m().to_vec()),
            m: conv(arith.m()),
            k0: arith.k0() & MASK52,
            rr: conv(&arith.pow2(2 * 52 * digits)),
            one: conv(&arith.pow2(52 * digits)),
        }
    }

    /// The digit count.
    pub fn digits(&self) -> usize {
        self.n
    }

    /// Limbs (64-bit) of this lane's values.
    pub fn limbs(&self) -> usize {
        self.m64.len()
    }
}

/// Eight lanes side by side (see the module docs): the moduli, k0s, R² and R in the
/// transposed layout.
pub struct MbCtx<'a> {
    n: usize,
    lanes: [&'a MbLane; LANES],
    m: Zeroizing<Vec<u64>>,
    k0: [u64; LANES],
    rr: Zeroizing<Vec<u64>>,
    one: Zeroizing<Vec<u64>>,
}

/// The Montgomery constant k0 fixes the modulus mod 2^64 (2^52): wiped with the rest.
impl Drop for MbCtx<'_> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.k0);
    }
}

/// `LANES` numbers of `n` digits each (lane j: `lanes[j]`, digits beyond n dropped), transposed.
fn transpose(n: usize, lanes: &[&[u64]; LANES]) -> Zeroizing<Vec<u64>> {
    let mut out = Zeroizing::new(vec![0u64; LANES * n]);
    for (j, x) in lanes.iter().enumerate() {
        for (i, &d) in x.iter().enumerate().take(n) {
            out[LANES * i + j] = d;
        }
    }
    out
}

impl<'a> MbCtx<'a> {
    /// The eight lanes (the same lane may appear more than once); all of one digit count.
    /// The caller has checked [`available`].
    pub fn new(lanes: [&'a MbLane; LANES]) -> Self {
        let n = lanes[0].n;
        assert!(
            lanes.iter().all(|l| l.n == n),
            "multi-buffer lanes of one digit count"
        );
        MbCtx {
            n,
            m: transpose(n, &lanes.map(|l| &l.m[..])),
            k0: lanes.map(|l| l.k0),
            rr: transpose(n, &lanes.map(|l| &l.rr[..])),
            one: transpose(n, &lanes.map(|l| &l.one[..])),
            lanes,
        }
    }

    /// `outs[j] = bases[j]^exps[j] mod m_j` for every lane j, fully reduced; `bases[j] < m_j`
    /// and `outs[j]` at lane j's limb count, `exps[j]` as limbs read over `ebits` bits (a
    /// public length; bits beyond the limbs read as zero). Constant time for every base,
    /// exponent and modulus value; the stack the products used is wiped after.
    pub fn pow(
        &self,
        outs: [&mut [u64]; LANES],
        bases: [&[u64]; LANES],
        exps: [&[u64]; LANES],
        ebits: usize,
    ) {
        let s = Avx512Ifma::detect().expect("the multi-buffer IFMA kernel needs avx512ifma");
        self.pow_in(s, outs, bases, exps, ebits)
    }

    /// [`MbCtx::pow`] on the instantiation `s` (the vector instructions, or their emulation).
    pub(crate) fn pow_in<S: MbKernel>(
        &self,
        s: S,
        outs: [&mut [u64]; LANES],
        bases: [&[u64]; LANES],
        exps: [&[u64]; LANES],
        ebits: usize,
    ) {
        for j in 0..LANES {
            assert!(
                outs[j].len() == self.lanes[j].limbs() && bases[j].len() == self.lanes[j].limbs(),
                "limb counts follow the lane's modulus"
            );
        }
        let w = LANES * self.n;
        // secret: the bases in the transposed radix-2^52 layout, then in Montgomery form.
        let mut digits = [(); LANES].map(|_| Zeroizing::new(vec![0u64; self.n]));
        for (d, b) in digits.iter_mut().zip(bases) {
            to_radix52(b, d);
        }
        let raw = transpose(self.n, &[0, 1, 2, 3, 4, 5, 6, 7].map(|j| &digits[j][..]));
        let mut bm = Zeroizing::new(vec![0u64; w]);
        let mut acc = Zeroizing::new(vec![0u64; w]);
        let mut scratch = Zeroizing::new(vec![0u64; w]);
        self.mul(s, &mut bm, &raw, &self.rr, &mut scratch);
        self.window(s, &mut acc, &bm, &exps, ebits, &mut scratch);
        // Out of Montgomery form: a product by 1 (below m_j + 1), one masked subtraction.
        let mut unit = Zeroizing::new(vec![0u64; w]);
        unit[..LANES].fill(1);
        let mut d = Zeroizing::new(vec![0u64; w]);
        self.mul(s, &mut d, &acc, &unit, &mut scratch);
        for (j, out) in outs.into_iter().enumerate() {
            let lane = &mut digits[j];
            for (i, x) in lane.iter_mut().enumerate() {
                *x = d[LANES * i + j];
            }
            from_radix52(lane, out);
            select::reduce_once(out, &self.lanes[j].m64);
        }
        select::burn_stack();
    }

    /// `r = a·b·R⁻¹` in every lane (`scratch`: the accumulators, 8n words).
    fn mul<S: MbKernel>(&self, s: S, r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]) {
        let w = LANES * self.n;
        assert!(
            r.len() == w && a.len() == w && b.len() == w && scratch.len() == w,
            "multi-buffer shapes"
        );
        s.amm(r, a, b, &self.m, &self.k0, scratch, self.n)
    }

    /// The fixed window (see the module docs): `out = base^exps` in Montgomery form, lane by
    /// lane.
    fn window<S: MbKernel>(
        &self,
        s: S,
        out: &mut [u64],
        base: &[u64],
        exps: &[&[u64]; LANES],
        ebits: usize,
        scratch: &mut [u64],
    ) {
        let w = LANES * self.n;
        let win = window_bits(ebits);
        let entries = 1usize << win;
        // secret: table[k] = base^k, every lane at once.
        let mut table = Zeroizing::new(vec![0u64; entries * w]);
        table[..w].copy_from_slice(&self.one);
        table[w..2 * w].copy_from_slice(base);
        for k in 2..entries {
            let (done, rest) = table.split_at_mut(k * w);
            let (x, y) = if k % 2 == 0 {
                (k / 2, k / 2)
            } else {
                (k - 1, 1)
            };
            self.mul(
                s,
                &mut rest[..w],
                &done[x * w..(x + 1) * w],
                &done[y * w..(y + 1) * w],
                scratch,
            );
        }
        let pick = |dst: &mut [u64], pos: usize| {
            // secret: each lane's window.
            let mut idx = Zeroizing::new([0u64; LANES]);
            for (i, e) in idx.iter_mut().zip(exps) {
                *i = window_at(e, pos, win);
            }
            s.select_lanes(dst, &table, &idx)
        };
        let windows = ebits.div_ceil(win).max(1);
        let mut acc = Zeroizing::new(vec![0u64; w]);
        let mut tmp = Zeroizing::new(vec![0u64; w]);
        let mut factor = Zeroizing::new(vec![0u64; w]);
        pick(&mut acc, (windows - 1) * win);
        for i in (0..windows - 1).rev() {
            for _ in 0..win {
                self.mul(s, &mut tmp, &acc, &acc, scratch);
                std::mem::swap(&mut acc, &mut tmp);
            }
            pick(&mut factor, i * win);
            self.mul(s, &mut tmp, &acc, &factor, scratch);
            std::mem::swap(&mut acc, &mut tmp);
        }
        out.copy_from_slice(&acc);
    }
}

/// The kernel's two entry points into the vector code, for each instantiation (as in
/// `ifma.rs`): the vector one runs them compiled with AVX-512F and IFMA, the emulated one
/// calls the same generic source directly.
pub(crate) trait MbKernel: Simd512 {
    /// [`amm`] on this instantiation; every slice holds 8n words, n ≥ 2.
    #[allow(clippy::too_many_arguments)]
    fn amm(
        self,
        r: &mut [u64],
        a: &[u64],
        b: &[u64],
        m: &[u64],
        k0: &[u64; LANES],
        t: &mut [u64],
        n: usize,
    );
    /// [`select_lanes`] on this instantiation.
    fn select_lanes(self, out: &mut [u64], table: &[u64], idx: &[u64; LANES]);
}

impl MbKernel for Avx512Ifma {
    fn amm(
        self,
        r: &mut [u64],
        a: &[u64],
        b: &[u64],
        m: &[u64],
        k0: &[u64; LANES],
        t: &mut [u64],
        n: usize,
    ) {
        // SAFETY: an `Avx512Ifma` exists only where the CPU has AVX-512F and IFMA.
        unsafe { amm_vec(self, r, a, b, m, k0, t, n) }
    }
    fn select_lanes(self, out: &mut [u64], table: &[u64], idx: &[u64; LANES]) {
        // SAFETY: as for `amm`.
        unsafe { select_lanes_vec(self, out, table, idx) }
    }
}

impl MbKernel for Emulated {
    fn amm(
        self,
        r: &mut [u64],
        a: &[u64],
        b: &[u64],
        m: &[u64],
        k0: &[u64; LANES],
        t: &mut [u64],
        n: usize,
    ) {
        amm(self, r, a, b, m, k0, t, n)
    }
    fn select_lanes(self, out: &mut [u64], table: &[u64], idx: &[u64; LANES]) {
        select_lanes(self, out, table, idx)
    }
}

/// [`amm`] compiled with AVX-512F and IFMA.
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512 IFMA.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm_vec(
    s: Avx512Ifma,
    r: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    k0: &[u64; LANES],
    t: &mut [u64],
    n: usize,
) {
    amm(s, r, a, b, m, k0, t, n)
}

/// [`select_lanes`] compiled with AVX-512F.
///
/// # Safety
/// The CPU must have AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn select_lanes_vec(s: Avx512Ifma, out: &mut [u64], table: &[u64], idx: &[u64; LANES]) {
    select_lanes(s, out, table, idx)
}

/// `out` = entry `idx[j]` of `table` in lane j, for every lane: every entry is loaded and
/// merged under the mask of the lanes whose index equals its number (a vector compare).
#[inline(always)]
fn select_lanes<S: Simd512>(s: S, out: &mut [u64], table: &[u64], idx: &[u64; LANES]) {
    let w = out.len();
    assert!(w % LANES == 0 && table.len() % w == 0, "select shapes");
    // SAFETY: `idx` holds 8 words.
    let want = unsafe { s.load(idx.as_ptr()) };
    out.fill(0);
    for (e, entry) in table.chunks_exact(w).enumerate() {
        let hit = s.eq_mask(s.splat(e as u64), want);
        for i in 0..w / LANES {
            // SAFETY: both slices hold w words and 8i + 8 <= w.
            unsafe {
                let o = out.as_mut_ptr().add(LANES * i);
                let v = s.load(entry.as_ptr().add(LANES * i));
                let cur = s.load(o);
                s.store(o, s.mask_mov(cur, hit, v));
            }
        }
    }
}

/// The almost-Montgomery product of every lane (see the module docs): `r = a·b·R⁻¹`, inputs
/// below 2m with digits below 2^52, output likewise; `t` holds the accumulators.
///
/// Every slice holds 8n words, n ≥ 2 (checked in debug builds; `MbCtx::mul` checks them).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn amm<S: Simd512>(
    s: S,
    r: &mut [u64],
    a: &[u64],
    b: &[u64],
    m: &[u64],
    k0: &[u64; LANES],
    t: &mut [u64],
    n: usize,
) {
    debug_assert!(n >= 2 && [r.len(), a.len(), b.len(), m.len(), t.len()] == [LANES * n; 5]);
    // SAFETY (every load and store below): index i < n, so words 8i .. 8i + 8 are in bounds.
    let ld = |x: &[u64], i: usize| unsafe { s.load(x.as_ptr().add(LANES * i)) };
    let st =
        |x: &mut [u64], i: usize, v: S::V| unsafe { s.store(x.as_mut_ptr().add(LANES * i), v) };
    let zero = s.zero();
    let kv = ld(k0, 0);
    let (a0, m0, a1, m1) = (ld(a, 0), ld(m, 0), ld(a, 1), ld(m, 1));
    t.fill(0);
    // Two digits of b per pass over T (see the module docs): the second step's y needs only
    // the first step's new digit 0, computed ahead; then one pass adds both steps' products,
    // so T, a and m are loaded and T stored once per two digits.
    let mut i = 0;
    while i + 1 < n {
        let (b1, b2) = (ld(b, i), ld(b, i + 1));
        // Step i: y1, the carry out of digit 0, and the new digit 0.
        let t0 = s.madd52lo(ld(t, 0), a0, b1);
        let y1 = s.madd52lo(zero, t0, kv);
        let c1 = s.srli52(s.madd52lo(t0, m0, y1));
        let mut d0 = s.madd52lo(ld(t, 1), a1, b1);
        d0 = s.madd52hi(d0, a0, b1);
        d0 = s.madd52lo(d0, m1, y1);
        d0 = s.madd52hi(s.add(d0, c1), m0, y1);
        // Step i + 1 on it.
        let u0 = s.madd52lo(d0, a0, b2);
        let y2 = s.madd52lo(zero, u0, kv);
        let c2 = s.srli52(s.madd52lo(u0, m0, y2));
        let (mut ap, mut mp, mut aj, mut mj) = (a0, m0, a1, m1);
        for j in 1..n {
            // Digit j after step i (word j + 1 before it, or nothing at the top).
            let (an, mn, mut x) = if j + 1 < n {
                let (an, mn) = (ld(a, j + 1), ld(m, j + 1));
                let x = s.madd52lo(ld(t, j + 1), an, b1);
                (an, mn, s.madd52lo(x, mn, y1))
            } else {
                (zero, zero, zero)
            };
            x = s.madd52hi(x, aj, b1);
            x = s.madd52hi(x, mj, y1);
            // Step i + 1's products on digit j.
            x = s.madd52lo(x, aj, b2);
            x = s.madd52hi(x, ap, b2);
            x = s.madd52lo(x, mj, y2);
            x = s.madd52hi(x, mp, y2);
            if j == 1 {
                x = s.add(x, c2);
            }
            st(t, j - 1, x);
            (ap, mp, aj, mj) = (aj, mj, an, mn);
        }
        // The top digit after both steps.
        st(t, n - 1, s.madd52hi(s.madd52hi(zero, ap, b2), mp, y2));
        i += 2;
    }
    if i < n {
        // An odd digit count: the last digit alone.
        let bi = ld(b, i);
        let t0 = s.madd52lo(ld(t, 0), a0, bi);
        let y = s.madd52lo(zero, t0, kv);
        let carry = s.srli52(s.madd52lo(t0, m0, y));
        let (mut ap, mut mp) = (a0, m0);
        for j in 1..n {
            let (aj, mj) = (ld(a, j), ld(m, j));
            let mut x = s.madd52lo(ld(t, j), aj, bi);
            x = s.madd52hi(x, ap, bi);
            x = s.madd52lo(x, mj, y);
            x = s.madd52hi(x, mp, y);
            if j == 1 {
                x = s.add(x, carry);
            }
            st(t, j - 1, x);
            (ap, mp) = (aj, mj);
        }
        st(t, n - 1, s.madd52hi(s.madd52hi(zero, ap, bi), mp, y));
    }
    // Normalize: carries up, digit by digit, every lane at once (the value is below 2m < R,
    // so nothing leaves the top digit).
    let mask = s.splat(MASK52);
    let mut c = zero;
    for i in 0..n {
        let x = s.add(ld(t, i), c);
        c = s.srli52(x);
        st(r, i, s.and(x, mask));
    }
}
