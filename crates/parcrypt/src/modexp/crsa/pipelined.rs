//! The pipelined CRSA (Fig. 2): a stream of blocks `C_i = m_i^e mod n` with one exponent and
//! modulus, block i+1 entering level 1 while block i moves up the levels, and the batch API
//! that every CRSA form runs through (main against pipelined is measured by
//! `parcrypt_lab::suites::crsa`).
//!
//! For a single exponentiation there is nothing to overlap: `crsa-pipelined` then is the
//! main CRSA. The gain needs a stream, and even then is bounded by the coordinator's share
//! (see [`Schedule::ideal_ratio`](super::Schedule)).
use super::engine::{self, BatchOutcome, EngineStats};
use super::topology::Topology;
use crate::error::{Error, Result};
use rug::Integer;
use serde::{Deserialize, Serialize};

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
