//! The seed systems over MPI ranks (feature `mpi`): batch RSA (seed 000), the Blowfish round
//! pipeline (seed 001), the CRSA hypercube (seed 002) and the bulk ciphers PBlock and PARC4
//! (seed 004), each run by the `parcrypt-mpi` binary under `mpirun -n N` or `srun`.
//!
//! - [`bulk_bench`]: bulk ciphers over ranks against threads and the sequential form.
//! - [`comm`]: [`Ranks`], the ranks of one run and how they talk — byte messages with tags,
//!   waits that probe and sleep instead of spinning (Open MPI's blocking calls busy-poll and
//!   would take a core from a working rank), agreement on errors, gathering, a deadline.
//! - [`nb`]: non-blocking sends that own their buffer (double buffering in the pipeline).
//! - [`wire`]: message encodings.
//! - [`record`]: the fields every MPI result adds to the thread benchmarks' schema
//!   (`backend`, `ranks`, `hosts`) and energy over ranks.
//! - [`batch`]: SeRSA/PaRSA with messages dealt to ranks (static, dynamic, guided, chunk).
//! - [`batch_bench`]: its sweep against SeRSA on rank 0, timed, with records.
//! - [`pipeline`]: the round pipeline with one rank per stage group, and the hop latency.
//! - [`pipeline_bench`]: its chunk sweep against threads and the sequential cipher.
//! - [`crsa`]: CRSA with processing elements placed on ranks by address bits.
//! - [`crsa_bench`]: CRSA over ranks against the thread engine, checked and timed.
//! - [`bulk`]: PBlock and PARC4 over a file split among ranks, written once, atomically.
//!
//! Every program checks its output against the sequential reference on rank 0 and times
//! everything on rank 0's clock only (`MPI_Wtime` and `Instant` have a per-process origin),
//! so a wall time spans from rank 0's command to the last result reaching rank 0.
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
