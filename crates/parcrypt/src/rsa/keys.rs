//! RSA key pairs, for two primes or, as in PKCS#1 v2 (RFC 8017 §3.2), up to five: the public
//! key, and the private key built from a key file's values or from d and the primes, checked
//! (and completed) in constant time ([`crate::hazmat::secrets`]). Key generation is variable time and
//! named so (`*_vartime`): it runs only when a key is made, never on a loaded key.
use super::crt::{CtCache, CtCrt};
use super::kernel::PrivateKernel;
pub use super::limits::{
    DEFAULT_E, MAX_MODULUS_BITS, MAX_PUBLIC_EXPONENT_BITS, MIN_MODULUS_BITS, check_public_exponent,
};
use super::prime::{generate_primes_vartime, random_prime_vartime};
use super::secrets::{KeySecrets, limbs_from_integer};
use crate::bignum::{SecretInteger, mpn};
use crate::error::{Error, Result};
use rand::RngCore;
use rug::Integer;
use std::sync::OnceLock;

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

/// GMP integers of a key's secret values, built from its limbs on request: for writing a key
/// file and for the variable-time forms. Building them is variable time in each value's count
/// of significant limbs (GMP keeps its integers normalized); the constant-time private-key
/// operation never builds them.
#[derive(Clone)]
struct Integers {
    d: SecretInteger,
    primes: Vec<SecretInteger>,
    exponents: Vec<SecretInteger>,
    /// Key order: qInv for r_1, 1 for r_2 (none), t_i from r_3.
    coefficients: Vec<SecretInteger>,
}

/// An RSA private key: the public key and the secret values, every one wiped when dropped.
///
/// The secret values live once, as fixed-width limbs ([`KeySecrets`]): d, the primes r_1 = p,
/// r_2 = q, r_3, … (a multi-prime key, RFC 8017 §3.2, has up to five), their CRT exponents and
/// the CRT coefficients as PKCS#1 writes them. Building a key checks them all in constant
/// time; the private-key operation ([`Self::ct_crt`]) reads them as limbs.
#[derive(Clone)]
pub struct RsaPrivateKey {
    public: RsaPublicKey,
    /// n as limbs (public).
    n_limbs: Vec<u64>,
    /// secret: the key's CRT components.
    secrets: KeySecrets,
    /// The same values as GMP integers, built on first request.
    integers: OnceLock<Box<Integers>>,
    /// The constant-time kernel of the private-key operation, prepared on first use.
    ct: CtCache,
}

impl std::fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "RsaPrivateKey({} bits, {} primes, {:?})",
            self.public.bits(),
            self.prime_count(),
            self.ct
        )
    }
}

impl RsaPrivateKey {
    /// A new two-prime key of exactly `bits` bits (2048 or more is the usual advice) with the
    /// public exponent 65537 ([`DEFAULT_E`]): [`generate_vartime`](Self::generate_vartime)
    /// with the usual exponent. **Variable time** (the prime search): key generation only.
    ///
    /// ```
    /// use parcrypt::RsaPrivateKey;
    /// let key = RsaPrivateKey::new_vartime(&mut rand::rngs::OsRng, 1024)?;
    /// assert_eq!(key.public().bits(), 1024);
    /// # Ok::<(), parcrypt::Error>(())
    /// ```
    pub fn new_vartime<R: RngCore + ?Sized>(rng: &mut R, bits: u32) -> Result<Self> {
        Self::generate_vartime(bits, &Integer::from(DEFAULT_E), rng)
    }

    /// Generates a key with a modulus of exactly `bits` bits and public exponent `e`.
    ///
    /// p and q are random probable primes of `bits/2` bits (two top bits set) with
    /// gcd(e, p-1) = gcd(e, q-1) = 1 and |p - q| > 2^(bits/2 - 100); d = e^-1 mod lcm(p-1, q-1).
    /// **Variable time** (prime search, GMP's inversion): key generation only.
    pub fn generate_vartime<R: RngCore + ?Sized>(
        bits: u32,
        e: &Integer,
        rng: &mut R,
    ) -> Result<Self> {
        if !(MIN_MODULUS_BITS..=MAX_MODULUS_BITS).contains(&bits) || bits % 2 != 0 {
            return Err(Error::InvalidParameter(format!(
                "modulus size must be an even number of bits in {MIN_MODULUS_BITS}..={MAX_MODULUS_BITS}, got {bits}"
            )));
        }
        check_public_exponent(e).map_err(Error::KeyGeneration)?;
        // The prime search runs on GMP integers before any is wrapped as a secret.
        crate::bignum::wipe::install();
        let half = bits / 2;
        let coprime_to_e = |p: &Integer| Integer::from(p - 1u32).gcd(e) == 1;
        loop {
            let p = random_prime_vartime(half, rng, coprime_to_e);
            let q = random_prime_vartime(half, rng, coprime_to_e);
            let diff = Integer::from(&p - &q).abs();
            if diff.significant_bits() <= half.saturating_sub(100) {
                continue;
            }
            let key = Self::from_primes_vartime(vec![p, q], e.clone())?;
            // FIPS 186-4: d > 2^(bits/2); a smaller d would be a weak key.
            if key.d().significant_bits() > half {
                return Ok(key);
            }
        }
    }

    /// Builds a key from its primes (two to five, in the key's order; two are put larger
    /// first, as OpenSSL writes them) and public exponent, d = e⁻¹ mod λ(n) by GMP's
    /// inversion. **Variable time**: for key generation, never for a loaded key.
    pub fn from_primes_vartime(primes: Vec<Integer>, e: Integer) -> Result<Self> {
        let mut primes: Vec<SecretInteger> = primes.into_iter().map(SecretInteger::new).collect();
        if primes.len() == 2 {
            if *primes[0] == *primes[1] {
                return Err(Error::InvalidKey("the two primes are equal".into()));
            }
            if *primes[0] < *primes[1] {
                primes.swap(0, 1);
            }
        }
        let n: Integer = primes.iter().map(|r| &**r).product();
        let public = RsaPublicKey::new(n, e)?;
        let lambda = SecretInteger::new(primes.iter().fold(Integer::from(1), |acc, r| {
            acc.lcm(&Integer::from(&**r - 1u32))
        }));
        let d = Integer::from(public.e.invert_ref(&lambda).ok_or_else(|| {
            Error::InvalidKey("public exponent is not invertible modulo lambda(n)".into())
        })?);
        let list = primes.iter().map(|r| (**r).clone()).collect();
        Self::from_prime_list(public, d, list)
    }

    /// Builds a key from n, e, d, p and q, checking that they agree and deriving dP, dQ and
    /// qInv in constant time ([`Self::from_prime_list`]).
    pub fn from_components(
        public: RsaPublicKey,
        d: Integer,
        p: Integer,
        q: Integer,
    ) -> Result<Self> {
        Self::from_prime_list(public, d, vec![p, q])
    }

    /// Builds a key from n, e, d and its primes r_1, r_2, … in file order (two, or up to five
    /// for a multi-prime key), checking that they agree — the product of the primes is n, d is
    /// in range, e·d = 1 modulo every r_i − 1 — and deriving the CRT exponents and
    /// coefficients, all in constant time ([`crate::hazmat::secrets`]). p and q are r_1 and r_2. The
    /// integers given are wiped when dropped; their sizes (as GMP holds them) are taken as
    /// public.
    pub fn from_prime_list(public: RsaPublicKey, d: Integer, primes: Vec<Integer>) -> Result<Self> {
        let d = SecretInteger::new(d);
        let primes: Vec<SecretInteger> = primes.into_iter().map(SecretInteger::new).collect();
        if !(2..=5).contains(&primes.len()) {
            return Err(Error::InvalidKey(format!(
                "an RSA key has 2 to 5 primes, this one has {}",
                primes.len()
            )));
        }
        if *d < 0 || primes.iter().any(|r| **r < 0) {
            return Err(Error::InvalidKey("a key value is negative".into()));
        }
        let n_limbs = n_limbs(&public);
        let list = primes
            .iter()
            .map(|r| {
                let bits = r.significant_bits();
                (limbs_from_integer(r, bits.div_ceil(64) as usize), bits)
            })
            .collect();
        let dl = limbs_from_integer(&d, d.significant_bits().div_ceil(64) as usize);
        let secrets = KeySecrets::derive(&n_limbs, e_u64(&public), &dl, list)?;
        Ok(Self::with_secrets(public, n_limbs, secrets))
    }

    /// Builds a key from a key file's values (PKCS#1 `RSAPrivateKey`: d, the primes, their
    /// CRT exponents and the coefficients qInv, t_3, …, as big-endian bytes), checking them in
    /// constant time, not recomputing them ([`KeySecrets::from_file`]).
    pub(crate) fn from_file_values(
        public: RsaPublicKey,
        d: &[u8],
        primes: &[&[u8]],
        exponents: &[&[u8]],
        coefficients: &[&[u8]],
    ) -> Result<Self> {
        if !(2..=5).contains(&primes.len()) {
            return Err(Error::InvalidKey(format!(
                "an RSA key has 2 to 5 primes, this one has {}",
                primes.len()
            )));
        }
        // The key's GMP integers, if ever built, and the variable-time forms' temporaries.
        crate::bignum::wipe::install();
        let n_limbs = n_limbs(&public);
        let secrets =
            KeySecrets::from_file(&n_limbs, e_u64(&public), d, primes, exponents, coefficients)?;
        Ok(Self::with_secrets(public, n_limbs, secrets))
    }

    fn with_secrets(public: RsaPublicKey, n_limbs: Vec<u64>, secrets: KeySecrets) -> Self {
        Self {
            public,
            n_limbs,
            secrets,
            integers: OnceLock::new(),
            ct: CtCache::default(),
        }
    }

    /// Generates a key of exactly `bits` bits with `primes` primes and public exponent `e`:
    /// [`Self::generate_vartime`] for two, [`generate_primes_vartime`] and
    /// [`Self::from_primes_vartime`] for more. More primes than [`max_primes`] allows for
    /// `bits` is an [`Error::InvalidParameter`]. **Variable time**: key generation only.
    pub fn generate_multi_vartime<R: RngCore + ?Sized>(
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
            return Self::generate_vartime(bits, e, rng);
        }
        loop {
            let list = generate_primes_vartime(bits, primes, e, rng)?;
            let key = Self::from_primes_vartime(list, e.clone())?;
            // FIPS 186-4's bound for two primes, kept here: d > 2^(bits/2).
            if key.d().significant_bits() > bits / 2 {
                return Ok(key);
            }
        }
    }

    /// The public half of the key.
    pub fn public(&self) -> &RsaPublicKey {
        &self.public
    }

    fn integers(&self) -> &Integers {
        self.integers.get_or_init(|| {
            let s = &self.secrets;
            let int = |x: &[u64]| SecretInteger::new(mpn::to_integer(x));
            let u = s.prime_count();
            Box::new(Integers {
                d: int(s.d()),
                primes: (0..u).map(|i| int(s.prime(i))).collect(),
                exponents: (0..u).map(|i| int(s.exponent(i))).collect(),
                coefficients: (0..u)
                    .map(|i| {
                        if i == 1 {
                            SecretInteger::new(Integer::from(1))
                        } else {
                            int(s.coefficient(i))
                        }
                    })
                    .collect(),
            })
        })
    }

    /// The private exponent d, as a GMP integer built from the key's limbs on first request
    /// (for writing the key and the variable-time forms: building it takes time that depends
    /// on its count of significant limbs; the constant-time operation never builds it).
    pub fn d(&self) -> &Integer {
        &self.integers().d
    }

    /// The first prime p (r_1).
    pub fn p(&self) -> &Integer {
        &self.integers().primes[0]
    }

    /// The second prime q (r_2).
    pub fn q(&self) -> &Integer {
        &self.integers().primes[1]
    }

    /// d mod (p - 1).
    pub fn dp(&self) -> &Integer {
        &self.integers().exponents[0]
    }

    /// d mod (q - 1).
    pub fn dq(&self) -> &Integer {
        &self.integers().exponents[1]
    }

    /// q^-1 mod p.
    pub fn qinv(&self) -> &Integer {
        &self.integers().coefficients[0]
    }

    /// How many primes the modulus has (2, or 3 to 5 for a multi-prime key).
    pub fn prime_count(&self) -> usize {
        self.secrets.prime_count()
    }

    /// Prime r_(i+1) (0-based `i`, in the key's order: p, q, r_3, …).
    pub fn prime(&self, i: usize) -> &Integer {
        &self.integers().primes[i]
    }

    /// Its CRT exponent d mod (r_(i+1) − 1).
    pub fn exponent(&self, i: usize) -> &Integer {
        &self.integers().exponents[i]
    }

    /// The primes after p and q with their CRT exponent d_i = d mod (r_i − 1) and coefficient
    /// t_i = (r_1·…·r_(i−1))⁻¹ mod r_i: PKCS#1's `OtherPrimeInfos`, empty for two primes.
    pub fn other_primes(&self) -> Vec<(&Integer, &Integer, &Integer)> {
        let v = self.integers();
        (2..self.prime_count())
            .map(|i| (&*v.primes[i], &*v.exponents[i], &*v.coefficients[i]))
            .collect()
    }

    /// The kernel of the constant-time private-key operations
    /// ([`crate::hazmat::textbook::PrivateOp::CrtConstTime`] and its parallel form).
    pub fn kernel(&self) -> PrivateKernel {
        self.ct.kernel()
    }

    /// Chooses the kernel of the constant-time private-key operations and prepares it: an
    /// error if this CPU cannot run it or a prime is too large for it.
    pub fn set_kernel(&mut self, kernel: PrivateKernel) -> Result<()> {
        let e = e_u64(&self.public);
        self.ct.set(kernel, &self.n_limbs, e, &self.secrets)
    }

    /// The key with `kernel` chosen ([`Self::set_kernel`]).
    pub fn with_kernel(mut self, kernel: PrivateKernel) -> Result<Self> {
        self.set_kernel(kernel)?;
        Ok(self)
    }

    /// The constant-time CRT of the chosen kernel, over every prime (prepared on first use).
    pub fn ct_crt(&self) -> &CtCrt {
        self.ct
            .get_or_build(&self.n_limbs, e_u64(&self.public), &self.secrets)
    }
}

/// n as limbs (public).
fn n_limbs(public: &RsaPublicKey) -> Vec<u64> {
    mpn::padded(public.n(), public.bits().div_ceil(64) as usize)
}

/// e as one limb (below 2^64 by [`RsaPublicKey::new`]).
fn e_u64(public: &RsaPublicKey) -> u64 {
    public
        .e()
        .to_u64()
        .expect("e < 2^64, checked by RsaPublicKey::new")
}

#[cfg(test)]
mod tests;
