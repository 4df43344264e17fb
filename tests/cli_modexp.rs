//! `parcrypt modexp`, `bench modexp` and `bench rsa-private` from the outside: results, listing
//! and every bad input of the issue (one line on stderr, exit 2, no panic).
use common::parcrypt;
use std::process::Output;

mod common;

fn assert_usage_error(out: &Output, needle: &str) {
    common::assert_one_line_error(out, 2, needle);
}

#[test]
fn list_prints_one_name_per_line_and_every_method_computes() {
    let out = parcrypt(&["modexp", "--list"]);
    assert!(out.status.success());
    let names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert!(names.len() >= 11, "{names:?}");
    for name in &names {
        // 3^0xffff mod 0x10001 (odd modulus: every method applies)
        let out = parcrypt(&[
            "modexp",
            "--method",
            name,
            "--base",
            "3",
            "--exp",
            "ffff",
            "--mod",
            "10001",
            "--threads",
            "3",
        ]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "5556",
            "{name}"
        );
    }
}

#[test]
fn edge_inputs_work() {
    for (b, e, m, want) in [
        ("5", "0", "7", "1"),
        ("0", "5", "7", "0"),
        ("9", "3", "7", "1"),
        ("5", "5", "1", "0"),
        ("3", "1", "7", "3"),
    ] {
        let out = parcrypt(&[
            "modexp",
            "--method",
            "slice",
            "--base",
            b,
            "--exp",
            e,
            "--mod",
            m,
            "--threads",
            "8",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            want,
            "{b}^{e} mod {m}"
        );
    }
}

#[test]
fn bad_inputs_are_one_line_usage_errors() {
    let base = ["modexp", "--base", "3", "--exp", "11"];
    let cases: &[(&[&str], &str)] = &[
        (&["--method", "montgomery", "--mod", "10"], "odd modulus"),
        (
            &["--method", "binary", "--mod", "0"],
            "modulus must be positive",
        ),
        (&["--method", "binary", "--mod", "xyz"], "hex"),
        (&["--method", "nope", "--mod", "7"], "unknown method 'nope'"),
        (
            &["--method", "mary", "--mod", "7", "--window", "0"],
            "window size",
        ),
        (
            &["--method", "mary", "--mod", "7", "--window", "13"],
            "window size",
        ),
        (
            &["--method", "slice", "--mod", "7", "--threads", "0"],
            "at least 1",
        ),
    ];
    for (extra, needle) in cases {
        let mut args: Vec<&str> = base.to_vec();
        args.extend_from_slice(extra);
        assert_usage_error(&parcrypt(&args), needle);
    }
    assert_usage_error(
        &parcrypt(&["bench", "modexp", "--methods", "binary,warp"]),
        "unknown method 'warp'",
    );
    assert_usage_error(
        &parcrypt(&["bench", "modexp", "--bits", "12"]),
        "64..=65536",
    );
    assert_usage_error(
        &parcrypt(&["bench", "rsa-private", "--methods", "crt,fast"]),
        "unknown method 'fast'",
    );
    assert_usage_error(
        &parcrypt(&["bench", "rsa-private", "--bits", "1000"]),
        "multiples of 64",
    );
}

#[test]
fn benchmarks_write_the_promised_json() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("m.json");
    let quick = ["--runs", "1", "--min-time", "0", "--warmup", "0", "--quiet"];
    let mut args = vec![
        "bench",
        "modexp",
        "--bits",
        "256",
        "--methods",
        "slice,mary-ondemand",
        "--threads",
        "1,2",
        "--json",
        json.to_str().unwrap(),
    ];
    args.extend(quick);
    let out = parcrypt(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let results = v["results"].as_array().unwrap();
    assert_eq!(
        results.len(),
        2 + 2 * 2,
        "binary, gmp, and two parallel methods at two thread counts"
    );
    for r in results {
        for f in [
            "method", "bits", "threads", "median_s", "min_s", "max_s", "runs", "mulmods",
        ] {
            assert!(r.get(f).is_some(), "{f} missing in {r}");
        }
    }
    let json2 = dir.path().join("r.json");
    let mut args = vec![
        "bench",
        "rsa-private",
        "--bits",
        "1024",
        "--openssl-seconds",
        "0",
        "--json",
        json2.to_str().unwrap(),
    ];
    args.extend(quick);
    let out = parcrypt(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json2).unwrap()).unwrap();
    // plain once; the other six methods with each default kernel (auto, gmp-sec).
    assert_eq!(v["results"].as_array().unwrap().len(), 1 + 6 * 2);
    for r in v["results"].as_array().unwrap() {
        assert!(r["backend"].is_string() && r["kernel"].is_string(), "{r}");
    }
}
