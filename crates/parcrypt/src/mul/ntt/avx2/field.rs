//! The three AVX2 primes and their scalar arithmetic (set-up and recombination): the three
//! largest `p = c·2^32 + 1 < 2^50` with `3 | c` — the first three of the IFMA back end's four
//! (both taken from `prime::PRIMES50`, which stands outside the IFMA module's `parcrypt_avx512`;
//! the tests check that they are prime, have the roots and, where both are compiled, that they
//! are the IFMA ones). Transforms of `2^k` and `3·2^k` points exist up to
//! `3·2^31`; a residue below 2^50 is an exact `f64`, and a product of two is below 2^100, which
//! the kernels split exactly into a rounded `f64` and its error by one FMA ([`super::kernels`]).
pub use super::super::prime::ByConst;
use super::super::prime::Prime;

/// log2 of the largest power of two dividing every `p − 1`: blocks of up to 2^31 points.
pub const MAX_LOG_LEN: u32 = 32;

/// The primes, largest first (the tests check them).
pub const PRIMES: [Prime; 3] = {
    let p = super::super::prime::PRIMES50;
    [p[0], p[1], p[2]]
};

/// log2 of a lower bound on the three primes' product: `p0·p1·p2 > 2^149` (it is
/// `2^149.9997…`; the tests check it).
pub const LOG_PRIMES: u32 = 149;

/// `a·b mod p` by a 128-bit remainder (set-up only: slow).
pub fn mul(p: u64, a: u64, b: u64) -> u64 {
    ((u128::from(a) * u128::from(b)) % u128::from(p)) as u64
}

/// `b^e mod p`.
pub fn pow(p: u64, b: u64, mut e: u64) -> u64 {
    let (mut r, mut x) = (1 % p, b % p);
    while e > 0 {
        if e & 1 == 1 {
            r = mul(p, r, x);
        }
        x = mul(p, x, x);
        e >>= 1;
    }
    r
}

/// `a^(−1) mod p` for `a` not a multiple of the prime `p` (Fermat).
pub fn inv(p: u64, a: u64) -> u64 {
    pow(p, a, p - 2)
}

/// A primitive root of unity of order `n` (dividing `q.p − 1`).
pub fn root(q: Prime, n: u64) -> u64 {
    debug_assert!(n > 0 && (q.p - 1) % n == 0);
    pow(q.p, q.g, (q.p - 1) / n)
}

/// `x < p` as the kernels hold a constant: its representative in `[−(p − 1)/2, (p − 1)/2]`, so
/// that a product by it stays below `p²/2` in magnitude for any input below `p` (see
/// [`super::kernels`]), and its companion `x/p` rounded to an `f64`.
pub fn centered(p: u64, x: u64) -> (f64, f64) {
    let x = x % p;
    let c = if x > p / 2 {
        -((p - x) as f64)
    } else {
        x as f64
    };
    (c, c / p as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mul::ntt::prime::tests::factors;
    use rug::Integer;

    #[test]
    fn avx2_primes_are_prime_with_roots_and_generators() {
        let prime = |p: u64| Integer::from(p).is_probably_prime(40) != rug::integer::IsPrime::No;
        for q in PRIMES {
            assert!(prime(q.p) && q.p < 1 << 50 && q.p > 1 << 49, "{:#x}", q.p);
            assert_eq!((q.p - 1) % (3 << MAX_LOG_LEN), 0);
            let fs = factors(q.p - 1);
            assert!(fs.iter().all(|&r| pow(q.p, q.g, (q.p - 1) / r) != 1));
            for n in [2u64, 3, 4, 8, 1 << 20, 3 << 20, 3 << 31] {
                let w = root(q, n);
                assert_eq!(pow(q.p, w, n), 1);
                assert!(factors(n).iter().all(|&r| pow(q.p, w, n / r) != 1));
            }
        }
        let product: Integer = PRIMES.iter().map(|q| Integer::from(q.p)).product();
        assert!(product > Integer::from(1) << LOG_PRIMES);
        assert!(product < Integer::from(1) << (LOG_PRIMES + 1));
        #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
        assert_eq!(PRIMES[..], super::super::super::ifma::field::PRIMES[..3]);
    }

    #[test]
    fn centered_constants_and_shoup_products() {
        for q in PRIMES {
            let p = q.p;
            for x in [0, 1, p / 2, p / 2 + 1, p - 1, 12345] {
                let (c, cq) = centered(p, x);
                assert!(c.abs() <= (p / 2) as f64);
                assert_eq!((c as i128).rem_euclid(i128::from(p)), i128::from(x));
                assert_eq!(cq, c / p as f64);
                let b = ByConst::new(p, x);
                for a in [0, 1, p - 1, p, u64::MAX, 0x1234_5678_9abc_def0] {
                    assert_eq!(b.times(a), mul(p, a % p, x));
                }
            }
        }
    }
}
