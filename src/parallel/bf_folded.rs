//! The folded round pipeline: Blowfish's rounds folded into as many stage groups as there are
//! cores, one thread per group, chunks handed from group to group through lock-free
//! single-producer single-consumer rings ([`spsc`](super::spsc)).
//!
//! Seed 001's layout ([`BfPipeline`](super::bf_pipeline::BfPipeline)) gives every round its
//! own thread plus an input and an output thread: 36 threads for encrypt+decrypt, which on a
//! machine with a few cores mostly wait for each other. Here `groups` threads each run a
//! contiguous share of the operations (the same `E1..EW`, `D1..DW` operations and names):
//!
//! - the rounds are dealt evenly (`schedule(static)` over the 16 or 32 rounds), and each
//!   whitening step (`EW`, `DW`) stays with the round before it; with more groups than rounds,
//!   the operations themselves are dealt;
//! - the first group reads the chunk's big-endian blocks itself and the last writes them back,
//!   so there are no input and output threads, and the calling thread runs the first group;
//! - a chunk never leaves the caller's buffer: between groups the half-blocks sit in the
//!   chunk's own bytes (little-endian), and the rings carry only `&mut [u8]` pieces;
//! - each group runs its operations over [`LANES`] blocks at a time, as the sequential
//!   interleaved ECB does, so one group does the same work per round as the fastest
//!   sequential form.
//!
//! Output equals Blowfish ECB (encrypt, decrypt, or encrypt then decrypt = the input) for any
//! chunk size (a multiple of 8) and group count; per-group busy, starved and blocked times are
//! reported in the same [`PipelineStats`] as the seed's layout.
use super::bf_pipeline::{Layout, Op, PipelineStats, StageStats};
use super::schedule::static_block;
use super::spsc::{self, Receiver, Sender};
use crate::cipher::blowfish::{BLOCK, Blowfish, LANES, check_whole_blocks, join, split};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// Default chunk: 64 KiB (a few hundred microseconds of work per group, so a hand-off costs
/// well under a percent).
pub const DEFAULT_CHUNK: usize = 64 * 1024;
/// Default ring capacity in chunks.
pub const DEFAULT_CAPACITY: usize = 2;

/// How a folded pipeline is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FoldedConfig {
    /// The operations to run.
    pub layout: Layout,
    /// Bytes per chunk (a positive multiple of 8); the last chunk may be shorter.
    pub chunk_bytes: usize,
    /// Stage groups (threads, the caller's included): 1 to the layout's operation count.
    pub groups: usize,
    /// Chunks each ring holds (at least 1).
    pub capacity: usize,
}

impl FoldedConfig {
    /// `groups` groups over `layout` with the default chunk and ring capacity.
    pub fn new(layout: Layout, groups: usize) -> Self {
        Self {
            layout,
            chunk_bytes: DEFAULT_CHUNK,
            groups,
            capacity: DEFAULT_CAPACITY,
        }
    }

    /// Checks the chunk size, the group count and the capacity.
    pub fn validate(&self) -> Result<()> {
        if self.chunk_bytes == 0 || self.chunk_bytes % BLOCK != 0 {
            return Err(Error::InvalidParameter(format!(
                "pipeline chunk must be a positive multiple of {BLOCK} bytes, got {}",
                self.chunk_bytes
            )));
        }
        let max = self.layout.operations();
        if !(1..=max).contains(&self.groups) {
            return Err(Error::InvalidParameter(format!(
                "folded pipeline stage groups must be 1 to {max}, got {}",
                self.groups
            )));
        }
        if self.capacity == 0 {
            return Err(Error::InvalidParameter(
                "folded pipeline rings must hold at least 1 chunk".into(),
            ));
        }
        Ok(())
    }
}

/// One operation on a set of lanes, without the seed's swap after each round: rounds
/// alternate which half they update, as in [`Blowfish::encrypt_words`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// `L ^= P[k]; R ^= F(L)`: the 1st, 3rd, ... round of a direction.
    Even(usize),
    /// `R ^= P[k]; L ^= F(R)`: the 2nd, 4th, ... round.
    Odd(usize),
    /// The whitening: `(L, R) = (R ^ P[l], L ^ P[r])`.
    Final { l: usize, r: usize },
}

/// The layout's operations as steps, with their names.
fn steps(layout: Layout) -> Vec<(Step, String)> {
    let mut round = 0;
    layout
        .ops()
        .into_iter()
        .map(|(op, name)| match op {
            Op::Round(k) => {
                round += 1;
                let step = if round % 2 == 1 {
                    Step::Even(k)
                } else {
                    Step::Odd(k)
                };
                (step, name)
            }
            Op::Final { r, l } => {
                round = 0;
                (Step::Final { l, r }, name)
            }
        })
        .collect()
}

/// The operation ranges of the groups (see the module docs).
fn group_ranges(ops: &[(Step, String)], groups: usize) -> Vec<std::ops::Range<usize>> {
    let rounds: Vec<usize> = (0..ops.len())
        .filter(|&k| !matches!(ops[k].0, Step::Final { .. }))
        .collect();
    if groups > rounds.len() {
        return (0..groups)
            .map(|g| static_block(ops.len(), groups, g))
            .collect();
    }
    let start = |g: usize| {
        if g == 0 {
            0
        } else if g == groups {
            ops.len()
        } else {
            rounds[static_block(rounds.len(), groups, g).start]
        }
    };
    (0..groups).map(|g| start(g)..start(g + 1)).collect()
}

/// One group's share.
struct GroupPlan {
    name: String,
    steps: Vec<Step>,
    rounds: usize,
}

/// A folded round pipeline over a Blowfish key schedule.
#[derive(Debug)]
pub struct FoldedPipeline<'a> {
    bf: &'a Blowfish,
    config: FoldedConfig,
    spin: Duration,
}

impl<'a> FoldedPipeline<'a> {
    /// A pipeline with a checked configuration.
    pub fn new(bf: &'a Blowfish, config: FoldedConfig) -> Result<Self> {
        config.validate()?;
        Ok(Self {
            bf,
            config,
            spin: spsc::DEFAULT_SPIN,
        })
    }

    /// How long a waiting group spins before it parks (default [`spsc::DEFAULT_SPIN`]).
    pub fn with_spin(self, spin: Duration) -> Self {
        Self { spin, ..self }
    }

    /// The configuration.
    pub fn config(&self) -> &FoldedConfig {
        &self.config
    }

    fn plan(&self) -> Vec<GroupPlan> {
        let ops = steps(self.config.layout);
        group_ranges(&ops, self.config.groups)
            .into_iter()
            .map(|r| {
                let name = if r.len() == 1 {
                    ops[r.start].1.clone()
                } else {
                    format!("{}..{}", ops[r.start].1, ops[r.end - 1].1)
                };
                let steps: Vec<Step> = ops[r].iter().map(|(s, _)| *s).collect();
                let rounds = steps
                    .iter()
                    .filter(|s| !matches!(s, Step::Final { .. }))
                    .count();
                GroupPlan {
                    name,
                    steps,
                    rounds,
                }
            })
            .collect()
    }

    /// The groups' names, first group first: `E1..E8`, `E9..EW`, ...
    pub fn stage_names(&self) -> Vec<String> {
        self.plan().into_iter().map(|p| p.name).collect()
    }

    /// Runs `data` (whole blocks) through the pipeline in place.
    pub fn run(&self, data: &mut [u8]) -> Result<PipelineStats> {
        check_whole_blocks(data.len())?;
        let plans = self.plan();
        let (chunk, cap, spin, bf) = (
            self.config.chunk_bytes,
            self.config.capacity,
            self.spin,
            self.bf,
        );
        let started = Instant::now();
        let last = plans.len() - 1;
        let stages = std::thread::scope(|s| {
            let mut handles = Vec::with_capacity(last);
            let mut first_tx = None;
            let mut prev_rx: Option<Receiver<&mut [u8]>> = None;
            for (g, plan) in plans.iter().enumerate() {
                let tx = (g < last).then(|| {
                    let (tx, rx) = spsc::channel(cap, spin);
                    (tx, rx)
                });
                let (tx, next_rx) = match tx {
                    Some((tx, rx)) => (Some(tx), Some(rx)),
                    None => (None, None),
                };
                if g == 0 {
                    first_tx = tx;
                } else {
                    let rx = prev_rx.take().expect("a ring into every later group");
                    handles.push(s.spawn(move || relay(bf, plan, g == last, rx, tx)));
                }
                prev_rx = next_rx;
            }
            let mut all = vec![source(bf, &plans[0], last == 0, data, chunk, first_tx)];
            for h in handles {
                match h.join() {
                    Ok(st) => all.push(st),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            all
        });
        Ok(PipelineStats {
            wall_s: started.elapsed().as_secs_f64(),
            stages,
        })
    }
}

fn stats(plan: &GroupPlan) -> StageStats {
    StageStats {
        name: plan.name.clone(),
        rounds: plan.rounds,
        ..StageStats::default()
    }
}

/// Hands a chunk on (if there is a next group) and records the time blocked; false if the
/// next group is gone.
fn hand_on<'d>(
    st: &mut StageStats,
    tx: &mut Option<Sender<&'d mut [u8]>>,
    c: &'d mut [u8],
) -> bool {
    let Some(tx) = tx.as_mut() else { return true };
    let t0 = Instant::now();
    let sent = tx.send(c).is_ok();
    st.send_wait_s += t0.elapsed().as_secs_f64();
    sent
}

/// The first group, on the calling thread: cuts `data` into chunks, runs its steps on each
/// (reading big-endian blocks) and hands it on.
fn source<'d>(
    bf: &Blowfish,
    plan: &GroupPlan,
    is_last: bool,
    data: &'d mut [u8],
    chunk: usize,
    mut tx: Option<Sender<&'d mut [u8]>>,
) -> StageStats {
    let mut st = stats(plan);
    for c in data.chunks_mut(chunk) {
        let t0 = Instant::now();
        if is_last {
            run_chunk::<true, true>(bf, &plan.steps, c);
        } else {
            run_chunk::<true, false>(bf, &plan.steps, c);
        }
        st.busy_s += t0.elapsed().as_secs_f64();
        st.chunks += 1;
        if !hand_on(&mut st, &mut tx, c) {
            break;
        }
    }
    st
}

/// A later group: receives chunks, runs its steps (the last one writing big-endian blocks)
/// and hands them on.
fn relay<'d>(
    bf: &Blowfish,
    plan: &GroupPlan,
    is_last: bool,
    mut rx: Receiver<&'d mut [u8]>,
    mut tx: Option<Sender<&'d mut [u8]>>,
) -> StageStats {
    let mut st = stats(plan);
    loop {
        let t0 = Instant::now();
        let Some(c) = rx.recv() else { break };
        let t1 = Instant::now();
        if is_last {
            run_chunk::<false, true>(bf, &plan.steps, c);
        } else {
            run_chunk::<false, false>(bf, &plan.steps, c);
        }
        st.recv_wait_s += (t1 - t0).as_secs_f64();
        st.busy_s += t1.elapsed().as_secs_f64();
        st.chunks += 1;
        if !hand_on(&mut st, &mut tx, c) {
            break;
        }
    }
    st
}

/// Runs `steps` over every block of a chunk, [`LANES`] blocks at a time. `FIRST`: the chunk
/// holds big-endian blocks (else little-endian half-blocks left by the previous group);
/// `LAST`: write big-endian blocks (else little-endian half-blocks for the next group).
fn run_chunk<const FIRST: bool, const LAST: bool>(bf: &Blowfish, steps: &[Step], chunk: &mut [u8]) {
    let mut groups = chunk.chunks_exact_mut(BLOCK * LANES);
    for g in &mut groups {
        run_blocks::<LANES, FIRST, LAST>(bf, steps, g);
    }
    for b in groups.into_remainder().chunks_exact_mut(BLOCK) {
        run_blocks::<1, FIRST, LAST>(bf, steps, b);
    }
}

#[inline(always)]
fn run_blocks<const N: usize, const FIRST: bool, const LAST: bool>(
    bf: &Blowfish,
    steps: &[Step],
    bytes: &mut [u8],
) {
    let (mut l, mut r) = ([0u32; N], [0u32; N]);
    for (x, block) in bytes.chunks_exact(BLOCK).enumerate() {
        (l[x], r[x]) = if FIRST { split(block) } else { split_le(block) };
    }
    let mut k = 0;
    while k < steps.len() {
        match (steps[k], steps.get(k + 1)) {
            // The common case: two rounds in one pass, as the sequential interleaved loop.
            (Step::Even(a), Some(&Step::Odd(b))) => {
                let (pa, pb) = (bf.subkey(a), bf.subkey(b));
                for x in 0..N {
                    l[x] ^= pa;
                    r[x] ^= bf.f(l[x]);
                }
                for x in 0..N {
                    r[x] ^= pb;
                    l[x] ^= bf.f(r[x]);
                }
                k += 2;
                continue;
            }
            (Step::Even(a), _) => {
                let p = bf.subkey(a);
                for x in 0..N {
                    l[x] ^= p;
                    r[x] ^= bf.f(l[x]);
                }
            }
            (Step::Odd(a), _) => {
                let p = bf.subkey(a);
                for x in 0..N {
                    r[x] ^= p;
                    l[x] ^= bf.f(r[x]);
                }
            }
            (Step::Final { l: kl, r: kr }, _) => {
                let (pl, pr) = (bf.subkey(kl), bf.subkey(kr));
                for x in 0..N {
                    (l[x], r[x]) = (r[x] ^ pl, l[x] ^ pr);
                }
            }
        }
        k += 1;
    }
    for (x, block) in bytes.chunks_exact_mut(BLOCK).enumerate() {
        if LAST {
            join(block, l[x], r[x]);
        } else {
            join_le(block, l[x], r[x]);
        }
    }
}

/// The half-blocks a previous group left in `block` (little-endian: a plain load on the usual
/// machines).
#[inline(always)]
fn split_le(block: &[u8]) -> (u32, u32) {
    (
        u32::from_le_bytes([block[0], block[1], block[2], block[3]]),
        u32::from_le_bytes([block[4], block[5], block[6], block[7]]),
    )
}

/// Leaves two half-blocks in `block` for the next group.
#[inline(always)]
fn join_le(block: &mut [u8], l: u32, r: u32) {
    block[..4].copy_from_slice(&l.to_le_bytes());
    block[4..8].copy_from_slice(&r.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(layout: Layout, groups: usize, chunk_bytes: usize) -> FoldedConfig {
        FoldedConfig {
            chunk_bytes,
            ..FoldedConfig::new(layout, groups)
        }
    }

    #[test]
    fn rounds_are_dealt_evenly_and_whitening_stays_with_its_round() {
        let bf = Blowfish::new(b"folded").unwrap();
        let names = |layout, groups| {
            FoldedPipeline::new(&bf, config(layout, groups, 64))
                .unwrap()
                .stage_names()
        };
        assert_eq!(names(Layout::Encrypt, 1), ["E1..EW"]);
        assert_eq!(names(Layout::Encrypt, 2), ["E1..E8", "E9..EW"]);
        assert_eq!(names(Layout::Decrypt, 3), ["D1..D6", "D7..D11", "D12..DW"]);
        assert_eq!(names(Layout::EncryptDecrypt, 2), ["E1..EW", "D1..DW"]);
        assert_eq!(names(Layout::Encrypt, 16).len(), 16);
        let all = names(Layout::Encrypt, 17);
        assert_eq!((all[0].as_str(), all[16].as_str()), ("E1", "EW"));
        assert_eq!(names(Layout::EncryptDecrypt, 34)[17], "D1");
    }

    #[test]
    fn equals_ecb_on_boundary_sizes_for_1_to_8_groups() {
        let bf = Blowfish::new(b"folded pipeline").unwrap();
        let chunk = 24;
        for blocks in [0usize, 1, 2, 3, 7, 8, 9, 16, 17, 50] {
            let data: Vec<u8> = (0..blocks * BLOCK).map(|i| (i * 29 + 3) as u8).collect();
            let mut ecb = data.clone();
            bf.encrypt_blocks(&mut ecb).unwrap();
            for groups in 1..=8 {
                for chunk_bytes in [8, chunk, 64, 72, 4096] {
                    let mut out = data.clone();
                    let p = FoldedPipeline::new(&bf, config(Layout::Encrypt, groups, chunk_bytes))
                        .unwrap()
                        .with_spin(Duration::ZERO);
                    let st = p.run(&mut out).unwrap();
                    assert_eq!(
                        out, ecb,
                        "{blocks} blocks, {groups} groups, chunk {chunk_bytes}"
                    );
                    assert_eq!(st.stages.len(), groups);
                    let chunks = (blocks * BLOCK).div_ceil(chunk_bytes);
                    assert!(st.stages.iter().all(|s| s.chunks == chunks));
                    let p = FoldedPipeline::new(&bf, config(Layout::Decrypt, groups, chunk_bytes))
                        .unwrap();
                    p.run(&mut out).unwrap();
                    assert_eq!(out, data);
                    let p = FoldedPipeline::new(
                        &bf,
                        config(Layout::EncryptDecrypt, groups, chunk_bytes),
                    )
                    .unwrap();
                    p.run(&mut out).unwrap();
                    assert_eq!(out, data);
                }
            }
        }
    }

    #[test]
    fn one_operation_per_group_still_equals_ecb() {
        let bf = Blowfish::new(b"every op a group").unwrap();
        let data: Vec<u8> = (0..8 * 40).map(|i| (i * 7) as u8).collect();
        let mut ecb = data.clone();
        bf.encrypt_blocks(&mut ecb).unwrap();
        for groups in [16, 17] {
            let mut out = data.clone();
            let p = FoldedPipeline::new(&bf, config(Layout::Encrypt, groups, 64)).unwrap();
            p.run(&mut out).unwrap();
            assert_eq!(out, ecb, "{groups} groups");
        }
        let mut out = data.clone();
        let p = FoldedPipeline::new(&bf, config(Layout::EncryptDecrypt, 34, 16)).unwrap();
        let st = p.run(&mut out).unwrap();
        assert_eq!(out, data);
        assert_eq!(st.stages.iter().map(|s| s.rounds).sum::<usize>(), 32);
    }

    #[test]
    fn bad_configurations_and_lengths_are_errors() {
        let bf = Blowfish::new(b"folded").unwrap();
        for bad in [
            config(Layout::Encrypt, 0, 64),
            config(Layout::Encrypt, 18, 64),
            config(Layout::EncryptDecrypt, 35, 64),
            config(Layout::Encrypt, 2, 0),
            config(Layout::Encrypt, 2, 12),
            FoldedConfig {
                capacity: 0,
                ..config(Layout::Encrypt, 2, 64)
            },
        ] {
            assert!(FoldedPipeline::new(&bf, bad).is_err(), "{bad:?}");
        }
        let p = FoldedPipeline::new(&bf, config(Layout::Encrypt, 2, 64)).unwrap();
        assert!(p.run(&mut [0; 9]).is_err());
        assert_eq!(p.config().groups, 2);
    }
}
