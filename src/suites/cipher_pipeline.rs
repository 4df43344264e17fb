//! The round-pipeline chunk sweep (SCC Blowfish, Fig. 8 and Fig. 9): Blowfish encryption then
//! decryption of one message through the pipeline, for every chunk size and stage count,
//! against the same work done sequentially on one thread in the same invocation.
//!
//! The seed ran 36 stages on 36 of the SCC's cores (533 MHz P54C cores, synchronous message
//! passing over a mesh) and found an 8 KB optimum and a 27x speedup. Here the stages are
//! threads on however many cores the machine has, so the sweep shows what a round pipeline
//! costs when stages outnumber cores; the per-stage busy and wait times say where time goes.
//! [`run_with_folded`] adds rows of the folded pipeline
//! ([`parcrypt::cipher::parallel::bf_folded::FoldedPipeline`]: the rounds folded into a
//! few stage groups, lock-free hand-off), the form that pays on a machine with few cores.
use crate::bench::{Bench, BenchConfig, Seconds, Summary, TimingColumns, TimingFields};
use crate::error::{Error, Result};
use parcrypt::cipher::blowfish::{BLOCK, Blowfish};
use parcrypt::cipher::parallel::bf_folded::{FoldedConfig, FoldedPipeline};
use parcrypt::cipher::parallel::bf_pipeline::{BfPipeline, Layout, PipelineConfig, PipelineStats};
use rand::{RngCore, SeedableRng};

pub use parcrypt_harness::records::pipeline::{
    PipelineBenchRecord, closest_to_median, rounds_range,
};
use std::time::Instant;

/// What to sweep.
#[derive(Clone, Debug)]
pub struct PipelineBenchPlan {
    /// Chunk sizes in bytes (multiples of 8).
    pub chunks: Vec<usize>,
    /// Total stage counts (input and output included), 3 to 36.
    pub stages: Vec<usize>,
    /// Message bytes (rounded up to whole blocks); the seed used 1 MB.
    pub size_bytes: usize,
    /// Chunks each channel buffers (0 = rendezvous).
    pub capacity: usize,
    /// Seed of the random key and message.
    pub seed: u64,
    /// Repetition rules.
    pub config: BenchConfig,
}

impl PipelineBenchPlan {
    /// Checks the lists and the size.
    pub fn validate(&self) -> Result<()> {
        if self.chunks.is_empty() || self.stages.is_empty() || self.size_bytes == 0 {
            return Err(Error::InvalidParameter(
                "need at least one chunk, one stage count and a positive size".into(),
            ));
        }
        // The input, its ECB reference, the output and the tapped middle are held at once.
        crate::bench::memory::check_fits(
            4 * self.size_bytes.div_ceil(8) as u128 * 8,
            &format!("--size {} (4 buffers)", self.size_bytes),
        )?;
        for &chunk_bytes in &self.chunks {
            for &stages in &self.stages {
                PipelineConfig {
                    layout: Layout::EncryptDecrypt,
                    chunk_bytes,
                    stages,
                    capacity: self.capacity,
                }
                .validate()?;
            }
        }
        self.config.validate()
    }

    /// The pipeline configurations, stage counts outermost.
    pub fn configurations(&self) -> Vec<PipelineConfig> {
        let mut out = Vec::new();
        for &stages in &self.stages {
            for &chunk_bytes in &self.chunks {
                out.push(PipelineConfig {
                    layout: Layout::EncryptDecrypt,
                    chunk_bytes,
                    stages,
                    capacity: self.capacity,
                });
            }
        }
        out
    }
}

/// Runs the sweep. Returns one record per configuration, the sequential baseline first, and
/// the per-stage statistics of each pipeline configuration's median run (same order, without
/// the baseline).
pub fn run(
    plan: &PipelineBenchPlan,
    progress: impl FnMut(usize, usize, &str),
) -> Result<(Vec<PipelineBenchRecord>, Vec<PipelineStats>)> {
    run_with_folded(plan, &[], progress)
}

/// A pipeline under test: the seed's layout or the folded one.
enum Piped<'a> {
    Seed(BfPipeline<'a>),
    Folded(FoldedPipeline<'a>),
}

impl Piped<'_> {
    fn label(&self) -> String {
        match self {
            Piped::Seed(p) => format!(
                "{} stages, chunk {}",
                p.config().stages,
                p.config().chunk_bytes
            ),
            Piped::Folded(p) => format!(
                "folded {} groups, chunk {}",
                p.config().groups,
                p.config().chunk_bytes
            ),
        }
    }

    fn run(&self, data: &mut [u8]) -> Result<PipelineStats> {
        match self {
            Piped::Seed(p) => Ok(p.run(data)?),
            Piped::Folded(p) => Ok(p.run(data)?),
        }
    }
}

/// [`run`], plus the folded pipeline with each of `groups` stage groups (1 to 34) at every
/// chunk size of the plan, after the seed's configurations.
pub fn run_with_folded(
    plan: &PipelineBenchPlan,
    groups: &[usize],
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<(Vec<PipelineBenchRecord>, Vec<PipelineStats>)> {
    plan.validate()?;
    let folded = folded_configurations(plan, groups);
    for c in &folded {
        c.validate()?;
    }
    let message = Message::new(plan)?;
    let pipelines = checked_pipelines(&message, &plan.configurations(), &folded)?;
    let timed = time_sweep(plan, &message, &pipelines, &mut progress)?;
    sweep_records(&pipelines, timed)
}

/// The random key's schedule, the message and its Blowfish ECB encryption.
struct Message {
    bf: Blowfish,
    input: Vec<u8>,
    ecb: Vec<u8>,
}

impl Message {
    fn new(plan: &PipelineBenchPlan) -> Result<Self> {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(plan.seed);
        let mut key = [0u8; 16];
        rng.fill_bytes(&mut key);
        let bf = Blowfish::new(&key)?;
        let mut input = vec![0u8; plan.size_bytes.div_ceil(BLOCK) * BLOCK];
        rng.fill_bytes(&mut input);
        let mut ecb = input.clone();
        bf.encrypt_blocks(&mut ecb)?;
        Ok(Message { bf, input, ecb })
    }
}

/// Builds every pipeline and checks one untimed run of each against the message and its ECB
/// encryption: the seed's layout through its tapped middle, the folded one by encrypting alone.
fn checked_pipelines<'a>(
    m: &'a Message,
    configs: &[PipelineConfig],
    folded: &[FoldedConfig],
) -> Result<Vec<Piped<'a>>> {
    let (bf, input, ecb) = (&m.bf, &m.input, &m.ecb);
    let mut pipelines = Vec::with_capacity(configs.len() + folded.len());
    for c in configs {
        let p = BfPipeline::new(bf, *c)?;
        let (mut out, mut mid) = (input.clone(), vec![0u8; input.len()]);
        p.run_tapped(&mut out, &mut mid)?;
        if out != *input || mid != *ecb {
            return Err(Error::internal(format!(
                "pipeline {c:?} gave a wrong result"
            )));
        }
        pipelines.push(Piped::Seed(p));
    }
    for c in folded {
        let mut out = input.clone();
        FoldedPipeline::new(bf, *c)?.run(&mut out)?;
        let mut enc = input.clone();
        let only_encrypt = FoldedConfig {
            layout: Layout::Encrypt,
            ..*c
        };
        FoldedPipeline::new(bf, only_encrypt)?.run(&mut enc)?;
        if out != *input || enc != *ecb {
            return Err(Error::internal(format!(
                "folded pipeline {c:?} gave a wrong result"
            )));
        }
        pipelines.push(Piped::Folded(FoldedPipeline::new(bf, *c)?));
    }
    Ok(pipelines)
}

/// What the timed sweep measured: every configuration's samples (the baseline first), each
/// pipeline's per-run statistics, and the message bytes.
struct Timed {
    measurements: Vec<crate::bench::Measurement>,
    stats: Vec<Vec<PipelineStats>>,
    size: usize,
}

/// Times the sequential baseline and every pipeline, interleaved, then checks that the
/// message came back whole.
fn time_sweep(
    plan: &PipelineBenchPlan,
    m: &Message,
    pipelines: &[Piped],
    progress: &mut impl FnMut(usize, usize, &str),
) -> Result<Timed> {
    let (bf, input) = (&m.bf, &m.input);
    let mut work = input.clone();
    let bench = Bench::new(plan.config)?;
    let mut done = 0usize;
    let labels: Vec<String> = pipelines.iter().map(Piped::label).collect();
    let mut stats: Vec<Vec<PipelineStats>> = vec![Vec::new(); pipelines.len()];
    let mut failures = crate::bench::Failures::new();
    // Run 0 is sequential Blowfish (encrypt then decrypt); run i > 0 is pipeline i − 1.
    let measurements = bench.run_interleaved_steps(
        1 + pipelines.len(),
        |i| {
            if i == 0 {
                let t = Instant::now();
                let ok = bf.round_trip_blocks(&mut work);
                let wall = t.elapsed().as_secs_f64();
                failures.note("sequential Blowfish", ok);
                wall
            } else {
                match failures.note(&labels[i - 1], pipelines[i - 1].run(&mut work)) {
                    Some(run) => {
                        let wall = run.wall_s;
                        stats[i - 1].push(run);
                        wall
                    }
                    None => f64::NAN,
                }
            }
        },
        |step| {
            done = step.done + 1;
            let label = match step.config {
                0 => "sequential",
                i => labels[i - 1].as_str(),
            };
            progress(step.done, step.planned.unwrap_or(0), label);
        },
    );
    failures.check("encrypt + decrypt round trip", work == *input);
    failures.result()?;
    progress(done, done, "done");
    Ok(Timed {
        measurements,
        stats,
        size: work.len(),
    })
}

/// One record per configuration (the baseline first) and the per-stage statistics of each
/// pipeline's median run.
fn sweep_records(
    pipelines: &[Piped],
    timed: Timed,
) -> Result<(Vec<PipelineBenchRecord>, Vec<PipelineStats>)> {
    let Timed {
        measurements,
        stats,
        size,
    } = timed;
    let summaries =
        crate::bench::summaries(&measurements).ok_or_else(|| Error::internal("no samples"))?;
    let base = summaries[0].median;
    let record = |s: &Summary, times: &[Seconds], alg: &str, stages: usize| PipelineBenchRecord {
        alg: alg.into(),
        threads: stages,
        stages,
        rounds_per_stage: "34".into(),
        size_bytes: size,
        chunk_bytes: None,
        timing: TimingFields::new(s, times.to_vec(), TimingColumns::RANGE),
        mb_per_s: size as f64 / s.median / 1e6,
        speedup: base / s.median,
        bottleneck: "-".into(),
        bottleneck_busy: 1.0,
        mean_busy: 1.0,
        mean_recv_wait: 0.0,
        mean_send_wait: 0.0,
        oversubscribed: crate::bench::oversubscribed(stages),
        verified: true,
        note: s.note().unwrap_or_default(),
    };
    let mut records = vec![record(
        &summaries[0],
        &measurements[0].samples,
        "blowfish-ecb",
        1,
    )];
    let mut medians = Vec::new();
    for (((p, s), runs), m) in pipelines
        .iter()
        .zip(&summaries[1..])
        .zip(stats)
        .zip(&measurements[1..])
    {
        let st = median_run(&runs, s);
        let mut r = match p {
            Piped::Seed(p) => {
                let mut r = record(s, &m.samples, "bf-pipeline", p.config().stages);
                r.chunk_bytes = Some(p.config().chunk_bytes);
                r
            }
            Piped::Folded(p) => {
                let mut r = record(s, &m.samples, "bf-folded", p.config().groups);
                r.chunk_bytes = Some(p.config().chunk_bytes);
                r
            }
        };
        fill_stage_columns(&mut r, &st);
        records.push(r);
        medians.push(st);
    }
    Ok((records, medians))
}

/// Statistics of the run whose wall time is closest to the median, warm-ups excluded.
fn median_run(runs: &[PipelineStats], s: &Summary) -> PipelineStats {
    closest_to_median(runs, s.runs, s.median, |r| r.wall_s)
        .cloned()
        .unwrap_or_default()
}

/// The rounds, bottleneck and busy/wait columns of a pipeline's record, from its median run.
fn fill_stage_columns(r: &mut PipelineBenchRecord, st: &PipelineStats) {
    r.rounds_per_stage = rounds_range(st.stages.iter().map(|x| x.rounds));
    let frac = |f: &dyn Fn(&parcrypt::cipher::parallel::bf_pipeline::StageStats) -> f64| {
        let n = st.stages.len().max(1) as f64;
        st.stages.iter().map(f).sum::<f64>() / n / st.wall_s.max(f64::MIN_POSITIVE)
    };
    if let Some(b) = st.bottleneck() {
        r.bottleneck = b.name.clone();
        r.bottleneck_busy = b.busy_s / st.wall_s.max(f64::MIN_POSITIVE);
    }
    r.mean_busy = st.mean_busy_fraction();
    r.mean_recv_wait = frac(&|x| x.recv_wait_s);
    r.mean_send_wait = frac(&|x| x.send_wait_s);
}

/// The folded configurations: encrypt+decrypt, every group count, every chunk of the plan.
fn folded_configurations(plan: &PipelineBenchPlan, groups: &[usize]) -> Vec<FoldedConfig> {
    let mut out = Vec::new();
    for &g in groups {
        for &chunk_bytes in &plan.chunks {
            out.push(FoldedConfig {
                chunk_bytes,
                capacity: plan.capacity.max(1),
                ..FoldedConfig::new(Layout::EncryptDecrypt, g)
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sweep_verifies_and_reports_stage_statistics() {
        let plan = PipelineBenchPlan {
            chunks: vec![64, 4096],
            stages: vec![36, 4],
            size_bytes: 10_000,
            capacity: 1,
            seed: 1,
            config: BenchConfig {
                warmup_runs: 1,
                ..BenchConfig::exact(2)
            },
        };
        let mut calls = 0;
        let (recs, stats) = run(&plan, |_, _, _| calls += 1).unwrap();
        // A call before each of the 5 x (1 + 2) runs, warm-ups included, and one at the end.
        assert_eq!((recs.len(), stats.len(), calls), (5, 4, 16));
        assert_eq!(recs[0].alg, "blowfish-ecb");
        assert_eq!(recs[1].stages, 36);
        assert_eq!(recs[1].rounds_per_stage, "1");
        assert_eq!(recs[3].rounds_per_stage, "17");
        assert!(stats.iter().all(|s| !s.stages.is_empty()));
        assert!(recs.iter().all(|r| r.verified && r.size_bytes == 10_000));
    }

    #[test]
    fn folded_rows_follow_the_seed_rows() {
        let plan = PipelineBenchPlan {
            chunks: vec![64, 1000 * 8],
            stages: vec![4],
            size_bytes: 10_000,
            capacity: 0,
            seed: 2,
            config: BenchConfig::exact(1),
        };
        let (recs, stats) = run_with_folded(&plan, &[1, 2], |_, _, _| {}).unwrap();
        let algs: Vec<&str> = recs.iter().map(|r| r.alg.as_str()).collect();
        assert_eq!(
            algs,
            [
                "blowfish-ecb",
                "bf-pipeline",
                "bf-pipeline",
                "bf-folded",
                "bf-folded",
                "bf-folded",
                "bf-folded"
            ]
        );
        assert_eq!(
            (recs[3].stages, recs[3].rounds_per_stage.as_str()),
            (1, "32")
        );
        assert_eq!(
            (recs[5].stages, recs[5].rounds_per_stage.as_str()),
            (2, "16")
        );
        assert_eq!(recs[6].chunk_bytes, Some(8000));
        assert_eq!((stats[2].stages.len(), stats[4].stages.len()), (1, 2));
        assert!(run_with_folded(&plan, &[35], |_, _, _| {}).is_err());
    }

    #[test]
    fn bad_plans_are_refused() {
        let mut plan = PipelineBenchPlan {
            chunks: vec![12],
            stages: vec![36],
            size_bytes: 64,
            capacity: 1,
            seed: 1,
            config: BenchConfig::exact(1),
        };
        assert!(plan.validate().is_err());
        plan.chunks = vec![64];
        plan.stages = vec![2];
        assert!(plan.validate().is_err());
    }
}
