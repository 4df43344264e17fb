//! PBlock / PARC4 over ranks timed against the same cipher on threads and the sequential form,
//! interleaved in one run. The ranks' time runs from rank 0's command to the last part
//! gathered on rank 0 (in memory; file reading and writing are not timed). Every run's output
//! is compared with the sequential reference.
use super::bulk::{part, reference};
use super::comm::{Command, Ranks};
use super::error::{MpiError, MpiResult};
use super::record::{MpiFields, RankEnergy, combine};
use crate::bench::{Bench, BenchConfig, TimingColumns, TimingFields};
use crate::cipher::alg::{CipherSpec, Direction};
use crate::cipher::file::transform_part;
use crate::energy::meter::{EnergyFields, EnergyTally, RunMeter};
use crate::suites::cipher::CipherBenchRecord;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// What to compare.
#[derive(Clone, Debug)]
pub struct BulkPlan {
    /// Threads of the thread form on rank 0.
    pub compare_threads: usize,
    /// Repetition rules.
    pub config: BenchConfig,
}

/// One result: `bench cipher`'s record plus the MPI and energy fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BulkMpiRecord {
    /// As `bench cipher` writes it; `threads` is threads per rank for `backend: mpi`,
    /// `speedup` is against the sequential form, `self_speedup` against the thread form.
    #[serde(flatten)]
    pub base: CipherBenchRecord,
    /// `backend`, `ranks`, `hosts`.
    #[serde(flatten)]
    pub mpi: MpiFields,
    /// Energy per run, over ranks.
    #[serde(flatten)]
    pub energy: EnergyFields,
}

/// Runs on every rank; rank 0 gets the sequential, thread and rank records.
pub fn run(
    ranks: &Ranks,
    spec: &CipherSpec,
    direction: Direction,
    input: &Path,
    plan: &BulkPlan,
) -> MpiResult<Option<Vec<BulkMpiRecord>>> {
    plan.config.validate()?;
    let (len, _) = super::bulk::local_part(ranks, spec, direction, input)?;
    let range = part(spec, len, ranks.size(), ranks.rank());
    let last = super::bulk::holds_end(spec, len, ranks.size(), ranks.rank());
    let plain = ranks.agree(
        std::fs::read(input)
            .map(|all| {
                all.get(range.clone())
                    .map(<[u8]>::to_vec)
                    .unwrap_or_default()
            })
            .map_err(|e| {
                MpiError::Lib(crate::Error::Io {
                    path: input.to_path_buf(),
                    source: e,
                })
            }),
    )?;
    let mut meter = RunMeter::auto();
    let outcome = if ranks.is_root() {
        let whole = crate::io::read_file(input)?;
        let expected = reference(spec, direction, &whole)?;
        let mut threads_spec = spec.clone();
        threads_spec.threads = Some(plan.compare_threads);
        let mut tallies = vec![EnergyTally::default(); 3];
        let mut failure = None;
        let bench = Bench::new(plan.config)?;
        let m = bench.run_interleaved_by(3, |i| {
            let (res, energy) = meter.measure(|| {
                let t = Instant::now();
                let out = match i {
                    0 => reference(spec, direction, &whole).map_err(MpiError::from),
                    1 => {
                        let mut d = whole.clone();
                        transform_part(&threads_spec, direction, 0, true, &mut d)
                            .map(|()| d)
                            .map_err(MpiError::from)
                    }
                    _ => {
                        ranks.command(Command::Run(0));
                        let mut d = plain.clone();
                        transform_part(spec, direction, range.start, last, &mut d)
                            .map_err(MpiError::from)
                            .and_then(|()| ranks.gather(&d))
                            .map(|p| p.unwrap_or_default().concat())
                    }
                };
                (out, t.elapsed().as_secs_f64())
            });
            let (out, secs) = res;
            let energy = if i == 2 {
                let mut readings = vec![RankEnergy::of(&ranks.host_of_ranks()[0], &energy)];
                for r in 1..ranks.size() {
                    match ranks.recv(Some(r), super::comm::tag::REPORT) {
                        Ok((_, m)) => readings.extend(RankEnergy::decode(&m)),
                        Err(e) => failure = Some(e),
                    }
                }
                combine(&readings, secs)
            } else {
                energy
            };
            tallies[i].push(energy);
            match out {
                Ok(out) if out == expected => {}
                Ok(_) => {
                    failure = Some(MpiError::Protocol(format!(
                        "run {i} differs from the sequential reference"
                    )))
                }
                Err(e) => failure = Some(e),
            }
            secs
        });
        ranks.command(Command::Stop);
        match failure {
            Some(e) => Err(e),
            None => Ok(Some((m, tallies))),
        }
    } else {
        (|| loop {
            match ranks.next_command()? {
                Command::Stop => return Ok(None),
                Command::Run(_) => {
                    let (res, energy) = meter.measure(|| {
                        let mut d = plain.clone();
                        transform_part(spec, direction, range.start, last, &mut d)
                            .map_err(MpiError::from)
                            .and_then(|()| ranks.gather(&d))
                    });
                    res?;
                    let e = RankEnergy::of(&ranks.host_of_ranks()[ranks.rank()], &energy);
                    ranks.send(0, super::comm::tag::REPORT, &e.encode());
                }
            }
        })()
    };
    let Some((m, tallies)) = ranks.agree(outcome)? else {
        return Ok(None);
    };
    let summaries =
        crate::bench::summaries(&m).ok_or_else(|| MpiError::Protocol("no samples".into()))?;
    let warmup = plan.config.warmup_runs as usize;
    let threads = spec.threads(direction);
    Ok(Some(
        summaries
            .iter()
            .enumerate()
            .map(|(i, s)| BulkMpiRecord {
                base: CipherBenchRecord {
                    alg: if i == 0 {
                        spec.algorithm.sequential_form()
                    } else {
                        spec.algorithm
                    },
                    threads: [1, plan.compare_threads, threads][i],
                    op: direction,
                    size_bytes: len,
                    chunk_bytes: spec.chunk(),
                    timing: TimingFields::new(s, m[i].samples.clone(), TimingColumns::CI95),
                    mb_per_s: len as f64 / s.median / 1e6,
                    baseline: spec.algorithm.sequential_form(),
                    speedup: summaries[0].median / s.median,
                    self_speedup: summaries[1].median / s.median,
                    tsc_cycles_per_byte: None,
                    oversubscribed: crate::bench::oversubscribed(if i == 2 {
                        ranks.ranks_per_host() * threads
                    } else {
                        [1, plan.compare_threads][i]
                    }),
                    verified: true,
                    note: s.note().unwrap_or_default(),
                },
                mpi: if i == 2 {
                    MpiFields::mpi(ranks)
                } else {
                    MpiFields::threads()
                },
                energy: tallies[i].fields(warmup, Some(len as f64)),
            })
            .collect(),
    ))
}
