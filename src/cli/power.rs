//! `parcrypt power`: the power of a preset at a node, clock and number of active cores — the
//! seed-000 tables reproduced, interpolated or scaled (only when asked), or the profile model
//! of the other presets. Also the operating-point arguments every energy command shares.
//!
//! Every figure says where it comes from: `paper:parsa-table-N` for a table row as printed
//! (rows rebuilt from an illegible scan carry their note), `model:<preset>` for anything
//! interpolated, scaled, partly busy or from a profile, `model:first-principles` for αCV²f.
use anyhow::Result;
use clap::{Args, ValueEnum};
use parcrypt_lab::energy::power_model::{ModelKind, PowerEstimate, PowerQuery, estimate};
use parcrypt_lab::energy::presets::{self, Preset};
use std::path::PathBuf;

/// Preset and operating point, shared by `power`, `reliability` and `energy`.
#[derive(Args, Debug, Clone)]
pub struct PointArgs {
    /// Processor preset (`parcrypt presets` lists them).
    #[arg(long, default_value = "this-machine")]
    pub preset: String,
    /// Process node in nm (the preset's default when left out).
    #[arg(long = "node")]
    pub node_nm: Option<u32>,
    /// Clock in MHz (the preset's default when left out).
    #[arg(long = "freq", value_parser = mhz)]
    pub mhz: Option<f64>,
    /// A named state of a profile preset (`default`, `calibrated`, `p1`..`p4`, `active`, `idle`).
    #[arg(long)]
    pub state: Option<String>,
    /// Allow nodes and clocks the preset lacks: interpolated between table clocks, or scaled
    /// with the first-principles node rules (labelled so).
    #[arg(long)]
    pub interpolate: bool,
    /// `this-machine` profile (TOML); else $PARCRYPT_PROFILE, ~/.config/parcrypt/profile.toml,
    /// or the built-in default, which is a guess.
    #[arg(long)]
    pub profile: Option<PathBuf>,
}

impl PointArgs {
    /// The preset these arguments name.
    pub fn preset(&self) -> Result<Preset> {
        Ok(presets::preset(&self.preset, self.profile.as_deref())?)
    }

    /// The query for this point, with `mhz`/`state` replaced when given.
    pub fn query(&self, mhz: Option<f64>, state: Option<&String>) -> PowerQuery {
        PowerQuery {
            node_nm: self.node_nm,
            mhz: mhz.or(self.mhz),
            state: state.or(self.state.as_ref()).cloned(),
            interpolate: self.interpolate,
            ..PowerQuery::default()
        }
    }
}

/// A clock in MHz: a positive number.
pub fn mhz(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 10_000.0 => Ok(v),
        _ => Err(format!(
            "frequency must be a positive number of MHz, at most 10000 (10 GHz), got '{s}'"
        )),
    }
}

/// `--model` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum ModelArg {
    /// Calibrated: the seed-000 tables (exact at their points) or the preset's profile.
    Calibrated,
    /// alpha C V^2 f with node scaling, anchored at the preset's 90 nm row.
    FirstPrinciples,
}

/// Arguments of `parcrypt power`.
#[derive(Args, Debug)]
pub struct PowerArgs {
    #[command(flatten)]
    point: PointArgs,
    /// Busy cores (the others sit at the lowest clock); all when left out.
    #[arg(long, value_parser = active)]
    active_cores: Option<f64>,
    /// Power gating: idle cores off, power-gated subthreshold leakage.
    #[arg(long)]
    power_gating: bool,
    /// Which model.
    #[arg(long, value_enum, default_value_t = ModelArg::Calibrated)]
    model: ModelArg,
    /// JSON: {"p_dynamic_w", "p_leak_w", "p_total_w", "area_mm2", "source", ...}.
    #[command(flatten)]
    out: super::output::ReportOpts,
}

fn active(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v >= 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("active cores must be a number >= 0, got '{s}'")),
    }
}

/// Runs `parcrypt power`.
pub fn run(args: PowerArgs) -> Result<()> {
    args.out
        .check(&[("--profile", args.point.profile.as_deref())])?;
    let preset = args.point.preset()?;
    let query = PowerQuery {
        active_cores: args.active_cores,
        power_gating: args.power_gating,
        model: match args.model {
            ModelArg::Calibrated => ModelKind::Calibrated,
            ModelArg::FirstPrinciples => ModelKind::FirstPrinciples,
        },
        ..args.point.query(None, None)
    };
    let e = estimate(&preset, &query)?;
    args.out.emit(&e, || render(&e))
}

/// The estimate for people.
pub fn render(e: &PowerEstimate) -> String {
    let volts = e.volts.map(|v| format!(", {v} V")).unwrap_or_default();
    let mut out = format!(
        "{}, {} nm, {} MHz{volts}, {} of {} cores active, power gating {}\n",
        e.preset,
        e.node_nm,
        e.freq_mhz,
        e.active_cores,
        e.cores,
        if e.power_gating { "on" } else { "off" }
    );
    out.push_str(&format!("  dynamic  {:9.3} W\n", e.p_dynamic_w));
    let parts = match (e.p_leak_gate_w, e.p_leak_subthreshold_w) {
        (Some(g), Some(s)) => format!("  (gate {g:.3} W + subthreshold {s:.3} W)"),
        _ => "  (static: leakage + uncore)".into(),
    };
    out.push_str(&format!("  leakage  {:9.3} W{parts}\n", e.p_leak_w));
    out.push_str(&format!("  total    {:9.3} W\n", e.p_total_w));
    if let Some(a) = e.area_mm2 {
        out.push_str(&format!("  area     {a:9.3} mm2\n"));
    }
    out.push_str(&format!("  source   {} ({})\n", e.source, e.basis));
    for n in &e.notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    out
}
