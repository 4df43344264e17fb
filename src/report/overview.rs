//! What the report opens with, before any paper's detail: one table across the five papers
//! of each paper's central claims (those its abstract or conclusion states), with our figure,
//! the setting it was obtained at and the verdict, then the totals across papers — verdicts at
//! the paper's setting, orderings at our scale, modelled verdicts, the papers' own
//! inconsistencies counted by root cause, and what is not testable here. A reader who stops
//! after the first screen knows what was reproduced, of which paper, and how strongly.
use super::findings::{figure, reason_words};
use super::papers::PAPERS;
use crate::results::{ClaimResult, Kind, Reason, StudyResults, Verdict, short};
use std::collections::BTreeSet;

/// One central claim, as the overview table shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The claim's id (its anchor in report.html).
    pub id: String,
    /// The paper's short name.
    pub paper: &'static str,
    /// The paper's table, figure or section.
    pub reference: String,
    /// The claim in a sentence.
    pub claim: String,
    /// The paper's figure, as printed, with a time reduction also read as a speedup.
    pub theirs: String,
    /// Our figure with its interval, a time reduction also read as a speedup.
    pub ours: String,
    /// How and where it was obtained: "measured at the paper's setting", "at our scale: …",
    /// "modelled (…)", "the paper's own numbers", ….
    pub setting: String,
    /// The verdict in words ("ordering seen at our scale" for a scaled holds).
    pub verdict: String,
    /// The verdict's CSS class (its results.json name).
    pub class: &'static str,
}

/// `pct` % less time as a speedup: "4.8× (79 % less time)".
pub fn speedup_words(pct: f64) -> String {
    if pct >= 100.0 || !pct.is_finite() {
        return format!("{pct:.0} % less time");
    }
    format!("{:.2}× ({pct:.0} % less time)", 1.0 / (1.0 - pct / 100.0))
}

/// Whether `c`'s figure is a time reduction in % (1 − t(n) / t(1)), which reads as a speedup.
fn is_time_reduction(c: &ClaimResult) -> bool {
    c.ours.unit.trim() == "%" && c.rule.starts_with("time reduction")
}

/// Our figure of `c`, a time reduction with its interval also read as a speedup.
fn ours(c: &ClaimResult) -> String {
    match (is_time_reduction(c), c.ours.value) {
        (true, Some(v)) => {
            let iv = match (c.ours.ci_low, c.ours.ci_high) {
                (Some(lo), Some(hi)) if lo != hi => format!(" [{}, {}] %", short(lo), short(hi)),
                _ => String::new(),
            };
            format!("{}{iv}", speedup_words(v))
        }
        _ => figure(c),
    }
}

/// The paper's figure of `c`, a single time reduction also read as a speedup.
fn theirs(c: &ClaimResult) -> String {
    match (is_time_reduction(c), c.paper_values.as_slice()) {
        (true, [v]) => format!("{} — {}", speedup_words(*v), c.paper),
        _ => c.paper.clone(),
    }
}

/// A model's name in a few words: up to its first colon or parenthesis.
fn model_words(model: &str) -> String {
    let cut = model.find([':', '(']).unwrap_or(model.len());
    let words = model[..cut].trim();
    if words.chars().count() > 60 {
        format!("{}…", words.chars().take(60).collect::<String>())
    } else {
        words.to_string()
    }
}

/// How and where `c`'s evidence was obtained.
pub fn setting_words(c: &ClaimResult) -> String {
    match c.kind {
        Kind::PaperCheck => "the paper's own numbers".into(),
        Kind::ByConstruction => "fixed by construction".into(),
        Kind::NotTestable => "not testable here".into(),
        _ if c.verdict == Verdict::NotTestable => "not testable here".into(),
        Kind::Measured | Kind::Modelled => {
            let how = match (c.kind, &c.model) {
                (Kind::Modelled, Some(m)) => format!("modelled ({})", model_words(m)),
                (Kind::Modelled, None) => "modelled".into(),
                _ => "measured".into(),
            };
            if c.is_scaled() {
                format!(
                    "{how} at our scale: {}",
                    c.differs
                        .as_deref()
                        .or(c.untested.as_deref())
                        .unwrap_or("a setting other than the paper's")
                )
            } else {
                format!("{how} at the paper's setting")
            }
        }
    }
}

/// The verdict of `c` in the overview's words: a scaled holds is an ordering seen at our
/// scale, a scaled refutation an ordering not seen there; an undecided verdict says why.
pub fn verdict_words(c: &ClaimResult) -> String {
    let scaled = c.is_scaled();
    match (scaled, c.verdict, &c.reason) {
        (true, Verdict::Holds, _) => "ordering seen at our scale".into(),
        (_, Verdict::Inconclusive, Some(Reason::ScaledSetting)) => {
            "ordering not seen at our scale; the paper's setting untested".into()
        }
        (_, v @ (Verdict::Inconclusive | Verdict::NotTestable), _) => {
            format!("{} ({})", v.label(), reason_words(c))
        }
        (_, v, _) => v.label().into(),
    }
}

/// The overview table's rows: every paper's central claims, papers in report order.
pub fn rows(study: &StudyResults) -> Vec<Row> {
    PAPERS
        .iter()
        .flat_map(|p| {
            study
                .claims
                .iter()
                .filter(move |c| c.paper_id == p.id && c.headline)
                .map(move |c| Row {
                    id: c.id.clone(),
                    paper: p.short,
                    reference: c.reference.clone(),
                    claim: c.claim.clone(),
                    theirs: theirs(c),
                    ours: ours(c),
                    setting: setting_words(c),
                    verdict: verdict_words(c),
                    class: c.verdict.name(),
                })
        })
        .collect()
}

/// The study's totals across papers, by the strength of their evidence.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Totals {
    /// Measured at the paper's setting: holds, does not hold, inconclusive.
    pub paper_setting: [usize; 3],
    /// Measured or modelled at our scale: ordering seen (holds), not seen (scaled-setting),
    /// inconclusive for another reason.
    pub scaled: [usize; 3],
    /// Modelled at the paper's setting: holds, does not hold, inconclusive.
    pub modelled: [usize; 3],
    /// Root causes of the claims that do not hold (measured or modelled).
    pub does_not_hold_roots: usize,
    /// Paper-checks: consistent checks, inconsistent checks, and the root causes those rest on.
    pub paper_checks: [usize; 3],
    /// Not testable here (any kind).
    pub not_testable: usize,
    /// By construction.
    pub by_construction: usize,
}

impl Totals {
    /// The totals of `study`.
    pub fn of(study: &StudyResults) -> Self {
        let mut t = Totals::default();
        let slot = |v: Verdict| match v {
            Verdict::Holds => Some(0),
            Verdict::DoesNotHold => Some(1),
            Verdict::Inconclusive => Some(2),
            _ => None,
        };
        let mut dnh_roots = BTreeSet::new();
        let mut check_roots = BTreeSet::new();
        for c in &study.claims {
            match (c.kind, c.verdict) {
                (_, Verdict::NotTestable) => t.not_testable += 1,
                (_, Verdict::ByConstruction) => t.by_construction += 1,
                (Kind::PaperCheck, Verdict::Consistent) => t.paper_checks[0] += 1,
                (Kind::PaperCheck, Verdict::Inconsistent) => {
                    t.paper_checks[1] += 1;
                    check_roots.insert(format!("{}/{}", c.paper_id, c.root_id()));
                }
                (Kind::Measured | Kind::Modelled, v) => {
                    let Some(i) = slot(v) else { continue };
                    if v == Verdict::DoesNotHold {
                        dnh_roots.insert(format!("{}/{}", c.paper_id, c.root_id()));
                    }
                    if c.is_scaled() {
                        let i = match (v, &c.reason) {
                            (Verdict::Holds, _) => 0,
                            (_, Some(Reason::ScaledSetting)) => 1,
                            _ => 2,
                        };
                        t.scaled[i] += 1;
                    } else if c.kind == Kind::Modelled {
                        t.modelled[i] += 1;
                    } else {
                        t.paper_setting[i] += 1;
                    }
                }
                _ => {}
            }
        }
        t.does_not_hold_roots = dnh_roots.len();
        t.paper_checks[2] = check_roots.len();
        t
    }

    /// The totals as lines for people: (what, the counts in words).
    pub fn lines(&self) -> Vec<(String, String)> {
        let [h, d, i] = self.paper_setting;
        let [ms, mn, mi] = self.scaled;
        let [oh, od, oi] = self.modelled;
        let [cc, ci, cr] = self.paper_checks;
        vec![
            (
                "measured at the paper's setting".into(),
                format!("{h} hold, {d} do not hold, {i} inconclusive"),
            ),
            (
                "orderings at our scale (scaled settings: never a refutation)".into(),
                format!("{ms} seen, {mn} not seen, {mi} inconclusive"),
            ),
            (
                "modelled at the paper's setting (refuting only beyond the model's own error)"
                    .into(),
                format!("{oh} hold, {od} do not hold, {oi} inconclusive"),
            ),
            (
                "what does not hold, measured or modelled".into(),
                format!(
                    "{} claim{} from {} root cause{}",
                    d + od,
                    if d + od == 1 { "" } else { "s" },
                    self.does_not_hold_roots,
                    if self.does_not_hold_roots == 1 {
                        ""
                    } else {
                        "s"
                    }
                ),
            ),
            (
                "the papers' own numbers (paper-checks)".into(),
                format!(
                    "{cc} consistent; {ci} inconsistent checks from {cr} root cause{}",
                    if cr == 1 { "" } else { "s" }
                ),
            ),
            (
                "not testable here".into(),
                format!(
                    "{} (and {} fixed by construction)",
                    self.not_testable, self.by_construction
                ),
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::claim;
    use crate::results::{Ours, Setting};

    #[test]
    fn a_time_reduction_reads_as_a_speedup() {
        assert_eq!(speedup_words(79.0), "4.76× (79 % less time)");
        assert_eq!(speedup_words(47.0), "1.89× (47 % less time)");
    }

    #[test]
    fn totals_keep_the_papers_setting_apart_from_our_scale_and_count_roots() {
        let mut scaled_seen = claim("a-1", Kind::Measured, Verdict::Holds, Ours::default());
        scaled_seen.setting = Some(Setting::Scaled);
        let mut scaled_not = claim(
            "a-2",
            Kind::Measured,
            Verdict::Inconclusive,
            Ours::default(),
        );
        scaled_not.setting = Some(Setting::Scaled);
        scaled_not.reason = Some(Reason::ScaledSetting);
        let mut refuted = claim("a-3", Kind::Measured, Verdict::DoesNotHold, Ours::default());
        refuted.setting = Some(Setting::Paper);
        refuted.root = Some("r".into());
        let mut refuted2 = claim("a-4", Kind::Modelled, Verdict::DoesNotHold, Ours::default());
        refuted2.root = Some("r".into());
        let mut check = claim(
            "a-5",
            Kind::PaperCheck,
            Verdict::Inconsistent,
            Ours::default(),
        );
        check.root = Some("r".into());
        let mut study = crate::report::tests::study();
        study.claims = vec![scaled_seen, scaled_not, refuted, refuted2, check];
        let t = Totals::of(&study);
        assert_eq!(t.scaled, [1, 1, 0]);
        assert_eq!(t.paper_setting, [0, 1, 0]);
        assert_eq!(t.modelled, [0, 1, 0]);
        assert_eq!(t.does_not_hold_roots, 1);
        assert_eq!(t.paper_checks, [0, 1, 1]);
        assert_eq!(
            verdict_words(&study.claims[0]),
            "ordering seen at our scale"
        );
        assert!(verdict_words(&study.claims[1]).starts_with("ordering not seen"));
    }
}
