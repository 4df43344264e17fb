//! The round pipeline's chunk sweep over ranks (SCC Blowfish, Fig. 8): Blowfish encryption then
//! decryption of one message, for every chunk size, over the ranks and — interleaved in the
//! same run, on rank 0 — over threads (the thread pipeline with as many compute stages as there
//! are ranks) and sequentially; plus the per-hop cost of both at each chunk size.
//!
//! Before timing, every chunk size is checked on the ranks: encrypt+decrypt gives back the
//! message and the encryption layout alone gives Blowfish ECB.
use super::comm::Ranks;
use super::error::{MpiError, MpiResult};
use super::host::AllCpus;
use super::pipeline::{Hop, hop_latency, run_once, thread_hop_latency};
use super::record::{MpiFields, RankEnergy, combine, end_sweep, interleaved, serve_sweep};
use parcrypt::cipher::blowfish::{BLOCK, Blowfish};
use parcrypt::cipher::parallel::bf_pipeline::{BfPipeline, Layout, PipelineConfig, StageStats};
use parcrypt_harness::bench::{Bench, BenchConfig, Sampled, TimingColumns, TimingFields};
use parcrypt_harness::energy::meter::session::RunEnergy;
use parcrypt_harness::energy::meter::{EnergyFields, EnergyTally, RunMeter};
use parcrypt_harness::records::pipeline::{PipelineBenchRecord, closest_to_median, rounds_range};
use rand::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What to sweep.
#[derive(Clone, Debug)]
pub struct PipelinePlan {
    /// Chunk sizes in bytes (multiples of 8).
    pub chunks: Vec<usize>,
    /// Message bytes (rounded up to whole blocks).
    pub size_bytes: usize,
    /// Ring trips per hop measurement.
    pub hop_trips: usize,
    /// Seed of the key and message.
    pub seed: u64,
    /// Repetition rules.
    pub config: BenchConfig,
}

/// One result: the thread benchmark's record plus the MPI fields, energy, the per-hop cost and
/// every rank's (or thread stage's) busy, receive-wait and send-wait times.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PipelineMpiRecord {
    /// As `bench pipeline` writes it (`threads` = ranks for `backend: mpi`).
    #[serde(flatten)]
    pub base: PipelineBenchRecord,
    /// `backend`, `ranks`, `hosts`.
    #[serde(flatten)]
    pub mpi: MpiFields,
    /// Energy per run, over ranks.
    #[serde(flatten)]
    pub energy: EnergyFields,
    /// One chunk moved one stage on, microseconds: the median trip around a ring of ranks, or
    /// of threads with the pipeline's channels, over its hops; `null` for the sequential
    /// baseline.
    pub hop_us: Option<f64>,
    /// The same from the mean trip (interrupted trips included); absent in older records.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hop_mean_us: Option<f64>,
    /// Per rank (or thread stage) in the median run: name, rounds, chunks, busy, receive
    /// wait and send wait seconds.
    pub stage_stats: Vec<StageStats>,
}

impl PipelinePlan {
    /// Checks the plan (identically on every rank).
    pub fn validate(&self, ranks: usize) -> MpiResult<()> {
        super::pipeline::stages(Layout::EncryptDecrypt, ranks)?;
        if self.chunks.is_empty() || self.chunks.iter().any(|&c| c == 0 || c % BLOCK != 0) {
            return Err(MpiError::Usage(format!(
                "pipeline chunks must be positive multiples of {BLOCK} bytes"
            )));
        }
        if self.size_bytes == 0 || self.hop_trips == 0 {
            return Err(MpiError::Usage(
                "size and hop trips must be at least 1".into(),
            ));
        }
        self.config.validate()?;
        Ok(())
    }
}

/// Runs the sweep on every rank; rank 0 gets the records (sequential first, then per chunk
/// size the ranks and the threads).
pub fn run(ranks: &Ranks, plan: &PipelinePlan) -> MpiResult<Option<Vec<PipelineMpiRecord>>> {
    plan.validate(ranks.size())?;
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(plan.seed);
    let mut key = [0u8; 16];
    rng.fill_bytes(&mut key);
    let bf = Blowfish::new(&key)?;
    let size = plan.size_bytes.div_ceil(BLOCK) * BLOCK;
    let mut input = Vec::new();
    let mut ecb = Vec::new();
    if ranks.is_root() {
        input = vec![0u8; size];
        rng.fill_bytes(&mut input);
        ecb = input.clone();
        bf.encrypt_blocks(&mut ecb)?;
    }
    // Byte-equality with the sequential reference at every chunk size, before any timing.
    let mut hops = Vec::new();
    for &chunk in &plan.chunks {
        let (round_trip, _, _) = run_once(ranks, &bf, Layout::EncryptDecrypt, chunk, &input, size)?;
        let (encrypted, _, _) = run_once(ranks, &bf, Layout::Encrypt, chunk, &input, size)?;
        let ok = !ranks.is_root() || (round_trip == input && encrypted == ecb);
        ranks.agree(if ok {
            Ok(())
        } else {
            Err(MpiError::Protocol(format!(
                "the pipeline over ranks gave a wrong result at chunk {chunk}"
            )))
        })?;
        let over_ranks = hop_latency(ranks, chunk, plan.hop_trips)?;
        let over_threads = if ranks.is_root() {
            let _all = AllCpus::new();
            thread_hop_latency(ranks.size(), chunk, plan.hop_trips)
        } else {
            over_ranks
        };
        hops.push((over_ranks, over_threads));
    }
    let mut meter = RunMeter::auto();
    if !ranks.is_root() {
        serve(ranks, plan, &bf, size, &mut meter)?;
        return Ok(None);
    }
    let (summaries, stats, tallies) =
        end_sweep(ranks, drive(ranks, plan, &bf, &input, &mut meter))?;
    Ok(Some(records(
        ranks, plan, size, &summaries, &stats, &tallies, &hops,
    )))
}

/// Per configuration: the summary, every run's (wall, per-stage statistics), the energy.
type Driven = (
    Vec<Sampled>,
    Vec<Vec<(f64, Vec<StageStats>)>>,
    Vec<EnergyTally>,
);

/// Rank 0: run 0 sequential; run 1 + 2k the ranks at chunk k; run 2 + 2k the threads.
fn drive(
    ranks: &Ranks,
    plan: &PipelinePlan,
    bf: &Blowfish,
    input: &[u8],
    meter: &mut RunMeter,
) -> MpiResult<Driven> {
    let n = 1 + 2 * plan.chunks.len();
    let threads = thread_pipelines(ranks, plan, bf)?;
    let mut stats = vec![Vec::new(); n];
    let mut tallies = vec![EnergyTally::default(); n];
    let mut work = input.to_vec();
    let bench = Bench::new(plan.config)?;
    let mut failures = parcrypt_harness::bench::Failures::new();
    let summaries = interleaved(&bench, n, |i| {
        if i == 0 {
            let ((secs, ok), energy) = meter.measure(|| {
                let t = Instant::now();
                let ok = bf.round_trip_blocks(&mut work);
                (t.elapsed().as_secs_f64(), ok)
            });
            failures.note("sequential Blowfish", ok);
            tallies[0].push(energy);
            return Ok(secs);
        }
        let k = (i - 1) / 2;
        if i % 2 == 0 {
            let _all = AllCpus::new();
            let (run, energy) = meter.measure(|| threads[k].run(&mut work));
            tallies[i].push(energy);
            let st = run?;
            let wall = st.wall_s;
            stats[i].push((wall, st.stages));
            return Ok(wall);
        }
        let (wall, per_rank, energy) = ranks_run(ranks, plan, bf, input, k, meter)?;
        stats[i].push((wall, per_rank));
        tallies[i].push(energy);
        Ok(wall)
    })?;
    failures.check(
        "encrypt + decrypt round trip (sequential and threads)",
        work == input,
    );
    failures.result()?;
    Ok((summaries, stats, tallies))
}

/// The thread pipelines, one per chunk size, with as many compute stages as there are ranks.
fn thread_pipelines<'a>(
    ranks: &Ranks,
    plan: &PipelinePlan,
    bf: &'a Blowfish,
) -> MpiResult<Vec<BfPipeline<'a>>> {
    Ok(plan
        .chunks
        .iter()
        .map(|&chunk_bytes| {
            BfPipeline::new(
                bf,
                PipelineConfig {
                    layout: Layout::EncryptDecrypt,
                    chunk_bytes,
                    stages: ranks.size() + 2,
                    capacity: 1,
                },
            )
        })
        .collect::<parcrypt::Result<_>>()?)
}

/// Rank 0: one commanded run over the ranks at chunk size `k`, its output checked: the wall
/// time, every rank's statistics and the energy over ranks.
fn ranks_run(
    ranks: &Ranks,
    plan: &PipelinePlan,
    bf: &Blowfish,
    input: &[u8],
    k: usize,
    meter: &mut RunMeter,
) -> MpiResult<(f64, Vec<StageStats>, RunEnergy)> {
    ranks.command_run(k as u32);
    let (res, energy) = meter.measure(|| {
        run_once(
            ranks,
            bf,
            Layout::EncryptDecrypt,
            plan.chunks[k],
            input,
            input.len(),
        )
    });
    let (out, wall, own) = res?;
    let mut per_rank = Vec::new();
    let mut readings = Vec::new();
    for msg in report(ranks, own, &energy).unwrap_or_default() {
        let (st, e): (StageStats, RankEnergy) = serde_json::from_slice(&msg)
            .map_err(|e| MpiError::Protocol(format!("bad report: {e}")))?;
        per_rank.push(st);
        readings.push(e);
    }
    if out != input {
        return Err(MpiError::Protocol(
            "pipeline output differs from its input".into(),
        ));
    }
    let energy = combine(&readings, wall);
    Ok((wall, per_rank, energy))
}

/// Every rank's statistics and energy of a run, gathered on rank 0.
fn report(ranks: &Ranks, st: StageStats, energy: &RunEnergy) -> Option<Vec<Vec<u8>>> {
    let e = RankEnergy::of(&ranks.host_of_ranks()[ranks.rank()], energy);
    let msg = serde_json::to_vec(&(st, e)).expect("plain fields serialize");
    ranks.gather(&msg)
}

/// A worker rank: its stage of each commanded run, then its statistics and energy.
fn serve(
    ranks: &Ranks,
    plan: &PipelinePlan,
    bf: &Blowfish,
    size: usize,
    meter: &mut RunMeter,
) -> MpiResult<()> {
    serve_sweep(ranks, |k| {
        let chunk = *plan
            .chunks
            .get(k as usize)
            .ok_or_else(|| MpiError::Protocol(format!("no chunk size {k}")))?;
        let (res, energy) =
            meter.measure(|| run_once(ranks, bf, Layout::EncryptDecrypt, chunk, &[], size));
        let (_, _, st) = res?;
        report(ranks, st, &energy);
        Ok(())
    })
}

/// What every record of a sweep shares.
struct Sweep<'a> {
    ranks: &'a Ranks,
    plan: &'a PipelinePlan,
    size: usize,
    hops: &'a [(Hop, Hop)],
    /// The sequential median.
    base: f64,
}

#[allow(clippy::too_many_arguments)]
fn records(
    ranks: &Ranks,
    plan: &PipelinePlan,
    size: usize,
    summaries: &[Sampled],
    stats: &[Vec<(f64, Vec<StageStats>)>],
    tallies: &[EnergyTally],
    hops: &[(Hop, Hop)],
) -> Vec<PipelineMpiRecord> {
    let sweep = Sweep {
        ranks,
        plan,
        size,
        hops,
        base: summaries[0].median,
    };
    let warmup = plan.config.warmup_runs as usize;
    summaries
        .iter()
        .enumerate()
        .map(|(i, s)| {
            // Statistics of the run closest to the median (warm-ups excluded).
            let st: Vec<StageStats> = closest_to_median(&stats[i], s.runs, s.median, |r| r.0)
                .map(|(_, st)| st.clone())
                .unwrap_or_default();
            let is_mpi = i % 2 == 1;
            let k = i.saturating_sub(1) / 2;
            let hop = (i > 0).then(|| {
                if is_mpi {
                    sweep.hops[k].0
                } else {
                    sweep.hops[k].1
                }
            });
            PipelineMpiRecord {
                base: sweep.base_record(i, s, &st),
                mpi: if is_mpi {
                    MpiFields::mpi(ranks)
                } else {
                    MpiFields::threads(ranks)
                },
                energy: tallies[i].fields(warmup, Some(size as f64)),
                hop_us: hop.map(|h| 1e6 * h.median_s),
                hop_mean_us: hop.map(|h| 1e6 * h.mean_s),
                stage_stats: st,
            }
        })
        .collect()
}

impl Sweep<'_> {
    /// Run `i`'s columns as `bench pipeline` writes them, from its median run's stages `st`.
    fn base_record(&self, i: usize, s: &Sampled, st: &[StageStats]) -> PipelineBenchRecord {
        let (ranks, size) = (self.ranks, self.size);
        let k = i.saturating_sub(1) / 2;
        let is_mpi = i % 2 == 1;
        let wall = s.median.max(f64::MIN_POSITIVE);
        let n = st.len().max(1) as f64;
        let mean = |f: fn(&StageStats) -> f64| {
            if st.is_empty() {
                0.0
            } else {
                st.iter().map(f).sum::<f64>() / n / wall
            }
        };
        let bottleneck = st.iter().max_by(|a, b| a.busy_s.total_cmp(&b.busy_s));
        let stages = if i == 0 {
            1
        } else {
            ranks.size() + usize::from(!is_mpi) * 2
        };
        PipelineBenchRecord {
            alg: if i == 0 {
                "blowfish-ecb"
            } else {
                "bf-pipeline"
            }
            .into(),
            threads: if i == 0 { 1 } else { stages },
            stages,
            rounds_per_stage: if i == 0 {
                "34".into()
            } else {
                rounds_range(st.iter().map(|x| x.rounds))
            },
            size_bytes: size,
            chunk_bytes: (i > 0).then(|| self.plan.chunks[k]),
            timing: TimingFields::new(s, s.times.clone(), TimingColumns::RANGE),
            mb_per_s: size as f64 / s.median / 1e6,
            speedup: self.base / s.median,
            bottleneck: bottleneck.map_or("-".into(), |b| b.name.clone()),
            bottleneck_busy: bottleneck.map_or(1.0, |b| b.busy_s / wall),
            mean_busy: if i == 0 { 1.0 } else { mean(|x| x.busy_s) },
            mean_recv_wait: mean(|x| x.recv_wait_s),
            mean_send_wait: mean(|x| x.send_wait_s),
            oversubscribed: (if is_mpi {
                ranks.ranks_per_host()
            } else {
                stages
            }) > super::host::online_cpus(),
            verified: true,
            note: s.note().unwrap_or_default(),
        }
    }
}
