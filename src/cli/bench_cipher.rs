//! `parcrypt bench cipher` (cipher-energy, Tables 2-3) and `parcrypt bench pipeline` (SCC Blowfish,
//! Figs. 8-9): throughput tables, the papers' figures beside them, JSON/CSV export.
use super::bench_opts::{RunOpts, Threads, ci95_cell, flags, statistics_notes, threads_list};
use super::{parse_list, parse_positive, usage};
use anyhow::Result;
use clap::{Args, ValueEnum};
use parcrypt::cipher::parallel::bf_pipeline::PipelineStats;
use parcrypt::cipher::{Algorithm, Direction};
use parcrypt_lab::bench::{BenchReport, ExportFormat, MachineInfo, render};
use parcrypt_lab::suites::cipher::{CipherBenchPlan, CipherBenchRecord, SEED_004};
use parcrypt_lab::suites::cipher_pipeline::{PipelineBenchPlan, PipelineBenchRecord};
use serde::Serialize;

/// A buffer size in the one size syntax ([`super::size`]) that fits in this machine's memory.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let v = super::size::parse_size(s)?;
    parcrypt_lab::bench::memory::check_fits(v as u128, &format!("size '{s}'"))
        .map(|()| v)
        .map_err(|e| e.to_string())
}

/// A comma-separated list (a newtype, so clap takes the whole list as one value).
#[derive(Clone, Debug)]
pub struct List<T>(Vec<T>);

fn size_list(s: &str) -> Result<List<usize>, String> {
    parse_list(s, "size", parse_size).map(List)
}

fn stages_list(s: &str) -> Result<List<usize>, String> {
    parse_list(s, "stage", |t| parse_positive(t, "stage count")).map(List)
}

fn groups_list(s: &str) -> Result<List<usize>, String> {
    if s.trim() == "0" {
        return Ok(List(Vec::new()));
    }
    parse_list(s, "group", |t| parse_positive(t, "group count")).map(List)
}

fn alg_list(s: &str) -> Result<List<Algorithm>, String> {
    if s.trim() == "all" {
        return Ok(List(Algorithm::ALL.to_vec()));
    }
    parse_list(s, "algorithm", |a| {
        a.parse::<Algorithm>().map_err(|e| {
            e.to_string()
                .trim_start_matches("invalid parameter: ")
                .to_string()
        })
    })
    .map(List)
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum OpArg {
    /// Encrypt.
    Encrypt,
    /// Decrypt (CBC decryption is the parallel one).
    Decrypt,
}

/// Arguments of `bench cipher`.
#[derive(Args, Debug)]
pub struct BenchCipherArgs {
    /// Algorithms, comma-separated, or `all`; each one's sequential form is measured too.
    #[arg(long, default_value = "all", value_parser = alg_list)]
    alg: List<Algorithm>,
    /// Bytes per run: 4096, 64K, 64MiB (binary), 1MB (10^6), ...
    #[arg(long, default_value = "64MiB", value_parser = parse_size)]
    size: usize,
    /// Thread counts, comma-separated (bf-pipeline: stage groups of the folded pipeline,
    /// 1-17); default: 1 and the logical CPUs.
    #[arg(long, value_parser = threads_list)]
    threads: Option<Threads>,
    /// Pipeline chunk, PARC4 block and PARC4-I segment (a multiple of 256; default: each one's).
    #[arg(long, value_parser = parse_size)]
    chunk: Option<usize>,
    /// Direction.
    #[arg(long, value_enum, default_value_t = OpArg::Encrypt)]
    op: OpArg,
    /// Pin worker threads to CPUs.
    #[arg(long)]
    pin: bool,
    /// Seed of the random key and data.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    #[command(flatten)]
    opts: RunOpts,
}

/// Arguments of `bench pipeline`.
#[derive(Args, Debug)]
pub struct BenchPipelineArgs {
    /// Chunk sizes in bytes, comma-separated (multiples of 8).
    #[arg(long, default_value = "64,256,1024,4096,8192,16384,65536", value_parser = size_list)]
    chunk: List<usize>,
    /// Stage counts, input and output included (36 = one stage per round, as the seed).
    #[arg(long, default_value = "36", value_parser = stages_list)]
    stages: List<usize>,
    /// Stage-group counts of the folded pipeline (rounds folded into a few threads, lock-free
    /// hand-off), comma-separated, 1-34; `0` for none. Default: the logical core count.
    #[arg(long, value_parser = groups_list)]
    groups: Option<List<usize>>,
    /// Message size (the seed used 1 MB).
    #[arg(long, default_value = "1MiB", value_parser = parse_size)]
    size: usize,
    /// Chunks each channel holds (0 = rendezvous, like the seed's synchronous send).
    #[arg(long, default_value_t = 1)]
    capacity: usize,
    /// Seed of the random key and data.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    #[command(flatten)]
    opts: RunOpts,
}

/// `bench cipher`.
pub fn cipher(args: BenchCipherArgs) -> Result<()> {
    let plan = CipherBenchPlan {
        algorithms: args.alg.0,
        threads: Threads::or_default_sweep(args.threads),
        size_bytes: args.size,
        chunk: args.chunk,
        direction: match args.op {
            OpArg::Encrypt => Direction::Encrypt,
            OpArg::Decrypt => Direction::Decrypt,
        },
        pin: args.pin,
        seed: args.seed,
        config: args.opts.config()?,
    };
    plan.validate().map_err(|e| usage(e.to_string()))?;
    let machine = MachineInfo::detect();
    // The total is planned from the warm-ups: the bar starts with it.
    let progress = args.opts.progress(0, "bench cipher");
    let records = parcrypt_lab::suites::cipher::run(&plan, |done, total, label| {
        progress.set_position_of(done as u64, total as u64);
        progress.set_message(label);
    })?;
    progress.finish_and_clear();
    let screen = args.opts.screen();
    if screen {
        println!(
            "{} bytes per run; {}",
            plan.buffer_bytes(),
            machine.one_line()
        );
    }
    args.opts.print_table(&cipher_rows(&records))?;
    if screen {
        for line in cipher_notes(&records) {
            println!("{line}");
        }
    }
    args.opts.write_files(&BenchReport::new(machine, records))
}

#[derive(Serialize)]
struct CipherRow {
    alg: Algorithm,
    threads: usize,
    chunk: String,
    median_s: f64,
    ci95: String,
    min_s: f64,
    max_s: f64,
    runs: usize,
    mb_per_s: f64,
    tsc_c_per_b: String,
    vs: String,
    speedup: f64,
    self_speedup: f64,
    flags: String,
}

fn cipher_rows(records: &[CipherBenchRecord]) -> Vec<CipherRow> {
    records
        .iter()
        .map(|r| CipherRow {
            alg: r.alg,
            threads: r.threads,
            chunk: r.chunk_bytes.map_or("-".into(), |c| c.to_string()),
            median_s: r.timing.median_s,
            ci95: ci95_cell(&r.timing),
            min_s: r.timing.min_s,
            max_s: r.timing.max_s,
            runs: r.timing.runs,
            mb_per_s: r.mb_per_s,
            tsc_c_per_b: r
                .tsc_cycles_per_byte
                .map_or("-".into(), |c| format!("{c:.2}")),
            vs: r.baseline.to_string(),
            speedup: r.speedup,
            self_speedup: r.self_speedup,
            flags: flags(r.oversubscribed, &r.timing),
        })
        .collect()
}

fn cipher_notes(records: &[CipherBenchRecord]) -> Vec<String> {
    let mut notes = vec![
        "MB = 10^6 bytes; speedup = the `vs` algorithm at 1 thread / this; self_speedup = this algorithm at 1 thread / this.".to_string(),
    ];
    if let Some(tsc) = parcrypt_lab::bench::tsc::Tsc::detect() {
        notes.push(format!(
            "tsc_c_per_b: time-stamp-counter ticks per byte; the TSC ticks at {:.2} GHz, a constant reference rate, not the core's clock.",
            tsc.ticks_per_second(0.02) / 1e9
        ));
    }
    notes.extend(statistics_notes(records.iter().map(|r| &r.timing)));
    let ours = |a: Algorithm| {
        records
            .iter()
            .filter(|r| r.alg == a)
            .max_by(|x, y| x.mb_per_s.total_cmp(&y.mb_per_s))
    };
    let mut lines = Vec::new();
    for (a, p1, p2) in SEED_004 {
        if let Some(r) = ours(a) {
            lines.push(format!(
                "  {:<12} paper {:>6.2} (laptop) {:>7.2} (FX-8320) | here {:>7.1} MB/s at {} thread(s)",
                a.name(), p1, p2, r.mb_per_s, r.threads
            ));
        }
    }
    if !lines.is_empty() {
        notes.push(
            "cipher-energy Tables 2-3, MB/s (paper's Blowfish-family and RC4-family rows):".into(),
        );
        notes.extend(lines);
    }
    notes
}

/// `bench pipeline`.
pub fn pipeline(args: BenchPipelineArgs) -> Result<()> {
    let plan = PipelineBenchPlan {
        chunks: args.chunk.0,
        stages: args.stages.0,
        size_bytes: args.size,
        capacity: args.capacity,
        seed: args.seed,
        config: args.opts.config()?,
    };
    plan.validate().map_err(|e| usage(e.to_string()))?;
    let groups = args
        .groups
        .map_or_else(|| vec![parcrypt_lab::bench::logical_cores()], |g| g.0);
    if let Some(&g) = groups.iter().find(|&&g| g > 34) {
        return Err(usage(format!(
            "folded pipeline stage groups must be 1 to 34, got {g}"
        )));
    }
    let machine = MachineInfo::detect();
    // The total is planned from the warm-ups: the bar starts with it.
    let progress = args.opts.progress(0, "bench pipeline");
    let (records, stats) = parcrypt_lab::suites::cipher_pipeline::run_with_folded(
        &plan,
        &groups,
        |done, total, label| {
            progress.set_position_of(done as u64, total as u64);
            progress.set_message(label);
        },
    )?;
    progress.finish_and_clear();
    let screen = args.opts.screen();
    if screen {
        println!(
            "Blowfish encrypt+decrypt of {} bytes; {}",
            records[0].size_bytes,
            machine.one_line()
        );
    }
    args.opts.print_table(&pipeline_rows(&records))?;
    if screen {
        print!("{}", pipeline_notes(&records, &stats)?);
    }
    args.opts.write_files(&BenchReport::new(machine, records))
}

#[derive(Serialize)]
struct PipelineRow {
    alg: String,
    stages: usize,
    rounds: String,
    chunk: String,
    median_s: f64,
    mb_per_s: f64,
    speedup: f64,
    bottleneck: String,
    busy: String,
    recv_wait: String,
    send_wait: String,
    flags: String,
}

fn pct(x: f64) -> String {
    format!("{:.0}%", x * 100.0)
}

fn pipeline_rows(records: &[PipelineBenchRecord]) -> Vec<PipelineRow> {
    records
        .iter()
        .map(|r| PipelineRow {
            alg: r.alg.clone(),
            stages: r.stages,
            rounds: r.rounds_per_stage.clone(),
            chunk: r.chunk_bytes.map_or("-".into(), |c| c.to_string()),
            median_s: r.timing.median_s,
            mb_per_s: r.mb_per_s,
            speedup: r.speedup,
            bottleneck: format!("{} {}", r.bottleneck, pct(r.bottleneck_busy)),
            busy: pct(r.mean_busy),
            recv_wait: pct(r.mean_recv_wait),
            send_wait: pct(r.mean_send_wait),
            flags: flags(r.oversubscribed, &r.timing),
        })
        .collect()
}

#[derive(Serialize)]
struct StageRow {
    stage: String,
    rounds: usize,
    chunks: usize,
    busy_ms: f64,
    recv_wait_ms: f64,
    send_wait_ms: f64,
}

fn pipeline_notes(records: &[PipelineBenchRecord], stats: &[PipelineStats]) -> Result<String> {
    let mut out = String::from(
        "busy / recv_wait / send_wait: mean over stages of the share of wall time working / starved / blocked by the next stage.\n\
         bf-pipeline: the seed's layout (input, one thread per round or folded round range, output; std channels); \
         bf-folded: the rounds folded into `stages` groups, one thread each, lock-free rings between them.\n",
    );
    let best_of = |alg: &str| {
        records[1..]
            .iter()
            .zip(stats)
            .filter(|(r, _)| r.alg == alg)
            .max_by(|a, b| a.0.mb_per_s.total_cmp(&b.0.mb_per_s))
    };
    out += "SCC Blowfish: best chunk 8 KB on the SCC (Fig. 8), 36 stages 27.14x faster than sequential (1.904956 s vs 0.0702 s, Fig. 9).\n";
    for (r, st) in ["bf-pipeline", "bf-folded"].into_iter().filter_map(best_of) {
        let what = if r.alg == "bf-folded" {
            "stage groups"
        } else {
            "stages"
        };
        out += &format!(
            "here, {}: best {} {what} at chunk {} bytes, {:.2}x the sequential interleaved ECB run ({:.4} s vs {:.4} s) on {} logical CPUs.\n\
             Per-stage times of that configuration's median run:\n",
            r.alg,
            r.stages,
            r.chunk_bytes.unwrap_or(0),
            r.speedup,
            r.timing.median_s,
            records[0].timing.median_s,
            parcrypt_lab::bench::logical_cores()
        );
        let rows: Vec<StageRow> = st
            .stages
            .iter()
            .map(|s| StageRow {
                stage: s.name.clone(),
                rounds: s.rounds,
                chunks: s.chunks,
                busy_ms: s.busy_s * 1e3,
                recv_wait_ms: s.recv_wait_s * 1e3,
                send_wait_ms: s.send_wait_s * 1e3,
            })
            .collect();
        out += &render(&rows, ExportFormat::Table)?;
    }
    for note in statistics_notes(records.iter().map(|r| &r.timing)) {
        out += &note;
        out.push('\n');
    }
    Ok(out)
}
