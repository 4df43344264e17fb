//! The Blowfish round pipeline over ranks (SCC Blowfish): chunks of a message pass rank to rank,
//! each rank applying its share of the 34 round operations of encrypt+decrypt, as the SCC's
//! cores passed chunks core to core.
//!
//! Layout: the input conversion and the 34 operations are dealt as `schedule(static)` blocks
//! over the R ranks (R = 2: rank 0 converts and runs `E1..EW`, rank 1 runs `D1..DW`); the last
//! rank hands each chunk back to rank 0, which converts it to bytes (the output stage), so the
//! chunks travel a ring and rank 0's clock times the whole run. With 35 ranks every operation
//! has its own rank. Every rank keeps its next receive posted while it computes
//! ([`PendingRecv`]) and up to two sends in flight ([`PendingSend`]), so a stage goes back to
//! work while its successor receives, and a chunk that arrives lands in its buffer at once.
//!
//! [`hop_latency`] measures the per-hop cost: one chunk around the ring of ranks, one chunk in
//! flight, time / hops; [`thread_hop_latency`] does the same over threads and the channels
//! the thread pipeline uses, where a hop moves a pointer instead of copying the chunk.
use super::backoff::Backoff;
use super::comm::{Ranks, tag};
use super::error::{MpiError, MpiResult};
use super::nb::{PendingRecv, PendingSend};
use parcrypt::cipher::blowfish::{BLOCK, Blowfish};
use parcrypt::cipher::parallel::bf_pipeline::{Layout, Op, StageStats, apply, words_to_bytes};
use parcrypt::parallel::schedule::static_block;
use std::ops::Range;
use std::time::Instant;

/// Most ranks a pipeline can use: the input stage and 34 operations, one each.
pub const MAX_RANKS: usize = 35;

/// One rank's share of the pipeline.
#[derive(Clone, Debug, PartialEq)]
pub struct RankStage {
    /// Converts bytes to words first (rank 0).
    pub input: bool,
    /// The operations, in order.
    pub(crate) ops: Vec<Op>,
    /// A name: `in+E1..EW+out`, `D1..DW`, ...
    pub name: String,
}

/// The stages of `ranks` ranks over `layout`. Errors: fewer than 2 or more than
/// [`MAX_RANKS`] ranks (the same answer on every rank).
pub fn stages(layout: Layout, ranks: usize) -> MpiResult<Vec<RankStage>> {
    let ops = layout.ops();
    let units = ops.len() + 1;
    if !(2..=units).contains(&ranks) {
        return Err(MpiError::Usage(format!(
            "the round pipeline needs 2 to {units} ranks (an input rank and round ranks), got {ranks}"
        )));
    }
    Ok((0..ranks)
        .map(|r| {
            let block: Range<usize> = static_block(units, ranks, r);
            let input = block.start == 0;
            let op_range = block.start.saturating_sub(1)..block.end - 1;
            let names: Vec<&str> = ops[op_range.clone()].iter().map(|o| o.1.as_str()).collect();
            let mut name = match (names.first(), names.last()) {
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a}..{b}"),
                _ => String::new(),
            };
            if input {
                name = format!("in+{name}+out");
            }
            RankStage {
                input,
                ops: ops[op_range].iter().map(|o| o.0).collect(),
                name,
            }
        })
        .collect())
}

/// Sends in flight per rank.
const WINDOW: usize = 2;

/// Runs `data` (whole blocks, rank 0 only; ignored elsewhere) through the pipeline once, in
/// chunks of `chunk_bytes`. Rank 0 gets the output, the wall time on its clock and every
/// rank's statistics; other ranks get their own statistics.
///
/// Every rank keeps its next receive posted while it computes (`MPI_Irecv` into a second
/// buffer) and up to two sends in flight; waits are busy ([`Backoff::busy`]).
pub fn run_once(
    ranks: &Ranks,
    bf: &Blowfish,
    layout: Layout,
    chunk_bytes: usize,
    data: &[u8],
    total_bytes: usize,
) -> MpiResult<(Vec<u8>, f64, StageStats)> {
    let stages = stages(layout, ranks.size())?;
    let me = &stages[ranks.rank()];
    let st = StageStats {
        name: me.name.clone(),
        rounds: me.ops.len(),
        ..StageStats::default()
    };
    let mut run = RankRun {
        ranks,
        bf,
        me,
        chunk_bytes,
        total_bytes,
        chunks: total_bytes.div_ceil(chunk_bytes),
        words: chunk_bytes / 4,
        next: (ranks.rank() + 1) % ranks.size(),
        prev: (ranks.rank() + ranks.size() - 1) % ranks.size(),
        st,
        out: Window {
            pending: Default::default(),
            spare: Vec::new(),
        },
    };
    let started = Instant::now();
    let mut output = Vec::new();
    let posted = (run.chunks > 0).then(|| run.post(Vec::new()));
    if me.input {
        output.resize(total_bytes, 0);
        run.ring_ends(data, &mut output, posted)?;
    } else {
        run.relay(posted);
    }
    for p in run.out.pending {
        run.st.send_wait_s += p.finish_with(Backoff::busy()).1;
    }
    Ok((output, started.elapsed().as_secs_f64(), run.st))
}

/// One rank's part of a run: its stage, where its chunks come from and go, its sends in flight
/// and its statistics.
struct RankRun<'a> {
    ranks: &'a Ranks,
    bf: &'a Blowfish,
    me: &'a RankStage,
    chunk_bytes: usize,
    total_bytes: usize,
    chunks: usize,
    /// Words per chunk.
    words: usize,
    next: usize,
    prev: usize,
    st: StageStats,
    out: Window,
}

impl RankRun<'_> {
    /// Posts the receive of the next chunk from the previous rank into `buf`.
    fn post(&self, buf: Vec<u32>) -> PendingRecv<u32> {
        PendingRecv::post(self.ranks.world(), self.prev, tag::CHUNK, buf, self.words)
    }

    /// Rank 0, both ends of the ring: converts and sends the input chunks while receiving the
    /// results from the last rank into `output`, whichever is ready first.
    fn ring_ends(
        &mut self,
        data: &[u8],
        output: &mut [u8],
        mut posted: Option<PendingRecv<u32>>,
    ) -> MpiResult<()> {
        let (chunks, chunk_bytes, total_bytes) = (self.chunks, self.chunk_bytes, self.total_bytes);
        let mut sent = 0;
        let mut received = 0;
        let mut backoff = Backoff::busy();
        while received < chunks {
            if posted.as_mut().is_some_and(|p| p.test()) {
                let (w, _) = posted.take().expect("tested").finish_with(Backoff::busy());
                self.st.recv_wait_s += backoff.waited();
                received += 1;
                // The next result's receive is posted before this one is converted.
                if received < chunks {
                    let buf = self.out.spare.pop().unwrap_or_default();
                    posted = Some(self.post(buf));
                }
                let t = Instant::now();
                let at = (received - 1) * chunk_bytes;
                let dst = &mut output[at..(at + chunk_bytes).min(total_bytes)];
                if w.len() * 4 != dst.len() {
                    return Err(MpiError::Protocol("chunk of the wrong size".into()));
                }
                words_to_bytes(&w, dst);
                self.out.spare.push(w);
                self.st.busy_s += t.elapsed().as_secs_f64();
                backoff = Backoff::busy();
                continue;
            }
            if sent < chunks && self.out.open() {
                let t = Instant::now();
                let at = sent * chunk_bytes;
                let src = &data[at..(at + chunk_bytes).min(total_bytes)];
                let mut w = self.out.spare.pop().unwrap_or_default();
                w.clear();
                w.extend(src.chunks_exact(BLOCK).flat_map(|b| {
                    let (l, r) = parcrypt::cipher::blowfish::split(b);
                    [l, r]
                }));
                for &op in &self.me.ops {
                    apply(self.bf, op, &mut w);
                }
                self.st.busy_s += t.elapsed().as_secs_f64();
                self.out.send(self.ranks, self.next, w, &mut self.st);
                self.st.chunks += 1;
                sent += 1;
                backoff = Backoff::busy();
                continue;
            }
            ranks_deadline(self.ranks, &backoff)?;
            backoff.pause();
        }
        Ok(())
    }

    /// Any other rank: receives each chunk, applies its operations and passes it on.
    fn relay(&mut self, mut posted: Option<PendingRecv<u32>>) {
        let chunks = self.chunks;
        for c in 0..chunks {
            let (mut w, waited) = posted
                .take()
                .expect("a receive is posted for every chunk")
                .finish_with(Backoff::busy());
            self.st.recv_wait_s += waited;
            if c + 1 < chunks {
                let buf = self.out.spare.pop().unwrap_or_default();
                posted = Some(self.post(buf));
            }
            let t = Instant::now();
            for &op in &self.me.ops {
                apply(self.bf, op, &mut w);
            }
            self.st.busy_s += t.elapsed().as_secs_f64();
            self.out.send(self.ranks, self.next, w, &mut self.st);
            self.st.chunks += 1;
        }
    }
}

/// A stage's sends in flight and the buffers they gave back.
struct Window {
    pending: std::collections::VecDeque<PendingSend<u32>>,
    spare: Vec<Vec<u32>>,
}

impl Window {
    /// Whether a send can start without waiting.
    fn open(&mut self) -> bool {
        self.pending.len() < WINDOW || self.pending.front_mut().is_some_and(|p| p.test())
    }

    /// Starts sending `words` to `to`, first finishing the oldest send if the window is full.
    fn send(&mut self, ranks: &Ranks, to: usize, words: Vec<u32>, st: &mut StageStats) {
        if self.pending.len() >= WINDOW {
            if let Some(p) = self.pending.pop_front() {
                let (buf, waited) = p.finish_with(Backoff::busy());
                st.send_wait_s += waited;
                self.spare.push(buf);
            }
        }
        self.pending
            .push_back(PendingSend::start(ranks.world(), to, tag::CHUNK, words));
    }
}

fn ranks_deadline(ranks: &Ranks, backoff: &Backoff) -> MpiResult<()> {
    if backoff.waited() > ranks.timeout().as_secs_f64() {
        return Err(MpiError::Timeout {
            from: "the pipeline's ranks".into(),
            waited_s: backoff.waited(),
        });
    }
    Ok(())
}

/// The cost of one hop from `trips` trip times of `hops` hops each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hop {
    /// The median trip over its hops, seconds: what a hop costs when nothing interrupts it.
    pub median_s: f64,
    /// The mean trip over its hops, seconds: with the trips the scheduler interrupted (on a
    /// busy machine one such trip weighs as much as a thousand others).
    pub mean_s: f64,
}

fn per_hop(mut trips: Vec<f64>, hops: usize) -> Hop {
    let n = trips.len().max(1) as f64;
    let mean = trips.iter().sum::<f64>() / n;
    trips.sort_by(f64::total_cmp);
    let median = trips.get(trips.len() / 2).copied().unwrap_or(0.0);
    Hop {
        median_s: median / hops as f64,
        mean_s: mean / hops as f64,
    }
}

/// The per-hop cost over ranks, in seconds: one chunk of `chunk_bytes` around the ring of all
/// ranks `trips` times (rank 0 starts and ends each trip), per hop.
/// Every rank keeps its next receive posted, as in [`run_once`]. Rank 0's value is the
/// measurement; the others return theirs, which is not.
pub fn hop_latency(ranks: &Ranks, chunk_bytes: usize, trips: usize) -> MpiResult<Hop> {
    let size = ranks.size();
    let next = (ranks.rank() + 1) % size;
    let prev = (ranks.rank() + size - 1) % size;
    let words = chunk_bytes / 4;
    let post = |buf: Vec<u32>| PendingRecv::post(ranks.world(), prev, tag::CHUNK, buf, words);
    let mut chunk = vec![0u32; words];
    let mut spare = vec![0u32; words];
    let mut posted = Some(post(std::mem::take(&mut spare)));
    ranks.barrier();
    let mut times = Vec::with_capacity(trips);
    for trip in 0..trips {
        let started = Instant::now();
        let more = trip + 1 < trips;
        if ranks.is_root() {
            let sending = PendingSend::start(ranks.world(), next, tag::CHUNK, chunk);
            let (back, _) = posted.take().expect("posted").finish_with(Backoff::busy());
            spare = sending.finish_with(Backoff::busy()).0;
            if more {
                posted = Some(post(std::mem::take(&mut spare)));
            }
            chunk = back;
        } else {
            let (got, _) = posted.take().expect("posted").finish_with(Backoff::busy());
            if more {
                posted = Some(post(std::mem::take(&mut spare)));
            }
            spare = PendingSend::start(ranks.world(), next, tag::CHUNK, got)
                .finish_with(Backoff::busy())
                .0;
        }
        times.push(started.elapsed().as_secs_f64());
    }
    Ok(per_hop(times, size))
}

/// The per-hop cost over `threads` threads (at least 2) in a ring of the thread pipeline's
/// channels (`sync_channel` holding one chunk), each hop moving a chunk by ownership: the
/// trips over the hops, as [`hop_latency`].
pub fn thread_hop_latency(threads: usize, chunk_bytes: usize, trips: usize) -> Hop {
    use std::sync::mpsc::sync_channel;
    let threads = threads.max(2);
    // Thread t receives on channel t and sends on channel t + 1 (mod threads); the calling
    // thread is thread 0.
    let (txs, rxs): (Vec<_>, Vec<_>) = (0..threads).map(|_| sync_channel::<Vec<u32>>(1)).unzip();
    let mut rxs = rxs.into_iter();
    let rx0 = rxs.next().expect("at least two channels");
    std::thread::scope(|s| {
        for (i, rx) in rxs.enumerate() {
            let tx = txs[(i + 2) % threads].clone();
            s.spawn(move || {
                while let Ok(chunk) = rx.recv() {
                    if tx.send(chunk).is_err() {
                        break;
                    }
                }
            });
        }
        let first = txs[1].clone();
        drop(txs);
        let mut chunk = vec![0u32; chunk_bytes / 4];
        let mut times = Vec::with_capacity(trips);
        for _ in 0..trips {
            let started = Instant::now();
            if first.send(chunk).is_err() {
                break;
            }
            chunk = match rx0.recv() {
                Ok(c) => c,
                Err(_) => break,
            };
            times.push(started.elapsed().as_secs_f64());
        }
        drop(first);
        per_hop(times, threads)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_fold_the_operations_over_ranks() {
        let two = stages(Layout::EncryptDecrypt, 2).unwrap();
        assert_eq!(two[0].name, "in+E1..EW+out");
        assert_eq!(two[1].name, "D1..DW");
        assert_eq!((two[0].ops.len(), two[1].ops.len()), (17, 17));
        let all = stages(Layout::EncryptDecrypt, 35).unwrap();
        assert_eq!(all[0].name, "in++out");
        assert!(all[1..].iter().all(|s| s.ops.len() == 1 && !s.input));
        let four = stages(Layout::Encrypt, 4).unwrap();
        assert_eq!(four.iter().map(|s| s.ops.len()).sum::<usize>(), 17);
        assert!(matches!(
            stages(Layout::Encrypt, 1),
            Err(MpiError::Usage(_))
        ));
        assert!(stages(Layout::EncryptDecrypt, 36).is_err());
        assert!(stages(Layout::Encrypt, 19).is_err());
    }

    #[test]
    fn a_hop_is_the_median_trip_over_its_hops() {
        let h = per_hop(vec![9.0, 1.0, 3.0, 1000.0, 2.0], 2);
        assert_eq!((h.median_s, h.mean_s), (1.5, 101.5));
        assert_eq!(per_hop(Vec::new(), 3).median_s, 0.0);
    }

    #[test]
    fn the_thread_ring_passes_chunks() {
        let hop = thread_hop_latency(3, 8192, 20);
        assert!(hop.median_s > 0.0 && hop.mean_s.is_finite());
    }
}
