//! Montgomery arithmetic on GMP's `mpn` layer: the modular product `mpz_powm` runs inside,
//! for the exponentiation strategies' counted MulMods.
//!
//! For an odd n-limb modulus m and R = B^n (B = 2^64), a value x is held as x·R mod m and the
//! product of two held values is REDC(x·y) = x·y·R⁻¹ mod m: one `mpn_mul` (or `mpn_sqr`) and
//! one reduction, with no division. The reduction is the one `mpz_powm` picks on this machine
//! (GMP 6.2 on Zen: `REDC_1_TO_REDC_N_THRESHOLD` = 68 limbs): `mpn_redc_1` (one limb at a
//! time, n² work) below [`REDC_N_MIN_LIMBS`], `mpn_redc_n` (a low-half product and a wrapped
//! product mod B^n − 1) from there on. So a strategy that does what `mpz_powm` does costs what
//! it costs: the remaining difference is the schedule.
//!
//! Held values are *semi-reduced*: below B^n, not necessarily below m (as in `mpz_powm`);
//! [`MontCtx::leave`] reduces fully. **Variable-time**: the final conditional subtraction of
//! REDC and of [`MontCtx::leave`] depend on the values (use `mpz_powm_sec` for secrets).
use super::mpn::{self, Limb};
use rug::Integer;

/// From this many limbs the product-based reduction (`mpn_redc_n`) replaces `mpn_redc_1`.
pub const REDC_N_MIN_LIMBS: usize = 68;

/// A Montgomery context for one odd modulus.
#[derive(Clone, Debug)]
pub struct MontCtx {
    m: Vec<Limb>,
    modulus: Integer,
    /// −m⁻¹ mod B (for `mpn_redc_1`).
    minv: Limb,
    /// m⁻¹ mod B^n (for `mpn_redc_n`; empty below [`REDC_N_MIN_LIMBS`]).
    ip: Vec<Limb>,
    /// R mod m: the held form of 1.
    one: Integer,
}

impl MontCtx {
    /// A context for the odd modulus `m > 1` (`None` for an even, zero, negative or unit m).
    pub fn new(m: &Integer) -> Option<Self> {
        if *m <= 1 || m.is_even() {
            return None;
        }
        let limbs = m.as_limbs().to_vec();
        let n = limbs.len();
        let mut inv = vec![0; n];
        mpn::binvert(&mut inv, &limbs);
        let minv = inv[0].wrapping_neg();
        let ip = if n >= REDC_N_MIN_LIMBS {
            inv
        } else {
            Vec::new()
        };
        let one = (Integer::from(1) << (n as u32 * Limb::BITS)) % m;
        Some(Self {
            m: limbs,
            modulus: m.clone(),
            minv,
            ip,
            one,
        })
    }

    /// Limbs of the modulus (n).
    pub fn limbs(&self) -> usize {
        self.m.len()
    }

    /// The modulus.
    pub fn modulus(&self) -> &Integer {
        &self.modulus
    }

    /// The modulus' limbs.
    pub fn m(&self) -> &[Limb] {
        &self.m
    }

    /// m⁻¹ mod B^n (computed for every size by [`MontCtx::new`] only from
    /// [`REDC_N_MIN_LIMBS`] on; the parallel product computes its own).
    pub fn ip(&self) -> &[Limb] {
        &self.ip
    }

    /// The held form of 1 (R mod m).
    pub fn one(&self) -> &Integer {
        &self.one
    }

    /// x (any integer) into the held form x·R mod m.
    pub fn enter(&self, x: &Integer) -> Integer {
        let mut v = Integer::from(x << (self.m.len() as u32 * Limb::BITS));
        v %= &self.modulus;
        if v < 0 {
            v += &self.modulus;
        }
        v
    }

    /// A held value back to the ordinary form, fully reduced into [0, m).
    pub fn leave(&self, x: &Integer) -> Integer {
        let n = self.m.len();
        let mut u = vec![0; 2 * n];
        let l = x.as_limbs();
        assert!(l.len() <= n, "held values are below B^n");
        u[..l.len()].copy_from_slice(l);
        let mut r = vec![0; n];
        self.redc(&mut r, &mut u);
        let mut v = mpn::to_integer(&r);
        if v >= self.modulus {
            v -= &self.modulus;
        }
        v
    }

    /// `r = u·R⁻¹ mod m`, semi-reduced (below B^n), for `u < B^2n` (2n limbs, clobbered).
    pub fn redc(&self, r: &mut [Limb], u: &mut [Limb]) {
        if self.ip.is_empty() {
            let carry = mpn::redc_1(r, u, &self.m, self.minv);
            if carry != 0 {
                // r + B^n is congruent and below B^n + m: subtracting m wraps into [0, B^n).
                mpn::sub_in(r, &self.m);
            }
        } else {
            mpn::redc_n(r, u, &self.m, &self.ip);
        }
    }

    /// `x = x·y·R⁻¹ mod m` for held values (`x` and `y` may be the same value: a squaring).
    /// `scratch` is reused between calls.
    pub fn mul_into(&self, x: &mut Integer, y: Option<&Integer>, scratch: &mut Vec<Limb>) {
        let n = self.m.len();
        scratch.resize(3 * n, 0);
        let (u, r) = scratch.split_at_mut(2 * n);
        let a = x.as_limbs();
        let len = match y {
            None if !a.is_empty() => {
                mpn::sqr(&mut u[..2 * a.len()], a);
                2 * a.len()
            }
            Some(y) if !a.is_empty() && !y.as_limbs().is_empty() => {
                let b = y.as_limbs();
                mpn::mul(&mut u[..a.len() + b.len()], a, b);
                a.len() + b.len()
            }
            _ => 0,
        };
        u[len..].fill(0);
        self.redc(r, u);
        mpn::set_integer(x, r);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn odd(bits: u32, seed: u64) -> Integer {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let mut m = crate::bignum::random_bits(&mut rng, bits);
        m.set_bit(bits - 1, true);
        m.set_bit(0, true);
        m
    }

    #[test]
    fn products_of_held_values_are_modular_products_on_both_reductions() {
        for bits in [3u32, 64, 65, 1000, 4352, 4353, 8192] {
            let m = odd(bits, u64::from(bits));
            let ctx = MontCtx::new(&m).unwrap();
            assert_eq!(ctx.ip().is_empty(), ctx.limbs() < REDC_N_MIN_LIMBS);
            let x = Integer::from(&m - 2u32);
            let y = Integer::from(&m >> 1);
            let mut hx = ctx.enter(&x);
            let hy = ctx.enter(&y);
            let mut scratch = Vec::new();
            ctx.mul_into(&mut hx, Some(&hy), &mut scratch);
            assert_eq!(ctx.leave(&hx), Integer::from(&x * &y) % &m, "{bits}");
            ctx.mul_into(&mut hx, None, &mut scratch);
            let want = (Integer::from(&x * &y) % &m).square() % &m;
            assert_eq!(ctx.leave(&hx), want, "{bits} squared");
            assert_eq!(ctx.leave(ctx.one()), 1);
            let mut zero = ctx.enter(&Integer::new());
            ctx.mul_into(&mut zero, Some(&hy), &mut scratch);
            assert_eq!(ctx.leave(&zero), 0);
        }
        assert!(MontCtx::new(&Integer::from(10)).is_none());
        assert!(MontCtx::new(&Integer::from(1)).is_none());
    }

    #[test]
    fn semi_reduced_values_stay_below_b_to_the_n() {
        // m just above B^n / 2: held values may exceed m but never B^n.
        let m = (Integer::from(1) << 4415) + 1u32;
        let ctx = MontCtx::new(&m).unwrap();
        let mut x = ctx.enter(&(Integer::from(&m - 1u32)));
        let mut scratch = Vec::new();
        for _ in 0..50 {
            ctx.mul_into(&mut x, None, &mut scratch);
            assert!(x.significant_bits() <= 64 * ctx.limbs() as u32);
        }
        // (−1)^(2^50) = 1
        assert_eq!(ctx.leave(&x), 1);
    }
}
