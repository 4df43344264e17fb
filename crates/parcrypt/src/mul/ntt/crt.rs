//! Recombination: the three residues of each product coefficient to its exact value (Garner,
//! three Montgomery products by constants), added into the result's limbs at the coefficient's
//! offset. Coefficients are below `p0·p1·p2 > 2^185` (the bound [`super::check_bound`]
//! enforces), so each takes three limbs and the running carry two.
use super::prime::{Field, PRIMES};

/// Garner's constants for [`PRIMES`] (Montgomery forms: `mont(x, c)` multiplies by the
/// constant).
#[derive(Clone, Copy, Debug)]
pub struct Garner {
    f: [Field; 3],
    /// `p0^(−1) mod p1`, Montgomery form.
    inv0_mod1: u64,
    /// `(p0·p1)^(−1) mod p2`, Montgomery form.
    inv01_mod2: u64,
    /// `p0 mod p2`, Montgomery form.
    p0_mod2: u64,
    /// `p0·p1`.
    p01: u128,
}

impl Garner {
    /// The constants for [`PRIMES`].
    pub fn new() -> Self {
        let f = PRIMES.map(|q| q.field());
        let [p0, p1, p2] = PRIMES.map(|q| q.p);
        let p0_2 = p0 % p2;
        Self {
            f,
            inv0_mod1: f[1].to_mont(f[1].inv(p0 % p1)),
            inv01_mod2: f[2].to_mont(f[2].inv(f[2].mul_slow(p0_2, p1 % p2))),
            p0_mod2: f[2].to_mont(p0_2),
            p01: u128::from(p0) * u128::from(p1),
        }
    }

    /// The coefficient `x < p0·p1·p2` with residues `r` (each below its prime), as three
    /// limbs, least significant first.
    #[inline]
    pub fn coefficient(&self, r: [u64; 3]) -> [u64; 3] {
        let [f0, f1, f2] = self.f;
        let t0 = r[0];
        // p2 < p1 < p0 < 2·p2: t0 mod p1 and mod p2 by one subtraction.
        let t0_1 = if t0 >= f1.p { t0 - f1.p } else { t0 };
        let t0_2 = if t0 >= f2.p { t0 - f2.p } else { t0 };
        let t1 = f1.mont(f1.sub(r[1], t0_1), self.inv0_mod1);
        let partial = f2.add(t0_2, f2.mont(t1, self.p0_mod2));
        let t2 = f2.mont(f2.sub(r[2], partial), self.inv01_mod2);
        // x = t0 + p0·t1 + p0·p1·t2.
        let low = u128::from(t0) + u128::from(f0.p) * u128::from(t1);
        let m0 = u128::from(self.p01 as u64) * u128::from(t2);
        let m1 = (self.p01 >> 64) * u128::from(t2);
        let (s, c) = low.overflowing_add(m0);
        let hi = m1 + (s >> 64) + (u128::from(c) << 64);
        [s as u64, hi as u64, (hi >> 64) as u64]
    }
}

impl Default for Garner {
    fn default() -> Self {
        Self::new()
    }
}

/// Writes coefficients `0 .. res[i].len()` (residue `res[i][k]` mod prime `i`) into `out`,
/// coefficient `k` at limb `k`, and zero carries past them; returns the carry out of `out`'s
/// end (below 2^128: it is at most the chunk's value over `2^(64·out.len())`).
pub fn recombine(g: &Garner, res: [&[u64]; 3], out: &mut [u64]) -> u128 {
    let coeffs = res[0].len().min(out.len());
    recombine_by(out, coeffs, |k| {
        g.coefficient([res[0][k], res[1][k], res[2][k]])
    })
}

/// Writes coefficients `coefficient(k)` for `k < coeffs` (each below 2^185, three limbs) into
/// `out`, coefficient `k` at limb `k`, and zero carries past them; returns the carry out of
/// `out`'s end (below 2^128). Any back end's recombination, given its Garner; `coefficient`
/// is called for `k = 0, 1, …` in order.
pub fn recombine_by(
    out: &mut [u64],
    coeffs: usize,
    mut coefficient: impl FnMut(usize) -> [u64; 3],
) -> u128 {
    let mut carry = 0u128;
    for (k, o) in out.iter_mut().enumerate() {
        let x = if k < coeffs { coefficient(k) } else { [0; 3] };
        let (s0, c0) = x[0].overflowing_add(carry as u64);
        let (s1, c1a) = x[1].overflowing_add((carry >> 64) as u64);
        let (s1, c1b) = s1.overflowing_add(u64::from(c0));
        // x[2] < 2^57 and the carry stays below 2^123: no overflow here.
        let s2 = x[2] + u64::from(c1a) + u64::from(c1b);
        *o = s0;
        carry = u128::from(s1) | (u128::from(s2) << 64);
    }
    carry
}

/// Adds `carry` at the start of `dst`, propagating; false if it does not fit.
pub fn add_carry(dst: &mut [u64], carry: u128) -> bool {
    let mut c = carry;
    for d in dst.iter_mut() {
        if c == 0 {
            return true;
        }
        let s = u128::from(*d) + (c & u128::from(u64::MAX));
        *d = s as u64;
        c = (c >> 64) + (s >> 64);
    }
    c == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use rug::Integer;
    use rug::integer::Order;

    #[test]
    fn garner_inverts_the_residues() {
        let g = Garner::new();
        let big: Integer = PRIMES.iter().map(|q| Integer::from(q.p)).product();
        assert!(big > (Integer::from(1) << 185u32));
        for x in [
            Integer::new(),
            Integer::from(1),
            big.clone() - 1u32,
            (big.clone() >> 3u32) + 12345u32,
            Integer::from(u64::MAX) * u64::MAX,
            (Integer::from(1) << 185u32) - 1u32,
        ] {
            let r = [0, 1, 2].map(|i| (x.clone() % PRIMES[i].p).to_u64().unwrap());
            let got = Integer::from_digits(&g.coefficient(r), Order::Lsf);
            assert_eq!(got, x);
        }
    }

    #[test]
    fn carries_propagate_and_overflow_is_refused() {
        let mut d = [u64::MAX, u64::MAX, 5];
        assert!(add_carry(&mut d, 1));
        assert_eq!(d, [0, 0, 6]);
        let mut d = [u64::MAX, u64::MAX];
        assert!(!add_carry(&mut d, 1));
        assert!(add_carry(&mut [], 0));
        assert!(!add_carry(&mut [], 1));
        let mut d = [1, 2, 3];
        assert!(add_carry(&mut d, (7u128 << 64) | 9));
        assert_eq!(d, [10, 9, 3]);
    }
}
