//! The machine-independent model of a CRSA run: MulMods per unit and per level for one
//! block, the critical path (steps per block without pipelining) and the busiest unit (steps
//! per block with pipelining), counted in MulMod times with every PE its own processor.
//!
//! It predicts exactly what the engine counts (tested), so the paper's formulas can be
//! compared at k = 1024 without running 1024-bit exponentiations through threads.
use super::coordinator::{self, Split};
use super::topology::{Node, PeId, Topology};
use crate::error::Result;
use crate::modexp::UnitCount;
use rug::Integer;
use serde::{Deserialize, Serialize};

/// MulMods of one pipeline level for one block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelCount {
    /// The paper's pipeline level, 1-based (level 1 = the coordinator and PE 0).
    pub level: usize,
    /// Its PEs.
    pub pes: Vec<PeId>,
    /// MulMods of its PEs together (the coordinator is not included; see `Schedule`).
    pub mulmods: u64,
    /// The most any one of its PEs does.
    pub max_per_pe: u64,
}

/// One block through the machine, counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Cubes Nc.
    pub cubes: usize,
    /// Whether duplicate PEs are removed.
    pub optimized: bool,
    /// X, the power the hypercube raises `b^q` to.
    pub power: u64,
    /// Bits of the coordinator's exponent `q = e div X`.
    pub q_bits: u32,
    /// `r = e mod X`.
    pub r: u64,
    /// Per unit, the coordinator first: what the engine counts for one block.
    pub per_unit: Vec<UnitCount>,
    /// Per pipeline level.
    pub per_level: Vec<LevelCount>,
    /// MulMods of the coordinator.
    pub coordinator_mulmods: u64,
    /// MulMods of all PEs together.
    pub hypercube_mulmods: u64,
    /// Everything: coordinator + PEs.
    pub total_mulmods: u64,
    /// Critical path through the hypercube alone, in MulMod times (input at time 0).
    pub hypercube_steps: u64,
    /// Critical path of one block, coordinator included: steps per block unpipelined.
    pub latency_steps: u64,
    /// The busiest unit's MulMods: steps per block once the pipeline is full.
    pub period_steps: u64,
    /// `latency_steps / period_steps`: the pipelined-to-main throughput ratio this model allows.
    pub ideal_ratio: f64,
    /// The paper's claim, Nc + 3 (every level taking equal time, T1 ≅ T2 = T3 ≅ T4 ≅ T5).
    pub paper_ratio: f64,
}

/// The schedule of one block with exponent `exp` on `topo`.
pub fn schedule(topo: &Topology, exp: &Integer) -> Result<Schedule> {
    let power = topo.power();
    let split = coordinator::split(exp, power)?;
    let (csq, cmul) = coordinator::predicted(&split);
    let with_r = split.r != 0;
    let mut per_unit = vec![UnitCount {
        unit: "coordinator".into(),
        squarings: csq,
        multiplications: cmul,
    }];
    per_unit.extend(topo.roles().iter().map(|r| UnitCount {
        unit: format!("PE {}", r.pe),
        squarings: r.squarings(),
        multiplications: r.multiplications(with_r),
    }));
    let per_level = (0..topo.levels())
        .map(|lv| {
            let roles: Vec<_> = topo.roles().iter().filter(|r| r.level == lv).collect();
            LevelCount {
                level: lv + 1,
                pes: roles.iter().map(|r| r.pe).collect(),
                mulmods: roles.iter().map(|r| r.mulmods(with_r)).sum(),
                max_per_pe: roles.iter().map(|r| r.mulmods(with_r)).max().unwrap_or(0),
            }
        })
        .collect();
    let coordinator_mulmods = csq + cmul;
    let hypercube_mulmods: u64 = topo.roles().iter().map(|r| r.mulmods(with_r)).sum();
    let latency_steps = finish(topo, 7, coordinator_mulmods, with_r);
    let period_steps = per_unit
        .iter()
        .map(UnitCount::mulmods)
        .max()
        .unwrap_or(0)
        .max(1);
    Ok(Schedule {
        cubes: topo.cubes(),
        optimized: topo.optimized(),
        power,
        q_bits: split.q.significant_bits(),
        r: split.r,
        per_unit,
        per_level,
        coordinator_mulmods,
        hypercube_mulmods,
        total_mulmods: coordinator_mulmods + hypercube_mulmods,
        hypercube_steps: finish(topo, 7, 0, with_r),
        latency_steps,
        period_steps,
        ideal_ratio: latency_steps as f64 / period_steps as f64,
        paper_ratio: (topo.cubes() + 3) as f64,
    })
}

/// When PE `pe` sends its product, the coordinator having finished at `start`: a PE starts
/// once all its factors are in, then folds in the remainder (ready at `start`) and the next
/// cube's result, one MulMod each.
fn finish(topo: &Topology, pe: PeId, start: u64, with_r: bool) -> u64 {
    let mut memo = vec![None; topo.cubes() * super::topology::PES_PER_CUBE];
    finish_memo(topo, pe, start, with_r, &mut memo)
}

fn finish_memo(
    topo: &Topology,
    pe: PeId,
    start: u64,
    with_r: bool,
    memo: &mut Vec<Option<u64>>,
) -> u64 {
    if let Some(Some(t)) = memo.get(pe) {
        return *t;
    }
    let Some(role) = topo.role(pe) else {
        return start;
    };
    let ready = role
        .factors
        .iter()
        .map(|f| match f.from {
            Node::Coordinator => start,
            Node::Pe(p) => finish_memo(topo, p, start, with_r, memo),
        })
        .max()
        .unwrap_or(start);
    let mut t = ready + role.squarings() + role.factors.len().saturating_sub(1) as u64;
    if role.remainder && with_r {
        t = t.max(start) + 1;
    }
    if let Some(c) = role.chain_from {
        t = t.max(finish_memo(topo, c, start, with_r, memo)) + 1;
    }
    if let Some(slot) = memo.get_mut(pe) {
        *slot = Some(t);
    }
    t
}

/// The split the coordinator makes for `exp` on `topo` (`e = X·q + r`).
pub fn split_for(topo: &Topology, exp: &Integer) -> Result<Split> {
    coordinator::split(exp, topo.power())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypercube_critical_path_is_3nc_plus_1() {
        // X | e: no remainder factor. Nc = 1 gives 4 = 5·Nc − 1 (the paper's time); after
        // that each cube adds 3 steps here, 5 in the paper.
        for nc in 1..=5 {
            for optimized in [false, true] {
                let topo = Topology::new(nc, optimized).unwrap();
                let e = Integer::from(topo.power()) << 10;
                let s = schedule(&topo, &e).unwrap();
                let want = if nc == 1 { 4 } else { 3 * nc as u64 + 1 };
                assert_eq!(s.hypercube_steps, want, "nc={nc} optimized={optimized}");
                assert_eq!(s.latency_steps, s.coordinator_mulmods + want);
            }
        }
    }

    #[test]
    fn levels_hold_every_pe_once() {
        let topo = Topology::new(3, false).unwrap();
        let s = schedule(&topo, &Integer::from(65_537)).unwrap();
        assert_eq!(s.per_level.len(), 6);
        let n: usize = s.per_level.iter().map(|l| l.pes.len()).sum();
        assert_eq!(n, 24);
        let by_level: u64 = s.per_level.iter().map(|l| l.mulmods).sum();
        assert_eq!(by_level, s.hypercube_mulmods);
    }

    #[test]
    fn pipelining_pays_only_when_the_coordinator_is_short() {
        let topo = Topology::new(2, false).unwrap();
        let big = (Integer::from(1) << 1024) - 1u32;
        let s = schedule(&topo, &big).unwrap();
        assert!(s.ideal_ratio < 1.01, "{}", s.ideal_ratio);
        let s = schedule(&topo, &Integer::from(65_537)).unwrap();
        assert!(
            s.ideal_ratio > 1.3 && s.ideal_ratio < 5.0,
            "{}",
            s.ideal_ratio
        );
        // With e = X the coordinator does nothing and the busiest PE (PE 7, 3 MulMods) sets
        // the pace: 7 steps per block unpipelined against 3 pipelined.
        let s = schedule(&topo, &Integer::from(topo.power())).unwrap();
        assert_eq!((s.latency_steps, s.period_steps), (7, 3));
    }
}
