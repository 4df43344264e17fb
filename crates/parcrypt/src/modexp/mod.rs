//! Modular exponentiation b^e mod m: one trait, one file per strategy, every strategy counting
//! its modular multiplications (squarings and other multiplications apart, per thread or per
//! processing element).
//!
//! [`pow_mod_vartime`] is the entry point: it checks and normalises the inputs once (modulus 0 refused,
//! modulus 1 gives 0, base reduced into `[0, m)`, odd modulus enforced where a method needs it)
//! so every strategy sees `0 <= base < m`, `m >= 2`, `e >= 0`. GMP's `mpz_powm` is the oracle
//! of every test.
//!
//! Timing: every strategy here except `gmp-sec` is **variable-time** (the sequence of squarings
//! and multiplications, or the table entries read, follow the exponent's bits). Use `gmp-sec`
//! (`mpz_powm_sec`) for secret exponents. The entry point and the trait's method carry
//! `_vartime` in their names (crypto-bigint's convention: `pow_vartime`), so a caller sees it
//! where it calls, whichever strategy it passes.
pub mod best;
pub mod binary;
pub mod binary_parmul;
pub mod binary_rl;
pub mod chain;
pub mod comb;
pub mod crsa;
pub mod digits;
pub mod gmp;
pub mod mary;
pub mod mary_ondemand;
pub mod mary_precomp;
pub mod montgomery;
pub mod ring;
pub mod slice;
pub mod sliding;
pub mod sqmul_pipeline;
pub mod window_parmul;

use crate::error::{Error, Result};
use rug::Integer;

pub use ring::{Counter, Kernel, Ring};
use serde::{Deserialize, Serialize};

/// Modular multiplications done by one thread or processing element.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitCount {
    /// Who did them: "thread 0", "PE 5", "coordinator", ...
    pub unit: String,
    /// Modular squarings (x·x mod m).
    pub squarings: u64,
    /// Other modular multiplications (x·y mod m).
    pub multiplications: u64,
}

impl UnitCount {
    /// A zero count for `unit`.
    pub fn new(unit: impl Into<String>) -> Self {
        Self {
            unit: unit.into(),
            ..Self::default()
        }
    }

    /// squarings + multiplications.
    pub fn mulmods(&self) -> u64 {
        self.squarings + self.multiplications
    }
}

/// The result of one exponentiation and the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// b^e mod m.
    pub value: Integer,
    /// One entry per thread or processing element. Empty when the method cannot count
    /// (GMP's own `mpz_powm` and `mpz_powm_sec`).
    pub counts: Vec<UnitCount>,
}

impl Outcome {
    /// Total modular multiplications over all units (squarings included).
    pub fn total_mulmods(&self) -> u64 {
        self.counts.iter().map(UnitCount::mulmods).sum()
    }
}

/// Tuning knobs; each method reads the ones it understands and ignores the rest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Params {
    /// Worker threads for parallel methods (sequential methods ignore it). At least 1.
    pub threads: usize,
    /// Window or digit size r in bits (m-ary: digits of r bits; sliding: window width).
    /// `None` lets the method choose from the exponent size.
    pub window: Option<u32>,
    /// Threads that build the m-ary table (`mary-precomp`); `None` = `threads`.
    pub precomp_threads: Option<usize>,
    /// Cubes Nc of a CRSA hypercube (8 PEs each); `None` = 2 (the paper's example).
    pub cubes: Option<usize>,
    /// How `slice` cuts the exponent.
    pub slicing: Slicing,
    /// Pin worker threads to logical CPUs (m-ary/Karatsuba found affinity matters).
    pub pin: bool,
    /// How the counted MulMods are computed (CRSA and GMP's own methods ignore it).
    #[serde(default)]
    pub kernel: Kernel,
}

impl Default for Params {
    fn default() -> Self {
        Self {
            threads: 1,
            window: None,
            precomp_threads: None,
            cubes: None,
            slicing: Slicing::Balanced,
            pin: false,
            kernel: Kernel::Auto,
        }
    }
}

/// How the slice method divides the exponent's bits among threads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Slicing {
    /// Equal numbers of bits per thread.
    Even,
    /// Deliberately unequal: the more significant a slice, the thinner (thread t of n gets a
    /// share proportional to n - t), since high slices also pay a chain of squarings.
    Uneven,
    /// Shares chosen so every thread does about the same work (the high slices also pay the
    /// squarings that shift their result into place).
    #[default]
    Balanced,
}

/// A modular-exponentiation strategy.
pub trait ModExp: Send + Sync {
    /// The name used on the command line (`binary`, `mary-precomp`, ...).
    fn name(&self) -> &'static str;
    /// One line on what it does.
    fn describe(&self) -> &'static str;
    /// Whether it uses more than one thread when asked.
    fn is_parallel(&self) -> bool {
        false
    }
    /// Whether the modulus must be odd (Montgomery-based methods).
    fn needs_odd_modulus(&self) -> bool {
        false
    }
    /// Computes `base^exp mod modulus` for normalised inputs: `0 <= base < modulus`,
    /// `modulus >= 2`, `exp >= 0` (and `modulus` odd if [`ModExp::needs_odd_modulus`]).
    /// Call it through [`pow_mod_vartime`], which guarantees this.
    fn pow_mod_normalized_vartime(
        &self,
        base: &Integer,
        exp: &Integer,
        modulus: &Integer,
        params: &Params,
    ) -> Result<Outcome>;
}

/// Every strategy, in the order `parcrypt modexp --list` prints them.
pub fn methods() -> Vec<Box<dyn ModExp>> {
    vec![
        Box::new(binary::Binary),
        Box::new(binary_rl::BinaryRl),
        Box::new(mary::Mary),
        Box::new(sliding::Sliding),
        Box::new(montgomery::Montgomery),
        Box::new(gmp::Gmp),
        Box::new(gmp::GmpSec),
        Box::new(mary_precomp::MaryPrecomp),
        Box::new(mary_ondemand::MaryOnDemand),
        Box::new(slice::Slice),
        Box::new(sqmul_pipeline::SqMulPipeline),
        Box::new(binary_parmul::BinaryParMul),
        Box::new(window_parmul::WindowParMul),
        Box::new(crsa::Crsa),
        Box::new(crsa::CrsaPipelined),
        Box::new(crsa::CrsaOptimized),
        Box::new(best::Best),
    ]
}

/// The strategy called `name`.
pub fn method(name: &str) -> Result<Box<dyn ModExp>> {
    let all = methods();
    let names: Vec<&'static str> = all.iter().map(|m| m.name()).collect();
    all.into_iter().find(|m| m.name() == name).ok_or_else(|| {
        Error::InvalidParameter(format!(
            "unknown method '{name}' (known: {})",
            names.join(", ")
        ))
    })
}

/// base^exp mod modulus with `method`, after checking and normalising the inputs.
/// **Variable-time** for every strategy but `gmp-sec` (see the module's "Timing").
///
/// Errors: modulus <= 0, negative exponent, even modulus for a method that needs an odd one,
/// 0 threads. Modulus 1 gives 0; a base outside `[0, m)` is reduced first.
pub fn pow_mod_vartime(
    method: &dyn ModExp,
    base: &Integer,
    exp: &Integer,
    modulus: &Integer,
    params: &Params,
) -> Result<Outcome> {
    if *modulus <= 0 {
        return Err(Error::InvalidParameter(format!(
            "modulus must be positive, got {modulus}"
        )));
    }
    if *exp < 0 {
        return Err(Error::InvalidParameter(
            "exponent must be non-negative".into(),
        ));
    }
    if params.threads == 0 {
        return Err(Error::InvalidParameter(
            "thread count must be at least 1".into(),
        ));
    }
    if method.needs_odd_modulus() && modulus.is_even() {
        return Err(Error::InvalidParameter(format!(
            "method '{}' needs an odd modulus",
            method.name()
        )));
    }
    if *modulus == 1 {
        return Ok(Outcome {
            value: Integer::new(),
            counts: Vec::new(),
        });
    }
    let mut b = Integer::from(base % modulus);
    if b < 0 {
        b += modulus;
    }
    method.pow_mod_normalized_vartime(&b, exp, modulus, params)
}

/// Deterministic operands for a `bits`-bit benchmark: (base, exponent, odd modulus).
pub fn operands(bits: u32, seed: u64) -> (Integer, Integer, Integer) {
    let mut rng = rug::rand::RandState::new();
    rng.seed(&(Integer::from(seed) + Integer::from(bits)));
    let mut m = Integer::from(Integer::random_bits(bits, &mut rng));
    m.set_bit(bits - 1, true);
    m.set_bit(0, true);
    let mut e = Integer::from(Integer::random_bits(bits, &mut rng));
    e.set_bit(bits - 1, true);
    let b = Integer::from(Integer::random_below_ref(&m, &mut rng));
    (b, e, m)
}

#[cfg(test)]
mod tests;
