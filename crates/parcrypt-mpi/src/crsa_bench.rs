//! CRSA over ranks against the thread engine: values, MulMod counts per PE and link counts
//! compared in every run, and both timed, interleaved, on one batch of blocks.
use super::comm::Ranks;
use super::crsa::{CrsaOutcome, run as run_ranks};
use super::error::{MpiError, MpiResult};
use super::host::AllCpus;
use super::record::{MpiFields, end_sweep, interleaved, serve_sweep};
use parcrypt::hazmat::bignum::{random_below, random_bits};
use parcrypt::modexp::crsa::{BatchOutcome, EngineConfig, Topology, pow_mod_batch_vartime};
use parcrypt_harness::bench::{Bench, BenchConfig, Sampled, TimingColumns, TimingFields};
use rand::SeedableRng;
use rug::Integer;
use serde::{Deserialize, Serialize};

/// What to run.
#[derive(Clone, Debug)]
pub struct CrsaPlan {
    /// The machine (cubes, optimized, pipelined).
    pub engine: EngineConfig,
    /// Blocks per run.
    pub blocks: usize,
    /// Modulus and exponent bits.
    pub bits: u32,
    /// Seed of modulus, exponent and bases.
    pub seed: u64,
    /// Repetition rules.
    pub config: BenchConfig,
}

/// One result (the thread engine's row, then the ranks').
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrsaMpiRecord {
    /// `crsa`, `crsa-pipelined` or `crsa-optimized`.
    pub strategy: String,
    /// Cubes Nc.
    pub cubes: usize,
    /// PEs (8·Nc or 6·Nc).
    pub pes: usize,
    /// Blocks per run.
    pub blocks: usize,
    /// Modulus bits (the exponent has as many).
    pub modulus_bits: u32,
    /// Seconds per run: median, min, max and runs ([`TimingColumns::RANGE`], without the
    /// per-run `times`).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Blocks per second at the median.
    pub blocks_per_s: f64,
    /// Thread engine median / this median.
    pub speedup: f64,
    /// MulMods of all units, per run.
    pub mulmods: u64,
    /// Most PEs on one rank (1 thread per PE for `threads`).
    pub pes_per_rank: usize,
    /// Messages between ranks per run (0 for `threads`).
    pub cross_rank_messages: u64,
    /// Values equal GMP's and the thread engine's; MulMod counts per PE and link counts
    /// equal the thread engine's; every message went along an edge.
    pub verified: bool,
    /// `backend`, `ranks`, `hosts`, `host_names`.
    #[serde(flatten)]
    pub mpi: MpiFields,
    /// Statistical warning, empty if none.
    pub note: String,
    /// Who does the MulMods (absent in records written before it was recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub work_split: Option<WorkSplit>,
}

/// The coordinator's and the PEs' shares of one run's MulMods (the same for both backends: the
/// counts are checked equal). The coordinator computes `y = b^q` and `z = b^r` by square and
/// multiply, the PEs only combine powers (paper, Fig. 1): the coordinator's unit (rank 0's
/// coordinator, or its thread) does nearly all the work, which bounds any speedup over ranks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkSplit {
    /// The coordinator's modular squarings.
    pub coordinator_squarings: u64,
    /// The coordinator's other modular multiplications.
    pub coordinator_multiplications: u64,
    /// MulMods of the busiest PE.
    pub pe_mulmods_max: u64,
    /// MulMods of the least busy PE.
    pub pe_mulmods_min: u64,
    /// MulMods of all PEs together.
    pub pe_mulmods_total: u64,
}

impl WorkSplit {
    /// From the counts of one run, the coordinator first (as the engines give them).
    pub fn of(counts: &[parcrypt::modexp::UnitCount]) -> Option<Self> {
        let (coord, pes) = counts.split_first()?;
        let per_pe = pes.iter().map(|c| c.mulmods());
        Some(Self {
            coordinator_squarings: coord.squarings,
            coordinator_multiplications: coord.multiplications,
            pe_mulmods_max: per_pe.clone().max().unwrap_or(0),
            pe_mulmods_min: per_pe.clone().min().unwrap_or(0),
            pe_mulmods_total: per_pe.sum(),
        })
    }
}

/// The inputs, deterministic from the seed.
fn inputs(plan: &CrsaPlan) -> (Integer, Integer, Vec<Integer>) {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(plan.seed);
    let top = Integer::from(1) << (plan.bits - 1);
    let modulus = random_bits(&mut rng, plan.bits) | top.clone() | 1u32;
    let exp = random_bits(&mut rng, plan.bits) | top;
    let bases = (0..plan.blocks)
        .map(|_| random_below(&mut rng, &modulus))
        .collect();
    (modulus, exp, bases)
}

fn compare(ours: &CrsaOutcome, threads: &BatchOutcome, gmp: &[Integer]) -> MpiResult<()> {
    let what = if ours.values != gmp || ours.values != threads.values {
        "values"
    } else if ours.counts != threads.counts {
        "MulMod counts per PE"
    } else if ours.edges != threads.stats.edges {
        "link counts"
    } else {
        return Ok(());
    };
    Err(MpiError::Protocol(format!(
        "CRSA over ranks: {what} differ from the thread engine's"
    )))
}

/// Runs on every rank; rank 0 gets the thread engine's record and the ranks'.
pub fn run(ranks: &Ranks, plan: &CrsaPlan) -> MpiResult<Option<Vec<CrsaMpiRecord>>> {
    if plan.bits < 8 || plan.blocks == 0 {
        return Err(MpiError::Usage(
            "CRSA needs at least 8 bits and 1 block".into(),
        ));
    }
    let topo = plan.engine.topology()?;
    let place = super::crsa::Placement::new(topo.clone(), ranks.size())?;
    plan.config.validate()?;
    let (modulus, exp, bases) = inputs(plan);
    let work = Work {
        ranks,
        plan,
        modulus: &modulus,
        exp: &exp,
        bases: &bases,
    };
    let (ours, reference) = work.checked()?;
    if !ranks.is_root() {
        serve_sweep(ranks, |_| work.on_ranks(&[]).map(drop))?;
        return Ok(None);
    }
    let measurements = work.time(reference.as_ref())?;
    let (Some(ours), Some(threads)) = (ours, reference) else {
        return Err(MpiError::Protocol("rank 0 lost its reference".into()));
    };
    let mut per_rank = vec![0usize; ranks.size()];
    for r in topo.roles() {
        per_rank[place.rank_of(parcrypt::modexp::crsa::Node::Pe(r.pe))] += 1;
    }
    let done = Finished {
        plan,
        ranks,
        topo: &topo,
        threads: &threads,
        cross_rank_messages: ours.cross_rank_messages,
        pes_per_rank: per_rank.iter().copied().max().unwrap_or(0),
        measurements: &measurements,
    };
    Ok(Some(vec![done.record(0), done.record(1)]))
}

/// The run's inputs on every rank.
struct Work<'a> {
    ranks: &'a Ranks,
    plan: &'a CrsaPlan,
    modulus: &'a Integer,
    exp: &'a Integer,
    bases: &'a [Integer],
}

impl Work<'_> {
    /// The batch over the ranks (`local`: rank 0's bases, none on the others).
    fn on_ranks(&self, local: &[Integer]) -> MpiResult<Option<CrsaOutcome>> {
        let plan = self.plan;
        run_ranks(
            self.ranks,
            &plan.engine,
            local,
            plan.blocks,
            self.exp,
            self.modulus,
        )
    }

    /// The thread engine's batch, on every CPU.
    fn on_threads(&self) -> parcrypt_harness::error::Result<BatchOutcome> {
        let _all = AllCpus::new();
        Ok(pow_mod_batch_vartime(
            self.bases,
            self.exp,
            self.modulus,
            &self.plan.engine,
        )?)
    }

    /// One checked run before timing: rank 0 gets the ranks' outcome and the thread engine's,
    /// compared with each other and with GMP; every rank agrees on the verdict.
    fn checked(&self) -> MpiResult<(Option<CrsaOutcome>, Option<BatchOutcome>)> {
        let local: &[Integer] = if self.ranks.is_root() {
            self.bases
        } else {
            &[]
        };
        let ours = self.on_ranks(local)?;
        let mut reference = None;
        let checked = match &ours {
            Some(ours) => (|| {
                let threads = self.on_threads()?;
                let gmp: Vec<Integer> = self
                    .bases
                    .iter()
                    .map(|b| {
                        Integer::from(
                            b.pow_mod_ref(self.exp, self.modulus)
                                .expect("positive exponent"),
                        )
                    })
                    .collect();
                compare(ours, &threads, &gmp)?;
                reference = Some(threads);
                Ok(())
            })(),
            None => Ok(()),
        };
        self.ranks.agree(checked)?;
        Ok((ours, reference))
    }

    /// Rank 0: the thread engine (run 0) and the ranks (run 1), interleaved, each ranks' run's
    /// values checked against the reference.
    fn time(&self, reference: Option<&BatchOutcome>) -> MpiResult<Vec<Sampled>> {
        let bench = Bench::new(self.plan.config)?;
        let outcome = interleaved(&bench, 2, |i| {
            if i == 0 {
                let _all = AllCpus::new();
                let t = std::time::Instant::now();
                pow_mod_batch_vartime(self.bases, self.exp, self.modulus, &self.plan.engine)?;
                return Ok(t.elapsed().as_secs_f64());
            }
            self.ranks.command_run(0);
            let t = std::time::Instant::now();
            let o = self.on_ranks(self.bases)?;
            let secs = t.elapsed().as_secs_f64();
            if o.map(|o| o.values) != reference.map(|r| r.values.clone()) {
                return Err(MpiError::Mismatch("CRSA over ranks: values changed".into()));
            }
            Ok(secs)
        });
        end_sweep(self.ranks, outcome)
    }
}

/// What the records are made of, on rank 0.
struct Finished<'a> {
    plan: &'a CrsaPlan,
    ranks: &'a Ranks,
    topo: &'a Topology,
    /// The thread engine's checked outcome.
    threads: &'a BatchOutcome,
    /// The ranks' messages per run.
    cross_rank_messages: u64,
    /// Most PEs on one rank.
    pes_per_rank: usize,
    measurements: &'a [Sampled],
}

impl Finished<'_> {
    /// Run `i`'s record: 0 the thread engine, 1 the ranks.
    fn record(&self, i: usize) -> CrsaMpiRecord {
        let (plan, topo) = (self.plan, self.topo);
        let strategy = match (plan.engine.optimized, plan.engine.pipelined) {
            (true, _) => "crsa-optimized",
            (false, true) => "crsa-pipelined",
            (false, false) => "crsa",
        };
        let base = self.measurements[0].summary.median;
        let s = &self.measurements[i].summary;
        let mpi = i == 1;
        CrsaMpiRecord {
            strategy: strategy.into(),
            cubes: topo.cubes(),
            pes: topo.pe_count(),
            blocks: plan.blocks,
            modulus_bits: plan.bits,
            timing: TimingFields::new(s, Vec::new(), TimingColumns::RANGE),
            blocks_per_s: plan.blocks as f64 / s.median,
            speedup: base / s.median,
            mulmods: self.threads.counts.iter().map(|c| c.mulmods()).sum(),
            pes_per_rank: if mpi { self.pes_per_rank } else { 1 },
            cross_rank_messages: if mpi { self.cross_rank_messages } else { 0 },
            verified: true,
            mpi: if mpi {
                MpiFields::mpi(self.ranks)
            } else {
                MpiFields::threads(self.ranks)
            },
            note: s.note().unwrap_or_default(),
            work_split: WorkSplit::of(&self.threads.counts),
        }
    }
}
