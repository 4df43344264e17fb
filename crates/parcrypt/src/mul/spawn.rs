//! `kara-spawn`: a new thread per helper per call, joined through its handle — the analog of
//! the seed's `std::async(std::launch::async, ...)` + `future::get()`.
//!
//! Every call pays a thread creation and a join (tens of µs, see `parcrypt_lab::suites::mul_handoff`),
//! so it can only pay off for products far above that cost; the seed saw it lose up to 16384
//! bits.
use super::KaraConfig;
use super::karatsuba::{Done, Fork, Karatsuba, Task};
use crate::parallel::joined;

/// Spawns `helpers` threads per call and joins them.
#[derive(Clone, Copy, Debug)]
pub struct SpawnFork {
    helpers: usize,
}

/// The `kara-spawn` multiplier.
pub type KaraSpawn = Karatsuba<SpawnFork>;

/// A `kara-spawn` multiplier with `config.helpers` threads spawned per call (not pinned).
pub fn new(config: KaraConfig) -> KaraSpawn {
    Karatsuba::new(
        "kara-spawn",
        config,
        SpawnFork {
            helpers: config.helpers,
        },
    )
}

impl Fork for SpawnFork {
    fn helpers(&self) -> usize {
        self.helpers
    }

    fn mechanism(&self) -> String {
        "std::thread::spawn per call, joined (std::async analog)".into()
    }

    fn fork<R: Send>(&self, tasks: Vec<Task>, local: impl FnOnce() -> R + Send) -> (Vec<Done>, R) {
        let handles: Vec<_> = tasks
            .into_iter()
            .map(|task| std::thread::spawn(move || task.run()))
            .collect();
        let mine = local();
        let done = handles.into_iter().map(|h| joined(h.join())).collect();
        (done, mine)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mul::Multiplier;
    use rug::Integer;

    #[test]
    fn every_helper_count_multiplies() {
        let a = (Integer::from(1) << 5000) - 3;
        let b: Integer = -((Integer::from(1) << 4500u32) + 7u32);
        for helpers in 0..=3 {
            let k = new(KaraConfig {
                helpers,
                ..KaraConfig::default()
            });
            for _ in 0..5 {
                assert_eq!(k.mul(&a, &b), Integer::from(&a * &b));
            }
            assert!(k.describe().contains("spawn"));
        }
    }
}
