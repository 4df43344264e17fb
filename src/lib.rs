//! parcrypt — a parallel cryptography lab.
//!
//! The library implements the systems of five research papers on parallel cryptography
//! (RSA over many messages with OpenMP-style schedules, parallel modular exponentiation,
//! pipelined and data-parallel ciphers) in sequential and parallel forms, each verified against
//! its sequential reference, and measures them on the user's machine.
//!
//! Module map (every module):
//! - [`bignum`]: GMP helpers, Montgomery arithmetic and secret integers wiped on drop;
//! - [`mul`]: big-integer products, GMP and the Karatsuba/Toom family, sequential and parallel;
//! - [`modexp`]: modular exponentiation strategies, sequential and parallel (CRSA included);
//! - [`rsa`]: keys (multi-prime too), PEM/DER, textbook RSA, OAEP, SeRSA/PaRSA batches;
//! - [`parallel`]: OpenMP-style loop schedules, thread pools and pinning; PBlock, the Blowfish
//!   round pipeline, PARC4, PARC4-I;
//! - [`cipher`]: Blowfish, RC4, RC4A, their modes, files and benchmarks;
//! - [`scc`]: seed 001's pipeline on a model of Intel's SCC;
//! - [`energy`]: power models, presets, meters (RAPL) and DVFS;
//! - [`reliability`]: RAMP lifetimes (EM, SM, TDDB, TC) and temperatures;
//! - [`dse`]: design-space exploration over time, energy and MTTF;
//! - [`bench`]: the benchmark harness, machine information, progress and exporters;
//! - [`study`]: every paper's experiments and claims, judged; [`report`]: its HTML/Markdown;
//! - `mpi` (feature `mpi`): the seed systems over MPI ranks;
//! - [`io`]: atomic file output; [`error`]: the library's typed errors.
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
