//! The MULX/ADX backend: CIOS Montgomery products on 64-bit limbs, compiled for BMI2 and ADX
//! (`mulx` leaves the flags alone, so the product and carry chains interleave) and unrolled at
//! compile time for the limb counts of common moduli; other sizes run the same code with their
//! length known only at run time. Chosen at run time: every entry point is a
//! `#[target_feature]` function reached only after [`available`] said yes.
use super::portable::{Mont64, cios};
use super::select::{mask_from_bit, sub_masked};
use super::{Engine, chain_on, pow64};

/// Whether this CPU has BMI2 and ADX.
pub fn available() -> bool {
    std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")
}

/// The backend's state for one modulus: nothing beyond [`Mont64`]'s (the same limbs, k0 and
/// R²), so the context only records that the CPU was checked.
#[derive(Clone, Debug)]
pub struct Ctx {
    _checked: (),
}

impl Ctx {
    /// The context (the caller has checked [`available`]).
    pub fn new(_arith: &Mont64) -> Self {
        debug_assert!(available());
        Ctx { _checked: () }
    }

    /// `out = base^exp mod m` (see [`super::CtModulus::pow_limbs`]).
    pub fn pow(&self, arith: &Mont64, out: &mut [u64], base: &[u64], exp: &[u64], ebits: usize) {
        macro_rules! sized {
            ($($n:literal)*) => {
                match arith.limbs() {
                    $($n => pow64(&Fixed::<$n>::new(arith), arith, out, base, exp, ebits),)*
                    _ => pow64(&Dyn(arith), arith, out, base, exp, ebits),
                }
            };
        }
        sized!(8 12 16 24 32 48 64)
    }

    /// `count` squarings (see [`super::CtModulus::square_chain`]).
    pub fn chain(&self, arith: &Mont64, out: &mut [u64], x: &[u64], count: usize) {
        macro_rules! sized {
            ($($n:literal)*) => {
                match arith.limbs() {
                    $($n => chain_on(&Fixed::<$n>::new(arith), arith, out, x, count),)*
                    _ => chain_on(&Dyn(arith), arith, out, x, count),
                }
            };
        }
        sized!(8 12 16 24 32 48 64)
    }
}

/// A modulus of N limbs, with the products unrolled for N.
struct Fixed<const N: usize> {
    m: [u64; N],
    k0: u64,
}

impl<const N: usize> Fixed<N> {
    fn new(arith: &Mont64) -> Self {
        Fixed {
            m: arith.m().try_into().expect("N limbs"),
            k0: arith.k0(),
        }
    }
}

impl<const N: usize> Engine for Fixed<N> {
    const LANES: usize = 1;
    fn words(&self) -> usize {
        N
    }
    fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        let r: &mut [u64; N] = r.try_into().expect("N limbs");
        let a: &[u64; N] = a.try_into().expect("N limbs");
        let b: &[u64; N] = b.try_into().expect("N limbs");
        // SAFETY: a `Fixed` is built only for a `Ctx`, which exists only after `available()`
        // found BMI2 and ADX on this CPU.
        unsafe { mul_fixed(r, a, b, &self.m, self.k0) }
    }
}

#[target_feature(enable = "bmi2,adx")]
fn mul_fixed<const N: usize>(r: &mut [u64; N], a: &[u64; N], b: &[u64; N], m: &[u64; N], k0: u64) {
    let top = cios(r, a, b, m, k0);
    sub_masked(r, m, mask_from_bit(top));
}

/// Any other limb count, the length known at run time.
struct Dyn<'a>(&'a Mont64);

impl Engine for Dyn<'_> {
    const LANES: usize = 1;
    fn words(&self) -> usize {
        self.0.limbs()
    }
    fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        let n = self.0.limbs();
        assert!(
            r.len() == n && a.len() == n && b.len() == n,
            "mont mul sizes"
        );
        // SAFETY: as for `Fixed`: only reached through a `Ctx`.
        unsafe { mul_dyn(r, a, b, self.0.m(), self.0.k0()) }
    }
}

#[target_feature(enable = "bmi2,adx")]
fn mul_dyn(r: &mut [u64], a: &[u64], b: &[u64], m: &[u64], k0: u64) {
    let top = cios(r, a, b, m, k0);
    sub_masked(r, m, mask_from_bit(top));
}
