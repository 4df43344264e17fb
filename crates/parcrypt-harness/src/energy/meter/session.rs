//! Energy in benchmarks: [`RunMeter`] reads a meter around one measured region (one timed run,
//! or all runs of a configuration), [`EnergyTally`] collects the readings of one configuration
//! and turns them into the four record fields of [`EnergyFields`].
//!
//! Interleaved benchmarks (configurations taking turns, run by run) read the meter around each
//! run, so every joule lands on the configuration that spent it; the warm-up runs are read too
//! and skipped when the fields are made. Keep the timed region *inside* the measured closure,
//! so the meter's own reads are not timed:
//!
//! ```
//! use parcrypt_harness::energy::meter::{EnergyTally, FakeMeter, RunMeter};
//! let mut meter = RunMeter::new(Box::new(FakeMeter::new(20.0, 0.5)));
//! let mut tally = EnergyTally::default();
//! for _ in 0..3 {
//!     let (_seconds, energy) = meter.measure(|| {
//!         let t = std::time::Instant::now();
//!         std::hint::black_box((0..1000u64).sum::<u64>());
//!         t.elapsed().as_secs_f64()
//!     });
//!     tally.push(energy);
//! }
//! let fields = tally.fields(1, Some(1_000_000.0)); // 1 warm-up run; 1 MB per run
//! assert_eq!(fields.energy_j, Some(10.0));
//! assert_eq!(fields.avg_power_w, Some(20.0));
//! assert_eq!(fields.uj_per_byte, Some(10.0));
//! assert_eq!(fields.energy_source, "fake");
//! ```
use serde::{Deserialize, Serialize};
use std::path::Path;

use super::{EnergyMeter, MeterChoice, OpenedMeter, Reading, open_meter, powercap_root};
use crate::energy::power_model::PowerQuery;
use crate::energy::presets;
use crate::energy::units::{Joules, Watts};
use crate::error::EnergyResult;

/// What a meter said about one measured region.
#[derive(Debug, Clone, PartialEq)]
pub enum RunEnergy {
    /// No meter.
    None,
    /// A reading.
    Read(Reading),
    /// The meter failed (the message says why).
    Failed(String),
}

/// A meter for measured regions; it may be absent (`none`).
pub struct RunMeter {
    meter: Option<Box<dyn EnergyMeter>>,
    source: String,
    fallback: Option<String>,
}

impl std::fmt::Debug for RunMeter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RunMeter")
            .field("source", &self.source)
            .field("fallback", &self.fallback)
            .finish()
    }
}

impl RunMeter {
    /// Wraps a meter.
    pub fn new(meter: Box<dyn EnergyMeter>) -> Self {
        Self {
            source: meter.source(),
            meter: Some(meter),
            fallback: None,
        }
    }

    /// Wraps an opened meter, keeping its fallback note.
    pub fn from_opened(opened: OpenedMeter) -> Self {
        Self {
            fallback: opened.fallback,
            ..Self::new(opened.meter)
        }
    }

    /// No meter: every region reads [`RunEnergy::None`] and the source is `none`.
    pub fn none() -> Self {
        Self {
            meter: None,
            source: "none".into(),
            fallback: None,
        }
    }

    /// The meter `choice` on this machine: RAPL under [`powercap_root`], or the model of the
    /// `this-machine` preset (with `profile`, if given) at its default state.
    pub fn open(choice: MeterChoice, profile: Option<&Path>) -> EnergyResult<Self> {
        let preset = presets::this_machine(profile)?;
        let opened = open_meter(choice, &preset, &PowerQuery::default(), &powercap_root())?;
        Ok(Self::from_opened(opened))
    }

    /// `auto` on this machine; if even the model cannot be set up (a malformed
    /// `PARCRYPT_PROFILE`), no meter, with the reason as the fallback note.
    pub fn auto() -> Self {
        Self::open(MeterChoice::Auto, None).unwrap_or_else(|e| Self {
            fallback: Some(format!("no energy meter: {e}")),
            ..Self::none()
        })
    }

    /// `measured:rapl`, `model:<preset>`, `none`, ...
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Why `auto` is not RAPL, if it fell back.
    pub fn fallback(&self) -> Option<&str> {
        self.fallback.as_deref()
    }

    /// Runs `f` between a start and a stop of the meter.
    pub fn measure<R>(&mut self, f: impl FnOnce() -> R) -> (R, RunEnergy) {
        let Some(meter) = self.meter.as_mut() else {
            return (f(), RunEnergy::None);
        };
        if let Err(e) = meter.start() {
            return (f(), RunEnergy::Failed(e.to_string()));
        }
        let out = f();
        let energy = match meter.stop() {
            Ok(r) => RunEnergy::Read(r),
            Err(e) => RunEnergy::Failed(e.to_string()),
        };
        (out, energy)
    }
}

/// The energy fields every benchmark record carries (flattened into it: the four columns
/// `energy_j`, `avg_power_w`, `uj_per_byte`, `energy_source`). Records written before a
/// field existed still read: a missing field is `null` (the source empty).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct EnergyFields {
    /// Energy of one run (mean over the measured runs), joules; `null` without a meter.
    pub energy_j: Option<Joules>,
    /// Average power over the measured runs (their energy / their time), watts.
    pub avg_power_w: Option<Watts>,
    /// Energy per byte processed, microjoules; `null` where bytes do not apply.
    pub uj_per_byte: Option<f64>,
    /// `measured:rapl`, `model:<preset>`, `none`, or `unavailable: <why>`.
    pub energy_source: String,
}

impl EnergyFields {
    /// The fields of a configuration with no meter.
    pub fn none() -> Self {
        Self {
            energy_source: "none".into(),
            ..Self::default()
        }
    }

    /// The fields from one reading that covered `runs` runs of `bytes_per_run` bytes each.
    pub fn from_reading(reading: &Reading, runs: usize, bytes_per_run: Option<f64>) -> Self {
        let per_run = reading.joules / runs.max(1) as f64;
        Self {
            energy_j: Some(per_run),
            avg_power_w: Some(reading.watts),
            uj_per_byte: bytes_per_run
                .filter(|b| *b > 0.0)
                .map(|b| per_run * 1e6 / b),
            energy_source: reading.source.clone(),
        }
    }
}

/// The meter readings of one configuration, in run order (warm-ups included).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EnergyTally {
    runs: Vec<RunEnergy>,
}

impl EnergyTally {
    /// Adds one run's energy.
    pub fn push(&mut self, energy: RunEnergy) {
        self.runs.push(energy);
    }

    /// Runs recorded so far.
    pub fn len(&self) -> usize {
        self.runs.len()
    }

    /// Whether no run was recorded.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The fields over the runs after the first `warmup` ones; `bytes_per_run` gives
    /// `uj_per_byte`. A failed reading makes the fields `null` with `unavailable: <why>`.
    pub fn fields(&self, warmup: usize, bytes_per_run: Option<f64>) -> EnergyFields {
        let measured = self.runs.get(warmup..).unwrap_or(&[]);
        if let Some(why) = measured.iter().find_map(|r| match r {
            RunEnergy::Failed(why) => Some(why),
            _ => None,
        }) {
            return EnergyFields {
                energy_source: format!("unavailable: {why}"),
                ..EnergyFields::default()
            };
        }
        let readings: Vec<&Reading> = measured
            .iter()
            .filter_map(|r| match r {
                RunEnergy::Read(r) => Some(r),
                _ => None,
            })
            .collect();
        let Some(first) = readings.first() else {
            return EnergyFields::none();
        };
        let joules: f64 = readings.iter().map(|r| r.joules).sum();
        let seconds: f64 = readings.iter().map(|r| r.seconds).sum();
        let mut total = Reading::new(joules, seconds, first.source.clone());
        if seconds <= 0.0 {
            total.watts = 0.0;
        }
        EnergyFields::from_reading(&total, readings.len(), bytes_per_run)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::energy::meter::FakeMeter;

    #[test]
    fn warmups_are_skipped_and_failures_are_reported() {
        let mut meter = RunMeter::new(Box::new(FakeMeter::new(4.0, 0.25)));
        let mut tally = EnergyTally::default();
        for _ in 0..4 {
            let ((), e) = meter.measure(|| ());
            tally.push(e);
        }
        let f = tally.fields(2, None);
        assert_eq!(
            (f.energy_j, f.avg_power_w, f.uj_per_byte),
            (Some(1.0), Some(4.0), None)
        );
        assert_eq!(tally.fields(9, None), EnergyFields::none());
        tally.push(RunEnergy::Failed("boom".into()));
        let f = tally.fields(0, Some(10.0));
        assert_eq!(f.energy_j, None);
        assert_eq!(f.energy_source, "unavailable: boom");
    }

    #[test]
    fn no_meter_gives_null_fields_and_auto_always_gives_a_meter_here() {
        let mut none = RunMeter::none();
        let (v, e) = none.measure(|| 7);
        assert_eq!((v, e), (7, RunEnergy::None));
        let mut tally = EnergyTally::default();
        tally.push(RunEnergy::None);
        assert_eq!(tally.fields(0, Some(1.0)).energy_source, "none");
        let auto = RunMeter::auto();
        assert!(
            auto.source() == "measured:rapl" || auto.source().starts_with("model:"),
            "{auto:?}"
        );
    }

    #[test]
    fn one_reading_over_many_runs() {
        let r = Reading::new(12.0, 3.0, "measured:rapl");
        let f = EnergyFields::from_reading(&r, 4, Some(3e6));
        assert_eq!(f.energy_j, Some(3.0));
        assert_eq!(f.avg_power_w, Some(4.0));
        assert_eq!(f.uj_per_byte, Some(1.0));
    }
}
