//! The ranks of one run and how they talk: byte messages with tags, waits that probe and
//! sleep, agreement on errors, gather and broadcast through rank 0, and a deadline on every
//! wait.
//!
//! Open MPI's blocking receive (and `MPI_Wait`, and the collectives) busy-poll: a rank that
//! only waits burns a core that a working rank on the same host needs (measured for issue 12:
//! 4.1–4.4 s against 1.9–2.6 s with probe-and-sleep, 2 ranks on 2 cores). Every wait here
//! therefore polls with `MPI_Improbe` / `MPI_Test`, yielding for the first
//! [`Backoff::SPIN`] and then sleeping, from [`Backoff::FIRST_SLEEP`] doubling up to
//! [`Backoff::MAX_SLEEP`]. All collectives are point-to-point through rank 0 (fine for the
//! tens of ranks these programs use).
//!
//! Every wait gives up after the run's timeout with [`MpiError::Timeout`], so a rank that
//! hangs cannot hang the job; a rank that dies is noticed by the launcher, which ends the job.
use super::error::{MpiError, MpiResult};
use mpi::Threading;
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::Equivalence;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

/// Message tags used by the programs.
pub mod tag {
    /// Rank 0 to a worker: run a configuration, or stop.
    pub const COMMAND: i32 = 1;
    /// Agreement: a rank's status up to rank 0.
    pub const AGREE_UP: i32 = 2;
    /// Agreement: rank 0's verdict down to every rank.
    pub const AGREE_DOWN: i32 = 3;
    /// Gather to rank 0.
    pub const GATHER: i32 = 4;
    /// Broadcast from rank 0.
    pub const BROADCAST: i32 = 5;
    /// Work requests, assignments and results (batch RSA).
    pub const WORK: i32 = 10;
    /// Pipeline chunks.
    pub const CHUNK: i32 = 20;
    /// CRSA values along links.
    pub const LINK: i32 = 30;
    /// Per-run reports to rank 0.
    pub const REPORT: i32 = 40;
}

/// Polling with yields, then sleeps of growing length.
#[derive(Debug)]
pub struct Backoff {
    started: Instant,
    sleep: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self::new()
    }
}

impl Backoff {
    /// How long to poll with `yield_now` before sleeping.
    pub const SPIN: Duration = Duration::from_micros(50);
    /// The first sleep.
    pub const FIRST_SLEEP: Duration = Duration::from_micros(20);
    /// The longest sleep (the worst added latency once a wait has gone on for a while).
    pub const MAX_SLEEP: Duration = Duration::from_micros(500);

    /// A fresh wait.
    pub fn new() -> Self {
        Self {
            started: Instant::now(),
            sleep: Self::FIRST_SLEEP,
        }
    }

    /// Seconds since the wait began.
    pub fn waited(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Gives the CPU away for a moment.
    pub fn pause(&mut self) {
        if self.started.elapsed() < Self::SPIN {
            std::thread::yield_now();
        } else {
            std::thread::sleep(self.sleep);
            self.sleep = (self.sleep * 2).min(Self::MAX_SLEEP);
        }
    }
}

/// What rank 0 tells the workers between runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Run configuration `i` once.
    Run(u32),
    /// No more runs.
    Stop,
}

impl Command {
    fn encode(self) -> [u8; 5] {
        match self {
            Command::Run(i) => {
                let b = i.to_le_bytes();
                [1, b[0], b[1], b[2], b[3]]
            }
            Command::Stop => [0; 5],
        }
    }

    fn decode(bytes: &[u8]) -> MpiResult<Self> {
        match bytes {
            [1, a, b, c, d] => Ok(Command::Run(u32::from_le_bytes([*a, *b, *c, *d]))),
            [0, ..] => Ok(Command::Stop),
            _ => Err(MpiError::Protocol("malformed command".into())),
        }
    }
}

/// The ranks of one run, from this rank's point of view. Dropping it finalizes MPI.
pub struct Ranks {
    world: SimpleCommunicator,
    rank: usize,
    size: usize,
    hosts: Vec<String>,
    timeout: Duration,
    // Last: dropped after the communicator, finalizing MPI.
    _universe: Universe,
}

impl std::fmt::Debug for Ranks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ranks")
            .field("rank", &self.rank)
            .field("size", &self.size)
            .finish()
    }
}

/// Whether a launcher (mpirun, srun, mpiexec/hydra, PMIx) started this process.
pub fn started_by_launcher() -> bool {
    [
        "OMPI_COMM_WORLD_SIZE",
        "PMIX_RANK",
        "PMI_RANK",
        "PMI_SIZE",
        "SLURM_PROCID",
        "MPI_LOCALNRANKS",
    ]
    .iter()
    .any(|v| std::env::var_os(v).is_some())
}

impl Ranks {
    /// Initializes MPI (only the main thread calls MPI: `MPI_THREAD_FUNNELED`) and learns
    /// every rank's host. `timeout` bounds every wait.
    pub fn init(timeout: Duration) -> MpiResult<Self> {
        let (universe, _provided) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| MpiError::Protocol("MPI was already initialized".into()))?;
        let world = universe.world();
        super::nb::set_send_timeout(timeout);
        let rank = world.rank() as usize;
        let size = world.size() as usize;
        let mut ranks = Ranks {
            world,
            rank,
            size,
            hosts: Vec::new(),
            timeout,
            _universe: universe,
        };
        let me = mpi::environment::processor_name().unwrap_or_else(|_| "unknown".into());
        let names = ranks.gather(me.as_bytes())?;
        let joined = names.map(|all| {
            all.iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect::<Vec<_>>()
                .join("\n")
        });
        let all = ranks.broadcast(joined.as_ref().map(|s| s.as_bytes()))?;
        ranks.hosts = String::from_utf8_lossy(&all)
            .split('\n')
            .map(str::to_string)
            .collect();
        Ok(ranks)
    }

    /// This rank.
    pub fn rank(&self) -> usize {
        self.rank
    }

    /// Ranks in the run.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Whether this is rank 0, which drives, times, checks and writes.
    pub fn is_root(&self) -> bool {
        self.rank == 0
    }

    /// The host of every rank, by rank.
    pub fn host_of_ranks(&self) -> &[String] {
        &self.hosts
    }

    /// Distinct hosts in the run.
    pub fn hosts(&self) -> usize {
        self.hosts.iter().collect::<BTreeSet<_>>().len()
    }

    /// Most ranks on one host.
    pub fn ranks_per_host(&self) -> usize {
        let mut counts = std::collections::BTreeMap::new();
        for h in &self.hosts {
            *counts.entry(h).or_insert(0usize) += 1;
        }
        counts.into_values().max().unwrap_or(1)
    }

    /// How long any wait may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The communicator of all ranks.
    pub fn world(&self) -> &SimpleCommunicator {
        &self.world
    }

    /// Ends the whole job now (all ranks), with `status`.
    pub fn abort(&self, status: i32) -> ! {
        self.world.abort(status)
    }

    /// Sends `data` to rank `to`, waiting (probe and sleep) until the send completed.
    pub fn send(&self, to: usize, tag: i32, data: &[u8]) {
        if data.len() <= EAGER_BYTES {
            // Small messages leave at once (eager protocol): a blocking send does not wait.
            self.world
                .process_at_rank(to as i32)
                .send_with_tag(data, tag);
        } else {
            let pending = super::nb::PendingSend::start(&self.world, to, tag, data.to_vec());
            pending.finish();
        }
    }

    /// A message from `from` (any rank if `None`) with `tag`, if one has arrived: its
    /// source and bytes.
    pub fn try_recv(&self, from: Option<usize>, tag: i32) -> Option<(usize, Vec<u8>)> {
        let mut data = Vec::new();
        self.try_recv_into(from, tag, &mut data)
            .map(|src| (src, data))
    }

    /// Receives into `buf` (resized to the message) from `from` with `tag`, probing and
    /// sleeping; returns the source and the seconds waited before the message was there.
    pub fn recv_into<T: Equivalence + Default + Clone>(
        &self,
        from: Option<usize>,
        tag: i32,
        buf: &mut Vec<T>,
    ) -> MpiResult<(usize, f64)> {
        let mut backoff = Backoff::new();
        loop {
            if let Some(got) = self.try_recv_into(from, tag, buf) {
                return Ok((got, backoff.waited()));
            }
            self.check_deadline(&backoff, from)?;
            backoff.pause();
        }
    }

    /// Receives into `buf` if a message from `from` with `tag` has arrived; its source.
    pub fn try_recv_into<T: Equivalence + Default + Clone>(
        &self,
        from: Option<usize>,
        tag: i32,
        buf: &mut Vec<T>,
    ) -> Option<usize> {
        let probe = match from {
            Some(r) => self
                .world
                .process_at_rank(r as i32)
                .immediate_matched_probe_with_tag(tag),
            None => self
                .world
                .any_process()
                .immediate_matched_probe_with_tag(tag),
        };
        probe.map(|(msg, status)| {
            let len = status.count(T::equivalent_datatype()) as usize;
            buf.resize(len, T::default());
            msg.matched_receive_into(&mut buf[..]);
            status.source_rank() as usize
        })
    }

    /// Receives a message from `from` with `tag`, probing and sleeping.
    pub fn recv(&self, from: Option<usize>, tag: i32) -> MpiResult<(usize, Vec<u8>)> {
        let mut buf = Vec::new();
        let (src, _) = self.recv_into(from, tag, &mut buf)?;
        Ok((src, buf))
    }

    fn check_deadline(&self, backoff: &Backoff, from: Option<usize>) -> MpiResult<()> {
        let waited = backoff.waited();
        if waited > self.timeout.as_secs_f64() {
            return Err(MpiError::Timeout {
                from: from.map_or("any rank".into(), |r| format!("rank {r}")),
                waited_s: waited,
            });
        }
        Ok(())
    }

    /// Rank 0: every worker's bytes by rank (rank 0's own first); others: `None`.
    pub fn gather(&self, data: &[u8]) -> MpiResult<Option<Vec<Vec<u8>>>> {
        if !self.is_root() {
            self.send(0, tag::GATHER, data);
            return Ok(None);
        }
        let mut all = vec![data.to_vec()];
        for r in 1..self.size {
            all.push(self.recv(Some(r), tag::GATHER)?.1);
        }
        Ok(Some(all))
    }

    /// Rank 0's bytes on every rank (`data` is read on rank 0 only).
    pub fn broadcast(&self, data: Option<&[u8]>) -> MpiResult<Vec<u8>> {
        if self.is_root() {
            let data = data.unwrap_or_default();
            for r in 1..self.size {
                self.send(r, tag::BROADCAST, data);
            }
            Ok(data.to_vec())
        } else {
            Ok(self.recv(Some(0), tag::BROADCAST)?.1)
        }
    }

    /// Waits until every rank has reached this point (a gather and a broadcast through rank
    /// 0), or the timeout.
    pub fn barrier(&self) -> MpiResult<()> {
        self.gather(&[])?;
        self.broadcast(None).map(drop)
    }

    /// Every rank's outcome, agreed: `Ok` everywhere if every rank succeeded, else the
    /// lowest failing rank's error as [`MpiError::Agreed`] on every rank.
    pub fn agree<T>(&self, local: MpiResult<T>) -> MpiResult<T> {
        let mine = match &local {
            Ok(_) => vec![0u8],
            Err(e) => {
                let mut v = vec![1u8];
                v.extend_from_slice(&e.exit_status().to_le_bytes());
                v.extend_from_slice(e.to_string().as_bytes());
                v
            }
        };
        let verdict = if self.is_root() {
            let mut verdict = vec![0u8];
            for (r, status) in std::iter::once(mine)
                .chain(
                    (1..self.size)
                        .map(|r| self.recv(Some(r), tag::AGREE_UP).map(|m| m.1))
                        .collect::<MpiResult<Vec<_>>>()?,
                )
                .enumerate()
            {
                if verdict[0] == 0 && status.first() == Some(&1) {
                    verdict = vec![1u8];
                    verdict.extend_from_slice(&(r as u32).to_le_bytes());
                    verdict.extend_from_slice(&status[1..]);
                }
            }
            for r in 1..self.size {
                self.send(r, tag::AGREE_DOWN, &verdict);
            }
            verdict
        } else {
            self.send(0, tag::AGREE_UP, &mine);
            self.recv(Some(0), tag::AGREE_DOWN)?.1
        };
        match verdict.as_slice() {
            [0] => local,
            [1, rest @ ..] if rest.len() >= 8 => {
                let rank = u32::from_le_bytes(rest[..4].try_into().expect("4 bytes")) as usize;
                let status = i32::from_le_bytes(rest[4..8].try_into().expect("4 bytes"));
                let message = String::from_utf8_lossy(&rest[8..]).into_owned();
                Err(MpiError::Agreed {
                    rank,
                    message,
                    status,
                })
            }
            _ => Err(MpiError::Protocol("malformed agreement".into())),
        }
    }

    /// Rank 0: tells every worker what to do next.
    pub fn command(&self, cmd: Command) {
        for r in 1..self.size {
            self.send(r, tag::COMMAND, &cmd.encode());
        }
    }

    /// A worker: waits for rank 0's next command. The wait has no deadline while rank 0
    /// measures other things, but gives up after the timeout like every other wait.
    pub fn next_command(&self) -> MpiResult<Command> {
        let (_, bytes) = self.recv(Some(0), tag::COMMAND)?;
        Command::decode(&bytes)
    }
}

/// Messages up to this size are sent with a plain blocking send (they go eagerly; Open MPI's
/// shared-memory eager limit is 4 KiB).
pub const EAGER_BYTES: usize = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip() {
        for c in [Command::Run(0), Command::Run(70_000), Command::Stop] {
            assert_eq!(Command::decode(&c.encode()).unwrap(), c);
        }
        assert!(Command::decode(&[7]).is_err());
    }

    #[test]
    fn backoff_spins_then_sleeps_up_to_the_cap() {
        // Counted in pauses, not timed: a sleep may last far longer than asked on a busy
        // machine, so only the order of the steps is certain.
        let mut b = Backoff::new();
        assert_eq!(b.sleep, Backoff::FIRST_SLEEP);
        let t = Instant::now();
        while t.elapsed() < Backoff::SPIN {
            b.pause();
        }
        let mut seen = vec![b.sleep];
        for _ in 0..20 {
            b.pause();
            seen.push(b.sleep);
        }
        assert!(seen.windows(2).all(|w| w[1] >= w[0]), "{seen:?}");
        assert!(seen.iter().all(|&s| s <= Backoff::MAX_SLEEP), "{seen:?}");
        assert_eq!(b.sleep, Backoff::MAX_SLEEP, "{seen:?}");
        assert!(b.waited() >= Backoff::SPIN.as_secs_f64());
    }
}
