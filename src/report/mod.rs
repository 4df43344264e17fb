//! The study's report: Markdown for reading in a terminal or a repository, and one
//! self-contained HTML file (inline SVG charts drawn by [`plot`], inline CSS, no scripts, no
//! network; tests/report_browser.rs checks it in Chromium) rendered
//! from a template. Both open with the machine and the verdicts counted per kind, then a
//! table of every claim (ours with its interval, the rule, the kind, the verdict), then give
//! each seed paper a section: its experiments with how sure they are, charts, claims, data.
//!
//! The report reads the study's plain data model ([`crate::results`]) and nothing else
//! of the study, which never imports the report.
pub mod plot;

use crate::error::{Error, Result};
use crate::io::write_atomic;
use crate::results::{
    ClaimResult, ExperimentResult, Kind, Ours, StudyResults, Verdict, chart_csv_name, short,
};
use minijinja::{Environment, Value, context};
use std::fmt::Write;
use std::path::Path;

/// The seed ids, in report order.
const SEEDS: [&str; 5] = ["seed000", "seed001", "seed002", "seed003", "seed004"];

/// The paper behind each seed id.
pub fn seed_title(seed: &str) -> &'static str {
    match seed {
        "seed000" => {
            "RSA on multicores: PaRSA schedules, design space, power, energy and lifetime (000)"
        }
        "seed001" => "Blowfish pipelined round by round over 36 cores (001)",
        "seed002" => "CRSA: modular exponentiation on a hypercube (002)",
        "seed003" => "Parallel modular exponentiation and Karatsuba against GMP (003)",
        "seed004" => "Energy of sequential and parallel Blowfish, RC4 and RC4A (004)",
        _ => "unknown seed",
    }
}

/// Writes report.md and report.html into `out`.
pub fn write(study: &StudyResults, out: &Path) -> Result<()> {
    write_atomic(&out.join("report.md"), markdown(study).as_bytes(), None)?;
    write_atomic(&out.join("report.html"), html(study)?.as_bytes(), None)
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

/// Rows of the counts table: per kind, the count of each verdict.
fn count_rows(study: &StudyResults) -> Vec<(String, Vec<usize>)> {
    Kind::ALL
        .iter()
        .map(|&k| {
            (
                k.name().to_string(),
                Verdict::ALL
                    .iter()
                    .map(|&v| study.count(k, v))
                    .collect::<Vec<usize>>(),
            )
        })
        .filter(|(_, n)| n.iter().any(|&x| x > 0))
        .collect()
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
            "how sure: {} paired rounds ({} re-measured), median interval ±{:.1} %{}",
            q.rounds,
            q.extra_rounds,
            q.spread_pct,
            if q.noisy { ", noisy" } else { "" }
        ),
        None => "how sure: exact (a model or the paper's own numbers; nothing timed)".into(),
    }
}

/// The report as Markdown.
pub fn markdown(study: &StudyResults) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# parcrypt study report\n");
    for (k, v) in machine_lines(study) {
        let _ = writeln!(s, "- **{k}**: {v}");
    }
    let _ = writeln!(s, "\n## Verdicts by kind\n");
    let _ = writeln!(
        s,
        "| kind | {} |\n|---|{}",
        Verdict::ALL.map(|v| v.label()).join(" | "),
        "---|".repeat(Verdict::ALL.len())
    );
    for (kind, counts) in count_rows(study) {
        let cells: Vec<String> = counts.iter().map(|n| n.to_string()).collect();
        let _ = writeln!(s, "| {kind} | {} |", cells.join(" | "));
    }
    let _ = writeln!(
        s,
        "\nOnly measured and modelled claims can hold; paper-checks are consistent or not, and by-construction and \
         not-testable claims are reported, never counted as holding. A claim about a parallel method is judged only on \
         runs with at least 2 threads whose cores were free (independent work on as many threads ran at ≥ 90 % of the \
         ideal throughput in the same rounds); otherwise it is not testable in that run.\n"
    );
    let _ = writeln!(
        s,
        "| seed | ref | claim | paper | ours [95 % interval] | rule | kind | verdict |\n|---|---|---|---|---|---|---|---|"
    );
    for c in &study.claims {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | **{}** |",
            c.seed,
            c.reference,
            c.claim,
            c.paper,
            ours_text(&c.ours),
            c.rule,
            c.kind.name(),
            c.verdict.label()
        );
    }
    for seed in SEEDS {
        let exps: Vec<_> = experiments_of(study, seed).collect();
        if exps.is_empty() {
            continue;
        }
        let _ = writeln!(s, "\n## {}\n", seed_title(seed));
        for e in exps {
            experiment_markdown(&mut s, study, e);
        }
    }
    s
}

fn experiment_markdown(s: &mut String, study: &StudyResults, e: &ExperimentResult) {
    let _ = writeln!(
        s,
        "### {} — {} ({})\n\n{}\n\n*{}; {:.1} s.*\n",
        e.title,
        e.answers,
        e.provenance.label(),
        e.summary,
        quality_line(e),
        e.elapsed_s
    );
    for c in study.claims_of(&e.id) {
        let _ = writeln!(
            s,
            "- {} **{}** ({}) — {}: paper {}; ours {}. Rule: {} ({}). {}{}",
            c.reference,
            c.verdict.label(),
            c.kind.name(),
            c.claim,
            c.paper,
            ours_text(&c.ours),
            c.rule,
            tolerance(c),
            c.why,
            c.beside
                .as_ref()
                .map_or(String::new(), |b| format!(" Beside, not deciding: {b}."))
        );
    }
    let _ = writeln!(s, "\n| {} |", e.table.columns.join(" | "));
    let _ = writeln!(s, "|{}|", vec!["---"; e.table.columns.len()].join("|"));
    for cells in e.table.display_rows() {
        let _ = writeln!(s, "| {} |", cells.join(" | "));
    }
    let _ = writeln!(
        s,
        "\nCharts (in report.html; their data in the CSV named): {}.\n",
        e.charts
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{} (`{}`)", c.title, chart_csv_name(&e.id, i)))
            .collect::<Vec<_>>()
            .join("; ")
    );
}

fn tolerance(c: &ClaimResult) -> String {
    if c.tolerance.is_empty() {
        "no tolerance: not judged".into()
    } else {
        format!("tolerance: {}", c.tolerance)
    }
}

fn class(v: Verdict) -> &'static str {
    v.name()
}

fn claim_value(c: &ClaimResult) -> Value {
    context! {
        id => c.id, seed => c.seed, reference => c.reference, claim => c.claim, paper => c.paper,
        ours => c.ours.text, interval => interval(&c.ours), detail => detail(&c.ours), rule => c.rule, tolerance => tolerance(c),
        kind => c.kind.name(), model => c.model, verdict => c.verdict.label(), class => class(c.verdict),
        why => c.why, beside => c.beside,
    }
}

const TEMPLATE: &str = include_str!("report.html.j2");

/// The report as one self-contained HTML page.
pub fn html(study: &StudyResults) -> Result<String> {
    let mut env = Environment::new();
    env.add_template("report.html", TEMPLATE)
        .map_err(|e| Error::Export(format!("report template: {e}")))?;
    let seeds: Vec<Value> = SEEDS
        .iter()
        .filter_map(|seed| {
            let exps: Vec<Value> = experiments_of(study, seed)
                .map(|e| {
                    let charts: Vec<Value> = e.charts.iter().enumerate().map(|(i, c)| context! {
                        svg => Value::from_safe_string(plot::render(c).unwrap_or_else(|err| format!("<p>{}</p>", err.to_string().replace('&', "&amp;").replace('<', "&lt;")))),
                        data => chart_csv_name(&e.id, i),
                    }).collect();
                    let rows = e.table.display_rows();
                    context! {
                        id => e.id, title => e.title, answers => e.answers,
                        provenance => e.provenance.label(), summary => e.summary, quality => quality_line(e),
                        noisy => e.quality.as_ref().is_some_and(|q| q.noisy),
                        charts => charts, columns => e.table.columns, rows => rows,
                        claims => study.claims_of(&e.id).map(claim_value).collect::<Vec<_>>(),
                        elapsed => format!("{:.1}", e.elapsed_s),
                    }
                })
                .collect();
            (!exps.is_empty()).then(|| context! { id => seed, title => seed_title(seed), experiments => exps })
        })
        .collect();
    let verdicts: Vec<&str> = Verdict::ALL.iter().map(|v| v.label()).collect();
    let tmpl = env
        .get_template("report.html")
        .map_err(|e| Error::Export(e.to_string()))?;
    tmpl.render(context! {
        machine => machine_lines(study),
        verdicts => verdicts, counts => count_rows(study),
        claims => study.claims.iter().map(claim_value).collect::<Vec<_>>(),
        seeds => seeds, resumed => study.resumed,
    })
    .map_err(|e| Error::Export(format!("report: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::{Profile, Quality};

    fn claim(id: &str, kind: Kind, verdict: Verdict, ours: Ours) -> ClaimResult {
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
        }
    }

    fn study() -> StudyResults {
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
                claim(
                    "b",
                    Kind::PaperCheck,
                    Verdict::Inconsistent,
                    Ours::default(),
                ),
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
            md.contains("| measured | 1 | 0 | 0 | 0 | 0 | 0 | 0 |"),
            "{md}"
        );
        assert!(
            md.contains("| paper-check | 0 | 0 | 0 | 0 | 1 | 0 | 0 |"),
            "{md}"
        );
        assert!(
            md.contains("0.95 × [0.9, 0.99] (8 rounds, 2 threads)"),
            "{md}"
        );
        assert!(md.contains("8 paired rounds (2 re-measured), median interval ±12.5 %, noisy"));
        assert!(md.contains("Beside, not deciding: 1 thread: 0.9 ×."));
        let html = html(&study()).unwrap();
        assert!(html.contains(r#"class="verdict inconsistent""#));
        assert!(html.contains(r#"<p class="how noisy">"#));
    }
}
