//! Chip power at an operating point: the calibrated model that reproduces PaRSA's Tables
//! 4-7, the profile model of the other presets, and (on request) the first-principles model.
//!
//! Calibrated (table presets): dynamic power is linear in f between the table's clocks of a
//! node (piecewise, so every table value is reproduced exactly; other clocks only with
//! `interpolate`), for every hardware thread busy. With `k` of `N` cores active, the active
//! cores draw `k/N` of it and each idle core sits at the lowest clock drawing
//! `idle_activity x P_dyn(f_min) / N`. Leakage is gate + subthreshold; power gating replaces
//! the subthreshold part by the table's power-gated figure and switches idle cores off.
//!
//! Profile presets: `P = static + k C_eff V^2 f + (N - k) idle_activity C_eff V_idle^2 f_idle`;
//! power gating switches idle cores off (the static power is not split per core).
use serde::Serialize;

mod profile;
mod table;

use super::first_principles as fp;
use super::presets::{PowerBasis, Preset};
use super::units::{MegaHertz, Nanometres, SquareMillimetres, Volts, Watts};
use crate::error::{EnergyError, EnergyResult, join};

/// Which model computes the figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ModelKind {
    /// Calibrated to the tables (seed-000 presets) or the preset's profile.
    #[default]
    Calibrated,
    /// alpha C V^2 f with node scaling, anchored at the preset's largest table node.
    FirstPrinciples,
}

/// What to estimate.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PowerQuery {
    /// Process node; the preset's default when `None`.
    pub node_nm: Option<Nanometres>,
    /// Clock; the preset's default when `None` (and no `state`).
    pub mhz: Option<MegaHertz>,
    /// Profile presets: a named state (`default`, `calibrated`, `p2`, ...).
    pub state: Option<String>,
    /// Busy cores (fractions allowed, for meters); all cores when `None`.
    pub active_cores: Option<f64>,
    /// Power gating of idle units.
    pub power_gating: bool,
    /// Allow nodes and clocks the preset lacks (interpolated or scaled, and labelled so).
    pub interpolate: bool,
    /// Which model.
    pub model: ModelKind,
}

/// The power of a chip at one operating point; `source` says whether it is the paper's table
/// or a model.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PowerEstimate {
    /// Dynamic power.
    pub p_dynamic_w: Watts,
    /// Leakage (table presets: gate + subthreshold; profile presets: the static power).
    pub p_leak_w: Watts,
    /// Dynamic + leakage.
    pub p_total_w: Watts,
    /// Die area, if known.
    pub area_mm2: Option<SquareMillimetres>,
    /// Where the figure comes from: `paper:parsa-table-N` (a table row as printed; rows
    /// rebuilt from an illegible scan say so in `notes`), `model:first-principles`, or
    /// `model:<preset>` (interpolated, scaled, partly busy, or a profile preset).
    pub source: String,
    /// Preset.
    pub preset: String,
    /// Node.
    pub node_nm: Nanometres,
    /// Clock of the active cores.
    pub freq_mhz: MegaHertz,
    /// Supply voltage, when the model knows it.
    pub volts: Option<Volts>,
    /// Busy cores.
    pub active_cores: f64,
    /// Cores of the chip.
    pub cores: usize,
    /// Power gating on.
    pub power_gating: bool,
    /// Gate leakage (table presets).
    pub p_leak_gate_w: Option<Watts>,
    /// Subthreshold leakage, power-gated if asked (table presets).
    pub p_leak_subthreshold_w: Option<Watts>,
    /// How the figure was obtained: `table`, `table-interpolated`, `profile`,
    /// `first-principles`, ...
    pub basis: String,
    /// Caveats for people.
    pub notes: Vec<String>,
}

/// Per-core dynamic power of active and idle cores, and the leakage parts, before combining.
struct Parts {
    busy_core_w: Watts,
    idle_core_w: Watts,
    gate_w: Option<Watts>,
    sub_w: Option<Watts>,
    sub_pg_w: Option<Watts>,
    static_w: Watts,
    area: Option<SquareMillimetres>,
    volts: Option<Volts>,
    mhz: MegaHertz,
    basis: String,
    notes: Vec<String>,
}

/// Estimates the power of `preset` at the operating point `q`.
pub fn estimate(preset: &Preset, q: &PowerQuery) -> EnergyResult<PowerEstimate> {
    let n = preset.cores as f64;
    let k = q.active_cores.unwrap_or(n);
    if !(0.0..=n).contains(&k) {
        return Err(EnergyError::InvalidParameter(format!(
            "active cores must be between 0 and {} for {}, got {k}",
            preset.cores, preset.name
        )));
    }
    let node = q.node_nm.unwrap_or_else(|| preset.default_node());
    let parts = match &preset.power {
        PowerBasis::Table(t) => table::table_parts(preset, t, node, q)?,
        PowerBasis::Profile(p) => profile::profile_parts(preset, p, node, q)?,
    };
    let idle_w = if q.power_gating {
        0.0
    } else {
        parts.idle_core_w
    };
    let p_dynamic_w = k * parts.busy_core_w + (n - k) * idle_w;
    let (gate, sub) = match (parts.gate_w, parts.sub_w, parts.sub_pg_w) {
        (Some(g), Some(s), Some(pg)) => (Some(g), Some(if q.power_gating { pg } else { s })),
        _ => (None, None),
    };
    // Without power gating the table's own total (as the data file reads it: Table 7's
    // 28.11 W at 32 nm, a slip, is read as its parts' 28.13 W); with it, gate + power-gated
    // subthreshold.
    let p_leak_w = match (gate, sub) {
        (Some(g), Some(s)) if q.power_gating => g + s,
        _ => parts.static_w,
    };
    let mut notes = parts.notes;
    if q.power_gating && matches!(preset.power, PowerBasis::Profile(_)) {
        notes.push(
            "power gating switches idle cores off; the static power is not split per core".into(),
        );
    }
    let source = source(preset, &parts.basis, k);
    Ok(PowerEstimate {
        p_dynamic_w,
        p_leak_w,
        p_total_w: p_dynamic_w + p_leak_w,
        area_mm2: parts.area,
        source,
        preset: preset.name.clone(),
        node_nm: node,
        freq_mhz: parts.mhz,
        volts: parts.volts,
        active_cores: k,
        cores: preset.cores,
        power_gating: q.power_gating,
        p_leak_gate_w: gate,
        p_leak_subthreshold_w: sub,
        basis: parts.basis,
        notes,
    })
}

/// The label of an estimate: `paper:parsa-table-N` for a table row read as printed (every
/// core busy, the workload the table is for), `model:first-principles` for the αCV²f model,
/// `model:<preset>` for everything interpolated, scaled or computed from a profile.
fn source(preset: &Preset, basis: &str, active_cores: f64) -> String {
    match (&preset.power, basis) {
        (_, "first-principles") => "model:first-principles".into(),
        (PowerBasis::Table(t), "table") if active_cores == preset.cores as f64 => {
            format!("paper:parsa-table-{}", t.table)
        }
        _ => preset.source(),
    }
}

fn node_error(preset: &Preset, node: Nanometres) -> EnergyError {
    EnergyError::UnknownNode {
        preset: preset.name.clone(),
        node,
        known: join(preset.nodes()),
        hint: if fp::covers(node) {
            "; --interpolate scales to it with the first-principles model".into()
        } else {
            format!(
                "; node scaling covers {}-{} nm",
                fp::NODE_RANGE.0,
                fp::NODE_RANGE.1
            )
        },
    }
}

fn freq_error(preset: &Preset, node: Nanometres, mhz: MegaHertz, states: &str) -> EnergyError {
    EnergyError::UnknownFrequency {
        preset: preset.name.clone(),
        freq: mhz.to_string(),
        known: format!("{}{states}", join(preset.frequencies(node))),
        hint: "; --interpolate models clocks in between".into(),
    }
}

/// Power as a line in the number of busy cores at one operating point: `base_w` with none
/// busy, plus `per_busy_core_w` for each (used by the model meter).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearPower {
    /// Power with no core busy.
    pub base_w: Watts,
    /// Added power per busy core.
    pub per_busy_core_w: Watts,
    /// Cores of the chip (busy cores are capped there).
    pub cores: usize,
}

impl LinearPower {
    /// The line of `preset` at `q` (its `active_cores` is ignored).
    pub fn of(preset: &Preset, q: &PowerQuery) -> EnergyResult<Self> {
        let at = |k: f64| {
            estimate(
                preset,
                &PowerQuery {
                    active_cores: Some(k),
                    ..q.clone()
                },
            )
        };
        let (zero, one) = (at(0.0)?, at(1.0)?);
        Ok(Self {
            base_w: zero.p_total_w,
            per_busy_core_w: one.p_total_w - zero.p_total_w,
            cores: preset.cores,
        })
    }

    /// Power with `busy` cores busy (capped at the chip's cores).
    pub fn watts(&self, busy: f64) -> Watts {
        self.base_w + busy.clamp(0.0, self.cores as f64) * self.per_busy_core_w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::energy::parsa;
    use crate::energy::presets::preset;

    fn at(_name: &str, node: u32, mhz: f64) -> PowerQuery {
        PowerQuery {
            node_nm: Some(node),
            mhz: Some(mhz),
            ..PowerQuery::default()
        }
    }

    #[test]
    fn all_90_rows_of_tables_4_to_7_are_reproduced() {
        let mut worst: f64 = 0.0;
        for r in parsa::power_rows() {
            let name = match r.processor.as_str() {
                "core2duo" => "core2duo",
                "core_i3" => "core-i3",
                "core_i5" => "core-i5",
                _ => "core-i7",
            };
            let e = estimate(
                &preset(name, None).unwrap(),
                &at(name, r.node_nm, r.freq_mhz),
            )
            .unwrap();
            for (model, table) in [
                (e.p_dynamic_w, r.p_dynamic_w),
                (e.p_leak_w, r.p_leak_total_w),
                (e.p_total_w, r.p_total_w()),
            ] {
                let rel = (model - table).abs() / table;
                worst = worst.max(rel);
                assert!(
                    rel < 0.005,
                    "{name} {} nm {} MHz: {model} vs {table}",
                    r.node_nm,
                    r.freq_mhz
                );
                assert!(rel < 1e-12, "the calibrated model is exact at table points");
            }
            assert_eq!(e.area_mm2, Some(r.area_mm2));
            assert_eq!(e.basis, "table");
            let gated = estimate(
                &preset(name, None).unwrap(),
                &PowerQuery {
                    power_gating: true,
                    ..at(name, r.node_nm, r.freq_mhz)
                },
            )
            .unwrap();
            assert!((gated.p_leak_w - (r.p_leak_gate_w + r.p_leak_subthreshold_pg_w)).abs() < 1e-9);
        }
        println!(
            "90 rows reproduced; worst relative difference {:.2e}",
            worst
        );
    }

    #[test]
    fn missing_nodes_and_clocks_are_refused_unless_interpolation_is_asked() {
        let i7 = preset("core-i7", None).unwrap();
        let err = estimate(&i7, &at("", 28, 1200.0)).unwrap_err();
        assert!(
            err.to_string().contains("nodes: 90, 65, 45, 32, 22"),
            "{err}"
        );
        let err = estimate(&i7, &at("", 22, 1300.0)).unwrap_err();
        assert!(
            err.to_string().contains("1200, 1500, 1800, 2100, 2400"),
            "{err}"
        );
        let q = PowerQuery {
            interpolate: true,
            ..at("", 22, 1350.0)
        };
        let e = estimate(&i7, &q).unwrap();
        assert_eq!(e.basis, "table-interpolated");
        assert!((e.p_dynamic_w - (3.4 + 4.18) / 2.0).abs() < 1e-9);
        let e = estimate(
            &i7,
            &PowerQuery {
                interpolate: true,
                ..at("", 28, 1200.0)
            },
        )
        .unwrap();
        assert_eq!(e.basis, "table-node-scaled");
        assert!(e.p_dynamic_w > 3.4 && e.p_dynamic_w < 6.17);
        assert!(
            estimate(
                &i7,
                &PowerQuery {
                    interpolate: true,
                    ..at("", 14, 1200.0)
                }
            )
            .is_err()
        );
    }

    #[test]
    fn idle_cores_sit_at_the_lowest_clock_and_power_gating_switches_them_off() {
        let i7 = preset("core-i7", None).unwrap();
        let one = PowerQuery {
            active_cores: Some(1.0),
            ..at("", 22, 2400.0)
        };
        let e = estimate(&i7, &one).unwrap();
        assert!((e.p_dynamic_w - (6.53 / 4.0 + 3.0 * 3.4 / 4.0)).abs() < 1e-9);
        let g = estimate(
            &i7,
            &PowerQuery {
                power_gating: true,
                ..one
            },
        )
        .unwrap();
        assert!((g.p_dynamic_w - 6.53 / 4.0).abs() < 1e-9);
        assert!((g.p_leak_w - (0.02 + 6.22)).abs() < 1e-9);
        assert!(
            estimate(
                &i7,
                &PowerQuery {
                    active_cores: Some(5.0),
                    ..at("", 22, 2400.0)
                }
            )
            .is_err()
        );
    }

    #[test]
    fn profile_presets_use_their_states() {
        let scc = preset("scc", None).unwrap();
        let seq = estimate(
            &scc,
            &PowerQuery {
                active_cores: Some(1.0),
                ..PowerQuery::default()
            },
        )
        .unwrap();
        let pipe = estimate(
            &scc,
            &PowerQuery {
                active_cores: Some(36.0),
                ..PowerQuery::default()
            },
        )
        .unwrap();
        assert!((seq.p_total_w - 20.56).abs() < 1e-9 && (pipe.p_total_w - 30.24).abs() < 1e-9);
        assert_eq!(seq.source, "model:scc");
        let fx = preset("fx-8320", None).unwrap();
        let q = |state: &str| PowerQuery {
            state: Some(state.into()),
            ..PowerQuery::default()
        };
        let default = estimate(&fx, &q("default")).unwrap();
        assert!((default.p_total_w - 125.0).abs() < 1e-9);
        let cal = estimate(&fx, &q("calibrated")).unwrap();
        let p2 = estimate(
            &fx,
            &PowerQuery {
                mhz: Some(2300.0),
                ..PowerQuery::default()
            },
        )
        .unwrap();
        assert!(
            cal.p_total_w < p2.p_total_w,
            "0.9 V beats 1.1875 V at 2300 MHz"
        );
        assert!(
            !p2.notes.is_empty(),
            "two states at 2300 MHz are pointed out"
        );
        let err = estimate(
            &fx,
            &PowerQuery {
                mhz: Some(3000.0),
                ..PowerQuery::default()
            },
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("1400, 1700, 2300, 2900, 3500"),
            "{err}"
        );
        let err = estimate(
            &fx,
            &PowerQuery {
                node_nm: Some(45),
                ..PowerQuery::default()
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("nodes: 32"), "{err}");
    }

    #[test]
    fn the_meter_line_matches_the_estimate() {
        let i5 = preset("core-i5", None).unwrap();
        let q = at("", 22, 2400.0);
        let line = LinearPower::of(&i5, &q).unwrap();
        let full = estimate(&i5, &q).unwrap();
        assert!((line.watts(4.0) - full.p_total_w).abs() < 1e-9);
        assert_eq!(line.watts(9.0), line.watts(4.0));
    }
}
