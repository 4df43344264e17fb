//! Parallel machinery shared by every algorithm — OpenMP-style loop schedules, thread pinning,
//! a static buffer split, a lock-free SPSC ring — and the parallel cipher forms: PBlock, the
//! Blowfish round pipeline (seed 001's layout and the folded one), PARC4 and PARC4-I.
pub mod affinity;
pub mod bf_folded;
pub mod bf_pipeline;
pub mod parc4;
pub mod parc4i;
pub mod pblock;
pub mod pool;
pub mod schedule;
pub mod split;
pub mod spsc;
pub mod team;

pub use schedule::{Executor, RunStats, Schedule, ScheduleSpec, ThreadStats};
pub use team::team;
