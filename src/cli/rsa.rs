//! `parcrypt rsa keygen|encrypt|decrypt`: keys in PEM that OpenSSL reads, files encrypted with
//! RSA-OAEP (SHA-256) or, for study only, textbook RSA.
use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use parcrypt::bignum::{from_be_bytes, to_be_bytes};
use parcrypt::io::{read_file, write_atomic};
use parcrypt::rsa::pem::{self, KeyFormat};
use parcrypt::rsa::textbook::{self, PrivateOp};
use parcrypt::rsa::{RsaPrivateKey, oaep};
use rand::SeedableRng;
use rug::Integer;
use std::path::{Path, PathBuf};

/// The RSA subcommands.
#[derive(Subcommand, Debug)]
pub enum RsaCommand {
    /// Generate a key pair: the private key at --out (mode 0600) and the public key beside it
    /// (k.pem -> k.pub.pem).
    Keygen(KeygenArgs),
    /// Encrypt a file with a public (or private) key file.
    Encrypt(CryptArgs),
    /// Decrypt a file with a private key file.
    Decrypt(CryptArgs),
}

/// Arguments of `rsa keygen`.
#[derive(Args, Debug)]
pub struct KeygenArgs {
    /// Modulus size in bits (even, 512..=16384).
    #[arg(long, default_value_t = 2048)]
    bits: u32,
    /// Public exponent (odd, >= 3).
    #[arg(long, default_value = "65537")]
    e: String,
    /// Where to write the private key.
    #[arg(long)]
    out: PathBuf,
    /// Key file format.
    #[arg(long, value_enum, default_value_t = FormatArg::Pkcs8)]
    format: FormatArg,
    /// Encoding of both key files.
    #[arg(long, value_enum, default_value_t = EncodingArg::Pem)]
    encoding: EncodingArg,
    /// Derive the key from this seed instead of the OS's random generator. Study only: anyone
    /// with the seed has the key.
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum FormatArg {
    /// PKCS#8 "PRIVATE KEY" and SPKI "PUBLIC KEY" (OpenSSL's default).
    Pkcs8,
    /// PKCS#1 "RSA PRIVATE KEY" and "RSA PUBLIC KEY".
    Pkcs1,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EncodingArg {
    /// Base64 text with BEGIN/END lines.
    Pem,
    /// Binary ASN.1 DER.
    Der,
}

/// Padding of `rsa encrypt|decrypt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Padding {
    /// RSAES-OAEP with SHA-256 and MGF1-SHA-256 (RFC 8017): for real use.
    Oaep,
    /// Textbook RSA, no padding: study only (deterministic and malleable). The input is read
    /// as a big-endian number below n; the output is exactly k = modulus-size bytes.
    None,
}

/// Arguments of `rsa encrypt` and `rsa decrypt`.
#[derive(Args, Debug)]
pub struct CryptArgs {
    /// Key file (PEM or DER; PKCS#8, PKCS#1 or SPKI).
    #[arg(long)]
    key: PathBuf,
    /// Input file.
    #[arg(long = "in")]
    input: PathBuf,
    /// Output file (written atomically; never the input).
    #[arg(long)]
    out: PathBuf,
    /// Padding scheme.
    #[arg(long, value_enum, default_value_t = Padding::Oaep)]
    padding: Padding,
}

/// Runs an RSA subcommand.
pub fn run(cmd: RsaCommand) -> Result<()> {
    match cmd {
        RsaCommand::Keygen(args) => keygen(args),
        RsaCommand::Encrypt(args) => encrypt(args),
        RsaCommand::Decrypt(args) => decrypt(args),
    }
}

fn keygen(args: KeygenArgs) -> Result<()> {
    let e: Integer = args.e.parse().map_err(|_| {
        super::usage(format!(
            "public exponent must be a decimal integer, got '{}'",
            args.e
        ))
    })?;
    let key = match args.seed {
        Some(seed) => {
            eprintln!(
                "warning: --seed makes the key reproducible by anyone with the seed; study only"
            );
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            RsaPrivateKey::generate(args.bits, &e, &mut rng)
        }
        None => RsaPrivateKey::generate(args.bits, &e, &mut rand::rngs::OsRng),
    }
    .map_err(|err| match err {
        parcrypt::Error::InvalidParameter(m) | parcrypt::Error::KeyGeneration(m) => super::usage(m),
        other => other.into(),
    })?;
    let format = match args.format {
        FormatArg::Pkcs8 => KeyFormat::Pkcs8,
        FormatArg::Pkcs1 => KeyFormat::Pkcs1,
    };
    let (private_bytes, public_bytes): (zeroize::Zeroizing<Vec<u8>>, Vec<u8>) = match args.encoding
    {
        EncodingArg::Pem => (
            zeroize::Zeroizing::new(pem::private_key_to_pem(&key, format)?.as_bytes().to_vec()),
            pem::public_key_to_pem(key.public(), format)?.into_bytes(),
        ),
        EncodingArg::Der => (
            pem::private_key_to_der(&key, format)?,
            pem::public_key_to_der(key.public(), format)?,
        ),
    };
    let pub_path = public_key_path(&args.out);
    write_atomic(&args.out, &private_bytes, Some(0o600))?;
    if let Err(err) = write_atomic(&pub_path, &public_bytes, Some(0o644)) {
        // Leave no half of a key pair behind.
        let _ = std::fs::remove_file(&args.out);
        return Err(err.into());
    }
    eprintln!(
        "wrote {}-bit private key to {} and public key to {}",
        key.public().bits(),
        args.out.display(),
        pub_path.display()
    );
    Ok(())
}

/// `k.pem` -> `k.pub.pem`; `k` -> `k.pub`.
pub fn public_key_path(private: &Path) -> PathBuf {
    match (private.file_stem(), private.extension()) {
        (Some(stem), Some(ext)) => {
            let mut name = stem.to_os_string();
            name.push(".pub.");
            name.push(ext);
            private.with_file_name(name)
        }
        _ => {
            let mut name = private.as_os_str().to_os_string();
            name.push(".pub");
            PathBuf::from(name)
        }
    }
}

fn check_distinct(args: &CryptArgs) -> Result<()> {
    let same = match (
        std::fs::canonicalize(&args.input),
        std::fs::canonicalize(&args.out),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => args.input == args.out,
    };
    if same {
        return Err(super::usage(
            "--out must differ from --in (parcrypt never overwrites its input)",
        ));
    }
    Ok(())
}

/// Printed once the operation succeeded, so that an error stays a single line on stderr.
fn warn_textbook(padding: Padding) {
    if padding == Padding::None {
        eprintln!("warning: textbook RSA (no padding) is deterministic and malleable; study only");
    }
}

fn encrypt(args: CryptArgs) -> Result<()> {
    check_distinct(&args)?;
    let key_bytes = read_file(&args.key)?;
    let key =
        pem::load_public_key(&key_bytes).with_context(|| format!("{}", args.key.display()))?;
    let data = read_file(&args.input)?;
    let out = match args.padding {
        Padding::Oaep => oaep::encrypt(&key, &data, b"", &mut rand::rngs::OsRng)?,
        Padding::None => {
            if data.len() > key.size_bytes() {
                return Err(parcrypt::Error::MessageTooLong(format!(
                    "textbook RSA input is {} bytes, the {}-bit modulus allows at most {}",
                    data.len(),
                    key.bits(),
                    key.size_bytes()
                ))
                .into());
            }
            let c = textbook::encrypt(&key, &from_be_bytes(&data))?;
            to_be_bytes(&c, key.size_bytes()).expect("c < n fits in k bytes")
        }
    };
    warn_textbook(args.padding);
    write_atomic(&args.out, &out, None)?;
    Ok(())
}

fn decrypt(args: CryptArgs) -> Result<()> {
    check_distinct(&args)?;
    let key_bytes = read_file(&args.key)?;
    let key =
        pem::load_private_key(&key_bytes).with_context(|| format!("{}", args.key.display()))?;
    let data = read_file(&args.input)?;
    let k = key.public().size_bytes();
    let out = match args.padding {
        Padding::Oaep => oaep::decrypt(&key, &data, b"")?,
        Padding::None => {
            if data.len() != k {
                return Err(parcrypt::Error::InvalidCiphertext(format!(
                    "ciphertext is {} bytes, expected exactly {k} for a {}-bit key",
                    data.len(),
                    key.public().bits()
                ))
                .into());
            }
            let m = textbook::decrypt_blinded(
                &key,
                &from_be_bytes(&data),
                PrivateOp::CrtConstTime,
                &mut rand::rngs::OsRng,
            )?;
            zeroize::Zeroizing::new(to_be_bytes(&m, k).expect("m < n fits in k bytes"))
        }
    };
    warn_textbook(args.padding);
    write_atomic(&args.out, &out, Some(0o600))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_key_path_sits_beside_the_private_key() {
        assert_eq!(
            public_key_path(Path::new("k.pem")),
            PathBuf::from("k.pub.pem")
        );
        assert_eq!(
            public_key_path(Path::new("/a/b/key.der")),
            PathBuf::from("/a/b/key.pub.der")
        );
        assert_eq!(public_key_path(Path::new("key")), PathBuf::from("key.pub"));
    }
}
