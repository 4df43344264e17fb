//! Constant-time modular exponentiation for private-key operations: fixed-window Montgomery
//! exponentiation with a masked table read, on fixed-length limbs, with a kernel per CPU
//! chosen at run time.
//!
//! What is constant time here, and for what: for a given modulus size (public), the sequence
//! of instructions and memory addresses does not depend on the base, the exponent or the
//! modulus' value. Limb counts follow from the modulus' bit length, never from a value; the
//! exponent is read in windows of a fixed width over a fixed bit length (the caller's
//! `ebits`, the modulus' bit length for a CRT exponent), including its leading zero windows;
//! every window costs w squarings and one multiplication, also by the table's entry 0; the
//! table entry is read by [`select::select`], which touches every entry; Montgomery products
//! finish with a subtraction done by masking (or, in the IFMA kernel, with none: see below).
//!
//! Backends ([`Backend`]), chosen at run time with `is_x86_feature_detected!` (never by
//! compile-time flags), each proptested against GMP:
//! - **ifma** — AVX-512 IFMA, radix 2^52 (Gueron and Krasnov's almost-Montgomery product:
//!   inputs and outputs below 2m, R = 2^(52n) > 4m, so no subtraction between products),
//!   512-bit vectors, one modulus per call or two interleaved in one register set (the two CRT
//!   halves of one key, [`pow_pair`]); built with Rust 1.89 or newer (stable AVX-512
//!   intrinsics; an older compiler builds the crate without it and `auto` never picks it);
//! - **ifma-mb** (`ifma_mb.rs`, not a [`Backend`]: it takes eight operations at once) —
//!   AVX-512 IFMA, radix 2^52, eight independent exponentiations, one per 64-bit lane, each
//!   with its own modulus and exponent (multi-buffer, as Intel's crypto_mb); used by
//!   [`crate::hazmat::multibuffer`] for batches of private-key operations;
//! - **mulx** — x86-64 BMI2/ADX, 64-bit limbs, CIOS unrolled for the common limb counts;
//! - **portable** — the same CIOS in plain Rust with `u128` products (any CPU).
//!
//! [`portable::Mont64`] is also the radix-2^64 arithmetic every backend uses around the
//! exponentiation (reduction of the ciphertext modulo a prime, CRT recombination, unblinding),
//! so those steps are constant time too. Every buffer that holds a value derived from a secret
//! (exponent limbs, the table, accumulators) is wiped when dropped.
use crate::bignum::SecretInteger;
use crate::error::{Error, Result};
use rug::Integer;
use zeroize::Zeroizing;

pub mod choice;
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
pub mod emulated;
pub(crate) mod exp;
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
mod ifma;
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
pub mod ifma_mb;
#[cfg(target_arch = "x86_64")]
mod mulx;
pub mod portable;
pub mod secret_flow;
pub mod select;
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
mod simd;
#[cfg(test)]
mod tests;
#[cfg(all(test, target_arch = "x86_64", parcrypt_avx512))]
mod tests_mb;

use exp::Exp;
pub use portable::Mont64;

/// A kernel of the constant-time exponentiation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Backend {
    /// AVX-512 IFMA (`avx512ifma`, `avx512f`, `avx512vl`): radix 2^52, 512-bit vectors.
    Ifma,
    /// x86-64 BMI2 and ADX (`mulx`, `adcx`, `adox`): 64-bit limbs.
    Mulx,
    /// Plain Rust, 64-bit limbs with `u128` products: any CPU.
    Portable,
}

/// The largest modulus the IFMA kernel takes: 20 vectors of 8 digits of 52 bits, less the two
/// bits the almost-Montgomery bound needs (R > 4m).
pub const IFMA_MAX_BITS: u32 = 52 * 160 - 2;

impl Backend {
    /// Every backend, fastest first.
    pub const ALL: [Backend; 3] = [Backend::Ifma, Backend::Mulx, Backend::Portable];

    /// The name used on the command line and in records.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Ifma => "ifma",
            Backend::Mulx => "mulx",
            Backend::Portable => "portable",
        }
    }

    /// The backend called `name` ([`Backend::name`]).
    pub fn from_name(name: &str) -> Option<Backend> {
        Backend::ALL.into_iter().find(|b| b.name() == name)
    }

    /// What the backend is, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Backend::Ifma => "AVX-512 IFMA, radix 2^52",
            Backend::Mulx => "x86-64 MULX/ADX, 64-bit limbs",
            Backend::Portable => "portable Rust, 64-bit limbs",
        }
    }

    /// The CPU features the backend needs, as `is_x86_feature_detected!` names them.
    pub fn features(self) -> &'static [&'static str] {
        match self {
            Backend::Ifma => &["avx512f", "avx512vl", "avx512ifma"],
            Backend::Mulx => &["bmi2", "adx"],
            Backend::Portable => &[],
        }
    }

    /// Whether this CPU can run the backend (detected at run time).
    pub fn available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Backend::Ifma => ifma::available(),
            #[cfg(target_arch = "x86_64")]
            Backend::Mulx => mulx::available(),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Why this build cannot run the backend here (`None` when it can): not built by this
    /// compiler, or a CPU without the features.
    pub fn unavailable_reason(self) -> Option<String> {
        if self.available() {
            return None;
        }
        let built = match self {
            Backend::Ifma => cfg!(all(target_arch = "x86_64", parcrypt_avx512)),
            Backend::Mulx => cfg!(target_arch = "x86_64"),
            Backend::Portable => true,
        };
        Some(if built {
            format!("this CPU lacks {}", self.features().join(", "))
        } else if self == Backend::Ifma {
            "not built (needs x86-64 and Rust 1.89 or newer)".to_string()
        } else {
            "not built (needs x86-64)".to_string()
        })
    }

    /// Whether the backend takes a modulus of `bits` bits.
    pub fn supports_bits(self, bits: u32) -> bool {
        let max = if self == Backend::Ifma {
            IFMA_MAX_BITS
        } else {
            64 * portable::MAX_LIMBS as u32
        };
        (2..=max).contains(&bits)
    }

    /// The backend `auto` runs for a modulus of `bits` bits on this CPU: of the backends
    /// available that take the size, the fastest, timed at first use and remembered per CPU
    /// model ([`choice`]; [`choice::choice_for`] says why).
    pub fn best_for(bits: u32) -> Backend {
        choice::choice_for(bits).backend
    }

    /// The first of [`Backend::ALL`] that is available and takes the size: what the CPU's
    /// flags alone would pick (IFMA where it runs), before any timing.
    pub fn by_flags(bits: u32) -> Backend {
        Backend::ALL
            .into_iter()
            .find(|b| b.available() && b.supports_bits(bits))
            .unwrap_or(Backend::Portable)
    }

    /// The backend `auto` runs for RSA halves up to 8192 bits on this CPU.
    pub fn best() -> Backend {
        Backend::best_for(2048)
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A Montgomery multiplier in a backend's own representation: `LANES` independent products at
/// once (1, or 2 for a dual kernel), each element `words()` words long, lane after lane.
pub(crate) trait Engine {
    /// Products per call.
    const LANES: usize;
    /// Words per element of one lane.
    fn words(&self) -> usize;
    /// `r = a·b·R⁻¹` in every lane (the backend's own bounds on inputs and output).
    fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]);
    /// `r = a²·R⁻¹` in every lane.
    fn sqr(&self, r: &mut [u64], a: &[u64]) {
        self.mul(r, a, a);
    }
    /// `out` = words `offset .. offset + out.len()` of entry `index` of `table` (entries of
    /// `stride` words), reading every entry ([`select::select_part`] or a backend's own
    /// vector form of it).
    fn select(&self, out: &mut [u64], table: &[u64], stride: usize, offset: usize, index: u64) {
        select::select_part(out, table, stride, offset, index);
    }
}

/// A modulus prepared for one backend: the constant-time exponentiation and the
/// radix-2^64 Montgomery arithmetic around it. The modulus is public to the kernel in size
/// only: its value may be a secret prime (nothing branches on it).
#[derive(Clone)]
pub struct CtModulus {
    backend: Backend,
    bits: u32,
    arith: Mont64,
    imp: Imp,
}

#[derive(Clone)]
enum Imp {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Mulx(mulx::Ctx),
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    Ifma(ifma::Ctx),
}

impl std::fmt::Debug for CtModulus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CtModulus({} bits, {})", self.bits, self.backend)
    }
}

impl CtModulus {
    /// The context for the odd modulus `m` (at least 2 bits) on `backend`. Errors when the
    /// modulus is even or too large for the backend, or when this CPU lacks the backend.
    pub fn new(m: &Integer, backend: Backend) -> Result<Self> {
        if *m <= 1 || m.is_even() {
            return Err(Error::InvalidParameter(
                "the constant-time kernel needs an odd modulus above 1".into(),
            ));
        }
        let bits = m.significant_bits();
        let limbs = Zeroizing::new(crate::bignum::mpn::padded(m, bits.div_ceil(64) as usize));
        Self::from_limbs(&limbs, bits, backend)
    }

    /// The context for the odd modulus `m` of `bits` bits given as exactly ⌈bits/64⌉ limbs
    /// (a prime of a loaded key: its bit length is public, its value secret and never looked
    /// at here). Errors as [`CtModulus::new`]; an even `m` is a caller's bug (the key loader
    /// has checked every prime odd).
    pub fn from_limbs(m: &[u64], bits: u32, backend: Backend) -> Result<Self> {
        if bits < 2 || m.len() != bits.div_ceil(64) as usize {
            return Err(Error::InvalidParameter(format!(
                "the constant-time kernel needs an odd modulus above 1 given as its limbs, got \
                 {bits} bits in {} limbs",
                m.len()
            )));
        }
        if !backend.supports_bits(bits) {
            return Err(Error::InvalidParameter(format!(
                "the {backend} kernel takes moduli up to {} bits, got {bits}",
                if backend == Backend::Ifma {
                    IFMA_MAX_BITS
                } else {
                    64 * portable::MAX_LIMBS as u32
                }
            )));
        }
        if let Some(why) = backend.unavailable_reason() {
            return Err(Error::InvalidParameter(format!(
                "the {backend} kernel cannot run here: {why}"
            )));
        }
        let arith = Mont64::with_bits(m, bits).ok_or_else(|| {
            Error::InvalidParameter("the constant-time kernel needs an odd modulus".into())
        })?;
        let imp = match backend {
            Backend::Portable => Imp::Portable,
            #[cfg(target_arch = "x86_64")]
            Backend::Mulx => Imp::Mulx(mulx::Ctx::new(&arith)),
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Backend::Ifma => Imp::Ifma(ifma::Ctx::new(&arith, bits)),
            #[allow(unreachable_patterns)]
            _ => unreachable!("checked by available()"),
        };
        Ok(Self {
            backend,
            bits,
            arith,
            imp,
        })
    }

    /// The backend that runs this modulus' exponentiations.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The modulus' bit length.
    pub fn bits(&self) -> u32 {
        self.bits
    }

    /// Limbs (64-bit) of values modulo m: `ceil(bits / 64)`.
    pub fn limbs(&self) -> usize {
        self.arith.limbs()
    }

    /// The radix-2^64 Montgomery arithmetic for this modulus (reductions, products).
    pub fn arith(&self) -> &Mont64 {
        &self.arith
    }

    /// `out = base^e mod m`, fully reduced, for `base < m` and a public exponent `e` (read bit
    /// by bit: 17 products for e = 65537; the RSA public exponent of the fault check and the
    /// blinding). Constant time for the base's value.
    pub fn pow_public_limbs(&self, out: &mut [u64], base: &[u64], e: u64) {
        assert!(
            out.len() == self.limbs() && base.len() == self.limbs(),
            "limb counts follow the modulus"
        );
        self.pow_exp(out, base, Exp::Public(e));
    }

    /// One exponentiation on this modulus' backend.
    fn pow_exp(&self, out: &mut [u64], base: &[u64], exp: Exp) {
        match &self.imp {
            Imp::Portable => pow64(&PortableEngine(&self.arith), &self.arith, out, base, exp),
            #[cfg(target_arch = "x86_64")]
            Imp::Mulx(c) => c.pow(&self.arith, out, base, exp),
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Imp::Ifma(c) => c.pow(out, base, exp),
        }
    }

    /// `out = base^exp mod m`, fully reduced, for `base < m` and `exp` given as limbs and read
    /// over `ebits` bits (`base` and `out` have [`CtModulus::limbs`] limbs). Constant time
    /// for the base's and the exponent's values.
    pub fn pow_limbs(&self, out: &mut [u64], base: &[u64], exp: &[u64], ebits: u32) {
        pow_lanes(&[self], &mut [out], &[base], &[exp], ebits);
    }

    /// `base^exp mod m`: `base` is first reduced modulo m (in constant time for its length),
    /// `exp` read over the modulus' bit length (it must be below 2^bits).
    pub fn pow(&self, base: &Integer, exp: &Integer) -> SecretInteger {
        self.pow_bits(base, exp, self.bits)
    }

    /// [`CtModulus::pow`] with the exponent read over `ebits` bits (`exp < 2^ebits`).
    pub fn pow_bits(&self, base: &Integer, exp: &Integer, ebits: u32) -> SecretInteger {
        assert!(
            *exp >= 0 && exp.significant_bits() <= ebits,
            "exponent wider than ebits"
        );
        let b = self.reduce_integer(base);
        let e = Zeroizing::new(crate::bignum::mpn::padded(
            exp,
            (ebits.div_ceil(64) as usize).max(1),
        ));
        let mut out = Zeroizing::new(vec![0u64; self.limbs()]);
        self.pow_limbs(&mut out, &b, &e, ebits);
        SecretInteger::new(crate::bignum::mpn::to_integer(&out))
    }

    /// `x mod m` as [`CtModulus::limbs`] limbs, for a non-negative `x` (constant time for its
    /// limb count).
    pub fn reduce_integer(&self, x: &Integer) -> Zeroizing<Vec<u64>> {
        assert!(*x >= 0, "reduce a non-negative value");
        let mut r = Zeroizing::new(vec![0u64; self.limbs()]);
        self.arith.reduce(&mut r, x.as_limbs());
        r
    }

    /// `x^(2^count) mod m` through `count` Montgomery squarings in the backend's kernel (the
    /// kernel's own representation and bounds): for timing one product, and checked against
    /// GMP like the exponentiation. `x < m`.
    pub fn square_chain(&self, x: &[u64], count: usize) -> Zeroizing<Vec<u64>> {
        let mut out = Zeroizing::new(vec![0u64; self.limbs()]);
        chain_lanes(&[self], &mut [&mut out], &[x], count);
        out
    }
}

/// The two moduli run by one dual call of the IFMA kernel, when they can be.
#[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
fn ifma_pair<'a>(mods: &[&'a CtModulus]) -> Option<(&'a ifma::Ctx, &'a ifma::Ctx)> {
    match mods {
        [a, b] => match (&a.imp, &b.imp) {
            (Imp::Ifma(x), Imp::Ifma(y)) if x.same_shape(y) => Some((x, y)),
            _ => None,
        },
        _ => None,
    }
}

/// Exponentiations of one call: two moduli of the same IFMA shape run interleaved in one
/// register set; anything else runs one after the other.
fn pow_lanes(
    mods: &[&CtModulus],
    outs: &mut [&mut [u64]],
    bases: &[&[u64]],
    exps: &[&[u64]],
    ebits: u32,
) {
    assert!(
        mods.len() == outs.len() && mods.len() == bases.len() && mods.len() == exps.len(),
        "one output, base and exponent per modulus"
    );
    for (i, m) in mods.iter().enumerate() {
        assert!(
            outs[i].len() == m.limbs() && bases[i].len() == m.limbs(),
            "limb counts follow the modulus"
        );
    }
    let ebits = ebits as usize;
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    if let Some((a, b)) = ifma_pair(mods) {
        let [oa, ob] = outs else { unreachable!() };
        ifma::pow2(
            [a, b],
            [oa, ob],
            [bases[0], bases[1]],
            [exps[0], exps[1]],
            ebits,
        );
        return;
    }
    for (i, m) in mods.iter().enumerate() {
        m.pow_exp(outs[i], bases[i], Exp::Secret(&[exps[i]], ebits));
    }
}

/// `count` squarings per modulus (for the per-product timing), dual where [`pow_lanes`] is.
fn chain_lanes(mods: &[&CtModulus], outs: &mut [&mut [u64]], xs: &[&[u64]], count: usize) {
    #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
    if let Some((a, b)) = ifma_pair(mods) {
        let [oa, ob] = outs else { unreachable!() };
        ifma::chain2([a, b], [oa, ob], [xs[0], xs[1]], count);
        return;
    }
    for (i, m) in mods.iter().enumerate() {
        let out = &mut *outs[i];
        match &m.imp {
            Imp::Portable => {
                let e = PortableEngine(&m.arith);
                chain_on(&e, &m.arith, out, xs[i], count);
            }
            #[cfg(target_arch = "x86_64")]
            Imp::Mulx(c) => c.chain(&m.arith, out, xs[i], count),
            #[cfg(all(target_arch = "x86_64", parcrypt_avx512))]
            Imp::Ifma(c) => c.chain(out, xs[i], count),
        }
    }
}

/// `base^exp` for two moduli at once (the two halves of a CRT): with the IFMA kernel and
/// moduli of the same digit count, both run interleaved in one register set, else in turn.
/// Each output has its modulus' [`CtModulus::limbs`]; `ebits` covers both exponents.
pub fn pow_pair(
    mods: [&CtModulus; 2],
    outs: [&mut [u64]; 2],
    bases: [&[u64]; 2],
    exps: [&[u64]; 2],
    ebits: u32,
) {
    let [oa, ob] = outs;
    pow_lanes(&mods, &mut [oa, ob], &bases, &exps, ebits);
}

/// [`CtModulus::square_chain`] for two moduli at once, dual where [`pow_pair`] is.
pub fn square_chain_pair(
    mods: [&CtModulus; 2],
    xs: [&[u64]; 2],
    count: usize,
) -> [Zeroizing<Vec<u64>>; 2] {
    let mut a = Zeroizing::new(vec![0u64; mods[0].limbs()]);
    let mut b = Zeroizing::new(vec![0u64; mods[1].limbs()]);
    chain_lanes(&mods, &mut [&mut a, &mut b], &xs, count);
    [a, b]
}

/// The portable engine: [`Mont64::mul`] on 64-bit limbs.
pub(crate) struct PortableEngine<'a>(pub &'a Mont64);

impl Engine for PortableEngine<'_> {
    const LANES: usize = 1;
    fn words(&self) -> usize {
        self.0.limbs()
    }
    fn mul(&self, r: &mut [u64], a: &[u64], b: &[u64]) {
        self.0.mul(r, a, b);
    }
}

/// Exponentiation on a radix-2^64 engine whose Montgomery form is [`Mont64`]'s (portable,
/// mulx): into the form with R², the exponent's schedule ([`exp::run_exp`]), out with a
/// product by 1, one masked subtraction.
pub(crate) fn pow64<E: Engine>(
    engine: &E,
    arith: &Mont64,
    out: &mut [u64],
    base: &[u64],
    exp: Exp,
) {
    let n = arith.limbs();
    let mut bm = Zeroizing::new(vec![0u64; n]);
    let mut one = Zeroizing::new(vec![0u64; n]);
    let mut unit = Zeroizing::new(vec![0u64; n]);
    unit[0] = 1;
    engine.mul(&mut bm, base, arith.rr());
    engine.mul(&mut one, &unit, arith.rr());
    let mut acc = Zeroizing::new(vec![0u64; n]);
    exp::run_exp(engine, &mut acc, &bm, &one, exp);
    engine.mul(out, &acc, &unit);
    select::reduce_once(out, arith.m());
}

/// `count` squarings on a radix-2^64 engine, in and out of Montgomery form as [`pow64`].
pub(crate) fn chain_on<E: Engine>(
    engine: &E,
    arith: &Mont64,
    out: &mut [u64],
    x: &[u64],
    count: usize,
) {
    let n = arith.limbs();
    let mut acc = Zeroizing::new(vec![0u64; n]);
    let mut tmp = Zeroizing::new(vec![0u64; n]);
    let mut unit = Zeroizing::new(vec![0u64; n]);
    unit[0] = 1;
    engine.mul(&mut acc, x, arith.rr());
    for _ in 0..count {
        engine.sqr(&mut tmp, &acc);
        std::mem::swap(&mut acc, &mut tmp);
    }
    engine.mul(out, &acc, &unit);
    select::reduce_once(out, arith.m());
}
