//! `parcrypt-mpi`: the seed systems over MPI ranks (`mpirun -n N parcrypt-mpi ...`, or `srun`).
//!
//! Every rank runs the same command line; rank 0 drives, checks every output against the
//! sequential reference, prints the results and writes the files. Errors: rank 0 prints one
//! line (`error: ...`) and every rank exits with the error's class (README "Exit codes"): 2
//! usage, 1 runtime, 70 internal (an output that differs from its reference, a broken
//! protocol: the line asks for a bug report); an error only one rank has seen ends the whole
//! job through `MPI_Abort`.
mod args;
mod cipher;
mod crsa;
mod pipeline;
mod rsa;
mod shared;

use clap::Parser;
// The command-line parsing `parcrypt` uses too (from the crate both share).
use parcrypt_harness::parse;
use parcrypt_mpi::{MpiError, Ranks, comm::started_by_launcher};
use std::time::Duration;

fn main() {
    // Wipe every GMP block on free before any big integer is allocated (see bignum::wipe).
    parcrypt::hazmat::bignum::wipe::install();
    tune_open_mpi();
    std::process::exit(run());
}

/// Open MPI settings read at `MPI_Init`, each set only where the user has not set it.
///
/// `btl_vader_eager_limit`: Open MPI's shared-memory transport sends a message of up to 4 KiB
/// at once; a larger one waits for a rendezvous in which both ranks must call into MPI (two
/// more handshakes). The pipeline's chunks are 8–64 KiB and a batch's replies several KiB, so
/// up to 32 KiB (the transport's fragment size, `btl_vader_max_send_size`) go eagerly: one
/// 8 KiB hop between two ranks took 12–18 µs with the default and 0.7–0.8 µs with this (mean
/// of 3000 trips, `pipeline --hops 3000`, on the 2-core build machine under load). Other MPI
/// libraries ignore it.
const OPEN_MPI_DEFAULTS: [(&str, &str); 1] = [("OMPI_MCA_btl_vader_eager_limit", "32768")];

fn tune_open_mpi() {
    for (name, value) in OPEN_MPI_DEFAULTS {
        if std::env::var_os(name).is_none() {
            // SAFETY: called first thing in `main`, before any other thread exists, so no
            // thread reads the environment while it changes.
            unsafe { std::env::set_var(name, value) };
        }
    }
}

/// This process's rank as the launcher announced it, before MPI is initialized.
fn launcher_rank() -> usize {
    [
        "OMPI_COMM_WORLD_RANK",
        "PMIX_RANK",
        "PMI_RANK",
        "SLURM_PROCID",
    ]
    .iter()
    .find_map(|v| std::env::var(v).ok()?.parse().ok())
    .unwrap_or(0)
}

fn run() -> i32 {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        // Every rank parses the same line: only rank 0 speaks.
        Err(e) => return parse::clap_exit(e, launcher_rank() == 0),
    };
    if !started_by_launcher() {
        eprintln!(
            "parcrypt-mpi: not started by mpirun or srun: running as one rank \
             (for N ranks: mpirun -n N parcrypt-mpi ...)"
        );
    }
    let ranks = match Ranks::init(Duration::from_secs_f64(cli.timeout)) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start MPI: {e}");
            return 1;
        }
    };
    // Every rank removes its temporary outputs when the launcher stops it; rank 0 says why.
    parcrypt_mpi::scratch::install_stop_handler(ranks.is_root());
    match run_program(&ranks, cli) {
        Ok(()) => 0,
        Err(e) => fail(ranks, e),
    }
}

/// Runs the chosen program on this rank.
fn run_program(ranks: &Ranks, cli: args::Cli) -> parcrypt_mpi::MpiResult<()> {
    use args::Program;
    match cli.program {
        Program::Rsa(a) => rsa::run(ranks, a),
        Program::Pipeline(a) => pipeline::run(ranks, a),
        Program::Crsa(a) => crsa::run(ranks, a),
        Program::Cipher(a) => cipher::run(ranks, a),
    }
}

/// Reports `e` and ends this rank: a collective error from rank 0 with a clean finalize, a
/// local one from the rank that saw it, ending every rank.
fn fail(ranks: Ranks, e: MpiError) -> i32 {
    let status = e.exit_status();
    if e.is_collective() {
        if ranks.is_root() {
            eprintln!("error: {}", one_line(&e));
            parcrypt_mpi::scratch::stop_quietly(status);
        }
        // No rank exits (and so makes the launcher stop the job) before rank 0 has spoken; a
        // rank that never comes (the error was not seen everywhere) ends the job at the timeout.
        ranks.barrier();
        drop(ranks);
        return status;
    }
    eprintln!("error: rank {}: {}", ranks.rank(), one_line(&e));
    ranks.abort(status)
}

fn one_line(e: &MpiError) -> String {
    e.to_string().replace('\n', " ")
}
