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
//! - [`diff`]: verdicts that differ between two study folders.
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
pub mod diff;
pub mod experiment;
pub mod experiments;
pub mod judge;
pub mod options;
pub mod sampling;

pub use crate::results::{
    Cell, Chart, ChartKind, ClaimResult, ExperimentResult, Kind, Ours, Point, Profile, Provenance,
    Quality, Reference, Series, StudyResults, Table, Verdict,
};
pub use experiment::{Context, Experiment, Fed, Output, fed, settled};
pub use judge::{Estimate, Evidence, judge};
pub use options::{Finished, StudyOptions};

use crate::claims;
use crate::error::{Error, Result};
use crate::io::write_atomic;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The seed ids, in report order.
pub const SEEDS: [&str; 5] = ["seed000", "seed001", "seed002", "seed003", "seed004"];

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

/// The selected experiments that `opts.out` already holds finished for `opts.profile` (and
/// that a run would reuse, unless `opts.fresh`), in run order.
pub fn already_measured(opts: &StudyOptions) -> Result<Vec<Finished>> {
    let state_dir = opts.out.join("experiments");
    Ok(select(&opts.only)?
        .iter()
        .filter_map(|exp| {
            let path = state_dir.join(format!("{}.{}.json", exp.id(), opts.profile.name()));
            let done = load_finished(&path, exp.id())?;
            let at = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or("unknown".into(), |d| {
                    crate::bench::machine::rfc3339_utc(d.as_secs())
                });
            Some(Finished {
                id: exp.id().to_string(),
                at,
                elapsed_s: done.result.elapsed_s,
            })
        })
        .collect())
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

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Runs the study and writes results.json and the CSVs.
///
/// `progress(done, total, id, measured)` is called before each selected experiment (`id`
/// is the one starting) and once more at the end (`id` = "results"); `measured` says whether
/// the step that just ended ran (true) or was resumed from disk (false).
///
/// Experiments finished in `opts.out` by earlier runs of the same profile but not selected
/// now (`--only`) are kept: results.json and the report cover everything finished there.
pub fn run(
    opts: &StudyOptions,
    mut progress: impl FnMut(usize, usize, &str, bool),
) -> Result<StudyResults> {
    let started = Instant::now();
    let selected = select(&opts.only)?;
    // Read before anything is written: a bad MPI file stops the study with no output.
    let mpi_runs = experiments::mpi_runs::find_and_load(&opts.mpi_results, &opts.out)?;
    let state_dir = opts.out.join("experiments");
    std::fs::create_dir_all(&state_dir).map_err(io_err(&state_dir))?;
    let state_of = |id: &str| state_dir.join(format!("{id}.{}.json", opts.profile.name()));
    let ctx = Context::new(opts.profile);
    let mut outputs = Vec::new();
    let mut resumed = Vec::new();
    let mut last_ran = true;
    for (i, exp) in selected.iter().enumerate() {
        progress(i, selected.len(), exp.id(), last_ran);
        let state = state_of(exp.id());
        if let Some(done) = (!opts.fresh)
            .then(|| load_finished(&state, exp.id()))
            .flatten()
        {
            resumed.push(done.result.id.clone());
            outputs.push(done);
            last_ran = false;
            continue;
        }
        let t0 = Instant::now();
        let mut out = exp.run(&ctx)?;
        out.result.elapsed_s = t0.elapsed().as_secs_f64();
        let json = serde_json::to_vec_pretty(&out)
            .map_err(|e| Error::Export(format!("{}: {e}", exp.id())))?;
        write_atomic(&state, &json, None)?;
        outputs.push(out);
        last_ran = true;
    }
    progress(selected.len(), selected.len(), "results", last_ran);
    // Keep what earlier runs finished here, in report order.
    for done in finished_elsewhere(&selected, state_of) {
        resumed.push(done.result.id.clone());
        outputs.push(done);
    }
    let all = experiments::all();
    let rank = |id: &str| all.iter().position(|e| e.id() == id);
    outputs.sort_by_key(|o| rank(&o.result.id));
    let mut claims = Vec::new();
    for o in &outputs {
        claims.extend(judge_experiment(&o.result.id, &o.evidence)?);
    }
    let order = |c: &ClaimResult| claims::all().iter().position(|r| r.id == c.id);
    claims.sort_by_key(order);
    let mut experiments: Vec<ExperimentResult> = outputs.into_iter().map(|o| o.result).collect();
    // Each MPI run goes after its seed's thread experiments.
    experiments.extend(mpi_runs);
    experiments.sort_by_key(|e| SEEDS.iter().position(|s| *s == e.seed));
    let study = StudyResults {
        machine: ctx.machine,
        profile: opts.profile,
        parcrypt_version: env!("CARGO_PKG_VERSION").to_string(),
        claims,
        elapsed_s: started.elapsed().as_secs_f64() + outputs_elapsed(&resumed, &experiments),
        resumed,
        experiments,
    };
    write_outputs(&study, &opts.out)?;
    Ok(study)
}

/// The experiments not in `selected` that an earlier run finished (state file at
/// `state_of(id)`), in report order.
fn finished_elsewhere(
    selected: &[Box<dyn Experiment>],
    state_of: impl Fn(&str) -> PathBuf,
) -> Vec<Output> {
    experiments::all()
        .iter()
        .filter(|exp| selected.iter().all(|s| s.id() != exp.id()))
        .filter_map(|exp| load_finished(&state_of(exp.id()), exp.id()))
        .collect()
}

/// Seconds the resumed experiments took when they ran.
fn outputs_elapsed(resumed: &[String], experiments: &[ExperimentResult]) -> f64 {
    experiments
        .iter()
        .filter(|e| resumed.contains(&e.id))
        .map(|e| e.elapsed_s)
        .sum()
}

/// Experiment `id` as finished by an earlier run, if its file is there, readable, about that
/// experiment, and still feeds exactly the claims the registry gives it (a state file from
/// before the registry changed is run again rather than failing the whole study).
fn load_finished(path: &Path, id: &str) -> Option<Output> {
    let bytes = std::fs::read(path).ok()?;
    let out: Output = serde_json::from_slice(&bytes).ok()?;
    (out.result.id == id && judge_experiment(id, &out.evidence).is_ok()).then_some(out)
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
    estimate_except(only, profile, &[])
}

/// The expected duration of the selected experiments but `done` (ids), in seconds: what a
/// run that reuses them will take.
pub fn estimate_except(only: &[String], profile: Profile, done: &[String]) -> Result<f64> {
    Ok(select(only)?
        .iter()
        .filter(|e| !done.iter().any(|d| d == e.id()))
        .map(|e| e.estimate_s(profile))
        .sum())
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

    /// `--only seed002` over a folder where seed000-power was finished keeps seed000-power;
    /// a stale or foreign state file is not kept.
    #[test]
    fn a_partial_run_keeps_the_folders_other_finished_experiments() {
        let dir = tempfile::tempdir().unwrap();
        let state_of = |id: &str| dir.path().join(format!("{id}.quick.json"));
        let ctx = Context::new(Profile::Quick);
        let power = experiments::all()
            .into_iter()
            .find(|e| e.id() == "seed000-power")
            .unwrap();
        let out = power.run(&ctx).unwrap();
        let json = serde_json::to_vec(&out).unwrap();
        std::fs::write(state_of("seed000-power"), &json).unwrap();
        // The same output filed under another experiment's name is not that experiment.
        std::fs::write(state_of("seed000-energy"), &json).unwrap();
        std::fs::write(state_of("seed000-mttf"), b"{ truncated").unwrap();
        let kept = finished_elsewhere(&select(&["seed002".into()]).unwrap(), state_of);
        let ids: Vec<&str> = kept.iter().map(|o| o.result.id.as_str()).collect();
        assert_eq!(ids, ["seed000-power"]);
        let kept = finished_elsewhere(&select(&["seed000".into()]).unwrap(), state_of);
        assert!(
            kept.is_empty(),
            "selected experiments are run or resumed, not kept"
        );
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
