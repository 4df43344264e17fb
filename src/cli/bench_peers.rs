//! `parcrypt bench peers`: parcrypt's best sequential and parallel forms against GMP and
//! OpenSSL, one row per piece of work. The suite — rows, peer runners, ratios and the targets'
//! verdicts — is [`parcrypt_lab::suites::peers`]; this file parses the arguments and prints.
use super::bench_opts::RunOpts;
use anyhow::Result;
use clap::Args;
use parcrypt_lab::bench::{Bench, BenchReport, MachineInfo, format_seconds};
use parcrypt_lab::suites::peers::{PeerRecord, Setup, all_rows, gmp63, known_rows};
use serde::Serialize;

fn rows_list(s: &str) -> Result<Vec<String>, String> {
    super::parse_list(s, "row", |t| {
        let known = known_rows();
        if known.contains(&t) {
            Ok(t.to_string())
        } else {
            Err(format!("unknown row '{t}' (known: {})", known.join(", ")))
        }
    })
}

/// Arguments of `bench peers`.
#[derive(Args, Debug)]
pub struct BenchPeersArgs {
    /// Rows to run (default: all), comma-separated: product-32k, product-64k, product-128k,
    /// product-1m, modexp-8192, modexp-16384, rsa-2048, rsa-3072, rsa-4096 (against `openssl
    /// speed`), rc4, bf-ecb, bf-cbc, bf-pipeline; built with `--features awslc` also
    /// awslc-rsa-2048, awslc-rsa-3072, awslc-rsa-4096 (against aws-lc-rs in process) and
    /// awslc-parsa-2048 (many messages over the threads against aws-lc-rs signing on as many); built with `--features flint` (scripts/flint-peer.sh)
    /// also flint1-product-64k, flint-product-64k, flint1-product-1m, flint-product-1m,
    /// flint1-product-16m, flint-product-16m (FLINT's fmpz_mul on 1 and N threads) and flint-modexp-8192 (fmpz_powm); with the GMP 6.3
    /// helper (scripts/gmp63-peer.sh; see --gmp63) gmp63-product-64k, gmp63-product-1m,
    /// gmp63-product-16m (GMP 6.3's mpz_mul against the system GMP's and par-gmp) and gmp63-modexp-8192
    /// (GMP 6.3's mpz_powm), in the default set only where the helper is found.
    #[arg(long, value_parser = rows_list)]
    rows: Option<std::vec::Vec<String>>,
    /// The GMP 6.3 helper of the gmp63-* rows (built by scripts/gmp63-peer.sh); default: the
    /// environment variable PARCRYPT_GMP63, else gmp63/release/gmp63-peer in the target
    /// directory this program was built in.
    #[arg(long, value_name = "PATH")]
    gmp63: Option<std::path::PathBuf>,
    /// Threads of parcrypt's parallel forms (the caller included); default: the logical CPUs.
    #[arg(long, default_value_t = super::default_threads())]
    threads: usize,
    /// Seconds of each `openssl speed` sample.
    #[arg(long, default_value_t = 1)]
    openssl_seconds: u32,
    /// Target milliseconds of one in-process sample (a batch, divided afterwards).
    #[arg(long, default_value_t = 50.0)]
    batch_ms: f64,
    /// Bytes per cipher operation (a whole number of 8-byte blocks is used).
    #[arg(long, default_value = "4MiB", value_parser = super::bench_cipher::parse_size)]
    cipher_bytes: usize,
    /// Seed of operands and keys.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Kernel of the RSA rows: auto (the fastest constant-time Montgomery kernel here, timed at first use),
    /// ifma, mulx, portable, or gmp-sec (GMP's mpn_sec_* functions: constant time in the
    /// exponent, variable time in the prime).
    #[arg(long, default_value = "auto", value_parser = super::rsa::kernel_arg)]
    kernel: parcrypt::hazmat::kernel::PrivateKernel,
    #[command(flatten)]
    opts: RunOpts,
}

/// The screen table's columns.
#[derive(Serialize)]
struct Screen {
    work: String,
    peer: String,
    seq: String,
    par: String,
    #[serde(rename = "peer/seq")]
    peer_seq: String,
    #[serde(rename = "peer/par")]
    peer_par: String,
    #[serde(rename = "seq/par")]
    seq_par: String,
    ceiling: String,
    targets: String,
}

/// A time, or a throughput for rows with a byte count.
fn amount(name: &Option<String>, s: Option<f64>, bytes: Option<usize>) -> String {
    match (name, s) {
        (Some(n), Some(s)) => match bytes {
            Some(b) => format!("{n} {:.0} MB/s", b as f64 / s / 1e6),
            None => format!("{n} {}", format_seconds(s)),
        },
        _ => "—".into(),
    }
}

fn ratio_text(m: Option<f64>, lo: Option<f64>, hi: Option<f64>) -> String {
    match (m, lo, hi) {
        (Some(m), Some(l), Some(h)) => format!("{m:.2} [{l:.2}, {h:.2}]"),
        _ => "—".into(),
    }
}

fn screen(r: &PeerRecord) -> Screen {
    Screen {
        work: r.work.clone(),
        peer: amount(&r.peer, r.peer_s, r.bytes),
        seq: amount(&r.seq, r.seq_s, r.bytes),
        par: amount(
            &r.par
                .as_ref()
                .map(|n| format!("{n} ({}t)", r.par_threads.unwrap_or(1))),
            r.par_s,
            r.bytes,
        ),
        peer_seq: ratio_text(r.peer_over_seq, r.peer_over_seq_low, r.peer_over_seq_high),
        peer_par: ratio_text(r.peer_over_par, r.peer_over_par_low, r.peer_over_par_high),
        seq_par: ratio_text(r.seq_over_par, r.seq_over_par_low, r.seq_over_par_high),
        ceiling: ratio_text(r.ceiling_ratio, r.ceiling_ratio_low, r.ceiling_ratio_high),
        targets: r.targets.clone(),
    }
}

/// Runs `bench peers`.
pub fn peers(args: BenchPeersArgs) -> Result<()> {
    let config = args.opts.config()?;
    if !(2..=64).contains(&args.threads) {
        return Err(super::usage("--threads must be 2 to 64"));
    }
    if !(args.batch_ms.is_finite() && args.batch_ms > 0.0) || args.openssl_seconds == 0 {
        return Err(super::usage(
            "--batch-ms and --openssl-seconds must be positive",
        ));
    }
    if let Some(path) = args.gmp63.clone() {
        gmp63::set_helper(path);
    }
    let ids: Vec<&'static str> = match &args.rows {
        Some(list) => known_rows()
            .into_iter()
            .filter(|r| list.iter().any(|x| x == r))
            .collect(),
        None => all_rows(),
    };
    let setup = Setup {
        threads: args.threads,
        openssl_seconds: args.openssl_seconds,
        batch_s: args.batch_ms / 1e3,
        cipher_bytes: args.cipher_bytes,
        seed: args.seed,
        kernel: args.kernel,
    };
    let bench = Bench::new(config)?;
    let machine = MachineInfo::detect();
    let progress = args.opts.progress(ids.len(), "bench peers");
    let run = parcrypt_lab::suites::peers::run(&ids, &setup, &bench, progress.reporter())?;
    progress.finish();
    let (records, before, after) = (run.records, run.capacity_before, run.capacity_after);
    if !args.opts.screen() {
        args.opts
            .print_table(&records.iter().map(screen).collect::<Vec<_>>())?;
        return args.opts.write_files(&BenchReport::new(machine, records));
    }
    println!(
        "parcrypt against its peers, {} thread(s) for the parallel forms; {}",
        args.threads,
        machine.one_line()
    );
    let table: Vec<Screen> = records.iter().map(screen).collect();
    args.opts.print_table(&table)?;
    println!(
        "ratios: peer time / parcrypt time per round (> 1: parcrypt faster), median [95 % \
         interval]; seq/par: the parallel form's speedup over the sequential one; ceiling: \
         independent copies of the sequential kernel (GMP's product for the product rows), one \
         per thread, at once, against one copy: the most a parallel form of it could gain here."
    );
    println!(
        "parallel capacity (throughput of {} threads of independent GMP products / one \
         thread; ideal {}): {before:.2} before, {after:.2} after",
        args.threads, args.threads
    );
    if records
        .iter()
        .any(|r| r.rounds < parcrypt_lab::bench::MIN_RUNS_FOR_CI)
    {
        println!(
            "note: fewer than {} rounds give min..max instead of a 95 % interval (use --runs {})",
            parcrypt_lab::bench::MIN_RUNS_FOR_CI,
            parcrypt_lab::bench::MIN_RUNS_FOR_CI
        );
    }
    args.opts.write_files(&BenchReport {
        machine,
        results: records,
    })
}
