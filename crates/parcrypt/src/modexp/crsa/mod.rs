//! CRSA (CRSA, Damrudi & Jadidy Aval, "Cube based RSA analysis and optimization"):
//! modular exponentiation on a hypercube of processing elements (PEs), 8 per cube, Nc cubes,
//! plus a coordinator; its pipelined form and its optimized form (duplicate PEs removed).
//!
//! Three strategies: [`Crsa`] (`crsa`, the main CRSA of Fig. 1), [`CrsaPipelined`]
//! (`crsa-pipelined`, Fig. 2) and [`CrsaOptimized`] (`crsa-optimized`, Fig. 3(c)).
//! A stream of blocks goes through [`pow_mod_batch_vartime`] (main against pipelined is measured by
//! `parcrypt_lab::suites::crsa`); the lab's `suites::crsa_paper` puts our counts beside the paper's.
//! Nc comes from [`Params::cubes`] (default 2, the paper's example; 1..=[`MAX_CUBES`]);
//! `threads` is ignored: the machine always has one thread per PE. Variable-time.
//!
//! # Our reading of the paper
//!
//! The paper never says what a PE computes. It gives, for Nc = 2, how many MulMods each PE
//! does ("PEs 1, 3, 4, 5, 6, 8, 9, 10 and 12 perform one MulMod, the others two, PEs 0 and 2
//! none, PE 7 three"), which PEs are duplicates (1, 3, 9, 11), the hypercube's total after
//! optimization (6 + 9 + 10(Nc − 2) = 10Nc − 5), a number X = 24·2^Nc − 12Nc − 26 that the
//! exponent is "divided into", and that the coordinator does `(k − 1) − log X` MulMods in the
//! best case. One dataflow program fits all of these:
//!
//! * **Coordinator** (outside the cube; the paper's embedded CPU): splits `e = X·q + r` and
//!   computes `y = b^q` and `z = b^r` in one right-to-left pass ([`coordinator`]). `q` is the
//!   paper's `e_o`: `k − log2 X` bits. It sends `y` to PE 0 and `z` to PE 7 and receives the
//!   result from PE 7 — the only three links that are not hypercube edges.
//! * **PEs** ([`topology`]): PE `8c + l` sits at level `c + popcount(l)`. PE 0 forwards `y`;
//!   in cube 0, PE 2 forwards `y` and PEs 1 and 4 square it; PE 0 of each later cube squares
//!   PE 0 of the cube before; every other PE multiplies the values of its lower-level
//!   neighbours (one bit less in its own cube, and the same PE of the previous cube). PE 7 of
//!   the last cube sends its product down the chain of PE 7s; each PE 7 multiplies in the one
//!   above; PE 7 of cube 0 also multiplies in `z` and hands `y^X · b^r = b^e` to the
//!   coordinator ("the result is always generated in PE 7").
//! * **Counts**: this reproduces the paper's per-PE counts at Nc = 2 exactly (a PE with j
//!   inputs does j − 1 MulMods; PE 7 does its own two plus the cube-1 result: three) when
//!   `X | e` — when `r ≠ 0` PE 7 does one more, for `b^r`, which the paper ignores — and
//!   10Nc − 5 in the optimized hypercube for every Nc (6 + 9 + 10 per middle cube), and
//!   X = 10 at Nc = 1. For Nc ≥ 2 our X is 42, 120, 292, … where the paper prints 46, 130,
//!   310 (its sum formula does not follow from its own per-PE counts); the hypercube's
//!   critical path is 4 MulMod times at Nc = 1 (paper: 5Nc − 1 = 4) and 3Nc + 1 after
//!   (paper: 5Nc − 1).
//! * **Edges**: cube c's PEs live at addresses `8·gray(c) + l`, so consecutive cubes are
//!   neighbours for any Nc; for Nc ≤ 2 addresses equal PE numbers. Every value crosses one
//!   edge (Hamming distance 1); [`engine`] refuses to open any other channel and records
//!   every link used.
//! * **Pipelining** (Fig. 2): the Nc + 3 levels (level 1 = coordinator + PE 0) each work on
//!   a different block; block i+1 enters as soon as the coordinator has it. The paper's
//!   (Nc + 3)× assumes every level takes the same time; by its own counts the coordinator
//!   does ~1.5·(k − log2 X) MulMods and a PE at most 4, so the ideal ratio is
//!   `latency / busiest unit` ([`schedule()`]); at Nc = 2: ≈ 1.004 for a random 1024-bit
//!   exponent, 1.5 for e = 65537, 2.33 when the coordinator has nothing to do (e = X). The
//!   model counts MulMods only; measured ratios also overlap the channel hand-offs, which
//!   dominate short exponents, and with 8·Nc + 1 threads on few cores the PEs take turns.
//! * **Optimization** (Fig. 3): the program is symmetric under swapping address bits 0 and
//!   2 inside a cube, so PE 1 ≡ PE 4 and PE 3 ≡ PE 6 in every cube (tested on the values).
//!   The optimized form removes local PEs 1 and 3 (1, 3, 9, 11 at Nc = 2: 16 → 12 PEs,
//!   8Nc → 6Nc) and their consumers take the mirror's value twice (a squaring instead of a
//!   product: same MulMod count), over edges that already exist.
//!
//! # Figures and formulas in code
//!
//! | paper | here |
//! |---|---|
//! | Fig. 1 (CRSA on two cubes) | [`Topology::new`]`(2, false)`, [`Crsa`] |
//! | Fig. 2 (pipeline steps) | [`engine`] with `max_in_flight > 1`, [`CrsaPipelined`], [`Schedule`] |
//! | Fig. 3 (a)–(c) (duplicates, removal) | [`topology::mirror`], [`topology::removed_when_optimized`], [`CrsaOptimized`] |
//! | Fig. 4 (throughput, efficiency) | `parcrypt_lab::suites::crsa::throughput`, [`efficiency`] |
//! | binary k − 1 … 2(k − 1), η(k, Nc), Table 1, CRT 3k²/4 + k, Montgomery 2k² + k | the lab's `suites::crsa_paper` (the paper's formulas beside [`Schedule`]'s counts) |
//! | E = S/8Nc → S/6Nc | [`efficiency`] |
//!
//! Where the paper contradicts itself we chose, and tests pin the choice: η is printed
//! `(k − 1)·log(…)` but Table 1's 2044 needs `(k − 1) − log2(…)`, so "·" is read as "−";
//! Table 1 adds the hypercube's time (5Nc − 1), not its MulMods (10Nc − 5), and we report
//! both; "Bielecki and Burak 2k² = 4.4942e+307" is 2^1022, not 2k².
pub mod coordinator;
pub mod engine;
pub mod optimized;
pub mod pipelined;
pub mod schedule;
#[cfg(test)]
mod tests;
pub mod topology;

pub use engine::{BatchOutcome, EdgeUse, EngineStats};
pub use optimized::{CrsaOptimized, Efficiency, efficiency};
pub use pipelined::{CrsaPipelined, EngineConfig, pow_mod_batch_vartime};
pub use schedule::{LevelCount, Schedule, schedule};
pub use topology::{Node, PeId, Topology};

use super::{ModExp, Outcome, Params};
use crate::error::Result;
use rug::Integer;

/// Most cubes a CRSA machine may have (8·8 = 64 PE threads).
pub const MAX_CUBES: usize = 8;

/// Nc when [`Params::cubes`] is `None`: the paper's example.
pub const DEFAULT_CUBES: usize = 2;

/// The main CRSA (Fig. 1): 8·Nc PEs, one block at a time.
pub struct Crsa;

/// One exponentiation through the engine as `config` says.
fn one_block(
    config: EngineConfig,
    base: &Integer,
    exp: &Integer,
    modulus: &Integer,
) -> Result<Outcome> {
    let out = pow_mod_batch_vartime(std::slice::from_ref(base), exp, modulus, &config)?;
    let value = out
        .values
        .into_iter()
        .next()
        .unwrap_or_else(|| Integer::from(1));
    Ok(Outcome {
        value,
        counts: out.counts,
    })
}

/// The three CRSA strategies differ only in name, description and machine: one
/// [`ModExp`] impl each, from one body.
macro_rules! crsa_strategy {
    ($ty:ty, $name:literal, $describe:literal, $machine:path) => {
        impl ModExp for $ty {
            fn name(&self) -> &'static str {
                $name
            }

            fn describe(&self) -> &'static str {
                $describe
            }

            fn is_parallel(&self) -> bool {
                true
            }

            fn pow_mod_normalized_vartime(
                &self,
                base: &Integer,
                exp: &Integer,
                modulus: &Integer,
                params: &Params,
            ) -> Result<Outcome> {
                let cubes = params.cubes.unwrap_or(DEFAULT_CUBES);
                one_block($machine(cubes), base, exp, modulus)
            }
        }
    };
}

crsa_strategy!(
    Crsa,
    "crsa",
    "CRSA: 8·Nc PEs on a hypercube + coordinator, values only along edges (CRSA)",
    EngineConfig::main
);
crsa_strategy!(
    CrsaPipelined,
    "crsa-pipelined",
    "pipelined CRSA: block i+1 enters while block i climbs the Nc + 3 levels (CRSA)",
    EngineConfig::pipelined
);
crsa_strategy!(
    CrsaOptimized,
    "crsa-optimized",
    "optimized CRSA: duplicate PEs removed, 6·Nc PEs instead of 8·Nc (CRSA)",
    EngineConfig::optimized
);
