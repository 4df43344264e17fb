//! `parcrypt bench peers`: parcrypt's best sequential and parallel forms against what a user
//! would otherwise run — GMP (`mpz_mul`, `mpz_powm`, in-process) and OpenSSL (`openssl speed`
//! for RSA sign and the ciphers) — one row per piece of work, measured interleaved in one run.
//!
//! Within a row the forms take turns (the harness's rounds), so drift on a shared machine
//! touches them alike; every ratio is computed per round (peer time / our time: above 1 means
//! parcrypt is faster) and summarised by its median and a distribution-free 95 % interval. A
//! target from the issue is *reached* when the whole interval lies at or above it, *missed*
//! when it lies below, and *inconclusive* otherwise. OpenSSL runs with `-elapsed` (wall-clock
//! time, as ours), 16 KiB per call for the ciphers.
mod rows;

use super::bench_opts::RunOpts;
use anyhow::{Result, bail};
use clap::Args;
use parcrypt::bench::{Bench, BenchReport, MachineInfo, Summary, format_seconds};
use rows::{Form, ROWS, Setup};
use serde::Serialize;
use std::time::Instant;

fn rows_list(s: &str) -> Result<Vec<String>, String> {
    super::parse_list(s, "row", |t| {
        if ROWS.contains(&t) {
            Ok(t.to_string())
        } else {
            Err(format!("unknown row '{t}' (known: {})", ROWS.join(", ")))
        }
    })
}

/// Arguments of `bench peers`.
#[derive(Args, Debug)]
pub struct BenchPeersArgs {
    /// Rows to run (default: all), comma-separated: product-32k, product-64k, product-128k,
    /// product-1m, modexp-8192, modexp-16384, rsa-2048, rsa-4096, rc4, bf-ecb, bf-cbc,
    /// bf-pipeline.
    #[arg(long, value_parser = rows_list)]
    rows: Option<std::vec::Vec<String>>,
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
    /// Kernel of the RSA rows: auto (the best constant-time Montgomery kernel this CPU runs),
    /// ifma, mulx, portable, or gmp-sec (GMP's mpz_powm_sec, the earlier path).
    #[arg(long, default_value = "auto", value_parser = super::rsa::kernel_arg)]
    kernel: parcrypt::rsa::kernel::PrivateKernel,
    #[command(flatten)]
    opts: RunOpts,
}

/// One row's result; the field names are the JSON/CSV columns. Times are seconds per
/// operation; ratios are per-round medians with their 95 % interval.
#[derive(Clone, Debug, Serialize)]
pub struct PeerRecord {
    /// Row id.
    pub row: String,
    /// What is computed.
    pub work: String,
    /// Bytes per operation (cipher rows), else null.
    pub bytes: Option<usize>,
    /// The peer.
    pub peer: Option<String>,
    /// Peer's median seconds per operation.
    pub peer_s: Option<f64>,
    /// parcrypt's sequential form.
    pub seq: Option<String>,
    /// Its median seconds per operation.
    pub seq_s: Option<f64>,
    /// parcrypt's parallel form.
    pub par: Option<String>,
    /// Threads of the parallel form.
    pub par_threads: Option<usize>,
    /// Its median seconds per operation.
    pub par_s: Option<f64>,
    /// Peer time / sequential time (> 1: parcrypt faster), median of the rounds' ratios.
    pub peer_over_seq: Option<f64>,
    /// Its 95 % interval, low end.
    pub peer_over_seq_low: Option<f64>,
    /// Its 95 % interval, high end.
    pub peer_over_seq_high: Option<f64>,
    /// Peer time / parallel time.
    pub peer_over_par: Option<f64>,
    /// Its 95 % interval, low end.
    pub peer_over_par_low: Option<f64>,
    /// Its 95 % interval, high end.
    pub peer_over_par_high: Option<f64>,
    /// Sequential time / parallel time (the parallel speedup).
    pub seq_over_par: Option<f64>,
    /// Its 95 % interval, low end.
    pub seq_over_par_low: Option<f64>,
    /// Its 95 % interval, high end.
    pub seq_over_par_high: Option<f64>,
    /// The ceiling: as many independent copies of the sequential kernel as the parallel form
    /// has threads, run at once (`2 × rc4`); null for rows without a parallel form.
    pub ceiling: Option<String>,
    /// One copy's time / the copies' time per operation: the most any parallel form of this
    /// kernel could gain on this machine during the run (ideal: the thread count).
    pub ceiling_ratio: Option<f64>,
    /// Its 95 % interval, low end.
    pub ceiling_ratio_low: Option<f64>,
    /// Its 95 % interval, high end.
    pub ceiling_ratio_high: Option<f64>,
    /// Paired rounds behind the ratios.
    pub rounds: usize,
    /// The targets and their verdicts: `peer/par >= 1.25: reached`, ...
    pub targets: String,
}

/// Median and 95 % interval of the per-round ratios `num[i] / den[i]`.
fn ratio(num: &[f64], den: &[f64]) -> Option<Summary> {
    let r: Vec<f64> = num.iter().zip(den).map(|(n, d)| n / d).collect();
    Summary::from_samples(&r)
}

/// `reached` when the whole 95 % interval is at or above `at_least`, `missed` when below,
/// `inconclusive` when it straddles the target or has too few rounds to be a 95 % interval.
fn verdict(s: &Summary, at_least: f64) -> &'static str {
    match s.ci95() {
        None => "inconclusive (too few rounds)",
        Some((low, _)) if low >= at_least => "reached",
        Some((_, high)) if high < at_least => "missed",
        Some(_) => "inconclusive",
    }
}

/// Measures one row: its forms interleaved, then the paired ratios.
fn measure(row: rows::Row<'_>, bench: &Bench) -> Result<PeerRecord> {
    let rows::Row {
        id,
        work,
        bytes,
        peer,
        seq,
        par,
        ceiling,
        targets,
    } = row;
    let mut forms: Vec<(usize, Form<'_>)> = [peer, seq, par, ceiling]
        .into_iter()
        .enumerate()
        .filter_map(|(k, f)| f.map(|f| (k, f)))
        .collect();
    let mut per_op: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    let mut failure = None;
    bench.run_interleaved_by(forms.len(), |i| {
        let started = Instant::now();
        match (forms[i].1.sample)() {
            Ok(s) => per_op[i].push(s),
            Err(e) => failure = Some(e),
        }
        started.elapsed().as_secs_f64()
    });
    if let Some(e) = failure {
        bail!("{id}: {e}");
    }
    let warm = bench.config().warmup_runs as usize;
    let times: Vec<&[f64]> = per_op.iter().map(|v| &v[warm.min(v.len())..]).collect();
    let rounds = times.iter().map(|t| t.len()).min().unwrap_or(0);
    let slot = |k: usize| forms.iter().position(|(kk, _)| *kk == k);
    let (p, s, q, c) = (slot(0), slot(1), slot(2), slot(3));
    let median = |i: Option<usize>| {
        i.and_then(|i| Summary::from_samples(times[i]))
            .map(|s| s.median)
    };
    let pair = |a: Option<usize>, b: Option<usize>| {
        a.zip(b)
            .and_then(|(a, b)| ratio(&times[a][..rounds], &times[b][..rounds]))
    };
    let (ps, pq, sq) = (pair(p, s), pair(p, q), pair(s, q));
    // The ceiling's base: the sequential form, or the peer where parcrypt has none (GMP's
    // product): what the copies run.
    let cap = pair(s.or(p), c);
    let checks: Vec<String> = targets
        .iter()
        .map(|&(what, at_least)| {
            let r = match what {
                "peer/seq" => ps,
                "peer/par" => pq,
                _ => sq,
            };
            let v = r.map_or("not measured", |r| verdict(&r, at_least));
            // A parallel target above what independent copies reach cannot be met here,
            // however the work is split: say so, with the measured ceiling.
            let beyond = match (what, cap) {
                ("peer/par" | "seq/par", Some(cap))
                    if v != "reached" && cap.ci95().is_some_and(|(_, high)| high < at_least) =>
                {
                    format!(" (above this machine's ceiling {:.2})", cap.median)
                }
                _ => String::new(),
            };
            format!("{what} >= {at_least}: {v}{beyond}")
        })
        .collect();
    let name = |i: Option<usize>| i.map(|i| forms[i].1.name.clone());
    let lo_hi = |r: Option<Summary>| {
        (
            r.map(|r| r.median),
            r.and_then(|r| r.ci95_low),
            r.and_then(|r| r.ci95_high),
        )
    };
    let (ps_m, ps_l, ps_h) = lo_hi(ps);
    let (pq_m, pq_l, pq_h) = lo_hi(pq);
    let (sq_m, sq_l, sq_h) = lo_hi(sq);
    let (cap_m, cap_l, cap_h) = lo_hi(cap);
    Ok(PeerRecord {
        row: id.to_string(),
        work,
        bytes,
        peer: name(p),
        peer_s: median(p),
        seq: name(s),
        seq_s: median(s),
        par: name(q),
        par_threads: q.map(|i| forms[i].1.threads),
        par_s: median(q),
        peer_over_seq: ps_m,
        peer_over_seq_low: ps_l,
        peer_over_seq_high: ps_h,
        peer_over_par: pq_m,
        peer_over_par_low: pq_l,
        peer_over_par_high: pq_h,
        seq_over_par: sq_m,
        seq_over_par_low: sq_l,
        seq_over_par_high: sq_h,
        ceiling: name(c),
        ceiling_ratio: cap_m,
        ceiling_ratio_low: cap_l,
        ceiling_ratio_high: cap_h,
        rounds,
        targets: checks.join("; "),
    })
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
    let ids: Vec<&'static str> = match &args.rows {
        Some(list) => ROWS
            .iter()
            .copied()
            .filter(|r| list.iter().any(|x| x == r))
            .collect(),
        None => ROWS.to_vec(),
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
    let capacity =
        || parcrypt::bench::capacity::parallel_capacity(args.threads, 16384, 0.05, false);
    let before = capacity();
    let progress = args.opts.progress(ids.len(), "bench peers");
    let mut records = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        progress.set_position(i as u64);
        progress.set_message(*id);
        let data = rows::data(id, &setup)?;
        let row = rows::row(id, &setup, &data)?;
        records.push(measure(row, &bench)?);
    }
    progress.finish();
    let after = capacity();
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
        .any(|r| r.rounds < parcrypt::bench::MIN_RUNS_FOR_CI)
    {
        println!(
            "note: fewer than {} rounds give min..max instead of a 95 % interval (use --runs {})",
            parcrypt::bench::MIN_RUNS_FOR_CI,
            parcrypt::bench::MIN_RUNS_FOR_CI
        );
    }
    args.opts.write_files(&BenchReport {
        machine,
        results: records,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_verdicts_follow_the_interval() {
        let peer = [2.0, 2.1, 2.0, 1.9, 2.0, 2.2, 2.0, 2.0];
        let ours = [1.0; 8];
        let r = ratio(&peer, &ours).unwrap();
        assert!((r.median - 2.0).abs() < 1e-12);
        assert_eq!(verdict(&r, 1.5), "reached");
        assert_eq!(verdict(&r, 3.0), "missed");
        assert_eq!(verdict(&r, 2.05), "inconclusive");
    }

    #[test]
    fn rows_are_checked_against_their_references_and_measured() {
        let setup = Setup {
            threads: 2,
            openssl_seconds: 1,
            batch_s: 0.001,
            cipher_bytes: 64 * 1024,
            seed: 1,
            kernel: parcrypt::rsa::kernel::PrivateKernel::Auto,
        };
        let bench = Bench::new(parcrypt::bench::BenchConfig {
            warmup_runs: 0,
            ..parcrypt::bench::BenchConfig::exact(2)
        })
        .unwrap();
        // In-process rows only (no openssl needed): drop the OpenSSL peers.
        for id in [
            "product-32k",
            "modexp-8192",
            "bf-pipeline",
            "bf-ecb",
            "rc4",
            "rsa-2048",
        ] {
            let data = rows::data(id, &setup).unwrap();
            let mut row = rows::row(id, &setup, &data).unwrap();
            if row
                .peer
                .as_ref()
                .is_some_and(|p| p.name.starts_with("OpenSSL"))
            {
                row.peer = None;
            }
            let rec = measure(row, &bench).unwrap();
            assert_eq!(rec.rounds, 2, "{id}");
            assert!(rec.par_s.is_some_and(|s| s > 0.0), "{id}");
            assert!(!rec.targets.is_empty() || id == "bf-ecb", "{id}");
            if id == "rsa-2048" {
                // The backend that ran is named in the work and in both forms.
                let best = parcrypt::bignum::ct::Backend::best_for(1024).name();
                assert!(rec.work.contains(&format!("{best} kernel")), "{}", rec.work);
                assert_eq!(rec.seq.as_deref(), Some(format!("crt ({best})").as_str()));
                assert_eq!(
                    rec.par.as_deref(),
                    Some(format!("crt-parallel ({best})").as_str())
                );
            }
            // Every row with a parallel form has a ceiling of 2 copies; it can be below 1 on
            // a loaded machine, but it is a positive ratio of two measured times.
            assert!(
                rec.ceiling
                    .as_deref()
                    .is_some_and(|c| c.starts_with("2 × ")),
                "{id}"
            );
            assert!(
                rec.ceiling_ratio.is_some_and(|r| r > 0.0 && r.is_finite()),
                "{id}"
            );
        }
    }
}
