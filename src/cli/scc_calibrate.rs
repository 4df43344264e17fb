//! `parcrypt scc --calibrate`: the SCC model's pipeline with this machine's measured
//! parameters, predicting this machine's own measured pipeline sweep, with the error per point.
use super::output::{say, say_raw};
use super::{Sizes, parse_list, parse_positive, usage};
use anyhow::Result;
use clap::Args;
use parcrypt_lab::bench::{BenchConfig, ExportFormat, Progress, render};
use parcrypt_lab::scc::calibrate::{CalibrationPlan, CoreChoice};
use parcrypt_lab::scc::validate::{Validation, ValidationPlan, run as validate};
use serde::Serialize;

/// Options of `--calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Calibrate the same model on this machine: measure its parameters, then its own
    /// pipeline over the --chunk sizes, and print predicted against measured with the error.
    #[arg(long)]
    pub calibrate: bool,
    /// Stage counts of the calibration sweep (36 = one operation per stage, 4 = folded into
    /// two compute stages, as `bench pipeline --stages`).
    #[arg(long, default_value = "36,4", value_parser = stage_list)]
    calibrate_stages: Sizes,
    /// Chunks each channel holds in the calibration sweep (`bench pipeline`'s default).
    #[arg(long, default_value_t = 1)]
    capacity: usize,
    /// Measured runs per configuration of the calibration sweep (after one warm-up).
    #[arg(long, default_value = "5", value_parser = positive)]
    runs: usize,
    /// Least measured seconds per configuration of the calibration sweep.
    #[arg(long, default_value_t = 0.5, allow_negative_numbers = true)]
    min_time: f64,
    /// Cores the calibrated model's stages share: a number, or `auto` for the cores' worth
    /// busy threads got while calibrating (on a machine other work shares); default: the
    /// logical CPUs.
    #[arg(long, value_parser = core_choice)]
    cores: Option<CoreChoice>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

impl CalibrateArgs {
    /// Checks the options before anything runs.
    pub fn check(&self) -> Result<()> {
        if !(self.min_time.is_finite() && self.min_time >= 0.0) {
            return Err(usage("--min-time must be a non-negative number of seconds"));
        }
        Ok(())
    }
}

fn stage_list(s: &str) -> Result<Sizes, String> {
    parse_list(s, "stage", |t| parse_positive(t, "stage count")).map(Sizes)
}

fn positive(s: &str) -> Result<usize, String> {
    parse_positive(s, "value")
}

fn core_choice(s: &str) -> Result<CoreChoice, String> {
    match s {
        "auto" => Ok(CoreChoice::Measured),
        _ => parse_positive(s, "core count").map(CoreChoice::Fixed),
    }
}

/// Measures, predicts, prints; returns the result for the JSON file.
pub fn run(chunks: &[usize], size_bytes: usize, args: &CalibrateArgs) -> Result<Validation> {
    let plan = validation_plan(chunks, size_bytes, args);
    let (stages, runs) = (&args.calibrate_stages.0, args.runs);
    let total = (chunks.len() * stages.len() + 1) * (runs + 1);
    let progress = Progress::new(total as u64, "scc calibrate", args.quiet);
    let v = validate(&plan, |done, _, label| {
        progress.set_position(done as u64);
        progress.set_message(label);
    })?;
    progress.finish_and_clear();
    print_calibration(&v)?;
    Ok(v)
}

/// The sweep and the calibration the options ask for.
fn validation_plan(chunks: &[usize], size_bytes: usize, args: &CalibrateArgs) -> ValidationPlan {
    let CalibrateArgs {
        calibrate_stages: stages,
        capacity,
        runs,
        min_time,
        cores,
        ..
    } = args;
    let (stages, capacity, runs, min_time, cores) =
        (&stages.0, *capacity, *runs, *min_time, *cores);
    let config = BenchConfig {
        warmup_runs: 1,
        min_runs: runs as u32,
        min_time,
        max_runs: (runs as u32).max(50),
    };
    ValidationPlan {
        chunks: chunks.to_vec(),
        stages: stages.to_vec(),
        size_bytes,
        capacity,
        config,
        calibration: CalibrationPlan {
            chunk_bytes: 16 << 10,
            size_bytes,
            config: BenchConfig {
                min_time: 0.2,
                ..config
            },
            seed: 7,
            cores: cores.unwrap_or(CoreChoice::Logical),
        },
        seed: 2024,
    }
}

/// Prints the measured parameters, the predicted against measured table and the errors.
fn print_calibration(v: &Validation) -> Result<()> {
    let m = &v.machine;
    say(format_args!(
        "calibration on this machine (measured here; {}):",
        v.conditions
    ));
    for (name, value, unit) in [
        (
            "op (one of 34 round operations)",
            m.op_s_per_byte * 1e9,
            "ns/B",
        ),
        ("input stage", m.in_s_per_byte * 1e9, "ns/B"),
        ("output stage", m.out_s_per_byte * 1e9, "ns/B"),
        ("channel operation", m.chan_op_s * 1e6, "µs"),
        ("relay, 36 threads (measured)", m.relay_long_s * 1e3, "ms"),
        ("relay, 4 threads (measured)", m.relay_short_s * 1e3, "ms"),
        ("wake of a blocked stage (fitted)", m.wake_s * 1e6, "µs CPU"),
        (
            "wake onto an idle CPU (fitted)",
            m.idle_wake_s * 1e6,
            "µs latency",
        ),
        (
            "ping-pong one CPU (reference)",
            m.pingpong_one_cpu_s * 1e6,
            "µs",
        ),
        (
            "ping-pong two CPUs (reference)",
            m.pingpong_two_cpus_s * 1e6,
            "µs",
        ),
        ("stage thread start", m.spawn_s * 1e6, "µs"),
        ("cores shared (model)", m.cores as f64, "CPUs"),
        ("cores' worth got (conditions)", m.effective_cores, "CPUs"),
    ] {
        say(format_args!("  {name:<32} {value:>9.4} {unit}"));
    }
    for how in &m.method {
        say(format_args!("  ({how})"));
    }
    say(format_args!(
        "sequential Blowfish (encrypt + decrypt), measured in the same sweep: {:.6} s",
        v.sequential_s
    ));
    say_raw(format_args!("{}", render(&rows(v), ExportFormat::Table)?));
    say(format_args!(
        "error = predicted / measured - 1; mean |error| {:.0}%, max {:.0}% (model:scc with this machine's parameters)",
        v.mean_abs_error * 100.0,
        v.max_abs_error * 100.0
    ));
    Ok(())
}

#[derive(Serialize)]
struct Row {
    stages: usize,
    chunk: usize,
    measured_s: f64,
    ci95: String,
    predicted_s: f64,
    error: String,
    in_ci: String,
    speedup_measured: f64,
    speedup_predicted: f64,
}

/// Whether a point's runs give a 95 % interval of its median.
fn has_ci(p: &parcrypt_lab::scc::validate::ValidationPoint) -> bool {
    p.runs >= parcrypt_lab::bench::MIN_RUNS_FOR_CI
}

fn rows(v: &Validation) -> Vec<Row> {
    v.points
        .iter()
        .map(|p| Row {
            stages: p.stages,
            chunk: p.chunk_bytes,
            measured_s: p.measured_s,
            // Fewer than 6 runs give no 95 % interval: nothing is shown under its name.
            ci95: if has_ci(p) {
                format!("{:.4}-{:.4}", p.measured_low_s, p.measured_high_s)
            } else {
                String::new()
            },
            predicted_s: p.predicted_s,
            error: format!("{:+.0}%", p.error * 100.0),
            in_ci: match (has_ci(p), p.within_interval) {
                (false, _) => String::new(),
                (true, inside) => if inside { "yes" } else { "no" }.into(),
            },
            speedup_measured: p.measured_speedup,
            speedup_predicted: p.predicted_speedup,
        })
        .collect()
}
