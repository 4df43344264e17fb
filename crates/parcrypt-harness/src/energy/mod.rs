//! Energy, power and clock frequency: measured where the machine allows it, modelled where it
//! does not, and always labelled which (`measured:rapl`, `model:<preset>`).
//!
//! - [`meter`]: the [`EnergyMeter`](meter::EnergyMeter) trait — RAPL through powercap, a
//!   Joulemeter-style model from process CPU time, a fake — and [`RunMeter`](meter::RunMeter) /
//!   [`EnergyTally`](meter::EnergyTally) for energy in benchmarks;
//! - [`presets`]: the processors of the seeds (`core2duo`, `core-i3`, `core-i5`, `core-i7`,
//!   `t5270`, `fx-8320`, `scc`) and `this-machine`; [`profile`]: their TOML form and
//!   calibration;
//! - [`power_model`]: chip power at an operating point (reproduces PaRSA's Tables 4-7);
//!   [`first_principles`]: alpha C V^2 f with node scaling, and its error against the tables;
//! - [`parsa`]: the tables themselves and Table 8 recomputed;
//! - [`dvfs`]: set the clock through cpufreq, or model it — every result says which;
//! - [`units`]: `Joules`, `Watts`, `MegaHertz`, ... ; errors: [`EnergyError`] (in
//!   [`crate::error`]).
//!
//! ```
//! use parcrypt_harness::energy::power_model::{PowerQuery, estimate};
//! use parcrypt_harness::energy::presets::preset;
//! let i7 = preset("core-i7", None)?;
//! let p = estimate(&i7, &PowerQuery { node_nm: Some(22), mhz: Some(2400.0), ..Default::default() })?;
//! assert!((p.p_total_w - 19.04).abs() < 1e-9); // Table 7: 6.53 W + 12.51 W
//! assert_eq!(p.source, "paper:parsa-table-7"); // a table row, as printed (rebuilt: see notes)
//! assert!(p.notes[0].starts_with("Table 7 row rebuilt"));
//! # Ok::<(), parcrypt_harness::energy::EnergyError>(())
//! ```
pub mod dvfs;
pub mod first_principles;
pub mod meter;
pub mod parsa;
pub mod power_model;
pub mod presets;
pub mod profile;
pub mod units;

pub use crate::error::{EnergyError, EnergyResult};
pub use units::{Joules, MegaHertz, Nanometres, Seconds, Volts, Watts};
