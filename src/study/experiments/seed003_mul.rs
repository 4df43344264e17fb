//! Seed 003: parallel Karatsuba against GMP's `mpz_mul`, and the cost of activating a thread.
//! Each round runs the benchmark once (one batch of products per method and size, one set of
//! activations per primitive); the claims are judged on paired per-round ratios.
use super::{
    free_cores, free_cores_sample, int, measured, needs_threads, opt, quality_note, round_config,
    runs_text, text,
};
use crate::bench::BenchConfig;
use crate::claims::seed003::{
    HANDOFF_ORDER, HANDOFF_US, KARATSUBA_US, karatsuba_us, karatsuba_vs_gmp,
};
use crate::error::Result;
use crate::mul::KaraConfig;
use crate::study::sampling::{self, Rounds};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Series, Table, fed, settled,
};
use crate::suites::mul::MulBenchPlan;

/// The multiplication experiments of seed 003.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Karatsuba), Box::new(Handoff)]
}

struct Karatsuba;

/// Batches per method, size and round (the round keeps the fastest).
const REPEATS: u32 = 3;

const METHODS: [&str; 5] = [
    "gmp",
    "kara-seq",
    "kara-lockfree",
    "kara-pool",
    "kara-rayon",
];

fn bits() -> Vec<u32> {
    KARATSUBA_US.iter().map(|r| r.0).collect()
}

fn mul_round(profile: Profile, i: usize) -> Result<Vec<(String, f64)>> {
    let plan = MulBenchPlan {
        bits: bits(),
        methods: METHODS.iter().map(|s| s.to_string()).collect(),
        threads: vec![2],
        kara: KaraConfig::default(),
        seed: 3,
        config: round_config(i, REPEATS),
        batch_s: match profile {
            Profile::Quick => 0.005,
            Profile::Full => 0.02,
        },
    };
    let recs = crate::suites::mul::run(&plan, |_, _, _| {})?;
    let mut out: Vec<(String, f64)> = recs
        .iter()
        .map(|r| (format!("{}/{}", r.bits, r.method), r.timing.min_s))
        .collect();
    out.extend(
        recs.iter()
            .filter(|r| r.method == "gmp")
            .filter_map(|r| r.capacity.map(|c| (format!("{}/capacity", r.bits), c))),
    );
    out.push(free_cores_sample(2));
    Ok(out)
}

impl Experiment for Karatsuba {
    fn id(&self) -> &'static str {
        "seed003-karatsuba"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        match profile {
            Profile::Quick => 10.0,
            Profile::Full => 600.0,
        }
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let profile = ctx.profile;
        let evidence = |r: &Rounds| kara_evidence(ctx, r);
        let rounds = sampling::measure(
            &ctx.plan,
            |i| mul_round(profile, i),
            |r| settled(&evidence(r)),
        )?;
        let mut table = Table::new(&[
            "bits",
            "method",
            "product_us",
            "vs_gmp_x",
            "seed_us",
            "seed_vs_gmp_x",
            "capacity_x",
        ]);
        let mut chart = Chart::line(
            "Time relative to GMP mpz_mul (1.0 = GMP), 95 % intervals",
            "operand size (bits)",
            "time / GMP time",
            true,
        );
        for m in METHODS {
            let mut points = Vec::new();
            for b in bits() {
                let us = rounds
                    .median(&format!("{b}/{m}"))
                    .map(|e| e.map(|x| x * 1e6));
                let r = rounds.ratio(&format!("{b}/{m}"), &format!("{b}/gmp"));
                let seed_vs = if m == "kara-seq" {
                    karatsuba_us("kara-seq", b)
                        .zip(karatsuba_us("gmp", b))
                        .map(|(k, g)| k / g)
                } else {
                    karatsuba_vs_gmp(m, b).map(|v| 1.0 + v)
                };
                table.push(vec![
                    int(b),
                    text(m),
                    measured(us, "µs"),
                    measured(r, "×"),
                    opt(karatsuba_us(m, b)),
                    opt(seed_vs),
                    measured(rounds.median(&format!("{b}/capacity")), "×"),
                ]);
                if m != "gmp" {
                    points.extend(r.map(|e| Point::with_ci(f64::from(b), e.value, e.low, e.high)));
                }
            }
            if m != "gmp" {
                chart = chart.with(Series::new(m, points, Provenance::Measured));
            }
        }
        chart = chart
            .with(Series::from_xy(
                "kara-lockfree (paper, 3 thr)",
                bits().into_iter().filter_map(|b| {
                    karatsuba_vs_gmp("kara-lockfree", b).map(|v| (f64::from(b), 1.0 + v))
                }),
                Provenance::Paper,
            ))
            .with(Series::from_xy(
                "kara-seq (paper)",
                KARATSUBA_US.iter().map(|r| (f64::from(r.0), r.2 / r.1)),
                Provenance::Paper,
            ))
            .reference("GMP", 1.0);
        let quality = rounds.quality();
        let result = ExperimentResult {
            id: self.id().into(),
            seed: self.seed().into(),
            title: "Parallel Karatsuba against GMP".into(),
            answers:
                "Karatsuba slides (GMP against sequential Karatsuba; lock-free 3-thread results)"
                    .into(),
            provenance: Provenance::Measured,
            summary: format!(
                "µs per product (batches timed and divided) at {} bits for GMP, one-level Karatsuba with GMP halves, and its \
                 parallel forms on 2 threads; every product checked against GMP first. 'capacity_x' is the throughput two threads \
                 of independent GMP products get against one, measured beside each size. {}",
                bits()
                    .iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                quality_note(&quality, &runs_text(REPEATS))
            ),
            table,
            charts: vec![chart],
            quality: Some(quality),
            elapsed_s: 0.0,
        };
        Ok(Output {
            result,
            evidence: evidence(&rounds),
        })
    }
}

fn kara_evidence(ctx: &Context, r: &Rounds) -> Vec<Fed> {
    let mut v = Vec::new();
    for b in [8192u32, 16384, 32768, 65536] {
        let id = format!("seed003-kara-lockfree-{b}");
        let ratio = r.ratio(&format!("{b}/kara-lockfree"), &format!("{b}/gmp"));
        let cap = r
            .median(&format!("{b}/capacity"))
            .map_or("-".into(), |e| format!("{:.2}×", e.value));
        v.push(fed(&id, match needs_threads(ctx, 2) {
            Some(gap) => gap,
            None => Evidence::measured(ratio.into_iter().collect(), r.len(), 2,
                &format!("lock-free Karatsuba (2 threads) over GMP per paired round ({} rounds); on 2 threads the critical path holds 2 of the 3 half products; two threads of independent GMP products get {cap} here", r.len()))
                .free_cores(free_cores(ctx, r, 2)),
        }));
    }
    for (b, _, _) in KARATSUBA_US {
        let ratio = r.ratio(&format!("{b}/kara-seq"), &format!("{b}/gmp"));
        v.push(fed(&format!("seed003-kara-seq-{b}"), Evidence::measured(ratio.into_iter().collect(), r.len(), 1,
            &format!("one-level Karatsuba over GMP per paired round ({} rounds); GMP already switches to Toom-Cook or FFT, so a Karatsuba level on top adds work", r.len()))));
    }
    v
}

struct Handoff;

fn handoff_round(profile: Profile, i: usize) -> Result<Vec<(String, f64)>> {
    let config = BenchConfig {
        warmup_runs: if i == 0 { 20 } else { 2 },
        min_runs: match profile {
            Profile::Quick => 60,
            Profile::Full => 400,
        },
        min_time: 0.0,
        max_runs: 5000,
    };
    let recs = crate::suites::mul_handoff::run(&config, |_, _, _| {})?;
    Ok(recs
        .iter()
        .map(|r| (r.primitive.clone(), r.median_us))
        .collect())
}

impl Experiment for Handoff {
    fn id(&self) -> &'static str {
        "seed003-handoff"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        match profile {
            Profile::Quick => 2.0,
            Profile::Full => 60.0,
        }
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let profile = ctx.profile;
        let rounds = sampling::measure(
            &ctx.plan,
            |i| handoff_round(profile, i),
            |r| settled(&handoff_evidence(r)),
        )?;
        let mut table = Table::new(&["primitive", "median_us", "seed_low_us", "seed_high_us"]);
        let categories: Vec<String> = rounds.keys().to_vec();
        let (mut ours, mut lo_pts, mut hi_pts) = (Vec::new(), Vec::new(), Vec::new());
        for (i, k) in categories.iter().enumerate() {
            let m = rounds.median(k);
            let seed = HANDOFF_US.iter().find(|h| h.0 == k);
            table.push(vec![
                text(k),
                measured(m, "µs"),
                opt(seed.map(|s| s.1)),
                opt(seed.map(|s| s.2)),
            ]);
            ours.extend(m.map(|e| Point::with_ci(i as f64, e.value, e.low, e.high)));
            if let Some(s) = seed {
                lo_pts.push((i as f64, s.1));
                hi_pts.push((i as f64, s.2));
            }
        }
        let quality = rounds.quality();
        let result = ExperimentResult {
            id: self.id().into(),
            seed: self.seed().into(),
            title: "Thread activation costs".into(),
            answers: "Thread activation table".into(),
            provenance: Provenance::Measured,
            summary: format!(
                "Median µs per round of: spawning a thread (until it runs), spawn + join, waking a condvar waiter pinned to \
                 another core and to the same core, and a lock-free atomic ping-pong round trip; {} logical CPUs. {} \
                 paired rounds, each the median of its activations; median 95 % interval ±{:.1} %{}.",
                ctx.machine.logical_cores,
                quality.rounds,
                quality.spread_pct,
                if quality.noisy { "; noisy" } else { "" }
            ),
            table,
            charts: vec![
                Chart::bar(
                    "Thread activation (µs, median)",
                    "primitive",
                    "µs",
                    categories,
                )
                .with(Series::new("ours", ours, Provenance::Measured))
                .with(Series::from_xy("paper (low)", lo_pts, Provenance::Paper))
                .with(Series::from_xy("paper (high)", hi_pts, Provenance::Paper)),
            ],
            quality: Some(quality),
            elapsed_s: 0.0,
        };
        Ok(Output {
            result,
            evidence: handoff_evidence(&rounds),
        })
    }
}

fn handoff_evidence(r: &Rounds) -> Vec<Fed> {
    let [a, b, c] = HANDOFF_ORDER;
    let (ab, bc) = (r.ratio(b, a), r.ratio(c, b));
    let steps: Vec<Estimate> = [ab, bc].into_iter().flatten().collect();
    let median = |k: &str| r.median(k).map_or("-".into(), |e| e.text("µs"));
    let ratio = |e: Option<Estimate>| e.map_or("-".into(), |e| e.text("×"));
    let text = format!(
        "{b} / {a} = {}, {c} / {b} = {}; medians {a} {}, {b} {}, {c} {}",
        ratio(ab),
        ratio(bc),
        median(a),
        median(b),
        median(c)
    );
    vec![fed(
        "seed003-handoff-order",
        Evidence::measured(steps, r.len(), 2, &format!(
            "paired ratios of per-round medians ({} rounds); the lock-free figure is a round trip averaged over many",
            r.len()
        ))
        .text(text),
    )]
}
