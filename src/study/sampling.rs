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
//! experiment builds its evidence through [`evidence`], which checks each claim's evidence
//! against the same evidence with those rounds kept, so setting rounds aside cannot choose a
//! verdict (the judge makes one that changes inconclusive).
use super::experiment::Fed;
use super::judge::Estimate;
use crate::bench::capacity::{cores_apart, near_level};
use crate::bench::stats::{bootstrap_resamples, median, percentile_interval};
use crate::error::{Error, Result};
use crate::results::{Profile, Quality};
use std::time::Instant;

/// A round's values by configuration key (NaN for a key the round lacks).
pub type Values<'a> = dyn Fn(&str) -> f64 + 'a;

/// Keys starting with this are probes of the machine (free cores), not configurations: they
/// are left out of [`Rounds::quality`].
pub const PROBE: &str = "probe:";

/// The free-core probe's keys: this, then the thread count (`probe:free-cores/2`).
pub const FREE_CORES: &str = "probe:free-cores/";

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
}

impl Plan {
    /// Quick: 10 rounds, then up to 24 within their time again and 40 s; full: 12
    /// rounds, then up to 30 within their time again and 10 minutes.
    ///
    /// Quick's numbers come from two back-to-back quick studies on a quiet 2-core VM: with 8
    /// rounds and half their time again, one or two disturbed rounds widened a median's
    /// interval across its rule in one run and not the other, in 6 of 259 claims.
    pub fn for_profile(profile: Profile) -> Self {
        match profile {
            Profile::Quick => Plan {
                min_rounds: 10,
                max_rounds: 24,
                extra_budget: 1.0,
                max_extra_s: 40.0,
                set_aside_far: false,
            },
            Profile::Full => Plan {
                min_rounds: 12,
                max_rounds: 30,
                extra_budget: 1.0,
                max_extra_s: 600.0,
                set_aside_far: false,
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
            "{} paired rounds, up to {} while a claim is inconclusive and the extra time stays within {:.0} % of the first rounds' and {:.0} s",
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
    /// Of those, the rounds set aside because their free-core probe read below [`DISTURBED`].
    pub set_aside_busy: usize,
    /// The cross-core readings of the rounds set aside with the CPUs apart.
    set_aside_us: Vec<f64>,
    /// The cross-core readings of every round offered, set aside or kept, in order.
    readings: Vec<f64>,
    /// The line above which the last round offered read the CPUs apart (µs): [`FAR`] times
    /// the [`near_level`] of the readings so far.
    far_above_us: Option<f64>,
    /// The rounds set aside, each with the number of rounds kept before it.
    aside: Vec<(usize, Vec<(String, f64)>)>,
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
        for v in &mut self.values {
            v.resize(self.rounds, f64::NAN);
        }
    }

    /// Adds a round unless, with fewer than `limit` rounds set aside so far, its free-core
    /// probe read a core taken, or (`far` set) its cross-core probe read the CPUs apart: more
    /// than [`FAR`] times the machine's level, the [`near_level`] of the readings `elsewhere`
    /// in the process before these rounds and of every round offered here, this one included.
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
            let level = near_level(&pool);
            self.far_above_us = level.map(|l| l * FAR);
            level.is_some_and(|l| cores_apart(us, l))
        });
        let busy = free_core_readings(&round).any(|(_, f)| f.is_finite() && f < DISTURBED);
        if self.set_aside >= limit || (apart.is_none() && !busy) {
            self.push(round);
            return true;
        }
        self.set_aside += 1;
        match apart {
            Some(us) => self.set_aside_us.push(us),
            None => self.set_aside_busy += 1,
        }
        self.aside.push((self.rounds, round));
        false
    }

    /// These rounds with the rounds set aside put back where they were measured: what the
    /// evidence would be had nothing been set aside ([`evidence`] builds it on both). Nothing
    /// is set aside in the result.
    pub fn with_set_aside(&self) -> Rounds {
        let mut all = Rounds::new();
        let mut aside = self.aside.iter().peekable();
        for i in 0..=self.rounds {
            while let Some((_, round)) = aside.next_if(|(at, _)| *at == i) {
                all.push(round.clone());
            }
            if i < self.rounds {
                all.push(
                    self.keys
                        .iter()
                        .zip(&self.values)
                        .map(|(k, v)| (k.clone(), v[i]))
                        .collect(),
                );
            }
        }
        all.extra = self.extra;
        all.readings = self.readings.clone();
        all
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
        Some(match percentile_interval(stats, RESAMPLES) {
            Some((low, high)) => Estimate::new(value, low.min(value), high.max(value)),
            None => Estimate::new(value, f64::NEG_INFINITY, f64::INFINITY),
        })
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

/// Runs rounds by `plan`: `round(i)` measures every configuration once and returns
/// `(key, value)` pairs; after `min_rounds`, more rounds run while `settled` says no and
/// the extra time and the round cap allow another.
///
/// A round that probes free cores for 2 threads or more gets a [`CROSS_CORE`] reading: the
/// slower of a probe just before it (from the second round on) and one just after. A round
/// whose free-core probe reads below [`DISTURBED`], or (in a plan [`Plan::handing_data`]) whose
/// cross-core reading is beyond [`FAR`] times the machine's level (the [`near_level`] of the
/// process's readings and the rounds'), is set aside, kept apart, and another run in its
/// place. `i` counts every round run, set aside or not.
pub fn measure(
    plan: &Plan,
    mut round: impl FnMut(usize) -> Result<Vec<(String, f64)>>,
    settled: impl Fn(&Rounds) -> bool,
) -> Result<Rounds> {
    use crate::bench::capacity::{CROSS_CORE_S, cross_core_readings, cross_core_us};
    // The process's readings before these rounds: with this experiment's own, they set the
    // machine's level against which a round reads the CPUs apart.
    let elsewhere = cross_core_readings();
    // Known after the first round: whether rounds run parallel forms (and get probed before
    // as well as after, so a state that ends or starts inside the round is seen).
    let mut parallel = false;
    measure_by(
        plan,
        |i| {
            let before = if parallel {
                cross_core_us(CROSS_CORE_S)
            } else {
                f64::NAN
            };
            let mut v = round(i)?;
            parallel = probes_parallel(&v);
            if parallel && !v.iter().any(|(k, _)| k == CROSS_CORE) {
                let after = cross_core_us(CROSS_CORE_S);
                // `max` ignores the NaN of the first round's missing probe.
                v.push((CROSS_CORE.to_string(), after.max(before)));
            }
            Ok(v)
        },
        settled,
        &elsewhere,
    )
}

/// A round's free-core readings, each with its thread count.
fn free_core_readings(round: &[(String, f64)]) -> impl Iterator<Item = (usize, f64)> + '_ {
    round
        .iter()
        .filter_map(|(k, v)| Some((k.strip_prefix(FREE_CORES)?.parse().ok()?, *v)))
}

/// Whether a round probes free cores for 2 threads or more (its experiment runs parallel
/// forms).
fn probes_parallel(round: &[(String, f64)]) -> bool {
    free_core_readings(round).any(|(t, _)| t >= 2)
}

/// [`measure`] with the process's earlier cross-core readings given by `elsewhere`.
fn measure_by(
    plan: &Plan,
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
    let mut rounds = Rounds::new();
    let limit = plan.min_rounds;
    let started = Instant::now();
    let mut i = 0;
    while rounds.len() < plan.min_rounds {
        rounds.push_unless_disturbed(round(i)?, limit, plan.set_aside_far, elsewhere);
        i += 1;
    }
    let first = started.elapsed().as_secs_f64();
    let per_round = first / i as f64;
    let budget = (first * plan.extra_budget).min(plan.max_extra_s);
    let extra_started = Instant::now();
    while rounds.len() < plan.max_rounds
        && budget > 0.0
        && extra_started.elapsed().as_secs_f64() + per_round <= budget
        && !settled(&rounds)
    {
        if rounds.push_unless_disturbed(round(i)?, limit, plan.set_aside_far, elsewhere) {
            rounds.extra += 1;
        }
        i += 1;
    }
    Ok(rounds)
}

/// The evidence `f` builds from `rounds`, every claim's checked against the evidence `f`
/// builds from the same rounds with the set-aside ones kept ([`Rounds::with_set_aside`],
/// in [`crate::study::Evidence::with_set_aside`]): the judge takes a definite verdict only
/// when both give it (reason `set-aside-decides` otherwise). Every experiment that measures
/// rounds builds its evidence through this (a test holds them to it).
pub fn evidence(rounds: &Rounds, f: impl Fn(&Rounds) -> Vec<Fed>) -> Vec<Fed> {
    let mut kept = f(rounds);
    if rounds.set_aside == 0 {
        return kept;
    }
    let all = f(&rounds.with_set_aside());
    for fed in &mut kept {
        if let Some(other) = all.iter().find(|o| o.claim == fed.claim) {
            fed.evidence.with_set_aside = Some(Box::new(other.evidence.clone()));
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounds(a: &[f64], b: &[f64]) -> Rounds {
        let mut r = Rounds::new();
        for (x, y) in a.iter().zip(b) {
            r.push(vec![("a".into(), *x), ("b".into(), *y)]);
        }
        r
    }

    #[test]
    fn a_quiet_configuration_has_a_narrow_interval_around_its_median() {
        let r = rounds(&[1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.0], &[2.0; 8]);
        let m = r.median("a").unwrap();
        assert_eq!(m.value, 1.0);
        assert!(m.low >= 0.98 && m.high <= 1.02 && m.low <= 1.0 && m.high >= 1.0);
        assert!(!r.quality().noisy);
    }

    #[test]
    fn paired_ratios_cancel_drift_that_touches_both() {
        // Both configurations slow down together round after round: their medians' intervals
        // are wide, the paired ratio is exactly 2 in every round.
        let a: Vec<f64> = (0..10).map(|i| 1.0 + i as f64 * 0.2).collect();
        let b: Vec<f64> = a.iter().map(|x| x * 2.0).collect();
        let r = rounds(&b, &a);
        let ratio = r.ratio("a", "b").unwrap();
        assert_eq!((ratio.value, ratio.low, ratio.high), (2.0, 2.0, 2.0));
        let m = r.median("a").unwrap();
        assert!(m.high - m.low > 1.0, "{m:?}");
        assert!(r.quality().noisy);
    }

    #[test]
    fn the_interval_is_reproducible_and_contains_the_value() {
        let a = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0];
        let r = rounds(&a, &a);
        let e1 = r.median("a").unwrap();
        let e2 = r.median("a").unwrap();
        assert_eq!(e1, e2);
        assert!(e1.low <= e1.value && e1.value <= e1.high && e1.low < e1.high);
    }

    #[test]
    fn too_few_rounds_decide_nothing_and_unknown_keys_give_none() {
        let r = rounds(&[1.0, 2.0], &[1.0, 2.0]);
        let e = r.median("a").unwrap();
        assert!(e.low.is_infinite() && e.high.is_infinite());
        assert!(r.median("zzz").is_none());
        assert!(r.ratio("a", "zzz").is_none());
    }

    #[test]
    fn missing_values_become_nan_and_are_skipped() {
        let mut r = Rounds::new();
        r.push(vec![("a".into(), 1.0)]);
        r.push(vec![("a".into(), 2.0), ("b".into(), 5.0)]);
        r.push(vec![("a".into(), 3.0), ("b".into(), 7.0)]);
        assert_eq!(r.len(), 3);
        assert!(r.get("b").unwrap()[0].is_nan());
        assert_eq!(r.median("b").unwrap().value, 6.0);
    }

    #[test]
    fn measure_runs_the_minimum_then_stops_when_settled_or_capped() {
        let plan = Plan {
            min_rounds: 3,
            max_rounds: 6,
            extra_budget: 1e9,
            max_extra_s: 1e9,
            set_aside_far: false,
        };
        let r = measure(&plan, |i| Ok(vec![("a".into(), i as f64)]), |_| true).unwrap();
        assert_eq!((r.len(), r.extra), (3, 0));
        let r = measure(&plan, |i| Ok(vec![("a".into(), i as f64)]), |_| false).unwrap();
        assert_eq!((r.len(), r.extra), (6, 3));
        let r = measure(
            &plan,
            |i| Ok(vec![("a".into(), i as f64)]),
            |r| r.len() >= 4,
        )
        .unwrap();
        assert_eq!(r.len(), 4);
        let none = Plan {
            extra_budget: 0.0,
            ..plan
        };
        let r = measure(&none, |i| Ok(vec![("a".into(), i as f64)]), |_| false).unwrap();
        assert_eq!(r.len(), 3, "no budget, no extra rounds");
        let bad = Plan {
            min_rounds: 0,
            ..plan
        };
        assert!(measure(&bad, |_| Ok(vec![]), |_| true).is_err());
    }

    /// A plan of `n` rounds, no extra ones, setting rounds with the CPUs apart aside.
    fn apart_plan(n: usize) -> Plan {
        Plan {
            min_rounds: n,
            max_rounds: n,
            extra_budget: 0.0,
            max_extra_s: 0.0,
            set_aside_far: true,
        }
    }

    /// Rounds of `plan` whose cross-core probe reads `us(i)` in round `i` (a fake probe),
    /// with the process's earlier readings `elsewhere`; key "a" holds the round's number.
    fn probed(plan: &Plan, us: impl Fn(usize) -> f64, elsewhere: &[f64]) -> Rounds {
        measure_by(
            plan,
            |i| Ok(vec![("a".into(), i as f64), (CROSS_CORE.into(), us(i))]),
            |_| true,
            elsewhere,
        )
        .unwrap()
    }

    #[test]
    fn rounds_measured_with_the_cpus_apart_or_a_core_taken_are_set_aside_and_measured_again() {
        let plan = apart_plan(4);
        // Rounds 1 and 2 ran with the CPUs apart: moving the buffer took 2.3 µs, not 0.5, the
        // level of the process's earlier readings and of the rounds here.
        let quiet = [0.5; 6];
        let r = probed(&plan, |i| if i == 1 || i == 2 { 2.3 } else { 0.5 }, &quiet);
        assert_eq!(r.len(), 4);
        assert_eq!(r.set_aside, 2);
        assert_eq!(r.get("a").unwrap(), &[0.0, 3.0, 4.0, 5.0]);
        let q = r.quality();
        assert_eq!(q.set_aside_rounds, 2);
        assert_eq!((q.cross_core_us, q.set_aside_us), (Some(0.5), Some(2.3)));
        assert_eq!(q.far_above_us, Some(1.0));
        let text = q.set_aside_text();
        assert!(
            text.contains("2 more set aside (33 % of the 6 run)"),
            "{text}"
        );
        assert!(text.contains("the line: 1.00 µs"), "{text}");
        // Within a factor FAR of the level, rounds are kept: the probe's own noise sets
        // nothing aside.
        let r = probed(&plan, |i| [0.5, 0.9, 0.6, 0.99][i % 4], &[]);
        assert_eq!((r.len(), r.set_aside), (4, 0));
        assert_eq!(r.quality().set_aside_text(), "; none set aside");
        // The process read the CPUs near all along, and every round here reads them apart: they
        // are set aside…
        let r = probed(&plan, |_| 2.3, &[0.5; 20]);
        // … at most min_rounds of them; then rounds are kept as measured.
        assert_eq!((r.len(), r.set_aside), (4, 4));
        assert_eq!(r.get("a").unwrap(), &[4.0, 5.0, 6.0, 7.0]);
        // Nor where the threads work on their own data: the rounds are kept, the level noted.
        let own_data = Plan {
            set_aside_far: false,
            ..plan
        };
        let r = probed(&own_data, |_| 2.3, &[0.5; 20]);
        assert_eq!((r.len(), r.set_aside), (4, 0));
        assert_eq!(r.quality().cross_core_us, Some(2.3));
        // A round whose free-core probe read a core taken is set aside in any plan.
        let free = format!("{FREE_CORES}2");
        let r = measure_by(
            &own_data,
            |i| {
                let f = if i == 0 { 0.6 } else { 0.97 };
                Ok(vec![
                    ("a".into(), i as f64),
                    (free.clone(), f),
                    (CROSS_CORE.into(), 0.5),
                ])
            },
            |_| true,
            &[0.5],
        )
        .unwrap();
        assert_eq!((r.len(), r.set_aside, r.set_aside_busy), (4, 1, 1));
        assert_eq!(r.get("a").unwrap(), &[1.0, 2.0, 3.0, 4.0]);
        let text = r.quality().set_aside_text();
        assert!(
            text.contains("1 more set aside (20 % of the 5 run): 1 with a core taken"),
            "{text}"
        );
        assert!(!text.contains("apart"), "{text}");
        // Without a probe nothing is set aside.
        let r = measure_by(
            &plan,
            |i| Ok(vec![("a".into(), i as f64)]),
            |_| true,
            &[0.5],
        )
        .unwrap();
        assert_eq!((r.len(), r.set_aside), (4, 0));
    }

    #[test]
    fn a_lucky_fast_reading_no_longer_sets_every_round_aside() {
        // The Zen 4 VM: a quiet round trip reads 1.58–1.77 µs. One lucky 0.78 µs reading,
        // earlier in the process or in this experiment's first round, used to be the level,
        // and every ordinary round read "apart" against it.
        let zen4 = |i: usize| [1.6, 1.58, 1.77, 1.72, 1.6, 1.59, 1.62, 1.6, 1.61, 1.6][i % 10];
        let plan = apart_plan(10);
        let r = probed(&plan, zen4, &[0.78]);
        assert_eq!((r.len(), r.set_aside), (10, 0));
        let r = probed(&plan, |i| if i == 0 { 0.78 } else { zen4(i) }, &[]);
        assert_eq!((r.len(), r.set_aside), (10, 0));
        let line = r.quality().far_above_us.unwrap();
        assert!(
            line > 3.0,
            "the line is twice the usual 1.6 µs, not 1.56: {line}"
        );
    }

    #[test]
    fn two_clusters_of_readings_are_separated() {
        // No earlier readings: four rounds near (0.66–0.70 µs), then four apart (3.0–3.2), then
        // near again. Once the near cluster holds three readings, the apart ones are told
        // from it, even as they become as many.
        let us = |i: usize| [0.66, 0.68, 0.7, 0.67, 3.1, 3.0, 3.2, 3.05, 0.69, 0.68][i.min(9)];
        let r = probed(&apart_plan(6), us, &[]);
        assert_eq!(r.set_aside, 4);
        assert_eq!(r.get("a").unwrap(), &[0.0, 1.0, 2.0, 3.0, 8.0, 9.0]);
        let q = r.quality();
        assert_eq!(q.set_aside_us, Some(3.075));
        assert!((1.3..1.45).contains(&q.far_above_us.unwrap()), "{q:?}");
        // The rounds set aside are kept, and put back where they were measured.
        let all = r.with_set_aside();
        assert_eq!(all.set_aside, 0);
        assert_eq!(
            all.get("a").unwrap(),
            &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
        );
        assert_eq!(all.get(CROSS_CORE).unwrap()[4], 3.1);
        // Apart from the start with no earlier reading: there is no other level yet, so the
        // first rounds are kept; the near ones that follow are the lower cluster from then on.
        let r = probed(&apart_plan(6), |i| if i < 2 { 3.1 } else { 0.68 }, &[]);
        assert_eq!((r.len(), r.set_aside), (6, 0));
    }

    /// A claim "a / b ≤ 1" (a measured ordering) for the judge, as registered claims are built.
    fn at_most_one() -> crate::claims::Claim {
        crate::claims::Claim::new(
            "seed003-test",
            "seed003",
            "seed003-test",
            "Fig. 0",
            "a beats b",
        )
        .paper("a is faster")
        .metric("a / b", "×")
        .rule(crate::claims::Rule::AtMost { max: 1.0 }, "an ordering")
        .measured()
    }

    /// Rounds where a / b reads `kept` while the CPUs share a cache and `apart` (3.1 µs on the
    /// probe) in rounds 2, 4, 6, 8, 10, 12, 14 and 16, with their evidence for [`at_most_one`].
    fn flipping(kept: f64, apart: f64) -> Vec<Fed> {
        let far = |i: usize| i % 2 == 0 && (2..=16).contains(&i);
        let r = measure_by(
            &apart_plan(10),
            |i| {
                let wobble = 1.0 + 0.01 * (i % 3) as f64;
                let (ratio, us) = if far(i) { (apart, 3.1) } else { (kept, 0.66) };
                Ok(vec![
                    ("a".into(), ratio * wobble),
                    ("b".into(), 1.0),
                    (CROSS_CORE.into(), us),
                ])
            },
            |_| true,
            &[0.66; 8],
        )
        .unwrap();
        assert_eq!((r.len(), r.set_aside), (10, 8));
        evidence(&r, |r| {
            let e = r.ratio("a", "b").unwrap();
            vec![crate::study::fed(
                "seed003-test",
                crate::study::Evidence::measured(vec![e], r.len(), 1, "a over b"),
            )]
        })
    }

    #[test]
    fn a_verdict_that_changes_with_the_set_aside_rounds_kept_is_inconclusive() {
        use crate::results::{Reason, Verdict};
        use crate::study::judge::{assess, explain};
        let c = at_most_one();
        // Kept rounds: a takes 0.8 of b's time, which holds; the 8 rounds set aside with the
        // CPUs apart read 1.5, and with them kept the interval straddles 1.
        let fed = flipping(0.8, 1.5);
        let e = &fed[0].evidence;
        let all = e
            .with_set_aside
            .as_deref()
            .expect("checked with the rounds set aside");
        assert_eq!(all.runs, 18);
        let kept = crate::study::Evidence {
            with_set_aside: None,
            ..e.clone()
        };
        assert_eq!(assess(&c, &kept), (Verdict::Holds, Reason::IntervalInside));
        assert_ne!(assess(&c, all).0, Verdict::Holds);
        assert_eq!(
            assess(&c, e),
            (Verdict::Inconclusive, Reason::SetAsideDecides)
        );
        let why = explain(&c, e);
        assert!(why.contains("Setting rounds aside decides"), "{why}");
        assert!(why.contains("on the 10 rounds kept, holds"), "{why}");
        assert!(why.contains("with the 8 set aside kept as well"), "{why}");
        // Rounds set aside that read as the kept ones do change nothing: the verdict stands.
        let fed = flipping(0.8, 0.82);
        assert!(fed[0].evidence.with_set_aside.is_some());
        assert_eq!(
            assess(&c, &fed[0].evidence),
            (Verdict::Holds, Reason::IntervalInside)
        );
        // Nor does an inconclusive verdict become anything else.
        let fed = flipping(1.0, 0.5);
        assert_ne!(assess(&c, &fed[0].evidence).1, Reason::SetAsideDecides);
    }

    #[test]
    fn only_rounds_that_probe_two_threads_or_more_get_a_cross_core_reading() {
        let round = |k: &str| vec![(k.to_string(), 1.0)];
        assert!(probes_parallel(&round(&format!("{FREE_CORES}2"))));
        assert!(probes_parallel(&round(&format!("{FREE_CORES}36"))));
        assert!(!probes_parallel(&round(&format!("{FREE_CORES}1"))));
        assert!(!probes_parallel(&round("8192/gmp/t1")));
        let plan = Plan {
            min_rounds: 3,
            max_rounds: 3,
            extra_budget: 0.0,
            max_extra_s: 0.0,
            set_aside_far: false,
        };
        let r = measure(&plan, |_| Ok(round(&format!("{FREE_CORES}2"))), |_| true).unwrap();
        let readings = r.get(CROSS_CORE).map(<[f64]>::len);
        if crate::parallel::logical_cores() >= 2 {
            assert_eq!(readings, Some(3));
        }
        let r = measure(&plan, |_| Ok(round("a")), |_| true).unwrap();
        assert!(r.get(CROSS_CORE).is_none());
    }
}
