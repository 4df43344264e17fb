//! parcrypt — a parallel cryptography lab.
//!
//! The library implements the systems of five research papers on parallel cryptography
//! (RSA over many messages with OpenMP-style schedules, parallel modular exponentiation,
//! pipelined and data-parallel ciphers) in sequential and parallel forms, each verified against
//! its sequential reference, and measures them on the user's machine.
//!
//! Module map, from the bottom layer up. A module imports only modules before it in this list,
//! never one after it (`tests/layout.rs` checks the sources against the same order, kept in the
//! README's "Layout"); `parallel` knows no algorithm, and the measured operations in `rsa`,
//! `modexp`, `mul` and `cipher` know nothing of energy or benchmarks:
//! - [`error`]: the library's one error type, with `From` for the energy models' errors
//!   ([`EnergyError`](error::EnergyError)); [`io`]: atomic file output;
//! - [`parallel`]: generic machinery only — OpenMP-style loop schedules, thread teams and
//!   pools, pinning, static splits, an SPSC ring (`parallel/pool/`, `parallel/schedule/`: their
//!   tests);
//! - [`bignum`]: GMP helpers, Montgomery arithmetic and secret integers wiped on drop
//!   (`bignum/mpn/`: the limb-level kernels' tests);
//! - [`bench`](mod@bench): the benchmark harness, statistics (Welch's t-test too), machine information,
//!   progress, the TSC and the free-core probe
//!   (`bench/export/`: JSON, CSV, Markdown and tables);
//! - [`results`]: the study's plain data model (tables, charts, judged claims);
//! - [`claims`]: the papers' claims and figures as data, one registry per seed;
//! - [`mul`]: big-integer products, GMP and the Karatsuba/Toom family, sequential and parallel;
//! - [`modexp`]: modular exponentiation strategies, sequential and parallel (`modexp/crsa/`:
//!   CRSA on a hypercube);
//! - [`rsa`]: keys (multi-prime too) checked in constant time when read, PEM/DER, the
//!   constant-time CRT with its blinding and fault check (`rsa/crt/`, `rsa/keys/`, `rsa/oaep/`:
//!   their tests), textbook
//!   RSA, OAEP, SeRSA/PaRSA batches;
//! - [`cipher`]: Blowfish, RC4, RC4A, their modes, the one encryption dispatch and files
//!   (`cipher/parallel/`: PBlock, the Blowfish round pipeline, PARC4, PARC4-I);
//! - [`energy`]: power models, presets, meters (RAPL) and DVFS (`energy/meter/`,
//!   `energy/power_model/`);
//! - [`reliability`]: RAMP lifetimes (EM, SM, TDDB, TC) and temperatures;
//! - [`scc`]: seed 001's pipeline on a model of Intel's SCC;
//! - [`dse`]: design-space exploration over time, energy and MTTF;
//! - [`suites`]: all the measuring — every benchmark's plan, records with their energy fields,
//!   and run, the peer runners (`openssl speed`, GMP in process) and `bench peers`;
//! - [`report`]: a study's HTML/Markdown report (`report/plot/`: the charts);
//! - [`study`]: every paper's experiments, judged (`study/experiments/`);
//! - `mpi` (feature `mpi`): the seed systems over MPI ranks (the `parcrypt-mpi` program is in
//!   `src/bin/parcrypt-mpi/`).
//!
//! The `parcrypt` command (`src/main.rs`, `src/cli/`: one file per subcommand, shared option
//! groups beside them) uses only this library's public items.
//!
//! Secrets: GMP frees its temporaries without wiping them unless the allocator of
//! [`bignum::wipe`] is installed; the library installs it itself before it handles its first
//! secret (a [`bignum::SecretInteger`], a key read, built or generated), around whatever
//! allocator GMP had, so a library user has nothing to call (calling
//! [`bignum::wipe::install`] first covers the program's own integers from the start).
#![warn(missing_docs)]

pub mod bench;
pub mod bignum;
pub mod cipher;
pub mod claims;
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
pub mod results;
pub mod rsa;
pub mod scc;
pub mod study;
pub mod suites;

pub use error::{Error, Result};
