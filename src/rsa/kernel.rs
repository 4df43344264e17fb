//! The kernel of the constant-time private-key operation, and the CRT over every prime done
//! in constant time from the (blinded) ciphertext to the unblinded result.
//!
//! [`PrivateKernel`] picks what computes each residue c^(d_i) mod r_i: one of the
//! constant-time Montgomery kernels of [`crate::bignum::ct`] (`auto` = the best this CPU
//! runs), or GMP's `mpz_powm_sec` (`gmp-sec`, the previous default, kept for comparison).
//!
//! With a Montgomery kernel, [`CtCrt`] does every step on fixed-length limbs and with no
//! branch or memory index that depends on a secret:
//! - c mod r_i by Montgomery reduction ([`Mont64::reduce`]), not by a division;
//! - the residues by the fixed-window exponentiation, over each prime's bit length; two primes
//!   of one size run interleaved on the IFMA kernel, or one per pool thread when parallel;
//! - Garner's recombination in the ascending form m = m_1, m += R·((m_i − m)·t_i mod r_i) with
//!   R = r_1···r_(i−1): a masked modular subtraction, a Montgomery product by t_i (held as
//!   t_i·R mod r_i, so the product gives (m_i − m)·t_i directly) and a schoolbook product of
//!   fixed length;
//! - the unblinding m·r⁻¹ mod n as one Montgomery product by r⁻¹·R mod n and a masked
//!   subtraction ([`CtCrt::unblind`]).
//!
//! The per-key preparation (R² modulo each prime by doubling, the exponents and coefficients
//! as limbs) runs once per key and kernel and is cached in the key.
use crate::bignum::ct::{self, Backend, CtModulus, Mont64, portable, secret_flow, select};
use crate::bignum::mpn;
use crate::error::{Error, Result};
use rug::Integer;
use std::sync::{Arc, OnceLock};
use zeroize::Zeroizing;

/// What computes the private-key residues of the constant-time CRT forms.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum PrivateKernel {
    /// The best constant-time Montgomery kernel this CPU runs ([`Backend::best_for`]).
    #[default]
    Auto,
    /// AVX-512 IFMA, radix 2^52.
    Ifma,
    /// x86-64 MULX/ADX, 64-bit limbs.
    Mulx,
    /// Portable Rust.
    Portable,
    /// GMP's `mpz_powm_sec` on each residue, with GMP's reduction, recombination and
    /// unblinding (constant-time exponentiation only).
    GmpSec,
}

impl PrivateKernel {
    /// Every kernel, in the order of the command line's list.
    pub const ALL: [PrivateKernel; 5] = [
        PrivateKernel::Auto,
        PrivateKernel::Ifma,
        PrivateKernel::Mulx,
        PrivateKernel::Portable,
        PrivateKernel::GmpSec,
    ];

    /// The name on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            PrivateKernel::Auto => "auto",
            PrivateKernel::Ifma => "ifma",
            PrivateKernel::Mulx => "mulx",
            PrivateKernel::Portable => "portable",
            PrivateKernel::GmpSec => "gmp-sec",
        }
    }

    /// The kernel called `name`.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Why this machine cannot run the kernel (`None` when it can): the backend's
    /// [`Backend::unavailable_reason`], as a sentence naming the kernel.
    pub fn unavailable_reason(self) -> Option<String> {
        let why = self.backend(1024)?.unavailable_reason()?;
        Some(format!("the {self} kernel cannot run here: {why}"))
    }

    /// The Montgomery backend this kernel runs for primes of at most `bits` bits (`None` for
    /// `gmp-sec`).
    pub fn backend(self, bits: u32) -> Option<Backend> {
        match self {
            PrivateKernel::Auto => Some(Backend::best_for(bits)),
            PrivateKernel::Ifma => Some(Backend::Ifma),
            PrivateKernel::Mulx => Some(Backend::Mulx),
            PrivateKernel::Portable => Some(Backend::Portable),
            PrivateKernel::GmpSec => None,
        }
    }
}

impl std::fmt::Display for PrivateKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One prime of the CRT with what its residue and its Garner step need.
#[derive(Clone)]
struct CrtPrime {
    ctx: CtModulus,
    /// d_i as limbs, read over the prime's bit length.
    exp: Zeroizing<Vec<u64>>,
    /// t_i·R mod r_i (Montgomery form of the Garner coefficient); empty for the first prime.
    coef: Zeroizing<Vec<u64>>,
    /// r_1···r_(i−1) as limbs; empty for the first prime.
    prefix: Zeroizing<Vec<u64>>,
}

/// The constant-time CRT of one key on one Montgomery backend (see the module docs).
#[derive(Clone)]
pub struct CtCrt {
    backend: Backend,
    n: Mont64,
    primes: Vec<CrtPrime>,
}

impl std::fmt::Debug for CtCrt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CtCrt({} primes, {})", self.primes.len(), self.backend)
    }
}

impl CtCrt {
    /// The CRT of the primes `primes` (in Garner's ascending order r_1, r_2, …) with their
    /// exponents d_i and the coefficients t_i = (r_1···r_(i−1))⁻¹ mod r_i of r_2, r_3, …
    /// (one fewer than the primes), modulus `n`, on `backend` (checked against the CPU and
    /// the sizes).
    pub fn new(
        n: &Integer,
        primes: &[&Integer],
        exponents: &[&Integer],
        coefficients: &[&Integer],
        backend: Backend,
    ) -> Result<Self> {
        assert!(
            primes.len() >= 2
                && primes.len() == exponents.len()
                && primes.len() == coefficients.len() + 1,
            "a CRT has two primes or more, each with its exponent and coefficient"
        );
        let n_limbs = n.significant_bits().div_ceil(64) as usize;
        let n64 = Mont64::new(&mpn::padded(n, n_limbs)).ok_or_else(|| {
            Error::InvalidKey(format!(
                "the constant-time kernel takes moduli up to {} bits",
                64 * portable::MAX_LIMBS
            ))
        })?;
        let mut out = Vec::with_capacity(primes.len());
        let mut prefix = Integer::from(1);
        for (i, (&r, &d)) in primes.iter().zip(exponents).enumerate() {
            let ctx = CtModulus::new(r, backend)?;
            let limbs = ctx.limbs();
            let exp = Zeroizing::new(mpn::padded(d, limbs));
            let (coef, pre) = if i == 0 {
                (Zeroizing::new(Vec::new()), Zeroizing::new(Vec::new()))
            } else {
                let t = coefficients[i - 1];
                // t_i·R mod r_i = Montgomery product of t_i and R² mod r_i.
                let tl = ctx.reduce_integer(t);
                let mut c = Zeroizing::new(vec![0u64; limbs]);
                ctx.arith().mul(&mut c, &tl, ctx.arith().rr());
                select::reduce_once(&mut c, ctx.arith().m());
                let plen = prefix.significant_bits().div_ceil(64) as usize;
                (c, Zeroizing::new(mpn::padded(&prefix, plen)))
            };
            prefix *= r;
            // Secret for the secret-flow check (no-ops outside Valgrind): the prime, R² mod
            // it, d_i, t_i·R and the product of the primes before it.
            for part in [ctx.arith().m(), ctx.arith().rr(), &exp, &coef, &pre] {
                secret_flow::classify_limbs(part);
            }
            out.push(CrtPrime {
                ctx,
                exp,
                coef,
                prefix: pre,
            });
        }
        crate::bignum::secret::wipe_integer(&mut prefix);
        Ok(CtCrt {
            backend,
            n: n64,
            primes: out,
        })
    }

    /// The backend that runs the residues.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Limbs of values mod n.
    pub fn limbs(&self) -> usize {
        self.n.limbs()
    }

    /// The radix-2^64 arithmetic modulo n.
    pub fn n(&self) -> &Mont64 {
        &self.n
    }

    /// c^d mod n for `c < n` given as [`CtCrt::limbs`] limbs: every residue (one prime per
    /// pool thread if `parallel`), then Garner's recombination; fixed length, constant time.
    pub fn private_op(&self, c: &[u64], parallel: bool) -> Zeroizing<Vec<u64>> {
        assert_eq!(c.len(), self.limbs(), "c has n's limb count");
        let residue_in = |p: &CrtPrime| {
            let mut x = Zeroizing::new(vec![0u64; p.ctx.limbs()]);
            p.ctx.arith().reduce(&mut x, c);
            x
        };
        let single = |p: &CrtPrime| {
            let x = residue_in(p);
            let mut out = Zeroizing::new(vec![0u64; p.ctx.limbs()]);
            p.ctx.pow_limbs(&mut out, &x, &p.exp, p.ctx.bits());
            out
        };
        let residues: Vec<Zeroizing<Vec<u64>>> = if parallel {
            crate::parallel::pool::team(self.primes.len(), false, |i| single(&self.primes[i]))
        } else {
            // Primes in pairs through one dual call (interleaved where the kernel can).
            let mut all = Vec::with_capacity(self.primes.len());
            for pair in self.primes.chunks(2) {
                match pair {
                    [a, b] => {
                        let (xa, xb) = (residue_in(a), residue_in(b));
                        let mut oa = Zeroizing::new(vec![0u64; a.ctx.limbs()]);
                        let mut ob = Zeroizing::new(vec![0u64; b.ctx.limbs()]);
                        ct::pow_pair(
                            [&a.ctx, &b.ctx],
                            [&mut oa, &mut ob],
                            [&xa, &xb],
                            [&a.exp, &b.exp],
                            a.ctx.bits().max(b.ctx.bits()),
                        );
                        all.push(oa);
                        all.push(ob);
                    }
                    [a] => all.push(single(a)),
                    _ => unreachable!("chunks of two"),
                }
            }
            all
        };
        residues.iter().for_each(|r| secret_flow::classify_limbs(r));
        self.recombine(&residues)
    }

    /// [`CtCrt::private_op`] on an integer `c < n`, the result as an integer.
    pub fn private_op_integer(&self, c: &Integer, parallel: bool) -> Integer {
        let cl = Zeroizing::new(mpn::padded(c, self.limbs()));
        mpn::to_integer(&self.private_op(&cl, parallel))
    }

    /// Garner's recombination of the residues (see the module docs), n's limb count.
    fn recombine(&self, residues: &[Zeroizing<Vec<u64>>]) -> Zeroizing<Vec<u64>> {
        let n = self.limbs();
        let mut m = Zeroizing::new(vec![0u64; n]);
        m[..residues[0].len()].copy_from_slice(&residues[0]);
        for (p, mi) in self.primes.iter().zip(residues).skip(1) {
            let (arith, limbs) = (p.ctx.arith(), p.ctx.limbs());
            let mut h = Zeroizing::new(vec![0u64; limbs]);
            arith.reduce(&mut h, &m);
            // h = (m_i − m) mod r_i, then h·t_i mod r_i.
            let mut diff = Zeroizing::new(mi.to_vec());
            select::sub_mod(&mut diff, &h, arith.m());
            arith.mul(&mut h, &diff, &p.coef);
            select::reduce_once(&mut h, arith.m());
            // m += R·h, below r_1···r_i <= n.
            let mut prod = Zeroizing::new(vec![0u64; p.prefix.len() + limbs]);
            portable::mul_wide(&mut prod, &p.prefix, &h);
            let take = prod.len().min(n);
            portable::add_in(&mut m, &prod[..take]);
        }
        m
    }

    /// m·r⁻¹ mod n, fully reduced, for `m < n` and `r_inv < n` (both n's limb count): the
    /// unblinding, as Montgomery products (r⁻¹ into Montgomery form, then the product gives
    /// m·r⁻¹ directly) and a masked subtraction.
    pub fn unblind(&self, m: &[u64], r_inv: &[u64]) -> Zeroizing<Vec<u64>> {
        let len = self.limbs();
        let mut rm = Zeroizing::new(vec![0u64; len]);
        self.n.mul(&mut rm, r_inv, self.n.rr());
        let mut out = Zeroizing::new(vec![0u64; len]);
        self.n.mul(&mut out, m, &rm);
        select::reduce_once(&mut out, self.n.m());
        out
    }
}

/// A key's choice of kernel and its prepared [`CtCrt`], built on first use (cloned keys share
/// it).
#[derive(Clone, Default)]
pub struct CtCache {
    kernel: PrivateKernel,
    ready: OnceLock<Option<Arc<CtCrt>>>,
}

impl std::fmt::Debug for CtCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CtCache({})", self.kernel)
    }
}

/// The CRT parameters of a key in Garner's ascending order, for [`CtCache`].
pub struct CrtParts<'a> {
    /// The modulus.
    pub n: &'a Integer,
    /// r_1, r_2, …
    pub primes: Vec<&'a Integer>,
    /// d_i.
    pub exponents: Vec<&'a Integer>,
    /// t_i of r_2, r_3, … (one fewer than the primes).
    pub coefficients: Vec<&'a Integer>,
}

impl CtCache {
    /// The kernel in use.
    pub fn kernel(&self) -> PrivateKernel {
        self.kernel
    }

    /// Chooses `kernel` for this key and prepares it now, so that an unavailable backend is
    /// an error here rather than at decryption.
    pub fn set(&mut self, kernel: PrivateKernel, parts: &CrtParts<'_>) -> Result<()> {
        let ready = OnceLock::new();
        let built = Self::build(kernel, parts)?;
        ready.set(built).expect("fresh cell");
        *self = CtCache { kernel, ready };
        Ok(())
    }

    /// The prepared CRT, building it from `parts` on first use; `None` when the kernel is
    /// `gmp-sec` (or `auto` on a key larger than the Montgomery kernels take, where `auto`
    /// falls back to `gmp-sec`).
    pub fn get_or_build(&self, parts: &CrtParts<'_>) -> Option<&CtCrt> {
        self.ready
            .get_or_init(|| Self::build(self.kernel, parts).unwrap_or(None))
            .as_deref()
    }

    fn build(kernel: PrivateKernel, parts: &CrtParts<'_>) -> Result<Option<Arc<CtCrt>>> {
        let bits = parts
            .primes
            .iter()
            .map(|p| p.significant_bits())
            .max()
            .unwrap_or(0);
        let Some(backend) = kernel.backend(bits) else {
            return Ok(None);
        };
        match CtCrt::new(
            parts.n,
            &parts.primes,
            &parts.exponents,
            &parts.coefficients,
            backend,
        ) {
            Ok(crt) => Ok(Some(Arc::new(crt))),
            // `auto` never fails: a key the Montgomery kernels cannot take goes to GMP.
            Err(_) if kernel == PrivateKernel::Auto => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rsa::RsaPrivateKey;
    use crate::rsa::keys::DEFAULT_E;
    use crate::rsa::textbook::{self, PrivateOp};
    use rand::SeedableRng;

    /// The kernels this CPU runs; the others are named on stderr as skipped.
    fn kernels() -> Vec<PrivateKernel> {
        PrivateKernel::ALL
            .into_iter()
            .filter(|k| {
                let ok = k.backend(1024).is_none_or(|b| b.available());
                if !ok {
                    eprintln!("kernel {k} skipped: this CPU cannot run it");
                }
                ok
            })
            .collect()
    }

    fn check_key(key: &RsaPrivateKey, rng: &mut rand_chacha::ChaCha20Rng, what: &str) {
        let n = key.public().n();
        let k = key.public().size_bytes();
        for kernel in kernels() {
            let key = key.clone().with_kernel(kernel).unwrap();
            assert_eq!(key.kernel(), kernel);
            assert_eq!(key.ct_crt().is_some(), kernel != PrivateKernel::GmpSec);
            let ms = [
                Integer::new(),
                Integer::from(1),
                Integer::from(n - 1u32),
                crate::bignum::random_below(rng, n),
                crate::bignum::random_below(rng, &(Integer::from(1) << 200)),
            ];
            for m in ms {
                let c = textbook::encrypt(key.public(), &m).unwrap();
                for op in [PrivateOp::CrtConstTime, PrivateOp::CrtConstTimeParallel] {
                    let tag = format!("{what} {kernel} {op:?}");
                    assert_eq!(textbook::decrypt(&key, &c, op).unwrap(), m, "{tag}");
                    assert_eq!(
                        textbook::decrypt_blinded(&key, &c, op, rng).unwrap(),
                        m,
                        "{tag}"
                    );
                    let bytes = textbook::decrypt_blinded_bytes(&key, &c, op, rng).unwrap();
                    assert_eq!(bytes.len(), k);
                    assert_eq!(
                        *bytes,
                        crate::bignum::to_be_bytes_vartime(&m, k).unwrap(),
                        "{tag}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_kernel_decrypts_two_prime_keys_like_gmp() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(31);
        let e = Integer::from(DEFAULT_E);
        for bits in [512u32, 1024, 2048] {
            let key = RsaPrivateKey::generate(bits, &e, &mut rng).unwrap();
            check_key(&key, &mut rng, &format!("{bits} bits"));
        }
        // Unbalanced primes of different limb counts (a key read from a file may have them).
        let coprime = |p: &Integer| Integer::from(p - 1u32).gcd(&e) == 1;
        let p = crate::rsa::prime::random_prime_vartime(640, &mut rng, coprime);
        let q = crate::rsa::prime::random_prime_vartime(400, &mut rng, coprime);
        let key = RsaPrivateKey::from_primes(p, q, e.clone()).unwrap();
        check_key(&key, &mut rng, "unbalanced");
    }

    #[test]
    fn every_kernel_decrypts_multi_prime_keys_like_gmp() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(32);
        let e = Integer::from(DEFAULT_E);
        for (bits, primes) in [(1024u32, 3usize), (4096, 4)] {
            let key = RsaPrivateKey::generate_multi(bits, primes, &e, &mut rng).unwrap();
            check_key(&key, &mut rng, &format!("{bits} bits, {primes} primes"));
            // The multi-prime key on its own, every kernel, sequential and parallel.
            let multi = key.multi_prime().unwrap();
            let m = crate::bignum::random_below(&mut rng, multi.n());
            let c = multi.encrypt(&m);
            for kernel in kernels() {
                let mut mk = multi.clone();
                mk.set_kernel(kernel).unwrap();
                for parallel in [false, true] {
                    assert_eq!(mk.decrypt(&c, parallel, true), m, "{kernel} {parallel}");
                }
            }
        }
    }

    #[test]
    fn a_kernel_the_cpu_lacks_is_refused_when_chosen() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(33);
        let key = RsaPrivateKey::generate(512, &Integer::from(DEFAULT_E), &mut rng).unwrap();
        for kernel in PrivateKernel::ALL {
            assert_eq!(PrivateKernel::from_name(kernel.name()), Some(kernel));
            let ok = kernel.backend(256).is_none_or(|b| b.available());
            assert_eq!(key.clone().with_kernel(kernel).is_ok(), ok, "{kernel}");
        }
        assert_eq!(key.kernel(), PrivateKernel::Auto);
        assert_eq!(key.ct_crt().unwrap().backend(), Backend::best_for(256));
    }

    #[test]
    fn unblinding_is_a_product_by_the_inverse() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(34);
        let key = RsaPrivateKey::generate(1024, &Integer::from(DEFAULT_E), &mut rng).unwrap();
        let n = key.public().n();
        let crt = key.ct_crt().unwrap();
        for _ in 0..20 {
            let m = crate::bignum::random_below(&mut rng, n);
            let r = crate::bignum::random_below(&mut rng, n);
            let got = crt.unblind(&mpn::padded(&m, crt.limbs()), &mpn::padded(&r, crt.limbs()));
            assert_eq!(mpn::to_integer(&got), Integer::from(&m * &r) % n);
        }
    }
}
