//! Running a study: [`StudyPlan`] checks the options once (the experiments they select, the
//! MPI result files they name), says what an earlier run already finished and how long the
//! rest will take, then runs, resumes or keeps each experiment, judges every claim and writes
//! results.json and the CSVs.
use super::estimate::{self, Calibration, Expected};
use super::experiment::{Context, Experiment, Fed, Output};
use super::experiments;
use super::files::{io_err, write_outputs};
use super::judge::{self, Evidence};
use super::options::{Finished, PAPER_IDS, StudyOptions};
use super::sampling::{self, Block};
use crate::claims;
use crate::error::{Error, Result};
use crate::results::{ClaimResult, ExperimentResult, StudyResults};
use parcrypt::io::write_atomic;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What a study's run does next, as its progress callback hears it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next<'a> {
    /// Experiment `id` measures its first block of rounds (the study's first pass).
    FirstBlock(&'a str),
    /// Experiment `id` starts (or is resumed from disk): its second block, and the results.
    Experiment(&'a str),
    /// Every experiment is done: the claims are judged and the results written.
    Results,
}

/// Judges the claims `experiment` feeds on `evidence`. Errors when a claim the registry
/// gives the experiment has no evidence, or evidence names a claim it does not feed.
pub fn judge_experiment(experiment: &str, evidence: &[Fed]) -> Result<Vec<ClaimResult>> {
    let expected = claims::of_experiment(experiment);
    // The statements the papers' own numbers decide ride along with their experiment.
    let mut evidence = evidence.to_vec();
    for extra in experiments::statements::evidence(experiment) {
        if !evidence.iter().any(|f| f.claim == extra.claim) {
            evidence.push(extra);
        }
    }
    let evidence = &evidence[..];
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
        paper_id: c.paper_id.into(),
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
        headline: c.headline,
        defect: c.defect.map(String::from),
        confirms: c.confirms,
        untested: c.untested.clone(),
        assumptions: c.assumptions.clone(),
        setting: c.setting(),
        differs: (c.setting() == Some(crate::results::Setting::Scaled))
            .then(|| c.untested.clone())
            .flatten(),
        root: c.root.map(String::from),
    }
}

/// The experiments `only` selects, checking the seed names.
pub fn select(only: &[String]) -> Result<Vec<Box<dyn Experiment>>> {
    for s in only {
        if !PAPER_IDS.contains(&s.as_str()) {
            return Err(Error::InvalidParameter(format!(
                "unknown paper_id '{s}' (expected one of {})",
                PAPER_IDS.join(", ")
            )));
        }
    }
    Ok(experiments::all()
        .into_iter()
        .filter(|e| only.is_empty() || only.iter().any(|s| s == e.paper_id()))
        .collect())
}

/// A study ready to run: its options, the experiments they select and the MPI runs they
/// name, each chosen or read once.
pub struct StudyPlan {
    opts: StudyOptions,
    selected: Vec<Box<dyn Experiment>>,
    mpi_runs: Vec<ExperimentResult>,
    expected: Vec<(String, f64)>,
    archive: Option<super::archive::Archive>,
}

impl StudyPlan {
    /// Checks `opts`: reads the MPI result files and the archive first (a bad one stops the
    /// study before anything is said or written), then selects the experiments (an unknown
    /// seed fails).
    pub fn new(opts: StudyOptions) -> Result<Self> {
        let mpi_runs = experiments::mpi_runs::find_and_load(&opts.mpi_results, &opts.out)?;
        let archive = opts
            .archive
            .as_deref()
            .map(super::archive::Archive::load)
            .transpose()?;
        let selected = select(&opts.only)?;
        Ok(Self {
            opts,
            selected,
            mpi_runs,
            expected: Vec::new(),
            archive,
        })
    }

    /// The options.
    pub fn options(&self) -> &StudyOptions {
        &self.opts
    }

    /// How many experiments are selected.
    pub fn selected(&self) -> usize {
        self.selected.len()
    }

    /// The state file of experiment `id` under this plan's folder and profile.
    fn state_of(&self, id: &str) -> PathBuf {
        state_path(&self.opts.out, id, self.opts.profile)
    }

    /// The selected experiments that the output folder already holds finished for the
    /// profile (and that a run would reuse, unless `fresh`), in run order.
    pub fn already_measured(&self) -> Vec<Finished> {
        self.selected
            .iter()
            .filter_map(|exp| {
                let path = self.state_of(exp.id());
                let done = load_finished(&path, exp.id())?;
                Some(Finished {
                    id: exp.id().to_string(),
                    at: modified_at(&path),
                    elapsed_s: done.result.elapsed_s,
                })
            })
            .collect()
    }

    /// The expected time of each selected experiment but `done` (ids), in run order: what a
    /// run that reuses those will measure. An experiment the folder holds from an earlier run
    /// of the profile (measured again under `--fresh`) is expected to take what it took then;
    /// the others their reference time scaled by `cal` ([`estimate::expected`]).
    pub fn expected(&self, done: &[String], cal: &Calibration) -> Vec<Expected> {
        self.selected
            .iter()
            .filter(|e| !done.iter().any(|d| d == e.id()))
            .map(|e| {
                let previous =
                    load_finished(&self.state_of(e.id()), e.id()).map(|o| o.result.elapsed_s);
                estimate::expected(e.as_ref(), self.opts.profile, cal, previous)
            })
            .collect()
    }

    /// Records `expected` (from [`StudyPlan::expected`]) in each experiment's result as it
    /// runs (`estimate_s` in results.json), beside the time it took.
    pub fn record_expected(&mut self, expected: &[Expected]) {
        self.expected = expected.iter().map(|e| (e.id.clone(), e.seconds)).collect();
    }

    /// Runs the study and writes results.json and the CSVs.
    ///
    /// `progress(done, total, next, measured)` is called before each selected experiment
    /// ([`Next::Experiment`]) and once more at the end ([`Next::Results`]); `measured` says
    /// whether the step that just ended ran (true) or was resumed from disk (false).
    ///
    /// Experiments finished in the output folder by earlier runs of the same profile but not
    /// selected now (`--only`) are kept: results.json and the report cover everything
    /// finished there.
    pub fn run(
        self,
        mut progress: impl FnMut(usize, usize, Next<'_>, bool),
    ) -> Result<StudyResults> {
        let started = Instant::now();
        let state_dir = self.opts.out.join("experiments");
        std::fs::create_dir_all(&state_dir).map_err(io_err(&state_dir))?;
        let ctx = Context::new(self.opts.profile);
        let total = self.selected.len();
        let mut outputs = Vec::new();
        let mut resumed = Vec::new();
        let mut last_ran = true;
        let finished = |exp: &dyn Experiment| {
            (!self.opts.fresh)
                .then(|| load_finished(&self.state_of(exp.id()), exp.id()))
                .flatten()
        };
        // The first block of every experiment's rounds, in registry order; the rest (and any
        // re-measuring) follows in the reverse order below, so each claim's rounds are spread
        // over the run and follow different neighbours (`sampling::Block`).
        let mut first_s: Vec<(&str, f64)> = Vec::new();
        for exp in &self.selected {
            if finished(exp.as_ref()).is_some() {
                continue;
            }
            progress(0, total, Next::FirstBlock(exp.id()), false);
            let t0 = Instant::now();
            sampling::set_block(exp.id(), Block::First);
            let first = exp.run(&ctx);
            first_s.push((exp.id(), t0.elapsed().as_secs_f64()));
            if let Err(e) = first {
                sampling::set_block("", Block::Whole);
                return Err(e);
            }
        }
        for (i, exp) in self.selected.iter().enumerate().rev() {
            progress(total - 1 - i, total, Next::Experiment(exp.id()), last_ran);
            if let Some(done) = finished(exp.as_ref()) {
                resumed.push(done.result.id.clone());
                outputs.push(done);
                last_ran = false;
                continue;
            }
            let expected = self
                .expected
                .iter()
                .find(|(id, _)| id == exp.id())
                .map(|(_, s)| *s);
            let earlier = first_s
                .iter()
                .find(|(id, _)| *id == exp.id())
                .map_or(0.0, |(_, s)| *s);
            sampling::set_block(exp.id(), Block::Second);
            let out = run_one(
                exp.as_ref(),
                &ctx,
                &self.state_of(exp.id()),
                expected,
                earlier,
            );
            sampling::set_block("", Block::Whole);
            outputs.push(out?);
            last_ran = true;
        }
        progress(total, total, Next::Results, last_ran);
        // Keep what earlier runs finished here, in report order.
        for done in finished_elsewhere(&self.selected, |id| self.state_of(id)) {
            resumed.push(done.result.id.clone());
            outputs.push(done);
        }
        let claims = judge_all(&mut outputs)?;
        let mut experiments: Vec<ExperimentResult> =
            outputs.into_iter().map(|o| o.result).collect();
        // Each MPI run goes after its seed's thread experiments.
        experiments.extend(self.mpi_runs);
        experiments.sort_by_key(|e| PAPER_IDS.iter().position(|s| *s == e.paper_id));
        let mut study = StudyResults {
            machine: ctx.machine,
            profile: self.opts.profile,
            parcrypt_version: env!("CARGO_PKG_VERSION").to_string(),
            claims,
            elapsed_s: started.elapsed().as_secs_f64() + outputs_elapsed(&resumed, &experiments),
            resumed,
            experiments,
            machines: None,
        };
        study.machines = self.archive.as_ref().map(|a| a.compare(&study));
        write_outputs(&study, &self.opts.out)?;
        Ok(study)
    }
}

/// Runs `exp`, records how long it took (and how long it was `expected` to) and files its
/// output at `state` (so a later run resumes it).
fn run_one(
    exp: &dyn Experiment,
    ctx: &Context,
    state: &Path,
    expected: Option<f64>,
    earlier_s: f64,
) -> Result<Output> {
    let t0 = Instant::now();
    let mut out = exp.run(ctx)?;
    out.result.elapsed_s = t0.elapsed().as_secs_f64() + earlier_s;
    out.result.estimate_s = expected;
    let json =
        serde_json::to_vec_pretty(&out).map_err(|e| Error::Export(format!("{}: {e}", exp.id())))?;
    write_atomic(state, &json, None)?;
    Ok(out)
}

/// Sorts `outputs` into report order and judges every claim they feed, in registry order.
fn judge_all(outputs: &mut [Output]) -> Result<Vec<ClaimResult>> {
    let all = experiments::all();
    let rank = |id: &str| all.iter().position(|e| e.id() == id);
    outputs.sort_by_key(|o| rank(&o.result.id));
    let mut claims = Vec::new();
    for o in outputs.iter() {
        claims.extend(judge_experiment(&o.result.id, &o.evidence)?);
    }
    let order = |c: &ClaimResult| claims::all().iter().position(|r| r.id == c.id);
    claims.sort_by_key(order);
    Ok(claims)
}

/// Where experiment `id`'s finished output for `profile` is kept under `out`.
fn state_path(out: &Path, id: &str, profile: super::Profile) -> PathBuf {
    out.join("experiments")
        .join(format!("{id}.{}.json", profile.name()))
}

/// When `path` was last written (UTC, RFC 3339), or "unknown".
fn modified_at(path: &Path) -> String {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or("unknown".into(), |d| {
            crate::bench::machine::rfc3339_utc(d.as_secs())
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::study::Profile;

    /// `--only crsa` over a folder where parsa-power was finished keeps parsa-power;
    /// a stale or foreign state file is not kept.
    #[test]
    fn a_partial_run_keeps_the_folders_other_finished_experiments() {
        let dir = tempfile::tempdir().unwrap();
        let state_of = |id: &str| dir.path().join(format!("{id}.quick.json"));
        let ctx = Context::new(Profile::Quick);
        let power = experiments::all()
            .into_iter()
            .find(|e| e.id() == "parsa-power")
            .unwrap();
        let out = power.run(&ctx).unwrap();
        let json = serde_json::to_vec(&out).unwrap();
        std::fs::write(state_of("parsa-power"), &json).unwrap();
        // The same output filed under another experiment's name is not that experiment.
        std::fs::write(state_of("parsa-energy"), &json).unwrap();
        std::fs::write(state_of("parsa-mttf"), b"{ truncated").unwrap();
        let kept = finished_elsewhere(&select(&["crsa".into()]).unwrap(), state_of);
        let ids: Vec<&str> = kept.iter().map(|o| o.result.id.as_str()).collect();
        assert_eq!(ids, ["parsa-power"]);
        let kept = finished_elsewhere(&select(&["parsa".into()]).unwrap(), state_of);
        assert!(
            kept.is_empty(),
            "selected experiments are run or resumed, not kept"
        );
    }
}
