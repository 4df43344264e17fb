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
    /// An ordering measured on a positive ratio: ours is above `min` by more than the
    /// relative noise band `noise` (holds when the interval lies at or above `min × (1 +
    /// noise)`, does not hold when it lies below `min × (1 − noise)`; in between the two sides
    /// cannot be told apart on this kind of machine).
    Above {
        /// The threshold (1 for "faster than").
        min: f64,
        /// The relative half-width of the band around it, e.g. 0.02.
        noise: f64,
    },
    /// The mirror of [`Rule::Above`]: ours is below `max` by more than the noise band.
    Below {
        /// The threshold.
        max: f64,
        /// The relative half-width of the band around it.
        noise: f64,
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
    /// The whole interval lies inside a rule's noise band ([`Rule::Above`], [`Rule::Below`]):
    /// neither side of the ordering is clear on this machine.
    WithinNoise,
    /// No judgement possible: no finite interval, or the wrong number of estimates.
    Unjudgeable,
}

impl Rule {
    /// The closed band a scalar rule accepts (`None` for `Order`, `Each` and `Report`).
    pub fn band(&self) -> Option<(f64, f64)> {
        match *self {
            Rule::AtLeast { min } => Some((min, f64::INFINITY)),
            Rule::AtMost { max } => Some((f64::NEG_INFINITY, max)),
            Rule::Above { min, noise } => Some((min * (1.0 + noise), f64::INFINITY)),
            Rule::Below { max, noise } => Some((f64::NEG_INFINITY, max * (1.0 - noise))),
            Rule::Ratio { target, factor } => {
                let (a, b) = (target / factor, target * factor);
                Some((a.min(b), a.max(b)))
            }
            Rule::Diff { target, tol } => Some((target - tol, target + tol)),
            _ => None,
        }
    }

    /// The closed band outside of which a scalar rule is violated: the accepted band widened
    /// by a noise band ([`Rule::Above`], [`Rule::Below`]), the accepted band itself otherwise.
    pub fn not_rejected(&self) -> Option<(f64, f64)> {
        match *self {
            Rule::Above { min, noise } => Some((min * (1.0 - noise), f64::INFINITY)),
            Rule::Below { max, noise } => Some((f64::NEG_INFINITY, max * (1.0 + noise))),
            _ => self.band(),
        }
    }

    /// What the interval `(lo, hi)` does against a scalar rule; pure.
    fn classify(&self, lo: f64, hi: f64) -> Test {
        let (Some((a, b)), Some((ra, rb))) = (self.band(), self.not_rejected()) else {
            return Test::Unjudgeable;
        };
        if lo.is_nan() || hi.is_nan() || lo > hi {
            Test::Unjudgeable
        } else if a <= lo && hi <= b {
            Test::Inside
        } else if hi < ra || lo > rb {
            Test::Outside
        } else if (ra <= lo && hi < a) || (b < lo && hi <= rb) {
            Test::WithinNoise
        } else {
            Test::Straddles
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
                if !(lo.is_finite() && hi.is_finite()) {
                    return Test::Unjudgeable;
                }
                scalar.classify(lo, hi)
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
            Rule::Above { min, noise } => format!(
                "≥ {}{u} (above {} beyond its ±{} % noise band; ≤ {} fails)",
                num(min * (1.0 + noise)),
                num(*min),
                num(noise * 100.0),
                num(min * (1.0 - noise))
            ),
            Rule::Below { max, noise } => format!(
                "≤ {}{u} (below {} beyond its ±{} % noise band; ≥ {} fails)",
                num(max * (1.0 - noise)),
                num(*max),
                num(noise * 100.0),
                num(max * (1.0 + noise))
            ),
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
            let (Some((a, b)), Some((ra, rb))) = (r.band(), r.not_rejected()) else {
                return (false, false);
            };
            pass &= lo.max(a) <= hi.min(b);
            fail |= lo < ra || hi > rb;
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
                Some(r.classify(lo, hi))
            })
            .collect();
        let Some(tests) = tests else {
            return false;
        };
        match test {
            Test::Inside => tests.iter().all(|t| *t == Test::Inside),
            Test::Outside => tests.contains(&Test::Outside),
            Test::Straddles | Test::WithinNoise | Test::Unjudgeable => false,
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
    /// The whole interval lies inside the rule's noise band: the ordering it claims is too
    /// small to tell on this machine (more rounds would not change that).
    WithinNoise,
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
    /// The result is one load could have caused, and crediting back the capacity the
    /// free-core probe found lost in the same rounds (a fork-join of equal work slowed by
    /// that much) moves the figure across the rule.
    LoadCouldExplain,
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
    /// Rounds were set aside (a core taken, the CPUs apart), and with them kept the verdict
    /// differs: setting them aside would have chosen it, so it is inconclusive.
    SetAsideDecides,
    /// The result is one load could have caused, and a quarter or more of the rounds kept
    /// were measured with the CPUs apart (no shared cache; kept because the experiment had
    /// set aside as many as it may): a machine whose cores share a cache was not what ran.
    CpusApart,
    /// The evidence was obtained at a scaled setting (fewer threads or slices than the
    /// paper's, our machine for the paper's, our implementation choices) and does not show
    /// the paper's ordering there: only the paper's setting can refute, so it is inconclusive.
    ScaledSetting,
    /// A model's figure violates (or meets) the rule by less than the model's own measured
    /// validation error: the model cannot tell.
    WithinModelError,
}

impl Reason {
    /// The code, e.g. "interval-inside", "needs-36-threads".
    pub fn code(&self) -> String {
        match self {
            Reason::IntervalInside => "interval-inside".into(),
            Reason::IntervalOutside => "interval-outside".into(),
            Reason::IntervalStraddles => "interval-straddles".into(),
            Reason::WithinNoise => "within-noise-band".into(),
            Reason::ExactInside => "exact-inside".into(),
            Reason::ExactOutside => "exact-outside".into(),
            Reason::ModelRangeInside => "model-range-inside".into(),
            Reason::ModelRangeOutside => "model-range-outside".into(),
            Reason::ModelRangeStraddles => "model-range-straddles".into(),
            Reason::PaperConsistent => "paper-consistent".into(),
            Reason::PaperInconsistent => "paper-inconsistent".into(),
            Reason::CoresBusy => "cores-busy".into(),
            Reason::CoresUnclear => "cores-unclear".into(),
            Reason::LoadCouldExplain => "load-could-explain".into(),
            Reason::NeedsThreads(n) => format!("needs-{n}-threads"),
            Reason::NotRunInProfile => "not-run-in-profile".into(),
            Reason::NoFigure => "no-figure".into(),
            Reason::EvidenceMismatch => "evidence-mismatch".into(),
            Reason::ByConstruction => "by-construction".into(),
            Reason::NotTestable => "not-testable".into(),
            Reason::SetAsideDecides => "set-aside-decides".into(),
            Reason::CpusApart => "cpus-apart".into(),
            Reason::ScaledSetting => "scaled-setting".into(),
            Reason::WithinModelError => "within-model-error".into(),
        }
    }

    /// Every reason with a fixed code (all but needs-N-threads).
    pub const FIXED: [Reason; 23] = [
        Reason::IntervalInside,
        Reason::IntervalOutside,
        Reason::IntervalStraddles,
        Reason::WithinNoise,
        Reason::ExactInside,
        Reason::ExactOutside,
        Reason::ModelRangeInside,
        Reason::ModelRangeOutside,
        Reason::ModelRangeStraddles,
        Reason::PaperConsistent,
        Reason::PaperInconsistent,
        Reason::CoresBusy,
        Reason::CoresUnclear,
        Reason::LoadCouldExplain,
        Reason::NotRunInProfile,
        Reason::NoFigure,
        Reason::EvidenceMismatch,
        Reason::ByConstruction,
        Reason::NotTestable,
        Reason::SetAsideDecides,
        Reason::CpusApart,
        Reason::ScaledSetting,
        Reason::WithinModelError,
    ];

    /// For people: "the interval lies inside the rule", "the cores were busy", ….
    pub fn label(&self) -> String {
        match self {
            Reason::IntervalInside => "the whole interval satisfies the rule".into(),
            Reason::IntervalOutside => "the whole interval violates the rule".into(),
            Reason::IntervalStraddles => "the interval straddles the rule".into(),
            Reason::WithinNoise => "the whole interval lies within the noise band".into(),
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
            Reason::LoadCouldExplain => {
                "the capacity the free-core probe found lost could account for the result".into()
            }
            Reason::NeedsThreads(n) => format!("needs {n} hardware threads"),
            Reason::NotRunInProfile => "its sizes are not run in this profile".into(),
            Reason::NoFigure => "no figure could be obtained here".into(),
            Reason::EvidenceMismatch => "the evidence is not of the claim's kind".into(),
            Reason::ByConstruction => "fixed by construction".into(),
            Reason::NotTestable => "not testable as registered".into(),
            Reason::SetAsideDecides => "the verdict changes with the rounds set aside kept".into(),
            Reason::CpusApart => {
                "the CPUs were apart in many rounds kept, and that could have caused the result"
                    .into()
            }
            Reason::ScaledSetting => {
                "a scaled setting does not show the ordering, and only the paper's setting can refute"
                    .into()
            }
            Reason::WithinModelError => {
                "the model's figure lies within its own validation error of the rule".into()
            }
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

/// Inside when every part is, outside when any part is, unjudgeable when any part is; within
/// the noise when every part that is not inside is, straddling otherwise.
fn all_of(tests: impl Iterator<Item = Test>) -> Test {
    let tests: Vec<Test> = tests.collect();
    if tests.contains(&Test::Unjudgeable) {
        Test::Unjudgeable
    } else if tests.contains(&Test::Outside) {
        Test::Outside
    } else if tests.iter().all(|t| *t == Test::Inside) {
        Test::Inside
    } else if tests.contains(&Test::Straddles) {
        Test::Straddles
    } else {
        Test::WithinNoise
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
    fn a_noise_band_decides_an_ordering_only_beyond_it() {
        let above = Rule::Above {
            min: 1.0,
            noise: 0.02,
        };
        assert_eq!(above.test(&[(1.021, 1.05)]), Test::Inside);
        assert_eq!(above.test(&[(0.90, 0.979)]), Test::Outside);
        // Significantly above 1, but less than the band: neither side is clear.
        assert_eq!(above.test(&[(1.001, 1.009)]), Test::WithinNoise);
        assert_eq!(above.test(&[(0.99, 1.01)]), Test::WithinNoise);
        assert_eq!(above.test(&[(1.01, 1.03)]), Test::Straddles);
        assert_eq!(above.test(&[(0.97, 0.99)]), Test::Straddles);
        let below = Rule::Below {
            max: 1.0,
            noise: 0.02,
        };
        assert_eq!(below.test(&[(0.9, 0.97)]), Test::Inside);
        assert_eq!(below.test(&[(1.03, 1.2)]), Test::Outside);
        assert_eq!(below.test(&[(0.99, 1.015)]), Test::WithinNoise);
        assert_eq!(below.test(&[(0.97, 1.0)]), Test::Straddles);
        assert_eq!(below.can_pass_and_fail(&[(0.99, 1.01)]), (false, false));
        assert_eq!(below.can_pass_and_fail(&[(0.9, 1.1)]), (true, true));
        // Parts: a clear part and one within the noise leave the whole within the noise.
        let each = Rule::Each {
            parts: vec!["a".into(), "b".into()],
            rules: vec![above.clone(), above.clone()],
        };
        assert_eq!(each.test(&[(1.1, 1.2), (0.995, 1.005)]), Test::WithinNoise);
        assert_eq!(each.test(&[(1.01, 1.2), (0.995, 1.005)]), Test::Straddles);
        assert_eq!(each.test(&[(0.9, 0.95), (0.995, 1.005)]), Test::Outside);
        // Load that can only lower the figure leaves a clear "above" standing, never a
        // "below the band".
        assert!(above.stands_under_load(Test::Inside, &[(1.03, 1.05)], Load::Lowers));
        assert!(!above.stands_under_load(Test::Outside, &[(0.9, 0.95)], Load::Lowers));
        assert_eq!(
            above.describe("×"),
            "≥ 1.02 × (above 1 beyond its ±2 % noise band; ≤ 0.98 fails)"
        );
        let json = serde_json::to_string(&below).unwrap();
        assert_eq!(json, r#"{"kind":"below","max":1.0,"noise":0.02}"#);
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
