//! PaRSA's design-space exploration: the PaRSA workload timed here and carried to every
//! preset, node, clock, thread count and power gating; Table 8's choices (which the model
//! cannot move), the best configuration of section 5.3 (which the measured workload can), and
//! the clock axis of Figs. 7–10 (modelled, never measured here).
use super::{free_cores, free_cores_sample, int, num, probe_threads, text};
use crate::bench::stats::median;
use crate::claims::parsa::{SMT_FACTOR, TABLE8_CHOICES};
use crate::dse::{self, Evaluation, workload};
use crate::energy::presets::preset;
use crate::error::Result;
use crate::study::estimate::sampled_s;
use crate::study::sampling::{self, Rounds};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Profile,
    Provenance, Series, Table, fed, settled,
};

/// The design-space experiment of PaRSA.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Dse)]
}

struct Dse;

fn model(by: &str) -> Provenance {
    Provenance::Modelled(by.into())
}

impl Experiment for Dse {
    fn id(&self) -> &'static str {
        "parsa-dse"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        sampled_s(profile, 2.1, 81.0)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let threads = ctx.machine.logical_cores.clamp(1, 2);
        let quick = ctx.profile == Profile::Quick;
        let presets: Vec<String> = dse::DEFAULT_PRESETS.iter().map(|s| s.to_string()).collect();
        // Each round times the workload again and explores with it, so the best-configuration
        // ratio gets an interval from the workload's own noise.
        let mut works = Vec::new();
        let rounds = sampling::measure(
            &ctx.plan,
            |_| {
                let work = workload::measure("parsa", threads, quick)?;
                let mut v = best_by_ht(&work, &presets)?;
                works.push(work);
                v.push(free_cores_sample(probe_threads(ctx, threads)));
                Ok(v)
            },
            |r| settled(&[fed("parsa-s53-best", best_evidence(ctx, r, threads, None))]),
        )?;
        let work = median_workload(&works)?;
        let evals = dse::explore(&work, &presets, &[])?;
        let table = front_table(&evals);
        let quality = rounds.quality();
        let result = ExperimentResult::new(
            self.id(),
            self.paper_id(),
            "Design-space exploration",
            "Figs. 7–10 (clock axis), Section 5, Table 8",
            model("workload timed here; everything else modelled"),
            format!(
                "{} evaluated over the four presets × every node, clock, thread count ≤ hardware threads and power gating ({} \
                 configurations, {} on the Pareto front over time, energy and MTTF; the table lists the front). Measured here \
                 (medians of {} rounds, each timing the workload anew): {:.4} s on one thread, speedups {}; Amdahl serial \
                 fraction {:.3}; clock here {:.0} MHz ({}). Time ∝ 1/f is an assumption of the model, so the clock axis and \
                 Table 8's choices come out of it by construction. The best-configuration ratio's median interval is \
                 ±{:.1} % over the rounds.",
                work.unit,
                evals.len(),
                evals.iter().filter(|e| e.pareto).count(),
                rounds.len(),
                work.t1_s,
                work.speedups
                    .iter()
                    .map(|(t, s)| format!("{t}: {s:.2}"))
                    .collect::<Vec<_>>()
                    .join(", "),
                work.serial_fraction,
                work.here_mhz,
                work.here_mhz_source,
                quality.spread_pct
            ),
        )
        .with_table(table)
        .with_charts(charts(&work, &evals)?)
        .with_quality(quality);
        Ok(Output {
            result,
            evidence: crate::study::set_aside_checked(&rounds, |r| {
                evidence(ctx, &evals, r, threads)
            }),
        })
    }
}

/// The Pareto front: one row per configuration on it.
fn front_table(evals: &[Evaluation]) -> Table {
    let mut table = Table::new(&[
        "preset",
        "threads",
        "clock_mhz",
        "node_nm",
        "gating",
        "time_s",
        "power_w",
        "energy_j",
        "temp_c",
        "mttf_years",
    ]);
    for e in evals.iter().filter(|e| e.pareto) {
        table.push(vec![
            text(&e.preset),
            int(e.threads),
            num(e.mhz),
            int(e.node_nm),
            e.power_gating.into(),
            num(e.time_s),
            num(e.power_w),
            num(e.energy_j),
            num(e.temp_c),
            num(e.mttf_years),
        ]);
    }
    table
}

/// One round's best-configuration ratio under each hyperthreading assumption, by key.
fn best_by_ht(work: &workload::Workload, presets: &[String]) -> Result<Vec<(String, f64)>> {
    let mut v: Vec<(String, f64)> = Vec::new();
    for (key, ht) in ht_factors() {
        let w = workload::Workload {
            ht_factor: ht.unwrap_or(work.ht_factor),
            ..work.clone()
        };
        if let Some((t, e)) = best_ratios(&dse::explore(&w, presets, &[])?) {
            v.push((key.to_string(), t.max(e)));
        }
    }
    Ok(v)
}

/// A workload with the median one-thread time and the median speedup per thread count of
/// the rounds, its serial fraction refitted.
fn median_workload(works: &[workload::Workload]) -> Result<workload::Workload> {
    let mut w = works
        .first()
        .cloned()
        .ok_or_else(|| crate::Error::InvalidParameter("no workload measured".into()))?;
    w.t1_s = median(works.iter().map(|x| x.t1_s).collect());
    for (i, (_, s)) in w.speedups.iter_mut().enumerate() {
        *s = median(
            works
                .iter()
                .filter_map(|x| x.speedups.get(i).map(|p| p.1))
                .collect(),
        );
    }
    if let Some(&(n, s)) = w.speedups.last().filter(|p| p.0 > 1) {
        w.serial_fraction = workload::amdahl_fraction(s, n);
    }
    Ok(w)
}

fn evidence(ctx: &Context, evals: &[Evaluation], rounds: &Rounds, threads: usize) -> Vec<Fed> {
    let t8 = dse::table8(evals);
    let mut v: Vec<Fed> = TABLE8_CHOICES
        .iter()
        .map(|(name, _, _)| {
            let shown = t8
                .iter()
                .find(|(n, _, _)| n == name)
                .map_or("-".into(), |(_, en, pw)| {
                    format!(
                        "energy-optimal {} nm {} MHz; power-optimal {} nm {} MHz",
                        en.node_nm, en.mhz, pw.node_nm, pw.mhz
                    )
                });
            fed(
                &format!("parsa-table8-choice-{name}"),
                Evidence::report("design-space exploration (time ∝ 1/f, Tables 4–7 power)")
                    .text(shown),
            )
        })
        .collect();
    v.push(fed(
        "parsa-s53-best",
        best_evidence(ctx, rounds, threads, Some(evals)),
    ));
    v.push(fed(
        "parsa-clock-doubling",
        Evidence::report("the design-space model assumes time ∝ 1/f")
            .text("50 % by construction of the model (time ∝ 1/f); not measured"),
    ));
    v
}

/// The SMT factors the best-configuration claim is judged over, with their rounds' keys: the
/// model's own (from the paper's Core i3 figures) and the ends of the range the claim
/// declares for it ([`SMT_FACTOR`]: what a second hardware thread adds on compute-bound code,
/// 0.2 of a core, up to a whole core).
fn ht_factors() -> [(&'static str, Option<f64>); 3] {
    let (lo, hi) =
        crate::claims::assumption_range("parsa-s53-best", SMT_FACTOR).unwrap_or((0.2, 1.0));
    [
        ("best", None),
        ("best/smt-low", Some(lo)),
        ("best/smt-high", Some(hi)),
    ]
}

fn is_chosen(e: &Evaluation) -> bool {
    e.preset == "core-i7" && e.node_nm == 22 && e.mhz == 2400.0 && e.threads == 8
}

/// Time and energy of PaRSA-8 on a Core i7 at 22 nm and 2400 MHz (the better of gated and
/// not) over the least of every other configuration.
fn best_ratios(evals: &[Evaluation]) -> Option<(f64, f64)> {
    let least = |f: &dyn Fn(&Evaluation) -> f64, mine: bool| {
        evals
            .iter()
            .filter(|e| is_chosen(e) == mine)
            .map(f)
            .fold(f64::INFINITY, f64::min)
    };
    let time = least(&|e| e.time_s, true) / least(&|e| e.time_s, false);
    let energy = least(&|e| e.energy_j, true) / least(&|e| e.energy_j, false);
    (time.is_finite() && energy.is_finite()).then_some((time, energy))
}

/// The larger of the two ratios over the rounds, with the winners of the median workload's
/// exploration for people.
fn best_evidence(
    ctx: &Context,
    rounds: &Rounds,
    threads: usize,
    evals: Option<&[Evaluation]>,
) -> Evidence {
    let Some(ratio) = rounds.median("best") else {
        return Evidence::unavailable(
            "the exploration has no Core i7 22 nm 2400 MHz 8-thread configuration",
        );
    };
    let ends: Vec<Estimate> = ht_factors()[1..]
        .iter()
        .filter_map(|(k, _)| rounds.median(k))
        .collect();
    let range = Estimate::new(
        ratio.value,
        ends.iter().map(|e| e.low).fold(ratio.low, f64::min),
        ends.iter().map(|e| e.high).fold(ratio.high, f64::max),
    );
    let moved = ends
        .iter()
        .map(|e| format!("{:.3}", e.value))
        .collect::<Vec<_>>()
        .join(" and ");
    let ev = Evidence::modelled_range(
        vec![range],
        &format!(
            "design-space exploration, the workload timed anew in each of {} rounds; the range is the workload's noise carried through the model and the SMT factor from 0.2 to 1.0",
            rounds.len()
        ),
        &format!(
            "the SMT factor (the share of a core a second hardware thread adds, {} in the model) gives {moved} at 0.2 and 1.0 against {:.3}",
            workload::DEFAULT_HT_FACTOR, ratio.value
        ),
    )
    .on_threads(threads)
    .free_cores(free_cores(ctx, rounds, threads));
    let Some(evals) = evals else { return ev };
    let winner = |f: &dyn Fn(&Evaluation) -> f64| {
        evals
            .iter()
            .min_by(|a, b| f(a).total_cmp(&f(b)))
            .map_or("-".into(), |e| {
                format!(
                    "{} {} nm {} MHz {} threads{}",
                    e.preset,
                    e.node_nm,
                    e.mhz,
                    e.threads,
                    if e.power_gating { " gated" } else { "" }
                )
            })
    };
    let (t, e) = best_ratios(evals).unwrap_or((f64::NAN, f64::NAN));
    ev.text(format!("{} (median workload: time ×{t:.3}, energy ×{e:.3} of the best other configuration; fastest: {}; least energy: {})",
        range.text("×"), winner(&|e| e.time_s), winner(&|e| e.energy_j)))
}

fn charts(work: &workload::Workload, evals: &[Evaluation]) -> Result<Vec<Chart>> {
    let i7 = preset("core-i7", None)?;
    let clock = dse::thread_counts(&i7).into_iter().fold(
        Chart::line(
            "Figs. 7–10 — modelled PaRSA time against clock (Core i7)",
            "clock (MHz)",
            "time per unit (s)",
            false,
        ),
        |c, t| {
            let pts = i7
                .frequencies(22)
                .into_iter()
                .map(|f| (f, work.time(t, i7.cores, i7.threads_per_core, f)));
            c.with(Series::from_xy(
                format!("PaRSA-{t}"),
                pts,
                model("time measured here, ∝ 1/f, Amdahl + SMT"),
            ))
        },
    );
    Ok(vec![clock, time_energy(evals), energy_mttf(evals)])
}

/// The points no other beats on both axes (x always smaller is better; y smaller, or larger
/// when `more_y_is_better`), sorted by x: a Pareto front in two dimensions, ready to be drawn
/// as a staircase. Non-finite points are left out.
fn front_2d(
    points: impl IntoIterator<Item = (f64, f64)>,
    more_y_is_better: bool,
) -> Vec<(f64, f64)> {
    let better = |a: f64, b: f64| if more_y_is_better { a > b } else { a < b };
    let mut v: Vec<(f64, f64)> = points
        .into_iter()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
        .collect();
    // By x, and among equal x the best y first, so that it alone is kept.
    v.sort_by(|a, b| {
        a.0.total_cmp(&b.0).then(if more_y_is_better {
            b.1.total_cmp(&a.1)
        } else {
            a.1.total_cmp(&b.1)
        })
    });
    let mut out: Vec<(f64, f64)> = Vec::new();
    for p in v {
        if out.last().is_none_or(|q| better(p.1, q.1)) {
            out.push(p);
        }
    }
    out
}

/// Adds every configuration of `evals` over `xy` to `chart` as markers, the 2-D front as one
/// series, and each preset's own front beside it where that preset has a point off the overall front (the other
/// configurations worth seeing: each preset's best trade-offs). Returns the overall front.
fn with_fronts(
    chart: Chart,
    evals: &[Evaluation],
    xy: fn(&Evaluation) -> (f64, f64),
    more_y_is_better: bool,
    name: &str,
) -> (Chart, Vec<(f64, f64)>) {
    let front = front_2d(evals.iter().map(xy), more_y_is_better);
    // Every configuration behind the front, once per distinct point, as markers alone.
    let mut cloud: Vec<(f64, f64)> = Vec::new();
    for p in evals.iter().map(xy) {
        if p.0.is_finite() && p.1.is_finite() && !front.contains(&p) && !cloud.contains(&p) {
            cloud.push(p);
        }
    }
    let mut chart = chart
        .steps()
        .with(Series::from_xy("every other configuration", cloud, model("DSE")).points_only())
        .with(Series::from_xy(name, front.iter().copied(), model("DSE")));
    for p in dse::DEFAULT_PRESETS {
        let own = front_2d(
            evals.iter().filter(|e| e.preset == p).map(xy),
            more_y_is_better,
        );
        if own.iter().any(|q| !front.contains(q)) {
            chart = chart.with(Series::from_xy(
                format!("{p} (its own front)"),
                own,
                model("DSE"),
            ));
        }
    }
    (chart, front)
}

/// The configuration at `at` of a projection, for people.
fn named(evals: &[Evaluation], xy: fn(&Evaluation) -> (f64, f64), at: (f64, f64)) -> String {
    evals.iter().find(|e| xy(e) == at).map_or("-".into(), |e| {
        format!(
            "{} {} nm {} MHz {} threads{}",
            e.preset,
            e.node_nm,
            e.mhz,
            e.threads,
            if e.power_gating { " gated" } else { "" }
        )
    })
}

/// The time–energy projection of the exploration: its 2-D front as a staircase.
fn time_energy(evals: &[Evaluation]) -> Chart {
    let xy: fn(&Evaluation) -> (f64, f64) = |e| (e.time_s, e.energy_j);
    let (chart, front) = with_fronts(
        Chart::line(
            "Pareto front: energy against time (all presets)",
            "time per unit (s)",
            "energy per unit (J)",
            true,
        )
        .log_y(),
        evals,
        xy,
        false,
        "Pareto front (time, energy)",
    );
    let what = match front.as_slice() {
        [one] => format!(
            "one configuration ({}) is both the fastest and the least energy, since the model's energy falls \
             with the clock (time ∝ 1/f), so the front is that point",
            named(evals, xy, *one)
        ),
        _ => format!("{} configurations no other beats on both", front.len()),
    };
    chart.note(format!(
        "Of {} configurations (four presets, every node, clock, thread count and gating) {what}; each \
         step holds a point's energy until the next improves on it.",
        evals.len()
    ))
}

/// The energy–MTTF projection of the exploration: its 2-D front (less energy, longer MTTF)
/// as a staircase.
fn energy_mttf(evals: &[Evaluation]) -> Chart {
    let (chart, front) = with_fronts(
        Chart::line(
            "Pareto front: MTTF against energy (all presets)",
            "energy per unit (J)",
            "combined MTTF (years, normalised)",
            true,
        ),
        evals,
        |e| (e.energy_j, e.mttf_years),
        true,
        "Pareto front (energy, MTTF)",
    );
    chart.note(format!(
        "{} of {} configurations no other beats on both energy and MTTF. MTTF is normalised: at each preset's \
         reference (85 °C junction, 45 °C ambient, nominal voltage, highest clock) all four mechanisms together \
         last {} years, so only ratios mean anything.",
        front.len(),
        evals.len(),
        // Failure rates add: four mechanisms of equal MTTF last a quarter of it together.
        crate::reliability::ramp::PER_MECHANISM_YEARS / 4.0
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::ChartKind;

    fn work() -> workload::Workload {
        workload::Workload {
            name: "parsa".into(),
            unit: "test".into(),
            t1_s: 1.0,
            speedups: vec![(1, 1.0), (2, 1.9)],
            serial_fraction: 0.05,
            ht_factor: workload::DEFAULT_HT_FACTOR,
            here_mhz: 2400.0,
            here_mhz_source: "test".into(),
        }
    }

    #[test]
    fn a_2d_front_keeps_only_undominated_points_sorted_by_x() {
        let pts = [
            (3.0, 1.0),
            (1.0, 5.0),
            (2.0, 2.0),
            (2.5, 4.0),
            (1.0, 6.0),
            (f64::NAN, 0.0),
        ];
        assert_eq!(
            front_2d(pts, false),
            vec![(1.0, 5.0), (2.0, 2.0), (3.0, 1.0)]
        );
        assert_eq!(front_2d(pts, true), vec![(1.0, 6.0)]);
        assert_eq!(
            front_2d([(1.0, 1.0), (2.0, 3.0), (1.5, 0.5), (4.0, 2.0)], true),
            vec![(1.0, 1.0), (2.0, 3.0)]
        );
    }

    #[test]
    fn the_exploration_gives_both_projections_as_staircases_that_render() {
        let presets: Vec<String> = dse::DEFAULT_PRESETS.iter().map(|s| s.to_string()).collect();
        let evals = dse::explore(&work(), &presets, &[]).unwrap();
        let charts = charts(&work(), &evals).unwrap();
        assert_eq!(charts.len(), 3);
        for (chart, of) in charts[1..].iter().zip([
            (|e: &Evaluation| (e.time_s, e.energy_j, e.energy_j))
                as fn(&Evaluation) -> (f64, f64, f64),
            |e: &Evaluation| (e.energy_j, -e.mttf_years, e.mttf_years),
        ]) {
            assert!(chart.steps && chart.kind == ChartKind::Line && !chart.note.is_empty());
            // The configurations behind the front are markers alone; the front is a line.
            assert!(chart.series[0].points_only && !chart.series[1].points_only);
            let front = &chart.series[1].points;
            eprintln!(
                "{}: {} series; {}",
                chart.title,
                chart.series.len(),
                chart.note
            );
            assert!(!front.is_empty(), "{}", chart.title);
            assert!(front.windows(2).all(|w| w[0].x < w[1].x));
            // Nothing explored beats a point of the front on both axes.
            for p in front {
                let y = if chart.title.contains("MTTF") {
                    -p.y
                } else {
                    p.y
                };
                assert!(!evals.iter().any(|e| {
                    let (x, ey, _) = of(e);
                    x <= p.x && ey <= y && (x < p.x || ey < y)
                }));
            }
            let svg = crate::report::plot::render(chart).unwrap();
            assert!(
                svg.contains("Pareto front")
                    && svg.contains("normalised") == chart.title.contains("MTTF")
            );
        }
    }
}
