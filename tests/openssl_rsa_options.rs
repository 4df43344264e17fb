//! Interoperability with the `openssl` command for what issue 10 added, through both programs'
//! command lines: OpenSSL's default OAEP (SHA-1, MGF1-SHA-1) both ways, labelled OAEP both
//! ways, other hash pairs, OpenSSL's three-prime keys read and decrypting here, parcrypt's
//! multi-prime keys passing `openssl pkey -check`, the same prime limits per size, and PEM
//! re-wrapped as other tools write it.
//!
//! Without `openssl` on PATH the tests print a notice and pass, except under `CI=true`, where a
//! missing `openssl` is a failure.
mod common;
use common::parcrypt;
use parcrypt::rsa::pem::{self, KeyFormat};
use std::path::Path;
use std::process::{Command, Output};

fn have_openssl() -> bool {
    common::have_openssl("OpenSSL interoperability (OAEP options, multi-prime)")
}

/// Runs `openssl <args>` (split at whitespace) in `dir`.
fn openssl_run(dir: &Path, args: &str) -> Output {
    Command::new("openssl")
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .expect("openssl runs")
}

/// Runs `openssl <args>` in `dir`; panics with its stderr on failure and returns its stdout.
fn openssl(dir: &Path, args: &str) -> Vec<u8> {
    let out = openssl_run(dir, args);
    assert!(
        out.status.success(),
        "openssl {args} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `parcrypt <args>` (split at whitespace) in `dir`; panics with its stderr on failure.
fn run(dir: &Path, args: &str) {
    let args: Vec<String> = args
        .split_whitespace()
        .map(|a| match a.strip_prefix('@') {
            Some(name) => dir.join(name).to_str().unwrap().to_string(),
            None => a.to_string(),
        })
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = parcrypt(&args);
    assert!(
        out.status.success(),
        "parcrypt {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

const MSG: &[u8] = b"interoperable, and 190 bytes would fit too";

/// OAEP both ways between the two command lines with the given options: OpenSSL encrypts with
/// `pub_file` and parcrypt decrypts with `key_file`, then the other way round.
fn both_ways(d: &Path, key_file: &str, pub_file: &str, openssl_opts: &str, parcrypt_opts: &str) {
    std::fs::write(d.join("msg"), MSG).unwrap();
    for parallel in ["", "--parallel"] {
        openssl(
            d,
            &format!("pkeyutl -encrypt -pubin -inkey {pub_file} -in msg -out ct.o {openssl_opts}"),
        );
        let _ = std::fs::remove_file(d.join("pt.p"));
        run(
            d,
            &format!(
                "rsa decrypt --key @{key_file} --in @ct.o --out @pt.p {parcrypt_opts} {parallel}"
            ),
        );
        assert_eq!(
            read(d, "pt.p"),
            MSG,
            "OpenSSL -> parcrypt: {openssl_opts} {parallel}"
        );
    }
    let _ = std::fs::remove_file(d.join("ct.p"));
    run(
        d,
        &format!("rsa encrypt --key @{pub_file} --in @msg --out @ct.p {parcrypt_opts}"),
    );
    let pt = openssl(
        d,
        &format!("pkeyutl -decrypt -inkey {key_file} -in ct.p {openssl_opts}"),
    );
    assert_eq!(pt, MSG, "parcrypt -> OpenSSL: {openssl_opts}");
}

#[test]
fn openssl_default_oaep_labels_and_hash_pairs_work_both_ways() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    openssl(
        d,
        "genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out key.pem",
    );
    openssl(d, "pkey -in key.pem -pubout -out pub.pem");
    let oaep = "-pkeyopt rsa_padding_mode:oaep";
    let cases = [
        // OpenSSL's default OAEP: SHA-1 for both.
        (oaep.to_string(), "--oaep-hash sha1 --mgf1-hash sha1"),
        // Labelled, with parcrypt's default hashes.
        (
            format!("{oaep} -pkeyopt rsa_oaep_md:sha256 -pkeyopt rsa_oaep_label:0a0b0c0d"),
            "--label 0a0b0c0d",
        ),
        // Labelled with OpenSSL's default hashes.
        (
            format!("{oaep} -pkeyopt rsa_oaep_label:00ff"),
            "--label 00ff --oaep-hash sha1 --mgf1-hash sha1",
        ),
        // Different label and MGF1 hashes.
        (
            format!("{oaep} -pkeyopt rsa_oaep_md:sha384 -pkeyopt rsa_mgf1_md:sha1"),
            "--oaep-hash sha384 --mgf1-hash sha1",
        ),
        (
            format!("{oaep} -pkeyopt rsa_oaep_md:sha512 -pkeyopt rsa_mgf1_md:sha224"),
            "--oaep-hash sha512 --mgf1-hash sha224",
        ),
    ];
    for (openssl_opts, parcrypt_opts) in &cases {
        both_ways(d, "key.pem", "pub.pem", openssl_opts, parcrypt_opts);
    }
    // SHA-1 ciphertexts are refused under parcrypt's SHA-256 default, with the opaque error.
    openssl(
        d,
        &format!("pkeyutl -encrypt -pubin -inkey pub.pem -in msg -out ct.o {oaep}"),
    );
    let out = parcrypt(&[
        "rsa",
        "decrypt",
        "--key",
        d.join("key.pem").to_str().unwrap(),
        "--in",
        d.join("ct.o").to_str().unwrap(),
        "--out",
        d.join("x").to_str().unwrap(),
    ]);
    common::assert_one_line_error(&out, 1, "decryption error");
    assert!(!d.join("x").exists());
}

#[test]
fn openssl_three_prime_keys_are_read_and_decrypt_here() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    openssl(
        d,
        "genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_keygen_primes:3 \
         -out key.pem",
    );
    openssl(d, "pkey -in key.pem -pubout -out pub.pem");
    openssl(d, "rsa -in key.pem -traditional -out key1.pem");
    openssl(d, "rsa -in key.pem -traditional -outform DER -out key1.der");
    let text = String::from_utf8(openssl(d, "pkey -in key.pem -noout -text")).unwrap();
    assert!(
        text.starts_with("Private-Key: (2048 bit, 3 primes)"),
        "{text}"
    );

    let key = pem::load_private_key(&read(d, "key.pem")).unwrap();
    assert_eq!(key.prime_count(), 3);
    for name in ["key1.pem", "key1.der"] {
        let other = pem::load_private_key(&read(d, name)).unwrap();
        assert_eq!(other.public(), key.public());
        assert_eq!(other.other_primes(), key.other_primes());
    }
    // Written back, OpenSSL's three-prime key is OpenSSL's bytes, PKCS#8 and PKCS#1.
    let pkcs8 = pem::private_key_to_pem(&key, KeyFormat::Pkcs8).unwrap();
    assert!(pkcs8.as_bytes() == read(d, "key.pem"), "PKCS#8 differs");
    let pkcs1 = pem::private_key_to_pem(&key, KeyFormat::Pkcs1).unwrap();
    assert!(pkcs1.as_bytes() == read(d, "key1.pem"), "PKCS#1 differs");

    // OAEP both ways with the three-prime key, from each of its files.
    let oaep = "-pkeyopt rsa_padding_mode:oaep";
    // (OpenSSL 3 detects the DER key file's format by itself.)
    for key_file in ["key.pem", "key1.pem", "key1.der"] {
        let opts = format!("{oaep} -pkeyopt rsa_oaep_md:sha256");
        both_ways(d, key_file, "pub.pem", &opts, "");
    }
    both_ways(
        d,
        "key.pem",
        "pub.pem",
        oaep,
        "--oaep-hash sha1 --mgf1-hash sha1",
    );
}

#[test]
fn parcrypt_multi_prime_keys_pass_openssl_checks() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (bits, primes) in [("2048", "3"), ("1024", "3"), ("4096", "4")] {
        let (k8, k1) = (format!("k{bits}.pem"), format!("k{bits}.1.der"));
        run(
            d,
            &format!("rsa keygen --bits {bits} --primes {primes} --out @{k8}"),
        );
        run(
            d,
            &format!(
                "rsa keygen --bits {bits} --primes {primes} --format pkcs1 --encoding der \
                 --out @{k1}"
            ),
        );
        openssl(d, &format!("pkey -in {k8} -check -noout"));
        openssl(d, &format!("rsa -in {k8} -check -noout"));
        openssl(d, &format!("rsa -inform DER -in {k1} -check -noout"));
        let text = String::from_utf8(openssl(d, &format!("pkey -in {k8} -noout -text"))).unwrap();
        assert!(
            text.starts_with(&format!("Private-Key: ({bits} bit, {primes} primes)")),
            "{text}"
        );
        // OpenSSL re-encodes the key to exactly parcrypt's bytes.
        assert_eq!(openssl(d, &format!("pkey -in {k8}")), read(d, &k8));
        assert_eq!(
            openssl(
                d,
                &format!("rsa -inform DER -in {k1} -traditional -outform DER")
            ),
            read(d, &k1)
        );
        let public = format!("k{bits}.pub.pem");
        let oaep = "-pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha256";
        both_ways(d, &k8, &public, oaep, "");
    }
}

#[test]
fn the_prime_limits_per_size_are_openssls() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let genpkey = |bits: u32, primes: usize| {
        openssl_run(
            d,
            &format!(
                "genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:{bits} \
                 -pkeyopt rsa_keygen_primes:{primes} -out o.pem"
            ),
        )
        .status
        .success()
    };
    for (bits, primes) in [
        (512, 2),
        (512, 3),
        (1024, 3),
        (1024, 4),
        (2048, 4),
        (1536, 3),
    ] {
        let ours = primes <= parcrypt::rsa::keys::max_primes(bits);
        assert_eq!(genpkey(bits, primes), ours, "{bits} bits, {primes} primes");
    }
}

#[test]
fn pem_rewrapped_as_other_tools_write_it_is_read_by_both() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    openssl(
        d,
        "genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out key.pem",
    );
    openssl(d, "pkey -in key.pem -pubout -out pub.pem");
    let pem = String::from_utf8(read(d, "key.pem")).unwrap();
    let lines: Vec<&str> = pem.lines().collect();
    let b64 = lines[1..lines.len() - 1].concat();
    for (i, (width, eol, trail)) in [
        (76, "\n", ""),
        (65, "\n", ""),
        (48, "\r\n", ""),
        (100_000, "\n", ""),
        (64, "\n", "  "),
    ]
    .into_iter()
    .enumerate()
    {
        let mut text = format!("{}{trail}{eol}", lines[0]);
        for chunk in b64.as_bytes().chunks(width) {
            text += &format!("{}{trail}{eol}", std::str::from_utf8(chunk).unwrap());
        }
        text += &format!("{}{trail}{eol}", lines[lines.len() - 1]);
        let name = format!("w{i}.pem");
        std::fs::write(d.join(&name), &text).unwrap();
        // OpenSSL reads it (so it is a fair input), and so does parcrypt.
        openssl(d, &format!("pkey -in {name} -noout"));
        both_ways(
            d,
            &name,
            "pub.pem",
            "-pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha256",
            "",
        );
    }
}
