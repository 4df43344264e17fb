//! RSA key files as OpenSSL reads them: PKCS#8, PKCS#1 (two-prime and multi-prime) and SPKI,
//! in PEM ([`crate::hazmat::armor`]) or DER; writing them is [`crate::hazmat::encode`], re-exported here.
//!
//! All ASN.1 goes through RustCrypto's `pkcs1`, `pkcs8` and `spki` crates; this file maps their
//! structures to parcrypt's keys and their failures to one-line [`Error::InvalidKey`] messages.
//! Decoded secrets are kept in [`zeroize::Zeroizing`] buffers and wiped when dropped.
pub use super::encode::{
    private_key_to_der, private_key_to_pem, public_key_to_der, public_key_to_pem,
};
use super::keys::{RsaPrivateKey, RsaPublicKey};
use crate::bignum::from_be_bytes;
use crate::error::{Error, Result};
use pkcs8::der::asn1::{AnyRef, ObjectIdentifier, OctetStringRef};
use pkcs8::der::{Decode, ErrorKind, Reader, SliceReader};
use pkcs8::{AlgorithmIdentifierRef, PrivateKeyInfo, SubjectPublicKeyInfoRef};

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
// Import

/// Reads a private or public RSA key from PEM (by label: PRIVATE KEY, RSA PRIVATE KEY,
/// PUBLIC KEY, RSA PUBLIC KEY, read as OpenSSL reads them: see [`crate::hazmat::armor`]) or DER
/// (PKCS#8, PKCS#1 private, SPKI, PKCS#1 public, in that order). Text around the PEM block is
/// ignored; in a file with several blocks, the first RSA key block is read.
pub fn parse_key(bytes: &[u8]) -> Result<KeyFile> {
    // DER first when the file is exactly one DER SEQUENCE: its tag and length are structure,
    // public, so a DER key's secret bytes are never scanned for PEM lines (that scan branches
    // on every byte). Anything else, text before a PEM block included, goes to the PEM reader.
    if is_one_der_sequence(bytes) {
        return parse_der(bytes);
    }
    match super::armor::decode(bytes, |label| KEY_LABELS.contains(&label)) {
        Some(block) => parse_pem(block.map_err(|msg| invalid(format!("malformed PEM: {msg}")))?),
        None => parse_der(bytes),
    }
}

/// Whether `bytes` is one DER SEQUENCE (tag 0x30, a definite length in short or long form)
/// whose length is exactly the rest of the file. Reads the header bytes only.
fn is_one_der_sequence(bytes: &[u8]) -> bool {
    let (Some(&0x30), Some(&first)) = (bytes.first(), bytes.get(1)) else {
        return false;
    };
    let (header, len) = if first < 0x80 {
        (2, usize::from(first))
    } else {
        let count = usize::from(first & 0x7f);
        if !(1..=4).contains(&count) || bytes.len() < 2 + count {
            return false;
        }
        let len = bytes[2..2 + count]
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (2 + count, len)
    };
    bytes.len().checked_sub(header) == Some(len)
}

/// Reads a private key (PKCS#8 or PKCS#1, PEM or DER).
pub fn load_private_key(bytes: &[u8]) -> Result<RsaPrivateKey> {
    parse_key(bytes)?.into_private()
}

/// Reads a public key (SPKI or PKCS#1, PEM or DER); a private key file yields its public half.
pub fn load_public_key(bytes: &[u8]) -> Result<RsaPublicKey> {
    Ok(parse_key(bytes)?.into_public())
}

impl RsaPrivateKey {
    /// Reads a private key file as OpenSSL writes it (PKCS#8 or PKCS#1, PEM or DER), checking
    /// it in constant time: [`load_private_key`].
    pub fn from_key_file(bytes: &[u8]) -> Result<Self> {
        load_private_key(bytes)
    }

    /// The key as PKCS#8 PEM ("PRIVATE KEY", what `openssl genpkey` writes), wiped on drop.
    pub fn to_pem(&self) -> Result<zeroize::Zeroizing<String>> {
        private_key_to_pem(self, KeyFormat::Pkcs8)
    }
}

impl RsaPublicKey {
    /// Reads a public key file (SPKI or PKCS#1, PEM or DER); a private key file gives its
    /// public half: [`load_public_key`].
    pub fn from_key_file(bytes: &[u8]) -> Result<Self> {
        load_public_key(bytes)
    }

    /// The key as SPKI PEM ("PUBLIC KEY", what `openssl pkey -pubout` writes).
    pub fn to_pem(&self) -> Result<String> {
        public_key_to_pem(self, KeyFormat::Pkcs8)
    }
}

/// The PEM labels [`parse_key`] looks for (the encrypted one only to name it in the error).
const KEY_LABELS: [&str; 5] = [
    LABEL_PKCS8,
    LABEL_PKCS1_PRIVATE,
    LABEL_SPKI,
    LABEL_PKCS1_PUBLIC,
    LABEL_ENCRYPTED,
];

/// A PEM key by its label. Like OpenSSL, a private (public) label whose body is the other
/// private (public) structure is read as that structure; the error names the labelled one.
fn parse_pem(block: super::armor::PemBlock) -> Result<KeyFile> {
    let label = block.label.as_str();
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
    if block.encrypted {
        return Err(invalid(
            "encrypted PEM keys (Proc-Type: 4,ENCRYPTED) are not supported; decrypt with \
             `openssl pkey -in KEY -out PLAIN`",
        ));
    }
    let der = &block.der;
    let private = matches!(label, LABEL_PKCS8 | LABEL_PKCS1_PRIVATE);
    let (pkcs8_ok, pkcs1_ok) = if private {
        let pkcs1 = pkcs1::RsaPrivateKey::from_der(der).is_ok();
        (PrivateKeyInfo::from_der(der).is_ok(), pkcs1)
    } else {
        let pkcs1 = pkcs1::RsaPublicKey::from_der(der).is_ok();
        (SubjectPublicKeyInfoRef::from_der(der).is_ok(), pkcs1)
    };
    // The body's structure wins over the label; a body that is neither structure gets the
    // labelled structure's error.
    let outer = pkcs8_ok || (!pkcs1_ok && matches!(label, LABEL_PKCS8 | LABEL_SPKI));
    match (private, outer) {
        (true, true) => parse_pkcs8(der).map(KeyFile::Private),
        (true, false) => {
            let key = pkcs1::RsaPrivateKey::from_der(der)
                .map_err(|err| invalid(format!("malformed PKCS#1 private key: {err}")))?;
            from_pkcs1_private(&key).map(KeyFile::Private)
        }
        (false, true) => parse_spki(der).map(KeyFile::Public),
        (false, false) => {
            let key = pkcs1::RsaPublicKey::from_der(der)
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

/// A PKCS#1 private key, two-prime or multi-prime (`otherPrimeInfos`, up to five primes in
/// all): every value the file holds (d, the primes, dP, dQ, qInv, and each d_i and t_i) is
/// checked in constant time against n and e, not recomputed
/// ([`RsaPrivateKey::from_file_values`]). The secret values go from the DER bytes to
/// fixed-width limbs without passing through GMP.
fn from_pkcs1_private(der: &pkcs1::RsaPrivateKey<'_>) -> Result<RsaPrivateKey> {
    let others = der.other_prime_infos.as_deref().unwrap_or_default();
    if der.other_prime_infos.is_some() && others.is_empty() {
        return Err(invalid(
            "multi-prime key (PKCS#1 version 1) without otherPrimeInfos",
        ));
    }
    if others.len() > 3 {
        return Err(invalid(format!(
            "multi-prime key with {} primes; at most 5 are supported (OpenSSL's limit)",
            2 + others.len()
        )));
    }
    let public = from_pkcs1_public(&der.public_key())?;
    let mut primes = vec![der.prime1.as_bytes(), der.prime2.as_bytes()];
    let mut exponents = vec![der.exponent1.as_bytes(), der.exponent2.as_bytes()];
    let mut coefficients = vec![der.coefficient.as_bytes()];
    for info in others {
        primes.push(info.prime.as_bytes());
        exponents.push(info.exponent.as_bytes());
        coefficients.push(info.coefficient.as_bytes());
    }
    RsaPrivateKey::from_file_values(
        public,
        der.private_exponent.as_bytes(),
        &primes,
        &exponents,
        &coefficients,
    )
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

pub(super) fn invalid(msg: impl Into<String>) -> Error {
    Error::InvalidKey(msg.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkcs8::der;
    use rand::SeedableRng;
    use rug::Integer;

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
        RsaPrivateKey::generate_vartime(768, &Integer::from(65537), &mut rng).unwrap()
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
    fn pem_may_have_surrounding_text_and_crlf() {
        let key = key();
        let pem = private_key_to_pem(&key, KeyFormat::Pkcs8).unwrap();
        let wrapped = format!(
            "Bag Attributes\n{}\n\ntrailing words\n",
            pem.replace('\n', "\r\n")
        );
        same_key(&load_private_key(wrapped.as_bytes()).unwrap(), &key);
    }

    /// The key's PEM with its Base64 re-wrapped at `width` characters, lines ended by `eol`
    /// and followed by `trail`.
    fn rewrap(pem: &str, width: usize, eol: &str, trail: &str) -> String {
        let lines: Vec<&str> = pem.lines().collect();
        let b64 = lines[1..lines.len() - 1].concat();
        let mut out = format!("{}{trail}{eol}", lines[0]);
        for chunk in b64.as_bytes().chunks(width) {
            out += &format!("{}{trail}{eol}", std::str::from_utf8(chunk).unwrap());
        }
        out + &format!("{}{trail}{eol}", lines[lines.len() - 1])
    }

    #[test]
    fn keys_rewrapped_at_any_width_are_read() {
        let key = key();
        for format in [KeyFormat::Pkcs8, KeyFormat::Pkcs1] {
            let pem = private_key_to_pem(&key, format).unwrap();
            let public = public_key_to_pem(key.public(), format).unwrap();
            for (width, eol, trail) in [
                (76, "\n", ""),
                (65, "\r\n", ""),
                (48, "\n", "  \t"),
                (100_000, "\n", ""),
                (64, "\r\n", " "),
            ] {
                let text = rewrap(&pem, width, eol, trail);
                same_key(&load_private_key(text.as_bytes()).unwrap(), &key);
                let text = rewrap(&public, width, eol, trail);
                assert_eq!(load_public_key(text.as_bytes()).unwrap(), *key.public());
            }
        }
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
        // As OpenSSL does, a PKCS#1 body under the PKCS#8 label (and the other way round) is
        // read; a body that is neither keeps the labelled structure's error.
        let key = key();
        for (format, from, to) in [
            (KeyFormat::Pkcs1, "RSA PRIVATE KEY", "PRIVATE KEY"),
            (KeyFormat::Pkcs8, "PRIVATE KEY", "RSA PRIVATE KEY"),
        ] {
            let swapped = private_key_to_pem(&key, format).unwrap().replace(from, to);
            same_key(&load_private_key(swapped.as_bytes()).unwrap(), &key);
        }
        let spki = public_key_to_pem(key.public(), KeyFormat::Pkcs8).unwrap();
        let swapped = spki.replace("PUBLIC KEY", "RSA PUBLIC KEY");
        assert_eq!(load_public_key(swapped.as_bytes()).unwrap(), *key.public());
        let not_a_key = "-----BEGIN PRIVATE KEY-----\nMAMCAQA=\n-----END PRIVATE KEY-----\n";
        assert!(err_of(not_a_key.as_bytes()).starts_with("malformed PKCS#8 private key"));
        let legacy = pem.replacen(
            "\n",
            "\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00\n\n",
            1,
        );
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
}
