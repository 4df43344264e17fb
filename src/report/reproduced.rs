//! What the report opens with, paper by paper: what was reproduced. For each paper its headline
//! claims (those its abstract or conclusion states, one line each: the verdict, our figure with
//! its interval, the paper's figure), then its measured and modelled claims that do not hold,
//! then its own inconsistencies grouped by defect (one finding per `defect` id, listing the
//! checks it touches; an inconsistent paper-check without one is a defect of its own), then its
//! inconclusive claims by cause. Also how a verdict that confirms only an ordering is worded,
//! and the verdict words explained once ([`GLOSSARY`]).
use super::findings::{Cause, Group, figure, reason_words, sentence};
use super::papers::{PAPERS, Paper};
use crate::results::{ClaimResult, Confirms, Kind, StudyResults, Verdict};

/// One defect of a paper: the paper-checks that rest on it.
pub struct Defect<'a> {
    /// Its id (`defect` in results.json, or the claim's id for a check without one).
    pub id: String,
    /// The anchor of its line in the findings, e.g. "defect-crsa-table2".
    pub anchor: String,
    /// The checks with that id, in registry order (at least one inconsistent).
    pub claims: Vec<&'a ClaimResult>,
}

impl Defect<'_> {
    /// How many of its checks are inconsistent.
    pub fn inconsistent(&self) -> usize {
        self.claims
            .iter()
            .filter(|c| c.verdict == Verdict::Inconsistent)
            .count()
    }

    /// The first inconsistent check: the one the finding quotes.
    pub fn first(&self) -> &ClaimResult {
        self.claims
            .iter()
            .find(|c| c.verdict == Verdict::Inconsistent)
            .unwrap_or(&self.claims[0])
    }

    /// "Defect table2 touches 3 checks, all inconsistent", "Defect garbled-i7 touches 1
    /// check", or "The check" for an inconsistent check without a defect id.
    pub fn touches(&self) -> String {
        let (n, bad) = (self.claims.len(), self.inconsistent());
        if n == 1 && self.id == self.claims[0].id {
            return "The check".into();
        }
        let what = match (n, bad) {
            (1, _) => "1 check".into(),
            (n, b) if b == n => format!("{n} checks, all inconsistent"),
            (n, b) => format!("{n} checks ({b} inconsistent)"),
        };
        format!("Defect {} touches {what}", self.id)
    }
}

/// The paper's defects among `claims`: paper-checks grouped by their `defect` id, and each
/// inconsistent check without one on its own; only groups with an inconsistent check.
pub fn defects<'a>(claims: &[&'a ClaimResult]) -> Vec<Defect<'a>> {
    let mut out: Vec<Defect<'a>> = Vec::new();
    for &c in claims.iter().filter(|c| c.kind == Kind::PaperCheck) {
        let id = match (&c.defect, c.verdict) {
            (Some(id), _) => id.clone(),
            (None, Verdict::Inconsistent) => c.id.clone(),
            _ => continue,
        };
        match out.iter_mut().find(|d| d.id == id) {
            Some(d) => d.claims.push(c),
            None => out.push(Defect {
                anchor: if id.starts_with(&c.paper_id) {
                    format!("defect-{id}")
                } else {
                    format!("defect-{}-{id}", c.paper_id)
                },
                id,
                claims: vec![c],
            }),
        }
    }
    out.retain(|d| d.inconsistent() > 0);
    out
}

/// What the findings say of one paper.
pub struct PaperFindings<'a> {
    /// The paper.
    pub paper: &'static Paper,
    /// `(verdict, count)` for every verdict with a claim.
    pub counts: Vec<(Verdict, usize)>,
    /// Its headline claims, in registry order.
    pub headline: Vec<&'a ClaimResult>,
    /// Its measured and modelled claims that do not hold.
    pub does_not_hold: Vec<&'a ClaimResult>,
    /// Its own inconsistencies, one per defect.
    pub defects: Vec<Defect<'a>>,
    /// Its inconclusive claims, by cause (anchors `<seed>-inconclusive-<cause>`).
    pub inconclusive: Vec<Group<'a>>,
}

impl<'a> PaperFindings<'a> {
    /// The findings of every paper with claims or experiments in `study`, in report order.
    pub fn of(study: &'a StudyResults) -> Vec<Self> {
        PAPERS
            .iter()
            .filter_map(|paper| {
                let claims: Vec<&ClaimResult> = study
                    .claims
                    .iter()
                    .filter(|c| c.paper_id == paper.id)
                    .collect();
                let has_experiments = study.experiments.iter().any(|e| e.paper_id == paper.id);
                (has_experiments || !claims.is_empty()).then(|| Self::of_paper(paper, &claims))
            })
            .collect()
    }

    fn of_paper(paper: &'static Paper, claims: &[&'a ClaimResult]) -> Self {
        let counts = Verdict::ALL
            .iter()
            .map(|&v| (v, claims.iter().filter(|c| c.verdict == v).count()))
            .filter(|(_, n)| *n > 0)
            .collect();
        let inconclusive = Cause::ALL
            .iter()
            .filter_map(|&cause| {
                let of: Vec<&ClaimResult> = claims
                    .iter()
                    .copied()
                    .filter(|c| c.verdict == Verdict::Inconclusive)
                    .filter(|c| Cause::of(c.reason.as_ref()) == cause)
                    .collect();
                (!of.is_empty()).then(|| Group {
                    anchor: format!("{}-inconclusive-{}", paper.id, cause.name()),
                    cause,
                    claims: of,
                })
            })
            .collect();
        Self {
            paper,
            counts,
            headline: claims.iter().copied().filter(|c| c.headline).collect(),
            does_not_hold: claims
                .iter()
                .copied()
                .filter(|c| c.verdict == Verdict::DoesNotHold)
                .collect(),
            defects: defects(claims),
            inconclusive,
        }
    }

    /// "62 claims: 10 holds, …, 6 defects (13 inconsistent checks), …": inconsistent
    /// paper-checks are counted as the defects they rest on.
    pub fn counts_text(&self) -> String {
        let total: usize = self.counts.iter().map(|(_, n)| n).sum();
        let parts: Vec<String> = self
            .counts
            .iter()
            .map(|&(v, n)| match v {
                Verdict::Inconsistent => format!(
                    "{} defect{} ({n} inconsistent check{})",
                    self.defects.len(),
                    plural(self.defects.len()),
                    plural(n)
                ),
                _ => format!("{n} {}", v.label()),
            })
            .collect();
        format!("{total} claim{}: {}", plural(total), parts.join(", "))
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The verdict of a headline line in words: the verdict, or for a claim judged at a scaled
/// setting that confirms only an ordering, "the ordering holds at 2 threads; the paper's
/// −40 % at 4 threads is not tested here"; an undecided verdict with its reason.
pub fn verdict_words(c: &ClaimResult) -> String {
    let ordering = c.confirms == Some(Confirms::Ordering);
    let at = match c.ours.threads {
        0 => "here".to_string(),
        1 => "at 1 thread".to_string(),
        t => format!("at {t} threads"),
    };
    let mut words = match (ordering, c.verdict) {
        (true, Verdict::Holds) => format!("the ordering holds {at}"),
        (true, Verdict::DoesNotHold) => format!("the ordering does not hold {at}"),
        (_, v @ (Verdict::Inconclusive | Verdict::NotTestable)) => {
            format!("{} ({})", v.label(), reason_words(c))
        }
        (_, v) => v.label().to_string(),
    };
    if let (true, Some(untested)) = (ordering, &c.untested) {
        words.push_str("; ");
        words.push_str(untested);
    }
    words
}

/// The rest of a headline line: the claim, our figure with its interval (where there is one)
/// and the paper's, e.g. "PaRSA-2 is about 47 % faster than SeRSA. Ours 47.9 % [46.1, 48.9]
/// (10 rounds, 2 threads); the paper's: 47 %." A paper-check's figure is the paper's own
/// arithmetic, and says so.
pub fn headline_text(c: &ClaimResult) -> String {
    let o = &c.ours;
    let has = o.value.is_some() || !o.parts.is_empty();
    let figures = match (c.kind, has) {
        (Kind::PaperCheck, true) => {
            format!("The paper's own numbers give {}; it states", figure(c))
        }
        (_, true) => format!("Ours {}{}; the paper's:", figure(c), super::detail(o)),
        (_, false) => "No figure of ours here; the paper's:".into(),
    };
    format!(
        "{} {figures} {}.",
        sentence(&c.claim),
        c.paper.trim_end_matches('.')
    )
}

/// The verdict words, each explained once.
pub const GLOSSARY: [(&str, &str); 9] = [
    (
        "holds",
        "the whole 95 % interval of our figure (for a model, its whole range over its assumptions) satisfies the claim's rule, and does so with the rounds set aside kept as well",
    ),
    (
        "does not hold",
        "the whole interval violates the rule, with the rounds set aside kept as well",
    ),
    (
        "inconclusive",
        "neither shown nor refuted here: the interval straddles the rule, lies within an ordering's noise band, the cores were busy or their state unclear while a result load could cause was measured, or the verdict changes with the rounds set aside kept",
    ),
    (
        "consistent",
        "a paper-check: arithmetic on the paper's own numbers agrees with what the paper states (it says nothing of whether the result is reproduced)",
    ),
    (
        "inconsistent",
        "a paper-check whose arithmetic on the paper's own numbers disagrees with what the paper states; checks resting on the same cell or pair of figures are one defect",
    ),
    (
        "by construction",
        "fixed by how the paper's system is built here, so no measurement could move it; never counted as holding",
    ),
    (
        "not testable here",
        "this machine or profile cannot test it (too few hardware threads, no power meter, sizes only --full runs, a platform we do not have); the claim names what would",
    ),
    (
        "confirms ordering",
        "judged at a scaled setting (2 threads against a bound derived from the paper's 4, say): the verdict is about the ordering the paper's figure implies (A faster than B), and the paper's figure itself is not tested here, as its line says",
    ),
    (
        "confirms figure",
        "judged at the paper's setting, or one that preserves it: the verdict is about the paper's figure itself",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::tests::claim;
    use crate::results::Ours;

    fn check(id: &str, verdict: Verdict, defect: Option<&str>) -> ClaimResult {
        let mut c = claim(id, Kind::PaperCheck, verdict, Ours::default());
        c.defect = defect.map(String::from);
        c
    }

    #[test]
    fn checks_on_one_defect_are_one_finding_and_a_check_without_one_is_its_own() {
        let claims = [
            check("a", Verdict::Inconsistent, Some("table2")),
            check("b", Verdict::Consistent, None),
            check("c", Verdict::Inconsistent, Some("table2")),
            check("d", Verdict::Inconsistent, None),
            check("e", Verdict::Consistent, Some("garbled")),
            check("f", Verdict::Inconsistent, Some("table2")),
        ];
        let refs: Vec<&ClaimResult> = claims.iter().collect();
        let found = defects(&refs);
        let ids: Vec<(&str, usize)> = found
            .iter()
            .map(|d| (d.id.as_str(), d.claims.len()))
            .collect();
        // A defect whose checks are all consistent is no finding.
        assert_eq!(ids, [("table2", 3), ("d", 1)]);
        assert_eq!(
            found[0].touches(),
            "Defect table2 touches 3 checks, all inconsistent"
        );
        assert_eq!(found[0].anchor, "defect-parsa-table2");
        assert_eq!(found[1].touches(), "The check");
        assert_eq!(found[1].anchor, "defect-parsa-d");
    }

    #[test]
    fn a_verdict_that_confirms_an_ordering_says_so_and_what_is_not_tested() {
        let ours = Ours {
            value: Some(-20.6),
            ci_low: Some(-22.0),
            ci_high: Some(-19.0),
            unit: "%".into(),
            runs: 10,
            threads: 2,
            text: "-20.6 %".into(),
            parts: Vec::new(),
        };
        let mut c = claim("slice", Kind::Measured, Verdict::Holds, ours);
        c.paper = "-40 % (4 threads)".into();
        assert_eq!(verdict_words(&c), "holds");
        c.confirms = Some(Confirms::Ordering);
        c.untested = Some("the paper's −40 % at 4 threads is not tested here".into());
        assert_eq!(
            verdict_words(&c),
            "the ordering holds at 2 threads; the paper's −40 % at 4 threads is not tested here"
        );
        assert_eq!(
            headline_text(&c),
            "claim slice. Ours -20.6 % [-22, -19] (10 rounds, 2 threads); the paper's: -40 % (4 threads)."
        );
        c.verdict = Verdict::Inconclusive;
        c.reason = Some(crate::results::Reason::SetAsideDecides);
        assert!(
            verdict_words(&c).starts_with(
                "inconclusive (the verdict changes with the rounds set aside kept); the paper's"
            ),
            "{}",
            verdict_words(&c)
        );
    }
}
