//! The crate's error type: every bad input becomes one of these, never a panic.
use std::path::PathBuf;

/// What went wrong, in one line (`Display`); the I/O cause is kept as `source`.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A parameter out of its range or an unknown name (a method, a kernel, a size).
    #[error("invalid parameter: {0}")]
    InvalidParameter(String),
    /// A key that is malformed, inconsistent or of a size this crate refuses.
    #[error("invalid key: {0}")]
    InvalidKey(String),
    /// A message too long for the key and padding.
    #[error("message too long: {0}")]
    MessageTooLong(String),
    /// A ciphertext of the wrong size or not below the modulus (textbook RSA only: OAEP
    /// answers every bad ciphertext with [`Error::DecryptionError`]).
    #[error("invalid ciphertext: {0}")]
    InvalidCiphertext(String),
    /// Input whose length the cipher or mode cannot take.
    #[error("invalid length: {0}")]
    InvalidLength(String),
    /// The one answer to every failed decryption (bad padding, wrong label, a fault caught by
    /// the check with the public key): the same message from the same code.
    #[error("decryption error")]
    DecryptionError,
    /// Key generation failed (no prime found in the allotted tries).
    #[error("key generation failed: {0}")]
    KeyGeneration(String),
    /// An encoding (PEM, DER) could not be written.
    #[error("export failed: {0}")]
    Export(String),
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: std::io::Error,
    },
    /// A check inside the crate failed: a bug, reported as such.
    #[error("internal error: {0} ({BUG_REPORT})")]
    Internal(String),
}

/// What an internal error asks the user to do.
pub const BUG_REPORT: &str =
    "this is a bug in parcrypt; please report it with the command that showed it";

impl Error {
    /// An [`Error::Internal`].
    pub fn internal(what: impl Into<String>) -> Self {
        Self::Internal(what.into())
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;
