//! What the report opens with, worked out once for both report.md and report.html: what was
//! reproduced, paper by paper ([`super::reproduced`]: its headline claims, what does not hold,
//! its own inconsistencies by defect, what is inconclusive and why: its interval straddles the
//! rule or lies within an ordering's noise band, the cores were busy or unclear, a model's
//! range straddles it, setting rounds aside decided it), the claims not testable here by
//! cause, and the counts per kind and verdict, each with the anchor of the list of the claims
//! it counts.
use super::reproduced::PaperFindings;
use crate::results::{ClaimResult, Kind, Reason, StudyResults, Verdict, short};

/// Why a claim was not decided, as the findings group inconclusive and not-testable claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cause {
    /// The 95 % interval straddles the rule's threshold.
    Straddles,
    /// The 95 % interval lies wholly inside an ordering's noise band.
    WithinNoise,
    /// Load could have caused the result and the cores were busy or their state unclear, or
    /// the CPUs apart.
    Cores,
    /// A model's range over its assumptions straddles the rule.
    ModelRange,
    /// The verdict changes with the rounds set aside kept.
    SetAside,
    /// The claim needs more hardware threads than the evidence ran on.
    NeedsThreads,
    /// No figure here: hardware, a missing tool, or sizes this profile does not run.
    NoFigure,
    /// Not testable as registered (the claim names the machine that would test it).
    Registered,
    /// Anything else (or no reason recorded).
    Other,
}

impl Cause {
    /// Every cause, in report order.
    pub const ALL: [Cause; 9] = [
        Cause::Straddles,
        Cause::WithinNoise,
        Cause::Cores,
        Cause::ModelRange,
        Cause::SetAside,
        Cause::NeedsThreads,
        Cause::NoFigure,
        Cause::Registered,
        Cause::Other,
    ];

    /// The cause behind `reason`.
    pub fn of(reason: Option<&Reason>) -> Cause {
        match reason {
            Some(Reason::IntervalStraddles) => Cause::Straddles,
            Some(Reason::WithinNoise) => Cause::WithinNoise,
            Some(
                Reason::CoresBusy
                | Reason::CoresUnclear
                | Reason::LoadCouldExplain
                | Reason::CpusApart,
            ) => Cause::Cores,
            Some(Reason::ModelRangeStraddles) => Cause::ModelRange,
            Some(Reason::SetAsideDecides) => Cause::SetAside,
            Some(Reason::NeedsThreads(_)) => Cause::NeedsThreads,
            Some(Reason::NoFigure | Reason::NotRunInProfile) => Cause::NoFigure,
            Some(Reason::NotTestable) => Cause::Registered,
            _ => Cause::Other,
        }
    }

    /// For people, as a heading.
    pub fn label(self) -> &'static str {
        match self {
            Cause::Straddles => "the interval straddles the rule",
            Cause::WithinNoise => {
                "the ordering lies within its noise band: too small to tell on this machine"
            }
            Cause::Cores => {
                "the cores were busy, their state unclear or the CPUs apart, and load could have caused the result"
            }
            Cause::ModelRange => "the model's range over its assumptions straddles the rule",
            Cause::SetAside => {
                "setting rounds aside would decide it: with them kept the verdict differs"
            }
            Cause::NeedsThreads => "it needs more hardware threads than the evidence ran on",
            Cause::NoFigure => {
                "no figure here (hardware, a missing tool, or sizes this profile does not run)"
            }
            Cause::Registered => {
                "not testable as registered (the claim names the machine that would)"
            }
            Cause::Other => "other reasons",
        }
    }

    /// Its name in anchors, e.g. "cores".
    pub fn name(self) -> &'static str {
        match self {
            Cause::Straddles => "straddles",
            Cause::WithinNoise => "within-noise",
            Cause::Cores => "cores",
            Cause::ModelRange => "model-range",
            Cause::SetAside => "set-aside",
            Cause::NeedsThreads => "needs-threads",
            Cause::NoFigure => "no-figure",
            Cause::Registered => "registered",
            Cause::Other => "other",
        }
    }
}

/// The claims with `verdict`, grouped by cause (causes without claims left out).
fn by_cause(study: &StudyResults, verdict: Verdict) -> Vec<Group<'_>> {
    Cause::ALL
        .iter()
        .filter_map(|&cause| {
            let claims: Vec<&ClaimResult> = study
                .claims
                .iter()
                .filter(|c| c.verdict == verdict && Cause::of(c.reason.as_ref()) == cause)
                .collect();
            (!claims.is_empty()).then(|| Group {
                anchor: format!("{}-{}", verdict.name(), cause.name()),
                cause,
                claims,
            })
        })
        .collect()
}

/// Undecided claims of one cause.
pub struct Group<'a> {
    /// Why they were not decided.
    pub cause: Cause,
    /// The anchor of their list, e.g. "inconclusive-cores".
    pub anchor: String,
    /// The claims, in registry order.
    pub claims: Vec<&'a ClaimResult>,
}

/// How many claims `groups` hold.
pub fn total(groups: &[Group]) -> usize {
    groups.iter().map(|g| g.claims.len()).sum()
}

/// "5 the interval straddles the rule; 2 …", from groups.
pub fn split(groups: &[Group]) -> String {
    groups
        .iter()
        .map(|g| format!("{} {}", g.claims.len(), g.cause.label()))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The findings of a study.
pub struct Findings<'a> {
    /// Each paper with claims or experiments in this study: what was reproduced.
    pub papers: Vec<PaperFindings<'a>>,
    /// Claims not testable here, by cause.
    pub not_testable: Vec<Group<'a>>,
    /// Per kind with claims: the count of each verdict.
    pub counts: Vec<(Kind, Vec<usize>)>,
}

impl<'a> Findings<'a> {
    /// The findings of `study`.
    pub fn of(study: &'a StudyResults) -> Self {
        let counts = Kind::ALL
            .iter()
            .map(|&k| (k, Verdict::ALL.iter().map(|&v| study.count(k, v)).collect()))
            .filter(|(_, n): &(Kind, Vec<usize>)| n.iter().any(|&x| x > 0))
            .collect();
        Self {
            papers: PaperFindings::of(study),
            not_testable: by_cause(study, Verdict::NotTestable),
            counts,
        }
    }
}

/// `s` with its first letter in upper case (the rest left as it is).
pub fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The anchor of the list of claims of `kind` with `verdict`, e.g. "measured-does-not-hold".
pub fn group_anchor(kind: Kind, verdict: Verdict) -> String {
    format!("{}-{}", kind.name(), verdict.name())
}

/// A claim's figure in a few words: the value with its interval and unit, or its parts, or
/// its text.
pub fn figure(c: &ClaimResult) -> String {
    let o = &c.ours;
    let unit = |u: &str| {
        if u.is_empty() {
            String::new()
        } else {
            format!(" {u}")
        }
    };
    if let Some(v) = o.value {
        let mut s = format!("{}{}", short(v), unit(&o.unit));
        match (o.ci_low, o.ci_high) {
            (Some(lo), Some(hi)) if lo != hi => {
                s.push_str(&format!(" [{}, {}]", short(lo), short(hi)));
            }
            _ => {}
        }
        return s;
    }
    if !o.parts.is_empty() {
        let mut parts: Vec<String> = o
            .parts
            .iter()
            .take(4)
            .map(|p| {
                let iv = if p.ci_low != p.ci_high {
                    format!(" [{}, {}]", short(p.ci_low), short(p.ci_high))
                } else {
                    String::new()
                };
                format!("{} {}{}{iv}", p.name, short(p.value), unit(&p.unit))
            })
            .collect();
        if o.parts.len() > 4 {
            parts.push(format!("… ({} in all)", o.parts.len()));
        }
        return parts.join("; ");
    }
    o.text.clone()
}

/// A claim as a sentence: ending in one full stop.
pub fn sentence(claim: &str) -> String {
    format!("{}.", claim.trim_end().trim_end_matches('.'))
}

/// Why the verdict follows, in words ("no reason recorded" for older results).
pub fn reason_words(c: &ClaimResult) -> String {
    c.reason
        .as_ref()
        .map_or_else(|| "no reason recorded".into(), Reason::label)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn causes_group_the_reasons_of_inconclusive_verdicts() {
        assert_eq!(
            Cause::of(Some(&Reason::IntervalStraddles)),
            Cause::Straddles
        );
        assert_eq!(Cause::of(Some(&Reason::CoresBusy)), Cause::Cores);
        assert_eq!(Cause::of(Some(&Reason::CoresUnclear)), Cause::Cores);
        assert_eq!(
            Cause::of(Some(&Reason::ModelRangeStraddles)),
            Cause::ModelRange
        );
        assert_eq!(Cause::of(None), Cause::Other);
        assert_eq!(
            Cause::of(Some(&Reason::NeedsThreads(36))),
            Cause::NeedsThreads
        );
        assert_eq!(
            group_anchor(Kind::PaperCheck, Verdict::DoesNotHold),
            "paper-check-does-not-hold"
        );
    }
}
