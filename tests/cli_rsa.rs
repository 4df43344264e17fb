//! `parcrypt rsa` options of issue 10 through the command: OAEP labels and hashes, multi-prime
//! keygen and decryption, keygen refusing to overwrite, PEM as OpenSSL writes it — and each bad
//! input answered by one line on stderr, exit 2 for usage errors, and no output file.
use common::{assert_one_line_error, keygen_ok, parcrypt};
use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A folder with a seeded key pair of `bits` bits and `primes` primes, and a plaintext.
struct Fixture {
    dir: tempfile::TempDir,
}

impl Fixture {
    fn new(bits: &str, primes: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let key = dir.path().join("key.pem");
        keygen_ok(&key, &["--bits", bits, "--primes", primes, "--seed", "10"]);
        std::fs::write(dir.path().join("plain.txt"), b"attack at dawn").unwrap();
        Fixture { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// `rsa encrypt|decrypt --key KEY --in IN --out OUT EXTRA...`.
    fn crypt(&self, op: &str, key: &str, input: &str, out: &str, extra: &[&str]) -> Output {
        let (key, input, out) = (self.path(key), self.path(input), self.path(out));
        let mut args = vec![
            "rsa",
            op,
            "--key",
            s(&key),
            "--in",
            s(&input),
            "--out",
            s(&out),
        ];
        args.extend_from_slice(extra);
        parcrypt(&args)
    }
}

#[cfg(unix)]
fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn labels_and_hashes_round_trip_and_a_mismatch_is_the_opaque_error() {
    let f = Fixture::new("1024", "2");
    std::fs::write(f.path("label.bin"), b"\x0a\x0b\x0c").unwrap();
    let cases: [&[&str]; 5] = [
        &[],
        &["--label", "0A0b0c"],
        &["--label-file", "LABEL"],
        &["--oaep-hash", "sha1", "--mgf1-hash", "sha1"],
        &[
            "--oaep-hash",
            "sha384",
            "--mgf1-hash",
            "sha512-224",
            "--label",
            "",
        ],
    ];
    let label_file = f.path("label.bin");
    for (i, extra) in cases.iter().enumerate() {
        let extra: Vec<&str> = extra
            .iter()
            .map(|&a| if a == "LABEL" { s(&label_file) } else { a })
            .collect();
        let (ct, pt) = (format!("ct{i}"), format!("pt{i}"));
        ok(&f.crypt("encrypt", "key.pub.pem", "plain.txt", &ct, &extra));
        assert_eq!(std::fs::read(f.path(&ct)).unwrap().len(), 128);
        ok(&f.crypt("decrypt", "key.pem", &ct, &pt, &extra));
        assert_eq!(std::fs::read(f.path(&pt)).unwrap(), b"attack at dawn");
    }
    // --label 0a0b0c and --label-file with those bytes are the same label.
    ok(&f.crypt(
        "decrypt",
        "key.pem",
        "ct1",
        "pt",
        &["--label-file", s(&label_file)],
    ));
    // Another label, hash or MGF1 hash than the ciphertext's: one opaque line, no output.
    for extra in [
        &[][..],
        &["--label", "0a0b0d"],
        &["--label", "0a0b0c", "--oaep-hash", "sha1"],
        &["--label", "0a0b0c", "--mgf1-hash", "sha1"],
    ] {
        let r = f.crypt("decrypt", "key.pem", "ct1", "wrong", extra);
        assert_one_line_error(&r, 1, "decryption error");
        assert_eq!(
            String::from_utf8_lossy(&r.stderr),
            "error: decryption error\n"
        );
        assert!(!f.path("wrong").exists());
    }
}

#[test]
fn bad_oaep_options_are_usage_errors_with_no_output() {
    let f = Fixture::new("1024", "2");
    let cases: [(&str, &[&str], &str); 6] = [
        (
            "encrypt",
            &["--label", "0g"],
            "'g' at position 2 is not a hex digit",
        ),
        ("decrypt", &["--label", "abc"], "odd number of hex digits"),
        (
            "encrypt",
            &["--oaep-hash", "md5"],
            "invalid value 'md5' for '--oaep-hash",
        ),
        (
            "decrypt",
            &["--mgf1-hash", "sha3-256"],
            "possible values: sha1, sha224",
        ),
        (
            "encrypt",
            &["--padding", "none", "--label", "00"],
            "apply to --padding oaep only",
        ),
        (
            "decrypt",
            &["--label", "00", "--label-file", "x"],
            "cannot be used with",
        ),
    ];
    for (op, extra, needle) in cases {
        let r = f.crypt(op, "key.pem", "plain.txt", "out", extra);
        assert_one_line_error(&r, 2, needle);
        assert!(!f.path("out").exists(), "{extra:?}");
    }
    // An unreadable label file is a failure (exit 1) naming the file.
    let r = f.crypt(
        "encrypt",
        "key.pem",
        "plain.txt",
        "out",
        &["--label-file", "/nonexistent/l"],
    );
    assert_one_line_error(&r, 1, "/nonexistent/l");
    assert!(!f.path("out").exists());
    // SHA-512 needs a key of at least 130 bytes.
    let r = f.crypt(
        "encrypt",
        "key.pem",
        "plain.txt",
        "out",
        &["--oaep-hash", "sha512"],
    );
    assert_one_line_error(&r, 1, "too small for OAEP with SHA-512");
    assert!(!f.path("out").exists());
}

#[test]
fn multi_prime_keys_are_made_and_decrypt_on_one_thread_per_prime() {
    for (bits, primes, label) in [("2048", "3", "3-prime"), ("4096", "4", "4-prime")] {
        let f = Fixture::new(bits, primes);
        let text = std::fs::read_to_string(f.path("key.pem")).unwrap();
        assert!(text.starts_with("-----BEGIN PRIVATE KEY-----\n"));
        for padding in ["oaep", "none"] {
            let ct = format!("ct.{padding}");
            ok(&f.crypt(
                "encrypt",
                "key.pub.pem",
                "plain.txt",
                &ct,
                &["--padding", padding],
            ));
            for parallel in [&[][..], &["--parallel"]] {
                let mut extra = vec!["--padding", padding];
                extra.extend_from_slice(parallel);
                let pt = f.path("pt");
                let _ = std::fs::remove_file(&pt);
                ok(&f.crypt("decrypt", "key.pem", &ct, "pt", &extra));
                assert!(std::fs::read(&pt).unwrap().ends_with(b"attack at dawn"));
            }
        }
        // PKCS#1 and DER forms of the same key.
        let dir = f.dir.path();
        let one = dir.join("k1.der");
        let r = keygen_ok(
            &one,
            &[
                "--bits",
                bits,
                "--primes",
                primes,
                "--format",
                "pkcs1",
                "--encoding",
                "der",
                "--seed",
                "10",
            ],
        );
        assert!(String::from_utf8_lossy(&r.stderr).contains(label));
        ok(&f.crypt("decrypt", "k1.der", "ct.oaep", "pt1", &[]));
        assert_eq!(std::fs::read(f.path("pt1")).unwrap(), b"attack at dawn");
    }
}

#[test]
fn primes_beyond_openssls_limit_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("k.pem");
    for (bits, primes, cap) in [
        ("1024", "4", "2 to 3 primes"),
        ("2048", "4", "2 to 3 primes"),
        ("4096", "5", "2 to 4 primes"),
        ("512", "3", "2 to 2 primes"),
        ("2048", "1", "2 to 3 primes"),
        ("8192", "6", "2 to 5 primes"),
    ] {
        let r = parcrypt(&[
            "rsa",
            "keygen",
            "--bits",
            bits,
            "--primes",
            primes,
            "--out",
            s(&out),
        ]);
        assert_one_line_error(&r, 2, cap);
        assert_one_line_error(&r, 2, &format!("got {primes}"));
        assert!(!out.exists());
        assert!(!dir.path().join("k.pub.pem").exists());
    }
}

#[test]
fn keygen_never_overwrites_a_key_without_force() {
    let f = Fixture::new("1024", "2");
    let (private, public) = (f.path("key.pem"), f.path("key.pub.pem"));
    let before = (
        std::fs::read(&private).unwrap(),
        std::fs::read(&public).unwrap(),
    );
    let keygen = |extra: &[&str]| {
        let mut args = vec![
            "rsa",
            "keygen",
            "--bits",
            "1024",
            "--seed",
            "11",
            "--out",
            s(&private),
        ];
        args.extend_from_slice(extra);
        parcrypt(&args)
    };
    let r = keygen(&[]);
    assert_one_line_error(
        &r,
        2,
        "key.pem already exists; pass --force to overwrite it",
    );
    assert_eq!(
        (
            std::fs::read(&private).unwrap(),
            std::fs::read(&public).unwrap()
        ),
        before
    );
    // The public half alone existing is refused too, and the private key is not written.
    std::fs::remove_file(&private).unwrap();
    let r = keygen(&[]);
    assert_one_line_error(&r, 2, "key.pub.pem already exists");
    assert!(!private.exists());
    let r = parcrypt(&[
        "rsa",
        "keygen",
        "--bits",
        "1024",
        "--out",
        s(f.dir.path()),
        "--force",
    ]);
    assert_one_line_error(&r, 2, "is a folder");
    ok(&keygen(&["--force"]));
    let after = (
        std::fs::read(&private).unwrap(),
        std::fs::read(&public).unwrap(),
    );
    assert_ne!(after.0, before.0);
    assert_ne!(after.1, before.1);
    #[cfg(unix)]
    {
        assert_eq!(mode(&private), 0o600);
        assert_eq!(mode(&public), 0o644);
    }
}

/// `key.pem` with its Base64 re-wrapped at `width`, lines ended by `eol` and padded by `trail`.
fn rewrap(pem: &str, width: usize, eol: &str, trail: &str) -> String {
    let lines: Vec<&str> = pem.lines().collect();
    let b64 = lines[1..lines.len() - 1].concat();
    let mut out = format!("{}{trail}{eol}", lines[0]);
    for chunk in b64.as_bytes().chunks(width) {
        out += &format!("{}{trail}{eol}", std::str::from_utf8(chunk).unwrap());
    }
    out + &format!("{}{trail}{eol}", lines[lines.len() - 1])
}

#[test]
fn pem_at_any_width_is_read_and_malformed_pem_is_one_line() {
    let f = Fixture::new("1024", "3");
    ok(&f.crypt("encrypt", "key.pub.pem", "plain.txt", "ct", &[]));
    let pem = std::fs::read_to_string(f.path("key.pem")).unwrap();
    for (i, (width, eol, trail)) in [
        (76, "\n", ""),
        (65, "\r\n", ""),
        (48, "\n", " \t"),
        (9999, "\n", ""),
    ]
    .into_iter()
    .enumerate()
    {
        let name = format!("k{i}.pem");
        std::fs::write(f.path(&name), rewrap(&pem, width, eol, trail)).unwrap();
        ok(&f.crypt("decrypt", &name, "ct", &format!("pt{i}"), &[]));
        assert_eq!(
            std::fs::read(f.path(&format!("pt{i}"))).unwrap(),
            b"attack at dawn"
        );
    }
    let lines: Vec<&str> = pem.lines().collect();
    let cases = [
        (
            pem.replacen("MII", "M*I", 1),
            "malformed PEM: invalid Base64 character '*' on line 2",
        ),
        (
            lines[..lines.len() - 1].join("\n"),
            "no \"-----END PRIVATE KEY-----\" line",
        ),
        (
            pem.replace("END PRIVATE", "END RSA PRIVATE"),
            "does not match",
        ),
        (pem.replacen("MII", "MI", 1), "not a multiple of 4"),
        (
            format!("{}\n{}\n", lines[0], lines[lines.len() - 1]),
            "PEM body is empty",
        ),
        (
            pem.replace("PRIVATE KEY", "CERTIFICATE"),
            "PEM label \"CERTIFICATE\" is not an RSA key",
        ),
    ];
    for (text, needle) in cases {
        std::fs::write(f.path("bad.pem"), &text).unwrap();
        let r = f.crypt("decrypt", "bad.pem", "ct", "out", &[]);
        assert_one_line_error(&r, 1, needle);
        assert!(!f.path("out").exists(), "{needle}");
    }
}

/// Wycheproof's padding failures through the command: each the same one line.
#[test]
fn wycheproof_padding_failures_are_one_opaque_line() {
    let dir = tempfile::tempdir().unwrap();
    let mut seen = 0;
    for (file, hash) in [
        ("rsa_oaep_2048_sha256_mgf1sha256_test.json", "sha256"),
        ("rsa_three_primes_oaep_2048_sha1_mgf1sha1_test.json", "sha1"),
    ] {
        let path = format!(
            "{}/crates/parcrypt/tests/vectors/wycheproof/{file}",
            env!("CARGO_MANIFEST_DIR")
        );
        let doc: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let group = &doc["testGroups"][0];
        let key = dir.path().join("key.pem");
        std::fs::write(&key, group["privateKeyPem"].as_str().unwrap()).unwrap();
        for test in group["tests"].as_array().unwrap() {
            if !test["flags"]
                .as_array()
                .unwrap()
                .contains(&"InvalidOaepPadding".into())
            {
                continue;
            }
            let ct = dir.path().join("ct");
            std::fs::write(&ct, hex::decode(test["ct"].as_str().unwrap()).unwrap()).unwrap();
            let out = dir.path().join("out");
            let label = test["label"].as_str().unwrap();
            let r = parcrypt(&[
                "rsa",
                "decrypt",
                "--key",
                s(&key),
                "--in",
                s(&ct),
                "--out",
                s(&out),
                "--oaep-hash",
                hash,
                "--mgf1-hash",
                hash,
                "--label",
                label,
            ]);
            assert_one_line_error(&r, 1, "decryption error");
            assert_eq!(
                String::from_utf8_lossy(&r.stderr),
                "error: decryption error\n"
            );
            assert!(!out.exists());
            seen += 1;
        }
    }
    assert_eq!(seen, 13 + 13, "InvalidOaepPadding cases in the two files");
}

#[test]
fn every_kernel_decrypts_the_same_and_a_missing_one_is_named() {
    let f = Fixture::new("1024", "2");
    for padding in ["oaep", "none"] {
        let ct = format!("ct.{padding}");
        ok(&f.crypt(
            "encrypt",
            "key.pub.pem",
            "plain.txt",
            &ct,
            &["--padding", padding],
        ));
        let mut outputs = Vec::new();
        for kernel in ["auto", "ifma", "mulx", "portable", "gmp-sec"] {
            for parallel in [false, true] {
                let out = format!("pt.{padding}.{kernel}.{parallel}");
                let mut extra = vec!["--padding", padding, "--kernel", kernel];
                if parallel {
                    extra.push("--parallel");
                }
                let r = f.crypt("decrypt", "key.pem", &ct, &out, &extra);
                if r.status.success() {
                    outputs.push(std::fs::read(f.path(&out)).unwrap());
                } else {
                    // Only a kernel this CPU lacks may fail: one line naming it, exit 2, no
                    // output file.
                    eprintln!(
                        "kernel {kernel} skipped: {}",
                        String::from_utf8_lossy(&r.stderr)
                    );
                    assert_one_line_error(&r, 2, &format!("the {kernel} kernel cannot run here"));
                    assert!(!f.path(&out).exists());
                }
            }
        }
        assert!(
            outputs.len() >= 6,
            "auto, portable and gmp-sec run everywhere"
        );
        assert!(outputs.iter().all(|o| o == &outputs[0]), "{padding}");
        assert!(outputs[0].ends_with(b"attack at dawn"));
        if padding == "none" {
            assert_eq!(outputs[0].len(), 128, "textbook output is k bytes");
        }
    }
    let r = f.crypt(
        "decrypt",
        "key.pem",
        "ct.oaep",
        "pt.x",
        &["--kernel", "fast"],
    );
    assert_one_line_error(&r, 2, "unknown kernel 'fast'");
    assert!(!f.path("pt.x").exists());
}

/// Issue 20: `--out` naming the key, the input or the label file — by its name, a `./`
/// variant, a symbolic link or a hard link — is refused before any work: one line, exit 2,
/// the file untouched.
#[test]
fn an_output_that_is_the_key_or_an_input_is_refused_and_the_key_kept() {
    let f = Fixture::new("1024", "2");
    ok(&f.crypt("encrypt", "key.pub.pem", "plain.txt", "ct", &[]));
    std::fs::write(f.path("label.bin"), b"L").unwrap();
    let dir = f.dir.path();
    let dotted = |name: &str| format!("{}/./{name}", dir.display());
    let link = |target: &str, name: &str, hard: bool| {
        let path = f.path(name);
        if hard {
            std::fs::hard_link(f.path(target), &path).unwrap();
        } else {
            #[cfg(unix)]
            std::os::unix::fs::symlink(f.path(target), &path).unwrap();
            #[cfg(not(unix))]
            std::fs::hard_link(f.path(target), &path).unwrap();
        }
        path.to_str().unwrap().to_string()
    };
    let outs = [
        ("key.pem", "--key", s(&f.path("key.pem")).to_string()),
        ("key.pem", "--key", dotted("key.pem")),
        ("key.pem", "--key", link("key.pem", "soft-key.pem", false)),
        ("key.pem", "--key", link("key.pem", "hard-key.pem", true)),
        ("ct", "--in", link("ct", "soft-ct", false)),
        ("ct", "--in", link("ct", "hard-ct", true)),
        ("label.bin", "--label-file", dotted("label.bin")),
    ];
    let before: Vec<(String, Vec<u8>)> = ["key.pem", "key.pub.pem", "ct", "label.bin"]
        .iter()
        .map(|n| (n.to_string(), std::fs::read(f.path(n)).unwrap()))
        .collect();
    for (target, flag, out) in &outs {
        for op in ["decrypt", "encrypt"] {
            // `out` is a whole path: the fixture's join keeps it as it is.
            let label = f.path("label.bin");
            let r = f.crypt(op, "key.pem", "ct", out, &["--label-file", s(&label)]);
            assert_one_line_error(&r, 2, &format!("is the same file as {flag}"));
            let stderr = String::from_utf8_lossy(&r.stderr);
            assert!(stderr.contains(out.as_str()), "{target}: {stderr}");
        }
    }
    // The public key beside it as the output of an encryption with it.
    let r = f.crypt("encrypt", "key.pub.pem", "plain.txt", "key.pub.pem", &[]);
    assert_one_line_error(&r, 2, "is the same file as --key");
    for (name, bytes) in &before {
        assert_eq!(
            &std::fs::read(f.path(name)).unwrap(),
            bytes,
            "{name} changed"
        );
    }
    // A new file, or another existing one, is still a fine output.
    ok(&f.crypt("decrypt", "key.pem", "ct", "plain.txt", &[]));
    assert_eq!(
        std::fs::read(f.path("plain.txt")).unwrap(),
        b"attack at dawn"
    );
}

/// A DER INTEGER of the big-endian magnitude `bytes` (a leading zero where the top bit is set).
fn der_int(bytes: &[u8]) -> Vec<u8> {
    let mut body = bytes.to_vec();
    if body[0] & 0x80 != 0 {
        body.insert(0, 0);
    }
    der_tlv(0x02, &body)
}

fn der_tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = body.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let be: Vec<u8> = len
            .to_be_bytes()
            .into_iter()
            .skip_while(|&b| b == 0)
            .collect();
        out.push(0x80 | be.len() as u8);
        out.extend(be);
    }
    out.extend_from_slice(body);
    out
}

/// An odd number of exactly `bits` bits: 2^(bits-1) + 1, big-endian.
fn odd_of_bits(bits: usize) -> Vec<u8> {
    let mut v = vec![0u8; bits.div_ceil(8)];
    v[0] = 1 << ((bits - 1) % 8);
    *v.last_mut().unwrap() |= 1;
    v
}

/// Issue 20: keys above 16384 bits (OpenSSL's limit) and public exponents above 2^64 are
/// refused when read — PKCS#1 public and private, DER and PEM — with one line; `keygen` refuses
/// such sizes and exponents as a usage error.
#[test]
fn keys_beyond_openssls_limits_are_refused_when_read_and_made() {
    let f = Fixture::new("1024", "2");
    let e = [0x01, 0x00, 0x01];
    let big_e = {
        let mut v = vec![0u8; 9];
        v[0] = 1;
        v[8] = 1;
        v
    };
    let public = |n: &[u8], e: &[u8]| der_tlv(0x30, &[der_int(n), der_int(e)].concat());
    let private = |n: &[u8], e: &[u8]| {
        let small = der_int(&[3]);
        let mut body = der_int(&[0]);
        body.extend(der_int(n));
        body.extend(der_int(e));
        for _ in 0..6 {
            body.extend(&small);
        }
        der_tlv(0x30, &body)
    };
    let pem = |label: &str, der: &[u8]| {
        use base64ct::{Base64, Encoding};
        let b64 = Base64::encode_string(der);
        let lines: Vec<&str> = b64
            .as_bytes()
            .chunks(64)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        format!(
            "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
            lines.join("\n")
        )
        .into_bytes()
    };
    let n_2048 = odd_of_bits(2048);
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "pub-16385.der",
            public(&odd_of_bits(16385), &e),
            "16385 bits is above 16384",
        ),
        (
            "pub-1000001.pem",
            pem("RSA PUBLIC KEY", &public(&odd_of_bits(1_000_001), &e)),
            "1000001 bits is above 16384",
        ),
        ("pub-e65.der", public(&n_2048, &big_e), "above 2^64"),
        (
            "priv-16392.der",
            private(&odd_of_bits(16392), &e),
            "16392 bits is above 16384",
        ),
        (
            "priv-e65.pem",
            pem("RSA PRIVATE KEY", &private(&n_2048, &big_e)),
            "above 2^64",
        ),
    ];
    for (name, bytes, needle) in &cases {
        std::fs::write(f.path(name), bytes).unwrap();
        let op = if name.starts_with("pub") {
            "encrypt"
        } else {
            "decrypt"
        };
        let r = f.crypt(op, name, "plain.txt", "out", &[]);
        assert_one_line_error(&r, 1, needle);
        assert!(!f.path("out").exists(), "{name}");
    }
    // A private key file read for its public half is refused the same way.
    let r = f.crypt("encrypt", "priv-e65.pem", "plain.txt", "out", &[]);
    assert_one_line_error(&r, 1, "above 2^64");
    for (bits, e, needle) in [
        ("16386", "65537", "16384"),
        ("20000", "65537", "16384"),
        ("2048", "36893488147419103233", "above 2^64"),
    ] {
        let out = f.path("big.pem");
        let r = parcrypt(&["rsa", "keygen", "--bits", bits, "--e", e, "--out", s(&out)]);
        assert_one_line_error(&r, 2, needle);
        assert!(!out.exists());
    }
}

/// The fault check (issue 29): with the test-only `PARCRYPT_FAULT=crt-half`, one bit of one CRT
/// half is flipped before the recombination, as a glitch would. A faulty textbook result gives
/// away a prime (gcd(m^e − c, n)); the command must refuse with the one `decryption error` and
/// write nothing, under OAEP and `--padding none`, sequential and `--parallel`, two primes and
/// three, on a Montgomery kernel and on gmp-sec. Without the fault the same runs succeed.
#[test]
fn a_faulty_crt_half_is_refused_and_never_written() {
    let run = |args: &[&str], fault: bool| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_parcrypt"));
        cmd.args(args);
        if fault {
            cmd.env("PARCRYPT_FAULT", "crt-half");
        } else {
            cmd.env_remove("PARCRYPT_FAULT");
        }
        cmd.output().expect("run parcrypt")
    };
    for (bits, primes) in [("1024", "2"), ("2048", "3")] {
        let f = Fixture::new(bits, primes);
        for padding in ["oaep", "none"] {
            let ct = f.path(&format!("ct-{padding}"));
            ok(&f.crypt(
                "encrypt",
                "key.pub.pem",
                "plain.txt",
                s(&ct),
                &["--padding", padding],
            ));
            for kernel in ["auto", "gmp-sec"] {
                for parallel in [false, true] {
                    let out = f.path("pt");
                    let (key, ct_s, out_s) = (f.path("key.pem"), s(&ct).to_string(), s(&out));
                    let mut args = vec![
                        "rsa",
                        "decrypt",
                        "--key",
                        s(&key),
                        "--in",
                        &ct_s,
                        "--out",
                        out_s,
                        "--padding",
                        padding,
                        "--kernel",
                        kernel,
                    ];
                    if parallel {
                        args.push("--parallel");
                    }
                    let tag = format!("{primes} primes, {padding}, {kernel}, parallel {parallel}");
                    let r = run(&args, true);
                    assert_one_line_error(&r, 1, "decryption error");
                    assert_eq!(
                        String::from_utf8_lossy(&r.stderr),
                        "error: decryption error\n",
                        "{tag}"
                    );
                    assert!(!out.exists(), "{tag}: no output after a fault");
                    let r = run(&args, false);
                    ok(&r);
                    let plain = std::fs::read(&out).unwrap();
                    assert!(plain.ends_with(b"attack at dawn"), "{tag}");
                    std::fs::remove_file(&out).unwrap();
                }
            }
        }
    }
}

/// Keygen's "never overwrite" holds against another keygen at the same moment (issue 29):
/// eight started together on one name (each its own seed) leave exactly one key pair, written
/// whole by one of them, and every other one says the file exists (exit 2).
#[test]
fn concurrent_keygens_never_overwrite_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k.pem");
    let children: Vec<_> = (0..8)
        .map(|seed| {
            std::process::Command::new(env!("CARGO_BIN_EXE_parcrypt"))
                .args(["rsa", "keygen", "--bits", "512", "--seed"])
                .arg(seed.to_string())
                .arg("--out")
                .arg(&key)
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("start parcrypt")
        })
        .collect();
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let won = outs.iter().filter(|o| o.status.success()).count();
    assert_eq!(won, 1, "exactly one keygen wrote the key");
    for o in outs.iter().filter(|o| !o.status.success()) {
        assert_one_line_error(o, 2, "already exists; pass --force to overwrite it");
    }
    // The pair on disk is one key's two halves.
    let private = parcrypt::rsa::pem::load_private_key(&std::fs::read(&key).unwrap()).unwrap();
    let public =
        parcrypt::rsa::pem::load_public_key(&std::fs::read(dir.path().join("k.pub.pem")).unwrap())
            .unwrap();
    assert_eq!(private.public(), &public);
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["k.pem", "k.pub.pem"], "no temporary file left");
}

/// `--force` whose public-key file cannot be written (its name is a folder) leaves the old
/// private key as it was: never neither pair (issue 29).
#[test]
fn a_forced_keygen_that_fails_half_way_keeps_the_old_private_key() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("k.pem");
    keygen_ok(&key, &["--bits", "512", "--seed", "1"]);
    let old = std::fs::read(&key).unwrap();
    let public = dir.path().join("k.pub.pem");
    std::fs::remove_file(&public).unwrap();
    std::fs::create_dir(&public).unwrap();
    std::fs::write(public.join("x"), b"x").unwrap();
    let r = parcrypt(&[
        "rsa",
        "keygen",
        "--bits",
        "512",
        "--seed",
        "2",
        "--out",
        s(&key),
        "--force",
    ]);
    assert_one_line_error(&r, 1, "k.pub.pem");
    assert_eq!(
        std::fs::read(&key).unwrap(),
        old,
        "the old private key is back"
    );
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["k.pem", "k.pub.pem"],
        "no temporary or old link left"
    );
}

/// A key, ciphertext, input or label file above 1 MiB is refused before it is read whole,
/// with one line naming the file and the limit (issue 29).
#[test]
fn files_above_the_limit_are_refused_in_one_line() {
    let f = Fixture::new("1024", "2");
    let big = f.path("big.bin");
    std::fs::write(&big, vec![b'A'; (1 << 20) + 1]).unwrap();
    let limit = "above the limit of 1048576 bytes";
    for (op, key, input, extra) in [
        ("decrypt", "big.bin", "plain.txt", &[][..]),
        ("decrypt", "key.pem", "big.bin", &[][..]),
        ("encrypt", "key.pub.pem", "big.bin", &[][..]),
        ("encrypt", "big.bin", "plain.txt", &[][..]),
    ] {
        let r = f.crypt(op, key, input, "out", extra);
        assert_one_line_error(&r, 1, limit);
        assert!(String::from_utf8_lossy(&r.stderr).contains("big.bin"));
        assert!(!f.path("out").exists());
    }
    let r = f.crypt(
        "encrypt",
        "key.pub.pem",
        "plain.txt",
        "out",
        &["--label-file", s(&big)],
    );
    assert_one_line_error(&r, 1, limit);
}
