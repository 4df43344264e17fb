//! The workload a design-space exploration evaluates: a unit of work timed on this machine
//! with 1 and with every available thread, and the scaling model that carries that time to
//! other processors — an Amdahl fit for thread counts, a hardware-thread factor for SMT, and
//! time ∝ 1/f for the clock (PaRSA Figs. 7–10: doubling the clock ≈ halves the time).
use crate::bench::{Bench, BenchConfig, Seconds};
use crate::error::{Error, Result};
use parcrypt::parallel::{Executor, Schedule, ScheduleSpec};
use rand::SeedableRng;
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// The SMT factor derived from PaRSA's Core i3 figures: PaRSA-2 is 47 % faster and PaRSA-4
/// 65 % faster than SeRSA on 2 cores × 2 threads, i.e. an Amdahl serial fraction of 0.058
/// and 3.2 effective cores for 4 threads: each second hardware thread adds ~0.6 of a core
/// (the registry's [`crate::claims::parsa::PAPER_SMT_FACTOR`]).
pub const DEFAULT_HT_FACTOR: f64 = crate::claims::parsa::PAPER_SMT_FACTOR;

/// A measured workload and its scaling model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// `parsa`, `modexp` or `cipher`.
    pub name: String,
    /// What one unit of work is.
    pub unit: String,
    /// Median seconds of one unit on one thread here (measured).
    pub t1_s: Seconds,
    /// Measured (threads, speedup) pairs here, 1 thread first.
    pub speedups: Vec<(usize, f64)>,
    /// Amdahl serial fraction fitted to the largest measured thread count (clamped to [0, 1]).
    pub serial_fraction: f64,
    /// Share of a core a second hardware thread adds.
    pub ht_factor: f64,
    /// This machine's clock, MHz, for time ∝ 1/f (from /proc/cpuinfo, or assumed).
    pub here_mhz: f64,
    /// Where `here_mhz` came from.
    pub here_mhz_source: String,
}

/// The Amdahl serial fraction s with speedup S on n threads: S = 1 / (s + (1 − s)/n).
pub fn amdahl_fraction(speedup: f64, n: usize) -> f64 {
    if n <= 1 || speedup.is_nan() || speedup <= 0.0 {
        return 0.0;
    }
    let n = n as f64;
    ((n / speedup - 1.0) / (n - 1.0)).clamp(0.0, 1.0)
}

/// The clock this machine reports (`cpu MHz` in /proc/cpuinfo), or 2400 MHz assumed.
pub fn here_mhz() -> (f64, String) {
    let text = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    text.lines()
        .filter(|l| l.starts_with("cpu MHz"))
        .filter_map(|l| l.split(':').nth(1)?.trim().parse::<f64>().ok())
        .next()
        .map(|mhz| {
            (
                mhz,
                "/proc/cpuinfo cpu MHz (nominal; no cpufreq here)".to_string(),
            )
        })
        .unwrap_or((2400.0, "assumed 2400 MHz (clock not readable)".to_string()))
}

impl Workload {
    /// Effective cores for `threads` software threads on `cores` cores with `tpc` hardware
    /// threads per core: one per core, then `ht_factor` per extra hardware thread, never more
    /// threads than the hardware runs at once.
    pub fn effective_cores(&self, threads: usize, cores: usize, tpc: usize) -> f64 {
        let threads = threads.min(cores * tpc.max(1)).max(1);
        let first = threads.min(cores) as f64;
        let extra = threads.saturating_sub(cores) as f64;
        first + self.ht_factor * extra
    }

    /// Modelled seconds of one unit on `threads` threads of a `cores` × `tpc` processor at
    /// `mhz`: t1 · (f_here / f) · (s + (1 − s) / n_eff).
    pub fn time(&self, threads: usize, cores: usize, tpc: usize, mhz: f64) -> Seconds {
        let n = self.effective_cores(threads, cores, tpc);
        let s = self.serial_fraction;
        self.t1_s * (self.here_mhz / mhz) * (s + (1.0 - s) / n)
    }
}

/// Workload names.
pub const WORKLOADS: [&str; 3] = ["parsa", "modexp", "cipher"];

/// One unit of a workload, ready to time: what it is, and a closure that runs it once on
/// the `i`-th thread count of the list it was built for and returns the seconds it took
/// (setup such as a thread pool outside the timed region).
struct Unit {
    label: String,
    run: Box<dyn FnMut(usize) -> Result<f64>>,
}

/// Builds the unit of `name` for `threads` (`quick`: the smaller unit).
fn unit(name: &str, threads: &[usize], quick: bool) -> Result<Unit> {
    match name {
        "parsa" => {
            let bits = if quick { 1024 } else { 2048 };
            let n = if quick { 200 } else { 1000 };
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
            let key = parcrypt::rsa::RsaPrivateKey::generate_vartime(
                bits,
                &Integer::from(65537),
                &mut rng,
            )?;
            let msgs = parcrypt::hazmat::batch::messages(key.public(), n, 2);
            let executors = threads
                .iter()
                .map(|&t| Executor::new(t, ScheduleSpec::new(Schedule::Guided, None)?, false))
                .collect::<parcrypt::Result<Vec<_>>>()?;
            Ok(Unit {
                label: format!("{n} {bits}-bit RSA decryptions (CRT), guided"),
                run: Box::new(move |i| {
                    let op = parcrypt::hazmat::batch::Transform::Decrypt(
                        &key,
                        parcrypt::hazmat::textbook::PrivateOp::CrtVartime,
                    );
                    let s = Instant::now();
                    std::hint::black_box(parcrypt::hazmat::batch::parallel(
                        &executors[i],
                        op,
                        &msgs,
                    ));
                    Ok(s.elapsed().as_secs_f64())
                }),
            })
        }
        "modexp" => {
            let bits = if quick { 2048 } else { 4096 };
            let (b, e, m) = parcrypt::modexp::operands(bits, 9);
            let slice = parcrypt::modexp::method("slice")?;
            let threads = threads.to_vec();
            Ok(Unit {
                label: format!("one {bits}-bit exponentiation, slice method"),
                run: Box::new(move |i| {
                    let params = parcrypt::modexp::Params {
                        threads: threads[i],
                        ..Default::default()
                    };
                    let s = Instant::now();
                    std::hint::black_box(
                        parcrypt::modexp::pow_mod_vartime(slice.as_ref(), &b, &e, &m, &params).ok(),
                    );
                    Ok(s.elapsed().as_secs_f64())
                }),
            })
        }
        "cipher" => {
            let size = if quick { 4 << 20 } else { 32 << 20 };
            let bf = parcrypt::cipher::Blowfish::new(&[7u8; 16])?;
            let mut data = vec![0x5au8; size];
            let threads = threads.to_vec();
            Ok(Unit {
                label: format!("{} MiB Blowfish-ECB (PBlock)", size >> 20),
                run: Box::new(move |i| {
                    let pb = parcrypt::cipher::parallel::pblock::PBlock::new(&bf, threads[i])?;
                    let s = Instant::now();
                    std::hint::black_box(pb.encrypt_ecb(&mut data).ok());
                    Ok(s.elapsed().as_secs_f64())
                }),
            })
        }
        other => Err(Error::InvalidParameter(format!(
            "unknown workload '{other}' (expected {})",
            WORKLOADS.join(", ")
        ))),
    }
}

/// Measures `name` on this machine with 1..=`max_threads` threads (`quick`: smaller units):
/// the median of each thread count's runs, one count after the other.
pub fn measure(name: &str, max_threads: usize, quick: bool) -> Result<Workload> {
    let config = BenchConfig {
        warmup_runs: 1,
        min_runs: if quick { 3 } else { 7 },
        min_time: 0.0,
        max_runs: 50,
    };
    let bench = Bench::new(config)?;
    let threads: Vec<usize> = (1..=max_threads.max(1)).collect();
    let mut unit = unit(name, &threads, quick)?;
    let mut medians = Vec::new();
    for i in 0..threads.len() {
        let mut failed = None;
        let m = bench.run_timed(|| {
            (unit.run)(i).unwrap_or_else(|e| {
                failed = Some(e);
                f64::NAN
            })
        });
        if let Some(e) = failed {
            return Err(e);
        }
        medians.push(m.summary().map_or(f64::NAN, |s| s.median));
    }
    Ok(fitted(name, unit.label, &threads, &medians, here_mhz()))
}

/// A workload from the median seconds of each thread count: speedups over the first count,
/// the Amdahl fraction fitted to the last (PaRSA's 0.058 when only one thread ran).
fn fitted(
    name: &str,
    unit: String,
    threads: &[usize],
    medians: &[f64],
    (here_mhz, here_mhz_source): (f64, String),
) -> Workload {
    let t1 = medians[0];
    let speedups: Vec<(usize, f64)> = threads
        .iter()
        .zip(medians)
        .map(|(&t, &m)| (t, t1 / m))
        .collect();
    let (n, s) = *speedups.last().expect("at least one");
    Workload {
        name: name.to_string(),
        unit,
        t1_s: t1,
        speedups,
        serial_fraction: if n > 1 { amdahl_fraction(s, n) } else { 0.058 },
        ht_factor: DEFAULT_HT_FACTOR,
        here_mhz,
        here_mhz_source,
    }
}

/// A workload timed in paired rounds: each round runs one unit on every thread count (the
/// order alternating between rounds, so drift on a shared machine touches them alike) and a
/// free-core probe beside them; a statistic gets its interval by resampling whole rounds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorkloadRounds {
    /// `parsa`, `modexp` or `cipher`.
    pub name: String,
    /// What one unit of work is.
    pub unit: String,
    /// The thread counts, 1 first.
    pub threads: Vec<usize>,
    /// Seconds of one unit, `seconds[round][i]` on `threads[i]`.
    pub seconds: Vec<Vec<Seconds>>,
    /// Per round: the largest thread count's threads of independent GMP products against one
    /// thread, as a fraction of the ideal throughput (1.0 = every thread had a free core).
    pub free_cores: Vec<f64>,
    /// This machine's clock, MHz, and where it came from ([`here_mhz`]).
    pub here_mhz: (f64, String),
}

impl WorkloadRounds {
    /// The workload fitted to the median seconds of each thread count over the rounds `idx`
    /// (a bootstrap resample, or every round).
    pub fn fit(&self, idx: &[usize]) -> Workload {
        let medians: Vec<f64> = (0..self.threads.len())
            .map(|i| {
                let mut v: Vec<f64> = idx
                    .iter()
                    .map(|&r| self.seconds[r][i])
                    .filter(|x| x.is_finite())
                    .collect();
                v.sort_by(f64::total_cmp);
                crate::bench::stats::median_of_sorted(&v)
            })
            .collect();
        fitted(
            &self.name,
            self.unit.clone(),
            &self.threads,
            &medians,
            self.here_mhz.clone(),
        )
    }

    /// The workload fitted to every round.
    pub fn fit_all(&self) -> Workload {
        self.fit(&(0..self.seconds.len()).collect::<Vec<_>>())
    }
}

/// Times `name` in `rounds` paired rounds on `threads` (1 first), after `warmup` untimed runs
/// of each count; `on_round(done, rounds)` is called after each round.
pub fn measure_rounds(
    name: &str,
    threads: &[usize],
    quick: bool,
    warmup: usize,
    rounds: usize,
    mut on_round: impl FnMut(usize, usize),
) -> Result<WorkloadRounds> {
    if threads.first() != Some(&1) || rounds == 0 {
        return Err(Error::InvalidParameter(
            "a workload is timed on 1 thread first, in at least one round".into(),
        ));
    }
    let mut unit = unit(name, threads, quick)?;
    for i in 0..threads.len() {
        for _ in 0..warmup {
            (unit.run)(i)?;
        }
    }
    let most = *threads.iter().max().unwrap_or(&1);
    let mut seconds = Vec::with_capacity(rounds);
    let mut free_cores = Vec::with_capacity(rounds);
    for r in 0..rounds {
        let mut row = vec![f64::NAN; threads.len()];
        let order: Vec<usize> = if r % 2 == 0 {
            (0..threads.len()).collect()
        } else {
            (0..threads.len()).rev().collect()
        };
        for i in order {
            row[i] = (unit.run)(i)?;
        }
        seconds.push(row);
        free_cores.push(crate::bench::capacity::free_cores(most));
        on_round(r + 1, rounds);
    }
    Ok(WorkloadRounds {
        name: name.to_string(),
        unit: unit.label,
        threads: threads.to_vec(),
        seconds,
        free_cores,
        here_mhz: here_mhz(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: f64) -> Workload {
        Workload {
            name: "t".into(),
            unit: "u".into(),
            t1_s: 10.0,
            speedups: vec![(1, 1.0)],
            serial_fraction: s,
            ht_factor: DEFAULT_HT_FACTOR,
            here_mhz: 2000.0,
            here_mhz_source: "test".into(),
        }
    }

    #[test]
    fn amdahl_fit_inverts_amdahls_law() {
        assert!((amdahl_fraction(2.0, 2) - 0.0).abs() < 1e-12);
        assert!((amdahl_fraction(1.0, 4) - 1.0).abs() < 1e-12);
        let s = 0.1;
        let speedup = 1.0 / (s + (1.0 - s) / 4.0);
        assert!((amdahl_fraction(speedup, 4) - s).abs() < 1e-12);
    }

    #[test]
    fn time_scales_with_clock_threads_and_smt() {
        let w = w(0.0);
        assert!((w.time(1, 2, 1, 2000.0) - 10.0).abs() < 1e-12);
        assert!((w.time(1, 2, 1, 4000.0) - 5.0).abs() < 1e-12, "time ∝ 1/f");
        assert!((w.time(2, 2, 1, 2000.0) - 5.0).abs() < 1e-12);
        assert!(
            (w.time(8, 2, 1, 2000.0) - 5.0).abs() < 1e-12,
            "no more threads than hardware"
        );
        let smt = w.time(4, 2, 2, 2000.0);
        assert!((smt - 10.0 / (2.0 + 2.0 * DEFAULT_HT_FACTOR)).abs() < 1e-12);
    }

    #[test]
    fn parsa_i3_figures_give_the_default_ht_factor() {
        // PaRSA-2 47 % and PaRSA-4 65 % faster (time reductions) on 2 cores x 2 threads.
        let s2 = 1.0 / (1.0 - 0.47);
        let s4 = 1.0 / (1.0 - 0.65);
        let s = amdahl_fraction(s2, 2);
        let n_eff = (1.0 - s) / (1.0 / s4 - s);
        let ht = (n_eff - 2.0) / 2.0;
        assert!((ht - DEFAULT_HT_FACTOR).abs() < 0.05, "{ht}");
    }
}
