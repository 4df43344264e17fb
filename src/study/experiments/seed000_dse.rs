//! Seed 000's design-space exploration: the PaRSA workload timed here and carried to every
//! preset, node, clock, thread count and power gating; Table 8's choices (which the model
//! cannot move), the best configuration of section 5.3 (which the measured workload can), and
//! the clock axis of Figs. 7–10 (modelled, never measured here).
use super::{energy_err, free_cores, free_cores_sample, num, probe_threads, text};
use crate::dse::{self, Evaluation, workload};
use crate::energy::presets::preset;
use crate::error::Result;
use crate::study::claims::seed000::TABLE8_CHOICES;
use crate::study::sampling::{self, Rounds, median};
use crate::study::{
    Chart, Context, Evidence, Experiment, ExperimentResult, Fed, Output, Profile, Provenance,
    Series, Table, fed, settled,
};

/// The design-space experiment of seed 000.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Dse)]
}

struct Dse;

fn model(by: &str) -> Provenance {
    Provenance::Modelled(by.into())
}

impl Experiment for Dse {
    fn id(&self) -> &'static str {
        "seed000-dse"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        match profile {
            Profile::Quick => 4.0,
            Profile::Full => 120.0,
        }
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
                let evals = dse::explore(&work, &presets, &[])?;
                works.push(work);
                let mut v: Vec<(String, f64)> = best_ratios(&evals)
                    .map(|(t, e)| vec![("best".to_string(), t.max(e))])
                    .unwrap_or_default();
                v.push(free_cores_sample(probe_threads(ctx, threads)));
                Ok(v)
            },
            |r| {
                settled(&[fed(
                    "seed000-s53-best",
                    best_evidence(ctx, r, threads, None),
                )])
            },
        )?;
        let work = median_workload(&works)?;
        let evals = dse::explore(&work, &presets, &[])?;
        let mut table = Table::new(&[
            "preset",
            "threads",
            "mhz",
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
                num(e.threads as f64),
                num(e.mhz),
                num(f64::from(e.node_nm)),
                serde_json::json!(e.power_gating),
                num(e.time_s),
                num(e.power_w),
                num(e.energy_j),
                num(e.temp_c),
                num(e.mttf_years),
            ]);
        }
        let quality = rounds.quality();
        let result = ExperimentResult {
            id: self.id().into(),
            seed: self.seed().into(),
            title: "Design-space exploration".into(),
            answers: "Figs. 7–10 (clock axis), Section 5, Table 8".into(),
            provenance: model("workload timed here; everything else modelled"),
            summary: format!(
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
            table,
            charts: charts(&work, &evals)?,
            quality: Some(quality),
            elapsed_s: 0.0,
        };
        Ok(Output {
            result,
            evidence: evidence(ctx, &evals, &rounds, threads),
        })
    }
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
        .map(|(name, _)| {
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
                &format!("seed000-table8-choice-{name}"),
                Evidence::report("design-space exploration (time ∝ 1/f, Tables 4–7 power)")
                    .text(shown),
            )
        })
        .collect();
    v.push(fed(
        "seed000-s53-best",
        best_evidence(ctx, rounds, threads, Some(evals)),
    ));
    v.push(fed(
        "seed000-clock-doubling",
        Evidence::report("the design-space model assumes time ∝ 1/f")
            .text("50 % by construction of the model (time ∝ 1/f); not measured"),
    ));
    v
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
    let ev = Evidence::modelled(
        vec![ratio],
        &format!(
            "design-space exploration, the workload timed anew in each of {} rounds; the interval is the workload's noise carried through the model",
            rounds.len()
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
        ratio.text("×"), winner(&|e| e.time_s), winner(&|e| e.energy_j)))
}

fn charts(work: &workload::Workload, evals: &[Evaluation]) -> Result<Vec<Chart>> {
    let i7 = preset("core-i7", None).map_err(energy_err)?;
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
    let front = dse::DEFAULT_PRESETS.iter().fold(
        Chart::line(
            "Pareto front: energy against time",
            "time per unit (s)",
            "energy per unit (J)",
            true,
        ),
        |c, p| {
            let mut v: Vec<(f64, f64)> = evals
                .iter()
                .filter(|e| e.pareto && e.preset == *p)
                .map(|e| (e.time_s, e.energy_j))
                .collect();
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            c.with(Series::from_xy(*p, v, model("DSE")))
        },
    );
    Ok(vec![clock, front])
}
