//! The study's report: one self-contained HTML file (inline SVG charts drawn by [`plot`],
//! inline CSS, no scripts, no network; tests/report_browser.rs checks it in Chromium) rendered
//! from a template, and its summary in Markdown ([`markdown`]: under about 50 KB for a quick
//! run, for reading in a terminal or a repository). Both open with what was reproduced
//! ([`findings`], [`reproduced`]): for each paper its headline claims with verdict, figure and
//! interval, what does not hold, its own inconsistencies one per defect, what is inconclusive
//! and why; the summary adds each paper's counts by kind and verdict and its experiments, then
//! the study's counts, what the verdict words mean, the machine and where the details are.
//! report.html goes on with what is not testable here claim by claim, every claim by kind and
//! verdict (ours with its interval, the rule, the verdict), then each paper's section: its
//! experiments with how sure they are, charts, a chart of how each claim was decided, the
//! claims, the data.
//!
//! The report reads the study's plain data model ([`crate::results`]) and nothing else
//! of the study, which never imports the report.
pub mod findings;
pub mod machines;
mod markdown;
pub mod overview;
pub use crate::claims::papers;
pub mod plot;
pub mod reproduced;

pub use markdown::markdown;

use crate::error::{Error, Result};
use crate::results::{
    ClaimResult, ExperimentResult, Kind, Ours, StudyResults, Verdict, chart_csv_name, short,
};
use findings::{Findings, figure, group_anchor, reason_words};
use minijinja::{Environment, Value, context};
use parcrypt::io::write_atomic;
use std::fmt::Write;
use std::path::Path;

/// The papers' ids, in report order (the registry: [`crate::claims::papers`]).
use crate::claims::papers::IDS as PAPER_IDS;

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
    Ok(write_atomic(
        &out.join("report.html"),
        html(study)?.as_bytes(),
        None,
    )?)
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
pub(crate) fn detail(o: &Ours) -> String {
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
    study.experiments.iter().filter(move |e| e.paper_id == seed)
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
        id => c.id, seed => c.paper_id, reference => c.reference, claim => c.claim, paper => c.paper,
        ours => c.ours.text, interval => interval(&c.ours), detail => detail(&c.ours), rule => c.rule, tolerance => tolerance(c),
        kind => c.kind.name(), model => c.model, verdict => c.verdict.label(), class => c.verdict.name(),
        why => c.why, beside => c.beside, figure => figure(c), reason => reason_words(c),
        sentence => findings::sentence(&c.claim),
        short => papers::paper(&c.paper_id).map_or(c.paper_id.as_str(), |p| p.short),
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
        papers => paper_findings(study, &f), not_testable => cause_groups(&f.not_testable),
        verdicts => verdicts, counts => count_cells(&f), rules => RULES_TEXT, groups => verdict_groups(study),
        glossary => reproduced::GLOSSARY.iter().map(|(w, m)| context! { word => w, means => m }).collect::<Vec<_>>(),
        seeds => seed_sections(study), resumed => study.resumed,
        overview => overview::rows(study).iter().map(|r| context! {
            id => r.id, paper => r.paper, reference => r.reference, claim => r.claim, theirs => r.theirs,
            ours => r.ours, setting => r.setting, verdict => r.verdict, class => r.class,
        }).collect::<Vec<_>>(),
        totals => overview::Totals::of(study).lines(),
        machines => machines::section(study),
    })
    .map_err(|e| Error::Export(format!("report: {e}")))
}

/// One section per seed paper with experiments in `study`: the paper and its experiments.
fn seed_sections(study: &StudyResults) -> Vec<Value> {
    PAPER_IDS
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

/// What was reproduced, paper by paper: the paper with its counts, its headline claims (the
/// verdict in words, the line), what does not hold, its defects and its inconclusive claims.
fn paper_findings(study: &StudyResults, f: &Findings) -> Vec<Value> {
    f.papers
        .iter()
        .map(|p| {
            let headline: Vec<Value> = p
                .headline
                .iter()
                .map(|c| {
                    context! {
                        id => c.id, class => c.verdict.name(), words => reproduced::verdict_words(c),
                        text => reproduced::headline_text(c),
                    }
                })
                .collect();
            let defects: Vec<Value> = p
                .defects
                .iter()
                .map(|d| {
                    let first = d.first();
                    context! {
                        id => d.id, anchor => d.anchor, touches => d.touches(),
                        sentence => findings::sentence(&first.claim), figure => figure(first), rule => first.rule,
                        claims => d.claims.iter().map(|c| context! {
                            id => c.id, reference => c.reference, verdict => c.verdict.label(), class => c.verdict.name(),
                        }).collect::<Vec<_>>(),
                    }
                })
                .collect();
            let inconsistent: usize = p.defects.iter().map(|d| d.inconsistent()).sum();
            context! {
                seed => p.paper.id, short => p.paper.short, authors => p.paper.authors,
                title => p.paper.title, venue => p.paper.venue, counts => p.counts_text(),
                has_section => study.experiments.iter().any(|e| e.paper_id == p.paper.id),
                headline => headline, defects => defects, inconsistent => inconsistent,
                does_not_hold => p.does_not_hold.iter().map(|c| claim_value(c)).collect::<Vec<_>>(),
                inconclusive => cause_groups(&p.inconclusive),
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
mod summary_tests;
#[cfg(test)]
mod tests;
