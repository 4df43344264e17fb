//! Every multiplication method against GMP's product (proptest), on sizes chosen around limb
//! boundaries, zero, one, unequal lengths and both signs; and the life cycle of the
//! persistent helpers (many calls, then a clean drop).
use super::*;
use proptest::prelude::*;
use rand::SeedableRng;
use std::sync::OnceLock;

/// Every method, and the parallel ones with 0–3 helpers, depths 1–3 and a threshold.
fn all() -> &'static [Box<dyn Multiplier>] {
    static ALL: OnceLock<Vec<Box<dyn Multiplier>>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut out = Vec::new();
        for name in METHODS {
            let helpers_range = if is_parallel(name) {
                0..=MAX_HELPERS
            } else {
                1..=1
            };
            for helpers in helpers_range {
                let config = KaraConfig {
                    helpers,
                    depth: 1 + (helpers as u32 % 3),
                    threshold_bits: if helpers == 2 { 256 } else { 0 },
                    pin: false,
                    // The best one-thread product on every other layout: at these sizes
                    // (below any NTT threshold) it must be GMP's product, signs included.
                    leaves: if helpers % 2 == 1 {
                        Leaves::Best
                    } else {
                        Leaves::Gmp
                    },
                };
                out.push(multiplier(name, &config).expect("valid configuration"));
            }
        }
        out
    })
}

/// Sizes in bits: zero, one, around 1–3 limb boundaries, and anything up to ~6000 bits.
fn bits() -> impl Strategy<Value = u32> {
    prop_oneof![
        Just(0u32),
        Just(1u32),
        63u32..=66,
        127u32..=129,
        191u32..=193,
        1023u32..=1025,
        2u32..6000,
    ]
}

/// An operand: random with its top bit set, all ones (2^bits − 1) or a power of two; either
/// sign.
fn operand() -> impl Strategy<Value = Integer> {
    (bits(), 0u8..3, any::<u64>(), any::<bool>()).prop_map(|(bits, shape, seed, negative)| {
        let x = match (bits, shape) {
            (0, _) => Integer::new(),
            (_, 0) => {
                let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
                let mut x = crate::bignum::random_bits(&mut rng, bits);
                x.set_bit(bits - 1, true);
                x
            }
            (_, 1) => (Integer::from(1) << bits) - 1u32,
            _ => Integer::from(1) << (bits - 1),
        };
        if negative { -x } else { x }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_method_equals_gmp(a in operand(), b in operand()) {
        let want = Integer::from(&a * &b);
        for m in all() {
            prop_assert_eq!(&m.mul(&a, &b), &want, "{}", m.describe());
            prop_assert_eq!(&m.mul(&b, &a), &want, "{} (swapped)", m.describe());
        }
    }
}

/// A positive or negative operand of exactly `bits` bits.
fn sized(bits: u32, seed: u64, negative: bool) -> Integer {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    let mut x = crate::bignum::random_bits(&mut rng, bits);
    x.set_bit(bits - 1, true);
    if negative { -x } else { x }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// `par-gmp` on the sizes where it splits: Toom-3, the longer-operand split and the
    /// B^N ± 1 residues, balanced and unbalanced, squares included.
    #[test]
    fn par_gmp_equals_gmp_on_every_split(
        abits in prop_oneof![2000u32..70_000, 190_000u32..260_000],
        ratio in prop_oneof![Just(1.0f64), 0.5f64..1.0, 0.01f64..0.5],
        seed in any::<u64>(),
        signs in (any::<bool>(), any::<bool>()),
    ) {
        let bbits = ((f64::from(abits) * ratio) as u32).max(1);
        let a = sized(abits, seed, signs.0);
        let b = sized(bbits, seed ^ 1, signs.1);
        let m = par_gmp();
        prop_assert_eq!(m.mul(&a, &b), Integer::from(&a * &b));
        prop_assert_eq!(m.mul(&b, &a), Integer::from(&a * &b));
        prop_assert_eq!(m.mul(&a, &a), Integer::from(a.square_ref()));
    }
}

/// Every Karatsuba method (sequential and the five forks, 1 to 3 helpers, depths 1 to 3) with
/// its leaves by the NTT on one thread from `from` limbs: the threshold given, not timed, so
/// the NTT leaves run on every machine at the sizes the proptest draws.
fn kara_ntt_leaves(from: usize) -> Vec<Box<dyn Multiplier>> {
    let mut out: Vec<Box<dyn Multiplier>> = Vec::new();
    let leaf = Leaf::NttFrom(from);
    for helpers in 1..=MAX_HELPERS {
        let c = KaraConfig {
            helpers,
            depth: helpers as u32,
            leaves: Leaves::Best,
            ..KaraConfig::default()
        };
        out.push(Box::new(seq::new(c).with_leaf(leaf)));
        out.push(Box::new(spawn::new(c).with_leaf(leaf)));
        out.push(Box::new(scoped::new(c).with_leaf(leaf)));
        out.push(Box::new(pool::new(c).expect("pool").with_leaf(leaf)));
        out.push(Box::new(
            lockfree::new(c).expect("lock-free").with_leaf(leaf),
        ));
        out.push(Box::new(rayon_join::new(c).expect("rayon").with_leaf(leaf)));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Karatsuba with NTT leaves against GMP: leaves from a few limbs (threshold 2) and from
    /// 64 limbs, balanced and unbalanced (a leaf past the NTT's 4:1 balance goes to GMP), zero,
    /// all-ones and power-of-two operands of either sign, squares included.
    #[test]
    fn karatsuba_with_ntt_leaves_equals_gmp(
        abits in prop_oneof![Just(0u32), 1u32..300, 300u32..20_000, 20_000u32..70_000],
        ratio in prop_oneof![Just(1.0f64), 0.3f64..1.0, 0.01f64..0.3],
        shape in 0u8..3,
        seed in any::<u64>(),
        signs in (any::<bool>(), any::<bool>()),
    ) {
        let bbits = (f64::from(abits) * ratio) as u32;
        let make = |bits: u32, seed: u64, negative: bool| -> Integer {
            let x = match (bits, shape) {
                (0, _) => Integer::new(),
                (_, 0) => sized(bits, seed, false),
                (_, 1) => (Integer::from(1) << bits) - 1u32,
                _ => Integer::from(1) << (bits - 1),
            };
            if negative { -x } else { x }
        };
        let a = make(abits, seed, signs.0);
        let b = make(bbits, seed ^ 1, signs.1);
        let want = Integer::from(&a * &b);
        let square = Integer::from(a.square_ref());
        for from in [2, 64] {
            for m in ntt_leaf_methods(from) {
                prop_assert_eq!(&m.mul(&a, &b), &want, "{}", m.describe());
                prop_assert_eq!(&m.mul(&b, &a), &want, "{} (swapped)", m.describe());
                prop_assert_eq!(&m.mul(&a, &a), &square, "{} (square)", m.describe());
            }
        }
    }
}

/// [`kara_ntt_leaves`], made once per threshold (their persistent helpers kept).
fn ntt_leaf_methods(from: usize) -> &'static [Box<dyn Multiplier>] {
    static LOW: OnceLock<Vec<Box<dyn Multiplier>>> = OnceLock::new();
    static HIGH: OnceLock<Vec<Box<dyn Multiplier>>> = OnceLock::new();
    let cell = if from < 64 { &LOW } else { &HIGH };
    cell.get_or_init(|| kara_ntt_leaves(from))
}

#[test]
fn best_leaves_are_the_timed_threshold_and_name_it() {
    // The one-thread threshold, timed here (on this machine's best back end), is what
    // `Leaves::Best` resolves to; a product on either side of it is exact.
    let leaf = Leaf::of(Leaves::Best);
    let from = par::ntt_from_known(1).expect("timed by Leaf::of");
    assert_eq!(leaf, from.map_or(Leaf::Gmp, Leaf::NttFrom));
    let config = KaraConfig {
        leaves: Leaves::Best,
        depth: 2,
        ..KaraConfig::default()
    };
    let m = multiplier("kara-pool", &config).unwrap();
    let d = m.describe();
    assert!(d.contains("best one-thread product"), "{d}");
    for limbs in [64usize, 1 << 12, 1 << 14] {
        let (a, b) = operands((limbs * 64) as u32, limbs as u64);
        assert_eq!(m.mul(&a, &b), Integer::from(&a * &b), "{limbs} limbs");
    }
    assert_eq!(Leaves::parse("best").unwrap(), Leaves::Best);
    assert_eq!(Leaves::parse(Leaves::Gmp.name()).unwrap(), Leaves::Gmp);
    assert!(
        Leaves::parse("ntt")
            .unwrap_err()
            .to_string()
            .contains("expected gmp or best")
    );
}

fn par_gmp() -> &'static dyn Multiplier {
    static M: OnceLock<Box<dyn Multiplier>> = OnceLock::new();
    M.get_or_init(|| multiplier("par-gmp", &KaraConfig::default()).expect("valid"))
        .as_ref()
}

#[test]
fn boundary_table_for_every_method() {
    // BLAKE3-style fixed table: the sizes every backend must get right.
    let sizes = [0u32, 1, 2, 63, 64, 65, 128, 129, 1024, 4096, 4160];
    for &x in &sizes {
        for &y in &sizes {
            let a = (Integer::from(1) << x) - 1u32;
            let b = -(Integer::from(1) << y) + 3u32;
            let want = Integer::from(&a * &b);
            for m in all() {
                assert_eq!(m.mul(&a, &b), want, "{} at {x}x{y}", m.describe());
            }
        }
    }
}

#[test]
fn helpers_survive_many_calls_and_every_method_drops_cleanly() {
    let (a, b) = operands(8192, 3);
    let want = Integer::from(&a * &b);
    for round in 0..3 {
        for name in METHODS {
            let config = KaraConfig {
                helpers: 1 + round,
                pin: round == 1,
                ..KaraConfig::default()
            };
            let m = multiplier(name, &config).unwrap();
            let calls = if matches!(name, "kara-spawn" | "kara-scoped") {
                50
            } else {
                500
            };
            for _ in 0..calls {
                assert_eq!(m.mul(&a, &b), want, "{name}");
            }
            drop(m); // stops and joins persistent helpers; a hang fails by timeout
        }
    }
}

#[test]
fn registry_and_configuration_checks() {
    for name in METHODS {
        let m = multiplier(name, &KaraConfig::default()).unwrap();
        assert_eq!(m.name(), name);
        assert!(m.describe().starts_with(name));
        assert_eq!(m.threads(), if is_parallel(name) { 2 } else { 1 });
    }
    let err = multiplier("toom", &KaraConfig::default()).err().unwrap();
    assert!(
        err.to_string()
            .contains("unknown multiplication method 'toom'")
    );
    let bad = |c: KaraConfig| multiplier("kara-pool", &c).is_err();
    assert!(bad(KaraConfig {
        depth: 0,
        ..KaraConfig::default()
    }));
    assert!(bad(KaraConfig {
        helpers: 4,
        ..KaraConfig::default()
    }));
    let c = KaraConfig::default();
    assert_eq!(c.with_threads(4).unwrap().helpers, 3);
    assert!(c.with_threads(0).is_err() && c.with_threads(5).is_err());
}
