//! End-to-end tests of `parcrypt mul`, `parcrypt bench mul` and `parcrypt bench handoff`:
//! correct products from every method, every bad input answered by one `error:` line on
//! stderr with exit status 2 and no panic, and the JSON files' shape.
use common::parcrypt;
use rug::Integer;
use std::process::Output;

mod common;

/// Asserts a usage error: exit 2, exactly one line on stderr containing `needle`, no panic.
fn assert_usage_error(args: &[&str], needle: &str) {
    common::assert_one_line_error(&parcrypt(args), 2, needle);
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn every_method_prints_the_product_in_hex() {
    let methods = stdout(&parcrypt(&["mul", "--list"]));
    let methods: Vec<&str> = methods.lines().collect();
    assert_eq!(methods.len(), 9);
    assert_eq!(methods[0], "gmp");
    // Operands across several limbs, one negative, of unequal lengths.
    let a = "0x".to_string() + &"f1e2d3c4b5a69788".repeat(9);
    let b = "-".to_string() + &"0123456789abcdef".repeat(5) + "77";
    let want =
        Integer::from_str_radix(&a[2..], 16).unwrap() * Integer::from_str_radix(&b, 16).unwrap();
    for method in &methods {
        for threads in ["1", "2", "4"] {
            let out = parcrypt(&[
                "mul",
                "--method",
                method,
                "--a",
                &a,
                "--b",
                &b,
                "--threads",
                threads,
            ]);
            assert_eq!(
                stdout(&out).trim(),
                want.to_string_radix(16),
                "{method} on {threads} threads"
            );
        }
    }
    let out = parcrypt(&[
        "mul",
        "--method",
        "kara-pool",
        "--a",
        "0",
        "--b",
        "-5",
        "--depth",
        "3",
    ]);
    assert_eq!(stdout(&out).trim(), "0");
}

#[test]
fn bad_inputs_are_one_line_usage_errors() {
    let ok = ["--a", "ff", "--b", "ee"];
    let with = |extra: &[&'static str]| -> Vec<&'static str> {
        let mut v = vec!["mul"];
        v.extend_from_slice(extra);
        v
    };
    assert_usage_error(
        &with(&["--method", "gmp", "--a", "xyz", "--b", "1"]),
        "not a hexadecimal integer: 'xyz'",
    );
    assert_usage_error(
        &with(&["--method", "gmp", "--a", "1", "--b", "0x"]),
        "--b: not a hexadecimal integer",
    );
    let mut args = with(&["--method", "toom3"]);
    args.extend_from_slice(&ok);
    assert_usage_error(&args, "unknown multiplication method 'toom3'");
    let mut args = with(&["--method", "kara-lockfree", "--threads", "0"]);
    args.extend_from_slice(&ok);
    assert_usage_error(&args, "thread count must be at least 1, got 0");
    let mut args = with(&["--method", "kara-pool", "--threads", "5"]);
    args.extend_from_slice(&ok);
    assert_usage_error(&args, "1 to 4 threads");
    let mut args = with(&["--method", "kara-seq", "--depth", "0"]);
    args.extend_from_slice(&ok);
    assert_usage_error(&args, "depth must be 1 to 16");
    assert_usage_error(&["mul", "--a", "1", "--b", "2"], "--method");
    let mut args = with(&["--method", "kara-pool", "--leaves", "ntt"]);
    args.extend_from_slice(&ok);
    assert_usage_error(
        &args,
        "unknown Karatsuba leaves 'ntt' (expected gmp or best)",
    );
    assert_usage_error(&["bench", "mul", "--leaves", "gmp,fft"], "'fft'");

    assert_usage_error(&["bench", "mul", "--methods", "kara-seq,fft"], "'fft'");
    assert_usage_error(&["bench", "mul", "--threads", "0"], "at least 1, got 0");
    assert_usage_error(&["bench", "mul", "--threads", "2,9"], "1 to 4 threads");
    assert_usage_error(&["bench", "mul", "--bits", "1024,0"], "sizes must be");
    assert_usage_error(&["bench", "mul", "--batch-ms", "0"], "--batch-ms");
    assert_usage_error(&["bench", "handoff", "--runs", "0"], "at least 1, got 0");
}

/// `bench mul` at `bits` for `methods` on `threads`, two short runs: its screen and its JSON.
fn bench_mul(bits: &str, methods: &str, threads: &str) -> (String, serde_json::Value) {
    bench_mul_with(&[
        "--bits",
        bits,
        "--methods",
        methods,
        "--threads",
        threads,
        "--quiet",
    ])
}

/// `bench mul` with `args`, two short runs: its screen and its JSON.
fn bench_mul_with(args: &[&str]) -> (String, serde_json::Value) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("mul.json");
    let mut all = vec!["bench", "mul"];
    all.extend_from_slice(args);
    all.extend_from_slice(&[
        "--runs",
        "2",
        "--max-runs",
        "2",
        "--min-time",
        "0",
        "--batch-ms",
        "0.2",
        "--json",
        json.to_str().unwrap(),
    ]);
    let text = stdout(&parcrypt(&all));
    let report = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (text, report)
}

#[test]
fn karatsuba_with_best_leaves_gives_the_product_and_bench_mul_times_both_leaves() {
    // 20,000-bit operands: halves of 157 limbs, leaves the NTT takes where its one-thread
    // threshold (timed by the command) is that low, GMP's otherwise; the product is GMP's
    // either way.
    let a = "f1e2d3c4b5a69788".repeat(313);
    let b = "-".to_string() + &"0123456789abcdef".repeat(300);
    let want = Integer::from_str_radix(&a, 16).unwrap() * Integer::from_str_radix(&b, 16).unwrap();
    for method in ["kara-seq", "kara-pool", "kara-lockfree"] {
        let out = parcrypt(&[
            "mul", "--method", method, "--a", &a, "--b", &b, "--leaves", "best", "--depth", "2",
        ]);
        assert_eq!(stdout(&out).trim(), want.to_string_radix(16), "{method}");
    }
    let (text, report) = bench_mul_with(&[
        "--bits",
        "65536",
        "--methods",
        "kara-seq,kara-pool",
        "--threads",
        "2",
        "--leaves",
        "gmp,best",
    ]);
    assert!(text.contains("kara-pool (best leaves)"), "{text}");
    assert!(text.contains("Karatsuba leaves gmp and best"), "{text}");
    assert!(text.contains("best leaves: the NTT"), "{text}");
    let leaves: Vec<(String, String)> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["method"].to_string(), r["leaves"].to_string()))
        .collect();
    let pair = |m: &str, l: &str| (format!("\"{m}\""), l.to_string());
    assert_eq!(
        leaves,
        [
            pair("gmp", "null"),
            pair("kara-seq", "\"gmp\""),
            pair("kara-seq", "\"best\""),
            pair("kara-pool", "\"gmp\""),
            pair("kara-pool", "\"best\""),
        ]
    );
}

#[test]
fn bench_mul_writes_the_report_shape() {
    let (text, report) = bench_mul("512,2048", "kara-seq,kara-lockfree,kara-pool", "2,3");
    assert!(text.contains("kara-lockfree"), "{text}");
    assert!(text.contains("seed_us"), "{text}");
    assert!(report["machine"]["logical_cores"].as_u64().unwrap() >= 1);
    let results = report["results"].as_array().unwrap();
    // gmp + kara-seq + 2 parallel methods x 2 thread counts, at 2 sizes.
    assert_eq!(results.len(), 2 * 6);
    for r in results {
        for field in [
            "method",
            "bits",
            "threads",
            "median_s",
            "min_s",
            "max_s",
            "runs",
            "vs_gmp",
            "oversubscribed",
        ] {
            assert!(!r[field].is_null(), "{field} missing in {r}");
        }
        assert_eq!(r["runs"], 2);
    }
    let gmp = results.iter().find(|r| r["method"] == "gmp").unwrap();
    assert_eq!(gmp["vs_gmp"], 1.0);
}

#[test]
fn bench_handoff_measures_every_activation() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("handoff.json");
    let out = parcrypt(&[
        "bench",
        "handoff",
        "--runs",
        "5",
        "--warmup",
        "1",
        "--quiet",
        "--json",
        json.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert!(
        text.contains("condvar-same-core") && text.contains("4.3–6.5"),
        "{text}"
    );
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let names: Vec<&str> = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["primitive"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "spawn",
            "spawn+join",
            "condvar-other-core",
            "condvar-same-core",
            "lockfree-handoff"
        ]
    );
}

/// The command counts its heap: an NTT product's scratch is measured (its buffers are Rust
/// heap), GMP's own product is not Rust heap (0 bytes), and the ratio is over the operands.
#[test]
fn bench_mul_measures_each_product_s_heap_peak() {
    let (text, report) = bench_mul("65536", "ntt", "1");
    assert!(text.contains("heap_x"), "{text}");
    let results = report["results"].as_array().unwrap();
    let of = |m: &str| results.iter().find(|r| r["method"] == m).unwrap();
    let ntt = of("ntt");
    let bytes = ntt["heap_peak_bytes"].as_u64().unwrap();
    // At least the product's own coefficients (2 × 1024 limbs) in one residue vector.
    assert!(bytes >= 2 * 1024 * 8, "{ntt}");
    let ratio = ntt["heap_peak_over_operands"].as_f64().unwrap();
    assert!(
        (ratio - bytes as f64 / (2.0 * 1024.0 * 8.0)).abs() < 1e-9,
        "{ntt}"
    );
    assert_eq!(of("gmp")["heap_peak_bytes"], 0);
}
