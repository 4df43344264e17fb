//! What every subcommand shares: the usage error (exit status 2), the list and count parsers,
//! the default thread count. A leaf: it imports no other file of the command.
use std::fmt;

/// An error in how the command was called (exit status 2), as opposed to a failure while
/// running it (exit status 1).
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// Shorthand for a usage error.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    UsageError(msg.into()).into()
}

/// Comma-separated sizes or counts (`scc --chunk`, `scc --calibrate-stages`).
#[derive(Clone, Debug)]
pub struct Sizes(pub Vec<usize>);

/// The thread count wherever one is optional: the logical CPUs (hyperthreads included), the
/// same on every command.
pub fn default_threads() -> usize {
    parcrypt_lab::bench::logical_cores().max(1)
}

/// A positive integer (threads, chunk, messages): 0 and non-numbers are refused.
pub fn parse_positive(item: &str, what: &str) -> Result<usize, String> {
    match item.parse::<usize>() {
        Ok(0) => Err(format!("{what} must be at least 1, got 0")),
        Ok(v) => Ok(v),
        Err(_) => Err(format!("{what} must be a positive integer, got '{item}'")),
    }
}
