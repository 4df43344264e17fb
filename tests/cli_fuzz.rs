//! Mutated inputs through `parcrypt rsa decrypt` (issue 41 item 6): a PEM key (PKCS#8 and
//! PKCS#1), a DER key and an OAEP ciphertext, each with flipped, inserted or deleted bytes or
//! truncated. Each run decrypts right, or fails with one stderr line and a non-zero exit that
//! is not a panic's 101, and leaves no output file. The library's parsers take 800 cases per
//! input kind (crates/parcrypt/src/rsa/fuzz_tests.rs); the command, a process per case, 96.
use common::parcrypt;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod common;

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The key files (PKCS#8 PEM, PKCS#1 PEM, DER) and a ciphertext of "fuzz", made once.
struct Files {
    _dir: tempfile::TempDir,
    keys: [Vec<u8>; 3],
    ct: Vec<u8>,
    work: PathBuf,
}

fn files() -> &'static Files {
    static FILES: OnceLock<Files> = OnceLock::new();
    FILES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        let run = |args: &[&str]| {
            let r = parcrypt(args);
            assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        };
        let bits = ["--bits", "1024", "--seed", "41"];
        run(&[&["rsa", "keygen", "--out", s(&p("k8.pem"))][..], &bits].concat());
        std::fs::write(p("plain"), b"fuzz").unwrap();
        run(&[
            "rsa",
            "encrypt",
            "--key",
            s(&p("k8.pem")),
            "--in",
            s(&p("plain")),
            "--out",
            s(&p("ct")),
        ]);
        let pem = std::fs::read(p("k8.pem")).unwrap();
        let key = parcrypt::rsa::pem::load_private_key(&pem).unwrap();
        use parcrypt::{hazmat::encode, rsa::pem::KeyFormat};
        let pkcs1 = encode::private_key_to_pem(&key, KeyFormat::Pkcs1).unwrap();
        let der = encode::private_key_to_der(&key, KeyFormat::Pkcs1).unwrap();
        let work = p("work");
        std::fs::create_dir(&work).unwrap();
        Files {
            keys: [pem, pkcs1.as_bytes().to_vec(), der.to_vec()],
            ct: std::fs::read(p("ct")).unwrap(),
            work,
            _dir: dir,
        }
    })
}

fn mutate(mut bytes: Vec<u8>, edits: &[(u8, f64, u8)]) -> Vec<u8> {
    for &(kind, f, b) in edits {
        let len = bytes.len();
        let at = ((f * len as f64) as usize).min(len.saturating_sub(1));
        match kind % 4 {
            0 if len > 0 => bytes[at] ^= b | 1,
            1 => bytes.insert(at.min(len), b),
            2 if len > 0 => {
                bytes.remove(at);
            }
            3 => bytes.truncate(at),
            _ => {}
        }
    }
    bytes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_mutated_key_or_ciphertext_decrypts_or_gives_one_error_line(
        which in 0usize..4,
        edits in proptest::collection::vec((any::<u8>(), 0.0..1.0, any::<u8>()), 1..4),
        case in any::<u64>(),
    ) {
        let f = files();
        let (mut key, mut ct) = (f.keys[which.min(2)].clone(), f.ct.clone());
        if which == 3 {
            ct = mutate(ct, &edits);
        } else {
            key = mutate(key, &edits);
        }
        let p = |n: &str| f.work.join(format!("{case}-{n}"));
        let (kp, cp, out) = (p("key"), p("ct"), p("out"));
        std::fs::write(&kp, &key).unwrap();
        std::fs::write(&cp, &ct).unwrap();
        let r = parcrypt(&["rsa", "decrypt", "--key", s(&kp), "--in", s(&cp), "--out", s(&out)]);
        let stderr = String::from_utf8_lossy(&r.stderr).to_string();
        if r.status.success() {
            prop_assert_eq!(std::fs::read(&out).unwrap(), b"fuzz".to_vec());
        } else {
            let code = r.status.code();
            prop_assert!(code.is_some_and(|c| c != 101 && c != 0), "{code:?}: {stderr}");
            prop_assert_eq!(stderr.lines().count(), 1, "{}", stderr);
            prop_assert!(!out.exists(), "an output file after a failure");
        }
        for path in [kp, cp, out] {
            let _ = std::fs::remove_file(path);
        }
    }
}
