use super::*;
use proptest::prelude::*;
use std::sync::atomic::AtomicU32;

fn spec(schedule: Schedule, chunk: Option<usize>) -> ScheduleSpec {
    ScheduleSpec::new(schedule, chunk).unwrap()
}

#[test]
fn static_blocks_follow_openmp() {
    let blocks: Vec<_> = (0..3).map(|t| static_block(10, 3, t)).collect();
    assert_eq!(blocks, vec![0..4, 4..7, 7..10]);
    // More threads than iterations: the last threads get nothing.
    let blocks: Vec<_> = (0..4).map(|t| static_block(2, 4, t)).collect();
    assert_eq!(blocks, vec![0..1, 1..2, 2..2, 2..2]);
}

#[test]
fn static_chunks_are_dealt_round_robin() {
    let p = plan(10, 2, spec(Schedule::Static, Some(3))).unwrap();
    assert_eq!(p[0], vec![0..3, 6..9]);
    assert_eq!(p[1], vec![3..6, 9..10]);
}

#[test]
fn guided_grabs_shrink_to_the_chunk() {
    // remaining 100, 4 threads: 25, then ceil(75/4) = 19, ceil(56/4) = 14, ceil(42/4) = 11 ...
    assert_eq!(guided_grab(100, 4, 1), 25);
    assert_eq!(guided_grab(75, 4, 1), 19);
    assert_eq!(guided_grab(42, 4, 1), 11);
    assert_eq!(guided_grab(3, 4, 1), 1);
    assert_eq!(guided_grab(30, 4, 10), 10);
    assert_eq!(guided_grab(7, 4, 10), 7, "never more than remain");
    let p = plan(100, 4, spec(Schedule::Guided, None)).unwrap();
    let mut sizes: Vec<_> = p.iter().flatten().map(|r| (r.start, r.len())).collect();
    sizes.sort();
    let sizes: Vec<_> = sizes.into_iter().map(|(_, l)| l).collect();
    assert_eq!(&sizes[..4], &[25, 19, 14, 11]);
    assert!(sizes.iter().rev().take(3).all(|&s| s == 1));
}

#[test]
fn dynamic_takes_chunks_from_a_shared_counter() {
    let p = plan(7, 2, spec(Schedule::Dynamic, Some(2))).unwrap();
    // Threads take turns in the plan: 0 gets [0,2), 1 gets [2,4), 0 gets [4,6), 1 gets [6,7).
    assert_eq!(p[0], vec![0..2, 4..6]);
    assert_eq!(p[1], vec![2..4, 6..7]);
}

#[test]
fn bad_parameters_are_refused() {
    assert!(ScheduleSpec::new(Schedule::Dynamic, Some(0)).is_err());
    assert!(Executor::new(0, spec(Schedule::Static, None), false).is_err());
    assert!(plan(10, 0, spec(Schedule::Static, None)).is_err());
    let err = "fifo".parse::<Schedule>().unwrap_err();
    assert!(err.to_string().contains("unknown schedule 'fifo'"), "{err}");
    assert_eq!("Guided".parse::<Schedule>().unwrap(), Schedule::Guided);
}

fn all_specs() -> Vec<ScheduleSpec> {
    let mut v = Vec::new();
    for s in Schedule::ALL {
        for c in [None, Some(1), Some(3), Some(100)] {
            v.push(spec(s, c));
        }
    }
    v
}

#[test]
fn every_run_covers_every_index_exactly_once() {
    for n in [0usize, 1, 2, 7, 64, 1001] {
        for threads in [1usize, 2, 3, 5] {
            for s in all_specs() {
                let hits: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
                let ex = Executor::new(threads, s, false).unwrap();
                let stats = ex.run(n, |_, r| {
                    for i in r {
                        hits[i].fetch_add(1, Ordering::Relaxed);
                    }
                });
                assert!(
                    hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
                    "{s} n={n} t={threads}"
                );
                assert_eq!(stats.threads.len(), threads);
                assert_eq!(stats.threads.iter().map(|t| t.items).sum::<usize>(), n);
            }
        }
    }
}

#[test]
fn static_runs_give_each_thread_its_planned_share() {
    let ex = Executor::new(3, spec(Schedule::Static, Some(4)), false).unwrap();
    let stats = ex.run(30, |_, _| {});
    let p = plan(30, 3, spec(Schedule::Static, Some(4))).unwrap();
    for (t, ranges) in p.iter().enumerate() {
        assert_eq!(
            stats.threads[t].items,
            ranges.iter().map(|r| r.len()).sum::<usize>()
        );
        assert_eq!(stats.threads[t].chunks, ranges.len());
    }
}

#[test]
fn pinned_threads_still_cover_everything() {
    for s in [spec(Schedule::Guided, Some(2)), spec(Schedule::Steal, None)] {
        let ex = Executor::new(3, s, true).unwrap();
        let (v, _) = ex.map(50, |i| i * 2);
        assert_eq!(v, (0..50).map(|i| i * 2).collect::<Vec<_>>());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn plans_partition_the_iteration_space(
        n in 0usize..600,
        threads in 1usize..9,
        sched in 0usize..3,
        chunk in proptest::option::of(1usize..50),
    ) {
        let s = spec(Schedule::ALL[sched], chunk);
        let p = plan(n, threads, s).unwrap();
        let mut seen = vec![0u8; n];
        for r in p.iter().flatten() {
            for i in r.clone() { seen[i] += 1; }
        }
        prop_assert!(seen.iter().all(|&c| c == 1));
    }

    #[test]
    fn parallel_map_equals_sequential_map(
        n in 0usize..300,
        threads in 1usize..6,
        sched in 0usize..4,
        chunk in proptest::option::of(1usize..40),
    ) {
        let s = spec(Schedule::ALL[sched], chunk);
        let ex = Executor::new(threads, s, false).unwrap();
        let f = |i: usize| (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 7;
        let (par, _) = ex.map(n, f);
        let seq: Vec<u64> = (0..n).map(f).collect();
        prop_assert_eq!(par, seq);
    }
}
