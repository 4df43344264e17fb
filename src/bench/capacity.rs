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
    let mut draw = || crate::bignum::random_bits(&mut rng, bits) | (Integer::from(1) << (bits - 1));
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
                            crate::parallel::affinity::pin_current_thread(i);
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
/// Quiet rounds on the 2-vCPU guest read 0.90–0.99; over 90 s of seed 004's cipher round
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

/// A round whose cross-core probe reads more than this many times the fastest reading seen
/// (in the process, or in the experiment's rounds) was measured while the CPUs did not share a
/// cache ([`cores_apart`]): in a study experiment whose parallel forms hand data between
/// threads it is set aside and measured again, together with [`DISTURBED`] rounds (see
/// `study::sampling`); `bench mul` warns of it.
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
pub const FAR: f64 = 2.0;

/// Whether a cross-core reading of `us` means the CPUs were apart, against the fastest
/// reading `nearest`: more than [`FAR`] times it.
pub fn cores_apart(us: f64, nearest: f64) -> bool {
    us > FAR * nearest
}

/// The fastest [`cross_core_us`] reading of this process so far, as `f64` bits: the level at
/// which the two CPUs share a cache.
static NEAREST: AtomicU64 = AtomicU64::new(u64::MAX);

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
    use crate::parallel::affinity::{available_cpus, pin_current_thread};
    if available_cpus().max(crate::parallel::logical_cores()) < 2 {
        return f64::NAN;
    }
    // A caller pinned to one CPU (`bench mul --pin` pins its timing thread) would hand that
    // mask to the other side: that side pins itself to the next CPU instead.
    // SAFETY: sched_getcpu has no preconditions.
    let next_cpu = (crate::parallel::logical_cores() < 2)
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
    // Spin without `pause` or `yield` (see `crate::parallel::pool`): on a KVM guest a `pause`
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
    NEAREST.fetch_min(us.to_bits(), Ordering::Relaxed);
    us
}

/// The fastest [`cross_core_us`] reading of this process so far (infinite before the first).
pub fn nearest_cross_core_us() -> f64 {
    match NEAREST.load(Ordering::Relaxed) {
        u64::MAX => f64::INFINITY,
        bits => f64::from_bits(bits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        if crate::parallel::affinity::available_cpus() < 2 {
            assert!(us.is_nan());
            return;
        }
        assert!(us.is_finite() && us > 0.0, "{us}");
        assert!(nearest_cross_core_us() <= us);
        // From a thread pinned to one CPU, as `bench mul --pin` times.
        let pinned = std::thread::spawn(|| {
            crate::parallel::affinity::pin_current_thread(0);
            cross_core_us(0.002)
        })
        .join()
        .unwrap();
        assert!(pinned.is_finite() && pinned > 0.0, "{pinned}");
    }
}
