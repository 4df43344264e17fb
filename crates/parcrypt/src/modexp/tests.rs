//! Every strategy against GMP's `mpz_powm`, on edge cases and random inputs.
use super::*;
use proptest::prelude::*;
use rug::rand::RandState;

fn gmp(b: &Integer, e: &Integer, m: &Integer) -> Integer {
    let mut b = Integer::from(b % m);
    if b < 0 {
        b += m;
    }
    b.pow_mod(e, m).unwrap()
}

fn check_all(b: &Integer, e: &Integer, m: &Integer, params: &Params) {
    let expected = gmp(b, e, m);
    for method in methods() {
        if method.needs_odd_modulus() && m.is_even() {
            assert!(
                pow_mod_vartime(method.as_ref(), b, e, m, params).is_err(),
                "{}",
                method.name()
            );
            continue;
        }
        let got = pow_mod_vartime(method.as_ref(), b, e, m, params)
            .unwrap_or_else(|err| panic!("{}: {err}", method.name()));
        assert_eq!(
            got.value,
            expected,
            "{} b={b} e={e} m={m} {params:?}",
            method.name()
        );
    }
}

#[test]
fn edge_cases_work_for_every_method() {
    let m = Integer::from(1_000_003);
    let big_m: Integer = (Integer::from(1) << 521) - 1u32;
    for (b, e, m) in [
        (Integer::from(5), Integer::from(0), m.clone()),
        (Integer::from(5), Integer::from(1), m.clone()),
        (Integer::from(0), Integer::from(12345), m.clone()),
        (Integer::from(0), Integer::from(0), m.clone()),
        (Integer::from(3_000_011), Integer::from(77), m.clone()),
        (Integer::from(-7), Integer::from(77), m.clone()),
        (Integer::from(9), Integer::from(9), Integer::from(1)),
        (Integer::from(9), Integer::from(9), Integer::from(2)),
        (Integer::from(3), Integer::from(65537), big_m.clone()),
        (
            Integer::from(3),
            Integer::from(&big_m - 2u32),
            big_m.clone(),
        ),
        (Integer::from(2), Integer::from(1) << 300, big_m.clone()),
    ] {
        for threads in [1, 2, 3, 8, 64] {
            for window in [None, Some(1), Some(2), Some(5)] {
                let params = Params {
                    threads,
                    window,
                    ..Params::default()
                };
                check_all(&b, &e, &m, &params);
            }
        }
    }
}

#[test]
fn bad_inputs_are_errors_not_panics() {
    let b = Integer::from(3);
    let e = Integer::from(5);
    let binary = method("binary").unwrap();
    let p = Params::default();
    let err = pow_mod_vartime(binary.as_ref(), &b, &e, &Integer::new(), &p).unwrap_err();
    assert!(
        err.to_string().contains("modulus must be positive"),
        "{err}"
    );
    assert!(
        pow_mod_vartime(
            binary.as_ref(),
            &b,
            &Integer::from(-1),
            &Integer::from(7),
            &p
        )
        .is_err()
    );
    let mont = method("montgomery").unwrap();
    let err = pow_mod_vartime(mont.as_ref(), &b, &e, &Integer::from(10), &p).unwrap_err();
    assert!(err.to_string().contains("odd modulus"), "{err}");
    for window in [0, digits::MAX_WINDOW + 1] {
        let p = Params {
            window: Some(window),
            ..Params::default()
        };
        for name in ["mary", "sliding", "mary-precomp", "mary-ondemand"] {
            let m = method(name).unwrap();
            let err = pow_mod_vartime(m.as_ref(), &b, &e, &Integer::from(7), &p).unwrap_err();
            assert!(err.to_string().contains("window size"), "{name}: {err}");
        }
    }
    let p = Params {
        threads: 0,
        ..Params::default()
    };
    assert!(pow_mod_vartime(binary.as_ref(), &b, &e, &Integer::from(7), &p).is_err());
    let err = method("quantum").err().unwrap();
    assert!(
        err.to_string().contains("unknown method 'quantum'"),
        "{err}"
    );
}

#[test]
fn method_names_are_unique() {
    let names: Vec<_> = methods().iter().map(|m| m.name()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "{names:?}");
}

#[test]
fn counts_follow_the_strategy() {
    let m: Integer = (Integer::from(1) << 127) - 1u32;
    let b = Integer::from(5);
    let e: Integer = (Integer::from(1) << 64) - 1u32; // 64 ones
    let run = |name: &str, params: Params| {
        pow_mod_vartime(method(name).unwrap().as_ref(), &b, &e, &m, &params).unwrap()
    };
    // m-ary with r = 4: 14 table products, 15 * 4 squarings, 15 digit products.
    let o = run(
        "mary",
        Params {
            window: Some(4),
            ..Params::default()
        },
    );
    assert_eq!(
        (o.counts[0].squarings, o.counts[0].multiplications),
        (60, 29)
    );
    // Right-to-left: 63 squarings, 63 multiplications.
    let o = run("binary-rl", Params::default());
    assert_eq!(o.total_mulmods(), 126);
    // The pipeline splits exactly those between its two threads.
    let o = run(
        "sqmul-pipeline",
        Params {
            threads: 2,
            ..Params::default()
        },
    );
    assert_eq!(o.counts.len(), 2);
    assert_eq!(o.counts[0].multiplications, 63);
    assert_eq!(o.counts[1].squarings, 63);
    // Balanced slices over two threads: 48 + 16 bits; the high slice squares 48 times more.
    let o = run(
        "slice",
        Params {
            threads: 2,
            ..Params::default()
        },
    );
    assert_eq!(o.counts[0].mulmods(), 47 + 47);
    assert_eq!(o.counts[1].mulmods(), 15 + 15 + 48);
    assert_eq!(o.counts[2].multiplications, 1, "one combine");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn every_method_equals_gmp(
        seed in any::<u32>(),
        mod_bits in 2u32..700,
        exp_bits in 0u32..400,
        odd in any::<bool>(),
        threads in 1usize..6,
        window in proptest::option::of(1u32..7),
        slicing in 0usize..3,
        kernel in 0usize..3,
    ) {
        let mut rng = RandState::new();
        rng.seed(&Integer::from(seed));
        let mut m = Integer::from(Integer::random_bits(mod_bits, &mut rng));
        m.set_bit(mod_bits - 1, true);
        if odd { m.set_bit(0, true); }
        let e = Integer::from(Integer::random_bits(exp_bits, &mut rng));
        let b = Integer::from(Integer::random_bits(mod_bits + 8, &mut rng));
        let slicing = [Slicing::Even, Slicing::Uneven, Slicing::Balanced][slicing];
        let kernel = [Kernel::Auto, Kernel::Mpz, Kernel::Montgomery][kernel];
        let params = Params { threads, window, slicing, kernel, ..Params::default() };
        check_all(&b, &e, &m, &params);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Moduli large enough for the two-thread product (and the Montgomery kernel's product
    /// reduction from 68 limbs), both kernels, odd and even.
    #[test]
    fn large_moduli_equal_gmp(
        seed in any::<u32>(),
        mod_bits in prop_oneof![1500u32..2200, 4300u32..4500, 8100u32..8300],
        exp_bits in 0u32..200,
        odd in any::<bool>(),
        threads in 1usize..4,
        kernel in 0usize..3,
    ) {
        let mut rng = RandState::new();
        rng.seed(&Integer::from(seed));
        let mut m = Integer::from(Integer::random_bits(mod_bits, &mut rng));
        m.set_bit(mod_bits - 1, true);
        if odd { m.set_bit(0, true); }
        let e = Integer::from(Integer::random_bits(exp_bits, &mut rng));
        let b = Integer::from(Integer::random_bits(mod_bits + 8, &mut rng));
        let kernel = [Kernel::Auto, Kernel::Mpz, Kernel::Montgomery][kernel];
        let params = Params { threads, kernel, ..Params::default() };
        let want = gmp(&b, &e, &m);
        for name in ["binary", "sliding", "mary-precomp", "slice", "sqmul-pipeline",
                     "binary-parmul", "window-parmul"] {
            let got = pow_mod_vartime(method(name).unwrap().as_ref(), &b, &e, &m, &params).unwrap();
            prop_assert_eq!(&got.value, &want, "{} {:?}", name, params);
        }
    }
}
