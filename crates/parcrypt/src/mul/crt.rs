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
use crate::bignum::wrap;
use crate::parallel::pool::Pool;
use rug::Integer;

/// `Σ value_i · B^(offset_i)` for non-negative values whose sum is below `B^total`, written
/// straight into the result's limbs.
pub fn add_at(parts: &[(usize, &Integer)], total: usize) -> Integer {
    let mut out = Integer::new();
    mpn::write_integer(&mut out, total, |buf| {
        buf.fill(0);
        for (offset, value) in parts {
            debug_assert!(**value >= 0, "parts are non-negative");
            let l = value.as_limbs();
            if !l.is_empty() {
                let carry = mpn::add_in(&mut buf[*offset..], l);
                debug_assert_eq!(carry, 0, "the sum fits in {total} limbs");
            }
        }
    });
    out
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
    let (minus, plus) = pool.join(
        || {
            let (mut am, mut bm) = (vec![0; n], vec![0; n]);
            wrap::fold_minus(&mut am, a);
            wrap::fold_minus(&mut bm, b);
            let mut xm = vec![0; n];
            let mut scratch = Vec::new();
            mpn::mulmod_bnm1(&mut xm, &am, &bm, &mut scratch);
            xm
        },
        || {
            let (mut ap, mut bp) = (vec![0; n + 1], vec![0; n + 1]);
            wrap::fold_plus(&mut ap, a);
            wrap::fold_plus(&mut bp, b);
            let mut xp = vec![0; n + 1];
            xp[n] = mpn::mul_fft(&mut xp[..n], &ap, &bp, k);
            xp
        },
    );
    // a·b < B^2n − 1: its residue mod B^2n − 1 is the product itself.
    let mut out = Integer::new();
    mpn::write_integer(&mut out, 2 * n, |r| wrap::recombine(r, &minus, &plus));
    out
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
    fn sums_are_exact() {
        let (five, seven, one) = (Integer::from(5), Integer::from(7), Integer::from(1));
        let s = add_at(&[(0, &five), (1, &seven), (1, &one)], 3);
        assert_eq!(s, Integer::from(5) + (Integer::from(8) << 64));
    }
}
