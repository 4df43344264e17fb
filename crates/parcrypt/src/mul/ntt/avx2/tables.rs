//! Twiddle tables of one AVX2 prime and transform shape: each constant as a centred `f64`
//! beside its companion `w/p` ([`super::field::centered`]), laid out so that every butterfly
//! row reads consecutive entries (one vector load per four lanes): per level of the
//! power-of-two blocks, forward and inverse, and for the radix stage, forward and inverse.
use super::super::prime::Prime;
use super::super::transform::Shape;
use super::field::{centered, inv, mul, pow, root};

/// Constants and their companions, in two parallel vectors.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pairs {
    /// The constants, centred (`|w| ≤ (p − 1)/2`).
    pub w: Vec<f64>,
    /// Their companions `w/p`.
    pub q: Vec<f64>,
}

impl Pairs {
    fn with_capacity(n: usize) -> Self {
        Self {
            w: Vec::with_capacity(n),
            q: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, p: u64, x: u64) {
        let (w, q) = centered(p, x);
        self.w.push(w);
        self.q.push(q);
    }

    /// `base^j` for `j < count`.
    fn powers(p: u64, base: u64, count: usize) -> Self {
        let mut v = Self::with_capacity(count);
        let mut x = 1;
        for _ in 0..count {
            v.push(p, x);
            x = mul(p, x, base);
        }
        v
    }

    /// Per level of a power-of-two transform of `m` points with root `r` of order `m`: entry
    /// `h + j` is `ρ^j` for `j < h`, `ρ = r^(m/2h)` of order `2h` (`h = 1, 2, …, m/2`; entry 0
    /// unused).
    fn levels(p: u64, r: u64, m: usize) -> Self {
        let mut v = Self::with_capacity(m);
        v.push(p, 0);
        let mut h = 1;
        while h < m {
            let rho = pow(p, r, (m / (2 * h)) as u64);
            let mut x = 1;
            for _ in 0..h {
                v.push(p, x);
                x = mul(p, x, rho);
            }
            h *= 2;
        }
        v
    }

    fn words(&self) -> usize {
        self.w.len() + self.q.len()
    }
}

/// Everything the kernels read for one prime and shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Tables {
    /// The prime.
    pub p: f64,
    /// `1/p`, rounded.
    pub pinv: f64,
    /// `2^32/p`, rounded (a digit's high half times 2^32, reduced).
    pub c32: f64,
    /// `ω = w^m` (a cube root of unity; radix 3 only) and its companion.
    pub omega: (f64, f64),
    /// `1/n mod p` and its companion (the pointwise product's scale).
    pub scale: (f64, f64),
    /// The blocks' forward levels, root `w^radix` (entry `h + j` is `ρ^j`, `ρ` of order `2h`).
    pub fwd_levels: Pairs,
    /// The blocks' inverse levels, root `w^(−radix)`.
    pub inv_levels: Pairs,
    /// The forward radix stage: `w^j` and (radix 3) `w^(2j)`, `j < m`.
    pub fwd: [Pairs; 2],
    /// The inverse radix stage: `w^(−j)` and (radix 3) `w^(−2j)`, `j < m`.
    pub inv: [Pairs; 2],
}

impl Tables {
    /// The tables of prime `q` for `shape` (its points must divide `q.p − 1`).
    pub fn new(q: Prime, shape: Shape) -> Self {
        let p = q.p;
        let (n, m, r) = (shape.points(), shape.m, shape.radix);
        let w = root(q, n as u64);
        let wi = inv(p, w);
        let second = |base: u64| {
            if r == 3 {
                Pairs::powers(p, mul(p, base, base), m)
            } else {
                Pairs::default()
            }
        };
        Self {
            p: p as f64,
            pinv: 1.0 / p as f64,
            c32: (1u64 << 32) as f64 / p as f64,
            omega: centered(p, pow(p, w, m as u64)),
            scale: centered(p, inv(p, n as u64 % p)),
            fwd_levels: Pairs::levels(p, pow(p, w, r as u64), m),
            inv_levels: Pairs::levels(p, pow(p, wi, r as u64), m),
            fwd: [Pairs::powers(p, w, m), second(w)],
            inv: [Pairs::powers(p, wi, m), second(wi)],
        }
    }

    /// The 64-bit words held.
    pub fn words(&self) -> usize {
        [
            &self.fwd_levels,
            &self.inv_levels,
            &self.fwd[0],
            &self.fwd[1],
            &self.inv[0],
            &self.inv[1],
        ]
        .iter()
        .map(|p| p.words())
        .sum()
    }
}
