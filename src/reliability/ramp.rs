//! RAMP lifetime reliability (PaRSA, section 4.3): MTTF from electromigration (EM), stress
//! migration (SM), time-dependent dielectric breakdown (TDDB) and thermal cycling (TC), with
//! the seed's constants (Table 3 and the text), combined by adding failure rates.
//!
//! - EM: `MTTF ∝ J^-n e^(Ea/kT)`, n = 1.1, Ea = 0.9 eV. RAMP takes the current density as
//!   `J = C V f p / (W H)`; for one design at one node only `V f` changes, so `J ∝ V f`.
//! - SM: `MTTF ∝ |T - T0|^-m e^(Ea/kT)`, m = 2.5, Ea = 0.9 eV, T0 = 500 K (the stress-free
//!   temperature RAMP uses; the seed names T0 but gives no value). The seed prints `(T - T0)`;
//!   with T below T0 the magnitude is meant.
//! - TDDB: `MTTF ∝ (1/V)^(a - bT) e^((X + Y/T + Z T)/kT)`, Table 3: a = 78, b = -0.081,
//!   X = 0.759 eV, Y = -66.8 eV K, Z = -8.37e-4 eV/K.
//! - TC: `MTTF ∝ (1 / (T_average - T_ambient))^q`, q = 2.35.
//!
//! Each law fixes MTTF only up to a constant. Absolute figures are relative to a documented
//! [`Reference`]: at it every mechanism lasts [`PER_MECHANISM_YEARS`] (so all four together,
//! failure rates added, last 30 years — RAMP's qualification convention with equal shares, our
//! assumption). Percent changes between two conditions (Table 9's form) do not depend on it.
use serde::Serialize;

use crate::claims::parsa as paper;
use crate::energy::units::{Kelvin, MegaHertz, Volts, Years, celsius_to_kelvin};
use crate::error::{EnergyError, EnergyResult};

/// Boltzmann's constant, eV/K.
pub const BOLTZMANN_EV_PER_K: f64 = 8.617_333_262e-5;

/// The constants of the four mechanisms.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct RampConstants {
    /// EM current-density exponent n.
    pub em_n: f64,
    /// EM activation energy, eV.
    pub em_ea_ev: f64,
    /// SM exponent m.
    pub sm_m: f64,
    /// SM activation energy, eV.
    pub sm_ea_ev: f64,
    /// SM stress-free temperature T0, K.
    pub sm_t0_k: Kelvin,
    /// TDDB a.
    pub tddb_a: f64,
    /// TDDB b, 1/K.
    pub tddb_b: f64,
    /// TDDB X, eV.
    pub tddb_x_ev: f64,
    /// TDDB Y, eV K.
    pub tddb_y_ev_k: f64,
    /// TDDB Z, eV/K.
    pub tddb_z_ev_per_k: f64,
    /// Coffin-Manson exponent q.
    pub tc_q: f64,
}

/// PaRSA's constants (Table 3 and section 4.3, from the claims registry) and RAMP's
/// T0 = 500 K.
pub const PARSA: RampConstants = RampConstants {
    em_n: paper::RAMP_EM_N,
    em_ea_ev: paper::RAMP_EM_EA_EV,
    sm_m: paper::RAMP_SM_M,
    sm_ea_ev: paper::RAMP_SM_EA_EV,
    sm_t0_k: 500.0,
    tddb_a: paper::RAMP_TDDB_A,
    tddb_b: paper::RAMP_TDDB_B,
    tddb_x_ev: paper::RAMP_TDDB_X_EV,
    tddb_y_ev_k: paper::RAMP_TDDB_Y_EV_K,
    tddb_z_ev_per_k: paper::RAMP_TDDB_Z_EV_PER_K,
    tc_q: paper::RAMP_TC_Q,
};

/// MTTF of every mechanism at the reference.
pub const PER_MECHANISM_YEARS: Years = 120.0;

/// Where a chip operates.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Condition {
    /// Junction temperature (the average over the run).
    pub kelvin: Kelvin,
    /// Ambient temperature.
    pub ambient_k: Kelvin,
    /// Supply voltage.
    pub volts: Volts,
    /// Clock (for EM's current density).
    pub mhz: MegaHertz,
}

/// The condition at which every mechanism lasts [`PER_MECHANISM_YEARS`].
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Reference {
    /// The reference condition.
    pub condition: Condition,
}

impl Reference {
    /// 85 °C junction, 45 °C ambient, at `volts` and `mhz` (parcrypt uses the chip's nominal
    /// voltage and its highest clock).
    pub fn standard(volts: Volts, mhz: MegaHertz) -> Self {
        Self {
            condition: Condition {
                kelvin: celsius_to_kelvin(85.0),
                ambient_k: celsius_to_kelvin(45.0),
                volts,
                mhz,
            },
        }
    }

    /// One line for people.
    pub fn describe(&self) -> String {
        let c = &self.condition;
        format!(
            "each mechanism {PER_MECHANISM_YEARS} years (all four 30 years) at {:.0} °C junction, {:.0} °C ambient, {} V, {} MHz",
            c.kelvin - 273.15,
            c.ambient_k - 273.15,
            c.volts,
            c.mhz
        )
    }
}

/// MTTF per mechanism and combined, in years.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Mttf {
    /// Electromigration.
    pub em_years: Years,
    /// Stress migration.
    pub sm_years: Years,
    /// Time-dependent dielectric breakdown.
    pub tddb_years: Years,
    /// Thermal cycling.
    pub tc_years: Years,
    /// All four, failure rates added.
    pub combined_years: Years,
}

/// Percent change of each MTTF of one condition over another (Table 9's form).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MttfChange {
    /// EM, %.
    pub em_pct: f64,
    /// SM, %.
    pub sm_pct: f64,
    /// TDDB, %.
    pub tddb_pct: f64,
    /// TC, %.
    pub tc_pct: f64,
    /// Combined, %.
    pub combined_pct: f64,
}

/// Natural logs of the four (unnormalised) MTTF laws.
fn ln_laws(c: &Condition, k: &RampConstants) -> EnergyResult<[f64; 4]> {
    if !(c.kelvin > 0.0 && c.volts > 0.0 && c.mhz > 0.0) {
        return Err(EnergyError::InvalidParameter(format!(
            "RAMP needs a positive temperature, voltage and clock, got {} K, {} V, {} MHz",
            c.kelvin, c.volts, c.mhz
        )));
    }
    if c.kelvin <= c.ambient_k {
        return Err(EnergyError::InvalidParameter(format!(
            "thermal cycling needs the chip ({:.2} K) above ambient ({:.2} K)",
            c.kelvin, c.ambient_k
        )));
    }
    let kt = BOLTZMANN_EV_PER_K * c.kelvin;
    let t = c.kelvin;
    let em = -k.em_n * (c.volts * c.mhz).ln() + k.em_ea_ev / kt;
    let sm = -k.sm_m * (t - k.sm_t0_k).abs().ln() + k.sm_ea_ev / kt;
    let tddb = (k.tddb_a - k.tddb_b * t) * (1.0 / c.volts).ln()
        + (k.tddb_x_ev + k.tddb_y_ev_k / t + k.tddb_z_ev_per_k * t) / kt;
    let tc = -k.tc_q * (t - c.ambient_k).ln();
    Ok([em, sm, tddb, tc])
}

/// MTTF at `c`, relative to `reference`, with the constants `k`.
pub fn mttf(c: &Condition, reference: &Reference, k: &RampConstants) -> EnergyResult<Mttf> {
    let (now, at_ref) = (ln_laws(c, k)?, ln_laws(&reference.condition, k)?);
    let y: Vec<Years> = now
        .iter()
        .zip(at_ref)
        .map(|(n, r)| PER_MECHANISM_YEARS * (n - r).exp())
        .collect();
    let rate: f64 = y.iter().map(|v| 1.0 / v).sum();
    Ok(Mttf {
        em_years: y[0],
        sm_years: y[1],
        tddb_years: y[2],
        tc_years: y[3],
        combined_years: 1.0 / rate,
    })
}

/// `(a / b - 1) x 100` for every MTTF: how much longer `a` lasts than `b`.
pub fn percent_change(a: &Mttf, b: &Mttf) -> MttfChange {
    let p = |x: f64, y: f64| (x / y - 1.0) * 100.0;
    MttfChange {
        em_pct: p(a.em_years, b.em_years),
        sm_pct: p(a.sm_years, b.sm_years),
        tddb_pct: p(a.tddb_years, b.tddb_years),
        tc_pct: p(a.tc_years, b.tc_years),
        combined_pct: p(a.combined_years, b.combined_years),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(c: f64, mhz: f64) -> Condition {
        Condition {
            kelvin: celsius_to_kelvin(c),
            ambient_k: celsius_to_kelvin(45.0),
            volts: 1.0,
            mhz,
        }
    }

    #[test]
    fn the_reference_gives_120_years_each_and_30_together() {
        let r = Reference::standard(1.0, 2000.0);
        let m = mttf(&r.condition, &r, &PARSA).unwrap();
        for y in [m.em_years, m.sm_years, m.tddb_years, m.tc_years] {
            assert!((y - 120.0).abs() < 1e-9);
        }
        assert!((m.combined_years - 30.0).abs() < 1e-9);
        assert!(r.describe().contains("85 °C junction"));
    }

    #[test]
    fn hotter_and_faster_wears_out_sooner() {
        let r = Reference::standard(1.0, 2000.0);
        let cool = mttf(&at(60.0, 1000.0), &r, &PARSA).unwrap();
        let hot = mttf(&at(80.0, 2000.0), &r, &PARSA).unwrap();
        let ch = percent_change(&cool, &hot);
        assert!(ch.em_pct > 0.0 && ch.sm_pct > 0.0 && ch.tddb_pct > 0.0 && ch.tc_pct > 0.0);
        assert!(ch.combined_pct > 0.0);
        // EM alone: J halves (2^1.1) and the Arrhenius factor of 60 C vs 80 C.
        let arrhenius = (0.9 / BOLTZMANN_EV_PER_K * (1.0 / 333.15 - 1.0 / 353.15)).exp();
        assert!((ch.em_pct - (2f64.powf(1.1) * arrhenius - 1.0) * 100.0).abs() < 1e-6);
        // TC: (35 K / 15 K)^2.35.
        assert!((ch.tc_pct - ((35.0f64 / 15.0).powf(2.35) - 1.0) * 100.0).abs() < 1e-6);
    }

    #[test]
    fn a_chip_at_ambient_is_refused() {
        let r = Reference::standard(1.0, 2000.0);
        assert!(mttf(&at(45.0, 1000.0), &r, &PARSA).is_err());
        assert!(
            mttf(
                &Condition {
                    volts: 0.0,
                    ..at(60.0, 1000.0)
                },
                &r,
                &PARSA
            )
            .is_err()
        );
    }
}
