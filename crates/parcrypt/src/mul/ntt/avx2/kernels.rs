//! The AVX2 transforms' kernels: the same steps as the portable
//! [`super::super::transform`] (a radix-2/3 DIF stage, power-of-two DIF blocks, pointwise
//! products, DIT blocks, the inverse radix stage), four residues per `__m256d`, as FLINT's
//! `fft_small` computes them:
//!
//! - residues are integers held in `f64`, kept centred: every value between passes stays in
//!   `(−p, p)` (`(−3p, 3p)` after the inverse's radix-4 passes, which leave their sums
//!   unreduced and reduce half their inputs instead), and `p < 2^50·(1 − 2^−16)`;
//! - a product `a·b` (`|a·b| ≤ 2p² < 2^101`) is split exactly into `h = fl(a·b)` and its
//!   error `l = fma(a, b, −h)`; with `q = round(h/p)` (or, by a table constant `w`, `q =
//!   round(a·(w/p))`, its companion precomputed) `fma(−q, p, h)` is exact (an integer below
//!   2^51) and `fma(−q, p, h) + l = a·b − q·p`, of magnitude below `p` (the quotient is off by
//!   less than `0.5` from `a·b/p` before rounding, see [`K::mulc`]);
//! - a sum (`|x| < 4p`) is reduced by `x − p·round(x/p)`, into `[−p/2 − 1, p/2 + 1]`;
//! - table constants are centred (`|w| ≤ (p − 1)/2`), so any `|a| < 4p` times one stays below
//!   `2p²`: a butterfly's sums need no reduction before their product by a twiddle, and two
//!   levels run per pass over memory (radix 4) with two of the four outputs reduced.
//!
//! The forward stage reads 64-bit limbs as digits (`x = hi·2^32 + lo`, `hi·2^32` reduced by one
//! rounded quotient, then `lo < 2^32` added); the inverse stage leaves each residue in
//! `[0, p)` as a word (the recombination's input).
//!
//! The last two levels of a DIF block (half-blocks of 2 and 1 points, shorter than a vector)
//! and the first two of a DIT block regroup two vectors with `vperm2f128` and `vunpck*pd`.
//!
//! Every entry point is an `unsafe fn` compiled with `avx2,fma`: its caller promises the CPU
//! has them, which the [`Avx2`] token passed in proves (it exists only after detection).
//! Memory is reached through slices (bounds-checked loads of four lanes), except in the
//! radix-4 passes (`dif_pass4`, `dit_pass4`, most of the work), which check their block's
//! and tables' lengths once and then load by offsets below them.
#![allow(clippy::incompatible_msrv)]
use super::super::transform::Shape;
use super::simd::{Avx2, D};
use super::tables::{Pairs, Tables};

/// Blocks of at most this many points run their levels pass after pass (the leaves of the
/// depth-first recursion; 8 KiB of data, in L1 beside their tables).
pub const LEAF: usize = 1 << 10;

/// One prime's constants, splatted once per kernel call.
#[derive(Clone, Copy)]
pub struct K {
    s: Avx2,
    p: D,
    pinv: D,
}

impl K {
    /// The constants of the prime `p` (below 2^50).
    #[inline(always)]
    pub fn of(s: Avx2, p: u64) -> Self {
        Self {
            s,
            p: s.splat(p as f64),
            pinv: s.splat(1.0 / p as f64),
        }
    }

    /// The constants of `tb`'s prime.
    #[inline(always)]
    pub fn new(s: Avx2, tb: &Tables) -> Self {
        Self {
            s,
            p: s.splat(tb.p),
            pinv: s.splat(tb.pinv),
        }
    }

    /// `x mod p` in `[−p/2 − 1, p/2 + 1]` for an integer `|x| < 2^52`: `q = round(x/p)` is
    /// off by at most `0.5 + 2^−49` from `x/p`, and `x − q·p` is exact.
    #[inline(always)]
    pub fn red(self, x: D) -> D {
        let s = self.s;
        s.fnmadd(s.round(s.mul(x, self.pinv)), self.p, x)
    }

    /// `a·w mod p` in `(−p, p)` for integers with `|a·w| ≤ 2p²`, `wq = fl(w/p)`: `a·wq` is
    /// within `2p·2^−52·(1 + 2^−53) < 0.5` of `a·w/p` (as `p < 2^50·(1 − 2^−16)`), so
    /// `q = round(a·wq)` leaves `|a·w − q·p| < p`; `h − q·p` is then an integer below `2^51`
    /// (exact in the FMA) and `l`, `h`'s rounding error, makes it `a·w − q·p` exactly.
    #[inline(always)]
    pub fn mulc(self, a: D, w: D, wq: D) -> D {
        let s = self.s;
        let h = s.mul(a, w);
        let q = s.round(s.mul(a, wq));
        let l = s.fmsub(a, w, h);
        s.add(s.fnmadd(q, self.p, h), l)
    }

    /// `a·b mod p` in `(−0.9p, 0.9p)` for integers `|a|, |b| < p`: as [`K::mulc`], the
    /// quotient from `fl(a·b)·fl(1/p)` (three roundings: within `3p·2^−53 < 0.4` of `a·b/p`).
    #[inline(always)]
    pub fn mul(self, a: D, b: D) -> D {
        let s = self.s;
        let h = s.mul(a, b);
        let q = s.round(s.mul(h, self.pinv));
        let l = s.fmsub(a, b, h);
        s.add(s.fnmadd(q, self.p, h), l)
    }
}

/// Lanes `j..j + 4` of `v` (words holding `f64` bits).
#[inline(always)]
fn ld(s: Avx2, v: &[u64], j: usize) -> D {
    let c = &v[j..j + 4];
    // SAFETY: `c` holds four readable words.
    unsafe { s.load(c.as_ptr().cast()) }
}

/// Lanes `j..j + 4` of a table.
#[inline(always)]
fn ldf(s: Avx2, v: &[f64], j: usize) -> D {
    let c = &v[j..j + 4];
    // SAFETY: `c` holds four readable f64s.
    unsafe { s.load(c.as_ptr()) }
}

/// Writes lanes `j..j + 4` of `v` (as `f64` bits).
#[inline(always)]
fn st(s: Avx2, v: &mut [u64], j: usize, x: D) {
    let c = &mut v[j..j + 4];
    // SAFETY: `c` holds four writable words.
    unsafe { s.store(c.as_mut_ptr().cast(), x) }
}

/// Constants of the digit reduction.
#[derive(Clone, Copy)]
struct Digits<'a> {
    k: K,
    src: &'a [u64],
    /// `2^32/p`.
    c32: D,
    /// `2^32`.
    two32: D,
    zero: D,
}

impl<'a> Digits<'a> {
    #[inline(always)]
    fn new(k: K, tb: &Tables, src: &'a [u64]) -> Self {
        let s = k.s;
        Self {
            k,
            src,
            c32: s.splat(tb.c32),
            two32: s.splat((1u64 << 32) as f64),
            zero: s.splat(0.0),
        }
    }

    /// Limbs `i..i + 4` of the operand (zero past its end) mod p, in `[−p/2 − 1, p/2 + 2^32]`:
    /// `hi·2^32 − round(hi·2^32/p)·p + lo` for the limb's 32-bit halves.
    #[inline(always)]
    fn at(self, i: usize) -> D {
        let (s, src) = (self.k.s, self.src);
        if i >= src.len() {
            return self.zero;
        }
        let v = if i + 4 <= src.len() {
            let c = &src[i..i + 4];
            // SAFETY: `c` holds four readable words.
            unsafe { s.load_words(c.as_ptr()) }
        } else {
            let mut t = [0u64; 4];
            t[..src.len() - i].copy_from_slice(&src[i..]);
            // SAFETY: `t` holds four readable words.
            unsafe { s.load_words(t.as_ptr()) }
        };
        let (lo, hi) = s.halves(v);
        let q = s.round(s.mul(hi, self.c32));
        s.add(s.fnmadd(q, self.k.p, s.mul(hi, self.two32)), lo)
    }
}

/// The forward radix stage's outputs at `j..j + 4` for blocks `t ∈ ts` (radix 2: `a0 + a1`,
/// `w^j·(a0 − a1)`; radix 3: `a0 + a1 + a2`, `w^j·(a0 − a2 + d)`, `w^(2j)·(a0 − a1 − d)`
/// with `d = ω·(a1 − a2)`), each written by `put(t, value)`.
#[inline(always)]
fn radix_stage(
    d: Digits<'_>,
    tb: &Tables,
    shape: Shape,
    j: usize,
    ts: std::ops::Range<usize>,
    mut put: impl FnMut(usize, D),
) {
    let (k, m) = (d.k, shape.m);
    let s = k.s;
    let (a0, a1) = (d.at(j), d.at(j + m));
    if shape.radix == 2 {
        for t in ts {
            let y = if t == 0 {
                k.red(s.add(a0, a1))
            } else {
                let (w, wq) = (ldf(s, &tb.fwd[0].w, j), ldf(s, &tb.fwd[0].q, j));
                k.mulc(s.sub(a0, a1), w, wq)
            };
            put(t, y);
        }
        return;
    }
    let a2 = d.at(j + 2 * m);
    let dd = k.mulc(s.sub(a1, a2), s.splat(tb.omega.0), s.splat(tb.omega.1));
    for t in ts {
        let y = match t {
            0 => k.red(s.add(s.add(a0, a1), a2)),
            1 => {
                let (w, wq) = (ldf(s, &tb.fwd[0].w, j), ldf(s, &tb.fwd[0].q, j));
                k.mulc(s.add(s.sub(a0, a2), dd), w, wq)
            }
            _ => {
                let (w, wq) = (ldf(s, &tb.fwd[1].w, j), ldf(s, &tb.fwd[1].q, j));
                k.mulc(s.sub(s.sub(a0, a1), dd), w, wq)
            }
        };
        put(t, y);
    }
}

/// Block `t` of the forward transform of the limbs `src` (zero beyond its length), written
/// into `out` (`m` points, bit-reversed, `f64` bits).
///
/// # Safety
/// The CPU has AVX2 and FMA (`s` proves it); `shape.m ≥ 8` (a power of two) and
/// `out.len() == shape.m`.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn forward_block(
    s: Avx2,
    tb: &Tables,
    shape: Shape,
    src: &[u64],
    t: usize,
    out: &mut [u64],
) {
    let k = K::new(s, tb);
    let d = Digits::new(k, tb, src);
    debug_assert!(out.len() == shape.m && shape.m >= 8);
    for j in (0..shape.m).step_by(4) {
        radix_stage(d, tb, shape, j, t..t + 1, |_, y| st(s, out, j, y));
    }
    // SAFETY: as this function's.
    unsafe { dif(k, &tb.fwd_levels, out) };
}

/// All `radix` blocks of the forward transform of `src` into `out` (`shape.points()` words):
/// one pass over the limbs, each read and reduced once, then each block's DIF.
///
/// # Safety
/// As [`forward_block`], with `out.len() == shape.points()`.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn forward_all(s: Avx2, tb: &Tables, shape: Shape, src: &[u64], out: &mut [u64]) {
    let k = K::new(s, tb);
    let d = Digits::new(k, tb, src);
    let m = shape.m;
    debug_assert!(out.len() == shape.points() && m >= 8);
    for j in (0..m).step_by(4) {
        radix_stage(d, tb, shape, j, 0..shape.radix, |t, y| {
            st(s, out, t * m + j, y)
        });
    }
    for block in out.chunks_exact_mut(m) {
        // SAFETY: as this function's.
        unsafe { dif(k, &tb.fwd_levels, block) };
    }
}

/// In place: the DIF transform of `x` (a power of two, at least 8 points; natural order in,
/// bit-reversed out) with the levels `lv`: two levels per pass over memory ([`dif_pass4`]),
/// longer blocks than [`LEAF`] one such pass and then their quarters (depth first).
#[target_feature(enable = "avx2,fma")]
unsafe fn dif(k: K, lv: &Pairs, x: &mut [u64]) {
    let len = x.len();
    if len > LEAF {
        dif_pass4(k, lv, x);
        for part in x.chunks_exact_mut(len / 4) {
            // SAFETY: as this function's.
            unsafe { dif(k, lv, part) };
        }
        return;
    }
    let mut h = len / 2;
    while h >= 8 {
        for block in x.chunks_exact_mut(2 * h) {
            dif_pass4(k, lv, block);
        }
        h /= 4;
    }
    if h == 4 {
        for block in x.chunks_exact_mut(8) {
            let (lo, hi) = block.split_at_mut(4);
            dif_level(k, lv, lo, hi);
        }
    }
    dif_last_two(k, lv, x);
}

/// The DIF levels with half-blocks of `2q` and `q` points (`x.len() = 4q`, `q ≥ 4`) in one
/// pass, quarters `x0..x3`: `s0 = x0 + x2`, `s1 = x1 + x3`, `d0 = (x0 − x2)·ρ^j`,
/// `d1 = (x1 − x3)·ρ^(j+q)` (`ρ` of order `4q`), then `(s0 + s1, (s0 − s1)·σ^j, d0 + d1,
/// (d0 − d1)·σ^j)` (`σ = ρ²`). Values below `p` in, so `|s0 − s1| < 4p` (a product by a
/// centred constant stays below `2p²`, [`K::mulc`]) and every output below `p`.
#[inline(always)]
fn dif_pass4(k: K, lv: &Pairs, x: &mut [u64]) {
    let s = k.s;
    let q = x.len() / 4;
    assert!(q % 4 == 0 && x.len() == 4 * q && lv.w.len() >= 4 * q && lv.q.len() >= 4 * q);
    let (xp, w, wq) = (x.as_mut_ptr().cast::<f64>(), lv.w.as_ptr(), lv.q.as_ptr());
    for j in (0..q).step_by(4) {
        // SAFETY: `j + 4 ≤ q` (a multiple of 4), so every offset below, at most `3q + j + 3`,
        // is below `4q`: inside `x` and both tables (asserted above).
        unsafe {
            let (wa, waq) = (s.load(w.add(2 * q + j)), s.load(wq.add(2 * q + j)));
            let (wb, wbq) = (s.load(w.add(3 * q + j)), s.load(wq.add(3 * q + j)));
            let (w2, w2q) = (s.load(w.add(q + j)), s.load(wq.add(q + j)));
            let (p0, p1, p2, p3) = (
                xp.add(j),
                xp.add(q + j),
                xp.add(2 * q + j),
                xp.add(3 * q + j),
            );
            let (a0, a1, a2, a3) = (s.load(p0), s.load(p1), s.load(p2), s.load(p3));
            let (s0, s1) = (s.add(a0, a2), s.add(a1, a3));
            let d0 = k.mulc(s.sub(a0, a2), wa, waq);
            let d1 = k.mulc(s.sub(a1, a3), wb, wbq);
            s.store(p0, k.red(s.add(s0, s1)));
            s.store(p1, k.mulc(s.sub(s0, s1), w2, w2q));
            s.store(p2, k.red(s.add(d0, d1)));
            s.store(p3, k.mulc(s.sub(d0, d1), w2, w2q));
        }
    }
}

/// One DIF butterfly row, `h = lo.len() ≥ 4`: `(u, v) ← (u + v, (u − v)·ρ^j)`, `ρ` of order
/// `2h`.
#[inline(always)]
fn dif_level(k: K, lv: &Pairs, lo: &mut [u64], hi: &mut [u64]) {
    let (s, h) = (k.s, lo.len());
    for j in (0..h).step_by(4) {
        let (w, wq) = (ldf(s, &lv.w, h + j), ldf(s, &lv.q, h + j));
        let (u, v) = (ld(s, lo, j), ld(s, hi, j));
        st(s, lo, j, k.red(s.add(u, v)));
        st(s, hi, j, k.mulc(s.sub(u, v), w, wq));
    }
}

/// The DIF levels with half-blocks of 2 and 1 points, eight points (two vectors) at a time.
#[inline(always)]
fn dif_last_two(k: K, lv: &Pairs, x: &mut [u64]) {
    let s = k.s;
    // Half-blocks of 2: twiddles 1 and ρ (order 4) in both 128-bit halves.
    let (w, wq) = (s.pair(lv.w[2], lv.w[3]), s.pair(lv.q[2], lv.q[3]));
    for g in (0..x.len()).step_by(8) {
        let (a, b) = (ld(s, x, g), ld(s, x, g + 4));
        // lo = [x0, x1, x4, x5], hi = [x2, x3, x6, x7].
        let (lo, hi) = (s.lows(a, b), s.highs(a, b));
        let (lo, hi) = (k.red(s.add(lo, hi)), k.mulc(s.sub(lo, hi), w, wq));
        // Half-blocks of 1: u = [y0, y2, y4, y6], v = [y1, y3, y5, y7].
        let (u, v) = (s.evens(lo, hi), s.odds(lo, hi));
        let (u, v) = (k.red(s.add(u, v)), k.red(s.sub(u, v)));
        let (e, o) = (s.evens(u, v), s.odds(u, v));
        st(s, x, g, s.lows(e, o));
        st(s, x, g + 4, s.highs(e, o));
    }
}

/// What the DIT's leaves multiply by before transforming: nothing, their own square, or the
/// other operand's transform (the same part of it), each times `1/n`.
#[derive(Clone, Copy)]
enum Pointwise<'a> {
    Square,
    By(&'a [u64]),
}

impl<'a> Pointwise<'a> {
    /// The parts for the halves of a block split at `h`.
    #[inline(always)]
    fn split(self, h: usize) -> (Self, Self) {
        match self {
            Pointwise::Square => (Pointwise::Square, Pointwise::Square),
            Pointwise::By(y) => {
                let (a, b) = y.split_at(h);
                (Pointwise::By(a), Pointwise::By(b))
            }
        }
    }
}

/// In place: `x ← dit(x·y/n)` (`pw`: `y`, or `x` itself) — the inverse of [`dif`] times
/// `x.len()`, bit-reversed in, natural order out, two levels per pass ([`dit_pass4`]); the
/// pointwise product runs on each leaf of the recursion while it is in cache.
#[target_feature(enable = "avx2,fma")]
unsafe fn dit(k: K, lv: &Pairs, scale: (D, D), x: &mut [u64], pw: Pointwise<'_>) {
    let len = x.len();
    if len > LEAF {
        let q = len / 4;
        let (first, second) = pw.split(2 * q);
        let (p0, p1) = first.split(q);
        let (p2, p3) = second.split(q);
        for (part, pp) in x.chunks_exact_mut(q).zip([p0, p1, p2, p3]) {
            // SAFETY: as this function's.
            unsafe { dit(k, lv, scale, part, pp) };
        }
        dit_pass4(k, lv, x);
        return;
    }
    let s = k.s;
    match pw {
        Pointwise::Square => {
            for j in (0..len).step_by(4) {
                let a = ld(s, x, j);
                st(s, x, j, k.mulc(k.mul(a, a), scale.0, scale.1));
            }
        }
        Pointwise::By(y) => {
            for j in (0..len).step_by(4) {
                let (a, b) = (ld(s, x, j), ld(s, y, j));
                st(s, x, j, k.mulc(k.mul(a, b), scale.0, scale.1));
            }
        }
    }
    dit_first_two(k, lv, x);
    // Levels h = 4, 8, …, len/2: one alone first where their number is odd, then in pairs.
    let mut h = 4;
    if len.trailing_zeros() % 2 == 1 {
        for block in x.chunks_exact_mut(8) {
            let (lo, hi) = block.split_at_mut(4);
            dit_level(k, lv, lo, hi);
        }
        h = 8;
    }
    while h < len {
        for block in x.chunks_exact_mut(4 * h) {
            dit_pass4(k, lv, block);
        }
        h *= 4;
    }
}

/// The DIT levels with half-blocks of `q` and `2q` points (`x.len() = 4q`, `q ≥ 4`, inverse
/// levels) in one pass: `(y0 ± σ^(−j)·y1, y2 ± σ^(−j)·y3)`, then the halves' butterflies with
/// `ρ^(−j)` and `ρ^(−j−q)`. Values below `3p` in, below `2.5p + 1` out: two inputs are
/// reduced, the outputs are not (the next pass, or the inverse radix stage, takes them).
#[inline(always)]
fn dit_pass4(k: K, lv: &Pairs, x: &mut [u64]) {
    let s = k.s;
    let q = x.len() / 4;
    assert!(q % 4 == 0 && x.len() == 4 * q && lv.w.len() >= 4 * q && lv.q.len() >= 4 * q);
    let (xp, w, wq) = (x.as_mut_ptr().cast::<f64>(), lv.w.as_ptr(), lv.q.as_ptr());
    for j in (0..q).step_by(4) {
        // SAFETY: `j + 4 ≤ q` (a multiple of 4), so every offset below, at most `3q + j + 3`,
        // is below `4q`: inside `x` and both tables (asserted above).
        unsafe {
            let (w2, w2q) = (s.load(w.add(q + j)), s.load(wq.add(q + j)));
            let (wa, waq) = (s.load(w.add(2 * q + j)), s.load(wq.add(2 * q + j)));
            let (wb, wbq) = (s.load(w.add(3 * q + j)), s.load(wq.add(3 * q + j)));
            let (p0, p1, p2, p3) = (
                xp.add(j),
                xp.add(q + j),
                xp.add(2 * q + j),
                xp.add(3 * q + j),
            );
            // Inputs below 3p: a0 and a2 reduced (below p/2 + 1), a1 and a3 straight into the
            // products (below 1.5p² by a centred constant).
            let (a0, a1, a2, a3) = (k.red(s.load(p0)), s.load(p1), k.red(s.load(p2)), s.load(p3));
            let t1 = k.mulc(a1, w2, w2q);
            let t3 = k.mulc(a3, w2, w2q);
            // Below 1.5p + 1 each.
            let (s0, s1, s2, s3) = (s.add(a0, t1), s.sub(a0, t1), s.add(a2, t3), s.sub(a2, t3));
            let u2 = k.mulc(s2, wa, waq);
            let u3 = k.mulc(s3, wb, wbq);
            // Below 2.5p + 1, left unreduced.
            s.store(p0, s.add(s0, u2));
            s.store(p2, s.sub(s0, u2));
            s.store(p1, s.add(s1, u3));
            s.store(p3, s.sub(s1, u3));
        }
    }
}

/// One DIT butterfly row, `h = lo.len() ≥ 4`, `ρ` of order `2h` (inverse levels hold
/// `ρ^(−j)`): `(u, v) ← (u + ρ^(−j)·v, u − ρ^(−j)·v)`.
#[inline(always)]
fn dit_level(k: K, lv: &Pairs, lo: &mut [u64], hi: &mut [u64]) {
    let (s, h) = (k.s, lo.len());
    for j in (0..h).step_by(4) {
        let (w, wq) = (ldf(s, &lv.w, h + j), ldf(s, &lv.q, h + j));
        let (u, v) = (ld(s, lo, j), ld(s, hi, j));
        let t = k.mulc(v, w, wq);
        st(s, lo, j, k.red(s.add(u, t)));
        st(s, hi, j, k.red(s.sub(u, t)));
    }
}

/// The DIT levels with half-blocks of 1 and 2 points (the inverse of [`dif_last_two`]).
#[inline(always)]
fn dit_first_two(k: K, lv: &Pairs, x: &mut [u64]) {
    let s = k.s;
    let (w, wq) = (s.pair(lv.w[2], lv.w[3]), s.pair(lv.q[2], lv.q[3]));
    for g in (0..x.len()).step_by(8) {
        let (a, b) = (ld(s, x, g), ld(s, x, g + 4));
        // [z0, z1, z4, z5], [z2, z3, z6, z7] -> u = [z0, z2, z4, z6], v = [z1, z3, z5, z7].
        let (l, h) = (s.lows(a, b), s.highs(a, b));
        let (u, v) = (s.evens(l, h), s.odds(l, h));
        let (u, v) = (k.red(s.add(u, v)), k.red(s.sub(u, v)));
        // lo = [y0, y1, y4, y5], hi = [y2, y3, y6, y7].
        let (lo, hi) = (s.evens(u, v), s.odds(u, v));
        let t = k.mulc(hi, w, wq);
        let (lo, hi) = (k.red(s.add(lo, t)), k.red(s.sub(lo, t)));
        st(s, x, g, s.lows(lo, hi));
        st(s, x, g + 4, s.highs(lo, hi));
    }
}

/// The pointwise product of one block with `y`'s (`None`: its square) and its inverse DIT:
/// `x ← dit(x·y/n)`.
///
/// # Safety
/// The CPU has AVX2 and FMA; `x.len()` is a power of two of at least 8 points, `y` as long.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn pointwise_inverse(s: Avx2, tb: &Tables, x: &mut [u64], y: Option<&[u64]>) {
    let k = K::new(s, tb);
    let scale = (s.splat(tb.scale.0), s.splat(tb.scale.1));
    let pw = match y {
        Some(y) => {
            assert_eq!(y.len(), x.len());
            Pointwise::By(y)
        }
        None => Pointwise::Square,
    };
    // SAFETY: as this function's.
    unsafe { dit(k, &tb.inv_levels, scale, x, pw) };
}

/// The inverse radix stage for indices `j0 .. j0 + blocks[0].len()`: `blocks[t]` holds
/// entries `j0..` of block `t` (each already inverted, below `3p`) and receives coefficients
/// `j + t·m` mod p, in `[0, p)`, as words (each sum below `6p`, reduced once).
///
/// # Safety
/// The CPU has AVX2 and FMA; the blocks (2 or 3) have one length, a multiple of 4, and `j0`
/// is a multiple of 4.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn inverse_stage(s: Avx2, tb: &Tables, j0: usize, blocks: &mut [&mut [u64]]) {
    let k = K::new(s, tb);
    let p = k.p;
    let out = |x: D| s.to_words(s.add_if_negative(k.red(x), p));
    let put = |v: &mut [u64], i: usize, x: D| {
        let c = &mut v[i..i + 4];
        // SAFETY: `c` holds four writable words.
        unsafe { s.store_words(c.as_mut_ptr(), out(x)) }
    };
    match blocks {
        [y0, y1] => {
            for i in (0..y0.len()).step_by(4) {
                let j = j0 + i;
                let (w, wq) = (ldf(s, &tb.inv[0].w, j), ldf(s, &tb.inv[0].q, j));
                let (a, b) = (ld(s, y0, i), ld(s, y1, i));
                let t = k.mulc(b, w, wq);
                put(y0, i, s.add(a, t));
                put(y1, i, s.sub(a, t));
            }
        }
        [y0, y1, y2] => {
            let (om, omq) = (s.splat(tb.omega.0), s.splat(tb.omega.1));
            for i in (0..y0.len()).step_by(4) {
                let j = j0 + i;
                let (w1, w1q) = (ldf(s, &tb.inv[0].w, j), ldf(s, &tb.inv[0].q, j));
                let (w2, w2q) = (ldf(s, &tb.inv[1].w, j), ldf(s, &tb.inv[1].q, j));
                let a = ld(s, y0, i);
                let p1 = k.mulc(ld(s, y1, i), w1, w1q);
                let p2 = k.mulc(ld(s, y2, i), w2, w2q);
                // x0 = P0 + P1 + P2, x1 = P0 − P1 − d, x2 = P0 − P2 + d, d = ω·(P1 − P2).
                let d = k.mulc(s.sub(p1, p2), om, omq);
                put(y0, i, s.add(s.add(a, p1), p2));
                put(y1, i, s.sub(s.sub(a, p1), d));
                put(y2, i, s.add(s.sub(a, p2), d));
            }
        }
        _ => unreachable!("radix 2 or 3"),
    }
}

/// Garner's digits `t1`, `t2` (each in `[0, p_i)`, as words) of the coefficients with
/// residues `r[0][i], r[1][i], r[2][i]` (each below its prime): `t1 = (r1 − r0)·p0^(−1)
/// mod p1`, `t2 = ((r2 − r0)·p0^(−1) − t1)·p1^(−1) mod p2` ([`super::crt::Garner::digits`]),
/// by the same centred products as the transforms: `|r1 − r0| < p0 < 1.001·p1` and
/// `|(r2 − r0)·p0^(−1) mod p2 − t1| < 2.001·p2`, so each product by a centred constant stays
/// below `2p²`.
///
/// # Safety
/// The CPU has AVX2 and FMA (`s` proves it); the five slices have one length, a multiple
/// of 4; `p` are the AVX2 primes and `inv[i][j] = p_j^(−1) mod p_i` for `j < i`.
#[target_feature(enable = "avx2,fma")]
pub unsafe fn garner_digits(
    s: Avx2,
    p: [u64; 3],
    inv: [[u64; 3]; 3],
    r: [&[u64]; 3],
    t1: &mut [u64],
    t2: &mut [u64],
) {
    let (k1, k2) = (K::of(s, p[1]), K::of(s, p[2]));
    let c = |i: usize, j: usize| {
        let (w, q) = super::field::centered(p[i], inv[i][j]);
        (s.splat(w), s.splat(q))
    };
    let (c01, c02, c12) = (c(1, 0), c(2, 0), c(2, 1));
    let words = |v: &[u64], i: usize| {
        let w = &v[i..i + 4];
        // SAFETY: `w` holds four readable words.
        s.from_words(unsafe { s.load_words(w.as_ptr()) })
    };
    let put = |v: &mut [u64], i: usize, x: D| {
        let w = &mut v[i..i + 4];
        // SAFETY: `w` holds four writable words.
        unsafe { s.store_words(w.as_mut_ptr(), s.to_words(x)) }
    };
    for i in (0..t1.len()).step_by(4) {
        let (r0, r1, r2) = (words(r[0], i), words(r[1], i), words(r[2], i));
        let a = k1.mulc(s.sub(r1, r0), c01.0, c01.1);
        let a = s.add_if_negative(a, k1.p);
        let b = k2.mulc(s.sub(r2, r0), c02.0, c02.1);
        let b = k2.mulc(s.sub(b, a), c12.0, c12.1);
        put(t1, i, a);
        put(t2, i, s.add_if_negative(b, k2.p));
    }
}
