//! Does the model predict the machine it can see? The thread pipeline is measured here over
//! chunk sizes and stage counts (interleaved with sequential Blowfish, as `bench pipeline`
//! does), the model is given this machine's measured parameters ([`super::calibrate`]) and
//! the event simulation predicts each point; the error per point is predicted / measured − 1.
use super::calibrate::{CalibrationPlan, MachineParams, calibrate, machine_scenario};
use super::des::simulate;
use crate::bench::{Bench, BenchConfig, MachineInfo, Summary};
use crate::error::{Error, Result};
use parcrypt::cipher::blowfish::{BLOCK, Blowfish};
use parcrypt::cipher::parallel::bf_pipeline::{BfPipeline, Layout, PipelineConfig};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// What to measure and predict.
#[derive(Clone, Debug)]
pub struct ValidationPlan {
    /// Chunk sizes, bytes (multiples of 8).
    pub chunks: Vec<usize>,
    /// Stage counts (36 = one operation per stage; 4 = folded to two compute stages).
    pub stages: Vec<usize>,
    /// Message bytes.
    pub size_bytes: usize,
    /// Chunks each channel holds (`bench pipeline`'s default is 1).
    pub capacity: usize,
    /// Repetitions of the sweep.
    pub config: BenchConfig,
    /// How to measure the machine's parameters.
    pub calibration: CalibrationPlan,
    /// Seed of the key and message.
    pub seed: u64,
}

/// One measured point and its prediction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValidationPoint {
    /// Stages in all.
    pub stages: usize,
    /// Chunk bytes.
    pub chunk_bytes: usize,
    /// Measured median seconds.
    pub measured_s: f64,
    /// Lower end of the median's 95 % interval (min with fewer than 6 runs).
    pub measured_low_s: f64,
    /// Upper end of the median's 95 % interval (max with fewer than 6 runs).
    pub measured_high_s: f64,
    /// Measured runs.
    pub runs: usize,
    /// Predicted seconds (model:scc-calibrated).
    pub predicted_s: f64,
    /// predicted / measured − 1.
    pub error: f64,
    /// The prediction lies within `measured_low_s..=measured_high_s` (the 95 % interval, or
    /// min..max with fewer than 6 runs).
    pub within_interval: bool,
    /// Measured sequential / measured pipeline.
    pub measured_speedup: f64,
    /// Measured sequential / predicted pipeline.
    pub predicted_speedup: f64,
}

/// The validation's result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Validation {
    /// The parameters measured here.
    pub machine: MachineParams,
    /// Measured median seconds of sequential Blowfish (encrypt + decrypt) in the same sweep.
    pub sequential_s: f64,
    /// One entry per (stages, chunk).
    pub points: Vec<ValidationPoint>,
    /// Mean of |error| over the points.
    pub mean_abs_error: f64,
    /// Largest |error|.
    pub max_abs_error: f64,
    /// Machine and load when measured.
    pub conditions: String,
}

/// The model's predictions for measured points: `(stages, chunk, measured summary)` each.
pub fn compare(
    machine: &MachineParams,
    size_bytes: usize,
    capacity: usize,
    sequential_s: f64,
    measured: &[(usize, usize, Summary)],
) -> Result<Vec<ValidationPoint>> {
    measured
        .iter()
        .map(|&(stages, chunk, s)| {
            let sc = machine_scenario(machine, stages, chunk, size_bytes, capacity)?;
            let predicted = simulate(&sc)?.total_s;
            let (low, high) = s.ci95().unwrap_or((s.min, s.max));
            Ok(ValidationPoint {
                stages,
                chunk_bytes: chunk,
                measured_s: s.median,
                measured_low_s: low,
                measured_high_s: high,
                runs: s.runs,
                predicted_s: predicted,
                error: predicted / s.median - 1.0,
                within_interval: (low..=high).contains(&predicted),
                measured_speedup: sequential_s / s.median,
                predicted_speedup: sequential_s / predicted,
            })
        })
        .collect()
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(String::from))
        .unwrap_or_else(|| "unknown".into())
}

/// Calibrates, measures the sweep and compares; `progress(done, total, label)` per run.
pub fn run(
    plan: &ValidationPlan,
    mut progress: impl FnMut(usize, usize, &str),
) -> Result<Validation> {
    if plan.chunks.is_empty() || plan.stages.is_empty() {
        return Err(Error::InvalidParameter(
            "validation needs at least one chunk size and one stage count".into(),
        ));
    }
    let configs = configurations(plan)?;
    let load_before = load_average();
    let machine = calibrate(&plan.calibration)?;
    let key: Vec<u8> = (0..16u8)
        .map(|i| i.wrapping_mul(29) ^ plan.seed as u8)
        .collect();
    let bf = Blowfish::new(&key)?;
    let size = plan.size_bytes.div_ceil(BLOCK) * BLOCK;
    let input: Vec<u8> = (0..size).map(|i| (i * 97 + 13) as u8).collect();
    let pipelines = configs
        .iter()
        .map(|c| BfPipeline::new(&bf, *c))
        .collect::<parcrypt::Result<Vec<_>>>()?;
    let measurements = time_sweep(plan, &bf, &input, &pipelines, &mut progress)?;
    let summaries =
        crate::bench::summaries(&measurements).ok_or_else(|| Error::internal("no samples"))?;
    let measured: Vec<(usize, usize, Summary)> = configs
        .iter()
        .zip(&summaries[1..])
        .map(|(c, s)| (c.stages, c.chunk_bytes, *s))
        .collect();
    let sequential_s = summaries[0].median;
    let points = compare(&machine, size, plan.capacity, sequential_s, &measured)?;
    let errors: Vec<f64> = points.iter().map(|p| p.error.abs()).collect();
    Ok(Validation {
        sequential_s,
        mean_abs_error: errors.iter().sum::<f64>() / errors.len().max(1) as f64,
        max_abs_error: errors.iter().copied().fold(0.0, f64::max),
        conditions: format!(
            "{}; load average {} before, {} after; {} busy threads got {:.2} cores' worth; runs \
             interleaved, medians",
            MachineInfo::detect().one_line(),
            load_before,
            load_average(),
            crate::bench::logical_cores(),
            machine.effective_cores
        ),
        machine,
        points,
    })
}

/// The sweep's pipeline configurations, stage counts outermost, each checked.
fn configurations(plan: &ValidationPlan) -> Result<Vec<PipelineConfig>> {
    let mut configs = Vec::new();
    for &stages in &plan.stages {
        for &chunk_bytes in &plan.chunks {
            let c = PipelineConfig {
                layout: Layout::EncryptDecrypt,
                chunk_bytes,
                stages,
                capacity: plan.capacity,
            };
            c.validate()?;
            configs.push(c);
        }
    }
    Ok(configs)
}

/// Times sequential Blowfish (run 0) and every pipeline, interleaved, then checks that the
/// message came back whole.
fn time_sweep(
    plan: &ValidationPlan,
    bf: &Blowfish,
    input: &[u8],
    pipelines: &[BfPipeline<'_>],
    progress: &mut impl FnMut(usize, usize, &str),
) -> Result<Vec<crate::bench::Measurement>> {
    let mut work = input.to_vec();
    let bench = Bench::new(plan.config)?;
    let per = (plan.config.warmup_runs + plan.config.min_runs) as usize;
    let total = (pipelines.len() + 1) * per;
    let mut done = 0;
    let mut failures = crate::bench::Failures::new();
    let measurements = bench.run_interleaved_by(pipelines.len() + 1, |i| {
        progress(
            done.min(total),
            total,
            if i == 0 { "sequential" } else { "pipeline" },
        );
        done += 1;
        if i == 0 {
            let t = Instant::now();
            let ok = bf.round_trip_blocks(&mut work);
            let wall = t.elapsed().as_secs_f64();
            failures.note("sequential Blowfish", ok);
            wall
        } else {
            let run = pipelines[i - 1].run(&mut work);
            failures
                .note("pipeline", run)
                .map_or(f64::NAN, |s| s.wall_s)
        }
    });
    failures.check("encrypt + decrypt round trip", work == input);
    failures.result()?;
    Ok(measurements)
}

impl MachineParams {
    /// A plausible machine for the tests of `scc` and the study: `cores` CPUs, rounds at
    /// 0.2 ns/B, input and output at 0.1 ns/B, 0.1 µs channel operations, 2 µs wakes (10 µs
    /// onto an idle CPU), 10 µs thread start-ups, no relay or ping-pong figures.
    #[cfg(test)]
    pub(crate) fn for_tests(cores: usize) -> Self {
        Self {
            op_s_per_byte: 2e-10,
            in_s_per_byte: 1e-10,
            out_s_per_byte: 1e-10,
            chan_op_s: 1e-7,
            wake_s: 2e-6,
            idle_wake_s: 1e-5,
            spawn_s: 1e-5,
            cores,
            effective_cores: cores as f64,
            relay_long_s: 0.0,
            relay_short_s: 0.0,
            pingpong_one_cpu_s: 0.0,
            pingpong_two_cpus_s: 0.0,
            method: vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compare_reports_signed_errors_and_intervals() {
        let m = MachineParams::for_tests(2);
        let sc = machine_scenario(&m, 36, 8192, 1 << 20, 1).unwrap();
        let truth = simulate(&sc).unwrap().total_s;
        let s = Summary::from_samples(&[truth * 1.25; 6]).unwrap();
        let pts = compare(&m, 1 << 20, 1, truth, &[(36, 8192, s)]).unwrap();
        assert!((pts[0].error - (1.0 / 1.25 - 1.0)).abs() < 1e-12);
        assert!(!pts[0].within_interval);
        assert!((pts[0].predicted_speedup - 1.0).abs() < 1e-12);
        assert!(compare(&m, 1 << 20, 1, truth, &[(36, 12, s)]).is_err());
    }

    #[test]
    fn a_small_live_validation_runs_end_to_end() {
        let plan = ValidationPlan {
            chunks: vec![4096],
            stages: vec![4],
            size_bytes: 64 << 10,
            capacity: 1,
            config: BenchConfig::exact(2),
            calibration: CalibrationPlan {
                chunk_bytes: 4096,
                size_bytes: 64 << 10,
                config: BenchConfig::exact(2),
                seed: 1,
                cores: super::super::calibrate::CoreChoice::Logical,
            },
            seed: 1,
        };
        let v = run(&plan, |_, _, _| {}).unwrap();
        assert_eq!(v.points.len(), 1);
        let p = &v.points[0];
        assert!(p.measured_s > 0.0 && p.predicted_s > 0.0 && p.error.is_finite());
        assert!(v.mean_abs_error >= 0.0 && v.conditions.contains("load average"));
    }
}
