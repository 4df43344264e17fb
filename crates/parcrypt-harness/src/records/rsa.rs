//! The SeRSA / PaRSA record — one configuration of a batch benchmark, its field names the
//! JSON/CSV columns — and its builder, shared by the thread benchmark ([`rsa`](super::rsa)) and
//! the MPI batch (feature `mpi`), which give it their plan's [`BatchShape`] and [`Placement`].
use crate::bench::{Sampled, Seconds, TimingColumns, TimingFields};
use crate::energy::meter::EnergyFields;
use parcrypt::hazmat::textbook::PrivateOp;
use parcrypt::parallel::{RunStats, Schedule, ScheduleSpec};
use parcrypt::rsa::keys::RsaPrivateKey;
use serde::{Deserialize, Serialize};

/// The operation benchmarked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BatchOp {
    /// Textbook encryption with the public exponent.
    Encrypt,
    /// Textbook decryption with the private key.
    Decrypt,
}

/// One configuration's result; the field names are the JSON/CSV columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RsaBenchRecord {
    /// Worker threads.
    pub threads: usize,
    /// Loop schedule.
    pub schedule: Schedule,
    /// Chunk size; `null` is the schedule's default (for `static`: one block per thread).
    pub chunk: Option<usize>,
    /// Messages per batch.
    pub messages: usize,
    /// Modulus size in bits.
    pub bits: u32,
    /// `encrypt` or `decrypt`.
    pub op: BatchOp,
    /// For `decrypt`: how c^d mod n was computed.
    pub private_op: Option<PrivateOp>,
    /// With `--private-op auto`: which constant-time operation the measurement at the start
    /// chose, and why ([`parcrypt::hazmat::batch::ConstTimeChoice::describe`]); empty when the
    /// operation was named.
    #[serde(default)]
    pub private_op_choice: String,
    /// Seconds per batch: median, min, max, mean, standard deviation, the median's 95 %
    /// interval, runs and every run's time ([`TimingColumns::ALL`]).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Baseline median / this median (baseline: 1 thread, `static`, same invocation).
    pub speedup: f64,
    /// speedup / threads.
    pub efficiency: f64,
    /// Messages per second at the median.
    pub msgs_per_s: f64,
    /// Energy of one batch (mean over the measured batches, the meter read around each; `energy_j`
    /// `null` without a meter), average power, energy per byte of a batch (messages x modulus
    /// bytes) and where the figures come from.
    #[serde(flatten)]
    pub energy: EnergyFields,
    /// Busiest thread's busy time / mean busy time in the last run (1.0 = balanced).
    pub imbalance: f64,
    /// Chunks handed out in the last run (dealer grabs: a measure of scheduling traffic).
    pub chunks_taken: usize,
    /// More threads than this machine's logical CPUs.
    pub oversubscribed: bool,
    /// Threads were pinned to CPUs.
    pub pinned: bool,
    /// The output equalled the sequential reference (always true in a written record: a
    /// mismatch aborts the benchmark).
    pub verified: bool,
    /// Statistical warning (outliers, too few runs for a 95 % interval), empty if none.
    pub note: String,
}

/// What a batch record takes from its plan, whether the batch ran over threads
/// (the lab's `RsaBenchPlan::shape`) or over MPI ranks (`parcrypt-mpi`'s `BatchPlan`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchShape {
    /// Messages per batch.
    pub messages: usize,
    /// Encrypt or decrypt.
    pub op: BatchOp,
    /// How decryption computes c^d mod n.
    pub private_op: PrivateOp,
    /// Threads were pinned to CPUs.
    pub pin: bool,
}

/// Where one configuration ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Threads (per worker).
    pub threads: usize,
    /// Workers each running `threads` (MPI ranks that compute; 1 for threads alone).
    pub workers: usize,
    /// Threads sharing one host's CPUs, for the oversubscription flag.
    pub on_host: usize,
}

impl Placement {
    /// `threads` threads in this process.
    pub fn threads(threads: usize) -> Self {
        Self {
            threads,
            workers: 1,
            on_host: threads,
        }
    }
}

/// One configuration's record: `s` its samples, `baseline_median` the SeRSA median of the
/// same run, `stats` its last batch's thread statistics, `energy` its energy columns.
#[allow(clippy::too_many_arguments)]
pub fn record(
    key: &RsaPrivateKey,
    shape: BatchShape,
    place: Placement,
    spec: ScheduleSpec,
    s: &Sampled,
    baseline_median: Seconds,
    stats: &RunStats,
    energy: EnergyFields,
) -> RsaBenchRecord {
    let speedup = if s.median > 0.0 {
        baseline_median / s.median
    } else {
        f64::NAN
    };
    RsaBenchRecord {
        threads: place.threads,
        schedule: spec.schedule,
        chunk: spec.chunk,
        messages: shape.messages,
        bits: key.public().bits(),
        op: shape.op,
        private_op: (shape.op == BatchOp::Decrypt).then_some(shape.private_op),
        private_op_choice: String::new(),
        timing: TimingFields::new(s, s.times.clone(), TimingColumns::ALL),
        speedup,
        efficiency: speedup / (place.workers * place.threads) as f64,
        msgs_per_s: shape.messages as f64 / s.median,
        energy,
        imbalance: stats.imbalance(),
        chunks_taken: stats.chunks(),
        oversubscribed: crate::bench::oversubscribed(place.on_host),
        pinned: shape.pin,
        verified: true,
        note: s.note().unwrap_or_default(),
    }
}
