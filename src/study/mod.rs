//! The study: one command that runs every seed paper's experiments at sizes that fit a
//! profile, keeps each finished experiment on disk (so an interrupted study resumes), and
//! writes results.json, one CSV per experiment, report.md and a self-contained report.html.
//!
//! Layout of the output folder:
//! - `experiments/<id>.json`: one [`ExperimentResult`] per finished experiment (the resume
//!   state; delete one to run it again);
//! - `results.json`: [`StudyResults`] — machine, profile, every experiment, every claim;
//! - `<id>.csv`: each experiment's table;
//! - `report.md`, `report.html`: the report (see [`crate::report`]).
pub mod experiments;
pub mod model;

pub use model::{Chart, ChartKind, Claim, ExperimentResult, Provenance, Series, Table, Verdict};

use crate::bench::MachineInfo;
use crate::error::{Error, Result};
use crate::io::write_atomic;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// How big the experiments are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    /// Small sizes: the whole study in under 10 minutes on a 2-core machine.
    Quick,
    /// The papers' sizes where feasible: hours.
    Full,
}

impl Profile {
    /// "quick" or "full".
    pub fn name(self) -> &'static str {
        match self {
            Profile::Quick => "quick",
            Profile::Full => "full",
        }
    }
}

/// What every experiment receives.
pub struct Context {
    /// The profile.
    pub profile: Profile,
    /// The machine the study runs on.
    pub machine: MachineInfo,
}

/// One experiment of the study.
pub trait Experiment {
    /// Stable id, e.g. "seed000-fig6".
    fn id(&self) -> &'static str;
    /// The seed it belongs to, e.g. "seed000".
    fn seed(&self) -> &'static str;
    /// Expected seconds under `profile` on a 2-core machine (for the time estimate).
    fn estimate_s(&self, profile: Profile) -> f64;
    /// Runs it.
    fn run(&self, ctx: &Context) -> Result<ExperimentResult>;
}

/// The seed ids, in report order.
pub const SEEDS: [&str; 5] = ["seed000", "seed001", "seed002", "seed003", "seed004"];

/// Everything the study wrote, as stored in results.json.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct StudyResults {
    /// The machine.
    pub machine: MachineInfo,
    /// The profile used.
    pub profile: Profile,
    /// parcrypt's version.
    pub parcrypt_version: String,
    /// The experiments, in report order.
    pub experiments: Vec<ExperimentResult>,
    /// Ids of experiments reused from an earlier, interrupted run.
    pub resumed: Vec<String>,
}

impl StudyResults {
    /// Every claim of every experiment.
    pub fn claims(&self) -> impl Iterator<Item = &Claim> {
        self.experiments.iter().flat_map(|e| e.claims.iter())
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
}

/// The experiments `opts` selects, checking the seed names.
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

/// Runs the study. `progress(done, total, id)` is called before each experiment.
pub fn run(
    opts: &StudyOptions,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<StudyResults> {
    let selected = select(&opts.only)?;
    let state_dir = opts.out.join("experiments");
    std::fs::create_dir_all(&state_dir).map_err(io_err(&state_dir))?;
    let ctx = Context {
        profile: opts.profile,
        machine: MachineInfo::detect(),
    };
    let mut results = Vec::new();
    let mut resumed = Vec::new();
    for (i, exp) in selected.iter().enumerate() {
        progress(i, selected.len(), exp.id());
        let state = state_dir.join(format!("{}.{}.json", exp.id(), opts.profile.name()));
        if let Some(done) = load_finished(&state) {
            resumed.push(done.id.clone());
            results.push(done);
            continue;
        }
        let started = Instant::now();
        let mut result = exp.run(&ctx)?;
        result.elapsed_s = started.elapsed().as_secs_f64();
        let json = serde_json::to_vec_pretty(&result)
            .map_err(|e| Error::Export(format!("{}: {e}", exp.id())))?;
        write_atomic(&state, &json, None)?;
        results.push(result);
    }
    progress(selected.len(), selected.len(), "report");
    let study = StudyResults {
        machine: ctx.machine,
        profile: opts.profile,
        parcrypt_version: env!("CARGO_PKG_VERSION").to_string(),
        experiments: results,
        resumed,
    };
    write_outputs(&study, &opts.out)?;
    Ok(study)
}

/// An experiment finished by an earlier run, if its file is there and readable.
fn load_finished(path: &Path) -> Option<ExperimentResult> {
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Writes results.json, the CSVs and both reports.
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
    }
    write_atomic(
        &out.join("report.md"),
        crate::report::markdown(study).as_bytes(),
        None,
    )?;
    write_atomic(
        &out.join("report.html"),
        crate::report::html(study)?.as_bytes(),
        None,
    )?;
    Ok(())
}

/// The expected duration of a study, in seconds.
pub fn estimate(only: &[String], profile: Profile) -> Result<f64> {
    Ok(select(only)?.iter().map(|e| e.estimate_s(profile)).sum())
}
