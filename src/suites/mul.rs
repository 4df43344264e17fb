//! The Karatsuba benchmark (m-ary/Karatsuba): every multiplication method at every operand size,
//! against GMP's `mpz_mul` measured in the same run.
//!
//! A product takes microseconds, so one sample times a batch of products (calibrated per
//! method and size to take about [`MulBenchPlan::batch_s`]) and the statistics are divided by
//! the batch length. Each method's product is checked equal to GMP's before it is timed; the
//! methods of one size run interleaved ([`Bench::run_interleaved`]) so drift on a shared
//! machine touches GMP and the others alike. Multipliers — and so their persistent helper
//! threads — are built once and reused for every size.
//!
//! Around each size the run probes [`parallel_capacity`]: how much throughput the machine
//! actually gave to several threads at that moment. On a shared or quota-limited machine it is
//! the first thing to read before blaming (or crediting) a parallel method.
use crate::bench::capacity::{
    CAPACITY_BITS, CAPACITY_S, CROSS_CORE_S, cross_core_us, parallel_capacity,
};
use crate::bench::memory::heap_peak_during;
use crate::bench::{
    Bench, BenchConfig, Measurement, Seconds, Summary, TimingColumns, TimingFields, logical_cores,
};
use crate::error::{Error, Result};
use parcrypt::mul::{
    KaraConfig, Leaves, METHODS, Multiplier, NTT_BACKEND_METHODS, is_karatsuba, is_method,
    is_parallel, multiplier, operands, unknown_method,
};
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::hint::black_box;
use std::time::Instant;

/// What to benchmark.
#[derive(Clone, Debug)]
pub struct MulBenchPlan {
    /// Operand sizes in bits (both operands have exactly this many).
    pub bits: Vec<u32>,
    /// Methods ([`METHODS`] names); `gmp` is measured in any case, as the baseline.
    pub methods: Vec<String>,
    /// Total thread counts (caller + helpers) for the parallel methods, 1 to 4.
    pub threads: Vec<usize>,
    /// Depth, threshold and pinning (the helper count comes from `threads`, the leaves from
    /// `leaves`).
    pub kara: KaraConfig,
    /// What multiplies the Karatsuba methods' leaves: each `kara-*` method runs once per entry,
    /// interleaved with the rest (`[Leaves::Gmp]`: the seed's, as the study measures it).
    pub leaves: Vec<Leaves>,
    /// Seed of the random operands.
    pub seed: u64,
    /// Repetition rules, counted in samples (batches).
    pub config: BenchConfig,
    /// Target duration of one sample, seconds.
    pub batch_s: Seconds,
    /// Probe [`parallel_capacity`] and [`cross_core_us`] just before and just after each size
    /// (the records' `capacity` and `cross_core_us`). `bench mul` does; the study does not,
    /// since its rounds run both probes once each themselves, and two capacity probes per size
    /// were four fifths of its Karatsuba experiment's time.
    pub probe_each_size: bool,
}

/// One (method, threads, bits) result; the field names are the JSON/CSV columns. Times are
/// per product.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MulBenchRecord {
    /// Method name.
    pub method: String,
    /// Operand size in bits.
    pub bits: u32,
    /// Threads working on one product (1 for `gmp` and `kara-seq`).
    pub threads: usize,
    /// Seconds per product (a batch's time / its length): median, min, max, mean, the
    /// median's 95 % interval, measured samples (batches) and every sample's time per product
    /// ([`TimingColumns::MEAN_CI95`]).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Products per sample.
    pub batch: u64,
    /// This median / GMP's median at the same size, same run (< 1: faster than GMP).
    pub vs_gmp: f64,
    /// This median / `kara-seq`'s median, when `kara-seq` was measured.
    pub vs_kara_seq: Option<f64>,
    /// Karatsuba levels (0 for `gmp`).
    pub depth: u32,
    /// What multiplied a Karatsuba method's leaves (`gmp`, the seed's, or `best`: the NTT on
    /// one thread from the threshold timed here); `None` for the other methods.
    #[serde(default)]
    pub leaves: Option<String>,
    /// More threads than this machine's logical CPUs.
    pub oversubscribed: bool,
    /// Persistent helpers were pinned to CPUs.
    pub pinned: bool,
    /// The product equalled GMP's (always true in a record: a mismatch aborts the run).
    pub verified: bool,
    /// [`parallel_capacity`] for the most threads of the run, the mean of a probe just before
    /// and one just after this size was measured (`None` when every run had 1 thread or the
    /// plan did not [`probe_each_size`](MulBenchPlan::probe_each_size)).
    pub capacity: Option<f64>,
    /// [`cross_core_us`] just before and just after this size was measured, the slower
    /// reading (`None` when every run had 1 thread or the plan did not probe each size): several times its usual level when the
    /// CPUs stopped sharing a cache, which slows every parallel form.
    pub cross_core_us: Option<f64>,
    /// Bytes of Rust heap one product held at its peak beyond what was held before it (its
    /// scratch: the NTT's transforms and residues, taken afresh after
    /// `parcrypt::mul::ntt::release_buffers`; cached twiddle tables excluded, as they were
    /// made by the first product), counted by the command's allocator; `None` where
    /// the heap is not counted (the library without the command). GMP's own temporaries
    /// (`gmp`, `par-gmp`'s GMP products, Karatsuba's GMP leaves) are not Rust heap and are not
    /// in it.
    pub heap_peak_bytes: Option<u64>,
    /// `heap_peak_bytes` over the two operands' bytes (8 per limb).
    pub heap_peak_over_operands: Option<f64>,
    /// Statistical warning, empty if none.
    pub note: String,
}

impl MulBenchRecord {
    /// The method as tables name it: the method, and for a Karatsuba method whose leaves are
    /// not the seed's GMP ones, which they are (`kara-pool (best leaves)`).
    pub fn label(&self) -> String {
        match self.leaves.as_deref() {
            Some(l) if l != Leaves::Gmp.name() => format!("{} ({l} leaves)", self.method),
            _ => self.method.clone(),
        }
    }
}

impl MulBenchPlan {
    /// The (method, threads) pairs to run: `gmp` first, then the methods in [`METHODS`]
    /// order (the named NTT back ends, [`NTT_BACKEND_METHODS`], after them), sequential ones
    /// once with 1 thread, parallel ones once per thread count.
    pub fn configurations(&self) -> Vec<(&'static str, usize)> {
        let mut out = vec![("gmp", 1)];
        for &m in METHODS
            .iter()
            .chain(&NTT_BACKEND_METHODS)
            .filter(|m| self.methods.iter().any(|x| x == *m))
        {
            if is_parallel(m) {
                out.extend(self.threads.iter().map(|&t| (m, t)));
            } else if m != "gmp" {
                out.push((m, 1));
            }
        }
        out.dedup();
        out
    }

    /// [`MulBenchPlan::configurations`] with the leaves of each: a Karatsuba method once per
    /// entry of `leaves` (next to each other), the others with `None`.
    pub fn runs(&self) -> Vec<(&'static str, usize, Option<Leaves>)> {
        let mut out = Vec::new();
        for (m, t) in self.configurations() {
            if is_karatsuba(m) {
                out.extend(self.leaves.iter().map(|&l| (m, t, Some(l))));
            } else {
                out.push((m, t, None));
            }
        }
        out
    }

    /// Checks sizes, names, thread counts, the Karatsuba options and the repetition rules.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidParameter(m));
        if self.bits.is_empty() || self.bits.iter().any(|&b| !(2..=MAX_BITS).contains(&b)) {
            return bad(format!("operand sizes must be 2 to {MAX_BITS} bits"));
        }
        if let Some(m) = self.methods.iter().find(|m| !is_method(m)) {
            return Err(unknown_method(m).into());
        }
        if self.threads.is_empty() {
            return bad("at least one thread count is needed".into());
        }
        for &t in &self.threads {
            self.kara.with_threads(t)?.validate()?;
        }
        if self.leaves.is_empty() {
            return bad("at least one kind of Karatsuba leaves is needed".into());
        }
        if !(self.batch_s.is_finite() && self.batch_s > 0.0) {
            return bad("the batch time must be a positive number of seconds".into());
        }
        self.config.validate()
    }
}

/// Largest operand size accepted, in bits (2^24: 2 MiB per operand).
pub const MAX_BITS: u32 = 1 << 24;

/// Products per sample so that one sample takes about `target` seconds (at least 1): the
/// batch doubles until the better of two timings reaches a quarter of the target, and is then
/// scaled, so one slow outlier (a first thread creation, a preemption) cannot shrink it.
fn calibrate(m: &dyn Multiplier, a: &Integer, b: &Integer, target: Seconds) -> u64 {
    let time = |reps: u64| {
        let started = Instant::now();
        for _ in 0..reps {
            black_box(m.mul(a, b));
        }
        started.elapsed().as_secs_f64()
    };
    let mut reps: u64 = 1;
    loop {
        let took = time(reps).min(time(reps));
        if took >= target / 4.0 || reps >= 1 << 30 {
            return ((reps as f64 * target / took.max(1e-9)).ceil() as u64).max(1);
        }
        reps *= 2;
    }
}

/// Seconds of GMP products before the first measurement (clock ramp-up, page faults).
pub const GLOBAL_WARMUP_S: f64 = 0.3;

/// Runs the benchmark; `progress(done, total, label)` is called before each size's work.
///
/// With `plan.kara.pin` the measuring (calling) thread is a new thread pinned to CPU 0, as the
/// helpers are pinned to CPUs 1, 2, ...; the caller's own affinity is left alone.
pub fn run(
    plan: &MulBenchPlan,
    mut progress: impl FnMut(usize, usize, &str) + Send,
) -> Result<Vec<MulBenchRecord>> {
    plan.validate()?;
    // Read before pinning: a thread pinned to one CPU sees only that one.
    let cores = logical_cores();
    if !plan.kara.pin {
        return measure_all(plan, cores, &mut progress);
    }
    std::thread::scope(|s| {
        parcrypt::parallel::joined(
            s.spawn(|| {
                parcrypt::parallel::affinity::pin_current_thread(0);
                measure_all(plan, cores, &mut progress)
            })
            .join(),
        )
    })
}

fn measure_all(
    plan: &MulBenchPlan,
    cores: usize,
    progress: &mut (impl FnMut(usize, usize, &str) + Send),
) -> Result<Vec<MulBenchRecord>> {
    let configs = plan.runs();
    let multipliers = configs
        .iter()
        .map(|&(m, t, leaves)| {
            let c = plan.kara.with_threads(t)?;
            let leaves = leaves.unwrap_or(c.leaves);
            multiplier(m, &KaraConfig { leaves, ..c })
        })
        .collect::<parcrypt::Result<Vec<_>>>()?;
    let bench = Bench::new(plan.config)?;
    if plan.config.warmup_runs > 0 {
        global_warmup(plan);
    }
    let mut records = Vec::new();
    let most = plan.threads.iter().copied().max().unwrap_or(1);
    let pin = plan.kara.pin;
    let probe = most > 1 && plan.probe_each_size;
    let capacity = || probe.then(|| parallel_capacity(most, CAPACITY_BITS, CAPACITY_S, pin));
    let cross_core = || probe.then(|| cross_core_us(CROSS_CORE_S));
    for (i, &bits) in plan.bits.iter().enumerate() {
        progress(i, plan.bits.len(), &format!("{bits} bits"));
        let (a, b) = operands(bits, plan.seed);
        check_products(&multipliers, &a, &b, bits)?;
        // One more product each, its heap peak counted, from an empty store of spare NTT
        // buffers so that every buffer it uses is counted.
        let heap: Vec<Option<u64>> = multipliers
            .iter()
            .map(|m| {
                parcrypt::mul::ntt::release_buffers();
                heap_peak_during(|| black_box(m.mul(&a, &b)))
                    .1
                    .map(|n| n as u64)
            })
            .collect();
        let reps: Vec<u64> = multipliers
            .iter()
            .map(|m| calibrate(m.as_ref(), &a, &b, plan.batch_s))
            .collect();
        let before = (capacity(), cross_core());
        let measurements = time_batches(&bench, &multipliers, &reps, &a, &b);
        let capacity = before.0.zip(capacity()).map(|(x, y)| (x + y) / 2.0);
        let cross_core_us = before.1.zip(cross_core()).map(|(x, y)| x.max(y));
        let size = SizeBatches {
            plan,
            cores,
            bits,
            configs: &configs,
            multipliers: &multipliers,
            reps: &reps,
            capacity,
            cross_core_us,
            heap: &heap,
            operand_bytes: 8
                * (a.significant_digits::<u64>() + b.significant_digits::<u64>()) as u64,
        };
        records.extend(size.records(&measurements)?);
    }
    progress(plan.bits.len(), plan.bits.len(), "done");
    Ok(records)
}

/// GMP products for [`GLOBAL_WARMUP_S`] before the first measurement.
fn global_warmup(plan: &MulBenchPlan) {
    let (a, b) = operands(plan.bits[0], plan.seed);
    let started = Instant::now();
    while started.elapsed().as_secs_f64() < GLOBAL_WARMUP_S {
        black_box(Integer::from(&a * &b));
    }
}

/// Every multiplier's product of `a` and `b` must be GMP's.
fn check_products(
    multipliers: &[Box<dyn Multiplier>],
    a: &Integer,
    b: &Integer,
    bits: u32,
) -> Result<()> {
    let expected = Integer::from(a * b);
    for m in multipliers {
        if m.mul(a, b) != expected {
            return Err(Error::internal(format!(
                "{} ({} threads) gave a product different from GMP's at \
                 {bits} bits",
                m.name(),
                m.threads()
            )));
        }
    }
    Ok(())
}

/// Times every multiplier's batch of `reps` products, interleaved.
fn time_batches(
    bench: &Bench,
    multipliers: &[Box<dyn Multiplier>],
    reps: &[u64],
    a: &Integer,
    b: &Integer,
) -> Vec<Measurement> {
    let mut closures: Vec<Box<dyn FnMut() -> Seconds + '_>> = multipliers
        .iter()
        .zip(reps)
        .map(|(m, &n)| {
            Box::new(move || {
                let started = Instant::now();
                for _ in 0..n {
                    black_box(m.mul(a, b));
                }
                started.elapsed().as_secs_f64()
            }) as Box<dyn FnMut() -> Seconds + '_>
        })
        .collect();
    let mut refs: Vec<&mut dyn FnMut() -> Seconds> = closures
        .iter_mut()
        .map(|c| c.as_mut() as &mut dyn FnMut() -> Seconds)
        .collect();
    bench.run_interleaved(&mut refs)
}

/// One size's multipliers, their batch lengths and the parallel capacity around them.
struct SizeBatches<'a> {
    plan: &'a MulBenchPlan,
    cores: usize,
    bits: u32,
    configs: &'a [(&'static str, usize, Option<Leaves>)],
    multipliers: &'a [Box<dyn Multiplier>],
    reps: &'a [u64],
    capacity: Option<f64>,
    cross_core_us: Option<f64>,
    /// Each multiplier's heap peak ([`MulBenchRecord::heap_peak_bytes`]).
    heap: &'a [Option<u64>],
    /// The two operands' bytes.
    operand_bytes: u64,
}

impl SizeBatches<'_> {
    /// One record per configuration, times per product, against GMP and `kara-seq`.
    fn records(&self, measurements: &[Measurement]) -> Result<Vec<MulBenchRecord>> {
        let plan = self.plan;
        let summaries = measurements
            .iter()
            .zip(self.reps)
            .map(|(m, &n)| {
                m.summary()
                    .map(|s| per_item(&s, n))
                    .ok_or_else(|| Error::internal("no samples"))
            })
            .collect::<Result<Vec<_>>>()?;
        let gmp = summaries[0].median;
        let seq = self
            .configs
            .iter()
            .position(|&(m, _, l)| m == "kara-seq" && l == Some(Leaves::Gmp))
            .map(|i| summaries[i].median);
        let mut records = Vec::new();
        for (((((&(method, _, leaves), s), &n), m), measured), &heap) in self
            .configs
            .iter()
            .zip(&summaries)
            .zip(self.reps)
            .zip(self.multipliers)
            .zip(measurements)
            .zip(self.heap)
        {
            records.push(MulBenchRecord {
                method: method.to_string(),
                bits: self.bits,
                threads: m.threads(),
                timing: TimingFields::new(
                    s,
                    per_item_times(&measured.samples, n),
                    TimingColumns::MEAN_CI95,
                ),
                batch: n,
                vs_gmp: s.median / gmp,
                vs_kara_seq: seq.map(|q| s.median / q),
                depth: if method == "gmp" { 0 } else { plan.kara.depth },
                leaves: leaves.map(|l| l.name().to_string()),
                oversubscribed: m.threads() > self.cores,
                pinned: plan.kara.pin && is_parallel(method),
                verified: true,
                capacity: self.capacity,
                cross_core_us: self.cross_core_us,
                heap_peak_bytes: heap,
                heap_peak_over_operands: heap.map(|h| h as f64 / self.operand_bytes as f64),
                note: s.note().unwrap_or_default(),
            });
        }
        Ok(records)
    }
}

/// A batch's times divided by its length: the times of one item.
pub fn per_item_times(samples: &[Seconds], n: u64) -> Vec<Seconds> {
    let k = 1.0 / n.max(1) as f64;
    samples.iter().map(|t| t * k).collect()
}

/// A batch's statistics divided by its length: the statistics of one item.
pub fn per_item(s: &Summary, n: u64) -> Summary {
    let k = 1.0 / n.max(1) as f64;
    Summary {
        median: s.median * k,
        mean: s.mean * k,
        min: s.min * k,
        max: s.max * k,
        stddev: s.stddev * k,
        ci95_low: s.ci95_low.map(|x| x * k),
        ci95_high: s.ci95_high.map(|x| x * k),
        ..*s
    }
}

/// The smallest measured size from which `method` on `threads` threads is faster than GMP at
/// every larger measured size too (`None` if it is not faster at the largest).
pub fn break_even(records: &[MulBenchRecord], method: &str, threads: usize) -> Option<u32> {
    let mut rows: Vec<&MulBenchRecord> = records
        .iter()
        .filter(|r| r.label() == method && r.threads == threads)
        .collect();
    rows.sort_by_key(|r| r.bits);
    let mut from = None;
    for r in rows.iter().rev() {
        if r.vs_gmp < 1.0 {
            from = Some(r.bits);
        } else {
            break;
        }
    }
    from
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan() -> MulBenchPlan {
        MulBenchPlan {
            bits: vec![1024, 3000],
            methods: METHODS.iter().map(|m| m.to_string()).collect(),
            threads: vec![2, 3],
            kara: KaraConfig::default(),
            leaves: vec![Leaves::Gmp],
            seed: 7,
            config: BenchConfig {
                warmup_runs: 0,
                ..BenchConfig::exact(2)
            },
            batch_s: 0.0005,
            probe_each_size: true,
        }
    }

    #[test]
    fn configurations_put_gmp_first_and_sequential_methods_once() {
        let c = plan().configurations();
        assert_eq!(c[0], ("gmp", 1));
        assert_eq!(c[1], ("kara-seq", 1));
        assert_eq!(c.len(), 2 + 7 * 2);
        let mut p = plan();
        p.methods = vec!["kara-lockfree".into()];
        assert_eq!(
            p.configurations(),
            [("gmp", 1), ("kara-lockfree", 2), ("kara-lockfree", 3)]
        );
    }

    #[test]
    fn karatsuba_methods_run_once_per_kind_of_leaves_and_say_which() {
        let mut p = plan();
        p.methods = vec!["kara-seq".into(), "kara-pool".into(), "par-gmp".into()];
        (p.threads, p.leaves, p.bits) = (vec![2], vec![Leaves::Gmp, Leaves::Best], vec![4096]);
        let (g, b) = (Some(Leaves::Gmp), Some(Leaves::Best));
        assert_eq!(
            p.runs(),
            [
                ("gmp", 1, None),
                ("kara-seq", 1, g),
                ("kara-seq", 1, b),
                ("kara-pool", 2, g),
                ("kara-pool", 2, b),
                ("par-gmp", 2, None)
            ]
        );
        let recs = run(&p, |_, _, _| ()).unwrap();
        let leaves: Vec<(&str, Option<&str>)> = recs
            .iter()
            .map(|r| (r.method.as_str(), r.leaves.as_deref()))
            .collect();
        assert_eq!(
            leaves,
            [
                ("gmp", None),
                ("kara-seq", Some("gmp")),
                ("kara-seq", Some("best")),
                ("kara-pool", Some("gmp")),
                ("kara-pool", Some("best")),
                ("par-gmp", None)
            ]
        );
        // Each against the seed's kara-seq, the one with GMP leaves.
        let seq = &recs[1];
        assert_eq!(seq.vs_kara_seq, Some(1.0));
    }

    #[test]
    fn run_verifies_and_reports_every_configuration() {
        let mut calls = 0;
        let recs = run(&plan(), |_, _, _| calls += 1).unwrap();
        assert_eq!(recs.len(), 2 * 16);
        assert_eq!(calls, 3);
        assert!(
            recs.iter()
                .all(|r| r.verified && r.timing.runs == 2 && r.batch >= 1)
        );
        let gmp = recs.iter().find(|r| r.method == "gmp").unwrap();
        assert_eq!((gmp.vs_gmp, gmp.threads, gmp.depth), (1.0, 1, 0));
        assert!(
            recs.iter()
                .any(|r| r.method == "kara-pool" && r.threads == 3)
        );
        assert!(recs.iter().all(|r| r.vs_kara_seq.is_some()));
        let mut pinned = plan();
        (pinned.bits, pinned.kara.pin) = (vec![256], true);
        let recs = run(&pinned, |_, _, _| ()).unwrap();
        assert!(recs.iter().all(|r| r.pinned == is_parallel(&r.method)));
        let cores = logical_cores();
        assert!(recs.iter().all(|r| r.oversubscribed == (r.threads > cores)));
    }

    #[test]
    fn bad_plans_are_refused() {
        let cases: [fn(&mut MulBenchPlan); 6] = [
            |p| p.bits = vec![0],
            |p| p.leaves = vec![],
            |p| p.methods = vec!["fft".into()],
            |p| p.threads = vec![5],
            |p| p.threads = vec![],
            |p| p.batch_s = 0.0,
        ];
        for f in cases {
            let mut p = plan();
            f(&mut p);
            assert!(matches!(p.validate(), Err(Error::InvalidParameter(_))));
        }
    }

    #[test]
    fn operands_have_exact_sizes_and_break_even_reads_from_the_top() {
        let (a, b) = operands(4097, 1);
        assert_eq!((a.significant_bits(), b.significant_bits()), (4097, 4097));
        assert_ne!(a, b);
        let rec = |bits, vs_gmp| MulBenchRecord {
            method: "kara-lockfree".into(),
            bits,
            threads: 2,
            timing: TimingFields::new(
                &Summary::from_samples(&[1.0]).unwrap(),
                vec![1.0],
                TimingColumns::MEAN_CI95,
            ),
            batch: 1,
            vs_gmp,
            vs_kara_seq: None,
            depth: 1,
            leaves: Some("gmp".into()),
            oversubscribed: false,
            pinned: false,
            verified: true,
            capacity: None,
            cross_core_us: None,
            heap_peak_bytes: None,
            heap_peak_over_operands: None,
            note: String::new(),
        };
        let recs = [
            rec(1024, 0.9),
            rec(2048, 1.1),
            rec(4096, 0.95),
            rec(8192, 0.8),
        ];
        assert_eq!(break_even(&recs, "kara-lockfree", 2), Some(4096));
        assert_eq!(break_even(&recs, "kara-lockfree", 3), None);
        assert_eq!(break_even(&recs[..2], "kara-lockfree", 2), None);
    }
}
