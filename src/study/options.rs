//! What a study runs ([`StudyOptions`]) and what an earlier run already finished
//! ([`Finished`]): plain data, shared by the study and its command.
use crate::results::Profile;
use std::path::PathBuf;

/// The papers' ids, in report order (the registry: [`crate::claims::papers`]).
pub use crate::claims::papers::IDS as PAPER_IDS;

/// What to run.
#[derive(Clone, Debug)]
pub struct StudyOptions {
    /// The profile.
    pub profile: Profile,
    /// The output folder (created if missing).
    pub out: PathBuf,
    /// Only these seeds (ids from [`PAPER_IDS`]); empty = all.
    pub only: Vec<String>,
    /// MPI result files (`parcrypt-mpi ... --json`) to show beside the thread experiments,
    /// besides the `*.json` found in the output folder's `mpi/` ([`experiments::mpi_runs`](super::experiments::mpi_runs)).
    pub mpi_results: Vec<PathBuf>,
    /// Measure the selected experiments again even where `out` holds them finished.
    pub fresh: bool,
    /// The results archive by machine to set the run beside ([`super::archive`]), if any.
    pub archive: Option<PathBuf>,
}

/// A selected experiment an earlier run already finished in the output folder.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The experiment's id.
    pub id: String,
    /// When its state file was written (UTC, RFC 3339), or "unknown".
    pub at: String,
    /// Seconds it took then.
    pub elapsed_s: f64,
}
