//! `sliding`: left-to-right sliding-window exponentiation with odd powers only.
//!
//! Windows of at most w bits that start and end with a 1; zeros between windows cost one
//! squaring each. Table: base, base^3, ..., base^(2^w - 1) (2^(w-1) - 1 multiplications after
//! base^2). Variable-time.
use super::digits::{default_sliding_window, window_or};
use super::{ModExp, Outcome, Params, Ring};
use crate::error::Result;
use rug::Integer;

/// Sliding-window exponentiation.
pub struct Sliding;

impl ModExp for Sliding {
    fn name(&self) -> &'static str {
        "sliding"
    }

    fn describe(&self) -> &'static str {
        "sliding window over odd powers, left to right (--window w)"
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
        let ring = Ring::new(modulus, params.kernel);
        let mut c = ring.counter("thread 0");
        let x = super::chain::sliding(&mut c, &ring.enter(base), exp, w);
        Ok(Outcome {
            value: x.map_or_else(|| Integer::from(1), |x| ring.leave(&x)),
            counts: vec![c.count],
        })
    }
}
