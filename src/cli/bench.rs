//! `parcrypt bench ...`: timed sweeps printed as a table and exported as JSON, CSV or Markdown.
use super::bench_opts::{
    RunOpts, Threads, ci95_cell, flags, positive, statistics_notes, threads_list,
};
use super::{parse_list, parse_positive};
use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use parcrypt::hazmat::textbook::PrivateOp;
use parcrypt::parallel::Schedule;
use parcrypt::rsa::RsaPrivateKey;
use parcrypt_lab::bench::{BenchReport, MachineInfo};
use parcrypt_lab::suites::rsa::{BatchOp, RsaBenchPlan, RsaBenchRecord};
use rand::SeedableRng;
use rug::Integer;
use std::path::PathBuf;

/// The benchmarks.
#[derive(Subcommand, Debug)]
pub enum BenchCommand {
    /// SeRSA against PaRSA (PaRSA): a batch of textbook RSA operations over a grid of
    /// thread counts, schedules and chunk sizes.
    Rsa(BenchRsaArgs),
    /// Modular exponentiation strategies (the CRSA and m-ary/Karatsuba papers) against binary and GMP.
    Modexp(super::bench_modexp::BenchModexpArgs),
    /// RSA private-key latency: CRT, CRT on two threads, multi-prime with a thread per prime,
    /// each constant-time form with the kernels asked for.
    RsaPrivate(super::bench_modexp::BenchRsaPrivateArgs),
    /// One Montgomery product per constant-time backend (single and dual), beside an estimate
    /// of OpenSSL's from `openssl speed`.
    Montmul(super::bench_modexp::BenchMontmulArgs),
    /// Karatsuba family against GMP mpz_mul (m-ary/Karatsuba), beside the seed's figures.
    Mul(super::bench_mul::BenchMulArgs),
    /// Thread-activation costs: spawn, spawn+join, condvar wake, lock-free handoff.
    Handoff(super::bench_mul::BenchHandoffArgs),
    /// Cipher throughput (cipher-energy): Blowfish, PBlock, bf-pipeline, RC4, RC4A, PARC4, PARC4-I
    /// against their sequential forms, in MB/s and TSC cycles per byte.
    Cipher(super::bench_cipher::BenchCipherArgs),
    /// Round-pipelined Blowfish chunk sweep (SCC Blowfish, Fig. 8), with per-stage busy/wait times.
    Pipeline(super::bench_cipher::BenchPipelineArgs),
    /// parcrypt's best sequential and parallel forms against GMP and OpenSSL, interleaved.
    Peers(super::bench_peers::BenchPeersArgs),
    /// Timing-leak test of RSA-OAEP decryption: dudect's Welch t-test on interleaved random
    /// classes (valid/invalid padding, Y = 0/Y != 0, a modulus not a multiple of 64 bits).
    Leak(super::bench_leak::BenchLeakArgs),
}

/// Comma-separated schedules.
#[derive(Clone, Debug)]
pub struct Schedules(Vec<Schedule>);
/// Comma-separated chunk sizes; `default` is the schedule's OpenMP default.
#[derive(Clone, Debug)]
pub struct Chunks(Vec<Option<usize>>);

fn schedule_list(s: &str) -> Result<Schedules, String> {
    parse_list(s, "schedule", |t| {
        t.parse::<Schedule>().map_err(|e| e.to_string())
    })
    .map(Schedules)
}

fn chunk_list(s: &str) -> Result<Chunks, String> {
    parse_list(s, "chunk", |t| match t {
        "default" | "none" => Ok(None),
        _ => parse_positive(t, "chunk size").map(Some),
    })
    .map(Chunks)
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum OpArg {
    /// c = m^e mod n.
    Encrypt,
    /// m = c^d mod n.
    Decrypt,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum PrivateOpArg {
    /// The faster constant-time form here, by measurement at the start: crt-const-time-mb
    /// where eight messages per multi-buffer call beat eight single ones, else crt-const-time.
    Auto,
    /// c^d mod n with mpz_powm (variable-time).
    Plain,
    /// CRT with mpz_powm on p and q (variable-time).
    Crt,
    /// CRT on the key's constant-time kernel (the best Montgomery kernel of this CPU),
    /// checked with the public key.
    CrtConstTime,
    /// CRT on the multi-buffer AVX-512 IFMA kernel: eight messages at once, one per 64-bit
    /// lane (each thread takes groups of eight), constant time and checked as crt-const-time.
    CrtConstTimeMb,
}

/// Arguments of `bench rsa`.
#[derive(Args, Debug)]
pub struct BenchRsaArgs {
    /// Modulus size in bits (a key is generated from --seed unless --key is given).
    #[arg(long, default_value_t = 2048)]
    bits: u32,
    /// Use this private key file instead of generating one.
    #[arg(long)]
    key: Option<PathBuf>,
    /// Messages per batch (the seed's working-set size).
    #[arg(long, default_value = "2000", value_parser = positive)]
    messages: usize,
    /// Operation on every message.
    #[arg(long, value_enum, default_value_t = OpArg::Decrypt)]
    op: OpArg,
    /// How decryption computes c^d mod n.
    #[arg(long, value_enum, default_value_t = PrivateOpArg::Auto)]
    private_op: PrivateOpArg,
    /// Thread counts, comma-separated (default: 1 and the logical CPUs).
    #[arg(long, value_parser = threads_list)]
    threads: Option<Threads>,
    /// Schedules, comma-separated: static, dynamic, guided, steal.
    #[arg(long, default_value = "static,dynamic,guided,steal", value_parser = schedule_list)]
    schedule: Schedules,
    /// Chunk sizes, comma-separated; `default` is OpenMP's default for the schedule.
    #[arg(long, default_value = "default", value_parser = chunk_list)]
    chunk: Chunks,
    /// Pin worker threads to logical CPUs.
    #[arg(long)]
    pin: bool,
    /// Seed of the generated key and messages.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    #[command(flatten)]
    opts: RunOpts,
}

/// Runs a benchmark subcommand.
pub fn run(cmd: BenchCommand) -> Result<()> {
    match cmd {
        BenchCommand::Rsa(args) => bench_rsa(args),
        BenchCommand::Modexp(args) => super::bench_modexp::modexp(args),
        BenchCommand::RsaPrivate(args) => super::bench_modexp::rsa_private(args),
        BenchCommand::Montmul(args) => super::bench_modexp::montmul(args),
        BenchCommand::Mul(args) => super::bench_mul::mul(args),
        BenchCommand::Handoff(args) => super::bench_mul::handoff(args),
        BenchCommand::Cipher(args) => super::bench_cipher::cipher(args),
        BenchCommand::Pipeline(args) => super::bench_cipher::pipeline(args),
        BenchCommand::Peers(args) => super::bench_peers::peers(args),
        BenchCommand::Leak(args) => super::bench_leak::leak(args),
    }
}

fn bench_rsa(args: BenchRsaArgs) -> Result<()> {
    let config = args.opts.config()?;
    args.opts
        .check_not_inputs(&[("--key", args.key.as_deref())])?;
    let key = match &args.key {
        Some(path) => {
            let bytes = parcrypt::io::read_file(path)?;
            parcrypt::rsa::pem::load_private_key(&bytes)
                .with_context(|| path.display().to_string())?
        }
        None => {
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(args.seed);
            RsaPrivateKey::generate_vartime(args.bits, &Integer::from(65537), &mut rng)
                .map_err(|e| super::usage(e.to_string()))?
        }
    };
    let mut plan = RsaBenchPlan {
        messages: args.messages,
        op: match args.op {
            OpArg::Encrypt => BatchOp::Encrypt,
            OpArg::Decrypt => BatchOp::Decrypt,
        },
        private_op: match args.private_op {
            PrivateOpArg::Plain => PrivateOp::PlainVartime,
            PrivateOpArg::Crt => PrivateOp::CrtVartime,
            PrivateOpArg::CrtConstTime | PrivateOpArg::Auto => PrivateOp::CrtConstTime,
            PrivateOpArg::CrtConstTimeMb => PrivateOp::CrtConstTimeMb,
        },
        threads: Threads::or_default_sweep(args.threads),
        schedules: args.schedule.0,
        chunks: args.chunk.0,
        pin: args.pin,
        seed: args.seed,
        config,
    };
    plan.validate()?;
    // `auto`: the constant-time form that runs this key's batch faster here, timed on eight
    // of the batch's own (public) messages before the sweep.
    let choice = (plan.op == BatchOp::Decrypt && matches!(args.private_op, PrivateOpArg::Auto))
        .then(|| {
            let msgs = parcrypt::hazmat::batch::messages(key.public(), 8, plan.seed);
            parcrypt::hazmat::batch::fastest_const_time(&key, &msgs)
        });
    if let Some(c) = choice {
        plan.private_op = c.op;
    }
    if plan.op == BatchOp::Decrypt && plan.private_op == PrivateOp::CrtConstTimeMb {
        // As an unavailable --kernel: a usage error, before any work.
        if let Some(why) = parcrypt::hazmat::multibuffer::unavailable_reason() {
            return Err(super::usage(why));
        }
        if let Some(why) = parcrypt::hazmat::multibuffer::key_refusal(&key) {
            return Err(super::usage(format!(
                "--private-op crt-const-time-mb: {why}"
            )));
        }
    }
    let machine = MachineInfo::detect();
    // The total is planned from the warm-ups: the bar starts with it.
    let progress = args.opts.progress(0, "bench rsa");
    let mut records = parcrypt_lab::suites::rsa::run(&key, &plan, |done, total, label| {
        progress.set_position_of(done as u64, total as u64);
        progress.set_message(label);
    })?;
    progress.finish();
    let chosen = choice.map(|c| format!("auto: {}", c.describe(key.ct_crt().backend_name())));
    for r in &mut records {
        r.private_op_choice = chosen.clone().unwrap_or_default();
    }
    if args.opts.screen() {
        println!(
            "{}-bit RSA {} of {} messages{}; {}",
            key.public().bits(),
            match plan.op {
                BatchOp::Encrypt => "encryption".to_string(),
                BatchOp::Decrypt => format!(
                    "decryption ({})",
                    chosen.clone().unwrap_or_else(|| args
                        .private_op
                        .to_possible_value()
                        .map(|v| v.get_name().to_string())
                        .unwrap_or_default())
                ),
            },
            plan.messages,
            if plan.pin { ", pinned" } else { "" },
            machine.one_line()
        );
    }
    args.opts.print_table(&screen_rows(&records))?;
    if args.opts.screen() {
        for note in summary_notes(&records) {
            println!("{note}");
        }
    }
    args.opts.write_files(&BenchReport {
        machine,
        results: records,
    })
}

/// The columns shown on screen (the files keep every field).
#[derive(serde::Serialize)]
struct Row {
    threads: usize,
    schedule: Schedule,
    chunk: String,
    median_s: f64,
    ci95: String,
    min_s: f64,
    max_s: f64,
    runs: usize,
    msgs_per_s: f64,
    speedup: f64,
    efficiency: f64,
    imbalance: f64,
    flags: String,
}

fn screen_rows(records: &[RsaBenchRecord]) -> Vec<Row> {
    records
        .iter()
        .map(|r| Row {
            threads: r.threads,
            schedule: r.schedule,
            chunk: r.chunk.map_or("default".into(), |c| c.to_string()),
            median_s: r.timing.median_s,
            ci95: ci95_cell(&r.timing),
            min_s: r.timing.min_s,
            max_s: r.timing.max_s,
            runs: r.timing.runs,
            msgs_per_s: r.msgs_per_s,
            speedup: r.speedup,
            efficiency: r.efficiency,
            imbalance: r.imbalance,
            flags: flags(r.oversubscribed, &r.timing),
        })
        .collect()
}

/// One line per statistical warning, and the best configuration per thread count.
fn summary_notes(records: &[RsaBenchRecord]) -> Vec<String> {
    let mut notes = statistics_notes(records.iter().map(|r| &r.timing));
    let mut threads: Vec<usize> = records
        .iter()
        .map(|r| r.threads)
        .filter(|&t| t > 1)
        .collect();
    threads.sort_unstable();
    threads.dedup();
    for t in threads {
        if let Some(best) = records
            .iter()
            .filter(|r| r.threads == t)
            .max_by(|a, b| a.speedup.total_cmp(&b.speedup))
        {
            let chunk = best.chunk.map_or("default".into(), |c| c.to_string());
            notes.push(format!(
                "best at {t} threads: {} chunk {}, {:.2}x SeRSA ({:.0} % efficiency){}",
                best.schedule,
                chunk,
                best.speedup,
                best.efficiency * 100.0,
                if best.oversubscribed {
                    ", oversubscribed"
                } else {
                    ""
                }
            ));
        }
    }
    notes
}
