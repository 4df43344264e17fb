//! The record of one configuration of the pipelined Blowfish benchmark (`bench cipher-pipeline`,
//! and `parcrypt-mpi pipeline`'s ranks), and the helpers both fill it with.
use crate::bench::TimingFields;
use serde::{Deserialize, Serialize};

/// One configuration's result; the field names are the JSON/CSV columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PipelineBenchRecord {
    /// `bf-pipeline` (the seed's layout), `bf-folded` (stage groups), or `blowfish-ecb` for
    /// the sequential baseline.
    pub alg: String,
    /// Threads: one per stage or stage group (1 for the baseline).
    pub threads: usize,
    /// Stages in all, input and output included (`bf-folded`: stage groups; 1 for the
    /// baseline).
    pub stages: usize,
    /// Round operations per compute stage, as `min-max`.
    pub rounds_per_stage: String,
    /// Message bytes.
    pub size_bytes: usize,
    /// Chunk bytes (`None` for the baseline).
    pub chunk_bytes: Option<usize>,
    /// Seconds for encrypt + decrypt of the message: median, min, max, runs and every run's
    /// time ([`TimingColumns::RANGE`](crate::bench::TimingColumns::RANGE)).
    #[serde(flatten)]
    pub timing: TimingFields,
    /// Message bytes / median, MB/s (10^6 bytes; each byte encrypted and decrypted).
    pub mb_per_s: f64,
    /// Sequential median / this median.
    pub speedup: f64,
    /// Busiest stage in the median run (`-` for the baseline).
    pub bottleneck: String,
    /// That stage's busy time / wall time.
    pub bottleneck_busy: f64,
    /// Mean over stages of busy / wall.
    pub mean_busy: f64,
    /// Mean over stages of (time blocked receiving) / wall.
    pub mean_recv_wait: f64,
    /// Mean over stages of (time blocked sending) / wall.
    pub mean_send_wait: f64,
    /// More threads than logical CPUs.
    pub oversubscribed: bool,
    /// Output equalled the input and the midpoint equalled Blowfish ECB (`bf-folded`: its
    /// encryption alone equalled Blowfish ECB).
    pub verified: bool,
    /// Statistical warning, empty if none.
    pub note: String,
}

/// Of the last `measured` runs (the warm-ups before them left out), the one whose wall time
/// (`wall`) is closest to `median`.
pub fn closest_to_median<T>(
    runs: &[T],
    measured: usize,
    median: f64,
    wall: impl Fn(&T) -> f64,
) -> Option<&T> {
    runs[runs.len().saturating_sub(measured)..]
        .iter()
        .min_by(|a, b| {
            (wall(a) - median)
                .abs()
                .total_cmp(&(wall(b) - median).abs())
        })
}

/// The `rounds_per_stage` column: the compute stages' round counts (stages without rounds left
/// out) as `min-max`, one number when they are all equal, `-` when there are none.
pub fn rounds_range(rounds: impl Iterator<Item = usize>) -> String {
    let compute: Vec<usize> = rounds.filter(|&n| n > 0).collect();
    match (compute.iter().min(), compute.iter().max()) {
        (Some(lo), Some(hi)) if lo == hi => lo.to_string(),
        (Some(lo), Some(hi)) => format!("{lo}-{hi}"),
        _ => "-".into(),
    }
}
