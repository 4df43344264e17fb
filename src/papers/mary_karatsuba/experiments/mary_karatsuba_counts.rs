//! m-ary/Karatsuba without a clock: the MulMod counts of our exponentiation methods on random
//! operands of the seed's sizes (the work split the slides describe: fewer products, balanced
//! comb threads, unbalanced slices), each figure a mean over [`SAMPLES`] exponents with a
//! bootstrap interval; with them, the slides' own arithmetic (`mary_karatsuba_paper`).
use super::{mean_with_interval, num as num_cell, text};
use crate::claims::mary_karatsuba::Setup;
use crate::claims::mary_karatsuba::checks::{self, Count, Counted, SAMPLES};
use crate::claims::num;
use crate::error::{Error, Result};
use crate::study::estimate::reference_s;
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Profile,
    Provenance, Series, Table, fed,
};
use parcrypt::modexp::{Params, Slicing, UnitCount, method, pow_mod_vartime};

/// The counts' provenance.
const MODEL: &str = "MulMod counts of src/modexp on random operands of the seed's sizes";
use crate::suites::modexp::critical_path;
use rug::Integer;
use std::collections::HashMap;

/// The counting experiment of m-ary/Karatsuba.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Counts)]
}

struct Counts;

/// The counted units of one exponentiation, and the exponent's bits.
struct Run {
    counts: Vec<UnitCount>,
    exp_bits: u32,
}

/// The operands of sample `i` at `bits`: the seed's operands (seed 3) first, then others.
fn sample_seed(i: usize) -> u64 {
    3 + i as u64
}

fn count(s: &Setup, sample: usize) -> Result<Run> {
    let (b, e, m) = crate::suites::modexp::operands(s.bits, sample_seed(sample));
    let p = Params {
        threads: s.threads,
        window: s.window,
        precomp_threads: s.pt,
        slicing: match s.cut {
            crate::claims::mary_karatsuba::Cut::Balanced => Slicing::Balanced,
            crate::claims::mary_karatsuba::Cut::Even => Slicing::Even,
            crate::claims::mary_karatsuba::Cut::Uneven => Slicing::Uneven,
        },
        ..Params::default()
    };
    let out = pow_mod_vartime(method(s.method)?.as_ref(), &b, &e, &m, &p)?;
    if out.value != Integer::from(b.pow_mod_ref(&e, &m).expect("e >= 0")) {
        return Err(Error::internal(format!("{} wrong", s.describe())));
    }
    Ok(Run {
        counts: out.counts,
        exp_bits: e.significant_bits(),
    })
}

fn working(run: &Run) -> Vec<(usize, &UnitCount)> {
    run.counts
        .iter()
        .filter_map(|c| {
            c.unit
                .strip_prefix("thread ")
                .and_then(|t| t.parse().ok())
                .map(|t| (t, c))
        })
        .collect()
}

/// The thread that holds the exponent's top bits: the last slice, or the comb thread of the
/// top digit.
fn top_thread(s: &Setup, run: &Run) -> usize {
    if s.method == "slice" {
        return s.threads.saturating_sub(1);
    }
    let r = s.window.unwrap_or(1).max(1);
    (run.exp_bits.div_ceil(r) as usize).saturating_sub(1) % s.threads.max(1)
}

/// Every counted run, by setup key: one per sample.
type Runs = HashMap<String, Vec<Run>>;

/// A count's figure on sample `i`.
fn figure(c: &Count, runs: &Runs, i: usize) -> f64 {
    let run = |s: &Setup| &runs[&s.key()][i];
    let total = |s: &Setup| run(s).counts.iter().map(UnitCount::mulmods).sum::<u64>() as f64;
    match c {
        Count::Total(a, b) => total(a) / total(b),
        Count::Critical(a, b) => {
            critical_path(&run(a).counts) as f64 / critical_path(&run(b).counts) as f64
        }
        Count::Imbalance(a) => {
            let w: Vec<f64> = working(run(a))
                .iter()
                .map(|(_, c)| c.mulmods() as f64)
                .collect();
            let hi = w.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            hi / w.iter().copied().fold(f64::INFINITY, f64::min)
        }
        Count::ThreadProducts(a, b) => {
            let most = working(run(a))
                .iter()
                .map(|(_, c)| c.multiplications)
                .max()
                .unwrap_or(0);
            let all: u64 = working(run(b)).iter().map(|(_, c)| c.multiplications).sum();
            most as f64 / all as f64
        }
        Count::Top(a) => {
            let top = top_thread(a, run(a));
            let w = working(run(a));
            let mine = w
                .iter()
                .find(|(t, _)| *t == top)
                .map_or(0, |(_, c)| c.mulmods());
            let others = w
                .iter()
                .filter(|(t, _)| *t != top)
                .map(|(_, c)| c.mulmods())
                .max()
                .unwrap_or(0);
            mine as f64 / others as f64
        }
        Count::TotalRatioOfRatios([a, b, cc, d]) => (total(a) / total(b)) / (total(cc) / total(d)),
    }
}

impl Experiment for Counts {
    fn id(&self) -> &'static str {
        checks::EXPERIMENT
    }
    fn estimate_s(&self, profile: Profile) -> f64 {
        reference_s(profile, 5.0, 5.0)
    }
    fn run(&self, _: &Context) -> Result<Output> {
        let counted = checks::counts();
        let mut runs = Runs::new();
        let mut table = Table::new(&[
            "configuration",
            "mean_mulmods",
            "mean_critical_path_mulmods",
            "mean_busiest_thread_mulmods",
            "mean_least_busy_thread_mulmods",
        ]);
        let (mut names, mut busiest, mut least) = (Vec::new(), Vec::new(), Vec::new());
        for s in counted
            .iter()
            .flat_map(|c| c.parts.iter().flat_map(Count::setups))
        {
            if runs.contains_key(&s.key()) {
                continue;
            }
            let sampled = (0..SAMPLES)
                .map(|i| count(&s, i))
                .collect::<Result<Vec<_>>>()?;
            let mean = |f: &dyn Fn(&Run) -> u64| {
                sampled.iter().map(|r| f(r) as f64).sum::<f64>() / sampled.len() as f64
            };
            let thread_mulmods =
                |r: &Run| -> Vec<u64> { working(r).iter().map(|(_, c)| c.mulmods()).collect() };
            let hi = mean(&|r| thread_mulmods(r).into_iter().max().unwrap_or(0));
            let lo = mean(&|r| thread_mulmods(r).into_iter().min().unwrap_or(0));
            if s.threads > 1 {
                let x = names.len() as f64;
                names.push(s.describe());
                busiest.push((x, hi));
                least.push((x, lo));
            }
            table.push(vec![
                text(s.describe()),
                num_cell(mean(&|r| r.counts.iter().map(UnitCount::mulmods).sum())),
                num_cell(mean(&|r| critical_path(&r.counts))),
                num_cell(hi),
                num_cell(lo),
            ]);
            runs.insert(s.key(), sampled);
        }
        let mut evidence: Vec<Fed> = counted.iter().map(|c| count_evidence(c, &runs)).collect();
        evidence.extend(super::mary_karatsuba_paper::paper_evidence());
        let result = ExperimentResult::new(
            self.id(),
            self.paper_id(),
            "MulMod counts and the slides' arithmetic",
            "the work split of m-ary and slicing (intro slides); the wrap-ups and conclusions against their slides",
            Provenance::Modelled("MulMod counts of src/modexp on the seed's operands; the slides' own numbers".into()),
            format!("Each configuration run on {SAMPLES} random operands of its size (the seed's first; each checked against GMP) with \
                      every modular product counted per thread: total MulMods, the critical path (busiest unit of each phase) and the \
                      busiest and least busy working thread, means over the operands. Each claim's figure is computed per exponent \
                      (exact) and judged on its mean with a 95 % bootstrap interval over the exponents, so no verdict rests on one \
                      exponent. The slides' summaries are checked against the figures they summarise, and two printed gains against \
                      the MulMod count bound of their configuration (paper-checks)."),
        )
        .with_table(table)
        .with_charts(vec![
                Chart::bar(
                    "Work per thread: the busiest and the least busy thread's MulMods (counted, exact)",
                    "configuration",
                    "MulMods",
                    names,
                )
                .with(Series::from_xy("busiest thread", busiest, Provenance::Modelled(MODEL.into())))
                .with(Series::from_xy("least busy thread", least, Provenance::Modelled(MODEL.into())))
                .note("Means over the operands. Comb m-ary threads each square about k times, so they stay within a few per cent of each other; even slices leave the top slice three times the lowest one's work; balanced slices even it out."),
            ]);
        Ok(Output { result, evidence })
    }
}

fn count_evidence(c: &Counted, runs: &Runs) -> Fed {
    let per_part: Vec<Vec<f64>> = c
        .parts
        .iter()
        .map(|p| (0..SAMPLES).map(|i| figure(p, runs, i)).collect())
        .collect();
    let estimates: Vec<Estimate> = per_part.iter().map(|v| mean_with_interval(v)).collect();
    let range = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        format!("{} to {}", num(lo), num(hi))
    };
    let text = estimates
        .iter()
        .zip(&per_part)
        .map(|(e, v)| format!("{} (one exponent: {})", e.text(&c.claim.unit), range(v)))
        .collect::<Vec<_>>()
        .join("; ");
    fed(
        &c.claim.id,
        Evidence::sampled(
            estimates,
            SAMPLES,
            &format!(
                "MulMods counted per thread on each of {SAMPLES} random operands (exact per exponent); the mean over the exponents with its 95 % bootstrap interval"
            ),
        )
        .text(text),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_follow_the_methods_work_split() {
        // Even slices on 4 threads: the top slice squares through every lower bit.
        let s = Setup::new("slice", 1024, 4).even();
        let run = count(&s, 0).unwrap();
        assert_eq!(top_thread(&s, &run), 3);
        let runs = HashMap::from([(s.key(), vec![run, count(&s, 1).unwrap()])]);
        for i in 0..2 {
            assert!(figure(&Count::Imbalance(s), &runs, i) > 2.0);
            assert!(figure(&Count::Top(s), &runs, i) > 1.0);
        }
    }

    #[test]
    fn a_mean_over_exponents_has_a_bootstrap_interval() {
        let e = mean_with_interval(&[1.0, 1.0, 1.0]);
        assert_eq!((e.low, e.value, e.high), (1.0, 1.0, 1.0));
        let v: Vec<f64> = (0..32).map(|i| 1.0 + f64::from(i % 4) * 0.01).collect();
        let e = mean_with_interval(&v);
        assert!((e.value - 1.015).abs() < 1e-12);
        assert!(
            e.low < e.value && e.value < e.high && e.high - e.low < 0.02,
            "{e:?}"
        );
        assert_eq!(
            e,
            mean_with_interval(&v),
            "seeded: the same values, the same interval"
        );
    }

    /// A table-sharing claim's time-shared table is a sliver of its exponentiation, as
    /// [`crate::claims::mary_karatsuba::Timed::table_shares`] requires: counted, not assumed.
    #[test]
    fn time_shared_tables_are_under_a_hundredth_of_the_work() {
        use crate::claims::mary_karatsuba::{Measure, TABLE_SHARE_MAX, modexp};
        let shares: Vec<_> = modexp::timed()
            .into_iter()
            .filter(|t| t.table_shares)
            .collect();
        assert_eq!(shares.len(), 3);
        for t in &shares {
            for s in t
                .parts
                .iter()
                .flat_map(Measure::setups)
                .filter(|s| s.pt.is_some())
            {
                let run = count(&s, 0).unwrap();
                let all: u64 = run.counts.iter().map(UnitCount::mulmods).sum();
                let table: Vec<u64> = run
                    .counts
                    .iter()
                    .filter(|c| c.unit.starts_with("precomp"))
                    .map(UnitCount::mulmods)
                    .collect();
                // What time-sharing can delay: the table work that would have overlapped
                // the longest table thread on as many cores as table threads.
                let delay = table.iter().sum::<u64>() - table.iter().max().unwrap_or(&0);
                let share = delay as f64 / all as f64;
                assert!(
                    share < TABLE_SHARE_MAX,
                    "{}: {}: {share}",
                    t.claim.id,
                    s.key()
                );
                assert!(s.needs() > s.needs_sharing_table(), "{}", s.key());
            }
        }
    }
}
