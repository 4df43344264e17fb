//! CRSA over ranks (CRSA): the hypercube's processing elements placed on ranks by the low
//! bits of their hypercube address, values moving only along hypercube edges, the coordinator
//! on rank 0. Variable-time, like the thread engine.
//!
//! With R = 2^r ranks, PE `p` lives on rank `address(p) mod R`. Two PEs on an edge differ in
//! one address bit, so their ranks are equal (the value stays in the rank) or differ in one bit
//! (a rank-hypercube edge): the rank-bit topology. R may be 1 up to the address space (8 for
//! one cube, 16 for two, ...). Every value sent is checked against the topology before it
//! leaves ([`Placement::check`]) and counted per link; rank 0 compares the values, the MulMod
//! counts per PE and the link counts with the thread engine's ([`parcrypt::modexp::crsa`]).
//!
//! Each rank runs whichever step of its PEs has all its inputs, as the thread engine's PEs do
//! (a fixed order would leave a ready step waiting behind one whose value is still on its way);
//! the coordinator injects a block when fewer than the engine's `max_in_flight` are in flight.
//! Values move as fixed-width bytes in reused buffers, and every wait polls without sleeping
//! where the ranks fit the cores: the per-message costs are the copy and MPI's own.
use super::backoff::Backoff;
use super::comm::{Ranks, tag};
use super::error::{MpiError, MpiResult};
use super::wire::{Reader, put_integer, put_u64};
use parcrypt::modexp::crsa::topology::{Node, Role, Topology};
use parcrypt::modexp::crsa::{EdgeUse, EngineConfig, coordinator};
use parcrypt::modexp::{Counter, UnitCount};
use rug::Integer;
use std::collections::{BTreeMap, HashMap};

/// Where every PE runs.
#[derive(Clone, Debug)]
pub struct Placement {
    topo: Topology,
    ranks: usize,
}

impl Placement {
    /// PEs of `topo` over `ranks` ranks. Errors (usage): `ranks` not a power of two, or more
    /// ranks than hypercube addresses.
    pub fn new(topo: Topology, ranks: usize) -> MpiResult<Self> {
        let addresses = 8 * topo.cubes().next_power_of_two();
        if !ranks.is_power_of_two() || ranks > addresses {
            return Err(MpiError::Usage(format!(
                "a CRSA hypercube of {} cube(s) has {addresses} addresses ({} dimensions): it \
                 needs a power-of-two number of ranks from 1 to {addresses}, got {ranks}",
                topo.cubes(),
                addresses.trailing_zeros()
            )));
        }
        Ok(Self { topo, ranks })
    }

    /// The rank of a node (the coordinator is on rank 0).
    pub fn rank_of(&self, node: Node) -> usize {
        match node {
            Node::Coordinator => 0,
            Node::Pe(p) => Topology::address(p) % self.ranks,
        }
    }

    /// Whether a value may go `from -> to`: a link of the hypercube and, across ranks, a
    /// rank-hypercube edge (one rank bit) or one of the coordinator's three links.
    pub fn check(&self, from: Node, to: Node) -> MpiResult<()> {
        let (a, b) = (self.rank_of(from), self.rank_of(to));
        let coordinator_link = matches!(from, Node::Coordinator) || matches!(to, Node::Coordinator);
        if !self.topo.is_link(from, to)
            || (a != b && !coordinator_link && (a ^ b).count_ones() != 1)
        {
            return Err(MpiError::Protocol(format!(
                "{from} -> {to} (rank {a} -> rank {b}) is not an edge"
            )));
        }
        Ok(())
    }

    /// The roles of the PEs on `rank`, in dependency order.
    pub fn roles_on(&self, rank: usize) -> Vec<&Role> {
        self.dependency_order()
            .into_iter()
            .filter(|r| self.rank_of(Node::Pe(r.pe)) == rank)
            .collect()
    }

    /// Every PE's role in an order where each PE comes after every PE it reads from.
    pub fn dependency_order(&self) -> Vec<&Role> {
        let roles = self.topo.roles();
        let mut done: Vec<usize> = Vec::new();
        let mut order = Vec::new();
        while order.len() < roles.len() {
            let before = order.len();
            for r in roles {
                if done.contains(&r.pe) {
                    continue;
                }
                let ready = r
                    .factors
                    .iter()
                    .map(|f| f.from)
                    .chain(r.chain_from.map(Node::Pe))
                    .all(|n| {
                        matches!(n, Node::Coordinator)
                            || matches!(n, Node::Pe(p) if done.contains(&p))
                    });
                if ready {
                    done.push(r.pe);
                    order.push(r);
                }
            }
            assert!(order.len() > before, "the CRSA program is acyclic");
        }
        order
    }
}

/// What one run gave, on rank 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CrsaOutcome {
    /// `bases[i]^e mod m`.
    pub values: Vec<Integer>,
    /// The coordinator first, then PEs in number order (as the thread engine).
    pub counts: Vec<UnitCount>,
    /// Every link used with its message count, sorted (as the thread engine).
    pub edges: Vec<EdgeUse>,
    /// Messages that crossed from one rank to another.
    pub cross_rank_messages: u64,
}

/// Values that arrived and are not yet used, by (block, from, to).
type Held = HashMap<(usize, Node, Node), Option<Integer>>;

fn node_code(n: Node) -> u64 {
    match n {
        Node::Coordinator => u64::MAX,
        Node::Pe(p) => p as u64,
    }
}

fn node_of(code: u64) -> Node {
    if code == u64::MAX {
        Node::Coordinator
    } else {
        Node::Pe(code as usize)
    }
}

/// Every value a PE's step of one block reads.
fn inputs(role: &Role, pe: Node) -> impl Iterator<Item = (Node, Node)> + '_ {
    role.factors
        .iter()
        .map(move |f| (f.from, pe))
        .chain(role.remainder.then_some((Node::Coordinator, pe)))
        .chain(role.chain_from.map(|p| (Node::Pe(p), pe)))
}

/// One rank's side of a run: its PEs' counters, what it sent, and the values held.
struct Local<'a> {
    ranks: &'a Ranks,
    place: &'a Placement,
    width: usize,
    held: Held,
    sent: BTreeMap<(Node, Node), u64>,
    cross: u64,
    msg: Vec<u8>,
    inbox: Vec<u8>,
}

impl Local<'_> {
    /// Sends `v` along `from -> to` (checked against the topology), or keeps it if `to` is
    /// on this rank.
    fn deliver(&mut self, block: usize, from: Node, to: Node, v: Option<Integer>) -> MpiResult<()> {
        self.place.check(from, to)?;
        *self.sent.entry((from, to)).or_default() += 1;
        let dest = self.place.rank_of(to);
        if dest == self.ranks.rank() {
            self.held.insert((block, from, to), v);
            return Ok(());
        }
        self.cross += 1;
        self.msg.clear();
        put_u64(&mut self.msg, block as u64);
        put_u64(&mut self.msg, node_code(from));
        put_u64(&mut self.msg, node_code(to));
        put_u64(&mut self.msg, u64::from(v.is_some()));
        if let Some(v) = &v {
            put_integer(&mut self.msg, v, self.width);
        }
        self.ranks.send(dest, tag::LINK, &self.msg);
        Ok(())
    }

    /// Takes in one value if one has arrived; whether one had.
    fn take_in(&mut self) -> MpiResult<bool> {
        if self
            .ranks
            .try_recv_into(None, tag::LINK, &mut self.inbox)
            .is_none()
        {
            return Ok(false);
        }
        let mut r = Reader::new(&self.inbox);
        let key = (r.usize()?, node_of(r.u64()?), node_of(r.u64()?));
        let v = match r.u64()? {
            0 => None,
            _ => Some(r.integer(self.width)?),
        };
        self.held.insert(key, v);
        Ok(true)
    }

    /// A value that must be there.
    fn value(&mut self, block: usize, from: Node, to: Node) -> MpiResult<Integer> {
        self.held
            .remove(&(block, from, to))
            .flatten()
            .ok_or_else(|| MpiError::Protocol(format!("{to} got no value from {from}")))
    }

    /// Runs `role`'s step of `block` (its inputs are held) and sends its product on.
    fn step(&mut self, block: usize, role: &Role, ctr: &mut Counter<'_>) -> MpiResult<()> {
        let pe = Node::Pe(role.pe);
        let mut acc: Option<Integer> = None;
        for f in &role.factors {
            let mut v = self.value(block, f.from, pe)?;
            if f.power == 2 {
                ctr.square(&mut v);
            }
            match acc.as_mut() {
                None => acc = Some(v),
                Some(a) => ctr.mul(a, &v),
            }
        }
        let mut acc = acc.ok_or_else(|| MpiError::Protocol(format!("{pe} has no inputs")))?;
        if role.remainder {
            if let Some(z) = self.held.remove(&(block, Node::Coordinator, pe)).flatten() {
                ctr.mul(&mut acc, &z);
            }
        }
        if let Some(p) = role.chain_from {
            let v = self.value(block, Node::Pe(p), pe)?;
            ctr.mul(&mut acc, &v);
        }
        for &to in &role.sends_to {
            self.deliver(block, pe, to, Some(acc.clone()))?;
        }
        Ok(())
    }
}

/// Runs `bases` (reduced, rank 0 only) through the hypercube over all ranks. Every rank
/// returns; rank 0's outcome has the values, counts and links of all ranks.
///
/// Each rank runs whichever of its PEs' steps has all its inputs (lowest block first), like
/// the thread engine's PEs, each of which runs as soon as its inputs arrive; it waits for a
/// value only when none is ready (busy: [`Backoff::busy`]). Rank 0 also hosts the coordinator,
/// which injects a block whenever fewer than the engine's `max_in_flight` are in flight, after
/// the ready PE steps (they are short and unblock other ranks).
pub fn run(
    ranks: &Ranks,
    config: &EngineConfig,
    bases: &[Integer],
    blocks: usize,
    exp: &Integer,
    modulus: &Integer,
) -> MpiResult<Option<CrsaOutcome>> {
    let place = Placement::new(config.topology()?, ranks.size())?;
    let split = coordinator::split(exp, place.topo.power())?;
    let me = ranks.rank();
    let order = place.roles_on(me);
    let mut counters: Vec<Counter<'_>> = order
        .iter()
        .map(|r| Counter::new(format!("PE {}", r.pe), modulus))
        .collect();
    let mut coord = Counter::new("coordinator", modulus);
    let mut local = Local {
        ranks,
        place: &place,
        width: modulus.significant_bits().div_ceil(8) as usize,
        held: HashMap::new(),
        sent: BTreeMap::new(),
        cross: 0,
        msg: Vec::new(),
        inbox: Vec::new(),
    };
    let max_in_flight = config.max_in_flight();
    let root = ranks.is_root();
    // Steps not yet run, (block, index in `order`), in block then dependency order.
    let mut todo: std::collections::VecDeque<(usize, usize)> = (0..blocks)
        .flat_map(|b| (0..order.len()).map(move |i| (b, i)))
        .collect();
    let (mut injected, mut values) = (0, Vec::new());
    let mut backoff = Backoff::busy();
    while !todo.is_empty() || (root && values.len() < blocks) {
        let mut progressed = false;
        while local.take_in()? {
            progressed = true;
        }
        if root {
            let b = values.len();
            if let Some(v) = local.held.remove(&(b, Node::Pe(7), Node::Coordinator)) {
                values.push(v.ok_or_else(|| MpiError::Protocol("no result from PE 7".into()))?);
                progressed = true;
            }
        }
        let ready = first_ready(&todo, &order, &local.held, max_in_flight);
        if let Some(at) = ready {
            let (b, i) = todo.remove(at).expect("a position in todo");
            local.step(b, order[i], &mut counters[i])?;
            progressed = true;
        } else if root && injected < blocks && injected < values.len() + max_in_flight {
            let (y, z) = coordinator::powers(&mut coord, &bases[injected], &split);
            local.deliver(injected, Node::Coordinator, Node::Pe(0), Some(y))?;
            local.deliver(injected, Node::Coordinator, Node::Pe(7), z)?;
            injected += 1;
            progressed = true;
        }
        if progressed {
            backoff = Backoff::busy();
            continue;
        }
        ranks.check_deadline(&backoff, None)?;
        backoff.pause();
    }
    let Some((pe_counts, edges, cross_rank_messages)) =
        report_to_root(ranks, counters, local.sent, local.cross)?
    else {
        return Ok(None);
    };
    let mut counts = vec![coord.count];
    counts.extend(pe_counts.into_iter().map(|(_, c)| c));
    Ok(Some(CrsaOutcome {
        values,
        counts,
        edges,
        cross_rank_messages,
    }))
}

/// The first step of `todo` whose inputs are all here, among the blocks that may be in
/// flight.
fn first_ready(
    todo: &std::collections::VecDeque<(usize, usize)>,
    order: &[&Role],
    held: &Held,
    max_in_flight: usize,
) -> Option<usize> {
    let window = todo.front().map_or(0, |t| t.0) + max_in_flight;
    todo.iter().position(|&(b, i)| {
        b < window
            && inputs(order[i], Node::Pe(order[i].pe)).all(|k| held.contains_key(&(b, k.0, k.1)))
    })
}

/// Every PE's count with its PE number.
type PeCounts = Vec<(usize, UnitCount)>;

/// This rank's counts and link uses to rank 0, which gets every PE's counts (in PE order),
/// the links used and the messages that crossed ranks; `None` on the other ranks.
fn report_to_root(
    ranks: &Ranks,
    counters: Vec<Counter<'_>>,
    sent: BTreeMap<(Node, Node), u64>,
    cross: u64,
) -> MpiResult<Option<(PeCounts, Vec<EdgeUse>, u64)>> {
    let counts: Vec<UnitCount> = counters.into_iter().map(|c| c.count).collect();
    let links: Vec<(Node, Node, u64)> = sent.into_iter().map(|((f, t), n)| (f, t, n)).collect();
    let report = serde_json::to_vec(&(counts, links)).expect("plain fields serialize");
    let cross = ranks.reduce_sum(cross);
    let (Some(all), Some(cross_rank_messages)) = (ranks.gather(&report), cross) else {
        return Ok(None);
    };
    let (pe_counts, edges) = merge_reports(all)?;
    Ok(Some((pe_counts, edges, cross_rank_messages)))
}

/// The PEs' counts (in PE order) and the links used, from every rank's report.
fn merge_reports(all: Vec<Vec<u8>>) -> MpiResult<(PeCounts, Vec<EdgeUse>)> {
    let mut pe_counts: Vec<(usize, UnitCount)> = Vec::new();
    let mut edges = Vec::new();
    for bytes in all {
        let (counts, links): (Vec<UnitCount>, Vec<(Node, Node, u64)>) =
            serde_json::from_slice(&bytes).map_err(|e| MpiError::Protocol(e.to_string()))?;
        for c in counts {
            let pe = c
                .unit
                .trim_start_matches("PE ")
                .parse()
                .unwrap_or(usize::MAX);
            pe_counts.push((pe, c));
        }
        edges.extend(
            links
                .into_iter()
                .map(|(from, to, messages)| EdgeUse { from, to, messages }),
        );
    }
    pe_counts.sort_by_key(|(pe, _)| *pe);
    edges.sort_by_key(|e| (e.from, e.to));
    Ok((pe_counts, edges))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_uses_address_bits_and_refuses_misfits() {
        let topo = Topology::new(2, false).unwrap();
        for r in [1, 2, 4, 8, 16] {
            let p = Placement::new(topo.clone(), r).unwrap();
            for (from, to) in topo.links() {
                p.check(from, to).unwrap();
            }
            assert_eq!(p.dependency_order().len(), 16);
        }
        assert!(matches!(
            Placement::new(topo.clone(), 3),
            Err(MpiError::Usage(_))
        ));
        assert!(Placement::new(topo.clone(), 32).is_err());
        let p = Placement::new(topo, 4).unwrap();
        assert_eq!(p.rank_of(Node::Pe(7)), 3);
        assert_eq!(p.rank_of(Node::Pe(13)), 1);
        assert!(p.check(Node::Pe(0), Node::Pe(3)).is_err(), "not an edge");
    }

    #[test]
    fn dependency_order_puts_the_chain_of_pe7s_last_first() {
        let p = Placement::new(Topology::new(3, false).unwrap(), 8).unwrap();
        let order: Vec<usize> = p.dependency_order().iter().map(|r| r.pe).collect();
        let at = |pe| order.iter().position(|&x| x == pe).unwrap();
        assert!(at(23) < at(15) && at(15) < at(7));
    }
}
