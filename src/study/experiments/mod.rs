//! The experiments of the study, one file per seed paper, and the helpers they share.
pub mod seed000;
pub mod seed000_model;
pub mod seed001;
pub mod seed002;
pub mod seed003;
pub mod seed003_mul;
pub mod seed004;

use super::{Experiment, Profile};
use crate::bench::BenchConfig;

/// Every experiment, in report order.
pub fn all() -> Vec<Box<dyn Experiment>> {
    let mut v: Vec<Box<dyn Experiment>> = Vec::new();
    v.extend(seed000::experiments());
    v.extend(seed000_model::experiments());
    v.extend(seed001::experiments());
    v.extend(seed002::experiments());
    v.extend(seed003::experiments());
    v.extend(seed003_mul::experiments());
    v.extend(seed004::experiments());
    v
}

/// Repetition rules for a profile: at least 5 runs and 0.3 s per configuration for `quick`
/// (the whole quick study takes a few minutes on 2 cores); 7 runs and 2 s for `full`.
pub fn bench_config(profile: Profile) -> BenchConfig {
    match profile {
        Profile::Quick => BenchConfig {
            warmup_runs: 1,
            min_runs: 5,
            min_time: 0.3,
            max_runs: 30,
        },
        Profile::Full => BenchConfig {
            warmup_runs: 1,
            min_runs: 7,
            min_time: 2.0,
            max_runs: 50,
        },
    }
}

/// A JSON number cell.
pub fn num(x: f64) -> serde_json::Value {
    serde_json::json!(x)
}

/// A JSON text cell.
pub fn text(s: impl Into<String>) -> serde_json::Value {
    serde_json::Value::String(s.into())
}

/// Time reduction in % for a speedup s: 1 − 1/s (the papers' "x % performance improvement").
pub fn reduction_pct(speedup: f64) -> f64 {
    (1.0 - 1.0 / speedup) * 100.0
}
