//! Paired rounds and bootstrap intervals: how the study turns timings into evidence.
//!
//! A *round* runs every configuration of an experiment once, one after the other, so slow
//! drift on a shared machine touches all of them alike; the values of one round are paired.
//! A statistic (a median, a ratio of two configurations, a spread over sizes) gets a 95 %
//! percentile-bootstrap interval by resampling whole rounds with replacement, which keeps
//! the pairing. The resampling is seeded, so the same rounds always give the same interval.
//!
//! [`measure`] runs at least `min_rounds` rounds, then, while some claim the rounds feed is
//! still inconclusive, more rounds within a stated time budget (a fraction of the time the
//! first rounds took) and a round cap. Rounds measured with a core taken or the CPUs apart
//! are set aside and measured again, but kept apart ([`Rounds::with_set_aside`]): every
//! experiment builds its evidence through `experiment::set_aside_checked`, which checks each
//! claim's evidence against the same evidence with those rounds kept, so setting rounds aside
//! cannot choose a verdict (the judge makes one that changes inconclusive).
use super::judge::Estimate;
use crate::bench::capacity::{cores_apart, established_level};
use crate::bench::stats::{bootstrap_resamples, median, percentile_interval};
use crate::error::{Error, Result};
use crate::results::{Profile, Quality};
use std::time::Instant;

/// One round as measured: a value per configuration key.
type Round = Vec<(String, f64)>;

/// A round's values by configuration key (NaN for a key the round lacks).
pub type Values<'a> = dyn Fn(&str) -> f64 + 'a;

/// Keys starting with this are probes of the machine (free cores), not configurations: they
/// are left out of [`Rounds::quality`].
pub const PROBE: &str = "probe:";

/// The free-core probe's keys: this, then the thread count (`probe:free-cores/2`).
pub const FREE_CORES: &str = "probe:free-cores/";

/// The key of a round's steal reading ([`crate::bench::capacity::steal_free`]): the share of
/// the round's wall time the most robbed logical CPU kept from the hypervisor (1.0: nothing
/// taken). [`measure`] adds it to every round of an experiment that probes free cores for 2
/// threads or more, where the kernel counts steal time.
pub const STEAL_FREE: &str = "probe:steal-free";

/// Bootstrap resamples per interval.
pub const RESAMPLES: usize = crate::bench::stats::BOOTSTRAP_RESAMPLES;
/// A configuration whose median's interval is wider than this (relative half-width) is noisy.
pub const NOISY: f64 = 0.10;

/// The key of the cross-core probe ([`crate::bench::capacity::cross_core_us`]) that
/// [`measure`] adds to every round of an experiment that probes free cores for 2 threads or
/// more.
pub const CROSS_CORE: &str = "probe:cross-core-us";

pub use crate::bench::capacity::{DISTURBED, FAR};

/// How many rounds to run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Rounds always run.
    pub min_rounds: usize,
    /// Most rounds, re-measuring included.
    pub max_rounds: usize,
    /// Time budget for re-measuring inconclusive claims, as a fraction of the time the first
    /// `min_rounds` rounds took…
    pub extra_budget: f64,
    /// … and at most this many seconds.
    pub max_extra_s: f64,
    /// Set aside rounds whose cross-core probe read the CPUs apart ([`FAR`]): for experiments
    /// whose parallel forms hand data between threads ([`Plan::handing_data`]).
    pub set_aside_far: bool,
    /// Seconds to wait after a round set aside because a core was taken, times the number of
    /// such rounds in a row (at most [`MAX_PAUSE_S`] a wait), so a burst of load that outlasts
    /// a short experiment's rounds can pass before it measures again. Waits count against the
    /// extra time like the rounds set aside.
    pub pause_after_busy_s: f64,
    /// After a round set aside with the CPUs apart, poll the cross-core probe (every
    /// [`APART_POLL_S`]) for up to this many seconds, and start the next round as soon as it
    /// reads them near again: the hypervisor's placement often lasts seconds, and a round
    /// measured straight after a far one is likely far too. Waits count against the extra time.
    pub wait_apart_s: f64,
}

/// How often [`Plan::wait_apart_s`] polls the cross-core probe, seconds.
pub const APART_POLL_S: f64 = 0.1;

/// The longest single wait after a round set aside as busy ([`Plan::pause_after_busy_s`]).
pub const MAX_PAUSE_S: f64 = 2.0;

impl Plan {
    /// Quick: 10 rounds, then up to 24 within their time again and 30 s; full: 12
    /// rounds, then up to 30 within their time again and 10 minutes. Rounds set aside, and
    /// the waits after busy and apart ones, are paid from that same extra time, so an experiment takes
    /// between its first rounds' time and twice that ([`extra_allowance`]): what the study's
    /// estimate plans by.
    ///
    /// Quick's numbers come from two back-to-back quick studies on a quiet 2-core VM: with 8
    /// rounds and half their time again, one or two disturbed rounds widened a median's
    /// interval across its rule in one run and not the other, in 6 of 259 claims. The cap on
    /// quick's extra time went from 40 to 30 s when two quiet quick studies took 273 and 305 s
    /// (2026-11-28): the m-ary exponentiations spent 24–34 s of it, half on rounds set aside
    /// with the CPUs apart, and the SCC pipeline 17 s.
    pub fn for_profile(profile: Profile) -> Self {
        match profile {
            Profile::Quick => Plan {
                min_rounds: 10,
                max_rounds: 24,
                extra_budget: 1.0,
                max_extra_s: 30.0,
                set_aside_far: false,
                pause_after_busy_s: 0.25,
                wait_apart_s: MAX_PAUSE_S,
            },
            Profile::Full => Plan {
                min_rounds: 12,
                max_rounds: 30,
                extra_budget: 1.0,
                max_extra_s: 600.0,
                set_aside_far: false,
                pause_after_busy_s: 0.25,
                wait_apart_s: MAX_PAUSE_S,
            },
        }
    }

    /// The same plan for an experiment whose parallel forms hand data between threads
    /// (pipelines, split products, hand-offs): its rounds measured with the CPUs apart are set
    /// aside (see [`FAR`]). Where each thread works on its own data (PaRSA's messages), a
    /// round is kept whatever the probe reads, and the probe's level is reported beside it.
    pub fn handing_data(self) -> Self {
        Plan {
            set_aside_far: true,
            ..self
        }
    }

    /// The plan in a sentence, for experiment summaries.
    pub fn describe(&self) -> String {
        format!(
            "{} paired rounds, up to {} while a claim is inconclusive and the extra time (rounds set aside included) stays within {:.0} % of the first rounds' and {:.0} s",
            self.min_rounds,
            self.max_rounds,
            self.extra_budget * 100.0,
            self.max_extra_s
        )
    }
}

/// Per-configuration values of paired rounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rounds {
    keys: Vec<String>,
    /// `values[key][round]`.
    values: Vec<Vec<f64>>,
    rounds: usize,
    /// Rounds run after the first judgement (re-measuring).
    pub extra: usize,
    /// Rounds set aside: measured with the CPUs apart ([`FAR`]) or a core taken
    /// ([`DISTURBED`]).
    pub set_aside: usize,
    /// Of those, the rounds set aside because their free-core probe, or their steal reading
    /// ([`STEAL_FREE`]), read below [`DISTURBED`].
    pub set_aside_busy: usize,
    /// Rounds kept although their cross-core probe read the CPUs apart, because as many rounds
    /// as the plan allows had been set aside already (the judge holds results such rounds
    /// could have caused to it: `cpus-apart`).
    pub kept_apart: usize,
    /// The cross-core readings of the rounds set aside with the CPUs apart.
    set_aside_us: Vec<f64>,
    /// The cross-core readings of every round offered, set aside or kept, in order.
    readings: Vec<f64>,
    /// The line above which the last round offered read the CPUs apart (µs): [`FAR`] times
    /// the [`established_level`] of the readings so far.
    far_above_us: Option<f64>,
    /// Seconds waited after rounds set aside with the CPUs apart ([`Plan::wait_apart_s`]).
    pub waited_apart_s: f64,
    /// The rounds set aside, each with the number of rounds kept before it and its block.
    aside: Vec<(usize, usize, Round)>,
    /// The block each kept round was measured in (see [`Block`]): 0 for rounds measured in
    /// one go.
    blocks: Vec<usize>,
    /// The block rounds pushed now belong to.
    block: usize,
}

impl Rounds {
    /// No rounds yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a round: one value per configuration key. A key missing from a round gets NaN
    /// there (and is left out of every statistic over that round).
    pub fn push(&mut self, round: Vec<(String, f64)>) {
        for (k, v) in round {
            let i = match self.keys.iter().position(|x| *x == k) {
                Some(i) => i,
                None => {
                    self.keys.push(k);
                    self.values.push(vec![f64::NAN; self.rounds]);
                    self.keys.len() - 1
                }
            };
            if self.values[i].len() == self.rounds {
                self.values[i].push(v);
            }
        }
        self.rounds += 1;
        self.blocks.push(self.block);
        for v in &mut self.values {
            v.resize(self.rounds, f64::NAN);
        }
    }

    /// Adds a round unless, with fewer than `limit` rounds set aside so far, its free-core
    /// probe read a core taken, or (`far` set) its cross-core probe read the CPUs apart: more
    /// than [`FAR`] times the machine's level, the [`established_level`] of the readings
    /// `elsewhere` in the process before these rounds and of every round offered here, this one
    /// included.
    /// A round set aside is kept apart ([`Rounds::with_set_aside`]). Says whether it was kept.
    fn push_unless_disturbed(
        &mut self,
        round: Vec<(String, f64)>,
        limit: usize,
        far: bool,
        elsewhere: &[f64],
    ) -> bool {
        let us = round
            .iter()
            .find(|(k, _)| k == CROSS_CORE)
            .map(|&(_, v)| v)
            .filter(|x| x.is_finite());
        if let Some(us) = us {
            self.readings.push(us);
        }
        let apart = us.filter(|&us| {
            if !far {
                return false;
            }
            let pool: Vec<f64> = elsewhere.iter().chain(&self.readings).copied().collect();
            let level = established_level(&pool);
            self.far_above_us = level.map(|l| l * FAR);
            level.is_some_and(|l| cores_apart(us, l))
        });
        let busy = free_core_readings(&round)
            .map(|(_, f)| f)
            .chain(steal_reading(&round))
            .any(|f| f.is_finite() && f < DISTURBED);
        if self.set_aside >= limit || (apart.is_none() && !busy) {
            self.kept_apart += usize::from(apart.is_some());
            self.push(round);
            return true;
        }
        self.set_aside += 1;
        match apart {
            Some(us) => self.set_aside_us.push(us),
            None => self.set_aside_busy += 1,
        }
        self.aside.push((self.rounds, self.block, round));
        false
    }

    /// These rounds with the rounds set aside put back where they were measured: what the
    /// evidence would be had nothing been set aside (`experiment::set_aside_checked` builds it
    /// on both). Nothing is set aside in the result.
    pub fn with_set_aside(&self) -> Rounds {
        let mut all = Rounds::new();
        let mut aside = self.aside.iter().peekable();
        for i in 0..=self.rounds {
            while let Some((_, block, round)) = aside.next_if(|(at, _, _)| *at == i) {
                all.block = *block;
                all.push(round.clone());
            }
            if i < self.rounds {
                all.block = self.blocks[i];
                all.push(self.round(i));
            }
        }
        all.extra = self.extra;
        all.readings = self.readings.clone();
        all.block = self.block;
        all
    }

    /// Kept round `i` as it was pushed: a value per key (NaN where it had none).
    fn round(&self, i: usize) -> Round {
        self.keys
            .iter()
            .zip(&self.values)
            .map(|(k, v)| (k.clone(), v[i]))
            .collect()
    }

    /// The kept rounds whose every free-core probe, and steal reading ([`STEAL_FREE`]), read at
    /// least [`crate::bench::capacity::FREE_CORES_NEEDED`] (each in its block), or `None` when
    /// no kept round read below it (the rounds themselves). What the judge takes as the evidence
    /// of rounds load could not have slowed, where the probe's interval straddles that line
    /// (`experiment::set_aside_checked` builds it; [`crate::study::judge::assess`]). Nothing is
    /// set aside in the result.
    pub fn free_only(&self) -> Option<Rounds> {
        let need = crate::bench::capacity::FREE_CORES_NEEDED;
        let probes: Vec<&Vec<f64>> = self
            .keys
            .iter()
            .zip(&self.values)
            .filter(|(k, _)| k.starts_with(FREE_CORES) || *k == STEAL_FREE)
            .map(|(_, v)| v)
            .collect();
        let free = |i: usize| probes.iter().all(|v| v[i].is_nan() || v[i] >= need);
        if (0..self.rounds).all(free) {
            return None;
        }
        let mut out = Rounds::new();
        for i in (0..self.rounds).filter(|&i| free(i)) {
            out.block = self.blocks[i];
            out.push(self.round(i));
        }
        out.readings = self.readings.clone();
        out.block = self.block;
        Some(out)
    }

    /// How many blocks the rounds were measured in (1 for rounds measured in one go).
    pub fn block_count(&self) -> usize {
        self.blocks.iter().copied().max().map_or(0, |b| b + 1)
    }

    /// Rounds so far.
    pub fn len(&self) -> usize {
        self.rounds
    }

    /// No rounds yet.
    pub fn is_empty(&self) -> bool {
        self.rounds == 0
    }

    /// The configuration keys, in first-seen order.
    pub fn keys(&self) -> &[String] {
        &self.keys
    }

    /// The values of one key, one per round.
    pub fn get(&self, key: &str) -> Option<&[f64]> {
        let i = self.keys.iter().position(|k| k == key)?;
        Some(&self.values[i])
    }

    /// A statistic with its bootstrap interval: `stat` is computed on all rounds for the value
    /// and on [`RESAMPLES`] resamples of the rounds for the interval (2.5th and 97.5th
    /// percentiles). `None` when `stat` is not finite on all rounds; an interval from fewer than
    /// 3 rounds is infinite (so it decides nothing).
    pub fn estimate(&self, stat: impl Fn(&Resample) -> f64) -> Option<Estimate> {
        let all: Vec<usize> = (0..self.rounds).collect();
        let value = stat(&Resample {
            rounds: self,
            idx: &all,
        });
        if !value.is_finite() {
            return None;
        }
        if self.rounds < 3 {
            return Some(Estimate::new(value, f64::NEG_INFINITY, f64::INFINITY));
        }
        let seed = 0x5EED_0000 + self.rounds as u64;
        let stats: Vec<f64> = bootstrap_resamples(self.rounds, RESAMPLES, seed)
            .map(|idx| {
                stat(&Resample {
                    rounds: self,
                    idx: &idx,
                })
            })
            .collect();
        let mut e = match percentile_interval(stats, RESAMPLES) {
            Some((low, high)) => Estimate::new(value, low.min(value), high.max(value)),
            None => Estimate::new(value, f64::NEG_INFINITY, f64::INFINITY),
        };
        // Rounds measured in blocks spread over the run: the interval also takes in each
        // block's own estimate, so a shift between blocks (between runs, in effect) widens it
        // instead of hiding in the pooled rounds.
        if self.block_count() > 1 {
            for b in 0..self.block_count() {
                let idx: Vec<usize> = (0..self.rounds).filter(|&i| self.blocks[i] == b).collect();
                if idx.len() < 2 {
                    continue;
                }
                let v = stat(&Resample {
                    rounds: self,
                    idx: &idx,
                });
                if v.is_finite() {
                    e.low = e.low.min(v);
                    e.high = e.high.max(v);
                }
            }
        }
        Some(e)
    }

    /// The median over rounds of a per-round quantity `f(value of key in that round)`, with
    /// its paired interval; rounds where `f` is not finite are left out.
    pub fn paired(&self, f: impl Fn(&Values) -> f64) -> Option<Estimate> {
        self.estimate(|r| r.per_round(&f))
    }

    /// The per-round values of `f` (reading a round's values by key), the finite ones in
    /// round order: what a chart draws as the strip of rounds behind an estimate.
    pub fn each(&self, f: impl Fn(&Values) -> f64) -> Vec<f64> {
        self.per_round(0..self.rounds, &f)
    }

    /// `f` on each of the rounds `idx` (reading a round's values by key, NaN for a key that
    /// round lacks), the finite results in order.
    fn per_round(&self, idx: impl Iterator<Item = usize>, f: &dyn Fn(&Values) -> f64) -> Vec<f64> {
        idx.map(|i| {
            let value = |key: &str| self.get(key).map_or(f64::NAN, |v| v[i]);
            f(&value)
        })
        .filter(|x| x.is_finite())
        .collect()
    }

    /// The median of one configuration, with its interval.
    pub fn median(&self, key: &str) -> Option<Estimate> {
        self.get(key)?;
        self.estimate(|r| r.median(key))
    }

    /// The median of the per-round ratios `num / den`, with its interval (paired).
    pub fn ratio(&self, num: &str, den: &str) -> Option<Estimate> {
        self.get(num)?;
        self.get(den)?;
        self.estimate(|r| r.ratio(num, den))
    }

    /// How sure the rounds are: the median relative half-width of the configurations'
    /// intervals, and whether any is wider than [`NOISY`].
    pub fn quality(&self) -> Quality {
        let mut widths: Vec<f64> = self
            .keys
            .iter()
            .filter(|k| !k.starts_with(PROBE))
            .filter_map(|k| self.median(k))
            .filter(|e| e.value != 0.0 && e.low.is_finite() && e.high.is_finite())
            .map(|e| (e.high - e.low) / 2.0 / e.value.abs())
            .collect();
        widths.sort_by(f64::total_cmp);
        let spread = widths.get(widths.len() / 2).copied().unwrap_or(f64::NAN);
        Quality {
            rounds: self.rounds,
            extra_rounds: self.extra,
            spread_pct: spread * 100.0,
            noisy: widths.iter().any(|w| *w > NOISY),
            set_aside_rounds: self.set_aside,
            set_aside_busy: self.set_aside_busy,
            cross_core_us: self
                .get(CROSS_CORE)
                .map(|v| median(v.iter().copied().filter(|x| x.is_finite()).collect())),
            set_aside_us: (!self.set_aside_us.is_empty())
                .then(|| median(self.set_aside_us.clone())),
            far_above_us: self.far_above_us,
            waited_apart_s: self.waited_apart_s,
            steal_free: self
                .get(STEAL_FREE)
                .and_then(|v| v.iter().copied().filter(|x| x.is_finite()).reduce(f64::min)),
        }
    }
}

/// A resample of the rounds, handed to a statistic.
pub struct Resample<'a> {
    rounds: &'a Rounds,
    idx: &'a [usize],
}

impl Resample<'_> {
    /// The values of `key` in the resampled rounds (NaNs dropped).
    pub fn values(&self, key: &str) -> Vec<f64> {
        self.rounds.get(key).map_or_else(Vec::new, |v| {
            self.idx
                .iter()
                .map(|&i| v[i])
                .filter(|x| x.is_finite())
                .collect()
        })
    }

    /// Median of `key` over the resampled rounds (NaN when none).
    pub fn median(&self, key: &str) -> f64 {
        median(self.values(key))
    }

    /// Median over the resampled rounds of `num / den` (paired, round by round).
    pub fn ratio(&self, num: &str, den: &str) -> f64 {
        self.per_round(&|v: &Values| v(num) / v(den))
    }

    /// Median over the resampled rounds of `f`, which reads a round's values by key (NaN for
    /// a key that round lacks); rounds where `f` is not finite are left out.
    pub fn per_round(&self, f: &dyn Fn(&Values) -> f64) -> f64 {
        median(self.rounds.per_round(self.idx.iter().copied(), f))
    }
}

/// Where an experiment's rounds are in the study's blocks: the study runs every experiment
/// twice, the first block of rounds in one order and the rest in the reverse order, so each
/// claim's rounds are spread over the run and follow different neighbours, and its interval
/// carries the spread between blocks ([`Rounds::estimate`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Block {
    /// Every round in one go (unit tests, benchmarks, anything outside the study's blocks).
    #[default]
    Whole,
    /// The first block: the first [`first_block`] rounds, no re-measuring, kept for the
    /// second.
    First,
    /// The second block: the first block's rounds, then the rest of the plan's rounds and any
    /// re-measuring.
    Second,
}

/// Rounds of the first block when an experiment's plan asks for `min_rounds`: half, rounded
/// up.
pub fn first_block(min_rounds: usize) -> usize {
    min_rounds.div_ceil(2)
}

/// The block the study is in, the experiment running, how many times it has called
/// [`measure`], and the first block's rounds kept by (experiment, call).
#[derive(Default)]
struct Blocks {
    block: Block,
    experiment: String,
    calls: usize,
    kept: Vec<((String, usize), Rounds)>,
}

thread_local! {
    /// The study's blocks, per thread: the study runs its experiments on one thread, and tests
    /// that run beside each other keep theirs apart.
    static BLOCKS: std::cell::RefCell<Blocks> = std::cell::RefCell::new(Blocks::default());
}

/// Sets the block the next [`measure`] calls belong to, for `experiment` (the study calls it
/// before each experiment's run; [`Block::Whole`] ends blocks and drops what was kept).
pub fn set_block(experiment: &str, block: Block) {
    BLOCKS.with_borrow_mut(|b| {
        b.block = block;
        b.experiment = experiment.to_string();
        b.calls = 0;
        if block == Block::Whole {
            b.kept.clear();
        }
    });
}

/// Runs rounds by `plan`: `round(i)` measures every configuration once and returns
/// `(key, value)` pairs; after `min_rounds`, more rounds run while `settled` says no and
/// the extra time and the round cap allow another.
///
/// A round that probes free cores for 2 threads or more gets a [`CROSS_CORE`] reading: the
/// slower of a probe just before it (from the second round on) and one just after; and, where
/// the kernel counts steal time, a [`STEAL_FREE`] reading over the round itself: the free-core
/// probe runs after the round's configurations and misses a CPU the hypervisor took in the
/// middle of it, which steal time counts. A round whose free-core probe or steal reading reads
/// below [`DISTURBED`], or (in a plan [`Plan::handing_data`]) whose
/// cross-core reading is beyond [`FAR`] times the machine's level (the [`established_level`] of the
/// process's readings and the rounds'), is set aside, kept apart, and another run in its
/// place. `i` counts every round run, set aside or not.
pub fn measure(
    plan: &Plan,
    mut round: impl FnMut(usize) -> Result<Vec<(String, f64)>>,
    settled: impl Fn(&Rounds) -> bool,
) -> Result<Rounds> {
    use crate::bench::capacity::{
        CROSS_CORE_S, cross_core_readings, cross_core_us, steal_free, steal_seconds,
    };
    // The process's readings before these rounds: with this experiment's own, they set the
    // machine's level against which a round reads the CPUs apart.
    let elsewhere = cross_core_readings();
    // Known after the first round: whether rounds run parallel forms (and get probed before
    // as well as after, so a state that ends or starts inside the round is seen).
    let mut parallel = false;
    let (block, call) = BLOCKS.with_borrow_mut(|b| {
        b.calls += 1;
        let call = (b.experiment.clone(), b.calls - 1);
        let kept = match b.block {
            Block::Second => b
                .kept
                .iter()
                .position(|(k, _)| *k == call)
                .map(|i| b.kept.swap_remove(i).1),
            _ => None,
        };
        (b.block, (call, kept))
    });
    let ((experiment, n), kept) = call;
    let first_plan = Plan {
        min_rounds: first_block(plan.min_rounds),
        extra_budget: 0.0,
        max_extra_s: 0.0,
        ..*plan
    };
    let (plan, start) = match block {
        Block::First => (&first_plan, Rounds::new()),
        Block::Second => {
            let mut r = kept.unwrap_or_default();
            r.block = 1;
            (plan, r)
        }
        Block::Whole => (plan, Rounds::new()),
    };
    let rounds = measure_from(
        plan,
        start,
        |i| {
            let before = if parallel {
                cross_core_us(CROSS_CORE_S)
            } else {
                f64::NAN
            };
            let steal_before = steal_seconds();
            let started = Instant::now();
            let mut v = round(i)?;
            let wall = started.elapsed().as_secs_f64();
            parallel = probes_parallel(&v);
            if parallel
                && !v.iter().any(|(k, _)| k == STEAL_FREE)
                && let Some(free) =
                    steal_free(steal_before.as_deref(), steal_seconds().as_deref(), wall)
            {
                v.push((STEAL_FREE.to_string(), free));
            }
            if parallel && !v.iter().any(|(k, _)| k == CROSS_CORE) {
                let after = cross_core_us(CROSS_CORE_S);
                // `max` ignores the NaN of the first round's missing probe.
                v.push((CROSS_CORE.to_string(), after.max(before)));
            }
            Ok(v)
        },
        settled,
        &elsewhere,
    )?;
    if block == Block::First {
        BLOCKS.with_borrow_mut(|b| b.kept.push(((experiment, n), rounds.clone())));
    }
    Ok(rounds)
}

/// A round's free-core readings, each with its thread count.
fn free_core_readings(round: &[(String, f64)]) -> impl Iterator<Item = (usize, f64)> + '_ {
    round
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix(FREE_CORES)?.parse().ok()?, *v)))
}

/// A round's steal reading ([`STEAL_FREE`]), where it has one.
fn steal_reading(round: &[(String, f64)]) -> Option<f64> {
    round.iter().find(|(k, _)| k == STEAL_FREE).map(|&(_, v)| v)
}

/// Whether a round probes free cores for 2 threads or more (its experiment runs parallel
/// forms).
fn probes_parallel(round: &[(String, f64)]) -> bool {
    free_core_readings(round).any(|(t, _)| t >= 2)
}

/// [`measure`] with the process's earlier cross-core readings given by `elsewhere` (tests
/// give them, with a fake probe in the rounds).
#[cfg(test)]
pub(crate) fn measure_by(
    plan: &Plan,
    round: impl FnMut(usize) -> Result<Vec<(String, f64)>>,
    settled: impl Fn(&Rounds) -> bool,
    elsewhere: &[f64],
) -> Result<Rounds> {
    measure_from(plan, Rounds::new(), round, settled, elsewhere)
}

/// [`measure_by`] going on from the rounds `start` (a first block's): they count towards the
/// plan's rounds, and the round index `i` goes on from theirs.
fn measure_from(
    plan: &Plan,
    start: Rounds,
    mut round: impl FnMut(usize) -> Result<Vec<(String, f64)>>,
    settled: impl Fn(&Rounds) -> bool,
    elsewhere: &[f64],
) -> Result<Rounds> {
    if plan.min_rounds == 0 || plan.max_rounds < plan.min_rounds {
        return Err(Error::InvalidParameter(format!(
            "bad sampling plan: {} to {} rounds",
            plan.min_rounds, plan.max_rounds
        )));
    }
    let mut rounds = start;
    let limit = plan.min_rounds;
    ROUND_CAP.set(plan.max_rounds);
    // Cleared on every way out, errors included.
    struct Clear;
    impl Drop for Clear {
        fn drop(&mut self) {
            ROUND_CAP.set(0);
        }
    }
    let _clear = Clear;
    let started = Instant::now();
    let mut paused = 0.0;
    let mut busy_in_a_row = 0;
    let offered_before = rounds.len() + rounds.set_aside;
    let mut i = offered_before;
    let mut offer = |rounds: &mut Rounds, i: usize, paused: &mut f64| -> Result<bool> {
        let busy_before = rounds.set_aside_busy;
        let apart_before = rounds.set_aside_us.len();
        let kept = rounds.push_unless_disturbed(round(i)?, limit, plan.set_aside_far, elsewhere);
        if rounds.set_aside_us.len() > apart_before
            && plan.wait_apart_s > 0.0
            && let Some(line) = rounds.far_above_us
        {
            let waited = wait_until_near(line, plan.wait_apart_s);
            rounds.waited_apart_s += waited;
            *paused += waited;
        }
        if rounds.set_aside_busy > busy_before && plan.pause_after_busy_s > 0.0 {
            busy_in_a_row += 1;
            let wait = (plan.pause_after_busy_s * busy_in_a_row as f64).min(MAX_PAUSE_S);
            std::thread::sleep(std::time::Duration::from_secs_f64(wait));
            *paused += wait;
        } else {
            busy_in_a_row = 0;
        }
        Ok(kept)
    };
    while rounds.len() < plan.min_rounds {
        offer(&mut rounds, i, &mut paused)?;
        i += 1;
    }
    let first = started.elapsed().as_secs_f64();
    let per_round = (first - paused).max(0.0) / (i - offered_before).max(1) as f64;
    let budget = extra_allowance(plan, per_round, i, paused);
    let extra_started = Instant::now();
    while rounds.len() < plan.max_rounds
        && budget > 0.0
        && extra_started.elapsed().as_secs_f64() + per_round <= budget
        && !settled(&rounds)
    {
        if offer(&mut rounds, i, &mut paused)? {
            rounds.extra += 1;
        }
        i += 1;
    }
    Ok(rounds)
}

thread_local! {
    /// The round cap of the [`measure`] running on this thread (0 outside one): what
    /// [`round_cap`] tells a `settled` closure.
    static ROUND_CAP: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The most rounds the [`measure`] running on this thread may reach (`None` outside one): a
/// `settled` closure projects from it whether more rounds could still decide a claim.
pub fn round_cap() -> Option<usize> {
    Some(ROUND_CAP.get()).filter(|&c| c > 0)
}

/// Polls the cross-core probe every [`APART_POLL_S`] until it reads at most `line` µs (the
/// CPUs near again) or `most` seconds have passed; the seconds waited.
fn wait_until_near(line: f64, most: f64) -> f64 {
    use crate::bench::capacity::{CROSS_CORE_S, cross_core_us};
    let started = Instant::now();
    loop {
        std::thread::sleep(std::time::Duration::from_secs_f64(APART_POLL_S));
        let us = cross_core_us(CROSS_CORE_S);
        let waited = started.elapsed().as_secs_f64();
        // NaN (one CPU: nothing to read) counts as near: there is nothing to wait for.
        if us.is_nan() || us <= line || waited >= most {
            return waited;
        }
    }
}

/// Seconds left for extra rounds once the first `offered` rounds (of `per_round` seconds
/// each; more than `plan.min_rounds` where some were set aside) and `paused` seconds of waits
/// are done: `extra_budget` of the kept rounds' time, at most `max_extra_s`, less what the
/// rounds set aside and the waits already took. So an experiment's rounds take at most
/// `1 + extra_budget` times its first kept rounds' time (and the waits, where they alone
/// exceed it).
pub fn extra_allowance(plan: &Plan, per_round: f64, offered: usize, paused: f64) -> f64 {
    let kept = per_round * plan.min_rounds as f64;
    let aside = per_round * offered.saturating_sub(plan.min_rounds) as f64 + paused;
    ((kept * plan.extra_budget).min(plan.max_extra_s) - aside).max(0.0)
}

#[cfg(test)]
mod tests;
