//! Big-integer multiplication (m-ary/Karatsuba): GMP's `mpz_mul` as the oracle, the seed's one-level
//! Karatsuba (`karaMul`), and the same split run in parallel five ways. Their benchmarks (and
//! the thread-activation microbenchmarks) are in `bench::suites`.
//!
//! One trait, [`Multiplier`], one file per strategy, and one `match` that picks it
//! ([`multiplier`]):
//!
//! | method | file | how the half products are spread (seed's analog) |
//! |---|---|---|
//! | `gmp` | [`gmp`] | not split: `mpz_mul` (the reference) |
//! | `kara-seq` | [`seq`] | all on the caller (`karaMul`) |
//! | `kara-spawn` | [`spawn`] | a thread spawned per helper per call, joined (`std::async`) |
//! | `kara-scoped` | [`scoped`] | `std::thread::scope` per call (`std::thread`) |
//! | `kara-pool` | [`pool`] | persistent helpers, `Mutex` + `Condvar` ("infinite threads") |
//! | `kara-lockfree` | [`lockfree`] | persistent helpers spinning on atomics (inf-threadsLF) |
//! | `kara-rayon` | [`rayon_join`] | `rayon::join` in a dedicated pool |
//!
//! Beyond the seed, `par-gmp` ([`par`]) does not keep the Karatsuba split: it picks, by size,
//! a split whose pieces GMP multiplies with about GMP's own total work (a Toom-3 top level
//! ([`toom`]), a split of the longer operand, or the B^N ± 1 residues of GMP's FFT range
//! ([`crt`])), so two threads can approach 2× over `mpz_mul`.
//!
//! Also beyond the seed, `ntt` ([`ntt`]) does not call GMP for the product at all: a
//! number-theoretic transform over three 62-bit primes (lengths 2^k and 3·2^k), its transforms,
//! pointwise products and recombination spread over the threads of a pool, by the best back
//! end the CPU runs (portable; AVX2 over three 50-bit primes in `f64` lanes; or AVX-512 IFMA
//! over four 50-bit primes); a back end can be
//! named ([`NTT_BACKEND_METHODS`]).
//!
//! The algorithm lives once in [`karatsuba`], generic over a [`Fork`]; the split between the
//! caller and 1–3 helpers is documented there. Persistent helpers are created with the
//! multiplier and reused by every call; they stop when it is dropped.
//!
//! Beside them: [`operands`] (random operands of a given size). How much parallel throughput the machine gives is measured
//! by the harness (`parcrypt_lab::bench::capacity`).
//!
//! Every multiplier accepts any integers (negative, zero, unequal lengths) and returns exactly
//! `a · b`; the tests check each against GMP.
pub mod crt;
pub mod gmp;
pub mod karatsuba;
pub mod lockfree;
pub mod ntt;
pub mod par;
pub mod pool;
pub mod rayon_join;
pub mod scoped;
pub mod seq;
pub mod spawn;
pub mod toom;
pub mod toom4;

pub use karatsuba::{Fork, Karatsuba, Leaf, Serial, sequential, sequential_with};

use crate::error::{Error, Result};
use rug::Integer;

/// A way to multiply two big integers.
pub trait Multiplier: Send + Sync {
    /// The method name, as the command line spells it (`kara-lockfree`).
    fn name(&self) -> &'static str;

    /// One line: the algorithm, its options and how it uses threads.
    fn describe(&self) -> String;

    /// Threads working on one product: the caller plus its helpers.
    fn threads(&self) -> usize {
        1
    }

    /// `a · b`, exactly.
    fn mul(&self, a: &Integer, b: &Integer) -> Integer;
}

/// Most helper threads besides the caller: one per half product.
pub const MAX_HELPERS: usize = 3;
/// Deepest Karatsuba recursion accepted.
pub const MAX_DEPTH: u32 = 16;

/// Options of the Karatsuba family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KaraConfig {
    /// Karatsuba levels: 1 is the seed's `karaMul` (GMP multiplies the three halves); each
    /// further level splits the half products again, sequentially, on the thread that
    /// computes them. 1 to [`MAX_DEPTH`].
    pub depth: u32,
    /// Products whose longer operand has fewer bits than this go straight to GMP (0: always
    /// split, as the seed does).
    pub threshold_bits: u32,
    /// Helper threads besides the caller for the parallel methods, 0 to [`MAX_HELPERS`]
    /// (`gmp` and `kara-seq` ignore it).
    pub helpers: usize,
    /// Pin helper `i` to logical CPU `i + 1` (persistent helpers: `kara-pool`,
    /// `kara-lockfree`, `kara-rayon`; threads made per call are not pinned).
    pub pin: bool,
    /// What multiplies the leaves (the half products below the last level, and operands
    /// below `threshold_bits`): GMP, as the seed does, or the best one-thread product.
    pub leaves: Leaves,
}

/// What multiplies a Karatsuba split's leaves ([`KaraConfig::leaves`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Leaves {
    /// GMP's `mpz_mul`: the seed's `karaMul`, and what the m-ary/Karatsuba study measures.
    #[default]
    Gmp,
    /// The best one-thread product (beyond the seed): the NTT of [`ntt`] where a leaf is
    /// balanced and at least the one-thread threshold [`par::ntt_from`] times on this
    /// machine (timed once per process, before the first split), else `mpz_mul`. Each leaf
    /// runs on the thread that computes it, on one thread: the NTT never posts work to a pool
    /// from inside a fork.
    Best,
}

impl Leaves {
    /// The name the command line gives it: `gmp` or `best`.
    pub fn name(self) -> &'static str {
        match self {
            Leaves::Gmp => "gmp",
            Leaves::Best => "best",
        }
    }

    /// The leaves called `name` (`gmp` or `best`).
    pub fn parse(name: &str) -> Result<Self> {
        match name {
            "gmp" => Ok(Leaves::Gmp),
            "best" => Ok(Leaves::Best),
            _ => Err(Error::InvalidParameter(format!(
                "unknown Karatsuba leaves '{name}' (expected gmp or best)"
            ))),
        }
    }
}

impl Default for KaraConfig {
    /// The seed's configuration on 2 threads: one level, no threshold, one helper, unpinned.
    fn default() -> Self {
        Self {
            depth: 1,
            threshold_bits: 0,
            helpers: 1,
            pin: false,
            leaves: Leaves::Gmp,
        }
    }
}

impl KaraConfig {
    /// The configuration for `threads` threads in all (caller included): `helpers = threads - 1`.
    pub fn with_threads(self, threads: usize) -> Result<Self> {
        if !(1..=MAX_HELPERS + 1).contains(&threads) {
            return Err(Error::InvalidParameter(format!(
                "Karatsuba uses 1 to {} threads (the caller and up to {MAX_HELPERS} helpers, one \
                 per half product), got {threads}",
                MAX_HELPERS + 1
            )));
        }
        Ok(Self {
            helpers: threads - 1,
            ..self
        })
    }

    /// Checks depth and helper count.
    pub fn validate(&self) -> Result<()> {
        if !(1..=MAX_DEPTH).contains(&self.depth) {
            return Err(Error::InvalidParameter(format!(
                "Karatsuba depth must be 1 to {MAX_DEPTH}, got {}",
                self.depth
            )));
        }
        if self.helpers > MAX_HELPERS {
            return Err(Error::InvalidParameter(format!(
                "at most {MAX_HELPERS} helper threads (one per half product), got {}",
                self.helpers
            )));
        }
        Ok(())
    }
}

/// Every method, in the order tables show them.
pub const METHODS: [&str; 9] = [
    "gmp",
    "kara-seq",
    "kara-spawn",
    "kara-scoped",
    "kara-pool",
    "kara-lockfree",
    "kara-rayon",
    "par-gmp",
    "ntt",
];

/// The `ntt` multiplier on a named back end ([`ntt::Backend`]), for benchmarks and tests that
/// compare back ends: [`multiplier`] makes them (an error where the CPU lacks the back end),
/// but they are not in [`METHODS`] (whose default tables and counts they would change, and
/// which must hold on every CPU); `ntt` itself runs the best available one.
pub const NTT_BACKEND_METHODS: [&str; 4] = ["ntt-portable", "ntt-avx2", "ntt-ifma", "ntt-ifma256"];

/// Whether [`multiplier`] knows `name`: one of [`METHODS`] or [`NTT_BACKEND_METHODS`].
pub fn is_method(name: &str) -> bool {
    METHODS.contains(&name) || NTT_BACKEND_METHODS.contains(&name)
}

/// Whether `method` is one of the Karatsuba family (`kara-*`), whose leaves
/// [`KaraConfig::leaves`] chooses.
pub fn is_karatsuba(method: &str) -> bool {
    method.starts_with("kara-") && METHODS.contains(&method)
}

/// Whether `method` uses helper threads (and so reads `helpers` and `--threads`).
pub fn is_parallel(method: &str) -> bool {
    !matches!(method, "gmp" | "kara-seq")
}

/// The multiplier called `name`, with `config`; persistent helpers are started here.
pub fn multiplier(name: &str, config: &KaraConfig) -> Result<Box<dyn Multiplier>> {
    config.validate()?;
    let c = *config;
    Ok(match name {
        "gmp" => Box::new(gmp::GmpMul),
        "kara-seq" => Box::new(seq::new(c)),
        "kara-spawn" => Box::new(spawn::new(c)),
        "kara-scoped" => Box::new(scoped::new(c)),
        "kara-pool" => Box::new(pool::new(c)?),
        "kara-lockfree" => Box::new(lockfree::new(c)?),
        "kara-rayon" => Box::new(rayon_join::new(c)?),
        "par-gmp" => Box::new(par::new(c)?),
        "ntt" => Box::new(ntt::method::new(c)?),
        _ => match ntt::Backend::of_method(name) {
            Some(b) => Box::new(ntt::method::with_backend(c, b)?),
            None => return Err(unknown_method(name)),
        },
    })
}

/// The error for a name not in [`METHODS`].
pub fn unknown_method(name: &str) -> Error {
    Error::InvalidParameter(format!(
        "unknown multiplication method '{name}' (expected one of: {})",
        METHODS.join(", ")
    ))
}

/// Starts a named helper thread (`parcrypt-<what>-<i>`), pinned to CPU `i + 1` if asked.
fn start_helper(
    what: &str,
    i: usize,
    pin: bool,
    body: impl FnOnce() + Send + 'static,
) -> Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name(format!("parcrypt-{what}-{i}"))
        .spawn(move || {
            if pin {
                crate::parallel::affinity::pin_current_thread(i + 1);
            }
            body()
        })
        .map_err(|e| Error::InvalidParameter(format!("cannot start a {what} helper thread: {e}")))
}

#[cfg(test)]
mod tests;

/// Two operands of exactly `bits` bits, from a generator seeded by `seed` and `bits`.
pub fn operands(bits: u32, seed: u64) -> (Integer, Integer) {
    let mut rng = <rand_chacha::ChaCha20Rng as rand::SeedableRng>::seed_from_u64(
        seed ^ u64::from(bits).rotate_left(32),
    );
    let mut draw = || {
        let mut x = crate::bignum::random_bits(&mut rng, bits);
        x.set_bit(bits - 1, true);
        x
    };
    (draw(), draw())
}
