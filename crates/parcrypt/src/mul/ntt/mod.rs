//! `ntt` (beyond the paper): products of non-negative integers by number-theoretic transforms
//! over three 62-bit primes ([`prime`]), recombined by the Chinese remainder theorem ([`crt`]).
//!
//! Each 64-bit limb is one transform digit of the portable back end: a product coefficient is
//! a sum of at most `min(an, bn)` products of two digits, below `min(an, bn)·(2^64 − 1)^2`, and
//! the three primes' product exceeds 2^185, so the recombination is exact for every
//! `min(an, bn) < 2^57` ([`check_bound`] returns an error past it instead of a wrong product).
//! The IFMA back end's four primes (2^199.99) leave room for wider digits: it cuts the operands
//! into digits of 88 to 96 bits (92 at 1 Mbit, 88 at 16 Mbit), the widest its bound allows for
//! the product, so its transforms have about 0.73× the points (see [`ifma`]). The transform
//! length is the shortest `2^k` or `3·2^k` holding the coefficients ([`transform`]), so a
//! product pays for at most 1.5× its coefficients, not up to 2× as with powers of two alone.
//!
//! Per prime, one after the other (so at most two operands' transforms and two finished
//! residue vectors are alive at once, see [`scratch_words`]): the twiddle table in `threads`
//! pieces; the forward transforms as `radix` independent blocks per operand; the pointwise
//! products with each block's inverse; the inverse radix stage in `threads` pieces of
//! indices — each phase one region of the [`Pool`]. (The vector back ends instead give each
//! of 2 to 4 threads whole primes, see [`ifma`] and [`avx2`], in one driver, [`vector`].) Then the recombination in chunks of limbs (of
//! coefficients for the IFMA back end's wide digits), the chunks' carries added in order
//! afterwards. Every task writes its own slice, so the result does not depend on the thread
//! count. A square (the same limbs twice) transforms its operand once per prime.
//!
//! Back ends ([`Backend`], one `match` in `run` through `vector_product`): portable scalar
//! Rust (three 62-bit primes, Montgomery products with R = 2^64), the oracle's twin and the
//! fallback on every CPU; AVX2 and FMA ([`avx2`], x86-64 only: three 50-bit primes, 64-bit
//! limbs as digits, residues as integers in `f64` lanes, FLINT `fft_small`'s exact FMA
//! products, four lanes; 2 or 3 threads take whole primes, exact while
//! `min(an, bn) ≤ 2^21` limbs); and AVX-512 IFMA ([`ifma`], x86-64 only: four 50-bit primes,
//! digits of up to 96 bits, 52-bit Shoup and Montgomery products, eight or four lanes) — the
//! best one the CPU runs chosen at run time by [`Backend::auto`] (IFMA, else AVX2, else
//! portable). A vector back end hands the products it does not take (blocks too short for its
//! kernels, or past its own bound) to the portable one. Every back end returns the same limbs
//! (the product is exact); the tests hold each against GMP and against the portable one.
//! Twiddle tables are kept between products ([`cache`]).
//!
//! Caches: every back end's transform is depth first (the radix-2/3 stage, then blocks of
//! `2^k` points each finished, two levels a pass, before the next; [`transform::BASE`] points
//! and below in L1), so a product leaving L2 reads beyond it only in the radix stage and the
//! first pass over each block, as a four-step transform would. Measured per point and level
//! ([`Backend::transform`], `bench mul`'s note) on a Zen 4 EPYC (L2 1 MiB per core), 1 thread:
//! IFMA 0.60 ns at 1 Mbit and 0.75 at 16 Mbit (3 MiB per prime's vector), AVX2 0.69 and 0.83,
//! portable 8.02 and 8.39 — the vector back ends pay 19–25 % for memory bandwidth there. On a
//! Zen 5 EPYC (family 26 model 2, L2 1 MiB per core) IFMA read 0.37 and 0.53 ns: 43 % more.
#[cfg(target_arch = "x86_64")]
pub mod avx2;
pub mod cache;
pub mod crt;
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
pub mod ifma;
pub mod method;
pub mod prime;
pub mod transform;
#[cfg(target_arch = "x86_64")]
pub mod vector;

use crate::bignum::mpn::Limb;
use crate::error::{Error, Result};
use crate::parallel::pool::Pool;
use cache::TableCache;
use prime::{MAX_LOG_LEN, PRIMES, Prime};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use transform::Shape;

/// log2 of the bound on `min(an, bn)` for which three 62-bit primes recombine exactly.
pub const MAX_LOG_SHORTER: u32 = 57;

/// Output limbs per recombination chunk, at least (smaller products recombine on one thread).
const MIN_CHUNK: usize = 2048;

/// The code that runs the transforms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Scalar Rust on 64-bit words, any CPU: three 62-bit primes, Montgomery products.
    Portable,
    /// AVX2 and FMA on `__m256d` (four `f64` lanes): three 50-bit primes, FLINT's
    /// double-precision products ([`avx2`]).
    Avx2,
    /// AVX-512 IFMA on `__m512i` (eight lanes): four 50-bit primes ([`ifma`]).
    Ifma,
    /// AVX-512 IFMA on `__m256i` through AVX-512VL (four lanes): the same kernels and primes.
    Ifma256,
}

impl Backend {
    /// Every back end, portable first.
    pub const ALL: [Backend; 4] = [
        Backend::Portable,
        Backend::Avx2,
        Backend::Ifma,
        Backend::Ifma256,
    ];

    /// Whether this CPU runs it (AVX2 needs AVX2 and FMA, the IFMA ones AVX-512F, IFMA and VL,
    /// all on x86-64).
    pub fn available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => avx2::available(),
            #[cfg(not(target_arch = "x86_64"))]
            Backend::Avx2 => false,
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Backend::Ifma | Backend::Ifma256 => ifma::available(),
            #[cfg(not(all(target_arch = "x86_64", parcrypt_avx512)))]
            Backend::Ifma | Backend::Ifma256 => false,
        }
    }

    /// The fastest back end this CPU runs (chosen at run time): [`Backend::Ifma`] where
    /// available (measured faster than the 256-bit form on Zen 4, see the module docs of
    /// [`ifma`], and than AVX2 from 1 Mbit up), else [`Backend::Avx2`] where available
    /// (measured 8.6-11.6× faster than the portable one on 1 thread from 64 Kbit to 16 Mbit
    /// on Zen 4, see [`avx2`]), else [`Backend::Portable`].
    pub fn auto() -> Self {
        if Backend::Ifma.available() {
            Backend::Ifma
        } else if Backend::Avx2.available() {
            Backend::Avx2
        } else {
            Backend::Portable
        }
    }

    /// The same as [`Backend::auto`].
    pub fn detect() -> Self {
        Self::auto()
    }

    /// Its short name, as multiplier names spell it (`ntt-<short>`).
    pub fn short(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Avx2 => "avx2",
            Backend::Ifma => "ifma",
            Backend::Ifma256 => "ifma256",
        }
    }

    /// The back end a multiplier name runs: `ntt-<short>` names it, `ntt` is the one chosen at
    /// run time ([`Backend::auto`]); `None` for any other name.
    pub fn of_method(name: &str) -> Option<Backend> {
        if name == "ntt" {
            return Some(Backend::auto());
        }
        let short = name.strip_prefix("ntt-")?;
        Backend::ALL.into_iter().find(|b| b.short() == short)
    }

    /// Its description, as `describe` and the benchmarks print it.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable scalar (three 62-bit primes, Montgomery)",
            Backend::Avx2 => {
                "AVX2/FMA, 256-bit f64 (three 50-bit primes, FLINT-style FMA products)"
            }
            Backend::Ifma => "AVX-512 IFMA, 512-bit (four 50-bit primes, Shoup/Montgomery)",
            Backend::Ifma256 => "AVX-512 IFMA, 256-bit VL (four 50-bit primes, Shoup/Montgomery)",
        }
    }

    /// The transforms an `an × bn`-limb product (both at least one limb) runs on this back
    /// end: the points of each and how many primes (one transform per operand and prime), or
    /// `None` past [`check_bound`]. A product the back end hands to the portable one (too short
    /// for its kernels, or past its own bound) reports the portable transforms, as it runs
    /// them. What `bench mul` divides a time by to show the cost per point and level
    /// (`N·log2 N` per prime), which stays level where the transform keeps its data in cache.
    pub fn transform(self, an: usize, bn: usize) -> Option<(usize, usize)> {
        let portable = (check_bound(an, bn).ok()?.points(), PRIMES.len());
        let vector = match self {
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => avx2::plan(an, bn).map(|s| (s.points(), avx2::field::PRIMES.len())),
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Backend::Ifma | Backend::Ifma256 => {
                ifma::plan(an, bn).map(|p| (p.shape.points(), ifma::field::PRIMES.len()))
            }
            _ => None,
        };
        Some(vector.unwrap_or(portable))
    }
}

/// Checks that an `an × bn`-limb product fits the CRT bound and the primes' root orders;
/// returns the transform's shape.
pub fn check_bound(an: usize, bn: usize) -> Result<Shape> {
    let shorter = an.min(bn) as u128;
    // Coefficients < shorter·(2^64 − 1)^2 < shorter·2^128 <= 2^185 < p0·p1·p2.
    if shorter >= 1u128 << MAX_LOG_SHORTER {
        return Err(Error::InvalidParameter(format!(
            "NTT product: {shorter} limbs in the shorter operand exceed the CRT bound 2^{MAX_LOG_SHORTER}"
        )));
    }
    let coeffs = an.saturating_add(bn).saturating_sub(1);
    Shape::for_coeffs(coeffs, MAX_LOG_LEN).ok_or_else(|| {
        Error::InvalidParameter(format!(
            "NTT product: {coeffs} coefficients exceed the primes' longest transform (3·2^{})",
            MAX_LOG_LEN - 1
        ))
    })
}

/// 64-bit words [`mul_into`] allocates at its peak for an `an × bn` product (`square`: the
/// same operand twice), besides `out`: two finished residue vectors, the current prime's
/// operand transforms and its twiddle table; `None` past [`check_bound`].
pub fn scratch_words(an: usize, bn: usize, square: bool) -> Option<usize> {
    let shape = check_bound(an, bn).ok()?;
    let ops = if square { 1 } else { 2 };
    Some((2 + ops) * shape.points() + shape.table_len())
}

/// Frees the transform vectors the AVX-512 IFMA back end keeps between products so that the
/// next product reuses their pages (at most [`cache::MAX_SPARE_WORDS`] words, 32 MiB; the
/// twiddle tables are kept apart, bounded by [`cache`]). The next product allocates afresh.
/// The kept vectors are not wiped: these products are for public operands (the NTT is not a
/// constant-time path).
pub fn release_buffers() {
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    ifma::SPARE.clear();
    #[cfg(target_arch = "x86_64")]
    avx2::SPARE.clear();
}

/// `a·b` for non-negative limb vectors (least significant first), written into `out` of
/// exactly `a.len() + b.len()` limbs, on up to `threads` threads of `pool`, by the
/// [`Backend::auto`] back end. Equal operands (the same limbs) are squared.
pub fn mul_into(
    pool: &Pool,
    threads: usize,
    out: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
) -> Result<()> {
    mul_into_with(Backend::auto(), pool, threads, out, a, b)
}

/// [`mul_into`] by the named back end (an error where this CPU lacks it).
pub fn mul_into_with(
    backend: Backend,
    pool: &Pool,
    threads: usize,
    out: &mut [Limb],
    a: &[Limb],
    b: &[Limb],
) -> Result<()> {
    if a == b {
        return sqr_into_with(backend, pool, threads, out, a);
    }
    run(backend, pool, threads, out, a, Some(b))
}

/// `a^2` for a non-negative limb vector, written into `out` of exactly `2·a.len()` limbs, on up
/// to `threads` threads of `pool`: one forward transform per prime instead of two.
pub fn sqr_into(pool: &Pool, threads: usize, out: &mut [Limb], a: &[Limb]) -> Result<()> {
    sqr_into_with(Backend::auto(), pool, threads, out, a)
}

/// [`sqr_into`] by the named back end (an error where this CPU lacks it).
pub fn sqr_into_with(
    backend: Backend,
    pool: &Pool,
    threads: usize,
    out: &mut [Limb],
    a: &[Limb],
) -> Result<()> {
    run(backend, pool, threads, out, a, None)
}

/// `a·b` as an integer, from non-negative limb slices.
pub fn product(pool: &Pool, threads: usize, a: &[Limb], b: &[Limb]) -> Result<rug::Integer> {
    product_with(Backend::auto(), pool, threads, a, b)
}

/// [`product`] by the named back end (an error where this CPU lacks it).
pub fn product_with(
    backend: Backend,
    pool: &Pool,
    threads: usize,
    a: &[Limb],
    b: &[Limb],
) -> Result<rug::Integer> {
    let len = a
        .len()
        .checked_add(b.len())
        .ok_or_else(|| Error::InvalidParameter("NTT product: operand lengths overflow".into()))?;
    let mut out = vec![0; len];
    mul_into_with(backend, pool, threads, &mut out, a, b)?;
    Ok(crate::bignum::mpn::to_integer(&out))
}

/// The product (`b = None`: the square of `a`).
fn run(
    backend: Backend,
    pool: &Pool,
    threads: usize,
    out: &mut [Limb],
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Result<()> {
    if !backend.available() {
        return Err(Error::InvalidParameter(format!(
            "NTT product: back end '{}' is not available on this CPU",
            backend.short()
        )));
    }
    let bn = b.map_or(a.len(), <[Limb]>::len);
    if a.len().checked_add(bn) != Some(out.len()) {
        return Err(Error::InvalidParameter(format!(
            "NTT product: output of {} limbs for a {}×{bn} product",
            out.len(),
            a.len()
        )));
    }
    if a.is_empty() || bn == 0 {
        out.fill(0);
        return Ok(());
    }
    let shape = check_bound(a.len(), bn)?;
    let threads = threads.max(1);
    let ok = match vector_product(backend, pool, threads, out, a, b) {
        Some(ok) => ok,
        None => {
            let res = PRIMES.map(|q| convolve(pool, threads, q, shape, a, b));
            let g = crt::Garner::new();
            recombine(pool, threads, out, &|start, end, o| {
                crt::recombine(&g, [0, 1, 2].map(|i| &res[i][start..end]), o)
            })
        }
    };
    ok.then_some(()).ok_or_else(|| {
        Error::InvalidParameter(
            "NTT product: a carry past the product's end (a bug: please report)".into(),
        )
    })
}

/// The product by a vector back end (its digits, transforms and recombination, see [`avx2`]
/// and [`ifma`]): whether no carry ran past the end, or `None` where the portable path
/// computes it (the portable back end, or a product too short or too long for the vector
/// kernels).
#[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
#[allow(unreachable_patterns)]
fn vector_product(
    backend: Backend,
    pool: &Pool,
    threads: usize,
    out: &mut [Limb],
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Option<bool> {
    match backend {
        Backend::Portable => None,
        #[cfg(target_arch = "x86_64")]
        Backend::Avx2 => avx2::product(pool, threads, out, a, b),
        #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
        Backend::Ifma | Backend::Ifma256 => {
            let width = match backend {
                Backend::Ifma => ifma::Width::W512,
                _ => ifma::Width::W256,
            };
            let plan = ifma::plan(a.len(), b.map_or(a.len(), <[Limb]>::len))?;
            let res = ifma::residues(pool, threads, width, plan, a, b)?;
            static GARNER: std::sync::OnceLock<ifma::crt::Garner> = std::sync::OnceLock::new();
            let g = GARNER.get_or_init(ifma::crt::Garner::new);
            let ok = ifma::recombine(pool, threads, width, g, plan.w, &res, out);
            res.into_iter().for_each(|v| ifma::SPARE.give(v));
            Some(ok)
        }
        _ => None,
    }
}

/// Recombination in chunks of limbs on up to `threads` threads: `chunk(start, end, o)` writes
/// coefficients `start..end` into the chunk `o` (which starts at limb `start`) and returns its
/// carry; chunk c's carry goes in at chunk c + 1's start. False if a carry runs past the end.
fn recombine(
    pool: &Pool,
    threads: usize,
    out: &mut [Limb],
    chunk: &(dyn Fn(usize, usize, &mut [Limb]) -> u128 + Sync),
) -> bool {
    let coeffs = out.len() - 1;
    let chunks = threads.min(out.len().div_ceil(MIN_CHUNK)).max(1);
    let size = out.len().div_ceil(chunks);
    let parts: Vec<Mutex<&mut [Limb]>> = out.chunks_mut(size).map(Mutex::new).collect();
    let carries: Vec<u128> = pool.map(parts.len(), threads, |c| {
        let mut o = lock(&parts[c]);
        let start = (c * size).min(coeffs);
        let end = (c * size + o.len()).min(coeffs);
        chunk(start, end, &mut o)
    });
    drop(parts);
    carries.into_iter().enumerate().all(|(c, carry)| {
        let at = ((c + 1) * size).min(out.len());
        crt::add_carry(&mut out[at..], carry)
    })
}

/// The portable twiddle tables kept between products.
static TWIDDLES: TableCache<Vec<u64>> = TableCache::new();

/// The cyclic convolution of `a` and `b` (or `a` and `a`) modulo `q` over `shape`'s length,
/// natural order: the product's coefficients mod `q` (the length holds them all).
fn convolve(
    pool: &Pool,
    threads: usize,
    q: Prime,
    shape: Shape,
    a: &[Limb],
    b: Option<&[Limb]>,
) -> Vec<u64> {
    let f = q.field();
    let (n, m, radix) = (shape.points(), shape.m, shape.radix);
    let tw: Arc<Vec<u64>> = TWIDDLES.get((q.p, radix, m), || {
        let w = q.root(n as u64);
        let mut tw = vec![0u64; shape.table_len()];
        let piece = tw.len().div_ceil(threads).max(1);
        par_chunks(pool, threads, &mut tw, piece, |c, chunk| {
            transform::twiddles(&f, w, c * piece, chunk)
        });
        let words = tw.len();
        (tw, words)
    });
    let tw = &tw[..];

    // Forward: task s·radix + t is block t of operand s.
    let ops: Vec<&[Limb]> = match b {
        Some(b) => vec![a, b],
        None => vec![a],
    };
    let mut bufs: Vec<Vec<u64>> = ops.iter().map(|_| vec![0u64; n]).collect();
    par_chunks_many(pool, threads, &mut bufs, m, |i, block| {
        transform::forward_block(&f, tw, shape, ops[i / radix], i % radix, block)
    });
    let y = if bufs.len() == 2 { bufs.pop() } else { None };
    let mut x = bufs.pop().unwrap_or_default();

    // Pointwise products scaled by 1/n, each block's inverse.
    let scale = f.to_mont(f.to_mont(f.inv(n as u64 % q.p)));
    par_chunks(pool, threads, &mut x, m, |t, block| {
        let yb = y.as_deref().map(|y| &y[t * m..(t + 1) * m]);
        transform::pointwise_inverse(&f, tw, shape, scale, block, yb)
    });
    drop(y);

    // The inverse radix stage, in pieces of indices j (entries j of every block).
    let piece = m.div_ceil(threads).max(1);
    par_columns(pool, threads, &mut x, m, radix, piece, |j, parts| {
        transform::inverse_stage(&f, tw, shape, j, parts)
    });
    x
}

/// `f(j, parts)` for each run of `piece` indices `j..` of the `radix` blocks of `m` entries
/// that make up `data`, on up to `threads` threads: `parts` holds those entries of every block
/// (a radix stage's work, which reads entry j of each block together).
fn par_columns(
    pool: &Pool,
    threads: usize,
    data: &mut [u64],
    m: usize,
    radix: usize,
    piece: usize,
    f: impl Fn(usize, &mut Vec<&mut [u64]>) + Sync,
) {
    let mut pieces: Vec<Vec<&mut [u64]>> = (0..m.div_ceil(piece))
        .map(|_| Vec::with_capacity(radix))
        .collect();
    for block in data.chunks_mut(m) {
        for (c, part) in block.chunks_mut(piece).enumerate() {
            pieces[c].push(part);
        }
    }
    let pieces: Vec<Mutex<Vec<&mut [u64]>>> = pieces.into_iter().map(Mutex::new).collect();
    pool.run(pieces.len(), threads, &|c| {
        f(c * piece, &mut lock(&pieces[c]))
    });
}

/// `f(c, chunk)` for each `piece`-long chunk of `data`, on up to `threads` threads.
fn par_chunks(
    pool: &Pool,
    threads: usize,
    data: &mut [u64],
    piece: usize,
    f: impl Fn(usize, &mut [u64]) + Sync,
) {
    let parts: Vec<Mutex<&mut [u64]>> = data.chunks_mut(piece).map(Mutex::new).collect();
    pool.run(parts.len(), threads, &|c| f(c, &mut lock(&parts[c])));
}

/// [`par_chunks`] over several vectors, their chunks numbered one after the other.
fn par_chunks_many(
    pool: &Pool,
    threads: usize,
    data: &mut [Vec<u64>],
    piece: usize,
    f: impl Fn(usize, &mut [u64]) + Sync,
) {
    let parts: Vec<Mutex<&mut [u64]>> = data
        .iter_mut()
        .flat_map(|v| v.chunks_mut(piece))
        .map(Mutex::new)
        .collect();
    pool.run(parts.len(), threads, &|c| f(c, &mut lock(&parts[c])));
}

/// A task's own slice (one task per lock: never contended; a panic elsewhere does not
/// poison the data it protects).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests;
