//! One command-line grammar (issue 10, item 6): every `bench` subcommand takes the same run
//! and output options with the same defaults; `--json F` is a file everywhere (`-` for
//! stdout); every output path is checked before any work, so a bad one fails at once with one
//! line, exit 2, and no file; JSON records carry their per-run `times`.
mod common;

use common::{assert_one_line_error, parcrypt};
use serde_json::Value;
use std::path::Path;

/// Every bench subcommand, with arguments that keep a run tiny.
const BENCHES: [&[&str]; 8] = [
    &["rsa", "--bits", "512", "--messages", "2", "--threads", "1"],
    &[
        "modexp",
        "--bits",
        "64",
        "--methods",
        "binary",
        "--threads",
        "1",
    ],
    &[
        "rsa-private",
        "--bits",
        "512",
        "--methods",
        "crt",
        "--openssl-seconds",
        "0",
    ],
    &[
        "mul",
        "--bits",
        "1024",
        "--methods",
        "gmp",
        "--threads",
        "2",
    ],
    &["handoff"],
    &["cipher", "--alg", "rc4", "--size", "4KiB", "--threads", "1"],
    &[
        "pipeline", "--chunk", "64", "--stages", "4", "--size", "4KiB", "--groups", "0",
    ],
    &["peers", "--rows", "product-32k"],
];

/// The shared options and their defaults, as `--help` shows them.
const SHARED: [(&str, Option<&str>); 8] = [
    ("--warmup", Some("1")),
    ("--runs", Some("5")),
    ("--min-time", Some("0.5")),
    ("--max-runs", Some("1000")),
    ("--json", None),
    ("--csv", None),
    ("--markdown", None),
    ("--quiet", None),
];

fn bench(sub: &[&str], more: &[&str]) -> std::process::Output {
    let mut args = vec!["bench"];
    args.extend_from_slice(sub);
    args.extend_from_slice(more);
    parcrypt(&args)
}

/// A usage error that did nothing: one line, exit 2, nothing on stdout.
fn assert_refused_before_work(out: &std::process::Output, needle: &str) {
    assert_one_line_error(out, 2, needle);
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

fn is_empty_dir(dir: &Path) -> bool {
    std::fs::read_dir(dir).unwrap().next().is_none()
}

#[test]
fn every_bench_takes_the_same_options_with_the_same_defaults() {
    for sub in BENCHES {
        let out = bench(&sub[..1], &["--help"]);
        assert_eq!(out.status.code(), Some(0));
        let help = String::from_utf8_lossy(&out.stdout);
        for (flag, default) in SHARED {
            let line = help
                .lines()
                .find(|l| l.trim_start().starts_with(flag))
                .unwrap_or_else(|| panic!("bench {}: no {flag} in\n{help}", sub[0]));
            if let Some(d) = default {
                // clap puts the default at the end of the help paragraph.
                let from = help.find(line).unwrap();
                let para = &help[from..help[from..].find("\n\n").map_or(help.len(), |e| from + e)];
                assert!(
                    para.contains(&format!("[default: {d}]")),
                    "bench {}: {flag} default is not {d}: {para}",
                    sub[0]
                );
            }
        }
    }
}

#[test]
fn a_folder_or_a_missing_folder_as_output_fails_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let missing = dir.path().join("no/such/r.json");
    let missing = missing.to_str().unwrap();
    for sub in BENCHES {
        for flag in ["--json", "--csv", "--markdown"] {
            let out = bench(sub, &["--quiet", flag, folder]);
            assert_refused_before_work(&out, &format!("{flag} {folder}: is a folder"));
        }
        let out = bench(sub, &["--quiet", "--json", missing]);
        assert_refused_before_work(&out, "does not exist");
        assert!(is_empty_dir(dir.path()), "bench {}: left a file", sub[0]);
    }
    // The same file twice, and stdout twice.
    let f = dir.path().join("r.out");
    let f = f.to_str().unwrap();
    let out = bench(BENCHES[4], &["--json", f, "--csv", f]);
    assert_refused_before_work(&out, "name the same file");
    let out = bench(BENCHES[4], &["--json", "-", "--csv", "-"]);
    assert_refused_before_work(&out, "only one output can be -");
    assert!(is_empty_dir(dir.path()));
    // Run options are checked as early.
    let out = bench(BENCHES[4], &["--min-time", "soon"]);
    assert_one_line_error(&out, 2, "non-negative number of seconds");
    let out = bench(BENCHES[4], &["--runs", "5", "--max-runs", "2"]);
    assert_refused_before_work(&out, "--max-runs (2) must be at least --runs (5)");
}

#[test]
fn dse_checks_its_json_file_before_measuring() {
    let out = parcrypt(&["dse", "--json", "/nonexistent/d.json"]);
    assert_refused_before_work(
        &out,
        "--json /nonexistent/d.json: folder /nonexistent does not exist",
    );
    let dir = tempfile::tempdir().unwrap();
    let out = parcrypt(&["dse", "--json", dir.path().to_str().unwrap()]);
    assert_refused_before_work(&out, "is a folder");
}

#[test]
fn handoff_writes_every_format_with_per_run_times() {
    let dir = tempfile::tempdir().unwrap();
    let (json, csv, md) = (
        dir.path().join("h.json"),
        dir.path().join("h.csv"),
        dir.path().join("h.md"),
    );
    let quick = [
        "--runs",
        "3",
        "--max-runs",
        "3",
        "--min-time",
        "0",
        "--warmup",
        "0",
        "--quiet",
    ];
    let mut args = quick.to_vec();
    for (flag, p) in [("--json", &json), ("--csv", &csv), ("--markdown", &md)] {
        args.extend([flag, p.to_str().unwrap()]);
    }
    let out = bench(&["handoff"], &args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("median_us"));
    let v: Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(v["machine"]["logical_cores"].as_u64().unwrap() >= 1);
    for r in v["results"].as_array().unwrap() {
        let times = r["times"].as_array().unwrap();
        assert_eq!(times.len() as u64, r["runs"].as_u64().unwrap());
        let t: Vec<f64> = times.iter().map(|t| t.as_f64().unwrap()).collect();
        let min = t.iter().cloned().fold(f64::INFINITY, f64::min);
        assert!((min - r["min_s"].as_f64().unwrap()).abs() <= 1e-12 * min.max(1.0));
    }
    let text = std::fs::read_to_string(&csv).unwrap();
    let header = text.lines().next().unwrap();
    assert!(
        header.contains("median_s") && header.contains("median_us"),
        "{header}"
    );
    assert!(!header.contains("times"), "{header}");
    assert!(
        std::fs::read_to_string(&md)
            .unwrap()
            .starts_with("| primitive")
    );
    // `--json -` puts the JSON alone on stdout.
    let mut args = quick.to_vec();
    args.extend(["--json", "-"]);
    let out = bench(&["handoff"], &args);
    let v: Value = serde_json::from_slice(&out.stdout).expect("stdout is JSON alone");
    assert!(v["results"][0]["times"].is_array());
}

#[test]
fn one_result_commands_write_json_files_and_show_json_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let point = ["--preset", "core2duo", "--node", "90", "--freq", "1600"];
    for cmd in [&["power"][..], &["reliability"], &["presets"]] {
        let with_point = |more: &[&str]| {
            let mut a = cmd.to_vec();
            if cmd[0] != "presets" {
                a.extend(point);
            }
            a.extend_from_slice(more);
            parcrypt(&a)
        };
        // A folder is refused before anything is computed or printed.
        assert_refused_before_work(&with_point(&["--json", folder]), "is a folder");
        // --json F writes the file and keeps the text on stdout.
        let file = dir.path().join(format!("{}.json", cmd[0]));
        let out = with_point(&["--json", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(0));
        let written: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        assert!(
            serde_json::from_slice::<Value>(&out.stdout).is_err(),
            "text on stdout"
        );
        // --format json and --json - show the same JSON on stdout.
        for more in [&["--format", "json"][..], &["--json", "-"]] {
            let shown: Value = serde_json::from_slice(&with_point(more).stdout).unwrap();
            assert_eq!(shown, written, "{cmd:?} {more:?}");
        }
    }
}

#[test]
fn energy_checks_its_files_before_running_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    for flag in ["--json", "--output"] {
        let out = parcrypt(&[
            "energy",
            "--meter",
            "model",
            flag,
            dir.path().to_str().unwrap(),
            "--",
            "touch",
            marker.to_str().unwrap(),
        ]);
        assert_refused_before_work(&out, "is a folder");
        assert!(!marker.exists(), "the command ran");
    }
    let report = dir.path().join("e.json");
    let out = parcrypt(&[
        "energy",
        "--meter",
        "model",
        "--json",
        report.to_str().unwrap(),
        "--",
        "true",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert!(v["source"].as_str().unwrap().starts_with("model:"));
    assert!(String::from_utf8_lossy(&out.stderr).contains("energy: "));
}
