//! report.md: the study's summary, small enough to read through (under about 50 KB for a
//! quick run). For each paper its counts by kind and verdict, then what was reproduced — its
//! headline claims with verdict, our figure and interval and the paper's; its measured and
//! modelled claims that do not hold; its own inconsistencies, one per defect; what is
//! inconclusive, by cause — then what is not testable here by cause, and its experiments with
//! the names of the files that hold their data. Then the whole study's counts, what the verdict
//! words mean, the machine, and where the details are. Each claim's line links to its details
//! in report.html; each claim in full, the per-claim tables and each experiment's charts and
//! table stay in report.html, results.json and the CSVs. Anchors are explicit (`<a id>`), so
//! that the links work wherever the Markdown is rendered.
use super::findings::{
    Cause, Findings, Group, capitalised, figure, group_anchor, reason_words, sentence, total,
};
use super::reproduced::{GLOSSARY, PaperFindings};
use super::{machine_lines, run_line};
use crate::results::{
    ClaimResult, ExperimentResult, Kind, Provenance, Rule, StudyResults, Verdict, num,
};
use std::fmt::Write;

/// The full report beside this one.
const HTML: &str = "report.html";

/// A link into report.html: `[text](report.html#anchor)`.
fn html_link(text: &str, anchor: &str) -> String {
    format!("[{text}]({HTML}#{anchor})")
}

/// One line of a list of findings under a heading that says its verdict and, for undecided
/// claims, its cause: a link to the claim's details in report.html, the claim, our figure
/// against the rule, and `why` where the heading does not say it. A headline claim, whose
/// line above gives our figure and the paper's, is named with its rule alone.
fn finding(s: &mut String, c: &ClaimResult, why: bool) {
    let link = html_link(&c.reference, &c.id);
    let why = if why {
        format!(" — {}", reason_words(c))
    } else {
        String::new()
    };
    if c.headline {
        let _ = writeln!(
            s,
            "- {link}: a headline claim, above; rule {}{why}.",
            short_rule(c)
        );
    } else {
        let _ = writeln!(
            s,
            "- {link}: {} Ours {}; rule {}{why}.",
            sentence(&c.claim),
            figure(c),
            short_rule(c)
        );
    }
}

/// A claim's rule in short: its thresholds, without what is measured, the noise bands and
/// accepted ranges spelled out, and one threshold for the parts that share it (report.html
/// gives the rule in full). The rule as written when its text does not end with the rule's
/// own description.
fn short_rule(c: &ClaimResult) -> String {
    if c.rule.ends_with(&c.rule_data.describe(&c.ours.unit)) {
        brief(&c.rule_data, &c.ours.unit)
    } else {
        c.rule.clone()
    }
}

/// `rule` in short (see [`short_rule`]).
fn brief(rule: &Rule, unit: &str) -> String {
    let u = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    match rule {
        Rule::Above { min, noise } => format!("≥ {}{u}", num(min * (1.0 + noise))),
        Rule::Below { max, noise } => format!("≤ {}{u}", num(max * (1.0 - noise))),
        Rule::Ratio { target, factor } => {
            format!("within ×{} of {}{u}", num(*factor), num(*target))
        }
        Rule::Each { parts, rules } => {
            let each: Vec<String> = rules.iter().map(|r| brief(r, unit)).collect();
            match each.first() {
                Some(first) if each.len() > 1 && each.iter().all(|r| r == first) => {
                    format!("{first} each")
                }
                _ => parts
                    .iter()
                    .zip(&each)
                    .map(|(p, r)| format!("{p} {r}"))
                    .collect::<Vec<_>>()
                    .join("; "),
            }
        }
        r => r.describe(unit),
    }
}

/// The report's summary as Markdown.
pub fn markdown(study: &StudyResults) -> String {
    let f = Findings::of(study);
    let mut s = String::new();
    let _ = writeln!(s, "# parcrypt study report\n\n{}\n", run_line(study));
    if !study.resumed.is_empty() {
        let _ = writeln!(
            s,
            "Resumed from an earlier run: {}.\n",
            study.resumed.join(", ")
        );
    }
    let _ = writeln!(
        s,
        "The summary: what was reproduced and the counts, paper by paper. Every claim in full and \
         each experiment's charts and data are in [{HTML}]({HTML}) beside it ([where the details \
         are](#details)).\n"
    );
    overview(&mut s, study);
    let _ = writeln!(s, "<a id=\"findings\"></a>\n## What was reproduced");
    for p in &f.papers {
        paper(&mut s, study, p);
    }
    totals(&mut s, &f);
    super::machines::markdown(&mut s, study);
    machine(&mut s, study);
    details(&mut s, study, &f);
    s
}

/// The five papers at a glance: every paper's central claims in one table, then the totals
/// across papers by the strength of their evidence.
fn overview(s: &mut String, study: &StudyResults) {
    let _ = writeln!(
        s,
        "<a id=\"overview\"></a>\n## The five papers at a glance\n\nEach paper's central claims, our figure with its 95 % interval, its setting and the verdict. Only the paper's setting refutes; a model refutes only beyond its own error.\n\n| paper | claim | ours | setting | verdict |\n|---|---|---|---|---|"
    );
    let cell = |t: &str| t.replace('|', "\\|").replace('\n', " ");
    for r in super::overview::rows(study) {
        let _ = writeln!(
            s,
            "| {} | {} ({}) | {} | {} | **{}** |",
            r.paper,
            cell(&clip(&r.claim, 70)),
            html_link(&r.reference, &r.id),
            cell(&clip(&r.ours, 70)),
            cell(&clip(&r.setting, 50)),
            r.verdict
        );
    }
    let _ = writeln!(s, "\n**Totals across the papers**\n");
    for (what, n) in super::overview::Totals::of(study).lines() {
        let _ = writeln!(s, "- {what}: {n}");
    }
    let _ = writeln!(s);
}

/// `text` cut at a word boundary to at most about `max` characters, with "…" when cut (the
/// summary's table cells; report.html has them whole).
fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max).collect();
    let cut = head.rfind(' ').unwrap_or(head.len());
    format!("{}…", head[..cut].trim_end_matches([',', ';', ':']))
}

/// One paper: its findings, its counts by kind and verdict, what is not testable here, its
/// experiments.
fn paper(s: &mut String, study: &StudyResults, p: &PaperFindings) {
    let (id, short) = (p.paper.id, p.paper.short);
    let has_section = study.experiments.iter().any(|e| e.paper_id == id);
    let name = if has_section {
        html_link(short, id)
    } else {
        short.to_string()
    };
    let _ = writeln!(
        s,
        "\n<a id=\"findings-{id}\"></a>\n### {name} ({id}) — {}.\n\n{}.\n",
        p.counts_text(),
        p.paper.citation_md()
    );
    let claims: Vec<&ClaimResult> = study.claims.iter().filter(|c| c.paper_id == id).collect();
    counts(s, &claims);
    reproduced(s, p);
    not_testable(s, id, &claims);
    experiments(s, study, id);
}

/// The paper's claims by kind and verdict, on one line: "By kind: measured 3 (3 does not
/// hold); modelled 15 (6 holds, 9 does not hold); …".
fn counts(s: &mut String, claims: &[&ClaimResult]) {
    let kinds: Vec<String> = Kind::ALL
        .iter()
        .filter_map(|&kind| {
            let of: Vec<&&ClaimResult> = claims.iter().filter(|c| c.kind == kind).collect();
            let verdicts: Vec<String> = Verdict::ALL
                .iter()
                .filter_map(|&v| {
                    let n = of.iter().filter(|c| c.verdict == v).count();
                    (n > 0).then(|| format!("{n} {}", v.label()))
                })
                .collect();
            (!of.is_empty())
                .then(|| format!("{} {} ({})", kind.name(), of.len(), verdicts.join(", ")))
        })
        .collect();
    if !kinds.is_empty() {
        let _ = writeln!(s, "By kind: {}.", kinds.join("; "));
    }
}

/// What was reproduced of one paper: its headline claims, what does not hold, its defects,
/// what is inconclusive.
fn reproduced(s: &mut String, p: &PaperFindings) {
    let id = p.paper.id;
    let _ = writeln!(
        s,
        "\n<a id=\"{id}-headline\"></a>\n#### Headline claims: what the abstract and conclusion state ({})\n",
        p.headline.len()
    );
    if p.headline.is_empty() {
        let _ = writeln!(s, "None registered.");
    } else {
        // Each is a row of the table at the top, with our figure and its setting.
        let _ = writeln!(
            s,
            "In [the table at the top](#overview), with our figures and their settings."
        );
    }
    if !p.does_not_hold.is_empty() {
        let _ = writeln!(
            s,
            "\n<a id=\"{id}-does-not-hold\"></a>\n#### Measured and modelled claims that do not hold ({})\n",
            p.does_not_hold.len()
        );
        for c in &p.does_not_hold {
            finding(s, c, false);
        }
    }
    if !p.defects.is_empty() {
        let checks: usize = p.defects.iter().map(|d| d.inconsistent()).sum();
        let _ = writeln!(
            s,
            "\n<a id=\"{id}-defects\"></a>\n#### The paper's own inconsistencies: {} defect{} ({checks} inconsistent check{})\n",
            p.defects.len(),
            plural(p.defects.len()),
            plural(checks)
        );
        for d in &p.defects {
            let first = d.first();
            let what = if first.headline {
                format!("a headline claim, above; rule {}.", short_rule(first))
            } else {
                format!(
                    "{} The paper's numbers give {}; rule {}.",
                    sentence(&first.claim),
                    figure(first),
                    short_rule(first)
                )
            };
            if d.claims.len() == 1 {
                let _ = writeln!(s, "- {}: {what}", html_link(&first.reference, &first.id));
                continue;
            }
            // Each check with its verdict, unless the count says they are all inconsistent.
            let all = d.inconsistent() == d.claims.len();
            let touched: Vec<String> = d
                .claims
                .iter()
                .map(|c| match all {
                    true => html_link(&c.reference, &c.id),
                    false => format!("{} ({})", html_link(&c.reference, &c.id), c.verdict.label()),
                })
                .collect();
            let front = match first.headline {
                true => format!("{}: ", html_link(&first.reference, &first.id)),
                false => String::new(),
            };
            let _ = writeln!(
                s,
                "- {front}{what} {}: {}.",
                d.touches(),
                touched.join(", ")
            );
        }
    }
    if !p.inconclusive.is_empty() {
        let _ = writeln!(s, "\n<a id=\"{id}-inconclusive\"></a>");
        groups(s, "Inconclusive", &p.inconclusive);
    }
}

/// `#### heading` with the count of `of`, then a list per cause under its own heading.
fn groups(s: &mut String, heading: &str, of: &[Group]) {
    let _ = writeln!(s, "#### {heading} ({})", total(of));
    for g in of {
        let _ = writeln!(
            s,
            "\n##### {} ({})\n",
            capitalised(g.cause.label()),
            g.claims.len()
        );
        for c in &g.claims {
            finding(s, c, g.cause == Cause::Other);
        }
    }
}

/// The paper's claims not testable here: how many, by cause, with a link to each cause's
/// list in report.html.
fn not_testable(s: &mut String, id: &str, claims: &[&ClaimResult]) {
    let of: Vec<&&ClaimResult> = claims
        .iter()
        .filter(|c| c.verdict == Verdict::NotTestable)
        .collect();
    if of.is_empty() {
        return;
    }
    let causes: Vec<String> = Cause::ALL
        .iter()
        .filter_map(|&cause| {
            let n = of
                .iter()
                .filter(|c| Cause::of(c.reason.as_ref()) == cause)
                .count();
            let anchor = format!("{}-{}", Verdict::NotTestable.name(), cause.name());
            (n > 0).then(|| format!("{n} {}", html_link(cause.label(), &anchor)))
        })
        .collect();
    let _ = writeln!(
        s,
        "\n<a id=\"{id}-not-testable\"></a>\n#### Not testable here ({})\n\n{}.",
        of.len(),
        capitalised(&causes.join("; "))
    );
}

/// The paper's experiments: each with what it answers, whether it was measured or modelled
/// (and noisy), and its CSV files: its table as `<id>.csv`, its charts' data as
/// `<id>.chart<k>.csv`.
fn experiments(s: &mut String, study: &StudyResults, id: &str) {
    let exps: Vec<&ExperimentResult> = study
        .experiments
        .iter()
        .filter(|e| e.paper_id == id)
        .collect();
    if exps.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "\n#### Experiments ({}): their charts, claims and data in {}; CSV: `<id>.csv`, `<id>.chart<k>.csv`\n",
        exps.len(),
        html_link(HTML, id)
    );
    for e in exps {
        let _ = writeln!(
            s,
            "- {} — {}; {}{}: `{}`, {} chart{}.",
            html_link(&e.title, &e.id),
            e.answers,
            match e.provenance {
                Provenance::Measured => "measured",
                Provenance::Modelled(_) => "modelled",
                Provenance::Paper => "the paper's numbers",
            },
            if e.quality.as_ref().is_some_and(|q| q.noisy) {
                ", noisy"
            } else {
                ""
            },
            e.id,
            e.charts.len(),
            plural(e.charts.len())
        );
    }
}

/// The whole study's counts by kind and verdict (each linked to its claims in report.html),
/// how verdicts are reached, and what the verdict words mean.
fn totals(s: &mut String, f: &Findings) {
    let _ = writeln!(
        s,
        "\n<a id=\"summary\"></a>\n## Verdicts by kind, all papers\n"
    );
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
                    html_link(&n.to_string(), &group_anchor(*kind, v))
                }
            })
            .collect();
        let _ = writeln!(s, "| {} | {} |", kind.name(), cells.join(" | "));
    }
    let _ = writeln!(s, "\n<a id=\"glossary\"></a>\n## What the verdicts mean\n");
    for (word, means) in GLOSSARY {
        let _ = writeln!(s, "- **{word}**: {means}.");
    }
}

/// The machine the study ran on.
fn machine(s: &mut String, study: &StudyResults) {
    let _ = writeln!(s, "\n<a id=\"machine\"></a>\n## Machine\n");
    for (k, v) in machine_lines(study) {
        let _ = writeln!(s, "- **{k}**: {v}");
    }
}

/// Where the details this summary leaves out are: report.html's sections, results.json and
/// the CSV files.
fn details(s: &mut String, study: &StudyResults, f: &Findings) {
    let sections: Vec<String> = f
        .papers
        .iter()
        .filter(|p| study.experiments.iter().any(|e| e.paper_id == p.paper.id))
        .map(|p| html_link(p.paper.short, p.paper.id))
        .collect();
    let _ = writeln!(
        s,
        "\n<a id=\"details\"></a>\n## Where the details are\n\n\
         - **{HTML}**, beside this file: these findings, {}, and a section per paper ({}) with \
         each experiment's charts, how each claim was decided, every claim with its rule in full, \
         tolerance and why, and the data.\n\
         - **results.json**: all of it for programs: the machine, the profile, each claim (id, \
         paper_id, ref, kind, verdict, reason, paper, ours with its interval, rule, why) and each \
         experiment with its table and charts; `parcrypt study diff A B` compares two.\n\
         - **CSV files**: each experiment's table, `<experiment id>.csv`, and its charts' data, \
         `<experiment id>.chart<k>.csv` (k from 1), the ids under each paper's experiments above.",
        html_link("every claim by kind and verdict", "claims"),
        sections.join(", ")
    );
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
