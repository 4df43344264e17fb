//! RSA key pairs: generation, validation and the CRT parameters, for two primes or, as in
//! PKCS#1 v2 (RFC 8017 §3.2), up to five.
use super::kernel::{CrtParts, CtCache, CtCrt, PrivateKernel};
pub use super::limits::{
    DEFAULT_E, MAX_MODULUS_BITS, MAX_PUBLIC_EXPONENT_BITS, MIN_MODULUS_BITS, check_public_exponent,
};
use super::multiprime::MultiPrimeKey;
use super::prime::random_prime_vartime;
use crate::bignum::SecretInteger;
use crate::error::{Error, Result};
use rand::RngCore;
use rug::Integer;

/// An RSA public key (n, e).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RsaPublicKey {
    n: Integer,
    e: Integer,
}

impl RsaPublicKey {
    /// Builds a public key after checking that n is odd and of a size in
    /// [`MIN_MODULUS_BITS`]..=[`MAX_MODULUS_BITS`] and that e is valid
    /// ([`check_public_exponent`]).
    pub fn new(n: Integer, e: Integer) -> Result<Self> {
        if n.significant_bits() > MAX_MODULUS_BITS {
            return Err(Error::InvalidKey(format!(
                "modulus of {} bits is above {MAX_MODULUS_BITS} bits, OpenSSL's limit",
                n.significant_bits()
            )));
        }
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

/// The most primes a modulus of `bits` bits may have: OpenSSL's limits (`ossl_rsa_multip_cap`,
/// at most `RSA_MAX_PRIME_NUM` = 5), so that every key parcrypt makes OpenSSL also accepts.
/// Below 1024 bits 2, below 4096 bits 3, below 8192 bits 4, from 8192 bits 5.
pub fn max_primes(bits: u32) -> usize {
    match bits {
        0..=1023 => 2,
        1024..=4095 => 3,
        4096..=8191 => 4,
        _ => 5,
    }
}

/// An RSA private key with its CRT parameters. Every secret value is wiped when dropped.
///
/// A multi-prime key (RFC 8017 §3.2: n = r_1·r_2·…·r_u, u >= 3) keeps p = r_1, q = r_2 and their
/// dP, dQ and qInv as PKCS#1 writes them, and the whole prime list in a [`MultiPrimeKey`], which
/// computes the private-key operation by CRT over every prime.
#[derive(Clone, Debug)]
pub struct RsaPrivateKey {
    public: RsaPublicKey,
    d: SecretInteger,
    p: SecretInteger,
    q: SecretInteger,
    dp: SecretInteger,
    dq: SecretInteger,
    qinv: SecretInteger,
    multi: Option<Box<MultiPrimeKey>>,
    /// The constant-time kernel of the private-key operation, prepared on first use.
    ct: CtCache,
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
            let p = random_prime_vartime(half, rng, coprime_to_e);
            let q = random_prime_vartime(half, rng, coprime_to_e);
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
        Self::from_prime_list(public, d, vec![p, q])
    }

    /// Builds a key from n, e, d and its primes r_1, r_2, … in file order (two, or up to five
    /// for a multi-prime key), checking that they agree: the product of the primes is n, d is
    /// in range and e·d = 1 modulo every r_i − 1. p and q are r_1 and r_2; a multi-prime key
    /// also gets the CRT exponents and coefficients of every further prime.
    pub fn from_prime_list(public: RsaPublicKey, d: Integer, primes: Vec<Integer>) -> Result<Self> {
        let d = SecretInteger::new(d);
        let primes: Vec<SecretInteger> = primes.into_iter().map(SecretInteger::new).collect();
        if !(2..=5).contains(&primes.len()) {
            return Err(Error::InvalidKey(format!(
                "an RSA key has 2 to 5 primes, this one has {}",
                primes.len()
            )));
        }
        let product = SecretInteger::new(primes.iter().map(|r| &**r).product());
        if *product != public.n {
            let what = if primes.len() == 2 {
                "p * q does not equal the modulus"
            } else {
                "the product of the primes does not equal the modulus"
            };
            return Err(Error::InvalidKey(what.into()));
        }
        if *d <= 1 || *d >= public.n {
            return Err(Error::InvalidKey("private exponent out of range".into()));
        }
        // e * d must be 1 modulo every r_i - 1 (that is, modulo lambda(n)).
        let mut exponents = Vec::with_capacity(primes.len());
        for r in &primes {
            if **r < 3 {
                return Err(Error::InvalidKey("a prime factor is below 3".into()));
            }
            let r1 = SecretInteger::new(Integer::from(&**r - 1u32));
            let dr = SecretInteger::new(Integer::from(&*d % &*r1));
            if Integer::from(&public.e * &*dr) % &*r1 != 1 {
                let which = if primes.len() == 2 {
                    "p-1 and q-1"
                } else {
                    "every r_i - 1"
                };
                return Err(Error::InvalidKey(format!("e * d is not 1 modulo {which}")));
            }
            exponents.push(dr);
        }
        let (p, q) = (primes[0].clone(), primes[1].clone());
        let qinv = SecretInteger::new(Integer::from(
            q.invert_ref(&p)
                .ok_or_else(|| Error::InvalidKey("q is not invertible modulo p".into()))?,
        ));
        let multi = if primes.len() > 2 {
            let list = primes.iter().map(|r| (**r).clone()).collect();
            Some(Box::new(MultiPrimeKey::from_primes(
                list,
                public.e.clone(),
            )?))
        } else {
            None
        };
        let mut exponents = exponents.into_iter();
        let (dp, dq) = (exponents.next().unwrap(), exponents.next().unwrap());
        Ok(Self {
            public,
            d,
            p,
            q,
            dp,
            dq,
            qinv,
            multi,
            ct: CtCache::default(),
        })
    }

    /// Generates a key of exactly `bits` bits with `primes` primes and public exponent `e`:
    /// [`Self::generate`] for two, [`MultiPrimeKey::generate_with_e`] for more. More primes
    /// than [`max_primes`] allows for `bits` is an [`Error::InvalidParameter`].
    pub fn generate_multi<R: RngCore + ?Sized>(
        bits: u32,
        primes: usize,
        e: &Integer,
        rng: &mut R,
    ) -> Result<Self> {
        let cap = max_primes(bits);
        if !(2..=cap).contains(&primes) {
            return Err(Error::InvalidParameter(format!(
                "{bits}-bit keys take 2 to {cap} primes (OpenSSL's limit for that size: 2 below \
                 1024 bits, 3 below 4096, 4 below 8192, 5 from 8192), got {primes}"
            )));
        }
        if primes == 2 {
            return Self::generate(bits, e, rng);
        }
        if !(MIN_MODULUS_BITS..=MAX_MODULUS_BITS).contains(&bits) {
            return Err(Error::InvalidParameter(format!(
                "modulus size must be in {MIN_MODULUS_BITS}..={MAX_MODULUS_BITS} bits, got {bits}"
            )));
        }
        check_public_exponent(e).map_err(Error::KeyGeneration)?;
        loop {
            let multi = MultiPrimeKey::generate_with_e(bits, primes, e, rng)?;
            // FIPS 186-4's bound for two primes, kept here: d > 2^(bits/2).
            if multi.d().significant_bits() <= bits / 2 {
                continue;
            }
            let public = RsaPublicKey::new(multi.n().clone(), e.clone())?;
            let list = (0..primes).map(|i| multi.prime(i).clone()).collect();
            return Self::from_prime_list(public, multi.d().clone(), list);
        }
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

    /// How many primes the modulus has (2, or 3 to 5 for a multi-prime key).
    pub fn prime_count(&self) -> usize {
        self.multi.as_ref().map_or(2, |m| m.prime_count())
    }

    /// The whole key as a [`MultiPrimeKey`] (CRT over every prime), for a key of three primes
    /// or more; `None` for a two-prime key.
    pub fn multi_prime(&self) -> Option<&MultiPrimeKey> {
        self.multi.as_deref()
    }

    /// The kernel of the constant-time private-key operations
    /// ([`crate::rsa::textbook::PrivateOp::CrtConstTime`] and its parallel form).
    pub fn kernel(&self) -> PrivateKernel {
        match &self.multi {
            Some(m) => m.kernel(),
            None => self.ct.kernel(),
        }
    }

    /// Chooses the kernel of the constant-time private-key operations and prepares it: an
    /// error if this CPU cannot run it or the key is too large for it.
    pub fn set_kernel(&mut self, kernel: PrivateKernel) -> Result<()> {
        match &mut self.multi {
            Some(m) => m.set_kernel(kernel),
            None => {
                let parts = CrtParts {
                    n: &self.public.n,
                    primes: vec![&self.q, &self.p],
                    exponents: vec![&self.dq, &self.dp],
                    coefficients: vec![&self.qinv],
                };
                let mut ct = CtCache::default();
                ct.set(kernel, &parts)?;
                self.ct = ct;
                Ok(())
            }
        }
    }

    /// The key with `kernel` chosen ([`Self::set_kernel`]).
    pub fn with_kernel(mut self, kernel: PrivateKernel) -> Result<Self> {
        self.set_kernel(kernel)?;
        Ok(self)
    }

    /// The constant-time CRT of the chosen Montgomery kernel (prepared on first use), or
    /// `None` when the kernel is `gmp-sec`.
    pub fn ct_crt(&self) -> Option<&CtCrt> {
        match &self.multi {
            Some(m) => m.ct_crt(),
            None => self.ct.get_or_build(&CrtParts {
                n: &self.public.n,
                primes: vec![&self.q, &self.p],
                exponents: vec![&self.dq, &self.dp],
                coefficients: vec![&self.qinv],
            }),
        }
    }

    /// The primes after p and q with their CRT exponent d_i = d mod (r_i − 1) and coefficient
    /// t_i = (r_1·…·r_(i−1))⁻¹ mod r_i: PKCS#1's `OtherPrimeInfos`, empty for two primes.
    pub fn other_primes(&self) -> Vec<(&Integer, &Integer, &Integer)> {
        match &self.multi {
            None => Vec::new(),
            Some(m) => (2..m.prime_count())
                .map(|i| (m.prime(i), m.exponent(i), m.coefficient(i)))
                .collect(),
        }
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
        for bits in [0u32, 256, 511, 513, 16386] {
            assert!(RsaPrivateKey::generate(bits, &Integer::from(3), &mut r).is_err());
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
            let err = RsaPrivateKey::generate_multi(bits, primes, &e, &mut rng()).unwrap_err();
            assert!(matches!(err, Error::InvalidParameter(_)), "{err}");
            assert!(err.to_string().contains("OpenSSL's limit"), "{err}");
        }
    }

    #[test]
    fn multi_prime_keys_are_consistent() {
        let e = Integer::from(DEFAULT_E);
        let key = RsaPrivateKey::generate_multi(1536, 3, &e, &mut rng()).unwrap();
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
        let err = RsaPrivateKey::from_prime_list(key.public().clone(), wrong_d, primes.clone())
            .unwrap_err();
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
            RsaPrivateKey::generate(512, &e, &mut rng())
                .unwrap()
                .prime_count(),
            2
        );
    }
}
