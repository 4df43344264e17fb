//! Main against pipelined CRSA (CRSA, Fig. 4): one batch of blocks through both
//! machines ([`parcrypt::modexp::crsa::pow_mod_batch_vartime`]), interleaved run by run, after the
//! pipelined results are checked against GMP; beside the measured ratio, the schedule's ideal
//! one and the paper's Nc + 3.
use crate::bench::{Bench, BenchConfig, Seconds, Summary, logical_cores};
use crate::error::{Error, Result};
use parcrypt::hazmat::bignum::{random_below, random_bits};
use parcrypt::modexp::crsa::{BatchOutcome, EngineConfig, pow_mod_batch_vartime, schedule};
use rand::SeedableRng;
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::time::Instant;

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
    let batch = Batch {
        bases: &bases,
        exp,
        modulus: &modulus,
    };
    let (ms, ps) = batch.time_both(&main, config)?;
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

/// One batch of blocks under one modulus and exponent.
struct Batch<'a> {
    bases: &'a [Integer],
    exp: &'a Integer,
    modulus: &'a Integer,
}

impl Batch<'_> {
    /// The batch through `cfg`, each value checked against GMP.
    fn checked(&self, cfg: &EngineConfig) -> Result<BatchOutcome> {
        let check = pow_mod_batch_vartime(self.bases, self.exp, self.modulus, cfg)?;
        for (b, got) in self.bases.iter().zip(&check.values) {
            let want = b
                .clone()
                .pow_mod(self.exp, self.modulus)
                .map_err(|_| Error::internal("GMP could not compute the reference"))?;
            if *got != want {
                return Err(Error::internal("CRSA disagrees with GMP"));
            }
        }
        Ok(check)
    }

    /// Checks the pipelined machine, then times it and `main` interleaved: the summaries of
    /// main's and the pipelined machine's runs.
    fn time_both(&self, main: &EngineConfig, config: &BenchConfig) -> Result<(Summary, Summary)> {
        let piped = EngineConfig {
            pipelined: true,
            ..*main
        };
        let check = self.checked(&piped)?;
        let bench = Bench::new(*config)?;
        let failures = std::cell::RefCell::new(crate::bench::Failures::new());
        // One timed batch; its values are checked against the verified ones after the clock stops.
        let time = |cfg: &EngineConfig, what: &str| -> Seconds {
            let t = Instant::now();
            let out = pow_mod_batch_vartime(self.bases, self.exp, self.modulus, cfg);
            let took = t.elapsed().as_secs_f64();
            let mut failures = failures.borrow_mut();
            if let Some(out) = failures.note(what, out) {
                failures.check(what, out.values == check.values);
            }
            took
        };
        let mut run_main = || time(main, "main CRSA");
        let mut run_piped = || time(&piped, "pipelined CRSA");
        let measured = bench.run_interleaved(&mut [&mut run_main, &mut run_piped]);
        failures.into_inner().result()?;
        let (Some(ms), Some(ps)) = (
            measured.first().and_then(|x| x.summary()),
            measured.get(1).and_then(|x| x.summary()),
        ) else {
            return Err(Error::internal("no timed runs"));
        };
        Ok((ms, ps))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throughput_reports_both_forms_without_timing_claims() {
        let t = throughput(
            256,
            &Integer::from(65_537),
            6,
            1,
            false,
            &BenchConfig::exact(1),
        )
        .unwrap();
        assert_eq!((t.blocks, t.cubes, t.threads), (6, 1, 9));
        assert!(t.main_blocks_per_s > 0.0 && t.pipelined_blocks_per_s > 0.0);
        assert_eq!(t.paper_ratio, 4.0);
        assert!(t.ideal_ratio > 1.0);
        assert!(throughput(1, &Integer::from(3), 6, 1, false, &BenchConfig::exact(1)).is_err());
        assert!(throughput(64, &Integer::from(3), 0, 1, false, &BenchConfig::exact(1)).is_err());
    }
}
