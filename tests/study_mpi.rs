//! `parcrypt study` with an MPI run: a real `parcrypt-mpi pipeline` result (tests/fixtures/mpi,
//! see its README) shown beside SCC Blowfish's thread experiment, labelled by backend, in
//! results.json, the CSV and the report; found in OUT/mpi/ as well as named; and a bad MPI file
//! refused with one line, exit 2, before anything is written. The same run checks SCC Blowfish's
//! modelled SCC claims as results.json carries them.
use common::{assert_one_line_error, parcrypt};
use serde_json::Value;

mod common;

const FIXTURE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/fixtures/mpi/pipeline-2ranks.json"
);

fn results(dir: &std::path::Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("results.json")).unwrap()).unwrap()
}

fn mpi_experiment(results: &Value) -> (usize, Value) {
    let exps = results["experiments"].as_array().unwrap();
    let i = exps
        .iter()
        .position(|e| e["id"] == "scc-blowfish-mpi-pipeline")
        .expect("the MPI run is in results.json");
    (i, exps[i].clone())
}

#[test]
fn study_shows_an_mpi_run_beside_the_thread_figures() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("s");
    let o = out.to_str().unwrap();
    let r = parcrypt(&[
        "study",
        "--quick",
        "--only",
        "scc-blowfish",
        "--quiet",
        "--out",
        o,
        "--mpi-results",
        FIXTURE,
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let res = results(&out);
    let (i, e) = mpi_experiment(&res);
    let exps = res["experiments"].as_array().unwrap();
    assert_eq!(
        exps[i - 1]["id"],
        "scc-blowfish-pipeline",
        "after the thread experiment"
    );
    assert_eq!(e["paper_id"], "scc-blowfish");
    let cols: Vec<&str> = e["table"]["columns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(&cols[..3], ["backend", "ranks", "hosts"]);
    let rows = e["table"]["rows"].as_array().unwrap();
    let fixture: Value = serde_json::from_slice(&std::fs::read(FIXTURE).unwrap()).unwrap();
    assert_eq!(rows.len(), fixture["results"].as_array().unwrap().len());
    let mpi: Vec<&Value> = rows.iter().filter(|r| r[0] == "mpi").collect();
    assert!(!mpi.is_empty() && mpi.iter().all(|r| r[1] == 2 && r[2] == 1));
    assert!(rows.iter().any(|r| r[0] == "threads"));
    // The figures are the file's, not re-measured.
    let first_mpi = fixture["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["backend"] == "mpi")
        .unwrap();
    assert_eq!(mpi[0][4], first_mpi["median_s"]);
    assert!(
        e["summary"]
            .as_str()
            .unwrap()
            .contains("pipeline-2ranks.json")
    );
    // The CSV and the report carry it with its labels.
    let csv = std::fs::read_to_string(out.join("scc-blowfish-mpi-pipeline.csv")).unwrap();
    assert!(csv.starts_with("backend,ranks,hosts"), "{csv}");
    // report.md names the run among the paper's experiments, report.html shows its rows.
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(
        md.contains("over MPI ranks](report.html#scc-blowfish-mpi-pipeline) — "),
        "report.md"
    );
    let html = std::fs::read_to_string(out.join("report.html")).unwrap();
    assert!(html.contains("mpi: 2 ranks on 1 host"), "report.html");
    // The MPI run judges no claim.
    assert!(
        res["claims"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["experiment"] != "scc-blowfish-mpi-pipeline")
    );
    // SCC Blowfish's three modelled claims: named model, range over the sweep, validation,
    // sensitivity.
    for id in [
        "scc-blowfish-sv-speedup-scc",
        "scc-blowfish-fig11-energy-scc",
        "scc-blowfish-fig8-best-chunk-scc",
    ] {
        let c = res["claims"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap_or_else(|| panic!("{id} missing"));
        assert_eq!(c["kind"], "modelled");
        assert_eq!(c["model"], "model:scc");
        // One figure in `ours`, or one per part (the best chunk's two sides) in `ours.parts`.
        let parts = c["ours"]["parts"].as_array().cloned().unwrap_or_default();
        let figures = if parts.is_empty() {
            vec![c["ours"].clone()]
        } else {
            parts
        };
        for f in &figures {
            let (lo, v, hi) = (
                f["ci_low"].as_f64().unwrap(),
                f["value"].as_f64().unwrap(),
                f["ci_high"].as_f64().unwrap(),
            );
            assert!(lo <= v && v <= hi && lo < hi, "{c}");
        }
        let why = c["why"].as_str().unwrap();
        assert!(
            why.contains("mean |error|") && why.contains("most sensitive parameter"),
            "{why}"
        );
    }

    // Dropped in OUT/mpi/ instead of named: found (the experiments themselves resume).
    std::fs::create_dir_all(out.join("mpi")).unwrap();
    std::fs::copy(FIXTURE, out.join("mpi").join("run.json")).unwrap();
    let r = parcrypt(&[
        "study",
        "--quick",
        "--only",
        "scc-blowfish",
        "--quiet",
        "--out",
        o,
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let (_, again) = mpi_experiment(&results(&out));
    assert_eq!(again["table"], e["table"]);
}

#[test]
fn a_bad_mpi_file_is_one_line_exit_2_and_nothing_written() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    let out = dir.path().join("s");
    let o = out.to_str().unwrap();
    let run = |f: &std::path::Path| {
        parcrypt(&[
            "study",
            "--quick",
            "--quiet",
            "--out",
            o,
            "--mpi-results",
            f.to_str().unwrap(),
        ])
    };
    std::fs::write(&bad, "{\"machine\": {}, \"results\": [").unwrap();
    assert_one_line_error(&run(&bad), 2, "not a parcrypt-mpi result");
    // Thread results only: no MPI figure to show.
    let mut doc: Value = serde_json::from_slice(&std::fs::read(FIXTURE).unwrap()).unwrap();
    let threads: Vec<Value> = doc["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["backend"] == "threads")
        .cloned()
        .collect();
    doc["results"] = Value::Array(threads);
    std::fs::write(&bad, serde_json::to_vec(&doc).unwrap()).unwrap();
    assert_one_line_error(&run(&bad), 2, "no result with backend 'mpi'");
    assert_one_line_error(&run(&dir.path().join("missing.json")), 2, "cannot read");
    assert!(!out.exists(), "no partial output");
    // A bad file found in OUT/mpi/ is refused alike, and nothing else is written.
    std::fs::create_dir_all(out.join("mpi")).unwrap();
    std::fs::write(out.join("mpi").join("x.json"), "[]").unwrap();
    let r = parcrypt(&["study", "--quick", "--quiet", "--out", o]);
    assert_one_line_error(&r, 2, "x.json");
    let left: Vec<_> = std::fs::read_dir(&out).unwrap().collect();
    assert_eq!(left.len(), 1, "only the mpi/ folder the test made");
}
