//! Design-space exploration (PaRSA, section 5): every (preset, threads ≤ hardware threads,
//! clock, process node, power gating) evaluated for time, power, energy, temperature and MTTF;
//! the Pareto front over time, energy and MTTF; the best configuration per objective.
//!
//! Time comes from a workload measured here ([`workload`]) carried to each processor by an
//! Amdahl fit, an SMT factor and time ∝ 1/f; power from the calibrated power model
//! ([`crate::energy::power_model`]); temperature from the preset's thermal model and MTTF from
//! RAMP ([`crate::reliability`]). Everything but the workload's own timing is **modelled**, and
//! every evaluation says so.
pub mod uncertainty;
pub mod workload;

use crate::energy::power_model::{PowerQuery, estimate};
use crate::energy::presets::{Preset, preset};
use crate::error::{Error, Result};
use crate::reliability::assess::{TemperatureChoice, assess};
use serde::{Deserialize, Serialize};
use workload::Workload;

/// What to optimise.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Objective {
    /// Least time.
    Time,
    /// Least power.
    Power,
    /// Least energy.
    Energy,
    /// Longest combined MTTF.
    Mttf,
    /// Least energy × delay.
    Edp,
}

impl Objective {
    /// All objectives.
    pub const ALL: [Objective; 5] = [
        Objective::Time,
        Objective::Power,
        Objective::Energy,
        Objective::Mttf,
        Objective::Edp,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Time => "time",
            Objective::Power => "power",
            Objective::Energy => "energy",
            Objective::Mttf => "mttf",
            Objective::Edp => "edp",
        }
    }

    /// Parses a name.
    pub fn parse(s: &str) -> Result<Self> {
        Self::ALL
            .into_iter()
            .find(|o| o.name() == s)
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "unknown objective '{s}' (expected time, power, energy, mttf or edp)"
                ))
            })
    }

    /// The score to minimise.
    fn score(self, e: &Evaluation) -> f64 {
        match self {
            Objective::Time => e.time_s,
            Objective::Power => e.power_w,
            Objective::Energy => e.energy_j,
            Objective::Mttf => -e.mttf_years,
            Objective::Edp => e.energy_j * e.time_s,
        }
    }
}

/// One point of the design space and its figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Evaluation {
    /// Preset name.
    pub preset: String,
    /// Software threads (≤ hardware threads).
    pub threads: usize,
    /// Clock, MHz.
    pub mhz: f64,
    /// Process node, nm.
    pub node_nm: u32,
    /// Power gating of idle units.
    pub power_gating: bool,
    /// Modelled seconds of one unit of the workload.
    pub time_s: f64,
    /// Modelled chip power, W.
    pub power_w: f64,
    /// time × power, J.
    pub energy_j: f64,
    /// energy × time, J·s.
    pub edp: f64,
    /// Modelled junction temperature, °C.
    pub temp_c: f64,
    /// Combined RAMP MTTF, years (relative to the reference the reliability module documents).
    pub mttf_years: f64,
    /// On the Pareto front over (time, energy, MTTF).
    pub pareto: bool,
    /// How the figures were obtained.
    pub source: String,
}

/// The presets the exploration covers by default: PaRSA's four processors.
pub const DEFAULT_PRESETS: [&str; 4] = ["core2duo", "core-i3", "core-i5", "core-i7"];

/// Thread counts explored on a preset: powers of two up to its hardware threads, and the
/// hardware thread count itself.
pub fn thread_counts(p: &Preset) -> Vec<usize> {
    let hw = p.threads().max(1);
    let mut v: Vec<usize> = (0..).map(|i| 1usize << i).take_while(|&t| t < hw).collect();
    v.push(hw);
    v
}

/// Evaluates every configuration of `presets` at `nodes` (each filtered to the nodes a preset
/// has; an empty `nodes` takes them all).
pub fn explore(work: &Workload, presets: &[String], nodes: &[u32]) -> Result<Vec<Evaluation>> {
    let mut out = Vec::new();
    for name in presets {
        let p = preset(name, None)?;
        let have = p.nodes();
        let chosen: Vec<u32> = if nodes.is_empty() {
            have.clone()
        } else {
            nodes.iter().copied().filter(|n| have.contains(n)).collect()
        };
        if chosen.is_empty() {
            return Err(Error::InvalidParameter(format!(
                "preset {name} has none of the nodes {nodes:?} (it has {have:?})"
            )));
        }
        for &node in &chosen {
            for mhz in p.frequencies(node) {
                for &threads in &thread_counts(&p) {
                    for gating in [false, true] {
                        out.push(evaluate(work, &p, node, mhz, threads, gating)?);
                    }
                }
            }
        }
    }
    mark_pareto(&mut out);
    Ok(out)
}

/// One configuration.
pub fn evaluate(
    work: &Workload,
    p: &Preset,
    node: u32,
    mhz: f64,
    threads: usize,
    gating: bool,
) -> Result<Evaluation> {
    let busy_cores = threads.min(p.cores) as f64;
    let q = PowerQuery {
        node_nm: Some(node),
        mhz: Some(mhz),
        active_cores: Some(busy_cores),
        power_gating: gating,
        ..Default::default()
    };
    let power = estimate(p, &q)?;
    let time_s = work.time(threads, p.cores, p.threads_per_core, mhz);
    let energy_j = power.p_total_w * time_s;
    let (temp_c, mttf_years) = match assess(p, &q, &TemperatureChoice::Model) {
        Ok(a) => (a.temperature.kelvin - 273.15, a.mttf.combined_years),
        Err(_) => (f64::NAN, f64::NAN),
    };
    Ok(Evaluation {
        preset: p.name.clone(),
        threads,
        mhz,
        node_nm: node,
        power_gating: gating,
        time_s,
        power_w: power.p_total_w,
        energy_j,
        edp: energy_j * time_s,
        temp_c,
        mttf_years,
        pareto: false,
        source: format!(
            "time: measured here ({}), modelled for the preset (Amdahl s = {:.3}, SMT {:.1}, time ∝ 1/f); power: {}; MTTF: RAMP",
            work.unit, work.serial_fraction, work.ht_factor, power.source
        ),
    })
}

/// Marks the evaluations no other beats on all of time, energy and MTTF.
pub fn mark_pareto(evals: &mut [Evaluation]) {
    let key = |e: &Evaluation| {
        (
            e.time_s,
            e.energy_j,
            if e.mttf_years.is_finite() {
                -e.mttf_years
            } else {
                0.0
            },
        )
    };
    let keys: Vec<(f64, f64, f64)> = evals.iter().map(key).collect();
    for (i, e) in evals.iter_mut().enumerate() {
        let a = keys[i];
        e.pareto = !keys.iter().enumerate().any(|(j, b)| {
            j != i
                && b.0 <= a.0
                && b.1 <= a.1
                && b.2 <= a.2
                && (b.0 < a.0 || b.1 < a.1 || b.2 < a.2)
        });
    }
}

/// The best evaluation for `objective` among those `filter` keeps; ties (time does not depend
/// on the node, for instance) go to the lower energy.
pub fn best(
    evals: &[Evaluation],
    objective: Objective,
    filter: impl Fn(&Evaluation) -> bool,
) -> Option<&Evaluation> {
    evals
        .iter()
        .filter(|e| filter(e) && objective.score(e).is_finite())
        .min_by(|a, b| {
            objective
                .score(a)
                .total_cmp(&objective.score(b))
                .then(a.energy_j.total_cmp(&b.energy_j))
        })
}

/// PaRSA's Table 8 question per processor: with every hardware thread busy (PaRSA-n, n =
/// hardware threads), which (node, clock) uses the least energy, and which the least power?
/// Returns (preset, energy-optimal, power-optimal).
pub fn table8(evals: &[Evaluation]) -> Vec<(String, Evaluation, Evaluation)> {
    let mut out = Vec::new();
    for name in DEFAULT_PRESETS {
        let Ok(p) = preset(name, None) else { continue };
        let hw = p.threads();
        let of = |e: &Evaluation| e.preset == name && e.threads == hw;
        if let (Some(en), Some(pw)) = (
            best(evals, Objective::Energy, of),
            best(evals, Objective::Power, of),
        ) {
            out.push((name.to_string(), en.clone(), pw.clone()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work() -> Workload {
        Workload {
            name: "parsa".into(),
            unit: "test".into(),
            t1_s: 100.0,
            speedups: vec![(1, 1.0), (2, 1.9)],
            serial_fraction: 0.05,
            ht_factor: workload::DEFAULT_HT_FACTOR,
            here_mhz: 2400.0,
            here_mhz_source: "test".into(),
        }
    }

    #[test]
    fn exploration_reproduces_the_seed_table8_choices() {
        let presets: Vec<String> = DEFAULT_PRESETS.iter().map(|s| s.to_string()).collect();
        let evals = explore(&work(), &presets, &[]).unwrap();
        assert!(evals.iter().any(|e| e.pareto));
        let t8 = table8(&evals);
        assert_eq!(t8.len(), 4);
        for (name, energy, power) in &t8 {
            // PaRSA: energy-optimal at 22 nm and the highest clock; power-optimal at 22 nm and
            // the lowest clock; the two differ.
            let p = preset(name, None).unwrap();
            let freqs = p.frequencies(22);
            assert_eq!(energy.node_nm, 22, "{name}");
            assert_eq!(energy.mhz, *freqs.last().unwrap(), "{name}");
            assert_eq!(power.node_nm, 22, "{name}");
            assert_eq!(power.mhz, freqs[0], "{name}");
            assert_ne!(
                (energy.mhz, energy.power_gating),
                (power.mhz, power.power_gating)
            );
        }
    }

    #[test]
    fn pareto_front_keeps_only_undominated_points() {
        let mut evals = explore(&work(), &["core-i7".to_string()], &[22, 45]).unwrap();
        mark_pareto(&mut evals);
        let front: Vec<&Evaluation> = evals.iter().filter(|e| e.pareto).collect();
        for f in &front {
            for e in &evals {
                let dominates =
                    e.time_s < f.time_s && e.energy_j < f.energy_j && e.mttf_years > f.mttf_years;
                assert!(!dominates, "{e:?} dominates front point {f:?}");
            }
        }
        assert!(!front.is_empty() && front.len() < evals.len());
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(explore(&work(), &["pentium".to_string()], &[]).is_err());
        assert!(explore(&work(), &["core-i7".to_string()], &[7]).is_err());
        assert!(Objective::parse("speed").is_err());
        assert_eq!(Objective::parse("edp").unwrap(), Objective::Edp);
    }
}
