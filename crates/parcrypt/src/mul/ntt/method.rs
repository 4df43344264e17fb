//! The `ntt` multiplier: signs and zero here, magnitudes by [`super::product`] on the
//! persistent workers of a [`Pool`]; a product past the CRT bound or the longest transform (far
//! beyond any memory) falls back to `mpz_mul` instead of failing.
use super::super::{KaraConfig, Multiplier};
use crate::error::Result;
use crate::parallel::pool::{DEFAULT_SPIN, Pool};
use rug::Integer;

/// The `ntt` multiplier with its own pool of `helpers` helpers.
pub struct NttMul {
    pool: Pool,
    helpers: usize,
}

/// An `ntt` multiplier with `config.helpers` helpers (depth and threshold do not apply).
pub fn new(config: KaraConfig) -> Result<NttMul> {
    Ok(NttMul {
        pool: Pool::new(config.helpers, config.pin, DEFAULT_SPIN)?,
        helpers: config.helpers,
    })
}

/// `a·b` by the NTT on up to `threads` threads of `pool`, any signs (a square when `a` and `b`
/// have the same magnitude).
pub fn signed_product(pool: &Pool, threads: usize, a: &Integer, b: &Integer) -> Integer {
    let (la, lb) = (a.as_limbs(), b.as_limbs());
    let p = match super::product(pool, threads, la, lb) {
        Ok(p) => p,
        // Past the CRT bound (2^57 limbs): never reached in memory, but never wrong either.
        Err(_) => return Integer::from(a * b),
    };
    if (*a < 0) != (*b < 0) { -p } else { p }
}

impl Multiplier for NttMul {
    fn name(&self) -> &'static str {
        "ntt"
    }

    fn describe(&self) -> String {
        format!(
            "ntt: three 62-bit primes, NTT of 2^k or 3·2^k points, CRT (Garner); back end: {}; \
             transforms, pointwise products and recombination on {} helper(s) + caller{}",
            super::Backend::detect().name(),
            self.helpers,
            if self.pool.pinned() { ", pinned" } else { "" }
        )
    }

    fn threads(&self) -> usize {
        1 + self.helpers
    }

    fn mul(&self, a: &Integer, b: &Integer) -> Integer {
        signed_product(&self.pool, 1 + self.helpers, a, b)
    }
}
