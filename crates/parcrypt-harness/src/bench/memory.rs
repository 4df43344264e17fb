//! The memory a benchmark's buffers will take, checked against what the machine has before
//! anything is allocated: a request that cannot fit is refused with one line naming the limit,
//! instead of aborting on a failed allocation halfway through. And the memory a computation
//! takes at its peak, where the program counts its heap ([`CountingAlloc`]).
use crate::error::{Error, Result};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering};

/// Whether [`CountingAlloc`] is the global allocator (it has allocated).
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Whether a [`heap_peak_during`] window is open: only then are bytes counted, so the rest of
/// the program pays one relaxed load per allocation, and no write to a shared cache line.
static WINDOW: AtomicBool = AtomicBool::new(false);
/// Bytes allocated less bytes freed since the window opened, and the most it reached.
static NET: AtomicIsize = AtomicIsize::new(0);
static PEAK: AtomicIsize = AtomicIsize::new(0);

/// The system allocator with a count, while a [`heap_peak_during`] window is open, of the bytes
/// allocated and freed and the peak of their difference. A program opts in with
/// `#[global_allocator] static A: CountingAlloc = CountingAlloc;` (the `parcrypt` command does):
/// outside a window it costs a relaxed load or two per allocation. It counts Rust's heap only:
/// memory GMP allocates for its own integers goes through `malloc` directly and is not counted.
pub struct CountingAlloc;

// SAFETY: every call goes to `System` with the caller's layout and pointer unchanged; the
// counters are plain atomics and never affect what is returned.
unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc`, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            counted(layout.size() as isize);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc_zeroed`, passed on.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            counted(layout.size() as isize);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc`, passed on.
        unsafe { System.dealloc(ptr, layout) };
        counted(-(layout.size() as isize));
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc`, passed on.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            counted(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// `bytes` allocated (or freed, negative), counted inside a window.
#[inline]
fn counted(bytes: isize) {
    if !INSTALLED.load(Ordering::Relaxed) {
        INSTALLED.store(true, Ordering::Relaxed);
    }
    if WINDOW.load(Ordering::Relaxed) {
        let now = NET.fetch_add(bytes, Ordering::Relaxed) + bytes;
        PEAK.fetch_max(now, Ordering::Relaxed);
    }
}

/// Runs `f` and returns its value with the most Rust-heap bytes held at any moment during it
/// above what was held when it began (its scratch at the peak, every thread's allocations
/// counted, so nothing else should run meanwhile, and windows do not nest); `None` where
/// [`CountingAlloc`] is not the global allocator.
pub fn heap_peak_during<T>(f: impl FnOnce() -> T) -> (T, Option<usize>) {
    NET.store(0, Ordering::SeqCst);
    PEAK.store(0, Ordering::SeqCst);
    WINDOW.store(true, Ordering::SeqCst);
    let value = f();
    WINDOW.store(false, Ordering::SeqCst);
    let peak = PEAK.load(Ordering::SeqCst).max(0) as usize;
    (value, INSTALLED.load(Ordering::Relaxed).then_some(peak))
}

/// Physical memory of this machine in bytes (`MemTotal` in `/proc/meminfo`), if known.
pub fn total_memory() -> Option<u64> {
    total_memory_from(Path::new("/proc/meminfo"))
}

/// [`total_memory`] read from another file (tests use a fake one).
pub fn total_memory_from(meminfo: &Path) -> Option<u64> {
    let text = std::fs::read_to_string(meminfo).ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut words = line.split_whitespace().skip(1);
    let value: u64 = words.next()?.parse().ok()?;
    match words.next() {
        Some("kB") | None => value.checked_mul(1024),
        _ => None,
    }
}

/// Refuses `needed` bytes (for `what`, e.g. "3 buffers of 200 GiB") when they exceed this
/// machine's memory; passes when the machine's memory is unknown.
pub fn check_fits(needed: u128, what: &str) -> Result<()> {
    check_fits_in(needed, what, total_memory())
}

/// [`check_fits`] against a given memory size.
pub fn check_fits_in(needed: u128, what: &str, total: Option<u64>) -> Result<()> {
    match total {
        Some(total) if needed > u128::from(total) => Err(Error::InvalidParameter(format!(
            "{what} needs {} of memory, more than this machine's {} (MemTotal)",
            human_bytes(needed),
            human_bytes(u128::from(total))
        ))),
        _ => Ok(()),
    }
}

/// Bytes in binary units with one decimal ("1.5 GiB").
pub fn human_bytes(bytes: u128) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// Memory of `count` big integers below 2^`bits` as rug/GMP hold them: the limbs plus the
/// `mpz` header and the allocator's bookkeeping (32 bytes, generously).
pub fn integers_bytes(count: usize, bits: u64) -> u128 {
    let limbs = bits.div_ceil(64).max(1);
    count as u128 * u128::from(limbs * 8 + 32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_the_counting_allocator_there_is_no_peak() {
        // The test harness runs on the system allocator: nothing is counted, and the value
        // comes back unchanged.
        let (v, peak) = heap_peak_during(|| vec![0u8; 4096].len());
        assert_eq!((v, peak), (4096, None));
    }

    #[test]
    fn meminfo_is_read_in_kib() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("meminfo");
        std::fs::write(&p, "MemTotal:       16384 kB\nMemFree: 1 kB\n").unwrap();
        assert_eq!(total_memory_from(&p), Some(16 << 20));
        std::fs::write(&p, "nothing here\n").unwrap();
        assert_eq!(total_memory_from(&p), None);
        assert_eq!(total_memory_from(&dir.path().join("missing")), None);
    }

    #[test]
    fn too_much_is_refused_with_the_limit_named() {
        let gib = 1u128 << 30;
        let err = check_fits_in(600 * gib, "3 buffers of 200 GiB", Some(16 << 30))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("600.0 GiB") && err.contains("16.0 GiB"),
            "{err}"
        );
        assert!(check_fits_in(gib, "x", Some(16 << 30)).is_ok());
        assert!(check_fits_in(600 * gib, "x", None).is_ok());
        assert_eq!(human_bytes(512), "512 B");
        assert_eq!(integers_bytes(2, 512), 2 * (64 + 32));
    }
}
