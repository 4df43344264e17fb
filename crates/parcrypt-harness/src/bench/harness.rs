//! The measuring loop, hyperfine-style: warm-up runs that are not recorded, then timed runs
//! until both a minimum number of runs and a minimum measured time are reached, capped by a
//! maximum number of runs.
//!
//! The clock is a type parameter, so the loop is tested with a [`FakeClock`](super::FakeClock);
//! [`Bench::run_timed`] lets the measured code report its own time, for callers that time only
//! a region (excluding setup such as building a thread pool).
use super::clock::{Clock, RealClock, Seconds};
use super::stats::Summary;
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use std::hint::black_box;

/// How many times to run a benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BenchConfig {
    /// Runs made first and thrown away (caches, page faults, CPU frequency ramp-up).
    pub warmup_runs: u32,
    /// Fewest measured runs.
    pub min_runs: u32,
    /// Least total measured time, in seconds; runs continue until it is reached.
    pub min_time: Seconds,
    /// Most measured runs, even if `min_time` has not been reached.
    pub max_runs: u32,
}

impl Default for BenchConfig {
    /// One warm-up run, then at least 5 runs and 1 s of measured time, at most 1000 runs.
    fn default() -> Self {
        Self {
            warmup_runs: 1,
            min_runs: 5,
            min_time: 1.0,
            max_runs: 1000,
        }
    }
}

impl BenchConfig {
    /// Exactly `runs` measured runs (after the default warm-up), whatever time they take.
    pub fn exact(runs: u32) -> Self {
        Self {
            min_runs: runs,
            max_runs: runs,
            min_time: 0.0,
            ..Self::default()
        }
    }

    /// Checks the configuration: at least one run, `min_runs <= max_runs`, and a finite,
    /// non-negative `min_time`.
    pub fn validate(&self) -> Result<()> {
        let bad = |msg: String| Err(Error::InvalidParameter(msg));
        if self.min_runs == 0 {
            return bad("min_runs must be at least 1".into());
        }
        if self.max_runs < self.min_runs {
            return bad(format!(
                "max_runs ({}) is below min_runs ({})",
                self.max_runs, self.min_runs
            ));
        }
        if !(self.min_time.is_finite() && self.min_time >= 0.0) {
            return bad(format!(
                "min_time must be a non-negative number of seconds, got {}",
                self.min_time
            ));
        }
        Ok(())
    }
}

/// The recorded samples of one benchmark.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Measurement {
    /// Time of each measured run, in order (warm-up runs excluded).
    pub samples: Vec<Seconds>,
}

/// A [`Summary`] with the samples it summarises (seconds, run order): what a record needs for
/// its statistics and its per-run `times`. Derefs to the summary.
#[derive(Debug, Clone, PartialEq)]
pub struct Sampled {
    /// Statistics of `times`.
    pub summary: Summary,
    /// Every measured run's time, in order.
    pub times: Vec<Seconds>,
}

impl std::ops::Deref for Sampled {
    type Target = Summary;

    fn deref(&self) -> &Summary {
        &self.summary
    }
}

/// The statistics of every measurement, in order; `None` if any of them has no samples.
pub fn summaries(measurements: &[Measurement]) -> Option<Vec<Summary>> {
    measurements.iter().map(Measurement::summary).collect()
}

impl Measurement {
    /// Statistics of the samples with the samples themselves (`None` when there are none).
    pub fn sampled(&self) -> Option<Sampled> {
        Some(Sampled {
            summary: self.summary()?,
            times: self.samples.clone(),
        })
    }

    /// Statistics of the samples (`None` only when there are none).
    pub fn summary(&self) -> Option<Summary> {
        Summary::from_samples(&self.samples)
    }

    /// Sum of the samples.
    pub fn total(&self) -> Seconds {
        self.samples.iter().sum()
    }
}

/// Where an interleaved sweep stands ([`Bench::run_interleaved_steps`]), before a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// The configuration about to run.
    pub config: usize,
    /// Measured runs made so far, every configuration together (warm-ups excluded).
    pub done: usize,
    /// Measured runs planned in all: `None` while the warm-ups (or, without them, the first
    /// round) time the configurations, then each configuration's [`Bench::planned_runs`]
    /// summed. It grows only if a configuration needs more runs than planned.
    pub planned: Option<usize>,
}

/// Runs benchmarks with one configuration, timed by a clock of type `C`.
#[derive(Debug, Clone)]
pub struct Bench<C: Clock = RealClock> {
    config: BenchConfig,
    clock: C,
}

impl Bench<RealClock> {
    /// A harness on the real monotonic clock; fails if the configuration is invalid.
    pub fn new(config: BenchConfig) -> Result<Self> {
        Self::with_clock(config, RealClock::new())
    }
}

impl<C: Clock> Bench<C> {
    /// A harness on the given clock (a [`FakeClock`](super::FakeClock) in tests).
    pub fn with_clock(config: BenchConfig, clock: C) -> Result<Self> {
        config.validate()?;
        Ok(Self { config, clock })
    }

    /// The configuration in use.
    pub fn config(&self) -> &BenchConfig {
        &self.config
    }

    /// The clock in use.
    pub fn clock(&self) -> &C {
        &self.clock
    }

    /// Times whole calls of `f` on the harness clock. Each result goes to
    /// [`std::hint::black_box`] so the work cannot be optimised away.
    pub fn run<R>(&self, mut f: impl FnMut() -> R) -> Measurement {
        let clock = &self.clock;
        self.run_timed(|| {
            let start = clock.now();
            black_box(f());
            clock.now() - start
        })
    }

    /// Runs `f`, which times itself and returns the seconds its measured region took.
    ///
    /// Use this when each run needs setup that must not be counted (building inputs or a
    /// thread pool): do the setup, then time only the region, e.g. with [`Clock::time`].
    pub fn run_timed(&self, mut f: impl FnMut() -> Seconds) -> Measurement {
        for _ in 0..self.config.warmup_runs {
            black_box(f());
        }
        let mut samples = Vec::with_capacity(self.config.min_runs as usize);
        let mut measured = 0.0;
        while self.wants_more(samples.len(), measured) {
            let took = f();
            measured += took;
            samples.push(took);
        }
        Measurement { samples }
    }

    /// Runs several benchmarks round-robin: all warm-ups first, then rounds in which every
    /// benchmark that still wants runs makes one, until each has met the configuration's rules.
    ///
    /// On a shared, noisy machine, slow drift (another job starting, thermal throttling) then
    /// touches every configuration alike instead of whichever ran during it, so ratios between
    /// configurations — speedups — stay fair. Each closure times itself, as in
    /// [`Bench::run_timed`].
    pub fn run_interleaved(&self, fs: &mut [&mut dyn FnMut() -> Seconds]) -> Vec<Measurement> {
        self.run_interleaved_by(fs.len(), |i| fs[i]())
    }

    /// [`Bench::run_interleaved`] over `n` configurations run by one closure: `f(i)` makes one
    /// run of configuration `i` and returns the seconds its measured region took. One closure
    /// can then update per-configuration state directly (`outcomes[i]`), without boxing.
    pub fn run_interleaved_by(
        &self,
        n: usize,
        f: impl FnMut(usize) -> Seconds,
    ) -> Vec<Measurement> {
        self.run_interleaved_steps(n, f, |_| {})
    }

    /// [`Bench::run_interleaved_by`], telling `on_step` before every run where the sweep
    /// stands ([`Step`]): which configuration runs, how many measured runs are done, and how
    /// many are planned in all. The plan is made once the warm-ups (or, without warm-ups, the
    /// first round) have timed every configuration, so a progress bar knows its total before
    /// its first measured step; it grows only if a configuration turns out to need more runs.
    pub fn run_interleaved_steps(
        &self,
        n: usize,
        mut f: impl FnMut(usize) -> Seconds,
        mut on_step: impl FnMut(Step),
    ) -> Vec<Measurement> {
        let mut planned: Option<Vec<usize>> = None;
        let mut last = vec![f64::NAN; n];
        for (i, t) in last.iter_mut().enumerate() {
            for _ in 0..self.config.warmup_runs {
                on_step(Step {
                    config: i,
                    done: 0,
                    planned: None,
                });
                *t = black_box(f(i));
            }
        }
        if self.config.warmup_runs > 0 {
            planned = Some(last.iter().map(|&t| self.planned_runs(t)).collect());
        }
        let mut samples: Vec<Vec<Seconds>> = vec![Vec::new(); n];
        let mut measured = vec![0.0; n];
        let mut done = 0;
        loop {
            let mut ran = false;
            for i in 0..n {
                if self.wants_more(samples[i].len(), measured[i]) {
                    let total = planned.as_ref().map(|plan| {
                        (0..n)
                            .map(|j| {
                                let more =
                                    usize::from(self.wants_more(samples[j].len(), measured[j]));
                                plan[j].max(samples[j].len() + more)
                            })
                            .sum()
                    });
                    on_step(Step {
                        config: i,
                        done,
                        planned: total,
                    });
                    let took = f(i);
                    measured[i] += took;
                    samples[i].push(took);
                    done += 1;
                    ran = true;
                }
            }
            if planned.is_none() {
                planned = Some(
                    samples
                        .iter()
                        .map(|s| self.planned_runs(s.first().copied().unwrap_or(f64::NAN)))
                        .collect(),
                );
            }
            if !ran {
                break;
            }
        }
        samples
            .into_iter()
            .map(|samples| Measurement { samples })
            .collect()
    }

    /// The measured runs a configuration whose run takes `run_s` seconds will make: enough
    /// for `min_time`, at least `min_runs`, at most `max_runs` (`min_runs` when `run_s` says
    /// nothing).
    pub fn planned_runs(&self, run_s: Seconds) -> usize {
        let c = &self.config;
        let (min, max) = (c.min_runs as usize, c.max_runs as usize);
        if c.min_time <= 0.0 || !(run_s.is_finite() && run_s > 0.0) {
            return min;
        }
        let for_time = (c.min_time / run_s).ceil();
        if for_time >= max as f64 {
            max
        } else {
            (for_time as usize).clamp(min, max)
        }
    }

    /// Whether another run is needed after `runs` runs totalling `measured` seconds.
    fn wants_more(&self, runs: usize, measured: Seconds) -> bool {
        let c = &self.config;
        runs < c.max_runs as usize && (runs < c.min_runs as usize || measured < c.min_time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::clock::FakeClock;
    use std::cell::Cell;

    fn config(warmup_runs: u32, min_runs: u32, min_time: Seconds, max_runs: u32) -> BenchConfig {
        BenchConfig {
            warmup_runs,
            min_runs,
            min_time,
            max_runs,
        }
    }

    /// Runs a benchmark whose i-th call (warm-up included) takes `durations(i)` seconds.
    fn measure(cfg: BenchConfig, durations: impl Fn(usize) -> Seconds) -> (Measurement, usize) {
        let bench = Bench::with_clock(cfg, FakeClock::new()).unwrap();
        let calls = Cell::new(0);
        let m = bench.run(|| {
            bench.clock().advance(durations(calls.get()));
            calls.set(calls.get() + 1);
        });
        (m, calls.get())
    }

    #[test]
    fn interleaved_runs_alternate_and_each_meets_its_rules() {
        // A takes 0.125 s a run, B 0.5 s; min 2 runs and 1 s: A needs 8 runs, B 2.
        let bench = Bench::with_clock(config(1, 2, 1.0, 100), FakeClock::new()).unwrap();
        let order = std::cell::RefCell::new(Vec::new());
        let mut a = || {
            order.borrow_mut().push('a');
            0.125
        };
        let mut b = || {
            order.borrow_mut().push('b');
            0.5
        };
        let ms = bench.run_interleaved(&mut [&mut a, &mut b]);
        assert_eq!(ms[0].samples.len(), 8);
        assert_eq!(ms[1].samples.len(), 2);
        let order: String = order.into_inner().into_iter().collect();
        // Warm-ups (a, b), then rounds: a b, a b, then a alone.
        assert_eq!(order, "ababab".to_string() + "aaaaaa");
    }

    #[test]
    fn the_plan_is_known_before_the_first_measured_run() {
        // As above: A 0.125 s, B 0.5 s, min 2 runs and 1 s: 8 + 2 runs planned from the
        // warm-ups, before the first measured run, and never changed.
        let bench = Bench::with_clock(config(1, 2, 1.0, 100), FakeClock::new()).unwrap();
        let mut steps = Vec::new();
        let ms = bench.run_interleaved_steps(2, |i| [0.125, 0.5][i], |s| steps.push(s));
        let runs: usize = ms.iter().map(|m| m.samples.len()).sum();
        assert_eq!(runs, 10);
        assert_eq!(
            steps.len(),
            2 + 10,
            "a step before every run, warm-ups included"
        );
        assert!(
            steps[..2]
                .iter()
                .all(|s| s.planned.is_none() && s.done == 0)
        );
        for (k, s) in steps[2..].iter().enumerate() {
            assert_eq!((s.done, s.planned), (k, Some(10)), "{s:?}");
        }
        // Without warm-ups the first round times the configurations: unknown until then.
        let cold = Bench::with_clock(config(0, 2, 1.0, 100), FakeClock::new()).unwrap();
        let mut steps = Vec::new();
        cold.run_interleaved_steps(2, |i| [0.125, 0.5][i], |s| steps.push(s));
        assert_eq!(steps.len(), 10);
        assert!(steps[..2].iter().all(|s| s.planned.is_none()));
        assert!(
            steps[2..].iter().all(|s| s.planned == Some(10)),
            "{steps:?}"
        );
    }

    #[test]
    fn runs_faster_than_the_warm_up_grow_the_total_as_they_are_needed() {
        // The warm-up says 0.5 s (2 runs for 1 s), the measured runs take 0.25 s: 4 runs.
        let bench = Bench::with_clock(config(1, 1, 1.0, 100), FakeClock::new()).unwrap();
        let mut calls = 0;
        let mut totals = Vec::new();
        let ms = bench.run_interleaved_steps(
            1,
            |_| {
                calls += 1;
                if calls == 1 { 0.5 } else { 0.25 }
            },
            |s| totals.push(s.planned),
        );
        assert_eq!(ms[0].samples.len(), 4);
        assert_eq!(totals, [None, Some(2), Some(2), Some(3), Some(4)]);
    }

    #[test]
    fn planned_runs_follow_the_stopping_rule() {
        let bench = Bench::with_clock(config(1, 5, 1.0, 40), FakeClock::new()).unwrap();
        assert_eq!(bench.planned_runs(0.5), 5, "min_runs");
        assert_eq!(bench.planned_runs(0.1), 10);
        assert_eq!(bench.planned_runs(0.001), 40, "max_runs");
        assert_eq!(bench.planned_runs(f64::NAN), 5);
        let no_time = Bench::with_clock(config(1, 3, 0.0, 40), FakeClock::new()).unwrap();
        assert_eq!(no_time.planned_runs(0.001), 3);
    }

    #[test]
    fn warmup_runs_are_not_recorded() {
        // Warm-up calls take 9 s each, measured ones 0.5 s: no 9 appears in the samples.
        let (m, calls) = measure(config(2, 3, 0.0, 100), |i| if i < 2 { 9.0 } else { 0.5 });
        assert_eq!(calls, 5);
        assert_eq!(m.samples, vec![0.5; 3]);
    }

    #[test]
    fn stops_at_min_runs_when_time_is_already_enough() {
        let (m, calls) = measure(config(1, 5, 1.0, 1000), |_| 0.5);
        assert_eq!((m.samples.len(), calls), (5, 6));
        assert_eq!(m.total(), 2.5);
    }

    #[test]
    fn continues_until_min_time_otherwise() {
        // 0.25 s per run and 1 s needed: 4 runs would do, but 5 are the minimum.
        let (m, _) = measure(config(0, 5, 1.0, 1000), |_| 0.25);
        assert_eq!(m.samples.len(), 5);
        // 0.125 s per run (exact in binary, so no rounding at the boundary): 8 runs.
        let (m, _) = measure(config(0, 2, 1.0, 1000), |_| 0.125);
        assert_eq!(m.samples.len(), 8);
        // One slow run among fast ones: stops as soon as the total reaches min_time.
        let (m, _) = measure(
            config(0, 1, 1.0, 1000),
            |i| if i == 2 { 2.0 } else { 0.125 },
        );
        assert_eq!(m.samples, vec![0.125, 0.125, 2.0]);
    }

    #[test]
    fn max_runs_caps_the_loop() {
        let (m, calls) = measure(config(1, 3, 100.0, 10), |_| 0.001);
        assert_eq!((m.samples.len(), calls), (10, 11));
        let (m, _) = measure(BenchConfig::exact(7), |_| 10.0);
        assert_eq!(m.samples.len(), 7);
    }

    #[test]
    fn run_timed_records_the_reported_region_only() {
        let bench = Bench::with_clock(config(1, 3, 0.0, 10), FakeClock::new()).unwrap();
        let clock = bench.clock();
        let mut setups = 0;
        let m = bench.run_timed(|| {
            clock.advance(5.0); // setup, e.g. building a thread pool: not counted
            setups += 1;
            clock.time(|| clock.advance(0.25)).1
        });
        assert_eq!((setups, m.samples.clone()), (4, vec![0.25; 3]));
        assert_eq!(m.summary().unwrap().median, 0.25);
    }

    #[test]
    fn the_real_clock_measures_something() {
        let bench = Bench::new(config(0, 3, 0.0, 3)).unwrap();
        let m = bench.run(|| (0..1000u64).sum::<u64>());
        assert_eq!(m.samples.len(), 3);
        assert!(m.samples.iter().all(|&s| s >= 0.0));
    }

    #[test]
    fn invalid_configurations_are_errors() {
        assert!(BenchConfig::default().validate().is_ok());
        for bad in [
            config(1, 0, 1.0, 10),
            config(1, 11, 1.0, 10),
            config(1, 1, -1.0, 10),
            config(1, 1, f64::NAN, 10),
        ] {
            let err = Bench::new(bad).unwrap_err();
            assert!(matches!(err, Error::InvalidParameter(_)), "{bad:?}");
        }
        let err = BenchConfig {
            max_runs: 2,
            ..BenchConfig::default()
        }
        .validate();
        assert_eq!(
            err.unwrap_err().to_string(),
            "invalid parameter: max_runs (2) is below min_runs (5)"
        );
    }
}
