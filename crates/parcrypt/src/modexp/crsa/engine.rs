//! The CRSA engine: one thread per PE, values moving only along hypercube edges, the
//! coordinator on the calling thread, a stream of blocks with a bound on how many are in
//! flight (1: the paper's main CRSA, where `C_{i+1}` starts after `C_i` is out; more: the
//! pipelined CRSA of Fig. 2, where block i+1 enters while block i climbs the levels).
//!
//! Every directed link is one `std::sync::mpsc` channel, created only through [`channel`],
//! which refuses anything that is not an edge of the [`Topology`]. Each PE counts the
//! messages it sends per link; [`EngineStats::edges`] reports them, so tests can check that
//! nothing crossed a non-edge. Channels are unbounded and the program is acyclic, so no send
//! blocks; when any party fails it drops its ends, every recv behind it fails, and every
//! thread returns and is joined before `run` returns.
use super::coordinator::{self, Split};
use super::topology::{Node, PeId, Role, Topology};
use crate::error::{Error, Result};
use crate::modexp::{Counter, UnitCount};
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::mpsc::{Receiver, Sender};

/// One value on a link, tagged with its block so misrouting cannot go unnoticed.
#[derive(Debug)]
struct Msg {
    block: usize,
    /// `None` only on the coordinator -> PE 7 link when `r = 0` (nothing to multiply in).
    value: Option<Integer>,
}

/// Messages sent along one directed link during a run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EdgeUse {
    /// Sender.
    pub from: Node,
    /// Receiver.
    pub to: Node,
    /// Messages sent (one per block).
    pub messages: u64,
}

/// What a run used: the machine and the links.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineStats {
    /// Cubes Nc.
    pub cubes: usize,
    /// Whether duplicate PEs were removed.
    pub optimized: bool,
    /// PE threads run (8·Nc or 6·Nc); the coordinator is the calling thread.
    pub pes: usize,
    /// X, the power the hypercube raises `b^q` to.
    pub power: u64,
    /// Most blocks in flight at once (1 = unpipelined).
    pub max_in_flight: usize,
    /// Blocks processed.
    pub blocks: usize,
    /// Every link used, with its message count, sorted.
    pub edges: Vec<EdgeUse>,
}

/// Values of every block, MulMods per unit summed over the blocks, and what was used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchOutcome {
    /// `bases[i]^e mod m`, in input order.
    pub values: Vec<Integer>,
    /// The coordinator first, then PEs in number order; totals over all blocks.
    pub counts: Vec<UnitCount>,
    /// Links and machine.
    pub stats: EngineStats,
}

/// Per PE, its product for every block (tests use it to check the mirror duplicates).
pub(crate) type Trace = Vec<(PeId, Vec<Integer>)>;

/// A channel for the link `from -> to`; an error if that is not an edge of `topo`.
pub fn channel<T>(topo: &Topology, from: Node, to: Node) -> Result<(Sender<T>, Receiver<T>)> {
    if !topo.is_link(from, to) {
        return Err(Error::InvalidParameter(format!(
            "{from} -> {to} is not a link of the hypercube"
        )));
    }
    Ok(std::sync::mpsc::channel())
}

/// One PE's ends of its links.
struct Wiring {
    role: Role,
    inputs: Vec<(Node, Receiver<Msg>)>,
    remainder: Option<Receiver<Msg>>,
    chain: Option<(Node, Receiver<Msg>)>,
    outputs: Vec<(Node, Sender<Msg>)>,
}

/// What a PE thread hands back.
struct Report {
    count: UnitCount,
    sent: Vec<(Node, u64)>,
    trace: Vec<Integer>,
}

fn internal(msg: String) -> Error {
    Error::InvalidParameter(format!("CRSA engine: {msg}"))
}

/// Runs `bases` (already reduced mod `modulus >= 2`) through the hypercube with at most
/// `max_in_flight` blocks in flight; `trace` keeps every PE's products.
pub(crate) fn run(
    topo: &Topology,
    bases: &[Integer],
    exp: &Integer,
    modulus: &Integer,
    max_in_flight: usize,
    trace: bool,
) -> Result<(BatchOutcome, Trace)> {
    let split = coordinator::split(exp, topo.power())?;
    let max_in_flight = max_in_flight.max(1);
    let (wirings, links) = wire(topo)?;
    let blocks = bases.len();
    let job = Job {
        bases,
        split: &split,
        modulus,
        max_in_flight,
        trace,
    };
    let (coord, reports) = run_threads(wirings, links, &job);
    let (values, coord_count) = coord?;
    let (counts, edges, traces) = tally(topo, coord_count, reports, blocks)?;
    let stats = EngineStats {
        cubes: topo.cubes(),
        optimized: topo.optimized(),
        pes: topo.pe_count(),
        power: topo.power(),
        max_in_flight,
        blocks,
        edges,
    };
    Ok((
        BatchOutcome {
            values,
            counts,
            stats,
        },
        traces,
    ))
}

/// What the coordinator hands back: the values in input order and its count.
type CoordOutcome = Result<(Vec<Integer>, UnitCount)>;

/// The coordinator's ends of its links: to PE 0 and PE 7, and back from PE 7.
struct CoordLinks {
    to_pe0: Sender<Msg>,
    to_pe7: Sender<Msg>,
    from_pe7: Receiver<Msg>,
}

/// What every thread of one run shares.
struct Job<'a> {
    bases: &'a [Integer],
    split: &'a Split,
    modulus: &'a Integer,
    max_in_flight: usize,
    trace: bool,
}

/// A channel per link of `topo`, handed out to the PEs' wirings and the coordinator.
fn wire(topo: &Topology) -> Result<(Vec<Wiring>, CoordLinks)> {
    let mut senders: BTreeMap<(Node, Node), Sender<Msg>> = BTreeMap::new();
    let mut receivers: BTreeMap<(Node, Node), Receiver<Msg>> = BTreeMap::new();
    for (from, to) in topo.links() {
        let (tx, rx) = channel(topo, from, to)?;
        senders.insert((from, to), tx);
        receivers.insert((from, to), rx);
    }
    let mut take_rx = |from: Node, to: Node| {
        receivers
            .remove(&(from, to))
            .ok_or_else(|| internal(format!("no link {from} -> {to}")))
    };
    let mut wirings = Vec::with_capacity(topo.pe_count());
    for role in topo.roles() {
        let me = Node::Pe(role.pe);
        let inputs = role
            .factors
            .iter()
            .map(|f| Ok((f.from, take_rx(f.from, me)?)))
            .collect::<Result<Vec<_>>>()?;
        let remainder = if role.remainder {
            Some(take_rx(Node::Coordinator, me)?)
        } else {
            None
        };
        let chain = match role.chain_from {
            Some(p) => Some((Node::Pe(p), take_rx(Node::Pe(p), me)?)),
            None => None,
        };
        let outputs = role
            .sends_to
            .iter()
            .map(|&to| {
                let tx = senders.remove(&(me, to));
                tx.map(|tx| (to, tx))
                    .ok_or_else(|| internal(format!("no link {me} -> {to}")))
            })
            .collect::<Result<Vec<_>>>()?;
        wirings.push(Wiring {
            role: role.clone(),
            inputs,
            remainder,
            chain,
            outputs,
        });
    }
    let to_pe0 = senders.remove(&(Node::Coordinator, Node::Pe(0)));
    let to_pe7 = senders.remove(&(Node::Coordinator, Node::Pe(7)));
    let from_pe7 = take_rx(Node::Pe(7), Node::Coordinator)?;
    let (Some(to_pe0), Some(to_pe7)) = (to_pe0, to_pe7) else {
        return Err(internal("coordinator links missing".into()));
    };
    Ok((
        wirings,
        CoordLinks {
            to_pe0,
            to_pe7,
            from_pe7,
        },
    ))
}

/// Starts a thread per PE, coordinates on this one, and joins them: the coordinator's
/// outcome and every PE's report (an error for a PE that could not start or panicked).
fn run_threads(
    wirings: Vec<Wiring>,
    links: CoordLinks,
    job: &Job,
) -> (CoordOutcome, Vec<Result<Report>>) {
    let Job {
        bases,
        split,
        modulus,
        max_in_flight,
        trace,
    } = *job;
    let blocks = bases.len();
    std::thread::scope(|s| {
        let mut handles = Vec::with_capacity(wirings.len());
        let mut spawn_error = None;
        for w in wirings {
            let name = format!("crsa-pe-{}", w.role.pe);
            match std::thread::Builder::new()
                .name(name)
                .spawn_scoped(s, move || pe_main(w, modulus, blocks, trace))
            {
                Ok(h) => handles.push(h),
                Err(e) => {
                    spawn_error = Some(internal(format!("cannot start a PE thread: {e}")));
                    break;
                }
            }
        }
        // On a failed spawn the unspawned wirings are dropped here, the coordinator sends
        // nothing, and every started PE sees its inputs close.
        let coord = match spawn_error {
            Some(e) => Err(e),
            None => coordinate(
                bases,
                split,
                modulus,
                max_in_flight,
                links.to_pe0,
                links.to_pe7,
                links.from_pe7,
            ),
        };
        let reports: Vec<Result<Report>> = handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(internal("a PE thread panicked".into())))
            })
            .collect();
        (coord, reports)
    })
}

/// The counts (coordinator first, then PEs), the links used and the traces, from the PEs'
/// reports.
fn tally(
    topo: &Topology,
    coord_count: UnitCount,
    reports: Vec<Result<Report>>,
    blocks: usize,
) -> Result<(Vec<UnitCount>, Vec<EdgeUse>, Trace)> {
    let mut counts = vec![coord_count];
    let mut edges = vec![
        EdgeUse {
            from: Node::Coordinator,
            to: Node::Pe(0),
            messages: blocks as u64,
        },
        EdgeUse {
            from: Node::Coordinator,
            to: Node::Pe(7),
            messages: blocks as u64,
        },
    ];
    let mut traces = Vec::new();
    for (role, report) in topo.roles().iter().zip(reports) {
        let report = report?;
        counts.push(report.count);
        edges.extend(report.sent.into_iter().map(|(to, messages)| EdgeUse {
            from: Node::Pe(role.pe),
            to,
            messages,
        }));
        traces.push((role.pe, report.trace));
    }
    edges.sort_by_key(|e| (e.from, e.to));
    Ok((counts, edges, traces))
}

/// The coordinator: computes `(b^q, b^r)` for each block, injects them, keeps at most
/// `max_in_flight` blocks between injection and result, and collects results in order.
fn coordinate(
    bases: &[Integer],
    split: &Split,
    modulus: &Integer,
    max_in_flight: usize,
    to_pe0: Sender<Msg>,
    to_pe7: Sender<Msg>,
    from_pe7: Receiver<Msg>,
) -> Result<(Vec<Integer>, UnitCount)> {
    let mut ctr = Counter::new("coordinator", modulus);
    let mut results = Vec::with_capacity(bases.len());
    let mut sent = 0;
    while results.len() < bases.len() {
        if sent < bases.len() && sent - results.len() < max_in_flight {
            let (y, z) = coordinator::powers(&mut ctr, &bases[sent], split);
            let lost = |_| internal("the hypercube stopped taking blocks".into());
            to_pe0
                .send(Msg {
                    block: sent,
                    value: Some(y),
                })
                .map_err(lost)?;
            to_pe7
                .send(Msg {
                    block: sent,
                    value: z,
                })
                .map_err(lost)?;
            sent += 1;
        } else {
            let m = from_pe7
                .recv()
                .map_err(|_| internal("PE 7 stopped answering".into()))?;
            match m.value {
                Some(v) if m.block == results.len() => results.push(v),
                _ => {
                    return Err(internal(format!(
                        "result for block {} out of order",
                        m.block
                    )));
                }
            }
        }
    }
    Ok((results, ctr.count))
}

fn recv(rx: &Receiver<Msg>, block: usize, me: PeId, from: Node) -> Result<Option<Integer>> {
    let m = rx
        .recv()
        .map_err(|_| internal(format!("PE {me} lost its input from {from}")))?;
    if m.block != block {
        return Err(internal(format!(
            "PE {me} got block {} from {from} while on block {block}",
            m.block
        )));
    }
    Ok(m.value)
}

/// One PE: for every block, multiply the factors (squaring those of power 2), fold in the
/// remainder and the next cube's result where its role says so, send the product on.
fn pe_main(w: Wiring, modulus: &Integer, blocks: usize, trace: bool) -> Result<Report> {
    let me = w.role.pe;
    let mut ctr = Counter::new(format!("PE {me}"), modulus);
    let mut sent = vec![0u64; w.outputs.len()];
    let mut kept = Vec::new();
    for block in 0..blocks {
        let mut acc: Option<Integer> = None;
        for (f, (from, rx)) in w.role.factors.iter().zip(&w.inputs) {
            let mut v = recv(rx, block, me, *from)?
                .ok_or_else(|| internal(format!("PE {me} got no value from {from}")))?;
            match f.power {
                1 => {}
                2 => ctr.square(&mut v),
                p => return Err(internal(format!("PE {me}: unsupported power {p}"))),
            }
            match acc.as_mut() {
                None => acc = Some(v),
                Some(a) => ctr.mul(a, &v),
            }
        }
        let mut acc = acc.ok_or_else(|| internal(format!("PE {me} has no inputs")))?;
        if let Some(rx) = &w.remainder {
            if let Some(z) = recv(rx, block, me, Node::Coordinator)? {
                ctr.mul(&mut acc, &z);
            }
        }
        if let Some((from, rx)) = &w.chain {
            let v = recv(rx, block, me, *from)?
                .ok_or_else(|| internal(format!("PE {me} got no value from {from}")))?;
            ctr.mul(&mut acc, &v);
        }
        if trace {
            kept.push(acc.clone());
        }
        for (i, (to, tx)) in w.outputs.iter().enumerate() {
            tx.send(Msg {
                block,
                value: Some(acc.clone()),
            })
            .map_err(|_| internal(format!("PE {me} could not reach {to}")))?;
            sent[i] += 1;
        }
    }
    let sent = w.outputs.iter().map(|(to, _)| *to).zip(sent).collect();
    Ok(Report {
        count: ctr.count,
        sent,
        trace: kept,
    })
}
