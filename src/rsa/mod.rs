//! RSA: key generation, key encodings (PKCS#1, PKCS#8, PEM/DER), textbook RSA for study,
//! RSA-OAEP (SHA-256) for real use, CRT and constant-time private-key operations, and the
//! SeRSA / PaRSA batches of seed 000.
pub mod armor;
pub mod batch;
pub mod bench;
pub mod encode;
pub mod hash;
pub mod keys;
pub mod latency;
pub mod multiprime;
pub mod oaep;
pub mod pem;
pub mod prime;
pub mod textbook;

pub use keys::{RsaPrivateKey, RsaPublicKey};
