//! `parcrypt study` end to end on the fastest seed: the files it promises, an HTML report that
//! is self-contained with a chart in every experiment, resuming, and bad input.
use common::parcrypt;

mod common;

/// No scripts, no external resources: everything the page shows is inline.
fn assert_self_contained(html: &str) {
    let lower = html.to_ascii_lowercase();
    for forbidden in [
        "<script", "<link", "<iframe", "<img", "@import", "url(", " src=",
    ] {
        assert!(
            !lower.contains(forbidden),
            "report.html contains {forbidden}"
        );
    }
    for (i, _) in lower.match_indices("http") {
        let context = &lower[i.saturating_sub(7)..(i + 40).min(lower.len())];
        assert!(
            context.contains("xmlns=\"http://www.w3.org/2000/svg"),
            "external reference near: {context}"
        );
    }
}

#[test]
fn study_writes_a_self_contained_report_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let args = [
        "study",
        "--quick",
        "--only",
        "seed002",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ];
    let r = parcrypt(&args);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for f in [
        "results.json",
        "report.html",
        "report.md",
        "seed002-table1.csv",
        "seed002-table2.csv",
        "seed002-pipeline.csv",
    ] {
        assert!(out.join(f).exists(), "{f} missing");
    }
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert_self_contained(&html);
    // Every experiment's article holds at least one chart, and the summary table is there.
    let articles: Vec<&str> = html.split("<article").skip(1).collect();
    assert_eq!(articles.len(), 3);
    for a in &articles {
        let body = a.split("</article>").next().unwrap();
        assert!(body.contains("<svg"), "an experiment without a chart");
        assert!(body.contains("measured") || body.contains("modelled") || body.contains("paper"));
    }
    assert!(html.contains("Summary of verdicts"));
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    let claims: usize = results["experiments"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["claims"].as_array().unwrap().len())
        .sum();
    assert!(claims >= 5, "{claims} claims");
    assert!(results["machine"]["logical_cores"].as_u64().unwrap() > 0);
    // A second run with the same folder resumes instead of measuring again.
    let r = parcrypt(&args);
    assert!(r.status.success());
    assert!(
        String::from_utf8_lossy(&r.stdout).contains("3 resumed"),
        "{}",
        String::from_utf8_lossy(&r.stdout)
    );
}

#[test]
fn study_refuses_unknown_seeds() {
    let r = parcrypt(&["study", "--only", "seed009"]);
    assert_eq!(r.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("unknown seed 'seed009'"));
}
