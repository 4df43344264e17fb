//! The ranks of one run and how they talk point to point: byte messages with tags, waits that
//! poll instead of blocking, and a deadline on every wait. The collectives are in
//! [`super::collective`].
//!
//! Open MPI's blocking calls busy-poll without yielding. Every wait here polls instead
//! (`MPI_Improbe`, `MPI_Test`), in one of two manners ([`Backoff`]):
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
use super::error::{MpiError, MpiResult};
use mpi::Threading;
use mpi::environment::Universe;
use mpi::point_to_point::{Destination, Source};
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::Equivalence;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Message tags used by the programs.
pub mod tag {
    /// Work requests, assignments and results (batch RSA).
    pub const WORK: i32 = 10;
    /// Pipeline chunks.
    pub const CHUNK: i32 = 20;
    /// CRSA values along links.
    pub const LINK: i32 = 30;
}

/// Microseconds a busy wait yields before it sleeps (`u64::MAX`: never sleeps); set by
/// [`Ranks::init`] and [`Ranks::set_threads_per_rank`].
static BUSY_SPIN_US: AtomicU64 = AtomicU64::new(0);

/// Polling with yields, then sleeps of growing length.
#[derive(Debug)]
pub struct Backoff {
    started: Instant,
    spin: Duration,
    sleep: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self::new()
    }
}

impl Backoff {
    /// How long an idle wait yields before it sleeps.
    pub const SPIN: Duration = Duration::from_micros(50);
    /// How long a busy wait of oversubscribed ranks yields before it sleeps.
    pub const BUSY_SPIN: Duration = Duration::from_millis(5);
    /// The first sleep.
    pub const FIRST_SLEEP: Duration = Duration::from_micros(20);
    /// The longest sleep (the worst added latency once a wait has gone on for a while).
    pub const MAX_SLEEP: Duration = Duration::from_micros(500);

    /// An idle wait: yields for [`Self::SPIN`], then sleeps.
    pub fn new() -> Self {
        Self::yielding_for(Self::SPIN)
    }

    /// A busy wait: never sleeps where this host's ranks fit its cores, else yields for
    /// [`Self::BUSY_SPIN`] first.
    pub fn busy() -> Self {
        match BUSY_SPIN_US.load(Ordering::Relaxed) {
            u64::MAX => Self::yielding_for(Duration::MAX),
            us => Self::yielding_for(Duration::from_micros(us)),
        }
    }

    fn yielding_for(spin: Duration) -> Self {
        Self {
            started: Instant::now(),
            spin,
            sleep: Self::FIRST_SLEEP,
        }
    }

    /// Whether this wait never sleeps.
    pub fn never_sleeps(&self) -> bool {
        self.spin == Duration::MAX
    }

    /// Seconds since the wait began.
    pub fn waited(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Gives the CPU away for a moment.
    pub fn pause(&mut self) {
        if self.spin == Duration::MAX || self.started.elapsed() < self.spin {
            std::thread::yield_now();
        } else {
            std::thread::sleep(self.sleep);
            self.sleep = (self.sleep * 2).min(Self::MAX_SLEEP);
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
        BUSY_SPIN_US.store(us, Ordering::Relaxed);
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_busy_wait_where_ranks_fit_the_cores_never_sleeps() {
        BUSY_SPIN_US.store(u64::MAX, Ordering::Relaxed);
        let mut b = Backoff::busy();
        assert!(b.never_sleeps());
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(2) {
            b.pause();
        }
        assert_eq!(b.sleep, Backoff::FIRST_SLEEP, "no sleep was taken");
        BUSY_SPIN_US.store(0, Ordering::Relaxed);
        let mut b = Backoff::busy();
        assert!(!b.never_sleeps());
        b.pause();
        assert!(
            b.sleep > Backoff::FIRST_SLEEP,
            "an oversubscribed wait sleeps"
        );
    }
}
