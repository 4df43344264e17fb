//! m-ary/Karatsuba: parallel m-ary (with precomputation, on demand) and slicing against
//! square-and-multiply and GMP. Every timed claim names the configurations that judge it
//! ([`crate::claims::mary_karatsuba::Timed`]); this experiment times all of them that this machine
//! can run without time-sharing and the profile's sizes include, beside the methods on 1 and
//! 2 threads for the chart, in paired rounds, and computes each claim's parts round by round.
use super::{
    change_pct, fastest, free_cores, free_cores_sample, int, measured, needs_threads, probe_counts,
    quality_note, round_config, strip, text,
};
use crate::bench::{Bench, Failures};
use crate::claims::mary_karatsuba::modexp::timed;
use crate::claims::mary_karatsuba::{Cut, MODEXP_BEST, Measure, PRODUCT, SQUARE, Setup, Timed};
use crate::error::{Error, Result};
use crate::study::estimate::sampled_s;
use crate::study::sampling::{self, Rounds, Values};
use crate::study::{
    Cell, Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Point,
    Profile, Provenance, Series, Table, fed, settled,
};
use parcrypt::modexp::{Kernel, ModExp, Params, Ring, Slicing, method, pow_mod_vartime};
use rug::Integer;
use std::time::Instant;

/// The exponentiation experiment of m-ary/Karatsuba (Karatsuba and hand-off are in `mary_karatsuba_mul`,
/// the MulMod counts and the slides' arithmetic in `mary_karatsuba_counts`).
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(ParallelModexp)]
}

struct ParallelModexp;

const PARALLEL: [&str; 3] = ["mary-precomp", "mary-ondemand", "slice"];

/// The sizes a profile runs: `--full` every size of the slides (32768 bits included),
/// `--quick` up to 8192.
pub fn sizes(profile: Profile) -> Vec<u32> {
    match profile {
        Profile::Quick => vec![1024, 2048, 4096, 8192],
        Profile::Full => vec![1024, 2048, 4096, 8192, 16384, 32768],
    }
}

/// Runs per configuration and round (the round keeps the fastest): a 1024-bit exponentiation
/// takes about a millisecond, where one late thread wake-up weighs most; at 4096 bits (about
/// 20 ms) the fastest of two, since one run a round left the 2-thread gains' intervals three
/// times as wide as the 1-thread ones (−22 % [−27, −12] against −24 % [−25, −23] in a quiet
/// quick study) and `mary-precomp-4096` differed between every pair of quick studies; from
/// 8192 bits (over 100 ms) one run.
fn repeats(bits: u32) -> u32 {
    if bits <= 2048 {
        3
    } else if bits <= 4096 {
        2
    } else {
        1
    }
}

/// Modular products per timed sample of the squaring/product micro-benchmark.
const MULMODS: usize = 256;

/// Why a timed claim cannot be judged here, as evidence: more threads than this machine has
/// (and which machine would test it), or sizes the profile skips (named).
fn gap(ctx: &Context, t: &Timed) -> Option<Evidence> {
    let needs = t.needs();
    if let Some(mut e) = needs_threads(ctx, needs) {
        e.unavailable = e.unavailable.map(|why| {
            format!("{why}; a machine with {needs} or more logical CPUs (the paper's E5-2650 v2 has 16) tests it")
        });
        return Some(e);
    }
    let run = sizes(ctx.profile);
    let skipped: Vec<String> = t
        .sizes()
        .into_iter()
        .filter(|b| !run.contains(b))
        .map(|b| b.to_string())
        .collect();
    (!skipped.is_empty()).then(|| {
        Evidence::not_run_in_profile(format!(
            "{} bits not run in the {} profile (--full runs them)",
            skipped.join(" and "),
            ctx.profile.name()
        ))
    })
}

/// Every setup to time here, in a stable order: square-and-multiply and GMP at every size,
/// the methods on 1 and 2 threads for the chart, then every setup of a timed claim this
/// machine and profile can judge.
fn plan(ctx: &Context, claims: &[Timed]) -> Vec<Setup> {
    let mut v = Vec::new();
    for &b in &sizes(ctx.profile) {
        v.push(Setup::binary(b));
        v.push(Setup::new("gmp", b, 1));
        for m in PARALLEL {
            for t in [1, 2] {
                if t == 2 || b <= 8192 {
                    v.push(Setup::new(m, b, t));
                }
            }
        }
    }
    for t in claims.iter().filter(|t| gap(ctx, t).is_none()) {
        v.extend(t.parts.iter().flat_map(Measure::setups));
    }
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(*s));
    v
}

/// A setup ready to time: the method and its parameters, or the ring of the squaring/product
/// micro-benchmark.
enum Runner {
    Modexp(Box<dyn ModExp>, Params),
    MulMod(Ring, Integer, Integer, bool),
}

/// One size: operands and every setup of that size, each checked against GMP once.
struct SizeCase {
    bits: u32,
    operands: (Integer, Integer, Integer),
    /// b^e mod m as GMP gives it: every timed exponentiation is checked against it.
    expected: Integer,
    setups: Vec<(Setup, Runner)>,
}

fn params(s: &Setup) -> Params {
    Params {
        threads: s.threads,
        window: s.window,
        precomp_threads: s.pt,
        slicing: match s.cut {
            Cut::Balanced => Slicing::Balanced,
            Cut::Even => Slicing::Even,
            Cut::Uneven => Slicing::Uneven,
        },
        pin: s.pin,
        ..Params::default()
    }
}

fn size_case(bits: u32, setups: &[Setup]) -> Result<SizeCase> {
    let (b, e, m) = crate::suites::modexp::operands(bits, 3);
    let expected = Integer::from(b.pow_mod_ref(&e, &m).expect("e >= 0"));
    let mut out = Vec::new();
    for s in setups.iter().filter(|s| s.bits == bits) {
        let runner = match s.method {
            SQUARE | PRODUCT => {
                let ring = Ring::new(&m, Kernel::Auto);
                let y = Integer::from(&b * 3u32) % &m;
                let (x, y) = (ring.enter(&b), ring.enter(&y));
                Runner::MulMod(ring, x, y, s.method == SQUARE)
            }
            name => {
                let meth = method(name)?;
                let p = params(s);
                if pow_mod_vartime(meth.as_ref(), &b, &e, &m, &p)?.value != expected {
                    return Err(Error::internal(format!(
                        "{} wrong at {bits} bits",
                        s.describe()
                    )));
                }
                Runner::Modexp(meth, p)
            }
        };
        out.push((*s, runner));
    }
    Ok(SizeCase {
        bits,
        operands: (b, e, m),
        expected,
        setups: out,
    })
}

/// One timed run of setup `j` of `case`, seconds; a failed or wrong exponentiation is noted in
/// `failures` after the clock stops.
fn run_once(case: &SizeCase, j: usize, failures: &mut Failures) -> f64 {
    let (setup, runner) = &case.setups[j];
    let (b, e, m) = &case.operands;
    let started = Instant::now();
    match runner {
        Runner::Modexp(meth, p) => {
            let o = std::hint::black_box(pow_mod_vartime(meth.as_ref(), b, e, m, p));
            let took = started.elapsed().as_secs_f64();
            let what = setup.describe();
            if let Some(o) = failures.note(&what, o) {
                failures.check(&what, o.value == case.expected);
            }
            return took;
        }
        Runner::MulMod(ring, x, y, square) => {
            let mut c = ring.counter("bench");
            let mut acc = x.clone();
            for _ in 0..MULMODS {
                if *square {
                    c.square(&mut acc);
                } else {
                    c.mul(&mut acc, y);
                }
            }
            std::hint::black_box(acc);
        }
    }
    started.elapsed().as_secs_f64()
}

/// One paired round: every setup of every size once (interleaved within a size), then a
/// free-core probe at every thread count a claim is judged on.
fn round(cases: &[SizeCase], probes: &[usize], i: usize) -> Result<Vec<(String, f64)>> {
    let mut failures = Failures::new();
    let mut out = Vec::new();
    for case in cases {
        let bench = Bench::new(round_config(i, repeats(case.bits)))?;
        let ms = bench.run_interleaved_by(case.setups.len(), |j| run_once(case, j, &mut failures));
        for ((s, _), ms) in case.setups.iter().zip(ms) {
            out.push((s.key(), fastest(&ms.samples)));
        }
    }
    out.extend(probes.iter().map(|&t| free_cores_sample(t)));
    failures.result()?;
    Ok(out)
}

impl Experiment for ParallelModexp {
    fn id(&self) -> &'static str {
        "mary-karatsuba-modexp"
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        sampled_s(profile, 28.7, 500.0)
    }
    fn run(&self, ctx: &Context) -> Result<Output> {
        let claims = timed();
        let setups = plan(ctx, &claims);
        let bits = sizes(ctx.profile);
        let cases = bits
            .iter()
            .map(|&b| size_case(b, &setups))
            .collect::<Result<Vec<_>>>()?;
        let probes = probe_counts(
            ctx,
            claims
                .iter()
                .filter(|t| t.claim.parallel && gap(ctx, t).is_none())
                .map(Timed::needs),
        );
        let evidence = |r: &Rounds| modexp_evidence(ctx, r, &claims);
        let rounds = sampling::measure(
            &ctx.plan.handing_data(),
            |i| round(&cases, &probes, i),
            |r| settled(&evidence(r)),
        )?;
        let quality = rounds.quality();
        let judged = claims
            .iter()
            .filter(|t| !t.parts.is_empty() && gap(ctx, t).is_none())
            .count();
        let result = ExperimentResult::new(
            self.id(),
            self.paper_id(),
            "Parallel modular exponentiation against square-and-multiply",
            "m-ary with precomputation, m-ary on demand, slicing (results and wrap-up slides)",
            Provenance::Measured,
            format!(
                "b^e mod m with e and m of {} bits, every configuration checked against GMP; time change against binary \
                 square-and-multiply (negative = faster), paired round by round. {} configurations timed here ({} logical CPUs): \
                 the methods on 1 and 2 threads, and every configuration of the {judged} claims this machine can judge; the \
                 other {} claims need more threads or sizes (their reasons say which). {}",
                bits.iter()
                    .map(|b| b.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                setups.len(),
                ctx.machine.logical_cores,
                claims.len() - judged,
                quality_note(&quality, "3 interleaved runs (1 from 4096 bits)")
            ),
        )
        .with_table(table(&rounds, &setups))
        .with_charts(charts(&rounds, &bits))
        .with_quality(quality);
        Ok(Output {
            result,
            evidence: crate::study::set_aside_checked(&rounds, evidence),
        })
    }
}

/// Time change against binary (paired) of a setup, with its interval.
fn vs_binary(r: &Rounds, s: &Setup) -> Option<Estimate> {
    r.ratio(&s.key(), &Setup::binary(s.bits).key())
        .map(|e| e.map(change_pct))
}

fn table(r: &Rounds, setups: &[Setup]) -> Table {
    let mut table = Table::new(&[
        "bits",
        "method",
        "threads",
        "precomp_thread_count",
        "window_bits",
        "variant",
        "median_s",
        "vs_binary_pct",
        "vs_gmp_x",
        "seed_claim",
    ]);
    for s in setups {
        let k = s.key();
        let claim = MODEXP_BEST
            .iter()
            .find(|c| c.0 == s.method && c.1 == s.bits && s.threads == 2 && s.window.is_none())
            .map_or("", |c| c.3);
        let variant = match (s.cut, s.pin) {
            (Cut::Even, _) => "even slices",
            (Cut::Uneven, _) => "uneven slices",
            (_, true) => "pinned",
            _ => "",
        };
        let mulmod = matches!(s.method, SQUARE | PRODUCT);
        table.push(vec![
            int(s.bits),
            text(s.method),
            int(s.threads),
            s.pt.map_or(Cell::Missing, int),
            s.window.map_or(Cell::Missing, int),
            text(variant),
            measured(r.median(&k), "s"),
            if mulmod {
                Cell::Missing
            } else {
                measured(vs_binary(r, s), "%")
            },
            if mulmod {
                Cell::Missing
            } else {
                measured(r.ratio(&k, &Setup::new("gmp", s.bits, 1).key()), "×")
            },
            text(claim),
        ]);
    }
    table
}

fn charts(r: &Rounds, bits: &[u32]) -> Vec<Chart> {
    let mut ours = Chart::line(
        "Time change against square-and-multiply at 2 threads (measured, 95 % intervals)",
        "key size (bits)",
        "time change vs binary (%)",
        true,
    );
    // A method's change per key size, with the rounds' changes behind each point.
    let series = |name: String, m: &'static str, t: usize| -> Series {
        let setups = bits.iter().map(|&b| Setup::new(m, b, t));
        let points = setups
            .clone()
            .filter_map(|s| {
                vs_binary(r, &s).map(|e| Point::with_ci(f64::from(s.bits), e.value, e.low, e.high))
            })
            .collect();
        let each = setups.flat_map(|s| {
            let (k, bin) = (s.key(), Setup::binary(s.bits).key());
            strip(r, f64::from(s.bits), |v| change_pct(v(&k) / v(&bin)))
        });
        Series::new(name, points, Provenance::Measured).with_rounds(each)
    };
    for m in PARALLEL {
        ours = ours.with(series(format!("{m}, 2 threads"), m, 2));
    }
    ours = ours.with(series("gmp".into(), "gmp", 1));
    let paper = PARALLEL.iter().fold(
        Chart::line(
            "The seed's best figures (paper, up to 8 threads)",
            "key size (bits)",
            "time change vs binary (%)",
            true,
        ),
        |c, m| {
            c.with(Series::from_xy(
                format!("{m} (paper)"),
                MODEXP_BEST
                    .iter()
                    .filter(|x| x.0 == *m)
                    .map(|x| (f64::from(x.1), x.2)),
                Provenance::Paper,
            ))
        },
    );
    vec![ours, paper]
}

/// A part's figure in one round, from the setups' times (NaN when one is missing).
fn eval(m: &Measure, v: &Values) -> f64 {
    let t = |s: &Setup| v(&s.key());
    let change = |s: &Setup| (t(s) / t(&Setup::binary(s.bits)) - 1.0) * 100.0;
    let all = |ss: &[Setup], f: &dyn Fn(&Setup) -> f64| -> Option<Vec<f64>> {
        let x: Vec<f64> = ss.iter().map(f).collect();
        x.iter().all(|x| x.is_finite()).then_some(x)
    };
    let least = |x: Vec<f64>| x.into_iter().fold(f64::INFINITY, f64::min);
    let best = |ss: &[Setup]| all(ss, &change).map_or(f64::NAN, least);
    match m {
        Measure::Change(s) => change(s),
        Measure::Best(ss) => best(ss),
        Measure::KthBest(k, ss) => all(ss, &change).map_or(f64::NAN, |mut x| {
            x.sort_by(f64::total_cmp);
            x.get(k.saturating_sub(1)).copied().unwrap_or(f64::NAN)
        }),
        Measure::Mean(ss) => {
            all(ss, &change).map_or(f64::NAN, |x| x.iter().sum::<f64>() / x.len() as f64)
        }
        Measure::Ratio(a, b) => match (all(a, &t), all(b, &t)) {
            (Some(x), Some(y)) => least(x) / least(y),
            _ => f64::NAN,
        },
        Measure::RatioOfRatios([a, b, c, d]) => (t(a) / t(b)) / (t(c) / t(d)),
        Measure::CountDiff(a, b) => match (all(a, &change), all(b, &change)) {
            (Some(x), Some(y)) => {
                let wins = |z: Vec<f64>| z.iter().filter(|c| **c < 0.0).count() as f64;
                wins(x) - wins(y)
            }
            _ => f64::NAN,
        },
        Measure::ChangeDiff(a, b) => change(a) - change(b),
        Measure::MeanDiff(a, b) => match (all(a, &change), all(b, &change)) {
            (Some(x), Some(y)) => {
                let mean = |z: Vec<f64>| z.iter().sum::<f64>() / z.len().max(1) as f64;
                mean(x) - mean(y)
            }
            _ => f64::NAN,
        },
        Measure::Spread(groups) => {
            let bests: Vec<f64> = groups.iter().map(|g| best(g)).collect();
            let hi = bests.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            hi - least(bests)
        }
        Measure::SquareOverProduct(b) => {
            t(&Setup::new(SQUARE, *b, 1)) / t(&Setup::new(PRODUCT, *b, 1))
        }
    }
}

fn modexp_evidence(ctx: &Context, r: &Rounds, claims: &[Timed]) -> Vec<Fed> {
    claims
        .iter()
        .map(|t| {
            let id = &t.claim.id;
            if t.claim.kind == crate::results::Kind::NotTestable {
                return fed(
                    id,
                    Evidence::report("not timed: not testable here (see why)"),
                );
            }
            if let Some(g) = gap(ctx, t) {
                return fed(id, g);
            }
            let estimates: Vec<Estimate> = t
                .parts
                .iter()
                .filter_map(|m| r.paired(|v| eval(m, v)))
                .collect();
            let threads = t.needs();
            let mut e = Evidence::measured(
                estimates,
                r.len(),
                threads,
                &format!(
                    "{} per paired round ({} rounds, {threads} thread(s) at most)",
                    t.claim.metric,
                    r.len()
                ),
            );
            if t.claim.parallel {
                e = e.free_cores(free_cores(ctx, r, threads));
            }
            // The methods' best figures show their 1-thread change beside.
            if let [Measure::Change(s)] = t.parts.as_slice()
                && MODEXP_BEST.iter().any(|b| b.0 == s.method && b.1 == s.bits)
                && s.threads == 2
            {
                let one = vs_binary(r, &Setup::new(s.method, s.bits, 1))
                    .map_or("-".into(), |e| e.text("%"));
                e = e.beside(format!("1 thread: {one}"));
            }
            fed(id, e)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::claims::mary_karatsuba::modexp::timed;

    fn ctx(cpus: usize, profile: Profile) -> Context {
        let mut c = Context::new(profile);
        c.machine.logical_cores = cpus;
        c
    }

    #[test]
    fn claims_run_where_the_cpus_and_sizes_exist_and_say_why_not_elsewhere() {
        let claims = timed();
        let small = ctx(2, Profile::Quick);
        let big = ctx(16, Profile::Full);
        let find = |id: &str| claims.iter().find(|t| t.claim.id == id).unwrap();
        // 8 threads: not testable on 2 CPUs, run on 16.
        let eight = find("mary-karatsuba-precomp-1024-8thr");
        let e = gap(&small, eight).unwrap();
        assert_eq!(e.gap, Some(crate::results::Reason::NeedsThreads(8)));
        assert!(e.unavailable.unwrap().contains("16"));
        assert!(gap(&big, eight).is_none());
        // 32768 bits: skipped by --quick, named in the reason; run by --full.
        let large = find("mary-karatsuba-ondemand-32768-2thr");
        let e = gap(&small, large).unwrap();
        assert_eq!(e.gap, Some(crate::results::Reason::NotRunInProfile));
        assert!(e.unavailable.unwrap().contains("32768"));
        assert!(gap(&ctx(2, Profile::Full), large).is_none());
        // Every claim judged on 2 CPUs is in the 2-CPU plan; the 16-CPU plan is larger.
        let p2 = plan(&small, &claims);
        for t in claims.iter().filter(|t| gap(&small, t).is_none()) {
            for s in t.parts.iter().flat_map(Measure::setups) {
                assert!(p2.contains(&s), "{}: {}", t.claim.id, s.key());
                if t.table_shares {
                    // 4 table threads time-share 2 CPUs: their table is a sliver (counted in
                    // mary_karatsuba_counts' tests).
                    assert!(s.needs_sharing_table() <= 2);
                    assert!(s.pt.is_none_or(|p| p == 4), "{}", s.key());
                } else {
                    assert!(s.needs() <= 2);
                }
            }
        }
        assert!(plan(&big, &claims).len() > p2.len());
        // The 1-thread halves with 4 table threads are judged on 2 CPUs, the 4-thread half not.
        assert!(gap(&small, find("mary-karatsuba-precomp-4096-1thr-4pt")).is_none());
        assert!(gap(&small, find("mary-karatsuba-precomp-1024-1thr-4pt")).is_none());
        assert!(gap(&small, find("mary-karatsuba-precomp-4096-4pt")).is_some());
        // Nothing pinned is timed: the affinity claims are not testable on any machine here.
        assert!(plan(&big, &claims).iter().all(|s| !s.pin));
    }

    #[test]
    fn parts_are_computed_round_by_round_from_the_setups_times() {
        let s = |m, t| Setup::new(m, 1024, t);
        let bin = Setup::binary(1024);
        let times = [
            (bin, 10.0),
            (s("slice", 2), 8.0),
            (s("slice", 1), 12.0),
            (s("mary-precomp", 2), 7.0),
        ];
        let v = |k: &str| {
            times
                .iter()
                .find(|(x, _)| x.key() == k)
                .map_or(f64::NAN, |x| x.1)
        };
        let change = eval(&Measure::Change(s("slice", 2)), &v);
        assert!((change + 20.0).abs() < 1e-9);
        let all = vec![s("slice", 2), s("slice", 1), s("mary-precomp", 2)];
        assert!((eval(&Measure::Best(all.clone()), &v) + 30.0).abs() < 1e-9);
        assert!((eval(&Measure::KthBest(2, all.clone()), &v) + 20.0).abs() < 1e-9);
        assert_eq!(
            eval(&Measure::CountDiff(all.clone(), vec![s("slice", 1)]), &v),
            2.0
        );
        assert!(
            (eval(
                &Measure::Ratio(
                    vec![s("slice", 2)],
                    vec![s("slice", 1), s("mary-precomp", 2)]
                ),
                &v
            ) - 8.0 / 7.0)
                .abs()
                < 1e-9
        );
        assert!((eval(&Measure::ChangeDiff(s("slice", 1), s("slice", 2)), &v) - 40.0).abs() < 1e-9);
        assert!(
            eval(&Measure::Best(vec![s("mary-ondemand", 2)]), &v).is_nan(),
            "a missing setup gives no figure"
        );
    }

    #[test]
    fn the_change_chart_draws_the_rounds_behind_its_points() {
        let bits = [1024, 2048];
        let keys: Vec<String> = bits
            .iter()
            .flat_map(|&b| {
                PARALLEL
                    .iter()
                    .map(move |m| Setup::new(m, b, 2))
                    .chain([Setup::new("gmp", b, 1), Setup::binary(b)])
            })
            .map(|s| s.key())
            .collect();
        let charts = charts(&crate::study::experiments::varied_rounds(&keys, 5), &bits);
        assert_eq!(charts[0].series.len(), PARALLEL.len() + 1);
        crate::study::experiments::assert_rounds_behind_points(&charts[0], 5);
        // The paper's figures have no rounds.
        assert!(charts[1].series.iter().all(|s| s.rounds.is_empty()));
    }
}
