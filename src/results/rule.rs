//! How a claim is judged, as data: the rule ours is held to ([`Rule`]), what an interval does
//! against it ([`Test`]), and why a verdict follows ([`Reason`]). results.json stores the rule
//! as data (`rule_data`, e.g. `{"kind": "at-least", "min": 1.1}`) beside its text.
use serde::{Deserialize, Serialize};

/// How ours is judged against the paper. Scalar rules test one estimate; `Order` and `Each`
/// test one estimate per part.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
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
    /// The rule of each estimate, for rules judged part by part: `Each`'s rules, `Order`'s
    /// "at least this ratio" per step, or the scalar rule itself (empty for `Report`).
    pub fn part_rules(&self) -> Vec<Rule> {
        match self {
            Rule::Each { rules, .. } => rules.clone(),
            Rule::Order { factors, .. } => {
                factors.iter().map(|&min| Rule::AtLeast { min }).collect()
            }
            Rule::Report => Vec::new(),
            scalar => vec![scalar.clone()],
        }
    }

    /// The name of each estimate of a multi-part rule (`Each`'s parts, `Order`'s steps as
    /// "b / a"); empty for a scalar rule, whose one estimate is the metric itself.
    pub fn part_names(&self) -> Vec<String> {
        match self {
            Rule::Each { parts, .. } => parts.clone(),
            Rule::Order { items, .. } => items
                .windows(2)
                .map(|w| format!("{} / {}", w[1], w[0]))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Whether some figure within `ranges` (one `(low, high)` per estimate) satisfies the
    /// rule, and whether some violates it: `(can pass, can fail)`.
    pub fn can_pass_and_fail(&self, ranges: &[(f64, f64)]) -> (bool, bool) {
        let parts = self.part_rules();
        if parts.len() != ranges.len() || parts.is_empty() {
            return (false, false);
        }
        let mut pass = true;
        let mut fail = false;
        for (r, &(lo, hi)) in parts.iter().zip(ranges) {
            let Some((a, b)) = r.band() else {
                return (false, false);
            };
            pass &= lo.max(a) <= hi.min(b);
            fail |= lo < a || hi > b;
        }
        (pass, fail)
    }

    /// Whether a result of `test` on `intervals` stands whatever load the machine carried,
    /// given that load can only move the figures in the direction `load` says: an "at least"
    /// result that load can only lower stays inside when the cores are freed, and a figure
    /// already above a band stays above it. Pure; `Load::Any` never stands alone.
    pub fn stands_under_load(&self, test: Test, intervals: &[(f64, f64)], load: Load) -> bool {
        let parts = self.part_rules();
        if parts.len() != intervals.len() || parts.is_empty() {
            return false;
        }
        // What a free machine could have given instead of each measured interval.
        let reach = |&(lo, hi): &(f64, f64)| match load {
            Load::None => Some((lo, hi)),
            Load::Lowers => Some((lo, f64::INFINITY)),
            Load::Raises => Some((f64::NEG_INFINITY, hi)),
            Load::Any => None,
        };
        let tests: Option<Vec<Test>> = parts
            .iter()
            .zip(intervals)
            .map(|(r, iv)| {
                let (lo, hi) = reach(iv)?;
                let (a, b) = r.band()?;
                Some(if a <= lo && hi <= b {
                    Test::Inside
                } else if hi < a || lo > b {
                    Test::Outside
                } else {
                    Test::Straddles
                })
            })
            .collect();
        let Some(tests) = tests else {
            return false;
        };
        match test {
            Test::Inside => tests.iter().all(|t| *t == Test::Inside),
            Test::Outside => tests.contains(&Test::Outside),
            Test::Straddles | Test::Unjudgeable => false,
        }
    }
}

/// Which way load on the machine (other jobs, a hypervisor taking a core) can move a claim's
/// figure. A busy machine can only slow a parallel form: it lowers a speedup and raises a
/// parallel time, so a result that survives the move needs no free-core check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Load {
    /// Load cannot move it (counts, models of fixed inputs, sequential timings judged on
    /// their own).
    #[default]
    None,
    /// Load can only lower it (a parallel form's speedup or throughput over a sequential one).
    Lowers,
    /// Load can only raise it (a parallel form's time, or its time change against a
    /// sequential one in %).
    Raises,
    /// Either way (an order among parallel forms, a ratio of two parallel forms).
    Any,
}

/// Why a verdict follows, as a stable code in results.json (`reason`): what the interval did
/// against the rule, or what kept the claim from being judged.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Reason {
    /// The whole 95 % interval of a measured figure satisfies the rule.
    IntervalInside,
    /// The whole 95 % interval violates it.
    IntervalOutside,
    /// The interval straddles the rule's threshold.
    IntervalStraddles,
    /// An exact figure (a count, a model of fixed inputs) satisfies the rule.
    ExactInside,
    /// An exact figure violates it.
    ExactOutside,
    /// A model's whole range over its assumptions satisfies the rule.
    ModelRangeInside,
    /// A model's whole range over its assumptions violates it.
    ModelRangeOutside,
    /// A model's range over its assumptions straddles the rule.
    ModelRangeStraddles,
    /// The paper's numbers meet the rule (paper-check).
    PaperConsistent,
    /// The paper's numbers fail it (paper-check).
    PaperInconsistent,
    /// The result is one load could have caused, and the probe found the cores busy.
    CoresBusy,
    /// The result is one load could have caused, and whether the cores were free is unclear.
    CoresUnclear,
    /// The claim needs this many hardware threads (more than this machine has, or more than
    /// the one thread the evidence ran on).
    NeedsThreads(usize),
    /// The profile did not run the sizes the claim is about (`--full` does).
    NotRunInProfile,
    /// No figure could be obtained here (hardware, a missing tool).
    NoFigure,
    /// The evidence is not of the claim's kind (a bug in an experiment, never a verdict).
    EvidenceMismatch,
    /// By construction: no measurement can move it.
    ByConstruction,
    /// Not testable as registered (the claim says which machine would test it).
    NotTestable,
}

impl Reason {
    /// The code, e.g. "interval-inside", "needs-36-threads".
    pub fn code(&self) -> String {
        match self {
            Reason::IntervalInside => "interval-inside".into(),
            Reason::IntervalOutside => "interval-outside".into(),
            Reason::IntervalStraddles => "interval-straddles".into(),
            Reason::ExactInside => "exact-inside".into(),
            Reason::ExactOutside => "exact-outside".into(),
            Reason::ModelRangeInside => "model-range-inside".into(),
            Reason::ModelRangeOutside => "model-range-outside".into(),
            Reason::ModelRangeStraddles => "model-range-straddles".into(),
            Reason::PaperConsistent => "paper-consistent".into(),
            Reason::PaperInconsistent => "paper-inconsistent".into(),
            Reason::CoresBusy => "cores-busy".into(),
            Reason::CoresUnclear => "cores-unclear".into(),
            Reason::NeedsThreads(n) => format!("needs-{n}-threads"),
            Reason::NotRunInProfile => "not-run-in-profile".into(),
            Reason::NoFigure => "no-figure".into(),
            Reason::EvidenceMismatch => "evidence-mismatch".into(),
            Reason::ByConstruction => "by-construction".into(),
            Reason::NotTestable => "not-testable".into(),
        }
    }

    /// Every reason with a fixed code (all but needs-N-threads).
    pub const FIXED: [Reason; 17] = [
        Reason::IntervalInside,
        Reason::IntervalOutside,
        Reason::IntervalStraddles,
        Reason::ExactInside,
        Reason::ExactOutside,
        Reason::ModelRangeInside,
        Reason::ModelRangeOutside,
        Reason::ModelRangeStraddles,
        Reason::PaperConsistent,
        Reason::PaperInconsistent,
        Reason::CoresBusy,
        Reason::CoresUnclear,
        Reason::NotRunInProfile,
        Reason::NoFigure,
        Reason::EvidenceMismatch,
        Reason::ByConstruction,
        Reason::NotTestable,
    ];

    /// For people: "the interval lies inside the rule", "the cores were busy", ….
    pub fn label(&self) -> String {
        match self {
            Reason::IntervalInside => "the whole interval satisfies the rule".into(),
            Reason::IntervalOutside => "the whole interval violates the rule".into(),
            Reason::IntervalStraddles => "the interval straddles the rule".into(),
            Reason::ExactInside => "the exact figure satisfies the rule".into(),
            Reason::ExactOutside => "the exact figure violates the rule".into(),
            Reason::ModelRangeInside => "the model's whole range satisfies the rule".into(),
            Reason::ModelRangeOutside => "the model's whole range violates the rule".into(),
            Reason::ModelRangeStraddles => {
                "the model's range over its assumptions straddles the rule".into()
            }
            Reason::PaperConsistent => "the paper's numbers agree".into(),
            Reason::PaperInconsistent => "the paper's numbers disagree".into(),
            Reason::CoresBusy => {
                "the cores were busy, and load could have caused the result".into()
            }
            Reason::CoresUnclear => {
                "whether the cores were free is unclear, and load could have caused the result"
                    .into()
            }
            Reason::NeedsThreads(n) => format!("needs {n} hardware threads"),
            Reason::NotRunInProfile => "its sizes are not run in this profile".into(),
            Reason::NoFigure => "no figure could be obtained here".into(),
            Reason::EvidenceMismatch => "the evidence is not of the claim's kind".into(),
            Reason::ByConstruction => "fixed by construction".into(),
            Reason::NotTestable => "not testable as registered".into(),
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.code())
    }
}

impl From<Reason> for String {
    fn from(r: Reason) -> String {
        r.code()
    }
}

impl TryFrom<String> for Reason {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        if let Some(n) = s
            .strip_prefix("needs-")
            .and_then(|r| r.strip_suffix("-threads"))
        {
            return n
                .parse()
                .map(Reason::NeedsThreads)
                .map_err(|_| format!("unknown reason '{s}'"));
        }
        Reason::FIXED
            .into_iter()
            .find(|r| r.code() == s)
            .ok_or_else(|| format!("unknown reason '{s}'"))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_know_whether_a_range_can_pass_and_fail() {
        let at_most = Rule::AtMost { max: -26.7 };
        // Slicing on 2 threads cannot gain more than 25 %: the rule cannot pass.
        assert_eq!(at_most.can_pass_and_fail(&[(-25.0, 50.0)]), (false, true));
        assert_eq!(at_most.can_pass_and_fail(&[(-50.0, 50.0)]), (true, true));
        assert_eq!(at_most.can_pass_and_fail(&[(-50.0, -30.0)]), (true, false));
        let each = Rule::Each {
            parts: vec!["a".into(), "b".into()],
            rules: vec![Rule::AtLeast { min: 1.0 }, Rule::AtLeast { min: 2.0 }],
        };
        assert_eq!(
            each.can_pass_and_fail(&[(0.0, 3.0), (2.5, 3.0)]),
            (true, true)
        );
        assert_eq!(
            each.can_pass_and_fail(&[(0.0, 3.0), (0.0, 1.5)]),
            (false, true)
        );
        assert_eq!(
            each.can_pass_and_fail(&[(0.0, 3.0)]),
            (false, false),
            "arity"
        );
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
