//! The timing-leak test of RSA-OAEP decryption (issue 20), dudect's method: two classes of
//! ciphertexts, decrypted one at a time in a random interleaved order, each decryption timed
//! (TSC where invariant, else the monotonic clock), and the two classes' times compared by
//! Welch's t-test with dudect's cropping ([`crate::bench::welch`]). |t| above 4.5 says the
//! decryption's time tells the classes apart.
//!
//! The class pairs ([`Pair`]) are the questions Manger's and the Marvin attacks ask:
//! - `padding`: valid OAEP ciphertexts against invalid ones (Y = 0, but DB's lHash wrong);
//! - `y-zero`: the encoded message's first byte Y = 0 against Y ≠ 0, both invalid — crafted by
//!   choosing EM and encrypting it with the public key;
//! - `y-zero-odd`: the same on a key whose modulus length is not a multiple of 64 bits (2040
//!   by default), where EM's top limb is partly empty and a leading zero byte is more likely to
//!   change how many limbs or bytes a variable-length conversion handles.
//!
//! The decryption measured is a parameter ([`DecryptPath`], listed in [`PATHS`]): the default
//! path of `rsa decrypt` and the old variable-time one; another kernel is one more entry.
//! Inputs are made in batches before they are timed (untimed), half of each class, shuffled,
//! so that making them cannot warm anything for one class only; every path is checked on one
//! input of each class (valid decrypts, invalid is the opaque error) before any time is kept.
use crate::bench::tsc::Tsc;
use crate::bench::welch::{self, LeakTest};
use crate::bignum::{from_be_bytes, to_be_bytes_vartime};
use crate::error::{Error, Result};
use crate::rsa::kernel::PrivateKernel;
use crate::rsa::keys::{DEFAULT_E, MAX_MODULUS_BITS, RsaPrivateKey};
use crate::rsa::oaep::{self, OaepParams};
use crate::rsa::textbook::{self, PrivateOp};
use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::time::Instant;
use zeroize::Zeroizing;

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

/// The default private-key operation ([`PrivateOp::default`], what `rsa decrypt` runs).
fn default_path(key: &RsaPrivateKey, ct: &[u8], params: &OaepParams) -> DecryptResult {
    oaep::decrypt_with(key, ct, params, PrivateOp::default())
}

fn old_vartime_path(key: &RsaPrivateKey, ct: &[u8], params: &OaepParams) -> DecryptResult {
    oaep::decrypt_with_vartime(key, ct, params, PrivateOp::CrtConstTime)
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

/// A pair of input classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Pair {
    /// Valid OAEP against invalid padding (Y = 0, lHash wrong).
    Padding,
    /// Y = 0 against Y ≠ 0 (both invalid), on the `--bits` key.
    YZero,
    /// Y = 0 against Y ≠ 0 on the key whose size is not a multiple of 64 bits.
    YZeroOdd,
}

impl Pair {
    /// Every pair, in order.
    pub const ALL: [Pair; 3] = [Pair::Padding, Pair::YZero, Pair::YZeroOdd];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Pair::Padding => "padding",
            Pair::YZero => "y-zero",
            Pair::YZeroOdd => "y-zero-odd",
        }
    }

    /// What its two classes are.
    pub fn classes(self) -> [&'static str; 2] {
        match self {
            Pair::Padding => ["valid OAEP", "invalid (Y = 0, bad lHash)"],
            Pair::YZero | Pair::YZeroOdd => ["Y = 0 (invalid)", "Y != 0 (invalid)"],
        }
    }
}

impl std::str::FromStr for Pair {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Pair::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Pair::ALL.iter().map(|p| p.name()).collect();
                Error::InvalidParameter(format!(
                    "unknown class pair '{s}' (known: {})",
                    names.join(", ")
                ))
            })
    }
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
    /// message needs 98 bytes), even (two primes of equal size), an odd size that is not a multiple of 64, at least two samples per
    /// class, a pair and a path.
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
    /// `max_abs_t` > `threshold`.
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

/// A ciphertext of the class `one` (class 1 if true) of `pair` under `key`.
fn input<R: RngCore + rand::CryptoRng>(
    pair: Pair,
    one: bool,
    key: &RsaPrivateKey,
    params: &OaepParams,
    rng: &mut R,
) -> Result<Vec<u8>> {
    match (pair, one) {
        (Pair::Padding, false) => {
            let mut msg = [0u8; MESSAGE_LEN];
            rng.fill_bytes(&mut msg);
            oaep::encrypt_with(key.public(), &msg, params, rng)
        }
        (Pair::Padding, true) | (Pair::YZero | Pair::YZeroOdd, false) => crafted(key, 0, rng),
        (Pair::YZero | Pair::YZeroOdd, true) => {
            let y = rng.gen_range(1..=255u8);
            crafted(key, y, rng)
        }
    }
}

/// The ciphertext of a random EM whose first byte is `y` (drawn again, with its rest, until
/// EM < n): invalid OAEP with overwhelming probability (lHash would have to match).
fn crafted<R: RngCore>(key: &RsaPrivateKey, y: u8, rng: &mut R) -> Result<Vec<u8>> {
    let k = key.public().size_bytes();
    let n = key.public().n();
    let mut em = vec![0u8; k];
    let mut y = y;
    loop {
        rng.fill_bytes(&mut em);
        em[0] = y;
        let m = from_be_bytes(&em);
        if m < *n {
            let c = textbook::encrypt(key.public(), &m)?;
            return Ok(to_be_bytes_vartime(&c, k).expect("c < n fits in k bytes"));
        }
        // Y above n's top byte can never fit: draw Y again too.
        if y != 0 {
            y = rng.gen_range(1..=255u8);
        }
    }
}

/// Each path must decrypt a valid input and refuse an invalid one with the opaque error before
/// its times mean anything.
fn check_path(
    path: &DecryptPath,
    pair: Pair,
    key: &RsaPrivateKey,
    params: &OaepParams,
    rng: &mut rand_chacha::ChaCha20Rng,
) -> Result<()> {
    for one in [false, true] {
        let ct = input(pair, one, key, params, rng)?;
        let got = (path.decrypt)(key, &ct, params);
        let expected_ok = pair == Pair::Padding && !one;
        match (&got, expected_ok) {
            (Ok(m), true) if m.len() == MESSAGE_LEN => {}
            (Err(Error::DecryptionError), false) => {}
            _ => {
                return Err(Error::internal(format!(
                    "path {} on pair {} class {} gave {:?}",
                    path.name,
                    pair.name(),
                    u8::from(one),
                    got.map(|m| m.len())
                )));
            }
        }
    }
    Ok(())
}

/// Times `samples` decryptions of each class of `pair` with `path`, interleaved in random order;
/// `tick` is told of every batch done.
fn measure(
    path: &DecryptPath,
    pair: Pair,
    key: &RsaPrivateKey,
    samples: usize,
    timer: &Timer,
    rng: &mut rand_chacha::ChaCha20Rng,
    mut tick: impl FnMut(usize),
) -> Result<Vec<(bool, f64)>> {
    let params = OaepParams::default();
    let on_kernel;
    let key = match path.kernel {
        Some(kernel) => {
            let mut k = key.clone();
            k.set_kernel(kernel)?;
            on_kernel = k;
            &on_kernel
        }
        None => key,
    };
    check_path(path, pair, key, &params, rng)?;
    let decrypt = path.decrypt;
    for _ in 0..WARMUP.min(samples) {
        let ct = input(pair, rng.r#gen(), key, &params, rng)?;
        drop(black_box(decrypt(key, black_box(&ct), &params)));
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
            .map(|&one| input(pair, one, key, &params, rng).map(|ct| (one, ct)))
            .collect::<Result<Vec<_>>>()?;
        for (one, ct) in &inputs {
            let start = timer.now();
            // The result is dropped inside the timed region: an accepted message and a
            // refused one both free their buffer there.
            drop(black_box(decrypt(key, black_box(ct), &params)));
            let end = timer.now();
            times.push((*one, end.wrapping_sub(start) as f64));
        }
        left = [left[0] - take[0], left[1] - take[1]];
        tick(inputs.len());
    }
    Ok(times)
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
    let key = RsaPrivateKey::generate(plan.bits, &e, &mut rng)?;
    let odd_key = if plan.pairs.contains(&Pair::YZeroOdd) {
        Some(RsaPrivateKey::generate(plan.odd_bits, &e, &mut rng)?)
    } else {
        None
    };
    let timer = Timer::new();
    let total = plan.pairs.len() * plan.paths.len() * 2 * plan.samples;
    let mut done = 0;
    let mut records = Vec::new();
    for &pair in &plan.pairs {
        let key = match pair {
            Pair::YZeroOdd => odd_key.as_ref().expect("made when the pair is asked"),
            _ => &key,
        };
        for path in &plan.paths {
            let label = format!("{} on {}", pair.name(), path.name);
            progress(done, total, &label);
            let started = Instant::now();
            let times = measure(path, pair, key, plan.samples, &timer, &mut rng, |n| {
                done += n;
                progress(done, total, &label);
            })?;
            records.push(record(
                pair,
                path.name,
                key.public().bits(),
                &times,
                plan.crops,
                timer.unit(),
                started.elapsed().as_secs_f64(),
            ));
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(bits: u32) -> RsaPrivateKey {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        RsaPrivateKey::generate(bits, &Integer::from(DEFAULT_E), &mut rng).unwrap()
    }

    #[test]
    fn the_classes_are_what_they_say() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(6);
        let params = OaepParams::default();
        for bits in [1024, 1000] {
            let key = key(bits);
            let k = key.public().size_bytes();
            for pair in Pair::ALL {
                for one in [false, true] {
                    for _ in 0..20 {
                        let ct = input(pair, one, &key, &params, &mut rng).unwrap();
                        assert_eq!(ct.len(), k);
                        let em =
                            textbook::decrypt(&key, &from_be_bytes(&ct), PrivateOp::CrtVartime)
                                .unwrap();
                        let em = to_be_bytes_vartime(&em, k).unwrap();
                        let y_zero = em[0] == 0;
                        let valid = oaep::decrypt_with(&key, &ct, &params, PrivateOp::CrtVartime);
                        match (pair, one) {
                            (Pair::Padding, false) => assert_eq!(valid.unwrap().len(), 32),
                            (Pair::Padding, true) => {
                                assert!(y_zero && valid.is_err())
                            }
                            (_, false) => assert!(y_zero && valid.is_err()),
                            (_, true) => assert!(!y_zero && valid.is_err()),
                        }
                    }
                }
            }
        }
    }

    /// The default path, 20 µs slower when EM's first byte is 0: a planted Manger oracle.
    fn planted(key: &RsaPrivateKey, ct: &[u8], params: &OaepParams) -> DecryptResult {
        let result = default_path(key, ct, params);
        let em = textbook::decrypt(key, &from_be_bytes(ct), PrivateOp::CrtVartime)?;
        if em.significant_bits() as usize <= 8 * (key.public().size_bytes() - 1) {
            let start = Instant::now();
            while start.elapsed().as_micros() < 20 {
                std::hint::spin_loop();
            }
        }
        result
    }

    #[test]
    fn a_leak_planted_in_the_decryption_is_found_through_the_whole_chain() {
        let key = key(1024);
        let path = DecryptPath {
            name: "planted",
            about: "default, 20 µs more when Y = 0",
            decrypt: planted,
            kernel: None,
        };
        let timer = Timer::new();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let mut batches = 0;
        let times = measure(&path, Pair::YZero, &key, 1500, &timer, &mut rng, |_| {
            batches += 1
        })
        .unwrap();
        assert_eq!(batches, 3);
        let r = record(Pair::YZero, "planted", 1024, &times, 10, timer.unit(), 0.0);
        assert!(r.leak, "{r:?}");
        // Class 0 (Y = 0) is the slow one.
        assert!(r.t > 0.0 && r.median_0 > r.median_1, "{r:?}");
        assert!(r.resolution.unwrap() < r.median_0 - r.median_1, "{r:?}");
    }

    #[test]
    fn paths_and_pairs_are_found_by_name_and_plans_checked() {
        assert_eq!(path("default").unwrap().name, "default");
        assert_eq!(PATHS[0].name, "default");
        let err = path("fast").unwrap_err().to_string();
        assert!(err.contains("default, old-vartime"), "{err}");
        assert_eq!("y-zero-odd".parse::<Pair>().unwrap(), Pair::YZeroOdd);
        assert!("y".parse::<Pair>().is_err());
        let plan = LeakPlan {
            bits: 1024,
            odd_bits: 1000,
            samples: 10,
            pairs: Pair::ALL.to_vec(),
            paths: PATHS.to_vec(),
            crops: 10,
            seed: 1,
        };
        assert!(plan.check().is_ok());
        for bad in [
            LeakPlan {
                odd_bits: 1024,
                ..plan.clone()
            },
            LeakPlan {
                bits: 512,
                ..plan.clone()
            },
            LeakPlan {
                bits: 1025,
                ..plan.clone()
            },
            LeakPlan {
                samples: 1,
                ..plan.clone()
            },
            LeakPlan {
                pairs: vec![],
                ..plan.clone()
            },
        ] {
            assert!(matches!(bad.check(), Err(Error::InvalidParameter(_))));
        }
        // A multiple of 64 is fine when y-zero-odd is not asked for.
        let even_only = LeakPlan {
            odd_bits: 1024,
            pairs: vec![Pair::Padding],
            ..plan
        };
        assert!(even_only.check().is_ok());
    }

    #[test]
    fn a_small_run_gives_a_record_per_pair_and_path() {
        let plan = LeakPlan {
            bits: 1024,
            odd_bits: 1000,
            samples: 30,
            pairs: Pair::ALL.to_vec(),
            paths: PATHS.to_vec(),
            crops: 5,
            seed: 3,
        };
        let mut last = (0, 0);
        let records = run(&plan, |done, total, _| last = (done, total)).unwrap();
        assert_eq!(last, (3 * 2 * 60, 3 * 2 * 60));
        assert_eq!(records.len(), 6);
        for r in &records {
            assert_eq!((r.samples_0, r.samples_1), (30, 30));
            assert!(r.max_abs_t.is_finite() && r.median_0 > 0.0 && r.median_1 > 0.0);
            assert_eq!(r.leak, r.max_abs_t > 4.5);
            let bits = if r.pair == Pair::YZeroOdd { 1000 } else { 1024 };
            assert_eq!(r.bits, bits);
        }
        assert_eq!(records[1].path, "old-vartime");
    }
}
