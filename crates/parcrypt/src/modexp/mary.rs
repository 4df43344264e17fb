//! `mary`: left-to-right 2^r-ary exponentiation with a full table of base^0 .. base^(2^r - 1).
//!
//! k-bit exponent, L = ceil(k/r) digits: 2^r - 2 table multiplications, r(L - 1) squarings and
//! at most L - 1 digit multiplications. Variable-time (table index = secret digit).
use super::digits::{default_mary_window, digits, full_table, window_or};
use super::{ModExp, Outcome, Params, Ring};
use crate::error::Result;
use rug::Integer;

/// Sequential m-ary exponentiation.
pub struct Mary;

impl ModExp for Mary {
    fn name(&self) -> &'static str {
        "mary"
    }

    fn describe(&self) -> &'static str {
        "2^r-ary, left to right, full precomputed table (--window r)"
    }

    fn pow_mod_normalized_vartime(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome> {
        let r = window_or(params.window, exp.significant_bits(), default_mary_window)?;
        let ring = Ring::new(modulus, params.kernel);
        let mut c = ring.counter("thread 0");
        let ds = digits(exp, r);
        let Some((&top, rest)) = ds.split_last() else {
            return Ok(Outcome {
                value: Integer::from(1),
                counts: vec![c.count],
            });
        };
        let table = full_table(&ring.enter(base), r, &mut c);
        let mut x = table[top as usize].clone();
        for &d in rest.iter().rev() {
            for _ in 0..r {
                c.square(&mut x);
            }
            if d != 0 {
                c.mul(&mut x, &table[d as usize]);
            }
        }
        Ok(Outcome {
            value: ring.leave(&x),
            counts: vec![c.count],
        })
    }
}
