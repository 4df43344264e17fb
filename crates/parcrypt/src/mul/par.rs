//! `par-gmp` (beyond the seed): a parallel product that lets GMP multiply the pieces and picks
//! the split by size, on the persistent workers of [`crate::parallel::pool`].
//!
//! The seed's one-level Karatsuba leaves two of its three half products on one thread's
//! critical path: on two threads at best 2·2^(−α) ≈ 0.73 of GMP's time at GMP's local
//! exponent α ≈ 1.45 (16 to 64 kbit), and nothing from its FFT range on (α ≈ 1.1). What pays
//! instead, by the cost model GMP's own curve gives (`parcrypt bench mul` measures it):
//!
//! | operands | split | why |
//! |---|---|---|
//! | below [`PAR_MIN_LIMBS`] | none: `mpz_mul` | a hand-off (~0.1–0.5 µs) costs more than it saves |
//! | shorter ≤ ⅔ longer | the longer operand in `threads` pieces ([`toom::split_longer`]) | equal pieces, a linear sum |
//! | balanced, below [`CRT_MIN_LIMBS`] | Toom-3 top level, p(∞) cut in two ([`toom::toom3`]) | 5 products of n/3 cost ≈ one of n at α ≈ 1.45: the work splits ~evenly |
//! | from [`CRT_MIN_LIMBS`] (FFT range, α ≈ 1.1) | a·b mod B^N − 1 ‖ a·b mod B^N + 1 ([`crt::crt_product`]) | a Toom split would add work when α ≈ 1; the two residues are GMP's own halves |
//!
//! Signs and zero are handled here; the splits see magnitudes. Squares (`a` and `b` the same
//! value) use squarings in the Toom-3 split.
use super::{KaraConfig, Multiplier, crt, toom};
use crate::bignum::mpn::{self, Limb};
use crate::error::Result;
use crate::parallel::pool::{DEFAULT_SPIN, Pool};
use rug::Integer;

/// Below this many limbs in the shorter operand, `mpz_mul` alone (tuned on a 2-core EPYC).
pub const PAR_MIN_LIMBS: usize = 40;
/// From this many limbs in the product (`an + bn`), the B^N ± 1 split.
pub const CRT_MIN_LIMBS: usize = 3072;

/// `a·b` on up to `threads` threads of `pool` (caller included), choosing the split by size.
pub fn product(pool: &Pool, threads: usize, a: &Integer, b: &Integer) -> Integer {
    let square = std::ptr::eq(a, b) || a.as_limbs() == b.as_limbs();
    let (la, lb) = (a.as_limbs(), b.as_limbs());
    let (la, lb) = if la.len() >= lb.len() {
        (la, lb)
    } else {
        (lb, la)
    };
    if split_for(threads, la.len(), lb.len()) == Split::Gmp {
        return Integer::from(a * b);
    }
    let p = magnitude(pool, threads, la, lb, square);
    if (*a < 0) != (*b < 0) { -p } else { p }
}

/// Which split [`product`] uses for magnitudes of `an >= bn` limbs on `threads` threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// `mpz_mul` alone.
    Gmp,
    /// The longer operand in pieces.
    Longer,
    /// Toom-3 top level.
    Toom3,
    /// B^N − 1 and B^N + 1 residues.
    Crt,
}

/// The split for operands of `an >= bn` limbs.
pub fn split_for(threads: usize, an: usize, bn: usize) -> Split {
    if threads < 2 || bn < PAR_MIN_LIMBS {
        Split::Gmp
    } else if an + bn >= CRT_MIN_LIMBS && bn * 4 >= an {
        Split::Crt
    } else if bn <= 2 * an.div_ceil(3) {
        // b has no third Toom-3 piece: split the longer operand instead.
        Split::Longer
    } else {
        Split::Toom3
    }
}

fn magnitude(pool: &Pool, threads: usize, a: &[Limb], b: &[Limb], square: bool) -> Integer {
    match split_for(threads, a.len(), b.len()) {
        Split::Gmp => {
            let mut r = vec![0; a.len() + b.len()];
            mpn::mul(&mut r, a, b);
            mpn::to_integer(&r)
        }
        Split::Crt => crt::crt_product(pool, a, b),
        Split::Longer => toom::split_longer(pool, threads, a, b, threads),
        Split::Toom3 => toom::toom3(pool, threads, a, b, square),
    }
}

/// The `par-gmp` multiplier: its own pool of `helpers` persistent helpers.
pub struct ParGmp {
    pool: Pool,
    helpers: usize,
}

/// A `par-gmp` multiplier with `config.helpers` helpers (depth and threshold do not apply).
pub fn new(config: KaraConfig) -> Result<ParGmp> {
    Ok(ParGmp {
        pool: Pool::new(config.helpers, config.pin, DEFAULT_SPIN)?,
        helpers: config.helpers,
    })
}

impl Multiplier for ParGmp {
    fn name(&self) -> &'static str {
        "par-gmp"
    }

    fn describe(&self) -> String {
        format!(
            "par-gmp: GMP multiplies the pieces of a split chosen by size (longer-operand \
             split, Toom-3 top level, B^N±1 residues from {CRT_MIN_LIMBS} limbs); {} helper(s), \
             persistent, spinning {} µs then parking{}",
            self.helpers,
            self.pool.spin().as_micros(),
            if self.pool.pinned() { ", pinned" } else { "" }
        )
    }

    fn threads(&self) -> usize {
        1 + self.helpers
    }

    fn mul(&self, a: &Integer, b: &Integer) -> Integer {
        product(&self.pool, 1 + self.helpers, a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_follow_the_size_table() {
        assert_eq!(split_for(1, 5000, 5000), Split::Gmp);
        assert_eq!(split_for(2, 100, 10), Split::Gmp);
        assert_eq!(split_for(2, 512, 512), Split::Toom3);
        assert_eq!(split_for(2, 512, 200), Split::Longer);
        assert_eq!(split_for(2, 16384, 16384), Split::Crt);
        assert_eq!(split_for(2, 40000, 200), Split::Longer);
    }

    #[test]
    fn every_split_gives_the_signed_product() {
        let m = new(KaraConfig::default()).unwrap();
        for (x, y) in [
            (600u32, 600u32),
            (5000, 4000),
            (70_000, 70_000),
            (110_000, 100_000),
            (90_000, 3000),
        ] {
            let (a, b) = crate::mul::operands(x, u64::from(y));
            let b = b >> (x - y);
            for (sa, sb) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                let (a, b) = (Integer::from(&a * sa), Integer::from(&b * sb));
                assert_eq!(m.mul(&a, &b), Integer::from(&a * &b), "{x}x{y}");
            }
            assert_eq!(m.mul(&a, &a), Integer::from(a.square_ref()), "{x} squared");
        }
        assert_eq!(m.mul(&Integer::new(), &Integer::from(5)), 0);
        assert_eq!(m.threads(), 2);
        assert!(m.describe().starts_with("par-gmp"));
    }
}
