//! The AVX-512 IFMA back end: the same transforms as the portable one (lengths 2^k and 3·2^k,
//! a radix-2/3 stage and power-of-two blocks, phases spread over the pool), over four primes
//! `c·2^32 + 1` just below 2^50 ([`field::PRIMES`]), eight (or four) residues per instruction
//! with `vpmadd52luq`/`vpmadd52huq` ([`kernels`]).
//!
//! Digits and bound ([`plan`]): the operands are cut into digits of `w` bits (digit `i` is
//! bits `i·w .. (i + 1)·w` of the limbs), `w` the widest of [`WIDTHS`] (multiples of 4 from
//! 64 to 96) that the bound allows. A product coefficient is a sum of at most
//! `d = min(digits)` products of two digits, below `d·(2^w − 1)^2 < d·2^(2w)`, and the four
//! primes' product exceeds `2^199` ([`LOG_PRIMES`]; it is `2^199.99`), so the recombination
//! ([`crt`]) is exact whenever `d ≤ 2^(199 − 2w)` ([`exact`], checked per width by the
//! tests): 96 bits for up to 128 digits, 92 up to 2^15 (a shorter operand of 47104 limbs,
//! 2.9 Mbit; so 1 Mbit products take 92), 88 up to 2^23 (704 Mbit; 16 Mbit takes 88), 84
//! beyond. With 64-bit limbs as digits (as before, and as the portable back end) a
//! coefficient needs only `128 + log2 d` of the primes' 200 bits; 88- to 92-bit digits use
//! them: 64/w of the points (0.70-0.73×, and the shapes `2^k`/`3·2^k` round it: both 1 Mbit
//! and 16 Mbit products go from `2^k` to `3·2^(k−2)` points, 0.75×), so the transforms, the
//! pointwise products and the recombination all shrink. Products past [`super::check_bound`]
//! are errors, as before; every product within it has an exact width (64 bits at worst).
//!
//! A digit is reduced mod p as two parts, its low 52 bits and its high `w − 52` (at most 52,
//! one Shoup product by `2^52 mod p`), as the 64-bit limbs were. The split is prime-independent
//! and costs permutes and shifts ([`kernels::split_digits`]: each group of digits has a fixed
//! pattern of limbs and shifts), so it runs once per operand before the transforms into a
//! vector of `2·digits` words (the low parts, then the high parts, per group of 8) that every
//! prime's forward blocks read; extracting in every block instead (three reads per point for
//! radix 3, four primes) cost more than the smaller transform saved (1 Mbit on 1 thread,
//! transforms alone: 1.10 ms with 64-bit digits, 1.10 ms extracting per block, 0.85 ms split
//! once; 16 Mbit 25.5 -> 20.3-21.2 ms split once). The recombination computes each
//! coefficient (below 2^200) in the vector kernel ([`kernels::garner_limbs`]: Garner's digits,
//! their combination in 52-bit limbs by IFMA products, regrouped into 64-bit limbs and
//! shifted to the coefficient's bit `k·w mod 64`, five limbs), then adds those five limbs into
//! a five-limb window in registers, writing a limb out once no later coefficient reaches it
//! (scalar: only additions with carry; the scalar combination and shifts took 0.22-0.24 ms
//! of a 1-Mbit product, the vector ones 0.15); the threads take runs of coefficients, each from
//! the limb of its first coefficient's first bit, and their five-limb carries are added in
//! order afterwards ([`recombine`]), so the result does not depend on the thread count.
//!
//! Why four 50-bit primes rather than three: three (2^149.99) would leave digits of at most
//! about 64 bits for useful lengths (`d·2^(2w) < 2^150`), against 88-92 with four: 4·64/90 ≈ 2.8
//! transforms' worth per 64 bits of operand with four primes against 3 with three. 50 bits
//! (not 52) leave room for lazy reduction (`4p < 2^52`).
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
//! Where a prime's convolution runs on one thread (1 thread, and each whole prime on 2 to 4),
//! the forward radix stage computes all of an operand's blocks in one pass
//! ([`kernels::forward_all`]), reading and reducing each digit once instead of once per block
//! (the 1-Mbit transforms on 1 thread: 0.87-0.91 -> 0.75-0.78 ms).
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
//! With the wide digits, the vector recombination and the one-pass forward radix stage (same
//! machine, 2026-11-28, load 1.3-1.7 from another engineer's jobs, so not final figures;
//! `bench mul --runs 10`, old and new binaries one right after the other, three rounds,
//! median and (min) in ms):
//!
//! | product | before 1t          | before 2t          | now 1t             | now 2t             |
//! |---------|--------------------|--------------------|--------------------|--------------------|
//! | 1 Mbit  | 1.40-1.80 (1.31)   | 0.92-0.95 (0.68-0.72) | 0.90-0.97 (0.85-0.89) | 0.54-0.83 (0.46-0.57) |
//! | 16 Mbit | 31.0-37.8 (28.1-30.8) | 19.0-20.8 (15.8-17.9) | 22.6-25.8 (21.4-23.1) | 13.0-16.1 (12.1-12.3) |
//!
//! Heap (`heap_x`): 6.1×/6.9× the operands at 1 Mbit and 6.2×/7.0× at 16 Mbit on 1/2 threads,
//! against 6.0×/7.0× before (the split digits, 1.4× the operands, against a quarter fewer
//! points).
//!
//! Tables: per prime and shape, `(4 + 4·(radix − 1))·m` words (values and Shoup companions,
//! forward and inverse, see [`tables`]), kept in a bounded cache ([`super::cache`]).
pub mod crt;
pub mod field;
pub mod kernels;
pub mod simd;
pub mod tables;

use super::cache::{Spare, TableCache};
use super::par_chunks;
use super::prime::Prime;
use super::transform::Shape;
use super::vector::{self, Kernels};
use crate::bignum::mpn::Limb;
use crate::parallel::pool::Pool;
use simd::{Lanes, V256, V512};
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

/// The digit widths in bits these kernels split operands into, widest first (multiples of 4
/// from 64 to 104 bits: a digit is one 52-bit low part and one high part of at most 52 bits).
pub const WIDTHS: [u32; 9] = [96, 92, 88, 84, 80, 76, 72, 68, 64];

/// log2 of a lower bound on the four primes' product: `p0·p1·p2·p3 > 2^199` (it is
/// `2^199.99…`; the tests check both).
pub const LOG_PRIMES: u32 = 199;

/// The number of `w`-bit digits in `limbs` 64-bit limbs: `⌈64·limbs / w⌉`.
pub fn digit_count(limbs: usize, w: u32) -> usize {
    (64 * limbs as u128).div_ceil(u128::from(w)) as usize
}

/// Whether `w`-bit digits recombine exactly when the shorter operand has `shorter` limbs: a
/// product coefficient is a sum of at most `d = digit_count(shorter, w)` products of two
/// digits, below `d·(2^w − 1)^2 < d·2^(2w)`, which is at most `2^199 < p0·p1·p2·p3` when
/// `d ≤ 2^(199 − 2w)`.
pub fn exact(shorter: usize, w: u32) -> bool {
    2 * w <= LOG_PRIMES
        && (digit_count(shorter, w) as u128) <= 1u128 << (LOG_PRIMES - 2 * w).min(127)
}

/// How these kernels compute an `an × bn`-limb product: the digit width and the transform's
/// shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Bits per digit, one of [`WIDTHS`].
    pub w: u32,
    /// The transform, holding the `digit_count(an, w) + digit_count(bn, w) − 1` coefficients.
    pub shape: Shape,
}

/// The plan for an `an × bn`-limb product (both at least one limb): the widest of [`WIDTHS`]
/// that is [`exact`] and gives a shape these kernels [`takes`] (the widest exact one gives the
/// fewest points), or `None` (a product too short for the kernels: the portable path). Every
/// product [`super::check_bound`] accepts has an exact width (64 bits: `d ≤ 2^57 < 2^71`).
pub fn plan(an: usize, bn: usize) -> Option<Plan> {
    WIDTHS
        .into_iter()
        .filter(|&w| exact(an.min(bn), w))
        .find_map(|w| {
            let coeffs = (digit_count(an, w) + digit_count(bn, w)).checked_sub(1)?;
            let shape = Shape::for_coeffs(coeffs, field::MAX_LOG_LEN)?;
            takes(shape).then_some(Plan { w, shape })
        })
}

/// The residues of the product's coefficients modulo each of the four primes (`b = None`:
/// the square of `a`), or `None` where the CPU lacks the instructions.
pub fn residues(
    pool: &Pool,
    threads: usize,
    width: Width,
    plan: Plan,
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Option<Vec<Vec<u64>>> {
    debug_assert!(takes(plan.shape));
    Some(match width {
        Width::W512 => by_primes(pool, threads, V512::new()?, plan, a, b),
        Width::W256 => by_primes(pool, threads, V256::new()?, plan, a, b),
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
    plan: Plan,
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Vec<Vec<u64>> {
    // Wider digits are split once per operand (not per prime and block).
    let split = |x: &[Limb]| split(pool, threads, s, plan.w, x);
    let (sa, sb) = match plan.w {
        64 => (None, None),
        _ => (Some(split(a)), b.map(split)),
    };
    let (a, b) = (source(a, &sa), b.map(|b| source(b, &sb)));
    let whole = whole_primes(threads);
    let res = vector::by_primes(pool, threads, s, &field::PRIMES, whole, plan.shape, a, b);
    [sa, sb].into_iter().flatten().for_each(|v| SPARE.give(v));
    res
}

/// Where the transforms read an operand's digits: its split digits, else its limbs.
fn source<'a>(limbs: &'a [Limb], split: &'a Option<Vec<u64>>) -> kernels::Source<'a> {
    match split {
        Some(v) => kernels::Source::Split(v),
        None => kernels::Source::Limbs(limbs),
    }
}

/// The `w`-bit digits of `x` split by [`kernels::split_digits`] (on up to `threads` threads).
fn split<S: Lanes + Send + Sync>(
    pool: &Pool,
    threads: usize,
    s: S,
    w: u32,
    x: &[Limb],
) -> Vec<u64> {
    let group = kernels::GROUP;
    let words = digit_count(x.len(), w).div_ceil(group) * 2 * group;
    let mut v = SPARE.take(words);
    let piece = words.div_ceil(threads).next_multiple_of(2 * group);
    // SAFETY: `s` exists only where the CPU has the instructions; each piece is a multiple of
    // 2·GROUP words starting at digit c·piece/2, a multiple of GROUP; w is one of WIDTHS.
    par_chunks(pool, threads, &mut v, piece, |c, chunk| unsafe {
        kernels::split_digits(s, w as usize, x, c * piece / 2, chunk)
    });
    v
}

/// Transform vectors kept between products (taken by each prime's convolution, the residues
/// given back by the caller after the recombination).
pub static SPARE: Spare = Spare::new();

/// The kept tables.
static TABLES: TableCache<Tables> = TableCache::new();

// SAFETY: a `V512` or `V256` exists only where the CPU has AVX-512F, IFMA and VL (their
// `new`), and [`takes`] admits only shapes with `m ≥ MIN_M = 2·8`, a power of two (a multiple
// of two vectors of either width): what the kernels below need of the calls
// `vector::convolve` makes.
unsafe impl<S: Lanes + Send + Sync> Kernels for S {
    type Tables = Tables;
    type Src<'a> = kernels::Source<'a>;
    const LANES: usize = <S as Lanes>::LANES;

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
    unsafe fn forward_all(
        self,
        tb: &Tables,
        shape: Shape,
        src: kernels::Source<'_>,
        out: &mut [u64],
    ) {
        // SAFETY: the caller's promise (the trait's).
        unsafe { kernels::forward_all(self, tb, shape, src, out) }
    }
    unsafe fn forward_block(
        self,
        tb: &Tables,
        shape: Shape,
        src: kernels::Source<'_>,
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

/// Coefficients per batch of vector Garner digits in [`recombine_chunk`].
const GARNER_BATCH: usize = 256;

/// Limbs of a recombination chunk's carry: what is left above a chunk is below 2^264.
pub const CARRY_LIMBS: usize = 5;

/// Writes the product from the four residue vectors `res` of `plan`'s coefficients into `out`
/// (coefficient `k` at bit `k·w`), in chunks of coefficients on up to `threads` threads, each
/// chunk's carry added in order afterwards (the same limbs on any thread count). False if a
/// carry runs past `out`'s end (never for a product that fits).
pub fn recombine(
    pool: &Pool,
    threads: usize,
    width: Width,
    g: &crt::Garner,
    w: u32,
    res: &[Vec<u64>],
    out: &mut [u64],
) -> bool {
    let coeffs = res[0].len().min(
        (64 * out.len() as u128)
            .div_ceil(u128::from(w))
            .try_into()
            .unwrap_or(usize::MAX),
    );
    let chunks = threads.min(out.len().div_ceil(super::MIN_CHUNK)).max(1);
    let per = coeffs.div_ceil(chunks).max(1);
    // Chunk c: coefficients c·per.., limbs from the one holding coefficient c·per's first bit.
    let first = |c: usize| (c * per).min(coeffs);
    let len = out.len();
    let limb = |c: usize| {
        if c == chunks {
            len
        } else {
            (first(c) * w as usize / 64).min(len)
        }
    };
    let mut parts = Vec::with_capacity(chunks);
    let mut rest = &mut out[..];
    for c in 0..chunks {
        let (part, tail) = rest.split_at_mut(limb(c + 1) - limb(c));
        parts.push(std::sync::Mutex::new(part));
        rest = tail;
    }
    let carries: Vec<[u64; CARRY_LIMBS]> = pool.map(chunks, threads, |c| {
        let mut o = super::lock(&parts[c]);
        recombine_chunk(width, g, res, w, first(c), first(c + 1), &mut o)
    });
    drop(parts);
    carries
        .iter()
        .enumerate()
        .all(|(c, carry)| add_limbs(&mut out[limb(c + 1)..], carry))
}

/// Adds the limbs `carry` at the start of `dst`, propagating; false if it does not fit.
pub fn add_limbs(dst: &mut [u64], carry: &[u64]) -> bool {
    let mut c = false;
    let mut i = 0;
    while i < dst.len() && (i < carry.len() || c) {
        let (s, c1) = dst[i].overflowing_add(carry.get(i).copied().unwrap_or(0));
        let (s, c2) = s.overflowing_add(u64::from(c));
        dst[i] = s;
        c = c1 | c2;
        i += 1;
    }
    !c && carry[i.min(carry.len())..].iter().all(|&x| x == 0)
}

/// The recombination of coefficients `k0..k1` of the four residue vectors `res` (coefficient
/// `k` at bit `k·w` of the product) into `out`, which starts at the product's limb
/// `⌊k0·w/64⌋`: each coefficient's four limbs are shifted to its bit and added into a
/// five-limb window, whose low limb is written out once no later coefficient reaches it.
/// Returns what is left above `out`'s end, to be added there. The coefficients' limbs by the
/// vector kernel in batches ([`kernels::garner_limbs`]), their placement in scalar.
pub fn recombine_chunk(
    width: Width,
    g: &crt::Garner,
    res: &[Vec<u64>],
    w: u32,
    k0: usize,
    k1: usize,
    out: &mut [u64],
) -> [u64; CARRY_LIMBS] {
    let w = w as usize;
    let (p, c) = g.constants();
    let mut buf = [[0u64; GARNER_BATCH]; CARRY_LIMBS];
    // acc holds the sum of the coefficients so far from the product's limb `base + at` up;
    // it stays below 2^264 (the previous coefficients' part over 2^(64·limb) is below 2^200,
    // the new one shifted by less than 64 bits below 2^263). Five locals, not an array, so
    // that it stays in registers.
    let [mut a0, mut a1, mut a2, mut a3, mut a4] = [0u64; CARRY_LIMBS];
    let base = k0 * w / 64;
    let mut at = 0;
    let len = out.len();
    for k in k0..k1 {
        let q = (k - k0) % GARNER_BATCH;
        if q == 0 {
            garner_batch(
                width,
                g,
                p,
                &c,
                w,
                res,
                k,
                GARNER_BATCH.min(k1 - k),
                &mut buf,
            );
        }
        // Coefficient k shifted to its bit in limb base + at = ⌊k·w/64⌋.
        debug_assert_eq!(base + at, k * w / 64);
        let y = [buf[0][q], buf[1][q], buf[2][q], buf[3][q], buf[4][q]];
        let (s0, c0) = a0.overflowing_add(y[0]);
        let (s1, c1) = adc(a1, y[1], c0);
        let (s2, c2) = adc(a2, y[2], c1);
        let (s3, c3) = adc(a3, y[3], c2);
        let (s4, c4) = adc(a4, y[4], c3);
        debug_assert!(!c4, "the recombination window overflowed");
        (a0, a1, a2, a3, a4) = (s0, s1, s2, s3, s4);
        // Limbs wholly below the next coefficient's first bit are final.
        while 64 * (base + at + 1) <= (k + 1) * w && at < len {
            out[at] = a0;
            (a0, a1, a2, a3, a4) = (a1, a2, a3, a4, 0);
            at += 1;
        }
    }
    while at < len {
        out[at] = a0;
        (a0, a1, a2, a3, a4) = (a1, a2, a3, a4, 0);
        at += 1;
    }
    [a0, a1, a2, a3, a4]
}

/// `a + b + carry` and its carry out.
#[inline(always)]
fn adc(a: u64, b: u64, carry: bool) -> (u64, bool) {
    let (s, c1) = a.overflowing_add(b);
    let (s, c2) = s.overflowing_add(u64::from(carry));
    (s, c1 | c2)
}

/// `x·2^off` as five limbs (`off < 64`), without branches.
#[inline(always)]
fn shifted(x: [u64; 4], off: u32) -> [u64; CARRY_LIMBS] {
    debug_assert!(off < 64);
    // Limb i of the result: the high half of (x[i]·2^64 + x[i − 1])·2^off.
    let two = |hi: u64, lo: u64| ((((u128::from(hi) << 64) | u128::from(lo)) << off) >> 64) as u64;
    [
        x[0] << off,
        two(x[1], x[0]),
        two(x[2], x[1]),
        two(x[3], x[2]),
        two(0, x[3]),
    ]
}

/// Coefficients `from .. from + len`, each shifted to its bit `k·w mod 64`, as five limbs into
/// `buf`: whole lane groups by the vector kernel, the rest in scalar.
#[allow(clippy::too_many_arguments)]
fn garner_batch(
    width: Width,
    g: &crt::Garner,
    p: [u64; 4],
    c: &[[(u64, u64); 4]; 4],
    w: usize,
    res: &[Vec<u64>],
    from: usize,
    len: usize,
    buf: &mut [[u64; GARNER_BATCH]; CARRY_LIMBS],
) {
    let lanes = match width {
        Width::W512 => 8,
        Width::W256 => 4,
    };
    let vec_len = len / lanes * lanes;
    let r: [&[u64]; 4] = std::array::from_fn(|i| &res[i][from..from + vec_len]);
    let [b0, b1, b2, b3, b4] = buf;
    let mut t = [b0, b1, b2, b3, b4].map(|b| &mut b[..vec_len]);
    // SAFETY: a width's token exists only where the CPU has the instructions; the slices have
    // one length, a multiple of the lanes; residues are below their primes.
    let vector = match width {
        Width::W512 => V512::new()
            .map(|s| unsafe { kernels::garner_limbs(s, p, c, from, w, r, &mut t) })
            .is_some(),
        Width::W256 => V256::new()
            .map(|s| unsafe { kernels::garner_limbs(s, p, c, from, w, r, &mut t) })
            .is_some(),
    };
    // Without the instructions (never: the residues came from them) all in scalar.
    let scalar_from = if vector { vec_len } else { 0 };
    for q in scalar_from..len {
        let x = g.coefficient([0, 1, 2, 3].map(|i| res[i][from + q]));
        let y = shifted(x, ((from + q) * w % 64) as u32);
        for i in 0..CARRY_LIMBS {
            buf[i][q] = y[i];
        }
    }
}
