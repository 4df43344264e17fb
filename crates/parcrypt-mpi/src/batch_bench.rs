//! SeRSA / PaRSA over MPI ranks, measured (PaRSA): the key sent to every rank, the batch
//! built and checked on rank 0, SeRSA on rank 0 alone and every schedule and chunk over ranks
//! ([`super::batch`]'s protocol) interleaved by the harness in the same run, and one record
//! per configuration in `bench rsa`'s schema with the MPI fields added.
use super::batch::{BatchPlan, Job, Master, master_run, serve};
use super::comm::Ranks;
use super::error::{MpiError, MpiResult};
use super::record::{MpiFields, end_sweep, interleaved};
use parcrypt::hazmat::batch::{self, Transform};
use parcrypt::parallel::{Executor, RunStats, Schedule, ScheduleSpec, ThreadStats};
use parcrypt::rsa::keys::RsaPrivateKey;
use parcrypt_harness::bench::{Bench, Sampled};
use parcrypt_harness::energy::meter::{EnergyTally, RunMeter};
use parcrypt_harness::records::rsa::{BatchOp, Placement, RsaBenchRecord, record};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// One result: the thread benchmark's record, the MPI fields and the master's role.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchRecord {
    /// As `bench rsa` writes it; `threads` is threads per rank, `efficiency` is speedup /
    /// (ranks x threads), `imbalance` and `chunks_taken` are over the working ranks.
    #[serde(flatten)]
    pub base: RsaBenchRecord,
    /// `backend`, `ranks`, `hosts`.
    #[serde(flatten)]
    pub mpi: MpiFields,
    /// Whether rank 0 computed too (`null` for SeRSA).
    pub master: Option<Master>,
}

/// Runs the sweep on every rank. Rank 0 gets the records (SeRSA first); other ranks `None`.
/// The key is rank 0's, sent to the others.
pub fn run(
    ranks: &Ranks,
    key: Option<&RsaPrivateKey>,
    plan: &BatchPlan,
) -> MpiResult<Option<Vec<BatchRecord>>> {
    plan.validate(ranks.size())?;
    let pem = match key {
        Some(k) if ranks.is_root() => Some(parcrypt::rsa::pem::private_key_to_pem(
            k,
            parcrypt::rsa::pem::KeyFormat::Pkcs1,
        )?),
        _ => None,
    };
    let pem_bytes = zeroize::Zeroizing::new(ranks.broadcast(pem.as_ref().map(|p| p.as_bytes())));
    let key =
        ranks.agree(parcrypt::rsa::pem::load_private_key(&pem_bytes).map_err(MpiError::from))?;
    let transform = match plan.op {
        BatchOp::Encrypt => Transform::Encrypt(key.public()),
        BatchOp::Decrypt => Transform::Decrypt(&key, plan.private_op),
    };
    let width = key.public().size_bytes();
    let mut job = Job {
        transform,
        width,
        inputs: Vec::new(),
        expected: Vec::new(),
    };
    if ranks.is_root() {
        let msgs = batch::messages(key.public(), plan.messages, plan.seed);
        let cts = batch::serial(Transform::Encrypt(key.public()), &msgs);
        (job.inputs, job.expected) = match plan.op {
            BatchOp::Encrypt => (msgs, cts),
            BatchOp::Decrypt => (cts, msgs),
        };
    }
    let executor = Executor::new(
        plan.threads,
        ScheduleSpec {
            schedule: Schedule::Static,
            chunk: None,
        },
        false,
    )?;
    let configs = plan.configurations();
    let mut meter = RunMeter::auto();
    // Rank 0 runs a compute thread beside the thread that serves when it works.
    ranks.set_threads_per_rank(plan.threads + usize::from(plan.master == Master::Works));
    if !ranks.is_root() {
        serve(ranks, &job, &executor, &configs, &mut meter)?;
        return Ok(None);
    }
    let (summaries, stats, tallies) = end_sweep(
        ranks,
        drive(ranks, plan, &job, &executor, &configs, &mut meter),
    )?;
    records(ranks, plan, &key, &configs, &summaries, &stats, &tallies).map(Some)
}

type Driven = (Vec<Sampled>, Vec<RunStats>, Vec<EnergyTally>);

/// Rank 0: SeRSA (run 0) and every configuration, interleaved by the harness.
fn drive(
    ranks: &Ranks,
    plan: &BatchPlan,
    job: &Job<'_>,
    executor: &Executor,
    configs: &[ScheduleSpec],
    meter: &mut RunMeter,
) -> MpiResult<Driven> {
    let bench = Bench::new(plan.config)?;
    let n = configs.len() + 1;
    let mut stats = vec![RunStats::default(); n];
    let mut tallies = vec![EnergyTally::default(); n];
    let summaries = interleaved(&bench, n, |i| {
        if i == 0 {
            let ((out, secs), energy) = meter.measure(|| {
                let t = Instant::now();
                let out = batch::serial(job.transform, &job.inputs);
                (out, t.elapsed().as_secs_f64())
            });
            tallies[0].push(energy);
            stats[0] = RunStats {
                threads: vec![ThreadStats {
                    items: out.len(),
                    chunks: 1,
                    busy_s: secs,
                }],
            };
            if out != job.expected {
                return Err(MpiError::Protocol("SeRSA disagrees with itself".into()));
            }
            return Ok(secs);
        }
        ranks.command_run((i - 1) as u32);
        let (out, secs, run_stats, energy) =
            master_run(ranks, plan, job, executor, configs[i - 1], meter)?;
        tallies[i].push(energy);
        stats[i] = run_stats;
        if out != job.expected {
            return Err(MpiError::Protocol(format!(
                "{} over {} ranks gave an output different from SeRSA",
                configs[i - 1],
                ranks.size()
            )));
        }
        Ok(secs)
    })?;
    Ok((summaries, stats, tallies))
}

/// Rank 0: the records, SeRSA first.
fn records(
    ranks: &Ranks,
    plan: &BatchPlan,
    key: &RsaPrivateKey,
    configs: &[ScheduleSpec],
    summaries: &[Sampled],
    stats: &[RunStats],
    tallies: &[EnergyTally],
) -> MpiResult<Vec<BatchRecord>> {
    let baseline = summaries[0].median;
    let batch_bytes = (plan.messages * key.public().size_bytes()) as f64;
    let warmup = plan.config.warmup_runs as usize;
    let per_host = ranks.ranks_per_host();
    let mut out = Vec::with_capacity(summaries.len());
    for (i, s) in summaries.iter().enumerate() {
        let (spec, mpi, workers, threads, master) = if i == 0 {
            let spec = ScheduleSpec {
                schedule: Schedule::Static,
                chunk: None,
            };
            (spec, MpiFields::threads(ranks), 1, 1, None)
        } else {
            let workers = ranks.size() - usize::from(plan.master == Master::Waits);
            (
                configs[i - 1],
                MpiFields::mpi(ranks),
                workers,
                plan.threads,
                Some(plan.master),
            )
        };
        let energy = tallies[i].fields(warmup, Some(batch_bytes));
        let on_host = if i == 0 { 1 } else { per_host * plan.threads };
        let place = Placement {
            threads,
            workers,
            on_host,
        };
        out.push(BatchRecord {
            base: record(
                key,
                plan.shape(),
                place,
                spec,
                s,
                baseline,
                &stats[i],
                energy,
            ),
            mpi,
            master,
        });
    }
    Ok(out)
}
