//! PBlock / PARC4 over ranks timed against the same cipher on threads and the sequential form,
//! interleaved in one run, in one of two ways ([`Io`]):
//! - **file to file**: each run reads the input, transforms it in pieces and writes the output
//!   (the ranks' runs as [`super::bulk::transform_file`], the thread and sequential forms as
//!   `parcrypt cipher` streams a file). No form syncs its output to the disk in a timed run
//!   ([`super::bulk::Finish::sync`]): on a slow disk every form would take the disk's time.
//!   Outputs of timed runs go to one scratch file beside the output and are thrown away; the
//!   output itself was written, checked and synced before ([`super::bulk::Verify`]). Writes
//!   into one file take the file's lock in turn, so the system time of the I/O does not
//!   divide among ranks or threads.
//! - **in memory**, as `parcrypt bench cipher` times: each rank holds its own part (rank 0
//!   also the whole input, for the thread and sequential forms) and a run transforms a copy of
//!   it, ending with an all-reduce on every rank.
//!
//! The ranks' time runs on rank 0's clock from the barrier that starts the run to the agreed
//! end.
use super::bulk::{
    Finish, PIECE_BYTES, Verify, holds_end, input_len, part, reference_spec, transform_file,
};
use super::comm::Ranks;
use super::error::{MpiError, MpiResult};
use super::host::AllCpus;
use super::record::{MpiFields, end_sweep, energy_over_ranks, interleaved, serve_sweep};
use super::shared_file::{io_error, scratch_beside};
use parcrypt::cipher::alg::{CipherSpec, Direction};
use parcrypt::cipher::file::transform_part;
use parcrypt_harness::bench::{Bench, BenchConfig, Sampled, TimingColumns, TimingFields};
use parcrypt_harness::energy::meter::session::RunEnergy;
use parcrypt_harness::energy::meter::{EnergyFields, EnergyTally, RunMeter};
use parcrypt_harness::records::cipher::CipherBenchRecord;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// What a timed run covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Io {
    /// Input file to output file (not synced).
    File,
    /// Bytes in memory to bytes in memory.
    Memory,
}

impl Io {
    fn name(self) -> &'static str {
        match self {
            Io::File => "file",
            Io::Memory => "memory",
        }
    }
}

/// What to compare.
#[derive(Clone, Debug)]
pub struct BulkPlan {
    /// What a timed run covers.
    pub io: Io,
    /// Whether the output written before timing was checked (the records' `verified`).
    pub verified: bool,
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
    /// `backend`, `ranks`, `hosts`, `host_names`.
    #[serde(flatten)]
    pub mpi: MpiFields,
    /// Energy per run, over ranks.
    #[serde(flatten)]
    pub energy: EnergyFields,
    /// What a timed run covered: `file` (file to file, not synced) or `memory`; absent in
    /// records written before it was recorded (they were `memory`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub io: String,
}

/// One process transforms `input` into `out` as `parcrypt cipher` does (streamed in pieces
/// through a 1 MiB buffered writer), on every CPU of the host; not synced (see the module).
fn one_process(spec: &CipherSpec, direction: Direction, input: &Path, out: &Path) -> MpiResult<()> {
    let _all = AllCpus::new();
    let in_err = |e| parcrypt::Error::Io {
        path: input.to_path_buf(),
        source: e,
    };
    let mut reader = std::fs::File::open(input).map_err(|e| io_error(input, e))?;
    let file = std::fs::File::create(out).map_err(|e| io_error(out, e))?;
    let mut writer = std::io::BufWriter::with_capacity(1 << 20, &file);
    parcrypt::cipher::file::transform_stream(
        spec,
        direction,
        &mut reader,
        &mut writer,
        PIECE_BYTES,
        &in_err,
    )?;
    writer.flush().map_err(|e| io_error(out, e))
}

/// Timed runs over ranks: not checked (the output was), not synced (see the module).
const UNSYNCED: Finish = Finish {
    verify: Verify::None,
    sync: false,
};

/// `range` of `input`, read whole.
fn read_range(input: &Path, range: &std::ops::Range<usize>) -> MpiResult<Vec<u8>> {
    use std::io::{Read, Seek, SeekFrom};
    let err = |e| io_error(input, e);
    let mut f = std::fs::File::open(input).map_err(err)?;
    f.seek(SeekFrom::Start(range.start as u64)).map_err(err)?;
    let mut buf = vec![0u8; range.len()];
    f.read_exact(&mut buf).map_err(err)?;
    Ok(buf)
}

/// Runs on every rank; rank 0 gets the sequential, thread and rank records. `near`: the
/// output's path, beside which the scratch file goes.
pub fn run(
    ranks: &Ranks,
    spec: &CipherSpec,
    direction: Direction,
    input: &Path,
    near: &Path,
    plan: &BulkPlan,
) -> MpiResult<Option<Vec<BulkMpiRecord>>> {
    plan.config.validate()?;
    let len = input_len(ranks, input)?;
    let scratch = scratch_beside(ranks, near)?;
    let target = scratch.path();
    let range = part(spec, len, ranks.size(), ranks.rank());
    let last = holds_end(spec, len, ranks.size(), ranks.rank());
    // In memory: this rank's part, read before any timing.
    let plain = match plan.io {
        Io::Memory => ranks.agree(read_range(input, &range))?,
        Io::File => Vec::new(),
    };
    let mut meter = RunMeter::auto();
    let over_ranks = |meter: &mut RunMeter| -> MpiResult<(f64, RunEnergy)> {
        let t = Instant::now();
        let (res, energy) = meter.measure(|| match plan.io {
            Io::File => transform_file(ranks, spec, direction, input, target, UNSYNCED).map(drop),
            Io::Memory => {
                let mut d = plain.clone();
                let res = transform_part(spec, direction, range.start, last, &mut d);
                ranks.agree(res.map_err(MpiError::from))
            }
        });
        res?;
        let secs = t.elapsed().as_secs_f64();
        Ok((secs, energy))
    };
    if !ranks.is_root() {
        serve_sweep(ranks, |_| {
            let (secs, energy) = over_ranks(&mut meter)?;
            energy_over_ranks(ranks, &energy, secs).map(drop)
        })?;
        return Ok(None);
    }
    let whole = match plan.io {
        Io::Memory => parcrypt::io::read_file(input)?,
        Io::File => Vec::new(),
    };
    let seq_spec = reference_spec(spec);
    let mut threads_spec = spec.clone();
    threads_spec.threads = Some(plan.compare_threads);
    let mut tallies = vec![EnergyTally::default(); 3];
    let bench = Bench::new(plan.config)?;
    let outcome = interleaved(&bench, 3, |i| {
        if i == 2 {
            ranks.command_run(0);
            let (secs, energy) = over_ranks(&mut meter)?;
            let energy = energy_over_ranks(ranks, &energy, secs)?
                .ok_or_else(|| MpiError::Protocol("rank 0 got no energy".into()))?;
            tallies[2].push(energy);
            return Ok(secs);
        }
        let form = if i == 0 { &seq_spec } else { &threads_spec };
        let _all = AllCpus::new();
        let t = Instant::now();
        let (res, energy) = meter.measure(|| match plan.io {
            Io::File => one_process(form, direction, input, target),
            Io::Memory => {
                let mut d = whole.clone();
                transform_part(form, direction, 0, true, &mut d).map_err(MpiError::from)
            }
        });
        let secs = t.elapsed().as_secs_f64();
        tallies[i].push(energy);
        res.map(|()| secs)
    });
    let sampled = end_sweep(ranks, outcome)?;
    Ok(Some(records(
        ranks, spec, direction, plan, len, &sampled, &tallies,
    )))
}

/// Rank 0's records: sequential, threads and ranks, from their samples and energy tallies.
fn records(
    ranks: &Ranks,
    spec: &CipherSpec,
    direction: Direction,
    plan: &BulkPlan,
    len: usize,
    sampled: &[Sampled],
    tallies: &[EnergyTally],
) -> Vec<BulkMpiRecord> {
    let warmup = plan.config.warmup_runs as usize;
    let threads = spec.threads(direction);
    let cpus = super::host::online_cpus();
    sampled
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
                timing: TimingFields::new(&s.summary, s.times.clone(), TimingColumns::CI95),
                mb_per_s: len as f64 / s.summary.median / 1e6,
                baseline: spec.algorithm.sequential_form(),
                speedup: sampled[0].summary.median / s.summary.median,
                self_speedup: sampled[1].summary.median / s.summary.median,
                tsc_cycles_per_byte: None,
                // The host's online CPUs, not this rank's affinity (a launcher binds
                // each rank to one core).
                oversubscribed: [1, plan.compare_threads, ranks.ranks_per_host() * threads][i]
                    > cpus,
                verified: plan.verified,
                note: s.note().unwrap_or_default(),
            },
            mpi: if i == 2 {
                MpiFields::mpi(ranks)
            } else {
                MpiFields::threads(ranks)
            },
            energy: tallies[i].fields(warmup, Some(len as f64)),
            io: plan.io.name().into(),
        })
        .collect()
}
