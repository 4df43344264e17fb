//! Round-pipelined Blowfish (SCC Blowfish): every Blowfish round is a pipeline stage on its own
//! thread, and chunks of the message flow from stage to stage through bounded channels.
//!
//! # Stages
//!
//! Encryption is 17 operations: 16 Feistel rounds `E1..E16` (`L ^= P[i]; R ^= F(L); swap`)
//! and `EW`, which undoes the last swap and whitens with `P[16]`, `P[17]`. Decryption is the
//! same with the subkeys reversed: `D1..D16` and `DW`. The seed's layout ([`Layout::EncryptDecrypt`],
//! 36 stages) is an input stage (bytes to words), the 17 encryption stages, the 17 decryption
//! stages and an output stage (words back to bytes); its output equals its input, and the
//! state after `EW` (the *midpoint*, see [`BfPipeline::run_tapped`]) equals sequential Blowfish
//! ECB. On files, [`Layout::Encrypt`] (or [`Layout::Decrypt`]) runs 17 + 2 stages.
//!
//! # Folding
//!
//! With fewer compute stages than operations, contiguous operations are folded into one
//! stage (`schedule(static)` over the operations), e.g. 4 stages = input, `E1..EW`,
//! `D1..DW`, output. Thirty-six threads on two cores mostly wait for each other; folding is
//! how the pipeline runs sensibly on a small machine.
//!
//! # Observability
//!
//! Each stage reports chunks handled, busy time (applying its rounds or converting), time
//! blocked receiving (starved) and time blocked sending (back-pressure), in
//! [`PipelineStats`]. Buffers of words are recycled from the output stage to the input stage,
//! so a run allocates about as many buffers as chunks fit in the pipeline, not one per chunk.
use crate::cipher::blowfish::{BLOCK, Blowfish, check_whole_blocks};
use crate::error::{Error, Result};
use crate::parallel::joined;
use crate::parallel::schedule::static_block;
use serde::{Deserialize, Serialize};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::time::Instant;

/// Which operations the pipeline runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// The 17 encryption operations (output = Blowfish ECB encryption).
    Encrypt,
    /// The 17 decryption operations (output = Blowfish ECB decryption).
    Decrypt,
    /// Encryption then decryption, 34 operations: the seed's benchmark (output = input).
    EncryptDecrypt,
}

impl Layout {
    /// The operations in order, with their names.
    pub fn ops(self) -> Vec<(Op, String)> {
        let enc = || {
            (0..16)
                .map(|i| (Op::Round(i), format!("E{}", i + 1)))
                .chain([(Op::Final { r: 16, l: 17 }, "EW".to_string())])
        };
        let dec = || {
            (0..16)
                .map(|i| (Op::Round(17 - i), format!("D{}", i + 1)))
                .chain([(Op::Final { r: 1, l: 0 }, "DW".to_string())])
        };
        match self {
            Layout::Encrypt => enc().collect(),
            Layout::Decrypt => dec().collect(),
            Layout::EncryptDecrypt => enc().chain(dec()).collect(),
        }
    }

    /// Number of round operations: 17 or 34.
    pub fn operations(self) -> usize {
        match self {
            Layout::Encrypt | Layout::Decrypt => 17,
            Layout::EncryptDecrypt => 34,
        }
    }
}

/// One pipeline operation on every block of a chunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// A Feistel round with subkey `P[i]`, ending with the swap.
    Round(usize),
    /// Undo the last swap, then `R ^= P[r]`, `L ^= P[l]`.
    Final {
        /// The subkey index XORed into R.
        r: usize,
        /// The subkey index XORed into L.
        l: usize,
    },
}

/// How the pipeline is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipelineConfig {
    /// The operations to run.
    pub layout: Layout,
    /// Bytes per chunk (a positive multiple of 8); the last chunk may be shorter.
    pub chunk_bytes: usize,
    /// Stages in all, input and output included: 3 to `operations + 2`.
    pub stages: usize,
    /// Chunks each channel buffers (0 = rendezvous: a send waits for the receive, as the
    /// seed's synchronous message passing).
    pub capacity: usize,
}

impl PipelineConfig {
    /// The seed's layout: one operation per stage (36 stages for encrypt+decrypt), 8 KiB
    /// chunks (the seed's optimum), channels holding one chunk.
    pub fn unfolded(layout: Layout) -> Self {
        Self {
            layout,
            chunk_bytes: 8192,
            stages: layout.operations() + 2,
            capacity: 1,
        }
    }

    /// Checks the chunk size and the stage count.
    pub fn validate(&self) -> Result<()> {
        if self.chunk_bytes == 0 || self.chunk_bytes % BLOCK != 0 {
            return Err(Error::InvalidParameter(format!(
                "pipeline chunk must be a positive multiple of {BLOCK} bytes, got {}",
                self.chunk_bytes
            )));
        }
        let max = self.layout.operations() + 2;
        if !(3..=max).contains(&self.stages) {
            return Err(Error::InvalidParameter(format!(
                "pipeline stages must be 3 to {max} (input + 1..={} compute stages + output), got {}",
                max - 2,
                self.stages
            )));
        }
        Ok(())
    }
}

/// What one stage did during a run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct StageStats {
    /// `in`, `out`, or the operations it runs (`E1`, `E1..E9`, ...).
    pub name: String,
    /// Round operations in this stage (0 for input and output).
    pub rounds: usize,
    /// Chunks handled.
    pub chunks: usize,
    /// Seconds spent working.
    pub busy_s: f64,
    /// Seconds blocked waiting for a chunk from the previous stage.
    pub recv_wait_s: f64,
    /// Seconds blocked handing a chunk to the next stage (back-pressure).
    pub send_wait_s: f64,
}

/// Per-stage statistics and the wall time of one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PipelineStats {
    /// Seconds from starting the stage threads until the last one finished (start-up and
    /// pipeline fill and drain included; the seed's timer also ran from the first read to the
    /// last write).
    pub wall_s: f64,
    /// One entry per stage, input first.
    pub stages: Vec<StageStats>,
}

impl PipelineStats {
    /// The stage with the most busy time (the one that bounds throughput), if any.
    pub fn bottleneck(&self) -> Option<&StageStats> {
        self.stages
            .iter()
            .max_by(|a, b| a.busy_s.total_cmp(&b.busy_s))
    }

    /// Mean over stages of busy time / wall time.
    pub fn mean_busy_fraction(&self) -> f64 {
        if self.stages.is_empty() || self.wall_s <= 0.0 {
            return 0.0;
        }
        let busy: f64 = self.stages.iter().map(|s| s.busy_s).sum();
        busy / self.stages.len() as f64 / self.wall_s
    }
}

/// A chunk in flight: its words, where its bytes go, and (when tapped) where the midpoint goes.
struct Chunk<'d> {
    words: Vec<u32>,
    dst: &'d mut [u8],
    tap: Option<&'d mut [u8]>,
}

/// One compute stage's plan.
struct StagePlan {
    name: String,
    ops: Vec<Op>,
    /// Write the midpoint after this many of `ops` (the stage that runs `EW` of encrypt+decrypt).
    tap_after: Option<usize>,
}

/// A round pipeline over a Blowfish key schedule.
#[derive(Debug)]
pub struct BfPipeline<'a> {
    bf: &'a Blowfish,
    config: PipelineConfig,
}

impl<'a> BfPipeline<'a> {
    /// A pipeline with a checked configuration.
    pub fn new(bf: &'a Blowfish, config: PipelineConfig) -> Result<Self> {
        config.validate()?;
        Ok(Self { bf, config })
    }

    /// The configuration.
    pub fn config(&self) -> &PipelineConfig {
        &self.config
    }

    /// The compute stages: operations folded over `stages - 2` stages.
    fn plan(&self) -> Vec<StagePlan> {
        let ops = self.config.layout.ops();
        let compute = self.config.stages - 2;
        (0..compute)
            .map(|s| {
                let r = static_block(ops.len(), compute, s);
                let name = if r.len() == 1 {
                    ops[r.start].1.clone()
                } else {
                    format!("{}..{}", ops[r.start].1, ops[r.end - 1].1)
                };
                let tap_after = (self.config.layout == Layout::EncryptDecrypt && r.contains(&16))
                    .then(|| 17 - r.start);
                StagePlan {
                    name,
                    ops: ops[r].iter().map(|(op, _)| *op).collect(),
                    tap_after,
                }
            })
            .collect()
    }

    /// Stage names, input first: `in`, `E1`, ..., `out`.
    pub fn stage_names(&self) -> Vec<String> {
        let mut names = vec!["in".to_string()];
        names.extend(self.plan().into_iter().map(|p| p.name));
        names.push("out".into());
        names
    }

    /// Runs `data` (whole blocks) through the pipeline in place.
    pub fn run(&self, data: &mut [u8]) -> Result<PipelineStats> {
        check_whole_blocks(data.len())?;
        Ok(self.execute(data, None))
    }

    /// Runs encrypt+decrypt and also writes the midpoint — the state after the encryption
    /// stages — into `midpoint` (same length as `data`).
    pub fn run_tapped(&self, data: &mut [u8], midpoint: &mut [u8]) -> Result<PipelineStats> {
        check_whole_blocks(data.len())?;
        if self.config.layout != Layout::EncryptDecrypt || midpoint.len() != data.len() {
            return Err(Error::InvalidParameter(
                "a midpoint tap needs the encrypt+decrypt layout and a buffer as long as the data"
                    .into(),
            ));
        }
        Ok(self.execute(data, Some(midpoint)))
    }

    fn execute(&self, data: &mut [u8], tap: Option<&mut [u8]>) -> PipelineStats {
        let plans = self.plan();
        let cap = self.config.capacity;
        let chunk = self.config.chunk_bytes;
        let started = Instant::now();
        let mut taps = tap.map(|t| t.chunks_mut(chunk));
        let (pool_tx, pool_rx) = sync_channel::<Vec<u32>>(plans.len() * (cap + 1) + 2);
        let mut stages = std::thread::scope(|s| {
            let (first_tx, mut rx) = sync_channel::<Chunk<'_>>(cap);
            let mut handles = Vec::with_capacity(plans.len() + 1);
            for plan in &plans {
                let (tx, next_rx) = sync_channel::<Chunk<'_>>(cap);
                let bf = self.bf;
                handles.push(s.spawn(move || compute_stage(bf, plan, rx, tx)));
                rx = next_rx;
            }
            handles.push(s.spawn(move || output_stage(rx, pool_tx)));
            let mut input = StageStats {
                name: "in".into(),
                ..StageStats::default()
            };
            for dst in data.chunks_mut(chunk) {
                let t0 = Instant::now();
                let mut words = pool_rx.try_recv().unwrap_or_default();
                words.clear();
                words.extend(dst.chunks_exact(BLOCK).flat_map(|b| {
                    let (l, r) = crate::cipher::blowfish::split(b);
                    [l, r]
                }));
                let tap = taps.as_mut().and_then(|t| t.next());
                let t1 = Instant::now();
                input.busy_s += (t1 - t0).as_secs_f64();
                let sent = first_tx.send(Chunk { words, dst, tap });
                input.send_wait_s += t1.elapsed().as_secs_f64();
                input.chunks += 1;
                if sent.is_err() {
                    break;
                }
            }
            drop(first_tx);
            let mut all = vec![input];
            all.extend(handles.into_iter().map(|h| joined(h.join())));
            all
        });
        stages.shrink_to_fit();
        PipelineStats {
            wall_s: started.elapsed().as_secs_f64(),
            stages,
        }
    }
}

/// Applies one operation to every block (word pair) of a chunk.
#[inline]
pub fn apply(bf: &Blowfish, op: Op, words: &mut [u32]) {
    match op {
        Op::Round(i) => {
            let p = bf.subkey(i);
            for pair in words.chunks_exact_mut(2) {
                let l = pair[0] ^ p;
                pair[0] = pair[1] ^ bf.f(l);
                pair[1] = l;
            }
        }
        Op::Final { r, l } => {
            let (pr, pl) = (bf.subkey(r), bf.subkey(l));
            for pair in words.chunks_exact_mut(2) {
                let (xl, xr) = (pair[0], pair[1]);
                pair[0] = xr ^ pl;
                pair[1] = xl ^ pr;
            }
        }
    }
}

/// Writes a chunk's words as big-endian bytes.
pub fn words_to_bytes(words: &[u32], dst: &mut [u8]) {
    for (pair, block) in words.chunks_exact(2).zip(dst.chunks_exact_mut(BLOCK)) {
        crate::cipher::blowfish::join(block, pair[0], pair[1]);
    }
}

fn compute_stage<'d>(
    bf: &Blowfish,
    plan: &StagePlan,
    rx: Receiver<Chunk<'d>>,
    tx: SyncSender<Chunk<'d>>,
) -> StageStats {
    let mut st = StageStats {
        name: plan.name.clone(),
        rounds: plan.ops.len(),
        ..StageStats::default()
    };
    loop {
        let t0 = Instant::now();
        let Ok(mut c) = rx.recv() else { break };
        let t1 = Instant::now();
        for (n, &op) in plan.ops.iter().enumerate() {
            apply(bf, op, &mut c.words);
            if plan.tap_after == Some(n + 1) {
                if let Some(tap) = c.tap.as_deref_mut() {
                    words_to_bytes(&c.words, tap);
                }
            }
        }
        let t2 = Instant::now();
        let sent = tx.send(c);
        st.recv_wait_s += (t1 - t0).as_secs_f64();
        st.busy_s += (t2 - t1).as_secs_f64();
        st.send_wait_s += t2.elapsed().as_secs_f64();
        st.chunks += 1;
        if sent.is_err() {
            break;
        }
    }
    st
}

fn output_stage(rx: Receiver<Chunk<'_>>, pool: SyncSender<Vec<u32>>) -> StageStats {
    let mut st = StageStats {
        name: "out".into(),
        ..StageStats::default()
    };
    loop {
        let t0 = Instant::now();
        let Ok(c) = rx.recv() else { break };
        let t1 = Instant::now();
        words_to_bytes(&c.words, c.dst);
        // A full pool means enough buffers circulate; this one is simply freed.
        let _ = pool.try_send(c.words);
        st.recv_wait_s += (t1 - t0).as_secs_f64();
        st.busy_s += t1.elapsed().as_secs_f64();
        st.chunks += 1;
    }
    st
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(layout: Layout, stages: usize, chunk_bytes: usize) -> PipelineConfig {
        PipelineConfig {
            layout,
            chunk_bytes,
            stages,
            capacity: 1,
        }
    }

    #[test]
    fn seed_layout_has_36_named_stages_and_folds() {
        let bf = Blowfish::new(b"pipeline").unwrap();
        let p = BfPipeline::new(&bf, PipelineConfig::unfolded(Layout::EncryptDecrypt)).unwrap();
        let names = p.stage_names();
        assert_eq!(names.len(), 36);
        assert_eq!(names[..3], ["in", "E1", "E2"]);
        assert_eq!(names[17..20], ["EW", "D1", "D2"]);
        assert_eq!(names[34..], ["DW", "out"]);
        let p = BfPipeline::new(&bf, config(Layout::EncryptDecrypt, 4, 64)).unwrap();
        assert_eq!(p.stage_names(), ["in", "E1..EW", "D1..DW", "out"]);
        let p = BfPipeline::new(&bf, config(Layout::Encrypt, 3, 64)).unwrap();
        assert_eq!(p.stage_names(), ["in", "E1..EW", "out"]);
    }

    #[test]
    fn encrypt_equals_ecb_and_midpoint_too() {
        let bf = Blowfish::new(b"pipeline").unwrap();
        let data: Vec<u8> = (0..8 * 50).map(|i| (i * 11) as u8).collect();
        let mut ecb = data.clone();
        bf.encrypt_blocks(&mut ecb).unwrap();
        for stages in [3, 4, 7, 19] {
            let mut out = data.clone();
            let p = BfPipeline::new(&bf, config(Layout::Encrypt, stages, 24)).unwrap();
            let stats = p.run(&mut out).unwrap();
            assert_eq!(out, ecb, "{stages} stages");
            assert_eq!(stats.stages.len(), stages);
            assert!(stats.stages.iter().all(|s| s.chunks == 17));
            let p = BfPipeline::new(&bf, config(Layout::Decrypt, stages, 16)).unwrap();
            p.run(&mut out).unwrap();
            assert_eq!(out, data);
        }
        for stages in [3, 4, 5, 20, 36] {
            let (mut out, mut mid) = (data.clone(), vec![0u8; data.len()]);
            let p = BfPipeline::new(&bf, config(Layout::EncryptDecrypt, stages, 40)).unwrap();
            let stats = p.run_tapped(&mut out, &mut mid).unwrap();
            assert_eq!((out == data, mid == ecb), (true, true), "{stages} stages");
            assert!(stats.bottleneck().is_some() && stats.mean_busy_fraction() >= 0.0);
        }
    }

    #[test]
    fn bad_configurations_and_lengths_are_errors() {
        let bf = Blowfish::new(b"pipeline").unwrap();
        for bad in [
            config(Layout::Encrypt, 2, 64),
            config(Layout::Encrypt, 20, 64),
            config(Layout::EncryptDecrypt, 37, 64),
            config(Layout::Encrypt, 5, 0),
            config(Layout::Encrypt, 5, 12),
        ] {
            assert!(BfPipeline::new(&bf, bad).is_err(), "{bad:?}");
        }
        let p = BfPipeline::new(&bf, config(Layout::Encrypt, 5, 64)).unwrap();
        assert!(p.run(&mut [0; 9]).is_err());
        assert!(p.run_tapped(&mut [0; 8], &mut [0; 8]).is_err());
        let empty = p.run(&mut []).unwrap();
        assert!(empty.stages.iter().all(|s| s.chunks == 0));
    }
}
