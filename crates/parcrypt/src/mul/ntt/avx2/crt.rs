//! Recombination for the three AVX2 primes: Garner's mixed-radix digits (three products by
//! constants: four coefficients at a time by [`super::kernels::garner_digits`], the rest
//! here by Shoup's 64-bit form), then `t0 + p0·(t1 + p1·t2)` in three limbs (any value below
//! the primes' product, `< 2^150`), added into the output limbs by the portable back end's
//! [`crate::mul::ntt::crt::recombine_by`].
use super::field::{ByConst, PRIMES, inv};

/// Garner's constants for the AVX2 [`PRIMES`].
#[derive(Clone, Copy, Debug)]
pub struct Garner {
    /// `inv[i][j] = p_j^(−1) mod p_i` for `j < i`.
    inv: [[ByConst; 3]; 3],
    /// The primes.
    p: [u64; 3],
}

impl Garner {
    /// The constants.
    pub fn new() -> Self {
        let p = PRIMES.map(|q| q.p);
        let inv = std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                ByConst::new(p[i], if j < i { inv(p[i], p[j] % p[i]) } else { 0 })
            })
        });
        Self { inv, p }
    }

    /// The primes and, for `j < i`, `p_j^(−1) mod p_i` (the vector form's constants,
    /// [`super::kernels::garner_digits`]).
    pub fn constants(&self) -> ([u64; 3], [[u64; 3]; 3]) {
        (self.p, self.inv.map(|row| row.map(|b| b.w)))
    }

    /// Garner's mixed-radix digits `t` of the value with residues `r` (each below its prime):
    /// `x = t0 + p0·(t1 + p1·t2)`, `t_i < p_i`.
    #[inline]
    pub fn digits(&self, r: [u64; 3]) -> [u64; 3] {
        let p = self.p;
        // t_i = ((r_i − t_0)·p_0^(−1) − t_1)·p_1^(−1) mod p_i; each t_j < p_j < 2·p_i, so adding
        // 2·p_i keeps the difference positive.
        let mut t = [0u64; 3];
        for i in 0..3 {
            let mut x = r[i];
            for (c, tj) in self.inv[i].iter().zip(t).take(i) {
                x = c.times(x + 2 * p[i] - tj);
            }
            t[i] = x;
        }
        t
    }

    /// `t0 + p0·(t1 + p1·t2)` (below `p0·p1·p2 < 2^150`) as three limbs.
    #[inline(always)]
    pub fn combine(&self, t: [u64; 3]) -> [u64; 3] {
        // X = t2·p1 + t1 < 2^100; X·p0 + t0 < 2^150.
        let [p0, p1, _] = self.p.map(u128::from);
        let x = u128::from(t[2]) * p1 + u128::from(t[1]);
        let lo = u128::from(x as u64) * p0 + u128::from(t[0]);
        let hi = (x >> 64) * p0 + (lo >> 64);
        [lo as u64, hi as u64, (hi >> 64) as u64]
    }

    /// The coefficient `x < p0·p1·p2` with residues `r` (each below its prime), as three
    /// limbs, least significant first.
    #[inline]
    pub fn coefficient(&self, r: [u64; 3]) -> [u64; 3] {
        self.combine(self.digits(r))
    }
}

impl Default for Garner {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::Integer;
    use rug::integer::Order;

    #[test]
    fn garner_inverts_the_three_residues() {
        let g = Garner::new();
        let big: Integer = PRIMES.iter().map(|q| Integer::from(q.p)).product();
        for x in [
            Integer::new(),
            Integer::from(1),
            Integer::from(u64::MAX) * u64::MAX,
            (Integer::from(1) << 149u32) - 1u32,
            Integer::from(u64::MAX) * u64::MAX * (1u64 << 21),
            Integer::from(0x1234_5678_9abc_def0u64) << 80u32,
            big.clone() - 1u32,
            big >> 1u32,
        ] {
            let r = [0, 1, 2].map(|i| (x.clone() % PRIMES[i].p).to_u64().unwrap());
            let got = Integer::from_digits(&g.coefficient(r), Order::Lsf);
            assert_eq!(got, x);
        }
    }
}
