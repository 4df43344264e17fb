//! Thread-activation microbenchmarks (the seed's "thread activation time" table): how long it
//! takes to get another thread running, which bounds how small a product can be split with
//! profit.
//!
//! - `spawn`: from the `spawn` call until the new thread's first instruction (it reads the
//!   clock first thing and returns the reading).
//! - `spawn+join`: a `spawn` of an empty closure and its `join`.
//! - `condvar-other-core` / `condvar-same-core`: a thread blocked in `Condvar::wait` (pinned to
//!   CPU 1, or to the measuring thread's CPU 0) is woken: from just before the flag is set
//!   under the mutex and `notify_one` is called, until the woken thread holds the mutex
//!   again. Before each sample the measurer sleeps ~20 µs so the waiter is really asleep in the
//!   kernel, not about to be.
//! - `lockfree-handoff`: a round trip of an atomic flag between two threads spinning on
//!   CPUs 0 and 1 (ping, pong); one sample is the mean of [`ROUND_TRIPS`] round trips. A
//!   one-way handoff is about half of it.
//!
//! Timestamps are `Instant` (CLOCK_MONOTONIC), comparable across threads. Pinning is best
//! effort; each record says whether it held. The measuring threads are spawned here, so the
//! caller's own affinity is never changed.
use crate::bench::{Bench, BenchConfig, Seconds, Summary, TimingColumns, TimingFields};
use crate::error::{Error, Result};
use parcrypt::parallel::affinity::{available_cpus, pin_current_thread};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// Round trips per `lockfree-handoff` sample.
pub const ROUND_TRIPS: u32 = 100;
/// Pause before each condition-variable sample, so the waiter is asleep.
pub const CONDVAR_GAP: Duration = Duration::from_micros(20);

/// A way of activating a thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Activation {
    /// Spawn until the new thread runs.
    Spawn,
    /// Spawn and join an empty thread.
    SpawnJoin,
    /// Condvar wake of a thread pinned to another CPU.
    CondvarOtherCore,
    /// Condvar wake of a thread pinned to the waker's CPU.
    CondvarSameCore,
    /// Atomic-flag ping-pong round trip between spinning threads on two CPUs.
    LockFreeHandoff,
}

impl Activation {
    /// Every activation, in the order of the seed's table.
    pub const ALL: [Activation; 5] = [
        Activation::Spawn,
        Activation::SpawnJoin,
        Activation::CondvarOtherCore,
        Activation::CondvarSameCore,
        Activation::LockFreeHandoff,
    ];

    /// The name used in tables and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Activation::Spawn => "spawn",
            Activation::SpawnJoin => "spawn+join",
            Activation::CondvarOtherCore => "condvar-other-core",
            Activation::CondvarSameCore => "condvar-same-core",
            Activation::LockFreeHandoff => "lockfree-handoff",
        }
    }

    /// Whether the measurement pins threads (condvar and lock-free ones do).
    pub fn pins(self) -> bool {
        !matches!(self, Activation::Spawn | Activation::SpawnJoin)
    }
}

/// One activation's result; the field names are the JSON/CSV columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HandoffRecord {
    /// Activation name ([`Activation::name`]).
    pub primitive: String,
    /// Median, µs.
    pub median_us: f64,
    /// Fastest, µs.
    pub min_us: f64,
    /// Seconds per activation: median, min, max, samples and every sample's time per
    /// activation ([`TimingColumns::RANGE`]).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Activations averaged in one sample (1, or [`ROUND_TRIPS`] for the lock-free handoff).
    pub per_sample: u32,
    /// Every thread involved was pinned as intended.
    pub pinned: bool,
    /// Statistical or pinning warning, empty if none.
    pub note: String,
}

/// Measures one activation `config.min_runs`..`max_runs` times (warm-ups first): the
/// statistics and the times of one activation per sample, and whether the pins held.
pub fn measure(what: Activation, config: &BenchConfig) -> Result<(Summary, bool, Vec<Seconds>)> {
    let bench = Bench::new(*config)?;
    let (measurement, pinned, per) = match what {
        Activation::Spawn => {
            let m = bench.run_timed(|| {
                let t0 = Instant::now();
                let started = thread::spawn(Instant::now).join();
                started.map_or(f64::NAN, |t1| (t1 - t0).as_secs_f64())
            });
            (m, false, 1)
        }
        Activation::SpawnJoin => {
            let m = bench.run_timed(|| {
                let t0 = Instant::now();
                let _ = thread::spawn(|| ()).join();
                t0.elapsed().as_secs_f64()
            });
            (m, false, 1)
        }
        Activation::CondvarOtherCore => condvar_wake(&bench, 1),
        Activation::CondvarSameCore => condvar_wake(&bench, 0),
        Activation::LockFreeHandoff => ping_pong(&bench),
    };
    let summary = measurement
        .summary()
        .ok_or_else(|| Error::internal("no samples"))?;
    Ok((
        super::mul::per_item(&summary, per),
        pinned,
        super::mul::per_item_times(&measurement.samples, per),
    ))
}

/// Runs every activation; `progress(done, total, name)` before each.
pub fn run(
    config: &BenchConfig,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<HandoffRecord>> {
    let mut out = Vec::new();
    for (i, what) in Activation::ALL.into_iter().enumerate() {
        progress(i, Activation::ALL.len(), what.name());
        let (s, pinned, times) = measure(what, config)?;
        let mut notes: Vec<String> = s.note().into_iter().collect();
        if what.pins() && !pinned {
            notes.push("pinning failed: threads ran where the scheduler put them".into());
        }
        if what == Activation::CondvarOtherCore && available_cpus() < 2 {
            notes.push("one CPU only: 'other core' ran on the same CPU".into());
        }
        out.push(HandoffRecord {
            primitive: what.name().to_string(),
            median_us: s.median * 1e6,
            min_us: s.min * 1e6,
            timing: TimingFields::new(&s, times, TimingColumns::RANGE),
            per_sample: if what == Activation::LockFreeHandoff {
                ROUND_TRIPS
            } else {
                1
            },
            pinned: what.pins() && pinned,
            note: notes.join("; "),
        });
    }
    progress(out.len(), out.len(), "done");
    Ok(out)
}

/// The flag, guarded, that the waker raises for the waiter.
#[derive(Default)]
struct Bell {
    rung: u64,
    woke: Option<Instant>,
    waiting: bool,
    quit: bool,
}

/// Condvar wake of a waiter on CPU `waiter_cpu`, the measuring thread on CPU 0. Returns the
/// samples (seconds each), whether both pins held, and 1 activation per sample.
fn condvar_wake(bench: &Bench, waiter_cpu: usize) -> (crate::bench::Measurement, bool, u64) {
    let state = Mutex::new(Bell::default());
    let (ring, back) = (Condvar::new(), Condvar::new());
    let lock = || state.lock().unwrap_or_else(PoisonError::into_inner);
    thread::scope(|s| {
        let waiter = s.spawn(|| {
            let pinned = pin_current_thread(waiter_cpu);
            let mut bell = lock();
            let mut seen = 0;
            loop {
                bell.waiting = true;
                back.notify_one();
                while bell.rung == seen && !bell.quit {
                    bell = ring.wait(bell).unwrap_or_else(PoisonError::into_inner);
                }
                if bell.quit {
                    return pinned;
                }
                let woke = Instant::now();
                (seen, bell.waiting, bell.woke) = (bell.rung, false, Some(woke));
                back.notify_one();
            }
        });
        let measurer = s.spawn(|| {
            let pinned = pin_current_thread(0);
            let m = bench.run_timed(|| {
                let mut bell = lock();
                while !(bell.waiting && bell.woke.is_none()) {
                    bell = back.wait(bell).unwrap_or_else(PoisonError::into_inner);
                }
                drop(bell);
                thread::sleep(CONDVAR_GAP);
                let t0 = Instant::now();
                lock().rung += 1;
                ring.notify_one();
                let mut bell = lock();
                loop {
                    if let Some(t1) = bell.woke.take() {
                        break (t1 - t0).as_secs_f64();
                    }
                    bell = back.wait(bell).unwrap_or_else(PoisonError::into_inner);
                }
            });
            (m, pinned)
        });
        let (m, pinned_measurer) = measurer.join().unwrap_or_default();
        lock().quit = true;
        ring.notify_one();
        let pinned_waiter = waiter.join().unwrap_or(false);
        (m, pinned_measurer && pinned_waiter, 1)
    })
}

/// Atomic ping-pong between CPU 0 (measuring) and CPU 1 (echoing), [`ROUND_TRIPS`] per sample.
fn ping_pong(bench: &Bench) -> (crate::bench::Measurement, bool, u64) {
    let flag = AtomicU64::new(0);
    let quit = AtomicBool::new(false);
    thread::scope(|s| {
        let echo = s.spawn(|| {
            let pinned = pin_current_thread(1);
            let mut expect = 1;
            loop {
                while flag.load(Ordering::Acquire) != expect {
                    if quit.load(Ordering::Relaxed) {
                        return pinned;
                    }
                    std::hint::spin_loop();
                }
                flag.store(expect + 1, Ordering::Release);
                expect += 2;
            }
        });
        let measurer = s.spawn(|| {
            let pinned = pin_current_thread(0);
            let mut next = 1;
            let m = bench.run_timed(|| {
                let t0 = Instant::now();
                for _ in 0..ROUND_TRIPS {
                    flag.store(next, Ordering::Release);
                    while flag.load(Ordering::Acquire) != next + 1 {
                        std::hint::spin_loop();
                    }
                    next += 2;
                }
                t0.elapsed().as_secs_f64()
            });
            (m, pinned)
        });
        let (m, pinned_measurer) = measurer.join().unwrap_or_default();
        quit.store(true, Ordering::Relaxed);
        let pinned_echo = echo.join().unwrap_or(false);
        (m, pinned_measurer && pinned_echo, u64::from(ROUND_TRIPS))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_activation_measures_something() {
        let config = BenchConfig {
            warmup_runs: 1,
            ..BenchConfig::exact(5)
        };
        let mut seen = Vec::new();
        let recs = run(&config, |_, _, name| seen.push(name.to_string())).unwrap();
        assert_eq!(recs.len(), 5);
        assert_eq!(seen.last().map(String::as_str), Some("done"));
        for (r, what) in recs.iter().zip(Activation::ALL) {
            assert_eq!(r.primitive, what.name());
            let t = &r.timing;
            assert_eq!(t.runs, 5);
            assert!(t.median_s.is_finite() && t.median_s >= 0.0, "{r:?}");
            assert!(t.min_s <= t.median_s && t.median_s <= t.max_s);
            assert!((r.median_us - t.median_s * 1e6).abs() < 1e-9);
        }
        assert_eq!(recs[4].per_sample, ROUND_TRIPS);
        assert!(!recs[0].pinned && !recs[1].pinned);
    }
}
