//! The judge: a pure function from a claim and the evidence an experiment produced to a
//! verdict, after criterion's rule — a claim holds only when the whole 95 % interval of our
//! figure satisfies its rule, does not hold only when the whole interval violates it, and is
//! inconclusive otherwise. No I/O, no clock, no randomness: the same evidence always gets the
//! same verdict, and only different evidence can change it.
use crate::claims::{Claim, Test, num};
use crate::results::{Kind, Ours, Verdict, short};
use serde::{Deserialize, Serialize};

/// A figure with its 95 % interval (`low == value == high` for exact figures).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// Point estimate.
    pub value: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
    pub high: f64,
}

impl Estimate {
    /// An estimate with its interval.
    pub fn new(value: f64, low: f64, high: f64) -> Self {
        Self { value, low, high }
    }

    /// An exact figure (a count, a model's deterministic output, the paper's arithmetic).
    pub fn exact(value: f64) -> Self {
        Self::new(value, value, value)
    }

    /// Applies a monotone increasing `f` to the value and both ends.
    pub fn map(self, f: impl Fn(f64) -> f64) -> Self {
        Self::new(f(self.value), f(self.low), f(self.high))
    }

    /// "value [low, high]" with 4 significant digits for an estimate, or the value alone to 6
    /// when exact (counts, models, the paper's arithmetic).
    pub fn text(&self, unit: &str) -> String {
        let u = if unit.is_empty() {
            String::new()
        } else {
            format!(" {unit}")
        };
        if self.low == self.high {
            format!("{}{u}", num(self.value))
        } else {
            format!(
                "{}{u} [{}, {}]",
                short(self.value),
                short(self.low),
                short(self.high)
            )
        }
    }
}

/// What an experiment produced for one claim: figures and how they were obtained, no verdict.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// One estimate per part of the claim's rule (one for scalar rules); empty when no figure
    /// could be obtained here (see `unavailable`).
    pub estimates: Vec<Estimate>,
    /// Paired rounds or runs behind the estimates (0 for exact figures).
    pub runs: usize,
    /// Threads of the configuration that decides (0 when not a timing).
    pub threads: usize,
    /// How the figures were obtained (measured how, or which model).
    pub how: String,
    /// Our figure for people.
    pub text: String,
    /// A figure shown beside that does not decide (e.g. the 1-thread result).
    pub beside: Option<String>,
    /// Why there is no figure (hardware, profile), when `estimates` is empty.
    pub unavailable: Option<String>,
    /// For parallel claims: how much of the decisive configuration's threads the machine gave
    /// in the same rounds — the throughput of that many threads of independent work over one
    /// thread's, divided by the thread count (1.0 = every thread had a free core).
    #[serde(default)]
    pub free_cores: Option<Estimate>,
}

impl Evidence {
    /// Measured estimates from `runs` paired rounds at `threads` threads.
    pub fn measured(estimates: Vec<Estimate>, runs: usize, threads: usize, how: &str) -> Self {
        Self {
            estimates,
            runs,
            threads,
            how: format!("measured: {how}"),
            ..Self::default()
        }
    }

    /// A model's output (give the estimates' intervals when the model's inputs are measured).
    pub fn modelled(estimates: Vec<Estimate>, how: &str) -> Self {
        Self {
            estimates,
            how: format!("modelled: {how}"),
            ..Self::default()
        }
    }

    /// Arithmetic on the paper's own numbers.
    pub fn arithmetic(estimates: Vec<Estimate>, how: &str) -> Self {
        Self {
            estimates,
            how: format!("the paper's numbers: {how}"),
            ..Self::default()
        }
    }

    /// A figure that is reported but cannot decide anything (by-construction and
    /// not-testable claims), or none at all.
    pub fn report(how: &str) -> Self {
        Self {
            how: how.into(),
            ..Self::default()
        }
    }

    /// No figure here, because `why`.
    pub fn unavailable(why: impl Into<String>) -> Self {
        Self {
            unavailable: Some(why.into()),
            ..Self::default()
        }
    }

    /// Sets the text for people.
    pub fn text(mut self, text: impl Into<String>) -> Self {
        self.text = text.into();
        self
    }

    /// Sets the figure shown beside.
    pub fn beside(mut self, beside: impl Into<String>) -> Self {
        self.beside = Some(beside.into());
        self
    }

    /// Sets the threads of the decisive configuration (for modelled evidence whose input is a
    /// parallel timing).
    pub fn on_threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Sets the free-core efficiency measured beside a parallel configuration.
    pub fn free_cores(mut self, e: Option<Estimate>) -> Self {
        self.free_cores = e;
        self
    }

    /// Our figure in results.json's shape: the estimate when there is exactly one (its text
    /// then carries the value, the interval is in `ci_low`/`ci_high`); a claim judged on
    /// several parts has its figures, intervals included, in the text only.
    pub fn ours(&self, unit: &str) -> Ours {
        let first = self.estimates.first().filter(|_| self.estimates.len() == 1);
        let text = if !self.text.is_empty() {
            self.text.clone()
        } else if let Some(e) = first {
            if e.low == e.high {
                e.text(unit)
            } else {
                format!(
                    "{}{}",
                    short(e.value),
                    if unit.is_empty() {
                        String::new()
                    } else {
                        format!(" {unit}")
                    }
                )
            }
        } else if !self.estimates.is_empty() {
            self.estimates
                .iter()
                .map(|e| e.text(unit))
                .collect::<Vec<_>>()
                .join("; ")
        } else {
            self.unavailable.clone().unwrap_or_else(|| "-".into())
        };
        Ours {
            value: first.map(|e| e.value),
            ci_low: first.map(|e| e.low),
            ci_high: first.map(|e| e.high),
            unit: unit.into(),
            runs: self.runs,
            threads: self.threads,
            text,
        }
    }
}

/// A parallel claim is judged only when its threads had free cores: independent work on
/// that many threads ran at least this fraction of the ideal throughput in the same rounds.
/// Below it the machine (other jobs, a hypervisor) took the cores, and a slow parallel method
/// says nothing about the method.
pub const MIN_FREE_CORES: f64 = 0.9;

/// The verdict on `claim` given `evidence`. Pure.
///
/// - by-construction and not-testable claims get their kind's verdict, whatever the evidence;
/// - a claim with no finite evidence, or a parallel claim whose evidence has fewer than 2
///   threads, is not testable;
/// - a parallel claim needs free cores: not testable when the whole interval of
///   `free_cores` is below [`MIN_FREE_CORES`] (or it was not measured), inconclusive when the
///   interval straddles it;
/// - measured and modelled claims hold when every interval lies inside the rule, do not hold
///   when one lies wholly outside, and are inconclusive otherwise;
/// - paper-checks are consistent when the paper's numbers can meet the rule (some part of the
///   interval, which carries the printed rounding, lies inside), inconsistent otherwise.
pub fn judge(claim: &Claim, evidence: &Evidence) -> Verdict {
    match claim.kind {
        Kind::ByConstruction => return Verdict::ByConstruction,
        Kind::NotTestable => return Verdict::NotTestable,
        _ => {}
    }
    if evidence.estimates.is_empty() || (claim.parallel && evidence.threads < 2) {
        return Verdict::NotTestable;
    }
    if claim.parallel {
        match evidence.free_cores {
            Some(f) if f.low >= MIN_FREE_CORES => {}
            Some(f) if f.high >= MIN_FREE_CORES => return Verdict::Inconclusive,
            _ => return Verdict::NotTestable,
        }
    }
    let intervals: Vec<(f64, f64)> = evidence.estimates.iter().map(|e| (e.low, e.high)).collect();
    match (claim.kind, claim.rule.test(&intervals)) {
        (_, Test::Unjudgeable) => Verdict::NotTestable,
        (Kind::PaperCheck, Test::Outside) => Verdict::Inconsistent,
        (Kind::PaperCheck, _) => Verdict::Consistent,
        (_, Test::Inside) => Verdict::Holds,
        (_, Test::Outside) => Verdict::DoesNotHold,
        (_, Test::Straddles) => Verdict::Inconclusive,
    }
}

/// Why `verdict` follows for `claim` from `evidence`, in a sentence or two. Pure.
pub fn explain(claim: &Claim, evidence: &Evidence, verdict: Verdict) -> String {
    let how = if evidence.how.is_empty() {
        String::new()
    } else {
        format!("{}. ", evidence.how)
    };
    let rule = claim.rule.describe(&claim.unit);
    let ours = evidence
        .estimates
        .iter()
        .map(|e| e.text(&claim.unit))
        .collect::<Vec<_>>()
        .join(", ");
    let exact = evidence.estimates.iter().all(|e| e.low == e.high);
    let reason = match verdict {
        Verdict::ByConstruction => format!("By construction: {}", claim.note),
        Verdict::NotTestable if claim.kind == Kind::NotTestable => {
            format!("Not testable: {}", claim.note)
        }
        Verdict::NotTestable => {
            if let Some(why) = &evidence.unavailable {
                format!("Not testable here: {why}")
            } else if claim.parallel && evidence.threads < 2 {
                format!(
                    "A parallel claim is judged on runs with at least 2 threads; this evidence has {}",
                    evidence.threads
                )
            } else if claim.parallel && free_cores_short(evidence) {
                format!(
                    "The machine's cores were busy: {} threads of independent work ran at {} of the ideal throughput in these rounds, below the {} a parallel claim needs (our figure, not deciding: {ours})",
                    evidence.threads,
                    evidence
                        .free_cores
                        .map_or("an unmeasured fraction".into(), |f| f.text("")),
                    MIN_FREE_CORES
                )
            } else if claim.rule.arity() != evidence.estimates.len() {
                format!(
                    "The rule needs {} figure(s), the evidence has {}",
                    claim.rule.arity(),
                    evidence.estimates.len()
                )
            } else {
                format!("No finite figure to judge ({ours})")
            }
        }
        Verdict::Holds if exact => format!("Our exact figure ({ours}) satisfies {rule}"),
        Verdict::DoesNotHold if exact => format!("Our exact figure ({ours}) violates {rule}"),
        Verdict::Holds => format!("The whole 95 % interval ({ours}) satisfies {rule}"),
        Verdict::DoesNotHold => format!("The whole 95 % interval ({ours}) violates {rule}"),
        Verdict::Inconclusive if claim.parallel && free_cores_unclear(evidence) => format!(
            "Whether the cores were free is unclear: {} threads of independent work ran at {} of the ideal throughput, straddling the {} a parallel claim needs (our figure: {ours})",
            evidence.threads,
            evidence.free_cores.map_or("-".into(), |f| f.text("")),
            MIN_FREE_CORES
        ),
        Verdict::Inconclusive => format!(
            "The 95 % interval ({ours}) straddles {rule}: this run cannot tell; more rounds or a quieter machine might"
        ),
        Verdict::Consistent => format!("The paper's numbers give {ours}, which meets {rule}"),
        Verdict::Inconsistent => format!("The paper's numbers give {ours}, which fails {rule}"),
    };
    format!("{how}{reason}.")
}

fn free_cores_short(e: &Evidence) -> bool {
    e.free_cores.is_none_or(|f| f.high < MIN_FREE_CORES)
}

fn free_cores_unclear(e: &Evidence) -> bool {
    e.free_cores
        .is_some_and(|f| f.low < MIN_FREE_CORES && f.high >= MIN_FREE_CORES)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::Rule;

    fn claim(kind: Kind, rule: Rule) -> Claim {
        let c = Claim::new(
            "seed000-test",
            "seed000",
            "seed000-test",
            "Fig. 0",
            "a claim",
        )
        .paper("1")
        .metric("x", "")
        .rule(rule, "a reason");
        match kind {
            Kind::Measured => c.measured(),
            Kind::Modelled => c.modelled("a model"),
            Kind::PaperCheck => c.paper_check(),
            Kind::ByConstruction => c.by_construction("built so"),
            Kind::NotTestable => c.not_testable("no such machine"),
        }
    }

    fn ev(intervals: &[(f64, f64)]) -> Evidence {
        let estimates = intervals
            .iter()
            .map(|&(l, h)| Estimate::new((l + h) / 2.0, l, h))
            .collect();
        Evidence::measured(estimates, 8, 2, "test")
    }

    fn verdict(rule: Rule, intervals: &[(f64, f64)]) -> Verdict {
        judge(&claim(Kind::Measured, rule), &ev(intervals))
    }

    use Verdict::{DoesNotHold as No, Holds as Yes, Inconclusive as Maybe};

    #[test]
    fn at_least_inside_outside_straddling() {
        let r = || Rule::AtLeast { min: 1.0 };
        assert_eq!(verdict(r(), &[(1.2, 1.5)]), Yes);
        assert_eq!(
            verdict(r(), &[(1.0, 1.5)]),
            Yes,
            "the threshold itself satisfies"
        );
        assert_eq!(verdict(r(), &[(0.5, 0.9)]), No);
        assert_eq!(verdict(r(), &[(0.9, 1.1)]), Maybe);
    }

    #[test]
    fn at_most_inside_outside_straddling() {
        let r = || Rule::AtMost { max: -20.0 };
        assert_eq!(verdict(r(), &[(-30.0, -25.0)]), Yes);
        assert_eq!(verdict(r(), &[(-10.0, -5.0)]), No);
        assert_eq!(verdict(r(), &[(-25.0, -15.0)]), Maybe);
    }

    #[test]
    fn ratio_inside_outside_straddling_on_both_sides() {
        let r = || Rule::Ratio {
            target: 10.0,
            factor: 2.0,
        };
        assert_eq!(verdict(r(), &[(6.0, 18.0)]), Yes);
        assert_eq!(verdict(r(), &[(1.0, 4.0)]), No);
        assert_eq!(verdict(r(), &[(25.0, 30.0)]), No);
        assert_eq!(verdict(r(), &[(4.0, 6.0)]), Maybe);
        assert_eq!(verdict(r(), &[(15.0, 25.0)]), Maybe);
        assert_eq!(verdict(r(), &[(1.0, 30.0)]), Maybe, "wider than the band");
    }

    #[test]
    fn diff_inside_outside_straddling_on_both_sides() {
        let r = || Rule::Diff {
            target: 47.0,
            tol: 5.0,
        };
        assert_eq!(verdict(r(), &[(44.0, 50.0)]), Yes);
        assert_eq!(verdict(r(), &[(30.0, 40.0)]), No);
        assert_eq!(verdict(r(), &[(53.0, 60.0)]), No);
        assert_eq!(verdict(r(), &[(40.0, 45.0)]), Maybe);
        assert_eq!(verdict(r(), &[(50.0, 55.0)]), Maybe);
    }

    #[test]
    fn rank_order_needs_every_step_and_fails_on_any_reversed_one() {
        let r = || Rule::Order {
            items: vec!["a".into(), "b".into(), "c".into()],
            factors: vec![10.0, 1.0],
        };
        assert_eq!(verdict(r(), &[(12.0, 20.0), (1.5, 3.0)]), Yes);
        assert_eq!(verdict(r(), &[(12.0, 20.0), (0.5, 0.8)]), No);
        assert_eq!(verdict(r(), &[(2.0, 5.0), (1.5, 3.0)]), No);
        assert_eq!(verdict(r(), &[(8.0, 12.0), (1.5, 3.0)]), Maybe);
        assert_eq!(verdict(r(), &[(12.0, 20.0), (0.9, 1.1)]), Maybe);
        assert_eq!(
            verdict(r(), &[(12.0, 20.0)]),
            Verdict::NotTestable,
            "one figure short"
        );
    }

    #[test]
    fn each_part_is_judged_by_its_own_rule() {
        let r = || Rule::Each {
            parts: vec!["EM".into(), "SM".into()],
            rules: vec![
                Rule::Ratio {
                    target: 100.0,
                    factor: 2.0,
                },
                Rule::AtLeast { min: 0.0 },
            ],
        };
        assert_eq!(verdict(r(), &[(60.0, 150.0), (1.0, 2.0)]), Yes);
        assert_eq!(verdict(r(), &[(10.0, 20.0), (1.0, 2.0)]), No);
        assert_eq!(verdict(r(), &[(60.0, 150.0), (-1.0, 2.0)]), Maybe);
        assert_eq!(verdict(r(), &[(10.0, 20.0), (-1.0, 2.0)]), No);
    }

    #[test]
    fn modelled_claims_are_judged_like_measured_ones() {
        let c = claim(Kind::Modelled, Rule::AtLeast { min: 0.0 });
        let m = |l, h| Evidence::modelled(vec![Estimate::new((l + h) / 2.0, l, h)], "m");
        assert_eq!(judge(&c, &m(1.0, 2.0)), Yes);
        assert_eq!(judge(&c, &m(-2.0, -1.0)), No);
        assert_eq!(judge(&c, &m(-1.0, 1.0)), Maybe);
    }

    #[test]
    fn paper_checks_are_consistent_or_inconsistent_never_holds() {
        let c = claim(
            Kind::PaperCheck,
            Rule::Diff {
                target: 700.994,
                tol: 0.001,
            },
        );
        let a = |v: f64, r: f64| Evidence::arithmetic(vec![Estimate::new(v, v - r, v + r)], "x");
        assert_eq!(judge(&c, &a(700.994, 0.0)), Verdict::Consistent);
        assert_eq!(
            judge(&c, &a(700.5, 1.0)),
            Verdict::Consistent,
            "within rounding"
        );
        assert_eq!(judge(&c, &a(670.994, 0.0)), Verdict::Inconsistent);
    }

    #[test]
    fn by_construction_and_not_testable_ignore_the_evidence() {
        for (kind, v) in [
            (Kind::ByConstruction, Verdict::ByConstruction),
            (Kind::NotTestable, Verdict::NotTestable),
        ] {
            let c = claim(kind, Rule::Report);
            assert_eq!(judge(&c, &ev(&[(1.0, 1.0)])), v);
            assert_eq!(judge(&c, &Evidence::report("nothing")), v);
            assert!(explain(&c, &Evidence::default(), v).contains(&c.note));
        }
    }

    #[test]
    fn missing_or_non_finite_evidence_is_not_testable() {
        let c = claim(Kind::Measured, Rule::AtLeast { min: 1.0 });
        let none = Evidence::unavailable("needs 8 hardware threads");
        assert_eq!(judge(&c, &none), Verdict::NotTestable);
        assert!(explain(&c, &none, Verdict::NotTestable).contains("needs 8 hardware threads"));
        assert_eq!(judge(&c, &ev(&[(f64::NAN, 1.0)])), Verdict::NotTestable);
        assert_eq!(judge(&c, &ev(&[(2.0, 1.0)])), Verdict::NotTestable);
    }

    #[test]
    fn parallel_claims_need_two_threads() {
        let c = claim(Kind::Measured, Rule::AtLeast { min: 1.0 }).parallel();
        let mut e = ev(&[(1.5, 2.0)]).free_cores(Some(Estimate::new(0.97, 0.95, 0.99)));
        assert_eq!(judge(&c, &e), Yes);
        e.threads = 1;
        assert_eq!(judge(&c, &e), Verdict::NotTestable);
        assert!(explain(&c, &e, Verdict::NotTestable).contains("at least 2 threads"));
    }

    #[test]
    fn parallel_claims_need_free_cores() {
        let c = claim(Kind::Measured, Rule::AtLeast { min: 1.0 }).parallel();
        let with = |lo: f64, hi: f64| {
            ev(&[(0.5, 0.8)]).free_cores(Some(Estimate::new((lo + hi) / 2.0, lo, hi)))
        };
        assert_eq!(
            judge(&c, &with(0.92, 0.99)),
            No,
            "free cores: the figure decides"
        );
        let busy = with(0.4, 0.6);
        assert_eq!(judge(&c, &busy), Verdict::NotTestable);
        assert!(explain(&c, &busy, Verdict::NotTestable).contains("cores were busy"));
        let unclear = with(0.8, 0.95);
        assert_eq!(judge(&c, &unclear), Maybe);
        assert!(explain(&c, &unclear, Maybe).contains("unclear"));
        assert_eq!(
            judge(&c, &ev(&[(0.5, 0.8)])),
            Verdict::NotTestable,
            "not measured"
        );
        // A claim that is not parallel ignores it.
        let seq = claim(Kind::Measured, Rule::AtLeast { min: 1.0 });
        assert_eq!(judge(&seq, &busy), No);
    }

    #[test]
    fn only_the_evidence_moves_a_verdict() {
        // The same claim, three evidences: three verdicts; the same evidence twice: the same.
        let c = claim(Kind::Measured, Rule::AtMost { max: 1.0 });
        let verdicts: Vec<Verdict> = [(0.8, 0.9), (0.9, 1.1), (1.1, 1.2)]
            .iter()
            .map(|iv| judge(&c, &ev(&[*iv])))
            .collect();
        assert_eq!(verdicts, vec![Yes, Maybe, No]);
        assert_eq!(judge(&c, &ev(&[(0.8, 0.9)])), judge(&c, &ev(&[(0.8, 0.9)])));
    }

    #[test]
    fn explanations_name_the_interval_and_the_rule() {
        let c = claim(Kind::Measured, Rule::AtLeast { min: 40.0 });
        let e = ev(&[(42.0, 48.0)]);
        let why = explain(&c, &e, judge(&c, &e));
        assert!(why.contains("45 [42, 48]") && why.contains("≥ 40"), "{why}");
        assert!(why.starts_with("measured: test."), "{why}");
    }
}
