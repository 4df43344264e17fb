//! The study's report: Markdown for reading in a terminal or a repository ([`markdown`]), and
//! one self-contained HTML file (inline SVG charts drawn by [`plot`], inline CSS, no scripts,
//! no network; tests/report_browser.rs checks it in Chromium) rendered from a template. Both
//! open with the findings ([`findings`]): the papers, every claim that does not hold or is
//! inconsistent and every inconclusive one with its reason, the counts with links to the
//! claims they count. Then the machine, every claim by kind and verdict (ours with its
//! interval, the rule, the verdict), then each seed paper's section: its experiments with how
//! sure they are, charts, a chart of how each claim was decided, the claims, the data.
//!
//! The report reads the study's plain data model ([`crate::results`]) and nothing else
//! of the study, which never imports the report.
pub mod findings;
mod markdown;
pub mod papers;
pub mod plot;

pub use markdown::markdown;

use crate::error::{Error, Result};
use crate::io::write_atomic;
use crate::results::{
    ClaimResult, ExperimentResult, Kind, Ours, StudyResults, Verdict, chart_csv_name, short,
};
use findings::{Findings, figure, group_anchor, reason_words};
use minijinja::{Environment, Value, context};
use std::fmt::Write;
use std::path::Path;

/// The seed ids, in report order.
const SEEDS: [&str; 5] = ["seed000", "seed001", "seed002", "seed003", "seed004"];

/// The heading of a seed paper's section: its short name, what it is about, its seed id.
pub fn seed_title(seed: &str) -> String {
    papers::paper(seed).map_or_else(|| format!("unknown seed ({seed})"), papers::Paper::heading)
}

/// How verdicts are reached, said once under the counts.
const RULES_TEXT: &str = "Only measured and modelled claims can hold: a claim holds when the whole 95 % \
    interval of our figure (for a model, its whole range over its assumptions) satisfies its rule, does not \
    hold when the whole interval violates it, and is inconclusive otherwise. Paper-checks are arithmetic on \
    the paper's own numbers (consistent or inconsistent); by-construction and not-testable claims are \
    reported, never counted as holding. Load on the machine can only slow a parallel form, so a result it \
    could not have caused stands; one it could have caused needs free cores (a probe runs beside the \
    claim's own rounds, at its thread count) and is inconclusive when they were busy or their state unclear.";

/// Writes report.md and report.html into `out`.
pub fn write(study: &StudyResults, out: &Path) -> Result<()> {
    write_atomic(&out.join("report.md"), markdown(study).as_bytes(), None)?;
    write_atomic(&out.join("report.html"), html(study)?.as_bytes(), None)
}

/// One line on the run: profile, machine, when, how long.
fn run_line(study: &StudyResults) -> String {
    let m = &study.machine;
    format!(
        "The {} study of five papers on parallel cryptography, run on {} ({} logical CPUs) at {}; it took {:.0} s.",
        study.profile.name(),
        m.cpu_model,
        m.logical_cores,
        m.detected_at,
        study.elapsed_s
    )
}

fn machine_lines(study: &StudyResults) -> Vec<(String, String)> {
    let m = &study.machine;
    vec![
        ("CPU".into(), format!("{} ({})", m.cpu_model, m.arch)),
        (
            "cores / threads".into(),
            format!(
                "{} physical / {} logical",
                m.physical_cores, m.logical_cores
            ),
        ),
        (
            "caches".into(),
            if m.caches.is_empty() {
                "unknown".into()
            } else {
                m.caches.join(", ")
            },
        ),
        ("OS".into(), format!("{} (kernel {})", m.os, m.kernel)),
        ("GMP".into(), m.gmp_version.clone()),
        ("rustc".into(), m.rustc_version.clone()),
        (
            "parcrypt".into(),
            format!(
                "{} (profile {})",
                study.parcrypt_version,
                study.profile.name()
            ),
        ),
        ("run at".into(), m.detected_at.clone()),
        ("took".into(), format!("{:.0} s", study.elapsed_s)),
    ]
}

/// Our figure with its interval and unit, e.g. "−22.4 % [−25.1, −19.8] (8 rounds, 2 threads)".
pub fn ours_text(o: &Ours) -> String {
    let mut s = o.text.clone();
    let iv = interval(o);
    if !iv.is_empty() {
        let _ = write!(s, " {iv}");
    }
    let _ = write!(s, "{}", detail(o));
    s
}

/// " (8 rounds, 2 threads)", or "" for exact figures.
fn detail(o: &Ours) -> String {
    let mut extra = Vec::new();
    if o.runs > 0 {
        extra.push(format!("{} rounds", o.runs));
    }
    if o.threads > 0 {
        extra.push(format!(
            "{} thread{}",
            o.threads,
            if o.threads == 1 { "" } else { "s" }
        ));
    }
    if extra.is_empty() {
        String::new()
    } else {
        format!(" ({})", extra.join(", "))
    }
}

/// The interval alone, e.g. "[0.91, 0.98]", or "" when there is none.
fn interval(o: &Ours) -> String {
    match (o.ci_low, o.ci_high) {
        (Some(lo), Some(hi)) if lo != hi => format!("[{}, {}]", short(lo), short(hi)),
        _ => String::new(),
    }
}

fn experiments_of<'a>(
    study: &'a StudyResults,
    seed: &'a str,
) -> impl Iterator<Item = &'a ExperimentResult> {
    study.experiments.iter().filter(move |e| e.seed == seed)
}

fn quality_line(e: &ExperimentResult) -> String {
    match &e.quality {
        Some(q) => format!(
            "how sure: {} paired rounds ({} re-measured{}), median interval ±{:.1} %{}",
            q.rounds,
            q.extra_rounds,
            q.set_aside_text(),
            q.spread_pct,
            if q.noisy { ", noisy" } else { "" }
        ),
        None => "how sure: exact (a model or the paper's own numbers; nothing timed)".into(),
    }
}

fn tolerance(c: &ClaimResult) -> String {
    if c.tolerance.is_empty() {
        "no tolerance: not judged".into()
    } else {
        format!("tolerance: {}", c.tolerance)
    }
}

fn claim_value(c: &ClaimResult) -> Value {
    context! {
        id => c.id, seed => c.seed, reference => c.reference, claim => c.claim, paper => c.paper,
        ours => c.ours.text, interval => interval(&c.ours), detail => detail(&c.ours), rule => c.rule, tolerance => tolerance(c),
        kind => c.kind.name(), model => c.model, verdict => c.verdict.label(), class => c.verdict.name(),
        why => c.why, beside => c.beside, figure => figure(c), reason => reason_words(c),
        sentence => findings::sentence(&c.claim),
        short => papers::paper(&c.seed).map_or(c.seed.as_str(), |p| p.short),
    }
}

const TEMPLATE: &str = include_str!("report.html.j2");

/// The report as one self-contained HTML page.
pub fn html(study: &StudyResults) -> Result<String> {
    let mut env = Environment::new();
    env.add_template("report.html", TEMPLATE)
        .map_err(|e| Error::Export(format!("report template: {e}")))?;
    let f = Findings::of(study);
    let verdicts: Vec<&str> = Verdict::ALL.iter().map(|v| v.label()).collect();
    let tmpl = env
        .get_template("report.html")
        .map_err(|e| Error::Export(e.to_string()))?;
    tmpl.render(context! {
        run => run_line(study), machine => machine_lines(study), cpu => study.machine.cpu_model,
        papers => paper_lines(study, &f), against => f.against.iter().map(|c| claim_value(c)).collect::<Vec<_>>(),
        undecided => vec![
            context! { id => "inconclusive", heading => "Inconclusive", g => cause_groups(&f.inconclusive) },
            context! { id => "not-testable", heading => "Not testable here", g => cause_groups(&f.not_testable) },
        ],
        verdicts => verdicts, counts => count_cells(&f), rules => RULES_TEXT, groups => verdict_groups(study),
        seeds => seed_sections(study), resumed => study.resumed,
    })
    .map_err(|e| Error::Export(format!("report: {e}")))
}

/// One section per seed paper with experiments in `study`: the paper and its experiments.
fn seed_sections(study: &StudyResults) -> Vec<Value> {
    SEEDS
        .iter()
        .filter_map(|seed| {
            let exps: Vec<Value> = experiments_of(study, seed)
                .map(|e| experiment_value(study, e))
                .collect();
            (!exps.is_empty()).then(|| {
                let p = papers::paper(seed);
                context! {
                    id => seed, title => seed_title(seed), experiments => exps,
                    authors => p.map(|p| p.authors), paper_title => p.map(|p| p.title),
                    venue => p.map(|p| p.venue),
                }
            })
        })
        .collect()
}

/// Each paper's line in the findings: the paper, its verdicts' counts and whether the page
/// has a section for it.
fn paper_lines(study: &StudyResults, f: &Findings) -> Vec<Value> {
    f.papers
        .iter()
        .map(|l| {
            context! {
                seed => l.paper.seed, short => l.paper.short, authors => l.paper.authors,
                title => l.paper.title, venue => l.paper.venue, counts => l.counts_text(),
                has_section => study.experiments.iter().any(|e| e.seed == l.paper.seed),
            }
        })
        .collect()
}

/// The counts table: per kind of claim, the number of claims with each verdict and the
/// anchor of their group.
fn count_cells(f: &Findings) -> Vec<Value> {
    f.counts
        .iter()
        .map(|(kind, n)| {
            let cells: Vec<Value> = Verdict::ALL
                .iter()
                .zip(n)
                .map(|(&v, &n)| context! { n => n, anchor => group_anchor(*kind, v) })
                .collect();
            context! { kind => kind.name(), cells => cells }
        })
        .collect()
}

/// The claims grouped by kind and verdict (groups with none left out).
fn verdict_groups(study: &StudyResults) -> Vec<Value> {
    Kind::ALL
        .iter()
        .flat_map(|&k| Verdict::ALL.iter().map(move |&v| (k, v)))
        .filter_map(|(k, v)| {
            let claims: Vec<Value> = study
                .claims
                .iter()
                .filter(|c| c.kind == k && c.verdict == v)
                .map(claim_value)
                .collect();
            (!claims.is_empty()).then(|| {
                context! {
                    anchor => group_anchor(k, v), kind => k.name(), verdict => v.label(),
                    class => v.name(), claims => claims,
                }
            })
        })
        .collect()
}

/// Undecided claims grouped by cause, with their total and how they split.
fn cause_groups(groups: &[findings::Group]) -> Value {
    let list: Vec<Value> = groups
        .iter()
        .map(|g| {
            context! {
                anchor => g.anchor, label => findings::capitalised(g.cause.label()),
                claims => g.claims.iter().map(|c| claim_value(c)).collect::<Vec<_>>(),
            }
        })
        .collect();
    context! {
        groups => list, total => findings::total(groups),
        split => findings::capitalised(&findings::split(groups)),
    }
}

/// An SVG for the page, or the error in its place.
fn svg_or_error(svg: Result<String>) -> Value {
    Value::from_safe_string(svg.unwrap_or_else(|err| {
        format!(
            "<p>{}</p>",
            err.to_string().replace('&', "&amp;").replace('<', "&lt;")
        )
    }))
}

fn experiment_value(study: &StudyResults, e: &ExperimentResult) -> Value {
    let charts: Vec<Value> = e
        .charts
        .iter()
        .enumerate()
        .map(|(i, c)| {
            context! {
                svg => svg_or_error(plot::render(c)),
                data => chart_csv_name(&e.id, i),
            }
        })
        .collect();
    let claims: Vec<&ClaimResult> = study.claims_of(&e.id).collect();
    let decision = match plot::decision::render(&claims) {
        Ok(Some(svg)) => Some(svg_or_error(Ok(svg))),
        Ok(None) => None,
        Err(err) => Some(svg_or_error(Err(err))),
    };
    let unplotted: Vec<Value> = claims
        .iter()
        .filter(|c| plot::decision::figures(c).is_empty())
        .map(|c| claim_value(c))
        .collect();
    let rows = e.table.display_rows();
    context! {
        id => e.id, title => e.title, answers => e.answers,
        provenance => e.provenance.label(), summary => e.summary, quality => quality_line(e),
        noisy => e.quality.as_ref().is_some_and(|q| q.noisy),
        charts => charts, decision => decision, unplotted => unplotted,
        columns => e.table.columns, rows => rows,
        claims => claims.iter().map(|c| claim_value(c)).collect::<Vec<_>>(),
        elapsed => format!("{:.1}", e.elapsed_s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Profile, Quality, Reason};

    /// A claim of seed000's "Fig. 0" with the rule "at most 1", for the report's tests.
    pub(super) fn claim(id: &str, kind: Kind, verdict: Verdict, ours: Ours) -> ClaimResult {
        ClaimResult {
            id: id.into(),
            seed: "seed000".into(),
            reference: "Fig. 0".into(),
            claim: format!("claim {id}"),
            kind,
            model: None,
            verdict,
            reason: None,
            paper: "p".into(),
            paper_values: Vec::new(),
            ours,
            rule: "ratio: ≤ 1 ×".into(),
            rule_data: crate::results::Rule::AtMost { max: 1.0 },
            tolerance: "none".into(),
            why: "because".into(),
            beside: Some("1 thread: 0.9 ×".into()),
            experiment: "seed000-x".into(),
            headline: false,
            defect: None,
            confirms: None,
            untested: None,
            assumptions: Vec::new(),
        }
    }

    fn study() -> StudyResults {
        let mut inconsistent = claim(
            "b",
            Kind::PaperCheck,
            Verdict::Inconsistent,
            Ours::default(),
        );
        inconsistent.reason = Some(Reason::PaperInconsistent);
        let measured = Ours {
            value: Some(0.95),
            ci_low: Some(0.9),
            ci_high: Some(0.99),
            unit: "×".into(),
            runs: 8,
            threads: 2,
            text: "0.95 ×".into(),
            parts: Vec::new(),
        };
        StudyResults {
            machine: crate::bench::MachineInfo::detect(),
            profile: Profile::Quick,
            parcrypt_version: "test".into(),
            claims: vec![
                claim("a", Kind::Measured, Verdict::Holds, measured),
                inconsistent,
            ],
            experiments: vec![ExperimentResult {
                id: "seed000-x".into(),
                seed: "seed000".into(),
                title: "An experiment".into(),
                answers: "Fig. 0".into(),
                provenance: crate::results::Provenance::Measured,
                summary: "s".into(),
                table: crate::results::Table::new(&["a"]),
                charts: vec![],
                quality: Some(Quality {
                    rounds: 8,
                    extra_rounds: 2,
                    spread_pct: 12.5,
                    noisy: true,
                    ..Quality::default()
                }),
                elapsed_s: 1.0,
            }],
            resumed: vec![],
            elapsed_s: 1.0,
        }
    }

    #[test]
    fn counts_per_kind_interval_and_how_sure() {
        let md = markdown(&study());
        assert!(
            md.contains("| measured | [1](#measured-holds) | 0 | 0 | 0 | 0 | 0 | 0 |"),
            "{md}"
        );
        assert!(
            md.contains("| paper-check | 0 | 0 | 0 | 0 | [1](#paper-check-inconsistent) | 0 | 0 |"),
            "{md}"
        );
        assert!(
            md.contains("0.95 × [0.9, 0.99] (8 rounds, 2 threads)"),
            "{md}"
        );
        assert!(md.contains(
            "8 paired rounds (2 re-measured; none set aside), median interval ±12.5 %, noisy"
        ));
        assert!(md.contains("Beside, not deciding: 1 thread: 0.9 ×."));
        let html = html(&study()).unwrap();
        assert!(html.contains(r#"class="verdict inconsistent""#));
        assert!(html.contains(r#"<p class="how noisy">"#));
    }

    /// The position of `needle` in `hay`, which must hold it.
    fn at(hay: &str, needle: &str) -> usize {
        hay.find(needle)
            .unwrap_or_else(|| panic!("{needle:?} missing"))
    }

    #[test]
    fn findings_come_first_and_link_to_the_claims_they_name() {
        let s = study();
        let md = markdown(&s);
        // The papers, what does not hold, the counts, then every claim, then the sections.
        let order = [
            "## Findings",
            "[PaRSA on multicores](#seed000)",
            "Al-Tarawneh",
            "### Does not hold or inconsistent (1)",
            "- **inconsistent** — [seed000 Fig. 0](#b): claim b. Ours",
            "; rule ratio: ≤ 1 × — the paper's numbers disagree.",
            "### Verdicts by kind",
            "## Machine",
            "<a id=\"paper-check-inconsistent\"></a>",
            "| seed000 | Fig. 0 | [claim b](#b) |",
            "<a id=\"seed000\"></a>",
            "- <a id=\"b\"></a>Fig. 0 **inconsistent**",
        ];
        let mut last = 0;
        for needle in order {
            let i = at(&md, needle);
            assert!(i >= last, "{needle:?} out of order in\n{md}");
            last = i;
        }
        let html = html(&s).unwrap();
        let order = [
            "<nav><a href=\"#findings\">Findings</a>",
            "<a href=\"#seed000\">PaRSA on multicores</a>",
            "<i>Towards an Optimal Multicore",
            "<h3 id=\"against\">Does not hold or inconsistent (1)</h3>",
            "<a href=\"#b\">PaRSA on multicores, Fig. 0</a>",
            "<a href=\"#paper-check-inconsistent\">1</a>",
            "<tr class=\"group\" id=\"measured-holds\">",
            "<tr class=\"group\" id=\"paper-check-inconsistent\">",
            "<section id=\"seed000\">",
            "<tr id=\"b\">",
        ];
        let mut last = 0;
        for needle in order {
            let i = at(&html, needle);
            assert!(i >= last, "{needle:?} out of order");
            last = i;
        }
        // The measured claim is judged: the experiment gets a decision chart.
        assert!(html.contains(r#"<div class="chart decision"><svg role="img" class="decision""#));
    }

    #[test]
    fn inconclusive_claims_are_split_by_cause() {
        let mut s = study();
        let straddles = Ours {
            value: Some(1.0),
            ci_low: Some(0.9),
            ci_high: Some(1.1),
            unit: "×".into(),
            runs: 8,
            threads: 2,
            text: "1 ×".into(),
            parts: Vec::new(),
        };
        for (id, reason) in [
            ("c", Reason::IntervalStraddles),
            ("d", Reason::CoresUnclear),
            ("e", Reason::IntervalStraddles),
        ] {
            let mut c = claim(id, Kind::Measured, Verdict::Inconclusive, straddles.clone());
            c.reason = Some(reason);
            s.claims.push(c);
        }
        let mut busy = claim("f", Kind::Measured, Verdict::NotTestable, straddles);
        busy.reason = Some(Reason::CoresBusy);
        s.claims.push(busy);
        let md = markdown(&s);
        assert!(md.contains("### Inconclusive (3)"), "{md}");
        assert!(md.contains(
            "2 the interval straddles the rule; 1 the cores were busy or their state unclear"
        ));
        assert!(md.contains("<a id=\"inconclusive-straddles\"></a>"));
        assert!(md.contains("### Not testable here (1)"));
        let html = html(&s).unwrap();
        assert!(html.contains(r#"<details id="inconclusive-cores" open>"#));
        assert!(html.contains(r#"<details id="not-testable-cores" open>"#));
    }
}
