//! The multi-buffer IFMA kernel against GMP (`mpz_powm` through rug's `pow_mod`): eight lanes
//! with different moduli or one shared modulus, 1024 to 4096 bits, exponents of full size,
//! short and zero. Skipped, with the reason on stderr, where the CPU lacks AVX-512 IFMA (as
//! the other backends' tests skip what the CPU cannot run).
use super::Mont64;
use super::ifma_mb::{self, LANES, MbCtx, MbLane};
use crate::bignum::mpn;
use proptest::prelude::*;
use rug::Integer;
use rug::rand::RandState;

/// Whether the kernel runs here; names the test as skipped when not.
fn runs(test: &str) -> bool {
    let ok = ifma_mb::available();
    if !ok {
        eprintln!("{test}: backend ifma-mb skipped: this CPU lacks avx512f, avx512ifma");
    }
    ok
}

fn rand_state(seed: u64) -> RandState<'static> {
    let mut r = RandState::new();
    r.seed(&Integer::from(seed));
    r
}

/// A random odd modulus of exactly `bits` bits.
fn modulus(bits: u32, rng: &mut RandState) -> Integer {
    let mut m = Integer::from(Integer::random_bits(bits, rng));
    m.set_bit(bits - 1, true);
    m.set_bit(0, true);
    m
}

/// Runs one call: lane j has modulus `mods[j]`, base `bases[j]`, exponent `exps[j]` read over
/// `ebits` bits; every lane checked against GMP.
fn check(mods: &[Integer; LANES], bases: &[Integer; LANES], exps: &[Integer; LANES], ebits: u32) {
    let bits = mods.iter().map(|m| m.significant_bits()).max().unwrap();
    let n = ifma_mb::digits_for(bits);
    let lanes: Vec<MbLane> = mods
        .iter()
        .map(|m| {
            let limbs = mpn::padded(m, m.significant_bits().div_ceil(64) as usize);
            MbLane::new(&Mont64::new(&limbs).unwrap(), n)
        })
        .collect();
    let ctx = MbCtx::new(std::array::from_fn(|j| &lanes[j]));
    let el = (ebits.div_ceil(64) as usize).max(1);
    let bl: Vec<Vec<u64>> = (0..LANES)
        .map(|j| mpn::padded(&bases[j], lanes[j].limbs()))
        .collect();
    let ev: Vec<Vec<u64>> = exps.iter().map(|e| mpn::padded(e, el)).collect();
    let mut outs: Vec<Vec<u64>> = (0..LANES).map(|j| vec![0u64; lanes[j].limbs()]).collect();
    {
        let mut it = outs.iter_mut();
        let o: [&mut [u64]; LANES] = std::array::from_fn(|_| &mut it.next().unwrap()[..]);
        ctx.pow(
            o,
            std::array::from_fn(|j| &bl[j][..]),
            std::array::from_fn(|j| &ev[j][..]),
            ebits as usize,
        );
    }
    for j in 0..LANES {
        let want = Integer::from(bases[j].pow_mod_ref(&exps[j], &mods[j]).unwrap());
        assert_eq!(
            mpn::to_integer(&outs[j]),
            want,
            "lane {j}: {} bits, exponent {} bits",
            mods[j].significant_bits(),
            exps[j].significant_bits()
        );
    }
}

/// Edge bases (0, 1, m − 1) and exponents (0, 1, all ones, short) in some lanes, random in
/// the others, lanes of different moduli of one size.
#[test]
fn edge_lanes_match_gmp() {
    if !runs("edge_lanes_match_gmp") {
        return;
    }
    let mut rng = rand_state(7);
    for bits in [1024u32, 1500, 2048] {
        let mods: [Integer; LANES] = std::array::from_fn(|_| modulus(bits, &mut rng));
        let bases: [Integer; LANES] = std::array::from_fn(|j| match j {
            0 => Integer::new(),
            1 => Integer::from(1),
            2 => Integer::from(&mods[2] - 1u32),
            _ => Integer::from(mods[j].random_below_ref(&mut rng)),
        });
        let exps: [Integer; LANES] = std::array::from_fn(|j| match j {
            3 => Integer::new(),
            4 => Integer::from(1),
            5 => (Integer::from(1) << bits) - 1u32,
            6 => Integer::from(65537),
            _ => Integer::from(Integer::random_bits(bits, &mut rng)),
        });
        check(&mods, &bases, &exps, bits);
    }
}

/// All-ones moduli saturate every digit; one modulus in every lane.
#[test]
fn one_saturated_modulus_in_every_lane() {
    if !runs("one_saturated_modulus_in_every_lane") {
        return;
    }
    let mut rng = rand_state(9);
    let bits = 1040u32;
    let m = (Integer::from(1) << bits) - 1u32;
    let mods: [Integer; LANES] = std::array::from_fn(|_| m.clone());
    let bases: [Integer; LANES] =
        std::array::from_fn(|_| Integer::from(m.random_below_ref(&mut rng)));
    let exps: [Integer; LANES] =
        std::array::from_fn(|_| Integer::from(Integer::random_bits(bits, &mut rng)));
    check(&mods, &bases, &exps, bits);
}

/// The fewest digits (2 and 3, where the two-digit pass meets the odd last digit) with
/// lanes of different sizes at one digit count, down to a 3-bit modulus.
#[test]
fn small_moduli_of_mixed_sizes_match_gmp() {
    if !runs("small_moduli_of_mixed_sizes_match_gmp") {
        return;
    }
    let mut rng = rand_state(13);
    for sizes in [
        [3u32, 17, 50, 52, 64, 90, 101, 102],
        [103, 110, 120, 128, 130, 140, 150, 154],
    ] {
        let mods: [Integer; LANES] = std::array::from_fn(|j| modulus(sizes[j], &mut rng));
        let bases: [Integer; LANES] =
            std::array::from_fn(|j| Integer::from(mods[j].random_below_ref(&mut rng)));
        let ebits = sizes[LANES - 1];
        let exps: [Integer; LANES] =
            std::array::from_fn(|_| Integer::from(Integer::random_bits(ebits, &mut rng)));
        check(&mods, &bases, &exps, ebits);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Random odd moduli of 1024 to 4096 bits, every lane its own or all one; exponents of
    /// full size, short or zero (chosen per lane), read over the modulus' size.
    #[test]
    fn random_lanes_match_gmp(seed in any::<u64>(), bits in 1024u32..=4096, same in any::<bool>()) {
        if !runs("random_lanes_match_gmp") {
            return Ok(());
        }
        let mut rng = rand_state(seed);
        let first = modulus(bits, &mut rng);
        let mods: [Integer; LANES] = std::array::from_fn(|_| {
            if same { first.clone() } else { modulus(bits, &mut rng) }
        });
        let bases: [Integer; LANES] =
            std::array::from_fn(|j| Integer::from(mods[j].random_below_ref(&mut rng)));
        let exps: [Integer; LANES] = std::array::from_fn(|j| match (seed >> (2 * j)) & 3 {
            0 => Integer::new(),
            1 => Integer::from(Integer::random_bits(40, &mut rng)),
            _ => Integer::from(Integer::random_bits(bits, &mut rng)),
        });
        check(&mods, &bases, &exps, bits);
    }
}
