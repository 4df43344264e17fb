//! report.md, in the order of report.html: what was reproduced (for each paper its headline
//! claims, what does not hold, its own inconsistencies by defect, what is inconclusive and
//! why), what is not testable here, the counts with links to the claims they count and what
//! the verdict words mean; then the machine, every claim grouped by kind and verdict, then
//! each paper's experiments. Anchors are explicit (`<a id>`), so that the links work wherever
//! the Markdown is rendered.
use super::findings::{
    Findings, Group, capitalised, figure, group_anchor, reason_words, sentence, split, total,
};
use super::papers::paper;
use super::reproduced::{GLOSSARY, PaperFindings, headline_text, verdict_words};
use super::{
    PAPER_IDS, experiments_of, machine_lines, ours_text, quality_line, run_line, seed_title,
    tolerance,
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
        c.paper_id,
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
    machine(&mut s, study);
    claims_by_group(&mut s, study);
    seed_sections(&mut s, study);
    s
}

/// The findings: what was reproduced, paper by paper; the claims not testable here by cause;
/// the verdicts by kind; what the verdict words mean.
fn findings(s: &mut String, f: &Findings) {
    let _ = writeln!(s, "<a id=\"findings\"></a>\n## What was reproduced");
    for p in &f.papers {
        paper_findings(s, p);
    }
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
    let _ = writeln!(s, "\n{}\n", super::RULES_TEXT);
    let _ = writeln!(s, "<a id=\"glossary\"></a>\n### What the verdicts mean\n");
    for (word, means) in GLOSSARY {
        let _ = writeln!(s, "- **{word}**: {means}.");
    }
    let _ = writeln!(s);
}

/// One paper: its counts, its headline claims, what does not hold, its defects, what is
/// inconclusive.
fn paper_findings(s: &mut String, p: &PaperFindings) {
    let (seed, short) = (p.paper.id, p.paper.short);
    let _ = writeln!(
        s,
        "\n### [{short}](#{seed}) ({seed}) — {}.\n\n{}.\n",
        p.counts_text(),
        p.paper.citation_md()
    );
    let _ = writeln!(
        s,
        "<a id=\"{seed}-headline\"></a>\n#### Headline claims: what the abstract and conclusion state ({})\n",
        p.headline.len()
    );
    if p.headline.is_empty() {
        let _ = writeln!(s, "None registered.");
    }
    for c in &p.headline {
        let _ = writeln!(
            s,
            "- **{}** — {} ([details](#{}))",
            verdict_words(c),
            headline_text(c),
            c.id
        );
    }
    if !p.does_not_hold.is_empty() {
        let _ = writeln!(
            s,
            "\n<a id=\"{seed}-does-not-hold\"></a>\n#### Measured and modelled claims that do not hold ({})\n",
            p.does_not_hold.len()
        );
        for c in &p.does_not_hold {
            finding(s, c);
        }
    }
    if !p.defects.is_empty() {
        let checks: usize = p.defects.iter().map(|d| d.inconsistent()).sum();
        let _ = writeln!(
            s,
            "\n<a id=\"{seed}-defects\"></a>\n#### The paper's own inconsistencies: {} defect{} ({checks} inconsistent check{})\n",
            p.defects.len(),
            if p.defects.len() == 1 { "" } else { "s" },
            if checks == 1 { "" } else { "s" }
        );
        for d in &p.defects {
            let first = d.first();
            let touched: Vec<String> = d
                .claims
                .iter()
                .map(|c| format!("[{}](#{}) ({})", c.reference, c.id, c.verdict.label()))
                .collect();
            let _ = writeln!(
                s,
                "- <a id=\"{}\"></a>**inconsistent** — {} The paper's numbers give {}; rule {}. {}: {}.",
                d.anchor,
                sentence(&first.claim),
                figure(first),
                first.rule,
                d.touches(),
                touched.join(", ")
            );
        }
    }
    if !p.inconclusive.is_empty() {
        let _ = writeln!(s, "\n<a id=\"{seed}-inconclusive\"></a>");
        groups(s, "####", "Inconclusive", &p.inconclusive);
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
                    c.paper_id,
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
    for seed in PAPER_IDS {
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
fn undecided(s: &mut String, heading: &str, of: &[Group]) {
    let _ = writeln!(s);
    groups(s, "###", heading, of);
}

/// `level` heading `heading` with the count of `of`, split by cause, then a list per cause
/// (one level down).
fn groups(s: &mut String, level: &str, heading: &str, of: &[Group]) {
    let _ = writeln!(s, "{level} {heading} ({})\n", total(of));
    if of.is_empty() {
        let _ = writeln!(s, "None.");
        return;
    }
    let _ = writeln!(s, "{}.\n", capitalised(&split(of)));
    for g in of {
        let _ = writeln!(
            s,
            "<a id=\"{}\"></a>\n{level}# {} ({})\n",
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
