//! The pool's life cycle: results in order, more tasks than threads, panics that neither
//! poison nor hang it, reclaimed slots, concurrent and nested regions, parking and drop.
use super::*;
use std::collections::HashSet;
use std::sync::atomic::AtomicU32;

fn pool(helpers: usize) -> Pool {
    Pool::new(helpers, false, Duration::from_micros(50)).unwrap()
}

#[test]
fn results_come_back_in_index_order_with_more_tasks_than_threads() {
    let p = pool(1);
    for n in [0usize, 1, 2, 3, 17, 200] {
        for threads in [1usize, 2, 3] {
            let got = p.map(n, threads, |i| i * i);
            assert_eq!(
                got,
                (0..n).map(|i| i * i).collect::<Vec<_>>(),
                "{n} {threads}"
            );
        }
    }
    // threads = 3 grew the pool to two helpers.
    assert_eq!(p.helpers(), 2);
}

#[test]
fn every_index_runs_exactly_once_and_work_spreads() {
    let p = pool(3);
    let counts: Vec<AtomicU32> = (0..1000).map(|_| AtomicU32::new(0)).collect();
    let threads = Mutex::new(HashSet::new());
    p.run(1000, 4, &|i| {
        counts[i].fetch_add(1, Ordering::Relaxed);
        threads.lock().unwrap().insert(std::thread::current().id());
        std::hint::black_box((0..200).sum::<u64>());
    });
    assert!(counts.iter().all(|c| c.load(Ordering::Relaxed) == 1));
    assert!(!threads.lock().unwrap().is_empty());
    assert_eq!(p.stats().regions, 1);
}

#[test]
fn a_panicking_task_neither_poisons_nor_hangs_the_pool() {
    let p = pool(2);
    for round in 0..20 {
        let caught = catch_unwind(AssertUnwindSafe(|| {
            p.run(9, 3, &|i| {
                if i % 3 == round % 3 {
                    panic!("task {i} fails");
                }
            })
        }));
        let msg = caught.expect_err("the panic reaches the caller");
        let text = msg
            .downcast_ref::<String>()
            .map(String::as_str)
            .unwrap_or("");
        assert!(text.contains("fails"), "{text}");
        // The next region runs on the helpers again and gives every result.
        assert_eq!(p.map(6, 3, |i| i + 1), vec![1, 2, 3, 4, 5, 6]);
    }
    assert_eq!(p.stats().inline, 0, "never fell back to inline");
    assert_eq!(p.helpers(), 2, "no helper died");
}

#[test]
fn the_caller_reclaims_slots_no_helper_took() {
    let p = Pool::lazy(2);
    for _ in 0..10 {
        assert_eq!(p.map(3, 3, |i| 10 * i), vec![0, 10, 20]);
    }
    assert_eq!(p.stats().reclaimed, 20, "two slots a region, all reclaimed");
    drop(p); // shutdown reaches the lazy helpers too
}

#[test]
fn concurrent_callers_fall_back_inline_and_stay_correct() {
    let p = pool(1);
    std::thread::scope(|s| {
        for t in 0..3u64 {
            let p = &p;
            s.spawn(move || {
                for k in 0..200u64 {
                    let got = p.map(4, 2, |i| (i as u64) * k + t);
                    assert_eq!(got, (0..4).map(|i| i * k + t).collect::<Vec<_>>());
                }
            });
        }
    });
    let s = p.stats();
    assert_eq!(s.regions + s.inline, 600);
}

#[test]
fn nested_regions_run_inline_instead_of_deadlocking() {
    let p = pool(1);
    let got = p.map(2, 2, |i| p.map(3, 2, |j| i * 10 + j).iter().sum::<usize>());
    assert_eq!(got, vec![3, 33]);
    assert!(p.stats().inline >= 2);
}

#[test]
fn join_runs_both_sides_and_passes_owned_values() {
    let p = pool(1);
    let v = vec![1, 2, 3];
    let (a, b) = p.join(move || v.into_iter().sum::<i32>(), || "other".to_string());
    assert_eq!((a, b.as_str()), (6, "other"));
}

#[test]
fn idle_helpers_park_wake_for_the_next_region_and_stop_on_drop() {
    let p = pool(2);
    for round in 0..3 {
        assert_eq!(
            p.map(3, 3, |i| i + round),
            vec![round, round + 1, round + 2]
        );
        let deadline = Instant::now() + Duration::from_secs(5);
        while p.parked() < 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(p.parked(), 2, "idle helpers park after their spin");
    }
    drop(p); // joins the helpers: a hang fails the test by timeout
}

#[test]
fn zero_spin_and_zero_helpers_still_work() {
    let p = Pool::new(1, true, Duration::ZERO).unwrap();
    for _ in 0..200 {
        assert_eq!(p.map(2, 2, |i| i), vec![0, 1]);
    }
    let none = pool(0);
    assert_eq!(none.map(5, 1, |i| i), vec![0, 1, 2, 3, 4]);
    assert_eq!(none.helpers(), 0);
}

#[test]
fn global_team_matches_the_scoped_team() {
    for pinned in [false, true] {
        assert_eq!(team(4, pinned, |t| t * 10), vec![0, 10, 20, 30]);
        assert!(team(0, pinned, |t| t).is_empty());
        assert_eq!(team(1, pinned, |t| t + 1), vec![1]);
    }
    let once = TakeOnce::new(5);
    assert_eq!(once.take(), 5);
    assert!(catch_unwind(AssertUnwindSafe(|| once.take())).is_err());
}
