//! The AVX2 back end (x86-64 CPUs with AVX2 and FMA, no AVX-512 needed): the same transforms
//! as the portable one (lengths 2^k and 3·2^k, a radix-2/3 stage and power-of-two blocks,
//! phases spread over the pool), over three primes `c·2^32 + 1` just below 2^50
//! ([`field::PRIMES`], the IFMA back end's first three), four residues per `__m256d` held as
//! integers in `f64` and multiplied the way FLINT's `fft_small` does ([`kernels`]: a product
//! and its rounding error by one FMA, a quotient rounded from a precomputed `w/p`, the
//! remainder exact in a second FMA).
//!
//! Digits and bound ([`exact`], [`plan`]): each 64-bit limb is one digit, as in the portable
//! back end. A product coefficient is a sum of at most `d = min(an, bn)` products of two
//! limbs, below `d·2^128`, and the three primes' product exceeds `2^149` ([`LOG_PRIMES`]), so
//! the recombination ([`crt`]) is exact for `d ≤ 2^21` (a shorter operand of up to 128 Mbit);
//! longer products go to the portable back end (three 62-bit primes, exact to `2^57`), as do
//! blocks shorter than [`MIN_M`] points. Why three primes and 64-bit digits rather than four
//! primes and the IFMA back end's 88- to 96-bit digits: with `f64` residues a digit wider than
//! 64 bits needs the split of [`super::ifma`] (prime-independent shifts and permutes) and a
//! four-prime recombination, for about `4·64/90 ≈ 2.8` transforms per 64 bits of operand
//! against 3 here — a tenth less work, left for later. 32-bit digits with two primes would
//! double the points (4 transforms' worth per 64 bits).
//!
//! Lengths: the shapes of [`super::transform::Shape`] (`2^k` or `3·2^k` points, at most 1.5×
//! the coefficients), blocks of `m ≥ 8` points (two vectors; the last two DIF levels and the
//! first two DIT levels regroup lanes within a pair of vectors).
//!
//! Threads ([`whole_primes`]): on 2 threads each of two threads computes one whole prime, then
//! the third prime's phases are split over both; on 3 threads one prime each; on 1 or more
//! than 3 threads every prime's phases (forward blocks, pointwise products with the inverse
//! blocks, the inverse radix stage in pieces of indices) are split over all of them. Then the
//! recombination (scalar Garner, the portable back end's chunks of limbs and carries). Each
//! prime's residues do not depend on how its phases were split, so the product does not
//! depend on the thread count. A square transforms its operand once per prime. Transform
//! vectors come from a bounded store ([`SPARE`]) and go back to it after the recombination.
//!
//! Passes over memory ([`kernels`]): the butterfly levels go two per pass (radix 4: four
//! quarters loaded, two levels in registers, four stored; an odd level alone), blocks longer
//! than [`kernels::LEAF`] points recurse depth first after one such pass, and the pointwise
//! product runs on each leaf of the inverse's recursion while it is in L1. Where a prime's
//! convolution runs on one thread, the forward radix stage computes all of an operand's
//! blocks in one pass ([`kernels::forward_all`]), reading and reducing each limb once. The
//! recombination computes Garner's digits four coefficients at a time in the same `f64`
//! products ([`kernels::garner_digits`]) and combines them into limbs in scalar: on 1 thread,
//! 1 Mbit 0.21 -> 0.13-0.14 ms and 16 Mbit 3.35 -> 2.05-2.34 ms against the scalar digits
//! (minima of 9 rounds, `avx2_timing` in the tests).
//!
//! Measured (AMD EPYC family 25 model 17 (Zen 4), L1d 32 KiB per core, 2 vCPUs shared with
//! another engineer's builds, load 1.5-1.8, so the figures are noisy and will be retaken;
//! 2026-11-29 01:26 UTC, `parcrypt bench mul --bits 65536,1048576,16777216 --methods
//! ntt-avx2,ntt-portable,ntt-ifma --threads 1,2 --runs 5`, median µs per product):
//!
//! | product | GMP     | portable 1t | portable 2t | avx2 1t | avx2 2t | ifma 1t | ifma 2t |
//! |---------|---------|-------------|-------------|---------|---------|---------|---------|
//! | 64 Kbit | 103     | 416         | 162         | 48.5    | 37.9    | 49.5    | 37.4    |
//! | 1 Mbit  | 3,838   | 11,938      | 7,053       | 1,030   | 667     | 914     | 549     |
//! | 16 Mbit | 105,562 | 252,060     | 149,060     | 26,772  | 14,988  | 21,538  | 12,491  |
//!
//! Retaken with nothing else running (02:00 UTC, 15 runs a configuration, a slower host that
//! night: GMP's 1 Mbit read 5.6 ms), 1 thread: portable 16,241 / 313,027 µs, avx2 1,640 /
//! 34,937, ifma 1,324 / 28,285 at 1 / 16 Mbit (avx2 75.6, ifma 72.1 at 64 Kbit).
//!
//! So on this CPU the AVX2 back end is 8-12× faster than the portable one on 1 thread
//! (which is why [`super::Backend::auto`] prefers it where IFMA is missing) and takes
//! 0.98-1.24× the IFMA one's time (three transforms per 64 bits of operand against IFMA's
//! 2.8, four lanes against eight); an earlier, busier run gave 57.8/53.6 µs, 1.40/0.93 ms and
//! 31.0/18.4 ms on 1/2 threads. Leaving the inverse passes' sums unreduced (two reductions of
//! inputs instead of four of outputs) took the transforms alone from 1.03-1.06 to
//! 0.96-1.02 ms at 1 Mbit and from 25.8-27.4 to 24.4-25.3 ms at 16 Mbit (1 thread, minima,
//! old and new binaries interleaved); loads by offset in the radix-4 passes instead of
//! bounds-checked slices measured the same within noise. Within noise too, leaves of 2^10 and
//! 2^11 points measured the same; 2^10 keeps a leaf and its tables in L1. FLINT 3.6's
//! `fft_small` (the same method, AVX2) took 1.38-1.41 ms at 1 Mbit and 26.4-26.7 ms at 16 Mbit
//! on 1 thread on this machine (the IFMA module's figures, not rerun here).
//!
//! Tables: per prime and shape, `(4 + 4·(radix − 1))·m` words (centred values and their
//! companions, forward and inverse, see [`tables`]), kept in a bounded cache ([`super::cache`]).
//! Heap (`heap_x`): 5.0× the operands, as the portable back end (two operand transforms and
//! three residue vectors of `n` words each).
pub mod crt;
pub mod field;
pub mod kernels;
pub mod simd;
pub mod tables;

use super::cache::{Spare, TableCache};
use super::prime::Prime;
use super::transform::Shape;
use super::vector::{self, Kernels};
use crate::bignum::mpn::Limb;
use crate::parallel::pool::Pool;
use simd::Avx2;
use std::sync::OnceLock;
use tables::Tables;

pub use field::LOG_PRIMES;

/// Blocks (the power-of-two part `m` of the length) of at least this many points use these
/// kernels (two vectors); shorter products take the portable path.
pub const MIN_M: usize = 8;

/// log2 of the longest shorter operand (in limbs) these primes recombine exactly.
pub const MAX_LOG_SHORTER: u32 = LOG_PRIMES - 128;

/// Whether this CPU runs these kernels (AVX2 and FMA).
pub fn available() -> bool {
    simd::detected()
}

/// Whether `shape` is one these kernels and primes take.
pub fn takes(shape: Shape) -> bool {
    shape.m >= MIN_M && shape.m <= 1 << (field::MAX_LOG_LEN - 1)
}

/// Whether 64-bit digits recombine exactly when the shorter operand has `shorter` limbs: a
/// coefficient is below `shorter·(2^64 − 1)^2 < shorter·2^128`, at most `2^149 < p0·p1·p2`
/// when `shorter ≤ 2^21`.
pub fn exact(shorter: usize) -> bool {
    (shorter as u128) <= 1u128 << MAX_LOG_SHORTER
}

/// The transform for an `an × bn`-limb product (both at least one limb), or `None` where the
/// portable back end computes it (too short for the kernels, or past [`exact`]).
pub fn plan(an: usize, bn: usize) -> Option<Shape> {
    if !exact(an.min(bn)) {
        return None;
    }
    let coeffs = an.checked_add(bn)?.checked_sub(1)?;
    Shape::for_coeffs(coeffs, field::MAX_LOG_LEN).filter(|&s| takes(s))
}

/// How many of the three primes [`product`] gives whole to a thread each on `threads`
/// threads (the rest have their phases split over all of them): two on 2 threads, three on
/// 3, else none.
pub fn whole_primes(threads: usize) -> usize {
    if !(2..=3).contains(&threads) {
        return 0;
    }
    3 / threads * threads
}

/// `a·b` (`b = None`: `a²`) into `out` (`a.len() + b.len()` limbs) by these kernels: whether
/// no carry ran past the end, or `None` where the portable back end computes it (this CPU
/// lacks AVX2/FMA, or [`plan`] refuses the product).
pub fn product(
    pool: &Pool,
    threads: usize,
    out: &mut [Limb],
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Option<bool> {
    let s = Avx2::new()?;
    let shape = plan(a.len(), b.map_or(a.len(), <[Limb]>::len))?;
    let res = residues(pool, threads, s, shape, a, b);
    let ok = recombine(pool, threads, s, &res, out);
    res.into_iter().for_each(|v| SPARE.give(v));
    Some(ok)
}

/// Writes the product from the three residue vectors `res` into `out` (coefficient `k` at
/// limb `k`), in chunks of limbs on up to `threads` threads (the portable back end's
/// chunks and carries): false if a carry runs past `out`'s end (never for a product that
/// fits).
pub fn recombine(pool: &Pool, threads: usize, s: Avx2, res: &[Vec<u64>], out: &mut [Limb]) -> bool {
    static GARNER: OnceLock<crt::Garner> = OnceLock::new();
    let g = GARNER.get_or_init(crt::Garner::new);
    super::recombine(pool, threads, out, &|start, end, o| {
        let r: [&[u64]; 3] = std::array::from_fn(|i| &res[i][start..end]);
        let mut batch = Batch::new();
        super::crt::recombine_by(o, end - start, |k| batch.coefficient(s, g, r, k))
    })
}

/// Coefficients per batch of vector Garner digits.
const GARNER_BATCH: usize = 256;

/// Garner's digits `t1`, `t2` of a batch of coefficients, computed four at a time
/// ([`kernels::garner_digits`]) when the recombination reaches the batch's first.
struct Batch {
    /// The first coefficient of the batch held.
    from: usize,
    /// Coefficients held (none at first).
    len: usize,
    t1: [u64; GARNER_BATCH],
    t2: [u64; GARNER_BATCH],
}

impl Batch {
    fn new() -> Self {
        Self {
            from: 0,
            len: 0,
            t1: [0; GARNER_BATCH],
            t2: [0; GARNER_BATCH],
        }
    }

    /// Coefficient `k` of the residues `r` (called for `k = 0, 1, …` in order), as three
    /// limbs: whole groups of four from the batch, the rest in scalar.
    #[inline(always)]
    fn coefficient(&mut self, s: Avx2, g: &crt::Garner, r: [&[u64]; 3], k: usize) -> [u64; 3] {
        let t0 = r[0][k];
        if k >= self.from + self.len {
            self.from = k;
            self.len = GARNER_BATCH.min(r[0].len() - k) / 4 * 4;
            let (p, inv) = g.constants();
            let rs = r.map(|v| &v[k..k + self.len]);
            // SAFETY: `s` proves AVX2/FMA; the slices have one length, a multiple of 4; the
            // constants are Garner's for the AVX2 primes.
            unsafe {
                kernels::garner_digits(
                    s,
                    p,
                    inv,
                    rs,
                    &mut self.t1[..self.len],
                    &mut self.t2[..self.len],
                )
            };
        }
        if k < self.from + self.len {
            let i = k - self.from;
            g.combine([t0, self.t1[i], self.t2[i]])
        } else {
            g.coefficient([t0, r[1][k], r[2][k]])
        }
    }
}

/// The three residue vectors (each coefficient mod each prime, in `[0, p)`): [`whole_primes`]
/// of them one prime per task, the rest each split over the threads phase by phase.
fn residues(
    pool: &Pool,
    threads: usize,
    s: Avx2,
    shape: Shape,
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Vec<Vec<u64>> {
    let whole = whole_primes(threads);
    vector::by_primes(pool, threads, s, &field::PRIMES, whole, shape, a, b)
}

/// Transform vectors kept between products (taken by each prime's convolution, the residues
/// given back after the recombination).
pub static SPARE: Spare = Spare::new();

/// The kept tables.
static TABLES: TableCache<Tables> = TableCache::new();

// SAFETY: an `Avx2` exists only where the CPU has AVX2 and FMA (`Avx2::new`), and [`takes`]
// admits only shapes with `m ≥ MIN_M = 8`, a power of two (a multiple of the 4 lanes): what
// the kernels below need of the calls `vector::convolve` makes.
unsafe impl Kernels for Avx2 {
    type Tables = Tables;
    type Src<'a> = &'a [Limb];
    const LANES: usize = 4;

    fn table_cache() -> &'static TableCache<Tables> {
        &TABLES
    }
    fn spare() -> &'static Spare {
        &SPARE
    }
    fn tables(q: Prime, shape: Shape) -> (Tables, usize) {
        let t = Tables::new(q, shape);
        let words = t.words();
        (t, words)
    }
    unsafe fn forward_all(self, tb: &Tables, shape: Shape, src: &[Limb], out: &mut [u64]) {
        // SAFETY: the caller's promise (the trait's).
        unsafe { kernels::forward_all(self, tb, shape, src, out) }
    }
    unsafe fn forward_block(
        self,
        tb: &Tables,
        shape: Shape,
        src: &[Limb],
        t: usize,
        out: &mut [u64],
    ) {
        // SAFETY: the caller's promise (the trait's).
        unsafe { kernels::forward_block(self, tb, shape, src, t, out) }
    }
    unsafe fn pointwise_inverse(self, tb: &Tables, x: &mut [u64], y: Option<&[u64]>) {
        // SAFETY: the caller's promise (the trait's).
        unsafe { kernels::pointwise_inverse(self, tb, x, y) }
    }
    unsafe fn inverse_stage(self, tb: &Tables, j0: usize, blocks: &mut [&mut [u64]]) {
        // SAFETY: the caller's promise (the trait's).
        unsafe { kernels::inverse_stage(self, tb, j0, blocks) }
    }
}

#[cfg(test)]
mod tests;
