//! Twiddle tables of one IFMA prime and transform shape, each value beside its 52-bit Shoup
//! companion and laid out so that every butterfly row reads consecutive words (one vector load
//! per lane group, no gathers): per level of the power-of-two blocks, forward and inverse, and
//! for the radix stage, forward and inverse.
use super::super::prime::Prime;
use super::super::transform::Shape;
use super::field::Field;

/// Constants and their Shoup companions `⌊w·2^52/p⌋`, in two parallel vectors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// The constants, below `p`.
    pub w: Vec<u64>,
    /// Their companions.
    pub q: Vec<u64>,
}

impl Pairs {
    fn with_capacity(n: usize) -> Self {
        Self {
            w: Vec::with_capacity(n),
            q: Vec::with_capacity(n),
        }
    }

    fn push(&mut self, f: Field, w: u64) {
        self.w.push(w);
        self.q.push(f.shoup52(w));
    }

    /// `base^j` for `j < count`.
    fn powers(f: Field, base: u64, count: usize) -> Self {
        let mut v = Self::with_capacity(count);
        let mut x = 1;
        for _ in 0..count {
            v.push(f, x);
            x = f.mul(x, base);
        }
        v
    }

    /// Per level of a power-of-two transform of `m` points with root `r` of order `m`: entry
    /// `h + j` is `ρ^j` for `j < h`, `ρ = r^(m/2h)` of order `2h` (`h = 1, 2, …, m/2`; entry 0
    /// unused).
    fn levels(f: Field, r: u64, m: usize) -> Self {
        let mut v = Self::with_capacity(m);
        v.push(f, 0);
        let mut h = 1;
        while h < m {
            let rho = f.pow(r, (m / (2 * h)) as u64);
            let mut x = 1;
            for _ in 0..h {
                v.push(f, x);
                x = f.mul(x, rho);
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// The prime.
    pub p: u64,
    /// `p^(−1) mod 2^52`.
    pub pinv: u64,
    /// `2^52 mod p` and its companion (digit reduction: `x = hi·2^52 + lo`).
    pub c52: (u64, u64),
    /// `ω = w^m` (a cube root of unity; radix 3 only) and its companion.
    pub omega: (u64, u64),
    /// `2^52/n mod p` and its companion: the Montgomery pointwise product times it is `x·y/n`.
    pub scale: (u64, u64),
    /// The blocks' forward levels, root `w^radix` (`Pairs::levels` layout).
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
        let f = Field { p: q.p };
        let (n, m, r) = (shape.points(), shape.m, shape.radix);
        let w = f.root(q.g, n as u64);
        let wi = f.inv(w);
        let pair = |x: u64| (x, f.shoup52(x));
        let c52 = ((1u128 << 52) % u128::from(q.p)) as u64;
        let second = |base: u64| {
            if r == 3 {
                Pairs::powers(f, f.mul(base, base), m)
            } else {
                Pairs::default()
            }
        };
        Self {
            p: q.p,
            pinv: f.pinv52(),
            c52: pair(c52),
            omega: pair(f.pow(w, m as u64)),
            scale: pair(f.mul(c52, f.inv(n as u64 % q.p))),
            fwd_levels: Pairs::levels(f, f.pow(w, r as u64), m),
            inv_levels: Pairs::levels(f, f.pow(wi, r as u64), m),
            fwd: [Pairs::powers(f, w, m), second(w)],
            inv: [Pairs::powers(f, wi, m), second(wi)],
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
