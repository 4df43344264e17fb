//! A Montgomery product on two threads, for exponentiation schedules whose every MulMod is
//! parallel (`binary-parmul`, `window-parmul`): each of REDC's dependent steps is split in two
//! and run by the caller and one persistent helper of a [`Pool`].
//!
//! GMP's modular squaring at n limbs (n ≥ 68 on this machine) is `a²` (~0.62 of an n-limb
//! product M), then `q = (a² mod B^n)·m⁻¹ mod B^n` (a low-half product, ~0.8 M) and the high
//! half of `q·m` (a product mod B^rn − 1, ~0.55 M): ~2 M in a chain, so a schedule over the
//! exponent cannot shorten it; splitting each step can:
//!
//! | step | caller | helper |
//! |---|---|---|
//! | 1. `t = a²` (a = a1·B^h + a0) | `a0²`, `a1²` | `a0·a1` (added twice at B^h) |
//! | 1'. `t = a·b` | `a·b0` | `a·b1` (at B^h) |
//! | 2. `q = t mod B^n · m⁻¹ mod B^n` (split at g ≈ 0.6 n) | `t0·i0` (g × g, whole) | `lo(t1·i0) + lo(t0·i1)` (n − g limbs) |
//! | 3. `q·m mod B^rn − 1`, rn = 2h | `q·m mod B^h + 1` | `q·m mod B^h − 1` |
//!
//! and then `r = t_hi − (q·m)_hi (+ m)`: REDC with the inverse m⁻¹ (not −m⁻¹), as GMP's
//! `mpn_redc_n`. Step 3's wrapped product is recombined from its two residues ([`wrap`]).
//!
//! Values are n-limb, semi-reduced (below B^n) Montgomery residues as in [`super::mont`].
//! **Variable-time** (the final correction depends on the values).
use super::mont::MontCtx;
use super::mpn::{self, Limb};
use super::wrap;
use crate::parallel::pool::Pool;
use rug::Integer;

/// Below this many limbs the two-thread product does not pay (hand-offs cost more).
pub const PARMONT_MIN_LIMBS: usize = 24;

/// Buffers and constants of the two-thread Montgomery product for one modulus.
#[derive(Debug)]
pub struct ParMont<'p> {
    ctx: MontCtx,
    pool: &'p Pool,
    /// 2: the caller and one helper; 1: both halves of every step on the caller (the same
    /// arithmetic, for measuring what the split itself costs).
    threads: usize,
    n: usize,
    /// m⁻¹ mod B^n.
    ip: Vec<Limb>,
    /// Split of step 1 (low part's limbs).
    h: usize,
    /// Split of step 2.
    g: usize,
    /// Size of the wrapped product of step 3.
    rn: usize,
    t: Vec<Limb>,
    side: Vec<Limb>,
    q: Vec<Limb>,
    y: Vec<Limb>,
    scratch: Vec<Limb>,
    /// Step 3 split in halves of h = rn/2 limbs (None: rn odd or too small to split).
    halves: Option<Halves>,
}

/// The buffers of step 3's two residues (see [`wrap`]).
#[derive(Debug)]
struct Halves {
    /// m mod (B^h − 1) and m mod (B^h + 1).
    m_minus: Vec<Limb>,
    m_plus: Vec<Limb>,
    q_minus: Vec<Limb>,
    q_plus: Vec<Limb>,
    x_minus: Vec<Limb>,
    x_plus: Vec<Limb>,
    plus_scratch: Vec<Limb>,
}

impl Halves {
    fn new(m: &[Limb], rn: usize) -> Option<Self> {
        let h = rn / 2;
        if rn % 2 != 0 || h < 8 {
            return None;
        }
        let (mut m_minus, mut m_plus) = (vec![0; h], vec![0; h + 1]);
        wrap::fold_minus(&mut m_minus, m);
        wrap::fold_plus(&mut m_plus, m);
        Some(Self {
            m_minus,
            m_plus,
            q_minus: vec![0; h],
            q_plus: vec![0; h + 1],
            x_minus: vec![0; h],
            x_plus: vec![0; h + 1],
            plus_scratch: vec![0; 2 * h + 2],
        })
    }
}

impl<'p> ParMont<'p> {
    /// The product for the odd modulus `m > 1` of at least two limbs on `pool`'s caller and
    /// one helper (`None` for an even, unit or one-limb modulus).
    pub fn new(m: &Integer, pool: &'p Pool) -> Option<Self> {
        Self::with_threads(m, pool, 2)
    }

    /// As [`ParMont::new`] on `threads` (1 or 2) threads.
    pub fn with_threads(m: &Integer, pool: &'p Pool, threads: usize) -> Option<Self> {
        let ctx = MontCtx::new(m)?;
        let n = ctx.limbs();
        if n < 2 {
            return None;
        }
        let mut ip = vec![0; n];
        mpn::binvert(&mut ip, ctx.m());
        let rn = mpn::mulmod_bnm1_next_size(n);
        Some(Self {
            n,
            ip,
            h: n / 2,
            g: (n * 11).div_ceil(20).max(n.div_ceil(2)).min(n - 1),
            rn,
            t: vec![0; 2 * n],
            side: vec![0; 2 * n],
            q: vec![0; 2 * n],
            y: vec![0; 2 * n.max(rn)],
            scratch: Vec::new(),
            halves: Halves::new(ctx.m(), rn),
            ctx,
            pool,
            threads: threads.clamp(1, 2),
        })
    }

    /// The sequential context (conversions in and out of the held form).
    pub fn ctx(&self) -> &MontCtx {
        &self.ctx
    }

    /// Limbs per held value.
    pub fn limbs(&self) -> usize {
        self.n
    }

    /// `x` (any integer) as an n-limb held value.
    pub fn enter(&self, x: &Integer) -> Vec<Limb> {
        mpn::padded(&self.ctx.enter(x), self.n)
    }

    /// A held value back to an ordinary residue in [0, m).
    pub fn leave(&self, x: &[Limb]) -> Integer {
        self.ctx.leave(&mpn::to_integer(x))
    }

    /// `x = x²·R⁻¹ mod m`.
    pub fn square(&mut self, x: &mut [Limb]) {
        assert_eq!(x.len(), self.n, "held values have n limbs");
        let (n, h) = (self.n, self.h);
        let (a0, a1) = x.split_at(h);
        let (t, side) = (&mut self.t, &mut self.side);
        let (t_lo, t_hi) = t.split_at_mut(2 * h);
        let cross = &mut side[..n];
        join(
            self.pool,
            self.threads,
            || {
                mpn::sqr(t_lo, a0);
                mpn::sqr(t_hi, a1);
            },
            || mpn::mul(cross, a1, a0),
        );
        // t += 2·a0·a1·B^h
        let top = mpn::lshift_in(cross, 1);
        let carry = mpn::add_in(&mut t[h..], cross);
        debug_assert_eq!(carry, 0);
        mpn::incr(&mut t[h + n..], top);
        self.reduce(x);
    }

    /// `x = x·y·R⁻¹ mod m` (`y` another held value).
    pub fn mul(&mut self, x: &mut [Limb], y: &[Limb]) {
        assert!(
            x.len() == self.n && y.len() == self.n,
            "held values have n limbs"
        );
        let (n, h) = (self.n, self.h);
        let (b0, b1) = y.split_at(h);
        let (t, side) = (&mut self.t, &mut self.side);
        let lo = &mut t[..n + h];
        let hi = &mut side[..2 * n - h];
        let a: &[Limb] = x;
        join(
            self.pool,
            self.threads,
            || mpn::mul(lo, a, b0),
            || mpn::mul(hi, a, b1),
        );
        t[n + h..].fill(0);
        let carry = mpn::add_in(&mut t[h..], &side[..2 * n - h]);
        debug_assert_eq!(carry, 0);
        self.reduce(x);
    }

    /// `r = t·R⁻¹ mod m` (semi-reduced) from the 2n-limb product in `self.t`.
    fn reduce(&mut self, r: &mut [Limb]) {
        let (n, g) = (self.n, self.g);
        let w = n - g;
        // Step 2: q = lo_n(t_lo · ip), split at g.
        {
            let (t0, t1) = self.t[..n].split_at(g);
            let (i0, i1) = self.ip.split_at(g);
            let whole = &mut self.q[..2 * g];
            let (part, rest) = self.side.split_at_mut(w);
            let other = &mut rest[..w];
            join(
                self.pool,
                self.threads,
                || mpn::mul(whole, t0, i0),
                || {
                    mpn::mullo(part, t1, &i0[..w]);
                    mpn::mullo(other, &t0[..w], i1);
                    mpn::add_in(part, other);
                },
            );
            mpn::add_in(&mut self.q[g..n], &self.side[..w]);
        }
        // Step 3: y = q·m mod (B^rn − 1), unwrapped with the known low limbs of q·m (= t mod
        // B^n, since q·m ≡ t there).
        let (rn, l) = (self.rn, 2 * n - self.rn);
        let q = &self.q[..n];
        match self.halves.as_mut() {
            Some(hv) => {
                let scratch = &mut self.scratch;
                let Halves {
                    m_minus,
                    m_plus,
                    q_minus,
                    q_plus,
                    x_minus,
                    x_plus,
                    plus_scratch,
                } = hv;
                join(
                    self.pool,
                    self.threads,
                    || {
                        wrap::fold_plus(q_plus, q);
                        wrap::mul_plus(x_plus, q_plus, m_plus, plus_scratch);
                    },
                    || {
                        wrap::fold_minus(q_minus, q);
                        mpn::mulmod_bnm1(x_minus, q_minus, m_minus, scratch);
                    },
                );
                wrap::recombine(&mut self.y[..rn], x_minus, x_plus);
            }
            None => mpn::mulmod_bnm1(&mut self.y[..rn], q, self.ctx.m(), &mut self.scratch),
        }
        let (y_lo, y_top) = self.y.split_at_mut(rn);
        let borrow = {
            let d = &mut y_top[..l];
            d.copy_from_slice(&y_lo[..l]);
            mpn::sub_in(d, &self.t[..l])
        };
        // q·m = [y | d] − borrow·B^l, in 2n limbs; its high half is limbs n..2n.
        mpn::decr(&mut self.y[l..2 * n], borrow);
        r.copy_from_slice(&self.t[n..2 * n]);
        if mpn::sub_in(r, &self.y[n..2 * n]) != 0 {
            mpn::add_in(r, self.ctx.m());
        }
    }
}

/// `(a(), b())` on the pool, or one after the other for one thread.
fn join<A: Send, B: Send>(
    pool: &Pool,
    threads: usize,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if threads < 2 {
        (a(), b())
    } else {
        pool.join(a, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn two_thread_products_equal_modular_products() {
        let pool = Pool::new(1, false, std::time::Duration::from_micros(100)).unwrap();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        for bits in [128u32, 129, 1000, 2048, 4353, 8192, 16384] {
            let mut m = crate::bignum::random_bits(&mut rng, bits);
            m.set_bit(bits - 1, true);
            m.set_bit(0, true);
            let mut p = ParMont::new(&m, &pool).unwrap();
            let (x, y) = (
                crate::bignum::random_below(&mut rng, &m),
                crate::bignum::random_below(&mut rng, &m),
            );
            let mut hx = p.enter(&x);
            let hy = p.enter(&y);
            let mut want = x.clone();
            for i in 0..20 {
                if i % 3 == 0 {
                    p.mul(&mut hx, &hy);
                    want = want * &y % &m;
                } else {
                    p.square(&mut hx);
                    want = want.square() % &m;
                }
                assert_eq!(p.leave(&hx), want, "{bits} bits, step {i}");
            }
        }
        assert!(
            ParMont::new(&Integer::from(1_000_003), &pool).is_none(),
            "one limb"
        );
    }

    #[test]
    fn extreme_values_reduce_correctly() {
        let pool = Pool::new(1, false, std::time::Duration::ZERO).unwrap();
        // m just above B^n / 2 lets held values exceed m; all-ones values stress the carries.
        let m = (Integer::from(1) << 4095) + 3u32;
        let mut p = ParMont::new(&m, &pool).unwrap();
        let mut x = vec![Limb::MAX; p.limbs()];
        let start = mpn::to_integer(&x);
        let mut want = p.leave(&x);
        let r_inv = Integer::from(1) << (64 * p.limbs() as u32);
        let r_inv = r_inv.invert(&m).unwrap();
        assert_eq!(want, Integer::from(&start * &r_inv) % &m);
        for _ in 0..30 {
            p.square(&mut x);
            want = want.square() % &m;
            assert_eq!(p.leave(&x), want);
        }
    }
}
