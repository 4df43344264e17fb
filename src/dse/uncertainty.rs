//! The design-space exploration with its uncertainty. The workload is timed in paired rounds
//! ([`WorkloadRounds`]); resampling whole rounds (a percentile bootstrap, as the study does)
//! gives the fitted serial fraction an interval, and every recommendation — the best
//! configuration per objective — an interval of its figure. Which configuration is best
//! depends on the workload only through the serial fraction `s` (the one-thread time scales
//! every configuration alike), so a recommendation is *decided* when the same configuration
//! is best over the whole 95 % interval of `s`, and *not decided* otherwise, with the
//! configurations that win somewhere inside it. A free-core probe beside every round says
//! whether the machine was busy, which can only lower the measured speedup and raise `s`.
use super::workload::{Workload, WorkloadRounds};
use super::{Evaluation, Objective, best, explore};
use crate::bench::capacity::FREE_CORES_NEEDED;
use crate::bench::stats::{BOOTSTRAP_RESAMPLES, bootstrap_resamples, percentile_interval};
use crate::energy::presets::preset;
use crate::error::Result;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A figure with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    /// The point estimate (from every round).
    pub value: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Interval {
    /// `value` with the 2.5th and 97.5th percentiles of its bootstrap `replicates` (the
    /// interval widened to hold `value`); `[value, value]` when the replicates give none.
    fn of(value: f64, replicates: Vec<f64>) -> Self {
        let (low, high) =
            percentile_interval(replicates, BOOTSTRAP_RESAMPLES / 2).unwrap_or((value, value));
        Self {
            value,
            low: low.min(value),
            high: high.max(value),
        }
    }

    /// Whether `x` lies in the interval.
    pub fn contains(&self, x: f64) -> bool {
        (self.low..=self.high).contains(&x)
    }
}

/// Whether the cores were free while the workload was timed (the study's three answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cores {
    /// The whole interval of the probe is at or above [`FREE_CORES_NEEDED`].
    Free,
    /// The interval straddles it.
    Unclear,
    /// The whole interval is below it: other work took the cores.
    Busy,
    /// One thread only: nothing to probe.
    NotProbed,
}

/// The workload's fit with its uncertainty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    /// Paired rounds behind every interval.
    pub rounds: usize,
    /// Seconds of one unit on one thread.
    pub t1_s: Interval,
    /// Speedup on the largest thread count.
    pub speedup: Interval,
    /// The largest thread count.
    pub threads: usize,
    /// Amdahl serial fraction fitted to the largest thread count.
    pub serial_fraction: Interval,
    /// The free-core probe: the median fraction of the ideal throughput over the rounds.
    pub free_cores: Option<Interval>,
    /// What the probe says.
    pub cores: Cores,
}

/// One configuration that is best for an objective somewhere in the serial fraction's
/// interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Winner {
    /// The configuration, for people: "core-i7 22 nm 2400 MHz 8 threads".
    pub config: String,
    /// The least and greatest serial fraction (within the interval) at which it wins.
    pub s_low: f64,
    /// See `s_low`.
    pub s_high: f64,
    /// Share of the bootstrap replicates (within the interval) in which it wins.
    pub share: f64,
}

/// The best configuration for one objective, with its interval.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recommendation {
    /// The objective.
    pub objective: Objective,
    /// The best configuration with the workload fitted to every round.
    pub best: Evaluation,
    /// The best figure of the objective (seconds, W, J, normalised MTTF years, J·s) with its
    /// interval over the bootstrap replicates.
    pub figure: Interval,
    /// Its unit.
    pub unit: String,
    /// The same configuration is best over the whole interval of the serial fraction.
    pub decided: bool,
    /// Every configuration best somewhere in that interval (`best`'s first).
    pub winners: Vec<Winner>,
}

/// An exploration with the workload's rounds behind it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explored {
    /// The workload fitted to every round.
    pub workload: Workload,
    /// The fit's intervals.
    pub fit: Fit,
    /// Every configuration, evaluated with the workload fitted to every round.
    pub evaluations: Vec<Evaluation>,
    /// The best configuration per objective, in [`Objective::ALL`]'s order.
    pub recommendations: Vec<Recommendation>,
}

/// A configuration's name for people.
pub fn config_name(e: &Evaluation) -> String {
    format!(
        "{} {} nm {} MHz {} thread{}{}",
        e.preset,
        e.node_nm,
        e.mhz,
        e.threads,
        if e.threads == 1 { "" } else { "s" },
        if e.power_gating { " gated" } else { "" }
    )
}

/// The unit of an objective's figure.
fn unit(o: Objective) -> &'static str {
    match o {
        Objective::Time => "s",
        Objective::Power => "W",
        Objective::Energy => "J",
        Objective::Mttf => "normalised years",
        Objective::Edp => "J·s",
    }
}

/// The figure of `o` for `e` (MTTF as years, not negated).
fn figure(o: Objective, e: &Evaluation) -> f64 {
    match o {
        Objective::Time => e.time_s,
        Objective::Power => e.power_w,
        Objective::Energy => e.energy_j,
        Objective::Mttf => e.mttf_years,
        Objective::Edp => e.edp,
    }
}

/// The evaluations again with `work` instead of the workload they were made with: only the
/// time and what follows from it change (power, temperature and MTTF do not depend on it).
fn retimed(
    evals: &[Evaluation],
    work: &Workload,
    shapes: &HashMap<String, (usize, usize)>,
) -> Vec<Evaluation> {
    evals
        .iter()
        .map(|e| {
            let (cores, tpc) = shapes.get(&e.preset).copied().unwrap_or((1, 1));
            let time_s = work.time(e.threads, cores, tpc, e.mhz);
            let energy_j = e.power_w * time_s;
            Evaluation {
                time_s,
                energy_j,
                edp: energy_j * time_s,
                ..e.clone()
            }
        })
        .collect()
}

/// Explores `presets` at `nodes` with the workload of `rounds`, and gives the fit and every
/// recommendation their intervals.
pub fn explore_rounds(
    rounds: &WorkloadRounds,
    presets: &[String],
    nodes: &[u32],
) -> Result<Explored> {
    let n = rounds.seconds.len();
    let work = rounds.fit_all();
    let evaluations = explore(&work, presets, nodes)?;
    let shapes = shapes(presets)?;
    let seed = 0x5EED_D5E0 + n as u64;
    let replicates: Vec<Workload> = bootstrap_resamples(n, BOOTSTRAP_RESAMPLES, seed)
        .map(|idx| rounds.fit(&idx))
        .collect();
    let fit = fit(rounds, &work, &replicates, seed);
    let retime = |w: &Workload| retimed(&evaluations, w, &shapes);
    let replicate_evals: Vec<Vec<Evaluation>> = replicates.iter().map(retime).collect();
    let inside_evals: Vec<(f64, Vec<Evaluation>)> = inside(&replicates, &work, fit.serial_fraction)
        .iter()
        .map(|w| (w.serial_fraction, retime(w)))
        .collect();
    let recommendations = Objective::ALL
        .into_iter()
        .filter_map(|o| recommend(o, &evaluations, &replicate_evals, &inside_evals))
        .collect();
    Ok(Explored {
        workload: work,
        fit,
        evaluations,
        recommendations,
    })
}

/// Each preset's (cores, threads per core), by its name.
fn shapes(presets: &[String]) -> Result<HashMap<String, (usize, usize)>> {
    let mut shapes = HashMap::new();
    for name in presets {
        let p = preset(name, None)?;
        shapes.insert(p.name.clone(), (p.cores, p.threads_per_core));
    }
    Ok(shapes)
}

/// The fit of `work` to every round with its intervals over the bootstrap `replicates`, and
/// the free-core probe's median with its interval (resampled from `seed` + 1).
fn fit(rounds: &WorkloadRounds, work: &Workload, replicates: &[Workload], seed: u64) -> Fit {
    let n = rounds.seconds.len();
    let most = work.speedups.last().map_or(1, |p| p.0);
    let speedup_of = |w: &Workload| w.speedups.last().map_or(f64::NAN, |p| p.1);
    let free_cores = (most > 1).then(|| {
        let median = |idx: &[usize]| {
            let mut v: Vec<f64> = idx.iter().map(|&r| rounds.free_cores[r]).collect();
            v.sort_by(f64::total_cmp);
            crate::bench::stats::median_of_sorted(&v)
        };
        let all: Vec<usize> = (0..n).collect();
        Interval::of(
            median(&all),
            bootstrap_resamples(n, BOOTSTRAP_RESAMPLES, seed + 1)
                .map(|idx| median(&idx))
                .collect(),
        )
    });
    let cores = match free_cores {
        None => Cores::NotProbed,
        Some(f) if f.low >= FREE_CORES_NEEDED => Cores::Free,
        Some(f) if f.high >= FREE_CORES_NEEDED => Cores::Unclear,
        Some(_) => Cores::Busy,
    };
    Fit {
        rounds: n,
        t1_s: Interval::of(work.t1_s, replicates.iter().map(|w| w.t1_s).collect()),
        speedup: Interval::of(
            speedup_of(work),
            replicates.iter().map(speedup_of).collect(),
        ),
        threads: most,
        serial_fraction: Interval::of(
            work.serial_fraction,
            replicates.iter().map(|w| w.serial_fraction).collect(),
        ),
        free_cores,
        cores,
    }
}

/// The replicates inside the serial fraction's interval `s`, and its two ends (with the
/// point's one-thread time): the workloads a recommendation must survive.
fn inside(replicates: &[Workload], work: &Workload, s: Interval) -> Vec<Workload> {
    let mut inside: Vec<Workload> = replicates
        .iter()
        .filter(|w| s.contains(w.serial_fraction))
        .cloned()
        .collect();
    for end in [s.low, s.high] {
        inside.push(Workload {
            serial_fraction: end,
            ..work.clone()
        });
    }
    inside
}

/// The best of `evaluations` for `o`, with its figure's interval over the replicates'
/// evaluations and the winners over the evaluations inside the serial fraction's interval
/// (`None` when nothing is evaluated).
fn recommend(
    o: Objective,
    evaluations: &[Evaluation],
    replicate_evals: &[Vec<Evaluation>],
    inside_evals: &[(f64, Vec<Evaluation>)],
) -> Option<Recommendation> {
    let chosen = best(evaluations, o, |_| true)?;
    let figures: Vec<f64> = replicate_evals
        .iter()
        .filter_map(|ev| best(ev, o, |_| true).map(|b| figure(o, b)))
        .collect();
    let chosen_name = config_name(chosen);
    let winners = winners(o, inside_evals, &chosen_name);
    Some(Recommendation {
        objective: o,
        best: chosen.clone(),
        figure: Interval::of(figure(o, chosen), figures),
        unit: unit(o).into(),
        decided: winners.iter().all(|w| w.config == chosen_name),
        winners,
    })
}

/// Every configuration best for `o` at some serial fraction of `inside_evals`, with the
/// fractions it wins at and its share; `chosen`'s first, then by share.
fn winners(o: Objective, inside_evals: &[(f64, Vec<Evaluation>)], chosen: &str) -> Vec<Winner> {
    let mut winners: Vec<Winner> = Vec::new();
    for (s, ev) in inside_evals {
        let Some(b) = best(ev, o, |_| true) else {
            continue;
        };
        let name = config_name(b);
        match winners.iter_mut().find(|w| w.config == name) {
            Some(w) => {
                w.s_low = w.s_low.min(*s);
                w.s_high = w.s_high.max(*s);
                w.share += 1.0;
            }
            None => winners.push(Winner {
                config: name,
                s_low: *s,
                s_high: *s,
                share: 1.0,
            }),
        }
    }
    let total: f64 = winners.iter().map(|w| w.share).sum();
    for w in &mut winners {
        w.share /= total.max(1.0);
    }
    winners.sort_by(|a, b| {
        (b.config == chosen)
            .cmp(&(a.config == chosen))
            .then(b.share.total_cmp(&a.share))
    });
    winners
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rounds of a workload whose `threads`-thread time is `t1 / speedup(round)`.
    fn rounds(speedups: &[f64], free: f64) -> WorkloadRounds {
        WorkloadRounds {
            name: "parsa".into(),
            unit: "test".into(),
            threads: vec![1, 2],
            seconds: speedups.iter().map(|s| vec![1.0, 1.0 / s]).collect(),
            free_cores: vec![free; speedups.len()],
            here_mhz: (2400.0, "test".into()),
        }
    }

    fn presets() -> Vec<String> {
        vec!["core-i7".to_string()]
    }

    #[test]
    fn steady_rounds_give_a_narrow_fraction_and_decided_recommendations() {
        let e = explore_rounds(&rounds(&[1.9; 10], 1.0), &presets(), &[22]).unwrap();
        let s = e.fit.serial_fraction;
        // S = 1.9 on 2 threads: s = (2 / 1.9 - 1) / (2 - 1).
        assert!((s.value - (2.0 / 1.9 - 1.0)).abs() < 1e-12, "{s:?}");
        assert_eq!((s.low, s.high), (s.value, s.value));
        assert_eq!(e.fit.cores, Cores::Free);
        assert_eq!(e.recommendations.len(), Objective::ALL.len());
        for r in &e.recommendations {
            assert!(r.decided, "{r:?}");
            assert_eq!(r.winners.len(), 1);
            assert!(r.figure.contains(figure(r.objective, &r.best)));
        }
        let time = &e.recommendations[0];
        assert_eq!((time.objective, time.best.threads), (Objective::Time, 8));
    }

    #[test]
    fn a_fraction_that_may_be_one_leaves_best_for_time_not_decided() {
        // Speedups from 0.9 (s = 1, threads do not help) to 1.6 (s = 0.25): 8 threads are
        // fastest unless s = 1, where every thread count takes as long and the least
        // energy (1 thread) wins the tie.
        let speedups = [0.9, 0.95, 1.6, 1.5, 0.9, 1.55, 0.95, 1.6, 1.0, 1.45];
        let e = explore_rounds(&rounds(&speedups, 0.5), &presets(), &[22]).unwrap();
        let s = e.fit.serial_fraction;
        assert!(s.low < 0.5 && s.high == 1.0, "{s:?}");
        assert_eq!(e.fit.cores, Cores::Busy);
        let time = &e.recommendations[0];
        assert!(!time.decided, "{time:?}");
        let threads: Vec<&str> = time.winners.iter().map(|w| w.config.as_str()).collect();
        assert!(
            threads.iter().any(|c| c.contains(" 8 threads"))
                && threads.iter().any(|c| c.contains(" 1 thread")),
            "{threads:?}"
        );
        assert!(
            time.winners
                .iter()
                .all(|w| s.contains(w.s_low) && s.contains(w.s_high))
        );
        assert!((time.winners.iter().map(|w| w.share).sum::<f64>() - 1.0).abs() < 1e-9);
        // Power and MTTF do not depend on the workload: always decided.
        for r in &e.recommendations {
            if matches!(r.objective, Objective::Power | Objective::Mttf) {
                assert!(r.decided, "{r:?}");
            }
        }
    }

    #[test]
    fn retiming_changes_only_what_follows_from_the_time() {
        let r = rounds(&[1.5; 4], 1.0);
        let w = r.fit_all();
        let evals = explore(&w, &presets(), &[22]).unwrap();
        let shapes = HashMap::from([("core-i7".to_string(), (4usize, 2usize))]);
        let same = retimed(&evals, &w, &shapes);
        for (a, b) in evals.iter().zip(&same) {
            assert!((a.time_s - b.time_s).abs() <= 1e-15 * a.time_s);
            assert_eq!((a.power_w, a.mttf_years), (b.power_w, b.mttf_years));
        }
        let slower = Workload {
            t1_s: w.t1_s * 2.0,
            ..w.clone()
        };
        for (a, b) in evals.iter().zip(retimed(&evals, &slower, &shapes)) {
            assert!((b.time_s / a.time_s - 2.0).abs() < 1e-12);
            assert!((b.energy_j / a.energy_j - 2.0).abs() < 1e-12);
        }
    }
}
