//! Chip power and energy of the modelled runs. The watts are the seed's measured SCC figures
//! (`paper:scc-blowfish-fig10`: 20.56 W with one active core, 30.24 W with 36, idle cores at
//! 100 MHz / 0.7 V); the joules are this model's (`model:scc`): the paper's watts times the
//! modelled times. Other active-core counts interpolate linearly between the two figures.
use super::params::{ParamId, SccParams};
use serde::{Deserialize, Serialize};

/// Label of the watts: the seed's Fig. 10.
pub const WATTS_LABEL: &str = "paper:scc-blowfish-fig10";
/// Label of everything computed here.
pub const MODEL_LABEL: &str = crate::claims::scc_blowfish::MODEL;
/// Active cores of the seed's pipelined measurement.
pub const PAPER_PIPELINE_CORES: usize = 36;

/// Energy of the modelled sequential and pipelined runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EnergyFigures {
    /// Chip watts during the sequential run.
    pub seq_w: f64,
    /// Chip watts during the pipelined run.
    pub pipe_w: f64,
    /// Where the watts come from (`paper:scc-blowfish-fig10`, or `model:scc` when interpolated).
    pub watts_label: String,
    /// Joules of the sequential run.
    pub seq_j: f64,
    /// Joules of the pipelined run.
    pub pipe_j: f64,
    /// Sequential joules / pipelined joules (the seed's "16× less energy").
    pub ratio: f64,
    /// Label of the joules and the ratio: `model:scc`.
    pub label: String,
}

/// Chip watts with `active` cores at 533 MHz: the paper's figures at 1 and 36, linear between
/// and beyond.
pub fn chip_watts(p: &SccParams, active: usize) -> f64 {
    let (one, many) = (p.get(ParamId::SeqWatts), p.get(ParamId::PipeWatts));
    let per_core = (many - one) / (PAPER_PIPELINE_CORES - 1) as f64;
    one + per_core * (active.max(1) - 1) as f64
}

/// Energy of a sequential run of `seq_s` on one core and a pipelined run of `pipe_s` on
/// `active` cores.
pub fn energy(p: &SccParams, active: usize, seq_s: f64, pipe_s: f64) -> EnergyFigures {
    let seq_w = chip_watts(p, 1);
    let pipe_w = chip_watts(p, active);
    let (seq_j, pipe_j) = (seq_w * seq_s, pipe_w * pipe_s);
    EnergyFigures {
        seq_w,
        pipe_w,
        watts_label: if active == PAPER_PIPELINE_CORES || active == 1 {
            WATTS_LABEL.into()
        } else {
            format!("{MODEL_LABEL} (linear between {WATTS_LABEL}'s 1- and 36-core watts)")
        },
        seq_j,
        pipe_j,
        ratio: seq_j / pipe_j,
        label: MODEL_LABEL.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watts_are_the_papers_at_its_two_points() {
        let p = SccParams::as_in_paper();
        assert!((chip_watts(&p, 1) - 20.56).abs() < 1e-12);
        assert!((chip_watts(&p, 36) - 30.24).abs() < 1e-12);
        assert!(chip_watts(&p, 4) > 20.56 && chip_watts(&p, 4) < 30.24);
        // The paper's own times give 39.165 J sequential and 2.123 J pipelined, a 18.45×
        // ratio; the paper prints 2.476 J and 15.82×.
        let e = energy(&p, 36, 1.904956, 0.0702);
        assert!((e.seq_j - 39.166).abs() < 1e-3);
        assert!((e.pipe_j - 2.1228).abs() < 1e-3);
        assert!((e.ratio - 18.45).abs() < 0.01);
        assert_eq!(e.watts_label, WATTS_LABEL);
        assert_eq!(e.label, MODEL_LABEL);
        assert!(energy(&p, 4, 1.0, 1.0).watts_label.starts_with(MODEL_LABEL));
    }
}
