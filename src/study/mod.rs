//! The study: one command that runs every seed paper's experiments at sizes that fit a
//! profile, keeps each finished experiment on disk (so an interrupted study resumes), judges
//! every registered claim on the evidence the experiments produced, and writes results.json
//! and one CSV per experiment. The report ([`crate::report`]) renders the results, which
//! are plain data ([`crate::results`]); the claims judged are in [`crate::claims`].
//!
//! - [`options`]: what to run ([`StudyOptions`]) and what an earlier run finished;
//! - [`judge`](mod@judge): the pure judge, `judge(&Claim, &Evidence) -> Verdict`;
//! - [`experiment`]: what an experiment is, receives ([`Context`]) and gives ([`Output`]);
//! - [`sampling`]: paired rounds and bootstrap intervals;
//! - [`experiments`]: measure or model, and produce evidence (never verdicts);
//! - [`diff`]: verdicts that differ between two study folders;
//! - [`estimate`](mod@estimate): how long it will take here (a calibration, or the folder's
//!   previous run) and how the estimate fared.
//!
//! Layout of the output folder:
//! - `experiments/<id>.<profile>.json`: one [`Output`] per finished experiment (the resume
//!   state, evidence included; delete one to run it again);
//! - `results.json`: [`StudyResults`] — machine, profile, every claim judged, every experiment;
//! - `<id>.csv`: each experiment's table; `<id>.chart<k>.csv`: the data behind its k-th
//!   chart (series, provenance, x, y and its 95 % interval, the paper's reference lines).
//!
//! This file only dispatches: the types and helpers the files here share live in leaf files
//! below them (`tests/layout.rs` holds the order).
pub mod archive;
pub mod diff;
pub mod estimate;
pub mod experiment;
pub mod experiments;
pub mod files;
pub mod judge;
pub mod options;
pub mod run;
pub mod sampling;
#[cfg(test)]
mod verdict_grid;

pub use crate::results::{
    Cell, Chart, ChartKind, ClaimResult, ExperimentResult, Kind, Ours, Point, Profile, Provenance,
    Quality, Reference, Series, StudyResults, Table, Verdict,
};
pub use experiment::{Context, Experiment, Fed, Output, fed, set_aside_checked, settled};
pub use files::{load, write_outputs};
pub use judge::{Estimate, Evidence, judge};
pub use options::{Finished, PAPER_IDS, StudyOptions};
pub use run::{Next, StudyPlan, judge_experiment, judged, select};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims;
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
            assert!(
                e.id().starts_with(&format!("{}-", e.paper_id())),
                "{}: its paper's id begins it",
                e.id()
            );
        }
    }

    #[test]
    fn judging_refuses_missing_and_foreign_evidence() {
        let exp = "scc-blowfish-pipeline";
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
        foreign.push(fed("parsa-parsa2", Evidence::unavailable("x")));
        assert!(judge_experiment(exp, &foreign).is_err());
    }

    /// The experiments that only model or do arithmetic run in well under a second: run
    /// them and check that they feed exactly their claims.
    #[test]
    fn the_modelled_experiments_feed_exactly_their_claims() {
        let ctx = Context::new(Profile::Quick);
        for exp in experiments::all() {
            if !["parsa-power", "parsa-energy", "parsa-mttf", "crsa-table1"].contains(&exp.id()) {
                continue;
            }
            let out = exp.run(&ctx).unwrap();
            let judged = judge_experiment(exp.id(), &out.evidence).unwrap();
            assert_eq!(judged.len(), claims::of_experiment(exp.id()).len());
            assert!(!out.result.charts.is_empty(), "{}", exp.id());
        }
    }
}
