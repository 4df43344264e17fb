//! `parcrypt rsa keygen|encrypt|decrypt`: keys in PEM or DER that OpenSSL reads (two to five
//! primes), files encrypted with RSA-OAEP (SHA-256 by default, any SHA-1/SHA-2 hash and a
//! label as options) or, for study only, textbook RSA.
use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use parcrypt::hazmat::bignum::{from_be_bytes, to_be_bytes_vartime};
use parcrypt::hazmat::kernel::PrivateKernel;
use parcrypt::hazmat::textbook;
use parcrypt::io::{MAX_KEY_FILE_BYTES, read_file_at_most, write_atomic, write_files_together};
use parcrypt::rsa::oaep::{OaepHash, OaepParams};
use parcrypt::rsa::pem::{self, KeyFormat};
use parcrypt::rsa::{RsaPrivateKey, oaep};
use rand::SeedableRng;
use rug::Integer;
use std::path::{Path, PathBuf};

/// The RSA subcommands.
#[derive(Subcommand, Debug)]
pub enum RsaCommand {
    /// Generate a key pair: the private key at --out (mode 0600) and the public key beside it
    /// (k.pem -> k.pub.pem, mode 0644). Existing files are kept unless --force (even against
    /// another keygen at the same moment); --force replaces both files together.
    Keygen(KeygenArgs),
    /// Encrypt a file with a public (or private) key file: RSA-OAEP, SHA-256 by default.
    Encrypt(CryptArgs),
    /// Decrypt a file with a private key file (two to five primes; CRT over every prime).
    Decrypt(DecryptArgs),
}

/// Arguments of `rsa keygen`.
#[derive(Args, Debug)]
pub struct KeygenArgs {
    /// Modulus size in bits (512..=16384; even for two primes).
    #[arg(long, default_value_t = 2048)]
    bits: u32,
    /// Number of primes (PKCS#1 v2 multi-prime beyond 2). At most OpenSSL's limit for the
    /// size: 2 below 1024 bits, 3 below 4096, 4 below 8192, 5 from 8192.
    #[arg(long, default_value_t = 2)]
    primes: usize,
    /// Public exponent (odd, >= 3).
    #[arg(long, default_value = "65537")]
    e: String,
    /// Where to write the private key.
    #[arg(long)]
    out: PathBuf,
    /// Key file format (`--format` is its old name: elsewhere `--format` only chooses what
    /// the terminal shows).
    #[arg(long = "key-format", alias = "format", value_enum, default_value_t = FormatArg::Pkcs8)]
    format: FormatArg,
    /// Encoding of both key files.
    #[arg(long, value_enum, default_value_t = EncodingArg::Pem)]
    encoding: EncodingArg,
    /// Derive the key from this seed instead of the OS's random generator. Study only: anyone
    /// with the seed has the key.
    #[arg(long)]
    seed: Option<u64>,
    /// Replace the key files if they exist (otherwise keygen refuses to overwrite them): both
    /// are written first and replaced together, and if the second cannot be, the first gets
    /// its old contents back.
    #[arg(long)]
    force: bool,
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
    /// RSAES-OAEP (RFC 8017), SHA-256 and MGF1-SHA-256 unless --oaep-hash/--mgf1-hash: for
    /// real use.
    Oaep,
    /// Textbook RSA, no padding: study only (deterministic and malleable). The input is read
    /// as a big-endian number below n; the output is exactly k = modulus-size bytes.
    None,
}

/// A hash for OAEP (OpenSSL's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum HashArg {
    /// SHA-1: OpenSSL's OAEP default (`pkeyutl -pkeyopt rsa_padding_mode:oaep` alone).
    Sha1,
    /// SHA-224.
    Sha224,
    /// SHA-256: parcrypt's default.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
    /// SHA-512/224.
    #[value(name = "sha512-224")]
    Sha512_224,
    /// SHA-512/256.
    #[value(name = "sha512-256")]
    Sha512_256,
}

impl From<HashArg> for OaepHash {
    fn from(h: HashArg) -> Self {
        match h {
            HashArg::Sha1 => OaepHash::Sha1,
            HashArg::Sha224 => OaepHash::Sha224,
            HashArg::Sha256 => OaepHash::Sha256,
            HashArg::Sha384 => OaepHash::Sha384,
            HashArg::Sha512 => OaepHash::Sha512,
            HashArg::Sha512_224 => OaepHash::Sha512_224,
            HashArg::Sha512_256 => OaepHash::Sha512_256,
        }
    }
}

/// Arguments of `rsa encrypt` (and, with --parallel, of `rsa decrypt`).
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
    /// OAEP label, in hex (OpenSSL's `-pkeyopt rsa_oaep_label:HEX`); empty by default.
    #[arg(long, value_name = "HEX", value_parser = parse_hex, conflicts_with = "label_file")]
    label: Option<HexBytes>,
    /// OAEP label: the bytes of this file.
    #[arg(long, value_name = "FILE")]
    label_file: Option<PathBuf>,
    /// OAEP hash of the label (OpenSSL's `rsa_oaep_md`) [default: sha256].
    #[arg(long, value_enum, value_name = "HASH")]
    oaep_hash: Option<HashArg>,
    /// Hash inside MGF1 (OpenSSL's `rsa_mgf1_md`) [default: sha256].
    #[arg(long, value_enum, value_name = "HASH")]
    mgf1_hash: Option<HashArg>,
}

/// Arguments of `rsa decrypt`.
#[derive(Args, Debug)]
pub struct DecryptArgs {
    #[command(flatten)]
    crypt: CryptArgs,
    /// Compute the private-key operation on one thread per prime (the CRT residues in
    /// parallel) instead of one after the other.
    #[arg(long)]
    parallel: bool,
    /// What computes the private-key operation, in constant time from the ciphertext to the
    /// result (blinding and the check with the public key included): auto (the best
    /// Montgomery kernel this CPU runs, per prime), ifma (AVX-512 IFMA), mulx (MULX/ADX),
    /// portable, or gmp-sec (GMP's mpn_sec_* functions: constant time in the exponent, not in
    /// the prime, whose bits index GMP's limb-inverse tables).
    #[arg(long, default_value = "auto", value_parser = kernel_arg)]
    kernel: PrivateKernel,
}

/// A kernel name this machine can run (else the reason it cannot).
pub fn kernel_arg(s: &str) -> std::result::Result<PrivateKernel, String> {
    let k = PrivateKernel::from_name(s).ok_or_else(|| {
        format!("unknown kernel '{s}' (known: auto, ifma, mulx, portable, gmp-sec)")
    })?;
    match k.unavailable_reason() {
        Some(why) => Err(why),
        None => Ok(k),
    }
}

/// Bytes given in hex on the command line (a newtype: clap would read `Vec<u8>` as many
/// values).
#[derive(Clone, Debug, PartialEq, Eq)]
struct HexBytes(Vec<u8>);

/// Hex bytes (an even number of hex digits, any case; empty allowed).
fn parse_hex(s: &str) -> std::result::Result<HexBytes, String> {
    if let Some((i, c)) = s.char_indices().find(|(_, c)| !c.is_ascii_hexdigit()) {
        return Err(format!("'{c}' at position {} is not a hex digit", i + 1));
    }
    if s.len() % 2 != 0 {
        return Err(format!("odd number of hex digits ({})", s.len()));
    }
    Ok(HexBytes(
        (0..s.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("checked hex"))
            .collect(),
    ))
}

impl CryptArgs {
    /// The OAEP parameters asked for; OAEP options with `--padding none` are a usage error.
    fn oaep_params(&self) -> Result<OaepParams> {
        let given = self.label.is_some()
            || self.label_file.is_some()
            || self.oaep_hash.is_some()
            || self.mgf1_hash.is_some();
        if self.padding == Padding::None && given {
            return Err(super::usage(
                "--label, --label-file, --oaep-hash and --mgf1-hash apply to --padding oaep only",
            ));
        }
        let label = match (&self.label, &self.label_file) {
            (Some(label), _) => label.0.clone(),
            (None, Some(path)) => read_file_at_most(path, MAX_KEY_FILE_BYTES)?,
            (None, None) => Vec::new(),
        };
        let hash = |h: Option<HashArg>| h.map_or(OaepHash::Sha256, OaepHash::from);
        Ok(OaepParams::new(
            hash(self.oaep_hash),
            hash(self.mgf1_hash),
            &label,
        ))
    }
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
    // Before any work: never replace a key silently.
    let pub_path = public_key_path(&args.out);
    if args.out.is_dir() {
        return Err(super::usage(format!(
            "--out {} is a folder; give the private key's file name",
            args.out.display()
        )));
    }
    if !args.force {
        for path in [&args.out, &pub_path] {
            if path.exists() {
                return Err(super::usage(format!(
                    "{} already exists; pass --force to overwrite it",
                    path.display()
                )));
            }
        }
    }
    let generate = |rng: &mut dyn rand::RngCore| {
        RsaPrivateKey::generate_multi_vartime(args.bits, args.primes, &e, rng)
    };
    let key = match args.seed {
        Some(seed) => {
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            generate(&mut rng)
        }
        None => generate(&mut rand::rngs::OsRng),
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
    // Both files written beside their places first, then put in place together: without
    // --force only where no file exists (a no-replace link or rename, so two keygens at once
    // cannot overwrite each other); with --force replacing both, and a failure on the second
    // gives the first its old contents back.
    let files: [(&Path, &[u8], Option<u32>); 2] = [
        (&args.out, &private_bytes, Some(0o600)),
        (&pub_path, &public_bytes, Some(0o644)),
    ];
    write_files_together(&files, args.force).map_err(|err| match err {
        parcrypt::Error::Io { path, source }
            if source.kind() == std::io::ErrorKind::AlreadyExists =>
        {
            super::usage(format!(
                "{} already exists; pass --force to overwrite it",
                path.display()
            ))
        }
        other => other.into(),
    })?;
    // After the files are written, so that an error stays a single line on stderr.
    if args.seed.is_some() {
        eprintln!("warning: --seed makes the key reproducible by anyone with the seed; study only");
    }
    let primes = match key.prime_count() {
        2 => String::new(),
        n => format!(" {n}-prime"),
    };
    eprintln!(
        "wrote {}-bit{primes} private key to {} and public key to {}",
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

/// Before any work: --out is none of the files read (the key, the input, the label file),
/// whatever name or link leads to it.
fn check_distinct(args: &CryptArgs) -> Result<()> {
    let mut inputs = vec![
        ("--key", args.key.as_path()),
        ("--in", args.input.as_path()),
    ];
    if let Some(label) = &args.label_file {
        inputs.push(("--label-file", label.as_path()));
    }
    super::output::check_file_not_input("--out", &args.out, &inputs)
}

/// Printed once the operation succeeded, so that an error stays a single line on stderr.
fn warn_textbook(padding: Padding) {
    if padding == Padding::None {
        eprintln!("warning: textbook RSA (no padding) is deterministic and malleable; study only");
    }
}

fn encrypt(args: CryptArgs) -> Result<()> {
    check_distinct(&args)?;
    let params = args.oaep_params()?;
    // A private key file may be given: its bytes are wiped when dropped.
    let key_bytes = zeroize::Zeroizing::new(read_file_at_most(&args.key, MAX_KEY_FILE_BYTES)?);
    let key =
        pem::load_public_key(&key_bytes).with_context(|| format!("{}", args.key.display()))?;
    // The plaintext: wiped when dropped.
    let data = zeroize::Zeroizing::new(read_file_at_most(&args.input, MAX_KEY_FILE_BYTES)?);
    let out = match args.padding {
        Padding::Oaep => oaep::encrypt_with(&key, &data, &params, &mut rand::rngs::OsRng)?,
        Padding::None => {
            if data.len() > key.size_bytes() {
                return Err(parcrypt_lab::Error::MessageTooLong(format!(
                    "textbook RSA input is {} bytes, the {}-bit modulus allows at most {}",
                    data.len(),
                    key.bits(),
                    key.size_bytes()
                ))
                .into());
            }
            let c = textbook::encrypt(&key, &from_be_bytes(&data))?;
            to_be_bytes_vartime(&c, key.size_bytes()).expect("c < n fits in k bytes")
        }
    };
    warn_textbook(args.padding);
    write_atomic(&args.out, &out, None)?;
    Ok(())
}

fn decrypt(args: DecryptArgs) -> Result<()> {
    let DecryptArgs {
        crypt: args,
        parallel,
        kernel,
    } = args;
    check_distinct(&args)?;
    let params = args.oaep_params()?;
    // The kernel on every CRT residue; on one thread per prime if asked.
    let op = if parallel {
        oaep::CtOp::CrtConstTimeParallel
    } else {
        oaep::CtOp::CrtConstTime
    };
    // The key file's bytes (PEM or DER of the private key): wiped when dropped, at once.
    let key_bytes = zeroize::Zeroizing::new(read_file_at_most(&args.key, MAX_KEY_FILE_BYTES)?);
    let mut key =
        pem::load_private_key(&key_bytes).with_context(|| format!("{}", args.key.display()))?;
    drop(key_bytes);
    key.set_kernel(kernel)
        .with_context(|| format!("{}", args.key.display()))?;
    let data = read_file_at_most(&args.input, MAX_KEY_FILE_BYTES)?;
    let k = key.public().size_bytes();
    let out = match args.padding {
        Padding::Oaep => oaep::decrypt_with(&key, &data, &params, op)?,
        Padding::None => {
            if data.len() != k {
                return Err(parcrypt_lab::Error::InvalidCiphertext(format!(
                    "ciphertext is {} bytes, expected exactly {k} for a {}-bit key",
                    data.len(),
                    key.public().bits()
                ))
                .into());
            }
            let c = from_be_bytes(&data);
            textbook::decrypt_blinded_bytes(&key, &c, op.into(), &mut rand::rngs::OsRng)?
        }
    };
    warn_textbook(args.padding);
    // The plaintext is the command's output, public from here: the mark for Valgrind's
    // secret-flow check (scripts/secret-flow.sh, which runs this command with the key
    // secret), a few register instructions otherwise. Its value is unchanged.
    parcrypt::hazmat::bignum::ct::secret_flow::declassify(&out);
    write_atomic(&args.out, &out, Some(0o600))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_labels_are_parsed_or_refused_with_the_reason() {
        assert_eq!(parse_hex("").unwrap().0, Vec::<u8>::new());
        assert_eq!(parse_hex("00aBff").unwrap().0, vec![0x00, 0xab, 0xff]);
        assert_eq!(
            parse_hex("0g").unwrap_err(),
            "'g' at position 2 is not a hex digit"
        );
        assert_eq!(
            parse_hex("abc").unwrap_err(),
            "odd number of hex digits (3)"
        );
        assert!(parse_hex("é0").is_err());
    }

    #[test]
    fn every_hash_argument_maps_to_its_hash() {
        for arg in HashArg::value_variants() {
            let name = arg.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(
                OaepHash::from_name(&name),
                Some(OaepHash::from(*arg)),
                "{name}"
            );
        }
    }

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
