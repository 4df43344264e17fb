//! RSA: key generation (two to five primes), key encodings (PKCS#1, PKCS#8, SPKI; PEM as
//! OpenSSL reads it, or DER), textbook RSA for study, RSA-OAEP (SHA-256 by default, any
//! SHA-1/SHA-2 hash and a label) for real use, CRT and constant-time private-key operations
//! (over every prime, one thread per prime if asked, blinded and checked before output), keys
//! loaded and checked in constant time, and the SeRSA / PaRSA batches of PaRSA.
//!
//! The safe face is here: [`keys`] (the key types), [`oaep`], [`pem`] (loading and writing
//! keys) and [`hash`] (OAEP's hash choice). The building blocks under it (textbook RSA, the
//! primitives, the constant-time kernels and CRT engines, multi-buffer, the secrets' checks,
//! encodings, primes, batches) are reached through [`crate::hazmat`].
pub mod hash;
pub mod keys;
pub mod oaep;
pub mod pem;

pub(crate) mod armor;
pub(crate) mod batch;
pub(crate) mod crt;
pub(crate) mod encode;
pub(crate) mod kernel;
pub(crate) mod limits;
pub(crate) mod multibuffer;
pub(crate) mod multiprime;
pub(crate) mod prime;
pub(crate) mod primitive;
pub(crate) mod secrets;
pub(crate) mod textbook;

#[cfg(test)]
mod fuzz_tests;

pub use keys::{RsaPrivateKey, RsaPublicKey};
