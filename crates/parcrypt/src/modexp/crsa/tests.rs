//! CRSA against GMP's `mpz_powm`, its links against the hypercube, its counts against the
//! schedule, and its bad inputs.
use super::engine;
use super::topology::{PES_PER_CUBE, Role};
use super::*;
use crate::modexp::{ModExp, Params, pow_mod_vartime};
use proptest::prelude::*;
use rug::rand::RandState;

const STRATEGIES: [&dyn ModExp; 3] = [&Crsa, &CrsaPipelined, &CrsaOptimized];

fn gmp(b: &Integer, e: &Integer, m: &Integer) -> Integer {
    let mut b = Integer::from(b % m);
    if b < 0 {
        b += m;
    }
    b.pow_mod(e, m).unwrap()
}

fn params(nc: usize) -> Params {
    Params {
        cubes: Some(nc),
        ..Params::default()
    }
}

#[test]
fn edge_cases_equal_gmp() {
    let p: Integer = (Integer::from(1) << 127) - 1u32;
    let cases = [
        (5, 0, Integer::from(1_000_003)),
        (5, 1, Integer::from(1_000_003)),
        (0, 12_345, Integer::from(1_000_003)),
        (0, 0, Integer::from(1_000_003)),
        (3_000_011, 77, Integer::from(1_000_003)),
        (-7, 77, Integer::from(1_000_003)),
        (9, 9, Integer::from(1)),
        (9, 9, Integer::from(2)),
        (7, 1000, Integer::from(4096)),
        (3, 65_537, p.clone()),
        (2, 10, Integer::from(1_000_003)),
        (2, 42, Integer::from(1_000_003)),
        (2, 120, Integer::from(1_000_003)),
    ];
    for s in STRATEGIES {
        for nc in 1..=3 {
            for (b, e, m) in &cases {
                let (b, e) = (Integer::from(*b), Integer::from(*e));
                let got = pow_mod_vartime(s, &b, &e, m, &params(nc)).unwrap();
                assert_eq!(
                    got.value,
                    gmp(&b, &e, m),
                    "{} nc={nc} {b}^{e} mod {m}",
                    s.name()
                );
            }
        }
    }
}

#[test]
fn bad_parameters_are_errors_not_panics() {
    let (b, e, m) = (Integer::from(3), Integer::from(5), Integer::from(7));
    for s in STRATEGIES {
        for nc in [0, MAX_CUBES + 1, usize::MAX] {
            assert!(
                pow_mod_vartime(s, &b, &e, &m, &params(nc)).is_err(),
                "{} nc={nc}",
                s.name()
            );
        }
    }
    let cfg = EngineConfig::pipelined(2);
    assert!(pow_mod_batch_vartime(std::slice::from_ref(&b), &e, &Integer::new(), &cfg).is_err());
    assert!(pow_mod_batch_vartime(std::slice::from_ref(&b), &Integer::from(-1), &m, &cfg).is_err());
    assert!(
        pow_mod_batch_vartime(std::slice::from_ref(&b), &e, &m, &EngineConfig::main(0)).is_err()
    );
    let ones = pow_mod_batch_vartime(&[b.clone(), e.clone()], &e, &Integer::from(1), &cfg).unwrap();
    assert_eq!(ones.values, vec![Integer::new(), Integer::new()]);
    let none = pow_mod_batch_vartime(&[], &e, &m, &cfg).unwrap();
    assert!(none.values.is_empty());
}

#[test]
fn every_message_crosses_a_hypercube_edge_or_a_coordinator_link() {
    let m = Integer::from(1_000_000_007u64);
    let bases: Vec<Integer> = (0..5).map(Integer::from).collect();
    for nc in 1..=5 {
        for optimized in [false, true] {
            for pipelined in [false, true] {
                let cfg = EngineConfig {
                    cubes: nc,
                    optimized,
                    pipelined,
                };
                let out = pow_mod_batch_vartime(&bases, &Integer::from(65_537), &m, &cfg).unwrap();
                let topo = cfg.topology().unwrap();
                let mut used = Vec::new();
                for edge in &out.stats.edges {
                    assert_eq!(edge.messages, 5, "{edge:?}");
                    match (edge.from, edge.to) {
                        (Node::Pe(a), Node::Pe(b)) => {
                            let d = Topology::address(a) ^ Topology::address(b);
                            assert_eq!(d.count_ones(), 1, "PE {a} -> PE {b}, nc={nc}");
                            assert!(topo.role(a).is_some() && topo.role(b).is_some());
                        }
                        (Node::Coordinator, Node::Pe(p)) => assert!(p == 0 || p == 7),
                        (Node::Pe(p), Node::Coordinator) => assert_eq!(p, 7),
                        other => panic!("unexpected link {other:?}"),
                    }
                    used.push((edge.from, edge.to));
                }
                assert_eq!(used, topo.links(), "nc={nc}");
                assert_eq!(out.stats.pes, if optimized { 6 * nc } else { 8 * nc });
            }
        }
    }
}

#[test]
fn channels_open_only_along_edges() {
    let topo = Topology::new(3, false).unwrap();
    let (pe, co) = (Node::Pe, Node::Coordinator);
    assert!(engine::channel::<()>(&topo, pe(0), pe(1)).is_ok());
    assert!(
        engine::channel::<()>(&topo, pe(8), pe(16)).is_ok(),
        "cube 1 - cube 2 via Gray"
    );
    assert!(
        engine::channel::<()>(&topo, pe(0), pe(3)).is_err(),
        "two bits apart"
    );
    assert!(
        engine::channel::<()>(&topo, pe(0), pe(16)).is_err(),
        "address 0 vs 24"
    );
    assert!(
        engine::channel::<()>(&topo, pe(0), pe(24)).is_err(),
        "no such PE"
    );
    assert!(engine::channel::<()>(&topo, co, pe(5)).is_err());
    assert!(engine::channel::<()>(&topo, pe(5), co).is_err());
    let opt = Topology::new(2, true).unwrap();
    assert!(
        engine::channel::<()>(&opt, pe(0), pe(1)).is_err(),
        "PE 1 removed"
    );
}

#[test]
fn values_move_up_one_level_except_the_pe7_chain() {
    for nc in 1..=5 {
        for optimized in [false, true] {
            let topo = Topology::new(nc, optimized).unwrap();
            assert_eq!(topo.levels(), nc + 3);
            let max = topo.roles().iter().map(|r| r.level).max().unwrap();
            assert_eq!(max + 1, nc + 3);
            let level = |p: usize| topo.role(p).map(|r: &Role| r.level).unwrap();
            for r in topo.roles() {
                for f in &r.factors {
                    assert!(f.power == 1 || f.power == 2);
                    if let Node::Pe(p) = f.from {
                        assert_eq!(level(p) + 1, r.level, "PE {p} -> PE {}", r.pe);
                    }
                }
                if let Some(c) = r.chain_from {
                    assert_eq!((c % PES_PER_CUBE, r.pe % PES_PER_CUBE), (7, 7));
                    assert_eq!(level(c), r.level + 1);
                }
            }
        }
    }
}

#[test]
fn engine_counts_equal_the_schedule() {
    let m = (Integer::from(1) << 200) + 235u32;
    let bases: Vec<Integer> = (3..6).map(Integer::from).collect();
    for nc in 1..=4 {
        for optimized in [false, true] {
            let topo = Topology::new(nc, optimized).unwrap();
            let x = topo.power();
            for e in [0, 1, x - 1, x, x + 1, 65_537, 123_456_789] {
                let e = Integer::from(e);
                let cfg = EngineConfig {
                    cubes: nc,
                    optimized,
                    pipelined: true,
                };
                let out = pow_mod_batch_vartime(&bases, &e, &m, &cfg).unwrap();
                let s = schedule(&topo, &e).unwrap();
                let want: Vec<_> = s
                    .per_unit
                    .iter()
                    .map(|u| crate::modexp::UnitCount {
                        unit: u.unit.clone(),
                        squarings: 3 * u.squarings,
                        multiplications: 3 * u.multiplications,
                    })
                    .collect();
                assert_eq!(out.counts, want, "nc={nc} optimized={optimized} e={e}");
            }
        }
    }
}

#[test]
fn pipelined_stream_equals_main_and_gmp() {
    let mut rs = RandState::new();
    rs.seed(&Integer::from(2));
    let m = Integer::from(Integer::random_bits(521, &mut rs)) | 1u32;
    let e = Integer::from(Integer::random_bits(300, &mut rs));
    let mut bases: Vec<Integer> = (0..23)
        .map(|_| Integer::from(Integer::random_bits(530, &mut rs)))
        .collect();
    bases.push(bases[0].clone());
    for nc in 1..=3 {
        let main = pow_mod_batch_vartime(&bases, &e, &m, &EngineConfig::main(nc)).unwrap();
        let piped = pow_mod_batch_vartime(&bases, &e, &m, &EngineConfig::pipelined(nc)).unwrap();
        let opt = pow_mod_batch_vartime(&bases, &e, &m, &EngineConfig::optimized(nc)).unwrap();
        assert_eq!(main.values, piped.values);
        assert_eq!(main.values, opt.values);
        assert_eq!(main.counts, piped.counts, "pipelining moves no work");
        for (b, v) in bases.iter().zip(&main.values) {
            assert_eq!(*v, gmp(b, &e, &m));
        }
        assert_eq!(
            (main.stats.max_in_flight, piped.stats.max_in_flight),
            (1, 4 * (nc + 3))
        );
    }
}

#[test]
fn a_failing_pe_stops_the_machine_with_an_error() {
    let m = Integer::from(1_000_003);
    let bases: Vec<Integer> = (0..12).map(Integer::from).collect();
    for pe in [0, 5, 7, 15] {
        for window in [1, 40] {
            let mut topo = Topology::new(2, false).unwrap();
            topo.break_pe(pe);
            let got = engine::run(&topo, &bases, &Integer::from(99), &m, window, false);
            assert!(got.is_err(), "PE {pe} window {window}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn equals_gmp(
        mbits in 1u32..700,
        ebits in prop_oneof![Just(0u32), Just(1u32), 2u32..400],
        bbits in 0u32..720,
        nc in 1usize..=3,
        which in 0usize..3,
        seed in any::<u64>(),
    ) {
        let mut rs = RandState::new();
        rs.seed(&Integer::from(seed));
        let m = Integer::from(Integer::random_bits(mbits, &mut rs)).max(Integer::from(2));
        let e = match ebits {
            0 => Integer::new(),
            1 => Integer::from(1),
            n => Integer::from(Integer::random_bits(n, &mut rs)),
        };
        let b = Integer::from(Integer::random_bits(bbits, &mut rs));
        let s = STRATEGIES[which];
        let got = pow_mod_vartime(s, &b, &e, &m, &params(nc)).unwrap();
        prop_assert_eq!(got.value, gmp(&b, &e, &m), "{} nc={}", s.name(), nc);
    }
}
