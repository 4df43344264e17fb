//! How much the model's verdicts on SCC Blowfish's claims move when one parameter moves: each
//! parameter scaled by 1 − f and 1 + f (f = 0.5 for the ±50 % sweep), the others kept, and the
//! speedup and energy ratio at the claim's chunk (8 KB) and the best chunk among the sweep's
//! sizes recomputed. The parameter whose swing is largest is the one the verdict hangs on.
use super::model::{SccConfig, predict};
use super::params::{ParamId, SccParams};
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};

/// One parameter's effect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SensitivityRow {
    /// Parameter name.
    pub param: String,
    /// Its unit.
    pub unit: String,
    /// Values: scaled down, as given, scaled up.
    pub values: [f64; 3],
    /// Predicted seconds at the claim's chunk for each value.
    pub time_s: [f64; 3],
    /// Speedup at the claim's chunk for each value.
    pub speedup: [f64; 3],
    /// Energy ratio (sequential / pipelined joules) at the claim's chunk for each value.
    pub energy_ratio: [f64; 3],
    /// Fastest chunk among the sweep's sizes for each value.
    pub best_chunk: [usize; 3],
    /// (speedup up − speedup down) / speedup as given: signed, so a rise with the
    /// parameter is positive.
    pub speedup_swing: f64,
    /// The same for the energy ratio.
    pub energy_swing: f64,
    /// Largest |log2| move of the best chunk, in powers of two (0 = it stays).
    pub optimum_shift: f64,
}

/// The whole sweep.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sensitivity {
    /// The relative change applied (0.5 = ±50 %).
    pub factor: f64,
    /// The chunk the speedup and energy claims are judged at.
    pub claim_chunk: usize,
    /// Chunk sizes searched for the optimum.
    pub chunks: Vec<usize>,
    /// One row per parameter, largest speedup swing first.
    pub rows: Vec<SensitivityRow>,
    /// Parameter with the largest |speedup swing|.
    pub most_sensitive_speedup: String,
    /// Parameter with the largest |energy swing|.
    pub most_sensitive_energy: String,
    /// Among the parameters whose value is assumed (no published source), the one with the
    /// largest |speedup swing|: the assumption the verdict hangs on most.
    pub most_sensitive_assumed: String,
    /// Parameter that moves the optimum furthest (ties: the larger speedup swing), or `none`
    /// if no parameter moves it.
    pub most_sensitive_optimum: String,
}

/// Runs the ±`factor` sweep on every parameter (0 < factor < 1).
pub fn sensitivity(
    cfg: &SccConfig,
    chunks: &[usize],
    claim_chunk: usize,
    factor: f64,
) -> Result<Sensitivity> {
    if !(factor > 0.0 && factor < 1.0) {
        return Err(Error::InvalidParameter(format!(
            "sensitivity factor must be between 0 and 1, got {factor}"
        )));
    }
    let mut rows = Vec::new();
    for id in ParamId::ALL {
        let mut values = [0.0; 3];
        let mut time_s = [0.0; 3];
        let mut speedup = [0.0; 3];
        let mut energy_ratio = [0.0; 3];
        let mut best_chunk = [0; 3];
        for (j, scale) in [1.0 - factor, 1.0, 1.0 + factor].into_iter().enumerate() {
            let mut c = cfg.clone();
            if scale != 1.0 && cfg.params.get(id) != 0.0 {
                c.params = cfg.params.scaled(id, scale)?;
            }
            let p = predict(&c, claim_chunk)?;
            values[j] = c.params.get(id);
            time_s[j] = p.time_s;
            speedup[j] = p.speedup;
            energy_ratio[j] = p.energy.ratio;
            best_chunk[j] = super::model::best_chunk(&c, chunks)?;
        }
        let shift = |b: usize| (b as f64 / best_chunk[1] as f64).log2().abs();
        rows.push(SensitivityRow {
            param: id.name().into(),
            unit: id.unit().into(),
            values,
            time_s,
            speedup,
            energy_ratio,
            best_chunk,
            speedup_swing: (speedup[2] - speedup[0]) / speedup[1],
            energy_swing: (energy_ratio[2] - energy_ratio[0]) / energy_ratio[1],
            optimum_shift: shift(best_chunk[0]).max(shift(best_chunk[2])),
        });
    }
    rows.sort_by(|a, b| b.speedup_swing.abs().total_cmp(&a.speedup_swing.abs()));
    let top = |key: &dyn Fn(&SensitivityRow) -> f64| {
        rows.iter()
            .max_by(|a, b| key(a).total_cmp(&key(b)))
            .map(|r| r.param.clone())
            .unwrap_or_default()
    };
    let most_sensitive_speedup = top(&|r| r.speedup_swing.abs());
    let most_sensitive_energy = top(&|r| r.energy_swing.abs());
    let most_sensitive_assumed = rows
        .iter()
        .filter(|r| {
            ParamId::parse(&r.param)
                .is_ok_and(|id| SccParams::as_in_paper().basis(id) == super::params::Basis::Assumed)
        })
        .max_by(|a, b| a.speedup_swing.abs().total_cmp(&b.speedup_swing.abs()))
        .map(|r| r.param.clone())
        .unwrap_or_default();
    let most_sensitive_optimum = if rows.iter().all(|r| r.optimum_shift == 0.0) {
        "none".into()
    } else {
        top(&|r| r.optimum_shift * 1e3 + r.speedup_swing.abs())
    };
    Ok(Sensitivity {
        factor,
        claim_chunk,
        chunks: chunks.to_vec(),
        rows,
        most_sensitive_speedup,
        most_sensitive_energy,
        most_sensitive_assumed,
        most_sensitive_optimum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_swept_and_the_ranking_follows_the_swings() {
        let cfg = SccConfig::default();
        let s = sensitivity(&cfg, &[1024, 8192, 65536], 8192, 0.5).unwrap();
        assert_eq!(s.rows.len(), ParamId::ALL.len());
        let base = predict(&cfg, 8192).unwrap();
        for r in &s.rows {
            assert!((r.speedup[1] - base.speedup).abs() < 1e-12, "{}", r.param);
        }
        assert_eq!(s.most_sensitive_speedup, s.rows[0].param);
        // The power figures change the energy ratio but not the speedup.
        let watts = s.rows.iter().find(|r| r.param == "pipe-watts").unwrap();
        assert!(watts.speedup_swing.abs() < 1e-12 && watts.energy_swing < 0.0);
        // A slower per-round cost leaves communication a smaller share: more speedup.
        let bf = s
            .rows
            .iter()
            .find(|r| r.param == "bf-cycles-per-byte-round")
            .unwrap();
        assert!(bf.speedup_swing > 0.0);
        let io = s
            .rows
            .iter()
            .find(|r| r.param == "io-cycles-per-byte")
            .unwrap();
        assert_eq!(io.values, [0.0; 3], "a zero stays zero");
        assert!(sensitivity(&cfg, &[8192], 8192, 1.5).is_err());
        assert_eq!(s.most_sensitive_assumed, "mpb-read-mbps");
    }
}
