//! Symmetric ciphers of seeds 001 and 004 in their sequential forms — Blowfish (ECB, CBC, CTR,
//! PKCS#7 padding), RC4 and RC4A — the references every parallel form in
//! [`parallel`](mod@parallel) is tested against; plus the file streamer. Their benchmarks are in
//! `bench::suites`.
//!
//! **RC4, RC4A and Blowfish are broken or outdated** and are here for study only: RC4's
//! keystream biases allow plaintext recovery (RFC 7465 bans it from TLS), and Blowfish's 64-bit
//! block wears out after a few tens of GiB under one key (SWEET32). Use AES-GCM or
//! ChaCha20-Poly1305 for real data. None of these modes authenticates anything.
//!
//! - [`blowfish`]: the key schedule and block function, one block or [`blowfish::LANES`]
//!   interleaved; [`modes`]: ECB, CBC, CTR and PKCS#7.
//! - [`rc4`], [`rc4a`]: the stream ciphers; [`rc4a`] documents how parcrypt derives RC4A's
//!   second key.
//! - [`parallel`](mod@parallel): PBlock, the Blowfish round pipeline, PARC4 and PARC4-I.
//! - [`alg`]: the algorithm names of the command line and what each needs; [`file`](mod@file): any of
//!   them over a file or stream in bounded memory; [`dispatch`]: the one place an algorithm is
//!   applied to a piece of a message, used by files and benchmarks.
pub mod alg;
pub mod blowfish;
mod blowfish_consts;
pub mod dispatch;
pub mod file;
pub mod modes;
pub mod parallel;
pub mod rc4;
pub mod rc4a;

pub use alg::{Algorithm, Direction};
pub use blowfish::Blowfish;
pub use modes::Padding;
pub use rc4::Rc4;
pub use rc4a::Rc4a;

/// The one-line notice printed when a broken or outdated cipher is used on real data.
pub const STUDY_WARNING: &str = "warning: RC4, RC4A and Blowfish are broken or outdated \
     (RC4 keystream biases, Blowfish's 64-bit block); kept for study only, not for protecting data";
