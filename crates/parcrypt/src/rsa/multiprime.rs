//! Multi-prime RSA (RFC 8017 §3.2, §5.1.2): n = r_1·r_2·…·r_u with u = 3 to 5 primes, and the
//! private-key operation with one thread per prime — the latency split that needs no
//! cooperation between threads until the final recombination.
//!
//! Each m_i = c^(d_i) mod r_i is independent; Garner's recombination then folds them in, in
//! the order q, p, r_3, … (the order in which PKCS#1's qInv and t_i are the coefficients):
//! m = m_q, then for each further prime r_i, with R the product of the primes before it,
//! m += R·((m_i − m)·t_i mod r_i). An [`RsaPrivateKey`] of any prime count holds its primes;
//! the constant-time operation over them is [`crate::hazmat::crt::CtCrt`]. This file has what
//! is variable time and named so: generating the primes, and the CRT with GMP's `mpz_powm`
//! ([`crt_vartime`], the `crt` and `crt-parallel` forms of PaRSA's study).
use super::keys::RsaPrivateKey;
pub use super::prime::generate_primes_vartime;
use super::secrets::garner_order;
use crate::bignum::SecretInteger;
use rug::Integer;

/// m = c^d mod n for `c` in [0, n) through the residues over every prime with GMP's
/// `mpz_powm`, on one thread per prime if `parallel` (else in turn), and Garner's
/// recombination with GMP's arithmetic. **Variable time**: the time depends on every d_i and
/// on the values; for the study's variable-time forms, never for real decryption.
pub fn crt_vartime(key: &RsaPrivateKey, c: &Integer, parallel: bool) -> Integer {
    let order = garner_order(key.prime_count());
    let residue = |k: usize| {
        let i = order[k];
        let (r, d) = (key.prime(i), key.exponent(i));
        let ci = SecretInteger::new(Integer::from(c % r));
        SecretInteger::new(Integer::from(ci.pow_mod_ref(d, r).expect("d_i >= 0")))
    };
    let residues: Vec<SecretInteger> = if parallel {
        crate::parallel::pool::team(order.len(), false, residue)
    } else {
        (0..order.len()).map(residue).collect()
    };
    let coefficient = |i: usize| -> &Integer {
        if i == 0 {
            key.qinv()
        } else {
            key.other_primes()[i - 2].2
        }
    };
    let mut m = residues[0].expose().clone();
    let mut prefix = key.prime(order[0]).clone();
    for (&i, residue) in order.iter().zip(&residues).skip(1) {
        let r = key.prime(i);
        let mut h = Integer::from(&**residue - &m);
        h *= coefficient(i);
        h %= r;
        if h < 0 {
            h += r;
        }
        h *= &prefix;
        m += h;
        prefix *= r;
    }
    crate::bignum::secret::wipe_integer(&mut prefix);
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rsa::keys::DEFAULT_E;
    use rand::SeedableRng;

    #[test]
    fn every_prime_count_decrypts_like_plain_rsa() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(21);
        let e = Integer::from(DEFAULT_E);
        for primes in 2..=5 {
            let list = generate_primes_vartime(1024, primes, &e, &mut rng).unwrap();
            let key = RsaPrivateKey::from_primes_vartime(list, e.clone()).unwrap();
            let n = key.public().n();
            assert_eq!(n.significant_bits(), 1024);
            assert_eq!(key.prime_count(), primes);
            for i in 0..5u32 {
                let m = crate::bignum::random_below(&mut rng, n);
                let m = if i == 0 { Integer::new() } else { m };
                let c = Integer::from(m.pow_mod_ref(&e, n).unwrap());
                assert_eq!(c.clone().pow_mod(key.d(), n).unwrap(), m);
                for parallel in [false, true] {
                    assert_eq!(crt_vartime(&key, &c, parallel), m, "{primes} primes");
                    let ct = key.ct_crt().private_op_integer(&c, parallel).unwrap();
                    assert_eq!(ct, m, "{primes} primes, constant time");
                }
            }
        }
    }

    #[test]
    fn bad_parameters_are_refused() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(22);
        let e = Integer::from(DEFAULT_E);
        assert!(generate_primes_vartime(1024, 6, &e, &mut rng).is_err());
        assert!(generate_primes_vartime(1024, 1, &e, &mut rng).is_err());
        assert!(generate_primes_vartime(500, 3, &e, &mut rng).is_err());
        // Any size in range, not only multiples of 64 (OpenSSL makes such keys too).
        let list = generate_primes_vartime(1000, 3, &e, &mut rng).unwrap();
        let key = RsaPrivateKey::from_primes_vartime(list, e).unwrap();
        assert_eq!(key.public().n().significant_bits(), 1000);
    }
}
