//! The cipher throughput benchmark (cipher-energy, Tables 2-3): every requested algorithm at every
//! thread count on one buffer, against its sequential form measured in the same invocation.
//!
//! Each configuration is checked once before timing: its output must equal the sequential
//! reference's on the same input (PBlock and the pipeline against Blowfish, PARC4 and PARC4-I
//! against their block-by-block sequential forms), so no speed of a wrong answer is reported.
//! Every timed run starts from the input, copied in before the clock starts, transforms the
//! buffer in place (no copy inside the timed region), and its output is checked against the
//! verified reference's [`fingerprint`] after the clock stops, in every build: a wrong output
//! while timed is an internal error. Runs go interleaved ([`Bench::run_interleaved`]) so drift
//! on a shared machine touches all alike.
//! Throughput is in MB/s with MB = 10^6 bytes, as `openssl speed` reports.
use crate::bench::tsc::Tsc;
use crate::bench::{
    Bench, BenchConfig, Failures, TimingColumns, TimingFields, fingerprint, planted_fault,
};
use crate::claims::cipher_energy::TABLES_2_3 as T;
use crate::error::{Error, Result};
use parcrypt::cipher::alg::CipherSpec;
use parcrypt::cipher::alg::{Algorithm, Direction};
use parcrypt::cipher::blowfish::BLOCK;
use parcrypt::cipher::dispatch::{Cipher, Run};
use rand::{RngCore, SeedableRng};

pub use parcrypt_harness::records::cipher::CipherBenchRecord;
use std::cell::RefCell;
use std::time::Instant;

/// cipher-energy's Tables 2-3 throughput, MB/s: (algorithm, platform 1 = Core 2 Duo T5270 laptop,
/// platform 2 = AMD FX-8320 desktop), at the default clock. Copied from
/// cipher-energy (Handa, 2022; the README lists the papers); the paper does not say how many threads its
/// parallel forms used (the desktop has eight cores).
pub const SEED_004: [(Algorithm, f64, f64); 6] = [
    (Algorithm::BlowfishEcb, T[0].2, T[0].4),
    (Algorithm::PblockEcb, T[1].2, T[1].4),
    (Algorithm::Rc4, T[2].2, T[2].4),
    (Algorithm::Parc4, T[3].2, T[3].4),
    (Algorithm::Rc4a, T[4].2, T[4].4),
    (Algorithm::Parc4i, T[5].2, T[5].4),
];

/// What to benchmark.
#[derive(Clone, Debug)]
pub struct CipherBenchPlan {
    /// Algorithms; each one's sequential form is always measured too.
    pub algorithms: Vec<Algorithm>,
    /// Thread counts (pipeline: compute stages). Sequential algorithms run at 1 only.
    pub threads: Vec<usize>,
    /// Bytes per run (rounded up to whole 8-byte blocks).
    pub size_bytes: usize,
    /// Chunk for the pipeline, PARC4 block or PARC4-I segment; `None` = each one's default.
    pub chunk: Option<usize>,
    /// Encrypt or decrypt (matters for CBC, whose decryption alone is parallel).
    pub direction: Direction,
    /// Pin worker threads to CPUs.
    pub pin: bool,
    /// Seed of the random key, IV, nonce and data.
    pub seed: u64,
    /// Repetition rules.
    pub config: BenchConfig,
}

impl CipherBenchPlan {
    /// The configurations: per algorithm, its sequential form at 1 thread, then the algorithm
    /// at 1 thread and at each requested count (sequential algorithms at 1 only); no repeats.
    pub fn configurations(&self) -> Vec<(Algorithm, usize)> {
        let mut out: Vec<(Algorithm, usize)> = Vec::new();
        let mut add = |c| {
            if !out.contains(&c) {
                out.push(c);
            }
        };
        for &a in &self.algorithms {
            add((a.sequential_form(), 1));
            add((a, 1));
            if a.is_parallel(self.direction) || a == Algorithm::BfPipeline {
                for &t in &self.threads {
                    add((a, t));
                }
            }
        }
        out
    }

    /// The buffer size actually used: `size_bytes` rounded up to whole blocks.
    pub fn buffer_bytes(&self) -> usize {
        self.size_bytes.div_ceil(BLOCK) * BLOCK
    }

    /// Checks sizes, thread counts and the chunk.
    pub fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidParameter(m));
        if self.algorithms.is_empty() {
            return bad("at least one algorithm is needed".into());
        }
        if self.size_bytes == 0 {
            return bad("size must be at least 1 byte".into());
        }
        // The input, the reference and the working copy are held at once.
        crate::bench::memory::check_fits(
            3 * self.buffer_bytes() as u128,
            &format!("--size {} (3 buffers)", self.size_bytes),
        )?;
        if self.threads.is_empty() {
            return bad("at least one thread count is needed".into());
        }
        for &t in &self.threads {
            parcrypt::parallel::split::check_threads(t)?;
            if self.algorithms.contains(&Algorithm::BfPipeline) && t > 17 {
                return bad(format!("bf-pipeline has at most 17 stage groups, got {t}"));
            }
        }
        if let Some(c) = self.chunk {
            if c == 0 || c % 256 != 0 {
                return bad(format!(
                    "chunk must be a positive multiple of 256 bytes (it serves the pipeline, PARC4 and PARC4-I), got {c}"
                ));
            }
        }
        self.config.validate()
    }
}

/// Keys and parameters shared by every configuration.
struct Material {
    key: [u8; 16],
    iv: [u8; BLOCK],
    nonce: [u8; 16],
}

impl Material {
    /// The random key, IV and nonce, and the message, from the plan's seed.
    fn new(plan: &CipherBenchPlan) -> (Material, Vec<u8>) {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(plan.seed);
        let mut key = [0u8; 16];
        let (mut iv, mut nonce) = ([0u8; BLOCK], [0u8; 16]);
        rng.fill_bytes(&mut key);
        rng.fill_bytes(&mut iv);
        rng.fill_bytes(&mut nonce);
        let mut input = vec![0u8; plan.buffer_bytes()];
        rng.fill_bytes(&mut input);
        (Material { key, iv, nonce }, input)
    }

    /// Configuration `(a, threads)` keyed (the key schedule built here, outside any timing).
    fn cipher(&self, plan: &CipherBenchPlan, (a, threads): (Algorithm, usize)) -> Result<Cipher> {
        let spec = CipherSpec {
            iv: a.needs_iv().then_some(self.iv),
            nonce: a.needs_nonce().then(|| self.nonce.to_vec()),
            threads: Some(threads),
            chunk: a.default_chunk().and(plan.chunk.or(a.default_chunk())),
            ..CipherSpec::new(a, &self.key)
        };
        Ok(spec.cipher(plan.direction)?)
    }
}

/// Runs `cipher` over `buf` in place, from the message's start, through the same dispatch as
/// files; `reference` selects the sequential reference path instead.
fn transform(
    cipher: &Cipher,
    plan: &CipherBenchPlan,
    buf: &mut [u8],
    reference: bool,
) -> Result<()> {
    let run = Run {
        direction: plan.direction,
        pin: plan.pin,
        reference,
    };
    Ok(cipher.start(run)?.apply(buf)?)
}

/// Checks every configuration against its sequential reference before anything is timed;
/// gives each reference output's [`fingerprint`], to check every timed output with, and a
/// buffer of the input's size to time in.
fn verify(
    plan: &CipherBenchPlan,
    configs: &[(Algorithm, usize)],
    ciphers: &[Cipher],
    input: &[u8],
) -> Result<(Vec<u64>, Vec<u8>)> {
    let mut expected = input.to_vec();
    let mut got = input.to_vec();
    let mut fingerprints = Vec::with_capacity(configs.len());
    for (c, cipher) in configs.iter().zip(ciphers) {
        expected.copy_from_slice(input);
        transform(cipher, plan, &mut expected, true)?;
        got.copy_from_slice(input);
        transform(cipher, plan, &mut got, false)?;
        if got != expected {
            return Err(Error::internal(format!(
                "{} on {} threads differs from its sequential form",
                c.0, c.1
            )));
        }
        fingerprints.push(fingerprint(&expected));
    }
    Ok((fingerprints, got))
}

/// Runs the benchmark; `progress(done, total, label)` is called before each run: `done`
/// measured runs of `total` planned (0 while the warm-ups time the configurations).
pub fn run(
    plan: &CipherBenchPlan,
    progress: impl FnMut(usize, usize, &str),
) -> Result<Vec<CipherBenchRecord>> {
    plan.validate()?;
    let (m, input) = Material::new(plan);
    let configs = plan.configurations();
    let ciphers = configs
        .iter()
        .map(|&c| m.cipher(plan, c))
        .collect::<Result<Vec<_>>>()?;
    let (fingerprints, got) = verify(plan, &configs, &ciphers, &input)?;
    let work = RefCell::new(got);
    // Test-only fault injection (bench::FAULT_VAR): one timed output is corrupted.
    let mut plant = planted_fault("cipher-timed");
    let tsc = Tsc::detect();
    let bench = Bench::new(plan.config)?;
    let mut progress = progress;
    let mut done = 0usize;
    let labels: Vec<String> = configs
        .iter()
        .map(|c| format!("{} x{}", c.0, c.1))
        .collect();
    let mut ticks: Vec<Vec<u64>> = vec![Vec::new(); configs.len()];
    let mut failures = Failures::new();
    let measurements = bench.run_interleaved_steps(
        configs.len(),
        |i| {
            let mut buf = work.borrow_mut();
            buf.copy_from_slice(&input);
            let t0 = tsc.map(|t| t.now());
            let started = Instant::now();
            let ok = transform(&ciphers[i], plan, &mut buf, false);
            if plant {
                buf[0] ^= 1;
                plant = false;
            }
            let elapsed = started.elapsed().as_secs_f64();
            if let (Some(t), Some(t0)) = (tsc, t0) {
                ticks[i].push(t.now().wrapping_sub(t0));
            }
            if failures.note(&labels[i], ok).is_some() {
                failures.check(&labels[i], fingerprint(&buf) == fingerprints[i]);
            }
            elapsed
        },
        |step| {
            done = step.done + 1;
            progress(step.done, step.planned.unwrap_or(0), &labels[step.config]);
        },
    );
    failures.result()?;
    progress(done, done, "done");
    cipher_records(plan, &configs, &measurements, ticks)
}

/// One record per configuration: MB/s, speedups over the sequential form and over one thread,
/// TSC cycles per byte at the median.
fn cipher_records(
    plan: &CipherBenchPlan,
    configs: &[(Algorithm, usize)],
    measurements: &[crate::bench::Measurement],
    mut ticks: Vec<Vec<u64>>,
) -> Result<Vec<CipherBenchRecord>> {
    let summaries =
        crate::bench::summaries(measurements).ok_or_else(|| Error::internal("no samples"))?;
    let median_of = |c: (Algorithm, usize)| {
        configs
            .iter()
            .position(|&x| x == c)
            .map(|i| summaries[i].median)
    };
    let size = plan.buffer_bytes();
    Ok(configs
        .iter()
        .zip(&summaries)
        .zip(&mut ticks)
        .zip(measurements)
        .map(|(((&(a, t), s), ticks), m)| {
            let base = a.sequential_form();
            let ratio = |other: Option<f64>| other.map_or(f64::NAN, |o| o / s.median);
            ticks.sort_unstable();
            CipherBenchRecord {
                alg: a,
                threads: t,
                op: plan.direction,
                size_bytes: size,
                chunk_bytes: plan.chunk.or(a.default_chunk()),
                timing: TimingFields::new(s, m.samples.clone(), TimingColumns::CI95),
                mb_per_s: size as f64 / s.median / 1e6,
                baseline: base,
                speedup: ratio(median_of((base, 1))),
                self_speedup: ratio(median_of((a, 1))),
                tsc_cycles_per_byte: (!ticks.is_empty())
                    .then(|| ticks[ticks.len() / 2] as f64 / size as f64),
                oversubscribed: crate::bench::oversubscribed(t),
                verified: true,
                note: s.note().unwrap_or_default(),
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(algorithms: Vec<Algorithm>, direction: Direction) -> CipherBenchPlan {
        CipherBenchPlan {
            algorithms,
            threads: vec![1, 2],
            size_bytes: 5000,
            chunk: Some(512),
            direction,
            pin: false,
            seed: 7,
            config: BenchConfig {
                warmup_runs: 0,
                ..BenchConfig::exact(1)
            },
        }
    }

    #[test]
    fn baselines_are_added_and_sequential_algorithms_run_once() {
        let p = plan(vec![Algorithm::Parc4, Algorithm::Rc4a], Direction::Encrypt);
        assert_eq!(
            p.configurations(),
            [
                (Algorithm::Rc4, 1),
                (Algorithm::Parc4, 1),
                (Algorithm::Parc4, 2),
                (Algorithm::Rc4a, 1)
            ]
        );
        let p = plan(vec![Algorithm::BlowfishCbc], Direction::Decrypt);
        assert_eq!(p.configurations().len(), 2, "CBC decryption is parallel");
        assert_eq!(p.buffer_bytes(), 5000);
    }

    #[test]
    fn every_algorithm_verifies_and_reports() {
        for dir in [Direction::Encrypt, Direction::Decrypt] {
            let recs = run(&plan(Algorithm::ALL.to_vec(), dir), |_, _, _| {}).unwrap();
            assert!(
                recs.iter()
                    .all(|r| r.verified && r.timing.runs == 1 && r.size_bytes == 5000)
            );
            let pblock = recs
                .iter()
                .find(|r| r.alg == Algorithm::PblockEcb && r.threads == 2);
            assert_eq!(pblock.unwrap().baseline, Algorithm::BlowfishEcb);
        }
    }

    #[test]
    fn bad_plans_are_refused() {
        let mut p = plan(vec![Algorithm::Rc4], Direction::Encrypt);
        p.chunk = Some(100);
        assert!(p.validate().is_err());
        let mut p = plan(vec![Algorithm::BfPipeline], Direction::Encrypt);
        p.threads = vec![18];
        assert!(p.validate().is_err());
        p.threads = vec![0];
        assert!(p.validate().is_err());
    }
}
