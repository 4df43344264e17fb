//! The parallel product in GMP's FFT range: the product modulo B^N − 1 and modulo B^N + 1 on
//! two threads, recombined by the Chinese remainder theorem (B = 2^64).
//!
//! With `2N >= an + bn`, `a·b < B^(2N) − 1 = (B^N − 1)(B^N + 1)`, so the two residues fix the
//! product. GMP computes exactly these two halves one after the other inside `mpz_mul` at
//! large sizes (its `mpn_mulmod_bnm1` splits B^(2N) − 1 the same way); here they run at once:
//!
//! - `xm = a·b mod (B^N − 1)` by `mpn_mulmod_bnm1` (which itself halves again, sequentially);
//! - `xp = a·b mod (B^N + 1)` by `mpn_mul_fft` (Schönhage–Strassen, depth k);
//! - `y = (xm − xp)/2 mod (B^N − 1)` (B^N + 1 ≡ 2 there, and 2 is invertible: B^N − 1 is odd),
//!   `a·b = xp + (B^N + 1)·y`.
//!
//! N is the size GMP itself would use (`fft_next_size(⌈(an+bn)/2⌉, best k)`), so each half is
//! about half of GMP's work: close to 2× on two threads when both halves cost the same (the
//! B^N + 1 FFT measures 15–30 % dearer than the recursive B^N − 1 half here, which bounds it).
use crate::bignum::mpn::{self, Limb};
use crate::parallel::pool::Pool;
use rug::Integer;

/// `Σ value_i · B^(offset_i)` for non-negative values whose sum is below `B^total`, written
/// once into a `total`-limb buffer.
pub fn add_at(parts: &[(usize, Integer)], total: usize) -> Integer {
    let mut buf: Vec<Limb> = vec![0; total];
    for (offset, value) in parts {
        debug_assert!(*value >= 0, "parts are non-negative");
        let l = value.as_limbs();
        if l.is_empty() {
            continue;
        }
        let carry = mpn::add_in(&mut buf[*offset..], l);
        debug_assert_eq!(carry, 0, "the sum fits in {total} limbs");
    }
    mpn::to_integer(&buf)
}

/// `x mod (B^n − 1)` folded into `n` limbs (the residue 0 may come out as B^n − 1).
fn fold_minus(x: &[Limb], n: usize) -> Vec<Limb> {
    let mut out = vec![0; n];
    let head = x.len().min(n);
    out[..head].copy_from_slice(&x[..head]);
    for chunk in x[head..].chunks(n) {
        let carry = mpn::add_in(&mut out, chunk);
        // B^n ≡ 1: a carry out wraps to the bottom (and cannot carry out again).
        mpn::incr(&mut out, carry);
    }
    out
}

/// `x mod (B^n + 1)` in `n + 1` limbs (normalised: at most B^n).
fn fold_plus(x: &[Limb], n: usize) -> Vec<Limb> {
    let mut v = Integer::from_digits(x, rug::integer::Order::Lsf);
    if x.len() > n {
        let m = (Integer::from(1) << (n as u32 * Limb::BITS)) + 1u32;
        v %= &m;
    }
    mpn::padded(&v, n + 1)
}

/// The split's size N and FFT depth k for a product of `total` limbs.
pub fn plan(total: usize) -> (usize, u32) {
    let half = total.div_ceil(2);
    let k = mpn::fft_best_k(half, false).max(4);
    (mpn::fft_next_size(half, k), k)
}

/// `a·b` for non-negative `a`, `b` given as limbs (both non-empty), the two residues computed
/// by the caller and one helper of `pool` at once.
pub fn crt_product(pool: &Pool, a: &[Limb], b: &[Limb]) -> Integer {
    let (n, k) = plan(a.len() + b.len());
    let (minus, (plus, top)) = pool.join(
        || {
            let (am, bm) = (fold_minus(a, n), fold_minus(b, n));
            let mut xm = vec![0; n];
            let mut scratch = Vec::new();
            mpn::mulmod_bnm1(&mut xm, mpn::trim(&am), mpn::trim(&bm), &mut scratch);
            xm
        },
        || {
            let (ap, bp) = (fold_plus(a, n), fold_plus(b, n));
            let mut xp = vec![0; n];
            let top = mpn::mul_fft(&mut xp, &ap, &bp, k);
            (xp, top)
        },
    );
    recombine(&minus, &plus, top, n)
}

/// `xp + (B^n + 1)·((xm − xp)/2 mod (B^n − 1))`, where `xp + top·B^n` is the residue mod
/// B^n + 1 and `xm` the residue mod B^n − 1.
fn recombine(xm: &[Limb], xp: &[Limb], top: Limb, n: usize) -> Integer {
    let m1 = (Integer::from(1) << (n as u32 * Limb::BITS)) - 1u32;
    let mut vp = mpn::to_integer(xp);
    if top != 0 {
        vp += Integer::from(top) << (n as u32 * Limb::BITS);
    }
    let mut d = mpn::to_integer(xm) - &vp;
    while d < 0 {
        d += &m1;
    }
    if d.is_odd() {
        d += &m1;
    }
    d >>= 1;
    // a·b = xp + y + y·B^n
    let mut x = Integer::from(&d << (n as u32 * Limb::BITS));
    x += &d;
    x += &vp;
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rug::integer::Order;

    fn limbs(n: usize, seed: u64) -> Vec<Limb> {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        (0..n).map(|_| r.r#gen()).collect()
    }

    #[test]
    fn residues_recombine_to_the_product_balanced_unbalanced_and_extreme() {
        let pool = Pool::new(1, false, std::time::Duration::from_micros(50)).unwrap();
        for (an, bn) in [(700, 700), (1500, 1400), (3000, 600), (2000, 1)] {
            let (a, b) = (limbs(an, an as u64), limbs(bn, 3 + bn as u64));
            let want = Integer::from_digits(&a, Order::Lsf) * Integer::from_digits(&b, Order::Lsf);
            assert_eq!(crt_product(&pool, &a, &b), want, "{an}x{bn}");
        }
        // All ones: residues at their extremes (xm may be B^N − 1, xp may be B^N).
        let ones = vec![Limb::MAX; 1200];
        let x = Integer::from_digits(&ones, Order::Lsf);
        assert_eq!(crt_product(&pool, &ones, &ones), x.clone() * &x);
    }

    #[test]
    fn folds_and_sums_are_exact() {
        let x = limbs(2500, 9);
        let xi = Integer::from_digits(&x, Order::Lsf);
        let n = 1024;
        let bn = Integer::from(1) << (n as u32 * 64);
        let fm = Integer::from_digits(&fold_minus(&x, n), Order::Lsf);
        assert_eq!(fm % (bn.clone() - 1u32), xi.clone() % (bn.clone() - 1u32));
        let fp = Integer::from_digits(&fold_plus(&x, n), Order::Lsf);
        assert_eq!(fp, xi % (bn + 1u32));
        let s = add_at(
            &[
                (0, Integer::from(5)),
                (1, Integer::from(7)),
                (1, Integer::from(1)),
            ],
            3,
        );
        assert_eq!(s, Integer::from(5) + (Integer::from(8) << 64));
    }
}
