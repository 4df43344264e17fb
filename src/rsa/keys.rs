//! RSA key pairs: generation, validation and the CRT parameters.
use super::prime::random_prime;
use crate::bignum::SecretInteger;
use crate::error::{Error, Result};
use rand::RngCore;
use rug::Integer;

/// The smallest modulus parcrypt generates or accepts, in bits.
pub const MIN_MODULUS_BITS: u32 = 512;
/// The largest modulus parcrypt generates, in bits (keeps generation time bounded).
pub const MAX_MODULUS_BITS: u32 = 16384;
/// The default public exponent, F4 = 2^16 + 1.
pub const DEFAULT_E: u32 = 65537;

/// An RSA public key (n, e).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RsaPublicKey {
    n: Integer,
    e: Integer,
}

impl RsaPublicKey {
    /// Builds a public key after checking that n is odd and large enough and that e is valid.
    pub fn new(n: Integer, e: Integer) -> Result<Self> {
        if n.significant_bits() < MIN_MODULUS_BITS || n.is_even() {
            return Err(Error::InvalidKey(format!(
                "modulus must be odd and at least {MIN_MODULUS_BITS} bits, got {} bits",
                n.significant_bits()
            )));
        }
        check_public_exponent(&e).map_err(Error::InvalidKey)?;
        if e >= n {
            return Err(Error::InvalidKey(
                "public exponent must be below the modulus".into(),
            ));
        }
        Ok(Self { n, e })
    }

    /// The modulus n.
    pub fn n(&self) -> &Integer {
        &self.n
    }

    /// The public exponent e.
    pub fn e(&self) -> &Integer {
        &self.e
    }

    /// The modulus size in bits.
    pub fn bits(&self) -> u32 {
        self.n.significant_bits()
    }

    /// The modulus size in bytes (k in RFC 8017).
    pub fn size_bytes(&self) -> usize {
        crate::bignum::byte_len(self.bits())
    }
}

/// An RSA private key with its CRT parameters. Every secret value is wiped when dropped.
#[derive(Clone, Debug)]
pub struct RsaPrivateKey {
    public: RsaPublicKey,
    d: SecretInteger,
    p: SecretInteger,
    q: SecretInteger,
    dp: SecretInteger,
    dq: SecretInteger,
    qinv: SecretInteger,
}

/// Checks a public exponent: odd, at least 3, below 2^256 (FIPS 186-4 bounds, lower bound relaxed
/// from 2^16+1 to 3 so that the classic small exponents of the literature can be studied).
pub fn check_public_exponent(e: &Integer) -> std::result::Result<(), String> {
    if *e < 3 {
        return Err(format!(
            "public exponent {e} is too small (must be odd and >= 3)"
        ));
    }
    if e.is_even() {
        return Err(format!("public exponent {e} is even (must be odd)"));
    }
    if e.significant_bits() > 256 {
        return Err("public exponent must be below 2^256".into());
    }
    Ok(())
}

impl RsaPrivateKey {
    /// Generates a key with a modulus of exactly `bits` bits and public exponent `e`.
    ///
    /// p and q are random probable primes of `bits/2` bits (two top bits set) with
    /// gcd(e, p-1) = gcd(e, q-1) = 1 and |p - q| > 2^(bits/2 - 100); d = e^-1 mod lcm(p-1, q-1).
    pub fn generate<R: RngCore + ?Sized>(bits: u32, e: &Integer, rng: &mut R) -> Result<Self> {
        if !(MIN_MODULUS_BITS..=MAX_MODULUS_BITS).contains(&bits) || bits % 2 != 0 {
            return Err(Error::InvalidParameter(format!(
                "modulus size must be an even number of bits in {MIN_MODULUS_BITS}..={MAX_MODULUS_BITS}, got {bits}"
            )));
        }
        check_public_exponent(e).map_err(Error::KeyGeneration)?;
        let half = bits / 2;
        let coprime_to_e = |p: &Integer| Integer::from(p - 1u32).gcd(e) == 1;
        loop {
            let p = random_prime(half, rng, coprime_to_e);
            let q = random_prime(half, rng, coprime_to_e);
            let diff = Integer::from(&p - &q).abs();
            if diff.significant_bits() <= half.saturating_sub(100) {
                continue;
            }
            let key = Self::from_primes(p, q, e.clone())?;
            // FIPS 186-4: d > 2^(bits/2); a smaller d would be a weak key.
            if key.d.significant_bits() > half {
                return Ok(key);
            }
        }
    }

    /// Builds a key from its primes and public exponent, deriving d and the CRT values.
    pub fn from_primes(p: Integer, q: Integer, e: Integer) -> Result<Self> {
        let (p, q) = if p > q { (p, q) } else { (q, p) };
        if p == q {
            return Err(Error::InvalidKey("the two primes are equal".into()));
        }
        let n = Integer::from(&p * &q);
        let public = RsaPublicKey::new(n, e)?;
        let p1 = SecretInteger::new(Integer::from(&p - 1u32));
        let q1 = SecretInteger::new(Integer::from(&q - 1u32));
        let lambda = SecretInteger::new(Integer::from(p1.lcm_ref(&q1)));
        let d = Integer::from(public.e.invert_ref(&lambda).ok_or_else(|| {
            Error::InvalidKey("public exponent is not invertible modulo lcm(p-1, q-1)".into())
        })?);
        Self::from_components(public, d, p, q)
    }

    /// Builds a key from n, e, d, p and q (as found in a key file), checking that they agree
    /// and deriving dp, dq and qinv.
    pub fn from_components(
        public: RsaPublicKey,
        d: Integer,
        p: Integer,
        q: Integer,
    ) -> Result<Self> {
        let d = SecretInteger::new(d);
        let p = SecretInteger::new(p);
        let q = SecretInteger::new(q);
        if Integer::from(&*p * &*q) != public.n {
            return Err(Error::InvalidKey("p * q does not equal the modulus".into()));
        }
        if *d <= 1 || *d >= public.n {
            return Err(Error::InvalidKey("private exponent out of range".into()));
        }
        let p1 = SecretInteger::new(Integer::from(&*p - 1u32));
        let q1 = SecretInteger::new(Integer::from(&*q - 1u32));
        let dp = SecretInteger::new(Integer::from(&*d % &*p1));
        let dq = SecretInteger::new(Integer::from(&*d % &*q1));
        // e * d must be 1 modulo both p-1 and q-1 (that is, modulo lambda(n)).
        let ed_p = Integer::from(&public.e * &*dp) % &*p1;
        let ed_q = Integer::from(&public.e * &*dq) % &*q1;
        if ed_p != 1 || ed_q != 1 {
            return Err(Error::InvalidKey(
                "e * d is not 1 modulo p-1 and q-1".into(),
            ));
        }
        let qinv = SecretInteger::new(Integer::from(
            q.invert_ref(&p)
                .ok_or_else(|| Error::InvalidKey("q is not invertible modulo p".into()))?,
        ));
        Ok(Self {
            public,
            d,
            p,
            q,
            dp,
            dq,
            qinv,
        })
    }

    /// The public half of the key.
    pub fn public(&self) -> &RsaPublicKey {
        &self.public
    }

    /// The private exponent d.
    pub fn d(&self) -> &Integer {
        &self.d
    }

    /// The first prime p (the larger one).
    pub fn p(&self) -> &Integer {
        &self.p
    }

    /// The second prime q.
    pub fn q(&self) -> &Integer {
        &self.q
    }

    /// d mod (p - 1).
    pub fn dp(&self) -> &Integer {
        &self.dp
    }

    /// d mod (q - 1).
    pub fn dq(&self) -> &Integer {
        &self.dq
    }

    /// q^-1 mod p.
    pub fn qinv(&self) -> &Integer {
        &self.qinv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rug::integer::IsPrime;

    fn rng() -> rand_chacha::ChaCha20Rng {
        rand_chacha::ChaCha20Rng::seed_from_u64(42)
    }

    #[test]
    fn generated_key_is_consistent() {
        let key = RsaPrivateKey::generate(1024, &Integer::from(DEFAULT_E), &mut rng()).unwrap();
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
        let a = RsaPrivateKey::generate(512, &e, &mut rng()).unwrap();
        let b = RsaPrivateKey::generate(512, &e, &mut rng()).unwrap();
        assert_eq!(a.public(), b.public());
    }

    #[test]
    fn bad_exponents_and_sizes_are_refused() {
        let mut r = rng();
        for e in [0u32, 1, 2, 4, 65536] {
            let err = RsaPrivateKey::generate(512, &Integer::from(e), &mut r).unwrap_err();
            assert!(err.to_string().contains("public exponent"), "{err}");
        }
        for bits in [0u32, 256, 511, 513] {
            assert!(RsaPrivateKey::generate(bits, &Integer::from(3), &mut r).is_err());
        }
    }

    #[test]
    fn inconsistent_components_are_refused() {
        let key = RsaPrivateKey::generate(512, &Integer::from(DEFAULT_E), &mut rng()).unwrap();
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
}
