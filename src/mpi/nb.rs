//! Non-blocking sends that own their buffer, so a pipeline stage can hand a chunk on and go
//! back to work without waiting for its successor's receive (double buffering).
//!
//! rsmpi's scoped requests borrow their buffer for the whole scope, which forbids refilling a
//! buffer after its send completed; [`PendingSend`] instead owns a `Vec<u8>` and gives it back
//! from [`PendingSend::finish`]. Completion is polled with `MPI_Test` and short sleeps
//! ([`super::comm::Backoff`]), never with Open MPI's busy-polling `MPI_Wait`.
use super::comm::Backoff;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator;
use mpi::traits::Equivalence;
use std::os::raw::{c_int, c_void};
use std::sync::atomic::{AtomicU64, Ordering};

/// Seconds a send may wait for its receive before the job is ended (the run's `--timeout`,
/// set by [`super::comm::Ranks::init`]); until set, sends wait without limit.
static SEND_TIMEOUT_S: AtomicU64 = AtomicU64::new(u64::MAX);

/// Bounds every later [`PendingSend::finish`] (and drop) by `timeout`.
pub fn set_send_timeout(timeout: std::time::Duration) {
    SEND_TIMEOUT_S.store(timeout.as_secs().max(1), Ordering::Relaxed);
}

/// Waits (probing and sleeping) until `send` has completed; past the send timeout a receiver
/// is taken to be hung or dead, and the whole job ends with one line and exit status 1
/// (a send cannot be cancelled portably, and its buffer may not be freed while MPI reads it).
fn wait_or_abort<T: Equivalence>(send: &mut PendingSend<T>) {
    let mut backoff = Backoff::new();
    let limit = SEND_TIMEOUT_S.load(Ordering::Relaxed) as f64;
    while !send.test() {
        if backoff.waited() > limit {
            eprintln!(
                "error: a send waited {:.0} s for its receive (a hung or dead rank; --timeout)",
                backoff.waited()
            );
            // SAFETY: MPI is initialized (a send is in flight); MPI_Abort ends every rank.
            unsafe {
                ffi::MPI_Abort(ffi::RSMPI_COMM_WORLD, 1);
            }
            std::process::exit(1);
        }
        backoff.pause();
    }
}

/// One `MPI_Isend` in flight and the buffer it reads from.
pub struct PendingSend<T: Equivalence = u8> {
    buf: Vec<T>,
    req: ffi::MPI_Request,
    done: bool,
}

impl<T: Equivalence> PendingSend<T> {
    /// Starts sending `buf` to rank `to` with `tag`. At most `c_int::MAX` elements.
    pub fn start(comm: &SimpleCommunicator, to: usize, tag: i32, buf: Vec<T>) -> Self {
        assert!(buf.len() <= c_int::MAX as usize, "message too large");
        // SAFETY: reading the constant MPI_REQUEST_NULL handle.
        let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
        // SAFETY: `buf` is a heap block owned by the returned value; moving a Vec does not move
        // its heap block, and the block is neither written nor freed before the request has
        // completed (`finish` and `drop` test until it has). The count, datatype and
        // communicator handles are valid.
        unsafe {
            ffi::MPI_Isend(
                buf.as_ptr() as *const c_void,
                buf.len() as c_int,
                T::equivalent_datatype().as_raw(),
                to as c_int,
                tag,
                comm.as_raw(),
                &mut req,
            );
        }
        Self {
            buf,
            req,
            done: false,
        }
    }

    /// Whether the send has completed (the receiver has the data or MPI buffered it).
    pub fn test(&mut self) -> bool {
        if !self.done {
            let mut flag: c_int = 0;
            // SAFETY: `req` is the live request started in `start` (MPI_Test sets it to
            // MPI_REQUEST_NULL once complete, and testing a null request is allowed).
            unsafe {
                ffi::MPI_Test(&mut self.req, &mut flag, ffi::RSMPI_STATUS_IGNORE);
            }
            self.done = flag != 0;
        }
        self.done
    }

    /// Waits (probing and sleeping) until the send completed; returns the buffer and the
    /// seconds waited.
    pub fn finish(mut self) -> (Vec<T>, f64) {
        let started = std::time::Instant::now();
        wait_or_abort(&mut self);
        (
            std::mem::take(&mut self.buf),
            started.elapsed().as_secs_f64(),
        )
    }
}

impl<T: Equivalence> Drop for PendingSend<T> {
    fn drop(&mut self) {
        // The buffer may be freed only once MPI no longer reads it.
        wait_or_abort(self);
    }
}
