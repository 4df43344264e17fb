//! The folded round pipeline: Blowfish's rounds folded into as many stage groups as there are
//! cores, one thread per group, chunks handed from group to group through lock-free
//! single-producer single-consumer rings ([`crate::parallel::spsc`]).
//!
//! SCC Blowfish's layout ([`BfPipeline`](super::bf_pipeline::BfPipeline)) gives every round its
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
use super::bf_pipeline::{Layout, PipelineStats, StageStats};
use crate::cipher::blowfish::{BLOCK, Blowfish, LANES, check_whole_blocks, join, split};
use crate::error::{Error, Result};
use crate::parallel::joined;
use crate::parallel::schedule::static_block;
use crate::parallel::spsc::{self, Receiver, Sender};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use zeroize::Zeroize;

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

/// A run of a group's operations, applied to [`LANES`] blocks at once. Rounds are numbered
/// 0..16 within their direction and use no swap: even rounds do `L ^= K; R ^= F(L)`, odd
/// rounds `R ^= K; L ^= F(R)`, as in [`Blowfish::encrypt_words`], with `K = P[n]` for
/// encryption and `P[17 - n]` for decryption.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Segment {
    /// Rounds `from..to` of one direction.
    Rounds {
        decrypt: bool,
        from: usize,
        to: usize,
    },
    /// The whitening that ends a direction: `(L, R) = (R ^ P[17], L ^ P[16])` for encryption,
    /// `(R ^ P[0], L ^ P[1])` for decryption.
    Final { decrypt: bool },
}

/// The layout's operations, each as (decrypting?, position 0..=16 in its direction, name);
/// position 16 is the whitening.
fn operations(layout: Layout) -> Vec<(bool, usize, String)> {
    layout
        .ops()
        .into_iter()
        .enumerate()
        .map(|(k, (_, name))| {
            let decrypt = match layout {
                Layout::Encrypt => false,
                Layout::Decrypt => true,
                Layout::EncryptDecrypt => k >= 17,
            };
            (decrypt, k % 17, name)
        })
        .collect()
}

/// Operations `ops` (consecutive) as segments: runs of rounds of one direction, whitenings.
fn segments(ops: &[(bool, usize, String)]) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for &(decrypt, n, _) in ops {
        match out.last_mut() {
            _ if n == 16 => out.push(Segment::Final { decrypt }),
            Some(Segment::Rounds { decrypt: d, to, .. }) if *d == decrypt && *to == n => *to += 1,
            _ => out.push(Segment::Rounds {
                decrypt,
                from: n,
                to: n + 1,
            }),
        }
    }
    out
}

/// The operation ranges of the groups (see the module docs).
fn group_ranges(ops: &[(bool, usize, String)], groups: usize) -> Vec<std::ops::Range<usize>> {
    let rounds: Vec<usize> = (0..ops.len()).filter(|&k| ops[k].1 < 16).collect();
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
    kernels: Vec<Kernel>,
    rounds: usize,
}

/// A segment with its subkeys, ready to run over lanes.
enum Kernel {
    /// An odd round first (if the run starts on one), whole (even, odd) pairs, an even round
    /// last (if it ends on one).
    Rounds {
        lead: Option<u32>,
        pairs: Vec<[u32; 2]>,
        tail: Option<u32>,
    },
    /// The whitening: `(L, R) = (R ^ pl, L ^ pr)`.
    Final { pl: u32, pr: u32 },
}

impl Kernel {
    fn new(bf: &Blowfish, seg: Segment) -> Self {
        match seg {
            Segment::Rounds { decrypt, from, to } => {
                let key = |n: usize| bf.subkey(if decrypt { 17 - n } else { n });
                let mut n = from;
                let lead = (n % 2 == 1).then(|| {
                    n += 1;
                    key(n - 1)
                });
                let mut pairs = Vec::new();
                while n + 2 <= to {
                    pairs.push([key(n), key(n + 1)]);
                    n += 2;
                }
                let tail = (n < to).then(|| key(n));
                Kernel::Rounds { lead, pairs, tail }
            }
            Segment::Final { decrypt: false } => Kernel::Final {
                pl: bf.subkey(17),
                pr: bf.subkey(16),
            },
            Segment::Final { decrypt: true } => Kernel::Final {
                pl: bf.subkey(0),
                pr: bf.subkey(1),
            },
        }
    }
}

impl Drop for Kernel {
    /// The subkeys are key material.
    fn drop(&mut self) {
        match self {
            Kernel::Rounds { lead, pairs, tail } => {
                lead.zeroize();
                pairs.zeroize();
                tail.zeroize();
            }
            Kernel::Final { pl, pr } => {
                pl.zeroize();
                pr.zeroize();
            }
        }
    }
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
        let ops = operations(self.config.layout);
        group_ranges(&ops, self.config.groups)
            .into_iter()
            .map(|r| {
                let name = if r.len() == 1 {
                    ops[r.start].2.clone()
                } else {
                    format!("{}..{}", ops[r.start].2, ops[r.end - 1].2)
                };
                GroupPlan {
                    name,
                    kernels: segments(&ops[r.clone()])
                        .into_iter()
                        .map(|seg| Kernel::new(self.bf, seg))
                        .collect(),
                    rounds: ops[r].iter().filter(|o| o.1 < 16).count(),
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
            all.extend(handles.into_iter().map(|h| joined(h.join())));
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
            run_chunk::<true, true>(bf, &plan.kernels, c);
        } else {
            run_chunk::<true, false>(bf, &plan.kernels, c);
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
            run_chunk::<false, true>(bf, &plan.kernels, c);
        } else {
            run_chunk::<false, false>(bf, &plan.kernels, c);
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

/// Runs a group's kernels over every block of a chunk, [`LANES`] blocks at a time. `FIRST`:
/// the chunk holds big-endian blocks (else little-endian half-blocks left by the previous
/// group); `LAST`: write big-endian blocks (else little-endian half-blocks for the next group).
fn run_chunk<const FIRST: bool, const LAST: bool>(
    bf: &Blowfish,
    kernels: &[Kernel],
    chunk: &mut [u8],
) {
    let mut groups = chunk.chunks_exact_mut(BLOCK * LANES);
    for g in &mut groups {
        run_blocks::<LANES, FIRST, LAST>(bf, kernels, g);
    }
    for b in groups.into_remainder().chunks_exact_mut(BLOCK) {
        run_blocks::<1, FIRST, LAST>(bf, kernels, b);
    }
}

#[inline(always)]
fn run_blocks<const N: usize, const FIRST: bool, const LAST: bool>(
    bf: &Blowfish,
    kernels: &[Kernel],
    bytes: &mut [u8],
) {
    let (mut l, mut r) = ([0u32; N], [0u32; N]);
    for (x, block) in bytes.chunks_exact(BLOCK).enumerate() {
        (l[x], r[x]) = if FIRST { split(block) } else { split_le(block) };
    }
    for kernel in kernels {
        match kernel {
            Kernel::Rounds { lead, pairs, tail } => {
                if let Some(k) = *lead {
                    odd(bf, k, &mut l, &mut r);
                }
                // The usual counts (16 rounds, or 8: two groups per direction) fully
                // unrolled, as the sequential loop is.
                if let Ok(p) = <&[[u32; 2]; 8]>::try_from(pairs.as_slice()) {
                    pairs_unrolled(bf, p, &mut l, &mut r);
                } else if let Ok(p) = <&[[u32; 2]; 4]>::try_from(pairs.as_slice()) {
                    pairs_unrolled(bf, p, &mut l, &mut r);
                } else {
                    for &[a, b] in pairs {
                        even(bf, a, &mut l, &mut r);
                        odd(bf, b, &mut l, &mut r);
                    }
                }
                if let Some(k) = *tail {
                    even(bf, k, &mut l, &mut r);
                }
            }
            &Kernel::Final { pl, pr } => {
                for x in 0..N {
                    (l[x], r[x]) = (r[x] ^ pl, l[x] ^ pr);
                }
            }
        }
    }
    for (x, block) in bytes.chunks_exact_mut(BLOCK).enumerate() {
        if LAST {
            join(block, l[x], r[x]);
        } else {
            join_le(block, l[x], r[x]);
        }
    }
}

/// An even round (`L ^= k; R ^= F(L)`) on every lane.
#[inline(always)]
fn even<const N: usize>(bf: &Blowfish, k: u32, l: &mut [u32; N], r: &mut [u32; N]) {
    for x in 0..N {
        l[x] ^= k;
        r[x] ^= bf.f(l[x]);
    }
}

/// An odd round (`R ^= k; L ^= F(R)`) on every lane.
#[inline(always)]
fn odd<const N: usize>(bf: &Blowfish, k: u32, l: &mut [u32; N], r: &mut [u32; N]) {
    for x in 0..N {
        r[x] ^= k;
        l[x] ^= bf.f(r[x]);
    }
}

/// `P` pairs of rounds (even then odd) with the given subkeys, unrolled.
#[inline(always)]
fn pairs_unrolled<const N: usize, const P: usize>(
    bf: &Blowfish,
    keys: &[[u32; 2]; P],
    l: &mut [u32; N],
    r: &mut [u32; N],
) {
    for &[a, b] in keys {
        even(bf, a, l, r);
        odd(bf, b, l, r);
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
