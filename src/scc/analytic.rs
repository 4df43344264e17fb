//! The exact finishing time of a pipeline of synchronous links on dedicated cores, by a
//! (max, +) recurrence instead of event by event: with `e[i][k]` the end of chunk k's
//! transfer over link i and `w[i](k)` stage i's work on it,
//!
//! ```text
//! e[i][k] = max(ready to send, ready to receive) + transfer(i, k)
//! ready to send    = e[i-1][k] + w[i](k)            (stage 0: e[0][k-1] + w[0](k))
//! ready to receive = e[i+1][k-1]                    (last stage: e[n-2][k-1] + w[n-1](k-1))
//! ```
//!
//! and the run ends at `e[n-2][K-1] + w[n-1](K-1)`. A stage's order is fixed (receive chunk k,
//! work, send it, receive chunk k + 1), no core is shared, and a transfer starts exactly when
//! both ends are ready, so this is the discrete-event simulation's own semantics written as
//! a recurrence; the tests check the two agree. It is O(stages × chunks) and allocation-light,
//! which makes fine chunk-size searches cheap.
use super::des::{Link, Scenario};
use crate::error::{Error, Result};

/// Finishing time of `sc`; an error unless every link is synchronous and every stage has a
/// core of its own.
pub fn synchronous_total(sc: &Scenario) -> Result<f64> {
    sc.validate()?;
    let n = sc.stages.len();
    if sc.cores < n {
        return Err(Error::InvalidParameter(format!(
            "the recurrence needs a core per stage ({n} stages, {} cores)",
            sc.cores
        )));
    }
    let mut full = Vec::with_capacity(n - 1);
    let mut last = Vec::with_capacity(n - 1);
    for l in &sc.links {
        match l {
            Link::Synchronous { full: f, last: s } => {
                full.push(f.total_s());
                last.push(s.total_s());
            }
            Link::Queue { .. } => {
                return Err(Error::InvalidParameter(
                    "the recurrence covers synchronous links only".into(),
                ));
            }
        }
    }
    let k_max = sc.chunks;
    if k_max == 0 {
        return Ok(sc.startup_s);
    }
    let work = |i: usize, k: usize| {
        if k + 1 == k_max {
            sc.stages[i].last_s
        } else {
            sc.stages[i].full_s
        }
    };
    let start = sc.startup_s;
    let mut prev = vec![start; n - 1];
    let mut cur = vec![0.0; n - 1];
    for k in 0..k_max {
        let d = if k + 1 == k_max { &last } else { &full };
        for i in 0..n - 1 {
            let ready_send = if i == 0 {
                if k == 0 { start } else { prev[0] }
            } else {
                cur[i - 1]
            } + work(i, k);
            let ready_recv = if k == 0 {
                start
            } else if i + 1 == n - 1 {
                prev[n - 2] + work(n - 1, k - 1)
            } else {
                prev[i + 1]
            };
            cur[i] = ready_send.max(ready_recv) + d[i];
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    Ok(prev[n - 2] + work(n - 1, k_max - 1))
}

#[cfg(test)]
mod tests {
    use super::super::des::{StageSpec, simulate};
    use super::super::transfer::TransferCost;
    use super::*;
    use proptest::prelude::*;

    fn cost(put: f64, get: f64, hs: f64) -> TransferCost {
        TransferCost {
            pieces: 1,
            put_s: put,
            get_s: get,
            handshake_s: hs,
        }
    }

    fn scenario(work: &[(f64, f64)], links: &[(f64, f64)], chunks: usize) -> Scenario {
        Scenario {
            stages: work
                .iter()
                .enumerate()
                .map(|(i, &(f, l))| StageSpec {
                    name: format!("s{i}"),
                    full_s: f,
                    last_s: l,
                })
                .collect(),
            links: links
                .iter()
                .map(|&(f, l)| Link::Synchronous {
                    full: cost(f * 0.4, f * 0.5, f * 0.1),
                    last: cost(l * 0.4, l * 0.5, l * 0.1),
                })
                .collect(),
            chunks,
            cores: work.len(),
            startup_s: 0.5,
            idle_wake_s: 0.0,
        }
    }

    #[test]
    fn hand_computed_pipelines() {
        // Two stages, no work, transfer 1 s: chunks go one after another.
        let sc = scenario(&[(0.0, 0.0), (0.0, 0.0)], &[(1.0, 1.0)], 3);
        assert!((synchronous_total(&sc).unwrap() - 3.5).abs() < 1e-12);
        // Three stages, middle works 2 s per chunk, transfers 1 s: 1 + 2 + 1, then every
        // chunk waits for the middle stage: its cycle is receive 1 + work 2 + send 1 = 4.
        let sc = scenario(
            &[(0.0, 0.0), (2.0, 2.0), (0.0, 0.0)],
            &[(1.0, 1.0), (1.0, 1.0)],
            3,
        );
        assert!((synchronous_total(&sc).unwrap() - (0.5 + 4.0 + 4.0 + 4.0)).abs() < 1e-12);
        assert_eq!(
            synchronous_total(&scenario(&[(1.0, 1.0); 2], &[(1.0, 1.0)], 0)).unwrap(),
            0.5
        );
    }

    #[test]
    fn queues_and_shared_cores_are_refused() {
        let mut sc = scenario(&[(1.0, 1.0); 3], &[(1.0, 1.0); 2], 2);
        sc.cores = 2;
        assert!(synchronous_total(&sc).is_err());
        sc.cores = 3;
        sc.links[0] = Link::Queue {
            capacity: 1,
            op_s: 0.0,
            wake_s: 0.0,
        };
        assert!(synchronous_total(&sc).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        /// The recurrence and the event simulation agree on random synchronous pipelines.
        #[test]
        fn recurrence_equals_simulation(
            work in prop::collection::vec((0.0f64..3.0, 0.0f64..3.0), 2..9),
            link_costs in prop::collection::vec((0.0f64..2.0, 0.0f64..2.0), 8),
            chunks in 0usize..12,
        ) {
            let links = &link_costs[..work.len() - 1];
            let sc = scenario(&work, links, chunks);
            let exact = synchronous_total(&sc).unwrap();
            let sim = simulate(&sc).unwrap();
            prop_assert!((exact - sim.total_s).abs() <= 1e-9 * exact.max(1.0), "{exact} vs {}", sim.total_s);
            prop_assert!(sim.stages.iter().all(|s| s.chunks == chunks));
        }
    }
}
