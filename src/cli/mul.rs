//! `parcrypt mul`: multiplies two integers given in hex with a chosen method (GMP or one of
//! the Karatsuba family) and prints the product in hex.
use super::parse_positive;
use anyhow::Result;
use clap::Args;
use parcrypt::mul::{KaraConfig, Leaves, METHODS, multiplier};
use rug::Integer;

/// The Karatsuba options `mul` and `bench mul` share.
#[derive(Args, Debug, Clone, Copy)]
pub struct KaraOpts {
    /// Karatsuba levels (1 = the seed's karaMul).
    #[arg(long, default_value_t = 1)]
    depth: u32,
    /// Products below this many bits go straight to GMP.
    #[arg(long, default_value_t = 0)]
    threshold: u32,
    /// Pin persistent helper threads to CPUs.
    #[arg(long)]
    pin: bool,
}

/// Parses a `--leaves` value: gmp or best.
pub fn leaves(s: &str) -> Result<Leaves, String> {
    Leaves::parse(s).map_err(|e| e.to_string())
}

impl KaraOpts {
    /// The multipliers' configuration (threads as the default; each command sets its own).
    pub fn config(&self) -> KaraConfig {
        KaraConfig {
            depth: self.depth,
            threshold_bits: self.threshold,
            pin: self.pin,
            ..KaraConfig::default()
        }
    }
}

/// Arguments of `parcrypt mul`.
#[derive(Args, Debug)]
pub struct MulArgs {
    /// Method: gmp, kara-seq, kara-spawn, kara-scoped, kara-pool, kara-lockfree, kara-rayon.
    #[arg(long, required_unless_present = "list")]
    method: Option<String>,
    /// First factor, hexadecimal (optional sign and 0x prefix).
    #[arg(long, required_unless_present = "list", allow_hyphen_values = true)]
    a: Option<String>,
    /// Second factor, hexadecimal (optional sign and 0x prefix).
    #[arg(long, required_unless_present = "list", allow_hyphen_values = true)]
    b: Option<String>,
    /// Threads in all for the parallel methods: the caller plus up to 3 helpers (1 to 4);
    /// default: the logical CPUs, at most 4; sequential methods ignore it.
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
    #[command(flatten)]
    kara: KaraOpts,
    /// What multiplies the Karatsuba methods' leaves: gmp (the seed's) or best (beyond the
    /// seed: the NTT on one thread from a threshold timed on this machine, else GMP).
    #[arg(long, default_value = "gmp", value_parser = leaves)]
    leaves: Leaves,
    /// Print the method names, one per line, and exit.
    #[arg(long)]
    list: bool,
}

fn threads(s: &str) -> Result<usize, String> {
    parse_positive(s, "thread count")
}

/// The parallel products' default thread count: the logical CPUs, at most the 4 (the caller
/// and 3 helpers) they can use.
pub fn default_kara_threads() -> usize {
    super::default_threads().min(4)
}

/// Whether a hexadecimal integer option takes a sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// `-` and `+` allowed (`mul --a`, `modexp --base`).
    Allowed,
    /// Non-negative only (`modexp --exp`, `--mod`).
    Refused,
}

/// A hexadecimal integer, the one syntax of every integer option: an optional `-`/`+` (where
/// `sign` allows it), an optional `0x`, then hex digits, `_` allowed between them (`ff_ff`).
/// Spaces are refused, unlike GMP's own parser. `what` names the option in the error.
pub fn parse_hex(s: &str, what: &str, sign: Sign) -> Result<Integer> {
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if negative && sign == Sign::Refused {
        return Err(super::usage(format!(
            "{what} must be a non-negative hex number, got '{s}'"
        )));
    }
    let digits = rest
        .strip_prefix("0x")
        .or_else(|| rest.strip_prefix("0X"))
        .unwrap_or(rest);
    let well_formed = digits.bytes().all(|c| c.is_ascii_hexdigit() || c == b'_')
        && digits.bytes().any(|c| c.is_ascii_hexdigit())
        && !digits.starts_with('_')
        && !digits.ends_with('_');
    if !well_formed {
        let form = match sign {
            Sign::Allowed => "an optional sign, an optional 0x, then hex digits",
            Sign::Refused => "an optional 0x, then hex digits",
        };
        return Err(super::usage(format!(
            "{what}: not a hexadecimal integer: '{s}' (expected {form}, _ allowed between digits)"
        )));
    }
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    let x = Integer::from_str_radix(&clean, 16)
        .map_err(|e| super::usage(format!("{what}: {e}: '{s}'")))?;
    Ok(if negative { -x } else { x })
}

/// Runs `parcrypt mul`.
pub fn run(args: MulArgs) -> Result<()> {
    if args.list {
        for name in METHODS {
            println!("{name}");
        }
        return Ok(());
    }
    let (Some(method), Some(a), Some(b)) = (&args.method, &args.a, &args.b) else {
        return Err(super::usage("--method, --a and --b are required"));
    };
    if !parcrypt::mul::is_method(method) {
        return Err(parcrypt::mul::unknown_method(method).into());
    }
    let a = parse_hex(a, "--a", Sign::Allowed)?;
    let b = parse_hex(b, "--b", Sign::Allowed)?;
    let config = KaraConfig {
        leaves: args.leaves,
        ..args.kara.config()
    };
    let config = if parcrypt::mul::is_parallel(method) {
        config.with_threads(args.threads.unwrap_or_else(default_kara_threads))?
    } else {
        config
    };
    let m = multiplier(method, &config)?;
    println!("{:x}", m.mul(&a, &b));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_forms() {
        let signed = |t: &str| parse_hex(t, "x", Sign::Allowed);
        assert_eq!(signed("ff").unwrap(), 255);
        assert_eq!(signed("-0xFF").unwrap(), -255);
        assert_eq!(signed("+0").unwrap(), 0);
        assert_eq!(signed("1_0").unwrap(), 16);
        for bad in [
            "", "-", "0x", "xyz", "_1", "1_", " 1", "0x-1", "--1", "0xZZ",
        ] {
            let err = parse_hex(bad, "--a", Sign::Allowed)
                .unwrap_err()
                .to_string();
            assert!(
                err.starts_with("--a: not a hexadecimal integer") && !err.contains("non-negative"),
                "{bad}: {err}"
            );
        }
        let err = parse_hex("-5", "--exp", Sign::Refused)
            .unwrap_err()
            .to_string();
        assert_eq!(err, "--exp must be a non-negative hex number, got '-5'");
        let err = parse_hex("0xZZ", "--mod", Sign::Refused)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("(expected an optional 0x, then hex digits"),
            "{err}"
        );
    }
}
