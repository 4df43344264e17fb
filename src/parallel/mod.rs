//! Parallel machinery shared by every algorithm — OpenMP-style loop schedules, thread teams and
//! pools, thread pinning, a static buffer split, a lock-free SPSC ring. It knows no algorithm:
//! the parallel cipher forms built on it live in `cipher::parallel`.
pub mod affinity;
pub mod pool;
pub mod schedule;
pub mod split;
pub mod spsc;
pub mod team;

pub use schedule::{Executor, RunStats, Schedule, ScheduleSpec, ThreadStats};
pub use team::team;
