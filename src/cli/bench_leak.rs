//! `parcrypt bench leak`: the timing-leak test of RSA-OAEP decryption (dudect's Welch t-test on
//! interleaved random classes), on the default decryption path and the old variable-time one.
use super::bench_opts::positive;
use super::output::{self, Output};
use super::parse_list;
use anyhow::Result;
use clap::Args;
use parcrypt::bench::{BenchReport, ExportFormat, MachineInfo, Progress, render, render_report};
use parcrypt::suites::leak::{self, DecryptPath, LeakPlan, LeakRecord, Pair};
use serde::Serialize;

/// Arguments of `bench leak`.
#[derive(Args, Debug)]
pub struct BenchLeakArgs {
    /// Decryptions timed per class, for every class pair and path (issue 20's check: 200000).
    #[arg(long, default_value = "20000", value_parser = positive)]
    samples: usize,
    /// Modulus size of the `padding` and `y-zero` pairs.
    #[arg(long, default_value_t = 2048)]
    bits: u32,
    /// Modulus size of the `y-zero-odd` pair: not a multiple of 64.
    #[arg(long, default_value_t = 2040)]
    odd_bits: u32,
    /// Class pairs, comma-separated: padding (valid against invalid OAEP), y-zero (EM's first
    /// byte 0 against not 0), y-zero-odd (the same on the --odd-bits key).
    #[arg(long, default_value = "padding,y-zero,y-zero-odd", value_parser = pair_list)]
    pairs: Pairs,
    /// Decryption paths, comma-separated: default (what `rsa decrypt` runs: blinded CRT with
    /// mpz_powm_sec, fixed-length I2OSP, one error), old-vartime (the same CRT with the
    /// variable-length I2OSP and distinct errors of before issue 20).
    #[arg(long, default_value = "default,old-vartime", value_parser = path_list)]
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
    }
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
             shown); |t| > 4.5 flags a leak; timer {}; {}",
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
    Ok(())
}
