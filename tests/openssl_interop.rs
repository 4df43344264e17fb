//! Interoperability with the `openssl` command-line tool: key files each side writes are read
//! by the other (byte for byte), and RSA-OAEP (SHA-256, MGF1-SHA-256) ciphertexts decrypt across
//! the two.
//!
//! Without `openssl` on PATH the tests print a notice and pass, except under `CI=true`, where a
//! missing `openssl` is a failure.
mod common;
use parcrypt::rsa::pem::{self, KeyFile, KeyFormat};
use parcrypt::rsa::{RsaPrivateKey, oaep};
use rand::SeedableRng;
use rug::Integer;
use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// `pkeyutl` options for OAEP with SHA-256 and MGF1-SHA-256.
const OAEP: &str = "-pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:sha256 \
                    -pkeyopt rsa_mgf1_md:sha256";

/// Whether the tests can run; fails under CI when `openssl` is missing.
fn have_openssl() -> bool {
    common::have_openssl("OpenSSL interoperability")
}

/// Runs `openssl <args>` (split at whitespace) in `dir`; panics with its stderr on failure and
/// returns its stdout.
fn openssl(dir: &Path, args: &str) -> Vec<u8> {
    let out = Command::new("openssl")
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    assert!(
        out.status.success(),
        "openssl {args} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).unwrap();
}

/// `-pkeyopt rsa_oaep_label:HEX`, or nothing for the empty label.
fn label_opt(label: &[u8]) -> String {
    if label.is_empty() {
        String::new()
    } else {
        format!("-pkeyopt rsa_oaep_label:{}", hex::encode(label))
    }
}

/// A 2048-bit key made by parcrypt from a fixed seed (made once for all tests).
fn parcrypt_key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2048);
        RsaPrivateKey::generate_vartime(2048, &Integer::from(65537), &mut rng).unwrap()
    })
}

/// A 2048-bit PKCS#8 PEM key made by `openssl genpkey` (made once for all tests).
fn openssl_key_pem() -> &'static [u8] {
    static PEM: OnceLock<Vec<u8>> = OnceLock::new();
    PEM.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        openssl(
            dir.path(),
            "genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048",
        )
    })
}

/// Writes OpenSSL's key into `dir` as key.pem (PKCS#8), key1.pem (PKCS#1) and pub.pem (SPKI).
fn write_openssl_key(dir: &Path) {
    write(dir, "key.pem", openssl_key_pem());
    openssl(dir, "rsa -in key.pem -traditional -out key1.pem");
    openssl(dir, "pkey -in key.pem -pubout -out pub.pem");
}

fn same_private(a: &RsaPrivateKey, b: &RsaPrivateKey) {
    assert_eq!(a.public(), b.public());
    assert_eq!((a.d(), a.p(), a.q()), (b.d(), b.p(), b.q()));
}

/// Messages from empty to the 2048-bit OAEP-SHA-256 limit of 190 bytes.
fn messages() -> Vec<Vec<u8>> {
    [0usize, 1, 32, 100, 189, 190]
        .iter()
        .map(|&len| (0..len).map(|i| (i * 31 + 7) as u8).collect())
        .collect()
}

#[test]
fn parcrypt_keys_pass_openssl_checks() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let key = parcrypt_key();
    let (pkcs8, pkcs1) = (KeyFormat::Pkcs8, KeyFormat::Pkcs1);
    write(
        d,
        "key.pem",
        pem::private_key_to_pem(key, pkcs8).unwrap().as_bytes(),
    );
    write(
        d,
        "key1.pem",
        pem::private_key_to_pem(key, pkcs1).unwrap().as_bytes(),
    );
    write(d, "key.der", &pem::private_key_to_der(key, pkcs8).unwrap());
    write(d, "key1.der", &pem::private_key_to_der(key, pkcs1).unwrap());
    openssl(d, "pkey -in key.pem -check -noout");
    openssl(d, "rsa -in key1.pem -check -noout");
    openssl(d, "pkey -inform DER -in key.der -check -noout");
    openssl(d, "rsa -inform DER -in key1.der -check -noout");

    // OpenSSL re-encodes our keys to exactly our bytes: the encodings are canonical.
    assert_eq!(openssl(d, "pkey -in key1.pem"), read(d, "key.pem"));
    assert_eq!(
        openssl(d, "rsa -in key.pem -traditional"),
        read(d, "key1.pem")
    );
    let spki = pem::public_key_to_pem(key.public(), pkcs8).unwrap();
    let rsa_pub = pem::public_key_to_pem(key.public(), pkcs1).unwrap();
    assert_eq!(openssl(d, "pkey -in key.pem -pubout"), spki.as_bytes());
    assert_eq!(
        openssl(d, "rsa -in key.pem -RSAPublicKey_out"),
        rsa_pub.as_bytes()
    );

    // Our public-key files are read by OpenSSL and carry our modulus.
    write(d, "pub.pem", spki.as_bytes());
    write(d, "pub1.pem", rsa_pub.as_bytes());
    write(
        d,
        "pub.der",
        &pem::public_key_to_der(key.public(), pkcs8).unwrap(),
    );
    write(
        d,
        "pub1.der",
        &pem::public_key_to_der(key.public(), pkcs1).unwrap(),
    );
    let expected = format!(
        "Modulus={}\n",
        key.public().n().to_string_radix(16).to_uppercase()
    );
    for args in [
        "rsa -pubin -in pub.pem -noout -modulus",
        "rsa -RSAPublicKey_in -in pub1.pem -noout -modulus",
        "rsa -pubin -inform DER -in pub.der -noout -modulus",
        "rsa -RSAPublicKey_in -inform DER -in pub1.der -noout -modulus",
    ] {
        assert_eq!(
            String::from_utf8(openssl(d, args)).unwrap(),
            expected,
            "{args}"
        );
    }
}

#[test]
fn openssl_keys_are_read_in_every_form() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_openssl_key(d);
    // (`pkey -outform DER` writes PKCS#1 for RSA keys; `pkcs8 -topk8` gives PKCS#8.)
    openssl(
        d,
        "pkcs8 -topk8 -nocrypt -in key.pem -outform DER -out key.der",
    );
    openssl(d, "rsa -in key.pem -traditional -outform DER -out key1.der");
    openssl(d, "pkey -in key.pem -pubout -outform DER -out pub.der");
    openssl(d, "rsa -in key.pem -RSAPublicKey_out -out pub1.pem");
    openssl(
        d,
        "rsa -in key.pem -RSAPublicKey_out -outform DER -out pub1.der",
    );

    let key = pem::load_private_key(&read(d, "key.pem")).unwrap();
    for name in ["key1.pem", "key.der", "key1.der"] {
        same_private(&pem::load_private_key(&read(d, name)).unwrap(), &key);
    }
    for name in ["pub.pem", "pub.der", "pub1.pem", "pub1.der"] {
        let bytes = read(d, name);
        assert!(
            matches!(pem::parse_key(&bytes).unwrap(), KeyFile::Public(_)),
            "{name}"
        );
        assert_eq!(
            pem::load_public_key(&bytes).unwrap(),
            *key.public(),
            "{name}"
        );
        let err = pem::load_private_key(&bytes).unwrap_err().to_string();
        assert!(
            err.contains("expected an RSA private key, found a public key"),
            "{err}"
        );
    }
    // A private key file yields its public half.
    assert_eq!(
        pem::load_public_key(&read(d, "key.pem")).unwrap(),
        *key.public()
    );

    // Writing OpenSSL's key back gives OpenSSL's bytes, in every form.
    let (pkcs8, pkcs1) = (KeyFormat::Pkcs8, KeyFormat::Pkcs1);
    let same = |ours: &[u8], name: &str| assert!(ours == read(d, name), "{name} differs");
    same(
        pem::private_key_to_pem(&key, pkcs8).unwrap().as_bytes(),
        "key.pem",
    );
    same(
        pem::private_key_to_pem(&key, pkcs1).unwrap().as_bytes(),
        "key1.pem",
    );
    same(&pem::private_key_to_der(&key, pkcs8).unwrap(), "key.der");
    same(&pem::private_key_to_der(&key, pkcs1).unwrap(), "key1.der");
    same(
        pem::public_key_to_pem(key.public(), pkcs8)
            .unwrap()
            .as_bytes(),
        "pub.pem",
    );
    same(
        pem::public_key_to_pem(key.public(), pkcs1)
            .unwrap()
            .as_bytes(),
        "pub1.pem",
    );
    same(
        &pem::public_key_to_der(key.public(), pkcs8).unwrap(),
        "pub.der",
    );
    same(
        &pem::public_key_to_der(key.public(), pkcs1).unwrap(),
        "pub1.der",
    );
}

#[test]
fn parcrypt_decrypts_openssl_oaep() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_openssl_key(d);
    let pkcs8 = pem::load_private_key(&read(d, "key.pem")).unwrap();
    let pkcs1 = pem::load_private_key(&read(d, "key1.pem")).unwrap();
    for (i, msg) in messages().iter().enumerate() {
        let label: &[u8] = if i % 2 == 0 { b"" } else { b"\x0a\x0b\x0c" };
        write(d, "msg.bin", msg);
        let args = format!(
            "pkeyutl -encrypt -pubin -inkey pub.pem -in msg.bin -out ct.bin {OAEP} {}",
            label_opt(label)
        );
        openssl(d, &args);
        let ct = read(d, "ct.bin");
        assert_eq!(ct.len(), 256);
        for key in [&pkcs8, &pkcs1] {
            let got = oaep::decrypt(key, &ct, label).unwrap();
            assert_eq!(*got, *msg, "length {}", msg.len());
        }
        if !label.is_empty() {
            assert!(oaep::decrypt(&pkcs8, &ct, b"").is_err());
        }
    }
}

#[test]
fn openssl_decrypts_parcrypt_oaep() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_openssl_key(d);
    let own = pem::private_key_to_pem(parcrypt_key(), KeyFormat::Pkcs1).unwrap();
    write(d, "own.pem", own.as_bytes());
    // OpenSSL's key with its public half read from the SPKI file and from the PKCS#1 private
    // key file, and parcrypt's key.
    let cases = [
        (
            pem::load_public_key(&read(d, "pub.pem")).unwrap(),
            "key.pem",
        ),
        (
            pem::load_public_key(&read(d, "key1.pem")).unwrap(),
            "key1.pem",
        ),
        (parcrypt_key().public().clone(), "own.pem"),
    ];
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
    for (public, private_file) in &cases {
        for (i, msg) in messages().iter().enumerate() {
            let label: &[u8] = if i % 2 == 0 { b"" } else { b"label" };
            let ct = oaep::encrypt(public, msg, label, &mut rng).unwrap();
            write(d, "ct.bin", &ct);
            let args = format!(
                "pkeyutl -decrypt -inkey {private_file} -in ct.bin {OAEP} {}",
                label_opt(label)
            );
            assert_eq!(
                openssl(d, &args),
                *msg,
                "{private_file}, length {}",
                msg.len()
            );
        }
    }
}

/// (Multi-prime keys are read: tests/openssl_rsa_options.rs.)
#[test]
fn openssl_keys_that_are_not_plain_rsa_are_refused_clearly() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let rsa = "genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024";
    let cases = [
        (
            "genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256".to_string(),
            "PKCS#8 key is not RSA (algorithm OID 1.2.840.10045.2.1, id-ecPublicKey)",
        ),
        (
            "genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:1024".to_string(),
            "PKCS#8 key is not RSA (algorithm OID 1.2.840.113549.1.1.10, RSASSA-PSS",
        ),
        (
            format!("{rsa} -aes-128-cbc -pass pass:secret"),
            "encrypted PKCS#8 keys are not supported",
        ),
    ];
    for (args, expected) in cases {
        let file = openssl(dir.path(), &args);
        let err = pem::parse_key(&file).unwrap_err().to_string();
        assert!(err.contains(expected), "openssl {args}: {err}");
    }
}

/// Key shapes OpenSSL reads that parcrypt's keygen would not make (issue 29): three primes of
/// 2048 bits with a 48-bit third prime, and a two-prime key with a 3-bit second prime. OpenSSL
/// reads the key parcrypt writes, checks it (`pkey -check`) and encrypts to it; `parcrypt rsa
/// decrypt` decrypts on every kernel this CPU runs, sequential and parallel (the IFMA kernel
/// panicked on the first before: "IFMA size"), and OpenSSL decrypts what parcrypt encrypts.
#[test]
fn keys_with_small_primes_work_both_ways() {
    if !have_openssl() {
        return;
    }
    let e = Integer::from(65537);
    let mut state = rug::rand::RandState::new();
    state.seed(&Integer::from(29));
    // A prime of exactly `bits` bits with gcd(e, r - 1) = 1.
    let mut prime = |bits: u32| loop {
        let mut x = Integer::from(Integer::random_bits(bits, &mut state));
        x.set_bit(bits - 1, true);
        let r = x.next_prime();
        if r.significant_bits() == bits && Integer::from(&r - 1u32).gcd(&e) == 1 {
            break r;
        }
    };
    let small = prime(48);
    let three = loop {
        let primes = vec![prime(1000), prime(1000), small.clone()];
        match RsaPrivateKey::from_primes_vartime(primes, e.clone()) {
            Ok(key) if key.public().bits() == 2048 => break key,
            _ => {}
        }
    };
    let two =
        RsaPrivateKey::from_primes_vartime(vec![prime(1022), Integer::from(5)], e.clone()).unwrap();
    let kernels: Vec<&str> = ["auto", "ifma", "mulx", "portable", "gmp-sec"]
        .into_iter()
        .filter(|k| {
            let ok = parcrypt::hazmat::kernel::PrivateKernel::from_name(k)
                .unwrap()
                .unavailable_reason()
                .is_none();
            if !ok {
                eprintln!("kernel {k} skipped: this CPU cannot run it");
            }
            ok
        })
        .collect();
    for key in [three, two] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        write(
            d,
            "key.pem",
            pem::private_key_to_pem(&key, KeyFormat::Pkcs8)
                .unwrap()
                .as_bytes(),
        );
        write(
            d,
            "pub.pem",
            pem::public_key_to_pem(key.public(), KeyFormat::Pkcs8)
                .unwrap()
                .as_bytes(),
        );
        openssl(d, "pkey -in key.pem -check -noout");
        write(d, "msg", b"small primes are primes too");
        openssl(
            d,
            &format!("pkeyutl -encrypt -pubin -inkey pub.pem {OAEP} -in msg -out ct"),
        );
        for kernel in &kernels {
            for parallel in [false, true] {
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_parcrypt"));
                cmd.args([
                    "rsa", "decrypt", "--key", "key.pem", "--in", "ct", "--out", "pt",
                ]);
                cmd.args(["--kernel", kernel]).current_dir(d);
                if parallel {
                    cmd.arg("--parallel");
                }
                let out = cmd.output().unwrap();
                assert!(
                    out.status.success(),
                    "{} primes, {kernel}: {}",
                    key.prime_count(),
                    String::from_utf8_lossy(&out.stderr)
                );
                assert_eq!(read(d, "pt"), b"small primes are primes too");
                std::fs::remove_file(d.join("pt")).unwrap();
            }
        }
        let ct = oaep::encrypt(key.public(), b"and back", b"", &mut rand::rngs::OsRng).unwrap();
        write(d, "ct2", &ct);
        let pt = openssl(
            d,
            &format!("pkeyutl -decrypt -inkey key.pem {OAEP} -in ct2"),
        );
        assert_eq!(pt, b"and back");
    }
}
