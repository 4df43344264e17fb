//! What an experiment of the study is ([`Experiment`]), what it receives ([`Context`]) and
//! what it gives ([`Output`]: results for people, evidence [`Fed`] to claims, built from
//! measured rounds by [`set_aside_checked`] so that setting rounds aside cannot choose a
//! verdict), and when more rounds could not change a verdict ([`settled`]).
use super::judge::{self, Evidence};
use super::sampling;
use crate::bench::MachineInfo;
use crate::claims;
use crate::error::Result;
use crate::results::{ExperimentResult, Profile};
use serde::{Deserialize, Serialize};

/// What every experiment receives.
pub struct Context {
    /// The profile.
    pub profile: Profile,
    /// The machine the study runs on.
    pub machine: MachineInfo,
    /// How many paired rounds timed experiments run.
    pub plan: sampling::Plan,
}

impl Context {
    /// The context for `profile` on this machine.
    pub fn new(profile: Profile) -> Self {
        Self {
            profile,
            machine: MachineInfo::detect(),
            plan: sampling::Plan::for_profile(profile),
        }
    }
}

/// Evidence for one claim, by the claim's id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fed {
    /// The claim's id in the registry.
    pub claim: String,
    /// The evidence.
    pub evidence: Evidence,
}

/// `Fed` for `claim`.
pub fn fed(claim: &str, evidence: Evidence) -> Fed {
    Fed {
        claim: claim.into(),
        evidence,
    }
}

/// What an experiment produced: the tables and charts for people, and evidence for every
/// claim the registry says it feeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Output {
    /// Tables, charts, summary.
    pub result: ExperimentResult,
    /// Evidence, one per claim fed.
    pub evidence: Vec<Fed>,
}

/// One experiment of the study.
pub trait Experiment {
    /// Stable id, e.g. "parsa-fig6".
    fn id(&self) -> &'static str;
    /// The paper it belongs to, e.g. "parsa".
    fn paper_id(&self) -> &'static str {
        crate::claims::papers::of_id(self.id()).unwrap_or("")
    }
    /// Its seconds under `profile` on the reference machine
    /// ([`super::estimate::reference_s`]), which the time estimate scales to this one.
    fn estimate_s(&self, profile: Profile) -> f64;
    /// Runs it.
    fn run(&self, ctx: &Context) -> Result<Output>;
}

/// Whether more rounds could not change any claim `evidence` feeds: none is left open by an
/// interval that straddles its rule (a model's range included: a range over assumptions
/// takes in a measured input's interval), or by cores that were busy or unclear while a
/// result load could have caused was measured. An interval wholly inside a noise band is
/// settled: more rounds narrow it inside the band. So is a claim left open by a straddling
/// interval or by the free-core probe that the round cap could not be expected to decide
/// (`out_of_reach`). The sampling's stopping rule for re-measuring.
pub fn settled(evidence: &[Fed]) -> bool {
    use crate::results::Reason;
    evidence.iter().all(|f| {
        claims::find(&f.claim).is_none_or(|c| match judge::assess(c, &f.evidence).1 {
            Reason::IntervalStraddles | Reason::CoresUnclear | Reason::LoadCouldExplain => {
                sampling::round_cap().is_some_and(|cap| out_of_reach(c, &f.evidence, cap))
            }
            Reason::ModelRangeStraddles | Reason::CoresBusy | Reason::CpusApart => false,
            _ => true,
        })
    })
}

/// Whether `claim` would still be open at `cap` rounds: `evidence`'s intervals (and the
/// free-core probe's) each narrowed about its point estimate by `sqrt(runs / cap)`, as an
/// interval over independent rounds narrows, still straddle the rule, or still leave load
/// able to explain the result. Then re-measuring up to the cap cannot be expected to decide
/// the claim, and the study spends its time elsewhere (the verdict stays inconclusive, from
/// the rounds measured; this only decides when to stop measuring). A projection, not a
/// verdict, and a cautious one: rounds that happened to move a median could still decide.
/// Before it, two quiet quick studies (2026-11-28, Zen 4) spent the whole extra time of
/// PaRSA's Fig. 6 and thread experiments, a third of their 110 s, on claims whose medians sat
/// on their rules and none of which the extra rounds decided.
fn out_of_reach(claim: &claims::Claim, evidence: &judge::Evidence, cap: usize) -> bool {
    use crate::results::Reason;
    if evidence.runs == 0 || evidence.runs >= cap {
        return true;
    }
    let k = (evidence.runs as f64 / cap as f64).sqrt();
    let narrow = |e: &mut judge::Estimate| {
        e.low = e.value - (e.value - e.low) * k;
        e.high = e.value + (e.high - e.value) * k;
    };
    let mut narrowed = evidence.clone();
    narrowed.with_set_aside = None;
    narrowed.estimates.iter_mut().for_each(narrow);
    narrowed.free_cores.as_mut().map(narrow);
    matches!(
        judge::assess(claim, &narrowed).1,
        Reason::IntervalStraddles | Reason::CoresUnclear | Reason::LoadCouldExplain
    )
}

/// The evidence `f` builds from `rounds`, each claim's with the evidence `f` builds from the
/// same rounds with the set-aside ones kept ([`sampling::Rounds::with_set_aside`]) beside it
/// ([`Evidence::with_set_aside`]): the judge takes a definite verdict only when both give it
/// (`set-aside-decides` otherwise). Where some kept round's free-core probe read a core taken,
/// each claim's evidence that has a probe beside it, from the rounds that read every core free
/// ([`sampling::Rounds::free_only`]) goes beside it too ([`Evidence::free_rounds`]). Every
/// experiment that measures rounds builds its evidence through this (a test in `experiments`
/// holds them to it).
pub fn set_aside_checked(
    rounds: &sampling::Rounds,
    f: impl Fn(&sampling::Rounds) -> Vec<Fed>,
) -> Vec<Fed> {
    let mut kept = f(rounds);
    for fed in &mut kept {
        fed.evidence.apart_rounds = rounds.kept_apart;
    }
    if let Some(free) = rounds.free_only() {
        let free = f(&free);
        // Only evidence the free-core rule applies to (a probe read beside it) needs it.
        for fed in kept.iter_mut().filter(|f| f.evidence.free_cores.is_some()) {
            if let Some(other) = free.iter().find(|o| o.claim == fed.claim) {
                fed.evidence.free_rounds = Some(Box::new(other.evidence.clone()));
            }
        }
    }
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
    use crate::study::sampling::{CROSS_CORE, Plan, measure_by};

    /// A claim "a / b ≤ 1" (a measured ordering) for the judge, as registered claims are built.
    fn at_most_one() -> crate::claims::Claim {
        crate::claims::Claim::new(
            "mary-karatsuba-test",
            "mary-karatsuba",
            "mary-karatsuba-test",
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
            &Plan {
                min_rounds: 10,
                max_rounds: 10,
                extra_budget: 0.0,
                max_extra_s: 0.0,
                set_aside_far: true,
                pause_after_busy_s: 0.0,
                wait_apart_s: 0.0,
            },
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
        set_aside_checked(&r, |r| {
            let e = r.ratio("a", "b").unwrap();
            vec![fed(
                "mary-karatsuba-test",
                Evidence::measured(vec![e], r.len(), 1, "a over b"),
            )]
        })
    }

    #[test]
    fn re_measuring_stops_only_where_the_round_cap_could_not_decide() {
        let c = at_most_one();
        let at = |v: f64, lo: f64, hi: f64, runs: usize| {
            Evidence::measured(vec![judge::Estimate::new(v, lo, hi)], runs, 1, "a over b")
        };
        // The median on the rule: 24 rounds would narrow [0.9, 1.1] to about ±6 %, still
        // across 1.
        assert!(out_of_reach(&c, &at(1.0, 0.9, 1.1, 10), 24));
        // The median 10 % below it with a long upper tail: narrowed, [0.8, 1.05] ends below 1.
        assert!(!out_of_reach(&c, &at(0.9, 0.8, 1.05, 10), 24));
        // The same at the cap, or past it: nothing more to run.
        assert!(out_of_reach(&c, &at(0.9, 0.8, 1.05, 24), 24));
        // A parallel ordering whose interval holds (0.8–0.9) with the free-core probe across
        // the 0.9 it needs. At 0.92 [0.80, 0.98] the probe narrows to [0.84, 0.96], still
        // across, and its low end credited back leaves [0.67, 1.07]: not expected to clear.
        let p = at_most_one().parallel();
        let probe = |v, lo, hi| {
            at(0.85, 0.8, 0.9, 10)
                .on_threads(2)
                .free_cores(Some(judge::Estimate::new(v, lo, hi)))
        };
        assert_eq!(
            judge::assess(&p, &probe(0.92, 0.80, 0.98)).1,
            crate::results::Reason::CoresUnclear
        );
        assert!(out_of_reach(&p, &probe(0.92, 0.80, 0.98), 24));
        // At 0.99 [0.88, 1.0] it narrows to [0.92, 1.0], clear of 0.9, and its median credited
        // back leaves the interval below 1: worth measuring.
        assert!(!out_of_reach(&p, &probe(0.99, 0.88, 1.0), 24));
        // Outside a measure() there is no cap, and a straddling claim is not settled.
        assert_eq!(sampling::round_cap(), None);
    }

    #[test]
    fn rounds_that_read_every_core_free_go_beside_the_evidence_and_can_carry_its_verdict() {
        use crate::results::{Reason, Verdict};
        use crate::study::judge::assess;
        let c = at_most_one().parallel();
        // a takes 0.8 of b's time; the 2-thread probe reads 0.97 except in every third round,
        // where it reads 0.8 (a core taken, but not enough to set the round aside).
        let rounds = |low: f64| {
            let mut r = sampling::Rounds::new();
            for i in 0..12 {
                let wobble = 1.0 + 0.01 * (i % 3) as f64;
                let probe = if i % 3 == 1 { low } else { 0.97 };
                r.push(vec![
                    ("a".into(), 0.8 * wobble),
                    ("b".into(), 1.0),
                    (format!("{}2", sampling::FREE_CORES), probe),
                ]);
            }
            r
        };
        let evidence = |r: &sampling::Rounds| {
            set_aside_checked(r, |r| {
                let e = r.ratio("a", "b").unwrap();
                let free = r.median(&format!("{}2", sampling::FREE_CORES));
                vec![fed(
                    "mary-karatsuba-test",
                    Evidence::measured(vec![e], r.len(), 2, "a over b").free_cores(free),
                )]
            })
            .remove(0)
            .evidence
        };
        let e = evidence(&rounds(0.8));
        let free = e.free_rounds.as_deref().expect("rounds read a core taken");
        assert_eq!(free.runs, 8);
        assert!(free.free_cores.unwrap().low >= 0.9);
        let probe = e.free_cores.unwrap();
        assert!(probe.low < 0.9 && probe.high >= 0.9, "{probe:?}");
        // The lowest reading credited back would leave the ordering open; the eight free
        // rounds give it on their own.
        let alone = Evidence {
            free_rounds: None,
            ..e.clone()
        };
        assert_eq!(
            assess(&c, &alone),
            (Verdict::Inconclusive, Reason::CoresUnclear)
        );
        assert_eq!(assess(&c, &e), (Verdict::Holds, Reason::IntervalInside));
        // Every round free: nothing beside.
        assert!(evidence(&rounds(0.95)).free_rounds.is_none());
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
        let kept = Evidence {
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
}
