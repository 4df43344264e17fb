//! How much parallel throughput the machine really gives: the probe the Karatsuba benchmark
//! runs around each operand size (and the study, `dse` and `bench peers` beside their parallel
//! figures), so a parallel method's result can be read against what the
//! hardware (or the hypervisor, or the other jobs on a shared machine) allowed at that moment.
//!
//! A split of one product over `t` threads cannot beat GMP by more than the machine's
//! capacity allows: with capacity 1.0 the threads only take turns and every parallel method
//! loses to the sequential one by its overhead.
use super::Seconds;
use rug::Integer;
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Operand size of the [`parallel_capacity`] probes the benchmark makes.
pub const CAPACITY_BITS: u32 = 16384;
/// Seconds of one side of one round of a [`parallel_capacity`] probe.
pub const CAPACITY_S: Seconds = 0.01;

/// Two fixed `bits`-bit operands (top bit set) for the probe's products.
fn probe_operands(bits: u32) -> (Integer, Integer) {
    let mut rng = <rand_chacha::ChaCha20Rng as rand::SeedableRng>::seed_from_u64(u64::from(bits));
    let mut draw =
        || parcrypt::hazmat::bignum::random_bits(&mut rng, bits) | (Integer::from(1) << (bits - 1));
    (draw(), draw())
}

/// How much parallel throughput the machine gives right now: `threads` threads each running
/// the same number of independent GMP products of `bits` bits, against one thread running them
/// alone (ideal: `threads`; 1.0: the threads only take turns). One side takes about
/// `seconds`; the median of 5 rounds is returned. With `pin`, the extra threads pin
/// themselves to CPUs 1, 2, ... (the caller is expected on CPU 0); otherwise they inherit the
/// caller's affinity.
///
/// A split of one product over `threads` threads cannot beat GMP by more than this allows, so
/// the benchmark prints it beside its results: on a shared or throttled machine it explains a
/// parallel method that loses without any fault of its own.
pub fn parallel_capacity(threads: usize, bits: u32, seconds: Seconds, pin: bool) -> f64 {
    let (a, b) = probe_operands(bits.max(2));
    let reps = {
        let started = Instant::now();
        let mut n = 0u64;
        while started.elapsed().as_secs_f64() < seconds / 4.0 {
            black_box(Integer::from(&a * &b));
            n += 1;
        }
        n * 4
    };
    let work = || {
        for _ in 0..reps {
            black_box(Integer::from(&a * &b));
        }
    };
    let mut ratios: Vec<f64> = (0..5)
        .map(|_| {
            let started = Instant::now();
            work();
            let one = started.elapsed().as_secs_f64();
            let started = Instant::now();
            std::thread::scope(|s| {
                for i in 1..threads {
                    s.spawn(move || {
                        if pin {
                            parcrypt::parallel::affinity::pin_current_thread(i);
                        }
                        work()
                    });
                }
                work();
            });
            threads as f64 * one / started.elapsed().as_secs_f64()
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

/// Below this free-core fraction a parallel figure may have been slowed by other work (the
/// study's verdicts and `dse` use the same line).
pub const FREE_CORES_NEEDED: f64 = 0.9;

/// A study round whose free-core probe ([`free_cores`]) reads below this was measured
/// while a core was taken (by other work, or by the host: two vCPUs on one physical core read
/// 0.60): it is set aside and measured again, at most as many times per experiment as its
/// plan's first rounds, together with rounds measured with the CPUs apart (past that, rounds
/// are kept as measured and the free-core gate judges them; see `study::sampling`).
///
/// Quiet rounds on the 2-vCPU guest read 0.90–0.99; over 90 s of cipher-energy's cipher round
/// repeated, the rounds that read 0.60–0.73 had PBlock's 2-thread speedup at 1.1–1.56 against
/// 1.92–2.0 in the rest, and such rounds, kept, had moved three modelled energy claims between
/// inconclusive and their verdict in one run of a quiet pair.
pub const DISTURBED: f64 = 0.75;

/// The free-core probe beside a measurement: `threads` threads of independent
/// [`CAPACITY_BITS`]-bit GMP products against one thread ([`CAPACITY_S`] a side, as the
/// Karatsuba benchmark's probe), as a fraction of the ideal throughput: 1.0 when every thread
/// had a free core; 1.0 for one thread.
///
/// With 5 ms a side, one scheduler tick (4 ms at 250 Hz) or a thread's start-up weighed on a
/// reading as much as a busy core: over the 19 rounds of the study's hand-off experiment on a
/// quiet 2-vCPU VM the probe read 0.896 [0.71, 0.99], and 0.9 is needed.
pub fn free_cores(threads: usize) -> f64 {
    let t = threads.max(1);
    if t == 1 {
        return 1.0;
    }
    parallel_capacity(t, CAPACITY_BITS, CAPACITY_S, false) / t as f64
}

/// Bytes the [`cross_core_us`] probe moves each way per round trip: about what one 16384-bit
/// Karatsuba split hands between its threads (operand halves out, a half product back).
pub const CROSS_CORE_BYTES: usize = 8192;
/// Seconds one [`cross_core_us`] probe takes.
pub const CROSS_CORE_S: Seconds = 0.005;

/// A round whose cross-core probe reads more than this many times the machine's usual level
/// ([`near_level`] of the run's readings) was measured while the CPUs did not share a cache
/// ([`cores_apart`]): in a study experiment whose parallel forms hand data between threads it
/// is set aside and measured again, together with [`DISTURBED`] rounds (see `study::sampling`);
/// `bench mul` warns of it.
///
/// On the 2-vCPU KVM guest this was set on, the probe reads one of three levels as the
/// hypervisor moves the vCPUs, each for seconds to minutes: 0.44 µs (both on one physical
/// core's two hardware threads; the free-core probe then reads 0.60), 0.65–0.70 µs (two cores
/// sharing a cache) and 3.0–3.2 µs (apart). In the last, every form that hands data between
/// threads loses: `kara-lockfree` at 16384 bits went from 0.92 to 1.4–1.75 × GMP's time for 8
/// rounds in a row in one quick study, and not once in the next, which turned four claims
/// inconclusive in one run only, while the free-core probe read the machine free. The paper
/// those claims come from ran its threads on one physical processor, sharing its cache, so
/// such rounds do not test them.
///
/// The level was once the single fastest reading of the process: on a quiet Zen 4 VM, where a
/// round trip reads about 1.6 µs, one lucky 0.78 µs reading made every ordinary round "apart"
/// (1.60–1.77 µs against 1.58–1.60 µs in the rounds kept), and `study --quick` set aside the
/// most it may in three experiments. [`near_level`] takes it from the bulk of the readings.
pub const FAR: f64 = 2.0;

/// Readings a cluster needs before [`near_level`] takes it for the machine's level: a reading
/// or two below the rest are luck, not a state of the machine.
pub const MIN_CLUSTER: usize = 3;

/// The machine's usual cross-core level among `readings` (µs; non-finite ones ignored),
/// robust to a few lucky or unlucky ones: where the sorted readings fall into two clusters, a
/// gap of more than [`FAR`] times between neighbours with at least [`MIN_CLUSTER`] readings
/// and a quarter of them below it, the median of the lower cluster (the CPUs sharing a cache);
/// otherwise the median of them all. `None` without a reading.
///
/// A reading or two far below the rest (a lucky round trip) cannot lower the level, since the
/// lower cluster needs a quarter of the readings; readings above it (rounds with the CPUs
/// apart) move the median of the whole only while they are fewer than half, and once they are
/// as many the gap between the two clusters still finds the lower one.
pub fn near_level(readings: &[f64]) -> Option<f64> {
    let mut v: Vec<f64> = readings
        .iter()
        .copied()
        .filter(|x| x.is_finite() && *x > 0.0)
        .collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let least = MIN_CLUSTER.max(v.len().div_ceil(4));
    let split = (least..v.len())
        .map(|k| (k, v[k] / v[k - 1]))
        .filter(|&(_, gap)| gap > FAR)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k);
    Some(crate::bench::stats::median_of_sorted(
        &v[..split.unwrap_or(v.len())],
    ))
}

/// Readings per window of [`established_level`].
pub const LEVEL_WINDOW: usize = 32;

/// The machine's level among a process's `readings` in time order, once established: the
/// least [`near_level`] of the whole and of each window of [`LEVEL_WINDOW`] consecutive
/// readings (the last window may be shorter, down to [`MIN_CLUSTER`]). A window establishes
/// the lower cluster by the same rule as the whole (a quarter of its readings, at least
/// [`MIN_CLUSTER`]), so one or two lucky readings still cannot lower the level; but a stretch
/// where the CPUs shared a cache stays the level after the machine has spent longer apart.
///
/// Without the windows the level followed the majority: in one quick study the vCPUs sat
/// apart (3.1 µs) for most of the run, the shared-cache readings (0.68 µs, a whole experiment
/// of them) fell below a quarter of the process's readings, the level became 3.1 µs, and an
/// m-ary experiment measured every round apart without setting one aside: its 1024-bit
/// 2-thread gains read −15.6 % where the next run, measured near, read −21.6 %.
pub fn established_level(readings: &[f64]) -> Option<f64> {
    std::iter::once(readings)
        .chain(
            readings
                .chunks(LEVEL_WINDOW)
                .filter(|w| w.len() >= MIN_CLUSTER),
        )
        .filter_map(near_level)
        .min_by(f64::total_cmp)
}

/// Whether a cross-core reading of `us` means the CPUs were apart, against the machine's
/// usual `level` ([`near_level`]): more than [`FAR`] times it.
pub fn cores_apart(us: f64, level: f64) -> bool {
    us > FAR * level
}

/// The most recent [`cross_core_us`] readings of this process, oldest first (at most
/// [`KEPT_READINGS`]): the study's rounds take the machine's level from them
/// ([`near_level`]) together with their own.
static READINGS: std::sync::Mutex<Vec<f64>> = std::sync::Mutex::new(Vec::new());

/// How many of the latest readings [`cross_core_readings`] keeps.
pub const KEPT_READINGS: usize = 4096;

/// How long moving data between two cores takes right now: two threads on two CPUs pass a
/// [`CROSS_CORE_BYTES`] buffer back and forth, each writing every word before handing it over;
/// the median µs of one round trip over 5 blocks of about `seconds / 5`. NaN where the process
/// may use only one logical CPU.
///
/// A parallel product or pipeline pays this every time its threads exchange operands. On a
/// virtual machine it is not fixed: the hypervisor moves the virtual CPUs between physical
/// cores, and when they stop sharing a cache the round trip grows several times (measured on
/// a 2-vCPU KVM guest on an AMD EPYC host: 0.49 µs, then 2.28 µs from one second to the next,
/// for minutes), which slows every form that hands data across — a 16384-bit `kara-lockfree`
/// product went from 8.2 to 14.4 µs on CPUs pinned apart — while independent work on each core
/// (what [`free_cores`] measures) runs as fast as before.
pub fn cross_core_us(seconds: Seconds) -> f64 {
    use parcrypt::parallel::affinity::{available_cpus, pin_current_thread};
    if available_cpus().max(parcrypt::parallel::logical_cores()) < 2 {
        return f64::NAN;
    }
    // A caller pinned to one CPU (`bench mul --pin` pins its timing thread) would hand that
    // mask to the other side: that side pins itself to the next CPU instead.
    // SAFETY: sched_getcpu has no preconditions.
    let next_cpu = (parcrypt::parallel::logical_cores() < 2)
        .then(|| usize::try_from(unsafe { libc::sched_getcpu() }).ok())
        .flatten()
        .map(|cpu| cpu + 1);
    let words: Vec<AtomicU64> = (0..CROSS_CORE_BYTES / 8)
        .map(|_| AtomicU64::new(0))
        .collect();
    // Odd: the buffer is the other side's; even: the caller's; u64::MAX: stop.
    let turn = AtomicU64::new(0);
    let touch = || {
        for w in &words {
            w.store(w.load(Ordering::Relaxed).wrapping_add(1), Ordering::Relaxed);
        }
    };
    // Spin without `pause` or `yield` (see `parcrypt::parallel::pool`): on a KVM guest a `pause`
    // loop can deschedule the vCPU, which is not what this measures.
    let wait_for = |want: u64| loop {
        let t = turn.load(Ordering::Acquire);
        if t == want || t == u64::MAX {
            return t;
        }
        std::hint::black_box(());
    };
    let mut blocks = Vec::with_capacity(5);
    std::thread::scope(|s| {
        s.spawn(|| {
            if let Some(cpu) = next_cpu {
                pin_current_thread(cpu);
            }
            let mut k = 1;
            while wait_for(k) != u64::MAX {
                touch();
                turn.store(k + 1, Ordering::Release);
                k += 2;
            }
        });
        let mut k = 0u64;
        for _ in 0..5 {
            let started = Instant::now();
            let mut trips = 0u64;
            while started.elapsed().as_secs_f64() < seconds / 5.0 {
                for _ in 0..16 {
                    touch();
                    turn.store(k + 1, Ordering::Release);
                    wait_for(k + 2);
                    k += 2;
                }
                trips += 16;
            }
            blocks.push(started.elapsed().as_secs_f64() * 1e6 / trips as f64);
        }
        turn.store(u64::MAX, Ordering::Release);
    });
    blocks.sort_by(f64::total_cmp);
    let us = blocks[blocks.len() / 2];
    let mut kept = READINGS.lock().unwrap_or_else(|e| e.into_inner());
    if kept.len() >= KEPT_READINGS {
        kept.remove(0);
    }
    kept.push(us);
    us
}

/// The [`cross_core_us`] readings this process took so far (the latest [`KEPT_READINGS`]),
/// oldest first.
pub fn cross_core_readings() -> Vec<f64> {
    READINGS.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_once_established_stays_when_the_machine_spends_longer_apart() {
        // 20 readings with the CPUs sharing a cache, then 70 apart: the whole's median is the
        // apart level, the window of the shared-cache stretch keeps 0.68.
        let mut r = vec![0.68; 20];
        r.extend([3.1; 70]);
        assert_eq!(near_level(&r), Some(3.1));
        assert_eq!(established_level(&r), Some(0.68));
        // Two lucky readings in a window establish nothing.
        let mut r = vec![1.6; 40];
        r[5] = 0.78;
        r[6] = 0.77;
        assert_eq!(established_level(&r), Some(1.6));
        assert_eq!(established_level(&[]), None);
    }

    #[test]
    fn the_level_comes_from_the_bulk_of_the_readings_not_the_fastest_one() {
        assert_eq!(near_level(&[]), None);
        assert_eq!(near_level(&[f64::NAN]), None);
        // The Zen 4 VM: a quiet round trip reads about 1.6 µs; one lucky 0.78 µs reading is
        // not the level, so no ordinary round reads "apart".
        let zen4 = [0.78, 1.58, 1.6, 1.59, 1.6, 1.77, 1.72, 1.6, 1.58];
        let level = near_level(&zen4).unwrap();
        assert!((1.58..=1.61).contains(&level), "{level}");
        assert!(zen4.iter().all(|&us| !cores_apart(us, level)));
        // Two lucky readings among nine are still not a cluster of their own.
        let level = near_level(&[0.7, 0.71, 1.6, 1.6, 1.61, 1.59, 1.6, 1.62, 1.6]).unwrap();
        assert!(level > 1.5, "{level}");
        // The project's VM: near at 0.65–0.70 µs, apart at 3.0–3.2 µs, a few rounds apart.
        let few_apart = [0.66, 0.68, 0.7, 3.1, 0.67, 0.69, 3.0, 0.65, 0.7, 0.68];
        let level = near_level(&few_apart).unwrap();
        assert!((0.65..=0.7).contains(&level), "{level}");
        let apart: Vec<f64> = few_apart
            .iter()
            .copied()
            .filter(|&us| cores_apart(us, level))
            .collect();
        assert_eq!(apart, [3.1, 3.0]);
    }

    #[test]
    fn two_clusters_are_told_apart_even_when_the_far_one_is_the_larger() {
        // Apart for most of the run: the median alone would be the far level; the gap between
        // the clusters finds the near one.
        let mostly_apart = [
            0.66, 3.1, 3.0, 0.68, 3.2, 3.1, 0.7, 3.0, 3.05, 3.15, 3.1, 3.0,
        ];
        let level = near_level(&mostly_apart).unwrap();
        assert!((0.66..=0.7).contains(&level), "{level}");
        assert!(cores_apart(3.0, level) && !cores_apart(0.7, level));
        // Apart all along: there is no other level, and nothing reads apart against it.
        let level = near_level(&[3.0, 3.1, 3.2, 3.05]).unwrap();
        assert!(!cores_apart(3.2, level));
        // The hyper-thread level (0.44) and the shared-cache one (0.65–0.70) are one cluster:
        // they differ by less than FAR.
        let level = near_level(&[0.44, 0.45, 0.44, 0.66, 0.68, 0.7, 0.67]).unwrap();
        assert!(!cores_apart(0.7, level), "{level}");
    }

    #[test]
    fn capacity_is_a_positive_ratio() {
        for pin in [false, true] {
            let c = parallel_capacity(2, 2048, 0.002, pin);
            assert!(c.is_finite() && c > 0.0 && c < 4.0, "{c}");
        }
        // One thread against itself: about 1, though a loaded machine can move a 1 ms sample
        // far from it (timings are judged in benchmarks, not here).
        let one = parallel_capacity(1, 2048, 0.001, false);
        assert!(one.is_finite() && one > 0.0, "{one}");
    }

    #[test]
    fn the_cross_core_probe_reads_a_positive_round_trip_and_keeps_the_fastest() {
        let us = cross_core_us(0.002);
        if parcrypt::parallel::affinity::available_cpus() < 2 {
            assert!(us.is_nan());
            return;
        }
        assert!(us.is_finite() && us > 0.0, "{us}");
        assert!(cross_core_readings().contains(&us));
        // From a thread pinned to one CPU, as `bench mul --pin` times.
        let pinned = std::thread::spawn(|| {
            parcrypt::parallel::affinity::pin_current_thread(0);
            cross_core_us(0.002)
        })
        .join()
        .unwrap();
        assert!(pinned.is_finite() && pinned > 0.0, "{pinned}");
    }
}

/// Each logical CPU's steal time so far (the hypervisor running something else while the
/// guest wanted that CPU), in seconds, from `/proc/stat`; `None` where it cannot be read
/// (not Linux, or a kernel without steal accounting: every CPU line too short).
pub fn steal_seconds() -> Option<Vec<f64>> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    // SAFETY: sysconf has no preconditions.
    let tick = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    steal_from_stat(&stat, if tick > 0 { tick as f64 } else { 100.0 })
}

/// [`steal_seconds`] from the text of `/proc/stat` and the clock ticks per second: the eighth
/// number of each `cpuN` line.
fn steal_from_stat(stat: &str, ticks_per_s: f64) -> Option<Vec<f64>> {
    let per_cpu: Vec<f64> = stat
        .lines()
        .filter(|l| {
            l.strip_prefix("cpu")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .filter_map(|l| l.split_whitespace().nth(8)?.parse::<f64>().ok())
        .map(|ticks| ticks / ticks_per_s)
        .collect();
    (!per_cpu.is_empty()).then_some(per_cpu)
}

/// Of `seconds` of wall time between two [`steal_seconds`] readings, the share the most
/// robbed CPU kept: 1 − (its steal time over that span) / `seconds`, clamped to 0..=1 (1.0:
/// the hypervisor took nothing from any CPU). `None` where either reading is missing or the
/// CPUs differ. Steal is counted in clock ticks (10 ms at the usual 100 per second), so a
/// span of a second reads to about 1 %.
pub fn steal_free(before: Option<&[f64]>, after: Option<&[f64]>, seconds: Seconds) -> Option<f64> {
    let (before, after) = (before?, after?);
    if before.len() != after.len() || seconds.is_nan() || seconds <= 0.0 {
        return None;
    }
    let most = before
        .iter()
        .zip(after)
        .map(|(b, a)| (a - b).max(0.0))
        .fold(0.0, f64::max);
    Some((1.0 - most / seconds).clamp(0.0, 1.0))
}

#[cfg(test)]
mod steal_tests {
    use super::*;

    #[test]
    fn steal_is_read_per_cpu_and_its_share_from_the_most_robbed_cpu() {
        let stat = "cpu  1009 0 857 19292 152 0 16 30 0 0\n\
                    cpu0 301 0 269 10095 4 0 4 10 0 0\n\
                    cpu1 707 0 588 9196 147 0 12 20 0 0\n\
                    intr 1 2 3\nctxt 5\n";
        assert_eq!(steal_from_stat(stat, 100.0), Some(vec![0.10, 0.20]));
        assert_eq!(steal_from_stat("cpu  1 2 3\nintr 4\n", 100.0), None);
        assert_eq!(steal_from_stat("cpu0 1 2 3\n", 100.0), None);
        // 0.3 s stolen from CPU 1 over 2 s: it kept 85 %.
        let free = steal_free(Some(&[0.1, 0.2]), Some(&[0.1, 0.5]), 2.0).unwrap();
        assert!((free - 0.85).abs() < 1e-12, "{free}");
        assert_eq!(steal_free(Some(&[0.0]), Some(&[0.0]), 1.0), Some(1.0));
        assert_eq!(steal_free(Some(&[0.0]), Some(&[5.0]), 1.0), Some(0.0));
        assert_eq!(steal_free(Some(&[0.0]), Some(&[0.0, 1.0]), 1.0), None);
        assert_eq!(steal_free(None, Some(&[0.0]), 1.0), None);
        assert_eq!(steal_free(Some(&[0.0]), Some(&[0.0]), 0.0), None);
        // This machine: a reading, one value per CPU, where Linux keeps the counter.
        if cfg!(target_os = "linux") {
            assert!(steal_seconds().is_some_and(|v| !v.is_empty()));
        }
    }
}
