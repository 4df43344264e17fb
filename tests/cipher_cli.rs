//! End-to-end tests of `parcrypt cipher` and `parcrypt bench cipher|pipeline`: round trips of
//! every algorithm with the study warning after success, and every bad input of the issue
//! answered by one `error:` line, the right exit status (2 for usage), no panic and no
//! output file (nor a temporary one) left behind.
use common::parcrypt;
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

const KEY: &str = "00112233445566778899aabbccddeeff";
const IV: &str = "0102030405060708";
const NONCE: &str = "000102030405060708090a0b0c0d0e0f";

struct Dir {
    dir: tempfile::TempDir,
}

impl Dir {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let plain: Vec<u8> = (0..100_003u32).map(|i| (i * 7 % 251) as u8).collect();
        std::fs::write(dir.path().join("plain"), plain).unwrap();
        std::fs::write(dir.path().join("odd"), [1u8; 13]).unwrap();
        std::fs::write(dir.path().join("blocks"), [9u8; 64]).unwrap();
        Dir { dir }
    }

    fn p(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn s(&self, name: &str) -> String {
        self.p(name).to_str().unwrap().to_string()
    }

    /// Runs `cipher <op> --alg <alg> <extra> --in <input> --out out`.
    fn cipher(&self, op: &str, alg: &str, extra: &[&str], input: &str) -> Output {
        let (i, o) = (self.s(input), self.s("out"));
        let mut args = vec!["cipher", op, "--alg", alg];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--in", &i, "--out", &o]);
        parcrypt(&args)
    }

    fn files(&self) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }
}

/// A failed run: exit `code`, one `error:` line containing `needle`, no panic, no output.
fn assert_error(d: &Dir, out: &Output, code: i32, needle: &str) {
    common::assert_one_line_error(out, code, needle);
    assert_eq!(
        d.files(),
        ["blocks", "odd", "plain"],
        "no output or temporary file"
    );
}

fn extra_for(alg: &str) -> Vec<&'static str> {
    match alg {
        "blowfish-cbc" | "blowfish-ctr" | "pblock-ctr" => vec!["--iv", IV],
        "parc4" | "parc4i" => vec!["--nonce", NONCE],
        _ => vec![],
    }
}

#[test]
fn every_algorithm_round_trips_and_warns_once() {
    let d = Dir::new();
    let plain = std::fs::read(d.p("plain")).unwrap();
    for alg in [
        "blowfish-ecb",
        "blowfish-cbc",
        "blowfish-ctr",
        "pblock-ecb",
        "pblock-ctr",
        "bf-pipeline",
        "rc4",
        "rc4a",
        "parc4",
        "parc4i",
    ] {
        let mut extra = vec!["--key", KEY];
        extra.extend(extra_for(alg));
        let out = d.cipher("encrypt", alg, &extra, "plain");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{alg}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{alg}: {stderr}");
        assert!(stderr.starts_with("warning: ") && stderr.contains("broken or outdated"));
        std::fs::rename(d.p("out"), d.p("enc")).unwrap();
        assert_ne!(std::fs::read(d.p("enc")).unwrap()[..64], plain[..64]);
        let out = d.cipher("decrypt", alg, &extra, "enc");
        assert!(
            out.status.success(),
            "{alg}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(std::fs::read(d.p("out")).unwrap(), plain, "{alg}");
        std::fs::remove_file(d.p("out")).unwrap();
        std::fs::remove_file(d.p("enc")).unwrap();
    }
    // --no-pad keeps whole blocks as they are in length.
    let out = d.cipher(
        "encrypt",
        "blowfish-ecb",
        &["--key", KEY, "--no-pad"],
        "blocks",
    );
    assert!(out.status.success());
    assert_eq!(std::fs::read(d.p("out")).unwrap().len(), 64);
}

#[test]
fn usage_errors_exit_2_with_one_line_and_no_file() {
    let d = Dir::new();
    let long_key = "ab".repeat(57);
    let cases: Vec<(&str, Vec<&str>, &str)> = vec![
        ("blowfish-ecb", vec!["--key", "001122"], "4 to 56 bytes"),
        ("pblock-ecb", vec!["--key", &long_key], "got 57 bytes"),
        ("rc4", vec!["--key", ""], "1 to 256 bytes"),
        ("rc4", vec!["--key", "zz"], "--key is not valid hex"),
        ("rc4", vec!["--key", "abc"], "odd number of digits"),
        (
            "blowfish-cbc",
            vec!["--key", KEY, "--iv", "01020304050607"],
            "--iv must be 8 bytes",
        ),
        (
            "blowfish-cbc",
            vec!["--key", KEY, "--iv", "xx02030405060708"],
            "--iv is not valid hex",
        ),
        ("blowfish-cbc", vec!["--key", KEY], "needs --iv"),
        (
            "blowfish-ecb",
            vec!["--key", KEY, "--iv", IV],
            "--iv does not apply",
        ),
        ("parc4", vec!["--key", KEY], "parc4 needs --nonce"),
        ("parc4i", vec!["--key", KEY], "parc4i needs --nonce"),
        (
            "parc4",
            vec!["--key", KEY, "--nonce", "0011"],
            "nonce must be exactly 16 bytes",
        ),
        (
            "parc4i",
            vec!["--key", KEY, "--nonce", "g0"],
            "--nonce is not valid hex",
        ),
        (
            "rc4",
            vec!["--key", KEY, "--nonce", NONCE],
            "--nonce does not apply",
        ),
        (
            "pblock-ecb",
            vec!["--key", KEY, "--threads", "0"],
            "thread count must be at least 1",
        ),
        (
            "parc4",
            vec!["--key", KEY, "--nonce", NONCE, "--chunk", "0"],
            "chunk size must be at least 1",
        ),
        (
            "bf-pipeline",
            vec!["--key", KEY, "--chunk", "12"],
            "multiple of 8",
        ),
        (
            "parc4i",
            vec!["--key", KEY, "--nonce", NONCE, "--chunk", "100"],
            "multiple of 256",
        ),
        (
            "bf-pipeline",
            vec!["--key", KEY, "--threads", "18"],
            "1 to 17",
        ),
        (
            "rc4",
            vec!["--key", KEY, "--threads", "2"],
            "use its parallel form (parc4)",
        ),
        (
            "blowfish-cbc",
            vec!["--key", KEY, "--iv", IV, "--threads", "2"],
            "CBC encryption is sequential",
        ),
        (
            "rc4",
            vec!["--key", KEY, "--no-pad"],
            "--no-pad applies only",
        ),
        (
            "blowfish-ctr",
            vec!["--key", KEY, "--iv", IV, "--chunk", "64"],
            "--chunk does not apply",
        ),
        ("des", vec!["--key", KEY], "unknown algorithm 'des'"),
    ];
    for (alg, extra, needle) in cases {
        let out = d.cipher("encrypt", alg, &extra, "plain");
        assert_error(&d, &out, 2, needle);
    }
    // The output may not be the input, under any name.
    let out = parcrypt(&[
        "cipher",
        "encrypt",
        "--alg",
        "rc4",
        "--key",
        KEY,
        "--in",
        &d.s("plain"),
        "--out",
        &d.s("plain"),
    ]);
    assert_error(&d, &out, 2, "is the same file as --in");
    let same = format!("{}/./plain", d.dir.path().display());
    let out = parcrypt(&[
        "cipher",
        "encrypt",
        "--alg",
        "rc4",
        "--key",
        KEY,
        "--in",
        &d.s("plain"),
        "--out",
        &same,
    ]);
    assert_error(&d, &out, 2, "is the same file as --in");
}

#[test]
fn data_errors_exit_1_with_one_line_and_no_file() {
    let d = Dir::new();
    let out = d.cipher("decrypt", "blowfish-ecb", &["--key", KEY], "odd");
    assert_error(&d, &out, 1, "not a whole number of 8-byte blocks");
    let out = d.cipher(
        "decrypt",
        "pblock-ecb",
        &["--key", KEY, "--threads", "2"],
        "blocks",
    );
    assert_error(&d, &out, 1, "bad padding");
    let out = d.cipher(
        "decrypt",
        "blowfish-cbc",
        &["--key", KEY, "--iv", IV, "--threads", "2"],
        "blocks",
    );
    assert_error(&d, &out, 1, "bad padding");
    let out = d.cipher(
        "encrypt",
        "blowfish-ecb",
        &["--key", KEY, "--no-pad"],
        "odd",
    );
    assert_error(&d, &out, 1, "not a whole number of 8-byte blocks");
    let out = d.cipher("decrypt", "bf-pipeline", &["--key", KEY, "--no-pad"], "odd");
    assert_error(&d, &out, 1, "not a whole number");
    let out = d.cipher("encrypt", "rc4", &["--key", KEY], "missing");
    assert_error(&d, &out, 1, "missing");
    let out = parcrypt(&[
        "cipher",
        "encrypt",
        "--alg",
        "rc4",
        "--key",
        KEY,
        "--in",
        &d.s("plain"),
        "--out",
        "/nonexistent-dir-parcrypt/x",
    ]);
    assert_error(&d, &out, 1, "/nonexistent-dir-parcrypt/x");
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn benchmarks_write_machine_and_results() {
    let d = Dir::new();
    let quick = ["--runs", "1", "--warmup", "0", "--min-time", "0", "--quiet"];
    let mut args = vec![
        "bench",
        "cipher",
        "--alg",
        "pblock-ecb,parc4,bf-pipeline",
        "--size",
        "64KiB",
        "--threads",
        "1,2",
        "--json",
    ];
    let j = d.s("cipher.json");
    args.push(&j);
    args.extend(quick);
    let out = parcrypt(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("cipher-energy") && stdout.contains("pblock-ecb"),
        "{stdout}"
    );
    let v = json(&d.p("cipher.json"));
    assert!(v["machine"]["cpu_model"].is_string());
    let results = v["results"].as_array().unwrap();
    // blowfish-ecb, pblock-ecb x2, rc4, parc4 x2, bf-pipeline x2 (sharing blowfish-ecb).
    assert_eq!(results.len(), 8);
    for field in [
        "alg",
        "threads",
        "size_bytes",
        "chunk_bytes",
        "median_s",
        "mb_per_s",
        "speedup",
    ] {
        assert!(results.iter().all(|r| r.get(field).is_some()), "{field}");
    }
    assert_eq!(results[0]["size_bytes"], 65536);
    let j = d.s("pipe.json");
    let mut args = vec![
        "bench", "pipeline", "--chunk", "64,4096", "--stages", "36,4", "--groups", "2", "--size",
        "16KiB", "--json", &j,
    ];
    args.extend(quick);
    let out = parcrypt(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("SCC Blowfish") && stdout.contains("E1") && stdout.contains("DW"),
        "{stdout}"
    );
    let results = json(&d.p("pipe.json"))["results"]
        .as_array()
        .unwrap()
        .clone();
    // blowfish-ecb, bf-pipeline x4 (36 and 4 stages), bf-folded x2 (2 groups).
    assert_eq!(results.len(), 7);
    assert_eq!(results[1]["stages"], 36);
    assert_eq!(
        (&results[5]["alg"], &results[5]["stages"]),
        (&"bf-folded".into(), &2.into())
    );
}

#[test]
fn benchmark_usage_errors_exit_2() {
    let d = Dir::new();
    for (args, needle) in [
        (vec!["bench", "cipher", "--size", "0"], "at least 1 byte"),
        (vec!["bench", "cipher", "--size", "12XB"], "unknown unit"),
        (
            vec!["bench", "cipher", "--threads", "0"],
            "thread count must be at least 1",
        ),
        (vec!["bench", "cipher", "--alg", "des"], "unknown algorithm"),
        (vec!["bench", "cipher", "--chunk", "100"], "multiple of 256"),
        (vec!["bench", "pipeline", "--chunk", "0"], "at least 1 byte"),
        (vec!["bench", "pipeline", "--chunk", "12"], "multiple of 8"),
        (vec!["bench", "pipeline", "--stages", "37"], "3 to 36"),
    ] {
        let out = parcrypt(&args);
        assert_error(&d, &out, 2, needle);
    }
}
