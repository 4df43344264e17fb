//! A bounded single-producer single-consumer ring: the lock-free hand-off between the stage
//! groups of the folded Blowfish pipeline.
//!
//! The ring has `capacity` slots and two counters, `tail` (items pushed, written only by the
//! [`Sender`]) and `head` (items popped, written only by the [`Receiver`]), each on its own
//! cache line. Slot `n % capacity` belongs to the sender while `n >= tail` and `n - head <
//! capacity`, and to the receiver once `tail > n` until `head > n`; ownership moves with a
//! release store of the counter and an acquire load on the other side, so no lock is taken and
//! no system call is made while both sides keep up.
//!
//! A side that has to wait (the receiver on an empty ring, the sender on a full one) spins with
//! [`Backoff`] (pause instructions, then `yield`) for at most `spin`, then parks. Parking
//! follows the protocol of [`crate::mul::lockfree`]: the waiter stores its `sleeping` flag and
//! then re-reads the counter, the other side stores the counter and then reads the flag, all
//! sequentially consistent, so one of them always sees the other and a wake-up cannot be lost.
//! Dropping either end closes the ring and wakes the other end: the receiver still gets every
//! item pushed before the sender went away, and a sender whose receiver is gone gets its item
//! back.
use crossbeam_utils::{Backoff, CachePadded};
use std::cell::UnsafeCell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How long a waiting end spins before it parks.
pub const DEFAULT_SPIN: Duration = Duration::from_micros(100);

/// One end's parking state: its flag and, once it has parked, its thread.
struct Waiter {
    sleeping: AtomicBool,
    thread: Mutex<Option<Thread>>,
}

impl Waiter {
    fn new() -> Self {
        Self {
            sleeping: AtomicBool::new(false),
            thread: Mutex::new(None),
        }
    }

    /// Wakes this end if it is parked (after the caller's sequentially consistent store).
    fn wake(&self) {
        if self.sleeping.load(Ordering::SeqCst) {
            if let Some(t) = self
                .thread
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .as_ref()
            {
                t.unpark();
            }
        }
    }

    /// Parks the calling thread unless `ready()` already holds once the flag is up.
    fn park_unless(&self, ready: impl Fn() -> bool) {
        {
            let mut t = self.thread.lock().unwrap_or_else(|p| p.into_inner());
            if t.is_none() {
                *t = Some(std::thread::current());
            }
        }
        self.sleeping.store(true, Ordering::SeqCst);
        if !ready() {
            std::thread::park();
        }
        self.sleeping.store(false, Ordering::SeqCst);
    }
}

struct Ring<T> {
    slots: Box<[UnsafeCell<Option<T>>]>,
    head: CachePadded<AtomicUsize>,
    tail: CachePadded<AtomicUsize>,
    sender_gone: AtomicBool,
    receiver_gone: AtomicBool,
    sender: Waiter,
    receiver: Waiter,
    spin: Duration,
}

// SAFETY: a slot is only touched by the end that owns it according to `head` and `tail` (see
// the module docs); ownership moves with release stores and acquire loads of those counters,
// so accesses to one slot never overlap. Items cross threads, hence `T: Send`.
unsafe impl<T: Send> Sync for Ring<T> {}

/// The sending end.
pub struct Sender<T> {
    ring: Arc<Ring<T>>,
}

/// The receiving end.
pub struct Receiver<T> {
    ring: Arc<Ring<T>>,
}

/// A ring of `capacity` slots (at least 1) whose ends spin `spin` before parking.
pub fn channel<T: Send>(capacity: usize, spin: Duration) -> (Sender<T>, Receiver<T>) {
    let capacity = capacity.max(1);
    let ring = Arc::new(Ring {
        slots: (0..capacity).map(|_| UnsafeCell::new(None)).collect(),
        head: CachePadded::new(AtomicUsize::new(0)),
        tail: CachePadded::new(AtomicUsize::new(0)),
        sender_gone: AtomicBool::new(false),
        receiver_gone: AtomicBool::new(false),
        sender: Waiter::new(),
        receiver: Waiter::new(),
        spin,
    });
    (
        Sender {
            ring: Arc::clone(&ring),
        },
        Receiver { ring },
    )
}

/// Spins with backoff until `ready()`, for at most `spin`, then parks on `me` (re-checking
/// `ready()` after every wake-up). Returns once `ready()` holds.
fn wait_until(me: &Waiter, spin: Duration, ready: impl Fn() -> bool) {
    let backoff = Backoff::new();
    let mut since: Option<Instant> = None;
    while !ready() {
        if !backoff.is_completed() {
            backoff.snooze();
            continue;
        }
        let t0 = *since.get_or_insert_with(Instant::now);
        if t0.elapsed() < spin {
            backoff.snooze();
            continue;
        }
        me.park_unless(&ready);
    }
}

impl<T: Send> Sender<T> {
    /// Pushes `item`, waiting while the ring is full. Gives the item back if the receiver is
    /// gone.
    pub fn send(&mut self, item: T) -> Result<(), T> {
        let r = &*self.ring;
        let tail = r.tail.load(Ordering::Relaxed);
        let cap = r.slots.len();
        let room =
            || r.receiver_gone.load(Ordering::SeqCst) || tail - r.head.load(Ordering::SeqCst) < cap;
        wait_until(&r.sender, r.spin, room);
        if r.receiver_gone.load(Ordering::SeqCst) {
            return Err(item);
        }
        // SAFETY: `tail - head < capacity` (acquired through the SeqCst load of `head`): the
        // receiver has released slot `tail % capacity` and reads it only after the store of
        // `tail + 1` below.
        unsafe { *r.slots[tail % cap].get() = Some(item) };
        r.tail.store(tail + 1, Ordering::SeqCst);
        r.receiver.wake();
        Ok(())
    }
}

impl<T: Send> Receiver<T> {
    /// Pops the next item, waiting while the ring is empty; `None` once the sender is gone and
    /// every item it pushed has been received.
    pub fn recv(&mut self) -> Option<T> {
        let r = &*self.ring;
        let head = r.head.load(Ordering::Relaxed);
        let cap = r.slots.len();
        let ready = || r.tail.load(Ordering::SeqCst) > head || r.sender_gone.load(Ordering::SeqCst);
        wait_until(&r.receiver, r.spin, ready);
        // The sender stores its last `tail` before it raises `sender_gone`, so this load sees
        // every item it pushed.
        if r.tail.load(Ordering::SeqCst) == head {
            return None;
        }
        // SAFETY: `tail > head` (acquired through the SeqCst load above): the sender filled
        // slot `head % capacity` before publishing it and does not touch it again until the
        // store of `head + 1` below hands it back.
        let item = unsafe { (*r.slots[head % cap].get()).take() };
        r.head.store(head + 1, Ordering::SeqCst);
        r.sender.wake();
        item
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        self.ring.sender_gone.store(true, Ordering::SeqCst);
        self.ring.receiver.wake();
    }
}

impl<T> Drop for Receiver<T> {
    fn drop(&mut self) {
        self.ring.receiver_gone.store(true, Ordering::SeqCst);
        self.ring.sender.wake();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_arrive_in_order_across_threads_with_and_without_parking() {
        for (capacity, spin) in [
            (1, Duration::ZERO),
            (2, DEFAULT_SPIN),
            (3, Duration::ZERO),
            (8, DEFAULT_SPIN),
        ] {
            let (mut tx, mut rx) = channel::<Vec<u32>>(capacity, spin);
            let got = std::thread::scope(|s| {
                s.spawn(move || {
                    for n in 0..2000u32 {
                        if n % 97 == 0 {
                            std::thread::sleep(Duration::from_micros(50));
                        }
                        assert!(tx.send(vec![n; (n % 5) as usize]).is_ok());
                    }
                });
                let mut got = Vec::new();
                while let Some(v) = rx.recv() {
                    if got.len() % 131 == 0 {
                        std::thread::sleep(Duration::from_micros(50));
                    }
                    got.push(v);
                }
                got
            });
            assert_eq!(got.len(), 2000, "capacity {capacity}");
            for (n, v) in got.iter().enumerate() {
                assert_eq!(*v, vec![n as u32; n % 5]);
            }
        }
    }

    #[test]
    fn closing_either_end_is_seen_by_the_other() {
        let (mut tx, mut rx) = channel::<u8>(4, Duration::ZERO);
        tx.send(1).unwrap();
        tx.send(2).unwrap();
        drop(tx);
        assert_eq!((rx.recv(), rx.recv(), rx.recv()), (Some(1), Some(2), None));
        let (mut tx, rx) = channel::<u8>(1, Duration::ZERO);
        tx.send(1).unwrap();
        let blocked = std::thread::scope(|s| {
            let h = s.spawn(move || tx.send(2));
            std::thread::sleep(Duration::from_millis(20));
            drop(rx);
            h.join().unwrap()
        });
        assert_eq!(
            blocked,
            Err(2),
            "a full ring whose receiver leaves gives the item back"
        );
    }

    #[test]
    fn a_parked_receiver_is_woken() {
        let (mut tx, mut rx) = channel::<u32>(2, Duration::ZERO);
        std::thread::scope(|s| {
            let h = s.spawn(move || rx.recv());
            std::thread::sleep(Duration::from_millis(30));
            tx.send(7).unwrap();
            assert_eq!(h.join().unwrap(), Some(7));
        });
    }
}
