//! Property-based mutation of what the library reads from outside (issue 41 item 6): PEM
//! (PKCS#8 and PKCS#1), DER and OAEP ciphertexts, each mutated by flipped, inserted and
//! deleted bytes and truncation, 800 cases per input kind. Every outcome is a value or an
//! error whose message is one line: never a panic. A mutated ciphertext is the one opaque
//! `decryption error` (or, rarely, the message itself when the mutation undid itself).
use super::keys::{DEFAULT_E, RsaPrivateKey};
use super::pem::{self, KeyFormat};
use super::{encode, oaep};
use crate::error::Error;
use proptest::prelude::*;
use rand::SeedableRng;
use rug::Integer;
use std::sync::OnceLock;

/// One edit: where (a fraction of the length), what, and the byte.
#[derive(Clone, Debug)]
enum Edit {
    Flip(f64, u8),
    Insert(f64, u8),
    Delete(f64),
    Truncate(f64),
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        (0.0..1.0, 1u8..=255).prop_map(|(at, b)| Edit::Flip(at, b)),
        (0.0..1.0, any::<u8>()).prop_map(|(at, b)| Edit::Insert(at, b)),
        (0.0..1.0).prop_map(Edit::Delete),
        (0.0..1.0).prop_map(Edit::Truncate),
    ];
    proptest::collection::vec(edit, 1..4)
}

fn mutate(mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
    let at = |f: f64, len: usize| ((f * len as f64) as usize).min(len.saturating_sub(1));
    for e in edits {
        let len = bytes.len();
        match *e {
            Edit::Flip(f, b) if len > 0 => bytes[at(f, len)] ^= b,
            Edit::Insert(f, b) => bytes.insert(at(f, len + 1).min(len), b),
            Edit::Delete(f) if len > 0 => {
                bytes.remove(at(f, len));
            }
            Edit::Truncate(f) => bytes.truncate(at(f, len)),
            _ => {}
        }
    }
    bytes
}

/// A 1024-bit key (made once per process), its files and an OAEP ciphertext of "fuzz".
struct Inputs {
    key: RsaPrivateKey,
    pkcs8_pem: Vec<u8>,
    pkcs1_pem: Vec<u8>,
    der: Vec<u8>,
    ct: Vec<u8>,
}

fn inputs() -> &'static Inputs {
    static INPUTS: OnceLock<Inputs> = OnceLock::new();
    INPUTS.get_or_init(|| {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(41);
        let key =
            RsaPrivateKey::generate_vartime(1024, &Integer::from(DEFAULT_E), &mut rng).unwrap();
        let pem_of = |f| {
            encode::private_key_to_pem(&key, f)
                .unwrap()
                .as_bytes()
                .to_vec()
        };
        Inputs {
            pkcs8_pem: pem_of(KeyFormat::Pkcs8),
            pkcs1_pem: pem_of(KeyFormat::Pkcs1),
            der: encode::private_key_to_der(&key, KeyFormat::Pkcs1)
                .unwrap()
                .to_vec(),
            ct: oaep::encrypt(key.public(), b"fuzz", b"", &mut rng).unwrap(),
            key,
        }
    })
}

/// A key read from `bytes`: any key, or an error of one line.
fn load_is_a_key_or_one_line(bytes: &[u8]) -> Result<(), TestCaseError> {
    if let Err(e) = pem::load_private_key(bytes) {
        let msg = e.to_string();
        prop_assert!(!msg.is_empty() && !msg.contains('\n'), "{msg:?}");
    }
    if let Err(e) = pem::parse_key(bytes) {
        prop_assert!(!e.to_string().contains('\n'));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, ..ProptestConfig::default() })]

    #[test]
    fn mutated_pem_keys_load_or_give_one_error_line(edits in edits(), pkcs1 in any::<bool>()) {
        let i = inputs();
        let text = if pkcs1 { &i.pkcs1_pem } else { &i.pkcs8_pem };
        load_is_a_key_or_one_line(&mutate(text.clone(), &edits))?;
    }

    #[test]
    fn mutated_der_keys_load_or_give_one_error_line(edits in edits()) {
        load_is_a_key_or_one_line(&mutate(inputs().der.clone(), &edits))?;
    }

    #[test]
    fn mutated_ciphertexts_are_the_one_decryption_error(edits in edits()) {
        let i = inputs();
        let ct = mutate(i.ct.clone(), &edits);
        match oaep::decrypt(&i.key, &ct, b"") {
            Ok(m) => prop_assert_eq!(&m[..], b"fuzz"),
            Err(e) => prop_assert!(matches!(e, Error::DecryptionError), "{e}"),
        }
    }
}
