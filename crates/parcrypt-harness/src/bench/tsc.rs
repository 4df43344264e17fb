//! The x86-64 time-stamp counter, for cycles per byte in the cipher benchmarks.
//!
//! The TSC ticks at a constant reference rate, not at the core's current clock, so "TSC
//! cycles" differ from core cycles whenever the core runs above or below that rate (turbo,
//! power saving) — reports label them as such. It is used only where the CPU reports an
//! invariant TSC (`constant_tsc` and `nonstop_tsc` in `/proc/cpuinfo`); elsewhere, and on
//! other architectures, [`Tsc::detect`] gives `None` and cycles per byte are left out.

/// A usable time-stamp counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tsc {
    _private: (),
}

impl Tsc {
    /// The TSC if this machine has an invariant one, else `None`.
    pub fn detect() -> Option<Tsc> {
        if !cfg!(target_arch = "x86_64") {
            return None;
        }
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").ok()?;
        invariant(&cpuinfo).then_some(Tsc { _private: () })
    }

    /// The current counter value.
    #[inline]
    pub fn now(&self) -> u64 {
        read()
    }

    /// The counter's rate in ticks per second, estimated against the monotonic clock over
    /// about `window` seconds of busy waiting (20 ms gives three significant digits).
    pub fn ticks_per_second(&self, window: f64) -> f64 {
        let window = std::time::Duration::from_secs_f64(window.max(1e-4));
        let (t0, c0) = (std::time::Instant::now(), self.now());
        while t0.elapsed() < window {
            std::hint::spin_loop();
        }
        let (secs, ticks) = (t0.elapsed().as_secs_f64(), self.now().wrapping_sub(c0));
        ticks as f64 / secs
    }
}

/// Whether `/proc/cpuinfo` text reports an invariant TSC on its first CPU.
pub fn invariant(cpuinfo: &str) -> bool {
    cpuinfo
        .lines()
        .find(|l| l.starts_with("flags"))
        .is_some_and(|flags| {
            let has = |f: &str| flags.split_whitespace().any(|w| w == f);
            has("tsc") && has("constant_tsc") && has("nonstop_tsc")
        })
}

#[cfg(target_arch = "x86_64")]
#[inline]
fn read() -> u64 {
    // SAFETY: RDTSC has no preconditions and is present on every x86-64 CPU; it only reads
    // a counter. (Newer compilers consider the intrinsic safe; older ones need the block.)
    #[allow(unused_unsafe)]
    unsafe {
        core::arch::x86_64::_rdtsc()
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn read() -> u64 {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invariance_needs_both_flags() {
        assert!(invariant("flags\t: fpu tsc constant_tsc nonstop_tsc sse\n"));
        assert!(!invariant("flags\t: fpu tsc constant_tsc sse\n"));
        assert!(!invariant("processor: 0\n"));
    }

    #[test]
    fn the_counter_moves_forward_where_usable() {
        if let Some(tsc) = Tsc::detect() {
            let a = tsc.now();
            std::hint::black_box((0..10_000u64).sum::<u64>());
            assert!(tsc.now() > a);
            let hz = tsc.ticks_per_second(0.005);
            assert!(hz > 1e6 && hz < 1e11, "{hz}");
        }
    }
}
