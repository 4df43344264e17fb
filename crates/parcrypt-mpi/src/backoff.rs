//! Waiting without blocking: [`Backoff`] polls with yields, then sleeps of growing length (see
//! [`super::comm`] for the busy and idle manners and why every MPI wait polls).
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Microseconds a busy wait yields before it sleeps (`u64::MAX`: never sleeps); set by
/// [`super::comm::Ranks::init`] and [`super::comm::Ranks::set_threads_per_rank`].
static BUSY_SPIN_US: AtomicU64 = AtomicU64::new(0);

/// Polling with yields, then sleeps of growing length.
#[derive(Debug)]
pub struct Backoff {
    started: Instant,
    spin: Duration,
    sleep: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self::new()
    }
}

impl Backoff {
    /// How long an idle wait yields before it sleeps.
    pub const SPIN: Duration = Duration::from_micros(50);
    /// How long a busy wait of oversubscribed ranks yields before it sleeps.
    pub const BUSY_SPIN: Duration = Duration::from_millis(5);
    /// The first sleep.
    pub const FIRST_SLEEP: Duration = Duration::from_micros(20);
    /// The longest sleep (the worst added latency once a wait has gone on for a while).
    pub const MAX_SLEEP: Duration = Duration::from_micros(500);

    /// An idle wait: yields for [`Self::SPIN`], then sleeps.
    pub fn new() -> Self {
        Self::yielding_for(Self::SPIN)
    }

    /// A busy wait: never sleeps where this host's ranks fit its cores, else yields for
    /// [`Self::BUSY_SPIN`] first.
    pub fn busy() -> Self {
        match BUSY_SPIN_US.load(Ordering::Relaxed) {
            u64::MAX => Self::yielding_for(Duration::MAX),
            us => Self::yielding_for(Duration::from_micros(us)),
        }
    }

    fn yielding_for(spin: Duration) -> Self {
        Self {
            started: Instant::now(),
            spin,
            sleep: Self::FIRST_SLEEP,
        }
    }

    /// Whether this wait never sleeps.
    pub fn never_sleeps(&self) -> bool {
        self.spin == Duration::MAX
    }

    /// Seconds since the wait began.
    pub fn waited(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    /// Gives the CPU away for a moment.
    pub fn pause(&mut self) {
        if self.spin == Duration::MAX || self.started.elapsed() < self.spin {
            std::thread::yield_now();
        } else {
            std::thread::sleep(self.sleep);
            self.sleep = (self.sleep * 2).min(Self::MAX_SLEEP);
        }
    }
}

/// Sets how many microseconds a busy wait yields before it sleeps (`u64::MAX`: never sleeps).
pub(super) fn set_busy_spin_us(us: u64) {
    BUSY_SPIN_US.store(us, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_spins_then_sleeps_up_to_the_cap() {
        // Counted in pauses, not timed: a sleep may last far longer than asked on a busy
        // machine, so only the order of the steps is certain.
        let mut b = Backoff::new();
        assert_eq!(b.sleep, Backoff::FIRST_SLEEP);
        let t = Instant::now();
        while t.elapsed() < Backoff::SPIN {
            b.pause();
        }
        let mut seen = vec![b.sleep];
        for _ in 0..20 {
            b.pause();
            seen.push(b.sleep);
        }
        assert!(seen.windows(2).all(|w| w[1] >= w[0]), "{seen:?}");
        assert!(seen.iter().all(|&s| s <= Backoff::MAX_SLEEP), "{seen:?}");
        assert_eq!(b.sleep, Backoff::MAX_SLEEP, "{seen:?}");
        assert!(b.waited() >= Backoff::SPIN.as_secs_f64());
    }

    #[test]
    fn a_busy_wait_where_ranks_fit_the_cores_never_sleeps() {
        BUSY_SPIN_US.store(u64::MAX, Ordering::Relaxed);
        let mut b = Backoff::busy();
        assert!(b.never_sleeps());
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(2) {
            b.pause();
        }
        assert_eq!(b.sleep, Backoff::FIRST_SLEEP, "no sleep was taken");
        BUSY_SPIN_US.store(0, Ordering::Relaxed);
        let mut b = Backoff::busy();
        assert!(!b.never_sleeps());
        b.pause();
        assert!(
            b.sleep > Backoff::FIRST_SLEEP,
            "an oversubscribed wait sleeps"
        );
    }
}
