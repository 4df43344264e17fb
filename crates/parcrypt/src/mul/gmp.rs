//! `gmp`: GMP's own `mpz_mul`, the oracle every other method is checked against and the
//! baseline of every `vs_gmp` ratio.
//!
//! GMP picks its algorithm by size (schoolbook, Toom-2 … Toom-8, then FFT above a few thousand
//! limbs), so "GMP" is already a tuned multi-level Karatsuba/Toom multiplier; the seed's one
//! level of Karatsuba on top of it pays only where the halves can run in parallel.
use super::Multiplier;
use rug::Integer;

/// `a · b` by `mpz_mul`.
#[derive(Clone, Copy, Debug, Default)]
pub struct GmpMul;

impl Multiplier for GmpMul {
    fn name(&self) -> &'static str {
        "gmp"
    }

    fn describe(&self) -> String {
        "gmp: mpz_mul (schoolbook/Toom/FFT chosen by GMP), the reference".into()
    }

    fn mul(&self, a: &Integer, b: &Integer) -> Integer {
        Integer::from(a * b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiplies() {
        let a = Integer::from(-7) << 200;
        let b = Integer::from(3);
        assert_eq!(GmpMul.mul(&a, &b), Integer::from(-21) << 200);
        assert_eq!(GmpMul.threads(), 1);
        assert!(GmpMul.describe().starts_with("gmp:"));
    }
}
