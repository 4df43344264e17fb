//! `kara-lockfree`: persistent helpers that wait for work by spinning on an atomic flag — the
//! seed's lock-free "infinite threads", its fastest variant.
//!
//! The helpers are a [`Pool`] (see [`crate::parallel::pool`] for the hand-off protocol: a
//! cache-padded atomic state per helper, no lock and no system call while both sides are
//! awake). The half products of one call are the indices of one pool region: the caller takes
//! its own share first; the helpers take theirs.
//!
//! Beyond the seed: when the caller has finished its own share and a helper has not yet
//! started (descheduled, or still waking from a park), the caller takes its task too and the
//! helper's slot is reclaimed, so a missing helper costs about a `kara-seq` product instead of
//! an unbounded wait. [`LockFreeFork::reclaimed`] counts these slots.
//!
//! Waiting helpers spin with backoff (pause instructions, then `yield`) for at most `spin`
//! (default [`DEFAULT_SPIN`]) and then park, so an idle multiplier costs no CPU. Drop stops
//! and joins every helper. As in `kara-pool`, one call at a time uses the helpers; a
//! concurrent caller computes inline.
use super::KaraConfig;
use super::karatsuba::{Done, Fork, Karatsuba, Task};
use crate::error::Result;
use crate::parallel::pool::{Pool, TakeOnce};
use std::time::Duration;

pub use crate::parallel::pool::DEFAULT_SPIN;

/// Persistent helpers spinning on atomics, parking after `spin` without work.
pub struct LockFreeFork {
    pool: Pool,
    helpers: usize,
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
        Ok(Self {
            pool: Pool::new(helpers, pin, spin)?,
            helpers,
        })
    }

    /// Helper slots the caller took back because their helper had not started when the
    /// caller was done with its own share (it computed their tasks itself).
    pub fn reclaimed(&self) -> u64 {
        self.pool.stats().reclaimed
    }

    /// How many helpers are parked right now (for tests and diagnostics).
    pub fn parked(&self) -> usize {
        self.pool.parked()
    }
}

/// What one index of a call's region gives back.
enum Part<R> {
    Mine(R),
    Theirs(Done),
}

impl Fork for LockFreeFork {
    fn helpers(&self) -> usize {
        self.helpers
    }

    fn mechanism(&self) -> String {
        format!(
            "persistent helpers spinning on atomics with backoff, parking after {} µs idle{}",
            self.pool.spin().as_micros(),
            if self.pool.pinned() { ", pinned" } else { "" }
        )
    }

    fn fork<R: Send>(&self, tasks: Vec<Task>, local: impl FnOnce() -> R + Send) -> (Vec<Done>, R) {
        assert!(tasks.len() <= self.helpers, "more tasks than helpers");
        let n = tasks.len() + 1;
        let local = TakeOnce::new(local);
        let tasks: Vec<TakeOnce<Task>> = tasks.into_iter().map(TakeOnce::new).collect();
        let mut parts = self.pool.map(n, n, |i| match i {
            0 => Part::Mine(local.take()()),
            _ => Part::Theirs(tasks[i - 1].take().run()),
        });
        let Part::Mine(mine) = parts.remove(0) else {
            unreachable!("index 0 is the caller's share");
        };
        let done = parts
            .into_iter()
            .map(|p| match p {
                Part::Theirs(d) => d,
                Part::Mine(_) => unreachable!("only index 0 is the caller's share"),
            })
            .collect();
        (done, mine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mul::Multiplier;
    use rug::Integer;
    use std::time::Instant;

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
        let fork = LockFreeFork {
            pool: Pool::lazy(2),
            helpers: 2,
        };
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
