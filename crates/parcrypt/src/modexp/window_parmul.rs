//! `window-parmul` (beyond the seeds): the sliding window of `sliding` with every MulMod on two
//! threads (the split Montgomery product of [`crate::hazmat::bignum::parmont`]).
//!
//! Every exponentiation strategy still does about k squarings one after another (a k-bit
//! exponent); schedules over the exponent (`slice`, the m-ary combs, `sqmul-pipeline`) can only
//! move multiplications off that chain, and GMP's windowed `mpz_powm` already has few of them
//! (k/(w+1) for w ≈ 8 at 8192 bits). Shortening each squaring is what is left: this is GMP's
//! own schedule (a sliding window over odd powers) on a product whose steps run on both cores.
//! Small or even moduli and one thread run `sliding`. Variable-time.
use super::binary_parmul::par_counter;
use super::chain;
use super::digits::{default_sliding_window, window_or};
use super::sliding::Sliding;
use super::{ModExp, Outcome, Params};
use crate::error::Result;
use crate::parallel::pool::Pool;
use rug::Integer;

/// Sliding-window exponentiation with two-thread modular products.
pub struct WindowParMul;

impl ModExp for WindowParMul {
    fn name(&self) -> &'static str {
        "window-parmul"
    }

    fn describe(&self) -> &'static str {
        "sliding window, every MulMod on two threads (split Montgomery product; large odd moduli)"
    }

    fn is_parallel(&self) -> bool {
        true
    }

    fn pow_mod_normalized_vartime(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome> {
        let w = window_or(
            params.window,
            exp.significant_bits(),
            default_sliding_window,
        )?;
        let pool = Pool::global(params.pin);
        let Some(mut c) = par_counter(modulus, params, pool).filter(|_| *exp >= 2) else {
            return Sliding.pow_mod_normalized_vartime(base, exp, modulus, params);
        };
        let held = c.par.enter(base);
        let x = chain::sliding(&mut c, &held, exp, w).expect("exp >= 2");
        Ok(Outcome {
            value: c.par.leave(&x),
            counts: vec![c.count],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modexp::pow_mod_vartime;

    #[test]
    fn counts_match_sliding_and_values_match_gmp() {
        let m: Integer = (Integer::from(1) << 4099) - 1u32;
        let b = Integer::from(7) << 3000;
        let e = (Integer::from(1) << 600) - 12345u32;
        for window in [None, Some(1), Some(4)] {
            let p = Params {
                threads: 2,
                window,
                ..Params::default()
            };
            let o = pow_mod_vartime(&WindowParMul, &b, &e, &m, &p).unwrap();
            assert_eq!(o.value, b.clone().pow_mod(&e, &m).unwrap());
            let seq = pow_mod_vartime(&Sliding, &b, &e, &m, &p).unwrap();
            assert_eq!(o.counts[0].squarings, seq.counts[0].squarings);
            assert_eq!(o.counts[0].multiplications, seq.counts[0].multiplications);
        }
    }
}
