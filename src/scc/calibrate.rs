//! The same pipeline model with this machine's parameters, measured here: the cost of a
//! round operation, of the input and output stages, of a channel operation, of waking a
//! blocked stage thread, and of starting a stage thread; the stages share the machine's
//! logical CPUs. [`machine_scenario`] turns them into a pipeline of bounded queues for the
//! event simulation, to be checked against the measured `bench pipeline` sweep.
use super::des::{Link, Scenario, StageSpec, simulate};
use super::model::{BLOCK, chunking, stage_plan};
use super::params::SEED_ROUNDS;
use crate::bench::{Bench, BenchConfig, Summary};
use crate::error::{Error, Result};
use parcrypt::cipher::blowfish::Blowfish;
use parcrypt::cipher::parallel::bf_pipeline::{BfPipeline, Layout, PipelineConfig};
use parcrypt::parallel::affinity::pin_current_thread;
use serde::{Deserialize, Serialize};
use std::sync::mpsc::sync_channel;
use std::time::Instant;

/// This machine's pipeline parameters (all seconds are CPU seconds on one logical CPU unless
/// said otherwise).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineParams {
    /// One round operation (the average of the 34: 32 Feistel rounds and 2 whitening steps)
    /// per byte, as the pipeline's own stage code applies it.
    pub op_s_per_byte: f64,
    /// The input stage (bytes to words) per byte.
    pub in_s_per_byte: f64,
    /// The output stage (words to bytes) per byte.
    pub out_s_per_byte: f64,
    /// One `sync_channel` send or receive that does not block.
    pub chan_op_s: f64,
    /// CPU cost of waking a blocked stage thread (futex wake and wait, context switches,
    /// migrations), fitted so the simulation reproduces the measured long relay.
    pub wake_s: f64,
    /// Latency (not CPU) before a stage woken onto an idle CPU runs, fitted so the simulation
    /// reproduces the measured short relay.
    pub idle_wake_s: f64,
    /// Starting one stage thread (spawn and, at the end, join).
    pub spawn_s: f64,
    /// Logical CPUs the stages share.
    pub cores: usize,
    /// Cores' worth of CPU that `cores` busy threads actually got while calibrating (each ran
    /// the same Blowfish job as one thread alone, interleaved): `cores` on an idle machine,
    /// less when other work competes. Read for the conditions, used with [`CoreChoice::Measured`].
    pub effective_cores: f64,
    /// Wall seconds of the long relay ([`RELAY_LONG`] threads, [`RELAY_TOKENS`] tokens).
    pub relay_long_s: f64,
    /// Wall seconds of the short relay ([`RELAY_SHORT`] threads).
    pub relay_short_s: f64,
    /// For reference: one-way ping-pong between two threads pinned to one CPU.
    pub pingpong_one_cpu_s: f64,
    /// For reference: one-way ping-pong between threads pinned to two CPUs.
    pub pingpong_two_cpus_s: f64,
    /// How each figure was measured.
    pub method: Vec<String>,
}

/// Threads of the long relay (the seed's 36 stages: cores always busy, wakes cost CPU).
pub const RELAY_LONG: usize = 36;
/// Threads of the short relay (the 4-stage fold: cores often idle, wakes cost latency).
pub const RELAY_SHORT: usize = 4;
/// Tokens passed down each relay.
pub const RELAY_TOKENS: usize = 1024;

/// What to measure with.
#[derive(Clone, Debug)]
pub struct CalibrationPlan {
    /// Chunk bytes of the 3-stage run that times the stages' work.
    pub chunk_bytes: usize,
    /// Message bytes of that run.
    pub size_bytes: usize,
    /// Repetitions of every measurement (medians are kept).
    pub config: BenchConfig,
    /// Seed of the key and message.
    pub seed: u64,
    /// Cores the modelled stages share.
    pub cores: CoreChoice,
}

/// How many cores the calibrated model gives the stages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoreChoice {
    /// The machine's logical CPUs.
    Logical,
    /// This many.
    Fixed(usize),
    /// The cores' worth busy threads actually got while calibrating, rounded (at least 1, at
    /// most the logical CPUs): for a machine that other work shares.
    Measured,
}

fn median(m: &crate::bench::Measurement) -> Result<Summary> {
    m.summary()
        .ok_or_else(|| Error::internal("calibration made no samples"))
}

/// Measures this machine's parameters.
pub fn calibrate(plan: &CalibrationPlan) -> Result<MachineParams> {
    let bench = Bench::new(plan.config)?;
    let (chunks, _) = chunking(plan.size_bytes, plan.chunk_bytes)?;
    let key: Vec<u8> = (0..16u8)
        .map(|i| i.wrapping_mul(37) ^ plan.seed as u8)
        .collect();
    let bf = Blowfish::new(&key)?;
    let ([in_b, ops_b, out_b], stage_runs) = stage_seconds_per_byte(&bench, &bf, plan)?;
    let chan_op_s = median(&channel_ops(&bench))?.median;
    let pingpong_one_cpu_s = median(&handoff(&bench, 0))?.median;
    let pingpong_two_cpus_s = median(&handoff(&bench, 1))?.median;
    let spawn_s = median(&spawns(&bench))?.median;
    let relay_long_s = median(&bench.run_timed(|| relay(RELAY_LONG, RELAY_TOKENS, 1)))?.median;
    let relay_short_s = median(&bench.run_timed(|| relay(RELAY_SHORT, RELAY_TOKENS, 1)))?.median;
    let logical = crate::bench::logical_cores();
    let effective_cores = effective_cores(&bench, &bf, logical)?;
    let cores = match plan.cores {
        CoreChoice::Logical => logical,
        CoreChoice::Fixed(n) => n,
        CoreChoice::Measured => (effective_cores.round() as usize).min(logical),
    }
    .max(1);
    let mut m = MachineParams {
        op_s_per_byte: ops_b / SEED_ROUNDS as f64,
        in_s_per_byte: in_b,
        out_s_per_byte: out_b,
        chan_op_s,
        wake_s: (pingpong_one_cpu_s - 2.0 * chan_op_s).max(0.0),
        idle_wake_s: (pingpong_two_cpus_s - pingpong_one_cpu_s).max(0.0),
        spawn_s,
        cores,
        effective_cores,
        relay_long_s,
        relay_short_s,
        pingpong_one_cpu_s,
        pingpong_two_cpus_s,
        method: vec![
            format!(
                "op, in, out: busy time of the stages of a 3-stage pipeline (input, 34 operations, \
                 output), {} B chunks, {} chunks, median of {} runs",
                plan.chunk_bytes,
                chunks,
                stage_runs
            ),
            "chan-op: sync_channel send then receive of 4096 chunk-sized messages on one thread, per operation".into(),
            format!(
                "wake, idle wake: fitted (bisection, 3 alternating passes) so the simulation of a \
                 relay of {RELAY_TOKENS} empty tokens down {RELAY_LONG} and {RELAY_SHORT} threads \
                 (sync_channel(1), unpinned, thread start-up included) takes the measured time"
            ),
            "spawn: 35 empty stage threads spawned and joined in a scope, per thread".into(),
            "ping-pong (reference only): two threads over sync_channel(1), pinned to one CPU / to CPUs 0 and 1, one way".into(),
            "effective cores (conditions only): one Blowfish job per logical CPU at once against one alone, interleaved".into(),
        ],
    };
    fit_handoffs(&mut m)?;
    Ok(m)
}

/// Cores' worth of CPU `threads` busy threads get: each encrypts its own 2 MiB (a few ms, long
/// beside a thread start), against one thread doing the same alone (interleaved),
/// Median busy seconds per byte of a three-stage pipeline's stages (input, all 34 operations
/// on one thread, output), timed on `plan`'s data, and the runs they are the median of; a
/// failed run is an internal error, reported after timing.
fn stage_seconds_per_byte(
    bench: &Bench,
    bf: &Blowfish,
    plan: &CalibrationPlan,
) -> Result<([f64; 3], usize)> {
    let mut data: Vec<u8> = (0..plan.size_bytes).map(|i| (i * 131 + 7) as u8).collect();
    // Stage work: input, all 34 operations on one thread, output.
    let three = BfPipeline::new(
        bf,
        PipelineConfig {
            layout: Layout::EncryptDecrypt,
            chunk_bytes: plan.chunk_bytes,
            stages: 3,
            capacity: 1,
        },
    )?;
    let mut per_byte = [Vec::new(), Vec::new(), Vec::new()];
    let bytes = plan.size_bytes as f64;
    let mut failures = crate::bench::Failures::new();
    bench.run_timed(|| {
        let st = failures
            .note("the three-stage pipeline", three.run(&mut data))
            .unwrap_or_default();
        for (acc, s) in per_byte.iter_mut().zip(&st.stages) {
            acc.push(s.busy_s / bytes);
        }
        st.wall_s
    });
    failures.result()?;
    let med = |v: &[f64]| Summary::from_samples(v).map_or(f64::NAN, |s| s.median);
    Ok((
        [med(&per_byte[0]), med(&per_byte[1]), med(&per_byte[2])],
        per_byte[0].len(),
    ))
}

/// `threads × alone / together`.
fn effective_cores(bench: &Bench, bf: &Blowfish, threads: usize) -> Result<f64> {
    let mut bufs = vec![vec![0x5au8; 2 << 20]; threads.max(1)];
    let mut failures = crate::bench::Failures::new();
    let runs = bench.run_interleaved_by(2, |i| {
        let t0 = Instant::now();
        let ok = if i == 0 {
            bf.encrypt_blocks(&mut bufs[0])
        } else {
            std::thread::scope(|s| {
                let running: Vec<_> = bufs
                    .iter_mut()
                    .map(|b| s.spawn(move || bf.encrypt_blocks(b)))
                    .collect();
                running
                    .into_iter()
                    .try_for_each(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            })
        };
        let took = t0.elapsed().as_secs_f64();
        failures.note("Blowfish alone and on every core", ok);
        took
    });
    failures.result()?;
    let alone = median(&runs[0])?.median;
    let together = median(&runs[1])?.median;
    Ok(threads.max(1) as f64 * alone / together)
}

/// A relay of [`RELAY_TOKENS`] empty tokens down `threads` threads, as the simulation sees it.
pub fn relay_scenario(m: &MachineParams, threads: usize) -> Result<Scenario> {
    let empty = MachineParams {
        op_s_per_byte: 0.0,
        in_s_per_byte: 0.0,
        out_s_per_byte: 0.0,
        ..m.clone()
    };
    machine_scenario(&empty, threads, BLOCK, RELAY_TOKENS * BLOCK, 1)
}

/// The smallest `x` in [0, 10 ms] with `f(x)` at least `target` (f increasing), by bisection.
fn solve(target: f64, f: impl Fn(f64) -> Result<f64>) -> Result<f64> {
    if f(0.0)? >= target {
        return Ok(0.0);
    }
    let (mut lo, mut hi) = (0.0, 1e-6);
    while f(hi)? < target {
        lo = hi;
        hi *= 2.0;
        if hi > 1e-2 {
            return Ok(hi);
        }
    }
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        if f(mid)? < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(0.5 * (lo + hi))
}

/// Fits `wake_s` to the long relay and `idle_wake_s` to the short one, alternately.
pub fn fit_handoffs(m: &mut MachineParams) -> Result<()> {
    for _ in 0..3 {
        let base = m.clone();
        m.wake_s = solve(m.relay_long_s, |x| {
            let trial = MachineParams {
                wake_s: x,
                ..base.clone()
            };
            Ok(simulate(&relay_scenario(&trial, RELAY_LONG)?)?.total_s)
        })?;
        let base = m.clone();
        m.idle_wake_s = solve(m.relay_short_s, |x| {
            let trial = MachineParams {
                idle_wake_s: x,
                ..base.clone()
            };
            Ok(simulate(&relay_scenario(&trial, RELAY_SHORT)?)?.total_s)
        })?;
    }
    Ok(())
}

/// Non-blocking channel operations, seconds per operation.
fn channel_ops(bench: &Bench) -> crate::bench::Measurement {
    const N: usize = 4096;
    bench.run_timed(|| {
        let (tx, rx) = sync_channel::<(Vec<u32>, [usize; 4])>(N);
        let t0 = Instant::now();
        for i in 0..N {
            let _ = tx.send((Vec::new(), [i; 4]));
        }
        for _ in 0..N {
            let _ = std::hint::black_box(rx.recv());
        }
        t0.elapsed().as_secs_f64() / (2 * N) as f64
    })
}

/// One-way hand-off between two threads that block on each other, pinned to CPU 0 and CPU
/// `other` (0: both on one CPU).
fn handoff(bench: &Bench, other: usize) -> crate::bench::Measurement {
    const TRIPS: usize = 200;
    bench.run_timed(|| {
        let (ping_tx, ping_rx) = sync_channel::<usize>(1);
        let (pong_tx, pong_rx) = sync_channel::<usize>(1);
        std::thread::scope(|s| {
            s.spawn(move || {
                pin_current_thread(other);
                while let Ok(v) = ping_rx.recv() {
                    if pong_tx.send(v).is_err() {
                        break;
                    }
                }
            });
            let h = s.spawn(move || {
                pin_current_thread(0);
                let t0 = Instant::now();
                for i in 0..TRIPS {
                    if ping_tx.send(i).is_err() || pong_rx.recv().is_err() {
                        break;
                    }
                }
                t0.elapsed().as_secs_f64() / (2 * TRIPS) as f64
            });
            h.join().unwrap_or(f64::NAN)
        })
    })
}

/// Wall seconds for `tokens` empty tokens to pass down a chain of `threads` threads joined by
/// `sync_channel(capacity)` (no work: hand-offs only), unpinned, as the pipeline's threads are.
pub fn relay(threads: usize, tokens: usize, capacity: usize) -> f64 {
    let threads = threads.max(2);
    let t0 = Instant::now();
    std::thread::scope(|s| {
        let (first_tx, mut rx) = sync_channel::<(Vec<u32>, [usize; 4])>(capacity);
        for _ in 1..threads - 1 {
            let (tx, next_rx) = sync_channel(capacity);
            let my_rx = std::mem::replace(&mut rx, next_rx);
            s.spawn(move || {
                while let Ok(v) = my_rx.recv() {
                    if tx.send(v).is_err() {
                        break;
                    }
                }
            });
        }
        s.spawn(move || while rx.recv().is_ok() {});
        for i in 0..tokens {
            if first_tx.send((Vec::new(), [i; 4])).is_err() {
                break;
            }
        }
    });
    t0.elapsed().as_secs_f64()
}

/// Starting and joining stage threads, seconds per thread.
fn spawns(bench: &Bench) -> crate::bench::Measurement {
    const THREADS: usize = 35;
    bench.run_timed(|| {
        let t0 = Instant::now();
        std::thread::scope(|s| {
            for _ in 0..THREADS {
                s.spawn(|| std::hint::black_box(0));
            }
        });
        t0.elapsed().as_secs_f64() / THREADS as f64
    })
}

/// The thread pipeline with `stages` stages (input, rounds folded as the real pipeline folds
/// them, output), `chunk_bytes` chunks of a `size_bytes` message and channels of `capacity`,
/// on this machine's parameters.
pub fn machine_scenario(
    m: &MachineParams,
    stages: usize,
    chunk_bytes: usize,
    size_bytes: usize,
    capacity: usize,
) -> Result<Scenario> {
    let (chunks, last) = chunking(size_bytes, chunk_bytes)?;
    let plan = stage_plan(stages)?;
    let n = plan.len();
    let specs = plan
        .into_iter()
        .enumerate()
        .map(|(i, (name, rounds))| {
            let per_byte = match i {
                0 => m.in_s_per_byte,
                _ if i + 1 == n => m.out_s_per_byte,
                _ => rounds as f64 * m.op_s_per_byte,
            };
            StageSpec {
                name,
                full_s: per_byte * chunk_bytes as f64,
                last_s: per_byte * last as f64,
            }
        })
        .collect();
    Ok(Scenario {
        stages: specs,
        links: vec![
            Link::Queue {
                capacity,
                op_s: m.chan_op_s,
                wake_s: m.wake_s,
            };
            n - 1
        ],
        chunks,
        cores: m.cores,
        startup_s: (n - 1) as f64 * m.spawn_s,
        idle_wake_s: m.idle_wake_s,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scc::des::simulate;

    fn machine(cores: usize) -> MachineParams {
        MachineParams {
            op_s_per_byte: 1e-10,
            in_s_per_byte: 5e-11,
            out_s_per_byte: 5e-11,
            idle_wake_s: 0.0,
            ..MachineParams::for_tests(cores)
        }
    }

    #[test]
    fn one_core_runs_all_the_work_and_overheads_in_sequence() {
        let m = machine(1);
        let sc = machine_scenario(&m, 36, 8192, 1 << 20, 1).unwrap();
        let sim = simulate(&sc).unwrap();
        let work: f64 = sim.stages.iter().map(|s| s.compute_s + s.overhead_s).sum();
        // One core never idles once the input starts: time = start-up + all CPU work.
        assert!((sim.total_s - sc.startup_s - work).abs() < 1e-9 * sim.total_s);
        let rounds = 34.0 * (1 << 20) as f64 * m.op_s_per_byte;
        let compute: f64 = sim.stages.iter().map(|s| s.compute_s).sum();
        assert!((compute - rounds - 1e-10 * (1 << 20) as f64).abs() < 1e-12);
    }

    #[test]
    fn more_cores_and_bigger_chunks_go_faster_here() {
        let t = |cores, chunk| {
            let sc = machine_scenario(&machine(cores), 36, chunk, 1 << 20, 1).unwrap();
            simulate(&sc).unwrap().total_s
        };
        assert!(t(2, 8192) < t(1, 8192));
        assert!(t(2, 65536) < t(2, 1024), "hand-offs dominate small chunks");
        assert!(t(36, 8192) < t(2, 8192));
        assert!(machine_scenario(&machine(2), 2, 8192, 1 << 20, 1).is_err());
    }

    #[test]
    fn calibration_measures_positive_costs() {
        let plan = CalibrationPlan {
            chunk_bytes: 4096,
            size_bytes: 64 << 10,
            config: BenchConfig::exact(2),
            seed: 1,
            cores: CoreChoice::Measured,
        };
        let m = calibrate(&plan).unwrap();
        for v in [
            m.op_s_per_byte,
            m.in_s_per_byte,
            m.out_s_per_byte,
            m.chan_op_s,
            m.spawn_s,
        ] {
            assert!(v.is_finite() && v > 0.0, "{m:?}");
        }
        assert!(m.wake_s >= 0.0 && m.idle_wake_s >= 0.0 && m.cores >= 1 && m.method.len() == 6);
        assert!(m.effective_cores > 0.0 && m.cores <= crate::bench::logical_cores());
        // A live run only checks the fit gives usable costs: under load the two relays can
        // disagree (a burst during one of them), so how well they are reproduced is tested on
        // known values below, not on this machine's timings.
        assert!(m.wake_s.is_finite() && m.idle_wake_s.is_finite());
    }

    #[test]
    fn fitted_handoffs_reproduce_relays_made_from_known_costs() {
        let mut known = machine(2);
        known.wake_s = 3e-6;
        known.idle_wake_s = 1e-6;
        let relay = |m: &MachineParams, threads| {
            simulate(&relay_scenario(m, threads).unwrap())
                .unwrap()
                .total_s
        };
        let mut m = known.clone();
        m.relay_long_s = relay(&known, RELAY_LONG);
        m.relay_short_s = relay(&known, RELAY_SHORT);
        m.wake_s = 0.0;
        m.idle_wake_s = 0.0;
        fit_handoffs(&mut m).unwrap();
        for (threads, want) in [(RELAY_LONG, m.relay_long_s), (RELAY_SHORT, m.relay_short_s)] {
            let got = relay(&m, threads);
            assert!(
                (got / want - 1.0).abs() < 0.05,
                "{threads}: {got} vs {want}"
            );
        }
    }
}
