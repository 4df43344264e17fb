//! PaRSA, modelled: temperature and lifetime reliability against clock (Figs. 15–16) and
//! Table 9's MTTF gains beside our RAMP figures, each judged on its range over the assumed
//! temperatures and T0; with the paper's own arithmetic on Table 9 and section 5.4.
use super::parsa_model::model;
use super::parsa_tables::corners;
use super::{num, text};
use crate::claims::parsa::{MECHANISMS, RELIABILITY_CHOICES, TABLE9};
use crate::energy::power_model::PowerQuery;
use crate::energy::presets::preset;
use crate::error::Result;
use crate::reliability::assess::{TemperatureChoice, assess};
use crate::reliability::table9::{Assumptions, Range, gain_range, range_of, table9_beside_ours};
use crate::study::estimate::reference_s;
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Profile, Series,
    Table, fed,
};

/// The reliability experiment of PaRSA.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Reliability)]
}

/// Table 9 with our RAMP figures; Figs. 15–16.
struct Reliability;

const RAMP_MODEL: &str = "RAMP, Table 3 constants, T = T_amb + R_th·P";

/// A range as an estimate: the value at the defaults, low and high over the assumptions.
fn estimate(r: &Range) -> Estimate {
    Estimate::new(r.value, r.low, r.high)
}

/// The assumption that moves each part of a claim most, grouped: "R_th 0.4–2.5 K/W (EM
/// 398.5–1241.5 %, SM …); TC: none of them".
fn most(ranges: &[(&str, &Range)]) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut unmoved = Vec::new();
    for (m, r) in ranges {
        let Some((name, a, b)) = r.most else {
            unmoved.push(m.to_string());
            continue;
        };
        let (_, unit, lo, hi) = Assumptions::RANGES
            .iter()
            .find(|x| x.0 == name)
            .copied()
            .unwrap_or(("", "", f64::NAN, f64::NAN));
        let head = format!("{name} {lo}–{hi} {unit}");
        let part = format!("{m} {a:.1}–{b:.1} %");
        match groups.iter_mut().find(|g| g.0 == head) {
            Some(g) => g.1.push(part),
            None => groups.push((head, vec![part])),
        }
    }
    let mut out: Vec<String> = groups
        .into_iter()
        .map(|(head, parts)| format!("{head} ({})", parts.join(", ")))
        .collect();
    if !unmoved.is_empty() {
        out.push(format!(
            "{} moved by none (T − T_amb = R_th·P, so the gain is the power ratio to the q-th power)",
            unmoved.join(", ")
        ));
    }
    out.join("; ")
}

impl Experiment for Reliability {
    fn id(&self) -> &'static str {
        "parsa-mttf"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        reference_s(profile, 0.1, 0.1)
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
            "ours_low_pct",
            "ours_high_pct",
        ]);
        let mut evidence = Vec::new();
        for r in &rows {
            let ours = r.ours_pct();
            let ranges = gain_range(&r.claim)?;
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
                    num(ranges[i].low),
                    num(ranges[i].high),
                ]);
            }
            let shown = MECHANISMS
                .iter()
                .zip(&ranges)
                .map(|(m, g)| format!("{m} {}", estimate(g).text("%")))
                .collect::<Vec<_>>()
                .join(", ");
            let named: Vec<(&str, &Range)> =
                MECHANISMS.iter().copied().zip(ranges.iter()).collect();
            // Not testable: the figures are our model's, shown beside and deciding nothing.
            evidence.push(fed(
                &format!("parsa-table9-{}", r.claim.workload.to_lowercase()),
                Evidence::report("no die temperatures, voltages or settable clock here").beside(format!(
                    "our RAMP model ({RAMP_MODEL}; {tl:.1} / {th:.1} °C at the defaults 45 °C, 0.8 K/W, T0 500 K, one voltage per node): {shown}; over T_amb 25–45 °C, R_th 0.4–2.5 K/W and T0 450–550 K {}; it decides nothing, since the paper's temperatures and voltages are not printed",
                    most(&named)
                )),
            ));
        }
        evidence.extend(paper_evidence()?);
        let mut r = ExperimentResult::new(
            self.id(),
            "parsa",
            "Temperature and lifetime reliability against clock",
            "Figs. 15–16, Table 9",
            model(RAMP_MODEL),
            "Table 9's pairs (power-efficient over energy-efficient clock, 22 nm) with our RAMP figures at the assumed \
             T = 45 °C + 0.8 K/W × P and T0 = 500 K (ours_pct) and their range over T_amb 25–45 °C, R_th 0.4–2.5 K/W and \
             T0 450–550 K (ours_low_pct, ours_high_pct), which is what the claims are judged on; and temperature and MTTF \
             per mechanism against clock for the Core i7 at 22 nm. No temperature or MTTF here is measured: this machine \
             exposes no sensors, and MTTF is a model everywhere.",
        );
        r.table = table;
        r.charts = mttf_charts()?;
        Ok(Output {
            result: r,
            evidence,
        })
    }
}

/// The abstract's MTTF line (ours like with like, and the paper's own mean), section 5.4's
/// choices, and the claims that only report.
fn paper_evidence() -> Result<Vec<Fed>> {
    let i7 = TABLE9
        .iter()
        .find(|r| r.workload == "PaRSA-8")
        .ok_or_else(|| crate::Error::InvalidParameter("Table 9 lacks PaRSA-8".into()))?;
    let mean = range_of(i7, |g| g.iter().sum::<f64>() / 4.0)?;
    let printed = corners(
        &i7.paper_pct
            .map(|p| (p, if p == p.round() { 0.5 } else { 0.005 })),
        |x| x.iter().sum::<f64>() / 4.0,
    );
    let all = TABLE9.iter().flat_map(|r| r.paper_pct).sum::<f64>() / 12.0;
    let lowest = |p: &str| -> Result<f64> {
        Ok(preset(p, None)?
            .frequencies(22)
            .into_iter()
            .fold(f64::INFINITY, f64::min))
    };
    let mut choices = Vec::new();
    let mut shown = Vec::new();
    for (w, p, f) in RELIABILITY_CHOICES {
        let lo = lowest(p)?;
        choices.push(Estimate::exact(f / lo));
        shown.push(format!("{w}: {f} MHz named, {lo} MHz lowest"));
    }
    let mut v = super::reported(&[
        (
            "parsa-table3-ramp-constants",
            "used as given (reliability::ramp::PARSA)",
        ),
        (
            "parsa-fig15-quadratic",
            "no temperature sensor or settable clock here",
        ),
    ]);
    v.extend([
        fed(
            "parsa-fig16-mttf-falls",
            Evidence::report("RAMP's laws fall with temperature and V·f").text(
                "falls with the clock at every assumed T_amb, R_th and T0 (Fig. 16's chart below)",
            ),
        ),
        fed(
            "parsa-abstract-mttf",
            Evidence::report("no die temperatures, voltages or settable clock here").beside(format!(
                "our RAMP model: {} higher on average (PaRSA-8's four mechanisms, as the abstract averages them; {}); it decides nothing, since the paper's temperatures and voltages are not printed",
                estimate(&mean).text("%"),
                mean.describe()
            )),
        ),
        fed(
            "parsa-abstract-mttf-table9",
            Evidence::arithmetic(vec![printed], "the mean of Table 9's PaRSA-8 row").text(format!(
                "{} (the mean of all 12 gains would be {all:.2} %)",
                printed.text("%")
            )),
        ),
        fed(
            "parsa-s54-reliability-choice",
            Evidence::arithmetic(
                choices,
                "the clock named in section 5.4 over the processor's lowest clock (Table 1)",
            )
            .text(shown.join("; ")),
        ),
    ]);
    Ok(v)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Table 9 and the abstract's MTTF are not testable here (the paper prints neither its
    /// temperatures nor its voltages); section 5.4's choice is the one defect.
    #[test]
    fn table9_is_not_testable_and_section_5_4_is_one_defect() {
        let out = Reliability.run(&Context::new(Profile::Quick)).unwrap();
        assert_eq!(
            super::super::assert_defects(&out.evidence),
            ["s54-core-i7-2400"]
        );
        let judged = crate::study::judge_experiment("parsa-mttf", &out.evidence).unwrap();
        for id in [
            "parsa-table9-parsa-2",
            "parsa-table9-parsa-4",
            "parsa-table9-parsa-8",
            "parsa-abstract-mttf",
        ] {
            let c = judged.iter().find(|c| c.id == id).unwrap();
            assert_eq!(c.verdict, crate::study::Verdict::NotTestable, "{id}");
        }
    }
}
