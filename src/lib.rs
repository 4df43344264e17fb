//! parcrypt — a parallel cryptography lab.
//!
//! The library implements the systems of five research papers on parallel cryptography
//! (RSA over many messages with OpenMP-style schedules, parallel modular exponentiation,
//! pipelined and data-parallel ciphers) in sequential and parallel forms, each verified against
//! its sequential reference, and measures them on the user's machine.
//!
//! Module map: [`bignum`] (GMP helpers and secret integers), [`rsa`] (keys, encodings, textbook
//! RSA, OAEP, SeRSA/PaRSA batches), [`parallel`] (OpenMP-style loop schedules and thread
//! pinning; PBlock, the Blowfish round pipeline, PARC4, PARC4-I), [`cipher`] (Blowfish, RC4, RC4A
//! and their benchmarks), [`bench`] (the benchmark harness and its exporters), [`io`] (atomic
//! file output).
#![warn(missing_docs)]

pub mod bench;
pub mod bignum;
pub mod cipher;
pub mod dse;
pub mod energy;
pub mod error;
pub mod io;
pub mod modexp;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod mul;
pub mod parallel;
pub mod reliability;
pub mod report;
pub mod rsa;
pub mod scc;
pub mod study;

pub use error::{Error, Result};
