//! Seed 000, modelled and the paper's arithmetic: power per node and clock (Tables 4–7) with
//! the first-principles model's error as the headline, and energy (Table 8, Figs. 11–14,
//! section 5.3, the abstract).
use super::{int, num, text};
use crate::claims::seed000::{CLOCK_PAIRS, FP_COMPONENTS, TABLE8};
use crate::energy::first_principles::{ErrorRow, error_table};
use crate::energy::power_model::{PowerQuery, estimate};
use crate::energy::presets::preset;
use crate::energy::seed000::{PowerRow, power_rows, row};
use crate::error::Result;
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Profile,
    Provenance, Series, Table, fed,
};

/// The modelled experiments of seed 000.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Power), Box::new(Energy)]
}

/// (power-table key, preset name).
pub const PROCESSORS: [(&str, &str); 4] = [
    ("core2duo", "core2duo"),
    ("core_i3", "core-i3"),
    ("core_i5", "core-i5"),
    ("core_i7", "core-i7"),
];

pub(super) fn model(by: &str) -> Provenance {
    Provenance::Modelled(by.into())
}

pub(super) fn result(
    id: &str,
    title: &str,
    answers: &str,
    provenance: Provenance,
    summary: String,
) -> ExperimentResult {
    ExperimentResult {
        id: id.into(),
        seed: "seed000".into(),
        title: title.into(),
        answers: answers.into(),
        provenance,
        summary,
        table: Table::default(),
        charts: vec![],
        quality: None,
        elapsed_s: 0.0,
    }
}

/// Total power of a table row, with the interval its 0.01 W rounding allows (dynamic and
/// leakage are each printed to 0.01 W).
fn rounded_total(r: &PowerRow) -> Estimate {
    let p = r.p_total_w();
    Estimate::new(p, p - 0.01, p + 0.01)
}

/// Tables 4–7 with the first-principles model's error per component.
struct Power;

impl Experiment for Power {
    fn id(&self) -> &'static str {
        "seed000-power"
    }
    fn estimate_s(&self, _p: Profile) -> f64 {
        1.0
    }
    fn run(&self, _ctx: &Context) -> Result<Output> {
        let errors = error_table();
        let mae = mean_abs_errors(&errors);
        let mut table = Table::new(&[
            "processor",
            "node_nm",
            "freq_mhz",
            "paper_total_w",
            "source",
            "fp_total_w",
            "dynamic_err_pct",
            "leakage_err_pct",
            "total_err_pct",
            "area_err_pct",
            "note",
        ]);
        for (r, e) in power_rows().iter().zip(&errors) {
            table.push(vec![
                text(&r.processor),
                int(r.node_nm),
                num(r.freq_mhz),
                num(r.p_total_w()),
                text(r.source()),
                num(e.model_dynamic_w + e.model_leak_w),
                num(e.dynamic_err_pct()),
                num(e.leak_err_pct()),
                num(e.total_err_pct()),
                num(e.area_err_pct()),
                text(&r.note),
            ]);
        }
        let headline = FP_COMPONENTS
            .iter()
            .zip(mae)
            .map(|(c, m)| format!("{c} {m:.1} %"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut r = result(
            self.id(),
            "Power per node and clock: the first-principles model against Tables 4–7",
            "Tables 4–7",
            model("first-principles αCV²f with node scaling, against the paper's tables"),
            format!(
                "Headline: a first-principles model (αCV²f anchored at each processor's 90 nm top-clock row, node scaling of C, \
                 V, area and leakage density) misses the paper's McPAT figures by {headline} on average over the 90 rows \
                 (the anchor rows are exact by construction). Rows labelled paper:seed000-table-N are the paper's own; the \
                 rows rebuilt from an illegible scan say so in their note. Nothing here is measured: McPAT figures cannot be \
                 measured on any machine."
            ),
        );
        r.table = table;
        r.charts = vec![power_chart(&errors), error_chart(&errors)];
        Ok(Output {
            result: r,
            evidence: power_evidence(mae, &headline)?,
        })
    }
}

/// Mean absolute error per component (dynamic, leakage, total, area), %.
fn mean_abs_errors(rows: &[ErrorRow]) -> [f64; 4] {
    let mean = |f: &dyn Fn(&ErrorRow) -> f64| {
        rows.iter().map(|r| f(r).abs()).sum::<f64>() / rows.len().max(1) as f64
    };
    [
        mean(&|r| r.dynamic_err_pct()),
        mean(&|r| r.leak_err_pct()),
        mean(&|r| r.total_err_pct()),
        mean(&|r| r.area_err_pct()),
    ]
}

fn power_chart(errors: &[ErrorRow]) -> Chart {
    let mut chart = Chart::line(
        "Tables 4–7 — total power against node at the top clock",
        "process node (nm)",
        "total power (W)",
        false,
    );
    for (key, name) in PROCESSORS {
        let rows: Vec<(&PowerRow, &ErrorRow)> = power_rows()
            .iter()
            .zip(errors)
            .filter(|(r, _)| r.processor == key)
            .collect();
        let top = rows.iter().map(|(r, _)| r.freq_mhz).fold(0.0, f64::max);
        let at_top: Vec<_> = rows.iter().filter(|(r, _)| r.freq_mhz == top).collect();
        chart = chart
            .with(Series::from_xy(
                format!("{name} (paper)"),
                at_top
                    .iter()
                    .map(|(r, _)| (f64::from(r.node_nm), r.p_total_w())),
                Provenance::Paper,
            ))
            .with(Series::from_xy(
                format!("{name} (αCV²f)"),
                at_top
                    .iter()
                    .map(|(r, e)| (f64::from(r.node_nm), e.model_dynamic_w + e.model_leak_w)),
                model("first-principles αCV²f"),
            ));
    }
    chart
}

fn error_chart(errors: &[ErrorRow]) -> Chart {
    let names: Vec<String> = PROCESSORS.iter().map(|p| p.1.to_string()).collect();
    let mut chart = Chart::bar(
        "First-principles model: mean absolute error against Tables 4–7",
        "processor",
        "error (%)",
        names,
    );
    for (i, comp) in FP_COMPONENTS.iter().enumerate() {
        let points = PROCESSORS.iter().enumerate().map(|(x, (key, _))| {
            let rows: Vec<ErrorRow> = errors
                .iter()
                .filter(|e| e.processor == *key)
                .cloned()
                .collect();
            (x as f64, mean_abs_errors(&rows)[i])
        });
        chart = chart.with(Series::from_xy(
            *comp,
            points,
            model("first-principles αCV²f"),
        ));
    }
    chart
}

fn power_evidence(mae: [f64; 4], headline: &str) -> Result<Vec<Fed>> {
    let presets = PROCESSORS
        .iter()
        .filter_map(|(_, n)| preset(n, None).ok())
        .map(|p| format!("{} {}×{}", p.name, p.cores, p.threads_per_core))
        .collect::<Vec<_>>()
        .join(", ");
    let mut lowest = Vec::new();
    let mut at_corner = 0.0;
    for (key, name) in PROCESSORS {
        let rows: Vec<&PowerRow> = power_rows().iter().filter(|r| r.processor == key).collect();
        let f_min = rows
            .iter()
            .map(|r| r.freq_mhz)
            .fold(f64::INFINITY, f64::min);
        if let Some(best) = rows
            .iter()
            .min_by(|a, b| a.p_total_w().total_cmp(&b.p_total_w()))
        {
            if best.node_nm == 22 && best.freq_mhz == f_min {
                at_corner += 1.0;
            }
            lowest.push(format!(
                "{name} {} nm {} MHz {:.2} W",
                best.node_nm,
                best.freq_mhz,
                best.p_total_w()
            ));
        }
    }
    let gated = row("core2duo", 22, 800.0)
        .ok_or_else(|| crate::Error::InvalidParameter("Table 4 lacks 22 nm 800 MHz".into()))?;
    let leak_gated = gated.p_leak_gate_w + gated.p_leak_subthreshold_pg_w;
    let leak_cut = (1.0 - leak_gated / gated.p_leak_total_w) * 100.0;
    let total_cut = (1.0 - (gated.p_dynamic_w + leak_gated) / gated.p_total_w()) * 100.0;
    Ok(vec![
        fed("seed000-table1-processors", Evidence::report("the presets encode Table 1 for the models").text(presets)),
        fed("seed000-tables4-7-first-principles", Evidence::modelled(mae.iter().map(|m| Estimate::exact(*m)).collect(),
            "mean absolute error over the 90 rows of Tables 4–7").text(headline)),
        fed("seed000-tables4-7-lowest-power", Evidence::arithmetic(vec![Estimate::exact(at_corner)], "least total power per processor in Tables 4–7")
            .text(lowest.join("; "))),
        fed("seed000-s52-power-gating", Evidence::arithmetic(vec![Estimate::exact(leak_cut), Estimate::exact(total_cut)],
            "Table 4, Core2Duo 22 nm 800 MHz, gate + gated subthreshold leakage against gate + subthreshold")
            .text(format!("−{leak_cut:.1} % leakage, −{total_cut:.1} % total"))),
    ])
}

/// Table 8 recomputed, section 5.3's percentages, the abstract's power and energy lines.
struct Energy;

impl Experiment for Energy {
    fn id(&self) -> &'static str {
        "seed000-energy"
    }
    fn estimate_s(&self, _p: Profile) -> f64 {
        1.0
    }
    fn run(&self, _ctx: &Context) -> Result<Output> {
        let mut table = Table::new(&[
            "workload",
            "processor",
            "node_nm",
            "freq_mhz",
            "paper_time_s",
            "table_power_w",
            "recomputed_j",
            "paper_j",
            "diff_j",
            "printed_in",
        ]);
        let mut evidence = Vec::new();
        let mut bars = (Vec::new(), Vec::new());
        for (i, t8) in TABLE8.iter().enumerate() {
            let r = row(t8.processor, t8.node_nm, t8.freq_mhz).ok_or_else(|| {
                crate::Error::InvalidParameter(format!("Tables 4–7 lack {}", t8.processor))
            })?;
            let e = rounded_total(r).map(|p| p * t8.time_s);
            table.push(vec![
                text(t8.workload),
                text(t8.processor),
                int(t8.node_nm),
                num(t8.freq_mhz),
                num(t8.time_s),
                num(r.p_total_w()),
                num(e.value),
                num(t8.energy_j),
                num(t8.energy_j - e.value),
                text(t8.printed_in),
            ]);
            bars.0.push((i as f64, t8.energy_j));
            bars.1.push((i as f64, e.value));
            let id = format!("seed000-table8-{}", t8.processor.replace('_', "-"));
            evidence.push(fed(
                &id,
                Evidence::arithmetic(
                    vec![e],
                    &format!(
                        "{} ({}) × {} s",
                        r.source(),
                        r.note_or("as printed"),
                        t8.time_s
                    ),
                )
                .text(format!(
                    "{:.2} W × {} s = {:.4} J",
                    r.p_total_w(),
                    t8.time_s,
                    e.value
                )),
            ));
        }
        evidence.extend(clock_evidence()?);
        let (series, saving) = energy_curves()?;
        evidence.push(fed(
            "seed000-abstract-energy",
            Evidence::modelled(
                vec![Estimate::exact(saving.0)],
                "Tables 4–7 power × Table 8's time scaled ∝ 1/f, 22 nm",
            )
            .text(format!("{:.1} % less on average ({})", saving.0, saving.1)),
        ));
        let names: Vec<String> = TABLE8
            .iter()
            .map(|t| format!("{} {}", t.workload, t.processor))
            .collect();
        let mut r = result(self.id(), "Energy: Table 8 recomputed and the clock trade-off", "Table 8, Figs. 11–14, Section 5.3",
            model("Tables 4–7 power × the paper's times"),
            "Table 8 recomputed as (the table's power) × (the paper's time), with the interval the tables' 0.01 W rounding \
             allows; the Core i7 row of Table 7 was itself rebuilt from Table 8 and so proves nothing. Energy against clock at \
             22 nm scales each processor's Table 8 time ∝ 1/f, a model: this machine's clock cannot be set."
                .into());
        r.table = table;
        r.charts = vec![
            Chart::bar(
                "Table 8 — printed energy against the tables' power × the paper's time",
                "configuration",
                "energy (J)",
                names,
            )
            .with(Series::from_xy(
                "paper (printed)",
                bars.0,
                Provenance::Paper,
            ))
            .with(Series::from_xy(
                "power × time (Tables 4–7)",
                bars.1,
                Provenance::Paper,
            )),
            series.into_iter().fold(
                Chart::line(
                    "Figs. 11–14 — energy against clock at 22 nm (PaRSA-n, n = hardware threads)",
                    "clock (MHz)",
                    "energy (J)",
                    false,
                ),
                Chart::with,
            ),
        ];
        Ok(Output {
            result: r,
            evidence,
        })
    }
}

/// Section 5.3's power increases and the abstract's power saving, from the tables.
fn clock_evidence() -> Result<Vec<Fed>> {
    let total = |key: &str, mhz: f64| {
        row(key, 22, mhz)
            .map(rounded_total)
            .ok_or_else(|| crate::Error::InvalidParameter(format!("Tables 4–7 lack {key} {mhz}")))
    };
    let mut v = Vec::new();
    for p in CLOCK_PAIRS.iter().filter(|p| p.time_pct.is_some()) {
        let (lo, hi) = (
            total(p.processor, p.low_mhz)?,
            total(p.processor, p.high_mhz)?,
        );
        let up = Estimate::new(
            hi.value / lo.value - 1.0,
            hi.low / lo.high - 1.0,
            hi.high / lo.low - 1.0,
        )
        .map(|x| x * 100.0);
        v.push(fed(
            &format!("seed000-s53-{}-power", p.preset),
            Evidence::arithmetic(
                vec![up],
                &format!(
                    "Tables 4–7 at 22 nm, {} against {} MHz",
                    p.high_mhz, p.low_mhz
                ),
            ),
        ));
    }
    let i7 = &CLOCK_PAIRS[3];
    let (lo, hi) = (
        total(i7.processor, i7.low_mhz)?,
        total(i7.processor, i7.high_mhz)?,
    );
    let saving = Estimate::new(
        1.0 - lo.value / hi.value,
        1.0 - lo.high / hi.low,
        1.0 - lo.low / hi.high,
    )
    .map(|x| x * 100.0);
    v.push(fed(
        "seed000-abstract-power",
        Evidence::arithmetic(
            vec![saving],
            "Table 7, Core i7 at 22 nm, 1200 against 2400 MHz",
        )
        .text(format!(
            "{} less power at 1200 MHz; {:.1} % more at 2400 MHz (the 19.7 % read the other way)",
            saving.text("%"),
            (hi.value / lo.value - 1.0) * 100.0
        )),
    ));
    Ok(v)
}

/// Energy against clock at 22 nm per processor (power × Table 8 time ∝ 1/f), and the mean
/// saving of the highest clock against the lowest with its per-processor list.
fn energy_curves() -> Result<(Vec<Series>, (f64, String))> {
    let mut series = Vec::new();
    let mut savings = Vec::new();
    for (key, name) in PROCESSORS {
        let Some(t8) = TABLE8.iter().find(|c| c.processor == key) else {
            continue;
        };
        let p = preset(name, None)?;
        let mut pts = Vec::new();
        for mhz in p.frequencies(22) {
            let q = PowerQuery {
                node_nm: Some(22),
                mhz: Some(mhz),
                ..Default::default()
            };
            let w = estimate(&p, &q)?.p_total_w;
            pts.push((mhz, w * t8.time_s * t8.freq_mhz / mhz));
        }
        if let (Some(lo), Some(hi)) = (pts.first(), pts.last()) {
            savings.push((name, (1.0 - hi.1 / lo.1) * 100.0));
        }
        series.push(Series::from_xy(
            format!("{name}, 22 nm"),
            pts,
            model("Tables 4–7 power × paper's time ∝ 1/f"),
        ));
    }
    let mean = savings.iter().map(|s| s.1).sum::<f64>() / savings.len().max(1) as f64;
    let list = savings
        .iter()
        .map(|(n, s)| format!("{n} {s:.1} %"))
        .collect::<Vec<_>>()
        .join(", ");
    Ok((series, (mean, list)))
}
