//! `bench rsa --private-op crt-const-time-mb` through the command: PaRSA on the multi-buffer
//! IFMA kernel runs and records its form where the CPU has AVX-512 IFMA (every batch is
//! checked against the sequential reference by the suite itself), and is a usage error
//! (exit 2, one line, no output file) where it does not, or for a key of three primes.
//! `--private-op auto` (the default) takes the faster constant-time form by measurement and
//! records which and why; a three-prime key is no error there (it runs crt-const-time).
use common::{assert_one_line_error, keygen_ok, parcrypt};
use std::path::Path;

mod common;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn bench(json: &Path, extra: &[&str]) -> std::process::Output {
    bench_op("crt-const-time-mb", json, extra)
}

fn bench_op(op: &str, json: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "bench",
        "rsa",
        "--messages",
        "19",
        "--op",
        "decrypt",
        "--private-op",
        op,
        "--threads",
        "2",
        "--schedule",
        "dynamic",
        "--runs",
        "1",
        "--min-time",
        "0",
        "--warmup",
        "0",
        "--json",
        s(json),
    ];
    args.extend(extra);
    parcrypt(&args)
}

#[test]
fn parrsa_runs_on_the_multibuffer_kernel_or_says_why_not() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let r = bench(&json, &["--bits", "1024"]);
    if let Some(why) = parcrypt::hazmat::multibuffer::unavailable_reason() {
        eprintln!("parrsa_runs_on_the_multibuffer_kernel: kernel ifma-mb skipped: {why}");
        assert_one_line_error(&r, 2, "ifma-mb kernel cannot run here");
        assert!(!json.exists());
        return;
    }
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let results = records(&json);
    // The 1-thread static baseline and the 2-thread dynamic run.
    assert_eq!(results.len(), 2);
    for rec in &results {
        assert_eq!(rec["private_op"], "crt-const-time-mb", "{rec}");
        assert_eq!(rec["messages"], 19);
        assert_eq!(rec["bits"], 1024);
    }
}

fn records(json: &Path) -> Vec<serde_json::Value> {
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(json).unwrap()).unwrap();
    v["results"].as_array().unwrap().clone()
}

#[test]
fn auto_takes_a_const_time_form_by_measurement_and_says_which() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let r = bench_op("auto", &json, &["--bits", "1024"]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(stdout.contains("decryption (auto: "), "{stdout}");
    for rec in records(&json) {
        let (op, why) = (
            rec["private_op"].as_str().unwrap(),
            rec["private_op_choice"].as_str().unwrap(),
        );
        assert!(
            why.starts_with("auto: ") && why.contains("chosen by measurement")
                || why.contains("no multi-buffer"),
            "{why}"
        );
        match parcrypt::hazmat::multibuffer::unavailable_reason() {
            Some(_) => assert_eq!(op, "crt-const-time", "no IFMA here"),
            None => assert!(
                ["crt-const-time", "crt-const-time-mb"].contains(&op),
                "{op}"
            ),
        }
        assert_eq!(
            op == "crt-const-time-mb",
            why.contains("multi-buffer ifma-mb"),
            "{why}"
        );
    }
}

#[test]
fn a_three_prime_key_is_a_usage_error_for_mb_and_runs_one_at_a_time_for_auto() {
    let dir = tempfile::tempdir().unwrap();
    let key = three_prime_key(dir.path());
    let json = dir.path().join("auto.json");
    let r = bench_op("auto", &json, &["--key", s(&key)]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for rec in records(&json) {
        assert_eq!(rec["private_op"], "crt-const-time", "{rec}");
        assert!(
            rec["private_op_choice"]
                .as_str()
                .unwrap()
                .contains("no multi-buffer"),
            "{rec}"
        );
    }
    if parcrypt::hazmat::multibuffer::unavailable_reason().is_some() {
        return; // The first test checks the refusal there.
    }
    let json = dir.path().join("r.json");
    let r = bench(&json, &["--key", s(&key)]);
    assert_one_line_error(&r, 2, "two-prime keys");
    assert!(!json.exists());
}

fn three_prime_key(dir: &Path) -> std::path::PathBuf {
    let key = dir.join("k3.pem");
    keygen_ok(&key, &["--bits", "1024", "--primes", "3", "--seed", "4"]);
    key
}

/// The key of issue 41 (primes of 8,330 and 1,024 bits, valid to OpenSSL): past the
/// multi-buffer kernel's 8,318-bit limit. `rsa decrypt` decrypts with it, `bench rsa --key K`
/// with `auto` runs one at a time, `crt-const-time-mb` is a usage error: never exit 101.
#[test]
fn a_prime_past_the_multibuffer_limit_is_refused_there_and_runs_one_at_a_time() {
    let key = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/parcrypt/testdata/unbalanced-8330-1024.pem");
    let dir = tempfile::tempdir().unwrap();
    let (plain, ct, out) = (
        dir.path().join("plain"),
        dir.path().join("ct"),
        dir.path().join("out"),
    );
    std::fs::write(&plain, b"issue 41").unwrap();
    let r = parcrypt(&[
        "rsa",
        "encrypt",
        "--key",
        s(&key),
        "--in",
        s(&plain),
        "--out",
        s(&ct),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let r = parcrypt(&[
        "rsa",
        "decrypt",
        "--key",
        s(&key),
        "--in",
        s(&ct),
        "--out",
        s(&out),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), b"issue 41");
    let bench_key = |op: &str, json: &Path| {
        parcrypt(&[
            "bench",
            "rsa",
            "--messages",
            "2",
            "--op",
            "decrypt",
            "--private-op",
            op,
            "--threads",
            "1",
            "--runs",
            "1",
            "--min-time",
            "0",
            "--warmup",
            "0",
            "--key",
            s(&key),
            "--json",
            s(json),
        ])
    };
    let json = dir.path().join("auto.json");
    let r = bench_key("auto", &json);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    for rec in records(&json) {
        assert_eq!(rec["private_op"], "crt-const-time", "{rec}");
    }
    if parcrypt::hazmat::multibuffer::unavailable_reason().is_some() {
        return;
    }
    let json = dir.path().join("mb.json");
    let r = bench_key("crt-const-time-mb", &json);
    assert_one_line_error(&r, 2, "at most 8318 bits");
    assert!(!json.exists());
}
