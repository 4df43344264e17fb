//! The arithmetic every counted MulMod runs on: a [`Ring`] (the modulus and how products are
//! reduced) and a per-unit [`Counter`] that multiplies through it, so the counts cannot drift
//! from the work.
//!
//! Two kernels ([`Kernel`]):
//! - `mpz`: `mpz_mul` then `mpz_tdiv_r` (a division per product) — the seeds' plain MulMod;
//! - `montgomery`: values held as x·R mod m and reduced by GMP's own REDC on the `mpn` layer
//!   ([`crate::hazmat::bignum::mont`]), the modular product `mpz_powm` uses (odd moduli only).
//!
//! A strategy enters its base into the ring, runs its schedule on held values and leaves the
//! ring at the end ([`Ring::enter`], [`Ring::leave`]); the held form of 1 is [`Ring::one`]. The
//! two conversions are not counted (one each per exponentiation, like the reduction of the
//! base that [`super::pow_mod_vartime`] does). **Variable-time** either way.
use super::UnitCount;
use crate::bignum::mont::MontCtx;
use crate::bignum::mpn::Limb;
use rug::Integer;
use serde::{Deserialize, Serialize};

/// How a strategy's modular products are computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kernel {
    /// Montgomery for odd moduli, `mpz` otherwise.
    #[default]
    Auto,
    /// `mpz_mul` + `mpz_tdiv_r`.
    Mpz,
    /// Montgomery REDC on GMP's `mpn` layer (falls back to `mpz` for an even modulus).
    Montgomery,
}

impl Kernel {
    /// The name the command line uses.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Auto => "auto",
            Kernel::Mpz => "mpz",
            Kernel::Montgomery => "montgomery",
        }
    }

    /// Parses a command-line name.
    pub fn parse(s: &str) -> Option<Self> {
        [Kernel::Auto, Kernel::Mpz, Kernel::Montgomery]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

/// A modulus with the kernel its products use.
#[derive(Clone, Debug)]
pub enum Ring {
    /// Ordinary residues, reduced by division.
    Mpz(Integer),
    /// Montgomery-held residues.
    Montgomery(MontCtx),
}

impl Ring {
    /// The ring of `modulus` (>= 2) with `kernel`.
    pub fn new(modulus: &Integer, kernel: Kernel) -> Self {
        match kernel {
            Kernel::Mpz => Ring::Mpz(modulus.clone()),
            Kernel::Auto | Kernel::Montgomery => {
                MontCtx::new(modulus).map_or_else(|| Ring::Mpz(modulus.clone()), Ring::Montgomery)
            }
        }
    }

    /// The kernel actually used (`mpz` or `montgomery`).
    pub fn kernel(&self) -> Kernel {
        match self {
            Ring::Mpz(_) => Kernel::Mpz,
            Ring::Montgomery(_) => Kernel::Montgomery,
        }
    }

    /// The modulus.
    pub fn modulus(&self) -> &Integer {
        match self {
            Ring::Mpz(m) => m,
            Ring::Montgomery(c) => c.modulus(),
        }
    }

    /// `x` (in `[0, m)`) in the ring's held form.
    pub fn enter(&self, x: &Integer) -> Integer {
        match self {
            Ring::Mpz(_) => x.clone(),
            Ring::Montgomery(c) => c.enter(x),
        }
    }

    /// A held value as an ordinary residue in `[0, m)`.
    pub fn leave(&self, x: &Integer) -> Integer {
        match self {
            Ring::Mpz(m) => Integer::from(x % m),
            Ring::Montgomery(c) => c.leave(x),
        }
    }

    /// The held form of 1.
    pub fn one(&self) -> Integer {
        match self {
            Ring::Mpz(_) => Integer::from(1),
            Ring::Montgomery(c) => c.one().clone(),
        }
    }

    /// A counter for `unit` multiplying in this ring.
    pub fn counter(&self, unit: impl Into<String>) -> Counter<'_> {
        Counter {
            ring: Arith::of(self),
            count: UnitCount::new(unit),
            scratch: Vec::new(),
        }
    }
}

#[derive(Clone, Copy, Debug)]
enum Arith<'m> {
    Mpz(&'m Integer),
    Montgomery(&'m MontCtx),
}

impl<'m> Arith<'m> {
    fn of(ring: &'m Ring) -> Self {
        match ring {
            Ring::Mpz(m) => Arith::Mpz(m),
            Ring::Montgomery(c) => Arith::Montgomery(c),
        }
    }
}

/// A counted modular multiplier for one unit (thread or PE): every strategy multiplies through
/// one of these.
#[derive(Debug)]
pub struct Counter<'m> {
    ring: Arith<'m>,
    /// The counts so far.
    pub count: UnitCount,
    scratch: Vec<Limb>,
}

impl<'m> Counter<'m> {
    /// A counter for `unit` reducing modulo `modulus` by division (the `mpz` kernel, ordinary
    /// residues: for code that works without a [`Ring`]).
    pub fn new(unit: impl Into<String>, modulus: &'m Integer) -> Self {
        Self {
            ring: Arith::Mpz(modulus),
            count: UnitCount::new(unit),
            scratch: Vec::new(),
        }
    }

    /// The held form of 1 in this counter's ring.
    pub fn one(&self) -> Integer {
        match self.ring {
            Arith::Mpz(_) => Integer::from(1),
            Arith::Montgomery(c) => c.one().clone(),
        }
    }

    /// x ← x² mod m (one squaring).
    pub fn square(&mut self, x: &mut Integer) {
        match self.ring {
            Arith::Mpz(m) => {
                x.square_mut();
                *x %= m;
            }
            Arith::Montgomery(c) => c.mul_into(x, None, &mut self.scratch),
        }
        self.count.squarings += 1;
    }

    /// x ← x·y mod m (one multiplication).
    pub fn mul(&mut self, x: &mut Integer, y: &Integer) {
        match self.ring {
            Arith::Mpz(m) => {
                *x *= y;
                *x %= m;
            }
            Arith::Montgomery(c) => c.mul_into(x, Some(y), &mut self.scratch),
        }
        self.count.multiplications += 1;
    }

    /// x·y mod m as a new value (one multiplication).
    pub fn product(&mut self, x: &Integer, y: &Integer) -> Integer {
        let mut p = x.clone();
        self.mul(&mut p, y);
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_kernels_agree_and_count_the_same() {
        let m = (Integer::from(1) << 1000) - 1u32 - (Integer::from(1) << 3); // odd
        let x = Integer::from(123_456_789u32) << 700;
        let y = (Integer::from(1) << 999) + 77u32;
        let mut results = Vec::new();
        for kernel in [Kernel::Mpz, Kernel::Montgomery, Kernel::Auto] {
            let ring = Ring::new(&m, kernel);
            let (hx, hy) = (ring.enter(&x), ring.enter(&y));
            let mut c = ring.counter("t");
            let mut v = c.product(&hx, &hy);
            c.square(&mut v);
            c.mul(&mut v, &ring.one());
            assert_eq!((c.count.squarings, c.count.multiplications), (1, 2));
            results.push(ring.leave(&v));
        }
        assert_eq!(results[0], (x * y % &m).square() % &m);
        assert!(results.iter().all(|r| *r == results[0]));
        assert_eq!(Ring::new(&m, Kernel::Auto).kernel(), Kernel::Montgomery);
        assert_eq!(
            Ring::new(&Integer::from(1000), Kernel::Montgomery).kernel(),
            Kernel::Mpz
        );
        assert_eq!(Kernel::parse("mpz"), Some(Kernel::Mpz));
        assert_eq!(Kernel::parse("fast"), None);
    }
}
