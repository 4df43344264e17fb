//! `parcrypt dse`: the design-space exploration — the Pareto front over time, energy and MTTF,
//! the best configuration per objective, and seed 000's Table 8 choices recomputed.
use super::output::Output;
use super::parse_list;
use anyhow::Result;
use clap::Args;
use parcrypt::bench::{BenchReport, ExportFormat, MachineInfo};
use parcrypt::dse::{self, Evaluation, Objective, workload};

/// Arguments of `parcrypt dse`.
#[derive(Args, Debug)]
pub struct DseArgs {
    /// The workload timed here and carried to each processor: parsa, modexp or cipher.
    #[arg(long, default_value = "parsa")]
    workload: String,
    /// Presets, comma-separated.
    #[arg(long, default_value = "core2duo,core-i3,core-i5,core-i7", value_parser = names)]
    presets: std::vec::Vec<String>,
    /// Process nodes in nm, comma-separated (each preset keeps those it has).
    #[arg(long, default_value = "90,65,45,32,22", value_parser = nodes)]
    nodes: std::vec::Vec<u32>,
    /// The objective whose best configuration is printed first.
    #[arg(long, default_value = "energy")]
    objective: String,
    /// Time the workload with bigger units (slower, steadier).
    #[arg(long)]
    thorough: bool,
    /// Write every evaluation as JSON to F (`-`: stdout, instead of the text):
    /// {"machine": {...}, "results": [...]}.
    #[arg(long, value_name = "F", value_parser = super::output::parse)]
    json: Option<Output>,
}

/// One measured thread count of the workload, as shown.
#[derive(serde::Serialize)]
struct Measured {
    threads: usize,
    time_s: f64,
    speedup: f64,
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

#[derive(serde::Serialize)]
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
    mttf_years: f64,
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
        mttf_years: e.mttf_years,
    }
}

fn describe(e: &Evaluation) -> String {
    format!(
        "{} ({} nm, {} MHz, {} threads{}): {:.4} s, {:.2} W, {:.3} J, {:.1} °C, MTTF {:.1} y",
        e.preset,
        e.node_nm,
        e.mhz,
        e.threads,
        if e.power_gating { ", power gating" } else { "" },
        e.time_s,
        e.power_w,
        e.energy_j,
        e.temp_c,
        e.mttf_years
    )
}

/// Runs `parcrypt dse`.
pub fn run(args: DseArgs) -> Result<()> {
    super::output::check(&[("--json", args.json.as_ref())])?;
    let objective = Objective::parse(&args.objective).map_err(|e| super::usage(e.to_string()))?;
    if !workload::WORKLOADS.contains(&args.workload.as_str()) {
        return Err(super::usage(format!(
            "unknown workload '{}' (expected {})",
            args.workload,
            workload::WORKLOADS.join(", ")
        )));
    }
    for p in &args.presets {
        parcrypt::energy::presets::preset(p, None).map_err(|e| super::usage(e.to_string()))?;
    }
    let machine = MachineInfo::detect();
    let work = workload::measure(
        &args.workload,
        machine.logical_cores.clamp(1, 2),
        !args.thorough,
    )?;
    let evals =
        dse::explore(&work, &args.presets, &args.nodes).map_err(|e| super::usage(e.to_string()))?;
    let report = BenchReport {
        machine,
        results: evals,
    };
    if args.json != Some(Output::Stdout) {
        print!("{}", text(&work, objective, &report.results)?);
    }
    if let Some(target) = &args.json {
        target.write(&parcrypt::bench::render_report(
            &report,
            ExportFormat::Json,
        )?)?;
    }
    Ok(())
}

/// Everything `dse` shows people: the workload measured here, the best configuration per
/// objective, the Pareto front and Table 8's choices.
fn text(work: &workload::Workload, objective: Objective, evals: &[Evaluation]) -> Result<String> {
    use std::fmt::Write;
    let mut out = String::new();
    let measured: Vec<Measured> = work
        .speedups
        .iter()
        .map(|&(threads, speedup)| Measured {
            threads,
            time_s: work.t1_s / speedup,
            speedup,
        })
        .collect();
    writeln!(
        out,
        "workload: {}, measured here (clock {:.0} MHz, {}):",
        work.unit, work.here_mhz, work.here_mhz_source
    )?;
    out += &parcrypt::bench::render(&measured, ExportFormat::Table)?;
    writeln!(
        out,
        "Amdahl serial fraction fitted to the most threads: s = {:.3}",
        work.serial_fraction
    )?;
    writeln!(
        out,
        "all other figures are modelled: time ∝ 1/f with the Amdahl fit, power from the calibrated model, MTTF from RAMP\n"
    )?;
    writeln!(
        out,
        "best for {}: {}",
        objective.name(),
        dse::best(evals, objective, |_| true).map_or("-".into(), describe)
    )?;
    for o in Objective::ALL.into_iter().filter(|o| *o != objective) {
        writeln!(
            out,
            "best for {}: {}",
            o.name(),
            dse::best(evals, o, |_| true).map_or("-".into(), describe)
        )?;
    }
    writeln!(
        out,
        "\nPareto front over time, energy and MTTF ({} of {} configurations), fastest first:",
        evals.iter().filter(|e| e.pareto).count(),
        evals.len()
    )?;
    let mut front: Vec<&Evaluation> = evals.iter().filter(|e| e.pareto).collect();
    front.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
    let rows: Vec<Row> = front.iter().map(|e| row(e)).collect();
    out += &parcrypt::bench::render(&rows, ExportFormat::Table)?;
    writeln!(
        out,
        "\nseed 000 Table 8 (PaRSA-n, n = hardware threads): energy-optimal against power-optimal.\n\
         By construction of the model: time ∝ 1/f scales every configuration of a preset alike and the power \
         is Tables 4-7's, so the workload measured here cannot move these choices."
    )?;
    for (name, en, pw) in dse::table8(evals) {
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
    Ok(out)
}
