//! Static data-parallel split of one buffer: the buffer is cut into `threads` contiguous pieces
//! on `unit`-byte boundaries (OpenMP `schedule(static)`: unit counts differ by at most one), and
//! every piece is transformed in place on its own thread — the caller's thread takes piece 0.
//!
//! This is the one place PBlock, PARC4 and PARC4-I fork; each algorithm is written once as a
//! function of (first unit index, piece), so with one thread the same function runs over the
//! whole buffer on the calling thread. The pieces run on the persistent workers of the global
//! pool, which spin a moment and then park between calls, so a call pays a hand-off (under a
//! microsecond while the workers spin), not a thread start; callers that stream files hand over
//! megabytes at a time.
use super::pool::{Pool, TakeOnce};
use super::schedule::static_block;
use crate::error::{Error, Result};

/// Most threads a split accepts (more is surely a mistake, and each costs a stack).
pub const MAX_THREADS: usize = 1024;

/// Checks a thread count: 1 to [`MAX_THREADS`]. Counts above the core count are allowed
/// (oversubscribed).
pub fn check_threads(threads: usize) -> Result<()> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(Error::InvalidParameter(format!(
            "threads must be 1 to {MAX_THREADS}, got {threads}"
        )))
    }
}

/// The byte ranges of the pieces: `ceil(len / unit)` units dealt as `schedule(static)` over
/// `threads`; empty pieces are left out. The last unit may be partial.
pub fn pieces(len: usize, unit: usize, threads: usize) -> Vec<std::ops::Range<usize>> {
    assert!(
        unit > 0 && threads > 0,
        "unit and threads are checked by callers"
    );
    let units = len.div_ceil(unit);
    (0..threads)
        .map(|t| static_block(units, threads, t))
        .filter(|r| !r.is_empty())
        .map(|r| r.start * unit..(r.end * unit).min(len))
        .collect()
}

/// Runs `f(first_unit, piece)` over the static split of `data`, one piece per thread of the
/// global pool ([`Pool::global`]), the first on the calling thread; `pin` uses the pinned pool
/// (helper `t` on CPU `t`). Returns when every piece is done; a panic in any thread is
/// propagated.
pub fn for_each_piece<F>(data: &mut [u8], unit: usize, threads: usize, pin: bool, f: F)
where
    F: Fn(usize, &mut [u8]) + Sync,
{
    let ranges = pieces(data.len(), unit, threads);
    if ranges.len() <= 1 {
        if !data.is_empty() {
            f(0, data);
        }
        return;
    }
    let mut slices = Vec::with_capacity(ranges.len());
    let mut rest = data;
    for r in &ranges {
        let (head, tail) = rest.split_at_mut(r.len());
        slices.push((r.start / unit, head));
        rest = tail;
    }
    // Persistent workers (the global pool), not a thread start per call: a fresh thread on an
    // idle CPU of a virtual machine can take a millisecond to run, as long as a whole piece of
    // a few megabytes at RC4's speed (measured: PARC4 1.23x against 1.99x for two independent
    // RC4 streams when every call spawned).
    let slots: Vec<TakeOnce<(usize, &mut [u8])>> = slices.into_iter().map(TakeOnce::new).collect();
    Pool::global(pin).run(slots.len(), slots.len(), &|i| {
        let (unit_index, piece) = slots[i].take();
        f(unit_index, piece)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_cover_the_buffer_on_unit_boundaries() {
        for len in [0usize, 1, 7, 8, 9, 63, 64, 65, 1000] {
            for unit in [1usize, 8, 256] {
                for threads in 1..=8 {
                    let ps = pieces(len, unit, threads);
                    let mut at = 0;
                    for p in &ps {
                        assert_eq!(p.start, at);
                        assert_eq!(p.start % unit, 0);
                        assert!(!p.is_empty());
                        at = p.end;
                    }
                    assert_eq!(at, len, "len {len} unit {unit} threads {threads}");
                    assert!(ps.len() <= threads);
                }
            }
        }
    }

    #[test]
    fn every_piece_is_visited_once_with_its_unit_index() {
        let mut data = vec![0u8; 8 * 37 + 3];
        for_each_piece(&mut data, 8, 5, false, |first, piece| {
            for (k, b) in piece.iter_mut().enumerate() {
                *b = ((first * 8 + k) % 251) as u8 + 1;
            }
        });
        for (k, b) in data.iter().enumerate() {
            assert_eq!(*b, (k % 251) as u8 + 1);
        }
        for_each_piece(&mut [], 8, 3, true, |_, _| panic!("no pieces for no data"));
    }

    #[test]
    fn thread_counts_are_checked() {
        assert!(check_threads(0).is_err());
        assert!(check_threads(1).is_ok() && check_threads(MAX_THREADS).is_ok());
        assert!(check_threads(MAX_THREADS + 1).is_err());
    }
}
