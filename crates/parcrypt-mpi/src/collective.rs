//! The collectives of a run through MPI's own (`MPI_Ibarrier`, `MPI_Ibcast`, `MPI_Igather(v)`,
//! `MPI_Ireduce`, `MPI_Iallreduce` via the `mpi` crate), each completed by polling
//! ([`super::backoff::Backoff`]) under the run's deadline, and what the programs build on them:
//! agreement on errors and rank 0's commands.
//!
//! A collective that passes the deadline cannot be cancelled, and MPI may still write its
//! buffers: the rank says so in one line, removes its temporary files and ends the job
//! ([`Ranks::abort`]), as a send past its deadline does.
use super::backoff::Backoff;
use super::comm::Ranks;
use super::error::{MpiError, MpiResult};
use mpi::Count;
use mpi::collective::SystemOperation;
use mpi::datatype::PartitionMut;
use mpi::request::{Request, Scope, scope};
use mpi::traits::{Communicator, CommunicatorCollectives, Root};

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

/// How a collective waits: `Busy` inside a run, `Idle` for a worker awaiting rank 0's next
/// command (see [`super::comm`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// A result expected soon.
    Busy,
    /// Rank 0 may be busy with other things for a long time.
    Idle,
}

impl Wait {
    fn backoff(self) -> Backoff {
        match self {
            Wait::Busy => Backoff::busy(),
            Wait::Idle => Backoff::new(),
        }
    }
}

fn count(n: usize) -> Count {
    Count::try_from(n).expect("a collective's message fits MPI's count")
}

impl Ranks {
    /// Completes `req` by polling; past the deadline, ends the job.
    fn complete<'a, D: ?Sized, S: Scope<'a>>(
        &self,
        mut req: Request<'a, D, S>,
        what: &str,
        wait: Wait,
    ) {
        let mut backoff = wait.backoff();
        loop {
            match req.test() {
                Ok(_) => return,
                Err(r) => req = r,
            }
            if backoff.waited() > self.timeout().as_secs_f64() {
                eprintln!(
                    "error: rank {}: {what} waited {:.0} s for the other ranks (a rank hung or \
                     died; --timeout)",
                    self.rank(),
                    backoff.waited()
                );
                self.abort(1);
            }
            backoff.pause();
        }
    }

    /// Waits until every rank has reached this point.
    pub fn barrier(&self) {
        self.barrier_waiting(Wait::Busy);
    }

    fn barrier_waiting(&self, wait: Wait) {
        let req = self.world().immediate_barrier();
        self.complete(req, "a barrier", wait);
    }

    /// `root`'s bytes on every rank (`data` is read on `root` only).
    pub fn broadcast_from(&self, root: usize, data: &[u8], wait: Wait) -> Vec<u8> {
        let from = self.world().process_at_rank(root as i32);
        let mine = self.rank() == root;
        let mut len = if mine { data.len() as u64 } else { 0 };
        scope(|s| {
            self.complete(
                from.immediate_broadcast_into(s, &mut len),
                "a broadcast",
                wait,
            )
        });
        let mut buf = if mine {
            data.to_vec()
        } else {
            vec![0u8; len as usize]
        };
        if len > 0 {
            scope(|s| {
                self.complete(
                    from.immediate_broadcast_into(s, &mut buf[..]),
                    "a broadcast",
                    wait,
                )
            });
        }
        buf
    }

    /// Rank 0's bytes on every rank (`data` is read on rank 0 only).
    pub fn broadcast(&self, data: Option<&[u8]>) -> Vec<u8> {
        self.broadcast_from(0, data.unwrap_or_default(), Wait::Busy)
    }

    /// Rank 0: every rank's bytes by rank (its own first); others: `None`.
    pub fn gather(&self, data: &[u8]) -> Option<Vec<Vec<u8>>> {
        let root = self.world().process_at_rank(0);
        let len = data.len() as u64;
        if !self.is_root() {
            scope(|s| self.complete(root.immediate_gather_into(s, &len), "a gather", Wait::Busy));
            scope(|s| {
                self.complete(
                    root.immediate_gather_varcount_into(s, data),
                    "a gather",
                    Wait::Busy,
                )
            });
            return None;
        }
        let mut lens = vec![0u64; self.size()];
        scope(|s| {
            self.complete(
                root.immediate_gather_into_root(s, &len, &mut lens[..]),
                "a gather",
                Wait::Busy,
            )
        });
        let counts: Vec<Count> = lens.iter().map(|&l| count(l as usize)).collect();
        let displs: Vec<Count> = counts
            .iter()
            .scan(0, |at, &c| {
                let d = *at;
                *at += c;
                Some(d)
            })
            .collect();
        let total = lens.iter().sum::<u64>() as usize;
        let mut all = vec![0u8; total];
        {
            let mut parts = PartitionMut::new(&mut all[..], &counts[..], &displs[..]);
            scope(|s| {
                self.complete(
                    root.immediate_gather_varcount_into_root(s, data, &mut parts),
                    "a gather",
                    Wait::Busy,
                )
            });
        }
        let mut out = Vec::with_capacity(self.size());
        let mut at = 0;
        for l in lens {
            out.push(all[at..at + l as usize].to_vec());
            at += l as usize;
        }
        Some(out)
    }

    /// Rank 0: the sum of every rank's `value`; others: `None`.
    pub fn reduce_sum(&self, value: u64) -> Option<u64> {
        let root = self.world().process_at_rank(0);
        if !self.is_root() {
            scope(|s| {
                self.complete(
                    root.immediate_reduce_into(s, &value, SystemOperation::sum()),
                    "a reduction",
                    Wait::Busy,
                )
            });
            return None;
        }
        let mut sum = 0u64;
        scope(|s| {
            self.complete(
                root.immediate_reduce_into_root(s, &value, &mut sum, SystemOperation::sum()),
                "a reduction",
                Wait::Busy,
            )
        });
        Some(sum)
    }

    /// The smallest of every rank's `value`, on every rank.
    pub fn all_min(&self, value: u64) -> u64 {
        self.all_reduce(value, SystemOperation::min())
    }

    /// The largest of every rank's `value`, on every rank.
    pub fn all_max(&self, value: u64) -> u64 {
        self.all_reduce(value, SystemOperation::max())
    }

    fn all_reduce(&self, value: u64, op: SystemOperation) -> u64 {
        let mut out = 0u64;
        scope(|s| {
            self.complete(
                self.world()
                    .immediate_all_reduce_into(s, &value, &mut out, op),
                "an all-reduce",
                Wait::Busy,
            )
        });
        out
    }

    /// Every rank's outcome, agreed: `Ok` everywhere if every rank succeeded, else the
    /// lowest failing rank's error as [`MpiError::Agreed`] on every rank. Two collectives: an
    /// all-reduce finds the lowest failing rank, which broadcasts its message.
    pub fn agree<T>(&self, local: MpiResult<T>) -> MpiResult<T> {
        let size = self.size() as u64;
        let mine = if local.is_err() {
            self.rank() as u64
        } else {
            size
        };
        let first = self.all_min(mine);
        if first == size {
            return local;
        }
        let mut said = Vec::new();
        if let Err(e) = &local {
            said.extend_from_slice(&e.exit_status().to_le_bytes());
            said.extend_from_slice(e.to_string().as_bytes());
        }
        let verdict = self.broadcast_from(first as usize, &said, Wait::Busy);
        match verdict.split_first_chunk::<4>() {
            Some((status, message)) => Err(MpiError::Agreed {
                rank: first as usize,
                message: String::from_utf8_lossy(message).into_owned(),
                status: i32::from_le_bytes(*status),
            }),
            None => Err(MpiError::Protocol("malformed agreement".into())),
        }
    }

    /// Rank 0: tells every worker what to do next.
    pub fn command(&self, cmd: Command) {
        self.broadcast_from(0, &cmd.encode(), Wait::Idle);
    }

    /// A worker: waits (idly: rank 0 may be timing other things) for rank 0's next command.
    pub fn next_command(&self) -> MpiResult<Command> {
        Command::decode(&self.broadcast_from(0, &[], Wait::Idle))
    }

    /// Rank 0: commands a timed run; every rank then meets at a barrier, so the run starts with
    /// every rank awake. Workers call [`Self::start_run`] after [`Self::next_command`].
    pub fn command_run(&self, i: u32) {
        self.command(Command::Run(i));
        self.start_run();
    }

    /// The barrier that starts a commanded run (every rank).
    pub fn start_run(&self) {
        self.barrier_waiting(Wait::Busy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_round_trip() {
        for c in [Command::Run(0), Command::Run(70_000), Command::Stop] {
            assert_eq!(Command::decode(&c.encode()).unwrap(), c);
        }
        assert!(Command::decode(&[7]).is_err());
        assert!(Command::decode(&[]).is_err());
    }
}
