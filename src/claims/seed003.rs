//! Seed 003 (003_815d316bf35ceec2.txt, slides): parallel m-ary with precomputation, m-ary on
//! demand and slicing against square-and-multiply; parallel Karatsuba against GMP; the cost of
//! activating a thread. Its figures come from other machines (i7-2600 4c/8t, Xeon E5-2650 v2
//! 8c/16t, i7-6800K 6c/12t), pinned threads, C++ and GMP/MPIR of 2017.
use super::{Claim, Rule};

/// Best time change against square-and-multiply, % (negative = faster), with the slide's
/// configuration: (method, bits, %, as printed).
pub const MODEXP_BEST: [(&str, u32, f64, &str); 17] = [
    ("mary-precomp", 1024, -26.0, "-26 % (8 thr, 2^4-ary, 4 pt)"),
    (
        "mary-precomp",
        2048,
        -29.5,
        "-29.5 % (4 thr, 2^2-ary, 4 pt)",
    ),
    ("mary-precomp", 4096, -26.0, "-26 % (8 thr, 2^3-ary, 4 pt)"),
    (
        "mary-precomp",
        8192,
        -23.5,
        "-23.5 % (8 thr, 2^2-ary, 4 pt)",
    ),
    ("mary-precomp", 16384, -24.0, "-24 % (8 thr, 2^3-ary, 4 pt)"),
    (
        "mary-precomp",
        32768,
        -24.5,
        "-24.5 % (8 thr, 2^3-ary, 4 pt)",
    ),
    ("mary-ondemand", 1024, -32.0, "-32 % (3 thr, 2^3-ary)"),
    ("mary-ondemand", 4096, -27.0, "-27 % (3 thr, 2^6-ary)"),
    ("mary-ondemand", 8192, -27.0, "-27 % (3 thr, 2^4/2^6-ary)"),
    ("mary-ondemand", 16384, -27.0, "-27 % (3 thr, 2^6/2^8-ary)"),
    ("mary-ondemand", 32768, -27.0, "-27 % (2/8 thr, 2^6-ary)"),
    ("slice", 1024, -40.0, "-40 % (4 slices)"),
    ("slice", 2048, -36.5, "-36.5 % (10 slices)"),
    ("slice", 4096, -30.0, "-30 % (3-4 slices)"),
    ("slice", 8192, -30.0, "-30 % (3-4 slices)"),
    ("slice", 16384, -30.0, "-30 % (3-4 slices)"),
    ("slice", 32768, -30.0, "-30 % (3-4 slices)"),
];

/// µs per product of GMP `mpz_mul` and the sequential one-level `karaMul` (i7-2600):
/// (bits, GMP, karaMul).
pub const KARATSUBA_US: [(u32, f64, f64); 7] = [
    (1024, 0.61584, 1.72731),
    (2048, 0.873759, 2.29119),
    (4096, 2.57911, 4.07022),
    (8192, 7.86512, 9.55777),
    (16384, 21.1608, 26.396),
    (32768, 55.902, 67.8586),
    (65536, 153.327, 174.204),
];

/// One parallel Karatsuba figure: (method, bits, change against GMP, change against
/// `karaMul`, machine).
pub type KaratsubaFigure = (&'static str, u32, Option<f64>, Option<f64>, &'static str);

/// The parallel Karatsuba results by our method name (the slides' `std::async`,
/// `std::thread`, inf-threads, inf-threadsLF), 3 threads: (method, bits, change against GMP,
/// change against `karaMul`, machine), as fractions (−0.49 = 49 % faster).
pub const KARATSUBA_PARALLEL: [KaratsubaFigure; 12] = [
    (
        "kara-spawn",
        32768,
        Some(-0.21),
        Some(-0.35),
        "i7-2600, 3 threads",
    ),
    (
        "kara-spawn",
        65536,
        Some(-0.45),
        Some(-0.52),
        "i7-2600, 3 threads",
    ),
    (
        "kara-scoped",
        32768,
        Some(-0.25),
        Some(-0.37),
        "i7-2600, 3 threads",
    ),
    (
        "kara-scoped",
        65536,
        Some(-0.41),
        Some(-0.48),
        "i7-2600, 3 threads",
    ),
    (
        "kara-pool",
        16384,
        Some(-0.21),
        Some(-0.37),
        "i7-2600, 3 threads",
    ),
    ("kara-pool", 8192, None, Some(0.0), "i7-2600, 3 threads"),
    (
        "kara-lockfree",
        2048,
        None,
        Some(-0.03),
        "i7-2600, 3 threads",
    ),
    (
        "kara-lockfree",
        4096,
        Some(0.17),
        Some(-0.24),
        "E5-2650 v2, 3 threads",
    ),
    (
        "kara-lockfree",
        8192,
        Some(-0.33),
        Some(-0.45),
        "E5-2650 v2, 3 threads",
    ),
    (
        "kara-lockfree",
        16384,
        Some(-0.41),
        Some(-0.54),
        "E5-2650 v2, 3 threads",
    ),
    (
        "kara-lockfree",
        32768,
        Some(-0.49),
        Some(-0.58),
        "E5-2650 v2, 3 threads",
    ),
    (
        "kara-lockfree",
        65536,
        Some(-0.55),
        Some(-0.61),
        "E5-2650 v2, 3 threads",
    ),
];

/// Thread activation, µs, (low, high) over the slides' machines, by the name
/// `mul::handoff::Activation::name` gives.
pub const HANDOFF_US: [(&str, f64, f64); 5] = [
    ("spawn", 4.3, 6.5),
    ("spawn+join", 10.1, 16.0),
    ("condvar-other-core", 2.3, 4.1),
    ("condvar-same-core", 1.3, 1.6),
    ("lockfree-handoff", 0.12, 0.18),
];

/// The activations of the rank-order claim, cheapest first.
pub const HANDOFF_ORDER: [&str; 3] = ["lockfree-handoff", "condvar-other-core", "spawn+join"];

/// The seed's µs per product of GMP (`gmp`) or `karaMul` (`kara-seq`) at `bits`.
pub fn karatsuba_us(method: &str, bits: u32) -> Option<f64> {
    let row = KARATSUBA_US.iter().find(|r| r.0 == bits)?;
    match method {
        "gmp" => Some(row.1),
        "kara-seq" => Some(row.2),
        _ => None,
    }
}

/// The seed's change against GMP (fraction) of a parallel Karatsuba at `bits`.
pub fn karatsuba_vs_gmp(method: &str, bits: u32) -> Option<f64> {
    KARATSUBA_PARALLEL
        .iter()
        .find(|r| r.0 == method && r.1 == bits)
        .and_then(|r| r.2)
}

/// The seed's range for an activation, µs.
pub fn handoff_us(name: &str) -> Option<(f64, f64)> {
    HANDOFF_US.iter().find(|r| r.0 == name).map(|r| (r.1, r.2))
}

fn c(id: &str, experiment: &'static str, reference: &str, claim: &str) -> Claim {
    Claim::new(id, "seed003", experiment, reference, claim)
}

/// The claims of seed 003, in report order.
pub fn claims() -> Vec<Claim> {
    let mut v: Vec<Claim> = MODEXP_BEST
        .iter()
        .map(|&(m, bits, pct, printed)| {
            c(&format!("seed003-{m}-{bits}"), "seed003-modexp", &format!("{m}, {bits} bits"), &format!("{m} beats square-and-multiply at {bits} bits"))
                .paper(printed)
                .metric("time change against square-and-multiply at 2 threads, paired rounds (negative = faster)", "%")
                .rule(Rule::AtMost { max: pct * 2.0 / 3.0 }, "two thirds of the paper's gain: it used up to 8 threads on 8 cores, and with 2 threads each thread still squares about k times, which bounds the gain near −33 %")
                .parallel_time()
        })
        .collect();
    for bits in [8192u32, 16384, 32768, 65536] {
        let paper = karatsuba_vs_gmp("kara-lockfree", bits).unwrap_or(f64::NAN);
        v.push(
            c(
                &format!("seed003-kara-lockfree-{bits}"),
                "seed003-karatsuba",
                &format!("Karatsuba, {bits} bits"),
                "Lock-free parallel Karatsuba beats GMP's mpz_mul at large sizes",
            )
            .paper(format!(
                "{:+.0} % against GMP (3 threads, E5-2650 v2)",
                paper * 100.0
            ))
            .metric(
                "lock-free parallel Karatsuba time / GMP mpz_mul time, 2 threads, paired rounds",
                "×",
            )
            .rule(
                Rule::AtMost { max: 1.0 },
                "none: \"beats GMP\" is an ordering; the paper's margins came from 3 threads",
            )
            .parallel_time(),
        );
    }
    for (bits, gmp, kara) in KARATSUBA_US {
        v.push(
            c(
                &format!("seed003-kara-seq-{bits}"),
                "seed003-karatsuba",
                &format!("Karatsuba table, {bits} bits"),
                "One-level sequential Karatsuba over GMP is slower than GMP alone",
            )
            .paper(format!(
                "{kara} µs against {gmp} µs ({:.2}×, i7-2600)",
                kara / gmp
            ))
            .metric(
                "one-level Karatsuba time / GMP mpz_mul time, paired rounds",
                "×",
            )
            .rule(
                Rule::AtLeast { min: 1.0 },
                "none: \"slower than GMP\" is an ordering",
            )
            .measured(),
        );
    }
    let range = |n: &str| handoff_us(n).map_or("?".into(), |(a, b)| format!("{a}–{b} µs"));
    v.push(c("seed003-handoff-order", "seed003-handoff", "Thread activation table", "Lock-free hand-off is an order of magnitude cheaper than a condvar wake, which is cheaper than spawn + join")
        .paper(format!("{} < {} < {}", range(HANDOFF_ORDER[0]), range(HANDOFF_ORDER[1]), range(HANDOFF_ORDER[2])))
        .metric("paired ratios: condvar wake / lock-free hand-off, spawn + join / condvar wake", "×")
        .rule(Rule::Order { items: HANDOFF_ORDER.iter().map(|s| s.to_string()).collect(), factors: vec![10.0, 1.0] },
            "×10 for \"an order of magnitude\" (the paper's 0.12–0.18 µs against 2.3–4.1 µs), any gap for the second step")
        .measured());
    v
}
