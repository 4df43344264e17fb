//! The benchmark harness, hyperfine-style.
//!
//! - [`clock`]: the [`Seconds`] unit and the [`Clock`] trait, with the real clock and a
//!   [`FakeClock`] that moves only when told, so the timing logic is tested deterministically.
//! - [`harness`]: [`Bench`] runs a closure — warm-up runs first, not recorded — until at least
//!   `min_runs` runs *and* `min_time` seconds were measured, at most `max_runs` runs
//!   ([`BenchConfig`]), and returns the [`Measurement`]. [`Bench::run_timed`] takes a closure
//!   that times only its own region, for runs whose setup must not count.
//! - [`stats`]: [`Summary`] — median, mean, min, max, standard deviation and a
//!   distribution-free 95 % confidence interval of the median (none from fewer than
//!   [`MIN_RUNS_FOR_CI`] runs), the [`Outliers`] by Tukey's fences, and a [`Summary::note`]
//!   for people when the machine looks noisy.
//! - [`timing`]: [`TimingFields`], the timing columns every benchmark record flattens, built
//!   from a [`Summary`] with the [`TimingColumns`] the record carries.
//! - [`machine`]: [`MachineInfo`] — CPU, cores, caches, GMP, rustc and OS versions — stored
//!   with every report.
//! - [`grid`]: parameter sweeps like hyperfine's `-L`: the cartesian product of named lists.
//! - [`export`](mod@export): a [`BenchReport`] written as JSON, CSV, Markdown or a plain
//!   table by the [`Exporter`] that [`exporter_for`] picks; files are written atomically
//!   ([`export()`]), tables for the screen come from [`render`].
//! - [`capacity`]: the free-core probe — how much parallel throughput the machine gives now —
//!   measured beside every parallel figure.
//! - [`memory`]: the machine's memory, checked before a benchmark allocates its buffers.
//! - [`progress`]: a progress bar on stderr for long sweeps, hidden when not on a terminal.
//! - [`tsc`]: the time-stamp counter, for cycles per byte.
//! - [`welch`]: Welch's t-test on two classes of timings with dudect's cropping, for the
//!   timing-leak test.
//!
//! The benchmark drivers that use this harness are the lab's `suites` and `parcrypt-mpi`'s benches.
//!
//! ```
//! use parcrypt_harness::bench::{Bench, BenchConfig, Summary};
//! let bench = Bench::new(BenchConfig { min_time: 0.0, ..BenchConfig::default() })?;
//! let summary: Summary = bench.run(|| (1..=1000u64).sum::<u64>()).summary().unwrap();
//! assert_eq!(summary.runs, 5);
//! # Ok::<(), parcrypt_harness::Error>(())
//! ```
pub mod capacity;
pub mod clock;
pub mod cpu_id;
pub mod export;
pub mod failure;
pub mod grid;
pub mod harness;
pub mod machine;
pub mod memory;
pub mod progress;
pub mod stats;
pub mod timing;
pub mod tsc;
pub mod welch;

pub use clock::{Clock, FakeClock, RealClock, Seconds, format_seconds};
pub use export::{
    BenchReport, ExportFormat, Exporter, export, exporter_for, format_number, render, render_report,
};
pub use failure::{Failures, fingerprint, planted_fault};
pub use grid::{Grid, ParamValue, Point, product};
pub use harness::{Bench, BenchConfig, Measurement, Sampled, Step, summaries};
pub use machine::{MachineInfo, logical_cores, oversubscribed};
pub use progress::Progress;
pub use stats::{MIN_RUNS_FOR_CI, Outliers, Summary};
pub use timing::{TimingColumns, TimingFields};
