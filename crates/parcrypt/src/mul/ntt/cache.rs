//! Twiddle tables kept between products: one [`TableCache`] per back end, keyed by prime and
//! transform shape, bounded by the words it holds (the oldest tables leave first), so a
//! benchmark's repeated products build their tables once and a long session's memory stays
//! bounded. Likewise spare transform vectors ([`Spare`]), so repeated products reuse their
//! pages.
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

/// Most 64-bit words a [`Spare`] keeps (32 MiB): the eight vectors of a 16-Mbit product on the
/// IFMA back end (four residues and two operand transforms of 3·2^17 words, two operands'
/// split 88-bit digits of 2^18.5 words each).
pub const MAX_SPARE_WORDS: usize = 1 << 22;

/// Transform vectors kept between products, so a product reuses the pages of the previous one
/// instead of asking the allocator for fresh (zeroed, page-faulting) memory: at 16 Mbit each
/// vector is 4 MiB, and six of them faulted in page by page cost milliseconds. A taken vector's
/// contents are unspecified (the transforms overwrite every word before reading it).
pub struct Spare {
    /// Kept vectors, at most [`MAX_SPARE_WORDS`] words in all.
    kept: Mutex<Vec<Vec<u64>>>,
}

impl Spare {
    /// An empty store.
    pub const fn new() -> Self {
        Self {
            kept: Mutex::new(Vec::new()),
        }
    }

    /// A vector of `len` words, contents unspecified: a kept one of at least that capacity
    /// (the smallest that fits), else a fresh one.
    pub fn take(&self, len: usize) -> Vec<u64> {
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        let best = kept
            .iter()
            .enumerate()
            .filter(|(_, v)| v.capacity() >= len)
            .min_by_key(|(_, v)| v.capacity())
            .map(|(i, _)| i);
        match best {
            Some(i) => {
                let mut v = kept.swap_remove(i);
                drop(kept);
                // Shortening keeps the old words; growing (within the capacity) zeroes the
                // new ones, which is cheap next to a fresh allocation's page faults.
                v.resize(len, 0);
                v
            }
            None => {
                drop(kept);
                vec![0; len]
            }
        }
    }

    /// Keeps `v` for a later [`Spare::take`] while the store holds at most
    /// [`MAX_SPARE_WORDS`] words (the smallest kept vectors leave first); drops it otherwise.
    pub fn give(&self, v: Vec<u64>) {
        if v.capacity() == 0 || v.capacity() > MAX_SPARE_WORDS {
            return;
        }
        let mut kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.push(v);
        kept.sort_unstable_by_key(|v| std::cmp::Reverse(v.capacity()));
        let mut total = 0;
        kept.retain(|v| {
            total += v.capacity();
            total <= MAX_SPARE_WORDS
        });
    }

    /// Drops every kept vector.
    pub fn clear(&self) {
        self.kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clear();
    }

    /// Words held now.
    pub fn words(&self) -> usize {
        let kept = self.kept.lock().unwrap_or_else(PoisonError::into_inner);
        kept.iter().map(Vec::capacity).sum()
    }
}

impl Default for Spare {
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

    #[test]
    fn spare_vectors_are_reused_and_bounded() {
        let s = Spare::new();
        let v = s.take(100);
        assert_eq!(v.len(), 100);
        let ptr = v.as_ptr();
        s.give(v);
        assert_eq!(s.words(), 100);
        // The kept vector comes back (same memory), shortened or grown within its capacity.
        let w = s.take(60);
        assert_eq!((w.len(), w.as_ptr()), (60, ptr));
        assert_eq!(s.words(), 0);
        s.give(w);
        let w = s.take(100);
        assert_eq!((w.len(), w.as_ptr()), (100, ptr));
        // Too large for it: fresh.
        s.give(w);
        assert_eq!(s.take(101).len(), 101);
        // Bounded: the largest are kept, at most MAX_SPARE_WORDS words in all.
        s.give(vec![0; MAX_SPARE_WORDS / 2]);
        s.give(vec![0; MAX_SPARE_WORDS / 2]);
        assert_eq!(s.words(), MAX_SPARE_WORDS);
        s.give(vec![0; MAX_SPARE_WORDS + 1]);
        assert_eq!(s.words(), MAX_SPARE_WORDS);
    }
}
