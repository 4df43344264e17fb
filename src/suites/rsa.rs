//! The SeRSA / PaRSA benchmark (PaRSA, Figs. 5-6): time a batch of textbook RSA operations
//! for every (threads, schedule, chunk) of a grid, against the 1-thread `static` run.
//!
//! Each configuration gets its own [`Executor`] (built outside the timed region), is run
//! under the harness's warm-up/repetition rules, and its output is compared with the
//! sequential reference, so a benchmark can never report the speed of a wrong answer.
//!
//! Energy: the configurations run interleaved, batch by batch, so the meter is read around
//! every batch ([`RunMeter::measure`]) and each batch's joules go to its own configuration;
//! warm-up batches are read and left out. `measured:rapl` counts the whole package (other
//! processes too); `model:<preset>` counts this process's CPU time, whose 10 ms ticks make a
//! single short batch coarse — the record gives the mean over the measured batches.
pub use super::rsa_record::{BatchOp, BatchShape, Placement, RsaBenchRecord, record};
use crate::bench::{Bench, BenchConfig};
use crate::energy::meter::{EnergyTally, RunMeter};
use crate::error::{Error, Result};
use parcrypt::hazmat::batch::{self, Transform};
use parcrypt::hazmat::textbook::PrivateOp;
use parcrypt::parallel::{Executor, RunStats, Schedule, ScheduleSpec};
use parcrypt::rsa::keys::RsaPrivateKey;
use rug::Integer;
use std::time::Instant;

/// What to benchmark.
#[derive(Clone, Debug)]
pub struct RsaBenchPlan {
    /// Messages per batch (the seed's working-set size).
    pub messages: usize,
    /// Encrypt or decrypt.
    pub op: BatchOp,
    /// How decryption computes c^d mod n.
    pub private_op: PrivateOp,
    /// Thread counts to sweep.
    pub threads: Vec<usize>,
    /// Schedules to sweep.
    pub schedules: Vec<Schedule>,
    /// Chunk sizes to sweep (`None` = the schedule's OpenMP default).
    pub chunks: Vec<Option<usize>>,
    /// Pin worker threads to logical CPUs.
    pub pin: bool,
    /// Seed of the deterministic messages.
    pub seed: u64,
    /// Repetition rules.
    pub config: BenchConfig,
}

impl RsaBenchPlan {
    /// The configurations to run: the 1-thread `static` baseline first, then the grid in order
    /// (threads outermost, then schedule, then chunk), without repeating the baseline.
    pub fn configurations(&self) -> Vec<(usize, ScheduleSpec)> {
        let baseline = (
            1,
            ScheduleSpec {
                schedule: Schedule::Static,
                chunk: None,
            },
        );
        let mut out = vec![baseline];
        for &t in &self.threads {
            for &s in &self.schedules {
                for &c in &self.chunks {
                    let cfg = (
                        t,
                        ScheduleSpec {
                            schedule: s,
                            chunk: c,
                        },
                    );
                    if !out.contains(&cfg) {
                        out.push(cfg);
                    }
                }
            }
        }
        out
    }

    /// Checks the plan: at least one message, thread counts and chunks at least 1.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: &str| Err(Error::InvalidParameter(m.to_string()));
        if self.messages == 0 {
            return bad("messages must be at least 1");
        }
        if self.threads.is_empty() || self.threads.contains(&0) {
            return bad("thread counts must be at least 1");
        }
        if self.schedules.is_empty() {
            return bad("at least one schedule is needed");
        }
        if self.chunks.is_empty() || self.chunks.contains(&Some(0)) {
            return bad("chunk size must be at least 1");
        }
        self.config.validate()
    }
}

impl RsaBenchPlan {
    /// What each record takes from the plan.
    pub fn shape(&self) -> BatchShape {
        BatchShape {
            messages: self.messages,
            op: self.op,
            private_op: self.private_op,
            pin: self.pin,
        }
    }

    /// Refuses a batch whose integers would not fit in this machine's memory: the messages,
    /// their ciphertexts, the expected results and one run's outputs are held at once.
    pub fn check_memory(&self, modulus_bits: u64) -> Result<()> {
        crate::bench::memory::check_fits(
            4 * crate::bench::memory::integers_bytes(self.messages, modulus_bits),
            &format!("--messages {} of {modulus_bits} bits", self.messages),
        )
    }
}

/// Prepared inputs of a benchmark: the batch and its expected output.
struct Prepared {
    inputs: Vec<Integer>,
    expected: Vec<Integer>,
}

fn prepare(key: &RsaPrivateKey, plan: &RsaBenchPlan) -> Prepared {
    let msgs = batch::messages(key.public(), plan.messages, plan.seed);
    // Setup work is spread over every CPU; it is not part of any measurement.
    let helpers = crate::bench::logical_cores().max(1);
    let setup = Executor::new(
        helpers,
        ScheduleSpec {
            schedule: Schedule::Dynamic,
            chunk: Some(8),
        },
        false,
    )
    .expect("at least one thread");
    let (ciphertexts, _) = batch::parallel(&setup, Transform::Encrypt(key.public()), &msgs);
    match plan.op {
        BatchOp::Encrypt => Prepared {
            inputs: msgs,
            expected: ciphertexts,
        },
        BatchOp::Decrypt => Prepared {
            inputs: ciphertexts,
            expected: msgs,
        },
    }
}

/// Runs the benchmark. `progress(done, total, label)` is called before each measured or
/// warm-up batch: `done` measured batches of `total` planned ([`crate::bench::Step`]; 0 while
/// the warm-ups time the configurations), and once at the end with `done == total`.
///
/// The configurations run interleaved ([`Bench::run_interleaved`]): one batch each per round,
/// so drift on a shared machine touches the baseline and every other configuration alike.
/// Every batch's output is compared with the sequential reference. Energy is read with the
/// `auto` meter ([`RunMeter::auto`]: RAPL where readable, else the model of `this-machine`).
pub fn run(
    key: &RsaPrivateKey,
    plan: &RsaBenchPlan,
    progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<RsaBenchRecord>> {
    run_with_meter(key, plan, &mut RunMeter::auto(), progress)
}

/// [`run`] with a given meter ([`RunMeter::none`] for no energy figures).
pub fn run_with_meter(
    key: &RsaPrivateKey,
    plan: &RsaBenchPlan,
    meter: &mut RunMeter,
    progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<RsaBenchRecord>> {
    plan.validate()?;
    plan.check_memory(u64::from(key.public().bits()))?;
    let prepared = prepare(key, plan);
    let transform = match plan.op {
        BatchOp::Encrypt => Transform::Encrypt(key.public()),
        BatchOp::Decrypt => Transform::Decrypt(key, plan.private_op),
    };
    let bench = Bench::new(plan.config)?;
    let configs = plan.configurations();
    let executors = configs
        .iter()
        .map(|&(threads, spec)| Executor::new(threads, spec, plan.pin))
        .collect::<parcrypt::Result<Vec<_>>>()?;
    if plan.config.warmup_runs > 0 {
        global_warmup(transform, &prepared.inputs);
    }
    let mut progress = progress;
    let labels: Vec<String> = executors
        .iter()
        .map(|e| format!("{} thr {}", e.threads(), e.spec()))
        .collect();
    let mut outcomes: Vec<Outcome> =
        vec![(true, RunStats::default(), EnergyTally::default()); configs.len()];
    let mut done = 0;
    let measurements = bench.run_interleaved_steps(
        configs.len(),
        |i| {
            let ((output, stats, elapsed), energy) = meter.measure(|| {
                let started = Instant::now();
                let (output, stats) = batch::parallel(&executors[i], transform, &prepared.inputs);
                (output, stats, started.elapsed().as_secs_f64())
            });
            let outcome = &mut outcomes[i];
            outcome.0 &= output == prepared.expected;
            outcome.1 = stats;
            outcome.2.push(energy);
            elapsed
        },
        |step| {
            done = step.done;
            progress(step.done, step.planned.unwrap_or(0), &labels[step.config]);
        },
    );
    progress(done + 1, done + 1, "done");
    batch_records(key, plan, &configs, &outcomes, &measurements)
}

/// Per configuration: did every batch match SeRSA, the last batch's thread statistics, and the
/// energy of every batch (warm-ups first).
type Outcome = (bool, RunStats, EnergyTally);

/// One record per configuration, each checked to have matched SeRSA in every batch; the first
/// configuration is the baseline of the speedups.
fn batch_records(
    key: &RsaPrivateKey,
    plan: &RsaBenchPlan,
    configs: &[(usize, ScheduleSpec)],
    outcomes: &[Outcome],
    measurements: &[crate::bench::Measurement],
) -> Result<Vec<RsaBenchRecord>> {
    let mut records: Vec<RsaBenchRecord> = Vec::with_capacity(configs.len());
    let batch_bytes = (plan.messages * (key.public().bits() as usize).div_ceil(8)) as f64;
    for ((&(threads, spec), (verified, stats, tally)), measurement) in
        configs.iter().zip(outcomes).zip(measurements)
    {
        if !verified {
            return Err(Error::internal(format!(
                "{threads} threads {spec} gave an output different from SeRSA"
            )));
        }
        let sampled = measurement
            .sampled()
            .ok_or_else(|| Error::internal("no samples"))?;
        let baseline = records
            .first()
            .map_or(sampled.median, |b| b.timing.median_s);
        let energy = tally.fields(plan.config.warmup_runs as usize, Some(batch_bytes));
        records.push(record(
            key,
            plan.shape(),
            Placement::threads(threads),
            spec,
            &sampled,
            baseline,
            stats,
            energy,
        ));
    }
    Ok(records)
}

/// Runs the sequential batch for at least [`GLOBAL_WARMUP_S`] before anything is measured, so
/// the first configuration (the baseline of every speedup) does not pay for cold caches, page
/// faults or a clock still ramping up.
fn global_warmup(transform: Transform<'_>, inputs: &[Integer]) {
    let started = Instant::now();
    while started.elapsed().as_secs_f64() < GLOBAL_WARMUP_S {
        std::hint::black_box(batch::serial(transform, inputs));
    }
}

/// Seconds of sequential work before the first measurement.
pub const GLOBAL_WARMUP_S: f64 = 0.5;

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn plan() -> RsaBenchPlan {
        RsaBenchPlan {
            messages: 12,
            op: BatchOp::Decrypt,
            private_op: PrivateOp::CrtVartime,
            threads: vec![2, 1],
            schedules: vec![Schedule::Static, Schedule::Guided],
            chunks: vec![None, Some(3)],
            pin: false,
            seed: 1,
            config: BenchConfig {
                warmup_runs: 0,
                ..BenchConfig::exact(1)
            },
        }
    }

    #[test]
    fn baseline_comes_first_and_is_not_repeated() {
        let cfgs = plan().configurations();
        assert_eq!(
            cfgs[0],
            (
                1,
                ScheduleSpec {
                    schedule: Schedule::Static,
                    chunk: None
                }
            )
        );
        assert_eq!(
            cfgs.len(),
            8,
            "2 threads x 2 schedules x 2 chunks, baseline included once"
        );
        let baseline_count = cfgs.iter().filter(|c| **c == cfgs[0]).count();
        assert_eq!(baseline_count, 1);
    }

    #[test]
    fn run_verifies_and_reports_every_configuration() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        let key = RsaPrivateKey::generate_vartime(512, &Integer::from(65537), &mut rng).unwrap();
        let mut calls = 0;
        let recs = run(&key, &plan(), |_, _, _| calls += 1).unwrap();
        assert_eq!(recs.len(), 8);
        // 8 configurations x (0 warm-up + 1 run) + the final call.
        assert_eq!(calls, 9);
        assert_eq!(recs[0].speedup, 1.0);
        assert!(
            recs.iter()
                .all(|r| r.verified && r.timing.runs == 1 && r.bits == 512)
        );
        assert!(
            recs.iter()
                .all(|r| r.private_op == Some(PrivateOp::CrtVartime))
        );
        // The auto meter: RAPL where readable, else the model, and every record says which.
        let source = &recs[0].energy.energy_source;
        assert!(
            source == "measured:rapl" || source.starts_with("model:"),
            "{source}"
        );
        assert!(
            recs.iter()
                .all(|r| r.energy.energy_j.is_some_and(|j| j >= 0.0))
        );
    }

    #[test]
    fn energy_is_read_around_every_batch_and_warmups_are_left_out() {
        use crate::energy::meter::FakeMeter;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(12);
        let key = RsaPrivateKey::generate_vartime(512, &Integer::from(65537), &mut rng).unwrap();
        let mut p = plan();
        p.config = BenchConfig {
            warmup_runs: 2,
            ..BenchConfig::exact(3)
        };
        let fake = FakeMeter::new(8.0, 0.25);
        let mut meter = RunMeter::new(Box::new(fake));
        let recs = run_with_meter(&key, &p, &mut meter, |_, _, _| {}).unwrap();
        for r in &recs {
            assert_eq!(
                (r.energy.energy_j, r.energy.avg_power_w),
                (Some(2.0), Some(8.0))
            );
            // 12 messages x 64 bytes per batch.
            assert_eq!(r.energy.uj_per_byte, Some(2.0 * 1e6 / (12.0 * 64.0)));
            assert_eq!(r.energy.energy_source, "fake");
        }
        let none = run_with_meter(&key, &plan(), &mut RunMeter::none(), |_, _, _| {}).unwrap();
        assert!(
            none.iter()
                .all(|r| r.energy.energy_j.is_none() && r.energy.energy_source == "none")
        );
        // Old JSON without the energy fields still reads.
        let mut v = serde_json::to_value(&recs[0]).unwrap();
        for k in ["energy_j", "avg_power_w", "uj_per_byte", "energy_source"] {
            v.as_object_mut().unwrap().remove(k);
        }
        let old: RsaBenchRecord = serde_json::from_value(v).unwrap();
        assert_eq!(old.energy.energy_j, None);
    }

    #[test]
    fn bad_plans_are_refused() {
        let mut p = plan();
        p.threads = vec![0];
        assert!(p.validate().is_err());
        let mut p = plan();
        p.chunks = vec![Some(0)];
        assert!(p.validate().is_err());
        let mut p = plan();
        p.messages = 0;
        assert!(p.validate().is_err());
    }
}
