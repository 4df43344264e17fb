//! report.md, in the order of report.html: the findings (the papers, what does not hold, what
//! is inconclusive and why, the counts with links to the claims they count), the machine,
//! every claim grouped by kind and verdict, then each paper's experiments. Anchors are
//! explicit (`<a id>`), so that the links work wherever the Markdown is rendered.
use super::findings::{
    Findings, Group, capitalised, figure, group_anchor, reason_words, sentence, split, total,
};
use super::papers::paper;
use super::{
    SEEDS, experiments_of, machine_lines, ours_text, quality_line, run_line, seed_title, tolerance,
};
use crate::results::{ClaimResult, ExperimentResult, Kind, StudyResults, Verdict, chart_csv_name};
use std::fmt::Write;

/// One line of the findings: the verdict, a link to the claim's details, the claim, our
/// figure against the rule, and why.
fn finding(s: &mut String, c: &ClaimResult) {
    let _ = writeln!(
        s,
        "- **{}** — [{} {}](#{}): {} Ours {}; rule {} — {}.",
        c.verdict.label(),
        c.seed,
        c.reference,
        c.id,
        sentence(&c.claim),
        figure(c),
        c.rule,
        reason_words(c)
    );
}

/// The report as Markdown.
pub fn markdown(study: &StudyResults) -> String {
    let f = Findings::of(study);
    let mut s = String::new();
    let _ = writeln!(s, "# parcrypt study report\n\n{}\n", run_line(study));
    findings(&mut s, &f);
    let _ = writeln!(s, "\n{}\n", super::RULES_TEXT);
    machine(&mut s, study);
    claims_by_group(&mut s, study);
    seed_sections(&mut s, study);
    s
}

/// The findings: the papers with their counts, the claims that do not hold, the undecided
/// ones by cause, and the verdicts by kind.
fn findings(s: &mut String, f: &Findings) {
    let _ = writeln!(s, "## Findings\n\n### The papers\n");
    for p in &f.papers {
        let _ = writeln!(
            s,
            "- [{}](#{}) ({}) — {}. {}.",
            p.paper.short,
            p.paper.seed,
            p.paper.seed,
            p.paper.citation_md(),
            p.counts_text()
        );
    }
    let _ = writeln!(
        s,
        "\n### Does not hold or inconsistent ({})\n",
        f.against.len()
    );
    if f.against.is_empty() {
        let _ = writeln!(s, "None.");
    }
    for c in &f.against {
        finding(s, c);
    }
    undecided(s, "Inconclusive", &f.inconclusive);
    undecided(s, "Not testable here", &f.not_testable);
    let _ = writeln!(s, "\n### Verdicts by kind\n");
    let _ = writeln!(
        s,
        "| kind | {} |\n|---|{}",
        Verdict::ALL.map(|v| v.label()).join(" | "),
        "---|".repeat(Verdict::ALL.len())
    );
    for (kind, counts) in &f.counts {
        let cells: Vec<String> = Verdict::ALL
            .iter()
            .zip(counts)
            .map(|(&v, &n)| {
                if n == 0 {
                    "0".into()
                } else {
                    format!("[{n}](#{})", group_anchor(*kind, v))
                }
            })
            .collect();
        let _ = writeln!(s, "| {} | {} |", kind.name(), cells.join(" | "));
    }
}

/// The machine the study ran on.
fn machine(s: &mut String, study: &StudyResults) {
    let _ = writeln!(s, "<a id=\"machine\"></a>\n## Machine\n");
    for (k, v) in machine_lines(study) {
        let _ = writeln!(s, "- **{k}**: {v}");
    }
}

/// Every claim in a table per kind and verdict.
fn claims_by_group(s: &mut String, study: &StudyResults) {
    let _ = writeln!(
        s,
        "\n<a id=\"claims\"></a>\n## Every claim, by kind and verdict\n"
    );
    for kind in Kind::ALL {
        for verdict in Verdict::ALL {
            let claims: Vec<&ClaimResult> = study
                .claims
                .iter()
                .filter(|c| c.kind == kind && c.verdict == verdict)
                .collect();
            if claims.is_empty() {
                continue;
            }
            let _ = writeln!(
                s,
                "<a id=\"{}\"></a>\n#### {} — {} ({})\n",
                group_anchor(kind, verdict),
                kind.name(),
                verdict.label(),
                claims.len()
            );
            let _ = writeln!(
                s,
                "| seed | ref | claim | paper | ours [95 % interval] | rule | kind | verdict |\n|---|---|---|---|---|---|---|---|"
            );
            for c in claims {
                let _ = writeln!(
                    s,
                    "| {} | {} | [{}](#{}) | {} | {} | {} | {} | **{}** |",
                    c.seed,
                    c.reference,
                    c.claim,
                    c.id,
                    c.paper,
                    ours_text(&c.ours),
                    c.rule,
                    c.kind.name(),
                    c.verdict.label()
                );
            }
            let _ = writeln!(s);
        }
    }
}

/// A section per seed: its paper, then each experiment.
fn seed_sections(s: &mut String, study: &StudyResults) {
    for seed in SEEDS {
        let exps: Vec<_> = experiments_of(study, seed).collect();
        if exps.is_empty() {
            continue;
        }
        let _ = writeln!(s, "\n<a id=\"{seed}\"></a>\n## {}\n", seed_title(seed));
        if let Some(p) = paper(seed) {
            let _ = writeln!(s, "{}.\n", p.citation_md());
        }
        for e in exps {
            experiment(s, study, e);
        }
    }
}

/// A heading for undecided claims, their count split by cause, then a list per cause.
fn undecided(s: &mut String, heading: &str, groups: &[Group]) {
    let _ = writeln!(s, "\n### {heading} ({})\n", total(groups));
    if groups.is_empty() {
        let _ = writeln!(s, "None.");
        return;
    }
    let _ = writeln!(s, "{}.\n", capitalised(&split(groups)));
    for g in groups {
        let _ = writeln!(
            s,
            "<a id=\"{}\"></a>\n#### {} ({})\n",
            g.anchor,
            capitalised(g.cause.label()),
            g.claims.len()
        );
        for c in &g.claims {
            finding(s, c);
        }
        let _ = writeln!(s);
    }
}

fn experiment(s: &mut String, study: &StudyResults, e: &ExperimentResult) {
    let _ = writeln!(
        s,
        "<a id=\"{}\"></a>\n### {} — {} ({})\n\n{}\n\n*{}; {:.1} s.*\n",
        e.id,
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
            "- <a id=\"{}\"></a>{} **{}** ({}) — {}: paper {}; ours {}. Rule: {} ({}). Why: {}. {}{}",
            c.id,
            c.reference,
            c.verdict.label(),
            c.kind.name(),
            c.claim,
            c.paper,
            ours_text(&c.ours),
            c.rule,
            tolerance(c),
            reason_words(c),
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
        "\nCharts (in report.html, with a chart of how each claim was decided; their data in the CSV named): {}.\n",
        e.charts
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{} (`{}`)", c.title, chart_csv_name(&e.id, i)))
            .collect::<Vec<_>>()
            .join("; ")
    );
}
