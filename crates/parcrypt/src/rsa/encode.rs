//! Writing RSA keys as OpenSSL writes them: PKCS#8 `PrivateKeyInfo` or PKCS#1 `RSAPrivateKey`
//! (multi-prime keys with `otherPrimeInfos`), X.509 `SubjectPublicKeyInfo` or PKCS#1
//! `RSAPublicKey`, in DER or PEM (64-character lines, LF). The encodings are canonical: OpenSSL
//! re-encodes them to the same bytes. Secret encodings are returned in [`Zeroizing`] buffers.
use super::keys::{RsaPrivateKey, RsaPublicKey};
use super::pem::{KeyFormat, RSA_ENCRYPTION_OID, invalid};
use crate::error::{Error, Result};
use pkcs8::der::asn1::{AnyRef, BitStringRef, UintRef};
use pkcs8::der::pem::LineEnding;
use pkcs8::der::{Document, SecretDocument};
use pkcs8::{AlgorithmIdentifierRef, PrivateKeyInfo, SubjectPublicKeyInfoRef};
use rug::Integer;
use rug::integer::Order;
use zeroize::Zeroizing;

const LABEL_PKCS8: &str = "PRIVATE KEY";
const LABEL_PKCS1_PRIVATE: &str = "RSA PRIVATE KEY";
const LABEL_SPKI: &str = "PUBLIC KEY";
const LABEL_PKCS1_PUBLIC: &str = "RSA PUBLIC KEY";

/// The private key as DER: PKCS#8 `PrivateKeyInfo` or PKCS#1 `RSAPrivateKey`.
pub fn private_key_to_der(key: &RsaPrivateKey, format: KeyFormat) -> Result<Zeroizing<Vec<u8>>> {
    Ok(private_document(key, format)?.to_bytes())
}

/// The private key as PEM ("PRIVATE KEY" or "RSA PRIVATE KEY"), with LF line endings.
pub fn private_key_to_pem(key: &RsaPrivateKey, format: KeyFormat) -> Result<Zeroizing<String>> {
    let label = match format {
        KeyFormat::Pkcs8 => LABEL_PKCS8,
        KeyFormat::Pkcs1 => LABEL_PKCS1_PRIVATE,
    };
    private_document(key, format)?
        .to_pem(label, LineEnding::LF)
        .map_err(encode_error)
}

/// The public key as DER: X.509 `SubjectPublicKeyInfo` or PKCS#1 `RSAPublicKey`.
pub fn public_key_to_der(key: &RsaPublicKey, format: KeyFormat) -> Result<Vec<u8>> {
    Ok(public_document(key, format)?.into_vec())
}

/// The public key as PEM ("PUBLIC KEY" or "RSA PUBLIC KEY"), with LF line endings.
pub fn public_key_to_pem(key: &RsaPublicKey, format: KeyFormat) -> Result<String> {
    let label = match format {
        KeyFormat::Pkcs8 => LABEL_SPKI,
        KeyFormat::Pkcs1 => LABEL_PKCS1_PUBLIC,
    };
    public_document(key, format)?
        .to_pem(label, LineEnding::LF)
        .map_err(encode_error)
}

/// PKCS#1 `RSAPrivateKey` (version `two-prime`, or `multi` with `otherPrimeInfos` for a key of
/// three primes or more), alone or inside PKCS#8 (whose own version stays 0, as OpenSSL writes).
fn private_document(key: &RsaPrivateKey, format: KeyFormat) -> Result<SecretDocument> {
    let secret = |x: &Integer| Zeroizing::new(x.to_digits::<u8>(Order::Msf));
    let (n, e) = (secret(key.public().n()), secret(key.public().e()));
    let (d, p, q) = (secret(key.d()), secret(key.p()), secret(key.q()));
    let (dp, dq, qinv) = (secret(key.dp()), secret(key.dq()), secret(key.qinv()));
    let others: Vec<[Zeroizing<Vec<u8>>; 3]> = key
        .other_primes()
        .into_iter()
        .map(|(r, d, t)| [secret(r), secret(d), secret(t)])
        .collect();
    let other_prime_infos = if others.is_empty() {
        None
    } else {
        let infos = others.iter().map(|[r, d, t]| {
            Ok(pkcs1::OtherPrimeInfo {
                prime: uint(r)?,
                exponent: uint(d)?,
                coefficient: uint(t)?,
            })
        });
        Some(infos.collect::<Result<Vec<_>>>()?)
    };
    let pkcs1 = pkcs1::RsaPrivateKey {
        modulus: uint(&n)?,
        public_exponent: uint(&e)?,
        private_exponent: uint(&d)?,
        prime1: uint(&p)?,
        prime2: uint(&q)?,
        exponent1: uint(&dp)?,
        exponent2: uint(&dq)?,
        coefficient: uint(&qinv)?,
        other_prime_infos,
    };
    let pkcs1 = SecretDocument::encode_msg(&pkcs1).map_err(encode_error)?;
    match format {
        KeyFormat::Pkcs1 => Ok(pkcs1),
        KeyFormat::Pkcs8 => {
            let info = PrivateKeyInfo::new(rsa_algorithm(), pkcs1.as_bytes());
            SecretDocument::encode_msg(&info).map_err(encode_error)
        }
    }
}

fn public_document(key: &RsaPublicKey, format: KeyFormat) -> Result<Document> {
    let (n, e) = (
        key.n().to_digits::<u8>(Order::Msf),
        key.e().to_digits::<u8>(Order::Msf),
    );
    let pkcs1 = pkcs1::RsaPublicKey {
        modulus: uint(&n)?,
        public_exponent: uint(&e)?,
    };
    let pkcs1 = Document::encode_msg(&pkcs1).map_err(encode_error)?;
    match format {
        KeyFormat::Pkcs1 => Ok(pkcs1),
        KeyFormat::Pkcs8 => {
            let spki = SubjectPublicKeyInfoRef {
                algorithm: rsa_algorithm(),
                subject_public_key: BitStringRef::from_bytes(pkcs1.as_bytes())
                    .map_err(encode_error)?,
            };
            Document::encode_msg(&spki).map_err(encode_error)
        }
    }
}

/// `rsaEncryption` with NULL parameters, as RFC 8017 A.1 and OpenSSL write it.
fn rsa_algorithm() -> AlgorithmIdentifierRef<'static> {
    AlgorithmIdentifierRef {
        oid: RSA_ENCRYPTION_OID,
        parameters: Some(AnyRef::NULL),
    }
}

/// A DER INTEGER from big-endian bytes (every RSA component is positive, so never empty).
fn uint(bytes: &[u8]) -> Result<UintRef<'_>> {
    UintRef::new(bytes).map_err(encode_error)
}

fn encode_error(err: impl std::fmt::Display) -> Error {
    invalid(format!("cannot encode key: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use crate::rsa::pem::{KeyFile, load_private_key, load_public_key, parse_key};
    use pkcs8::der::{self, Decode};
    use rand::SeedableRng;

    fn key() -> RsaPrivateKey {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(8);
        RsaPrivateKey::generate_vartime(768, &Integer::from(65537), &mut rng).unwrap()
    }

    fn err_of(bytes: &[u8]) -> String {
        match parse_key(bytes) {
            Ok(_) => panic!("parsed"),
            Err(Error::InvalidKey(msg)) => msg,
            Err(other) => panic!("wrong error kind: {other}"),
        }
    }

    fn same_key(a: &RsaPrivateKey, b: &RsaPrivateKey) {
        assert_eq!(a.public(), b.public());
        assert_eq!((a.d(), a.p(), a.q()), (b.d(), b.p(), b.q()));
    }

    #[test]
    fn private_keys_round_trip_in_every_form() {
        let key = key();
        for format in [KeyFormat::Pkcs8, KeyFormat::Pkcs1] {
            let pem = private_key_to_pem(&key, format).unwrap();
            let der = private_key_to_der(&key, format).unwrap();
            same_key(&load_private_key(pem.as_bytes()).unwrap(), &key);
            same_key(&load_private_key(&der).unwrap(), &key);
            assert_eq!(load_public_key(pem.as_bytes()).unwrap(), *key.public());
        }
        let pkcs8 = private_key_to_pem(&key, KeyFormat::default()).unwrap();
        assert!(
            pkcs8.starts_with("-----BEGIN PRIVATE KEY-----\n"),
            "{}",
            &pkcs8[..40]
        );
        let pkcs1 = private_key_to_pem(&key, KeyFormat::Pkcs1).unwrap();
        assert!(pkcs1.starts_with("-----BEGIN RSA PRIVATE KEY-----\n"));
    }

    #[test]
    fn public_keys_round_trip_in_every_form() {
        let key = key();
        for (format, label) in [
            (KeyFormat::Pkcs8, "PUBLIC KEY"),
            (KeyFormat::Pkcs1, "RSA PUBLIC KEY"),
        ] {
            let pem = public_key_to_pem(key.public(), format).unwrap();
            assert!(
                pem.starts_with(&format!("-----BEGIN {label}-----\n")),
                "{pem}"
            );
            let der = public_key_to_der(key.public(), format).unwrap();
            for bytes in [pem.as_bytes(), &der] {
                assert!(matches!(parse_key(bytes).unwrap(), KeyFile::Public(_)));
                assert_eq!(load_public_key(bytes).unwrap(), *key.public());
            }
        }
    }

    #[test]
    fn multi_prime_keys_round_trip_and_inconsistent_ones_are_refused() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(31);
        let e = Integer::from(65537);
        for (bits, primes) in [(1024, 3), (4096, 4)] {
            let key = RsaPrivateKey::generate_multi_vartime(bits, primes, &e, &mut rng).unwrap();
            for format in [KeyFormat::Pkcs8, KeyFormat::Pkcs1] {
                let der = private_key_to_der(&key, format).unwrap();
                let back = load_private_key(&der).unwrap();
                same_key(&back, &key);
                assert_eq!(back.prime_count(), primes);
                assert_eq!(back.other_primes(), key.other_primes());
            }
        }
        let key = RsaPrivateKey::generate_multi_vartime(1024, 3, &e, &mut rng).unwrap();
        let der = private_key_to_der(&key, KeyFormat::Pkcs1).unwrap();
        let parsed = pkcs1::RsaPrivateKey::from_der(&der).unwrap();
        assert_eq!(parsed.version(), pkcs1::Version::Multi);
        let infos = parsed.other_prime_infos.clone().unwrap();
        // A wrong t_3, a wrong d_3, a fourth prime that breaks the product, no prime at all.
        let two = [2u8];
        let two = UintRef::new(&two).unwrap();
        let with = |infos: Vec<pkcs1::OtherPrimeInfo<'_>>| {
            let key = pkcs1::RsaPrivateKey {
                other_prime_infos: Some(infos),
                ..parsed.clone()
            };
            err_of(&der::Encode::to_der(&key).unwrap())
        };
        let bad_t = vec![pkcs1::OtherPrimeInfo {
            coefficient: two,
            ..infos[0]
        }];
        assert!(with(bad_t).contains("otherPrimeInfo's exponent or coefficient"));
        let bad_d = vec![pkcs1::OtherPrimeInfo {
            exponent: two,
            ..infos[0]
        }];
        assert!(with(bad_d).contains("do not match d and the primes"));
        let extra = vec![infos[0].clone(), infos[0].clone()];
        assert!(with(extra).contains("product of the primes does not equal the modulus"));
        assert!(with(vec![]).contains("without otherPrimeInfos"));
        let six = vec![infos[0].clone(); 4];
        assert!(with(six).contains("6 primes; at most 5"));
        // A two-prime key with a wrong CRT coefficient.
        let two_prime = private_key_to_der(&self::key(), KeyFormat::Pkcs1).unwrap();
        let parsed = pkcs1::RsaPrivateKey::from_der(&two_prime).unwrap();
        let bad = pkcs1::RsaPrivateKey {
            coefficient: two,
            ..parsed
        };
        let err = err_of(&der::Encode::to_der(&bad).unwrap());
        assert!(err.contains("CRT values (dP, dQ, qInv)"), "{err}");
    }
}
