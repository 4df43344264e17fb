//! `parcrypt modexp`: list the exponentiation strategies, or compute b^e mod m with one of them
//! and print the result in hex (with `--counts`, the MulMods of every thread or PE).
use super::mul::{Sign, parse_hex};
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
    /// Threads for parallel methods (default: the logical CPUs; sequential methods ignore
    /// it).
    #[arg(long, value_parser = threads)]
    threads: Option<usize>,
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
        parse_hex(b, "--base", Sign::Allowed)?,
        parse_hex(e, "--exp", Sign::Refused)?,
        parse_hex(m, "--mod", Sign::Refused)?,
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
        threads: args.threads.unwrap_or_else(super::default_threads),
        window: args.window,
        precomp_threads: args.precomp_threads,
        cubes: args.cubes,
        slicing: args.slicing.into(),
        pin: args.pin,
        kernel: Default::default(),
    };
    let outcome = modexp::pow_mod_vartime(method.as_ref(), &b, &e, &m, &params)
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
