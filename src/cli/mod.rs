//! Command-line interface: argument definitions (clap derive) and dispatch, one file per
//! subcommand. Every error ends as one line on stderr; the exit status says its class (README
//! "Exit codes"): 2 usage, 1 runtime, 70 internal (a bug, and the line asks for a report).
//! This file only dispatches: what the subcommands share (the usage error, list parsers, the
//! default thread count) is in `common.rs`, a leaf below them (`tests/layout.rs` holds the
//! order).
mod bench;
mod bench_cipher;
mod bench_leak;
mod bench_modexp;
mod bench_mul;
mod bench_opts;
mod bench_peers;
mod cipher;
mod common;
mod dse;
mod energy;
mod modexp;
mod mul;
mod output;
use parcrypt_harness::parse;
mod power;
mod presets;
mod reliability;
mod rsa;
mod scc;
mod scc_calibrate;
mod size;
mod study;

pub use common::{Sizes, UsageError, default_threads, parse_positive, usage};
pub use parse::parse_list;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

/// parcrypt — a parallel cryptography lab: run the seed papers' algorithms sequentially and in
/// parallel, measure them on this machine, and compare with the papers.
#[derive(Parser, Debug)]
#[command(name = "parcrypt", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// RSA keys and files: keygen, encrypt, decrypt.
    #[command(subcommand)]
    Rsa(rsa::RsaCommand),
    /// Benchmarks: timed sweeps with statistics, exported as a table, JSON, CSV or Markdown.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Symmetric ciphers on files: Blowfish (ECB/CBC/CTR), PBlock, the round pipeline, RC4,
    /// RC4A, PARC4, PARC4-I. Broken or outdated ciphers, for study only.
    #[command(subcommand)]
    Cipher(cipher::CipherCommand),
    /// Modular exponentiation with a chosen strategy (--list shows them).
    Modexp(modexp::ModexpArgs),
    /// The study: every seed paper's experiments and a report beside the papers' figures.
    Study(study::StudyArgs),
    /// Design-space exploration: Pareto front over time, energy and MTTF; best per objective.
    Dse(dse::DseArgs),
    /// Big-integer product with GMP or a Karatsuba variant (--list shows them).
    Mul(mul::MulArgs),
    /// Chip power of a preset at a node, clock and active-core count (PaRSA Tables 4-7).
    Power(power::PowerArgs),
    /// RAMP lifetime (EM, SM, TDDB, TC) of a preset at a clock, as normalised MTTF, and the %
    /// change between two clocks.
    Reliability(reliability::ReliabilityArgs),
    /// Joules, watts and seconds of any command: `parcrypt energy -- COMMAND ARGS` (RAPL where
    /// readable, else modelled: chip power at its busy cores x wall time).
    Energy(energy::EnergyArgs),
    /// The processor presets of the power, energy and reliability models.
    Presets(presets::PresetsArgs),
    /// SCC Blowfish's pipeline on a model of Intel's SCC: time, speedup, energy per chunk size,
    /// each parameter's source, ±50 % sensitivity, and calibration against this machine.
    Scc(scc::SccArgs),
}

/// Runs the command line and returns the process exit status.
pub fn main() -> i32 {
    let parsed = allow_negative_values(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return parse::clap_exit(e, true),
    };
    let result = match cli.command {
        Command::Rsa(cmd) => rsa::run(cmd),
        Command::Bench(cmd) => bench::run(cmd),
        Command::Cipher(cmd) => cipher::run(cmd),
        Command::Modexp(args) => modexp::run(args),
        Command::Study(args) => study::run(args),
        Command::Dse(args) => dse::run(args),
        Command::Mul(args) => mul::run(args),
        Command::Power(args) => power::run(args),
        Command::Reliability(args) => reliability::run(args),
        Command::Energy(args) => energy::run(args),
        Command::Presets(args) => presets::run(args),
        Command::Scc(args) => scc::run(args),
    };
    match result {
        Ok(()) => 0,
        Err(err) => {
            eprintln!("error: {}", one_line(&err));
            exit_code(&err)
        }
    }
}

/// Lets every option that takes a value take a negative number (`--base -5`, `--temp-c -10`):
/// where a negative value makes no sense, the option's parser refuses it with one line naming
/// the option, instead of clap reading `-5` as an unknown flag.
fn allow_negative_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| {
        if arg.get_action().takes_values() {
            arg.allow_negative_numbers(true)
        } else {
            arg
        }
    })
    .mut_subcommands(allow_negative_values)
}

/// The exit status of a failed command, from the first error in its chain that has a class:
/// the CLI's own [`UsageError`], a library error (its [`parcrypt_lab::Error::exit_code`]: usage,
/// runtime or internal) or an energy-model error; anything else (a file, a peer) is a runtime
/// failure.
fn exit_code(err: &anyhow::Error) -> i32 {
    use parcrypt_lab::error::{EXIT_RUNTIME, EXIT_USAGE};
    err.chain()
        .find_map(|e| {
            if e.is::<UsageError>() {
                Some(EXIT_USAGE)
            } else if let Some(e) = e.downcast_ref::<parcrypt_lab::Error>() {
                Some(e.exit_code())
            } else if let Some(e) = e.downcast_ref::<parcrypt::Error>() {
                // The crypto crate's error: the same class as the lab's variant it maps to.
                Some(crypto_exit_code(e))
            } else {
                e.downcast_ref::<parcrypt_lab::energy::EnergyError>()
                    .map(|e| {
                        if e.is_usage() {
                            EXIT_USAGE
                        } else {
                            EXIT_RUNTIME
                        }
                    })
            }
        })
        .unwrap_or(EXIT_RUNTIME)
}

/// The exit status of a crypto-crate error: the lab's for the same variant (usage for an
/// invalid parameter, internal for a bug, runtime otherwise).
fn crypto_exit_code(e: &parcrypt::Error) -> i32 {
    use parcrypt_lab::error::{EXIT_INTERNAL, EXIT_RUNTIME, EXIT_USAGE};
    match e {
        parcrypt::Error::InvalidParameter(_) => EXIT_USAGE,
        parcrypt::Error::Internal(_) => EXIT_INTERNAL,
        _ => EXIT_RUNTIME,
    }
}

/// The whole error chain on one line: "context: cause: cause".
fn one_line(err: &anyhow::Error) -> String {
    let parts: Vec<String> = err.chain().map(|e| e.to_string()).collect();
    let mut line = String::new();
    for part in parts {
        // anyhow contexts often repeat their cause's text; skip exact repeats.
        if !line.contains(&part) {
            if !line.is_empty() {
                line.push_str(": ");
            }
            line.push_str(&part);
        }
    }
    line.replace('\n', " ")
}
