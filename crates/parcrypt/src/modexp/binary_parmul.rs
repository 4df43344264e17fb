//! `binary-parmul` (beyond the seeds): left-to-right square-and-multiply whose every MulMod
//! runs on two threads — the parallelism moves inside each modular product instead of
//! splitting the exponent. The product is the two-thread Montgomery product of
//! [`crate::hazmat::bignum::parmont`] (each REDC step split between the caller and a persistent
//! helper). Moduli below [`PARMUL_THRESHOLD_BITS`] or even ones, one thread, or an exponent
//! below 2 run `binary` instead. Variable-time.
use super::binary::Binary;
use super::chain::{self, ParCounter};
use super::{ModExp, Outcome, Params, UnitCount};
use crate::bignum::mpn::LIMB_BITS;
use crate::bignum::parmont::{PARMONT_MIN_LIMBS, ParMont};
use crate::error::Result;
use crate::parallel::pool::Pool;
use rug::Integer;

/// Modulus size from which products are split over two threads.
pub const PARMUL_THRESHOLD_BITS: u32 = PARMONT_MIN_LIMBS as u32 * LIMB_BITS;

/// The two-thread counted product for `modulus` on the global pool, or `None` when the
/// parallel product does not apply (fewer than 2 threads, small or even modulus).
pub fn par_counter<'p>(
    modulus: &Integer,
    params: &Params,
    pool: &'p Pool,
) -> Option<ParCounter<'p>> {
    if params.threads < 2 || modulus.significant_bits() < PARMUL_THRESHOLD_BITS {
        return None;
    }
    Some(ParCounter {
        par: ParMont::new(modulus, pool)?,
        count: UnitCount::new("2 threads"),
    })
}

/// Binary exponentiation with two-thread modular products.
pub struct BinaryParMul;

impl ModExp for BinaryParMul {
    fn name(&self) -> &'static str {
        "binary-parmul"
    }

    fn describe(&self) -> &'static str {
        "binary, every MulMod on two threads (split Montgomery product; large odd moduli)"
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
        let pool = Pool::global(params.pin);
        let Some(mut c) = par_counter(modulus, params, pool).filter(|_| *exp >= 2) else {
            return Binary.pow_mod_normalized_vartime(base, exp, modulus, params);
        };
        let held = c.par.enter(base);
        let x = chain::binary(&mut c, &held, exp).expect("exp >= 2");
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
    fn large_moduli_split_products_and_count_like_binary() {
        let mut m: Integer = (Integer::from(1) << 9000) - 1u32;
        m.set_bit(0, true);
        let b = Integer::from(3) << 4000;
        let e = Integer::from(0b1011_0110_1111u32);
        for threads in [1, 2, 3, 4] {
            let p = Params {
                threads,
                ..Params::default()
            };
            let o = pow_mod_vartime(&BinaryParMul, &b, &e, &m, &p).unwrap();
            assert_eq!(
                o.value,
                b.clone().pow_mod(&e, &m).unwrap(),
                "{threads} threads"
            );
            let seq = pow_mod_vartime(&Binary, &b, &e, &m, &p).unwrap();
            assert_eq!(o.total_mulmods(), seq.total_mulmods());
            assert_eq!(
                o.counts[0].unit,
                if threads > 1 { "2 threads" } else { "thread 0" }
            );
        }
    }
}
