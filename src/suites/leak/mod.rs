//! The timing-leak test of RSA-OAEP decryption (issue 20), dudect's method: two classes of
//! ciphertexts, decrypted one at a time in a random interleaved order, each decryption timed
//! (TSC where invariant, else the monotonic clock), and the two classes' times compared by
//! Welch's t-test with dudect's cropping ([`crate::bench::welch`]). |t| at or above 4.5 says
//! the decryption's time tells the classes apart (`parcrypt bench leak` then exits 1).
//!
//! The class pairs ([`Pair`]) are the questions Manger's and the Marvin attacks ask, and one
//! about the key:
//! - `padding`: valid OAEP ciphertexts against invalid ones (Y = 0, but DB's lHash wrong);
//! - `y-zero`: the encoded message's first byte Y = 0 against Y ≠ 0, both invalid — crafted by
//!   choosing EM and encrypting it with the public key;
//! - `y-zero-odd`: the same on a key whose modulus length is not a multiple of 64 bits (2040
//!   by default), where EM's top limb is partly empty and a leading zero byte is more likely to
//!   change how many limbs or bytes a variable-length conversion handles;
//! - `keys`: valid ciphertexts under two keys of the same sizes that differ only in secret
//!   values (the two of [`KEY_CANDIDATES`] with the most different weight of dP and dQ), each
//!   decryption on a fresh copy of its key placed at random (see `measure`). Their moduli differ
//!   too: n is public, but work whose time follows n's value shows here as well (issue 29: the
//!   GMP blinding alone reached |t| = 12 between the two keys, the constant-time CRT 1.3).
//!
//! What it sees, and what not. It sees a difference of mean time between the two classes of a
//! pair, down to the `resolution` of each record (4.5 standard errors). The standard error
//! is σ·√(1/n₀ + 1/n₁) for the spread σ of one decryption's time (at the crop level that
//! decides), so |t| of a leak δ grows as √n: to resolve δ with n per class takes
//! n = 2·(4.5·σ/δ)², and a run's own `resolution` r at n per class says n·(r/δ)² would
//! have. It does not see: a leak that depends on something other than what separates the
//! classes (another bit of the key, the blinding factor, a property of the ciphertext that
//! the classes share) — the pairs ask chosen questions, not every question; timing that
//! depends on the input within a class, which averages out; leaks below the resolution; and
//! what an attacker on the same core could read without a change of the decryption's time
//! (cache lines or branch predictor state touched at secret addresses). The secret-flow check
//! (`scripts/secret-flow.sh`) covers those branches and indexes by construction; this test
//! measures time as it comes out. The blinding randomizes the value the exponentiation works
//! on, so a pair of ciphertexts chosen by a property of the exponentiation's input (the
//! Hamming weight of the CRT halves, say) would differ in nothing after blinding: such pairs
//! are not offered.
//!
//! The decryption measured is a parameter ([`DecryptPath`], listed in [`PATHS`]): the default
//! path of `rsa decrypt` and the old variable-time one; another kernel is one more entry.
//! Inputs are made in batches before they are timed (untimed), half of each class, shuffled,
//! so that making them cannot warm anything for one class only; every path is checked on one
//! input of each class (valid decrypts, invalid is the opaque error) before any time is kept.
use crate::bench::tsc::Tsc;
use crate::bench::welch::{self, LeakTest};
use crate::error::{Error, Result};
use pairs::{check_path, input};
use parcrypt::hazmat::kernel::PrivateKernel;
use parcrypt::hazmat::textbook::PrivateOp;
use parcrypt::rsa::keys::{DEFAULT_E, MAX_MODULUS_BITS, RsaPrivateKey};
use parcrypt::rsa::oaep::{self, OaepParams};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::time::Instant;
use zeroize::Zeroizing;

mod pairs;
pub use pairs::{KEY_CANDIDATES, Pair, key_pair, weights};

/// An OAEP decryption as the leak test calls it: key, ciphertext, parameters.
pub type DecryptFn = fn(&RsaPrivateKey, &[u8], &OaepParams) -> Result<Zeroizing<Vec<u8>>>;

/// A decryption path the leak test can measure.
#[derive(Clone, Copy, Debug)]
pub struct DecryptPath {
    /// Its name on the command line and in the records.
    pub name: &'static str,
    /// What it is, for `--help` and the table's notes.
    pub about: &'static str,
    /// The decryption.
    pub decrypt: DecryptFn,
    /// The private-key kernel it runs on (`None`: the key's own, `auto` unless set).
    pub kernel: Option<PrivateKernel>,
}

/// The default private-key operation ([`oaep::CtOp::default`], what `rsa decrypt` runs).
fn default_path(key: &RsaPrivateKey, ct: &[u8], params: &OaepParams) -> DecryptResult {
    Ok(oaep::decrypt_with(key, ct, params, oaep::CtOp::default())?)
}

fn old_vartime_path(key: &RsaPrivateKey, ct: &[u8], params: &OaepParams) -> DecryptResult {
    Ok(oaep::decrypt_with_vartime(
        key,
        ct,
        params,
        PrivateOp::CrtConstTime,
    )?)
}

type DecryptResult = Result<Zeroizing<Vec<u8>>>;

/// The paths, the default first. A new private-key kernel is one more entry.
pub const PATHS: [DecryptPath; 2] = [
    DecryptPath {
        name: "default",
        about: "what `rsa decrypt` runs: blinded CRT on the best constant-time Montgomery \
                kernel of this CPU, unblinding and I2OSP on fixed-length limbs, one error for \
                every failure",
        decrypt: default_path,
        kernel: None,
    },
    DecryptPath {
        name: "old-vartime",
        about: "the decryption before issue 20: blinded CRT with mpz_powm_sec, GMP's \
                unblinding, then variable-length I2OSP (significant_digits + write_digits) and \
                distinct errors",
        decrypt: old_vartime_path,
        kernel: Some(PrivateKernel::GmpSec),
    },
];

/// The path called `name`, or a usage error listing them.
pub fn path(name: &str) -> Result<DecryptPath> {
    PATHS
        .iter()
        .find(|p| p.name == name)
        .copied()
        .ok_or_else(|| {
            let names: Vec<&str> = PATHS.iter().map(|p| p.name).collect();
            Error::InvalidParameter(format!(
                "unknown decryption path '{name}' (known: {})",
                names.join(", ")
            ))
        })
}

/// What to measure.
#[derive(Clone, Debug)]
pub struct LeakPlan {
    /// Modulus size of `padding` and `y-zero` (even, for two primes of equal size).
    pub bits: u32,
    /// Modulus size of `y-zero-odd` (not a multiple of 64).
    pub odd_bits: u32,
    /// Decryptions per class for every pair and path.
    pub samples: usize,
    /// The class pairs.
    pub pairs: Vec<Pair>,
    /// The decryption paths.
    pub paths: Vec<DecryptPath>,
    /// dudect crop levels ([`welch::crop_percentiles`]).
    pub crops: usize,
    /// Seed of the keys, the inputs and their order.
    pub seed: u64,
}

impl LeakPlan {
    /// Checks sizes and counts: 800 to 16384 bits (OAEP-SHA-256 of the valid class's 32-byte
    /// message needs 98 bytes), even (two primes of equal size), an odd size that is not a
    /// multiple of 64, at least two samples per class, a pair and a path.
    pub fn check(&self) -> Result<()> {
        for (flag, bits) in [("--bits", self.bits), ("--odd-bits", self.odd_bits)] {
            if !(800..=MAX_MODULUS_BITS).contains(&bits) || bits % 2 != 0 {
                return Err(Error::InvalidParameter(format!(
                    "{flag} must be an even number of bits in 800..={MAX_MODULUS_BITS}, got {bits}"
                )));
            }
        }
        if self.pairs.contains(&Pair::YZeroOdd) && self.odd_bits % 64 == 0 {
            return Err(Error::InvalidParameter(format!(
                "--odd-bits must not be a multiple of 64 (the point of y-zero-odd), got {}",
                self.odd_bits
            )));
        }
        if self.samples < 2 {
            return Err(Error::InvalidParameter(format!(
                "at least 2 samples per class are needed, got {}",
                self.samples
            )));
        }
        if self.pairs.is_empty() || self.paths.is_empty() {
            return Err(Error::InvalidParameter(
                "no class pair or no decryption path".into(),
            ));
        }
        Ok(())
    }
}

/// One pair on one path; the field names are the JSON/CSV columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LeakRecord {
    /// The class pair.
    pub pair: Pair,
    /// The decryption path.
    pub path: String,
    /// Modulus size.
    pub bits: u32,
    /// Class 0, in words.
    pub class_0: String,
    /// Class 1, in words.
    pub class_1: String,
    /// Decryptions timed in class 0 and class 1.
    pub samples_0: usize,
    /// See `samples_0`.
    pub samples_1: usize,
    /// The largest |t| over the uncropped test and every crop level.
    pub max_abs_t: f64,
    /// That test's t, with its sign (negative: class 1 slower).
    pub t: f64,
    /// Its crop level (fraction of all samples kept, fastest first); `null`: uncropped.
    pub crop: Option<f64>,
    /// dudect's threshold, 4.5.
    pub threshold: f64,
    /// `max_abs_t` >= `threshold`.
    pub leak: bool,
    /// The smallest difference of mean times (in `unit`) these samples would flag: 4.5 times
    /// the smallest standard error over the crop levels. "No leak found" says nothing about
    /// leaks below it.
    pub resolution: Option<f64>,
    /// Median time of class 0 and class 1, in `unit`.
    pub median_0: f64,
    /// See `median_0`.
    pub median_1: f64,
    /// `tsc-ticks` (invariant TSC) or `ns` (monotonic clock).
    pub unit: String,
    /// Wall-clock seconds the pair took on this path, inputs included.
    pub wall_s: f64,
}

/// Inputs made, then timed, per batch.
const BATCH: usize = 1000;
/// Decryptions run and dropped before the timed ones, per pair and path.
const WARMUP: usize = 200;
/// The message of the valid class: 32 random bytes, a typical wrapped key.
const MESSAGE_LEN: usize = 32;

/// A clock for single decryptions: the TSC where invariant, else `Instant`.
struct Timer {
    tsc: Option<Tsc>,
    epoch: Instant,
}

impl Timer {
    fn new() -> Self {
        Self {
            tsc: Tsc::detect(),
            epoch: Instant::now(),
        }
    }

    fn unit(&self) -> &'static str {
        if self.tsc.is_some() {
            "tsc-ticks"
        } else {
            "ns"
        }
    }

    #[inline]
    fn now(&self) -> u64 {
        match &self.tsc {
            Some(t) => t.now(),
            None => self.epoch.elapsed().as_nanos() as u64,
        }
    }
}

/// Times `samples` decryptions of each class of `pair` with `path`, interleaved in random order;
/// class i runs under `keys[i]` (the same key twice but for the `keys` pair); `tick` is told of
/// every batch done.
///
/// For `keys`, each decryption runs on a fresh copy of its class's key with its kernel built
/// again (untimed), made while blocks of random sizes are held ([`scatter`]): the copy lands
/// at addresses drawn the same way for both classes, so a difference of placement (a 512-bit
/// load across a cache line or not: two copies of one key differed by 0.4 % of the time on
/// the IFMA kernel) is noise in both classes, not a difference between them. Fixed copies
/// would not do: the keys' integers differ in limb count by their values, so the allocator
/// would give each key its own addresses.
fn measure(
    path: &DecryptPath,
    pair: Pair,
    keys: [&RsaPrivateKey; 2],
    samples: usize,
    timer: &Timer,
    rng: &mut rand_chacha::ChaCha20Rng,
    mut tick: impl FnMut(usize),
) -> Result<Vec<(bool, f64)>> {
    let params = OaepParams::default();
    let on_kernel = |key: &RsaPrivateKey| -> Result<RsaPrivateKey> {
        let mut k = key.clone();
        k.set_kernel(path.kernel.unwrap_or(key.kernel()))?;
        Ok(k)
    };
    // One copy when both classes share the key: two copies would sit at different addresses,
    // and the classes would differ in placement (a 512-bit load across a cache line or not).
    let first = on_kernel(keys[0])?;
    let second = if std::ptr::eq(keys[0], keys[1]) {
        None
    } else {
        Some(on_kernel(keys[1])?)
    };
    let key_of = |one: bool| {
        if one {
            second.as_ref().unwrap_or(&first)
        } else {
            &first
        }
    };
    let fresh = pair == Pair::Keys;
    check_path(path, pair, [key_of(false), key_of(true)], &params, rng)?;
    let decrypt = path.decrypt;
    for _ in 0..WARMUP.min(samples) {
        let one = rng.r#gen();
        let ct = input(pair, one, key_of(one), &params, rng)?;
        drop(black_box(decrypt(key_of(one), black_box(&ct), &params)));
    }
    let mut times = Vec::with_capacity(2 * samples);
    let mut left = [samples; 2];
    while left[0] + left[1] > 0 {
        let take = [left[0].min(BATCH / 2), left[1].min(BATCH / 2)];
        let mut classes: Vec<bool> = std::iter::repeat_n(false, take[0])
            .chain(std::iter::repeat_n(true, take[1]))
            .collect();
        classes.shuffle(rng);
        let inputs = classes
            .iter()
            .map(|&one| input(pair, one, key_of(one), &params, rng).map(|ct| (one, ct)))
            .collect::<Result<Vec<_>>>()?;
        for (one, ct) in &inputs {
            let spacers = if fresh { scatter(rng) } else { Vec::new() };
            let copy = if fresh {
                Some(on_kernel(key_of(*one))?)
            } else {
                None
            };
            let key = copy.as_ref().unwrap_or(key_of(*one));
            let start = timer.now();
            // The result is dropped inside the timed region: an accepted message and a
            // refused one both free their buffer there.
            drop(black_box(decrypt(key, black_box(ct), &params)));
            let end = timer.now();
            times.push((*one, end.wrapping_sub(start) as f64));
            drop(spacers);
        }
        left = [left[0] - take[0], left[1] - take[1]];
        tick(inputs.len());
    }
    Ok(times)
}

/// Blocks of random sizes held while a fresh key copy is made, so that the copy lands at
/// addresses drawn the same way for both classes (see [`measure`]).
fn scatter<R: Rng>(rng: &mut R) -> Vec<Vec<u64>> {
    (0..rng.gen_range(0..24))
        .map(|_| vec![0u64; rng.gen_range(1..80)])
        .collect()
}

fn median(times: &[(bool, f64)], class: bool) -> f64 {
    let mut v: Vec<f64> = times.iter().filter(|t| t.0 == class).map(|t| t.1).collect();
    v.sort_by(f64::total_cmp);
    crate::bench::stats::median_of_sorted(&v)
}

/// The record of one pair on one path from its times.
pub fn record(
    pair: Pair,
    path: &str,
    bits: u32,
    times: &[(bool, f64)],
    crops: usize,
    unit: &str,
    wall_s: f64,
) -> LeakRecord {
    let test: LeakTest = welch::leak_test(times, &welch::crop_percentiles(crops));
    let max = test.max();
    let [class_0, class_1] = pair.classes();
    LeakRecord {
        pair,
        path: path.to_string(),
        bits,
        class_0: class_0.into(),
        class_1: class_1.into(),
        samples_0: test.counts[0],
        samples_1: test.counts[1],
        max_abs_t: test.max_abs_t(),
        t: max.and_then(|c| c.t).unwrap_or(0.0),
        crop: max.and_then(|c| c.percentile),
        threshold: welch::THRESHOLD,
        leak: test.leaks(),
        resolution: test.resolution(),
        median_0: median(times, false),
        median_1: median(times, true),
        unit: unit.into(),
        wall_s,
    }
}

/// Runs the plan: the keys from the seed, then every pair on every path in turn. `progress`
/// gets (decryptions done, decryptions in all, label).
pub fn run(
    plan: &LeakPlan,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<LeakRecord>> {
    plan.check()?;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(plan.seed);
    let e = Integer::from(DEFAULT_E);
    let key = RsaPrivateKey::generate_vartime(plan.bits, &e, &mut rng)?;
    let odd_key = if plan.pairs.contains(&Pair::YZeroOdd) {
        Some(RsaPrivateKey::generate_vartime(
            plan.odd_bits,
            &e,
            &mut rng,
        )?)
    } else {
        None
    };
    let two_keys = if plan.pairs.contains(&Pair::Keys) {
        Some(key_pair(plan.bits, &mut rng)?)
    } else {
        None
    };
    let timer = Timer::new();
    let total = plan.pairs.len() * plan.paths.len() * 2 * plan.samples;
    let mut done = 0;
    let mut records = Vec::new();
    for &pair in &plan.pairs {
        let keys = match pair {
            Pair::YZeroOdd => {
                let odd = odd_key.as_ref().expect("made when the pair is asked");
                [odd, odd]
            }
            Pair::Keys => {
                let [a, b] = two_keys.as_ref().expect("made when the pair is asked");
                [a, b]
            }
            Pair::Padding | Pair::YZero => [&key, &key],
        };
        for path in &plan.paths {
            let label = format!("{} on {}", pair.name(), path.name);
            progress(done, total, &label);
            let started = Instant::now();
            let times = measure(path, pair, keys, plan.samples, &timer, &mut rng, |n| {
                done += n;
                progress(done, total, &label);
            })?;
            let mut r = record(
                pair,
                path.name,
                keys[0].public().bits(),
                &times,
                plan.crops,
                timer.unit(),
                started.elapsed().as_secs_f64(),
            );
            if pair == Pair::Keys {
                let w = weights(keys);
                r.class_0 = format!("{} ({} set bits)", r.class_0, w[0]);
                r.class_1 = format!("{} ({} set bits)", r.class_1, w[1]);
            }
            records.push(r);
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests;
