//! Persistent workers for latency-bound parallel work: a small pool whose helper threads wait
//! for a region by spinning, then parking, so no operation pays a thread start.
//!
//! A *region* is `n` tasks `f(0) .. f(n-1)` run by the caller and up to `n - 1` helpers: the
//! caller starts with task 0 and helper `k` with task `k + 1` (so a two-task region is the
//! classic fork-join, with no race for the second task), and then every participant takes the
//! next index from one atomic counter until none is left (dynamic self-scheduling: more tasks
//! than threads are fine, and a slow participant costs only its current task). The hand-off is the lock-free protocol of `kara-lockfree` (m-ary/Karatsuba's
//! "infinite threads", measured at about 0.07 µs one way), written once here:
//!
//! ```text
//! caller: write the job cell; state = POSTED (SeqCst); unpark the helper if it sleeps
//! helper: CAS POSTED -> TAKEN (acquire), runs the region's loop, state = DONE (release)
//! caller: runs task 0 and the loop; then per helper: CAS POSTED -> IDLE (the helper never
//!         came: the caller runs the helper's first task itself), or wait for DONE; IDLE
//! ```
//!
//! Waiting helpers spin — without `yield` (regions of a modular exponentiation come
//! microseconds apart, and a `yield` on a busy machine hands the core to another process for a
//! whole time slice) and without pause instructions (on a KVM guest, pause-loop exiting
//! deschedules a vCPU that spins on `pause`: measured here, a helper spinning 150 µs answered
//! a post in 3.8 ms at the median with `pause`, 0.85 µs without) — until `spin` has passed
//! without work, and then park, so an idle pool costs no CPU; after a region with more
//! participants than logical CPUs they park at once (on 2 CPUs, three helpers spinning after
//! a 4-thread table precomputation shared the caller's CPU during its 1-thread scan, and a
//! 1024-bit 2^3-ary exponentiation's median round once read +59 %). A caller waiting for its helpers
//! spins the same way for [`HOT_SPIN`], then with `yield`. A parking helper sets `sleeping` and
//! re-checks `state`; the caller stores `POSTED` and then reads `sleeping` (both sequentially
//! consistent), so one of them sees the other and a wake-up cannot be lost. Dropping the pool
//! raises `shutdown`, unparks and joins every helper.
//!
//! A panic in a task is caught where it happens (helper or caller); the caller waits for every
//! helper to leave the region (its closure lives on the caller's stack) and then resumes the
//! first panic. The pool is not poisoned: the next region runs normally. One region at a time
//! uses the helpers; a region started while another runs (another caller thread, or a task
//! that itself opens a region) runs inline on its caller, so nesting cannot deadlock.
//!
//! [`Pool::global`] is the process-wide pool the library's parallel operations use (CRT halves,
//! multi-prime residues, the exponentiation strategies, the parallel products); it grows on
//! demand to the number of participants a region asks for.
use super::affinity::pin_current_thread;
use crate::error::{Error, Result};
use crossbeam_utils::CachePadded;
use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, TryLockError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an idle helper spins before it parks.
pub const DEFAULT_SPIN: Duration = Duration::from_micros(200);
/// How long a waiting thread spins on pause instructions before it starts to `yield`.
pub const HOT_SPIN: Duration = Duration::from_micros(50);
/// Most helpers a pool grows to.
pub const MAX_HELPERS: usize = 255;

const IDLE: u8 = 0;
const POSTED: u8 = 1;
const TAKEN: u8 = 2;
const DONE: u8 = 3;

/// A region's work, type-erased so one helper loop serves every closure type: `call(data)`
/// runs the region's loop on the current thread.
#[derive(Clone, Copy)]
struct JobRef {
    data: *const (),
    call: unsafe fn(*const (), usize),
    /// The helper's first task.
    first: usize,
    /// The region had more participants than the machine has logical CPUs: the helper parks
    /// as soon as it is done instead of spinning, so the caller's next (often sequential)
    /// work does not share a CPU with spinning helpers.
    park_after: bool,
}

/// One helper's mailbox. `job` belongs to the caller while `state` is IDLE and to the helper
/// from its CAS POSTED -> TAKEN until it stores DONE; `panic` is written by the helper before
/// DONE and taken by the caller after it.
struct Slot {
    state: CachePadded<AtomicU8>,
    sleeping: AtomicBool,
    shutdown: AtomicBool,
    job: UnsafeCell<Option<JobRef>>,
    panic: UnsafeCell<Option<Box<dyn Any + Send>>>,
}

// SAFETY: the cells are touched only by the side that owns them according to `state` (see the
// struct docs); ownership moves with release stores and acquire loads of `state`. The job's
// data pointer is only dereferenced while the caller waits for the region (see `Pool::run`).
unsafe impl Sync for Slot {}
// SAFETY: as above; a `JobRef` crosses to a helper only inside a slot.
unsafe impl Send for Slot {}

struct Helper {
    slot: Arc<Slot>,
    thread: JoinHandle<()>,
}

/// Counters of what a pool did (for tests, diagnostics and benchmark notes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Regions that ran with helpers.
    pub regions: u64,
    /// Regions that ran inline because the helpers were busy (or none was needed).
    pub inline: u64,
    /// Helper slots the caller took back because the helper had not started when the caller
    /// ran out of tasks.
    pub reclaimed: u64,
}

/// A pool of persistent helper threads (see the module docs).
pub struct Pool {
    helpers: Mutex<Vec<Helper>>,
    /// `helpers.len()`, readable while a region holds the list.
    count: AtomicUsize,
    spin: Duration,
    pin: bool,
    regions: AtomicU64,
    inline: AtomicU64,
    reclaimed: AtomicU64,
    #[cfg(test)]
    lazy: bool,
}

impl Pool {
    /// A pool with `helpers` helper threads (the caller of a region is the extra participant),
    /// helper `i` pinned to logical CPU `i + 1` if `pin`, spinning `spin` before parking.
    pub fn new(helpers: usize, pin: bool, spin: Duration) -> Result<Self> {
        let pool = Pool {
            helpers: Mutex::new(Vec::new()),
            count: AtomicUsize::new(0),
            spin,
            pin,
            regions: AtomicU64::new(0),
            inline: AtomicU64::new(0),
            reclaimed: AtomicU64::new(0),
            #[cfg(test)]
            lazy: false,
        };
        pool.grow(&mut pool.lock(), helpers)?;
        Ok(pool)
    }

    /// The process-wide pool (`pinned` selects the one whose helpers are pinned to CPUs
    /// 1, 2, ...). It starts with one helper per logical CPU beyond the first and grows when a
    /// region asks for more participants.
    pub fn global(pinned: bool) -> &'static Pool {
        static FREE: OnceLock<Pool> = OnceLock::new();
        static PINNED: OnceLock<Pool> = OnceLock::new();
        let cell = if pinned { &PINNED } else { &FREE };
        cell.get_or_init(|| {
            let cores = super::logical_cores();
            // A pool that cannot start threads still works: every region runs inline.
            Pool::new(cores.saturating_sub(1), pinned, DEFAULT_SPIN).unwrap_or_else(|_| {
                Pool::new(0, pinned, DEFAULT_SPIN).expect("a pool without threads")
            })
        })
    }

    /// Helper threads started so far.
    pub fn helpers(&self) -> usize {
        self.count.load(Ordering::Relaxed)
    }

    /// How long idle helpers spin before they park.
    pub fn spin(&self) -> Duration {
        self.spin
    }

    /// Whether helpers are pinned to CPUs.
    pub fn pinned(&self) -> bool {
        self.pin
    }

    /// What the pool did so far.
    pub fn stats(&self) -> PoolStats {
        PoolStats {
            regions: self.regions.load(Ordering::Relaxed),
            inline: self.inline.load(Ordering::Relaxed),
            reclaimed: self.reclaimed.load(Ordering::Relaxed),
        }
    }

    /// Helpers parked right now (for tests and diagnostics; waits for a running region).
    pub fn parked(&self) -> usize {
        self.lock()
            .iter()
            .filter(|h| h.slot.sleeping.load(Ordering::SeqCst))
            .count()
    }

    /// The helper list, whatever a panicking region left behind (regions never leave a slot
    /// half-used, so a poisoned lock guards a consistent list).
    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Helper>> {
        self.helpers
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A pool whose helpers never take work, so the caller must reclaim every slot it posts.
    #[cfg(test)]
    pub(crate) fn lazy(helpers: usize) -> Self {
        let pool = Pool {
            helpers: Mutex::new(Vec::new()),
            count: AtomicUsize::new(0),
            spin: Duration::ZERO,
            pin: false,
            regions: AtomicU64::new(0),
            inline: AtomicU64::new(0),
            reclaimed: AtomicU64::new(0),
            lazy: true,
        };
        pool.grow(&mut pool.lock(), helpers).expect("threads start");
        pool
    }

    fn grow(&self, helpers: &mut Vec<Helper>, want: usize) -> Result<()> {
        let want = want.min(MAX_HELPERS);
        while helpers.len() < want {
            let i = helpers.len();
            let slot = Arc::new(Slot {
                state: CachePadded::new(AtomicU8::new(IDLE)),
                sleeping: AtomicBool::new(false),
                shutdown: AtomicBool::new(false),
                job: UnsafeCell::new(None),
                panic: UnsafeCell::new(None),
            });
            let mine = Arc::clone(&slot);
            let (spin, pin) = (self.spin, self.pin);
            #[cfg(test)]
            let lazy = self.lazy;
            #[cfg(not(test))]
            let lazy = false;
            let thread = std::thread::Builder::new()
                .name(format!("parcrypt-pool-{i}"))
                .spawn(move || {
                    if pin {
                        pin_current_thread(i + 1);
                    }
                    if lazy {
                        idle_until_shutdown(&mine);
                    } else {
                        serve(&mine, spin);
                    }
                })
                .map_err(|e| {
                    Error::InvalidParameter(format!("cannot start a pool helper thread: {e}"))
                })?;
            helpers.push(Helper { slot, thread });
            self.count.store(helpers.len(), Ordering::Relaxed);
        }
        Ok(())
    }

    /// Runs `f(0) .. f(n-1)`, each exactly once, on the caller and up to `threads - 1`
    /// helpers (started now if the pool has fewer), and returns when all have finished. A
    /// panic in any task is resumed here after every participant has left the region.
    pub fn run(&self, n: usize, threads: usize, f: &(dyn Fn(usize) + Sync)) {
        let want = threads.min(n).saturating_sub(1);
        if want == 0 {
            self.inline.fetch_add(1, Ordering::Relaxed);
            return (0..n).for_each(f);
        }
        let mut guard = match self.helpers.try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                self.inline.fetch_add(1, Ordering::Relaxed);
                return (0..n).for_each(f);
            }
        };
        // A pool that cannot grow runs the region on the helpers it has.
        let _ = self.grow(&mut guard, want);
        let posted = &guard[..want.min(guard.len())];
        let park_after = posted.len() + 1 > cpus();
        let region = Region {
            next: AtomicUsize::new(posted.len() + 1),
            n,
            f,
        };
        for (k, h) in posted.iter().enumerate() {
            let job = JobRef {
                data: (&raw const region).cast(),
                call: call_region,
                first: k + 1,
                park_after,
            };
            debug_assert_eq!(h.slot.state.load(Ordering::Relaxed), IDLE);
            // SAFETY: `state` is IDLE (we hold the helper list and every region leaves its
            // slots IDLE): the helper does not read `job` before it sees POSTED, which the
            // store below publishes after this write.
            unsafe { *h.slot.job.get() = Some(job) };
            h.slot.state.store(POSTED, Ordering::SeqCst);
            if h.slot.sleeping.load(Ordering::SeqCst) {
                h.thread.thread().unpark();
            }
        }
        let mut first_panic = catch_unwind(AssertUnwindSafe(|| region.participate(0))).err();
        for (k, h) in posted.iter().enumerate() {
            if h.slot
                .state
                .compare_exchange(POSTED, IDLE, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
            {
                // The helper never came: its first task is the caller's.
                self.reclaimed.fetch_add(1, Ordering::Relaxed);
                let panic = catch_unwind(AssertUnwindSafe(|| f(k + 1))).err();
                if first_panic.is_none() {
                    first_panic = panic;
                }
                continue;
            }
            let mut spinner = Spinner::new(HOT_SPIN, Duration::MAX);
            while h.slot.state.load(Ordering::Acquire) != DONE {
                spinner.spin();
            }
            // SAFETY: `state` is DONE (acquired): the helper wrote `panic` before its release
            // store and touches neither cell until the next POSTED.
            let panic = unsafe { (*h.slot.panic.get()).take() };
            h.slot.state.store(IDLE, Ordering::Release);
            if first_panic.is_none() {
                first_panic = panic;
            }
        }
        self.regions.fetch_add(1, Ordering::Relaxed);
        drop(guard);
        if let Some(p) = first_panic {
            resume_unwind(p);
        }
    }

    /// `f(i)` for `i` in `0..n` on up to `threads` threads, results in index order.
    pub fn map<T: Send>(&self, n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
        let out: Vec<Out<T>> = (0..n).map(|_| Out::new()).collect();
        // SAFETY: a region runs each index exactly once, so cell i has one writer.
        self.run(n, threads, &|i| unsafe { out[i].put(f(i)) });
        out.into_iter().map(Out::into_inner).collect()
    }

    /// `(a(), b())`, `b` possibly on a helper while the caller runs `a`.
    pub fn join<A: Send, B: Send>(
        &self,
        a: impl FnOnce() -> A + Send,
        b: impl FnOnce() -> B + Send,
    ) -> (A, B) {
        let (a, b) = (TakeOnce::new(a), TakeOnce::new(b));
        let (ra, rb) = (Out::new(), Out::new());
        self.run(2, 2, &|i| {
            // SAFETY: index 0 and index 1 each run once: one writer per cell.
            unsafe {
                if i == 0 {
                    ra.put(a.take()());
                } else {
                    rb.put(b.take()());
                }
            }
        });
        (ra.into_inner(), rb.into_inner())
    }
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pool")
            .field("helpers", &self.helpers())
            .field("spin", &self.spin)
            .field("pin", &self.pin)
            .field("stats", &self.stats())
            .finish()
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let helpers = std::mem::take(&mut *self.lock());
        self.count.store(0, Ordering::Relaxed);
        for h in &helpers {
            h.slot.shutdown.store(true, Ordering::SeqCst);
            h.thread.thread().unpark();
        }
        for h in helpers {
            // Tasks' panics are caught, so a helper thread does not die of one.
            let _ = h.thread.join();
        }
    }
}

/// `f(t)` for `t` in `0..n` on the global pool (`pinned` or not), results by index: the
/// `#pragma omp parallel` of the library, with persistent threads instead of a thread start
/// per call (the drop-in for [`crate::parallel::team()`]).
///
/// Tasks run concurrently when helpers are free, but a region that finds the pool busy (or a
/// helper that is late) runs them one after the other in index order: task `t` may wait for
/// tasks below `t` (a pipeline's consumer after its producer), never for tasks above it.
pub fn team<T: Send>(n: usize, pinned: bool, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    Pool::global(pinned).map(n, n, f)
}

/// A value that exactly one of several threads takes (the `FnOnce` tasks of a region).
pub struct TakeOnce<T> {
    taken: AtomicBool,
    value: UnsafeCell<Option<T>>,
}

// SAFETY: `take` hands the value to the single thread that flips `taken` first; no other
// thread ever touches the cell, so sharing it only moves a `T` between threads.
unsafe impl<T: Send> Sync for TakeOnce<T> {}

impl<T> TakeOnce<T> {
    /// Wraps `value`.
    pub fn new(value: T) -> Self {
        Self {
            taken: AtomicBool::new(false),
            value: UnsafeCell::new(Some(value)),
        }
    }

    /// The value; panics if it was already taken (a region runs each index once).
    pub fn take(&self) -> T {
        assert!(
            !self.taken.swap(true, Ordering::AcqRel),
            "TakeOnce taken twice"
        );
        // SAFETY: the swap above returned false for exactly one caller: this one owns the cell.
        unsafe { (*self.value.get()).take() }.expect("present until taken")
    }
}

/// A result cell written by the one participant that runs its index, read after the region.
struct Out<T>(UnsafeCell<Option<T>>);

// SAFETY: `put` has a single writer per cell (its contract) and the value is read only after
// the region, whose end orders every write before the read (DONE release/acquire).
unsafe impl<T: Send> Sync for Out<T> {}

impl<T> Out<T> {
    fn new() -> Self {
        Self(UnsafeCell::new(None))
    }

    /// # Safety
    /// At most one thread calls `put` on a cell, and nobody reads it until the region ends.
    unsafe fn put(&self, value: T) {
        // SAFETY: see the function's contract.
        unsafe { *self.0.get() = Some(value) };
    }

    fn into_inner(self) -> T {
        self.0.into_inner().expect("every index of a region runs")
    }
}

/// The shared state of one region, on the caller's stack.
struct Region<'f> {
    next: AtomicUsize,
    n: usize,
    f: &'f (dyn Fn(usize) + Sync),
}

impl Region<'_> {
    /// Runs task `first`, then tasks from the shared counter until none is left.
    fn participate(&self, first: usize) {
        if first < self.n {
            (self.f)(first);
        }
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.n {
                return;
            }
            (self.f)(i);
        }
    }
}

/// The type-erased entry of a region.
///
/// # Safety
/// `data` must point to a live `Region`: the caller of `Pool::run` keeps it alive until every
/// helper it posted to has stored DONE or was reclaimed.
unsafe fn call_region(data: *const (), first: usize) {
    // SAFETY: see the function's contract.
    let region = unsafe { &*data.cast::<Region<'_>>() };
    region.participate(first);
}

/// A bounded busy wait: a plain loop until `hot` has passed, then `yield`s;
/// [`Spinner::spin`] says when `limit` has passed.
struct Spinner {
    started: Instant,
    hot: Duration,
    limit: Duration,
    turns: u32,
    yielding: bool,
}

impl Spinner {
    fn new(hot: Duration, limit: Duration) -> Self {
        Self {
            started: Instant::now(),
            hot,
            limit,
            turns: 0,
            yielding: false,
        }
    }

    /// One turn of waiting; false once `limit` has passed.
    fn spin(&mut self) -> bool {
        self.turns = self.turns.wrapping_add(1);
        if self.yielding {
            std::thread::yield_now();
        } else {
            for _ in 0..16 {
                std::hint::black_box(());
            }
        }
        // Reading the clock costs ~20 ns: every 64 turns is often enough.
        if self.turns % 64 == 0 || self.yielding {
            let waited = self.started.elapsed();
            self.yielding = waited >= self.hot;
            return waited < self.limit;
        }
        true
    }
}

/// Waits until this helper has taken posted work (true: `state` is now TAKEN) or shutdown is
/// asked (false): spins until `spin` has passed without work, then parks until unparked.
fn wait_for_work(slot: &Slot, spin: Duration) -> bool {
    let mut spinner = Spinner::new(spin, spin);
    loop {
        if slot.state.load(Ordering::Relaxed) == POSTED
            && slot
                .state
                .compare_exchange(POSTED, TAKEN, Ordering::Acquire, Ordering::Relaxed)
                .is_ok()
        {
            return true;
        }
        if slot.shutdown.load(Ordering::Acquire) {
            return false;
        }
        if spinner.spin() {
            continue;
        }
        slot.sleeping.store(true, Ordering::SeqCst);
        if slot.state.load(Ordering::SeqCst) != POSTED && !slot.shutdown.load(Ordering::SeqCst) {
            std::thread::park();
        }
        slot.sleeping.store(false, Ordering::SeqCst);
        spinner = Spinner::new(spin, spin);
    }
}

/// A helper's loop: after a region with more participants than CPUs it parks at once (see
/// [`JobRef::park_after`]), otherwise it spins `spin` first.
fn serve(slot: &Slot, spin: Duration) {
    let mut wait = spin;
    while wait_for_work(slot, wait) {
        // SAFETY: our CAS POSTED -> TAKEN (acquire) made the job cell ours until DONE; the
        // caller wrote it before publishing POSTED and cannot reclaim it any more.
        let job = unsafe { *slot.job.get() }.expect("POSTED always carries a job");
        wait = if job.park_after { Duration::ZERO } else { spin };
        // SAFETY: the caller keeps the region alive until it sees DONE (module docs).
        let result = catch_unwind(AssertUnwindSafe(|| unsafe {
            (job.call)(job.data, job.first)
        }));
        if let Err(p) = result {
            // SAFETY: the panic cell is ours until the release store below.
            unsafe { *slot.panic.get() = Some(p) };
        }
        slot.state.store(DONE, Ordering::Release);
    }
}

/// The machine's logical CPUs, read once (a region must not pay a system call).
fn cpus() -> usize {
    static CPUS: OnceLock<usize> = OnceLock::new();
    *CPUS.get_or_init(super::logical_cores)
}

/// A test helper that never takes work (the caller must reclaim everything it posts).
fn idle_until_shutdown(slot: &Slot) {
    while !slot.shutdown.load(Ordering::SeqCst) {
        slot.sleeping.store(true, Ordering::SeqCst);
        std::thread::park();
    }
}

#[cfg(test)]
mod tests;
