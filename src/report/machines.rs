//! The report's section on verdicts that depend on the machine: when the run was set beside a
//! results archive ([`crate::results::MachineComparison`]), each claim whose verdict differs
//! between CPUs with every CPU's verdict and figure, and the archive's reason for it (measured,
//! direction only, or unexplained).
use crate::results::{MachineComparison, MachineReason, StudyResults};
use minijinja::{Value, context};
use std::fmt::Write;

/// The report's HTML file, linked from the summary.
const HTML: &str = "report.html";

/// One sentence above the list: how many claims were compared on how many CPUs, how many
/// differ and flip.
pub fn intro(m: &MachineComparison) -> String {
    format!(
        "This run set beside the results archive {} ({} CPUs, this run's first): {} of the {} claims judged on two or more CPUs get a different verdict on another CPU, {} of them flipping between holds and does not hold. A verdict listed here belongs to the CPU as much as to the paper; those outside this list agreed on every CPU compared. {} of them may be the judge's rather than the machine's: another CPU's run was judged before per-claim settings and model error, and this run's verdict rests on those rules (marked \"judge\").",
        m.archive,
        m.cpus.len(),
        m.dependent.len(),
        m.compared,
        m.flips(),
        m.judge_may_differ()
    )
}

/// How sure the reason is, for people.
pub fn reason_words(r: Option<&MachineReason>) -> String {
    match r {
        Some(r) if r.explained => format!("measured: {}", r.title),
        Some(r) => format!("direction measured, cause inferred: {}", r.title),
        None => "unexplained".into(),
    }
}

/// The reasons that explain at least one listed claim, each once, in the order first met.
fn reasons(m: &MachineComparison) -> Vec<&MachineReason> {
    let mut out: Vec<&MachineReason> = Vec::new();
    for r in m.dependent.iter().filter_map(|c| c.reason.as_ref()) {
        if !out.iter().any(|o| o.title == r.title) {
            out.push(r);
        }
    }
    out
}

/// The template's value for the section; `None` without a comparison.
pub fn section(study: &StudyResults) -> Option<Value> {
    let m = study.machines.as_ref()?;
    let rows: Vec<Value> = m
        .dependent
        .iter()
        .map(|c| {
            let cells: Vec<Value> = m
                .cpus
                .iter()
                .map(|cpu| match c.verdicts.iter().find(|v| v.cpu == cpu.key) {
                    Some(v) => context! {
                        verdict => v.verdict.label(), class => v.verdict.name(), figure => v.figure,
                    },
                    None => context! { verdict => "not run", class => "", figure => "" },
                })
                .collect();
            context! { id => c.id, flip => c.flip, judge => c.judge_may_differ, cells => cells, reason => reason_words(c.reason.as_ref()) }
        })
        .collect();
    let cpus: Vec<Value> = m
        .cpus
        .iter()
        .map(|c| context! { key => c.key, description => c.description, provenance => c.provenance() })
        .collect();
    let reasons: Vec<Value> = reasons(m)
        .iter()
        .map(|r| context! { title => r.title, text => r.text, explained => r.explained, claims => r.claims })
        .collect();
    Some(context! { intro => intro(m), cpus => cpus, rows => rows, reasons => reasons })
}

/// The section in Markdown (a list, not a table: the summary keeps one table after the
/// overview), or nothing without a comparison.
pub fn markdown(s: &mut String, study: &StudyResults) {
    let Some(m) = study.machines.as_ref() else {
        return;
    };
    let _ = writeln!(
        s,
        "<a id=\"by-machine\"></a>\n## Verdicts that depend on the machine\n\n{}\n",
        intro(m)
    );
    for c in &m.cpus {
        let _ = writeln!(s, "- `{}`: {} ({})", c.key, c.description, c.provenance());
    }
    let _ = writeln!(s);
    // The flips with every CPU's verdict and figure; the rest by id (report.html has every
    // verdict and figure): the summary stays short.
    for c in m.dependent.iter().filter(|c| c.flip) {
        let verdicts: Vec<String> = c
            .verdicts
            .iter()
            .map(|v| format!("{} **{}** {}", v.cpu, v.verdict.label(), v.figure))
            .collect();
        let _ = writeln!(
            s,
            "- `{}` (**flip**{}): {}. Reason — {}.",
            c.id,
            if c.judge_may_differ { ", judge" } else { "" },
            verdicts.join("; "),
            reason_words(c.reason.as_ref())
        );
    }
    let others: Vec<String> = m
        .dependent
        .iter()
        .filter(|c| !c.flip)
        .map(|c| {
            let judge = if c.judge_may_differ { " (judge)" } else { "" };
            format!("`{}`{judge}", c.id)
        })
        .collect();
    if !others.is_empty() {
        let _ = writeln!(
            s,
            "\nDiffering without a flip ({}; every CPU's verdict in [{HTML}]({HTML}#by-machine)): {}.",
            others.len(),
            others.join(", ")
        );
    }
    // The reasons' titles (their measured figures are in report.html).
    for r in reasons(m) {
        let _ = writeln!(s, "\n- {}", r.title);
    }
    let _ = writeln!(s);
}
