//! `kara-scoped`: helpers started with `std::thread::scope` per call — the analog of the
//! seed's `std::thread` + explicit `join()`.
//!
//! Scoped threads may borrow, but the tasks own their halves anyway (the same [`Task`] every
//! fork receives), so the cost is the same creation and join as `kara-spawn`; the scope only
//! guarantees the helpers are finished when the call returns, even on a panic.
use super::KaraConfig;
use super::karatsuba::{Done, Fork, Karatsuba, Task};
use crate::parallel::joined;

/// Starts `helpers` scoped threads per call.
#[derive(Clone, Copy, Debug)]
pub struct ScopedFork {
    helpers: usize,
}

/// The `kara-scoped` multiplier.
pub type KaraScoped = Karatsuba<ScopedFork>;

/// A `kara-scoped` multiplier with `config.helpers` scoped threads per call (not pinned).
pub fn new(config: KaraConfig) -> KaraScoped {
    Karatsuba::new(
        "kara-scoped",
        config,
        ScopedFork {
            helpers: config.helpers,
        },
    )
}

impl Fork for ScopedFork {
    fn helpers(&self) -> usize {
        self.helpers
    }

    fn mechanism(&self) -> String {
        "std::thread::scope per call (std::thread + join analog)".into()
    }

    fn fork<R: Send>(&self, tasks: Vec<Task>, local: impl FnOnce() -> R + Send) -> (Vec<Done>, R) {
        std::thread::scope(|s| {
            let handles: Vec<_> = tasks
                .into_iter()
                .map(|task| s.spawn(move || task.run()))
                .collect();
            let mine = local();
            let done = handles.into_iter().map(|h| joined(h.join())).collect();
            (done, mine)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mul::Multiplier;
    use rug::Integer;

    #[test]
    fn every_helper_count_multiplies() {
        let a = (Integer::from(1) << 6000) - 5;
        let b = (Integer::from(1) << 6100) + 11;
        for helpers in 0..=3 {
            let k = new(KaraConfig {
                helpers,
                depth: 2,
                ..KaraConfig::default()
            });
            for _ in 0..5 {
                assert_eq!(k.mul(&a, &b), Integer::from(&a * &b));
            }
            assert!(k.describe().contains("scope"));
        }
    }
}
