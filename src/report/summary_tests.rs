//! report.md as a summary, on a study shaped like a quick run: under 50 KB, with each
//! paper's headline claims, its counts and every finding linked to its details, and the
//! per-claim and per-experiment tables left to report.html.
use super::*;
use crate::results::{Profile, Quality, Reason};

/// A study shaped like a quick run, from the registry itself: every claim with its own text,
/// rule and figures (one per part of its rule, each with an interval but the paper's own
/// arithmetic), judged in proportions a little worse for the summary's size than the quick
/// runs on 2 cores gave (of the measured and modelled claims 45 % hold, 15 % do not, 15 % are
/// inconclusive and 25 % not testable here, against 11–19 %, 10–19 % and 31–43 %; every
/// paper-check on a defect and an eighth of the others inconsistent, about 42 against 34–39);
/// each experiment with a 40-row table and three charts, 25 at least.
fn quick_shaped() -> StudyResults {
    use crate::results::{Cell, Chart, Part, Point, Provenance, Series, Table};
    let undecided = [
        Reason::IntervalStraddles,
        Reason::WithinNoise,
        Reason::CoresUnclear,
        Reason::ModelRangeStraddles,
    ];
    let claims: Vec<ClaimResult> = crate::claims::all()
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (verdict, reason) = match c.kind {
                Kind::Measured | Kind::Modelled => match i % 20 {
                    0..=8 => (Verdict::Holds, Reason::IntervalInside),
                    9..=11 => (Verdict::DoesNotHold, Reason::IntervalOutside),
                    12..=14 => (Verdict::Inconclusive, undecided[i % 4].clone()),
                    _ => (Verdict::NotTestable, Reason::NeedsThreads(36)),
                },
                Kind::PaperCheck if c.defect.is_some() || i % 8 == 0 => {
                    (Verdict::Inconsistent, Reason::PaperInconsistent)
                }
                Kind::PaperCheck => (Verdict::Consistent, Reason::PaperConsistent),
                Kind::ByConstruction => (Verdict::ByConstruction, Reason::ByConstruction),
                Kind::NotTestable => (Verdict::NotTestable, Reason::NotTestable),
            };
            // The paper's own arithmetic is exact; our figures have intervals.
            let (low, high) = match c.kind {
                Kind::PaperCheck => (1.2345, 1.2345),
                _ => (1.1234, 1.3456),
            };
            let names = c.rule.part_names();
            let one = names.len() <= 1;
            let ours = Ours {
                value: one.then_some(1.2345),
                ci_low: one.then_some(low),
                ci_high: one.then_some(high),
                unit: c.unit.clone(),
                runs: 10,
                threads: 2,
                text: format!("1.2345 {}", c.unit),
                parts: names
                    .iter()
                    .filter(|_| !one)
                    .map(|n| Part {
                        name: n.clone(),
                        value: 1.2345,
                        ci_low: low,
                        ci_high: high,
                        unit: c.unit.clone(),
                    })
                    .collect(),
            };
            let rule = c.rule.describe(&c.unit);
            ClaimResult {
                id: c.id.clone(),
                paper_id: c.paper_id.into(),
                reference: c.reference.clone(),
                claim: c.claim.clone(),
                kind: c.kind,
                model: c.model.clone(),
                verdict,
                reason: Some(reason),
                paper: c.paper.clone(),
                paper_values: c.paper_values.clone(),
                ours,
                rule: if c.metric.is_empty() {
                    rule
                } else {
                    format!("{}: {rule}", c.metric)
                },
                rule_data: c.rule.clone(),
                tolerance: c.tolerance.clone(),
                why: format!("{} {}", c.note, c.plausible_why),
                beside: Some("1 thread: 0.9 ×".into()),
                experiment: c.experiment.into(),
                headline: c.headline,
                defect: c.defect.map(String::from),
                confirms: c.confirms,
                untested: c.untested.clone(),
                assumptions: c.assumptions.clone(),
                setting: c.setting(),
                differs: c.untested.clone(),
                root: c.root.map(String::from),
            }
        })
        .collect();
    let mut ids: Vec<(String, String)> = Vec::new();
    for c in &claims {
        if !ids.iter().any(|(id, _)| *id == c.experiment) {
            ids.push((c.experiment.clone(), c.paper_id.clone()));
        }
    }
    for k in ids.len()..25 {
        ids.push((format!("parsa-more-{k}"), "parsa".into()));
    }
    let experiments = ids
        .into_iter()
        .map(|(id, paper)| {
            let mut table = Table::new(&["configuration", "time"]);
            for row in 0..40 {
                table.push(vec![
                    Cell::Text(format!("a table cell of {id}, row {row}")),
                    Cell::Num(row as f64),
                ]);
            }
            let points = (1..8)
                .map(|x| Point::new(x as f64, 1.0 / x as f64))
                .collect();
            let chart = Chart::line("A chart", "threads", "time (s)", false).with(Series::new(
                "ours",
                points,
                Provenance::Measured,
            ));
            ExperimentResult::new(
                &id,
                paper,
                format!("The experiment {id}"),
                "Figs. 7–10, Table 8",
                Provenance::Measured,
                "What was run, at which sizes, and what it shows.",
            )
            .with_table(table)
            .with_charts(vec![chart.clone(), chart.clone(), chart])
            .with_quality(Quality {
                rounds: 10,
                extra_rounds: 4,
                spread_pct: 3.5,
                ..Quality::default()
            })
        })
        .collect();
    StudyResults {
        machine: crate::bench::MachineInfo::detect(),
        profile: Profile::Quick,
        parcrypt_version: "test".into(),
        claims,
        experiments,
        resumed: vec![],
        elapsed_s: 300.0,
        machines: None,
    }
}

/// report.md is a summary: under 50 KB for a quick-shaped study, with each paper's headline
/// claims, its counts, every finding a skeptical reader needs first (what does not hold, each
/// defect, what is inconclusive) linked to its details, and where the rest is; the per-claim
/// and per-experiment tables stay in report.html.
#[test]
fn report_md_of_a_quick_shaped_study_is_a_summary_under_50_kb() {
    let s = quick_shaped();
    assert!(s.claims.len() >= 259, "{} claims", s.claims.len());
    assert!(s.experiments.len() >= 25);
    let md = markdown(&s);
    assert!(md.len() < 50_000, "report.md is {} bytes", md.len());
    for p in papers::PAPERS {
        let of: Vec<&ClaimResult> = s.claims.iter().filter(|c| c.paper_id == p.id).collect();
        assert!(
            md.contains(&format!(
                "]({HTML}#{id}) ({id}) — {} claims: ",
                of.len(),
                HTML = "report.html",
                id = p.id
            )),
            "{}: no counts heading",
            p.id
        );
        let headline: Vec<&&ClaimResult> = of.iter().filter(|c| c.headline).collect();
        assert!(!headline.is_empty(), "{}: no headline claim", p.id);
        assert!(
            md.contains(&format!(
                "<a id=\"{}-headline\"></a>\n#### Headline claims: what the abstract and conclusion state ({})",
                p.id,
                headline.len()
            )),
            "{}: no headline section",
            p.id
        );
        // Counts by kind and verdict, per paper.
        let measured = of.iter().filter(|c| c.kind == Kind::Measured).count();
        let holds = of
            .iter()
            .filter(|c| c.kind == Kind::Measured && c.verdict == Verdict::Holds)
            .count();
        if holds > 0 {
            assert!(
                md.contains(&format!("By kind: measured {measured} ({holds} holds")),
                "{}: no counts by kind",
                p.id
            );
        }
    }
    // Every headline claim and every finding is there, linked to its details in report.html.
    for c in &s.claims {
        let listed = c.headline
            || matches!(
                c.verdict,
                Verdict::DoesNotHold | Verdict::Inconclusive | Verdict::Inconsistent
            );
        if listed {
            assert!(
                md.contains(&format!("(report.html#{})", c.id)),
                "{} missing",
                c.id
            );
        }
    }
    let counted = s.count(Kind::Measured, Verdict::Holds);
    assert!(md.contains(&format!(
        "| measured | [{counted}](report.html#measured-holds) |"
    )));
    // Where the rest is: each experiment's section and CSV files, every claim, results.json.
    for e in &s.experiments {
        assert!(md.contains(&format!("](report.html#{})", e.id)), "{}", e.id);
        assert!(
            md.contains(&format!(
                "(report.html#{id}) — Figs. 7–10, Table 8; measured: `{id}`, 3 charts.",
                id = e.id
            )),
            "{}",
            e.id
        );
    }
    assert!(md.contains("(report.html#claims)") && md.contains("**results.json**"));
    // The tables are report.html's alone.
    assert!(
        !md.contains("a table cell of"),
        "an experiment's table in report.md"
    );
    assert!(!md.contains("## Every claim"));
    let html = html(&s).unwrap();
    assert!(html.contains("a table cell of parsa-more-24, row 39"));
    for c in &s.claims {
        assert!(html.contains(&format!("<tr id=\"{}\">", c.id)), "{}", c.id);
    }
}
