//! Parallel machinery shared by every algorithm: OpenMP-style loop schedules and thread pinning.
pub mod affinity;
pub mod schedule;
pub mod team;

pub use schedule::{Executor, RunStats, Schedule, ScheduleSpec, ThreadStats};
pub use team::team;
