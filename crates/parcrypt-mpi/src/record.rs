//! What every MPI result adds to the thread benchmarks' records, energy over ranks, and rank
//! 0's interleaved timing loop that stops at the first failure.
//!
//! An MPI record is the thread benchmark's record (`#[serde(flatten)]`) plus [`MpiFields`]:
//! `backend` (`mpi`, or `threads` for the thread form measured beside it in the same run),
//! `ranks`, `hosts` (their count) and `host_names`. A reader of thread results reads MPI
//! results with the same code and tells them apart by `backend` (absent in thread files: read
//! it as `threads`).
//!
//! Energy: every rank reads its own meter around its part of each run and sends the reading
//! to rank 0, which adds them up as the meter's nature says. A model meter (`model:<preset>`)
//! counts the CPU time of its own process, so the ranks' readings are summed. RAPL
//! (`measured:rapl`) counts a whole package, so only one reading per host is taken (the
//! lowest rank's). The sum's time is rank 0's wall time of the run.
//!
//! A timed sweep: rank 0 commands each run ([`Ranks::command_run`]: a broadcast and a barrier,
//! so the clock starts with every rank awake), workers serve ([`serve_sweep`]), and rank 0
//! ends it ([`end_sweep`]). An error inside a run is either agreed (every rank leaves the sweep
//! with it) or local (that rank ends the job).
use super::collective::Command;
use super::comm::Ranks;
use super::error::{MpiError, MpiResult};
use parcrypt_harness::bench::{Bench, Sampled};
use parcrypt_harness::energy::meter::Reading;
use parcrypt_harness::energy::meter::session::RunEnergy;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// The fields an MPI result adds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MpiFields {
    /// `mpi` for work over ranks, `threads` for the thread form run beside it on rank 0.
    pub backend: String,
    /// MPI ranks that did the work (1 for `threads`).
    pub ranks: usize,
    /// Distinct hosts among those ranks.
    pub hosts: usize,
    /// Those hosts' names, sorted (absent in records written before they were listed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub host_names: Vec<String>,
}

impl MpiFields {
    /// Work over all the ranks of `ranks`.
    pub fn mpi(ranks: &Ranks) -> Self {
        Self {
            backend: "mpi".into(),
            ranks: ranks.size(),
            hosts: ranks.hosts(),
            host_names: ranks.host_names(),
        }
    }

    /// The thread form, on rank 0 alone.
    pub fn threads(ranks: &Ranks) -> Self {
        Self {
            backend: "threads".into(),
            ranks: 1,
            hosts: 1,
            host_names: ranks.host_of_ranks().first().cloned().into_iter().collect(),
        }
    }
}

/// One rank's meter reading of one run, as sent to rank 0.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RankEnergy {
    /// The rank's host.
    pub host: String,
    /// Joules, when read.
    pub joules: Option<f64>,
    /// The meter's source, `none`, or `unavailable: <why>`.
    pub source: String,
}

impl RankEnergy {
    /// The reading of `energy` on `host`.
    pub fn of(host: &str, energy: &RunEnergy) -> Self {
        let (joules, source) = match energy {
            RunEnergy::None => (None, "none".to_string()),
            RunEnergy::Read(r) => (Some(r.joules), r.source.clone()),
            RunEnergy::Failed(why) => (None, format!("unavailable: {why}")),
        };
        Self {
            host: host.to_string(),
            joules,
            source,
        }
    }

    /// As bytes for a message.
    pub fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("plain fields serialize")
    }

    /// From a message.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        serde_json::from_slice(bytes).ok()
    }
}

/// The energy of one run over all ranks (see the module notes), over `wall_s` seconds.
pub fn combine(readings: &[RankEnergy], wall_s: f64) -> RunEnergy {
    if let Some(r) = readings
        .iter()
        .find(|r| r.source.starts_with("unavailable"))
    {
        return RunEnergy::Failed(r.source.trim_start_matches("unavailable: ").to_string());
    }
    let Some(first) = readings.first() else {
        return RunEnergy::None;
    };
    if first.joules.is_none() {
        return RunEnergy::None;
    }
    let per_package = first.source.starts_with("measured:");
    let mut seen = BTreeSet::new();
    let mut joules = 0.0;
    for r in readings {
        if per_package && !seen.insert(r.host.as_str()) {
            continue;
        }
        joules += r.joules.unwrap_or(0.0);
    }
    RunEnergy::Read(Reading::new(joules, wall_s, first.source.clone()))
}

/// Every rank's meter reading of one run, summed on rank 0 over `wall_s` (a gather; rank 0
/// gets the energy over ranks, the others `None`).
pub fn energy_over_ranks(
    ranks: &Ranks,
    energy: &RunEnergy,
    wall_s: f64,
) -> MpiResult<Option<RunEnergy>> {
    let mine = RankEnergy::of(&ranks.host_of_ranks()[ranks.rank()], energy);
    let Some(all) = ranks.gather(&mine.encode()) else {
        return Ok(None);
    };
    let readings = all
        .iter()
        .map(|m| {
            RankEnergy::decode(m).ok_or_else(|| MpiError::Protocol("bad energy report".into()))
        })
        .collect::<MpiResult<Vec<_>>>()?;
    Ok(Some(combine(&readings, wall_s)))
}

/// Rank 0, after its timing loop: tells the workers to stop — unless the loop ended on an
/// error every rank shares (they have left already) — and agrees on the outcome.
pub fn end_sweep<T>(ranks: &Ranks, outcome: MpiResult<T>) -> MpiResult<T> {
    if matches!(&outcome, Err(e) if e.is_collective()) {
        return outcome;
    }
    ranks.command(Command::Stop);
    ranks.agree(outcome)
}

/// A worker: runs each configuration rank 0 commands (after the barrier that starts it) until
/// rank 0 says stop, then agrees on the outcome with [`end_sweep`].
pub fn serve_sweep(ranks: &Ranks, mut run: impl FnMut(u32) -> MpiResult<()>) -> MpiResult<()> {
    loop {
        match ranks.next_command()? {
            Command::Stop => return ranks.agree(Ok(())),
            Command::Run(i) => {
                ranks.start_run();
                run(i)?;
            }
        }
    }
}

/// Rank 0's timing loop: `n` configurations run interleaved by the harness, `run(i)` giving
/// configuration `i`'s seconds. The first failure (an MPI error, an output that differs from
/// the reference) stops the timing (later runs are skipped) and is returned; otherwise every
/// configuration's samples.
pub fn interleaved(
    bench: &Bench,
    n: usize,
    mut run: impl FnMut(usize) -> MpiResult<f64>,
) -> MpiResult<Vec<Sampled>> {
    let mut failure: Option<MpiError> = None;
    let measurements = bench.run_interleaved_by(n, |i| {
        if failure.is_some() {
            return 0.0;
        }
        run(i).unwrap_or_else(|e| {
            failure = Some(e);
            0.0
        })
    });
    if let Some(e) = failure {
        return Err(e);
    }
    measurements
        .iter()
        .map(|m| {
            m.sampled()
                .ok_or_else(|| MpiError::Protocol("no samples".into()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading(host: &str, joules: f64, source: &str) -> RankEnergy {
        RankEnergy::of(host, &RunEnergy::Read(Reading::new(joules, 1.0, source)))
    }

    #[test]
    fn models_add_up_over_ranks_and_rapl_counts_each_host_once() {
        let model = [
            reading("a", 1.0, "model:x"),
            reading("a", 2.0, "model:x"),
            reading("b", 4.0, "model:x"),
        ];
        match combine(&model, 2.0) {
            RunEnergy::Read(r) => assert_eq!((r.joules, r.watts), (7.0, 3.5)),
            other => panic!("{other:?}"),
        }
        let rapl = [
            reading("a", 10.0, "measured:rapl"),
            reading("a", 10.5, "measured:rapl"),
            reading("b", 3.0, "measured:rapl"),
        ];
        match combine(&rapl, 1.0) {
            RunEnergy::Read(r) => assert_eq!(r.joules, 13.0),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn failures_and_no_meter_carry_through_and_messages_round_trip() {
        let failed = RankEnergy::of("a", &RunEnergy::Failed("gone".into()));
        let both = [reading("a", 1.0, "model:x"), failed.clone()];
        assert_eq!(combine(&both, 1.0), RunEnergy::Failed("gone".into()));
        let none = RankEnergy::of("a", &RunEnergy::None);
        assert_eq!(combine(&[none], 1.0), RunEnergy::None);
        assert_eq!(combine(&[], 1.0), RunEnergy::None);
        assert_eq!(RankEnergy::decode(&failed.encode()), Some(failed));
        assert_eq!(RankEnergy::decode(b"{"), None);
    }

    #[test]
    fn fields_serialize_beside_a_flattened_record() {
        #[derive(Serialize)]
        struct Rec {
            median_s: f64,
            #[serde(flatten)]
            mpi: MpiFields,
        }
        let v = serde_json::to_value(Rec {
            median_s: 1.0,
            mpi: MpiFields {
                backend: "threads".into(),
                ranks: 1,
                hosts: 1,
                host_names: Vec::new(),
            },
        })
        .unwrap();
        assert_eq!(v["backend"], "threads");
        assert_eq!(v["ranks"], 1);
        assert_eq!(v["median_s"], 1.0);
        assert!(v.get("host_names").is_none(), "no names, no key");
        let named = MpiFields {
            host_names: vec!["node1".into(), "node2".into()],
            hosts: 2,
            ..serde_json::from_value(v).unwrap()
        };
        let back = serde_json::to_value(&named).unwrap();
        assert_eq!(back["host_names"], serde_json::json!(["node1", "node2"]));
        assert_eq!(serde_json::from_value::<MpiFields>(back).unwrap(), named);
    }
}
