//! SeRSA / PaRSA over MPI ranks (PaRSA): a batch of textbook RSA operations dealt to ranks
//! with OpenMP's `static`, `dynamic` and `guided` schedules and a chunk size, optionally with
//! threads inside each rank, timed against SeRSA on rank 0 alone in the same run.
//!
//! Rank 0 is the master. It holds the batch, deals ranges of it ([`RankDealer`], the same
//! rules as [`parcrypt::parallel::schedule`] with ranks in place of threads), sends each range's
//! inputs with the assignment and receives the outputs with the next request. The master
//! either also works ([`Master::Works`]: a compute thread on rank 0 takes ranges from the same
//! dealer while the main thread serves) or only serves ([`Master::Waits`]); either way it
//! waits by probing and sleeping, so it does not take a core from a worker. Workers keep
//! [`LOOKAHEAD`] requests in flight. Every output is compared with SeRSA's. The sweep, its
//! timing and its records are in [`super::batch_bench`].
use super::backoff::Backoff;
use super::comm::{Ranks, tag};
use super::error::{MpiError, MpiResult};
use super::nb::PendingSend;
use super::record::{RankEnergy, combine, serve_sweep};
use super::wire::{Reader, put_integer, put_u64};
use parcrypt::hazmat::batch::{self, Transform};
use parcrypt::hazmat::textbook::PrivateOp;
use parcrypt::parallel::schedule::{guided_grab, static_block};
use parcrypt::parallel::{Executor, RunStats, Schedule, ScheduleSpec, ThreadStats};
use parcrypt_harness::bench::BenchConfig;
use parcrypt_harness::energy::meter::RunMeter;
use parcrypt_harness::records::rsa::{BatchOp, BatchShape};
use rug::Integer;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::sync::Mutex;
use std::time::Instant;

/// Requests each worker keeps in flight: it asks for its next range before computing the
/// current one, so the master's reply latency (a sleeping master, a busy machine) is hidden.
/// Which ranges exist and their order are the schedule's; a worker may hold two at once.
pub const LOOKAHEAD: usize = 2;

/// Whether rank 0 computes too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Master {
    /// Rank 0 serves requests on its main thread and computes on a second thread.
    Works,
    /// Rank 0 only serves (probing and sleeping); needs at least 2 ranks.
    Waits,
}

/// What to run.
#[derive(Clone, Debug)]
pub struct BatchPlan {
    /// Messages per batch.
    pub messages: usize,
    /// Encrypt or decrypt.
    pub op: BatchOp,
    /// How decryption computes c^d mod n.
    pub private_op: PrivateOp,
    /// Schedules to sweep (`static`, `dynamic`, `guided`).
    pub schedules: Vec<Schedule>,
    /// Chunk sizes to sweep (`None`: the schedule's default).
    pub chunks: Vec<Option<usize>>,
    /// Threads inside each rank.
    pub threads: usize,
    /// Whether rank 0 computes too.
    pub master: Master,
    /// Seed of the messages.
    pub seed: u64,
    /// Repetition rules (rank 0's harness).
    pub config: BenchConfig,
}

impl BatchPlan {
    /// What each record takes from the plan (ranks are never pinned).
    pub fn shape(&self) -> BatchShape {
        BatchShape {
            messages: self.messages,
            op: self.op,
            private_op: self.private_op,
            pin: false,
        }
    }

    /// Checks the plan against the number of ranks (the same answer on every rank).
    pub fn validate(&self, ranks: usize) -> MpiResult<()> {
        let bad = |m: String| Err(MpiError::Usage(m));
        if self.messages == 0 || self.threads == 0 {
            return bad("messages and threads must be at least 1".into());
        }
        if self.schedules.is_empty() || self.schedules.contains(&Schedule::Steal) {
            return bad("schedules over ranks: static, dynamic or guided".into());
        }
        if self.chunks.is_empty() || self.chunks.contains(&Some(0)) {
            return bad("chunk size must be at least 1".into());
        }
        if self.master == Master::Waits && ranks < 2 {
            return bad(format!(
                "--master waits needs at least 2 ranks (a master and a worker), got {ranks}"
            ));
        }
        self.config.validate()?;
        Ok(())
    }

    /// The MPI configurations, schedules outermost (SeRSA on rank 0 is run 0 of the bench).
    pub fn configurations(&self) -> Vec<ScheduleSpec> {
        let mut out = Vec::new();
        for &schedule in &self.schedules {
            for &chunk in &self.chunks {
                out.push(ScheduleSpec { schedule, chunk });
            }
        }
        out
    }
}

/// Deals ranges of `0..n` to workers `0..workers` under an OpenMP schedule.
#[derive(Debug)]
pub struct RankDealer {
    n: usize,
    workers: usize,
    spec: ScheduleSpec,
    next: usize,
    grabs: Vec<usize>,
}

impl RankDealer {
    /// A dealer of `n` iterations over `workers` workers.
    pub fn new(n: usize, workers: usize, spec: ScheduleSpec) -> Self {
        Self {
            n,
            workers,
            spec,
            next: 0,
            grabs: vec![0; workers],
        }
    }

    /// The next range for worker `w`, `None` when it has nothing more to do.
    pub fn next(&mut self, w: usize) -> Option<Range<usize>> {
        let chunk = self.spec.chunk.unwrap_or(1);
        let r = match (self.spec.schedule, self.spec.chunk) {
            (Schedule::Static, None) => {
                let r = static_block(self.n, self.workers, w);
                (self.grabs[w] == 0 && !r.is_empty()).then_some(r)
            }
            (Schedule::Static, Some(c)) => {
                let start = (self.grabs[w] * self.workers + w).checked_mul(c)?;
                (start < self.n).then(|| start..(start + c).min(self.n))
            }
            (Schedule::Guided, _) => (self.next < self.n).then(|| {
                let size = guided_grab(self.n - self.next, self.workers, chunk);
                self.next += size;
                self.next - size..self.next
            }),
            (Schedule::Dynamic | Schedule::Steal, _) => (self.next < self.n).then(|| {
                let start = self.next;
                self.next = (start + chunk).min(self.n);
                start..self.next
            }),
        };
        if r.is_some() {
            self.grabs[w] += 1;
        }
        r
    }
}

/// The key, inputs and expected outputs, on every rank (inputs and outputs on rank 0 only).
pub(super) struct Job<'k> {
    pub(super) transform: Transform<'k>,
    pub(super) width: usize,
    pub(super) inputs: Vec<Integer>,
    pub(super) expected: Vec<Integer>,
}

/// Encodes a range's outputs (or inputs): start, count, values.
fn encode_values(start: usize, values: &[Integer], width: usize) -> Vec<u8> {
    let mut m = Vec::with_capacity(16 + values.len() * width);
    put_u64(&mut m, start as u64);
    put_u64(&mut m, values.len() as u64);
    for v in values {
        put_integer(&mut m, v, width);
    }
    m
}

fn decode_values(bytes: &[u8], width: usize) -> MpiResult<(usize, Vec<Integer>)> {
    let mut r = Reader::new(bytes);
    let start = r.usize()?;
    let count = r.usize()?;
    let values = (0..count)
        .map(|_| r.integer(width))
        .collect::<MpiResult<_>>()?;
    Ok((start, values))
}

/// Rank 0's side of one run: deal, serve, collect; returns the outputs, rank 0's wall time,
/// the per-rank statistics and the energy over ranks.
pub(super) fn master_run(
    ranks: &Ranks,
    plan: &BatchPlan,
    job: &Job<'_>,
    executor: &Executor,
    spec: ScheduleSpec,
    meter: &mut RunMeter,
) -> MpiResult<(
    Vec<Integer>,
    f64,
    RunStats,
    parcrypt_harness::energy::meter::session::RunEnergy,
)> {
    let size = ranks.size();
    let works = plan.master == Master::Works;
    // Worker index of rank r: r when the master works, r - 1 when it only serves.
    let offset = usize::from(!works);
    let dealer = Mutex::new(RankDealer::new(job.inputs.len(), size - offset, spec));
    let ((outputs, secs, mut per_rank), energy) = meter.measure(|| {
        let started = Instant::now();
        let mut outputs: Vec<Integer> = vec![Integer::new(); job.inputs.len()];
        let mut per_rank = vec![ThreadStats::default(); size];
        let served = std::thread::scope(|s| -> MpiResult<()> {
            let local = works.then(|| s.spawn(|| compute_local(&dealer, executor, job)));
            serve_workers(ranks, &dealer, job, offset, &mut outputs)?;
            if let Some(h) = local {
                let (done, st) = h
                    .join()
                    .map_err(|_| MpiError::Protocol("rank 0's compute thread panicked".into()))?;
                for (start, out) in done {
                    for (slot, v) in outputs[start..].iter_mut().zip(out) {
                        *slot = v;
                    }
                }
                per_rank[0] = st;
            }
            Ok(())
        });
        (
            served.map(|()| outputs),
            started.elapsed().as_secs_f64(),
            per_rank,
        )
    });
    let outputs = outputs?;
    // Reports come after the timed region: statistics and energy of every rank (a gather).
    let readings = gather_reports(ranks, &mut per_rank, &energy)?;
    let working = per_rank.split_off(offset);
    Ok((
        outputs,
        secs,
        RunStats { threads: working },
        combine(&readings, secs),
    ))
}

/// Rank 0's compute thread (when the master works): takes chunks from `dealer` as worker 0
/// until none is left; returns its outputs by start index and its statistics.
fn compute_local(
    dealer: &Mutex<RankDealer>,
    executor: &Executor,
    job: &Job<'_>,
) -> (Vec<(usize, Vec<Integer>)>, ThreadStats) {
    let mut done: Vec<(usize, Vec<Integer>)> = Vec::new();
    let mut st = ThreadStats::default();
    loop {
        let next = dealer.lock().unwrap_or_else(|e| e.into_inner()).next(0);
        let Some(r) = next else { break };
        let t = Instant::now();
        let (out, _) = batch::parallel(executor, job.transform, &job.inputs[r.clone()]);
        st.busy_s += t.elapsed().as_secs_f64();
        st.items += r.len();
        st.chunks += 1;
        done.push((r.start, out));
    }
    (done, st)
}

/// Rank 0 serves the workers: stores each result in `outputs` and replies with the next
/// chunk (or an empty reply once none is left), until every worker has had its last.
fn serve_workers(
    ranks: &Ranks,
    dealer: &Mutex<RankDealer>,
    job: &Job<'_>,
    offset: usize,
    outputs: &mut [Integer],
) -> MpiResult<()> {
    let size = ranks.size();
    // Every worker ends with LOOKAHEAD empty replies, one per request in flight.
    let mut finished = 0;
    let mut backoff = Backoff::new();
    // Replies leave without waiting for their receive: a chunk above the eager limit
    // would otherwise block rank 0 while the worker blocks sending its results, each
    // waiting for the other's receive (a deadlock seen with 256 messages on 2 ranks).
    let mut replies: Vec<PendingSend> = Vec::new();
    while finished < (size - 1) * LOOKAHEAD {
        replies.retain_mut(|p| !p.test());
        let Some((src, msg)) = ranks.try_recv(None, tag::WORK) else {
            if backoff.waited() > ranks.timeout().as_secs_f64() {
                return Err(MpiError::Timeout {
                    from: "any worker".into(),
                    waited_s: backoff.waited(),
                });
            }
            backoff.pause();
            continue;
        };
        backoff = Backoff::new();
        let (start, values) = decode_values(&msg, job.width)?;
        if start + values.len() > outputs.len() {
            return Err(MpiError::Protocol("result out of range".into()));
        }
        for (slot, v) in outputs[start..].iter_mut().zip(values) {
            *slot = v;
        }
        let next = dealer
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .next(src - offset);
        let reply = match next {
            Some(r) => encode_values(r.start, &job.inputs[r], job.width),
            None => {
                finished += 1;
                Vec::new()
            }
        };
        replies.push(PendingSend::start(ranks.world(), src, tag::WORK, reply));
    }
    // Every worker receives all its replies before it reports, so these complete.
    for p in replies {
        p.finish();
    }
    Ok(())
}

/// Every rank's statistics (into `per_rank`, rank 0's already there) and energy readings,
/// gathered on rank 0 after the timed region.
fn gather_reports(
    ranks: &Ranks,
    per_rank: &mut [ThreadStats],
    energy: &parcrypt_harness::energy::meter::session::RunEnergy,
) -> MpiResult<Vec<RankEnergy>> {
    let all = report(ranks, &per_rank[0], energy).unwrap_or_default();
    let mut readings = Vec::new();
    for (r, msg) in all.iter().enumerate() {
        let mut rd = Reader::new(msg);
        let st = ThreadStats {
            items: rd.usize()?,
            chunks: rd.usize()?,
            busy_s: f64::from_bits(rd.u64()?),
        };
        if r > 0 {
            per_rank[r] = st;
        }
        readings.push(
            RankEnergy::decode(rd.rest())
                .ok_or_else(|| MpiError::Protocol("bad energy report".into()))?,
        );
    }
    Ok(readings)
}

/// This rank's statistics and energy of a run, gathered on rank 0.
fn report(
    ranks: &Ranks,
    st: &ThreadStats,
    energy: &parcrypt_harness::energy::meter::session::RunEnergy,
) -> Option<Vec<Vec<u8>>> {
    let mut msg = Vec::new();
    put_u64(&mut msg, st.items as u64);
    put_u64(&mut msg, st.chunks as u64);
    put_u64(&mut msg, st.busy_s.to_bits());
    msg.extend(RankEnergy::of(&ranks.host_of_ranks()[ranks.rank()], energy).encode());
    ranks.gather(&msg)
}

/// A worker rank: runs what rank 0 commands until it says stop.
pub(super) fn serve(
    ranks: &Ranks,
    job: &Job<'_>,
    executor: &Executor,
    configs: &[ScheduleSpec],
    meter: &mut RunMeter,
) -> MpiResult<()> {
    serve_sweep(ranks, |i| {
        if i as usize >= configs.len() {
            return Err(MpiError::Protocol(format!("no configuration {i}")));
        }
        let (st, energy) = meter.measure(|| -> MpiResult<ThreadStats> {
            let mut st = ThreadStats::default();
            let empty = encode_values(0, &[], job.width);
            for _ in 0..LOOKAHEAD {
                ranks.send(0, tag::WORK, &empty);
            }
            let mut in_flight = LOOKAHEAD;
            while in_flight > 0 {
                let (_, msg) = ranks.recv(Some(0), tag::WORK, Backoff::busy())?;
                if msg.is_empty() {
                    in_flight -= 1;
                    continue;
                }
                let (start, inputs) = decode_values(&msg, job.width)?;
                let t = Instant::now();
                let (out, _) = batch::parallel(executor, job.transform, &inputs);
                st.busy_s += t.elapsed().as_secs_f64();
                st.items += inputs.len();
                st.chunks += 1;
                // The outputs go back with the request that replaces this range.
                ranks.send(0, tag::WORK, &encode_values(start, &out, job.width));
            }
            Ok(st)
        });
        report(ranks, &st?, &energy);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dealt(n: usize, workers: usize, spec: ScheduleSpec) -> Vec<Vec<Range<usize>>> {
        let mut d = RankDealer::new(n, workers, spec);
        let mut out = vec![Vec::new(); workers];
        let mut done = vec![false; workers];
        while done.iter().any(|x| !x) {
            for w in 0..workers {
                if !done[w] {
                    match d.next(w) {
                        Some(r) => out[w].push(r),
                        None => done[w] = true,
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_rank_dealer_follows_the_thread_schedules() {
        // Same interleaving as parallel::schedule::plan, so the same ranges.
        for schedule in [Schedule::Static, Schedule::Dynamic, Schedule::Guided] {
            for chunk in [None, Some(1), Some(3), Some(50)] {
                for (n, workers) in [(0, 2), (1, 3), (10, 2), (37, 4), (100, 3)] {
                    let spec = ScheduleSpec { schedule, chunk };
                    let expected = parcrypt::parallel::schedule::plan(n, workers, spec).unwrap();
                    assert_eq!(
                        dealt(n, workers, spec),
                        expected,
                        "{spec} n={n} w={workers}"
                    );
                }
            }
        }
    }

    #[test]
    fn values_round_trip_and_plans_are_checked() {
        let vals = [Integer::from(5), Integer::from(1) << 60u32];
        let m = encode_values(3, &vals, 9);
        assert_eq!(decode_values(&m, 9).unwrap(), (3, vals.to_vec()));
        assert!(decode_values(&m[..20], 9).is_err());
        let plan = BatchPlan {
            messages: 4,
            op: BatchOp::Decrypt,
            private_op: PrivateOp::CrtVartime,
            schedules: vec![Schedule::Dynamic],
            chunks: vec![None, Some(2)],
            threads: 1,
            master: Master::Waits,
            seed: 1,
            config: BenchConfig::exact(1),
        };
        assert!(plan.validate(2).is_ok());
        assert!(matches!(plan.validate(1), Err(MpiError::Usage(_))));
        assert_eq!(plan.configurations().len(), 2);
        let steal = BatchPlan {
            schedules: vec![Schedule::Steal],
            ..plan.clone()
        };
        assert!(steal.validate(2).is_err());
    }
}
