//! The AVX2 back end's own checks: its bound, plans and thread split, its modular products at
//! the extremes of their ranges, the kernels' smallest blocks and the exact bound's edge. Its
//! products against GMP and the portable back end (every transform length, zero and all-ones
//! limbs, squares, megabits, 1 to 5 threads, proptests) are in [`super::super::tests`], which
//! runs every available back end. On a CPU without AVX2 and FMA each test here says on stderr
//! that it skipped.
use super::kernels::K;
use super::*;
use crate::mul::ntt::{Backend, check_bound, mul_into_with, sqr_into_with};
use rand::{Rng, SeedableRng};
use rug::Integer;
use rug::integer::Order;
use std::io::Write;

/// The token, or `None` after saying on stderr (past the harness's capture) that `test`
/// skipped.
fn token(test: &str) -> Option<Avx2> {
    let s = Avx2::new();
    if s.is_none() {
        let _ = writeln!(
            std::io::stderr(),
            "{test}: skipped (this CPU lacks AVX2/FMA, NOT covered)"
        );
    }
    s
}

#[test]
fn the_bound_is_exact_and_refused_past_it() {
    let product: Integer = field::PRIMES.iter().map(|q| Integer::from(q.p)).product();
    assert!(product > Integer::from(1) << LOG_PRIMES);
    // The largest coefficient of a product whose shorter operand has 2^21 limbs.
    let d = 1u64 << MAX_LOG_SHORTER;
    let ones = (Integer::from(1) << 64u32) - 1u32;
    assert!(Integer::from(d) * ones.square() < product);
    assert_eq!(MAX_LOG_SHORTER, 21);
    assert!(exact(1 << 21) && !exact((1 << 21) + 1));
    assert!(plan(1 << 21, 1 << 22).is_some());
    assert_eq!(plan((1 << 21) + 1, (1 << 21) + 1), None);
    assert_eq!(plan(usize::MAX, usize::MAX), None);
    // The portable bound is wider: past this one, products still have a shape (portable).
    assert!(check_bound((1 << 21) + 1, (1 << 21) + 1).is_ok());
}

#[test]
fn plans_are_the_portable_shapes_from_the_smallest_block() {
    // 12 coefficients take 3·4 points (m = 4: portable), 13 take 2·8 (the kernels).
    assert_eq!(MIN_M, 8);
    assert_eq!(plan(1, 1), None);
    assert_eq!(plan(6, 7), None);
    assert_eq!(plan(7, 7), Some(Shape { radix: 2, m: 8 }));
    assert_eq!(plan(1, 13), Some(Shape { radix: 2, m: 8 }));
    for an in 1..300 {
        for bn in [1, 2, an, an + 1, 3 * an + 7] {
            match plan(an, bn) {
                Some(s) => assert_eq!(Ok(s), check_bound(an, bn).map_err(|_| ())),
                None => assert!(check_bound(an, bn).unwrap().m < MIN_M),
            }
        }
    }
    assert_eq!([1, 2, 3, 4, 5].map(whole_primes), [0, 2, 3, 0, 0]);
}

/// `[mulc(a, w, wq), mul(a, w), red(a)]` lane by lane, in a function compiled with the
/// features.
///
/// # Safety
/// The CPU has AVX2 and FMA; the slices have one length, a multiple of 4.
#[target_feature(enable = "avx2,fma")]
unsafe fn products(s: Avx2, k: K, a: &[f64], w: &[f64], wq: &[f64]) -> [Vec<f64>; 3] {
    let mut out = [vec![0.0; a.len()], vec![0.0; a.len()], vec![0.0; a.len()]];
    for j in (0..a.len()).step_by(4) {
        // SAFETY: four f64s at j in each slice.
        unsafe {
            let (x, y, yq) = (
                s.load(a[j..j + 4].as_ptr()),
                s.load(w[j..j + 4].as_ptr()),
                s.load(wq[j..j + 4].as_ptr()),
            );
            for (o, r) in out
                .iter_mut()
                .zip([k.mulc(x, y, yq), k.mul(x, y), k.red(x)])
            {
                s.store(o[j..j + 4].as_mut_ptr(), r);
            }
        }
    }
    out
}

#[test]
fn modular_products_hold_at_the_extremes_of_their_ranges() {
    let Some(s) = token("modular_products_hold_at_the_extremes_of_their_ranges") else {
        return;
    };
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
    for q in field::PRIMES {
        let tb = tables::Tables::new(q, Shape { radix: 3, m: 8 });
        let k = K::new(s, &tb);
        let p = i128::from(q.p);
        let h = (p - 1) / 2;
        // Centred constants (twiddles); inputs up to 4p in magnitude (mulc, red), below p
        // (mul).
        let ws = [h, -h, 1, -1, 0, h - 1, 2];
        let xs = [
            4 * p - 1,
            -(4 * p - 1),
            2 * p,
            p - 1,
            -(p - 1),
            0,
            1,
            3 * p + 5,
        ];
        let mut pairs: Vec<(i128, i128)> = xs
            .iter()
            .flat_map(|&x| ws.iter().map(move |&w| (x, w)))
            .collect();
        for _ in 0..4000 {
            pairs.push((rng.gen_range(-(4 * p - 1)..4 * p), rng.gen_range(-h..=h)));
            pairs.push((rng.gen_range(-(p - 1)..p), rng.gen_range(-(p - 1)..p)));
        }
        pairs.truncate(pairs.len() / 4 * 4);
        let a: Vec<f64> = pairs.iter().map(|&(x, _)| x as f64).collect();
        let w: Vec<f64> = pairs.iter().map(|&(_, w)| w as f64).collect();
        let wq: Vec<f64> = w.iter().map(|&w| w / q.p as f64).collect();
        // SAFETY: the token proves AVX2/FMA; equal lengths, multiples of 4.
        let [mulc, mul, red] = unsafe { products(s, k, &a, &w, &wq) };
        for (i, &(x, w)) in pairs.iter().enumerate() {
            let integer = |v: f64| {
                assert_eq!(v.fract(), 0.0, "{v}");
                v as i128
            };
            let r = integer(red[i]);
            assert!(
                r.abs() <= p / 2 + 1 && (r - x).rem_euclid(p) == 0,
                "red {x}: {r}"
            );
            if w.abs() <= h {
                let c = integer(mulc[i]);
                assert!(
                    c.abs() < p && (c - x * w).rem_euclid(p) == 0,
                    "mulc {x}·{w}: {c}"
                );
            }
            if x.abs() < p && w.abs() < p {
                let m = integer(mul[i]);
                assert!(
                    m.abs() < p && (m - x * w).rem_euclid(p) == 0,
                    "mul {x}·{w}: {m}"
                );
            }
        }
    }
}

fn limbs(n: usize, seed: u64) -> Vec<Limb> {
    let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    (0..n).map(|_| r.r#gen()).collect()
}

fn int(l: &[Limb]) -> Integer {
    Integer::from_digits(l, Order::Lsf)
}

/// Around the kernels' smallest block (m = 8) and the recursion's (LEAF, radix-4 passes at
/// every depth parity), products and squares against GMP, all-ones operands, and against
/// the portable back end, on 1 to 3 threads.
#[test]
fn smallest_blocks_and_every_depth_parity() {
    if token("smallest_blocks_and_every_depth_parity").is_none() {
        return;
    }
    let pool = crate::parallel::pool::Pool::global(false);
    let mut sizes = vec![(6, 7), (7, 7), (1, 13), (13, 1), (8, 9), (12, 13), (24, 25)];
    // Coefficients filling 2^k and 3·2^k points for k = 4..14 (odd and even levels).
    for k in 3..14 {
        for n in [1usize << k, 3 << k] {
            sizes.push((n / 2, n / 2 + 1));
            sizes.push((n / 2 + 1, n / 2 + 1));
        }
    }
    for (an, bn) in sizes {
        for (a, b) in [
            (limbs(an, an as u64), limbs(bn, !(bn as u64))),
            (vec![Limb::MAX; an], vec![Limb::MAX; bn]),
        ] {
            let want = int(&a) * int(&b);
            let mut port = vec![0; an + bn];
            mul_into_with(Backend::Portable, pool, 1, &mut port, &a, &b).unwrap();
            for t in [1, 2, 3] {
                let mut out = vec![0x5a5a; an + bn];
                mul_into_with(Backend::Avx2, pool, t, &mut out, &a, &b).unwrap();
                assert_eq!(int(&out), want, "{an}×{bn} on {t} threads");
                assert_eq!(out, port, "{an}×{bn} on {t} threads");
            }
            let mut sq = vec![0; 2 * an];
            sqr_into_with(Backend::Avx2, pool, 2, &mut sq, &a).unwrap();
            assert_eq!(int(&sq), int(&a).square(), "{an}²");
        }
    }
}

/// The largest coefficients these primes take: all-ones operands with the shorter one at the
/// bound, 2^21 limbs (a 128-Mbit square, 2^22 points; about a second in a release build,
/// ignored in debug builds). `(B^n − 1)^2 = (B^n − 2)·B^n + 1` is checked limb by limb.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn all_ones_at_the_bound() {
    if token("all_ones_at_the_bound").is_none() {
        return;
    }
    let n = 1usize << MAX_LOG_SHORTER;
    assert!(plan(n, n).is_some());
    let a = vec![Limb::MAX; n];
    let mut out = vec![0; 2 * n];
    let pool = crate::parallel::pool::Pool::global(false);
    sqr_into_with(Backend::Avx2, pool, 2, &mut out, &a).unwrap();
    assert_eq!(out[0], 1);
    assert!(out[1..n].iter().all(|&x| x == 0));
    assert_eq!(out[n], Limb::MAX - 1);
    assert!(out[n + 1..].iter().all(|&x| x == Limb::MAX));
    release_buffers_for_tests();
}

/// Frees the big test's kept vectors (so later tests in the process do not hold them).
fn release_buffers_for_tests() {
    SPARE.clear();
}

/// Indicative timings of this back end alone, not a test of anything (ignored; `cargo test
/// --release -p parcrypt avx2_timing -- --ignored --nocapture`): balanced 64 Kbit, 1 Mbit and
/// 16 Mbit products on 1 and 2 threads, the transforms alone and the recombination alone
/// beside the whole product, median and minimum of 9 rounds after a warm-up.
#[test]
#[ignore]
fn avx2_timing() {
    use std::time::Instant;
    let Some(s) = token("avx2_timing") else {
        return;
    };
    let pool =
        crate::parallel::pool::Pool::new(1, false, crate::parallel::pool::DEFAULT_SPIN).unwrap();
    for bits in [1usize << 16, 1 << 20, 1 << 24] {
        let n = bits / 64;
        let (a, b) = (limbs(n, 1), limbs(n, 2));
        let reps = (1usize << 23) / bits + 1;
        let mut out = vec![0; 2 * n];
        for t in [1, 2] {
            let shape = plan(n, n).unwrap();
            let mut whole = Vec::new();
            let mut transforms = Vec::new();
            let mut crt = Vec::new();
            let res = residues(&pool, t, s, shape, &a, Some(&b));
            for round in 0..10 {
                let start = Instant::now();
                for _ in 0..reps {
                    mul_into_with(Backend::Avx2, &pool, t, &mut out, &a, &b).unwrap();
                }
                let mid = Instant::now();
                for _ in 0..reps {
                    let r = residues(&pool, t, s, shape, &a, Some(&b));
                    r.into_iter().for_each(|v| SPARE.give(v));
                }
                let end = Instant::now();
                for _ in 0..reps {
                    assert!(recombine(&pool, t, s, &res, &mut out));
                }
                if round > 0 {
                    whole.push((mid - start).as_secs_f64() / reps as f64 * 1e3);
                    transforms.push((end - mid).as_secs_f64() / reps as f64 * 1e3);
                    crt.push(end.elapsed().as_secs_f64() / reps as f64 * 1e3);
                }
            }
            crt.sort_by(f64::total_cmp);
            whole.sort_by(f64::total_cmp);
            transforms.sort_by(f64::total_cmp);
            println!(
                "{bits:>9} bits, {t} thread(s): product median {:.3} ms (min {:.3}); \
                 transforms alone median {:.3} ms (min {:.3}); recombination alone median \
                 {:.3} ms (min {:.3})",
                whole[4], whole[0], transforms[4], transforms[0], crt[4], crt[0]
            );
        }
    }
}

/// The vector Garner digits are the scalar ones, at the residues' extremes and at random.
#[test]
fn vector_garner_digits_match_the_scalar_ones() {
    let Some(s) = token("vector_garner_digits_match_the_scalar_ones") else {
        return;
    };
    let g = crt::Garner::new();
    let p = field::PRIMES.map(|q| q.p);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
    let edges = |p: u64| [0, 1, p / 2, p - 1];
    let mut r: [Vec<u64>; 3] = Default::default();
    for a in edges(p[0]) {
        for b in edges(p[1]) {
            for c in edges(p[2]) {
                for (v, x) in r.iter_mut().zip([a, b, c]) {
                    v.push(x);
                }
            }
        }
    }
    for _ in 0..4000 {
        for (v, &p) in r.iter_mut().zip(&p) {
            v.push(rng.gen_range(0..p));
        }
    }
    let n = r[0].len() / 4 * 4;
    let (mut t1, mut t2) = (vec![0; n], vec![0; n]);
    let (pp, inv) = g.constants();
    assert_eq!(pp, p);
    // SAFETY: the token proves AVX2/FMA; equal lengths, multiples of 4; Garner's constants.
    unsafe {
        kernels::garner_digits(
            s,
            pp,
            inv,
            [&r[0][..n], &r[1][..n], &r[2][..n]],
            &mut t1,
            &mut t2,
        )
    };
    for i in 0..n {
        let want = g.digits([r[0][i], r[1][i], r[2][i]]);
        assert_eq!([want[1], want[2]], [t1[i], t2[i]], "{i}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
    /// Short and unbalanced products around the smallest block (the portable path below it),
    /// random, all-ones, sparse and squared, on 1 to 3 threads: GMP's limbs.
    #[test]
    fn short_and_unbalanced_match_gmp(
        an in 1usize..64,
        bn in 1usize..3000,
        seed in proptest::prelude::any::<u64>(),
        kind in 0u8..4,
    ) {
        if Avx2::new().is_none() {
            static SAID: std::sync::Once = std::sync::Once::new();
            SAID.call_once(|| {
                token("short_and_unbalanced_match_gmp");
            });
            return Ok(());
        }
        let pool = crate::parallel::pool::Pool::global(false);
        let (mut a, mut b) = (limbs(an, seed), limbs(bn, seed ^ 1));
        match kind {
            1 => { a.fill(Limb::MAX); b.fill(Limb::MAX); }
            2 => b.iter_mut().step_by(2).for_each(|x| *x = 0),
            3 => b = a.clone(),
            _ => {}
        }
        let want = int(&a) * int(&b);
        for t in [1, 2, 3] {
            let mut out = vec![0x5a5a; a.len() + b.len()];
            mul_into_with(Backend::Avx2, pool, t, &mut out, &a, &b).unwrap();
            proptest::prop_assert_eq!(int(&out), want.clone());
        }
    }
}
