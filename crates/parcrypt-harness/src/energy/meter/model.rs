//! A software power meter in the spirit of Joulemeter (cipher-energy): energy from the process's
//! CPU time and a processor preset's power model — `model:<preset>`.
//!
//! Over an interval of wall time `t` in which this process (with the children it has waited
//! for) used `c` seconds of CPU, `c / t` cores were busy on average, so the chip drew
//! `P(c / t)` — the preset's [`LinearPower`]: its idle power plus, per busy core,
//! C_eff V^2 f (less what that core drew idle) — and the energy is `P(c / t) x t`.
//!
//! CPU time comes from `/proc/self/stat` (utime + stime + cutime + cstime, no libc needed),
//! which counts in clock ticks of 1/100 s (Linux's USER_HZ): a single reading of a run shorter
//! than a few ticks is coarse, and only the mean over many runs is meaningful. Other
//! processes are not counted (unlike RAPL): the reading is this program's share.
use std::path::PathBuf;

use super::{EnergyMeter, Reading};
use crate::bench::{Clock, RealClock};
use crate::energy::power_model::LinearPower;
use crate::energy::units::Seconds;
use crate::error::{EnergyError, EnergyResult};

/// Clock ticks per second of `/proc/*/stat` times (USER_HZ, 100 on every Linux architecture
/// in use; libc's `sysconf(_SC_CLK_TCK)` is not available without the libc crate).
pub const USER_HZ: f64 = 100.0;

/// A source of process CPU time.
pub trait CpuClock {
    /// CPU seconds used so far.
    fn cpu_seconds(&self) -> EnergyResult<Seconds>;
    /// The smallest step of [`cpu_seconds`](CpuClock::cpu_seconds).
    fn resolution(&self) -> Seconds;
}

/// CPU time of this process and its waited-for children, from `/proc/self/stat`.
#[derive(Debug, Clone)]
pub struct ProcSelfStat {
    path: PathBuf,
}

impl Default for ProcSelfStat {
    fn default() -> Self {
        Self {
            path: PathBuf::from("/proc/self/stat"),
        }
    }
}

impl ProcSelfStat {
    /// Reads another stat file (tests).
    pub fn at(path: impl Into<PathBuf>) -> Self {
        Self { path: path.into() }
    }
}

/// utime + stime + cutime + cstime, in ticks, from the text of a `/proc/PID/stat` file.
/// The command name (field 2) may hold spaces and parentheses, so fields are counted after
/// its last `)`.
pub fn stat_cpu_ticks(text: &str) -> Option<u64> {
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // rest[0] is field 3 (state); utime is field 14.
    let tick = |field: usize| fields.get(field - 3)?.parse::<i64>().ok();
    let sum = tick(14)? + tick(15)? + tick(16)? + tick(17)?;
    u64::try_from(sum).ok()
}

impl CpuClock for ProcSelfStat {
    fn cpu_seconds(&self) -> EnergyResult<Seconds> {
        let text =
            std::fs::read_to_string(&self.path).map_err(|e| EnergyError::read(&self.path, e))?;
        let ticks = stat_cpu_ticks(&text).ok_or_else(|| EnergyError::Parse {
            path: self.path.clone(),
            text: text.trim().chars().take(80).collect(),
        })?;
        Ok(ticks as f64 / USER_HZ)
    }

    fn resolution(&self) -> Seconds {
        1.0 / USER_HZ
    }
}

/// The model meter.
#[derive(Debug)]
pub struct ModelMeter<C: CpuClock = ProcSelfStat, K: Clock = RealClock> {
    line: LinearPower,
    source: String,
    cpu: C,
    clock: K,
    start: Option<(Seconds, Seconds)>,
}

impl ModelMeter {
    /// A meter of this process on the real clock.
    pub fn new(line: LinearPower, source: impl Into<String>) -> Self {
        Self::with(line, source, ProcSelfStat::default(), RealClock::new())
    }
}

impl<C: CpuClock, K: Clock> ModelMeter<C, K> {
    /// A meter with the given CPU-time source and wall clock (fakes in tests).
    pub fn with(line: LinearPower, source: impl Into<String>, cpu: C, clock: K) -> Self {
        Self {
            line,
            source: source.into(),
            cpu,
            clock,
            start: None,
        }
    }

    /// The power line the meter integrates.
    pub fn line(&self) -> &LinearPower {
        &self.line
    }

    /// Resolution of the CPU time it reads.
    pub fn resolution(&self) -> Seconds {
        self.cpu.resolution()
    }
}

impl<C: CpuClock, K: Clock> EnergyMeter for ModelMeter<C, K> {
    fn source(&self) -> String {
        self.source.clone()
    }

    fn start(&mut self) -> EnergyResult<()> {
        self.start = Some((self.clock.now(), self.cpu.cpu_seconds()?));
        Ok(())
    }

    fn stop(&mut self) -> EnergyResult<Reading> {
        let (wall0, cpu0) = self.start.take().ok_or_else(|| {
            EnergyError::InvalidParameter("model meter stopped before it was started".into())
        })?;
        let cpu = (self.cpu.cpu_seconds()? - cpu0).max(0.0);
        let wall = (self.clock.now() - wall0).max(0.0);
        let busy = if wall > 0.0 { cpu / wall } else { 0.0 };
        let mut reading = Reading::new(self.line.watts(busy) * wall, wall, self.source.clone());
        reading.cpu_seconds = Some(cpu);
        Ok(reading)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::FakeClock;
    use std::cell::Cell;

    /// CPU time that moves only when told.
    #[derive(Default)]
    struct FakeCpu(Cell<f64>);
    impl CpuClock for &FakeCpu {
        fn cpu_seconds(&self) -> EnergyResult<Seconds> {
            Ok(self.0.get())
        }
        fn resolution(&self) -> Seconds {
            0.0
        }
    }

    const LINE: LinearPower = LinearPower {
        base_w: 10.0,
        per_busy_core_w: 5.0,
        cores: 4,
    };

    #[test]
    fn energy_is_idle_power_plus_busy_cores() {
        let (cpu, clock) = (FakeCpu::default(), FakeClock::new());
        let mut m = ModelMeter::with(LINE, "model:test", &cpu, &clock);
        m.start().unwrap();
        clock.advance(2.0);
        cpu.0.set(3.0); // 1.5 cores busy for 2 s
        let r = m.stop().unwrap();
        assert_eq!(r.joules, (10.0 + 1.5 * 5.0) * 2.0);
        assert_eq!((r.seconds, r.cpu_seconds, r.watts), (2.0, Some(3.0), 17.5));
        assert_eq!(r.source, "model:test");
        // More busy cores than the chip has: capped at 4.
        m.start().unwrap();
        clock.advance(1.0);
        cpu.0.set(13.0);
        assert_eq!(m.stop().unwrap().joules, 30.0);
        // An empty interval is 0 J, not NaN.
        m.start().unwrap();
        assert_eq!(m.stop().unwrap().joules, 0.0);
        assert!(m.stop().is_err());
    }

    #[test]
    fn proc_stat_parses_even_with_odd_command_names() {
        let line = "4242 (my (odd) prog) R 1 2 3 4 5 6 7 8 9 10 150 50 7 3 20 0 1 0 100 0 0";
        assert_eq!(stat_cpu_ticks(line), Some(150 + 50 + 7 + 3));
        assert_eq!(stat_cpu_ticks("garbage"), None);
        let own = ProcSelfStat::default();
        let before = own.cpu_seconds().unwrap();
        let mut x = 0u64;
        let t = std::time::Instant::now();
        while t.elapsed().as_millis() < 60 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        assert!(own.cpu_seconds().unwrap() >= before);
        assert_eq!(own.resolution(), 0.01);
        let bad = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(bad.path(), "no parenthesis").unwrap();
        assert!(matches!(
            ProcSelfStat::at(bad.path()).cpu_seconds(),
            Err(EnergyError::Parse { .. })
        ));
    }
}
