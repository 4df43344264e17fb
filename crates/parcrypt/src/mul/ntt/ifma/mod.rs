//! The AVX-512 IFMA back end: the same transforms as the portable one (lengths 2^k and 3·2^k,
//! a radix-2/3 stage and power-of-two blocks, phases spread over the pool), over four primes
//! `c·2^32 + 1` just below 2^50 ([`field::PRIMES`]), eight (or four) residues per instruction
//! with `vpmadd52luq`/`vpmadd52huq` ([`kernels`]).
//!
//! Digits and bound: each 64-bit limb stays one transform digit (reduced mod p on load), so a
//! product coefficient is below `min(an, bn)·2^128 < 2^185` under [`super::check_bound`]'s
//! `min(an, bn) < 2^57`, and the four primes' product exceeds 2^199.99: the recombination
//! ([`crt`]) is exact. Why four 50-bit primes and 64-bit digits rather than three primes and
//! smaller digits: three 50-bit primes (2^149.99) would need digits of at most 46 bits for
//! useful lengths (`n·2^(2w) < 2^150`), i.e. 64/46 ≈ 1.4× as many points for three primes
//! (4.2 transforms' worth against 4), and splitting limbs into 46-bit digits costs more than
//! reducing them; 50 bits (not 52) leave room for lazy reduction (`4p < 2^52`).
//!
//! Widths: [`Width::W512`] (`__m512i`, eight lanes) and [`Width::W256`] (`__m256i` with
//! AVX-512VL, four lanes); the back ends `ifma` and `ifma256` name them (see
//! [`super::Backend`]). Products whose blocks are shorter than [`MIN_M`] points (or longer than
//! these primes allow, far beyond memory) are computed by the portable back end, whose
//! results are the same integers.
//!
//! Threads ([`whole_primes`]): on 2 to 4 threads each thread computes whole primes' residues
//! (on 2, two primes each; on 3, three whole primes and then the fourth with its phases split),
//! so no pool barrier stands between the phases of a prime; on 1 or more than 4 threads every
//! prime's phases are split over all of them. Measured on a Zen 4 EPYC (2 vCPUs, shared with
//! another engineer's compiles, load 3.3-3.6: the figures are noisy) against the phase split
//! on 2 threads: 64 Kbit 0.15-0.19 ms -> 0.12-0.14 ms, 256 Kbit 0.59-0.75 -> 0.47-0.50,
//! 1 Mbit 1.7-3.1 -> 1.65-2.1. Transform vectors come from a bounded store
//! ([`SPARE`], [`super::cache::Spare`]) and go back to it after the recombination, so
//! repeated products do not fault in fresh zeroed pages (1 Mbit on 1 thread: 1.71-1.80 ms ->
//! 1.43-1.52 ms with both changes).
//!
//! Passes over memory ([`kernels`]): the butterfly levels go two per pass (radix-4: four
//! quarters loaded, two levels in registers, four stored), and the pointwise product runs on
//! each leaf of the depth-first recursion while it is in L1; on Zen 4 a 512-bit store takes
//! two cycles, and the two-level passes took about 6 % off 64 Kbit and 1 Mbit products on 1
//! thread. (All the levels of half-blocks shorter than a vector in one pass, each pair of
//! vectors loaded once, measured no faster — 3 % slower, within the noise — and was left out.)
//!
//! Where that leaves it (same machine, 2026-11-28, the quietest run: load 2.4-3.2 falling,
//! `bench peers` saw a 2-thread capacity of 1.98; old and new binaries interleaved; ms):
//!
//! | product | before 1t | before 2t | now 1t | now 2t | FLINT 3.6 1t | FLINT 2t |
//! |---------|-----------|-----------|--------|--------|--------------|----------|
//! | 64 Kbit | 0.070     | 0.054     | 0.066  | 0.044  | 0.074        | 0.17     |
//! | 1 Mbit  | 1.69      | 1.08      | 1.39   | 0.76   | 1.38-1.41    | 0.84-0.98|
//! | 16 Mbit | 36.3      | 19.2      | 33.0   | 18.5   | 26.4-26.7    | 13.7-14.6|
//!
//! So 1 Mbit now matches FLINT's fft_small on 1 thread and beats it on 2 when the second CPU
//! is free; 16 Mbit is still about 0.8× FLINT's speed on either count (the transforms' kernels
//! themselves, not the threading: 2 threads scale 1.8× here).
//!
//! Tables: per prime and shape, `(4 + 4·(radix − 1))·m` words (values and Shoup companions,
//! forward and inverse, see [`tables`]), kept in a bounded cache ([`super::cache`]).
pub mod crt;
pub mod field;
pub mod kernels;
pub mod simd;
pub mod tables;

use super::cache::{Spare, TableCache};
use super::prime::Prime;
use super::transform::Shape;
use super::{par_chunks, par_chunks_many, par_columns};
use crate::bignum::mpn::Limb;
use crate::parallel::pool::Pool;
use simd::{Lanes, V256, V512};
use std::sync::Arc;
use tables::Tables;

/// Blocks (the power-of-two part `m` of the length) of at least this many points use these
/// kernels (two vectors of the widest lanes; shorter products take the portable path).
pub const MIN_M: usize = 16;

/// The vector width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Eight 64-bit lanes, `__m512i`.
    W512,
    /// Four 64-bit lanes, `__m256i` (AVX-512VL).
    W256,
}

/// Whether this CPU runs these kernels (AVX-512F, IFMA and VL).
pub fn available() -> bool {
    simd::detected()
}

/// Whether `shape` is one these kernels and primes take.
pub fn takes(shape: Shape) -> bool {
    shape.m >= MIN_M && shape.m <= 1 << (field::MAX_LOG_LEN - 1)
}

/// The residues of the product's coefficients modulo each of the four primes (`b = None`:
/// the square of `a`), or `None` where the CPU lacks the instructions.
pub fn residues(
    pool: &Pool,
    threads: usize,
    width: Width,
    shape: Shape,
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Option<Vec<Vec<u64>>> {
    debug_assert!(takes(shape));
    Some(match width {
        Width::W512 => by_primes(pool, threads, V512::new()?, shape, a, b),
        Width::W256 => by_primes(pool, threads, V256::new()?, shape, a, b),
    })
}

/// How many of the four primes [`residues`] gives whole to a thread each on `threads` threads
/// (the rest have their phases split over all of them): on 2 to 4 threads the largest
/// multiple of `threads` up to four (2 threads: four primes, two each, no barrier until the
/// recombination; 3: three, then the fourth split); else none. Measured faster than the
/// phase split on 2 threads at every size from 64 Kbit (see the module docs), so there is no
/// size limit; more than 4 threads keep the phase split (untested on this 2-CPU machine).
pub fn whole_primes(threads: usize) -> usize {
    if !(2..=4).contains(&threads) {
        return 0;
    }
    4 / threads * threads
}

/// The four residue vectors: [`whole_primes`] of them one prime per task, the rest each split
/// over the threads phase by phase. The same values either way (each prime's convolution does
/// not depend on the threads).
fn by_primes<S: Lanes + Send + Sync>(
    pool: &Pool,
    threads: usize,
    s: S,
    shape: Shape,
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Vec<Vec<u64>> {
    let whole = whole_primes(threads);
    let mut res = pool.map(whole, threads, |i| {
        convolve(pool, 1, s, field::PRIMES[i], shape, a, b)
    });
    res.extend(
        field::PRIMES[whole..]
            .iter()
            .map(|&q| convolve(pool, threads, s, q, shape, a, b)),
    );
    res
}

/// Transform vectors kept between products (taken by each prime's convolution, the residues
/// given back by the caller after the recombination).
pub static SPARE: Spare = Spare::new();

/// The kept tables.
static TABLES: TableCache<Tables> = TableCache::new();

/// The cyclic convolution modulo `q` (as the portable `convolve`), results below `q.p`.
fn convolve<S: Lanes + Send + Sync>(
    pool: &Pool,
    threads: usize,
    s: S,
    q: Prime,
    shape: Shape,
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Vec<u64> {
    let (n, m, radix) = (shape.points(), shape.m, shape.radix);
    let tb: Arc<Tables> = TABLES.get((q.p, radix, m), || {
        let t = Tables::new(q, shape);
        let words = t.words();
        (t, words)
    });
    let tb = &*tb;

    // SAFETY (every kernel call below): `s` exists only where the CPU has AVX-512F, IFMA and
    // VL; `m ≥ MIN_M = 2·8` is a multiple of two vectors of any width; the inverse stage's
    // pieces start and end on multiples of the lane count (`piece` is one, and so is `m`).
    let ops: Vec<&[Limb]> = match b {
        Some(b) => vec![a, b],
        None => vec![a],
    };
    let mut bufs: Vec<Vec<u64>> = ops.iter().map(|_| SPARE.take(n)).collect();
    par_chunks_many(pool, threads, &mut bufs, m, |i, block| unsafe {
        kernels::forward_block(s, tb, shape, ops[i / radix], i % radix, block)
    });
    let y = if bufs.len() == 2 { bufs.pop() } else { None };
    let mut x = bufs.pop().unwrap_or_default();

    par_chunks(pool, threads, &mut x, m, |t, block| {
        let yb = y.as_deref().map(|y| &y[t * m..(t + 1) * m]);
        unsafe { kernels::pointwise_inverse(s, tb, block, yb) }
    });
    if let Some(y) = y {
        SPARE.give(y);
    }

    let piece = m.div_ceil(threads).next_multiple_of(S::LANES);
    par_columns(pool, threads, &mut x, m, radix, piece, |j, parts| unsafe {
        kernels::inverse_stage(s, tb, j, parts)
    });
    x
}

/// Coefficients per batch of vector Garner digits in [`recombine_chunk`].
const GARNER_BATCH: usize = 256;

/// The recombination of coefficients `start..end` of the four residue vectors `res` into `out`
/// (as [`super::crt::recombine`]); returns the carry out of `out`'s end. Garner's digits by
/// the vector kernel in batches, their combination in scalar limbs.
pub fn recombine_chunk(
    width: Width,
    g: &crt::Garner,
    res: &[Vec<u64>],
    start: usize,
    end: usize,
    out: &mut [u64],
) -> u128 {
    let (p, c) = g.constants();
    let mut buf = [[0u64; GARNER_BATCH]; 4];
    super::crt::recombine_by(out, end - start, |k| {
        let at = k % GARNER_BATCH;
        if at == 0 {
            // A new batch: its digits, the whole lane groups by the kernel, the rest scalar.
            let from = start + k;
            let len = GARNER_BATCH.min(end - from);
            let lanes = match width {
                Width::W512 => 8,
                Width::W256 => 4,
            };
            let vec_len = len / lanes * lanes;
            let r: [&[u64]; 4] = std::array::from_fn(|i| &res[i][from..from + vec_len]);
            let [b0, b1, b2, b3] = &mut buf;
            let mut t = [b0, b1, b2, b3].map(|b| &mut b[..vec_len]);
            // SAFETY: a width's token exists only where the CPU has the instructions; the
            // slices have one length, a multiple of the lanes; residues are below their primes.
            let vector = match width {
                Width::W512 => V512::new()
                    .map(|s| unsafe { kernels::garner_digits(s, p, &c, r, &mut t) })
                    .is_some(),
                Width::W256 => V256::new()
                    .map(|s| unsafe { kernels::garner_digits(s, p, &c, r, &mut t) })
                    .is_some(),
            };
            // Without the instructions (never: the residues came from them) all in scalar.
            let scalar_from = if vector { vec_len } else { 0 };
            for q in scalar_from..len {
                let d = g.digits([0, 1, 2, 3].map(|i| res[i][from + q]));
                for i in 0..4 {
                    buf[i][q] = d[i];
                }
            }
        }
        g.combine([0, 1, 2, 3].map(|i| buf[i][at]))
    })
}
