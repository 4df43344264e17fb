//! `montgomery`: our own Montgomery exponentiation — REDC (Montgomery 1985) with R = 2^(64·s)
//! for an s-limb odd modulus, left-to-right square-and-multiply in the Montgomery domain.
//!
//! REDC(T) = (T + ((T mod R)·n' mod R)·n) / R with n' = −n⁻¹ mod R, then one conditional
//! subtraction; mod R and /R are bit masks and shifts, so no division is done per
//! multiplication (GMP's `mpz_powm` uses the same idea in hand-written assembly). Each
//! Montgomery product counts as one MulMod; the conversions into and out of the domain are
//! counted too. Variable-time (the final subtraction and the exponent scan are not masked).
use super::{ModExp, Outcome, Params, UnitCount};
use crate::error::Result;
use rug::Integer;

/// A Montgomery context for one odd modulus.
#[derive(Clone, Debug)]
pub struct MontgomeryContext {
    n: Integer,
    r_bits: u32,
    n_prime: Integer,
    r2: Integer,
}

impl MontgomeryContext {
    /// A context for the odd modulus `n > 1` (returns `None` for an even or too small n).
    pub fn new(n: &Integer) -> Option<Self> {
        if n.is_even() || *n <= 1 {
            return None;
        }
        let r_bits = n.significant_bits().div_ceil(64) * 64;
        let r = Integer::from(1) << r_bits;
        let inv = Integer::from(n.invert_ref(&r)?);
        let n_prime = &r - inv;
        let r2 = Integer::from(&r * &r) % n;
        Some(Self {
            n: n.clone(),
            r_bits,
            n_prime,
            r2,
        })
    }

    /// REDC(t) for 0 <= t < n·R: t·R⁻¹ mod n.
    pub fn redc(&self, t: &Integer) -> Integer {
        let mut m = Integer::from(t.keep_bits_ref(self.r_bits));
        m *= &self.n_prime;
        m.keep_bits_mut(self.r_bits);
        m *= &self.n;
        m += t;
        m >>= self.r_bits;
        if m >= self.n {
            m -= &self.n;
        }
        m
    }

    /// a·b·R⁻¹ mod n for a, b in Montgomery form.
    pub fn mul(&self, a: &Integer, b: &Integer) -> Integer {
        self.redc(&Integer::from(a * b))
    }

    /// x·R mod n (into the domain).
    pub fn to_mont(&self, x: &Integer) -> Integer {
        self.mul(x, &self.r2)
    }

    /// x·R⁻¹ mod n (out of the domain).
    pub fn from_mont(&self, x: &Integer) -> Integer {
        self.redc(x)
    }
}

/// Montgomery-domain binary exponentiation.
pub struct Montgomery;

impl ModExp for Montgomery {
    fn name(&self) -> &'static str {
        "montgomery"
    }

    fn describe(&self) -> &'static str {
        "own Montgomery REDC, binary left to right (odd modulus)"
    }

    fn needs_odd_modulus(&self) -> bool {
        true
    }

    fn pow_mod_normalized_vartime(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        _params: &Params,
    ) -> Result<Outcome> {
        let ctx = MontgomeryContext::new(modulus).ok_or_else(|| {
            crate::Error::InvalidParameter("montgomery needs an odd modulus".into())
        })?;
        let mut count = UnitCount::new("thread 0");
        let bits = exp.significant_bits();
        if bits == 0 {
            return Ok(Outcome {
                value: Integer::from(1),
                counts: vec![count],
            });
        }
        let b = ctx.to_mont(base);
        count.multiplications += 1;
        let mut x = b.clone();
        for i in (0..bits - 1).rev() {
            x = ctx.mul(&x, &x);
            count.squarings += 1;
            if exp.get_bit(i) {
                x = ctx.mul(&x, &b);
                count.multiplications += 1;
            }
        }
        let value = ctx.from_mont(&x);
        count.multiplications += 1;
        Ok(Outcome {
            value,
            counts: vec![count],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redc_round_trips_and_multiplies() {
        let n = Integer::from(1_000_003);
        let ctx = MontgomeryContext::new(&n).unwrap();
        for (a, b) in [
            (0u32, 5u32),
            (1, 1),
            (999_999, 123_456),
            (1_000_002, 1_000_002),
        ] {
            let (a, b) = (Integer::from(a), Integer::from(b));
            let am = ctx.to_mont(&a);
            assert_eq!(ctx.from_mont(&am), a);
            let p = ctx.from_mont(&ctx.mul(&am, &ctx.to_mont(&b)));
            assert_eq!(p, Integer::from(&a * &b) % &n);
        }
        assert!(MontgomeryContext::new(&Integer::from(10)).is_none());
    }
}
