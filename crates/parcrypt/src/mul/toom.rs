//! Two parallel top levels over GMP's own products, for operands below GMP's FFT range: a
//! Toom-3 split of balanced operands and a plain split of the longer operand of unbalanced
//! ones. Each is a list of independent *jobs* (evaluate, then one `mpz_mul`), dealt to the
//! caller and the helpers of a [`Pool`] region by dynamic self-scheduling, and a sequential
//! recombination.
//!
//! **Toom-3** (operands of n limbs, pieces of s = ⌈n/3⌉ limbs, X = B^s):
//! `a(x) = a0 + a1·x + a2·x²`, likewise b; the product's five coefficients come from its values
//! at 0, 1, −1, −2 and ∞ by Bodrato's interpolation sequence:
//!
//! ```text
//! r0 = p(0)   r4 = p(∞)   r3 = (p(−2) − p(1)) / 3   r1 = (p(1) − p(−1)) / 2   r2 = p(−1) − r0
//! r3 = (r2 − r3) / 2 + 2·r4   r2 = r2 + r1 − r4   r1 = r1 − r3
//! a·b = r0 + r1·X + r2·X² + r3·X³ + r4·X⁴
//! ```
//!
//! Five products of n/3 limbs cost about 5·3^(−α) = 1.0 of GMP's n-limb product at GMP's local
//! exponent α ≈ 1.45 (its Toom-6/8 range), so the split itself is nearly free; on two threads
//! an odd count would leave 3 of 5 products on one thread, so p(∞) = a2·b2 is cut once more
//! by b2's halves (two n/3 × n/6 products, about 0.66 of an n/3 product each): each thread
//! then does about 2.7 of 5 — 1.8× at best, before recombination and hand-off. Squares use
//! five squarings (3 : 2 on two threads, each squaring ~0.65 of a product).
//!
//! **Operand split**: `a = Σ a_i·B^(i·t)`, jobs `a_i·b`, added at their offsets.
use super::crt::add_at;
use crate::bignum::mpn::{self, Limb};
use crate::parallel::pool::{Pool, TakeOnce};
use rug::ops::NegAssign;
use rug::{Assign, Integer};
use std::cell::RefCell;

/// One job's integers: two evaluated operands and their product. Kept between calls (per
/// calling thread) so the hot path allocates nothing: on the `parcrypt` binary every freed
/// GMP block is wiped, and a dozen temporaries per product cost more than the split saves.
#[derive(Debug, Default)]
pub(super) struct Slot {
    pub(super) x: Integer,
    pub(super) y: Integer,
    pub(super) p: Integer,
    /// A spare temporary.
    pub(super) u: Integer,
}

thread_local! {
    static SLOTS: RefCell<Vec<Slot>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with `n` slots taken from this thread's cache (grown if needed), then puts them
/// back.
pub(super) fn with_slots<R>(n: usize, f: impl FnOnce(Vec<Slot>) -> (Vec<Slot>, R)) -> R {
    let mut slots = SLOTS.with(|c| std::mem::take(&mut *c.borrow_mut()));
    slots.resize_with(slots.len().max(n), Slot::default);
    let rest = slots.split_off(n);
    let (mut back, r) = f(slots);
    back.extend(rest);
    SLOTS.with(|c| *c.borrow_mut() = back);
    r
}

/// `x = limbs[lo..hi]` (empty beyond the end), reusing x's allocation.
pub(super) fn set_piece(x: &mut Integer, l: &[Limb], lo: usize, hi: usize) {
    let (lo, hi) = (lo.min(l.len()), hi.min(l.len()));
    mpn::set_integer(x, &l[lo..hi]);
}

/// `out = x0 + x1·p + x2·p²` for p = 1, −1 or −2 (the pieces of one operand, as limbs).
fn eval(out: &mut Integer, tmp: &mut Integer, x: [&[Limb]; 3], point: i32) {
    set_piece(out, x[0], 0, x[0].len());
    set_piece(tmp, x[2], 0, x[2].len());
    if point == -2 {
        // x0 + 4·x2 − 2·x1
        *tmp <<= 2;
        *out += &*tmp;
        set_piece(tmp, x[1], 0, x[1].len());
        *tmp <<= 1;
        *out -= &*tmp;
    } else {
        *out += &*tmp;
        set_piece(tmp, x[1], 0, x[1].len());
        if point == 1 {
            *out += &*tmp;
        } else {
            *out -= &*tmp;
        }
    }
}

/// The pieces `[..s]`, `[s..2s]`, `[2s..]` of `l` (`l.len() > 2s`).
fn thirds(l: &[Limb], s: usize) -> [&[Limb]; 3] {
    [&l[..s], &l[s..2 * s], &l[2 * s..]]
}

/// `a·b` for non-negative `a`, `b` (limbs, `a.len() >= b.len() > 2·⌈a.len()/3⌉`) by a parallel
/// Toom-3 top level on `threads` threads of `pool`.
pub fn toom3(pool: &Pool, threads: usize, a: &[Limb], b: &[Limb], square: bool) -> Integer {
    let s = a.len().div_ceil(3);
    assert!(
        b.len() > 2 * s,
        "toom3 needs a third piece in both operands"
    );
    let (pa, pb) = (thirds(a, s), thirds(b, s));
    let b2 = pb[2];
    // p(∞) is cut in two when it is a real product (not a square) and b2 is not tiny.
    let cut_inf = !square && threads >= 2 && b2.len() >= 8;
    let half = b2.len() / 2;
    // Jobs, most expensive first so the last ones fill the gaps: p(−2), p(1), p(−1), p(0), p(∞).
    let jobs: usize = if cut_inf { 6 } else { 5 };
    with_slots(jobs, |slots| {
        let cells: Vec<TakeOnce<Slot>> = slots.into_iter().map(TakeOnce::new).collect();
        let mut done = pool.map(jobs, threads, |j| {
            let mut slot = cells[j].take();
            let Slot { x, y, p, .. } = &mut slot;
            let point = [-2, 1, -1, 0][j.min(3)];
            match j {
                0..=2 => {
                    eval(x, p, pa, point);
                    if square {
                        p.assign(x.square_ref());
                    } else {
                        eval(y, p, pb, point);
                        p.assign(&*x * &*y);
                    }
                }
                3 => product(p, pa[0], pb[0], square),
                4 if cut_inf => product(p, pa[2], &b2[..half], false),
                5 => product(p, pa[2], &b2[half..], false),
                _ => product(p, pa[2], pb[2], square),
            }
            slot
        });
        if cut_inf {
            let hi = done.pop().expect("six jobs");
            let lo = done.last_mut().expect("six jobs");
            lo.x.assign(&hi.p << (half as u32 * Limb::BITS));
            lo.p += &lo.x;
            done.push(hi);
        }
        // The middle coefficients go into three slots' spare integers.
        let mut r1 = std::mem::take(&mut done[1].x);
        let mut r2 = std::mem::take(&mut done[2].x);
        let mut r3 = std::mem::take(&mut done[3].x);
        let p = |i: usize| &done[i].p;
        interpolate(p(3), p(1), p(2), p(0), p(4), &mut r1, &mut r2, &mut r3);
        let parts = [
            (0, p(3)),
            (s, &r1),
            (2 * s, &r2),
            (3 * s, &r3),
            (4 * s, p(4)),
        ];
        let out = add_at(&parts, a.len() + b.len());
        (done[1].x, done[2].x, done[3].x) = (r1, r2, r3);
        (done, out)
    })
}

/// `p = x·y` (`x²` when `square`), reusing p's allocation.
pub(super) fn product(p: &mut Integer, x: &[Limb], y: &[Limb], square: bool) {
    let (x, y) = (mpn::trim(x), mpn::trim(y));
    if x.is_empty() || y.is_empty() {
        p.assign(0);
        return;
    }
    mpn::write_integer(p, x.len() + y.len(), |r| {
        if square {
            mpn::sqr(r, x);
        } else {
            mpn::mul(r, x, y);
        }
    });
}

/// Bodrato's sequence: the middle coefficients r1, r2, r3 from the values at 0, 1, −1, −2, ∞
/// (r0 = p(0), r4 = p(∞)).
#[allow(clippy::too_many_arguments)]
fn interpolate(
    p0: &Integer,
    p1: &Integer,
    pm1: &Integer,
    pm2: &Integer,
    p_inf: &Integer,
    r1: &mut Integer,
    r2: &mut Integer,
    r3: &mut Integer,
) {
    r3.assign(pm2 - p1);
    r3.div_exact_u_mut(3);
    r1.assign(p1 - pm1);
    *r1 >>= 1; // exact: p(1) and p(−1) have the same parity
    r2.assign(pm1 - p0);
    // r3 = (r2 − r3)/2 + 2·r4
    *r3 -= &*r2;
    *r3 >>= 1; // exact
    r3.neg_assign();
    *r3 += p_inf;
    *r3 += p_inf;
    *r2 += &*r1;
    *r2 -= p_inf;
    *r1 -= &*r3;
}

/// `a·b` for non-negative `a`, `b` (limbs, `a.len() >= b.len()`) by splitting `a` into
/// `pieces` pieces, each multiplied by `b` as one job on `threads` threads of `pool`.
pub fn split_longer(pool: &Pool, threads: usize, a: &[Limb], b: &[Limb], pieces: usize) -> Integer {
    let t = a.len().div_ceil(pieces.max(1));
    let n = a.len().div_ceil(t);
    with_slots(n, |slots| {
        let cells: Vec<TakeOnce<Slot>> = slots.into_iter().map(TakeOnce::new).collect();
        let done = pool.map(n, threads, |i| {
            let mut slot = cells[i].take();
            product(&mut slot.p, &a[i * t..((i + 1) * t).min(a.len())], b, false);
            slot
        });
        let parts: Vec<(usize, &Integer)> = done
            .iter()
            .enumerate()
            .map(|(i, d)| (i * t, &d.p))
            .collect();
        let out = add_at(&parts, a.len() + b.len());
        (done, out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rug::integer::Order;

    fn limbs(n: usize, seed: u64) -> Vec<Limb> {
        let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        (0..n).map(|_| r.r#gen()).collect()
    }

    #[test]
    fn toom3_and_the_operand_split_give_the_product() {
        let pool = Pool::new(1, false, std::time::Duration::from_micros(50)).unwrap();
        for (an, bn) in [
            (3, 1),
            (3, 3),
            (10, 4),
            (40, 40),
            (97, 70),
            (300, 299),
            (301, 8),
        ] {
            let (a, b) = (limbs(an, an as u64), limbs(bn, 7 + bn as u64));
            let want = Integer::from_digits(&a, Order::Lsf) * Integer::from_digits(&b, Order::Lsf);
            for threads in [1, 2, 3] {
                if bn > 2 * an.div_ceil(3) {
                    assert_eq!(toom3(&pool, threads, &a, &b, false), want, "{an}x{bn}");
                }
                for pieces in [1, 2, 5] {
                    assert_eq!(split_longer(&pool, threads, &a, &b, pieces), want);
                }
            }
            let sq = Integer::from_digits(&a, Order::Lsf).square();
            assert_eq!(toom3(&pool, 2, &a, &a, true), sq, "{an} squared");
        }
    }

    #[test]
    fn interpolation_recovers_a_known_polynomial() {
        // (1 + 2x + 3x²)(4 + 5x + 6x²) = 4 + 13x + 28x² + 27x³ + 18x⁴
        let c = [4i64, 13, 28, 27, 18];
        let at = |x: i64| Integer::from(c.iter().rev().fold(0i64, |acc, &k| acc * x + k));
        let (mut r1, mut r2, mut r3) = (Integer::new(), Integer::new(), Integer::new());
        let p_inf = Integer::from(18);
        interpolate(
            &at(0),
            &at(1),
            &at(-1),
            &at(-2),
            &p_inf,
            &mut r1,
            &mut r2,
            &mut r3,
        );
        assert_eq!([r1, r2, r3], [13, 28, 27].map(Integer::from));
    }
}
