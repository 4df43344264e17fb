//! The convolution driver both vector back ends run ([`super::avx2`], [`super::ifma`]): per
//! prime, the operands' forward transforms, the pointwise products with each block's inverse
//! and the inverse radix stage, each phase one region of the [`Pool`]; and the primes dealt to
//! the threads, whole primes first ([`by_primes`]). A back end supplies its kernels, tables
//! and stores through [`Kernels`]; the driver is the same code for both.
use super::cache::{Spare, TableCache};
use super::prime::Prime;
use super::transform::Shape;
use super::{par_chunks, par_chunks_many, par_columns};
use crate::parallel::pool::Pool;
use std::sync::Arc;

/// A vector back end's kernels, as the convolutions of [`by_primes`] call them.
///
/// # Safety
/// A value of the implementing type exists only where the CPU runs its kernels, and the
/// kernels accept every call those convolutions make for a shape the back end takes (its `takes`):
/// `m` a power of two of at least the back end's smallest block and a multiple of
/// [`Kernels::LANES`]; each operand's buffer holding the shape's `n` points (`forward_all`) or
/// one block of `m` (`forward_block`); the inverse stage's pieces starting and ending on
/// multiples of [`Kernels::LANES`].
pub unsafe trait Kernels: Copy + Send + Sync {
    /// The twiddle tables of one prime and shape.
    type Tables: Send + Sync + 'static;
    /// Where the transforms read an operand (its limbs, or digits split from them).
    type Src<'a>: Copy + Send + Sync;
    /// Words per vector.
    const LANES: usize;

    /// The back end's kept tables.
    fn table_cache() -> &'static TableCache<Self::Tables>;
    /// The back end's kept transform vectors.
    fn spare() -> &'static Spare;
    /// The tables of `q` for `shape`, with the 64-bit words they hold.
    fn tables(q: Prime, shape: Shape) -> (Self::Tables, usize);

    /// The radix stage of one operand, all its blocks in one pass.
    ///
    /// # Safety
    /// As the trait's.
    unsafe fn forward_all(
        self,
        tb: &Self::Tables,
        shape: Shape,
        src: Self::Src<'_>,
        out: &mut [u64],
    );
    /// Block `t` of the radix stage of one operand.
    ///
    /// # Safety
    /// As the trait's.
    unsafe fn forward_block(
        self,
        tb: &Self::Tables,
        shape: Shape,
        src: Self::Src<'_>,
        t: usize,
        out: &mut [u64],
    );
    /// A block's transform, its pointwise product with `y` (`None`: with itself) and inverse.
    ///
    /// # Safety
    /// As the trait's.
    unsafe fn pointwise_inverse(self, tb: &Self::Tables, x: &mut [u64], y: Option<&[u64]>);
    /// The inverse radix stage over the columns from `j0` of `blocks`.
    ///
    /// # Safety
    /// As the trait's.
    unsafe fn inverse_stage(self, tb: &Self::Tables, j0: usize, blocks: &mut [&mut [u64]]);
}

/// The residue vectors of the product modulo each of `primes`: the first `whole` one prime per
/// task on `threads` threads, the rest each split over the threads phase by phase. The same
/// values either way (each prime's convolution does not depend on the threads).
#[allow(clippy::too_many_arguments)]
pub fn by_primes<'a, K: Kernels>(
    pool: &Pool,
    threads: usize,
    k: K,
    primes: &[Prime],
    whole: usize,
    shape: Shape,
    a: K::Src<'a>,
    b: Option<K::Src<'a>>,
) -> Vec<Vec<u64>> {
    let mut res = pool.map(whole, threads, |i| {
        convolve(pool, 1, k, primes[i], shape, a, b)
    });
    res.extend(
        primes[whole..]
            .iter()
            .map(|&q| convolve(pool, threads, k, q, shape, a, b)),
    );
    res
}

/// The cyclic convolution modulo `q` of the operands (as the portable `convolve` of their
/// limbs), results below `q.p`, in a vector of the back end's [`Kernels::spare`] store.
fn convolve<'a, K: Kernels>(
    pool: &Pool,
    threads: usize,
    k: K,
    q: Prime,
    shape: Shape,
    a: K::Src<'a>,
    b: Option<K::Src<'a>>,
) -> Vec<u64> {
    let (n, m, radix) = (shape.points(), shape.m, shape.radix);
    let tb: Arc<K::Tables> = K::table_cache().get((q.p, radix, m), || K::tables(q, shape));
    let tb = &*tb;
    let spare = K::spare();

    // SAFETY (every kernel call below): `k` exists only where the CPU runs the kernels, and
    // `shape` is one the back end takes, so `m` is a power of two of at least its smallest
    // block and a multiple of `K::LANES`; each operand's buffer holds the shape's `n` points
    // (`forward_all`) or each task one block of `m`; the inverse stage's pieces start and end
    // on multiples of `K::LANES` (`piece` is one, and so is `m`).
    let ops: Vec<K::Src<'a>> = match b {
        Some(b) => vec![a, b],
        None => vec![a],
    };
    let mut bufs: Vec<Vec<u64>> = ops.iter().map(|_| spare.take(n)).collect();
    if threads == 1 {
        // One task per operand: the radix stage reads and reduces each digit once rather than
        // once per block (IFMA, 1 Mbit, 1 thread, transforms alone: 0.87-0.91 -> 0.75-0.78 ms;
        // 16 Mbit 20.4-22.8 -> 19.9-21.0 ms). On more threads the blocks stay separate tasks.
        for (buf, &op) in bufs.iter_mut().zip(&ops) {
            unsafe { k.forward_all(tb, shape, op, buf) };
        }
    } else {
        par_chunks_many(pool, threads, &mut bufs, m, |i, block| unsafe {
            k.forward_block(tb, shape, ops[i / radix], i % radix, block)
        });
    }
    let y = if bufs.len() == 2 { bufs.pop() } else { None };
    let mut x = bufs.pop().unwrap_or_default();

    par_chunks(pool, threads, &mut x, m, |t, block| {
        let yb = y.as_deref().map(|y| &y[t * m..(t + 1) * m]);
        unsafe { k.pointwise_inverse(tb, block, yb) }
    });
    if let Some(y) = y {
        spare.give(y);
    }

    let piece = m.div_ceil(threads).next_multiple_of(K::LANES);
    par_columns(pool, threads, &mut x, m, radix, piece, |j, parts| unsafe {
        k.inverse_stage(tb, j, parts)
    });
    x
}
