//! `binary-rl`: right-to-left square-and-multiply. The squarings form a chain independent of
//! the accumulator, which is what `sqmul-pipeline` runs on a second thread. Variable-time.
use super::{ModExp, Outcome, Params, Ring};
use crate::error::Result;
use rug::Integer;

/// Right-to-left binary exponentiation.
pub struct BinaryRl;

impl ModExp for BinaryRl {
    fn name(&self) -> &'static str {
        "binary-rl"
    }

    fn describe(&self) -> &'static str {
        "right-to-left square-and-multiply"
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
        let bits = exp.significant_bits();
        let mut acc: Option<Integer> = None;
        let mut square = ring.enter(base);
        for i in 0..bits {
            if exp.get_bit(i) {
                match acc.as_mut() {
                    Some(a) => c.mul(a, &square),
                    None => acc = Some(square.clone()),
                }
            }
            if i + 1 < bits {
                c.square(&mut square);
            }
        }
        Ok(Outcome {
            value: acc.map_or_else(|| Integer::from(1), |a| ring.leave(&a)),
            counts: vec![c.count],
        })
    }
}
