//! `parcrypt bench leak`: the timing-leak test of RSA-OAEP decryption (dudect's Welch t-test on
//! interleaved random classes), on the default decryption path (and, asked for, the old
//! variable-time one). It exits 1 when any pair on any path asked reaches |t| >= 4.5, after
//! the table and the files are written.
use super::bench_opts::positive;
use super::output::{self, Output};
use super::parse_list;
use anyhow::Result;
use clap::Args;
use parcrypt_lab::bench::{
    BenchReport, ExportFormat, MachineInfo, Progress, render, render_report,
};
use parcrypt_lab::suites::leak::{self, DecryptPath, LeakPlan, LeakRecord, Pair};
use serde::Serialize;

/// Arguments of `bench leak`.
#[derive(Args, Debug)]
pub struct BenchLeakArgs {
    /// Decryptions timed per class, for every class pair and path. |t| of a leak δ grows as
    /// √n: resolving δ takes n = 2·(4.5·σ/δ)² per class for the spread σ of one decryption
    /// (the table's last column says it for a 300-tick leak); a quiet check: 200000.
    #[arg(long, default_value = "20000", value_parser = positive)]
    samples: usize,
    /// Modulus size of the `padding`, `y-zero` and `keys` pairs.
    #[arg(long, default_value_t = 2048)]
    bits: u32,
    /// Modulus size of the `y-zero-odd` pair: not a multiple of 64.
    #[arg(long, default_value_t = 2040)]
    odd_bits: u32,
    /// Class pairs, comma-separated: padding (valid against invalid OAEP), y-zero (EM's first
    /// byte 0 against not 0), y-zero-odd (the same on the --odd-bits key), keys (valid
    /// ciphertexts under two keys of one size that differ only in secret values).
    #[arg(long, default_value = "padding,y-zero,y-zero-odd,keys", value_parser = pair_list)]
    pairs: Pairs,
    /// Decryption paths, comma-separated: default (what `rsa decrypt` runs: blinded CRT on
    /// the best constant-time Montgomery kernel of this CPU, fixed-length unblinding and
    /// I2OSP, one error), old-vartime (the earlier decryption: mpz_powm_sec, GMP's
    /// unblinding, variable-length I2OSP, distinct errors; it is expected to leak, and a leak
    /// found there makes the exit status 1 too).
    #[arg(long, default_value = "default", value_parser = path_list)]
    paths: Paths,
    /// dudect crop levels: the percentiles 1 - 0.5^(10(i+1)/N), i < N, besides no crop.
    #[arg(long, default_value = "10", value_parser = positive)]
    crops: usize,
    /// Seed of the keys, the inputs and their order.
    #[arg(long, default_value_t = 2024)]
    seed: u64,
    /// Write the results as JSON to F (`-`: stdout): {"machine": {...}, "results": [...]}.
    #[arg(long, value_name = "F", value_parser = output::parse)]
    json: Option<Output>,
    /// Write the results as CSV to F (`-`: stdout).
    #[arg(long, value_name = "F", value_parser = output::parse)]
    csv: Option<Output>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Comma-separated class pairs.
#[derive(Clone, Debug)]
pub struct Pairs(Vec<Pair>);
/// Comma-separated decryption paths.
#[derive(Clone, Debug)]
pub struct Paths(Vec<DecryptPath>);

fn pair_list(s: &str) -> Result<Pairs, String> {
    parse_list(s, "class pair", |t| {
        t.parse::<Pair>().map_err(|e| no_prefix(&e.to_string()))
    })
    .map(Pairs)
}

fn path_list(s: &str) -> Result<Paths, String> {
    parse_list(s, "path", |t| {
        leak::path(t).map_err(|e| no_prefix(&e.to_string()))
    })
    .map(Paths)
}

fn no_prefix(s: &str) -> String {
    s.trim_start_matches("invalid parameter: ").to_string()
}

/// One line of the screen table.
#[derive(Serialize)]
struct LeakRow {
    pair: String,
    path: String,
    bits: u32,
    samples_per_class: String,
    max_abs_t: String,
    crop: String,
    verdict: &'static str,
    resolves: String,
    median_0: String,
    median_1: String,
    n_for_300_ticks: String,
}

fn row(r: &LeakRecord) -> LeakRow {
    let ms = |ticks: f64| {
        if r.unit == "ns" {
            format!("{:.3} ms", ticks / 1e6)
        } else {
            format!("{:.3} Mticks", ticks / 1e6)
        }
    };
    LeakRow {
        pair: r.pair.name().into(),
        path: r.path.clone(),
        bits: r.bits,
        samples_per_class: if r.samples_0 == r.samples_1 {
            r.samples_0.to_string()
        } else {
            format!("{}/{}", r.samples_0, r.samples_1)
        },
        max_abs_t: format!("{:.2}", r.max_abs_t),
        crop: r
            .crop
            .map_or("none".into(), |p| format!("{:.2} %", 100.0 * p)),
        verdict: if r.leak { "LEAK" } else { "no leak found" },
        resolves: r.resolution.map_or("-".into(), |d| {
            format!("{d:.0} {}", if r.unit == "ns" { "ns" } else { "ticks" })
        }),
        median_0: ms(r.median_0),
        median_1: ms(r.median_1),
        n_for_300_ticks: samples_to_resolve(r).map_or("-".into(), |n| format!("{n:.0}")),
    }
}

/// The planted leak the README sizes runs for: 300 TSC ticks (100 ns on the monotonic clock).
fn target(r: &LeakRecord) -> f64 {
    if r.unit == "ns" { 100.0 } else { 300.0 }
}

/// Decryptions per class that would resolve [`target`]: the resolution falls as 1/√n, so
/// n·(resolution/target)².
fn samples_to_resolve(r: &LeakRecord) -> Option<f64> {
    let n = r.samples_0.min(r.samples_1) as f64;
    r.resolution
        .map(|res| (n * (res / target(r)).powi(2)).ceil())
}

/// The exit status's reason: every pair and path whose |t| reached the threshold.
fn verdict(records: &[LeakRecord]) -> Result<()> {
    let leaks: Vec<String> = records
        .iter()
        .filter(|r| r.leak)
        .map(|r| format!("{} on {} (|t| = {:.2})", r.pair.name(), r.path, r.max_abs_t))
        .collect();
    if leaks.is_empty() {
        return Ok(());
    }
    anyhow::bail!(
        "timing leak: {} reached |t| >= {}",
        leaks.join(", "),
        parcrypt_lab::bench::welch::THRESHOLD
    )
}

/// Runs `bench leak`.
pub fn leak(args: BenchLeakArgs) -> Result<()> {
    let targets = [("--json", args.json.as_ref()), ("--csv", args.csv.as_ref())];
    output::check(&targets)?;
    let plan = LeakPlan {
        bits: args.bits,
        odd_bits: args.odd_bits,
        samples: args.samples,
        pairs: args.pairs.0,
        paths: args.paths.0,
        crops: args.crops,
        seed: args.seed,
    };
    plan.check()
        .map_err(|e| super::usage(no_prefix(&e.to_string())))?;
    let machine = MachineInfo::detect();
    let total = plan.pairs.len() * plan.paths.len() * 2 * plan.samples;
    let progress = Progress::new(total as u64, "bench leak", args.quiet);
    let records = leak::run(&plan, |done, _, label| {
        progress.set_position(done as u64);
        progress.set_message(label);
    })?;
    progress.finish();
    let screen = !targets.iter().any(|(_, t)| *t == Some(&Output::Stdout));
    if screen {
        println!(
            "Timing-leak test of RSA-OAEP decryption: dudect's Welch t-test on interleaved random \
             classes, {} decryptions per class, uncropped and at {} crop levels (the largest |t| \
             shown); |t| >= 4.5 flags a leak (exit status 1); timer {}; {}",
            plan.samples,
            plan.crops,
            records.first().map_or("-", |r| if r.unit == "ns" {
                "monotonic clock"
            } else {
                "TSC"
            }),
            machine.one_line()
        );
        let rows: Vec<LeakRow> = records.iter().map(row).collect();
        print!("{}", render(&rows, ExportFormat::Table)?);
        for pair in &plan.pairs {
            let [a, b] = pair.classes();
            println!("{}: class 0 = {a}, class 1 = {b}", pair.name());
        }
        for path in &plan.paths {
            println!("{}: {}", path.name, path.about);
        }
        println!(
            "resolves: the smallest difference of mean times that would have been flagged \
             (4.5 standard errors at the tightest crop level); smaller leaks go unseen"
        );
        println!(
            "n_for_300_ticks: decryptions per class that would resolve a leak of 300 TSC ticks \
             (100 ns on the monotonic clock) at this run's spread, samples x (resolves / 300)^2"
        );
        println!(
            "note: other load on the machine adds noise, which hides small leaks (lower |t|); \
             take figures that matter on a quiet machine"
        );
    }
    let report = BenchReport::new(machine, records);
    if let Some(target) = &args.json {
        target.write(&render_report(&report, ExportFormat::Json)?)?;
    }
    if let Some(target) = &args.csv {
        target.write(&render_report(&report, ExportFormat::Csv)?)?;
    }
    verdict(&report.results)
}

#[cfg(test)]
mod tests {
    use super::*;
    use parcrypt_lab::suites::leak::Pair;

    fn rec(pair: Pair, path: &str, t: f64, res: Option<f64>, unit: &str) -> LeakRecord {
        LeakRecord {
            pair,
            path: path.into(),
            bits: 2048,
            class_0: "a".into(),
            class_1: "b".into(),
            samples_0: 20000,
            samples_1: 20000,
            max_abs_t: t.abs(),
            t,
            crop: None,
            threshold: 4.5,
            leak: t.abs() >= 4.5,
            resolution: res,
            median_0: 1.0,
            median_1: 1.0,
            unit: unit.into(),
            wall_s: 0.0,
        }
    }

    #[test]
    fn any_pair_at_the_threshold_is_the_exit_status() {
        let clean = [
            rec(Pair::Padding, "default", 1.2, Some(50.0), "tsc-ticks"),
            rec(Pair::Keys, "default", -4.49, Some(50.0), "tsc-ticks"),
        ];
        assert!(verdict(&clean).is_ok());
        let mut leaky = clean.to_vec();
        leaky.push(rec(
            Pair::YZero,
            "old-vartime",
            -4.5,
            Some(50.0),
            "tsc-ticks",
        ));
        leaky.push(rec(Pair::Keys, "default", 6.25, Some(50.0), "tsc-ticks"));
        let err = verdict(&leaky).unwrap_err().to_string();
        assert_eq!(
            err,
            "timing leak: y-zero on old-vartime (|t| = 4.50), keys on default (|t| = 6.25) \
             reached |t| >= 4.5"
        );
    }

    #[test]
    fn the_samples_to_resolve_scale_as_the_square_of_the_resolution() {
        // 20000 per class resolved 600 ticks: 300 needs four times as many.
        let r = rec(Pair::Padding, "default", 0.0, Some(600.0), "tsc-ticks");
        assert_eq!(samples_to_resolve(&r), Some(80000.0));
        let r = rec(Pair::Padding, "default", 0.0, Some(50.0), "ns");
        assert_eq!(samples_to_resolve(&r), Some(5000.0));
        assert_eq!(
            samples_to_resolve(&rec(Pair::Padding, "d", 0.0, None, "ns")),
            None
        );
    }
}
