//! The four programs: arguments to plans, the library run on every rank, results printed and
//! written by rank 0.
use crate::args::{self, Cli, MasterArg, OpArg, Program};
use parcrypt::bench::{BenchReport, ExportFormat, MachineInfo};
use parcrypt::mpi::{MpiError, MpiResult, Ranks};
use parcrypt::parallel::Schedule;
use parcrypt::rsa::RsaPrivateKey;
use parcrypt::rsa::textbook::PrivateOp;
use parcrypt::suites::rsa::BatchOp;
use rand::SeedableRng;
use serde::Serialize;
use std::path::Path;

/// Runs the chosen program on this rank.
pub fn run(ranks: &Ranks, cli: Cli) -> MpiResult<()> {
    match cli.program {
        Program::Rsa(a) => rsa(ranks, a),
        Program::Pipeline(a) => crate::programs_more::pipeline(ranks, a),
        Program::Crsa(a) => crate::programs_more::crsa(ranks, a),
        Program::Cipher(a) => crate::programs_more::cipher(ranks, a),
    }
}

/// A usage error every rank found alike.
pub fn usage(msg: impl Into<String>) -> MpiError {
    MpiError::Usage(msg.into())
}

/// Rank 0: writes `results` as a JSON report (atomically) if asked.
pub fn write_json<R: Serialize>(path: Option<&Path>, results: Vec<R>) -> MpiResult<()> {
    if let Some(path) = path {
        // The machine as a process without a launcher's binding sees it (its CPU count).
        let machine = {
            let _all = parcrypt::mpi::host::AllCpus::new();
            MachineInfo::detect()
        };
        let report = BenchReport::new(machine, results);
        parcrypt::bench::export(&report, ExportFormat::Json, path)?;
        println!("wrote {}", path.display());
    }
    Ok(())
}

/// Rank 0 warns when a rank's threads outnumber the CPUs the launcher bound it to (Open MPI
/// binds each of 2 ranks to one core): they would take turns on them.
pub fn warn_if_bound(ranks: &Ranks, threads: usize) {
    let cpus = parcrypt::mpi::host::bound_cpus();
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

fn rsa(ranks: &Ranks, a: args::RsaArgs) -> MpiResult<()> {
    use parcrypt::mpi::batch::{BatchPlan, Master};
    let schedules = args::list(&a.schedule, |s| {
        s.parse::<Schedule>().map_err(|e| e.to_string())
    })
    .map_err(usage)?;
    let chunks = args::list(&a.chunk, |s| match s {
        "default" | "none" => Ok(None),
        _ => match s.parse::<usize>() {
            Ok(c) if c > 0 => Ok(Some(c)),
            _ => Err(format!(
                "chunk must be a positive integer or 'default', got '{s}'"
            )),
        },
    })
    .map_err(usage)?;
    let plan = BatchPlan {
        messages: a.messages,
        op: match a.op {
            OpArg::Encrypt => BatchOp::Encrypt,
            OpArg::Decrypt => BatchOp::Decrypt,
        },
        private_op: PrivateOp::CrtVartime,
        schedules,
        chunks,
        threads: a.threads,
        master: match a.master {
            MasterArg::Works => Master::Works,
            MasterArg::Waits => Master::Waits,
        },
        seed: a.seed,
        config: a.common.config(),
    };
    plan.validate(ranks.size())?;
    warn_if_bound(ranks, a.threads);
    check_writable(ranks, a.common.json.as_deref())?;
    let key = if ranks.is_root() {
        let key = match &a.key {
            // A file that cannot be read names itself; a key that cannot be parsed gets its
            // file's name.
            Some(path) => parcrypt::io::read_file(path)
                .map_err(MpiError::from)
                .and_then(|b| {
                    parcrypt::rsa::pem::load_private_key(&b)
                        .map_err(|e| usage(format!("{}: {e}", path.display())))
                }),
            None => {
                let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(a.seed);
                RsaPrivateKey::generate(a.bits, &rug::Integer::from(65537), &mut rng)
                    .map_err(|e| usage(e.to_string()))
            }
        };
        Some(ranks.agree(key)?)
    } else {
        ranks.agree(Ok(()))?;
        None
    };
    let Some(records) = parcrypt::mpi::batch_bench::run(ranks, key.as_ref(), &plan)? else {
        return Ok(());
    };
    println!(
        "{}-bit RSA {:?} of {} messages over {} ({} threads per rank, master {:?}); energy: {}",
        records[0].base.bits,
        plan.op,
        plan.messages,
        crate::programs_more::on_hosts(ranks),
        plan.threads,
        plan.master,
        records[0].base.energy.energy_source,
    );
    println!(
        "{:<8} {:>5} {:<9} {:>6} {:>11} {:>8} {:>10} {:>8}",
        "backend", "ranks", "schedule", "chunk", "median ms", "speedup", "imbalance", "chunks"
    );
    for r in &records {
        println!(
            "{:<8} {:>5} {:<9} {:>6} {:>11.3} {:>8.2} {:>10.2} {:>8}",
            r.mpi.backend,
            r.mpi.ranks,
            r.base.schedule.name(),
            r.base.chunk.map_or("-".into(), |c| c.to_string()),
            r.base.timing.median_s * 1e3,
            r.base.speedup,
            r.base.imbalance,
            r.base.chunks_taken,
        );
    }
    println!("every output equalled SeRSA's");
    write_json(a.common.json.as_deref(), records)
}
