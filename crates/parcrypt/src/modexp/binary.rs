//! `binary`: left-to-right square-and-multiply, m-ary/Karatsuba's reference ("binary method").
//!
//! For a k-bit exponent: k - 1 squarings and (weight - 1) multiplications, so between k - 1
//! (e = 2^(k-1)) and 2(k - 1) (all ones) MulMods, 3(k - 1)/2 on average — CRSA's counts.
//! Variable-time.
use super::{ModExp, Outcome, Params, Ring};
use crate::error::Result;
use rug::Integer;

/// Left-to-right binary exponentiation.
pub struct Binary;

impl ModExp for Binary {
    fn name(&self) -> &'static str {
        "binary"
    }

    fn describe(&self) -> &'static str {
        "left-to-right square-and-multiply (the seeds' reference)"
    }

    fn pow_mod_normalized_vartime(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome> {
        let ring = Ring::new(modulus, params.kernel);
        let mut c = ring.counter("thread 0");
        let x = super::chain::binary(&mut c, &ring.enter(base), exp);
        Ok(Outcome {
            value: x.map_or_else(|| Integer::from(1), |x| ring.leave(&x)),
            counts: vec![c.count],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modexp::pow_mod_vartime;

    #[test]
    fn counts_match_the_formulas() {
        let m = Integer::from(1_000_003);
        let b = Integer::from(12345);
        // e = 2^9: 9 squarings, no multiplication (best case k - 1).
        let o = pow_mod_vartime(&Binary, &b, &Integer::from(512), &m, &Params::default()).unwrap();
        assert_eq!((o.counts[0].squarings, o.counts[0].multiplications), (9, 0));
        // e = 2^10 - 1: 9 squarings and 9 multiplications (worst case 2(k - 1)).
        let o = pow_mod_vartime(&Binary, &b, &Integer::from(1023), &m, &Params::default()).unwrap();
        assert_eq!(o.total_mulmods(), 18);
        assert_eq!(o.value, b.pow_mod(&Integer::from(1023), &m).unwrap());
    }
}
