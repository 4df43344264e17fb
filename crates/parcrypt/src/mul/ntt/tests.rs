//! The NTT product against GMP: one table of sizes around every transform length (2^k and
//! 3·2^k, coefficient counts n − 1, n, n + 1), balanced and unbalanced, zero and all-ones limbs,
//! squares, megabit sizes, and 1 to 4 threads byte for byte — on every back end this CPU runs,
//! each byte for byte against the portable one. Back ends the CPU lacks are named on the test
//! process's stderr (uncaptured) as skipped: they are not covered by that run.
use super::*;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rug::Integer;
use rug::integer::Order;
use std::io::Write;
use std::sync::OnceLock;

/// The back ends this CPU runs, portable first. The first call writes the skipped ones to
/// stderr past the test harness's capture, so a run on a CPU without them says so.
fn backends() -> &'static [Backend] {
    static B: OnceLock<Vec<Backend>> = OnceLock::new();
    B.get_or_init(|| {
        let (run, skip): (Vec<Backend>, Vec<Backend>) =
            Backend::ALL.iter().partition(|b| b.available());
        let _ = writeln!(
            std::io::stderr(),
            "NTT tests: back ends run: {:?}; skipped (this CPU lacks them, NOT covered): {:?}",
            run.iter().map(|b| b.short()).collect::<Vec<_>>(),
            skip.iter().map(|b| b.short()).collect::<Vec<_>>()
        );
        run
    })
}

fn limbs(n: usize, seed: u64) -> Vec<Limb> {
    let mut r = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    (0..n).map(|_| r.r#gen()).collect()
}

fn int(l: &[Limb]) -> Integer {
    Integer::from_digits(l, Order::Lsf)
}

fn pool() -> &'static Pool {
    Pool::global(false)
}

/// `a·b` on each back end and thread count: the portable one on the first count equal to
/// GMP's, every other the same limbs.
fn check(a: &[Limb], b: &[Limb], threads: &[usize]) {
    let want = int(a) * int(b);
    let mut first: Option<Vec<Limb>> = None;
    for &backend in backends() {
        for &t in threads {
            let mut out = vec![0x5a5a; a.len() + b.len()];
            mul_into_with(backend, pool(), t, &mut out, a, b).unwrap();
            match &first {
                None => {
                    assert_eq!(int(&out), want, "{}×{} on {t} thread(s)", a.len(), b.len());
                    first = Some(out);
                }
                Some(f) => assert!(
                    &out == f,
                    "{}×{}: {backend:?} on {t} threads differs from the portable product{}",
                    a.len(),
                    b.len(),
                    if int(&out) == want {
                        " (?)"
                    } else {
                        " and from GMP's"
                    }
                ),
            }
        }
    }
}

/// Every transform length up to `max_n` points: 2^k (k ≥ 1) and 3·2^k.
fn lengths(max_n: usize) -> Vec<usize> {
    let mut v: Vec<usize> = (1..usize::BITS)
        .flat_map(|k| [1usize << k, 3 << (k - 1)])
        .filter(|&n| n <= max_n)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Operand lengths whose coefficient count is n − 1, n or n + 1 for each length n: balanced,
/// one limb against the rest, and 4:1.
fn boundary_pairs(max_n: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for n in lengths(max_n) {
        for coeffs in [n - 1, n, n + 1] {
            let total = coeffs + 1;
            for an in [total / 2, 1, total - total / 5] {
                let bn = total - an;
                if an >= 1 && bn >= 1 {
                    v.push((an, bn));
                }
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn the_boundary_table_covers_both_kinds_of_length() {
    let l = lengths(100);
    assert_eq!(l, [2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96]);
    let pairs = boundary_pairs(1 << 15);
    // Every pair needs a length of the kind it sits at: both 2^k and 3·2^k shapes occur.
    let shapes: Vec<Shape> = pairs
        .iter()
        .map(|&(a, b)| check_bound(a, b).unwrap())
        .collect();
    assert!(shapes.iter().any(|s| s.radix == 2) && shapes.iter().any(|s| s.radix == 3));
}

#[test]
fn around_every_transform_length() {
    for (an, bn) in boundary_pairs(1 << 15) {
        let seed = ((an as u64) << 32) | bn as u64;
        check(&limbs(an, seed), &limbs(bn, !seed), &[1, 3]);
    }
}

#[test]
fn zero_and_all_ones_limbs_around_every_length() {
    for (an, bn) in boundary_pairs(1 << 12) {
        let ones_a = vec![Limb::MAX; an];
        let ones_b = vec![Limb::MAX; bn];
        check(&ones_a, &ones_b, &[1, 2]);
        check(&vec![0; an], &ones_b, &[1, 2]);
        // Zero limbs inside and at the top (not normalized).
        let mut a = limbs(an, 1);
        a.iter_mut().step_by(2).for_each(|x| *x = 0);
        if let Some(top) = a.last_mut() {
            *top = 0;
        }
        check(&a, &ones_b, &[2]);
    }
}

#[test]
fn squares_around_every_length() {
    for &backend in backends() {
        for n in lengths(1 << 14) {
            for an in [n / 2, n / 2 + 1] {
                let a = limbs(an, an as u64);
                let want = int(&a).square();
                let mut one = vec![0; 2 * an];
                sqr_into_with(backend, pool(), 1, &mut one, &a).unwrap();
                assert_eq!(int(&one), want, "{backend:?} {an}");
                // The same limbs through `mul_into` (two slices, one value) square too.
                let mut two = vec![0; 2 * an];
                mul_into_with(backend, pool(), 2, &mut two, &a, &a.clone()).unwrap();
                assert_eq!(one, two, "{backend:?} {an}");
                let ones = vec![Limb::MAX; an];
                sqr_into_with(backend, pool(), 3, &mut two, &ones).unwrap();
                assert_eq!(int(&two), int(&ones).square(), "{backend:?} {an}");
            }
        }
    }
}

/// The transforms each back end reports are the ones its products run: the portable one's
/// shape from `check_bound`, a vector back end's own plan where it takes the product, the
/// portable shape where it hands it on, and nothing past the bound.
#[test]
fn each_backend_reports_the_transforms_it_runs() {
    let mb = 1 << 14; // 1 Mbit in limbs
    for b in Backend::ALL {
        let (n, primes) = b.transform(mb, mb).unwrap();
        match b {
            Backend::Portable => {
                assert_eq!((n, primes), (check_bound(mb, mb).unwrap().points(), 3))
            }
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => assert_eq!((n, primes), (avx2::plan(mb, mb).unwrap().points(), 3)),
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Backend::Ifma | Backend::Ifma256 => {
                // Digits of 92 bits: 2·ceil(2^20 / 92) − 1 = 22795 coefficients, 3·2^13 points.
                assert_eq!((n, primes), (3 << 13, 4));
            }
            #[allow(unreachable_patterns)]
            _ => assert_eq!(primes, 3),
        }
        // One limb: too short for every vector kernel, so the portable transform.
        assert_eq!(
            b.transform(1, 1),
            Some((check_bound(1, 1).unwrap().points(), 3))
        );
        assert_eq!(
            b.transform(1 << MAX_LOG_SHORTER, 1 << MAX_LOG_SHORTER),
            None
        );
    }
    assert_eq!(Backend::Portable.transform(mb, mb), Some((1 << 15, 3)));
}

/// Every back end's multiplier name gives it back, `ntt` gives the one `auto` takes, and no
/// other name gives one.
#[test]
fn a_method_name_gives_its_backend() {
    for b in Backend::ALL {
        assert_eq!(Backend::of_method(&format!("ntt-{}", b.short())), Some(b));
    }
    assert_eq!(Backend::of_method("ntt"), Some(Backend::auto()));
    for name in [
        "ntt-",
        "ntt-avx512",
        "gmp",
        "par-gmp",
        "portable",
        "ntt-Ifma",
    ] {
        assert_eq!(Backend::of_method(name), None, "{name}");
    }
}

#[test]
fn every_backend_is_listed_and_refused_where_missing() {
    assert_eq!(Backend::ALL[0], Backend::Portable);
    assert!(Backend::Portable.available());
    assert!(Backend::auto().available());
    assert!(backends().contains(&Backend::auto()));
    let (a, b) = (limbs(40, 1), limbs(50, 2));
    for backend in Backend::ALL {
        let mut out = vec![0; 90];
        let r = mul_into_with(backend, pool(), 2, &mut out, &a, &b);
        assert_eq!(r.is_ok(), backend.available(), "{backend:?}");
        let m = method::with_backend(crate::mul::KaraConfig::default(), backend);
        assert_eq!(m.is_ok(), backend.available(), "{backend:?}");
        if let Ok(m) = m {
            use crate::mul::Multiplier;
            assert_eq!(m.name(), format!("ntt-{}", backend.short()));
            assert!(crate::mul::NTT_BACKEND_METHODS.contains(&m.name()));
            let (x, y) = (int(&a), -int(&b));
            assert_eq!(m.mul(&x, &y), Integer::from(&x * &y));
        }
    }
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    if Backend::Ifma.available() {
        // The kernels start at blocks of ifma::MIN_M = 16 points: 24 coefficients take 3·8
        // points (portable path), 25 take 2·16 (the kernels); the tables above cross it.
        assert_eq!(ifma::MIN_M, 16);
        assert!(!ifma::takes(check_bound(12, 13).unwrap()));
        assert!(ifma::takes(check_bound(13, 13).unwrap()));
    }
}

#[test]
fn megabit_products_balanced_and_unbalanced() {
    // 1 Mbit × 1 Mbit, 4 Mbit around 2^17 coefficients, 3·2^16 ± 1, very unbalanced.
    for (an, bn) in [
        (1 << 14, 1 << 14),
        (1 << 16, 1 << 16),
        ((1 << 16) + 1, 1 << 16),
        (3 << 15, 3 << 15),
        ((3 << 15) + 1, 3 << 15),
        (1 << 17, 7),
        (100_000, 31_072),
    ] {
        check(&limbs(an, 3), &limbs(bn, 4), &[1, 2]);
    }
    check(
        &vec![Limb::MAX; 1 << 16],
        &vec![Limb::MAX; (1 << 16) + 1],
        &[2],
    );
}

/// The IFMA back end gives threads whole primes on 2 to 4 threads (a hybrid on 3: three whole,
/// the fourth split) and splits every prime's phases otherwise: 1 to 5 threads, products and
/// squares from the kernels' smallest blocks to megabits, the same limbs as GMP's and as each
/// other.
#[test]
fn whole_primes_per_thread_and_split_phases_agree() {
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    {
        assert_eq!(
            [1, 2, 3, 4, 5, 8].map(ifma::whole_primes),
            [0, 4, 3, 4, 0, 0]
        );
    }
    let threads = [1, 2, 3, 4, 5];
    for (an, bn) in [
        (20, 20),
        (300, 257),
        (1 << 10, 1 << 10),
        (3 << 10, (3 << 10) + 1),
        (1 << 13, 1 << 13),
        (1 << 14, 5000),
    ] {
        let (a, b) = (limbs(an, 11), limbs(bn, 12));
        check(&a, &b, &threads);
        // Squares by sqr_into on every thread count: the same limbs as GMP's square.
        let want = int(&a).square();
        for &backend in backends() {
            for t in threads {
                let mut out = vec![0x5a5a; 2 * an];
                sqr_into_with(backend, pool(), t, &mut out, &a).unwrap();
                assert_eq!(int(&out), want, "{backend:?} {an}² on {t} threads");
            }
        }
    }
}

/// A 64-Mbit product (2^20 limbs each, 2^21 points per transform): about a second in a
/// release build; ignored in debug builds.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn sixty_four_megabit() {
    check(&limbs(1 << 20, 9), &limbs(1 << 20, 10), &[2]);
}

/// Indicative timings, not a test of anything (ignored; `cargo test --release -p parcrypt
/// timing_table -- --ignored --nocapture`): balanced 64 Kbit, 1 Mbit and 16 Mbit products by
/// GMP and each back end on 1 and 2 threads, the cases interleaved within each of 7 rounds;
/// prints each case's median and minimum time per product. Tables are built before timing.
#[test]
#[ignore]
fn timing_table() {
    use std::time::Instant;
    let pool2 = Pool::new(1, false, crate::parallel::pool::DEFAULT_SPIN).unwrap();
    for bits in [1usize << 16, 1 << 20, 1 << 24] {
        let n = bits / 64;
        let (a, b) = (limbs(n, 1), limbs(n, 2));
        let (ia, ib) = (int(&a), int(&b));
        let reps = (1usize << 22) / bits + 1;
        let mut out = vec![0; 2 * n];
        let mut names = vec!["gmp".to_string()];
        for &be in backends() {
            for t in [1, 2] {
                names.push(format!("ntt-{} {t}t", be.short()));
            }
        }
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
        for round in 0..8 {
            for (c, name) in names.iter().enumerate() {
                let start = Instant::now();
                for _ in 0..reps {
                    if c == 0 {
                        std::hint::black_box(Integer::from(&ia * &ib));
                    } else {
                        let be = backends()[(c - 1) / 2];
                        let t = 1 + (c - 1) % 2;
                        mul_into_with(be, &pool2, t, &mut out, &a, &b).unwrap();
                    }
                }
                // Round 0 warms up (tables, pages) and is not kept.
                if round > 0 {
                    times[c].push(start.elapsed().as_secs_f64() / reps as f64);
                }
                let _ = name;
            }
        }
        println!("{bits} bits × {bits} bits ({reps} products per case per round):");
        #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
        if Backend::Ifma.available() {
            // The share of the recombination (scalar Garner): the transforms alone.
            let plan = ifma::plan(n, n).unwrap();
            let mut t = Vec::new();
            for _ in 0..5 {
                let start = Instant::now();
                for _ in 0..reps {
                    let r = ifma::residues(&pool2, 1, ifma::Width::W512, plan, &a, Some(&b));
                    std::hint::black_box(r);
                }
                t.push(start.elapsed().as_secs_f64() / reps as f64);
            }
            t.sort_by(f64::total_cmp);
            println!(
                "  (ntt-ifma 1t transforms alone, no recombination: median {:.3} ms)",
                t[2] * 1e3
            );
        }
        for (name, mut t) in names.iter().zip(times) {
            t.sort_by(f64::total_cmp);
            println!(
                "  {name:<18} median {:>9.3} ms  min {:>9.3} ms",
                t[t.len() / 2] * 1e3,
                t[0] * 1e3
            );
        }
    }
}

#[test]
fn bounds_and_shapes_are_errors_not_wrong_products() {
    assert!(check_bound(1 << 57, 1 << 57).is_err());
    assert!(check_bound(usize::MAX, 3).is_err());
    assert!(check_bound(1 << 40, 1 << 40).is_err());
    assert_eq!(check_bound(4, 5).unwrap(), Shape { radix: 2, m: 4 });
    assert_eq!(check_bound(3, 3).unwrap(), Shape { radix: 3, m: 2 });
    let mut out = vec![0; 3];
    assert!(mul_into(pool(), 1, &mut out, &[1], &[1]).is_err());
    assert!(sqr_into(pool(), 1, &mut out, &[1]).is_err());
    let mut out = vec![9; 2];
    mul_into(pool(), 1, &mut out, &[], &[1, 2]).unwrap();
    assert_eq!(out, [0, 0]);
    let mut none: [Limb; 0] = [];
    sqr_into(pool(), 0, &mut none, &[]).unwrap();
    assert_eq!(
        product(pool(), 0, &[u64::MAX], &[u64::MAX]).unwrap(),
        int(&[u64::MAX]).square()
    );
}

#[test]
fn memory_stays_within_eight_times_the_operands() {
    // Scratch plus the output, against the operands' limbs, on every boundary pair.
    for (an, bn) in boundary_pairs(1 << 22) {
        let words = scratch_words(an, bn, false).unwrap() + an + bn;
        assert!(words <= 8 * (an + bn), "{an}×{bn}: {words} words");
    }
}

#[test]
fn the_multiplier_signs_zero_and_names() {
    use crate::mul::Multiplier;
    let m = method::new(crate::mul::KaraConfig::default()).unwrap();
    let (a, b) = crate::mul::operands(70_000, 5);
    for (sa, sb) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
        let (a, b) = (Integer::from(&a * sa), Integer::from(&b * sb));
        assert_eq!(m.mul(&a, &b), Integer::from(&a * &b));
        assert_eq!(m.mul(&a, &a), Integer::from(a.square_ref()));
    }
    assert_eq!(m.mul(&Integer::new(), &a), 0);
    assert_eq!(m.mul(&a, &Integer::from(-1)), Integer::from(-&a));
    assert_eq!(m.threads(), 2);
    assert_eq!(m.name(), "ntt");
    assert!(
        m.describe().contains(Backend::detect().name()),
        "{}",
        m.describe()
    );
    let via = crate::mul::multiplier("ntt", &crate::mul::KaraConfig::default()).unwrap();
    assert_eq!(via.mul(&a, &b), Integer::from(&a * &b));
    for name in crate::mul::NTT_BACKEND_METHODS {
        match crate::mul::multiplier(name, &crate::mul::KaraConfig::default()) {
            Ok(m) => assert_eq!((m.name(), m.mul(&a, &b)), (name, Integer::from(&a * &b))),
            Err(e) => assert!(e.to_string().contains("not available"), "{name}: {e}"),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn matches_gmp_on_one_to_four_threads(
        an in 1usize..1500,
        bn in 1usize..1500,
        seed in any::<u64>(),
        shape in 0u8..5,
    ) {
        let (mut a, mut b) = (limbs(an, seed), limbs(bn, seed ^ 1));
        match shape {
            1 => a.fill(Limb::MAX),
            2 => b.iter_mut().step_by(3).for_each(|x| *x = 0),
            3 => b = a.clone(),
            4 => { a.fill(Limb::MAX); b.fill(Limb::MAX); }
            _ => {}
        }
        check(&a, &b, &[1, 2, 3, 4]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]
    #[test]
    fn matches_gmp_up_to_several_megabits(
        an in 1usize..80_000,
        bn in 1usize..80_000,
        seed in any::<u64>(),
    ) {
        check(&limbs(an, seed), &limbs(bn, seed ^ 1), &[1, 2]);
    }
}

/// The wide digits' bound (see [`ifma`]'s module docs): for every width, the largest digit
/// count [`ifma::exact`] allows keeps `d·(2^w − 1)^2` below the four primes' product, one
/// digit more is refused, and every product `check_bound` takes has an exact width.
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
#[test]
fn wide_digits_stay_below_the_four_primes_product() {
    let product: Integer = ifma::field::PRIMES
        .iter()
        .map(|q| Integer::from(q.p))
        .product();
    assert!(product > Integer::from(1) << ifma::LOG_PRIMES);
    for w in ifma::WIDTHS {
        assert!(w % 4 == 0 && (64..=104).contains(&w), "{w}");
        let log_d = ifma::LOG_PRIMES - 2 * w;
        // The largest shorter operand (in limbs) whose digit count is at most 2^log_d.
        let d_max = 1u128 << log_d.min(100);
        let limbs = usize::try_from(d_max * u128::from(w) / 64).unwrap_or(usize::MAX / 64);
        let d = ifma::digit_count(limbs, w) as u128;
        let ones: Integer = (Integer::from(1) << w) - 1u32;
        let worst = Integer::from(d) * ones.square();
        assert!(worst < product, "w = {w}: {d} digits");
        if log_d <= 40 {
            assert!(ifma::exact(limbs, w), "w = {w}");
            assert!(ifma::digit_count(limbs + 1, w) as u128 > d_max);
            assert!(!ifma::exact(limbs + 1, w), "w = {w}");
        }
    }
    // 64-bit digits are exact for every product check_bound takes (shorter < 2^57 limbs).
    assert!(ifma::exact((1 << MAX_LOG_SHORTER) - 1, 64));
    // Wider than the bound allows at any size: none.
    assert!(!ifma::exact(1, 100));
}

/// The widths chosen: the widest exact one whose shape the kernels take (96 bits up to 192
/// limbs in the shorter operand, 92 to 47104 limbs, then 88, to 2^23 digits), and the shapes
/// of the sizes (a quarter fewer points than 64-bit digits).
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
#[test]
fn wide_digit_plans_by_size() {
    let w = |an: usize, bn: usize| ifma::plan(an, bn).map(|p| p.w);
    assert_eq!(w(192, 192), Some(96));
    assert_eq!(w(193, 193), Some(92));
    assert_eq!(w(193, 100_000), Some(92));
    assert_eq!(w(47_104, 47_104), Some(92));
    assert_eq!(w(47_105, 47_105), Some(88));
    assert_eq!(w(1 << 18, 1 << 18), Some(88));
    assert_eq!(w(2 << 20, 2 << 20), Some(88));
    // 2^23 88-bit digits and one limb more.
    assert_eq!(w(11_534_336, 11_534_336), Some(88));
    assert_eq!(w(11_534_337, 11_534_337), Some(84));
    // Too short for the kernels at any width: the portable path.
    assert_eq!(ifma::plan(1, 1), None);
    assert_eq!(ifma::plan(12, 13), None);
    let points = |an: usize| ifma::plan(an, an).unwrap().shape.points();
    assert_eq!(points(1 << 14), 3 << 13);
    assert_eq!(points(1 << 18), 3 << 17);
    assert_eq!(check_bound(1 << 14, 1 << 14).unwrap().points(), 1 << 15);
    // Never more points than 64-bit digits, wherever the kernels take both.
    for an in (13..5000).step_by(7) {
        for bn in [an, 2 * an + 1, 13] {
            let (p, s) = (ifma::plan(an, bn), check_bound(an, bn).unwrap());
            if let Some(p) = p {
                assert!(p.shape.points() <= s.points(), "{an}×{bn}");
            }
        }
    }
}

/// Operand lengths (in limbs) around the widths' changes and the wide digits' transform
/// lengths: pairs whose digit counts give `n − 1`, `n` and `n + 1` coefficients for each
/// length `n`, balanced and unbalanced, at the width the plan picks.
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
fn wide_boundary_pairs(max_n: usize) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    for n in lengths(max_n) {
        for coeffs in [n - 1, n, n + 1] {
            let total = coeffs + 1;
            for w in [96u32, 92] {
                for da in [total / 2, 1, total - total / 5] {
                    let db = total - da;
                    // The most limbs with that many digits.
                    let (an, bn) = (da * w as usize / 64, db * w as usize / 64);
                    if an == 0 || bn == 0 {
                        continue;
                    }
                    let plan = ifma::plan(an, bn);
                    if plan.is_some_and(|p| {
                        p.w == w && ifma::digit_count(an, w) + ifma::digit_count(bn, w) == total
                    }) {
                        v.push((an, bn));
                    }
                }
            }
        }
    }
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
#[test]
fn wide_digits_around_every_transform_length_and_width() {
    let pairs = wide_boundary_pairs(1 << 15);
    assert!(pairs.len() > 40, "{}", pairs.len());
    let shapes: Vec<Shape> = pairs
        .iter()
        .map(|&(a, b)| ifma::plan(a, b).unwrap().shape)
        .collect();
    assert!(shapes.iter().any(|s| s.radix == 2) && shapes.iter().any(|s| s.radix == 3));
    for &(an, bn) in &pairs {
        let seed = ((an as u64) << 32) ^ bn as u64;
        check(&limbs(an, seed), &limbs(bn, !seed), &[1, 3]);
    }
    // Where the width changes (96 -> 92 at 193 limbs, 92 -> 88 at 47105), balanced,
    // unbalanced and squared; all-ones operands put the coefficients nearest the bound.
    for (an, bn) in [
        (191, 191),
        (192, 192),
        (192, 5000),
        (193, 193),
        (193, 194),
        (47_104, 47_104),
        (47_104, 60_000),
        (47_105, 47_105),
        (47_105, 3),
    ] {
        check(&limbs(an, 5), &limbs(bn, 6), &[1, 2, 3]);
        check(&vec![Limb::MAX; an], &vec![Limb::MAX; bn], &[1, 2, 3]);
        let mut a = limbs(an, 7);
        a.iter_mut().step_by(3).for_each(|x| *x = 0);
        check(&a, &vec![Limb::MAX; bn], &[2]);
        check(&a, &a.clone(), &[1, 3]);
    }
}

#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
#[test]
fn wide_digits_zero_and_all_ones_and_squares() {
    for (an, bn) in wide_boundary_pairs(1 << 12) {
        let ones_b = vec![Limb::MAX; bn];
        check(&vec![Limb::MAX; an], &ones_b, &[1, 2]);
        check(&vec![0; an], &ones_b, &[1]);
        let mut a = limbs(an, 1);
        a.iter_mut().step_by(2).for_each(|x| *x = 0);
        if let Some(top) = a.last_mut() {
            *top = 0;
        }
        check(&a, &ones_b, &[2]);
        check(&a, &a.clone(), &[1, 2, 3]);
        check(&ones_b, &ones_b.clone(), &[3]);
    }
}

/// The recombination's chunks (one per thread, each a run of coefficients from the limb of its
/// first bit) and their five-limb carries give the same limbs on any thread count, also where
/// a chunk's carry runs over many limbs of all-ones.
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
#[test]
fn wide_recombination_chunks_carry_across() {
    assert!(ifma::add_limbs(&mut [u64::MAX, u64::MAX, 0], &[1]));
    assert!(!ifma::add_limbs(&mut [u64::MAX, u64::MAX], &[1]));
    assert!(!ifma::add_limbs(&mut [0], &[0, 1]));
    assert!(ifma::add_limbs(&mut [0], &[5, 0, 0]));
    let mut d = [1, 2, u64::MAX, 7];
    assert!(ifma::add_limbs(&mut d, &[u64::MAX, 0, 1]));
    assert_eq!(d, [0, 3, 0, 8]);
    // a·b with b = 2^k − 1 (all ones): long runs of ones in the product's middle.
    for an in [5000, 9000, 20_000] {
        let a = limbs(an, 3);
        check(&a, &vec![Limb::MAX; an + 3], &[1, 2, 3, 4]);
        let mut top = vec![Limb::MAX; an];
        top[0] = 1;
        check(&top, &vec![Limb::MAX; an], &[1, 2, 3]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn wide_digits_match_gmp_near_the_width_changes(
        an in 150usize..260,
        bn in 150usize..3000,
        seed in any::<u64>(),
        shape in 0u8..4,
    ) {
        let (mut a, mut b) = (limbs(an, seed), limbs(bn, seed ^ 1));
        match shape {
            1 => { a.fill(Limb::MAX); b.fill(Limb::MAX); }
            2 => b = a.clone(),
            3 => a.iter_mut().step_by(2).for_each(|x| *x = 0),
            _ => {}
        }
        check(&a, &b, &[1, 2, 3]);
    }
}
