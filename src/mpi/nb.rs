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
        let mut backoff = Backoff::new();
        while !self.test() {
            backoff.pause();
        }
        (
            std::mem::take(&mut self.buf),
            started.elapsed().as_secs_f64(),
        )
    }
}

impl<T: Equivalence> Drop for PendingSend<T> {
    fn drop(&mut self) {
        // The buffer may be freed only once MPI no longer reads it.
        let mut backoff = Backoff::new();
        while !self.test() {
            backoff.pause();
        }
    }
}
