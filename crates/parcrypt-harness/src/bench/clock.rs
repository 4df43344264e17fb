//! Time as the harness sees it: the `Seconds` unit, a `Clock` trait, the real monotonic clock
//! and a fake clock that only moves when told, so timing logic is tested without real timing.
use std::cell::Cell;
use std::time::Instant;

/// A duration or a point in time, in seconds.
pub type Seconds = f64;

/// A monotonic clock read in seconds from an arbitrary origin.
///
/// Only differences between two readings of the same clock are meaningful.
pub trait Clock {
    /// The current time, in seconds since this clock's origin.
    fn now(&self) -> Seconds;

    /// Runs `f` once and returns its result with the time it took on this clock.
    fn time<R>(&self, f: impl FnOnce() -> R) -> (R, Seconds) {
        let start = self.now();
        let result = f();
        (result, self.now() - start)
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    fn now(&self) -> Seconds {
        (**self).now()
    }
}

/// The real monotonic clock ([`std::time::Instant`]); its origin is its creation.
#[derive(Debug, Clone, Copy)]
pub struct RealClock {
    origin: Instant,
}

impl RealClock {
    /// A clock whose origin is now.
    pub fn new() -> Self {
        Self {
            origin: Instant::now(),
        }
    }
}

impl Default for RealClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for RealClock {
    fn now(&self) -> Seconds {
        self.origin.elapsed().as_secs_f64()
    }
}

/// A clock for tests: it stands still until [`FakeClock::advance`] moves it.
///
/// `advance` takes `&self`, so the code under measurement can move the clock while the harness
/// holds a shared reference to it — "this run took 0.2 s" is one call:
///
/// ```
/// use parcrypt_harness::bench::{Clock, FakeClock};
/// let clock = FakeClock::new();
/// let ((), took) = clock.time(|| clock.advance(0.2));
/// assert_eq!(took, 0.2);
/// ```
#[derive(Debug, Default)]
pub struct FakeClock {
    now: Cell<Seconds>,
    reads: Cell<u64>,
}

impl FakeClock {
    /// A fake clock standing at time 0.
    pub fn new() -> Self {
        Self::default()
    }

    /// A fake clock standing at `start` seconds.
    pub fn starting_at(start: Seconds) -> Self {
        Self {
            now: Cell::new(start),
            reads: Cell::new(0),
        }
    }

    /// Moves the clock forward by `secs` seconds.
    pub fn advance(&self, secs: Seconds) {
        self.now.set(self.now.get() + secs);
    }

    /// How many times [`Clock::now`] has been read (to check the harness does not over-read).
    pub fn reads(&self) -> u64 {
        self.reads.get()
    }
}

impl Clock for FakeClock {
    fn now(&self) -> Seconds {
        self.reads.set(self.reads.get() + 1);
        self.now.get()
    }
}

/// Formats a duration for people, with a unit that keeps 4 significant digits readable:
/// `"1.234 s"`, `"12.50 ms"`, `"830.0 µs"`, `"45.00 ns"`.
pub fn format_seconds(secs: Seconds) -> String {
    if !secs.is_finite() {
        return format!("{secs} s");
    }
    let (value, unit) = match secs.abs() {
        a if a == 0.0 || a >= 1.0 => (secs, "s"),
        a if a >= 1e-3 => (secs * 1e3, "ms"),
        a if a >= 1e-6 => (secs * 1e6, "µs"),
        _ => (secs * 1e9, "ns"),
    };
    let decimals = match value.abs() {
        a if a >= 1000.0 => 0,
        a if a >= 100.0 => 1,
        a if a >= 10.0 => 2,
        _ => 3,
    };
    format!("{value:.decimals$} {unit}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fake_clock_moves_only_when_told() {
        let clock = FakeClock::starting_at(10.0);
        assert_eq!(clock.now(), 10.0);
        assert_eq!(clock.now(), 10.0);
        clock.advance(0.25);
        assert_eq!(clock.now(), 10.25);
        assert_eq!(clock.reads(), 3);
    }

    #[test]
    fn time_measures_the_closure_on_the_given_clock() {
        let clock = FakeClock::new();
        let (value, took) = clock.time(|| {
            clock.advance(1.5);
            42
        });
        assert_eq!((value, took), (42, 1.5));
        // Through a reference too (the harness takes clocks by reference).
        let by_ref = &clock;
        let ((), took) = by_ref.time(|| clock.advance(0.5));
        assert_eq!(took, 0.5);
    }

    #[test]
    fn real_clock_is_monotonic_and_starts_near_zero() {
        let clock = RealClock::new();
        let a = clock.now();
        let b = clock.now();
        assert!(a >= 0.0 && b >= a);
        assert!(a < 1.0, "origin is the clock's creation");
    }

    #[test]
    fn durations_are_formatted_with_a_readable_unit() {
        assert_eq!(format_seconds(1.23456), "1.235 s");
        assert_eq!(format_seconds(1234.4), "1234 s");
        assert_eq!(format_seconds(0.0125), "12.50 ms");
        assert_eq!(format_seconds(0.000_83), "830.0 µs");
        assert_eq!(format_seconds(45e-9), "45.00 ns");
        assert_eq!(format_seconds(0.0), "0.000 s");
        assert_eq!(format_seconds(f64::INFINITY), "inf s");
    }
}
