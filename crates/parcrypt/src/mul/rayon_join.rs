//! `kara-rayon`: the half products forked with `rayon::join` inside a dedicated rayon pool of
//! `helpers + 1` threads — the work-stealing baseline (beyond the seed).
//!
//! The call is moved into the pool with `ThreadPool::install` (the calling thread blocks on a
//! latch until it is done), and there each `join` leaves one task for another pool thread to
//! steal while the current one runs the rest. So the caller's thread does no arithmetic: one
//! cross-thread injection and wake per call, plus the steals. A dedicated pool, rather than
//! rayon's global one, makes the thread count exactly the configured one and keeps other
//! rayon work (the RSA schedules) out of the measurement. Pool threads are pinned to CPUs
//! `0..=helpers` when asked.
use super::karatsuba::{Done, Fork, Karatsuba, Task, run_inline};
use super::{KaraConfig, MAX_HELPERS};
use crate::error::{Error, Result};

/// `rayon::join` in a pool of `helpers + 1` threads (no pool at all for 0 helpers).
pub struct RayonFork {
    pool: Option<rayon::ThreadPool>,
    helpers: usize,
    pinned: bool,
}

/// The `kara-rayon` multiplier.
pub type KaraRayon = Karatsuba<RayonFork>;

/// A `kara-rayon` multiplier with a pool of `config.helpers + 1` threads.
pub fn new(config: KaraConfig) -> Result<KaraRayon> {
    Ok(Karatsuba::new(
        "kara-rayon",
        config,
        RayonFork::new(config.helpers, config.pin)?,
    ))
}

impl RayonFork {
    /// A pool of `helpers + 1` threads (0 helpers: none, everything inline).
    pub fn new(helpers: usize, pin: bool) -> Result<Self> {
        let helpers = helpers.min(MAX_HELPERS);
        let pool = if helpers == 0 {
            None
        } else {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(helpers + 1)
                .thread_name(|i| format!("parcrypt-kara-rayon-{i}"))
                .start_handler(move |i| {
                    if pin {
                        crate::parallel::affinity::pin_current_thread(i);
                    }
                })
                .build()
                .map_err(|e| Error::InvalidParameter(format!("cannot build a rayon pool: {e}")))?;
            Some(pool)
        };
        Ok(Self {
            pool,
            helpers,
            pinned: pin,
        })
    }
}

/// Forks the last task off with `rayon::join`, recursing on the rest; `local` runs last on
/// the thread that entered. Results keep the tasks' order.
fn join_all<R: Send>(mut tasks: Vec<Task>, local: impl FnOnce() -> R + Send) -> (Vec<Done>, R) {
    match tasks.pop() {
        None => (Vec::new(), local()),
        Some(last) => {
            let ((mut done, mine), d) = rayon::join(move || join_all(tasks, local), || last.run());
            done.push(d);
            (done, mine)
        }
    }
}

impl Fork for RayonFork {
    fn helpers(&self) -> usize {
        self.helpers
    }

    fn mechanism(&self) -> String {
        format!(
            "rayon::join in a dedicated pool of {} threads{}",
            self.helpers + 1,
            if self.pinned { ", pinned" } else { "" }
        )
    }

    fn fork<R: Send>(&self, tasks: Vec<Task>, local: impl FnOnce() -> R + Send) -> (Vec<Done>, R) {
        match &self.pool {
            Some(pool) => pool.install(move || join_all(tasks, local)),
            None => run_inline(tasks, local),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mul::Multiplier;
    use rug::Integer;

    #[test]
    fn every_helper_count_multiplies_and_reuses_its_pool() {
        let a = (Integer::from(1) << 5000) - 3;
        let b = (Integer::from(-1) << 5001) + 1;
        let want = Integer::from(&a * &b);
        for helpers in 0..=3 {
            let k = new(KaraConfig {
                helpers,
                pin: helpers == 2,
                ..KaraConfig::default()
            })
            .unwrap();
            for _ in 0..100 {
                assert_eq!(k.mul(&a, &b), want);
            }
            assert_eq!(k.threads(), helpers + 1);
            assert!(k.describe().contains("rayon::join"));
        }
    }
}
