//! `parcrypt bench modexp`, `parcrypt bench rsa-private` and `parcrypt bench montmul`:
//! exponentiation strategies against `binary` and `gmp`, single-operation RSA private-key
//! latency, and the constant-time kernels' cost per Montgomery product.
use super::bench_opts::{RunOpts, Threads, flags, statistics_notes, threads_list};
use super::modexp::SlicingArg;
use super::parse_list;
use anyhow::Result;
use clap::Args;
use parcrypt::hazmat::bignum::ct::Backend;
use parcrypt::hazmat::kernel::PrivateKernel;
use parcrypt::modexp::{Kernel, Params};
use parcrypt_lab::bench::{BenchReport, MachineInfo, format_number};
use parcrypt_lab::suites::modexp::{ModexpBenchPlan, ModexpRecord, all_method_names};
use parcrypt_lab::suites::montmul::{MontmulPlan, MontmulRecord};
use parcrypt_lab::suites::rsa_latency::{self, Latency, LatencyRecord};

fn bits_list(s: &str) -> Result<Vec<u32>, String> {
    parse_list(s, "bits", |t| match t.parse::<u32>() {
        Ok(b) if (64..=65536).contains(&b) => Ok(b),
        _ => Err(format!("sizes must be integers in 64..=65536, got '{t}'")),
    })
}

/// Kernel names, or `all`: every kernel this CPU runs (auto excluded: it is one of them).
pub fn kernels_list(s: &str) -> Result<Vec<PrivateKernel>, String> {
    if s == "all" {
        return Ok(PrivateKernel::ALL
            .into_iter()
            .filter(|k| *k != PrivateKernel::Auto && k.unavailable_reason().is_none())
            .collect());
    }
    parse_list(s, "kernel", super::rsa::kernel_arg)
}

fn names_list(s: &str) -> Result<Vec<String>, String> {
    parse_list(s, "method", |t| Ok(t.to_string()))
}

/// Arguments of `bench modexp`.
#[derive(Args, Debug)]
pub struct BenchModexpArgs {
    /// Modulus and exponent sizes in bits.
    #[arg(long, default_value = "1024,2048,4096", value_parser = bits_list)]
    bits: std::vec::Vec<u32>,
    /// Methods (default: all); binary and gmp are always measured as references.
    #[arg(long, value_parser = names_list)]
    methods: Option<std::vec::Vec<String>>,
    /// Thread counts for the parallel methods (default: 1 and the logical CPUs).
    #[arg(long, value_parser = threads_list)]
    threads: Option<Threads>,
    /// Window / digit size r (default: chosen per size).
    #[arg(long)]
    window: Option<u32>,
    /// Table-building threads of mary-precomp (default: as --threads).
    #[arg(long)]
    precomp_threads: Option<usize>,
    /// Cubes of the CRSA hypercube.
    #[arg(long)]
    cubes: Option<usize>,
    /// How `slice` cuts the exponent.
    #[arg(long, value_enum, default_value_t = SlicingArg::Balanced)]
    slicing: SlicingArg,
    /// Pin threads to logical CPUs.
    #[arg(long)]
    pin: bool,
    /// Modular product of the counted strategies: auto (Montgomery on GMP's mpn layer for odd
    /// moduli), montgomery, or mpz (mpz_mul + mpz_tdiv_r, the seeds' plain MulMod).
    #[arg(long, default_value = "auto", value_parser = kernel_arg)]
    kernel: Kernel,
    /// Seed of the operands.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    #[command(flatten)]
    opts: RunOpts,
}

fn kernel_arg(s: &str) -> Result<Kernel, String> {
    Kernel::parse(s).ok_or_else(|| format!("kernel must be auto, montgomery or mpz, got '{s}'"))
}

/// Arguments of `bench rsa-private`.
#[derive(Args, Debug)]
pub struct BenchRsaPrivateArgs {
    /// Modulus sizes in bits (multiples of 64).
    #[arg(long, default_value = "2048,4096", value_parser = bits_list)]
    bits: std::vec::Vec<u32>,
    /// Methods (default: all but crt-nocheck): plain, crt, crt-nocheck (crt without the fault
    /// check, to measure its cost; constant-time kernels only), crt-parallel,
    /// multiprime-3[-seq], multiprime-4[-seq].
    #[arg(long, value_parser = names_list)]
    methods: Option<std::vec::Vec<String>>,
    /// Use mpz_powm (variable-time) instead of the constant-time kernels.
    #[arg(long)]
    variable_time: bool,
    /// Kernels of the constant-time forms, run beside each other: auto (the best Montgomery
    /// kernel this CPU runs), ifma, mulx, portable, gmp-sec (GMP's mpn_sec_* functions:
    /// variable time in the prime), or all (every kernel this CPU runs).
    #[arg(long, default_value = "auto,gmp-sec", value_parser = kernels_list)]
    kernels: std::vec::Vec<PrivateKernel>,
    /// Seconds per `openssl speed` measurement (0: do not run openssl).
    #[arg(long, default_value_t = 3)]
    openssl_seconds: u32,
    /// Seed of the keys.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    #[command(flatten)]
    opts: RunOpts,
}

#[derive(serde::Serialize)]
struct ModexpRow {
    bits: u32,
    method: String,
    threads: usize,
    median_s: f64,
    min_s: f64,
    max_s: f64,
    runs: usize,
    mulmods: String,
    critical: String,
    vs_binary: String,
    vs_gmp: f64,
    seed_claim: String,
    flags: String,
}

/// Runs `bench modexp`.
pub fn modexp(args: BenchModexpArgs) -> Result<()> {
    let config = args.opts.config()?;
    let methods = args.methods.unwrap_or_else(all_method_names);
    for m in &methods {
        parcrypt::modexp::method(m).map_err(|e| super::usage(e.to_string()))?;
    }
    if let Some(w) = args.window {
        parcrypt::modexp::digits::check_window(w).map_err(|e| super::usage(e.to_string()))?;
    }
    let plan = ModexpBenchPlan {
        bits: args.bits,
        methods,
        threads: Threads::or_default_sweep(args.threads),
        params: Params {
            threads: 1,
            window: args.window,
            precomp_threads: args.precomp_threads,
            cubes: args.cubes,
            slicing: args.slicing.into(),
            pin: args.pin,
            kernel: args.kernel,
        },
        seed: args.seed,
        config,
    };
    let machine = MachineInfo::detect();
    let progress = args.opts.progress(plan.bits.len(), "bench modexp");
    let records = parcrypt_lab::suites::modexp::run(&plan, progress.reporter())?;
    progress.finish();
    let screen = args.opts.screen();
    if screen {
        println!(
            "modular exponentiation, exponent as long as the modulus; {}",
            machine.one_line()
        );
    }
    let rows: Vec<ModexpRow> = records.iter().map(modexp_row).collect();
    args.opts.print_table(&rows)?;
    if screen {
        println!(
            "vs_binary: time change against square-and-multiply (negative = faster), the seeds' convention"
        );
        for note in statistics_notes(records.iter().map(|r| &r.timing)) {
            println!("{note}");
        }
    }
    args.opts.write_files(&BenchReport {
        machine,
        results: records,
    })
}

fn modexp_row(r: &ModexpRecord) -> ModexpRow {
    let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    ModexpRow {
        bits: r.bits,
        method: r.method.clone(),
        threads: r.threads,
        median_s: r.timing.median_s,
        min_s: r.timing.min_s,
        max_s: r.timing.max_s,
        runs: r.timing.runs,
        mulmods: opt(r.mulmods),
        critical: opt(r.critical_mulmods),
        vs_binary: format!("{:+.1} %", r.vs_binary_pct),
        vs_gmp: r.vs_gmp,
        seed_claim: r.seed_claim.clone(),
        flags: flags(r.oversubscribed, &r.timing),
    }
}

#[derive(serde::Serialize)]
struct LatencyRow {
    bits: u32,
    method: String,
    kernel: String,
    backend: String,
    threads: usize,
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
    runs: usize,
    ops_per_s: f64,
    speedup_vs_crt: f64,
    openssl_sign_ms: String,
    vs_openssl: String,
    flags: String,
}

/// Runs `bench rsa-private`.
pub fn rsa_private(args: BenchRsaPrivateArgs) -> Result<()> {
    let config = args.opts.config()?;
    let methods = args.methods.unwrap_or_else(rsa_latency::default_methods);
    rsa_latency::check_methods(&methods).map_err(|e| super::usage(e.to_string()))?;
    if let Some(b) = args.bits.iter().find(|b| *b % 64 != 0 || **b < 512) {
        return Err(super::usage(format!(
            "RSA sizes must be multiples of 64 from 512, got {b}"
        )));
    }
    let machine = MachineInfo::detect();
    let progress = args.opts.progress(args.bits.len(), "bench rsa-private");
    let what = Latency {
        bits: &args.bits,
        names: &methods,
        constant_time: !args.variable_time,
        kernels: &args.kernels,
        openssl_seconds: args.openssl_seconds,
        seed: args.seed,
        config,
    };
    let records = rsa_latency::run(&what, progress.reporter())?;
    progress.finish();
    let screen = args.opts.screen();
    if screen {
        let kernels: Vec<&str> = args.kernels.iter().map(|k| k.name()).collect();
        println!(
            "RSA private-key latency, one operation at a time ({}); {}",
            if args.variable_time {
                "mpz_powm, variable-time".to_string()
            } else {
                let named: Vec<String> = kernels
                    .iter()
                    .map(|&k| match k {
                        "gmp-sec" => "gmp-sec (variable time in the prime)".to_string(),
                        _ => format!("{k} (constant time)"),
                    })
                    .collect();
                format!(
                    "kernels {} (auto for 1024-bit primes = {})",
                    named.join(", "),
                    parcrypt::hazmat::bignum::ct::choice::choice_for(1024).describe()
                )
            },
            machine.one_line()
        );
    }
    let rows: Vec<LatencyRow> = records.iter().map(latency_row).collect();
    args.opts.print_table(&rows)?;
    if screen && args.openssl_seconds > 0 && records.iter().all(|r| r.openssl_sign_s.is_none()) {
        println!("note: openssl speed was not available; no OpenSSL comparison");
    }
    if screen {
        for note in statistics_notes(records.iter().map(|r| &r.timing)) {
            println!("{note}");
        }
    }
    args.opts.write_files(&BenchReport {
        machine,
        results: records,
    })
}

fn latency_row(r: &LatencyRecord) -> LatencyRow {
    LatencyRow {
        bits: r.bits,
        method: r.method.clone(),
        kernel: r.kernel.clone().unwrap_or_default(),
        backend: r.backend.clone().unwrap_or_default(),
        threads: r.threads,
        median_ms: r.timing.median_s * 1e3,
        min_ms: r.timing.min_s * 1e3,
        max_ms: r.timing.max_s * 1e3,
        runs: r.timing.runs,
        ops_per_s: r.ops_per_s,
        speedup_vs_crt: r.speedup_vs_crt,
        openssl_sign_ms: r
            .openssl_sign_s
            .map_or("-".into(), |s| format_number(s * 1e3)),
        vs_openssl: r.vs_openssl.map_or("-".into(), format_number),
        flags: flags(r.oversubscribed, &r.timing),
    }
}

/// Backend names, or `all` (every backend this CPU runs).
fn backends_list(s: &str) -> Result<Vec<Backend>, String> {
    if s == "all" {
        return Ok(Backend::ALL.into_iter().filter(|b| b.available()).collect());
    }
    parse_list(s, "backend", |t| {
        let b = Backend::from_name(t)
            .ok_or_else(|| format!("unknown backend '{t}' (known: ifma, mulx, portable, all)"))?;
        match b.unavailable_reason() {
            Some(why) => Err(format!("the {b} backend cannot run here: {why}")),
            None => Ok(b),
        }
    })
}

/// Arguments of `bench montmul`.
#[derive(Args, Debug)]
pub struct BenchMontmulArgs {
    /// Modulus sizes in bits (the CRT halves of RSA-2048, -4096, -8192 by default).
    #[arg(long, default_value = "1024,2048,4096", value_parser = bits_list)]
    bits: std::vec::Vec<u32>,
    /// Backends: ifma, mulx, portable, or all (every backend this CPU runs).
    #[arg(long, default_value = "all", value_parser = backends_list)]
    backends: std::vec::Vec<Backend>,
    /// Dependent squarings per sample.
    #[arg(long, default_value_t = 2000)]
    count: usize,
    /// Seconds of `openssl speed` per size for OpenSSL's estimate (0: none).
    #[arg(long, default_value_t = 1)]
    openssl_seconds: u32,
    /// Seed of the moduli.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    #[command(flatten)]
    opts: RunOpts,
}

#[derive(serde::Serialize)]
struct MontmulRow {
    bits: u32,
    backend: String,
    mode: String,
    ns_per_product: String,
    min_ns: String,
    tsc_per_product: String,
    runs: usize,
    source: String,
}

/// Runs `bench montmul`.
pub fn montmul(args: BenchMontmulArgs) -> Result<()> {
    let config = args.opts.config()?;
    if args.count == 0 {
        return Err(super::usage("--count must be positive"));
    }
    if args.bits.iter().any(|b| *b < 64) {
        return Err(super::usage("moduli of 64 bits or more"));
    }
    let plan = MontmulPlan {
        bits: args.bits.clone(),
        backends: args.backends.clone(),
        count: args.count,
        openssl_seconds: args.openssl_seconds,
        seed: args.seed,
        config,
    };
    let machine = MachineInfo::detect();
    let progress = args.opts.progress(plan.bits.len(), "bench montmul");
    let records = parcrypt_lab::suites::montmul::run(&plan, progress.reporter())?;
    progress.finish();
    let screen = args.opts.screen();
    if screen {
        println!(
            "one Montgomery product of a modulus (dual: two moduli per call, counted as two \
             products), {} dependent squarings a sample; {}",
            args.count,
            machine.one_line()
        );
    }
    let rows: Vec<MontmulRow> = records.iter().map(montmul_row).collect();
    args.opts.print_table(&rows)?;
    if screen {
        println!(
            "tsc: time-stamp-counter ticks (a constant reference rate, not core cycles); \
             openssl: an estimate from its sign time, which also holds the rest of a sign"
        );
    }
    args.opts.write_files(&BenchReport {
        machine,
        results: records,
    })
}

fn montmul_row(r: &MontmulRecord) -> MontmulRow {
    MontmulRow {
        bits: r.bits,
        backend: r.backend.clone(),
        mode: r.mode.clone(),
        ns_per_product: format!("{:.1}", r.ns_per_product),
        min_ns: format!("{:.1}", r.timing.min_s * 1e9),
        tsc_per_product: r.tsc_per_product.map_or("-".into(), |t| format!("{t:.0}")),
        runs: r.timing.runs,
        source: r.source.clone(),
    }
}
