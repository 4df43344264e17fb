//! The `parcrypt` command: parses the arguments and hands over to [`parcrypt::cli`]... see
//! `src/cli/` for the subcommands. Errors are printed as one line; usage errors exit with 2.
mod cli;

fn main() {
    // Wipe every GMP block on free before any big integer is allocated (see bignum::wipe).
    parcrypt::bignum::wipe::install();
    std::process::exit(cli::main());
}
