//! The parcrypt lab: the five papers' systems measured on this machine, modelled where it
//! cannot measure (power, clock, temperature, MTTF, a many-core chip), judged claim by claim,
//! and reported; the benchmarks against peers; the `parcrypt` command (`src/main.rs`,
//! `src/cli/`). The cryptography itself is the `parcrypt` crate (`crates/parcrypt`).
//!
//! Module map, from the bottom layer up. A module imports only modules before it in this list,
//! never one after it (`tests/layout.rs` checks the sources against the same order, kept in the
//! README's "Layout"); the crypto crate below them all knows nothing of them (the compiler
//! holds that boundary):
//! - from the harness crate (`crates/parcrypt-harness`, shared with the MPI programs),
//!   re-exported here under the same paths: [`error`] the one error type (the crypto crate's
//!   variants, and the energy models' errors, [`EnergyError`](error::EnergyError)), with the
//!   command's exit codes; [`bench`](mod@bench) the benchmark harness, statistics, machine
//!   information, progress, the TSC and the free-core probe; [`energy`] power models,
//!   presets, meters (RAPL) and DVFS;
//! - [`results`]: the study's plain data model (tables, charts, judged claims);
//! - [`claims`]: the papers' claims and figures as data;
//! - [`reliability`]: RAMP lifetimes (EM, SM, TDDB, TC) and temperatures;
//! - [`scc`]: the SCC Blowfish paper's pipeline on a model of Intel's SCC;
//! - [`dse`]: design-space exploration over time, energy and MTTF;
//! - [`suites`]: all the measuring — every benchmark's plan, records with their energy fields,
//!   and run, the peer runners (`openssl speed`, GMP in process) and `bench peers`; the papers'
//!   own figures beside ours for CRSA's counts ([`suites::crsa_paper`]) and the m-ary/Karatsuba
//!   paper's products ([`suites::mul_paper`]);
//! - [`report`]: a study's HTML/Markdown report (`report/plot/`: the charts);
//! - [`study`]: every paper's experiments, judged ([`study::experiments`]).
//!
//! **One folder per paper.** Everything a paper brings lives in `src/papers/<paper>/`: its
//! facts and claims (`claims.rs` or `claims/`, compiled as `claims::<paper>`, the facts in
//! [`claims::papers`]'s entry built from it), its coverage file (`coverage.md`), its
//! experiments (`experiments/`, compiled as `study::experiments::<paper>_…`), and its printed
//! data and formulas (CRSA's `formulas.rs` as [`suites::crsa_paper`], m-ary/Karatsuba's `bench_figures.rs` as
//! [`suites::mul_paper`]). Each file is declared with `#[path]` by the layer it belongs to, so
//! the layers below hold as before (`tests/layout.rs` follows the `#[path]`s) while a reader
//! finds a paper in one place. One exception: PaRSA's printed power tables, which the
//! energy models read, live with them in the harness crate ([`energy::parsa`]).
//!
//! The MPI programs are the `parcrypt-mpi` crate (`crates/parcrypt-mpi`).
#![warn(missing_docs)]

pub mod claims;
pub mod dse;
pub mod reliability;
pub mod report;
pub mod results;
pub mod scc;
pub mod study;
pub mod suites;

// The harness, the energy models and the error type live in the parcrypt-harness crate, which
// parcrypt-mpi shares; they keep their paths here.
pub use error::{Error, Result};
pub use parcrypt_harness::{bench, energy, error};
