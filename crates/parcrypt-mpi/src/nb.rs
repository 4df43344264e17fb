//! Non-blocking sends and receives that own their buffer, so a pipeline stage can hand a
//! chunk on and go back to work without waiting for its successor ([`PendingSend`]), and post
//! its next receive before it computes on the current chunk ([`PendingRecv`]): double
//! buffering both ways.
//!
//! rsmpi's scoped requests borrow their buffer for the whole scope, which forbids refilling a
//! buffer after its request completed; these own a `Vec` and give it back once complete.
//! Completion is polled with `MPI_Test` ([`super::backoff::Backoff`]), never with Open MPI's
//! busy-polling `MPI_Wait`.
use super::backoff::Backoff;
use mpi::ffi;
use mpi::raw::AsRaw;
use mpi::topology::SimpleCommunicator;
use mpi::traits::Equivalence;
use std::os::raw::{c_int, c_void};
use std::sync::atomic::{AtomicU64, Ordering};

/// Seconds a request may wait for its peer before the job is ended (the run's `--timeout`,
/// set by [`super::comm::Ranks::init`]); until set, requests wait without limit.
static TIMEOUT_S: AtomicU64 = AtomicU64::new(u64::MAX);

/// Bounds every later wait for a [`PendingSend`] or [`PendingRecv`] (and their drop) by
/// `timeout`.
pub fn set_send_timeout(timeout: std::time::Duration) {
    TIMEOUT_S.store(timeout.as_secs().max(1), Ordering::Relaxed);
}

/// Polls `req` until complete; past the timeout a peer is taken to be hung or dead, and the
/// whole job ends with one line and exit status 1 (a request cannot be cancelled portably,
/// and its buffer may not be freed while MPI uses it). Returns the status.
fn wait_or_abort(req: &mut Raw, mut backoff: Backoff) -> ffi::MPI_Status {
    let limit = TIMEOUT_S.load(Ordering::Relaxed) as f64;
    loop {
        if let Some(status) = req.test() {
            return status;
        }
        if backoff.waited() > limit {
            eprintln!(
                "error: a message waited {:.0} s for its peer (a hung or dead rank; --timeout)",
                backoff.waited()
            );
            super::scratch::remove_all_now();
            // SAFETY: MPI is initialized (a request is in flight); MPI_Abort ends every rank.
            unsafe {
                ffi::MPI_Abort(ffi::RSMPI_COMM_WORLD, 1);
            }
            std::process::exit(1);
        }
        backoff.pause();
    }
}

/// One request and whether it completed.
struct Raw {
    req: ffi::MPI_Request,
    done: Option<ffi::MPI_Status>,
}

impl Raw {
    /// A request started by `start`, which receives the handle to fill.
    fn start(start: impl FnOnce(&mut ffi::MPI_Request)) -> Self {
        // SAFETY: reading the constant MPI_REQUEST_NULL handle.
        let mut req = unsafe { ffi::RSMPI_REQUEST_NULL };
        start(&mut req);
        Self { req, done: None }
    }

    fn test(&mut self) -> Option<ffi::MPI_Status> {
        if self.done.is_none() {
            let mut flag: c_int = 0;
            // SAFETY: MPI_Status is plain data; MPI_Test fills it when the request completed.
            let mut status: ffi::MPI_Status = unsafe { std::mem::zeroed() };
            // SAFETY: `req` is the live request started by its owner (MPI_Test sets it to
            // MPI_REQUEST_NULL once complete, and testing a null request is allowed).
            unsafe {
                ffi::MPI_Test(&mut self.req, &mut flag, &mut status);
            }
            if flag != 0 {
                self.done = Some(status);
            }
        }
        self.done
    }
}

/// A request and the buffer MPI reads or writes until it completes.
struct Owned<T> {
    buf: Vec<T>,
    raw: Raw,
}

impl<T> Owned<T> {
    /// Waits, polling as `backoff` says; the buffer, the status and the seconds waited.
    fn finish(mut self, backoff: Backoff) -> (Vec<T>, ffi::MPI_Status, f64) {
        let started = std::time::Instant::now();
        let status = wait_or_abort(&mut self.raw, backoff);
        let buf = std::mem::take(&mut self.buf);
        (buf, status, started.elapsed().as_secs_f64())
    }
}

impl<T> Drop for Owned<T> {
    fn drop(&mut self) {
        // The buffer may be freed only once MPI no longer uses it.
        wait_or_abort(&mut self.raw, Backoff::new());
    }
}

/// One `MPI_Isend` in flight and the buffer it reads from.
pub struct PendingSend<T: Equivalence = u8>(Owned<T>);

impl<T: Equivalence> PendingSend<T> {
    /// Starts sending `buf` to rank `to` with `tag`. At most `c_int::MAX` elements.
    pub fn start(comm: &SimpleCommunicator, to: usize, tag: i32, buf: Vec<T>) -> Self {
        assert!(buf.len() <= c_int::MAX as usize, "message too large");
        // SAFETY: `buf` is a heap block owned by the returned value; moving a Vec does not move
        // its heap block, and the block is neither written nor freed before the request has
        // completed (`finish` and `drop` test until it has). The count, datatype and
        // communicator handles are valid.
        let raw = Raw::start(|req| unsafe {
            ffi::MPI_Isend(
                buf.as_ptr() as *const c_void,
                buf.len() as c_int,
                T::equivalent_datatype().as_raw(),
                to as c_int,
                tag,
                comm.as_raw(),
                req,
            );
        });
        Self(Owned { buf, raw })
    }

    /// Whether the send has completed (the receiver has the data or MPI buffered it).
    pub fn test(&mut self) -> bool {
        self.0.raw.test().is_some()
    }

    /// Waits (polling idly) until the send completed; returns the buffer and the seconds
    /// waited.
    pub fn finish(self) -> (Vec<T>, f64) {
        self.finish_with(Backoff::new())
    }

    /// Waits, polling as `backoff` says, until the send completed; returns the buffer and the
    /// seconds waited.
    pub fn finish_with(self, backoff: Backoff) -> (Vec<T>, f64) {
        let (buf, _, waited) = self.0.finish(backoff);
        (buf, waited)
    }
}

/// One `MPI_Irecv` posted ahead and the buffer it fills.
pub struct PendingRecv<T: Equivalence + Default + Clone = u8>(Owned<T>);

impl<T: Equivalence + Default + Clone> PendingRecv<T> {
    /// Posts a receive of at most `capacity` elements from rank `from` with `tag` into `buf`
    /// (resized to `capacity`).
    pub fn post(
        comm: &SimpleCommunicator,
        from: usize,
        tag: i32,
        mut buf: Vec<T>,
        capacity: usize,
    ) -> Self {
        assert!(capacity <= c_int::MAX as usize, "message too large");
        buf.resize(capacity, T::default());
        // SAFETY: `buf` holds `capacity` initialized elements in a heap block owned by the
        // returned value, neither read, moved nor freed before the request has completed
        // (`finish_with` and `drop` test until it has).
        let raw = Raw::start(|req| unsafe {
            ffi::MPI_Irecv(
                buf.as_mut_ptr() as *mut c_void,
                capacity as c_int,
                T::equivalent_datatype().as_raw(),
                from as c_int,
                tag,
                comm.as_raw(),
                req,
            );
        });
        Self(Owned { buf, raw })
    }

    /// Whether the message has arrived.
    pub fn test(&mut self) -> bool {
        self.0.raw.test().is_some()
    }

    /// Waits, polling as `backoff` says, for the message; returns the buffer cut to the
    /// message's length and the seconds waited.
    pub fn finish_with(self, backoff: Backoff) -> (Vec<T>, f64) {
        let (mut buf, status, waited) = self.0.finish(backoff);
        let mut n: c_int = 0;
        // SAFETY: `status` is the completed receive's status; the datatype is the one received.
        unsafe {
            ffi::MPI_Get_count(&status, T::equivalent_datatype().as_raw(), &mut n);
        }
        buf.truncate(usize::try_from(n).unwrap_or(0));
        (buf, waited)
    }
}
