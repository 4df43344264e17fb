//! The `ntt` multiplier (and `ntt-<back end>`, see [`with_backend`]): signs and zero here,
//! magnitudes by [`super::product_with`] on the
//! persistent workers of a [`Pool`]; a product past the CRT bound or the longest transform (far
//! beyond any memory) falls back to `mpz_mul` instead of failing.
use super::super::{KaraConfig, Multiplier};
use super::Backend;
use crate::error::{Error, Result};
use crate::parallel::pool::{DEFAULT_SPIN, Pool};
use rug::Integer;

/// The `ntt` multiplier with its own pool of `helpers` helpers and a back end (the best
/// available, or a named one).
pub struct NttMul {
    pool: Pool,
    helpers: usize,
    backend: Backend,
    /// Whether the back end was named (`ntt-<short>`) rather than chosen (`ntt`).
    named: bool,
}

/// An `ntt` multiplier with `config.helpers` helpers (depth and threshold do not apply), on
/// the best back end this CPU runs ([`Backend::auto`]).
pub fn new(config: KaraConfig) -> Result<NttMul> {
    Ok(NttMul {
        pool: Pool::new(config.helpers, config.pin, DEFAULT_SPIN)?,
        helpers: config.helpers,
        backend: Backend::auto(),
        named: false,
    })
}

/// An NTT multiplier on the named back end (its name is `ntt-<short>`, e.g. `ntt-portable`),
/// for benchmarks and tests; an error where this CPU lacks it.
pub fn with_backend(config: KaraConfig, backend: Backend) -> Result<NttMul> {
    if !backend.available() {
        return Err(Error::InvalidParameter(format!(
            "NTT back end '{}' is not available on this CPU",
            backend.short()
        )));
    }
    Ok(NttMul {
        backend,
        named: true,
        ..new(config)?
    })
}

/// `a·b` by the NTT on up to `threads` threads of `pool`, any signs (a square when `a` and `b`
/// have the same magnitude), on the best back end.
pub fn signed_product(pool: &Pool, threads: usize, a: &Integer, b: &Integer) -> Integer {
    signed_product_with(Backend::auto(), pool, threads, a, b)
}

/// [`signed_product`] on `backend` (GMP's product where it is not available).
pub fn signed_product_with(
    backend: Backend,
    pool: &Pool,
    threads: usize,
    a: &Integer,
    b: &Integer,
) -> Integer {
    let (la, lb) = (a.as_limbs(), b.as_limbs());
    let p = match super::product_with(backend, pool, threads, la, lb) {
        Ok(p) => p,
        // Past the CRT bound (2^57 limbs): never reached in memory, but never wrong either;
        // likewise a back end this CPU lacks (`with_backend` refuses to make one).
        Err(_) => return Integer::from(a * b),
    };
    if (*a < 0) != (*b < 0) { -p } else { p }
}

impl Multiplier for NttMul {
    fn name(&self) -> &'static str {
        match (self.named, self.backend) {
            (false, _) => "ntt",
            (true, Backend::Portable) => "ntt-portable",
            (true, Backend::Avx2) => "ntt-avx2",
            (true, Backend::Ifma) => "ntt-ifma",
            (true, Backend::Ifma256) => "ntt-ifma256",
        }
    }

    fn describe(&self) -> String {
        format!(
            "{}: NTT of 2^k or 3·2^k points, CRT (Garner); back end: {}; \
             transforms, pointwise products and recombination on {} helper(s) + caller{}",
            self.name(),
            self.backend.name(),
            self.helpers,
            if self.pool.pinned() { ", pinned" } else { "" }
        )
    }

    fn threads(&self) -> usize {
        1 + self.helpers
    }

    fn mul(&self, a: &Integer, b: &Integer) -> Integer {
        signed_product_with(self.backend, &self.pool, 1 + self.helpers, a, b)
    }
}
