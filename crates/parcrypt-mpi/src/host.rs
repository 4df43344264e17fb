//! The host a rank runs on: its CPUs, and rank 0's thread forms run on all of them.
//!
//! Launchers bind ranks to CPUs (Open MPI binds each of 2 ranks to one core by default, Slurm
//! binds a task to its `--cpus-per-task`). A rank's own work keeps that binding, as the user
//! launched it. The thread forms rank 0 times beside the ranks (`parcrypt cipher` on 2
//! threads, the thread pipeline, the thread CRSA engine) stand for the program run without a
//! launcher, so they run inside [`AllCpus`], which lets rank 0 use every online CPU of its host
//! and restores its binding afterwards; threads spawned inside inherit the wider set.

/// Online CPUs of this host (not only those this process is bound to).
pub fn online_cpus() -> usize {
    // SAFETY: sysconf has no preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_ONLN) };
    usize::try_from(n).ok().filter(|&n| n > 0).unwrap_or(1)
}

/// CPUs this process may run on now (its binding).
pub fn bound_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// This process's peak resident memory so far, bytes (`VmHWM` of `/proc/self/status`; `None`
/// where there is no such file).
pub fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// While alive, the calling thread may run on every online CPU; dropping it restores the CPU
/// set it had. Best effort: where the OS refuses, the binding stays as it was.
pub struct AllCpus {
    saved: Option<libc::cpu_set_t>,
}

impl std::fmt::Debug for AllCpus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AllCpus")
            .field("widened", &self.saved.is_some())
            .finish()
    }
}

impl AllCpus {
    /// Widens the calling thread's CPU set to every online CPU.
    pub fn new() -> Self {
        // SAFETY: cpu_set_t is plain data (a bit array): all zeros is a valid empty set.
        let mut saved: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let size = std::mem::size_of::<libc::cpu_set_t>();
        // SAFETY: `saved` is a valid cpu_set_t of `size` bytes; pid 0 is the calling thread.
        if unsafe { libc::sched_getaffinity(0, size, &mut saved) } != 0 {
            return Self { saved: None };
        }
        // SAFETY: as above, an all-zeros set is valid.
        let mut all: libc::cpu_set_t = unsafe { std::mem::zeroed() };
        let max = online_cpus().min(8 * size);
        for cpu in 0..max {
            // SAFETY: cpu < 8 * size bits of `all`.
            unsafe { libc::CPU_SET(cpu, &mut all) };
        }
        // SAFETY: `all` is a valid cpu_set_t of `size` bytes.
        let widened = unsafe { libc::sched_setaffinity(0, size, &all) } == 0;
        Self {
            saved: widened.then_some(saved),
        }
    }
}

impl Default for AllCpus {
    fn default() -> Self {
        Self::new()
    }
}

impl Drop for AllCpus {
    fn drop(&mut self) {
        if let Some(saved) = &self.saved {
            // SAFETY: `saved` is the valid set read in `new`.
            unsafe {
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), saved);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_peak_is_at_least_what_is_held_now() {
        let held = std::hint::black_box(vec![1u8; 32 << 20]);
        let peak = peak_rss_bytes().expect("Linux has /proc/self/status");
        assert!(peak >= 32 << 20, "{peak}");
        assert_eq!(std::hint::black_box(&held)[12345], 1);
    }

    #[test]
    fn widening_restores_the_binding_it_found() {
        let before = bound_cpus();
        assert!(online_cpus() >= before);
        std::thread::spawn(move || {
            let wide = AllCpus::new();
            assert!(bound_cpus() >= before);
            drop(wide);
            assert_eq!(bound_cpus(), before);
        })
        .join()
        .unwrap();
    }
}
