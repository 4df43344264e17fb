//! `parcrypt bench mul` (the Karatsuba family against GMP `mpz_mul`, m-ary/Karatsuba) and
//! `parcrypt bench handoff` (thread-activation costs), each printed beside the seed's figures.
use super::bench_opts::{RunOpts, Threads, flags, statistics_notes, threads_list};
use super::mul::KaraOpts;
use super::parse_list;
use anyhow::Result;
use clap::Args;
use parcrypt::mul::ntt::Backend;
use parcrypt::mul::{Leaves, METHODS, is_parallel};
use parcrypt_lab::bench::capacity::{
    CAPACITY_BITS, CROSS_CORE_BYTES, FAR, cores_apart, near_level,
};
use parcrypt_lab::bench::{BenchConfig, BenchReport, MachineInfo, logical_cores};
use parcrypt_lab::suites::mul::{MAX_BITS, MulBenchPlan, MulBenchRecord, break_even};
use parcrypt_lab::suites::mul_handoff::HandoffRecord;
use parcrypt_lab::suites::mul_paper as seed;

fn bits_list(s: &str) -> Result<Vec<u32>, String> {
    parse_list(s, "bits", |t| match t.parse::<u32>() {
        Ok(b) if (2..=MAX_BITS).contains(&b) => Ok(b),
        _ => Err(format!(
            "sizes must be integers in 2..={MAX_BITS}, got '{t}'"
        )),
    })
}

fn leaves_list(s: &str) -> Result<Vec<Leaves>, String> {
    parse_list(s, "leaves", super::mul::leaves)
}

fn methods_list(s: &str) -> Result<Vec<String>, String> {
    parse_list(s, "method", |t| {
        if parcrypt::mul::is_method(t) {
            Ok(t.to_string())
        } else {
            Err(parcrypt::mul::unknown_method(t).to_string())
        }
    })
}

/// Arguments of `bench mul`.
#[derive(Args, Debug)]
pub struct BenchMulArgs {
    /// Operand sizes in bits.
    #[arg(long, default_value = "1024,2048,4096,8192,16384,32768,65536", value_parser = bits_list)]
    bits: std::vec::Vec<u32>,
    /// Methods (default: all); gmp is always measured, as the baseline.
    #[arg(long, value_parser = methods_list)]
    methods: Option<std::vec::Vec<String>>,
    /// Threads in all (caller + helpers, 1 to 4) for the parallel methods, comma-separated;
    /// default: the logical CPUs, at most 4.
    #[arg(long, value_parser = threads_list)]
    threads: Option<Threads>,
    #[command(flatten)]
    kara: KaraOpts,
    /// What multiplies the Karatsuba methods' leaves, comma-separated: gmp (the seed's), best
    /// (beyond the seed: the NTT on one thread from a threshold timed on this machine, else
    /// GMP), or both (`gmp,best`: each kara-* method twice, interleaved).
    #[arg(long, default_value = "gmp", value_parser = leaves_list)]
    leaves: std::vec::Vec<Leaves>,
    /// Target milliseconds of one sample (a batch of products, divided afterwards).
    #[arg(long, default_value_t = 10.0)]
    batch_ms: f64,
    /// Seed of the operands.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    #[command(flatten)]
    opts: RunOpts,
}

/// Arguments of `bench handoff` (one run is one activation sample).
#[derive(Args, Debug)]
pub struct BenchHandoffArgs {
    #[command(flatten)]
    opts: RunOpts,
}

/// The columns shown on screen for `bench mul` (the files keep every field).
#[derive(serde::Serialize)]
struct MulRow {
    bits: u32,
    method: String,
    threads: usize,
    median_us: f64,
    min_us: f64,
    max_us: f64,
    runs: usize,
    batch: u64,
    vs_gmp: f64,
    vs_seq: Option<f64>,
    seed_us: Option<f64>,
    seed_vs_gmp: Option<f64>,
    seed_vs_seq: Option<f64>,
    capacity: Option<f64>,
    x_core_us: Option<f64>,
    heap_x: Option<f64>,
    flags: String,
}

/// Runs `bench mul`.
pub fn mul(args: BenchMulArgs) -> Result<()> {
    let opts = &args.opts;
    let config = opts.config()?;
    if !(args.batch_ms.is_finite() && args.batch_ms > 0.0) {
        return Err(super::usage("--batch-ms must be a positive number"));
    }
    let plan = MulBenchPlan {
        bits: args.bits,
        methods: args
            .methods
            .unwrap_or_else(|| METHODS.iter().map(|m| m.to_string()).collect()),
        threads: args
            .threads
            .map_or_else(|| vec![super::mul::default_kara_threads()], |t| t.0),
        kara: args.kara.config(),
        leaves: args.leaves,
        seed: args.seed,
        config,
        batch_s: args.batch_ms / 1e3,
        probe_each_size: true,
    };
    plan.validate()?;
    let machine = MachineInfo::detect();
    let progress = opts.progress(plan.bits.len(), "bench mul");
    let records = parcrypt_lab::suites::mul::run(&plan, progress.reporter())?;
    progress.finish_and_clear();
    let screen = opts.screen();
    if screen {
        println!(
            "Big-integer products, depth {}, threshold {} bits, Karatsuba leaves {}{}; times per product; {}",
            plan.kara.depth,
            plan.kara.threshold_bits,
            plan.leaves
                .iter()
                .map(|l| l.name())
                .collect::<Vec<_>>()
                .join(" and "),
            if plan.kara.pin {
                ", pinned helpers"
            } else {
                ""
            },
            machine.one_line()
        );
    }
    opts.print_table(&mul_rows(&records))?;
    if screen {
        for note in mul_notes(&records, &plan) {
            println!("{note}");
        }
    }
    opts.write_files(&BenchReport::new(machine, records))
}

fn mul_rows(records: &[MulBenchRecord]) -> Vec<MulRow> {
    let round = |x: f64| (x * 1000.0).round() / 1000.0;
    records
        .iter()
        .map(|r| {
            // The seed's figures are for its GMP leaves only.
            let seed_form = r.label() == r.method;
            let s = seed::ratio(&r.method, r.bits).filter(|_| seed_form);
            MulRow {
                bits: r.bits,
                method: r.label(),
                threads: r.threads,
                median_us: r.timing.median_s * 1e6,
                min_us: r.timing.min_s * 1e6,
                max_us: r.timing.max_s * 1e6,
                runs: r.timing.runs,
                batch: r.batch,
                vs_gmp: round(r.vs_gmp),
                vs_seq: r.vs_kara_seq.map(round),
                seed_us: seed::us_per_product(&r.method, r.bits).filter(|_| seed_form),
                seed_vs_gmp: s.and_then(|s| s.vs_gmp).map(|f| round(1.0 + f)),
                seed_vs_seq: s.and_then(|s| s.vs_kara_seq).map(|f| round(1.0 + f)),
                capacity: r.capacity.map(|c| (c * 100.0).round() / 100.0),
                x_core_us: r.cross_core_us.map(|c| (c * 100.0).round() / 100.0),
                heap_x: r
                    .heap_peak_over_operands
                    .map(|h| (h * 100.0).round() / 100.0),
                flags: flags(r.oversubscribed, &r.timing),
            }
        })
        .collect()
}

/// Where the seed's columns come from, the break-even size of each parallel configuration,
/// and what the machine was like.
fn mul_notes(records: &[MulBenchRecord], plan: &MulBenchPlan) -> Vec<String> {
    let mut notes = vec![
        "vs_gmp, vs_seq: our median / GMP's (kara-seq's) median at the same size, same run; \
         < 1 is faster."
            .to_string(),
        format!(
            "capacity: throughput of the most threads of the run each doing independent \
             {CAPACITY_BITS}-bit GMP products, against one thread (ideal = threads), probed \
             just before and after each size: what the machine really gave in parallel."
        ),
        format!(
            "x_core_us: µs to move {CROSS_CORE_BYTES} bytes between two threads and back, the \
             slower of probes just before and after each size. It jumps several times over when \
             the CPUs stop sharing a cache (a hypervisor moving virtual CPUs does this for \
             seconds to minutes), and then every parallel form is slower, though capacity reads \
             the same."
        ),
        "heap_x: a warm product's peak Rust-heap scratch over its operands' bytes (measured by \
         the command's counting allocator; GMP's own temporaries, as in gmp and par-gmp's GMP \
         products, are not Rust heap and not counted; heap_peak_bytes in the files)."
            .to_string(),
        "seed_us: the seed's µs per product on an i7-2600 (1 thread); seed_vs_gmp/seed_vs_seq: \
         its time ratios with 3 threads (i7-2600 for std::async/std::thread/inf-threads, Xeon \
         E5-2650 v2 8c/16t for lock-free)."
            .to_string(),
    ];
    let largest = plan.bits.iter().max().copied().unwrap_or(0);
    for (label, threads) in runs(records.iter().filter(|r| is_parallel(&r.method))) {
        notes.push(match break_even(records, &label, threads) {
            Some(b) => format!(
                "{label} on {threads} threads beats GMP from {b} bits up (every measured size >= {b})."
            ),
            None => format!(
                "{label} on {threads} threads does not beat GMP at {largest} bits (the largest measured)."
            ),
        });
    }
    if plan.leaves.contains(&Leaves::Best) {
        notes.push(match parcrypt::mul::par::ntt_from_known(1) {
            Some(Some(f)) => format!(
                "best leaves: the NTT ({}) on one thread multiplies a Karatsuba leaf from {f} \
                 limbs ({} Kbit) on, timed here against GMP; GMP below.",
                Backend::auto().name(),
                f * 64 / 1024
            ),
            _ => "best leaves: the NTT on one thread never beat GMP here (timed), so GMP \
                  multiplies every leaf."
                .to_string(),
        });
    }
    for &t in plan.threads.iter().filter(|&&t| t > 1) {
        // With h = t - 1 helpers the critical path is ceil(3 / t) of the three half products.
        let share = 3usize.div_ceil(t) as f64 / 3.0;
        let bound: Vec<String> = plan
            .bits
            .iter()
            .filter_map(|&bits| {
                let at = |m: &str| records.iter().find(|r| r.label() == m && r.bits == bits);
                let (gmp, seq) = (at("gmp")?, at("kara-seq")?);
                Some(format!(
                    "{bits}: {:.2}",
                    share * seq.timing.median_s / gmp.timing.median_s
                ))
            })
            .collect();
        if !bound.is_empty() {
            notes.push(format!(
                "model, not measured: the best a {t}-thread split could reach on idle, truly \
                 parallel cores ({share:.2} x kara-seq, handoff ignored) / GMP: {}.",
                bound.join(", ")
            ));
        }
    }
    notes.extend(ntt_level_notes(records));
    if let Some(warning) = cross_core_warning(records) {
        notes.push(warning);
    }
    let cpus = logical_cores();
    if cpus <= 2 {
        notes.push(format!(
            "note: this machine has {cpus} logical CPU(s), shared with other jobs: a helper \
             competes with everything else running, so parallel figures are pessimistic."
        ));
    }
    notes.push(
        "note: GMP allocations go through parcrypt's wiping allocator (every freed block is \
         zeroed), for all methods alike."
            .into(),
    );
    notes.extend(statistics_notes(records.iter().map(|r| &r.timing)));
    notes
}

/// Each (method as tables name it, threads) of `records` once, in the order first met.
fn runs<'a>(records: impl IntoIterator<Item = &'a MulBenchRecord>) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for r in records {
        let run = (r.label(), r.threads);
        if !out.contains(&run) {
            out.push(run);
        }
    }
    out
}

/// Per NTT method and thread count measured at two sizes or more: the median time (and the
/// fastest, which bursts of load on a shared machine touch least) over `primes · N · log2 N`
/// (N the points of each transform, [`Backend::transform`]), in ns, by size. The transforms' work grows as `N·log2 N`; the splitting and recombination as `N`, so
/// small sizes read higher. Where the figure rises as the operands leave the caches, the
/// transform pays for memory; where it stays level, it does not.
fn ntt_level_notes(records: &[MulBenchRecord]) -> Vec<String> {
    let mut notes = Vec::new();
    for (method, threads) in runs(records) {
        let Some(backend) = Backend::of_method(&method) else {
            continue;
        };
        let per: Vec<String> = records
            .iter()
            .filter(|x| x.label() == method && x.threads == threads)
            .filter_map(|x| {
                let limbs = (x.bits as usize).div_ceil(64);
                let (n, primes) = backend.transform(limbs, limbs)?;
                let work = (primes * n) as f64 * (n as f64).log2();
                Some(format!(
                    "{} bits {:.2} ({:.2}; N = {n})",
                    x.bits,
                    x.timing.median_s * 1e9 / work,
                    x.timing.min_s * 1e9 / work
                ))
            })
            .collect();
        if per.len() >= 2 {
            notes.push(format!(
                "{} on {} thread(s), ns per point and level: median time (fastest) / (primes · N · \
                 log2 N), N the transform's points; level where the transform does not pay for \
                 memory: {}.",
                method,
                threads,
                per.join(", ")
            ));
        }
    }
    notes
}

/// A warning when the cross-core probe read more than `FAR` times its usual level (the
/// [`near_level`] of its readings) at some size: the CPUs stopped sharing a cache during the
/// run.
fn cross_core_warning(records: &[MulBenchRecord]) -> Option<String> {
    let readings: Vec<(u32, f64)> = records
        .iter()
        .filter_map(|r| Some((r.bits, r.cross_core_us?)))
        .collect();
    let level = near_level(&readings.iter().map(|r| r.1).collect::<Vec<_>>())?;
    let mut far: Vec<String> = readings
        .iter()
        .filter(|&&(_, us)| cores_apart(us, level))
        .map(|(bits, us)| format!("{bits} bits ({us:.2} µs)"))
        .collect();
    far.dedup();
    (!far.is_empty()).then(|| {
        format!(
            "warning: the cross-core probe read over {FAR} times its usual level ({level:.2} µs) \
             around {}: the CPUs did not share a cache there, so parallel figures at those sizes \
             are slower than this machine gives otherwise; run again.",
            far.join(", ")
        )
    })
}

/// The columns shown on screen for `bench handoff`.
#[derive(serde::Serialize)]
struct HandoffRow {
    primitive: String,
    median_us: f64,
    min_us: f64,
    max_us: f64,
    runs: usize,
    per_sample: u32,
    pinned: bool,
    seed_us: String,
    note: String,
}

/// Runs `bench handoff`.
pub fn handoff(args: BenchHandoffArgs) -> Result<()> {
    let opts = &args.opts;
    let config: BenchConfig = opts.config()?;
    let machine = MachineInfo::detect();
    let kinds = parcrypt_lab::suites::mul_handoff::Activation::ALL.len();
    let progress = opts.progress(kinds, "bench handoff");
    let records = parcrypt_lab::suites::mul_handoff::run(&config, progress.reporter())?;
    progress.finish_and_clear();
    let screen = opts.screen();
    if screen {
        println!("Thread activation, µs; {}", machine.one_line());
    }
    opts.print_table(&handoff_rows(&records))?;
    if !screen {
        return opts.write_files(&BenchReport::new(machine, records));
    }
    println!(
        "seed_us: the seed's range over i7-2600, E5-2650 v2 and i7-6800K (C++, pinned threads)."
    );
    println!(
        "lockfree-handoff is a round trip (ping and pong); one activation is about half of it."
    );
    let cpus = logical_cores();
    if cpus <= 2 {
        println!(
            "note: this machine has {cpus} logical CPU(s), shared with other jobs: a spinning \
             partner may be descheduled, which shows in max_us and can lift the median."
        );
    }
    opts.write_files(&BenchReport::new(machine, records))
}

fn handoff_rows(records: &[HandoffRecord]) -> Vec<HandoffRow> {
    records
        .iter()
        .map(|r| HandoffRow {
            primitive: r.primitive.clone(),
            median_us: r.median_us,
            min_us: r.min_us,
            max_us: r.timing.max_s * 1e6,
            runs: r.timing.runs,
            per_sample: r.per_sample,
            pinned: r.pinned,
            seed_us: seed::handoff_range(&r.primitive).unwrap_or_default(),
            note: r.note.clone(),
        })
        .collect()
}
