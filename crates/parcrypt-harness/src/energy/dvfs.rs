//! Clock frequency: set it through cpufreq's `userspace` governor where the machine allows it
//! (and put everything back afterwards), otherwise model it — time scales as `f_ref / f` on the
//! part of the work that is not memory-bound. Every result says `set` or `modelled`.
//!
//! cpufreq lives under `/sys/devices/system/cpu/cpuN/cpufreq/` (`scaling_governor`,
//! `scaling_available_governors`, `scaling_setspeed`, `scaling_available_frequencies`,
//! `scaling_cur_freq`, all in kHz); the root is configurable so tests use a fake tree.
use serde::Serialize;
use std::path::{Path, PathBuf};

use super::units::{MegaHertz, Seconds};
use crate::error::{EnergyError, EnergyResult};

/// Where cpufreq lives.
pub const DEFAULT_ROOT: &str = "/sys/devices/system/cpu";

/// How a frequency took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FrequencyMode {
    /// The CPUs really ran at it (userspace governor).
    Set,
    /// The run was made at the current clock and its time scaled by [`TimeModel`].
    Modelled,
}

/// Time at another clock: `t(f) = t_ref x ((1 - m) f_ref / f + m)`, `m` the memory-bound
/// fraction (time that does not scale with the core clock).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TimeModel {
    /// The clock the reference time was measured at.
    pub f_ref_mhz: MegaHertz,
    /// Fraction of the time that does not scale with the clock (0 = compute-bound).
    pub memory_bound: f64,
}

impl TimeModel {
    /// A model; `memory_bound` must lie in 0..=1 and `f_ref_mhz` be positive.
    pub fn new(f_ref_mhz: MegaHertz, memory_bound: f64) -> EnergyResult<Self> {
        if !(f_ref_mhz > 0.0 && f_ref_mhz.is_finite()) {
            return Err(EnergyError::InvalidParameter(format!(
                "reference frequency must be positive, got {f_ref_mhz}"
            )));
        }
        if !(0.0..=1.0).contains(&memory_bound) {
            return Err(EnergyError::InvalidParameter(format!(
                "memory-bound fraction must be between 0 and 1, got {memory_bound}"
            )));
        }
        Ok(Self {
            f_ref_mhz,
            memory_bound,
        })
    }

    /// The time at `mhz` of work that took `t_ref` at the reference clock.
    pub fn scale(&self, t_ref: Seconds, mhz: MegaHertz) -> Seconds {
        t_ref * ((1.0 - self.memory_bound) * self.f_ref_mhz / mhz + self.memory_bound)
    }
}

/// A run at a requested clock.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FrequencyRun {
    /// The clock asked for.
    pub mhz: MegaHertz,
    /// `set` or `modelled`.
    pub mode: FrequencyMode,
    /// Time at `mhz`: measured when set, scaled when modelled.
    pub seconds: Seconds,
    /// Time actually measured (at `mhz` when set, at the current clock when modelled).
    pub measured_seconds: Seconds,
    /// Why the clock could not be set (modelled runs).
    pub reason: Option<String>,
}

/// cpufreq under a root directory.
#[derive(Debug, Clone)]
pub struct Cpufreq {
    root: PathBuf,
}

/// What was there before a frequency was set, put back on drop.
#[derive(Debug)]
pub struct FrequencyGuard {
    saved: Vec<(PathBuf, String, Option<String>)>,
}

impl Drop for FrequencyGuard {
    fn drop(&mut self) {
        for (dir, governor, speed) in self.saved.drain(..) {
            // Speed first (only meaningful under userspace), then the governor.
            if let Some(s) = speed {
                let _ = std::fs::write(dir.join("scaling_setspeed"), s);
            }
            let _ = std::fs::write(dir.join("scaling_governor"), governor);
        }
    }
}

impl Cpufreq {
    /// The system's cpufreq.
    pub fn system() -> Self {
        Self::at(DEFAULT_ROOT)
    }

    /// cpufreq under `root` (a fake tree in tests).
    pub fn at(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    /// `cpufreq` directories of every CPU that has one, in CPU order.
    pub fn cpus(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.root) else {
            return Vec::new();
        };
        let mut cpus: Vec<(usize, PathBuf)> = entries
            .filter_map(|e| {
                let e = e.ok()?;
                let n: usize = e.file_name().to_str()?.strip_prefix("cpu")?.parse().ok()?;
                let dir = e.path().join("cpufreq");
                dir.is_dir().then_some((n, dir))
            })
            .collect();
        cpus.sort();
        cpus.into_iter().map(|(_, d)| d).collect()
    }

    /// Frequencies CPU 0 offers, ascending (from `scaling_available_frequencies`).
    pub fn available_mhz(&self) -> EnergyResult<Vec<MegaHertz>> {
        let dir = self.first()?;
        let path = dir.join("scaling_available_frequencies");
        let text = read(&path)?;
        let mut f = text
            .split_whitespace()
            .map(|k| k.parse::<f64>().map(|k| k / 1000.0))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| EnergyError::Parse {
                path: path.clone(),
                text: text.trim().to_string(),
            })?;
        f.sort_by(f64::total_cmp);
        Ok(f)
    }

    /// Current clock of CPU 0.
    pub fn current_mhz(&self) -> EnergyResult<MegaHertz> {
        let path = self.first()?.join("scaling_cur_freq");
        let text = read(&path)?;
        text.trim()
            .parse::<f64>()
            .map(|k| k / 1000.0)
            .map_err(|_| EnergyError::Parse {
                path,
                text: text.trim().to_string(),
            })
    }

    fn first(&self) -> EnergyResult<PathBuf> {
        self.cpus().into_iter().next().ok_or_else(|| {
            EnergyError::Cpufreq(format!("no cpufreq under {}", self.root.display()))
        })
    }

    /// Sets every CPU to `mhz` under the userspace governor; the guard restores the previous
    /// governors and speeds when dropped.
    pub fn set_all(&self, mhz: MegaHertz) -> EnergyResult<FrequencyGuard> {
        let cpus = self.cpus();
        if cpus.is_empty() {
            return Err(EnergyError::Cpufreq(format!(
                "no cpufreq under {}",
                self.root.display()
            )));
        }
        let available = self.available_mhz()?;
        if !available.iter().any(|f| (f - mhz).abs() < 0.5) {
            return Err(EnergyError::Cpufreq(format!(
                "{mhz} MHz is not offered (available: {} MHz)",
                crate::error::join(&available)
            )));
        }
        for dir in &cpus {
            let governors = read(&dir.join("scaling_available_governors"))?;
            if !governors.split_whitespace().any(|g| g == "userspace") {
                return Err(EnergyError::Cpufreq(format!(
                    "the userspace governor is not available (governors: {})",
                    governors.trim()
                )));
            }
        }
        let mut guard = FrequencyGuard { saved: Vec::new() };
        let khz = format!("{}", (mhz * 1000.0).round() as u64);
        for dir in cpus {
            let governor = read(&dir.join("scaling_governor"))?.trim().to_string();
            let speed = read(&dir.join("scaling_setspeed"))
                .ok()
                .map(|s| s.trim().to_string())
                .filter(|s| s.parse::<u64>().is_ok());
            write(&dir.join("scaling_governor"), "userspace")?;
            guard.saved.push((dir.clone(), governor, speed));
            write(&dir.join("scaling_setspeed"), &khz)?;
        }
        Ok(guard)
    }
}

fn read(path: &Path) -> EnergyResult<String> {
    std::fs::read_to_string(path).map_err(|e| EnergyError::read(path, e))
}

fn write(path: &Path, text: &str) -> EnergyResult<()> {
    std::fs::write(path, text)
        .map_err(|e| EnergyError::Cpufreq(format!("cannot write {}: {e}", path.display())))
}

/// Runs `f` (which returns the seconds of its measured region) at `mhz`: really, when cpufreq
/// lets the clock be set, else at the current clock with its time scaled by `model`.
pub fn run_at(
    cpufreq: &Cpufreq,
    mhz: MegaHertz,
    model: &TimeModel,
    f: impl FnOnce() -> Seconds,
) -> FrequencyRun {
    match cpufreq.set_all(mhz) {
        Ok(guard) => {
            let t = f();
            drop(guard);
            FrequencyRun {
                mhz,
                mode: FrequencyMode::Set,
                seconds: t,
                measured_seconds: t,
                reason: None,
            }
        }
        Err(e) => {
            let t = f();
            FrequencyRun {
                mhz,
                mode: FrequencyMode::Modelled,
                seconds: model.scale(t, mhz),
                measured_seconds: t,
                reason: Some(e.to_string()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn tree(governors: &str) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        for cpu in 0..2 {
            let d = root.path().join(format!("cpu{cpu}/cpufreq"));
            fs::create_dir_all(&d).unwrap();
            fs::write(
                d.join("scaling_available_frequencies"),
                "2400000 1200000 1800000\n",
            )
            .unwrap();
            fs::write(
                d.join("scaling_available_governors"),
                format!("{governors}\n"),
            )
            .unwrap();
            fs::write(d.join("scaling_governor"), "ondemand\n").unwrap();
            fs::write(d.join("scaling_setspeed"), "<unsupported>\n").unwrap();
            fs::write(d.join("scaling_cur_freq"), "2400000\n").unwrap();
        }
        fs::create_dir_all(root.path().join("cpufreq")).unwrap(); // not a cpuN entry
        root
    }

    #[test]
    fn the_clock_is_set_and_restored() {
        let root = tree("performance ondemand userspace");
        let cf = Cpufreq::at(root.path());
        assert_eq!(cf.cpus().len(), 2);
        assert_eq!(cf.available_mhz().unwrap(), vec![1200.0, 1800.0, 2400.0]);
        assert_eq!(cf.current_mhz().unwrap(), 2400.0);
        let model = TimeModel::new(2400.0, 0.0).unwrap();
        let gov = |cpu: usize| {
            fs::read_to_string(
                root.path()
                    .join(format!("cpu{cpu}/cpufreq/scaling_governor")),
            )
            .unwrap()
        };
        let run = run_at(&cf, 1200.0, &model, || {
            assert_eq!(gov(1), "userspace");
            let speed =
                fs::read_to_string(root.path().join("cpu1/cpufreq/scaling_setspeed")).unwrap();
            assert_eq!(speed, "1200000");
            0.5
        });
        assert_eq!(
            (run.mode, run.seconds, run.reason),
            (FrequencyMode::Set, 0.5, None)
        );
        assert_eq!((gov(0), gov(1)), ("ondemand".into(), "ondemand".into()));
    }

    #[test]
    fn without_userspace_or_cpufreq_the_time_is_modelled() {
        let model = TimeModel::new(2400.0, 0.25).unwrap();
        let root = tree("performance powersave");
        let run = run_at(&Cpufreq::at(root.path()), 1200.0, &model, || 1.0);
        assert_eq!(run.mode, FrequencyMode::Modelled);
        // 75 % of the time doubles, 25 % stays: 1.75 s.
        assert!((run.seconds - 1.75).abs() < 1e-12);
        assert!(
            run.reason
                .unwrap()
                .contains("userspace governor is not available")
        );
        let none = run_at(&Cpufreq::at("/nonexistent"), 1200.0, &model, || 1.0);
        assert_eq!(none.mode, FrequencyMode::Modelled);
        let odd = run_at(&Cpufreq::at(root.path()), 1500.0, &model, || 1.0);
        assert!(odd.reason.unwrap().contains("not offered"));
        assert!(TimeModel::new(2400.0, 1.5).is_err() && TimeModel::new(0.0, 0.0).is_err());
    }

    #[test]
    fn on_this_machine_without_cpufreq_the_clock_is_modelled() {
        // Never touches a real cpufreq: only runs where there is none (as here).
        let system = Cpufreq::system();
        if system.cpus().is_empty() {
            let model = TimeModel::new(1000.0, 0.0).unwrap();
            let run = run_at(&system, 500.0, &model, || 1.0);
            assert_eq!((run.mode, run.seconds), (FrequencyMode::Modelled, 2.0));
            assert!(run.reason.unwrap().contains("no cpufreq"));
        }
    }
}
