//! `bench rsa --private-op crt-const-time-mb` through the command: PaRSA on the multi-buffer
//! IFMA kernel runs and records its form where the CPU has AVX-512 IFMA (every batch is
//! checked against the sequential reference by the suite itself), and is a usage error
//! (exit 2, one line, no output file) where it does not, or for a key of three primes.
use common::{assert_one_line_error, parcrypt};
use std::path::Path;

mod common;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn bench(json: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "bench",
        "rsa",
        "--messages",
        "19",
        "--op",
        "decrypt",
        "--private-op",
        "crt-const-time-mb",
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
    if let Some(why) = parcrypt::rsa::multibuffer::unavailable_reason() {
        eprintln!("parrsa_runs_on_the_multibuffer_kernel: kernel ifma-mb skipped: {why}");
        assert_one_line_error(&r, 2, "ifma-mb kernel cannot run here");
        assert!(!json.exists());
        return;
    }
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    let results = v["results"].as_array().unwrap();
    // The 1-thread static baseline and the 2-thread dynamic run.
    assert_eq!(results.len(), 2);
    for rec in results {
        assert_eq!(rec["private_op"], "crt-const-time-mb", "{rec}");
        assert_eq!(rec["messages"], 19);
        assert_eq!(rec["bits"], 1024);
    }
}

#[test]
fn a_three_prime_key_is_a_usage_error() {
    if parcrypt::rsa::multibuffer::unavailable_reason().is_some() {
        return; // The other test checks the refusal there.
    }
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k3.pem");
    let r = parcrypt(&[
        "rsa",
        "keygen",
        "--bits",
        "1024",
        "--primes",
        "3",
        "--seed",
        "4",
        "--out",
        s(&key),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let json = dir.path().join("r.json");
    let r = bench(&json, &["--key", s(&key)]);
    assert_one_line_error(&r, 2, "two-prime keys");
    assert!(!json.exists());
}
