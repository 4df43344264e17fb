//! The coordinator's share of a block: split `e = X·q + r` and compute `y = b^q` (handed to
//! PE 0, which the hypercube raises to `y^X`) and `z = b^r` (handed to PE 7, which multiplies
//! it in), both in one right-to-left binary pass that shares its squarings.
//!
//! This is the paper's "coordinator of the first operation" whose time "depends on e_o":
//! `e_o = q` has `k - log2 X` bits, so the coordinator does `(k - 1) - log2 X` squarings in
//! the best case, as Section 4 counts. The remainder `r` is our addition (the paper's count
//! silently assumes `X | e`); its multiplications are counted here and in PE 7.
use super::super::Counter;
use crate::error::{Error, Result};
use rug::Integer;

/// `e = X·q + r`, `0 <= r < X`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// The coordinator's exponent `e_o = e div X`.
    pub q: Integer,
    /// The remainder `e mod X`.
    pub r: u64,
}

/// Splits `exp` by the hypercube's power `x`. Errors: `x == 0`, negative exponent.
pub fn split(exp: &Integer, x: u64) -> Result<Split> {
    if x == 0 || *exp < 0 {
        return Err(Error::InvalidParameter(format!(
            "cannot split exponent {exp} by {x}"
        )));
    }
    let (q, r) = exp.clone().div_rem_euc(Integer::from(x));
    let r = r
        .to_u64()
        .ok_or_else(|| Error::InvalidParameter("remainder overflow".into()))?;
    Ok(Split { q, r })
}

/// `(b^q, b^r or None when r = 0)`, counted on `ctr`: one chain of squarings
/// `b, b^2, b^4, ...` as long as the longer of `q` and `r` needs, and the set bits of each
/// multiplied into its own accumulator (the first one copied, not multiplied).
pub fn powers(ctr: &mut Counter<'_>, base: &Integer, s: &Split) -> (Integer, Option<Integer>) {
    let bits = s.q.significant_bits().max(64 - s.r.leading_zeros());
    let mut square = base.clone();
    let mut y: Option<Integer> = None;
    let mut z: Option<Integer> = None;
    for i in 0..bits {
        if i > 0 {
            ctr.square(&mut square);
        }
        if s.q.get_bit(i) {
            fold(ctr, &mut y, &square);
        }
        if i < 64 && (s.r >> i) & 1 == 1 {
            fold(ctr, &mut z, &square);
        }
    }
    (y.unwrap_or_else(|| Integer::from(1)), z)
}

fn fold(ctr: &mut Counter<'_>, acc: &mut Option<Integer>, factor: &Integer) {
    match acc {
        Some(a) => ctr.mul(a, factor),
        None => *acc = Some(factor.clone()),
    }
}

/// (squarings, multiplications) that [`powers`] does for `s`, without doing them.
pub fn predicted(s: &Split) -> (u64, u64) {
    let bits = s.q.significant_bits().max(64 - s.r.leading_zeros());
    let sq = u64::from(bits.saturating_sub(1));
    let mul = u64::from(s.q.count_ones().unwrap_or(0).saturating_sub(1))
        + u64::from(s.r.count_ones().saturating_sub(1));
    (sq, mul)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_is_euclidean() {
        let s = split(&Integer::from(100), 42).unwrap();
        assert_eq!((s.q, s.r), (Integer::from(2), 16));
        let s = split(&Integer::from(0), 10).unwrap();
        assert_eq!((s.q, s.r), (Integer::from(0), 0));
        assert!(split(&Integer::from(5), 0).is_err());
        assert!(split(&Integer::from(-5), 10).is_err());
    }

    #[test]
    fn powers_are_right_and_counted_as_predicted() {
        let m = Integer::from(1_000_003);
        let b = Integer::from(12_345);
        for e in [0u64, 1, 9, 10, 11, 41, 42, 43, 1000, 65_537, 1 << 40] {
            for x in [10u64, 42, 120] {
                let s = split(&Integer::from(e), x).unwrap();
                let mut ctr = Counter::new("coordinator", &m);
                let (y, z) = powers(&mut ctr, &b, &s);
                assert_eq!(y, b.clone().pow_mod(&s.q, &m).unwrap(), "e={e} x={x}");
                let want_z = b.clone().pow_mod(&Integer::from(s.r), &m).unwrap();
                assert_eq!(z.is_none(), s.r == 0);
                assert_eq!(z.unwrap_or_else(|| Integer::from(1)), want_z);
                let p = predicted(&s);
                assert_eq!((ctr.count.squarings, ctr.count.multiplications), p, "e={e}");
            }
        }
    }

    #[test]
    fn best_case_matches_section_4() {
        // e = X·2^t: q = 2^t has t + 1 bits, so t squarings and no multiplication: with
        // k = bits(e) = t + bits(X) that is (k - 1) - (bits(X) - 1), i.e. (k - 1) - ⌊log2 X⌋.
        let x = 42u64;
        let e = Integer::from(x) << 1000;
        let s = split(&e, x).unwrap();
        assert_eq!(s.r, 0);
        let k = u64::from(e.significant_bits());
        assert_eq!(predicted(&s), ((k - 1) - 5, 0));
    }
}
