//! The sampling's tests: paired rounds and their intervals, the rounds `measure` runs, and the
//! rounds it sets aside (with a fake cross-core probe) and how they are kept for the verdicts.
use super::*;
use crate::results::Profile;

fn rounds(a: &[f64], b: &[f64]) -> Rounds {
    let mut r = Rounds::new();
    for (x, y) in a.iter().zip(b) {
        r.push(vec![("a".into(), *x), ("b".into(), *y)]);
    }
    r
}

#[test]
fn a_quiet_configuration_has_a_narrow_interval_around_its_median() {
    let r = rounds(&[1.0, 1.01, 0.99, 1.0, 1.02, 0.98, 1.0, 1.0], &[2.0; 8]);
    let m = r.median("a").unwrap();
    assert_eq!(m.value, 1.0);
    assert!(m.low >= 0.98 && m.high <= 1.02 && m.low <= 1.0 && m.high >= 1.0);
    assert!(!r.quality().noisy);
}

#[test]
fn paired_ratios_cancel_drift_that_touches_both() {
    // Both configurations slow down together round after round: their medians' intervals
    // are wide, the paired ratio is exactly 2 in every round.
    let a: Vec<f64> = (0..10).map(|i| 1.0 + i as f64 * 0.2).collect();
    let b: Vec<f64> = a.iter().map(|x| x * 2.0).collect();
    let r = rounds(&b, &a);
    let ratio = r.ratio("a", "b").unwrap();
    assert_eq!((ratio.value, ratio.low, ratio.high), (2.0, 2.0, 2.0));
    let m = r.median("a").unwrap();
    assert!(m.high - m.low > 1.0, "{m:?}");
    assert!(r.quality().noisy);
}

#[test]
fn the_interval_is_reproducible_and_contains_the_value() {
    let a = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0, 5.0, 3.0];
    let r = rounds(&a, &a);
    let e1 = r.median("a").unwrap();
    let e2 = r.median("a").unwrap();
    assert_eq!(e1, e2);
    assert!(e1.low <= e1.value && e1.value <= e1.high && e1.low < e1.high);
}

#[test]
fn too_few_rounds_decide_nothing_and_unknown_keys_give_none() {
    let r = rounds(&[1.0, 2.0], &[1.0, 2.0]);
    let e = r.median("a").unwrap();
    assert!(e.low.is_infinite() && e.high.is_infinite());
    assert!(r.median("zzz").is_none());
    assert!(r.ratio("a", "zzz").is_none());
}

#[test]
fn missing_values_become_nan_and_are_skipped() {
    let mut r = Rounds::new();
    r.push(vec![("a".into(), 1.0)]);
    r.push(vec![("a".into(), 2.0), ("b".into(), 5.0)]);
    r.push(vec![("a".into(), 3.0), ("b".into(), 7.0)]);
    assert_eq!(r.len(), 3);
    assert!(r.get("b").unwrap()[0].is_nan());
    assert_eq!(r.median("b").unwrap().value, 6.0);
}

#[test]
fn measure_runs_the_minimum_then_stops_when_settled_or_capped() {
    let plan = Plan {
        min_rounds: 3,
        max_rounds: 6,
        extra_budget: 1e9,
        max_extra_s: 1e9,
        set_aside_far: false,
        pause_after_busy_s: 0.0,
        wait_apart_s: 0.0,
    };
    let r = measure(&plan, |i| Ok(vec![("a".into(), i as f64)]), |_| true).unwrap();
    assert_eq!((r.len(), r.extra), (3, 0));
    let r = measure(&plan, |i| Ok(vec![("a".into(), i as f64)]), |_| false).unwrap();
    assert_eq!((r.len(), r.extra), (6, 3));
    let r = measure(
        &plan,
        |i| Ok(vec![("a".into(), i as f64)]),
        |r| r.len() >= 4,
    )
    .unwrap();
    assert_eq!(r.len(), 4);
    let none = Plan {
        extra_budget: 0.0,
        ..plan
    };
    let r = measure(&none, |i| Ok(vec![("a".into(), i as f64)]), |_| false).unwrap();
    assert_eq!(r.len(), 3, "no budget, no extra rounds");
    let bad = Plan {
        min_rounds: 0,
        ..plan
    };
    assert!(measure(&bad, |_| Ok(vec![]), |_| true).is_err());
}

/// A plan of `n` rounds, no extra ones, setting rounds with the CPUs apart aside.
fn apart_plan(n: usize) -> Plan {
    Plan {
        min_rounds: n,
        max_rounds: n,
        extra_budget: 0.0,
        max_extra_s: 0.0,
        set_aside_far: true,
        pause_after_busy_s: 0.0,
        wait_apart_s: 0.0,
    }
}

/// Rounds of `plan` whose cross-core probe reads `us(i)` in round `i` (a fake probe),
/// with the process's earlier readings `elsewhere`; key "a" holds the round's number.
fn probed(plan: &Plan, us: impl Fn(usize) -> f64, elsewhere: &[f64]) -> Rounds {
    measure_by(
        plan,
        |i| Ok(vec![("a".into(), i as f64), (CROSS_CORE.into(), us(i))]),
        |_| true,
        elsewhere,
    )
    .unwrap()
}

#[test]
fn rounds_measured_with_the_cpus_apart_or_a_core_taken_are_set_aside_and_measured_again() {
    let plan = apart_plan(4);
    // Rounds 1 and 2 ran with the CPUs apart: moving the buffer took 2.3 µs, not 0.5, the
    // level of the process's earlier readings and of the rounds here.
    let quiet = [0.5; 6];
    let r = probed(&plan, |i| if i == 1 || i == 2 { 2.3 } else { 0.5 }, &quiet);
    assert_eq!(r.len(), 4);
    assert_eq!(r.set_aside, 2);
    assert_eq!(r.get("a").unwrap(), &[0.0, 3.0, 4.0, 5.0]);
    let q = r.quality();
    assert_eq!(q.set_aside_rounds, 2);
    assert_eq!((q.cross_core_us, q.set_aside_us), (Some(0.5), Some(2.3)));
    assert_eq!(q.far_above_us, Some(1.0));
    let text = q.set_aside_text();
    assert!(
        text.contains("2 more set aside (33 % of the 6 run)"),
        "{text}"
    );
    assert!(text.contains("the line: 1.00 µs"), "{text}");
    // Within a factor FAR of the level, rounds are kept: the probe's own noise sets
    // nothing aside.
    let r = probed(&plan, |i| [0.5, 0.9, 0.6, 0.99][i % 4], &[]);
    assert_eq!((r.len(), r.set_aside), (4, 0));
    assert_eq!(r.quality().set_aside_text(), "; none set aside");
    // The process read the CPUs near all along, and every round here reads them apart: they
    // are set aside…
    let r = probed(&plan, |_| 2.3, &[0.5; 20]);
    // … at most min_rounds of them; then rounds are kept as measured.
    assert_eq!((r.len(), r.set_aside), (4, 4));
    assert_eq!(r.get("a").unwrap(), &[4.0, 5.0, 6.0, 7.0]);
    // Nor where the threads work on their own data: the rounds are kept, the level noted.
    let own_data = Plan {
        set_aside_far: false,
        ..plan
    };
    let r = probed(&own_data, |_| 2.3, &[0.5; 20]);
    assert_eq!((r.len(), r.set_aside), (4, 0));
    assert_eq!(r.quality().cross_core_us, Some(2.3));
    // A round whose free-core probe read a core taken is set aside in any plan.
    let free = format!("{FREE_CORES}2");
    let r = measure_by(
        &own_data,
        |i| {
            let f = if i == 0 { 0.6 } else { 0.97 };
            Ok(vec![
                ("a".into(), i as f64),
                (free.clone(), f),
                (CROSS_CORE.into(), 0.5),
            ])
        },
        |_| true,
        &[0.5],
    )
    .unwrap();
    assert_eq!((r.len(), r.set_aside, r.set_aside_busy), (4, 1, 1));
    assert_eq!(r.get("a").unwrap(), &[1.0, 2.0, 3.0, 4.0]);
    let text = r.quality().set_aside_text();
    assert!(
        text.contains("1 more set aside (20 % of the 5 run): 1 with a core taken"),
        "{text}"
    );
    assert!(!text.contains("apart"), "{text}");
    // Without a probe nothing is set aside.
    let r = measure_by(
        &plan,
        |i| Ok(vec![("a".into(), i as f64)]),
        |_| true,
        &[0.5],
    )
    .unwrap();
    assert_eq!((r.len(), r.set_aside), (4, 0));
}

#[test]
fn a_lucky_fast_reading_no_longer_sets_every_round_aside() {
    // The Zen 4 VM: a quiet round trip reads 1.58–1.77 µs. One lucky 0.78 µs reading,
    // earlier in the process or in this experiment's first round, used to be the level,
    // and every ordinary round read "apart" against it.
    let zen4 = |i: usize| [1.6, 1.58, 1.77, 1.72, 1.6, 1.59, 1.62, 1.6, 1.61, 1.6][i % 10];
    let plan = apart_plan(10);
    let r = probed(&plan, zen4, &[0.78]);
    assert_eq!((r.len(), r.set_aside), (10, 0));
    let r = probed(&plan, |i| if i == 0 { 0.78 } else { zen4(i) }, &[]);
    assert_eq!((r.len(), r.set_aside), (10, 0));
    let line = r.quality().far_above_us.unwrap();
    assert!(
        line > 3.0,
        "the line is twice the usual 1.6 µs, not 1.56: {line}"
    );
}

#[test]
fn two_clusters_of_readings_are_separated() {
    // No earlier readings: four rounds near (0.66–0.70 µs), then four apart (3.0–3.2), then
    // near again. Once the near cluster holds three readings, the apart ones are told
    // from it, even as they become as many.
    let us = |i: usize| [0.66, 0.68, 0.7, 0.67, 3.1, 3.0, 3.2, 3.05, 0.69, 0.68][i.min(9)];
    let r = probed(&apart_plan(6), us, &[]);
    assert_eq!(r.set_aside, 4);
    assert_eq!(r.get("a").unwrap(), &[0.0, 1.0, 2.0, 3.0, 8.0, 9.0]);
    let q = r.quality();
    assert_eq!(q.set_aside_us, Some(3.075));
    assert!((1.3..1.45).contains(&q.far_above_us.unwrap()), "{q:?}");
    // The rounds set aside are kept, and put back where they were measured.
    let all = r.with_set_aside();
    assert_eq!(all.set_aside, 0);
    assert_eq!(
        all.get("a").unwrap(),
        &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]
    );
    assert_eq!(all.get(CROSS_CORE).unwrap()[4], 3.1);
    // Apart from the start with no earlier reading: there is no other level yet, so the
    // first rounds are kept; the near ones that follow are the lower cluster from then on.
    let r = probed(&apart_plan(6), |i| if i < 2 { 3.1 } else { 0.68 }, &[]);
    assert_eq!((r.len(), r.set_aside), (6, 0));
}

#[test]
fn only_rounds_that_probe_two_threads_or_more_get_a_cross_core_reading() {
    let round = |k: &str| vec![(k.to_string(), 1.0)];
    assert!(probes_parallel(&round(&format!("{FREE_CORES}2"))));
    assert!(probes_parallel(&round(&format!("{FREE_CORES}36"))));
    assert!(!probes_parallel(&round(&format!("{FREE_CORES}1"))));
    assert!(!probes_parallel(&round("8192/gmp/t1")));
    let plan = Plan {
        set_aside_far: false,
        ..apart_plan(3)
    };
    let r = measure(&plan, |_| Ok(round(&format!("{FREE_CORES}2"))), |_| true).unwrap();
    let readings = r.get(CROSS_CORE).map(<[f64]>::len);
    if parcrypt::parallel::logical_cores() >= 2 {
        assert_eq!(readings, Some(3));
    }
    let r = measure(&plan, |_| Ok(round("a")), |_| true).unwrap();
    assert!(r.get(CROSS_CORE).is_none());
}

#[test]
fn rounds_set_aside_and_waits_are_paid_from_the_extra_time_so_an_experiment_takes_at_most_twice_its_first_rounds()
 {
    let plan = Plan::for_profile(Profile::Quick);
    // 10 rounds of 2 s kept, none set aside: 20 s more (the budget is 100 % of the first).
    assert_eq!(extra_allowance(&plan, 2.0, 10, 0.0), 20.0);
    // 4 of 14 rounds offered were set aside, after 3 s of waits: 20 - 8 - 3 s left.
    assert_eq!(extra_allowance(&plan, 2.0, 14, 3.0), 9.0);
    // As many set aside as kept: nothing left, whatever the cap on extra rounds.
    assert_eq!(extra_allowance(&plan, 2.0, 20, 0.0), 0.0);
    assert_eq!(extra_allowance(&plan, 2.0, 20, 5.0), 0.0);
    // Quick caps the extra time at 30 s: 10 rounds of 6 s leave 30 s, less what was set aside.
    assert_eq!(extra_allowance(&plan, 6.0, 10, 0.0), 30.0);
    assert_eq!(extra_allowance(&plan, 6.0, 12, 0.0), 18.0);
    // Whatever was set aside (at most as many rounds as were kept), the first rounds and the
    // extra time together take twice the kept rounds' time, or the first rounds and the waits
    // where those alone took longer.
    let p = 3.0;
    for offered in 10..=20 {
        for paused in [0.0, 1.0, 7.5, 40.0] {
            let first = p * offered as f64 + paused;
            let total = first + extra_allowance(&plan, p, offered, paused);
            assert!(
                (total - first.max(2.0 * p * 10.0)).abs() < 1e-9,
                "{offered} {paused}"
            );
        }
    }
}

#[test]
fn a_round_set_aside_as_busy_is_followed_by_a_growing_wait() {
    let plan = Plan {
        set_aside_far: false,
        pause_after_busy_s: 0.01,
        wait_apart_s: 0.0,
        ..apart_plan(3)
    };
    let started = std::time::Instant::now();
    // Rounds 0 to 2 read a core taken (set aside, waits of 10, 20 and 30 ms), then free.
    let r = measure(
        &plan,
        |i| {
            let free = if i < 3 { 0.5 } else { 1.0 };
            Ok(vec![("a".into(), 1.0), (format!("{FREE_CORES}1"), free)])
        },
        |_| true,
    )
    .unwrap();
    assert_eq!((r.len(), r.set_aside_busy), (3, 3));
    assert!(started.elapsed().as_secs_f64() >= 0.06);
}

#[test]
fn rounds_kept_apart_after_the_limit_are_counted() {
    let plan = apart_plan(4);
    // The process's earlier readings established 0.5 µs; every round here reads 2.3 µs.
    let quiet = [0.5; 40];
    let r = probed(&plan, |_| 2.3, &quiet);
    assert_eq!((r.len(), r.set_aside, r.kept_apart), (4, 4, 4));
    // Apart only in the first two: set aside, none kept apart.
    let r = probed(&plan, |i| if i < 2 { 2.3 } else { 0.5 }, &quiet);
    assert_eq!((r.len(), r.set_aside, r.kept_apart), (4, 2, 0));
}

/// Rounds measured in two blocks whose levels differ: the interval takes in each block's own
/// median, where the pooled bootstrap alone would not reach it; within one block nothing
/// changes.
#[test]
fn an_interval_takes_in_each_blocks_own_estimate() {
    let mut r = Rounds::new();
    for i in 0..10 {
        r.push(vec![("a".into(), 1.0 + 0.001 * i as f64)]);
    }
    let one = r.median("a").unwrap();
    r.block = 1;
    for i in 0..10 {
        r.push(vec![("a".into(), 1.2 + 0.001 * i as f64)]);
    }
    assert_eq!(r.block_count(), 2);
    let both = r.median("a").unwrap();
    assert!(both.low <= 1.0045 && both.high >= 1.2045, "{both:?}");
    assert!(one.high < 1.01, "{one:?}");
}

/// The study's blocks: a first block measures half the plan's rounds with no re-measuring
/// and keeps them; the second goes on from them to the plan's rounds, marked as its own block.
#[test]
fn the_second_block_goes_on_from_the_first() {
    let plan = Plan {
        min_rounds: 6,
        max_rounds: 6,
        extra_budget: 0.0,
        max_extra_s: 0.0,
        set_aside_far: false,
        pause_after_busy_s: 0.0,
        wait_apart_s: 0.0,
    };
    let seen = std::cell::RefCell::new(Vec::new());
    let round = |i: usize| {
        seen.borrow_mut().push(i);
        Ok(vec![("a".to_string(), i as f64)])
    };
    set_block("test-blocks", Block::First);
    let first = measure(&plan, round, |_| true).unwrap();
    assert_eq!(first.len(), 3);
    set_block("test-blocks", Block::Second);
    let all = measure(&plan, round, |_| true).unwrap();
    set_block("", Block::Whole);
    assert_eq!(all.len(), 6);
    assert_eq!(all.block_count(), 2);
    assert_eq!(*seen.borrow(), vec![0, 1, 2, 3, 4, 5]);
    assert_eq!(all.get("a").unwrap(), &[0.0, 1.0, 2.0, 3.0, 4.0, 5.0]);
}

/// The wait after a round set aside with the CPUs apart stops as soon as the probe reads them
/// near, and never outlasts its bound (plus one poll) when they stay apart.
#[test]
fn the_wait_for_near_cpus_is_bounded() {
    // Bounds far above a quiet machine's (about 0.1 s and 0.4 s) and far below what the waits
    // would reach if they ignored their stop: each poll runs the cross-core probe, whose
    // spinning pair takes a good part of a second, or more, when the other core is busy
    // (tighter bounds failed beside a compile). Not a timing target, a termination check.
    let near = super::wait_until_near(f64::INFINITY, 60.0);
    assert!((APART_POLL_S..10.0).contains(&near), "{near}");
    // No reading is at most 0 µs (or, with one CPU, the probe has nothing to read).
    let apart = super::wait_until_near(0.0, 0.3);
    assert!(apart < 10.0, "{apart}");
    if crate::bench::capacity::cross_core_us(0.001).is_finite() {
        assert!(apart >= 0.3, "{apart}");
    }
}

#[test]
fn rounds_the_hypervisor_robbed_are_set_aside_and_left_out_of_the_free_rounds() {
    // Round i: a = i, the free-core probe always free (it runs after the round), the steal
    // reading 0.6 in round 1 (a CPU taken for 40 % of the round: set aside, measured again)
    // and 0.85 in round 3 (kept, but not a free round).
    let r = measure_by(
        &apart_plan(4),
        |i| {
            let steal = match i {
                1 => 0.6,
                3 => 0.85,
                _ => 1.0,
            };
            Ok(vec![
                ("a".into(), i as f64),
                (format!("{FREE_CORES}2"), 0.97),
                (STEAL_FREE.into(), steal),
            ])
        },
        |_| true,
        &[],
    )
    .unwrap();
    assert_eq!(r.get("a").unwrap(), &[0.0, 2.0, 3.0, 4.0]);
    assert_eq!((r.set_aside, r.set_aside_busy), (1, 1));
    assert_eq!(
        r.with_set_aside().get("a").unwrap(),
        &[0.0, 1.0, 2.0, 3.0, 4.0]
    );
    let free = r.free_only().expect("round 3 was robbed");
    assert_eq!(free.get("a").unwrap(), &[0.0, 2.0, 4.0]);
}

#[test]
fn free_only_keeps_the_rounds_whose_every_probe_read_the_cores_free() {
    let mut r = Rounds::new();
    // Round i: a = i; the 2-thread probe low in rounds 1 and 3, the 3-thread one in round 4,
    // round 5 has no probe at all (kept: nothing read a core taken).
    for i in 0..6 {
        let mut round = vec![("a".to_string(), i as f64)];
        if i < 5 {
            let two = if i == 1 || i == 3 { 0.8 } else { 0.95 };
            let three = if i == 4 { 0.85 } else { 0.97 };
            round.push((format!("{FREE_CORES}2"), two));
            round.push((format!("{FREE_CORES}3"), three));
        }
        r.push(round);
    }
    let free = r.free_only().expect("some rounds read a core taken");
    assert_eq!(free.get("a").unwrap(), &[0.0, 2.0, 5.0]);
    assert_eq!(free.len(), 3);
    assert_eq!(free.set_aside, 0);
    // Every round free: no second set of rounds.
    let mut all_free = Rounds::new();
    for i in 0..4 {
        all_free.push(vec![
            ("a".to_string(), i as f64),
            (format!("{FREE_CORES}2"), 0.9 + 0.01 * i as f64),
        ]);
    }
    assert_eq!(all_free.free_only(), None);
}
