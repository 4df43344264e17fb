//! The calibrated model of the seed-000 presets: Tables 4-7 exactly at their points, dynamic
//! power linear in f between a node's clocks (only when interpolation is asked), nodes the
//! tables lack scaled from the nearest table node with the first-principles rules, and the
//! first-principles model itself when asked for.
use super::{ModelKind, Parts, PowerQuery, freq_error, node_error};
use crate::energy::first_principles::{self as fp, Anchor};
use crate::energy::parsa;
use crate::energy::presets::{Preset, TableBasis};
use crate::energy::units::Nanometres;
use crate::error::{EnergyError, EnergyResult};

/// Per-core dynamic power and leakage parts of a table preset at `node` and `q`.
pub(super) fn table_parts(
    preset: &Preset,
    t: &TableBasis,
    node: Nanometres,
    q: &PowerQuery,
) -> EnergyResult<Parts> {
    if q.state.is_some() {
        return Err(EnergyError::InvalidParameter(format!(
            "{} has no named states; give --freq",
            preset.name
        )));
    }
    let nodes = preset.nodes();
    let mhz = q.mhz.unwrap_or_else(|| preset.default_mhz());
    let known_node = nodes.contains(&node);
    if !(known_node || (q.interpolate && fp::covers(node))) {
        return Err(node_error(preset, node));
    }
    // Clocks are checked against Table 1 (the same at every node).
    let freqs = preset.frequencies(preset.default_node());
    let known_freq = freqs.iter().any(|f| (f - mhz).abs() < 0.5);
    if !known_freq && !q.interpolate {
        return Err(freq_error(preset, preset.default_node(), mhz, ""));
    }
    if mhz <= 0.0 || !mhz.is_finite() {
        return Err(EnergyError::InvalidParameter(format!(
            "frequency must be positive, got {mhz}"
        )));
    }
    let f_min = freqs[0];
    let n = preset.cores as f64;
    let mut notes = Vec::new();
    if q.model == ModelKind::FirstPrinciples {
        let anchor = fp::parsa_anchor(&t.processor).expect("table presets have 90 nm rows");
        let at = |f| fp::scale(&anchor, node, f, Some(&t.processor)).expect("covered");
        let (s, s_min) = (at(mhz), at(f_min));
        let (gate_frac, pg_ratio) = fp::leakage_split(node);
        notes.push(format!(
            "first-principles: alpha C V^2 f scaled from the {} nm, {} MHz row; leakage from the other processors' density",
            anchor.node_nm,
            freqs[freqs.len() - 1]
        ));
        return Ok(Parts {
            busy_core_w: s.p_dynamic_w / n,
            idle_core_w: t.idle_activity * s_min.p_dynamic_w / n,
            gate_w: Some(s.p_leak_w * gate_frac),
            sub_w: Some(s.p_leak_w * (1.0 - gate_frac)),
            sub_pg_w: Some(s.p_leak_w * (1.0 - gate_frac) * pg_ratio),
            static_w: s.p_leak_w,
            area: Some(s.area_mm2),
            volts: fp::vdd(node),
            mhz,
            basis: "first-principles".into(),
            notes,
        });
    }
    // The node's table, or the nearest table node scaled to `node`.
    let source_node = if known_node {
        node
    } else {
        *nodes
            .iter()
            .min_by_key(|n| n.abs_diff(node))
            .expect("tables have nodes")
    };
    let rows: Vec<_> = parsa::rows_of(&t.processor)
        .into_iter()
        .filter(|r| r.node_nm == source_node)
        .collect();
    let pts: Vec<(f64, f64)> = rows.iter().map(|r| (r.freq_mhz, r.p_dynamic_w)).collect();
    let dyn_at = |f: f64| fp::interpolate(&pts, f).expect("rows");
    let r0 = rows[0];
    let (mut busy, mut idle) = (dyn_at(mhz) / n, t.idle_activity * dyn_at(f_min) / n);
    let (mut gate, mut sub, mut sub_pg, mut leak_total, mut area) = (
        r0.p_leak_gate_w,
        r0.p_leak_subthreshold_w,
        r0.p_leak_subthreshold_pg_w,
        r0.p_leak_total_w,
        r0.area_mm2,
    );
    let mut basis = if known_freq {
        "table"
    } else {
        "table-interpolated"
    }
    .to_string();
    if known_node && known_freq {
        let printed = rows.iter().find(|r| (r.freq_mhz - mhz).abs() < 0.5);
        if let Some(r) = printed.filter(|r| !r.note.is_empty()) {
            notes.push(format!("Table {} row rebuilt: {}", t.table, r.note));
        }
    }
    if !known_freq {
        let (lo, hi) = (freqs[0], freqs[freqs.len() - 1]);
        notes.push(if (lo..=hi).contains(&mhz) {
            format!("{mhz} MHz is not in Table {}: dynamic power interpolated linearly between its clocks", t.table)
        } else {
            format!("{mhz} MHz is outside Table {}'s {lo}-{hi} MHz: dynamic power extrapolated linearly", t.table)
        });
    }
    if !known_node {
        let anchor = Anchor {
            node_nm: source_node,
            dyn_w_per_mhz: 0.0,
            leak_w: r0.p_leak_total_w,
            area_mm2: r0.area_mm2,
        };
        let s = fp::scale(&anchor, node, mhz, None).expect("covered");
        let d = fp::dynamic_scale(source_node, node).expect("covered");
        let l = s.p_leak_w / r0.p_leak_total_w;
        (busy, idle) = (busy * d, idle * d);
        (gate, sub, sub_pg, leak_total, area) =
            (gate * l, sub * l, sub_pg * l, leak_total * l, s.area_mm2);
        basis = "table-node-scaled".into();
        notes.push(format!(
            "{node} nm is not in Table {}: scaled from {source_node} nm with the first-principles node rules",
            t.table
        ));
    }
    Ok(Parts {
        busy_core_w: busy,
        idle_core_w: idle,
        gate_w: Some(gate),
        sub_w: Some(sub),
        sub_pg_w: Some(sub_pg),
        static_w: leak_total,
        area: Some(area),
        volts: fp::vdd(node),
        mhz,
        basis,
        notes,
    })
}
