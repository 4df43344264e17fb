//! The exponentiation benchmark (m-ary/Karatsuba's experiments, CRSA's Table 2): every method at
//! every modulus size and thread count, against `binary` (the seeds' square-and-multiply
//! reference) and `gmp` (`mpz_powm`), both always measured in the same invocation.
//!
//! Operands are deterministic from a seed: a random odd modulus of exactly `bits` bits, an
//! exponent of `bits` bits (as in an RSA private-key operation) and a base below the modulus.
//! Configurations of one size run interleaved ([`Bench::run_interleaved`]); each result is
//! checked against `mpz_powm` before its time is reported. The energy meter is read around
//! every run (so each joule lands on its own configuration) and the warm-ups are left out;
//! an exponentiation has no byte stream, so `uj_per_byte` stays `null`.
use crate::bench::{Bench, BenchConfig, TimingColumns, TimingFields};
use crate::energy::meter::{EnergyFields, EnergyTally, RunMeter};
use crate::error::{Error, Result};
pub use parcrypt::modexp::operands;
use parcrypt::modexp::{ModExp, Outcome, Params, UnitCount, method, methods, pow_mod_vartime};
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What to measure.
#[derive(Clone, Debug)]
pub struct ModexpBenchPlan {
    /// Modulus (and exponent) sizes in bits.
    pub bits: Vec<u32>,
    /// Method names; `binary` and `gmp` are added if missing (they are the references).
    pub methods: Vec<String>,
    /// Thread counts for parallel methods (sequential ones run once, with 1).
    pub threads: Vec<usize>,
    /// Everything else a method may use (window, precomputation threads, cubes, slicing, pin);
    /// its `threads` is overridden by the sweep.
    pub params: Params,
    /// Seed of the operands.
    pub seed: u64,
    /// Repetition rules.
    pub config: BenchConfig,
}

/// One (method, size, threads) result; the field names are the JSON/CSV columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModexpRecord {
    /// Method name.
    pub method: String,
    /// Modulus and exponent size in bits.
    pub bits: u32,
    /// Threads used (1 for sequential methods).
    pub threads: usize,
    /// Seconds per exponentiation: median, min, max, the median's 95 % interval, runs and
    /// every run's time ([`TimingColumns::CI95`]).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Modular multiplications in total (squarings included); none for GMP.
    pub mulmods: Option<u64>,
    /// Modular multiplications on the critical path: the sum over phases (precomputation,
    /// main work, combination) of the busiest unit's count.
    pub critical_mulmods: Option<u64>,
    /// Time change against `binary`, in % (negative = faster; the seeds' convention).
    pub vs_binary_pct: f64,
    /// This time / GMP's time.
    pub vs_gmp: f64,
    /// Energy of one exponentiation (mean over the measured runs; `energy_j` `null` without a
    /// meter), average power, `uj_per_byte` always `null` (an exponentiation has no byte
    /// stream) and where the figures come from. Runs of a few microseconds are far below the
    /// model meter's 10 ms CPU-time tick: only the mean over many runs means anything.
    #[serde(flatten)]
    pub energy: EnergyFields,
    /// More threads than logical CPUs.
    pub oversubscribed: bool,
    /// The seed's best figure for this method and size, if it reports one.
    pub seed_claim: String,
}

/// The seed's best time change against square-and-multiply (m-ary/Karatsuba, up to 8 threads on 8
/// cores; the seed's slides, see the README's list of papers).
pub fn seed_claim(method: &str, bits: u32) -> Option<&'static str> {
    crate::claims::mary_karatsuba::MODEXP_BEST
        .iter()
        .find(|(m, b, _, _)| *m == method && *b == bits)
        .map(|(_, _, _, c)| *c)
}

/// Sum over phases of the busiest unit: "precomp …" units, then the main units, then
/// "combine".
pub fn critical_path(counts: &[UnitCount]) -> u64 {
    let phase_max = |pred: &dyn Fn(&str) -> bool| {
        counts
            .iter()
            .filter(|c| pred(&c.unit))
            .map(UnitCount::mulmods)
            .max()
            .unwrap_or(0)
    };
    phase_max(&|u| u.starts_with("precomp"))
        + phase_max(&|u| !u.starts_with("precomp") && u != "combine")
        + phase_max(&|u| u == "combine")
}

/// Runs the benchmark; `progress(done, total, label)` is called before each size. Energy is
/// read with the `auto` meter ([`RunMeter::auto`]).
pub fn run(
    plan: &ModexpBenchPlan,
    progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<ModexpRecord>> {
    run_with_meter(plan, &mut RunMeter::auto(), progress)
}

/// [`run`] with a given meter ([`RunMeter::none`] for no energy figures).
pub fn run_with_meter(
    plan: &ModexpBenchPlan,
    meter: &mut RunMeter,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<ModexpRecord>> {
    let chosen = chosen_methods(plan)?;
    let bench = Bench::new(plan.config)?;
    let mut records = Vec::new();
    for (i, &bits) in plan.bits.iter().enumerate() {
        progress(i, plan.bits.len(), &format!("{bits} bits"));
        let (b, e, m) = operands(bits, plan.seed);
        let expected = Integer::from(b.pow_mod_ref(&e, &m).expect("e >= 0"));
        let configs = configurations(plan, &chosen);
        // Check every configuration once (also the warm-up of its code path).
        let mut outcomes: Vec<Outcome> = Vec::with_capacity(configs.len());
        for (meth, params) in &configs {
            let o = pow_mod_vartime(*meth, &b, &e, &m, params)?;
            if o.value != expected {
                return Err(Error::internal(format!(
                    "{} gave a wrong result at {bits} bits",
                    meth.name()
                )));
            }
            outcomes.push(o);
        }
        let mut tallies = vec![EnergyTally::default(); configs.len()];
        let mut failures = crate::bench::Failures::new();
        let measurements = bench.run_interleaved_by(configs.len(), |i| {
            let (meth, params) = &configs[i];
            let ((took, o), energy) = meter.measure(|| {
                let started = Instant::now();
                let o = std::hint::black_box(pow_mod_vartime(*meth, &b, &e, &m, params));
                (started.elapsed().as_secs_f64(), o)
            });
            if let Some(o) = failures.note(meth.name(), o) {
                failures.check(meth.name(), o.value == expected);
            }
            tallies[i].push(energy);
            took
        });
        failures.result()?;
        let size = SizeRuns {
            plan,
            bits,
            configs: &configs,
            outcomes: &outcomes,
            tallies: &tallies,
        };
        records.extend(size.records(&measurements)?);
    }
    progress(plan.bits.len(), plan.bits.len(), "done");
    Ok(records)
}

/// Checks the sizes and thread counts; the plan's methods with the references (`binary`,
/// `gmp`) put first where missing.
fn chosen_methods(plan: &ModexpBenchPlan) -> Result<Vec<Box<dyn ModExp>>> {
    if plan.bits.iter().any(|&b| b < 2) || plan.bits.is_empty() {
        return Err(Error::InvalidParameter(
            "sizes must be at least 2 bits".into(),
        ));
    }
    if plan.threads.is_empty() || plan.threads.contains(&0) {
        return Err(Error::InvalidParameter(
            "thread counts must be at least 1".into(),
        ));
    }
    let mut names = plan.methods.clone();
    for reference in ["gmp", "binary"] {
        if !names.iter().any(|n| n == reference) {
            names.insert(0, reference.to_string());
        }
    }
    names.iter().map(|n| Ok(method(n)?)).collect()
}

/// Every (method, parameters) pair: parallel methods at each of the plan's thread counts,
/// sequential ones once with 1.
fn configurations<'a>(
    plan: &ModexpBenchPlan,
    chosen: &'a [Box<dyn ModExp>],
) -> Vec<(&'a dyn ModExp, Params)> {
    let mut configs = Vec::new();
    for meth in chosen {
        let threads: &[usize] = if meth.is_parallel() {
            &plan.threads
        } else {
            &[1]
        };
        for &t in threads {
            configs.push((
                meth.as_ref(),
                Params {
                    threads: t,
                    ..plan.params.clone()
                },
            ));
        }
    }
    configs
}

/// One size's configurations, their checked outcomes (operation counts) and energy tallies.
struct SizeRuns<'a> {
    plan: &'a ModexpBenchPlan,
    bits: u32,
    configs: &'a [(&'a dyn ModExp, Params)],
    outcomes: &'a [Outcome],
    tallies: &'a [EnergyTally],
}

impl SizeRuns<'_> {
    /// One record per configuration, against `binary` and `gmp` at this size.
    fn records(&self, measurements: &[crate::bench::Measurement]) -> Result<Vec<ModexpRecord>> {
        let (plan, bits) = (self.plan, self.bits);
        let summaries =
            crate::bench::summaries(measurements).ok_or_else(|| Error::internal("no samples"))?;
        let median_of = |name: &str| {
            self.configs
                .iter()
                .zip(&summaries)
                .find(|((m, _), _)| m.name() == name)
                .map(|(_, s)| s.median)
                .unwrap_or(f64::NAN)
        };
        let (t_binary, t_gmp) = (median_of("binary"), median_of("gmp"));
        let mut records = Vec::new();
        for (((((meth, params), s), o), tally), m) in self
            .configs
            .iter()
            .zip(&summaries)
            .zip(self.outcomes)
            .zip(self.tallies)
            .zip(measurements)
        {
            let counted = !o.counts.is_empty();
            let energy = tally.fields(plan.config.warmup_runs as usize, None);
            records.push(ModexpRecord {
                method: meth.name().to_string(),
                bits,
                threads: params.threads,
                timing: TimingFields::new(s, m.samples.clone(), TimingColumns::CI95),
                mulmods: counted.then(|| o.total_mulmods()),
                critical_mulmods: counted.then(|| critical_path(&o.counts)),
                vs_binary_pct: (s.median / t_binary - 1.0) * 100.0,
                vs_gmp: s.median / t_gmp,
                energy,
                oversubscribed: crate::bench::oversubscribed(params.threads),
                seed_claim: seed_claim(meth.name(), bits).unwrap_or("").to_string(),
            });
        }
        Ok(records)
    }
}

/// All method names, for `--methods` defaults.
pub fn all_method_names() -> Vec<String> {
    methods().iter().map(|m| m.name().to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_benchmark_covers_references_and_parallel_threads() {
        let plan = ModexpBenchPlan {
            bits: vec![64, 96],
            methods: vec!["slice".into(), "mary".into()],
            threads: vec![1, 2],
            params: Params::default(),
            seed: 1,
            config: BenchConfig {
                warmup_runs: 0,
                ..BenchConfig::exact(1)
            },
        };
        let recs = run(&plan, |_, _, _| {}).unwrap();
        // per size: binary, gmp, slice x 2 threads, mary
        assert_eq!(recs.len(), 10);
        let binary = recs
            .iter()
            .find(|r| r.method == "binary" && r.bits == 64)
            .unwrap();
        assert_eq!(binary.vs_binary_pct, 0.0);
        assert!(
            recs.iter()
                .filter(|r| r.method == "gmp")
                .all(|r| r.mulmods.is_none())
        );
        assert!(
            recs.iter()
                .filter(|r| r.method == "slice")
                .any(|r| r.threads == 2)
        );
        let fake = crate::energy::meter::FakeMeter::new(3.0, 0.5);
        let mut meter = RunMeter::new(Box::new(fake));
        let recs = run_with_meter(&plan, &mut meter, |_, _, _| {}).unwrap();
        assert!(recs.iter().all(|r| r.energy.energy_j == Some(1.5)
            && r.energy.avg_power_w == Some(3.0)
            && r.energy.uj_per_byte.is_none()
            && r.energy.energy_source == "fake"));
    }

    #[test]
    fn critical_path_sums_phase_maxima() {
        let u = |name: &str, s: u64| UnitCount {
            unit: name.into(),
            squarings: s,
            multiplications: 0,
        };
        let counts = [
            u("precomp 0", 3),
            u("precomp 1", 4),
            u("thread 0", 10),
            u("thread 1", 7),
            u("combine", 1),
        ];
        assert_eq!(critical_path(&counts), 4 + 10 + 1);
    }

    #[test]
    fn operands_are_deterministic_and_well_formed() {
        let (b, e, m) = operands(1024, 7);
        assert_eq!((b.clone(), e.clone(), m.clone()), operands(1024, 7));
        assert_eq!(m.significant_bits(), 1024);
        assert!(m.is_odd() && b < m && e.significant_bits() == 1024);
    }
}
