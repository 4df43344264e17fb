//! RSA-OAEP (SHA-256) round trip with a key OpenSSL reads: generate a 2048-bit key, write it as
//! PKCS#8 PEM (what `openssl genpkey` writes), read it back, encrypt and decrypt. Where the
//! `openssl` command is installed, OpenSSL encrypts to the same key and parcrypt decrypts.
//!
//! `cargo run --release -p parcrypt --example oaep_roundtrip`
use parcrypt::hazmat::encode::private_key_to_pem;
use parcrypt::hazmat::limits::DEFAULT_E;
use parcrypt::rsa::pem::{KeyFormat, load_private_key};
use parcrypt::rsa::{RsaPrivateKey, oaep};
use rand::rngs::OsRng;
use rug::Integer;

fn main() -> parcrypt::Result<()> {
    let key = RsaPrivateKey::generate_vartime(2048, &Integer::from(DEFAULT_E), &mut OsRng)?;
    let pem = private_key_to_pem(&key, KeyFormat::Pkcs8)?;
    let key = load_private_key(pem.as_bytes())?;
    println!(
        "key: {} bits, PKCS#8 PEM of {} bytes",
        key.public().bits(),
        pem.len()
    );

    let msg = b"attack at dawn";
    let ct = oaep::encrypt(key.public(), msg, b"", &mut OsRng)?;
    let back = oaep::decrypt(&key, &ct, b"")?;
    assert_eq!(&back[..], msg);
    println!(
        "parcrypt: {} bytes -> {} bytes of ciphertext -> {:?}",
        msg.len(),
        ct.len(),
        String::from_utf8_lossy(&back)
    );

    // A tampered ciphertext is the one opaque error.
    let mut bad = ct.clone();
    bad[10] ^= 1;
    println!("tampered: {}", oaep::decrypt(&key, &bad, b"").unwrap_err());

    match openssl_encrypts(pem.as_bytes(), msg) {
        Some(ct) => {
            let back = oaep::decrypt(&key, &ct, b"")?;
            assert_eq!(&back[..], msg);
            println!(
                "OpenSSL encrypted, parcrypt decrypted: {:?}",
                String::from_utf8_lossy(&back)
            );
        }
        None => println!("openssl not found: the interop step is skipped"),
    }
    Ok(())
}

/// `openssl pkeyutl -encrypt` with OAEP, SHA-256 and MGF1-SHA-256, or `None` without OpenSSL.
fn openssl_encrypts(pem: &[u8], msg: &[u8]) -> Option<Vec<u8>> {
    let dir = tempfile::tempdir().ok()?;
    let (key, input, out) = (
        dir.path().join("key.pem"),
        dir.path().join("msg"),
        dir.path().join("ct"),
    );
    std::fs::write(&key, pem).ok()?;
    std::fs::write(&input, msg).ok()?;
    let status = std::process::Command::new("openssl")
        .args(["pkeyutl", "-encrypt", "-inkey"])
        .arg(&key)
        .args(["-in"])
        .arg(&input)
        .args(["-out"])
        .arg(&out)
        .args([
            "-pkeyopt",
            "rsa_padding_mode:oaep",
            "-pkeyopt",
            "rsa_oaep_md:sha256",
            "-pkeyopt",
            "rsa_mgf1_md:sha256",
        ])
        .status()
        .ok()?;
    status.success().then(|| std::fs::read(&out).ok()).flatten()
}
