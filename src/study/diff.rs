//! `study diff`: two studies claim by claim. For each claim in both: the two verdicts with
//! their reasons, our two figures with their 95 % intervals, and the numeric change from the
//! first to the second with its own 95 % interval — criterion's change report for claims. A
//! claim whose verdict differs is a *change*; one that moved between holds and does-not-hold
//! is a *flip*: the two runs contradict each other, which verdicts built on confidence
//! intervals should make rare.
//!
//! The numeric change is the ratio second / first of our figures when both are positive,
//! else their difference. Its interval combines the two intervals by MOVER (the method of
//! variance estimates recovery, Zou & Donner 2008), on the log scale for a ratio: each side
//! of the change's interval is the root of the sum of squares of the distances from each
//! estimate to the bound that moves the change that way, which keeps 95 % coverage for two
//! independent 95 % intervals, asymmetric ones included. A change is *within noise* when its
//! interval holds no change (ratio 1, difference 0).
use crate::results::{ClaimResult, Ours, StudyResults, Verdict};
use serde::Serialize;
use std::fmt::Write;

/// One study run, named for people: where it was read, when and on what it ran.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Run {
    /// The folder or results.json file it was read from.
    pub path: String,
    /// When the study's machine was detected (its start), UTC.
    pub at: String,
    /// The machine in one line.
    pub machine: String,
    /// `quick` or `full`.
    pub profile: String,
    /// parcrypt's version.
    pub version: String,
}

impl Run {
    /// The run of `study`, read from `path`.
    pub fn of(study: &StudyResults, path: &str) -> Self {
        let m = &study.machine;
        Self {
            path: path.into(),
            at: m.detected_at.clone(),
            machine: format!(
                "{}, {} logical CPUs, {}",
                m.cpu_model, m.logical_cores, m.os
            ),
            profile: study.profile.name().into(),
            version: study.parcrypt_version.clone(),
        }
    }
}

/// A figure with its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Figure {
    /// The estimate.
    pub value: f64,
    /// Lower end of its 95 % interval (the value itself for an exact figure).
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Figure {
    /// Our figure of a claim, when it has one with a finite interval.
    fn of(ours: &Ours) -> Option<Self> {
        let value = ours.value?;
        let low = ours.ci_low.unwrap_or(value);
        let high = ours.ci_high.unwrap_or(value);
        [value, low, high]
            .iter()
            .all(|x| x.is_finite())
            .then_some(Self { value, low, high })
    }
}

/// How a numeric change is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    /// second / first (both figures and their intervals positive).
    Ratio,
    /// second − first.
    Difference,
}

/// The numeric change of a figure from the first study to the second.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct NumericChange {
    /// Ratio or difference.
    pub kind: ChangeKind,
    /// The change: second / first, or second − first.
    pub value: f64,
    /// Lower end of its 95 % interval.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl NumericChange {
    /// The change from `a` to `b`, with its MOVER interval.
    pub fn between(a: Figure, b: Figure) -> Self {
        let positive = [a.value, a.low, b.value, b.low].iter().all(|x| *x > 0.0);
        let mover = |d: f64, down: (f64, f64), up: (f64, f64)| {
            (
                d - (down.0 * down.0 + down.1 * down.1).sqrt(),
                d + (up.0 * up.0 + up.1 * up.1).sqrt(),
            )
        };
        if positive {
            let ln = f64::ln;
            let d = ln(b.value) - ln(a.value);
            // Down: b at its low end, a at its high end; up: the other way round.
            let (lo, hi) = mover(
                d,
                (ln(b.value) - ln(b.low), ln(a.high) - ln(a.value)),
                (ln(b.high) - ln(b.value), ln(a.value) - ln(a.low)),
            );
            Self {
                kind: ChangeKind::Ratio,
                value: d.exp(),
                low: lo.exp(),
                high: hi.exp(),
            }
        } else {
            let d = b.value - a.value;
            let (low, high) = mover(
                d,
                (b.value - b.low, a.high - a.value),
                (b.high - b.value, a.value - a.low),
            );
            Self {
                kind: ChangeKind::Difference,
                value: d,
                low,
                high,
            }
        }
    }

    /// The interval holds "no change" (ratio 1, difference 0).
    pub fn within_noise(&self) -> bool {
        let none = match self.kind {
            ChangeKind::Ratio => 1.0,
            ChangeKind::Difference => 0.0,
        };
        self.low <= none && none <= self.high
    }

    /// For people: "×1.042 [0.981, 1.107], within noise" or "Δ -3.1 [-5, -1.2], changed".
    pub fn describe(&self) -> String {
        let f = crate::results::short;
        let (sign, value) = match self.kind {
            ChangeKind::Ratio => ("×", f(self.value)),
            ChangeKind::Difference if self.value >= 0.0 => ("Δ +", f(self.value)),
            ChangeKind::Difference => ("Δ ", f(self.value)),
        };
        format!(
            "{sign}{value} [{}, {}], {}",
            f(self.low),
            f(self.high),
            if self.within_noise() {
                "within noise"
            } else {
                "changed"
            }
        )
    }
}

/// One side of a claim: its verdict, why, and our figure.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Side {
    /// The verdict.
    pub verdict: Verdict,
    /// The reason's code ("interval-inside", ...); `None` in results written before reasons.
    pub reason: Option<String>,
    /// The reason for people.
    pub reason_text: Option<String>,
    /// Our figure with its interval, when the claim has one number.
    pub figure: Option<Figure>,
    /// Its unit.
    pub unit: String,
    /// Our figure as the report shows it.
    pub text: String,
}

impl Side {
    fn of(c: &ClaimResult) -> Self {
        Self {
            verdict: c.verdict,
            reason: c.reason.as_ref().map(|r| r.code()),
            reason_text: c.reason.as_ref().map(|r| r.label()),
            figure: Figure::of(&c.ours),
            unit: c.ours.unit.clone(),
            text: c.ours.text.clone(),
        }
    }

    /// "holds (the whole interval satisfies the rule)", or the verdict alone.
    fn verdict_and_reason(&self) -> String {
        match &self.reason_text {
            Some(r) => format!("{} ({r})", self.verdict.name()),
            None => format!("{} (no reason recorded)", self.verdict.name()),
        }
    }
}

/// One claim in both studies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClaimDiff {
    /// The claim's id.
    pub id: String,
    /// The first study's side.
    pub before: Side,
    /// The second study's side.
    pub after: Side,
    /// The change of our figure, when both sides have one.
    pub change: Option<NumericChange>,
    /// Each named part's change (claims judged on several figures), in the first study's order.
    pub parts: Vec<(String, NumericChange)>,
    /// The verdicts differ.
    pub verdict_changed: bool,
    /// Holds in one study and does not hold in the other.
    pub flip: bool,
}

impl ClaimDiff {
    fn of(a: &ClaimResult, b: &ClaimResult) -> Self {
        let (before, after) = (Side::of(a), Side::of(b));
        let change = before
            .figure
            .zip(after.figure)
            .map(|(x, y)| NumericChange::between(x, y));
        let parts = a
            .ours
            .parts
            .iter()
            .filter_map(|p| {
                let q = b.ours.parts.iter().find(|q| q.name == p.name)?;
                let fig = |value, low, high| Figure { value, low, high };
                let (x, y) = (
                    fig(p.value, p.ci_low, p.ci_high),
                    fig(q.value, q.ci_low, q.ci_high),
                );
                let finite = [x.value, x.low, x.high, y.value, y.low, y.high]
                    .iter()
                    .all(|v| v.is_finite());
                finite.then(|| (p.name.clone(), NumericChange::between(x, y)))
            })
            .collect();
        Self {
            id: a.id.clone(),
            verdict_changed: a.verdict != b.verdict,
            flip: a.verdict.is_definite() && b.verdict.is_definite() && a.verdict != b.verdict,
            before,
            after,
            change,
            parts,
        }
    }

    /// The numeric change (and each part's) for people; "no figure" when there is none.
    fn change_text(&self) -> String {
        let mut s: Vec<String> = self.change.iter().map(|c| c.describe()).collect();
        s.extend(
            self.parts
                .iter()
                .map(|(name, c)| format!("{name} {}", c.describe())),
        );
        if s.is_empty() {
            "no figure to compare".into()
        } else {
            s.join("; ")
        }
    }
}

/// The differences between two studies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diff {
    /// The first study.
    pub first: Run,
    /// The second study.
    pub second: Run,
    /// Claims in both studies.
    pub compared: usize,
    /// Claims whose verdict differs.
    pub verdicts_changed: usize,
    /// Of them, moves between holds and does-not-hold.
    pub flips: usize,
    /// Every claim in both, in the first study's order.
    pub claims: Vec<ClaimDiff>,
    /// Claim ids only the first study has.
    pub only_first: Vec<String>,
    /// Claim ids only the second study has.
    pub only_second: Vec<String>,
}

impl Diff {
    /// How many changes are flips between holds and does-not-hold.
    pub fn flips(&self) -> usize {
        self.flips
    }

    /// The claims whose verdict differs.
    pub fn changes(&self) -> impl Iterator<Item = &ClaimDiff> {
        self.claims.iter().filter(|c| c.verdict_changed)
    }

    /// The diff for people: both runs named; per changed claim both verdicts with their
    /// reasons, both figures with their intervals and the numeric change; with `all`, then
    /// the numeric change of every claim; a summary line last.
    pub fn render(&self, all: bool) -> String {
        let mut s = String::new();
        for (which, r) in [("first ", &self.first), ("second", &self.second)] {
            let _ = writeln!(
                s,
                "{which}: {} — {} profile, {}, {} (parcrypt {})",
                r.path, r.profile, r.at, r.machine, r.version
            );
        }
        for c in self.changes() {
            let _ = writeln!(
                s,
                "{} {}: {} -> {}",
                if c.flip { "FLIP" } else { "    " },
                c.id,
                c.before.verdict_and_reason(),
                c.after.verdict_and_reason()
            );
            let _ = writeln!(
                s,
                "       ours: {} | {}",
                figure_text(&c.before),
                figure_text(&c.after)
            );
            let _ = writeln!(s, "       change: {}", c.change_text());
        }
        for id in &self.only_first {
            let _ = writeln!(s, "only in the first: {id}");
        }
        for id in &self.only_second {
            let _ = writeln!(s, "only in the second: {id}");
        }
        if all {
            let _ = writeln!(
                s,
                "numeric change of every claim (second against first, 95 % interval):"
            );
            for c in &self.claims {
                let _ = writeln!(
                    s,
                    "  {:<40} {:<13} -> {:<13} {}",
                    c.id,
                    c.before.verdict.name(),
                    c.after.verdict.name(),
                    c.change_text()
                );
            }
        }
        let changed_figures = self
            .claims
            .iter()
            .filter(|c| c.change.is_some_and(|x| !x.within_noise()))
            .count();
        let _ = writeln!(
            s,
            "{} of {} claims differ in verdict; {} moved between holds and does-not-hold; {} figures changed beyond their intervals' noise",
            self.verdicts_changed, self.compared, self.flips, changed_figures
        );
        s
    }
}

/// A claim's figure with its interval and unit, as `study diff` shows it.
pub(crate) fn figure_of(c: &ClaimResult) -> String {
    figure_text(&Side::of(c))
}

/// A side's figure with its interval and unit, or its text when there is no single figure.
fn figure_text(side: &Side) -> String {
    let f = crate::results::short;
    match side.figure {
        Some(x) if x.low == x.value && x.high == x.value => {
            format!("{} {} (exact)", f(x.value), side.unit)
        }
        Some(x) => format!("{} [{}, {}] {}", f(x.value), f(x.low), f(x.high), side.unit),
        None => side.text.clone(),
    }
}

/// The claims with their ids, and their papers' ids, in today's form.
pub(crate) fn current_ids(claims: &[ClaimResult]) -> Vec<ClaimResult> {
    use crate::claims::papers::current_id;
    claims
        .iter()
        .cloned()
        .map(|mut c| {
            c.id = current_id(&c.id);
            c.paper = current_id(&c.paper);
            c
        })
        .collect()
}

/// Compares two studies claim by claim; `paths` name them for people.
/// A results.json of either naming compares with one of the other: ids of the old form
/// (`seed000-…`) are read as today's (`parsa-…`) through the one alias table,
/// [`crate::claims::papers::OLD_IDS`].
pub fn diff(first: &StudyResults, second: &StudyResults, paths: (&str, &str)) -> Diff {
    let (first_claims, second_claims) = (current_ids(&first.claims), current_ids(&second.claims));
    let mut claims = Vec::new();
    let mut only_first = Vec::new();
    for a in &first_claims {
        match second_claims.iter().find(|b| b.id == a.id) {
            Some(b) => claims.push(ClaimDiff::of(a, b)),
            None => only_first.push(a.id.clone()),
        }
    }
    let only_second = second_claims
        .iter()
        .filter(|b| !first_claims.iter().any(|a| a.id == b.id))
        .map(|b| b.id.clone())
        .collect();
    Diff {
        first: Run::of(first, paths.0),
        second: Run::of(second, paths.1),
        compared: claims.len(),
        verdicts_changed: claims.iter().filter(|c| c.verdict_changed).count(),
        flips: claims.iter().filter(|c| c.flip).count(),
        claims,
        only_first,
        only_second,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Kind, Part, Profile, Reason};

    fn claim(id: &str, verdict: Verdict, ours: Option<(f64, f64, f64)>) -> ClaimResult {
        ClaimResult {
            id: id.into(),
            paper_id: "parsa".into(),
            reference: "Fig. 0".into(),
            claim: "c".into(),
            kind: Kind::Measured,
            model: None,
            verdict,
            reason: Some(match verdict {
                Verdict::Holds => Reason::IntervalInside,
                Verdict::DoesNotHold => Reason::IntervalOutside,
                _ => Reason::IntervalStraddles,
            }),
            paper: "p".into(),
            paper_values: Vec::new(),
            ours: Ours {
                value: ours.map(|o| o.0),
                ci_low: ours.map(|o| o.1),
                ci_high: ours.map(|o| o.2),
                unit: "x".into(),
                text: "t".into(),
                ..Ours::default()
            },
            rule: "r".into(),
            rule_data: crate::results::Rule::Report,
            tolerance: "t".into(),
            why: "w".into(),
            beside: None,
            experiment: "parsa-x".into(),
            headline: false,
            defect: None,
            confirms: None,
            untested: None,
            assumptions: Vec::new(),
            setting: None,
            differs: None,
            root: None,
        }
    }

    fn study(claims: Vec<ClaimResult>) -> StudyResults {
        StudyResults {
            machine: crate::bench::MachineInfo::detect(),
            profile: Profile::Quick,
            parcrypt_version: "test".into(),
            claims,
            experiments: vec![],
            resumed: vec![],
            elapsed_s: 0.0,
            machines: None,
        }
    }

    #[test]
    fn flips_are_counted_apart_from_moves_to_inconclusive() {
        use Verdict::*;
        let f = Some((1.0, 0.9, 1.1));
        let a = study(vec![
            claim("a", Holds, f),
            claim("b", Holds, f),
            claim("c", DoesNotHold, f),
            claim("d", Holds, f),
            claim("x", Holds, f),
        ]);
        let b = study(vec![
            claim("a", Holds, f),
            claim("b", Inconclusive, f),
            claim("c", Holds, Some((2.0, 1.8, 2.2))),
            claim("d", Holds, None),
            claim("y", Holds, f),
        ]);
        let d = diff(&a, &b, ("A", "B"));
        assert_eq!((d.compared, d.verdicts_changed, d.flips()), (4, 2, 1));
        let changes: Vec<&ClaimDiff> = d.changes().collect();
        assert!(changes[1].flip && !changes[0].flip);
        assert_eq!(
            (d.only_first.clone(), d.only_second.clone()),
            (vec!["x".to_string()], vec!["y".to_string()])
        );
        let text = d.render(false);
        assert!(text.starts_with("first : A — quick profile, "), "{text}");
        assert!(
            text.contains(
                "FLIP c: does-not-hold (the whole interval violates the rule) -> holds (the whole interval satisfies the rule)"
            ),
            "{text}"
        );
        assert!(
            text.contains("ours: 1 [0.9, 1.1] x | 2 [1.8, 2.2] x"),
            "{text}"
        );
        assert!(text.contains("change: ×2 ["), "{text}");
        assert!(!text.contains("numeric change of every claim"));
        assert!(text.ends_with(
            "2 of 4 claims differ in verdict; 1 moved between holds and does-not-hold; 1 figures changed beyond their intervals' noise\n"
        ), "{text}");
        // --all lists every claim's change, a claim without a figure says so.
        let all = d.render(true);
        assert!(all.contains("numeric change of every claim"), "{all}");
        assert!(all.contains("no figure to compare"), "{all}");
        assert_eq!(diff(&a, &a, ("A", "A")).verdicts_changed, 0);
    }

    #[test]
    fn the_change_interval_combines_both_intervals_by_mover() {
        // Symmetric on the log scale: ln half-widths 0.1 and 0.2 give sqrt(0.05).
        let e = f64::exp;
        let a = Figure {
            value: 1.0,
            low: e(-0.1),
            high: e(0.1),
        };
        let b = Figure {
            value: 2.0,
            low: 2.0 * e(-0.2),
            high: 2.0 * e(0.2),
        };
        let c = NumericChange::between(a, b);
        let h = 0.05f64.sqrt();
        assert_eq!(c.kind, ChangeKind::Ratio);
        assert!((c.value - 2.0).abs() < 1e-12);
        assert!((c.low - 2.0 * e(-h)).abs() < 1e-12 && (c.high - 2.0 * e(h)).abs() < 1e-12);
        assert!(!c.within_noise());
        // Exact figures: no width; the same figure: ratio 1, within noise.
        let exact = Figure {
            value: 3.0,
            low: 3.0,
            high: 3.0,
        };
        let same = NumericChange::between(exact, exact);
        assert_eq!((same.value, same.low, same.high), (1.0, 1.0, 1.0));
        assert!(same.within_noise());
        // A figure at or below zero: the difference, with the same rule on the plain scale.
        let neg = Figure {
            value: -1.0,
            low: -1.3,
            high: -0.6,
        };
        let d = NumericChange::between(neg, exact);
        assert_eq!(d.kind, ChangeKind::Difference);
        assert_eq!(d.value, 4.0);
        assert!((d.low - (4.0 - 0.4)).abs() < 1e-12 && (d.high - (4.0 + 0.3)).abs() < 1e-12);
        assert!(d.describe().starts_with("Δ +4"), "{}", d.describe());
    }

    #[test]
    fn parts_change_by_name_and_old_results_without_reasons_still_compare() {
        let part = |name: &str, v: f64| Part {
            name: name.into(),
            value: v,
            ci_low: v * 0.9,
            ci_high: v * 1.1,
            unit: "y".into(),
        };
        let mut a = claim("p", Verdict::Holds, None);
        a.ours.parts = vec![part("EM", 1.0), part("SM", 2.0)];
        a.reason = None;
        let mut b = claim("p", Verdict::Holds, None);
        b.ours.parts = vec![part("SM", 2.0), part("EM", 1.5)];
        let d = diff(&study(vec![a]), &study(vec![b]), ("old", "new"));
        let c = &d.claims[0];
        assert_eq!(c.parts.len(), 2);
        assert_eq!(c.parts[0].0, "EM");
        assert!((c.parts[0].1.value - 1.5).abs() < 1e-12);
        assert!(c.parts[1].1.within_noise());
        assert_eq!(c.before.reason, None);
        let text = d.render(true);
        assert!(text.contains("EM ×1.5"), "{text}");
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(
            json["claims"][0]["before"]["reason"],
            serde_json::Value::Null
        );
        assert_eq!(json["claims"][0]["after"]["reason"], "interval-inside");
        assert_eq!(json["first"]["path"], "old");
    }
}
