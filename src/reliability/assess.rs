//! The reliability of a preset at an operating point: its power (the power model), its
//! temperature (sensors, the thermal model, or given) and its RAMP MTTF — and the % change
//! between two operating points, in Table 9's form.
use serde::Serialize;
use std::path::PathBuf;

use super::ramp::{self, Condition, Mttf, MttfChange, Reference};
use super::thermal::{self, Temperature, ThermalModel};
use crate::energy::first_principles as fp;
use crate::energy::power_model::{PowerEstimate, PowerQuery, estimate};
use crate::energy::presets::{PowerBasis, Preset};
use crate::energy::units::{Kelvin, MegaHertz, Nanometres, Volts};
use crate::error::{EnergyError, EnergyResult};

/// Where the temperature comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum TemperatureChoice {
    /// `T = T_ambient + R_th x P` of the preset.
    Model,
    /// The hottest sensor under this sysfs root; the model when there is none.
    Sensors(PathBuf),
    /// A temperature the user gave.
    Given(Kelvin),
}

/// Power, temperature and MTTF at one operating point.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Assessment {
    /// The power model's figures (`source` says it is a model).
    pub power: PowerEstimate,
    /// Supply voltage used by TDDB and EM.
    pub volts: Volts,
    /// Junction temperature and its source.
    pub temperature: Temperature,
    /// Ambient temperature (for thermal cycling).
    pub ambient_k: Kelvin,
    /// MTTF per mechanism and combined.
    pub mttf: Mttf,
    /// The reference the MTTF figures are relative to.
    pub reference: String,
}

/// Two operating points and how much longer the first lasts (Table 9: power-efficient over
/// energy-efficient).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    /// The first point (`--freq`).
    pub this: Assessment,
    /// The second point (`--vs-freq`).
    pub other: Assessment,
    /// `(MTTF this / MTTF other - 1) x 100`, per mechanism.
    pub change: MttfChange,
}

/// The reference of a preset at a node: its nominal voltage and highest clock.
pub fn reference_for(preset: &Preset, node: Nanometres) -> EnergyResult<Reference> {
    let (volts, mhz) = match &preset.power {
        PowerBasis::Table(_) => (
            fp::vdd(node).ok_or_else(|| no_voltage(preset, node))?,
            *preset
                .frequencies(preset.default_node())
                .last()
                .expect("rows"),
        ),
        PowerBasis::Profile(p) => {
            let top = p
                .states
                .iter()
                .max_by(|a, b| a.mhz.total_cmp(&b.mhz))
                .expect("profiles have states");
            (top.volts, top.mhz)
        }
    };
    Ok(Reference::standard(volts, mhz))
}

fn no_voltage(preset: &Preset, node: Nanometres) -> EnergyError {
    EnergyError::InvalidParameter(format!(
        "no supply voltage is known for {} at {node} nm (nominal voltages cover {}-{} nm)",
        preset.name,
        fp::NODE_RANGE.0,
        fp::NODE_RANGE.1
    ))
}

/// Assesses `preset` at `q`.
pub fn assess(
    preset: &Preset,
    q: &PowerQuery,
    temp: &TemperatureChoice,
) -> EnergyResult<Assessment> {
    let power = estimate(preset, q)?;
    let volts = power
        .volts
        .ok_or_else(|| no_voltage(preset, power.node_nm))?;
    let model = ThermalModel::of(preset);
    // The temperature is the preset's thermal model, whatever the power's source.
    let label = format!("{} (power {})", preset.source(), power.source);
    let modelled = || model.temperature(power.p_total_w, &label);
    let temperature = match temp {
        TemperatureChoice::Model => modelled(),
        TemperatureChoice::Sensors(root) => thermal::hottest(root)
            .map(|t| Temperature {
                source: format!("{} (now, whatever the machine is doing)", t.source),
                ..t
            })
            .unwrap_or_else(|| {
                let t = modelled();
                Temperature {
                    source: format!("{} (no temperature sensor found)", t.source),
                    ..t
                }
            }),
        TemperatureChoice::Given(k) => Temperature {
            kelvin: *k,
            source: "given".into(),
        },
    };
    let reference = reference_for(preset, power.node_nm)?;
    let condition = Condition {
        kelvin: temperature.kelvin,
        ambient_k: model.ambient_k,
        volts,
        mhz: power.freq_mhz,
    };
    let mttf = ramp::mttf(&condition, &reference, &ramp::PARSA)?;
    Ok(Assessment {
        power,
        volts,
        temperature,
        ambient_k: model.ambient_k,
        mttf,
        reference: reference.describe(),
    })
}

/// Assesses `preset` at `this` and at `other` and gives the % change of `this` over `other`.
pub fn compare(
    preset: &Preset,
    this: &PowerQuery,
    other: &PowerQuery,
    temps: (&TemperatureChoice, &TemperatureChoice),
) -> EnergyResult<Comparison> {
    let a = assess(preset, this, temps.0)?;
    let b = assess(preset, other, temps.1)?;
    let change = ramp::percent_change(&a.mttf, &b.mttf);
    Ok(Comparison {
        this: a,
        other: b,
        change,
    })
}

/// A query at `node` and `mhz`, everything else default.
pub fn at(node: Nanometres, mhz: MegaHertz) -> PowerQuery {
    PowerQuery {
        node_nm: Some(node),
        mhz: Some(mhz),
        ..PowerQuery::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::energy::presets::preset;

    #[test]
    fn a_seed_000_preset_is_assessed_with_the_model_temperature() {
        let i7 = preset("core-i7", None).unwrap();
        let a = assess(&i7, &at(22, 2400.0), &TemperatureChoice::Model).unwrap();
        assert!((a.power.p_total_w - 19.04).abs() < 1e-9);
        assert!((a.temperature.kelvin - (318.15 + 0.8 * 19.04)).abs() < 1e-9);
        assert!(a.temperature.source.starts_with("model:core-i7"));
        assert_eq!(a.volts, 0.8);
        let given = assess(&i7, &at(22, 2400.0), &TemperatureChoice::Given(350.0)).unwrap();
        assert_eq!(given.temperature.source, "given");
        assert!(given.mttf.combined_years < a.mttf.combined_years);
    }

    #[test]
    fn without_sensors_the_model_is_used() {
        let empty = tempfile::tempdir().unwrap();
        let scc = preset("scc", None).unwrap();
        let a = assess(
            &scc,
            &PowerQuery::default(),
            &TemperatureChoice::Sensors(empty.path().into()),
        )
        .unwrap();
        assert!(a.temperature.source.starts_with("model:scc"));
    }

    #[test]
    fn lower_clock_lasts_longer() {
        let c = preset("core2duo", None).unwrap();
        let m = TemperatureChoice::Model;
        let cmp = compare(&c, &at(22, 800.0), &at(22, 2800.0), (&m, &m)).unwrap();
        assert!(cmp.change.em_pct > 0.0 && cmp.change.combined_pct > 0.0);
    }
}
