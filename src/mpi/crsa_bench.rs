//! CRSA over ranks against the thread engine: values, MulMod counts per PE and link counts
//! compared in every run, and both timed, interleaved, on one batch of blocks.
use super::comm::Ranks;
use super::crsa::{CrsaOutcome, run as run_ranks};
use super::error::{MpiError, MpiResult};
use super::host::AllCpus;
use super::record::{MpiFields, end_sweep, interleaved, serve_sweep};
use crate::bench::{Bench, BenchConfig, TimingColumns, TimingFields};
use crate::bignum::{random_below, random_bits};
use crate::modexp::crsa::{EngineConfig, pow_mod_batch_vartime};
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
    pub fn of(counts: &[crate::modexp::UnitCount]) -> Option<Self> {
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

fn compare(
    ours: &CrsaOutcome,
    threads: &crate::modexp::crsa::BatchOutcome,
    gmp: &[Integer],
) -> MpiResult<()> {
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
    let local: &[Integer] = if ranks.is_root() { &bases } else { &[] };
    // One checked run before timing.
    let ours = run_ranks(ranks, &plan.engine, local, plan.blocks, &exp, &modulus)?;
    let mut reference = None;
    let checked = match &ours {
        Some(ours) => (|| {
            let threads = {
                let _all = AllCpus::new();
                pow_mod_batch_vartime(&bases, &exp, &modulus, &plan.engine)?
            };
            let gmp: Vec<Integer> = bases
                .iter()
                .map(|b| Integer::from(b.pow_mod_ref(&exp, &modulus).expect("positive exponent")))
                .collect();
            compare(ours, &threads, &gmp)?;
            reference = Some(threads);
            Ok(())
        })(),
        None => Ok(()),
    };
    ranks.agree(checked)?;
    if !ranks.is_root() {
        serve_sweep(ranks, |_| {
            run_ranks(ranks, &plan.engine, &[], plan.blocks, &exp, &modulus).map(drop)
        })?;
        return Ok(None);
    }
    let bench = Bench::new(plan.config)?;
    let outcome = interleaved(&bench, 2, |i| {
        if i == 0 {
            let _all = AllCpus::new();
            let t = std::time::Instant::now();
            pow_mod_batch_vartime(&bases, &exp, &modulus, &plan.engine)?;
            return Ok(t.elapsed().as_secs_f64());
        }
        ranks.command_run(0);
        let t = std::time::Instant::now();
        let o = run_ranks(ranks, &plan.engine, &bases, plan.blocks, &exp, &modulus)?;
        let secs = t.elapsed().as_secs_f64();
        if o.map(|o| o.values) != reference.as_ref().map(|r| r.values.clone()) {
            return Err(MpiError::Mismatch("CRSA over ranks: values changed".into()));
        }
        Ok(secs)
    });
    let measurements = end_sweep(ranks, outcome)?;
    let (Some(ours), Some(threads)) = (ours, reference) else {
        return Err(MpiError::Protocol("rank 0 lost its reference".into()));
    };
    let strategy = match (plan.engine.optimized, plan.engine.pipelined) {
        (true, _) => "crsa-optimized",
        (false, true) => "crsa-pipelined",
        (false, false) => "crsa",
    };
    let mut per_rank = vec![0usize; ranks.size()];
    for r in topo.roles() {
        per_rank[place.rank_of(crate::modexp::crsa::Node::Pe(r.pe))] += 1;
    }
    let base = measurements[0].summary.median;
    let mulmods: u64 = threads.counts.iter().map(|c| c.mulmods()).sum();
    let work_split = WorkSplit::of(&threads.counts);
    let rec = |i: usize| -> MpiResult<CrsaMpiRecord> {
        let s = &measurements[i].summary;
        let mpi = i == 1;
        Ok(CrsaMpiRecord {
            strategy: strategy.into(),
            cubes: topo.cubes(),
            pes: topo.pe_count(),
            blocks: plan.blocks,
            modulus_bits: plan.bits,
            timing: TimingFields::new(s, Vec::new(), TimingColumns::RANGE),
            blocks_per_s: plan.blocks as f64 / s.median,
            speedup: base / s.median,
            mulmods,
            pes_per_rank: if mpi {
                per_rank.iter().copied().max().unwrap_or(0)
            } else {
                1
            },
            cross_rank_messages: if mpi { ours.cross_rank_messages } else { 0 },
            verified: true,
            mpi: if mpi {
                MpiFields::mpi(ranks)
            } else {
                MpiFields::threads(ranks)
            },
            note: s.note().unwrap_or_default(),
            work_split: work_split.clone(),
        })
    };
    Ok(Some(vec![rec(0)?, rec(1)?]))
}
