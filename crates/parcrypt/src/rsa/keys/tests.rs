//! Key generation, the public key's limits, and keys rebuilt from their values.
use super::*;
use rand::SeedableRng;
use rug::integer::IsPrime;

fn rng() -> rand_chacha::ChaCha20Rng {
    rand_chacha::ChaCha20Rng::seed_from_u64(42)
}

#[test]
fn generated_key_is_consistent() {
    let key = RsaPrivateKey::generate_vartime(1024, &Integer::from(DEFAULT_E), &mut rng()).unwrap();
    assert_eq!(key.public().bits(), 1024);
    assert_ne!(key.p().is_probably_prime(30), IsPrime::No);
    assert_ne!(key.q().is_probably_prime(30), IsPrime::No);
    let m = Integer::from(0xdead_beef_u32);
    let c = m
        .clone()
        .pow_mod(key.public().e(), key.public().n())
        .unwrap();
    assert_eq!(c.pow_mod(key.d(), key.public().n()).unwrap(), m);
    assert_eq!(Integer::from(key.qinv() * key.q()) % key.p(), 1);
}

#[test]
fn same_seed_gives_same_key() {
    let e = Integer::from(DEFAULT_E);
    let a = RsaPrivateKey::generate_vartime(512, &e, &mut rng()).unwrap();
    let b = RsaPrivateKey::generate_vartime(512, &e, &mut rng()).unwrap();
    assert_eq!(a.public(), b.public());
}

#[test]
fn bad_exponents_and_sizes_are_refused() {
    let mut r = rng();
    for e in [0u32, 1, 2, 4, 65536] {
        let err = RsaPrivateKey::generate_vartime(512, &Integer::from(e), &mut r).unwrap_err();
        assert!(err.to_string().contains("public exponent"), "{err}");
    }
    for bits in [0u32, 256, 511, 513, 16386] {
        assert!(RsaPrivateKey::generate_vartime(bits, &Integer::from(3), &mut r).is_err());
    }
    // e up to 2^64 - 1 is fine, 2^64 + 1 is not.
    let max = Integer::from(u64::MAX);
    assert!(check_public_exponent(&max).is_ok());
    let err = check_public_exponent(&(Integer::from(u64::MAX) + 2u32)).unwrap_err();
    assert!(err.contains("65 bits is above 2^64"), "{err}");
}

#[test]
fn public_keys_beyond_openssls_limits_are_refused() {
    // Odd values of the given size: 2^(bits-1) + 1.
    let odd = |bits: u32| (Integer::from(1) << (bits - 1)) + 1u32;
    let e = Integer::from(DEFAULT_E);
    assert!(RsaPublicKey::new(odd(MAX_MODULUS_BITS), e.clone()).is_ok());
    for bits in [MAX_MODULUS_BITS + 1, 1_000_001] {
        let err = RsaPublicKey::new(odd(bits), e.clone()).unwrap_err();
        assert!(matches!(err, Error::InvalidKey(_)), "{err}");
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("{bits} bits is above 16384 bits")),
            "{msg}"
        );
    }
    let big_e = (Integer::from(1) << 64) + 1u32;
    let err = RsaPublicKey::new(odd(2048), big_e).unwrap_err().to_string();
    assert!(err.contains("above 2^64"), "{err}");
}

#[test]
fn inconsistent_components_are_refused() {
    let key = RsaPrivateKey::generate_vartime(512, &Integer::from(DEFAULT_E), &mut rng()).unwrap();
    let wrong_d = Integer::from(key.d() + 2u32);
    let err = RsaPrivateKey::from_components(
        key.public().clone(),
        wrong_d,
        key.p().clone(),
        key.q().clone(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("e * d"), "{err}");
}

#[test]
fn prime_limits_are_openssls() {
    for (bits, cap) in [
        (512, 2),
        (1023, 2),
        (1024, 3),
        (4095, 3),
        (4096, 4),
        (8191, 4),
    ] {
        assert_eq!(max_primes(bits), cap, "{bits}");
    }
    assert_eq!(max_primes(8192), 5);
    assert_eq!(max_primes(16384), 5);
    let e = Integer::from(DEFAULT_E);
    for (bits, primes) in [(1024, 4), (2048, 4), (512, 3), (4096, 5), (2048, 1)] {
        let err = RsaPrivateKey::generate_multi_vartime(bits, primes, &e, &mut rng()).unwrap_err();
        assert!(matches!(err, Error::InvalidParameter(_)), "{err}");
        assert!(err.to_string().contains("OpenSSL's limit"), "{err}");
    }
}

#[test]
fn multi_prime_keys_are_consistent() {
    let e = Integer::from(DEFAULT_E);
    let key = RsaPrivateKey::generate_multi_vartime(1536, 3, &e, &mut rng()).unwrap();
    assert_eq!(key.public().bits(), 1536);
    assert_eq!(key.prime_count(), 3);
    let others = key.other_primes();
    assert_eq!(others.len(), 1);
    let (r, d_r, t) = others[0];
    let pq = Integer::from(key.p() * key.q());
    assert_eq!(Integer::from(&pq * r), *key.public().n());
    assert_eq!(*d_r, key.d() % Integer::from(r - 1u32));
    assert_eq!(Integer::from(&pq * t) % r, 1);
    assert_eq!(Integer::from(key.qinv() * key.q()) % key.p(), 1);
    // Rebuilt from its parts, and refused when they disagree.
    let primes = vec![key.p().clone(), key.q().clone(), r.clone()];
    let again =
        RsaPrivateKey::from_prime_list(key.public().clone(), key.d().clone(), primes.clone())
            .unwrap();
    assert_eq!(again.other_primes(), key.other_primes());
    let wrong_d = Integer::from(key.d() + 2u32);
    let err =
        RsaPrivateKey::from_prime_list(key.public().clone(), wrong_d, primes.clone()).unwrap_err();
    assert!(err.to_string().contains("every r_i - 1"), "{err}");
    let err = RsaPrivateKey::from_prime_list(key.public().clone(), key.d().clone(), {
        let mut p = primes.clone();
        p.push(Integer::from(3));
        p
    })
    .unwrap_err();
    assert!(err.to_string().contains("product of the primes"), "{err}");
    let err = RsaPrivateKey::from_prime_list(key.public().clone(), key.d().clone(), vec![pq])
        .unwrap_err();
    assert!(err.to_string().contains("2 to 5 primes"), "{err}");
    assert_eq!(
        RsaPrivateKey::generate_vartime(512, &e, &mut rng())
            .unwrap()
            .prime_count(),
        2
    );
}
