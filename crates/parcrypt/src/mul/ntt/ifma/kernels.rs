//! The IFMA transforms' kernels, generic over the vector width ([`Lanes`]); the same steps as
//! the portable [`super::super::transform`] (a radix-2/3 DIF stage, power-of-two DIF blocks,
//! pointwise products, DIT blocks, the inverse radix stage), with 50-bit primes and lazy
//! reduction:
//!
//! - products by a table constant `w` are Shoup's (`q = hi52(a·w')`, `a·w − q·p` in `[0, 2p)`,
//!   three IFMA instructions), exact for any `a < 2^52`;
//! - the pointwise product is Montgomery's with R = 2^52 (four IFMA instructions), then a Shoup
//!   product by `2^52/n`;
//! - DIF butterflies keep values in `[0, 2p)`, DIT butterflies in `[0, 4p)` (Harvey), the
//!   radix stages reduce to `[0, p)` only at the end: `4p < 2^52`, so every value stays one
//!   IFMA word. A reduction is one `min(x, x − k)` (unsigned, wrapping), no branch.
//!
//! The forward blocks read their digits either from the limbs (64-bit digits) or from the
//! operand's wider digits split once into 52-bit low and high parts ([`split_digits`]); either
//! way a digit is reduced mod p on load.
//!
//! Levels whose half-blocks are shorter than a vector (`h < LANES`) regroup two vectors'
//! lanes with `vpermt2q` into the butterflies' two halves and back.
//!
//! Every entry point is an `unsafe fn` compiled with `avx512f,avx512ifma,avx512vl`: its
//! caller promises the CPU has them, which the [`Lanes`] token passed in proves (it exists only
//! after detection). Memory is reached through slices (bounds-checked loads of whole lane
//! groups), never raw offsets.
#![allow(clippy::incompatible_msrv)]
use super::super::transform::{BASE, Shape};
use super::field::MASK52;
use super::simd::Lanes;
use super::tables::{Pairs, Tables};

/// The most lanes of any width (buffers for index vectors are this long).
const MAX_LANES: usize = 8;

/// One prime's constants, splatted once per kernel call.
#[derive(Clone, Copy)]
struct K<S: Lanes> {
    s: S,
    p: S::V,
    p2: S::V,
    p3: S::V,
    p4: S::V,
    negp: S::V,
    mask: S::V,
    zero: S::V,
}

impl<S: Lanes> K<S> {
    #[inline(always)]
    fn new(s: S, p: u64) -> Self {
        Self {
            s,
            p: s.splat(p),
            p2: s.splat(2 * p),
            p3: s.splat(3 * p),
            p4: s.splat(4 * p),
            negp: s.splat((1 << 52) - p),
            mask: s.splat(MASK52),
            zero: s.splat(0),
        }
    }

    /// `x mod k` for `x < 2k`: `min(x, x − k)` (below k, `x − k` wraps to a huge value).
    #[inline(always)]
    fn red(self, x: S::V, k: S::V) -> S::V {
        self.s.min(x, self.s.sub(x, k))
    }

    /// `x mod p` for `x < 4p`.
    #[inline(always)]
    fn red4(self, x: S::V) -> S::V {
        self.red(self.red(x, self.p2), self.p)
    }

    /// `a·w mod p` in `[0, 2p)` for `a < 2^52`, `w < p`, `wq = ⌊w·2^52/p⌋`.
    #[inline(always)]
    fn shoup(self, a: S::V, w: S::V, wq: S::V) -> S::V {
        let s = self.s;
        let q = s.madd52hi(self.zero, a, wq);
        // a·w − q·p mod 2^52 = lo52(a·w) + lo52(q·(2^52 − p)), masked; it is below 2p.
        let r = s.madd52lo(s.madd52lo(self.zero, a, w), q, self.negp);
        s.and(r, self.mask)
    }

    /// `a·b·2^(−52) mod p` in `(0, 2p)` for `a, b < 2p` (Montgomery; `pinv = p^(−1) mod 2^52`).
    #[inline(always)]
    fn mont(self, a: S::V, b: S::V, pinv: S::V) -> S::V {
        let s = self.s;
        let lo = s.madd52lo(self.zero, a, b);
        let hi = s.madd52hi(self.zero, a, b);
        // m·p ≡ a·b (mod 2^52), so (a·b − m·p)/2^52 = hi − hi52(m·p), in (−p, p) as 4p² < 2^52·p.
        let m = s.madd52lo(self.zero, lo, pinv);
        let mh = s.madd52hi(self.zero, m, self.p);
        s.sub(s.add(hi, self.p), mh)
    }
}

/// Lanes `j..j + LANES` of `v`.
#[inline(always)]
fn ld<S: Lanes>(s: S, v: &[u64], j: usize) -> S::V {
    let c = &v[j..j + S::LANES];
    // SAFETY: `c` holds LANES readable words.
    unsafe { s.load(c.as_ptr()) }
}

/// Writes lanes `j..j + LANES` of `v`.
#[inline(always)]
fn st<S: Lanes>(s: S, v: &mut [u64], j: usize, x: S::V) {
    let c = &mut v[j..j + S::LANES];
    // SAFETY: `c` holds LANES writable words.
    unsafe { s.store(c.as_mut_ptr(), x) }
}

/// A constant and its companion, splatted.
#[inline(always)]
fn splat2<S: Lanes>(s: S, c: (u64, u64)) -> (S::V, S::V) {
    (s.splat(c.0), s.splat(c.1))
}

/// Most phases of a [`Digits`] pattern: digits of `w` bits (a multiple of 4) repeat their
/// bit offsets within a limb every `64/gcd(w, 64) ≤ 16` digits, four groups of four lanes.
const MAX_PHASES: usize = 4;

/// Where each lane's `w`-bit digit lies in a window of `2·LANES` limbs starting at the limb
/// of the group's first bit, for one group offset (phase): the digit's low 52 bits are limbs
/// `idx[0]`, `idx[1]` funnel-shifted right by `shr[0]` (`shl[0] = 64 − shr[0]`), its high
/// `w − 52` bits limbs `idx[2]`, `idx[3]` shifted by `shr[1]`.
#[derive(Clone, Copy)]
struct Phase<S: Lanes> {
    idx: [S::V; 4],
    shr: [S::V; 2],
    shl: [S::V; 2],
}

/// The digits of an operand: `w` bits each (digit `i` is bits `i·w .. (i + 1)·w` of the
/// limbs, zero past their end), `64 ≤ w ≤ 104`, `w` a multiple of 4.
#[derive(Clone, Copy)]
struct Digits<S: Lanes> {
    /// Groups of `LANES` digits repeat their pattern every `phases` groups (a power of two).
    phases: usize,
    phase: [Phase<S>; MAX_PHASES],
    /// `2^(w − 52) − 1`.
    hi_mask: S::V,
}

impl<S: Lanes> Digits<S> {
    #[inline(always)]
    fn new(s: S, w: usize) -> Self {
        assert!((64..=104).contains(&w) && w % 4 == 0, "digit width {w}");
        let l = S::LANES;
        // The bit offsets within a limb repeat every 64/gcd(w, 64) digits (a power of two).
        let period: usize = 64 >> w.trailing_zeros().min(6);
        let phases = period.div_ceil(l).max(1);
        debug_assert!(phases <= MAX_PHASES && (phases * l * w) % 64 == 0);
        let vec = |v: &[u64; MAX_LANES]| ld(s, v, 0);
        let phase = std::array::from_fn(|ph| {
            let base = (ph * l * w) % 64;
            let (mut idx, mut shr, mut shl) = (
                [[0u64; MAX_LANES]; 4],
                [[0u64; MAX_LANES]; 2],
                [[0u64; MAX_LANES]; 2],
            );
            for q in 0..l {
                for (half, off) in [0, 52].into_iter().enumerate() {
                    // base ≤ 60 and w ≤ 104: the last lane's second limb is at most limb
                    // (60 + 7·104 + 52)/64 + 1 = 14 of the 16 (four lanes: 7 of 8).
                    let bit = base + q * w + off;
                    idx[2 * half][q] = (bit / 64) as u64;
                    idx[2 * half + 1][q] = (bit / 64 + 1) as u64;
                    shr[half][q] = (bit % 64) as u64;
                    // A count of 64 shifts everything out (the second limb is not needed).
                    shl[half][q] = (64 - bit % 64) as u64;
                    debug_assert!(bit / 64 + 1 < 2 * l);
                }
            }
            Phase {
                idx: idx.each_ref().map(vec),
                shr: shr.each_ref().map(vec),
                shl: shl.each_ref().map(vec),
            }
        });
        Self {
            phases,
            phase,
            hi_mask: s.splat((1 << (w - 52)) - 1),
        }
    }
}

/// Digits per group of the split layout ([`split_digits`]): a group's low parts, then its
/// high parts.
pub const GROUP: usize = MAX_LANES;

/// Where a forward transform reads its digits.
#[derive(Clone, Copy, Debug)]
pub enum Source<'a> {
    /// The operand's limbs, one 64-bit digit each (zero past the end).
    Limbs(&'a [u64]),
    /// The operand's wider digits as [`split_digits`] wrote them (zero past the end).
    Split(&'a [u64]),
}

/// Splits the `w`-bit digits `first ..` of the limbs `src` (digit `i` is bits
/// `i·w .. (i + 1)·w`, zero past the end) into `out`, for each group of [`GROUP`] digits
/// their low 52 bits, then their high `w − 52` bits (`out.len()` a multiple of `2·GROUP`,
/// `first` a multiple of `GROUP`). Prime-independent: once per operand, not per prime and
/// block.
///
/// # Safety
/// As [`forward_block`].
///
/// # Panics
/// Unless `64 ≤ w ≤ 104` and `w` is a multiple of 4.
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
pub unsafe fn split_digits<S: Lanes>(s: S, w: usize, src: &[u64], first: usize, out: &mut [u64]) {
    let d = Digits::new(s, w);
    let mask = s.splat(MASK52);
    for (g, group) in out.chunks_exact_mut(2 * GROUP).enumerate() {
        for sub in (0..GROUP).step_by(S::LANES) {
            let i = first + g * GROUP + sub;
            let (a, b) = window(s, src, i * w / 64);
            let ph = &d.phase[(i / S::LANES) & (d.phases - 1)];
            let funnel = |h: usize| {
                let x = s.srlv(s.permute2(a, ph.idx[2 * h], b), ph.shr[h]);
                s.or(x, s.sllv(s.permute2(a, ph.idx[2 * h + 1], b), ph.shl[h]))
            };
            st(s, group, sub, s.and(funnel(0), mask));
            st(s, group, GROUP + sub, s.and(funnel(1), d.hi_mask));
        }
    }
}

/// Digits `i..i + LANES` (`i` a multiple of `LANES`) of `src`, reduced mod p: `x = hi·2^52 +
/// lo`, `lo` brought below 2p by two reductions (`2^52 < 8p`), `hi·(2^52 mod p)` by a Shoup
/// product (`hi < 2^52`), their sum below 4p reduced twice.
#[inline(always)]
fn digits<S: Lanes>(k: K<S>, c52: (S::V, S::V), src: Source<'_>, i: usize) -> S::V {
    let s = k.s;
    let (lo, hi) = match src {
        Source::Limbs(src) => {
            let x = if i + S::LANES <= src.len() {
                ld(s, src, i)
            } else {
                let mut buf = [0u64; MAX_LANES];
                for (d, &x) in buf.iter_mut().zip(src.get(i..).unwrap_or(&[])) {
                    *d = x;
                }
                ld(s, &buf, 0)
            };
            (x, s.shr52(x))
        }
        Source::Split(v) => {
            let at = 2 * GROUP * (i / GROUP) + i % GROUP;
            if at < v.len() {
                (ld(s, v, at), ld(s, v, at + GROUP))
            } else {
                (k.zero, k.zero)
            }
        }
    };
    let lo = k.red(k.red(s.and(lo, k.mask), k.p4), k.p2);
    let hi = k.shoup(hi, c52.0, c52.1);
    k.red4(s.add(lo, hi))
}

/// Limbs `at .. at + 2·LANES` of `src` (zero past its end) as two vectors.
#[inline(always)]
fn window<S: Lanes>(s: S, src: &[u64], at: usize) -> (S::V, S::V) {
    let l = S::LANES;
    if at + 2 * l <= src.len() {
        (ld(s, src, at), ld(s, src, at + l))
    } else {
        let mut buf = [0u64; 2 * MAX_LANES];
        for (d, &x) in buf.iter_mut().zip(src.get(at..).unwrap_or(&[])) {
            *d = x;
        }
        (ld(s, &buf, 0), ld(s, &buf, l))
    }
}

/// Block `t` of the forward transform of the digits `src` into `out` (`m` points,
/// bit-reversed, values below 2p), as [`super::super::transform::forward_block`] (which
/// takes 64-bit digits).
///
/// # Safety
/// The CPU has AVX-512F, AVX-512 IFMA and AVX-512VL (a value of `S` proves it); `shape.m` is a
/// multiple of `2·LANES`.
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
pub unsafe fn forward_block<S: Lanes>(
    s: S,
    tb: &Tables,
    shape: Shape,
    src: Source<'_>,
    t: usize,
    out: &mut [u64],
) {
    let k = K::new(s, tb.p);
    let m = shape.m;
    let c52 = splat2(s, tb.c52);
    let omega = splat2(s, tb.omega);
    for j in (0..m).step_by(S::LANES) {
        let a0 = digits(k, c52, src, j);
        let a1 = digits(k, c52, src, j + m);
        let v = match (shape.radix, t) {
            (2, 0) => s.add(a0, a1),
            (2, _) => k.shoup(
                s.sub(s.add(a0, k.p), a1),
                ld(s, &tb.fwd[0].w, j),
                ld(s, &tb.fwd[0].q, j),
            ),
            (_, 0) => {
                let a2 = digits(k, c52, src, j + 2 * m);
                k.red(s.add(s.add(a0, a1), a2), k.p2)
            }
            (_, _) => {
                // As the portable stage: d = ω·(a1 − a2) below 2p, then a0 − a2 + d or
                // a0 − a1 − d (offset by multiples of p to stay positive, below 4p).
                let a2 = digits(k, c52, src, j + 2 * m);
                let d = k.shoup(s.sub(s.add(a1, k.p), a2), omega.0, omega.1);
                if t == 1 {
                    let x = s.add(s.sub(s.add(a0, k.p), a2), d);
                    k.shoup(x, ld(s, &tb.fwd[0].w, j), ld(s, &tb.fwd[0].q, j))
                } else {
                    let x = s.sub(s.sub(s.add(a0, k.p3), a1), d);
                    k.shoup(x, ld(s, &tb.fwd[1].w, j), ld(s, &tb.fwd[1].q, j))
                }
            }
        };
        st(s, out, j, v);
    }
    // SAFETY: the caller's promise.
    unsafe { dif(k, &tb.fwd_levels, out) };
}

/// Every block of the forward transform of the digits `src` into `out` (`radix·m` points,
/// block `t` at `out[t·m..]`): the same values as [`forward_block`] for each `t`, but the
/// radix stage in one pass that reads and reduces each digit once, not once per block.
///
/// # Safety
/// As [`forward_block`]; `out.len()` is `shape.points()`.
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
pub unsafe fn forward_all<S: Lanes>(
    s: S,
    tb: &Tables,
    shape: Shape,
    src: Source<'_>,
    out: &mut [u64],
) {
    let k = K::new(s, tb.p);
    let m = shape.m;
    let c52 = splat2(s, tb.c52);
    let omega = splat2(s, tb.omega);
    let (b0, rest) = out.split_at_mut(m);
    let (b1, b2) = rest.split_at_mut(m);
    for j in (0..m).step_by(S::LANES) {
        let a0 = digits(k, c52, src, j);
        let a1 = digits(k, c52, src, j + m);
        let (w0, q0) = (ld(s, &tb.fwd[0].w, j), ld(s, &tb.fwd[0].q, j));
        if shape.radix == 2 {
            st(s, b0, j, s.add(a0, a1));
            st(s, b1, j, k.shoup(s.sub(s.add(a0, k.p), a1), w0, q0));
        } else {
            // As forward_block's radix-3 cases, all three at once.
            let a2 = digits(k, c52, src, j + 2 * m);
            st(s, b0, j, k.red(s.add(s.add(a0, a1), a2), k.p2));
            let d = k.shoup(s.sub(s.add(a1, k.p), a2), omega.0, omega.1);
            let x1 = s.add(s.sub(s.add(a0, k.p), a2), d);
            st(s, b1, j, k.shoup(x1, w0, q0));
            let x2 = s.sub(s.sub(s.add(a0, k.p3), a1), d);
            let (w1, q1) = (ld(s, &tb.fwd[1].w, j), ld(s, &tb.fwd[1].q, j));
            st(s, b2, j, k.shoup(x2, w1, q1));
        }
    }
    for block in out.chunks_exact_mut(m) {
        // SAFETY: the caller's promise.
        unsafe { dif(k, &tb.fwd_levels, block) };
    }
}

/// In place: the DIF transform of `x` (natural in, bit-reversed out, values below 2p).
///
/// # Safety
/// As [`forward_block`]; `x.len()` is a power of two, at least `2·LANES`.
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
unsafe fn dif<S: Lanes>(k: K<S>, lv: &Pairs, x: &mut [u64]) {
    let len = x.len();
    if len > BASE {
        // Two levels in one pass over the block (the passes above BASE leave L1, and at
        // 16 Mbit L2), then the quarters depth first.
        let (x0, x1, x2, x3) = quarters(x);
        dif_level2(k, lv, x0, x1, x2, x3);
        for part in x.chunks_exact_mut(len / 4) {
            // SAFETY: the caller's promise.
            unsafe { dif(k, lv, part) };
        }
        return;
    }
    // Two levels per pass while both have whole vectors (half as many loads and stores).
    let mut h = len / 2;
    while h >= 2 * S::LANES {
        for block in x.chunks_exact_mut(2 * h) {
            let (x0, x1, x2, x3) = quarters(block);
            dif_level2(k, lv, x0, x1, x2, x3);
        }
        h /= 4;
    }
    while h >= S::LANES {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            dif_level(k, lv, lo, hi);
        }
        h /= 2;
    }
    while h >= 1 {
        small_level(k, lv, h, x, false);
        h /= 2;
    }
}

/// One DIF row: `(u, v) ← (u + v, (u − v)·ρ^j)`, inputs and outputs below 2p.
#[inline(always)]
fn dif_level<S: Lanes>(k: K<S>, lv: &Pairs, lo: &mut [u64], hi: &mut [u64]) {
    let (s, h) = (k.s, lo.len());
    for j in (0..h).step_by(S::LANES) {
        let (u, v) = (ld(s, lo, j), ld(s, hi, j));
        let (w, wq) = (ld(s, &lv.w, h + j), ld(s, &lv.q, h + j));
        st(s, lo, j, k.red(s.add(u, v), k.p2));
        st(s, hi, j, k.shoup(s.sub(s.add(u, k.p2), v), w, wq));
    }
}

/// The four quarters of `x`.
#[inline(always)]
fn quarters(x: &mut [u64]) -> (&mut [u64], &mut [u64], &mut [u64], &mut [u64]) {
    let q = x.len() / 4;
    let (lo, hi) = x.split_at_mut(2 * q);
    let (x0, x1) = lo.split_at_mut(q);
    let (x2, x3) = hi.split_at_mut(q);
    (x0, x1, x2, x3)
}

/// Two DIF levels fused (a radix-4 pass, the same arithmetic as two [`dif_level`] passes):
/// the level of half-blocks `2q` over the quarters `(x0, x2)` and `(x1, x3)`, then the level
/// of half-blocks `q` over `(x0, x1)` and `(x2, x3)`; inputs and outputs below 2p.
#[inline(always)]
fn dif_level2<S: Lanes>(
    k: K<S>,
    lv: &Pairs,
    x0: &mut [u64],
    x1: &mut [u64],
    x2: &mut [u64],
    x3: &mut [u64],
) {
    let (s, q) = (k.s, x0.len());
    for j in (0..q).step_by(S::LANES) {
        let (a, b, c, d) = (ld(s, x0, j), ld(s, x1, j), ld(s, x2, j), ld(s, x3, j));
        let (wa, qa) = (ld(s, &lv.w, 2 * q + j), ld(s, &lv.q, 2 * q + j));
        let (wb, qb) = (ld(s, &lv.w, 3 * q + j), ld(s, &lv.q, 3 * q + j));
        let a1 = k.red(s.add(a, c), k.p2);
        let c1 = k.shoup(s.sub(s.add(a, k.p2), c), wa, qa);
        let b1 = k.red(s.add(b, d), k.p2);
        let d1 = k.shoup(s.sub(s.add(b, k.p2), d), wb, qb);
        let (w, wq) = (ld(s, &lv.w, q + j), ld(s, &lv.q, q + j));
        st(s, x0, j, k.red(s.add(a1, b1), k.p2));
        st(s, x1, j, k.shoup(s.sub(s.add(a1, k.p2), b1), w, wq));
        st(s, x2, j, k.red(s.add(c1, d1), k.p2));
        st(s, x3, j, k.shoup(s.sub(s.add(c1, k.p2), d1), w, wq));
    }
}

/// Two DIT levels fused (the same arithmetic as two [`dit_level`] passes): the level of
/// half-blocks `q` over `(x0, x1)` and `(x2, x3)`, then that of `2q` over `(x0, x2)` and
/// `(x1, x3)`; inputs and outputs below 4p.
#[inline(always)]
fn dit_level2<S: Lanes>(
    k: K<S>,
    lv: &Pairs,
    x0: &mut [u64],
    x1: &mut [u64],
    x2: &mut [u64],
    x3: &mut [u64],
) {
    let (s, q) = (k.s, x0.len());
    for j in (0..q).step_by(S::LANES) {
        let (a, b, c, d) = (ld(s, x0, j), ld(s, x1, j), ld(s, x2, j), ld(s, x3, j));
        let (w, wq) = (ld(s, &lv.w, q + j), ld(s, &lv.q, q + j));
        let (u, t) = (k.red(a, k.p2), k.shoup(b, w, wq));
        let (a1, b1) = (s.add(u, t), s.sub(s.add(u, k.p2), t));
        let (u, t) = (k.red(c, k.p2), k.shoup(d, w, wq));
        let (c1, d1) = (s.add(u, t), s.sub(s.add(u, k.p2), t));
        let (wa, qa) = (ld(s, &lv.w, 2 * q + j), ld(s, &lv.q, 2 * q + j));
        let (wb, qb) = (ld(s, &lv.w, 3 * q + j), ld(s, &lv.q, 3 * q + j));
        let (u, t) = (k.red(a1, k.p2), k.shoup(c1, wa, qa));
        st(s, x0, j, s.add(u, t));
        st(s, x2, j, s.sub(s.add(u, k.p2), t));
        let (u, t) = (k.red(b1, k.p2), k.shoup(d1, wb, qb));
        st(s, x1, j, s.add(u, t));
        st(s, x3, j, s.sub(s.add(u, k.p2), t));
    }
}

/// One DIT row: `(u, v) ← (u + ρ^(−j)·v, u − ρ^(−j)·v)` (the table holds `ρ^(−j)`), inputs
/// and outputs below 4p.
#[inline(always)]
fn dit_level<S: Lanes>(k: K<S>, lv: &Pairs, lo: &mut [u64], hi: &mut [u64]) {
    let (s, h) = (k.s, lo.len());
    for j in (0..h).step_by(S::LANES) {
        let u = k.red(ld(s, lo, j), k.p2);
        let t = k.shoup(ld(s, hi, j), ld(s, &lv.w, h + j), ld(s, &lv.q, h + j));
        st(s, lo, j, s.add(u, t));
        st(s, hi, j, s.sub(s.add(u, k.p2), t));
    }
}

/// A level with half-blocks of `h < LANES` points over all of `x`: each pair of vectors is
/// regrouped into the rows' two halves (`vpermt2q`), given the DIF (`inverse` false) or DIT
/// butterfly, and put back.
#[inline(always)]
fn small_level<S: Lanes>(k: K<S>, lv: &Pairs, h: usize, x: &mut [u64], inverse: bool) {
    let (s, l) = (k.s, S::LANES);
    let mut idx = [[0u64; MAX_LANES]; 4];
    let mut tw = [[0u64; MAX_LANES]; 2];
    for q in 0..l {
        // Lane q of the low half is point q mod h of row q / h.
        idx[0][q] = ((q / h) * 2 * h + q % h) as u64;
        idx[1][q] = idx[0][q] + h as u64;
        tw[0][q] = lv.w[h + q % h];
        tw[1][q] = lv.q[h + q % h];
    }
    for i in 0..2 * l {
        let (row, r) = (i / (2 * h), i % (2 * h));
        let from = row * h + r % h + if r >= h { l } else { 0 };
        idx[2 + i / l][i % l] = from as u64;
    }
    let [lo_i, hi_i, back_a, back_b] = idx.map(|v| ld(s, &v, 0));
    let (w, wq) = (ld(s, &tw[0], 0), ld(s, &tw[1], 0));
    for pair in x.chunks_exact_mut(2 * l) {
        let (a, b) = (ld(s, pair, 0), ld(s, pair, l));
        let (u, v) = (s.permute2(a, lo_i, b), s.permute2(a, hi_i, b));
        let (u, v) = if inverse {
            let u = k.red(u, k.p2);
            let t = k.shoup(v, w, wq);
            (s.add(u, t), s.sub(s.add(u, k.p2), t))
        } else {
            (
                k.red(s.add(u, v), k.p2),
                k.shoup(s.sub(s.add(u, k.p2), v), w, wq),
            )
        };
        st(s, pair, 0, s.permute2(u, back_a, v));
        st(s, pair, l, s.permute2(u, back_b, v));
    }
}

/// The pointwise step [`dit`] runs on each leaf before its levels: `x ← x·y·2^52/n` by a
/// Montgomery product and a Shoup product (`y = None`: `x·x`), `y` the part of the other
/// operand's transform at the same points as the leaf.
#[derive(Clone, Copy)]
struct Pointwise<'a, S: Lanes> {
    y: Option<&'a [u64]>,
    pinv: S::V,
    scale: (S::V, S::V),
}

impl<'a, S: Lanes> Pointwise<'a, S> {
    /// The same step for points `at .. at + len` of the block.
    #[inline(always)]
    fn part(self, at: usize, len: usize) -> Self {
        Self {
            y: self.y.map(|y| &y[at..at + len]),
            ..self
        }
    }

    /// Runs it on `x` (the leaf at the points `self.y` covers).
    #[inline(always)]
    fn apply(self, k: K<S>, x: &mut [u64]) {
        let s = k.s;
        for j in (0..x.len()).step_by(S::LANES) {
            let a = ld(s, x, j);
            let b = match self.y {
                Some(y) => ld(s, y, j),
                None => a,
            };
            st(
                s,
                x,
                j,
                k.shoup(k.mont(a, b, self.pinv), self.scale.0, self.scale.1),
            );
        }
    }
}

/// In place: the inverse of [`dif`] times `x.len()` (bit-reversed in, natural out; inputs and
/// outputs below 4p), after the pointwise step `pw` where given — run on each leaf of at most
/// `BASE` points just before its levels, while it is in L1, rather than in a pass of its own
/// over the block (the same values: each point's step does not depend on the others).
///
/// # Safety
/// As [`dif`].
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
unsafe fn dit<S: Lanes>(k: K<S>, lv: &Pairs, x: &mut [u64], pw: Option<Pointwise<'_, S>>) {
    let len = x.len();
    if len > BASE {
        let q = len / 4;
        for (i, part) in x.chunks_exact_mut(q).enumerate() {
            // SAFETY: the caller's promise.
            unsafe { dit(k, lv, part, pw.map(|p| p.part(i * q, q))) };
        }
        let (x0, x1, x2, x3) = quarters(x);
        dit_level2(k, lv, x0, x1, x2, x3);
        return;
    }
    if let Some(p) = pw {
        p.apply(k, x);
    }
    let mut h = 1;
    while h < S::LANES {
        small_level(k, lv, h, x, true);
        h *= 2;
    }
    // Two levels per pass (half as many loads and stores), then the last one if left.
    while 4 * h <= len {
        for block in x.chunks_exact_mut(4 * h) {
            let (x0, x1, x2, x3) = quarters(block);
            dit_level2(k, lv, x0, x1, x2, x3);
        }
        h *= 4;
    }
    while h < len {
        for block in x.chunks_exact_mut(2 * h) {
            let (lo, hi) = block.split_at_mut(h);
            dit_level(k, lv, lo, hi);
        }
        h *= 2;
    }
}

/// One block's pointwise product and inverse: `x ← dit(x·y/n)` (`y = None`: `x·x/n`).
///
/// # Safety
/// As [`forward_block`]; `x` (and `y`) are forward blocks of `shape`.
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
pub unsafe fn pointwise_inverse<S: Lanes>(s: S, tb: &Tables, x: &mut [u64], y: Option<&[u64]>) {
    let k = K::new(s, tb.p);
    let pw = Pointwise {
        y,
        pinv: s.splat(tb.pinv),
        scale: splat2(s, tb.scale),
    };
    // SAFETY: the caller's promise.
    unsafe { dit(k, &tb.inv_levels, x, Some(pw)) };
}

/// The inverse radix stage for indices `j0 .. j0 + blocks[0].len()` (as
/// [`super::super::transform::inverse_stage`]), results fully reduced (below p).
///
/// # Safety
/// As [`forward_block`]; `j0` and the pieces' length are multiples of `LANES`.
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
pub unsafe fn inverse_stage<S: Lanes>(s: S, tb: &Tables, j0: usize, blocks: &mut [&mut [u64]]) {
    let k = K::new(s, tb.p);
    let omega = splat2(s, tb.omega);
    let [i1, i2] = &tb.inv;
    match blocks {
        [y0, y1] => {
            for i in (0..y0.len()).step_by(S::LANES) {
                let a = k.red4(ld(s, y0, i));
                let p1 = twist(k, ld(s, y1, i), i1, j0 + i);
                st(s, y0, i, k.red(s.add(a, p1), k.p));
                st(s, y1, i, k.red(s.sub(s.add(a, k.p), p1), k.p));
            }
        }
        [y0, y1, y2] => {
            for i in (0..y0.len()).step_by(S::LANES) {
                // x0 = Y0 + P1 + P2, x1 = Y0 − P1 + D, x2 = Y0 − P2 − D, D = ω·(P2 − P1)
                // (ω^(−1) = ω², ω² = −1 − ω), each offset to stay positive and below 3p.
                let a = k.red4(ld(s, y0, i));
                let p1 = twist(k, ld(s, y1, i), i1, j0 + i);
                let p2 = twist(k, ld(s, y2, i), i2, j0 + i);
                let d = k.shoup(s.sub(s.add(p2, k.p), p1), omega.0, omega.1);
                let d = k.red(d, k.p);
                st(s, y0, i, k.red4(s.add(s.add(a, p1), p2)));
                st(s, y1, i, k.red4(s.add(s.sub(s.add(a, k.p), p1), d)));
                st(s, y2, i, k.red4(s.sub(s.sub(s.add(a, k.p2), p2), d)));
            }
        }
        _ => unreachable!("radix 2 or 3"),
    }
}

/// `w^(−j)·y` below p for `y < 4p` (the table `t` holds `w^(−j)`).
#[inline(always)]
fn twist<S: Lanes>(k: K<S>, y: S::V, t: &Pairs, j: usize) -> S::V {
    let s = k.s;
    k.red(k.shoup(y, ld(s, &t.w, j), ld(s, &t.q, j)), k.p)
}

/// Garner's four digits ([`super::crt::Garner::digits`]) of the coefficients `j..j + LANES`
/// from their residues `r[·][j..]` (each below its prime): `c[i][j]` = `p_j^(−1) mod p_i` and
/// its companion. What [`garner_limbs`] combines.
#[inline(always)]
fn digits_at<S: Lanes>(
    s: S,
    ks: &[K<S>; 4],
    c: &[[(u64, u64); 4]; 4],
    r: [&[u64]; 4],
    j: usize,
) -> [S::V; 4] {
    let mut t = [s.splat(0); 4];
    for i in 0..4 {
        let k = ks[i];
        let mut x = ld(s, r[i], j);
        for (jj, &tj) in t.iter().enumerate().take(i) {
            // x + 2p_i − t_j < 3p_i < 2^52; the Shoup product reduced below p_i.
            let (w, wq) = splat2(s, c[i][jj]);
            x = k.red(k.shoup(s.sub(s.add(x, k.p2), tj), w, wq), k.p);
        }
        t[i] = x;
    }
    t
}

/// The coefficients `first + j` with residues `r[·][j]` (each below its prime), each shifted
/// to its bit within its first limb, `(first + j)·w mod 64`, as five 64-bit limbs into
/// `out[0..5]` (limb i of coefficient j at `out[i][j]`): Garner's digits (`digits_at`),
/// then `t0 + p0·(t1 + p1·(t2 + p2·t3))` (below the primes' product, `2^200`) in 52-bit limbs
/// by IFMA products, carried, regrouped into 64-bit limbs and shifted — the same values as
/// [`super::crt::Garner::coefficient`] times `2^(shift)`. Every slice has the same length, a
/// multiple of `LANES`.
///
/// # Safety
/// As [`forward_block`]; the residues are below their primes.
#[target_feature(enable = "avx512f,avx512ifma,avx512vl")]
#[allow(clippy::too_many_arguments)]
pub unsafe fn garner_limbs<S: Lanes>(
    s: S,
    p: [u64; 4],
    c: &[[(u64, u64); 4]; 4],
    first: usize,
    w: usize,
    r: [&[u64]; 4],
    out: &mut [&mut [u64]; 5],
) {
    let ks = p.map(|p| K::new(s, p));
    let pv = p.map(|p| s.splat(p));
    let (mask, zero) = (s.splat(MASK52), s.splat(0));
    let (c63, c64) = (s.splat(63), s.splat(64));
    // Lane q's offset from the group's first bit: q·w.
    let mut lane_bits = [0u64; MAX_LANES];
    for (q, b) in lane_bits.iter_mut().enumerate() {
        *b = (q * w) as u64;
    }
    let lane_bits = ld(s, &lane_bits, 0);
    // (lo, hi) ← (lo mod 2^52, hi + ⌊lo/2^52⌋).
    let carry = |lo: S::V, hi: S::V| (s.and(lo, mask), s.add(hi, s.shr52(lo)));
    let by = |n: u64| s.splat(n);
    for j in (0..r[0].len()).step_by(S::LANES) {
        let t = digits_at(s, &ks, c, r, j);
        // Every multiplier below is below 2^52 (residues and primes below 2^50, the limbs
        // carried): X = t2 + p2·t3 < 2^100, Y = t1 + p1·X < 2^150, Z = t0 + p0·Y < 2^200.
        let (x0, x1) = carry(s.madd52lo(t[2], pv[2], t[3]), s.madd52hi(zero, pv[2], t[3]));
        let y0 = s.madd52lo(t[1], pv[1], x0);
        let y1 = s.madd52lo(s.madd52hi(zero, pv[1], x0), pv[1], x1);
        let y2 = s.madd52hi(zero, pv[1], x1);
        let (y0, y1) = carry(y0, y1);
        let (y1, y2) = carry(y1, y2);
        let z0 = s.madd52lo(t[0], pv[0], y0);
        let z1 = s.madd52lo(s.madd52hi(zero, pv[0], y0), pv[0], y1);
        let z2 = s.madd52lo(s.madd52hi(zero, pv[0], y1), pv[0], y2);
        let z3 = s.madd52hi(zero, pv[0], y2);
        let (z0, z1) = carry(z0, z1);
        let (z1, z2) = carry(z1, z2);
        let (z2, z3) = carry(z2, z3);
        // 52-bit limbs to 64-bit ones.
        let l = [
            s.or(z0, s.sllv(z1, by(52))),
            s.or(s.srlv(z1, by(12)), s.sllv(z2, by(40))),
            s.or(s.srlv(z2, by(24)), s.sllv(z3, by(28))),
            s.srlv(z3, by(36)),
        ];
        // Shifted by off < 64 (a right shift by 64 − off = 64 gives 0).
        let off = s.and(
            s.add(s.splat((((first + j) * w) % 64) as u64), lane_bits),
            c63,
        );
        let back = s.sub(c64, off);
        st(s, out[0], j, s.sllv(l[0], off));
        for i in 1..4 {
            st(
                s,
                out[i],
                j,
                s.or(s.sllv(l[i], off), s.srlv(l[i - 1], back)),
            );
        }
        st(s, out[4], j, s.srlv(l[3], back));
    }
}
