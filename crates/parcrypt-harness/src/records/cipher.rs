//! The record of one configuration of the cipher benchmark (`bench cipher`, and
//! `parcrypt-mpi bulk`'s ranks).
use crate::bench::TimingFields;
use parcrypt::cipher::alg::{Algorithm, Direction};
use serde::{Deserialize, Serialize};

/// One configuration's result; the field names are the JSON/CSV columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CipherBenchRecord {
    /// Algorithm.
    pub alg: Algorithm,
    /// Threads (for `bf-pipeline`: stage groups of the folded pipeline, one thread each).
    pub threads: usize,
    /// Encrypt or decrypt.
    pub op: Direction,
    /// Bytes per run.
    pub size_bytes: usize,
    /// Pipeline chunk, PARC4 block or PARC4-I segment, where it applies.
    pub chunk_bytes: Option<usize>,
    /// Seconds per run: median, min, max, the median's 95 % interval, runs and every run's
    /// time ([`TimingColumns::CI95`](crate::bench::TimingColumns::CI95)).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Throughput at the median, MB/s (10^6 bytes).
    pub mb_per_s: f64,
    /// The sequential form this is compared with.
    pub baseline: Algorithm,
    /// Baseline median / this median (same invocation).
    pub speedup: f64,
    /// This algorithm at 1 thread / this median.
    pub self_speedup: f64,
    /// TSC cycles per byte at the median run (reference-rate ticks, not core cycles); absent
    /// where no invariant TSC exists.
    pub tsc_cycles_per_byte: Option<f64>,
    /// More threads than logical CPUs.
    pub oversubscribed: bool,
    /// Output equalled the sequential reference (always true in a written record).
    pub verified: bool,
    /// Statistical warning, empty if none.
    pub note: String,
}
