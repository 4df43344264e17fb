//! `binary-parmul` (beyond the seeds): left-to-right square-and-multiply whose every product
//! runs on the lock-free parallel Karatsuba of [`crate::mul`] — the parallelism moves inside
//! each MulMod instead of splitting the exponent. The reduction stays GMP's `mpz_tdiv_r`.
//! Products of operands below [`PARMUL_THRESHOLD_BITS`] use GMP directly, since splitting them
//! costs more than it saves (see `parcrypt bench mul`); with one thread it is `binary`.
//! Variable-time.
use super::binary::Binary;
use super::{ModExp, Outcome, Params, UnitCount};
use crate::error::Result;
use crate::mul::{KaraConfig, multiplier};
use rug::Integer;

/// Operand size from which products are split over threads.
pub const PARMUL_THRESHOLD_BITS: u32 = 8192;

/// Binary exponentiation with parallel multiplications.
pub struct BinaryParMul;

impl ModExp for BinaryParMul {
    fn name(&self) -> &'static str {
        "binary-parmul"
    }

    fn describe(&self) -> &'static str {
        "binary, each product on lock-free parallel Karatsuba (large moduli)"
    }

    fn is_parallel(&self) -> bool {
        true
    }

    fn pow_mod_normalized(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome> {
        let bits = exp.significant_bits();
        if params.threads < 2 || modulus.significant_bits() < PARMUL_THRESHOLD_BITS || bits < 2 {
            return Binary.pow_mod_normalized(base, exp, modulus, params);
        }
        let config = KaraConfig {
            threshold_bits: PARMUL_THRESHOLD_BITS,
            pin: params.pin,
            ..KaraConfig::default()
        }
        .with_threads(params.threads.min(crate::mul::MAX_HELPERS + 1))?;
        let mul = multiplier("kara-lockfree", &config)?;
        let mut count = UnitCount::new(format!(
            "{} threads",
            params.threads.min(crate::mul::MAX_HELPERS + 1)
        ));
        let mut x = base.clone();
        for i in (0..bits - 1).rev() {
            x = mul.mul(&x, &x);
            x %= modulus;
            count.squarings += 1;
            if exp.get_bit(i) {
                x = mul.mul(&x, base);
                x %= modulus;
                count.multiplications += 1;
            }
        }
        Ok(Outcome {
            value: x,
            counts: vec![count],
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modexp::pow_mod;

    #[test]
    fn large_moduli_split_products_and_stay_exact() {
        let mut m: Integer = (Integer::from(1) << 9000) - 1u32;
        m.set_bit(0, true);
        let b = Integer::from(3) << 4000;
        let e = Integer::from(0b1011_0110_1111u32);
        for threads in [1, 2, 3, 4] {
            let p = Params {
                threads,
                ..Params::default()
            };
            let o = pow_mod(&BinaryParMul, &b, &e, &m, &p).unwrap();
            assert_eq!(
                o.value,
                b.clone().pow_mod(&e, &m).unwrap(),
                "{threads} threads"
            );
        }
    }
}
