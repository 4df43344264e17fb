//! `parcrypt cipher encrypt|decrypt`: Blowfish, PBlock, the round pipeline, RC4, RC4A, PARC4
//! and PARC4-I over files, streamed in bounded memory and written atomically.
//!
//! Every mistake in the arguments (bad hex, a key, IV or nonce of the wrong length, a missing
//! nonce, 0 threads, chunk 0, an option that does not apply) is a usage error: one line, exit
//! 2, no output file. Bad data (not whole blocks, bad padding) and I/O errors exit 1. After a
//! success, one line on stderr says that these ciphers are broken or outdated.
use super::{parse_positive, usage};
use anyhow::Result;
use clap::{Args, Subcommand};
use parcrypt::cipher::alg::CipherSpec;
use parcrypt::cipher::{Algorithm, Direction, Padding, STUDY_WARNING, file};
use std::path::PathBuf;
use zeroize::{Zeroize, Zeroizing};

/// The cipher subcommands.
#[derive(Subcommand, Debug)]
pub enum CipherCommand {
    /// Encrypt a file.
    Encrypt(CipherArgs),
    /// Decrypt a file.
    Decrypt(CipherArgs),
}

fn algorithm(s: &str) -> Result<Algorithm, String> {
    s.parse::<Algorithm>().map_err(|e| {
        e.to_string()
            .trim_start_matches("invalid parameter: ")
            .to_string()
    })
}

fn threads(s: &str) -> Result<usize, String> {
    parse_positive(s, "thread count")
}

fn chunk(s: &str) -> Result<usize, String> {
    super::size::parse_size(s).map_err(|e| format!("chunk {e}"))
}

/// Arguments of `cipher encrypt` and `cipher decrypt`.
#[derive(Args, Debug)]
pub struct CipherArgs {
    /// blowfish-ecb, blowfish-cbc, blowfish-ctr, pblock-ecb, pblock-ctr, bf-pipeline, rc4,
    /// rc4a, parc4 or parc4i.
    #[arg(long, value_parser = algorithm)]
    alg: Algorithm,
    /// Key in hex: Blowfish family 4-56 bytes; RC4 family 1-256 bytes. Visible to other
    /// users of this machine in the process list: study use only.
    #[arg(long)]
    key: String,
    /// IV in hex, 8 bytes: CBC IV, or CTR initial counter (big-endian, +1 per block).
    #[arg(long)]
    iv: Option<String>,
    /// Nonce in hex, 16 bytes (parc4, parc4i): never reuse one under the same key.
    #[arg(long)]
    nonce: Option<String>,
    /// No PKCS#7 padding (ECB/CBC): the input must be whole 8-byte blocks.
    #[arg(long)]
    no_pad: bool,
    /// Threads (parallel algorithms and CBC decryption; default: the logical CPUs). For bf-pipeline:
    /// stage groups of the folded round pipeline, 1-17 (default: the logical CPUs; 17 = one
    /// operation per group); `--groups` is the same option.
    #[arg(long, visible_alias = "groups", value_parser = threads)]
    threads: Option<usize>,
    /// bf-pipeline chunk (multiple of 8, default 65536), parc4 block (default 65536) or
    /// parc4i segment (multiple of 256, default 65536), in bytes (64K = 65536). Decrypt parc4 and parc4i
    /// with the same value (bf-pipeline's output does not depend on it).
    #[arg(long, value_parser = chunk)]
    chunk: Option<usize>,
    /// Input file.
    #[arg(long = "in")]
    input: PathBuf,
    /// Output file (written to a temporary file and renamed; never the input).
    #[arg(long)]
    out: PathBuf,
}

/// Runs a cipher subcommand.
pub fn run(cmd: CipherCommand) -> Result<()> {
    match cmd {
        CipherCommand::Encrypt(args) => crypt(args, Direction::Encrypt),
        CipherCommand::Decrypt(args) => crypt(args, Direction::Decrypt),
    }
}

/// Decodes hex (upper or lower case, even length); `what` names the option in errors.
pub fn parse_hex(s: &str, what: &str) -> Result<Zeroizing<Vec<u8>>> {
    let s = s.trim();
    if s.len() % 2 != 0 {
        return Err(usage(format!(
            "{what} is not valid hex: odd number of digits ({})",
            s.len()
        )));
    }
    let digit = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    let mut out = Zeroizing::new(Vec::with_capacity(s.len() / 2));
    for (k, pair) in s.as_bytes().chunks_exact(2).enumerate() {
        match (digit(pair[0]), digit(pair[1])) {
            (Some(hi), Some(lo)) => out.push(hi << 4 | lo),
            _ => {
                return Err(usage(format!(
                    "{what} is not valid hex: bad digit near position {}",
                    2 * k + 1
                )));
            }
        }
    }
    Ok(out)
}

/// Builds the spec from the arguments; every mistake is a usage error.
fn spec(args: &mut CipherArgs, direction: Direction) -> Result<CipherSpec> {
    let key = parse_hex(&args.key, "--key");
    args.key.zeroize();
    let mut spec = CipherSpec::new(args.alg, &key?);
    if let Some(iv) = &args.iv {
        let iv = parse_hex(iv, "--iv")?;
        spec.iv = Some(iv[..].try_into().map_err(|_| {
            usage(format!(
                "--iv must be 8 bytes (16 hex digits), got {} bytes",
                iv.len()
            ))
        })?);
    }
    if let Some(nonce) = &args.nonce {
        spec.nonce = Some(parse_hex(nonce, "--nonce")?.to_vec());
    }
    if args.no_pad {
        spec.padding = Padding::None;
    }
    spec.threads = args.threads;
    spec.chunk = args.chunk;
    spec.validate(direction).map_err(|e| match e {
        parcrypt::Error::InvalidKey(m) | parcrypt::Error::InvalidParameter(m) => usage(m),
        other => other.into(),
    })?;
    Ok(spec)
}

fn crypt(mut args: CipherArgs, direction: Direction) -> Result<()> {
    super::output::check_file_not_input("--out", &args.out, &[("--in", &args.input)])?;
    let spec = spec(&mut args, direction)?;
    file::transform_file(&spec, direction, &args.input, &args.out)?;
    eprintln!("{STUDY_WARNING}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_parsing() {
        assert_eq!(&parse_hex("00Ff10", "--key").unwrap()[..], &[0, 255, 16]);
        assert!(parse_hex("", "--key").unwrap().is_empty());
        let odd = parse_hex("abc", "--key").unwrap_err().to_string();
        assert!(odd.contains("odd number of digits"), "{odd}");
        let bad = parse_hex("zz", "--iv").unwrap_err().to_string();
        assert!(bad.contains("--iv is not valid hex"), "{bad}");
        assert!(parse_hex("é1", "--key").is_err());
    }
}
