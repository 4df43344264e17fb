//! The private-key operation in constant time, from the blinded ciphertext to the unblinded
//! result, over every prime of the key ([`CtCrt`]), with a fault check before any output.
//!
//! Every step works on fixed-length limbs with no branch or memory index that depends on a
//! secret, on the key's [`PrivateKernel`] (`ModArith`: a Montgomery kernel or GMP's
//! `mpn_sec_*`):
//! - c mod r_i by a fixed-length reduction, not a division;
//! - the residues by a constant-time exponentiation over each prime's bit length; two primes
//!   of one size run interleaved on the IFMA kernel, or one per pool thread when parallel;
//! - Garner's recombination in the ascending order q, p, r_3, … (PKCS#1's qInv and t_i as the
//!   file holds them): m = m_q, then m += R·((m_i − m)·t_i mod r_i) with R the product of the
//!   primes before r_i, a masked modular subtraction, a product by t_i and a schoolbook product
//!   of fixed length;
//! - the fault check: the result (before unblinding) raised to e (public, < 2^64: 17 products
//!   for 65537) modulo n and compared with the blinded ciphertext by a mask; a mismatch is
//!   [`Error::DecryptionError`] and the result is dropped, wiped, never returned (a faulty CRT
//!   half would give the factor gcd(m^e − c, n));
//! - the blinding: c' = c·r^e mod n, and the result times r⁻¹ mod n. The pair (r^e, r⁻¹) is
//!   drawn from a fresh uniform r (r^e by square-and-multiply on e, r⁻¹ by Fermat on each
//!   prime, r^(r_i − 2) mod r_i, recombined as above), then, as OpenSSL's `BN_BLINDING` does,
//!   squared before each further use, and drawn afresh every [`BLINDING_USES`] uses.
//!
//! The secrets live in a few named places (each created under a `// secret:` comment, for a
//! secret-flow checker to mark): the key's CRT values (each `CrtPrime`), the
//! blinding pair (`BlindState`), and the unblinded result (`decrypt_blinded`'s output).
//! Every buffer holding one is wiped on drop.
use super::kernel::{ModArith, PrivateKernel};
use super::secrets::{KeySecrets, Limbs, garner_order};
use crate::bignum::ct::{self, Backend, portable, secret_flow, select};
use crate::bignum::mpn;
use crate::error::{Error, Result};
use rand::RngCore;
use rug::Integer;
use std::sync::Mutex;
use std::sync::{Arc, OnceLock};
use zeroize::Zeroizing;

/// Uses of one blinding pair before a fresh r is drawn (OpenSSL's `BN_BLINDING_COUNTER`).
pub const BLINDING_USES: u32 = 32;

/// The test-only fault that flips one bit of one CRT half before the recombination
/// (`PARCRYPT_FAULT=crt-half`, read once per process; the variable is
/// `parcrypt_lab::bench::failure::FAULT_VAR`): the fault check must refuse the result. Honoured
/// only in a build with the non-default `fault-injection` feature (the lab's tests turn it on);
/// every other build ignores the variable.
pub const CRT_FAULT: &str = "crt-half";

/// Whether [`CRT_FAULT`] is planted: never without the `fault-injection` feature.
#[cfg(feature = "fault-injection")]
fn crt_fault_planted() -> bool {
    static PLANTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PLANTED.get_or_init(|| {
        std::env::var("PARCRYPT_FAULT").is_ok_and(|v| v.split(',').any(|f| f.trim() == CRT_FAULT))
    })
}

/// Whether [`CRT_FAULT`] is planted: never without the `fault-injection` feature.
#[cfg(not(feature = "fault-injection"))]
fn crt_fault_planted() -> bool {
    false
}

/// One prime of the CRT with what its residue and its Garner step need.
#[derive(Clone)]
struct CrtPrime {
    arith: ModArith,
    /// secret: d_i, at the prime's limb count, read over its bit length.
    exp: Limbs,
    /// secret: r_i − 2, the exponent of the inverse by Fermat (the blinding's r⁻¹).
    fermat: Limbs,
    /// secret: the Garner coefficient t_i in [`ModArith::prepare`]'s form; empty for the first
    /// prime.
    coef: Limbs,
    /// secret: the product of the primes before this one, as limbs; empty for the first.
    prefix: Limbs,
}

/// secret: the blinding pair, r^e and r⁻¹ mod n in [`ModArith::prepare`]'s form, and how many
/// more uses it has.
struct BlindState {
    a: Limbs,
    ai: Limbs,
    left: u32,
}

/// Which exponent the residues are raised to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Power {
    /// d_i: the private-key operation.
    Private,
    /// r_i − 2: the inverse, by Fermat.
    Inverse,
}

/// A prime's exponent for `power`.
fn exponent_of(p: &CrtPrime, power: Power) -> &[u64] {
    match power {
        Power::Private => &p.exp,
        Power::Inverse => &p.fermat,
    }
}

/// A prime as the multi-buffer kernel reads it: its limbs, its bit length (public) and its
/// exponent d_i.
pub(crate) type PrimeView<'a> = (&'a [u64], u32, &'a [u64]);

/// The constant-time CRT of one key on one kernel (see the module docs).
pub struct CtCrt {
    kernel: PrivateKernel,
    /// The modulus n (public), for the blinding, the unblinding and the fault check.
    n: ModArith,
    /// The public exponent (public).
    e: u64,
    /// The primes in Garner's order.
    primes: Vec<CrtPrime>,
    blinding: Mutex<Option<BlindState>>,
}

impl Clone for CtCrt {
    /// A copy of the prepared values with a blinding of its own (drawn on first use).
    fn clone(&self) -> Self {
        CtCrt {
            kernel: self.kernel,
            n: self.n.clone(),
            e: self.e,
            primes: self.primes.clone(),
            blinding: Mutex::new(None),
        }
    }
}

impl std::fmt::Debug for CtCrt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CtCrt({} primes, {})",
            self.primes.len(),
            self.backend_name()
        )
    }
}

impl CtCrt {
    /// The CRT of a key (modulus `n` as limbs, public exponent `e`, its checked `secrets`) on
    /// `kernel`: an error if this CPU lacks the kernel's backend or a prime is too large for
    /// it.
    pub(crate) fn new(
        n: &[u64],
        e: u64,
        secrets: &KeySecrets,
        kernel: PrivateKernel,
    ) -> Result<Self> {
        let n_arith = ModArith::for_modulus(n, select::public_bits(n), kernel)?;
        let mut primes = Vec::with_capacity(secrets.prime_count());
        let mut prefix: Limbs = Zeroizing::new(Vec::new());
        for (k, &i) in garner_order(secrets.prime_count()).iter().enumerate() {
            let (r, bits) = (secrets.prime(i), secrets.prime_bits(i));
            let arith = ModArith::for_prime(r, bits, kernel)?;
            let mut fermat = Zeroizing::new(r.to_vec());
            select::sub_masked(&mut fermat, &[2], u64::MAX);
            let (coef, pre) = if k == 0 {
                (Zeroizing::new(Vec::new()), Zeroizing::new(Vec::new()))
            } else {
                (arith.prepare(secrets.coefficient(i)), prefix.clone())
            };
            prefix = if k == 0 {
                Zeroizing::new(r.to_vec())
            } else {
                let mut p = Zeroizing::new(vec![0u64; prefix.len() + r.len()]);
                portable::mul_wide(&mut p, &prefix, r);
                p
            };
            // Secret for the secret-flow check (no-ops outside Valgrind): the prime, d_i, its
            // Fermat exponent, t_i in the arithmetic's form and the product of the primes
            // before it.
            for part in [arith.m(), secrets.exponent(i), &fermat, &coef, &pre] {
                secret_flow::classify_limbs(part);
            }
            primes.push(CrtPrime {
                arith,
                exp: Zeroizing::new(secrets.exponent(i).to_vec()),
                fermat,
                coef,
                prefix: pre,
            });
        }
        Ok(CtCrt {
            kernel,
            n: n_arith,
            e,
            primes,
            blinding: Mutex::new(None),
        })
    }

    /// The kernel this CRT runs.
    pub fn kernel(&self) -> PrivateKernel {
        self.kernel
    }

    /// The Montgomery backend of the residues (of the largest prime, when `auto` chose
    /// different ones), `None` for `gmp-sec`.
    pub fn backend(&self) -> Option<Backend> {
        let largest = self.primes.iter().max_by_key(|p| p.arith.bits())?;
        largest.arith.backend()
    }

    /// What ran the residues, for records: the backend's name or `gmp-sec`.
    pub fn backend_name(&self) -> &'static str {
        self.backend()
            .map_or(PrivateKernel::GmpSec.name(), Backend::name)
    }

    /// Limbs of values mod n.
    pub fn limbs(&self) -> usize {
        self.n.limbs()
    }

    /// Every residue c^(x_i) mod r_i, in Garner's order (one prime per pool thread if
    /// `parallel`, else two primes of one size at a time through one dual kernel call).
    fn residues(&self, c: &[u64], power: Power, parallel: bool) -> Vec<Limbs> {
        let residue_in = |p: &CrtPrime| {
            // secret: c mod r_i, and below, the residue c^(d_i) mod r_i.
            let mut x = Zeroizing::new(vec![0u64; p.arith.limbs()]);
            p.arith.reduce(&mut x, c);
            x
        };
        let single = |p: &CrtPrime| {
            let x = residue_in(p);
            let mut out = Zeroizing::new(vec![0u64; p.arith.limbs()]);
            p.arith
                .pow(&mut out, &x, exponent_of(p, power), p.arith.bits());
            out
        };
        if parallel {
            let all =
                crate::parallel::pool::team(self.primes.len(), false, |i| single(&self.primes[i]));
            all.iter().for_each(|r| secret_flow::classify_limbs(r));
            return all;
        }
        let mut all = Vec::with_capacity(self.primes.len());
        for pair in self.primes.chunks(2) {
            match pair {
                [a, b] if a.arith.ct().is_some() && b.arith.ct().is_some() => {
                    let (ca, cb) = (a.arith.ct().expect("kernel"), b.arith.ct().expect("kernel"));
                    let (xa, xb) = (residue_in(a), residue_in(b));
                    let mut oa = Zeroizing::new(vec![0u64; ca.limbs()]);
                    let mut ob = Zeroizing::new(vec![0u64; cb.limbs()]);
                    ct::pow_pair(
                        [ca, cb],
                        [&mut oa, &mut ob],
                        [&xa, &xb],
                        [exponent_of(a, power), exponent_of(b, power)],
                        ca.bits().max(cb.bits()),
                    );
                    all.push(oa);
                    all.push(ob);
                }
                _ => all.extend(pair.iter().map(single)),
            }
        }
        all.iter().for_each(|r| secret_flow::classify_limbs(r));
        all
    }

    /// Garner's recombination of the residues (see the module docs), n's limb count.
    fn recombine(&self, residues: &[Limbs]) -> Limbs {
        let n = self.limbs();
        // secret: the recombined result (before unblinding).
        let mut m = Zeroizing::new(vec![0u64; n]);
        m[..residues[0].len()].copy_from_slice(&residues[0]);
        for (p, mi) in self.primes.iter().zip(residues).skip(1) {
            let limbs = p.arith.limbs();
            let mut h = Zeroizing::new(vec![0u64; limbs]);
            p.arith.reduce(&mut h, &m);
            // h = (m_i − m) mod r_i, then h·t_i mod r_i.
            let mut diff = Zeroizing::new(mi.to_vec());
            select::sub_mod(&mut diff, &h, p.arith.m());
            p.arith.mul_prepared(&mut h, &diff, &p.coef);
            // m += R·h, below r_1···r_i <= n.
            let mut prod = Zeroizing::new(vec![0u64; p.prefix.len() + limbs]);
            portable::mul_wide(&mut prod, &p.prefix, &h);
            let take = prod.len().min(n);
            portable::add_in(&mut m, &prod[..take]);
        }
        m
    }

    /// c^d mod n for `c < n` given as [`CtCrt::limbs`] limbs, with no fault check: every
    /// residue, then the recombination. For measuring what the check costs; a decryption goes
    /// through [`CtCrt::private_op`]. Not public: a faulty result gives away a prime.
    pub(crate) fn private_op_unchecked(&self, c: &[u64], parallel: bool) -> Limbs {
        self.private_op_with(c, parallel, false)
    }

    /// The private-key operation, with one bit of one CRT half flipped if `fault` (the
    /// test-only fault).
    fn private_op_with(&self, c: &[u64], parallel: bool, fault: bool) -> Limbs {
        assert_eq!(c.len(), self.limbs(), "c has n's limb count");
        let mut residues = self.residues(c, Power::Private, parallel);
        if fault {
            residues[1][0] ^= 1;
        }
        self.recombine(&residues)
    }

    /// c^d mod n for `c < n` ([`CtCrt::limbs`] limbs), checked before it is returned: the
    /// result raised to e must give c again ([`Error::DecryptionError`] otherwise; the faulty
    /// value is wiped, never returned).
    pub fn private_op(&self, c: &[u64], parallel: bool) -> Result<Limbs> {
        let m = self.private_op_with(c, parallel, crt_fault_planted());
        self.check(&m, c)?;
        Ok(m)
    }

    /// [`CtCrt::private_op`] with the fault of [`CRT_FAULT`] planted or not, for tests.
    #[cfg(test)]
    pub(crate) fn private_op_faulty(&self, c: &[u64], parallel: bool) -> Result<Limbs> {
        let m = self.private_op_with(c, parallel, true);
        self.check(&m, c)?;
        Ok(m)
    }

    /// The fault check: `m^e mod n` against `c`, compared by a mask.
    fn check(&self, m: &[u64], c: &[u64]) -> Result<()> {
        let mut y = Zeroizing::new(vec![0u64; self.limbs()]);
        self.n.pow_public(&mut y, m, self.e);
        // public: one outcome, the result is right or a fault happened.
        if secret_flow::declassify_value(select::eq_limbs_mask(&y, c)) != u64::MAX {
            return Err(Error::DecryptionError);
        }
        Ok(())
    }

    /// [`CtCrt::private_op`] on an integer `c < n`, the result as an integer.
    pub fn private_op_integer(&self, c: &Integer, parallel: bool) -> Result<Integer> {
        let cl = Zeroizing::new(mpn::padded(c, self.limbs()));
        Ok(mpn::to_integer(&self.private_op(&cl, parallel)?))
    }

    /// **Unchecked**: [`CtCrt::private_op_integer`] without the fault check, only for
    /// measuring what the check costs (`bench rsa-private --methods crt-nocheck`). A glitch
    /// in it returns a wrong value that gives away a prime (gcd(m^e − c, n)); never decrypt
    /// with it. Hidden from the docs, out of the safe path.
    #[doc(hidden)]
    pub fn private_op_integer_unchecked(&self, c: &Integer, parallel: bool) -> Integer {
        let cl = Zeroizing::new(mpn::padded(c, self.limbs()));
        mpn::to_integer(&self.private_op_unchecked(&cl, parallel))
    }

    /// The blinded private-key operation for `c < n` ([`CtCrt::limbs`] limbs): c·r^e, the
    /// checked [`CtCrt::private_op`], then the product by r⁻¹ (see the module docs). The
    /// result is m = c^d mod n at n's limb count; `rng` draws r when a fresh one is due.
    pub fn decrypt_blinded<R: RngCore + ?Sized>(
        &self,
        c: &[u64],
        parallel: bool,
        rng: &mut R,
    ) -> Result<Limbs> {
        assert_eq!(c.len(), self.limbs(), "c has n's limb count");
        // secret: the blinding pair, and the blinded ciphertext.
        let (a, ai) = self.blinding_pair(rng);
        let mut blinded = Zeroizing::new(vec![0u64; self.limbs()]);
        self.n.mul_prepared(&mut blinded, c, &a);
        let m = self.private_op(&blinded, parallel)?;
        // secret: the unblinded result.
        let mut out = Zeroizing::new(vec![0u64; self.limbs()]);
        self.n.mul_prepared(&mut out, &m, &ai);
        secret_flow::classify_limbs(&out);
        Ok(out)
    }

    /// The blinding pair for one use: the cached one squared, or a fresh one when none is
    /// cached or its uses are spent.
    fn blinding_pair<R: RngCore + ?Sized>(&self, rng: &mut R) -> (Limbs, Limbs) {
        let mut state = self.blinding.lock().unwrap_or_else(|p| p.into_inner());
        match state.as_mut() {
            Some(s) if s.left > 0 => {
                let mut sq = Zeroizing::new(vec![0u64; self.limbs()]);
                self.n.mul_prepared(&mut sq, &s.a, &s.a);
                s.a.copy_from_slice(&sq);
                self.n.mul_prepared(&mut sq, &s.ai, &s.ai);
                s.ai.copy_from_slice(&sq);
                s.left -= 1;
                (s.a.clone(), s.ai.clone())
            }
            _ => {
                let (a, ai) = self.fresh_pair(rng);
                let pair = (a.clone(), ai.clone());
                *state = Some(BlindState {
                    a,
                    ai,
                    left: BLINDING_USES - 1,
                });
                pair
            }
        }
    }

    /// A fresh pair from a uniform r in [1, n): r^e on n's kernel, r⁻¹ by Fermat on each prime
    /// and the recombination, both in [`ModArith::prepare`]'s form.
    fn fresh_pair<R: RngCore + ?Sized>(&self, rng: &mut R) -> (Limbs, Limbs) {
        let len = self.limbs();
        let bits = self.n.bits();
        loop {
            // secret: the blinding factor r.
            let mut bytes = Zeroizing::new(vec![0u8; bits.div_ceil(8) as usize]);
            rng.fill_bytes(&mut bytes);
            bytes[0] &= 0xff >> (8 * bytes.len() as u32 - bits);
            let mut r = Zeroizing::new(vec![0u64; len]);
            select::be_bytes_to_limbs(&bytes, &mut r);
            secret_flow::classify_limbs(&r);
            // public: whether the candidate is in [1, n); a rejected one is dropped.
            let in_range = select::lt_limbs_mask(&r, self.n.m()) & !select::is_zero_mask(&r);
            if secret_flow::declassify_value(in_range) != u64::MAX {
                continue;
            }
            let mut a = Zeroizing::new(vec![0u64; len]);
            self.n.pow_public(&mut a, &r, self.e);
            let ai = self.recombine(&self.residues(&r, Power::Inverse, false));
            // public: whether r was invertible (it is unless it shares a prime with n, a chance
            // of about 1 in the smallest prime); a failed r is dropped.
            let one = self.n.mul_mod(&r, &ai);
            if secret_flow::declassify_value(select::eq_limbs_mask(&one, &[1])) != u64::MAX {
                continue;
            }
            return (self.n.prepare(&a), self.n.prepare(&ai));
        }
    }

    /// The two primes in Garner's order (q, p) as the multi-buffer kernel takes them: each
    /// prime's limbs, bit length (public) and d_i; `None` for a key of more than two primes.
    pub(crate) fn two_primes(&self) -> Option<[PrimeView<'_>; 2]> {
        match &self.primes[..] {
            [a, b] => Some([a, b].map(|p| (p.arith.m(), p.arith.bits(), &p.exp[..]))),
            _ => None,
        }
    }

    /// `out = x mod r_i` for the prime `i` of [`CtCrt::two_primes`]'s order.
    pub(crate) fn reduce_to_prime(&self, i: usize, out: &mut [u64], x: &[u64]) {
        self.primes[i].arith.reduce(out, x);
    }

    /// The blinding of one use: c·r^e mod n and r⁻¹ in [`ModArith::prepare`]'s form (the pair
    /// drawn or squared as [`CtCrt::decrypt_blinded`] does).
    pub(crate) fn blind<R: RngCore + ?Sized>(&self, c: &[u64], rng: &mut R) -> (Limbs, Limbs) {
        assert_eq!(c.len(), self.limbs(), "c has n's limb count");
        // secret: the blinding pair, and the blinded ciphertext.
        let (a, ai) = self.blinding_pair(rng);
        let mut blinded = Zeroizing::new(vec![0u64; self.limbs()]);
        self.n.mul_prepared(&mut blinded, c, &a);
        (blinded, ai)
    }

    /// The end of a private-key operation whose residues (Garner's order) another kernel
    /// computed for `c`: the recombination and the fault check ([`CRT_FAULT`] planted as in
    /// [`CtCrt::private_op`], or by `fault`), the result or [`Error::DecryptionError`].
    pub(crate) fn finish_residues(
        &self,
        mut residues: Vec<Limbs>,
        c: &[u64],
        fault: bool,
    ) -> Result<Limbs> {
        residues.iter().for_each(|r| secret_flow::classify_limbs(r));
        if fault || crt_fault_planted() {
            residues[1][0] ^= 1;
        }
        let m = self.recombine(&residues);
        self.check(&m, c)?;
        Ok(m)
    }

    /// The unblinding of [`CtCrt::blind`]'s pair: m·r⁻¹ mod n.
    pub(crate) fn unblind_prepared(&self, m: &[u64], ai: &[u64]) -> Limbs {
        // secret: the unblinded result.
        let mut out = Zeroizing::new(vec![0u64; self.limbs()]);
        self.n.mul_prepared(&mut out, m, ai);
        secret_flow::classify_limbs(&out);
        out
    }

    /// m·r⁻¹ mod n, fully reduced, for `m < n` and `r_inv < n` (both n's limb count): the
    /// unblinding's product.
    pub fn unblind(&self, m: &[u64], r_inv: &[u64]) -> Limbs {
        self.n.mul_mod(m, r_inv)
    }
}

/// A key's choice of kernel and its prepared [`CtCrt`], built on first use (cloned keys share
/// it).
#[derive(Clone, Default)]
pub struct CtCache {
    kernel: PrivateKernel,
    ready: OnceLock<Arc<CtCrt>>,
}

impl std::fmt::Debug for CtCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CtCache({})", self.kernel)
    }
}

impl CtCache {
    /// The kernel in use.
    pub fn kernel(&self) -> PrivateKernel {
        self.kernel
    }

    /// Chooses `kernel` for the key (modulus `n` as limbs, public exponent `e`, secrets
    /// `secrets`) and prepares it now, so that an unavailable backend, or a prime too large
    /// for the one asked for, is an error here rather than at decryption.
    pub(crate) fn set(
        &mut self,
        kernel: PrivateKernel,
        n: &[u64],
        e: u64,
        secrets: &KeySecrets,
    ) -> Result<()> {
        let crt = CtCrt::new(n, e, secrets, kernel)?;
        let ready = OnceLock::new();
        let _ = ready.set(Arc::new(crt));
        *self = CtCache { kernel, ready };
        Ok(())
    }

    /// The prepared CRT, built on first use with the kernel chosen (`auto` unless
    /// [`CtCache::set`] chose another and built it then).
    pub(crate) fn get_or_build(&self, n: &[u64], e: u64, secrets: &KeySecrets) -> &CtCrt {
        self.ready.get_or_init(|| {
            // `auto` takes every valid key: a backend per modulus that takes its size, the
            // portable one for any size up to 16384 bits.
            Arc::new(CtCrt::new(n, e, secrets, self.kernel).expect("auto takes every valid key"))
        })
    }
}

#[cfg(test)]
mod tests;
