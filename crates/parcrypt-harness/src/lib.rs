//! What the parcrypt lab (`parcrypt`, the command) and its MPI programs (`parcrypt-mpi`)
//! share, so that neither includes the other's files:
//! - [`error`]: the one error type of both programs (the crypto crate's variants, and the
//!   energy models' errors, [`EnergyError`]), with the exit codes;
//! - [`bench`](mod@bench): the benchmark harness, statistics (Welch's t-test too), machine
//!   information, progress, the TSC and the free-core probe (`bench/export/`: JSON, CSV,
//!   Markdown and tables);
//! - [`energy`]: power models, processor presets, meters (RAPL, the CPU-time model) and DVFS,
//!   with PaRSA's printed power tables that the models read ([`energy::parsa`]);
//! - [`records`]: the records of the RSA batch, cipher and pipeline benchmarks, which the lab
//!   writes on one machine and `parcrypt-mpi` writes over ranks, column for column;
//! - [`parse`]: the command-line helpers both programs use.
//!
//! The layers go up this list: a module imports only modules before it.
#![warn(missing_docs)]

pub mod bench;
pub mod energy;
pub mod error;
pub mod parse;
pub mod records;

pub use error::{EnergyError, EnergyResult, Error, Result};
