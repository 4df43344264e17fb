//! PaRSA, the text's own arithmetic and statements outside its tables (sections 1, 4.1
//! and 5.1): Amdahl's example, the clock's time reductions against time ∝ 1/f, and threads
//! against clock; with the statements no machine here can test, and why.
use super::parsa_tables::corners;
use super::{num, opt, text};
use crate::claims::parsa::{
    AMDAHL_EXAMPLE_PCT, CLOCK_DOUBLING_PCT, CLOCK_TIME_REDUCTIONS, PARSA2_REDUCTION_PCT,
    PARSA4_REDUCTION_PCT, PARSA8_REDUCTION_PCT,
};
use crate::error::Result;
use crate::study::estimate::reference_s;
use crate::study::{
    Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Profile, Provenance,
    Table, fed,
};

/// The text experiment of PaRSA.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Text)]
}

/// The Core i3's clock gain the text prints beside its thread gains (Fig. 8: 1600 → 3300 MHz).
const I3_CLOCK_PCT: f64 = 52.0;

struct Text;

impl Experiment for Text {
    fn id(&self) -> &'static str {
        "parsa-text"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        reference_s(profile, 0.1, 0.1)
    }
    fn run(&self, _ctx: &Context) -> Result<Output> {
        let ours = amdahl_example();
        let ideal = clock_ideal();
        let orders = gain_orders();
        let mut r = ExperimentResult::new(
            self.id(),
            "parsa",
            "The text's own arithmetic",
            "Sections 1, 4.1, 5.1",
            Provenance::Paper,
            "Figures of the text recomputed from the text: Amdahl's example (Eq. 3), each time reduction the paper \
             prints for a clock change against the 1 − f_low/f_high that time ∝ 1/f gives, and the order of its thread \
             and clock gains. The statements no machine here can test say which machine would.",
        );
        r.table = table(&ours, &ideal, &orders);
        let evidence = evidence(&ours, &ideal, &orders);
        Ok(Output {
            result: r,
            evidence,
        })
    }
}

/// Amdahl's example (Eq. 3): the time left, in % of the serial time, for 30 % parallel on 2
/// and 4 cores and 60 % parallel on 2.
fn amdahl_example() -> [f64; 3] {
    // Amdahl (Eq. 3): the time left is f + (1 − f)/n of the serial time.
    let amdahl = |serial: f64, n: f64| (serial + (1.0 - serial) / n) * 100.0;
    [amdahl(0.7, 2.0), amdahl(0.7, 4.0), amdahl(0.4, 2.0)]
}

/// Time ∝ 1/f: the % less time each printed clock change gives, with the interval the
/// printed clocks' rounding allows.
fn clock_ideal() -> Vec<Estimate> {
    // Time ∝ 1/f: a clock from f_low to f_high cuts the time by 1 − f_low/f_high.
    CLOCK_TIME_REDUCTIONS
        .iter()
        .map(|&(_, _, lo, hi, _)| corners(&[(lo, 0.0), (hi, 0.0)], |x| (1.0 - x[0] / x[1]) * 100.0))
        .collect()
}

/// The order of the thread and clock gains: the differences of the printed reductions.
fn gain_orders() -> [(&'static str, f64); 3] {
    [
        (
            "Core2Duo: clock − threads",
            CLOCK_DOUBLING_PCT - PARSA2_REDUCTION_PCT,
        ),
        (
            "Core i3: threads − clock",
            PARSA4_REDUCTION_PCT - I3_CLOCK_PCT,
        ),
        (
            "Core i7: threads − clock",
            PARSA8_REDUCTION_PCT - CLOCK_DOUBLING_PCT,
        ),
    ]
}

/// The three recomputations beside the paper's figures.
fn table(ours: &[f64; 3], ideal: &[Estimate], orders: &[(&'static str, f64); 3]) -> Table {
    let mut table = Table::new(&["claim", "quantity", "paper", "ours", "unit"]);
    for ((what, p), o) in [
        "30 % parallel, 2 cores",
        "30 % parallel, 4 cores",
        "60 % parallel, 2 cores",
    ]
    .iter()
    .zip(AMDAHL_EXAMPLE_PCT)
    .zip(*ours)
    {
        table.push(vec![
            text("parsa-s41-amdahl-example"),
            text(*what),
            num(p),
            num(o),
            text("% of serial time"),
        ]);
    }
    for (r, e) in CLOCK_TIME_REDUCTIONS.iter().zip(ideal) {
        table.push(vec![
            text("parsa-s51-time-inverse-clock"),
            text(format!("{} {}→{} MHz ({})", r.0, r.2, r.3, r.1)),
            num(r.4),
            num(e.value),
            text("% less time"),
        ]);
    }
    for &(what, d) in orders {
        table.push(vec![
            text("parsa-s51-threads-vs-clock"),
            text(what),
            num(d),
            opt(None),
            text("points"),
        ]);
    }
    table
}

/// The evidence of each claim the text's arithmetic decides, and of those reported only.
fn evidence(ours: &[f64; 3], ideal: &[Estimate], orders: &[(&'static str, f64); 3]) -> Vec<Fed> {
    let mut evidence = vec![
        fed(
            "parsa-s41-amdahl-example",
            Evidence::arithmetic(
                ours.iter().map(|o| Estimate::exact(*o)).collect(),
                "Eq. 3, f + (1 − f)/n",
            )
            .text(format!(
                "{:.1} %, {:.1} %, {:.1} % of the serial time",
                ours[0], ours[1], ours[2]
            )),
        ),
        fed(
            "parsa-s51-time-inverse-clock",
            Evidence::arithmetic(
                ideal.to_vec(),
                "1 − f_low / f_high for each printed clock change",
            )
            .text(
                CLOCK_TIME_REDUCTIONS
                    .iter()
                    .zip(ideal)
                    .map(|(r, e)| {
                        format!(
                            "{} {}→{}: {} printed, {:.2} % ideal",
                            r.0, r.2, r.3, r.4, e.value
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
        ),
        fed(
            "parsa-s51-threads-vs-clock",
            Evidence::arithmetic(
                orders.iter().map(|o| Estimate::exact(o.1)).collect(),
                "differences of the printed reductions",
            )
            .text(
                orders
                    .iter()
                    .map(|(w, d)| format!("{w} = {d:+} points"))
                    .collect::<Vec<_>>()
                    .join("; "),
            ),
        ),
    ];
    evidence.extend(super::reported(&[
        ("parsa-intro-parallel-energy", "no power meter here"),
        (
            "parsa-s41-independent",
            "the batch tests check every schedule against SeRSA",
        ),
        ("parsa-fig9-i5-beats-i3", "no 4-core SMT machine here"),
    ]));
    evidence
}
