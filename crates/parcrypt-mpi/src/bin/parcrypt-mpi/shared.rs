//! What the four programs share: usage errors, rank 0's checks before the work, the
//! `N ranks on H hosts` line and the JSON report.
use parcrypt_harness::bench::{BenchReport, ExportFormat, MachineInfo};
use parcrypt_mpi::{MpiError, MpiResult, Ranks};
use serde::Serialize;
use std::path::Path;

/// A usage error every rank found alike.
pub fn usage(msg: impl Into<String>) -> MpiError {
    MpiError::Usage(msg.into())
}

/// Rank 0: writes `results` as a JSON report (atomically) if asked.
pub fn write_json<R: Serialize>(path: Option<&Path>, results: Vec<R>) -> MpiResult<()> {
    if let Some(path) = path {
        // The machine as a process without a launcher's binding sees it (its CPU count).
        let machine = {
            let _all = parcrypt_mpi::host::AllCpus::new();
            MachineInfo::detect()
        };
        let report = BenchReport::new(machine, results);
        parcrypt_harness::bench::export(&report, ExportFormat::Json, path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Rank 0 warns when a rank's threads outnumber the CPUs the launcher bound it to (Open MPI
/// binds each of 2 ranks to one core): they would take turns on them.
pub fn warn_if_bound(ranks: &Ranks, threads: usize) {
    let cpus = parcrypt_mpi::host::bound_cpus();
    if ranks.is_root() && threads > cpus {
        eprintln!(
            "warning: each rank runs {threads} threads on the {cpus} CPU(s) the launcher bound it \
             to; start with `mpirun --bind-to none` (or `srun --cpus-per-task={threads}`)"
        );
    }
}

/// Checks before any work that rank 0 can write `path` (so a bad --json fails first).
pub fn check_writable(ranks: &Ranks, path: Option<&Path>) -> MpiResult<()> {
    let local = match path {
        Some(p) if ranks.is_root() => parcrypt::io::check_writable(p).map_err(MpiError::from),
        _ => Ok(()),
    };
    ranks.agree(local)
}

/// `N ranks on H host(s) (names)`.
pub fn on_hosts(ranks: &Ranks) -> String {
    let names = ranks.host_names();
    format!(
        "{} rank{} on {} host{} ({})",
        ranks.size(),
        if ranks.size() == 1 { "" } else { "s" },
        names.len(),
        if names.len() == 1 { "" } else { "s" },
        names.join(", ")
    )
}
