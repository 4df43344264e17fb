//! RSA-OAEP against every Project Wycheproof RSAES-OAEP file in tests/vectors/wycheproof (25
//! files, 1,470 cases; sources in tests/vectors/SOURCES.md): every label hash and MGF1 hash
//! from SHA-1 to SHA-512/256, labels, 1024- to 8192-bit keys, and three-prime keys.
//!
//! Every valid (and "acceptable") case must decrypt to its message; every invalid one must be
//! refused with the one opaque [`Error::DecryptionError`], whatever the defect (padding failures,
//! `InvalidOaepPadding`, are Manger's oracle; length and range follow the same path). The key of each group is read from its PKCS#8 DER and
//! from its PEM, and must equal the group's integers. Each file prints its counts
//! (`cargo test --release --test wycheproof -- --nocapture`). A missing file is a failure.
use parcrypt::Error;
use parcrypt::rsa::oaep::{self, OaepHash, OaepParams};
use parcrypt::rsa::pem;
use parcrypt::rsa::{RsaPrivateKey, RsaPublicKey};
use rand::{CryptoRng, RngCore};
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/wycheproof");

fn load(name: &str) -> Value {
    let path = format!("{DIR}/{name}");
    // A missing file is a failure, not a skip: these vectors are the proof that OAEP is right.
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read the Wycheproof vectors at {path}: {err}"));
    serde_json::from_str(&text).expect("vector file is JSON")
}

fn hex_field(v: &Value, name: &str) -> Vec<u8> {
    let s = v[name]
        .as_str()
        .unwrap_or_else(|| panic!("field {name} missing"));
    hex::decode(s).unwrap_or_else(|err| panic!("field {name}: {err}"))
}

fn int(v: &Value) -> rug::Integer {
    parcrypt::hazmat::bignum::from_be_bytes(&hex::decode(v.as_str().expect("hex integer")).unwrap())
}

fn hash(group: &Value, field: &str) -> OaepHash {
    let name = group[field].as_str().expect("hash name");
    OaepHash::from_name(name).unwrap_or_else(|| panic!("hash {name} not supported"))
}

/// The group's key from its PKCS#8 DER; its PEM and its integers must say the same.
fn group_key(group: &Value) -> RsaPrivateKey {
    let key = pem::load_private_key(&hex_field(group, "privateKeyPkcs8")).expect("PKCS#8 key");
    let from_pem = pem::load_private_key(group["privateKeyPem"].as_str().unwrap().as_bytes())
        .expect("PEM key");
    assert_eq!(from_pem.public(), key.public());
    assert_eq!(from_pem.d(), key.d());
    let ints = &group["privateKey"];
    assert_eq!(*key.public().n(), int(&ints["modulus"]));
    assert_eq!(*key.public().e(), int(&ints["publicExponent"]));
    assert_eq!(*key.d(), int(&ints["privateExponent"]));
    assert_eq!(*key.p(), int(&ints["prime1"]));
    assert_eq!(*key.q(), int(&ints["prime2"]));
    assert_eq!(*key.qinv(), int(&ints["coefficient"]));
    let others = ints["otherPrimeInfos"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    assert_eq!(key.prime_count(), 2 + others.len());
    for (info, (r, d, t)) in others.iter().zip(key.other_primes()) {
        assert_eq!(*r, int(&info[0]));
        assert_eq!(*d, int(&info[1]));
        assert_eq!(*t, int(&info[2]));
    }
    assert_eq!(
        key.public().bits(),
        group["keySize"].as_u64().unwrap() as u32
    );
    key
}

/// Yields one byte over and over: reproduces the "seed is all 0" and "seed is all 1" cases, a
/// known answer for encryption.
struct FixedRng(u8);

impl RngCore for FixedRng {
    fn next_u32(&mut self) -> u32 {
        u32::from_ne_bytes([self.0; 4])
    }
    fn next_u64(&mut self) -> u64 {
        u64::from_ne_bytes([self.0; 8])
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(self.0);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        dest.fill(self.0);
        Ok(())
    }
}

impl CryptoRng for FixedRng {}

#[derive(Default, Debug, PartialEq)]
struct Counts {
    /// Valid and "acceptable" cases (both must decrypt).
    valid: usize,
    acceptable: usize,
    invalid: usize,
    passed: usize,
    failed: Vec<String>,
    known_answers: usize,
}

/// Runs every case of one file; returns what happened.
fn run_file(name: &str) -> Counts {
    let doc = load(name);
    assert_eq!(doc["algorithm"], "RSAES-OAEP", "{name}");
    let mut counts = Counts::default();
    for group in doc["testGroups"].as_array().expect("testGroups") {
        assert_eq!(group["mgf"], "MGF1", "{name}");
        let (sha, mgf_sha) = (hash(group, "sha"), hash(group, "mgfSha"));
        let key = group_key(group);
        // Multi-prime keys are also decrypted with one thread per prime.
        let ops: &[oaep::CtOp] = if key.prime_count() > 2 {
            &[oaep::CtOp::CrtConstTime, oaep::CtOp::CrtConstTimeParallel]
        } else {
            &[oaep::CtOp::CrtConstTime]
        };
        for test in group["tests"].as_array().expect("tests") {
            let id = &test["tcId"];
            let (ct, msg) = (hex_field(test, "ct"), hex_field(test, "msg"));
            let params = OaepParams::new(sha, mgf_sha, &hex_field(test, "label"));
            let result = test["result"].as_str().unwrap();
            for &op in ops {
                let got = oaep::decrypt_with(&key, &ct, &params, op);
                let ok = match (result, &got) {
                    ("valid" | "acceptable", Ok(plain)) => **plain == msg,
                    // Every failure — padding, length, range — is the one opaque error
                    // (Manger's attack; issue 20).
                    ("invalid", Err(Error::DecryptionError)) => true,
                    _ => false,
                };
                if !ok {
                    counts.failed.push(format!(
                        "tcId {id} ({result}, {}, {op:?}): {got:?}",
                        test["comment"]
                    ));
                }
            }
            match result {
                "invalid" => counts.invalid += 1,
                "acceptable" => {
                    counts.valid += 1;
                    counts.acceptable += 1;
                }
                _ => counts.valid += 1,
            }
            // Encryption with the seed the case names must give its ciphertext.
            let seed = match test["comment"].as_str() {
                Some("seed is all 0") => Some(0x00),
                Some("seed is all 1") => Some(0xff),
                _ => None,
            };
            if let Some(byte) = seed {
                let public: &RsaPublicKey = key.public();
                let again = oaep::encrypt_with(public, &msg, &params, &mut FixedRng(byte));
                assert_eq!(
                    again.unwrap(),
                    ct,
                    "{name} tcId {id}: known-answer encryption"
                );
                counts.known_answers += 1;
            }
        }
    }
    counts.passed = counts.valid + counts.invalid - counts.failed.len();
    assert_eq!(
        doc["numberOfTests"],
        counts.valid + counts.invalid,
        "{name}"
    );
    eprintln!(
        "wycheproof {name}: {} valid ({} of them acceptable), {} invalid; {} passed, {} failed; \
         {} known-answer encryptions",
        counts.valid,
        counts.acceptable,
        counts.invalid,
        counts.passed,
        counts.failed.len(),
        counts.known_answers
    );
    counts
}

/// One test per file: (test name, file, valid, invalid) — the counts as the file states them.
macro_rules! wycheproof_files {
    ($(($test:ident, $file:literal, $valid:literal, $invalid:literal)),* $(,)?) => {
        const FILES: &[&str] = &[$($file),*];
        $(
            #[test]
            fn $test() {
                let counts = run_file($file);
                assert!(counts.failed.is_empty(), "{}: {:#?}", $file, counts.failed);
                assert_eq!((counts.valid, counts.invalid), ($valid, $invalid), "{}", $file);
            }
        )*
    };
}

wycheproof_files! {
    (sha1_2048, "rsa_oaep_2048_sha1_mgf1sha1_test.json", 17, 19),
    (sha224_mgf1sha1_2048, "rsa_oaep_2048_sha224_mgf1sha1_test.json", 13, 18),
    (sha224_2048, "rsa_oaep_2048_sha224_mgf1sha224_test.json", 17, 18),
    (sha256_mgf1sha1_2048, "rsa_oaep_2048_sha256_mgf1sha1_test.json", 13, 18),
    (sha256_2048, "rsa_oaep_2048_sha256_mgf1sha256_test.json", 18, 19),
    (sha384_mgf1sha1_2048, "rsa_oaep_2048_sha384_mgf1sha1_test.json", 13, 18),
    (sha384_2048, "rsa_oaep_2048_sha384_mgf1sha384_test.json", 16, 18),
    (sha512_224_mgf1sha1_2048, "rsa_oaep_2048_sha512_224_mgf1sha1_test.json", 13, 19),
    (sha512_224_2048, "rsa_oaep_2048_sha512_224_mgf1sha512_224_test.json", 16, 19),
    (sha512_mgf1sha1_2048, "rsa_oaep_2048_sha512_mgf1sha1_test.json", 13, 18),
    (sha512_2048, "rsa_oaep_2048_sha512_mgf1sha512_test.json", 14, 19),
    (sha256_mgf1sha1_3072, "rsa_oaep_3072_sha256_mgf1sha1_test.json", 13, 19),
    (sha256_3072, "rsa_oaep_3072_sha256_mgf1sha256_test.json", 18, 19),
    (sha512_256_mgf1sha1_3072, "rsa_oaep_3072_sha512_256_mgf1sha1_test.json", 13, 18),
    (sha512_256_3072, "rsa_oaep_3072_sha512_256_mgf1sha512_256_test.json", 18, 19),
    (sha512_mgf1sha1_3072, "rsa_oaep_3072_sha512_mgf1sha1_test.json", 13, 18),
    (sha512_3072, "rsa_oaep_3072_sha512_mgf1sha512_test.json", 15, 18),
    (sha256_mgf1sha1_4096, "rsa_oaep_4096_sha256_mgf1sha1_test.json", 13, 19),
    (sha256_4096, "rsa_oaep_4096_sha256_mgf1sha256_test.json", 18, 19),
    (sha512_mgf1sha1_4096, "rsa_oaep_4096_sha512_mgf1sha1_test.json", 13, 18),
    (sha512_4096, "rsa_oaep_4096_sha512_mgf1sha512_test.json", 17, 19),
    (misc_every_hash_pair, "rsa_oaep_misc_test.json", 395, 0),
    (three_primes_sha1_2048, "rsa_three_primes_oaep_2048_sha1_mgf1sha1_test.json", 17, 19),
    (three_primes_sha224_3072, "rsa_three_primes_oaep_3072_sha224_mgf1sha224_test.json", 19, 19),
    (three_primes_sha256_4096, "rsa_three_primes_oaep_4096_sha256_mgf1sha256_test.json", 18, 18),
}

#[test]
fn every_file_in_the_folder_is_tested() {
    let mut found: Vec<String> = std::fs::read_dir(DIR)
        .expect("tests/vectors/wycheproof")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".json"))
        .collect();
    found.sort();
    let mut listed: Vec<String> = FILES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(found, listed);
}
