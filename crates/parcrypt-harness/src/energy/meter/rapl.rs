//! RAPL through Linux powercap: the package energy counters under
//! `/sys/class/powercap/intel-rapl:N/energy_uj` (Intel, and AMD since Linux 5.8), every
//! package summed — `measured:rapl`.
//!
//! Counters are in microjoules and wrap at `max_energy_range_uj`: a stop below its start is
//! one wrap (a measurement longer than one wrap period — minutes to hours, depending on power —
//! needs [`EnergyMeter::poll`] in between). Since the 2020 PLATYPUS mitigation the counters
//! are readable only by root; that is reported as [`EnergyError::PowercapPermission`]. Only
//! top-level package domains are read (`intel-rapl:0`, not its `intel-rapl:0:0` sub-domains,
//! which the package already includes). RAPL counts the whole package: other processes' work
//! is in the reading too.
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::{DomainEnergy, EnergyMeter, Reading};
use crate::error::{EnergyError, EnergyResult};

/// Where powercap lives.
pub const DEFAULT_ROOT: &str = "/sys/class/powercap";

/// The label of RAPL readings.
pub const SOURCE: &str = "measured:rapl";

/// Reads a file to a string; injectable so tests can simulate "permission denied" as root.
pub type ReadFn = Box<dyn Fn(&Path) -> std::io::Result<String>>;

/// One package domain.
#[derive(Debug, Clone, PartialEq)]
struct Domain {
    name: String,
    dir: PathBuf,
    max_range_uj: u64,
}

/// Package energy counters, summed over packages.
pub struct RaplMeter {
    root: PathBuf,
    domains: Vec<Domain>,
    read: ReadFn,
    /// Counter values at the last start or poll, per domain.
    last: Vec<u64>,
    /// Microjoules accumulated since start, per domain.
    acc: Vec<u64>,
    started: Option<Instant>,
}

impl std::fmt::Debug for RaplMeter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RaplMeter")
            .field("root", &self.root)
            .field("domains", &self.domains)
            .finish()
    }
}

/// Whether a powercap entry is a top-level RAPL package domain (`intel-rapl:<digits>`).
pub fn is_package_domain(name: &str) -> bool {
    name.strip_prefix("intel-rapl:")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Microjoules between two readings of a counter that wraps at `max_range_uj`.
pub fn counter_delta(start: u64, end: u64, max_range_uj: u64) -> u64 {
    if end >= start {
        end - start
    } else {
        max_range_uj.saturating_sub(start) + end
    }
}

impl RaplMeter {
    /// Opens the package domains under `root`, reading with the file system.
    pub fn open(root: &Path) -> EnergyResult<Self> {
        Self::open_with(root, Box::new(|p: &Path| std::fs::read_to_string(p)))
    }

    /// Opens the package domains under `root`, reading files with `read`. Every counter is
    /// read once, so an unreadable one fails here rather than mid-measurement.
    pub fn open_with(root: &Path, read: ReadFn) -> EnergyResult<Self> {
        let missing = || EnergyError::PowercapMissing {
            root: root.to_path_buf(),
        };
        let entries = match std::fs::read_dir(root) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(missing()),
            Err(e) => return Err(EnergyError::read(root, e)),
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| is_package_domain(n))
            .collect();
        names.sort();
        if names.is_empty() {
            return Err(missing());
        }
        let mut domains = Vec::new();
        for n in names {
            let dir = root.join(&n);
            let name = read(&dir.join("name"))
                .map(|s| s.trim().to_string())
                .unwrap_or_else(|_| n.clone());
            let max_range_uj = read_u64(&read, &dir.join("max_energy_range_uj"))?;
            domains.push(Domain {
                name,
                dir,
                max_range_uj,
            });
        }
        let mut meter = Self {
            root: root.to_path_buf(),
            acc: vec![0; domains.len()],
            domains,
            read,
            last: Vec::new(),
            started: None,
        };
        meter.last = meter.counters()?;
        Ok(meter)
    }

    /// The package domain names (`package-0`, ...).
    pub fn domain_names(&self) -> Vec<String> {
        self.domains.iter().map(|d| d.name.clone()).collect()
    }

    /// Current counter of every domain, in microjoules.
    fn counters(&self) -> EnergyResult<Vec<u64>> {
        self.domains
            .iter()
            .map(|d| read_u64(&self.read, &d.dir.join("energy_uj")))
            .collect()
    }
}

fn read_u64(read: &ReadFn, path: &Path) -> EnergyResult<u64> {
    let text = read(path).map_err(|e| EnergyError::read(path, e))?;
    text.trim().parse().map_err(|_| EnergyError::Parse {
        path: path.to_path_buf(),
        text: text.trim().to_string(),
    })
}

impl EnergyMeter for RaplMeter {
    fn source(&self) -> String {
        SOURCE.into()
    }

    fn start(&mut self) -> EnergyResult<()> {
        self.last = self.counters()?;
        self.acc = vec![0; self.domains.len()];
        self.started = Some(Instant::now());
        Ok(())
    }

    fn poll(&mut self) -> EnergyResult<()> {
        let now = self.counters()?;
        for (i, d) in self.domains.iter().enumerate() {
            self.acc[i] += counter_delta(self.last[i], now[i], d.max_range_uj);
        }
        self.last = now;
        Ok(())
    }

    fn stop(&mut self) -> EnergyResult<Reading> {
        let started = self.started.take().ok_or_else(|| {
            EnergyError::InvalidParameter("RAPL meter stopped before it was started".into())
        })?;
        self.poll()?;
        let seconds = started.elapsed().as_secs_f64();
        let domains: Vec<DomainEnergy> = self
            .domains
            .iter()
            .zip(&self.acc)
            .map(|(d, &uj)| DomainEnergy {
                name: d.name.clone(),
                joules: uj as f64 * 1e-6,
            })
            .collect();
        let mut reading = Reading::new(domains.iter().map(|d| d.joules).sum(), seconds, SOURCE);
        reading.domains = domains;
        Ok(reading)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A fake powercap tree: two packages and one sub-domain (which must be ignored).
    fn tree(energy: [u64; 2], max: u64) -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        for (i, e) in energy.iter().enumerate() {
            let d = root.path().join(format!("intel-rapl:{i}"));
            fs::create_dir_all(&d).unwrap();
            fs::write(d.join("name"), format!("package-{i}\n")).unwrap();
            fs::write(d.join("energy_uj"), format!("{e}\n")).unwrap();
            fs::write(d.join("max_energy_range_uj"), format!("{max}\n")).unwrap();
        }
        let sub = root.path().join("intel-rapl:0:0");
        fs::create_dir_all(&sub).unwrap();
        fs::write(sub.join("name"), "core\n").unwrap();
        fs::write(sub.join("energy_uj"), "999999999\n").unwrap();
        fs::write(sub.join("max_energy_range_uj"), "1000000000\n").unwrap();
        root
    }

    fn set(root: &Path, pkg: usize, uj: u64) {
        fs::write(
            root.join(format!("intel-rapl:{pkg}/energy_uj")),
            format!("{uj}\n"),
        )
        .unwrap();
    }

    #[test]
    fn a_normal_reading_sums_the_packages() {
        let root = tree([1_000_000, 5_000_000], 262_143_328_850);
        let mut m = RaplMeter::open(root.path()).unwrap();
        assert_eq!(m.domain_names(), ["package-0", "package-1"]);
        m.start().unwrap();
        set(root.path(), 0, 3_500_000); // +2.5 J
        set(root.path(), 1, 6_000_000); // +1.0 J
        let r = m.stop().unwrap();
        assert!((r.joules - 3.5).abs() < 1e-12, "{r:?}");
        assert_eq!(r.source, "measured:rapl");
        assert_eq!(r.domains.len(), 2);
        assert!((r.domains[0].joules - 2.5).abs() < 1e-12);
        assert!(m.stop().is_err(), "a stop without a start is an error");
    }

    #[test]
    fn a_wrapped_counter_is_unwrapped_with_max_energy_range() {
        let max = 262_143_328_850;
        let root = tree([max - 400_000, 0], max);
        let mut m = RaplMeter::open(root.path()).unwrap();
        m.start().unwrap();
        set(root.path(), 0, 600_000); // wrapped: 0.4 J before the wrap + 0.6 J after
        let r = m.stop().unwrap();
        assert!((r.joules - 1.0).abs() < 1e-12, "{r:?}");
        assert_eq!(counter_delta(10, 5, 100), 95);
        assert_eq!(counter_delta(5, 10, 100), 5);
    }

    #[test]
    fn polling_survives_two_wraps() {
        let max = 1_000_000;
        let root = tree([900_000, 0], max);
        let mut m = RaplMeter::open(root.path()).unwrap();
        m.start().unwrap();
        set(root.path(), 0, 100_000); // +0.2 J (wrap)
        m.poll().unwrap();
        set(root.path(), 0, 50_000); // +0.95 J (wrap again)
        let r = m.stop().unwrap();
        assert!((r.joules - 1.15).abs() < 1e-12, "{r:?}");
    }

    #[test]
    fn permission_denied_is_told_clearly() {
        let root = tree([1, 2], 1000);
        let read: ReadFn = Box::new(|p: &Path| {
            if p.ends_with("energy_uj") {
                Err(std::io::Error::from(std::io::ErrorKind::PermissionDenied))
            } else {
                fs::read_to_string(p)
            }
        });
        let err = RaplMeter::open_with(root.path(), read).unwrap_err();
        assert!(
            matches!(err, EnergyError::PowercapPermission { .. }),
            "{err}"
        );
        let msg = err.to_string();
        assert!(
            msg.contains("permission denied") && msg.contains("root"),
            "{msg}"
        );
        assert!(msg.contains("intel-rapl:0/energy_uj"), "{msg}");
    }

    #[test]
    fn an_unreadable_file_is_denied_for_ordinary_users() {
        use std::os::unix::fs::PermissionsExt;
        let root = tree([1, 2], 1000);
        let f = root.path().join("intel-rapl:0/energy_uj");
        fs::set_permissions(&f, fs::Permissions::from_mode(0o000)).unwrap();
        let result = RaplMeter::open(root.path());
        if fs::read_to_string(&f).is_ok() {
            // Root reads mode-000 files: nothing to check (the injected reader covers it).
            assert!(result.is_ok());
        } else {
            assert!(matches!(
                result.unwrap_err(),
                EnergyError::PowercapPermission { .. }
            ));
        }
    }

    #[test]
    fn a_missing_or_empty_tree_is_missing() {
        let err = RaplMeter::open(Path::new("/nonexistent/powercap")).unwrap_err();
        assert!(matches!(err, EnergyError::PowercapMissing { .. }));
        let empty = tempfile::tempdir().unwrap();
        fs::create_dir(empty.path().join("dtpm")).unwrap();
        let err = RaplMeter::open(empty.path()).unwrap_err();
        assert!(err.to_string().contains("no RAPL energy counters"), "{err}");
        assert!(is_package_domain("intel-rapl:12"));
        assert!(!is_package_domain("intel-rapl:0:1") && !is_package_domain("intel-rapl"));
    }

    #[test]
    fn garbage_in_a_counter_is_a_parse_error() {
        let root = tree([1, 2], 1000);
        set(root.path(), 1, 0);
        fs::write(root.path().join("intel-rapl:1/energy_uj"), "lots\n").unwrap();
        let err = RaplMeter::open(root.path()).unwrap_err();
        assert!(matches!(err, EnergyError::Parse { .. }), "{err}");
    }
}
