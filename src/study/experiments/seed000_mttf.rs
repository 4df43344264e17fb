//! Seed 000, modelled: temperature and lifetime reliability against clock (Figs. 15–16) and
//! Table 9's MTTF gains beside our RAMP figures.
use super::seed000_model::{model, result};
use super::{num, text};
use crate::claims::seed000::MECHANISMS;
use crate::energy::power_model::PowerQuery;
use crate::energy::presets::preset;
use crate::error::Result;
use crate::reliability::assess::{TemperatureChoice, assess};
use crate::reliability::table9::table9_beside_ours;
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, Output, Profile, Series, Table, fed,
};

/// The reliability experiment of seed 000.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Reliability)]
}

/// Table 9 with our RAMP figures; Figs. 15–16.
struct Reliability;

const RAMP_MODEL: &str = "RAMP, Table 3 constants, T = T_amb + R_th·P";

impl Experiment for Reliability {
    fn id(&self) -> &'static str {
        "seed000-mttf"
    }
    fn estimate_s(&self, _p: Profile) -> f64 {
        1.0
    }
    fn run(&self, _ctx: &Context) -> Result<Output> {
        let rows = table9_beside_ours();
        let mut table = Table::new(&[
            "workload",
            "preset",
            "low_mhz",
            "high_mhz",
            "t_low_c",
            "t_high_c",
            "mechanism",
            "paper_pct",
            "ours_pct",
        ]);
        let mut evidence = Vec::new();
        let mut all = Vec::new();
        for r in &rows {
            let ours = r.ours_pct();
            let (tl, th) = (
                r.ours.this.temperature.kelvin - 273.15,
                r.ours.other.temperature.kelvin - 273.15,
            );
            for (i, m) in MECHANISMS.iter().enumerate() {
                table.push(vec![
                    text(r.claim.workload),
                    text(r.claim.preset),
                    num(r.claim.low_mhz),
                    num(r.claim.high_mhz),
                    num(tl),
                    num(th),
                    text(*m),
                    num(r.claim.paper_pct[i]),
                    num(ours[i]),
                ]);
            }
            all.extend(ours);
            let shown = MECHANISMS
                .iter()
                .zip(ours)
                .map(|(m, o)| format!("{m} {o:+.1} %"))
                .collect::<Vec<_>>()
                .join(", ");
            evidence.push(fed(
                &format!("seed000-table9-{}", r.claim.workload.to_lowercase()),
                Evidence::modelled(
                    ours.iter().map(|o| Estimate::exact(*o)).collect(),
                    &format!("{RAMP_MODEL}; {tl:.1} / {th:.1} °C"),
                )
                .text(shown),
            ));
        }
        let mean = all.iter().sum::<f64>() / all.len().max(1) as f64;
        evidence.push(fed(
            "seed000-table3-ramp-constants",
            Evidence::report("used as given (reliability::ramp::SEED000)"),
        ));
        evidence.push(fed(
            "seed000-abstract-mttf",
            Evidence::modelled(vec![Estimate::exact(mean)], "mean of our Table 9 gains")
                .text(format!("{mean:.1} % higher on average")),
        ));
        let mut r = result(self.id(), "Temperature and lifetime reliability against clock", "Figs. 15–16, Table 9", model(RAMP_MODEL),
            "Table 9's pairs (power-efficient over energy-efficient clock, 22 nm) with our RAMP figures, and temperature and \
             MTTF per mechanism against clock for the Core i7 at 22 nm. No temperature or MTTF here is measured: this machine \
             exposes no sensors, and MTTF is a model everywhere."
                .into());
        r.table = table;
        r.charts = mttf_charts()?;
        Ok(Output {
            result: r,
            evidence,
        })
    }
}

/// Figs. 15–16 for the Core i7 at 22 nm.
fn mttf_charts() -> Result<Vec<Chart>> {
    let i7 = preset("core-i7", None)?;
    let (mut temp, mut mech) = (Vec::new(), vec![Vec::new(); 4]);
    let mut reference = String::new();
    for mhz in i7.frequencies(22) {
        let q = PowerQuery {
            node_nm: Some(22),
            mhz: Some(mhz),
            ..Default::default()
        };
        let a = assess(&i7, &q, &TemperatureChoice::Model)?;
        temp.push((mhz, a.temperature.kelvin - 273.15));
        reference = a.reference;
        for (i, y) in [
            a.mttf.em_years,
            a.mttf.sm_years,
            a.mttf.tddb_years,
            a.mttf.tc_years,
        ]
        .into_iter()
        .enumerate()
        {
            mech[i].push((mhz, y));
        }
    }
    let m = || model("RAMP, T = T_amb + R_th·P");
    let fig16 = MECHANISMS.iter().zip(mech).fold(
        Chart::line(
            "Fig. 16 — MTTF per mechanism against clock (Core i7, 22 nm)",
            "clock (MHz)",
            "MTTF (years)",
            false,
        ),
        |c, (name, pts)| c.with(Series::from_xy(*name, pts, m())),
    )
    .note(format!(
        "MTTF is normalised, not absolute: RAMP's laws fix it only up to a constant, so {reference}; \
         only ratios between clocks (Table 9's percentages) mean anything."
    ));
    Ok(vec![
        Chart::line(
            "Fig. 15 — modelled temperature against clock (Core i7, 22 nm)",
            "clock (MHz)",
            "°C",
            false,
        )
        .with(Series::from_xy("temperature", temp, m())),
        fig16,
    ])
}
