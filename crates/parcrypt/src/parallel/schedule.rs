//! OpenMP-style loop schedules: how the iterations `0..n` of a parallel loop are dealt to threads.
//!
//! The meanings follow the OpenMP specification (and libgomp) exactly, so that PaRSA here
//! behaves like the seed's `#pragma omp for schedule(...)`:
//!
//! | schedule | no chunk | chunk `c` |
//! |---|---|---|
//! | `static` | one contiguous block per thread, sizes differing by at most one | chunks of `c` dealt round-robin: chunk `k` to thread `k mod n` |
//! | `dynamic` | as `c = 1` | each thread takes the next `c` iterations from a shared counter when idle |
//! | `guided` | as `c = 1` | each grab takes `max(ceil(remaining / n), c)` (never more than remain) |
//! | `steal` | as `c = 1` | rayon work stealing over chunks of `c` (beyond OpenMP: the modern baseline) |
//!
//! [`Executor::run`] runs a loop body over ranges of iterations and reports, per thread, how many
//! iterations and chunks it took and how long it was busy, so load imbalance is observable.
//! With one thread the loop runs on the calling thread, as OpenMP's master thread does.
use crate::error::{Error, Result};
use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// A loop-scheduling policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// OpenMP `schedule(static[, c])`.
    Static,
    /// OpenMP `schedule(dynamic[, c])`.
    Dynamic,
    /// OpenMP `schedule(guided[, c])`.
    Guided,
    /// Rayon work stealing (not an OpenMP schedule; the work-stealing baseline).
    Steal,
}

impl Schedule {
    /// Every schedule, in the order used by sweeps.
    pub const ALL: [Schedule; 4] = [
        Schedule::Static,
        Schedule::Dynamic,
        Schedule::Guided,
        Schedule::Steal,
    ];

    /// The lower-case name used on the command line and in result files.
    pub fn name(self) -> &'static str {
        match self {
            Schedule::Static => "static",
            Schedule::Dynamic => "dynamic",
            Schedule::Guided => "guided",
            Schedule::Steal => "steal",
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Schedule {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Schedule::ALL
            .into_iter()
            .find(|k| k.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                Error::InvalidParameter(format!(
                    "unknown schedule '{s}' (expected static, dynamic, guided or steal)"
                ))
            })
    }
}

/// A schedule with its optional chunk size (`None` is OpenMP's default for that schedule).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ScheduleSpec {
    /// The policy.
    pub schedule: Schedule,
    /// The chunk size; never `Some(0)`.
    pub chunk: Option<usize>,
}

impl ScheduleSpec {
    /// Builds a spec, refusing a chunk of 0.
    pub fn new(schedule: Schedule, chunk: Option<usize>) -> Result<Self> {
        if chunk == Some(0) {
            return Err(Error::InvalidParameter(
                "chunk size must be at least 1".into(),
            ));
        }
        Ok(Self { schedule, chunk })
    }

    /// The chunk the dealer actually uses: the given one, or 1 (dynamic, guided, steal).
    fn chunk_or_one(self) -> usize {
        self.chunk.unwrap_or(1)
    }
}

impl fmt::Display for ScheduleSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.chunk {
            Some(c) => write!(f, "{},{c}", self.schedule),
            None => write!(f, "{}", self.schedule),
        }
    }
}

/// What one thread did during a run.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ThreadStats {
    /// Iterations executed.
    pub items: usize,
    /// Chunks (grabs from the dealer) taken.
    pub chunks: usize,
    /// Seconds spent inside the loop body.
    pub busy_s: f64,
}

/// Per-thread statistics of one run, and the load imbalance they imply.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct RunStats {
    /// One entry per thread, by thread index.
    pub threads: Vec<ThreadStats>,
}

impl RunStats {
    /// max busy time / mean busy time: 1.0 is a perfect balance.
    pub fn imbalance(&self) -> f64 {
        let busy: Vec<f64> = self.threads.iter().map(|t| t.busy_s).collect();
        let mean = busy.iter().sum::<f64>() / busy.len().max(1) as f64;
        let max = busy.iter().cloned().fold(0.0, f64::max);
        if mean > 0.0 { max / mean } else { 1.0 }
    }

    /// Total chunks taken by all threads.
    pub fn chunks(&self) -> usize {
        self.threads.iter().map(|t| t.chunks).sum()
    }
}

/// Hands out ranges of iterations to threads. `next` is called by thread `t` until `None`.
trait Dealer: Sync {
    /// The next range for thread `t`, whose previous grab count is `grabs`.
    fn next(&self, t: usize, grabs: usize) -> Option<Range<usize>>;
}

/// `static` without chunk: thread t gets one contiguous block.
struct StaticBlock {
    n: usize,
    threads: usize,
}

impl Dealer for StaticBlock {
    fn next(&self, t: usize, grabs: usize) -> Option<Range<usize>> {
        if grabs > 0 {
            return None;
        }
        let r = static_block(self.n, self.threads, t);
        (!r.is_empty()).then_some(r)
    }
}

/// The block of thread `t` under `schedule(static)`: sizes differ by at most one, the first
/// `n mod threads` threads taking one more (as libgomp does).
pub fn static_block(n: usize, threads: usize, t: usize) -> Range<usize> {
    let q = n / threads;
    let r = n % threads;
    let start = t * q + t.min(r);
    let len = q + usize::from(t < r);
    start..start + len
}

/// `static, c`: chunk k goes to thread k mod threads.
struct StaticChunk {
    n: usize,
    threads: usize,
    chunk: usize,
}

impl Dealer for StaticChunk {
    fn next(&self, t: usize, grabs: usize) -> Option<Range<usize>> {
        let k = grabs * self.threads + t;
        let start = k.checked_mul(self.chunk)?;
        (start < self.n).then(|| start..(start + self.chunk).min(self.n))
    }
}

/// `dynamic, c`: a shared counter.
struct Dynamic {
    n: usize,
    chunk: usize,
    next: crossbeam_utils::CachePadded<AtomicUsize>,
}

impl Dealer for Dynamic {
    fn next(&self, _t: usize, _grabs: usize) -> Option<Range<usize>> {
        // Relaxed is enough: the counter only partitions indices; results are published by the
        // scope's join, which synchronizes.
        let start = self.next.fetch_add(self.chunk, Ordering::Relaxed);
        (start < self.n).then(|| start..(start + self.chunk).min(self.n))
    }
}

/// `guided, c`: grabs of max(ceil(remaining / threads), c).
struct Guided {
    n: usize,
    threads: usize,
    chunk: usize,
    next: crossbeam_utils::CachePadded<AtomicUsize>,
}

/// The size of a guided grab when `remaining` iterations are left.
pub fn guided_grab(remaining: usize, threads: usize, chunk: usize) -> usize {
    remaining.div_ceil(threads).max(chunk).min(remaining)
}

impl Dealer for Guided {
    fn next(&self, _t: usize, _grabs: usize) -> Option<Range<usize>> {
        let mut start = self.next.load(Ordering::Relaxed);
        loop {
            if start >= self.n {
                return None;
            }
            let size = guided_grab(self.n - start, self.threads, self.chunk);
            match self.next.compare_exchange_weak(
                start,
                start + size,
                Ordering::Relaxed,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Some(start..start + size),
                Err(now) => start = now,
            }
        }
    }
}

/// The ranges each thread would receive if the threads took turns in index order — exact for
/// `static`; for `dynamic` and `guided` one possible interleaving (used in tests and docs).
pub fn plan(n: usize, threads: usize, spec: ScheduleSpec) -> Result<Vec<Vec<Range<usize>>>> {
    check_threads(threads)?;
    let dealer = make_dealer(n, threads, spec);
    let mut out = vec![Vec::new(); threads];
    let mut done = vec![false; threads];
    while done.iter().any(|d| !d) {
        for t in 0..threads {
            if done[t] {
                continue;
            }
            match dealer.next(t, out[t].len()) {
                Some(r) => out[t].push(r),
                None => done[t] = true,
            }
        }
    }
    Ok(out)
}

fn make_dealer(n: usize, threads: usize, spec: ScheduleSpec) -> Box<dyn Dealer> {
    let chunk = spec.chunk_or_one();
    match (spec.schedule, spec.chunk) {
        (Schedule::Static, None) => Box::new(StaticBlock { n, threads }),
        (Schedule::Static, Some(chunk)) => Box::new(StaticChunk { n, threads, chunk }),
        (Schedule::Dynamic, _) | (Schedule::Steal, _) => Box::new(Dynamic {
            n,
            chunk,
            next: Default::default(),
        }),
        (Schedule::Guided, _) => Box::new(Guided {
            n,
            threads,
            chunk,
            next: Default::default(),
        }),
    }
}

fn check_threads(threads: usize) -> Result<()> {
    if threads == 0 {
        return Err(Error::InvalidParameter(
            "thread count must be at least 1".into(),
        ));
    }
    Ok(())
}

/// Runs parallel loops with a fixed thread count, schedule and pinning.
///
/// Build it once per configuration (building the rayon pool of `steal` is not part of a run),
/// then call [`Executor::run`] for each timed repetition.
pub struct Executor {
    threads: usize,
    spec: ScheduleSpec,
    pin: bool,
    pool: Option<rayon::ThreadPool>,
}

impl Executor {
    /// An executor for `threads` threads (at least 1) under `spec`; `pin` binds thread t to
    /// logical CPU t mod (CPUs available), where the OS allows it.
    pub fn new(threads: usize, spec: ScheduleSpec, pin: bool) -> Result<Self> {
        check_threads(threads)?;
        let spec = ScheduleSpec::new(spec.schedule, spec.chunk)?;
        let pool = if spec.schedule == Schedule::Steal && threads > 1 {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .start_handler(move |t| {
                    if pin {
                        super::affinity::pin_current_thread(t);
                    }
                })
                .build()
                .map_err(|e| Error::InvalidParameter(format!("cannot start threads: {e}")))?;
            Some(pool)
        } else {
            None
        };
        Ok(Self {
            threads,
            spec,
            pin,
            pool,
        })
    }

    /// The thread count.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// The schedule.
    pub fn spec(&self) -> ScheduleSpec {
        self.spec
    }

    /// Runs `body(thread, range)` over ranges covering `0..n` exactly once, and returns what
    /// each thread did.
    pub fn run<F>(&self, n: usize, body: F) -> RunStats
    where
        F: Fn(usize, Range<usize>) + Sync,
    {
        if let Some(pool) = &self.pool {
            return self.run_steal(pool, n, &body);
        }
        let dealer = make_dealer(n, self.threads, self.spec);
        let worker = |t: usize| -> ThreadStats {
            if self.pin && self.threads > 1 {
                super::affinity::pin_current_thread(t);
            }
            let mut stats = ThreadStats::default();
            while let Some(r) = dealer.next(t, stats.chunks) {
                let started = Instant::now();
                stats.items += r.len();
                stats.chunks += 1;
                body(t, r);
                stats.busy_s += started.elapsed().as_secs_f64();
            }
            stats
        };
        if self.threads == 1 {
            return RunStats {
                threads: vec![worker(0)],
            };
        }
        let threads = std::thread::scope(|s| {
            let handles: Vec<_> = (1..self.threads)
                .map(|t| s.spawn(move || worker(t)))
                .collect();
            let mut all = vec![worker(0)];
            all.extend(handles.into_iter().map(|h| super::joined(h.join())));
            all
        });
        RunStats { threads }
    }

    fn run_steal<F>(&self, pool: &rayon::ThreadPool, n: usize, body: &F) -> RunStats
    where
        F: Fn(usize, Range<usize>) + Sync,
    {
        use rayon::prelude::*;
        let chunk = self.spec.chunk_or_one();
        let per_thread: Vec<std::sync::Mutex<ThreadStats>> =
            (0..self.threads).map(|_| Default::default()).collect();
        pool.install(|| {
            (0..n.div_ceil(chunk)).into_par_iter().for_each(|k| {
                let t = rayon::current_thread_index().unwrap_or(0);
                let r = k * chunk..((k + 1) * chunk).min(n);
                let started = Instant::now();
                let len = r.len();
                body(t, r);
                let busy = started.elapsed().as_secs_f64();
                // Uncontended in practice: only thread t locks entry t.
                let mut s = per_thread[t].lock().unwrap_or_else(|e| e.into_inner());
                s.items += len;
                s.chunks += 1;
                s.busy_s += busy;
            })
        });
        RunStats {
            threads: per_thread
                .into_iter()
                .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
                .collect(),
        }
    }

    /// Computes `f(i)` for every `i` in `0..n` in parallel and returns the results in index
    /// order, together with the run's statistics.
    pub fn map<T, F>(&self, n: usize, f: F) -> (Vec<T>, RunStats)
    where
        T: Send + Default,
        F: Fn(usize) -> T + Sync,
    {
        let mut out: Vec<T> = Vec::with_capacity(n);
        out.resize_with(n, T::default);
        let slots = Slots(out.as_mut_ptr());
        let written = AtomicUsize::new(0);
        let stats = self.run(n, |_, range| {
            let len = range.len();
            for i in range {
                // SAFETY: every dealer hands out each index of 0..n exactly once (tested for
                // all schedules below), so no two threads write the same slot, and `out`
                // outlives the scope of `run`, which joins every thread before returning.
                unsafe { slots.write(i, f(i)) };
            }
            written.fetch_add(len, Ordering::Relaxed);
        });
        assert_eq!(
            written.into_inner(),
            n,
            "schedule {} did not cover every index",
            self.spec
        );
        (out, stats)
    }
}

/// A raw pointer into the output vector, shared by the threads of [`Executor::map`].
struct Slots<T>(*mut T);

// SAFETY: threads write disjoint indices only (see `Executor::map`); T itself is Send.
unsafe impl<T: Send> Sync for Slots<T> {}

impl<T> Slots<T> {
    /// Replaces slot `i` with `value`.
    ///
    /// # Safety
    /// `i` must be in bounds and no other thread may access slot `i` concurrently.
    unsafe fn write(&self, i: usize, value: T) {
        // SAFETY: guaranteed by the caller.
        unsafe { *self.0.add(i) = value };
    }
}

#[cfg(test)]
mod tests;
