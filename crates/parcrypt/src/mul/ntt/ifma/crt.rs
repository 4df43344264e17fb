//! Recombination for the four IFMA primes: Garner's mixed-radix digits (six products by
//! constants, Shoup's 64-bit form), then `t0 + p0·(t1 + p1·(t2 + p2·t3))` in four limbs
//! (any value below the primes' product, `< 2^200`).
use super::field::{ByConst, PRIMES};

/// Garner's constants for the IFMA [`PRIMES`].
#[derive(Clone, Copy, Debug)]
pub struct Garner {
    /// `inv[i][j] = p_j^(−1) mod p_i` for `j < i`.
    inv: [[ByConst; 4]; 4],
    /// The primes.
    p: [u64; 4],
}

impl Garner {
    /// The constants.
    pub fn new() -> Self {
        let p = PRIMES.map(|q| q.p);
        let inv = std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                let f = super::field::Field { p: p[i] };
                ByConst::new(p[i], if j < i { f.inv(p[j] % p[i]) } else { 0 })
            })
        });
        Self { inv, p }
    }

    /// The primes and, for `j < i`, `p_j^(−1) mod p_i` with its 52-bit Shoup companion (for
    /// the vector form of [`Garner::digits`], [`super::kernels::garner_limbs`]).
    pub fn constants(&self) -> ([u64; 4], [[(u64, u64); 4]; 4]) {
        let c = self
            .inv
            .map(|row| row.map(|b| (b.w, super::field::Field { p: b.p }.shoup52(b.w))));
        (self.p, c)
    }

    /// Garner's mixed-radix digits `t` of the value with residues `r` (each below its prime):
    /// `x = t0 + p0·(t1 + p1·(t2 + p2·t3))`, `t_i < p_i`.
    #[inline]
    pub fn digits(&self, r: [u64; 4]) -> [u64; 4] {
        let p = self.p;
        // t_i = ((r_i − t_0)·p_0^(−1) − t_1)·p_1^(−1) − … mod p_i; each t_j < p_j < 2·p_i, so
        // adding 2·p_i keeps the difference positive.
        let mut t = [0u64; 4];
        for i in 0..4 {
            let mut x = r[i];
            for (inv, tj) in self.inv[i].iter().zip(t).take(i) {
                x = inv.times(x + 2 * p[i] - tj);
            }
            t[i] = x;
        }
        t
    }

    /// `t0 + p0·(t1 + p1·(t2 + p2·t3))` (below `p0·p1·p2·p3 < 2^200`) as four limbs.
    #[inline]
    pub fn combine(&self, t: [u64; 4]) -> [u64; 4] {
        let [p0, p1, p2, _] = self.p.map(u128::from);
        // X = t3·p2 + t2 < 2^100; Y = X·p1 + t1 < 2^150; Z = Y·p0 + t0 < 2^200.
        let x = u128::from(t[3]) * p2 + u128::from(t[2]);
        let lo = (x as u64 as u128) * p1 + u128::from(t[1]);
        let mid = (lo >> 64) + (x >> 64) * p1;
        let y = [lo as u64, mid as u64, (mid >> 64) as u64];
        let z0 = u128::from(y[0]) * p0 + u128::from(t[0]);
        let z1 = u128::from(y[1]) * p0 + (z0 >> 64);
        let z2 = u128::from(y[2]) * p0 + (z1 >> 64);
        [z0 as u64, z1 as u64, z2 as u64, (z2 >> 64) as u64]
    }

    /// The coefficient `x < p0·p1·p2·p3` with residues `r` (each below its prime), as four
    /// limbs.
    #[inline]
    pub fn coefficient(&self, r: [u64; 4]) -> [u64; 4] {
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
    fn garner_inverts_the_four_residues() {
        let g = Garner::new();
        for x in [
            Integer::new(),
            Integer::from(1),
            Integer::from(u64::MAX) * u64::MAX,
            (Integer::from(1) << 185u32) - 1u32,
            (Integer::from(1) << 191u32) + 12345u32,
            Integer::from(0x1234_5678_9abc_def0u64) << 100u32,
            // Past 2^192 (wide digits): up to the primes' product less one.
            (Integer::from(u128::MAX) << 70u32) + 7u32,
            PRIMES
                .iter()
                .map(|q| Integer::from(q.p))
                .product::<Integer>()
                - 1u32,
        ] {
            let r = [0, 1, 2, 3].map(|i| (x.clone() % PRIMES[i].p).to_u64().unwrap());
            let got = Integer::from_digits(&g.coefficient(r), Order::Lsf);
            assert_eq!(got, x);
        }
    }
}
