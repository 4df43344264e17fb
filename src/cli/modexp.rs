//! `parcrypt modexp`: list the exponentiation strategies, or compute b^e mod m with one of them
//! and print the result in hex (with `--counts`, the MulMods of every thread or PE).
use anyhow::Result;
use clap::{Args, ValueEnum};
use parcrypt::modexp::{self, Params, Slicing};
use rug::Integer;

/// Arguments of `parcrypt modexp`.
#[derive(Args, Debug)]
pub struct ModexpArgs {
    /// Print the method names, one per line, and exit.
    #[arg(long)]
    list: bool,
    /// Method (see --list).
    #[arg(long, required_unless_present = "list")]
    method: Option<String>,
    /// Base, hex; negative allowed (`-5` is taken modulo --mod).
    #[arg(long, required_unless_present = "list")]
    base: Option<String>,
    /// Exponent, hex.
    #[arg(long, required_unless_present = "list")]
    exp: Option<String>,
    /// Modulus, hex.
    #[arg(long = "mod", required_unless_present = "list")]
    modulus: Option<String>,
    /// Threads for parallel methods (sequential methods ignore it).
    #[arg(long, default_value = "1", value_parser = threads)]
    threads: usize,
    /// Window / digit size r (1..=12).
    #[arg(long)]
    window: Option<u32>,
    /// Table-building threads of mary-precomp.
    #[arg(long, value_parser = threads)]
    precomp_threads: Option<usize>,
    /// Cubes of the CRSA hypercube.
    #[arg(long, value_parser = threads)]
    cubes: Option<usize>,
    /// How `slice` cuts the exponent.
    #[arg(long, value_enum, default_value_t = SlicingArg::Balanced)]
    slicing: SlicingArg,
    /// Pin threads to logical CPUs.
    #[arg(long)]
    pin: bool,
    /// Also print the modular multiplications of every thread or processing element.
    #[arg(long)]
    counts: bool,
}

fn threads(s: &str) -> Result<usize, String> {
    super::parse_positive(s, "count")
}

/// `--slicing` values.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SlicingArg {
    /// Equal bits per thread.
    Even,
    /// Thinner high slices (n − t shares).
    Uneven,
    /// Equal expected work.
    Balanced,
}

impl From<SlicingArg> for Slicing {
    fn from(s: SlicingArg) -> Self {
        match s {
            SlicingArg::Even => Slicing::Even,
            SlicingArg::Uneven => Slicing::Uneven,
            SlicingArg::Balanced => Slicing::Balanced,
        }
    }
}

/// Parses a non-negative hex integer (optional `0x`, underscores allowed).
pub fn parse_hex(what: &str, s: &str) -> Result<Integer> {
    let t = s.trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    let digits: String = t.chars().filter(|&c| c != '_').collect();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        let sign = if t.starts_with('-') {
            " (negative values make no sense here)"
        } else {
            ""
        };
        return Err(super::usage(format!(
            "--{what} must be a non-negative hex number, got '{s}'{sign}"
        )));
    }
    Integer::from_str_radix(&digits, 16)
        .map_err(|_| super::usage(format!("--{what}: bad hex '{s}'")))
}

/// Parses a hex integer that may be negative (`-5`, `-0x1f`).
pub fn parse_signed_hex(what: &str, s: &str) -> Result<Integer> {
    match s.trim().strip_prefix('-') {
        Some(rest) => parse_hex(what, rest).map(|v| -v),
        None => parse_hex(what, s),
    }
}

/// Runs `parcrypt modexp`.
pub fn run(args: ModexpArgs) -> Result<()> {
    if args.list {
        for m in modexp::methods() {
            println!("{}", m.name());
        }
        return Ok(());
    }
    let (Some(name), Some(b), Some(e), Some(m)) =
        (&args.method, &args.base, &args.exp, &args.modulus)
    else {
        return Err(super::usage(
            "--method, --base, --exp and --mod are required",
        ));
    };
    let method = modexp::method(name).map_err(|e| super::usage(e.to_string()))?;
    let (b, e, m) = (
        parse_signed_hex("base", b)?,
        parse_hex("exp", e)?,
        parse_hex("mod", m)?,
    );
    // A negative base is the residue of the same class: -5 mod m = m - 5.
    let b = if b < 0 && m > 0 {
        let r = Integer::from(&b % &m);
        if r < 0 { r + &m } else { r }
    } else {
        b
    };
    if b < 0 {
        return Err(super::usage("--mod must be positive"));
    }
    let params = Params {
        threads: args.threads,
        window: args.window,
        precomp_threads: args.precomp_threads,
        cubes: args.cubes,
        slicing: args.slicing.into(),
        pin: args.pin,
        kernel: Default::default(),
    };
    let outcome = modexp::pow_mod(method.as_ref(), &b, &e, &m, &params)
        .map_err(|e| super::usage(e.to_string()))?;
    println!("{}", outcome.value.to_string_radix(16));
    if args.counts {
        for c in &outcome.counts {
            println!(
                "{}: {} squarings + {} multiplications = {} MulMods",
                c.unit,
                c.squarings,
                c.multiplications,
                c.mulmods()
            );
        }
        println!("total: {} MulMods", outcome.total_mulmods());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_parsing_accepts_prefixes_and_refuses_junk() {
        assert_eq!(parse_hex("x", "0xff").unwrap(), 255);
        assert_eq!(parse_hex("x", "1_0").unwrap(), 16);
        assert!(parse_hex("x", "").is_err());
        assert!(parse_hex("x", "12g").is_err());
        assert!(parse_hex("x", "-5").is_err());
        assert_eq!(parse_signed_hex("x", "-5").unwrap(), -5);
        assert_eq!(parse_signed_hex("x", "-0x1f").unwrap(), -31);
        assert!(parse_signed_hex("x", "--5").is_err());
    }
}
