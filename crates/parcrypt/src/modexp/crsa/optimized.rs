//! The optimized CRSA (Fig. 3): the PEs that compute duplicate values are removed, 8·Nc →
//! 6·Nc (16 → 12 at Nc = 2), and the efficiency E = S/P rises from S/(8Nc) to S/(6Nc).
//!
//! Which PEs are duplicates follows from the program's symmetry (see
//! [`topology::mirror`](super::topology::mirror)): swapping address bits 0 and 2 of a cube maps
//! the program onto itself, so local PE 1 holds PE 4's value and PE 3 holds PE 6's, in every
//! cube and for every block (tested on traced values). Removing 1 and 3 keeps PE 0 and PE 7,
//! the PEs that link the cubes, as the paper requires ("the eliminated PEs do not include the
//! ones playing the role of connecting two cubes"). A consumer of a removed PE reads the
//! mirror instead; when it already read the mirror, the product `v·v` becomes the squaring
//! `v²`, so no PE does more MulMods than before and the total drops by the removed PEs' own
//! work: 13Nc − 6 → 10Nc − 5 (Nc ≥ 2; 7 → 5 at Nc = 1), the paper's 10Nc − 5 exactly.
use super::schedule::schedule;
use super::topology::Topology;
use crate::error::Result;
use rug::Integer;
use serde::{Deserialize, Serialize};

/// The optimized CRSA (Fig. 3(c)): 6·Nc PEs, one block at a time.
pub struct CrsaOptimized;

/// Ideal speedup and efficiency of the main and optimized CRSA for one exponent, in MulMod
/// steps (every PE its own processor), against the sequential `binary` method.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Efficiency {
    /// Cubes Nc.
    pub cubes: usize,
    /// Bits of the exponent.
    pub exp_bits: u32,
    /// MulMods of `binary` (k − 1 squarings + weight − 1 multiplications): its steps.
    pub binary_steps: u64,
    /// Critical path of the main CRSA, coordinator included.
    pub main_steps: u64,
    /// Critical path of the optimized CRSA (the same: only duplicates were removed).
    pub optimized_steps: u64,
    /// PEs of the main CRSA, 8·Nc (the paper's P; the coordinator is not counted).
    pub main_pes: usize,
    /// PEs of the optimized CRSA, 6·Nc.
    pub optimized_pes: usize,
    /// S = binary_steps / main_steps.
    pub speedup: f64,
    /// S / (8·Nc).
    pub main_efficiency: f64,
    /// S / (6·Nc).
    pub optimized_efficiency: f64,
}

/// The ideal efficiency of both forms for exponent `exp` with `cubes` cubes.
pub fn efficiency(exp: &Integer, cubes: usize) -> Result<Efficiency> {
    let main = Topology::new(cubes, false)?;
    let opt = Topology::new(cubes, true)?;
    let (sm, so) = (schedule(&main, exp)?, schedule(&opt, exp)?);
    let bits = exp.significant_bits();
    let binary_steps = if bits == 0 {
        0
    } else {
        u64::from(bits - 1) + u64::from(exp.count_ones().unwrap_or(1) - 1)
    };
    let speedup = binary_steps as f64 / sm.latency_steps.max(1) as f64;
    Ok(Efficiency {
        cubes,
        exp_bits: bits,
        binary_steps,
        main_steps: sm.latency_steps,
        optimized_steps: so.latency_steps,
        main_pes: main.pe_count(),
        optimized_pes: opt.pe_count(),
        speedup,
        main_efficiency: speedup / main.pe_count() as f64,
        optimized_efficiency: speedup / opt.pe_count() as f64,
    })
}

#[cfg(test)]
mod tests {
    use super::super::engine;
    use super::super::topology::{PES_PER_CUBE, mirror};
    use super::*;

    #[test]
    fn removes_exactly_the_papers_pes() {
        let full = Topology::new(2, false).unwrap();
        let opt = Topology::new(2, true).unwrap();
        let gone: Vec<usize> = full
            .roles()
            .iter()
            .map(|r| r.pe)
            .filter(|&p| opt.role(p).is_none())
            .collect();
        assert_eq!(gone, vec![1, 3, 9, 11]);
        for nc in 1..=4 {
            let (f, o) = (
                Topology::new(nc, false).unwrap(),
                Topology::new(nc, true).unwrap(),
            );
            assert_eq!((f.pe_count(), o.pe_count()), (8 * nc, 6 * nc));
            assert_eq!(f.power(), o.power(), "same X");
        }
    }

    #[test]
    fn removed_pes_hold_their_mirrors_values() {
        let m = Integer::from(1_000_000_007u64);
        let bases: Vec<Integer> = (2..6).map(Integer::from).collect();
        for nc in 1..=3 {
            let topo = Topology::new(nc, false).unwrap();
            let e = Integer::from(123_456_789u64);
            let (out, trace) = engine::run(&topo, &bases, &e, &m, 3, true).unwrap();
            let value = |pe: usize| &trace.iter().find(|(p, _)| *p == pe).unwrap().1;
            for c in 0..nc {
                for l in [1, 3] {
                    let pe = c * PES_PER_CUBE + l;
                    let twin = c * PES_PER_CUBE + mirror(l);
                    assert_eq!(value(pe), value(twin), "PE {pe} vs PE {twin}");
                }
            }
            let opt = Topology::new(nc, true).unwrap();
            let (o, _) = engine::run(&opt, &bases, &e, &m, 1, false).unwrap();
            assert_eq!(o.values, out.values);
        }
    }

    #[test]
    fn optimization_never_adds_mulmods_to_a_pe() {
        for nc in 1..=4 {
            let (f, o) = (
                Topology::new(nc, false).unwrap(),
                Topology::new(nc, true).unwrap(),
            );
            for r in o.roles() {
                let before = f.role(r.pe).unwrap().mulmods(false);
                assert_eq!(r.mulmods(false), before, "PE {}", r.pe);
            }
        }
    }

    #[test]
    fn efficiency_rises_by_eight_sixths() {
        let e = (Integer::from(1) << 1023) + 12_345u32;
        let eff = efficiency(&e, 2).unwrap();
        assert_eq!((eff.main_pes, eff.optimized_pes), (16, 12));
        assert_eq!(eff.main_steps, eff.optimized_steps);
        let gain = eff.optimized_efficiency / eff.main_efficiency;
        assert!((gain - 8.0 / 6.0).abs() < 1e-12);
        assert!(efficiency(&e, 0).is_err());
    }
}
