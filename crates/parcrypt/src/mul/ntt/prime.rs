//! The three NTT primes and their arithmetic: p = c·2^40 + 1 just below 2^62 with 3 | c (so
//! transforms of 2^k and 3·2^k points exist, sums of two residues fit a u64 and whole 64-bit
//! limbs are transform digits), with Montgomery products (R = 2^64) for everything in a loop.

/// One NTT prime and a generator of its multiplicative group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prime {
    /// The modulus: c·2^40 + 1 below 2^62, 3 | c.
    pub p: u64,
    /// A generator of the multiplicative group.
    pub g: u64,
}

/// log2 of the largest power of two dividing every `p − 1`: transforms of up to 2^40 points.
pub const MAX_LOG_LEN: u32 = 40;

/// The primes, largest first: the three largest `c·2^40 + 1 < 2^62` with `3 | c`; each
/// generator is the smallest one (both checked by the tests).
pub const PRIMES: [Prime; 3] = [
    Prime {
        p: 0x3fff_c000_0000_0001,
        g: 11,
    },
    Prime {
        p: 0x3fff_8400_0000_0001,
        g: 19,
    },
    Prime {
        p: 0x3fff_8100_0000_0001,
        g: 5,
    },
];

/// The vector back ends' primes, largest first: the four largest `c·2^32 + 1 < 2^50` with
/// `3 | c`, each with its smallest generator (both checked by the back ends' tests). The IFMA
/// back end takes all four, the AVX2 one the first three; here, outside either back end's
/// `cfg`, so both read one list.
pub const PRIMES50: [Prime; 4] = [
    Prime {
        p: 0x3_fff3_0000_0001,
        g: 5,
    },
    Prime {
        p: 0x3_ffed_0000_0001,
        g: 7,
    },
    Prime {
        p: 0x3_ffc0_0000_0001,
        g: 11,
    },
    Prime {
        p: 0x3_ff4b_0000_0001,
        g: 29,
    },
];

/// Arithmetic mod one prime `p` with `0.8·2^62 < p < 2^62`: residues in `[0, p)`,
/// Montgomery products with R = 2^64.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The modulus.
    pub p: u64,
    /// `p^(−1) mod 2^64`.
    pinv: u64,
    /// `R^2 mod p`.
    r2: u64,
}

impl Field {
    /// The field of `p` (odd, `0.8·2^62 < p < 2^62`: [`Field::reduce`] needs it).
    pub fn new(p: u64) -> Self {
        debug_assert!(p % 2 == 1 && p < 1 << 62 && 4 * ((1u64 << 62) - p) < p);
        // Newton's iteration for p^(−1) mod 2^64: p is its own inverse mod 8, each step
        // doubles the correct bits (3, 6, 12, 24, 48, 96).
        let mut pinv = p;
        for _ in 0..5 {
            pinv = pinv.wrapping_mul(2u64.wrapping_sub(p.wrapping_mul(pinv)));
        }
        let r1 = ((1u128 << 64) % u128::from(p)) as u64;
        let r2 = ((u128::from(r1) * u128::from(r1)) % u128::from(p)) as u64;
        Self { p, pinv, r2 }
    }

    /// `a·b·2^(−64) mod p` in `[0, p)`, for any `a < 2^64` and `b < p` (so `a·b < p·2^64`).
    #[inline(always)]
    pub fn mont(&self, a: u64, b: u64) -> u64 {
        let t = u128::from(a) * u128::from(b);
        // m·p ≡ t (mod 2^64): (t − m·p) / 2^64 = hi(t) − hi(m·p) exactly, in (−p, p).
        let m = (t as u64).wrapping_mul(self.pinv);
        let mp = ((u128::from(m) * u128::from(self.p)) >> 64) as u64;
        let (r, borrow) = ((t >> 64) as u64).overflowing_sub(mp);
        r.wrapping_add(self.p & mask(borrow))
    }

    /// `x·R mod p` (Montgomery form) for any `x < 2^64`: `mont(a, to_mont(x)) = a·x mod p`.
    #[inline]
    pub fn to_mont(&self, x: u64) -> u64 {
        self.mont(x, self.r2)
    }

    /// `x mod p` for any `x < 2^64`: `x − ⌊x/2^62⌋·p < 2^62 + 3·(2^62 − p) < 2p`, then one
    /// subtraction.
    #[inline(always)]
    pub fn reduce(&self, x: u64) -> u64 {
        let r = x - (x >> 62) * self.p;
        let (d, borrow) = r.overflowing_sub(self.p);
        d.wrapping_add(self.p & mask(borrow))
    }

    /// `a + b mod p` for `a, b < p`.
    #[inline(always)]
    pub fn add(&self, a: u64, b: u64) -> u64 {
        let (d, borrow) = (a + b).overflowing_sub(self.p);
        d.wrapping_add(self.p & mask(borrow))
    }

    /// `a − b mod p` for `a, b < p`.
    #[inline(always)]
    pub fn sub(&self, a: u64, b: u64) -> u64 {
        let (d, borrow) = a.overflowing_sub(b);
        d.wrapping_add(self.p & mask(borrow))
    }

    /// `a·b mod p` by a 128-bit remainder (set-up only: slow).
    pub fn mul_slow(&self, a: u64, b: u64) -> u64 {
        ((u128::from(a) * u128::from(b)) % u128::from(self.p)) as u64
    }

    /// `b^e mod p` for any `b < 2^64`, by Montgomery products.
    pub fn pow(&self, b: u64, mut e: u64) -> u64 {
        let (mut r, mut x) = (self.to_mont(1), self.to_mont(b));
        while e > 0 {
            if e & 1 == 1 {
                r = self.mont(r, x);
            }
            x = self.mont(x, x);
            e >>= 1;
        }
        // Out of Montgomery form: r·1·R^(−1).
        self.mont(r, 1)
    }

    /// `a^(−1) mod p` for `a` not a multiple of `p` (Fermat).
    pub fn inv(&self, a: u64) -> u64 {
        self.pow(a, self.p - 2)
    }
}

/// All ones if `b`, else zero: the corrections above are masks, not branches (a branch on a
/// residue's size is taken at random and mispredicted about half the time: measured 7 ns per
/// butterfly with branches).
#[inline(always)]
fn mask(b: bool) -> u64 {
    0u64.wrapping_sub(u64::from(b))
}

impl Prime {
    /// Its arithmetic.
    pub fn field(&self) -> Field {
        Field::new(self.p)
    }

    /// A primitive root of unity of order `n`, where `n` divides `p − 1`.
    pub fn root(&self, n: u64) -> u64 {
        debug_assert!(n > 0 && (self.p - 1) % n == 0);
        self.field().pow(self.g, (self.p - 1) / n)
    }
}

/// Multiplication by a constant `w < p` with Shoup's 64-bit companion `⌊w·2^64/p⌋`: exact
/// `a·w mod p` for any `a < 2^64` (the quotient estimate is at most one short, then one
/// correction): the IFMA and AVX2 back ends' scalar set-up and recombination products.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByConst {
    /// The constant.
    pub w: u64,
    /// `⌊w·2^64 / p⌋`.
    pub wq: u64,
    /// The modulus.
    pub p: u64,
}

impl ByConst {
    /// Multiplication by `w mod p`, modulo `p` (`p < 2^63`).
    pub fn new(p: u64, w: u64) -> Self {
        let w = w % p;
        Self {
            w,
            wq: ((u128::from(w) << 64) / u128::from(p)) as u64,
            p,
        }
    }

    /// `a·w mod p` in `[0, p)`, any `a < 2^64`.
    #[inline(always)]
    pub fn times(self, a: u64) -> u64 {
        // q ≥ a·w/p − 2, so a·w − q·p is in [0, 2p) and fits a u64 (p < 2^50).
        let q = ((u128::from(a) * u128::from(self.wq)) >> 64) as u64;
        let r = a.wrapping_mul(self.w).wrapping_sub(q.wrapping_mul(self.p));
        if r >= self.p { r - self.p } else { r }
    }
}

#[cfg(test)]
pub(in crate::mul::ntt) mod tests {
    use super::*;
    use rug::Integer;

    /// The distinct prime factors of `c` (trial division; the tests' check of generators).
    pub(in crate::mul::ntt) fn factors(mut c: u64) -> Vec<u64> {
        let mut f = Vec::new();
        let mut d = 2;
        while d * d <= c {
            if c % d == 0 {
                f.push(d);
                while c % d == 0 {
                    c /= d;
                }
            }
            d += 1;
        }
        if c > 1 {
            f.push(c);
        }
        f
    }

    #[test]
    fn primes_are_prime_with_3_and_2_40_roots_and_generators() {
        for q in PRIMES {
            assert!(Integer::from(q.p).is_probably_prime(40) != rug::integer::IsPrime::No);
            assert!(q.p < 1 << 62 && 4 * ((1u64 << 62) - q.p) < q.p, "{}", q.p);
            assert_eq!((q.p - 1) % (3 << MAX_LOG_LEN), 0);
            let f = q.field();
            for r in factors(q.p - 1) {
                assert_ne!(f.pow(q.g, (q.p - 1) / r), 1, "{} {r}", q.p);
            }
            for n in [2u64, 3, 1 << 20, 3 << 20] {
                let w = q.root(n);
                assert_eq!(f.pow(w, n), 1);
                assert!(factors(n).iter().all(|&r| f.pow(w, n / r) != 1));
            }
        }
        // The smallest generator, largest primes with 3 | c: nothing larger qualifies.
        let above = |p: u64| (p + (1 << 40)..1 << 62).step_by(1 << 40);
        for (i, q) in PRIMES.iter().enumerate() {
            let larger = above(q.p)
                .filter(|&p| ((p - 1) >> 40) % 3 == 0)
                .filter(|&p| Integer::from(p).is_probably_prime(30) != rug::integer::IsPrime::No)
                .count();
            assert_eq!(larger, i, "{:#x}", q.p);
        }
    }

    #[test]
    fn montgomery_and_reduction_match_remainders() {
        for q in PRIMES {
            let f = q.field();
            let p = q.p;
            let xs = [
                0,
                1,
                2,
                p - 1,
                p,
                p + 1,
                2 * p - 1,
                1 << 62,
                u64::MAX,
                0x1234_5678_9abc_def0,
            ];
            for &x in &xs {
                assert_eq!(f.reduce(x), x % p, "reduce {x}");
                for &y in &xs {
                    let y = y % p;
                    // mont(x, to_mont(y)) = x·y mod p.
                    assert_eq!(f.mont(x, f.to_mont(y)), f.mul_slow(x % p, y), "{x} {y}");
                    let xr = x % p;
                    assert_eq!(
                        f.add(xr, y),
                        ((u128::from(xr) + u128::from(y)) % u128::from(p)) as u64
                    );
                    assert_eq!(
                        f.sub(xr, y),
                        ((u128::from(xr) + u128::from(p - y)) % u128::from(p)) as u64
                    );
                }
            }
            assert_eq!(f.mul_slow(f.inv(12345), 12345), 1);
            assert_eq!(f.pow(u64::MAX, 0), 1);
            assert_eq!(f.pow(p, 5), 0);
            assert_eq!(f.pow(3, 4), 81);
            let mut want = 1;
            for _ in 0..77 {
                want = f.mul_slow(want, u64::MAX % p);
            }
            assert_eq!(f.pow(u64::MAX, 77), want);
        }
    }
}
