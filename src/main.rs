//! The `parcrypt` command: parses the arguments and hands over to `cli` (`src/cli/`: the
//! subcommands). Errors are printed as one line; the exit status is 2 for a
//! usage error, 1 for a runtime failure and 70 for an internal error (docs/commands.md, "Exit codes").
mod cli;

/// Rust's heap, counted only while `bench mul` measures one product's peak (elsewhere a relaxed
/// load or two per allocation), so `bench mul` can say how much memory a product takes.
#[global_allocator]
static ALLOC: parcrypt_lab::bench::memory::CountingAlloc =
    parcrypt_lab::bench::memory::CountingAlloc;

fn main() {
    restore_default_sigpipe();
    // Wipe every GMP block on free before any big integer is allocated (see bignum::wipe).
    parcrypt::hazmat::bignum::wipe::install();
    // The command keeps `auto`'s kernel choices per CPU model across runs (the library alone
    // keeps them in the process only).
    parcrypt::keep_choices_on_disk(true);
    std::process::exit(cli::main());
}

/// Rust ignores SIGPIPE, so a write to a closed pipe (`parcrypt presets | head -1`) fails with
/// EPIPE and `println!` panics. Restoring the default action makes the kernel end the process
/// quietly (status 141 in the shell), as `cat` or `ls` do. Done once here rather than by
/// handling EPIPE at every print: it covers every subcommand, present and future, and output
/// files are unaffected (written atomically, a destination is never left half-written).
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first in main, before any thread exists; SIG_DFL is a valid disposition
    // for SIGPIPE and no handler of ours is replaced.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
