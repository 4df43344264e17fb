//! Parallel modular exponentiation against the sequential one: every method of
//! [`parcrypt::modexp`] on one 2048-bit modulus, checked against GMP's `mpz_powm`, with its
//! time. These methods are **variable-time** (for public or test operands; RSA's private key
//! goes through the constant-time kernels of `parcrypt::rsa`).
//!
//! `cargo run --release -p parcrypt --example parallel_modexp [threads]`
use parcrypt::modexp::{self, Params};
use std::time::Instant;

fn main() -> parcrypt::Result<()> {
    let threads: usize = std::env::args()
        .nth(1)
        .and_then(|t| t.parse().ok())
        .unwrap_or(2);
    let (base, exp, modulus) = modexp::operands(2048, 1);
    let want = base.clone().pow_mod(&exp, &modulus).expect("odd modulus");
    println!("2048-bit base, exponent and modulus; parallel methods on {threads} threads");
    for name in [
        "binary",
        "sliding",
        "mary",
        "mary-precomp",
        "mary-ondemand",
        "slice",
        "gmp",
    ] {
        let method = modexp::method(name)?;
        let params = Params {
            threads: if method.is_parallel() { threads } else { 1 },
            ..Params::default()
        };
        let start = Instant::now();
        let out = modexp::pow_mod_vartime(method.as_ref(), &base, &exp, &modulus, &params)?;
        let us = start.elapsed().as_secs_f64() * 1e6;
        assert_eq!(out.value, want, "{name} differs from GMP");
        let mulmods = match out.total_mulmods() {
            0 => "(GMP counts none)".to_string(),
            n => format!("{n} MulMods"),
        };
        println!("{name:<14} {us:>7.0} µs  {mulmods:<17}  same as GMP: yes");
    }
    Ok(())
}
