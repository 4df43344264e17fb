//! Processor profiles: the TOML form of a preset (`data/presets.toml`, and the user's profile
//! for `this-machine`), how C_eff is calibrated from a seed's own figures, and where the
//! `this-machine` profile is found.
//!
//! A profile gives the power model `P = static_w + sum_busy C_eff V^2 f + sum_idle
//! idle_activity C_eff V_idle^2 f_idle`. C_eff is either given (`c_eff_nf`) or calibrated:
//! `two-point` (two measured chip powers at two active-core counts: solves static power and
//! C_eff, as for the SCC's Fig. 10), `per-core-watts` (application watts per busy core, from
//! uJ/B x MB/s, as for cipher-energy's laptop) or `tdp` (every core busy at the given state draws the
//! TDP).
use serde::Deserialize;
use std::path::{Path, PathBuf};

use super::units::{
    Celsius, KelvinPerWatt, MegaHertz, NanoFarads, Nanometres, SquareMillimetres, Volts, Watts,
    cv2f,
};
use crate::error::{EnergyError, EnergyResult};

/// The built-in `this-machine` profile: a documented guess.
pub const DEFAULT_PROFILE_TOML: &str = include_str!("../../data/this-machine.default.toml");

/// Environment variable naming the `this-machine` profile file.
pub const PROFILE_ENV: &str = "PARCRYPT_PROFILE";

/// One operating point (P-state) of a profile.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateSpec {
    /// Name (`default`, `calibrated`, `p1`, `active`, `idle`, ...).
    pub name: String,
    /// Clock frequency.
    pub mhz: MegaHertz,
    /// Supply voltage.
    pub volts: Volts,
    /// Where the figure comes from.
    #[serde(default)]
    pub origin: String,
}

/// One measured chip power for a `two-point` calibration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PowerPoint {
    /// What was measured.
    pub label: String,
    /// Cores at the default state; the others sit at the idle state.
    pub active_cores: usize,
    /// Whole-chip power.
    pub watts: Watts,
}

/// One benchmark run for a `per-core-watts` calibration.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AppRun {
    /// Which run.
    pub label: String,
    /// Energy per byte, uJ/B.
    pub uj_per_byte: f64,
    /// Throughput, MB/s (uJ/B x MB/s = W).
    pub mb_per_s: f64,
    /// Busy cores.
    pub threads: usize,
}

/// How C_eff (and maybe the static power) is derived.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Calibration {
    /// Two chip powers at two active-core counts.
    TwoPoint {
        /// The two measurements.
        points: Vec<PowerPoint>,
    },
    /// Mean application watts per busy core at `state`.
    PerCoreWatts {
        /// The state the runs ran at.
        state: String,
        /// The runs.
        runs: Vec<AppRun>,
    },
    /// Every core busy at `state` draws `tdp_w`.
    Tdp {
        /// The state.
        state: String,
        /// Thermal design power.
        tdp_w: Watts,
    },
}

/// A preset or profile as written in TOML.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresetSpec {
    /// Preset name (a user profile may leave it out: it is `this-machine`).
    #[serde(default)]
    pub name: Option<String>,
    /// Seed paper (`000`, `001`, `004`), if any.
    #[serde(default)]
    pub seed: Option<String>,
    /// One line for people.
    #[serde(default)]
    pub description: String,
    /// Physical cores (detected for `this-machine` when absent).
    #[serde(default)]
    pub cores: Option<usize>,
    /// Hardware threads per core.
    #[serde(default)]
    pub threads_per_core: Option<usize>,
    /// Cache hierarchy, for people.
    #[serde(default)]
    pub caches: Vec<String>,
    /// Table presets: the `processor` key in the seed-000 power tables.
    #[serde(default)]
    pub power_table: Option<String>,
    /// Table presets: the node used when none is asked for.
    #[serde(default)]
    pub default_node_nm: Option<Nanometres>,
    /// Profile presets: process node.
    #[serde(default)]
    pub node_nm: Option<Nanometres>,
    /// Die area, if known.
    #[serde(default)]
    pub area_mm2: Option<SquareMillimetres>,
    /// Profile presets: power with every core idle (leakage + uncore).
    #[serde(default)]
    pub static_w: Option<Watts>,
    /// Profile presets: effective switched capacitance per busy core.
    #[serde(default)]
    pub c_eff_nf: Option<NanoFarads>,
    /// Fraction of C_eff an idle core switches at the idle state.
    pub idle_activity: f64,
    /// Profile presets: the state busy cores run at by default.
    #[serde(default)]
    pub default_state: Option<String>,
    /// Profile presets: the state idle cores sit at.
    #[serde(default)]
    pub idle_state: Option<String>,
    /// Ambient temperature for the thermal model.
    pub ambient_c: Celsius,
    /// Junction-to-ambient thermal resistance for the thermal model.
    pub r_th_k_per_w: KelvinPerWatt,
    /// Profile presets: operating points.
    #[serde(default)]
    pub state: Vec<StateSpec>,
    /// Profile presets: how C_eff is derived when `c_eff_nf` is absent.
    #[serde(default)]
    pub calibration: Option<Calibration>,
}

/// The profile-preset power parameters after calibration.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibrated {
    /// Power with every core idle.
    pub static_w: Watts,
    /// C_eff per busy core.
    pub c_eff_nf: NanoFarads,
    /// How they were obtained, for people.
    pub note: String,
}

impl PresetSpec {
    /// The state of that name.
    pub fn state_named(&self, name: &str) -> Option<&StateSpec> {
        self.state.iter().find(|s| s.name == name)
    }

    /// Checks the fields a profile preset needs and calibrates C_eff; `cores` is the
    /// (possibly detected) core count. Errors are plain messages for [`EnergyError::Profile`].
    pub fn calibrate(&self, cores: usize) -> Result<Calibrated, String> {
        self.check(cores)?;
        let busy = self.required_state("default_state", &self.default_state)?;
        let idle = self.required_state("idle_state", &self.idle_state)?;
        // An idle core's dynamic power per nF of C_eff.
        let idle_core = self.idle_activity * cv2f(1.0, idle.volts, idle.mhz);
        match (&self.c_eff_nf, &self.calibration) {
            (Some(c), None) => {
                let s = self.static_w.ok_or("'static_w' is missing")?;
                checked(
                    s,
                    *c,
                    "static power and C_eff as given in the profile".into(),
                )
            }
            (Some(_), Some(_)) => Err("give either c_eff_nf or a calibration, not both".into()),
            (None, None) => Err("'c_eff_nf' (or a [calibration]) is missing".into()),
            (None, Some(Calibration::TwoPoint { points })) => {
                two_point(points, busy, idle_core, cores)
            }
            (None, Some(Calibration::PerCoreWatts { state, runs })) => {
                self.per_core_watts(state, runs, idle_core)
            }
            (None, Some(Calibration::Tdp { state, tdp_w })) => self.tdp(state, *tdp_w, cores),
        }
    }

    /// The plain checks: states, idle activity, thermal resistance, cores.
    fn check(&self, cores: usize) -> Result<(), String> {
        if self.state.is_empty() {
            return Err("at least one [[state]] (name, mhz, volts) is needed".into());
        }
        for s in &self.state {
            if !(s.mhz > 0.0 && s.volts > 0.0 && s.mhz.is_finite() && s.volts.is_finite()) {
                return Err(format!("state '{}' needs mhz > 0 and volts > 0", s.name));
            }
        }
        if !(0.0..=1.0).contains(&self.idle_activity) {
            return Err("idle_activity must be between 0 and 1".into());
        }
        if !(self.r_th_k_per_w >= 0.0 && self.r_th_k_per_w.is_finite()) {
            return Err("r_th_k_per_w must be a non-negative number".into());
        }
        if cores == 0 {
            return Err("cores must be at least 1".into());
        }
        Ok(())
    }

    /// The state named by `field` (`name`), which must be one of the [[state]] entries.
    fn required_state(&self, field: &str, name: &Option<String>) -> Result<&StateSpec, String> {
        let name = name.as_deref().ok_or(format!("'{field}' is missing"))?;
        self.state_named(name).ok_or(format!(
            "{field} '{name}' is not one of the [[state]] entries"
        ))
    }

    /// C_eff from applications' power per busy core at state `st`; static power as given.
    fn per_core_watts(
        &self,
        st: &str,
        runs: &[AppRun],
        idle_core: f64,
    ) -> Result<Calibrated, String> {
        let at = self
            .state_named(st)
            .ok_or(format!("calibration state '{st}' is not a [[state]]"))?;
        if runs.is_empty() || runs.iter().any(|r| r.threads == 0) {
            return Err("per-core-watts needs runs with threads >= 1".into());
        }
        let per_core: f64 = runs
            .iter()
            .map(|r| r.uj_per_byte * r.mb_per_s / r.threads as f64)
            .sum::<f64>()
            / runs.len() as f64;
        // A busy core adds C V^2 f and stops being an idle core.
        let c = per_core / (cv2f(1.0, at.volts, at.mhz) - idle_core);
        let s = self.static_w.ok_or("'static_w' is missing")?;
        checked(
            s,
            c,
            format!(
                "C_eff from {per_core:.3} W of application power per busy core at '{st}' \
                 (mean over {} runs, uJ/B x MB/s / threads); static power assumed",
                runs.len()
            ),
        )
    }

    /// C_eff from a TDP with every core busy at state `st`; static power as given.
    fn tdp(&self, st: &str, tdp_w: f64, cores: usize) -> Result<Calibrated, String> {
        let at = self
            .state_named(st)
            .ok_or(format!("calibration state '{st}' is not a [[state]]"))?;
        let s = self.static_w.ok_or("'static_w' is missing")?;
        let c = (tdp_w - s) / (cores as f64 * cv2f(1.0, at.volts, at.mhz));
        checked(
            s,
            c,
            format!(
                "C_eff from a {tdp_w} W TDP with all {cores} cores busy at '{st}'; \
                 static power assumed"
            ),
        )
    }
}

/// Static power and C_eff solved from two measured points with different active cores:
/// P = S + C (k busy(1) + (N - k) idle(1)), linear in C.
fn two_point(
    points: &[PowerPoint],
    busy: &StateSpec,
    idle_core: f64,
    cores: usize,
) -> Result<Calibrated, String> {
    let [a, b] = points else {
        return Err("a two-point calibration needs exactly two points".into());
    };
    // P = S + C (k busy(1) + (N - k) idle(1)), linear in C.
    let per_c =
        |k: usize| k as f64 * cv2f(1.0, busy.volts, busy.mhz) + (cores - k) as f64 * idle_core;
    if a.active_cores > cores || b.active_cores > cores {
        return Err("a calibration point has more active cores than the chip".into());
    }
    let (xa, xb) = (per_c(a.active_cores), per_c(b.active_cores));
    if (xa - xb).abs() < 1e-12 {
        return Err("the two calibration points must differ in active cores".into());
    }
    let c = (b.watts - a.watts) / (xb - xa);
    let s = a.watts - c * xa;
    checked(
        s,
        c,
        format!(
            "static power and C_eff solved from {} ({} W) and {} ({} W)",
            a.label, a.watts, b.label, b.watts
        ),
    )
}

/// A calibration whose static power and C_eff are usable (finite, S >= 0, C > 0).
fn checked(static_w: f64, c: f64, note: String) -> Result<Calibrated, String> {
    if static_w.is_finite() && static_w >= 0.0 && c.is_finite() && c > 0.0 {
        Ok(Calibrated {
            static_w,
            c_eff_nf: c,
            note,
        })
    } else {
        Err(format!(
            "calibration gives static {static_w:.3} W and C_eff {c:.4} nF: not usable"
        ))
    }
}

/// The whole `data/presets.toml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresetFile {
    /// Every built-in preset except `this-machine`.
    pub preset: Vec<PresetSpec>,
}

/// Parses a user profile (one preset, top-level keys); `path` is for messages.
pub fn parse_profile(text: &str, path: &Path) -> EnergyResult<PresetSpec> {
    let spec: PresetSpec = toml::from_str(text).map_err(|e| EnergyError::Profile {
        path: path.to_path_buf(),
        message: e.message().replace('\n', " "),
    })?;
    if spec.power_table.is_some() {
        return Err(EnergyError::Profile {
            path: path.to_path_buf(),
            message: "power_table is only for the built-in seed-000 presets".into(),
        });
    }
    Ok(spec)
}

/// Where the `this-machine` profile comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProfileOrigin {
    /// A file: given with `--profile`, by `PARCRYPT_PROFILE`, or the user's config file.
    File(PathBuf),
    /// The built-in default (a guess).
    BuiltinDefault,
}

impl std::fmt::Display for ProfileOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::File(p) => write!(f, "profile {}", p.display()),
            Self::BuiltinDefault => {
                f.write_str("built-in default profile (a guess, not a measurement)")
            }
        }
    }
}

/// Resolves the profile: `explicit`, else `$PARCRYPT_PROFILE`, else
/// `$XDG_CONFIG_HOME/parcrypt/profile.toml` or `~/.config/parcrypt/profile.toml` when it exists,
/// else the built-in default.
pub fn resolve_profile(explicit: Option<&Path>) -> ProfileOrigin {
    if let Some(p) = explicit {
        return ProfileOrigin::File(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os(PROFILE_ENV).filter(|p| !p.is_empty()) {
        return ProfileOrigin::File(PathBuf::from(p));
    }
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")));
    match config.map(|c| c.join("parcrypt").join("profile.toml")) {
        Some(p) if p.is_file() => ProfileOrigin::File(p),
        _ => ProfileOrigin::BuiltinDefault,
    }
}

/// Reads and parses the profile from `origin`.
pub fn load_profile(origin: &ProfileOrigin) -> EnergyResult<PresetSpec> {
    match origin {
        ProfileOrigin::BuiltinDefault => parse_profile(
            DEFAULT_PROFILE_TOML,
            Path::new("(built-in default profile)"),
        ),
        ProfileOrigin::File(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| EnergyError::Profile {
                path: path.clone(),
                message: e.to_string(),
            })?;
            parse_profile(&text, path)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_profile_parses_and_calibrates() {
        let spec = load_profile(&ProfileOrigin::BuiltinDefault).unwrap();
        assert!(spec.description.contains("guess"));
        let cal = spec.calibrate(4).unwrap();
        assert_eq!((cal.static_w, cal.c_eff_nf), (10.0, 3.0));
    }

    #[test]
    fn malformed_profiles_are_refused_with_the_path() {
        let path = Path::new("/tmp/p.toml");
        let err = parse_profile("static_w = \"ten\"", path).unwrap_err();
        assert!(err.is_usage());
        assert!(
            err.to_string().starts_with("profile /tmp/p.toml: "),
            "{err}"
        );
        let err = parse_profile(
            "idle_activity = 0.1\nambient_c = 45\nr_th_k_per_w = 1\nwatts = 3",
            path,
        )
        .unwrap_err();
        assert!(err.to_string().contains("watts"), "{err}");
        let spec = parse_profile(
            "idle_activity = 0.1\nambient_c = 45\nr_th_k_per_w = 1\nstatic_w = 5\nc_eff_nf = 1\n",
            path,
        )
        .unwrap();
        assert!(spec.calibrate(2).unwrap_err().contains("[[state]]"));
        let missing = load_profile(&ProfileOrigin::File("/nonexistent/p.toml".into())).unwrap_err();
        assert!(missing.is_usage());
    }

    #[test]
    fn an_explicit_profile_wins() {
        let p = Path::new("/x/profile.toml");
        assert_eq!(
            resolve_profile(Some(p)),
            ProfileOrigin::File(p.to_path_buf())
        );
    }
}
