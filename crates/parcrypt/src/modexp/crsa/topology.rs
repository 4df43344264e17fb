//! The CRSA hypercube: which PEs exist, where they sit, which links are edges, and the
//! dataflow program every PE runs (the paper's Fig. 1 and Fig. 3, as code).
//!
//! PE `p = 8·c + l` is PE `l` (0..8) of cube `c` (0..Nc), numbered as in the paper's figures.
//! Its hypercube address is `8·gray(c) + l`, `gray(c) = c ^ (c >> 1)`: consecutive cubes then
//! differ in one address bit, so the chain of cubes rides on hypercube edges for every Nc (for
//! Nc = 1 and 2 the address is the PE number itself). Two PEs are neighbours when their
//! addresses differ in exactly one bit. The level of a PE is `c + popcount(l)`, which for
//! Nc = 2 is the Hamming weight of its number: levels 0..Nc+2, i.e. Nc + 3 pipeline levels.
use super::MAX_CUBES;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A processing element's number as the paper's figures give it: `8·cube + local`.
pub type PeId = usize;

/// PEs in one cube.
pub const PES_PER_CUBE: usize = 8;

/// An endpoint of a link: the coordinator or a processing element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Node {
    /// The coordinator (the embedded system's CPU in the paper), outside the hypercube.
    Coordinator,
    /// A processing element of the hypercube.
    Pe(PeId),
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Coordinator => write!(f, "coordinator"),
            Node::Pe(p) => write!(f, "PE {p}"),
        }
    }
}

/// One input of a PE's product: the value received from `from`, raised to `power` (1 or 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Factor {
    /// Who sends the value.
    pub from: Node,
    /// 1: used as is; 2: squared (the optimized form uses a mirror PE's value twice).
    pub power: u32,
}

/// What one PE does for every block: multiply its factors, then (PE 7 of a cube) fold in the
/// coordinator's remainder power and the next cube's result, and send the product on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Role {
    /// The PE.
    pub pe: PeId,
    /// Its level, 0-based (`cube + popcount(local)`); the paper's pipeline level is one more.
    pub level: usize,
    /// Its inputs, squared ones first.
    pub factors: Vec<Factor>,
    /// PE 7 of cube 0 only: multiplies in `b^r` (`r = e mod X`) from the coordinator.
    pub remainder: bool,
    /// PE 7 of a cube that has a next cube: multiplies in that cube's PE-7 result.
    pub chain_from: Option<PeId>,
    /// Where its product goes, in sending order.
    pub sends_to: Vec<Node>,
}

impl Role {
    /// Squarings per block.
    pub fn squarings(&self) -> u64 {
        self.factors.iter().map(|f| u64::from(f.power - 1)).sum()
    }

    /// Multiplications per block; `with_remainder` says whether `r != 0` (only PE 7 of cube 0
    /// depends on it).
    pub fn multiplications(&self, with_remainder: bool) -> u64 {
        let joins = self.factors.len().saturating_sub(1) as u64;
        joins + u64::from(self.chain_from.is_some()) + u64::from(self.remainder && with_remainder)
    }

    /// MulMods per block.
    pub fn mulmods(&self, with_remainder: bool) -> u64 {
        self.squarings() + self.multiplications(with_remainder)
    }
}

/// The cube of PE `pe`.
pub fn cube_of(pe: PeId) -> usize {
    pe / PES_PER_CUBE
}

/// The PE's number inside its cube (0..8).
pub fn local_of(pe: PeId) -> usize {
    pe % PES_PER_CUBE
}

/// The reflected binary Gray code of `c`.
pub fn gray(c: usize) -> usize {
    c ^ (c >> 1)
}

/// The mirror of a local PE number: bits 0 and 2 swapped. The program is symmetric under this
/// swap, so PE `l` and PE `mirror(l)` of a cube always hold the same value (1 ≡ 4, 3 ≡ 6).
pub fn mirror(local: usize) -> usize {
    (local & 0b010) | ((local & 1) << 2) | ((local >> 2) & 1)
}

/// Whether the optimized form removes local PE `local` of every cube: 1 and 3, the mirrors
/// of 4 and 6 (PEs 1, 3, 9 and 11 at Nc = 2, exactly the paper's Fig. 3(c)).
pub fn removed_when_optimized(local: usize) -> bool {
    local == 1 || local == 3
}

/// A CRSA hypercube of `cubes` cubes, full (8·Nc PEs) or optimized (6·Nc PEs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Topology {
    cubes: usize,
    optimized: bool,
    roles: Vec<Role>,
}

impl Topology {
    /// Builds the hypercube and its program. Errors: `cubes` outside 1..=[`MAX_CUBES`].
    pub fn new(cubes: usize, optimized: bool) -> Result<Self> {
        if cubes == 0 || cubes > MAX_CUBES {
            return Err(Error::InvalidParameter(format!(
                "CRSA needs 1 to {MAX_CUBES} cubes, got {cubes}"
            )));
        }
        let present = |pe: PeId| {
            pe < cubes * PES_PER_CUBE && !(optimized && removed_when_optimized(local_of(pe)))
        };
        let mut roles: Vec<Role> = (0..cubes * PES_PER_CUBE)
            .filter(|&pe| present(pe))
            .map(|pe| full_role(pe, cubes))
            .collect();
        if optimized {
            for role in &mut roles {
                redirect_to_mirrors(role);
            }
        }
        let outputs: Vec<(PeId, Vec<Node>)> = roles
            .iter()
            .map(|r| (r.pe, consumers(&roles, r.pe)))
            .collect();
        for (role, (_, to)) in roles.iter_mut().zip(outputs) {
            role.sends_to = to;
        }
        let topo = Self {
            cubes,
            optimized,
            roles,
        };
        for (from, to) in topo.links() {
            if !topo.is_link(from, to) {
                return Err(Error::InvalidParameter(format!(
                    "CRSA program uses {from} -> {to}, not a hypercube edge"
                )));
            }
        }
        Ok(topo)
    }

    /// Cubes Nc.
    pub fn cubes(&self) -> usize {
        self.cubes
    }

    /// Whether the duplicate PEs are removed.
    pub fn optimized(&self) -> bool {
        self.optimized
    }

    /// Every PE's role, in PE-number order.
    pub fn roles(&self) -> &[Role] {
        &self.roles
    }

    /// The role of PE `pe`, `None` if it does not exist (or was removed).
    pub fn role(&self, pe: PeId) -> Option<&Role> {
        self.roles.iter().find(|r| r.pe == pe)
    }

    /// PEs present (8·Nc, or 6·Nc optimized).
    pub fn pe_count(&self) -> usize {
        self.roles.len()
    }

    /// Pipeline levels, Nc + 3 (the coordinator shares the first with PE 0).
    pub fn levels(&self) -> usize {
        self.cubes + 3
    }

    /// The hypercube address of PE `pe`: `8·gray(cube) + local`.
    pub fn address(pe: PeId) -> usize {
        PES_PER_CUBE * gray(cube_of(pe)) + local_of(pe)
    }

    /// Whether `from -> to` is a link of this machine: two present PEs whose addresses differ
    /// in one bit, or one of the three coordinator links (coordinator -> PE 0 carries `b^q`,
    /// coordinator -> PE 7 carries `b^r`, PE 7 -> coordinator carries the result).
    pub fn is_link(&self, from: Node, to: Node) -> bool {
        match (from, to) {
            (Node::Coordinator, Node::Pe(p)) => p == 0 || p == 7,
            (Node::Pe(p), Node::Coordinator) => p == 7,
            (Node::Pe(a), Node::Pe(b)) => {
                self.role(a).is_some()
                    && self.role(b).is_some()
                    && (Self::address(a) ^ Self::address(b)).count_ones() == 1
            }
            (Node::Coordinator, Node::Coordinator) => false,
        }
    }

    /// Every directed link the program sends along, each once, sorted.
    pub fn links(&self) -> Vec<(Node, Node)> {
        let mut links: Vec<(Node, Node)> = self
            .roles
            .iter()
            .flat_map(|r| r.sends_to.iter().map(move |&to| (Node::Pe(r.pe), to)))
            .collect();
        links.push((Node::Coordinator, Node::Pe(0)));
        links.push((Node::Coordinator, Node::Pe(7)));
        links.sort();
        links.dedup();
        links
    }

    /// X: the fixed power the hypercube raises its input `y` to (PE 7 of cube 0 ends with
    /// `y^X`, before the remainder factor). 10 for Nc = 1, 42 for Nc = 2, 120 for Nc = 3.
    pub fn power(&self) -> u64 {
        let mut own = vec![0u64; self.cubes * PES_PER_CUBE];
        // Roles are in PE order and every factor comes from a lower level of a lower or equal
        // cube, so evaluating in (level, pe) order sees every input first.
        let mut order: Vec<&Role> = self.roles.iter().collect();
        order.sort_by_key(|r| (r.level, r.pe));
        for r in order {
            own[r.pe] = r
                .factors
                .iter()
                .map(|f| match f.from {
                    Node::Coordinator => u64::from(f.power),
                    Node::Pe(p) => u64::from(f.power) * own[p],
                })
                .sum();
        }
        (0..self.cubes).map(|c| own[c * PES_PER_CUBE + 7]).sum()
    }
}

/// PE `pe`'s role in the full (unoptimized) hypercube, before its outputs are filled in.
fn full_role(pe: PeId, cubes: usize) -> Role {
    let (c, l) = (cube_of(pe), local_of(pe));
    let at = |cube: usize, local: usize| Node::Pe(cube * PES_PER_CUBE + local);
    let factors = match (c, l) {
        // PE 0 takes y = b^q from the coordinator and passes it on unchanged.
        (0, 0) => vec![Factor {
            from: Node::Coordinator,
            power: 1,
        }],
        // Level 1 of cube 0: PE 2 forwards y, PEs 1 and 4 square it.
        (0, 2) => vec![Factor {
            from: at(0, 0),
            power: 1,
        }],
        (0, 1) | (0, 4) => vec![Factor {
            from: at(0, 0),
            power: 2,
        }],
        // PE 0 of a later cube squares PE 0 of the cube before.
        (_, 0) => vec![Factor {
            from: at(c - 1, 0),
            power: 2,
        }],
        // Everyone else multiplies what its lower-level neighbours hold: the PEs one bit below
        // in its own cube and the same PE of the cube before (PE 7 excepted: that edge carries
        // results the other way).
        _ => {
            let mut f: Vec<Factor> = (0..3)
                .filter(|b| l & (1 << b) != 0)
                .map(|b| Factor {
                    from: at(c, l ^ (1 << b)),
                    power: 1,
                })
                .collect();
            if c > 0 && l != 7 {
                f.push(Factor {
                    from: at(c - 1, l),
                    power: 1,
                });
            }
            f
        }
    };
    Role {
        pe,
        level: c + l.count_ones() as usize,
        factors,
        remainder: pe == 7,
        chain_from: (l == 7 && c + 1 < cubes).then(|| (c + 1) * PES_PER_CUBE + 7),
        sends_to: Vec::new(),
    }
}

/// Optimized form: a factor from a removed PE is taken from its mirror instead; when the
/// mirror is already a factor the two merge into one squared factor, moved to the front.
fn redirect_to_mirrors(role: &mut Role) {
    let mut merged: Vec<Factor> = Vec::with_capacity(role.factors.len());
    for f in &role.factors {
        let from = match f.from {
            Node::Pe(p) if removed_when_optimized(local_of(p)) => {
                Node::Pe(p - local_of(p) + mirror(local_of(p)))
            }
            other => other,
        };
        match merged.iter_mut().find(|m| m.from == from) {
            Some(m) => m.power += f.power,
            None => merged.push(Factor {
                from,
                power: f.power,
            }),
        }
    }
    merged.sort_by_key(|f| std::cmp::Reverse(f.power));
    role.factors = merged;
}

/// Who consumes PE `pe`'s product: every PE listing it as a factor or chain input, and the
/// coordinator for PE 7 of cube 0.
fn consumers(roles: &[Role], pe: PeId) -> Vec<Node> {
    let mut to: Vec<Node> = roles
        .iter()
        .filter(|r| r.factors.iter().any(|f| f.from == Node::Pe(pe)) || r.chain_from == Some(pe))
        .map(|r| Node::Pe(r.pe))
        .collect();
    if pe == 7 {
        to.push(Node::Coordinator);
    }
    to
}

#[cfg(test)]
impl Topology {
    /// Test hook: gives PE `pe`'s first factor a power the engine refuses, so that PE fails
    /// on its first block.
    pub(crate) fn break_pe(&mut self, pe: PeId) {
        if let Some(f) = self
            .roles
            .iter_mut()
            .find(|r| r.pe == pe)
            .and_then(|r| r.factors.first_mut())
        {
            f.power = 3;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn powers_follow_from_the_program() {
        let x: Vec<u64> = (1..=4)
            .map(|nc| Topology::new(nc, false).unwrap().power())
            .collect();
        assert_eq!(x, vec![10, 42, 120, 292]);
        assert_eq!(
            Topology::new(MAX_CUBES, true).unwrap().pe_count(),
            6 * MAX_CUBES
        );
    }

    #[test]
    fn mirror_swaps_bits_0_and_2_and_gray_chains_cubes() {
        let m: Vec<usize> = (0..8).map(mirror).collect();
        assert_eq!(m, vec![0, 4, 2, 6, 1, 5, 3, 7]);
        assert!((0..8).all(|l| mirror(mirror(l)) == l));
        for c in 1..MAX_CUBES {
            assert_eq!((gray(c) ^ gray(c - 1)).count_ones(), 1);
        }
        // Nc <= 2: addresses are the paper's PE numbers.
        assert!((0..16).all(|p| Topology::address(p) == p));
        assert_eq!(Topology::address(16), 24);
    }

    #[test]
    fn nc2_levels_are_hamming_weights() {
        let t = Topology::new(2, false).unwrap();
        assert!(
            t.roles()
                .iter()
                .all(|r| r.level == r.pe.count_ones() as usize)
        );
        let pe7 = t.role(7).unwrap();
        assert_eq!((pe7.remainder, pe7.chain_from), (true, Some(15)));
        assert_eq!(pe7.sends_to, vec![Node::Coordinator]);
        assert_eq!(t.role(15).unwrap().sends_to, vec![Node::Pe(7)]);
    }
}
