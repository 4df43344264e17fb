//! Every backend against GMP (`mpz_powm` through rug's `pow_mod`), on random and edge operands
//! from 512 to 8192 bits; the constant-time helpers against plain arithmetic. A backend this
//! CPU cannot run is named on stderr as skipped (the test still checks the others).
use super::select::{self, MASK52};
use super::*;
use proptest::prelude::*;
use rug::rand::RandState;

/// The backends this CPU runs; prints the others as skipped.
fn backends(test: &str) -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| {
            let why = b.unavailable_reason();
            if let Some(why) = &why {
                eprintln!("{test}: backend {b} skipped: {why}");
            }
            why.is_none()
        })
        .collect()
}

fn rand_state(seed: u64) -> RandState<'static> {
    let mut r = RandState::new();
    r.seed(&Integer::from(seed));
    r
}

/// An odd modulus of exactly `bits` bits of the given shape.
fn modulus(bits: u32, shape: u8, rng: &mut RandState) -> Integer {
    let mut m = match shape {
        // All ones: every digit saturated.
        0 => (Integer::from(1) << bits) - 1u32,
        // Top and bottom bit only.
        1 => (Integer::from(1) << (bits - 1)) + 1u32,
        _ => Integer::from(Integer::random_bits(bits, rng)),
    };
    m.set_bit(bits - 1, true);
    m.set_bit(0, true);
    m
}

/// Edge and random values below m: 0, 1, 2, m-1, m-2, all ones below m, a power of two, the
/// top half, random.
fn values(m: &Integer, rng: &mut RandState) -> Vec<Integer> {
    let bits = m.significant_bits();
    let ones = (Integer::from(1) << (bits - 1)) - 1u32;
    vec![
        Integer::new(),
        Integer::from(1),
        Integer::from(2),
        Integer::from(m - 1u32),
        Integer::from(m - 2u32),
        ones,
        Integer::from(1) << (bits / 2),
        Integer::from(m >> 1),
        Integer::from(m.random_below_ref(rng)),
    ]
}

/// Exponents of at most `bits` bits: 0, 1, 2, all ones, top bit only, random.
fn exponents(bits: u32, rng: &mut RandState) -> Vec<Integer> {
    vec![
        Integer::new(),
        Integer::from(1),
        Integer::from(2),
        (Integer::from(1) << bits) - 1u32,
        Integer::from(1) << (bits - 1),
        Integer::from(Integer::random_bits(bits, rng)),
    ]
}

fn gmp(b: &Integer, e: &Integer, m: &Integer) -> Integer {
    Integer::from(b.pow_mod_ref(e, m).unwrap())
}

#[test]
fn every_backend_matches_gmp_on_edge_operands() {
    let mut rng = rand_state(1);
    for backend in backends("edge operands") {
        for bits in [512u32, 520, 1024, 1040, 1500, 2048] {
            for shape in 0..3 {
                let m = modulus(bits, shape, &mut rng);
                let ctx = CtModulus::new(&m, backend).unwrap();
                let vals = values(&m, &mut rng);
                let exps = exponents(bits, &mut rng);
                // Every value with a random exponent, every exponent with a random value.
                let e_rand = &exps[exps.len() - 1];
                let b_rand = &vals[vals.len() - 1];
                for b in &vals {
                    assert_eq!(
                        *ctx.pow(b, e_rand),
                        gmp(b, e_rand, &m),
                        "{backend} {bits} bits shape {shape}"
                    );
                }
                for e in &exps {
                    assert_eq!(*ctx.pow(b_rand, e), gmp(b_rand, e, &m), "{backend} {bits}");
                }
            }
        }
    }
}

#[test]
fn pairs_match_gmp_dual_and_not() {
    let mut rng = rand_state(2);
    for backend in backends("pairs") {
        // Same digit count (the dual IFMA kernel), then different sizes (one after the other).
        for (ba, bb) in [(1024u32, 1024u32), (1024, 1010), (2048, 2040), (1024, 700)] {
            let (ma, mb) = (modulus(ba, 2, &mut rng), modulus(bb, 2, &mut rng));
            let (ca, cb) = (
                CtModulus::new(&ma, backend).unwrap(),
                CtModulus::new(&mb, backend).unwrap(),
            );
            let ebits = ba.max(bb);
            for _ in 0..3 {
                let (xa, xb) = (
                    Integer::from(ma.random_below_ref(&mut rng)),
                    Integer::from(mb.random_below_ref(&mut rng)),
                );
                let (ea, eb) = (
                    Integer::from(Integer::random_bits(ebits, &mut rng)),
                    Integer::from(Integer::random_bits(ebits, &mut rng)),
                );
                let limbs = |x: &Integer, n: usize| crate::bignum::mpn::padded(x, n);
                let ne = ebits.div_ceil(64) as usize;
                let (mut oa, mut ob) = (vec![0; ca.limbs()], vec![0; cb.limbs()]);
                pow_pair(
                    [&ca, &cb],
                    [&mut oa, &mut ob],
                    [&limbs(&xa, ca.limbs()), &limbs(&xb, cb.limbs())],
                    [&limbs(&ea, ne), &limbs(&eb, ne)],
                    ebits,
                );
                assert_eq!(mpn::to_integer(&oa), gmp(&xa, &ea, &ma), "{backend} {ba}");
                assert_eq!(mpn::to_integer(&ob), gmp(&xb, &eb, &mb), "{backend} {bb}");
                // The squaring chains agree with x^(2^k).
                let [sa, sb] = square_chain_pair(
                    [&ca, &cb],
                    [&limbs(&xa, ca.limbs()), &limbs(&xb, cb.limbs())],
                    7,
                );
                let two7 = Integer::from(128);
                assert_eq!(mpn::to_integer(&sa), gmp(&xa, &two7, &ma));
                assert_eq!(mpn::to_integer(&sb), gmp(&xb, &two7, &mb));
            }
        }
    }
}

use crate::bignum::mpn;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random moduli, bases and exponents from 512 to 3000 bits, every backend.
    #[test]
    fn random_operands_match_gmp(seed in any::<u64>(), bits in 512u32..3000, shape in 0u8..4) {
        let mut rng = rand_state(seed);
        let m = modulus(bits, shape.min(2), &mut rng);
        let b = Integer::from(Integer::random_bits(bits + 70, &mut rng));
        let e = Integer::from(Integer::random_bits(bits, &mut rng));
        let want = gmp(&b, &e, &m);
        for backend in backends("random operands") {
            let ctx = CtModulus::new(&m, backend).unwrap();
            prop_assert_eq!(&*ctx.pow(&b, &e), &want, "{} {} bits", backend, bits);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3))]

    /// The large sizes, fewer cases: 4096 and 8192 bits (IFMA's largest shapes included).
    #[test]
    fn large_moduli_match_gmp(seed in any::<u64>(), big in any::<bool>(), shape in 0u8..3) {
        let mut rng = rand_state(seed);
        let bits = if big { 8192 } else { 4096 };
        let m = modulus(bits, shape, &mut rng);
        let b = Integer::from(m.random_below_ref(&mut rng));
        // A full-length exponent at 4096 bits; a shorter one read over 8192 bits keeps the
        // test to seconds (the window loop is the same).
        let e = Integer::from(Integer::random_bits(if big { 1024 } else { bits }, &mut rng));
        let want = gmp(&b, &e, &m);
        for backend in backends("large moduli") {
            let ctx = CtModulus::new(&m, backend).unwrap();
            let ebits = if big { 1024 } else { bits };
            prop_assert_eq!(&*ctx.pow_bits(&b, &e, ebits), &want, "{} {} bits", backend, bits);
        }
    }
}

#[test]
fn the_largest_ifma_shape_and_beyond() {
    let mut rng = rand_state(5);
    let m = modulus(IFMA_MAX_BITS, 0, &mut rng);
    let b = Integer::from(m.random_below_ref(&mut rng));
    let e = Integer::from(Integer::random_bits(200, &mut rng));
    for backend in backends("largest IFMA shape") {
        let ctx = CtModulus::new(&m, backend).unwrap();
        assert_eq!(*ctx.pow_bits(&b, &e, 200), gmp(&b, &e, &m), "{backend}");
    }
    let too_big = modulus(IFMA_MAX_BITS + 1, 2, &mut rng);
    assert!(!Backend::Ifma.supports_bits(IFMA_MAX_BITS + 1));
    let err = CtModulus::new(&too_big, Backend::Ifma).unwrap_err();
    assert!(err.to_string().contains("ifma"), "{err}");
    assert_ne!(
        Backend::best_for(IFMA_MAX_BITS + 1),
        Backend::Ifma,
        "auto never picks a backend that cannot take the size"
    );
}

#[test]
fn bad_moduli_and_unavailable_backends_are_errors() {
    assert!(CtModulus::new(&Integer::from(100), Backend::Portable).is_err());
    assert!(CtModulus::new(&Integer::from(1), Backend::Portable).is_err());
    assert!(CtModulus::new(&Integer::from(-7), Backend::Portable).is_err());
    for b in Backend::ALL {
        assert_eq!(Backend::from_name(b.name()), Some(b));
        if !b.available() {
            let err = CtModulus::new(&Integer::from(1_000_003), b).unwrap_err();
            assert!(err.to_string().contains("cannot run here"), "{err}");
        }
    }
    assert!(Backend::best().available());
}

#[test]
fn select_reads_the_chosen_entry_of_any_table() {
    let entries = 32usize;
    let len = 5usize;
    let table: Vec<u64> = (0..entries * len)
        .map(|i| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .collect();
    for idx in 0..entries {
        let mut out = vec![7u64; len];
        select::select(&mut out, &table, idx as u64);
        assert_eq!(out, table[idx * len..(idx + 1) * len]);
        // One lane of a two-lane table.
        let mut part = vec![0u64; 2];
        select::select_part(&mut part, &table, len, 3, idx as u64);
        assert_eq!(part, table[idx * len + 3..idx * len + 5]);
    }
    let mut out = vec![1u64; len];
    select::select(&mut out, &table, entries as u64);
    assert_eq!(out, vec![0; len], "an index past the table selects nothing");
    for (a, b) in [
        (0u64, 0u64),
        (1, 1),
        (u64::MAX, u64::MAX),
        (0, 1),
        (5, 1 << 63),
        (u64::MAX, 0),
    ] {
        assert_eq!(select::eq_mask(a, b), if a == b { u64::MAX } else { 0 });
    }
    assert_eq!(select::mask_from_bit(1), u64::MAX);
    assert_eq!(select::mask_from_bit(0), 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Masked subtraction, addition and the reductions against rug.
    #[test]
    fn masked_arithmetic_matches_rug(seed in any::<u64>(), limbs in 1usize..12, carry in any::<bool>()) {
        let mut rng = rand_state(seed);
        let bits = 64 * limbs as u32;
        let mut m = Integer::from(Integer::random_bits(bits, &mut rng));
        m.set_bit(0, true);
        m.set_bit(bits - 1 - (seed % 3) as u32, true);
        let x = Integer::from(m.random_below_ref(&mut rng));
        let y = Integer::from(m.random_below_ref(&mut rng));
        let ml = mpn::padded(&m, limbs);
        // reduce_once on x + m (< 2m; may carry out of the limbs) and on x.
        let sum = Integer::from(&x + &m);
        let mut s = mpn::padded(&Integer::from(sum.keep_bits_ref(bits)), limbs);
        select::reduce_once_with_carry(&mut s, u64::from(sum.get_bit(bits)), &ml);
        prop_assert_eq!(mpn::to_integer(&s), x.clone());
        let mut xs = mpn::padded(&x, limbs);
        select::reduce_once(&mut xs, &ml);
        prop_assert_eq!(mpn::to_integer(&xs), x.clone());
        // sub_mod
        let mut d = mpn::padded(&x, limbs);
        select::sub_mod(&mut d, &mpn::padded(&y, limbs), &ml);
        let want = (Integer::from(&x - &y) + &m) % &m;
        prop_assert_eq!(mpn::to_integer(&d), want);
        // masked add/sub with a mask of either kind
        let mask = if carry { u64::MAX } else { 0 };
        let mut a = mpn::padded(&x, limbs);
        let c = select::add_masked(&mut a, &mpn::padded(&y, limbs), mask);
        let want = if carry { Integer::from(&x + &y) } else { x.clone() };
        prop_assert_eq!(mpn::to_integer(&a) + (Integer::from(c) << bits), want);
        let mut a = mpn::padded(&x, limbs);
        let b = select::sub_masked(&mut a, &mpn::padded(&y, limbs), mask);
        let want = if carry { Integer::from(&x - &y) } else { x.clone() };
        prop_assert_eq!(mpn::to_integer(&a) - (Integer::from(b) << bits), want);
        // Mont64: product, reduction of a wide value, REDC, 2^e mod m.
        let mont = Mont64::new(&ml).unwrap();
        let r = Integer::from(1) << bits;
        let rinv = Integer::from(r.invert_ref(&m).unwrap());
        let mut p = vec![0u64; limbs];
        mont.mul(&mut p, &mpn::padded(&x, limbs), &mpn::padded(&y, limbs));
        let got = mpn::to_integer(&p);
        prop_assert!(got < r);
        prop_assert_eq!(got % &m, Integer::from(&x * &y) * &rinv % &m);
        mont.mul_mod(&mut p, &mpn::padded(&x, limbs), &mpn::padded(&y, limbs));
        prop_assert_eq!(mpn::to_integer(&p), Integer::from(&x * &y) % &m);
        let wide = Integer::from(Integer::random_bits(bits * 3 + 17, &mut rng));
        mont.reduce(&mut p, wide.as_limbs());
        prop_assert_eq!(mpn::to_integer(&p), Integer::from(&wide % &m));
        let t = Integer::from(&x * &y);
        let mut tl = mpn::padded(&t, 2 * limbs);
        mont.redc(&mut p, &mut tl);
        prop_assert_eq!(mpn::to_integer(&p), t * &rinv % &m);
        let e = (seed % 1000) as usize;
        prop_assert_eq!(mpn::to_integer(&portable::pow2_mod(&ml, e)), (Integer::from(1) << e as u32) % &m);
        for e in [e, 0, 1, 64 * limbs, 128 * limbs, 104 * limbs + 3] {
            prop_assert_eq!(mpn::to_integer(&mont.pow2(e)), (Integer::from(1) << e as u32) % &m, "2^{}", e);
        }
    }

    /// Radix 2^52 and back, and the product of fixed length.
    #[test]
    fn radix_changes_and_wide_products_round_trip(seed in any::<u64>(), limbs in 1usize..10) {
        let mut rng = rand_state(seed);
        let x = Integer::from(Integer::random_bits(64 * limbs as u32, &mut rng));
        let y = Integer::from(Integer::random_bits(64 * limbs as u32 - 3, &mut rng));
        let xl = mpn::padded(&x, limbs);
        let digits = (64 * limbs).div_ceil(52);
        let mut d = vec![0u64; digits];
        select::to_radix52(&xl, &mut d);
        prop_assert!(d.iter().all(|&v| v <= MASK52));
        let mut back = vec![0u64; limbs];
        select::from_radix52(&d, &mut back);
        prop_assert_eq!(&back, &xl);
        let mut prod = vec![0u64; 2 * limbs];
        portable::mul_wide(&mut prod, &xl, &mpn::padded(&y, limbs));
        prop_assert_eq!(mpn::to_integer(&prod), Integer::from(&x * &y));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Squaring chains (the dedicated squaring of the MULX kernel, the IFMA normalization) on
    /// values and moduli whose limbs are mostly all ones: the longest carry ripples.
    #[test]
    fn squarings_match_gmp_on_carry_heavy_values(
        seed in any::<u64>(),
        size in 0usize..5,
        holes in 0u32..4,
        count in 1usize..40,
    ) {
        let mut rng = rand_state(seed);
        let bits = [512u32, 1024, 1536, 2048, 1040][size];
        let mut m = (Integer::from(1) << bits) - 1u32;
        // A few zero bits punched into the all-ones modulus and value.
        for _ in 0..holes {
            let b = Integer::from(Integer::random_bits(32, &mut rng)).to_u32().unwrap() % (bits - 2) + 1;
            m.set_bit(b, false);
        }
        let x = Integer::from(&m - 1u32) - Integer::from(Integer::random_bits(holes * 20, &mut rng));
        let want = gmp(&x, &(Integer::from(1) << count as u32), &m);
        for backend in backends("carry-heavy squarings") {
            let ctx = CtModulus::new(&m, backend).unwrap();
            let got = ctx.square_chain(&mpn::padded(&x, ctx.limbs()), count);
            prop_assert_eq!(mpn::to_integer(&got), want.clone(), "{} {} bits", backend, bits);
        }
    }
}

/// Every modulus size a valid key's prime can have at the small end (a multi-prime key may
/// hold a prime of a few bits): 2 to 130 bits on every backend, alone and as a pair with a
/// 1024-bit prime (the CRT's call), against GMP. The IFMA kernel once refused moduli below 51
/// bits ("IFMA size", a panic).
#[test]
fn small_moduli_match_gmp_on_every_backend() {
    let mut rng = rand_state(6);
    for backend in backends("small moduli") {
        for bits in (2u32..=130).chain([190, 255, 256, 257]) {
            let m = modulus(bits, 2, &mut rng);
            let ctx = CtModulus::new(&m, backend).unwrap();
            for b in values(&m, &mut rng) {
                for e in exponents(bits.max(3), &mut rng) {
                    let ebits = e.significant_bits().max(bits);
                    let got = ctx.pow_bits(&b, &e, ebits);
                    assert_eq!(*got, gmp(&b, &e, &m), "{backend} {bits} bits");
                }
            }
            let big = modulus(1024, 2, &mut rng);
            let cb = CtModulus::new(&big, backend).unwrap();
            let (xa, xb) = (
                Integer::from(m.random_below_ref(&mut rng)),
                Integer::from(big.random_below_ref(&mut rng)),
            );
            let e = Integer::from(Integer::random_bits(1024, &mut rng));
            let limbs = |x: &Integer, n: usize| crate::bignum::mpn::padded(x, n);
            let ea = Integer::from(&e >> (1024 - bits.min(1024)));
            let (mut oa, mut ob) = (vec![0; ctx.limbs()], vec![0; cb.limbs()]);
            pow_pair(
                [&ctx, &cb],
                [&mut oa, &mut ob],
                [&limbs(&xa, ctx.limbs()), &limbs(&xb, cb.limbs())],
                [&limbs(&ea, 16), &limbs(&e, 16)],
                1024,
            );
            assert_eq!(mpn::to_integer(&oa), gmp(&xa, &ea, &m), "{backend} {bits}");
            assert_eq!(mpn::to_integer(&ob), gmp(&xb, &e, &big), "{backend} {bits}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The constant-time remainder against GMP's, for dividends and divisors of every shape
    /// (a divisor with zero top limbs, one limb, larger than the dividend, a power of two).
    #[test]
    fn the_constant_time_remainder_matches_gmp(
        seed in any::<u64>(),
        x_limbs in 1usize..40,
        m_bits in 1u32..1500,
        pad in 0usize..3,
        shape in 0u8..3,
    ) {
        let mut rng = rand_state(seed);
        let x = Integer::from(Integer::random_bits(64 * x_limbs as u32, &mut rng));
        let m = match shape {
            0 => Integer::from(Integer::random_bits(m_bits, &mut rng)) | 1u32,
            1 => Integer::from(1) << (m_bits - 1),
            _ => (Integer::from(1) << m_bits) - 1u32,
        };
        let m_len = m.significant_bits().div_ceil(64) as usize + pad;
        let got = select::rem(&mpn::padded(&x, x_limbs), &mpn::padded(&m, m_len));
        prop_assert_eq!(got.len(), m_len);
        prop_assert_eq!(mpn::to_integer(&got), Integer::from(&x % &m));
    }
}
