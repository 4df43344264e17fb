//! Textbook RSA: c = m^e mod n and m = c^d mod n, with no padding.
//!
//! **Study only.** Textbook RSA is deterministic and malleable; seed 000 uses it and so does the
//! benchmark, but real data must use [`crate::rsa::oaep`]. The private-key operation comes in
//! five forms ([`PrivateOp`]); only [`PrivateOp::CrtConstTime`] and its parallel form avoid
//! secret-dependent timing. Those run the key's kernel ([`RsaPrivateKey::set_kernel`]): by
//! default the best constant-time Montgomery kernel of this CPU
//! ([`crate::rsa::kernel::CtCrt`]: reduction, exponentiation, recombination and unblinding on
//! fixed-length limbs), or GMP's `mpz_powm_sec` (`gmp-sec`).
use super::keys::{RsaPrivateKey, RsaPublicKey};
use crate::bignum::SecretInteger;
use crate::bignum::ct::secret_flow;
use crate::error::{Error, Result};
use rug::Integer;

/// How the private-key operation m = c^d mod n is computed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PrivateOp {
    /// c^d mod n with GMP's `mpz_powm`. Variable-time: timing depends on d. Named `plain` in
    /// records.
    #[serde(rename = "plain")]
    PlainVartime,
    /// Chinese remainder theorem with `mpz_powm` on the p and q halves (about 3-4x faster than
    /// `PlainVartime`). Variable-time: timing depends on dp and dq. Named `crt` in records.
    #[serde(rename = "crt")]
    CrtVartime,
    /// Constant-time CRT with the key's kernel ([`RsaPrivateKey::set_kernel`]): by default
    /// a constant-time Montgomery kernel from the reduction of c to the recombination; with
    /// the `gmp-sec` kernel GMP's `mpz_powm_sec` on both halves (constant-time
    /// exponentiations; the reduction and recombination are GMP's ordinary arithmetic).
    #[default]
    CrtConstTime,
    /// `CrtVartime` with the p and q halves on two threads (one thread per prime for a
    /// multi-prime key): single-operation latency, seed 003's question of splitting one
    /// exponentiation, answered by the cheapest split there is. Variable-time. Named
    /// `crt-parallel` in records.
    #[serde(rename = "crt-parallel")]
    CrtParallelVartime,
    /// `CrtConstTime` with the p and q halves on two pool threads (one per prime for a
    /// multi-prime key), each with the single-modulus kernel.
    CrtConstTimeParallel,
}

impl PrivateOp {
    /// All variants, for sweeps and help texts.
    pub const ALL: [PrivateOp; 5] = [
        PrivateOp::PlainVartime,
        PrivateOp::CrtVartime,
        PrivateOp::CrtConstTime,
        PrivateOp::CrtParallelVartime,
        PrivateOp::CrtConstTimeParallel,
    ];
}

/// `mpz_powm`: variable-time.
fn powm(b: &Integer, e: &Integer, m: &Integer) -> Integer {
    Integer::from(b.pow_mod_ref(e, m).expect("exponent is non-negative"))
}

/// `mpz_powm_sec`: needs an odd modulus and a positive exponent; p and q are odd primes and
/// dp, dq >= 1 for any valid key.
fn powm_sec(b: &Integer, e: &Integer, m: &Integer) -> Integer {
    Integer::from(b.secure_pow_mod_ref(e, m))
}

/// Checks 0 <= x < n for a message or ciphertext representative.
fn check_range(x: &Integer, n: &Integer, what: &str) -> Result<()> {
    if *x < 0 || x >= n {
        let msg = format!("{what} representative must be in [0, n)");
        return Err(if what == "message" {
            Error::MessageTooLong(msg)
        } else {
            Error::InvalidCiphertext(msg)
        });
    }
    Ok(())
}

/// RSAEP: c = m^e mod n, for 0 <= m < n.
pub fn encrypt(key: &RsaPublicKey, m: &Integer) -> Result<Integer> {
    check_range(m, key.n(), "message")?;
    Ok(encrypt_unchecked(key, m))
}

/// RSAEP without the range check, for batches whose inputs are known to be in range.
pub fn encrypt_unchecked(key: &RsaPublicKey, m: &Integer) -> Integer {
    Integer::from(m.pow_mod_ref(key.e(), key.n()).expect("e is positive"))
}

/// RSADP: m = c^d mod n, for 0 <= c < n, computed as `op` says.
pub fn decrypt(key: &RsaPrivateKey, c: &Integer, op: PrivateOp) -> Result<Integer> {
    check_range(c, key.public().n(), "ciphertext")?;
    Ok(decrypt_unchecked(key, c, op))
}

/// RSADP with base blinding: c' = c·r^e mod n for a fresh random r, m' = c'^d mod n,
/// m = m'·r⁻¹ mod n. The exponentiation then works on a value unrelated to the attacker's
/// ciphertext. Costs one public-exponent exponentiation and one inversion (both on the random
/// r, with GMP). With a Montgomery kernel the unblinding is a constant-time Montgomery product
/// ([`crate::rsa::kernel::CtCrt::unblind`]); with `gmp-sec` it is GMP's multiplication and
/// division, which take time that depends on m.
pub fn decrypt_blinded<R: rand::RngCore + ?Sized>(
    key: &RsaPrivateKey,
    c: &Integer,
    op: PrivateOp,
    rng: &mut R,
) -> Result<Integer> {
    Ok(match blinded(key, c, op, rng)? {
        Blinded::Fixed(limbs) => crate::bignum::mpn::to_integer(&limbs),
        Blinded::Gmp(m) => m,
    })
}

/// [`decrypt_blinded`] with the result as exactly k = ⌈bits(n)/8⌉ big-endian bytes (I2OSP),
/// wiped on drop. With a Montgomery kernel the bytes come from the fixed-length limbs, so no
/// step after the exponentiation depends on the plaintext's value (its leading zero bytes
/// included); with `gmp-sec` they come from GMP's integer.
pub fn decrypt_blinded_bytes<R: rand::RngCore + ?Sized>(
    key: &RsaPrivateKey,
    c: &Integer,
    op: PrivateOp,
    rng: &mut R,
) -> Result<zeroize::Zeroizing<Vec<u8>>> {
    let mut out = zeroize::Zeroizing::new(vec![0u8; key.public().size_bytes()]);
    match blinded(key, c, op, rng)? {
        Blinded::Fixed(limbs) => crate::bignum::limbs_to_be_bytes(&limbs, &mut out),
        Blinded::Gmp(m) => crate::bignum::to_be_bytes_fixed(&SecretInteger::new(m), &mut out),
    }
    Ok(out)
}

/// A blinded decryption's result: fixed-length limbs (Montgomery kernels) or GMP's integer.
enum Blinded {
    Fixed(zeroize::Zeroizing<Vec<u64>>),
    Gmp(Integer),
}

fn blinded<R: rand::RngCore + ?Sized>(
    key: &RsaPrivateKey,
    c: &Integer,
    op: PrivateOp,
    rng: &mut R,
) -> Result<Blinded> {
    check_range(c, key.public().n(), "ciphertext")?;
    let n = key.public().n();
    let (r, r_inv) = loop {
        let r = SecretInteger::new(crate::bignum::random_below(rng, n));
        secret_flow::classify_integer(&r);
        if let Ok(inv) = r.invert_ref(n).map(Integer::from).ok_or(()) {
            break (r, SecretInteger::new(inv));
        }
    };
    let mut blinded = encrypt_unchecked(key.public(), &r);
    blinded *= c;
    blinded %= n;
    let ct = match op {
        PrivateOp::CrtConstTime | PrivateOp::CrtConstTimeParallel => ct_crt(key),
        _ => None,
    };
    if let Some(crt) = ct {
        let len = crt.limbs();
        let bl = zeroize::Zeroizing::new(crate::bignum::mpn::padded(&blinded, len));
        crate::bignum::secret::wipe_integer(&mut blinded);
        let m = crt.private_op(&bl, op == PrivateOp::CrtConstTimeParallel);
        let ri = zeroize::Zeroizing::new(crate::bignum::mpn::padded(&r_inv, len));
        let unblinded = crt.unblind(&m, &ri);
        secret_flow::classify_limbs(&unblinded);
        return Ok(Blinded::Fixed(unblinded));
    }
    let mut m = decrypt_unchecked(key, &blinded, op);
    crate::bignum::secret::wipe_integer(&mut blinded);
    m *= &*r_inv;
    m %= n;
    secret_flow::classify_integer(&m);
    Ok(Blinded::Gmp(m))
}

/// The key's constant-time CRT (its Montgomery kernel), `None` for `gmp-sec`.
fn ct_crt(key: &RsaPrivateKey) -> Option<&crate::rsa::kernel::CtCrt> {
    key.ct_crt()
}

/// RSADP without the range check, for batches whose inputs are known to be in range.
///
/// For a key of three or more primes the CRT forms run over every prime
/// ([`crate::rsa::multiprime::MultiPrimeKey::decrypt`]); the parallel forms then put one
/// prime on each thread.
pub fn decrypt_unchecked(key: &RsaPrivateKey, c: &Integer, op: PrivateOp) -> Integer {
    if let Some(multi) = key.multi_prime() {
        let (parallel, constant_time) = match op {
            PrivateOp::PlainVartime => {
                return Integer::from(c.pow_mod_ref(key.d(), key.public().n()).expect("d > 0"));
            }
            PrivateOp::CrtVartime => (false, false),
            PrivateOp::CrtConstTime => (false, true),
            PrivateOp::CrtParallelVartime => (true, false),
            PrivateOp::CrtConstTimeParallel => (true, true),
        };
        return multi.decrypt(c, parallel, constant_time);
    }
    if matches!(
        op,
        PrivateOp::CrtConstTime | PrivateOp::CrtConstTimeParallel
    ) {
        if let Some(crt) = ct_crt(key) {
            return crt.private_op_integer(c, op == PrivateOp::CrtConstTimeParallel);
        }
    }
    match op {
        PrivateOp::PlainVartime => {
            Integer::from(c.pow_mod_ref(key.d(), key.public().n()).expect("d > 0"))
        }
        PrivateOp::CrtVartime => crt(key, c, powm, false),
        PrivateOp::CrtConstTime => crt(key, c, powm_sec, false),
        PrivateOp::CrtParallelVartime => crt(key, c, powm, true),
        PrivateOp::CrtConstTimeParallel => crt(key, c, powm_sec, true),
    }
}

/// The two half exponentiations (on two threads if `parallel`), then Garner's recombination:
/// m = m_q + q * (qinv * (m_p - m_q) mod p).
fn crt(
    key: &RsaPrivateKey,
    c: &Integer,
    pow: fn(&Integer, &Integer, &Integer) -> Integer,
    parallel: bool,
) -> Integer {
    let half = |i: usize| {
        let (prime, exp) = if i == 0 {
            (key.p(), key.dp())
        } else {
            (key.q(), key.dq())
        };
        let ci = SecretInteger::new(Integer::from(c % prime));
        SecretInteger::new(pow(&ci, exp, prime))
    };
    let mut halves = if parallel {
        crate::parallel::pool::team(2, false, half)
    } else {
        vec![half(0), half(1)]
    };
    let mq = halves.pop().expect("two halves");
    let mp = halves.pop().expect("two halves");
    let mut h = Integer::from(&*mp - &*mq);
    h *= key.qinv();
    h %= key.p();
    if h < 0 {
        h += key.p();
    }
    h *= key.q();
    h += &*mq;
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn all_private_ops_invert_encryption_and_agree() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        let key = RsaPrivateKey::generate(768, &Integer::from(65537), &mut rng).unwrap();
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
        let key = RsaPrivateKey::generate(512, &Integer::from(65537), &mut rng).unwrap();
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
        let key = RsaPrivateKey::generate(512, &Integer::from(65537), &mut rng).unwrap();
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
            let key = RsaPrivateKey::generate_multi(bits, primes, &e, &mut rng).unwrap();
            assert!(key.multi_prime().is_some());
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
