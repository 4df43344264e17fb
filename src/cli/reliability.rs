//! `parcrypt reliability`: RAMP MTTF (EM, SM, TDDB, TC, combined) of a preset at a node and
//! clock, with its temperature and where that came from; with `--vs-freq`, the % change of
//! `--freq` over `--vs-freq` in the form of PaRSA's Table 9.
//!
//! The MTTF figures are *normalised* years, RAMP's convention: every mechanism is scaled to
//! 120 years (all four together 30) at a reference operating point, printed with them. They
//! compare operating points; they are not a lifetime prediction for a real chip.
use anyhow::Result;
use clap::Args;
use parcrypt_lab::energy::units::celsius_to_kelvin;
use parcrypt_lab::reliability::assess::{Assessment, TemperatureChoice, assess, compare};
use parcrypt_lab::reliability::thermal;
use serde::Serialize;
use std::path::Path;

/// Where Linux shows its temperature sensors.
const SYS: &str = "/sys";

use super::power::{PointArgs, mhz};

/// Arguments of `parcrypt reliability`.
#[derive(Args, Debug)]
pub struct ReliabilityArgs {
    #[command(flatten)]
    point: PointArgs,
    /// Compare with this clock (MHz): prints the % MTTF change of --freq over it.
    #[arg(long, value_parser = mhz)]
    vs_freq: Option<f64>,
    /// Compare with this named state (profile presets).
    #[arg(long)]
    vs_state: Option<String>,
    /// Junction temperature of the --freq point, °C (instead of the thermal model);
    /// -55 to 150 °C, the widest range silicon parts are rated for.
    #[arg(long, value_parser = junction_celsius)]
    temp_c: Option<f64>,
    /// Junction temperature of the compared point, °C (-55 to 150).
    #[arg(long, value_parser = junction_celsius)]
    vs_temp_c: Option<f64>,
    /// Take the temperature from this machine's sensors (this-machine only, single point).
    #[arg(long)]
    sensors: bool,
    #[command(flatten)]
    out: super::output::ReportOpts,
}

/// Junction temperatures silicon parts are rated for (military grade: -55 to 150 °C); the
/// RAMP models are calibrated far inside this range, and outside it they mean nothing.
const JUNCTION_C: std::ops::RangeInclusive<f64> = -55.0..=150.0;

/// A junction temperature in °C within [`JUNCTION_C`].
fn junction_celsius(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if JUNCTION_C.contains(&v) => Ok(v),
        Ok(v) => Err(format!(
            "junction temperature {v} °C is outside {} to {} °C (the rated range of silicon)",
            JUNCTION_C.start(),
            JUNCTION_C.end()
        )),
        Err(_) => Err(format!("temperature must be a number of °C, got '{s}'")),
    }
}

#[derive(Serialize)]
struct Output<'a> {
    this: &'a Assessment,
    #[serde(skip_serializing_if = "Option::is_none")]
    other: Option<&'a Assessment>,
    #[serde(skip_serializing_if = "Option::is_none")]
    change_pct: Option<&'a parcrypt_lab::reliability::ramp::MttfChange>,
}

/// Runs `parcrypt reliability`.
pub fn run(args: ReliabilityArgs) -> Result<()> {
    args.out
        .check(&[("--profile", args.point.profile.as_deref())])?;
    let preset = args.point.preset()?;
    let comparing = args.vs_freq.is_some() || args.vs_state.is_some();
    if args.sensors && (comparing || preset.name != "this-machine") {
        return Err(super::usage(
            "--sensors reads this machine's temperature now: only for --preset this-machine without --vs-freq",
        ));
    }
    if args.vs_temp_c.is_some() && !comparing {
        return Err(super::usage("--vs-temp-c needs --vs-freq or --vs-state"));
    }
    let temp = |c: Option<f64>| match c {
        Some(c) => TemperatureChoice::Given(celsius_to_kelvin(c)),
        None if args.sensors => TemperatureChoice::Sensors(SYS.into()),
        None => TemperatureChoice::Model,
    };
    if args.sensors && args.temp_c.is_none() && thermal::hottest(Path::new(SYS)).is_none() {
        eprintln!(
            "note: --sensors: no temperature sensor found under {SYS} (thermal zones, hwmon); using the thermal model"
        );
    }
    let this_q = args.point.query(None, None);
    if comparing {
        let other_q = parcrypt_lab::energy::power_model::PowerQuery {
            mhz: args.vs_freq,
            state: args.vs_state.clone(),
            ..this_q.clone()
        };
        let cmp = compare(
            &preset,
            &this_q,
            &other_q,
            (&temp(args.temp_c), &temp(args.vs_temp_c)),
        )?;
        let out = Output {
            this: &cmp.this,
            other: Some(&cmp.other),
            change_pct: Some(&cmp.change),
        };
        args.out.emit(&out, || {
            let c = &cmp.change;
            format!(
                "{}{}MTTF of {} MHz over {} MHz: EM {} %, SM {} %, TDDB {} %, TC {} %, combined {} %\nnormalised to the reference: {}\n",
                render(&cmp.this),
                render(&cmp.other),
                cmp.this.power.freq_mhz,
                cmp.other.power.freq_mhz,
                pct(c.em_pct),
                pct(c.sm_pct),
                pct(c.tddb_pct),
                pct(c.tc_pct),
                pct(c.combined_pct),
                cmp.this.reference
            )
        })
    } else {
        let a = assess(&preset, &this_q, &temp(args.temp_c))?;
        let out = Output {
            this: &a,
            other: None,
            change_pct: None,
        };
        args.out.emit(&out, || {
            format!(
                "{}normalised to the reference: {}\n",
                render(&a),
                a.reference
            )
        })
    }
}

fn render(a: &Assessment) -> String {
    let p = &a.power;
    let m = &a.mttf;
    format!(
        "{}, {} nm, {} MHz, {} V: {:.2} W ({}), {:.2} °C ({})\n  MTTF, normalised years (RAMP; 120 per mechanism at the reference): EM {}, SM {}, TDDB {}, TC {}, combined {}\n",
        p.preset,
        p.node_nm,
        p.freq_mhz,
        a.volts,
        p.p_total_w,
        p.source,
        a.temperature.kelvin - 273.15,
        a.temperature.source,
        num(m.em_years),
        num(m.sm_years),
        num(m.tddb_years),
        num(m.tc_years),
        num(m.combined_years)
    )
}

/// A figure with one decimal, or in scientific notation when huge (TDDB's voltage exponent
/// of about 100 makes lifetimes of 10^20 years out of a lower supply voltage).
fn num(v: f64) -> String {
    if v.abs() >= 1e6 {
        format!("{v:.3e}")
    } else {
        format!("{v:.1}")
    }
}

/// A signed percentage with two decimals, or in scientific notation when huge.
fn pct(v: f64) -> String {
    if v.abs() >= 1e6 {
        format!("{v:+.3e}")
    } else {
        format!("{v:+.2}")
    }
}
