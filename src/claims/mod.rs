//! The papers' claims as data: one registry per seed paper, each claim with a stable id, the
//! paper's reference, wording and figure(s), the metric ours is compared on, the rule with a
//! one-line reason for its tolerance, its kind, and the experiment that feeds it evidence.
//!
//! Every figure the study, the benchmarks and the models quote from a paper lives in these
//! files once (the seed-000 power Tables 4–7 live in `data/seed000_power_tables.csv`, read by
//! [`crate::energy::seed000`]); the rest of the code reads them from here. Verdicts are not
//! here: [`crate::study::judge::judge`] computes them from a claim and its evidence.
//!
//! To add a claim fed by a model: add it to its seed's `claims()` with
//! [`Claim::modelled`] naming the model and the experiment, and have that experiment push
//! [`crate::study::judge::Evidence::modelled`] for the claim's id.
pub mod seed000;
pub mod seed001;
pub mod seed002;
pub mod seed003;
pub mod seed004;

use crate::results::Kind;
use std::sync::OnceLock;

/// How ours is judged against the paper. Scalar rules test one estimate; `Order` and `Each`
/// test one estimate per part.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    /// Ours is at least `min`.
    AtLeast {
        /// The threshold.
        min: f64,
    },
    /// Ours is at most `max`.
    AtMost {
        /// The threshold.
        max: f64,
    },
    /// Ours is within a factor `factor` (≥ 1) of `target`: `target / factor ≤ ours ≤
    /// target × factor`.
    Ratio {
        /// The paper's figure.
        target: f64,
        /// The tolerated factor, e.g. 1.1 for about ±10 %.
        factor: f64,
    },
    /// Ours is within `tol` of `target`.
    Diff {
        /// The paper's figure.
        target: f64,
        /// The tolerated difference, in the metric's unit.
        tol: f64,
    },
    /// A rank order: the estimates are the ratios of each item to the one before it (in the
    /// claimed order), and ratio `i` must be at least `factors[i]`.
    Order {
        /// The items in the claimed order (one more than the factors).
        items: Vec<String>,
        /// Least ratio of each item to the one before it.
        factors: Vec<f64>,
    },
    /// One rule per estimate, every one must be met (e.g. one per failure mechanism).
    Each {
        /// What each estimate is.
        parts: Vec<String>,
        /// The rule of each.
        rules: Vec<Rule>,
    },
    /// Reported, not judged (by-construction and not-testable claims).
    Report,
}

/// What an interval does against a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Test {
    /// The whole interval satisfies the rule.
    Inside,
    /// The whole interval violates it.
    Outside,
    /// Part satisfies, part violates.
    Straddles,
    /// No judgement possible: no finite interval, or the wrong number of estimates.
    Unjudgeable,
}

impl Rule {
    /// The closed band a scalar rule accepts (`None` for `Order`, `Each` and `Report`).
    pub fn band(&self) -> Option<(f64, f64)> {
        match *self {
            Rule::AtLeast { min } => Some((min, f64::INFINITY)),
            Rule::AtMost { max } => Some((f64::NEG_INFINITY, max)),
            Rule::Ratio { target, factor } => {
                let (a, b) = (target / factor, target * factor);
                Some((a.min(b), a.max(b)))
            }
            Rule::Diff { target, tol } => Some((target - tol, target + tol)),
            _ => None,
        }
    }

    /// How many estimates the rule needs.
    pub fn arity(&self) -> usize {
        match self {
            Rule::Order { factors, .. } => factors.len(),
            Rule::Each { rules, .. } => rules.len(),
            Rule::Report => 0,
            _ => 1,
        }
    }

    /// Tests intervals `(low, high)` against the rule; pure.
    pub fn test(&self, intervals: &[(f64, f64)]) -> Test {
        if intervals.len() != self.arity() || self.arity() == 0 {
            return Test::Unjudgeable;
        }
        match self {
            Rule::Order { factors, .. } => all_of(
                factors
                    .iter()
                    .zip(intervals)
                    .map(|(&min, iv)| Rule::AtLeast { min }.test(&[*iv])),
            ),
            Rule::Each { rules, .. } => all_of(
                rules
                    .iter()
                    .zip(intervals)
                    .map(|(r, iv)| r.test(std::slice::from_ref(iv))),
            ),
            scalar => {
                let (lo, hi) = intervals[0];
                let Some((a, b)) = scalar.band() else {
                    return Test::Unjudgeable;
                };
                if !(lo.is_finite() && hi.is_finite()) || lo > hi {
                    Test::Unjudgeable
                } else if a <= lo && hi <= b {
                    Test::Inside
                } else if hi < a || lo > b {
                    Test::Outside
                } else {
                    Test::Straddles
                }
            }
        }
    }

    /// The rule for people, numbers in `unit`.
    pub fn describe(&self, unit: &str) -> String {
        let u = if unit.is_empty() {
            String::new()
        } else {
            format!(" {unit}")
        };
        match self {
            Rule::AtLeast { min } => format!("≥ {}{u}", num(*min)),
            Rule::AtMost { max } => format!("≤ {}{u}", num(*max)),
            Rule::Ratio { target, factor } => {
                let (a, b) = self.band().unwrap_or_default();
                format!(
                    "within ×{} of {}{u} ({}–{})",
                    num(*factor),
                    num(*target),
                    num(a),
                    num(b)
                )
            }
            Rule::Diff { target, tol } => format!("{} ± {}{u}", num(*target), num(*tol)),
            Rule::Order { items, factors } => {
                let mut s = items.first().cloned().unwrap_or_default();
                for (item, f) in items.iter().skip(1).zip(factors) {
                    if *f > 1.0 {
                        s.push_str(&format!(" < {item} (≥ {}×)", num(*f)));
                    } else {
                        s.push_str(&format!(" < {item}"));
                    }
                }
                format!("rank order: {s}")
            }
            Rule::Each { parts, rules } => parts
                .iter()
                .zip(rules)
                .map(|(p, r)| format!("{p} {}", r.describe(unit)))
                .collect::<Vec<_>>()
                .join("; "),
            Rule::Report => "reported, not judged".into(),
        }
    }
}

/// Inside when every part is, outside when any part is, unjudgeable when any part is.
fn all_of(tests: impl Iterator<Item = Test>) -> Test {
    let tests: Vec<Test> = tests.collect();
    if tests.contains(&Test::Unjudgeable) {
        Test::Unjudgeable
    } else if tests.contains(&Test::Outside) {
        Test::Outside
    } else if tests.iter().all(|t| *t == Test::Inside) {
        Test::Inside
    } else {
        Test::Straddles
    }
}

/// A number for rules and figures: up to 6 significant digits (so the papers' figures, such
/// as 700.994 J or 1.904956 s, read as printed), no trailing zeros.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return format!("{v}");
    }
    if v == v.round() && v.abs() < 1e9 {
        return format!("{}", v as i64);
    }
    let magnitude = v.abs().log10().floor() as i32;
    if !(-4..9).contains(&magnitude) {
        return format!("{v:.3e}");
    }
    let decimals = (5 - magnitude).max(0) as usize;
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// One claim of a paper.
#[derive(Clone, Debug, PartialEq)]
pub struct Claim {
    /// Stable id, e.g. "seed000-fig6-guided-best".
    pub id: String,
    /// Seed id.
    pub seed: &'static str,
    /// The experiment that feeds it evidence.
    pub experiment: &'static str,
    /// The paper's table, figure or section.
    pub reference: String,
    /// The claim in a sentence.
    pub claim: String,
    /// The paper's figure(s), as the paper gives them.
    pub paper: String,
    /// What ours is compared on.
    pub metric: String,
    /// Unit of the metric.
    pub unit: String,
    /// The rule.
    pub rule: Rule,
    /// One line: why the tolerance is what it is.
    pub tolerance: String,
    /// The kind, which decides the verdicts it can get.
    pub kind: Kind,
    /// For modelled claims, the model.
    pub model: Option<String>,
    /// For by-construction claims why no measurement can move it; for not-testable ones why,
    /// and what hardware would test it.
    pub note: String,
    /// A claim about a parallel method: judged only on runs with at least 2 threads.
    pub parallel: bool,
}

impl Claim {
    /// A claim of `seed` fed by `experiment`; kind measured and rule [`Rule::Report`] until
    /// set.
    pub fn new(
        id: impl Into<String>,
        seed: &'static str,
        experiment: &'static str,
        reference: impl Into<String>,
        claim: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            seed,
            experiment,
            reference: reference.into(),
            claim: claim.into(),
            paper: String::new(),
            metric: String::new(),
            unit: String::new(),
            rule: Rule::Report,
            tolerance: String::new(),
            kind: Kind::Measured,
            model: None,
            note: String::new(),
            parallel: false,
        }
    }

    /// The paper's figure(s).
    pub fn paper(mut self, paper: impl Into<String>) -> Self {
        self.paper = paper.into();
        self
    }

    /// What ours is compared on, and its unit.
    pub fn metric(mut self, metric: impl Into<String>, unit: &str) -> Self {
        self.metric = metric.into();
        self.unit = unit.into();
        self
    }

    /// The rule and why its tolerance is what it is.
    pub fn rule(mut self, rule: Rule, tolerance: impl Into<String>) -> Self {
        self.rule = rule;
        self.tolerance = tolerance.into();
        self
    }

    /// Judged on a measured interval.
    pub fn measured(mut self) -> Self {
        self.kind = Kind::Measured;
        self
    }

    /// A measured claim about a parallel method: judged on runs with ≥ 2 threads only.
    pub fn parallel(mut self) -> Self {
        self.kind = Kind::Measured;
        self.parallel = true;
        self
    }

    /// A claim whose figure comes from a parallel timing (a modelled claim fed by one, say):
    /// judged, like a parallel measured claim, only on runs with ≥ 2 threads and free cores.
    pub fn parallel_input(mut self) -> Self {
        self.parallel = true;
        self
    }

    /// Judged on the output of `model`.
    pub fn modelled(mut self, model: impl Into<String>) -> Self {
        self.kind = Kind::Modelled;
        self.model = Some(model.into());
        self
    }

    /// Arithmetic on the paper's own numbers.
    pub fn paper_check(mut self) -> Self {
        self.kind = Kind::PaperCheck;
        self
    }

    /// No measurement can move it, because `why`.
    pub fn by_construction(mut self, why: impl Into<String>) -> Self {
        self.kind = Kind::ByConstruction;
        self.note = why.into();
        self
    }

    /// Not testable here, because `why` (which says what hardware would test it).
    pub fn not_testable(mut self, why: impl Into<String>) -> Self {
        self.kind = Kind::NotTestable;
        self.note = why.into();
        self
    }
}

/// Every claim of every seed, in report order; built once.
pub fn all() -> &'static [Claim] {
    static ALL: OnceLock<Vec<Claim>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut v = seed000::claims();
        v.extend(seed001::claims());
        v.extend(seed002::claims());
        v.extend(seed003::claims());
        v.extend(seed004::claims());
        v
    })
}

/// The claim with this id.
pub fn find(id: &str) -> Option<&'static Claim> {
    all().iter().find(|c| c.id == id)
}

/// The claims an experiment feeds, in registry order.
pub fn of_experiment(experiment: &str) -> Vec<&'static Claim> {
    all()
        .iter()
        .filter(|c| c.experiment == experiment)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn ids_are_unique_and_name_their_seed() {
        let mut seen = HashSet::new();
        for c in all() {
            assert!(seen.insert(c.id.as_str()), "duplicate id {}", c.id);
            assert!(c.id.starts_with(c.seed), "{} is not under {}", c.id, c.seed);
            assert!(c.experiment.starts_with(c.seed), "{}", c.id);
            assert!(!c.claim.is_empty() && !c.reference.is_empty(), "{}", c.id);
            assert!(!c.paper.is_empty(), "{} quotes no figure", c.id);
        }
    }

    #[test]
    fn every_judged_claim_has_a_rule_a_metric_and_a_reason() {
        for c in all() {
            match c.kind {
                Kind::Measured | Kind::Modelled | Kind::PaperCheck => {
                    assert_ne!(c.rule, Rule::Report, "{} has no rule", c.id);
                    assert!(!c.metric.is_empty(), "{} has no metric", c.id);
                    assert!(!c.tolerance.is_empty(), "{} has no tolerance reason", c.id);
                }
                Kind::ByConstruction | Kind::NotTestable => {
                    assert!(!c.note.is_empty(), "{} says not why", c.id)
                }
            }
            assert_eq!(c.kind == Kind::Modelled, c.model.is_some(), "{}", c.id);
            assert!(
                !c.parallel || matches!(c.kind, Kind::Measured | Kind::Modelled),
                "{}",
                c.id
            );
        }
    }

    #[test]
    fn numbers_keep_six_significant_digits() {
        assert_eq!(num(700.994), "700.994");
        assert_eq!(num(1.904956), "1.90496");
        assert_eq!(num(0.0702), "0.0702");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(-17.333333), "-17.3333");
        assert_eq!(num(12345678.9), "12345679");
        assert_eq!(num(1e-7), "1.000e-7");
    }

    #[test]
    fn rules_describe_themselves() {
        assert_eq!(Rule::AtLeast { min: 40.0 }.describe("%"), "≥ 40 %");
        assert_eq!(Rule::AtMost { max: -17.5 }.describe("%"), "≤ -17.5 %");
        assert_eq!(
            Rule::Diff {
                target: 47.0,
                tol: 5.0
            }
            .describe("%"),
            "47 ± 5 %"
        );
        assert_eq!(
            Rule::Ratio {
                target: 100.0,
                factor: 2.0
            }
            .describe(""),
            "within ×2 of 100 (50–200)"
        );
        let order = Rule::Order {
            items: vec!["a".into(), "b".into(), "c".into()],
            factors: vec![10.0, 1.0],
        };
        assert_eq!(order.describe("µs"), "rank order: a < b (≥ 10×) < c");
        assert_eq!(order.arity(), 2);
    }
}
