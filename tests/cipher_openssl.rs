//! Byte-for-byte interoperability with the `openssl enc` command on random keys and data:
//! Blowfish ECB and CBC with and without `-nopad` (OpenSSL 3 keeps Blowfish in its legacy
//! provider), and RC4 — both through the library and through `parcrypt cipher` on files.
//!
//! Without `openssl` on PATH the tests print a notice and pass, except under `CI=true`, where a
//! missing `openssl` is a failure.
mod common;
use parcrypt::cipher::modes::{self, Padding};
use parcrypt::cipher::{Blowfish, Rc4};
use rand::{Rng, RngCore, SeedableRng};
use std::path::Path;
use std::process::Command;

const PROVIDERS: &str = "-provider legacy -provider default";

/// Whether the tests can run; fails under CI when `openssl` is missing.
fn have_openssl() -> bool {
    common::have_openssl("OpenSSL cipher interoperability")
}

/// `openssl enc <args> -in IN -out OUT` in `dir`; returns OUT's bytes (panics on failure).
fn openssl_enc(dir: &Path, args: &str, input: &[u8]) -> Vec<u8> {
    std::fs::write(dir.join("ossl.in"), input).unwrap();
    let out = Command::new("openssl")
        .arg("enc")
        .args(PROVIDERS.split_whitespace())
        .args(args.split_whitespace())
        .args(["-in", "ossl.in", "-out", "ossl.out"])
        .current_dir(dir)
        .output()
        .expect("openssl runs");
    assert!(
        out.status.success(),
        "openssl enc {args} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read(dir.join("ossl.out")).unwrap()
}

fn random(rng: &mut impl RngCore, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill_bytes(&mut v);
    v
}

#[test]
fn blowfish_ecb_and_cbc_match_openssl_with_and_without_padding() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(6);
    for round in 0..6 {
        // openssl enc uses Blowfish's default 16-byte key with -K.
        let key = random(&mut rng, 16);
        let iv: [u8; 8] = random(&mut rng, 8).try_into().unwrap();
        let bf = Blowfish::new(&key).unwrap();
        let (k, i) = (hex::encode(&key), hex::encode(iv));
        let len = [0, 1, 7, 8, 9, 1000 + round * 13][round];
        let data = random(&mut rng, len);
        // Padded: both directions.
        let c = openssl_enc(dir.path(), &format!("-bf-ecb -K {k}"), &data);
        assert_eq!(modes::ecb_encrypt(&bf, &data, Padding::Pkcs7).unwrap(), c);
        assert_eq!(modes::ecb_decrypt(&bf, &c, Padding::Pkcs7).unwrap(), data);
        let c = openssl_enc(dir.path(), &format!("-bf-cbc -K {k} -iv {i}"), &data);
        assert_eq!(
            modes::cbc_encrypt(&bf, &iv, &data, Padding::Pkcs7).unwrap(),
            c
        );
        let ours = modes::cbc_encrypt(&bf, &iv, &data, Padding::Pkcs7).unwrap();
        let back = openssl_enc(dir.path(), &format!("-d -bf-cbc -K {k} -iv {i}"), &ours);
        assert_eq!(back, data);
        // Unpadded: whole blocks only.
        let blocks = &data[..len / 8 * 8];
        let c = openssl_enc(dir.path(), &format!("-bf-ecb -nopad -K {k}"), blocks);
        assert_eq!(modes::ecb_encrypt(&bf, blocks, Padding::None).unwrap(), c);
        let c = openssl_enc(
            dir.path(),
            &format!("-bf-cbc -nopad -K {k} -iv {i}"),
            blocks,
        );
        assert_eq!(
            modes::cbc_encrypt(&bf, &iv, blocks, Padding::None).unwrap(),
            c
        );
        assert_eq!(
            modes::cbc_decrypt(&bf, &iv, &c, Padding::None).unwrap(),
            blocks
        );
    }
}

#[test]
fn rc4_matches_openssl() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(4);
    for len in [0usize, 1, 17, 4097, 70_000] {
        let key = random(&mut rng, 16);
        let data = random(&mut rng, len);
        let c = openssl_enc(dir.path(), &format!("-rc4 -K {}", hex::encode(&key)), &data);
        let mut ours = data.clone();
        Rc4::new(&key).unwrap().apply_keystream(&mut ours);
        assert_eq!(ours, c, "len {len}");
    }
}

/// `parcrypt cipher` on files gives what `openssl enc` gives: ECB (sequential, PBlock, the
/// pipeline), CBC (decryption in parallel), RC4; a file larger than one 8 MiB piece.
#[test]
fn parcrypt_command_matches_openssl_on_files() {
    if !have_openssl() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
    let len = (8 << 20) + rng.gen_range(1..5000);
    let data = random(&mut rng, len);
    let p = |name: &str| dir.path().join(name);
    std::fs::write(p("plain"), &data).unwrap();
    let k = hex::encode(random(&mut rng, 16));
    let iv = hex::encode(random(&mut rng, 8));
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_parcrypt"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let s = |name: &str| p(name).to_str().unwrap().to_string();
    let ecb = openssl_enc(dir.path(), &format!("-bf-ecb -K {k}"), &data);
    for (alg, threads) in [
        ("blowfish-ecb", "1"),
        ("pblock-ecb", "2"),
        ("bf-pipeline", "4"),
    ] {
        let out = s(alg);
        run(&[
            "cipher",
            "encrypt",
            "--alg",
            alg,
            "--key",
            &k,
            "--threads",
            threads,
            "--in",
            &s("plain"),
            "--out",
            &out,
        ]);
        assert_eq!(std::fs::read(&out).unwrap(), ecb, "{alg}");
    }
    let cbc = openssl_enc(dir.path(), &format!("-bf-cbc -K {k} -iv {iv}"), &data);
    std::fs::write(p("cbc"), &cbc).unwrap();
    run(&[
        "cipher",
        "decrypt",
        "--alg",
        "blowfish-cbc",
        "--key",
        &k,
        "--iv",
        &iv,
        "--threads",
        "2",
        "--in",
        &s("cbc"),
        "--out",
        &s("cbc.dec"),
    ]);
    assert!(std::fs::read(p("cbc.dec")).unwrap() == data);
    let rc4 = openssl_enc(dir.path(), &format!("-rc4 -K {k}"), &data);
    run(&[
        "cipher",
        "encrypt",
        "--alg",
        "rc4",
        "--key",
        &k,
        "--in",
        &s("plain"),
        "--out",
        &s("rc4"),
    ]);
    assert!(std::fs::read(p("rc4")).unwrap() == rc4);
}
