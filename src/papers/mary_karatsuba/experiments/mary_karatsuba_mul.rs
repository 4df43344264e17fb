//! m-ary/Karatsuba: parallel Karatsuba against GMP's `mpz_mul`, and the cost of activating a thread.
//! Each round runs the products every timed claim names ([`KaraTimed`]) that this machine can
//! run without time-sharing — grouped into as few benchmark plans as share sizes and thread
//! counts — and one set of activations; the claims are judged on paired per-round ratios.
use super::{
    free_cores, free_cores_sample, int, measured, needs_threads, opt, probe_counts, probe_threads,
    quality_note, round_config, runs_text, strip, text,
};
use crate::bench::BenchConfig;
use crate::claims::mary_karatsuba::mul::{
    KaraMeasure, KaraTimed, Product, handoff, karatsuba, product_key,
};
use crate::claims::mary_karatsuba::{HANDOFF_US, KARATSUBA_US, karatsuba_us, karatsuba_vs_gmp};
use crate::error::Result;
use crate::study::estimate::sampled_s;
use crate::study::sampling::{self, Rounds, Values};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Point, Profile,
    Provenance, Series, Table, fed, settled,
};
use crate::suites::mul::MulBenchPlan;
use parcrypt::mul::KaraConfig;
use rug::Integer;
use std::collections::BTreeSet;
use std::time::Instant;

/// The multiplication experiments of m-ary/Karatsuba.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Karatsuba), Box::new(Handoff)]
}

struct Karatsuba;

/// Batches per method, size and round (the round keeps the fastest).
const REPEATS: u32 = 3;

/// The methods on the chart, on 2 threads.
const CHART: [&str; 5] = [
    "gmp",
    "kara-seq",
    "kara-lockfree",
    "kara-pool",
    "kara-rayon",
];

fn bits() -> Vec<u32> {
    KARATSUBA_US.iter().map(|r| r.0).collect()
}

/// Why a timed claim cannot be judged here: more threads than this machine has.
fn gap(ctx: &Context, t: &KaraTimed) -> Option<Evidence> {
    let needs = t.needs();
    needs_threads(ctx, needs).map(|mut e| {
        e.unavailable = e.unavailable.map(|why| {
            format!("{why}; a machine with {needs} or more logical CPUs (the slides' i7-2600 has 8) tests it")
        });
        e
    })
}

/// Rows beyond the paper, judging none of its claims: the small-prime NTT product and
/// `par-gmp` (GMP's product split over the threads, the NTT above its measured threshold), on
/// 2 threads, beside the paper's Karatsuba and GMP; at the sizes [`beyond_bits`] gives.
const BEYOND: [&str; 2] = ["ntt", "par-gmp"];

/// The sizes of the [`BEYOND`] rows: from 16384 bits in a full study (below it the NTT is
/// many times GMP's time), none in a quick one: at every size they added a quarter to the
/// experiment's time, and at the largest alone 8 s (44 s against 36, on the Zen 4 VM), which
/// the quick study's 5 minutes cannot spare.
fn beyond_bits(profile: Profile) -> Vec<u32> {
    match profile {
        Profile::Full => bits().into_iter().filter(|&b| b >= 16384).collect(),
        Profile::Quick => Vec::new(),
    }
}

/// Every product to time here: the chart's methods on 2 threads at every size, the rows
/// beyond the paper ([`BEYOND`]), and every product of a claim this machine can judge.
fn products(ctx: &Context, claims: &[KaraTimed]) -> BTreeSet<(bool, &'static str, u32, usize)> {
    let mut v = BTreeSet::new();
    let beyond = beyond_bits(ctx.profile);
    for b in bits() {
        let extra = beyond.contains(&b).then_some(BEYOND).into_iter().flatten();
        for m in CHART.into_iter().chain(extra) {
            let t = if matches!(m, "gmp" | "kara-seq") {
                1
            } else {
                2
            };
            v.insert((false, m, b, t));
        }
    }
    for c in claims.iter().filter(|c| gap(ctx, c).is_none()) {
        for p in c.parts.iter().flat_map(KaraMeasure::products) {
            v.insert((p.pin, p.method, p.bits, p.threads));
        }
    }
    v
}

/// One benchmark plan of a round: the methods that share pinning, sizes and parallel thread
/// counts.
#[derive(Clone, Debug, PartialEq)]
struct Group {
    pin: bool,
    bits: Vec<u32>,
    threads: Vec<usize>,
    methods: Vec<String>,
}

/// The sizes and parallel thread counts each (pinning, method) needs.
type Needs<'a> = std::collections::BTreeMap<(bool, &'a str), (BTreeSet<u32>, BTreeSet<usize>)>;

/// The products grouped into benchmark plans: one per (pinning, sizes, parallel thread
/// counts), with the methods sharing them (GMP is in every plan, as its baseline).
fn plans(products: &BTreeSet<(bool, &'static str, u32, usize)>) -> Vec<Group> {
    let mut by_method = Needs::default();
    for &(pin, m, b, t) in products {
        let e = by_method.entry((pin, m)).or_default();
        e.0.insert(b);
        if !matches!(m, "gmp" | "kara-seq") {
            e.1.insert(t);
        }
    }
    let mut groups: Vec<Group> = Vec::new();
    for ((pin, m), (b, t)) in by_method {
        let (bits, threads): (Vec<u32>, Vec<usize>) =
            (b.into_iter().collect(), t.into_iter().collect());
        let fits = |g: &Group| {
            g.pin == pin
                && g.bits == bits
                && (g.threads == threads || threads.is_empty() || g.threads.is_empty())
        };
        match groups.iter_mut().find(|g| fits(g)) {
            Some(g) => {
                if g.threads.is_empty() {
                    g.threads = threads;
                }
                g.methods.push(m.to_string());
            }
            None => groups.push(Group {
                pin,
                bits,
                threads,
                methods: vec![m.to_string()],
            }),
        }
    }
    for g in &mut groups {
        if g.threads.is_empty() {
            g.threads = vec![2];
        }
    }
    groups
}

fn key(pin: bool, method: &str, bits: u32, threads: usize) -> String {
    product_key(method, bits, threads, pin)
}

/// Seconds of products per timed batch, in both profiles.
const BATCH_S: f64 = 0.005;

fn mul_round(
    _profile: Profile,
    plans: &[Group],
    probes: &[usize],
    i: usize,
) -> Result<Vec<(String, f64)>> {
    let mut out = Vec::new();
    for g in plans {
        let (pin, methods) = (&g.pin, &g.methods);
        let plan = MulBenchPlan {
            bits: g.bits.clone(),
            methods: methods.clone(),
            threads: g.threads.clone(),
            kara: KaraConfig {
                pin: *pin,
                ..KaraConfig::default()
            },
            // The seed's: GMP multiplies the leaves the paper's Karatsuba forms are judged on.
            leaves: vec![parcrypt::mul::Leaves::Gmp],
            seed: 3,
            config: round_config(i, REPEATS),
            // One batch length in both profiles, so quick and full time the same thing: the
            // condvar pool's products wake parked or spinning helpers depending on what ran
            // just before, and a profile-dependent batch was one of the differences between
            // the profiles' pool-against-spawn verdicts (the profiles now differ only in rounds).
            batch_s: BATCH_S,
            // The round's own free-core and cross-core probes stand for the per-size ones.
            probe_each_size: false,
        };
        let recs = crate::suites::mul::run(&plan, |_, _, _| {})?;
        for r in &recs {
            if r.method == "gmp" && (*pin || methods.iter().all(|m| m != "gmp")) {
                continue; // only the plan that asked for GMP records it
            }
            out.push((key(*pin, &r.method, r.bits, r.threads), r.timing.min_s));
        }
    }
    out.extend(probes.iter().map(|&t| free_cores_sample(t)));
    Ok(out)
}

impl Experiment for Karatsuba {
    fn id(&self) -> &'static str {
        "mary-karatsuba-karatsuba"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        sampled_s(profile, 15.6, 60.0)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let profile = ctx.profile;
        let claims = karatsuba();
        let products = products(ctx, &claims);
        let plans = plans(&products);
        let probes = probe_counts(
            ctx,
            claims
                .iter()
                .filter(|c| c.claim.parallel && gap(ctx, c).is_none())
                .map(KaraTimed::needs),
        );
        let evidence = |r: &Rounds| kara_evidence(ctx, r, &claims);
        let rounds = sampling::measure(
            &ctx.plan.handing_data(),
            |i| mul_round(profile, &plans, &probes, i),
            |r| settled(&evidence(r)),
        )?;
        let table = table(ctx, &rounds, &products);
        let chart = chart(&rounds);
        let quality = rounds.quality();
        let judged = claims
            .iter()
            .filter(|c| !c.parts.is_empty() && gap(ctx, c).is_none())
            .count();
        let result = ExperimentResult::new(
            self.id(),
            self.paper_id(),
            "Parallel Karatsuba against GMP",
            "Karatsuba slides (GMP against sequential Karatsuba; parallel results on 3 threads)",
            Provenance::Measured,
            format!(
                "µs per product (batches timed and divided) at {} bits for GMP, one-level Karatsuba with GMP halves, and its \
                 parallel forms; every product checked against GMP first. {} products timed on {} logical CPUs: the chart's forms \
                 on 2 threads and every product of the {judged} claims this machine can judge (the slides' 3-thread results need 3 \
                 CPUs; on 2 the condvar and lock-free slides are judged on 2 threads in scaled form). The ntt and par-gmp rows (from 16384 bits, --full only) are beyond the paper and judge none of its claims: the small-prime NTT product, and GMP's product split over 2 threads with the NTT above its measured threshold. 'capacity_x' is the throughput the threads of a parallel product get from independent GMP products against one thread, the round's free-core probe (one per round, not per size). {}",
                bits()
                    .iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                products.len(),
                ctx.machine.logical_cores,
                quality_note(&quality, &runs_text(REPEATS))
            ),
        )
        .with_table(table)
        .with_charts(vec![chart])
        .with_quality(quality);
        Ok(Output {
            result,
            evidence: crate::study::set_aside_checked(&rounds, evidence),
        })
    }
}

/// Every product timed: µs, against GMP, the slides' figures, and for a parallel product the
/// capacity the round's free-core probe found for its threads (free fraction × threads).
fn table(
    ctx: &Context,
    rounds: &Rounds,
    products: &BTreeSet<(bool, &'static str, u32, usize)>,
) -> Table {
    let mut table = Table::new(&[
        "bits",
        "method",
        "threads",
        "pinned",
        "product_us",
        "vs_gmp_x",
        "seed_us",
        "seed_vs_gmp_x",
        "capacity_x",
    ]);
    for &(pin, m, b, t) in products {
        let k = key(pin, m, b, t);
        let seed_vs = if m == "kara-seq" {
            karatsuba_us("kara-seq", b)
                .zip(karatsuba_us("gmp", b))
                .map(|(k, g)| k / g)
        } else if t == 3 {
            karatsuba_vs_gmp(m, b).map(|v| 1.0 + v)
        } else {
            None
        };
        table.push(vec![
            int(b),
            text(m),
            int(t),
            text(if pin { "yes" } else { "" }),
            measured(rounds.median(&k).map(|e| e.map(|x| x * 1e6)), "µs"),
            measured(rounds.ratio(&k, &key(false, "gmp", b, 1)), "×"),
            opt(karatsuba_us(m, b)),
            opt(seed_vs),
            measured(
                (t > 1)
                    .then(|| free_cores(ctx, rounds, t))
                    .flatten()
                    .map(|e| e.map(|x| x * probe_threads(ctx, t) as f64)),
                "×",
            ),
        ]);
    }
    table
}

/// Time relative to GMP against operand size for the chart's forms on 2 threads, with the
/// slides' figures.
fn chart(rounds: &Rounds) -> Chart {
    let mut chart = Chart::line(
        "Time relative to GMP mpz_mul at the same size (1 = GMP), 2 threads, 95 % intervals",
        "operand size (bits)",
        "time / GMP time",
        true,
    )
    .note("1 on the y axis is GMP's mpz_mul measured in the same round; below it a form beats GMP. The paper's parallel figures are from 3 threads.");
    for m in CHART.iter().filter(|m| **m != "gmp") {
        let t = if *m == "kara-seq" { 1 } else { 2 };
        let (mut points, mut each) = (Vec::new(), Vec::new());
        for b in bits() {
            let (k, gmp) = (key(false, m, b, t), key(false, "gmp", b, 1));
            points.extend(
                rounds
                    .ratio(&k, &gmp)
                    .map(|e| Point::with_ci(f64::from(b), e.value, e.low, e.high)),
            );
            each.extend(strip(rounds, f64::from(b), |v| v(&k) / v(&gmp)));
        }
        chart = chart.with(Series::new(*m, points, Provenance::Measured).with_rounds(each));
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
        ));
    chart
}

fn eval(m: &KaraMeasure, v: &Values) -> f64 {
    let t = |p: &Product| v(&p.key());
    match m {
        KaraMeasure::Change(a, b) => (t(a) / t(b) - 1.0) * 100.0,
        KaraMeasure::Ratio(a, b) => {
            let den: Vec<f64> = b.iter().map(t).collect();
            if den.iter().all(|x| x.is_finite()) {
                t(a) / den.into_iter().fold(f64::INFINITY, f64::min)
            } else {
                f64::NAN
            }
        }
        KaraMeasure::RatioOfRatios([a, b, c, d]) => (t(a) / t(b)) / (t(c) / t(d)),
    }
}

fn kara_evidence(ctx: &Context, r: &Rounds, claims: &[KaraTimed]) -> Vec<Fed> {
    claims
        .iter()
        .map(|c| {
            if c.claim.kind == crate::results::Kind::NotTestable {
                return fed(
                    &c.claim.id,
                    Evidence::report("not timed: not testable here (see why)"),
                );
            }
            if let Some(g) = gap(ctx, c) {
                return fed(&c.claim.id, g);
            }
            let estimates: Vec<Estimate> = c
                .parts
                .iter()
                .filter_map(|m| r.paired(|v| eval(m, v)))
                .collect();
            let threads = c.needs();
            let mut e = Evidence::measured(
                estimates,
                r.len(),
                threads,
                &format!("{} per paired round ({} rounds)", c.claim.metric, r.len()),
            );
            if c.claim.parallel {
                e = e.free_cores(free_cores(ctx, r, threads));
            }
            fed(&c.claim.id, e)
        })
        .collect()
}

struct Handoff;

/// GMP products per timed sample of the product beside the activations.
const PRODUCTS: u32 = 64;

/// The key of the µs of one GMP product at `bits` beside the activations.
fn gmp_key(bits: u32) -> String {
    format!("gmp-{bits}")
}

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
    let mut out: Vec<(String, f64)> = recs
        .iter()
        .map(|r| (r.primitive.clone(), r.median_us))
        .collect();
    for bits in [4096u32, 8192] {
        let (a, b) = parcrypt::mul::operands(bits, 3);
        let best = (0..5)
            .map(|_| {
                let started = Instant::now();
                for _ in 0..PRODUCTS {
                    std::hint::black_box(Integer::from(&a * &b));
                }
                started.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min);
        out.push((gmp_key(bits), best / f64::from(PRODUCTS) * 1e6));
    }
    out.push(free_cores_sample(2));
    Ok(out)
}

impl Experiment for Handoff {
    fn id(&self) -> &'static str {
        "mary-karatsuba-handoff"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        sampled_s(profile, 3.2, 5.2)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let profile = ctx.profile;
        let rounds = sampling::measure(
            &ctx.plan.handing_data(),
            |i| handoff_round(profile, i),
            |r| settled(&handoff_evidence(ctx, r)),
        )?;
        let (table, chart) = handoff_table_chart(&rounds);
        let quality = rounds.quality();
        let result = ExperimentResult::new(
            self.id(),
            self.paper_id(),
            "Thread activation costs",
            "Thread activation table",
            Provenance::Measured,
            format!(
                "Median µs per round of: spawning a thread (until it runs), spawn + join, waking a condvar waiter pinned to \
                 another core and to the same core, a lock-free atomic ping-pong round trip, and (beside) one GMP product at \
                 4096 and 8192 bits; {} logical CPUs. {} paired rounds, each the median of its activations; median 95 % \
                 interval ±{:.1} %{}.",
                ctx.machine.logical_cores,
                quality.rounds,
                quality.spread_pct,
                if quality.noisy { "; noisy" } else { "" }
            ),
        )
        .with_table(table)
        .with_charts(vec![chart])
        .with_quality(quality);
        Ok(Output {
            result,
            evidence: crate::study::set_aside_checked(&rounds, |r| handoff_evidence(ctx, r)),
        })
    }
}

/// The activations' table and bar chart: per primitive (and GMP product) timed, the median
/// µs with the rounds' µs behind it, beside the slides' range.
fn handoff_table_chart(rounds: &Rounds) -> (Table, Chart) {
    let mut table = Table::new(&["primitive", "median_us", "seed_low_us", "seed_high_us"]);
    let categories: Vec<String> = rounds
        .keys()
        .iter()
        .filter(|k| !k.starts_with(sampling::PROBE))
        .cloned()
        .collect();
    let (mut ours, mut each, mut lo_pts, mut hi_pts) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
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
        each.extend(strip(rounds, i as f64, |v| v(k)));
        if let Some(s) = seed {
            lo_pts.push((i as f64, s.1));
            hi_pts.push((i as f64, s.2));
        }
    }
    let chart = Chart::bar(
        "Thread activation (µs, median)",
        "primitive",
        "µs",
        categories,
    )
    .with(Series::new("ours", ours, Provenance::Measured).with_rounds(each))
    .with(Series::from_xy("paper (low)", lo_pts, Provenance::Paper))
    .with(Series::from_xy("paper (high)", hi_pts, Provenance::Paper));
    (table, chart)
}

/// An activation's µs in one round: the lock-free figure is a round trip, so half of it is
/// one hand-off.
fn activation_us(v: &Values, name: &str) -> f64 {
    let x = v(name);
    if name == "lockfree-handoff" {
        x / 2.0
    } else {
        x
    }
}

fn handoff_evidence(ctx: &Context, r: &Rounds) -> Vec<Fed> {
    handoff()
        .into_iter()
        .map(|(claim, parts)| {
            let estimates: Vec<Estimate> = parts
                .iter()
                .filter_map(|&(a, b)| match b {
                    // Ratios compare the activations as measured (round trips included).
                    Some(b) => r.ratio(a, b),
                    None => r.paired(|v| activation_us(v, a)),
                })
                .collect();
            let text = parts
                .iter()
                .zip(&estimates)
                .map(|(&(a, b), e)| match b {
                    Some(b) => format!("{a} / {b} = {}", e.text("×")),
                    None => format!("{a} {}", e.text("µs")),
                })
                .collect::<Vec<_>>()
                .join("; ");
            fed(
                &claim.id,
                Evidence::measured(
                    estimates,
                    r.len(),
                    2,
                    &format!(
                        "per-round medians of the activations, paired ({} rounds); the lock-free µs is half a measured round trip",
                        r.len()
                    ),
                )
                .text(text)
                .free_cores(free_cores(ctx, r, 2)),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rows_beyond_the_paper_are_timed_at_their_sizes_only() {
        assert!(beyond_bits(Profile::Quick).is_empty());
        assert_eq!(beyond_bits(Profile::Full), vec![16384, 32768, 65536]);
        let mut ctx = Context::new(Profile::Full);
        ctx.machine.logical_cores = 2;
        let p = products(&ctx, &karatsuba());
        let ntt: Vec<u32> = p.iter().filter(|x| x.1 == "ntt").map(|x| x.2).collect();
        assert_eq!(ntt, vec![16384, 32768, 65536]);
        assert!(p.contains(&(false, "par-gmp", 65536, 2)));
    }

    #[test]
    fn products_group_into_few_plans_that_cover_them_all() {
        let mut ctx = Context::new(Profile::Quick);
        ctx.machine.logical_cores = 2;
        let claims = karatsuba();
        let p = products(&ctx, &claims);
        let groups = plans(&p);
        assert_eq!(groups.len(), 2, "chart forms, spawn/scoped: {groups:?}");
        assert!(
            p.iter().all(|x| !x.0),
            "nothing pinned: the affinity claim is not testable"
        );
        let asks_gmp = |g: &&Group| g.methods.iter().any(|m| m == "gmp");
        assert_eq!(groups.iter().filter(asks_gmp).count(), 1);
        for &(pin, m, b, t) in &p {
            assert!(
                groups.iter().any(|g| g.pin == pin
                    && g.bits.contains(&b)
                    && g.methods.iter().any(|x| x == m)
                    && (matches!(m, "gmp" | "kara-seq") || g.threads.contains(&t))),
                "{m} {b} {t} {pin}"
            );
        }
        assert!(p.iter().all(|x| x.3 <= 2), "no 3-thread product on 2 CPUs");
        // One helper made per product tests "worse/equal up to 16384 bits" on 2 CPUs.
        let simple = claims
            .iter()
            .find(|c| c.claim.id == "mary-karatsuba-kara3-simple-worse")
            .unwrap();
        assert!(gap(&ctx, simple).is_none() && simple.needs() == 2);
        ctx.machine.logical_cores = 3;
        let p3 = products(&ctx, &claims);
        assert!(p3.iter().any(|x| x.3 == 3) && p3.len() > p.len());
        assert!(claims.iter().all(|c| gap(&ctx, c).is_none()));
    }

    #[test]
    fn the_karatsuba_and_activation_charts_draw_the_rounds_behind_their_points() {
        use crate::study::experiments::{assert_rounds_behind_points, varied_rounds};
        let keys: Vec<String> = bits()
            .into_iter()
            .flat_map(|b| {
                CHART.iter().map(move |m| {
                    key(
                        false,
                        m,
                        b,
                        if matches!(*m, "gmp" | "kara-seq") {
                            1
                        } else {
                            2
                        },
                    )
                })
            })
            .collect();
        assert_rounds_behind_points(&chart(&varied_rounds(&keys, 5)), 5);
        let keys: Vec<String> = HANDOFF_US
            .iter()
            .map(|h| h.0.to_string())
            .chain([gmp_key(4096), super::super::free_cores_key(2)])
            .collect();
        let (table, chart) = handoff_table_chart(&varied_rounds(&keys, 5));
        assert_eq!(
            table.rows.len(),
            keys.len() - 1,
            "the probe is no primitive"
        );
        assert_rounds_behind_points(&chart, 5);
    }
}
