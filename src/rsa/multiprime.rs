//! Multi-prime RSA (RFC 8017 §3.2, §5.1.2): n = r_1·r_2·…·r_u with u = 3 to 5 primes, and the
//! private-key operation with one thread per prime — the latency split that needs no
//! cooperation between threads until the final recombination.
//!
//! Each m_i = c^(d_i) mod r_i is independent; RFC 8017's recombination then folds them in
//! order: m = m_2 + q·((m_1 − m_2)·qInv mod p), and for i ≥ 3, with R = r_1···r_(i−1):
//! m = m + R·((m_i − m)·t_i mod r_i). An [`crate::rsa::RsaPrivateKey`] of three or more primes
//! (read from a PKCS#1 v2 or PKCS#8 file, or made by `rsa keygen --primes`) holds one of these
//! and decrypts through it.
use super::kernel::{CrtParts, CtCache, CtCrt, PrivateKernel};
use super::limits::{DEFAULT_E, MAX_MODULUS_BITS, MIN_MODULUS_BITS, check_public_exponent};
use super::prime::{random_prime_in_vartime, random_prime_vartime};
use crate::bignum::SecretInteger;
use crate::error::{Error, Result};
use rand::RngCore;
use rug::Integer;

/// A multi-prime RSA private key (all secrets wiped on drop).
#[derive(Clone, Debug)]
pub struct MultiPrimeKey {
    n: Integer,
    e: Integer,
    d: SecretInteger,
    /// r_1 .. r_u
    primes: Vec<SecretInteger>,
    /// The constant-time kernel of [`Self::decrypt`], prepared on first use.
    ct: CtCache,
    /// d_i = d mod (r_i − 1)
    exponents: Vec<SecretInteger>,
    /// coefficients[i] = (primes[0]·…·primes[i−1])⁻¹ mod primes[i] for i >= 1 (RFC 8017's t_i;
    /// coefficients[1] plays qInv's role with p and q swapped); coefficients[0] = 1, unused.
    coefficients: Vec<SecretInteger>,
}

impl MultiPrimeKey {
    /// Generates a `bits`-bit key with `primes` (2..=5) primes and e = 65537.
    pub fn generate<R: RngCore + ?Sized>(bits: u32, primes: usize, rng: &mut R) -> Result<Self> {
        Self::generate_with_e(bits, primes, &Integer::from(DEFAULT_E), rng)
    }

    /// Generates a `bits`-bit key with `primes` (2..=5) primes and public exponent `e`.
    ///
    /// The first u − 1 primes have bits/u bits (two top bits set); the last is drawn from the
    /// range that makes n exactly `bits` bits long.
    pub fn generate_with_e<R: RngCore + ?Sized>(
        bits: u32,
        primes: usize,
        e: &Integer,
        rng: &mut R,
    ) -> Result<Self> {
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
            if sorted.len() != primes {
                continue;
            }
            return Self::from_primes(ps, e.clone());
        }
    }

    /// Builds the key from its primes and e.
    pub fn from_primes(primes: Vec<Integer>, e: Integer) -> Result<Self> {
        let n: Integer = primes.iter().product();
        let lambda = primes
            .iter()
            .fold(Integer::from(1), |acc, p| acc.lcm(&Integer::from(p - 1u32)));
        let lambda = SecretInteger::new(lambda);
        let d =
            SecretInteger::new(Integer::from(e.invert_ref(&lambda).ok_or_else(|| {
                Error::InvalidKey("e is not invertible modulo lambda(n)".into())
            })?));
        let exponents = primes
            .iter()
            .map(|p| SecretInteger::new(&*d % Integer::from(p - 1u32)))
            .collect();
        let mut coefficients = vec![SecretInteger::new(Integer::from(1))];
        let mut prefix = primes[0].clone();
        for p in &primes[1..] {
            let t = Integer::from(
                prefix
                    .invert_ref(p)
                    .ok_or_else(|| Error::InvalidKey("primes are not pairwise coprime".into()))?,
            );
            coefficients.push(SecretInteger::new(t));
            prefix *= p;
        }
        Ok(Self {
            n,
            e,
            d,
            primes: primes.into_iter().map(SecretInteger::new).collect(),
            exponents,
            coefficients,
            ct: CtCache::default(),
        })
    }

    /// The modulus.
    pub fn n(&self) -> &Integer {
        &self.n
    }

    /// The public exponent.
    pub fn e(&self) -> &Integer {
        &self.e
    }

    /// The private exponent d (for checks: c^d mod n must agree with [`Self::decrypt`]).
    pub fn d(&self) -> &Integer {
        &self.d
    }

    /// The number of primes.
    pub fn prime_count(&self) -> usize {
        self.primes.len()
    }

    /// The prime r_(i+1) (0-based `i`, in the key's order).
    pub fn prime(&self, i: usize) -> &Integer {
        &self.primes[i]
    }

    /// Its CRT exponent d mod (r_(i+1) − 1).
    pub fn exponent(&self, i: usize) -> &Integer {
        &self.exponents[i]
    }

    /// Its CRT coefficient (r_1·…·r_i)⁻¹ mod r_(i+1) for `i` >= 1: for `i` >= 2 PKCS#1's t_i
    /// of `OtherPrimeInfo`; for `i` = 1, r_1⁻¹ mod r_2 (not PKCS#1's qInv, which is r_2⁻¹ mod
    /// r_1); 1 for `i` = 0.
    pub fn coefficient(&self, i: usize) -> &Integer {
        &self.coefficients[i]
    }

    /// The parameters of the constant-time CRT, in the key's (ascending) order.
    fn crt_parts(&self) -> CrtParts<'_> {
        CrtParts {
            n: &self.n,
            primes: self.primes.iter().map(|p| p.expose()).collect(),
            exponents: self.exponents.iter().map(|d| d.expose()).collect(),
            coefficients: self.coefficients[1..].iter().map(|t| t.expose()).collect(),
        }
    }

    /// The kernel of the constant-time [`Self::decrypt`].
    pub fn kernel(&self) -> PrivateKernel {
        self.ct.kernel()
    }

    /// Chooses the kernel of the constant-time [`Self::decrypt`] and prepares it: an error
    /// if this CPU cannot run it or the key is too large for it.
    pub fn set_kernel(&mut self, kernel: PrivateKernel) -> Result<()> {
        let mut ct = CtCache::default();
        ct.set(kernel, &self.crt_parts())?;
        self.ct = ct;
        Ok(())
    }

    /// The constant-time CRT of the chosen Montgomery kernel (prepared on first use), or
    /// `None` when the kernel is `gmp-sec`.
    pub fn ct_crt(&self) -> Option<&CtCrt> {
        self.ct.get_or_build(&self.crt_parts())
    }

    /// c^e mod n.
    pub fn encrypt(&self, m: &Integer) -> Integer {
        Integer::from(m.pow_mod_ref(&self.e, &self.n).expect("e > 0"))
    }

    /// m = c^d mod n through the u residues, computed on u threads if `parallel` (else in
    /// turn); if `constant_time`, with the key's kernel ([`Self::set_kernel`]: by default the
    /// best constant-time Montgomery kernel of this CPU, from the reduction to the
    /// recombination; or `mpz_powm_sec`), else with `mpz_powm` (variable-time).
    /// `c` must be in `[0, n)`.
    pub fn decrypt(&self, c: &Integer, parallel: bool, constant_time: bool) -> Integer {
        if constant_time {
            if let Some(crt) = self.ct_crt() {
                return crt.private_op_integer(c, parallel);
            }
        }
        let residue = |i: usize| {
            let ci = SecretInteger::new(Integer::from(c % &*self.primes[i]));
            SecretInteger::new(if constant_time {
                Integer::from(ci.secure_pow_mod_ref(&self.exponents[i], &self.primes[i]))
            } else {
                Integer::from(
                    ci.pow_mod_ref(&self.exponents[i], &self.primes[i])
                        .expect("d_i >= 0"),
                )
            })
        };
        let residues: Vec<SecretInteger> = if parallel {
            crate::parallel::pool::team(self.primes.len(), false, residue)
        } else {
            (0..self.primes.len()).map(residue).collect()
        };
        // Garner in the ascending form: m ≡ m_1 (mod r_1); for i >= 2, with R = r_1···r_(i−1):
        // m += R·((m_i − m)·R⁻¹ mod r_i). Equivalent to RFC 8017's order with p and q swapped.
        let mut m = residues[0].expose().clone();
        let mut prefix = self.primes[0].expose().clone();
        let rest = self
            .primes
            .iter()
            .zip(&residues)
            .zip(&self.coefficients)
            .skip(1);
        for ((r, residue), coefficient) in rest {
            let r: &Integer = r;
            let mut h = Integer::from(&**residue - &m);
            h *= &**coefficient;
            h %= r;
            if h < 0 {
                h += r;
            }
            h *= &prefix;
            m += h;
            prefix *= r;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn every_prime_count_decrypts_like_plain_rsa() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(21);
        for primes in 2..=4 {
            let key = MultiPrimeKey::generate(1024, primes, &mut rng).unwrap();
            assert_eq!(key.n().significant_bits(), 1024);
            assert_eq!(key.prime_count(), primes);
            for i in 0..5u32 {
                let m = crate::bignum::random_below(&mut rng, key.n());
                let m = if i == 0 { Integer::new() } else { m };
                let c = key.encrypt(&m);
                assert_eq!(c.clone().pow_mod(key.d(), key.n()).unwrap(), m);
                for (parallel, ct) in [(false, false), (true, false), (false, true), (true, true)] {
                    assert_eq!(key.decrypt(&c, parallel, ct), m, "{primes} primes");
                }
            }
        }
    }

    #[test]
    fn bad_parameters_are_refused() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(22);
        assert!(MultiPrimeKey::generate(1024, 6, &mut rng).is_err());
        assert!(MultiPrimeKey::generate(1024, 1, &mut rng).is_err());
        assert!(MultiPrimeKey::generate(500, 3, &mut rng).is_err());
        // Any size in range, not only multiples of 64 (OpenSSL makes such keys too).
        let key = MultiPrimeKey::generate(1000, 3, &mut rng).unwrap();
        assert_eq!(key.n().significant_bits(), 1000);
    }
}
