//! `parcrypt mul`: multiplies two integers given in hex with a chosen method (GMP or one of
//! the Karatsuba family) and prints the product in hex.
use super::parse_positive;
use anyhow::Result;
use clap::Args;
use parcrypt::mul::{KaraConfig, METHODS, multiplier};
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
    /// sequential methods ignore it.
    #[arg(long, default_value = "2", value_parser = threads)]
    threads: usize,
    #[command(flatten)]
    kara: KaraOpts,
    /// Print the method names, one per line, and exit.
    #[arg(long)]
    list: bool,
}

fn threads(s: &str) -> Result<usize, String> {
    parse_positive(s, "thread count")
}

/// A hexadecimal integer: optional `-`/`+`, optional `0x`, then at least one hex digit
/// (underscores and spaces are refused, unlike GMP's own parser).
pub fn parse_hex(s: &str, what: &str) -> Result<Integer> {
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = rest
        .strip_prefix("0x")
        .or_else(|| rest.strip_prefix("0X"))
        .unwrap_or(rest);
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_hexdigit()) {
        return Err(super::usage(format!(
            "{what}: not a hexadecimal integer: '{s}'"
        )));
    }
    let x = Integer::from_str_radix(digits, 16)
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
    if !METHODS.contains(&method.as_str()) {
        return Err(parcrypt::mul::unknown_method(method).into());
    }
    let a = parse_hex(a, "--a")?;
    let b = parse_hex(b, "--b")?;
    let config = args.kara.config();
    let config = if parcrypt::mul::is_parallel(method) {
        config.with_threads(args.threads)?
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
        assert_eq!(parse_hex("ff", "x").unwrap(), 255);
        assert_eq!(parse_hex("-0xFF", "x").unwrap(), -255);
        assert_eq!(parse_hex("+0", "x").unwrap(), 0);
        for bad in ["", "-", "0x", "xyz", "1_0", " 1", "0x-1", "--1"] {
            let err = parse_hex(bad, "--a").unwrap_err().to_string();
            assert!(
                err.starts_with("--a: not a hexadecimal integer"),
                "{bad}: {err}"
            );
        }
    }
}
