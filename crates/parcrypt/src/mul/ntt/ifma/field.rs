//! The four IFMA primes and their scalar arithmetic (set-up and recombination): p = c·2^32 + 1
//! just below 2^50 with 3 | c, so transforms of 2^k and 3·2^k points exist (up to 3·2^31),
//! `4p < 2^52` (residues kept lazily below 4p still fit one 52-bit IFMA word) and the four
//! primes' product exceeds 2^199.99 (see [`super`] for the bound this gives).
pub use super::super::prime::ByConst;
use super::super::prime::Prime;

/// log2 of the largest power of two dividing every `p − 1`: blocks of up to 2^31 points.
pub const MAX_LOG_LEN: u32 = 32;

/// `2^52 − 1`: one IFMA word.
pub const MASK52: u64 = (1 << 52) - 1;

/// The primes, largest first: the four largest `c·2^32 + 1 < 2^50` with `3 | c`; each
/// generator is the smallest one (both checked by the tests).
pub const PRIMES: [Prime; 4] = super::super::prime::PRIMES50;

/// Scalar arithmetic mod one prime `2^49 < p < 2^50`: residues in `[0, p)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The modulus.
    pub p: u64,
}

impl Field {
    /// `a·b mod p` by a 128-bit remainder (set-up only: slow).
    pub fn mul(self, a: u64, b: u64) -> u64 {
        ((u128::from(a) * u128::from(b)) % u128::from(self.p)) as u64
    }

    /// `b^e mod p`.
    pub fn pow(self, b: u64, mut e: u64) -> u64 {
        let (mut r, mut x) = (1 % self.p, b % self.p);
        while e > 0 {
            if e & 1 == 1 {
                r = self.mul(r, x);
            }
            x = self.mul(x, x);
            e >>= 1;
        }
        r
    }

    /// `a^(−1) mod p` for `a` not a multiple of `p` (Fermat).
    pub fn inv(self, a: u64) -> u64 {
        self.pow(a, self.p - 2)
    }

    /// A primitive root of unity of order `n`, where `n` divides `p − 1`.
    pub fn root(self, g: u64, n: u64) -> u64 {
        debug_assert!(n > 0 && (self.p - 1) % n == 0);
        self.pow(g, (self.p - 1) / n)
    }

    /// Shoup's companion of `w < p` for 52-bit words: `⌊w·2^52 / p⌋`.
    pub fn shoup52(self, w: u64) -> u64 {
        ((u128::from(w) << 52) / u128::from(self.p)) as u64
    }

    /// `p^(−1) mod 2^52` (Montgomery products with R = 2^52).
    pub fn pinv52(self) -> u64 {
        // Newton's iteration: p is its own inverse mod 8, each step doubles the bits.
        let mut x = self.p;
        for _ in 0..5 {
            x = x.wrapping_mul(2u64.wrapping_sub(self.p.wrapping_mul(x)));
        }
        x & MASK52
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mul::ntt::prime::tests::factors;
    use rug::Integer;

    #[test]
    fn ifma_primes_are_the_largest_with_roots_and_smallest_generators() {
        let prime = |p: u64| Integer::from(p).is_probably_prime(40) != rug::integer::IsPrime::No;
        for q in PRIMES {
            let f = Field { p: q.p };
            assert!(prime(q.p) && q.p < 1 << 50 && q.p > 1 << 49, "{:#x}", q.p);
            assert_eq!((q.p - 1) % (3 << MAX_LOG_LEN), 0);
            let fs = factors(q.p - 1);
            assert!(fs.iter().all(|&r| f.pow(q.g, (q.p - 1) / r) != 1));
            // The smallest generator.
            assert!((2..q.g).all(|g| fs.iter().any(|&r| f.pow(g, (q.p - 1) / r) == 1)));
            for n in [2u64, 3, 1 << 20, 3 << 20, 3 << 31] {
                let w = f.root(q.g, n);
                assert_eq!(f.pow(w, n), 1);
                assert!(factors(n).iter().all(|&r| f.pow(w, n / r) != 1));
            }
            assert_eq!(q.p.wrapping_mul(f.pinv52()) & MASK52, 1);
        }
        // Nothing larger qualifies.
        for (i, q) in PRIMES.iter().enumerate() {
            let larger = (q.p + (1 << 32)..1 << 50)
                .step_by(1 << 32)
                .filter(|&p| ((p - 1) >> 32) % 3 == 0 && prime(p))
                .count();
            assert_eq!(larger, i, "{:#x}", q.p);
        }
        let product: Integer = PRIMES.iter().map(|q| Integer::from(q.p)).product();
        assert!(product > Integer::from(1) << 199u32);
    }

    #[test]
    fn shoup_products_match_remainders() {
        for q in PRIMES {
            let p = q.p;
            let xs = [
                0,
                1,
                2,
                p - 1,
                p,
                2 * p + 5,
                1 << 52,
                u64::MAX,
                0x1234_5678_9abc_def0,
            ];
            for &w in &[0, 1, p - 1, 0x2_3456_789a_bcde % p, 12345] {
                let c = ByConst::new(p, w);
                for &x in &xs {
                    assert_eq!(c.times(x), Field { p }.mul(x % p, w), "{x} {w}");
                }
            }
        }
    }
}
