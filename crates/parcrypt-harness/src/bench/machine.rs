//! What machine a benchmark ran on: CPU model, cores, caches, library and compiler versions,
//! operating system. Stored with every report so numbers are never read without their context.
//!
//! Detection reads Linux's `/proc` and `/sys`; anything missing reads as `"unknown"` (or is
//! left out, for caches), never as an error or a panic.
use super::cpu_id::CpuId;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// Shown for anything that could not be detected.
pub const UNKNOWN: &str = "unknown";

/// The machine and software a benchmark ran on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineInfo {
    /// CPU model ("model name" in `/proc/cpuinfo`).
    pub cpu_model: String,
    /// CPU architecture as compiled for (`x86_64`, `aarch64`, ...).
    pub arch: String,
    /// Hardware threads this process may use (`std::thread::available_parallelism`).
    pub logical_cores: usize,
    /// Physical cores: distinct (physical id, core id) pairs, or `logical_cores` if unknown.
    pub physical_cores: usize,
    /// GMP version of the library actually linked (its `gmp_version` string).
    pub gmp_version: String,
    /// Version of this crate.
    pub parcrypt_version: String,
    /// Compiler that built this program (`rustc -V` at build time).
    pub rustc_version: String,
    /// Operating system (`PRETTY_NAME` in `/etc/os-release`).
    pub os: String,
    /// Kernel release (`/proc/sys/kernel/osrelease`).
    pub kernel: String,
    /// CPU 0's caches, smallest level first, e.g. `"L1d 48K"`, `"L2 2M"`.
    pub caches: Vec<String>,
    /// When the information was gathered (UTC, RFC 3339).
    pub detected_at: String,
    /// Vendor, family, model, stepping, SIMD extensions, L1d, SMT (empty in older records).
    #[serde(default)]
    pub cpu: CpuId,
}

impl MachineInfo {
    /// Detects the machine this process runs on.
    pub fn detect() -> Self {
        Self::detect_under(Path::new("/"))
    }

    /// Detects from a file tree rooted at `root` instead of `/` (tests use a fake tree).
    /// Core counts of the running process, the build's versions and the clock are always real.
    pub fn detect_under(root: &Path) -> Self {
        let read = |rel: &str| std::fs::read_to_string(root.join(rel)).ok();
        let cpuinfo = read("proc/cpuinfo").unwrap_or_default();
        let logical_cores = logical_cores();
        let os = read("etc/os-release")
            .and_then(|text| os_pretty_name(&text))
            .unwrap_or_else(|| UNKNOWN.to_string());
        let kernel = read("proc/sys/kernel/osrelease")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| UNKNOWN.to_string());
        let caches = caches(&root.join("sys/devices/system/cpu/cpu0/cache"));
        Self {
            cpu: CpuId::from_cpuinfo(&cpuinfo, &caches),
            cpu_model: cpu_model(&cpuinfo).unwrap_or_else(|| UNKNOWN.to_string()),
            arch: std::env::consts::ARCH.to_string(),
            logical_cores,
            physical_cores: physical_cores(&cpuinfo).unwrap_or(logical_cores),
            gmp_version: gmp_version(),
            parcrypt_version: env!("CARGO_PKG_VERSION").to_string(),
            rustc_version: env!("PARCRYPT_RUSTC_VERSION").to_string(),
            os,
            kernel,
            caches,
            detected_at: rfc3339_utc(
                SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs()),
            ),
        }
    }

    /// Whether `threads` threads would share hardware threads on this machine.
    pub fn oversubscribed(&self, threads: usize) -> bool {
        threads > self.logical_cores
    }

    /// The results archive's folder name for this CPU (`amd-f25-m17`), if its vendor, family
    /// and model are known.
    pub fn cpu_key(&self) -> Option<String> {
        self.cpu.key()
    }

    /// One line for people about the CPU: model, family/model/stepping, widest SIMD, L1d,
    /// logical CPUs, SMT.
    pub fn cpu_line(&self) -> String {
        self.cpu.describe(&self.cpu_model, self.logical_cores)
    }

    /// One line for people: CPU, cores, GMP, rustc, OS.
    pub fn one_line(&self) -> String {
        format!(
            "{} ({} logical / {} physical cores), GMP {}, {}, {}, kernel {}",
            self.cpu_model,
            self.logical_cores,
            self.physical_cores,
            self.gmp_version,
            self.rustc_version,
            self.os,
            self.kernel
        )
    }
}

/// Whether `threads` threads exceed the hardware threads this process may use.
pub fn oversubscribed(threads: usize) -> bool {
    threads > logical_cores()
}

pub use parcrypt::parallel::logical_cores;

/// The linked GMP's own version string, e.g. `"6.2.1"`.
pub fn gmp_version() -> String {
    use gmp_mpfr_sys::gmp;
    // SAFETY: `__gmp_version` is a constant pointer that GMP initialises to a static,
    // NUL-terminated string; it is never written and lives as long as the program.
    let version = unsafe { std::ffi::CStr::from_ptr(gmp::version) };
    version.to_string_lossy().into_owned()
}

/// Value of the first `key : value` line of `/proc/cpuinfo` with that key.
fn cpuinfo_field<'a>(cpuinfo: &'a str, key: &str) -> Option<&'a str> {
    cpuinfo.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k.trim() == key).then(|| v.trim())
    })
}

/// CPU model from `/proc/cpuinfo` ("model name"; "Hardware" or "Processor" on some ARM boards).
pub fn cpu_model(cpuinfo: &str) -> Option<String> {
    ["model name", "Hardware", "Processor"]
        .iter()
        .find_map(|key| cpuinfo_field(cpuinfo, key))
        .filter(|v| !v.is_empty())
        .map(str::to_string)
}

/// Distinct (physical id, core id) pairs in `/proc/cpuinfo`; `None` if it does not list them.
pub fn physical_cores(cpuinfo: &str) -> Option<usize> {
    let mut cores = BTreeSet::new();
    // Processor blocks are separated by blank lines; a missing id counts as 0.
    for block in cpuinfo.split("\n\n") {
        let package = cpuinfo_field(block, "physical id");
        let core = cpuinfo_field(block, "core id");
        if package.is_some() || core.is_some() {
            cores.insert((package.unwrap_or("0"), core.unwrap_or("0")));
        }
    }
    (!cores.is_empty()).then_some(cores.len())
}

/// `PRETTY_NAME` from `/etc/os-release`, without its quotes.
pub fn os_pretty_name(os_release: &str) -> Option<String> {
    os_release.lines().find_map(|line| {
        let value = line.trim().strip_prefix("PRETTY_NAME=")?;
        let value = value.trim_matches(|c| c == '"' || c == '\'');
        (!value.is_empty()).then(|| value.to_string())
    })
}

/// Caches listed under a `cpuN/cache` folder, as `"L1d 32K"`, `"L1i 32K"`, `"L2 1M"`, ...
fn caches(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<(u32, String, String)> = entries
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?;
            let index: u32 = name.strip_prefix("index")?.parse().ok()?;
            let read = |f: &str| std::fs::read_to_string(path.join(f)).ok();
            let level = read("level")?.trim().to_string();
            let suffix = match read("type").as_deref().map(str::trim) {
                Some("Data") => "d",
                Some("Instruction") => "i",
                _ => "",
            };
            let size = tidy_size(read("size")?.trim());
            Some((index, format!("L{level}{suffix}"), size))
        })
        .collect();
    found.sort();
    found
        .into_iter()
        .map(|(_, name, size)| format!("{name} {size}"))
        .collect()
}

/// `"32768K"` becomes `"32M"`; sizes that are not whole mebibytes stay as they are.
fn tidy_size(size: &str) -> String {
    match size.strip_suffix('K').and_then(|k| k.parse::<u64>().ok()) {
        Some(k) if k >= 1024 && k % 1024 == 0 => format!("{}M", k / 1024),
        _ => size.to_string(),
    }
}

/// Seconds since the Unix epoch as an RFC 3339 UTC timestamp, `"2024-05-01T12:00:00Z"`.
pub fn rfc3339_utc(unix_secs: u64) -> String {
    let (days, secs) = (unix_secs / 86_400, unix_secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm, days >= 0).
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    let (h, m, s) = (secs / 3600, secs % 3600 / 60, secs % 60);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    const CPUINFO: &str = "processor\t: 0\nmodel name\t: Intel(R) Core(TM) i7-1185G7\n\
        physical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 1\nmodel name\t: Intel(R) Core(TM) \
        i7-1185G7\nphysical id\t: 0\ncore id\t\t: 0\n\nprocessor\t: 2\nphysical id\t: 0\n\
        core id\t\t: 1\n\nprocessor\t: 3\nphysical id\t: 1\ncore id\t\t: 1\n";

    #[test]
    fn cpuinfo_gives_model_and_distinct_cores() {
        assert_eq!(cpu_model(CPUINFO).unwrap(), "Intel(R) Core(TM) i7-1185G7");
        // (0,0) twice (hyper-threads), (0,1), (1,1): three physical cores.
        assert_eq!(physical_cores(CPUINFO), Some(3));
        assert_eq!(physical_cores("processor\t: 0\n"), None);
        assert_eq!(cpu_model("Hardware\t: BCM2835\n").unwrap(), "BCM2835");
        assert_eq!(cpu_model(""), None);
    }

    #[test]
    fn os_release_pretty_name_loses_its_quotes() {
        let text = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n";
        assert_eq!(
            os_pretty_name(text).unwrap(),
            "Debian GNU/Linux 12 (bookworm)"
        );
        assert_eq!(os_pretty_name("NAME=x\n"), None);
    }

    #[test]
    fn timestamps_are_utc_rfc3339() {
        assert_eq!(rfc3339_utc(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_utc(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(rfc3339_utc(1_714_564_800), "2024-05-01T12:00:00Z");
        assert_eq!(rfc3339_utc(1_735_689_599), "2024-12-31T23:59:59Z");
    }

    #[test]
    fn a_fake_tree_is_read_and_a_missing_one_is_unknown() {
        let root = tempfile::tempdir().unwrap();
        let write = |rel: &str, text: &str| {
            let path = root.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("proc/cpuinfo", CPUINFO);
        write("etc/os-release", "PRETTY_NAME=\"Test OS 1\"\n");
        write("proc/sys/kernel/osrelease", "6.1.0-test\n");
        let cache = "sys/devices/system/cpu/cpu0/cache";
        for (i, level, kind, size) in [
            (0, 1, "Data", "48K"),
            (1, 1, "Instruction", "32K"),
            (2, 2, "Unified", "1280K"),
            (3, 3, "Unified", "12288K"),
        ] {
            write(&format!("{cache}/index{i}/level"), &format!("{level}\n"));
            write(&format!("{cache}/index{i}/type"), &format!("{kind}\n"));
            write(&format!("{cache}/index{i}/size"), &format!("{size}\n"));
        }
        let info = MachineInfo::detect_under(root.path());
        assert_eq!(info.cpu_model, "Intel(R) Core(TM) i7-1185G7");
        assert_eq!((info.physical_cores, info.os.as_str()), (3, "Test OS 1"));
        assert_eq!(info.kernel, "6.1.0-test");
        assert_eq!(info.caches, ["L1d 48K", "L1i 32K", "L2 1280K", "L3 12M"]);

        let empty = tempfile::tempdir().unwrap();
        let info = MachineInfo::detect_under(empty.path());
        assert_eq!(
            (info.cpu_model.as_str(), info.os.as_str()),
            (UNKNOWN, UNKNOWN)
        );
        assert_eq!(info.kernel, UNKNOWN);
        assert_eq!(info.physical_cores, info.logical_cores);
        assert!(info.caches.is_empty());
    }

    #[test]
    fn versions_and_oversubscription() {
        let info = MachineInfo::detect();
        assert!(
            info.gmp_version
                .starts_with(&format!("{}.", gmp_mpfr_sys::gmp::VERSION))
        );
        assert_eq!(info.parcrypt_version, env!("CARGO_PKG_VERSION"));
        assert!(info.rustc_version.starts_with("rustc ") || info.rustc_version == UNKNOWN);
        assert!(info.logical_cores >= 1);
        assert!(!info.oversubscribed(info.logical_cores));
        assert!(info.oversubscribed(info.logical_cores + 1));
        assert!(oversubscribed(logical_cores() + 1) && !oversubscribed(1));
        let json = serde_json::to_string(&info).unwrap();
        assert_eq!(serde_json::from_str::<MachineInfo>(&json).unwrap(), info);
    }
}
