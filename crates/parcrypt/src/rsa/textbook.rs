//! Textbook RSA: c = m^e mod n and m = c^d mod n, with no padding.
//!
//! **Study only.** Textbook RSA is deterministic and malleable; PaRSA uses it and so does the
//! benchmark, but real data must use [`crate::rsa::oaep`]. The private-key operation comes in
//! five forms ([`PrivateOp`]); only [`PrivateOp::CrtConstTime`] and its parallel form avoid
//! secret-dependent timing. The primitives themselves (RSAEP, the private-key operation with
//! blinding) are [`primitive`](crate::hazmat::primitive)'s, re-exported here; this file adds
//! the unblinded decryption a study times.
use super::keys::RsaPrivateKey;
use super::limits::check_range;
use super::primitive::private_op;
pub use super::primitive::{
    PrivateOp, decrypt_blinded, decrypt_blinded_bytes, encrypt, encrypt_unchecked,
};
use crate::error::Result;
use rug::Integer;

/// RSADP: m = c^d mod n, for 0 <= c < n, computed as `op` says. A constant-time form whose
/// result fails the fault check is [`Error::DecryptionError`](crate::Error::DecryptionError).
pub fn decrypt(key: &RsaPrivateKey, c: &Integer, op: PrivateOp) -> Result<Integer> {
    check_range(c, key.public().n(), "ciphertext")?;
    private_op(key, c, op)
}

/// RSADP without the range check, for batches and benchmarks whose inputs are known to be in
/// range and whose outputs are checked against a reference. A constant-time form whose result
/// fails the fault check gives 0 here (never the faulty value); [`decrypt`] reports it as an
/// error.
pub fn decrypt_unchecked(key: &RsaPrivateKey, c: &Integer, op: PrivateOp) -> Integer {
    private_op(key, c, op).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use rand::SeedableRng;

    #[test]
    fn all_private_ops_invert_encryption_and_agree() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        let key = RsaPrivateKey::generate_vartime(768, &Integer::from(65537), &mut rng).unwrap();
        for i in 0..20u32 {
            let m = crate::bignum::random_below(&mut rng, key.public().n());
            let m = if i == 0 {
                Integer::new()
            } else if i == 1 {
                Integer::from(1)
            } else {
                m
            };
            let c = encrypt(key.public(), &m).unwrap();
            for op in PrivateOp::ALL {
                assert_eq!(decrypt(&key, &c, op).unwrap(), m, "{op:?}");
            }
        }
    }

    #[test]
    fn blinded_decryption_equals_plain_decryption() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(12);
        let key = RsaPrivateKey::generate_vartime(512, &Integer::from(65537), &mut rng).unwrap();
        for _ in 0..10 {
            let m = crate::bignum::random_below(&mut rng, key.public().n());
            let c = encrypt(key.public(), &m).unwrap();
            for op in PrivateOp::ALL {
                assert_eq!(decrypt_blinded(&key, &c, op, &mut rng).unwrap(), m);
            }
        }
        let n = key.public().n().clone();
        assert!(decrypt_blinded(&key, &n, PrivateOp::CrtVartime, &mut rng).is_err());
    }

    #[test]
    fn out_of_range_inputs_are_errors() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(10);
        let key = RsaPrivateKey::generate_vartime(512, &Integer::from(65537), &mut rng).unwrap();
        let n = key.public().n().clone();
        assert!(matches!(
            encrypt(key.public(), &n),
            Err(Error::MessageTooLong(_))
        ));
        assert!(matches!(
            decrypt(&key, &n, PrivateOp::CrtVartime),
            Err(Error::InvalidCiphertext(_))
        ));
        assert!(decrypt(&key, &Integer::from(-1), PrivateOp::PlainVartime).is_err());
    }

    #[test]
    fn multi_prime_keys_decrypt_through_every_prime_in_every_form() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(13);
        let e = Integer::from(65537);
        for (bits, primes) in [(1024, 3), (4096, 4)] {
            let key = RsaPrivateKey::generate_multi_vartime(bits, primes, &e, &mut rng).unwrap();
            assert_eq!(key.prime_count(), primes);
            for i in 0..4u32 {
                let m = if i == 0 {
                    Integer::from(1)
                } else {
                    crate::bignum::random_below(&mut rng, key.public().n())
                };
                let c = encrypt(key.public(), &m).unwrap();
                for op in PrivateOp::ALL {
                    assert_eq!(decrypt(&key, &c, op).unwrap(), m, "{primes} primes, {op:?}");
                    assert_eq!(decrypt_blinded(&key, &c, op, &mut rng).unwrap(), m);
                }
            }
        }
    }
}
