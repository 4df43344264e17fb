//! `cipher`: PBlock or PARC4 over a file split among ranks, then optionally timed.
use crate::args;
use crate::shared::{check_writable, on_hosts, usage, warn_if_bound, write_json};
use parcrypt::cipher::alg::{Algorithm, CipherSpec, Direction};
use parcrypt_mpi::bulk::Verify;
use parcrypt_mpi::{MpiResult, Ranks};

/// `cipher`: PBlock or PARC4 over a file split among ranks.
pub fn run(ranks: &Ranks, a: args::CipherArgs) -> MpiResult<()> {
    let (algorithm, spec) = cipher_spec(&a)?;
    let direction = if a.decrypt {
        Direction::Decrypt
    } else {
        Direction::Encrypt
    };
    parcrypt_mpi::bulk::validate(&spec, direction)?;
    if let Err(e) = parcrypt::io::check_not_input(("--out", &a.output), &[("--in", &a.input)]) {
        return Err(usage(e.to_string()));
    }
    check_writable(ranks, Some(&a.output))?;
    check_writable(ranks, a.json.as_deref())?;
    ranks.set_threads_per_rank(a.threads);
    warn_if_bound(ranks, a.threads);
    let verify = match a.verify {
        args::VerifyArg::None => Verify::None,
        args::VerifyArg::Part => Verify::Part,
        args::VerifyArg::Full => Verify::Full,
    };
    let finish = parcrypt_mpi::bulk::Finish::output(verify);
    let done =
        parcrypt_mpi::bulk::transform_file(ranks, &spec, direction, &a.input, &a.output, finish)?;
    if let Some((read, written)) = done {
        println!(
            "{algorithm} over {}: read {read} bytes, wrote {written} bytes to {} ({})",
            on_hosts(ranks),
            a.output.display(),
            match verify {
                Verify::None => "not checked",
                Verify::Part => "each rank's part equal to the sequential reference",
                Verify::Full => "equal to the sequential reference, checked whole on rank 0",
            }
        );
    }
    if let (true, Some(peak)) = (ranks.is_root(), parcrypt_mpi::host::peak_rss_bytes()) {
        println!(
            "rank 0's peak memory (VmHWM): {:.1} MiB",
            peak as f64 / 1048576.0
        );
    }
    if a.runs == 0 {
        return Ok(());
    }
    time_runs(ranks, &a, &spec, direction, verify)
}

fn hex_bytes(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// The cipher, its key, IV or nonce, chunk and threads from the arguments.
fn cipher_spec(a: &args::CipherArgs) -> MpiResult<(Algorithm, CipherSpec)> {
    let algorithm: Algorithm = a
        .alg
        .parse()
        .map_err(|e: parcrypt::Error| usage(e.to_string()))?;
    let hex = |s: &str, what: &str| {
        hex_bytes(s).ok_or_else(|| usage(format!("{what} must be hex digits, got '{s}'")))
    };
    let mut spec = CipherSpec::new(algorithm, &hex(&a.key_hex, "--key")?);
    if let Some(iv) = &a.iv_hex {
        let iv = hex(iv, "--iv")?;
        spec.iv = Some(
            iv.try_into()
                .map_err(|_| usage("--iv must be 8 bytes (16 hex digits)"))?,
        );
    }
    if let Some(n) = &a.nonce_hex {
        spec.nonce = Some(hex(n, "--nonce")?);
    }
    spec.chunk = a.chunk;
    spec.threads = Some(a.threads);
    Ok((algorithm, spec))
}

/// `--runs`: times the transform over ranks against threads and sequential, and prints and
/// writes the records.
fn time_runs(
    ranks: &Ranks,
    a: &args::CipherArgs,
    spec: &CipherSpec,
    direction: Direction,
    verify: Verify,
) -> MpiResult<()> {
    use parcrypt_mpi::bulk_bench::Io;
    let plan = parcrypt_mpi::bulk_bench::BulkPlan {
        io: match a.timing {
            args::IoArg::File => Io::File,
            args::IoArg::Memory => Io::Memory,
        },
        verified: verify != Verify::None,
        compare_threads: a.compare_threads.unwrap_or(ranks.size()),
        config: parcrypt_harness::bench::BenchConfig {
            warmup_runs: 1,
            ..parcrypt_harness::bench::BenchConfig::exact(a.runs)
        },
    };
    let Some(records) =
        parcrypt_mpi::bulk_bench::run(ranks, spec, direction, &a.input, &a.output, &plan)?
    else {
        return Ok(());
    };
    println!(
        "{}, timed on rank 0:",
        match plan.io {
            Io::File => "file to file (outputs of timed runs not synced to disk and thrown away)",
            Io::Memory => "in memory",
        }
    );
    println!(
        "{:<8} {:<12} {:>7} {:>5} {:>10} {:>8} {:>8}",
        "backend", "alg", "threads", "ranks", "median ms", "MB/s", "speedup"
    );
    for r in &records {
        println!(
            "{:<8} {:<12} {:>7} {:>5} {:>10.3} {:>8.1} {:>8.2}",
            r.mpi.backend,
            r.base.alg.name(),
            r.base.threads,
            r.mpi.ranks,
            r.base.timing.median_s * 1e3,
            r.base.mb_per_s,
            r.base.speedup
        );
    }
    write_json(a.json.as_deref(), records)
}
