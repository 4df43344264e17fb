//! End-to-end tests of the `parcrypt` command: round trips, and every bad input the
//! foundation issue lists answered by one line on stderr, the right exit status, no panic and
//! no output file.
use common::{keygen_ok, parcrypt};
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn assert_error(out: &Output, code: i32, needle: &str) {
    common::assert_one_line_error(out, code, needle);
}

struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    /// A folder with a seeded 1024-bit key pair (PKCS#8) and a plaintext file.
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("key.pem");
        keygen_ok(&key, &["--bits", "1024", "--seed", "1"]);
        std::fs::write(dir.path().join("plain.txt"), b"attack at dawn").unwrap();
        Fixture { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }
}

#[test]
fn keygen_writes_both_halves_with_private_mode() {
    let f = Fixture::new();
    let private = std::fs::read_to_string(f.path("key.pem")).unwrap();
    let public = std::fs::read_to_string(f.path("key.pub.pem")).unwrap();
    assert!(private.starts_with("-----BEGIN PRIVATE KEY-----"));
    assert!(public.starts_with("-----BEGIN PUBLIC KEY-----"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(f.path("key.pem"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn oaep_and_textbook_files_round_trip() {
    let f = Fixture::new();
    for (padding, pub_key) in [("oaep", "key.pub.pem"), ("none", "key.pem")] {
        let ct = f.path(&format!("ct.{padding}"));
        let pt = f.path(&format!("pt.{padding}"));
        let enc = parcrypt(&[
            "rsa",
            "encrypt",
            "--key",
            s(&f.path(pub_key)),
            "--in",
            s(&f.path("plain.txt")),
            "--out",
            s(&ct),
            "--padding",
            padding,
        ]);
        assert!(
            enc.status.success(),
            "{}",
            String::from_utf8_lossy(&enc.stderr)
        );
        assert_eq!(std::fs::read(&ct).unwrap().len(), 128);
        let dec = parcrypt(&[
            "rsa",
            "decrypt",
            "--key",
            s(&f.path("key.pem")),
            "--in",
            s(&ct),
            "--out",
            s(&pt),
            "--padding",
            padding,
        ]);
        assert!(
            dec.status.success(),
            "{}",
            String::from_utf8_lossy(&dec.stderr)
        );
        let got = std::fs::read(&pt).unwrap();
        if padding == "oaep" {
            assert_eq!(got, b"attack at dawn");
        } else {
            // Textbook output is exactly k bytes: the message, left-padded with zeros.
            assert_eq!(got.len(), 128);
            assert!(got.ends_with(b"attack at dawn"));
            assert!(String::from_utf8_lossy(&dec.stderr).contains("study only"));
        }
    }
}

#[test]
fn malformed_and_wrong_type_keys_are_refused() {
    let f = Fixture::new();
    std::fs::write(
        f.path("junk.pem"),
        "-----BEGIN PRIVATE KEY-----\nnot base64!\n-----END PRIVATE KEY-----\n",
    )
    .unwrap();
    std::fs::write(
        f.path("cert.pem"),
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    std::fs::write(f.path("ct.bin"), vec![1u8; 128]).unwrap();
    for key in ["junk.pem", "cert.pem"] {
        let out = f.path("out.bin");
        let r = parcrypt(&[
            "rsa",
            "decrypt",
            "--key",
            s(&f.path(key)),
            "--in",
            s(&f.path("ct.bin")),
            "--out",
            s(&out),
        ]);
        assert_error(&r, 1, key);
        assert!(!out.exists());
    }
    // A public key where a private key is needed.
    let out = f.path("out.bin");
    let r = parcrypt(&[
        "rsa",
        "decrypt",
        "--key",
        s(&f.path("key.pub.pem")),
        "--in",
        s(&f.path("ct.bin")),
        "--out",
        s(&out),
    ]);
    assert_error(&r, 1, "private key");
    assert!(!out.exists());
}

#[test]
fn oversized_messages_and_bad_ciphertexts_are_refused() {
    let f = Fixture::new();
    let key = f.path("key.pem");
    let out = f.path("out.bin");
    // OAEP-SHA-256 with a 128-byte modulus allows 128 - 66 = 62 bytes.
    std::fs::write(f.path("long.txt"), vec![b'x'; 63]).unwrap();
    let r = parcrypt(&[
        "rsa",
        "encrypt",
        "--key",
        s(&key),
        "--in",
        s(&f.path("long.txt")),
        "--out",
        s(&out),
    ]);
    assert_error(&r, 1, "62");
    // Textbook: more than k bytes.
    std::fs::write(f.path("long2.txt"), vec![b'x'; 129]).unwrap();
    let r = parcrypt(&[
        "rsa",
        "encrypt",
        "--key",
        s(&key),
        "--in",
        s(&f.path("long2.txt")),
        "--out",
        s(&out),
        "--padding",
        "none",
    ]);
    assert_error(&r, 1, "at most 128");
    // Ciphertext >= n (all ones), wrong length, and an OAEP decoding failure.
    std::fs::write(f.path("big.bin"), vec![0xffu8; 128]).unwrap();
    std::fs::write(f.path("short.bin"), vec![0x01u8; 100]).unwrap();
    std::fs::write(f.path("bad.bin"), {
        let mut v = vec![0x00u8; 128];
        v[127] = 5;
        v
    })
    .unwrap();
    for (file, padding, needle) in [
        ("big.bin", "none", "[0, n)"),
        // OAEP answers every failure with the one opaque line (issue 20).
        ("big.bin", "oaep", "decryption error"),
        ("short.bin", "none", "expected exactly 128"),
        ("short.bin", "oaep", "decryption error"),
        ("bad.bin", "oaep", "decryption error"),
    ] {
        let r = parcrypt(&[
            "rsa",
            "decrypt",
            "--key",
            s(&key),
            "--in",
            s(&f.path(file)),
            "--out",
            s(&out),
            "--padding",
            padding,
        ]);
        assert_error(&r, 1, needle);
    }
    assert!(!out.exists(), "no output file after any failure");
}

#[test]
fn unreadable_input_unwritable_output_and_in_equals_out_are_refused() {
    let f = Fixture::new();
    let key = f.path("key.pem");
    let missing = f.path("missing.txt");
    let r = parcrypt(&[
        "rsa",
        "encrypt",
        "--key",
        s(&key),
        "--in",
        s(&missing),
        "--out",
        s(&f.path("o")),
    ]);
    assert_error(&r, 1, "missing.txt");
    let r = parcrypt(&[
        "rsa",
        "encrypt",
        "--key",
        s(&key),
        "--in",
        s(&f.path("plain.txt")),
        "--out",
        "/nonexistent-parcrypt-dir/o",
    ]);
    assert_error(&r, 1, "/nonexistent-parcrypt-dir/o");
    let plain = f.path("plain.txt");
    let r = parcrypt(&[
        "rsa",
        "encrypt",
        "--key",
        s(&key),
        "--in",
        s(&plain),
        "--out",
        s(&plain),
    ]);
    assert_error(&r, 2, "is the same file as --in");
    assert_eq!(
        std::fs::read(&plain).unwrap(),
        b"attack at dawn",
        "input untouched"
    );
    let r = parcrypt(&[
        "rsa",
        "keygen",
        "--bits",
        "1024",
        "--out",
        "/nonexistent-parcrypt-dir/k.pem",
    ]);
    assert_error(&r, 1, "nonexistent-parcrypt-dir");
}

#[test]
fn keygen_refuses_bad_sizes_and_exponents() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k.pem");
    for (bits, e, needle) in [
        ("256", "65537", "512"),
        ("1024", "4", "even"),
        ("1024", "1", "too small"),
        ("1024", "x", "decimal"),
    ] {
        let r = parcrypt(&["rsa", "keygen", "--bits", bits, "--e", e, "--out", s(&out)]);
        assert_error(&r, 2, needle);
        assert!(!out.exists());
    }
}

#[test]
fn bench_rsa_usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    for (flag, value, needle) in [
        ("--threads", "0", "at least 1"),
        ("--threads", "1,x", "positive integer"),
        ("--schedule", "fifo", "unknown schedule 'fifo'"),
        ("--chunk", "0", "at least 1"),
        ("--messages", "0", "at least 1"),
        ("--op", "sign", "sign"),
    ] {
        let mut args = vec![
            "bench",
            "rsa",
            "--bits",
            "512",
            flag,
            value,
            "--json",
            s(&json),
        ];
        if flag != "--messages" {
            args.extend(["--messages", "4"]);
        }
        let r = parcrypt(&args);
        assert_error(&r, 2, needle);
        assert!(!json.exists());
    }
    let r = parcrypt(&[
        "bench",
        "rsa",
        "--bits",
        "512",
        "--messages",
        "4",
        "--json",
        "/nonexistent-parcrypt-dir/r.json",
        "--runs",
        "1",
        "--min-time",
        "0",
    ]);
    // A missing folder is a usage error, found before any work.
    assert_error(&r, 2, "nonexistent-parcrypt-dir");
}

#[test]
fn bench_rsa_writes_json_with_the_promised_fields() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("r.json");
    let csv = dir.path().join("r.csv");
    let r = parcrypt(&[
        "bench",
        "rsa",
        "--bits",
        "512",
        "--messages",
        "40",
        "--op",
        "decrypt",
        "--threads",
        "2",
        "--schedule",
        "dynamic,guided",
        "--chunk",
        "1,10",
        "--runs",
        "2",
        "--min-time",
        "0",
        "--warmup",
        "0",
        "--json",
        s(&json),
        "--csv",
        s(&csv),
    ]);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert!(v["machine"]["logical_cores"].as_u64().unwrap() >= 1);
    let results = v["results"].as_array().unwrap();
    // 1 baseline (1 thread, static) + 2 schedules x 2 chunks.
    assert_eq!(results.len(), 5);
    let base = &results[0];
    assert_eq!(base["threads"], 1);
    assert_eq!(base["schedule"], "static");
    assert_eq!(base["speedup"].as_f64().unwrap(), 1.0);
    for rec in results {
        for field in [
            "threads", "schedule", "chunk", "messages", "bits", "op", "median_s", "min_s", "max_s",
            "runs", "speedup",
        ] {
            assert!(rec.get(field).is_some(), "missing {field} in {rec}");
        }
        assert_eq!(rec["messages"], 40);
        assert_eq!(rec["bits"], 512);
        assert_eq!(rec["op"], "decrypt");
        assert!(rec["min_s"].as_f64().unwrap() <= rec["median_s"].as_f64().unwrap());
        assert!(rec["median_s"].as_f64().unwrap() <= rec["max_s"].as_f64().unwrap());
    }
    let csv_text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(csv_text.lines().count(), 6, "header + 5 rows");
    let table = String::from_utf8_lossy(&r.stdout);
    assert!(table.contains("guided"), "{table}");
}

#[test]
fn der_keys_round_trip_through_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k.der");
    keygen_ok(
        &key,
        &[
            "--bits",
            "1024",
            "--seed",
            "3",
            "--encoding",
            "der",
            "--format",
            "pkcs1",
        ],
    );
    assert_eq!(
        std::fs::read(&key).unwrap()[0],
        0x30,
        "DER starts with a SEQUENCE"
    );
    std::fs::write(dir.path().join("p.txt"), b"der").unwrap();
    let (ct, pt) = (dir.path().join("c"), dir.path().join("p2"));
    let enc = parcrypt(&[
        "rsa",
        "encrypt",
        "--key",
        s(&dir.path().join("k.pub.der")),
        "--in",
        s(&dir.path().join("p.txt")),
        "--out",
        s(&ct),
    ]);
    assert!(
        enc.status.success(),
        "{}",
        String::from_utf8_lossy(&enc.stderr)
    );
    let dec = parcrypt(&[
        "rsa",
        "decrypt",
        "--key",
        s(&key),
        "--in",
        s(&ct),
        "--out",
        s(&pt),
    ]);
    assert!(
        dec.status.success(),
        "{}",
        String::from_utf8_lossy(&dec.stderr)
    );
    assert_eq!(std::fs::read(&pt).unwrap(), b"der");
}

/// `bench leak` (issues 20 and 29): a short run gives one record per class pair and path with
/// its |t|, exits 1 (one line naming them) exactly when some pair reached |t| >= 4.5, and bad
/// options are one line with exit 2 before any work.
#[test]
fn bench_leak_reports_t_per_pair_and_path_and_refuses_bad_options() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("leak.json");
    let r = parcrypt(&[
        "bench",
        "leak",
        "--samples",
        "40",
        "--bits",
        "1024",
        "--odd-bits",
        "1000",
        "--paths",
        "default,old-vartime",
        "--quiet",
        "--json",
        s(&json),
    ]);
    let stdout = String::from_utf8_lossy(&r.stdout);
    assert!(stdout.contains("|t| >= 4.5 flags a leak"), "{stdout}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let results = doc["results"].as_array().unwrap();
    // The files are written whatever the verdict; the exit status is the verdict (40 samples
    // can reach 4.5 by chance, so both outcomes are checked against the records).
    let leaks = results.iter().filter(|r| r["leak"] == true).count();
    if leaks == 0 {
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    } else {
        assert_error(&r, 1, "timing leak: ");
    }
    let got: Vec<(String, String)> = results
        .iter()
        .map(|r| {
            (
                r["pair"].as_str().unwrap().to_string(),
                r["path"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut want = Vec::new();
    for pair in ["padding", "y-zero", "y-zero-odd", "keys"] {
        for path in ["default", "old-vartime"] {
            want.push((pair.to_string(), path.to_string()));
        }
    }
    assert_eq!(got, want);
    for r in results {
        assert_eq!(r["samples_0"], 40);
        assert_eq!(r["samples_1"], 40);
        assert_eq!(r["threshold"], 4.5);
        let t = r["max_abs_t"].as_f64().unwrap();
        assert_eq!(r["leak"].as_bool().unwrap(), t >= 4.5);
    }
    assert_eq!(results[4]["bits"], 1000);
    for (flag, value, needle) in [
        ("--odd-bits", "1024", "not be a multiple of 64"),
        ("--bits", "2047", "even number of bits"),
        ("--paths", "default,fast", "unknown decryption path 'fast'"),
        ("--pairs", "y", "unknown class pair 'y'"),
        ("--samples", "0", "at least 1"),
    ] {
        let out = dir.path().join("bad.json");
        let r = parcrypt(&["bench", "leak", flag, value, "--json", s(&out)]);
        assert_error(&r, 2, needle);
        assert!(!out.exists());
    }
}
