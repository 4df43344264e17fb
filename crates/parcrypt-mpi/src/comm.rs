//! The ranks of one run and how they talk point to point: byte messages with tags, waits that
//! poll instead of blocking, and a deadline on every wait. The collectives are in
//! [`super::collective`].
//!
//! Open MPI's blocking calls busy-poll without yielding. Every wait here polls instead
//! (`MPI_Improbe`, `MPI_Test`), in one of two manners ([`Backoff`], in [`super::backoff`]):
//! - **busy** (a message expected within a run): when this host's ranks times their threads
//!   fit its cores, the poll never sleeps (each rank has a core of its own); otherwise it
//!   yields for [`Backoff::BUSY_SPIN`] before it starts to sleep, so that a rank holding the
//!   data gets the core at once (oversubscribed ranks);
//! - **idle** (a worker waiting for rank 0's next command, rank 0 serving requests while its
//!   own compute thread works): yields for [`Backoff::SPIN`], then sleeps from
//!   [`Backoff::FIRST_SLEEP`] doubling up to [`Backoff::MAX_SLEEP`], leaving the cores to
//!   whoever computes (measured for issue 12: a busy-polling rank made a 2-rank batch on 2 cores
//!   take 4.1–4.4 s against 1.9–2.6 s).
//!
//! Every wait gives up after the run's timeout: a point-to-point wait with
//! [`MpiError::Timeout`], a collective or a send (whose buffers MPI may still use) by ending the
//! job. A rank that dies is noticed by the launcher, which ends the job.
use super::backoff::Backoff;
use super::error::{MpiError, MpiResult};
use mpi::Threading;
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::Equivalence;
use std::collections::BTreeSet;
use std::time::Duration;

/// Message tags used by the programs.
pub mod tag {
    /// Work requests, assignments and results (batch RSA).
    pub const WORK: i32 = 10;
    /// Pipeline chunks.
    pub const CHUNK: i32 = 20;
    /// CRSA values along links.
    pub const LINK: i32 = 30;
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
        let joined = ranks.gather(me.as_bytes()).map(|all| {
            all.iter()
                .map(|n| String::from_utf8_lossy(n).into_owned())
                .collect::<Vec<_>>()
                .join("\n")
        });
        let all = ranks.broadcast(joined.as_ref().map(|s| s.as_bytes()));
        ranks.hosts = String::from_utf8_lossy(&all)
            .split('\n')
            .map(str::to_string)
            .collect();
        ranks.set_threads_per_rank(1);
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

    /// Whether this is rank 0, which drives, times and reports.
    pub fn is_root(&self) -> bool {
        self.rank == 0
    }

    /// The host of every rank, by rank.
    pub fn host_of_ranks(&self) -> &[String] {
        &self.hosts
    }

    /// The distinct hosts of the run, sorted.
    pub fn host_names(&self) -> Vec<String> {
        self.hosts
            .iter()
            .collect::<BTreeSet<_>>()
            .into_iter()
            .cloned()
            .collect()
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

    /// Ranks on this rank's host.
    pub fn ranks_here(&self) -> usize {
        let me = self.hosts.get(self.rank);
        self.hosts.iter().filter(|h| Some(*h) == me).count().max(1)
    }

    /// Tells the busy waits how many threads each rank runs: where this host's ranks times
    /// `threads` fit its online CPUs (whatever the launcher bound each rank to), busy waits
    /// never sleep; otherwise they yield for [`Backoff::BUSY_SPIN`] first.
    pub fn set_threads_per_rank(&self, threads: usize) {
        let fits = self.ranks_here() * threads.max(1) <= super::host::online_cpus();
        let us = if fits {
            u64::MAX
        } else {
            Backoff::BUSY_SPIN.as_micros() as u64
        };
        super::backoff::set_busy_spin_us(us);
    }

    /// How long any wait may take.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The communicator of all ranks.
    pub fn world(&self) -> &SimpleCommunicator {
        &self.world
    }

    /// Ends the whole job now (all ranks), with `status`, after removing this rank's temporary
    /// outputs ([`super::scratch`]).
    pub fn abort(&self, status: i32) -> ! {
        super::scratch::remove_all_now();
        self.world.abort(status)
    }

    /// Sends `data` to rank `to`, waiting until the send completed.
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

    /// Receives into `buf` (resized to the message) from `from` with `tag`, polling as `wait`
    /// says; returns the source and the seconds waited before the message was there.
    pub fn recv_into<T: Equivalence + Default + Clone>(
        &self,
        from: Option<usize>,
        tag: i32,
        buf: &mut Vec<T>,
        mut wait: Backoff,
    ) -> MpiResult<(usize, f64)> {
        loop {
            if let Some(got) = self.try_recv_into(from, tag, buf) {
                return Ok((got, wait.waited()));
            }
            self.check_deadline(&wait, from)?;
            wait.pause();
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

    /// Receives a message from `from` with `tag`, polling as `wait` says.
    pub fn recv(
        &self,
        from: Option<usize>,
        tag: i32,
        wait: Backoff,
    ) -> MpiResult<(usize, Vec<u8>)> {
        let mut buf = Vec::new();
        let (src, _) = self.recv_into(from, tag, &mut buf, wait)?;
        Ok((src, buf))
    }

    /// [`MpiError::Timeout`] once `wait` has gone on for longer than the run's timeout.
    pub fn check_deadline(&self, wait: &Backoff, from: Option<usize>) -> MpiResult<()> {
        let waited = wait.waited();
        if waited > self.timeout.as_secs_f64() {
            return Err(MpiError::Timeout {
                from: from.map_or("any rank".into(), |r| format!("rank {r}")),
                waited_s: waited,
            });
        }
        Ok(())
    }
}

/// Messages up to this size are sent with a plain blocking send (they go eagerly; Open MPI's
/// shared-memory eager limit is 4 KiB).
pub const EAGER_BYTES: usize = 4096;
