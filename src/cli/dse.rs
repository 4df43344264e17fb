//! `parcrypt dse`: the design-space exploration — the Pareto front over time, energy and MTTF,
//! the best configuration per objective, and PaRSA's Table 8 choices recomputed.
//!
//! The workload is timed here in paired rounds (1 thread and `--threads`, interleaved, with a
//! free-core probe beside each round); the fitted serial fraction and every recommendation
//! carry a 95 % interval from resampling the rounds, a recommendation that changes inside the
//! serial fraction's interval is marked "not decided", and a busy machine is named as such.
use super::bench_opts::positive;
use super::output::ReportOpts;
use super::parse_list;
use anyhow::Result;
use clap::Args;
use parcrypt_lab::bench::{ExportFormat, MachineInfo, Progress};
use parcrypt_lab::dse::uncertainty::{Cores, Explored, Interval, Recommendation, explore_rounds};
use parcrypt_lab::dse::workload::WorkloadRounds;
use parcrypt_lab::dse::{self, Evaluation, Objective, workload};
use serde::Serialize;

/// Arguments of `parcrypt dse`.
#[derive(Args, Debug)]
pub struct DseArgs {
    /// The workload timed here and carried to each processor.
    #[arg(long, default_value = "parsa", value_parser = ["parsa", "modexp", "cipher"])]
    workload: String,
    /// Presets, comma-separated (`--preset` as in `power` is the same option).
    #[arg(long, alias = "preset", default_value = "core2duo,core-i3,core-i5,core-i7", value_parser = names)]
    presets: std::vec::Vec<String>,
    /// Process nodes in nm, comma-separated (each preset keeps those it has; `--node` is the
    /// same option).
    #[arg(long, alias = "node", default_value = "90,65,45,32,22", value_parser = nodes)]
    nodes: std::vec::Vec<u32>,
    /// The objective whose best configuration is printed first.
    #[arg(long, default_value = "energy", value_parser = ["time", "power", "energy", "mttf", "edp"])]
    objective: String,
    /// Threads the workload is timed on beside one thread (default: the logical CPUs).
    #[arg(long, value_parser = positive)]
    threads: Option<usize>,
    /// Paired rounds: each times the workload once on 1 thread and once on --threads, with
    /// a free-core probe beside; the intervals come from resampling them.
    #[arg(short = 'r', long, default_value = "10", value_parser = positive)]
    runs: usize,
    /// Untimed runs of each thread count first.
    #[arg(short = 'w', long, default_value_t = 1)]
    warmup: usize,
    /// Time the workload with bigger units (slower, steadier).
    #[arg(long)]
    thorough: bool,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// What the terminal shows, and the JSON file: {"machine", "workload" (every round's
    /// seconds), "fit", "recommendations", "results" (every configuration)}.
    #[command(flatten)]
    out: ReportOpts,
}

fn names(s: &str) -> Result<std::vec::Vec<String>, String> {
    parse_list(s, "preset", |t| Ok(t.to_string()))
}

fn nodes(s: &str) -> Result<std::vec::Vec<u32>, String> {
    parse_list(s, "node", |t| {
        t.parse::<u32>()
            .map_err(|_| format!("nodes are integers in nm, got '{t}'"))
    })
}

/// What `--json` writes.
#[derive(Serialize)]
struct DseReport<'a> {
    machine: &'a MachineInfo,
    workload: &'a WorkloadRounds,
    fit: &'a parcrypt_lab::dse::uncertainty::Fit,
    recommendations: &'a [Recommendation],
    results: &'a [Evaluation],
}

/// One thread count of the workload as measured, with intervals.
#[derive(Serialize)]
struct Measured {
    threads: usize,
    median_s: f64,
    speedup: f64,
    speedup_ci95: String,
}

/// A row of the Pareto front.
#[derive(Serialize)]
struct Row {
    preset: String,
    threads: usize,
    mhz: f64,
    node_nm: u32,
    gating: bool,
    time_s: f64,
    power_w: f64,
    energy_j: f64,
    temp_c: f64,
    mttf_norm_years: f64,
}

fn row(e: &Evaluation) -> Row {
    Row {
        preset: e.preset.clone(),
        threads: e.threads,
        mhz: e.mhz,
        node_nm: e.node_nm,
        gating: e.power_gating,
        time_s: e.time_s,
        power_w: e.power_w,
        energy_j: e.energy_j,
        temp_c: e.temp_c,
        mttf_norm_years: e.mttf_years,
    }
}

/// A figure with its interval, to 4 significant digits: `0.01230 [0.01100, 0.01400]`.
fn with_interval(i: &Interval) -> String {
    let f = parcrypt_lab::bench::format_number;
    format!("{} [{}, {}]", f(i.value), f(i.low), f(i.high))
}

/// Runs `parcrypt dse`.
pub fn run(args: DseArgs) -> Result<()> {
    args.out.check(&[])?;
    let objective = Objective::parse(&args.objective).map_err(|e| super::usage(e.to_string()))?;
    for p in &args.presets {
        parcrypt_lab::energy::presets::preset(p, None).map_err(|e| super::usage(e.to_string()))?;
    }
    let machine = MachineInfo::detect();
    let most = args.threads.unwrap_or_else(super::default_threads);
    let mut threads = vec![1, most];
    threads.dedup();
    let progress = Progress::new(args.runs as u64, "dse rounds", args.quiet);
    let rounds = workload::measure_rounds(
        &args.workload,
        &threads,
        !args.thorough,
        args.warmup,
        args.runs,
        |done, _| progress.set_position(done as u64),
    )?;
    progress.finish();
    let explored = explore_rounds(&rounds, &args.presets, &args.nodes)
        .map_err(|e| super::usage(e.to_string()))?;
    let report = DseReport {
        machine: &machine,
        workload: &rounds,
        fit: &explored.fit,
        recommendations: &explored.recommendations,
        results: &explored.evaluations,
    };
    args.out.emit(&report, || {
        text(&rounds, &explored, objective).unwrap_or_else(|e| format!("error: {e}\n"))
    })
}

/// Everything `dse` shows people: the workload measured here with its intervals, whether the
/// cores were free, the best configuration per objective with its interval and whether it is
/// decided, the Pareto front and Table 8's choices.
fn text(rounds: &WorkloadRounds, e: &Explored, objective: Objective) -> Result<String> {
    let mut out = String::new();
    workload_text(&mut out, rounds, e)?;
    best_text(&mut out, e, objective)?;
    front_text(&mut out, e)?;
    table8_text(&mut out, e)?;
    Ok(out)
}

/// The workload measured here: times and speedups, the Amdahl fit, whether the cores were
/// free.
fn workload_text(out: &mut String, rounds: &WorkloadRounds, e: &Explored) -> Result<()> {
    use std::fmt::Write;
    let (work, fit) = (&e.workload, &e.fit);
    writeln!(
        out,
        "workload: {}, measured here in {} paired rounds (clock {:.0} MHz, {}):",
        work.unit, fit.rounds, work.here_mhz, work.here_mhz_source
    )?;
    let measured: Vec<Measured> = rounds
        .threads
        .iter()
        .zip(&work.speedups)
        .map(|(&threads, &(_, speedup))| Measured {
            threads,
            median_s: work.t1_s / speedup,
            speedup,
            speedup_ci95: if threads == fit.threads && threads > 1 {
                format!("{:.3}-{:.3}", fit.speedup.low, fit.speedup.high)
            } else {
                String::new()
            },
        })
        .collect();
    *out += &parcrypt_lab::bench::render(&measured, ExportFormat::Table)?;
    writeln!(
        out,
        "Amdahl serial fraction fitted to {} threads: s = {:.3}, 95 % interval [{:.3}, {:.3}] (bootstrap over the {} rounds)",
        fit.threads,
        fit.serial_fraction.value,
        fit.serial_fraction.low,
        fit.serial_fraction.high,
        fit.rounds
    )?;
    if let Some(f) = &fit.free_cores {
        let what = match fit.cores {
            Cores::Busy => {
                "the machine was busy: other work took the cores, so the measured speedup is too low and s too high, and every parallel figure below is pessimistic"
            }
            Cores::Unclear => {
                "whether the cores were free is unclear: the speedup and s may be pessimistic"
            }
            _ => "the cores were free",
        };
        writeln!(
            out,
            "free cores: {} threads of independent work ran at {:.2} [{:.2}, {:.2}] of the ideal throughput ({} needed): {what}",
            fit.threads,
            f.value,
            f.low,
            f.high,
            parcrypt_lab::bench::capacity::FREE_CORES_NEEDED
        )?;
    }
    Ok(())
}

/// The best configuration per objective, `objective` first.
fn best_text(out: &mut String, e: &Explored, objective: Objective) -> Result<()> {
    use std::fmt::Write;
    writeln!(
        out,
        "all other figures are modelled: time ∝ 1/f with the Amdahl fit, power from the calibrated model, MTTF from RAMP (normalised years)\n"
    )?;
    writeln!(
        out,
        "best per objective, with the 95 % interval of its figure; \"not decided\" when another configuration wins somewhere in s's interval:"
    )?;
    let first = e
        .recommendations
        .iter()
        .filter(|r| r.objective == objective);
    let rest = e
        .recommendations
        .iter()
        .filter(|r| r.objective != objective);
    for r in first.chain(rest) {
        writeln!(out, "{}", describe(r))?;
    }
    Ok(())
}

/// The Pareto front, fastest first.
fn front_text(out: &mut String, e: &Explored) -> Result<()> {
    use std::fmt::Write;
    let fit = &e.fit;
    writeln!(
        out,
        "\nPareto front over time, energy and MTTF ({} of {} configurations, with s = {:.3}), fastest first:",
        e.evaluations.iter().filter(|x| x.pareto).count(),
        e.evaluations.len(),
        fit.serial_fraction.value
    )?;
    let mut front: Vec<&Evaluation> = e.evaluations.iter().filter(|x| x.pareto).collect();
    front.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
    let rows: Vec<Row> = front.iter().map(|x| row(x)).collect();
    *out += &parcrypt_lab::bench::render(&rows, ExportFormat::Table)?;
    Ok(())
}

/// PaRSA's Table 8 choices, energy-optimal against power-optimal.
fn table8_text(out: &mut String, e: &Explored) -> Result<()> {
    use std::fmt::Write;
    writeln!(
        out,
        "\nThe PaRSA paper's Table 8 (PaRSA-n, n = hardware threads): energy-optimal against power-optimal.\n\
         By construction of the model: time ∝ 1/f scales every configuration of a preset alike and the power \
         is Tables 4-7's, so the workload measured here cannot move these choices."
    )?;
    for (name, en, pw) in dse::table8(&e.evaluations) {
        writeln!(
            out,
            "  {name}: energy-optimal {} nm {} MHz{}; power-optimal {} nm {} MHz{} — {}",
            en.node_nm,
            en.mhz,
            if en.power_gating { " gated" } else { "" },
            pw.node_nm,
            pw.mhz,
            if pw.power_gating { " gated" } else { "" },
            if (en.mhz, en.node_nm) == (pw.mhz, pw.node_nm) {
                "the same clock"
            } else {
                "they differ (as the paper's Table 8)"
            }
        )?;
    }
    Ok(())
}

/// One recommendation in a line: objective, configuration, figure with interval, decided or
/// not (with the configurations that win elsewhere in the interval of s).
fn describe(r: &Recommendation) -> String {
    let b = &r.best;
    let verdict = if r.decided {
        "decided".to_string()
    } else {
        let others: Vec<String> = r
            .winners
            .iter()
            .map(|w| {
                format!(
                    "{} for s in [{:.3}, {:.3}] ({:.0} % of resamples)",
                    w.config,
                    w.s_low,
                    w.s_high,
                    w.share * 100.0
                )
            })
            .collect();
        format!("NOT DECIDED: {}", others.join("; "))
    };
    format!(
        "  best for {:<6} {}: {} {} ({:.2} W, {:.1} °C, MTTF {:.1} normalised years) — {verdict}",
        r.objective.name(),
        parcrypt_lab::dse::uncertainty::config_name(b),
        with_interval(&r.figure),
        r.unit,
        b.power_w,
        b.temp_c,
        b.mttf_years
    )
}
