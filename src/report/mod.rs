//! The study's report: Markdown for reading in a terminal or a repository, and one
//! self-contained HTML file (inline SVG charts, inline CSS, no scripts, no network) rendered
//! from a template. Both open with the machine and a summary of verdicts, then give each seed
//! paper a section: its experiments' charts and tables, and every claim beside our figure.
pub mod svg;

use crate::error::{Error, Result};
use crate::study::{ExperimentResult, SEEDS, StudyResults, Verdict, model::cell_text};
use minijinja::{Environment, Value, context};
use std::fmt::Write;

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

/// Counts of (holds, does not hold, not testable).
pub fn verdict_counts(study: &StudyResults) -> (usize, usize, usize) {
    study
        .claims()
        .fold((0, 0, 0), |(h, d, n), c| match c.verdict {
            Verdict::Holds => (h + 1, d, n),
            Verdict::DoesNotHold => (h, d + 1, n),
            Verdict::NotTestable => (h, d, n + 1),
        })
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
    ]
}

fn experiments_of<'a>(
    study: &'a StudyResults,
    seed: &'a str,
) -> impl Iterator<Item = &'a ExperimentResult> {
    study.experiments.iter().filter(move |e| e.seed == seed)
}

/// The report as Markdown.
pub fn markdown(study: &StudyResults) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# parcrypt study report\n");
    for (k, v) in machine_lines(study) {
        let _ = writeln!(s, "- **{k}**: {v}");
    }
    let (h, d, n) = verdict_counts(study);
    let _ = writeln!(
        s,
        "\n## Summary of verdicts\n\n{h} claims hold, {d} do not hold, {n} are not testable here.\n"
    );
    let _ = writeln!(
        s,
        "| seed | ref | claim | paper | ours | verdict |\n|---|---|---|---|---|---|"
    );
    for c in study.claims() {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | **{}** |",
            c.seed,
            c.reference,
            c.claim,
            c.paper,
            c.ours,
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
            let _ = writeln!(
                s,
                "### {} — {} ({})\n\n{}\n",
                e.title,
                e.answers,
                e.provenance.label(),
                e.summary
            );
            let _ = writeln!(s, "| {} |", e.table.columns.join(" | "));
            let _ = writeln!(s, "|{}|", vec!["---"; e.table.columns.len()].join("|"));
            for row in &e.table.rows {
                let cells: Vec<String> = row.iter().map(cell_text).collect();
                let _ = writeln!(s, "| {} |", cells.join(" | "));
            }
            for c in &e.claims {
                let _ = writeln!(
                    s,
                    "\n- {} **{}** — {}: paper {}; ours {}. {}",
                    c.reference,
                    c.verdict.label(),
                    c.claim,
                    c.paper,
                    c.ours,
                    c.why
                );
            }
            let _ = writeln!(
                s,
                "\nCharts: {} (in report.html).",
                e.charts
                    .iter()
                    .map(|c| c.title.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
    }
    s
}

const TEMPLATE: &str = include_str!("report.html.j2");

/// The report as one self-contained HTML page.
pub fn html(study: &StudyResults) -> Result<String> {
    let mut env = Environment::new();
    env.add_template("report.html", TEMPLATE)
        .map_err(|e| Error::Export(format!("report template: {e}")))?;
    let (h, d, n) = verdict_counts(study);
    let seeds: Vec<Value> = SEEDS
        .iter()
        .filter_map(|seed| {
            let exps: Vec<Value> = experiments_of(study, seed)
                .map(|e| {
                    let charts: Vec<Value> = e.charts.iter().map(|c| Value::from_safe_string(svg::render(c))).collect();
                    let rows: Vec<Vec<String>> = e.table.rows.iter().map(|r| r.iter().map(cell_text).collect()).collect();
                    context! {
                        id => e.id, title => e.title, answers => e.answers,
                        provenance => e.provenance.label(), summary => e.summary,
                        charts => charts, columns => e.table.columns, rows => rows,
                        claims => e.claims.iter().map(|c| context! {
                            reference => c.reference, claim => c.claim, paper => c.paper, ours => c.ours,
                            verdict => c.verdict.label(), class => format!("{:?}", c.verdict).to_lowercase(), why => c.why,
                        }).collect::<Vec<_>>(),
                        elapsed => format!("{:.1}", e.elapsed_s),
                    }
                })
                .collect();
            (!exps.is_empty()).then(|| context! { id => seed, title => seed_title(seed), experiments => exps })
        })
        .collect();
    let claims: Vec<Value> = study
        .claims()
        .map(|c| {
            context! {
                seed => c.seed, reference => c.reference, claim => c.claim, paper => c.paper, ours => c.ours,
                verdict => c.verdict.label(), class => format!("{:?}", c.verdict).to_lowercase(),
            }
        })
        .collect();
    let tmpl = env
        .get_template("report.html")
        .map_err(|e| Error::Export(e.to_string()))?;
    tmpl.render(context! {
        machine => machine_lines(study),
        holds => h, fails => d, untestable => n,
        claims => claims, seeds => seeds, resumed => study.resumed,
    })
    .map_err(|e| Error::Export(format!("report: {e}")))
}
