//! A private key's secret values as fixed-width limbs — the one place a loaded key keeps them —
//! checked and, where a format lacks them, derived in constant time.
//!
//! What is public: the modulus n, the exponent e, how many primes there are and each prime's
//! bit length (as in BoringSSL, a key's sizes are public; every limb count below follows
//! from them), and the one outcome "valid key or not". What is secret: d, the primes, the
//! CRT exponents d_i and the coefficients. No step here branches on, or indexes memory by, a
//! secret value:
//! - bytes become limbs of a fixed width ([`select::be_bytes_to_limbs`]);
//! - the product of the primes is a fixed-length schoolbook product ([`portable::mul_wide`])
//!   compared with n by a mask;
//! - e·d ≡ 1 and e·d_i ≡ 1 modulo r_i − 1 are a product by the one-limb e
//!   ([`select::mul_limb`]) and a binary long division ([`select::rem`]: no GMP call here,
//!   since GMP's `mpn_sec_div_r` indexes a table by the divisor's top bits);
//! - each coefficient t_i (PKCS#1's qInv for p) is checked by t_i·R ≡ 1 mod r_i, R the
//!   product of the primes before it in Garner's order (q, p, r_3, …), again a fixed-length
//!   product and [`select::rem`]; every range check (1 < d < n, d_i < r_i − 1, t_i < r_i) is
//!   a masked comparison;
//! - a value a format lacks is derived: d_i = d mod (r_i − 1) by [`select::rem`], and t_i as
//!   R^(r_i − 2) mod r_i (Fermat) on the constant-time Montgomery kernel; the same checks then
//!   run on the derived values.
//!
//! Every check's mask is computed whatever the others gave, and the key is refused or kept on
//! their combination, in two stages: the product of the primes first (the later checks divide
//! by r_i − 1, which keeps r_i's bit length only for an odd r_i, and n = Πr_i odd makes every
//! r_i odd), then all the others. Each stage branches once, on a public outcome (the key is
//! valid so far, or refused). Only after a refusal, when the key is rejected anyway, are the
//! masks looked at one by one to name what failed. GMP's integers ([`crate::hazmat::bignum::SecretInteger`]) of the same values
//! are built only on request, for writing a key file and for the variable-time forms
//! ([`crate::rsa::RsaPrivateKey::d`] and the other accessors).
use crate::bignum::ct::{Backend, CtModulus, portable, secret_flow, select};
use crate::bignum::mpn;
use crate::error::{Error, Result};
use zeroize::Zeroizing;

/// Limbs as a key keeps them: wiped on drop.
pub type Limbs = Zeroizing<Vec<u64>>;

/// The indices of the primes in Garner's order: q, p, then r_3, r_4, r_5 (PKCS#1's qInv is
/// q⁻¹ mod p, and each t_i the inverse of the primes before r_i, so this order needs no value
/// the file lacks).
pub fn garner_order(primes: usize) -> Vec<usize> {
    let mut order = vec![1, 0];
    order.extend(2..primes);
    order
}

/// secret: a private key's values as fixed-width little-endian limbs, in the key's order
/// (r_1 = p, r_2 = q, then PKCS#1's `otherPrimeInfos`). Wiped on drop.
#[derive(Clone)]
pub struct KeySecrets {
    /// d, at n's limb count.
    d: Limbs,
    /// r_i, each at ⌈bits/64⌉ limbs.
    primes: Vec<Limbs>,
    /// Each prime's bit length (public).
    bits: Vec<u32>,
    /// d_i = d mod (r_i − 1), at r_i's limb count.
    exponents: Vec<Limbs>,
    /// The Garner coefficient of r_i modulo r_i, at r_i's limb count: qInv = q⁻¹ mod p for
    /// r_1, nothing (empty) for r_2 = q, t_i for r_3 on.
    coefficients: Vec<Limbs>,
}

impl std::fmt::Debug for KeySecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "KeySecrets({} primes of {:?} bits)",
            self.bits.len(),
            self.bits
        )
    }
}

/// One prime's bytes and its public bit length: 8·len minus the leading zeros of the first
/// byte. public: a prime's bit length (the file's DER length already gives its byte length).
fn prime_bits(bytes: &[u8]) -> u32 {
    match bytes.first() {
        Some(&b) => 8 * bytes.len() as u32 - b.leading_zeros(),
        None => 0,
    }
}

/// `bytes` at `limbs` limbs, or `None` when they do not fit (a public fact: their length).
fn limbs_of(bytes: &[u8], limbs: usize) -> Option<Limbs> {
    if bytes.len() > 8 * limbs {
        return None;
    }
    let mut out = Zeroizing::new(vec![0u64; limbs]);
    select::be_bytes_to_limbs(bytes, &mut out);
    Some(out)
}

/// A value minus a small constant, over its limbs (`x >= s`; a prime minus 1 or 2).
fn minus(x: &[u64], s: u64) -> Limbs {
    let mut out = Zeroizing::new(x.to_vec());
    select::sub_masked(&mut out, &[s], u64::MAX);
    out
}

/// Why a key was refused: what the first failed check says.
fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidKey(msg.into())
}

impl KeySecrets {
    /// A key file's values (PKCS#1 `RSAPrivateKey`: d, the primes, the CRT exponents, and the
    /// coefficients qInv, t_3, t_4, …), as big-endian bytes without leading zeros, checked
    /// against the public n (limbs) and e in constant time (see the module docs).
    pub fn from_file(
        n: &[u64],
        e: u64,
        d: &[u8],
        primes: &[&[u8]],
        exponents: &[&[u8]],
        coefficients: &[&[u8]],
    ) -> Result<Self> {
        let u = primes.len();
        assert!(
            exponents.len() == u && coefficients.len() + 1 == u,
            "one exponent per prime, one coefficient per prime after the first"
        );
        let bits: Vec<u32> = primes.iter().map(|p| prime_bits(p)).collect();
        check_sizes(n, &bits)?;
        let width = |i: usize| bits[i].div_ceil(64) as usize;
        // secret: the primes, d, the CRT exponents and coefficients, from here on as limbs.
        let primes: Vec<Limbs> = (0..u)
            .map(|i| limbs_of(primes[i], width(i)).expect("sized by its own length"))
            .collect();
        let d = limbs_of(d, n.len()).ok_or_else(|| invalid("private exponent out of range"))?;
        let crt_err = || crt_mismatch(u);
        let exponents = (0..u)
            .map(|i| limbs_of(exponents[i], width(i)).ok_or_else(crt_err))
            .collect::<Result<Vec<_>>>()?;
        // coefficients[0] is qInv (modulo r_1 = p); r_2 = q has none; t_i for i >= 3.
        let mut coefs = Vec::with_capacity(u);
        coefs.push(limbs_of(coefficients[0], width(0)).ok_or_else(crt_err)?);
        coefs.push(Zeroizing::new(Vec::new()));
        for (i, t) in coefficients.iter().enumerate().skip(1) {
            coefs.push(limbs_of(t, width(i + 1)).ok_or_else(crt_err)?);
        }
        let key = KeySecrets {
            d,
            primes,
            bits,
            exponents,
            coefficients: coefs,
        };
        key.check_product(n)?;
        key.check(n, e)?;
        Ok(key)
    }

    /// A key from d (at n's limb count or fewer) and its primes (each at ⌈bits/64⌉ limbs with
    /// its public bit length), deriving the CRT exponents and coefficients in constant time and
    /// checking them as [`KeySecrets::from_file`] does.
    pub fn derive(n: &[u64], e: u64, d: &[u64], primes: Vec<(Limbs, u32)>) -> Result<Self> {
        let bits: Vec<u32> = primes.iter().map(|p| p.1).collect();
        check_sizes(n, &bits)?;
        if d.len() > n.len() {
            return Err(invalid("private exponent out of range"));
        }
        let mut dl = Zeroizing::new(vec![0u64; n.len()]);
        dl[..d.len()].copy_from_slice(d);
        let primes: Vec<Limbs> = primes.into_iter().map(|p| p.0).collect();
        let u = primes.len();
        let mut key = KeySecrets {
            d: dl,
            primes,
            bits,
            exponents: Vec::new(),
            coefficients: Vec::new(),
        };
        // The product check first: it makes every prime odd (n is), so r_i − 1 keeps r_i's
        // bit length (public) and is not zero.
        key.check_product(n)?;
        // secret: the derived CRT exponents and coefficients.
        key.exponents = (0..u)
            .map(|i| select::rem(&key.d, &minus(&key.primes[i], 1)))
            .collect();
        key.coefficients = vec![Zeroizing::new(Vec::new()); u];
        let order = garner_order(u);
        let mut prefix = Zeroizing::new(key.primes[order[0]].to_vec());
        for &i in &order[1..] {
            let r = &key.primes[i];
            let ctx = CtModulus::from_limbs(r, key.bits[i], Backend::best_for(key.bits[i]))?;
            let base = select::rem(&prefix, r);
            let mut t = Zeroizing::new(vec![0u64; r.len()]);
            ctx.pow_limbs(&mut t, &base, &minus(r, 2), key.bits[i]);
            key.coefficients[i] = t;
            prefix = times(&prefix, r);
        }
        key.check(n, e)?;
        Ok(key)
    }

    /// The product of the primes against n, and every prime odd: a mask each, one branch on
    /// their combination.
    fn check_product(&self, n: &[u64]) -> Result<()> {
        let mut product = Zeroizing::new(vec![1u64]);
        let mut odd = u64::MAX;
        for r in &self.primes {
            product = times(&product, r);
            odd &= select::mask_from_bit(r[0]);
        }
        // public: the one outcome (declassified for the secret-flow check).
        if secret_flow::declassify_value(select::eq_limbs_mask(&product, n) & odd) != u64::MAX {
            return Err(invalid(if self.primes.len() == 2 {
                "p * q does not equal the modulus"
            } else {
                "the product of the primes does not equal the modulus"
            }));
        }
        Ok(())
    }

    /// Every other check (see the module docs), each a mask; the key passes when all do.
    fn check(&self, n: &[u64], e: u64) -> Result<()> {
        let u = self.primes.len();
        let one = [1u64];
        let d_range = select::lt_limbs_mask(&one, &self.d) & select::lt_limbs_mask(&self.d, n);
        let mut ed = Zeroizing::new(vec![0u64; self.d.len() + 1]);
        select::mul_limb(&mut ed, &self.d, e);
        let (mut ed_ok, mut crt_ok) = (u64::MAX, u64::MAX);
        for i in 0..u {
            let rm1 = minus(&self.primes[i], 1);
            ed_ok &= select::eq_limbs_mask(&select::rem(&ed, &rm1), &one);
            let di = &self.exponents[i];
            let mut edi = Zeroizing::new(vec![0u64; di.len() + 1]);
            select::mul_limb(&mut edi, di, e);
            crt_ok &= select::lt_limbs_mask(di, &rm1);
            crt_ok &= select::eq_limbs_mask(&select::rem(&edi, &rm1), &one);
        }
        let order = garner_order(u);
        let mut prefix = Zeroizing::new(self.primes[order[0]].to_vec());
        for &i in &order[1..] {
            let (r, t) = (&self.primes[i], &self.coefficients[i]);
            crt_ok &= select::lt_limbs_mask(t, r);
            crt_ok &= select::eq_limbs_mask(&select::rem(&times(&prefix, t), r), &one);
            prefix = times(&prefix, r);
        }
        // public: the one outcome, valid key or not. Past this line the key is refused, and
        // the message names the first check that failed.
        if secret_flow::declassify_value(d_range & ed_ok & crt_ok) == u64::MAX {
            return Ok(());
        }
        if d_range != u64::MAX {
            return Err(invalid("private exponent out of range"));
        }
        if ed_ok != u64::MAX {
            let which = if u == 2 {
                "p-1 and q-1"
            } else {
                "every r_i - 1"
            };
            return Err(invalid(format!("e * d is not 1 modulo {which}")));
        }
        Err(crt_mismatch(u))
    }

    /// How many primes.
    pub fn prime_count(&self) -> usize {
        self.primes.len()
    }

    /// d, at n's limb count.
    pub fn d(&self) -> &[u64] {
        &self.d
    }

    /// Prime `i` (key order), at ⌈bits/64⌉ limbs.
    pub fn prime(&self, i: usize) -> &[u64] {
        &self.primes[i]
    }

    /// Prime `i`'s bit length (public).
    pub fn prime_bits(&self, i: usize) -> u32 {
        self.bits[i]
    }

    /// d mod (r_i − 1), at r_i's limb count.
    pub fn exponent(&self, i: usize) -> &[u64] {
        &self.exponents[i]
    }

    /// The Garner coefficient of prime `i` modulo it: qInv for `i` = 0, empty for `i` = 1
    /// (q, the first in Garner's order), t_i from `i` = 2.
    pub fn coefficient(&self, i: usize) -> &[u64] {
        &self.coefficients[i]
    }
}

/// `a·b` at `a.len() + b.len()` limbs, every limb product computed.
fn times(a: &[u64], b: &[u64]) -> Limbs {
    let mut out = Zeroizing::new(vec![0u64; a.len() + b.len()]);
    portable::mul_wide(&mut out, a, b);
    out
}

/// The public size checks: 2 to 5 primes, each of 2 bits or more, their bit lengths adding up
/// to n's (a product of primes of b_1, …, b_u bits has between Σb_i − u + 1 and Σb_i bits).
fn check_sizes(n: &[u64], bits: &[u32]) -> Result<()> {
    let u = bits.len();
    if !(2..=5).contains(&u) {
        return Err(invalid(format!(
            "an RSA key has 2 to 5 primes, this one has {u}"
        )));
    }
    if bits.iter().any(|&b| b < 2) {
        return Err(invalid("a prime factor is below 3"));
    }
    let n_bits = select::public_bits(n);
    let sum: u32 = bits.iter().sum();
    if sum < n_bits || sum > n_bits + u as u32 - 1 {
        return Err(invalid(if u == 2 {
            "p * q does not equal the modulus"
        } else {
            "the product of the primes does not equal the modulus"
        }));
    }
    Ok(())
}

fn crt_mismatch(u: usize) -> Error {
    invalid(if u == 2 {
        "the key's CRT values (dP, dQ, qInv) do not match d, p and q"
    } else {
        "the key's CRT values (dP, dQ, qInv, or an otherPrimeInfo's exponent or coefficient) do \
         not match d and the primes"
    })
}

/// `x` at exactly `len` limbs (the caller's integer, zero-padded): for keys built from GMP
/// integers (key generation, [`crate::rsa::RsaPrivateKey::from_prime_list`]).
pub fn limbs_from_integer(x: &rug::Integer, len: usize) -> Limbs {
    Zeroizing::new(mpn::padded(x, len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rsa::RsaPrivateKey;
    use rand::SeedableRng;
    use rug::Integer;

    fn bytes(x: &Integer) -> Vec<u8> {
        x.to_digits(rug::integer::Order::Msf)
    }

    /// Each value of a key file changed on its own is refused with the line that names it;
    /// the file's own values pass.
    #[test]
    fn every_altered_value_is_refused_with_its_own_line() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(29);
        let e = Integer::from(65537);
        let key = RsaPrivateKey::generate_vartime(768, &e, &mut rng).unwrap();
        let n = mpn::padded(key.public().n(), 12);
        let (p, q) = (key.p().clone(), key.q().clone());
        let good = [
            key.d().clone(),
            p.clone(),
            q.clone(),
            key.dp().clone(),
            key.dq().clone(),
            key.qinv().clone(),
        ];
        let try_with = |v: &[Integer]| {
            let b: Vec<Vec<u8>> = v.iter().map(bytes).collect();
            KeySecrets::from_file(&n, 65537, &b[0], &[&b[1], &b[2]], &[&b[3], &b[4]], &[&b[5]])
        };
        assert!(try_with(&good).is_ok());
        let cases: [(usize, Integer, &str); 9] = [
            (
                0,
                Integer::from(key.d() + 2u32),
                "e * d is not 1 modulo p-1 and q-1",
            ),
            (0, key.public().n().clone(), "private exponent out of range"),
            (0, Integer::from(1), "private exponent out of range"),
            (
                1,
                Integer::from(&p + 2u32),
                "p * q does not equal the modulus",
            ),
            (2, Integer::from(1), "a prime factor is below 3"),
            (3, key.dp() + Integer::from(&p - 1u32), "CRT values"),
            (4, Integer::from(key.dq() + 2u32), "CRT values"),
            (5, Integer::from(key.qinv() + &p), "CRT values"),
            (5, Integer::from(key.qinv() + 1u32), "CRT values"),
        ];
        for (i, value, want) in cases {
            let mut v = good.clone();
            v[i] = value;
            let err = try_with(&v).unwrap_err().to_string();
            assert!(err.contains(want), "value {i}: {err}");
        }
    }
}
