//! `parcrypt dse`: the design-space exploration — the Pareto front over time, energy and MTTF,
//! the best configuration per objective, and seed 000's Table 8 choices recomputed.
use super::parse_list;
use anyhow::Result;
use clap::Args;
use parcrypt::bench::{BenchReport, ExportFormat, MachineInfo};
use parcrypt::dse::{self, Evaluation, Objective, workload};
use std::path::PathBuf;

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
    /// Write every evaluation as JSON: {"machine": {...}, "results": [...]}.
    #[arg(long)]
    json: Option<PathBuf>,
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
    println!(
        "workload: {} — measured here: {:.4} s on 1 thread, speedups {:?}; Amdahl s = {:.3}; clock here {:.0} MHz ({})",
        work.unit,
        work.t1_s,
        work.speedups
            .iter()
            .map(|(t, s)| format!("{t}: {s:.2}"))
            .collect::<Vec<_>>(),
        work.serial_fraction,
        work.here_mhz,
        work.here_mhz_source
    );
    println!(
        "all other figures are modelled: time ∝ 1/f with the Amdahl fit, power from the calibrated model, MTTF from RAMP\n"
    );
    println!(
        "best for {}: {}",
        objective.name(),
        dse::best(&evals, objective, |_| true).map_or("-".into(), describe)
    );
    for o in Objective::ALL.into_iter().filter(|o| *o != objective) {
        println!(
            "best for {}: {}",
            o.name(),
            dse::best(&evals, o, |_| true).map_or("-".into(), describe)
        );
    }
    println!(
        "\nPareto front over time, energy and MTTF ({} of {} configurations), fastest first:",
        evals.iter().filter(|e| e.pareto).count(),
        evals.len()
    );
    let mut front: Vec<&Evaluation> = evals.iter().filter(|e| e.pareto).collect();
    front.sort_by(|a, b| a.time_s.total_cmp(&b.time_s));
    let rows: Vec<Row> = front.iter().map(|e| row(e)).collect();
    print!("{}", parcrypt::bench::render(&rows, ExportFormat::Table)?);
    println!(
        "\nseed 000 Table 8 (PaRSA-n, n = hardware threads): energy-optimal against power-optimal.\n\
         By construction of the model: time ∝ 1/f scales every configuration of a preset alike and the power \
         is Tables 4-7's, so the workload measured here cannot move these choices."
    );
    for (name, en, pw) in dse::table8(&evals) {
        println!(
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
        );
    }
    if let Some(path) = &args.json {
        parcrypt::bench::export(
            &BenchReport {
                machine,
                results: evals,
            },
            ExportFormat::Json,
            path,
        )?;
    }
    Ok(())
}
