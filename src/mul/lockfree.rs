//! `kara-lockfree`: persistent helpers that wait for work by spinning on an atomic flag — the
//! seed's lock-free "infinite threads", its fastest variant.
//!
//! Each helper owns a cache-padded slot: an atomic `state` and two cells (the task in, the
//! result out). The protocol hands each cell back and forth through `state`, so no lock is
//! taken and no system call is made while both sides are awake:
//!
//! ```text
//! caller: write task cell; state = POSTED (release)
//! helper: CAS POSTED -> TAKEN (acquire), takes the task, computes, writes the result cell;
//!         state = DONE (release)
//! caller: sees DONE (acquire), takes the result; state = IDLE
//! ```
//!
//! Beyond the seed: when the caller has finished its own share and a helper has not yet taken
//! its task (descheduled, or still waking from a park), the caller takes it back with a CAS
//! POSTED -> IDLE and computes it inline, so a missing helper costs about a `kara-seq` product
//! instead of an unbounded wait. [`LockFreeFork::reclaimed`] counts these.
//!
//! Waiting helpers spin with [`Backoff`] (pause instructions, then `yield`) for at most
//! `spin` (default [`DEFAULT_SPIN`]) and then park, so an idle multiplier costs no CPU. A
//! parked helper sets its `sleeping` flag first and re-checks `state`; the caller stores
//! `POSTED` and then reads `sleeping` (both sequentially consistent), so one of them always
//! sees the other and a wake-up cannot be lost. The caller waiting for a result spins with the
//! same backoff (its wait is bounded by the product being computed). Drop raises `shutdown`,
//! unparks and joins every helper.
//!
//! As in `kara-pool`, one call at a time uses the helpers; a concurrent caller, or any caller
//! after a panic inside a call (poisoned busy lock), computes inline.
use super::karatsuba::{Done, Fork, Karatsuba, Task, run_inline};
use super::{KaraConfig, start_helper};
use crate::error::Result;
use crossbeam_utils::{Backoff, CachePadded};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long an idle helper spins before it parks.
pub const DEFAULT_SPIN: Duration = Duration::from_micros(200);

const IDLE: u8 = 0;
const POSTED: u8 = 1;
const TAKEN: u8 = 2;
const DONE: u8 = 3;

/// One helper's mailbox. `task` belongs to the caller while `state` is `IDLE`, is published by
/// `POSTED`, and belongs to whichever side wins the CAS out of `POSTED` (the helper: `TAKEN`,
/// or the caller: back to `IDLE`); `done` belongs to the helper until it stores `DONE` and then
/// to the caller until it stores `IDLE`.
struct Slot {
    state: CachePadded<AtomicU8>,
    sleeping: AtomicBool,
    shutdown: AtomicBool,
    task: UnsafeCell<Option<Task>>,
    done: UnsafeCell<Option<Done>>,
}

// SAFETY: the cells are only touched by the side that owns them according to `state` (see the
// struct docs); ownership moves with release stores and acquire loads of `state`, so accesses
// to each cell never overlap. `Task` and `Done` are `Send`.
unsafe impl Sync for Slot {}

/// Persistent helpers spinning on atomics, parking after `spin` without work.
pub struct LockFreeFork {
    slots: Vec<Arc<Slot>>,
    threads: Vec<JoinHandle<()>>,
    busy: Mutex<()>,
    spin: Duration,
    pinned: bool,
    reclaimed: AtomicU64,
}

/// The `kara-lockfree` multiplier.
pub type KaraLockFree = Karatsuba<LockFreeFork>;

/// A `kara-lockfree` multiplier with `config.helpers` helpers spinning [`DEFAULT_SPIN`].
pub fn new(config: KaraConfig) -> Result<KaraLockFree> {
    with_spin(config, DEFAULT_SPIN)
}

/// A `kara-lockfree` multiplier whose idle helpers spin for `spin` before parking.
pub fn with_spin(config: KaraConfig, spin: Duration) -> Result<KaraLockFree> {
    let fork = LockFreeFork::new(config.helpers, config.pin, spin)?;
    Ok(Karatsuba::new("kara-lockfree", config, fork))
}

impl LockFreeFork {
    /// Starts `helpers` helpers, pinned to CPUs `1..=helpers` if `pin`.
    pub fn new(helpers: usize, pin: bool, spin: Duration) -> Result<Self> {
        let mut fork = LockFreeFork {
            slots: Vec::with_capacity(helpers),
            threads: Vec::with_capacity(helpers),
            busy: Mutex::new(()),
            spin,
            pinned: pin,
            reclaimed: AtomicU64::new(0),
        };
        for i in 0..helpers {
            let slot = Arc::new(Slot {
                state: CachePadded::new(AtomicU8::new(IDLE)),
                sleeping: AtomicBool::new(false),
                shutdown: AtomicBool::new(false),
                task: UnsafeCell::new(None),
                done: UnsafeCell::new(None),
            });
            let mine = Arc::clone(&slot);
            // On failure `fork` is dropped here, which stops the helpers already started.
            fork.threads
                .push(start_helper("kara-lockfree", i, pin, move || {
                    serve(&mine, spin)
                })?);
            fork.slots.push(slot);
        }
        Ok(fork)
    }

    /// Tasks the caller took back and computed itself because their helper had not started
    /// them when the caller was done with its own share.
    pub fn reclaimed(&self) -> u64 {
        self.reclaimed.load(Ordering::Relaxed)
    }

    /// How many helpers are parked right now (for tests and diagnostics).
    pub fn parked(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| s.sleeping.load(Ordering::SeqCst))
            .count()
    }
}

/// Waits until this helper has taken posted work (true: `state` is now TAKEN) or shutdown is
/// asked (false): spin with backoff for at most `spin`, then park until unparked.
fn wait_for_work(slot: &Slot, spin: Duration) -> bool {
    let backoff = Backoff::new();
    let mut spinning_since: Option<Instant> = None;
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
        if !backoff.is_completed() {
            backoff.snooze();
            continue;
        }
        let since = *spinning_since.get_or_insert_with(Instant::now);
        if since.elapsed() < spin {
            backoff.snooze(); // a yield: polite on a shared machine
            continue;
        }
        slot.sleeping.store(true, Ordering::SeqCst);
        if slot.state.load(Ordering::SeqCst) != POSTED && !slot.shutdown.load(Ordering::SeqCst) {
            std::thread::park();
        }
        slot.sleeping.store(false, Ordering::SeqCst);
    }
}

/// A helper's loop.
fn serve(slot: &Slot, spin: Duration) {
    while wait_for_work(slot, spin) {
        // SAFETY: we moved `state` from POSTED to TAKEN (acquire): the caller wrote `task`
        // before publishing POSTED, can no longer reclaim it, and touches neither cell until
        // it sees DONE.
        let task = unsafe { (*slot.task.get()).take() };
        let Some(task) = task else {
            unreachable!("POSTED always carries a task");
        };
        let done = task.run();
        // SAFETY: as above; the caller reads `done` only after the release store below.
        unsafe { *slot.done.get() = Some(done) };
        slot.state.store(DONE, Ordering::Release);
    }
}

impl Fork for LockFreeFork {
    fn helpers(&self) -> usize {
        self.slots.len()
    }

    fn mechanism(&self) -> String {
        format!(
            "persistent helpers spinning on atomics with backoff, parking after {} µs idle{}",
            self.spin.as_micros(),
            if self.pinned { ", pinned" } else { "" }
        )
    }

    fn fork<R: Send>(&self, tasks: Vec<Task>, local: impl FnOnce() -> R + Send) -> (Vec<Done>, R) {
        // Busy with another caller, or poisoned by a panic: compute inline.
        let Ok(_guard) = self.busy.try_lock() else {
            return run_inline(tasks, local);
        };
        let posted = tasks.len();
        assert!(posted <= self.slots.len(), "more tasks than helpers");
        for ((slot, thread), task) in self.slots.iter().zip(&self.threads).zip(tasks) {
            debug_assert_eq!(slot.state.load(Ordering::Relaxed), IDLE);
            // SAFETY: `state` is IDLE (we hold the busy lock and every earlier call left its
            // slots IDLE): the helper does not touch `task` until it sees POSTED, which the
            // store below publishes after this write.
            unsafe { *slot.task.get() = Some(task) };
            slot.state.store(POSTED, Ordering::SeqCst);
            if slot.sleeping.load(Ordering::SeqCst) {
                thread.thread().unpark();
            }
        }
        let mine = local();
        let done = self.slots[..posted]
            .iter()
            .map(|slot| {
                if slot
                    .state
                    .compare_exchange(POSTED, IDLE, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
                {
                    // SAFETY: our CAS out of POSTED won, so the helper never took the task and
                    // the cell is ours again (state IDLE: the helper ignores it).
                    let task = unsafe { (*slot.task.get()).take() };
                    self.reclaimed.fetch_add(1, Ordering::Relaxed);
                    return task
                        .unwrap_or_else(|| unreachable!("POSTED always carries a task"))
                        .run();
                }
                let backoff = Backoff::new();
                while slot.state.load(Ordering::Acquire) != DONE {
                    backoff.snooze();
                }
                // SAFETY: `state` is DONE (acquired): the helper wrote `done` before its
                // release store and will not touch the cells until the next POSTED.
                let done = unsafe { (*slot.done.get()).take() };
                slot.state.store(IDLE, Ordering::Release);
                done.unwrap_or_else(|| unreachable!("DONE always carries a result"))
            })
            .collect();
        (done, mine)
    }
}

impl Drop for LockFreeFork {
    fn drop(&mut self) {
        for (slot, thread) in self.slots.iter().zip(&self.threads) {
            slot.shutdown.store(true, Ordering::SeqCst);
            thread.thread().unpark();
        }
        for thread in self.threads.drain(..) {
            // A helper that panicked has nothing left to clean up.
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mul::Multiplier;
    use rug::Integer;

    #[test]
    fn helpers_serve_many_calls_park_when_idle_and_stop_on_drop() {
        let a = (Integer::from(1) << 3000) - 1;
        let b = (Integer::from(1) << 2990) + 77;
        let want = Integer::from(&a * &b);
        for helpers in 0..=3 {
            let k = with_spin(
                KaraConfig {
                    helpers,
                    pin: helpers == 1,
                    ..KaraConfig::default()
                },
                Duration::from_micros(50),
            )
            .unwrap();
            for i in 0..300 {
                assert_eq!(k.mul(&a, &b), want);
                if i % 100 == 99 {
                    // Long enough to park: the next call must wake them.
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            let deadline = Instant::now() + Duration::from_secs(5);
            while k.fork_ref().parked() < helpers && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
            assert_eq!(k.fork_ref().parked(), helpers, "idle helpers park");
            drop(k); // joins the helpers: a hang here fails the test by timeout
        }
    }

    #[test]
    fn the_caller_reclaims_tasks_no_helper_took() {
        // Helpers that never take work: every posted task must come back to the caller.
        let mut fork = LockFreeFork {
            slots: Vec::new(),
            threads: Vec::new(),
            busy: Mutex::new(()),
            spin: Duration::ZERO,
            pinned: false,
            reclaimed: AtomicU64::new(0),
        };
        for i in 0..2 {
            let slot = Arc::new(Slot {
                state: CachePadded::new(AtomicU8::new(IDLE)),
                sleeping: AtomicBool::new(false),
                shutdown: AtomicBool::new(false),
                task: UnsafeCell::new(None),
                done: UnsafeCell::new(None),
            });
            let mine = Arc::clone(&slot);
            let lazy = move || {
                while !mine.shutdown.load(Ordering::SeqCst) {
                    std::thread::park();
                }
            };
            fork.threads
                .push(start_helper("test-lazy", i, false, lazy).unwrap());
            fork.slots.push(slot);
        }
        let config = KaraConfig {
            helpers: 2,
            ..KaraConfig::default()
        };
        let k = Karatsuba::new("kara-lockfree", config, fork);
        let a = (Integer::from(1) << 2000) - 1;
        for _ in 0..10 {
            assert_eq!(k.mul(&a, &a), Integer::from(&a * &a));
        }
        assert_eq!(
            k.fork_ref().reclaimed(),
            20,
            "2 tasks a call, all reclaimed"
        );
        drop(k); // shutdown reaches the lazy helpers too
    }

    #[test]
    fn zero_spin_parks_at_once_and_still_works() {
        let k = with_spin(KaraConfig::default(), Duration::ZERO).unwrap();
        let a = (Integer::from(-1) << 2048) + 3;
        for _ in 0..100 {
            assert_eq!(k.mul(&a, &a), Integer::from(&a * &a));
        }
    }

    #[test]
    fn concurrent_callers_fall_back_inline_and_stay_correct() {
        let k = new(KaraConfig {
            helpers: 2,
            ..KaraConfig::default()
        })
        .unwrap();
        let a = (Integer::from(1) << 4000) - 17;
        let b = (Integer::from(1) << 3999) + 5;
        let want = Integer::from(&a * &b);
        std::thread::scope(|s| {
            for _ in 0..3 {
                s.spawn(|| {
                    for _ in 0..100 {
                        assert_eq!(k.mul(&a, &b), want);
                    }
                });
            }
        });
    }
}
