//! RSA key files as OpenSSL writes and reads them: PKCS#8, PKCS#1 and SPKI, in PEM or DER.
//!
//! All ASN.1 goes through RustCrypto's `pkcs1`, `pkcs8` and `spki` crates; this file maps their
//! structures to parcrypt's keys and their failures to one-line [`Error::InvalidKey`] messages.
//! Secret encodings are returned in [`Zeroizing`] buffers and wiped when dropped.
use super::keys::{RsaPrivateKey, RsaPublicKey};
use crate::bignum::{SecretInteger, from_be_bytes};
use crate::error::{Error, Result};
use pkcs8::der::asn1::{AnyRef, BitStringRef, ObjectIdentifier, OctetStringRef, UintRef};
use pkcs8::der::pem::LineEnding;
use pkcs8::der::{self, Decode, Document, ErrorKind, Reader, SecretDocument, SliceReader};
use pkcs8::{AlgorithmIdentifierRef, PrivateKeyInfo, SubjectPublicKeyInfoRef};
use rug::Integer;
use rug::integer::Order;
use zeroize::Zeroizing;

/// The `rsaEncryption` algorithm OID (PKCS#1), the only key algorithm accepted.
pub const RSA_ENCRYPTION_OID: ObjectIdentifier =
    ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

const LABEL_PKCS8: &str = "PRIVATE KEY";
const LABEL_PKCS1_PRIVATE: &str = "RSA PRIVATE KEY";
const LABEL_SPKI: &str = "PUBLIC KEY";
const LABEL_PKCS1_PUBLIC: &str = "RSA PUBLIC KEY";
const LABEL_ENCRYPTED: &str = "ENCRYPTED PRIVATE KEY";

/// Which ASN.1 structure a key is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyFormat {
    /// Private keys as PKCS#8 `PrivateKeyInfo` ("PRIVATE KEY"), public keys as X.509
    /// `SubjectPublicKeyInfo` ("PUBLIC KEY"): what OpenSSL 3 writes by default.
    #[default]
    Pkcs8,
    /// PKCS#1 `RSAPrivateKey` ("RSA PRIVATE KEY") and `RSAPublicKey` ("RSA PUBLIC KEY"):
    /// OpenSSL's `-traditional` and `-RSAPublicKey_out` forms.
    Pkcs1,
}

/// A key read from a file whose kind (private or public) was not known in advance.
#[derive(Clone, Debug)]
pub enum KeyFile {
    /// A private key (PKCS#8 or PKCS#1).
    Private(RsaPrivateKey),
    /// A public key (SPKI or PKCS#1).
    Public(RsaPublicKey),
}

impl KeyFile {
    /// The public key, or the public half of the private key.
    pub fn public(&self) -> &RsaPublicKey {
        match self {
            KeyFile::Private(key) => key.public(),
            KeyFile::Public(key) => key,
        }
    }

    /// The private key, or an error if the file held only a public key.
    pub fn into_private(self) -> Result<RsaPrivateKey> {
        match self {
            KeyFile::Private(key) => Ok(key),
            KeyFile::Public(_) => Err(invalid("expected an RSA private key, found a public key")),
        }
    }

    /// The public key, or the public half of the private key.
    pub fn into_public(self) -> RsaPublicKey {
        match self {
            KeyFile::Private(key) => key.public().clone(),
            KeyFile::Public(key) => key,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Export

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

fn private_document(key: &RsaPrivateKey, format: KeyFormat) -> Result<SecretDocument> {
    let secret = |x: &Integer| Zeroizing::new(x.to_digits::<u8>(Order::Msf));
    let (n, e) = (secret(key.public().n()), secret(key.public().e()));
    let (d, p, q) = (secret(key.d()), secret(key.p()), secret(key.q()));
    let (dp, dq, qinv) = (secret(key.dp()), secret(key.dq()), secret(key.qinv()));
    let pkcs1 = pkcs1::RsaPrivateKey {
        modulus: uint(&n)?,
        public_exponent: uint(&e)?,
        private_exponent: uint(&d)?,
        prime1: uint(&p)?,
        prime2: uint(&q)?,
        exponent1: uint(&dp)?,
        exponent2: uint(&dq)?,
        coefficient: uint(&qinv)?,
        other_prime_infos: None,
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

// ---------------------------------------------------------------------------------------------
// Import

/// Reads a private or public RSA key from PEM (by label: PRIVATE KEY, RSA PRIVATE KEY,
/// PUBLIC KEY, RSA PUBLIC KEY) or DER (PKCS#8, PKCS#1 private, SPKI, PKCS#1 public, in that
/// order). Text before the first PEM block and after its end line is ignored.
pub fn parse_key(bytes: &[u8]) -> Result<KeyFile> {
    match pem_block(bytes) {
        Some(block) => parse_pem(block),
        None => parse_der(bytes),
    }
}

/// Reads a private key (PKCS#8 or PKCS#1, PEM or DER).
pub fn load_private_key(bytes: &[u8]) -> Result<RsaPrivateKey> {
    parse_key(bytes)?.into_private()
}

/// Reads a public key (SPKI or PKCS#1, PEM or DER); a private key file yields its public half.
pub fn load_public_key(bytes: &[u8]) -> Result<RsaPublicKey> {
    Ok(parse_key(bytes)?.into_public())
}

/// The first `-----BEGIN ...` to the end of its `-----END ...-----` line, if there is one.
fn pem_block(bytes: &[u8]) -> Option<&[u8]> {
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    let start = find(bytes, b"-----BEGIN ")?;
    let rest = &bytes[start..];
    let Some(end) = find(rest, b"-----END ") else {
        return Some(rest); // let the PEM decoder report the missing end line
    };
    let after = end + b"-----END ".len();
    match find(&rest[after..], b"-----") {
        Some(close) => Some(&rest[..after + close + 5]),
        None => Some(rest),
    }
}

fn parse_pem(block: &[u8]) -> Result<KeyFile> {
    let label =
        der::pem::decode_label(block).map_err(|err| invalid(format!("malformed PEM: {err}")))?;
    match label {
        LABEL_PKCS8 | LABEL_PKCS1_PRIVATE | LABEL_SPKI | LABEL_PKCS1_PUBLIC => {}
        LABEL_ENCRYPTED => return Err(encrypted_pkcs8()),
        other => {
            return Err(invalid(format!(
                "PEM label \"{other}\" is not an RSA key (expected PRIVATE KEY, RSA PRIVATE KEY, \
                 PUBLIC KEY or RSA PUBLIC KEY)"
            )));
        }
    }
    if block.windows(10).any(|w| w == b"Proc-Type:") {
        return Err(invalid(
            "encrypted PEM keys (Proc-Type: 4,ENCRYPTED) are not supported; decrypt with \
             `openssl pkey -in KEY -out PLAIN`",
        ));
    }
    let (_, der) = der::pem::decode_vec(block)
        .map_err(|err| invalid(format!("malformed PEM ({label}): {err}")))?;
    let der = Zeroizing::new(der);
    match label {
        LABEL_PKCS8 => parse_pkcs8(&der).map(KeyFile::Private),
        LABEL_PKCS1_PRIVATE => {
            let key = pkcs1::RsaPrivateKey::from_der(&der)
                .map_err(|err| invalid(format!("malformed PKCS#1 private key: {err}")))?;
            from_pkcs1_private(&key).map(KeyFile::Private)
        }
        LABEL_SPKI => parse_spki(&der).map(KeyFile::Public),
        _ => {
            let key = pkcs1::RsaPublicKey::from_der(&der)
                .map_err(|err| invalid(format!("malformed PKCS#1 public key: {err}")))?;
            from_pkcs1_public(&key).map(KeyFile::Public)
        }
    }
}

fn parse_der(der: &[u8]) -> Result<KeyFile> {
    if PrivateKeyInfo::from_der(der).is_ok() {
        return parse_pkcs8(der).map(KeyFile::Private);
    }
    if let Ok(key) = pkcs1::RsaPrivateKey::from_der(der) {
        return from_pkcs1_private(&key).map(KeyFile::Private);
    }
    if SubjectPublicKeyInfoRef::from_der(der).is_ok() {
        return parse_spki(der).map(KeyFile::Public);
    }
    if let Ok(key) = pkcs1::RsaPublicKey::from_der(der) {
        return from_pkcs1_public(&key).map(KeyFile::Public);
    }
    if is_encrypted_pkcs8(der) {
        return Err(encrypted_pkcs8());
    }
    // Every key structure is a SEQUENCE (tag 0x30): only then is "truncated" the likely story.
    match AnyRef::from_der(der) {
        Err(err)
            if der.first() == Some(&0x30) && matches!(err.kind(), ErrorKind::Incomplete { .. }) =>
        {
            Err(invalid(format!(
                "not a PEM or DER RSA key: truncated DER ({err})"
            )))
        }
        _ => Err(invalid("not a PEM or DER RSA key")),
    }
}

fn parse_pkcs8(der: &[u8]) -> Result<RsaPrivateKey> {
    let info = PrivateKeyInfo::from_der(der)
        .map_err(|err| invalid(format!("malformed PKCS#8 private key: {err}")))?;
    check_rsa_algorithm(&info.algorithm, "PKCS#8 key")?;
    let key = pkcs1::RsaPrivateKey::from_der(info.private_key)
        .map_err(|err| invalid(format!("malformed RSA key inside PKCS#8: {err}")))?;
    from_pkcs1_private(&key)
}

fn parse_spki(der: &[u8]) -> Result<RsaPublicKey> {
    let spki = SubjectPublicKeyInfoRef::from_der(der)
        .map_err(|err| invalid(format!("malformed SubjectPublicKeyInfo: {err}")))?;
    check_rsa_algorithm(&spki.algorithm, "public key")?;
    let bytes = spki
        .subject_public_key
        .as_bytes()
        .ok_or_else(|| invalid("SubjectPublicKeyInfo key bit string is not whole bytes"))?;
    let key = pkcs1::RsaPublicKey::from_der(bytes).map_err(|err| {
        invalid(format!(
            "malformed RSA key inside SubjectPublicKeyInfo: {err}"
        ))
    })?;
    from_pkcs1_public(&key)
}

fn from_pkcs1_public(key: &pkcs1::RsaPublicKey<'_>) -> Result<RsaPublicKey> {
    RsaPublicKey::new(
        from_be_bytes(key.modulus.as_bytes()),
        from_be_bytes(key.public_exponent.as_bytes()),
    )
}

/// A two-prime PKCS#1 key; its dP, dQ and qInv must be the values d, p and q imply.
fn from_pkcs1_private(der: &pkcs1::RsaPrivateKey<'_>) -> Result<RsaPrivateKey> {
    if der.other_prime_infos.is_some() {
        return Err(invalid(
            "multi-prime keys are not supported (PKCS#1 version must be two-prime)",
        ));
    }
    let public = from_pkcs1_public(&der.public_key())?;
    // from_components wraps d, p and q as secrets at once and derives dP, dQ and qInv.
    let int = |x: UintRef<'_>| from_be_bytes(x.as_bytes());
    let (d, p, q) = (int(der.private_exponent), int(der.prime1), int(der.prime2));
    let key = RsaPrivateKey::from_components(public, d, p, q)?;
    let file_crt = [der.exponent1, der.exponent2, der.coefficient];
    let derived = [key.dp(), key.dq(), key.qinv()];
    let crt_ok = file_crt
        .iter()
        .zip(derived)
        .all(|(x, want)| *SecretInteger::new(int(*x)) == *want);
    if !crt_ok {
        return Err(invalid(
            "the key's CRT values (dP, dQ, qInv) do not match d, p and q",
        ));
    }
    Ok(key)
}

/// Accepts `rsaEncryption` with NULL or absent parameters; names the algorithm otherwise.
fn check_rsa_algorithm(alg: &AlgorithmIdentifierRef<'_>, what: &str) -> Result<()> {
    if alg.oid != RSA_ENCRYPTION_OID {
        let name = match alg.oid.to_string().as_str() {
            "1.2.840.10045.2.1" => ", id-ecPublicKey",
            "1.2.840.113549.1.1.10" => ", RSASSA-PSS: only rsaEncryption keys are supported",
            "1.2.840.10040.4.1" => ", DSA",
            "1.2.840.113549.1.3.1" => ", DH",
            "1.3.101.110" => ", X25519",
            "1.3.101.111" => ", X448",
            "1.3.101.112" => ", Ed25519",
            "1.3.101.113" => ", Ed448",
            _ => "",
        };
        return Err(invalid(format!(
            "{what} is not RSA (algorithm OID {}{name})",
            alg.oid
        )));
    }
    match alg.parameters {
        None => Ok(()),
        Some(params) if params.is_null() => Ok(()),
        Some(_) => Err(invalid(format!(
            "{what}: rsaEncryption parameters must be NULL"
        ))),
    }
}

/// Whether `der` is an `EncryptedPrivateKeyInfo` (a PKCS#5 or PKCS#12 PBE algorithm and an
/// OCTET STRING), so that the error can say so instead of "not a key".
fn is_encrypted_pkcs8(der: &[u8]) -> bool {
    let Ok(mut reader) = SliceReader::new(der) else {
        return false;
    };
    let oid = reader.sequence(|r| {
        let alg = AlgorithmIdentifierRef::decode(r)?;
        OctetStringRef::decode(r)?;
        Ok(alg.oid)
    });
    match oid.and_then(|oid| reader.finish(oid)) {
        Ok(oid) => {
            let oid = oid.to_string();
            oid.starts_with("1.2.840.113549.1.5.") || oid.starts_with("1.2.840.113549.1.12.1.")
        }
        Err(_) => false,
    }
}

fn encrypted_pkcs8() -> Error {
    invalid(
        "encrypted PKCS#8 keys are not supported; decrypt with `openssl pkey -in KEY -out PLAIN`",
    )
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidKey(msg.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// A P-256 key made once with `openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256`.
    const EC_PKCS8: &str = "-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgS082TlK8B1gFWWz3
O9xQccpqHOxRa1K0BvvhYJ83jC2hRANCAAQudH6VHBQ0X3clrDfItOPMTQ4mk6xL
xHE5OHDgiBXgDdOFh7BP7zHhC3OaZwJ+QqRzpsVKqddMRSorjMwmq25T
-----END PRIVATE KEY-----
";
    /// Its public half (`openssl pkey -pubout`).
    const EC_SPKI: &str = "-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAELnR+lRwUNF93Jaw3yLTjzE0OJpOs
S8RxOThw4IgV4A3ThYewT+8x4QtzmmcCfkKkc6bFSqnXTEUqK4zMJqtuUw==
-----END PUBLIC KEY-----
";
    /// The same key encrypted (`openssl pkcs8 -topk8 -v2 aes-128-cbc -passout pass:x`).
    const ENCRYPTED_PKCS8: &str = "-----BEGIN ENCRYPTED PRIVATE KEY-----
MIHsMFcGCSqGSIb3DQEFDTBKMCkGCSqGSIb3DQEFDDAcBAhSUnN4cUukAgICCAAw
DAYIKoZIhvcNAgkFADAdBglghkgBZQMEAQIEEL5vk/hBpAdukmlfu+wHkf4EgZAA
FxjwjBDsWbNWeMzAYs48MW548jmp3lkkQwEdNWg0PVtDWiCgq+ySK+jUN9E97ZkB
2xepY2+qhokpwI27bfGuIhfgLFIyVljLhlLWpp0TONNwrZdSQ7HonZQD4KeIZcC2
jm+rJQWQ6/ILu/UofIrjngiBS+rwxS/xwv2XFRfOScdbiy3rViZsMDI0Fx4+xQg=
-----END ENCRYPTED PRIVATE KEY-----
";

    fn key() -> RsaPrivateKey {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(8);
        RsaPrivateKey::generate(768, &Integer::from(65537), &mut rng).unwrap()
    }

    fn same_key(a: &RsaPrivateKey, b: &RsaPrivateKey) {
        assert_eq!(a.public(), b.public());
        assert_eq!((a.d(), a.p(), a.q()), (b.d(), b.p(), b.q()));
    }

    fn err_of(bytes: &[u8]) -> String {
        match parse_key(bytes) {
            Ok(_) => panic!("parsed: {}", String::from_utf8_lossy(bytes)),
            Err(Error::InvalidKey(msg)) => msg,
            Err(other) => panic!("wrong error kind: {other}"),
        }
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
    fn pem_may_have_surrounding_text_and_crlf() {
        let key = key();
        let pem = private_key_to_pem(&key, KeyFormat::Pkcs8).unwrap();
        let wrapped = format!(
            "Bag Attributes\n{}\n\ntrailing words\n",
            pem.replace('\n', "\r\n")
        );
        same_key(&load_private_key(wrapped.as_bytes()).unwrap(), &key);
    }

    #[test]
    fn public_key_is_not_a_private_key() {
        let pem = public_key_to_pem(key().public(), KeyFormat::Pkcs8).unwrap();
        let err = load_private_key(pem.as_bytes()).unwrap_err().to_string();
        assert!(
            err.contains("expected an RSA private key, found a public key"),
            "{err}"
        );
    }

    #[test]
    fn malformed_pem_and_wrong_labels_are_refused() {
        let pem = private_key_to_pem(&key(), KeyFormat::Pkcs8).unwrap();
        let bad_base64 = pem.replacen("MII", "M*I", 1);
        assert!(err_of(bad_base64.as_bytes()).starts_with("malformed PEM"));
        let no_end = &pem[..pem.find("-----END").unwrap()];
        assert!(err_of(no_end.as_bytes()).starts_with("malformed PEM"));
        let cert = pem.replace("PRIVATE KEY", "CERTIFICATE");
        let err = err_of(cert.as_bytes());
        assert!(
            err.contains("PEM label \"CERTIFICATE\" is not an RSA key"),
            "{err}"
        );
        let mislabelled = private_key_to_pem(&key(), KeyFormat::Pkcs1)
            .unwrap()
            .replace("RSA PRIVATE KEY", "PRIVATE KEY");
        assert!(err_of(mislabelled.as_bytes()).starts_with("malformed PKCS#8 private key"));
        let legacy = pem.replacen("\n", "\nProc-Type: 4,ENCRYPTED\n", 1);
        assert!(err_of(legacy.as_bytes()).contains("encrypted PEM keys"));
    }

    #[test]
    fn truncated_and_garbage_der_are_refused() {
        let der = private_key_to_der(&key(), KeyFormat::Pkcs8).unwrap();
        for len in [0, 1, 2, 10, der.len() / 2, der.len() - 1] {
            let err = err_of(&der[..len]);
            assert!(err.starts_with("not a PEM or DER RSA key"), "{len}: {err}");
        }
        assert!(err_of(&der[..der.len() - 1]).contains("truncated DER"));
        assert_eq!(err_of(b"hello, world"), "not a PEM or DER RSA key");
    }

    #[test]
    fn other_algorithms_and_encrypted_keys_are_named() {
        let err = err_of(EC_PKCS8.as_bytes());
        assert_eq!(
            err,
            "PKCS#8 key is not RSA (algorithm OID 1.2.840.10045.2.1, id-ecPublicKey)"
        );
        let err = err_of(EC_SPKI.as_bytes());
        assert!(
            err.starts_with("public key is not RSA (algorithm OID 1.2.840.10045.2.1"),
            "{err}"
        );
        let err = err_of(ENCRYPTED_PKCS8.as_bytes());
        assert!(
            err.starts_with("encrypted PKCS#8 keys are not supported"),
            "{err}"
        );
        let (_, der) = der::pem::decode_vec(ENCRYPTED_PKCS8.as_bytes()).unwrap();
        assert!(err_of(&der).starts_with("encrypted PKCS#8 keys are not supported"));
        let (_, der) = der::pem::decode_vec(EC_PKCS8.as_bytes()).unwrap();
        assert!(err_of(&der).starts_with("PKCS#8 key is not RSA"));
    }

    #[test]
    fn multi_prime_and_inconsistent_keys_are_refused() {
        let key = key();
        let der = private_key_to_der(&key, KeyFormat::Pkcs1).unwrap();
        let parsed = pkcs1::RsaPrivateKey::from_der(&der).unwrap();
        // A third prime (values need not be valid: the version is refused first).
        let r = [0x0b_u8];
        let info = pkcs1::OtherPrimeInfo {
            prime: UintRef::new(&r).unwrap(),
            exponent: UintRef::new(&r).unwrap(),
            coefficient: UintRef::new(&r).unwrap(),
        };
        let multi = pkcs1::RsaPrivateKey {
            other_prime_infos: Some(vec![info]),
            ..parsed.clone()
        };
        let multi = der::Encode::to_der(&multi).unwrap();
        assert!(err_of(&multi).starts_with("multi-prime keys are not supported"));
        // A wrong CRT coefficient.
        let two = [2u8];
        let bad = pkcs1::RsaPrivateKey {
            coefficient: UintRef::new(&two).unwrap(),
            ..parsed
        };
        let bad = der::Encode::to_der(&bad).unwrap();
        assert!(err_of(&bad).contains("CRT values"), "{}", err_of(&bad));
    }
}
