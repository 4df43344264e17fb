//! Probable-prime generation by trial division and Miller–Rabin with random bases.
//!
//! Variable-time: the time taken depends on the candidate, as in every common library; the
//! primes found are secret, the search pattern leaks only how many candidates were rejected.
//! Every public function here says so in its name (`_vartime`).
use super::limits::{MAX_MODULUS_BITS, MIN_MODULUS_BITS, check_public_exponent};
use crate::bignum::random_below;
use crate::error::{Error, Result};
use rand::RngCore;
use rug::Integer;

/// Small primes for trial division before the Miller–Rabin rounds.
const SMALL_PRIMES: [u32; 53] = [
    3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89, 97,
    101, 103, 107, 109, 113, 127, 131, 137, 139, 149, 151, 157, 163, 167, 173, 179, 181, 191, 193,
    197, 199, 211, 223, 227, 229, 233, 239, 241, 251,
];

/// Miller–Rabin rounds for a random prime candidate of `bits` bits.
///
/// Follows FIPS 186-4 Table C.2 (rounds for an error probability at most 2^-100 for random
/// candidates, auxiliary test omitted): 7 rounds at 512 bits, 5 at 1024, 4 from 1536 bits up.
/// Smaller candidates (only in tests and toy keys) get 40 rounds.
pub fn miller_rabin_rounds(bits: u32) -> u32 {
    match bits {
        0..=511 => 40,
        512..=1023 => 7,
        1024..=1535 => 5,
        _ => 4,
    }
}

/// Miller–Rabin with `rounds` random bases in `[2, n-2]`. `n` must be odd and > 3.
pub fn miller_rabin_vartime<R: RngCore + ?Sized>(n: &Integer, rounds: u32, rng: &mut R) -> bool {
    let n_minus_1 = Integer::from(n - 1u32);
    let s = n_minus_1.find_one(0).unwrap_or(0);
    let d = Integer::from(&n_minus_1 >> s);
    let span = Integer::from(n - 3u32); // bases a = 2 + [0, n-3)
    'rounds: for _ in 0..rounds {
        let a = random_below(rng, &span) + 2u32;
        let mut x = a.pow_mod(&d, n).expect("positive exponent");
        if x == 1 || x == n_minus_1 {
            continue;
        }
        for _ in 1..s {
            x.square_mut();
            x %= n;
            if x == n_minus_1 {
                continue 'rounds;
            }
        }
        return false;
    }
    true
}

/// True when `n` is (probably) prime: small cases exactly, then trial division and Miller–Rabin.
pub fn is_probable_prime_vartime<R: RngCore + ?Sized>(n: &Integer, rng: &mut R) -> bool {
    if *n < 2 {
        return false;
    }
    if *n < 4 {
        return true;
    }
    if n.is_even() {
        return false;
    }
    for &p in &SMALL_PRIMES {
        if *n == p {
            return true;
        }
        if n.is_divisible_u(p) {
            return false;
        }
    }
    miller_rabin_vartime(n, miller_rabin_rounds(n.significant_bits()), rng)
}

/// A random probable prime of exactly `bits` bits with its two top bits set (so a product of
/// two such primes has exactly `2 * bits` bits), for which `accept` returns true.
pub fn random_prime_vartime<R: RngCore + ?Sized>(
    bits: u32,
    rng: &mut R,
    accept: impl Fn(&Integer) -> bool,
) -> Integer {
    assert!(bits >= 16, "primes below 16 bits are not supported");
    loop {
        let mut c = crate::bignum::random_bits(rng, bits);
        c.set_bit(bits - 1, true);
        c.set_bit(bits - 2, true);
        c.set_bit(0, true);
        if is_probable_prime_vartime(&c, rng) && accept(&c) {
            return c;
        }
    }
}

/// A random probable prime in `[lo, hi]` for which `accept` returns true. The range must
/// contain primes (callers pass ranges of hundreds of bits).
pub fn random_prime_in_vartime<R: RngCore + ?Sized>(
    lo: &Integer,
    hi: &Integer,
    rng: &mut R,
    accept: impl Fn(&Integer) -> bool,
) -> Integer {
    let span = Integer::from(hi - lo) + 1u32;
    loop {
        let mut c = random_below(rng, &span) + lo;
        c.set_bit(0, true);
        if c <= *hi && is_probable_prime_vartime(&c, rng) && accept(&c) {
            return c;
        }
    }
}

/// The primes of a `bits`-bit key with `primes` (2..=5) primes and public exponent `e`:
/// the first u − 1 have bits/u bits (two top bits set), the last is drawn from the range that
/// makes n exactly `bits` bits long; all distinct, each with gcd(e, r − 1) = 1.
/// **Variable time** (prime search): key generation only.
pub fn generate_primes_vartime<R: RngCore + ?Sized>(
    bits: u32,
    primes: usize,
    e: &Integer,
    rng: &mut R,
) -> Result<Vec<Integer>> {
    if !(2..=5).contains(&primes) {
        return Err(Error::InvalidParameter(format!(
            "multi-prime RSA takes 2 to 5 primes, got {primes}"
        )));
    }
    if !(MIN_MODULUS_BITS..=MAX_MODULUS_BITS).contains(&bits) {
        return Err(Error::InvalidParameter(format!(
            "modulus size must be in {MIN_MODULUS_BITS}..={MAX_MODULUS_BITS} bits, got {bits}"
        )));
    }
    check_public_exponent(e).map_err(Error::KeyGeneration)?;
    // The prime search runs on GMP integers before any is wrapped as a secret.
    crate::bignum::wipe::install();
    let share = bits / primes as u32;
    let coprime = |p: &Integer| Integer::from(p - 1u32).gcd(e) == 1;
    loop {
        let mut ps: Vec<Integer> = (0..primes - 1)
            .map(|_| random_prime_vartime(share, rng, coprime))
            .collect();
        let product: Integer = ps.iter().product();
        let lo = ((Integer::from(1) << (bits - 1)) + &product - 1u32) / &product;
        let hi = ((Integer::from(1) << bits) - 1u32) / &product;
        if lo >= hi {
            continue;
        }
        ps.push(random_prime_in_vartime(&lo, &hi, rng, coprime));
        let mut sorted = ps.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() == primes {
            return Ok(ps);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rug::integer::IsPrime;

    #[test]
    fn agrees_with_gmp_on_small_numbers() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        for n in 0u32..5000 {
            let n = Integer::from(n);
            let gmp = n.is_probably_prime(30) != IsPrime::No;
            assert_eq!(is_probable_prime_vartime(&n, &mut rng), gmp, "n = {n}");
        }
    }

    #[test]
    fn rejects_carmichael_numbers_and_accepts_known_primes() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        for c in [
            561u64, 1105, 1729, 2465, 2821, 6601, 8911, 41041, 825265, 321197185,
        ] {
            assert!(
                !is_probable_prime_vartime(&Integer::from(c), &mut rng),
                "{c}"
            );
        }
        let m127 = (Integer::from(1) << 127) - 1u32;
        assert!(is_probable_prime_vartime(&m127, &mut rng));
        let composite = Integer::from(&m127 * &m127);
        assert!(!is_probable_prime_vartime(&composite, &mut rng));
    }

    #[test]
    fn random_prime_has_exact_size_and_top_bits() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        for bits in [16u32, 64, 256] {
            let p = random_prime_vartime(bits, &mut rng, |_| true);
            assert_eq!(p.significant_bits(), bits);
            assert!(p.get_bit(bits - 2));
            assert_ne!(p.is_probably_prime(40), IsPrime::No);
        }
    }
}
