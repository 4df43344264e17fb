//! The kernel of the constant-time private-key operation: what computes each modular step of
//! [`CtCrt`](crate::hazmat::crt::CtCrt) on one modulus (a prime of the key, or n). The CRT engine and
//! the key's cache of it are in [`crate::hazmat::crt`], which builds on this module (never the other
//! way).
//!
//! [`PrivateKernel`] picks it: one of the constant-time Montgomery kernels of
//! [`crate::hazmat::bignum::ct`] (`auto` = the best this CPU runs, chosen per modulus, so a key whose
//! primes differ in size gets, for each, a backend that takes it), or GMP's `mpn_sec_*`
//! functions (`gmp-sec`: `mpn_sec_powm` for the exponentiations, `mpn_sec_div_r` and
//! `mpn_sec_mul` for the reductions and products around them). The Montgomery kernels are
//! constant time from the ciphertext to the result: no operation of `ModArith` on them depends
//! on a value. GMP's are constant time in the exponent and the operands but **not in the
//! modulus**: `mpn_sec_div_r` and `mpn_sec_powm` look up a limb inverse in a table indexed by the
//! modulus' top or bottom bits, which the secret-flow check (`scripts/secret-flow.sh report`)
//! flags when the modulus is a secret prime. `gmp-sec` stays selectable for comparison.
//!
//! The modulus n itself (the blinding, the unblinding, the fault check) runs on the chosen
//! backend where it takes n's size, else on the best backend that does (the IFMA kernel takes
//! up to [`crate::hazmat::bignum::ct::IFMA_MAX_BITS`] bits; n of a 16384-bit key goes to MULX).
use super::secrets::Limbs;
use crate::bignum::ct::{Backend, CtModulus, select};
use crate::bignum::sec;
use crate::error::Result;
use zeroize::Zeroizing;

/// What computes the constant-time private-key operation.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum PrivateKernel {
    /// The best constant-time Montgomery kernel this CPU runs for each modulus
    /// ([`Backend::best_for`]).
    #[default]
    Auto,
    /// AVX-512 IFMA, radix 2^52.
    Ifma,
    /// x86-64 MULX/ADX, 64-bit limbs.
    Mulx,
    /// Portable Rust.
    Portable,
    /// GMP's `mpn_sec_*` functions: `mpn_sec_powm` on each residue, `mpn_sec_div_r` and
    /// `mpn_sec_mul` for the reductions and products around it. **Variable time in the prime**
    /// (table lookups indexed by its bits; see the module docs).
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

    /// The Montgomery backend this kernel runs for a modulus of `bits` bits (`None` for
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

/// The constant-time modular arithmetic of one modulus m (a secret prime, or n): a Montgomery
/// kernel, or GMP's `mpn_sec_*` functions. Every operation works on m's limb count and takes
/// the same time whatever the values.
#[derive(Clone)]
pub(crate) enum ModArith {
    /// A Montgomery backend ([`CtModulus`]): exponentiations on its kernel, reductions and
    /// products on its radix-2^64 arithmetic ([`crate::hazmat::bignum::ct::Mont64`]).
    Kernel(CtModulus),
    /// GMP's `mpn_sec_powm`, `mpn_sec_div_r` and `mpn_sec_mul` ([`crate::hazmat::bignum::sec`]).
    Sec {
        /// m at ⌈bits/64⌉ limbs.
        m: Limbs,
        /// m's bit length (public).
        bits: u32,
    },
}

impl ModArith {
    /// The arithmetic of a prime `m` of `bits` bits on `kernel` (its backend for that size).
    pub fn for_prime(m: &[u64], bits: u32, kernel: PrivateKernel) -> Result<Self> {
        match kernel.backend(bits) {
            None => Ok(ModArith::Sec {
                m: Zeroizing::new(m.to_vec()),
                bits,
            }),
            Some(backend) => Ok(ModArith::Kernel(CtModulus::from_limbs(m, bits, backend)?)),
        }
    }

    /// The arithmetic of the modulus n on `kernel`: its backend when it takes n's size, else
    /// the best backend that does (see the module docs).
    pub fn for_modulus(n: &[u64], bits: u32, kernel: PrivateKernel) -> Result<Self> {
        let backend = match kernel.backend(bits) {
            None => return Self::for_prime(n, bits, kernel),
            Some(b) if b.supports_bits(bits) => b,
            Some(_) => Backend::best_for(bits),
        };
        Ok(ModArith::Kernel(CtModulus::from_limbs(n, bits, backend)?))
    }

    /// The Montgomery backend, `None` for GMP's functions.
    pub fn backend(&self) -> Option<Backend> {
        match self {
            ModArith::Kernel(ctx) => Some(ctx.backend()),
            ModArith::Sec { .. } => None,
        }
    }

    /// The Montgomery context (for a dual call of the IFMA kernel), `None` for GMP's.
    pub fn ct(&self) -> Option<&CtModulus> {
        match self {
            ModArith::Kernel(ctx) => Some(ctx),
            ModArith::Sec { .. } => None,
        }
    }

    /// m's limbs.
    pub fn m(&self) -> &[u64] {
        match self {
            ModArith::Kernel(ctx) => ctx.arith().m(),
            ModArith::Sec { m, .. } => m,
        }
    }

    /// m's limb count.
    pub fn limbs(&self) -> usize {
        self.m().len()
    }

    /// m's bit length.
    pub fn bits(&self) -> u32 {
        match self {
            ModArith::Kernel(ctx) => ctx.bits(),
            ModArith::Sec { bits, .. } => *bits,
        }
    }

    /// `out = x mod m` for a value `x` of any fixed length.
    pub fn reduce(&self, out: &mut [u64], x: &[u64]) {
        match self {
            ModArith::Kernel(ctx) => ctx.arith().reduce(out, x),
            ModArith::Sec { m, .. } => out.copy_from_slice(&sec::rem(x, m)),
        }
    }

    /// `out = base^exp mod m` for `base < m` and a secret `exp` read over `ebits` bits (its
    /// limbs: m's limb count).
    pub fn pow(&self, out: &mut [u64], base: &[u64], exp: &[u64], ebits: u32) {
        match self {
            ModArith::Kernel(ctx) => ctx.pow_limbs(out, base, exp, ebits),
            ModArith::Sec { m, .. } => {
                let el = ebits.div_ceil(64) as usize;
                sec::powm(out, base, &exp[..el], ebits, m);
            }
        }
    }

    /// `out = base^e mod m` for `base < m` and the public exponent `e`.
    pub fn pow_public(&self, out: &mut [u64], base: &[u64], e: u64) {
        match self {
            ModArith::Kernel(ctx) => ctx.pow_public_limbs(out, base, e),
            ModArith::Sec { m, .. } => {
                let ebits = (64 - e.leading_zeros()).max(1);
                sec::powm(out, base, &[e], ebits, m);
            }
        }
    }

    /// A factor `t < m` in the form [`ModArith::mul_prepared`] takes: t·R mod m for a
    /// Montgomery kernel (so that one product gives a·t), `t` itself for GMP's.
    pub fn prepare(&self, t: &[u64]) -> Limbs {
        let mut out = Zeroizing::new(vec![0u64; self.limbs()]);
        match self {
            ModArith::Kernel(ctx) => {
                ctx.arith().mul(&mut out, t, ctx.arith().rr());
                select::reduce_once(&mut out, ctx.arith().m());
            }
            ModArith::Sec { .. } => out.copy_from_slice(t),
        }
        out
    }

    /// `out = a·t mod m`, fully reduced, for `a < m` and a factor `f` from
    /// [`ModArith::prepare`] of `t < m`. Two prepared factors multiply to the prepared product.
    pub fn mul_prepared(&self, out: &mut [u64], a: &[u64], f: &[u64]) {
        match self {
            ModArith::Kernel(ctx) => {
                ctx.arith().mul(out, a, f);
                select::reduce_once(out, ctx.arith().m());
            }
            ModArith::Sec { m, .. } => {
                let mut wide = Zeroizing::new(vec![0u64; a.len() + f.len()]);
                sec::mul(&mut wide, a, f);
                out.copy_from_slice(&sec::rem(&wide, m));
            }
        }
    }

    /// `a·b mod m`, fully reduced, for `a, b < m`.
    pub fn mul_mod(&self, a: &[u64], b: &[u64]) -> Limbs {
        let f = self.prepare(b);
        let mut out = Zeroizing::new(vec![0u64; self.limbs()]);
        self.mul_prepared(&mut out, a, &f);
        out
    }
}
