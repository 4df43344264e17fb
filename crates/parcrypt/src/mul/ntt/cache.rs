//! Twiddle tables kept between products: one [`TableCache`] per back end, keyed by prime and
//! transform shape, bounded by the words it holds (the oldest tables leave first), so a
//! benchmark's repeated products build their tables once and a long session's memory stays
//! bounded.
use std::sync::{Arc, Mutex, PoisonError};

/// Most 64-bit words a cache keeps (64 MiB): the tables of every size up to a few tens of
/// megabits; longer products build theirs on every call (their transforms cost far more).
pub const MAX_WORDS: usize = 1 << 23;

/// A table's key: prime, radix, `m`.
pub type Key = (u64, usize, usize);

/// A kept table: key, table, its size in words.
type Entry<T> = (Key, Arc<T>, usize);

/// Tables of type `T` by `(prime, radix, m)`, at most [`MAX_WORDS`] words in all.
pub struct TableCache<T> {
    /// Oldest first.
    entries: Mutex<Vec<Entry<T>>>,
}

impl<T> TableCache<T> {
    /// An empty cache.
    pub const fn new() -> Self {
        Self {
            entries: Mutex::new(Vec::new()),
        }
    }

    /// The table for `key`, built by `build` (which returns it and its size in words) when it
    /// is not kept. Two threads asking at once may both build it; one copy is kept.
    pub fn get(&self, key: Key, build: impl FnOnce() -> (T, usize)) -> Arc<T> {
        let lock = || self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, t, _)) = lock().iter().find(|(k, _, _)| *k == key) {
            return Arc::clone(t);
        }
        // Built outside the lock: other products proceed meanwhile.
        let (table, words) = build();
        let table = Arc::new(table);
        if words <= MAX_WORDS {
            let mut e = lock();
            if !e.iter().any(|(k, _, _)| *k == key) {
                let mut total: usize = e.iter().map(|(_, _, w)| w).sum::<usize>() + words;
                while total > MAX_WORDS && !e.is_empty() {
                    total -= e.remove(0).2;
                }
                e.push((key, Arc::clone(&table), words));
            }
        }
        table
    }

    /// Words held now.
    pub fn words(&self) -> usize {
        let e = self.entries.lock().unwrap_or_else(PoisonError::into_inner);
        e.iter().map(|(_, _, w)| w).sum()
    }
}

impl<T> Default for TableCache<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_tables_and_stays_bounded() {
        let c: TableCache<u64> = TableCache::new();
        let mut builds = 0;
        for _ in 0..3 {
            let t = c.get((1, 2, 3), || {
                builds += 1;
                (7, 10)
            });
            assert_eq!(*t, 7);
        }
        assert_eq!((builds, c.words()), (1, 10));
        // Too large to keep: returned, not kept.
        assert_eq!(*c.get((2, 2, 3), || (8, MAX_WORDS + 1)), 8);
        assert_eq!(c.words(), 10);
        // Filling past the bound evicts the oldest.
        c.get((3, 2, 3), || (9, MAX_WORDS - 5));
        assert_eq!(c.words(), MAX_WORDS - 5);
        c.get((1, 2, 3), || (7, 10));
        assert_eq!(c.words(), 10);
    }
}
