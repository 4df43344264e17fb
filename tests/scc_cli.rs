//! `parcrypt scc`: the SCC model's command — predictions with sources, sensitivity, JSON, a
//! small calibration run, and bad inputs refused in one line with exit status 2.
mod common;
use common::{assert_one_line_error, parcrypt};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn default_run_prints_sources_points_and_the_optimum() {
    let out = parcrypt(&["scc"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    for needle in [
        "model:scc",
        "core-mhz",
        "paper:scc-blowfish",
        "6x4 Mesh Network",
        "assumed",
        "limited_by",
        "optimal chunk among those asked",
        "paper (SCC Blowfish): 8192 B optimum",
    ] {
        assert!(text.contains(needle), "'{needle}' missing:\n{text}");
    }
    // One row per default chunk size.
    for chunk in ["1024", "2048", "4096", "8192", "16384", "32768", "65536"] {
        assert!(
            text.lines().any(|l| l.trim_start().starts_with(chunk)),
            "{chunk}"
        );
    }
}

#[test]
fn overrides_change_the_prediction_and_are_marked() {
    let base = stdout(&parcrypt(&["scc", "--chunk", "8K"]));
    let slow = stdout(&parcrypt(&[
        "scc",
        "--chunk",
        "8K",
        "--handshake-us",
        "200",
    ]));
    assert!(slow.contains("[override]"), "{slow}");
    let time = |t: &str| {
        t.lines()
            .find(|l| l.trim_start().starts_with("8192"))
            .and_then(|l| l.split_whitespace().nth(3))
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap()
    };
    assert!(time(&slow) > time(&base), "{slow}\n{base}");
}

#[test]
fn sensitivity_and_json_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("scc.json");
    let out = parcrypt(&[
        "scc",
        "--chunk",
        "1K,8K,64K",
        "--sensitivity",
        "--stage-detail",
        "--json",
        path.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("most sensitive: speedup ->"), "{text}");
    assert!(text.contains("compute-only bound at 8 KB"), "{text}");
    assert!(text.contains("per-stage times"), "{text}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(json["model"], "model:scc");
    assert_eq!(json["sweep"]["points"].as_array().unwrap().len(), 3);
    assert_eq!(json["params"].as_array().unwrap().len(), 12);
    assert!(json["claims"]["sensitivity"]["rows"].is_array());
    assert!(json["calibration"].is_null());
}

#[test]
fn a_small_calibration_compares_prediction_and_measurement() {
    let out = parcrypt(&[
        "scc",
        "--calibrate",
        "--quiet",
        "--chunk",
        "8K",
        "--calibrate-stages",
        "4",
        "--size",
        "64K",
        "--runs",
        "1",
        "--min-time",
        "0",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("calibration on this machine"), "{text}");
    assert!(text.contains("mean |error|"), "{text}");
}

#[test]
fn bad_inputs_are_one_line_usage_errors_without_output() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.json");
    let p = path.to_str().unwrap();
    for (args, needle) in [
        (vec!["scc", "--chunk", "0"], "at least 1"),
        (vec!["scc", "--chunk", "1K,abc"], "abc"),
        (vec!["scc", "--chunk", "1Q"], "unknown unit"),
        (vec!["scc", "--chunk", "12"], "multiple of 8"),
        (vec!["scc", "--size", "0"], "at least 1"),
        (vec!["scc", "--core-mhz", "-5"], "core-mhz"),
        (vec!["scc", "--handshake-us", "0"], "handshake-us"),
        (vec!["scc", "--mpb-read-mbps", "nan"], "mpb-read-mbps"),
        (
            vec!["scc", "--mpb-reserved-bytes", "9000"],
            "leaves no whole",
        ),
        (vec!["scc", "--stages", "40"], "stages"),
        (vec!["scc", "--stages", "2"], "stages"),
        (vec!["scc", "--calibrate", "--runs", "0"], "at least 1"),
        (vec!["scc", "--min-time", "-1", "--calibrate"], "min-time"),
    ] {
        let mut args = args.clone();
        args.extend(["--json", p]);
        let out = parcrypt(&args);
        assert_one_line_error(&out, 2, needle);
        assert!(!path.exists(), "{args:?} left a file");
    }
}
