//! The lab's error type: every bad input becomes one of these, never a panic. It has the
//! variants of the crypto crate's [`parcrypt::Error`] (converted one to one by `From`, so `?`
//! carries a crypto error through unchanged) and the energy models' errors, with the exit codes
//! of the `parcrypt` command.
use std::path::PathBuf;

mod energy;
pub(crate) use energy::join;
pub use energy::{EnergyError, EnergyResult};

/// Errors returned by the parcrypt library.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A parameter is outside its allowed range (0 threads, chunk 0, modulus too small, ...).
    #[error("invalid parameter: {0}")]
    InvalidParameter(String),
    /// A key could not be parsed or is not of the expected kind.
    #[error("invalid key: {0}")]
    InvalidKey(String),
    /// A message does not fit the modulus or the padding scheme.
    #[error("message too long: {0}")]
    MessageTooLong(String),
    /// A ciphertext is malformed (wrong length, not below the modulus, ...).
    #[error("invalid ciphertext: {0}")]
    InvalidCiphertext(String),
    /// Data of a length the operation cannot take (e.g. not a whole number of cipher blocks).
    #[error("invalid length: {0}")]
    InvalidLength(String),
    /// OAEP decoding failed. Deliberately carries no detail (Manger's attack).
    #[error("decryption error")]
    DecryptionError,
    /// Key generation failed (e.g. the public exponent is unusable).
    #[error("key generation failed: {0}")]
    KeyGeneration(String),
    /// Results could not be exported in the requested format.
    #[error("export failed: {0}")]
    Export(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file involved.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A broken invariant or a failed verification inside parcrypt (a parallel form that
    /// disagrees with its sequential reference, a benchmark that timed a wrong result): a bug,
    /// never the user's doing. The command line exits with 70 (sysexits' EX_SOFTWARE).
    #[error("internal error: {0} ({BUG_REPORT})")]
    Internal(String),
    /// An error of the energy and reliability models (unknown preset, node or clock, RAPL or
    /// cpufreq trouble), kept whole: its message, its cause and whether it is a usage error.
    #[error(transparent)]
    Energy(#[from] EnergyError),
}

impl Error {
    /// Whether the error is about how the library was called (a parameter out of range, an
    /// unknown preset, node or clock): the command line exits with 2 for these.
    pub fn is_usage(&self) -> bool {
        match self {
            Self::InvalidParameter(_) => true,
            Self::Energy(e) => e.is_usage(),
            _ => false,
        }
    }
}

/// What every internal error's line ends with: a request for a bug report.
pub use parcrypt::error::BUG_REPORT;

/// Exit status of a usage error: a bad argument or input the user can fix.
pub const EXIT_USAGE: i32 = 2;
/// Exit status of a runtime failure: a file, a key, a failed peer.
pub const EXIT_RUNTIME: i32 = 1;
/// Exit status of an internal error: a failed verification or a broken invariant (a bug).
pub const EXIT_INTERNAL: i32 = 70;

impl Error {
    /// The command line's exit status for this error: [`EXIT_USAGE`], [`EXIT_INTERNAL`] or
    /// [`EXIT_RUNTIME`].
    pub fn exit_code(&self) -> i32 {
        if self.is_usage() {
            EXIT_USAGE
        } else if matches!(self, Self::Internal(_)) {
            EXIT_INTERNAL
        } else {
            EXIT_RUNTIME
        }
    }

    /// An internal error: `what` went wrong inside parcrypt.
    pub fn internal(what: impl Into<String>) -> Self {
        Self::Internal(what.into())
    }
}

/// Shorthand for results of this library.
pub type Result<T> = std::result::Result<T, Error>;

impl From<parcrypt::Error> for Error {
    fn from(e: parcrypt::Error) -> Self {
        use parcrypt::Error as C;
        match e {
            C::InvalidParameter(m) => Self::InvalidParameter(m),
            C::InvalidKey(m) => Self::InvalidKey(m),
            C::MessageTooLong(m) => Self::MessageTooLong(m),
            C::InvalidCiphertext(m) => Self::InvalidCiphertext(m),
            C::InvalidLength(m) => Self::InvalidLength(m),
            C::DecryptionError => Self::DecryptionError,
            C::KeyGeneration(m) => Self::KeyGeneration(m),
            C::Export(m) => Self::Export(m),
            C::Io { path, source } => Self::Io { path, source },
            C::Internal(m) => Self::Internal(m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use EnergyError;

    #[test]
    fn energy_errors_convert_whole() {
        let unknown: Error = EnergyError::UnknownPreset {
            name: "nope".into(),
            known: "core-i7".into(),
        }
        .into();
        assert_eq!(
            unknown.to_string(),
            "unknown preset 'nope' (known: core-i7)"
        );
        assert!(unknown.is_usage());
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "gone");
        let read: Error = EnergyError::read("/proc/stat", io).into();
        assert!(matches!(read, Error::Energy(EnergyError::Read { .. })));
        assert!(!read.is_usage());
        let source = std::error::Error::source(&read).expect("the I/O cause is kept");
        assert_eq!(source.to_string(), "gone");
        assert!(Error::InvalidParameter("x".into()).is_usage());
        assert_eq!(Error::InvalidParameter("x".into()).exit_code(), EXIT_USAGE);
        let bug = Error::internal("pblock-ecb on 2 threads differs from its sequential form");
        assert_eq!(bug.exit_code(), EXIT_INTERNAL);
        assert!(bug.to_string().starts_with("internal error: pblock-ecb"));
        assert!(bug.to_string().contains("please report it"));
        assert_eq!(read.exit_code(), EXIT_RUNTIME);
    }
}
