//! SCC Blowfish's pipeline on the modelled SCC: the 36 stages (input, 17 encryption rounds, 17
//! decryption rounds, output) placed on the mesh, 1 MB cut into chunks, each chunk moved by
//! RCCE between neighbours; the predicted time, speedup over the modelled sequential run,
//! energy, and what limits each chunk size.
use super::des::{Link, Scenario, SimResult, StageSpec, simulate};
use super::mesh::{CORES, Placement, PlacementKind};
use super::params::{SEED_MESSAGE_BYTES, SEED_ROUNDS, SccParams};
use super::power::{EnergyFigures, energy};
use super::transfer::transfer;
use crate::error::{Error, Result};
use parcrypt::parallel::schedule::static_block;
use serde::{Deserialize, Serialize};

/// Blowfish's block: chunks and messages are whole blocks.
pub const BLOCK: usize = 8;

/// The chunk sizes of `parcrypt scc` by default: 1 KiB to 64 KiB in powers of two.
pub const DEFAULT_CHUNKS: [usize; 7] = [
    1 << 10,
    2 << 10,
    4 << 10,
    8 << 10,
    16 << 10,
    32 << 10,
    64 << 10,
];

/// What to model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SccConfig {
    /// The machine's parameters.
    pub params: SccParams,
    /// Where the stages sit.
    pub placement: PlacementKind,
    /// Stages in all, input and output included (36 = one round per stage, as the seed).
    pub stages: usize,
    /// Message bytes (the seed's 1 MB, read as 2^20).
    pub message_bytes: usize,
}

impl Default for SccConfig {
    fn default() -> Self {
        Self {
            params: SccParams::as_in_paper(),
            placement: PlacementKind::Snake,
            stages: SEED_ROUNDS + 2,
            message_bytes: SEED_MESSAGE_BYTES,
        }
    }
}

/// Stage names and round counts: `in`, the 34 rounds folded over `stages - 2` stages as the
/// thread pipeline folds them (`E1`, `E1..E9`, ...), `out`.
pub fn stage_plan(stages: usize) -> Result<Vec<(String, usize)>> {
    if !(3..=SEED_ROUNDS + 2).contains(&stages) {
        return Err(Error::InvalidParameter(format!(
            "stages must be 3 to {} (input + 1..=34 round stages + output), got {stages}",
            SEED_ROUNDS + 2
        )));
    }
    let names: Vec<String> = (1..=16)
        .map(|i| format!("E{i}"))
        .chain(["EW".into()])
        .chain((1..=16).map(|i| format!("D{i}")))
        .chain(["DW".into()])
        .collect();
    let compute = stages - 2;
    let mut plan = vec![("in".to_string(), 0)];
    for s in 0..compute {
        let r = static_block(SEED_ROUNDS, compute, s);
        let name = if r.len() == 1 {
            names[r.start].clone()
        } else {
            format!("{}..{}", names[r.start], names[r.end - 1])
        };
        plan.push((name, r.len()));
    }
    plan.push(("out".into(), 0));
    Ok(plan)
}

/// Chunks of a message: count, full size and last size; errors for sizes that are not whole
/// blocks.
pub fn chunking(message_bytes: usize, chunk_bytes: usize) -> Result<(usize, usize)> {
    if chunk_bytes == 0 || chunk_bytes % BLOCK != 0 {
        return Err(Error::InvalidParameter(format!(
            "chunk must be a positive multiple of {BLOCK} bytes, got {chunk_bytes}"
        )));
    }
    if message_bytes == 0 || message_bytes % BLOCK != 0 {
        return Err(Error::InvalidParameter(format!(
            "message must be a positive multiple of {BLOCK} bytes, got {message_bytes}"
        )));
    }
    let chunks = message_bytes.div_ceil(chunk_bytes);
    Ok((chunks, message_bytes - (chunks - 1) * chunk_bytes))
}

impl SccConfig {
    /// The pipeline for one chunk size, ready to simulate.
    pub fn scenario(&self, chunk_bytes: usize) -> Result<Scenario> {
        let (chunks, last) = chunking(self.message_bytes, chunk_bytes)?;
        let plan = stage_plan(self.stages)?;
        let placement = Placement::new(self.placement.clone(), self.stages)?;
        let p = &self.params;
        let io = p.get(super::params::ParamId::IoCyclesPerByte) / p.core_hz();
        let round = p.round_s_per_byte();
        let stages = plan
            .into_iter()
            .map(|(name, rounds)| {
                let per_byte = if rounds == 0 {
                    io
                } else {
                    rounds as f64 * round
                };
                StageSpec {
                    name,
                    full_s: per_byte * chunk_bytes as f64,
                    last_s: per_byte * last as f64,
                }
            })
            .collect();
        let links = placement
            .link_hops()
            .into_iter()
            .map(|h| {
                Ok(Link::Synchronous {
                    full: transfer(p, chunk_bytes, h)?,
                    last: transfer(p, last, h)?,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Scenario {
            stages,
            links,
            chunks,
            cores: CORES,
            startup_s: 0.0,
            idle_wake_s: 0.0,
        })
    }

    /// The modelled sequential run: every round over the whole message on one core.
    pub fn sequential_s(&self) -> f64 {
        SEED_ROUNDS as f64 * self.message_bytes as f64 * self.params.round_s_per_byte()
    }
}

/// What limits a chunk size: the largest share of the run's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Limiter {
    /// The bottleneck stage's rounds.
    Compute,
    /// Moving data through the buffers (puts and gets).
    Transfer,
    /// Flag handshakes (one per buffer-sized piece).
    Handshake,
    /// Filling and draining the pipeline (few chunks for many stages).
    Fill,
}

/// The prediction for one chunk size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// Chunk bytes.
    pub chunk_bytes: usize,
    /// Chunks through the pipeline.
    pub chunks: usize,
    /// Buffer-sized transfers per chunk per link.
    pub pieces_per_chunk: usize,
    /// Predicted seconds for the message (model:scc).
    pub time_s: f64,
    /// Modelled sequential seconds.
    pub sequential_s: f64,
    /// Sequential / pipelined.
    pub speedup: f64,
    /// Energy of both runs.
    pub energy: EnergyFigures,
    /// The stage occupied longest.
    pub bottleneck: String,
    /// Share of the time the bottleneck computes.
    pub compute_share: f64,
    /// Share of the time the bottleneck is held moving data (its own and its neighbours').
    pub transfer_share: f64,
    /// Share of the time the bottleneck spends in handshakes.
    pub handshake_share: f64,
    /// The rest: pipeline fill and drain, waits.
    pub fill_share: f64,
    /// The largest of the four shares.
    pub limiter: Limiter,
}

/// Predicts one chunk size; also returns the per-stage simulation.
pub fn predict_detailed(cfg: &SccConfig, chunk_bytes: usize) -> Result<(Prediction, SimResult)> {
    let sc = cfg.scenario(chunk_bytes)?;
    let sim = simulate(&sc)?;
    let seq = cfg.sequential_s();
    let b = sim.bottleneck().cloned().unwrap_or_default();
    let t = sim.total_s.max(f64::MIN_POSITIVE);
    let compute = b.compute_s / t;
    let transfer_share = (b.data_s + b.transfer_wait_s) / t;
    let handshake = b.handshake_s / t;
    let fill = (1.0 - compute - transfer_share - handshake).max(0.0);
    let shares = [
        (Limiter::Compute, compute),
        (Limiter::Transfer, transfer_share),
        (Limiter::Handshake, handshake),
        (Limiter::Fill, fill),
    ];
    let limiter = shares
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(Limiter::Compute, |s| s.0);
    let pieces = match sc.links.first() {
        Some(Link::Synchronous { full, .. }) => full.pieces,
        _ => 0,
    };
    let pred = Prediction {
        chunk_bytes,
        chunks: sc.chunks,
        pieces_per_chunk: pieces,
        time_s: sim.total_s,
        sequential_s: seq,
        speedup: seq / sim.total_s,
        energy: energy(&cfg.params, cfg.stages, seq, sim.total_s),
        bottleneck: b.name.clone(),
        compute_share: compute,
        transfer_share,
        handshake_share: handshake,
        fill_share: fill,
        limiter,
    };
    Ok((pred, sim))
}

/// Predicts one chunk size.
pub fn predict(cfg: &SccConfig, chunk_bytes: usize) -> Result<Prediction> {
    predict_detailed(cfg, chunk_bytes).map(|(p, _)| p)
}

/// Predictions for several chunk sizes and the fastest of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    /// One prediction per chunk size, in the order asked.
    pub points: Vec<Prediction>,
    /// The fastest chunk size among them.
    pub best_chunk: usize,
}

/// Predicts every chunk size in `chunks` (at least one).
pub fn sweep(cfg: &SccConfig, chunks: &[usize]) -> Result<Sweep> {
    let points = chunks
        .iter()
        .map(|&c| predict(cfg, c))
        .collect::<Result<Vec<_>>>()?;
    let best_chunk = points
        .iter()
        .min_by(|a, b| a.time_s.total_cmp(&b.time_s))
        .map(|p| p.chunk_bytes)
        .ok_or_else(|| Error::InvalidParameter("no chunk sizes to model".into()))?;
    Ok(Sweep { points, best_chunk })
}

/// Predicted seconds for one chunk size by the exact recurrence (no per-stage breakdown;
/// much cheaper than [`predict`]).
pub fn time_s(cfg: &SccConfig, chunk_bytes: usize) -> Result<f64> {
    super::analytic::synchronous_total(&cfg.scenario(chunk_bytes)?)
}

/// The fastest of `chunks` by [`time_s`].
pub fn best_chunk(cfg: &SccConfig, chunks: &[usize]) -> Result<usize> {
    let mut best = (0, f64::INFINITY);
    for &c in chunks {
        let t = time_s(cfg, c)?;
        if t < best.1 {
            best = (c, t);
        }
    }
    if chunks.is_empty() {
        return Err(Error::InvalidParameter("no chunk sizes to model".into()));
    }
    Ok(best.0)
}

/// The fastest chunk size among all multiples of 32 bytes (one buffer line) from 32 B to
/// `max_bytes`, by the exact recurrence: (chunk bytes, seconds).
pub fn fine_optimum(cfg: &SccConfig, max_bytes: usize) -> Result<(usize, f64)> {
    let mut best = (0, f64::INFINITY);
    for c in (1..=max_bytes / SccParams::LINE_BYTES).map(|m| m * SccParams::LINE_BYTES) {
        let t = time_s(cfg, c)?;
        if t < best.1 {
            best = (c, t);
        }
    }
    if best.0 == 0 {
        return Err(Error::InvalidParameter(format!(
            "no chunk size up to {max_bytes} bytes"
        )));
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scc::params::ParamId;

    #[test]
    fn the_seed_layout_and_its_folds() {
        let plan = stage_plan(36).unwrap();
        assert_eq!(plan.len(), 36);
        assert_eq!((plan[1].0.as_str(), plan[17].0.as_str()), ("E1", "EW"));
        assert_eq!((plan[18].0.as_str(), plan[34].0.as_str()), ("D1", "DW"));
        assert!(plan[1..35].iter().all(|s| s.1 == 1));
        let four = stage_plan(4).unwrap();
        assert_eq!(four[1], ("E1..EW".to_string(), 17));
        assert_eq!(four[2], ("D1..DW".to_string(), 17));
        assert!(stage_plan(2).is_err() && stage_plan(37).is_err());
        assert_eq!(chunking(1 << 20, 8192).unwrap(), (128, 8192));
        assert_eq!(chunking(1000, 64).unwrap(), (16, 40));
        assert!(chunking(1 << 20, 0).is_err() && chunking(1 << 20, 12).is_err());
        assert!(chunking(0, 8).is_err());
    }

    #[test]
    fn free_communication_reaches_the_compute_bound() {
        // With (almost) free transfers the time is (chunks + 33) rounds of one chunk: the
        // bound the seed's 0.0702 s sits at.
        let mut cfg = SccConfig::default();
        for (id, v) in [
            (ParamId::MpbWriteMbps, 1e12),
            (ParamId::MpbReadMbps, 1e12),
            (ParamId::HandshakeUs, 1e-9),
            (ParamId::HopCycles, 1e-9),
        ] {
            cfg.params.set(id, v).unwrap();
        }
        let p = predict(&cfg, 8192).unwrap();
        let round = 8192.0 * cfg.params.round_s_per_byte();
        assert!(
            (p.time_s - 161.0 * round).abs() < 1e-6 * p.time_s,
            "{}",
            p.time_s
        );
        assert!((p.speedup - 34.0 * 128.0 / 161.0).abs() < 1e-3);
        assert_eq!(p.limiter, Limiter::Compute);
    }

    #[test]
    fn seed_defaults_predict_and_explain_each_point() {
        let cfg = SccConfig::default();
        let sw = sweep(&cfg, &[1024, 8192, 65536]).unwrap();
        for p in &sw.points {
            assert!(p.speedup > 1.0 && p.speedup < 34.0, "{p:?}");
            let sum = p.compute_share + p.transfer_share + p.handshake_share + p.fill_share;
            assert!((sum - 1.0).abs() < 1e-9, "{sum}");
            assert!((p.energy.ratio - p.speedup * 20.56 / 30.24).abs() < 1e-9);
            let exact =
                super::super::analytic::synchronous_total(&cfg.scenario(p.chunk_bytes).unwrap());
            assert!((exact.unwrap() - p.time_s).abs() < 1e-9 * p.time_s);
        }
        assert_eq!(
            sw.points[2].limiter,
            Limiter::Fill,
            "16 chunks for 36 stages"
        );
        assert_eq!(sw.points[1].pieces_per_chunk, 2);
        assert!((cfg.sequential_s() - 1.904956).abs() < 1e-9);
        assert!(sweep(&cfg, &[]).is_err());
    }
}
