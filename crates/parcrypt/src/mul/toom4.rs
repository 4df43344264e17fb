//! A parallel Toom-4 top level, a candidate for `par-gmp` on balanced operands from about
//! 24 kbit (tested here, not yet chosen by [`super::par::split_for`]: its gain over Toom-3 is
//! still to be measured in `parcrypt bench mul`). Operands
//! in four pieces of s = ⌈n/4⌉ limbs (X = B^s), the product's seven coefficients from its
//! values at 0, ±1, ±2, ½ (as 2⁶·p(½)) and ∞.
//!
//! Seven products of n/4 limbs cost about 7·4^(−α) ≈ 0.96 of GMP's n-limb product at α ≈ 1.45
//! (measured: 7 × 256-limb products against one 1024-limb product), less than Toom-3's five
//! of n/3 (≈ 1.02), and p(∞) cut in two makes eight jobs that two threads share evenly.
//!
//! Interpolation (derived here; E/O the even/odd parts, c0 = p(0), c6 = p(∞)):
//!
//! ```text
//! E1 = (p1 + p−1)/2     O1 = (p1 − p−1)/2      = c1 + c3 + c5
//! E2 = (p2 + p−2)/2     O2 = (p2 − p−2)/4      = c1 + 4c3 + 16c5
//! A  = E1 − c0 − c6     = c2 + c4              B = (E2 − c0 − 64c6)/4 = c2 + 4c4
//! c4 = (B − A)/3        c2 = A − c4
//! H  = (2⁶p(½) − 64c0 − 16c2 − 4c4 − c6)/2    = 16c1 + 4c3 + c5
//! P  = (O2 − O1)/3      = c3 + 5c5             Q = 16·O1 − H = 12c3 + 15c5
//! c5 = (12P − Q)/45     c3 = P − 5c5           c1 = O1 − c3 − c5
//! ```
//!
//! Every division is exact (the coefficients are integers).
use super::crt::add_at;
use super::toom::{Slot, product, set_piece, with_slots};
use crate::bignum::mpn::Limb;
use crate::parallel::pool::{Pool, TakeOnce};
use rug::{Assign, Integer};

/// The pieces `[..s]`, `[s..2s]`, `[2s..3s]`, `[3s..]` of `l` (`l.len() > 3s`).
fn quarters(l: &[Limb], s: usize) -> [&[Limb]; 4] {
    [&l[..s], &l[s..2 * s], &l[2 * s..3 * s], &l[3 * s..]]
}

/// `out` = the value at point `j` (0: 1, 1: −1, 2: 2, 3: −2, 4: 2³·(½)) of the polynomial
/// whose coefficients are the pieces `x`; `t` and `u` are temporaries.
fn eval(out: &mut Integer, t: &mut Integer, u: &mut Integer, x: [&[Limb]; 4], j: usize) {
    let set = |v: &mut Integer, k: usize| set_piece(v, x[k], 0, x[k].len());
    match j {
        0 | 1 => {
            // (x0 + x2) ± (x1 + x3)
            set(out, 0);
            set(t, 2);
            *out += &*t;
            set(t, 1);
            set(u, 3);
            *t += &*u;
        }
        2 | 3 => {
            // (x0 + 4·x2) ± 2·(x1 + 4·x3)
            set(out, 2);
            *out <<= 2;
            set(t, 0);
            *out += &*t;
            set(t, 3);
            *t <<= 2;
            set(u, 1);
            *t += &*u;
            *t <<= 1;
        }
        _ => {
            // ((2·x0 + x1)·2 + x2)·2 + x3
            set(out, 0);
            for k in 1..4 {
                *out <<= 1;
                set(t, k);
                *out += &*t;
            }
            return;
        }
    }
    if j % 2 == 0 {
        *out += &*t;
    } else {
        *out -= &*t;
    }
}

/// `a·b` for non-negative `a`, `b` (limbs, `a.len() >= b.len() > 3·⌈a.len()/4⌉`) by a parallel
/// Toom-4 top level on `threads` threads of `pool`.
pub fn toom4(pool: &Pool, threads: usize, a: &[Limb], b: &[Limb], square: bool) -> Integer {
    let s = a.len().div_ceil(4);
    assert!(
        b.len() > 3 * s,
        "toom4 needs a fourth piece in both operands"
    );
    let (pa, pb) = (quarters(a, s), quarters(b, s));
    let b3 = pb[3];
    let cut_inf = !square && threads >= 2 && b3.len() >= 8;
    let half = b3.len() / 2;
    // Jobs: the five evaluated points, p(0), then p(∞) (cut in two).
    let jobs: usize = if cut_inf { 8 } else { 7 };
    with_slots(jobs, |slots| {
        let cells: Vec<TakeOnce<Slot>> = slots.into_iter().map(TakeOnce::new).collect();
        let mut done = pool.map(jobs, threads, |j| {
            let mut slot = cells[j].take();
            let Slot { x, y, p, u } = &mut slot;
            match j {
                0..=4 => {
                    eval(x, p, u, pa, j);
                    if square {
                        p.assign(x.square_ref());
                    } else {
                        eval(y, p, u, pb, j);
                        p.assign(&*x * &*y);
                    }
                }
                5 => product(p, pa[0], pb[0], square),
                6 if cut_inf => product(p, pa[3], &b3[..half], false),
                7 => product(p, pa[3], &b3[half..], false),
                _ => product(p, pa[3], pb[3], square),
            }
            slot
        });
        if cut_inf {
            let hi = done.pop().expect("eight jobs");
            let lo = done.last_mut().expect("eight jobs");
            lo.x.assign(&hi.p << (half as u32 * Limb::BITS));
            lo.p += &lo.x;
            done.push(hi);
        }
        let c = interpolate(&done);
        let c0 = &done[5].p;
        let c6 = &done[6].p;
        let parts = [
            (0, c0),
            (s, &c[0]),
            (2 * s, &c[1]),
            (3 * s, &c[2]),
            (4 * s, &c[3]),
            (5 * s, &c[4]),
            (6 * s, c6),
        ];
        let out = add_at(&parts, a.len() + b.len());
        (done, out)
    })
}

/// c1..c5 from the jobs' products (order: p1, p−1, p2, p−2, 2⁶p(½), p0, p∞).
fn interpolate(done: &[Slot]) -> [Integer; 5] {
    let [p1, pm1, p2, pm2, ph, c0, c6] = [0, 1, 2, 3, 4, 5, 6].map(|i| &done[i].p);
    let mut e1 = Integer::from(p1 + pm1);
    e1 >>= 1;
    let mut o1 = Integer::from(p1 - pm1);
    o1 >>= 1;
    let mut e2 = Integer::from(p2 + pm2);
    e2 >>= 1;
    let mut o2 = Integer::from(p2 - pm2);
    o2 >>= 2;
    // A = E1 − c0 − c6 = c2 + c4;  B = (E2 − c0 − 64·c6)/4 = c2 + 4·c4
    let mut a = e1;
    a -= c0;
    a -= c6;
    let mut b = e2;
    b -= c0;
    b -= Integer::from(c6 << 6);
    b >>= 2;
    let mut c4 = b - &a;
    c4.div_exact_u_mut(3);
    let c2 = a - &c4;
    // H = (2⁶p(½) − 64c0 − 16c2 − 4c4 − c6)/2 = 16c1 + 4c3 + c5
    let mut h = Integer::from(ph - c6);
    h -= Integer::from(c0 << 6);
    h -= Integer::from(&c2 << 4);
    h -= Integer::from(&c4 << 2);
    h >>= 1;
    // P = (O2 − O1)/3 = c3 + 5c5;  Q = 16·O1 − H = 12c3 + 15c5
    let mut p = Integer::from(&o2 - &o1);
    p.div_exact_u_mut(3);
    let mut q = Integer::from(&o1 << 4);
    q -= &h;
    let mut c5 = Integer::from(&p * 12u32);
    c5 -= &q;
    c5.div_exact_u_mut(45);
    let mut c3 = p;
    c3 -= Integer::from(&c5 * 5u32);
    let mut c1 = o1;
    c1 -= &c3;
    c1 -= &c5;
    [c1, c2, c3, c4, c5]
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rug::integer::Order;

    #[test]
    fn toom4_gives_the_product_and_the_square() {
        let pool = Pool::new(1, false, std::time::Duration::from_micros(50)).unwrap();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
        for (an, bn) in [(4, 4), (10, 10), (40, 31), (97, 90), (300, 300), (513, 400)] {
            let a: Vec<Limb> = (0..an).map(|_| rng.r#gen()).collect();
            let b: Vec<Limb> = (0..bn).map(|_| rng.r#gen()).collect();
            let (ai, bi) = (
                Integer::from_digits(&a, Order::Lsf),
                Integer::from_digits(&b, Order::Lsf),
            );
            for threads in [1, 2, 3] {
                assert_eq!(
                    toom4(&pool, threads, &a, &b, false),
                    ai.clone() * &bi,
                    "{an}x{bn}"
                );
            }
            assert_eq!(toom4(&pool, 2, &a, &a, true), ai.square(), "{an} squared");
        }
        let ones = vec![Limb::MAX; 64];
        let x = Integer::from_digits(&ones, Order::Lsf);
        assert_eq!(toom4(&pool, 2, &ones, &ones, false), x.clone() * &x);
    }
}
