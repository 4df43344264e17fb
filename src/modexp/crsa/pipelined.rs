//! The pipelined CRSA (Fig. 2): a stream of blocks `C_i = m_i^e mod n` with one exponent and
//! modulus, block i+1 entering level 1 while block i moves up the levels; the batch API
//! that every CRSA form runs through; and a CLI-free throughput measurement, main vs pipelined.
//!
//! For a single exponentiation there is nothing to overlap: `crsa-pipelined` then is the
//! main CRSA. The gain needs a stream, and even then is bounded by the coordinator's share
//! (see [`Schedule::ideal_ratio`](super::Schedule)).
use super::engine::{self, BatchOutcome, EngineStats};
use super::schedule::schedule;
use super::topology::Topology;
use crate::bench::{Bench, BenchConfig, Seconds, logical_cores};
use crate::bignum::{random_below, random_bits};
use crate::error::{Error, Result};
use rand::SeedableRng;
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Which CRSA machine runs a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineConfig {
    /// Cubes Nc (1..=[`MAX_CUBES`](super::MAX_CUBES)).
    pub cubes: usize,
    /// Remove the duplicate PEs (6·Nc PEs instead of 8·Nc).
    pub optimized: bool,
    /// Let several blocks be in flight at once.
    pub pipelined: bool,
}

impl EngineConfig {
    /// The main CRSA: full hypercube, one block at a time.
    pub fn main(cubes: usize) -> Self {
        Self {
            cubes,
            optimized: false,
            pipelined: false,
        }
    }

    /// The pipelined CRSA on the full hypercube.
    pub fn pipelined(cubes: usize) -> Self {
        Self {
            cubes,
            optimized: false,
            pipelined: true,
        }
    }

    /// The optimized CRSA (duplicates removed), one block at a time.
    pub fn optimized(cubes: usize) -> Self {
        Self {
            cubes,
            optimized: true,
            pipelined: false,
        }
    }

    /// Its hypercube. Errors: cubes outside 1..=MAX_CUBES.
    pub fn topology(&self) -> Result<Topology> {
        Topology::new(self.cubes, self.optimized)
    }

    /// Most blocks in flight: 1 unpipelined; pipelined, four per level (enough to keep every
    /// level busy while bounding the memory held in channels).
    pub fn max_in_flight(&self) -> usize {
        if self.pipelined {
            4 * (self.cubes + 3)
        } else {
            1
        }
    }
}

/// `bases[i]^exp mod modulus` for every block, through the machine `config` describes.
///
/// Bases may be any integers (reduced first). Errors: modulus <= 0, negative exponent, cubes
/// outside 1..=MAX_CUBES. Modulus 1 gives zeros without running the machine (no counts).
/// **Variable-time**, as every CRSA form (the PEs' work follows the exponent's bits).
pub fn pow_mod_batch_vartime(
    bases: &[Integer],
    exp: &Integer,
    modulus: &Integer,
    config: &EngineConfig,
) -> Result<BatchOutcome> {
    if *modulus <= 0 {
        return Err(Error::InvalidParameter(format!(
            "modulus must be positive, got {modulus}"
        )));
    }
    if *exp < 0 {
        return Err(Error::InvalidParameter(
            "exponent must be non-negative".into(),
        ));
    }
    let topo = config.topology()?;
    if *modulus == 1 {
        let stats = EngineStats {
            cubes: topo.cubes(),
            optimized: topo.optimized(),
            pes: topo.pe_count(),
            power: topo.power(),
            max_in_flight: config.max_in_flight(),
            blocks: bases.len(),
            edges: Vec::new(),
        };
        let values = vec![Integer::new(); bases.len()];
        return Ok(BatchOutcome {
            values,
            counts: Vec::new(),
            stats,
        });
    }
    let reduced: Vec<Integer> = bases
        .iter()
        .map(|b| {
            let mut r = Integer::from(b % modulus);
            if r < 0 {
                r += modulus;
            }
            r
        })
        .collect();
    engine::run(&topo, &reduced, exp, modulus, config.max_in_flight(), false).map(|(o, _)| o)
}

/// The pipelined CRSA (Fig. 2) as a strategy: on one block it is the main CRSA; use
/// [`pow_mod_batch_vartime`] with [`EngineConfig::pipelined`] for streams.
pub struct CrsaPipelined;

/// Main vs pipelined CRSA on one batch, measured and modelled.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    /// Modulus size in bits.
    pub modulus_bits: u32,
    /// Exponent size in bits.
    pub exp_bits: u32,
    /// Cubes Nc.
    pub cubes: usize,
    /// Whether the optimized hypercube was used (for both).
    pub optimized: bool,
    /// Blocks per batch.
    pub blocks: usize,
    /// Timed runs of each (after warm-up), interleaved.
    pub runs: usize,
    /// Median seconds per batch, main CRSA.
    pub main_median_s: Seconds,
    /// Median seconds per batch, pipelined CRSA.
    pub pipelined_median_s: Seconds,
    /// Blocks per second, main CRSA (from the median).
    pub main_blocks_per_s: f64,
    /// Blocks per second, pipelined CRSA (from the median).
    pub pipelined_blocks_per_s: f64,
    /// pipelined / main, measured.
    pub measured_ratio: f64,
    /// pipelined / main from the schedule: steps per block unpipelined over pipelined.
    pub ideal_ratio: f64,
    /// The paper's Nc + 3.
    pub paper_ratio: f64,
    /// Threads of one run: the PEs and the coordinator.
    pub threads: usize,
    /// Hardware threads available here.
    pub logical_cores: usize,
    /// More threads than hardware threads: PEs take turns on the cores.
    pub oversubscribed: bool,
}

/// Measures `blocks` random blocks under a random `modulus_bits`-bit modulus with exponent
/// `exp` through the main and the pipelined CRSA, interleaved run by run as `config` says,
/// after checking the pipelined results against GMP. Deterministic inputs (seeded).
pub fn throughput(
    modulus_bits: u32,
    exp: &Integer,
    blocks: usize,
    cubes: usize,
    optimized: bool,
    config: &BenchConfig,
) -> Result<Throughput> {
    if modulus_bits < 2 || blocks == 0 {
        return Err(Error::InvalidParameter(
            "throughput needs a modulus of at least 2 bits and at least one block".into(),
        ));
    }
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(0xC25A);
    let modulus = random_bits(&mut rng, modulus_bits) | (Integer::from(1) << (modulus_bits - 1));
    let bases: Vec<Integer> = (0..blocks)
        .map(|_| random_below(&mut rng, &modulus))
        .collect();
    let main = EngineConfig {
        cubes,
        optimized,
        pipelined: false,
    };
    let piped = EngineConfig {
        pipelined: true,
        ..main
    };
    let check = pow_mod_batch_vartime(&bases, exp, &modulus, &piped)?;
    for (b, got) in bases.iter().zip(&check.values) {
        let want = b
            .clone()
            .pow_mod(exp, &modulus)
            .map_err(|_| Error::internal("GMP could not compute the reference"))?;
        if *got != want {
            return Err(Error::internal("CRSA disagrees with GMP"));
        }
    }
    let bench = Bench::new(*config)?;
    let failures = std::cell::RefCell::new(crate::bench::Failures::new());
    // One timed batch; its values are checked against the verified ones after the clock stops.
    let time = |cfg: &EngineConfig, what: &str| -> Seconds {
        let t = Instant::now();
        let out = pow_mod_batch_vartime(&bases, exp, &modulus, cfg);
        let took = t.elapsed().as_secs_f64();
        let mut failures = failures.borrow_mut();
        if let Some(out) = failures.note(what, out) {
            failures.check(what, out.values == check.values);
        }
        took
    };
    let mut run_main = || time(&main, "main CRSA");
    let mut run_piped = || time(&piped, "pipelined CRSA");
    let measured = bench.run_interleaved(&mut [&mut run_main, &mut run_piped]);
    failures.into_inner().result()?;
    let (Some(ms), Some(ps)) = (
        measured.first().and_then(|x| x.summary()),
        measured.get(1).and_then(|x| x.summary()),
    ) else {
        return Err(Error::internal("no timed runs"));
    };
    let topo = main.topology()?;
    let sched = schedule(&topo, exp)?;
    let per_s = |s: Seconds| {
        if s > 0.0 {
            blocks as f64 / s
        } else {
            f64::INFINITY
        }
    };
    let threads = topo.pe_count() + 1;
    Ok(Throughput {
        modulus_bits,
        exp_bits: exp.significant_bits(),
        cubes,
        optimized,
        blocks,
        runs: ms.runs.min(ps.runs),
        main_median_s: ms.median,
        pipelined_median_s: ps.median,
        main_blocks_per_s: per_s(ms.median),
        pipelined_blocks_per_s: per_s(ps.median),
        measured_ratio: ms.median / ps.median.max(f64::MIN_POSITIVE),
        ideal_ratio: sched.ideal_ratio,
        paper_ratio: sched.paper_ratio,
        threads,
        logical_cores: logical_cores(),
        oversubscribed: threads > logical_cores(),
    })
}
