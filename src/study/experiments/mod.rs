//! The experiments of the study, one file per seed paper (or part of one), and the helpers
//! they share. Each experiment measures or models, builds its table and charts, and returns
//! evidence for the claims the registry gives it; none decides a verdict.
#[path = "../../papers/cipher_energy/experiments/cipher_energy.rs"]
pub mod cipher_energy;
#[path = "../../papers/crsa/experiments/crsa.rs"]
pub mod crsa;
#[path = "../../papers/crsa/experiments/crsa_counts.rs"]
pub mod crsa_counts;
#[path = "../../papers/mary_karatsuba/experiments/mary_karatsuba.rs"]
pub mod mary_karatsuba;
#[path = "../../papers/mary_karatsuba/experiments/mary_karatsuba_counts.rs"]
pub mod mary_karatsuba_counts;
#[path = "../../papers/mary_karatsuba/experiments/mary_karatsuba_mul.rs"]
pub mod mary_karatsuba_mul;
#[path = "../../papers/mary_karatsuba/experiments/mary_karatsuba_paper.rs"]
pub mod mary_karatsuba_paper;
pub mod mpi_runs;
#[path = "../../papers/parsa/experiments/parsa.rs"]
pub mod parsa;
#[path = "../../papers/parsa/experiments/parsa_dse.rs"]
pub mod parsa_dse;
#[path = "../../papers/parsa/experiments/parsa_energy.rs"]
pub mod parsa_energy;
#[path = "../../papers/parsa/experiments/parsa_lanes.rs"]
pub mod parsa_lanes;
#[path = "../../papers/parsa/experiments/parsa_model.rs"]
pub mod parsa_model;
#[path = "../../papers/parsa/experiments/parsa_mttf.rs"]
pub mod parsa_mttf;
#[path = "../../papers/parsa/experiments/parsa_tables.rs"]
pub mod parsa_tables;
#[path = "../../papers/parsa/experiments/parsa_text.rs"]
pub mod parsa_text;
#[path = "../../papers/parsa/experiments/parsa_threads.rs"]
pub mod parsa_threads;
#[path = "../../papers/scc_blowfish/experiments/scc_blowfish.rs"]
pub mod scc_blowfish;
#[path = "../../papers/scc_blowfish/experiments/scc_blowfish_paper.rs"]
pub mod scc_blowfish_paper;
#[path = "../../papers/scc_blowfish/experiments/scc_blowfish_scc.rs"]
pub mod scc_blowfish_scc;
#[path = "../../papers/scc_blowfish/experiments/scc_blowfish_stages.rs"]
pub mod scc_blowfish_stages;
pub mod statements;

use super::judge::{Estimate, Evidence};
use super::sampling::{self, Rounds};
use super::{Cell, Context, Experiment, Profile, Quality};
use crate::bench::BenchConfig;

/// Every experiment, in report order.
pub fn all() -> Vec<Box<dyn Experiment>> {
    let mut v: Vec<Box<dyn Experiment>> = Vec::new();
    v.extend(parsa::experiments());
    v.extend(parsa_threads::experiments());
    v.extend(parsa_text::experiments());
    v.extend(parsa_model::experiments());
    v.extend(parsa_energy::experiments());
    v.extend(parsa_mttf::experiments());
    v.extend(parsa_dse::experiments());
    v.extend(scc_blowfish::experiments());
    v.extend(crsa::experiments());
    v.extend(mary_karatsuba::experiments());
    v.extend(mary_karatsuba_mul::experiments());
    v.extend(mary_karatsuba_counts::experiments());
    v.extend(cipher_energy::experiments());
    v
}

/// Repetition rules for a profile when an experiment times many runs in one go: at least 5
/// runs and 0.3 s per configuration for `quick`; 7 runs and 2 s for `full`.
pub fn bench_config(profile: Profile) -> BenchConfig {
    match profile {
        Profile::Quick => BenchConfig {
            warmup_runs: 1,
            min_runs: 5,
            min_time: 0.3,
            max_runs: 30,
        },
        Profile::Full => BenchConfig {
            warmup_runs: 1,
            min_runs: 7,
            min_time: 2.0,
            max_runs: 50,
        },
    }
}

/// The benchmark call of one paired round: `repeats` timed runs of every configuration,
/// interleaved, of which the round keeps the fastest (interference on a shared machine only
/// slows a run down). The first round warms up once; later ones do not.
pub fn round_config(round: usize, repeats: u32) -> BenchConfig {
    BenchConfig {
        warmup_runs: u32::from(round == 0),
        min_runs: repeats.max(1),
        min_time: 0.0,
        max_runs: repeats.max(1),
    }
}

/// The fastest of a round's runs (NaN when there are none).
pub fn fastest(samples: &[f64]) -> f64 {
    samples.iter().copied().fold(f64::NAN, f64::min)
}

/// The rounds' key of the free-core probe for `threads` threads.
pub fn free_cores_key(threads: usize) -> String {
    format!("{}{threads}", sampling::FREE_CORES)
}

/// A free-core probe for a round: `threads` threads of independent GMP products against one
/// thread, as a fraction of the ideal throughput (1.0 = every thread had a free core).
pub fn free_cores_sample(threads: usize) -> (String, f64) {
    let t = threads.max(1);
    (free_cores_key(t), crate::bench::capacity::free_cores(t))
}

/// The free-core efficiency for a configuration of `threads` threads over the rounds: the
/// probe of as many threads as the machine runs at once.
pub fn free_cores(ctx: &Context, r: &Rounds, threads: usize) -> Option<Estimate> {
    r.median(&free_cores_key(probe_threads(ctx, threads)))
}

/// How many threads the free-core probe for a `threads`-thread configuration runs: the
/// configuration's own count (a configuration with more threads than logical CPUs decides no
/// claim, so its probe stops at the CPUs).
pub fn probe_threads(ctx: &Context, threads: usize) -> usize {
    threads.min(ctx.machine.logical_cores).max(2)
}

/// The free-core probes a round runs: one per thread count a judged parallel claim needs
/// (as [`probe_threads`] caps it), sorted, each once.
pub fn probe_counts(ctx: &Context, needs: impl IntoIterator<Item = usize>) -> Vec<usize> {
    let mut v: Vec<usize> = needs.into_iter().map(|t| probe_threads(ctx, t)).collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Test helper: every paper-check in `fed` is judged consistent, except the ids in
/// `inconsistent`, which are judged inconsistent.
#[cfg(test)]
pub fn assert_paper_checks(fed: &[super::Fed], inconsistent: &[&str]) {
    use super::{Verdict, judge};
    for f in fed {
        let c = crate::claims::find(&f.claim).expect("a registered claim");
        let want = if inconsistent.contains(&f.claim.as_str()) {
            Verdict::Inconsistent
        } else {
            Verdict::Consistent
        };
        assert_eq!(
            judge(c, &f.evidence),
            want,
            "{}: {:?}",
            f.claim,
            f.evidence.estimates
        );
    }
}

/// Test helper: every paper-check in `fed` that its evidence makes inconsistent names the
/// defect of the paper it rests on (one finding per defect); returns the defects, each once.
#[cfg(test)]
pub fn assert_defects(fed: &[super::Fed]) -> Vec<&'static str> {
    use super::{Verdict, judge};
    let mut defects = Vec::new();
    for f in fed {
        let c = crate::claims::find(&f.claim).expect("a registered claim");
        if judge(c, &f.evidence) == Verdict::Inconsistent {
            let d = c
                .defect
                .unwrap_or_else(|| panic!("{}: inconsistent without a defect", c.id));
            if !defects.contains(&d) {
                defects.push(d);
            }
        }
    }
    defects
}

/// Test helper: `n` paired rounds of `keys` whose values change from round to round and
/// from key to key, so that every per-round ratio between keys changes too.
#[cfg(test)]
pub fn varied_rounds(keys: &[String], n: usize) -> Rounds {
    let mut r = Rounds::new();
    for i in 0..n {
        r.push(
            keys.iter()
                .enumerate()
                .map(|(j, k)| (k.clone(), 1.0 + 0.1 * ((i * 3 + j * 5) % 7) as f64))
                .collect(),
        );
    }
    r
}

/// Test helper: each measured series of `chart` draws, behind each of its points, the `n`
/// rounds that point comes from: `n` rounds at the point's x whose median is the point's value.
#[cfg(test)]
pub fn assert_rounds_behind_points(chart: &crate::study::Chart, n: usize) {
    use crate::study::Provenance;
    let measured: Vec<_> = chart
        .series
        .iter()
        .filter(|s| s.provenance == Provenance::Measured)
        .collect();
    assert!(!measured.is_empty(), "{}: no measured series", chart.title);
    for s in measured {
        let what = format!("{}: {}", chart.title, s.name);
        assert!(!s.points.is_empty(), "{what}: no points");
        assert_eq!(s.rounds.len(), n * s.points.len(), "{what}");
        for p in &s.points {
            let at: Vec<f64> = s
                .rounds
                .iter()
                .filter(|r| r.0 == p.x)
                .map(|r| r.1)
                .collect();
            assert_eq!(at.len(), n, "{what}: rounds at x = {}", p.x);
            let m = crate::bench::stats::median(at);
            assert!(
                (m - p.y).abs() <= 1e-9 * p.y.abs().max(1.0),
                "{what}: the rounds' median {m} is not the point's {}",
                p.y
            );
        }
    }
}

/// A number cell (missing when not finite).
pub fn num(x: f64) -> Cell {
    Cell::num(x)
}

/// A whole-number cell (counts, sizes).
pub fn int(n: impl TryInto<i64>) -> Cell {
    Cell::int(n)
}

/// A text cell.
pub fn text(s: impl Into<String>) -> Cell {
    Cell::text(s)
}

/// An optional number cell.
pub fn opt(v: Option<f64>) -> Cell {
    Cell::opt(v)
}

/// An estimate with its 95 % interval as one measured cell in `unit` (missing when there is
/// none).
pub fn measured(e: Option<Estimate>, unit: &str) -> Cell {
    e.map_or(Cell::Missing, |e| {
        Cell::measured(e.value, e.low, e.high, unit)
    })
}

/// The single rounds of a per-round quantity `f` at `x`, `(x, value)` each: the strip a chart
/// draws behind its point at `x`, from the same values the point's median and interval come
/// from (see [`Rounds::each`]).
pub fn strip(r: &Rounds, x: f64, f: impl Fn(&sampling::Values) -> f64) -> Vec<(f64, f64)> {
    r.each(f).into_iter().map(|y| (x, y)).collect()
}

/// Time reduction in % for a speedup s: 1 − 1/s (the papers' "x % performance improvement").
pub fn reduction_pct(speedup: f64) -> f64 {
    (1.0 - 1.0 / speedup) * 100.0
}

/// A time ratio as a change in %: (r − 1) × 100 (negative = faster).
pub fn change_pct(ratio: f64) -> f64 {
    (ratio - 1.0) * 100.0
}

/// Report-only evidence (for by-construction and not-testable claims), one per (claim, how).
pub fn reported(claims: &[(&str, &str)]) -> Vec<crate::study::Fed> {
    claims
        .iter()
        .map(|(id, how)| crate::study::fed(id, Evidence::report(how)))
        .collect()
}

/// A paper-check's evidence: `values` worked out exactly from the paper's own numbers, as
/// `how` says.
pub fn paper_check(id: &str, values: &[f64], how: &str) -> crate::study::Fed {
    let exact = values.iter().map(|x| Estimate::exact(*x)).collect();
    crate::study::fed(id, Evidence::arithmetic(exact, how))
}

/// The mean of `values` with its 95 % percentile-bootstrap interval (resamples seeded, so
/// the same values give the same interval); exact when every value is the same.
pub fn mean_with_interval(values: &[f64]) -> Estimate {
    let mean = |idx: &mut dyn Iterator<Item = f64>| {
        let (sum, n) = idx.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
        sum / n.max(1) as f64
    };
    let value = mean(&mut values.iter().copied());
    let means: Vec<f64> = crate::bench::stats::bootstrap_resamples(
        values.len(),
        crate::bench::stats::BOOTSTRAP_RESAMPLES,
        3,
    )
    .map(|idx| mean(&mut idx.into_iter().map(|i| values[i])))
    .collect();
    match crate::bench::stats::percentile_interval(means, crate::bench::stats::BOOTSTRAP_RESAMPLES)
    {
        Some((lo, hi)) => Estimate::new(value, lo.min(value), hi.max(value)),
        None => Estimate::exact(value),
    }
}

/// The evidence for a claim needing `needed` hardware threads when this machine has fewer
/// (not testable, reason `needs-N-threads`); `None` when it has enough.
pub fn needs_threads(ctx: &Context, needed: usize) -> Option<Evidence> {
    let have = ctx.machine.logical_cores;
    (have < needed).then(|| Evidence::needs_threads(needed, have))
}

/// The summary sentence on how sure a timed experiment is; each round kept the fastest of
/// `runs` (e.g. "3 interleaved runs") per configuration.
pub fn quality_note(q: &Quality, runs: &str) -> String {
    format!(
        "{} paired rounds ({} re-measured for inconclusive claims{}), each keeping the fastest of {runs} per \
         configuration; median 95 % interval ±{:.1} % of the median{}.",
        q.rounds,
        q.extra_rounds,
        q.set_aside_text(),
        q.spread_pct,
        if q.noisy {
            "; noisy: some configuration's interval is wider than ±10 %"
        } else {
            ""
        }
    )
}

/// "1 run", "3 interleaved runs".
pub fn runs_text(n: u32) -> String {
    if n == 1 {
        "1 run".into()
    } else {
        format!("{n} interleaved runs")
    }
}

#[cfg(test)]
mod tests {
    /// Every experiment that measures rounds builds its evidence through
    /// `set_aside_checked`, which checks each verdict with the set-aside rounds kept: a file
    /// that calls `sampling::measure` calls it as often.
    #[test]
    fn every_experiment_that_measures_rounds_checks_its_evidence_with_the_set_aside_ones() {
        // The experiments live in their papers' folders (`src/papers/<paper>/experiments/`).
        let papers = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/papers");
        let mut files = Vec::new();
        for paper in std::fs::read_dir(&papers).unwrap() {
            let dir = paper.unwrap().path().join("experiments");
            for entry in std::fs::read_dir(&dir).into_iter().flatten() {
                files.push(entry.unwrap().path());
            }
        }
        let mut measuring = 0;
        for path in files {
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            let measures = text.matches("sampling::measure(").count();
            let checked = text.matches("crate::study::set_aside_checked(").count();
            measuring += usize::from(measures > 0);
            assert!(
                checked >= measures,
                "{}: {measures} sampling::measure, {checked} set_aside_checked",
                path.display()
            );
        }
        assert!(
            measuring >= 8,
            "{measuring} experiment files measure rounds"
        );
    }
}
