//! The profile model of the other presets (seeds 001 and 004, `this-machine`):
//! `static + k C_eff V^2 f + (N - k) idle_activity C_eff V_idle^2 f_idle` at a named state or a
//! clock, voltages interpolated between states and nodes scaled only when asked.
use super::{ModelKind, Parts, PowerQuery, freq_error, node_error};
use crate::energy::first_principles as fp;
use crate::energy::presets::{Preset, ProfileBasis};
use crate::energy::units::{Nanometres, cv2f};
use crate::error::{EnergyError, EnergyResult};

/// Per-core dynamic power and static power of a profile preset at `node` and `q`.
pub(super) fn profile_parts(
    preset: &Preset,
    p: &ProfileBasis,
    node: Nanometres,
    q: &PowerQuery,
) -> EnergyResult<Parts> {
    let mut notes = Vec::new();
    let states_list = format!(
        "; states: {}",
        p.states
            .iter()
            .map(|s| s.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let (mhz, volts, mut basis) = match (&q.state, q.mhz) {
        (Some(name), _) => {
            let s = p.state(name).ok_or_else(|| {
                EnergyError::InvalidParameter(format!(
                    "{} has no state '{name}' (states: {})",
                    preset.name,
                    p.states
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
            if q.mhz.is_some_and(|f| (f - s.mhz).abs() >= 0.5) {
                return Err(EnergyError::InvalidParameter(format!(
                    "state '{name}' runs at {} MHz, not {} MHz",
                    s.mhz,
                    q.mhz.unwrap_or_default()
                )));
            }
            (s.mhz, s.volts, "profile".to_string())
        }
        (None, None) => {
            let s = p.state(&p.default_state).expect("checked");
            (s.mhz, s.volts, "profile".to_string())
        }
        (None, Some(f)) => match p.states.iter().find(|s| (s.mhz - f).abs() < 0.5) {
            Some(s) => {
                if p.states.iter().filter(|o| (o.mhz - f).abs() < 0.5).count() > 1 {
                    notes.push(format!(
                        "several states run at {f} MHz; '{}' ({} V) used, --state picks another",
                        s.name, s.volts
                    ));
                }
                (s.mhz, s.volts, "profile".to_string())
            }
            None if q.interpolate && f > 0.0 && f.is_finite() => {
                let mut pts: Vec<(f64, f64)> = p.states.iter().map(|s| (s.mhz, s.volts)).collect();
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                pts.dedup_by(|a, b| (a.0 - b.0).abs() < 0.5);
                let v = fp::interpolate(&pts, f).expect("states").max(0.1);
                notes.push(format!(
                    "{f} MHz is not a state: voltage {v:.3} V interpolated between states"
                ));
                (f, v, "profile-interpolated".to_string())
            }
            None => return Err(freq_error(preset, node, f, &states_list)),
        },
    };
    let idle = p.idle();
    let mut busy = cv2f(p.c_eff_nf, volts, mhz);
    let mut idle_w = p.idle_activity * cv2f(p.c_eff_nf, idle.volts, idle.mhz);
    let (mut static_w, mut area) = (p.static_w, p.area_mm2);
    if node != p.node_nm {
        let scaled = q
            .interpolate
            .then(|| {
                let d = fp::dynamic_scale(p.node_nm, node)?;
                let l = fp::leakage_density(node, None)? / fp::leakage_density(p.node_nm, None)?;
                Some((d, l * fp::area_scale(p.node_nm, node)))
            })
            .flatten();
        let Some((d, l)) = scaled else {
            return Err(node_error(preset, node));
        };
        (busy, idle_w, static_w) = (busy * d, idle_w * d, static_w * l);
        area = area.map(|a| a * fp::area_scale(p.node_nm, node));
        basis = "profile-node-scaled".into();
        notes.push(format!(
            "{node} nm scaled from the preset's {} nm with the first-principles node rules (static power as leakage)",
            p.node_nm
        ));
    }
    if q.model == ModelKind::FirstPrinciples {
        notes.push(
            "a profile preset is already a C V^2 f model: first-principles equals calibrated"
                .into(),
        );
    }
    Ok(Parts {
        busy_core_w: busy,
        idle_core_w: idle_w,
        gate_w: None,
        sub_w: None,
        sub_pg_w: None,
        static_w,
        area,
        volts: Some(volts),
        mhz,
        basis,
        notes,
    })
}
