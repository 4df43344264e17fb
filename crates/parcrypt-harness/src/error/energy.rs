//! The energy and reliability errors: bad presets, nodes, frequencies and profiles, and
//! powercap, cpufreq and `/proc` trouble, each a value with a one-line message, never a panic.
use std::path::PathBuf;

/// Errors of the [`energy`](crate::energy) module and the lab's reliability models.
#[derive(Debug, thiserror::Error)]
pub enum EnergyError {
    /// No preset of that name.
    #[error("unknown preset '{name}' (known: {known})")]
    UnknownPreset {
        /// The name asked for.
        name: String,
        /// The preset names that exist, comma-separated.
        known: String,
    },
    /// The preset has no figures for that process node.
    #[error("{preset} has no {node} nm figures (nodes: {known}){hint}")]
    UnknownNode {
        /// The preset.
        preset: String,
        /// The node asked for, in nm.
        node: u32,
        /// The nodes that exist, comma-separated.
        known: String,
        /// How to get a modelled figure anyway, or empty.
        hint: String,
    },
    /// The preset has no figures (or no operating point) at that frequency.
    #[error("{preset} has no {freq} MHz figures (frequencies: {known}){hint}")]
    UnknownFrequency {
        /// The preset.
        preset: String,
        /// The frequency asked for, in MHz.
        freq: String,
        /// The frequencies that exist, comma-separated.
        known: String,
        /// How to get a modelled figure anyway, or empty.
        hint: String,
    },
    /// A parameter is out of range (0 active cores, more active cores than the chip has,
    /// a negative memory-bound fraction, ...).
    #[error("invalid parameter: {0}")]
    InvalidParameter(String),
    /// A processor profile (TOML) could not be read or is malformed.
    #[error("profile {path}: {message}")]
    Profile {
        /// The profile file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// There is no RAPL powercap tree.
    #[error(
        "no RAPL energy counters: {root} has no intel-rapl:N package domains (no powercap driver, not an Intel/AMD RAPL CPU, or a virtual machine)"
    )]
    PowercapMissing {
        /// The powercap root that was searched.
        root: PathBuf,
    },
    /// A RAPL counter exists but may not be read.
    #[error(
        "permission denied reading {path}: RAPL energy counters are readable only by root since the 2020 PLATYPUS mitigation (CVE-2020-8694); run as root, or use --meter model"
    )]
    PowercapPermission {
        /// The counter file.
        path: PathBuf,
    },
    /// Reading a sysfs or procfs file failed for another reason.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A sysfs or procfs file held something that is not what the kernel writes there.
    #[error("{path}: cannot parse '{text}'")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Its (trimmed) content.
        text: String,
    },
    /// The CPU frequency could not be set through cpufreq.
    #[error("cpufreq: {0}")]
    Cpufreq(String),
}

impl EnergyError {
    /// Whether the error is about how parcrypt was called (unknown preset, node, frequency,
    /// bad parameter, malformed profile): the command line exits with 2 for these.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            Self::UnknownPreset { .. }
                | Self::UnknownNode { .. }
                | Self::UnknownFrequency { .. }
                | Self::InvalidParameter(_)
                | Self::Profile { .. }
        )
    }

    /// Wraps an I/O error on `path`, turning "permission denied" on a RAPL counter into
    /// [`EnergyError::PowercapPermission`].
    pub fn read(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        let path = path.into();
        if source.kind() == std::io::ErrorKind::PermissionDenied
            && path.to_string_lossy().contains("rapl")
        {
            Self::PowercapPermission { path }
        } else {
            Self::Read { path, source }
        }
    }
}

/// Shorthand for results of the energy and reliability modules.
pub type EnergyResult<T> = std::result::Result<T, EnergyError>;

/// Joins numbers for error messages: `[90, 65]` -> `"90, 65"`.
pub fn join<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    items
        .into_iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_line_and_usage_is_classified() {
        let e = EnergyError::UnknownNode {
            preset: "core-i7".into(),
            node: 28,
            known: join([90, 65, 45, 32, 22]),
            hint: String::new(),
        };
        assert_eq!(
            e.to_string(),
            "core-i7 has no 28 nm figures (nodes: 90, 65, 45, 32, 22)"
        );
        assert!(e.is_usage());
        let denied = EnergyError::read(
            "/sys/class/powercap/intel-rapl:0/energy_uj",
            std::io::Error::from(std::io::ErrorKind::PermissionDenied),
        );
        assert!(matches!(denied, EnergyError::PowercapPermission { .. }));
        assert!(!denied.is_usage());
        assert!(!denied.to_string().contains('\n'));
    }
}
