//! A deterministic meter for tests: every measured interval reads a fixed number of seconds at
//! a fixed power, and it can be told to fail after some readings.
use super::{EnergyMeter, Reading};
use crate::energy::units::{Seconds, Watts};
use crate::error::{EnergyError, EnergyResult};

/// A meter whose every start..stop reads `seconds_per_run` at `watts`.
#[derive(Debug, Clone, PartialEq)]
pub struct FakeMeter {
    /// Power of every reading.
    pub watts: Watts,
    /// Seconds of every reading.
    pub seconds_per_run: Seconds,
    /// Label of the readings (`fake` by default).
    pub source: String,
    /// Readings so far.
    pub readings: usize,
    /// Fail every stop after this many readings.
    pub fail_after: Option<usize>,
    started: bool,
}

impl FakeMeter {
    /// A meter reading `seconds_per_run` at `watts`, labelled `fake`.
    pub fn new(watts: Watts, seconds_per_run: Seconds) -> Self {
        Self {
            watts,
            seconds_per_run,
            source: "fake".into(),
            readings: 0,
            fail_after: None,
            started: false,
        }
    }
}

impl EnergyMeter for FakeMeter {
    fn source(&self) -> String {
        self.source.clone()
    }

    fn start(&mut self) -> EnergyResult<()> {
        self.started = true;
        Ok(())
    }

    fn stop(&mut self) -> EnergyResult<Reading> {
        if !std::mem::take(&mut self.started) {
            return Err(EnergyError::InvalidParameter(
                "fake meter not started".into(),
            ));
        }
        if self.fail_after.is_some_and(|n| self.readings >= n) {
            return Err(EnergyError::InvalidParameter("fake meter failure".into()));
        }
        self.readings += 1;
        Ok(Reading::new(
            self.watts * self.seconds_per_run,
            self.seconds_per_run,
            self.source.clone(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_was_told_and_fails_when_told() {
        let mut m = FakeMeter {
            fail_after: Some(1),
            ..FakeMeter::new(10.0, 0.5)
        };
        assert!(m.stop().is_err(), "not started");
        m.start().unwrap();
        let r = m.stop().unwrap();
        assert_eq!((r.joules, r.seconds, r.watts), (5.0, 0.5, 10.0));
        m.start().unwrap();
        assert!(m.stop().is_err());
    }
}
