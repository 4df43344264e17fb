//! `parcrypt study` end to end on the fastest seed: the files it promises, an HTML report that
//! is self-contained with a chart in every experiment, report.md as its summary linked into
//! it, results.json's claims in the promised shape, resuming, `study diff`, and bad input.
use common::{assert_one_line_error, parcrypt};

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
        "crsa",
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
        "crsa-table1.csv",
        "crsa-table2.csv",
        "crsa-pipeline.csv",
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
    assert!(html.contains("Verdicts by kind"));
    // report.md is the summary: the paper's headline claims and counts, each link to a
    // detail an anchor of report.html, no per-claim or per-experiment table.
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("<a id=\"crsa-headline\"></a>\n#### Headline claims")
            && md.contains("\nBy kind: "),
        "{md}"
    );
    let links: Vec<&str> = md
        .split("](report.html#")
        .skip(1)
        .map(|rest| rest.split(')').next().unwrap())
        .collect();
    assert!(links.len() > 10, "{} links", links.len());
    for anchor in links {
        assert!(
            html.contains(&format!(" id=\"{anchor}\"")),
            "report.md links to #{anchor}, which report.html lacks"
        );
    }
    // It opens with the all-papers table (a header, a rule, a row per headline claim); after
    // it, its one table is the counts': a header, a rule and a row per kind.
    let (glance, rest) = md
        .split_once("<a id=\"findings\"></a>")
        .expect("the findings follow the all-papers table");
    assert!(glance.contains("## The five papers at a glance"), "{md}");
    let rows = rest.lines().filter(|l| l.starts_with('|')).count();
    assert!(
        rows <= 2 + 5,
        "{rows} table rows in report.md after the all-papers table"
    );
    let results: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("results.json")).unwrap()).unwrap();
    // The data behind every chart lies beside the report, a row per point and reference line,
    // and the report names the file under its chart.
    for e in results["experiments"].as_array().unwrap() {
        for (i, c) in e["charts"].as_array().unwrap().iter().enumerate() {
            let name = format!("{}.chart{}.csv", e["id"].as_str().unwrap(), i + 1);
            let csv = std::fs::read_to_string(out.join(&name)).expect(&name);
            let points: usize = c["series"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["points"].as_array().unwrap().len())
                .sum();
            let refs = c["references"].as_array().map_or(0, Vec::len);
            assert_eq!(csv.lines().count(), 1 + points + refs, "{name}");
            assert!(
                html.contains(&format!("href=\"{name}\"")),
                "{name} not linked"
            );
        }
    }
    let claims = results["claims"].as_array().unwrap();
    assert!(claims.len() >= 7, "{} claims", claims.len());
    let kinds = [
        "measured",
        "modelled",
        "paper-check",
        "by-construction",
        "not-testable",
    ];
    let verdicts = [
        "holds",
        "does-not-hold",
        "inconclusive",
        "consistent",
        "inconsistent",
        "by-construction",
        "not-testable",
    ];
    for c in claims {
        for key in [
            "id", "paper_id", "ref", "claim", "kind", "verdict", "paper", "rule", "why",
        ] {
            assert!(c[key].is_string(), "{key} missing in {c}");
        }
        for key in ["unit", "text"] {
            assert!(c["ours"][key].is_string(), "ours.{key} missing in {c}");
        }
        for key in ["runs", "threads"] {
            assert!(c["ours"][key].is_u64(), "ours.{key} missing in {c}");
        }
        let (kind, verdict) = (c["kind"].as_str().unwrap(), c["verdict"].as_str().unwrap());
        assert!(kinds.contains(&kind) && verdicts.contains(&verdict), "{c}");
        // Only measured and modelled claims can hold.
        if verdict == "holds" || verdict == "does-not-hold" || verdict == "inconclusive" {
            assert!(kind == "measured" || kind == "modelled", "{c}");
        }
        if kind == "measured" && c["ours"]["value"].is_number() {
            let (lo, hi) = (&c["ours"]["ci_low"], &c["ours"]["ci_high"]);
            assert!(lo.as_f64().unwrap() <= hi.as_f64().unwrap(), "{c}");
        }
    }
    assert!(
        claims.iter().any(|c| c["kind"] == "by-construction"),
        "Fig. 3's PE count is by construction"
    );
    assert!(results["machine"]["logical_cores"].as_u64().unwrap() > 0);
    // A second run with the same folder resumes instead of measuring again, and says so
    // first: what, when, and how to measure again; no time estimate for nothing to run.
    let r = parcrypt(&args);
    assert!(r.status.success());
    assert!(
        String::from_utf8_lossy(&r.stdout).contains("3 resumed"),
        "{}",
        String::from_utf8_lossy(&r.stdout)
    );
    let said = String::from_utf8_lossy(&r.stderr);
    assert!(
        said.contains("all 3 experiment(s) were already measured in")
            && (said.contains("(on 20") || said.contains("(between 20"))
            && said.contains("add --fresh (or delete"),
        "{said}"
    );
    assert!(!said.contains("expected about"), "{said}");
    // --fresh measures them again, and the header's estimate is back.
    let mut fresh = args.to_vec();
    fresh.push("--fresh");
    let r = parcrypt(&fresh);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(String::from_utf8_lossy(&r.stdout).contains("(0 resumed)"));
    let said = String::from_utf8_lossy(&r.stderr);
    assert!(
        said.contains("3 experiment(s) to measure, expected about") && !said.contains("already"),
        "{said}"
    );
    // A study compared with itself differs nowhere.
    let o = out.to_str().unwrap();
    let r = parcrypt(&["study", "diff", o, o]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(
        text.contains(&format!("0 of {} claims differ", claims.len())),
        "{text}"
    );
    // Folder or results.json, both runs named, every claim's change with --json.
    let file = out.join("results.json");
    let r = parcrypt(&["study", "diff", file.to_str().unwrap(), o, "--json", "-"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let d: serde_json::Value = serde_json::from_slice(&r.stdout).expect("JSON alone");
    assert_eq!(d["first"]["path"], file.to_str().unwrap());
    let now: serde_json::Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(d["second"]["at"], now["machine"]["detected_at"]);
    assert_eq!(d["compared"], claims.len());
    assert_eq!(d["claims"].as_array().unwrap().len(), claims.len());
    for c in d["claims"].as_array().unwrap() {
        assert!(c["before"]["reason"].is_string(), "{c}");
        if let Some(ch) = c["change"].as_object() {
            // The same run against itself: no change, as a ratio or as a difference.
            let none = if ch["kind"] == "difference" { 0.0 } else { 1.0 };
            assert_eq!(ch["value"], none, "{c}");
        }
    }
    let r = parcrypt(&["study", "diff", o, o, "--all"]);
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(text.contains("numeric change of every claim"), "{text}");
    assert!(text.contains("within noise"), "{text}");
    // A claim moved from holds to does-not-hold makes diff fail; one moved to inconclusive
    // is listed without failing.
    let flipped = dir.path().join("flipped");
    std::fs::create_dir_all(&flipped).unwrap();
    let mut edited = results.clone();
    let mut moved = edited.clone();
    let holds = claims
        .iter()
        .position(|c| c["verdict"] == "holds")
        .expect("a claim holds");
    edited["claims"][holds]["verdict"] = "does-not-hold".into();
    moved["claims"][holds]["verdict"] = "inconclusive".into();
    let write = |v: &serde_json::Value| {
        std::fs::write(flipped.join("results.json"), serde_json::to_vec(v).unwrap()).unwrap()
    };
    write(&moved);
    let r = parcrypt(&["study", "diff", o, flipped.to_str().unwrap()]);
    assert!(r.status.success());
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(text.contains("-> inconclusive ("), "{text}");
    assert!(
        text.contains("       ours: ") && text.contains("       change: "),
        "{text}"
    );
    write(&edited);
    let r = parcrypt(&["study", "diff", o, flipped.to_str().unwrap()]);
    assert_one_line_error(&r, 1, "moved between holds and does-not-hold");
    assert!(String::from_utf8_lossy(&r.stdout).contains("FLIP"));
}

/// A results.json written before verdicts carried reasons (claims of an earlier kept quick
/// study, tests/fixtures/study) still loads and compares.
#[test]
fn study_diff_reads_results_without_reasons() {
    let old = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/study/results-before-reasons.json"
    );
    let r = parcrypt(&["study", "diff", old, old, "--json", "-"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let d: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(d["compared"], 5);
    assert_eq!(d["verdicts_changed"], 0);
    assert!(d["claims"][0]["before"]["reason"].is_null());
}

#[test]
fn study_diff_refuses_folders_without_results() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    assert_one_line_error(&parcrypt(&["study", "diff", d, d]), 1, "results.json");
    // A file that is there but is not a study's results is bad input (usage, exit 2).
    std::fs::write(dir.path().join("results.json"), "{not json").unwrap();
    assert_one_line_error(
        &parcrypt(&["study", "diff", d, d]),
        2,
        "not a study's results",
    );
}

#[test]
fn study_refuses_unknown_seeds() {
    let r = parcrypt(&["study", "--only", "seed009"]);
    assert_eq!(r.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("unknown paper_id 'seed009'"));
}

/// `study diff RUN --archive DIR` sets a run beside the results archive by machine (the
/// kept results/machines) and says which verdicts differ by CPU; `study archive` refuses a
/// run whose results.json names no CPU, writing nothing; a folder that is no archive is one
/// clear error.
#[test]
fn study_diff_against_the_archive_and_filing_a_run() {
    let root = env!("CARGO_MANIFEST_DIR");
    let archive = format!("{root}/results/machines");
    let zen5 = format!("{archive}/amd-f26-m2");
    let r = parcrypt(&["study", "diff", &zen5, "--archive", &archive]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = String::from_utf8_lossy(&r.stdout);
    assert!(text.contains("differ by machine"), "{text}");
    assert!(text.contains("intel-f6-m167"), "{text}");
    let r = parcrypt(&["study", "diff", &zen5, "--archive", &archive, "--json", "-"]);
    let m: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert!(m["dependent"].as_array().is_some_and(|d| !d.is_empty()));
    // With a second study, the diff's JSON gains "machines".
    let r = parcrypt(&[
        "study",
        "diff",
        &zen5,
        &zen5,
        "--archive",
        &archive,
        "--json",
        "-",
    ]);
    let d: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(d["verdicts_changed"], 0);
    assert!(d["machines"]["cpus"].is_array());
    // Neither a second study nor an archive: a usage error.
    let r = parcrypt(&["study", "diff", &zen5]);
    assert_eq!(r.status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    assert_one_line_error(
        &parcrypt(&["study", "diff", &zen5, "--archive", d]),
        2,
        "no archived run",
    );
    // The Zen 5 run predates the CPU record: refused, nothing written.
    let into = dir.path().join("machines");
    assert_one_line_error(
        &parcrypt(&["study", "archive", &zen5, "--into", into.to_str().unwrap()]),
        2,
        "names no CPU",
    );
    assert!(!into.exists());
}
