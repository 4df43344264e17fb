//! RSA-OAEP (SHA-256, MGF1-SHA-256) against Project Wycheproof's vectors in tests/vectors/wycheproof
//! (one 2048-bit key, 37 cases: 18 valid, 19 invalid).
use parcrypt::Error;
use parcrypt::rsa::pem::{self, KeyFile};
use parcrypt::rsa::{RsaPrivateKey, oaep};
use rand::{CryptoRng, RngCore};
use serde_json::Value;

const VECTORS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/vectors/wycheproof/rsa_oaep_2048_sha256_mgf1sha256_test.json"
);

fn load() -> Value {
    // A missing file is a failure, not a skip: these vectors are the proof that OAEP is right.
    let text = std::fs::read_to_string(VECTORS)
        .unwrap_or_else(|err| panic!("cannot read the Wycheproof vectors at {VECTORS}: {err}"));
    serde_json::from_str(&text).expect("vector file is JSON")
}

fn hex_field(v: &Value, name: &str) -> Vec<u8> {
    let s = v[name]
        .as_str()
        .unwrap_or_else(|| panic!("field {name} missing"));
    hex::decode(s).unwrap_or_else(|err| panic!("field {name}: {err}"))
}

fn group_key(group: &Value) -> RsaPrivateKey {
    let key = pem::load_private_key(&hex_field(group, "privateKeyPkcs8")).expect("PKCS#8 key");
    // The other encodings in the group must be the same key.
    let from_pem = group["privateKeyPem"].as_str().expect("privateKeyPem");
    let KeyFile::Private(pkcs1) = pem::parse_key(from_pem.as_bytes()).unwrap() else {
        panic!("privateKeyPem is not a private key");
    };
    assert_eq!(pkcs1.public(), key.public());
    assert_eq!(pkcs1.d(), key.d());
    let int = |name| parcrypt::bignum::from_be_bytes(&hex_field(&group["privateKey"], name));
    assert_eq!(*key.public().n(), int("modulus"));
    assert_eq!(*key.public().e(), int("publicExponent"));
    assert_eq!(*key.d(), int("privateExponent"));
    assert_eq!(
        key.public().bits(),
        group["keySize"].as_u64().unwrap() as u32
    );
    key
}

#[test]
fn wycheproof_oaep_sha256_sample() {
    let doc = load();
    assert_eq!(doc["algorithm"], "RSAES-OAEP");
    let (mut valid, mut invalid, mut total) = (0, 0, 0);
    for group in doc["testGroups"].as_array().expect("testGroups") {
        assert_eq!(group["sha"], "SHA-256");
        assert_eq!(group["mgf"], "MGF1");
        assert_eq!(group["mgfSha"], "SHA-256");
        let key = group_key(group);
        for test in group["tests"].as_array().expect("tests") {
            total += 1;
            let id = &test["tcId"];
            let (ct, label, msg) = (
                hex_field(test, "ct"),
                hex_field(test, "label"),
                hex_field(test, "msg"),
            );
            let got = oaep::decrypt(&key, &ct, &label);
            match test["result"].as_str().unwrap() {
                "valid" | "acceptable" => {
                    let got = got.unwrap_or_else(|err| panic!("tcId {id}: {err}"));
                    assert_eq!(*got, msg, "tcId {id}");
                    valid += 1;
                }
                "invalid" => {
                    let padding = test["flags"]
                        .as_array()
                        .unwrap()
                        .contains(&"InvalidOaepPadding".into());
                    match got {
                        // Padding failures must all be the one opaque error (Manger's attack).
                        Err(Error::DecryptionError) => {}
                        Err(_) if !padding => {}
                        other => panic!("tcId {id} ({}): {other:?}", test["comment"]),
                    }
                    invalid += 1;
                }
                other => panic!("tcId {id}: unknown result {other}"),
            }
        }
    }
    eprintln!("wycheproof: {valid} valid decrypted, {invalid} invalid rejected, {total} in total");
    assert_eq!(doc["numberOfTests"], total);
    assert_eq!((valid, invalid, total), (18, 19, 37));
}

/// Yields zero bytes: reproduces tcId 21 ("seed is all 0"), a known answer for encryption.
struct ZeroRng;

impl RngCore for ZeroRng {
    fn next_u32(&mut self) -> u32 {
        0
    }
    fn next_u64(&mut self) -> u64 {
        0
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        dest.fill(0);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        dest.fill(0);
        Ok(())
    }
}

impl CryptoRng for ZeroRng {}

#[test]
fn encryption_with_a_zero_seed_matches_wycheproof() {
    let doc = load();
    let group = &doc["testGroups"][0];
    let key = group_key(group);
    let test = group["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tcId"] == 21)
        .expect("tcId 21");
    assert_eq!(test["comment"], "seed is all 0");
    let ct = oaep::encrypt(
        key.public(),
        &hex_field(test, "msg"),
        &hex_field(test, "label"),
        &mut ZeroRng,
    )
    .unwrap();
    assert_eq!(hex::encode(ct), test["ct"].as_str().unwrap());
}
