//! The papers' systems over MPI ranks: batch RSA (PaRSA), the Blowfish round pipeline (SCC
//! Blowfish), the CRSA hypercube and the bulk ciphers PBlock and PARC4 (cipher energy), each
//! run by the `parcrypt-mpi` binary under `mpirun -n N` or `srun`. Needs an MPI library (Open
//! MPI) and libclang at build time: `cargo build --release -p parcrypt-mpi`.
//!
//! How ranks work together:
//! - [`comm`]: [`Ranks`], the ranks of one run and how they talk point to point — byte
//!   messages with tags, waits that poll (busy where the ranks fit the cores, yielding then
//!   sleeping where they do not), a deadline.
//! - [`collective`]: barrier, broadcast, gather, reduce and all-reduce through MPI's
//!   non-blocking collectives under the deadline; agreement on errors; rank 0's commands.
//! - [`nb`]: non-blocking sends and receives that own their buffer (double buffering both ways
//!   in the pipeline).
//! - [`host`]: a host's CPUs, and rank 0's thread forms run on all of them.
//! - [`scratch`]: temporary outputs removed on any failure, signal or abort, on any rank.
//! - [`shared_file`]: one output written by every rank at its own offsets, renamed into place
//!   once every rank succeeded.
//! - [`wire`]: message encodings.
//! - [`record`]: the fields every MPI result adds to the thread benchmarks' schema
//!   (`backend`, `ranks`, `hosts`, `host_names`), energy over ranks, and timed sweeps.
//!
//! The programs:
//! - [`batch`]: SeRSA/PaRSA with messages dealt to ranks (static, dynamic, guided, chunk).
//! - [`batch_bench`]: its sweep against SeRSA on rank 0, timed, with records.
//! - [`pipeline`]: the round pipeline with one rank per stage group, and the hop latency.
//! - [`pipeline_bench`]: its chunk sweep against threads and the sequential cipher.
//! - [`crsa`]: CRSA with processing elements placed on ranks by address bits.
//! - [`crsa_bench`]: CRSA over ranks against the thread engine, checked and timed.
//! - [`bulk`]: PBlock and PARC4 over a file: each rank reads, transforms, writes and checks
//!   its own part, in pieces.
//! - [`bulk_bench`]: bulk ciphers over ranks against threads and the sequential form.
//!
//! Every program checks its output against the sequential reference (the bulk ciphers on every
//! rank, each its own part) and times everything on rank 0's clock only (`MPI_Wtime` and
//! `Instant` have a per-process origin), from a barrier that starts each run to the last result
//! reaching rank 0.
#![warn(missing_docs)]

pub mod backoff;
pub mod batch;
pub mod batch_bench;
pub mod bulk;
pub mod bulk_bench;
pub mod collective;
pub mod comm;
pub mod crsa;
pub mod crsa_bench;
pub mod error;
pub mod host;
pub mod nb;
pub mod pipeline;
pub mod pipeline_bench;
pub mod record;
pub mod scratch;
pub mod shared_file;
pub mod wire;

pub use collective::Command;
pub use comm::Ranks;
pub use error::{MpiError, MpiResult};
pub use record::MpiFields;
