//! The library's error type: every bad input becomes one of these, never a panic.
use std::path::PathBuf;

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
}

/// Shorthand for results of this library.
pub type Result<T> = std::result::Result<T, Error>;
