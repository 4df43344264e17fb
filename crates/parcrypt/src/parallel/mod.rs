//! Parallel machinery shared by every algorithm — OpenMP-style loop schedules, thread teams and
//! pools, thread pinning, a static buffer split, a lock-free SPSC ring. It knows no algorithm:
//! the parallel cipher forms built on it live in `cipher::parallel`.
pub mod affinity;
pub mod pool;
pub mod schedule;
pub mod split;
pub mod spsc;
pub mod team;

/// Hardware threads this process may use (1 when unknown): the default thread count of the
/// parallel forms, and what a benchmark calls oversubscribed beyond.
pub fn logical_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// A joined thread's value, or its panic carried on into the joining thread (a worker's
/// panic is the caller's panic, as if the work had run inline).
pub fn joined<T>(result: std::thread::Result<T>) -> T {
    result.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

pub use schedule::{Executor, RunStats, Schedule, ScheduleSpec, ThreadStats};
pub use team::team;
