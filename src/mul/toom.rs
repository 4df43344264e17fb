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
use crate::bignum::mpn::Limb;
use crate::parallel::pool::Pool;
use rug::Integer;
use rug::integer::Order;

/// A piece `[lo, hi)` of a limb slice as an integer (empty beyond the end).
fn piece(l: &[Limb], lo: usize, hi: usize) -> Integer {
    let (lo, hi) = (lo.min(l.len()), hi.min(l.len()));
    Integer::from_digits(&l[lo..hi], Order::Lsf)
}

/// `x0 + x1 + x2`, `x0 − x1 + x2` and `x0 − 2·x1 + 4·x2`: a polynomial's values at 1, −1, −2.
fn eval(x: &[Integer; 3], point: i32) -> Integer {
    let [x0, x1, x2] = x;
    match point {
        1 => Integer::from(x0 + x2) + x1,
        -1 => Integer::from(x0 + x2) - x1,
        _ => {
            // ((x2·2 − x1)·2 + x0): −2 as Horner.
            let mut v = Integer::from(x2 << 1);
            v -= x1;
            v <<= 1;
            v += x0;
            v
        }
    }
}

/// `a·b` for non-negative `a`, `b` (limbs, `a.len() >= b.len()`) by a parallel Toom-3 top
/// level on `threads` threads of `pool`.
pub fn toom3(pool: &Pool, threads: usize, a: &[Limb], b: &[Limb], square: bool) -> Integer {
    let s = a.len().div_ceil(3);
    let pa = [piece(a, 0, s), piece(a, s, 2 * s), piece(a, 2 * s, a.len())];
    let pb = if square {
        Default::default() // never read: squares use `pa` alone
    } else {
        [piece(b, 0, s), piece(b, s, 2 * s), piece(b, 2 * s, b.len())]
    };
    // p(∞) is cut in two when it is a real product (not a square) and b2 is not tiny.
    let b2 = b.get(2 * s..).unwrap_or(&[]);
    let cut_inf = !square && threads >= 2 && b2.len() >= 8;
    let half = b2.len() / 2;
    // Jobs, most expensive first so the last ones fill the gaps: p(−2), p(1), p(−1), p(0), p(∞).
    let jobs: usize = if cut_inf { 6 } else { 5 };
    // The product of the two polynomials' values at `point` (None: ∞).
    let at = |point: Option<i32>| -> Integer {
        let (x, y) = match point {
            Some(0) => (pa[0].clone(), &pb[0]),
            Some(p) => {
                let x = eval(&pa, p);
                if square {
                    return x.square();
                }
                return x * eval(&pb, p);
            }
            None => (pa[2].clone(), &pb[2]),
        };
        if square { x.square() } else { x * y }
    };
    let mut r = pool.map(jobs, threads, |j| match j {
        0 => at(Some(-2)),
        1 => at(Some(1)),
        2 => at(Some(-1)),
        3 => at(Some(0)),
        4 if cut_inf => Integer::from(&pa[2] * &piece(b2, 0, half)),
        5 => Integer::from(&pa[2] * &piece(b2, half, b2.len())),
        _ => at(None),
    });
    let p_inf = if cut_inf {
        let hi = r.pop().expect("six jobs");
        let mut lo = r.pop().expect("six jobs");
        lo += hi << (half as u32 * Limb::BITS);
        lo
    } else {
        r.pop().expect("five jobs")
    };
    let (p0, pm1, p1, pm2) = (
        r.pop().expect("p0"),
        r.pop().expect("p(-1)"),
        r.pop().expect("p1"),
        r.pop().expect("p(-2)"),
    );
    let coefficients = interpolate(p0, p1, pm1, pm2, p_inf);
    let parts: Vec<(usize, Integer)> = coefficients
        .into_iter()
        .enumerate()
        .map(|(i, c)| (i * s, c))
        .collect();
    add_at(&parts, a.len() + b.len())
}

/// Bodrato's sequence: the five coefficients from the values at 0, 1, −1, −2, ∞.
fn interpolate(
    p0: Integer,
    p1: Integer,
    pm1: Integer,
    pm2: Integer,
    p_inf: Integer,
) -> [Integer; 5] {
    let mut r3 = pm2 - &p1;
    r3.div_exact_u_mut(3);
    let mut r1 = p1 - &pm1;
    r1 >>= 1; // exact: p(1) and p(−1) have the same parity
    let mut r2 = pm1 - &p0;
    let mut t = Integer::from(&r2 - &r3);
    t >>= 1; // exact
    r3 = t + Integer::from(&p_inf << 1);
    r2 += &r1;
    r2 -= &p_inf;
    r1 -= &r3;
    [p0, r1, r2, r3, p_inf]
}

/// `a·b` for non-negative `a`, `b` (limbs, `a.len() >= b.len()`) by splitting `a` into
/// `pieces` pieces, each multiplied by `b` as one job on `threads` threads of `pool`.
pub fn split_longer(pool: &Pool, threads: usize, a: &[Limb], b: &[Limb], pieces: usize) -> Integer {
    let t = a.len().div_ceil(pieces.max(1));
    let bi = Integer::from_digits(b, Order::Lsf);
    let parts = pool.map(a.len().div_ceil(t), threads, |i| {
        (i * t, piece(a, i * t, (i + 1) * t) * &bi)
    });
    add_at(&parts, a.len() + b.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

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
                assert_eq!(toom3(&pool, threads, &a, &b, false), want, "{an}x{bn}");
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
        let r = interpolate(at(0), at(1), at(-1), at(-2), Integer::from(18));
        assert_eq!(r, c.map(Integer::from));
    }
}
