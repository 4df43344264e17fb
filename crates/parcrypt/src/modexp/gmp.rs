//! `gmp` and `gmp-sec`: GMP's own `mpz_powm` (windowed, Montgomery/REDC inside; the fastest
//! reference and the oracle of every test) and `mpz_powm_sec` (constant-time: its timing and
//! memory access do not depend on the exponent's bits; odd modulus only). GMP does not expose
//! its multiplication counts, so these report none.
use super::{ModExp, Outcome, Params};
use crate::error::Result;
use rug::Integer;

/// GMP `mpz_powm`. Variable-time.
pub struct Gmp;

/// GMP `mpz_powm_sec`. Constant-time in the exponent; odd modulus only.
pub struct GmpSec;

impl ModExp for Gmp {
    fn name(&self) -> &'static str {
        "gmp"
    }

    fn describe(&self) -> &'static str {
        "GMP mpz_powm (reference; variable-time)"
    }

    fn pow_mod_normalized_vartime(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        _params: &Params,
    ) -> Result<Outcome> {
        let value = Integer::from(base.pow_mod_ref(exp, modulus).expect("exp >= 0"));
        Ok(Outcome {
            value,
            counts: Vec::new(),
        })
    }
}

impl ModExp for GmpSec {
    fn name(&self) -> &'static str {
        "gmp-sec"
    }

    fn describe(&self) -> &'static str {
        "GMP mpz_powm_sec (constant-time; odd modulus)"
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
        // mpz_powm_sec requires a positive exponent; b^0 = 1 for m >= 2.
        let value = if *exp == 0 {
            Integer::from(1)
        } else {
            Integer::from(base.secure_pow_mod_ref(exp, modulus))
        };
        Ok(Outcome {
            value,
            counts: Vec::new(),
        })
    }
}
