//! The study: one command that runs every seed paper's experiments at sizes that fit a
//! profile, keeps each finished experiment on disk (so an interrupted study resumes), judges
//! every registered claim on the evidence the experiments produced, and writes results.json
//! and one CSV per experiment. The report ([`crate::report`]) renders the results, which
//! are plain data ([`crate::results`]); the claims judged are in [`crate::claims`].
//!
//! - [`judge`](mod@judge): the pure judge, `judge(&Claim, &Evidence) -> Verdict`;
//! - [`sampling`]: paired rounds and bootstrap intervals;
//! - [`experiments`]: measure or model, and produce evidence (never verdicts);
//! - [`diff`]: verdicts that differ between two study folders.
//!
//! Layout of the output folder:
//! - `experiments/<id>.<profile>.json`: one [`Output`] per finished experiment (the resume
//!   state, evidence included; delete one to run it again);
//! - `results.json`: [`StudyResults`] — machine, profile, every claim judged, every experiment;
//! - `<id>.csv`: each experiment's table; `<id>.chart<k>.csv`: the data behind its k-th
//!   chart (series, provenance, x, y and its 95 % interval, the paper's reference lines).
pub mod diff;
pub mod experiments;
pub mod judge;
pub mod run;
pub mod sampling;

pub use crate::results::{
    Cell, Chart, ChartKind, ClaimResult, ExperimentResult, Kind, Ours, Point, Profile, Provenance,
    Quality, Reference, Series, StudyResults, Table, Verdict,
};
pub use judge::{Estimate, Evidence, judge};
pub use run::{Finished, Next, StudyPlan};

use crate::bench::MachineInfo;
use crate::claims;
use crate::error::{Error, Result};
use crate::io::write_atomic;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What every experiment receives.
pub struct Context {
    /// The profile.
    pub profile: Profile,
    /// The machine the study runs on.
    pub machine: MachineInfo,
    /// How many paired rounds timed experiments run.
    pub plan: sampling::Plan,
}

impl Context {
    /// The context for `profile` on this machine.
    pub fn new(profile: Profile) -> Self {
        Self {
            profile,
            machine: MachineInfo::detect(),
            plan: sampling::Plan::for_profile(profile),
        }
    }
}

/// Evidence for one claim, by the claim's id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fed {
    /// The claim's id in the registry.
    pub claim: String,
    /// The evidence.
    pub evidence: Evidence,
}

/// `Fed` for `claim`.
pub fn fed(claim: &str, evidence: Evidence) -> Fed {
    Fed {
        claim: claim.into(),
        evidence,
    }
}

/// What an experiment produced: the tables and charts for people, and evidence for every
/// claim the registry says it feeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Output {
    /// Tables, charts, summary.
    pub result: ExperimentResult,
    /// Evidence, one per claim fed.
    pub evidence: Vec<Fed>,
}

/// One experiment of the study.
pub trait Experiment {
    /// Stable id, e.g. "seed000-fig6".
    fn id(&self) -> &'static str;
    /// The seed it belongs to, e.g. "seed000".
    fn seed(&self) -> &'static str {
        self.id().split('-').next().unwrap_or("")
    }
    /// Expected seconds under `profile` on a 2-core machine (for the time estimate).
    fn estimate_s(&self, profile: Profile) -> f64;
    /// Runs it.
    fn run(&self, ctx: &Context) -> Result<Output>;
}

/// The seed ids, in report order.
pub const SEEDS: [&str; 5] = ["seed000", "seed001", "seed002", "seed003", "seed004"];

/// Whether more rounds could not change any claim `evidence` feeds: none is left open by an
/// interval that straddles its rule or by cores that were busy or unclear while a result load
/// could have caused was measured. The sampling's stopping rule for re-measuring.
pub fn settled(evidence: &[Fed]) -> bool {
    use crate::results::Reason;
    evidence.iter().all(|f| {
        claims::find(&f.claim).is_none_or(|c| {
            !matches!(
                judge::assess(c, &f.evidence).1,
                Reason::IntervalStraddles | Reason::CoresBusy | Reason::CoresUnclear
            )
        })
    })
}

/// Judges the claims `experiment` feeds on `evidence`. Errors when a claim the registry
/// gives the experiment has no evidence, or evidence names a claim it does not feed.
pub fn judge_experiment(experiment: &str, evidence: &[Fed]) -> Result<Vec<ClaimResult>> {
    let expected = claims::of_experiment(experiment);
    for f in evidence {
        if !expected.iter().any(|c| c.id == f.claim) {
            return Err(Error::internal(format!(
                "{experiment} fed evidence for '{}', which is not one of its claims",
                f.claim
            )));
        }
    }
    expected
        .into_iter()
        .map(|c| {
            let f = evidence.iter().find(|f| f.claim == c.id).ok_or_else(|| {
                Error::internal(format!("{experiment} fed no evidence for claim '{}'", c.id))
            })?;
            let judged = judged(c, experiment, &f.evidence);
            if judged.reason == Some(crate::results::Reason::EvidenceMismatch) {
                return Err(Error::internal(format!(
                    "{experiment} fed claim '{}' evidence of another kind: {}",
                    c.id, judged.why
                )));
            }
            Ok(judged)
        })
        .collect()
}

/// One claim judged, in results.json's shape.
pub fn judged(c: &claims::Claim, experiment: &str, e: &Evidence) -> ClaimResult {
    let (verdict, reason) = judge::assess(c, e);
    ClaimResult {
        id: c.id.clone(),
        seed: c.seed.into(),
        reference: c.reference.clone(),
        claim: c.claim.clone(),
        kind: c.kind,
        model: c.model.clone(),
        verdict,
        reason: Some(reason),
        paper: c.paper.clone(),
        paper_values: c.paper_values.clone(),
        ours: e.ours(&c.unit, &c.rule.part_names()),
        rule: if c.metric.is_empty() {
            c.rule.describe(&c.unit)
        } else {
            format!("{}: {}", c.metric, c.rule.describe(&c.unit))
        },
        rule_data: c.rule.clone(),
        tolerance: c.tolerance.clone(),
        why: judge::explain(c, e),
        beside: e.beside.clone(),
        experiment: experiment.into(),
    }
}

/// What to run.
#[derive(Clone, Debug)]
pub struct StudyOptions {
    /// The profile.
    pub profile: Profile,
    /// The output folder (created if missing).
    pub out: PathBuf,
    /// Only these seeds (ids from [`SEEDS`]); empty = all.
    pub only: Vec<String>,
    /// MPI result files (`parcrypt-mpi ... --json`) to show beside the thread experiments,
    /// besides the `*.json` found in the output folder's `mpi/` ([`experiments::mpi_runs`]).
    pub mpi_results: Vec<PathBuf>,
    /// Measure the selected experiments again even where `out` holds them finished.
    pub fresh: bool,
}

/// The experiments `only` selects, checking the seed names.
pub fn select(only: &[String]) -> Result<Vec<Box<dyn Experiment>>> {
    for s in only {
        if !SEEDS.contains(&s.as_str()) {
            return Err(Error::InvalidParameter(format!(
                "unknown seed '{s}' (expected one of {})",
                SEEDS.join(", ")
            )));
        }
    }
    Ok(experiments::all()
        .into_iter()
        .filter(|e| only.is_empty() || only.iter().any(|s| s == e.seed()))
        .collect())
}

pub(crate) fn io_err(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes results.json, each experiment's table as CSV, and the data behind each chart as
/// CSV ([`crate::results::chart_csv_name`]).
pub fn write_outputs(study: &StudyResults, out: &Path) -> Result<()> {
    let json = serde_json::to_vec_pretty(study)
        .map_err(|e| Error::Export(format!("results.json: {e}")))?;
    write_atomic(&out.join("results.json"), &json, None)?;
    for e in &study.experiments {
        write_atomic(
            &out.join(format!("{}.csv", e.id)),
            e.table.to_csv().as_bytes(),
            None,
        )?;
        for (i, chart) in e.charts.iter().enumerate() {
            let name = crate::results::chart_csv_name(&e.id, i);
            write_atomic(&out.join(name), chart.to_csv().as_bytes(), None)?;
        }
    }
    Ok(())
}

/// Reads a study's results.json: `path` is the study's folder or the file itself.
pub fn load(path: &Path) -> Result<StudyResults> {
    let path = if path.is_dir() {
        path.join("results.json")
    } else {
        path.to_path_buf()
    };
    let bytes = std::fs::read(&path).map_err(io_err(&path))?;
    serde_json::from_slice(&bytes).map_err(|e| {
        Error::InvalidParameter(format!("{}: not a study's results ({e})", path.display()))
    })
}

/// The expected duration of a study, in seconds.
pub fn estimate(only: &[String], profile: Profile) -> Result<f64> {
    Ok(select(only)?.iter().map(|e| e.estimate_s(profile)).sum())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn every_registered_claim_is_fed_by_an_experiment_that_exists() {
        let ids: HashSet<&str> = experiments::all().iter().map(|e| e.id()).collect();
        for c in claims::all() {
            assert!(
                ids.contains(c.experiment),
                "orphan claim {}: no experiment {}",
                c.id,
                c.experiment
            );
        }
        for e in experiments::all() {
            assert!(
                !claims::of_experiment(e.id()).is_empty(),
                "{} feeds no claim",
                e.id()
            );
            assert_eq!(e.seed(), e.id().split('-').next().unwrap());
        }
    }

    #[test]
    fn judging_refuses_missing_and_foreign_evidence() {
        let exp = "seed001-pipeline";
        let all: Vec<Fed> = claims::of_experiment(exp)
            .iter()
            .map(|c| fed(&c.id, Evidence::unavailable("test")))
            .collect();
        let judged = judge_experiment(exp, &all).unwrap();
        assert_eq!(judged.len(), all.len());
        assert!(judged.iter().all(|c| !c.verdict.is_definite()));
        let missing = &all[1..];
        let err = judge_experiment(exp, missing).unwrap_err().to_string();
        assert!(err.contains("fed no evidence"), "{err}");
        let mut foreign = all.clone();
        foreign.push(fed("seed000-parsa2", Evidence::unavailable("x")));
        assert!(judge_experiment(exp, &foreign).is_err());
    }

    /// The experiments that only model or do arithmetic run in well under a second: run
    /// them and check that they feed exactly their claims.
    #[test]
    fn the_modelled_experiments_feed_exactly_their_claims() {
        let ctx = Context::new(Profile::Quick);
        for exp in experiments::all() {
            if ![
                "seed000-power",
                "seed000-energy",
                "seed000-mttf",
                "seed002-table1",
            ]
            .contains(&exp.id())
            {
                continue;
            }
            let out = exp.run(&ctx).unwrap();
            let judged = judge_experiment(exp.id(), &out.evidence).unwrap();
            assert_eq!(judged.len(), claims::of_experiment(exp.id()).len());
            assert!(!out.result.charts.is_empty(), "{}", exp.id());
        }
    }
}
