//! Energy meters: one [`EnergyMeter`] trait (start, stop -> joules, seconds, watts, source),
//! one file per meter, and exactly one `match` ([`open_meter`]) that picks the meter.
//!
//! - [`rapl`]: Intel/AMD RAPL package counters through Linux powercap — `measured:rapl`;
//! - [`model`]: a software power meter in the spirit of Joulemeter (cipher-energy): the process's
//!   CPU time and a processor preset's power model — `model:<preset>`;
//! - [`fake`]: a deterministic meter for tests;
//! - [`session`]: [`RunMeter`] and [`EnergyTally`], how benchmarks measure energy around
//!   each timed run and turn the readings into record fields.
//!
//! `auto` picks RAPL when its counters can be read and the model otherwise, and says why in
//! [`OpenedMeter::fallback`]; `rapl` never falls back.
pub mod fake;
pub mod model;
pub mod rapl;
pub mod session;

use serde::Serialize;
use std::path::PathBuf;

use super::power_model::{LinearPower, PowerQuery};
use super::presets::Preset;
use super::units::{Joules, Seconds, Watts};
use crate::error::{EnergyError, EnergyResult};

pub use fake::FakeMeter;
pub use model::{CpuClock, ModelMeter, ProcSelfStat};
pub use rapl::RaplMeter;
pub use session::{EnergyFields, EnergyTally, RunMeter};

/// Environment variable overriding the powercap root (`/sys/class/powercap`), for tests.
pub const POWERCAP_ROOT_ENV: &str = "PARCRYPT_POWERCAP_ROOT";

/// A meter of the energy spent between [`start`](EnergyMeter::start) and
/// [`stop`](EnergyMeter::stop).
pub trait EnergyMeter {
    /// Where readings come from: `measured:rapl`, `model:<preset>`, ...
    fn source(&self) -> String;
    /// Starts a measurement (a second start restarts it).
    fn start(&mut self) -> EnergyResult<()>;
    /// Ends the measurement and returns its reading.
    fn stop(&mut self) -> EnergyResult<Reading>;
    /// Folds in counter progress during a long measurement (RAPL counters wrap; a poll at
    /// least once per wrap period keeps the reading right). The default does nothing.
    fn poll(&mut self) -> EnergyResult<()> {
        Ok(())
    }
}

/// Energy of one domain (a RAPL package), for readings that have several.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DomainEnergy {
    /// Domain name (`package-0`).
    pub name: String,
    /// Its energy.
    pub joules: Joules,
}

/// One measurement.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reading {
    /// Energy between start and stop.
    pub joules: Joules,
    /// Wall time between start and stop.
    pub seconds: Seconds,
    /// Average power, `joules / seconds` (0 for an empty interval).
    pub watts: Watts,
    /// `measured:rapl`, `model:<preset>`, ...
    pub source: String,
    /// CPU time of this process and its waited-for children (model meter only).
    pub cpu_seconds: Option<Seconds>,
    /// Per-domain energies (RAPL: one per package).
    pub domains: Vec<DomainEnergy>,
}

impl Reading {
    /// A reading of `joules` over `seconds` from `source`.
    pub fn new(joules: Joules, seconds: Seconds, source: impl Into<String>) -> Self {
        Self {
            joules,
            seconds,
            watts: if seconds > 0.0 { joules / seconds } else { 0.0 },
            source: source.into(),
            cpu_seconds: None,
            domains: Vec::new(),
        }
    }
}

/// Which meter to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MeterChoice {
    /// RAPL when readable, else the model.
    #[default]
    Auto,
    /// RAPL only: an error when it cannot be read.
    Rapl,
    /// The model only.
    Model,
}

impl std::str::FromStr for MeterChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(Self::Auto),
            "rapl" => Ok(Self::Rapl),
            "model" => Ok(Self::Model),
            _ => Err(format!("unknown meter '{s}' (known: auto, rapl, model)")),
        }
    }
}

/// A meter and, for `auto`, why it is not RAPL.
pub struct OpenedMeter {
    /// The meter.
    pub meter: Box<dyn EnergyMeter>,
    /// `auto` fell back to the model: the reason RAPL could not be used.
    pub fallback: Option<String>,
}

impl std::fmt::Debug for OpenedMeter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenedMeter")
            .field("source", &self.meter.source())
            .field("fallback", &self.fallback)
            .finish()
    }
}

/// The powercap root: `$PARCRYPT_POWERCAP_ROOT`, else `/sys/class/powercap`.
pub fn powercap_root() -> PathBuf {
    std::env::var_os(POWERCAP_ROOT_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(rapl::DEFAULT_ROOT), PathBuf::from)
}

/// Opens the meter `choice` asks for. The model meter uses `preset` at the operating point
/// `query`; RAPL reads the tree under `powercap_root`.
pub fn open_meter(
    choice: MeterChoice,
    preset: &Preset,
    query: &PowerQuery,
    powercap_root: &std::path::Path,
) -> EnergyResult<OpenedMeter> {
    let model = || -> EnergyResult<Box<dyn EnergyMeter>> {
        let line = LinearPower::of(preset, query)?;
        Ok(Box::new(ModelMeter::new(line, preset.source())))
    };
    match choice {
        MeterChoice::Rapl => Ok(OpenedMeter {
            meter: Box::new(RaplMeter::open(powercap_root)?),
            fallback: None,
        }),
        MeterChoice::Model => Ok(OpenedMeter {
            meter: model()?,
            fallback: None,
        }),
        MeterChoice::Auto => match RaplMeter::open(powercap_root) {
            Ok(m) => Ok(OpenedMeter {
                meter: Box::new(m),
                fallback: None,
            }),
            Err(
                e @ (EnergyError::PowercapMissing { .. }
                | EnergyError::PowercapPermission { .. }
                | EnergyError::Read { .. }
                | EnergyError::Parse { .. }),
            ) => Ok(OpenedMeter {
                meter: model()?,
                fallback: Some(format!(
                    "RAPL not used ({e}); energy is modelled ({})",
                    preset.source()
                )),
            }),
            Err(e) => Err(e),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::energy::presets::preset;

    #[test]
    fn auto_falls_back_to_the_model_without_powercap_and_says_so() {
        let empty = tempfile::tempdir().unwrap();
        let p = preset("core-i7", None).unwrap();
        let opened =
            open_meter(MeterChoice::Auto, &p, &PowerQuery::default(), empty.path()).unwrap();
        assert_eq!(opened.meter.source(), "model:core-i7");
        let why = opened.fallback.unwrap();
        assert!(
            why.contains("no RAPL energy counters") && why.contains("model:core-i7"),
            "{why}"
        );
        let err =
            open_meter(MeterChoice::Rapl, &p, &PowerQuery::default(), empty.path()).unwrap_err();
        assert!(matches!(err, EnergyError::PowercapMissing { .. }));
        let m = open_meter(MeterChoice::Model, &p, &PowerQuery::default(), empty.path()).unwrap();
        assert!(m.fallback.is_none());
        assert_eq!("rapl".parse::<MeterChoice>(), Ok(MeterChoice::Rapl));
        assert!("joulemeter".parse::<MeterChoice>().is_err());
    }

    #[test]
    fn on_this_machine_auto_is_the_model_unless_rapl_is_readable() {
        // This machine has no powercap tree; where one is readable the meter is RAPL.
        let p = preset("this-machine", None).unwrap();
        let root = powercap_root();
        let opened = open_meter(MeterChoice::Auto, &p, &PowerQuery::default(), &root).unwrap();
        match RaplMeter::open(&root) {
            Ok(_) => assert_eq!(opened.meter.source(), "measured:rapl"),
            Err(_) => {
                assert_eq!(opened.meter.source(), "model:this-machine");
                assert!(opened.fallback.is_some());
            }
        }
    }
}
