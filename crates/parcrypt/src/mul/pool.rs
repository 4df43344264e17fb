//! `kara-pool`: persistent helper threads that sleep on a `Condvar` between calls — the seed's
//! "infinite threads".
//!
//! Each helper owns a slot (a `Mutex` around its state and two condition variables). The
//! caller puts a [`Task`] in the slot and notifies the helper; the helper computes, puts the
//! [`Done`] back and notifies the caller, then waits again. No thread is created per call, but
//! every call pays two condition-variable wake-ups (a few µs each, see
//! `parcrypt_lab::suites::mul_handoff`).
//!
//! The helpers serve one call at a time: a caller that finds them busy (another thread in the
//! middle of a product) computes its product inline instead of queueing. If a call panics
//! half-way, the busy lock is poisoned and every later call runs inline, so a stale result can
//! never be read. Dropping the multiplier stops and joins the helpers.
use super::karatsuba::{Done, Fork, Karatsuba, Task, run_inline};
use super::{KaraConfig, start_helper};
use crate::error::Result;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

/// What a helper's slot holds.
enum State {
    /// Nothing to do.
    Idle,
    /// Work from the caller, not yet taken.
    Posted(Task),
    /// The helper's result, not yet taken.
    Done(Done),
    /// Stop the thread.
    Shutdown,
}

/// One helper's mailbox.
struct Slot {
    state: Mutex<State>,
    /// Signalled when work or shutdown is posted.
    work: Condvar,
    /// Signalled when a result is ready.
    done: Condvar,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Persistent helpers woken by `Mutex` + `Condvar`.
pub struct PoolFork {
    slots: Vec<Arc<Slot>>,
    threads: Vec<JoinHandle<()>>,
    busy: Mutex<()>,
    pinned: bool,
}

/// The `kara-pool` multiplier.
pub type KaraPool = Karatsuba<PoolFork>;

/// A `kara-pool` multiplier; starts `config.helpers` persistent helpers (pinned to CPUs 1, 2,
/// ... if `config.pin`).
pub fn new(config: KaraConfig) -> Result<KaraPool> {
    Ok(Karatsuba::new(
        "kara-pool",
        config,
        PoolFork::new(config.helpers, config.pin)?,
    ))
}

impl PoolFork {
    /// Starts `helpers` helper threads, pinned to CPUs `1..=helpers` if `pin`.
    pub fn new(helpers: usize, pin: bool) -> Result<Self> {
        let mut pool = PoolFork {
            slots: Vec::with_capacity(helpers),
            threads: Vec::with_capacity(helpers),
            busy: Mutex::new(()),
            pinned: pin,
        };
        for i in 0..helpers {
            let slot = Arc::new(Slot {
                state: Mutex::new(State::Idle),
                work: Condvar::new(),
                done: Condvar::new(),
            });
            let mine = Arc::clone(&slot);
            // On failure `pool` is dropped here, which stops the helpers already started.
            pool.threads
                .push(start_helper("kara-pool", i, pin, move || serve(&mine))?);
            pool.slots.push(slot);
        }
        Ok(pool)
    }
}

/// A helper's loop: wait for work, run it, hand the result back; until shutdown.
fn serve(slot: &Slot) {
    let mut state = slot.lock();
    loop {
        match std::mem::replace(&mut *state, State::Idle) {
            State::Posted(task) => {
                drop(state);
                let done = task.run();
                state = slot.lock();
                *state = State::Done(done);
                slot.done.notify_one();
            }
            State::Shutdown => return,
            other => {
                *state = other;
                state = slot
                    .work
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
        }
    }
}

impl Fork for PoolFork {
    fn helpers(&self) -> usize {
        self.slots.len()
    }

    fn mechanism(&self) -> String {
        format!(
            "persistent helpers woken by Mutex + Condvar (infinite threads){}",
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
        for (slot, task) in self.slots.iter().zip(tasks) {
            *slot.lock() = State::Posted(task);
            slot.work.notify_one();
        }
        let mine = local();
        let done = self.slots[..posted]
            .iter()
            .map(|slot| {
                let mut state = slot.lock();
                loop {
                    match std::mem::replace(&mut *state, State::Idle) {
                        State::Done(done) => break done,
                        other => {
                            *state = other;
                            state = slot
                                .done
                                .wait(state)
                                .unwrap_or_else(PoisonError::into_inner);
                        }
                    }
                }
            })
            .collect();
        (done, mine)
    }
}

impl Drop for PoolFork {
    fn drop(&mut self) {
        for slot in &self.slots {
            *slot.lock() = State::Shutdown;
            slot.work.notify_one();
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
    fn helpers_serve_many_calls_and_stop_on_drop() {
        let a = (Integer::from(1) << 3000) - 1;
        let b = (Integer::from(1) << 2900) + 99;
        let want = Integer::from(&a * &b);
        for helpers in 0..=3 {
            let k = new(KaraConfig {
                helpers,
                pin: helpers == 1,
                ..KaraConfig::default()
            })
            .unwrap();
            for _ in 0..200 {
                assert_eq!(k.mul(&a, &b), want);
            }
            assert_eq!(k.fork_ref().helpers(), helpers);
            drop(k); // joins the helpers: a hang here fails the test by timeout
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
