//! RSA: key generation (two to five primes), key encodings (PKCS#1, PKCS#8, SPKI; PEM as
//! OpenSSL reads it, or DER), textbook RSA for study, RSA-OAEP (SHA-256 by default, any
//! SHA-1/SHA-2 hash and a label) for real use, CRT and constant-time private-key operations
//! (over every prime, one thread per prime if asked, blinded and checked before output), keys
//! loaded and checked in constant time, and the SeRSA / PaRSA batches of PaRSA.
pub mod armor;
pub mod batch;
pub mod crt;
pub mod encode;
pub mod hash;
pub mod kernel;
pub mod keys;
pub mod limits;
pub mod multibuffer;
pub mod multiprime;
pub mod oaep;
pub mod pem;
pub mod prime;
pub mod secrets;
pub mod textbook;

#[cfg(test)]
mod fuzz_tests;

pub use keys::{RsaPrivateKey, RsaPublicKey};
