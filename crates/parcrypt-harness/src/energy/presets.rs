//! Processor presets: the seed-000 processors of Table 1 with their McPAT power Tables 4-7,
//! cipher-energy's laptop (`t5270`) and desktop (`fx-8320`) with their P-states, SCC Blowfish's `scc`,
//! and `this-machine` (detected topology, power parameters from a TOML profile).
//!
//! Built-in presets live in `data/presets.toml` (embedded); `this-machine` reads the profile
//! that [`resolve_profile`](super::profile::resolve_profile) finds, or a documented default
//! that says it is a guess.
use std::path::Path;
use std::sync::OnceLock;

use super::parsa;
use super::profile::{self, PresetFile, PresetSpec, ProfileOrigin, StateSpec};
use super::units::{
    Celsius, KelvinPerWatt, MegaHertz, NanoFarads, Nanometres, SquareMillimetres, Watts,
};
use crate::error::{EnergyError, EnergyResult, join};

/// The built-in presets as TOML.
pub const PRESETS_TOML: &str = include_str!("../../data/presets.toml");

/// Every preset name, in display order.
pub const PRESET_NAMES: [&str; 8] = [
    "core2duo",
    "core-i3",
    "core-i5",
    "core-i7",
    "t5270",
    "fx-8320",
    "scc",
    "this-machine",
];

/// A processor the power, energy and reliability models can describe.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Preset name (`core-i7`, `scc`, `this-machine`, ...).
    pub name: String,
    /// Seed paper the facts come from, if any.
    pub seed: Option<String>,
    /// One line for people.
    pub description: String,
    /// Physical cores.
    pub cores: usize,
    /// Hardware threads per core.
    pub threads_per_core: usize,
    /// Cache hierarchy (PaRSA Table 1), for people.
    pub caches: Vec<String>,
    /// Where the power figures come from.
    pub power: PowerBasis,
    /// Thermal model parameters.
    pub thermal: ThermalParams,
    /// Provenance notes (calibration, profile used, detection).
    pub notes: Vec<String>,
}

/// The thermal model of a preset: `T = T_ambient + R_th x P`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ThermalParams {
    /// Ambient temperature.
    pub ambient_c: Celsius,
    /// Junction-to-ambient thermal resistance.
    pub r_th_k_per_w: KelvinPerWatt,
}

/// How a preset's power is obtained.
#[derive(Debug, Clone, PartialEq)]
pub enum PowerBasis {
    /// From PaRSA's McPAT tables.
    Table(TableBasis),
    /// From a static power plus C_eff V^2 f per core.
    Profile(ProfileBasis),
}

/// A preset whose power comes from PaRSA's Tables 4-7.
#[derive(Debug, Clone, PartialEq)]
pub struct TableBasis {
    /// `processor` key in the CSV.
    pub processor: String,
    /// The paper's table number.
    pub table: u32,
    /// The workload the table is for (every hardware thread busy).
    pub workload: String,
    /// Node used when none is asked for.
    pub default_node_nm: Nanometres,
    /// Fraction of a busy core's dynamic power (at the lowest clock) an idle core draws.
    pub idle_activity: f64,
}

/// A preset whose power comes from a profile.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileBasis {
    /// Process node.
    pub node_nm: Nanometres,
    /// Die area, if known.
    pub area_mm2: Option<SquareMillimetres>,
    /// Power with every core idle.
    pub static_w: Watts,
    /// Effective switched capacitance per busy core.
    pub c_eff_nf: NanoFarads,
    /// Operating points.
    pub states: Vec<StateSpec>,
    /// State busy cores run at by default.
    pub default_state: String,
    /// State idle cores sit at.
    pub idle_state: String,
    /// Fraction of C_eff an idle core switches.
    pub idle_activity: f64,
}

impl ProfileBasis {
    /// The state of that name.
    pub fn state(&self, name: &str) -> Option<&StateSpec> {
        self.states.iter().find(|s| s.name == name)
    }

    /// The idle state.
    pub fn idle(&self) -> &StateSpec {
        self.state(&self.idle_state)
            .expect("checked when the preset was built")
    }
}

impl Preset {
    /// The label of every figure modelled for this preset: `model:<name>`.
    pub fn source(&self) -> String {
        format!("model:{}", self.name)
    }

    /// Hardware threads of the chip.
    pub fn threads(&self) -> usize {
        self.cores * self.threads_per_core
    }

    /// Nodes with figures, largest first.
    pub fn nodes(&self) -> Vec<Nanometres> {
        match &self.power {
            PowerBasis::Table(t) => {
                let mut nodes: Vec<Nanometres> = parsa::rows_of(&t.processor)
                    .iter()
                    .map(|r| r.node_nm)
                    .collect();
                nodes.sort_unstable_by(|a, b| b.cmp(a));
                nodes.dedup();
                nodes
            }
            PowerBasis::Profile(p) => vec![p.node_nm],
        }
    }

    /// Frequencies with figures (table rows at `node`, or the profile's states), ascending.
    pub fn frequencies(&self, node: Nanometres) -> Vec<MegaHertz> {
        let mut f: Vec<MegaHertz> = match &self.power {
            PowerBasis::Table(t) => parsa::rows_of(&t.processor)
                .iter()
                .filter(|r| r.node_nm == node)
                .map(|r| r.freq_mhz)
                .collect(),
            PowerBasis::Profile(p) => p.states.iter().map(|s| s.mhz).collect(),
        };
        f.sort_by(f64::total_cmp);
        f.dedup();
        f
    }

    /// Node used when none is asked for.
    pub fn default_node(&self) -> Nanometres {
        match &self.power {
            PowerBasis::Table(t) => t.default_node_nm,
            PowerBasis::Profile(p) => p.node_nm,
        }
    }

    /// Frequency used when none is asked for: the highest table clock, or the default state.
    pub fn default_mhz(&self) -> MegaHertz {
        match &self.power {
            PowerBasis::Table(_) => *self
                .frequencies(self.default_node())
                .last()
                .expect("tables have rows"),
            PowerBasis::Profile(p) => p.state(&p.default_state).expect("checked").mhz,
        }
    }

    /// One line: cores, threads, nodes, clocks.
    pub fn summary(&self) -> String {
        let node = self.default_node();
        let clocks = match &self.power {
            PowerBasis::Table(_) => format!("{} MHz", join(self.frequencies(node))),
            PowerBasis::Profile(p) => p
                .states
                .iter()
                .map(|s| format!("{} {} MHz {} V", s.name, s.mhz, s.volts))
                .collect::<Vec<_>>()
                .join("; "),
        };
        format!(
            "{} cores x {} threads; nodes {} nm; {}",
            self.cores,
            self.threads_per_core,
            join(self.nodes()),
            clocks
        )
    }
}

/// Turns a checked spec into a preset.
fn build(spec: &PresetSpec, name: &str, cores: usize, threads: usize) -> Result<Preset, String> {
    let thermal = ThermalParams {
        ambient_c: spec.ambient_c,
        r_th_k_per_w: spec.r_th_k_per_w,
    };
    let mut notes = Vec::new();
    let power = if let Some(processor) = &spec.power_table {
        let rows = parsa::rows_of(processor);
        let first = rows
            .first()
            .ok_or(format!("no power-table rows for '{processor}'"))?;
        notes.push(format!(
            "power: PaRSA Table {} (McPAT, {}, every hardware thread busy)",
            first.table, first.workload
        ));
        PowerBasis::Table(TableBasis {
            processor: processor.clone(),
            table: first.table,
            workload: first.workload.clone(),
            default_node_nm: spec.default_node_nm.ok_or("'default_node_nm' is missing")?,
            idle_activity: spec.idle_activity,
        })
    } else {
        let cal = spec.calibrate(cores)?;
        notes.push(format!(
            "power: {:.3} W static + {:.4} nF x V^2 x f per busy core ({})",
            cal.static_w, cal.c_eff_nf, cal.note
        ));
        PowerBasis::Profile(ProfileBasis {
            node_nm: spec.node_nm.ok_or("'node_nm' is missing")?,
            area_mm2: spec.area_mm2,
            static_w: cal.static_w,
            c_eff_nf: cal.c_eff_nf,
            states: spec.state.clone(),
            default_state: spec.default_state.clone().unwrap_or_default(),
            idle_state: spec.idle_state.clone().unwrap_or_default(),
            idle_activity: spec.idle_activity,
        })
    };
    notes.push(format!(
        "thermal: T = {} °C + {} K/W x P (assumed)",
        thermal.ambient_c, thermal.r_th_k_per_w
    ));
    Ok(Preset {
        name: name.to_string(),
        seed: spec.seed.clone(),
        description: spec.description.clone(),
        cores,
        threads_per_core: threads,
        caches: spec.caches.clone(),
        power,
        thermal,
        notes,
    })
}

/// The built-in presets (all but `this-machine`), parsed once.
pub fn builtin_presets() -> &'static [Preset] {
    static PRESETS: OnceLock<Vec<Preset>> = OnceLock::new();
    PRESETS.get_or_init(|| {
        let file: PresetFile =
            toml::from_str(PRESETS_TOML).expect("data/presets.toml is checked by a test");
        file.preset
            .iter()
            .map(|spec| {
                let name = spec.name.clone().expect("built-in presets are named");
                let cores = spec.cores.expect("built-in presets give cores");
                let threads = spec.threads_per_core.unwrap_or(1);
                build(spec, &name, cores, threads)
                    .unwrap_or_else(|e| panic!("data/presets.toml, preset {name}: {e}"))
            })
            .collect()
    })
}

/// The `this-machine` preset: topology detected from `/proc/cpuinfo`, power from the profile
/// found by [`profile::resolve_profile`] (`explicit` first).
pub fn this_machine(explicit: Option<&Path>) -> EnergyResult<Preset> {
    let origin = profile::resolve_profile(explicit);
    let spec = profile::load_profile(&origin)?;
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let logical = crate::bench::logical_cores();
    let detected = crate::bench::machine::physical_cores(&cpuinfo).unwrap_or(logical);
    let cores = spec.cores.unwrap_or(detected);
    let threads = spec
        .threads_per_core
        .unwrap_or_else(|| (logical / cores.max(1)).max(1));
    let path = match &origin {
        ProfileOrigin::File(p) => p.clone(),
        ProfileOrigin::BuiltinDefault => "(built-in default profile)".into(),
    };
    let mut preset = build(&spec, "this-machine", cores, threads)
        .map_err(|message| EnergyError::Profile { path, message })?;
    let model = crate::bench::machine::cpu_model(&cpuinfo).unwrap_or_else(|| "unknown CPU".into());
    preset
        .notes
        .insert(0, format!("power parameters: {origin}"));
    preset.notes.insert(
        1,
        format!("topology: {cores} cores x {threads} threads ({model}; detected unless the profile sets them)"),
    );
    if preset.description.is_empty() {
        preset.description = format!("this machine ({model})");
    }
    Ok(preset)
}

/// The preset called `name`; `profile` is the `this-machine` profile file, if one was given.
pub fn preset(name: &str, profile: Option<&Path>) -> EnergyResult<Preset> {
    if name == "this-machine" {
        return this_machine(profile);
    }
    builtin_presets()
        .iter()
        .find(|p| p.name == name)
        .cloned()
        .ok_or_else(|| EnergyError::UnknownPreset {
            name: name.to_string(),
            known: PRESET_NAMES.join(", "),
        })
}

/// The built-in profile preset `name` with its static power set to `static_w` instead of the
/// assumed one, calibrated again (a TDP calibration then gives the cores what the static power
/// leaves): for judging a model over its static-power assumption. Table presets have no
/// static power to set.
pub fn with_static_power(name: &str, static_w: Watts) -> EnergyResult<Preset> {
    let file: PresetFile =
        toml::from_str(PRESETS_TOML).expect("data/presets.toml is checked by a test");
    let mut spec = file
        .preset
        .into_iter()
        .find(|s| s.name.as_deref() == Some(name) && s.power_table.is_none())
        .ok_or_else(|| EnergyError::UnknownPreset {
            name: name.to_string(),
            known: PRESET_NAMES.join(", "),
        })?;
    spec.static_w = Some(static_w);
    let (cores, threads) = (spec.cores.unwrap_or(1), spec.threads_per_core.unwrap_or(1));
    build(&spec, name, cores, threads).map_err(|message| EnergyError::Profile {
        path: format!("(built-in preset {name} at {static_w} W static)").into(),
        message,
    })
}

/// Whether the `this-machine` profile in use is the built-in guess.
pub fn uses_default_profile(explicit: Option<&Path>) -> bool {
    profile::resolve_profile(explicit) == ProfileOrigin::BuiltinDefault
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_resolves_and_unknown_names_list_the_known_ones() {
        for name in PRESET_NAMES {
            let p = preset(name, None).unwrap();
            assert_eq!(p.name, name);
            assert!(p.cores >= 1 && !p.nodes().is_empty());
            assert!(!p.frequencies(p.default_node()).is_empty(), "{name}");
        }
        let err = preset("pentium", None).unwrap_err();
        assert!(err.is_usage());
        assert!(err.to_string().contains("core2duo, core-i3"), "{err}");
    }

    #[test]
    fn parsa_presets_carry_table_1() {
        let i7 = preset("core-i7", None).unwrap();
        assert_eq!((i7.cores, i7.threads_per_core, i7.threads()), (4, 2, 8));
        assert_eq!(i7.nodes(), vec![90, 65, 45, 32, 22]);
        assert_eq!(
            i7.frequencies(22),
            vec![1200.0, 1500.0, 1800.0, 2100.0, 2400.0]
        );
        let c2d = preset("core2duo", None).unwrap();
        assert_eq!(c2d.frequencies(90), vec![800.0, 1600.0, 2130.0, 2800.0]);
        assert_eq!(preset("core-i3", None).unwrap().threads(), 4);
        assert_eq!(preset("core-i5", None).unwrap().threads(), 4);
    }

    #[test]
    fn scc_is_calibrated_to_the_two_measured_powers() {
        let scc = preset("scc", None).unwrap();
        assert_eq!((scc.cores, scc.default_mhz()), (48, 533.0));
        let PowerBasis::Profile(p) = &scc.power else {
            panic!("scc is a profile preset")
        };
        let chip = |active: usize| {
            p.static_w
                + active as f64 * crate::energy::units::cv2f(p.c_eff_nf, 0.9, 533.0)
                + (48 - active) as f64 * crate::energy::units::cv2f(p.c_eff_nf, 0.7, 100.0)
        };
        assert!((chip(1) - 20.56).abs() < 1e-9 && (chip(36) - 30.24).abs() < 1e-9);
        assert!((p.static_w - 18.584).abs() < 0.01, "{}", p.static_w);
        // Fig. 11's energies against power x time (section V): the sequential run agrees
        // (20.56 W x 1.904956 s = 39.166 J, printed 39.165 J); the pipelined one does not:
        // 30.24 W x 0.0702 s = 2.123 J, printed 2.476 J (which would need 0.0819 s). The
        // printed ratios (27.14x time, 15.82x energy) follow the printed figures.
        assert!((chip(1) * 1.904956 - 39.165).abs() < 0.002);
        let pipelined = chip(36) * 0.0702;
        assert!((pipelined - 2.1228).abs() < 1e-3 && (2.476 - pipelined) > 0.35);
    }

    #[test]
    fn a_preset_can_be_rebuilt_at_another_static_power() {
        let busy = |p: &Preset| match &p.power {
            PowerBasis::Profile(b) => (b.static_w, b.c_eff_nf),
            PowerBasis::Table(_) => panic!("a profile preset"),
        };
        let fx = preset("fx-8320", None).unwrap();
        let same = with_static_power("fx-8320", busy(&fx).0).unwrap();
        assert_eq!(busy(&same), busy(&fx));
        // The TDP calibration gives the cores what the static power leaves.
        let none = with_static_power("fx-8320", 0.0).unwrap();
        assert_eq!(busy(&none).0, 0.0);
        assert!((busy(&none).1 / busy(&fx).1 - 125.0 / 100.0).abs() < 1e-9);
        assert!(with_static_power("core-i7", 1.0).is_err(), "a table preset");
        assert!(
            with_static_power("fx-8320", 200.0).is_err(),
            "above the TDP"
        );
    }

    #[test]
    fn cipher_energy_states_are_the_papers() {
        let fx = preset("fx-8320", None).unwrap();
        let PowerBasis::Profile(p) = &fx.power else {
            panic!()
        };
        let v = |n: &str| (p.state(n).unwrap().mhz, p.state(n).unwrap().volts);
        assert_eq!(v("p1"), (2900.0, 1.3));
        assert_eq!(v("p4"), (1400.0, 0.95));
        assert_eq!(v("default"), (3500.0, 1.332));
        // Table 1 and Table 4 give different voltages for 2300 MHz.
        assert_eq!(v("calibrated"), (2300.0, 0.9));
        assert_eq!(v("p2"), (2300.0, 1.1875));
        let t = preset("t5270", None).unwrap();
        let PowerBasis::Profile(p) = &t.power else {
            panic!()
        };
        assert_eq!(p.state("default").unwrap().mhz, 1200.0);
        assert_eq!(p.state("calibrated").unwrap().volts, 0.9);
        // 9.42 W of application power per busy core at 1.2 GHz, 1.2 V.
        let busy = crate::energy::units::cv2f(p.c_eff_nf, 1.2, 1200.0)
            - 0.1 * crate::energy::units::cv2f(p.c_eff_nf, 0.9, 1500.0);
        assert!((busy - 9.422).abs() < 0.01, "{busy}");
    }

    #[test]
    fn this_machine_says_where_its_numbers_come_from() {
        let p = this_machine(None).unwrap();
        assert!(p.notes[0].contains("power parameters"));
        assert!(p.cores >= 1);
        let bad = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(bad.path(), "this is = not [toml").unwrap();
        let err = this_machine(Some(bad.path())).unwrap_err();
        assert!(
            err.is_usage() && err.to_string().contains("profile"),
            "{err}"
        );
    }
}
