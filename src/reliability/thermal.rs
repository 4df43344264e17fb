//! Chip temperature: read from the machine's sensors when it has them (thermal zones, hwmon),
//! else modelled per preset as `T = T_ambient + R_th x P` — and labelled which.
//!
//! Sensors are read under a configurable sysfs root (`/sys` by default):
//! `class/thermal/thermal_zone*/temp` (with `type`) and `class/hwmon/hwmon*/temp*_input`
//! (with `name` and `temp*_label`), all in millidegrees Celsius.
use serde::Serialize;
use std::path::Path;

use crate::energy::presets::Preset;
use crate::energy::units::{Kelvin, KelvinPerWatt, Watts, celsius_to_kelvin};

/// A temperature and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Temperature {
    /// The temperature.
    pub kelvin: Kelvin,
    /// `measured:thermal_zone0 (x86_pkg_temp)`, `measured:hwmon1 coretemp Package id 0`,
    /// `model:<preset> T = 45 °C + 0.8 K/W x 19.04 W`, or `given`.
    pub source: String,
}

/// Every sensor under `sys_root` (`/sys` on a real machine), hottest first.
pub fn read_sensors(sys_root: &Path) -> Vec<Temperature> {
    let mut out = Vec::new();
    let milli = |p: &Path| -> Option<Kelvin> {
        let v: f64 = std::fs::read_to_string(p).ok()?.trim().parse().ok()?;
        // Zones report -273000 or 0 when the sensor is off; keep plausible readings only.
        (v > 0.0 && v < 200_000.0).then(|| celsius_to_kelvin(v / 1000.0))
    };
    let text = |p: &Path| {
        std::fs::read_to_string(p)
            .ok()
            .map(|s| s.trim().to_string())
    };
    let entries = |dir: &Path| -> Vec<std::path::PathBuf> {
        let mut v: Vec<_> = std::fs::read_dir(dir)
            .map(|rd| rd.filter_map(|e| Some(e.ok()?.path())).collect())
            .unwrap_or_default();
        v.sort();
        v
    };
    for zone in entries(&sys_root.join("class/thermal")) {
        let name = zone
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        if !name.starts_with("thermal_zone") {
            continue;
        }
        if let Some(k) = milli(&zone.join("temp")) {
            let kind = text(&zone.join("type")).unwrap_or_default();
            out.push(Temperature {
                kelvin: k,
                source: format!("measured:{name} ({kind})"),
            });
        }
    }
    for hw in entries(&sys_root.join("class/hwmon")) {
        let name = hw
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("")
            .to_string();
        let chip = text(&hw.join("name")).unwrap_or_default();
        for f in entries(&hw) {
            let file = f
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_string();
            let Some(stem) = file
                .strip_suffix("_input")
                .filter(|s| s.starts_with("temp"))
            else {
                continue;
            };
            if let Some(k) = milli(&f) {
                let label =
                    text(&hw.join(format!("{stem}_label"))).unwrap_or_else(|| stem.to_string());
                out.push(Temperature {
                    kelvin: k,
                    source: format!("measured:{name} {chip} {label}"),
                });
            }
        }
    }
    out.sort_by(|a, b| b.kelvin.total_cmp(&a.kelvin));
    out
}

/// The hottest sensor, if any.
pub fn hottest(sys_root: &Path) -> Option<Temperature> {
    read_sensors(sys_root).into_iter().next()
}

/// `T = T_ambient + R_th x P`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ThermalModel {
    /// Ambient temperature.
    pub ambient_k: Kelvin,
    /// Junction-to-ambient thermal resistance.
    pub r_th_k_per_w: KelvinPerWatt,
}

impl ThermalModel {
    /// The preset's model (its assumed ambient and thermal resistance).
    pub fn of(preset: &Preset) -> Self {
        Self {
            ambient_k: celsius_to_kelvin(preset.thermal.ambient_c),
            r_th_k_per_w: preset.thermal.r_th_k_per_w,
        }
    }

    /// Steady-state temperature at `watts`, labelled with the preset's model.
    pub fn temperature(&self, watts: Watts, source: &str) -> Temperature {
        Temperature {
            kelvin: self.ambient_k + self.r_th_k_per_w * watts,
            source: format!(
                "{source} T = {:.1} °C + {} K/W x {:.2} W",
                self.ambient_k - 273.15,
                self.r_th_k_per_w,
                watts
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn sensors_are_read_from_a_fake_sys_tree_hottest_first() {
        let root = tempfile::tempdir().unwrap();
        let w = |rel: &str, text: &str| {
            let p = root.path().join(rel);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        };
        w("class/thermal/thermal_zone0/temp", "48000\n");
        w("class/thermal/thermal_zone0/type", "acpitz\n");
        w("class/thermal/thermal_zone1/temp", "-273000\n"); // switched off
        w("class/hwmon/hwmon2/name", "coretemp\n");
        w("class/hwmon/hwmon2/temp1_input", "61500\n");
        w("class/hwmon/hwmon2/temp1_label", "Package id 0\n");
        let s = read_sensors(root.path());
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].source, "measured:hwmon2 coretemp Package id 0");
        assert!((s[0].kelvin - 334.65).abs() < 1e-9);
        assert_eq!(s[1].source, "measured:thermal_zone0 (acpitz)");
        let empty = tempfile::tempdir().unwrap();
        assert!(hottest(empty.path()).is_none());
    }

    #[test]
    fn the_model_adds_rth_times_power_to_ambient() {
        let m = ThermalModel {
            ambient_k: 318.15,
            r_th_k_per_w: 0.5,
        };
        let t = m.temperature(20.0, "model:x");
        assert!((t.kelvin - 328.15).abs() < 1e-12);
        assert!(
            t.source
                .starts_with("model:x T = 45.0 °C + 0.5 K/W x 20.00 W"),
            "{}",
            t.source
        );
    }
}
