//! The report's tests: what both open with (what was reproduced, paper by paper) and the
//! counts, in report.md and report.html alike; what report.md, the summary, leaves to
//! report.html (how sure each experiment is, a claim's rounds, threads and rule in full).
use super::*;
use crate::results::{Profile, Quality, Reason};

/// A claim of parsa's "Fig. 0" with the rule "at most 1", for the report's tests.
pub(super) fn claim(id: &str, kind: Kind, verdict: Verdict, ours: Ours) -> ClaimResult {
    ClaimResult {
        id: id.into(),
        paper_id: "parsa".into(),
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
        experiment: "parsa-x".into(),
        headline: false,
        defect: None,
        confirms: None,
        untested: None,
        assumptions: Vec::new(),
        setting: None,
        differs: None,
        root: None,
    }
}

pub(super) fn study() -> StudyResults {
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
            id: "parsa-x".into(),
            paper_id: "parsa".into(),
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
            estimate_s: None,
        }],
        resumed: vec![],
        elapsed_s: 1.0,
        machines: None,
    }
}

#[test]
fn counts_per_kind_interval_and_how_sure() {
    let md = markdown(&study());
    // The paper's counts by kind and verdict, then the whole study's, each count linked to
    // its claims in report.html.
    let paper = at(
        &md,
        "By kind: measured 1 (1 holds); paper-check 1 (1 inconsistent).",
    );
    let all = at(
        &md,
        "| measured | [1](report.html#measured-holds) | 0 | 0 | 0 | 0 | 0 | 0 |",
    );
    assert!(paper < all, "{md}");
    assert!(
        md.contains(
            "| paper-check | 0 | 0 | 0 | 0 | [1](report.html#paper-check-inconsistent) | 0 | 0 |"
        ),
        "{md}"
    );
    // Each experiment, whether it is noisy, and the name of its CSV files.
    assert!(
        md.contains(
            "- [An experiment](report.html#parsa-x) — Fig. 0; measured, noisy: `parsa-x`, 0 charts."
        ),
        "{md}"
    );
    assert!(md.contains("CSV: `<id>.csv`, `<id>.chart<k>.csv`"));
    // How sure each experiment is, a claim's interval with its rounds and threads, and what
    // stood beside it, are details: report.html's.
    assert!(!md.contains("paired rounds"), "{md}");
    assert!(!md.contains("1 thread: 0.9 ×"), "{md}");
    let html = html(&study()).unwrap();
    assert!(html.contains(
        "8 paired rounds (2 re-measured; none set aside), median interval ±12.5 %, noisy"
    ));
    assert!(html.contains(
        "0.95 × <span class=\"ci\"><span class=\"iv\">[0.9, 0.99]</span> (8 rounds, 2 threads)"
    ));
    assert!(html.contains("beside, not deciding: 1 thread: 0.9 ×"));
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
    let mut s = study();
    s.claims[0].headline = true;
    let md = markdown(&s);
    // What was reproduced, paper by paper (its counts, its headline claims, its defects,
    // its experiments); then the counts of the whole study, the verdict words, the machine
    // and where the details are. Claims link to their lines in report.html.
    let order = [
        "## The five papers at a glance",
        "| PaRSA on multicores | claim a ([",
        "**Totals across the papers**",
        "- measured at the paper's setting: 1 hold",
        "## What was reproduced",
        "### [PaRSA on multicores](report.html#parsa) (parsa) — 2 claims: 1 holds, 1 defect (1 inconsistent check).",
        "Al-Tarawneh",
        "By kind: measured 1 (1 holds); paper-check 1 (1 inconsistent).",
        "<a id=\"parsa-headline\"></a>",
        "In [the table at the top](#overview), with our figures and their settings.",
        "#### The paper's own inconsistencies: 1 defect (1 inconsistent check)",
        "- [Fig. 0](report.html#b): claim b. The paper's numbers give",
        "#### Experiments (1): their charts, claims and data in [report.html](report.html#parsa)",
        "- [An experiment](report.html#parsa-x) — Fig. 0; measured",
        "## Verdicts by kind, all papers",
        "## What the verdicts mean",
        "- **confirms ordering**: judged at a scaled setting",
        "## Machine",
        "## Where the details are",
        "[every claim by kind and verdict](report.html#claims)",
        "**results.json**",
        "`<experiment id>.chart<k>.csv`",
    ];
    let mut last = 0;
    for needle in order {
        let i = at(&md, needle);
        assert!(i >= last, "{needle:?} out of order in\n{md}");
        last = i;
    }
    // The per-claim and per-experiment tables are report.html's alone.
    assert!(!md.contains("## Every claim"), "{md}");
    assert!(!md.contains("| parsa | Fig. 0 |"), "{md}");
    let html = html(&s).unwrap();
    let order = [
        "<nav><a href=\"#overview\">At a glance</a> <a href=\"#findings\">What was reproduced</a>",
        "<a href=\"#parsa\">PaRSA on multicores</a>",
        "1 defect (1 inconsistent check).",
        "<i>Towards an Optimal Multicore",
        "<div class=\"headline\" id=\"parsa-headline\">",
        "<a href=\"#a\" class=\"verdict holds\">holds</a> — claim a. Ours 0.95 × [0.9, 0.99] (8 rounds, 2 threads); the paper&#x27;s: p.",
        "<h4 id=\"parsa-defects\">The paper's own inconsistencies: 1 defect (1 inconsistent check)</h4>",
        "<li id=\"defect-parsa-b\">",
        "<a href=\"#b\">Fig. 0</a> (<span class=\"inconsistent\">inconsistent</span>)",
        "<a href=\"#paper-check-inconsistent\">1</a>",
        "<h3 id=\"glossary\">What the verdicts mean</h3>",
        "<tr class=\"group\" id=\"measured-holds\">",
        "<tr class=\"group\" id=\"paper-check-inconsistent\">",
        "<section id=\"parsa\">",
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
fn measured_claims_that_do_not_hold_follow_the_headline_and_defects_count_once() {
    let mut s = study();
    let mut no = s.claims[0].clone();
    no.id = "n".into();
    no.verdict = Verdict::DoesNotHold;
    no.reason = Some(Reason::IntervalOutside);
    s.claims.push(no);
    // Two more checks on the same printed pair as "b": one defect, three checks.
    for id in ["b2", "b3"] {
        let mut c = s.claims[1].clone();
        c.id = id.into();
        s.claims.push(c);
    }
    for c in s.claims.iter_mut().filter(|c| c.kind == Kind::PaperCheck) {
        c.defect = Some("593-vs-563".into());
    }
    let md = markdown(&s);
    assert!(
        md.contains("5 claims: 1 holds, 1 does not hold, 1 defect (3 inconsistent checks)"),
        "{md}"
    );
    let dnh = at(
        &md,
        "#### Measured and modelled claims that do not hold (1)",
    );
    assert!(dnh > at(&md, "#### Headline claims"));
    assert!(
        dnh < at(
            &md,
            "#### The paper's own inconsistencies: 1 defect (3 inconsistent checks)"
        )
    );
    // One line per defect, naming the checks it touches (the rule as written, where its text
    // is not the rule's own description in the figure's unit).
    assert!(md.contains("- claim b. The paper's numbers give ; rule ratio: ≤ 1 ×. Defect 593-vs-563 touches 3 checks, all inconsistent: [Fig. 0](report.html#b), [Fig. 0](report.html#b2), [Fig. 0](report.html#b3)."), "{md}");
    // Under its heading a claim that does not hold is its reference linked to its details,
    // the claim, ours and the rule's threshold (the rule in full is report.html's).
    assert!(
        md.contains("- [Fig. 0](report.html#n): claim a. Ours 0.95 × [0.9, 0.99]; rule ≤ 1 ×.\n"),
        "{md}"
    );
    assert!(
        md.contains("None registered."),
        "no headline claim in this study"
    );
    // A headline claim listed again is named, with its rule.
    s.claims[2].headline = true;
    let md = markdown(&s);
    assert!(
        md.contains("- [Fig. 0](report.html#n): a headline claim, above; rule ≤ 1 ×.\n"),
        "{md}"
    );
    assert!(
        md.contains("| claim a ([Fig. 0](report.html#n)) | 0.95 × [0.9, 0.99] | measured at the paper's setting | **does not hold** |"),
        "{md}"
    );
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
    assert!(
        md.contains("<a id=\"parsa-inconclusive\"></a>\n#### Inconclusive (3)"),
        "{md}"
    );
    let straddles = at(
        &md,
        "##### The interval straddles the rule (2)\n\n- [Fig. 0](report.html#c): claim c. Ours 1 × [0.9, 1.1]; rule ≤ 1 ×.\n- [Fig. 0](report.html#e)",
    );
    let cores = at(
        &md,
        "##### The cores were busy, their state unclear or the CPUs apart, and load could have caused the result (1)\n\n- [Fig. 0](report.html#d)",
    );
    assert!(straddles < cores);
    // What is not testable here: counted by cause, the claims listed in report.html.
    assert!(
        md.contains("#### Not testable here (1)\n\n1 [the cores were busy, their state unclear or the CPUs apart, and load could have caused the result](report.html#not-testable-cores)."),
        "{md}"
    );
    assert!(!md.contains("claim f"), "{md}");
    let html = html(&s).unwrap();
    assert!(html.contains(r#"<details id="parsa-inconclusive-cores" open>"#));
    assert!(html.contains(r#"<details id="not-testable-cores" open>"#));
    // Inconclusive claims come after the paper's headline claims and before what is not
    // testable here.
    let i = at(
        &html,
        r#"<h4 id="parsa-inconclusive">Inconclusive (3)</h4>"#,
    );
    assert!(i > at(&html, r#"id="parsa-headline""#));
    assert!(i < at(&html, r#"<h3 id="not-testable">"#));
}

#[test]
fn verdicts_that_depend_on_the_machine_get_their_own_section_with_each_cpu_and_reason() {
    use crate::results::{CpuColumn, CpuVerdict, MachineClaim, MachineComparison, MachineReason};
    let mut s = study();
    assert!(!html(&s).unwrap().contains("id=\"by-machine\""));
    assert!(!markdown(&s).contains("depend on the machine"));
    let cpu = |key: &str| CpuColumn {
        key: key.into(),
        description: format!("{key} CPU"),
        source: "this run".into(),
        at: "t".into(),
        older_judge: false,
    };
    let verdict = |cpu: &str, verdict| CpuVerdict {
        cpu: cpu.into(),
        verdict,
        figure: format!("{cpu} figure"),
    };
    s.machines = Some(MachineComparison {
        archive: "results/machines".into(),
        cpus: vec![cpu("amd-f25-m17"), cpu("intel-f6-m167")],
        compared: 2,
        dependent: vec![
            MachineClaim {
                id: "a".into(),
                verdicts: vec![
                    verdict("amd-f25-m17", Verdict::Holds),
                    verdict("intel-f6-m167", Verdict::DoesNotHold),
                ],
                flip: true,
                judge_may_differ: false,
                reason: Some(MachineReason {
                    claims: vec!["a".into()],
                    title: "The handoff costs more on the Xeon.".into(),
                    explained: true,
                    text: "0.044 against 0.123 µs.".into(),
                }),
            },
            MachineClaim {
                id: "b".into(),
                verdicts: vec![verdict("amd-f25-m17", Verdict::Inconclusive)],
                flip: false,
                judge_may_differ: true,
                reason: None,
            },
        ],
    });
    let page = html(&s).unwrap();
    let section = &page[at(&page, "id=\"by-machine\"")..];
    for needle in [
        "2 of the 2 claims judged on two or more CPUs",
        "1 of them may be the judge",
        "href=\"#a\">a</a> <b>flip</b>",
        "intel-f6-m167 figure",
        "measured: The handoff costs more on the Xeon.",
        "not run",
        "unexplained",
        "0.044 against 0.123 µs.",
    ] {
        assert!(section.contains(needle), "{needle}");
    }
    // After the findings, before the machine's details.
    assert!(at(&page, "id=\"findings\"") < at(&page, "id=\"by-machine\""));
    assert!(at(&page, "id=\"by-machine\"") < at(&page, "id=\"machine\""));
    let md = markdown(&s);
    assert!(md.contains("## Verdicts that depend on the machine"));
    assert!(md.contains(
        "- `a` (**flip**): amd-f25-m17 **holds** amd-f25-m17 figure; intel-f6-m167 **does not hold** intel-f6-m167 figure. Reason — measured: The handoff costs more on the Xeon."
    ));
    // Figures for flips only in the summary.
    assert!(md.contains("Differing without a flip (1; every CPU's verdict in [report.html](report.html#by-machine)): `b` (judge)."));
}
