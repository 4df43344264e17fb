//! Seed 003 without a clock: the MulMod counts of our exponentiation methods on the seed's
//! operands (the work split the slides describe: fewer products, balanced comb threads,
//! unbalanced slices), and the slides' own arithmetic (their summaries against the figures
//! they summarise, derived figures against their inputs).
use super::{int, paper_check, text};
use crate::claims::num;
use crate::claims::seed003::checks::{
    self, CONCLUSION_MUL, Count, Counted, I7_PAIRS, NEWER_HW_SIZES, ONDEMAND_8192_R6_3THR_PRINTED,
    ONDEMAND_WRAPUP_THREADS, SLICE_WRAPUP,
};
use crate::claims::seed003::{
    E5_2650, HANDOFF_US, I7_2600, I7_6800K, KARATSUBA_PARALLEL, MODEXP_BEST, Measure, Setup,
    karatsuba_us, modexp,
};
use crate::error::{Error, Result};
use crate::modexp::{Params, Slicing, UnitCount, method, pow_mod_vartime};
use crate::study::{
    Chart, Context, Estimate, Evidence, Experiment, ExperimentResult, Fed, Output, Profile,
    Provenance, Series, Table, fed,
};

/// The counts' provenance.
const MODEL: &str = "MulMod count of src/modexp on the seed's operands";
use crate::suites::modexp::critical_path;
use rug::Integer;
use std::collections::HashMap;

/// The counting experiment of seed 003.
pub fn experiments() -> Vec<Box<dyn Experiment>> {
    vec![Box::new(Counts)]
}

struct Counts;

/// The counted units of one exponentiation, and the exponent's bits.
struct Run {
    counts: Vec<UnitCount>,
    exp_bits: u32,
}

fn count(s: &Setup) -> Result<Run> {
    let (b, e, m) = crate::suites::modexp::operands(s.bits, 3);
    let p = Params {
        threads: s.threads,
        window: s.window,
        precomp_threads: s.pt,
        slicing: match s.cut {
            crate::claims::seed003::Cut::Balanced => Slicing::Balanced,
            crate::claims::seed003::Cut::Even => Slicing::Even,
            crate::claims::seed003::Cut::Uneven => Slicing::Uneven,
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

fn figure(c: &Count, runs: &HashMap<String, Run>) -> f64 {
    let run = |s: &Setup| &runs[&s.key()];
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
    fn estimate_s(&self, _: Profile) -> f64 {
        1.0
    }
    fn run(&self, _: &Context) -> Result<Output> {
        let counted = checks::counts();
        let mut runs: HashMap<String, Run> = HashMap::new();
        let mut table = Table::new(&[
            "configuration",
            "mulmods",
            "critical_path_mulmods",
            "busiest_thread_mulmods",
            "least_busy_thread_mulmods",
        ]);
        let (mut names, mut busiest, mut least) = (Vec::new(), Vec::new(), Vec::new());
        for s in counted
            .iter()
            .flat_map(|c| c.parts.iter().flat_map(Count::setups))
        {
            if runs.contains_key(&s.key()) {
                continue;
            }
            let run = count(&s)?;
            let w: Vec<u64> = working(&run).iter().map(|(_, c)| c.mulmods()).collect();
            let (hi, lo) = (
                w.iter().copied().max().unwrap_or(0),
                w.iter().copied().min().unwrap_or(0),
            );
            if s.threads > 1 {
                let x = names.len() as f64;
                names.push(s.describe());
                busiest.push((x, hi as f64));
                least.push((x, lo as f64));
            }
            table.push(vec![
                text(s.describe()),
                int(run.counts.iter().map(UnitCount::mulmods).sum::<u64>()),
                int(critical_path(&run.counts)),
                int(hi),
                int(lo),
            ]);
            runs.insert(s.key(), run);
        }
        let mut evidence: Vec<Fed> = counted.iter().map(|c| count_evidence(c, &runs)).collect();
        evidence.extend(paper_evidence());
        let result = ExperimentResult::new(
            self.id(),
            self.seed(),
            "MulMod counts and the slides' arithmetic",
            "the work split of m-ary and slicing (intro slides); the wrap-ups and conclusions against their slides",
            Provenance::Modelled("MulMod counts of src/modexp on the seed's operands; the slides' own numbers".into()),
            "Each configuration run once on the seed's operands (checked against GMP) with every modular product \
                      counted per thread: total MulMods, the critical path (busiest unit of each phase) and the busiest and least \
                      busy working thread. Counts are exact, so they decide by construction of the code, not by timing. The \
                      slides' summaries are checked against the figures they summarise (paper-checks).",
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
                .note("Comb m-ary threads each square about k times, so they stay within a few per cent of each other; even slices leave the top slice three times the lowest one's work; balanced slices even it out."),
            ]);
        Ok(Output { result, evidence })
    }
}

fn count_evidence(c: &Counted, runs: &HashMap<String, Run>) -> Fed {
    let estimates: Vec<Estimate> = c
        .parts
        .iter()
        .map(|p| Estimate::exact(figure(p, runs)))
        .collect();
    fed(
        &c.claim.id,
        Evidence::modelled(
            estimates,
            "MulMods counted per thread on the seed's operands (exact)",
        ),
    )
}

/// The printed gains of the exponentiation slides' own configurations: (setup, %).
fn printed_configs() -> Vec<(Setup, f64)> {
    modexp::timed()
        .into_iter()
        .flat_map(|t| {
            t.parts
                .into_iter()
                .zip(t.printed)
                .filter_map(|(m, p)| match (m, p) {
                    (Measure::Change(s), Some(p)) if s.window.is_some() => Some((s, p)),
                    _ => None,
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every paper-check's figures, from the slides' numbers as registered.
fn paper_evidence() -> Vec<Fed> {
    let printed = Printed::new();
    let mut v = vec![
        fed(
            "seed003-count-table-unused",
            Evidence::report("by construction: 128 digits, 254 table entries"),
        ),
        paper_check("seed003-check-karatsuba-exponent", &[3f64.log2()], "log2 3"),
    ];
    v.extend(modexp_checks(&printed));
    v.push(paper_check(
        "seed003-check-spawn-vs-product",
        &spawn_over_product(),
        "the cheapest activation over GMPmul from the table",
    ));
    v.extend(karatsuba_checks());
    v.push(paper_check(
        "seed003-check-conclusion-modexp",
        &["slice", "mary-ondemand", "mary-precomp"].map(|m| printed.best(m, |_| true)),
        "each method's best printed figure",
    ));
    v.push(conclusion_mul());
    v
}

/// The exponentiation slides' printed gains: their best figures and their configurations.
struct Printed {
    configs: Vec<(Setup, f64)>,
}

impl Printed {
    fn new() -> Self {
        Printed {
            configs: printed_configs(),
        }
    }

    /// The best printed gain of method `m` over the sizes `at` accepts: its best figures
    /// and its slides' configurations.
    fn best(&self, m: &str, at: impl Fn(u32) -> bool) -> f64 {
        MODEXP_BEST
            .iter()
            .filter(|b| b.0 == m && at(b.1))
            .map(|b| b.2)
            .chain(
                self.configs
                    .iter()
                    .filter(|(s, _)| s.method == m && at(s.bits))
                    .map(|c| c.1),
            )
            .fold(f64::INFINITY, f64::min)
    }

    /// The best printed on-demand gain at `bits`.
    fn ondemand_best(&self, bits: u32) -> f64 {
        self.best("mary-ondemand", |b| b == bits)
    }

    /// The best 2^4-ary gain printed on the precomputation slides.
    fn r4_best(&self) -> f64 {
        self.configs
            .iter()
            .filter(|(s, _)| s.method == "mary-precomp" && s.window == Some(4))
            .map(|c| c.1)
            .fold(f64::INFINITY, f64::min)
    }
}

/// The exponentiation slides' summaries against their figures.
fn modexp_checks(printed: &Printed) -> Vec<Fed> {
    let other_sizes = [4096u32, 8192, 16384, 32768]
        .iter()
        .map(|b| printed.ondemand_best(*b))
        .fold(f64::NEG_INFINITY, f64::max);
    let slice_gaps = SLICE_WRAPUP.map(|(b, p)| {
        p - MODEXP_BEST
            .iter()
            .find(|x| x.0 == "slice" && x.1 == b)
            .map_or(f64::NAN, |x| x.2)
    });
    let twice = (ONDEMAND_8192_R6_3THR_PRINTED[0] - ONDEMAND_8192_R6_3THR_PRINTED[1]).abs();
    vec![
        paper_check(
            "seed003-check-mary-wrapup",
            &[printed.best("mary-precomp", |_| true)],
            "the largest gain printed on the precomputation slides",
        ),
        paper_check(
            "seed003-check-precomp-r4-max",
            &[printed.r4_best()],
            "the largest 2^4-ary gain printed on the precomputation slides",
        ),
        paper_check(
            "seed003-check-ondemand-wrapup",
            &[printed.ondemand_best(1024), other_sizes],
            "each size's best on-demand figure as printed",
        ),
        ondemand_best_threads(printed),
        paper_check(
            "seed003-check-ondemand-8192-twice",
            &[twice],
            "|−27 − (−25)|",
        ),
        paper_check(
            "seed003-check-slice-wrapup",
            &slice_gaps,
            "wrap-up less results slide",
        ),
    ]
}

/// How many of each size's best on-demand configurations use a thread count the wrap-up
/// does not name.
fn ondemand_best_threads(printed: &Printed) -> Fed {
    let on_slide: Vec<&(Setup, f64)> = printed
        .configs
        .iter()
        .filter(|(s, p)| s.method == "mary-ondemand" && *p == printed.ondemand_best(s.bits))
        .collect();
    let off_threads = on_slide
        .iter()
        .filter(|(s, _)| !ONDEMAND_WRAPUP_THREADS.contains(&s.threads))
        .count() as f64;
    let listed = on_slide
        .iter()
        .map(|(s, p)| {
            format!(
                "{} bits 2^{}-ary {} thr {} %",
                s.bits,
                s.window.unwrap_or(0),
                s.threads,
                num(*p)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    paper_check(
        "seed003-check-ondemand-best-threads",
        &[off_threads],
        &format!("best on-demand configurations per size: {listed}"),
    )
}

/// The cheapest activations over GMP's product from the hand-off table.
fn spawn_over_product() -> [f64; 2] {
    let activation = |n: &str| {
        HANDOFF_US
            .iter()
            .find(|h| h.0 == n)
            .map_or(f64::NAN, |h| h.1)
    };
    let gmp_us = |b| karatsuba_us("gmp", b).unwrap_or(f64::NAN);
    [
        activation("spawn") / gmp_us(4096),
        activation("spawn+join") / gmp_us(8192),
    ]
}

/// A registered parallel-Karatsuba change (vs GMP, vs karaMul) of `method` at `bits` on
/// `machine`.
fn kara(method: &str, bits: u32, machine: &str) -> Option<(Option<f64>, Option<f64>)> {
    KARATSUBA_PARALLEL
        .iter()
        .find(|r| r.0 == method && r.1 == bits && r.4 == machine)
        .map(|r| (r.2, r.3))
}

/// A fraction as whole percent.
fn pct(x: f64) -> f64 {
    (x * 100.0).round()
}

/// The largest of `v` (−∞ when empty).
fn most(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::NEG_INFINITY, f64::max)
}

/// The smallest of `v` (∞ when empty).
fn least(v: &[f64]) -> f64 {
    v.iter().copied().fold(f64::INFINITY, f64::min)
}

/// The Karatsuba slides' summaries against their tables.
fn karatsuba_checks() -> Vec<Fed> {
    vec![
        fed(
            "seed003-check-kara-i7-table",
            Evidence::arithmetic(
                i7_pairs(),
                "(1 + change vs GMP) / (1 + change vs karaMul), with ±0.5 % printing",
            ),
        ),
        paper_check(
            "seed003-check-kara-newer-hw",
            &newer_hw(),
            "i7-6800K's change less E5-2650 v2's, in points",
        ),
        paper_check(
            "seed003-check-kara-wrapup-seq",
            &wrapup_seq(),
            "the slides' gains over karaMul",
        ),
        paper_check(
            "seed003-check-kara-wrapup-gmp",
            &wrapup_gmp(),
            "the slides' changes against GMP",
        ),
    ]
}

/// Each i7-2600 pair's GMPmul over karaMul, from their two printed changes.
fn i7_pairs() -> Vec<Estimate> {
    I7_PAIRS
        .iter()
        .map(|(m, b)| {
            let (g, s) = kara(m, *b, I7_2600).unwrap_or((None, None));
            let (g, s) = (g.unwrap_or(f64::NAN), s.unwrap_or(f64::NAN));
            Estimate::new(
                (1.0 + g) / (1.0 + s),
                (1.0 + g - 0.005) / (1.0 + s + 0.005),
                (1.0 + g + 0.005) / (1.0 + s - 0.005),
            )
        })
        .collect()
}

/// The i7-6800K's changes less the E5-2650 v2's, in points: against karaMul, then GMP.
fn newer_hw() -> Vec<f64> {
    NEWER_HW_SIZES
        .iter()
        .flat_map(|b| {
            let (g6, s6) = kara("kara-lockfree", *b, I7_6800K).unwrap_or((None, None));
            let (g5, s5) = kara("kara-lockfree", *b, E5_2650).unwrap_or((None, None));
            let d = |a: Option<f64>, b: Option<f64>| {
                (a.unwrap_or(f64::NAN) - b.unwrap_or(f64::NAN)) * 100.0
            };
            [d(s6, s5), d(g6, g5)]
        })
        .collect()
}

/// The lock-free Karatsuba's gains over karaMul at 4096 bits (largest, smallest) and the
/// smallest of all the slides' gains over karaMul.
fn wrapup_seq() -> Vec<f64> {
    let at4096: Vec<f64> = [I7_2600, E5_2650, I7_6800K]
        .iter()
        .filter_map(|m| kara("kara-lockfree", 4096, m).and_then(|x| x.1).map(pct))
        .collect();
    let all_seq: Vec<f64> = KARATSUBA_PARALLEL
        .iter()
        .filter_map(|r| r.3.map(pct))
        .collect();
    vec![most(&at4096), least(&at4096), least(&all_seq)]
}

/// The lock-free Karatsuba's change against GMP at 8192 bits on each machine, and the
/// smallest beyond 8192 bits.
fn wrapup_gmp() -> Vec<f64> {
    let beyond_gmp = KARATSUBA_PARALLEL
        .iter()
        .filter(|r| r.1 > 8192)
        .filter_map(|r| r.2.map(pct))
        .fold(f64::INFINITY, f64::min);
    let at8192 = |m: &str| {
        kara("kara-lockfree", 8192, m)
            .and_then(|x| x.0)
            .map_or(f64::NAN, pct)
    };
    vec![
        at8192(I7_2600),
        at8192(E5_2650),
        at8192(I7_6800K),
        beyond_gmp,
    ]
}

/// The i7-6800K slide's gains over karaMul and its losses against GMP, as the conclusion
/// quotes them.
fn conclusion_mul() -> Fed {
    let seq: Vec<f64> = KARATSUBA_PARALLEL
        .iter()
        .filter(|r| r.4 == I7_6800K && r.0 == "kara-lockfree")
        .filter_map(|r| r.3.map(pct))
        .collect();
    let gains: Vec<f64> = KARATSUBA_PARALLEL
        .iter()
        .filter(|r| r.4 == I7_6800K)
        .filter_map(|r| r.2.map(pct))
        .filter(|x| *x < 0.0)
        .collect();
    paper_check(
        "seed003-check-conclusion-mul",
        &[most(&seq), least(&seq), most(&gains), least(&gains)],
        &format!(
            "the i7-6800K slide (the conclusion quotes {:?})",
            CONCLUSION_MUL
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The slides' arithmetic: which summaries agree with their slides and which do not.
    #[test]
    fn the_slides_own_numbers_agree_where_they_do_and_not_where_they_do_not() {
        let inconsistent = [
            "seed003-check-karatsuba-exponent",
            "seed003-check-ondemand-best-threads",
            "seed003-check-ondemand-8192-twice",
            "seed003-check-kara-i7-table",
            "seed003-check-kara-wrapup-gmp",
        ];
        let fed = paper_evidence();
        let checks: Vec<Fed> = fed
            .iter()
            .filter(|f| f.claim.contains("-check-"))
            .cloned()
            .collect();
        assert_eq!(checks.len(), checks::checks().len() - 1);
        super::super::assert_paper_checks(&checks, &inconsistent);
        let wrapup = fed
            .iter()
            .find(|f| f.claim == "seed003-check-ondemand-wrapup")
            .unwrap();
        let v: Vec<f64> = wrapup.evidence.estimates.iter().map(|e| e.value).collect();
        assert_eq!(v, [-32.0, -27.0]);
        let threads = fed
            .iter()
            .find(|f| f.claim == "seed003-check-ondemand-best-threads")
            .unwrap();
        assert_eq!(
            threads.evidence.estimates[0].value, 2.0,
            "4096 on 4 threads, 32768 on 2"
        );
    }

    #[test]
    fn counts_follow_the_methods_work_split() {
        // Even slices on 4 threads: the top slice squares through every lower bit.
        let s = Setup::new("slice", 1024, 4).even();
        let run = count(&s).unwrap();
        assert_eq!(top_thread(&s, &run), 3);
        let runs = HashMap::from([(s.key(), run)]);
        assert!(figure(&Count::Imbalance(s), &runs) > 2.0);
        assert!(figure(&Count::Top(s), &runs) > 1.0);
    }
}
