//! RSA private-key latency (issue: "RSA private-key operation in parallel"): one decryption at
//! a time, sequential CRT against CRT with its halves on two threads and multi-prime RSA with
//! one thread per prime, each constant-time form with every kernel asked for (the Montgomery
//! kernels of `bignum::ct` beside GMP's `mpz_powm_sec`, the backend that ran named in each
//! record), optionally beside `openssl speed`'s sign time measured in the same invocation
//! ([`super::openssl`], the peer runner `bench peers` also uses).
//! The energy meter is read around every operation (the methods run interleaved,
//! so each joule lands on its own method); `uj_per_byte` is per byte of the modulus.
use super::openssl::openssl_sign_seconds;
use crate::bench::{Bench, BenchConfig, Seconds, TimingColumns, TimingFields};
use crate::energy::meter::{EnergyFields, EnergyTally, RunMeter};
use crate::error::{Error, Result};
use parcrypt::hazmat::bignum::random_below;
use parcrypt::hazmat::kernel::PrivateKernel;
use parcrypt::hazmat::multiprime::generate_primes_vartime;
use parcrypt::hazmat::textbook::{PrivateOp, decrypt_unchecked};
use parcrypt::rsa::keys::{DEFAULT_E, RsaPrivateKey};
use rand::SeedableRng;
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The private-key methods, in display order. `crt-nocheck` is `crt` without the fault check
/// (the result raised to e and compared with c before it is returned), run beside `crt` to
/// measure what the check costs; it exists only with a constant-time kernel.
pub const METHODS: [&str; 8] = [
    "plain",
    "crt",
    "crt-nocheck",
    "crt-parallel",
    "multiprime-3-seq",
    "multiprime-3",
    "multiprime-4-seq",
    "multiprime-4",
];

/// The methods run when none are named: every one but `crt-nocheck`, which is asked for when
/// the fault check's cost is measured.
pub fn default_methods() -> Vec<String> {
    METHODS
        .iter()
        .filter(|m| **m != "crt-nocheck")
        .map(|m| m.to_string())
        .collect()
}

/// Threads a method uses.
pub fn method_threads(name: &str) -> usize {
    match name {
        "crt-parallel" => 2,
        "multiprime-3" => 3,
        "multiprime-4" => 4,
        _ => 1,
    }
}

/// One result; the field names are the JSON/CSV columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatencyRecord {
    /// Method name.
    pub method: String,
    /// Modulus size.
    pub bits: u32,
    /// Threads used.
    pub threads: usize,
    /// Constant time in every secret: a Montgomery kernel. False for `mpz_powm` and for
    /// `gmp-sec` (`mpz_powm_sec`: constant time in the exponent, variable time in the prime —
    /// GMP's limb-inverse tables are indexed by it).
    pub constant_time: bool,
    /// The kernel asked for (`auto`, `ifma`, `mulx`, `portable`, `gmp-sec`), or `gmp-powm`
    /// for the variable-time forms. Absent in files written before kernels were chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// What ran: the Montgomery backend (`ifma`, `mulx`, `portable`), `gmp-sec` or
    /// `gmp-powm`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// Seconds per private-key operation: median, min, max, runs and every run's time
    /// ([`TimingColumns::RANGE`]).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Operations per second at the median.
    pub ops_per_s: f64,
    /// Sequential CRT's median / this median.
    pub speedup_vs_crt: f64,
    /// `openssl speed` sign time for this size (seconds), when measured.
    pub openssl_sign_s: Option<Seconds>,
    /// This median / OpenSSL's sign time.
    pub vs_openssl: Option<f64>,
    /// Energy of one private-key operation (mean over the measured runs; `energy_j` `null`
    /// without a meter), average power, energy per byte of the modulus (one decrypted block) and
    /// where the figures come from. Single operations are far shorter than the model meter's
    /// 10 ms CPU-time tick: only the mean over many runs means anything.
    #[serde(flatten)]
    pub energy: EnergyFields,
    /// More threads than logical CPUs.
    pub oversubscribed: bool,
}

/// Checks method names.
pub fn check_methods(names: &[String]) -> Result<()> {
    for n in names {
        if !METHODS.contains(&n.as_str()) {
            return Err(Error::InvalidParameter(format!(
                "unknown method '{n}' (known: {})",
                METHODS.join(", ")
            )));
        }
    }
    Ok(())
}

/// Runs the latency benchmark ([`Latency`] says what). Energy is read with the `auto` meter
/// ([`RunMeter::auto`]).
pub fn run(
    what: &Latency<'_>,
    progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<LatencyRecord>> {
    let mut meter = RunMeter::auto();
    run_with_meter(what, &mut meter, progress)
}

/// The label of the variable-time forms' exponentiation.
pub const GMP_POWM: &str = "gmp-powm";

/// The arguments of [`run`], for [`run_with_meter`].
#[derive(Debug, Clone, Copy)]
pub struct Latency<'a> {
    /// Modulus sizes.
    pub bits: &'a [u32],
    /// Methods ([`METHODS`]).
    pub names: &'a [String],
    /// Constant-time forms (else `mpz_powm`, variable-time).
    pub constant_time: bool,
    /// Kernels of the constant-time forms, each run beside the others.
    pub kernels: &'a [PrivateKernel],
    /// Seconds of `openssl speed` per size (0: none).
    pub openssl_seconds: u32,
    /// Seed of the keys and messages.
    pub seed: u64,
    /// Repetition rules.
    pub config: BenchConfig,
}

/// [`run`] with a given meter ([`RunMeter::none`] for no energy figures).
pub fn run_with_meter(
    what: &Latency<'_>,
    meter: &mut RunMeter,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<LatencyRecord>> {
    let &Latency {
        bits,
        names,
        constant_time,
        kernels,
        openssl_seconds,
        seed: _,
        config,
    } = what;
    check_methods(names)?;
    if constant_time && kernels.is_empty() {
        return Err(Error::InvalidParameter("no kernel to run".into()));
    }
    let bench = Bench::new(config)?;
    let mut records = Vec::new();
    let configs = method_kernels(names, constant_time, kernels);
    for (i, &b) in bits.iter().enumerate() {
        progress(i, bits.len(), &format!("{b}-bit keys"));
        let keys = SizeKeys::new(b, what)?;
        keys.check(&configs)?;
        let mut tallies = vec![EnergyTally::default(); configs.len()];
        let mut failures = crate::bench::Failures::new();
        let ms = bench.run_interleaved_by(configs.len(), |i| {
            let ((took, out), energy) = meter.measure(|| {
                let started = Instant::now();
                let out = std::hint::black_box(keys.op(&configs[i]));
                (started.elapsed().as_secs_f64(), out)
            });
            failures.check(&configs[i].0, out == keys.m);
            tallies[i].push(energy);
            took
        });
        failures.result()?;
        let openssl = (openssl_seconds > 0)
            .then(|| openssl_sign_seconds(b, openssl_seconds))
            .flatten();
        let timed = SizeTimed {
            bits: b,
            configs: &configs,
            ms: &ms,
            tallies: &tallies,
            openssl,
            warmup_runs: config.warmup_runs as usize,
        };
        records.extend(timed.records(&keys)?);
    }
    progress(bits.len(), bits.len(), "done");
    Ok(records)
}

/// A method and the kernel it runs with (`None`: `mpz_powm`, variable-time).
type MethodKernel = (String, Option<PrivateKernel>);

/// Every (method, kernel) pair, sequential CRT first if it was not asked for; `plain` and the
/// variable-time forms have no kernel.
fn method_kernels(
    names: &[String],
    constant_time: bool,
    kernels: &[PrivateKernel],
) -> Vec<MethodKernel> {
    let mut names: Vec<String> = names.to_vec();
    if !names.iter().any(|n| n == "crt") {
        names.insert(0, "crt".into());
    }
    names
        .iter()
        .filter(|n| constant_time || n.as_str() != "crt-nocheck")
        .flat_map(|n| {
            if constant_time && n != "plain" {
                kernels
                    .iter()
                    .map(|k| (n.clone(), Some(*k)))
                    .collect::<Vec<_>>()
            } else {
                vec![(n.clone(), None)]
            }
        })
        .collect()
}

/// One modulus size's keys (two-prime, three-prime, four-prime), each again with every kernel
/// chosen, a random message and its encryption under each key.
struct SizeKeys {
    key2: RsaPrivateKey,
    key3: RsaPrivateKey,
    key4: RsaPrivateKey,
    keyed: Vec<(PrivateKernel, RsaPrivateKey, RsaPrivateKey, RsaPrivateKey)>,
    m: Integer,
    c2: Integer,
    c3: Integer,
    c4: Integer,
}

impl SizeKeys {
    fn new(b: u32, what: &Latency<'_>) -> Result<Self> {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(what.seed ^ u64::from(b));
        let e = Integer::from(DEFAULT_E);
        let key2 = RsaPrivateKey::generate_vartime(b, &e, &mut rng)?;
        // Three and four primes at any size (beyond OpenSSL's cap per size, for the study).
        let multi = |u: usize, rng: &mut rand_chacha::ChaCha20Rng| {
            RsaPrivateKey::from_primes_vartime(generate_primes_vartime(b, u, &e, rng)?, e.clone())
        };
        let key3 = multi(3, &mut rng)?;
        let key4 = multi(4, &mut rng)?;
        let m = random_below(&mut rng, key2.public().n());
        let enc = |k: &RsaPrivateKey| parcrypt::hazmat::textbook::encrypt_unchecked(k.public(), &m);
        let (c2, c3, c4) = (enc(&key2), enc(&key3), enc(&key4));
        // The keys with each kernel chosen (an unavailable one is an error here).
        let mut keyed = Vec::new();
        for k in what.kernels.iter().filter(|_| what.constant_time) {
            keyed.push((
                *k,
                key2.clone().with_kernel(*k)?,
                key3.clone().with_kernel(*k)?,
                key4.clone().with_kernel(*k)?,
            ));
        }
        Ok(SizeKeys {
            key2,
            key3,
            key4,
            keyed,
            m,
            c2,
            c3,
            c4,
        })
    }

    fn keys_of(
        &self,
        k: Option<PrivateKernel>,
    ) -> (&RsaPrivateKey, &RsaPrivateKey, &RsaPrivateKey) {
        match k.and_then(|k| self.keyed.iter().find(|x| x.0 == k)) {
            Some((_, a, b, c)) => (a, b, c),
            None => (&self.key2, &self.key3, &self.key4),
        }
    }

    /// One private-key operation of a method with its kernel.
    fn op(&self, (name, kernel): &MethodKernel) -> Integer {
        let (k2, k3, k4) = self.keys_of(*kernel);
        let (op_crt, op_par) = if kernel.is_some() {
            (PrivateOp::CrtConstTime, PrivateOp::CrtConstTimeParallel)
        } else {
            (PrivateOp::CrtVartime, PrivateOp::CrtParallelVartime)
        };
        let (c2, c3, c4) = (&self.c2, &self.c3, &self.c4);
        match name.as_str() {
            "plain" => decrypt_unchecked(k2, c2, PrivateOp::PlainVartime),
            "crt" => decrypt_unchecked(k2, c2, op_crt),
            "crt-nocheck" => k2.ct_crt().private_op_integer_unchecked(c2, false),
            "crt-parallel" => decrypt_unchecked(k2, c2, op_par),
            "multiprime-3-seq" => decrypt_unchecked(k3, c3, op_crt),
            "multiprime-3" => decrypt_unchecked(k3, c3, op_par),
            "multiprime-4-seq" => decrypt_unchecked(k4, c4, op_crt),
            _ => decrypt_unchecked(k4, c4, op_par),
        }
    }

    /// What ran, for the record: the Montgomery backend, gmp-sec or gmp-powm.
    fn backend_of(&self, (name, kernel): &MethodKernel) -> String {
        let Some(k) = kernel else {
            return GMP_POWM.to_string();
        };
        let (k2, k3, k4) = self.keys_of(Some(*k));
        let key = match name.as_str() {
            n if n.starts_with("multiprime-3") => k3,
            n if n.starts_with("multiprime-4") => k4,
            _ => k2,
        };
        key.ct_crt().backend_name().to_string()
    }

    /// Checks one untimed operation of every configuration.
    fn check(&self, configs: &[MethodKernel]) -> Result<()> {
        for cfg in configs {
            if self.op(cfg) != self.m {
                return Err(Error::internal(format!(
                    "{} ({:?}) decrypted wrongly",
                    cfg.0, cfg.1
                )));
            }
        }
        Ok(())
    }
}

/// What one modulus size's timed runs gave.
struct SizeTimed<'a> {
    bits: u32,
    configs: &'a [MethodKernel],
    ms: &'a [crate::bench::Measurement],
    tallies: &'a [EnergyTally],
    openssl: Option<Seconds>,
    warmup_runs: usize,
}

impl SizeTimed<'_> {
    /// One record per configuration; sequential CRT with the same kernel is the baseline.
    fn records(&self, keys: &SizeKeys) -> Result<Vec<LatencyRecord>> {
        let b = self.bits;
        let summaries =
            crate::bench::summaries(self.ms).ok_or_else(|| Error::internal("no samples"))?;
        let mut records = Vec::new();
        for (j, (((cfg, s), tally), mm)) in self
            .configs
            .iter()
            .zip(&summaries)
            .zip(self.tallies)
            .zip(self.ms)
            .enumerate()
        {
            let t_crt = self
                .configs
                .iter()
                .position(|c| c.0 == "crt" && c.1 == cfg.1)
                .map_or(summaries[j].median, |p| summaries[p].median);
            let n = &cfg.0;
            let threads = method_threads(n);
            let block = f64::from(b.div_ceil(8));
            let energy = tally.fields(self.warmup_runs, Some(block));
            records.push(LatencyRecord {
                method: n.clone(),
                bits: b,
                threads,
                constant_time: cfg.1.is_some_and(|k| k != PrivateKernel::GmpSec),
                kernel: Some(cfg.1.map_or(GMP_POWM, |k| k.name()).to_string()),
                backend: Some(keys.backend_of(cfg)),
                timing: TimingFields::new(s, mm.samples.clone(), TimingColumns::RANGE),
                ops_per_s: 1.0 / s.median,
                speedup_vs_crt: t_crt / s.median,
                openssl_sign_s: self.openssl,
                vs_openssl: self.openssl.map(|o| s.median / o),
                oversubscribed: crate::bench::oversubscribed(threads),
                energy,
            });
        }
        Ok(records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_runs_and_crt_is_the_baseline() {
        let names: Vec<String> = METHODS.iter().map(|s| s.to_string()).collect();
        let config = BenchConfig {
            warmup_runs: 0,
            ..BenchConfig::exact(1)
        };
        let kernels = [PrivateKernel::Auto, PrivateKernel::GmpSec];
        let what = Latency {
            bits: &[1024],
            names: &names,
            constant_time: true,
            kernels: &kernels,
            openssl_seconds: 0,
            seed: 3,
            config,
        };
        let recs = run(&what, |_, _, _| {}).unwrap();
        // plain once, every other method with each kernel.
        assert_eq!(recs.len(), 1 + 2 * (METHODS.len() - 1));
        for k in ["auto", "gmp-sec"] {
            let crt = recs
                .iter()
                .find(|r| r.method == "crt" && r.kernel.as_deref() == Some(k))
                .unwrap();
            assert_eq!(crt.speedup_vs_crt, 1.0);
        }
        let best = parcrypt::hazmat::bignum::ct::Backend::best_for(512).name();
        for r in &recs {
            let want = match r.kernel.as_deref() {
                Some("auto") => best,
                Some("gmp-sec") => "gmp-sec",
                _ => GMP_POWM,
            };
            assert_eq!(r.backend.as_deref(), Some(want), "{r:?}");
            let gmp_sec = r.kernel.as_deref() == Some("gmp-sec");
            assert_eq!(r.constant_time, r.method != "plain" && !gmp_sec, "{r:?}");
        }
        assert!(recs.iter().all(|r| r.openssl_sign_s.is_none()));
        assert_eq!(
            recs.iter()
                .find(|r| r.method == "multiprime-4")
                .unwrap()
                .threads,
            4
        );
        assert!(recs.iter().all(|r| !r.energy.energy_source.is_empty()));
    }

    #[test]
    fn energy_per_operation_comes_from_the_meter() {
        let names: Vec<String> = vec!["crt".into(), "crt-parallel".into()];
        let what = Latency {
            bits: &[512],
            names: &names,
            constant_time: false,
            kernels: &[],
            openssl_seconds: 0,
            seed: 5,
            config: BenchConfig {
                warmup_runs: 1,
                ..BenchConfig::exact(2)
            },
        };
        let fake = crate::energy::meter::FakeMeter::new(2.0, 0.5);
        let mut meter = RunMeter::new(Box::new(fake));
        let recs = run_with_meter(&what, &mut meter, |_, _, _| {}).unwrap();
        for r in &recs {
            assert_eq!(
                (r.energy.energy_j, r.energy.avg_power_w),
                (Some(1.0), Some(2.0))
            );
            assert_eq!(r.energy.uj_per_byte, Some(1e6 / 64.0));
        }
    }

    #[test]
    fn unknown_methods_are_refused() {
        let err = check_methods(&["crt".into(), "fast".into()]).unwrap_err();
        assert!(err.to_string().contains("unknown method 'fast'"));
    }
}
